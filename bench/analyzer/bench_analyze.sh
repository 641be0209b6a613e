#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole analyzer against its reader and the yardsticks, in one run:
#   dlb-analyze (reader + metric engine)  vs  the reader alone (tracestat -n)
#   vs  a bare libtracecmd iteration  vs  trace-cmd report > /dev/null, and
#   with its trace.dat decoded on threads (the default) vs on one (--jobs 1),
# on the trace.dat the input bench records (bench/input/bench_input.sh,
# cached in $DLB_BUILD/bench/; DLB_BENCH_DAT=FILE for another one), and on a
# synthetic deadline-heavy text trace (4 DL tasks, a job each per period,
# markers, wake-ups, migrations) where the engine has the most to do.
# Also the analyzer's peak RSS on a small and a large trace, and on the
# trace.dat, a quarter of it and it uncompressed: streaming means they are
# close.  Pairs alternate (bench/lib/alternate.sh: medians, per-pair
# ratios; DLB_BENCH_QUICK=1 for 3 runs and the 0.3 M-event trace).
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
A=$DLB_BUILD/bin/dlb-analyze
T=$DLB_BUILD/analyzer/input/tests	# tracestat
B=$DLB_BUILD/bench/input		# bare_iter, sscanf_lines
dir=$DLB_BUILD/bench
# shellcheck source=bench/lib/alternate.sh
. "$DLB_SRC/bench/lib/alternate.sh"
if [ -n "${DLB_BENCH_QUICK:-}" ]; then size=300k periods=8000; else size=3M periods=80000; fi
dat=${DLB_BENCH_DAT:-$dir/input-$size-ksym.dat}
syn=$dir/analyze-dl-$periods.txt
mkdir -p "$dir"

rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
rss() { bench_rss "$A" -q -A -m -1 "$1"; }

# a kernel-text trace of $1 periods of 4 DL tasks on 2 CPUs
synth() {
	awk -v n="$1" 'BEGIN {
		print "# tracer: nop"
		for (j = 0; j < n; j++) for (i = 0; i < 4; i++) {
			pid = 1000 + i; cpu = i % 2; rel = 100000000 + j * 10000 + i * 100
			c = sprintf("%03d", cpu)
			t = sprintf("%d.%06d", int(rel / 1e6), rel % 1e6)
			printf "          <idle>-0       [%s] dNh2.   %s: sched_wakeup: comm=dl_%d pid=%d prio=-1 target_cpu=%s\n", c, t, i, pid, c
			if (j % 3 == 0)
				printf "          <idle>-0       [%s] d..2.   %s: sched_migrate_task: comm=dl_%d pid=%d prio=-1 orig_cpu=%d dest_cpu=%d\n", c, t, i, pid, 1 - cpu, cpu
			t2 = sprintf("%d.%06d", int((rel + 5) / 1e6), (rel + 5) % 1e6)
			printf "          <idle>-0       [%s] d..2.   %s: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=dl_%d next_pid=%d next_prio=-1\n", c, t2, cpu, i, pid
			t3 = sprintf("%d.%06d", int((rel + 10) / 1e6), (rel + 10) % 1e6)
			printf "           dl_%d-%d    [%s] .....   %s: tracing_mark_write: dlb_job: tid=%d job=%d event=begin rel=%d000 dl=%d000\n", i, pid, c, t3, pid, j, rel, rel + 5000
			t4 = sprintf("%d.%06d", int((rel + 60) / 1e6), (rel + 60) % 1e6)
			printf "           dl_%d-%d    [%s] .....   %s: tracing_mark_write: dlb_job: tid=%d job=%d event=end\n", i, pid, c, t4, pid, j
			printf "           dl_%d-%d    [%s] d..2.   %s: sched_switch: prev_comm=dl_%d prev_pid=%d prev_prio=-1 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", i, pid, c, t4, i, pid, cpu
		}
	}'
}

