/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-operation counters and costs of the reference scheduler: how often
 * push, pull, find (cpudl_find or latest_cpu_find) and set (cpudl_set) run,
 * and what each call costs on this CPU, in the CPU's cycle counter where one
 * is readable from user space (rdtsc on x86, cntvct_el0 on arm64) and in ns
 * of CLOCK_MONOTONIC otherwise: dlb_opstat_unit() says which.
 */
#ifndef DLB_REF_OPSTAT_H
#define DLB_REF_OPSTAT_H

#include <stdbool.h>

#include "dlbench/dltime.h"

enum dlb_op {
	DLB_OP_PUSH,		/* push_dl_task */
	DLB_OP_PULL,		/* pull_dl_task */
	DLB_OP_FIND,		/* cpudl_find / latest_cpu_find */
	DLB_OP_SET,		/* cpudl_set (heap only) */
	DLB_OP_SELECT,		/* select_task_rq_dl */
	DLB_OP_NR,
};

/* Cost histogram: bucket i counts calls costing [2^i, 2^(i+1)) units. */
#define DLB_OPSTAT_BUCKETS	40

struct dlb_opcount {
	u64 calls;
	u64 done;		/* push/pull that moved a task; find that found a CPU */
	u64 cost_sum;
	u64 cost_min, cost_max;
	u64 hist[DLB_OPSTAT_BUCKETS];
};

/* Every call, as it happens (for exact distributions: boxplots, quantiles). */
typedef void (*dlb_op_fn)(enum dlb_op op, u64 cost, bool done, void *arg);

struct dlb_opstat {
	bool timed;		/* read the counter around each call */
	struct dlb_opcount op[DLB_OP_NR];
	dlb_op_fn hook;		/* NULL: counters only */
	void *hook_arg;
};

const char *dlb_op_str(enum dlb_op op);

/* "cycles" (tsc, cntvct) or "ns". */
const char *dlb_opstat_unit(void);

/* The raw counter (cycles or ns). */
u64 dlb_opstat_now(void);

void dlb_opstat_add_cost(struct dlb_opstat *st, enum dlb_op op, u64 cost, bool done);

/*
 * Count one call of @op (@cost: counter ticks, 0 when untimed).  Inline: it
 * runs for every push/pull/find/set/select, and untimed (a cost of 0) it is
 * four stores, the same counters dlb_opstat_add_cost() would leave.
 */
static inline void dlb_opstat_add(struct dlb_opstat *st, enum dlb_op op, u64 cost, bool done)
{
	struct dlb_opcount *c = &st->op[op];

	if (cost) {
		dlb_opstat_add_cost(st, op, cost, done);
		return;
	}
	c->cost_min = 0;
	c->calls++;
	c->done += done;
	c->hist[0]++;
	if (st->hook)
		st->hook(op, 0, done, st->hook_arg);
}

/* Cost at quantile @q (0..1) from the histogram: bucket's lower bound. */
u64 dlb_opcount_quantile(const struct dlb_opcount *c, double q);

#endif
