// SPDX-License-Identifier: GPL-2.0
/*
 * The interpreter of rt-app events, shared by every backend
 * (include/dlbench/interp.h says why it is a step function).
 */
#include <stdlib.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/interp.h"

int dlb_interp_init(struct dlb_interp *it, const struct workload *wl, const struct wl_task *task,
		    const struct dlb_interp_ops *ops, struct dlb_err *err)
{
	size_t p, e;

	memset(it, 0, sizeof(*it));
	it->ops = ops;
	it->wl = wl;
	it->task = task;
	if (!task->nr_phases)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task %s: no events", task->name);
	for (p = 0; p < task->nr_phases; p++) {
		if (!task->phases[p].nr_events)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task %s: phase %zu: no events",
					   task->name, p);
		for (e = 0; e < task->phases[p].nr_events; e++)
			if (task->phases[p].events[e].type == WL_EV_TIMER)
				it->has_timer = true;
	}
	/* the backend gave the thread the task's CPUs; phases may change them */
	it->phase_cpus = wl_task_phase_cpus(task);
	it->cpus = task->has_cpus ? &task->cpus : NULL;
	/* the backend put the thread in the task's taskgroup, if it has one */
	it->taskgroup = task->taskgroup;
	/* ... and set the task's clamps with its policy */
	it->uclamp_phase = -1;
	/* ... and bound its memory to the task's nodes */
	it->membind = task->membind.set ? &task->membind : NULL;
	if (it->phase_cpus && !ops->set_affinity)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task %s: cpus in a phase: not "
				   "supported by this backend", task->name);
	/* only a SCHED_DEADLINE task has a relative deadline (docs/markers.md) */
	it->rel_dl = task->policy == WL_POLICY_DEADLINE ? task->dl.deadline : 0;
	it->timers = calloc(wl->nr_resources ? wl->nr_resources : 1, sizeof(*it->timers));
	if (!it->timers)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	return 0;
}

void dlb_interp_fini(struct dlb_interp *it)
{
	free(it->timers);
	free(it->log);
	it->timers = NULL;
	it->log = NULL;
}

void dlb_interp_log_enable(struct dlb_interp *it, size_t max)
{
	it->max_log = max ? max : (size_t)-1;
}

int dlb_interp_log_reserve(struct dlb_interp *it)
{
	struct dlb_interp_logent *n;

	if (it->max_log == (size_t)-1 || it->cap_log >= it->max_log)
		return 0;
	n = realloc(it->log, it->max_log * sizeof(*n));
	if (!n)
		return -1;
	it->log = n;
	it->cap_log = it->max_log;
	return 0;
}

static void log_event(struct dlb_interp *it)
{
	struct dlb_interp_logent *n;
	size_t cap;

	if (!it->max_log || it->log_truncated)
		return;
	if (it->nr_log == it->max_log) {
		it->log_truncated = true;
		return;
	}
	if (it->nr_log == it->cap_log) {
		cap = it->cap_log ? it->cap_log * 2 : 256;
		n = realloc(it->log, cap * sizeof(*n));
		if (!n) {
			it->log_truncated = true;	/* said in the log, not lost silently */
			return;
		}
		it->log = n;
		it->cap_log = cap;
	}
	it->log[it->nr_log].phase = (unsigned int)it->phase;
	it->log[it->nr_log].ev = (unsigned int)it->ev;
	it->nr_log++;
}

int dlb_interp_log_write(const struct dlb_interp *it, FILE *f)
{
	size_t i;

	for (i = 0; i < it->nr_log; i++) {
		const struct dlb_interp_logent *l = &it->log[i];

		if (fprintf(f, "%u %s\n", l->phase, it->task->phases[l->phase].events[l->ev].key) < 0)
			return -1;
	}
	if (it->log_truncated && fprintf(f, "# truncated\n") < 0)
		return -1;
	return 0;
}

static bool sporadic_wait(const struct dlb_interp *it, const struct wl_event *e);

void dlb_interp_start(struct dlb_interp *it, u64 t_first)
{
	size_t r;

	it->t_first = t_first;
	it->next_rel = t_first;
	/* a sporadic task's first job is released by its first resume */
	it->have_next_rel = !sporadic_wait(it, &it->task->phases[0].events[0]);
	for (r = 0; r < it->wl->nr_resources; r++) {
		it->timers[r].init = true;
		it->timers[r].next = t_first;
	}
}

void dlb_interp_start_forked(struct dlb_interp *it, u64 t_first, u64 now)
{
	dlb_interp_start(it, t_first);
	if (dl_time_before(t_first, now))
		it->next_rel = now;
}

/* ---- jobs ---- */

/* A suspend of a task without a timer: its resume releases the next job. */
static bool sporadic_wait(const struct dlb_interp *it, const struct wl_event *e)
{
	return e->type == WL_EV_SUSPEND && !it->has_timer;
}

static void job_open(struct dlb_interp *it)
{
	u64 now = it->ops->now(it);

	it->rel = it->have_next_rel ? it->next_rel : now;
	it->have_next_rel = false;
	it->dl = it->rel_dl ? it->rel + it->rel_dl : 0;
	it->begin = now;
	it->run_ns = it->period_ns = it->run_wall_ns = 0;
	it->slack = 0;
	it->in_job = true;
	if (it->ops->job_begin)
		it->ops->job_begin(it);
}

