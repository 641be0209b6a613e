// SPDX-License-Identifier: GPL-2.0
/*
 * The loaded workload model: freeing it, and the questions its users ask.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/workload.h"

void wl_free(struct workload *wl)
{
	size_t i, p, e;

	if (!wl)
		return;
	for (i = 0; i < wl->nr_tasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		for (p = 0; p < t->nr_phases; p++) {
			for (e = 0; e < t->phases[p].nr_events; e++)
				free(t->phases[p].events[e].key);
			free(t->phases[p].events);
			free(t->phases[p].name);
		}
		free(t->phases);
		free(t->name);
	}
	free(wl->tasks);
	for (i = 0; i < wl->nr_resources; i++)
		free(wl->resources[i].name);
	free(wl->resources);
	for (i = 0; i < wl->nr_taskgroups; i++)
		free(wl->taskgroups[i]);
	free(wl->taskgroups);
	for (i = 0; i < wl->nr_warnings; i++)
		free(wl->warnings[i]);
	free(wl->warnings);
	free(wl->global.logdir);
	free(wl->global.log_basename);
	free(wl->global.ftrace_categories);
	free(wl->global.io_device);
	free(wl->path);
	free(wl);
}

const struct wl_task *wl_taskgroup_task(const struct workload *wl)
{
	size_t i, p;

	for (i = 0; i < wl->nr_tasks; i++) {
		if (wl->tasks[i].taskgroup >= 0)
			return &wl->tasks[i];
		for (p = 0; p < wl->tasks[i].nr_phases; p++)
			if (wl->tasks[i].phases[p].taskgroup >= 0)
				return &wl->tasks[i];
	}
	return NULL;
}

u64 wl_dl_bandwidth(const struct workload *wl)
{
	u64 bw = 0;
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (t->policy == WL_POLICY_DEADLINE)
			bw += (u64)t->instances * to_ratio(dl_params_period(&t->dl), t->dl.runtime);
	}
	return bw;
}

int wl_warnings_write(const struct workload *wl, const char *prog, FILE *f)
{
	size_t i;

	for (i = 0; i < wl->nr_warnings; i++)
		if (fprintf(f, "%s: warning: %s\n", prog, wl->warnings[i]) < 0)
			return -1;
	return (int)wl->nr_warnings;
}

size_t wl_max_threads(const struct workload *wl)
{
	size_t i, n = 0;

	for (i = 0; i < wl->nr_tasks; i++)
		n += (size_t)wl->tasks[i].instances + (wl->tasks[i].forked ? WL_FORK_LIMIT : 0);
	return n;
}

const char *wl_thread_name(char *buf, size_t size, const struct wl_task *t, size_t index,
			   int fork)
{
	/* rt-app's buffer: the name, 10 characters of postfix, the NUL */
	size_t max = strlen(t->name) + 11;

	if (max > size)
		max = size;
	if (fork < 0)
		snprintf(buf, max, "%s-%zu", t->name, index);
	else
		snprintf(buf, max, "%s-%zu-%04d", t->name, index, fork);
	return buf;
}
