#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/accuracy.sh [-d SECONDS] [-k]
#
# The same SCHED_DEADLINE workload run by dlb-rtapp and by Debian's rt-app
# 1.0, one after the other, and per task, side by side: the median and p99
# of the wake-up latency (the logs' wu_lat) and of |run - requested| (the
# logs' run against c_duration), in us.  Reported, not a test: the goal is
# dlb-rtapp no worse than rt-app.  Needs root, SCHED_DEADLINE and rt-app;
# takes the kernel lock.  -k keeps the run folders (printed).
set -u
: "${DLB_SRC:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${DLB_BUILD:=$DLB_SRC/build}"
DUR=10 KEEP=0
while getopts "d:kh" o; do
	case $o in
	d) DUR=$OPTARG ;;
	k) KEEP=1 ;;
	*) sed -n '4,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
RTAPP=$DLB_BUILD/bin/dlb-rtapp
if [ "$(id -u)" -ne 0 ] || ! command -v rt-app >/dev/null || [ ! -x "$RTAPP" ]; then
	echo "accuracy.sh: needs root, rt-app (tools/deps.sh) and $RTAPP: skipped" >&2
	exit 0	# a report, not a test: make bench goes on
fi
TMP=$(mktemp -d /tmp/dlb-accuracy.XXXXXX)
[ "$KEEP" -eq 1 ] || trap 'rm -rf "$TMP"' EXIT

# One workload for both: absolute timers (rt-app 1.0 defaults to relative),
# each task its own timer, no ftrace (rt-app 1.0 would need debugfs tracing).
# Note: dlb-rtapp releases every task at one common instant t0 (the critical
# instant), rt-app 1.0 each thread from its own start; the simultaneous
# wake-ups cost dlb-rtapp some wake-up latency on this comparison.
workload() {	# $1: logdir
	cat <<JSON
{
	"global": { "duration": $DUR, "calibration": "CPU0", "default_policy": "SCHED_OTHER",
		    "logdir": "$1", "log_basename": "rt-app", "ftrace": false },
	"resources": { "ta": { "type": "timer" }, "tb": { "type": "timer" } },
	"tasks": {
		"dl_a": { "policy": "SCHED_DEADLINE",
			  "dl-runtime": 3000, "dl-deadline": 10000, "dl-period": 10000,
			  "run": 1000, "timer": { "ref": "ta", "period": 10000, "mode": "absolute" } },
		"dl_b": { "policy": "SCHED_DEADLINE",
			  "dl-runtime": 6000, "dl-deadline": 20000, "dl-period": 20000,
			  "run": 3000, "timer": { "ref": "tb", "period": 20000, "mode": "absolute" } }
	}
}
JSON
}

mkdir -p "$TMP/dlb" "$TMP/rtapp"
workload "$TMP/dlb" >"$TMP/dlb.json"
workload "$TMP/rtapp" >"$TMP/rtapp.json"
exec 9>/tmp/dlbench-kernel.lock
flock 9
"$RTAPP" -n "$TMP/dlb.json" >"$TMP/dlb.out" 2>&1 || { cat "$TMP/dlb.out"; exit 3; }
rt-app "$TMP/rtapp.json" >"$TMP/rtapp.out" 2>&1 || { tail -3 "$TMP/rtapp.out"; exit 3; }
flock -u 9

# pct FILE: median and p99 of a column of numbers (nearest rank)
pct() {
	sort -n | awk '{ v[NR] = $1 }
	function at(p,   i) { i = int(p * NR + 0.999999); return v[i < 1 ? 1 : i] }
	END { if (NR) printf "%10d %10d", at(0.5), at(0.99); else printf "%10s %10s", "-", "-" }'
}
# stats LOG: jobs, median and p99 of wu_lat and of |run - c_duration|
stats() {
	printf '%6d %s %s' "$(grep -vc '^#' "$1")" \
		"$(grep -v '^#' "$1" | awk '{ print $11 }' | pct)" \
		"$(grep -v '^#' "$1" | awk '{ d = $3 - $9; print d < 0 ? -d : d }' | pct)"
}
printf '# accuracy: the same DL workload, %s s each; wu_lat and |run - requested| in us\n' "$DUR"
printf '# dlb-rtapp %s; %s\n' "$(grep -m1 -o 'calibration.*' "$TMP/dlb.out" || true)" \
	"rt-app: $(grep -m1 -o 'pLoad = [0-9]*ns' "$TMP/rtapp.out" || true)"
printf '%-6s %-10s %6s %10s %10s %10s %10s\n' task tool jobs wu_med wu_p99 runerr_med runerr_p99
for t in dl_a:0 dl_b:1; do
	name=${t%:*} idx=${t#*:}
	printf '%-6s %-10s %s\n' "$name" dlb-rtapp "$(stats "$TMP/dlb/rt-app-$name-$idx.log")"
	printf '%-6s %-10s %s\n' "$name" rt-app-1.0 "$(stats "$TMP/rtapp/rt-app-$name-$idx.log")"
done
[ "$KEEP" -eq 1 ] && echo "# run folders: $TMP/dlb $TMP/rtapp"
exit 0
