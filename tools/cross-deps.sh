#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/cross-deps.sh [--check] [TRIPLET...]
#
# Installs what `make CROSS_COMPILE=<triplet>-` needs (default triplets:
# aarch64-linux-gnu arm-linux-gnueabihf): the cross gcc, qemu-user-static,
# the Multi-Arch target -dev packages side by side (json-c, libtraceevent,
# libtracefs, cmocka), and libtracecmd, which is not Multi-Arch, unpacked
# with dpkg -x into build-sysroot/<triplet> with its .pc files rewritten to
# point there.  As root only; otherwise prints the commands and exits 3.
# --check only reports (exit 0: all there, 3: something missing).
set -u
cd "$(dirname "$0")/.." || exit 3

check_only=0
triplets=()
for a in "$@"; do
	case $a in
	--check) check_only=1 ;;
	-h|--help) sed -n '4,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	aarch64-linux-gnu|arm-linux-gnueabihf) triplets+=("$a") ;;
	*) echo "cross-deps.sh: unknown option or triplet '$a'" >&2; exit 2 ;;
	esac
done
[ ${#triplets[@]} -gt 0 ] || triplets=(aarch64-linux-gnu arm-linux-gnueabihf)

arch_of() {
	case $1 in
	aarch64-linux-gnu) echo arm64 ;;
	arm-linux-gnueabihf) echo armhf ;;
	esac
}

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=() archs=()
installed qemu-user-static || missing+=(qemu-user-static)
for t in "${triplets[@]}"; do
	a=$(arch_of "$t")
	archs+=("$a")
	installed "gcc-$t" || missing+=("gcc-$t")
	# the target's C library headers: only a Recommends of the cross gcc,
	# which --no-install-recommends (below) skips on a fresh machine
	installed "libc6-dev-$a-cross" || missing+=("libc6-dev-$a-cross")
	# libzstd1: libtracecmd1 needs it and, unpacked by hand, does not pull it in
	for p in libjson-c-dev libtraceevent-dev libtracefs-dev libcmocka-dev libzstd1; do
		installed "$p:$a" || missing+=("$p:$a")
	done
done
sysroot_missing=()
for t in "${triplets[@]}"; do
	[ -f "build-sysroot/$t/usr/lib/$t/pkgconfig/libtracecmd.pc" ] || sysroot_missing+=("$t")
done

if [ ${#missing[@]} -eq 0 ] && [ ${#sysroot_missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$check_only" -eq 1 ]; then
	echo "cross-deps.sh: missing: ${missing[*]} ${sysroot_missing[*]/#/sysroot:}"
	exit 3
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "cross-deps.sh: missing cross packages; as root run:" >&2
	echo "  dpkg --add-architecture ${archs[*]} && apt-get update && apt-get install -y ${missing[*]}" >&2
	echo "  then tools/cross-deps.sh again to unpack libtracecmd into build-sysroot/" >&2
	exit 3
fi

log=/tmp/dlbench-cross-deps.log
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
	echo "cross-deps.sh: installing ${missing[*]}"
	for a in "${archs[@]}"; do
		dpkg --add-architecture "$a" || exit 3
	done
	if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
		>"$log" 2>&1; then
		echo "cross-deps.sh: apt-get failed, see $log:" >&2
		tail -5 "$log" >&2
		exit 3
	fi
fi

# libtracecmd-dev is not Multi-Arch (its .so and .pc sit in arch paths but the
# package conflicts with the host's): unpack the target's into a sysroot.
for t in "${sysroot_missing[@]}"; do
	a=$(arch_of "$t")
	root=$PWD/build-sysroot/$t
	tmp=$(mktemp -d) || exit 3
	echo "cross-deps.sh: unpacking libtracecmd:$a into $root"
	if ! (cd "$tmp" && apt-get download -q "libtracecmd1:$a" "libtracecmd-dev:$a") >>"$log" 2>&1; then
		echo "cross-deps.sh: apt-get download libtracecmd:$a failed, see $log" >&2
		rm -rf "$tmp"
		exit 3
	fi
	mkdir -p "$root"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$root" || exit 3
	done
	rm -rf "$tmp"
	# The .pc says prefix=/usr: point it at the sysroot so -I/-L are right.
	sed -i "s|^prefix=.*|prefix=$root/usr|" "$root/usr/lib/$t/pkgconfig/"*.pc
done
exit 0
