#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dlbench driver: record -> analyze -> compare -> plot, suites, nightly farm mode.
# ./run.sh --help for the commands; docs/run.md for the result folders.
#
# A thin dispatcher: the parts live in tools/run/ (common.sh: exit codes,
# tools, option values; env.sh: environment checks; runone.sh: one run;
# suite.sh: suites; farm.sh: JUnit/TAP), and the verdict of every run is
# dlb-analyze's (report.json "verdict").  Paths are taken relative to the
# directory run.sh is started from.
#
# Needs bash, coreutils, sed, grep, awk (all in busybox) and the built dlb-*
# tools; gnuplot is optional (plots can be made later on a host: ./run.sh plot).
# trace-cmd, chrt and flock are used when present.
# shellcheck source-path=SCRIPTDIR
set -u
DLB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LC_ALL=C
# shellcheck source=tools/run/common.sh
. "$DLB_SRC/tools/run/common.sh" || exit 3
# shellcheck source=tools/run/env.sh
. "$DLB_SRC/tools/run/env.sh" || exit 3
# shellcheck source=tools/run/runone.sh
. "$DLB_SRC/tools/run/runone.sh" || exit 3
# shellcheck source=tools/run/suite.sh
. "$DLB_SRC/tools/run/suite.sh" || exit 3
# shellcheck source=tools/run/farm.sh
. "$DLB_SRC/tools/run/farm.sh" || exit 3
# shellcheck source=tools/run/validate.sh
. "$DLB_SRC/tools/run/validate.sh" || exit 3
load_exit_codes

: "${DLB_BUILD:=$DLB_SRC/build}"
: "${DLB_RESULTS:=$DLB_SRC/results}"
BIN=${DLB_BIN:-$DLB_BUILD/bin}
trap on_signal INT TERM HUP

# plot_dir DIR: figures of one run folder (plots/plot.sh does the work)
plot_dir() {
	have gnuplot || { echo "run.sh: gnuplot not installed: plots skipped (./run.sh plot DIR later)" >&2; return 0; }
	bash "$DLB_SRC/plots/plot.sh" "$1"
}

# ---- commands ----------------------------------------------------------------------------------
usage() {
	cat <<'USAGE'
usage: ./run.sh [COMMAND] [ARGS]     (COMMAND --help for its options)

  (none)     install what is missing, build, run the smoke suite on the reference
             backend, and on the kernel backend when this machine can (root,
             SCHED_DEADLINE, tracefs); results/DATE-smoke/, a verdict per workload
  run        WORKLOAD.json [--backend kernel|reference|qemu] [-m CPUS] [--duration S]
             [--kernel IMAGE --arch ARCH --append ARGS: qemu, docs/guest.md]
  analyze    DIR|trace.dat|trace.txt: (re-)analyze existing data
  compare    BASE NEW: two result folders or report.json files
  nightly    [--suite NAME] [--baseline DIR] [--junit FILE] [--tap] [--max-duration S]
  validate   --kernel A --kernel B [--suite S] [--cpus N] [--repeat R]: a suite on two
             kernel images under qemu, R runs each, a comparison table per workload,
             exit 1 on regression (docs/guest.md)
  plot       DIR: figures of a result folder (gnuplot)
  ospert     [--quick] [--plot-only DIR]: the OSPERT 2011 push-structure costs (cpudl,
             cpupri, linear scan) on the reference, 2..1024 CPUs, and miss ratio vs U
             on this kernel, or with --kernel IMAGE --cpus LIST on a kernel image under
             qemu; results/ospert-DATE/ (docs/ospert.md)
  test       install what is missing (qemu and two guest kernels too: tools/deps.sh
             --qemu), build, run every test: make check, the sanitizer check and the
             short fuzz runs (make check-all)
  deps       install missing Debian packages (root) or print the command
  help       this text

Exit codes (include/dlbench/exitcode.h):
USAGE
	sed -n 's/^[[:space:]]*X(\([A-Z_]*\),[[:space:]]*\([0-9]*\), "\(.*\)").*/  \2  \1: \3/p' "$EXITH"
	cat <<'USAGE'

Environment: DLB_BIN (the dlb-* tools; default build/bin, then PATH),
DLB_RESULTS (default results/ beside run.sh), DLB_RECORD_FORMAT (dat, text or
auto: dlb-record -f; text streams trace_pipe, for boards without trace-cmd).
USAGE
}

