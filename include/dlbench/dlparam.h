/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one validator of SCHED_DEADLINE parameters, and the kernel's
 * fixed-point bandwidth arithmetic.  Used by the workload loader, the
 * generator (before sched_setattr) and the reference scheduler, so that all
 * three refuse exactly what the kernel refuses, and say which rule failed.
 */
#ifndef DLBENCH_DLPARAM_H
#define DLBENCH_DLPARAM_H

#include <stdbool.h>
#include <stddef.h>

#include "dltime.h"

/* Runtime granularity: the kernel refuses runtimes below 2^DL_SCALE ns. */
#define DL_SCALE		10
#define DL_RUNTIME_MIN_NS	(1ULL << DL_SCALE)

/* Bandwidth is a fraction in 1/2^BW_SHIFT units, as in mainline. */
#define BW_SHIFT		20
#define BW_UNIT			(1ULL << BW_SHIFT)

/* sysctl kernel.sched_deadline_period_{min,max}_us defaults. */
#define DL_PERIOD_MIN_US_DEFAULT	100ULL
#define DL_PERIOD_MAX_US_DEFAULT	4194304ULL	/* ~4 s, 1 << 22 */

/* sysctl kernel.sched_rt_{runtime,period}_us defaults. */
#define RT_RUNTIME_US_DEFAULT	950000ULL
#define RT_PERIOD_US_DEFAULT	1000000ULL

struct dl_params {
	u64 runtime;	/* ns */
	u64 deadline;	/* ns, relative */
	u64 period;	/* ns; 0 means "same as deadline" */
	u64 flags;	/* sched_attr.sched_flags: DL_FLAG_* */
};

/*
 * sched_attr.sched_flags a workload may ask for (include/uapi/linux/sched.h
 * values), by the names the workload key "dl-flags" takes.
 * SCHED_FLAG_RECLAIM (4.13): GRUB bandwidth reclaiming.
 */
#define DL_FLAG_RECLAIM		0x02ULL
#define DL_FLAGS_KNOWN		DL_FLAG_RECLAIM

/* The flag a name means ("reclaim"), or 0 for a name that is none. */
u64 dl_flag_parse(const char *name);

/* The names of the known flags, comma separated, for messages: "reclaim". */
const char *dl_flag_names(void);

/* The name of one known flag, or NULL. */
const char *dl_flag_name(u64 flag);

struct dl_param_limits {
	u64 period_min;	/* ns */
	u64 period_max;	/* ns */
};

#define DL_PARAM_LIMITS_DEFAULT {					\
	.period_min = DL_PERIOD_MIN_US_DEFAULT * NSEC_PER_USEC,		\
	.period_max = DL_PERIOD_MAX_US_DEFAULT * NSEC_PER_USEC,		\
}

/* The rules, in the order mainline's __checkparam_dl() applies them. */
#define DL_PARAM_RULES(X)							\
	X(OK,			"ok")						\
	X(DEADLINE_ZERO,	"deadline must not be 0")			\
	X(RUNTIME_MIN,		"runtime must be at least 1024 ns")		\
	X(BIT63,		"deadline and period must have bit 63 clear")	\
	X(PERIOD_MIN,		"period must be at least sched_deadline_period_min_us") \
	X(PERIOD_MAX,		"period must be at most sched_deadline_period_max_us") \
	X(DEADLINE_GT_PERIOD,	"deadline must not exceed period")		\
	X(RUNTIME_GT_DEADLINE,	"runtime must not exceed deadline")

enum dl_param_rule {
#define X(name, text) DL_PARAM_##name,
	DL_PARAM_RULES(X)
#undef X
};

/* Period the kernel uses: period, or deadline when period is 0. */
static inline u64 dl_params_period(const struct dl_params *p)
{
	return p->period ? p->period : p->deadline;
}

/*
 * Check @p against the kernel's rules; @lim NULL means the sysctl
 * defaults.  Returns DL_PARAM_OK or the first rule that failed.
 */
enum dl_param_rule dl_param_check(const struct dl_params *p,
				  const struct dl_param_limits *lim);

/* The rule's text, as in DL_PARAM_RULES. */
const char *dl_param_rule_str(enum dl_param_rule rule);

/*
 * One lowercase line with the numbers, e.g. "runtime 2000000 ns exceeds
 * deadline 1000000 ns (runtime must not exceed deadline)".  Returns @buf.
 */
char *dl_param_explain(char *buf, size_t size, const struct dl_params *p,
		       const struct dl_param_limits *lim, enum dl_param_rule rule);

/*
 * The seed's check, transcribed (patch 002, __checkparam_dl): it compares
 * the *addresses* of the fields, not their values, so it accepts any
 * parameters.  Kept only so a test can show the difference; never use it.
 */
bool dl_param_check_seed_v4(const struct dl_params *p);

/* runtime/period as a BW_SHIFT fixed-point fraction (mainline to_ratio()). */
static inline u64 to_ratio(u64 period, u64 runtime)
{
	if (period == 0)
		return 0;
	/* runtime < 2^44 ns (4.8 h) for the shift not to overflow */
	return (runtime << BW_SHIFT) / period;
}

/*
 * DL bandwidth capacity of @cpus CPUs, in BW_SHIFT units: cpus *
 * rt_runtime/rt_period, less @reserved_per_cpu (the fair server's 50 ms /
 * 1000 ms on 6.x kernels: to_ratio(1000000000, 50000000)).
 */
u64 dl_bw_capacity(unsigned int cpus, u64 rt_runtime_us, u64 rt_period_us,
		   u64 reserved_per_cpu);

/* Bandwidth as a decimal fraction of one CPU, for messages. */
static inline double dl_bw_to_double(u64 bw)
{
	return (double)bw / (double)BW_UNIT;
}

#endif
