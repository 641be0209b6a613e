#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/ospert/run.sh: reproduce the OSPERT 2011 figures (Lelli, Lipari,
# Faggioli, Cucinotta, "An efficient and scalable implementation of global
# EDF in Linux") on the reference scheduler, extend them to 1024 CPUs, and
# run the same generator's task sets on this kernel.  ./run.sh ospert calls
# this; docs/ospert.md explains the figures.
#
#   bench/ospert/run.sh [--quick] [options]     sweep, tables, figures, page
#   bench/ospert/run.sh --plot-only DIR         figures and page again from DIR/data
#
# Output: results/ospert-DATE/ (or -o DIR): sets/ (the task sets), data/
# (costs-*.csv, runs-*.csv from dlb-ospert, kernel.csv), figures/ (PNG and
# SVG), ospert.md (the tables), kernel/ (one ./run.sh run folder per set and
# backend), command.txt.  Needs bash, awk, the built tools; gnuplot for figures.
set -u
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../../tools/csv.sh"	# csv_awk: CSV columns by name
src=$(cd "$here/../.." && pwd)
: "${DLB_BUILD:=$src/build}"
BIN=${DLB_BIN:-$DLB_BUILD/bin}
: "${DLB_RESULTS:=$src/results}"

# the paper's sweep
cpus="2 4 8 16 24 32 40 48"
utils="0.6 0.7 0.8"
sets=20
dur=10s
# the extension (same sets; fewer and shorter by default: a 1024-CPU set of
# 10 s takes ~40 s of this machine per run, and two runs are made)
ext_cpus="64 128 256 512 1024"
ext_sets=5
ext_dur=2s
# the kernel sweep: U per CPU on this machine's CPUs
k_utils="0.3 0.5 0.6 0.7 0.8 0.85 0.9 0.95"
k_sets=2
k_dur=10
kernel=1
image=
garch=
force=0
out=
plot_only=
quick=0
seed=2011

usage() {
	cat <<EOF
usage: ${OSPERT_CMD:-bench/ospert/run.sh} [--quick] [options]
       ${OSPERT_CMD:-bench/ospert/run.sh} --plot-only DIR
The OSPERT 2011 push-structure costs (cpudl heap, cpupri, linear scan) on the
reference scheduler against the CPU count, extended to 1024 CPUs, and the
same generator's task sets on this kernel against the utilisation.

  --quick              about a minute: 5 sets, 5 s, CPUs 2 4 8 16 32 48,
                       extension 128 512 1024 (3 sets, 1 s), kernel U 0.5 0.8
                       0.95 (1 set, 3 s); with --kernel: CPUs 2, 1 set of 1 s
                       per U 0.6 0.8, no extension, kernel U 0.2 0.4 (1 set, 1 s)
  --kernel IMAGE       the kernel sweep on this kernel image under qemu (guest/
                       run-guest.sh, docs/guest.md) instead of this machine's
                       kernel: once per guest CPU count of --cpus (default 2 4 8;
                       no extension); refused when the guest's work, CPUs x the
                       highest kernel U/CPU, exceeds this host's free cores
  --arch ARCH          x86_64 or arm64, checked against --kernel's image
  --force              run a guest sweep the host's free cores cannot carry
  -o, --output DIR     result folder (default results/ospert-DATE)
  --cpus "LIST"        CPU counts of the paper's sweep (default 2 4 8 16 24 32 40 48)
  --utils "LIST"       utilisation per CPU (default 0.6 0.7 0.8)
  --sets N             task sets per CPU count and utilisation (default 20)
  --duration DUR       simulated time per set (default 10s)
  --ext-cpus "LIST"    extension CPU counts (default 64 128 256 512 1024; "" none)
  --ext-sets N         sets per point in the extension (default 5)
  --ext-duration DUR   simulated time per set in the extension (default 2s)
  --kernel-utils "LIST" U per CPU for the kernel sweep (default 0.3 .. 0.95)
  --kernel-sets N      sets per U (default 2)
  --kernel-duration S  seconds per kernel run (default 10)
  --no-kernel          skip the kernel sweep
  --seed N             first seed (default 2011)
  --plot-only DIR      redo figures and ospert.md from DIR/data
EOF
}

