#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# "taskgroup" (rt-app's cgroup cpu controller groups).  Reference (dlb-rtapp
# -b reference, dlb-sim): accepted, one warning, no effect.  Kernel (root, a cpu controller mounted): two
# tasks in two groups (one nested below a group that exists before the run)
# and a task that changes group by phase; while the run goes on each thread
# is in its group (/proc/PID/task/TID/cgroup, polled), afterwards the groups
# the run made are gone and the one that existed is kept; a Ctrl-C (SIGINT)
# mid-run cleans up too; a user who may not create cgroups gets one line,
# exit 3.  The machine's cgroups are left as found.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 14
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-tgroup.XXXXXX)
G=dlbtest-tg-$$
CPU=
cleanup() {
	# only what this test made, deepest first (a failed run may leave them)
	if [ -n "$CPU" ]; then
		rmdir "$CPU/$G-b/sub" "$CPU/$G-b" "$CPU/$G-a" "$CPU/$G-pre/in" "$CPU/$G-pre" \
			2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
[ -n "${DLB_KEEP:-}" ] && trap - EXIT
# group a: tasks a and c (c only in phase p0, then "/"); group b/sub: task b
sed "s/@G@/$G/g" >"$TMP/w.json" <<'JSON'
{
	"global": { "calibration": 100 },
	"tasks": {
		"a": { "taskgroup": "/@G@-a", "run": 2000, "sleep": 8000 },
		"b": { "policy": "SCHED_BATCH", "taskgroup": "/@G@-b/sub", "run": 2000,
		       "sleep": 8000 },
		"c": { "phases": {
			"p0": { "taskgroup": "/@G@-a", "run": 1000, "sleep": 100000 },
			"p1": { "taskgroup": "/", "run": 1000, "sleep": 100000 } } },
		"p": { "taskgroup": "/@G@-pre/in", "run": 1000, "sleep": 9000 }
	}
}
JSON
W_REF="dlb-rtapp: warning: task 'a': taskgroup has no effect on the reference backend (it has no group scheduling)"

"$RTAPP" -b reference -m 2 -d 200ms -o "$TMP/ref" "$TMP/w.json" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
expect_eq "reference: one warning, that taskgroup has no effect" \
	"$(grep -c warning "$TMP/ref.out") $(grep -xF "$W_REF" "$TMP/ref.out")" "1 $W_REF"

"$BIN/dlb-sim" -d 200ms "$TMP/w.json" >/dev/null 2>"$TMP/sim.err"
expect_eq "dlb-sim: exits 0, the same one warning" "$?:$(cat "$TMP/sim.err")" \
	"0:dlb-sim: warning: task 'a': taskgroup has no effect on the reference (it has no group scheduling)"

need_cpu_cgroup() {
	CPU=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
	[ -n "$CPU" ] && return 0
	DLB_SKIP_REASON="no cgroup v1 cpu controller mounted (v2: not tested here yet)"; return 1
}
require need_root need_cpu_cgroup
exec 9>/tmp/dlbench-kernel.lock
flock 9
before=$(find "$CPU" -mindepth 1 -type d | LC_ALL=C sort)
mkdir "$CPU/$G-pre"

# poll each thread's cpu cgroup ("comm /path") and the groups, until the run ends
"$RTAPP" -n -d 2s -o "$TMP/k" "$TMP/w.json" >"$TMP/k.out" 2>&1 &
pid=$!
: >"$TMP/seen"
while kill -0 "$pid" 2>/dev/null; do
	# shell builtins only: a poll must be quicker than c's phases
	for t in "/proc/$pid/task/"*; do
		read -r comm <"$t/comm" || continue
		while IFS=: read -r _ ctl path; do
			[[ ,$ctl, == *,cpu,* ]] && echo "$comm $path"
		done <"$t/cgroup"
	done 2>/dev/null >>"$TMP/seen"
	[ -d "$CPU/$G-a" ] && echo dir-a >>"$TMP/seen"
	[ -d "$CPU/$G-b/sub" ] && echo dir-b >>"$TMP/seen"
	sleep 0.01
done
wait "$pid"
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
check "kernel: the groups existed during the run" grep -qx dir-a "$TMP/seen"
check "kernel: the nested group existed during the run" grep -qx dir-b "$TMP/seen"
check "kernel: task a's thread ran in /$G-a" grep -qx "a-0 /$G-a" "$TMP/seen"
check "kernel: task b's thread ran in /$G-b/sub" grep -qx "b-1 /$G-b/sub" "$TMP/seen"
check "kernel: task c's thread was in /$G-a (phase p0) and in / (phase p1)" \
	eval "grep -qx 'c-2 /$G-a' '$TMP/seen' && grep -qx 'c-2 /' '$TMP/seen'"
check "kernel: task p's thread ran in /$G-pre/in, below a group made before" \
	grep -qx "p-3 /$G-pre/in" "$TMP/seen"
expect_eq "kernel: after the run, what it made is gone and the group made before is kept" \
	"$(find "$CPU" -mindepth 1 -type d | LC_ALL=C sort)" \
	"$(printf '%s\n%s\n' "$before" "$CPU/$G-pre" | sed '/^$/d' | LC_ALL=C sort)"

# Ctrl-C in the middle of the run
"$RTAPP" -n -d 10s -o "$TMP/int" "$TMP/w.json" >"$TMP/int.out" 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -d "$CPU/$G-b/sub" ] && break; sleep 0.02; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
expect_eq "kernel: SIGINT mid-run exits 4 (incomplete) and removes the groups" \
	"$rc $(find "$CPU" -mindepth 1 -type d -name "$G-*" | LC_ALL=C sort | tr '\n' ' ')" \
	"4 $CPU/$G-pre "
rmdir "$CPU/$G-pre"

# one line and exit 3 for a user who may not create cgroups
if command -v setpriv >/dev/null; then
	mkdir -p "$TMP/nobody" && chmod 777 "$TMP/nobody" && chmod 755 "$TMP"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$RTAPP" -n -d 100ms \
		-o "$TMP/nobody/out" "$TMP/w.json" >/dev/null 2>"$TMP/perm.out"
	rc=$?
	expect_eq "kernel: not allowed to create cgroups: exit 3, one line ($(head -c 300 "$TMP/perm.out"))" \
		"$rc $(wc -l <"$TMP/perm.out") $(grep -c "dlb-rtapp: taskgroup '/$G-a': cannot create $CPU/$G-a: Permission denied" "$TMP/perm.out")" "3 1 1"
else
	skip "kernel: not allowed to create cgroups: exit 3" "no setpriv"
fi
expect_eq "kernel: the machine's cpu cgroups are as found" \
	"$(find "$CPU" -mindepth 1 -type d | LC_ALL=C sort)" "$before"
