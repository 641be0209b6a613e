#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dlbench driver: record -> analyze -> compare -> plot, suites, nightly farm mode.
# ./run.sh --help for the commands; docs/run.md for the result folders.
#
# Needs bash, coreutils, sed, grep, awk (all in busybox) and the built dlb-*
# tools; gnuplot is optional (plots can be made later on a host: ./run.sh plot).
# trace-cmd, chrt and flock are used when present.
set -u
DLB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$DLB_SRC" || exit 3
export LC_ALL=C

# ---- exit codes: parsed from the one table, never copied ----------------------------------
exitcode_h() {
	local f
	for f in "$DLB_SRC/include/dlbench/exitcode.h" "$DLB_SRC/exitcode.h"; do
		[ -r "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
if ! EXITH=$(exitcode_h); then
	echo "run.sh: exitcode.h not found beside run.sh" >&2
	exit 3	# the one number we cannot read from the table: ENV
fi
eval "$(sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\),.*/EXIT_\1=\2/p' "$EXITH")"
: "${EXIT_OK:?} ${EXIT_REGRESSION:?} ${EXIT_BAD_INPUT:?} ${EXIT_ENV:?} ${EXIT_INCOMPLETE:?} ${EXIT_INTERNAL:?}"

# ---- tools -----------------------------------------------------------------------------------
: "${DLB_BUILD:=$DLB_SRC/build}"
: "${DLB_RESULTS:=$DLB_SRC/results}"
BIN=${DLB_BIN:-$DLB_BUILD/bin}
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

# ---- signals: children run in the background so that a trap can forward --------------------
INTERRUPTED=0
CHILD=
on_signal() {
	INTERRUPTED=1
	[ -n "$CHILD" ] && kill -INT "$CHILD" 2>/dev/null
}
trap on_signal INT TERM HUP
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

# ---- environment ------------------------------------------------------------------------------
tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -w "$d/trace_marker" ] && { echo "$d"; return 0; }
	done
	[ "$(id -u)" -eq 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		{ echo /sys/kernel/tracing; return 0; }
	return 1
}
# kernel_capable: root, tracefs, SCHED_DEADLINE; sets KERNEL_WHY when not
kernel_capable() {
	KERNEL_WHY=
	if [ "$(id -u)" -ne 0 ]; then KERNEL_WHY="not root"; return 1; fi
	if ! tracefs_dir >/dev/null; then KERNEL_WHY="no tracefs"; return 1; fi
	if have chrt && ! chrt -d --sched-runtime 100000 --sched-deadline 1000000 \
		--sched-period 1000000 0 true 2>/dev/null; then
		KERNEL_WHY="SCHED_DEADLINE refused (chrt -d)"; return 1
	fi
	need_tool dlb-record 2>/dev/null || { KERNEL_WHY="dlb-record not built"; return 1; }
	return 0
}
# the machine lock every SCHED_DEADLINE/tracing user takes (admission and the buffer are global)
kernel_lock() {
	[ -n "${DLB_LOCKED:-}" ] && return 0
	have flock || return 0
	exec 8>/tmp/dlbench-kernel.lock
	flock 8
	export DLB_LOCKED=1
}

# kconfig: the running kernel's config, when the board has it (zcat is optional)
kconfig() {
	if [ -r "/boot/config-$(uname -r)" ]; then cat "/boot/config-$(uname -r)"
	elif [ -r /proc/config.gz ] && have zcat; then zcat /proc/config.gz
	fi
}

write_env() {	# write_env FILE BACKEND
	local f=$1
	{
		echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "backend=$2"
		echo "uname=$(uname -a)"
		echo "kernel=$(uname -r)"
		echo "arch=$(uname -m)"
		echo "cpus_online=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)"
		echo "sched_rt_runtime_us=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)"
		echo "sched_rt_period_us=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null)"
		echo "dlbench_version=$(cat "$DLB_SRC/VERSION" 2>/dev/null)"
		echo "git=$(git -C "$DLB_SRC" describe --always --dirty 2>/dev/null)"
		echo "preempt=$(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1)"
		kconfig | sed -n 's/^CONFIG_\(PREEMPT[A-Z_]*\|HZ\|HZ_[0-9]*\|NO_HZ[A-Z_]*\|SCHEDSTATS\|SCHED_DEBUG\|NR_CPUS\|CPUSETS\|RT_GROUP_SCHED\)=\(.*\)/config_\1=\2/p'
	} > "$f"
}

# cmd_log DIR CMD...: append the exact command (shell-quoted) to DIR/commands.sh
cmd_log() {
	local d=$1; shift
	{ printf '%q ' "$@"; echo; } >> "$d/commands.sh"
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

# sched debug snapshot (per-CPU dl_rq, dl_bw) when debugfs has it
snap_sched() {	# snap_sched DIR WHEN
	local f=/sys/kernel/debug/sched/debug
	[ -r "$f" ] || { [ "$(id -u)" -eq 0 ] && mount -t debugfs none /sys/kernel/debug 2>/dev/null; }
	[ -r "$f" ] && cat "$f" > "$1/sched-debug-$2.txt" 2>/dev/null
	return 0
}

# run_reference DIR CPUS DURATION: the reference backend (dlb-rtapp, or dlb-sim directly)
run_reference() {
	local dir=$1 cpus=$2 dur=$3 rtapp sim rc dargs=()
	[ -n "$dur" ] && dargs=(-d "$dur")
	if rtapp=$(tool dlb-rtapp); then
		cmd_log "$dir" "$rtapp" -q -b reference -m "$cpus" -o "$dir" "${dargs[@]}" "$dir/workload.json"
		run_bg "$rtapp" -q -b reference -m "$cpus" -o "$dir" "${dargs[@]}" "$dir/workload.json" \
			> "$dir/run.log" 2>&1
		rc=$?
		grep -q 'not available yet' "$dir/run.log" || return "$rc"
	fi
	# dlb-rtapp without its reference backend: the simulator writes the same trace
	sim=$(tool dlb-sim) || { echo "run.sh: neither dlb-rtapp -b reference nor dlb-sim" >> "$dir/run.log"; return "$EXIT_ENV"; }
	cmd_log "$dir" "$sim" --no-timing -m "$cpus" -o "$dir" "${dargs[@]}" "$dir/workload.json"
	run_bg "$sim" --no-timing -m "$cpus" -o "$dir" "${dargs[@]}" "$dir/workload.json" >> "$dir/run.log" 2>&1
}

# run_kernel DIR DURATION [OPTIONS]: the generator on this kernel, inside dlb-record's instance
run_kernel() {
	local dir=$1 dur=$2 rtapp rec secs kb dargs=() oargs=()
	# shellcheck disable=SC2206 # a suite's dlb-rtapp options, split on purpose
	[ -n "${3:-}" ] && oargs=($3)
	rtapp=$(tool dlb-rtapp) || { echo "run.sh: dlb-rtapp not built" > "$dir/run.log"; return "$EXIT_ENV"; }
	rec=$(tool dlb-record) || { echo "run.sh: dlb-record not built" > "$dir/run.log"; return "$EXIT_ENV"; }
	[ -n "$dur" ] && dargs=(-d "$dur")
	secs=$(dur_secs "${dur:-10s}")
	# ~2 MB per CPU-second of sched events, measured on a busy 2-CPU run; lost events are reported
	kb=$((4096 + secs * 2048))
	# shellcheck disable=SC2016  # "$0", "$@" and $DLB_TRACE_MARKER are the inner bash's
	local cmd=("$rec" -q -o "$dir" -b "$kb" -f "${DLB_RECORD_FORMAT:-auto}" -- bash -c 'exec "$0" -t "$DLB_TRACE_MARKER" "$@"'
		"$rtapp" -q -b kernel -o "$dir" "${dargs[@]}" "${oargs[@]}" "$dir/workload.json")
	kernel_lock
	snap_sched "$dir" before
	cmd_log "$dir" timeout -s INT -k 20 $((secs * 3 + 60)) "${cmd[@]}"
	run_bg timeout -s INT -k 20 $((secs * 3 + 60)) "${cmd[@]}" > "$dir/run.log" 2>&1
	local rc=$?
	snap_sched "$dir" after
	return "$rc"
}

# run_qemu DIR CPUS DURATION: the generator on a kernel image under qemu (guest/run-guest.sh,
# docs/guest.md; QEMU_KERNEL, QEMU_ARCH, QEMU_APPEND from the command line)
run_qemu() {
	local dir=$1 cpus=$2 dur=$3 rc cmd
	cmd=("$DLB_SRC/guest/run-guest.sh" -k "$QEMU_KERNEL" -c "$cpus" -o "$dir")
	[ -n "$QEMU_ARCH" ] && cmd+=(-a "$QEMU_ARCH")
	[ -n "$QEMU_APPEND" ] && cmd+=(-A "$QEMU_APPEND")
	[ -n "$dur" ] && cmd+=(-d "$dur")
	cmd+=("$dir/workload.json")
	cmd_log "$dir" "${cmd[@]}"
	run_bg "${cmd[@]}" > "$dir/guest-run.log" 2>&1
	rc=$?
	# the guest's run.log (dlb-rtapp's output) first, then how the guest run ended
	cat "$dir/guest-run.log" >> "$dir/run.log"
	sed 's/^/guest_/' "$dir/guest.txt" >> "$dir/env.txt" 2>/dev/null
	return "$rc"
}

# analyze_dir DIR [BACKEND]: report.txt, report.json, jobs.csv into DIR
analyze_dir() {
	local dir=$1 be=${2:-} ana args=(-q -m -1)
	ana=$(tool dlb-analyze) || { echo "run.sh: dlb-analyze not built" > "$dir/analyze.log"; return "$EXIT_ENV"; }
	[ "$be" = kernel ] && args+=(--kernel "$(uname -r)" --arch "$(uname -m)")
	[ "$be" = qemu ] && args+=(--kernel "$(sed -n 's/^kernel=//p' "$dir/guest.txt")"
				    --arch "$(sed -n 's/^arch=//p' "$dir/guest.txt")")
	cmd_log "$dir" "$ana" "${args[@]}" "$dir"
	run_bg "$ana" "${args[@]}" "$dir" > "$dir/analyze.log" 2>&1
}

# count_misses DIR WATCH: "misses jobs" over the watched tasks ('*' or a,b,c) from jobs.csv
count_misses() {
	[ -r "$1/jobs.csv" ] || { echo "- -"; return 1; }
	awk -F, -v watch="$2" '
	BEGIN { n = split(watch, w, ","); }
	NR == 1 { next }
	{
		name = $2; gsub(/"/, "", name); keep = (watch == "*")
		# the threads of a task are named after it: "t", "t-0", "t-1", "t1"...
		for (i = 1; i <= n && !keep; i++)
			if (name == w[i] || index(name, w[i] "-") == 1) keep = 1
		if (!keep) next
		jobs++; if ($13 == "1") miss++
	}
	END { printf "%d %d\n", miss, jobs }' "$1/jobs.csv"
}

# over_limit MISSES JOBS LIMIT: LIMIT is N or N% of the jobs
over_limit() {
	local m=$1 j=$2 l=$3
	case $l in
	-|""|-1)	return 1 ;;
	*%)	awk -v m="$m" -v j="$j" -v p="${l%\%}" 'BEGIN { exit !(m > j * p / 100) }' ;;
	*)	[ "$m" -gt "$l" ] ;;
	esac
}

