#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/run-guest.sh: run one workload on a kernel image booted under qemu
# (software emulation), and bring back a run folder like a host kernel run's.
# --help for the options; docs/guest.md for the whole story.
set -u
DLB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LC_ALL=C
PROG=run-guest.sh

# ---- exit codes: parsed from the one table -------------------------------------------------
EXITH=$DLB_SRC/include/dlbench/exitcode.h
[ -r "$EXITH" ] || EXITH=$DLB_SRC/exitcode.h
[ -r "$EXITH" ] || { echo "$PROG: exitcode.h not found" >&2; exit 3; }
eval "$(sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\),.*/EXIT_\1=\2/p' "$EXITH")"
: "${EXIT_OK:?} ${EXIT_BAD_INPUT:?} ${EXIT_ENV:?} ${EXIT_INCOMPLETE:?} ${EXIT_INTERNAL:?}"

usage() {
	cat <<'EOF'
usage: guest/run-guest.sh --kernel IMAGE -o DIR [options] WORKLOAD.json
Boot IMAGE under qemu (TCG), run WORKLOAD there as run.sh's kernel backend does on a
host (dlb-record around dlb-rtapp, sched debug and /proc/schedstat before and after),
and write the run folder into DIR: then dlb-analyze DIR, as for a host run.

  -k, --kernel IMAGE     x86-64: vmlinux (ELF, booted through PVH) or bzImage;
                         arm64: Image (or Image.gz)
  -a, --arch ARCH        x86_64 (amd64) or arm64 (aarch64); default: the image's
  -c, --cpus N           guest CPUs (default 2; 1..64)
  -o, --output DIR       the run folder (created; must not hold a run already)
  -d, --duration TIME    run length (dlb-rtapp -d; default: the workload's)
  -A, --append ARGS      more kernel command line
  -M, --modules DIR      kernel modules for the initramfs (*.ko + load.txt);
                         default: IMAGE's folder's modules/ when it has one
  -m, --memory MB        guest memory (default: 768 + the trace buffers)
      --disk-mb MB       results disk size (default 256)
      --timeout S        give up after S seconds (default: from the duration)
      --boot-retries N   boot again, up to N times, when the kernel panics before
                         /init starts, or on an emulated int3 ("Oops: int3": the
                         emulator's, see docs/guest.md) (default 0, or
                         DLB_GUEST_BOOT_RETRIES); each
                         panic's console stays in DIR/console-boot-panic-K.log and
                         guest.txt counts them (boot_panics=K)
  -q, --quiet            print only errors and the closing line
      --check-image      check IMAGE (and --arch) as a run would, print "KIND ARCH",
                         boot nothing (no -o or workload needed)
  -h, --help             this help

The guest's uname -r and -m, its CPU count and the image's sha256 go into
DIR/guest.txt; the wall time is printed and recorded there too.
Exit codes (include/dlbench/exitcode.h): 0 ok; 2 bad input (not a kernel image,
wrong --arch, bad workload); 3 environment (qemu or a guest binary missing, guest
kernel without tracefs, or without cpusets for a workload pinning DL tasks); 4 incomplete (guest panicked, hung, never powered off,
results disk full, interrupted); otherwise dlb-rtapp's own exit code in the guest.
EOF
}

die() { local c=$1; shift; echo "$PROG: $*" >&2; exit "$c"; }
say() { [ "$quiet" -eq 1 ] || echo "$*"; }

kernel='' arch='' cpus=2 out='' dur='' append='' mods='' mem='' disk_mb=256 tmo='' quiet=0 wl='' check=0
retries=${DLB_GUEST_BOOT_RETRIES:-0}
while [ $# -gt 0 ]; do
	case $1 in
	-k|--kernel) kernel=${2-}; shift ;;
	-a|--arch) arch=${2-}; shift ;;
	-c|--cpus) cpus=${2-}; shift ;;
	-o|--output) out=${2-}; shift ;;
	-d|--duration) dur=${2-}; shift ;;
	-A|--append) append=${2-}; shift ;;
	-M|--modules) mods=${2-}; shift ;;
	-m|--memory) mem=${2-}; shift ;;
	--disk-mb) disk_mb=${2-}; shift ;;
	--timeout) tmo=${2-}; shift ;;
	--boot-retries) retries=${2-}; shift ;;
	-q|--quiet) quiet=1 ;;
	--check-image) check=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) die "$EXIT_BAD_INPUT" "unknown option '$1' (try --help)" ;;
	*) [ -z "$wl" ] || die "$EXIT_BAD_INPUT" "one workload only ('$wl', then '$1')"; wl=$1 ;;
	esac
	[ $# -gt 0 ] && shift
done
[ -n "$kernel" ] || die "$EXIT_BAD_INPUT" "no --kernel IMAGE (try --help)"
if [ "$check" -eq 0 ]; then
	[ -n "$out" ] || die "$EXIT_BAD_INPUT" "no -o DIR (try --help)"
	[ -n "$wl" ] || die "$EXIT_BAD_INPUT" "no workload given (try --help)"
fi
isnum() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
isnum "$cpus" 1 64 || die "$EXIT_BAD_INPUT" "--cpus: '$cpus' is not a number from 1 to 64"
isnum "$disk_mb" 1 65536 || die "$EXIT_BAD_INPUT" "--disk-mb: '$disk_mb' is not a number of MB"
[ -z "$mem" ] || isnum "$mem" 128 65536 || die "$EXIT_BAD_INPUT" "--memory: '$mem' is not 128..65536 MB"
[ -z "$tmo" ] || isnum "$tmo" 1 86400 || die "$EXIT_BAD_INPUT" "--timeout: '$tmo' is not a number of seconds"
isnum "$retries" 0 10 || die "$EXIT_BAD_INPUT" "--boot-retries: '$retries' is not a number from 0 to 10"
[ "$check" -eq 1 ] || [ -r "$wl" ] || die "$EXIT_BAD_INPUT" "$wl: no such workload"
if [ ! -f "$kernel" ] || [ ! -r "$kernel" ]; then die "$EXIT_BAD_INPUT" "$kernel: no such file"; fi
case $arch in
"") ;;
x86_64|amd64) arch=x86_64 ;;
arm64|aarch64) arch=aarch64 ;;
*) die "$EXIT_BAD_INPUT" "--arch: '$arch' is not x86_64 (amd64) or arm64 (aarch64)" ;;
esac

