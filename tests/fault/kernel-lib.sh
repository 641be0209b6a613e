# SPDX-License-Identifier: GPL-2.0
# Shared by tests/fault/kernel-*.sh (sourced after tests/lib.sh; not a test).
# shellcheck shell=bash
# shellcheck disable=SC2034  # KFAULT_WL: read by the tests that source this file
KFAULT_WL=$DLB_SRC/tests/fault/kernel-dl.json	# 2 DL threads, 0.2 each, 1 s

# number of SCHED_DEADLINE threads on the machine
kfault_dl_threads() {
	local f n=0
	for f in /proc/[0-9]*/task/[0-9]*/sched; do
		[ "$(awk '$1 == "policy" { print $3; exit }' "$f" 2>/dev/null)" = 6 ] && n=$((n + 1))
	done
	echo "$n"
}
