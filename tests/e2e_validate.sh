#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh validate's comparison step (--compare-only) on prepared folders of
# repeated runs (reference runs, so no guest is needed): identical repeats
# pass (exit 0); a planted regression, every B run missing more, fails
# (exit 1) with a FAIL row, a JUnit failure and a TAP "not ok"; bad
# command lines exit 2.  guest/tests/validate.sh boots real kernels.
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$DLB_SRC/tests/lib.sh"
plan 9
A=$BIN/dlb-analyze R=$BIN/dlb-rtapp RUN=$DLB_SRC/run.sh
if [ ! -x "$A" ] || [ ! -x "$R" ]; then skip_rest "dlb-analyze or dlb-rtapp not built"; exit 0; fi
T=$(mktemp -d /tmp/dlb-validate-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
export DLB_BIN=$BIN
V=$T/v W=workloads/suites/cbs-isolation.json
mkdir -p "$V/one"; cp "$DLB_SRC/$W" "$V/one/workload.json"
"$R" -q -b reference -m 2 -d 500ms -o "$V/one" "$V/one/workload.json" &&
	"$A" -q -m 0 -w victim "$V/one" 2>/dev/null
# a validate folder as validate_setup leaves it, three runs a side
printf '%s 2 500ms ok 0 5%% victim\n' "$W" > "$V/entries.txt"
printf 'A=/k/a\nB=/k/b\n' > "$V/kernels.txt"
cp "$DLB_SRC/workloads/suites/default.thresholds" "$V/thresholds.txt"
for s in A B; do for k in 1 2 3; do mkdir -p "$V/$s/cbs-isolation"; cp -r "$V/one" "$V/$s/cbs-isolation/$k"; done; done
rm -rf "$V/one"

"$RUN" validate -C "$V" > "$T/out" 2>&1; rc=$?
expect_eq "identical repeats: exit 0" "$rc" 0
check "a PASS row for the workload" grep -q '^cbs-isolation *validate *PASS ' "$T/out"
check "the side-by-side table is printed" grep -q '^victim-1 *misses *0 \[0\.\.0\] *0 \[0\.\.0\]' "$T/out"

# planted: every B run misses 4 to 6 jobs of victim-2
for k in 1 2 3; do
	awk -v n=$((3 + k)) '/"key": "victim-2"/ { t = 1 } t && !d && $1 == "\"misses\":" { sub(/:.*/, ": " n ","); d = 1 } { print }' \
		"$V/B/cbs-isolation/$k/report.json" > "$T/r" && mv "$T/r" "$V/B/cbs-isolation/$k/report.json"
done
"$RUN" validate -C "$V" > "$T/out" 2>&1; rc=$?
expect_eq "planted regression: exit 1" "$rc" 1
check "the row says worse, p = 1/20" grep -q '^victim-2 *misses *0 \[0\.\.0\] *5 \[4\.\.6\] .* 0\.050 worse$' "$T/out"
check "JUnit: one failure" grep -q '<testsuites name="dlbench" tests="1" failures="1"' "$V/junit.xml"
check "TAP: not ok" grep -q '^not ok 1 - validate/cbs-isolation # FAIL: worse' "$V/results.tap"

"$RUN" validate --kernel /etc/hostname > "$T/out" 2>&1; rc=$?
expect_eq "one --kernel: exit 2, one line" "$rc|$(cat "$T/out")" \
	"2|run.sh: validate: give --kernel twice (A, the baseline, then B)"
"$RUN" validate --repeat 0 --kernel /etc/hostname --kernel /etc/hostname > "$T/out" 2>&1; rc=$?
expect_eq "--repeat 0: exit 2" "$rc|$(cat "$T/out")" "2|run.sh: validate: --repeat: '0' is not a number in 1..64"
