#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A workload that deadlocks itself (two tasks taking two locks in opposite
# orders, after a barrier both reach holding one) beside one that does not, on the kernel backend: the run ends
# with the stuck threads named (exit 2, "threads still blocked", after the
# 10 s stop timeout) and the thread that left still gets its log and its
# sched snapshot, written by the main thread although others are stuck.  SCHED_OTHER only: no root
# needed, no kernel lock.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 4
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-stuck.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/w.json" <<'JSON'
{
	"global": { "duration": 1, "calibration": 100, "lock_pages": false },
	"resources": { "m1": { "type": "mutex" }, "m2": { "type": "mutex" },
		       "both": { "type": "barrier" } },
	"tasks": {
		"free": { "run": 100, "sleep": 10000 },
		"ab": { "lock": "m1", "barrier": "both", "lock2": "m2", "unlock": "m2",
			"unlock2": "m1" },
		"ba": { "lock": "m2", "barrier": "both", "lock2": "m1", "unlock": "m1",
			"unlock2": "m2" }
	}
}
JSON
"$RTAPP" -q -n -o "$TMP/o" "$TMP/w.json" >"$TMP/out" 2>&1
rc=$?
expect_eq "a deadlocked run exits 2" "$rc" 2
check "the stuck threads are reported ($(head -c 200 "$TMP/out"))" grep -q "threads still blocked" "$TMP/out"
n=$(grep -vc '^#' "$TMP/o/rt-app-free-0.log" 2>/dev/null)
check "the thread that left has its log (got ${n:-no} records)" test "${n:-0}" -gt 50
check "the thread that left has its sched snapshot" grep -q '^policy' "$TMP/o/rt-app-free-0.sched"