# verdict DIR EXPECT RUN_RC ANA_RC LIMIT WATCH: sets VERDICT, VCODE, WHY; writes DIR/verdict.txt
verdict() {
	local dir=$1 expect=$2 rrc=$3 arc=$4 limit=$5 watch=$6 m j
	VERDICT=PASS VCODE=$EXIT_OK WHY=
	if [ "$INTERRUPTED" -eq 1 ]; then
		VERDICT=INCOMPLETE VCODE=$EXIT_INCOMPLETE WHY="interrupted"
	elif [ "$expect" = refused ]; then
		if { [ "$rrc" -eq "$EXIT_ENV" ] || [ "$rrc" -eq "$EXIT_BAD_INPUT" ]; } &&
		   grep -qiE 'EBUSY|bandwidth|admi' "$dir/run.log"; then
			WHY="refused by admission control, as predicted"
		elif [ "$rrc" -eq 0 ]; then
			VERDICT=FAIL VCODE=$EXIT_REGRESSION WHY="admitted a set over capacity"
		else
			VERDICT=ERROR VCODE=$rrc WHY="exit $rrc, not an admission refusal: $(tail -1 "$dir/run.log")"
		fi
	elif [ "$rrc" -eq "$EXIT_INCOMPLETE" ] || [ "$rrc" -ge 124 ]; then
		VERDICT=INCOMPLETE VCODE=$EXIT_INCOMPLETE WHY="run incomplete (exit $rrc)"
	elif [ "$rrc" -ne 0 ]; then
		VERDICT=ERROR VCODE=$rrc WHY="run failed (exit $rrc): $(grep -v '^#' "$dir/run.log" | tail -1)"
	elif [ "$arc" -eq "$EXIT_REGRESSION" ]; then
		# with -m -1 only a kernel finding (report.json kernel_checks) fails the analysis
		VERDICT=FAIL VCODE=$EXIT_REGRESSION WHY=$(sed -n 's/^dlb-analyze: //p' "$dir/analyze.log" | tail -1)
	elif [ "$arc" -eq "$EXIT_INCOMPLETE" ]; then
		VERDICT=INCOMPLETE VCODE=$EXIT_INCOMPLETE
		WHY="data quality: $(grep -m1 'data quality' "$dir/report.txt" 2>/dev/null | sed 's/^# data quality: //')"
	elif [ "$arc" -ne 0 ]; then
		VERDICT=ERROR VCODE=$arc WHY="analysis failed (exit $arc): $(tail -1 "$dir/analyze.log")"
	else
		read -r m j < <(count_misses "$dir" "$watch")
		if [ "$m" = - ]; then
			VERDICT=ERROR VCODE=$EXIT_INTERNAL WHY="no jobs.csv"
		elif [ "$j" -eq 0 ]; then
			VERDICT=FAIL VCODE=$EXIT_REGRESSION WHY="no jobs of the watched tasks ($watch)"
		elif over_limit "$m" "$j" "$limit"; then
			VERDICT=FAIL VCODE=$EXIT_REGRESSION WHY="$m of $j jobs missed (allowed: $limit)"
		else
			WHY="$m of $j jobs missed (allowed: $limit)"
		fi
	fi
	printf 'verdict=%s\ncode=%s\nwhy=%s\n' "$VERDICT" "$VCODE" "$WHY" > "$dir/verdict.txt"
}

