#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-analyze compare of repeated runs (validate's KERNEL/WORKLOAD/1..R
# folders): medians against the threshold and the one-sided Mann-Whitney
# test, so that one noisy run is not a regression; admission, the DL
# accounting check and the runs' verdicts as rows; and a guest run's
# kernel image named in report.json.
# shellcheck source-path=SCRIPTDIR
# shellcheck source=../../tests/lib.sh
. "$DLB_SRC/tests/lib.sh"
plan 16
A=$BIN/dlb-analyze R=$BIN/dlb-rtapp
if [ ! -x "$A" ] || [ ! -x "$R" ]; then skip_rest "dlb-analyze or dlb-rtapp not built"; exit 0; fi
T=$(mktemp -d /tmp/dlb-repeats-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
W=$DLB_SRC/workloads/suites/cbs-isolation.json
# one reference run of W, analyzed as the suite does, copied into SIDE/cbs/1..3
mkdir -p "$T/one"; cp "$W" "$T/one/workload.json"
"$R" -q -b reference -m 2 -d 500ms -o "$T/one" "$T/one/workload.json" &&
	"$A" -q -m 0 -w victim "$T/one" 2>/dev/null
side() {	# side NAME K...: repeats K of the one run
	local s=$1 k; shift
	rm -rf "${T:?}/$s"
	for k in "$@"; do mkdir -p "$T/$s/cbs"; cp -r "$T/one" "$T/$s/cbs/$k"; done
}
# set_json FILE KEY FIELD VALUE: FIELD of task KEY ("-" the top level) in a pretty report
set_json() {
	awk -v key="$2" -v f="\"$3\":" -v val="$4" '
		key == "-" && !done && $1 == f { sub(/:.*/, ": " val (/,$/ ? "," : "")); done = 1 }
		$0 ~ "\"key\": \"" key "\"" { intask = 1 }
		intask && !done && $1 == f { sub(/:.*/, ": " val ","); done = 1 }
		{ print }' "$1" > "$1.new" && mv "$1.new" "$1"
}
row() { grep "^$1 *$2 " "$T/out" | tr -s ' '; }

side base 1 2 3; side new 1 2 3
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "3 against 3 identical runs: not worse (exit 0)" "$rc|$(tail -1 "$T/out" | cut -d: -f1,2)" \
	"0|compare: not worse"
expect_eq "a row: medians, ranges, no test needed" "$(row victim-1 misses)" \
	"victim-1 misses 0 [0..0] 0 [0..0] 0%,0 - same"

# a planted regression: every new run misses
for k in 1 2 3; do set_json "$T/new/cbs/$k/report.json" victim-1 misses $((4 + k)); done
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "every new run misses: worse (exit 1), p = 1/20" "$rc|$(row victim-1 misses)" \
	"1|victim-1 misses 0 [0..0] 6 [5..7] 0%,0 0.050 worse"

# one noisy run among three: the median moved, the ranks do not say it is more than noise
set_json "$T/new/cbs/1/report.json" victim-1 misses 0
set_json "$T/new/cbs/2/report.json" victim-1 misses 0
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "one run of three misses: same (exit 0)" "$rc|$(row victim-1 misses)" \
	"0|victim-1 misses 0 [0..0] 0 [0..7] 0%,0 - same"
set_json "$T/new/cbs/2/report.json" victim-1 misses 6
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "two runs of three miss: unclear, not a regression (exit 0)" \
	"$rc|$(row victim-1 misses)" "0|victim-1 misses 0 [0..0] 6 [0..7] 0%,0 0.200 unclear"
check "the summary asks for more repeats" grep -q '; 1 unclear (more repeats would tell)$' "$T/out"

# one run a side: no test can tell a change from noise: unclear, and the header says so
side b1 1; side n1 1; set_json "$T/n1/cbs/1/report.json" victim-2 misses 3
"$A" compare "$T/b1/cbs" "$T/n1/cbs" > "$T/out"; rc=$?
expect_eq "one run a side: a timing change is unclear (exit 0)" "$rc|$(row victim-2 misses)" \
	"0|victim-2 misses 0 [0..0] 3 [3..3] 0%,0 0.500 unclear"
check "the header says the rank test cannot decide" grep -q 'too few runs for the rank test (3 a side)' "$T/out"

# outcomes that are not timing
side new 1 2 3
for k in 1 2 3; do set_json "$T/new/cbs/$k/report.json" - admission '"refused"'; done
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "admission changed: worse" "$rc|$(row '(run)' admission)" \
	"1|(run) admission 3/3 admitted 0/3 admitted majority - worse"
side new 1 2 3
sed -i 's/"status": "absent"/"status": "finding"/' "$T/new/cbs/2/report.json"
sed -i 's/"status": "absent"/"status": "ok"/' "$T/new/cbs/1/report.json" "$T/new/cbs/3/report.json"
for k in 1 2 3; do sed -i 's/"status": "absent"/"status": "ok"/' "$T/base/cbs/$k/report.json"; done
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "a DL accounting finding where the base had none: worse" "$rc|$(row '(run)' dl_accounting)" \
	"1|(run) dl_accounting 0/3 findings 1/3 findings any - worse"
# the accounting at boot (a guest's /init check): a finding, even repaired, where the
# base's kernel booted clean is worse; runs without the check are not counted
for k in 1 2 3; do
	sed -i 's/"boot_dl_accounting": null/"boot_dl_accounting": { "status": "ok" }/' "$T/base/cbs/$k/report.json"
done
sed -i 's/"boot_dl_accounting": null/"boot_dl_accounting": { "status": "finding_repaired" }/' "$T/new/cbs/3/report.json"
"$A" compare "$T/base/cbs" "$T/new/cbs" > "$T/out"; rc=$?
expect_eq "a boot DL accounting finding where the base had none: worse" \
	"$rc|$(row '(run)' boot_dl_accounting)" "1|(run) boot_dl_accounting 0/3 findings 1/1 findings any - worse"

err=$("$A" compare "$T/base/cbs" "$T/one" 2>&1 >/dev/null); rc=$?
expect_eq "repeats against one run: exit 2, one line" "$rc|$err" \
	"2|dlb-analyze: $T/base/cbs holds repeated runs and $T/one does not: compare repeats with repeats"

# a guest run's guest.txt: the image and its checksum in report.json
printf 'kernel=6.1.0-99-arm64\narch=aarch64\ncpus_online=4\nimage=/k/Image\nimage_sha256=%s\n' \
	"$(printf '%064d' 7)" > "$T/one/guest.txt"
"$A" -q -m -1 "$T/one" 2>/dev/null
expect_eq "guest.txt: kernel, arch, image and checksum in report.json" \
	"$(grep -E '^    "(kernel|arch|image|image_sha256)":' "$T/one/report.json" | tr -d ' \n')" \
	"\"kernel\":\"6.1.0-99-arm64\",\"arch\":\"aarch64\",\"image\":\"/k/Image\",\"image_sha256\":\"$(printf '%064d' 7)\","

# guest.txt's boot DL accounting (a finding /init repaired before the run):
# shown in report.json and report.txt, outside the verdict; an unreadable number is null
printf 'boot_dl_total_bw=0\nboot_dl_fair_bw=104856\nboot_dl_total_bw_repaired=x\nboot_dl_accounting=finding_repaired\nboot_dl_detail=not counted at boot\n' \
	>> "$T/one/guest.txt"
"$A" -q -m -1 "$T/one" 2>/dev/null; rc=$?
expect_eq "guest.txt: boot_dl_accounting in report.json, not a verdict finding (exit $rc)" \
	"$rc|$(tr -d '\n' < "$T/one/report.json" | tr -s ' ' | grep -o '"boot_dl_accounting": {[^}]*}\|"findings": \[ *\]' | tr -d '\n')" \
	'0|"boot_dl_accounting": { "status": "finding_repaired", "detail": "not counted at boot", "total_bw_boot": 0, "fair_server_bw": 104856, "total_bw_repaired": null }"findings": [ ]'
check "guest.txt: boot_dl_accounting in report.txt" \
	grep -qx '# kernel check: boot_dl_accounting FINDING, repaired: not counted at boot (guest.txt, before the run)' "$T/one/report.txt"

# a run refused by admission control as its entry expected: no jobs, the generator's status
# "error" (data incomplete), and its verdict PASS: the comparison is complete
mkdir -p "$T/oc"; cp "$DLB_SRC/workloads/suites/over-capacity.json" "$T/oc/workload.json"
"$R" -q -b reference -m 2 -d 200ms -o "$T/oc" "$T/oc/workload.json" 2>/dev/null
"$A" -q -e refused --run-exit 3 "$T/oc" 2>/dev/null
for s in rb rn; do mkdir -p "$T/$s/oc"; cp -r "$T/oc" "$T/$s/oc/1"; done
"$A" compare "$T/rb/oc" "$T/rn/oc" > "$T/out"; rc=$?
expect_eq "refused as expected on both sides: complete, not worse (exit 0)" \
	"$rc|$(row '(run)' admission)" "0|(run) admission 0/1 admitted 0/1 admitted majority - same"
