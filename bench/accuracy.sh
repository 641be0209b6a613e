#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/accuracy.sh [-d SECONDS] [-r ROUNDS] [-k]
#
# The same SCHED_DEADLINE workload run by dlb-rtapp and by Debian's rt-app
# 1.0, alternately, ROUNDS rounds (default 5; 3 with DLB_BENCH_QUICK;
# DLB_BENCH_RUNS overrides), and per task: the median over the rounds of
# each run's median and p99 of the wake-up latency (the logs' wu_lat, only
# the jobs released by a wake-up: see wakeups) and of
# |run - requested| (run against c_duration), in us, and the median
# (min..max) of the per-round ratios dlb-rtapp/rt-app of the p99s, each
# round's runs taken back to back; per tool, the host's steal during its
# runs and its wake-ups of 2 ms or more (the far tail: docs/rt-app.md).
# Reported, not a test: the goal is
# dlb-rtapp no worse than rt-app (ratios <= 1).  Needs root, SCHED_DEADLINE
# and rt-app; takes the kernel lock for each run.  -d: each run's length
# (default 5 s); -k keeps the run folders (printed).
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
# shellcheck source=bench/lib/alternate.sh
. "$DLB_SRC/bench/lib/alternate.sh"
DUR=5 KEEP=0 ROUNDS=$BENCH_RUNS
[ -n "${DLB_BENCH_RUNS:-}" ] || [ -n "${DLB_BENCH_QUICK:-}" ] || ROUNDS=5
while getopts "d:r:kh" o; do
	case $o in
	d) DUR=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	k) KEEP=1 ;;
	*) sed -n '4,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
RTAPP=$DLB_BUILD/bin/dlb-rtapp
if [ "$(id -u)" -ne 0 ] || ! command -v rt-app >/dev/null || [ ! -x "$RTAPP" ]; then
	echo "accuracy.sh: needs root, rt-app (tools/deps.sh) and $RTAPP: skipped" >&2
	exit 0	# a report, not a test: make bench goes on
fi
TMP=$(mktemp -d /tmp/dlb-accuracy.XXXXXX)
[ "$KEEP" -eq 1 ] || trap 'rm -rf "$TMP"' EXIT

# One workload for both: absolute timers (rt-app 1.0 defaults to relative),
# each task its own timer, no ftrace (rt-app 1.0 would need debugfs tracing).
# dlb-rtapp releases the threads' first jobs together (a critical instant);
# rt-app 1.0 starts each thread's timeline when that thread is ready, ms
# apart and differently each run (printed: "first releases ... apart").  So
# a third row, dlb-rtapp+off, runs with the offsets of rt-app's run just
# before it, as the tasks' "delay": like with like.
workload() {	# $1: logdir; $2, $3: dl_a's and dl_b's delay in us (default 0)
	cat <<JSON
{
	"global": { "duration": $DUR, "calibration": "CPU0", "default_policy": "SCHED_OTHER",
		    "logdir": "$1", "log_basename": "rt-app", "ftrace": false },
	"resources": { "ta": { "type": "timer" }, "tb": { "type": "timer" } },
	"tasks": {
		"dl_a": { "policy": "SCHED_DEADLINE", "delay": ${2:-0},
			  "dl-runtime": 3000, "dl-deadline": 10000, "dl-period": 10000,
			  "run": 1000, "timer": { "ref": "ta", "period": 10000, "mode": "absolute" } },
		"dl_b": { "policy": "SCHED_DEADLINE", "delay": ${3:-0},
			  "dl-runtime": 6000, "dl-deadline": 20000, "dl-period": 20000,
			  "run": 3000, "timer": { "ref": "tb", "period": 20000, "mode": "absolute" } }
	}
}
JSON
}

# firsts DIR: each thread's first job's start (us), in log order
firsts() {
	local f
	for f in "$1"/rt-app-*.log; do grep -v '^#' "$f" | head -n 1 | awk '{ print $5 }'; done
}
# spread DIR: how far apart (us) the threads' first jobs started
# shellcheck disable=SC2317 # called through rounds
spread() { firsts "$1" | sort -n | awk 'NR == 1 { a = $1 } { b = $1 } END { print b - a }'; }