# one_run WL BACKEND DIR CPUS DURATION EXPECT LIMIT WATCH [OPTIONS]: run, analyze, plot, judge
one_run() {
	local wl=$1 be=$2 dir=$3 cpus=$4 dur=$5 expect=$6 limit=$7 watch=$8 opts=${9:-} rrc arc=0
	mkdir -p "$dir" || die "$EXIT_ENV" "cannot create $dir"
	cp "$wl" "$dir/workload.json"
	write_env "$dir/env.txt" "$be"
	echo "workload_source=$wl" >> "$dir/env.txt"
	: > "$dir/commands.sh"
	if [ "$be" = reference ]; then
		run_reference "$dir" "$cpus" "$dur"
	elif [ "$be" = qemu ]; then
		run_qemu "$dir" "$cpus" "$dur"
	else
		run_kernel "$dir" "$dur" "$opts"
	fi
	rrc=$?
	if [ "$expect" != refused ] && [ "$INTERRUPTED" -eq 0 ] &&
	   { [ "$rrc" -eq 0 ] || [ "$rrc" -eq "$EXIT_INCOMPLETE" ]; }; then
		analyze_dir "$dir" "$be"; arc=$?
		[ "$arc" -eq 0 ] || [ "$arc" -eq "$EXIT_INCOMPLETE" ] || [ "$arc" -eq "$EXIT_REGRESSION" ] || true
		plot_dir "$dir" >/dev/null 2>&1
	fi
	[ "$INTERRUPTED" -eq 1 ] && echo "status=incomplete (interrupted)" >> "$dir/env.txt"
	verdict "$dir" "$expect" "$rrc" "$arc" "$limit" "$watch"
}

