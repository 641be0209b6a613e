#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every text trace fixture gives, event by event and in its quality record,
# what the text reader gave before its speed-up (issue 17): golden/NAME.gz
# holds `tracestat -d` and `tracestat` of the fixture, as written by the
# reader of 46bf956.  same_stream.sh compares some of these fixtures with
# their trace.dat; this covers the rest (gen3, rtapp10rec, miss: no .dat)
# and pins the quality counters.  A change to the reader's output that is
# meant fails here: regenerate the golden file and say why in the commit.
. "$DLB_SRC/tests/lib.sh"
TS=$DLB_BUILD/analyzer/input/tests/tracestat
G=$DLB_SRC/analyzer/input/tests/golden
FIX=$DLB_SRC/analyzer/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixtures=("$FIX"/*.txt.gz "$DLB_SRC/analyzer/tests/data/miss.txt")
plan "${#fixtures[@]}"

for f in "${fixtures[@]}"; do
	name=$(basename "${f%.gz}" .txt)
	gzip -dcf "$f" > "$tmp/in.txt"
	{ "$TS" -d "$tmp/in.txt" && "$TS" "$tmp/in.txt"; } > "$tmp/got" 2>&1
	gzip -dc "$G/$name.gz" > "$tmp/want"
	if cmp -s "$tmp/want" "$tmp/got"; then
		pass "$name: same events and quality record as before"
	else
		fail "$name: output differs from golden/$name.gz" \
			"$(diff "$tmp/want" "$tmp/got" | head -n 6)"
	fi
done
