#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# plots/plot.sh [-t TASKS] [-s SEGMENTS] RUNDIR [WINDOW_MS]
#
# Figures of one analyzed run folder into RUNDIR/plots/, PNG and SVG:
#   gantt          a window of the schedule: a row per CPU, a colour per DL task,
#                  misses (red x), throttles (triangles), migrations (arrows),
#                  CPU stalls hatched (stalls.csv)
#   response_cdf   response-time CDF per task
#   lateness       lateness of the jobs, per task (above 0: a miss); the misses
#                  within the CPU stalls their jobs met ringed
#   dl_util        DL utilisation per CPU over time
#   conformance    the kernel's schedule above the oracle's (the reference
#                  replaying the run's jobs, docs/conformance.md) on one
#                  timeline, the first divergences numbered and listed;
#                  when the folder holds oracle-jobs.csv and oracle-slices.csv
# Inputs: jobs.csv (dlb-analyze, read by column name) and the trace
# (trace.txt, or trace.dat through `trace-cmd report -N -t`); the data behind
# each figure is kept in RUNDIR/plots/data/.  DL utilisation is per 50 ms
# bin.  The Gantt window is WINDOW_MS (default 100) long and starts at 0, or
# just before the first miss; the conformance window as long, just before
# the first miss divergence (else the first divergence).
# The cost is bounded whatever the run's size: the figures name the TASKS
# tasks (default 10) with the most misses, then the most CPU time; the
# others are drawn together in grey.  The Gantt window is cut shorter when
# it would hold more than SEGMENTS (default 20000) segments, and the lateness figure keeps,
# per task and per 1/1000 of the run, the job with the largest lateness.  What was left out is
# said in the figure and on stderr.  Every figure is written under a
# temporary name and renamed when complete: no empty or partial file.
# Writes only under RUNDIR/plots/.  Needs gnuplot, awk, sort.
# Exit: 0 ok, 2 RUNDIR holds no analyzed run (no or empty jobs.csv), 3 no
# gnuplot or RUNDIR/plots not writable, 4 interrupted, 5 gnuplot failed.
set -u
usage() { sed -n '4,33p' "$0" | sed 's/^# \{0,1\}//'; }
ntop=10
maxseg=20000	# Gantt segments drawn at most
while getopts "t:s:h" o; do
	case $o in
	t) ntop=$OPTARG ;;
	s) maxseg=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage >&2; exit 2; fi
dir=$1
win=${2:-100}
case $ntop in ''|*[!0-9]*|0) echo "plot.sh: -t: '$ntop' is not a task count >= 1" >&2; exit 2 ;; esac
case $maxseg in ''|*[!0-9]*|0) echo "plot.sh: -s: '$maxseg' is not a segment count >= 1" >&2; exit 2 ;; esac
case $win in ''|*[!0-9.]*) echo "plot.sh: '$win' is not a window in ms" >&2; exit 2 ;; esac
bin=50		# ms per utilisation bin: 10 ms bins beat with 10 ms periods
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../tools/csv.sh"
out=$dir/plots
data=$out/data
jobs=$dir/jobs.csv
[ -d "$dir" ] || { echo "plot.sh: $dir: not a folder" >&2; exit 2; }
[ -r "$jobs" ] || { echo "plot.sh: $dir: no jobs.csv (not an analyzed run)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not installed" >&2; exit 3; }
progress() { [ -t 2 ] && echo "plot.sh: $*" >&2; return 0; }

# Task stats, in one pass: tid name jobs misses exec_ns (names: control
# characters and blanks become '?' and '_', for the legend), t0 = the first
# release.
stats=$(csv_awk 'FNR > 1 {
		t = v("tid"); if (!(t in name)) { name[t] = v("name"); n++ }
		jobs[t]++; miss[t] += (v("miss") == "1"); ex[t] += v("exec_ns")
		r = v("release_ns"); if (r != "" && (t0 == "" || r + 0 < t0 + 0)) t0 = r
	}
	END {
		if (_csv_bad) exit 2
		print "t0", (t0 == "" ? 0 : t0)	# the field as written: mawk prints t0 + 0 as 1.45608e+13
		for (t in name) {
			s = name[t]; gsub(/[[:cntrl:]]/, "?", s); gsub(/[ \t]/, "_", s)
			if (s == "") s = "?"
			print t, s, jobs[t], miss[t], ex[t]
		}
	}' "$jobs") || { echo "plot.sh: $jobs: unreadable as a jobs table" >&2; exit 2; }
