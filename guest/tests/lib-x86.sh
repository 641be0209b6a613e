# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034  # RG, X86: read by the tests that source this file
# Sourced by the guest tests that boot only the x86-64 Debian 6.12 kernel
# (after tests/lib.sh and plan): skips the rest of the plan, counted, with the
# reason, under sanitizer builds (the guest's binaries are static and
# unsanitized), without qemu-system-x86_64, the kernel 6.12-amd64
# (tools/kernels.sh) or the x86-64 guest build, and exits 0 then.  Otherwise
# sets X86 (the image) and RG (guest/run-guest.sh).
RG=$DLB_SRC/guest/run-guest.sh
export DLB_GUEST_BOOT_RETRIES=${DLB_GUEST_BOOT_RETRIES:-3}	# as guest/tests/lib.sh says
if [ -n "${ASAN_OPTIONS:-}" ] || [[ $DLB_BUILD == *-san ]]; then
	skip_rest "sanitizer build: guest binaries are static and unsanitized (plain make check runs this)"
	exit 0
fi
command -v qemu-system-x86_64 >/dev/null ||
	{ skip_rest "qemu-system-x86_64 not installed (tools/deps.sh --qemu)"; exit 0; }
X86=$("$DLB_SRC/tools/kernels.sh" --path 6.12-amd64 2>/dev/null) ||
	{ skip_rest "kernel 6.12-amd64 not fetched (tools/kernels.sh)"; exit 0; }
make -s -C "$DLB_SRC" guest-x86_64 >/dev/null 2>&1 ||
	{ skip_rest "make guest-x86_64 fails"; exit 0; }
