#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files users already have: rt-app's own examples, loaded by the one
# loader (dlb-workload check).  Prints, as TAP comments, each file accepted
# or refused with the loader's reason and its warnings, then the acceptance
# figure per corpus:
#
#	workloads/tests/rtapp_corpus.sh [--update] [DIR...]
#	DLB_RTAPP_CORPUS=DIR[:DIR...] make check
#
# Without DIR arguments the corpora are workloads/rtapp-examples/ (upstream
# rt-app's doc/examples/, shipped unmodified: its README.md says from which
# commit), the directories in $DLB_RTAPP_CORPUS if set (e.g. another
# rt-app checkout's doc/examples, a fork's files), and Debian's
# /usr/share/doc/rt-app when the rt-app package is installed (absent: a
# counted skip).
#
# Assertions, per corpus: every file gets an answer (ok, or exactly one
# error line, no crash); every file is accepted except those listed in
# rtapp_corpus.expect (refused with that reason, or excluded as not rt-app
# input); and every accepted file runs for 1 s on the reference backend
# (4 simulated CPUs), exit 0.  A listed refusal that is now accepted fails
# too, so the list stays the true list of what is still refused.
# For workloads/rtapp-examples/ also: the model of each accepted file
# (dlb-workload dump, then its warnings) is the golden one in
# rtapp-examples.golden/PATH.dump (PATH: the file's path there, without
# .json), checked by hand against rt-app's parser; a golden file without an
# accepted example fails too.  After a deliberate change of the model,
# --update rewrites the golden files (review the diff before committing).
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
W=$(realpath -m -- "$BIN/dlb-workload")	# absolute: golden() runs it from the corpus
EXPECT=$DLB_SRC/workloads/tests/rtapp_corpus.expect
SHIPPED=$DLB_SRC/workloads/rtapp-examples
GOLDEN=$DLB_SRC/workloads/tests/rtapp-examples.golden
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

update=0
[ "${1:-}" = --update ] && { update=1; shift; }
dirs=("$@")
if [ $# -eq 0 ]; then
	dirs=("$SHIPPED")
	[ -z "${DLB_RTAPP_CORPUS:-}" ] || IFS=: read -ra extra <<<"$DLB_RTAPP_CORPUS"
	dirs+=(${extra[@]+"${extra[@]}"} /usr/share/doc/rt-app)
fi
# shipped DIR: true when DIR is workloads/rtapp-examples (the golden models)
shipped() { [ "$(realpath -q -- "$1")" = "$(realpath -- "$SHIPPED")" ]; }
n=0
for d in "${dirs[@]}"; do
	n=$((n + 3))
	if shipped "$d"; then n=$((n + 1)); fi
done
plan $n
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

# golden DIR REL: compare (or with --update write) the model of DIR/REL,
# dumped from DIR so that warnings name the path relative to it; prints
# what is wrong, nothing when it matches (the diff goes to $T/diffs)
golden() {
	local g=$GOLDEN/${2%.json}.dump
	(cd "$1" && "$W" dump "$2") >"$T/dump" 2>"$T/dump.err" ||
		{ echo " $2(dump: exit $?)"; return; }
	cat "$T/dump.err" >>"$T/dump"
	if [ "$update" = 1 ]; then
		mkdir -p "$(dirname "$g")" && cp "$T/dump" "$g"
	elif [ ! -f "$g" ]; then
		echo " $2(no ${g#"$DLB_SRC"/}: run $0 --update)"
	elif ! cmp -s "$T/dump" "$g"; then
		echo " $2(model differs from ${g#"$DLB_SRC"/})"
		diff -u "$g" "$T/dump" | head -20 >>"$T/diffs"
	fi
}

corpus() {
	local dir=${1%/} f rel rc n=0 ok=0 excl=0 crash='' wrong='' norun='' exp
	local gold=0 models='' accepted=' '
	shipped "$dir" && gold=1
	while IFS= read -r -d '' f; do
		rel=${f#"$dir"/}
		"$W" check -q "$f" >"$T/out" 2>"$T/err"; rc=$?
		exp=$(expect_of "$f")
		if [ "${exp%% *}" = excluded ]; then
			excl=$((excl + 1))
			echo "# excluded $rel: ${exp#excluded }"
			continue
		fi
		n=$((n + 1))
		# an answer: exit 0 (warnings only) or exit 2 with one error line
		if [ "$rc" = 0 ]; then
			ok=$((ok + 1))
			echo "# accepted $rel"
			sed 's/^/#   /' "$T/err"
			[ "$exp" = accepted ] ||
				wrong="$wrong $rel(now accepted: update rtapp_corpus.expect)"
			[ "$gold" = 0 ] || {
				models=$models$(golden "$dir" "$rel")
				accepted="$accepted${rel%.json}.dump "
			}
			rm -rf "$T/run"
			"$BIN/dlb-rtapp" -q -b reference -m 4 -d 1s -o "$T/run" "$f" >"$T/run.out" 2>&1 ||
				norun="$norun $rel(exit $?: $(head -c 200 "$T/run.out"))"
		elif [ "$rc" = 2 ] && [ "$(grep -vc '^dlb-workload: warning: ' "$T/err")" = 1 ]; then
			echo "# refused  $rel: $(grep -v '^dlb-workload: warning: ' "$T/err" |
				sed "s|^dlb-workload: $f:||")"
			grep -q -F -- "${exp#refused }" "$T/err" && [ "${exp%% *}" = refused ] ||
				wrong="$wrong $rel(refused, expected $exp)"
		else
			crash="$crash $rel(exit $rc)"
		fi
	done < <(find "$dir" -name '*.json' -print0 | LC_ALL=C sort -z)
	echo "# $dir: $ok of $n rt-app files accepted ($((n ? 100 * ok / n : 0)) %)," \
		"$excl excluded (not rt-app input)"
	expect_eq "$dir: every file answered, no crash (bad:$crash)" "$crash" ""
	expect_eq "$dir: accepted and refused as rtapp_corpus.expect says (bad:$wrong)" "$wrong" ""
	expect_eq "$dir: every accepted file runs 1 s on the reference (bad:$norun)" "$norun" ""
	[ "$gold" = 1 ] || return 0
	# a golden model whose example is gone or no longer accepted
	while IFS= read -r -d '' f; do
		rel=${f#"$GOLDEN"/}
		case $accepted in *" $rel "*) continue ;; esac
		if [ "$update" = 1 ]; then
			rm -f "$f"
		else
			models="$models $rel(no accepted example: run $0 --update)"
		fi
	done < <(find "$GOLDEN" -name '*.dump' -print0 2>/dev/null)
	[ "$update" = 0 ] || find "$GOLDEN" -mindepth 1 -type d -empty -delete 2>/dev/null
	[ ! -s "$T/diffs" ] || sed 's/^/#   /' "$T/diffs"
	expect_eq "$dir: every accepted file's model is its golden one (bad:$models)" "$models" ""
}

for d in "${dirs[@]}"; do
	if [ ! -d "$d" ] || [ -z "$(find "$d" -name '*.json' -print -quit)" ]; then
		skip "corpus $d" "no rt-app files there (the rt-app package is not installed?)"
		skip "corpus $d" "no rt-app files there"
		skip "corpus $d" "no rt-app files there"
		if shipped "$d"; then skip "corpus $d" "no rt-app files there"; fi
	else
		corpus "$d"
	fi
done