# ---- what the image is --------------------------------------------------------------------------
# image_kind FILE: "KIND ARCH" (elf x86_64, bzimage x86_64, image aarch64), or nothing
hexat() { od -An -tx1 -j "$2" -N "$3" "$1" 2>/dev/null | tr -d ' \n'; }
image_kind() {
	local f=$1 m
	case $(hexat "$f" 0 4) in
	7f454c46)	# ELF: a kernel says so in its banner; e_machine at 18 (little-endian)
		grep -qa 'Linux version [0-9]' "$f" || return
		case $(hexat "$f" 18 2) in
		3e00) echo "elf x86_64" ;;
		b700) echo "elf aarch64" ;;
		*) echo "elf other" ;;
		esac
		return ;;
	1f8b*)		# gzip: an arm64 Image.gz, whose magic is inside
		m=$(gzip -dc "$f" 2>/dev/null | od -An -tx1 -j 56 -N 4 | tr -d ' \n')
		[ "$m" = 41524d64 ] && echo "image aarch64"
		return ;;
	esac
	[ "$(hexat "$f" 514 4)" = 48647253 ] && { echo "bzimage x86_64"; return; }	# "HdrS"
	[ "$(hexat "$f" 56 4)" = 41524d64 ] && { echo "image aarch64"; return; }	# "ARM\x64"
}
read -r kind img_arch < <(image_kind "$kernel"; echo)
[ -n "${kind:-}" ] || die "$EXIT_BAD_INPUT" "$kernel: not a kernel image (want an x86-64 vmlinux or bzImage, or an arm64 Image)"
[ "$img_arch" != other ] || die "$EXIT_BAD_INPUT" "$kernel: an ELF for neither x86-64 nor arm64"
[ "$kind" = elf ] && [ "$img_arch" = aarch64 ] &&
	die "$EXIT_BAD_INPUT" "$kernel: an arm64 vmlinux (ELF); boot the Image beside it (arch/arm64/boot/Image)"
if [ -n "$arch" ] && [ "$arch" != "$img_arch" ]; then
	die "$EXIT_BAD_INPUT" "$kernel: an $img_arch kernel, not $arch (--arch)"
fi
arch=$img_arch
# qemu boots an x86 ELF only through its PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY, 18)
if [ "$kind" = elf ] && command -v readelf >/dev/null &&
   ! readelf -n "$kernel" 2>/dev/null | grep -q 'Xen.*(0x00000012)'; then
	die "$EXIT_BAD_INPUT" "$kernel: a vmlinux without a PVH entry note (CONFIG_PVH): give the bzImage"
fi
# --check-image: the image is one this script boots (for --arch): say what it is, boot nothing
if [ "$check" -eq 1 ]; then echo "$kind $arch"; exit 0; fi

