/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Global CPU deadline management: the max-heap of the CPUs' earliest
 * deadlines plus the mask of CPUs without -deadline tasks.  Seed patch 007
 * (15/16 "sched: speed up -dl pushes with a push-heap", kernel/sched_cpudl.[ch]).
 */
#ifndef DLB_REF_CPUDL_H
#define DLB_REF_CPUDL_H

#include "dlbench/cpumask.h"
#include "dlbench/dltime.h"

#define IDX_INVALID	-1

struct array_item {
	u64 dl;
	int cpu;
};

struct cpudl {
	int size;
	int nr_cpus;			/* NR_CPUS of this simulation */
	int *cpu_to_idx;
	struct array_item *elements;
	struct dlb_cpumask free_cpus;
};

struct task_struct;

int cpudl_init(struct cpudl *cp, int nr_cpus);
void cpudl_cleanup(struct cpudl *cp);
int cpudl_find(struct cpudl *cp, const struct dlb_cpumask *dlo_mask,
	       struct task_struct *p, struct dlb_cpumask *later_mask);
void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid);

/* Heap order and cpu_to_idx back-pointers; 0 ok, -1 broken (msg in @why). */
int cpudl_check(const struct cpudl *cp, const char **why);

#endif
