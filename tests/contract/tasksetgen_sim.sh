#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What dlb-tasksetgen writes runs on the reference simulator: two seconds,
# two CPUs, no admission refusal, jobs of every task.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
plan 3

"$BIN/dlb-tasksetgen" -m 2 --util-per-cpu 0.7 --seed 5 --alg randfixedsum --period-min 10ms \
	--period-max 100ms --period-gran 1ms --duration 10 -q -o "$T/a.json"
expect_eq "dlb-tasksetgen writes the set" "$?" 0
"$BIN/dlb-sim" -m 2 --check --no-timing -d 2s -o "$T/sim" "$T/a.json" >/dev/null 2>"$T/sim.err"
rc=$?
expect_eq "dlb-sim runs it" "$rc" 0
tasks=$(csv_awk 'FNR > 1 { print v("comm") }' "$T/sim/jobs.csv" 2>/dev/null | sort -u | tr '\n' ' ')
expect_eq "dlb-sim ran jobs of every task" "$tasks" "t0-0 t1-1 t2-2 t3-3 "
