#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rt-app's fork and "instance": 0 on both backends (data/fork.json): no
# child thread at the start; each of parent's 3 jobs forks one, named as
# rt-app names it (child-<index>-<fork>), which runs its task from its
# start: 5 jobs.  Reference: exact counts and instants (virtual time), the
# same bytes twice, and rt-app's limit of 1024 forks of a task
# (data/fork-limit.json).  Kernel (root, tracefs, the lock): the structure,
# counts within a tolerance (a child: 4 or 5 jobs, parent: 2 or 3).
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 19
RTAPP=$BIN/dlb-rtapp
WL=$DLB_SRC/rt-app/tests/data/fork.json
TMP=$(mktemp -d /tmp/dlb-fork.XXXXXX)
INST=	# the private tracefs instance of the kernel run, once made
trap 'rm -rf "$TMP"; [ -z "$INST" ] || rmdir "$INST"' EXIT

# json_get FILE KEY: KEY's values in summary.json, one a line
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }
# task_marker_s TRACE NAME: the instant of NAME's dlb_task marker, in s
task_marker_s() {
	awk -v n="name=$2" '$0 ~ "dlb_task: " && index($0, n " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) { sub(":", "", $i); print $i; exit } }' "$1"
}
# job_ends TRACE TID: how many jobs of TID ended
job_ends() { grep -c "dlb_job: tid=$2 job=[0-9]* event=end" "$1"; }

"$RTAPP" -q -b reference -m 2 -o "$TMP/ref" "$WL" >"$TMP/ref.out" 2>&1
rc=$?
expect_eq "reference: run exits 0 ($(head -c 300 "$TMP/ref.out"))" "$rc" 0
expect_eq "reference: threads in rt-app's order, forked ones after" \
	"$(json_get "$TMP/ref/summary.json" name | tr '\n' ' ')" "parent child child child "
expect_eq "reference: parent 3 jobs, each forked child 5" \
	"$(json_get "$TMP/ref/summary.json" jobs | tr '\n' ' ')" "3 5 5 5 "
expect_eq "reference: forked children are instances 0, 1, 2 of child" \
	"$(json_get "$TMP/ref/summary.json" instance | tr '\n' ' ')" "0 0 1 2 "
check "reference: a forked thread's log has rt-app's name" \
	test -s "$TMP/ref/rt-app-child-2-0001.log"
expect_eq "reference: the second child starts at the second fork (101 ms)" \
	"$(task_marker_s "$TMP/ref/trace.txt" child-2-0001)" 0.101000000
expect_eq "reference: no thread of 'idle' (instance 0, never forked)" \
	"$(grep -c 'name=idle' "$TMP/ref/trace.txt")" 0
"$RTAPP" -q -b reference -m 2 -o "$TMP/ref2" "$WL" >/dev/null 2>&1
check "reference: the same run twice gives the same trace" cmp -s "$TMP/ref/trace.txt" "$TMP/ref2/trace.txt"
"$RTAPP" -q -b reference -m 2 -o "$TMP/lim" "$DLB_SRC/rt-app/tests/data/fork-limit.json" \
	>"$TMP/lim.out" 2>&1
expect_eq "reference: past 1024 forks of a task the run fails (exit 2)" "$?" 2
check "reference: ... saying why ($(head -c 200 "$TMP/lim.out"))" \
	grep -q "fork of 'bomb' at [0-9]* ns: 1024 forks of a task at most" "$TMP/lim.out"
"$BIN/dlb-workload" dump "$WL" >"$TMP/dump" 2>"$TMP/dump.err"
check "dump: the fork names its task" grep -q 'event 1 "fork" fork task="child"$' "$TMP/dump"
check "dump: the forked task is marked" grep -q '^task 1 "child" instances=0 .* forked$' "$TMP/dump"
check "check: instance 0 never forked is a warning" \
	grep -q "tasks.idle.instance: instance 0 and no fork event names task 'idle'" "$TMP/dump.err"

require need_root need_tracefs need_sched_deadline
exec 9>/tmp/dlbench-kernel.lock
flock 9
INST=$(tracefs_dir)/instances/dlb-fork-$$
mkdir "$INST"
echo mono >"$INST/trace_clock"
"$RTAPP" -q -t "$INST/trace_marker" -o "$TMP/k" "$WL" >"$TMP/k.out" 2>&1
rc=$?
cat "$INST/trace" >"$TMP/k.trace"
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
expect_eq "kernel: threads in rt-app's order, forked ones after" \
	"$(json_get "$TMP/k/summary.json" name | tr '\n' ' ')" "parent child child child "
mapfile -t jobs < <(json_get "$TMP/k/summary.json" jobs)
check "kernel: parent ran 2 or 3 jobs (${jobs[0]:-none})" \
	test "${jobs[0]:-0}" -ge 2 -a "${jobs[0]:-0}" -le 3
check "kernel: each forked child ran 4 or 5 jobs (${jobs[*]:1})" \
	test "${jobs[1]:-0}" -ge 4 -a "${jobs[1]:-0}" -le 5 -a "${jobs[2]:-0}" -ge 4 -a \
	"${jobs[2]:-0}" -le 5 -a "${jobs[3]:-0}" -ge 4 -a "${jobs[3]:-0}" -le 5
mapfile -t tids < <(json_get "$TMP/k/summary.json" tid)
check "kernel: every forked child has its task marker, named as rt-app" \
	eval "grep -q 'dlb_task: tid=${tids[1]:-x} name=child-1-0000 policy=deadline' '$TMP/k.trace' &&
	      grep -q 'dlb_task: tid=${tids[2]:-x} name=child-2-0001 ' '$TMP/k.trace' &&
	      grep -q 'dlb_task: tid=${tids[3]:-x} name=child-3-0002 ' '$TMP/k.trace'"
n=$(job_ends "$TMP/k.trace" "${tids[3]:-x}")
check "kernel: the last child's job end markers are in the trace ($n, 4 or 5)" \
	test "$n" -ge 4 -a "$n" -le 5
