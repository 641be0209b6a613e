#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-analyze end to end on hand-built text traces (analyzer/tests/data):
# exact table rows, jobs.csv, exit codes for misses, lost events, no
# sched_switch, no events, garbage lines; compare; bad inputs, exact errors.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
plan 40

# --- a miss of known lateness, a migration of known delay, inversion ---
run "$A" -o "$T/miss" "$D/miss.txt"
expect_eq "miss: exit code 1 (1 miss > --max-misses 0)" "$rc" 1
expect_eq "miss: one-line reason on stderr" "$(cat "$T/err")" \
	"dlb-analyze: 1 of 2 jobs missed (allowed: 0)"
expect_eq "miss: table row" "$(grep '^dl_a ' "$T/out")" \
	"dl_a                 100       2      1       530.0      3100.0     10530.0     10530.0       1      1       100.0      1110.0"
expect_eq "miss: report.txt is the table" "$(grep '^dl_a ' "$T/miss/report.txt")" \
	"$(grep '^dl_a ' "$T/out")"
expect_eq "miss: jobs.csv" "$(tail -n +2 "$T/miss/jobs.csv")" \
"100,dl_a,0,100000000000,100000010000,100003100000,100010000000,marker,-6900000,3100000,10000,2000000,0,,1,1,0,1,
100,dl_a,1,100010000000,100010030000,100020530000,100020000000,marker,530000,10530000,30000,10500000,1,8500000,0,0,1,1,"
check "miss: report.json versioned" grep -q '"report_version": 2,' "$T/miss/report.json"
check "miss: report.json lateness max" grep -q '"max": 530000,' "$T/miss/report.json"
check "miss: report.json inversion" grep -q '"inversion_ns": 1110000,' "$T/miss/report.json"
check "miss: report.json migration delay p99" \
	grep -A2 -q '"migration_delay_ns": {' "$T/miss/report.json"
expect_eq "miss: per-CPU line" "$(grep '^1 ' "$T/out")" \
	"1         56.0%    33.8%    10.2%         0.0         5       1       0"
run "$A" -q -m 1 "$D/miss.txt"
expect_eq "--max-misses 1: exit 0" "$rc" 0
run "$A" -q --max-misses=-1 "$D/miss.txt"
expect_eq "--max-misses -1: exit 0" "$rc" 0

# --- data quality ---
sed '/100.010000: sched_wakeup/a CPU:1 [LOST 12 EVENTS]' "$D/miss.txt" >"$T/lost.txt"
run "$A" -q "$T/lost.txt"
expect_eq "lost events: exit 4" "$rc" 4
expect_eq "lost events: reason" "$(cat "$T/err")" \
	"dlb-analyze: incomplete data: lost_events (CPU 1 lost events at 100010000000 ns)"
run "$A" -q --accept lost_events "$T/lost.txt"
expect_eq "lost events accepted: the miss decides (1)" "$rc" 1
run "$A" -q -A -m -1 "$T/lost.txt"
expect_eq "--accept-incomplete: exit 0" "$rc" 0
run "$A" "$T/lost.txt"
check "lost events named in the table" \
	grep -q '^# data quality: INCOMPLETE: lost_events x12: ' "$T/out"
grep -v sched_switch "$D/miss.txt" >"$T/nosw.txt"
run "$A" -q "$T/nosw.txt"
expect_eq "no sched_switch: exit 4 and why" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: no_sched_switch (7 events, none of them sched_switch)"
printf '# tracer: nop\n#\n' >"$T/empty.txt"
run "$A" -q "$T/empty.txt"
expect_eq "empty trace: exit 4 and why" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: no_events (not one event in the trace)"
sed '2a # entries-in-buffer/entries-written: 15/15   #P:4' "$D/miss.txt" >"$T/p4.txt"
run "$A" -q -m -1 "$T/p4.txt"
expect_eq "CPUs without events: exit 4, named" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: cpus_without_events (2 of 4 CPUs recorded no event (CPU 2, 3))"
sed '/100.003100/a this is not a trace line' "$D/miss.txt" >"$T/garbage.txt"
run "$A" -q "$T/garbage.txt"
expect_eq "garbage line: exit 4 and where" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: bad_lines (first at $T/garbage.txt:18)"

