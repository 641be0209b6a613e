#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/kernels.sh [--version 6.1|6.12]... [--arch amd64|arm64]... [--rt] [--check] [--path NAME]
# tools/kernels.sh --busybox ARCH
#
# Fetches Debian's kernel packages for guest runs (guest/run-guest.sh), verifies
# and caches them: by default 6.1 and 6.12 for amd64 and arm64 (--rt: the
# PREEMPT_RT flavour instead, --rt --rt-also: both).  Package names move with
# ABI bumps, so they are resolved from the meta packages (linux-image-arm64,
# linux-image-6.12-arm64, ...).  apt-get download checks each .deb against the
# archive's signed Release; the .deb's and the image's sha256 are recorded in
# the cache and the image's is checked again on every later use.  Only the
# image, its config and the modules the initramfs needs (virtio-pci,
# virtio-blk, decompressed) are kept; x86-64 also keeps the uncompressed ELF
# vmlinux pulled out of the bzImage (booted through its PVH note: 4-5 s
# faster under emulation).
#
# Cache: $DLB_CACHE/kernels/NAME, DLB_CACHE defaulting to
# ${XDG_CACHE_HOME:-~/.cache}/dlbench (shared by every checkout on the machine).
# NAME is VERSION[-rt]-ARCH, e.g. 6.12-arm64, 6.1-rt-amd64.
#
# Prints one line per kernel: NAME, the image to give --kernel, and whether it
# was cached or fetched (with the seconds it took).  --check fetches nothing:
# exit 3 when one is missing.  --path NAME prints that kernel's image (exit 3
# when not cached).  --busybox ARCH prints the static busybox of that
# architecture, the installed one for the host's, else busybox-static:ARCH
# fetched and cached in $DLB_CACHE/busybox-ARCH (every kernel fetch of an
# architecture fetches it too).  Exit codes: include/dlbench/exitcode.h.
set -u
cd "$(dirname "$0")/.." || exit 3
export LC_ALL=C

CACHE=${DLB_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/dlbench}/kernels
# the modules a guest run loads: the disk that carries the results out
NEED_MODULES=(virtio_pci virtio_blk)

die() { local c=$1; shift; echo "kernels.sh: $*" >&2; exit "$c"; }

usage() { sed -n '4,29p' "$0" | sed 's/^# \{0,1\}//'; }

versions=() arches=() flavours=() check_only=0 path_of='' busybox_of=''
while [ $# -gt 0 ]; do
	case $1 in
	--version|--arch|--path|--busybox)
		[ -n "${2:-}" ] || die 2 "$1 needs a value (try --help)" ;;
	esac
	case $1 in
	--version) versions+=("$2"); shift ;;
	--arch) arches+=("$2"); shift ;;
	--rt) flavours+=(rt) ;;
	--rt-also) flavours+=("") ;;
	--check) check_only=1 ;;
	--path) path_of=$2; shift ;;
	--busybox) busybox_of=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) die 2 "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ ${#versions[@]} -gt 0 ] || versions=(6.1 6.12)
[ ${#arches[@]} -gt 0 ] || arches=(amd64 arm64)
[ ${#flavours[@]} -gt 0 ] || flavours=("")
# debian_arch NAME: amd64 or arm64 for any of their spellings
debian_arch() {
	case $1 in
	amd64|x86_64) echo amd64 ;;
	arm64|aarch64) echo arm64 ;;
	*) return 1 ;;
	esac
}
for i in "${!arches[@]}"; do
	a=$(debian_arch "${arches[$i]}") ||
		die 2 "--arch: '${arches[$i]}' is not amd64 (x86_64) or arm64 (aarch64)"
	arches[i]=$a
done
for v in "${versions[@]}"; do
	case $v in 6.1|6.12) ;; *) die 2 "--version: '$v' is not 6.1 or 6.12" ;; esac
done

# image_of DIR: the file to boot (x86: the ELF vmlinux when there is one)
image_of() {
	local d=$1
	sed -n 's/^boot=//p' "$d/kernel.txt" 2>/dev/null | sed "s|^|$d/|"
}

# verify DIR: the recorded sha256 of every kept file still holds
verify() {
	local d=$1
	[ -r "$d/kernel.txt" ] && [ -r "$d/sha256sums" ] || return 1
	(cd "$d" && sha256sum --quiet --strict -c sha256sums >/dev/null 2>&1)
}

