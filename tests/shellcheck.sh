#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs shellcheck on every shell script of the tree, one result per script:
# files named *.sh or *.bash and files whose first line runs a shell, except
# the recorded run folders under a fixtures/ folder (data, not scripts), the
# user's own runs under results/ (run.sh's output: commands.sh is a record
# of a run, not part of the tree) and rt-app's example scripts in workloads/rtapp-examples/ (upstream's files,
# shipped unmodified).
# Settings: .shellcheckrc; a finding is fixed, or disabled on its line with
# the reason the code is right.
. "${DLB_SRC:-$(dirname "$0")/..}/tests/lib.sh"
cd "$DLB_SRC" || exit 1

scripts=()
while IFS= read -r -d '' f; do
	case $f in */fixtures/*/* | ./workloads/rtapp-examples/*) continue ;; esac
	case $f in
	*.sh | *.bash) ;;
	*) head -1 "$f" | grep -qE '^#!.*[/ ](ba)?sh\b' || continue ;;
	esac
	scripts+=("${f#./}")
done < <(find . \( -name .git -o -name 'build' -o -name 'build-*' -o -path ./results \) -prune -o \
	-type f ! -name '*.[ch]' ! -name '*.md' ! -name '*.json' -print0 | sort -z)

plan $((${#scripts[@]} + 1))
all=" ${scripts[*]} "
check "found the driver, the harness and this test" \
	test "${all/* run.sh * tests\/harness.sh * tests\/shellcheck.sh */found}" = found
if ! command -v shellcheck >/dev/null; then
	skip_rest "shellcheck not installed (tools/deps.sh installs it)"
	exit 0
fi
# one run over all (fast), then the findings of each script
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
shellcheck -f gcc "${scripts[@]}" >"$T/all" 2>&1
for f in "${scripts[@]}"; do
	awk -v f="$f:" 'index($0, f) == 1' "$T/all" >"$T/one"
	if [ -s "$T/one" ]; then
		fail "shellcheck $f" "$(sed '2,$s/^/#   /' "$T/one")"
	else
		pass "shellcheck $f"
	fi
done
