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

#include "dlbench/cpumask.h"
#include "dlbench/dltime.h"

enum dlb_op {
	DLB_OP_PUSH,		/* push_dl_task */
	DLB_OP_PULL,		/* pull_dl_task */
	DLB_OP_FIND,		/* cpudl_find / latest_cpu_find */
	DLB_OP_SET,		/* cpudl_set (heap only) */
	DLB_OP_SELECT,		/* select_task_rq_dl */
	DLB_OP_NR,
};

/*
 * Cost histogram, log-linear (as HdrHistogram): a cost below
 * DLB_OPSTAT_SUB counts in its own bucket; above, every power of two is cut
 * into DLB_OPSTAT_SUB equal buckets, so a quantile is within 1/128 of the
 * true one (boxplots need the quartiles, not only powers of two).  Costs
 * from 2^40 up share the last bucket (cost_max stays exact).
 */
#define DLB_OPSTAT_SUB_BITS	7
#define DLB_OPSTAT_SUB		(1 << DLB_OPSTAT_SUB_BITS)
#define DLB_OPSTAT_BUCKETS	(DLB_OPSTAT_SUB * (40 - DLB_OPSTAT_SUB_BITS + 1))

struct dlb_opcount {
	u64 calls;
	u64 done;		/* push/pull that moved a task; find that found a CPU */
	u64 cost_sum;
	u64 cost_min, cost_max;
	u64 hist[DLB_OPSTAT_BUCKETS];
};

/* Every call, as it happens (for exact distributions: boxplots, quantiles). */
typedef void (*dlb_op_fn)(enum dlb_op op, u64 cost, bool done, void *arg);

/*
 * The arguments of a global push structure call (cpudl_set, or the CPU
 * selection cpudl_find / latest_cpu_find), so that another structure
 * (cpupri) can be driven with the very same sequence.  Given after the
 * timed call, outside its timing.
 */
struct dlb_push_call {
	enum dlb_op op;			/* DLB_OP_SET or DLB_OP_FIND */
	u64 now;			/* simulated time */
	int cpu;			/* set: the CPU */
	bool valid;			/* set: false = the CPU has no -deadline task */
	u64 dl;				/* set: its earliest deadline; find: the task's */
	const struct dlb_cpumask *allowed;	/* find: the task's affinity */
};
typedef void (*dlb_push_fn)(const struct dlb_push_call *call, void *arg);

struct dlb_opstat {
	bool timed;		/* read the counter around each call */
	struct dlb_opcount op[DLB_OP_NR];
	dlb_op_fn hook;		/* NULL: counters only */
	void *hook_arg;
	dlb_push_fn push_hook;	/* NULL: none */
	void *push_arg;
};

const char *dlb_op_str(enum dlb_op op);

/* "cycles" (tsc, cntvct) or "ns". */
const char *dlb_opstat_unit(void);

/* The raw counter (cycles or ns). */
u64 dlb_opstat_now(void);

/*
 * The counter's step, measured now over @samples back-to-back read pairs:
 * the greatest common divisor of their differences that are not zero (a
 * VM's TSC may advance in steps of tens of cycles, which differ from host
 * to host: every cost read is then a multiple of it).  0: it never moved.
 */
u64 dlb_opstat_step(int samples);

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

/*
 * Cost at quantile @q (0..1) from the histogram: the middle of the bucket
 * holding it, kept within [cost_min, cost_max] (so q = 0 and 1 are exact).
 */
u64 dlb_opcount_quantile(const struct dlb_opcount *c, double q);

/* Add the calls counted in @src to @dst (pooling runs). */
void dlb_opcount_merge(struct dlb_opcount *dst, const struct dlb_opcount *src);

#endif
