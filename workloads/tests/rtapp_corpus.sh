#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files users already have: rt-app's own examples (upstream
# doc/examples/, Debian's /usr/share/doc/rt-app), loaded by the one loader
# (dlb-workload check).  Prints, as TAP comments, each file accepted or
# refused with the loader's reason and its warnings, then the acceptance
# figure per corpus:
#
#	workloads/tests/rtapp_corpus.sh [DIR...]
#	DLB_RTAPP_CORPUS=DIR[:DIR...] make check
#
# Without arguments the corpora are the directories in $DLB_RTAPP_CORPUS
# (e.g. a checkout's doc/examples) and Debian's /usr/share/doc/rt-app when
# the rt-app package is installed; each one absent is a counted skip.  The
# files themselves are not in this repository (GPL, and not ours to ship).
#
# Assertions, per corpus: every file gets an answer (ok, or exactly one
# error line, no crash); every file is accepted except those listed in
# rtapp_corpus.expect (refused with that reason, or excluded as not rt-app
# input); and every accepted file runs for 1 s on the reference backend
# (4 simulated CPUs), exit 0.  A listed refusal that is now accepted fails too, so the list
# stays the true list of what is still refused.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
W=$BIN/dlb-workload
EXPECT=$DLB_SRC/workloads/tests/rtapp_corpus.expect
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

dirs=("$@")
if [ $# -eq 0 ]; then
	IFS=: read -ra dirs <<<"${DLB_RTAPP_CORPUS:-}"
	[ ${#dirs[@]} -gt 0 ] || dirs=("")	# unset: one counted skip
	dirs+=(/usr/share/doc/rt-app)
fi
plan $((3 * ${#dirs[@]}))
[ -x "$W" ] || { skip_rest "dlb-workload not built"; exit 0; }

# expect_of FILE: "refused REASON" or "excluded WHY" from the table (its
# globs match the end of the path), or "accepted"
expect_of() {
	local pat what why
	while IFS='|' read -r pat what why; do
		case $pat in '#'*|'') continue ;; esac
		# shellcheck disable=SC2053  # $pat is a glob on purpose
		if [[ $1 == */$pat ]]; then
			printf '%s %s\n' "$what" "$why"
			return
		fi
	done <"$EXPECT"
	echo accepted
}

corpus() {
	local dir=$1 f rc n=0 ok=0 excl=0 crash='' wrong='' norun='' exp
	while IFS= read -r -d '' f; do
		"$W" check -q "$f" >"$T/out" 2>"$T/err"; rc=$?
		exp=$(expect_of "$f")
		if [ "${exp%% *}" = excluded ]; then
			excl=$((excl + 1))
			echo "# excluded ${f#"$dir"/}: ${exp#excluded }"
			continue
		fi
		n=$((n + 1))
		# an answer: exit 0 (warnings only) or exit 2 with one error line
		if [ "$rc" = 0 ]; then
			ok=$((ok + 1))
			echo "# accepted ${f#"$dir"/}"
			sed 's/^/#   /' "$T/err"
			[ "$exp" = accepted ] ||
				wrong="$wrong ${f#"$dir"/}(now accepted: update rtapp_corpus.expect)"
			rm -rf "$T/run"
			"$BIN/dlb-rtapp" -q -b reference -m 4 -d 1s -o "$T/run" "$f" >"$T/run.out" 2>&1 ||
				norun="$norun ${f#"$dir"/}(exit $?: $(head -c 200 "$T/run.out"))"
		elif [ "$rc" = 2 ] && [ "$(grep -vc '^dlb-workload: warning: ' "$T/err")" = 1 ]; then
			echo "# refused  ${f#"$dir"/}: $(grep -v '^dlb-workload: warning: ' "$T/err" |
				sed "s|^dlb-workload: $f:||")"
			grep -q -F -- "${exp#refused }" "$T/err" && [ "${exp%% *}" = refused ] ||
				wrong="$wrong ${f#"$dir"/}(refused, expected $exp)"
		else
			crash="$crash ${f#"$dir"/}(exit $rc)"
		fi
	done < <(find "$dir" -name '*.json' -print0 | LC_ALL=C sort -z)
	echo "# $dir: $ok of $n rt-app files accepted ($((n ? 100 * ok / n : 0)) %)," \
		"$excl excluded (not rt-app input)"
	expect_eq "$dir: every file answered, no crash (bad:$crash)" "$crash" ""
	expect_eq "$dir: accepted and refused as rtapp_corpus.expect says (bad:$wrong)" "$wrong" ""
	expect_eq "$dir: every accepted file runs 1 s on the reference (bad:$norun)" "$norun" ""
}

for d in "${dirs[@]}"; do
	if [ -z "$d" ]; then
		skip "corpus" "DLB_RTAPP_CORPUS not set (a directory of rt-app files, e.g. rt-app's doc/examples)"
		skip "corpus" "DLB_RTAPP_CORPUS not set"
		skip "corpus" "DLB_RTAPP_CORPUS not set"
	elif [ ! -d "$d" ] || [ -z "$(find "$d" -name '*.json' -print -quit)" ]; then
		skip "corpus $d" "no rt-app files there (the rt-app package is not installed?)"
		skip "corpus $d" "no rt-app files there"
		skip "corpus $d" "no rt-app files there"
	else
		corpus "$d"
	fi
done