die() { local c=$1; shift; echo "ospert: $*" >&2; exit "$c"; }
fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

cmdline="$*"
# overrides given on the command line win over --quick whatever the order
declare -A given
while [ $# -gt 0 ]; do
	# a missing value is the usage error (exit 2), not bash's $2 (exit 1)
	case $1 in
	-o|--output|--cpus|--utils|--sets|--duration|--ext-cpus|--ext-sets|--ext-duration|\
	--kernel-utils|--kernel-sets|--kernel-duration|--seed|--plot-only|--kernel|--arch)
		[ $# -ge 2 ] || die 2 "option '$1' needs a value (try --help)" ;;
	esac
	case $1 in
	--quick)	quick=1 ;;
	-o|--output)	out=$2; shift ;;
	--cpus)		cpus=$2; given[cpus]=1; shift ;;
	--utils)	utils=$2; given[utils]=1; shift ;;
	--sets)		sets=$2; given[sets]=1; shift ;;
	--duration)	dur=$2; given[dur]=1; shift ;;
	--ext-cpus)	ext_cpus=$2; given[ext_cpus]=1; shift ;;
	--ext-sets)	ext_sets=$2; given[ext_sets]=1; shift ;;
	--ext-duration)	ext_dur=$2; given[ext_dur]=1; shift ;;
	--kernel-utils)	k_utils=$2; given[k_utils]=1; shift ;;
	--kernel-sets)	k_sets=$2; given[k_sets]=1; shift ;;
	--kernel-duration) k_dur=$2; given[k_dur]=1; shift ;;
	--no-kernel)	kernel=0 ;;
	--kernel)	image=$2; shift ;;
	--arch)		garch=$2; shift ;;
	--force)	force=1 ;;
	--seed)		seed=$2; shift ;;
	--plot-only)	plot_only=$2; shift ;;
	-h|--help)	usage; exit 0 ;;
	*)		die 2 "unknown option '$1' (try --help)" ;;
	esac
	shift
done
# default NAME VALUE: NAME=VALUE unless its option was given
default() {
	[ -n "${given[$1]:-}" ] || printf -v "$1" '%s' "$2"
}
if [ -n "$image" ]; then
	# a guest's CPUs are few and emulated: the paper's counts where it can boot
	default cpus "2 4 8"
	default ext_cpus ''
fi
if [ "$quick" -eq 1 ] && [ -n "$image" ]; then
	default cpus 2
	default utils "0.6 0.8"
	default sets 1
	default dur 1s
	default k_utils "0.2 0.4"
	default k_sets 1
	default k_dur 1
elif [ "$quick" -eq 1 ]; then
	default cpus "2 4 8 16 32 48"
	default sets 5
	default dur 5s
	default ext_cpus "128 512 1024"
	default ext_sets 3
	default ext_dur 1s
	default k_utils "0.5 0.8 0.95"
	default k_sets 1
	default k_dur 3
fi
for n in "$sets" "$ext_sets" "$k_sets" "$k_dur" "$seed"; do
	case $n in ''|*[!0-9]*) die 2 "'$n' is not a whole number" ;; esac
