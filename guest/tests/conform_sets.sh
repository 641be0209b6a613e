#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check the checker on guest kernels (docs/conformance.md, "Check the
# checker"): the sets whose outcome the algorithm predicts, run under qemu
# on 2 vCPUs on the x86-64 Debian 6.12 and the arm64 Debian 6.1 kernels,
# with the host test's assertions (tests/lib-conform-sets.sh):
#  - the GFB set (edf-global-2cpu: U = 1.43 <= 2 - 0.55): the replay meets
#    the deadlines, the kernel's own misses are explained;
#  - Dhall's set at M = 2: the heavy jobs that the run's own arrivals and
#    demands predict to miss miss on both sides;
#  - CBS isolation (cbs-isolation): the hog's jobs over budget miss on both
#    sides, the victims keep their deadlines;
# and the guest's DL accounting is the same after each run as before.
#
# Emulation (TCG) on 2 host cores shared with other work: the host takes a
# vCPU away for 5 to 140 ms now and then (at load 5-8), and the guest's
# clock runs on meanwhile, so whatever ran there is charged for it, a timer
# or an IPI comes that much later, and a tick can be lost (a hog job ran
# 7.4 ms on 2 ms of budget with no timer interrupt on its vCPU: met on the
# kernel, missed in the replay, which ticks every 4 ms).  So:
#  - the work is CPU time ("runtime", docs/rt-app.md), not calibrated loops
#    (whose jobs took 0.3 to 7 times the time asked: the hog's 6 ms as
#    little as 2.4 ms, within its budget and a tick, so that a replay met
#    11 of 41 hog jobs and failed "misses every job" on main); the GFB
#    set's and the victims' work is a quarter of the host's (the
#    reservations stay: what the scheduler admits and the prediction is
#    about), the hog's 8 ms against 2;
#  - Dhall's set with wide margins and its tasks kept in phase: lights of
#    10 ms in 19 ms (deadline 20), a heavy job of 24 ms in 29 ms (deadline
#    30: a light that wakes up to 10 ms after it still has the earlier
#    deadline), every 80 ms: alone it ends at 24 ms, after both lights at
#    34 ms; absolute timers (with rt-app's relative ones the lights drifted
#    apart after the first late wake-up and never ran together again: every
#    Dhall check of the first version was skipped), the first release
#    200 ms after the start (thread setup delayed it by up to 60 ms);
#  - each assertion is about the jobs its prediction is about, on the run's
#    own demands and wake-ups (per_job, dhall_predict): the hog's jobs that
#    consumed their budget and a tick more; the victims' and the GFB set's
#    jobs within budget that woke within 1 ms of their release with their
#    task's previous job done on both sides; Dhall's releases with every
#    job within budget and both lights' previous jobs done.  A set with
#    fewer such jobs than it needs is a counted skip with the figures (the
#    host too busy for the set to run as designed), not a pass.
# Tolerances, from 14 to 15 runs of each set on each kernel at load 4.6-8.1
# (docs/conformance.md gives the figures): "meets": the replay misses at
# most 10 % and unexplained kernel-only misses are at most 20 % (seen: 5.4 %
# and 12 % at most); the hog: the kernel misses >= 75 %, the replay >= 90 %
# (seen: 91.7 % and 100 % at least); Dhall's heavy: >= 20 % on each side of
# >= 5 predicted (seen: the kernel 64 % and the replay 66 % at least but
# once 28 %: the prediction is a first order without budgets, and a
# pause-charged job leaves a budget that changes which light runs first;
# three tasks woken at once on two vCPUs also let the kernel put a light
# behind the other while the heavy ran): Dhall's effect present on both
# sides, not its count.  Dhall's lights are not asserted here (the host
# test does): of their jobs within budget that woke within 1 ms, behind no
# earlier job of theirs, the replay missed 5 % to 100 % in a run (median
# 25 %) and the kernel up to 70 % unexplained (in 26 runs with >= 8 such
# jobs): the heavy or the other light, late or over budget from a pause,
# holds the CPUs then; only the heavy's side of the prediction is robust.
. "$(dirname "$0")/../../tests/lib.sh"
plan 20
. "$(dirname "$0")/lib.sh"
J=$DLB_BUILD/tests/tools/json-get
S=$DLB_BUILD/tests/tools/json-status
{ [ -x "$J" ] && [ -x "$S" ]; } || { skip_rest "tests/tools/json-get, json-status not built yet"; exit 0; }
. "$DLB_SRC/tests/lib-conform-sets.sh"
tmp=$(mktemp -d /tmp/dlb-guest-conform.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
RUN=$DLB_SRC/run.sh

conform_scale_work "$DLB_SRC/workloads/suites/edf-global-2cpu.json" "$tmp/gfb.json" 0.25 "" runtime
conform_dhall_wl "$tmp/dhall.json" lrun=10000 lbudget=19000 hrun=24000 hbudget=29000 hdl=30000 \
	period=80000 event=runtime mode=absolute delay=200000
conform_scale_work "$DLB_SRC/workloads/suites/cbs-isolation.json" "$tmp/cbs1.json" 0.25 victim runtime
conform_scale_work "$tmp/cbs1.json" "$tmp/cbs.json" 1.33334 hog runtime

# guest_run NAME IMAGE WORKLOAD DURATION: a 2-vCPU run analyzed; checks that it
# completed with conformance done under the guest kernel's model.  An
# incomplete run (exit 4: a guest that hung or panicked after /init, once
# in a make check here: 67 s, no power-off) is the emulator's, not what
# this test is about (guest/tests/boot.sh tests those): run once more, said
guest_run() {
	local d=$tmp/$1 rc t0=$SECONDS model
	"$RUN" run "$3" -b qemu -k "$2" -m 2 -d "$4" -M 100% -o "$d" >"$tmp/$1.out" 2>&1
	rc=$?
	if [ "$rc" -eq 4 ]; then
		echo "# $1: incomplete run (exit 4), run again: $(grep -v '^#' "$tmp/$1.out" | tail -n 2 | tr '\n' ' ')"
		rm -rf "$d"
		"$RUN" run "$3" -b qemu -k "$2" -m 2 -d "$4" -M 100% -o "$d" >"$tmp/$1.out" 2>&1
		rc=$?
	fi
	[ "$rc" -eq 0 ] || grep -v '^#' "$tmp/$1.out" | tail -n 3 | sed 's/^/# /'
	echo "# $1: $((SECONDS - t0)) s, $(sed -n 's/^wall_s=/qemu wall /p' "$d/guest.txt" 2>/dev/null) s, load $(cut -d' ' -f1 /proc/loadavg)"
	grep '^# conformance (' "$d/report.txt" 2>/dev/null | sed 's/^/# /'
	model=$(sed -n 's/^kernel=\([0-9]*\.[0-9]*\).*/mainline:\1/p' "$d/guest.txt" 2>/dev/null)
	expect_eq "$1: the run completes (exit $rc), conformance done under the guest kernel's model" \
		"$rc $("$J" "$d/report.json" conformance.status conformance.model 2>&1 | tr '\n' ' ')" \
		"0 done ${model:-?} "
}

# guest_bw NAME: the guest's DL accounting: total_bw the same after the run as
# before it, and the run's own dl_accounting check ok
guest_bw() {
	local g=$tmp/$1/guest.txt b a st
	b=$(sed -n 's/^dl_total_bw_before=//p' "$g" 2>/dev/null)
	a=$(sed -n 's/^dl_total_bw_after=//p' "$g" 2>/dev/null)
	st=$("$S" "$tmp/$1/summary.json" dl_accounting 2>&1)
	check "$1: DL accounting unchanged in the guest (total_bw before ${b:-?}, after ${a:-?}; dl_accounting $st)" \
		test -n "$b" -a "$b" = "$a" -a "$st" = ok
}

# guest_meets NAME WHAT PREFIX MIN: meets_ontime on the tasks PREFIX (the
# replay misses <= 10 %, unexplained kernel-only misses <= 20 %)
guest_meets() {
	meets_ontime "$1: $2" "$tmp/$1" "$3" "$4" 10 20 "the emulator's host was too busy"
}

for a in x86 arm64; do
	if [ $a = x86 ]; then img=$X86; else img=$ARM; fi
	guest_run $a-gfb "$img" "$tmp/gfb.json" 1s
	guest_meets $a-gfb "GFB set: every task" "" 40
	guest_bw $a-gfb

	guest_run $a-dhall "$img" "$tmp/dhall.json" 2s
	# the heavy side of Dhall's prediction, where the run went as designed;
	# the lights' side is not asserted here (see the head of this file)
	dhall_heavy "$a-dhall: Dhall set" "$tmp/$a-dhall" 5 20
	guest_bw $a-dhall

	guest_run $a-cbs "$img" "$tmp/cbs.json" 1s
	read -r n _ < <(per_job "$tmp/$a-cbs" hog over)
	if [ "${n:-0}" -ge 5 ]; then
		misses_all "$a-cbs: CBS isolation: hog (jobs over budget + tick)" "$(per_job "$tmp/$a-cbs" hog over)" 5 75 90
	else
		skip "$a-cbs: CBS isolation: hog: misses every job" \
			"only ${n:-?} hog jobs consumed their budget and a tick more, fewer than 5"
	fi
	guest_meets $a-cbs "CBS isolation: victims" victim 20
	guest_bw $a-cbs
done
