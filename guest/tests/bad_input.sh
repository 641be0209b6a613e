#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# guest/run-guest.sh, tools/kernels.sh, guest/initramfs.sh on bad input that
# needs no boot: one line on stderr, the documented exit code, no run folder.
# The kernel images here are fakes with the right (or wrong) header bytes.
. "$(dirname "$0")/../../tests/lib.sh"
plan 48
RG=$DLB_SRC/guest/run-guest.sh
WL=$DLB_SRC/workloads/suites/edf-global-2cpu.json
tmp=$(mktemp -d /tmp/dlb-guest-bad.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# fake images: an arm64 Image header ("ARM\x64" at 56), a bzImage ("HdrS" at 514)
head -c 4096 /dev/zero > "$tmp/Image" && printf 'ARM\x64' | dd of="$tmp/Image" bs=1 seek=56 conv=notrunc 2>/dev/null
head -c 4096 /dev/zero > "$tmp/bzImage" && printf 'HdrS' | dd of="$tmp/bzImage" bs=1 seek=514 conv=notrunc 2>/dev/null
echo '{ "tasks": { "a": { "run": -5 } } }' > "$tmp/bad.json"

# bad NAME WANT_RC WANT_TEXT CMD...: exit code, one stderr line holding TEXT, no -o folder
n=0
bad() {
	local name=$1 want=$2 text=$3 rc lines
	shift 3
	n=$((n + 1))
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	lines=$(wc -l < "$tmp/err")
	if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/err" && [ "$lines" -eq 1 ]; then
		pass "$name: exit $want, one line"
	else
		fail "$name" "got exit $rc, $lines stderr lines; want exit $want with '$text'" "$(cat "$tmp/err")"
	fi
	if [ ! -e "$tmp/o" ]; then pass "$name: no run folder"; else fail "$name: no run folder" "$(ls -A "$tmp/o")"; fi
	rm -rf "$tmp/o"
}

bad "no --kernel" 2 "no --kernel" "$RG" -o "$tmp/o" "$WL"
bad "no workload" 2 "no workload given" "$RG" -k "$tmp/Image" -o "$tmp/o"
bad "workload missing" 2 "no such workload" "$RG" -k "$tmp/Image" -o "$tmp/o" "$tmp/none.json"
bad "--cpus 0" 2 "--cpus: '0'" "$RG" -k "$tmp/Image" -c 0 -o "$tmp/o" "$WL"
bad "--arch sparc" 2 "--arch: 'sparc'" "$RG" -k "$tmp/Image" -a sparc -o "$tmp/o" "$WL"
bad "kernel missing" 2 "no such file" "$RG" -k "$tmp/nothing" -o "$tmp/o" "$WL"
bad "a text file as kernel" 2 "not a kernel image" "$RG" -k /etc/passwd -o "$tmp/o" "$WL"
bad "a program as kernel" 2 "not a kernel image" "$RG" -k "$(command -v bash)" -o "$tmp/o" "$WL"
bad "arm64 Image, --arch x86_64" 2 "an aarch64 kernel, not x86_64" \
	"$RG" -k "$tmp/Image" -a x86_64 -o "$tmp/o" "$WL"
bad "bzImage, --arch arm64" 2 "an x86_64 kernel, not aarch64" \
	"$RG" -k "$tmp/bzImage" -a arm64 -o "$tmp/o" "$WL"
bad "bad --duration" 2 "--duration: 'soon'" "$RG" -k "$tmp/Image" -d soon -o "$tmp/o" "$WL"
bad "bad --boot-retries" 2 "--boot-retries: 'x'" "$RG" -k "$tmp/Image" --boot-retries x -o "$tmp/o" "$WL"
if [ -x "$BIN/dlb-workload" ]; then
	# dlb-workload's own line names the file; then ours: two lines, by design
	"$RG" -k "$tmp/Image" -o "$tmp/o" "$tmp/bad.json" > /dev/null 2> "$tmp/err"
	rc=$?
	check "invalid workload: exit 2 (got $rc)" test "$rc" -eq 2
	check "invalid workload: its file named" grep -q "bad.json:" "$tmp/err"
else
	skip "invalid workload: exit 2" "dlb-workload not built"
	skip "invalid workload: its file named" "dlb-workload not built"
fi
rm -rf "$tmp/o"

# qemu missing: a PATH with everything of this machine's but qemu-system-*
mkdir -p "$tmp/path"
for d in /usr/local/bin /usr/bin /bin; do
	for f in "$d"/*; do
		case ${f##*/} in qemu-system-*) continue ;; esac
		[ -e "$tmp/path/${f##*/}" ] || ln -s "$f" "$tmp/path/${f##*/}"
	done
done
bad "qemu missing" 3 "qemu-system-aarch64 not installed" \
	env PATH="$tmp/path" "$RG" -k "$tmp/Image" -o "$tmp/o" "$WL"
bad "qemu missing (x86)" 3 "qemu-system-x86_64 not installed" \
	env PATH="$tmp/path" "$RG" -k "$tmp/bzImage" -o "$tmp/o" "$WL"

# a folder holding a run is not overwritten
mkdir -p "$tmp/done" && echo '{}' > "$tmp/done/summary.json"
"$RG" -k "$tmp/Image" -o "$tmp/done" "$WL" > /dev/null 2> "$tmp/err"
rc=$?
check "folder holding a run: exit 2 (got $rc)" test "$rc" -eq 2
expect_eq "folder holding a run: untouched" "$(ls -A "$tmp/done")" "summary.json"

# tools/kernels.sh and guest/initramfs.sh
K=$DLB_SRC/tools/kernels.sh
bad "kernels.sh --arch sparc" 2 "--arch: 'sparc'" "$K" --arch sparc
bad "kernels.sh --version 5.10" 2 "--version: '5.10'" "$K" --version 5.10
bad "kernels.sh --arch without a value" 2 "--arch needs a value" "$K" --arch
bad "kernels.sh --path of nothing fetched" 3 "not fetched" env DLB_CACHE="$tmp/cache" "$K" --path 6.1-arm64
mkdir -p "$tmp/mods"
bad "initramfs.sh --modules without load.txt" 2 "load.txt: no such file" \
	"$DLB_SRC/guest/initramfs.sh" --arch x86_64 --modules "$tmp/mods"

# run.sh validate checks both images before it makes a folder or boots anything
bad "run.sh validate of a file that is no kernel" 2 "not a kernel image" \
	"$DLB_SRC/run.sh" validate -k /etc/passwd -k /etc/passwd -r 1 -o "$tmp/o"
# run.sh's qemu backend: its options belong together
bad "run.sh --backend qemu without --kernel" 2 "needs --kernel IMAGE" \
	"$DLB_SRC/run.sh" run "$WL" --backend qemu -o "$tmp/o"
bad "run.sh --kernel with the reference backend" 2 "are for --backend qemu" \
	"$DLB_SRC/run.sh" run "$WL" --backend reference --kernel "$tmp/Image" -o "$tmp/o"
