#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Reference runs written as trace.dat (-f dat; include/dlbench/tracedat.h)
# hold what their trace.txt holds: dlb-analyze gives the same report and
# jobs, `trace-cmd report` reads the file without a warning and prints the
# same events, per CPU in the same order, as the text; on several CPUs, with
# markers, with gaps of seconds (time extends), and for a run of one instant.
# shellcheck disable=SC2016  # awk programs and the inner bash's $1..$3
. "$DLB_SRC/tests/lib.sh"
plan 23
RT=$BIN/dlb-rtapp
SIM=$BIN/dlb-sim
WL=$DLB_SRC/workloads/suites
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# report.json without what names the input (its path and the format)
report() { grep -v -E '"(command_line|input|trace_format)":' "$1/report.json"; }

# One line per event, "CPU TIME FLAGS COMM-PID EVENT: PAYLOAD", from trace.txt
# or from `trace-cmd report -N -t -l` (print: tracing_mark_write: X as the
# kernel's tracing_mark_write: X), then sorted by CPU only (sort -s): each
# CPU's events in file order.  Events of one instant on two CPUs are merged
# by CPU number in a trace.dat and in the simulator's order in the text.
events_txt() {
	perl -ne 'next if /^#/;
		/^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\S{5})\s+(\d+\.\d+): ([\w]+): (.*)$/ or die "bad: $_";
		print $3 + 0, " $5 $4 $1-$2 $6: $7\n"' "$1" | sort -s -n -k1,1
}
events_dat() {
	trace-cmd report -N -t -l "$1" 2>/dev/null | perl -ne 'next if /^cpus=/;
		/^\s*(.+)-(\d+)\s+(\d+)(\S{5})\s+(\d+\.\d+): ([\w]+):\s+(.*)$/ or die "bad: $_";
		my ($c, $pid, $cpu, $fl, $ts, $ev, $p) = ($1, $2, $3, $4, $5, $6, $7);
		($ev, $p) = ($1, $2) if $ev eq "print" && $p =~ /^(\w+): (.*)$/;
		print "$cpu $ts $fl $c-$pid $ev: $p\n"' | sort -s -n -k1,1
}

# run NAME CPUS WORKLOAD [dlb-rtapp options]: both formats, both analyzed
run() {
	local n=$1 m=$2 w=$3 f
	shift 3
	for f in text dat; do
		"$RT" -q -b reference -m "$m" -f "$f" -o "$T/$n-$f" "$@" "$w" >/dev/null || return 1
		"$BIN/dlb-analyze" "$T/$n-$f" >/dev/null 2>&1
		echo $? >"$T/$n-$f.rc"
	done
}

# same_analysis NAME: the same report and verdict, the same jobs: rows equal,
# in the same order of end times (equal ends on two CPUs: see events_txt)
same_analysis() {
	local tx=$T/$1-text dx=$T/$1-dat
	cmp -s "$tx.rc" "$dx.rc" && [ -s "$tx/report.json" ] || return 1
	diff <(report "$tx") <(report "$dx") >&2 || return 1
	diff <(sort "$tx/jobs.csv") <(sort "$dx/jobs.csv") >&2 || return 1
	diff <(end_times "$tx/jobs.csv") <(end_times "$dx/jobs.csv") >&2
}

end_times() {
	csv_awk 'FNR > 1 { print v("end_ns") }' "$1"
}

# same_events NAME: trace-cmd reads it silently, with the text's events
same_events() {
	local txt=$T/$1-text/trace.txt dat=$T/$1-dat/trace.dat err
	err=$(trace-cmd report "$dat" 2>&1 >/dev/null)
	[ -z "$err" ] || { echo "trace-cmd report: $err" >&2; return 1; }
	diff <(events_txt "$txt") <(events_dat "$dat") >&2
}

if ! command -v trace-cmd >/dev/null; then
	skip_rest "trace-cmd not installed"
	exit 0
fi

