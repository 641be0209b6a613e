#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel runs in a hostile environment: trace_marker unwritable, tracefs hidden
# and not mountable, an unprivileged user, a results folder on a full file
# system.  Each: a clear error, the documented exit code, no SCHED_DEADLINE
# thread, no tracefs instance left, and summary.json whole or absent.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
. "$DLB_SRC/tests/fault/kernel-lib.sh"
plan 32

require need_root need_sched_deadline need_tracefs
if ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null; then
	skip_rest "needs unshare and setpriv (util-linux)"
	exit 0
fi
exec 9>/tmp/dlbench-kernel.lock
flock 9

TRACEFS=$(tracefs_dir)
TMP=$(mktemp -d /tmp/dlb-fault-env.XXXXXX)
chmod 755 "$TMP"	# nobody reads the workload
FULL=$TMP/full
trap 'umount "$FULL" 2>/dev/null; rm -rf "$TMP"' EXIT
R=$BIN/dlb-rtapp
W=$KFAULT_WL

clean() {
	[ "$(kfault_dl_threads)" = 0 ] && ! compgen -G "$TRACEFS/instances/*dlbench*" >/dev/null
}
# summary.json is whole (parses, has a status) or absent; never a .tmp left
summary_ok() {
	[ ! -e "$1/summary.json.tmp" ] || return 1
	[ ! -e "$1/summary.json" ] || "$DLB_BUILD/tests/tools/json-status" "$1/summary.json" >/dev/null
}

# dlb-record's trace.txt: absent, or record.txt says what it is: the saved
# trace of a complete run, or partial_file=trace.txt with another status
trace_flagged() {
	[ -e "$1/trace.txt" ] || return 0
	[ -e "$1/record.txt" ] || return 1
	grep -qx 'partial_file=trace.txt' "$1/record.txt" &&
		! grep -qx 'status=complete' "$1/record.txt" && return 0
	grep -qx 'file=trace.txt' "$1/record.txt" && grep -qx 'status=complete' "$1/record.txt"
}

# dlb-rtapp's logs and snapshots: only next to a summary.json that says
# whether they are whole
logs_flagged() {
	[ -e "$1/summary.json" ] && return 0
	[ -z "$(find "$1" -name '*.log' -o -name '*.sched' 2>/dev/null)" ]
}

# ---- trace_marker unwritable ----
"$R" -q -t /dev/full -o "$TMP/full1" "$W" 2>"$TMP/e1"
expect_eq "-t /dev/full exits 3" "$?" 3
expect_eq "-t /dev/full error" "$(cat "$TMP/e1")" \
	"dlb-rtapp: trace_marker /dev/full: cannot write the run-start marker: no space left on device"
check "-t /dev/full: summary says error" grep -q '"status": "error"' "$TMP/full1/summary.json"

# ---- tracing off at the top level: the kernel answers EBADF; say why ----
was_on=$(cat "$TRACEFS/tracing_on")
echo 0 > "$TRACEFS/tracing_on"
"$R" -q -o "$TMP/off" "$W" 2>"$TMP/e0"
rc=$?
echo "$was_on" > "$TRACEFS/tracing_on"
expect_eq "tracing off: exits 3" "$rc" 3
expect_eq "tracing off: says so" "$(cat "$TMP/e0")" \
	"dlb-rtapp: trace_marker $TRACEFS/trace_marker: tracing is off (tracing_on is 0 there): turn it on, record with dlb-record or run.sh, or run with -n (no markers)"
check "tracing off: nothing left" clean
check "-t /dev/full: nothing left" clean
"$R" -q -t /proc/version -o "$TMP/ro" "$W" 2>"$TMP/e2"
expect_eq "-t read-only file exits 3" "$?" 3
expect_eq "-t read-only file error" "$(cat "$TMP/e2")" \
	"dlb-rtapp: trace_marker /proc/version: cannot write the run-start marker: input/output error"

