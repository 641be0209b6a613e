#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dlb-tasksetgen's command line: bad arguments give exit 2 and this exact
# one-line message; generated sets pass dlb-workload check and are the same
# for the same seed (that they run on the reference simulator:
# tests/contract/tasksetgen_sim.sh).
# shellcheck disable=SC2016  # the awk programs are single-quoted on purpose
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
GEN=$BIN/dlb-tasksetgen
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=dlb-tasksetgen

cases=(
	"-m 2|$P: give the utilisation: -u TOTAL or --util-per-cpu X (one of them) (try --help)"
	"-m 2 -u 1 --util-per-cpu 0.5|$P: give the utilisation: -u TOTAL or --util-per-cpu X (one of them) (try --help)"
	"-n 4 --util-per-cpu 0.5|$P: --util-per-cpu needs -m CPUS (try --help)"
	"-u 1|$P: give -n TASKS or -m CPUS (the default is 2 tasks per CPU) (try --help)"
	"-n 3 -u 3.5|$P: utilisation 3.5 is more than 3 tasks can have (each u <= 1) (try --help)"
	"-m 2 --util-per-cpu 2.5|$P: utilisation 5 is more than 4 tasks can have (each u <= 1) (try --help)"
	"-n 3 -u 0|$P: the utilisation must be above 0 (try --help)"
	"-n 3 -u abc|$P: --util: 'abc' is not a number in 0..4096 (try --help)"
	"-m 2 --util-per-cpu nan|$P: --util-per-cpu: 'nan' is not a number in 0..4096 (try --help)"
	"-n 0 -u 1|$P: --tasks: '0' is not a number in 1..4096 (try --help)"
	"-m 2000 -u 1|$P: --cpus: '2000' is not a number in 1..1024 (try --help)"
	"-m 2 -u 1 --alg uunifast|$P: --alg: 'uunifast' is neither randfixedsum nor uunifast-discard (try --help)"
	"-m 2 -u 1 --period-min 10xs|$P: --period-min: '10xs' is not a duration (e.g. 10ms, 500us) (try --help)"
	"-m 2 -u 1 --period-gran 1500ns|$P: --period-gran: '1500ns' is not a whole number of microseconds (try --help)"
	"-m 2 -u 1 --period-min 50us --period-gran 10us|$P: --period-min: 50 us is below the kernel's 100 us (sched_deadline_period_min_us) (try --help)"
	"-m 2 -u 1 --period-min 200ms|$P: --period-min 200000 us is above --period-max 100000 us (try --help)"
	"-m 2 -u 1 --period-min 10500us|$P: --period-min and --period-max must be multiples of --period-gran (1000 us) (try --help)"
	"-m 2 -u 1 --period-dist exp|$P: --period-dist: 'exp' is neither log nor uniform (try --help)"
	"-m 2 -u 1 --deadline-ratio 0.8:0.2|$P: --deadline-ratio: '0.8:0.2' is not LO or LO:HI with 0 <= LO <= HI <= 1 (try --help)"
	"-m 2 -u 1 --run-ratio 0|$P: --run-ratio: '0' is not a number in (0, 10] (try --help)"
	"-m 2 -u 1 --duration 2.5|$P: --duration: '2.5' is not a whole number of seconds >= 1 (rt-app's global.duration) (try --help)"
	"-m 2 -u 1 --seed -1|$P: --seed: '-1' is not a number in 0..2^63-1 (try --help)"
	"-m 2 -u 1 --count 3|$P: --count 3 needs --prefix (try --help)"
	"-m 2 -u 1 --count 3 --prefix x -o y.json|$P: -o and --prefix exclude each other (try --help)"
	"-m 2 -u 1 --frobnicate|$P: unknown option '--frobnicate' (try --help)"
	"-m 2 -u 1 --seed|$P: --seed needs a value (try --help)"
	"-m 2 -u 1 extra|$P: unexpected argument 'extra' (try --help)"
	"-n 20 -u 15 --alg uunifast-discard|$P: uunifast-discard: no draw in 5000000 had every u <= 1 (utilisation 15 of 20 tasks): use --alg randfixedsum"
)
# the contract with the OSPERT sweeps (issue 7)
CONTRACT=(-m 2 --util-per-cpu 0.7 --seed 5 --alg randfixedsum --period-min 10ms
	  --period-max 100ms --period-gran 1ms --duration 10)