bootstrap() {
	"$DLB_SRC/tools/deps.sh" || exit $?
	make -C "$DLB_SRC" -s -j"$(nproc)" all || exit "$EXIT_ENV"
}

# default: the smoke suite, reference always, kernel when possible
cmd_default() {
	local backends=reference out
	case ${1:-} in -h|--help) usage; return 0 ;; esac
	[ -f "$DLB_SRC/Makefile" ] && bootstrap
	if kernel_capable; then backends="reference kernel"
	else log "kernel backend skipped: $KERNEL_WHY"; fi
	out=$(new_dir "$DLB_RESULTS/$(stamp)-smoke") || die "$EXIT_ENV" "cannot create a folder in $DLB_RESULTS"
	run_suite "$(suite_file smoke)" "$out" "$backends" 0 ""
	ln -sfn "$(basename "$out")" "$DLB_RESULTS/latest" 2>/dev/null
	summary "$out"
}

# check_workload CMD FILE: a workload file the loader takes, checked before anything is
# created; the error names the user's file
check_workload() {
	local cmd=$1 wl=$2 chk msg
	[ -e "$wl" ] || die "$EXIT_BAD_INPUT" "$cmd: $wl: no such file"
	[ -d "$wl" ] && die "$EXIT_BAD_INPUT" "$cmd: $wl: is a directory, not a workload file"
	[ -r "$wl" ] || die "$EXIT_BAD_INPUT" "$cmd: $wl: not readable"
	chk=$(tool dlb-workload) || return 0	# dlb-rtapp checks it again anyway
	msg=$("$chk" -q check "$wl" 2>&1) && return 0
	die "$EXIT_BAD_INPUT" "$cmd: ${msg#dlb-workload: }"
}

QEMU_KERNEL='' QEMU_ARCH='' QEMU_APPEND=''
cmd_run() {
	local wl='' be='' cpus='' dur='' out='' max=0 online kopts='' fmt=''
	while [ $# -gt 0 ]; do
		case $1 in
		-b|--backend)	need_arg run "$@"; be=$2; shift ;;
		-m|--cpus)	need_arg run "$@"; cpus=$2; shift ;;
		-d|--duration)	need_arg run "$@"; dur=$2; shift ;;
		-o|--output)	need_arg run "$@"; out=$2; shift ;;
		-M|--max-misses) need_arg run "$@"; max=$2; shift ;;
		-f|--format)	need_arg run "$@"; fmt=$2; shift ;;
		-k|--kernel)	need_arg run "$@"; QEMU_KERNEL=$2; shift ;;
		-a|--arch)	need_arg run "$@"; QEMU_ARCH=$2; shift ;;
		-A|--append)	need_arg run "$@"; QEMU_APPEND=$2; shift ;;
		-h|--help)	cat <<'EOF2'
