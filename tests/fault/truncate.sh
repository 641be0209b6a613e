#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fault injection: traces cut at several offsets and a workload that vanishes.
# dlb-analyze must end with a one-line error or an "incomplete" result and a
# documented exit code (0..4, include/dlbench/exitcode.h), never a signal.
. "${DLB_SRC:-.}/tests/lib.sh"
src=${DLB_SRC:-.} bin=${DLB_BUILD:-build}/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dat=$src/analyzer/tests/fixtures/rtapp10.dat
zcat "$src/analyzer/tests/fixtures/rtapp10.report-N.txt.gz" > "$tmp/full.txt"
offs=(0 17 100 1000 5000 12000)
plan $((2 * ${#offs[@]} + 1))
for kind in dat txt; do
	f=$dat; [ $kind = txt ] && f=$tmp/full.txt
	for o in "${offs[@]}"; do
		head -c "$o" "$f" > "$tmp/cut.$kind"
		"$bin/dlb-analyze" "$tmp/cut.$kind" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -le 4 ] && [ "$(wc -l < "$tmp/err")" -le 3 ]; then
			pass "$kind cut at $o: exit $rc"
		else
			fail "$kind cut at $o" "exit $rc" "$(head -3 "$tmp/err")"
		fi
	done
done
"$bin/dlb-workload" "$tmp/gone.json" >/dev/null 2>"$tmp/err"
expect_eq "vanished workload file: bad-input exit" "$?" 2
