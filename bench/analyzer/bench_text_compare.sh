#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/analyzer/bench_text_compare.sh [BASE]: the text reader's speed, BASE
# (default: the merge-base with main) against the working tree, side by side
# in one run.  Never run by `make check`.
#
# Builds BASE's tracestat and dlb-analyze from `git archive` in a temporary
# directory, then on three text traces times base and new alternately
# (bench/lib/alternate.sh: A B A B ..., medians and the median per-pair
# ratio; DLB_BENCH_RUNS / DLB_BENCH_QUICK set the run count), and the new
# reader against fgets + strstr, the floor (bench/input/strstr_lines.c):
#   kernel   the kernel's own text (tracefs trace / trace_pipe): a pipe
#            ping-pong's sched_switch, sched_waking, sched_wakeup and
#            sched_stat_runtime, as dlb-record -f text writes it
#            (DLB_BENCH_KTEXT=FILE: a real one; default: generated, 1.6 M lines)
#   dl       bench_analyze.sh's deadline-heavy kernel text (markers, migrations)
#   report   `trace-cmd report -t` of the input bench's trace.dat, when cached
# Prints M lines/s of the reader alone (tracestat -n) and of dlb-analyze;
# with valgrind also instructions per line of the reader on the first 200 k
# lines (deterministic: the ratio does not depend on the load).  Both
# readers' event dumps must be equal.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
base=${1:-$(git -C "$src" merge-base HEAD main)}
dir=$src/build/bench
tmp=$(mktemp -d /tmp/dlb-text-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"

# shellcheck source=bench/lib/alternate.sh
. "$src/bench/lib/alternate.sh"
echo "# base $(git -C "$src" rev-parse --short "$base") vs working tree" \
	"$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD || echo +changes)"
mkdir "$tmp/base"
git -C "$src" archive "$base" | tar -x -C "$tmp/base"
targets="build/analyzer/input/tests/tracestat build/bin/dlb-analyze"
# shellcheck disable=SC2086
nice make -s -C "$tmp/base" -j2 $targets >/dev/null
# shellcheck disable=SC2086
nice make -s -C "$src" -j2 $targets build/bench/input/strstr_lines >/dev/null

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
# bench_analyze.sh writes it (80000 periods; 8000 with DLB_BENCH_QUICK)
dl=$dir/analyze-dl-80000.txt
[ -s "$dl" ] || dl=$dir/analyze-dl-8000.txt
[ -s "$dl" ] || echo "# no DL-heavy text: run bench/analyzer/bench_analyze.sh once to write it"
# bench_input.sh's `trace-cmd report -t` text (1.5 M lines; 300 k-event trace with DLB_BENCH_QUICK)
rep=$dir/input-3M-text.txt
[ -s "$rep" ] || rep=$dir/input-300k-text.txt
inputs="kernel:$kt"
[ -s "$dl" ] && inputs="$inputs dl:$dl"
[ -s "$rep" ] && inputs="$inputs report:$rep"

B=$tmp/base/build
N=$src/build
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / s / 1e6 }'; }
bench_machine
same=yes
summary=
for in in $inputs; do
	name=${in%%:*} f=${in#*:}
	lines=$(wc -l <"$f")
	cmp -s <("$B/analyzer/input/tests/tracestat" -d "$f") \
		<("$N/analyzer/input/tests/tracestat" -d "$f") || same="NO ($name)"
	echo "## $name: $f, $lines lines"
	BENCH_A=("$B/analyzer/input/tests/tracestat" -n "$f")
	BENCH_B=("$N/analyzer/input/tests/tracestat" -n "$f")
	bench_pair "reader, base" "reader, new"
	summary+=$(printf '# %-7s reader   %6s -> %6s M lines/s, new/base time %s (cpu %s)' "$name" \
		"$(rate "$lines" "$PAIR_A")" "$(rate "$lines" "$PAIR_B")" "$PAIR_RATIO" \
		"$PAIR_CPU_RATIO")$'\n'
	BENCH_A=("$N/bench/input/strstr_lines" "$f")
	bench_pair "fgets + strstr (floor)" "reader, new"
	summary+=$(printf '# %-7s reader   of the floor (floor time / new): %.2f (cpu %.2f)' "$name" \
		"$(awk -v r="$PAIR_RATIO" 'BEGIN { print 1 / r }')" \
		"$(awk -v r="$PAIR_CPU_RATIO" 'BEGIN { print (r > 0 ? 1 / r : 0) }')")$'\n'
	BENCH_A=("$B/bin/dlb-analyze" -q -A -m -1 "$f")
	BENCH_B=("$N/bin/dlb-analyze" -q -A -m -1 "$f")
	bench_pair "dlb-analyze, base" "dlb-analyze, new"
	summary+=$(printf '# %-7s analyze  %6s -> %6s M lines/s, new/base time %s (cpu %s)' "$name" \
		"$(rate "$lines" "$PAIR_A")" "$(rate "$lines" "$PAIR_B")" "$PAIR_RATIO" \
		"$PAIR_CPU_RATIO")$'\n'
done
printf '%s' "$summary"
echo "# event dumps of base and new equal on every input: $same"

if command -v valgrind >/dev/null; then
	head -n 200000 "$kt" >"$tmp/k200k.txt"
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -n "$tmp/k200k.txt" 2>&1 |
			awk '/refs:/ { gsub(",", "", $NF); print $NF }'
	}
	ib=$(ir "$B/analyzer/input/tests/tracestat")
	iw=$(ir "$N/analyzer/input/tests/tracestat")
	awk -v b="$ib" -v w="$iw" 'BEGIN { printf "# instructions/line (callgrind, kernel text," \
		" 200 k lines): base %.0f, new %.0f, %.2fx fewer\n", b / 200000, w / 200000, b / w }'
fi
