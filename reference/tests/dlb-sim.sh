#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dlb-sim, the CLI: help, bad input with exact messages and exit codes,
# the output directory, byte-identical reruns, admission refusal.
. "$DLB_SRC/tests/lib.sh"
plan 26
SIM=$BIN/dlb-sim
D=$DLB_SRC/reference/tests/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

out=$("$SIM" --help); rc=$?
expect_eq "help exits 0" "$rc" 0
check "help lists --cpu-select" grep -q -- '--cpu-select=SEL' <<<"$out"

out=$("$SIM" -m x "$D/two_dl.json" 2>&1); rc=$?
expect_eq "bad --cpus exit code" "$rc" 2
expect_eq "bad --cpus message" "$out" "dlb-sim: --cpus: 'x' is not a number in 1..1024 (try --help)"

out=$("$SIM" -m 1025 "$D/two_dl.json" 2>&1); rc=$?
expect_eq "--cpus over 1024" "$out:$rc" "dlb-sim: --cpus: '1025' is not a number in 1..1024 (try --help):2"

# R/P[:PCT] through the shared parsers: signs, trailing text and P = 0 refused
for a in -1/2 1/0 2/1 1/2:101 1/2:5x; do
	out=$("$SIM" -a "$a" "$D/two_dl.json" 2>&1); rc=$?
	bads+="$rc "
done
expect_eq "bad --admission values exit 2" "$bads" "2 2 2 2 2 "
"$SIM" -a 950000/1000000:5 "$D/two_dl.json" >/dev/null; rc=$?
expect_eq "--admission R/P:PCT accepted" "$rc" 0

# no randomness in the oracle (docs/reference.md, "No --seed"): the option is gone
out=$("$SIM" --seed 1 "$D/two_dl.json" 2>&1); rc=$?
expect_eq "--seed refused" "$rc" 2
# shellcheck disable=SC2016  # $1 is the inner bash's
check "help has no --seed" bash -c '! "$1" --help | grep -q -- --seed' _ "$SIM"

out=$("$SIM" 2>&1); rc=$?
expect_eq "no workload message" "$out:$rc" "dlb-sim: no workload given (try --help):2"

out=$("$SIM" -s tree "$D/two_dl.json" 2>&1); rc=$?
expect_eq "bad --cpu-select" "$out:$rc" "dlb-sim: --cpu-select: 'tree' is neither heap nor linear (try --help):2"

"$SIM" -m 2 --check --no-timing -d 200ms -o "$T/a" "$D/two_dl.json"; rc=$?
expect_eq "run exits 0" "$rc" 0
check "trace has -deadline switches" grep -q 'sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a-0 next_pid=1000 next_prio=-1' "$T/a/trace.txt"
check "trace has job markers" grep -q 'tracing_mark_write: dlb_job: tid=1001 job=0 event=begin rel=0 dl=10000000' "$T/a/trace.txt"
check "schedstats have the seed's dl.stats" grep -q '^dl.stats.dmiss_max ' "$T/a/sched/1000.sched"
expect_eq "jobs.csv: 40 + 20 jobs" "$(tail -n +2 "$T/a/jobs.csv" | wc -l)" 60

"$SIM" -m 2 --check --no-timing -d 200ms -o "$T/b" "$D/two_dl.json"
check "same input, byte-identical output" diff -r "$T/a" "$T/b"

out=$("$SIM" -m 2 "$D/ebusy.json" 2>&1); rc=$?
# an admission refusal is the environment (3), as the generator's EBUSY on a kernel
expect_eq "EBUSY exit code" "$rc" 3
check "EBUSY message has the numbers" grep -q 'EBUSY: h-3: bandwidth 0.5000 would bring the -deadline total to 2.0000 of 2 CPUs, over the admitted 1.8000' <<<"$out"

out=$("$SIM" -o /proc/nope "$D/two_dl.json" 2>&1); rc=$?
expect_eq "unwritable output" "$out:$rc" "dlb-sim: /proc/nope: no such file or directory:3"

"$SIM" "$D/two_dl.json" >/dev/full 2>"$T/err"; rc=$?
expect_eq "summary on a full stdout: exit 3, said" "$rc $(cat "$T/err")" "3 dlb-sim: stdout: no space left on device"
# a full disk under each output file is an error naming it, never a quiet
# loss (jobs.csv's close was not checked: exit 0 with the file cut)
for f in trace.txt jobs.csv; do
	mkdir -p "$T/full-$f"
	ln -s /dev/full "$T/full-$f/$f"
	out=$("$SIM" -o "$T/full-$f" "$D/two_dl.json" 2>&1); rc=$?
	expect_eq "disk full under $f" "$out:$rc" "dlb-sim: $T/full-$f/$f: no space left on device:3"
done

out=$("$SIM" /nonexistent.json 2>&1); rc=$?
expect_eq "missing workload" "$out:$rc" "dlb-sim: /nonexistent.json: cannot open: no such file or directory:2"

# heap = linear where docs/reference.md says they agree (no affinity, self
# wake-ups), on a set that pushes, pulls and ties two CPUs' earliest deadlines
# (y-1 and y-2) when w must find a later CPU: the cpudl tie rule decides
"$SIM" -m 3 -s heap --check --no-timing -d 200ms -o "$T/heap" "$D/global3.json"
"$SIM" -m 3 -s linear --check --no-timing -d 200ms -o "$T/lin" "$D/global3.json"
pushes_pulls() { awk -F, '$1 == "push" || $1 == "pull" { printf "%s %s ", $1, ($5 > 0) }' "$1"; }
expect_eq "heap and linear both push and pull" "$(pushes_pulls "$T/heap/ops.csv")/$(pushes_pulls "$T/lin/ops.csv")" \
	"push 1 pull 1 /push 1 pull 1 "
check "heap and linear: the same trace" diff "$T/heap/trace.txt" <(sed 's/cpu-select linear/cpu-select heap/' "$T/lin/trace.txt")