done
if [ -n "$image" ] && [ -z "$plot_only" ]; then
	[ "$kernel" -eq 1 ] || die 2 "--kernel and --no-kernel contradict each other"
	for m in $cpus; do
		case $m in ''|*[!0-9]*|0*) die 2 "--cpus: '$m' is not a number of guest CPUs in 1..64" ;; esac
		[ "$m" -le 64 ] || die 2 "--cpus: '$m' is not a number of guest CPUs in 1..64"
	done
	# the image, as a guest run checks it: one line, exit 2, before anything is made
	"$src/guest/run-guest.sh" --check-image -k "$image" ${garch:+-a "$garch"} > /dev/null || exit
	image=$(cd "$(dirname "$image")" && pwd)/$(basename "$image")
	# every busy vCPU needs a host core (docs/guest.md): the guest's work, M x U, must fit
	# in this host's cores less half a core (qemu's own threads, the recorder) or the
	# sweep measures the emulator; the load of the moment is only warned about (it is
	# others' and changes)
	if [ "$force" -eq 0 ]; then
		read -r need what <<< "$(echo "$cpus" | tr ' ' '\n' | sort -n | tail -1 |
			awk -v l="$k_utils" '{ n = split(l, u, " "); x = 0
				for (i = 1; i <= n; i++) if (u[i] + 0 > x) x = u[i] + 0
				printf "%.2f %d_CPUs_x_U/CPU_%s\n", $1 * x, $1, x }')"
		ncore=$(getconf _NPROCESSORS_ONLN)
		have=$(awk -v c="$ncore" 'BEGIN { printf "%.2f\n", c - 0.5 }')
		awk -v n="$need" -v h="$have" 'BEGIN { exit !(n > h) }' &&
			die 3 "the guest's work needs $need host CPUs (${what//_/ }), this host can give $have ($ncore online less 0.5 for qemu and the recorder): fewer --cpus, lower --kernel-utils, a bigger host, or --force"
		read -r load _ < /proc/loadavg
		awk -v n="$need" -v c="$ncore" -v l="$load" 'BEGIN { exit !(n > c - l) }' &&
			echo "ospert: warning: the host's load ($load on $ncore CPUs) leaves less than the guest's work ($need CPUs): expect emulator misses" >&2
	fi
fi

# ---- figures and page --------------------------------------------------------------------------
# box data: one row per CPU count: idx cpus min p25 p50 p75 max mean p99 (group "all")
box_data() {	# box_data COSTS STRUCT OP CPULIST
	csv_awk -v s="$2" -v op="$3" -v list="$4" '
		BEGIN { n = split(list, c, " "); for (i = 1; i <= n; i++) idx[c[i]] = i - 1 }
		FNR > 1 && v("group") == "all" && v("struct") == s && v("op") == op && (v("cpus") in idx) {
			print idx[v("cpus")], v("cpus"), v("min"), v("p25"), v("p50"), v("p75"), v("max"),
				v("mean"), v("p99") }' "$1" | sort -n
}

plot_all() {	# plot_all DIR
	local d=$1 data=$1/data fig=$1/figures unit list ext pow2 s op fmt
	[ -r "$data/costs.csv" ] || die 2 "$data/costs.csv: none (run the sweep first)"
	mkdir -p "$fig" || die 3 "$fig: cannot create"
	unit=$(csv_awk 'FNR == 2 { print v("unit"); exit }' "$data/costs.csv")
	list=$(cat "$data/cpus.txt" 2>/dev/null)
	ext=$(cat "$data/ext_cpus.txt" 2>/dev/null)
	# the log-axis figure: the powers of two of the paper's counts (24, 40, 48 would crowd it)
	pow2=$(for m in $list; do [ $((m & (m - 1))) -eq 0 ] && printf '%s ' "$m"; done)
	for s in cpudl cpupri linear; do
		for op in set find; do
			box_data "$data/costs.csv" "$s" "$op" "$list" > "$data/box-$s-$op.dat"
			box_data "$data/costs.csv" "$s" "$op" "$pow2 $ext" > "$data/boxall-$s-$op.dat"
		done
	done
	kernel_table "$d"
	write_page "$d"
	if ! command -v gnuplot >/dev/null; then
		echo "ospert: gnuplot not installed: tables in $d/ospert.md, no figures" >&2
		return 0
	fi
	for fmt in png svg; do
		gnuplot -e "fmt='$fmt'; D='$data'; O='$fig'; unit='$unit'; cpulist='$list'" \
			-e "nk=$(awk '{ for (i = 2; i <= 9; i++) if ($i != "NaN") n++ } END { print n ? 1 : 0 }' "$data/kernel.dat")" \
			"$here/ospert.gp" || die 3 "gnuplot failed on $here/ospert.gp"
	done
	echo "ospert: figures in $fig"
}

# report.json of a run folder: "jobs misses migrations" of the run block
# (its counts: a number after the key; run.cpu_stalls.jobs is an object)
report_run() {
	awk '/"run": \{/ { r = 1 } r && /"jobs": [0-9]/ { gsub(/[^0-9]/, ""); j = $0 }
		r && /"misses": [0-9]/ { gsub(/[^0-9]/, ""); m = $0 }
		r && /"migrations": [0-9]/ { gsub(/[^0-9]/, ""); g = $0 }
		r && /^  \}/ { print j + 0, m + 0, g + 0; exit }' "$1"
}