usage: ./run.sh run WORKLOAD.json [options]
One workload, recorded (kernel, qemu) or simulated (reference), analyzed, judged and
plotted.

  -b, --backend kernel|reference|qemu  default: kernel when possible, else reference
  -m, --cpus N                    reference: simulated CPUs; qemu: guest CPUs; kernel:
                                  run on CPUs 0..N-1 only, N <= online CPUs (default:
                                  online CPUs)
  -k, --kernel IMAGE              qemu: the kernel image to boot (docs/guest.md)
  -a, --arch x86_64|arm64         qemu: checked against the image (default: the image's)
  -A, --append ARGS               qemu: more kernel command line
  -d, --duration S                run length above 0 (e.g. 2s; default: the workload's)
  -o, --output DIR                run folder (default results/DATE-run-NAME)
  -M, --max-misses N|N%           misses allowed before the verdict fails (default 0)
  -f, --format dat|text           reference: the trace, trace.dat (KernelShark opens it,
                                  as a kernel run's) or trace.txt (default)
EOF2
				return 0 ;;
		-*)	die "$EXIT_BAD_INPUT" "run: unknown option '$1' (try --help)" ;;
		*)	[ -z "$wl" ] || die "$EXIT_BAD_INPUT" "run: one workload only"; wl=$1 ;;
		esac
		shift
	done
	[ -n "$wl" ] || die "$EXIT_BAD_INPUT" "run: no workload given (try --help)"
	case $be in ""|kernel|reference|qemu) ;; *) die "$EXIT_BAD_INPUT" "run: --backend: '$be' is not kernel, reference or qemu" ;; esac
	[ "$be" = qemu ] && [ -z "$QEMU_KERNEL" ] && die "$EXIT_BAD_INPUT" "run: --backend qemu needs --kernel IMAGE"
	[ "$be" != qemu ] && [ -n "$QEMU_KERNEL$QEMU_ARCH$QEMU_APPEND" ] &&
		die "$EXIT_BAD_INPUT" "run: --kernel, --arch, --append are for --backend qemu"
	case $fmt in ""|dat|text) ;; *) die "$EXIT_BAD_INPUT" "run: --format: '$fmt' is not dat or text" ;; esac
	[ -z "$cpus" ] || cpus_ok "$cpus" || die "$EXIT_BAD_INPUT" "run: --cpus: '$cpus' is not a number of CPUs in 1..1024"
	[ -z "$dur" ] || dur_ok "$dur" || die "$EXIT_BAD_INPUT" "run: --duration: '$dur' is not a duration above 0 (e.g. 2s, 500ms)"
	limit_ok "$max" || die "$EXIT_BAD_INPUT" "run: --max-misses: '$max' is not N, N% (0..100) or -1"
	check_workload run "$wl"
	if [ -z "$be" ]; then
		be=reference; kernel_capable && be=kernel
	fi
	online=$(online_cpus)
	# the kernel backend runs on CPUs 0..N-1 (dlb-rtapp -m, docs/rt-app.md)
	if [ "$be" = kernel ] && [ -n "$cpus" ] && [ "$cpus" -gt "$online" ]; then
		die "$EXIT_BAD_INPUT" "run: --cpus $cpus: the kernel backend runs on CPUs 0..N-1 of this machine's $online online CPUs: give N in 1..$online, or simulate $cpus CPUs with --backend reference"
	fi
	[ -n "$fmt" ] && [ "$be" != reference ] &&
		die "$EXIT_BAD_INPUT" "run: --format is for --backend reference (a $be run records trace.dat)"
	[ "$be" = kernel ] && [ -n "$cpus" ] && kopts="-m $cpus"
	[ -n "$fmt" ] && kopts="-f $fmt"
	[ -n "$cpus" ] || cpus=$online
	if [ "$be" = kernel ] && ! kernel_capable; then
		die "$EXIT_ENV" "run: kernel backend impossible here ($KERNEL_WHY): try --backend reference"
	fi
	wl=$(abs_path "$wl")
	if [ -n "$out" ]; then
		out=$(abs_path "$out")
	else
		out=$(new_dir "$DLB_RESULTS/$(stamp)-run-$(basename "$wl" .json)") ||
			die "$EXIT_ENV" "run: cannot create a folder in $DLB_RESULTS"
	fi
	log "run: $be $(basename "$wl") -> $out"
	one_run "$wl" "$be" "$out" "$cpus" "$dur" ok "$max" "*" "" "" "$kopts"
	[ -r "$out/jobs.csv" ] && [ "${QUIET:-0}" -eq 0 ] && sed -n '/^task/,/^$/p' "$out/report.txt"
	[ "$be" = qemu ] && log "$(tail -1 "$out/guest-run.log" 2>/dev/null)"
	# the tool's own message, for the user (the verdict does not read it)
	case $WHY in "run failed"*) grep -v '^#' "$out/run.log" 2>/dev/null | tail -3 >&2 ;; esac
	log "$VERDICT: $WHY"
	log "results: $out"
	return "$VCODE"
}

