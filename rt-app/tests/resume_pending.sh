#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A resume sent before its thread suspends is remembered, on both backends
# (the kernel backend's rtapp_wakeup.pending): r resumes "w" at once, s
# sleeps 20 ms and then suspends on "w": it must go on without waiting and
# run its 1 ms.  The reference used to drop the resume (no waiter yet) and
# leave s suspended for good.  Fair tasks and no markers (-n): no kernel
# lock, and tracing_on does not matter.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 4

RTAPP=$BIN/dlb-rtapp
T=$(mktemp -d /tmp/dlb-resume.XXXXXX)
trap 'rm -rf "$T"' EXIT
cat >"$T/w.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "s": { "loop": 1, "sleep": 20000, "suspend": "w", "run": 1000 },
	     "r": { "loop": 1, "resume": "w", "sleep": 100000 } } }
JSON
# the events s went through, in order
"$RTAPP" -q -b reference -E -o "$T/ref" "$T/w.json"
expect_eq "reference: the run exits 0" "$?" 0
expect_eq "reference: s goes on after its suspend (the resume came first)" \
	"$(awk '{ print $2 }' "$T/ref/rt-app-s-0.events" | tr '\n' ' ')" "sleep suspend run "

require need_root
"$RTAPP" -q -n -E -o "$T/k" "$T/w.json"
expect_eq "kernel: the run exits 0" "$?" 0
expect_eq "kernel: s goes on after its suspend, as on the reference" \
	"$(awk '{ print $2 }' "$T/k/rt-app-s-0.events" | tr '\n' ' ')" "sleep suspend run "
