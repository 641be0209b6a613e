# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Farm outputs of a suite run, from its summary.tsv (each row the verdict
# dlb-analyze made): JUnit XML and TAP.  Sourced by run.sh; tested by
# tests/run_lib.sh.

xml_esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e 's/[^[:print:]\t]//g'; }

# junit OUT FILE SUITE: one testcase per workload and backend
junit() {
	local out=$1 f=$2 suite=$3 n=0 nf=0 ne=0 ns=0 secs=0
	local name be v c s why body
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		n=$((n + 1)); secs=$((secs + s))
		case $v in FAIL) nf=$((nf + 1)) ;; SKIP) ns=$((ns + 1)) ;; PASS) ;; *) ne=$((ne + 1)) ;; esac
	done < "$out/summary.tsv"
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		printf '<testsuites name="dlbench" tests="%d" failures="%d" errors="%d" skipped="%d" time="%d">\n' \
			"$n" "$nf" "$ne" "$ns" "$secs"
		printf '  <testsuite name="dlbench.%s" tests="%d" failures="%d" errors="%d" skipped="%d" time="%d" timestamp="%s" hostname="%s">\n' \
			"$suite" "$n" "$nf" "$ne" "$ns" "$secs" "$(date -u +%Y-%m-%dT%H:%M:%S)" \
			"$(uname -n | xml_esc)"
		while IFS=$'\t' read -r name be v c s why; do
			[ "$name" = workload ] && continue
			why=$(printf '%s' "$why" | xml_esc)
			printf '    <testcase classname="dlbench.%s.%s" name="%s" time="%d">\n' "$suite" "$be" "$name" "$s"
			case $v in
			PASS) ;;
			FAIL) printf '      <failure message="%s" type="%s"/>\n' "$why" "$v" ;;
			SKIP) printf '      <skipped message="%s"/>\n' "$why" ;;
			*)    printf '      <error message="%s" type="%s">exit code %s</error>\n' "$why" "$v" "$c" ;;
			esac
			# a run's report, or validate's comparison of the workload
			body=$out/$be/$name/report.txt
			[ -r "$body" ] || body=$out/compare/$name.txt
			if [ -r "$body" ]; then
				body=$(head -c 20000 "$body" | xml_esc)
				printf '      <system-out>%s</system-out>\n' "$body"
			fi
			echo '    </testcase>'
		done < "$out/summary.tsv"
		echo '  </testsuite>'
		echo '</testsuites>'
	} > "$f"
}

# tap OUT: TAP version 13 on stdout
tap() {
	local out=$1 n=0 k=0 name be v c s why
	n=$(($(wc -l < "$out/summary.tsv") - 1))
	echo "TAP version 13"
	echo "1..$n"
	while IFS=$'\t' read -r name be v c s why; do
		[ "$name" = workload ] && continue
		k=$((k + 1))
		case $v in
		PASS) echo "ok $k - $be/$name # $why" ;;
		SKIP) echo "ok $k - $be/$name # SKIP $why" ;;
		*)    echo "not ok $k - $be/$name # $v: $why" ;;
		esac
	done < "$out/summary.tsv"
}