# several CPUs, migrations, markers
run g2 2 "$WL/edf-global-2cpu.json" -d 1s
check "2 CPUs: trace.dat written, no trace.txt" test -s "$T/g2-dat/trace.dat" -a ! -e "$T/g2-dat/trace.txt"
check "2 CPUs: same analysis" same_analysis g2
check "2 CPUs: same events" same_events g2
expect_eq "2 CPUs: the analyzer read a trace.dat" \
	"$(grep -o '"trace_format": "[^"]*"' "$T/g2-dat/report.json")" '"trace_format": "trace.dat"'
n=$(grep -c 'dlb_job: ' "$T/g2-text/trace.txt")
check "2 CPUs: markers in both ($n)" test "$n" -gt 100 -a "$(events_dat "$T/g2-dat/trace.dat" | grep -c 'dlb_job: ')" -eq "$n"
check "2 CPUs: migrations in both" grep -q sched_migrate_task <(events_dat "$T/g2-dat/trace.dat")

run m4 4 "$WL/migrate-4.json" -d 2s
check "4 CPUs: same analysis" same_analysis m4
check "4 CPUs: same events" same_events m4
check "4 CPUs: jobs ending together on two CPUs" \
	test "$(end_times "$T/m4-text/jobs.csv" | sort | uniq -d | wc -l)" -gt 0

# a CPU idle all the run (cpus-4 on 8): both readers count the same CPUs
run c8 8 "$WL/cbs-isolation-4.json" -d 1s
check "8 CPUs, some idle: same analysis" same_analysis c8
check "8 CPUs, some idle: same events" same_events c8

# gaps of about a second between a CPU's events: 27-bit deltas need time extends
cat >"$T/slow.json" <<'EOF'
{
	"global": { "duration": 6 },
	"tasks": {
		"slow": { "policy": "SCHED_DEADLINE", "dl-runtime": 20000, "dl-deadline": 1000000,
			  "dl-period": 1300000, "run": 10000,
			  "timer": { "ref": "t", "period": 1300000 } },
		"slower": { "policy": "SCHED_DEADLINE", "dl-runtime": 20000, "dl-deadline": 2000000,
			    "dl-period": 2100000, "run": 15000,
			    "timer": { "ref": "u", "period": 2100000 } }
	}
}
EOF
run slow 2 "$T/slow.json"
check "gaps of seconds: same analysis" same_analysis slow
check "gaps of seconds: same events" same_events slow
check "gaps of seconds: the file's pages hold them (one page a CPU)" \
	test "$(stat -c %s "$T/slow-dat/trace.dat")" -le $((4096 * 4))
check "gaps of seconds: last event after 5 s" \
	awk '$2 > 5 { f = 1 } END { exit !f }' <(events_dat "$T/slow-dat/trace.dat")

# a run of one instant: a few events at time 0
run short 2 "$WL/edf-global-2cpu.json" -d 1ns
check "one instant: same analysis" same_analysis short
check "one instant: same events" same_events short
check "one instant: events at 0 and 1 ns only" \
	awk '{ n++; if ($2 > 0.000000001) b = 1 } END { exit !(n > 0 && !b) }' \
	<(events_dat "$T/short-dat/trace.dat")

# dlb-sim -f dat: the same events as its trace.txt
"$SIM" -m 3 --no-timing --runtime-events -d 300ms -o "$T/sim-text" "$WL/migrate-4.json" &&
	"$SIM" -m 3 --no-timing --runtime-events -d 300ms -f dat -o "$T/sim-dat" "$WL/migrate-4.json"
check "dlb-sim -f dat: same events (sched_stat_runtime too)" same_events sim
check "dlb-sim -f dat: byte-identical rerun" bash -c '"$1" -m 3 --no-timing --runtime-events -d 300ms -f dat -o "$2/again" "$3" && cmp "$2/again/trace.dat" "$2/sim-dat/trace.dat"' _ "$SIM" "$T" "$WL/migrate-4.json"

out=$("$SIM" -f json "$WL/migrate-4.json" 2>&1); rc=$?
expect_eq "dlb-sim: bad --format" "$out:$rc" "dlb-sim: --format: 'json' is neither text nor dat (try --help):2"
out=$("$RT" -f dat "$WL/migrate-4.json" 2>&1); rc=$?
expect_eq "dlb-rtapp: --format is the reference's" "$rc:$(tail -1 <<<"$out")" \
	"2:dlb-rtapp: --format: the reference backend's trace; a kernel run's is dlb-record's"
mkdir "$T/ro" && chmod 500 "$T/ro"
out=$("$SIM" -f dat -o "$T/ro/x" "$WL/migrate-4.json" 2>&1); rc=$?
if [ "$(id -u)" = 0 ]; then
	skip "unwritable folder refused" "root writes anywhere"
else
	expect_eq "unwritable folder refused" "$rc" 3
fi
