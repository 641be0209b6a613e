// SPDX-License-Identifier: GPL-2.0
/*
 * A jobs trace as the workload the reference replays (dlb_jt_workload(),
 * docs/conformance.md "Replay").  Built in the workload model itself, not
 * through JSON, because JSON times are whole µs and a kernel's releases
 * are ns; every parameter still passes the one validator (dl_param_check).
 *
 * Why an absolute timer: rt-app's timer in "absolute" mode adds its period
 * to the previous expiry whatever the time, so a period of w(k+1) - w(k)
 * after a first wake-up at w(0) wakes job k+1 at exactly w(k+1), late or
 * not; a job whose predecessor ends after w(k+1) starts at that end.  The
 * wake-up, not the release, because the scheduler sees the job then: the
 * CBS wake-up rule (update_dl_entity) compares that instant with the old
 * deadline, and a timer firing a few µs late on the traced machine turns
 * "keep the old budget" into "a new deadline and a full runtime".  The
 * replay's own release and deadline are therefore w(k) and w(k) + D; the
 * diff judges its jobs against the trace's deadlines.
 */
#include <stdlib.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/grow.h"
#include "dlbench/jobstrace.h"

/* One phase: @loop jobs of @demand, each followed by a timer of @gap (0: the last, no timer). */
static int add_phase(struct wl_task *t, size_t *cap, u64 demand, u64 gap, int loop)
{
	struct wl_phase *p;
	size_t n = gap ? 2 : 1;

	if (dlb_grow((void **)&t->phases, cap, t->nr_phases + 1, sizeof(*t->phases)))
		return -1;
	p = &t->phases[t->nr_phases];
	memset(p, 0, sizeof(*p));
	p->name = strdup("");
	p->events = calloc(n, sizeof(*p->events));
	if (!p->name || !p->events) {
		free(p->name);
		free(p->events);
		return -1;
	}
	t->nr_phases++;
	p->loop = loop;
	p->nr_events = n;
	p->events[0].type = WL_EV_RUNTIME;
	p->events[0].duration_ns = demand;
	p->events[0].res = p->events[0].dep = -1;
	p->events[0].key = strdup("runtime");
	if (!p->events[0].key)
		return -1;
	if (!gap)
		return 0;
	p->events[1].type = WL_EV_TIMER;
	p->events[1].duration_ns = gap;
	p->events[1].res = 0;		/* the one "unique" timer: per thread */
	p->events[1].dep = -1;
	p->events[1].timer_relative = false;
	p->events[1].key = strdup("timer");
	return p->events[1].key ? 0 : -1;
}

u64 dlb_jt_job_work(const struct dlb_jt_job *j, bool asked)
{
	u64 v = asked && j->asked != DLB_JT_UNKNOWN ? j->asked : j->demand;

	return v == DLB_JT_UNKNOWN ? j->asked : v;
}

static int job_demand(const struct dlb_jobs_trace *jt, const struct dlb_jt_job *j, bool asked,
		      u64 *d, struct dlb_err *err)
{
	u64 v = dlb_jt_job_work(j, asked);

	if (v == DLB_JT_UNKNOWN)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "job %llu of task '%s': its demand "
				   "is unknown (no sched_switch, no asked work): cannot replay",
				   (unsigned long long)j->job, jt->tasks[j->task].name);
	/* the trace stopped in it: it runs past the replay's end, as it did */
	if (j->open && jt->end && !dl_time_before(jt->end, jt->t0))
		v = jt->end - jt->t0 + NSEC_PER_SEC;
	*d = v;
	return 0;
}

/*
 * Task @ti's phases from its jobs (@idx: their indices in jt->jobs, in order).
 * Each job arrives at its wake-up, and the replay's timer (absolute, on the
 * task's own grid) releases the next one a gap later.  A thread that woke
 * for a job after its next release (woken a period late: a guest's vCPU
 * held by its host) never slept for that next one, whose wake-up is its
 * release, before the previous wake-up: it arrives 1 ns after the previous
 * one instead (the replay's thread then begins it at the end of the
 * previous one, as the run's did), and the grid resumes at the first
 * wake-up after that.  Releases out of order are bad input.
 */