[ -x "$A" ] || { echo "# bench_analyze: $A not built"; exit 0; }
[ -s "$syn" ] || synth "$periods" > "$syn"
small=$dir/analyze-dl-small.txt
[ -s "$small" ] || synth 200 > "$small"
lines=$(wc -l < "$syn")
bench_machine
printf '# dlb-analyze: %s lines of synthetic DL text trace (%s jobs)\n' "$lines" $((periods * 4))
BENCH_A=("$A" -q -A -m -1 "$syn") BENCH_B=("$T/tracestat" -n "$syn")
bench_pair "dlb-analyze (reader + metrics)" "reader alone (tracestat -n)"
printf '# dlb-analyze %s M lines/s; reader / analyzer time: %s (cpu %s; the engine'"'"'s share is 1 - this)\n' \
	"$(rate "$lines" "$PAIR_A")" "$PAIR_RATIO" "$PAIR_CPU_RATIO"
if command -v /usr/bin/time > /dev/null; then
	printf '# peak RSS (KB): %s on %s lines, %s on %s lines\n' "$(rss "$small")" \
		"$(wc -l < "$small")" "$(rss "$syn")" "$lines"
fi

if [ ! -s "$dat" ]; then
	echo "# no $dat: run bench/input/bench_input.sh first (it records one)"
	exit 0
fi
events=$("$T/tracestat" -n "$dat" | awk '{ print $2 }')
printf '# dlb-analyze on %s (%s events, kallsyms included)\n' "$(basename "$dat")" "$events"
BENCH_A=("$A" -q -A -m -1 "$dat") BENCH_B=("$B/bare_iter" "$dat")
bench_pair "dlb-analyze" "bare libtracecmd, two fields"
an=$PAIR_A r_bare="$PAIR_RATIO (cpu $PAIR_CPU_RATIO)"
BENCH_B=(trace-cmd report "$dat")
bench_pair "dlb-analyze" "trace-cmd report > /dev/null"
r_report="$PAIR_RATIO (cpu $PAIR_CPU_RATIO)"
BENCH_B=("$A" -j 1 -q -A -m -1 "$dat")
bench_pair "dlb-analyze" "dlb-analyze --jobs 1"
r_jobs1="$PAIR_RATIO (cpu $PAIR_CPU_RATIO)"
none=${dat%.dat}.none.dat
if [ -s "$none" ]; then
	BENCH_A=("$A" -q -A -m -1 "$none") BENCH_B=("$B/bare_iter" "$none")
	bench_pair "dlb-analyze, uncompressed" "bare libtracecmd, uncompressed"
	r_bare_none="$PAIR_RATIO (cpu $PAIR_CPU_RATIO)"
	BENCH_B=("$A" -j 1 -q -A -m -1 "$none")
	bench_pair "dlb-analyze, uncompressed" "dlb-analyze --jobs 1, uncompressed"
	r_jobs1_none="$PAIR_RATIO (cpu $PAIR_CPU_RATIO)"
fi
printf '# dlb-analyze %s M events/s; analyzer / bare: %s (goal >= 0.95); analyzer / trace-cmd report: %s (goal >= 8)\n' \
	"$(rate "$events" "$an")" "$r_bare" "$r_report"
printf '# decoding on %s threads (the default) / --jobs 1: %s; uncompressed: %s; analyzer / bare there: %s\n' \
	"$(nproc)" "$r_jobs1" "${r_jobs1_none:-?}" "${r_bare_none:-?}"
# Peak RSS, file-backed pages included, on the trace.dat, on its first
# quarter (trace-cmd split: the same recording, a quarter of the length) and
# on its uncompressed version (bench_input.sh makes it): streaming and the
# pages released behind the reader (dat.c) mean the three are close; then
# on the 1.6 k-event fixture (no kallsyms).
quarter=${dat%.dat}.quarter.dat
if [ ! -s "$quarter" ] && command -v trace-cmd > /dev/null; then
	trace-cmd split -i "$dat" -e $((events / 4)) -o "$quarter.part" > /dev/null 2>&1 &&
		mv "$quarter.part.1" "$quarter"
	rm -f "$quarter".part*
fi
printf '# peak RSS (KB): %s on this trace.dat, %s on its first quarter, %s on it uncompressed, %s on the 1.6 k-event fixture\n' \
	"$(rss "$dat")" "$( [ -s "$quarter" ] && rss "$quarter" || echo '?')" \
	"$( [ -s "$none" ] && rss "$none" || echo '?')" \
	"$(rss "$DLB_SRC/analyzer/tests/fixtures/rtapp10.dat")"
