#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Conformance, checked on the reference itself (docs/conformance.md): a
# reference run's own jobs trace, replayed through the reference under the
# same model, must give back every job as it was: zero divergence, zero
# unmatched jobs, every end to the nanosecond.  Over suite workloads (global
# EDF, CBS isolation with a hog that throttles, pinned tasks beside RT and
# fair ones, a full CPU) and random task sets from dlb-tasksetgen with
# constrained deadlines and jobs that overrun their runtime (misses,
# throttles, migrations).  The check can see: the same v4 runs replayed
# under mainline's rules diverge.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 25
W=$DLB_SRC/workloads/suites
J=$DLB_BUILD/tests/tools/json-get
for t in dlb-rtapp dlb-sim dlb-tasksetgen; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
done
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }

# conform DIR: the conformance section's verdict on a self-replay, one line:
# status, divergent jobs, unmatched jobs, largest lateness and end differences,
# and whether every finished job of the jobs trace was compared
conform() {
	local r=$1/report.json st div uk uo ld ed cj rj
	read -r st div uk uo ld ed cj < <("$J" "$r" conformance.status \
		conformance.divergent_jobs conformance.run.unmatched_kernel_jobs \
		conformance.run.unmatched_oracle_jobs conformance.run.lateness_diff_max_ns \
		conformance.run.end_diff_max_ns conformance.run.jobs | tr '\n' ' ')
	rj=$(finished "$1/jobs-trace.txt")
	echo "$st div=$div unmatched=$uk/$uo late_diff=$ld end_diff=$ed compared=$([ "$cj" = "$rj" ] && echo all || echo "$cj of $rj")"
}
# finished FILE: the job records of a jobs trace whose demand is known whole (no "N+")
finished() { grep -c '^job .* [0-9-]* [0-9-]*$' "$1"; }
want="done div=0 unmatched=0/0 late_diff=0 end_diff=0 compared=all"

# reference run + analysis of DIR from WORKLOAD on CPUS
ref_run() {
	"$BIN/dlb-rtapp" -q -b reference -m "$3" -d 1s -o "$T/$1" "$2" >"$T/$1.out" 2>&1 &&
		"$A" -q -m -1 "$T/$1" >>"$T/$1.out" 2>&1
}

for w in edf-global-2cpu cbs-isolation pinned-mixed edf-1cpu-full near-capacity; do
	if ref_run "$w" "$W/$w.json" 2; then
		expect_eq "self-replay of $w: no divergence" "$(conform "$T/$w")" "$want"
	else
		fail "self-replay of $w: no divergence" "$(cat "$T/$w.out")"
	fi
done

# random sets: 4 CPUs, U = 3.4, D in [C + 0.6 (T - C), T], each job 1.1 x its runtime
"$BIN/dlb-tasksetgen" -q -m 4 --util-per-cpu 0.85 -n 10 --deadline-ratio 0.6:1 \
	--run-ratio 1.1 -d 1 -s 7 -c 4 -p "$T/rand" || fail "tasksetgen"
# and 3 CPUs, UUniFast-discard, implicit deadlines, near the capacity
"$BIN/dlb-tasksetgen" -q -a uunifast-discard -m 3 --util-per-cpu 0.9 -n 7 -d 1 -s 3 \
	-o "$T/rand-u.json" || fail "tasksetgen"
misses=0
for s in rand-000 rand-001 rand-002 rand-003 rand-u; do
	if ref_run "$s" "$T/$s.json" "$([ $s = rand-u ] && echo 3 || echo 4)"; then
		expect_eq "self-replay of random set $s: no divergence" "$(conform "$T/$s")" "$want"
		misses=$((misses + $("$J" "$T/$s/report.json" conformance.run.oracle_misses)))
	else
		fail "self-replay of random set $s: no divergence" "$(cat "$T/$s.out")"
	fi
done
echo "# oracle misses over the random sets: $misses"
check "the random sets exercise misses (replayed: $misses)" test "$misses" -gt 0

# a run under mainline's rules with a reclaiming task (GRUB): replayed under the
# run's own model (summary.json), its task reclaiming (the jobs trace's flags);
# it was replayed under v4 without the flag: 475 divergent, 425 jobs unmatched
if "$BIN/dlb-rtapp" -q -b reference --model mainline -m 1 -d 1s -o "$T/grub" \
	"$DLB_SRC/reference/tests/data/reclaim.json" >"$T/grub.out" 2>&1 &&
	"$A" -q -m -1 "$T/grub" >>"$T/grub.out" 2>&1; then
	expect_eq "self-replay of a reclaiming task under mainline: no divergence" \
		"$(conform "$T/grub")" "$want"
	expect_eq "the replay's model and flags: the run's own" \
		"$("$J" "$T/grub/report.json" conformance.model conformance.model_source | tr '\n' ' ')$(grep -E '^(model|flags) ' "$T/grub/jobs-trace.txt" | tr '\n' ' ')" \
		"mainline the reference run's own model model mainline flags 0 reclaim "
