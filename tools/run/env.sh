# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh's environment checks and records: can this machine run the kernel
# backend, the machine lock, env.txt, the sched debug snapshots.
# Sourced by run.sh (common.sh first); tested by tests/run_lib.sh.
# Globals set here are read by run.sh and the other parts:
# shellcheck disable=SC2034

tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -w "$d/trace_marker" ] && { echo "$d"; return 0; }
	done
	[ "$(id -u)" -eq 0 ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		{ echo /sys/kernel/tracing; return 0; }
	return 1
}
# kernel_capable: root, tracefs, SCHED_DEADLINE; sets KERNEL_WHY when not
kernel_capable() {
	KERNEL_WHY=
	if [ "$(id -u)" -ne 0 ]; then KERNEL_WHY="not root"; return 1; fi
	if ! tracefs_dir >/dev/null; then KERNEL_WHY="no tracefs"; return 1; fi
	if have chrt && ! chrt -d --sched-runtime 100000 --sched-deadline 1000000 \
		--sched-period 1000000 0 true 2>/dev/null; then
		KERNEL_WHY="SCHED_DEADLINE refused (chrt -d)"; return 1
	fi
	need_tool dlb-record 2>/dev/null || { KERNEL_WHY="dlb-record not built"; return 1; }
	return 0
}
# The machine lock every SCHED_DEADLINE/tracing user takes (admission and
# the buffer are global).  Already ours when DLB_LOCKED is set, or when one
# of our ancestors holds it (`flock /tmp/dlbench-kernel.lock ./run.sh ...`,
# as a farm serialises its jobs: taking it again would wait for ever).
# Otherwise it waits, saying so once.
KERNEL_LOCK=${KERNEL_LOCK:-/tmp/dlbench-kernel.lock}
kernel_lock() {
	[ -n "${DLB_LOCKED:-}" ] && return 0
	have flock || return 0
	exec 8>"$KERNEL_LOCK"
	if ! flock -n 8; then
		if lock_held_by_ancestor "$KERNEL_LOCK"; then
			exec 8>&-
			export DLB_LOCKED=1
			return 0
		fi
		echo "run.sh: waiting for $KERNEL_LOCK (another kernel run or test holds it)" >&2
		flock 8
	fi
	export DLB_LOCKED=1
}

# lock_held_by_ancestor FILE: a process above this shell holds FILE's flock
# (/proc/locks names the holder's pid and the file's inode)
lock_held_by_ancestor() {
	local ino pid holders=" " stat
	ino=$(stat -c %i "$1" 2>/dev/null) || return 1
	while read -r _ kind _ _ pid dev _; do
		[ "$kind" = FLOCK ] && [ "${dev##*:}" = "$ino" ] && holders+="$pid "
	done </proc/locks
	[ "$holders" = " " ] && return 1
	pid=$PPID
	while [ "${pid:-0}" -gt 1 ]; do
		[[ $holders == *" $pid "* ]] && return 0
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
		stat=${stat##*) }		# after "pid (comm) ": state ppid ...
		read -r _ pid _ <<<"$stat"
	done
	return 1
}

online_cpus() { getconf _NPROCESSORS_ONLN 2>/dev/null || nproc; }

# kconfig_irq_time: CONFIG_IRQ_TIME_ACCOUNTING of the kernel config on stdin: y,
# n (not set, or absent: the arch has no such option), unknown (no config).  The
# conformance replay charges interrupt time to the task they interrupt unless y
# (docs/conformance.md "Unavailable time").
kconfig_irq_time() {
	awk 'NF { seen = 1 } /^CONFIG_IRQ_TIME_ACCOUNTING=y$/ { y = 1 }
	     END { print y ? "y" : seen ? "n" : "unknown" }'
}
# kconfig: the running kernel's config, when the board has it (zcat is optional)
kconfig() {
	if [ -r "/boot/config-$(uname -r)" ]; then cat "/boot/config-$(uname -r)"
	elif [ -r /proc/config.gz ] && have zcat; then zcat /proc/config.gz
	fi
}

# fair_server_env: the fair servers' reservation (6.12 on: debugfs
# sched/fair_server/cpuN/{runtime,period}, ns), as env.txt lines: one pair
# when every CPU has the same, else one pair per CPU; nothing when debugfs
# does not say (the analyzer then takes the kernel's default,
# docs/conformance.md "Unavailable time").
fair_server_env() {
	local d=/sys/kernel/debug/sched/fair_server c r p lines='' first='' same=1
	for c in "$d"/cpu[0-9]*; do
		r=$(cat "$c/runtime" 2>/dev/null) && p=$(cat "$c/period" 2>/dev/null) || return 0
		[[ $r =~ ^[0-9]+$ && $p =~ ^[0-9]+$ ]] || return 0
		[ -z "$first" ] && first="$r $p"
		[ "$first" = "$r $p" ] || same=0
		lines+="fair_server_${c##*/}_runtime_ns=$r"$'\n'"fair_server_${c##*/}_period_ns=$p"$'\n'
	done
	[ -n "$first" ] || return 0
	if [ "$same" -eq 1 ]; then
		echo "fair_server_runtime_ns=${first% *}"
		echo "fair_server_period_ns=${first#* }"
	else
		printf '%s' "$lines"
	fi
}

write_env() {	# write_env FILE BACKEND
	local f=$1
	{
		echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "backend=$2"
		echo "uname=$(uname -a)"
		echo "kernel=$(uname -r)"
		echo "arch=$(uname -m)"
		echo "cpus_online=$(online_cpus)"
		echo "sched_rt_runtime_us=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)"
		echo "sched_rt_period_us=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null)"
		echo "dlbench_version=$(cat "$DLB_SRC/VERSION" 2>/dev/null)"
		echo "git=$(git -C "$DLB_SRC" describe --always --dirty 2>/dev/null)"
		echo "preempt=$(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1)"
		echo "config_IRQ_TIME_ACCOUNTING=$(kconfig | kconfig_irq_time)"
		fair_server_env
		kconfig | sed -n 's/^CONFIG_\(PREEMPT[A-Z_]*\|HZ\|HZ_[0-9]*\|NO_HZ[A-Z_]*\|SCHEDSTATS\|SCHED_DEBUG\|NR_CPUS\|CPUSETS\|RT_GROUP_SCHED\)=\(.*\)/config_\1=\2/p'
	} > "$f"
}

# sched debug snapshot (per-CPU dl_rq, dl_bw) when debugfs has it
snap_sched() {	# snap_sched DIR WHEN
	local f=/sys/kernel/debug/sched/debug
	[ -r "$f" ] || { [ "$(id -u)" -eq 0 ] && mount -t debugfs none /sys/kernel/debug 2>/dev/null; }
	[ -r "$f" ] && cat "$f" > "$1/sched-debug-$2.txt" 2>/dev/null
	return 0
}
