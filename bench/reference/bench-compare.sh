#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/reference/bench-compare.sh [BASE]: the simulator's speed, BASE (default: the
# merge-base with main) against the working tree, side by side in one run.
#
# Builds BASE from `git archive` in a temporary directory, then runs both
# binaries alternately, best of N (DLB_COMPARE_N, default 7), so that load
# from other processes on the machine hits both alike:
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

echo "# base $(git -C "$src" rev-parse --short "$base") vs working tree $(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD || echo +changes), best of $n"
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
	sims "$B" >>"$tmp/b.txt"
	sims "$N" >>"$tmp/n.txt"
	simwall "$B" >>"$tmp/b.txt"
	simwall "$N" >>"$tmp/n.txt"
	i=$((i + 1))
done
rm -rf "$tmp/out"
"$B/dlb-sim" -m 8 --no-timing -o "$tmp/ob" "$tmp/w.json" >/dev/null
"$N/dlb-sim" -m 8 --no-timing -o "$tmp/on" "$tmp/w.json" >/dev/null
if diff -r "$tmp/ob" "$tmp/on" >/dev/null; then same=yes; else same=NO; fi

# best: the highest M/s, the lowest wall time
awk 'FNR == NR { if ($1 ~ /dlb-sim/) { if (!($1 in b) || $2 < b[$1]) b[$1] = $2 }
		 else if ($2 > b[$1]) b[$1] = $2; next }
     { if ($1 ~ /dlb-sim/) { if (!($1 in w) || $2 < w[$1]) w[$1] = $2 }
       else if ($2 > w[$1]) w[$1] = $2 }
     END { printf "%-22s %12s %12s %8s\n", "", "base", "new", "new/base";
	   for (k in b) if (k !~ /dlb-sim/)
		printf "%-22s %8.2f M/s %8.2f M/s %7.2fx\n", "bench " k, b[k], w[k], w[k] / b[k];
	   k = "dlb-sim_-o";
	   printf "%-22s %9.3f s %10.3f s %7.2fx (speed)\n", "dlb-sim -o (wall)",
		b[k] / 1e6, w[k] / 1e6, b[k] / w[k] }' "$tmp/b.txt" "$tmp/n.txt"
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
