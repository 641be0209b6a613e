// SPDX-License-Identifier: GPL-2.0
/* How long a run lasts (see workload.h): one rule for dlb-rtapp and dlb-sim. */
#include <stdio.h>

#include "dlbench/workload.h"

/* The first task that never ends by itself: it or one of its phases loops forever. */
static const char *endless_task(const struct workload *wl)
{
	size_t i, p;

	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (!t->instances && !t->forked)
			continue;	/* never runs */
		if (t->loop < 0)
			return t->name;
		for (p = 0; p < t->nr_phases; p++)
			if (t->phases[p].loop < 0)
				return t->name;
	}
	return NULL;
}

struct wl_length wl_run_length(const struct workload *wl, bool option_set, u64 option_ns)
{
	struct wl_length l = { WL_LEN_OPTION, option_ns, NULL };

	if (option_set && option_ns)
		return l;
	if (wl->global.duration_ns) {
		l.source = WL_LEN_WORKLOAD;
		l.ns = wl->global.duration_ns;
		return l;
	}
	l.endless = endless_task(wl);
	l.source = l.endless ? WL_LEN_DEFAULT : WL_LEN_TASKS_END;
	l.ns = l.endless ? WL_DEFAULT_DURATION_NS : 0;
	return l;
}

const char *wl_length_source_str(enum wl_length_source source)
{
	switch (source) {
	case WL_LEN_OPTION:	return "option";
	case WL_LEN_WORKLOAD:	return "workload";
	case WL_LEN_DEFAULT:	return "default";
	case WL_LEN_TASKS_END:	return "tasks-end";
	}
	return "unknown";
}

const char *wl_length_note(char *buf, size_t size, const struct workload *wl,
			   const struct wl_length *len)
{
	if (len->source == WL_LEN_DEFAULT)
		snprintf(buf, size, "%s: no duration (global.duration or -d) and task '%s' loops "
			 "forever: running %llu s", wl->path, len->endless,
			 (unsigned long long)(len->ns / NSEC_PER_SEC));
	else if (len->source == WL_LEN_TASKS_END)
		snprintf(buf, size, "%s: no duration (global.duration or -d): running until every "
			 "task ends", wl->path);
	else
		snprintf(buf, size, "%s", "");
	return buf;
}
