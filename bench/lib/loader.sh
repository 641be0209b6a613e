#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/lib/loader.sh [-r RUNS] [-n "N1 N2 ..."] [-b OLD_DLB_WORKLOAD [-B MAX_N]]
#
# Workload loading time against the number of tasks: `dlb-workload check` on
# generated files of N tasks (each a SCHED_DEADLINE task with its own
# "unique" timer, one task a line), the median wall time of RUNS runs
# (default 3), and the time per task: flat when loading is linear.
# -b OLD: the same files through another dlb-workload (a build of an older
# commit), runs alternating with ours, and the ratio old/new; only for
# N <= MAX_N (default 16000: the quadratic loader takes minutes beyond).
# Reported, not a test.  Files are cached in $DLB_BUILD/bench/.
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
RUNS=3 SIZES="1000 4000 16000 64000 400000" OLD='' OLD_MAX=16000
while getopts "r:n:b:B:h" o; do
	case $o in
	r) RUNS=$OPTARG ;;
	n) SIZES=$OPTARG ;;
	b) OLD=$OPTARG ;;
	B) OLD_MAX=$OPTARG ;;
	*) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
NEW=$DLB_BUILD/bin/dlb-workload
[ -x "$NEW" ] || { echo "# bench/lib/loader.sh: $NEW not built"; exit 0; }
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
secs() {	# wall seconds of one run; the run must succeed
	local s e
	s=$(date +%s.%N)
	"$@" > /dev/null 2>&1 || { echo "# bench/lib/loader.sh: $* failed" >&2; echo nan; return; }
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END {
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '# workload loader: dlb-workload check, median of %s runs (wall s)\n' "$RUNS"
if [ -n "$OLD" ]; then
	printf '%8s %10s %12s %10s %10s\n' tasks "new s" "new us/task" "old s" old/new
else
	printf '%8s %10s %12s\n' tasks "s" "us/task"
fi
for n in $SIZES; do
	f=$dir/loader-$n.json
	[ -s "$f" ] || gen "$n" > "$f"
	tn='' to=''
	for ((r = 0; r < RUNS; r++)); do
		# alternate: the machine's load drifts, both see the same drift
		if [ -n "$OLD" ] && [ "$n" -le "$OLD_MAX" ]; then
			to="$to $(secs "$OLD" -q check "$f")"
		fi
		tn="$tn $(secs "$NEW" -q check "$f")"
	done
	mn=$(echo "$tn" | median)
	per=$(awk -v s="$mn" -v n="$n" 'BEGIN { printf "%.2f", s / n * 1e6 }')
	if [ -z "$OLD" ]; then
		printf '%8s %10s %12s\n' "$n" "$mn" "$per"
	elif [ -n "$to" ]; then
		mo=$(echo "$to" | median)
		printf '%8s %10s %12s %10s %10s\n' "$n" "$mn" "$per" "$mo" \
			"$(awk -v a="$mo" -v b="$mn" 'BEGIN { printf "%.1f", a / b }')"
	else
		printf '%8s %10s %12s %10s %10s\n' "$n" "$mn" "$per" - -
	fi
done
echo "# linear: us/task stays flat as tasks grow (the machine's load moves it a little)"
