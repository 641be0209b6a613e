#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/deps.sh [--check] [--cross] [--qemu]
#
# Makes sure the Debian packages dlbench needs are installed.  As root it
# installs what is missing (apt-get update first); otherwise it prints the
# exact command and exits 3 (environment unusable, include/dlbench/exitcode.h).
# --check only reports.  --cross also installs the ARM cross toolchains and
# target libraries (tools/cross-deps.sh).  --qemu also installs what guest
# runs need (qemu-system for x86-64 and arm64, busybox-static, the aarch64
# cross toolchain for the static arm64 guest binaries) and fetches the two
# guest kernels the tests boot (tools/kernels.sh; docs/guest.md).  Does nothing when all is present.
# The fuzzing packages (clang) are optional when not root: a note, exit 0.
set -u
cd "$(dirname "$0")/.." || exit 3

PKGS=(
	gcc make pkg-config		# build
	libjson-c-dev			# workload loader, report.json
	libtraceevent-dev libtracefs-dev libtracecmd-dev	# trace.dat, recording
	libcmocka-dev			# unit tests
	trace-cmd			# trace.dat extraction, KernelShark-compatible files
	gnuplot-nox			# figures
	libxml2-utils			# xmllint: checks the JUnit we write
	shellcheck			# make check lints every shell script
	util-linux procps		# chrt, setpriv, taskset; ps, pgrep
	rt-app				# the real rt-app, for comparisons and fixtures
)
# For make fuzz / fuzz-smoke (part of make check-all): clang and its
# libFuzzer + sanitizer runtimes.  Installed as root like the rest; when
# missing and not root, only a note: check-all counts the fuzz part skipped.
FUZZ_PKGS=(clang-14 libclang-rt-14-dev)
# For guest runs under qemu (--qemu): software emulation, no KVM needed.
QEMU_PKGS=(qemu-system-x86 qemu-system-arm busybox-static xz-utils zstd)
check_only=0 cross=0 qemu=0
for a in "$@"; do
	case $a in
	--check) check_only=1 ;;
	--cross) cross=1 ;;
	--qemu) qemu=1 ;;
	-h|--help) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "deps.sh: unknown option '$a'" >&2; exit 2 ;;
	esac
done

if ! command -v dpkg-query >/dev/null; then
	echo "deps.sh: not a Debian system: install the equivalents of: ${PKGS[*]}" >&2
	pkg-config --exists libtracecmd libtraceevent libtracefs json-c cmocka && exit 0
	exit 3
fi

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "$qemu" -eq 1 ]; then
	for p in "${QEMU_PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
fi

for p in "${FUZZ_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
	if [ "$check_only" -eq 0 ] && [ "$(id -u)" -eq 0 ]; then
		missing+=("$p")
	else
		echo "deps.sh: note: $p missing: make fuzz needs it, make check-all skips fuzzing" >&2
	fi
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$check_only" -eq 1 ]; then
		echo "deps.sh: missing: ${missing[*]}"
		exit 3
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps.sh: missing packages; as root run:" >&2
		echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 3
	fi
	echo "deps.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >/tmp/dlbench-deps.log 2>&1; then
		echo "deps.sh: apt-get failed, see /tmp/dlbench-deps.log:" >&2
		tail -5 /tmp/dlbench-deps.log >&2
		exit 3
	fi
fi

copt=()
[ "$check_only" -eq 1 ] && copt=(--check)
if [ "$qemu" -eq 1 ]; then
	# the arm64 guest's static binaries are cross-built (an arm64 host: the x86 ones)
	case $(uname -m) in
	x86_64) guest_cross=aarch64-linux-gnu ;;
	*) guest_cross= ;;
	esac
	if [ -n "$guest_cross" ] && [ "$cross" -eq 0 ]; then
		tools/cross-deps.sh "${copt[@]}" "$guest_cross" || exit $?
	fi
	# the two kernels guest/tests/boot.sh boots (~32 s fresh, ~100 MB); the
	# other defaults come with tools/kernels.sh when wanted
	tools/kernels.sh "${copt[@]}" --version 6.1 --arch arm64 >/dev/null || exit $?
	tools/kernels.sh "${copt[@]}" --version 6.12 --arch amd64 >/dev/null || exit $?
fi
if [ "$cross" -eq 1 ]; then
	exec tools/cross-deps.sh "${copt[@]}"
fi
exit 0
