#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rt-app's memrun event (data/memrun.json: per-thread read, write and
# sequential chase buffers, one random chase buffer shared by "ref").
# Reference: memory traffic takes no time there (as mem), so every job is
# released exactly one pass (run + sleep) after the previous one.  Kernel
# (fair tasks only: no lock, no markers): the run completes with the
# loops' jobs and the same event sequence as the reference, and a memrun
# far longer than the run stops when the run ends.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 9
RTAPP=$BIN/dlb-rtapp
WL=$DLB_SRC/rt-app/tests/data/memrun.json
TMP=$(mktemp -d /tmp/dlb-memrun.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }
# rels TID: the release instants of TID's jobs, in ns
rels() { sed -n "s/.*dlb_job: tid=$1 job=[0-9]* event=release rel=\([0-9]*\).*/\1/p" \
	"$TMP/ref/trace.txt" | tr '\n' ' '; }

"$RTAPP" -q -b reference -m 2 -E -o "$TMP/ref" "$WL" >"$TMP/ref.out" 2>&1
rc=$?
expect_eq "reference: run exits 0 ($(head -c 300 "$TMP/ref.out"))" "$rc" 0
expect_eq "reference: 5 jobs each" "$(json_get "$TMP/ref/summary.json" jobs | tr '\n' ' ')" "5 5 "
mapfile -t tids < <(json_get "$TMP/ref/summary.json" tid)
expect_eq "reference: a released every 2 ms (run 1 ms + sleep 1 ms, memrun none)" \
	"$(rels "${tids[0]}")" "0 2000000 4000000 6000000 8000000 10000000 "
expect_eq "reference: b released every 3 ms (run 2 ms + sleep 1 ms, memrun none)" \
	"$(rels "${tids[1]}")" "0 3000000 6000000 9000000 12000000 15000000 "
expect_eq "reference: b's events in order" "$(head -5 "$TMP/ref/rt-app-b-1.events" | tr '\n' ' ')" \
	"0 memrun 0 memrun1 0 memrun2 0 run 0 sleep "

"$RTAPP" -q -n -E -o "$TMP/k" "$WL" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
expect_eq "kernel: 5 jobs each" "$(json_get "$TMP/k/summary.json" jobs | tr '\n' ' ')" "5 5 "
check "kernel: the reference's event sequence" eval \
	"cat '$TMP'/ref/*.events | cmp -s - <(cat '$TMP'/k/*.events)"

# 2^31 hops of a chase take seconds (one dependent load each): the run's end stops it
cat >"$TMP/long.json" <<'JSON'
{ "global": { "lock_pages": false },
  "tasks": { "r": { "loop": -1, "memrun": { "type": "chase", "size": 4194304, "count": 2147483647 },
		    "sleep": 1000 } } }
JSON
t0=$(date +%s%N)
"$RTAPP" -q -n -d 200ms -o "$TMP/long" "$TMP/long.json" >"$TMP/long.out" 2>&1
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "kernel: a long memrun stops with the run (exit $rc, $ms ms, under 2000 ms)" \
	test "$rc" -eq 0 -a "$ms" -lt 2000
