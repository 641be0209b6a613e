#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# CPU stalls (docs/analyzer.md "CPU stalls") in a run folder, and where the
# tick comes from: --tick-hz, else env.txt's config_HZ, else record.txt's
# tick_hz (dlb-record measures it), else not checked.  A hand-made trace:
# CPU 0 runs a hog for 400 ms with its timer interrupt every 4 ms, none
# from 100 to 112 ms; the interrupt before it ends at 100.002 ms: one stall
# of 11.998 ms.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 13
J=$DLB_BUILD/tests/tools/json-get
if [ ! -x "$A" ] || [ ! -x "$J" ]; then
	skip_rest "dlb-analyze or tests/tools/json-get not built yet"
	exit 0
fi

ts() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }
line() { printf '%24s [000] d..2. %s: %s\n' "hog-2000" "$(ts "$1")" "$2"; }
mkdir "$T/f"
{
	echo "# tracer: nop"
	line 0 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=2000 next_prio=120"
	for ((t = 4000; t <= 400000; t += 4000)); do
		[ "$t" -gt 100000 ] && [ "$t" -lt 112000 ] && continue
		line "$t" "irq_handler_entry: irq=11 name=arch_timer"
		line $((t + 2)) "irq_handler_exit: irq=11 ret=handled"
	done
} > "$T/f/trace.txt"
# stalls CPU's report.json fields "tick_ns stalls stall_ns"
stalls() { "$J" "$T/f/report.json" cpus.0.tick_ns cpus.0.stalls cpus.0.stall_ns | tr '\n' ' '; }

run "$A" -q -m -1 "$T/f"
expect_eq "no tick known: not checked (null); stalls.csv its header" \
	"$rc $(stalls)$(tr '\n' ' ' < "$T/f/stalls.csv")" "0 null null null cpu,from_ns,to_ns,pid "
printf 'tick_hz=250\n' > "$T/f/record.txt"
run "$A" -q -m -1 "$T/f"
expect_eq "record.txt's tick_hz=250: one stall of 11.998 ms, in stalls.csv" \
	"$(stalls)$(tr '\n' ' ' < "$T/f/stalls.csv")" \
	"4000000 1 11998000 cpu,from_ns,to_ns,pid 0,100002000,112000000,2000 "
check "report.txt names it" grep -qx '# cpu stalls: 1, 11.998 ms in all (CPUs checked: 1): .*; longest: CPU 0, 11.998 ms from 100002000 ns, pid 2000 running; 0 jobs met one, 0 misses and 0 overruns were within the stalls their jobs met' \
	"$T/f/report.txt"
expect_eq "the machine's, not the data's: exit 0, data complete, report.json's run" \
	"$rc $(grep -c '^# data quality: complete$' "$T/f/report.txt") $("$J" "$T/f/report.json" \
	run.cpu_stalls.cpus_checked run.cpu_stalls.count run.cpu_stalls.longest.cpu \
	run.cpu_stalls.longest.ns | tr '\n' ' ')" "0 1 1 1 0 11998000 "
printf 'config_HZ=100\n' > "$T/f/env.txt"
run "$A" -q -m -1 "$T/f"
expect_eq "env.txt's config_HZ=100 wins: 12 ms is less than 1.5 ticks" "$(stalls)" "10000000 0 0 "
run "$A" -q -m -1 --tick-hz 250 "$T/f"
expect_eq "--tick-hz 250 wins over env.txt" "$(stalls)" "4000000 1 11998000 "
run "$A" -q -m -1 --tick-hz 250 "$T/f/trace.txt" -o "$T/o"
expect_eq "a trace alone with --tick-hz" \
	"$("$J" "$T/o/report.json" cpus.0.stalls cpus.0.stall_max_ns | tr '\n' ' ')" "1 11998000 "
run "$A" -q -m -1 --tick-hz 7 "$T/f"
expect_eq "--tick-hz out of range: exit 2" "$rc" 2

