# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# ./run.sh validate: a suite on two kernel images under qemu (guest/run-guest.sh),
# each workload repeated R times on each, then dlb-analyze compare of the two
# folders of repeats (medians, thresholds, a rank test: docs/analyzer.md), one
# table per workload, summary.tsv, JUnit and TAP.  Nothing here judges: the
# runs' verdicts are dlb-analyze's, the comparison's is dlb-analyze compare's.
# Sourced by run.sh (common.sh, runone.sh, suite.sh, farm.sh first).
# Globals set here are read by run.sh and the other parts:
# shellcheck disable=SC2034

# validate_entries SUITE...: the entries that run on a kernel (backends both or kernel)
validate_entries() {
	local s lines wl bes rest
	for s in "$@"; do
		lines=$(suite_lines "$s") || return 1
		while read -r wl bes rest; do
			[ -n "$wl" ] || continue
			case $bes in both|kernel) echo "$wl $rest" ;; esac
		done <<< "$lines"
	done
}

# validate_names ENTRIES: each entry's folder name, one a line in entry order: the
# workload's base name, and for an entry whose name an earlier one took (a/x.json
# and b/x.json, or one file on other CPUs) that name and its entry number (x-2)
validate_names() {
	local wl rest name n=0
	local -A used=()
	while read -r wl rest; do
		n=$((n + 1))
		name=$(basename "$wl" .json)
		while [ -n "${used[$name]:-}" ]; do name=$name-$n; done
		used[$name]=1
		echo "$name"
	done < "$1"
}

# validate_runs OUT R CPUS DURATION: every entry of OUT/entries.txt, R times on A and on
# B in turn (A1 B1 A2 B2 ...: a drift of the host's load falls on both sides alike)
validate_runs() {
	local out=$1 reps=$2 ncpu=$3 ndur=$4 wl cpus dur expect rmax kmax watch opts name k side
	local n=0 total t0=$SECONDS
	total=$(($(wc -l < "$out/entries.txt") * reps * 2))
	# shellcheck disable=SC2094 # entries.txt is only read, by both
	while read -r wl cpus dur expect rmax kmax watch opts <&3 && read -r name <&4; do
		[ -n "$ncpu" ] && cpus=$ncpu
		[ -n "$ndur" ] && dur=$ndur
		case $wl in /*) ;; *) wl=$DLB_SRC/$wl ;; esac
		for k in $(seq 1 "$reps"); do
			for side in A B; do
				n=$((n + 1))
				[ "$INTERRUPTED" -eq 1 ] && return "$EXIT_INCOMPLETE"
				QEMU_KERNEL=$(sed -n "s/^$side=//p" "$out/kernels.txt")
				log "[$n/$total] $side $name run $k/$reps ($cpus CPUs, $dur; elapsed $(fmt_secs $((SECONDS - t0))))"
				one_run "$wl" qemu "$out/$side/$name/$k" "$cpus" "$dur" "$expect" "$kmax" \
					"$watch" "" "" "$opts"
				log "    $VERDICT: $WHY"
			done
		done
	done 3< "$out/entries.txt" 4< <(validate_names "$out/entries.txt")
}

# validate_compare OUT: each workload's repeats on A against B's (dlb-analyze compare,
# with the thresholds of OUT/thresholds.txt): OUT/compare/NAME.txt, summary.tsv, the
# tables on stdout; returns the worst code as suite.sh's summary does
validate_compare() {
	local out=$1 ana name rc v why t0
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	mkdir -p "$out/compare" || die "$EXIT_ENV" "cannot create $out/compare"
	printf 'workload\tbackend\tverdict\tcode\tseconds\twhy\n' > "$out/summary.tsv"
	for name in $(validate_names "$out/entries.txt"); do
		t0=$SECONDS
		"$ana" compare -T "$out/thresholds.txt" "$out/A/$name" "$out/B/$name" \
			> "$out/compare/$name.txt" 2> "$out/compare/$name.err"
		rc=$?
		case $rc in
		0) v=PASS ;; "$EXIT_REGRESSION") v=FAIL ;; "$EXIT_INCOMPLETE") v=INCOMPLETE ;; *) v=ERROR ;;
		esac
		why=$(sed -n 's/^compare: //p' "$out/compare/$name.txt" | tail -1)
		[ -n "$why" ] || why=$(head -1 "$out/compare/$name.err")
		printf '%s\tvalidate\t%s\t%s\t%s\t%s\n' "$name" "$v" "$rc" $((SECONDS - t0)) "$why" >> "$out/summary.tsv"
		log ""
		log "== $name: A $(sed -n 's/^A=//p' "$out/kernels.txt") vs B $(sed -n 's/^B=//p' "$out/kernels.txt")"
		[ "${QUIET:-0}" -eq 1 ] || cat "$out/compare/$name.txt" "$out/compare/$name.err"
	done
	summary "$out"
}

# validate_setup OUT A B SUITE...: the folder: kernels.txt (the images, their sha256),
# the suites and their entries, the thresholds (default.thresholds' qemu lines)
validate_setup() {
	local out=$1 a=$2 b=$3 s; shift 3
	mkdir -p "$out" || die "$EXIT_ENV" "validate: cannot create $out"
	{
		echo "A=$a"; echo "B=$b"
		echo "A_sha256=$(sha256sum < "$a" | cut -d' ' -f1)"
		echo "B_sha256=$(sha256sum < "$b" | cut -d' ' -f1)"
	} > "$out/kernels.txt"
	: > "$out/suite.txt"
	for s in "$@"; do cat "$s" >> "$out/suite.txt"; done
	validate_entries "$@" > "$out/entries.txt" || die "$EXIT_BAD_INPUT" "validate: a suite is not run"
	[ -s "$out/entries.txt" ] || die "$EXIT_BAD_INPUT" "validate: no entry of the suites runs on a kernel"
	cp "$DLB_SRC/workloads/suites/default.thresholds" "$out/thresholds.txt" ||
		die "$EXIT_ENV" "validate: cannot copy the thresholds"
	write_env "$out/env.txt" qemu
}

# validate_farm OUT DOTAP: JUnit (OUT/junit.xml) and TAP (OUT/results.tap; stdout with DOTAP)
validate_farm() {
	junit "$1" "$1/junit.xml" validate
	if [ "$2" -eq 1 ]; then tap "$1" | tee "$1/results.tap"; else tap "$1" > "$1/results.tap"; fi
}
