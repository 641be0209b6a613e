#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh's suite on the reference backend: the verdicts the algorithm
# predicts, a complete run folder, and a wrong prediction caught.
. "$(dirname "$0")/lib.sh"
plan 11
for t in dlb-analyze dlb-rtapp; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
done
tmp=$(mktemp -d /tmp/dlb-e2e-ref.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh

"$RUN" nightly --suite smoke --backend reference -o "$tmp/smoke" > "$tmp/out" 2>&1
expect_eq "smoke on reference: exit 0" "$?" 0
got=$(cut -f1-3 "$tmp/smoke/summary.tsv" | tail -n +2 | tr '\t\n' ' ')
expect_eq "smoke on reference: verdicts" "$got" \
	"edf-global-2cpu reference PASS cbs-isolation reference PASS over-capacity reference PASS "
check "over capacity: refused, and that is the pass" \
	grep -q 'over-capacity.*refused by admission control, as predicted' "$tmp/out"
check "summary table and progress lines printed" \
	grep -q '^\[3/3\] reference over-capacity  (elapsed' "$tmp/out"
d=$tmp/smoke/reference/edf-global-2cpu
missing=
for f in workload.json commands.sh env.txt trace.txt report.txt report.json jobs.csv verdict.txt; do
	[ -s "$d/$f" ] || missing="$missing $f"
done
expect_eq "run folder complete (missing:$missing)" "$missing" ""
check "env.txt: uname, rt runtime/period, cpus, arch" \
	test "$(grep -cE "^(uname|sched_rt_runtime_us|sched_rt_period_us|cpus_online|arch)=." "$d/env.txt")" -eq 5
check "commands.sh holds the exact analyzer command" grep -q 'dlb-analyze -q --run-exit 0 --expect ok -m 0 --watch ' "$d/commands.sh"
if command -v gnuplot >/dev/null; then
	check "plots: the five figures (conformance too), PNG and SVG" test "$(compgen -G "$d/plots/*.[ps][nv]g" | wc -l)" -eq 10
	# 367 jobs, some preempted (more segments); the reference migrates ~100 jobs
	expect_eq "Gantt data: >= 1 segment per job, migrations marked" \
		"$([ "$(wc -l < "$d/plots/data/segments.dat")" -ge 367 ] && echo segments) $(wc -l < "$d/plots/data/migrations.dat")" \
		"segments $(csv_awk 'FNR > 1 { s += v("migrations") } END { print s }' "$d/jobs.csv")"
else
	skip "plots" "gnuplot not installed"
fi

# a prediction the reference contradicts must fail: the schedulable set "expected refused"
printf 'workloads/suites/edf-global-2cpu.json both 2 1s refused - - *\n' > "$tmp/wrong.suite"
"$RUN" nightly --suite "$tmp/wrong.suite" --backend reference -o "$tmp/wrong" > "$tmp/wout" 2>&1
expect_eq "wrong prediction: exit REGRESSION" "$?" 1
check "wrong prediction: says why" grep -q 'FAIL.*admitted a set over capacity' "$tmp/wout"
