#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-phase cpus (rt-app's tutorial example8) on both backends: the thread
# runs each phase's jobs on that phase's CPUs.  Job k of data/phase_cpus.json
# runs phase k % 3: "a" on CPU 0, "b" on CPU 1, "c" anywhere.  The CPU of a
# job is the CPU of its begin marker, which the thread writes itself once
# its affinity is set.  Reference: exact.  Kernel (root, tracefs, 2 CPUs, the
# kernel lock): the affinity is a hard rule, so exact there too.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 6
RTAPP=$BIN/dlb-rtapp
WL=$DLB_SRC/rt-app/tests/data/phase_cpus.json
TMP=$(mktemp -d /tmp/dlb-phase-cpus.XXXXXX)
INST=	# the private tracefs instance of the kernel run, once made
trap 'rm -rf "$TMP"; [ -z "$INST" ] || rmdir "$INST"' EXIT

# cpus_of TRACE: "JOB:CPU" of every begin marker, one line
cpus_of() {
	sed -n 's/.*\[0*\([0-9][0-9]*\)\].*dlb_job: tid=[0-9]* job=\([0-9]*\) event=begin.*/\2:\1/p' "$1" |
		tr '\n' ' '
}
# bad_jobs "JOB:CPU ...": the jobs of phase a not on CPU 0, of phase b not on CPU 1
bad_jobs() {
	local jc bad=''
	for jc in $1; do
		case $((${jc%%:*} % 3)):${jc#*:} in
		0:0|1:1|2:*) ;;
		*) bad="$bad $jc" ;;
		esac
	done
	echo "$bad"
}

# ---- reference: 3 simulated CPUs, so phase c may run on CPU 2 ----
"$BIN/dlb-rtapp" -q -b reference -m 3 -o "$TMP/ref" "$WL" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
got=$(cpus_of "$TMP/ref/trace.txt")
expect_eq "reference: 30 jobs" "$(wc -w <<<"$got" | tr -d ' ')" 30
expect_eq "reference: phase a on CPU 0, phase b on CPU 1 (bad:$(bad_jobs "$got"))" \
	"$(bad_jobs "$got")" ""

# ---- kernel ----
need_two_cpus() {
	[ "$(nproc)" -ge 2 ] && return 0
	DLB_SKIP_REASON="needs 2 CPUs (nproc is $(nproc))"; return 1
}
require need_root need_tracefs need_two_cpus
exec 9>/tmp/dlbench-kernel.lock
flock 9
INST=$(tracefs_dir)/instances/dlb-phase-cpus-$$
mkdir "$INST"
"$RTAPP" -q -t "$INST/trace_marker" -o "$TMP/k" "$WL" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
cat "$INST/trace" >"$TMP/k.trace"
got=$(cpus_of "$TMP/k.trace")
expect_eq "kernel: 30 jobs" "$(wc -w <<<"$got" | tr -d ' ')" 30
expect_eq "kernel: phase a on CPU 0, phase b on CPU 1 (bad:$(bad_jobs "$got"))" \
	"$(bad_jobs "$got")" ""
