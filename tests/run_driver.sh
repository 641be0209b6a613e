#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh as a user meets it (reference backend): paths relative to where it
# is started, errors before anything is created and naming the user's file,
# one folder per run even within a second, option values checked, --help
# that runs nothing, compare's warnings and summary, one verdict per run.
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 27
for t in dlb-analyze dlb-rtapp dlb-workload; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built yet"; exit 0; }
done
tmp=$(mktemp -d /tmp/dlb-run-driver.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh
export DLB_RESULTS=$tmp/results
mkdir -p "$tmp/wl" "$tmp/cwd"
cp "$DLB_SRC/workloads/suites/edf-global-2cpu.json" "$tmp/wl/edf.json"
cp "$DLB_SRC/workloads/suites/over-capacity.json" "$tmp/wl/over.json"
printf '{ "tasks": { "a": { "run": 100, "bogus": 1 } } }\n' > "$tmp/wl/bad.json"

entries() { find "$1" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
# bad_input WANT-STDERR ARGS...: exit 2, exactly that one line on stderr, nothing created
bad_input() {
	local want=$1 err rc; shift
	err=$(cd "$tmp/cwd" && "$RUN" "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "run.sh $*: exit 2, one line, nothing created" \
		"$rc|$err|$(entries "$DLB_RESULTS")" "2|$want|0"
}
bad_input "run.sh: run: option '-b' needs a value (try --help)" run -b
bad_input "run.sh: run: option '-o' needs a value (try --help)" run ../wl/edf.json -o
bad_input "run.sh: nightly: option '--suite' needs a value (try --help)" nightly --suite
bad_input "run.sh: run: ../wl: is a directory, not a workload file" run ../wl -b reference
bad_input "run.sh: run: ../wl/bad.json:1:33: tasks.a.bogus: unknown key or event 'bogus' in task" \
	run ../wl/bad.json -b reference
bad_input "run.sh: run: --max-misses: 'x' is not N, N% (0..100) or -1" run ../wl/edf.json -M x
bad_input "run.sh: run: --duration: '0s' is not a duration above 0 (e.g. 2s, 500ms)" \
	run ../wl/edf.json -d 0s
bad_input "run.sh: run: --cpus: '-1' is not a number of CPUs in 1..1024" run ../wl/edf.json -m -1
n=$(getconf _NPROCESSORS_ONLN)
bad_input "run.sh: run: --cpus $((n + 1)): the kernel backend runs on CPUs 0..N-1 of this machine's $n online CPUs: give N in 1..$n, or simulate $((n + 1)) CPUs with --backend reference" \
	run ../wl/edf.json -b kernel -m $((n + 1))
bad_input "run.sh: nightly: --max-duration: 'soon' is not a duration above 0" nightly -D soon
bad_input "run.sh: run: --format: 'pdf' is not dat or text" run ../wl/edf.json -b reference -f pdf
bad_input "run.sh: run: --format is for --backend reference (a qemu run records trace.dat)" \
	run ../wl/edf.json -b qemu -k /nonexistent -f text
err=$(bash "$DLB_SRC/bench/ospert/run.sh" --seed 2>&1); rc=$?
expect_eq "ospert --seed: the usage error, exit 2" "$rc|$err" "2|ospert: option '--seed' needs a value (try --help)"

# --help of every command prints its usage and runs nothing
helps=0
for c in test deps run analyze compare nightly plot ospert; do
	out=$("$RUN" $c --help 2>&1) && grep -q '^usage: ' <<< "$out" && helps=$((helps + 1))
done
expect_eq "--help of the 8 commands: usage, exit 0" "$helps" 8
expect_eq "test --help: its three help lines and nothing else (no build, no tests)" \
	"$("$RUN" test --help 2>&1 | head -1)|$("$RUN" test --help 2>&1 | wc -l)" "usage: ./run.sh test|3"

# relative paths are the user's: a workload and an output folder beside the caller
(cd "$tmp/cwd" && "$RUN" run ../wl/edf.json -b reference -d 300ms -o out > "$tmp/out1" 2>&1)
rc=$?
expect_eq "relative workload and -o from another directory: exit 0" "$rc" 0
check "the run folder is where the user said" test -s "$tmp/cwd/out/verdict.txt"

# -f dat: the reference run's trace as trace.dat, analysed like the text one
(cd "$tmp/cwd" && "$RUN" run ../wl/edf.json -b reference -d 300ms -f dat -o dat > /dev/null 2>&1)
rc=$?
expect_eq "reference -f dat: exit 0, trace.dat and no trace.txt" \
	"$rc|$(test -s "$tmp/cwd/dat/trace.dat" && echo dat)|$(test -e "$tmp/cwd/dat/trace.txt" && echo txt)" "0|dat|"
expect_eq "reference -f dat: the same jobs as the text run" \
	"$(wc -l < "$tmp/cwd/dat/jobs.csv")|$(cut -d= -f1 "$tmp/cwd/dat/verdict.txt" | head -1)" \
	"$(wc -l < "$tmp/cwd/out/jobs.csv")|$(cut -d= -f1 "$tmp/cwd/out/verdict.txt" | head -1)"
check "summary.json names the user's file" grep -q "\"workload\": \"$tmp/cwd/../wl/edf.json\"" \
	"$tmp/cwd/out/summary.json"

# two runs in the same second never share a folder (date is held still)
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho 20261204-120000\n' > "$tmp/bin/date"
chmod +x "$tmp/bin/date"
for i in 1 2; do
	PATH=$tmp/bin:$PATH "$RUN" run "$tmp/wl/edf.json" -b reference -d 200ms > "$tmp/same$i" 2>&1
done
expect_eq "same second: two folders" "$(ls "$DLB_RESULTS")" \
	"20261204-120000-run-edf
20261204-120000-run-edf.2"

# the same refusal by admission gives the same exit code as on the kernel (3)
"$RUN" run "$tmp/wl/over.json" -b reference -d 200ms -o "$tmp/over" > "$tmp/out2" 2>&1
rc=$?
expect_eq "refused by admission: exit 3 (environment), as dlb-rtapp -b kernel" "$rc" 3
check "the verdict says so, from summary.json's admission outcome" \
	grep -qx 'check=admission error refused by admission control: sched_setattr: EBUSY: o-3: .*' "$tmp/over/verdict.txt"

# compare: runs of different lengths are named, counts compared as rates, one summary line
"$RUN" run "$tmp/wl/edf.json" -b reference -d 600ms -o "$tmp/long" > /dev/null 2>&1
"$RUN" compare "$tmp/cwd/out" "$tmp/long" > "$tmp/cmp" 2>&1
check "compare: the duration difference is named" \
	grep -q '^# warning: the runs differ in duration: base 0.3.. s, new 0.6.. s$' "$tmp/cmp"
check "compare: ends with a one-line summary" \
	grep -q '^compare: not worse: 0 worse, [0-9]* better, [0-9]* same, [0-9]* n/a; the runs differ in duration$' \
	<<< "$(tail -1 "$tmp/cmp")"
mkdir -p "$tmp/suite/reference"
cp -r "$tmp/long" "$tmp/suite/reference/edf"
err=$("$RUN" compare "$tmp/missing" "$tmp/suite" 2>&1 >/dev/null); rc=$?
expect_eq "compare: a missing BASE, one line on stderr" "$rc|$err" \
	"2|run.sh: compare: $tmp/missing: no such file or folder"
"$RUN" compare "$tmp/suite" "$tmp/suite" > "$tmp/cmp2" 2>&1
check "compare of suites: a summary line" \
	grep -q '^compare: 1 runs: 0 worse, 1 not worse, 0 not judged, 0 not in BASE; exit 0' "$tmp/cmp2"
