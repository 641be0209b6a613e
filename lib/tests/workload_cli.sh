#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-workload's command line: check and dump, exit codes, one-line errors,
# stdin, -q, usage, -V.  The grammar itself is tested by test_workload.c.
. "$DLB_SRC/tests/lib.sh"
W=$BIN/dlb-workload
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
good=$DLB_SRC/workloads/rtapp-deadline.json
bad=$DLB_SRC/lib/tests/data/bad/runtime-gt-deadline.json
shipped=("$DLB_SRC"/workloads/*.json "$DLB_SRC"/workloads/suites/*.json)
plan $((${#shipped[@]} + 22))

# run ARGS...: exit code in $rc, stdout in $out, stderr in $err
run() { "$W" "$@" >"$T/out" 2>"$T/err"; rc=$?; out=$(cat "$T/out"); err=$(cat "$T/err"); }

for f in "${shipped[@]}"; do
	run check "$f"
	# "1 task", "2 tasks": never "1 tasks"
	if [ "$rc" -eq 0 ] && [ -z "$err" ] && printf '%s\n' "$out" |
		grep -qxE "$f: ok, (1 task|([02-9]|[1-9][0-9]+) tasks), dl bandwidth [0-9]+\.[0-9]{6} cpus"; then
		pass "check ${f#"$DLB_SRC"/}: ok"
	else
		fail "check ${f#"$DLB_SRC"/}: ok" "exit $rc" "stdout: $out" "stderr: $err"
	fi
done

run check "$bad"
expect_eq "bad file: exit 2" "$rc" 2
expect_eq "bad file: nothing on stdout" "$out" ""
expect_eq "bad file: one stderr line" "$(wc -l <"$T/err")" 1
check "bad file: dlb-workload: FILE:LINE:COL: message" \
	grep -qE "^dlb-workload: $bad:[0-9]+:[0-9]+: tasks\.t\.dl-runtime: runtime .* exceeds deadline" "$T/err"
rel=lib/tests/data/bad/runtime-gt-deadline
expect_eq "bad file: the message is the golden .err" "$(cd "$DLB_SRC" && "$W" check $rel.json 2>&1)" \
	"dlb-workload: $(cat "$DLB_SRC/$rel.err")"
run check "$DLB_SRC/workloads/suites/cbs-isolation.json"
check "two tasks: plural" grep -q ': ok, 2 tasks, ' "$T/out"

run check "$T/missing.json"
expect_eq "missing file: exit 2" "$rc" 2
expect_eq "missing file: named" "$err" "dlb-workload: $T/missing.json: cannot open: no such file or directory"

run check "$good" "$bad"
expect_eq "good + bad: exit 2" "$rc" 2
check "good + bad: the good one is still reported" grep -q "^$good: ok, 1 task," "$T/out"
expect_eq "good + bad: the bad one on stderr" "$(grep -c "^dlb-workload: $bad:" "$T/err")" 1

"$W" check - <"$good" >"$T/out" 2>"$T/err"; rc=$?
expect_eq "stdin: exit 0" "$rc" 0
check "stdin: reported as -" grep -q '^-: ok, 1 task, dl bandwidth 0.120000 cpus$' "$T/out"
printf '{\n' | "$W" check - >"$T/out" 2>"$T/err"; rc=$?
expect_eq "bad stdin: exit 2, named <stdin>" "$rc $(cat "$T/err")" \
	"2 dlb-workload: <stdin>:2:1: unexpected end of file (truncated json)"

run -q check "$good" "$bad"
expect_eq "-q: nothing on stdout for the good file" "$out" ""
check "-q: the failure still on stderr" grep -q "^dlb-workload: $bad:" "$T/err"
run -q check "$good"
expect_eq "-q, all good: exit 0, silent" "$rc:$out:$err" "0::"

"$W" dump "$good" >/dev/full 2>"$T/err"; rc=$?
expect_eq "dump to /dev/full: exit 5" "$rc" 5
expect_eq "dump to /dev/full: says so" "$(cat "$T/err")" "dlb-workload: cannot write the dump"

run
check "no arguments: usage on stderr, exit 2" \
	test "$rc" -eq 2 -a -z "$out" -a "${err#usage: dlb-workload check}" != "$err"
run --frobnicate check "$good"
check "unknown option: usage on stderr, exit 2" \
	test "$rc" -eq 2 -a -z "$out" -a "$(grep -c '^usage: dlb-workload' "$T/err")" -eq 1
run -V
expect_eq "-V: the version in VERSION" "$rc $out" "0 dlb-workload $(cat "$DLB_SRC/VERSION")"
