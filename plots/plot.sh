#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# plots/plot.sh RUNDIR [WINDOW_MS]
#
# Figures of one analyzed run folder into RUNDIR/plots/, PNG and SVG:
#   gantt          a window of the schedule: a row per CPU, a colour per DL task,
#                  misses (red x), throttles (triangles), migrations (arrows)
#   response_cdf   response-time CDF per task
#   lateness       lateness of every job, per task (above 0: a miss)
#   dl_util        DL utilisation per CPU over time
# Inputs: jobs.csv (dlb-analyze) and the trace (trace.txt, or trace.dat
# through `trace-cmd report -N -t`); the data behind each figure is kept in
# RUNDIR/plots/data/.  DL utilisation is per 50 ms bin.  The Gantt window is WINDOW_MS (default 100) long and
# starts at 0, or just before the first miss.  Needs gnuplot, awk, sort.
set -u
dir=${1:?usage: plots/plot.sh RUNDIR [WINDOW_MS]}
win=${2:-100}
bin=50	# ms per utilisation bin: 10 ms bins beat with 10 ms periods
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$dir/plots
data=$out/data
[ -r "$dir/jobs.csv" ] || { echo "plot.sh: $dir/jobs.csv: none (analyze first)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not installed" >&2; exit 3; }
mkdir -p "$data" || exit 3

# tasks.dat: idx tid name (DL jobs' tasks, in tid order); t0 = first release
awk -F, 'NR > 1 { gsub(/"/, "", $2); if (!($1 in n)) { n[$1] = $2 } }
	END { for (t in n) print t, n[t] }' "$dir/jobs.csv" | sort -n | awk '{ print NR - 1, $1, $2 }' > "$data/tasks.dat"
ntasks=$(wc -l < "$data/tasks.dat")
[ "$ntasks" -gt 0 ] || { echo "plot.sh: $dir/jobs.csv has no jobs" >&2; exit 2; }
t0=$(awk -F, 'NR > 1 && $4 != "" && (m == "" || $4 + 0 < m + 0) { m = $4 } END { print m + 0 }' "$dir/jobs.csv")

# jobs.dat: idx job t_end_ms lateness_us response_us miss cpu_end overran
awk -F, -v t0="$t0" 'NR == FNR { split($0, a, " "); idx[a[2]] = a[1]; next }
	FNR > 1 && ($1 in idx) {
		lat = ($9 == "") ? "NaN" : $9 / 1000
		rsp = ($10 == "") ? "NaN" : $10 / 1000
		end = ($6 == "") ? "NaN" : ($6 - t0) / 1e6
		print idx[$1], $3, end, lat, rsp, ($13 == "1"), $18, ($14 != "" && $14 + 0 > 0)
	}' "$data/tasks.dat" "$dir/jobs.csv" > "$data/jobs.dat"

# response_cdf.dat: one block per task (gnuplot index = task idx): response_us fraction
: > "$data/response_cdf.dat"
for i in $(seq 0 $((ntasks - 1))); do
	awk -v i="$i" '$1 == i && $5 != "NaN" { print $5 }' "$data/jobs.dat" | sort -g |
		awk '{ v[NR] = $1 } END { if (!NR) print "NaN NaN"; for (k = 1; k <= NR; k++) print v[k], k / NR }' \
		>> "$data/response_cdf.dat"
	printf '\n\n' >> "$data/response_cdf.dat"
done

# window start: 0, or half a window before the first miss
wstart=$(awk -v w="$win" '$6 == 1 && $3 != "NaN" { s = $3 - w / 2; if (s < 0) s = 0; print s; exit }' "$data/jobs.dat")
wstart=${wstart:-0}

# the trace as text
trace=
if [ -r "$dir/trace.txt" ]; then
	trace=$dir/trace.txt
elif [ -r "$dir/trace.dat" ] && command -v trace-cmd >/dev/null; then
	trace-cmd report -N -t "$dir/trace.dat" > "$data/trace.txt" 2>/dev/null && trace=$data/trace.txt
fi

# From the trace: segments.dat (cpu start_ms end_ms idx), migrations.dat
# (t_ms orig dest idx), throttles.dat (t_ms cpu idx), util.dat (t_ms cpu pct).
: > "$data/segments.dat"; : > "$data/migrations.dat"; : > "$data/throttles.dat"; : > "$data/util.dat"
if [ -n "$trace" ]; then
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
ncpus=$(awk 'NF { if ($1 + 1 > n) n = $1 + 1 } END { print n + 0 }' "$data/segments.dat")
[ "$ncpus" -gt 0 ] || ncpus=$(awk '$7 != "" { if ($7 + 1 > n) n = $7 + 1 } END { print n + 0 }' "$data/jobs.dat")
names=$(awk '{ printf "%s ", $3 }' "$data/tasks.dat")

for fmt in png svg; do
	gnuplot -e "fmt='$fmt'; D='$data'; O='$out'; N=$ntasks; C=$ncpus; W0=$wstart; W=$win; names='$names'; title_run='$(basename "$dir")'" \
		"$here/figures.gp" || exit 5
done
