// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's scheduling events: switches, wake-ups, migrations,
 * throttling, exits, and dlb_metrics_event(), which dispatches every event.
 */
#include <stdlib.h>

#include "metrics_local.h"

static void switch_out(struct dlb_metrics *m, struct task *t, const struct dlb_event *ev)
{
	struct dlb_task_metrics *p = &t->pub;
	u64 ts = ev->ts;

	cbs_stop(m, t, ts);
	if (t->cpu >= 0) {
		p->cpu_time += ts - t->run_since;
		if (t->in_job)
			task_seg_exec(m, t, ts);
		task_seg(m, t, ts);
	}
	/*
	 * Asleep (or dead).  The readers mask prev_state, the reference's
	 * events in process (the conformance replay's) carry its raw 0x100
	 * of a preempted task (TASK_REPORT_MAX, "R+"): runnable too.
	 */
	if (!dlb_ev_prev_runnable(ev)) {
		task_set_ready(m, t, false);
		/* rt-app writes its end marker after the timer's sleep: the job's work ended here */
		if (t->in_job && t->rtapp) {
			job_finish(m, t, ts);
			t->expect_end = true;
		}
		t->cpu = -1;
		/* the kernel throttles an exhausted task on its way out too */
		cbs_throttle(m, t, ts);
		return;
	}
	t->cpu = -1;
	/*
	 * Preempted by a deadline task: it waits on this runqueue.  Switched
	 * out for another class, it was throttled or the fair server took
	 * the CPU: the trace does not tell them apart (mainline has no
	 * deadline tracepoints, and our CBS replay misses throttles after
	 * overruns), so that wait is not taken as the fair server's share.
	 */
	t->rq_cpu = ev->sw.next_prio == DLB_PRIO_DL ? ev->cpu : -1;
	task_set_ready(m, t, true);
	if (t->throttled)	/* by a dl_throttle event just before */
		return;
	/*
	 * Switched out runnable: throttled if its CBS budget is used up,
	 * else preempted.  The budget is the CBS's, not the job's: a task
	 * that overran pays it back in the following periods.
	 */
	if (cbs_throttle(m, t, ts))
		return;
	p->preemptions++;
	t->preempt_job++;
}

/* @t starts running on @cpu at @ts: a migration pending to @cpu is complete. */
static void task_runs_on(struct dlb_metrics *m, struct task *t, int cpu, u64 ts)
{
	struct dlb_cbs *c = task_cbs(m, t);

	/* it runs: the kernel replenished it, whatever our replay said */
	if (c && t->throttled && !t->throttle_explicit)
		dlb_cbs_replenish(c, ts);
	else if (c && !c->valid)
		dlb_cbs_new_period(c, ts);	/* first seen as a DL task */
	task_unthrottled(t, ts);	/* before t->cpu: was it ready? */
	t->cpu = cpu;
	t->run_since = ts;
	/* the overheads a job's CPU time holds (conform.c charges them in its replay) */
	t->slice_moved = t->last_run_cpu >= 0 && t->last_run_cpu != cpu;
	t->last_run_cpu = cpu;
	if (t->in_job) {
		t->sw_job++;
		t->moved_job += t->slice_moved;
	}
	task_seg(m, t, ts);
	t->cbs_from = ts;
	cbs_sync(m, t);
	task_set_ready(m, t, false);
	if (t->mig_pending) {
		if (t->mig_dest == cpu)
			dlb_stat_add(&t->pub.mig_delay, (s64)(ts - t->mig_ts));
		t->mig_pending = false;
	}
}

static void switch_in(struct dlb_metrics *m, struct task *t, const struct dlb_event *ev)
{
	t->pub.switches_in++;
	task_runs_on(m, t, ev->cpu, ev->ts);
}

