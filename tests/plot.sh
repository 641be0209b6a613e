#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# plots/plot.sh and ./run.sh plot on a run of 2000 tasks (synthetic jobs.csv
# and trace): the cost is bounded (10 tasks named, the rest in grey, what
# was left out said on stderr), jobs.csv is read by column name (the same
# figures' data from a file whose columns are in another order), a failing
# gnuplot leaves no figure behind, a folder with no run fails in one line.
. "$(dirname "$0")/lib.sh"
plan 23
command -v gnuplot >/dev/null || { skip_rest "gnuplot not installed"; exit 0; }
tmp=$(mktemp -d /tmp/dlb-plot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
PLOT="bash $DLB_SRC/plots/plot.sh"
export DLB_SRC

# 2000 tasks on 2 CPUs, 5 jobs each, 200 ms apart; task 7 misses every job.
# jobs.csv as dlb-analyze writes it (one name holds a comma: quoted).
synth() {	# $1: folder
	mkdir -p "$1"
	awk -v D="$1" 'BEGIN {
		J = D "/jobs.csv"; T = D "/trace.txt"
		print "tid,name,job,release_ns,begin_ns,end_ns,deadline_ns,release_source,lateness_ns," \
		      "response_ns,wakeup_latency_ns,exec_ns,miss,overrun_ns,migrations,preemptions," \
		      "cpu_begin,cpu_end" > J
		print "# tracer: nop" > T
		for (j = 0; j < 5; j++) for (i = 0; i < 2000; i++) {
			pid = 1000 + i; cpu = i % 2; r = j * 200000000 + i * 90000; e = r + 80000
			dl = r + (i == 7 ? 50000 : 1000000)
			name = (i == 3) ? "\"a,b\"" : "t" i
			printf "%d,%s,%d,%d,%d,%d,%d,marker,%d,%d,0,80000,%d,,0,0,%d,%d\n", pid, name, j,
				r, r, e, dl, e - dl, e - r, (e > dl), cpu, cpu > J
			printf "  <idle>-0 [%03d] d..2. %d.%06d: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=%d next_prio=-1\n", cpu, r / 1e9, (r % 1e9) / 1000, pid > T
			printf "  t-%d [%03d] d..2. %d.%06d: sched_switch: prev_comm=t prev_pid=%d prev_prio=-1 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n", pid, cpu, e / 1e9, (e % 1e9) / 1000, pid > T
		}
	}'
}
synth "$tmp/run"
$PLOT "$tmp/run" > "$tmp/out" 2> "$tmp/err"
expect_eq "2000 tasks: exit 0" "$?" 0
n=0
for f in gantt response_cdf lateness dl_util; do
	for x in png svg; do [ -s "$tmp/run/plots/$f.$x" ] && n=$((n + 1)); done
done
expect_eq "the four figures, PNG and SVG, none empty" "$n" 8
check "stderr: what was left out" grep -qxF \
	"plot.sh: 10 of 2000 tasks named (most misses, then most CPU time); the other 1990 in grey" "$tmp/err"
expect_eq "the task with misses is named first" "$(head -1 "$tmp/run/plots/data/tasks.dat")" \
	"0 1007 t7 5 5 400000"
expect_eq "CDF: 10 named tasks + the others: 11 blocks" \
	"$(grep -c '^$' "$tmp/run/plots/data/response_cdf.dat")" 22
check "lateness: at most 1000 points per group" \
	test "$(wc -l < "$tmp/run/plots/data/lateness.dat")" -le 11000

# columns by name: the same file with its columns in reverse order
mkdir -p "$tmp/rev"
cp "$tmp/run/trace.txt" "$tmp/rev/"
# shellcheck disable=SC2016 # an awk program: $0 is awk's
awk -f "$DLB_SRC/tools/csv.awk" -f <(printf '%s\n' '{ n = csv_split($0, f); s = ""
	for (i = n; i >= 1; i--) { x = f[i]; if (x ~ /[,"]/) { gsub(/"/, "\"\"", x); x = "\"" x "\"" }
	s = s x (i > 1 ? "," : "") } print s }') "$tmp/run/jobs.csv" > "$tmp/rev/jobs.csv"
$PLOT "$tmp/rev" > /dev/null 2>&1
check "columns in another order: the same jobs.dat" cmp -s "$tmp/run/plots/data/jobs.dat" \
	"$tmp/rev/plots/data/jobs.dat"
check "a quoted name with a comma is one name" grep -q ' 1003 a,b ' "$tmp/rev/plots/data/tasks.dat"

# the Gantt window cut at -s segments, and said so
$PLOT -s 300 "$tmp/run" 1000 > /dev/null 2> "$tmp/err"
check "-s 300: the window is cut, on stderr and in the data" \
	test "$(grep -c 'gantt: window cut from 1000 to' "$tmp/err") $(wc -l < "$tmp/run/plots/data/gantt.dat")" = "1 300"

