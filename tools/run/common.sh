# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh's shared helpers: exit codes (read from exitcode.h), the tools,
# messages, signals, option values, durations and result folders.
# Sourced by run.sh with DLB_SRC set; tested by tests/run_lib.sh.
# Globals set here are read by run.sh and the other parts:
# shellcheck disable=SC2034

# ---- exit codes: parsed from the one table, never copied ----------------------------------
load_exit_codes() {
	EXITH=$DLB_SRC/include/dlbench/exitcode.h
	if [ ! -r "$EXITH" ]; then
		echo "run.sh: exitcode.h not found beside run.sh" >&2
		exit 3	# the one number we cannot read from the table: ENV
	fi
	eval "$(sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\),.*/EXIT_\1=\2/p' "$EXITH")"
	: "${EXIT_OK:?} ${EXIT_REGRESSION:?} ${EXIT_BAD_INPUT:?} ${EXIT_ENV:?} ${EXIT_INCOMPLETE:?} ${EXIT_INTERNAL:?}"
}
exit_text() { sed -n "s/^[[:space:]]*X([A-Z_]*,[[:space:]]*$1, \"\(.*\)\").*/\1/p" "$EXITH"; }

# ---- tools -----------------------------------------------------------------------------------
tool() {	# tool NAME: its path, from the build or PATH
	if [ -x "$BIN/$1" ]; then echo "$BIN/$1"
	elif command -v "$1" >/dev/null 2>&1; then command -v "$1"
	else return 1; fi
}
need_tool() {
	tool "$1" >/dev/null && return 0
	echo "run.sh: $1 not found in $BIN nor in PATH (build it: make)" >&2
	return 1
}
have() { command -v "$1" >/dev/null 2>&1; }

die() { local c=$1; shift; echo "run.sh: $*" >&2; exit "$c"; }
log() { [ "${QUIET:-0}" -eq 1 ] || echo "$*"; }

# need_arg CMD OPTION [VALUE...]: an option's value is there, else the usage error (exit 2)
need_arg() {
	local cmd=$1; shift
	[ $# -ge 2 ] || die "$EXIT_BAD_INPUT" "$cmd: option '$1' needs a value (try --help)"
}

# ---- signals: children run in the background so that a trap can forward --------------------
INTERRUPTED=0
CHILD=
on_signal() {
	INTERRUPTED=1
	[ -n "$CHILD" ] && kill -INT "$CHILD" 2>/dev/null
}
# run_bg CMD...: run in the background, wait through signals, return its status
run_bg() {
	local rc
	"$@" &
	CHILD=$!
	while :; do
		wait "$CHILD"; rc=$?
		kill -0 "$CHILD" 2>/dev/null || break
	done
	CHILD=
	return "$rc"
}

# cmd_log DIR CMD...: append the exact command (shell-quoted) to DIR/commands.sh
cmd_log() {
	local d=$1; shift
	{ printf '%q ' "$@"; echo; } >> "$d/commands.sh"
}

# ---- option values ----------------------------------------------------------------------------
# dur_ok "1.5s"|"500ms"|"2": a duration above 0 (the units dlb-rtapp -d takes)
dur_ok() {
	[[ $1 =~ ^([0-9]+)(\.[0-9]+)?(ns|us|ms|s|m)?$ ]] || return 1
	[[ $1 =~ [1-9] ]]
}
# dur_secs "1.5s"|"500ms"|"2": whole seconds, rounded up (for budgets and buffer sizes)
dur_secs() {
	local d=$1 n u
	n=${d%%[a-z]*}; u=${d#"$n"}
	[[ $n =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo 0; return 1; }
	case $u in
	""|s)	awk -v n="$n" 'BEGIN { printf "%d\n", (n == int(n)) ? n : int(n) + 1 }' ;;
	ms)	awk -v n="$n" 'BEGIN { printf "%d\n", int((n + 999) / 1000) }' ;;
	us|ns)	echo 1 ;;
	m)	awk -v n="$n" 'BEGIN { printf "%d\n", int(n * 60 + 0.999) }' ;;
	*)	echo 0; return 1 ;;
	esac
}
# cpus_ok N: a number of CPUs, 1..1024 (dlb-rtapp's range)
cpus_ok() { [[ $1 =~ ^[1-9][0-9]*$ ]] && [ "$1" -le 1024 ]; }
# limit_ok N|N%|-1|-: a miss limit as dlb-analyze -m takes it
limit_ok() { [[ $1 =~ ^(-1|-|[0-9]+|([0-9]|[1-9][0-9]|100)%)$ ]]; }

# ---- paths and folders ------------------------------------------------------------------------
# abs_path P: P against the user's working directory (run.sh never changes it)
abs_path() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

stamp() { date -u +%Y%m%d-%H%M%S; }

# new_dir BASE: create BASE, or BASE.2, BASE.3... (mkdir is atomic: two runs started in
# the same second never share a folder); prints the one created
new_dir() {
	local d=$1 k=1
	mkdir -p "$(dirname "$d")" || return 1
	until mkdir "$d" 2>/dev/null; do
		[ -e "$d" ] || return 1
		k=$((k + 1)); d=$1.$k
	done
	echo "$d"
}
