#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# sem_post/sem_wait on both backends (data/sem.json): posts made before any
# wait are kept (cons_a runs its 10 jobs, starting 20 ms after the posts),
# and a wait blocks until a post (cons_b's first job ends 5 ms or more
# after the run's start, when prod_b first posts).  Reference: always;
# kernel: root and tracefs (markers in a private instance), the lock.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 8
RTAPP=$BIN/dlb-rtapp
WL=$DLB_SRC/rt-app/tests/data/sem.json
TMP=$(mktemp -d /tmp/dlb-sem.XXXXXX)
INST=	# the private tracefs instance of the kernel run, once made
trap 'rm -rf "$TMP"; [ -z "$INST" ] || rmdir "$INST"' EXIT
# json_get FILE KEY: KEY's values in summary.json, one a line
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }
# first_end_us TRACE TID: the first job end of TID, in us after the run's start marker
first_end_us() {
	awk -v tid="$2" '
		/dlb_run: event=start/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) t0 = $i + 0 }
		$0 ~ "dlb_job: tid=" tid " job=[0-9]+ event=end" && !done {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) t = $i + 0
			printf "%d\n", (t - t0) * 1e6; done = 1
		}' "$1"
}
# checks NAME RUNDIR TRACE
checks() {
	local tids jobs e
	mapfile -t tids < <(json_get "$2/summary.json" tid)
	mapfile -t jobs < <(json_get "$2/summary.json" jobs)
	expect_eq "$1: cons_a ran its 10 jobs on posts made before it waited" "${jobs[1]:-}" 10
	e=$(first_end_us "$3" "${tids[3]:-x}")
	check "$1: cons_b's first job ends after prod_b's first post (${e:-none} us >= 5000)" \
		test "${e:-0}" -ge 5000
}

"$RTAPP" -q -b reference -m 2 -d 1s -o "$TMP/ref" "$WL" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
check "reference: the dump names the semaphores" \
	eval "$BIN/dlb-workload dump $WL | grep -q '^resource 0 \"a\" semaphore$'"
checks reference "$TMP/ref" "$TMP/ref/trace.txt"

require need_root need_tracefs
exec 9>/tmp/dlbench-kernel.lock
flock 9
INST=$(tracefs_dir)/instances/dlb-sem-$$
mkdir "$INST"
echo mono >"$INST/trace_clock"
"$RTAPP" -q -d 1s -t "$INST/trace_marker" -o "$TMP/k" "$WL" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
cat "$INST/trace" >"$TMP/k.trace"
checks kernel "$TMP/k" "$TMP/k.trace"
check "kernel: the trace has the run's start marker" grep -q 'dlb_run: event=start' "$TMP/k.trace"
