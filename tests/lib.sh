# SPDX-License-Identifier: GPL-2.0
# TAP helpers and prerequisite checks for shell tests.  Source it:
#	. "$DLB_SRC/tests/lib.sh"
#	plan 3
#	require need_root need_sched_deadline
#	check "name" cmd args...     # passes when cmd exits 0
# shellcheck shell=bash
# shellcheck disable=SC2034  # BIN, DLB_SKIP_REASON: read by the tests that source this file
set -u
: "${DLB_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
BIN=$DLB_BUILD/bin
_tap_n=0 _tap_plan=0
DLB_SKIP_REASON=

plan() { _tap_plan=$1; echo "1..$1"; }
pass() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1"; }
fail() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
# skip every test left in the plan, with one reason
skip_rest() { while [ "$_tap_n" -lt "$_tap_plan" ]; do skip "prerequisite" "$1"; done; }
# require CHECK...: run each need_* check; at the first that fails, skip the
# rest of the plan with its reason and exit 0
require() {
	local c
	for c in "$@"; do
		"$c" || { skip_rest "$DLB_SKIP_REASON"; exit 0; }
	done
}
# check NAME CONDITION-COMMAND...: pass if the command succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "failed: $*"; fi; }
# expect_eq NAME GOT WANT
expect_eq() { if [ "$2" == "$3" ]; then pass "$1"; else fail "$1" "got:  $2" "want: $3"; fi; }

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	DLB_SKIP_REASON="needs root (uid is $(id -u))"; return 1
}
need_sched_deadline() {
	# chrt -d exists in util-linux; a tiny DL reservation proves the kernel has it
	if command -v chrt >/dev/null && chrt -d --sched-runtime 100000 --sched-deadline 1000000 \
		--sched-period 1000000 0 true 2>/dev/null; then
		return 0
	fi
	DLB_SKIP_REASON="SCHED_DEADLINE unusable here (chrt -d refused)"; return 1
}
tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -w "$d/trace_marker" ] && { echo "$d"; return 0; }
	done
	if [ "$(id -u)" -eq 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
		echo /sys/kernel/tracing; return 0
	fi
	return 1
}
need_tracefs() {
	tracefs_dir >/dev/null && return 0
	DLB_SKIP_REASON="no writable tracefs (not mounted and not mountable)"; return 1
}
