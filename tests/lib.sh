# SPDX-License-Identifier: GPL-2.0
# TAP helpers and prerequisite checks for shell tests.  Source it:
#	. "$DLB_SRC/tests/lib.sh"
#	plan 3
#	require need_root need_sched_deadline
#	check "name" cmd args...     # passes when cmd exits 0
# shellcheck shell=bash
# shellcheck disable=SC2034  # BIN, DLB_SKIP_REASON: read by the tests that source this file
set -u
: "${DLB_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
# csv_awk: read CSV files by column name (tools/csv.awk)
. "$DLB_SRC/tools/csv.sh"
BIN=$DLB_BUILD/bin
# asan_fast_unwind: for a test that opens many valid trace.dat files.
# Under SANITIZE the Makefile asks ASan for full stack unwinding on every
# malloc (fast_unwind_on_malloc=0) so that leaks inside libtracecmd, which
# has no frame pointers, match tests/lsan.supp.  Opening a trace.dat parses
# its hundreds of event formats with a malloc per token, each then unwound
# through libgcc: 10-20 s per open instead of 1.8 s (docs/notes/
# hardening.md).  On valid files (no library error path) our own frames
# unwind fast: a leak of ours is still found, a library one would fail
# loudly (unsuppressed), never pass silently.
asan_fast_unwind() { [ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=1; }
_tap_n=0 _tap_plan=0
DLB_SKIP_REASON=

plan() { _tap_plan=$1; echo "1..$1"; }
pass() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1"; }
fail() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
# skip every test left in the plan, with one reason
skip_rest() { while [ "$_tap_n" -lt "$_tap_plan" ]; do skip "prerequisite" "$1"; done; }
# require CHECK...: run each need_* check; at the first that fails, skip the
# rest of the plan with its reason and exit 0
require() {
	local c
	for c in "$@"; do
		"$c" || { skip_rest "$DLB_SKIP_REASON"; exit 0; }
	done
}
# require_built TOOL...: skip the rest of the plan (exit 0) unless each is in $BIN
require_built() {
	local t
	for t in "$@"; do
		[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
	done
}
# kernel_lock_run_sh: take the machine-wide kernel lock on fd 9 and tell the
# run.sh this test starts that the lock is held already
kernel_lock_run_sh() {
	exec 9>/tmp/dlbench-kernel.lock
	flock 9
	export DLB_LOCKED=1
}
# check NAME CONDITION-COMMAND...: pass if the command succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "failed: $*"; fi; }
# entries DIR: the names in DIR (dot files too), sorted, on one line
entries() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort | tr '\n' ' '; }
# expect_eq NAME GOT WANT
expect_eq() { if [ "$2" == "$3" ]; then pass "$1"; else fail "$1" "got:  $2" "want: $3"; fi; }

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	DLB_SKIP_REASON="needs root (uid is $(id -u))"; return 1
}
need_sched_deadline() {
	# chrt -d exists in util-linux; a tiny DL reservation proves the kernel has it
	if command -v chrt >/dev/null && chrt -d --sched-runtime 100000 --sched-deadline 1000000 \
		--sched-period 1000000 0 true 2>/dev/null; then
		return 0
	fi
	DLB_SKIP_REASON="SCHED_DEADLINE unusable here (chrt -d refused)"; return 1
}
need_proc_sched() {
	[ -r /proc/self/sched ] && return 0
	DLB_SKIP_REASON="no /proc/PID/sched (kernel without SCHED_DEBUG)"; return 1
}
tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -w "$d/trace_marker" ] && { echo "$d"; return 0; }
	done
	if [ "$(id -u)" -eq 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
		echo /sys/kernel/tracing; return 0
	fi
	return 1
}
need_tracefs() {
	tracefs_dir >/dev/null && return 0
	DLB_SKIP_REASON="no writable tracefs (not mounted and not mountable)"; return 1
}

# ---- the kernel's DL bandwidth accounting (docs/kernel-findings.md) ----
# A kernel test asserts after every run it makes that the run left each root
# domain's dl_bw->total_bw as it found it (a kernel defect pinned runs could
# trigger).  Usage, under the kernel lock:
#	dl_bw_baseline                       # once, before the first run
#	check_dl_bw "NAME" [SUMMARY.json]    # one TAP test after each run
# dl_bw_totals: every CPU's root-domain .dl_bw->total_bw, space-separated
dl_bw_totals() {
	local f=/sys/kernel/debug/sched/debug
	[ -r "$f" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	awk '$1 == ".dl_bw->total_bw" { printf "%s%s", s, $3; s = " " } END { print "" }' \
		"$f" 2>/dev/null
}
# The baseline is taken once no SCHED_DEADLINE thread is alive and the totals
# have not changed for 0.5 s (polled up to 5 s): a DL task of the lock's former
# holder or another user's chrt -d probe is released up to a period after it
# exits, and was counted in a baseline taken at once (209713 = the fair
# servers + a 0.1 task, seen twice on a loaded machine).
dl_bw_baseline() {
	local i same=0 prev='' now
	for ((i = 0; i < 50 && same < 5; i++)); do
		sleep 0.1
		now=$(dl_bw_totals)
		# shellcheck disable=SC2009  # pgrep cannot select by scheduling class
		if [ "$now" = "$prev" ] && [ "$(ps -eLo cls= | grep -c DLN)" = 0 ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$now
	done
	DLB_DL_BW_BASE=$now
}
# check_dl_bw NAME [SUMMARY]: the accounting is back to the baseline (polled for
# up to 3 s: a DL task's bandwidth is released up to a period after it leaves,
# and another user's short-lived DL task may be alive at that moment) and,
# given the run's summary.json, the run saw it unchanged too
# (dl_accounting.status ok: a finding dlb-rtapp repaired fails here as well)
check_dl_bw() {
	local name="DL accounting unchanged: $1" sum=${2:-} now i st=ok
	if [ -z "${DLB_DL_BW_BASE:-}" ]; then
		skip "$name" "not checked: /sys/kernel/debug/sched/debug unreadable"; return 0
	fi
	for ((i = 0; i < 150; i++)); do
		now=$(dl_bw_totals)
		[ "$now" = "$DLB_DL_BW_BASE" ] && break
		sleep 0.02
	done
	[ -n "$sum" ] && st=$("$DLB_BUILD/tests/tools/json-status" "$sum" dl_accounting 2>&1)
	if [ "$now" = "$DLB_DL_BW_BASE" ] && [ "$st" = ok ]; then
		pass "$name"
	else
		fail "$name" "total_bw per CPU: before $DLB_DL_BW_BASE, now $now" \
			"the run's summary.json dl_accounting: $st"
	fi
}
