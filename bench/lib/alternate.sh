# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the benches: side-by-side timing that a shared, noisy machine
# cannot bias.  Two commands run alternately, A B A B ..., RUNS times each
# after one untimed warm-up of each (page cache, dynamic linking); each
# pair's ratio B/A is taken in the same moment of load, and the median of
# those ratios is the figure quoted, beside the medians of A and B.
# Best-of-N in sequence is not used: it favours whichever side happened to
# run while the machine was quiet.
#
#   DLB_BENCH_QUICK=1   3 runs a side (tests, a quick look); default 7
#   DLB_BENCH_RUNS=N    N runs a side (overrides both)
#

if [ -n "${DLB_BENCH_RUNS:-}" ]; then
	BENCH_RUNS=$DLB_BENCH_RUNS
elif [ -n "${DLB_BENCH_QUICK:-}" ]; then
	BENCH_RUNS=3
else
	BENCH_RUNS=7
fi

# The machine and the run count, printed once by each bench.
bench_machine() {
	local cpu
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	printf '# machine: %s; %s CPUs online (nproc); kernel %s; load average %s\n' \
		"${cpu:-unknown CPU}" "$(nproc)" "$(uname -r)" \
		"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	printf '# %s runs a side, A and B alternated (A B A B ...) after a warm-up of each;\n' \
		"$BENCH_RUNS"
	printf '#   medians of each side and the median (min..max) of the per-pair ratios B/A,\n'
	printf '#   of wall and of CPU time (user + system, children included)\n'
}

# "WALL_NS CPU_S" of "$@", output discarded: wall time from date +%s%N,
# CPU time (user + system, the command's waited-for children included: the
# reader's probe and convert) from GNU time, 10 ms resolution.  On a loaded
# machine the wall time also counts waiting for a CPU; the CPU time does not.
bench_run() {
	local s e f
	f=$(mktemp)
	s=$(date +%s%N)
	/usr/bin/time -f '%U %S' -o "$f" "$@" > /dev/null 2>&1
	e=$(date +%s%N)
	echo "$((e - s)) $(awk '{ print $1 + $2 }' "$f")"
	rm -f "$f"
}

# Median of the numbers on stdin, one a line.
bench_median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print 0; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "median (min..max)" of the ratios on stdin
bench_ratios() {
	local r
	r=$(cat)
	printf '%.2f (%.2f..%.2f)' "$(printf '%s' "$r" | bench_median)" \
		"$(printf '%s' "$r" | sort -g | head -n 1)" "$(printf '%s' "$r" | sort -g | tail -n 1)"
}

# bench_pair LABEL_A LABEL_B: times the commands in the arrays BENCH_A and
# BENCH_B alternately.  Sets PAIR_A and PAIR_B (median wall seconds),
# PAIR_RATIO (median of the per-pair wall ratios B/A: > 1 means A is
# faster), PAIR_CPU_A, PAIR_CPU_B and PAIR_CPU_RATIO (the same of CPU
# time), and prints them with the spread of the per-pair ratios.
# shellcheck disable=SC2034	# PAIR_*: read by the benches that source this
bench_pair() {
	local la=$1 lb=$2 i a b wa wb ca cb was='' wbs='' cas='' cbs='' wr='' cr=''
	"${BENCH_A[@]}" > /dev/null 2>&1
	"${BENCH_B[@]}" > /dev/null 2>&1
	for ((i = 0; i < BENCH_RUNS; i++)); do
		a=$(bench_run "${BENCH_A[@]}")
		b=$(bench_run "${BENCH_B[@]}")
		read -r wa ca <<< "$a"
		read -r wb cb <<< "$b"
		was+="$wa"$'\n' wbs+="$wb"$'\n' cas+="$ca"$'\n' cbs+="$cb"$'\n'
		wr+=$(awk -v a="$wa" -v b="$wb" 'BEGIN { printf "%.4f", b / (a > 0 ? a : 1) }')$'\n'
		cr+=$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.4f", b / (a > 0 ? a : 0.01) }')$'\n'
	done
	PAIR_A=$(printf '%s' "$was" | bench_median | awk '{ printf "%.3f", $1 / 1e9 }')
	PAIR_B=$(printf '%s' "$wbs" | bench_median | awk '{ printf "%.3f", $1 / 1e9 }')
	PAIR_CPU_A=$(printf '%s' "$cas" | bench_median | awk '{ printf "%.2f", $1 }')
	PAIR_CPU_B=$(printf '%s' "$cbs" | bench_median | awk '{ printf "%.2f", $1 }')
	PAIR_RATIO=$(printf '%s' "$wr" | bench_median | awk '{ printf "%.2f", $1 }')
	PAIR_CPU_RATIO=$(printf '%s' "$cr" | bench_median | awk '{ printf "%.2f", $1 }')
	printf 'A: %s  vs  B: %s\n' "$la" "$lb"
	printf '    wall  A %7s s  B %7s s  B/A %s\n' "$PAIR_A" "$PAIR_B" \
		"$(printf '%s' "$wr" | bench_ratios)"
	printf '    cpu   A %7s s  B %7s s  B/A %s\n' "$PAIR_CPU_A" "$PAIR_CPU_B" \
		"$(printf '%s' "$cr" | bench_ratios)"
}

# Peak RSS in KB of "$@" (GNU time), output discarded.
bench_rss() {
	/usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -n 1
}