cmd_analyze() {
	local in=${1:-} ana
	[ -n "$in" ] || { cmd_analyze --help >&2; return "$EXIT_BAD_INPUT"; }
	case $in in -h|--help)
		echo "usage: ./run.sh analyze DIR|trace.dat|trace.txt [dlb-analyze options]"
		echo "Re-analyze a run folder (reports written into it) or a trace (e.g. one"
		echo "recorded around the real rt-app: pass -p TASK=R,D,P for its DL parameters)."
		return 0 ;;
	esac
	shift
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	[ -e "$in" ] || die "$EXIT_BAD_INPUT" "analyze: $in: no such file or folder"
	"$ana" "$@" "$in"
	local rc=$?
	[ -d "$in" ] && [ -r "$in/jobs.csv" ] && plot_dir "$in" >/dev/null 2>&1
	return $rc
}

# compare_suites BASE NEW [OPTIONS]: every BACKEND/WORKLOAD of NEW against BASE's
compare_suites() {
	local base=$1 new=$2 ana r rc worst=$EXIT_OK n=0 nw=0 nok=0 nother=0 nmiss=0 th=()
	shift 2
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	[ -s "$new/thresholds.txt" ] && th=(--thresholds "$new/thresholds.txt")
	for r in "$new"/*/*/report.json; do
		[ -r "$r" ] || continue
		r=${r%/report.json}; r=${r#"$new"/}
		n=$((n + 1))
		if [ ! -r "$base/$r/report.json" ]; then
			echo "$r: not in $base"; nmiss=$((nmiss + 1))
			[ "$worst" -eq 0 ] && worst=$EXIT_BAD_INPUT; continue
		fi
		echo "== $r"
		# the suite's thresholds (kept in the folder), then the command line's
		"$ana" compare "${th[@]}" "$@" "$base/$r" "$new/$r"; rc=$?
		case $rc in 0) nok=$((nok + 1)) ;; "$EXIT_REGRESSION") nw=$((nw + 1)) ;; *) nother=$((nother + 1)) ;; esac
		if [ "$rc" -eq "$EXIT_REGRESSION" ] || [ "$worst" -eq 0 ]; then
			[ "$worst" -ne "$EXIT_REGRESSION" ] && worst=$rc
		fi
	done
	[ "$n" -gt 0 ] || die "$EXIT_BAD_INPUT" "compare: no report.json under $new"
	printf 'compare: %d runs: %d worse, %d not worse, %d not judged, %d not in BASE; exit %d (%s)\n' \
		"$n" "$nw" "$nok" "$nother" "$nmiss" "$worst" "$(exit_text "$worst")"
	return "$worst"
}

cmd_compare() {
	local ana base new
	[ $# -gt 0 ] || { cmd_compare --help >&2; return "$EXIT_BAD_INPUT"; }
	case $1 in -h|--help)
		echo "usage: ./run.sh compare BASE NEW [dlb-analyze compare options, e.g. -t misses=0,0]"
		echo "BASE and NEW: report.json files, run folders, or suite folders (every"
		echo "BACKEND/WORKLOAD in NEW is compared with the same one in BASE, with the"
		echo "thresholds of the suite (NEW/thresholds.txt) before those given here)."
		echo "Runs that differ in duration, workload, backend, CPUs or kernel are named;"
		echo "counts of runs of different lengths are compared as rates."
		return 0 ;;
	esac
	[ $# -ge 2 ] || die "$EXIT_BAD_INPUT" "compare: BASE and NEW needed (try --help)"
	base=$1 new=$2; shift 2
	[ -e "$base" ] || die "$EXIT_BAD_INPUT" "compare: $base: no such file or folder"
	[ -e "$new" ] || die "$EXIT_BAD_INPUT" "compare: $new: no such file or folder"
	ana=$(tool dlb-analyze) || die "$EXIT_ENV" "dlb-analyze not built"
	if [ -f "$new" ] || [ -f "$new/report.json" ]; then
		"$ana" compare "$@" "$base" "$new"; return $?
	fi
	compare_suites "$base" "$new" "$@"
}

cmd_plot() {
	local d=${1:-} r n=0
	[ -n "$d" ] || { cmd_plot --help >&2; return "$EXIT_BAD_INPUT"; }
	case $d in -h|--help)
		echo "usage: ./run.sh plot DIR"
		echo "PNG and SVG figures into DIR/plots/ (a run folder) or into each run folder of a suite."
		return 0 ;;
	esac
	have gnuplot || die "$EXIT_ENV" "plot: gnuplot not installed"
	[ -d "$d" ] || die "$EXIT_BAD_INPUT" "plot: $d: not a folder"
	if [ -r "$d/jobs.csv" ]; then
		plot_dir "$d"; return $?
	fi
	for r in "$d"/*/*/jobs.csv; do
		[ -r "$r" ] || continue
		n=$((n + 1)); plot_dir "$(dirname "$r")" || return $?
	done
	[ "$n" -gt 0 ] || die "$EXIT_BAD_INPUT" "plot: no jobs.csv in $d (analyze it first)"
}