qemu=qemu-system-$arch
command -v "$qemu" >/dev/null || die "$EXIT_ENV" "$qemu not installed (tools/deps.sh --qemu installs it)"
command -v timeout >/dev/null || die "$EXIT_ENV" "timeout (coreutils) not found"

# the workload must load on the host first: its errors name the user's file
wlcheck=${DLB_BIN:-$DLB_SRC/build/bin}/dlb-workload
if [ -x "$wlcheck" ]; then
	"$wlcheck" -q check "$wl" >&2 || die "$EXIT_BAD_INPUT" "$wl: not a valid workload (above)"
	wl_dump=$("$wlcheck" dump "$wl" 2>/dev/null)
	wl_ns=$(sed -n '1s/.* duration_ns=\([0-9]*\).*/\1/p' <<< "$wl_dump")
	# pinned SCHED_DEADLINE tasks need a cpuset partition in the guest
	grep -q '^task .* policy=SCHED_DEADLINE .* cpus=' <<< "$wl_dump" && pins_dl=1
fi
# secs TIME: whole seconds, rounded up ("2s", "500ms", "1.5")
secs() {
	awk -v d="$1" 'BEGIN { n = d + 0; u = d; sub(/^[0-9.]+/, "", u)
		f = (u == "" || u == "s") ? 1 : (u == "ms") ? 0.001 : (u == "us") ? 1e-6 : (u == "m") ? 60 : -1
		if (d !~ /^[0-9.]+[a-z]*$/ || f < 0) exit 1
		printf "%d\n", n * f == int(n * f) ? n * f : int(n * f) + 1 }'
}
if [ -n "$dur" ]; then
	run_s=$(secs "$dur") || die "$EXIT_BAD_INPUT" "--duration: '$dur' is not a time (2s, 500ms)"
elif [ -n "${wl_ns:-}" ] && [ "$wl_ns" -gt 0 ]; then
	run_s=$(((wl_ns + 999999999) / 1000000000))
else
	run_s=10
fi

if [ -z "$mods" ] && [ -r "$(dirname "$kernel")/modules/load.txt" ]; then
	mods=$(dirname "$kernel")/modules
fi

# ---- the run folder: nothing in it looks whole until the run is --------------------------------
if [ -e "$out/summary.json" ] || [ -e "$out/guest.txt" ]; then
	die "$EXIT_BAD_INPUT" "$out: holds a run already"
