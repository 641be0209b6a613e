#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest runs under qemu, booted for real: one arm64 and one x86-64 Debian
# kernel (tools/kernels.sh), 4 CPUs, a short workload each, analyzed like a
# host run; then the failures a guest can have (no tracefs, no schedstat or
# sched debug, a panic, a hang, a results disk too small): exit code, one
# line, no qemu left, no summary.json in a failed run's folder.
# Skips (counted, with the reason) without qemu, the fetched kernels or the
# arm64 cross toolchain, and under sanitizer builds (the guest's binaries are
# built without sanitizers: the plain make check runs this).
. "$(dirname "$0")/../../tests/lib.sh"
plan 60
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/dlb-guest-boot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# qemu processes of this test: their command line names its folder
no_qemu_left() { ! pgrep -f "qemu-system-.*$tmp/" >/dev/null; }

# conform_why DIR: what a failed conformance check needs to be understood, as
# diagnostics (the folder goes with the test's): the replay's counts and
# notes, the jobs trace's head, its tasks' jobs in the run and the replay
conform_why() {
	local J=$DLB_BUILD/tests/tools/json-get
	echo "#   replay: $("$J" "$1/report.json" conformance.run.unmatched_kernel_jobs \
		conformance.run.unmatched_oracle_jobs conformance.affinity conformance.cpus 2>&1 |
		tr '\n' ' ')(unmatched kernel, oracle; affinity; cpus)"
	"$J" "$1/report.json" conformance.notes 2>&1 | sed 's/^/#   note: /'
	head -n 12 "$1/jobs-trace.txt" 2>/dev/null | sed 's/^/#   jobs-trace: /'
	grep -c . "$1/oracle-jobs.csv" 2>/dev/null | sed 's/^/#   oracle-jobs.csv lines: /'
	grep '^# conformance' "$1/report.txt" 2>/dev/null | sed 's/^/#   /'
}

