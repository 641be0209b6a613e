#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# "util_min" / "util_max" (uclamp, rt-app's utilization clamps).  Reference
# (dlb-rtapp -b reference, dlb-sim): accepted, one warning, no effect.
# Kernel (root, the lock): on a kernel without CONFIG_UCLAMP_TASK the run is
# refused before any thread starts, one line naming the task, exit 3; on a
# kernel with it, each thread's /proc/PID/sched snapshot shows its clamps
# (the task's; the phased task's last phase's, kept after the phase).
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 7
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-uclamp.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/w.json" <<'JSON'
{
	"global": { "calibration": 100 },
	"tasks": {
		"boosted": { "util_min": 256, "util_max": 768, "run": 1000, "sleep": 9000 },
		"phased": { "policy": "SCHED_FIFO", "priority": 10, "phases": {
			"p0": { "util_min": 100, "run": 500, "sleep": 9500 },
			"p1": { "util_max": 900, "run": 500, "sleep": 9500 } } },
		"plain": { "run": 1000, "sleep": 9000 }
	}
}
JSON
W_REF="dlb-rtapp: warning: task 'boosted': util_min/util_max have no effect on the reference backend (it has no utilization clamping: no CPU frequency or capacity model)"
W_SIM="dlb-sim: warning: task 'boosted': util_min/util_max have no effect on the reference (it has no utilization clamping: no CPU frequency or capacity model)"
E_NO="dlb-rtapp: task 'boosted': util_min/util_max need utilization clamping, which this kernel does not have (CONFIG_UCLAMP_TASK; sched_setattr: EOPNOTSUPP); run without them, or on a kernel with uclamp"

"$RTAPP" -b reference -m 2 -d 100ms -o "$TMP/ref" "$TMP/w.json" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
expect_eq "reference: one warning, that the clamps have no effect" \
	"$(grep -c warning "$TMP/ref.out") $(grep -xF "$W_REF" "$TMP/ref.out")" "1 $W_REF"
"$BIN/dlb-sim" -d 100ms "$TMP/w.json" >/dev/null 2>"$TMP/sim.err"
expect_eq "dlb-sim: exits 0, the same one warning" "$?:$(cat "$TMP/sim.err")" "0:$W_SIM"

require need_root need_proc_sched
exec 9>/tmp/dlbench-kernel.lock
flock 9
"$RTAPP" -n -d 300ms -o "$TMP/k" "$TMP/w.json" >"$TMP/k.out" 2>&1
rc=$?
# the kernel has uclamp iff it has its sysctls (kernel/sched/core.c, CONFIG_UCLAMP_TASK)
if [ ! -e /proc/sys/kernel/sched_util_clamp_min ]; then
	expect_eq "kernel without uclamp: exit 3 (environment)" "$rc" 3
	expect_eq "kernel without uclamp: one line naming the task" "$(cat "$TMP/k.out")" "$E_NO"
	check "kernel without uclamp: no thread ran (no snapshot written)" \
		test ! -e "$TMP/k/rt-app-boosted-0.sched"
	skip "kernel: the threads' clamps" "this kernel has no uclamp (CONFIG_UCLAMP_TASK)"
else
	expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
	clamp() { awk -v k="$2" '$1 == k { print $3 }' "$TMP/k/rt-app-$1.sched"; }
	expect_eq "kernel: boosted's clamps 256/768" \
		"$(clamp boosted-0 uclamp.min)/$(clamp boosted-0 uclamp.max)" 256/768
	expect_eq "kernel: phased keeps p0's min and p1's max (100/900)" \
		"$(clamp phased-1 uclamp.min)/$(clamp phased-1 uclamp.max)" 100/900
	expect_eq "kernel: plain keeps the defaults (0/1024)" \
		"$(clamp plain-2 uclamp.min)/$(clamp plain-2 uclamp.max)" 0/1024
fi
