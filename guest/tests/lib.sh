# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034  # RG, ARM, X86: read by the tests that source this file
# Sourced by the guest tests that boot both fetched kernels (after
# tests/lib.sh and plan): skips the rest of the plan, counted, with the
# reason, under sanitizer builds (the guest's binaries are static and
# unsanitized), without qemu-system-aarch64 and -x86_64, the kernels
# 6.1-arm64 and 6.12-amd64 (tools/kernels.sh), the guest builds or
# dlb-analyze, and exits 0 then.  Otherwise sets ARM and X86 (the images)
# and RG (guest/run-guest.sh).
RG=$DLB_SRC/guest/run-guest.sh
# an emulated kernel panics at boot now and then (once in CI: "Fatal exception
# in interrupt" 3 s into 6.12's boot), or on a stale int3 under multi-threaded
# TCG (docs/guest.md; in one CI twice in a row, on a machine busy with the
# other tests): boot again up to three times, each said on stderr
export DLB_GUEST_BOOT_RETRIES=${DLB_GUEST_BOOT_RETRIES:-3}
guest_skip() { skip_rest "$1"; exit 0; }
if [ -n "${ASAN_OPTIONS:-}" ] || [[ $DLB_BUILD == *-san ]]; then
	guest_skip "sanitizer build: guest binaries are static and unsanitized (plain make check runs this)"
fi
for q in qemu-system-aarch64 qemu-system-x86_64; do
	command -v $q >/dev/null || guest_skip "$q not installed (tools/deps.sh --qemu)"
done
if ! ARM=$("$DLB_SRC/tools/kernels.sh" --path 6.1-arm64 2>/dev/null) ||
   ! X86=$("$DLB_SRC/tools/kernels.sh" --path 6.12-amd64 2>/dev/null); then
	guest_skip "kernels 6.1-arm64 and 6.12-amd64 not fetched (tools/kernels.sh)"
fi
for a in x86_64 aarch64; do
	make -s -C "$DLB_SRC" guest-$a > /dev/null 2>&1 ||
		guest_skip "make guest-$a fails (cross toolchain: tools/cross-deps.sh aarch64-linux-gnu)"
done
[ -x "$BIN/dlb-analyze" ] || guest_skip "dlb-analyze not built"