# good NAME IMAGE WORKLOAD WANT_ARCH MIN_JOBS: a run, its folder, its analysis
good() {
	local name=$1 img=$2 wl=$3 arch=$4 min=$5 d=$tmp/$1 rc arc missing='' jobs k t0=$SECONDS
	"$RG" -q -k "$img" -c 4 -d 1s -o "$d" "$DLB_SRC/workloads/suites/$wl" > "$tmp/$name.out" 2>&1
	rc=$?
	echo "# $name: $((SECONDS - t0)) s, $(sed -n 's/^wall_s=/qemu wall /p' "$d/guest.txt" 2>/dev/null) s"
	check "$name: run exit 0 (got $rc)" test "$rc" -eq 0
	for f in summary.json workload.json run.log record.txt trace.txt guest.txt console.log \
		 sched-debug-before.txt sched-debug-after.txt schedstat-before.txt schedstat-after.txt; do
		[ -s "$d/$f" ] || missing+=" $f"
	done
	expect_eq "$name: run folder complete (missing:$missing)" "$missing" ""
	expect_eq "$name: guest arch" "$(sed -n 's/^arch=//p' "$d/guest.txt")" "$arch"
	expect_eq "$name: guest CPUs" "$(sed -n 's/^cpus_online=//p' "$d/guest.txt")" 4
	expect_eq "$name: DL accounting the same after the run" \
		"$(sed -n 's/^dl_total_bw_after=//p' "$d/guest.txt")" \
		"$(sed -n 's/^dl_total_bw_before=//p' "$d/guest.txt" | grep . || echo absent)"
	expect_eq "$name: image sha256" "$(sed -n 's/^image_sha256=//p' "$d/guest.txt")" \
		"$(sha256sum < "$img" | cut -d' ' -f1)"
	"$BIN/dlb-analyze" -q --kernel "$(sed -n 's/^kernel=//p' "$d/guest.txt")" --arch "$arch" "$d" \
		> "$tmp/$name.ana" 2>&1
	arc=$?
	# misses are the emulator's (vCPUs share 2 host cores), not a failure here
	check "$name: dlb-analyze exit 0 or 1 (got $arc)" test "$arc" -le 1
	check "$name: data complete" grep -qx '# data quality: complete' "$d/report.txt"
	# the snapshots in the report: per CPU, no DL task left, schedule() counted (sched_schedstats=1)
	k=$(tr -d '\n' < "$d/report.json" | tr -s ' ' | grep -o '"kernel_stats": {[^]]*]')
	expect_eq "$name: kernel_stats: both pairs read; per CPU of 4: none left, schedules counted" \
		"$(echo "$k" | grep -c '"sched_debug": true, "schedstat": true') $(echo "$k" | grep -o '"dl_nr_running_after": 0,' | wc -l) $(echo "$k" | grep -o '"sched_count": [1-9]' | wc -l)" \
		"1 4 4"
	# the conformance replay of a guest run: the guest kernel's model, most jobs
	# compared, the kernel's own misses explained (overrun) but for one in ten
	local J=$DLB_BUILD/tests/tools/json-get cj cu model
	model=$(sed -n 's/^kernel=\([0-9]*\.[0-9]*\).*/mainline:\1/p' "$d/guest.txt")
	expect_eq "$name: conformance done under the guest kernel's model" \
		"$("$J" "$d/report.json" conformance.status conformance.model 2>&1 | tr '\n' ' ')" \
		"done $model "
	# why not, when it was not (the replay's reason, and the jobs trace's head)
	[ "$("$J" "$d/report.json" conformance.status 2>/dev/null)" = "done" ] || {
		echo "# $name: conformance not done: $("$J" "$d/report.json" conformance.why 2>&1)"
		head -n 12 "$d/jobs-trace.txt" 2>/dev/null | sed 's/^/#   /'
	}
	read -r cj cu < <("$J" "$d/report.json" conformance.run.jobs \
		conformance.run.kernel_only_misses.unexplained 2>/dev/null | tr '\n' ' ')
	jobs=$(sed -n 's/^# duration .* \([0-9]*\) jobs.*/\1/p' "$d/report.txt")
	k="$name: conformance: >= 80 % of $jobs jobs compared ($cj), unexplained kernel-only misses <= 10 % (${cu:-?})"
	if [ "${cj:-0}" -ge $((${jobs:-1} * 4 / 5)) ] && [ $((${cu:-99} * 10)) -le "${cj:-0}" ]; then
		pass "$k"
	else
		fail "$k"
		conform_why "$d"
	fi
	# structure, not timing (the vCPUs share 2 busy host cores: a 1 s run
	# released 125 to 370 jobs here): the trace holds every job the generator
	# began, and every thread ran at least MIN of them
	expect_eq "$name: jobs in the trace = jobs begun (summary.json)" "${jobs:-none}" \
		"$(sed -n 's/.*"jobs": \([0-9]*\).*/\1/p' "$d/summary.json" | awk '{ s += $1 } END { print s }')"
	# shellcheck disable=SC2016 # an awk program
	check "$name: every thread ran at least $min jobs" \
		awk -v m="$min" '/"jobs": / { gsub(/[^0-9]/, "", $2); if ($2 + 0 < m) bad = 1; n++ }
			END { exit bad || !n }' "$d/summary.json"
}
good arm64-edf "$ARM" edf-global-2cpu.json aarch64 10
good x86-cbs "$X86" cbs-isolation.json x86_64 3
# CBS isolation in structure: the hog needs 6 ms every 10 ms and is given 2, so it
# completes fewer jobs than each victim (about a third as many)
jobs_of() { awk -v t="$1" '/"name": / { n = $2; gsub(/[",]/, "", n) }
	/"jobs": / && n == t { gsub(/[^0-9]/, "", $2); print $2; exit }' "$tmp/x86-cbs/summary.json"; }
h=$(jobs_of hog) v=$(jobs_of victim)
check "x86-cbs: the throttled hog ran fewer jobs than a victim (hog ${h:-?}, victim ${v:-?})" \
	test "${h:-0}" -lt "${v:-0}"

# broken NAME WANT_RC TEXT ARGS...: a failed guest run (arm64, the fastest to boot)
broken() {
	local name=$1 want=$2 text=$3 d=$tmp/$1 rc t0=$SECONDS
	shift 3
	"$RG" -q -k "$ARM" -c 2 -d 300ms -o "$d" "$@" "$DLB_SRC/workloads/suites/edf-global-2cpu.json" \
		> "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
	echo "# $name: $((SECONDS - t0)) s"
	if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/$name.err"; then
		pass "$name: exit $want, says '$text'"
	else
		fail "$name: exit $want, says '$text'" "got exit $rc:" "$(cat "$tmp/$name.err")"
	fi
	check "$name: no summary.json, guest-failed.txt says why" \
		test ! -e "$d/summary.json" -a -s "$d/guest-failed.txt"
	check "$name: no qemu left" no_qemu_left
}
broken no-tracefs 3 "has no tracefs" --append dlb_hide=tracefs
check "no-tracefs: detected in the guest" grep -q 'tracefs no' "$tmp/no-tracefs/console.log"
broken panic 4 "guest kernel panicked" --append dlb_test=exit
check "panic: in the run, after /init started: not booted again" \
	test ! -e "$tmp/panic/console-boot-panic-1.log"
# no init at all: the kernel panics before /init; booted again once (--boot-retries 1)
broken boot-panic 4 "panicked at boot, before /init" --append rdinit=/dlb-none --boot-retries 1
check "boot-panic: booted again once, the first panic kept" \
	test -s "$tmp/boot-panic/console-boot-panic-1.log" -a ! -e "$tmp/boot-panic/console-boot-panic-2.log"
check "boot-panic: said both boots panicked" grep -q "guest kernel panicked after" "$tmp/boot-panic.err"
# the emulator's stale int3 after /init started: booted again as well
broken int3 4 "panicked on an int3 the emulator ran" --append dlb_test=int3 --boot-retries 1
check "int3: booted again once, the first panic kept" \
	test -s "$tmp/int3/console-boot-panic-1.log" -a ! -e "$tmp/int3/console-boot-panic-2.log"
broken hang 4 "did not power off within 20s" --append dlb_test=hang --timeout 20
broken disk-full 4 "did not fit the results disk" --append dlb_test=fill --disk-mb 2

# SIGTERM while the guest runs: qemu stopped, the folder says interrupted
d=$tmp/term
"$RG" -q -k "$ARM" -c 2 -d 5s -o "$d" "$DLB_SRC/workloads/suites/edf-global-2cpu.json" \
	> /dev/null 2> "$tmp/term.err" &
pid=$!
sleep 3
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 4, says interrupted (got $rc)" test "$rc" -eq 4 -a -n "$(grep interrupted "$tmp/term.err")"
check "SIGTERM: no qemu left" no_qemu_left
check "SIGTERM: no summary.json" test ! -e "$d/summary.json" -a -s "$d/guest-failed.txt"

# without schedstats and sched debug the run goes on, and says what is missing
d=$tmp/no-stats
"$RG" -q -k "$ARM" -c 2 -d 300ms -o "$d" --append dlb_hide=schedstat,debugfs \
	"$DLB_SRC/workloads/suites/edf-global-2cpu.json" > /dev/null 2> "$tmp/no-stats.err"
rc=$?
check "no schedstat/sched debug: run exit 0 (got $rc)" test "$rc" -eq 0
check "no schedstat/sched debug: said so" grep -q 'lacks: sched_debug schedstat' "$tmp/no-stats.err"
check "no schedstat/sched debug: guest.txt records it" \
	grep -qx 'schedstat=no' "$d/guest.txt"

# through run.sh: the same run folder, analyzed, judged, the guest's kernel in the report
d=$tmp/run-sh
"$DLB_SRC/run.sh" run "$DLB_SRC/workloads/suites/edf-global-2cpu.json" --backend qemu --kernel "$ARM" \
	-m 2 -d 300ms -M 100% -o "$d" > "$tmp/run-sh.out" 2>&1
rc=$?
check "run.sh --backend qemu: exit 0 with every miss allowed (got $rc)" test "$rc" -eq 0
check "run.sh --backend qemu: verdict PASS" grep -qx 'verdict=PASS' "$d/verdict.txt"
expect_eq "run.sh --backend qemu: report.json names the guest's kernel" \
	"$(grep -o '"kernel": "[^"]*"' "$d/report.json" | head -1)" \
	"\"kernel\": \"$(sed -n 's/^kernel=//p' "$d/guest.txt")\""
check "run.sh --backend qemu: env.txt has the guest's facts" grep -q '^guest_image_sha256=' "$d/env.txt"
