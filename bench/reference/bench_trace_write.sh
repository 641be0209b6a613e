#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What a reference run costs with its full trace written, as text
# (trace.txt, the default) and as trace.dat (-f dat), alternated
# (bench/lib/alternate.sh): dlb-rtapp -b reference on a random set of 640
# SCHED_DEADLINE tasks on 64 CPUs (dlb-tasksetgen, U = 0.7 per CPU, seed 1),
# 60 s long (DLB_BENCH_QUICK=1: 6 s and 3 runs a side).  Issue 17's goal:
# the 60 s run in 10 s or less.  Also the size of each trace.  Needs about
# 3 GB free in $DLB_BUILD/bench/ for the 60 s run.  Reported, not a test.
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
R=$DLB_BUILD/bin/dlb-rtapp
G=$DLB_BUILD/bin/dlb-tasksetgen
dir=$DLB_BUILD/bench
# shellcheck source=bench/lib/alternate.sh
. "$DLB_SRC/bench/lib/alternate.sh"
for b in "$R" "$G"; do
	[ -x "$b" ] || { echo "# bench_trace_write: $b not built"; exit 0; }
done
if [ -n "${DLB_BENCH_QUICK:-}" ]; then secs=6; else secs=60; fi
set=$dir/tracewrite-set-${secs}s.json
mkdir -p "$dir"
"$G" -q -m 64 -n 640 --util-per-cpu 0.7 -d "$secs" -s 1 -o "$set" || exit 1
bench_machine
BENCH_A=("$R" -q -b reference -m 64 -f text -o "$dir/tracewrite-text" "$set")
BENCH_B=("$R" -q -b reference -m 64 -f dat -o "$dir/tracewrite-dat" "$set")
bench_pair "$secs s, 64 CPUs, 640 tasks: trace.txt" "the same: trace.dat"
printf '# trace.txt %s bytes, trace.dat %s bytes\n' \
	"$(stat -c %s "$dir/tracewrite-text/trace.txt")" "$(stat -c %s "$dir/tracewrite-dat/trace.dat")"
rm -rf "$dir/tracewrite-text" "$dir/tracewrite-dat"
