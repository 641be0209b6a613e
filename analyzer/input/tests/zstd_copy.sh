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
trap 'xargs rm -f < "$tmp/made" 2>/dev/null; rm -rf "$tmp"' EXIT
plan 13
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

# The probe finds the file corrupt while the conversion runs: the conversion
# is stopped and what it made is removed, its copy and libtracecmd's temp
# file (/tmp/trace_cpu_dataXXXXXX, a fixed path, open until the end: one a
# CPU).  A stand-in trace-cmd holds such a file open and waits.  If the
# probe fails before the stand-in has made its file, nothing can be checked:
# up to 5 tries a file.
mkdir -p "$tmp/bin" "$tmp/t"
cat > "$tmp/bin/trace-cmd" <<'EOF'
#!/bin/sh
n=/tmp/trace_cpu_data$$x
exec 3<>"$n"
echo "$n" >> "$MADE"
exec sleep 30
EOF
chmod +x "$tmp/bin/trace-cmd"
: > "$tmp/made"
for f in crash-buffer-instance oom-chunks-info; do
	for try in 1 2 3 4 5; do
		before=$(wc -l < "$tmp/made")
		MADE=$tmp/made PATH=$tmp/bin:$PATH TMPDIR=$tmp/t DLB_DAT_COPY_MIN=0 \
			"$TS" "$DLB_SRC/tests/fuzz/regress/trace_dat/$f.dat" > /dev/null 2>&1
		rc=$?
		[ "$(wc -l < "$tmp/made")" -gt "$before" ] && break
	done
	expect_eq "$f: corrupt (the probe), exit 2 after $try tries" "$rc" 2
done
check "the stand-in conversion made its temp file before the probe failed" test -s "$tmp/made"
expect_eq "the conversions' temp files are removed" \
	"$(while read -r n; do [ ! -e "$n" ] || echo "$n"; done < "$tmp/made")" ""
expect_eq "their copies are removed" "$(find "$tmp/t" -type f | wc -l)" 0
