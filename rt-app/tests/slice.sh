#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# "dl-runtime" on a SCHED_OTHER task: its custom slice (Linux 6.12+).  The
# kernel backend sets it (the thread's /proc/PID/sched snapshot, se.slice,
# shows 5 ms where the other task keeps the default) or, on a kernel
# without custom slices, says it is ignored; the reference ignores it and
# says so.  Kernel part: root, /proc/PID/sched (SCHED_DEBUG), the lock.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 5
RTAPP=$BIN/dlb-rtapp
WL=$DLB_SRC/rt-app/tests/data/slice.json
TMP=$(mktemp -d /tmp/dlb-slice.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
W_REF="dlb-rtapp: warning: task 'sliced': dl-runtime (a custom slice) has no effect on the reference backend (its fair class slices by nice weight only)"
W_OLD="dlb-rtapp: warning: task 'sliced': dl-runtime (a custom slice) is ignored by this kernel (custom slices need Linux 6.12 or later)"

"$RTAPP" -b reference -m 2 -d 100ms -o "$TMP/ref" "$WL" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
check "reference: says the slice has no effect" grep -qxF "$W_REF" "$TMP/ref.out"

require need_root need_proc_sched
exec 9>/tmp/dlbench-kernel.lock
flock 9
"$RTAPP" -n -d 300ms -o "$TMP/k" "$WL" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
slice() { awk '$1 == "se.slice" { print $3 }' "$TMP/k/rt-app-$1.sched"; }
if grep -qxF "$W_OLD" "$TMP/k.out"; then
	skip "kernel: se.slice of the sliced task is 5 ms" "this kernel has no custom slices (said)"
	expect_eq "kernel without slices: the other task's slice unchanged" \
		"$(slice sliced-0)" "$(slice plain-1)"
else
	expect_eq "kernel: se.slice of the sliced task is 5 ms" "$(slice sliced-0)" 5000000
	other=$(slice plain-1)
	check "kernel: the other task keeps the default slice (${other:-none})" \
		test -n "$other" -a "$other" != 5000000
fi
