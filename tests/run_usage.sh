#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh's command line: --help of every command, bad input gets exit 2 and
# the exact message; exit codes come from exitcode.h.
. "$(dirname "$0")/lib.sh"
plan 9
RUN=$DLB_SRC/run.sh
helps=0
for c in "" run analyze compare nightly plot ospert; do
	"$RUN" $c --help 2>&1 | grep -q '^usage: ./run.sh' && helps=$((helps + 1))
done
expect_eq "--help of the 7 commands" "$helps" 7
# bad_input EXPECTED-STDERR-LINE ARGS...: exit 2 and that exact line on stderr
bad_input() {
	local want=$1 err rc; shift
	err=$("$RUN" "$@" 2>&1 >/dev/null); rc=$?
	grep -qxF -- "$want" <<< "$err" || err="no such line in: $err"
	grep -qxF -- "$want" <<< "$err" && err=$want
	expect_eq "run.sh $*: exit 2, '$want'" "$rc $err" "2 $want"
}
bad_input "run.sh: run: no workload given (try --help)" run
bad_input "run.sh: run: /nonexistent.json: no such file" run /nonexistent.json
bad_input "run.sh: run: --backend: 'gpu' is not kernel, reference or qemu" run "$DLB_SRC/workloads/suites/over-capacity.json" -b gpu
bad_input "run.sh: nightly: no suite 'nope'" nightly --suite nope
bad_input "run.sh: nightly: unknown argument '--bogus' (try --help)" nightly --bogus
bad_input "run.sh: compare: BASE and NEW needed (try --help)" compare /a
bad_input "run.sh: unknown command 'frobnicate'" frobnicate
expect_eq "exit codes listed from exitcode.h" \
	"$("$RUN" --help | sed -n 's/^  \([0-9]\)  \([A-Z_]*\):.*/\1 \2/p' | tr '\n' ' ')" \
	"0 OK 1 REGRESSION 2 BAD_INPUT 3 ENV 4 INCOMPLETE 5 INTERNAL "