fi
mkdir -p "$out" || die "$EXIT_ENV" "cannot create $out"
work=$(mktemp -d "$out/.guest.XXXXXX") || die "$EXIT_ENV" "cannot create a folder in $out"
QPID='' SHAPID=''
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$QPID" ] && kill -KILL "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
	[ -n "$SHAPID" ] && kill "$SHAPID" 2>/dev/null && wait "$SHAPID" 2>/dev/null
	[ -n "${DLB_GUEST_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'INTR=1; [ -n "$QPID" ] && kill -TERM "$QPID" 2>/dev/null' INT TERM HUP
INTR=0

# fail CODE WHY: the run folder says it failed, and why; no result files
fail() {
	local c=$1; shift
	[ -s "$work/console.log" ] && cp "$work/console.log" "$out/console.log"
	{ echo "status=failed"; echo "exit=$c"; echo "why=$*"; } > "$out/guest-failed.txt"
	echo "$PROG: $*" >&2
	exit "$c"
}

# ---- guest binaries and initramfs ---------------------------------------------------------------
if [ -f "$DLB_SRC/Makefile" ] && [ -z "${DLB_GUEST_BIN:-}" ]; then
	make -s -C "$DLB_SRC" "guest-$arch" > "$work/make.log" 2>&1 ||
		fail "$EXIT_ENV" "make guest-$arch failed (see $out/make.log; cross builds: tools/cross-deps.sh)" \
		"$(cp "$work/make.log" "$out/make.log")"
fi
iargs=(--arch "$arch")
[ -n "$mods" ] && iargs+=(--modules "$mods")
[ -n "${DLB_GUEST_BIN:-}" ] && iargs+=(--bin "$DLB_GUEST_BIN")
base=$("$DLB_SRC/guest/initramfs.sh" "${iargs[@]}" 2>"$work/initramfs.log") || {
	r=$?; fail "$r" "initramfs: $(tail -1 "$work/initramfs.log")"; }
mkdir -p "$work/rd/run.d"
cp "$wl" "$work/rd/run.d/workload.json"
# a second newc archive after the first: the kernel unpacks both
if command -v cpio >/dev/null; then cpio=(cpio --quiet); else cpio=(busybox cpio); fi
(cd "$work/rd" && find run.d | "${cpio[@]}" -o -H newc 2>/dev/null) > "$work/run.cpio" ||
	fail "$EXIT_ENV" "cpio of the workload failed"
cat "$base" "$work/run.cpio" > "$work/initrd"

# ---- qemu ----------------------------------------------------------------------------------------
# ring buffer per CPU: ~2 MB per CPU-second of sched events, as run.sh's kernel backend
buf_kb=$((4096 + run_s * 2048))
[ -n "$mem" ] || mem=$((768 + (buf_kb * cpus * 2) / 1024))
[ "$mem" -le 16384 ] || mem=16384
if [ "$arch" = x86_64 ]; then
	console=ttyS0
	# -cpu max: a 1 s run took 10.5 s of qemu on 4 vCPUs, 15-16 s with the default qemu64
	qargs=(-M pc -cpu max)
else
	console=ttyAMA0
	# cortex-a57: -cpu max is 3x slower under TCG; GICv2 stops at 8 CPUs
	machine=virt
	[ "$cpus" -gt 8 ] && machine=virt,gic-version=3
	qargs=(-M "$machine" -cpu cortex-a57)
fi
cmdline="console=$console panic=-1 rdinit=/init quiet loglevel=4 dlb_buffer_kb=$buf_kb"
[ -n "$dur" ] && cmdline+=" dlb_duration=$dur"
[ -n "$append" ] && cmdline+=" $append"
qargs+=(-accel "tcg,thread=multi" -smp "$cpus" -m "$mem" -nodefaults -no-reboot -display none
	-serial "file:$work/console.log" -monitor none
	-kernel "$kernel" -initrd "$work/initrd" -append "$cmdline"
	-drive "file=$work/results.img,format=raw,if=none,id=out,cache=unsafe"
	-device "virtio-blk-pci,drive=out")
# boot (~2 s arm64, ~5 s x86, more with many CPUs) + the run + saving, with room to spare
[ -n "$tmo" ] || tmo=$((60 + 2 * cpus + 3 * run_s))

# the image's checksum, for guest.txt, while qemu runs
sha256sum < "$kernel" | cut -d' ' -f1 > "$work/image.sha256" &
SHAPID=$!
say "guest: $(basename "$kernel") ($arch, $kind), $cpus CPUs, $(basename "$wl"), up to ${tmo}s"
# boot_once: one boot of the guest on a fresh results disk; sets qrc and wall
boot_once() {
	rm -f "$work/results.img" "$work/console.log"
	truncate -s "${disk_mb}M" "$work/results.img" || fail "$EXIT_ENV" "cannot create the results disk"
	t0=$(date +%s.%N)
	timeout -k 5 "$tmo" "$qemu" "${qargs[@]}" > "$work/qemu.log" 2>&1 &
	QPID=$!
	while :; do
		wait "$QPID"; qrc=$?
		kill -0 "$QPID" 2>/dev/null || break
	done
	QPID=
	wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}
# not_the_run: the panic is not the run's doing (sets why): the kernel failed
# to boot (a panic before /init's first line), or an emulated x86 CPU ran an
# int3 that the kernel's text patching had already taken out again ("Oops:
# int3" at a static branch; multi-threaded TCG, docs/guest.md), which a
# cpuset made or a tracepoint enabled in the run can meet at any time.
not_the_run() {
	grep -q 'Kernel panic' "$work/console.log" 2>/dev/null || return 1
	if ! grep -q '^dlbench-guest: ' "$work/console.log"; then
		why="at boot, before /init"
	elif grep -qE '^\[ *[0-9]+\.[0-9]+\] Oops: int3' "$work/console.log"; then
		why="on an int3 the emulator ran after it was patched out (Oops: int3)"
	else
		return 1
	fi
}
# With --boot-retries such a panic is kept, counted and booted again.
panics=0
while boot_once && [ "$INTR" -eq 0 ] && [ "$panics" -lt "$retries" ] && not_the_run; do
	panics=$((panics + 1))
	cp "$work/console.log" "$out/console-boot-panic-$panics.log"
	echo "$PROG: guest kernel panicked $why, after ${wall}s:" \
		"$(grep -m1 'Kernel panic' "$work/console.log" | tr -d '\r'); booting again" \
		"($panics of $retries; console-boot-panic-$panics.log)" >&2
done
{ printf '%q ' "$qemu" "${qargs[@]}"; echo; } > "$work/qemu-cmd.sh"

[ "$INTR" -eq 0 ] || fail "$EXIT_INCOMPLETE" "interrupted after ${wall}s: qemu stopped"
if grep -q 'Kernel panic' "$work/console.log" 2>/dev/null; then
	fail "$EXIT_INCOMPLETE" "guest kernel panicked after ${wall}s: $(grep -m1 'Kernel panic' "$work/console.log" | tr -d '\r')"
fi
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail "$EXIT_INCOMPLETE" "guest did not power off within ${tmo}s (hung? see $out/console.log)"
fi
[ "$qrc" -eq 0 ] || fail "$EXIT_ENV" "$qemu failed (exit $qrc): $(tail -1 "$work/qemu.log")"

# ---- the results ---------------------------------------------------------------------------------
mkdir -p "$work/x"
tar -xf "$work/results.img" -C "$work/x" 2>"$work/tar.log" ||
	fail "$EXIT_INCOMPLETE" "no results on the guest's disk (guest stopped before writing them? see $out/console.log)"
if [ ! -r "$work/x/status" ] || [ ! -r "$work/x/run/guest.txt" ]; then
	fail "$EXIT_INCOMPLETE" "results on the guest's disk are incomplete (no status)"
fi
grep -q '^disk_full=' "$work/x/status" &&
	fail "$EXIT_INCOMPLETE" "results did not fit the results disk ($(sed -n 's/^disk_full=//p' "$work/x/status")): give --disk-mb more"
rrc=$(sed -n 's/^run_exit=//p' "$work/x/status")
wait "$SHAPID"
g=$work/x/run/guest.txt
gval() { sed -n "s/^$1=//p" "$g" 2>/dev/null; }
if [ "$(gval tracefs)" = no ]; then
	fail "$EXIT_ENV" "guest kernel $(gval kernel) has no tracefs (CONFIG_FTRACE/CONFIG_TRACING): nothing recorded"
fi
if [ "$(gval cpuset)" = no ] && [ "${rrc:-0}" != 0 ] && [ -n "${pins_dl:-}" ]; then
	fail "$EXIT_ENV" "guest kernel $(gval kernel) has no cpuset cgroup (CONFIG_CPUSETS): $(basename "$wl")" \
		"pins SCHED_DEADLINE tasks to CPUs, which needs an exclusive cpuset partition"
fi
{
	echo "backend=qemu"
	echo "image=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")"
	echo "image_sha256=$(cat "$work/image.sha256")"
	echo "image_kind=$kind"
	echo "qemu=$qemu"
	echo "qemu_version=$("$qemu" --version | head -1)"
	echo "vcpus=$cpus"
	echo "memory_mb=$mem"
	echo "append=$append"
	echo "wall_s=$wall"
	echo "boot_panics=$panics"
	echo "run_exit=$rrc"
} >> "$g"
cp "$work/console.log" "$work/qemu-cmd.sh" "$work/x/run/"
# into DIR in one go, the summary last: whole or absent
for f in "$work/x/run/"*; do
	[ "$(basename "$f")" = summary.json ] || mv "$f" "$out/"