# --- compare: job 1 on time in the base, late in the new run ---
sed 's/100.020530: tracing_mark_write/100.012530: tracing_mark_write/' "$D/miss.txt" >"$T/good.txt"
run "$A" -q -o "$T/good" "$T/good.txt"
expect_eq "good run: exit 0" "$rc" 0
run "$A" compare "$T/good" "$T/miss"
expect_eq "compare: injected regression caught (exit 1)" "$rc" 1
expect_eq "compare: misses worse" "$(grep '^dl_a  *misses ' "$T/out")" \
	"dl_a             misses                             0            1  0%,0               worse"
run "$A" compare "$T/good/report.json" "$T/good"
expect_eq "compare: identical pair not flagged (exit 0)" "$rc" 0
run "$A" compare -t misses=1 -t lateness_max=20ms -t response_p99=100ms \
	-t response_max=100ms -t exec_p99=100ms -t overruns=1 -t inversion_per_job=1ms \
	"$T/good" "$T/miss"
expect_eq "compare: thresholds wide enough pass (exit 0)" "$rc" 0

# --- bad inputs: one line, exit 2 ---
run "$A" "$T/nonexistent"
expect_eq "missing file" "$rc $(cat "$T/err")" \
	"2 dlb-analyze: $T/nonexistent: cannot open: no such file or directory"
mkdir "$T/emptydir"
run "$A" "$T/emptydir"
expect_eq "folder without a trace" "$rc $(cat "$T/err")" \
	"2 dlb-analyze: $T/emptydir: no trace in this folder (trace.dat, trace.txt, or another trace file)"
run "$A" --bogus "$D/miss.txt"
expect_eq "unknown option" "$rc $(cat "$T/err")" \
	"2 dlb-analyze: unknown option '--bogus' (try --help)"
run "$A" -a nope "$D/miss.txt"
expect_eq "unknown quality flag" "$rc $(cat "$T/err")" \
	"2 dlb-analyze: --accept: unknown data-quality flag 'nope' (try --help)"
run "$A" compare -t speed=1 "$T/good" "$T/miss"
expect_eq "unknown compare metric" "$rc $(cat "$T/err")" \
	"2 dlb-analyze: --threshold 'speed=1': unknown metric 'speed'"
run "$A" compare "$T/good" "$D/miss.txt"
expect_eq "compare: a trace is not a report" "$rc" 2
run "$A" --help
check "--help lists the exit codes" grep -q '^  4  incomplete data' "$T/out"

# a cut trace.dat: incomplete data (4), as README.md's table and docs/trace-formats.md say
head -c 40000 "$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat" > "$T/cut.dat"
run "$A" -q "$T/cut.dat"
expect_eq "truncated trace.dat: exit 4, one line naming the file" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: $T/cut.dat: truncated trace.dat: CPU 0 data (28672 bytes at 24576) ends past the end of the file (40000 bytes)"

# --- a full disk under each output file: exit 3, one line naming it ---
# (report.json said "cannot write the json report", naming no file)
for f in report.txt verdict.txt report.json jobs-trace.txt; do
	mkdir -p "$T/full-$f"
	ln -s /dev/full "$T/full-$f/$f"
	run "$A" -q -o "$T/full-$f" "$D/miss.txt"
	expect_eq "disk full under $f: exit 3, the file named" "$rc $(cat "$T/err")" \
		"3 dlb-analyze: $T/full-$f/$f: no space left on device"
done
# another tool's jobs.csv (here: not ours) is kept aside, ours written beside it
mkdir -p "$T/full-jobs"
ln -s /dev/full "$T/full-jobs/jobs.csv"
run "$A" -q -m -1 -o "$T/full-jobs" "$D/miss.txt"
expect_eq "a foreign jobs.csv is kept as jobs.orig.csv" "$rc $(test -L "$T/full-jobs/jobs.orig.csv" && echo kept)" "0 kept"
# the table on a full stdout: exit 3 and why (it exited 0 with nothing written)
"$A" -m -1 "$D/miss.txt" >/dev/full 2>"$T/err"; rc=$?
expect_eq "stdout full: exit 3, said" "$rc $(cat "$T/err")" "3 dlb-analyze: stdout: no space left on device"
