#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The same recording read as trace.dat v7, v6 and each trace-cmd report
# rendering gives the same event stream, event by event (tracestat -d: one
# canonical line per event; -u rounds to µs as the text formats do).
. "$DLB_SRC/tests/lib.sh"
# valid recordings only: fast malloc unwinding under SANITIZE (tests/lib.sh)
asan_fast_unwind
FIX=$DLB_SRC/analyzer/tests/fixtures
TS=$DLB_BUILD/analyzer/input/tests/tracestat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 11

"$TS" -d "$FIX/rtapp10.dat" > "$tmp/dat" || fail "tracestat rtapp10.dat"
"$TS" -d -u "$FIX/rtapp10.dat" > "$tmp/dat.us"
n=$(wc -l < "$tmp/dat")
expect_eq "rtapp10.dat dumps the events trace-cmd counts" "$n" \
	"$(awk '!/^lost/ { s += $2 } END { print s }' "$FIX/rtapp10.expected")"
"$TS" -d "$FIX/rtapp10.v6.dat" > "$tmp/v6"
check "v6 conversion: same stream as v7" cmp -s "$tmp/dat" "$tmp/v6"
if command -v trace-cmd > /dev/null &&
	trace-cmd convert --file-version 7 --compression none -i "$FIX/rtapp10.dat" \
		-o "$tmp/v7none.dat" > /dev/null 2>&1; then
	"$TS" -d "$tmp/v7none.dat" > "$tmp/v7none"
	check "v7 uncompressed (trace-cmd convert): same stream" cmp -s "$tmp/dat" "$tmp/v7none"
else
	skip "v7 uncompressed" "trace-cmd convert unavailable"
fi
gzip -dc "$FIX/rtapp10.report-t.txt.gz" > "$tmp/t.txt"
"$TS" -d "$tmp/t.txt" > "$tmp/t"
check "report -t (ns): same stream as trace.dat, same ns" cmp -s "$tmp/dat" "$tmp/t"
for o in "" -N -R; do
	gzip -dc "$FIX/rtapp10.report$o.txt.gz" > "$tmp/r.txt"
	"$TS" -d -u "$tmp/r.txt" > "$tmp/r"
	check "report ${o:-default} (µs): same stream as trace.dat" cmp -s "$tmp/dat.us" "$tmp/r"
done

# trace-cmd report -l: the CPU leads the latency flags ("1dN.4.")
if command -v trace-cmd > /dev/null; then
	trace-cmd report -l -t "$FIX/rtapp10.dat" > "$tmp/l.txt" 2>/dev/null
	"$TS" -d "$tmp/l.txt" > "$tmp/l"
	check "report -l -t (latency layout): same stream as trace.dat" cmp -s "$tmp/dat" "$tmp/l"
else
	skip "report -l" "trace-cmd unavailable"
fi

# A recording into an instance buffer (trace-cmd prefixes its lines with the name)
if command -v trace-cmd > /dev/null; then
	trace-cmd report -t "$FIX/instance.dat" > "$tmp/inst.txt" 2>/dev/null
	"$TS" -d "$tmp/inst.txt" > "$tmp/inst.t"
	"$TS" -d "$FIX/instance.dat" > "$tmp/inst.d"
	check "instance buffer: report -t and trace.dat, same stream" \
		cmp -s "$tmp/inst.d" "$tmp/inst.t"
else
	skip "instance buffer text" "trace-cmd unavailable"
fi

# The overrun buffer: text has no LOST events (only the header's count)
"$TS" -d -u "$FIX/lost.dat" | grep -v ' lost ' > "$tmp/lost.dat"
gzip -dc "$FIX/lost.txt.gz" > "$tmp/lost.txt"
"$TS" -d -u "$tmp/lost.txt" > "$tmp/lost.txt.d"
check "overrun buffer: kernel text and trace.dat, same stream" \
	cmp -s "$tmp/lost.dat" "$tmp/lost.txt.d"
expect_eq "overrun buffer: 2 LOST events in the .dat stream" \
	"$("$TS" -d "$FIX/lost.dat" | grep -c ' lost ')" 2