cmd_nightly() {
	local suite=nightly baseline='' junitf='' dotap=0 maxd=0 backends='' out='' sfile rc
	while [ $# -gt 0 ]; do
		case $1 in
		-s|--suite)	need_arg nightly "$@"; suite=$2; shift ;;
		-B|--baseline)	need_arg nightly "$@"; baseline=$(abs_path "$2"); shift ;;
		-j|--junit)	need_arg nightly "$@"; junitf=$(abs_path "$2"); shift ;;
		-T|--tap)	dotap=1 ;;
		-D|--max-duration) need_arg nightly "$@"
				dur_ok "$2" || die "$EXIT_BAD_INPUT" "nightly: --max-duration: '$2' is not a duration above 0"
				maxd=$(dur_secs "$2"); shift ;;
		-b|--backend)	need_arg nightly "$@"
				case $2 in kernel|reference) ;; *) die "$EXIT_BAD_INPUT" "nightly: --backend: '$2' is not kernel or reference" ;; esac
				backends="$backends $2"; shift ;;
		-o|--output)	need_arg nightly "$@"; out=$(abs_path "$2"); shift ;;
		-h|--help)	cat <<'EOF2'
usage: ./run.sh nightly [options]
Unattended: no prompts, bounded run time, results kept by date, exit code for the farm.

  -s, --suite NAME|FILE        suite (default nightly; workloads/suites/NAME.suite)
  -B, --baseline DIR           compare each run with DIR/BACKEND/WORKLOAD (a former nightly)
  -j, --junit FILE             JUnit XML, one testcase per workload and backend
  -T, --tap                    TAP on stdout (progress goes to stderr)
  -D, --max-duration S         time budget: workloads that would overrun it are skipped
  -b, --backend NAME           kernel or reference (repeatable; default: both when possible)
  -o, --output DIR             result folder (default results/DATE-SUITE)
EOF2
				return 0 ;;
		*)	die "$EXIT_BAD_INPUT" "nightly: unknown argument '$1' (try --help)" ;;
		esac
		shift
	done
	sfile=$(suite_file "$suite") || die "$EXIT_BAD_INPUT" "nightly: no suite '$suite'"
	suite_lines "$sfile" > /dev/null || die "$EXIT_BAD_INPUT" "nightly: $sfile: not run"
	[ -z "$baseline" ] || [ -d "$baseline" ] || die "$EXIT_BAD_INPUT" "nightly: --baseline: $baseline: no such folder"
	if [ -z "$backends" ]; then
		backends=reference
		if kernel_capable; then backends="reference kernel"
		else echo "nightly: kernel backend skipped: $KERNEL_WHY" >&2; fi
	fi
	if [ -z "$out" ]; then
		out=$(new_dir "$DLB_RESULTS/$(stamp)-$(basename "$sfile" .suite)") ||
			die "$EXIT_ENV" "nightly: cannot create a folder in $DLB_RESULTS"
	fi
	if [ "$dotap" -eq 1 ]; then
		run_suite "$sfile" "$out" "$backends" "$maxd" "$baseline" >&2
		summary "$out" >&2; rc=$?
		tap "$out" | tee "$out/results.tap"
	else
		run_suite "$sfile" "$out" "$backends" "$maxd" "$baseline"
		summary "$out"; rc=$?
		tap "$out" > "$out/results.tap"
	fi
	junit "$out" "$out/junit.xml" "$(basename "$sfile" .suite)"
	[ -n "$junitf" ] && cp "$out/junit.xml" "$junitf"
	ln -sfn "$(basename "$out")" "$DLB_RESULTS/latest" 2>/dev/null
	return "$rc"
}

