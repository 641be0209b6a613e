#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/analyzer/bench_text_compare.sh [BASE]: the text reader's speed, BASE
# (default: the merge-base with main) against the working tree, side by side
# in one run.  Never run by `make check`.
#
# Builds BASE's tracestat and dlb-analyze from `git archive` in a temporary
# directory, then on three text traces runs base and new alternately, best
# of N (DLB_COMPARE_N, default 5), so that load from the other processes on
# this shared machine hits both alike:
#   kernel   the kernel's own text (tracefs trace / trace_pipe): a pipe
#            ping-pong's sched_switch, sched_waking, sched_wakeup and
#            sched_stat_runtime, as dlb-record -f text writes it
#            (DLB_BENCH_KTEXT=FILE: a real one; default: generated, 1.6 M lines)
#   dl       bench_analyze.sh's deadline-heavy kernel text (markers, migrations)
#   report   `trace-cmd report -t` of the input bench's trace.dat, when cached
# Prints M lines/s of the reader alone (tracestat -n) and of dlb-analyze,
# new/base (> 1: the new tree is faster); with valgrind also instructions
# per line of the reader on the first 200 k lines (deterministic: the ratio
# does not depend on the load).  Both readers' event dumps must be equal.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:-$(git -C "$src" merge-base HEAD main)}
n=${DLB_COMPARE_N:-5}
dir=$src/build/bench
tmp=$(mktemp -d /tmp/dlb-text-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"

echo "# base $(git -C "$src" rev-parse --short "$base") vs working tree" \
	"$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD || echo +changes), best of $n"
mkdir "$tmp/base"
git -C "$src" archive "$base" | tar -x -C "$tmp/base"
targets="build/analyzer/input/tests/tracestat build/bin/dlb-analyze"
# shellcheck disable=SC2086
nice make -s -C "$tmp/base" -j2 $targets >/dev/null
# shellcheck disable=SC2086
nice make -s -C "$src" -j2 $targets >/dev/null

# the kernel's text of a pipe ping-pong on 2 CPUs (what dlb-record -f text saw here)
ktext() {
	awk -v n="$1" 'BEGIN {
		print "# tracer: nop"
		print "#"
		for (i = 0; i < n; i++) {
			cpu = i % 2; a = 2000 + cpu; b = 3000 + cpu; c = sprintf("%03d", cpu)
			us = 1000000 + i * 7
			t = sprintf("%d.%06d", int(us / 1e6) + 10000, us % 1e6)
			printf "        pingpong-%d    [%s] d..2. %s: sched_stat_runtime: comm=pingpong pid=%d runtime=%d [ns]\n", a, c, t, a, 3000 + i % 977
			printf "        pingpong-%d    [%s] d..4. %s: sched_waking: comm=pingpong pid=%d prio=89 target_cpu=%s\n", a, c, t, b, c
			printf "        pingpong-%d    [%s] dN.5. %s: sched_wakeup: comm=pingpong pid=%d prio=89 target_cpu=%s\n", a, c, t, b, c
			printf "        pingpong-%d    [%s] d..2. %s: sched_switch: prev_comm=pingpong prev_pid=%d prev_prio=89 prev_state=S ==> next_comm=pingpong next_pid=%d next_prio=89\n", a, c, t, a, b
		}
	}'
}
kt=${DLB_BENCH_KTEXT:-$dir/compare-kernel.txt}
[ -s "$kt" ] || ktext 400000 >"$kt"
dl=$dir/analyze-dl.txt
if [ ! -s "$dl" ]; then
	# bench_analyze.sh writes it; run its generator alone
	DLB_SRC=$src DLB_BUILD=$src/build bash "$src/bench/analyzer/bench_analyze.sh" >/dev/null 2>&1 || true
fi
rep=$dir/input-text.txt	# bench_input.sh's `trace-cmd report -t` text
inputs="kernel:$kt"
[ -s "$dl" ] && inputs="$inputs dl:$dl"
[ -s "$rep" ] && inputs="$inputs report:$rep"

B=$tmp/base/build
N=$src/build
secs() {
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}
: >"$tmp/t.txt"
same=yes
for in in $inputs; do
	name=${in%%:*} f=${in#*:}
	lines=$(wc -l <"$f")
	cmp -s <("$B/analyzer/input/tests/tracestat" -d "$f") \
		<("$N/analyzer/input/tests/tracestat" -d "$f") || same="NO ($name)"
	i=0
	while [ $i -lt "$n" ]; do
		for side in base new; do
			if [ $side = base ]; then d=$B; else d=$N; fi
			echo "$name reader $side $lines $(secs "$d/analyzer/input/tests/tracestat" -n "$f")" >>"$tmp/t.txt"
			echo "$name analyze $side $lines $(secs "$d/bin/dlb-analyze" -q -A -m -1 "$f")" >>"$tmp/t.txt"
		done
		i=$((i + 1))
	done
done
printf '%-18s %10s %10s %8s\n' "M lines/s" base new new/base
awk '{ k = $1 " " $2; v = $4 / $5; if (!((k, $3) in b) || v > b[k, $3]) b[k, $3] = v;
       if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
     END { for (i = 1; i <= m; i++) { k = order[i];
	printf "%-18s %10.2f %10.2f %7.2fx\n", k, b[k, "base"], b[k, "new"], b[k, "new"] / b[k, "base"] } }' \
	"$tmp/t.txt"
echo "# event dumps of base and new equal on every input: $same"

if command -v valgrind >/dev/null; then
	head -n 200000 "$kt" >"$tmp/k200k.txt"
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -n "$tmp/k200k.txt" 2>&1 |
			awk '/refs:/ { gsub(",", "", $NF); print $NF }'
	}
	ib=$(ir "$B/analyzer/input/tests/tracestat")
	iw=$(ir "$N/analyzer/input/tests/tracestat")
	awk -v b="$ib" -v w="$iw" 'BEGIN { printf "%-18s %10.0f %10.0f %7.2fx (fewer)\n",
		"instructions/line", b / 200000, w / 200000, b / w }'
fi
