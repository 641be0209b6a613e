#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fair server's share on the host kernel (docs/conformance.md
# "Unavailable time"), under the kernel lock: a deadline task d (6 ms of
# work every 10 ms, runtime 7 ms, pinned to CPU 1: its own partition) and a
# CPU-bound fair hog pinned to the same CPU, 2 s.  The hog holds CPU 1
# whenever d sleeps, so each of d's wake-ups finds a fair task on its CPU:
#  - the jobs trace (version 6) has few unavail records of kind fair: each
#    of d's wake-ups waits behind the hog for the wake-up's preemption
#    latency only (median 18 us in a run here), which is not the server's
#    share (DLB_FAIR_LATENCY_NS, 1 ms); at most 5 % of the jobs (a loaded
#    host may hold one past 1 ms), where counting them all gave 197 of 198;
#  - in every window of the fair server's period from t0, the fair records'
#    time on a CPU stays within its reservation (the kernel's default here,
#    50 ms every 1 s; merged interrupts may add a little: 5 ms allowed);
#  - the report's note counts them apart from interrupts, found >= counted
#    (no note when there are none);
#  - the replay with them departs little: divergent misses (kernel-only or
#    oracle-only) at most 2 % of the jobs (0 of 198 in the run above; a
#    first version that also took a DL task switched out runnable to a fair
#    task as the fair server's share counted two throttles of 5 ms each and
#    made 3 oracle-only misses).
# On this kernel (6.18) the fair server did not preempt an admitted DL task
# in runs here (its deferred start finds its share in the DL task's idle
# time), so no kernel-only miss for the replay to explain shows up.
. "$(dirname "$0")/lib.sh"
plan 6
require need_root need_tracefs need_sched_deadline
require_built dlb-analyze dlb-rtapp dlb-record
J=$DLB_BUILD/tests/tools/json-get
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { skip_rest "needs 2 CPUs"; exit 0; }
kernel_lock_run_sh
tmp=$(mktemp -d /tmp/dlb-conform-fair.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
dl_bw_baseline

cat >"$tmp/fair.json" <<'WL'
{
	"tasks": {
		"d": { "loop": -1, "cpus": [1], "run": 6000,
		       "timer": { "ref": "unique", "period": 10000 },
		       "dl-runtime": 7000, "dl-period": 10000 },
		"hog": { "loop": -1, "cpus": [1], "policy": "SCHED_OTHER", "run": 100000 }
	},
	"global": { "duration": 2, "default_policy": "SCHED_DEADLINE" }
}
WL
"$DLB_SRC/run.sh" run "$tmp/fair.json" -b kernel -M 5% -o "$tmp/f" >"$tmp/f.out" 2>&1
rc=$?
check "the run completes (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
check_dl_bw "fair hog beside a DL task" "$tmp/f/summary.json"
jt=$tmp/f/jobs-trace.txt
grep '^# conformance' "$tmp/f/report.txt" 2>/dev/null | sed 's/^/# /'
read -r jobs konly oonly < <("$J" "$tmp/f/report.json" conformance.run.jobs \
	conformance.run.kernel_only_misses.total conformance.run.oracle_only_misses.total |
	tr '\n' ' ')
# the fair records: on CPU 1, and on every CPU
# shellcheck disable=SC2016 # awk's program
read -r nfair nall < <(awk '$1 == "unavail" && $5 ~ /fair/ { n++; n1 += $2 == 1 }
	END { print n1 + 0, n + 0 }' "$jt" 2>/dev/null)
check "jobs trace version 6, fair records on CPU 1 for <= 5 % of $jobs jobs: the wake-ups behind the hog are latency ($nfair)" \
	test "$(sed -n 2p "$jt" 2>/dev/null)" = "dlb-jobs-trace 6" -a "${jobs:-0}" -ge 150 -a \
	$((${nfair:-99} * 20)) -le "${jobs:-0}"
# the fair records' time per CPU per 1 s window from t0, ms: the largest
# shellcheck disable=SC2016 # awk's program
worst=$(awk '$1 == "t0" { t0 = $2 } $1 == "unavail" && $5 ~ /fair/ {
		s[$2 " " int(($3 - t0) / 1e9)] += $4 - $3 }
	END { m = 0; for (k in s) if (s[k] > m) m = s[k]; printf "%d", m / 1e6 }' "$jt" 2>/dev/null)
check "fair records within the reservation: <= 55 ms in any 1 s window of a CPU (${worst:-?} ms)" \
	test -n "$worst" -a "${worst:-99}" -le 55
note=$("$J" "$tmp/f/report.json" conformance.notes 2>/dev/null |
	grep -o '[0-9]* intervals ([0-9.]* ms) of a fair task run while[^"]*')
# shellcheck disable=SC2016 # awk's program
check "the note counts them apart, counted <= found, none without records ($nall records: ${note:-no note})" awk -v s="$note" -v n="${nall:-0}" 'BEGIN {
	if (n == 0) exit s != ""
	if (!match(s, /\(([0-9.]+) ms\) of a fair task/)) exit 1
	f = substr(s, RSTART + 1) + 0
	if (!match(s, /waited: [0-9.]+ ms within/)) exit 1
	c = substr(s, RSTART + 8) + 0
	exit !(c <= f && f > 0) }'
check "divergent misses <= 2 % of $jobs jobs (kernel-only $konly, oracle-only $oonly)" \
	test "${jobs:-0}" -ge 150 -a $(((${konly:-99} + ${oonly:-99}) * 50)) -le "${jobs:-0}"