# the conformance figure: oracle-jobs.csv and oracle-slices.csv beside the run
# (columns read by name: these are in another order than the analyzer's)
mkdir -p "$tmp/conf"
awk -F, -v D="$tmp/conf" 'NR == 1 { print > (D "/jobs.csv"); next }
	$1 == 1001 || $1 == 1007 { print > (D "/jobs.csv") }' "$tmp/run/jobs.csv"
grep -E 'next_pid=100[17] |prev_pid=100[17] |^#' "$tmp/run/trace.txt" > "$tmp/conf/trace.txt"
{
	echo "divergence,cause,tid,name,job,release_ns,deadline_ns,begin_ns,end_ns,miss,cpu_end"
	for j in 0 1 2 3 4; do
		r=$((j * 200000000 + 90000)); echo "none,,1001,t1,$j,$r,$((r + 1000000)),$r,$((r + 80000)),0,1"
		r=$((j * 200000000 + 630000)); k=placement c=
		[ "$j" = 2 ] && k=kernel_only_miss c=waited
		echo "$k,$c,1007,t7,$j,$r,$((r + 50000)),$((r - 40000)),$((r + 40000)),0,0"
	done
} > "$tmp/conf/oracle-jobs.csv"
{
	echo "name,tid,end_ns,start_ns,cpu"
	for j in 0 1 2 3 4; do
		r=$((j * 200000000)); echo "t1,1001,$((r + 170000)),$((r + 90000)),1"
		echo "t7,1007,$((r + 670000)),$((r + 590000)),0"
	done
} > "$tmp/conf/oracle-slices.csv"
$PLOT "$tmp/conf" 10 > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "conformance: exit 0, the figure in PNG and SVG" \
	"$rc $(entries "$tmp/conf/plots" | tr ' ' '\n' | grep -c '^conformance\.\(png\|svg\)$')" "0 2"
expect_eq "conformance: the miss divergence listed before the placements, by release" \
	"$(head -n 2 "$tmp/conf/plots/data/odivs.dat")" \
	"1 0 0.54 0.59 placement - 0 t7
2 0 200.54 200.59 placement - 1 t7"
expect_eq "conformance: the window is around the first miss divergence; both schedules in it" \
	"$(grep -c . "$tmp/conf/plots/data/kgantt.dat") $(cat "$tmp/conf/plots/data/ogantt.dat")" \
	"2 1 400 400.08 1
0 400.5 400.58 0"

# whose schedule is on top: the kernel's when the folder does not say (as above),
# the reference's when summary.json names that backend
top=$(grep -o '>[a-z]* CPU 0<' "$tmp/conf/plots/conformance.svg" | tr '\n' ' ')
printf '{ "backend": "reference", "status": "complete" }\n' > "$tmp/conf/summary.json"
$PLOT "$tmp/conf" 10 > /dev/null 2>&1
expect_eq "conformance: the run's CPUs named by its backend (summary.json), else kernel" \
	"$top| $(grep -o '>[a-z]* CPU 0<' "$tmp/conf/plots/conformance.svg" | tr '\n' ' ')" \
	">oracle CPU 0< >kernel CPU 0< | >oracle CPU 0< >reference CPU 0< "

# a gnuplot that fails half way: nothing left behind
mkdir -p "$tmp/bin" "$tmp/fail"
cp "$tmp/run/jobs.csv" "$tmp/run/trace.txt" "$tmp/fail/"
cat > "$tmp/bin/gnuplot" <<'EOF'
#!/bin/sh
# half a figure into the output folder (O='...'), then an error
o=$(printf '%s' "$*" | sed -n "s/.*O='\([^']*\)'.*/\1/p")
echo partial > "$o/gantt.png"
echo "line 0: boom" >&2
exit 1
EOF
chmod +x "$tmp/bin/gnuplot"
PATH=$tmp/bin:$PATH $PLOT "$tmp/fail" > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "gnuplot fails: exit 5, no figure, no temporary folder left" \
	"$rc $(entries "$tmp/fail/plots")" "5 data "

# no run: one line, exit 2
mkdir -p "$tmp/empty" "$tmp/hdr"
$PLOT "$tmp/empty" > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "no jobs.csv: exit 2, one line" "$rc $(wc -l < "$tmp/err")" "2 1"
head -1 "$tmp/run/jobs.csv" > "$tmp/hdr/jobs.csv"
$PLOT "$tmp/hdr" > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "jobs.csv without jobs: exit 2, one line" "$rc $(cat "$tmp/err")" \
	"2 plot.sh: $tmp/hdr/jobs.csv: no jobs (nothing to plot)"
check "no plots folder made for a folder with no run" test ! -e "$tmp/empty/plots" -a ! -e "$tmp/hdr/plots"