/* A job ends when its work is done: a miss if that is after its deadline. */
static void job_close(struct dlb_interp *it)
{
	s64 late;

	if (!it->in_job)
		return;
	it->in_job = false;
	it->end = it->ops->now(it);
	if (it->dl) {
		late = (s64)(it->end - it->dl);
		if (!it->jobs || late > it->max_lateness)
			it->max_lateness = late;
		if (late > 0)
			it->misses++;
	}
	it->jobs++;
	if (it->ops->job_end)
		it->ops->job_end(it);
	it->job++;
}

void dlb_interp_finish(struct dlb_interp *it)
{
	job_close(it);
}

/*
 * The next event; past the last one, the next pass (the job ends there),
 * phase and task loops.  A loop of -1 repeats until the run ends.
 */
static void next(struct dlb_interp *it)
{
	const struct wl_task *t = it->task;
	int loop;

	if (++it->ev < t->phases[it->phase].nr_events)
		return;
	job_close(it);
	it->ev = 0;
	loop = t->phases[it->phase].loop;
	if (loop < 0 || ++it->ploop < loop)
		return;
	it->ploop = 0;
	if (++it->phase < t->nr_phases)
		return;
	it->phase = 0;
	it->tloop++;
	if (t->loop >= 0 && it->tloop >= (t->loop ? t->loop : 1))
		it->exit_pending = true;
}

/* ---- events ---- */

/*
 * rt-app's timer (rt-app.c, case rtapp_timer): a "unique..." ref is this
 * thread's own; any other names ONE timer shared by every thread using it,
 * whose first use sets it to that thread's t_first.  Each use adds the
 * period: the expiry.  The release is the expiry, or now if it has passed
 * in "relative" mode (the timer then restarts from now, for every user).
 */
static u64 timer_use(struct dlb_interp *it, const struct wl_event *e, u64 now, u64 *expiry)
{
	bool shared = !it->wl->resources[e->res].unique;
	struct dlb_interp_timer *tm = shared ? it->ops->timer_get(it, e->res) : &it->timers[e->res];
	u64 rel;

	if (!tm->init) {
		tm->init = true;
		tm->next = it->t_first;
	}
	*expiry = tm->next += e->duration_ns;
	if (!dl_time_before(now, *expiry) && e->timer_relative)
		tm->next = now;
	rel = tm->next;
	if (shared && it->ops->timer_put)
		it->ops->timer_put(it, e->res);
	return rel;
}

/* A final sleep or timer ends the job now; the next is released at @rel. */
static void release_next(struct dlb_interp *it, bool last, u64 rel)
{
	if (!last)
		return;
	job_close(it);
	it->next_rel = rel;
	it->have_next_rel = true;
}

/* One event (the current one); DONE to go on. */
static int event(struct dlb_interp *it, const struct wl_event *e, bool last)
{
	const struct dlb_interp_ops *ops = it->ops;
	u64 now, rel, expiry;

	switch (e->type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
		it->run_ns += e->duration_ns;
		if (!e->duration_ns)
			break;
		it->in_run = true;	/* consumed when the work ends */
		it->run_t0 = ops->now(it);
		return ops->run(it, e);
	case WL_EV_SLEEP:
		now = ops->now(it);
		release_next(it, last, now + e->duration_ns);
		next(it);
		return e->duration_ns ? ops->sleep_until(it, now + e->duration_ns) : DLB_INTERP_DONE;
	case WL_EV_TIMER:
		now = ops->now(it);
		rel = timer_use(it, e, now, &expiry);
		it->period_ns += e->duration_ns;
		it->slack = (s64)(expiry - now);
		release_next(it, last, rel);
		next(it);
		return dl_time_before(now, rel) ? ops->sleep_until(it, rel) : DLB_INTERP_DONE;
	case WL_EV_LOCK:
		next(it);
		return ops->lock(it, e->res);
	case WL_EV_UNLOCK:
		next(it);
		ops->unlock(it, e->res);
		return DLB_INTERP_DONE;
	case WL_EV_WAIT:
		next(it);
		return ops->cond_wait(it, e->res, e->dep);
	case WL_EV_SIGNAL:
	case WL_EV_BROAD:
		next(it);
		ops->cond_signal(it, e->res, e->type == WL_EV_BROAD);
		return DLB_INTERP_DONE;
	case WL_EV_SYNC:
		next(it);
		ops->cond_signal(it, e->res, false);
		return ops->cond_wait(it, e->res, e->dep);
	case WL_EV_BARRIER:
		next(it);
		return ops->barrier(it, e->res);
	case WL_EV_YIELD:
		next(it);
		return ops->yield(it);
	case WL_EV_SUSPEND:
		/*
		 * Without a timer, a resume is what releases the task (a
		 * sporadic activation): the job ends before the wait, and the
		 * next is released when the thread goes on.
		 */
		if (sporadic_wait(it, e)) {
			job_close(it);
			it->have_next_rel = false;
		}
		next(it);
		return ops->suspend(it, e->res);
	case WL_EV_RESUME:
		next(it);
		ops->resume(it, e->res);
		return DLB_INTERP_DONE;
	case WL_EV_MEM:
		next(it);
		if (ops->mem)
			ops->mem(it, e->size);
		return DLB_INTERP_DONE;
	case WL_EV_MEMRUN:
		next(it);
		if (ops->memrun)
			ops->memrun(it, e->res, e->size);
		return DLB_INTERP_DONE;
	case WL_EV_SEM_POST:
		next(it);
		ops->sem_post(it, e->res);
		return DLB_INTERP_DONE;
	case WL_EV_SEM_WAIT:
		next(it);
		return ops->sem_wait(it, e->res);
	case WL_EV_IORUN:
		next(it);
		if (ops->iorun)
			ops->iorun(it, e->size);
		return DLB_INTERP_DONE;
	case WL_EV_FORK:
		next(it);
		return ops->fork(it, e->task);
	}
	next(it);
	return DLB_INTERP_DONE;
}

