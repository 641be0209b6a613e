#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run folders: parameters and environment from summary.json, job counts
# and clocks against the rt-app log, the seed's dl.stats against the trace.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 16

# folder DIR STATUS LOGSTART ROWS RORUN_MAX: miss.txt without its task marker
# (the parameters must come from summary.json), a log, a seed-style snapshot
folder() {
	local dir=$T/$1 i
	mkdir -p "$dir"
	grep -v 'dlb_task:' "$D/miss.txt" >"$dir/trace.txt"
	cat >"$dir/summary.json" <<-EOS
	{ "version": 1, "tool_version": "0.1.0", "backend": "kernel", "clock": "mono",
	  "workload": "two.json", "cpus": 2, "calibration_ns_per_loop": 30.0,
	  "start_ns": 100000000000, "end_ns": 100021000000, "status": "$2",
	  "cmdline": "dlb-rtapp two.json",
	  "threads": [ { "name": "dl_a", "instance": 0, "index": 0, "tid": 100, "policy": 6,
	    "priority": 0, "runtime_ns": 2000000, "deadline_ns": 10000000,
	    "period_ns": 10000000, "jobs": 2, "misses": 1, "max_lateness_ns": 530000,
	    "log": "rt-app-dl_a-0.log", "sched": "rt-app-dl_a-0.sched" } ] }
	EOS
	{
		echo "# Policy : SCHED_DEADLINE"
		echo "#idx	    perf	     run	  period	     start	       end	  rel_st	   slack	c_duration	  c_period	  wu_lat"
		for ((i = 0; i < $4; i++)); do
			printf '%4d %8d %8d %8d %15d %15d %15d %10d %10d %10d %10d\n' \
				0 1000 1000 10000 $(($3 + i * 10000)) $(($3 + i * 10000 + 3000)) \
				$((i * 10000)) 7000 1000 10000 10
		done
	} >"$dir/rt-app-dl_a-0.log"
	cat >"$dir/rt-app-dl_a-0.sched" <<-EOS
	dl_a (100, #threads: 1)
	---------------------------------------------------------
	se.sum_exec_runtime                :            12.540000
	dl.stats.last_dmiss                :             0.530000
	dl.stats.dmiss_max                 :             0.530000
	dl.stats.last_rorun                :             8.500000
	dl.stats.rorun_max                 :             $5
	nr_switches                        :                    3
	policy                             :                    6
	prio                               :                   -1
	EOS
}

folder good complete 100000010 2 8.500000
run "$A" "$T/good"
expect_eq "summary, log and snapshot agree: exit 1 for the miss" "$rc" 1
check "parameters from summary.json" grep -q '"source": "given",' "$T/good/report.json"
check "backend from summary.json" grep -q '"backend": "kernel",' "$T/good/report.json"
check "overrun found with those parameters" grep -q '^dl_a .* 1      1       100.0      1110.0$' "$T/out"
check "dl.stats quoted in a note" grep -q \
	'^# note: task dl_a (tid 100): kernel dl.stats dmiss_max 530000 ns, rorun_max 8500000 ns; trace max lateness 530000 ns, max overrun 8500000 ns$' "$T/out"
check "data complete" grep -q '^# data quality: complete$' "$T/out"

folder more complete 100000010 3 8.500000
run "$A" -q "$T/more"
expect_eq "log has more jobs than the trace: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: missing_jobs (task dl_a (tid 100): 2 jobs in the trace, 3 in its log)"

folder clock complete 5000000 2 8.500000
run "$A" -q "$T/clock"
expect_eq "log on another clock: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: clock_mismatch (task dl_a (tid 100): first logged job at 5000000000 ns, the trace covers 100000000000..100020600000 ns)"

folder rorun complete 100000010 2 0.000000
run "$A" "$T/rorun"
expect_eq "kernel saw no overrun, the trace did: a warning, exit stays 1" "$rc" 1
check "the disagreement is named" grep -q \
	'^# data quality: warning: schedstat_disagree x1: .*(tid 100: kernel rorun_max 0 ns, trace 1 overruns)$' "$T/out"

folder intr incomplete 100000010 2 8.500000
run "$A" -q "$T/intr"
expect_eq "interrupted run: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: run incomplete (summary.json: status incomplete)"

folder broken complete 100000010 2 8.500000
echo '{ "version": ' >"$T/broken/summary.json"
run "$A" -m -1 "$T/broken"
expect_eq "unreadable summary.json: a note, and no parameters (dl_a has none)" \
	"$rc $(grep -c '^# note: summary.json not used: ' "$T/out")" "0 1"

# the recorder's account: events it saw lost, the machine
folder rec complete 100000010 2 8.500000
printf 'clock=mono\nkernel=6.18.0-test\narch=x86_64\nlost_events=0\nstatus=complete\n' >"$T/rec/record.txt"
run "$A" -q -m -1 "$T/rec"
expect_eq "record.txt complete: exit 0" "$rc" 0
check "kernel from record.txt" grep -q '"kernel": "6.18.0-test",' "$T/rec/report.json"
sed -i 's/lost_events=0/lost_events=5/' "$T/rec/record.txt"
run "$A" -q -m -1 "$T/rec"
expect_eq "record.txt counted lost events: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: lost_events (record.txt: the recorder counted 5 lost events)"

# summary.json alone (no log): it says 5 jobs began, the trace has 2
folder sum complete 100000010 2 8.500000
rm "$T/sum/rt-app-dl_a-0.log"
sed -i 's/"jobs": 2,/"jobs": 5,/' "$T/sum/summary.json"
run "$A" -q -m -1 "$T/sum"
expect_eq "summary counts more jobs than the trace: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: missing_jobs (task dl_a (tid 100): 2 jobs in the trace, 5 begun says summary.json)"
