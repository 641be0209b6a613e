# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Suites: workloads/suites/NAME.suite, one entry a line (README.md there):
#   WORKLOAD BACKENDS CPUS DURATION EXPECT REF_LIMIT KERNEL_LIMIT WATCH [OPTIONS...]
# (OPTIONS: dlb-rtapp options for the kernel backend, e.g. --teardown=immediate)
# run one after the other, a verdict each (dlb-analyze's), summary.tsv and
# the table.  Sourced by run.sh; tested by tests/run_lib.sh.

suite_file() {
	local s=$1
	[ -f "$s" ] && [ -r "$s" ] && { echo "$s"; return 0; }
	[ -r "$DLB_SRC/workloads/suites/$s.suite" ] && { echo "$DLB_SRC/workloads/suites/$s.suite"; return 0; }
	return 1
}

# suite_lines FILE: the entries, comments and blank lines dropped; a malformed entry is
# named (FILE:LINE: what) on stderr and fails the whole suite before anything runs
suite_lines() {
	local f=$1 n=0 line wl bes cpus dur expect rmax kmax watch opts bad=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		[[ $line =~ ^[[:space:]]*$ ]] && continue
		read -r wl bes cpus dur expect rmax kmax watch opts <<< "$line"
		local why=
		if [ -z "$watch" ]; then why="expected 8 columns: WORKLOAD BACKENDS CPUS DURATION EXPECT REF KERNEL WATCH [OPTIONS]"
		elif [[ ! $bes =~ ^(both|kernel|reference)$ ]]; then why="backends '$bes' is not both, kernel or reference"
		elif ! cpus_ok "$cpus"; then why="cpus '$cpus' is not a number in 1..1024"
		elif ! dur_ok "$dur"; then why="duration '$dur' is not a duration above 0 (e.g. 2s, 500ms)"
		elif [[ ! $expect =~ ^(ok|refused)$ ]]; then why="expect '$expect' is not ok or refused"
		elif ! limit_ok "$rmax"; then why="reference limit '$rmax' is not N, N% or -"
		elif ! limit_ok "$kmax"; then why="kernel limit '$kmax' is not N, N% or -"
		elif [ -n "$opts" ] && [[ ! $opts =~ ^--[a-z] ]]; then why="options '$opts' are not dlb-rtapp long options (e.g. --teardown=immediate)"
		fi
		if [ -n "$why" ]; then echo "run.sh: $f:$n: $why" >&2; bad=1; continue; fi
		echo "$wl $bes $cpus $dur $expect $rmax $kmax $watch${opts:+ $opts}"
	done < "$f"
	return "$bad"
}

fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# run_suite SUITE OUTDIR BACKENDS MAX_SECONDS BASELINE: runs, judges, writes summary.tsv
run_suite() {
	local sfile=$1 out=$2 backends=$3 budget=$4 baseline=$5 lines
	local wl bes cpus dur expect rmax kmax watch opts be name dir wpath k=0 est=0 t0 left total
	local entries=()
	lines=$(suite_lines "$sfile") || die "$EXIT_BAD_INPUT" "suite $sfile: not run"
	mkdir -p "$out" || die "$EXIT_ENV" "cannot create $out"
	cp "$sfile" "$out/suite.txt"
	local th=${sfile%.suite}.thresholds
	[ -r "$th" ] || th=$DLB_SRC/workloads/suites/default.thresholds
	if [ -r "$th" ]; then cp "$th" "$out/thresholds.txt"; else : > "$out/thresholds.txt"; fi
	write_env "$out/env.txt" "$backends"
	printf 'workload\tbackend\tverdict\tcode\tseconds\twhy\n' > "$out/summary.tsv"
	while read -r wl bes cpus dur expect rmax kmax watch opts; do
		for be in $backends; do
			[ "$bes" = both ] || [ "$bes" = "$be" ] || continue
			entries+=("$wl $be $cpus $dur $expect $rmax $kmax $watch${opts:+ $opts}")
			est=$((est + $(dur_secs "$dur") + 2))
		done
	done <<< "$lines"
	total=${#entries[@]}
	t0=$SECONDS
	for e in "${entries[@]}"; do
		read -r wl be cpus dur expect rmax kmax watch opts <<< "$e"
		k=$((k + 1))
		name=$(basename "$wl" .json)
		dir=$out/$be/$name
		local limit=$rmax; [ "$be" = kernel ] && limit=$kmax
		local el=$((SECONDS - t0)) start=$SECONDS
		if [ $k -gt 1 ]; then left=$((el * (total - k + 1) / (k - 1))); else left=$est; fi
		log "[$k/$total] $be $name  (elapsed $(fmt_secs $el), ~$(fmt_secs $left) left)"
		if [ "$INTERRUPTED" -eq 1 ]; then
			printf '%s\t%s\tSKIP\t0\t0\t%s\n' "$name" "$be" "interrupted before it ran" >> "$out/summary.tsv"
			continue
		fi
		if [ "$budget" -gt 0 ] && [ $((el + $(dur_secs "$dur") + 2)) -gt "$budget" ]; then
			printf '%s\t%s\tSKIP\t0\t0\t%s\n' "$name" "$be" "time budget of ${budget}s spent" >> "$out/summary.tsv"
			continue
		fi
		# a suite's workloads are named from the checkout
		case $wl in /*) wpath=$wl ;; *) wpath=$DLB_SRC/$wl ;; esac
		if [ ! -f "$wpath" ]; then
			printf '%s\t%s\tERROR\t%s\t0\t%s\n' "$name" "$be" "$EXIT_BAD_INPUT" "$wl: no such workload" >> "$out/summary.tsv"
			continue
		fi
		one_run "$wpath" "$be" "$dir" "$cpus" "$dur" "$expect" "$limit" "$watch" \
			"${baseline:+$baseline/$be/$name}" "$out/thresholds.txt" "$opts"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$be" "$VERDICT" "$VCODE" $((SECONDS - start)) "$WHY" >> "$out/summary.tsv"
	done
}

# summary OUT: the table; returns the suite's exit code
summary() {
	local out=$1 code=$EXIT_OK n=0 pass=0 fail=0 other=0
	local name be v c s why
	printf '\n%-26s %-10s %-11s %5s  %s\n' workload backend verdict secs why
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		n=$((n + 1))
		printf '%-26s %-10s %-11s %5s  %s\n' "$name" "$be" "$v" "$s" "$why"
		case $v in
		PASS) pass=$((pass + 1)) ;;
		FAIL) fail=$((fail + 1)); code=$EXIT_REGRESSION ;;
		SKIP) other=$((other + 1)) ;;
		*)    other=$((other + 1))
		      # a failure outranks an error, an error outranks incomplete data
		      if [ "$code" -ne "$EXIT_REGRESSION" ]; then
			      if [ "$v" = ERROR ] || [ "$code" -eq "$EXIT_OK" ]; then code=$c; fi
		      fi ;;
		esac
	done < "$out/summary.tsv"
	[ "$INTERRUPTED" -eq 1 ] && [ "$code" -ne "$EXIT_REGRESSION" ] && code=$EXIT_INCOMPLETE
	printf '%d runs: %d pass, %d fail, %d other; results in %s; exit %d (%s)\n' \
		"$n" "$pass" "$fail" "$other" "$out" "$code" "$(exit_text "$code")"
	return "$code"
}
