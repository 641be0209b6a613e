#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-analyze's peak RSS does not grow with the trace's length (issue 17):
# on a trace.dat 4 times as long as another with the same content
# (repeat_dat: a recording's pages written 100 and 400 times, 7.8 and 31
# MB), peak RSS within 1.2 times, read as it is and, compressed with zstd,
# through the uncompressed copy.  libtracecmd 1.3 maps each CPU's data in
# one window as large as the data and keeps every page read resident until
# it unmaps the window; dat.c releases the pages behind the reader.
# A structural check: peak RSS counts the file-backed pages too.  Run with
# --no-conformance: the replay keeps every job of the run to diff them with
# the oracle's (docs/conformance.md, "Speed"), 112 bytes a job, which grows
# with the run by design; this fixture's 400 copies are 250 k jobs.
. "$DLB_SRC/tests/lib.sh"
TS=$DLB_BUILD/analyzer/input/tests/tracestat
REP=$DLB_BUILD/analyzer/input/tests/repeat_dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 6
require_built dlb-analyze
if [ -n "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" ] || [ ! -x /usr/bin/time ]; then
	skip_rest "needs /usr/bin/time and a build without sanitizers (their shadow memory)"
	exit 0
fi
src=$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat
"$REP" "$src" "$tmp/x1.dat" 100 && "$REP" "$src" "$tmp/x4.dat" 400
n1=$("$TS" -n "$tmp/x1.dat" | awk '/^events/ { print $2 }')
n4=$("$TS" -n "$tmp/x4.dat" | awk '/^events/ { print $2 }')
expect_eq "the 4x trace has 4 times the events" "$n4" "$((4 * ${n1:-0}))"

# peak RSS (KB) of dlb-analyze on $1, the environment's DLB_DAT_COPY_MIN
peak() {
	/usr/bin/time -f '%M' "$BIN/dlb-analyze" --no-conformance -q -A -m -1 "$1" 2>&1 > /dev/null |
		tail -n 1
}
# within RATIO NAME A B: B / A < 1.2
within() {
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a > 0 && b / a < 1.2) }'; then
		pass "$1: $2 KB at 1x, $3 KB at 4x"
	else
		fail "$1" "peak RSS $2 KB at 1x, $3 KB at 4x: grows with the trace (ratio >= 1.2)"
	fi
}
r1=$(peak "$tmp/x1.dat") r4=$(peak "$tmp/x4.dat")
within "uncompressed v6: peak RSS independent of length" "$r1" "$r4"
"$BIN/dlb-analyze" -q -A -m -1 -o "$tmp/out4" "$tmp/x4.dat" > /dev/null 2>&1
check "the 4x trace is analysed (report.json written)" test -s "$tmp/out4/report.json"

if ! command -v trace-cmd > /dev/null; then
	skip_rest "trace-cmd not installed (the zstd copy)"
	exit 0
fi
for x in x1 x4; do
	trace-cmd convert --file-version 7 --compression zstd -i "$tmp/$x.dat" \
		-o "$tmp/$x.zst.dat" > /dev/null 2>&1
done
check "zstd versions made" test -s "$tmp/x4.zst.dat"
export DLB_DAT_COPY_MIN=0 TMPDIR=$tmp
z1=$(peak "$tmp/x1.zst.dat") z4=$(peak "$tmp/x4.zst.dat")
within "zstd through the uncompressed copy: peak RSS independent of length" "$z1" "$z4"
check "the copy is removed" test -z "$(find "$tmp" -name 'dlb-analyze-*')"
