# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# One run: the workload on a backend into a run folder, then dlb-analyze,
# which writes the verdict (report.json "verdict", verdict.txt).  Nothing
# here judges: read_verdict only reads what dlb-analyze decided.
# Sourced by run.sh (common.sh, env.sh first); tested by tests/run_lib.sh.
# Globals set here are read by run.sh and the other parts:
# shellcheck disable=SC2034

# run_reference DIR WL CPUS DURATION [OPTIONS]: the reference backend (dlb-rtapp -b
# reference); OPTIONS: more dlb-rtapp options (run.sh run's -f dat)
run_reference() {
	local dir=$1 wl=$2 cpus=$3 dur=$4 rtapp dargs=()
	[ -n "$dur" ] && dargs=(-d "$dur")
	# shellcheck disable=SC2206 # options, split on purpose
	[ -n "${5:-}" ] && dargs+=($5)
	rtapp=$(tool dlb-rtapp) || { echo "run.sh: dlb-rtapp not built" > "$dir/run.log"; return "$EXIT_ENV"; }
	cmd_log "$dir" "$rtapp" -q -b reference -m "$cpus" -o "$dir" "${dargs[@]}" "$wl"
	run_bg "$rtapp" -q -b reference -m "$cpus" -o "$dir" "${dargs[@]}" "$wl" > "$dir/run.log" 2>&1
}

# run_kernel DIR WL DURATION [OPTIONS]: the generator on this kernel, inside dlb-record's
# instance; OPTIONS: a suite entry's dlb-rtapp options (workloads/suites/README.md)
run_kernel() {
	local dir=$1 wl=$2 dur=$3 rtapp rec secs kb dargs=() oargs=()
	# shellcheck disable=SC2206 # a suite's dlb-rtapp options, split on purpose
	[ -n "${4:-}" ] && oargs=($4)
	rtapp=$(tool dlb-rtapp) || { echo "run.sh: dlb-rtapp not built" > "$dir/run.log"; return "$EXIT_ENV"; }
	rec=$(tool dlb-record) || { echo "run.sh: dlb-record not built" > "$dir/run.log"; return "$EXIT_ENV"; }
	[ -n "$dur" ] && dargs=(-d "$dur")
	secs=$(dur_secs "${dur:-10s}")
	# ~2 MB per CPU-second of sched events, measured on a busy 2-CPU run; lost events are reported
	kb=$((4096 + secs * 2048))
	# shellcheck disable=SC2016 # expanded by that bash, from dlb-record's environment
	local rec_cmd=("$rec" -q -o "$dir" -b "$kb" -f "${DLB_RECORD_FORMAT:-auto}" -- bash -c 'exec "$0" -t "$DLB_TRACE_MARKER" "$@"'
		"$rtapp" -q -b kernel -o "$dir" "${dargs[@]}" "${oargs[@]}" "$wl")
	kernel_lock
	snap_sched "$dir" before
	cmd_log "$dir" timeout -s INT -k 20 $((secs * 3 + 60)) "${rec_cmd[@]}"
	run_bg timeout -s INT -k 20 $((secs * 3 + 60)) "${rec_cmd[@]}" > "$dir/run.log" 2>&1
	local rc=$?
	snap_sched "$dir" after
	return "$rc"
}

# run_qemu DIR WL CPUS DURATION: the generator on a kernel image under qemu (guest/run-guest.sh,
# docs/guest.md; QEMU_KERNEL, QEMU_ARCH, QEMU_APPEND from the command line)
run_qemu() {
	local dir=$1 wl=$2 cpus=$3 dur=$4 rc guest_cmd cfg
	guest_cmd=("$DLB_SRC/guest/run-guest.sh" -k "$QEMU_KERNEL" -c "$cpus" -o "$dir")
	[ -n "${QEMU_ARCH:-}" ] && guest_cmd+=(-a "$QEMU_ARCH")
	[ -n "${QEMU_APPEND:-}" ] && guest_cmd+=(-A "$QEMU_APPEND")
	[ -n "$dur" ] && guest_cmd+=(-d "$dur")
	guest_cmd+=("$wl")
	cmd_log "$dir" "${guest_cmd[@]}"
	run_bg "${guest_cmd[@]}" > "$dir/guest-run.log" 2>&1
	rc=$?
	# the guest's run.log (dlb-rtapp's output) first, then how the guest run ended
	cat "$dir/guest-run.log" >> "$dir/run.log"
	sed 's/^/guest_/' "$dir/guest.txt" >> "$dir/env.txt" 2>/dev/null
	# the guest kernel's interrupt accounting and tick: the config beside its
	# image (the kernel cache's config, a build tree's .config), when there is one
	for cfg in "$(dirname "$QEMU_KERNEL")"/{config,.config}; do
		[ -r "$cfg" ] || continue
		echo "guest_config_IRQ_TIME_ACCOUNTING=$(kconfig_irq_time <"$cfg")" >> "$dir/env.txt"
		sed -n 's/^CONFIG_HZ=\([0-9]*\)$/guest_config_HZ=\1/p' "$cfg" >> "$dir/env.txt"
		break
	done
	return "$rc"
}

