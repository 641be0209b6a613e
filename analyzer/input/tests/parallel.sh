#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A trace.dat decoded on several threads gives the stream one thread gives:
# the same events in the same order (ties on the timestamp included:
# libtracecmd's first-CPU-first), the same lost-event records, bad records
# and quality record (tracestat -d, then tracestat's counts), for every
# trace.dat in the tree that opens, with 2, 3 and 8 threads, with the
# default chunks and with tiny ones (DLB_TRACE_CHUNK: every chunk boundary,
# the ring's wrap, markers that overflow a chunk's text), and on files of 6
# and 8 CPU streams (widen_dat: copies of a 2-CPU recording's streams).
# Compressed files are read through their uncompressed copy
# (DLB_DAT_COPY_MIN=0): read directly, they are decoded on one thread.
# DLB_PAR_DAT=FILE[:FILE...] adds larger traces (the bench's, a guest's).
. "$DLB_SRC/tests/lib.sh"
export DLB_DAT_COPY_MIN=0
TS=$DLB_BUILD/analyzer/input/tests/tracestat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=()
while IFS= read -r f; do
	"$TS" -j 1 -n "$DLB_SRC/$f" > /dev/null 2>&1 && files+=("$DLB_SRC/$f")
done < <(cd "$DLB_SRC" || exit; git ls-files '*.dat' 2>/dev/null || find . -name '*.dat' -printf '%P\n')
# more CPU streams than this machine has CPUs: 8 copies of a recording's 2,
# on the same timestamps (a tie on every event) and 3 ns apart
W=$DLB_BUILD/analyzer/input/tests/widen_dat
"$W" "$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat" "$tmp/w8-tie.dat" 8 0 &&
	files+=("$tmp/w8-tie.dat")
"$W" "$DLB_SRC/analyzer/tests/fixtures/rtapp10.v6.dat" "$tmp/w8-3ns.dat" 8 3 &&
	files+=("$tmp/w8-3ns.dat")
# and of the overrun recording (lost events on every stream)
if trace-cmd convert --file-version 6 -i "$DLB_SRC/analyzer/tests/fixtures/lost.dat" \
	-o "$tmp/lost.v6.dat" > /dev/null 2>&1 &&
	"$W" "$tmp/lost.v6.dat" "$tmp/w6-lost.dat" 6 1; then
	files+=("$tmp/w6-lost.dat")
fi
IFS=: read -r -a extra <<< "${DLB_PAR_DAT:-}"
for f in "${extra[@]}"; do [ -s "$f" ] && files+=("$f"); done
runs=("2" "3" "8" "2 64" "3 1" "8 3:16")
plan $((1 + ${#files[@]} * (${#runs[@]} + 1)))
check "at least 11 trace.dat inputs open (fixtures, fuzz corpus, widened)" test "${#files[@]}" -ge 11

# stream and quality record, one file
both() { "$TS" -d "$@" && "$TS" "$@"; }
for f in "${files[@]}"; do
	name=${f#"$DLB_SRC/"} name=${name#"$tmp/"}
	both -j 1 "$f" > "$tmp/one" 2>&1
	# a stream, and its order, that a wrong merge would change: > 0 events
	check "$name: one thread reads events" grep -q '^events [1-9]' "$tmp/one"
	for r in "${runs[@]}"; do
		read -r j chunk <<< "$r"
		DLB_TRACE_CHUNK=${chunk:-} both -j "$j" "$f" > "$tmp/par" 2>&1
		check "$name: $j threads${chunk:+, chunks of $chunk}: same stream and quality" \
			cmp -s "$tmp/one" "$tmp/par"
	done
done