else
	fail "self-replay of a reclaiming task under mainline: no divergence" "$(cat "$T/grub.out")"
	fail "the replay's model and flags: the run's own"
fi

# the check can fail: a v4 run replayed under mainline's rules differs
run "$A" -q -m -1 --model mainline -o "$T/ml" "$T/rand-000"
div=$("$J" "$T/ml/report.json" conformance.divergent_jobs conformance.model | tr '\n' ' ')
echo "# rand-000 under mainline: $div"
check "a v4 run replayed under mainline diverges ($div)" test "${div%% *}" -gt 0

# dlb-sim --replay: the jobs trace the analyzer wrote, on the command line
run "$BIN/dlb-sim" --replay --no-timing -o "$T/sim" "$T/rand-000/jobs-trace.txt"
closed=$(finished "$T/rand-000/jobs-trace.txt")
rows=$(($(wc -l <"$T/sim/jobs.csv") - 1))
expect_eq "dlb-sim --replay: every finished job of the trace ($rc, $rows of $closed)" "$rc $rows" "0 $closed"
check "dlb-sim --replay: the model is named" grep -q 'replay under model v4' "$T/err"

# unavailable time: a 2 ms job (t0 + 0) whose CPU is taken 1 to 1.5 ms by
# interrupts ends at 2.5 ms in the replay (at 2 ms without the record)
cat >"$T/ua.txt" <<'EOF'
dlb-jobs-trace 4
cpus 1
t0 1000000
end 12000000
tick 0
kernel -
backend kernel
affinity all
task 0 100 3000000 10000000 10000000 0 a
job 0 0 1000000 1000000 11000000 2000000 -
unavail 0 2000000 2500000 irq
EOF
run "$BIN/dlb-sim" --replay --no-timing -o "$T/ua" "$T/ua.txt"
expect_eq "dlb-sim --replay: an unavail interval delays the job it interrupts ($rc)" \
	"$rc $(csv_awk 'FNR > 1 { print v("end") }' "$T/ua/jobs.csv")" "0 2500000"

# the same job with a runtime of 2.2 ms, its 0.5 ms of interrupts charged (the
# traced kernel without CONFIG_IRQ_TIME_ACCOUNTING, n; or unknown: a version 4
# trace) or not (y): charged 1.7 + 0.5 ms at 2.2 ms, it is throttled until its
# next period (10 ms) and ends at 10.3 ms; not charged, it ends at 2.5 ms
for acct in n y -; do
	sed -e 's/^dlb-jobs-trace 4$/dlb-jobs-trace 5/' -e 's/ 3000000 10000000 10000000 / 2200000 10000000 10000000 /' \
		-e "s/^affinity all$/irq_time_accounting $acct\naffinity all/" "$T/ua.txt" >"$T/ua-$acct.txt"
done
sed 's/ 3000000 10000000 10000000 / 2200000 10000000 10000000 /' "$T/ua.txt" >"$T/ua-v4.txt"
got=
for acct in n y - v4; do
	run "$BIN/dlb-sim" --replay --no-timing -o "$T/ua-o-$acct" "$T/ua-$acct.txt"
	got+="$acct $rc $(csv_awk 'FNR > 1 { print v("end") }' "$T/ua-o-$acct/jobs.csv") "
done
expect_eq "dlb-sim --replay: interrupts charged unless the trace says irq_time_accounting y" \
	"$got" "n 0 10300000 y 0 2500000 - 0 10300000 v4 0 10300000 "
# the same 0.5 ms as the fair server's share (version 6, kind fair): the
# kernel had switched the task out, so it is not charged, whatever the
# irq time accounting: not throttled, it ends at 2.5 ms
sed -e 's/^dlb-jobs-trace 5$/dlb-jobs-trace 6/' -e 's/ irq$/ fair/' "$T/ua-n.txt" >"$T/ua-fair.txt"
run "$BIN/dlb-sim" --replay --no-timing -o "$T/ua-o-fair" "$T/ua-fair.txt"
expect_eq "dlb-sim --replay: a fair interval delays the job and is not charged ($rc)" \
	"$rc $(csv_awk 'FNR > 1 { print v("end") }' "$T/ua-o-fair/jobs.csv")" "0 2500000"

