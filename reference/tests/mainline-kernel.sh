#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The mainline model's rules that user space can see, held against this
# machine's kernel (same workload on the kernel, on --model mainline and on
# --model v4; structure with tolerance, never exact times):
#  - dl_check_constrained_dl() (4.11): a constrained task (5 ms / 10 ms /
#    100 ms) that runs 1 ms, sleeps 20 ms and wakes past its deadline is
#    throttled until its next period: the job ends after ~101 ms, its slack
#    to the 200 ms timer ~99 ms, where v4's rule would give ~178 ms;
#  - the fair server (6.12): a FIFO hog and a busy fair task on one CPU for
#    2 s: the deferred server lets the fair task run first at zero laxity
#    (~950 ms), then 50 ms per second (~100 one-ms jobs in all), where v4
#    starves it;
#  - the fair server's lazy stop (6.17): a fair task runs 1 ms, sleeps 799
#    ms, a FIFO hog arrives at 2 ms; the server, not stopped by the sleep,
#    keeps its period and serves the task at its old zero-laxity instant
#    (~952 ms), where 6.12-6.16 restart it at the wake-up (~1750 ms; a
#    kernel with the later revised wake-up for the server but no lazy stop:
#    ~990 ms);
#  - idle time charged to the fair server (6.12): a fair task runs 1 ms,
#    sleeps 29 ms (the CPU idle), runs 10 ms, a FIFO hog arrives at 35 ms:
#    the 29 idle ms count as fair time, so the zero-laxity instant comes
#    later and the task's first job ends at ~990 ms (without the charge:
#    ~961 ms; other fair work on that CPU can only make it later);
#  - admission with the fair servers (6.12): 2 tasks of 0.46 per CPU (0.92
#    of each) are refused, 2 of 0.44 admitted;
#  - GRUB reclaiming (4.13): a task of 10 ms / 100 ms with 20 ms of work per
#    100 ms period, alone: with "dl-flags": ["reclaim"] it reclaims the idle
#    bandwidth and each job's run takes ~20 ms (median under 50 ms); without
#    it, every job waits for the next replenishment (median run >= 90 ms).
# The fair-server checks on the kernel need the CPU to themselves: with other
# fair tasks runnable there they are counted skips (fair_run below).
# Needs root and SCHED_DEADLINE; holds the machine-wide kernel lock.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 24

T=$(mktemp -d /tmp/dlb-mainline-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
cat >"$T/late.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "late": { "policy": "SCHED_DEADLINE", "dl-runtime": 5000, "dl-deadline": 10000,
		       "dl-period": 100000, "run": 1000, "sleep": 20000, "run2": 1000,
		       "timer": { "ref": "late", "period": 200000 } } } }
JSON
# median slack (µs) of the complete jobs (those whose period is the timer's)
slack() { awk '!/^#/ && $4 >= 190000 { print $8 }' "$1" | sort -n |
	awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : -1 }'; }

"$BIN/dlb-rtapp" -q -b reference --model mainline -m 1 -o "$T/ml" "$T/late.json"
"$BIN/dlb-rtapp" -q -b reference --model v4 -m 1 -o "$T/v4" "$T/late.json"
ml=$(slack "$T/ml/rt-app-late-0.log")
v4=$(slack "$T/v4/rt-app-late-0.log")
expect_eq "reference: mainline throttles the late wake-up (slack 99 ms), v4 not (178 ms)" \
	"$ml $v4" "99000 178000"

# ---- the fair server: FIFO hog + fair task on the last CPU ----
CPU=$(($(nproc) - 1))
cat >"$T/fs.json" <<JSON
{ "global": { "duration": 2 },
  "tasks": { "hog": { "policy": "SCHED_FIFO", "priority": 10, "cpus": [$CPU], "run": 3000000 },
	     "fair": { "policy": "SCHED_OTHER", "cpus": [$CPU], "run": 1000 } } }