# plot_dir DIR: figures of one run folder (plots/plot.sh does the work)
plot_dir() {
	have gnuplot || { echo "run.sh: gnuplot not installed: plots skipped (./run.sh plot DIR later)" >&2; return 0; }
	bash "$DLB_SRC/plots/plot.sh" "$1"
}

# ---- suites -------------------------------------------------------------------------------------
suite_file() {
	local s=$1
	[ -r "$s" ] && { echo "$s"; return 0; }
	[ -r "$DLB_SRC/workloads/suites/$s.suite" ] && { echo "$DLB_SRC/workloads/suites/$s.suite"; return 0; }
	return 1
}
# suite_lines FILE: the entries, comments and blank lines dropped
suite_lines() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }

fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# run_suite SUITE OUTDIR BACKENDS MAX_SECONDS BASELINE: runs, judges, writes summary.tsv
run_suite() {
	local sfile=$1 out=$2 backends=$3 budget=$4 baseline=$5
	local wl bes cpus dur expect rmax kmax watch opts be name dir total=0 k=0 est=0 t0 left
	local entries=()
	mkdir -p "$out" || die "$EXIT_ENV" "cannot create $out"
	cp "$sfile" "$out/suite.txt"
	local th=${sfile%.suite}.thresholds
	[ -r "$th" ] || th=$DLB_SRC/workloads/suites/default.thresholds
	if [ -r "$th" ]; then cp "$th" "$out/thresholds.txt"; else : > "$out/thresholds.txt"; fi
	write_env "$out/env.txt" "$backends"
	printf 'workload\tbackend\tverdict\tcode\tseconds\twhy\n' > "$out/summary.tsv"
	while read -r wl bes cpus dur expect rmax kmax watch opts; do
		for be in $backends; do
			[ "$bes" = both ] || [ "$bes" = "$be" ] || continue
			entries+=("$wl $be $cpus $dur $expect $rmax $kmax $watch $opts")
			est=$((est + $(dur_secs "$dur") + 2))
		done
	done < <(suite_lines "$sfile")
	total=${#entries[@]}
	t0=$SECONDS
	for e in "${entries[@]}"; do
		read -r wl be cpus dur expect rmax kmax watch opts <<< "$e"
		k=$((k + 1))
		name=$(basename "$wl" .json)
		dir=$out/$be/$name
		local limit=$rmax; [ "$be" = kernel ] && limit=$kmax
		local el=$((SECONDS - t0)) start=$SECONDS
		if [ $k -gt 1 ]; then left=$((el * (total - k + 1) / (k - 1))); else left=$est; fi
		log "[$k/$total] $be $name  (elapsed $(fmt_secs $el), ~$(fmt_secs $left) left)"
		if [ "$INTERRUPTED" -eq 1 ]; then
			printf '%s\t%s\tSKIP\t0\t0\t%s\n' "$name" "$be" "interrupted before it ran" >> "$out/summary.tsv"
			continue
		fi
		if [ "$budget" -gt 0 ] && [ $((el + $(dur_secs "$dur") + 2)) -gt "$budget" ]; then
			printf '%s\t%s\tSKIP\t0\t0\t%s\n' "$name" "$be" "time budget of ${budget}s spent" >> "$out/summary.tsv"
			continue
		fi
		if [ ! -r "$DLB_SRC/$wl" ]; then
			printf '%s\t%s\tERROR\t%s\t0\t%s\n' "$name" "$be" "$EXIT_BAD_INPUT" "$wl: no such workload" >> "$out/summary.tsv"
			continue
		fi
		one_run "$DLB_SRC/$wl" "$be" "$dir" "$cpus" "$dur" "$expect" "$limit" "$watch" "$opts"
		if [ -n "$baseline" ] && [ "$VERDICT" = PASS ] && [ "$expect" != refused ]; then
			# shellcheck disable=SC2046 # options split on purpose
			baseline_check "$baseline/$be/$name" "$dir" $(thresholds "$out/thresholds.txt" "$be" "$name")
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$be" "$VERDICT" "$VCODE" $((SECONDS - start)) "$WHY" >> "$out/summary.tsv"
	done
}

# thresholds FILE BACKEND WORKLOAD: the compare options a thresholds file gives them
thresholds() {
	[ -r "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" |
	while read -r b w opts; do
		{ [ "$b" = "*" ] || [ "$b" = "$2" ]; } && { [ "$w" = "*" ] || [ "$w" = "$3" ]; } &&
			echo "$opts"
	done | tr '\n' ' '
}

# baseline_check BASEDIR NEWDIR [OPTIONS...]: compare with the baseline's report
baseline_check() {
	local base=$1 new=$2 ana rc
	shift 2
	[ -r "$base/report.json" ] || { WHY="$WHY; no baseline report"; return 0; }
	ana=$(tool dlb-analyze) || return 0
	cmd_log "$new" "$ana" compare "$@" "$base" "$new"
	"$ana" compare "$@" "$base" "$new" > "$new/compare.txt" 2>&1; rc=$?
	case $rc in
	0)	WHY="$WHY; baseline: no regression" ;;
	"$EXIT_REGRESSION") VERDICT=FAIL VCODE=$EXIT_REGRESSION
		WHY="regression against the baseline: $(grep -m1 -iE 'regress|worse' "$new/compare.txt")" ;;
	*)	WHY="$WHY; baseline compare exit $rc" ;;
	esac
	printf 'verdict=%s\ncode=%s\nwhy=%s\n' "$VERDICT" "$VCODE" "$WHY" > "$new/verdict.txt"
}

