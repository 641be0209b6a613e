#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# -m N on the kernel backend: the run uses CPUs 0..N-1 only (DL threads in an
# exclusive cpuset partition of those CPUs, the others' affinity set to them,
# the generator's own thread too, so a new thread never starts elsewhere).
# With -m 1 on a machine of 2 or more CPUs, recorded through run.sh: every
# switch-in of every workload thread in the trace is on CPU 0, each thread ran,
# summary.json and report.json say 1 CPU, admission is that of one CPU, no
# cpuset is left, load balancing and the DL accounting are as they were.
# -m 0, -m above the online CPUs, and a task pinned outside 0..N-1 are
# refused (exit 2, one line) before anything starts.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 25

require need_root need_sched_deadline need_tracefs
CPUSET=$(awk '$3 == "cgroup" && $4 ~ /cpuset/ { print $2; exit }' /proc/mounts)
[ -n "$CPUSET" ] || { skip_rest "no cgroup v1 cpuset hierarchy mounted"; exit 0; }
NCPU=$(getconf _NPROCESSORS_ONLN)
[ "$NCPU" -ge 2 ] || { skip_rest "needs 2 CPUs"; exit 0; }
require_built dlb-analyze dlb-rtapp dlb-record
kernel_lock_run_sh

DATA=$DLB_SRC/rt-app/tests/data
RTAPP=$BIN/dlb-rtapp
RUN=$DLB_SRC/run.sh
TMP=$(mktemp -d /tmp/dlb-rtapp-cpus.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
LB=$(cat "$CPUSET/cpuset.sched_load_balance")
dl_bw_baseline
left_behind() { find "$CPUSET" -maxdepth 1 -name 'dlbench-*' -type d | wc -l; }
json_int() { sed -n "s/^ *\"$2\": *\([0-9]*\),\{0,1\}$/\1/p" "$1" | head -1; }

# ---- -m 1, recorded as text (the CPU of each switch is in every line) ----
DLB_RECORD_FORMAT=text "$RUN" run "$DATA/cpus_m.json" -b kernel -m 1 -M 5% -o "$TMP/m1" \
	> "$TMP/m1.out" 2>&1
rc=$?
check "-m 1: exit OK or misses over the tolerance (got $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
expect_eq "-m 1: summary.json says 1 CPU" "$(json_int "$TMP/m1/summary.json" cpus)" 1
expect_eq "-m 1: report.json says 1 CPU" "$(json_int "$TMP/m1/report.json" cpus)" 1
# the workload's threads: their TIDs from summary.json
tids=$(sed -n 's/^ *"tid": *\([0-9]*\),\{0,1\}$/\1/p' "$TMP/m1/summary.json" | tr '\n' ' ')
expect_eq "-m 1: four threads in the summary" "$(echo "$tids" | wc -w)" 4
# per thread: how many times it was switched in, and on which CPUs
switch_cpus() {
	awk -v tids="$tids" '
		BEGIN { n = split(tids, t, " "); for (i = 1; i <= n; i++) want[t[i]] = 1 }
		/ sched_switch: / {
			cpu = -1
			for (i = 1; i <= NF; i++)
				if ($i ~ /^\[[0-9]+\]$/) { cpu = substr($i, 2, length($i) - 2) + 0; break }
			for (i = 1; i <= NF; i++) if ($i ~ /^next_pid=/) {
				pid = substr($i, 10)
				if (pid in want) { ins[pid]++; on[pid "@" cpu] = 1 }
			}
		}
		END {
			for (p in want) {
				cpus = ""
				for (k in on) { split(k, a, "@"); if (a[1] == p) cpus = cpus " " a[2] }
				printf "%s %d%s\n", p, ins[p], cpus
			}
		}' "$TMP/m1/trace.txt" | sort
}
switch_cpus > "$TMP/switches"
sed 's/^/# tid, switch-ins, CPUs: /' "$TMP/switches"
expect_eq "-m 1: every thread switched in at least once" \
	"$(awk '$2 > 0' "$TMP/switches" | wc -l)" 4
expect_eq "-m 1: every switch-in of every thread on CPU 0 (trace)" \
	"$(awk '{ for (i = 3; i <= NF; i++) if ($i != 0) print }' "$TMP/switches" | wc -l)" 0
expect_eq "-m 1: no cpuset left" "$(left_behind)" 0
expect_eq "-m 1: sched_load_balance restored" "$(cat "$CPUSET/cpuset.sched_load_balance")" "$LB"
check_dl_bw "-m 1 run" "$TMP/m1/summary.json"

# ---- admission is one CPU's: 0.95 - 0.05 (fair server) = 0.9; 2 x 0.5 is refused ----
# (cpus_busy.json: 2 x 0.5 unpinned, admitted on 2 CPUs)
"$RTAPP" -q -n -m 1 -o "$TMP/busy" "$DATA/cpus_busy.json" > "$TMP/busy.out" 2>&1
rc=$?
expect_eq "-m 1: a set over one CPU's capacity refused by admission (exit 3)" "$rc" 3
check "-m 1: EBUSY names one CPU" grep -q "(1 CPUs" "$TMP/busy.out"
expect_eq "-m 1 refused: no cpuset left" "$(left_behind)" 0
check_dl_bw "-m 1 refused by admission" "$TMP/busy/summary.json"

# ---- -m N with N = the online CPUs: the whole machine, as without -m ----
"$RTAPP" -q -n -m "$NCPU" -d 200ms -o "$TMP/all" "$DATA/cpus_m.json" > "$TMP/all.out" 2>&1
expect_eq "-m $NCPU (all online CPUs): exit 0" "$?" 0
expect_eq "-m $NCPU: summary.json says $NCPU CPUs" "$(json_int "$TMP/all/summary.json" cpus)" "$NCPU"
check_dl_bw "-m $NCPU run" "$TMP/all/summary.json"

# ---- refused before anything starts: exit 2, one line ----
over=$((NCPU + 1))
"$RTAPP" -q -n -m "$over" -o "$TMP/over" "$DATA/cpus_m.json" > "$TMP/over.out" 2>&1
expect_eq "dlb-rtapp -m $over (above the online CPUs): exit 2" "$?" 2
expect_eq "dlb-rtapp -m $over: one line" "$(wc -l < "$TMP/over.out")" 1
"$RUN" run "$DATA/cpus_m.json" -b kernel -m "$over" -o "$TMP/rover" > "$TMP/rover.out" 2>&1
expect_eq "run.sh -m $over on the kernel backend: exit 2, one line, no folder" \
	"$?:$(wc -l < "$TMP/rover.out"):$(test -e "$TMP/rover" && echo made)" "2:1:"
"$RTAPP" -q -n -m 0 -o "$TMP/zero" "$DATA/cpus_m.json" > "$TMP/zero.out" 2>&1
expect_eq "dlb-rtapp -m 0: exit 2, one line" "$?:$(wc -l < "$TMP/zero.out")" "2:1"
# pin.json pins a DL task on CPU 1: outside the one CPU of -m 1
"$RTAPP" -q -n -m 1 -o "$TMP/out1" "$DATA/pin.json" > "$TMP/out1.out" 2>&1
expect_eq "-m 1 with a task pinned on CPU 1: exit 2, one line" \
	"$?:$(wc -l < "$TMP/out1.out")" "2:1"
# a phase's own cpus replace the task's while it runs: bounded by -m too
cat > "$TMP/phase1.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "t": { "phases": { "a": { "cpus": [0], "run": 1000, "sleep": 1000 },
				"b": { "cpus": [1], "run": 1000, "sleep": 1000 } } } } }
