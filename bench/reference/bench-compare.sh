#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/reference/bench-compare.sh [BASE]: the simulator's speed, BASE (default: the
# merge-base with main) against the working tree, side by side in one run.
#
# Builds BASE from `git archive` in a temporary directory, then runs both
# binaries alternately, N rounds (DLB_COMPARE_N, default 7), base then new
# in each round, so that load from other processes on the machine hits
# both alike; it quotes the median of each side and the median (min..max)
# of the per-round ratios, never the best run (bench/lib/alternate.sh says
# why):
#   - dlb-sim-bench --quick: events/s of its three simulations (64 CPUs,
#     640 tasks, 1 s simulated): +markers, sched heap, sched linear;
#   - dlb-sim -o on a 64-task, 8-CPU, 20 s workload: wall time with the
#     trace written;
#   - with valgrind: instructions of `dlb-sim-bench --quick --sim-only`
#     (deterministic: the ratio does not depend on the machine's load).
# Prints new/base ratios (> 1: the new tree is faster).  Never run by `make check`.
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:-$(git -C "$src" merge-base HEAD main)}
n=${DLB_COMPARE_N:-7}
tmp=$(mktemp -d /tmp/dlb-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "# base $(git -C "$src" rev-parse --short "$base") vs working tree $(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD || echo +changes), $n rounds alternated, medians"
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir "$tmp/base"
git -C "$src" archive "$base" | tar -x -C "$tmp/base"
make -s -C "$tmp/base" -j2 build/bin/dlb-sim-bench build/bin/dlb-sim >/dev/null
make -s -C "$src" -j2 build/bin/dlb-sim-bench build/bin/dlb-sim >/dev/null
B=$tmp/base/build/bin
N=$src/build/bin

# events M/s of the three sim lines, one per line: "+markers heap" etc.
sims() {
	"$1/dlb-sim-bench" --quick | awk '/^sim / { r = substr($0, index($0, " events "));
		sub(/^[^(]*[(] */, "", r); sub(/ .*/, "", r); print $9 "_" $10, r }'
}

# a deterministic workload for dlb-sim -o: 64 periodic -deadline tasks, 8 % each
awk 'BEGIN { s = 1; printf "{\"global\": {\"duration\": 20}, \"tasks\": {";
	for (i = 0; i < 64; i++) {
		s = (s * 1103515245 + 12345) % 2147483648; p = (10 + s % 91) * 1000;
		printf "%s\"t%d\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": %d, \"dl-period\": %d, \"dl-deadline\": %d, \"run\": %d, \"timer\": {\"ref\": \"unique\", \"period\": %d, \"mode\": \"absolute\"}}",
			i ? ", " : "", i, p * 8 / 100, p, p, p * 8 / 100 * 9 / 10, p }
	printf "}}\n" }' >"$tmp/w.json"

simwall() {
	rm -rf "$tmp/out"
	s=$(date +%s%N)
	"$1/dlb-sim" -m 8 --no-timing -o "$tmp/out" "$tmp/w.json" >/dev/null
	e=$(date +%s%N)
	echo "dlb-sim_-o $(( (e - s) / 1000 ))"
}

: >"$tmp/b.txt"
: >"$tmp/n.txt"
i=0
while [ $i -lt "$n" ]; do
	sims "$B" | sed "s/^/$i /" >>"$tmp/b.txt"
	sims "$N" | sed "s/^/$i /" >>"$tmp/n.txt"
	simwall "$B" | sed "s/^/$i /" >>"$tmp/b.txt"
	simwall "$N" | sed "s/^/$i /" >>"$tmp/n.txt"
	i=$((i + 1))
done
rm -rf "$tmp/out"
"$B/dlb-sim" -m 8 --no-timing -o "$tmp/ob" "$tmp/w.json" >/dev/null
"$N/dlb-sim" -m 8 --no-timing -o "$tmp/on" "$tmp/w.json" >/dev/null
if diff -r "$tmp/ob" "$tmp/on" >/dev/null; then same=yes; else same=NO; fi

# per line "ROUND KEY VALUE"; a speed ratio per round (M/s new/base, wall
# base/new: > 1 means the new tree is faster), then medians
awk 'function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
     FNR == NR { b[$2, $1] = $3; keys[$2] = 1; if ($1 + 1 > rounds) rounds = $1 + 1; next }
     { w[$2, $1] = $3 }
     END { printf "%-22s %12s %12s %8s  %s\n", "", "base", "new", "speed", "(per-round min..max)";
	   for (k in keys) {
		for (r = 0; r < rounds; r++) {
			vb[r + 1] = b[k, r]; vn[r + 1] = w[k, r]
			q[r + 1] = (k ~ /dlb-sim/) ? b[k, r] / w[k, r] : w[k, r] / b[k, r]
		}
		mb = med(vb, rounds); mn = med(vn, rounds); mq = med(q, rounds)
		lo = q[1]; hi = q[rounds]
		if (k ~ /dlb-sim/)
			printf "%-22s %9.3f s %10.3f s %7.2fx  (%.2f..%.2f)\n", "dlb-sim -o (wall)",
				mb / 1e6, mn / 1e6, mq, lo, hi
		else
			printf "%-22s %8.2f M/s %8.2f M/s %7.2fx  (%.2f..%.2f)\n", "bench " k,
				mb, mn, mq, lo, hi
	   } }' "$tmp/b.txt" "$tmp/n.txt"
echo "dlb-sim -o outputs byte-identical: $same"

if command -v valgrind >/dev/null; then
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1/dlb-sim-bench" \
			--quick --sim-only 2>&1 >/dev/null | awk '/refs:/ { gsub(/,/, "", $NF); print $NF }'
	}
	bi=$(ir "$B")
	ni=$(ir "$N")
	awk -v b="$bi" -v n="$ni" 'BEGIN { printf "%-22s %10.1f M %10.1f M %7.2fx (fewer)\n",
		"instructions +markers", b / 1e6, n / 1e6, b / n }'
fi