# summary OUT: the table; returns the suite's exit code
summary() {
	local out=$1 code=$EXIT_OK n=0 pass=0 fail=0 other=0
	local name be v c s why
	printf '\n%-26s %-10s %-11s %5s  %s\n' workload backend verdict secs why
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		n=$((n + 1))
		printf '%-26s %-10s %-11s %5s  %s\n' "$name" "$be" "$v" "$s" "$why"
		case $v in
		PASS) pass=$((pass + 1)) ;;
		FAIL) fail=$((fail + 1)); code=$EXIT_REGRESSION ;;
		SKIP) other=$((other + 1)) ;;
		*)    other=$((other + 1))
		      # a failure outranks an error, an error outranks incomplete data
		      if [ "$code" -ne "$EXIT_REGRESSION" ]; then
			      if [ "$v" = ERROR ] || [ "$code" -eq "$EXIT_OK" ]; then code=$c; fi
		      fi ;;
		esac
	done < "$out/summary.tsv"
	[ "$INTERRUPTED" -eq 1 ] && [ "$code" -ne "$EXIT_REGRESSION" ] && code=$EXIT_INCOMPLETE
	printf '%d runs: %d pass, %d fail, %d other; results in %s; exit %d (%s)\n' \
		"$n" "$pass" "$fail" "$other" "$out" "$code" "$(exit_text "$code")"
	return "$code"
}
exit_text() { sed -n "s/^[[:space:]]*X([A-Z_]*,[[:space:]]*$1, \"\(.*\)\").*/\1/p" "$EXITH"; }

stamp() { date -u +%Y%m%d-%H%M%S; }

# ---- farm outputs ------------------------------------------------------------------------------
xml_esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e 's/[^[:print:]\t]//g'; }

# junit OUT FILE SUITE: one testcase per workload and backend
junit() {
	local out=$1 f=$2 suite=$3 n=0 nf=0 ne=0 ns=0 secs=0
	local name be v c s why body
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		n=$((n + 1)); secs=$((secs + s))
		case $v in FAIL) nf=$((nf + 1)) ;; SKIP) ns=$((ns + 1)) ;; PASS) ;; *) ne=$((ne + 1)) ;; esac
	done < "$out/summary.tsv"
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		printf '<testsuites name="dlbench" tests="%d" failures="%d" errors="%d" skipped="%d" time="%d">\n' \
			"$n" "$nf" "$ne" "$ns" "$secs"
		printf '  <testsuite name="dlbench.%s" tests="%d" failures="%d" errors="%d" skipped="%d" time="%d" timestamp="%s" hostname="%s">\n' \
			"$suite" "$n" "$nf" "$ne" "$ns" "$secs" "$(date -u +%Y-%m-%dT%H:%M:%S)" \
			"$(uname -n | xml_esc)"
		while IFS=$'\t' read -r name be v c s why; do
			[ "$name" = workload ] && continue
			why=$(printf '%s' "$why" | xml_esc)
			printf '    <testcase classname="dlbench.%s.%s" name="%s" time="%d">\n' "$suite" "$be" "$name" "$s"
			case $v in
			PASS) ;;
			FAIL) printf '      <failure message="%s" type="%s"/>\n' "$why" "$v" ;;
			SKIP) printf '      <skipped message="%s"/>\n' "$why" ;;
			*)    printf '      <error message="%s" type="%s">exit code %s</error>\n' "$why" "$v" "$c" ;;
			esac
			if [ -r "$out/$be/$name/report.txt" ]; then
				body=$(head -c 20000 "$out/$be/$name/report.txt" | xml_esc)
				printf '      <system-out>%s</system-out>\n' "$body"
			fi
			echo '    </testcase>'
		done < "$out/summary.tsv"
		echo '  </testsuite>'
		echo '</testsuites>'
	} > "$f"
}

