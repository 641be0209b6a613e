#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Oracle-only misses and their causes (docs/conformance.md "How to read a
# divergence"): planted runs whose jobs the run met and the replay must
# miss, each for one reason, through the jobs trace the analyzer writes and
# the reference's replay of it.
#   A kernel run on one CPU (a hand-made trace with the kernel's 250 Hz
#   tick, env.txt; no sched_stat_runtime, so the replay's ticks fall at
#   t0 + k * 4 ms), task a: runtime 2 ms, deadline = period = 10 ms, each
#   job on the CPU from its release:
#     job 0 (0 ms): 1 ms: met on both sides;
#     job 1 (10 ms): 2.1 ms, over its runtime by less than a tick: the
#       replay's tick at 12 ms finds it at its budget and throttles it until
#       20 ms: budget_edge;
#     job 2 (22 ms): 2.2 ms of CPU time with 0.3 ms of interrupts in it
#       (demand 1.9 ms): the tick at 24 ms finds 1.7 ms of work and 0.3 ms
#       of interrupts charged: irq_charged;
#     job 3 (40 ms): 6.5 ms, over by more than a tick: overrun.
#   A reference run on 2 CPUs whose two tasks ran side by side, analyzed
#   with both pinned to CPU 0 (the run folder's workload.json): in the
#   replay the later deadline waits 6 ms behind the other and misses by
#   1 ms, never throttled: waited.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 12
J=$DLB_BUILD/tests/tools/json-get
for t in dlb-analyze dlb-rtapp; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
done
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }

