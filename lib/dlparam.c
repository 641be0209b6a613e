// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's SCHED_DEADLINE parameter rules (mainline __checkparam_dl()),
 * with the rule that failed named, and the bandwidth arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dlbench/dlparam.h"

static const char *const rule_text[] = {
#define X(name, text) [DL_PARAM_##name] = text,
	DL_PARAM_RULES(X)
#undef X
};

const char *dl_param_rule_str(enum dl_param_rule rule)
{
	if ((unsigned int)rule >= sizeof(rule_text) / sizeof(rule_text[0]))
		return "unknown rule";
	return rule_text[rule];
}

enum dl_param_rule dl_param_check(const struct dl_params *p,
				  const struct dl_param_limits *lim)
{
	static const struct dl_param_limits def = DL_PARAM_LIMITS_DEFAULT;
	u64 period;

	if (!lim)
		lim = &def;
	/* A zero deadline would make the task's bandwidth infinite. */
	if (p->deadline == 0)
		return DL_PARAM_DEADLINE_ZERO;
	/*
	 * Runtimes are accounted in 2^DL_SCALE ns units in the bandwidth
	 * arithmetic; below that the reservation rounds to nothing.
	 */
	if (p->runtime < DL_RUNTIME_MIN_NS)
		return DL_PARAM_RUNTIME_MIN;
	/* Kept clear so that deadline arithmetic stays wrap-safe (s64). */
	if ((p->deadline & (1ULL << 63)) || (p->period & (1ULL << 63)))
		return DL_PARAM_BIT63;
	period = dl_params_period(p);
	if (period < lim->period_min)
		return DL_PARAM_PERIOD_MIN;
	if (period > lim->period_max)
		return DL_PARAM_PERIOD_MAX;
	/*
	 * runtime <= deadline <= period: a job cannot need more than its
	 * window, and the window must close before the next release.
	 */
	if (p->period && p->period < p->deadline)
		return DL_PARAM_DEADLINE_GT_PERIOD;
	if (p->deadline < p->runtime)
		return DL_PARAM_RUNTIME_GT_DEADLINE;
	return DL_PARAM_OK;
}

char *dl_param_explain(char *buf, size_t size, const struct dl_params *p,
		       const struct dl_param_limits *lim, enum dl_param_rule rule)
{
	static const struct dl_param_limits def = DL_PARAM_LIMITS_DEFAULT;
	unsigned long long rt = p->runtime, dl = p->deadline, pe = dl_params_period(p);

	if (!lim)
		lim = &def;
	switch (rule) {
	case DL_PARAM_OK:
		snprintf(buf, size, "runtime %llu ns, deadline %llu ns, period %llu ns are valid",
			 rt, dl, pe);
		break;
	case DL_PARAM_DEADLINE_ZERO:
		snprintf(buf, size, "deadline is 0 (%s)", dl_param_rule_str(rule));
		break;
	case DL_PARAM_RUNTIME_MIN:
		snprintf(buf, size, "runtime %llu ns is below %llu ns (%s)", rt,
			 (unsigned long long)DL_RUNTIME_MIN_NS, dl_param_rule_str(rule));
		break;
	case DL_PARAM_BIT63:
		snprintf(buf, size, "deadline %llu ns or period %llu ns has bit 63 set (%s)",
			 dl, (unsigned long long)p->period, dl_param_rule_str(rule));
		break;
	case DL_PARAM_PERIOD_MIN:
		snprintf(buf, size, "period %llu ns is below %llu ns (%s)", pe,
			 (unsigned long long)lim->period_min, dl_param_rule_str(rule));
		break;
	case DL_PARAM_PERIOD_MAX:
		snprintf(buf, size, "period %llu ns is above %llu ns (%s)", pe,
			 (unsigned long long)lim->period_max, dl_param_rule_str(rule));
		break;
	case DL_PARAM_DEADLINE_GT_PERIOD:
		snprintf(buf, size, "deadline %llu ns exceeds period %llu ns (%s)", dl, pe,
			 dl_param_rule_str(rule));
		break;
	case DL_PARAM_RUNTIME_GT_DEADLINE:
		snprintf(buf, size, "runtime %llu ns exceeds deadline %llu ns (%s)", rt, dl,
			 dl_param_rule_str(rule));
		break;
	default:
		snprintf(buf, size, "unknown rule %d", (int)rule);
	}
	return buf;
}

/*
 * Patch 002's check, as written:
 *
 *	return prm && (&prm->sched_deadline) != 0 &&
 *	       (s64)(&prm->sched_deadline - &prm->sched_runtime) >= 0;
 *
 * The address of a member of a non-NULL struct is never 0, and
 * &sched_deadline - &sched_runtime is the distance between two fields
 * (+1), so the check is true for every non-NULL @prm.  The intent, "the
 * deadline is not zero and not below the runtime", is what
 * dl_param_check() implements (with mainline's further rules).
 */
bool dl_param_check_seed_v4(const struct dl_params *prm)
{
	uintptr_t dl_addr, rt_addr;

	if (!prm)
		return false;
	dl_addr = (uintptr_t)&prm->deadline;
	rt_addr = (uintptr_t)&prm->runtime;
	return dl_addr != 0 && (s64)((intptr_t)(dl_addr - rt_addr) / (intptr_t)sizeof(u64)) >= 0;
}

static const struct {
	const char *name;
	u64 flag;
} dl_flag_table[] = {
	{ "reclaim", DL_FLAG_RECLAIM },
};

u64 dl_flag_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(dl_flag_table) / sizeof(dl_flag_table[0]); i++)
		if (!strcmp(name, dl_flag_table[i].name))
			return dl_flag_table[i].flag;
	return 0;
}

const char *dl_flag_names(void)
{
	return "reclaim";
}

const char *dl_flag_name(u64 flag)
{
	size_t i;

	for (i = 0; i < sizeof(dl_flag_table) / sizeof(dl_flag_table[0]); i++)
		if (flag == dl_flag_table[i].flag)
			return dl_flag_table[i].name;
	return NULL;
}

u64 dl_bw_capacity(unsigned int cpus, u64 rt_runtime_us, u64 rt_period_us,
		   u64 reserved_per_cpu)
{
	u64 per_cpu = to_ratio(rt_period_us, rt_runtime_us);

	per_cpu = per_cpu > reserved_per_cpu ? per_cpu - reserved_per_cpu : 0;
	return per_cpu * cpus;
}
