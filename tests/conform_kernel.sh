#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Conformance on the host kernel (docs/conformance.md), under the kernel lock:
#  - edf-global-2cpu, under the Goossens-Funk-Baruah bound (U = 1.43 <= 2 -
#    0.55): global EDF meets every deadline, so a job the kernel misses and the
#    replay meets must be explained by an overrun; allowed: unexplained
#    kernel-only misses up to 2 % of the jobs (a shared, noisy host: a vCPU
#    descheduled mid-job is no scheduler decision), and 90 % of the jobs
#    compared (the rest unmatched at the trace's ends); the jobs trace holds
#    each CPU's tick grid (tickphase); the recorder recorded interrupts, so
#    the jobs trace has each CPU's interrupt time (unavail irq records: at
#    least 25 per CPU in the 1 s, a 250 Hz tick gives ~250; in all under 10 %
#    of the CPU time: 23 ms of 2.2 s measured) and no note says it is missing;
#  - a planted overrun: a "run" of 200 us with a calibration of 1 ns per loop
#    (a loop takes 13 to 60 ns) burns 2.6 to 12 ms against a 1 ms runtime and
#    a 5 ms deadline; replayed with the work each job asked for
#    (--replay-asked), the oracle meets what the kernel misses.  Whether a
#    job is throttled depends on where the 4 ms tick falls in its run (the
#    budget is checked at the tick): at 2.6 ms about 4 jobs in 10 alone, then
#    the deficit the throttle leaves makes the later jobs late too.  So the
#    kernel misses at least 5 jobs (18 to 20 of 20 measured; 9 of 19 once,
#    on a quiet host), and of its misses at least 9 in 10 are kernel-only,
#    cause overrun, and at most one in ten of the jobs is unexplained (1 of
#    18 "waited" in a quiet CI: a timer's late wake-up).
. "$(dirname "$0")/lib.sh"
plan 9
require need_root need_tracefs need_sched_deadline
for t in dlb-analyze dlb-rtapp dlb-record; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
done
J=$DLB_BUILD/tests/tools/json-get
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }
exec 9>/tmp/dlbench-kernel.lock
flock 9
export DLB_LOCKED=1	# run.sh: the lock is ours already
tmp=$(mktemp -d /tmp/dlb-conform-kernel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh
dl_bw_baseline

# konly DIR: jobs compared, kernel-only misses: total, overrun, unexplained (the others:
# inversion, waited, unknown)
konly() {
	"$J" "$1/report.json" conformance.run.jobs conformance.run.kernel_only_misses.total \
		conformance.run.kernel_only_misses.overrun \
		conformance.run.kernel_only_misses.unexplained | tr '\n' ' '
}

"$RUN" run "$DLB_SRC/workloads/suites/edf-global-2cpu.json" -b kernel -M 5% -o "$tmp/g" \
	>"$tmp/g.out" 2>&1
rc=$?
check "GFB set: the run completes (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
check_dl_bw "GFB set" "$tmp/g/summary.json"
read -r jobs _ _ unx < <(konly "$tmp/g")
grep '^# conformance' "$tmp/g/report.txt" | sed 's/^/# /'
expect_eq "GFB set: conformance done, model of this kernel" \
	"$("$J" "$tmp/g/report.json" conformance.status conformance.model_source | tr '\n' ' ')" \
	"done the traced kernel's version "
check "GFB set: unexplained kernel-only misses <= 2 % of $jobs jobs ($unx), >= 330 of 367 compared" \
	test "${jobs:-0}" -ge 330 -a $((${unx:-99} * 50)) -le "${jobs:-0}"
# every CPU ran DL tasks, so the trace shows each one's tick grid (its
# sched_stat_runtime events at ticks): a tickphase record each, below the tick
jt=$tmp/g/jobs-trace.txt
tick=$(awk '$1 == "tick" { print $2 }' "$jt")
# shellcheck disable=SC2016 # awk's program
check "GFB set: the jobs trace has a tick phase below the tick ($tick ns) for every CPU ($(grep '^tickphase' "$jt" | tr '\n' ' '))" \
	awk -v t="${tick:-0}" '$1 == "cpus" { c = $2 } $1 == "tickphase" && $3 < t { n++ }
		END { exit !(t > 0 && n == c) }' "$jt"

# interrupts: recorded by default, in the jobs trace as unavail records per CPU
irqs=$(sed -n 's/^irq_events=//p' "$tmp/g/record.txt")
# shellcheck disable=SC2016 # awk's program
ua=$(awk '$1 == "cpus" { c = $2 } $1 == "t0" { t0 = $2 } $1 == "end" { e = $2 }
	$1 == "unavail" && $5 ~ /irq/ { n[$2]++; s += $4 - $3 }
	END { m = -1; for (i = 0; i < c; i++) if (m < 0 || n[i] < m) m = n[i] + 0
	      printf "%d %d", m, (e > t0 && c) ? s * 1000 / ((e - t0) * c) : 1000 }' "$jt")
check "GFB set: interrupts recorded ($irqs), unavail irq records: fewest per CPU, per mille of CPU time ($ua)" \
	test -n "$irqs" -a "${ua% *}" -ge 25 -a "${ua#* }" -lt 100
check "GFB set: no 'interrupt time not recorded' note" \
	test "$("$J" "$tmp/g/report.json" conformance.notes | grep -c 'interrupt time not recorded')" -eq 0

cat >"$tmp/planted.json" <<'WL'
{
	"global": { "duration": 1, "calibration": 1, "default_policy": "SCHED_DEADLINE" },
	"tasks": {
		"over": {
			"loop": -1,
			"run": 200,
			"timer": { "ref": "unique", "period": 20000 },
			"dl-runtime": 1000,
			"dl-deadline": 5000,
			"dl-period": 20000
		}
	}
}
WL
"$RUN" run "$tmp/planted.json" -b kernel -M -1 -o "$tmp/p" >"$tmp/p.out" 2>&1
rc=$?
check_dl_bw "planted overrun" "$tmp/p/summary.json"
"$BIN/dlb-analyze" -q -m -1 --replay-asked -o "$tmp/pa" "$tmp/p" >"$tmp/pa.out" 2>&1
read -r jobs _ over unx < <(konly "$tmp/pa")
km=$("$J" "$tmp/pa/report.json" conformance.run.kernel_misses 2>/dev/null)
grep '^# conformance' "$tmp/pa/report.txt" | sed 's/^/# /'
check "planted overrun (run exit $rc): of $jobs jobs the kernel misses >= 5 ($km), >= 9 in 10 of them kernel-only, cause overrun ($over), unexplained <= 1 in 10 of the jobs ($unx)" \
	test "${jobs:-0}" -ge 10 -a "${km:-0}" -ge 5 -a $((${over:-0} * 10)) -ge $((${km:-0} * 9)) \
	-a $((${unx:-99} * 10)) -le "${jobs:-0}"
