#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared timers (issue #4), as rt-app's: a timer whose ref does not start
# with "unique" is one timer for every thread using it, so two instances on
# one 10 ms timer release in turn, each every 20 ms; with "unique" each
# releases every 10 ms.  Checked on the reference backend (always) and on
# the kernel (root, SCHED_DEADLINE, tracefs; holds the kernel lock), where
# the release instants are computed, not measured, so they are compared
# exactly too, and against the reference's: a thread's own timer exactly;
# a shared timer's instants as a set, since which instance takes a turn
# depends on which reaches the timer first (a late instance's turn goes to
# the other one on a loaded machine: 9 of 99 seen).
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 11

DATA=$DLB_SRC/rt-app/tests/data
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-rtapp-timer.XXXXXX)
INST=
cleanup() {
	[ -n "$INST" ] && [ -d "$INST" ] && rmdir "$INST"
	rm -rf "$TMP"
}
trap cleanup EXIT
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }
MS=1000000

# begin markers of TRACE: "tid job rel [dl]"
begins() {
	sed -n 's/.*dlb_job: tid=\([0-9]*\) job=\([0-9]*\) event=begin rel=\([0-9]*\)\( dl=\([0-9]*\)\)\{0,1\}.*/\1 \2 \3 \5/p' "$1"
}
# "tid task" of each thread in SUMMARY
names() { paste -d ' ' <(json_get "$1" tid) <(json_get "$1" name); }
# The release pattern of a run, free of tids and of which instance came
# first: one line per thread, "<task> <release - the run's first release,
# ns, for job 0, 1, ...>", lines sorted.  SUMMARY TRACE
pattern() {
	begins "$2" | awk 'NR == FNR { name[$1] = $2; next }
		!have || $3 < t0 { t0 = $3; have = 1 }
		{ rel[$1, $2] = $3; if ($2 + 1 > n[$1]) n[$1] = $2 + 1 }
		END { for (t in n) { s = name[t]; for (j = 0; j < n[t]; j++) s = s " " rel[t, j] - t0; print s } }' \
		<(names "$1") - | sort
}
# TASK's releases after job 0 in time order: their count, how many times
# the same thread released twice in a row, and how many releases were at
# the same instant as the one before.  SUMMARY TRACE TASK
turns() {
	begins "$2" | awk -v task="$3" 'NR == FNR { name[$1] = $2; next } name[$1] == task && $2 > 0' \
		<(names "$1") - | sort -k3,3n |
		awk 'NR > 1 { same += $1 == p; tie += $3 == r } { p = $1; r = $3 }
		     END { print NR, same + 0, tie + 0 }'
}
# diff, the first differences as TAP comments
same_as() { diff "$1" "$2" | head -6 | cut -c1-200 | sed 's/^/# /'; cmp -s "$1" "$2"; }
# begin markers whose dl is not rel + 10 ms.  TRACE
bad_dl() { begins "$1" | awk '$4 - $3 != 10000000 { n++ } END { print n + 0 }'; }
seq_ns() { seq -f ' %.0f' "$1" "$2" "$3" | tr -d '\n'; }

# shared_timer.json, 1 s: "shared" x 2 on timer "tick", "own" x 2 on
# "unique", 10 ms absolute, 1 ms of work.  Releases before the end only.
{
	echo "own$(seq_ns 0 $((10 * MS)) $((990 * MS)))"
	echo "own$(seq_ns 0 $((10 * MS)) $((990 * MS)))"
	echo "shared 0$(seq_ns $((10 * MS)) $((20 * MS)) $((990 * MS)))"
	echo "shared 0$(seq_ns $((20 * MS)) $((20 * MS)) $((980 * MS)))"
} | sort >"$TMP/want"

# ---- reference ----
"$RTAPP" -q -b reference -m 2 -o "$TMP/ref" "$DATA/shared_timer.json" >"$TMP/ref.out" 2>&1
expect_eq "reference run exits 0" "$?" 0
pattern "$TMP/ref/summary.json" "$TMP/ref/trace.txt" >"$TMP/ref.pat"
check "reference: shared instances release at 0,10,30..990 ms and 0,20,40..980 ms; unique every 10 ms" \
	same_as "$TMP/want" "$TMP/ref.pat"