JSON
# fair's jobs (1 ms of work each) and the first one's release time (µs)
fair_jobs() { awk '!/^#/ { n++; if (n == 1) first = $7 } END { print n + 0, first + 0 }' "$1"; }
"$BIN/dlb-rtapp" -q -b reference --model mainline -m "$(nproc)" -o "$T/fsml" "$T/fs.json"
"$BIN/dlb-rtapp" -q -b reference --model v4 -m "$(nproc)" -o "$T/fsv4" "$T/fs.json"
read -r mljobs mlfirst < <(fair_jobs "$T/fsml/rt-app-fair-1.log")
expect_eq "reference: mainline runs the starved fair task at 950 ms (zero laxity), v4 never" \
	"$mlfirst $(fair_jobs "$T/fsv4/rt-app-fair-1.log")" "950000 0 0"
check "reference: mainline gives it two server periods (~100 jobs, got $mljobs)" \
	test "$mljobs" -ge 95 -a "$mljobs" -le 105

# ---- the fair server's lazy stop and idle time: a fair sleeper, a FIFO hog ----
# fair_sleeper SLEEP_US HOG_DELAY_US [EXTRA_EVENTS]: on the last CPU, 2 s
fair_sleeper() {
	cat <<JSON
{ "global": { "duration": 2 },
  "tasks": { "hog": { "policy": "SCHED_FIFO", "priority": 10, "cpus": [$CPU], "delay": $2,
		      "run": 3000000 },
	     "fair": { "policy": "SCHED_OTHER", "cpus": [$CPU], "run": 1000, "sleep": $1${3-} } } }
JSON
}
fair_sleeper 799000 2000 >"$T/lazy.json"
fair_sleeper 29000 35000 ', "run2": 10000' >"$T/idle.json"
# fair's second job's start, first job's end (µs from the run's start)
second_start() { awk '!/^#/ && ++n == 2 { s = $7 } END { print (n >= 2 ? s : -1) }' "$1"; }
first_end() { awk '!/^#/ && ++n == 1 { e = $6 - $5 + $7 } END { print n ? e : -1 }' "$1"; }
"$BIN/dlb-rtapp" -q -b reference --model mainline -m "$(nproc)" -o "$T/lzml" "$T/lazy.json"
"$BIN/dlb-rtapp" -q -b reference --model mainline:6.16 -m "$(nproc)" -o "$T/lz616" "$T/lazy.json"
lzml=$(second_start "$T/lzml/rt-app-fair-1.log")
expect_eq "reference: the lazy stop serves the sleeper at 952 ms (6.16: 1750 ms)" \
	"$lzml $(second_start "$T/lz616/rt-app-fair-1.log")" "952000 1750000"
"$BIN/dlb-rtapp" -q -b reference --model mainline -m "$(nproc)" -o "$T/idml" "$T/idle.json"
idml=$(first_end "$T/idml/rt-app-fair-1.log")
expect_eq "reference: idle time charged, the first fair job ends at 990 ms" "$idml" 990000

# ---- GRUB reclaiming: 20 ms of work a period on a 10 ms / 100 ms reservation ----
cat >"$T/grub.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "g": { "policy": "SCHED_DEADLINE", "dl-runtime": 10000, "dl-deadline": 100000,
		    "dl-period": 100000, "dl-flags": ["reclaim"], "run": 20000,
		    "timer": { "ref": "g", "period": 100000 } } } }
JSON
sed 's/, "dl-flags": \["reclaim"\]//' "$T/grub.json" >"$T/nogrub.json"
# median wall time (µs) of the jobs' run event
medrun() { awk '!/^#/ { print $3 }' "$1" | sort -n |
	awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : -1 }'; }
"$BIN/dlb-rtapp" -q -b reference --model mainline -m "$(nproc)" -o "$T/gml" "$T/grub.json"
"$BIN/dlb-rtapp" -q -b reference --model mainline -m "$(nproc)" -o "$T/pml" "$T/nogrub.json"
expect_eq "reference: mainline reclaims: each job runs its 20 ms at once" \
	"$(medrun "$T/gml/rt-app-g-0.log")" 20000
pml=$(medrun "$T/pml/rt-app-g-0.log")
check "reference: without the flag each job waits for a replenishment ($pml us >= 100 ms)" \
	test "$pml" -ge 100000

require need_root need_sched_deadline
exec 9>/tmp/dlbench-kernel.lock
flock 9
chmod 755 "$T"

