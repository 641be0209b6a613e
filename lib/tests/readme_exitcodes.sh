#!/usr/bin/env bash
# The README's exit-code table is a copy of include/dlbench/exitcode.h: keep them equal.
. "$DLB_SRC/tests/lib.sh"
plan 2
hdr=$(sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\), "\(.*\)").*/| \2 | \1 | \3 |/p' \
	"$DLB_SRC/include/dlbench/exitcode.h")
doc=$(grep -E '^\| [0-9]+ \| [A-Z_]+ \|' "$DLB_SRC/README.md")
check "header has the six codes" test "$(printf '%s\n' "$hdr" | wc -l)" -eq 6
expect_eq "README table equals exitcode.h" "$doc" "$hdr"
