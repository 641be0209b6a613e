// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's CBS replay: a task's runtime and scheduling
 * deadline, replayed from the trace (cbs.h) where it has no dl_throttle /
 * dl_replenish events, to know when the kernel throttled it.
 */
#include "metrics_local.h"

/*
 * The task's CBS, when it is to be replayed: a DL task right now, its
 * parameters known, and a trace without the scheduler's own dl_throttle /
 * dl_replenish events (those, where present, are the truth).
 */
struct dlb_cbs *task_cbs(const struct dlb_metrics *m, struct task *t)
{
	const struct dlb_task_metrics *p = &t->pub;

	if (m->explicit_dl || !t->dl_now || p->param_src == DLB_PARAM_NONE || !p->runtime)
		return NULL;
	if (t->cbs.dl_runtime != p->runtime || t->cbs.dl_deadline != p->deadline ||
	    t->cbs.dl_period != (p->period ? p->period : p->deadline))
		dlb_cbs_init(&t->cbs, p->runtime, p->deadline, p->period);
	return &t->cbs;
}

/* The kernel's EDF compares the CBS's scheduling deadline: so do we, where it is replayed. */
void cbs_sync(struct dlb_metrics *m, struct task *t)
{
	struct dlb_cbs *c = task_cbs(m, t);

	if (!c || !c->valid)
		return;
	t->sched_dl = c->deadline;
	t->sched_dl_valid = true;
	m->dirty = true;
}

/* @t stops running at @ts (or moves on): charge its CBS the CPU time since cbs_from. */
void cbs_stop(struct dlb_metrics *m, struct task *t, u64 ts)
{
	struct dlb_cbs *c = task_cbs(m, t);

	/* parameters learnt while it ran (a marker after its switch-in): since then */
	if (c && !c->valid && t->cpu >= 0)
		dlb_cbs_new_period(c, t->cbs_from);
	if (c && t->cpu >= 0 && !t->stat_runtime && dl_time_before(t->cbs_from, ts))
		dlb_cbs_charge(c, ts - t->cbs_from);
	t->cbs_from = ts;
}

/*
 * sched_stat_runtime: what the kernel charged the task, the truth where
 * the trace has it.  It differs from the time between switches: the
 * kernel charges from its rq clock's last update, which can precede the
 * switch-in by hundreds of µs (seen here: 325 µs charged to a task 8 µs
 * after it was switched in, from the replenishment instant), and a CBS
 * replayed from switch times alone then keeps a task ready that the kernel
 * had already throttled.
 */
void ev_runtime(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct task *t = task_find(m, ev->rt.pid);
	struct dlb_cbs *c;

	if (!t)
		return;
	c = task_cbs(m, t);
	if (!c)
		return;
	if (!t->stat_runtime) {
		/* from now on only the kernel's charges count: settle the interval so far */
		if (t->cpu >= 0 && dl_time_before(t->cbs_from, ev->ts))
			cbs_stop(m, t, ev->ts - (ev->rt.runtime < ev->ts - t->cbs_from ?
						 ev->rt.runtime : ev->ts - t->cbs_from));
		t->stat_runtime = true;
	}
	if (!c->valid)
		dlb_cbs_new_period(c, ev->ts - ev->rt.runtime);
	dlb_cbs_charge(c, ev->rt.runtime);
}

/*
 * @t leaves the CPU at @ts: with its CBS budget used up, the kernel
 * throttles it until the replenishment timer, at deadline - D + P (a
 * timer that would already have fired replenishes at once).  Returns
 * whether it is throttled.
 */
bool cbs_throttle(struct dlb_metrics *m, struct task *t, u64 ts)
{
	struct dlb_cbs *c = task_cbs(m, t);
	u64 until;

	if (!c || !dlb_cbs_exhausted(c))
		return false;
	until = dlb_cbs_next_period(c);
	if (!dl_time_before(ts, until)) {
		dlb_cbs_replenish(c, ts);
		cbs_sync(m, t);
		return false;
	}
	task_throttled(t, ts);
	t->throttle_explicit = false;
	t->throttle_until = until;
	t->pub.throttles_inferred++;
	return true;
}

/*
 * A wake-up: a task still throttled stays so until its timer (the kernel
 * does not enqueue it before); one whose timer fired while it slept was
 * replenished then; then the CBS wake-up rule.
 */
void cbs_wakeup(struct dlb_metrics *m, struct task *t, u64 ts)
{
	struct dlb_cbs *c = task_cbs(m, t);

	if (!c)
		return;
	if (t->throttled && !t->throttle_explicit) {
		if (dl_time_before(ts, t->throttle_until))
			return;
		dlb_cbs_replenish(c, t->throttle_until);
		task_unthrottled(t, t->throttle_until);
	}
	dlb_cbs_wakeup(c, ts);
	cbs_sync(m, t);
}

/* A sched event showed whether @t is SCHED_DEADLINE now; leaving it forgets its CBS. */
void task_dl_now(struct task *t, bool dl)
{
	if (dl)
		t->pub.is_dl = true;
	else if (t->dl_now)
		t->cbs.valid = false;
	t->dl_now = dl;
}
