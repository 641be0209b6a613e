#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run folders: parameters and environment from summary.json, job counts
# and clocks against the rt-app log, the seed's dl.stats against the trace.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 29

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

# the kernel's DL accounting check of the run (summary.json dl_accounting):
# dlbw DIR STATUS AFTER DETAIL REPAIR adds it to DIR's summary
dlbw() {
	local b
	b=$(tr -d '\n\t' <<-EOS
	"dl_accounting": { "status": "$2", "detail": "$4", "kernel": "6.18.44-test",
	 "teardown": "immediate", "fair_server_bw": 52428, "fair_server_source": "assumed",
	 "other_dl_tasks_before": 0, "other_dl_bw_before": 0, "other_dl_tasks_after": 0,
	 "other_dl_bw_after": 0, "release_wait_ns": 0, "settle_ns": 200000000, "repair": "$5",
	 "cpus": [ { "cpu": 0, "total_bw_before": 104856, "total_bw_after": $3,
	 "total_bw_repaired": 104856 }, { "cpu": 1, "total_bw_before": 104856,
	 "total_bw_after": $3, "total_bw_repaired": 104856 } ] },
	EOS
	)
	sed -i "s|\"threads\":|$b \"threads\":|" "$T/$1/summary.json"
}
folder leak complete 100000010 2 8.500000
dlbw leak finding -293602 "CPU 0 total_bw 104856 before, -293602 after" "repaired: rebuilt"
run "$A" -q -m -1 "$T/leak"
expect_eq "a kernel finding fails the verdict: exit 1, named" "$rc $(cat "$T/err")" \
	"1 dlb-analyze: kernel finding on 6.18.44-test: dl_accounting: CPU 0 total_bw 104856 before, -293602 after"
check "report.json: the check, its values and the kernel" grep -q \
	'"dl_accounting": { "status": "finding", "detail": "CPU 0 total_bw 104856 before, -293602 after", "kernel": "6.18.44-test", "teardown": "immediate",.*"cpus": \[ { "cpu": 0, "total_bw_before": 104856, "total_bw_after": -293602, "total_bw_repaired": 104856 }' \
	<(tr -d '\n' <"$T/leak/report.json" | tr -s ' ')
check "report.json: the verdict names the finding" grep -q \
	'"verdict": { "result": "FAIL", "exit_code": 1, .*"checks": .*"name": "dl_accounting", "result": "fail".*"findings": \[ "dl_accounting" \] }' \
	<(tr -d '\n' <"$T/leak/report.json" | tr -s ' ')
check "report.txt: the finding and the repair" eval "grep -q '^# kernel check: dl_accounting FINDING (kernel 6.18.44-test, immediate teardown): CPU 0 total_bw 104856 before, -293602 after$' '$T/leak/report.txt' && grep -q '^# kernel check: dl_accounting repaired: rebuilt$' '$T/leak/report.txt'"

folder leakintr incomplete 100000010 2 8.500000
dlbw leakintr finding -293602 "CPU 0 changed" ""
run "$A" -q -m -1 "$T/leakintr"
expect_eq "a finding outranks incomplete data (the data do not make it up)" "$rc $(cat "$T/err")" \
	"1 dlb-analyze: kernel finding on 6.18.44-test: dl_accounting: CPU 0 changed"

folder bwok complete 100000010 2 8.500000
dlbw bwok ok 104856 "" ""
run "$A" -q -m -1 "$T/bwok"
expect_eq "accounting unchanged: exit 0" "$rc" 0
check "report.txt says it was checked" grep -q \
	'^# kernel check: dl_accounting ok: total_bw 104856 before and after on every CPU (immediate teardown, settled in 200.0 ms)$' "$T/bwok/report.txt"

folder bwnot complete 100000010 2 8.500000
dlbw bwnot not_checked 0 "/sys/kernel/debug/sched/debug: permission denied (needs root)" ""
run "$A" -q -m -1 "$T/bwnot"
expect_eq "not checked: exit 0, said with the reason, no values" \
	"$rc $(grep -c '^# kernel check: dl_accounting NOT CHECKED: /sys/kernel/debug/sched/debug: permission denied (needs root)$' "$T/bwnot/report.txt") $(tr -d '\n' <"$T/bwnot/report.json" | tr -s ' ' | grep -c '"status": "not_checked", .*"settle_ns": null, "repair": null, "cpus": null')" "0 1 1"

# no check at all (a reference run, an older summary): said so in report.json
check "no check in the summary: status absent" grep -q '"status": "absent",' "$T/good/report.json"

# the scheduler's statistics around the run: sched debug and /proc/schedstat snapshots
S=$DLB_SRC/analyzer/tests/fixtures/schedstat
folder kst complete 100000010 2 8.500000
cp "$S/sched_debug.txt" "$T/kst/sched-debug-before.txt"
sed 's/^\(  .dl_nr_running *: \)0/\12/' "$S/sched_debug.txt" >"$T/kst/sched-debug-after.txt"
cp "$S/schedstat_v17.txt" "$T/kst/schedstat-before.txt"
# cpu0 grows by 5 runs (2 ms, 300 us of delay, 7 timeslices), cpu3 not at all
sed 's/^cpu0 0 0 100 10 50 40 1000000 2000 90$/cpu0 0 0 105 10 55 40 3000000 302000 97/' \
	"$S/schedstat_v17.txt" >"$T/kst/schedstat-after.txt"
run "$A" -q -m -1 "$T/kst"
k=$(tr -d '\n' <"$T/kst/report.json" | tr -s ' ' | grep -o '"kernel_stats": {.*')
expect_eq "kernel_stats: both pairs read, schedstat's growth per CPU" \
	"$rc $(echo "$k" | grep -o '"sched_debug": true, "schedstat": true, "schedstat_version": 17, "cpus": \[ { "cpu": 0, "dl_nr_running_before": 0, "dl_nr_running_after": 2, "dl_bw_before": 996147, "total_bw_before": 314571, "total_bw_after": 314571, "rq_cpu_time_ns": 2000000, "run_delay_ns": 300000, "timeslices": 7, "sched_count": 5, "sched_goidle": 0, "ttwu_count": 5, "ttwu_local": 0, "yld_count": 0 }' | wc -l)" "0 1"
check "a CPU in one source only: the other's fields null" bash -c \
	"echo '$k' | grep -q '{ \"cpu\": 3, \"dl_nr_running_before\": null, \"dl_nr_running_after\": null, \"dl_bw_before\": null, \"total_bw_before\": null, \"total_bw_after\": null, \"rq_cpu_time_ns\": 0, '"
check "report.txt: a line per CPU" grep -q \
	'^# kernel stats: cpu 0: dl_nr_running 0 -> 2; on-CPU 2.0 ms, run delay 0.3 ms, 7 timeslices, 5 wakeups (schedstat v17)$' "$T/kst/report.txt"
echo garbage >"$T/kst/schedstat-after.txt"
rm "$T/kst/sched-debug-after.txt"
run "$A" -q -m -1 "$T/kst"
expect_eq "a malformed snapshot: a note, no numbers; a lone one: nothing; exit unchanged" \
	"$rc $(grep -c '^# note: schedstat snapshots not used: .*schedstat-after.txt:1: not a /proc/schedstat file' "$T/kst/report.txt") $(grep -c '"kernel_stats": null' "$T/kst/report.json")" "0 1 1"
