# SPDX-License-Identifier: GPL-2.0
# The OSPERT figures; called by bench/ospert/run.sh with
#   fmt ('png' or 'svg'), D (data folder), O (figures folder), unit (cycles,
#   cntvct or ns), cpulist (the paper's CPU counts), nk (1: kernel.dat has rows).
# Boxes as the paper's: 25th-75th percentile box, median line, min-max whiskers.
if (fmt eq 'png') {
	set terminal pngcairo size 1100,520 font 'DejaVu Sans,11' noenhanced
} else {
	set terminal svg size 1100,520 font 'DejaVu Sans,11' noenhanced dynamic
}
set grid ytics mytics lc rgb '#dddddd'
set key top left reverse Left opaque box lc rgb '#bbbbbb'
c_dl = '#1f77b4'
c_pri = '#ff7f0e'
c_lin = '#2ca02c'
ncpu = words(cpulist)
set xtics () nomirror
do for [i=1:ncpu] { set xtics add (word(cpulist, i) i - 1) }
set xrange [-0.6:ncpu - 0.4]
set logscale y
set ylabel 'cost per call ('.unit.', log scale)'
set xlabel 'CPUs (simulated)'
set style fill solid 0.35 border
set boxwidth 0.22 absolute

# ---- set ---------------------------------------------------------------------------------------
# box(file, x offset, colour, title): box, median, mean (+) and 99th percentile (x)
set output O.'/set.'.fmt
set title "set: update a CPU's earliest deadline (cpudl_set) or priority (cpupri_set), per call\n(box: 25-75 %, line: median, whiskers: min-max, +: mean, x: 99th percentile)"
plot D.'/box-cpudl-set.dat' using ($1 - 0.14):4:3:7:6 with candlesticks whiskerbars 0.6 lw 1.5 lc rgb c_dl title 'cpudl (max-heap, patch 007)', \
	'' using ($1 - 0.14):5:5:5:5 with candlesticks lw 3 lc rgb c_dl notitle, \
	'' using ($1 - 0.14):8 with points pt 1 ps 1.5 lw 2 lc rgb '#000000' notitle, \
	'' using ($1 - 0.14):9 with points pt 2 ps 1.2 lc rgb c_dl notitle, \
	D.'/box-cpupri-set.dat' using ($1 + 0.14):4:3:7:6 with candlesticks whiskerbars 0.6 lw 1.5 lc rgb c_pri title 'cpupri (sched_rt)', \
	'' using ($1 + 0.14):5:5:5:5 with candlesticks lw 3 lc rgb c_pri notitle, \
	'' using ($1 + 0.14):8 with points pt 1 ps 1.5 lw 2 lc rgb '#000000' notitle, \
	'' using ($1 + 0.14):9 with points pt 2 ps 1.2 lc rgb c_pri notitle

# ---- find --------------------------------------------------------------------------------------
set output O.'/find.'.fmt
set title "find: pick the CPU to push to (cpudl_find, cpupri_find, latest_cpu_find), per call\n(box: 25-75 %, line: median, whiskers: min-max, +: mean, x: 99th percentile)"
set boxwidth 0.2 absolute
plot D.'/box-cpudl-find.dat' using ($1 - 0.25):4:3:7:6 with candlesticks whiskerbars 0.6 lw 1.5 lc rgb c_dl title 'cpudl (max-heap, patch 007)', \
	'' using ($1 - 0.25):5:5:5:5 with candlesticks lw 3 lc rgb c_dl notitle, \
	'' using ($1 - 0.25):8 with points pt 1 ps 1.5 lw 2 lc rgb '#000000' notitle, \
	'' using ($1 - 0.25):9 with points pt 2 ps 1.2 lc rgb c_dl notitle, \
	D.'/box-cpupri-find.dat' using ($1):4:3:7:6 with candlesticks whiskerbars 0.6 lw 1.5 lc rgb c_pri title 'cpupri (sched_rt)', \
	'' using ($1):5:5:5:5 with candlesticks lw 3 lc rgb c_pri notitle, \
	'' using ($1):8 with points pt 1 ps 1.5 lw 2 lc rgb '#000000' notitle, \
	'' using ($1):9 with points pt 2 ps 1.2 lc rgb c_pri notitle, \
	D.'/box-linear-find.dat' using ($1 + 0.25):4:3:7:6 with candlesticks whiskerbars 0.6 lw 1.5 lc rgb c_lin title 'linear scan (patch 004)', \
	'' using ($1 + 0.25):5:5:5:5 with candlesticks lw 3 lc rgb c_lin notitle, \
	'' using ($1 + 0.25):8 with points pt 1 ps 1.5 lw 2 lc rgb '#000000' notitle, \
	'' using ($1 + 0.25):9 with points pt 2 ps 1.2 lc rgb c_lin notitle