done
[ -e "$work/x/run/summary.json" ] && mv "$work/x/run/summary.json" "$out/"
rm -f "$out/guest-failed.txt"
g=$out/guest.txt

missing=
[ "$(gval sched_debug)" = yes ] || missing+=" sched_debug"
[ "$(gval schedstat)" = yes ] || missing+=" schedstat"
[ -n "$missing" ] && echo "$PROG: guest kernel lacks:$missing (the report has less; docs/guest.md)" >&2
# the accounting at boot, checked by /init before the run (docs/kernel-findings.md 2)
case $(gval boot_dl_accounting) in
finding_repaired) echo "$PROG: kernel finding at boot, repaired before the run: $(gval boot_dl_detail) (guest.txt)" >&2 ;;
finding) echo "$PROG: kernel finding at boot, not repaired: $(gval boot_dl_detail) (guest.txt)" >&2 ;;
esac
if [ -n "$(gval dl_total_bw_after)" ] && [ "$(gval dl_total_bw_before)" != "$(gval dl_total_bw_after)" ]; then
	echo "$PROG: DL bandwidth accounting changed over the run: total_bw $(gval dl_total_bw_before)" \
		"before, $(gval dl_total_bw_after) after (guest.txt)" >&2
fi
if [ "$(gval cpusets_left)" != "" ] && [ "$(gval cpusets_left)" != 0 ]; then
	echo "$PROG: the run left $(gval cpusets_left) cpuset partition(s) in the guest (guest.txt)" >&2
fi
say "guest: $(gval kernel) $(gval arch), $(gval cpus_online) CPUs: run exit $rrc, wall ${wall}s -> $out"
exit "${rrc:-$EXIT_INTERNAL}"