# busybox ARCH [CHECK]: the path of a static busybox for ARCH, fetched when needed
busybox() {
	local a=$1 d=${CACHE%/kernels}/busybox-$1 tmp
	if [ "$a" = "$(dpkg --print-architecture 2>/dev/null)" ] && [ -x /bin/busybox ] &&
	   dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'ok installed'; then
		echo /bin/busybox; return 0
	fi
	if (cd "$d" 2>/dev/null && sha256sum --quiet --strict -c sha256sums >/dev/null 2>&1); then
		echo "$d/busybox"; return 0
	fi
	if [ "${2:-0}" -eq 1 ]; then
		echo "kernels.sh: busybox-static:$a not fetched" >&2; return 3
	fi
	mkdir -p "${d%/*}" && tmp=$(mktemp -d "$d.XXXXXX") || return 3
	if ! (cd "$tmp" && apt-get download -q "busybox-static:$a" >download.log 2>&1) ||
	   ! dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" ./bin/busybox; then
		echo "kernels.sh: busybox-static:$a: apt-get download or unpack failed" \
			"(arm64 needs dpkg --add-architecture arm64 and apt-get update)" >&2
		rm -rf "$tmp"; return 3
	fi
	# shellcheck disable=SC2015 # any failure of the three: clean up
	mkdir -p "$tmp/k" && mv "$tmp/bin/busybox" "$tmp/k/busybox" &&
		(cd "$tmp/k" && sha256sum busybox > sha256sums) || { rm -rf "$tmp"; return 3; }
	rm -rf "$d" && mv "$tmp/k" "$d" && rm -rf "$tmp" && echo "$d/busybox"
}

if [ -n "$busybox_of" ]; then
	a=$(debian_arch "$busybox_of") || die 2 "--busybox: '$busybox_of' is not amd64 or arm64"
	busybox "$a" "$check_only"
	exit $?
fi

if [ -n "$path_of" ]; then
	d=$CACHE/$path_of
	[ -d "$d" ] || die 3 "$path_of: not fetched (tools/kernels.sh fetches it; cache $CACHE)"
	verify "$d" || die 3 "$d: checksums do not match its sha256sums: remove it and fetch again"
	image_of "$d"
	exit 0
fi

# meta VERSION FLAVOUR ARCH: the meta package that follows that series
meta() {
	local v=$1 f=$2 a=$3 name
	name=linux-image-${v}-${f:+$f-}$a
	[ "$v" = 6.1 ] && name=linux-image-${f:+$f-}$a	# 6.1 is Debian 12's default series
	[ "$a" = "$(dpkg --print-architecture)" ] || name=$name:$a
	echo "$name"
}

# modinfo_depends KO: the depends= field of a module (.ko, .ko.xz or .ko.zst)
modinfo_depends() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '
}

# resolve_module ROOT OUT NAME: NAME and what it depends on into OUT (decompressed),
# load order appended to OUT/load.txt; built-in modules are skipped
resolve_module() {
	local root=$1 out=$2 m=$3 f d
	grep -qx "$m" "$out/load.txt" 2>/dev/null && return 0
	grep -Eq "/(${m}|${m//_/-})\.ko\$" "$root/modules.builtin" && return 0
	f=$(find "$root/kernel" -regextype egrep -regex ".*/(${m}|${m//_/-})\.ko(\.xz|\.zst)?" | head -1)
	[ -n "$f" ] || { echo "module $m: neither built in nor in the extracted package" >&2; return 1; }
	for d in $(modinfo_depends "$f"); do
		resolve_module "$root" "$out" "$d" || return 1
	done
	case $f in
	*.xz) xz -dc "$f" > "$out/$m.ko" ;;
	*.zst) zstd -qdc "$f" > "$out/$m.ko" ;;
	*) cp "$f" "$out/$m.ko" ;;
	esac || return 1
	echo "$m" >> "$out/load.txt"
}

# vmlinux_of BZIMAGE OUT: the ELF inside a bzImage (xz or zstd payload), as
# the kernel's scripts/extract-vmlinux finds it: try each magic's offsets
vmlinux_of() {
	local bz=$1 out=$2 off
	for magic in '\x28\xb5\x2f\xfd:zstd -qdc' '\xfd\x37\x7a\x58\x5a\x00:xz -qdc'; do
		for off in $(grep -obUaP "${magic%%:*}" "$bz" 2>/dev/null | cut -d: -f1 | head -5); do
			tail -c +$((off + 1)) "$bz" | ${magic#*:} > "$out" 2>/dev/null
			[ "$(head -c 4 "$out" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] && return 0
		done
	done
	rm -f "$out"
	return 1
}

# resolve META: the versioned image package the meta package depends on
resolve() {
	apt-cache depends --no-recommends --no-suggests "$1" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ <>]*\).*/\1/p' | head -1
}
UPDATED=0

