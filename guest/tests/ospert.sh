#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ./run.sh ospert --kernel IMAGE: the OSPERT kernel sweep on a guest, in its
# quick mode on the x86-64 Debian kernel (2 guest CPUs, U/CPU 0.2 and 0.4, one
# set of 1 s each: two guest boots and two reference runs): the structure of
# kernel.csv and of the page, never the miss counts (an emulated kernel on a
# shared host misses what the host's load makes it miss).  Before that, what is
# refused without booting: a sweep this host cannot carry, a file that is no
# kernel image.  Skips as guest/tests/boot.sh does.
. "$(dirname "$0")/../../tests/lib.sh"
plan 8
K=$DLB_SRC/tools/kernels.sh OSP=$DLB_SRC/bench/ospert/run.sh
if [ -n "${ASAN_OPTIONS:-}" ] || [[ $DLB_BUILD == *-san ]]; then
	skip_rest "sanitizer build: guest binaries are static and unsanitized (plain make check runs this)"
	exit 0
fi
command -v qemu-system-x86_64 >/dev/null || { skip_rest "qemu-system-x86_64 not installed (tools/deps.sh --qemu)"; exit 0; }
X86=$("$K" --path 6.12-amd64 2>/dev/null) || { skip_rest "kernel 6.12-amd64 not fetched (tools/kernels.sh)"; exit 0; }
make -s -C "$DLB_SRC" guest-x86_64 > /dev/null 2>&1 || { skip_rest "make guest-x86_64 fails"; exit 0; }
for t in dlb-analyze dlb-ospert dlb-tasksetgen; do
	[ -x "$BIN/$t" ] || { skip_rest "$t not built"; exit 0; }
done
tmp=$(mktemp -d /tmp/dlb-guest-ospert.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export DLB_BIN=$BIN

out=$(bash "$OSP" --kernel "$X86" --cpus 64 -o "$tmp/no" 2>&1); rc=$?
expect_eq "a guest the host cannot carry: exit 3, one line with the numbers" \
	"$rc|$(echo "$out" | wc -l)|$(echo "$out" | grep -c "needs 60.80 host CPUs (64 CPUs x U/CPU 0.95)")" "3|1|1"
check "refused before anything is made" test ! -e "$tmp/no"
out=$(bash "$OSP" --kernel /etc/hostname -o "$tmp/no" 2>&1); rc=$?
expect_eq "not a kernel image: exit 2, one line" "$rc|$(echo "$out" | wc -l)" "2|1"

t0=$SECONDS
bash "$OSP" --quick --kernel "$X86" -o "$tmp/q" > "$tmp/log" 2>&1; rc=$?
echo "# ospert --quick --kernel (2 guest boots of 1 s on 2 CPUs): $((SECONDS - t0)) s"
expect_eq "quick guest sweep: exit 0" "$rc" 0 || sed 's/^/# /' "$tmp/log" | tail -20
expect_eq "kernel.csv: per U a guest and a reference row, 2 CPUs" \
	"$(csv_awk 'FNR > 1 { print v("cpus"), v("U"), v("backend") }' "$tmp/q/data/kernel.csv" | tr '\n' ';')" \
	"2 0.2 kernel;2 0.2 reference;2 0.4 kernel;2 0.4 reference;"
expect_eq "every run reported, jobs counted" \
	"$(csv_awk 'FNR > 1 && (v("status") != "ok" || v("jobs") + 0 < 10) { print v("dir"), v("status") }' "$tmp/q/data/kernel.csv")" ""
check "the guest runs name the image's checksum" grep -q "\"image_sha256\": \"$(sha256sum < "$X86" | cut -d' ' -f1)\"" \
	"$tmp/q/kernel/m2-u0.2-set-000-qemu/report.json"
check "the page: the guest kernel, a row per CPU count and U" bash -c \
	"grep -q '^## Kernel (guest 6\.12\..* x86_64 under qemu' '$tmp/q/ospert.md' &&
	 [ \$(grep -cE '^\| 2 \| 0\.[24] \| ' '$tmp/q/ospert.md') -eq 2 ]"
