#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-rtapp's command line: bad input gives exit 2 and this exact message.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
RTAPP=$BIN/dlb-rtapp
W=$DLB_SRC/rt-app/tests/data/dl2.json
N=$(getconf _NPROCESSORS_ONLN)

cases=(
	"--backend foo $W|dlb-rtapp: --backend: 'foo' is not kernel or reference"
	"-d 2x $W|dlb-rtapp: --duration: '2x' is not a duration above 0 (e.g. 2s, 500ms)"
	"-d 0s $W|dlb-rtapp: --duration: '0s' is not a duration above 0 (e.g. 2s, 500ms)"
	"-m 0 -b reference $W|dlb-rtapp: --cpus: '0' is not a number of CPUs in 1..1024"
	"-m 1024 $W|dlb-rtapp: --cpus 1024: the kernel backend runs on CPUs 0..N-1 of this machine's $N online CPUs: give N in 1..$N, or simulate 1024 CPUs with --backend reference"
	"--setscheduler2=abc $W|dlb-rtapp: --setscheduler2: 'abc' is not a syscall number"
	"/nonexistent.json|dlb-rtapp: /nonexistent.json: cannot open: no such file or directory"
)
plan $((2 * ${#cases[@]} + 2))
for c in "${cases[@]}"; do
	args=${c%%|*} want=${c#*|}
	# shellcheck disable=SC2086
	got=$("$RTAPP" $args 2>&1)
	expect_eq "exit 2: $args" "$?" 2
	expect_eq "message: $args" "$got" "$want"
done
"$RTAPP" >/dev/null 2>&1
expect_eq "no workload: exit 2" "$?" 2
check "--help prints the usage, exit 0" eval "\"$RTAPP\" --help | grep -q '^usage: dlb-rtapp'"
