#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-analyze compare as the driver and the farm use it: the thresholds
# file (-T), runs that are not the same experiment named, counts of runs of
# different lengths compared as rates, the runs' own verdicts shown, one
# summary line; and --baseline folding the comparison into the verdict.
# shellcheck source-path=SCRIPTDIR
# shellcheck source=../../tests/lib.sh
. "$DLB_SRC/tests/lib.sh"
plan 16
A=$BIN/dlb-analyze R=$BIN/dlb-rtapp
if [ ! -x "$A" ] || [ ! -x "$R" ]; then skip_rest "dlb-analyze or dlb-rtapp not built"; exit 0; fi
T=$(mktemp -d /tmp/dlb-compare-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
W=$DLB_SRC/workloads/suites/cbs-isolation.json
mk() {	# mk NAME DURATION: a reference run folder of W, analyzed
	mkdir -p "$T/$1"; cp "$W" "$T/$1/workload.json"
	"$R" -q -b reference -m 2 -d "$2" -o "$T/$1" "$T/$1/workload.json" &&
		"$A" -q -m -1 "$T/$1" 2>/dev/null
}
mk base 1s; mk same 1s; mk long 2s
# the victims' work grows past their runtime: they overrun and miss
mkdir -p "$T/worse"; sed 's/"run": 4000,/"run": 5000,/' "$W" > "$T/worse/workload.json"
"$R" -q -b reference -m 2 -d 1s -o "$T/worse" "$T/worse/workload.json"

"$A" compare "$T/base" "$T/same" > "$T/out"; rc=$?
expect_eq "identical runs: exit 0, summary line last" "$rc|$(tail -1 "$T/out")" \
	"0|compare: not worse: 0 worse, 0 better, 32 same, 3 n/a"
check "the runs' own verdicts are shown" grep -q '^# new verdict:  PASS: 33 of 233 jobs missed (allowed: any)$' "$T/out"

"$A" compare "$T/base" "$T/long" > "$T/out"; rc=$?
check "twice as long: the difference named" \
	grep -q '^# warning: the runs differ in duration: base 1.000 s, new 2.000 s$' "$T/out"
# the hog misses every job: 33 in 1 s, 66 in 2 s, the same rate
expect_eq "counts compared as rates: the hog's misses are the same" \
	"$rc|$(grep '^hog-0 *misses ' "$T/out" | tr -s ' ')" "0|hog-0 misses 33 33 0%,0 same"
check "the summary says why the runs are not alike" \
	grep -q '^compare: not worse: .*; the runs differ in duration$' "$T/out"

cp "$T/base/workload.json" "$T/w2.json"; sed -i 's/"hog"/"hug"/' "$T/long/workload.json"
"$A" compare "$T/base" "$T/long" > "$T/out"
check "another workload.json is named" \
	grep -q '^# warning: the runs differ in workload: ' "$T/out"

# the thresholds file: the lines of NEW's backend and folder name, then -t
mkdir -p "$T/suite/reference"; cp -r "$T/same" "$T/suite/reference/cbs"
printf '# comment\nkernel * -t misses=100%%,50\nreference cbs -t misses=0,0 -t overruns=100%%,1000\nreference other -t bogus=1\n' > "$T/th"
"$A" compare -T "$T/th" "$T/base" "$T/suite/reference/cbs" > "$T/out"; rc=$?
expect_eq "thresholds file: the matching line applies" \
	"$rc|$(grep '^hog-0 *overruns ' "$T/out" | tr -s ' ')" "0|hog-0 overruns 33 33 100%,1000 same"
printf 'reference cbs -t misses=0,0 oops\n' > "$T/th2"
err=$("$A" compare -T "$T/th2" "$T/base" "$T/suite/reference/cbs" 2>&1 >/dev/null); rc=$?
expect_eq "thresholds file: an error names FILE:LINE" "$rc|$err" \
	"2|dlb-analyze: $T/th2:1: 'oops': expected -t METRIC=VALUE"

# --baseline: one check of the verdict, compare.txt beside the report
"$A" -q -m -1 -B "$T/base" "$T/same"; rc=$?
expect_eq "--baseline, not worse: exit 0" "$rc|$(grep '^check=baseline' "$T/same/verdict.txt")" \
	"0|check=baseline pass baseline: not worse"
"$A" -q -m -1 -B "$T/base" "$T/worse" 2>/dev/null; rc=$?
expect_eq "--baseline, worse: the verdict fails (exit 1)" "$rc|$(sed -n 's/^verdict=//p' "$T/worse/verdict.txt")" \
	"1|FAIL"
check "compare.txt kept" test -s "$T/worse/compare.txt"

# conformance (docs/conformance.md): kernel-only misses not explained by
# overrun, a run-level metric with a threshold like the others.  A report
# whose replay found 3 more is worse (exit 1); the same count is not.
mkdir -p "$T/conf"; cp "$T/base/workload.json" "$T/conf/"
sed '0,/"unexplained": 0/s//"unexplained": 3/' "$T/base/report.json" > "$T/conf/report.json"
"$A" compare "$T/base" "$T/same" > "$T/out"; rc=$?
expect_eq "conformance: equal counts pass" "$rc|$(grep '^(run) *conformance.unexplained ' "$T/out" | tr -s ' ')" \
	"0|(run) conformance.unexplained 0 0 0%,0 same"
"$A" compare "$T/base" "$T/conf" > "$T/out"; rc=$?
expect_eq "conformance: 3 unexplained kernel-only misses more fail (exit 1)" \
	"$rc|$(grep '^(run) *conformance.unexplained ' "$T/out" | tr -s ' ')|$(tail -1 "$T/out")" \
	"1|(run) conformance.unexplained 0 3 0%,0 worse|compare: worse: 1 worse, 0 better, 31 same, 3 n/a (first: (run) conformance.unexplained)"
"$A" compare -t conformance.unexplained=0,5 "$T/base" "$T/conf" > "$T/out"; rc=$?
expect_eq "conformance: within its threshold (-t conformance.unexplained=0,5): exit 0" "$rc" 0

# oracle-only misses (conformance version 2: an object of counts per cause):
# conformance.oracle_only is their total; a version-1 report's count (a
# number) is still read
mkdir -p "$T/oo" "$T/v1"; cp "$T/base/workload.json" "$T/oo/"; cp "$T/base/workload.json" "$T/v1/"
awk '/"oracle_only_misses": \{/ { oo = 1 } oo && /"total": 0/ && !t++ { sub(/0/, "2") }
	oo && /"waited": 0/ && !w++ { sub(/0/, "2") } oo && /"unexplained": 0/ && !u++ { sub(/0/, "2") }
	{ print }' "$T/base/report.json" > "$T/oo/report.json"
"$A" compare "$T/base" "$T/oo" > "$T/out"; rc=$?
expect_eq "conformance: 2 oracle-only misses more fail (exit 1)" \
	"$rc|$(grep '^(run) *conformance.oracle_' "$T/out" | tr -s ' ' | tr '\n' '|')" \
	"1|(run) conformance.oracle_only 0 2 0%,0 worse|"
awk '/"oracle_only_misses": \{/ { print "      \"oracle_only_misses\": 0,"; skip = 1; next }
	skip { if (/}/) skip = 0; next } { print }' "$T/base/report.json" > "$T/v1/report.json"
"$A" compare "$T/v1" "$T/same" > "$T/out"; rc=$?
expect_eq "conformance: a version-1 report's oracle-only count is compared" \
	"$rc|$(grep '^(run) *conformance.oracle_' "$T/out" | tr -s ' ' | tr '\n' '|')" \
	"0|(run) conformance.oracle_only 0 0 0%,0 same|"
