#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A workload without a duration: dlb-rtapp (both backends) and dlb-sim say
# what they will do, on stderr and in summary.json; a task that loops
# forever gets the bounded default (10 s), never an hour of simulation.
# Task names holding '/', '%', or bytes that are not UTF-8 reach file names
# escaped (rt-app logs and sched snapshots, both backends), nothing is
# written outside the run folder.  The kernel part needs root and takes the
# machine-wide kernel lock.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 14
RTAPP=$BIN/dlb-rtapp
SIM=$BIN/dlb-sim
TMP=$(mktemp -d /tmp/dlb-length.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }

# no duration, a task that loops forever (timer period 10 ms)
cat > "$TMP/endless.json" <<'EOF'
{ "tasks": { "dl": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000,
		     "run": 500, "timer": { "ref": "unique", "period": 10000 } } } }
EOF
# no duration, every task ends by itself
cat > "$TMP/finite.json" <<'EOF'
{ "tasks": { "a": { "loop": 3, "run": 100, "sleep": 1000 } } }
EOF
note="no duration (global.duration or -d) and task 'dl' loops forever: running 10 s"
cd "$TMP" || exit 1

"$RTAPP" -b reference -o ref endless.json > /dev/null 2> ref.err; rc=$?
expect_eq "reference, endless task: exit 0, the default said on stderr" "$rc $(cat ref.err)" \
	"0 dlb-rtapp: endless.json: $note"
expect_eq "summary.json: duration 10 s, source default; 1000 jobs" \
	"$(json_get ref/summary.json duration_ns) $(json_get ref/summary.json duration_source) $(json_get ref/summary.json jobs)" \
	"10000000000 default 1000"
"$SIM" endless.json > sim.out 2> sim.err; rc=$?
expect_eq "dlb-sim, endless task: exit 0, the same words" "$rc $(cat sim.err)" "0 dlb-sim: endless.json: $note"
check "dlb-sim: 10 s simulated (1000 jobs)" grep -Eq '^ +dl-0 +[0-9]+ +1000 ' sim.out
"$RTAPP" -b reference -o fin finite.json > /dev/null 2> fin.err; rc=$?
expect_eq "reference, tasks that end: run until they do, said" "$rc $(cat fin.err) $(json_get fin/summary.json duration_source)" \
	"0 dlb-rtapp: finite.json: no duration (global.duration or -d): running until every task ends (at most 3600 s of simulated time) tasks-end"
"$RTAPP" -b reference -d 2s -o opt endless.json > /dev/null 2> opt.err; rc=$?
expect_eq "-d 2s: nothing to say, source option" \
	"$rc $(wc -c < opt.err) $(json_get opt/summary.json duration_ns) $(json_get opt/summary.json duration_source)" \
	"0 0 2000000000 option"

# names: '/', '%', not UTF-8, "..": escaped in every file name
printf '{ "global": { "duration": 1 }, "tasks": { "a/b": { "loop": 1, "run": 100 },
	"bad\xff": { "loop": 1, "run": 100 }, "..": { "loop": 1, "run": 100 },
	"50%%": { "loop": 1, "run": 100 } } }\n' > names.json
files="rt-app-%2E%2E-2.log rt-app-%2E%2E-2.sched rt-app-50%25-3.log rt-app-50%25-3.sched rt-app-a%2Fb-0.log rt-app-a%2Fb-0.sched rt-app-bad%FF-1.log rt-app-bad%FF-1.sched summary.json trace.txt "
"$RTAPP" -q -b reference -o nref names.json > /dev/null 2>&1; rc=$?
expect_eq "reference: every task's files, escaped, in the run folder" \
	"$rc $(entries nref)" "0 $files"
expect_eq "summary.json names them" "$(json_get nref/summary.json log | LC_ALL=C sort | tr '\n' ' ')" \
	"rt-app-%2E%2E-2.log rt-app-50%25-3.log rt-app-a%2Fb-0.log rt-app-bad%FF-1.log "
expect_eq "nothing written beside the run folder" "$(entries .)" \
	"endless.json fin fin.err finite.json names.json nref opt opt.err ref ref.err sim.err sim.out "
"$BIN/dlb-analyze" -q nref > /dev/null 2>&1
expect_eq "the analyzer reads that folder" "$?" 0

# the kernel backend: the same words, the same names
if ! need_root; then
	skip_rest "$DLB_SKIP_REASON"
	exit 0
fi
exec 9>/tmp/dlbench-kernel.lock
flock 9
"$RTAPP" -n -o kfin finite.json > /dev/null 2> kfin.err; rc=$?
expect_eq "kernel, tasks that end: exit 0, said on stderr and in summary.json" \
	"$rc $(grep -c 'running until every task ends$' kfin.err) $(json_get kfin/summary.json duration_source)" \
	"0 1 tasks-end"
# an endless SCHED_OTHER task: the 10 s default, cut short by a SIGINT after 1 s
printf '{ "tasks": { "o": { "run": 100, "sleep": 10000 } } }\n' > kend.json
timeout -s INT 1 "$RTAPP" -n -o kend kend.json > /dev/null 2> kend.err
expect_eq "kernel, endless task: the default said" "$(head -1 kend.err)" \
	"dlb-rtapp: kend.json: no duration (global.duration or -d) and task 'o' loops forever: running 10 s"
expect_eq "kernel: summary.json says 10 s, default" \
	"$(json_get kend/summary.json duration_ns) $(json_get kend/summary.json duration_source)" \
	"10000000000 default"
"$RTAPP" -q -n -o nk names.json > /dev/null 2>&1; rc=$?
expect_eq "kernel: the same escaped names" "$rc $(entries nk)" \
	"0 ${files%trace.txt }"
