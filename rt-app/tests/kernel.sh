#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dlb-rtapp on the real kernel: job counts in logs, summary and markers (the
# markers recorded in a private tracefs instance, so the top-level buffer
# other tools use is not touched), admission failure, SIGINT, no privilege,
# calibration accuracy.  Needs root, SCHED_DEADLINE and tracefs; holds the
# machine-wide kernel lock throughout.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 43

require need_root need_sched_deadline need_tracefs
exec 9>/tmp/dlbench-kernel.lock
flock 9
dl_bw_baseline

DATA=$DLB_SRC/rt-app/tests/data
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-rtapp-test.XXXXXX)
chmod 755 "$TMP"	# the unprivileged run below writes under it
TRACEFS=$(tracefs_dir)
INST=$TRACEFS/instances/dlb-rtapp-test-$$
cleanup() {
	[ -d "$INST" ] && rmdir "$INST"
	rm -rf "$TMP"
}
trap cleanup EXIT

# DL threads alive on the machine (ps shows class DLN for SCHED_DEADLINE)
# shellcheck disable=SC2009  # pgrep cannot select by scheduling class
dl_threads() { ps -eLo cls= | grep -c DLN; }
# data lines of an rt-app log
log_lines() { grep -vc '^#' "$1"; }
# within N of WANT
near() { [ "$1" -ge $(($2 - $3)) ] && [ "$1" -le $(($2 + $3)) ]; }
json_status() { "$DLB_BUILD/tests/tools/json-status" "$@"; }
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }

# ---- 2 DL tasks, 2 s, markers into a private instance on the mono clock ----
mkdir "$INST"
echo mono >"$INST/trace_clock"
"$RTAPP" -q -t "$INST/trace_marker" -o "$TMP/dl2" "$DATA/dl2.json" >"$TMP/dl2.out" 2>&1
expect_eq "2-task DL run exits 0" "$?" 0
cat "$INST/trace" >"$TMP/trace.txt"
rmdir "$INST"
S=$TMP/dl2/summary.json
expect_eq "summary status complete" "$(json_status "$S")" complete
na=$(log_lines "$TMP/dl2/rt-app-dl_a-0.log")
nb=$(log_lines "$TMP/dl2/rt-app-dl_b-1.log")
check "dl_a log has 200 +-1 jobs (got $na)" near "$na" 200 1
check "dl_b log has 100 +-1 jobs (got $nb)" near "$nb" 100 1
mapfile -t tids < <(json_get "$S" tid)
mapfile -t jobs < <(json_get "$S" jobs)
# shellcheck disable=SC2016  # expanded by eval
check "summary jobs 200/100 +-1 (got ${jobs[*]})" eval 'near "${jobs[0]}" 200 1 && near "${jobs[1]}" 100 1'
begins() { grep -c "dlb_job: tid=$1 job=[0-9]* event=begin" "$TMP/trace.txt"; }
ends() { grep -c "dlb_job: tid=$1 job=[0-9]* event=end" "$TMP/trace.txt"; }
expect_eq "dl_a begin markers = summary jobs" "$(begins "${tids[0]}")" "${jobs[0]}"
expect_eq "dl_b begin markers = summary jobs" "$(begins "${tids[1]}")" "${jobs[1]}"
expect_eq "dl_a end markers = begin markers" "$(ends "${tids[0]}")" "${jobs[0]}"
# releases are absolute: exactly one period apart, deadline = release + D
rels=$(grep "dlb_job: tid=${tids[0]} .*event=begin" "$TMP/trace.txt" |
	sed 's/.* rel=\([0-9]*\) dl=\([0-9]*\).*/\1 \2/' |
	awk 'NR > 1 && $1 - p != 10000000 { bad++ } $2 - $1 != 10000000 { bad++ } { p = $1 }
	     END { print bad + 0 }')
expect_eq "dl_a releases 10 ms apart, dl = rel + 10 ms" "$rels" 0
check "run start marker with the task attributes" \
	grep -q "dlb_task: tid=${tids[1]} name=dl_b-1 policy=deadline prio=-1 runtime=5000000 deadline=20000000 period=20000000" "$TMP/trace.txt"
check "run end marker, complete" grep -q "dlb_run: event=end status=complete" "$TMP/trace.txt"
check "marker timestamps on the mono clock match the log's start (us)" \
	eval "awk -v s=\$(awk '!/^#/ { print \$5; exit }' $TMP/dl2/rt-app-dl_a-0.log) \
	'/tracing_mark_write: dlb_job: tid=${tids[0]} job=0 event=begin/ { sub(\":\", \"\", \$4); d = \$4 * 1e6 - s; exit !(d > -2000 && d < 2000) }' $TMP/trace.txt"
check "sched snapshot saved, policy 6" grep -Eq '^policy +: +6$' "$TMP/dl2/rt-app-dl_a-0.sched"
expect_eq "no DL thread left after the run" "$(dl_threads)" 0
check_dl_bw "2-task run" "$TMP/dl2/summary.json"

# ---- under dlb-record: markers to $DLB_TRACE_MARKER without -t ----
mkdir "$INST"
DLB_TRACE_MARKER=$INST/trace_marker "$RTAPP" -q -d 200ms -o "$TMP/env" "$DATA/dl2.json" \
	>"$TMP/env.out" 2>&1
expect_eq "run with DLB_TRACE_MARKER exits 0" "$?" 0
n=$(grep -c "dlb_job: .* event=begin" "$INST/trace")
rmdir "$INST"
# 20 + 10 in 200 ms; a job more or less at the end on a loaded machine
# (31 seen under make check), one of either task's at most
check "its 20 + 10 job begins in the instance, within 2 (got $n)" test "$n" -ge 28 -a "$n" -le 32
check_dl_bw "run under DLB_TRACE_MARKER" "$TMP/env/summary.json"

# ---- over-subscription: 3 x 0.9 on 1.8 usable ----
"$RTAPP" -q -n -o "$TMP/busy" "$DATA/oversub.json" >"$TMP/busy.out" 2>&1
expect_eq "over-subscribed workload exits 3 (environment)" "$?" 3
check "EBUSY explained: task, bandwidth, admitted, capacity" \
	grep -q "task 'big' instance 2: SCHED_DEADLINE admission refused (EBUSY): bandwidth 0.900 (runtime 9000000 ns / period 10000000 ns) does not fit: this run had admitted 1.800 of the 1.800 available to tasks (2 CPUs x sched_rt_runtime_us 950000 / sched_rt_period_us 1000000 = 1.900, less the fair servers' 0.050 per CPU)" "$TMP/busy.out"
expect_eq "no DL thread left after EBUSY" "$(dl_threads)" 0
expect_eq "summary after EBUSY says error" "$(json_status "$TMP/busy/summary.json")" error
expect_eq "summary after EBUSY: admission refused (what the verdict reads)" \
	"$(json_get "$TMP/busy/summary.json" outcome)" refused
check_dl_bw "after EBUSY" "$TMP/busy/summary.json"

# ---- checked against this kernel's sysctl limits before any sched_setattr ----
min=$(cat /proc/sys/kernel/sched_deadline_period_min_us)
"$RTAPP" -q -n -o "$TMP/short" "$DATA/short_period.json" >"$TMP/short.out" 2>&1
expect_eq "a period below sched_deadline_period_min_us exits 2" "$?" 2
expect_eq "named with file, line, column and rule" "$(cat "$TMP/short.out")" \
	"dlb-rtapp: $DATA/short_period.json:2:80: tasks.s.dl-period: period 50000 ns is below $((min * 1000)) ns (period must be at least sched_deadline_period_min_us)"

# ---- a sched_setscheduler2 number this kernel does not have ----
"$RTAPP" -q -n --setscheduler2=999 -o "$TMP/nosys" "$DATA/dl2.json" >"$TMP/nosys.out" 2>&1
expect_eq "--setscheduler2 without the patch exits 3" "$?" 3
check "ENOSYS explained" grep -q "task 'dl_a' instance 0: this kernel has no such system call (ENOSYS): no SCHED_DEADLINE here; try --backend reference" "$TMP/nosys.out"
check_dl_bw "after ENOSYS" "$TMP/nosys/summary.json"

# ---- SIGINT mid-run: the run (20 s) stops at once, not at its end ----
"$RTAPP" -q -n -o "$TMP/int" "$DATA/long.json" >"$TMP/int.out" 2>&1 &
pid=$!
sleep 1
t0=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
expect_eq "SIGINT exits 4 (incomplete)" "$rc" 4
# Tolerance 2 s, a tenth of the run: the threads leave within a period (100 ms),
# then the DL accounting check waits up to 2 periods + 100 ms for the kernel's
# deferred release and reads sched/debug (tens of ms on a loaded machine); the
# rest is room for a shared machine's scheduling delays.  Not stopping would take
# the 19 s left.
check "stopped long before the run's end (took $ms ms, allowed 2000)" test "$ms" -lt 2000
expect_eq "summary says incomplete" "$(json_status "$TMP/int/summary.json")" incomplete
expect_eq "no DL thread left after SIGINT" "$(dl_threads)" 0
check_dl_bw "after SIGINT" "$TMP/int/summary.json"

# ---- no privilege ----
mkdir -m 777 "$TMP/nobody"
setpriv --reuid nobody --regid nogroup --clear-groups --inh-caps=-all \
	"$RTAPP" -q -n -o "$TMP/nobody/out" "$DATA/dl2.json" >"$TMP/nobody.out" 2>&1
expect_eq "unprivileged run exits 3 (environment)" "$?" 3
check "EPERM explained, reference backend suggested" \
	grep -q "task 'dl_a' instance 0: not permitted to set policy SCHED_DEADLINE (EPERM): it needs root or CAP_SYS_NICE (uid 65534); run as root, or simulate with --backend reference" "$TMP/nobody.out"
check_dl_bw "unprivileged run"

# ---- a periodic FIFO task: jobs marked with their release, no deadline ----
mkdir "$INST"
"$RTAPP" -q -t "$INST/trace_marker" -o "$TMP/fifo" "$DATA/calib.json" >"$TMP/fifo.out" 2>&1
expect_eq "periodic FIFO run exits 0" "$?" 0
grep -o 'dlb_job: .*event=begin.*' "$INST/trace" >"$TMP/fifo.begins"
rmdir "$INST"
check "FIFO job begin markers carry rel= ($(wc -l <"$TMP/fifo.begins") of them)" \
	grep -q ' rel=[0-9]' "$TMP/fifo.begins"
# shellcheck disable=SC2016  # expanded by eval
check "and no dl= (a FIFO job has no deadline to miss; docs/markers.md)" \
	eval '! grep -q " dl=" "$TMP/fifo.begins"'
check_dl_bw "periodic FIFO run" "$TMP/fifo/summary.json"

# ---- calibration: 5 ms runs on an idle CPU within 2 % (median of 100) ----
# SCHED_FIFO so that other users' fair tasks on this shared machine do not
# stretch the runs; a virtual CPU still varies by a few percent from one
# 0.1 s to the next, so one retry (printed) is allowed.
calib_median() {
	"$RTAPP" -q -n -o "$TMP/calib" "$DATA/calib.json" >"$TMP/calib.out" 2>&1
	grep -v '^#' "$TMP/calib/rt-app-busy-0.log" | awk '{ print $3 }' | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }'
}
in_2pct() { [ "$1" -ge 4900 ] && [ "$1" -le 5100 ]; }
# Busy percentage of all CPUs over half a second, from /proc/stat.
cpu_busy_pct() {
	local a b
	read -ra a < /proc/stat; sleep 0.5; read -ra b < /proc/stat
	local idle=$(( (b[4] + b[5]) - (a[4] + a[5]) )) total=0 i
	for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
	echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}
# The 2 % promise holds on an idle machine: a busy sibling vCPU slows a
# busy loop through the shared core and caches whatever our priority.
busy=$(cpu_busy_pct)
if [ "$busy" -gt 15 ]; then
	skip "median run of a 5000 us event within 2 %" "machine not idle ($busy % busy)"
else
	med=$(calib_median)
	if ! in_2pct "$med"; then
		echo "# calibration: first median $med us, retrying once"
		med=$(calib_median)
	fi
	check "median run of a 5000 us event within 2 % (got $med us, $busy % busy)" in_2pct "$med"
fi
check_dl_bw "calibration runs"
