# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The sets whose outcome the algorithm predicts (docs/conformance.md, "Check
# the checker") and the assertions on them, shared by the host test
# (tests/conform_kernel_sets.sh) and the guest test (guest/tests/conform_sets.sh).
# Sourced after tests/lib.sh and plan; needs J (tests/tools/json-get).
# A run folder DIR is one of run.sh run's, analyzed: report.json with its
# conformance section, jobs-trace.txt.

# conform_dhall_wl FILE [LIGHT_RUN LIGHT_RUNTIME HEAVY_RUN PERIOD] (us): writes
# Dhall's set at M = 2 (Dhall and Liu 1978): two light tasks (deadline 20 ms)
# and a heavy one (deadline 21 ms, runtime 20 ms) released together: global
# EDF runs the lights first, the heavy job waits for them and ends after its
# deadline, although it would meet it alone.  By default (the host's) lights
# of 3 ms and a heavy task of 19.5 ms every 40 ms: the heavy job ends at
# 22.5 ms, the set uses 0.64 of 2 CPUs; the margins are 1.5 ms both ways.
conform_dhall_wl() {
	local lr=${2:-3000} lrt=${3:-3500} hr=${4:-19500} p=${5:-40000}
	cat >"$1" <<WL
{
	"tasks": {
		"light": { "instance": 2, "loop": -1, "run": $lr,
			   "timer": { "ref": "unique", "period": $p },
			   "dl-runtime": $lrt, "dl-deadline": 20000, "dl-period": $p },
		"heavy": { "loop": -1, "run": $hr,
			   "timer": { "ref": "unique", "period": $p },
			   "dl-runtime": 20000, "dl-deadline": 21000, "dl-period": $p }
	},
	"global": { "duration": 1, "default_policy": "SCHED_DEADLINE" }
}
WL
}

