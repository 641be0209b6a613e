#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# "nodes_membind" (NUMA memory binding, rt-app's set_thread_membind).
# Reference (dlb-rtapp -b reference, dlb-sim): accepted, one warning, no
# effect.  Kernel (root, the lock): each thread's sched snapshot ends with
# its memory policy as it exited, read by the thread itself (get_mempolicy):
# the task's nodes, a phase's kept after the phase, none for a task without;
# a node this machine does not have is refused before any thread starts,
# one line naming the task and phase, exit 2.  The workload has no
# SCHED_DEADLINE task: the kernel's bandwidth is not touched.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 9
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-membind.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/w.json" <<'JSON'
{
	"global": { "calibration": 100 },
	"tasks": {
		"bound": { "nodes_membind": [0], "run": 1000, "sleep": 9000 },
		"phased": { "policy": "SCHED_FIFO", "priority": 10, "phases": {
			"p0": { "nodes_membind": [0], "run": 500, "sleep": 9500 },
			"p1": { "run": 500, "sleep": 9500 } } },
		"old": { "membind_nodes": [0], "run": 1000, "sleep": 9000 },
		"plain": { "run": 1000, "sleep": 9000 }
	}
}
JSON
W_OLD="dlb-rtapp: warning: $TMP/w.json:8:12: tasks.old.membind_nodes: nodes_membind's name before rt-app's 8e79e11 (2020), read as nodes_membind: rt-app since reads it as a 'mem' event, so write nodes_membind"
W_REF="dlb-rtapp: warning: task 'bound': nodes_membind has no effect on the reference backend (it has no memory model: no NUMA nodes)"
W_SIM="dlb-sim: warning: task 'bound': nodes_membind has no effect on the reference (it has no memory model: no NUMA nodes)"

"$RTAPP" -b reference -m 2 -d 100ms -o "$TMP/ref" "$TMP/w.json" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
expect_eq "reference: two warnings, the old name and that the binding has no effect" \
	"$(grep warning "$TMP/ref.out")" "$W_OLD
$W_REF"
"$BIN/dlb-sim" -d 100ms "$TMP/w.json" >/dev/null 2>"$TMP/sim.err"
expect_eq "dlb-sim: exits 0, warns that the binding has no effect" \
	"$?:$(grep -c warning "$TMP/sim.err"):$(grep -xF "$W_SIM" "$TMP/sim.err")" "0:2:$W_SIM"

require need_root need_proc_sched
kernel_lock_run_sh
"$RTAPP" -n -d 300ms -o "$TMP/k" "$TMP/w.json" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
pol() { awk -F': ' '$1 ~ /^mempolicy / { print $2 }' "$TMP/k/rt-app-$1.sched"; }
expect_eq "kernel: bound is bound to node 0" "$(pol bound-0)" bind:0
expect_eq "kernel: phased keeps p0's binding after p1 (it has none of its own)" \
	"$(pol phased-1)" bind:0
expect_eq "kernel: old (membind_nodes) is bound to node 0; plain has the default policy" \
	"$(pol old-2) $(pol plain-3)" "bind:0 default"

# the first node number this machine does not have
n=0
while [ -e "/sys/devices/system/node/node$n" ]; do n=$((n + 1)); done
sed "s/\"p0\": { \"nodes_membind\": \[0\]/\"p0\": { \"nodes_membind\": [0, $n]/" \
	"$TMP/w.json" >"$TMP/bad.json"
"$RTAPP" -n -q -d 300ms -o "$TMP/kb" "$TMP/bad.json" >"$TMP/kb.out" 2>&1
rc=$?
expect_eq "kernel: node $n (not on this machine): exit 2, one line naming the task and phase" \
	"$rc:$(cat "$TMP/kb.out")" \
	"2:dlb-rtapp: task 'phased' phase 'p0': nodes_membind: node $n does not exist on this machine (its nodes: $(cat /sys/devices/system/node/online), in /sys/devices/system/node)"
check "kernel: refused before any thread started (no snapshot written)" \
	test ! -e "$TMP/kb/rt-app-bound-0.sched"
