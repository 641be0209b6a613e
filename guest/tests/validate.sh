#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh validate for real: one fetched arm64 kernel against itself, 2 CPUs,
# one short workload, one run a side (two guest boots): exit 0, both sides'
# reports naming the image's checksum, the comparison table, JUnit and TAP.
# One run a side cannot tell a change from noise: timing rows may be
# "unclear", never "worse" (tests/e2e_validate.sh plants a regression).
# Skips as guest/tests/boot.sh does.
. "$(dirname "$0")/../../tests/lib.sh"
plan 6
K=$DLB_SRC/tools/kernels.sh
if [ -n "${ASAN_OPTIONS:-}" ] || [[ $DLB_BUILD == *-san ]]; then
	skip_rest "sanitizer build: guest binaries are static and unsanitized (plain make check runs this)"
	exit 0
fi
command -v qemu-system-aarch64 >/dev/null || { skip_rest "qemu-system-aarch64 not installed (tools/deps.sh --qemu)"; exit 0; }
ARM=$("$K" --path 6.1-arm64 2>/dev/null) || { skip_rest "kernel 6.1-arm64 not fetched (tools/kernels.sh)"; exit 0; }
make -s -C "$DLB_SRC" guest-aarch64 > /dev/null 2>&1 ||
	{ skip_rest "make guest-aarch64 fails (cross toolchain: tools/cross-deps.sh aarch64-linux-gnu)"; exit 0; }
[ -x "$BIN/dlb-analyze" ] || { skip_rest "dlb-analyze not built"; exit 0; }
tmp=$(mktemp -d /tmp/dlb-guest-validate.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export DLB_BIN=$BIN
printf 'workloads/suites/cbs-isolation.json both 2 500ms ok 0 5%% victim\n' > "$tmp/one.suite"
t0=$SECONDS
"$DLB_SRC/run.sh" validate -k "$ARM" -k "$ARM" -s "$tmp/one.suite" -r 1 -o "$tmp/v" > "$tmp/out" 2>&1
rc=$?
echo "# validate, 2 guest runs of 500 ms on 2 CPUs: $((SECONDS - t0)) s"
expect_eq "the same kernel against itself: exit 0" "$rc" 0 || sed 's/^/# /' "$tmp/out" | tail -20
sum=$(sha256sum < "$ARM" | cut -d' ' -f1)
for s in A B; do
	expect_eq "$s's report names the image's sha256" \
		"$(grep -o '"image_sha256": "[0-9a-f]*"' "$tmp/v/$s/cbs-isolation/1/report.json")" \
		"\"image_sha256\": \"$sum\""
done
check "the comparison table, admission row same" grep -q '^(run) *admission *1/1 admitted *1/1 admitted .* same$' "$tmp/v/compare/cbs-isolation.txt"
check "no timing row is worse with one run a side" bash -c "! grep -v '^#' '$tmp/v/compare/cbs-isolation.txt' | grep -q ' worse\$'"
check "JUnit and TAP written" test -s "$tmp/v/junit.xml" -a -s "$tmp/v/results.tap"