expect_eq "reference: 99 shared releases after job 0, the two threads in turn, none together" \
	"$(turns "$TMP/ref/summary.json" "$TMP/ref/trace.txt" shared)" "99 0 0"

# relative mode, run 14 ms > period 10 ms: the first timer use finds its
# expiry (10 ms) passed and restarts the SHARED timer from now (14 ms); the
# other instance then sleeps to 14 + 10 ms, and so on in turn every 10 ms.
"$RTAPP" -q -b reference -m 2 -d 100ms -o "$TMP/rel" "$DATA/shared_timer_rel.json" >"$TMP/rel.out" 2>&1
expect_eq "reference: relative mode restarts the shared timer from now for both instances" \
	"$(pattern "$TMP/rel/summary.json" "$TMP/rel/trace.txt")" \
	"$(printf '%s\n' "late 0$(seq_ns $((14 * MS)) $((20 * MS)) $((94 * MS)))" \
		"late 0$(seq_ns $((24 * MS)) $((20 * MS)) $((84 * MS)))" | sort)"

# ---- kernel ----
require need_root need_sched_deadline need_tracefs
exec 9>/tmp/dlbench-kernel.lock
flock 9
INST=$(tracefs_dir)/instances/dlb-rtapp-timer-$$
mkdir "$INST"
echo mono >"$INST/trace_clock"
"$RTAPP" -q -t "$INST/trace_marker" -o "$TMP/k" "$DATA/shared_timer.json" >"$TMP/k.out" 2>&1
expect_eq "kernel run exits 0" "$?" 0
cat "$INST/trace" >"$TMP/k.trace"
echo >"$INST/trace"
pattern "$TMP/k/summary.json" "$TMP/k.trace" >"$TMP/k.pat"
# own: each thread's releases exactly; shared: the two threads' releases
# together exactly the timer's instants (each used once), each thread at least
# 10 of the 99 turns (a thread that is late by a period loses its turn to the
# other; one starved of nine in ten would be a scheduler problem)
own() { grep '^own' "$1"; }
shared_set() { grep '^shared' "$1" | tr ' ' '\n' | grep -v shared | sort -n | tr '\n' ' '; }
check "kernel: each unique timer's release instants exactly (ns from the run's start)" \
	same_as <(own "$TMP/want") <(own "$TMP/k.pat")
expect_eq "kernel: the shared timer's instants, each taken once, as the reference's" \
	"$(shared_set "$TMP/k.pat")" "$(shared_set "$TMP/ref.pat")"
fair_turns() {
	grep '^shared' "$TMP/k.pat" | awk '{ n = NF - 2; if (n < 10) bad++ } END { exit bad > 0 || NR != 2 }'
}
read -r nturns _ ties < <(turns "$TMP/k/summary.json" "$TMP/k.trace" shared)
turns_ok() { [ "$nturns $ties" = "99 0" ] && fair_turns; }
check "kernel: 99 shared releases after job 0, none together, each thread >= 10 ($nturns, ties $ties)" \
	turns_ok
expect_eq "kernel: every job's dl = rel + 10 ms" "$(bad_dl "$TMP/k.trace")" 0

# relative: the first release after job 0 is a restart from now, off the
# 10 ms grid (its expiry had passed), and the next one is exactly 10 ms
# later and the other instance's: the restart moved the shared timer.
"$RTAPP" -q -t "$INST/trace_marker" -d 100ms -o "$TMP/krel" "$DATA/shared_timer_rel.json" \
	>"$TMP/krel.out" 2>&1
expect_eq "kernel relative run exits 0" "$?" 0
cat "$INST/trace" >"$TMP/krel.trace"
rmdir "$INST"
expect_eq "kernel: relative mode restarts the shared timer from now for both instances" \
	"$(begins "$TMP/krel.trace" | sort -k3,3n | awk '
		$2 == 0 { t0 = $3; next }
		++n == 1 { d = $3 - t0; print (d > 10000000 && d % 10000000) ? "restart" : "on grid " d; r = $3; t = $1 }
		n == 2 { print $3 - r, ($1 != t ? "other" : "same") " thread" }')" \
	"restart
10000000 other thread"
