# SPDX-License-Identifier: GPL-2.0
# The four figures of a run; called by plots/plot.sh with
#   fmt ('png' or 'svg'), D (data folder), O (output folder), N (tasks),
#   K (tasks named; the others are drawn together in grey), C (CPUs),
#   W0, W (Gantt window start and length, ms), title_run, left (what was
#   left out, '' if nothing), sched (1: the trace gave the schedule; 0: no
#   Gantt, no DL utilisation), gstalls (CPU stalls in the Gantt window,
#   D/gstalls.dat), stallmiss (misses within stalls, D/stallmiss.dat);
#   D/names.gp holds the K names and "other tasks".
# Every plot reads each data file once (colours from a column): the cost
# does not grow with the number of tasks.
if (fmt eq 'png') {
	set terminal pngcairo size 1200,520 font 'DejaVu Sans,10' noenhanced
} else {
	set terminal svg size 1200,520 font 'DejaVu Sans,10' noenhanced dynamic
}
load D.'/names.gp'
set datafile missing 'NaN'
set grid xtics ytics lc rgb '#dddddd'
set key outside right top
# a distinct colour per named task, cycled past 10; grey for the others
array pal[10] = [0x1f77b4, 0xff7f0e, 0x2ca02c, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f, 0xaec7e8]
grey = 0xc8c8c8
col(i) = int(i) < K ? pal[int(i) % 10 + 1] : grey
ngroups = N > K ? K + 1 : K
subtitle = left eq '' ? '' : "\n(".left.')'

# ---- Gantt: a row per CPU ---------------------------------------------------------------------
if (sched) {
	set output O.'/gantt.'.fmt
	set title sprintf('%s: schedule, %.1f to %.1f ms (x: deadline miss, triangle: throttled or overran its runtime, arrow: migration%s%s)%s', title_run, W0, W0 + W, N > K ? '; of the named tasks' : '', gstalls ? '; hatched: a CPU stall, nothing recorded' : '', subtitle)
	set xlabel 'time since the first release (ms)'
	set ylabel 'CPU'
	set xrange [W0:W0 + W]
	set yrange [-0.7:C - 0.3]
	set ytics 1
	set style fill solid 0.9 border rgb '#333333'
	in_win(t) = (t >= W0 && t <= W0 + W) ? t : 1/0
	named(i, v) = int(i) < K ? v : 1/0
	other(i, v) = int(i) < K ? 1/0 : v
	# the other tasks without borders (a grey band, not a black one); misses,
	# throttles and migrations of the named tasks only
	# a CPU stall (docs/analyzer.md "CPU stalls"): hatched, over the whole row
	plot D.'/gstalls.dat' using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.48) \
			with boxxyerror fs pattern 4 border rgb '#555555' lc rgb '#555555' notitle, \
		(gstalls ? 1/0 : NaN) with boxes fs pattern 4 lc rgb '#555555' title (gstalls ? 'CPU stall' : ''), \
		D.'/gantt.dat' using (other($4, ($2 + $3) / 2)):1:(($3 - $2) / 2):(0.35) \
			with boxxyerror fs solid 1.0 noborder lc rgb grey notitle, \
		D.'/gantt.dat' using (named($4, ($2 + $3) / 2)):1:(($3 - $2) / 2):(0.35):(col($4)) \
			with boxxyerror lc rgb variable notitle, \
		for [i=0:ngroups-1] keyentry with boxes fs solid 0.9 lc rgb col(i) title names[i + 1], \
		D.'/jobs.dat' using (named($1, in_win($3))):($6 == 1 ? $7 + 0.45 : 1/0) with points pt 2 ps 2 lw 3 lc rgb '#d62728' title 'miss', \
		D.'/throttles.dat' using (named($3, in_win($1))):($2 - 0.45) with points pt 9 ps 1.2 lc rgb '#000000' title 'throttle', \
		D.'/migrations.dat' using (named($4, in_win($1))):($2):(0):($3 - $2) with vectors head filled size screen 0.008,20 lw 1.5 lc rgb '#000000' title 'migration'
}

# ---- response-time CDF per task ----------------------------------------------------------------
reset
set datafile missing 'NaN'
set grid lc rgb '#dddddd'
set key outside right top
set output O.'/response_cdf.'.fmt
set title title_run.': response time (end - release) CDF per task'.subtitle
set xlabel 'response time (us)'
set ylabel 'fraction of jobs'
set yrange [0:1.02]
set offsets graph 0.03, graph 0.03, 0, 0
plot for [i=0:ngroups-1] D.'/response_cdf.dat' index i using 1:2 with steps lw 2 lc rgb col(i) title names[i + 1]

