#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What conformance costs: the analysis of a run folder with the replay and
# its diff (dlb-analyze) against the same analysis without them
# (dlb-analyze --no-conformance), alternated (bench/lib/alternate.sh).  The
# replay and diff cost B - A; the target (docs/conformance.md) is that they
# take less than the analysis itself: (B - A) / A < 1, that is B/A < 2.
#
# The run: a reference-made folder (no guest here has 64 CPUs) of a random
# set of 640 SCHED_DEADLINE tasks on 64 CPUs (dlb-tasksetgen, U = 0.7 per
# CPU), 60 s long (DLB_BENCH_QUICK=1: 6 s and 3 runs a side; the 60 s
# trace is about 2 GB of text in $DLB_BUILD/bench/).  Also the peak RSS of
# each side.  Reported, not a test.
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
A=$DLB_BUILD/bin/dlb-analyze
R=$DLB_BUILD/bin/dlb-rtapp
G=$DLB_BUILD/bin/dlb-tasksetgen
dir=$DLB_BUILD/bench
# shellcheck source=bench/lib/alternate.sh
. "$DLB_SRC/bench/lib/alternate.sh"
for b in "$A" "$R" "$G"; do
	[ -x "$b" ] || { echo "# bench_conform: $b not built"; exit 0; }
done
if [ -n "${DLB_BENCH_QUICK:-}" ]; then secs=6; else secs=60; fi
run=$dir/conform-64cpu-640t-${secs}s
mkdir -p "$dir"

if [ ! -s "$run/summary.json" ]; then
	rm -rf "$run"
	echo "# making $run (the reference, $secs s of 640 tasks on 64 CPUs)"
	if ! "$G" -q -m 64 -n 640 --util-per-cpu 0.7 -d "$secs" -s 1 -o "$dir/conform-set.json" ||
		! "$R" -q -b reference -m 64 -o "$run" "$dir/conform-set.json"; then
		echo "# bench_conform: the reference run failed"
		rm -rf "$run"
		exit 1
	fi
fi
bench_machine
printf '# %s: %s of trace\n' "$(basename "$run")" "$(du -h "$run/trace.txt" | cut -f1)"
# each side writes its own report folder: the run folder stays as made
BENCH_A=("$A" -q -m -1 --no-conformance -o "$dir/conform-out-a" "$run")
BENCH_B=("$A" -q -m -1 -o "$dir/conform-out-b" "$run")
bench_pair "dlb-analyze --no-conformance (the analysis)" "dlb-analyze (analysis + replay + diff)"
printf '# %s jobs replayed and compared\n' "$(($(wc -l < "$dir/conform-out-b/oracle-jobs.csv") - 1))"
awk -v r="$PAIR_RATIO" -v c="$PAIR_CPU_RATIO" 'BEGIN {
	printf "# replay + diff / analysis: %.2f wall, %.2f cpu (target: below 1)\n", r - 1, c - 1 }'
printf '# peak RSS (KB): analysis %s, with the replay %s\n' \
	"$(bench_rss "${BENCH_A[@]}")" "$(bench_rss "${BENCH_B[@]}")"