# tap OUT: TAP version 13 on stdout
tap() {
	local out=$1 n=0 k=0 name be v c s why
	n=$(($(wc -l < "$out/summary.tsv") - 1))
	echo "TAP version 13"
	echo "1..$n"
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		k=$((k + 1))
		case $v in
		PASS) echo "ok $k - $be/$name # $why" ;;
		SKIP) echo "ok $k - $be/$name # SKIP $why" ;;
		*)    echo "not ok $k - $be/$name # $v: $why" ;;
		esac
	done < "$out/summary.tsv"
}

# ---- commands ----------------------------------------------------------------------------------
usage() {
	cat <<'USAGE'
usage: ./run.sh [COMMAND] [ARGS]     (COMMAND --help for its options)

  (none)     install what is missing, build, run the smoke suite on the reference
             backend, and on the kernel backend when this machine can (root,
             SCHED_DEADLINE, tracefs); results/DATE-smoke/, a verdict per workload
  run        WORKLOAD.json [--backend kernel|reference|qemu] [-m CPUS] [--duration S]
             [--kernel IMAGE --arch ARCH --append ARGS: qemu, docs/guest.md]
  analyze    DIR|trace.dat|trace.txt: (re-)analyze existing data
  compare    BASE NEW: two result folders or report.json files
  nightly    [--suite NAME] [--baseline DIR] [--junit FILE] [--tap] [--max-duration S]
  plot       DIR: figures of a result folder (gnuplot)
  ospert     [--quick] [--plot-only DIR]: the OSPERT 2011 push-structure costs (cpudl,
             cpupri, linear scan) on the reference, 2..1024 CPUs, and miss ratio vs U
             on this kernel; results/ospert-DATE/ (docs/ospert.md)
  test       install what is missing (qemu and two guest kernels too: tools/deps.sh
             --qemu), build, run every test: make check, the sanitizer check and the
             short fuzz runs (make check-all)
  deps       install missing Debian packages (root) or print the command
  help       this text

Exit codes (include/dlbench/exitcode.h):
USAGE
	sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\), "\(.*\)").*/  \2  \1: \3/p' "$EXITH"
	cat <<'USAGE'

Environment: DLB_BIN (the dlb-* tools; default build/bin, then PATH),
DLB_RESULTS (default results/ beside run.sh), DLB_RECORD_FORMAT (dat, text or
auto: dlb-record -f; text streams trace_pipe, for boards without trace-cmd).
USAGE
}

bootstrap() {
	tools/deps.sh || exit $?
	make -s -j"$(nproc)" all || exit "$EXIT_ENV"
}

# default: the smoke suite, reference always, kernel when possible
cmd_default() {
	local backends=reference out
	case ${1:-} in -h|--help) usage; return 0 ;; esac
	[ -f Makefile ] && bootstrap
	if kernel_capable; then backends="reference kernel"
	else log "kernel backend skipped: $KERNEL_WHY"; fi
	out=$DLB_RESULTS/$(stamp)-smoke
	run_suite "$(suite_file smoke)" "$out" "$backends" 0 ""
	ln -sfn "$(basename "$out")" "$DLB_RESULTS/latest" 2>/dev/null
	summary "$out"
}

QEMU_KERNEL='' QEMU_ARCH='' QEMU_APPEND=''
cmd_run() {
	local wl='' be='' cpus='' dur='' out='' max=0
	while [ $# -gt 0 ]; do
		case $1 in
		-b|--backend)	be=${2:?}; shift ;;
		-m|--cpus)	cpus=${2:?}; shift ;;
		-d|--duration)	dur=${2:?}; shift ;;
		-o|--output)	out=${2:?}; shift ;;
		-M|--max-misses) max=${2:?}; shift ;;
		-k|--kernel)	QEMU_KERNEL=${2:?}; shift ;;
		-a|--arch)	QEMU_ARCH=${2:?}; shift ;;
		-A|--append)	QEMU_APPEND=${2:?}; shift ;;
		-h|--help)	cat <<'EOF2'
