/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tests only: build a struct workload in memory (no JSON), and collect a
 * simulation's events as short strings for exact comparison.
 */
#ifndef DLB_REF_TEST_WLBUILD_H
#define DLB_REF_TEST_WLBUILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlb_test.h"
#include "dlbench/event_text.h"
#include "dlbench/workload.h"

#include "../sim.h"

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

static inline void *wlb_grow(void *p, size_t n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p)
		abort();
	memset((char *)p + n * size, 0, size);
	return p;
}

static inline struct workload *wlb_new(u64 duration)
{
	struct workload *wl = calloc(1, sizeof(*wl));

	wl->path = strdup("test.json");
	wl->global.duration_ns = duration;
	wl->global.pi_enabled = true;
	return wl;
}

/* A task with one phase; returns its index. */
static inline int wlb_task(struct workload *wl, const char *name, enum wl_policy pol,
			   u64 runtime, u64 deadline, u64 period)
{
	struct wl_task *t;

	wl->tasks = wlb_grow(wl->tasks, wl->nr_tasks, sizeof(*wl->tasks));
	t = &wl->tasks[wl->nr_tasks];
	t->name = strdup(name);
	t->instances = 1;
	t->loop = -1;
	t->policy = pol;
	t->dl.runtime = runtime;
	t->dl.deadline = deadline;
	t->dl.period = period;
	t->nr_phases = 1;
	t->phases = calloc(1, sizeof(*t->phases));
	t->phases[0].name = strdup("");
	t->phases[0].loop = 1;
	return (int)wl->nr_tasks++;
}

static inline int wlb_res(struct workload *wl, const char *name, enum wl_res_type type)
{
	struct wl_resource *r;

	wl->resources = wlb_grow(wl->resources, wl->nr_resources, sizeof(*wl->resources));
	r = &wl->resources[wl->nr_resources];
	r->name = strdup(name);
	r->type = type;
	return (int)wl->nr_resources++;
}

static inline void wlb_ev(struct workload *wl, int task, enum wl_event_type type, u64 dur, int res)
{
	struct wl_phase *ph = &wl->tasks[task].phases[wl->tasks[task].nr_phases - 1];
	struct wl_event *e;

	ph->events = wlb_grow(ph->events, ph->nr_events, sizeof(*ph->events));
	e = &ph->events[ph->nr_events++];
	e->type = type;
	e->key = strdup("ev");
	e->duration_ns = dur;
	e->res = res;
	e->dep = -1;
}

/* A periodic task: run @run then wait for the timer of period @period. */
static inline int wlb_periodic(struct workload *wl, const char *name, u64 runtime, u64 deadline,
			       u64 period, u64 run)
{
	char tname[64];
	int t = wlb_task(wl, name, WL_POLICY_DEADLINE, runtime, deadline, period);
	int r;

	snprintf(tname, sizeof(tname), "timer_%s", name);
	r = wlb_res(wl, tname, WL_RES_TIMER);
	wlb_ev(wl, t, WL_EV_RUN, run, -1);
	wlb_ev(wl, t, WL_EV_TIMER, period, r);
	return t;
}

static inline void wlb_free(struct workload *wl)
{
	size_t i, j, k;

	for (i = 0; i < wl->nr_tasks; i++) {
		for (j = 0; j < wl->tasks[i].nr_phases; j++) {
			for (k = 0; k < wl->tasks[i].phases[j].nr_events; k++)
				free(wl->tasks[i].phases[j].events[k].key);
			free(wl->tasks[i].phases[j].events);
			free(wl->tasks[i].phases[j].name);
		}
		free(wl->tasks[i].phases);
		free(wl->tasks[i].name);
	}
	for (i = 0; i < wl->nr_resources; i++)
		free(wl->resources[i].name);
	free(wl->resources);
	free(wl->tasks);
	free(wl->path);
	free(wl);
}

/* Collected events: "T cpu what" lines, for exact comparison. */
struct wlb_log {
	char *buf;
	size_t len, cap;
	unsigned int mask;	/* 1 << DLB_EV_* to keep */
	unsigned long n;
};

