#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/run.sh SECONDS FUZZ_BUILD [CORPUS...]
#
# Runs each harness on its committed corpus (tests/fuzz/corpus/<corpus>/)
# for SECONDS, one at a time, at nice 19.  New inputs go to
# FUZZ_BUILD/corpus/<corpus>/ (not committed), crashes to
# FUZZ_BUILD/artifacts/.  Exit 1 if any harness found a crash, leak,
# timeout or sanitizer report; the last line says which.
#
# FUZZ_SEED: libFuzzer's -seed.  `make fuzz-smoke` (CI) fixes it, so that a
# CI failure replays with the same binary and corpus; `make fuzz` leaves it
# unset (a new random seed each run, printed in the log's "Seed:" line).
set -u
cd "$(dirname "$0")/../.." || exit 1
secs=$1 build=$2
shift 2
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(workload marker schedstat trace_text trace_dat)

# Harness binary of a corpus: trace_text and trace_dat share the trace one.
harness_of() {
	case $1 in
	trace_*) echo trace ;;
	*) echo "$1" ;;
	esac
}

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
failed=()
for c in "${corpora[@]}"; do
	bin=$build/fuzz/$(harness_of "$c")
	work=$build/corpus/$c
	log=$build/fuzz-$c.log
	regress=()
	[ -d "tests/fuzz/regress/$c" ] && regress=("tests/fuzz/regress/$c")
	mkdir -p "$work" "$build/artifacts"
	# libtracecmd believes a corrupt header's sizes and asks calloc() for
	# tens of GB (regress/trace_dat/oom-chunks-info.dat); glibc returns NULL
	# there and the library fails the open, so let ASan do the same.
	asan=$ASAN_OPTIONS
	limits=(-timeout=30)
	case $c in
	trace_dat) asan=$asan:allocator_may_return_null=1
		# regress/trace_dat/crash-buffer-instance.dat: libtracecmd callocs
		# ~19 GB in the reader's probe child before it crashes there; that
		# is the library's (the child dies, the reader reports it), not a
		# finding: no malloc limit, and time for the child under ASan.
		limits=(-timeout=90 -malloc_limit_mb=65536) ;;
	esac
	# -timeout=30: at nice 19 on a loaded machine ASan's allocator once
	# took 12 s returning memory to the OS inside one free() (regress/
	# schedstat/timeout-asan-madvise.txt, 0.5 s when replayed); a parser
	# loop still trips it.
	[ -z "${FUZZ_SEED:-}" ] || limits+=(-seed="$FUZZ_SEED")
	printf '%-12s %4ss ... ' "$c" "$secs"
	if ASAN_OPTIONS=$asan nice -n 19 "$bin" -max_total_time="$secs" "${limits[@]}" -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$c-" "$work" "tests/fuzz/corpus/$c" "${regress[@]}" >"$log" 2>&1; then
		grep -E '^stat::number_of_executed_units' "$log" | sed 's/.*: */runs /' | tr -d '\n'
		echo " ok"
	else
		echo "FAILED (see $log, $(grep -m1 -o 'Seed: [0-9]*' "$log"))"
		# What ended the run: its last reports.  Earlier ones may come
		# from the reader's probe children, which die of them by design.
		grep -E 'ERROR|SUMMARY|Test unit written|deadly signal|^ +#[0-9]+ 0x' "$log" |
			grep -v 'slow-unit' | tail -12 | sed 's/^/    /'
		failed+=("$c")
	fi
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz: failed: ${failed[*]}"
	exit 1
fi
echo "fuzz: ${#corpora[@]} corpora clean"
