#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A trace.dat decoded on several threads gives the stream one thread gives:
# the same events in the same order (ties on the timestamp included:
# libtracecmd's first-CPU-first), the same lost-event records, bad records
# and quality record (tracestat -d -s: the stream, then the counts), for every
# trace.dat in the tree that opens, with 2, 3 and 8 threads, with the
# default chunks and with tiny ones (DLB_TRACE_CHUNK: every chunk boundary,
# the ring's wrap, markers that overflow a chunk's text), and on files of 6
# and 8 CPU streams (widen_dat: copies of a 2-CPU recording's streams).
# Compressed files are read through their uncompressed copy
# (DLB_DAT_COPY_MIN=0): read directly, they are decoded on one thread.
# DLB_PAR_DAT=FILE[:FILE...] adds larger traces (the bench's, a guest's).
# Hang guard: 8 threads on 8 streams with chunks of one slot (a hand-off
# per record) pinned to one CPU, so that every hand-off waits on a thread
# that is not running; a lost wake-up would hang it (a bound, not a time).
. "$DLB_SRC/tests/lib.sh"
export DLB_DAT_COPY_MIN=0
# a hundred opens of a trace.dat, each one 10-20 s with ASan's slow
# unwinding: the case that ran into the 900 s limit in CI was no hang
asan_fast_unwind
TS=$DLB_BUILD/analyzer/input/tests/tracestat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one FILE: FILE's stream and quality record on one thread, in $tmp/one.N
# for the N it gets in files[] (a file that does not open gets none)
files=() seen=" "
one() { "$TS" -d -s -j 1 "$1" > "$tmp/one.${#files[@]}" 2>&1; }
while IFS= read -r f; do
	# a fuzz corpus seed that is a fixture's copy adds nothing
	sum=$(cksum < "$DLB_SRC/$f") sum=${sum// /-}
	[[ $seen == *" $sum "* ]] && continue
	seen+="$sum "
	one "$DLB_SRC/$f" && files+=("$DLB_SRC/$f")
done < <(cd "$DLB_SRC" || exit; git ls-files '*.dat' 2>/dev/null || find . -name '*.dat' -printf '%P\n')
# more CPU streams than this machine has CPUs: 8 copies of a recording's 2,
# on the same timestamps (a tie on every event) and 3 ns apart
W=$DLB_BUILD/analyzer/input/tests/widen_dat
"$W" "$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat" "$tmp/w8-tie.dat" 8 0 && {
	one "$tmp/w8-tie.dat"
	files+=("$tmp/w8-tie.dat")
}
w8=${#files[@]}
"$W" "$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat" "$tmp/w8-3ns.dat" 8 3 && {
	one "$tmp/w8-3ns.dat"
	files+=("$tmp/w8-3ns.dat")
}
# and of the overrun recording (lost events on every stream)
if trace-cmd convert --file-version 6 -i "$DLB_SRC/analyzer/tests/fixtures/lost.dat" \
	-o "$tmp/lost.v6.dat" > /dev/null 2>&1 &&
	"$W" "$tmp/lost.v6.dat" "$tmp/w6-lost.dat" 6 1; then
	one "$tmp/w6-lost.dat"
	files+=("$tmp/w6-lost.dat")
fi
IFS=: read -r -a extra <<< "${DLB_PAR_DAT:-}"
for f in "${extra[@]}"; do
	[ -s "$f" ] || continue
	one "$f"
	files+=("$f")
done
runs=("2" "3" "8" "2 64" "3 1" "8 3:16")
plan $((2 + ${#files[@]} * (${#runs[@]} + 1)))
check "at least 11 trace.dat inputs open (fixtures, fuzz corpus, widened)" test "${#files[@]}" -ge 11
if [ -s "$tmp/w8-3ns.dat" ] && command -v taskset > /dev/null; then
	DLB_TRACE_CHUNK=1 timeout -k 5 120 taskset -c 0 "$TS" -d -s -j 8 "$tmp/w8-3ns.dat" \
		> "$tmp/par" 2>&1
	check "w8-3ns.dat: 8 threads pinned to one CPU, chunks of 1: no hang (120 s), same stream" \
		cmp -s "$tmp/one.$w8" "$tmp/par"
else
	skip "8 threads pinned to one CPU" "no widened file or no taskset"
fi

for i in "${!files[@]}"; do
	f=${files[$i]}
	name=${f#"$DLB_SRC/"} name=${name#"$tmp/"}
	# a stream, and its order, that a wrong merge would change: > 0 events
	check "$name: one thread reads events" grep -q '^events [1-9]' "$tmp/one.$i"
	for r in "${runs[@]}"; do
		read -r j chunk <<< "$r"
		DLB_TRACE_CHUNK=${chunk:-} "$TS" -d -s -j "$j" "$f" > "$tmp/par" 2>&1
		check "$name: $j threads${chunk:+, chunks of $chunk}: same stream and quality" \
			cmp -s "$tmp/one.$i" "$tmp/par"
	done
done