JSON
"$RTAPP" -q -n -m 1 -o "$TMP/ph1" "$TMP/phase1.json" > "$TMP/ph1.out" 2>&1
expect_eq "-m 1 with a phase pinned on CPU 1: exit 2, one line" \
	"$?:$(wc -l < "$TMP/ph1.out")" "2:1"
# without -m: a task or a phase on a CPU this machine does not have (rt-app's
# tutorial example8 wants CPU 2) is refused before any thread starts
sed "s/\[1\]/[$NCPU]/" "$TMP/phase1.json" > "$TMP/phaseN.json"
"$RTAPP" -q -n -o "$TMP/phN" "$TMP/phaseN.json" > "$TMP/phN.out" 2>&1
expect_eq "no -m, a phase on CPU $NCPU (not online): exit 2, one line naming it, nothing started" \
	"$?:$(wc -l < "$TMP/phN.out"):$(grep -c "phase 'b': cpus names CPU $NCPU, but this machine has $NCPU online CPUs" "$TMP/phN.out"):$(test -e "$TMP/phN/summary.json" && echo ran)" "2:1:1:"
sed "s/\"phases\"/\"cpus\": [$NCPU], \"phases\"/" "$TMP/phase1.json" > "$TMP/taskN.json"
"$RTAPP" -q -n -o "$TMP/tN" "$TMP/taskN.json" > "$TMP/tN.out" 2>&1
expect_eq "no -m, a task on CPU $NCPU (not online): exit 2, one line naming it" \
	"$?:$(wc -l < "$TMP/tN.out"):$(grep -c "task 't': cpus names CPU $NCPU, but" "$TMP/tN.out")" "2:1:1"
check_dl_bw "refusals"