# tardiness / period per job from jobs.csv, periods from report.json: "max avg"
tardiness() {	# tardiness RUNDIR
	csv_awk 'FNR == NR { if (/"tid":/) { gsub(/[^0-9]/, ""); t = $0 }
			if (/"period_ns":/) { gsub(/[^0-9]/, ""); p[t] = $0 }; next }
		FNR > 1 && (l = v("lateness_ns")) != "" && ((t = v("tid")) in p) && p[t] > 0 {
			x = (l > 0 ? l : 0) / p[t]; s += x; n++; if (x > m) m = x }
		END { printf "%.6f %.6f\n", m, n ? s / n : 0 }' "$1/report.json" "$1/jobs.csv"
}

# data/kernel.csv (one row per set and backend) -> data/kernel.dat (per CPU count and U,
# both backends; a blank line between CPU counts: one line each in the figure)
kernel_table() {
	local d=$1
	[ -s "$d/data/kernel.csv" ] || { : > "$d/data/kernel.dat"; return 0; }
	# U  k_miss k_tmax k_tavg k_mig  r_miss r_tmax r_tavg r_mig  k_refused k_sets  cpus
	# (folders made before the cpus column: "-")
	csv_awk 'FNR > 1 {
			c = v("cpus"); if (c == "") c = "-"
			u[c SUBSEP v("U")] = 1; key = c SUBSEP v("U") SUBSEP v("backend")
			if (v("status") == "refused") { ref[key]++; next }
			if (v("status") != "ok") { bad[key]++; next }
			jobs[key] += v("jobs"); miss[key] += v("misses"); mig[key] += v("migrations")
			if (v("tard_max") + 0 > tmax[key]) tmax[key] = v("tard_max") + 0
			tsum[key] += v("tard_avg") * v("jobs"); n[key]++ }
		function r(k, what) {
			if (!(k in n) || !jobs[k]) return "NaN"
			if (what == "miss") return miss[k] / jobs[k]
			if (what == "tmax") return tmax[k] + 0
			if (what == "tavg") return tsum[k] / jobs[k]
			return mig[k] / jobs[k] }
		END { for (x in u) {
			k = x SUBSEP "kernel"; q = x SUBSEP "reference"; split(x, cu, SUBSEP)
			printf "%s %s %s %s %s %s %s %s %s %d %d %s\n", cu[2], r(k, "miss"), r(k, "tmax"),
				r(k, "tavg"), r(k, "mig"), r(q, "miss"), r(q, "tmax"), r(q, "tavg"),
				r(q, "mig"), ref[k] + 0, n[k] + 0, cu[1] } }' "$d/data/kernel.csv" |
		sort -k12,12g -k1,1g | awk 'NR > 1 && $12 != last { print "" } { print; last = $12 }' > "$d/data/kernel.dat"
}

