#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Conformance with overheads charged (docs/conformance.md "Overheads"): a
# reference run made with a planted context-switch and migration overhead
# (dlb-sim --ctx-switch --migration) has jobs late by it; replayed without
# overheads its misses are kernel-only, replayed with the run's own
# overheads (measured from its trace) or the planted ones they are
# reproduced and nothing diverges.  Charging nothing through the same path
# reproduces none; bad values of the option are refused.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 12
J=$DLB_BUILD/tests/tools/json-get
[ -x "$BIN/dlb-sim" ] || { skip_rest "dlb-sim not built yet"; exit 0; }
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }

# 2 CPUs: a-0 and a-1 (4 ms every 10 ms, deadline 4.2 ms) and b (3 ms every
# 7 ms, deadline 6 ms).  150 us at each switch-in and 300 us at each switch-in
# on a new CPU make b miss behind the a's, and its preempted jobs migrate.
cat >"$T/w.json" <<'EOS'
{ "tasks": {
	"a": { "instance": 2, "run": 4000, "timer": { "ref": "unique_a", "period": 10000 },
		"dl-runtime": 4200, "dl-deadline": 4200, "dl-period": 10000 },
	"b": { "run": 3000, "timer": { "ref": "unique_b", "period": 7000 },
		"dl-runtime": 3500, "dl-deadline": 6000, "dl-period": 7000 } },
  "global": { "duration": 1, "default_policy": "SCHED_DEADLINE" } }
EOS
run "$BIN/dlb-sim" -m 2 --ctx-switch=150us --migration=300us --no-timing -o "$T/run" "$T/w.json"
[ "$rc" = 0 ] || fail "the reference run with overheads" "$(cat "$T/err")"

# the counts: divergent, kernel-only (total, overrun), overheads charged, and
# of the plain replay's kernel-only misses, those reproduced
counts() {
	"$J" "$1/report.json" conformance.divergent_jobs conformance.run.kernel_only_misses.total \
		conformance.run.kernel_only_misses.overrun conformance.overheads.source \
		conformance.overheads.ctx_switch_ns conformance.overheads.migration_ns \
		conformance.overheads.plain_kernel_only conformance.overheads.reproduced 2>/dev/null | tr '\n' ' '
}

run "$A" -q -m -1 -o "$T/plain" "$T/run"
read -r div k kover _ <<<"$(counts "$T/plain")"
echo "# without overheads: $div divergent, $k kernel-only misses ($kover overrun)"
check "without overheads: kernel-only misses ($k), all overrun ($kover)" \
	test "$rc" = 0 -a "$k" -gt 0 -a "$k" = "$kover" -a "$div" = "$k"
expect_eq "without overheads: none charged, report says so" \
	"$("$J" "$T/plain/report.json" conformance.overheads conformance.version | tr '\n' ' ')" "null 3 "

# measured: the median switch-in to begin is the planted 150 us; the
# migration's shows only where a woken job began on a new CPU (none here:
# b migrates when preempted, and that cost stays in its consumed demand)
run "$A" -q -m -1 --replay-overheads -o "$T/meas" "$T/run"
expect_eq "measured overheads: the planted 150 us, nothing diverges, every kernel-only miss reproduced" \
	"$rc $(counts "$T/meas")" "0 0 0 0 measured 150000 0 $k $k "
check "measured overheads: the text report's line" grep -qx \
	"# conformance: overheads charged (measured): context switch 150.0 us, migration 0.0 us; of the $k kernel-only misses without them, $k reproduced with them (overhead), 0 not" \
	"$T/meas/report.txt"
expect_eq "measured overheads: the samples counted" \
	"$("$J" "$T/meas/report.json" conformance.overheads.migration_samples)" 0
check "measured overheads: context-switch samples" test \
	"$("$J" "$T/meas/report.json" conformance.overheads.ctx_switch_samples)" -gt 100

# given: the planted values, both charged
run "$A" -q -m -1 --replay-overheads=150us,300us -o "$T/given" "$T/run"
expect_eq "the planted overheads given: nothing diverges" \
	"$rc $(counts "$T/given")" "0 0 0 0 given 150000 300000 $k $k "

# the same path charging nothing reproduces nothing: the check can fail
run "$A" -q -m -1 --replay-overheads=0,0 -o "$T/zero" "$T/run"
expect_eq "zero overheads charged: no kernel-only miss reproduced" \
	"$rc $(counts "$T/zero")" "0 $div $k $kover given 0 0 $k 0 "

# a run without overheads measures none
run "$BIN/dlb-sim" -m 2 --no-timing -o "$T/clean" "$T/w.json"
run "$A" -q -m -1 --replay-overheads -o "$T/clean-a" "$T/clean"
expect_eq "a run without overheads: 0 measured, nothing diverges" \
	"$rc $(counts "$T/clean-a")" "0 0 0 0 measured 0 0 0 0 "

# bad values: exit 2, one line
for v in fast 1us 1us,xyz; do
	run "$A" -q --replay-overheads=$v -o "$T/bad" "$T/run"
	expect_eq "--replay-overheads=$v: exit 2, one line naming the value" "$rc $(cat "$T/err")" \
		"2 dlb-analyze: --replay-overheads: '$v' is not measured, none or CS,MIG (durations: 2us,10us) (try --help)"
done
