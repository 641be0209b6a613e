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
#    (~952 ms, or a period later when other fair tasks on the CPU took that
#    service), where 6.12-6.16 restart it at the wake-up (~1750 ms; a
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

"$BIN/dlb-rtapp" -q -n -o "$T/k" "$T/late.json"
expect_eq "kernel: the constrained run exits 0" "$?" 0
k=$(slack "$T/k/rt-app-late-0.log")
jobs=$(awk '!/^#/ && $4 >= 190000' "$T/k/rt-app-late-0.log" | wc -l)
check "kernel: 4 +-1 complete jobs (got $jobs)" test "$jobs" -ge 3 -a "$jobs" -le 5
# the kernel's slack is the mainline model's within 30 ms, far from v4's
check "kernel: slack $k us is mainline's $ml +-30 ms, not v4's $v4" \
	test "$k" -ge $((ml - 30000)) -a "$k" -le $((ml + 30000))

"$BIN/dlb-rtapp" -q -n -o "$T/fsk" "$T/fs.json"
expect_eq "kernel: FIFO hog + fair task exits 0" "$?" 0
read -r kjobs kfirst < <(fair_jobs "$T/fsk/rt-app-fair-1.log")
# the kernel's first fair job at the model's zero-laxity instant within 30 ms
check "kernel: first fair job at $kfirst us, mainline's $mlfirst +-30 ms (v4: never)" \
	test "$kfirst" -ge $((mlfirst - 30000)) -a "$kfirst" -le $((mlfirst + 30000))
check "kernel: $kjobs fair jobs, mainline's $mljobs +-25%" \
	test "$kjobs" -ge $((mljobs * 3 / 4)) -a "$kjobs" -le $((mljobs * 5 / 4))

"$BIN/dlb-rtapp" -q -n -o "$T/lzk" "$T/lazy.json"
expect_eq "kernel: the fair sleeper beside a FIFO hog exits 0" "$?" 0
k=$(second_start "$T/lzk/rt-app-fair-1.log")
# The server serves the fair class, not this task: other fair tasks on the
# CPU (a build beside the test) may take its 50 ms at 952 ms, and the task
# is served a period later, at 1952 ms (seen here under a make -j2 loop).
# What the lazy stop decides is the phase, 952 ms modulo the server's 1 s
# period; 6.12-6.16 restart the server at the wake-up (1750 ms), a revised
# wake-up without the lazy stop serves at ~990 ms.
ph=$(((k - lzml + 1000000) % 1000000))
check "kernel: served at $k us, on the lazy stop's grid $lzml + k * 1 s +-20 ms (not ~990 or ~1750 ms)" \
	test "$k" -ge $((lzml - 20000)) -a "$k" -le $((lzml + 1020000)) -a \( "$ph" -le 20000 -o "$ph" -ge 980000 \)
"$BIN/dlb-rtapp" -q -n -o "$T/idk" "$T/idle.json"
expect_eq "kernel: the fair task after an idle gap exits 0" "$?" 0
k=$(first_end "$T/idk/rt-app-fair-1.log")
check "kernel: first fair job ends at $k us, mainline's $idml -15/+30 ms (no charge: ~961 ms)" \
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
