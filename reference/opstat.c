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

u64 dlb_opstat_step(int samples)
{
	u64 g = 0;
	int i;

	for (i = 0; i < samples; i++) {
		u64 t0 = dlb_opstat_now(), d = dlb_opstat_now() - t0;

		while (d) {		/* g = gcd(g, d); gcd(0, d) = d */
			u64 r = g % d;

			g = d;
			d = r;
		}
	}
	return g;
}

/* Bucket of @cost: exact below DLB_OPSTAT_SUB, then SUB per power of two. */
static unsigned int opstat_bucket(u64 cost)
{
	unsigned int shift, b;

	if (cost < DLB_OPSTAT_SUB)
		return (unsigned int)cost;
	shift = (unsigned int)(63 - __builtin_clzll(cost)) - DLB_OPSTAT_SUB_BITS;
	b = DLB_OPSTAT_SUB * (shift + 1) + (unsigned int)((cost >> shift) - DLB_OPSTAT_SUB);
	return b < DLB_OPSTAT_BUCKETS ? b : DLB_OPSTAT_BUCKETS - 1;
}

/* The middle of bucket @b (the inverse of opstat_bucket, half a width up). */
static u64 opstat_bucket_mid(unsigned int b)
{
	unsigned int shift;

	if (b < DLB_OPSTAT_SUB)
		return b;
	shift = b / DLB_OPSTAT_SUB - 1;
	return (((u64)(b % DLB_OPSTAT_SUB) + DLB_OPSTAT_SUB) << shift) + ((1ULL << shift) >> 1);
}

void dlb_opstat_add_cost(struct dlb_opstat *st, enum dlb_op op, u64 cost, bool done)
{
	struct dlb_opcount *c = &st->op[op];

	if (!c->calls || cost < c->cost_min)
		c->cost_min = cost;
	if (cost > c->cost_max)
		c->cost_max = cost;
	c->calls++;
	c->done += done;
	c->cost_sum += cost;
	c->hist[opstat_bucket(cost)]++;
	if (st->hook)
		st->hook(op, cost, done, st->hook_arg);
}

u64 dlb_opcount_quantile(const struct dlb_opcount *c, double q)
{
	u64 want, seen = 0, v;
	unsigned int i;

	if (!c->calls)
		return 0;
	want = (u64)(q * (double)c->calls);
	for (i = 0; i < DLB_OPSTAT_BUCKETS; i++) {
		seen += c->hist[i];
		if (seen > want) {
			v = opstat_bucket_mid(i);
			return v < c->cost_min ? c->cost_min : v > c->cost_max ? c->cost_max : v;
		}
	}
	return c->cost_max;
}

void dlb_opcount_merge(struct dlb_opcount *dst, const struct dlb_opcount *src)
{
	unsigned int i;

	if (!src->calls)
		return;
	if (!dst->calls || src->cost_min < dst->cost_min)
		dst->cost_min = src->cost_min;
	if (src->cost_max > dst->cost_max)
		dst->cost_max = src->cost_max;
	dst->calls += src->calls;
	dst->done += src->done;
	dst->cost_sum += src->cost_sum;
	for (i = 0; i < DLB_OPSTAT_BUCKETS; i++)
		dst->hist[i] += src->hist[i];
}