# ts US: a trace timestamp (s) from µs
ts() { printf '%d.%06d000' $(($1 / 1000000)) $(($1 % 1000000)); }
# line US TEXT: one trace line at US µs, on CPU 0
line() { printf '%24s [000] d..2. %s: %s\n' "${3:-a-1000}" "$(ts "$1")" "$2"; }
# job N REL_US RUN_US [IRQ_FROM_US IRQ_TO_US]: one job of a (tid 1000), on the CPU from its release
job() {
	local n=$1 r=$2 e=$(($2 + $3)) d=$(($2 + 10000))
	line "$r" "tracing_mark_write: dlb_job: tid=1000 job=$n event=release rel=${r}000 dl=${d}000"
	line "$r" "sched_wakeup: comm=a pid=1000 prio=-1 target_cpu=000" "<idle>-0"
	line "$r" "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1000 next_prio=-1" "<idle>-0"
	line "$r" "tracing_mark_write: dlb_job: tid=1000 job=$n event=begin rel=${r}000 dl=${d}000"
	if [ $# -gt 3 ]; then
		line "$4" "irq_handler_entry: irq=24 name=virtio0"
		line "$5" "irq_handler_exit: irq=24 ret=handled"
	fi
	line "$e" "tracing_mark_write: dlb_job: tid=1000 job=$n event=end"
	line "$e" "sched_switch: prev_comm=a prev_pid=1000 prev_prio=-1 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
}
mkdir "$T/k"
{
	echo "# tracer: nop"
	line 0 "tracing_mark_write: dlb_run: event=start backend=kernel cpus=1 clock=mono tool=0.1.0 workload=a.json"
	line 0 "tracing_mark_write: dlb_task: tid=1000 name=a policy=deadline prio=-1 runtime=2000000 deadline=10000000 period=10000000"
	job 0 0 1000
	job 1 10000 2100
	job 2 22000 2200 23000 23300
	job 3 40000 6500
	line 80000 "tracing_mark_write: dlb_run: event=end status=complete" "<idle>-0"
} >"$T/k/trace.txt"
printf 'kernel=6.18.0\nconfig_HZ=250\n' >"$T/k/env.txt"
run "$A" -q -m -1 "$T/k"
# the oracle's jobs: number, miss, divergence and cause
got=$(csv_awk 'FNR > 1 { print v("job"), v("miss"), v("divergence"), v("cause") }' \
	"$T/k/oracle-jobs.csv" | tr '\n' ' ')
expect_eq "planted kernel run: each oracle-only miss with its cause ($rc)" "$rc $got" \
	"0 0 0 none  1 1 oracle_only_miss budget_edge 2 1 oracle_only_miss irq_charged 3 1 oracle_only_miss overrun "
got=$("$J" "$T/k/report.json" conformance.run.oracle_only_misses.total \
	conformance.run.oracle_only_misses.overrun conformance.run.oracle_only_misses.budget_edge \
	conformance.run.oracle_only_misses.irq_charged \
	conformance.run.oracle_only_misses.short_budget conformance.run.oracle_only_misses.waited \
	conformance.run.oracle_only_misses.unknown conformance.run.oracle_only_misses.unexplained \
	conformance.first_divergence.cause conformance.version | tr '\n' ' ')
expect_eq "planted kernel run: report.json's counts per cause" "$got" "3 1 1 1 0 0 0 0 budget_edge 3 "
check "planted kernel run: the text report's counts" grep -q \
	'3 oracle-only misses (1 overrun, 1 budget edge, 1 irq charged, 0 short budget, 0 waited, 0 unknown)' \
	"$T/k/report.txt"

# job 2 again, on a kernel with CONFIG_IRQ_TIME_ACCOUNTING (env.txt, or the
# option for a folder whose env.txt says n): its 0.3 ms of interrupts are
# not charged, 1.9 ms of work fit the 2 ms budget and it meets its deadline
# in the replay too; n says what an env.txt without the line says
# k_folder NAME ENV-LINES...: the planted kernel trace in folder NAME, with that env.txt
k_folder() {
	mkdir "$T/$1" && cp "$T/k/trace.txt" "$T/$1/"
	local d=$T/$1
	shift
	printf '%s\n' "$@" >"$d/env.txt"
}
k_folder ky kernel=6.18.0 config_HZ=250 config_IRQ_TIME_ACCOUNTING=y
k_folder kn kernel=6.18.0 config_HZ=250 config_IRQ_TIME_ACCOUNTING=n
got=
for d in ky kn; do
	run "$A" -q -m -1 "$T/$d"
	got+="$d $rc $(csv_awk 'FNR > 1 { print v("job"), v("miss"), v("cause") }' \
		"$T/$d/oracle-jobs.csv" | tr '\n' ' ')$(sed -n 's/^irq_time_accounting //p' \
		"$T/$d/jobs-trace.txt") "
done
run "$A" -q -m -1 --irq-time-accounting y "$T/kn"
got+="option $rc $(csv_awk 'FNR > 1 { print v("job"), v("miss"), v("cause") }' \
	"$T/kn/oracle-jobs.csv" | tr '\n' ' ')$(sed -n 's/^irq_time_accounting //p' "$T/kn/jobs-trace.txt")"
expect_eq "irq time accounting (env.txt y, n, --irq-time-accounting y): job 2 charged only with n" \
	"$got" "ky 0 0 0  1 1 budget_edge 2 0  3 1 overrun y kn 0 0 0  1 1 budget_edge 2 1 irq_charged 3 1 overrun n option 0 0 0  1 1 budget_edge 2 0  3 1 overrun y"
check "irq time accounting: the report says interrupts were not charged, and why" grep -q \
	'interrupt time not charged to the task it interrupts (CONFIG_IRQ_TIME_ACCOUNTING=y, the command line)' \
	"$T/kn/report.txt"
# short_budget, not irq_charged, when the replay charged no interrupts: job 0
# runs 2.5 ms against its 2 ms (the replay throttles it as it ends, 0.5 ms in
# debt, and replenishes it at 10 ms with 1.5 ms); job 1 (10 ms), 1.7 ms of
# work and 0.4 ms of interrupts, is caught by the tick at 12 ms over its 1.5 ms
# and throttled until 20 ms: it began short.  With the interrupts charged (n)
# its 1.7 + 0.4 ms are over the 2 ms runtime: irq_charged.  The classifier
# that counted the interrupts whether charged or not said irq_charged for y.
mkdir "$T/s"
{
	echo "# tracer: nop"
	line 0 "tracing_mark_write: dlb_run: event=start backend=kernel cpus=1 clock=mono tool=0.1.0 workload=a.json"
	line 0 "tracing_mark_write: dlb_task: tid=1000 name=a policy=deadline prio=-1 runtime=2000000 deadline=10000000 period=10000000"
	job 0 0 2500
	job 1 10000 2100 10500 10900
	line 40000 "tracing_mark_write: dlb_run: event=end status=complete" "<idle>-0"
} >"$T/s/trace.txt"
got=
for acct in y n; do
	printf 'kernel=6.18.0\nconfig_HZ=250\nconfig_IRQ_TIME_ACCOUNTING=%s\n' "$acct" >"$T/s/env.txt"
	run "$A" -q -m -1 "$T/s"
	got+="$acct $rc $(csv_awk 'FNR > 1 { print v("job"), v("miss"), v("cause") }' \
		"$T/s/oracle-jobs.csv" | tr '\n' ' ')"
done
expect_eq "a job begun short: short_budget when interrupts were not charged (y), irq_charged (n)" \
	"$got" "y 0 0 0  1 1 short_budget n 0 0 0  1 1 irq_charged "

# a qemu run's tick is the guest kernel's (guest_config_HZ), never the
# host's config_HZ; without the guest's, unknown (0)
k_folder q1 kernel=6.18.0 backend=qemu config_HZ=250 guest_config_HZ=1000
k_folder q0 kernel=6.18.0 backend=qemu config_HZ=250
got=
for d in q1 q0; do
	run "$A" -q -m -1 "$T/$d"
	got+="$d $rc $(sed -n 's/^tick //p' "$T/$d/jobs-trace.txt") "
done
expect_eq "qemu run: the guest kernel's tick, not the host's" "$got" "q1 0 1000000 q0 0 0 "
# the replay ticks at the tick the analysis found, wherever it came from
# (docs/analyzer.md "CPU stalls"): record.txt's tick_hz, which dlb-record
# measured in the guest, when env.txt does not know it; --tick-hz over
# env.txt; --tick-hz for a trace alone
printf 'tick_hz=300\n' >"$T/q0/record.txt"
run "$A" -q -m -1 "$T/q0"
got="q0+record.txt $rc $(sed -n 's/^tick //p' "$T/q0/jobs-trace.txt") "
run "$A" -q -m -1 --tick-hz 1000 "$T/k"
got+="k--tick-hz $rc $(sed -n 's/^tick //p' "$T/k/jobs-trace.txt") "
run "$A" -q -m -1 --tick-hz 100 "$T/k/trace.txt" -o "$T/bare"
got+="trace--tick-hz $rc $(sed -n 's/^tick //p' "$T/bare/jobs-trace.txt")"
expect_eq "the replay's tick: record.txt's, --tick-hz's, as the stall check's" "$got" \
	"q0+record.txt 0 3333333 k--tick-hz 0 1000000 trace--tick-hz 0 10000000"
run "$A" -q -m -1 --irq-time-accounting maybe "$T/kn"
expect_eq "--irq-time-accounting maybe: a usage error" "$rc $(head -n 1 "$T/err")" \
	"2 dlb-analyze: --irq-time-accounting: 'maybe' is not y or n (try --help)"

# waited: x (deadline 10 ms) and y (11 ms), 6 ms each, released together
cat >"$T/w.json" <<'EOF'
{ "tasks": {
	"x": { "loop": -1, "run": 6000, "timer": { "ref": "unique", "period": 50000 },
		"dl-runtime": 7000, "dl-deadline": 10000, "dl-period": 50000 },
	"y": { "loop": -1, "run": 6000, "timer": { "ref": "unique", "period": 50000 },
		"dl-runtime": 7000, "dl-deadline": 11000, "dl-period": 50000 } },
  "global": { "duration": 1, "default_policy": "SCHED_DEADLINE" } }
EOF
if "$BIN/dlb-rtapp" -q -b reference -m 2 -d 1s -o "$T/w" "$T/w.json" >"$T/w.out" 2>&1; then
	sed 's/"loop": -1,/"loop": -1, "cpus": [0],/' "$T/w.json" >"$T/w/workload.json"
	run "$A" -q -m -1 "$T/w"
	got=$("$J" "$T/w/report.json" conformance.run.oracle_only_misses.total \
		conformance.run.oracle_only_misses.waited conformance.run.oracle_only_misses.unexplained \
		conformance.first_miss_divergence.task conformance.first_miss_divergence.cause |
		tr '\n' ' ')
	expect_eq "pinned in the replay only: every y job an oracle-only miss, waited ($rc)" \
		"$rc $got" "0 20 20 20 y-1 waited "
	check "pinned in the replay only: the first divergence in the text report, each side's wait" grep -q \
		'first divergence: task y-1 job 0 released at 0.000 ms: oracle_only_miss (waited): kernel met (lateness -5000.0 us, waited 0.0 us) on CPU 1; oracle missed (lateness 1000.0 us, waited 6000.0 us) on CPU 0' \
		"$T/w/report.txt"
	# under the mainline rules each late y job is throttled as it ends
	# (dl_runtime_exceeded() at its deadline miss; the timer at the next
	# period, 50 ms on): a throttle after its deadline, that held no job
	# back (the next one wakes at that instant), is no budget cause:
	# still waited (the classifier that judged any throttle first said
	# short_budget for 19 of the 20)
	run "$A" -q -m -1 --model mainline -o "$T/wm" "$T/w"
	got=$("$J" "$T/wm/report.json" conformance.run.oracle_only_misses.total \
		conformance.run.oracle_only_misses.waited \
		conformance.run.oracle_only_misses.short_budget | tr '\n' ' ')
	expect_eq "pinned, mainline rules: a throttle after the deadline is no budget cause ($rc)" \
		"$rc $got" "0 20 20 0 "
else
	fail "pinned in the replay only: every y job an oracle-only miss, waited" "$(cat "$T/w.out")"
	fail "pinned in the replay only: the first divergence in the text report, each side's wait"
	fail "pinned, mainline rules: a throttle after the deadline is no budget cause"
fi
