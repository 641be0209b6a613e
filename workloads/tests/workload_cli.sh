#!/usr/bin/env bash
# dlb-workload, the command: every shipped workload checks ok; a bad, missing
# or unwritable file gives the documented exit code and one stderr line;
# stdin, -q, dump (= the golden dumps of test_workload), usage and -V.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
W=$BIN/dlb-workload
G=$DLB_SRC/lib/tests/data/good
D=$DLB_SRC/lib/tests/data/bad
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
shipped=("$DLB_SRC"/workloads/*.json "$DLB_SRC"/workloads/suites/*.json)
goods=("$G"/*.json)
plan $((${#shipped[@]} + ${#goods[@]} + 29))

# run ARGS...: $rc, $T/out, $T/err
run() { "$W" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
lines() { wc -l <"$1" | tr -d ' '; }

# 1. every shipped workload: exit 0 and one "ok" line naming it, with the
#    number of tasks its dump has ("1 task", "2 tasks")
for f in "${shipped[@]}"; do
	run check "$f"
	n=$("$W" dump "$f" 2>/dev/null | grep -c '^task ')
	want="$f: ok, $n task$([ "$n" = 1 ] || echo s), dl bandwidth "
	if [ "$rc" = 0 ] && [ "$(lines "$T/out")" = 1 ] && [ ! -s "$T/err" ] &&
	   [ "${want}" = "$(head -c ${#want} "$T/out")" ]; then
		pass "check ${f#"$DLB_SRC"/}"
	else
		fail "check ${f#"$DLB_SRC"/}" "exit $rc" "$(cat "$T/out" "$T/err")" "want: $want..."
	fi
done

# 2. a bad file: exit 2, nothing on stdout, one stderr line = the .err golden
run check "$D/unknown-key-task.json"
expect_eq "bad file: exit 2" "$rc" 2
expect_eq "bad file: one stderr line" "$(lines "$T/err")" 1
check "bad file: line starts 'dlb-workload: FILE:LINE:COL:'" \
	grep -qE "^dlb-workload: $D/unknown-key-task\\.json:[0-9]+:[0-9]+: " "$T/err"
expect_eq "bad file: the loader's message" "$(cat "$T/err")" \
	"dlb-workload: $(sed "s,^lib/tests/data/bad,$D," "$D/unknown-key-task.err")"
expect_eq "bad file: stdout empty" "$(lines "$T/out")" 0

# 3. a missing file: exit 2, named
run check "$T/nope.json"
expect_eq "missing file: exit 2" "$rc" 2
expect_eq "missing file: named" "$(cat "$T/err")" \
	"dlb-workload: $T/nope.json: cannot open: no such file or directory"

# 4. good and bad together: exit 2, the good one still reported, the bad one on stderr
run check "$G/defaults.json" "$D/empty.json" "$G/global-full.json"
expect_eq "good+bad: exit 2" "$rc" 2
expect_eq "good+bad: both good ones ok" "$(cut -d, -f1-2 "$T/out")" \
	"$G/defaults.json: ok, 1 task
$G/global-full.json: ok, 6 tasks"
expect_eq "good+bad: the bad one on stderr" "$(cat "$T/err")" \
	"dlb-workload: $D/empty.json:1:1: file is empty"

# 5. stdin as "-": ok line names "-", errors name <stdin>
"$W" check - <"$G/defaults.json" >"$T/out" 2>"$T/err"; rc=$?
expect_eq "stdin good: exit 0 and ok" "$rc $(cat "$T/out")" \
	"0 -: ok, 1 task, dl bandwidth 0.000000 cpus"
"$W" check - <"$D/unknown-key-top.json" >"$T/out" 2>"$T/err"; rc=$?
expect_eq "stdin bad: exit 2, <stdin>:LINE:COL" "$rc $(cat "$T/err")" \
	"2 dlb-workload: <stdin>:2:2: task: unknown key 'task' at top level (did you mean 'tasks'?)"

# 6. -q: only failures
run -q check "$G/defaults.json" "$G/global-full.json"
expect_eq "-q all good: exit 0, no output" "$rc $(cat "$T/out" "$T/err")" "0 "
run --quiet check "$G/defaults.json" "$D/loop-0.json"
expect_eq "-q with a bad file: exit 2, stdout empty" "$rc $(lines "$T/out")" "2 0"
check "-q with a bad file: the failure on stderr" grep -q "^dlb-workload: $D/loop-0.json:5:21: " "$T/err"
run check -q "$G/defaults.json"
expect_eq "-q after the command works too" "$rc $(cat "$T/out" "$T/err")" "0 "
cp "$G/defaults.json" "$T/-q.json"
(cd "$T" && "$W" check -- -q.json >out 2>err); rc=$?
expect_eq "-- ends the options: a file named -q.json" "$rc $(cat "$T/out" "$T/err")" \
	"0 -q.json: ok, 1 task, dl bandwidth 0.000000 cpus"

# 7. dump equals the golden dump of test_workload.c, byte for byte
for f in "${goods[@]}"; do
	# the golden file: the dump, then the warnings the command prints on
	# stderr (with the path the test program gives, relative to the tree)
	run dump "$f"
	sed "s|^dlb-workload: warning: $DLB_SRC/|dlb-workload: warning: |" "$T/err" >>"$T/out"
	if [ "$rc" = 0 ] && cmp -s "$T/out" "${f%.json}.expected" &&
	   ! grep -qv '^dlb-workload: warning: ' "$T/err"; then
		pass "dump ${f##*/} = ${f##*/}: golden"
	else
		fail "dump ${f##*/}" "exit $rc" "$(diff "$T/out" "${f%.json}.expected" | head -5)"
	fi
done
run dump "$D/dl-no-runtime.json"
expect_eq "dump of a bad file: exit 2, one line" "$rc $(lines "$T/err") $(lines "$T/out")" "2 1 0"
"$W" dump "$G/all-events.json" >/dev/full 2>"$T/err"; rc=$?
expect_eq "dump to /dev/full: exit 3 (output unwritable, as every tool)" "$rc" 3
expect_eq "dump to /dev/full: says so" "$(cat "$T/err")" "dlb-workload: stdout: no space left on device"

# 8. usage: no arguments, unknown option, wrong arity; -h on stdout
for args in "" "--bogus" "-x check $G/defaults.json" "check" "dump" "dump a b" "lint $G/defaults.json"; do
	# shellcheck disable=SC2086
	run $args
	if [ "$rc" = 2 ] && [ ! -s "$T/out" ] && grep -q '^usage: dlb-workload \[-q\] check FILE' "$T/err"; then
		pass "usage on stderr, exit 2: '$args'"
	else
		fail "usage: '$args'" "exit $rc" "$(head -2 "$T/err")"
	fi
done
run --help
expect_eq "-h: usage on stdout, exit 0" "$rc $(head -1 "$T/out" | cut -c1-38) $(lines "$T/err")" \
	"0 usage: dlb-workload [-q] check FILE... 0"

# 9. -V: the version in VERSION
run -V
expect_eq "-V prints VERSION" "$rc $(cat "$T/out")" "0 dlb-workload $(cat "$DLB_SRC/VERSION")"