# The fair server serves the fair class of a CPU, not one task: with other
# fair work on that CPU (a build beside the test) its 50 ms a second are
# shared, and when the test's fair task is served, and how much, is theirs
# to decide as much as the kernel's (under a make -j2 loop here the lazy
# sleeper was served at 1867, 1957 and 1993 ms instead of 952).  So the
# kernel's fair-server checks are made only when no other fair task took
# CPU time there during the run; else they are counted skips saying how
# much.  (Runnable fair tasks are there even on a quiet machine: kernel
# threads starved behind the hog, which take microseconds.)
# fair_use: "CPU PID SUM_EXEC_MS COMM" of each fair task (sched/debug's
# runnable-tasks tables, one a CPU: PID, sum-exec and prio are the 14th,
# 9th and 7th fields from the end, after a name that may hold spaces)
SD=/sys/kernel/debug/sched/debug
fair_use() {
	awk '$1 ~ /^cpu#/ { cpu = substr($1, 5) + 0; t = 0; next }
		/runnable tasks:/ { t = 1; next }
		t && NF >= 15 && $(NF - 13) ~ /^[0-9]+$/ && $(NF - 6) >= 100 {
			print cpu, $(NF - 13), $(NF - 8), $2 }' "$SD" 2>/dev/null
}
# fair_run OUT CMD...: run CMD (exit code in $rc) while every fair task is
# read every 50 ms from CPU 0; $rivals: the CPU time in ms taken meanwhile
# by the fair tasks seen on $CPU (from before the run, or their first
# sight, to their last; where they ran in between is not known, so a task
# that left counts what it ran elsewhere: a skip too many rather than a
# check made with rivals), not CMD's threads (its run names them hog, fair,
# dlb-rtapp); -1 when sched/debug is unreadable
fair_run() {
	local out=$1 poller
	shift
	fair_use | sed 's/^/0 /' >"$out.use"
	( n=1; while :; do fair_use | sed "s/^/$n /"; n=$((n + 1)); sleep 0.05; done ) \
		>>"$out.use" 2>/dev/null &
	poller=$!
	taskset -pc 0 "$poller" >/dev/null 2>&1
	"$@"
	rc=$?
	kill "$poller" 2>/dev/null
	wait "$poller" 2>/dev/null
	fair_use | sed 's/^/999999 /' >>"$out.use"
	if ! grep -q '^999999 ' "$out.use"; then
		rivals=-1
		return
	fi
	rivals=$(awk -v c="$CPU" '$5 ~ /^(hog|fair|dlb-rtapp)/ { next }
		!($3 in from) { from[$3] = $4 }
		$2 == c { on[$3] = 1 }
		{ last[$3] = $4 }
		END { for (p in on) t += last[p] - from[p]; printf "%d", t }' "$out.use")
}
# fair_check NAME TEST...: check, or a counted skip when other fair tasks
# took more than 50 ms in the 2 s run, half the server's 100 ms (counted
# generously, see fair_run: 8-35 ms in quiet runs here, this machine's own
# agent and kernel threads; 27-868 under a make -j2 loop, where the lazy
# sleeper was served a period late with 146 and 313)
fair_check() {
	local name=$1
	shift
	if [ "$rivals" -gt 50 ]; then
		skip "$name" "other fair tasks took $rivals ms of CPU $CPU during the run: the fair server's 50 ms were theirs too"
	else
		check "$name" "$@"
	fi
}

"$BIN/dlb-rtapp" -q -n -o "$T/k" "$T/late.json"
expect_eq "kernel: the constrained run exits 0" "$?" 0
k=$(slack "$T/k/rt-app-late-0.log")
jobs=$(awk '!/^#/ && $4 >= 190000' "$T/k/rt-app-late-0.log" | wc -l)
check "kernel: 4 +-1 complete jobs (got $jobs)" test "$jobs" -ge 3 -a "$jobs" -le 5
# the kernel's slack is the mainline model's within 30 ms, far from v4's
check "kernel: slack $k us is mainline's $ml +-30 ms, not v4's $v4" \
	test "$k" -ge $((ml - 30000)) -a "$k" -le $((ml + 30000))

fair_run "$T/fsk" "$BIN/dlb-rtapp" -q -n -o "$T/fsk" "$T/fs.json"
expect_eq "kernel: FIFO hog + fair task exits 0" "$rc" 0
read -r kjobs kfirst < <(fair_jobs "$T/fsk/rt-app-fair-1.log")
# the kernel's first fair job at the model's zero-laxity instant within 30 ms
fair_check "kernel: first fair job at $kfirst us, mainline's $mlfirst +-30 ms (v4: never)" \
	test "$kfirst" -ge $((mlfirst - 30000)) -a "$kfirst" -le $((mlfirst + 30000))
fair_check "kernel: $kjobs fair jobs, mainline's $mljobs +-25%" \
	test "$kjobs" -ge $((mljobs * 3 / 4)) -a "$kjobs" -le $((mljobs * 5 / 4))

fair_run "$T/lzk" "$BIN/dlb-rtapp" -q -n -o "$T/lzk" "$T/lazy.json"
expect_eq "kernel: the fair sleeper beside a FIFO hog exits 0" "$rc" 0
k=$(second_start "$T/lzk/rt-app-fair-1.log")
fair_check "kernel: served at $k us, the lazy stop's $lzml +-20 ms (not ~990 or ~1750 ms)" \
	test "$k" -ge $((lzml - 20000)) -a "$k" -le $((lzml + 20000))
fair_run "$T/idk" "$BIN/dlb-rtapp" -q -n -o "$T/idk" "$T/idle.json"
expect_eq "kernel: the fair task after an idle gap exits 0" "$rc" 0
k=$(first_end "$T/idk/rt-app-fair-1.log")
fair_check "kernel: first fair job ends at $k us, mainline's $idml -15/+30 ms (no charge: ~961 ms)" \
	test "$k" -ge $((idml - 15000)) -a "$k" -le $((idml + 30000))

"$BIN/dlb-rtapp" -q -n -o "$T/gk" "$T/grub.json"
expect_eq "kernel: the reclaiming task exits 0 (sched_setattr took SCHED_FLAG_RECLAIM)" "$?" 0
"$BIN/dlb-rtapp" -q -n -o "$T/pk" "$T/nogrub.json"
expect_eq "kernel: the same task without the flag exits 0" "$?" 0
gk=$(medrun "$T/gk/rt-app-g-0.log")
pk=$(medrun "$T/pk/rt-app-g-0.log")
check "kernel: reclaiming, a 20 ms job on 10 ms of runtime runs in $gk us (< 50 ms)" \
	test "$gk" -gt 0 -a "$gk" -lt 50000
check "kernel: not reclaiming, it waits for the next period: $pk us (>= 90 ms)" \
	test "$pk" -ge 90000

# ---- admission: the fair servers' 0.05 per CPU (6.12+) ----
if [ "$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)" != 950000 ] ||
	[ "$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null)" != 1000000 ]; then
	skip_rest "sched_rt_runtime_us/period_us are not the defaults 950000/1000000"
	exit 0
fi
n=$(($(nproc) * 2))
bw() {
	cat >"$T/bw$1.json" <<JSON
{ "global": { "duration": 1 },
  "tasks": { "t": { "instance": $n, "policy": "SCHED_DEADLINE", "dl-runtime": $1,
		    "dl-period": 10000, "dl-deadline": 10000, "run": 100,
		    "timer": { "ref": "t", "period": 10000 } } } }
JSON
}
bw 4600
bw 4400
out=$("$BIN/dlb-rtapp" -q -n -d 200ms -o "$T/a46" "$T/bw4600.json" 2>&1)
expect_eq "kernel: $n tasks of 0.46 refused (exit 3, EBUSY)" "$?:$(grep -c EBUSY <<<"$out")" "3:1"
"$BIN/dlb-sim" --model mainline -m "$(nproc)" -d 100ms "$T/bw4600.json" >/dev/null 2>&1
expect_eq "reference mainline: refused too (exit 3, as the kernel)" "$?" 3
"$BIN/dlb-rtapp" -q -n -d 200ms -o "$T/a44" "$T/bw4400.json"
expect_eq "kernel: $n tasks of 0.44 admitted" "$?" 0