usage: ./run.sh run WORKLOAD.json [options]
One workload, recorded (kernel, qemu) or simulated (reference), analyzed and plotted.

  -b, --backend kernel|reference|qemu  default: kernel when possible, else reference
  -m, --cpus N                    reference: simulated CPUs; qemu: guest CPUs (default:
                                  online CPUs)
  -k, --kernel IMAGE              qemu: the kernel image to boot (docs/guest.md)
  -a, --arch x86_64|arm64         qemu: checked against the image (default: the image's)
  -A, --append ARGS               qemu: more kernel command line
  -d, --duration S                run length (e.g. 2s; default: the workload's)
  -o, --output DIR                run folder (default results/DATE-run-NAME)
  -M, --max-misses N|N%           misses allowed before the verdict fails (default 0)
EOF2
				return 0 ;;
		-*)	die "$EXIT_BAD_INPUT" "run: unknown option '$1' (try --help)" ;;
		*)	[ -z "$wl" ] || die "$EXIT_BAD_INPUT" "run: one workload only"; wl=$1 ;;
		esac
		shift
	done
	[ -n "$wl" ] || die "$EXIT_BAD_INPUT" "run: no workload given (try --help)"
	if [ -z "$be" ]; then
		be=reference; kernel_capable && be=kernel
	fi
	[ -r "$wl" ] || die "$EXIT_BAD_INPUT" "run: $wl: no such file"
	case $be in kernel|reference|qemu) ;; *) die "$EXIT_BAD_INPUT" "run: --backend: '$be' is not kernel, reference or qemu" ;; esac
	[ "$be" = qemu ] && [ -z "$QEMU_KERNEL" ] && die "$EXIT_BAD_INPUT" "run: --backend qemu needs --kernel IMAGE"
	[ "$be" != qemu ] && [ -n "$QEMU_KERNEL$QEMU_ARCH$QEMU_APPEND" ] &&
		die "$EXIT_BAD_INPUT" "run: --kernel, --arch, --append are for --backend qemu"
	[ -n "$cpus" ] || cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
	if [ "$be" = kernel ] && ! kernel_capable; then
		die "$EXIT_ENV" "run: kernel backend impossible here ($KERNEL_WHY): try --backend reference"
	fi
	wl=$(cd "$(dirname "$wl")" && pwd)/$(basename "$wl")
	[ -n "$out" ] || out=$DLB_RESULTS/$(stamp)-run-$(basename "$wl" .json)
	log "run: $be $(basename "$wl") -> $out"
	one_run "$wl" "$be" "$out" "$cpus" "$dur" ok "$max" "*"
	[ -r "$out/report.txt" ] && [ "${QUIET:-0}" -eq 0 ] && sed -n '/^task/,/^$/p' "$out/report.txt"
	[ "$be" = qemu ] && log "$(tail -1 "$out/guest-run.log" 2>/dev/null)"
	log "$VERDICT: $WHY"
	log "results: $out"
	return "$VCODE"
}

cmd_analyze() {
	local in=${1:-} ana
	[ -n "$in" ] || { cmd_analyze --help >&2; return "$EXIT_BAD_INPUT"; }
	case $in in -h|--help)
		echo "usage: ./run.sh analyze DIR|trace.dat|trace.txt [dlb-analyze options]"
		echo "Re-analyze a run folder (reports written into it) or a trace (e.g. one"
		echo "recorded around the real rt-app: pass -p TASK=R,D,P for its DL parameters)."
		return 0 ;;
	esac
	shift
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	[ -e "$in" ] || die "$EXIT_BAD_INPUT" "analyze: $in: no such file or folder"
	"$ana" "$@" "$in"
	local rc=$?
	[ -d "$in" ] && [ -r "$in/jobs.csv" ] && plot_dir "$in" >/dev/null 2>&1
	return $rc
}