# fetch NAME VERSION FLAVOUR ARCH: download, verify, extract into $CACHE/NAME
fetch() {
	local name=$1 v=$2 f=$3 a=$4 m pkg tmp deb rel t0=$SECONDS
	m=$(meta "$v" "$f" "$a")
	pkg=$(resolve "$m")
	if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ] && [ "$UPDATED" -eq 0 ]; then
		# package lists absent or older than the archive's ABI bump
		UPDATED=1
		apt-get update -q >/dev/null 2>&1
		pkg=$(resolve "$m")
	fi
	if [ -z "$pkg" ]; then
		echo "kernels.sh: $m: not in the package lists (as root: apt-get update;" \
			"arm64 needs dpkg --add-architecture arm64 first)" >&2
		return 3
	fi
	tmp=$(mktemp -d "$CACHE/.$name.XXXXXX") || return 3
	# apt-get download verifies the .deb against the signed Release files
	if ! (cd "$tmp" && apt-get download -q "$pkg" >download.log 2>&1); then
		echo "kernels.sh: apt-get download $pkg failed: $(tail -1 "$tmp/download.log")" >&2
		rm -rf "$tmp"; return 3
	fi
	debs=("$tmp"/*.deb)
	deb=${debs[0]}
	mkdir -p "$tmp/x" "$tmp/k/modules"
	# only what a guest run needs; the whole data.tar is decompressed all the same
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './boot/vmlinuz-*' \
		'./boot/config-*' '*/modules.builtin' '*/kernel/drivers/virtio/*' \
		'*/kernel/drivers/block/virtio_blk.ko*' 2>"$tmp/tar.log"
	rel=$(find "$tmp/x/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | head -1)
	if [ -z "$rel" ] || [ ! -f "$tmp/x/boot/vmlinuz-$rel" ]; then
		echo "kernels.sh: $pkg: no boot/vmlinuz or lib/modules in the package" >&2
		rm -rf "$tmp"; return 3
	fi
	for mod in "${NEED_MODULES[@]}"; do
		if ! resolve_module "$tmp/x/lib/modules/$rel" "$tmp/k/modules" "$mod" 2>"$tmp/mod.log"; then
			echo "kernels.sh: $pkg: $(cat "$tmp/mod.log")" >&2
			rm -rf "$tmp"; return 3
		fi
	done
	: >> "$tmp/k/modules/load.txt"
	cp "$tmp/x/boot/config-$rel" "$tmp/k/config"
	local boot
	if [ "$a" = amd64 ]; then
		cp "$tmp/x/boot/vmlinuz-$rel" "$tmp/k/bzImage"
		boot=bzImage
		# the ELF with a PVH note boots without the in-guest decompressor
		if grep -q '^CONFIG_PVH=y' "$tmp/k/config" && vmlinux_of "$tmp/k/bzImage" "$tmp/k/vmlinux"; then
			boot=vmlinux
		fi
	else
		cp "$tmp/x/boot/vmlinuz-$rel" "$tmp/k/Image"
		boot=Image
	fi
	{
		echo "name=$name"
		echo "meta=$m"
		echo "package=$pkg"
		echo "package_version=$(dpkg-deb -f "$deb" Version)"
		echo "deb=$(basename "$deb")"
		echo "deb_sha256=$(sha256sum < "$deb" | cut -d' ' -f1)"
		echo "release=$rel"
		echo "arch=$a"
		echo "boot=$boot"
		echo "fetched=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} > "$tmp/k/kernel.txt"
	# shellcheck disable=SC2094 # sha256sums itself is left out by find
	(cd "$tmp/k" && find . -type f ! -name sha256sums | sort | xargs sha256sum > sha256sums)
	# whole or absent: the entry appears in one rename
	rm -rf "${CACHE:?}/$name"
	mv "$tmp/k" "$CACHE/$name" && rm -rf "$tmp"
	FETCH_SECS=$((SECONDS - t0))
}

mkdir -p "$CACHE" || die 3 "cannot create $CACHE"
rc=0
for a in "${arches[@]}"; do
	busybox "$a" "$check_only" >/dev/null || rc=3
	for v in "${versions[@]}"; do
		for f in "${flavours[@]}"; do
			name=$v-${f:+$f-}$a
			d=$CACHE/$name
			if verify "$d"; then
				printf '%-14s %s  (cached)\n' "$name" "$(image_of "$d")"
				continue
			fi
			if [ -d "$d" ]; then
				echo "kernels.sh: $d: checksums do not match: fetching it again" >&2
			fi
			if [ "$check_only" -eq 1 ]; then
				echo "kernels.sh: $name: not fetched" >&2; rc=3; continue
			fi
			if fetch "$name" "$v" "$f" "$a"; then
				printf '%-14s %s  (fetched in %ds)\n' "$name" "$(image_of "$d")" "$FETCH_SECS"
			else
				rc=3
			fi
		done
	done
done
exit $rc
