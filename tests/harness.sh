#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test program and script given on the command line, reads the
# TAP each prints (cmocka with CMOCKA_MESSAGE_OUTPUT=TAP, our scripts via
# tests/lib.sh), and ends with the one line CI reads:
#
#	N passed, N failed, N skipped
#
# A program that exits non-zero, dies on a signal, prints fewer results than
# its plan, or runs past DLB_TEST_TIMEOUT seconds counts as a failure.
# Skips are listed with their reasons.  Output of each test: $DLB_BUILD/test-logs/.
#
# DLB_COMPONENTS="lib reference ...": the component folders (make check
# gives the Makefile's list).  Each test belongs to the longest one its path
# starts with; the harness prints the tests and results of each, and a
# component with no test, or whose tests all skip, is a failure.
set -u
export CMOCKA_MESSAGE_OUTPUT=TAP
: "${DLB_TEST_TIMEOUT:=900}"
logdir=${DLB_BUILD:-build}/test-logs
mkdir -p "$logdir"
pass=0 fail=0 skip=0
failed=() skipped=()
read -ra components <<<"${DLB_COMPONENTS:-}"
rel_build=${DLB_BUILD:-build}; rel_build=${rel_build#"${DLB_SRC:-.}"/}
declare -A c_tests=() c_ran=() c_skip=()
for c in "${components[@]}"; do
	c_tests[$c]=0 c_ran[$c]=0 c_skip[$c]=0
done

# component_of NAME: the longest component NAME's path starts with, or "".
component_of() {
	local c best=
	for c in "${components[@]}"; do
		if [[ $1 == "$c"/* ]] && [ ${#c} -gt ${#best} ]; then
			best=$c
		fi
	done
	printf '%s' "$best"
}

for t in "$@"; do
	name=${t#"${DLB_SRC:-.}"/}; name=${name#"${DLB_BUILD:-build}"/}
	name=${name#"$rel_build"/}	# build/lib/tests/test_x -> lib/tests/test_x
	log=$logdir/$(basename "$t").log
	start=$SECONDS
	if [[ $t == *.sh ]]; then
		timeout -k 10 "$DLB_TEST_TIMEOUT" bash "$t" >"$log" 2>&1
	else
		timeout -k 10 "$DLB_TEST_TIMEOUT" "$t" >"$log" 2>&1
	fi
	rc=$?
	p=0 f=0 s=0 plan=-1 why=
	while IFS= read -r line; do
		case $line in
		1..*)		plan=${line#1..}; plan=${plan%%[!0-9]*} ;;
		"# SKIP "*)	why=${line#\# SKIP } ;;	# dlb_skip()'s reason, before cmocka's line
		*"# SKIP"*|*"# skip"*)
				s=$((s + 1))
				skipped+=("$name:${line#*# [Ss][Kk][Ii][Pp]}${why:+ ($why)}"); why= ;;
		"not ok"*)	f=$((f + 1)); failed+=("$name: $line") ;;
		"ok"*)		p=$((p + 1)) ;;
		esac
	done < <(grep -aE '^(1\.\.[0-9]+|ok|not ok|# SKIP )' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; failed+=("$name: exited with status $rc (see $log)")
	fi
	if [ "$plan" -ge 0 ] && [ $((p + f + s)) -lt "$plan" ]; then
		f=$((f + 1)); failed+=("$name: $((p + f + s - 1)) of $plan results (see $log)")
	fi
	if [ "$plan" -lt 0 ] && [ $((p + f + s)) -eq 0 ]; then
		f=1; failed+=("$name: printed no TAP result (see $log)")
	fi
	printf '%-44s %3d ok %3d fail %3d skip  %3ds\n' "$name" "$p" "$f" "$s" $((SECONDS - start))
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	c=$(component_of "$name")
	if [ -n "$c" ]; then
		c_tests[$c]=$((c_tests[$c] + 1))
		c_ran[$c]=$((c_ran[$c] + p + f)) c_skip[$c]=$((c_skip[$c] + s))
	fi
done

if [ ${#components[@]} -gt 0 ]; then
	echo "per component:"
	for c in "${components[@]}"; do
		printf '  %-20s %3d tests %5d results run %4d skipped\n' \
			"$c" "${c_tests[$c]}" "${c_ran[$c]}" "${c_skip[$c]}"
		if [ "${c_tests[$c]}" -eq 0 ]; then
			fail=$((fail + 1)); failed+=("$c: no test of this component was run")
		elif [ "${c_ran[$c]}" -eq 0 ]; then
			fail=$((fail + 1)); failed+=("$c: every test of this component skipped")
		fi
	done
fi

if [ ${#skipped[@]} -gt 0 ]; then
	echo "skipped:"
	printf '  %s\n' "${skipped[@]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