static inline void wlb_logf(struct wlb_log *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void wlb_logf(struct wlb_log *l, const char *fmt, ...)
{
	va_list ap;
	char line[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (l->len + (size_t)n + 2 > l->cap) {
		l->cap = (l->cap + (size_t)n + 2) * 2;
		l->buf = realloc(l->buf, l->cap);
		if (!l->buf)
			abort();
	}
	memcpy(l->buf + l->len, line, (size_t)n);
	l->len += (size_t)n;
	l->buf[l->len] = '\0';
	l->n++;
}

/* Times in µs (the golden tests' unit), "us cpu event" with short fields. */
static inline int wlb_log_event(const struct dlb_event *ev, void *arg)
{
	struct wlb_log *l = arg;
	unsigned long long t = (unsigned long long)(ev->ts / 1000);

	if (!(l->mask & (1u << ev->type)))
		return 0;
	switch (ev->type) {
	case DLB_EV_SWITCH:
		wlb_logf(l, "%llu %d %s>%s\n", t, ev->cpu, ev->sw.prev_comm, ev->sw.next_comm);
		break;
	case DLB_EV_WAKEUP:
		wlb_logf(l, "%llu wake %s@%d\n", t, ev->wake.comm, ev->wake.target_cpu);
		break;
	case DLB_EV_MIGRATE:
		wlb_logf(l, "%llu mig %s %d>%d\n", t, ev->mig.comm, ev->mig.orig_cpu,
			 ev->mig.dest_cpu);
		break;
	case DLB_EV_THROTTLE:
		wlb_logf(l, "%llu throttle %s %lld %llu\n", t, ev->dl.comm,
			 (long long)ev->dl.runtime / 1000,
			 (unsigned long long)ev->dl.deadline / 1000);
		break;
	case DLB_EV_REPLENISH:
		wlb_logf(l, "%llu repl %s %lld %llu\n", t, ev->dl.comm,
			 (long long)ev->dl.runtime / 1000,
			 (unsigned long long)ev->dl.deadline / 1000);
		break;
	case DLB_EV_MARKER:
		wlb_logf(l, "%llu %.*s\n", t, (int)ev->mark.len, ev->mark.text);
		break;
	default:
		break;
	}
	return 0;
}

#define WLB_SWITCH	(1u << DLB_EV_SWITCH)
#define WLB_SCHED	((1u << DLB_EV_SWITCH) | (1u << DLB_EV_MIGRATE))
#define WLB_DL		((1u << DLB_EV_THROTTLE) | (1u << DLB_EV_REPLENISH))

/* Run @wl with @o, collecting events matching @mask into @log; returns dlb_sim_run's. */
static inline int wlb_run(struct workload *wl, const struct dlb_sim_opts *o, unsigned int mask,
			  struct wlb_log *log, struct dlb_sim **out, struct dlb_err *err)
{
	struct dlb_sim *sim = dlb_sim_create(wl, o, err);
	int rc;

	memset(log, 0, sizeof(*log));
	log->mask = mask;
	if (!sim)
		return -2;
	dlb_sim_set_event_hook(sim, wlb_log_event, log);
	rc = dlb_sim_run(sim, err);
	if (out)
		*out = sim;
	else
		dlb_sim_free(sim);
	return rc;
}

/* The tests' options: @cpus CPUs, every invariant checked after every step, untimed. */
static inline void wlb_opts(struct dlb_sim_opts *o, int cpus)
{
	dlb_sim_opts_init(o);
	o->nr_cpus = cpus;
	o->check = true;
	o->timed = false;
}

/*
 * wlb_run() that fails the test if the simulation fails and returns the
 * simulator (for its stats).  DLB_GOLDEN_PRINT=1 prints each run's log:
 * how a golden schedule is written down, then checked by hand.
 */
static inline struct dlb_sim *wlb_sim(struct workload *wl, struct dlb_sim_opts *o,
				      unsigned int mask, struct wlb_log *log)
{
	struct dlb_sim *sim = NULL;
	struct dlb_err err;

	if (wlb_run(wl, o, mask, log, &sim, &err) < 0)
		fail_msg("simulation failed: %s", err.msg);
	if (getenv("DLB_GOLDEN_PRINT"))
		printf("----\n%s", log->buf ? log->buf : "");
	return sim;
}

/* The collected log must be exactly @want; frees it. */
static inline void wlb_expect_log(struct wlb_log *log, const char *want)
{
	if (strcmp(log->buf ? log->buf : "", want))
		fail_msg("schedule differs\n--- got\n%s--- want\n%s", log->buf, want);
	free(log->buf);
}

#endif