cmd_validate() {
	local kernels=() suites=() reps=3 cpus='' dur='' out='' junitf='' dotap=0 only='' s f rc
	while [ $# -gt 0 ]; do
		case $1 in
		-k|--kernel)	need_arg validate "$@"; kernels+=("$2"); shift ;;
		-s|--suite)	need_arg validate "$@"; suites+=("$2"); shift ;;
		-m|--cpus)	need_arg validate "$@"; cpus=$2; shift ;;
		-r|--repeat)	need_arg validate "$@"; reps=$2; shift ;;
		-d|--duration)	need_arg validate "$@"; dur=$2; shift ;;
		-a|--arch)	need_arg validate "$@"; QEMU_ARCH=$2; shift ;;
		-A|--append)	need_arg validate "$@"; QEMU_APPEND=$2; shift ;;
		-o|--output)	need_arg validate "$@"; out=$(abs_path "$2"); shift ;;
		-j|--junit)	need_arg validate "$@"; junitf=$(abs_path "$2"); shift ;;
		-T|--tap)	dotap=1 ;;
		-C|--compare-only) need_arg validate "$@"; only=$(abs_path "$2"); shift ;;
		-h|--help)	cat <<'EOF2'
usage: ./run.sh validate --kernel A --kernel B [options]
Runs a suite on two kernel images under qemu (A: the baseline, B: the patched one),
each workload R times on each (A and B in turn), then compares B's runs with A's
per workload: medians against the suite's thresholds, and a change counts only
when a one-sided Mann-Whitney test agrees (p <= 0.05: with 3 runs a side, every
run of B worse than every run of A).  Exit 1 if anything got worse.

  -k, --kernel IMAGE        twice: A, then B (docs/guest.md: which images)
  -s, --suite NAME|FILE     repeatable (default: smoke and multicpu); entries of
                            backend both or kernel run, on their CPUs column
  -m, --cpus N              guest CPUs for every entry instead
  -r, --repeat R            runs per workload and kernel (default 3: the fewest
                            with which the rank test can decide)
  -d, --duration S          run length of every entry instead of the suite's
  -a, --arch x86_64|arm64   checked against both images (default: the images')
  -A, --append ARGS         more kernel command line for both
  -o, --output DIR          result folder (default results/DATE-validate)
  -j, --junit FILE          JUnit XML, one testcase per workload
  -T, --tap                 TAP on stdout (progress goes to stderr)
  -C, --compare-only DIR    compare again the runs of a former validate folder
EOF2
				return 0 ;;
		*)	die "$EXIT_BAD_INPUT" "validate: unknown argument '$1' (try --help)" ;;
		esac
		shift
	done
	[[ $reps =~ ^[1-9][0-9]?$ ]] || die "$EXIT_BAD_INPUT" "validate: --repeat: '$reps' is not a number in 1..64"
	[ "$reps" -le 64 ] || die "$EXIT_BAD_INPUT" "validate: --repeat: '$reps' is not a number in 1..64"
	[ -z "$cpus" ] || cpus_ok "$cpus" || die "$EXIT_BAD_INPUT" "validate: --cpus: '$cpus' is not a number of CPUs in 1..1024"
	[ -z "$dur" ] || dur_ok "$dur" || die "$EXIT_BAD_INPUT" "validate: --duration: '$dur' is not a duration above 0 (e.g. 2s, 500ms)"
	if [ -n "$only" ]; then
		[ -s "$only/entries.txt" ] || die "$EXIT_BAD_INPUT" "validate: --compare-only: $only: not a validate folder (no entries.txt)"
		out=$only
	else
		[ "${#kernels[@]}" -eq 2 ] || die "$EXIT_BAD_INPUT" "validate: give --kernel twice (A, the baseline, then B)"
		for f in "${kernels[@]}"; do
			{ [ -f "$f" ] && [ -r "$f" ]; } || die "$EXIT_BAD_INPUT" "validate: $f: not a readable file"
			# the image checks of a guest run, before any folder or run: one line, exit 2
			"$DLB_SRC/guest/run-guest.sh" --check-image -k "$f" ${QEMU_ARCH:+-a "$QEMU_ARCH"} \
				> /dev/null || exit
		done
		[ "${#suites[@]}" -gt 0 ] || suites=(smoke multicpu)
		for s in "${!suites[@]}"; do
			f=$(suite_file "${suites[$s]}") || die "$EXIT_BAD_INPUT" "validate: no suite '${suites[$s]}'"
			suites[s]=$f
		done
		if [ -z "$out" ]; then
			out=$(new_dir "$DLB_RESULTS/$(stamp)-validate") ||
				die "$EXIT_ENV" "validate: cannot create a folder in $DLB_RESULTS"
		fi
		validate_setup "$out" "$(abs_path "${kernels[0]}")" "$(abs_path "${kernels[1]}")" "${suites[@]}"
		if [ "$dotap" -eq 1 ]; then validate_runs "$out" "$reps" "$cpus" "$dur" >&2
		else validate_runs "$out" "$reps" "$cpus" "$dur"; fi
	fi
	if [ "$dotap" -eq 1 ]; then validate_compare "$out" >&2; rc=$?
	else validate_compare "$out"; rc=$?; fi
	validate_farm "$out" "$dotap"
	[ -n "$junitf" ] && cp "$out/junit.xml" "$junitf"
	return "$rc"
}