static bool same_cpus(const struct dlb_cpumask *a, const struct dlb_cpumask *b)
{
	return a == b || (a && b && !memcmp(a, b, sizeof(*a)));
}

/*
 * rt-app's set_thread_affinity() at each phase: the phase's cpus, else the
 * task's, else every CPU; the thread moves only when that changes.  Done
 * as the phase starts, before its first job opens, as rt-app does it
 * before the phase's first event.
 */
static int phase_affinity(struct dlb_interp *it)
{
	const struct dlb_cpumask *m;

	if (!it->phase_cpus || it->ev || it->ploop)
		return DLB_INTERP_DONE;
	m = wl_phase_cpus(it->task, it->phase);
	if (same_cpus(m, it->cpus))
		return DLB_INTERP_DONE;
	it->cpus = m;
	return it->ops->set_affinity(it, m);
}

/* rt-app's set_thread_taskgroup() at each phase: only a phase naming another group moves it. */
static int phase_taskgroup(struct dlb_interp *it)
{
	int tg = it->task->phases[it->phase].taskgroup;

	if (it->ev || it->ploop || tg < 0 || tg == it->taskgroup || !it->ops->set_taskgroup)
		return DLB_INTERP_DONE;
	it->taskgroup = tg;
	return it->ops->set_taskgroup(it, tg);
}

/*
 * rt-app's set_thread_param() at each phase: a phase with clamps sets them
 * unless they were the last set (a phase looping, or a task whose other
 * phases have none, sets them once); a phase without keeps the thread's.
 */
static int phase_uclamp(struct dlb_interp *it)
{
	const struct wl_uclamp *u = &it->task->phases[it->phase].uclamp;

	if (it->ev || it->ploop || !wl_uclamp_set(u) || it->uclamp_phase == (int)it->phase ||
	    !it->ops->set_uclamp)
		return DLB_INTERP_DONE;
	it->uclamp_phase = (int)it->phase;
	return it->ops->set_uclamp(it, u);
}

/*
 * rt-app's set_thread_membind() at each phase: a phase with nodes binds
 * the thread to them unless it is bound to the same nodes already
 * (numa_bitmask_equal); a phase without keeps the thread's binding.
 */
static int phase_membind(struct dlb_interp *it)
{
	const struct wl_membind *m = &it->task->phases[it->phase].membind;
	bool same;

	if (it->ev || it->ploop || !m->set || !it->ops->set_membind)
		return DLB_INTERP_DONE;
	same = it->membind && !memcmp(&it->membind->nodes, &m->nodes, sizeof(m->nodes));
	it->membind = m;
	return same ? DLB_INTERP_DONE : it->ops->set_membind(it, m);
}

int dlb_interp_step(struct dlb_interp *it)
{
	unsigned long n = 0;
	int rc;

	for (;;) {
		const struct wl_phase *ph = &it->task->phases[it->phase];
		const struct wl_event *e;

		if (it->max_events && ++n > it->max_events)
			return DLB_INTERP_LIVELOCK;
		if (it->in_run) {
			it->in_run = false;
			it->run_wall_ns += it->ops->now(it) - it->run_t0;
			next(it);
			continue;
		}
		if (it->exit_pending) {
			job_close(it);
			return DLB_INTERP_EXIT;
		}
		e = &ph->events[it->ev];
		rc = phase_affinity(it);
		if (rc == DLB_INTERP_DONE)
			rc = phase_taskgroup(it);
		if (rc == DLB_INTERP_DONE)
			rc = phase_uclamp(it);
		if (rc == DLB_INTERP_DONE)
			rc = phase_membind(it);
		if (rc != DLB_INTERP_DONE)
			return rc;
		/* a sporadic task's job is released by the resume, not before the suspend */
		if (!it->in_job && !sporadic_wait(it, e))
			job_open(it);
		if (it->ops->running && !it->ops->running(it))
			return DLB_INTERP_STOP;
		log_event(it);
		rc = event(it, e, it->ev + 1 == ph->nr_events);
		if (rc != DLB_INTERP_DONE)
			return rc;
	}
}