# steal: the time the host kept this machine's CPUs from running (all CPUs,
# /proc/stat, in ticks of 1/CLK_TCK s): a vCPU not running delays its timers
# and its threads alike, whichever tool runs (docs/rt-app.md)
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
TICK_MS=$((1000 / $(getconf CLK_TCK)))

# run TOOL ROUND: one run, its logs in $TMP/TOOL.ROUND; dlboff: with the
# offsets of rt-app's run of the same ROUND (made before it)
run() {
	local d=$TMP/$1.$2 rc a b m
	mkdir -p "$d"
	if [ "$1" = dlboff ]; then
		read -r a b <<< "$(firsts "$TMP/rtapp.$2" | tr '\n' ' ')"
		m=$((a < b ? a : b))
		workload "$d" $((a - m)) $((b - m)) > "$d.json"
	else
		workload "$d" > "$d.json"
	fi
	exec 9>/tmp/dlbench-kernel.lock
	flock 9
	s0=$(steal)
	if [ "$1" = rtapp ]; then rt-app "$d.json"; else "$RTAPP" -n "$d.json"; fi > "$d.out" 2>&1
	rc=$?
	echo $(($(steal) - s0)) > "$d.steal"
	flock -u 9
	[ "$rc" -eq 0 ] || { echo "accuracy.sh: $1 failed (exit $rc):" >&2; tail -3 "$d.out" >&2; exit 3; }
}
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then run rtapp "$r"; run dlboff "$r"; run dlb "$r"
	else run dlb "$r"; run rtapp "$r"; run dlboff "$r"; fi
done

# pct: median and p99 of a column of numbers (nearest rank)
pct() {
	sort -n | awk '{ v[NR] = $1 }
	function at(p,   i) { i = int(p * NR + 0.999999); return v[i < 1 ? 1 : i] }
	END { if (NR) printf "%d %d", at(0.5), at(0.99); else printf "- -" }'
}
# wakeups TOOL: the wu_lat column of a log on stdin, only the samples that are
# a wake-up, timer expiry to running, the same quantity for both tools.  A job
# ended after the next release (slack < 0) makes the thread go on without
# sleeping: rt-app 1.0 logs 0 on that line (its wu_lat is the wake-up that
# ends the job, rt-app.c case rtapp_timer), dlb-rtapp how late the next job
# began (its wu_lat is the wake-up that starts the job: begin - release); so
# rt-app's line counts if it slept (slack > 0 or wu_lat > 0), dlb-rtapp's if
# the line before slept (slack >= 0) or it is the first (a timer's, t0)
wakeups() {
	if [ "$1" = rtapp ]; then
		awk '$8 > 0 || $11 > 0 { print $11 }'
	else
		awk 'NR == 1 || prev >= 0 { print $11 } { prev = $8 }'
	fi
}
# stats TOOL LOG: "jobs wu_med wu_p99 runerr_med runerr_p99 late" of one run's
# log; late: the jobs whose release found the thread still busy (no wake-up)
stats() {
	local n w
	n=$(grep -vc '^#' "$2")
	w=$(grep -v '^#' "$2" | wakeups "$1" | wc -l)
	printf '%d %s %s %d\n' "$n" \
		"$(grep -v '^#' "$2" | wakeups "$1" | pct)" \
		"$(grep -v '^#' "$2" | awk '{ d = $3 - $9; print d < 0 ? -d : d }' | pct)" \
		$((n - w))
}
med() { bench_median | awk '{ printf "%d", $1 }'; }
# rounds TOOL FN: FN of each round's run of TOOL, one a line
rounds() { local r; for ((r = 1; r <= ROUNDS; r++)); do "$2" "$TMP/$1.$r"; done; }
# ratio TOOL TASK COLUMN: per round, TOOL's COLUMN over rt-app's, as median (min..max)
ratio() {
	paste -d' ' "$TMP/$1.$2.stats" "$TMP/rtapp.$2.stats" |
		awk -v c="$3" '{ printf "%.2f\n", ($(c + 6) > 0 ? $c / $(c + 6) : ($c > 0 ? 99 : 1)) }' |
		bench_ratios
}

