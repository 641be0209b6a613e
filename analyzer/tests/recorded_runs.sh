#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run folders recorded on this machine by our recorder (fixtures/record.sh
# says how; fixtures/README.md the kernel and command lines):
#   gen3/        ./run.sh run gen3.json -b kernel -d 500ms: dlb-record around
#                dlb-rtapp, 3 SCHED_DEADLINE tasks (trace.dat, record.txt,
#                summary.json, the rt-app logs, .sched snapshots)
#   rtapp10rec/  dlb-record -T around Debian's rt-app 1.0 (rtapp10.json):
#                trace.dat, record.txt, rt-app's logs
# Asserted: the job counts equal the logs' rows and summary.json's exactly;
# the golden report (*.expected.txt) and jobs.csv (*.jobs.csv.gz) exactly;
# the text of the same recording (`trace-cmd report -t`, *.report-t.txt.gz)
# gives the same report and the same jobs.csv as its trace.dat; the trace.dat
# header's wrong clock ("local": trace-cmd extract of an instance) loses to
# record.txt's and is named in a note, to the run marker's with a warning.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
# valid recordings only: fast malloc unwinding under SANITIZE (tests/lib.sh)
asan_fast_unwind
plan 24
# shellcheck disable=SC2054  # the commas are dlb-analyze -p's NAME=RUNTIME,DEADLINE,PERIOD
P10=(-p dl_a=2ms,10ms,10ms -p dl_b=3ms,15ms,20ms)
rows() { grep -vc '^#' "$1"; }
jobs_of() { awk -v t="$2" '$1 == t { print $3 }' "$1"; }
body() { grep -v '^# \(dlb-analyze\|input:\|command:\)' "$1"; }
# without the note only a trace.dat gets (its header's clock)
same() { grep -v '^# note: the trace file says clock' "$1"; }

# ---- gen3: dlb-rtapp through run.sh ----
cp -r "$F/gen3" "$T/gen3"
run "$A" -q -o "$T/g" "$T/gen3"
expect_eq "gen3: exit 0" "$rc $(cat "$T/err")" "0 "
sjobs=$(grep -o '"jobs": [0-9]*' "$F/gen3/summary.json" | awk '{ printf "%s ", $2 }')
lrows=$(for t in dl_a-0 dl_b-1 dl_c-2; do printf '%s ' "$(rows "$F/gen3/rt-app-$t.log")"; done)
tjobs=$(for t in dl_a-0 dl_b-1 dl_c-2; do printf '%s ' "$(jobs_of "$T/g/report.txt" "$t")"; done)
expect_eq "gen3: trace jobs = log rows" "$tjobs" "$lrows"
expect_eq "gen3: trace jobs = summary.json jobs" "$tjobs" "$sjobs"
expect_eq "gen3: jobs.csv has a row per job" "$(($(wc -l <"$T/g/jobs.csv") - 1))" \
	"$(echo "$tjobs" | awk '{ print $1 + $2 + $3 }')"
check "gen3: golden report" diff <(body "$T/g/report.txt") "$F/gen3.expected.txt"
check "gen3: golden jobs.csv" diff <(gzip -dc "$F/gen3.jobs.csv.gz") "$T/g/jobs.csv"
# the generator's own worst lateness (measured after its end marker) within 50 µs
lat=$(grep -o '"max_lateness_ns": -*[0-9]*' "$F/gen3/summary.json" | awk '{ printf "%s ", $2 }')
ours=$(csv_awk 'FNR > 1 { k = v("name"); l = v("lateness_ns"); if (!(k in m) || l + 0 > m[k] + 0) m[k] = l }
	END { printf "%s %s %s ", m["dl_a-0"], m["dl_b-1"], m["dl_c-2"] }' "$T/g/jobs.csv")
expect_eq "gen3: worst lateness within 50 us of the generator's" \
	"$(paste <(echo "$lat" | tr ' ' '\n') <(echo "$ours" | tr ' ' '\n') |
		awk 'NF == 2 { d = $1 - $2; if (d < 0) d = -d; if (d > 50000) bad++ } END { print bad + 0 }')" 0