write_page() {	# write_page DIR: DIR/ospert.md, the tables behind the figures
	local d=$1 unit
	unit=$(csv_awk 'FNR == 2 { print v("unit"); exit }' "$d/data/costs.csv")
	{
		echo "# OSPERT 2011 push-structure costs: $(basename "$d")"
		echo
		echo "Made by: \`$(cat "$d/command.txt" 2>/dev/null)\`"
		echo
		sed 's/^/    /' "$d/env.txt" 2>/dev/null
		echo
		echo "Cost per call in $unit (the floor of two back-to-back counter reads is the"
		echo "\`timer\` row); median [p25, p75] (min .. max), every set and U of a CPU count pooled."
		echo
		echo "| CPUs | cpudl set | cpupri set | cpudl find | cpupri find | linear find | calls (set/find) |"
		echo "|---:|---|---|---|---|---|---:|"
		csv_awk 'FNR > 1 && v("group") == "all" { k = v("cpus") SUBSEP v("struct") SUBSEP v("op")
				w[k] = sprintf("%d [%d, %d] (%d .. %d)", v("p50"), v("p25"), v("p75"), v("min"),
					       v("max")); c[k] = v("calls"); cp[v("cpus")] = 1 }
			END { for (x in cp) {
				printf "| %d | %s | %s | %s | %s | %s | %s/%s |\n", x,
					w[x SUBSEP "cpudl" SUBSEP "set"], w[x SUBSEP "cpupri" SUBSEP "set"],
					w[x SUBSEP "cpudl" SUBSEP "find"], w[x SUBSEP "cpupri" SUBSEP "find"],
					(x SUBSEP "linear" SUBSEP "find") in w ? w[x SUBSEP "linear" SUBSEP "find"] : "-",
					c[x SUBSEP "cpudl" SUBSEP "set"], c[x SUBSEP "cpudl" SUBSEP "find"] } }' \
			"$d/data/costs.csv" | sort -t'|' -k2 -n
		echo
		csv_awk 'FNR > 1 && v("group") == "all" && v("struct") == "timer" && !(v("op") in p) {
				p[v("op")] = v("p50"); m[v("op")] = v("min"); u = v("unit") }
			END { printf "Timer floor: median %d, min %d %s.", p["empty"], m["empty"], u
				if ("step" in p)
					printf "  Counter step: %d %s, measured at run time (every cost above is a multiple of it).", p["step"], u
				printf "\n\n" }' "$d/data/costs.csv"
		echo "Schedules: $(csv_awk 'FNR > 1 { n++; if (v("heap_linear_same") == "no") bad++; j += v("jobs"); m += v("missed") }
			END { printf "%d set runs, %d jobs, %d missed; heap and linear schedules differ in %d", n, j, m, bad + 0 }' \
			"$d"/data/runs-*.csv 2>/dev/null)."
		echo
		if [ -s "$d/data/kernel.dat" ]; then
			echo "## Kernel ($(cat "$d/data/kernel_env.txt" 2>/dev/null)) and reference, same sets"
			echo
			echo "| CPUs | U/CPU | kernel miss ratio | ref miss ratio | kernel max tard./T | ref max tard./T | kernel avg tard./T | ref avg tard./T | kernel migr./job | ref migr./job | refused by admission |"
			echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
			awk 'NF { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d of %d |\n", $12, $1,
				f($2), f($6), f($3), f($7), f($4), f($8), f($5), f($9), $10, $10 + $11 }
				function f(x) { return x == "NaN" ? "-" : sprintf("%.4f", x) }' "$d/data/kernel.dat"
			echo
		elif [ -r "$d/data/kernel_skip.txt" ]; then
			echo "Kernel sweep skipped: $(cat "$d/data/kernel_skip.txt")"
			echo
		fi
		echo "Figures: figures/set.png, figures/find.png, figures/extension.png, figures/kernel.png (and .svg)."
	} > "$d/ospert.md"
}

if [ -n "$plot_only" ]; then
	[ -d "$plot_only" ] || die 2 "$plot_only: no such folder"
	plot_all "$plot_only"
	exit 0
fi

# ---- the sweep -------------------------------------------------------------------------------
gen=$BIN/dlb-tasksetgen
osp=$BIN/dlb-ospert
{ [ -x "$gen" ] && [ -x "$osp" ]; } || die 3 "$BIN: dlb-tasksetgen or dlb-ospert not built (make)"
: "${out:=$DLB_RESULTS/ospert-$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out/sets" "$out/data" "$out/kernel" || die 3 "$out: cannot create"
out=$(cd "$out" && pwd)
echo "${OSPERT_CMD:-bench/ospert/run.sh}${cmdline:+ $cmdline}" > "$out/command.txt"
{
	echo "host: $(uname -n), $(uname -srm), $(getconf _NPROCESSORS_ONLN) CPUs online"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
	echo "paper sweep: CPUs $cpus; U/CPU $utils; $sets sets; $dur each"
	echo "extension: CPUs ${ext_cpus:-none}; $ext_sets sets; $ext_dur each"
	echo "seed: $seed; version $(cat "$src/VERSION" 2>/dev/null)"
} > "$out/env.txt"
echo "$cpus" > "$out/data/cpus.txt"
echo "$ext_cpus" > "$out/data/ext_cpus.txt"
t_start=$(date +%s)
t_start_ms=$(date +%s%3N)

