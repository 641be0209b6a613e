// SPDX-License-Identifier: GPL-2.0
/*
 * The canonical text dump of a loaded workload: what the file means, with
 * every default filled in and every time in ns.  Golden tests compare it
 * byte for byte, so its format only ever changes together with them.
 */
#include <stdio.h>

#include "dlbench/workload.h"

static const char *const res_type_str[] = {
	[WL_RES_MUTEX] = "mutex",
	[WL_RES_COND] = "cond",
	[WL_RES_BARRIER] = "barrier",
	[WL_RES_TIMER] = "timer",
	[WL_RES_WAKEUP] = "wakeup",
	[WL_RES_SEM] = "semaphore",
	[WL_RES_MEMREAD] = "memread",
	[WL_RES_MEMWRITE] = "memwrite",
	[WL_RES_MEMCHASE] = "memchase",
};

/* A string in double quotes; quote, backslash and control bytes escaped. */
static void dump_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static const char *bool_str(bool b)
{
	return b ? "true" : "false";
}

/* "0-3,6": ranges of set CPUs. */
static void dump_cpus(FILE *f, const struct dlb_cpumask *m)
{
	/* at worst "0,2,4,...,1022": 512 entries of 5 chars or fewer */
	char list[DLB_MAX_CPUS * 4];

	if (!m) {
		fputs("all", f);
		return;
	}
	dlb_cpumask_list(list, sizeof(list), m);
	fputs(list, f);
}

static void dump_global(FILE *f, const struct wl_global *g)
{
	fprintf(f, "global duration_ns=%llu", (unsigned long long)g->duration_ns);
	if (g->calibration_cpu >= 0)
		fprintf(f, " calibration=CPU%d", g->calibration_cpu);
	else
		fprintf(f, " calibration_ns_per_loop=%llu", (unsigned long long)g->calibration_ns);
	fprintf(f, " default_policy=%s pi_enabled=%s lock_pages=%s ftrace=%s ftrace_categories=",
		wl_policy_str(g->default_policy), bool_str(g->pi_enabled),
		bool_str(g->lock_pages), bool_str(g->ftrace));
	dump_str(f, g->ftrace_categories);
	fprintf(f, " gnuplot=%s logdir=", bool_str(g->gnuplot));
	dump_str(f, g->logdir);
	fputs(" log_basename=", f);
	dump_str(f, g->log_basename);
	if (g->log_size == WL_LOG_FILE)
		fputs(" log_size=file", f);
	else
		fprintf(f, " log_size_mb=%d", g->log_size);
	fputs(" io_device=", f);
	dump_str(f, g->io_device);
	fprintf(f, " mem_buffer_size=%llu cumulative_slack=%s\n",
		(unsigned long long)g->mem_buffer_size, bool_str(g->cumulative_slack));
}

static void dump_res_ref(FILE *f, const struct workload *wl, const char *what, int idx)
{
	if (idx < 0)
		return;
	fprintf(f, " %s=", what);
	dump_str(f, wl->resources[idx].name);
}

static void dump_event(FILE *f, const struct workload *wl, size_t i, const struct wl_event *ev)
{
	fprintf(f, "    event %zu ", i);
	dump_str(f, ev->key);
	fprintf(f, " %s", wl_event_type_str(ev->type));
	switch (ev->type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		fprintf(f, " duration_ns=%llu", (unsigned long long)ev->duration_ns);
		break;
	case WL_EV_TIMER:
		fprintf(f, " period_ns=%llu mode=%s", (unsigned long long)ev->duration_ns,
			ev->timer_relative ? "relative" : "absolute");
		break;
	case WL_EV_MEM:
	case WL_EV_IORUN:
		fprintf(f, " size=%llu", (unsigned long long)ev->size);
		break;
	case WL_EV_MEMRUN:
		fprintf(f, " count=%llu", (unsigned long long)ev->size);
		break;
	default:
		break;
	}
	dump_res_ref(f, wl, "res", ev->res);
	dump_res_ref(f, wl, "mutex", ev->dep);
	if (ev->type == WL_EV_FORK) {
		fputs(" task=", f);
		dump_str(f, wl->tasks[ev->task].name);
	}
	fputc('\n', f);
}