# the stop class (and an interrupt merged with it, irq+stop) is a task of the
# highest class: the job is switched out for it and not charged the time,
# whatever irq_time_accounting says, so it ends at 2.5 ms unthrottled; the
# replay's trace shows migration/0 as the kernel's does (prio 0), and the
# analyzer finds the interval there again
got=
for kind in stop irq+stop; do
	for acct in n y; do
		sed "s/ irq$/ $kind/" "$T/ua-$acct.txt" >"$T/ua-$kind-$acct.txt"
		run "$BIN/dlb-sim" --replay --no-timing -o "$T/ua-o-$kind-$acct" "$T/ua-$kind-$acct.txt"
		got+="$kind $acct $rc $(csv_awk 'FNR > 1 { print v("end"), v("exec") }' \
			"$T/ua-o-$kind-$acct/jobs.csv") "
	done
done
expect_eq "dlb-sim --replay: a stop interval switches the job out, uncharged" "$got" \
	"stop n 0 2500000 2000000 stop y 0 2500000 2000000 irq+stop n 0 2500000 2000000 irq+stop y 0 2500000 2000000 "
run "$A" -q -m -1 "$T/ua-o-stop-n"
expect_eq "dlb-sim --replay: its trace's stop class found by the analyzer ($rc)" \
	"$rc $(grep '^unavail' "$T/ua-o-stop-n/jobs-trace.txt")" "0 unavail 0 1000000 1500000 stop"

# bad input: a workload is not a jobs trace; a jobs trace of another version
run "$BIN/dlb-sim" --replay "$W/edf-global-2cpu.json"
expect_eq "dlb-sim --replay of a workload: exit 2, where and why" "$rc $(head -n 1 "$T/err")" \
	"2 dlb-sim: $W/edf-global-2cpu.json:1: not a jobs trace: the first record must be 'dlb-jobs-trace N'"
sed 's/^dlb-jobs-trace [0-9]*$/dlb-jobs-trace 7/' "$T/rand-000/jobs-trace.txt" >"$T/v7.txt"
run "$BIN/dlb-sim" --replay "$T/v7.txt"
expect_eq "dlb-sim --replay of version 7: exit 2" "$rc $(cat "$T/err")" \
	"2 dlb-sim: $T/v7.txt:2: version 7: this tool reads versions 1 to 6"

# A planted "waited for a CPU the oracle gave it": x and a pinned to CPU 0 when
# the run was made, free in the workload.json the analysis reads (so in the
# replay).  In the run: CPU 0 runs x (deadline 10 ms) then a (25 ms), CPU 1 c
# (30 ms); b arrives at 10 ms (deadline 31 ms) behind two earlier deadlines
# (no inversion), waits 10 ms and ends at 32 ms.  In the replay a runs at once
# on CPU 1, c after x, and b waits 5 ms and ends at 27 ms.  Every b job is a
# kernel-only miss caused by waiting (the classifier without the cause said
# "unknown" for all 10).
cat >"$T/plant.json" <<'EOF'
{ "tasks": {
	"x": { "loop": -1, "cpus": [0], "run": 10000, "timer": { "ref": "unique", "period": 100000 },
		"dl-runtime": 10000, "dl-deadline": 10000, "dl-period": 100000 },
	"a": { "loop": -1, "cpus": [0], "run": 15000, "timer": { "ref": "unique", "period": 100000 },
		"dl-runtime": 15000, "dl-deadline": 25000, "dl-period": 100000 },
	"c": { "loop": -1, "run": 20000, "timer": { "ref": "unique", "period": 100000 },
		"dl-runtime": 20000, "dl-deadline": 30000, "dl-period": 100000 },
	"b": { "loop": -1, "delay": 10000, "run": 12000, "timer": { "ref": "unique", "period": 100000 },
		"dl-runtime": 14000, "dl-deadline": 21000, "dl-period": 100000 } },
  "global": { "duration": 1, "default_policy": "SCHED_DEADLINE" } }
EOF
"$BIN/dlb-rtapp" -q -b reference -m 2 -d 1s -o "$T/plant" "$T/plant.json" >"$T/plant.out" 2>&1 ||
	fail "planted wait: the reference run" "$(cat "$T/plant.out")"
sed 's/"cpus": \[0\], //' "$T/plant.json" >"$T/plant/workload.json"
run "$A" -q -m -1 "$T/plant"
got=$("$J" "$T/plant/report.json" conformance.run.kernel_only_misses.total \
	conformance.run.kernel_only_misses.waited conformance.run.kernel_only_misses.unexplained \
	conformance.first_miss_divergence.task conformance.first_miss_divergence.cause | tr '\n' ' ')
expect_eq "planted wait: every b job a kernel-only miss caused by waiting ($rc)" "$rc $got" \
	"0 10 10 10 b-3 waited "
check "planted wait: each side's waiting time in the text report" grep -q \
	'kernel missed (lateness 1000.0 us, waited 10000.0 us) on CPU 1; oracle met (lateness -4000.0 us, waited 5000.0 us)' \
	"$T/plant/report.txt"
