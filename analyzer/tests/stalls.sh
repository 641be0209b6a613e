#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# CPU stalls (docs/analyzer.md "CPU stalls") in a run folder, and where the
# tick comes from: --tick-hz, else env.txt's config_HZ, else record.txt's
# tick_hz (dlb-record measures it), else not checked.  A hand-made trace:
# CPU 0 runs a hog for 400 ms with its timer interrupt every 4 ms, none
# from 100 to 112 ms; the interrupt before it ends at 100.002 ms: one stall
# of 11.998 ms.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 8
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
expect_eq "no tick known: not checked (null)" "$rc $(stalls)" "0 null null null "
printf 'tick_hz=250\n' > "$T/f/record.txt"
run "$A" -q -m -1 "$T/f"
expect_eq "record.txt's tick_hz=250: one stall of 11.998 ms" "$(stalls)" "4000000 1 11998000 "
check "report.txt names it" grep -qx '# cpu stalls: 1, 11.998 ms in all (CPUs checked: 1): .*; longest: CPU 0, 11.998 ms from 100002000 ns, pid 2000 running' \
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