# weights for the time estimate: a simulation costs ~ CPUs x time, and the
# linear scan's find ~ CPUs more
weight() { awk -v m="$1" -v n="$2" -v d="$3" 'BEGIN { printf "%.0f\n", n * (50 + m * (1 + m / 128) * d) * 1000 }'; }
dsecs() { awk -v s="$1" 'BEGIN { if (s ~ /ms$/) print s / 1000; else if (s ~ /us$/) print s / 1e6;
	else { sub(/s$/, "", s); print s + 0 } }'; }
total_w=0
nu=$(echo "$utils" | wc -w)
for m in $cpus; do total_w=$((total_w + $(weight "$m" $((sets * nu)) "$(dsecs "$dur")"))); done
for m in $ext_cpus; do total_w=$((total_w + $(weight "$m" $((ext_sets * nu)) "$(dsecs "$ext_dur")"))); done
done_w=0
npoints=$(( $(echo "$cpus $ext_cpus" | wc -w) ))
k=0
echo "ospert: $out"
for m in $cpus $ext_cpus; do
	n=$sets d=$dur
	case " $ext_cpus " in *" $m "*) n=$ext_sets d=$ext_dur ;; esac
	args=()
	for u in $utils; do
		prefix=$out/sets/m$m-u$u/set
		mkdir -p "$(dirname "$prefix")"
		# seeds: distinct per CPU count and U, reproducible from --seed
		s=$(awk -v b="$seed" -v m="$m" -v u="$u" 'BEGIN { printf "%d\n", b * 100000 + m * 100 + u * 10 }')
		"$gen" -q -m "$m" --util-per-cpu "$u" --seed "$s" -d 10 -c "$n" -p "$prefix" \
			|| die 3 "dlb-tasksetgen failed for $m CPUs, U $u"
		args+=(-g "$u" "$prefix"-*.json)
	done
	k=$((k + 1))
	t0=$(date +%s%3N)
	echo "ospert: [$k/$npoints] $m CPUs, $n sets x $(echo "$utils" | wc -w) U, $d each ..."
	nice -n 19 "$osp" -m "$m" -d "$d" -o "$out/data/costs-$m.csv" --runs "$out/data/runs-$m.csv" "${args[@]}" \
		|| die $? "dlb-ospert failed at $m CPUs (see above)"
	now=$(date +%s%3N)
	done_w=$((done_w + $(weight "$m" $((n * nu)) "$(dsecs "$d")")))
	left=$(awk -v e=$((now - t_start_ms)) -v a="$done_w" -v t="$total_w" 'BEGIN { printf "%d\n", a ? e * (t - a) / a / 1000 : 0 }')
	echo "ospert: [$k/$npoints] $m CPUs done in $(fmt_secs $(( (now - t0) / 1000 ))); elapsed $(fmt_secs $(( (now - t_start_ms) / 1000 ))), about $(fmt_secs "$left") left for the reference sweep"
done
# one table, one header
files=()
for m in $cpus $ext_cpus; do files+=("$out/data/costs-$m.csv"); done
awk 'FNR == 1 && NR != 1 { next } { print }' "${files[@]}" > "$out/data/costs.csv"

