#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Against the reference scheduler (dlb-sim): it writes its own per-job
# numbers; the analyzer, from the trace alone, must find the same jobs with
# the same release, begin, end, deadline and execution time.  The reference
# is global EDF up to its push/pull points, so on 2 CPUs no ready job waits
# behind a later deadline or an idle CPU: inversion 0.  Overloaded (admission
# off), both count the same misses.  compare, through the whole pipeline:
# the two CPU-selection structures schedule alike (same), a context-switch
# overhead injected into the simulator is a regression.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 14
if [ ! -x "$BIN/dlb-sim" ]; then
	skip_rest "dlb-sim not built"
	exit 0
fi

# workload NAME UTIL_A_RUN_US UTIL_B_RUN_US
# "unique..." timer refs: one timer per thread (rt-app); a shared ref would
# release the instances in turn, each every 3 (or 2) periods.
workload() {
	cat >"$T/$1.json" <<-EOS
	{
		"tasks" : {
			"a" : { "policy" : "SCHED_DEADLINE", "instance" : 3, "dl-runtime" : $2,
				"dl-period" : 10000, "dl-deadline" : 10000, "run" : $2,
				"timer" : { "ref" : "unique_a", "period" : 10000 } },
			"b" : { "policy" : "SCHED_DEADLINE", "instance" : 2, "dl-runtime" : $3,
				"dl-period" : 20000, "dl-deadline" : 15000, "run" : $3,
				"timer" : { "ref" : "unique_b", "period" : 20000 } }
		},
		"global" : { "duration" : 1, "calibration" : 100 }
	}
	EOS
}

# rows of the reference's jobs.csv (kept as jobs.orig.csv) our jobs.csv does not match exactly
# (release, begin, end, deadline; our exec against its run time)
mismatches() {
	csv_awk 'FNR == 1 { next }
		NR == FNR { k = v("tid") "," v("job")
			ref[k] = v("release") "," v("begin") "," v("end") "," v("deadline") "," v("run"); n++; next }
		{ k = v("tid") "," v("job")
		  if ((k in ref) && ref[k] == v("release_ns") "," v("begin_ns") "," v("end_ns") "," \
		      v("deadline_ns") "," v("exec_ns")) ok++ }
		END { print n - ok }' "$1/jobs.orig.csv" "$1/jobs.csv"
}

workload fit 4000 6000		# 3 x 0.4 + 2 x 0.3 = 1.8 CPUs
run "$BIN/dlb-sim" -m 2 --no-timing -o "$T/fit" "$T/fit.json"
expect_eq "dlb-sim: exit 0" "$rc" 0
run "$A" "$T/fit"
expect_eq "analyze: exit 0" "$rc $(cat "$T/err")" "0 "
expect_eq "same number of jobs" "$(($(wc -l <"$T/fit/jobs.csv") - 1))" \
	"$(($(wc -l <"$T/fit/jobs.orig.csv") - 1))"
expect_eq "every job: same release, begin, end, deadline, execution time" \
	"$(mismatches "$T/fit")" 0
expect_eq "G-EDF reference: no priority inversion" \
	"$(grep -o '"inversion_ns": [0-9]*' "$T/fit/report.json" | sort -u)" '"inversion_ns": 0'
check "and it ran the CPUs at 90 %" grep -q '^0         90.0%' "$T/out"
expect_eq "its ops.csv carried: one decision row per operation" \
	"$(awk '$2 == "heap" && $1 ~ /^(push|pull|find|set|select)$/' "$T/out" | wc -l)" 5
expect_eq "its sched/<tid>.sched dl.stats read, and they agree (no warning)" \
	"$(grep -c '^# note: task .* kernel dl.stats dmiss_max 0 ns, rorun_max 0 ns;' "$T/out") $(grep -c schedstat_disagree "$T/out")" "5 0"

workload over 6000 8000		# 3 x 0.6 + 2 x 0.4 = 2.6 CPUs: misses
run "$BIN/dlb-sim" -m 2 -a off --no-timing -o "$T/over" "$T/over.json"
expect_eq "overloaded dlb-sim: exit 0" "$rc" 0
run "$A" -m -1 "$T/over"
ref_miss=$(csv_awk 'FNR > 1 && v("end") + 0 > v("deadline") + 0 { n++ } END { print n + 0 }' \
	"$T/over/jobs.orig.csv")
our_miss=$(grep -m1 -o '"misses": [0-9]*' "$T/over/report.json" | awk '{ print $2 }')
check "overloaded: misses found ($our_miss)" test "$our_miss" -gt 0
expect_eq "overloaded: the reference's misses, no more, no fewer" "$our_miss" "$ref_miss"

run "$BIN/dlb-sim" -m 2 -s linear --no-timing -o "$T/linear" "$T/fit.json"
run "$A" -q "$T/linear"
run "$A" compare "$T/fit" "$T/linear"
expect_eq "compare heap vs linear CPU selection: same schedule, exit 0" "$rc" 0
run "$BIN/dlb-sim" -m 2 --ctx-switch=100us --no-timing -o "$T/slow" "$T/fit.json"
run "$A" -q -m -1 "$T/slow"
run "$A" compare "$T/fit" "$T/slow"
expect_eq "compare with 100 us context switches injected: regression, exit 1" "$rc" 1
check "response time named worse" grep -q '^a-0  *response_max .* worse$' "$T/out"
