#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Conformance on the host kernel, the sets whose outcome the algorithm
# predicts (docs/conformance.md, "Check the checker"), under the kernel lock:
#  - Dhall's effect at M = 2 (Dhall and Liu 1978): two light tasks (3 ms
#    every 40 ms, deadline 20 ms) and a heavy one (19.5 ms every 40 ms,
#    deadline 21 ms) released together: global EDF runs the lights first,
#    the heavy task ends at 22.5 ms and misses every job, on the kernel and in
#    the replay alike, although the set uses 0.64 of 2 CPUs;
#  - CBS isolation (workloads/suites/cbs-isolation.json): the hog overruns its
#    2 ms budget every job and misses; the victims keep their deadlines, on
#    the kernel and in the replay.
# Tolerances (a shared, noisy host): "misses every job" is at least 80 % of
# the task's jobs compared on both sides; "keeps its deadlines": the replay
# misses at most 5 % of them, and of the jobs the kernel alone misses, at
# most 5 % of the jobs are not explained by an overrun (a job of 3 ms of
# work against 3.5 ms of runtime was charged more than its runtime 7 times
# in 50 on this busy VM, and throttled: a miss the replay classifies as
# overrun, not a scheduling decision).
. "$(dirname "$0")/lib.sh"
plan 8
require need_root need_tracefs need_sched_deadline
require_built dlb-analyze dlb-rtapp dlb-record
J=$DLB_BUILD/tests/tools/json-get
[ -x "$J" ] || { skip_rest "tests/tools/json-get not built yet"; exit 0; }
kernel_lock_run_sh
tmp=$(mktemp -d /tmp/dlb-conform-sets.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh
dl_bw_baseline

# per_task DIR PREFIX: "jobs kernel_misses oracle_misses kernel_only unexplained"
# summed over the conformance section's tasks whose name starts with PREFIX
# (unexplained: kernel-only misses not caused by an overrun)
per_task() {
	local i=0 n j km om ko ku sj=0 skm=0 som=0 sko=0 sku=0 p=conformance.tasks
	while n=$("$J" "$1/report.json" "$p.$i.name" 2>/dev/null); do
		if [[ $n == "$2"* ]]; then
			read -r j km om ko ku < <("$J" "$1/report.json" "$p.$i.jobs" \
				"$p.$i.kernel_misses" "$p.$i.oracle_misses" \
				"$p.$i.kernel_only_misses.total" \
				"$p.$i.kernel_only_misses.unexplained" | tr '\n' ' ')
			sj=$((sj + j)) skm=$((skm + km)) som=$((som + om)) sko=$((sko + ko)) sku=$((sku + ku))
		fi
		i=$((i + 1))
	done
	echo "$sj $skm $som $sko $sku"
}
# misses_all WHAT "jobs km om ko oo": both sides missed >= 80 % of >= 10 jobs
misses_all() {
	local j km om
	read -r j km om _ _ <<<"$2"
	check "$1: misses every job on the kernel and in the replay (jobs $j, kernel $km, replay $om)" \
		test "$j" -ge 10 -a $((km * 5)) -ge $((j * 4)) -a $((om * 5)) -ge $((j * 4))
}
# meets_all WHAT "jobs km om ko ku": of >= 10 jobs the replay missed <= 5 %, and
# the kernel's own misses not explained by an overrun are <= 5 %
meets_all() {
	local j km om ko ku
	read -r j km om ko ku <<<"$2"
	check "$1: keeps its deadlines in the replay, the kernel's misses explained (jobs $j, replay $om, kernel $km: $ko its own, $ku unexplained)" \
		test "$j" -ge 10 -a $((om * 20)) -le "$j" -a $((ku * 20)) -le "$j"
}

cat >"$tmp/dhall.json" <<'WL'
{
	"tasks": {
		"light": { "instance": 2, "loop": -1, "run": 3000,
			   "timer": { "ref": "unique", "period": 40000 },
			   "dl-runtime": 3500, "dl-deadline": 20000, "dl-period": 40000 },
		"heavy": { "loop": -1, "run": 19500,
			   "timer": { "ref": "unique", "period": 40000 },
			   "dl-runtime": 20000, "dl-deadline": 21000, "dl-period": 40000 }
	},
	"global": { "duration": 1, "default_policy": "SCHED_DEADLINE" }
}
WL
"$RUN" run "$tmp/dhall.json" -b kernel -M 100% -o "$tmp/d" >"$tmp/d.out" 2>&1
rc=$?
check "Dhall set: the run completes, conformance done (exit $rc, $("$J" "$tmp/d/report.json" conformance.status 2>&1))" \
	test "$rc" -eq 0 -a "$("$J" "$tmp/d/report.json" conformance.status 2>/dev/null)" = "done"
grep '^# conformance' "$tmp/d/report.txt" 2>/dev/null | sed 's/^/# /'
# Dhall's effect on the run's own arrivals and demands, worked out here from
# the jobs trace: the lights (earlier deadlines) each take a CPU from their
# wake-up for their demand; the heavy job runs from its wake-up, stalled only
# while both lights run, and misses if it ends after its deadline (a first
# order: no budget, no interrupts).  Jobs whose demand is unknown or over its
# runtime are left out.  Prints "jobs predicted_misses".
read -r dj dp < <(awk -F'[ ,]' '
	FNR == NR && $1 == "task" { name[$2] = $8; rt[$2] = $4 }
	FNR == NR && $1 == "job" { w[$2, $3] = $5; dl[$2, $3] = $6; d[$2, $3] = $7; nj[$2] = $3 + 1 }
	END {
		for (t in name) if (name[t] ~ /^heavy/) h = t; else l[nl++] = t
		for (k = 0; k < nj[h]; k++) {
			ok = 1
			split(h " " l[0] " " l[1], ts, " ")
			for (i = 1; i <= 3; i++)
				if (!((ts[i], k) in d) || d[ts[i], k] !~ /^[0-9]+$/ || d[ts[i], k] + 0 > rt[ts[i]] + 0) ok = 0
			if (!ok) continue
			a0 = w[l[0], k]; e0 = a0 + d[l[0], k]; a1 = w[l[1], k]; e1 = a1 + d[l[1], k]
			bs = a0 > a1 ? a0 : a1; be = e0 < e1 ? e0 : e1
			s = w[h, k]; f = s + d[h, k]
			if (bs < be && bs < f && be > s) f += be - (bs > s ? bs : s)
			n++; p += f > dl[h, k]
		}
		print n + 0, p + 0
	}' "$tmp/d/jobs-trace.txt" 2>/dev/null)
# the set misses every heavy job when the jobs run and arrive as designed; on
# a loaded machine they may not (calibrated work run shorter, releases apart),
# and then G-EDF itself predicts fewer misses: said, not failed
if [ $((${dp:-0} * 5)) -ge $((${dj:-1} * 4)) ]; then
	misses_all "Dhall set: heavy" "$(per_task "$tmp/d" heavy)"
else
	skip "Dhall set: heavy: misses every job on the kernel and in the replay" \
		"on this run's arrivals and demands Dhall's effect predicts ${dp:-?} heavy misses of ${dj:-?} jobs, not all (load: work ran shorter or releases apart)"
fi
meets_all "Dhall set: light" "$(per_task "$tmp/d" light)"
check_dl_bw "Dhall set" "$tmp/d/summary.json"

"$RUN" run "$DLB_SRC/workloads/suites/cbs-isolation.json" -b kernel -M 100% -o "$tmp/c" \
	>"$tmp/c.out" 2>&1
rc=$?
check "CBS isolation: the run completes, conformance done (exit $rc, $("$J" "$tmp/c/report.json" conformance.status 2>&1))" \
	test "$rc" -eq 0 -a "$("$J" "$tmp/c/report.json" conformance.status 2>/dev/null)" = "done"
grep '^# conformance' "$tmp/c/report.txt" 2>/dev/null | sed 's/^/# /'
misses_all "CBS isolation: hog" "$(per_task "$tmp/c" hog)"
meets_all "CBS isolation: victims" "$(per_task "$tmp/c" victim)"
check_dl_bw "CBS isolation" "$tmp/c/summary.json"