t0=$(printf '%s\n' "$stats" | awk '$1 == "t0" { print $2 }')
[ "$(printf '%s\n' "$stats" | wc -l)" -gt 1 ] || { echo "plot.sh: $jobs: no jobs (nothing to plot)" >&2; exit 2; }
if ! mkdir -p "$data" 2>/dev/null || [ ! -w "$out" ]; then
	echo "plot.sh: $out: cannot write" >&2; exit 3
fi
# tasks.dat: idx tid name jobs misses exec_ns, ranked: most misses, then most
# CPU time, then tid; idx < TASKS are named in the figures
printf '%s\n' "$stats" | awk '$1 != "t0"' | sort -k4,4nr -k5,5nr -k1,1n |
	awk '{ print NR - 1, $0 }' > "$data/tasks.dat"
ntasks=$(wc -l < "$data/tasks.dat")
shown=$((ntasks < ntop ? ntasks : ntop))
left=""
if [ "$ntasks" -gt "$shown" ]; then
	left="$shown of $ntasks tasks named (most misses, then most CPU time); the other $((ntasks - shown)) in grey"
	echo "plot.sh: $left" >&2
fi
progress "$ntasks tasks, $(($(wc -l < "$jobs") - 1)) jobs"

# jobs.dat: idx job t_end_ms lateness_us response_us miss cpu_end overran
# within (a miss late by no more than the CPU stalls its job met: jobs.csv's
# stall_ns, docs/analyzer.md "The jobs that met a stall")
csv_awk -v t0="$t0" 'NR == FNR { idx[$2] = $1; next }
	FNR > 1 && (v("tid") in idx) {
		lat = v("lateness_ns"); rsp = v("response_ns"); end = v("end_ns"); o = v("overrun_ns")
		st = has("stall_ns") ? v("stall_ns") : ""; miss = (v("miss") == "1")	# older jobs.csv: none
		print idx[v("tid")], v("job"), (end == "") ? "NaN" : (end - t0) / 1e6,
			(lat == "") ? "NaN" : lat / 1000, (rsp == "") ? "NaN" : rsp / 1000,
			miss, v("cpu_end"), (o != "" && o + 0 > 0),
			(miss && st != "" && lat != "" && lat + 0 <= st + 0)
	}
	END { if (_csv_bad) exit 2 }' "$data/tasks.dat" "$jobs" > "$data/jobs.dat" || exit 2

# response_cdf.dat: a block per named task (gnuplot index = idx), then one for
# the others together: response_us fraction, at most 2000 points a block
awk -v K="$shown" '$5 != "NaN" { print ($1 < K ? $1 : K), $5 }' "$data/jobs.dat" |
	sort -k1,1n -k2,2g | awk -v K="$shown" -v N="$ntasks" '
	function flush(   k, j, step) {
		if (g < 0) return
		step = n > 2000 ? n / 2000 : 1
		for (j = step; j < n + step; j += step) { k = int(j + 0.5); if (k > n) k = n; print v[k], k / n }
		printf "\n\n"
	}
	$1 != g { flush(); while (++g < $1) print "NaN NaN\n\n"; n = 0 }
	{ v[++n] = $2 }
	BEGIN { g = -1 }
	END { flush(); last = (N > K) ? K : K - 1; while (++g <= last) print "NaN NaN\n\n" }' \
	> "$data/response_cdf.dat"

# lateness.dat: t_end_ms lateness_us group; per group (a named task, or the
# others) and per 1/1000 of the run, the job with the largest lateness
awk -v K="$shown" '$3 != "NaN" && $4 != "NaN" { if ($3 > tmax) tmax = $3; g[NR] = ($1 < K ? $1 : K); t[NR] = $3; l[NR] = $4 }
	END {
		w = tmax > 0 ? tmax / 1000 : 1
		for (i in g) { k = g[i] SUBSEP int(t[i] / w); if (!(k in m) || l[i] > m[k]) { m[k] = l[i]; at[k] = t[i] } }
		for (k in m) { split(k, p, SUBSEP); print at[k], m[k], p[1] }
	}' "$data/jobs.dat" | sort -g > "$data/lateness.dat"

# stallmiss.dat: t_end_ms lateness_us of the misses within stalls (the first 2000)
awk '$9 == 1 && $3 != "NaN" && $4 != "NaN" && ++n <= 2000 { print $3, $4 }' "$data/jobs.dat" \
	> "$data/stallmiss.dat"
