#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A trace.dat is parsed by libtracecmd twice at most: once in the probe
# child (dat.c: a library crash on a corrupt file must not take the
# analyzer down), once by the reader; through the uncompressed copy, the
# copy is read and the original only probed (its clock comes from the
# probe, not from a re-open).  Counted as open() calls of the file by our
# processes (trace-cmd convert's own are not ours), under strace.
. "$DLB_SRC/tests/lib.sh"
# valid recordings only: fast malloc unwinding under SANITIZE (tests/lib.sh)
asan_fast_unwind
FIX=$DLB_SRC/analyzer/tests/fixtures
TS=$DLB_BUILD/analyzer/input/tests/tracestat
f=$FIX/gen3/trace.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 3
if ! command -v strace > /dev/null || ! strace -qq -o /dev/null true 2> /dev/null; then
	skip_rest "strace missing or not allowed to trace"
	exit 0
fi

# opens of $f by every process but trace-cmd's, with DLB_DAT_COPY_MIN=$1
opens() {
	DLB_DAT_COPY_MIN=$1 TMPDIR=$tmp strace -f -qq -e trace=openat,execve -o "$tmp/st" \
		"$TS" -n "$f" > /dev/null 2>&1
	awk -v f="\"$f\"" '
		$2 ~ /^execve\(/ && /trace-cmd/ { tc[$1] = 1 }
		$2 ~ /^openat\(/ && index($0, f) && !/= -1/ { n[$1]++ }
		END { for (p in n) if (!(p in tc)) s += n[p]; print s + 0 }' "$tmp/st"
}

# dlb_trace_open's own descriptor (format detection, layout walk), the probe, the reader
expect_eq "read directly: opened three times, parsed twice" "$(opens -1)" 3
if command -v trace-cmd > /dev/null; then
	# the descriptor and the probe: the reader opens the copy
	expect_eq "through a copy: the original opened twice, parsed once" "$(opens 0)" 2
	check "through a copy: the copy was read" bash -c \
		"DLB_DAT_COPY_MIN=0 TMPDIR='$tmp' '$TS' '$f' | grep -q '^uncompressed_copy 1'"
else
	skip "through a copy" "trace-cmd not installed"
	skip "through a copy: the copy was read" "trace-cmd not installed"
fi