static int task_phases(const struct dlb_jobs_trace *jt, bool asked, struct wl_task *t,
		       const size_t *idx, size_t n, struct dlb_err *err)
{
	size_t k, cap = 0;
	u64 d = 0, gap, pd = 0, pgap = 0, arr = n ? jt->jobs[idx[0]].wakeup : 0;
	int loop = 0;

	for (k = 0; k < n; k++) {
		const struct dlb_jt_job *j = &jt->jobs[idx[k]];

		if (job_demand(jt, j, asked, &d, err))
			return -1;
		gap = 0;
		if (k + 1 < n) {
			const struct dlb_jt_job *nj = &jt->jobs[idx[k + 1]];
			u64 next = nj->wakeup;

			/* the timer cannot go back: releases are in order */
			if (!dl_time_before(j->rel, nj->rel))
				return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': job %llu "
						   "does not arrive after job %llu", t->name,
						   (unsigned long long)nj->job,
						   (unsigned long long)j->job);
			if (!dl_time_before(arr, next))
				next = arr + 1;
			gap = next - arr;
			arr = next;
		}
		/* same work, same spacing: one more pass of the open phase */
		if (loop && gap && d == pd && gap == pgap && loop < (1 << 30)) {
			loop++;
			continue;
		}
		if (loop && add_phase(t, &cap, pd, pgap, loop))
			goto oom;
		pd = d;
		pgap = gap;
		loop = 1;
	}
	if (loop && add_phase(t, &cap, pd, pgap, loop))
		goto oom;
	return 0;
oom:
	return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
}

static bool all_cpus(const struct dlb_cpumask *m, int nr_cpus)
{
	int c;

	for (c = 0; c < nr_cpus; c++)
		if (!dlb_cpumask_test(m, (unsigned int)c))
			return false;
	return true;
}

/* Task @ti from its @n jobs, @idx their indices in jt->jobs in order. */
static int build_task(const struct dlb_jobs_trace *jt, bool asked, size_t ti, struct wl_task *t,
		      const size_t *idx, size_t n, struct dlb_err *err)
{
	const struct dlb_jt_task *jtt = &jt->tasks[ti];
	enum dl_param_rule rule;

	t->name = strdup(jtt->name);
	if (!t->name)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	t->instances = 1;
	t->loop = 1;
	t->policy = WL_POLICY_DEADLINE;
	t->dl = jtt->dl;
	rule = dl_param_check(&t->dl, NULL);
	if (rule != DL_PARAM_OK)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': %s", t->name,
				   dl_param_rule_str(rule));
	if (dlb_cpumask_weight(&jtt->cpus) && !all_cpus(&jtt->cpus, jt->nr_cpus)) {
		t->has_cpus = true;
		t->cpus = jtt->cpus;
	}
	if (!n)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': no jobs", t->name);
	if (dl_time_before(jt->jobs[idx[0]].wakeup, jt->t0))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': job %llu arrives "
				   "before t0", t->name, (unsigned long long)jt->jobs[idx[0]].job);
	t->delay_ns = jt->jobs[idx[0]].wakeup - jt->t0;
	return task_phases(jt, asked, t, idx, n, err);
}

int dlb_jt_workload(const struct dlb_jobs_trace *jt, bool asked, struct workload **out,
		    struct dlb_err *err)
{
	struct workload *wl = calloc(1, sizeof(*wl));
	size_t *idx = malloc((jt->nr_jobs ? jt->nr_jobs : 1) * sizeof(*idx));
	size_t *start = calloc(jt->nr_tasks + 1, sizeof(*start));
	size_t i;

	if (!wl || !idx || !start)
		goto oom;
	/* the jobs grouped by task, each task's in trace order: idx[start[t] .. start[t + 1]) */
	for (i = 0; i < jt->nr_jobs; i++)
		start[jt->jobs[i].task + 1]++;
	for (i = 0; i < jt->nr_tasks; i++)
		start[i + 1] += start[i];
	for (i = 0; i < jt->nr_jobs; i++)
		idx[start[jt->jobs[i].task]++] = i;
	for (i = jt->nr_tasks; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
	wl->path = strdup("jobs-trace");
	wl->resources = calloc(1, sizeof(*wl->resources));
	wl->tasks = calloc(jt->nr_tasks ? jt->nr_tasks : 1, sizeof(*wl->tasks));
	if (!wl->path || !wl->resources || !wl->tasks)
		goto oom;
	wl->nr_resources = 1;
	wl->resources[0].type = WL_RES_TIMER;
	wl->resources[0].unique = true;
	wl->resources[0].name = strdup("unique");
	if (!wl->resources[0].name)
		goto oom;
	wl->global.default_policy = WL_POLICY_DEADLINE;
	/* the trace's span; 0 (unknown): until every job is done */
	wl->global.duration_ns = jt->end && dl_time_before(jt->t0, jt->end) ? jt->end - jt->t0 : 0;
	for (i = 0; i < jt->nr_tasks; i++) {
		wl->nr_tasks++;
		if (build_task(jt, asked, i, &wl->tasks[i], idx + start[i], start[i + 1] - start[i],
			       err))
			goto fail;
	}
	free(idx);
	free(start);
	*out = wl;
	return 0;
oom:
	dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
fail:
	free(idx);
	free(start);
	wl_free(wl);
	return -1;
}
