#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/lib/loader.sh [-r RUNS] [-n "N1 N2 ..."] [-b OLD_DLB_WORKLOAD [-B MAX_N]]
#
# Workload loading time against the number of tasks: `dlb-workload check` on
# generated files of N tasks (each a SCHED_DEADLINE task with its own
# "unique" timer, one task a line; default 10k, 100k, 400k), beside json_floor
# (json-c alone parsing and freeing the same file: the floor under the
# loader).  Runs alternate (floor, ours[, old]) RUNS times (default 3): the
# machine's load drifts, all see the same drift.  Medians of wall time and of
# CPU time (user + sys: what the run cost, less moved by other work on a
# shared machine), the CPU time per task (flat when loading is linear), and
# ours over the floor.  -b OLD: another dlb-workload (a build of an older
# commit) in the same rotation, for N <= MAX_N (default 100000).
# Reported, not a test.  Files are cached in $DLB_BUILD/bench/.
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
RUNS=3 SIZES="10000 100000 400000" OLD='' OLD_MAX=100000
while getopts "r:n:b:B:h" o; do
	case $o in
	r) RUNS=$OPTARG ;;
	n) SIZES=$OPTARG ;;
	b) OLD=$OPTARG ;;
	B) OLD_MAX=$OPTARG ;;
	*) sed -n '4,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
NEW=$DLB_BUILD/bin/dlb-workload FLOOR=$DLB_BUILD/bench/lib/json_floor
for b in "$NEW" "$FLOOR"; do
	[ -x "$b" ] || { echo "# bench/lib/loader.sh: $b not built"; exit 0; }
done
dir=$DLB_BUILD/bench
mkdir -p "$dir"

gen() {	# $1: tasks
	awk -v n="$1" 'BEGIN {
		print "{\n\t\"global\": { \"duration\": 1, \"default_policy\": \"SCHED_DEADLINE\" },"
		print "\t\"tasks\": {"
		for (i = 0; i < n; i++)
			printf "\t\t\"t%d\": { \"loop\": -1, \"run\": 100, \"timer\": { \"ref\": " \
			       "\"unique\", \"period\": 100000 }, \"dl-runtime\": 200, " \
			       "\"dl-period\": 100000, \"dl-deadline\": 100000 }%s\n", i,
			       i < n - 1 ? "," : ""
		print "\t}\n}"
	}'
}
# "wall cpu" seconds of one run (bash's time: no dependency); the run must succeed
secs() {
	local TIMEFORMAT='%R %U %S' t
	t=$( { time "$@" > /dev/null 2>&1 || echo fail; } 2>&1 )
	case $t in
	fail*)	echo "# bench/lib/loader.sh: $* failed" >&2; echo "nan nan" ;;
	*)	echo "$t" | awk '{ printf "%.3f %.3f", $1, $2 + $3 }' ;;
	esac
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# column $1 (1 wall, 2 cpu) of "wall cpu;wall cpu;...", its median
col() { echo "$2" | tr ';' '\n' | awk -v c="$1" 'NF { print $c }' | tr '\n' ' ' | median; }

printf '# workload loader: dlb-workload check vs json-c alone (json_floor), median of %s alternating runs\n' "$RUNS"
printf '%8s %9s %9s %11s %10s %10s %9s' tasks "wall s" "cpu s" "cpu us/task" "json-c s" "json-c cpu" "ours/j-c"
[ -n "$OLD" ] && printf ' %9s %9s' "old cpu" "old/ours"
echo
for n in $SIZES; do
	f=$dir/loader-$n.json
	[ -s "$f" ] || gen "$n" > "$f"
	tn='' tf='' to=''
	for ((r = 0; r < RUNS; r++)); do
		tf="$tf;$(secs "$FLOOR" "$f")"
		tn="$tn;$(secs "$NEW" -q check "$f")"
		if [ -n "$OLD" ] && [ "$n" -le "$OLD_MAX" ]; then
			to="$to;$(secs "$OLD" -q check "$f")"
		fi
	done
	nw=$(col 1 "$tn") nc=$(col 2 "$tn") fw=$(col 1 "$tf") fc=$(col 2 "$tf")
	printf '%8s %9s %9s %11s %10s %10s %9s' "$n" "$nw" "$nc" \
		"$(awk -v s="$nc" -v n="$n" 'BEGIN { printf "%.2f", s / n * 1e6 }')" "$fw" "$fc" \
		"$(awk -v a="$nc" -v b="$fc" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	if [ -n "$OLD" ] && [ -n "$to" ]; then
		oc=$(col 2 "$to")
		printf ' %9s %9s' "$oc" "$(awk -v a="$oc" -v b="$nc" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	elif [ -n "$OLD" ]; then
		printf ' %9s %9s' - -
	fi
	echo
done
echo "# linear: cpu us/task stays flat as tasks grow; ours/j-c: the loader over json-c's parse and free alone"