# conform_scale_work IN OUT FACTOR [PREFIX]: copies the workload IN to OUT with
# the work ("run") of the tasks whose name starts with PREFIX (default: all)
# scaled by FACTOR; the reservations stay, so the set the scheduler admits
# and its prediction stay
conform_scale_work() {
	awk -v f="$3" -v p="${4:-}" '
	{
		if (match($0, /"[A-Za-z0-9_-]+": *\{/)) {
			k = substr($0, RSTART + 1); k = substr(k, 1, index(k, "\"") - 1)
			if (k != "tasks" && k != "timer" && k != "global") t = k
		}
		if (index(t, p) == 1 && match($0, /"run": *[0-9]+/)) {
			n = substr($0, RSTART, RLENGTH); sub(/.*: */, "", n)
			$0 = substr($0, 1, RSTART - 1) "\"run\": " int(n * f) substr($0, RSTART + RLENGTH)
		}
		print
	}' "$1" >"$2"
}

# per_task DIR PREFIX: "jobs kernel_misses oracle_misses kernel_only unexplained"
# summed over the conformance section's tasks whose name starts with PREFIX
# (unexplained: kernel-only misses not caused by an overrun)
per_task() {
	local i=0 n j km om ko ku sj=0 skm=0 som=0 sko=0 sku=0 p=conformance.tasks
	while n=$("$J" "$1/report.json" "$p.$i.name" 2>/dev/null); do
		if [[ $n == "$2"* ]]; then
			read -r j km om ko ku < <("$J" "$1/report.json" "$p.$i.jobs" \
				"$p.$i.kernel_misses" "$p.$i.oracle_misses" \
				"$p.$i.kernel_only_misses.total" \
				"$p.$i.kernel_only_misses.unexplained" | tr '\n' ' ')
			sj=$((sj + j)) skm=$((skm + km)) som=$((som + om)) sko=$((sko + ko)) sku=$((sku + ku))
		fi
		i=$((i + 1))
	done
	echo "$sj $skm $som $sko $sku"
}

# misses_all WHAT "jobs km om ko oo" [MIN]: both sides missed >= 80 % of >= MIN
# (default 10) jobs
misses_all() {
	local j km om
	read -r j km om _ _ <<<"$2"
	check "$1: misses every job on the kernel and in the replay (jobs $j, kernel $km, replay $om)" \
		test "$j" -ge "${3:-10}" -a $((km * 5)) -ge $((j * 4)) -a $((om * 5)) -ge $((j * 4))
}

# meets_all WHAT "jobs km om ko ku" [MIN [PCT]]: of >= MIN (default 10) jobs
# the replay missed <= PCT % (default 5), and the kernel's own misses not
# explained by an overrun are <= 5 %
meets_all() {
	local j km om ko ku pct=${4:-5}
	read -r j km om ko ku <<<"$2"
	check "$1: keeps its deadlines in the replay (<= $pct %), the kernel's misses explained (jobs $j, replay $om, kernel $km: $ko its own, $ku unexplained)" \
		test "$j" -ge "${3:-10}" -a $((om * 100)) -le $((j * pct)) -a $((ku * 20)) -le "$j"
}

# over_budget DIR PREFIX: "jobs over" of the jobs trace's jobs of the tasks
# whose name starts with PREFIX: how many, and how many consumed more than
# their runtime or have no known demand (an emulator's vCPU paused mid-job is
# charged to the job)
over_budget() {
	awk -F'[ ,]' -v p="$2" '
		$1 == "task" && index($8, p) == 1 { rt[$2] = $4 }
		$1 == "job" && ($2 in rt) { n++; o += $7 !~ /^[0-9]+$/ || $7 + 0 > rt[$2] + 0 }
		END { print n + 0, o + 0 }' "$1/jobs-trace.txt" 2>/dev/null
}

# dhall_predict DIR: Dhall's effect on the run's own arrivals and demands,
# worked out from the jobs trace: the lights (earlier deadlines) each take a
# CPU from their wake-up for their demand; the heavy job runs from its
# wake-up, stalled only while both lights run, and misses if it ends after
# its deadline (a first order: no budget, no interrupts).  Jobs whose demand
# is unknown or over its runtime are left out.  Prints "jobs predicted_misses".
dhall_predict() {
	awk -F'[ ,]' '
	$1 == "task" { name[$2] = $8; rt[$2] = $4 }
	$1 == "job" { w[$2, $3] = $5; dl[$2, $3] = $6; d[$2, $3] = $7; nj[$2] = $3 + 1 }
	END {
		for (t in name) if (name[t] ~ /^heavy/) h = t; else l[nl++] = t
		for (k = 0; k < nj[h]; k++) {
			ok = 1
			split(h " " l[0] " " l[1], ts, " ")
			for (i = 1; i <= 3; i++)
				if (!((ts[i], k) in d) || d[ts[i], k] !~ /^[0-9]+$/ || d[ts[i], k] + 0 > rt[ts[i]] + 0) ok = 0
			if (!ok) continue
			a0 = w[l[0], k]; e0 = a0 + d[l[0], k]; a1 = w[l[1], k]; e1 = a1 + d[l[1], k]
			bs = a0 > a1 ? a0 : a1; be = e0 < e1 ? e0 : e1
			s = w[h, k]; f = s + d[h, k]
			if (bs < be && bs < f && be > s) f += be - (bs > s ? bs : s)
			n++; p += f > dl[h, k]
		}
		print n + 0, p + 0
	}' "$1/jobs-trace.txt" 2>/dev/null
}

# dhall_heavy WHAT DIR [MIN]: the heavy task misses every job on both sides
# when the run's own arrivals and demands predict it (>= 80 % of >= MIN jobs
# of the prediction); on a loaded machine they may not (calibrated work run
# shorter or longer, releases apart), and then G-EDF itself predicts fewer
# misses: a counted skip with the figures, not a failure
dhall_heavy() {
	local dj dp
	read -r dj dp < <(dhall_predict "$2")
	if [ "${dj:-0}" -ge "${3:-10}" ] && [ $((${dp:-0} * 5)) -ge $((${dj:-1} * 4)) ]; then
		misses_all "$1: heavy" "$(per_task "$2" heavy)" "${3:-10}"
	else
		skip "$1: heavy: misses every job on the kernel and in the replay" \
			"on this run's arrivals and demands Dhall's effect predicts ${dp:-?} heavy misses of ${dj:-?} jobs within their budgets, not all of >= ${3:-10} (load: work ran shorter or longer, releases apart)"
	fi
}
