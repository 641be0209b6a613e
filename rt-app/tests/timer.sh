#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared timers (issue #4), as rt-app's: a timer whose ref does not start
# with "unique" is one timer for every thread using it, so two instances on
# one 10 ms timer release in turn, each every 20 ms; with "unique" each
# releases every 10 ms.  Checked on the reference backend (always) and on
# the kernel (root, SCHED_DEADLINE, tracefs; holds the kernel lock), where
# the release instants are computed, not measured, so they are compared
# exactly too, and against the reference's.
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
check "kernel: the same release instants, exactly (ns from the run's start)" \
	same_as "$TMP/want" "$TMP/k.pat"
check "kernel: the same release pattern as the reference" same_as "$TMP/ref.pat" "$TMP/k.pat"
expect_eq "kernel: 99 shared releases after job 0, the two threads in turn, none together" \
	"$(turns "$TMP/k/summary.json" "$TMP/k.trace" shared)" "99 0 0"
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
