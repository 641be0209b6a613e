/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RT class's global push structure (kernel/sched/cpupri.[ch] of the
 * 3.x kernels the seed is against): for every priority level, the mask of
 * CPUs whose highest-priority task is at that level and how many they are.
 * The OSPERT 2011 paper measured cpudl (cpudl.h, patch 007) against this.
 *
 * Priorities are the kernel's: 0..99 RT (0 highest), MAX_RT_PRIO (100) a
 * CPU running SCHED_NORMAL, MAX_PRIO (140) an idle CPU, CPUPRI_INVALID a
 * CPU not in the structure.  Levels inside: CPUPRI_IDLE 0, CPUPRI_NORMAL 1,
 * 2..101 for RT priorities 99..0 (a higher level is a higher priority).
 */
#ifndef DLB_REF_CPUPRI_H
#define DLB_REF_CPUPRI_H

#include "dlbench/cpumask.h"

#define CPUPRI_NR_PRIORITIES	(100 + 2)	/* MAX_RT_PRIO + 2 */
#define CPUPRI_INVALID		-1
#define CPUPRI_IDLE		0
#define CPUPRI_NORMAL		1
/* values 2..101 are RT priorities 0..99 */

struct cpupri_vec {
	int count;			/* CPUs in mask (atomic_t in the kernel) */
	struct dlb_cpumask mask;
};

struct cpupri {
	int nr_cpus;
	struct cpupri_vec pri_to_cpu[CPUPRI_NR_PRIORITIES];
	int *cpu_to_pri;		/* level of each CPU, CPUPRI_INVALID if none */
};

/* Every CPU starts CPUPRI_INVALID, as the kernel's (rq_online sets them).  0, or -1 (ENOMEM). */
int cpupri_init(struct cpupri *cp, int nr_cpus);
void cpupri_cleanup(struct cpupri *cp);

/* The level of kernel priority @prio (CPUPRI_INVALID, 0..99, 100..139, MAX_PRIO). */
int cpupri_convert_prio(int prio);

/* @cpu's highest-priority task now has kernel priority @newpri. */
void cpupri_set(struct cpupri *cp, int cpu, int newpri);

/*
 * Is there a CPU in @allowed running something of lower priority than a
 * task of kernel priority @task_prio?  1 and, if @lowest_mask, the allowed
 * CPUs of the lowest such level in it; 0 if none.
 */
int cpupri_find(const struct cpupri *cp, int task_prio, const struct dlb_cpumask *allowed,
		struct dlb_cpumask *lowest_mask);

/* Counts match masks, every CPU in exactly the mask of its level; 0, or -1 with @why. */
int cpupri_check(const struct cpupri *cp, const char **why);

#endif