# clock: record.txt's, the header's named
check "gen3: report clock is record.txt's (mono)" grep -q '^# kernel: .* clock: mono ' "$T/g/report.txt"
check "gen3: the header's clock is named in a note" grep -qF \
	'# note: the trace file says clock local, record.txt says mono: mono used' "$T/g/report.txt"
check "gen3: explained by record.txt, so no flag: complete" grep -q \
	'^# data quality: complete$' "$T/g/report.txt"
# the trace.dat alone: the generator's run marker is the witness
run "$A" -q -o "$T/gd" "$F/gen3/trace.dat"
expect_eq "gen3 trace.dat alone: exit 0" "$rc" 0
check "gen3 trace.dat alone: run marker's clock wins over the header, warning clock_header" \
	grep -qF '# data quality: warning: clock_header x1: the trace file'"'"'s header names another clock than the generator used (the trace file says clock local, the generator'"'"'s run marker says mono: mono used)' \
	"$T/gd/report.txt"
# a recorder that says another clock than the generator: the times cannot be compared
cp -r "$F/gen3" "$T/gen3b"
sed -i 's/^clock=mono$/clock=global/' "$T/gen3b/record.txt"
run "$A" -q -o "$T/gb" "$T/gen3b"
expect_eq "gen3, record.txt clock=global: clock_mismatch, exit 4" "$rc $(cat "$T/err")" \
	"4 dlb-analyze: incomplete data: clock_mismatch (record.txt: trace clock global, summary.json: the generator's clock mono)"

# the text of the same recording, in the same folder: same report, same jobs
mkdir "$T/gen3t"
cp "$F/gen3"/*.log "$F/gen3"/*.sched "$F/gen3/summary.json" "$F/gen3/record.txt" "$F/gen3/env.txt" "$T/gen3t/"
gzip -dc "$F/gen3.report-t.txt.gz" >"$T/gen3t/trace.txt"
run "$A" -q -o "$T/gt" "$T/gen3t"
expect_eq "gen3 text: exit 0" "$rc" 0
check "gen3 text: same jobs.csv as trace.dat" diff "$T/g/jobs.csv" "$T/gt/jobs.csv"
check "gen3 text: same report, but the header clock note" diff \
	<(body "$T/g/report.txt" | same /dev/stdin) <(body "$T/gt/report.txt")
check "gen3 text: complete" grep -q '^# data quality: complete$' "$T/gt/report.txt"

# ---- rt-app 1.0 through dlb-record -T: the top buffer holds copies of its markers ----
cp -r "$F/rtapp10rec" "$T/r10"
run "$A" -q "${P10[@]}" -o "$T/r" "$T/r10"
expect_eq "rt-app 1.0: exit 0" "$rc $(cat "$T/err")" "0 "
# rt-app 1.0 logs no row for the job running at its shutdown
expect_eq "rt-app 1.0: trace jobs = log rows + 1" \
	"$(jobs_of "$T/r/report.txt" dl_a) $(jobs_of "$T/r/report.txt" dl_b)" \
	"$(($(rows "$F/rtapp10rec/rt-dl_a-0.log") + 1)) $(($(rows "$F/rtapp10rec/rt-dl_b-1.log") + 1))"
check "rt-app 1.0: golden report" diff <(body "$T/r/report.txt") "$F/rtapp10rec.expected.txt"
check "rt-app 1.0: golden jobs.csv" diff <(gzip -dc "$F/rtapp10rec.jobs.csv.gz") "$T/r/jobs.csv"
# its text: the instance's lines carry the buffer's name, the top buffer's are skipped
mkdir "$T/r10t"
cp "$F/rtapp10rec"/*.log "$F/rtapp10rec/record.txt" "$T/r10t/"
gzip -dc "$F/rtapp10rec.report-t.txt.gz" >"$T/r10t/trace.txt"
run "$A" -q "${P10[@]}" -o "$T/rt" "$T/r10t"
expect_eq "rt-app 1.0 text: exit 0 (top buffer's marker copies not read)" "$rc $(cat "$T/err")" "0 "
check "rt-app 1.0 text: same jobs.csv as trace.dat" diff "$T/r/jobs.csv" "$T/rt/jobs.csv"
check "rt-app 1.0 text: same report, but the header clock note" diff \
	<(body "$T/r/report.txt" | same /dev/stdin) <(body "$T/rt/report.txt")