# stalls.dat: cpu start_ms end_ms, the CPU stalls (stalls.csv: docs/results.md)
: > "$data/stalls.dat"
if [ -r "$dir/stalls.csv" ]; then
	csv_awk -v t0="$t0" 'FNR > 1 { print v("cpu"), (v("from_ns") - t0) / 1e6, (v("to_ns") - t0) / 1e6 }
		END { if (_csv_bad) exit 2 }' "$dir/stalls.csv" > "$data/stalls.dat" ||
		{ echo "plot.sh: $dir/stalls.csv: unreadable as a stalls table" >&2; exit 2; }
fi

# window start: 0, or half a window before the first miss
wstart=$(awk -v w="$win" '$6 == 1 && $3 != "NaN" { s = $3 - w / 2; if (s < 0) s = 0; print s; exit }' "$data/jobs.dat")
wstart=${wstart:-0}

# the trace as text
trace=
if [ -r "$dir/trace.txt" ]; then
	trace=$dir/trace.txt
elif [ -r "$dir/trace.dat" ] && command -v trace-cmd >/dev/null; then
	progress "trace.dat to text"
	trace-cmd report -N -t "$dir/trace.dat" > "$data/trace.txt" 2>/dev/null && trace=$data/trace.txt
fi

# From the trace: segments.dat (cpu start_ms end_ms idx), migrations.dat
# (t_ms orig dest idx), throttles.dat (t_ms cpu idx), util.dat (t_ms cpu pct).
: > "$data/segments.dat"; : > "$data/migrations.dat"; : > "$data/throttles.dat"; : > "$data/util.dat"
if [ -n "$trace" ]; then
	progress "reading $(basename "$trace")"
	awk -v t0="$t0" -v D="$data" -v B="$bin" '
	NR == FNR { idx[$2] = $1; next }
	/^#/ { next }
	{
		cpu = -1; ts = ""; ev = ""
		for (i = 1; i <= NF; i++) {
			if (cpu < 0 && $i ~ /^\[[0-9]+\]$/) { cpu = substr($i, 2, length($i) - 2) + 0; continue }
			if (ts == "" && $i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; ev = $(i + 1); first = i + 2; break }
		}
		if (ts == "" || cpu < 0) next
		sub(/:$/, "", ts); sub(/:$/, "", ev)
		# seconds.fraction to ms since t0, without losing ns to floating point
		split(ts, p, "."); frac = substr(p[2] "000000000", 1, 9)
		t = ((p[1] * 1e9 - t0) + frac) / 1e6
		delete kv
		for (i = first; i <= NF; i++) if ((e = index($i, "=")) > 0) kv[substr($i, 1, e - 1)] = substr($i, e + 1)
		if (ev == "sched_switch") {
			if (cpu in run) { print cpu, start[cpu], t, run[cpu] > (D "/segments.dat"); busy(cpu, start[cpu], t); delete run[cpu] }
			if (kv["next_pid"] in idx) { run[cpu] = idx[kv["next_pid"]]; start[cpu] = t }
		} else if (ev == "sched_migrate_task" && (kv["pid"] in idx)) {
			print t, kv["orig_cpu"], kv["dest_cpu"], idx[kv["pid"]] > (D "/migrations.dat")
		} else if (ev == "dl_throttle" && (kv["pid"] in idx)) {
			print t, cpu, idx[kv["pid"]] > (D "/throttles.dat")
		}
		if (t > tmax) tmax = t
		if (cpu > maxcpu) maxcpu = cpu
	}
	# DL busy time per CPU in B ms bins
	function busy(c, s, e,   b, lo, hi) {
		for (b = int(s / B); b * B < e; b++) {
			lo = (s > b * B) ? s : b * B; hi = (e < b * B + B) ? e : b * B + B
			if (hi > lo) u[c, b] += hi - lo
			if (b > nb) nb = b
		}
	}
	END {
		for (c in run) { print c, start[c], tmax, run[c] > (D "/segments.dat"); busy(c, start[c], tmax) }
		for (c = 0; c <= maxcpu; c++) {
			for (b = 0; b <= nb; b++) print b * B, c, 100 * u[c, b] / B > (D "/util.dat")
			print "" > (D "/util.dat"); print "" > (D "/util.dat")
		}
	}' "$data/tasks.dat" "$trace"
