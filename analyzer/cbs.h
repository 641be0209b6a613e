/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task's Constant Bandwidth Server as mainline's kernel/sched/deadline.c
 * runs it, replayed from what a trace shows (when the task runs, wakes,
 * is switched out), for traces that carry no dl_throttle / dl_replenish
 * events (mainline has no deadline tracepoints): it says when the task is
 * throttled, until when, and the scheduling deadline the kernel's EDF
 * compares (postponed by a period at each replenishment of a task that
 * overran, which a job's own deadline is not).  The names are the
 * kernel's.  Time is u64 ns; no allocation.
 */
#ifndef DLB_CBS_H
#define DLB_CBS_H

#include <stdbool.h>

#include "dlbench/dltime.h"

struct dlb_cbs {
	u64 dl_runtime, dl_deadline, dl_period;	/* Q, D, P */
	bool valid;			/* runtime and deadline known */
	s64 runtime;			/* left in this period; negative: overran */
	u64 deadline;			/* the scheduling deadline */
};

void dlb_cbs_init(struct dlb_cbs *c, u64 dl_runtime, u64 dl_deadline, u64 dl_period);

/* replenish_dl_new_period: a new instance, deadline now + D, runtime Q. */
void dlb_cbs_new_period(struct dlb_cbs *c, u64 now);

/* update_dl_entity, at a wake-up (the CBS wake-up rule, revised for D < P). */
void dlb_cbs_wakeup(struct dlb_cbs *c, u64 now);

/* update_curr_dl: @ns of CPU time used. */
void dlb_cbs_charge(struct dlb_cbs *c, u64 ns);

/* dl_runtime_exceeded: the kernel throttles the task (at its next update_curr). */
bool dlb_cbs_exhausted(const struct dlb_cbs *c);

/* dl_next_period: when the replenishment timer fires, deadline - D + P. */
u64 dlb_cbs_next_period(const struct dlb_cbs *c);

/* replenish_dl_entity, at @now: a period's runtime per period postponed. */
void dlb_cbs_replenish(struct dlb_cbs *c, u64 now);

#endif