cmd_compare() {
	local ana base new rc worst=$EXIT_OK r n=0
	[ $# -gt 0 ] || { cmd_compare --help >&2; return "$EXIT_BAD_INPUT"; }
	case $1 in -h|--help)
		echo "usage: ./run.sh compare BASE NEW [dlb-analyze compare options, e.g. -t misses=0,0]"
		echo "BASE and NEW: report.json files, run folders, or suite folders (every"
		echo "BACKEND/WORKLOAD in NEW is compared with the same one in BASE, with the"
		echo "thresholds of the suite (NEW/thresholds.txt) before those given here)."
		return 0 ;;
	esac
	[ $# -ge 2 ] || die "$EXIT_BAD_INPUT" "compare: BASE and NEW needed (try --help)"
	base=$1 new=$2; shift 2
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	if [ -f "$new" ] || [ -f "$new/report.json" ]; then
		"$ana" compare "$@" "$base" "$new"; return $?
	fi
	[ -d "$new" ] || die "$EXIT_BAD_INPUT" "compare: $new: no report.json nor result folder"
	for r in "$new"/*/*/report.json; do
		[ -r "$r" ] || continue
		r=${r%/report.json}; r=${r#"$new"/}
		n=$((n + 1))
		if [ ! -r "$base/$r/report.json" ]; then
			echo "$r: not in $base"; [ "$worst" -eq 0 ] && worst=$EXIT_BAD_INPUT; continue
		fi
		echo "== $r"
		# the suite's thresholds (kept in the folder), then the command line's
		# shellcheck disable=SC2046
		"$ana" compare $(thresholds "$new/thresholds.txt" "${r%%/*}" "${r#*/}") "$@" \
			"$base/$r" "$new/$r"; rc=$?
		if [ "$rc" -eq "$EXIT_REGRESSION" ] || [ "$worst" -eq 0 ]; then
			[ "$worst" -ne "$EXIT_REGRESSION" ] && worst=$rc
		fi
	done
	[ "$n" -gt 0 ] || die "$EXIT_BAD_INPUT" "compare: no report.json under $new"
	return "$worst"
}

cmd_plot() {
	local d=${1:-} r n=0
	[ -n "$d" ] || { cmd_plot --help >&2; return "$EXIT_BAD_INPUT"; }
	case $d in -h|--help)
		echo "usage: ./run.sh plot DIR"
		echo "PNG and SVG figures into DIR/plots/ (a run folder) or into each run folder of a suite."
		return 0 ;;
	esac
	have gnuplot || die "$EXIT_ENV" "plot: gnuplot not installed"
	case $d in /*) ;; *) d=$OLDPWD/$d ;; esac	# the user's folder, not the checkout's
	[ -d "$d" ] || die "$EXIT_BAD_INPUT" "plot: $d: not a folder"
	if [ -r "$d/jobs.csv" ]; then
		plot_dir "$d"; return $?
	fi
	for r in "$d"/*/*/jobs.csv; do
		[ -r "$r" ] || continue
		n=$((n + 1)); plot_dir "$(dirname "$r")" || return $?
	done
	[ "$n" -gt 0 ] || die "$EXIT_BAD_INPUT" "plot: no jobs.csv in $d (analyze it first)"
}

cmd_nightly() {
	local suite=nightly baseline='' junitf='' dotap=0 maxd=0 backends='' out sfile rc
	while [ $# -gt 0 ]; do
		case $1 in
		-s|--suite)	suite=${2:?}; shift ;;
		-B|--baseline)	baseline=${2:?}; shift ;;
		-j|--junit)	junitf=${2:?}; shift ;;
		-T|--tap)	dotap=1 ;;
		-D|--max-duration) maxd=$(dur_secs "${2:?}") || die "$EXIT_BAD_INPUT" "nightly: --max-duration: '$2'"; shift ;;
		-b|--backend)	backends="$backends ${2:?}"; shift ;;
		-o|--output)	out=${2:?}; shift ;;
		-h|--help)	cat <<'EOF2'
usage: ./run.sh nightly [options]
Unattended: no prompts, bounded run time, results kept by date, exit code for the farm.

  -s, --suite NAME|FILE        suite (default nightly; workloads/suites/NAME.suite)
  -B, --baseline DIR           compare each run with DIR/BACKEND/WORKLOAD (a former nightly)
  -j, --junit FILE             JUnit XML, one testcase per workload and backend
  -T, --tap                    TAP on stdout (progress goes to stderr)
  -D, --max-duration S         time budget: workloads that would overrun it are skipped
  -b, --backend NAME           kernel or reference (repeatable; default: both when possible)
  -o, --output DIR             result folder (default results/DATE-SUITE)
EOF2
				return 0 ;;
		*)	die "$EXIT_BAD_INPUT" "nightly: unknown argument '$1' (try --help)" ;;
		esac
		shift
	done
	sfile=$(suite_file "$suite") || die "$EXIT_BAD_INPUT" "nightly: no suite '$suite'"
	if [ -z "$backends" ]; then
		backends=reference
		if kernel_capable; then backends="reference kernel"
		else echo "nightly: kernel backend skipped: $KERNEL_WHY" >&2; fi
	fi
	: "${out:=$DLB_RESULTS/$(stamp)-$(basename "$sfile" .suite)}"
	if [ "$dotap" -eq 1 ]; then
		run_suite "$sfile" "$out" "$backends" "$maxd" "$baseline" >&2
		summary "$out" >&2; rc=$?
		tap "$out" | tee "$out/results.tap"
	else
		run_suite "$sfile" "$out" "$backends" "$maxd" "$baseline"
		summary "$out"; rc=$?
		tap "$out" > "$out/results.tap"
	fi
	junit "$out" "$out/junit.xml" "$(basename "$sfile" .suite)"
	[ -n "$junitf" ] && cp "$out/junit.xml" "$junitf"
	ln -sfn "$(basename "$out")" "$DLB_RESULTS/latest" 2>/dev/null
	return "$rc"
}

verb=${1:-}
[ $# -gt 0 ] && shift
case $verb in
test)		bootstrap
		# qemu, the arm64 cross toolchain and two Debian kernels for the guest tests;
		# without them those tests skip, counted
		tools/deps.sh --qemu || echo "run.sh: guest (qemu) test prerequisites incomplete: those tests skip" >&2
		exec tests/check-all.sh ;;
deps)		exec tools/deps.sh "$@" ;;
ospert)		case ${1:-} in -h|--help) ;; *) bootstrap ;; esac
		OSPERT_CMD="./run.sh ospert" exec bench/ospert/run.sh "$@" ;;
help|-h|--help)	usage ;;
"")		cmd_default "$@" ;;
run)		cmd_run "$@" ;;
analyze)	cmd_analyze "$@" ;;
compare)	cmd_compare "$@" ;;
nightly)	cmd_nightly "$@" ;;
plot)		cmd_plot "$@" ;;
*)		echo "run.sh: unknown command '$verb'" >&2; usage >&2; exit "$EXIT_BAD_INPUT" ;;
esac