# ---- tracefs hidden and not mountable (private mount namespace, no CAP_SYS_ADMIN) ----
hidden() {
	unshare -m sh -c 'mount -t tmpfs -o ro,size=4k none /sys/kernel/tracing &&
		mount -t tmpfs -o ro,size=4k none /sys/kernel/debug &&
		exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"' sh "$@"
}
hidden "$BIN/dlb-record" -q -o "$TMP/notrace" -- true 2>"$TMP/e3"
expect_eq "dlb-record without tracefs exits 3" "$?" 3
check "dlb-record without tracefs says why" grep -q "^dlb-record: cannot create instance dlbench-rec-[0-9]* under /sys/kernel/\(debug/\)\{0,1\}tracing: " "$TMP/e3"
hidden "$R" -q -t /sys/kernel/tracing/trace_marker -o "$TMP/notrace2" "$W" 2>"$TMP/e4"
expect_eq "dlb-rtapp -t without tracefs exits 3" "$?" 3
expect_eq "dlb-rtapp -t without tracefs error" "$(cat "$TMP/e4")" \
	"dlb-rtapp: --trace-marker: /sys/kernel/tracing/trace_marker: no such file or directory"
check "without tracefs: nothing left" clean

# ---- unprivileged user ----
mkdir -m 777 "$TMP/nobody"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$R" -q -n -o "$TMP/nobody" "$W" 2>"$TMP/e5"
expect_eq "dlb-rtapp as nobody exits 3" "$?" 3
check "dlb-rtapp as nobody explains EPERM" grep -q "not permitted to set policy SCHED_DEADLINE (EPERM): it needs root or CAP_SYS_NICE (uid 65534)" "$TMP/e5"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$BIN/dlb-record" -q -o "$TMP/nobody" -- true 2>"$TMP/e6"
expect_eq "dlb-record as nobody exits 3" "$?" 3
check "dlb-record as nobody says permission denied" grep -q "^dlb-record: cannot create instance .*: permission denied" "$TMP/e6"
check "as nobody: nothing left" clean

# ---- one log on a full disk: named with the reason, the run incomplete ----
# (it said "DIR/LOG: write error", and summary.json said complete)
mkdir "$TMP/logfull" && ln -s /dev/full "$TMP/logfull/rt-app-sig-1.log"
"$R" -q -n -d 200ms -o "$TMP/logfull" "$W" 2>"$TMP/e9"
expect_eq "a log on a full disk: exit 4 (incomplete data)" "$?" 4
expect_eq "a log on a full disk: the file and the reason" "$(cat "$TMP/e9")" \
	"dlb-rtapp: $TMP/logfull/rt-app-sig-1.log: no space left on device"
expect_eq "a log on a full disk: summary says incomplete" \
	"$("$DLB_BUILD/tests/tools/json-status" "$TMP/logfull/summary.json")" incomplete

# ---- results on a full file system (64 kB tmpfs) ----
mkdir "$FULL" && mount -t tmpfs -o size=64k none "$FULL"
"$BIN/dlb-record" -q -f text -o "$FULL/k" -- "$R" -q -o "$FULL/k" "$W" 2>"$TMP/e7"
rc=$?
check "kernel run on a full disk fails ($rc)" test "$rc" -ne 0
check "kernel run on a full disk says so" grep -q "no space left on device\|write error" "$TMP/e7"
check "kernel run on a full disk: summary whole or absent" summary_ok "$FULL/k"
check "kernel run on a full disk: nothing left" clean
check "kernel run on a full disk: record.txt whole or absent" test ! -e "$FULL/k/record.txt.tmp"
check "kernel run on a full disk: trace.txt removed or flagged" trace_flagged "$FULL/k"
check "kernel run on a full disk: logs removed or flagged" logs_flagged "$FULL/k"
umount "$FULL" && mount -t tmpfs -o size=64k none "$FULL"
"$R" -q -b reference -d 20s -o "$FULL/ref" "$W" 2>"$TMP/e8"
expect_eq "reference run on a full disk exits 3" "$?" 3
check "reference run on a full disk: summary whole or absent" summary_ok "$FULL/ref"
check "reference run on a full disk: logs removed or flagged" logs_flagged "$FULL/ref"
