#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Debian's rt-app 1.0 recorded here (fixtures/record-rtapp.sh): global EDF,
# CBS overload (a greedy task, late every job), and two partitions with one
# rt-app each.  The folders are as rt-app leaves them (its logs beside the
# trace).  rt-app's log says, per job, its start and its slack: the time from
# the job's end to its timer's next expiry, r + P - end.  So with releases
# inferred as rt-app's timer sets them, every logged job must be in the trace
# at its start, and its lateness e - (r + D) must be -slack + (P - D)
# within TOL (the analyzer's end is the thread's switch-out or end marker, a
# few µs after rt-app reads the clock; log times are whole µs).
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
# valid recordings only: fast malloc unwinding under SANITIZE (tests/lib.sh)
asan_fast_unwind
plan 19
TOL=100000	# ns
if [ ! -d "$F/rtapp-cbs" ]; then
	skip_rest "fixtures analyzer/tests/fixtures/rtapp-* not in this tree"
	exit 0
fi

# check DIR TASK=D_US...: one line per task: name rows jobs unmatched far misses_log misses_ours
#   rearms_log worst_late_log_ns worst_late_ours_ns first_far (misses: late by more than TOL;
#   rearms: rows with a negative slack, after which rt-app re-arms its timer)
check_logs() {
	local dir=$1 out=$2 log name d
	shift 2
	for spec in "$@"; do
		name=${spec%=*} d=${spec#*=}
		log=$(ls "$dir"/*-"$name"-[0-9]*.log)
		awk -F, -v n="$name" 'NR > 1 && $2 == n { print $5, $9 }' "$out/jobs.csv" >"$T/jobs"
		awk -v n="$name" -v D="$d" -v tol=$TOL '
			BEGIN { k = 0 }
			NR == FNR { b[FNR - 1] = $1; l[FNR - 1] = $2; nj = FNR; next }
			/^#/ { next }
			{
				ds = $5 * 1000 - b[k]; if (ds < 0) ds = -ds
				if (ds > tol) unmatched++
				want = (-$8 + $10 - D) * 1000; dd = l[k] - want; if (dd < 0) dd = -dd
				if (dd > tol) { far++; if (!first) first = "job " k ": lateness " l[k] " ns, log says " want " ns" }
				if (want > tol) mlog++; if (l[k] > tol) mours++
				if ($8 < 0) rearm++
				if (want > wl) wl = want; if (l[k] > wo) wo = l[k]
				k++
			}
			END { printf "%s %d %d %d %d %d %d %d %d %d %s\n", n, k, nj, unmatched, far, mlog,
				mours, rearm, wl, wo, first }' "$T/jobs" "$log"
	done
}

# analyze NAME DIR -p ...: the folder copied as rt-app left it, analyzed in place
analyze() {
	local name=$1 dir=$2
	shift 2
	rm -rf "${T:?}/$name" && cp -r "$dir" "$T/$name"
	run "$A" -q -m -1 "$@" "$T/$name"
	expect_eq "$name: the folder as rt-app leaves it: exit 0" "$rc $(cat "$T/err")" "0 "
}

# every task: jobs = rows + 1 (rt-app logs no row for the job running at its
# shutdown), every row's job found at its start, lateness as the log says
judge() {
	local name=$1
	shift
	check_logs "$T/$name" "$T/$name" "$@" >"$T/cmp"
	expect_eq "$name: jobs = log rows + 1, each logged job at its start" \
		"$(awk '$3 != $2 + 1 || $4 { print $1 ": " $2 " rows, " $3 " jobs, " $4 " unmatched" }' "$T/cmp")" ""
	expect_eq "$name: every job's lateness within 100 us of its log's slack" \
		"$(awk '$5 { $2 = $3 = $4 = $6 = $7 = $8 = $9 = $10 = ""; print }' "$T/cmp")" ""
	expect_eq "$name: misses (late by more than 100 us) as in the logs" \
		"$(awk '$6 != $7 { print $1 ": " $7 " misses, the log " $6 }' "$T/cmp")" ""
}

analyze global "$F/rtapp-global" -p g0=4400us,10ms,10ms -p g1=4400us,10ms,10ms -p h=3300us,6ms,6ms
judge global g0=10000 g1=10000 h=6000
# a kernel trace recorded without interrupt events: the conformance notes say
# so, and its only unavail records are the stop class's (migration/N switches)
check "global: note 'interrupt time not recorded'" \
	grep -q '^# conformance note: interrupt time not recorded' "$T/global/report.txt"
expect_eq "global: unavail records: the stop class's only" \
	"$(awk '$1 == "unavail" { print $5 }' "$T/global/jobs-trace.txt" | sort | uniq -c | xargs)" \
	"4 stop"

analyze cbs "$F/rtapp-cbs" -p hog=2ms,10ms,10ms -p victim0=4500us,10ms,10ms \
	-p victim1=4500us,10ms,10ms
judge cbs hog=10000 victim0=10000 victim1=10000
# the greedy task: late every job, as its log says; its worst lateness is its
# log's worst slack (28.5 ms), not a lateness that grows with each late job
read -r _ _ _ _ _ _ _ rearm wl wo _ < <(grep '^hog ' "$T/cmp")
expect_eq "cbs: hog's worst lateness within 100 us of its log's worst slack" \
	"$(awk -v a="$wl" -v b="$wo" -v t=$TOL 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= t) ? "yes" : "no: log " a " ns, trace " b " ns" }')" yes
expect_eq "cbs: each late job's successor released at the late job's end (late_end)" \
	"$(awk -F, '$2 == "hog" && $8 == "late_end"' "$T/cbs/jobs.csv" | wc -l)" "$rearm"

analyze part "$F/rtapp-part" -p a=3500us,10ms,10ms -p b=2500us,6ms,7ms -p c=5500us,12ms,12ms \
	-p d=1500us,5ms,5ms
judge part a=10000 b=6000 c=12000 d=5000
# two rt-app processes: each thread's timer counts from its own process's zero time
expect_eq "part: first jobs released at their process's zero time" \
	"$(awk -F, '$3 == 0 { print $2 "=" $8 }' "$T/part/jobs.csv" | sort | tr '\n' ' ')" \
	"a=clock_ref b=clock_ref c=clock_ref d=clock_ref "

# the folder with its trace under another name (trace-cmd record -o cbs.dat)
mkdir "$T/named"
cp "$F/rtapp-cbs"/*.log "$T/named/"
cp "$F/rtapp-cbs/trace.dat" "$T/named/cbs.dat"
run "$A" -q -m -1 -p hog=2ms,10ms,10ms -p victim0=4500us,10ms,10ms -p victim1=4500us,10ms,10ms \
	"$T/named"
expect_eq "rt-app folder with NAME.dat: read, logs checked, exit 0" \
	"$rc $(cat "$T/err") $(grep -c '^hog ' "$T/named/report.txt")" "0  1"
cp "$T/named/cbs.dat" "$T/named/again.dat"
run "$A" -q "$T/named"
# (in the directory's order)
expect_eq "two traces in a folder: exit 2, both named" \
	"$rc $(sed 's/(again\.dat, cbs\.dat)/(A, B)/; s/(cbs\.dat, again\.dat)/(A, B)/' "$T/err")" \
	"2 dlb-analyze: $T/named: 2 traces in this folder (A, B): give the one to read"
