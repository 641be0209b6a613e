#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh nightly for the farm: valid JUnit (xmllint), TAP on stdout, the
# time budget skips what would overrun it, a baseline comparison.
. "$(dirname "$0")/lib.sh"
plan 10
[ -x "$BIN/dlb-analyze" ] || { skip_rest "dlb-analyze not built yet"; exit 0; }
tmp=$(mktemp -d /tmp/dlb-e2e-nightly.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh

"$RUN" nightly --suite smoke --backend reference --tap --junit "$tmp/junit.xml" -o "$tmp/n1" \
	> "$tmp/tap" 2> "$tmp/err"
expect_eq "nightly: exit OK" "$?" 0
if command -v xmllint >/dev/null; then
	check "JUnit is well-formed XML (xmllint)" xmllint --noout "$tmp/junit.xml"
	expect_eq "JUnit: 3 testcases, 0 failures" \
		"$(xmllint --xpath 'concat(count(//testcase), " ", /testsuites/@failures)' "$tmp/junit.xml")" "3 0"
else
	skip "JUnit well-formed" "xmllint not installed"; skip "JUnit counts" "xmllint not installed"
fi
expect_eq "TAP: plan and results on stdout, nothing else" \
	"$(grep -cvE '^(TAP version 13|1\.\.3|ok [1-3] - reference/[a-z0-9-]+ # .*)$' "$tmp/tap")" 0
check "TAP: three ok lines" test "$(grep -c '^ok ' "$tmp/tap")" -eq 3
check "progress went to stderr" grep -q '^\[1/3\] reference' "$tmp/err"

# a budget too small for the second workload: it is skipped, counted as such
"$RUN" nightly --suite smoke --backend reference --max-duration 2 -o "$tmp/n2" > "$tmp/out2" 2>&1
check "budget: later workloads skipped with the reason" \
	grep -q 'SKIP.*time budget of 2s spent' "$tmp/n2/summary.tsv"
check "budget: JUnit marks them skipped" grep -q '<skipped message="time budget' "$tmp/n2/junit.xml"

# baseline: the first nightly; an identical re-run has no regression
"$RUN" nightly --suite smoke --backend reference --baseline "$tmp/n1" -o "$tmp/n3" > "$tmp/out3" 2>&1
check "baseline: compared, no regression" grep -q 'baseline: not worse' "$tmp/n3/summary.tsv"
check "the suite's thresholds kept with the results" \
	cmp -s "$DLB_SRC/workloads/suites/default.thresholds" "$tmp/n1/thresholds.txt"
