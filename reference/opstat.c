// SPDX-License-Identifier: GPL-2.0
/* Per-operation counters and cost timing (see opstat.h). */
#include <time.h>

#include "opstat.h"

static const char *const op_names[DLB_OP_NR] = {
	[DLB_OP_PUSH] = "push",
	[DLB_OP_PULL] = "pull",
	[DLB_OP_FIND] = "find",
	[DLB_OP_SET] = "set",
	[DLB_OP_SELECT] = "select",
};

const char *dlb_op_str(enum dlb_op op)
{
	return (unsigned int)op < DLB_OP_NR ? op_names[op] : "?";
}

#if defined(__x86_64__) || defined(__i386__)
const char *dlb_opstat_unit(void)
{
	return "cycles";
}

u64 dlb_opstat_now(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}
#elif defined(__aarch64__)
const char *dlb_opstat_unit(void)
{
	return "cntvct";
}

u64 dlb_opstat_now(void)
{
	u64 v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#else
const char *dlb_opstat_unit(void)
{
	return "ns";
}

u64 dlb_opstat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}
#endif

void dlb_opstat_add_cost(struct dlb_opstat *st, enum dlb_op op, u64 cost, bool done)
{
	struct dlb_opcount *c = &st->op[op];
	int b = cost ? 63 - __builtin_clzll(cost) : 0;

	if (b >= DLB_OPSTAT_BUCKETS)
		b = DLB_OPSTAT_BUCKETS - 1;
	if (!c->calls || cost < c->cost_min)
		c->cost_min = cost;
	if (cost > c->cost_max)
		c->cost_max = cost;
	c->calls++;
	c->done += done;
	c->cost_sum += cost;
	c->hist[b]++;
	if (st->hook)
		st->hook(op, cost, done, st->hook_arg);
}

u64 dlb_opcount_quantile(const struct dlb_opcount *c, double q)
{
	u64 want, seen = 0;
	int i;

	if (!c->calls)
		return 0;
	want = (u64)(q * (double)c->calls);
	for (i = 0; i < DLB_OPSTAT_BUCKETS; i++) {
		seen += c->hist[i];
		if (seen > want)
			return i ? 1ULL << i : 0;
	}
	return c->cost_max;
}
