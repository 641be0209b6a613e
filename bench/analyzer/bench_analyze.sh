#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole analyzer against its reader and the yardsticks, in one run:
#   dlb-analyze (reader + metric engine)  vs  the reader alone (tracestat -n)
#   vs  a bare libtracecmd iteration  vs  trace-cmd report > /dev/null,
# on the trace.dat the input bench records (bench/input/bench_input.sh,
# cached in $DLB_BUILD/bench/; DLB_BENCH_DAT=FILE for another one), and on a
# synthetic deadline-heavy text trace (4 DL tasks, a job each per period,
# markers, wake-ups, migrations) where the engine has the most to do.
# Also the analyzer's peak RSS on a small and a large trace: streaming means
# they are close.
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
A=$DLB_BUILD/bin/dlb-analyze
T=$DLB_BUILD/analyzer/input/tests	# tracestat
B=$DLB_BUILD/bench/input		# bare_iter, sscanf_lines
dir=$DLB_BUILD/bench
dat=${DLB_BENCH_DAT:-$dir/input-3M.dat}
syn=$dir/analyze-dl.txt
mkdir -p "$dir"

secs() {
	local s e
	s=$(date +%s.%N)
	"$@" > /dev/null 2>&1
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'
}
best() {	# best of 3: the machine is shared
	local b='' x
	for _ in 1 2 3; do
		x=$(secs "$@")
		if [ -z "$b" ] || awk -v x="$x" -v y="$b" 'BEGIN { exit !(x < y) }'; then b=$x; fi
	done
	echo "$b"
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
rss() { /usr/bin/time -f %M "$A" -q -A -m -1 "$1" 2>&1 >/dev/null | tail -1; }

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
[ -s "$syn" ] || synth 80000 > "$syn"
small=$dir/analyze-dl-small.txt
[ -s "$small" ] || synth 200 > "$small"
lines=$(wc -l < "$syn")
an=$(best "$A" -q -A -m -1 "$syn")
rd=$(best "$T/tracestat" -n "$syn")
printf '# dlb-analyze: %s lines of synthetic DL text trace (%s jobs)\n' "$lines" $((80000 * 4))
printf '%-36s %8s s %8s M lines/s\n' "dlb-analyze (reader + metrics)" "$an" "$(rate "$lines" "$an")"
printf '%-36s %8s s %8s M lines/s\n' "reader alone (tracestat -n)" "$rd" "$(rate "$lines" "$rd")"
printf '# ratio analyzer / reader: %s (the engine'"'"'s share of the time is 1 - this)\n' \
	"$(ratio "$rd" "$an")"
if command -v /usr/bin/time > /dev/null; then
	printf '# peak RSS (KB): %s on %s lines, %s on %s lines\n' "$(rss "$small")" \
		"$(wc -l < "$small")" "$(rss "$syn")" "$lines"
fi

if [ ! -s "$dat" ]; then
	echo "# no $dat: run bench/input/bench_input.sh first (it records one)"
	exit 0
fi
events=$("$T/tracestat" -n "$dat" | awk '{ print $2 }')
an=$(best "$A" -q -A -m -1 "$dat")
rd=$(best "$T/tracestat" -n "$dat")
bare=$(best "$B/bare_iter" "$dat")
report=$(secs trace-cmd report "$dat")
printf '# dlb-analyze on %s (%s events)\n' "$(basename "$dat")" "$events"
printf '%-36s %8s s %8s M events/s\n' "dlb-analyze (reader + metrics)" "$an" "$(rate "$events" "$an")"
printf '%-36s %8s s %8s M events/s\n' "reader alone (tracestat -n)" "$rd" "$(rate "$events" "$rd")"
printf '%-36s %8s s %8s M events/s\n' "bare libtracecmd, two fields" "$bare" "$(rate "$events" "$bare")"
printf '%-36s %8s s %8s M events/s\n' "trace-cmd report > /dev/null" "$report" "$(rate "$events" "$report")"
printf '# ratio analyzer / bare: %s (goal >= 0.85); analyzer / trace-cmd report: %s (goal >= 6)\n' \
	"$(ratio "$bare" "$an")" "$(ratio "$report" "$an")"
