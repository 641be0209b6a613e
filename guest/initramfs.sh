#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/initramfs.sh --arch x86_64|aarch64 [--modules DIR] [--bin DIR]
#
# Builds (once: cached by the hash of its content) the initramfs of a dlbench
# guest and prints its path: static busybox (tools/kernels.sh --busybox), the
# static guest binaries dlb-rtapp and dlb-record (make guest-ARCH; --bin DIR to
# take them from elsewhere), guest/init, and the kernel modules of DIR (*.ko in
# the order of DIR/load.txt; tools/kernels.sh keeps them beside each image).
# The workload is not in it: run-guest.sh appends a small archive per run.
# Cache: $DLB_CACHE/initramfs/ARCH-HASH.cpio, the 6 newest per architecture
# (DLB_CACHE: ${XDG_CACHE_HOME:-~/.cache}/dlbench).
# Exit codes: 2 bad options, 3 something missing (include/dlbench/exitcode.h).
set -u
DLB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LC_ALL=C

die() { local c=$1; shift; echo "initramfs.sh: $*" >&2; exit "$c"; }

arch='' mods='' bin=''
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:?--arch needs x86_64 or aarch64}; shift ;;
	--modules) mods=${2:?--modules needs a folder}; shift ;;
	--bin) bin=${2:?--bin needs a folder}; shift ;;
	-h|--help) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die 2 "unknown option '$1' (try --help)" ;;
	esac
	shift
done
case $arch in
x86_64|amd64) arch=x86_64 ;;
aarch64|arm64) arch=aarch64 ;;
*) die 2 "--arch: '$arch' is not x86_64 or aarch64" ;;
esac
[ -n "$bin" ] || bin=$DLB_SRC/build-guest-$arch/bin

# the caller's arguments first (exit 2), then what this machine lacks (exit 3)
if [ -n "$mods" ]; then
	[ -r "$mods/load.txt" ] || die 2 "$mods/load.txt: no such file (the module load order)"
	# shellcheck disable=SC2013 # one module name a line, no spaces
	for m in $(cat "$mods/load.txt"); do
		[ -r "$mods/$m.ko" ] || die 2 "$mods/$m.ko: listed in load.txt, no such file"
	done
fi
bb=$("$DLB_SRC/tools/kernels.sh" --busybox "$arch") || exit 3
for b in dlb-rtapp dlb-record; do
	[ -x "$bin/$b" ] || die 3 "$bin/$b: not built (make guest-$arch)"
done

# shellcheck disable=SC2209 # the command's name
strip=strip
[ "$arch" = "$(uname -m)" ] || strip=$arch-linux-gnu-strip
command -v "$strip" >/dev/null || strip=:

# the content, file by file: destination and source
files=("bin/busybox $bb" "init $DLB_SRC/guest/init"
       "bin/dlb-rtapp $bin/dlb-rtapp" "bin/dlb-record $bin/dlb-record")
if [ -n "$mods" ]; then
	files+=("lib/modules/load.txt $mods/load.txt")
	# shellcheck disable=SC2013 # one module name a line, no spaces
	for m in $(cat "$mods/load.txt"); do
		files+=("lib/modules/$m.ko $mods/$m.ko")
	done
fi

hash=$(for f in "${files[@]}"; do
	printf '%s %s\n' "${f%% *}" "$(sha256sum < "${f#* }" | cut -d' ' -f1)"
done | { cat; echo "strip=$strip"; } | sha256sum | cut -c1-16)
cache=${DLB_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/dlbench}/initramfs
out=$cache/$arch-$hash.cpio
[ -s "$out" ] && { echo "$out"; exit 0; }

mkdir -p "$cache" || die 3 "cannot create $cache"
tmp=$(mktemp -d "$cache/.build.XXXXXX") || die 3 "cannot create a folder in $cache"
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,run.d,lib/modules}
for f in "${files[@]}"; do
	cp "${f#* }" "$root/${f%% *}" || die 3 "cannot copy ${f#* }"
done
chmod 755 "$root/init" "$root/bin/"*
"$strip" "$root/bin/dlb-rtapp" "$root/bin/dlb-record" 2>/dev/null
# newc, uncompressed: the guest unpacks it without a decompressor (fastest under emulation)
# (the host's cpio, or its busybox's: the guest's busybox may be another architecture's)
if command -v cpio >/dev/null; then cpio=(cpio --quiet)
elif command -v busybox >/dev/null; then cpio=(busybox cpio)
else die 3 "neither cpio nor busybox on this host (tools/deps.sh --qemu)"; fi
(cd "$root" && find . -mindepth 1 | sort | "${cpio[@]}" -o -H newc 2>/dev/null) > "$tmp/out.cpio" ||
	die 3 "cpio failed"
mv "$tmp/out.cpio" "$out" || die 3 "cannot write $out"
# each rebuild of the guest binaries makes a new one: keep the 6 newest per arch
# shellcheck disable=SC2012 # names are ARCH-HEX.cpio
ls -t "$cache/$arch-"*.cpio 2>/dev/null | tail -n +7 | xargs -r rm -f
echo "$out"