fi
# The kernel has no throttle tracepoint: a job that ran past its runtime
# (overrun in jobs.csv) was throttled; mark it at its end.
if [ ! -s "$data/throttles.dat" ]; then
	awk '$8 == 1 && $3 != "NaN" { print $3, $7, $1 }' "$data/jobs.dat" > "$data/throttles.dat"
fi
# no schedule from the trace (none, or no switch of the run's tasks in it):
# no Gantt, no DL utilisation, no conformance figure; said, the rest drawn
sched=1
if [ ! -s "$data/segments.dat" ]; then
	sched=0
	why="no trace (trace.dat, with trace-cmd, or trace.txt)"
	[ -z "$trace" ] || why="no switch of the run's tasks in $(basename "$trace")"
	echo "plot.sh: $dir: $why: the Gantt, DL utilisation and conformance figures are not drawn" >&2
fi
ncpus=$(awk 'NF { if ($1 + 1 > n) n = $1 + 1 } END { print n + 0 }' "$data/segments.dat")
[ "$ncpus" -gt 0 ] || ncpus=$(awk '$7 != "" { if ($7 + 1 > n) n = $7 + 1 } END { print n + 0 }' "$data/jobs.dat")

# gantt.dat: the window's segments, clipped (cpu start_ms end_ms idx); at most
# maxseg of them: past that, the window ends where the last one starts
sort -k2,2g "$data/segments.dat" | awk -v a="$wstart" -v w="$win" -v M="$maxseg" '
	$3 > a && $2 < a + w {
		if (++n > M) { print $2 - a > "/dev/stderr"; exit }
		print $1, ($2 < a ? a : $2), ($3 > a + w ? a + w : $3), $4
	}' > "$data/gantt.dat" 2> "$data/gantt.cut"
if [ -s "$data/gantt.cut" ]; then
	cut=$(awk '{ printf "%.3f", $1 }' "$data/gantt.cut")
	note="window cut from $win to $cut ms: more than $maxseg segments"
	echo "plot.sh: gantt: $note" >&2
	win=$cut
	awk -v e="$(awk -v a="$wstart" -v w="$win" 'BEGIN { print a + w }')" '$2 < e' \
		"$data/gantt.dat" > "$data/gantt.tmp" && mv "$data/gantt.tmp" "$data/gantt.dat"
	left="${left:+$left; }$note"
fi
rm -f "$data/gantt.cut"
# gstalls.dat: the window's stalls, clipped (cpu start_ms end_ms)
awk -v a="$wstart" -v w="$win" '$3 > a && $2 < a + w {
	print $1, ($2 < a ? a : $2), ($3 > a + w ? a + w : $3) }' "$data/stalls.dat" > "$data/gstalls.dat"
gstalls=$(wc -l < "$data/gstalls.dat")
stallmiss=$(wc -l < "$data/stallmiss.dat")

