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
# the task's jobs compared on both sides; "keeps its deadlines" is about the
# jobs the algorithm promises their deadline (per_job's ontime set: within
# their runtime, woken on time, their task idle, no fair server time in
# their window): the replay misses at most
# 5 % of them, and of the jobs the kernel alone misses, at most 5 % of them
# are not explained by an overrun.  A job of 3 ms of work against 3.5 ms of
# runtime was charged more than its runtime 7 times in 50 on this busy VM
# (a vCPU descheduled mid-job is charged to it) and throttled, on the kernel
# and in the replay: 4 replay misses in 50 failed the check once when it
# counted every job.
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

. "$(dirname "$0")/lib-conform-sets.sh"

# host_meets WHAT DIR PREFIX: meets_ontime on the tasks PREFIX (the replay
# misses <= 5 %, unexplained kernel-only misses <= 5 %), or a counted skip
# when the host stopped a CPU (stalls.csv, docs/analyzer.md "CPU stalls")
# for at least the tasks' shortest relative deadline: a whole deadline of
# the set's CPU time gone, the jobs after it pay the backlog on both sides
# (a 106 ms stall of CPU 1 left the heavy job running on its past deadline
# and 5 of the 36 light jobs judged missed in the replay, 3 on the kernel)
host_meets() {
	local st dl
	# shellcheck disable=SC2016 # awk's programs
	st=$(csv_awk 'FNR > 1 && v("to_ns") - v("from_ns") > m { m = v("to_ns") - v("from_ns"); c = v("cpu") }
		END { printf "%.0f %s\n", m, c }' "$2/stalls.csv" 2>/dev/null)
	# shellcheck disable=SC2016
	dl=$(awk -v p="$3" '$1 == "task" && index($8, p) == 1 && (m == "" || $5 < m + 0) { m = $5 }
		END { printf "%.0f\n", m }' "$2/jobs-trace.txt" 2>/dev/null)
	if [ "${st%% *}" -gt 0 ] 2>/dev/null && [ "${dl:-0}" -gt 0 ] && [ "${st%% *}" -ge "$dl" ]; then
		skip "$1: keeps its deadlines" \
			"the host stopped CPU ${st#* } for $((${st%% *} / 1000)) us, no shorter than the tasks' relative deadline ($((dl / 1000)) us): the jobs after it pay the backlog"
		return
	fi
	meets_ontime "$1" "$2" "$3" 10 5 5
}

conform_dhall_wl "$tmp/dhall.json"
"$RUN" run "$tmp/dhall.json" -b kernel -M 100% -o "$tmp/d" >"$tmp/d.out" 2>&1
rc=$?
check "Dhall set: the run completes, conformance done (exit $rc, $("$J" "$tmp/d/report.json" conformance.status 2>&1))" \
	test "$rc" -eq 0 -a "$("$J" "$tmp/d/report.json" conformance.status 2>/dev/null)" = "done"
grep '^# conformance' "$tmp/d/report.txt" 2>/dev/null | sed 's/^/# /'
dhall_heavy "Dhall set" "$tmp/d"
host_meets "Dhall set: light" "$tmp/d" light
check_dl_bw "Dhall set" "$tmp/d/summary.json"

"$RUN" run "$DLB_SRC/workloads/suites/cbs-isolation.json" -b kernel -M 100% -o "$tmp/c" \
	>"$tmp/c.out" 2>&1
rc=$?
check "CBS isolation: the run completes, conformance done (exit $rc, $("$J" "$tmp/c/report.json" conformance.status 2>&1))" \
	test "$rc" -eq 0 -a "$("$J" "$tmp/c/report.json" conformance.status 2>/dev/null)" = "done"
grep '^# conformance' "$tmp/c/report.txt" 2>/dev/null | sed 's/^/# /'
misses_all "CBS isolation: hog" "$(per_task "$tmp/c" hog)"
host_meets "CBS isolation: victims" "$tmp/c" victim
check_dl_bw "CBS isolation" "$tmp/c/summary.json"
