#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests of run.sh's parts (tools/run/*.sh), sourced as run.sh sources
# them: option values, result folders, the suite grammar, reading the
# verdict dlb-analyze wrote, the farm outputs and the suite's exit code.
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 33
# shellcheck source=../tools/run/common.sh
. "$DLB_SRC/tools/run/common.sh"
# shellcheck source=../tools/run/env.sh
. "$DLB_SRC/tools/run/env.sh"
# shellcheck source=../tools/run/runone.sh
. "$DLB_SRC/tools/run/runone.sh"
# shellcheck source=../tools/run/suite.sh
. "$DLB_SRC/tools/run/suite.sh"
# shellcheck source=../tools/run/farm.sh
. "$DLB_SRC/tools/run/farm.sh"
# shellcheck source=../tools/run/validate.sh
. "$DLB_SRC/tools/run/validate.sh"
load_exit_codes
tmp=$(mktemp -d /tmp/dlb-run-lib.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# ---- env.sh: CONFIG_IRQ_TIME_ACCOUNTING of a kernel config, for env.txt ----
got=$(for c in 'CONFIG_IRQ_TIME_ACCOUNTING=y' '# CONFIG_IRQ_TIME_ACCOUNTING is not set' \
	'CONFIG_HAVE_IRQ_TIME_ACCOUNTING=y' ''; do printf '%s\n' "$c" | kconfig_irq_time; done | tr '\n' ' ')
expect_eq "kconfig_irq_time: y, not set, absent (an arch without it), no config" "$got" "y n n unknown "

# ---- env.sh: the kernel lock ----
# run.sh under `flock LOCK ./run.sh` (a farm serialising its jobs) took the
# lock again and waited for ever; a stranger's lock is waited for, said once
# shellcheck disable=SC2016
lock_try='. "$1/tools/run/common.sh"; . "$1/tools/run/env.sh"; kernel_lock && echo "ours $DLB_LOCKED"'
out=$(env -u DLB_LOCKED KERNEL_LOCK="$tmp/lock" timeout 10 flock "$tmp/lock" \
	bash -c "$lock_try" _ "$DLB_SRC" 2>&1); rc=$?
expect_eq "kernel_lock: held by an ancestor, it is ours" "$rc $out" "0 ours 1"
flock "$tmp/lock" sleep 5 &
stranger=$!
sleep 0.5
out=$(env -u DLB_LOCKED KERNEL_LOCK="$tmp/lock" timeout 2 bash -c "$lock_try" _ "$DLB_SRC" 2>&1); rc=$?
kill "$stranger" 2>/dev/null; wait "$stranger" 2>/dev/null
expect_eq "kernel_lock: held by another, waits and says so" "$rc $out" \
	"124 run.sh: waiting for $tmp/lock (another kernel run or test holds it)"

# ---- common.sh ----
err=$( (need_arg run -b) 2>&1 ); rc=$?
expect_eq "need_arg: a missing value is the usage error, exit 2" "$rc $err" \
	"2 run.sh: run: option '-b' needs a value (try --help)"
( need_arg run -b kernel ); expect_eq "need_arg: a value given" "$?" 0
got=
for d in 2s 500ms 1.5s 2 0s 0 x -1s 2h ""; do dur_ok "$d" && got="$got $d"; done
expect_eq "dur_ok: durations above 0 only" "$got" " 2s 500ms 1.5s 2"
got=
for l in 0 5 5% 100% 101% -1 - x -2 5%%; do limit_ok "$l" && got="$got $l"; done
expect_eq "limit_ok: N, N% (0..100), -1, -" "$got" " 0 5 5% 100% -1 -"
got=
for c in 1 2 1024 0 -1 1025 x 02; do cpus_ok "$c" && got="$got $c"; done
expect_eq "cpus_ok: 1..1024" "$got" " 1 2 1024"
expect_eq "dur_secs rounds up" "$(dur_secs 1500ms) $(dur_secs 2s) $(dur_secs 1m)" "2 2 60"
expect_eq "abs_path: against the working directory" "$(cd "$tmp" && abs_path a/b.json) $(abs_path /x)" \
	"$tmp/a/b.json /x"
d1=$(new_dir "$tmp/res/20261204-120000-run-x") d2=$(new_dir "$tmp/res/20261204-120000-run-x")
expect_eq "new_dir: the same second gives two folders" "$d1 $d2" \
	"$tmp/res/20261204-120000-run-x $tmp/res/20261204-120000-run-x.2"
check "new_dir: both exist" test -d "$d1" -a -d "$d2"
expect_eq "exit_text from exitcode.h" "$(exit_text 4)" \
	"incomplete data: lost events, truncated trace, interrupted run"

# ---- suite.sh: the grammar, checked before anything runs ----
cat > "$tmp/good.suite" <<'S'
# a comment
workloads/suites/edf-global-2cpu.json    both       2    1s       ok       0   5%     *   # trailing

workloads/suites/over-capacity.json      reference  2    500ms    refused  -   -      a,b
S
printf 'w.json kernel 1 1s ok - -1 * --teardown=immediate --x=1 # c\n' > "$tmp/opts.suite"
expect_eq "suite_lines: dlb-rtapp options kept (kernel backend)" "$(suite_lines "$tmp/opts.suite")" \
	"w.json kernel 1 1s ok - -1 * --teardown=immediate --x=1"
expect_eq "suite_lines: entries, comments dropped" "$(suite_lines "$tmp/good.suite")" \
"workloads/suites/edf-global-2cpu.json both 2 1s ok 0 5% *
workloads/suites/over-capacity.json reference 2 500ms refused - - a,b"
bad_suite() {	# bad_suite NAME LINE WANT: the one error naming FILE:2
	printf '# header\n%s\n' "$2" > "$tmp/bad.suite"
	err=$(suite_lines "$tmp/bad.suite" 2>&1 >/dev/null); rc=$?
	expect_eq "suite_lines: $1" "$rc $err" "1 run.sh: $tmp/bad.suite:2: $3"
}
bad_suite "7 columns" "w.json both 2 1s ok 0 5%" \
	"expected 8 columns: WORKLOAD BACKENDS CPUS DURATION EXPECT REF KERNEL WATCH [OPTIONS]"
bad_suite "a 9th column that is no option" "w.json both 2 1s ok 0 5% * extra" \
	"options 'extra' are not dlb-rtapp long options (e.g. --teardown=immediate)"
bad_suite "bad backends" "w.json all 2 1s ok 0 5% *" "backends 'all' is not both, kernel or reference"
bad_suite "bad cpus" "w.json both 0 1s ok 0 5% *" "cpus '0' is not a number in 1..1024"
bad_suite "bad duration" "w.json both 2 0s ok 0 5% *" \
	"duration '0s' is not a duration above 0 (e.g. 2s, 500ms)"
bad_suite "bad expect" "w.json both 2 1s maybe 0 5% *" "expect 'maybe' is not ok or refused"
bad_suite "bad limit" "w.json both 2 1s ok 0 5x *" "kernel limit '5x' is not N, N% or -"

# ---- runone.sh: the verdict is read, never made ----
mkdir -p "$tmp/run"
printf 'verdict=FAIL\ncode=1\nwhy=3 of 10 jobs missed (allowed: 0)\ncheck=misses fail x\n' > "$tmp/run/verdict.txt"
read_verdict "$tmp/run" 1
expect_eq "read_verdict: dlb-analyze's verdict" "$VERDICT|$VCODE|$WHY" "FAIL|1|3 of 10 jobs missed (allowed: 0)"
rm "$tmp/run/verdict.txt"; echo "dlb-analyze: boom" > "$tmp/run/analyze.log"
read_verdict "$tmp/run" 2
expect_eq "read_verdict: no verdict written: an error, not a made-up pass" "$VERDICT|$VCODE|$WHY" \
	"ERROR|2|analysis failed (exit 2): dlb-analyze: boom"
INTERRUPTED=1; read_verdict "$tmp/run" 130; INTERRUPTED=0
expect_eq "read_verdict: interrupted" "$VERDICT|$VCODE" "INCOMPLETE|4"

# ---- farm.sh and the suite's exit code, from summary.tsv ----
mkdir -p "$tmp/s"
{
	printf 'workload\tbackend\tverdict\tcode\tseconds\twhy\n'
	printf 'a\treference\tPASS\t0\t1\t0 of 5 jobs missed\n'
	printf 'b\treference\tERROR\t3\t2\trefused by admission control: <EBUSY> & more\n'
	printf 'c\tkernel\tSKIP\t0\t0\ttime budget of 2s spent\n'
} > "$tmp/s/summary.tsv"
expect_eq "tap: one line per run" "$(tap "$tmp/s" | tr '\n' '|')" \
	"TAP version 13|1..3|ok 1 - reference/a # 0 of 5 jobs missed|not ok 2 - reference/b # ERROR: refused by admission control: <EBUSY> & more|ok 3 - kernel/c # SKIP time budget of 2s spent|"
junit "$tmp/s" "$tmp/s/junit.xml" smoke
check "junit: counts" grep -q '<testsuites name="dlbench" tests="3" failures="0" errors="1" skipped="1" time="3">' "$tmp/s/junit.xml"
check "junit: the reason escaped" grep -q 'message="refused by admission control: &lt;EBUSY&gt; &amp; more" type="ERROR">exit code 3<' "$tmp/s/junit.xml"
summary "$tmp/s" > "$tmp/s/out"; rc=$?
expect_eq "summary: an error's code when nothing failed" "$rc" 3
printf 'd\tkernel\tFAIL\t1\t1\t2 of 5 jobs missed\n' >> "$tmp/s/summary.tsv"
summary "$tmp/s" > "$tmp/s/out"; rc=$?
expect_eq "summary: a failure outranks an error" "$rc" 1
check "summary: the last line counts the runs" grep -q "^4 runs: 1 pass, 1 fail, 2 other; results in $tmp/s; exit 1 (regression" "$tmp/s/out"

# ---- validate.sh: one folder per suite entry, whatever the workloads' names ----
# (a/x.json and b/x.json, or one file twice on other CPUs, once shared x/)
mkdir -p "$tmp/val"
printf 'A=/k/a\nB=/k/b\n' > "$tmp/val/kernels.txt"
printf '%s\n' "a/x.json 2 1s ok - -1 *" "b/x.json 2 1s ok - -1 *" "a/x.json 4 1s ok - -1 *" \
	"x-2.json 2 1s ok - -1 *" "y.json 2 1s ok - -1 *" > "$tmp/val/entries.txt"
# shellcheck disable=SC2317,SC2329 # called by validate_runs
one_run() { mkdir -p "$3" && echo "$1 $4" >> "$3/ran"; VERDICT=PASS WHY=; }
INTERRUPTED=0 QUIET=1
validate_runs "$tmp/val" 1 "" "" > /dev/null
expect_eq "validate_runs: a folder per entry and side, each run once" \
	"$(cd "$tmp/val" && for f in A/*/1/ran B/*/1/ran; do echo "$f: $(sed "s|$DLB_SRC/||" "$f" | tr '\n' ' ')"; done)" \
"A/x-2-4/1/ran: x-2.json 2 
A/x-2/1/ran: b/x.json 2 
A/x-3/1/ran: a/x.json 4 
A/x/1/ran: a/x.json 2 
A/y/1/ran: y.json 2 
B/x-2-4/1/ran: x-2.json 2 
B/x-2/1/ran: b/x.json 2 
B/x-3/1/ran: a/x.json 4 
B/x/1/ran: a/x.json 2 
B/y/1/ran: y.json 2 "
expect_eq "validate_names: the names, in entry order" "$(validate_names "$tmp/val/entries.txt" | tr '\n' ' ')" "x x-2 x-3 x-2-4 y "