# ./run.sh plot DIR: DIR is the user's (relative to where they are), written only there
mkdir -p "$tmp/cwd"
cp -r "$tmp/fail" "$tmp/cwd/r" && rm -rf "$tmp/cwd/r/plots"
(cd "$tmp/cwd" && "$DLB_SRC/run.sh" plot r > /dev/null 2>&1); rc=$?
expect_eq "run.sh plot RELATIVE: exit 0, figures in ./RELATIVE/plots, nothing else" \
	"$rc $(entries "$tmp/cwd/r/plots" | grep -o '\.png' | wc -l) $(entries "$tmp/cwd")" "0 4 r "
err=$(cd "$tmp/cwd" && "$DLB_SRC/run.sh" plot . 2>&1 >/dev/null); rc=$?
expect_eq "run.sh plot FOLDER-WITHOUT-RUN: exit 2, one line" "$rc $(wc -l <<< "$err")" "2 1"

# a kernel's clock (ns since boot, 14 digits): time 0 is the first release,
# exactly (mawk printed it as 1.45608e+13, so every figure of such a run
# began 33.958 ms late here, and by up to ~50 ms on other clocks)
mkdir -p "$tmp/kclock"
{
	head -1 "$tmp/run/jobs.csv"
	echo "1000,a,0,14560833958389,14560833958389,14560837558389,14560843958389,marker,-6400000,3600000,0,3600000,0,,0,0,0,0"
	echo "1001,b,0,14560833958389,14560833958389,14560835958389,14560843958389,marker,-8000000,2000000,0,2000000,0,,0,0,1,1"
} > "$tmp/kclock/jobs.csv"
{
	echo "# tracer: nop"
	echo "  <idle>-0 [000] d..2. 14560.833958: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1000 next_prio=-1"
	echo "  <idle>-0 [001] d..2. 14560.833958: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=1001 next_prio=-1"
	echo "  b-1001 [001] d..2. 14560.835958: sched_switch: prev_comm=b prev_pid=1001 prev_prio=-1 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120"
	echo "  a-1000 [000] d..2. 14560.837558: sched_switch: prev_comm=a prev_pid=1000 prev_prio=-1 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120"
} > "$tmp/kclock/trace.txt"
$PLOT "$tmp/kclock" > /dev/null 2>&1; rc=$?
expect_eq "a kernel's clock: exit 0, job ends 3.6 and 2.0 ms after the first release" \
	"$rc $(awk '{ printf "%.3f ", $3 }' "$tmp/kclock/plots/data/jobs.dat" 2>/dev/null)" "0 3.600 2.000 "

# jobs.csv without a trace (a dlb-analyze -o folder): the figures the jobs
# allow, the others named on stderr in one line (before: gnuplot's 'no
# valid points', exit 5, no figure)
mkdir -p "$tmp/notrace" && cp "$tmp/kclock/jobs.csv" "$tmp/notrace/"
$PLOT "$tmp/notrace" > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "jobs.csv alone: exit 0, the response and lateness figures, the rest said in one line" \
	"$rc $(entries "$tmp/notrace/plots" | grep -o '[a-z_]*\.png' | tr '\n' ' ')$(wc -l < "$tmp/err") $(grep -c 'no trace.*the Gantt, DL utilisation and conformance figures are not drawn' "$tmp/err")" \
	"0 lateness.png response_cdf.png 1 1"

# CPU stalls (docs/analyzer.md "CPU stalls"): stalls.csv's spans in the
# Gantt window hatched on their CPU's row, the misses within the stalls
# their jobs met ringed in the lateness figure.  t7's job 0 misses by 30 us
# and met 100 us of stalls (within); its job 1 met 10 us (not); t0 is t1's
# first release (90 us); the second stall is outside the 100 ms window.
mkdir -p "$tmp/st"
cp "$tmp/conf/trace.txt" "$tmp/st/"
awk -F, -v OFS=, 'NR == 1 { print $0, "stall_ns"; next }
	{ print $0, ($1 == 1007 && $3 == 0 ? 100000 : $1 == 1007 && $3 == 1 ? 10000 : 0) }' \
	"$tmp/conf/jobs.csv" > "$tmp/st/jobs.csv"
printf 'cpu,from_ns,to_ns,pid\n1,600000,700000,1007\n1,300000000,301000000,1007\n' > "$tmp/st/stalls.csv"
$PLOT "$tmp/st" > /dev/null 2> "$tmp/err"; rc=$?
expect_eq "stalls: exit 0; the window's stall on CPU 1; the one miss within stalls" \
	"$rc $(cat "$tmp/st/plots/data/gstalls.dat") | $(cat "$tmp/st/plots/data/stallmiss.dat")" \
	"0 1 0.51 0.61 | 0.62 30"
expect_eq "stalls: in the figures' legends; none in those of a run without" \
	"$(grep -c '>CPU stall<' "$tmp/st/plots/gantt.svg") $(grep -c '>miss within CPU stalls<' \
		"$tmp/st/plots/lateness.svg") $(cat "$tmp/conf/plots/gantt.svg" \
		"$tmp/conf/plots/lateness.svg" | grep -c 'CPU stall')" "1 1 0"
