#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-analyze writes the same reports (report.json, report.txt, jobs.csv and
# every other file it writes) and exits the same whether the trace.dat is
# decoded on one thread or several (DLB_TRACE_JOBS, so that the command line
# in the reports is the same), on every run folder and trace.dat fixture,
# and on an 8-CPU-stream trace.dat (widen_dat: 4 copies of a 2-CPU
# recording, 3 ns apart).  Compressed files go through their uncompressed
# copy (DLB_DAT_COPY_MIN=0): read directly, they are decoded on one thread.
. "${DLB_SRC:-$(dirname "$0")/../..}/analyzer/tests/cli-lib.bash"
export DLB_DAT_COPY_MIN=0
# 20 opens of a trace.dat: 204 s in CI with ASan's slow unwinding
asan_fast_unwind
# shellcheck disable=SC2054  # the commas are dlb-analyze -p's NAME=RUNTIME,DEADLINE,PERIOD
P=(-p dl_a=2ms,10ms,10ms -p dl_b=3ms,15ms,20ms)
inputs=("$F/gen3" "$F/rtapp-cbs" "$F/rtapp-global" "$F/rtapp-part" "$F/rtapp10rec"
	"$F/rtapp10.dat" "$F/rtapp10.v6.dat" "$F/lost.dat" "$F/instance.dat")
if "$DLB_BUILD/analyzer/input/tests/widen_dat" "$F/rtapp10.v6.dat" "$T/wide8.dat" 8 3; then
	inputs+=("$T/wide8.dat")
fi
plan $((2 * ${#inputs[@]}))

# analyze JOBS INPUT: reports in $T/jJOBS (written as $T/o: one command line)
analyze() {
	rm -rf "$T/o"
	DLB_TRACE_JOBS=$1 "$A" -q "${P[@]}" -o "$T/o" "$2" > "$T/o.stdout" 2> "$T/o.stderr"
	echo "exit $?" >> "$T/o.stdout"
	mkdir -p "$T/o"
	mv "$T/o.stdout" "$T/o.stderr" "$T/o/"
	rm -rf "$T/j$1"
	mv "$T/o" "$T/j$1"
}

for in in "${inputs[@]}"; do
	name=${in#"$F/"} name=${name#"$T/"}
	analyze 1 "$in"
	check "$name: one thread writes report.json and jobs.csv" \
		test -s "$T/j1/report.json" -a -s "$T/j1/jobs.csv"
	analyze 8 "$in"
	check "$name: 8 threads: the same reports, files and exit" diff -r "$T/j1" "$T/j8"
done