# The conformance figure's data (oracle-jobs.csv, oracle-slices.csv: docs/results.md).
conf=0
ojobs=$dir/oracle-jobs.csv oslices=$dir/oracle-slices.csv
if [ "$sched" = 1 ] && [ -r "$ojobs" ] && [ -r "$oslices" ]; then
	# odivs.dat: n idx rel_ms dl_ms kind cause job: the divergent jobs by release
	# (none, and placement after the misses when there are more than 8: they say little)
	csv_awk -v t0="$t0" 'NR == FNR { idx[$2] = $1; name[$2] = $3; next }
		FNR > 1 && v("divergence") != "none" && (v("tid") in idx) {
			k = v("divergence"); c = v("cause")
			print (k == "placement" || k == "unmatched"), (v("release_ns") - t0) / 1e6,
				(v("deadline_ns") - t0) / 1e6, idx[v("tid")], k, (c == "" ? "-" : c),
				v("job"), name[v("tid")]
		}
		END { if (_csv_bad) exit 2 }' "$data/tasks.dat" "$ojobs" |
		sort -k1,1n -k2,2g | head -n 8 | sort -k2,2g |
		awk '{ print NR, $4, $2, $3, $5, $6, $7, $8 }' > "$data/odivs.dat" || exit 2
	# ojobs.dat: idx end_ms miss cpu_end (the oracle's misses)
	csv_awk -v t0="$t0" 'NR == FNR { idx[$2] = $1; next }
		FNR > 1 && (v("tid") in idx) && v("miss") == "1" {
			print idx[v("tid")], (v("end_ns") - t0) / 1e6, 1, v("cpu_end")
		}
		END { if (_csv_bad) exit 2 }' "$data/tasks.dat" "$ojobs" > "$data/ojobs.dat" || exit 2
	# the window: half of it before the first miss divergence, else the first divergence
	cw0=$(awk -v w="$win" '$5 != "placement" && $5 != "unmatched" { s = $3 - w / 2; print (s < 0 ? 0 : s); f = 1; exit }
		END { if (!f) exit 1 }' "$data/odivs.dat") ||
		cw0=$(awk -v w="$win" 'NR == 1 { s = $3 - w / 2; print (s < 0 ? 0 : s) }' "$data/odivs.dat")
	cw0=${cw0:-$wstart}
	# ogantt.dat / kgantt.dat: the oracle's slices and the kernel's segments in it (cpu start end idx)
	csv_awk -v t0="$t0" -v a="$cw0" -v w="$win" -v M="$maxseg" 'NR == FNR { idx[$2] = $1; next }
		FNR > 1 && (v("tid") in idx) {
			s = (v("start_ns") - t0) / 1e6; e = (v("end_ns") - t0) / 1e6
			if (e > a && s < a + w && ++n <= M)
				print v("cpu"), (s < a ? a : s), (e > a + w ? a + w : e), idx[v("tid")]
		}
		END { if (_csv_bad) exit 2 }' "$data/tasks.dat" "$oslices" > "$data/ogantt.dat" || exit 2
	awk -v a="$cw0" -v w="$win" -v M="$maxseg" '$3 > a && $2 < a + w && ++n <= M {
		print $1, ($2 < a ? a : $2), ($3 > a + w ? a + w : $3), $4 }' \
		"$data/segments.dat" > "$data/kgantt.dat"
	ocpus=$(awk -F, 'NR > 1 { if ($1 + 1 > n) n = $1 + 1 } END { print n + 0 }' "$oslices")
	[ "$ocpus" -gt "$ncpus" ] && ncpus=$ocpus
	# the divergences' list, one gnuplot string (no quote, no backslash)
	# (two a line; \n is gnuplot's)
	divlist=$(awk '{ n = $8; gsub(/[\\"]/, "", n)
		printf "%s%d: %s job %s released at %.3f ms: %s%s", (NR == 1 ? "" : NR % 2 ? "\\n" : "      "),
			$1, n, $7, $3, $5, ($6 == "-" ? "" : " (" $6 ")") }' "$data/odivs.dat")
	conf=1
	# whose schedule the top half is: the backend summary.json names (kernel when absent)
	runby=$(sed -n 's/.*"backend": *"\(kernel\|reference\)".*/\1/p' "$dir/summary.json" 2>/dev/null | head -n 1)
fi

# the named tasks' legends, as gnuplot strings
awk -v K="$shown" 'BEGIN { printf "array names[%d]\n", K + 1 }
	$1 < K { s = $3; gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); printf "names[%d] = \"%s\"\n", $1 + 1, s }
	END { printf "names[%d] = \"other tasks\"\n", K + 1 }' "$data/tasks.dat" > "$data/names.gp"

# Draw into a temporary folder, then rename: never an empty or partial figure.
title=$(basename "$dir" | tr -d "\"\\\\")	# a gnuplot string: no quote, no backslash
tmp=$(mktemp -d "$out/.plot.XXXXXX") || { echo "plot.sh: $out: cannot write" >&2; exit 3; }
trap 'rm -rf "$tmp"' EXIT
trap 'exit 4' INT TERM HUP
for fmt in png svg; do
	progress "drawing $fmt"
	if ! gnuplot -e "fmt='$fmt'; D='$data'; O='$tmp'; N=$ntasks; K=$shown; C=$ncpus; W0=$wstart; W=$win" \
		-e "title_run=\"$title\"; left=\"$left\"; sched=$sched; conf=$conf; runby=\"${runby:-kernel}\"; CW0=${cw0:-0}; divlist=\"${divlist:-}\"" \
		-e "gstalls=$gstalls; stallmiss=$stallmiss" \
		"$here/figures.gp" 2> "$tmp/gnuplot.err"; then
		echo "plot.sh: gnuplot failed: $(grep -m1 . "$tmp/gnuplot.err")" >&2
		exit 5
	fi
done
for f in "$tmp"/*.png "$tmp"/*.svg; do
	[ -s "$f" ] || { echo "plot.sh: gnuplot wrote an empty $(basename "$f")" >&2; exit 5; }
done
mv -f "$tmp"/*.png "$tmp"/*.svg "$out"/
