/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduling policies for the kernel backend: sched_setattr through
 * syscall(2) with a local struct sched_attr (<linux/sched/types.h> clashes
 * with glibc's <sched.h>), the v4 patchset's sched_setscheduler2 ABI as an
 * option, and failures turned into explanations.
 */
#ifndef RTAPP_SCHED_H
#define RTAPP_SCHED_H

#include <stdbool.h>
#include <sys/types.h>

#include "dlbench/dlparam.h"
#include "dlbench/error.h"
#include "dlbench/workload.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_RECLAIM		0x02
#define SCHED_FLAG_DL_OVERRUN		0x04
#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_KEEP_ALL		(SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS)
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX	0x40

#define SCHED_ATTR_SIZE_VER0		48	/* the first (3.14) */
#define SCHED_ATTR_SIZE_VER1		56	/* + the utilization clamps (5.3) */

/*
 * The mainline ABI.  Policy changes pass SCHED_ATTR_SIZE_VER0, as they
 * always did; only the clamps need VER1 (the kernel refuses the clamp
 * flags with a smaller size: sched_copy_attr).
 */
struct rtapp_sched_attr {
	u32 size;
	u32 sched_policy;
	u64 sched_flags;
	s32 sched_nice;
	u32 sched_priority;
	u64 sched_runtime;
	u64 sched_deadline;
	u64 sched_period;
	u32 sched_util_min;		/* VER1 */
	u32 sched_util_max;
};

/* The v4 patchset's ABI (sched_setscheduler2). */
struct rtapp_sched_param2 {
	int sched_priority;
	unsigned int sched_flags;
	u64 sched_runtime;
	u64 sched_deadline;
	u64 sched_period;
	u64 __unused[12];
};

struct rtapp_sched_abi {
	bool setscheduler2;	/* use sched_setscheduler2 for SCHED_DEADLINE */
	long nr;		/* its syscall number */
};

/* The architecture's sched_setattr number, -1 if unknown. */
long rtapp_nr_sched_setattr(void);

/* The architecture's sched_getattr number, -1 if unknown. */
long rtapp_nr_sched_getattr(void);

/* The later v4 series' sched_setscheduler2 number on this architecture, -1 if unknown. */
long rtapp_nr_setscheduler2_default(void);

/*
 * Set the calling thread's policy from @t.  Returns 0 or the errno of the
 * failing call (the thread keeps its old policy then).
 */
int rtapp_sched_set_self(const struct wl_task *t, const struct rtapp_sched_abi *abi);

/*
 * Set the calling thread's utilization clamps: those @u sets, keeping the
 * others and its policy (rt-app's _set_thread_uclamp: SCHED_FLAG_KEEP_ALL
 * | SCHED_FLAG_UTIL_CLAMP_MIN / _MAX, with @t's policy and priority).
 * Returns 0 or the errno (EOPNOTSUPP: a kernel without CONFIG_UCLAMP_TASK).
 */
int rtapp_sched_set_uclamp(const struct wl_task *t, const struct wl_uclamp *u);

/*
 * Can this kernel clamp utilization?  0, or the errno of a helper thread
 * setting util_min 0 on itself (the caller's thread is not touched):
 * EOPNOTSUPP, built without CONFIG_UCLAMP_TASK; EINVAL, older than 5.3;
 * ENOSYS, no sched_setattr at all (the v4 patchset's kernels).
 */
int rtapp_sched_uclamp_probe(void);

/*
 * Explain failure @errnum of setting @t's clamps (instance @inst, -1: the
 * task before any thread): EOPNOTSUPP, ENOSYS, a probe's EINVAL -> DLB_EXIT_ENV
 * (this kernel cannot), EINVAL -> DLB_EXIT_BAD_INPUT, others DLB_EXIT_ENV.
 * Returns -1.
 */
int rtapp_uclamp_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst);

/*
 * The running kernel's period limits (sysctl kernel.sched_deadline_period_
 * {min,max}_us), the defaults where they cannot be read.
 */
void rtapp_sched_limits(struct dl_param_limits *lim);

/* Back to SCHED_OTHER, nice 0 (before leaving a cpuset, at exit). */
void rtapp_sched_reset_self(void);

/* Does this kernel apply a fair task's custom slice (Linux 6.12+)? */
bool rtapp_sched_has_slice(void);

/*
 * What the caller needs to explain an EBUSY: bandwidth admitted so far by
 * this run (BW_SHIFT units) and the number of CPUs in the task's domain.
 */
struct rtapp_admit_ctx {
	u64 run_admitted;
	unsigned int cpus;
};

/*
 * Explain failure @errnum of the policy change of @t (instance @inst) in
 * @err, with the exit code: EPERM/EACCES -> DLB_EXIT_ENV (privilege, and
 * the reference backend as a way out), EINVAL -> DLB_EXIT_BAD_INPUT (the
 * kernel's rule, from dl_param_check), EBUSY -> DLB_EXIT_ENV (admission:
 * the task's bandwidth against what is admitted and the capacity).
 */
int rtapp_sched_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst,
			const struct rtapp_admit_ctx *ctx);

#endif