plan $((2 * ${#cases[@]} + 14))
for c in "${cases[@]}"; do
	args=${c%%|*} want=${c#*|}
	# shellcheck disable=SC2086
	got=$("$GEN" $args 2>&1 >/dev/null)
	expect_eq "exit 2: $args" "$?" 2
	expect_eq "message: $args" "$got" "$want"
done

out=$("$GEN" --help); rc=$?
expect_eq "help exits 0" "$rc" 0
check "help names the contract's options" grep -q -- '--util-per-cpu=X' <<<"$out"

got=$("$GEN" -m 2 -u 1 -o /proc/nope/x.json 2>&1); rc=$?
expect_eq "unwritable output: exit 3 and message" "$got:$rc" \
	"$P: /proc/nope/x.json: cannot open: no such file or directory:3"

"$GEN" "${CONTRACT[@]}" -o "$T/a.json" 2>"$T/a.err"
expect_eq "contract command exits 0" "$?" 0
check "summary line has the achieved utilisation" \
	grep -Eq "^$T/a.json: 4 tasks, utilisation 1\.[0-9]{6} \(asked 1\.400000\), seed 5$" "$T/a.err"
check "dlb-workload check accepts it" "$BIN/dlb-workload" -q check "$T/a.json"
"$GEN" "${CONTRACT[@]}" -q >"$T/b.json"
check "same seed: byte-identical (file and stdout)" cmp -s "$T/a.json" "$T/b.json"
"$GEN" "${CONTRACT[@]}" --seed 6 -q -o "$T/c.json"
check "another seed: another set" eval "! cmp -s '$T/a.json' '$T/c.json'"

# every option at once, and several sets
"$GEN" -m 4 --util-per-cpu 0.6 -n 10 --alg uunifast-discard --period-dist uniform \
	--period-min 5ms --period-max 50ms --period-gran 500us --deadline-ratio 0.5:0.9 \
	--run-ratio 0.8 --duration 3 --seed 100 --count 3 --prefix "$T/set" -q
rc=$?
check "three sets written" eval "[ $rc -eq 0 ] && [ -f '$T/set-000.json' ] && [ -f '$T/set-002.json' ]"
check "dlb-workload check accepts all three" "$BIN/dlb-workload" -q check "$T"/set-00[0-2].json
"$GEN" -m 4 --util-per-cpu 0.6 -n 10 --alg uunifast-discard --period-dist uniform \
	--period-min 5ms --period-max 50ms --period-gran 500us --deadline-ratio 0.5:0.9 \
	--run-ratio 0.8 --duration 3 --seed 102 -q -o "$T/one.json"
check "set i of --count is --seed N+i" cmp -s "$T/set-002.json" "$T/one.json"
dump=$("$BIN/dlb-workload" dump "$T/set-001.json")
check "constrained deadlines reach the loaded model" awk '
	/^task / { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
		   n++; if (v["deadline_ns"] < v["period_ns"]) short++ }
	END { exit !(n == 10 && short == 10) }' <<<"$dump"
# the file's own numbers: periods on the 500 us grid in [5, 50] ms, C <= D <= T, run = 0.8 C
check "periods, deadlines and runs as asked" awk '
	/"run":/ { run = $2 + 0 }
	/"dl-runtime":/ { c = $2 + 0 }
	/"dl-period":/ { t = $2 + 0 }
	/"dl-deadline":/ { d = $2 + 0; n++
		if (t % 500 || t < 5000 || t > 50000 || c > d || d > t) bad++
		if (run < 0.8 * c - 1 || run > 0.8 * c + 1) bad++ }
	END { exit !(n == 10 && !bad) }' "$T/set-001.json"

# U = n: every task is busy all its period
"$GEN" -n 3 -u 3 -q -o "$T/full.json"
check "U = n: runtime = period for every task" awk '
	/"dl-runtime":/ { c = $2 + 0 } /"dl-period":/ { if ($2 + 0 != c) bad++; n++ }
	END { exit !(n == 3 && !bad) }' "$T/full.json"
