#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Live: record Debian's rt-app 1.0 running two SCHED_DEADLINE threads with
# trace-cmd on this kernel, and read the new trace.dat: per-type counts equal
# trace-cmd report's, the clock is mono, nothing is lost, every rt-app marker
# parses, and the job markers match rt-app's logs (one more per thread: the
# loop running at shutdown is not logged).  Root, tracefs, ~3 s.
. "$DLB_SRC/tests/lib.sh"
FIX=$DLB_SRC/analyzer/tests/fixtures
TS=$DLB_BUILD/analyzer/input/tests/tracestat
TR=/sys/kernel/tracing
plan 6
require need_root need_tracefs
for c in trace-cmd rt-app unshare; do
	command -v $c > /dev/null || { skip_rest "$c not installed"; exit 0; }
done
tmp=$(mktemp -d)
exec 9>/tmp/dlbench-kernel.lock
flock 9
debugfs_mounted=0
if [ ! -e /sys/kernel/debug/tracing/trace_marker ]; then
	mount -t debugfs none /sys/kernel/debug && debugfs_mounted=1
fi
oldbuf=$(cat $TR/buffer_size_kb)
oldon=$(cat $TR/tracing_on)
restored=0
# under the kernel lock: restored after it, another test's save could read
# the 0 that trace-cmd record leaves and put it back after ours (seen: two
# make checks at once left tracing_on 0)
restore() {
	[ $restored = 1 ] && return
	echo "$oldbuf" > $TR/buffer_size_kb
	echo "$oldon" > $TR/tracing_on	# trace-cmd record leaves it 0
	restored=1
}
cleanup() {
	restore
	[ $debugfs_mounted = 0 ] || umount /sys/kernel/debug
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/log"
sed "s|LOGDIR|$tmp/log|" "$FIX/rtapp10.json" > "$tmp/w.json"
unshare -m sh -c 'mount --bind /dev/null /proc/kallsyms && exec "$@"' sh \
	trace-cmd record -q --no-filter -d -C mono -e sched_switch -e sched_wakeup \
	-e sched_waking -e sched_migrate_task -e sched_stat_runtime -o "$tmp/t.dat" \
	-- rt-app "$tmp/w.json" > "$tmp/rec.log" 2>&1
restore
flock -u 9
if [ ! -s "$tmp/t.dat" ]; then
	fail "trace-cmd record wrote a trace" "$(tail -3 "$tmp/rec.log")"
	skip_rest "no trace recorded"
	exit 0
fi
pass "trace-cmd record wrote a trace"

"$TS" "$tmp/t.dat" > "$tmp/stat" || fail "tracestat read it"
get() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/stat"; }
ours=$(for t in sched_switch sched_wakeup sched_waking sched_migrate_task \
	sched_stat_runtime; do echo "$t $(get $t)"; done; echo "print $(get marker)")
theirs=$(trace-cmd report "$tmp/t.dat" 2>/dev/null | awk '
	{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		t = $(i + 1); sub(/:$/, "", t); c[t]++; break } }
	END { split("sched_switch sched_wakeup sched_waking sched_migrate_task sched_stat_runtime print", o, " ");
	      for (i = 1; i <= 6; i++) print o[i], c[o[i]] + 0 }')
expect_eq "per-type counts equal trace-cmd report's" "$ours" "$theirs"
expect_eq "trace clock from the file" "$(get clock)" mono
expect_eq "no lost events, no bad records" "$(get lost_events) $(get lost_records) $(get bad_lines)" "0 0 0"

"$TS" -d "$tmp/t.dat" | sed -n "s/.* marker '\(.*\)'$/\1/p" > "$tmp/markers"
expect_eq "every rt-app 1.0 marker is of a known form" \
	"$(grep -cvE '^(main (creates threads|shutdown|ends)|\[[0-9]+\] (starts|sets zero time|exiting|executing [0-9]+|(begins|end) loop [0-9]+ phase [0-9]+ step [0-9]+))$' "$tmp/markers")" 0
rows0=$(grep -vc '^#' "$tmp"/log/*-dl_a-0.log)
rows1=$(grep -vc '^#' "$tmp"/log/*-dl_b-1.log)
# rt-app 1.0 marks each loop it begins (and ends); its log has had one line
# fewer than those marks per thread (here: 101 begins, 101 ends, 100 lines),
# and once, at load average 7, as many (100 begins, 100 lines): rt-app's
# own count, not ours, so within that one
b0=$(grep -c '^\[0\] begins' "$tmp/markers") b1=$(grep -c '^\[1\] begins' "$tmp/markers")
check "job begin markers = logged jobs, + 1 for a thread stopped inside a job (begins $b0 $b1, logged $rows0 $rows1)" \
	test "$rows0" -gt 0 -a "$rows1" -gt 0 -a "$b0" -ge "$rows0" -a "$b0" -le $((rows0 + 1)) \
	-a "$b1" -ge "$rows1" -a "$b1" -le $((rows1 + 1))
