# SPDX-License-Identifier: GPL-2.0
# The four figures of a run; called by plots/plot.sh with
#   fmt ('png' or 'svg'), D (data folder), O (output folder), N (tasks),
#   C (CPUs), W0, W (Gantt window start and length, ms), names (task names),
#   title_run.
if (fmt eq 'png') {
	set terminal pngcairo size 1200,520 font 'DejaVu Sans,10' noenhanced
} else {
	set terminal svg size 1200,520 font 'DejaVu Sans,10' noenhanced dynamic
}
set datafile missing 'NaN'
set grid xtics ytics lc rgb '#dddddd'
set key outside right top
# a distinct colour per task, cycled past 10
array pal[10] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#aec7e8']
col(i) = pal[int(i) % 10 + 1]

# ---- Gantt: a row per CPU ---------------------------------------------------------------------
set output O.'/gantt.'.fmt
set title sprintf('%s: schedule, %.1f to %.1f ms (x: deadline miss, triangle: throttled or overran its runtime, arrow: migration)', title_run, W0, W0 + W)
set xlabel 'time since the first release (ms)'
set ylabel 'CPU'
set xrange [W0:W0 + W]
set yrange [-0.7:C - 0.3]
set ytics 1
set style fill solid 0.9 border rgb '#333333'
in_win(t) = (t >= W0 && t <= W0 + W) ? t : 1/0
plot for [i=0:N-1] D.'/segments.dat' using (($2 + $3) / 2):($4 == i ? $1 : 1/0):(($3 - $2) / 2):(0.35) \
		with boxxyerror lc rgb col(i) title word(names, i + 1), \
	D.'/jobs.dat' using (in_win($3)):($6 == 1 ? $7 + 0.45 : 1/0) with points pt 2 ps 2 lw 3 lc rgb '#d62728' title 'miss', \
	D.'/throttles.dat' using (in_win($1)):($2 - 0.45) with points pt 9 ps 1.2 lc rgb '#000000' title 'throttle', \
	D.'/migrations.dat' using (in_win($1)):($2):(0):($3 - $2) with vectors head filled size screen 0.008,20 lw 1.5 lc rgb '#000000' title 'migration'

# ---- response-time CDF per task ----------------------------------------------------------------
reset
set datafile missing 'NaN'
set grid lc rgb '#dddddd'
set key outside right top
set output O.'/response_cdf.'.fmt
set title title_run.': response time (end - release) CDF per task'
set xlabel 'response time (us)'
set ylabel 'fraction of jobs'
set yrange [0:1.02]
set offsets graph 0.03, graph 0.03, 0, 0
plot for [i=0:N-1] D.'/response_cdf.dat' index i using 1:2 with steps lw 2 lc rgb col(i) title word(names, i + 1)

# ---- lateness per job --------------------------------------------------------------------------
reset
set datafile missing 'NaN'
set grid lc rgb '#dddddd'
set key outside right top
set output O.'/lateness.'.fmt
set title title_run.': lateness per job (end - absolute deadline; above 0 = deadline miss)'
set xlabel 'job end (ms since the first release)'
set ylabel 'lateness (us)'
set xzeroaxis lt 1 lw 2 lc rgb '#d62728'
# keep the deadline (0) in view even when every job is early
set yrange [*:100<*]
set offsets 0, 0, graph 0.05, graph 0.05
plot for [i=0:N-1] D.'/jobs.dat' using ($1 == i ? $3 : 1/0):4 with points pt 7 ps 0.7 lc rgb col(i) title word(names, i + 1)

# ---- DL utilisation per CPU --------------------------------------------------------------------
reset
set grid lc rgb '#dddddd'
set key outside right top
set output O.'/dl_util.'.fmt
set title title_run.': SCHED_DEADLINE utilisation per CPU (50 ms bins)'
set xlabel 'time since the first release (ms)'
set ylabel 'DL busy (%)'
set yrange [0:105]
plot for [c=0:C-1] D.'/util.dat' index c using 1:3 with steps lw 2 title sprintf('cpu%d', c)
