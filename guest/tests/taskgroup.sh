#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# rt-app's "taskgroup" on cgroup v2 (the cpu controller on the unified
# hierarchy, which the test host binds to v1): one x86-64 Debian 6.12 guest,
# 2 CPUs, init's dlb_test=cgroups hook polling each thread's cgroup.  Two
# tasks in two groups (one nested), one changing group by phase ("/" is the
# run's container), a DL task without one; after the run nothing is left
# and the root's subtree_control is as the guest booted with it.
# Skips (counted) without qemu or the fetched kernel, and under sanitizers
# (the guest's binaries are static and unsanitized).
. "$(dirname "$0")/../../tests/lib.sh"
plan 6
. "$(dirname "$0")/lib-x86.sh"
tmp=$(mktemp -d /tmp/dlb-guest-tg.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/w.json" <<'JSON'
{
	"global": { "duration": 4, "calibration": 100 },
	"tasks": {
		"a": { "taskgroup": "/tga", "run": 2000, "sleep": 8000 },
		"b": { "policy": "SCHED_BATCH", "taskgroup": "/tgb/sub", "run": 2000, "sleep": 8000 },
		"c": { "phases": {
			"p0": { "taskgroup": "/tga", "run": 1000, "sleep": 300000 },
			"p1": { "taskgroup": "/", "run": 1000, "sleep": 300000 } } },
		"d": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000,
		       "timer": { "ref": "t", "period": 10000 }, "run": 500 }
	}
}
JSON
"$RG" -q -k "$X86" -c 2 -A dlb_test=cgroups -o "$tmp/g" "$tmp/w.json" >"$tmp/out" 2>&1
rc=$?
expect_eq "guest run exits 0 ($(head -c 300 "$tmp/out"))" "$rc" 0
seen=$(sed -n 's/^\([a-d]-[0-3]\) 0::/\1 /p' "$tmp/g/cgroups-during.txt" 2>/dev/null |
	sed 's|/dlbench-tg-[0-9]*|C|' | LC_ALL=C sort -u | tr '\n' ' ')
echo "# threads seen: $seen($(grep -c "^c-2 " "$tmp/g/cgroups-during.txt" 2>/dev/null) polls)"
check "a-0 ran in the container's tga" grep -q 'a-0 C/tga ' <<<"$seen "
check "b-1 ran in tgb/sub" grep -q 'b-1 C/tgb/sub ' <<<"$seen "
check "c-2 was in tga (phase p0) and in the container, \"/\" (phase p1)" \
	grep -q 'c-2 C .*c-2 C/tga ' <<<"$seen "
check "d-3 (no taskgroup) stayed in the container" grep -q 'd-3 C ' <<<"$seen "
expect_eq "nothing left after the run, root subtree_control as booted" \
	"$(cat "$tmp/g/cgroups-after.txt" 2>/dev/null)" "$(cat "$tmp/g/cgroups-before.txt" 2>/dev/null)"
