#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel backend's real-time path, structurally (no timing): while a
# thread is SCHED_DEADLINE it neither allocates nor writes anything but its
# markers (each thread's log records, /proc sched snapshot and event log are
# written by the non-RT main thread; -E's event log is allocated before the
# run); and with lock_pages (the default) the
# process's memory is locked (VmLck > 0), without it not.  An LD_PRELOAD
# probe (rt-app/tests/rtpath.c) counts the calls; markers go to a plain file
# (-t), the one file a DL thread may write.  2000 jobs per thread: more than
# a thread's ring of log records (1024), so a mid-run flush would be seen.
# Needs root and SCHED_DEADLINE (the kernel lock); skipped for a static or
# sanitized build (no LD_PRELOAD interposition there).
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 9
RTAPP=$BIN/dlb-rtapp
PROBE=$DLB_BUILD/tests/tools/rtpath.so
require need_root need_sched_deadline
if [ ! -e "$PROBE" ] || ! ldd "$RTAPP" >/dev/null 2>&1 || ldd "$RTAPP" | grep -q 'libasan\|libubsan'; then
	skip_rest "$PROBE not built, or dlb-rtapp is static or sanitized (no LD_PRELOAD probe)"
	exit 0
fi
TMP=$(mktemp -d /tmp/dlb-rtpath.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
workload() {	# $1: lock_pages
	cat <<JSON
{
	"global": { "duration": 2, "calibration": 100, "lock_pages": $1 },
	"tasks": {
		"a": { "policy": "SCHED_DEADLINE", "dl-runtime": 300, "dl-period": 1000,
		       "run": 100, "timer": { "ref": "unique", "period": 1000 } },
		"b": { "policy": "SCHED_DEADLINE", "dl-runtime": 300, "dl-period": 1000,
		       "run": 100, "timer": { "ref": "unique", "period": 1000 } }
	}
}
JSON
}
workload true >"$TMP/lock.json"
workload false >"$TMP/nolock.json"
# probe NAME: run NAME.json under the probe; its line in $TMP/NAME.probe
probe() {
	: >"$TMP/$1.marks"
	DLB_RTPATH_ALLOW=$TMP/$1.marks DLB_RTPATH_OUT=$TMP/$1.probe \
		LD_PRELOAD=$PROBE "$RTAPP" -q -E -t "$TMP/$1.marks" -o "$TMP/$1" "$TMP/$1.json" \
		>"$TMP/$1.out" 2>&1
}
field() { tr ' ' '\n' <"$TMP/$1.probe" | sed -n "s/^$2=//p"; }

exec 9>/tmp/dlbench-kernel.lock
flock 9
dl_bw_baseline
probe lock
rc=$?
expect_eq "run exits 0 ($(head -c 200 "$TMP/lock.out"))" "$rc" 0
check "the probe reported" test -s "$TMP/lock.probe"
expect_eq "no allocation by a SCHED_DEADLINE thread (first: $(field lock first))" \
	"$(field lock mallocs)" 0
expect_eq "no write by a SCHED_DEADLINE thread but its markers (first: $(field lock first))" \
	"$(field lock writes)" 0
jobs=$(grep -vc '^#' "$TMP/lock/rt-app-a-0.log")
# not a timing bound: only that the run was long enough to overflow the ring once
check "the log has more records than a thread's ring (1024; got $jobs)" test "$jobs" -gt 1024
check "markers were written (the allowed file is not empty)" test -s "$TMP/lock.marks"
check "lock_pages: the process's memory is locked (VmLck $(field lock vmlck_kb) kB)" \
	test "$(field lock vmlck_kb)" -gt 0
probe nolock
expect_eq "lock_pages false: nothing locked (VmLck in kB: the check above can fail)" \
	"$(field nolock vmlck_kb)" 0
check_dl_bw "rtpath runs" "$TMP/nolock/summary.json"
