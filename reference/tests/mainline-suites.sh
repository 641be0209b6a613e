#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mainline model runs every suite workload (workloads/suites/*.json)
# through both front ends, dlb-sim and dlb-rtapp --backend reference, on the
# CPUs of the suite entry naming it (2 for most; multicpu's 4 and 8) with every
# invariant checked: a workload the suites predict refused (over-capacity,
# admission-4-over) is refused with EBUSY, every other one runs clean.
. "$DLB_SRC/tests/lib.sh"
mapfile -t WLS < <(ls "$DLB_SRC"/workloads/suites/*.json)
plan $((${#WLS[@]} * 4 + 3))
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# what the suites predict: "refused" in the expect column of any .suite
refused() { grep -hq "^workloads/suites/$(basename "$1")[[:space:]].*[[:space:]]refused[[:space:]]" \
	"$DLB_SRC"/workloads/suites/*.suite; }

# the CPUs column of the first suite entry naming the workload (2 if none)
cpus_of() { awk -v w="workloads/suites/$(basename "$1")" '$1 == w { print $3; exit }' \
	"$DLB_SRC"/workloads/suites/*.suite | grep . || echo 2; }

for wl in "${WLS[@]}"; do
	n=$(basename "$wl" .json)
	m=$(cpus_of "$wl")
	want=0
	refused "$wl" && want=3	# EBUSY: exit 3 (environment), as on the kernel
	for model in mainline mainline:6.1; do
		out=$("$BIN/dlb-sim" --model "$model" -m "$m" -c --no-timing -d 1s "$wl" 2>&1 >/dev/null); rc=$?
		[ "$rc" = "$want" ] || rc="$rc ($out)"	# the message shows on a failure
		expect_eq "dlb-sim --model $model $n: exit $want" "$rc" "$want"
	done
	out=$("$BIN/dlb-rtapp" -q -b reference --model mainline -m "$m" -d 1s -o "$T/$n" "$wl" 2>&1)
	rc=$?
	expect_eq "dlb-rtapp --model mainline $n: exit $want" "$rc" "$want"
	if [ $want = 0 ]; then
		check "dlb-rtapp --model mainline $n: summary complete" \
			grep -q '"status": "complete"' "$T/$n/summary.json"
	else
		check "dlb-rtapp --model mainline $n: EBUSY named" grep -q EBUSY <<<"$out"
	fi
done

# the models differ where the rules do: admission of 1.84 on 2 CPUs
cat >"$T/184.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "t": { "instance": 4, "policy": "SCHED_DEADLINE", "dl-runtime": 4600,
		    "dl-period": 10000, "dl-deadline": 10000, "run": 1000, "timer": { "ref": "t", "period": 10000 } } } }
JSON
"$BIN/dlb-sim" --model mainline:6.1 -m 2 -d 100ms "$T/184.json" >/dev/null 2>&1
expect_eq "mainline:6.1 admits 1.84 on 2 CPUs (no fair server)" "$?" 0
out=$("$BIN/dlb-sim" --model mainline -m 2 -d 100ms "$T/184.json" 2>&1 >/dev/null)
check "mainline (6.12+) refuses it: the fair servers' 0.1" grep -q 'over the admitted 1.8000' <<<"$out"
out=$("$BIN/dlb-rtapp" -b kernel --model mainline "$T/184.json" 2>&1); rc=$?
expect_eq "--model with the kernel backend refused" "$rc:$out" \
	"2:dlb-rtapp: --model: the rules are for --backend reference; the kernel backend is the machine's kernel"
