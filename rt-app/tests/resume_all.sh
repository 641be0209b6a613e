#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One resume wakes every thread suspended on its name, as rt-app's
# (pthread_cond_broadcast), on both backends: two instances of s suspend
# on "w" and run 1 ms, four times; r resumes "w" every 50 ms, four times.
# Each resume must release both instances.  The kernel backend used to
# wake one per resume (the first waiter cleared the pending flag and the
# other went back to sleep): four runs in all instead of eight.  Fair
# tasks and no markers (-n): no kernel lock, and tracing_on does not
# matter.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 8

RTAPP=$BIN/dlb-rtapp
T=$(mktemp -d /tmp/dlb-resume-all.XXXXXX)
trap 'rm -rf "$T"' EXIT
cat >"$T/w.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "s": { "instance": 2, "loop": 4, "suspend": "w", "run": 1000 },
	     "r": { "loop": 4, "sleep": 50000, "resume": "w" } } }
JSON
# events DIR I: the events instance I of s went through, on one line
events() { awk '{ print $2 }' "$1/rt-app-s-$2.events" | tr '\n' ' '; }
# runs DIR I: how many runs instance I of s made
runs() { awk '$2 == "run"' "$1/rt-app-s-$2.events" | wc -l; }

"$RTAPP" -q -b reference -E -o "$T/ref" "$T/w.json"
expect_eq "reference: the run exits 0" "$?" 0
want="suspend run suspend run suspend run suspend run "
expect_eq "reference: s instance 0 is woken by each resume" "$(events "$T/ref" 0)" "$want"
expect_eq "reference: s instance 1 is woken by each resume" "$(events "$T/ref" 1)" "$want"

require need_root
"$RTAPP" -q -n -E -o "$T/k" "$T/w.json"
expect_eq "kernel: the run exits 0" "$?" 0
# structure: each run follows a suspend; a last suspend may be left waiting
for i in 0 1; do
	e=$(events "$T/k" "$i")
	check "kernel: s instance $i alternates suspend and run ($e)" \
		grep -Eqx '(suspend run )*(suspend )?' <<<"$e"
done
# counts: the resumes are 50 ms apart and a run takes 1 ms, so each
# instance is suspended again by the next one; one resume missed per
# instance is tolerated (a wake-up later than 50 ms on a loaded machine).
# Woken one at a time, the two make 4 runs in all, 2 each on average.
for i in 0 1; do
	n=$(runs "$T/k" "$i")
	check "kernel: s instance $i runs after at least 3 of the 4 resumes (ran $n)" \
		test "$n" -ge 3
done
