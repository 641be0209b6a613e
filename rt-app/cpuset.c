// SPDX-License-Identifier: GPL-2.0
/* Exclusive cpuset partitions for pinned SCHED_DEADLINE tasks (see cpuset.h). */
#include "dlbench/exitcode.h"

#include "cpuset.h"

bool rtapp_cpusets_needed(const struct workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].has_cpus && wl->tasks[i].policy == WL_POLICY_DEADLINE)
			return true;
	return false;
}

int rtapp_cpusets_create(struct rtapp_cpusets *cs, const struct workload *wl,
			 struct dlb_err *err)
{
	(void)cs;
	(void)wl;
	return dlb_err_set(err, DLB_EXIT_ENV, "cpus on a SCHED_DEADLINE task: not supported yet");
}

int rtapp_cpusets_join(struct rtapp_cpusets *cs, const struct dlb_cpumask *cpus, int tid)
{
	(void)cs;
	(void)cpus;
	(void)tid;
	return 1;
}

void rtapp_cpusets_destroy(struct rtapp_cpusets *cs)
{
	(void)cs;
}