# The jobs that met a stall (docs/analyzer.md "CPU stalls"): dl (tid 3000,
# 2 ms every 10 ms) on CPU 0 with the hog, the timer every 4 ms, HZ=250:
#   job 0 (20 ms): 1 ms, no stall;
#   job 1 (100 ms): runs through a stall from 100.502 to 112.5 ms and ends
#     at 113.5: 3.5 ms late, 11.5 ms over its runtime, both within the
#     11.998 ms stall it ran through;
#   job 2 (200 ms): the hog's CPU stalls from 198.002 to 209 ms, the timer
#     of the release with it: woken at 209.004, 0.5 ms late, within the
#     9 ms of its release's delay the stall made;
#   job 3 (300 ms): runs 11 ms: 1 ms late and 9 ms over, no stall;
#   job 4 (352 ms): woken from CPU 1 onto CPU 0, which the hog holds, stalled
#     from 350.002 to 362 ms: it waits there 9.999 ms, runs 2.6 ms and is
#     2.61 ms late, within the stall; 0.6 ms over its runtime, not (it did
#     not run through the stall).
# dl_line US TEXT: a line of dl's; hog's otherwise (line)
dl_line() { printf '%24s [000] d..2. %s: %s\n' "dl-3000" "$(ts "$1")" "$2"; }
in_stall() {
	{ [ "$1" -gt 100502 ] && [ "$1" -lt 112500 ]; } || { [ "$1" -gt 198002 ] && [ "$1" -lt 209000 ]; } ||
	{ [ "$1" -gt 350002 ] && [ "$1" -lt 362000 ]; }
}
# run_job N REL_US WAKE_US END_US: woken at WAKE, begins 10 µs later, ends at END
run_job() {
	line "$3" "sched_waking: comm=dl pid=3000 prio=-1 target_cpu=000"
	line $(($3 + 1)) "sched_wakeup: comm=dl pid=3000 prio=-1 target_cpu=000"
	line $(($3 + 5)) "sched_switch: prev_comm=hog prev_pid=2000 prev_prio=120 prev_state=R ==> next_comm=dl next_pid=3000 next_prio=-1"
	dl_line $(($3 + 10)) "tracing_mark_write: dlb_job: tid=3000 job=$1 event=begin rel=${2}000 dl=$(($2 + 10000))000"
	dl_line "$4" "tracing_mark_write: dlb_job: tid=3000 job=$1 event=end"
	dl_line $(($4 + 5)) "sched_switch: prev_comm=dl prev_pid=3000 prev_prio=-1 prev_state=S ==> next_comm=hog next_pid=2000 next_prio=120"
}
mkdir "$T/j"
{
	echo "# tracer: nop"
	line 0 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=2000 next_prio=120"
	line 1 "tracing_mark_write: dlb_task: tid=3000 name=dl policy=deadline prio=-1 runtime=2000000 deadline=10000000 period=10000000"
	for ((t = 4000; t <= 400000; t += 4000)); do
		in_stall "$t" && continue
		[ "$t" -eq 208000 ] && continue
		line "$t" "irq_handler_entry: irq=11 name=arch_timer"
		line $((t + 2)) "irq_handler_exit: irq=11 ret=handled"
		case $t in
		20000) run_job 0 20000 20003 21010 ;;
		100000) run_job 1 100000 100003 113500 ;;
		300000) run_job 3 300000 300003 311010 ;;
		esac
	done
} > "$T/j/trace.unsorted"
# the stalls' edges, and job 2 woken by the timer that ends the second
{
	line 100500 "irq_handler_entry: irq=11 name=arch_timer"
	line 100502 "irq_handler_exit: irq=11 ret=handled"
	line 112500 "irq_handler_entry: irq=11 name=arch_timer"
	line 112502 "irq_handler_exit: irq=11 ret=handled"
	line 198000 "irq_handler_entry: irq=11 name=arch_timer"
	line 198002 "irq_handler_exit: irq=11 ret=handled"
	line 209000 "irq_handler_entry: irq=11 name=arch_timer"
	line 209002 "irq_handler_exit: irq=11 ret=handled"
	run_job 2 200000 209003 210500
	line 350000 "irq_handler_entry: irq=11 name=arch_timer"
	line 350002 "irq_handler_exit: irq=11 ret=handled"
	printf '%24s [001] d..2. %s: %s\n' "waker-4000" "$(ts 352000)" "sched_waking: comm=dl pid=3000 prio=-1 target_cpu=000"
	printf '%24s [001] d..2. %s: %s\n' "waker-4000" "$(ts 352001)" "sched_wakeup: comm=dl pid=3000 prio=-1 target_cpu=000"
	line 362000 "irq_handler_entry: irq=11 name=arch_timer"
	line 362002 "irq_handler_exit: irq=11 ret=handled"
	line 362005 "sched_switch: prev_comm=hog prev_pid=2000 prev_prio=120 prev_state=R ==> next_comm=dl next_pid=3000 next_prio=-1"
	dl_line 362010 "tracing_mark_write: dlb_job: tid=3000 job=4 event=begin rel=352000000 dl=362000000"
	dl_line 364610 "tracing_mark_write: dlb_job: tid=3000 job=4 event=end"
	dl_line 364615 "sched_switch: prev_comm=dl prev_pid=3000 prev_prio=-1 prev_state=S ==> next_comm=hog next_pid=2000 next_prio=120"
} >> "$T/j/trace.unsorted"
# in time order (the fourth field, the time), same-time lines as written
{ echo "# tracer: nop"; grep -v '^#' "$T/j/trace.unsorted" | sort -s -k4,4n; } > "$T/j/trace.txt"
rm "$T/j/trace.unsorted"
printf 'tick_hz=250\n' > "$T/j/record.txt"
run "$A" -q -m -1 "$T/j"
# jobs.csv's stall_ns per job; the run's and dl's counts
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s:%s:%s ", $c["job"], $c["miss"], $c["stall_ns"] }' "$T/j/jobs.csv")
expect_eq "jobs.csv stall_ns: the stall job 1 ran through, the delay job 2's release took, job 4's wait ($rc)" \
	"$got" "0:0:0 1:1:11998000 2:1:9000000 3:1:0 4:1:9999000 "
expect_eq "report.json: 3 jobs met one, 3 misses and 1 overrun within them (run, and dl's)" \
	"$("$J" "$T/j/report.json" run.misses run.cpu_stalls.jobs.met run.cpu_stalls.jobs.misses_within \
		run.cpu_stalls.jobs.overruns_within tasks.0.cpu_stalls.misses_within | tr '\n' ' ')" \
	"4 3 3 1 3 "
check "report.txt says it" grep -q \
	'3 jobs met one, 3 misses and 1 overruns were within the stalls their jobs met' "$T/j/report.txt"
check "the verdict: 4 misses, 3 of them within stalls" grep -q \
	'4 of 5 jobs missed (allowed: .*), 3 of them late by no more than the CPU stalls they met' \
	"$T/j/verdict.txt"
# the tick unknown: not looked for, an empty stall_ns, null counts
rm "$T/j/record.txt"
run "$A" -q -m -1 "$T/j"
expect_eq "no tick: stall_ns empty, cpu_stalls null" \
	"$(awk -F, 'NR > 1 { printf "[%s]", $NF }' "$T/j/jobs.csv") $("$J" "$T/j/report.json" \
		run.cpu_stalls tasks.0.cpu_stalls | tr '\n' ' ')" "[][][][][] null null "
