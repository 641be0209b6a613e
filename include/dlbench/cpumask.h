/* SPDX-License-Identifier: GPL-2.0 */
/* A fixed-size CPU mask for up to DLB_MAX_CPUS CPUs (workloads, reference). */
#ifndef DLBENCH_CPUMASK_H
#define DLBENCH_CPUMASK_H

#include <stdbool.h>
#include <string.h>

#include "dltime.h"

#define DLB_MAX_CPUS	1024

struct dlb_cpumask {
	u64 bits[DLB_MAX_CPUS / 64];
};

static inline void dlb_cpumask_clear(struct dlb_cpumask *m)
{
	memset(m, 0, sizeof(*m));
}

static inline void dlb_cpumask_set(struct dlb_cpumask *m, unsigned int cpu)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void dlb_cpumask_clr(struct dlb_cpumask *m, unsigned int cpu)
{
	m->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

static inline bool dlb_cpumask_test(const struct dlb_cpumask *m, unsigned int cpu)
{
	return (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

static inline unsigned int dlb_cpumask_weight(const struct dlb_cpumask *m)
{
	unsigned int i, w = 0;

	for (i = 0; i < DLB_MAX_CPUS / 64; i++)
		w += (unsigned int)__builtin_popcountll(m->bits[i]);
	return w;
}

/* First set CPU at or after @from, or DLB_MAX_CPUS. */
static inline unsigned int dlb_cpumask_next(const struct dlb_cpumask *m, unsigned int from)
{
	unsigned int i;

	for (i = from; i < DLB_MAX_CPUS; i++) {
		u64 w = m->bits[i / 64] >> (i % 64);

		if (w)
			return i + (unsigned int)__builtin_ctzll(w);
		i |= 63;
	}
	return DLB_MAX_CPUS;
}

/*
 * @m in the kernel's list format ("0-3,5", "" if empty) into @buf; -1 if
 * it does not fit (@buf then holds a cut list).  lib/cpumask.c.
 */
int dlb_cpumask_list(char *buf, size_t size, const struct dlb_cpumask *m);

#define dlb_for_each_cpu(cpu, mask)					\
	for ((cpu) = dlb_cpumask_next((mask), 0); (cpu) < DLB_MAX_CPUS;	\
	     (cpu) = dlb_cpumask_next((mask), (cpu) + 1))

#endif
