#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Traces recorded on this machine (the input half's fixtures).  Around
# Debian's rt-app 1.0: the analyzer finds, per thread, one job more than the
# thread's log has rows (rt-app logs no row for the job running at
# shutdown), no misses, releases inferred from wake-ups; the trace.dat and
# its `trace-cmd report -N` text give the same job counts.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
# valid recordings only: fast malloc unwinding under SANITIZE (tests/lib.sh)
asan_fast_unwind
plan 16
if [ ! -f "$F/rtapp10.dat" ]; then
	skip_rest "fixture analyzer/tests/fixtures/rtapp10.dat not in this tree"
	exit 0
fi
# shellcheck disable=SC2054  # the commas are dlb-analyze -p's NAME=RUNTIME,DEADLINE,PERIOD
P=(-p dl_a=2ms,10ms,10ms -p dl_b=3ms,15ms,20ms)
rows() { grep -vc '^#' "$1"; }

"$A" "${P[@]}" -o "$T/dat" "$F/rtapp10.dat" >"$T/out" 2>"$T/err"
expect_eq "trace.dat: exit 0" "$?" 0
jobs_of() { awk -v t="$2" '$1 == t { print $3 }' "$1"; }
expect_eq "dl_a: log rows + 1 jobs" "$(jobs_of "$T/out" dl_a)" \
	"$(( $(rows "$F/rtapp10.log/rt-dl_a-0.log") + 1 ))"
expect_eq "dl_b: log rows + 1 jobs" "$(jobs_of "$T/out" dl_b)" \
	"$(( $(rows "$F/rtapp10.log/rt-dl_b-1.log") + 1 ))"
expect_eq "no misses" "$(awk '$1 == "dl_a" || $1 == "dl_b" { s += $4 } END { print s }' "$T/out")" 0
check "releases inferred, and said so" grep -q "^# note: task dl_a (tid 16395): rt-app-1.0 markers carry no release" "$T/out"
if [ -f "$F/rtapp10.report-N.txt.gz" ]; then
	gzip -dc "$F/rtapp10.report-N.txt.gz" >"$T/report-N.txt"
	"$A" "${P[@]}" "$T/report-N.txt" >"$T/out2" 2>"$T/err2"
	expect_eq "text of the same recording: exit 0" "$?" 0
	expect_eq "text of the same recording: same job counts" \
		"$(jobs_of "$T/out2" dl_a) $(jobs_of "$T/out2" dl_b)" \
		"$(jobs_of "$T/out" dl_a) $(jobs_of "$T/out" dl_b)"
	"$A" -q "${P[@]}" -o "$T/txt" "$T/report-N.txt" >/dev/null 2>&1
	"$A" compare "$T/dat" "$T/txt" >"$T/cmp" 2>&1
	expect_eq "text vs trace.dat: compare finds nothing worse either way (µs vs ns)" \
		"$? $("$A" compare "$T/txt" "$T/dat" >/dev/null 2>&1; echo $?)" "0 0"
else
	for _ in 1 2 3; do
		skip "text of the same recording" "fixture rtapp10.report-N.txt.gz not in this tree"
	done
fi

# the folder rt-app 1.0 leaves (logs, no summary.json): logs matched by thread name
mkdir "$T/run"
cp "$F/rtapp10.dat" "$T/run/trace.dat"
cp "$F"/rtapp10.log/*.log "$T/run/"
run "$A" -q "${P[@]}" "$T/run"
expect_eq "rt-app folder: logs agree, exit 0" "$rc $(cat "$T/err")" "0 "
tail -n 3 "$F/rtapp10.log/rt-dl_b-1.log" >>"$T/run/rt-dl_b-1.log"
run "$A" -q "${P[@]}" "$T/run"
expect_eq "rt-app folder: a log with more jobs than the trace: exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: missing_jobs (task dl_b (tid 16396): 51 jobs in the trace, 53 in its log)"

# without parameters rt-app 1.0's jobs have no deadline: misses not judged,
# which the table, report.json and the verdict say (not "0 misses, ok")
run "$A" -o "$T/nop" "$F/rtapp10.dat"
expect_eq "no -p: exit 4, misses_not_judged named" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: misses_not_judged (task dl_a (tid 16395): 101 of 101 jobs without a deadline; give its parameters: -p dl_a=RUNTIME,DEADLINE,PERIOD)"
expect_eq "no -p: the table's misses column says '-', not 0" \
	"$(awk '$1 == "dl_a" || $1 == "dl_b" { printf "%s ", $4 }' "$T/out")" "- - "
check "no -p: report.json flags misses_not_judged, data not complete" grep -q \
	'"name": "misses_not_judged"' "$T/nop/report.json"
run "$A" -q -m -1 "$F/rtapp10.dat"
expect_eq "no -p, -m -1 (no miss verdict asked): exit 0" "$rc $(cat "$T/err")" "0 "

# a recording that lost events (a stray trace_pipe_raw reader)
run "$A" -q -m -1 "$F/lost.dat"
expect_eq "lost.dat: exit 4" "$rc" 4
check "lost.dat: the loss is named" grep -q '^dlb-analyze: incomplete data: lost_events (CPU 1 lost events at ' "$T/err"
