#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dlb-rtapp --backend reference: the 2-task DL workload gives exactly the
# expected jobs and release times, the same run folder layout as the kernel
# backend, byte-identical output across runs; and every workload in
# workloads/ runs.  No kernel needed.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
WORKLOADS=("$DLB_SRC"/workloads/*.json)
[ -e "${WORKLOADS[0]}" ] || WORKLOADS=()
plan $((19 + ${#WORKLOADS[@]}))

DATA=$DLB_SRC/rt-app/tests/data
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-rtapp-ref.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
json_get() { sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1"; }

"$RTAPP" -q -b reference -m 2 -o "$TMP/a" "$DATA/dl2.json" >"$TMP/a.out" 2>&1
expect_eq "reference run exits 0" "$?" 0
S=$TMP/a/summary.json
expect_eq "summary: backend, clock, status" \
	"$(json_get "$S" backend) $(json_get "$S" clock) $(json_get "$S" status)" \
	"reference virtual complete"
expect_eq "summary jobs exactly 200 and 100" "$(json_get "$S" jobs | tr '\n' ' ')" "200 100 "
expect_eq "dl_a log: 200 jobs" "$(grep -vc '^#' "$TMP/a/rt-app-dl_a-0.log")" 200
expect_eq "dl_b log: 100 jobs" "$(grep -vc '^#' "$TMP/a/rt-app-dl_b-1.log")" 100
expect_eq "same files as the kernel backend, plus trace.txt" "$(cd "$TMP/a" && printf '%s ' *)" \
	"rt-app-dl_a-0.log rt-app-dl_a-0.sched rt-app-dl_b-1.log rt-app-dl_b-1.sched summary.json trace.txt "
mapfile -t tids < <(json_get "$S" tid)
# a full disk under an output: exit 3, one line naming the file and why
# (the trace and logs said only "DIR: write error")
for f in trace.txt rt-app-dl_a-0.log rt-app-dl_b-1.sched; do
	mkdir -p "$TMP/full-$f"
	ln -s /dev/full "$TMP/full-$f/$f"
	out=$("$RTAPP" -q -b reference -m 2 -o "$TMP/full-$f" "$DATA/dl2.json" 2>&1); rc=$?
	expect_eq "disk full under $f" "$rc $out" "3 dlb-rtapp: $TMP/full-$f/$f: no space left on device"
done
# release k of dl_a at exactly k * 10 ms, deadline 10 ms later; dl_b every 20 ms
rel_check() {	# tid period
	grep "dlb_job: tid=$1 job=[0-9]* event=release" "$TMP/a/trace.txt" |
		sed 's/.* job=\([0-9]*\) event=release rel=\([0-9]*\) dl=\([0-9]*\).*/\1 \2 \3/' |
		awk -v p="$2" '$2 != $1 * p || $3 != $2 + p { bad++ } END { print NR, bad + 0 }'
}
expect_eq "dl_a: 200 releases at k * 10 ms, dl = rel + 10 ms" "$(rel_check "${tids[0]}" 10000000)" "200 0"
expect_eq "dl_b: 100 releases at k * 20 ms, dl = rel + 20 ms" "$(rel_check "${tids[1]}" 20000000)" "100 0"
expect_eq "dl_a begin markers" "$(grep -c "dlb_job: tid=${tids[0]} job=[0-9]* event=begin" "$TMP/a/trace.txt")" 200
check "run start and end markers" eval "grep -q 'dlb_run: event=start backend=reference cpus=2 clock=virtual' $TMP/a/trace.txt && grep -q 'dlb_run: event=end status=complete' $TMP/a/trace.txt"
check "sched snapshot in the kernel's layout" grep -Eq '^policy +: +6$' "$TMP/a/rt-app-dl_a-0.sched"

# byte-identical: the same command into the same folder
mv "$TMP/a" "$TMP/first"
"$RTAPP" -q -b reference -m 2 -o "$TMP/a" "$DATA/dl2.json" >/dev/null 2>&1
check "second run byte-identical to the first" diff -r "$TMP/first" "$TMP/a"

"$RTAPP" -q -b reference -m 2 -o "$TMP/over" "$DATA/oversub.json" >"$TMP/over.out" 2>&1
expect_eq "over-subscription refused on the simulated machine too: exit 3, as the kernel's" \
	"$?" 3
check "summary.json: admission refused, with the reason" \
	grep -q '"outcome": "refused"' "$TMP/over/summary.json"

# rt-app's "run" column is the wall time of the job's run events
# (rt-app.c: ldata->duration += t_end - t_start around each run), not the
# job's span: 1 ms, a 5 ms sleep, 1 ms, alone on the CPU -> 2000 us, as the
# kernel backend logs it (the span would be 7000)
cat >"$TMP/gap.json" <<'JSON'
{ "global": { "duration": 1 },
  "tasks": { "g": { "run": 1000, "sleep": 5000, "run2": 1000,
		    "timer": { "ref": "g", "period": 20000 } } } }
JSON
"$RTAPP" -q -b reference -m 1 -d 200ms -o "$TMP/gap" "$TMP/gap.json" >/dev/null 2>&1
expect_eq "run with a sleep inside: exits 0" "$?" 0
expect_eq "log run column: the run events' 2000 us, every job (jobs, lines not 2000)" \
	"$(awk '!/^#/ { n++; if ($3 != 2000) bad++ } END { print n, bad + 0 }' \
		"$TMP/gap/rt-app-g-0.log")" "10 0"

for w in "${WORKLOADS[@]}"; do
	n=$(basename "$w" .json)
	"$RTAPP" -q -b reference -d 1s -o "$TMP/wl-$n" "$w" >"$TMP/wl-$n.out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && [ -s "$TMP/wl-$n/summary.json" ]; then
		pass "workloads/$n.json runs on the reference backend"
	else
		fail "workloads/$n.json runs on the reference backend" "exit $rc: $(head -c 300 "$TMP/wl-$n.out")"
	fi
done
