#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fault/adversarial.sh [--markdown]
#
# Runs each bad input of the adversarial-inputs table (docs/notes/hardening.md)
# through the tool that reads it and records the exact first line of its
# error output (its first line starting with the tool's name) and its
# exit code.
#
#   --markdown   print the table that docs/notes/hardening.md carries, nothing else
#                (regenerate it with this, never edit it by hand)
#   (no option)  TAP test: each input ends with its exit code and an error
#                line, and the docs table equals the --markdown output
#
# No root needed: only the workload checker and the analyzer are used.
set -u
SRC=${DLB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${DLB_BUILD:-$SRC/build}/bin
TMP=$(mktemp -d /tmp/dlb-adversarial.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1

# ---- the inputs: name, how it is made, the command run on it ----
# Each case: NAME|EXIT|CMD, EXIT the code it must end with (2 bad input,
# 4 data flagged incomplete: include/dlbench/exitcode.h).  The files are made below; names are relative to $TMP
# so messages do not depend on where the test runs.
mk() { printf '%b' "$2" > "$1"; }
mk empty.json ''
mk notjson.json 'this is not json\n'
mk truncated.json '{"tasks": {"t1": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000'
mk nul.json '{"tasks": {"t\0": {}}}\n'
mk deep.json "$(printf '[%.0s' $(seq 1 5000))"
mk neg-runtime.json '{"tasks": {"t1": {"policy": "SCHED_DEADLINE", "dl-runtime": -1, "dl-deadline": 10000, "dl-period": 10000, "run": 1000}}}\n'
mk runtime-gt-deadline.json '{"tasks": {"t1": {"policy": "SCHED_DEADLINE", "dl-runtime": 20000, "dl-deadline": 10000, "dl-period": 10000, "run": 1000}}}\n'
mk huge-period.json '{"tasks": {"t1": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-deadline": 10000, "dl-period": 99999999999999999999999, "run": 1000}}}\n'
mk no-tasks.json '{"global": {"duration": 1}}\n'
mk dup-key.json '{"tasks": {"t1": {"run": 1000}, "t1": {"run": 1000}}}\n'
mkdir dir.json
mk garbage.txt 'garbage garbage\n\x01\x02\x03\n'
mk empty.txt ''
mk text-bad-ts.txt '# tracer: nop\n#\n          <idle>-0       [000] d..2. abc.def: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n'
mk text-back-ts.txt '# tracer: nop\n#\n          <idle>-0       [000] d..2. 2.000000: sched_switch: prev_comm=a prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n          <idle>-0       [000] d..2. 1.000000: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=R ==> next_comm=a next_pid=0 next_prio=120\n'
mk bad-magic.dat '\x17\x08\x44tracing6\n'
mk zeros.dat "$(printf '\\x00%.0s' $(seq 1 512))"
# inputs the fuzzers found (tests/fuzz/regress/): replayed here by make check
for f in "$SRC"/tests/fuzz/regress/trace_dat/*.dat; do
	cp "$f" "fuzz-$(basename "$f")"
done

CASES=(
	"empty workload|2|dlb-workload check empty.json"
	"not JSON|2|dlb-workload check notjson.json"
	"truncated JSON|2|dlb-workload check truncated.json"
	"NUL byte in a key|2|dlb-workload check nul.json"
	"5000 nested arrays|2|dlb-workload check deep.json"
	"negative dl-runtime|2|dlb-workload check neg-runtime.json"
	"dl-runtime > dl-deadline|2|dlb-workload check runtime-gt-deadline.json"
	"dl-period beyond u64|2|dlb-workload check huge-period.json"
	"no tasks|2|dlb-workload check no-tasks.json"
	"duplicate task name|2|dlb-workload check dup-key.json"
	"missing workload file|2|dlb-workload check missing.json"
	"workload path is a directory|2|dlb-workload check dir.json"
	"binary garbage as a text trace|2|dlb-analyze garbage.txt"
	"empty trace|2|dlb-analyze empty.txt"
	"text trace, timestamp not a number|4|dlb-analyze text-bad-ts.txt"
	"text trace, time goes backwards|4|dlb-analyze text-back-ts.txt"
	"trace.dat with a bad magic|2|dlb-analyze bad-magic.dat"
	"512 zero bytes as trace.dat|2|dlb-analyze zeros.dat"
	"missing trace|2|dlb-analyze missing.dat"
	"fuzz find: huge chunk sizes|2|dlb-analyze fuzz-oom-chunks-info.dat"
	"fuzz find: unterminated printk section|2|dlb-analyze fuzz-printk-overflow.dat"
	"fuzz find: leak when the open fails|4|dlb-analyze fuzz-leak-open-fd.dat"
	"fuzz find: corrupt buffer instance|2|dlb-analyze fuzz-crash-buffer-instance.dat"
	"fuzz find: leak when a buffer will not open|2|dlb-analyze fuzz-leak-buffer-instance.dat"
	"fuzz find: record longer than its page|4|dlb-analyze fuzz-record-past-page.dat"
	"fuzz find: page size with its top bit set|2|dlb-analyze fuzz-ub-page-size-shift.dat"
)

# run_case CMD: sets MSG (first stderr line) and RC.
run_case() {
	local tool=${1%% *} args=${1#* }
	# shellcheck disable=SC2086
	"$BIN/$tool" $args >out 2>err </dev/null
	RC=$?
	# the tool's own line: libraries may print before it ("mmap: ...")
	MSG=$(grep -m1 "^$tool: " err || head -n1 err)
}

markdown() {
	echo "| input | command | error line | exit |"
	echo "|---|---|---|---|"
	local c
	for c in "${CASES[@]}"; do
		run_case "${c##*|}"
		# shellcheck disable=SC2016  # the backquotes are markdown
		printf '| %s | `%s` | `%s` | %s |\n' "${c%%|*}" "${c##*|}" "${MSG//|/\\|}" "$RC"
	done
}

if [ "${1:-}" = --markdown ]; then
	markdown
	exit 0
fi

. "$SRC/tests/lib.sh"
plan $((${#CASES[@]} + 1))
for c in "${CASES[@]}"; do
	want=${c#*|}; want=${want%%|*}
	run_case "${c##*|}"
	check "${c%%|*}: exit $want with an error line (got $RC: $MSG)" \
		test "$RC" = "$want" -a -n "$MSG"
done
markdown > table.md
sed -n '/^<!-- adversarial:begin/,/^<!-- adversarial:end/p' "$SRC/docs/notes/hardening.md" |
	sed '1d;$d' > doc.md
name="docs/notes/hardening.md table = tests/fault/adversarial.sh --markdown"
if [ "$(basename "${DLB_BUILD:-build}")" != build ]; then
	# a sanitizer in the reader's probe child ends it with exit 1, not the
	# signal the plain build names: the table is the plain build's
	skip "$name" "the table is generated by the plain build (build/)"
elif cmp -s table.md doc.md; then
	pass "$name"
else
	fail "$name"
	diff doc.md table.md | sed 's/^/#   /'
fi
