#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench/lib/alternate.sh, the side-by-side timing of make bench: A and B
# alternate (a warm-up of each, then A B A B ...), the run count follows
# DLB_BENCH_QUICK / DLB_BENCH_RUNS, medians and per-pair ratios come out
# (a 30x difference in sleep seen as more than 1.5x: the machine is shared,
# and each run pays ~0.1 s of fork and exec under load).
. "$DLB_SRC/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 7
# shellcheck disable=SC2016	# expanded by the inner shell
runs() { env -u DLB_BENCH_QUICK -u DLB_BENCH_RUNS "$@" bash -c '. "$1"; echo "$BENCH_RUNS"' _ \
	"$DLB_SRC/bench/lib/alternate.sh"; }
expect_eq "7 runs a side by default" "$(runs X=1)" 7
expect_eq "3 in quick mode" "$(runs DLB_BENCH_QUICK=1)" 3
expect_eq "DLB_BENCH_RUNS wins" "$(runs DLB_BENCH_QUICK=1 DLB_BENCH_RUNS=5)" 5
# shellcheck source=bench/lib/alternate.sh
. "$DLB_SRC/bench/lib/alternate.sh"
expect_eq "median, odd and even counts" "$(printf '3\n1\n2\n' | bench_median) $(printf '4\n1\n3\n2\n' | bench_median)" "2 2.5"
BENCH_RUNS=3
BENCH_A=(sh -c "printf 'A ' >> '$tmp/order'; sleep 0.02")
BENCH_B=(sh -c "printf 'B ' >> '$tmp/order'; sleep 0.6")
bench_pair short long > "$tmp/out"
expect_eq "warm-up, then A B alternated" "$(cat "$tmp/order")" "A B A B A B A B "
check "B/A of the wall medians above 1.5" awk -v r="$PAIR_RATIO" 'BEGIN { exit !(r > 1.5) }'
check "one wall and one cpu line" test "$(grep -c '^    wall  A .* B/A [0-9.]* ([0-9.]*\.\.[0-9.]*)$' "$tmp/out")$(grep -c '^    cpu ' "$tmp/out")" = 11
