#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every suite line is well-formed and names a workload that loads; every
# suite workload is documented in workloads/suites/README.md.
. "$(dirname "$0")/lib.sh"
plan 3
S=$DLB_SRC/workloads/suites
bad=
while read -r f wl bes cpus dur expect _ _ watch extra; do
	case $bes in both|reference|kernel) ;; *) bad="$bad $f:backends" ;; esac
	case $expect in ok|refused) ;; *) bad="$bad $f:expect" ;; esac
	[[ $cpus =~ ^[0-9]+$ ]] || bad="$bad $f:cpus"
	[[ $dur =~ ^[0-9.]+(ms|s)?$ ]] || bad="$bad $f:duration"
	[ -n "$watch" ] || bad="$bad $f:columns"
	# options: dlb-rtapp long options for the kernel backend
	for o in $extra; do [[ $o == --?* ]] || bad="$bad $f:options"; done
	[ -r "$DLB_SRC/$wl" ] || bad="$bad $f:$wl"
done < <(for f in "$S"/*.suite; do sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$(basename "$f") |" "$f"; done)
expect_eq "suite lines well-formed, workloads present (bad:$bad)" "$bad" ""
if [ -x "$BIN/dlb-workload" ]; then
	check "every suite workload loads (dlb-workload check)" "$BIN/dlb-workload" check "$S"/*.json
else
	skip "suite workloads load" "dlb-workload not built"
fi
undoc=
for j in "$S"/*.json; do
	grep -q "| \`$(basename "$j" .json)\` |" "$S/README.md" || undoc="$undoc $(basename "$j")"
done
expect_eq "every suite workload documented (missing:$undoc)" "$undoc" ""