cmd_test() {
	case ${1:-} in
	-h|--help)
		echo "usage: ./run.sh test"
		echo "Install what is missing (qemu and two guest kernels too: tools/deps.sh --qemu), build,"
		echo "run every test: make check, the sanitizer check and the short fuzz runs (as CI does)."
		return 0 ;;
	"")	;;
	*)	die "$EXIT_BAD_INPUT" "test: unknown argument '$1' (try --help)" ;;
	esac
	bootstrap
	# qemu, the arm64 cross toolchain and two Debian kernels for the guest tests;
	# without them those tests skip, counted
	"$DLB_SRC/tools/deps.sh" --qemu ||
		echo "run.sh: guest (qemu) test prerequisites incomplete: those tests skip" >&2
	exec "$DLB_SRC/tests/check-all.sh"
}

cmd_deps() {
	case ${1:-} in -h|--help)
		echo "usage: ./run.sh deps"
		echo "Install the missing Debian packages (as root), or print the apt-get command."
		return 0 ;;
	esac
	exec "$DLB_SRC/tools/deps.sh" "$@"
}

verb=${1:-}
[ $# -gt 0 ] && shift
case $verb in
test)		cmd_test "$@" ;;
deps)		cmd_deps "$@" ;;
ospert)		case ${1:-} in -h|--help) ;; *) bootstrap ;; esac
		OSPERT_CMD="./run.sh ospert" exec "$DLB_SRC/bench/ospert/run.sh" "$@" ;;
help|-h|--help)	usage ;;
"")		cmd_default "$@" ;;
run)		cmd_run "$@" ;;
analyze)	cmd_analyze "$@" ;;
compare)	cmd_compare "$@" ;;
nightly)	cmd_nightly "$@" ;;
validate)	cmd_validate "$@" ;;
plot)		cmd_plot "$@" ;;
*)		echo "run.sh: unknown command '$verb'" >&2; usage >&2; exit "$EXIT_BAD_INPUT" ;;
esac