bench_machine
printf '# accuracy: the same DL workload, %s s a run, %s rounds; wu_lat and |run - requested| in us;\n' \
	"$DUR" "$ROUNDS"
printf '#   per task the median over the rounds of each run'"'"'s median and p99; ratios: the median\n'
printf '#   (min..max) of the per-round ratios to rt-app 1.0 of the p99 (<= 1: no worse)\n'
printf '#   wu_lat: timer expiry to running, over the jobs released by a wake-up; late: the jobs\n'
printf '#   released while the thread was still busy (no wake-up: not a wu_lat sample)\n'
printf '# dlb-rtapp %s; %s\n' "$(grep -m1 -o 'calibration.*' "$TMP/dlb.1.out" || true)" \
	"rt-app: $(grep -m1 -o 'pLoad = [0-9]*ns' "$TMP/rtapp.1.out" || true)"
printf '# first jobs of the two threads apart (us, median of the rounds): dlb-rtapp %s, rt-app %s, dlb-rtapp+off %s\n' \
	"$(rounds dlb spread | med)" "$(rounds rtapp spread | med)" "$(rounds dlboff spread | med)"
printf '%-6s %-13s %5s %4s %7s %7s %10s %10s  %-20s %-20s\n' task tool jobs late wu_med wu_p99 \
	runerr_med runerr_p99 "wu_p99 ratio" "runerr_p99 ratio"
for t in dl_a:0 dl_b:1; do
	name=${t%:*} idx=${t#*:}
	for tool in dlb dlboff rtapp; do
		for ((r = 1; r <= ROUNDS; r++)); do stats "$tool" "$TMP/$tool.$r/rt-app-$name-$idx.log"; done \
			> "$TMP/$tool.$name.stats"
	done
	for tool in dlb dlboff rtapp; do
		f=$TMP/$tool.$name.stats
		case $tool in dlb) l=dlb-rtapp ;; dlboff) l=dlb-rtapp+off ;; *) l=rt-app-1.0 ;; esac
		printf '%-6s %-13s %5s %4s %7s %7s %10s %10s' "$name" "$l" \
			"$(cut -d' ' -f1 "$f" | med)" "$(cut -d' ' -f6 "$f" | med)" "$(cut -d' ' -f2 "$f" | med)" \
			"$(cut -d' ' -f3 "$f" | med)" "$(cut -d' ' -f4 "$f" | med)" \
			"$(cut -d' ' -f5 "$f" | med)"
		[ "$tool" = rtapp ] || printf '  %-20s %-20s' "$(ratio "$tool" "$name" 3)" \
			"$(ratio "$tool" "$name" 5)"
		echo
	done
done
# per tool: the host's steal during its runs, and its wake-ups of 2 ms or more
sum_steal() { local r n=0; for ((r = 1; r <= ROUNDS; r++)); do n=$((n + $(cat "$TMP/$1.$r.steal"))); done; echo $((n * TICK_MS)); }
far() {
	local f
	for f in "$TMP/$1".*/rt-app-*.log; do grep -v '^#' "$f" | wakeups "$1"; done |
		awk '$1 >= 2000' | wc -l
}
printf '# host steal during the runs (ms, all rounds, all CPUs): dlb-rtapp %s, dlb-rtapp+off %s, rt-app %s\n' \
	"$(sum_steal dlb)" "$(sum_steal dlboff)" "$(sum_steal rtapp)"
printf '# wake-ups of 2 ms or more (all rounds, both tasks): dlb-rtapp %s, dlb-rtapp+off %s, rt-app %s\n' \
	"$(far dlb)" "$(far dlboff)" "$(far rtapp)"
[ "$KEEP" -eq 1 ] && echo "# run folders: $TMP/{dlb,dlboff,rtapp}.1..$ROUNDS"
exit 0
