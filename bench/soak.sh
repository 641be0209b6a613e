#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: the kernel backend at ~80 % of the admitted SCHED_DEADLINE bandwidth for a
# long time with recording on, then the analyzer on the result.  Samples RSS and
# open fds of dlb-rtapp and dlb-record every --interval seconds, prints them as a
# table, the analyzer's peak RSS, and a verdict: "flat" when the last quarter's
# mean RSS/fds exceed the first quarter's by no more than the tolerance.
#
# Not a CI test: it takes most of the machine's DL bandwidth for --duration.
# Holds /tmp/dlbench-kernel.lock for the whole run.
set -u

DURATION=3600
INTERVAL=10
SHARE=80
OUT=
KEEP=0
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}

usage() {
	cat <<USAGE
usage: bench/soak.sh [options]
  -d, --duration=SECONDS   soak length (default 3600)
  -i, --interval=SECONDS   sampling interval (default 10)
  -s, --share=PERCENT      share of the admitted DL bandwidth to use (default 80)
  -o, --output=DIR         run folder (default: a new /tmp/dlb-soak.XXXXXX)
  -k, --keep               keep the run folder (trace included)
  -h, --help               print this help and exit
USAGE
}

while [ $# -gt 0 ]; do
	case $1 in
	-d|--duration) DURATION=$2; shift 2 ;;
	--duration=*) DURATION=${1#*=}; shift ;;
	-i|--interval) INTERVAL=$2; shift 2 ;;
	--interval=*) INTERVAL=${1#*=}; shift ;;
	-s|--share) SHARE=$2; shift 2 ;;
	--share=*) SHARE=${1#*=}; shift ;;
	-o|--output) OUT=$2; shift 2 ;;
	--output=*) OUT=${1#*=}; shift ;;
	-k|--keep) KEEP=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "soak.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case "$DURATION$INTERVAL$SHARE" in *[!0-9]*|"")
	echo "soak.sh: --duration, --interval and --share take whole numbers" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "soak.sh: needs root (SCHED_DEADLINE, tracefs)" >&2; exit 3; }

# Capacity: per CPU the RT limit (sched_rt_runtime_us / period) minus the 5 %
# fair server (dl_server) reserve, times the online CPUs.
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
per=$(cat /proc/sys/kernel/sched_rt_period_us)
ncpu=$(nproc)
cap_ppm=$(( (rt * 1000000 / per - 50000) * ncpu ))
target_ppm=$(( cap_ppm * SHARE / 100 ))
# Four threads (two per CPU on this 2-CPU machine), period 10 ms each; the
# budget is the share, the work 85 % of the budget (calibrated on CPU0) so
# jobs rarely overrun their runtime.
NT=$(( ncpu * 2 ))
PERIOD=10000
RUNTIME=$(( target_ppm * PERIOD / 1000000 / NT ))
WORK=$(( RUNTIME * 85 / 100 ))

[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/dlb-soak.XXXXXX)
mkdir -p "$OUT" || exit 3
WL=$OUT/soak.json
{
	echo '{ "global": { "duration": '"$DURATION"', "calibration": "CPU0", "logdir": "./" },'
	echo '  "tasks": {'
	for i in $(seq 0 $((NT - 1))); do
		sep=,; [ "$i" = $((NT - 1)) ] && sep=
		echo "    \"soak$i\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": $RUNTIME,"
		echo "      \"dl-deadline\": $PERIOD, \"dl-period\": $PERIOD, \"run\": $WORK,"
		echo "      \"timer\": { \"ref\": \"t$i\", \"period\": $PERIOD } }$sep"
	done
	echo '  } }'
} >"$WL"

printf 'soak: %d CPUs, capacity %d.%03d CPUs, target %d%% = %d.%03d CPUs: %d x %d/%d us (work %d us), %ds, sample every %ds\n' \
	"$ncpu" $((cap_ppm / 1000000)) $((cap_ppm % 1000000 / 1000)) "$SHARE" \
	$((target_ppm / 1000000)) $((target_ppm % 1000000 / 1000)) "$NT" "$RUNTIME" "$PERIOD" \
	"$WORK" "$DURATION" "$INTERVAL"

exec 9>/tmp/dlbench-kernel.lock
flock 9

