#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh compare: an identical pair passes, an injected regression (the
# same tasks doing 12.5 % more work each job, past their reservation) is
# caught, on the reference.
. "$(dirname "$0")/lib.sh"
plan 7
[ -x "$BIN/dlb-analyze" ] || { skip_rest "dlb-analyze not built yet"; exit 0; }
tmp=$(mktemp -d /tmp/dlb-e2e-cmp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh
WL=$DLB_SRC/workloads/suites/edf-global-2cpu.json
sed 's/"run": 4000/"run": 4500/' "$WL" > "$tmp/slower.json"
check "the injected change is in the copy" grep -q '"run": 4500' "$tmp/slower.json"

"$RUN" run "$WL" -b reference -o "$tmp/base" > /dev/null 2>&1
"$RUN" run "$WL" -b reference -o "$tmp/same" > /dev/null 2>&1
"$RUN" run "$tmp/slower.json" -b reference -o "$tmp/slow" > /dev/null 2>&1
check "three analyzed runs" test -s "$tmp/base/report.json" -a -s "$tmp/same/report.json" -a -s "$tmp/slow/report.json"

"$RUN" compare "$tmp/base" "$tmp/same" > "$tmp/same.out" 2>&1
expect_eq "identical pair: exit OK" "$?" 0
"$RUN" compare "$tmp/base" "$tmp/slow" > "$tmp/slow.out" 2>&1
expect_eq "injected regression: exit REGRESSION" "$?" 1
check "injected regression: execution time named" grep -q 'exec_p99' "$tmp/slow.out"
# suite folders: every BACKEND/WORKLOAD pair compared
mkdir -p "$tmp/s1/reference" "$tmp/s2/reference"
cp -r "$tmp/base" "$tmp/s1/reference/g"; cp -r "$tmp/slow" "$tmp/s2/reference/g"
"$RUN" compare "$tmp/s1" "$tmp/s2" > "$tmp/suite.out" 2>&1
expect_eq "suite folders: the regression found" "$?" 1
# the suite's thresholds kept in the NEW folder apply: generous ones hide it
printf '# backend workload options\nreference g -t exec_p99=100%%,10ms -t response_p99=100%%,10ms -t response_max=100%%,10ms -t lateness_max=100%%,10ms -t wakeup_p99=100%%,10ms\nreference g -t misses=100%%,1000 -t overruns=100%%,1000 -t migrations_per_job=100%%,1 -t migration_delay_p99=100%%,10ms -t inversion_per_job=100%%,10ms\n' \
	> "$tmp/s2/thresholds.txt"
"$RUN" compare "$tmp/s1" "$tmp/s2" > "$tmp/suite2.out" 2>&1
expect_eq "suite folders: the suite's thresholds apply (not worse)" "$?" 0