# ---- the kernel sweep ------------------------------------------------------------------------
kernel_skip() { echo "$1" > "$out/data/kernel_skip.txt"; echo "ospert: kernel sweep skipped: $1"; }
# kernel_sets NCPU BACKEND RUNARGS...: the kernel sweep's sets on NCPU CPUs, each run
# on BACKEND (kernel or qemu, "kernel" in kernel.csv) and on the reference
kernel_sets() {
	local ncpu=$1 kbe=$2 u s prefix f be rd rc status j m g tm ta; shift 2
	for u in $k_utils; do
		s=$(awk -v b="$seed" -v u="$u" -v m="$ncpu" 'BEGIN { printf "%d\n", b * 100000 + 90000 + u * 100 + m * 1000 }')
		[ -z "$image" ] && s=$(awk -v b="$seed" -v u="$u" 'BEGIN { printf "%d\n", b * 100000 + 90000 + u * 100 }')
		prefix=$out/sets/kernel-m$ncpu-u$u/set
		mkdir -p "$(dirname "$prefix")"
		"$gen" -q -m "$ncpu" --util-per-cpu "$u" --seed "$s" -d "$k_dur" -c "$k_sets" -p "$prefix" \
			|| die 3 "dlb-tasksetgen failed for the kernel sweep, $ncpu CPUs, U $u"
		for f in "$prefix"-*.json; do
			i=$((i + 1))
			for be in "$kbe" reference; do
				rd=$out/kernel/m$ncpu-u$u-$(basename "$f" .json)-$be
				if [ "$be" = reference ]; then
					QUIET=1 "$src/run.sh" run "$f" -b reference -m "$ncpu" -o "$rd" > "$rd.log" 2>&1
				else
					QUIET=1 "$src/run.sh" run "$f" -b "$be" -m "$ncpu" "$@" -o "$rd" > "$rd.log" 2>&1
				fi
				rc=$?
				status=ok
				if grep -qs 'EBUSY\|sched_setattr: [Ii]nvalid argument\|[Dd]evice or resource busy' "$rd.log" "$rd/run.log"; then
					status=refused
				elif [ ! -r "$rd/report.json" ]; then
					status=failed
				fi
				read -r j m g <<< "$( [ "$status" = ok ] && report_run "$rd/report.json" || echo 0 0 0)"
				read -r tm ta <<< "$( [ "$status" = ok ] && tardiness "$rd" || echo 0 0)"
				[ "$be" = reference ] || be=kernel
				echo "$ncpu,$u,$(basename "$f" .json),$be,$status,$j,$m,$g,$tm,$ta,$rd" >> "$out/data/kernel.csv"
				[ "$status" = failed ] && echo "ospert: $rd: no report (exit $rc; see $rd.log)" >&2
			done
			now=$(date +%s)
			echo "ospert: kernel [$i/$nk] $ncpu CPUs, U/CPU $u $(basename "$f"): elapsed $(fmt_secs $((now - t0))), about $(fmt_secs $(( (now - t0) * (nk - i) / i ))) left"
		done
	done
}

kheader="cpus,U,set,backend,status,jobs,misses,migrations,tard_max,tard_avg,dir"
if [ "$kernel" -eq 0 ]; then
	kernel_skip "--no-kernel given"
elif [ -n "$image" ]; then
	echo "$kheader" > "$out/data/kernel.csv"
	nk=$(( $(echo "$k_utils" | wc -w) * k_sets * $(echo "$cpus" | wc -w) ))
	i=0
	t0=$(date +%s)
	for m in $cpus; do
		kernel_sets "$m" qemu --kernel "$image" ${garch:+--arch "$garch"}
	done
	for g in "$out"/kernel/*-qemu; do break; done
	echo "guest $(sed -n 's/^kernel=//p' "$g/guest.txt" 2>/dev/null) $(sed -n 's/^arch=//p' "$g/guest.txt" 2>/dev/null) under qemu ($(basename "$image"), sha256 $(sha256sum < "$image" | cut -c1-12)), CPUs $cpus" \
		> "$out/data/kernel_env.txt"
elif [ "$(id -u)" -ne 0 ]; then
	kernel_skip "not root"
elif [ ! -r /proc/sys/kernel/sched_rt_runtime_us ]; then
	kernel_skip "no /proc/sys/kernel/sched_rt_runtime_us (no SCHED_DEADLINE here)"
elif command -v chrt >/dev/null && ! chrt -d --sched-runtime 100000 --sched-deadline 1000000 \
	--sched-period 1000000 0 true 2>/dev/null; then
	kernel_skip "SCHED_DEADLINE refused (chrt -d)"
else
	ncpu=$(getconf _NPROCESSORS_ONLN)
	echo "$(uname -r) $(uname -m), $ncpu CPUs, admission $(cat /proc/sys/kernel/sched_rt_runtime_us)/$(cat /proc/sys/kernel/sched_rt_period_us)" \
		> "$out/data/kernel_env.txt"
	echo "$kheader" > "$out/data/kernel.csv"
	nk=$(( $(echo "$k_utils" | wc -w) * k_sets ))
	i=0
	t0=$(date +%s)
	kernel_sets "$ncpu" kernel
fi

plot_all "$out"
echo "ospert: done in $(fmt_secs $(( $(date +%s) - t_start ))): $out/ospert.md"
