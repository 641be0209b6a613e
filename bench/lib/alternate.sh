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
# Wall time from date +%s%N (clock_gettime(CLOCK_REALTIME) in ns): the
# commands run for tenths of a second to seconds, far above its resolution.

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
	printf '#   medians of each side and the median of the per-pair ratios\n'
}

# Nanoseconds of wall time of "$@", output discarded.
bench_ns() {
	local s e
	s=$(date +%s%N)
	"$@" > /dev/null 2>&1
	e=$(date +%s%N)
	echo $((e - s))
}

# Median of the numbers on stdin, one a line.
bench_median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print 0; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_pair LABEL_A LABEL_B: times the commands in the arrays BENCH_A and
# BENCH_B alternately.  Sets PAIR_A and PAIR_B (median seconds), PAIR_RATIO
# (median of B/A per pair: > 1 means A is faster), PAIR_MIN and PAIR_MAX
# (the spread of the per-pair ratios), and prints one line for them.
bench_pair() {
	local la=$1 lb=$2 i a b as='' bs='' rs=''
	"${BENCH_A[@]}" > /dev/null 2>&1
	"${BENCH_B[@]}" > /dev/null 2>&1
	for ((i = 0; i < BENCH_RUNS; i++)); do
		a=$(bench_ns "${BENCH_A[@]}")
		b=$(bench_ns "${BENCH_B[@]}")
		as+="$a"$'\n' bs+="$b"$'\n'
		rs+=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / (a > 0 ? a : 1) }')$'\n'
	done
	PAIR_A=$(printf '%s' "$as" | bench_median | awk '{ printf "%.3f", $1 / 1e9 }')
	PAIR_B=$(printf '%s' "$bs" | bench_median | awk '{ printf "%.3f", $1 / 1e9 }')
	PAIR_RATIO=$(printf '%s' "$rs" | bench_median | awk '{ printf "%.2f", $1 }')
	PAIR_MIN=$(printf '%s' "$rs" | sort -g | head -n 1 | awk '{ printf "%.2f", $1 }')
	PAIR_MAX=$(printf '%s' "$rs" | sort -g | tail -n 1 | awk '{ printf "%.2f", $1 }')
	printf '%-34s %7s s | %-34s %7s s | B/A %s (%s..%s)\n' "A: $la" "$PAIR_A" "B: $lb" \
		"$PAIR_B" "$PAIR_RATIO" "$PAIR_MIN" "$PAIR_MAX"
}

# Peak RSS in KB of "$@" (GNU time), output discarded.
bench_rss() {
	/usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -n 1
}
