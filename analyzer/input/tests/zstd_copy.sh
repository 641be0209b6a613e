#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A zstd trace.dat over DLB_DAT_COPY_MIN bytes is read through an
# uncompressed copy (trace-cmd convert; libtracecmd 1.3 keeps every chunk
# it decompresses, dat.c): the same stream and quality record as reading it
# directly, the copy removed; without trace-cmd on PATH it is read directly.
# (The memory it saves is measured by bench/input/bench_input.sh.)
. "$DLB_SRC/tests/lib.sh"
# libtracecmd's in-memory decompression mallocs per chunk: under SANITIZE
# 253 s instead of ~35 s with slow unwinding (tests/lib.sh).
asan_fast_unwind
FIX=$DLB_SRC/analyzer/tests/fixtures
TS=$DLB_BUILD/analyzer/input/tests/tracestat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 8
if ! command -v trace-cmd > /dev/null; then
	skip_rest "trace-cmd not installed"
	exit 0
fi
for f in gen3/trace.dat lost.dat; do
	DLB_DAT_COPY_MIN=-1 "$TS" -d "$FIX/$f" > "$tmp/direct" 2>&1
	DLB_DAT_COPY_MIN=-1 "$TS" "$FIX/$f" > "$tmp/direct.q" 2>&1
	DLB_DAT_COPY_MIN=0 TMPDIR=$tmp "$TS" -d "$FIX/$f" > "$tmp/copy" 2>&1
	DLB_DAT_COPY_MIN=0 TMPDIR=$tmp "$TS" "$FIX/$f" > "$tmp/copy.q" 2>&1
	check "$f: same events through the copy" cmp -s "$tmp/direct" "$tmp/copy"
	expect_eq "$f: same quality record, and the copy said" \
		"$(diff "$tmp/direct.q" "$tmp/copy.q" | sed -n 's/^> //p')" "uncompressed_copy 1"
done
expect_eq "the copies are removed" "$(find "$tmp" -name 'dlb-analyze-*' | wc -l)" 0
# below the threshold (the default 2 MB): read directly
check "a small file is read directly" bash -c \
	"! '$TS' '$FIX/gen3/trace.dat' | grep -q uncompressed_copy"
# no trace-cmd: read directly, same events
DLB_DAT_COPY_MIN=0 PATH=/nonexistent "$TS" -d "$FIX/gen3/trace.dat" > "$tmp/nocmd" 2>&1
DLB_DAT_COPY_MIN=-1 "$TS" -d "$FIX/gen3/trace.dat" > "$tmp/direct" 2>&1
check "no trace-cmd on PATH: same events, read directly" cmp -s "$tmp/direct" "$tmp/nocmd"
check "no trace-cmd on PATH: no copy said" bash -c \
	"! DLB_DAT_COPY_MIN=0 PATH=/nonexistent '$TS' '$FIX/gen3/trace.dat' | grep -q uncompressed_copy"
