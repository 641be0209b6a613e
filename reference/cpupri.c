// SPDX-License-Identifier: GPL-2.0
/*
 * cpupri: the RT class's push structure, as sched_rt uses it in the kernels
 * the seed is against (see cpupri.h).  Written from the algorithm, in the
 * reference's style: no locks or atomics (one simulated operation at a
 * time), masks cut to the words that hold this simulation's CPUs as the
 * kernel's are cut to nr_cpu_ids.
 *
 * Cost shape, the paper's point: set is O(1) (two mask bits and two counts),
 * find scans the levels below the task's from the bottom, so its cost grows
 * with how many levels are occupied, not with the CPU count (until the
 * masks span many words).
 */
#include <stdlib.h>
#include <string.h>

#include "cpupri.h"

#define MAX_RT_PRIO	100
#define MAX_PRIO	(MAX_RT_PRIO + 40)

int cpupri_convert_prio(int prio)
{
	if (prio == CPUPRI_INVALID)
		return CPUPRI_INVALID;
	if (prio >= MAX_PRIO)
		return CPUPRI_IDLE;
	if (prio >= MAX_RT_PRIO)
		return CPUPRI_NORMAL;
	return MAX_RT_PRIO - prio + 1;
}

static unsigned int cpupri_words(const struct cpupri *cp)
{
	return ((unsigned int)cp->nr_cpus + 63) / 64;
}

/*
 * Levels from the lowest up to, not including, the task's own: a CPU at an
 * equal level would not be preempted.  The first level with an allowed CPU
 * is the answer (the lowest-priority CPUs, the cheapest to preempt).
 */
int cpupri_find(const struct cpupri *cp, int task_prio, const struct dlb_cpumask *allowed,
		struct dlb_cpumask *lowest_mask)
{
	unsigned int i, words = cpupri_words(cp);
	int idx, task_pri = cpupri_convert_prio(task_prio);

	for (idx = 0; idx < task_pri; idx++) {
		const struct cpupri_vec *vec = &cp->pri_to_cpu[idx];
		u64 any = 0;

		if (!vec->count)
			continue;
		if (lowest_mask) {
			for (i = 0; i < words; i++) {
				lowest_mask->bits[i] = allowed->bits[i] & vec->mask.bits[i];
				any |= lowest_mask->bits[i];
			}
			for (; i < DLB_MAX_CPUS / 64; i++)
				lowest_mask->bits[i] = 0;
		} else {
			for (i = 0; i < words && !any; i++)
				any = allowed->bits[i] & vec->mask.bits[i];
		}
		if (any)
			return 1;
	}
	return 0;
}

/*
 * The new level first, then the old one is left: a concurrent find in the
 * kernel may see the CPU twice but never nowhere.  Same order here.
 */
void cpupri_set(struct cpupri *cp, int cpu, int newpri)
{
	int oldpri = cp->cpu_to_pri[cpu];

	newpri = cpupri_convert_prio(newpri);
	if (newpri == oldpri)
		return;
	if (newpri != CPUPRI_INVALID) {
		dlb_cpumask_set(&cp->pri_to_cpu[newpri].mask, (unsigned int)cpu);
		cp->pri_to_cpu[newpri].count++;
	}
	if (oldpri != CPUPRI_INVALID) {
		cp->pri_to_cpu[oldpri].count--;
		dlb_cpumask_clr(&cp->pri_to_cpu[oldpri].mask, (unsigned int)cpu);
	}
	cp->cpu_to_pri[cpu] = newpri;
}

int cpupri_init(struct cpupri *cp, int nr_cpus)
{
	int i;

	memset(cp, 0, sizeof(*cp));
	cp->nr_cpus = nr_cpus;
	cp->cpu_to_pri = malloc(sizeof(*cp->cpu_to_pri) * (size_t)nr_cpus);
	if (!cp->cpu_to_pri)
		return -1;
	for (i = 0; i < nr_cpus; i++)
		cp->cpu_to_pri[i] = CPUPRI_INVALID;
	return 0;
}

void cpupri_cleanup(struct cpupri *cp)
{
	free(cp->cpu_to_pri);
	cp->cpu_to_pri = NULL;
}

int cpupri_check(const struct cpupri *cp, const char **why)
{
	int idx, cpu;

	for (idx = 0; idx < CPUPRI_NR_PRIORITIES; idx++) {
		const struct cpupri_vec *vec = &cp->pri_to_cpu[idx];

		if (vec->count != (int)dlb_cpumask_weight(&vec->mask)) {
			*why = "cpupri: a level's count differs from its mask's weight";
			return -1;
		}
		for (cpu = 0; cpu < cp->nr_cpus; cpu++)
			if (dlb_cpumask_test(&vec->mask, (unsigned int)cpu) != (cp->cpu_to_pri[cpu] == idx)) {
				*why = "cpupri: a CPU's level and the level masks disagree";
				return -1;
			}
		if (dlb_cpumask_next(&vec->mask, (unsigned int)cp->nr_cpus) < DLB_MAX_CPUS) {
			*why = "cpupri: a level mask holds a CPU beyond nr_cpus";
			return -1;
		}
	}
	return 0;
}