static int ev_switch(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
{
	struct task *prev = NULL, *next = NULL;
	bool prev_dl = ev->sw.prev_prio == DLB_PRIO_DL, next_dl = ev->sw.next_prio == DLB_PRIO_DL;

	m->run.switches++;
	c->pub.switches++;
	if (ev->sw.prev_pid && task_lookup(m, ev->sw.prev_pid, prev_dl, ev->sw.prev_comm, &prev))
		return -1;
	if (ev->sw.next_pid && task_lookup(m, ev->sw.next_pid, next_dl, ev->sw.next_comm, &next))
		return -1;
	/* what ran before the first switch on this CPU is what it switches away from */
	if (c->known)
		cpu_account(c, ev->ts, c->curr_pid, c->curr_dl, c->since);
	else
		cpu_account(c, ev->ts, ev->sw.prev_pid, prev_dl, c->pub.first_ts);
	if (prev) {
		task_dl_now(prev, prev_dl);
		task_name(m, prev, ev->sw.prev_comm);
		switch_out(m, prev, ev);
	}
	if (next) {
		task_dl_now(next, next_dl);
		task_name(m, next, ev->sw.next_comm);
		switch_in(m, next, ev);
	}
	c->known = true;
	cpu_set_curr(m, c, ev->sw.next_pid, ev->sw.next_prio);
	c->curr_dl = next_dl;
	c->curr = next;
	c->since = ev->ts;
	m->dirty = true;
	return 0;
}

/*
 * The job a wake-up releases has not said its deadline yet (begin comes
 * when it runs).  The kernel's EDF compares the CBS's, which the replay
 * has just set; without one: rt-app's is the wake-up + D, ours is the
 * release marker's, or predicted as the last one + P.
 */
static void wakeup_deadline(struct dlb_metrics *m, struct task *t, u64 ts)
{
	const struct dlb_task_metrics *p = &t->pub;

	if (task_cbs(m, t) && t->cbs.valid)
		return;
	if (t->rtapp && p->param_src != DLB_PARAM_NONE) {
		t->sched_dl = ts + p->deadline;
		t->sched_dl_valid = true;
	} else if (t->pend_rel && t->pend_dl_valid) {
		t->sched_dl = t->pend_dl;
		t->sched_dl_valid = true;
	} else if (t->last_valid && t->last_dl && p->period) {
		t->sched_dl = t->last_dl + p->period;
		t->sched_dl_valid = true;
		t->predicted = true;
	}
}

static int ev_wakeup(struct dlb_metrics *m, const struct dlb_event *ev)
{
	bool dl = ev->wake.prio == DLB_PRIO_DL;
	struct task *t;

	m->run.wakeups++;
	if (task_lookup(m, ev->wake.pid, dl, ev->wake.comm, &t))
		return -1;
	if (!t)
		return 0;
	task_dl_now(t, dl);
	task_name(m, t, ev->wake.comm);
	if (t->cpu >= 0)
		return 0;
	cbs_wakeup(m, t, ev->ts);
	/* the runqueue it was woken onto (sched_wakeup's target_cpu) */
	t->rq_cpu = ev->wake.target_cpu >= 0 && ev->wake.target_cpu < DLB_MAX_CPUS ?
		    ev->wake.target_cpu : ev->cpu;
	if (!t->in_job) {
		t->last_wakeup = ev->ts;
		t->woke_since_done = true;
		wakeup_deadline(m, t, ev->ts);
		stall_wakeup(m, t, ev->cpu);
	}
	return task_set_ready(m, t, true);
}

/*
 * sched_waking: the CPU that wakes it, where its timer fired (sched_wakeup
 * may come from the CPU it wakes on, queued there): that CPU's last stall.
 */
static void ev_waking(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct task *t = task_find(m, ev->wake.pid);

	if (t && !t->in_job && t->cpu < 0)
		stall_wakeup(m, t, ev->cpu);
}

static int ev_migrate(struct dlb_metrics *m, const struct dlb_event *ev)
{
	bool dl = ev->mig.prio == DLB_PRIO_DL;
	struct task *t = dl ? task_get(m, ev->mig.pid) : task_find(m, ev->mig.pid);
	struct cpu *from, *to;

	if (!t)
		return dl ? -1 : 0;
	task_dl_now(t, dl);
	if (!t->pub.is_dl)
		return 0;
	task_name(m, t, ev->mig.comm);
	m->run.migrations++;
	t->pub.migrations++;
	t->mig_job++;
	if (ev->mig.dest_cpu >= 0 && ev->mig.dest_cpu < DLB_MAX_CPUS)
		t->rq_cpu = ev->mig.dest_cpu;	/* pushed or pulled: it waits there */
	from = cpu_get(m, ev->mig.orig_cpu);
	to = cpu_get(m, ev->mig.dest_cpu);
	if (from)
		from->pub.migrations_out++;
	if (to)
		to->pub.migrations_in++;
	if (t->cpu < 0) {
		t->mig_pending = true;
		t->mig_ts = ev->ts;
		t->mig_dest = ev->mig.dest_cpu;
	} else if (t->cpu == ev->mig.dest_cpu && t->run_since == ev->ts) {
		/*
		 * Already switched in on its new CPU at this very instant: the
		 * two CPUs' events tie, and a trace.dat reader merges ties in
		 * CPU order, not in the order they happened (the reference's
		 * trace.dat has such ties; its text keeps the order).
		 */
		dlb_stat_add(&t->pub.mig_delay, 0);
	}
	return 0;
}

static void ev_dl(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct task *t = task_find(m, ev->dl.pid);

	if (!t)
		return;
	m->dirty = true;
	m->explicit_dl = true;
	if (ev->type == DLB_EV_THROTTLE) {
		t->pub.throttles++;
		task_throttled(t, ev->ts);
		t->throttle_explicit = true;
		return;
	}
	task_unthrottled(t, ev->ts);
	t->sched_dl = ev->dl.deadline;
	t->sched_dl_valid = true;
}

static void ev_exit(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct task *t = task_find(m, ev->exit.pid);

	if (!t)
		return;
	cbs_stop(m, t, ev->ts);
	task_set_ready(m, t, false);
	t->cpu = -1;
}

/*
 * An event recorded on CPU c with common_pid P proves that P runs on c.
 * Traces do miss sched_switch events (seen here: a wake-up from idle,
 * then markers of the woken task, with no switch between); without this,
 * that task would look ready-and-waiting while it runs.
 */
void implicit_switch_in(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
{
	struct task *t = task_find(m, ev->pid);

	if (!t || t->cpu == ev->cpu)
		return;
	m->run.implicit_switches++;
	if (c->known) {
		cpu_account(c, ev->ts, c->curr_pid, c->curr_dl, c->since);
		if (c->curr && c->curr != t && c->curr->cpu == ev->cpu) {
			cbs_stop(m, c->curr, ev->ts);
			c->curr->pub.cpu_time += ev->ts - c->curr->run_since;
			c->curr->cpu = -1;
		}
		cpu_set_curr(m, c, t->pub.tid, t->pub.is_dl ? DLB_PRIO_DL : -2);	/* -2: class unknown */
		c->curr_dl = t->pub.is_dl;
		c->curr = t;
		c->since = ev->ts;
	}
	if (t->cpu >= 0) {
		cbs_stop(m, t, ev->ts);
		t->pub.cpu_time += ev->ts - t->run_since;
	}
	task_runs_on(m, t, ev->cpu, ev->ts);
	m->dirty = true;
}

int dlb_metrics_marker_event(const struct dlb_event *ev, const struct dlb_marker *mk,
			     struct dlb_metrics *m)
{
	int rc;

	m->marker = mk;
	rc = dlb_metrics_event(ev, m);
	m->marker = NULL;
	return rc;
}

static int ev_sched(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev);

int dlb_metrics_event(const struct dlb_event *ev, void *arg)
{
	struct dlb_metrics *m = arg;
	struct dlb_event fixed;
	struct cpu *c;

	m->run.events++;
	if (!m->started) {
		m->started = true;
		m->run.first_ts = m->last_ts = ev->ts;
	}
	if (dl_time_before(ev->ts, m->last_ts)) {
		/* keep time monotonic: intervals would go negative */
		dlb_metrics_flag(m, DLB_Q_BACKWARDS, 1, "event at %llu ns after one at %llu ns",
				 (unsigned long long)ev->ts, (unsigned long long)m->last_ts);
		fixed = *ev;
		fixed.ts = m->last_ts;
		ev = &fixed;
	}
	account_inversion(m, ev->ts);
	m->last_ts = ev->ts;
	c = cpu_get(m, ev->cpu);
	if (!c) {
		if (ev->cpu >= 0 && ev->cpu < DLB_MAX_CPUS)
			return -1;
		dlb_metrics_flag(m, DLB_Q_BAD_LINES, 1, "event at %llu ns on CPU %d, not in 0..%d",
				 (unsigned long long)ev->ts, ev->cpu, DLB_MAX_CPUS - 1);
		return 0;
	}
	if (!c->seen) {
		c->seen = true;
		c->pub.first_ts = ev->ts;
	}
	c->pub.events++;
	if (stall_event(m, c, ev))
		return -1;
	/* markers: only those a running writer writes about itself (ev_marker) */
	if (ev->pid > 0 && ev->type != DLB_EV_SWITCH && ev->type != DLB_EV_MARKER)
		implicit_switch_in(m, c, ev);
	if (unavail_event(m, c, ev))
		return -1;
	if (ev_sched(m, c, ev))
		return -1;
	stall_after(c, ev);
	return unavail_fair(m, ev->ts);
}

/* The event's effect on the tasks and CPUs; -1: allocation. */
static int ev_sched(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
{
	switch (ev->type) {
	case DLB_EV_SWITCH:
		return ev_switch(m, c, ev);
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
		return ev_wakeup(m, ev);
	case DLB_EV_WAKING:
		ev_waking(m, ev);
		return 0;
	case DLB_EV_MIGRATE:
		return ev_migrate(m, ev);
	case DLB_EV_MARKER:
		return ev_marker(m, ev);
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		ev_dl(m, ev);
		return 0;
	case DLB_EV_EXIT:
		ev_exit(m, ev);
		return 0;
	case DLB_EV_RUNTIME:
		/*
		 * The tick grid from the charges of -deadline tasks only: other
		 * tasks' come at every wake-up and exit as well, and on a busy
		 * machine (short-lived processes) they drowned the ticks.
		 */
		if (!m->opts.jobs_only && c->curr_dl && c->nr_rt_ts < DLB_TICK_SAMPLES) {
			if (!c->rt_ts && !(c->rt_ts = malloc(DLB_TICK_SAMPLES * sizeof(*c->rt_ts))))
				return -1;
			c->rt_ts[c->nr_rt_ts++] = ev->ts;
		}
		ev_runtime(m, ev);
		return 0;
	case DLB_EV_LOST:
		dlb_metrics_flag(m, DLB_Q_LOST_EVENTS, ev->lost.count ? ev->lost.count : 1,
				 "CPU %d lost events at %llu ns", ev->cpu,
				 (unsigned long long)ev->ts);
		return 0;
	default:
		return 0;
	}
}