# Text format: trace.dat is compressed by trace-cmd and libtracecmd keeps the
# decompressed chunks, which would measure the library, not us.
"$BIN/dlb-record" -q -f text -o "$OUT" -- \
	"$BIN/dlb-rtapp" -q -o "$OUT" -d "${DURATION}s" "$WL" >"$OUT/record.out" 2>&1 &
rec=$!

status_of() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status" 2>/dev/null; }
fds_of() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

SAMPLES=$OUT/samples.tsv
: >"$SAMPLES"
t0=$(date +%s)
rtapp=
while kill -0 "$rec" 2>/dev/null; do
	[ -n "$rtapp" ] && kill -0 "$rtapp" 2>/dev/null || rtapp=$(pgrep -P "$rec" -x dlb-rtapp | head -1)
	if [ -n "$rtapp" ]; then
		r_rss=$(status_of "$rtapp" VmRSS); r_fd=$(fds_of "$rtapp")
		c_rss=$(status_of "$rec" VmRSS); c_fd=$(fds_of "$rec")
		[ -n "$r_rss" ] && [ -n "$c_rss" ] &&
			echo "$(( $(date +%s) - t0 )) $r_rss $r_fd $c_rss $c_fd" >>"$SAMPLES"
	fi
	sleep "$INTERVAL"
done
wait "$rec"
rc=$?
echo "dlb-record -- dlb-rtapp exit $rc"
sed 's/^/  /' "$OUT/record.out"

echo
echo "   t(s)  rtapp RSS kB  rtapp fds  record RSS kB  record fds"
awk '{ printf "%7d  %12d  %9d  %13d  %10d\n", $1, $2, $3, $4, $5 }' "$SAMPLES"

/usr/bin/time -v -o "$OUT/analyze.time" "$BIN/dlb-analyze" -q -A -m -1 "$OUT" \
	>"$OUT/analyze.out" 2>&1
arc=$?
flock -u 9
peak=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$OUT/analyze.time")
size=$(du -k "$OUT"/trace.* 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
echo
echo "dlb-analyze exit $arc, peak RSS $peak kB, trace $size kB"
grep -E '"(status|jobs|misses)"' "$OUT/summary.json" 2>/dev/null | sort | uniq -c | sed 's/^/  /'
[ -f "$OUT/report.txt" ] && sed -n 1,20p "$OUT/report.txt"

# Flat: last quarter's mean within 5 % (or 64 kB) RSS and 0 fds of the first.
verdict=$(awk -v tol=5 '
	{ r[NR] = $2; f[NR] = $3; c[NR] = $4; g[NR] = $5 }
	function mean(a, lo, hi,   s, i) { s = 0; for (i = lo; i <= hi; i++) s += a[i]; return s / (hi - lo + 1) }
	END {
		if (NR < 4) { print "too few samples (" NR ")"; exit }
		q = int(NR / 4)
		split("rtapp-RSS rtapp-fds record-RSS record-fds", name, " ")
		m[1, 1] = mean(r, 1, q); m[1, 2] = mean(r, NR - q + 1, NR)
		m[2, 1] = mean(f, 1, q); m[2, 2] = mean(f, NR - q + 1, NR)
		m[3, 1] = mean(c, 1, q); m[3, 2] = mean(c, NR - q + 1, NR)
		m[4, 1] = mean(g, 1, q); m[4, 2] = mean(g, NR - q + 1, NR)
		flat = 1
		for (k = 1; k <= 4; k++) {
			d = m[k, 2] - m[k, 1]
			lim = (k % 2) ? (m[k, 1] * tol / 100 > 64 ? m[k, 1] * tol / 100 : 64) : 0
			ok = d <= lim
			if (!ok) flat = 0
			printf "%s %.0f -> %.0f (%+.0f, limit +%.0f) %s; ", name[k], m[k, 1], m[k, 2], d, lim, ok ? "ok" : "GROWS"
		}
		printf "\nverdict: %s (first vs last quarter, %d samples each)\n", flat ? "flat" : "NOT flat", q
	}' "$SAMPLES")
echo
echo "$verdict"
[ "$KEEP" = 1 ] || [ -n "${OUT##/tmp/dlb-soak.*}" ] || rm -rf "$OUT"
case $verdict in *"verdict: flat"*) exit 0 ;; *) exit 1 ;; esac