/* Only when given: the dumps of workloads without one are unchanged. */
static void dump_taskgroup(FILE *f, const struct workload *wl, int tg)
{
	if (tg < 0)
		return;
	fputs(" taskgroup=", f);
	dump_str(f, wl->taskgroups[tg]);
}

static void dump_uclamp(FILE *f, const struct wl_uclamp *u)
{
	if (u->has_min)
		fprintf(f, " util_min=%u", u->min);
	if (u->has_max)
		fprintf(f, " util_max=%u", u->max);
}

static void dump_membind(FILE *f, const struct wl_membind *m)
{
	if (!m->set)
		return;
	fputs(" nodes_membind=", f);
	dump_cpus(f, &m->nodes);
}

static void dump_task(FILE *f, const struct workload *wl, size_t i, const struct wl_task *t)
{
	size_t p, e;

	fprintf(f, "task %zu ", i);
	dump_str(f, t->name);
	fprintf(f, " instances=%d loop=%d policy=%s priority=%d", t->instances, t->loop,
		wl_policy_str(t->policy), t->priority);
	if (t->policy == WL_POLICY_DEADLINE)
		fprintf(f, " runtime_ns=%llu deadline_ns=%llu period_ns=%llu",
			(unsigned long long)t->dl.runtime, (unsigned long long)t->dl.deadline,
			(unsigned long long)dl_params_period(&t->dl));
	if (t->dl.flags & DL_FLAG_RECLAIM)
		fputs(" dl_flags=reclaim", f);
	if (t->slice_ns)
		fprintf(f, " slice_ns=%llu", (unsigned long long)t->slice_ns);
	fputs(" cpus=", f);
	dump_cpus(f, t->has_cpus ? &t->cpus : NULL);
	fprintf(f, " delay_ns=%llu", (unsigned long long)t->delay_ns);
	dump_taskgroup(f, wl, t->taskgroup);
	dump_uclamp(f, &t->uclamp);
	dump_membind(f, &t->membind);
	fputs(t->forked ? " forked\n" : "\n", f);
	for (p = 0; p < t->nr_phases; p++) {
		const struct wl_phase *ph = &t->phases[p];

		fprintf(f, "  phase %zu ", p);
		dump_str(f, ph->name);
		fprintf(f, " loop=%d", ph->loop);
		if (ph->has_cpus) {
			fputs(" cpus=", f);
			dump_cpus(f, &ph->cpus);
		}
		dump_taskgroup(f, wl, ph->taskgroup);
		dump_uclamp(f, &ph->uclamp);
		dump_membind(f, &ph->membind);
		fputc('\n', f);
		for (e = 0; e < ph->nr_events; e++)
			dump_event(f, wl, e, &ph->events[e]);
	}
}

int wl_dump(const struct workload *wl, FILE *f)
{
	u64 bw = wl_dl_bandwidth(wl);
	size_t i;

	dump_global(f, &wl->global);
	for (i = 0; i < wl->nr_resources; i++) {
		const struct wl_resource *r = &wl->resources[i];

		fprintf(f, "resource %zu ", i);
		dump_str(f, r->name);
		fprintf(f, " %s", res_type_str[r->type]);
		if (r->type == WL_RES_BARRIER)
			fprintf(f, " users=%u", r->users);
		if (wl_res_memrun(r))
			fprintf(f, " size=%llu", (unsigned long long)r->size);
		if (r->type == WL_RES_MEMCHASE)
			fprintf(f, " stride=%llu pattern=%s", (unsigned long long)r->stride,
				r->random ? "random" : "sequential");
		if (r->unique)
			fputs(" per_thread", f);
		fputc('\n', f);
	}
	for (i = 0; i < wl->nr_tasks; i++)
		dump_task(f, wl, i, &wl->tasks[i]);
	fprintf(f, "dl_bandwidth %llu/%llu (%.6f cpus)\n", (unsigned long long)bw,
		(unsigned long long)BW_UNIT, dl_bw_to_double(bw));
	return ferror(f) ? -1 : 0;
}