# ---- extension: every CPU count on a log axis, set and find side by side ---------------------------
reset
if (fmt eq 'png') {
	set terminal pngcairo size 1300,560 font 'DejaVu Sans,11' noenhanced
} else {
	set terminal svg size 1300,560 font 'DejaVu Sans,11' noenhanced dynamic
}
set output O.'/extension.'.fmt
set grid xtics ytics mytics lc rgb '#dddddd'
set key top left reverse Left opaque box lc rgb '#bbbbbb'
set style fill solid 0.35 border
set logscale xy 2
set logscale y 10
set format y '%g'
set xtics (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024) nomirror
set xrange [1.5:1400]
set xlabel 'CPUs (simulated, log scale)'
set ylabel 'cost per call ('.unit.', log scale)'
set multiplot layout 1,2 title 'push structures from 2 to 1024 CPUs (box: 25-75 %, line: median, whiskers: min-max, +: mean)'
set title 'set'
plot D.'/boxall-cpudl-set.dat' using ($2 / 1.08):4:3:7:6:($2 * 0.1) with candlesticks whiskerbars lw 1.2 lc rgb c_dl title 'cpudl', \
	'' using ($2 / 1.08):5:5:5:5:($2 * 0.1) with candlesticks lw 3 lc rgb c_dl notitle, \
	'' using ($2 / 1.08):8 with points pt 1 ps 1.2 lw 2 lc rgb '#000000' notitle, \
	D.'/boxall-cpupri-set.dat' using ($2 * 1.08):4:3:7:6:($2 * 0.1) with candlesticks whiskerbars lw 1.2 lc rgb c_pri title 'cpupri', \
	'' using ($2 * 1.08):5:5:5:5:($2 * 0.1) with candlesticks lw 3 lc rgb c_pri notitle, \
	'' using ($2 * 1.08):8 with points pt 1 ps 1.2 lw 2 lc rgb '#000000' notitle
set title 'find'
plot D.'/boxall-cpudl-find.dat' using ($2 / 1.12):4:3:7:6:($2 * 0.08) with candlesticks whiskerbars lw 1.2 lc rgb c_dl title 'cpudl', \
	'' using ($2 / 1.12):5:5:5:5:($2 * 0.08) with candlesticks lw 3 lc rgb c_dl notitle, \
	'' using ($2 / 1.12):8 with points pt 1 ps 1.2 lw 2 lc rgb '#000000' notitle, \
	D.'/boxall-cpupri-find.dat' using ($2):4:3:7:6:($2 * 0.08) with candlesticks whiskerbars lw 1.2 lc rgb c_pri title 'cpupri', \
	'' using ($2):5:5:5:5:($2 * 0.08) with candlesticks lw 3 lc rgb c_pri notitle, \
	'' using ($2):8 with points pt 1 ps 1.2 lw 2 lc rgb '#000000' notitle, \
	D.'/boxall-linear-find.dat' using ($2 * 1.12):4:3:7:6:($2 * 0.08) with candlesticks whiskerbars lw 1.2 lc rgb c_lin title 'linear', \
	'' using ($2 * 1.12):5:5:5:5:($2 * 0.08) with candlesticks lw 3 lc rgb c_lin notitle, \
	'' using ($2 * 1.12):8 with points pt 1 ps 1.2 lw 2 lc rgb '#000000' notitle
unset multiplot

# ---- kernel and reference against the utilisation ----------------------------------------------
if (nk) {
	reset
	if (fmt eq 'png') {
		set terminal pngcairo size 1400,540 font 'DejaVu Sans,11' noenhanced
	} else {
		set terminal svg size 1400,540 font 'DejaVu Sans,11' noenhanced dynamic
	}
	set output O.'/kernel.'.fmt
	set grid lc rgb '#dddddd'
	set key below maxrows 2
	set datafile missing 'NaN'
	set xlabel "utilisation per CPU (this machine's CPUs)"
	set xrange [0.2:1.02]
	# admission: 0.95 of each CPU less the fair server's 0.05
	set arrow 1 from 0.9, graph 0 to 0.9, graph 1 nohead dt 2 lc rgb '#888888'
	set label 1 'admission limit (0.9 per CPU)' at 0.9, graph 0.5 center rotate by 90 offset -0.8, 0 tc rgb '#666666'
	set multiplot layout 1,3 title 'same task sets, kernel (SCHED_DEADLINE) and reference; sets over the limit are refused, not counted'
	set title 'deadline-miss ratio'
	set ylabel 'missed jobs / jobs'
	set yrange [0:*]
	plot D.'/kernel.dat' using 1:2 with linespoints pt 7 lw 2 lc rgb '#d62728' title 'kernel', \
		'' using 1:6 with linespoints pt 5 lw 2 lc rgb c_dl title 'reference', \
		'' using 1:($10 > 0 ? 0 : 1/0) with points pt 2 ps 2.5 lw 2 lc rgb '#000000' title 'refused by admission'
	set title 'tardiness / period'
	set ylabel 'max(0, end - deadline) / period'
	plot D.'/kernel.dat' using 1:3 with linespoints pt 7 lw 2 lc rgb '#d62728' title 'kernel max', \
		'' using 1:4 with linespoints pt 6 dt 2 lw 2 lc rgb '#d62728' title 'kernel mean', \
		'' using 1:7 with linespoints pt 5 lw 2 lc rgb c_dl title 'reference max', \
		'' using 1:8 with linespoints pt 4 dt 2 lw 2 lc rgb c_dl title 'reference mean'
	set title 'migrations per job'
	set ylabel 'migrations / jobs'
	plot D.'/kernel.dat' using 1:5 with linespoints pt 7 lw 2 lc rgb '#d62728' title 'kernel', \
		'' using 1:9 with linespoints pt 5 lw 2 lc rgb c_dl title 'reference'
	unset multiplot
}