# ---- lateness per job --------------------------------------------------------------------------
reset
set datafile missing 'NaN'
set grid lc rgb '#dddddd'
set key outside right top
set output O.'/lateness.'.fmt
set title title_run.': lateness (end - absolute deadline; above 0 = deadline miss), per task the worst job of each 1/1000 of the run'.subtitle
set xlabel 'job end (ms since the first release)'
set ylabel 'lateness (us)'
set xzeroaxis lt 1 lw 2 lc rgb '#d62728'
# keep the deadline (0) in view even when every job is early
set yrange [*:100<*]
set offsets 0, 0, graph 0.05, graph 0.05
# misses within the CPU stalls their jobs met (all of them, ringed)
plot D.'/lateness.dat' using 1:2:(col($3)) with points pt 7 ps 0.7 lc rgb variable notitle, \
	for [i=0:ngroups-1] keyentry with points pt 7 ps 0.7 lc rgb col(i) title names[i + 1], \
	D.'/stallmiss.dat' using 1:2 with points pt 6 ps 1.6 lw 1.5 lc rgb '#000000' \
		title (stallmiss ? 'miss within CPU stalls' : '')

# ---- DL utilisation per CPU --------------------------------------------------------------------
if (sched) {
	reset
	set grid lc rgb '#dddddd'
	set key outside right top
	set output O.'/dl_util.'.fmt
	set title title_run.': SCHED_DEADLINE utilisation per CPU (50 ms bins)'
	set xlabel 'time since the first release (ms)'
	set ylabel 'DL busy (%)'
	set yrange [0:105]
	plot for [c=0:C-1] D.'/util.dat' index c using 1:3 with steps lw 2 title sprintf('cpu%d', c)
}

# ---- conformance: the kernel's schedule above the oracle's -------------------------------------
# (conf = 1: D/kgantt.dat, ogantt.dat (cpu start end idx), ojobs.dat (idx end miss cpu),
#  odivs.dat (n idx release deadline kind cause job name); CW0: the window's start;
#  divlist: the divergences' list; runby: the run's backend, kernel or reference.)
# Oracle CPU c is row c, the run's CPU c row C + 1 + c;
# row C holds each divergent job's release-to-deadline span, numbered, in three lanes.
if (conf) {
	reset
	if (fmt eq 'png') {
		set terminal pngcairo size 1200,700 font 'DejaVu Sans,10' noenhanced
	} else {
		set terminal svg size 1200,700 font 'DejaVu Sans,10' noenhanced dynamic
	}
	set output O.'/conformance.'.fmt
	set datafile missing 'NaN'
	set key outside right top
	set grid xtics lc rgb '#dddddd'
	set title sprintf("%s: the %s's schedule (top) and the oracle's replay of its jobs (bottom), %.1f to %.1f ms\nx: deadline miss; numbered: divergent jobs, release to deadline%s", title_run, runby, CW0, CW0 + W, subtitle)
	set xlabel "time since the first release (ms)"
	set label 2 (divlist eq '' ? 'no divergence' : "divergent jobs (the first 8 by release; misses before placement):\n".divlist) at screen 0.02, screen 0.125 left front
	set xrange [CW0:CW0 + W]
	set yrange [-0.7:2 * C + 0.7]
	set ytics ()
	do for [c=0:C-1] {
		set ytics add (sprintf('oracle CPU %d', c) c)
		set ytics add (sprintf('%s CPU %d', runby, c) C + 1 + c)
	}
	set ytics add ('divergences' C)
	set object 1 rect from graph 0, first C - 0.45 to graph 1, first C + 0.45 fc rgb '#fff4e0' fs solid 1.0 noborder behind
	set bmargin 11
	set style fill solid 0.9 border rgb '#333333'
	in_cwin(t) = (t >= CW0 && t <= CW0 + W) ? t : 1/0
	is_miss(k) = (strcol(k) eq 'kernel_only_miss' || strcol(k) eq 'oracle_only_miss')
	# three lanes in the band, so that jobs released together stay apart
	lane(n) = C - 0.3 + 0.3 * ((int(n) - 1) % 3)
	plot D.'/kgantt.dat' using (($2 + $3) / 2):(C + 1 + $1):(($3 - $2) / 2):(0.35):(col($4)) \
			with boxxyerror lc rgb variable notitle, \
		D.'/ogantt.dat' using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.35):(col($4)) \
			with boxxyerror lc rgb variable notitle, \
		for [i=0:ngroups-1] keyentry with boxes fs solid 0.9 lc rgb col(i) title names[i + 1], \
		D.'/jobs.dat' using (in_cwin($3)):($6 == 1 ? C + 1 + $7 + 0.45 : 1/0) with points pt 2 ps 2 lw 3 lc rgb '#d62728' title 'miss', \
		D.'/ojobs.dat' using (in_cwin($2)):($4 + 0.45) with points pt 2 ps 2 lw 3 lc rgb '#d62728' notitle, \
		D.'/odivs.dat' using (($3 + $4) / 2):(lane($1)):3:4:(lane($1) - 0.12):(lane($1) + 0.12):(col($2)) with boxxyerror fs solid 0.6 noborder lc rgb variable notitle, \
		D.'/odivs.dat' using (in_cwin($3)):(-0.6):(0):(2 * C + 1.2):(is_miss(5) ? 0xd62728 : 0x777777) with vectors nohead dt 2 lw 1.2 lc rgb variable notitle, \
		D.'/odivs.dat' using (in_cwin($3)):(lane($1)):(sprintf('%d', $1)):(is_miss(5) ? 0xd62728 : 0x333333) with labels left offset 0.3,0 font ',10' tc rgb variable notitle
}