# analyze_dir DIR BACKEND [dlb-analyze options]: reports, jobs.csv and the verdict into DIR
analyze_dir() {
	local dir=$1 be=$2 ana args=(-q)
	shift 2
	ana=$(tool dlb-analyze) || { echo "run.sh: dlb-analyze not built" > "$dir/analyze.log"; return "$EXIT_ENV"; }
	[ "$be" = kernel ] && args+=(--kernel "$(uname -r)" --arch "$(uname -m)")
	[ "$be" = qemu ] && args+=(--kernel "$(sed -n 's/^kernel=//p' "$dir/guest.txt" 2>/dev/null)"
				    --arch "$(sed -n 's/^arch=//p' "$dir/guest.txt" 2>/dev/null)")
	cmd_log "$dir" "$ana" "${args[@]}" "$@" "$dir"
	run_bg "$ana" "${args[@]}" "$@" "$dir" > "$dir/analyze.log" 2>&1
}

# read_verdict DIR ANALYZE_RC: VERDICT, VCODE, WHY from DIR/verdict.txt (dlb-analyze's)
read_verdict() {
	local dir=$1 arc=$2
	if [ -r "$dir/verdict.txt" ]; then
		VERDICT=$(sed -n 's/^verdict=//p' "$dir/verdict.txt")
		VCODE=$(sed -n 's/^code=//p' "$dir/verdict.txt")
		WHY=$(sed -n 's/^why=//p' "$dir/verdict.txt")
		[ -n "$VERDICT" ] && [ -n "$VCODE" ] && return 0
	fi
	# no verdict was made: say why, do not make one up
	if [ "$INTERRUPTED" -eq 1 ]; then
		VERDICT=INCOMPLETE VCODE=$EXIT_INCOMPLETE WHY="interrupted"
	else
		VERDICT=ERROR VCODE=$arc WHY="analysis failed (exit $arc): $(tail -1 "$dir/analyze.log" 2>/dev/null)"
		[ "$VCODE" -eq 0 ] && VCODE=$EXIT_INTERNAL
	fi
}

# one_run WL BACKEND DIR CPUS DURATION EXPECT LIMIT WATCH [BASELINE THRESHOLDS [OPTIONS]]:
# run, analyze and judge (dlb-analyze), plot.  WL is the user's file (absolute);
# the run folder keeps a copy.  OPTIONS: dlb-rtapp options (kernel backend: a suite
# entry's; reference: run.sh run's -f).
one_run() {
	local wl=$1 be=$2 dir=$3 cpus=$4 dur=$5 expect=$6 limit=$7 watch=$8 base=${9:-} th=${10:-}
	local opts=${11:-}
	local rrc arc judge=()
	mkdir -p "$dir" || die "$EXIT_ENV" "cannot create $dir"
	cp "$wl" "$dir/workload.json" || die "$EXIT_ENV" "cannot copy $wl into $dir"
	write_env "$dir/env.txt" "$be"
	echo "workload_source=$wl" >> "$dir/env.txt"
	: > "$dir/commands.sh"
	case $be in
	reference)	run_reference "$dir" "$wl" "$cpus" "$dur" "$opts" ;;
	qemu)		run_qemu "$dir" "$wl" "$cpus" "$dur" ;;
	*)		run_kernel "$dir" "$wl" "$dur" "$opts" ;;
	esac
	rrc=$?
	[ "$INTERRUPTED" -eq 1 ] && echo "status=incomplete (interrupted)" >> "$dir/env.txt"
	judge=(--run-exit "$rrc" --expect "$expect" -m "$limit" --watch "$watch")
	[ -n "$base" ] && judge+=(--baseline "$base")
	[ -n "$base" ] && [ -s "$th" ] && judge+=(--thresholds "$th")
	analyze_dir "$dir" "$be" "${judge[@]}"; arc=$?
	read_verdict "$dir" "$arc"
	[ -r "$dir/jobs.csv" ] && plot_dir "$dir" >/dev/null 2>&1
	return 0
}
