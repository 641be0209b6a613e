#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/deps.sh [--check] [--cross]
#
# Makes sure the Debian packages dlbench needs are installed.  As root it
# installs what is missing (apt-get update first); otherwise it prints the
# exact command and exits 3 (environment unusable, include/dlbench/exitcode.h).
# --check only reports.  --cross also installs the ARM cross toolchains and
# target libraries (tools/cross-deps.sh).  Does nothing when all is present.
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
check_only=0 cross=0
for a in "$@"; do
	case $a in
	--check) check_only=1 ;;
	--cross) cross=1 ;;
	-h|--help) sed -n '4,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

if [ "$cross" -eq 1 ]; then
	exec tools/cross-deps.sh
fi
exit 0
