#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fair server's share (docs/conformance.md "Unavailable time"): a
# planted kernel run on one CPU (a hand-made trace, env.txt of a 6.18
# kernel) where a fair hog (tid 2000, prio 120) holds the CPU while the
# deadline task a (runtime 10 ms, deadline 33 ms, period 100 ms) waits,
# woken onto it:
#   job 0 (0 ms): the hog runs 30 ms more, a 5 ms: ends at 35, missed.
#     Within the fair server's reservation (50 ms per 1 s): a `fair`
#     interval [0, 30) ms; the replay waits for it too and misses as well:
#     no divergence.  Without it (the code before) the replay ran a at once
#     and met: a kernel-only miss.
#   job 1 (100 ms): the hog runs 40 ms, a 5 ms: ends at 145, missed.  Only
#     20 ms of the reservation are left in the window: [100, 120) is
#     `fair`, the rest is not unavailable; the replay runs a at 120 and
#     meets: a kernel-only miss whose cause is inversion (it waited while
#     its CPU ran other work).
# The same trace with env.txt's reservation (20 ms per 1 s) counts 20 ms:
# both misses are kernel-only; with a kernel before the fair server (6.6)
# none is counted, and the note says so.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 6
J=$DLB_BUILD/tests/tools/json-get
[ -x "$A" ] || { skip_rest "dlb-analyze not built yet"; exit 0; }
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }

# ts US: a trace timestamp (s) from µs
ts() { printf '%d.%06d000' $(($1 / 1000000)) $(($1 % 1000000)); }
# line US TEXT [WHO]: one trace line at US µs, on CPU 0
line() { printf '%24s [000] d..2. %s: %s\n' "${3:-hog-2000}" "$(ts "$1")" "$2"; }
# job N REL_US WAIT_US RUN_US: a woken at its release, the hog runs WAIT_US more, a RUN_US
job() {
	local n=$1 r=$2 s=$(($2 + $3)) e=$(($2 + $3 + $4)) d=$(($2 + 33000))
	line "$r" "tracing_mark_write: dlb_job: tid=1000 job=$n event=release rel=${r}000 dl=${d}000"
	line "$r" "sched_wakeup: comm=a pid=1000 prio=-1 target_cpu=000"
	line "$s" "sched_switch: prev_comm=hog prev_pid=2000 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1000 next_prio=-1"
	line "$s" "tracing_mark_write: dlb_job: tid=1000 job=$n event=begin rel=${r}000 dl=${d}000" a-1000
	line "$e" "tracing_mark_write: dlb_job: tid=1000 job=$n event=end" a-1000
	line "$e" "sched_switch: prev_comm=a prev_pid=1000 prev_prio=-1 prev_state=S ==> next_comm=hog next_pid=2000 next_prio=120" a-1000
}
mkdir "$T/f"
{
	echo "# tracer: nop"
	line 0 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=2000 next_prio=120" "<idle>-0"
	line 0 "tracing_mark_write: dlb_run: event=start backend=kernel cpus=1 clock=mono tool=0.1.0 workload=a.json"
	line 0 "tracing_mark_write: dlb_task: tid=1000 name=a policy=deadline prio=-1 runtime=10000000 deadline=33000000 period=100000000"
	job 0 0 30000 5000
	job 1 100000 40000 5000
	line 300000 "tracing_mark_write: dlb_run: event=end status=complete"
} >"$T/f/trace.txt"
# f_folder NAME ENV-LINES...: the planted trace in folder NAME, with that env.txt
f_folder() {
	mkdir -p "$T/$1" && cp "$T/f/trace.txt" "$T/$1/"
	local d=$T/$1
	shift
	printf '%s\n' "$@" >"$d/env.txt"
}
echo kernel=6.18.0 >"$T/f/env.txt"
# konly DIR: the oracle's jobs (job, miss, divergence, cause), the jobs trace's fair records
konly() {
	csv_awk 'FNR > 1 { print v("job"), v("miss"), v("divergence"), v("cause") }' \
		"$1/oracle-jobs.csv" | tr '\n' ' '
	grep '^unavail .*fair' "$1/jobs-trace.txt" | tr '\n' ' '
}
run "$A" -q -m -1 "$T/f"
expect_eq "within the reservation: job 0 missed on both sides, job 1 a kernel-only miss ($rc)" \
	"$rc $(konly "$T/f")" \
	"0 0 1 none  1 0 kernel_only_miss inversion unavail 0 0 30000000 fair unavail 0 100000000 120000000 fair "
check "the note counts the fair intervals apart, with the kernel's default" grep -q \
	"2 intervals (70.000 ms) of a fair task run while a DL task queued there waited: 50.000 ms within the reservation of the fair server (50.0 ms every 1000.0 ms per CPU, not in env.txt: the default of this kernel) no DL task could use, 20.000 ms beyond it left to the diff" \
	"$T/f/report.txt"
check "the jobs trace is version 6" grep -qx 'dlb-jobs-trace 6' "$T/f/jobs-trace.txt"
f_folder e kernel=6.18.0 fair_server_runtime_ns=20000000 fair_server_period_ns=1000000000
run "$A" -q -m -1 "$T/e"
expect_eq "env.txt's reservation (20 ms per 1 s): 20 ms counted, both misses kernel-only ($rc)" \
	"$rc $(konly "$T/e")" \
	"0 0 0 kernel_only_miss inversion 1 0 kernel_only_miss inversion unavail 0 0 20000000 fair "
f_folder o kernel=6.6.0
run "$A" -q -m -1 "$T/o"
expect_eq "a kernel before the fair server: nothing counted ($rc)" "$rc $(konly "$T/o")" \
	"0 0 0 kernel_only_miss inversion 1 0 kernel_only_miss inversion "
check "a kernel before the fair server: the note says none" grep -q \
	"0.000 ms within the reservation of the fair server (0.0 ms every 0.0 ms per CPU, none in this kernel)" \
	"$T/o/report.txt"
