// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's ready set and CPUs (who runs, time by what ran),
 * and the G-EDF priority inversion computed from them.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics_local.h"

/* ---- ready set ---- */

int task_set_ready(struct dlb_metrics *m, struct task *t, bool ready)
{
	if (ready && !t->pub.is_dl)
		return 0;
	if (ready == (t->wait_idx >= 0))
		return 0;
	m->dirty = true;
	if (!ready) {
		struct task *last = m->waiting[--m->nr_waiting];

		m->waiting[t->wait_idx] = last;
		last->wait_idx = t->wait_idx;
		t->wait_idx = -1;
		return 0;
	}
	if (m->nr_waiting == m->waiting_alloc) {
		size_t n = m->waiting_alloc ? m->waiting_alloc * 2 : 16;
		struct task **w = realloc(m->waiting, n * sizeof(*w));

		if (!w)
			return -1;
		m->waiting = w;
		w = realloc(m->elig, n * sizeof(*w));
		if (!w)
			return -1;
		m->elig = w;
		m->waiting_alloc = n;
	}
	t->wait_idx = (int)m->nr_waiting;
	t->ready_ts = m->last_ts;
	m->waiting[m->nr_waiting++] = t;
	return 0;
}

/* ---- CPUs ---- */

struct cpu *cpu_get(struct dlb_metrics *m, int c)
{
	if (c < 0 || c >= DLB_MAX_CPUS)
		return NULL;
	if (c >= m->nr_cpus_alloc) {
		int n = c < 7 ? 8 : c * 2 + 1;
		struct cpu *p;

		if (n > DLB_MAX_CPUS)
			n = DLB_MAX_CPUS;
		p = realloc(m->cpus, (size_t)n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + m->nr_cpus_alloc, 0, (size_t)(n - m->nr_cpus_alloc) * sizeof(*p));
		m->cpus = p;
		m->nr_cpus_alloc = n;
	}
	if (c > m->max_cpu)
		m->max_cpu = c;
	return &m->cpus[c];
}

/* Time on @c from its @since to @ts, by what ran: DL task, other task, idle. */
void cpu_account(struct cpu *c, u64 ts, int pid, bool dl, u64 since)
{
	u64 dt = ts - since;

	if (pid == 0)
		c->pub.idle_ns += dt;
	else if (dl)
		c->pub.dl_ns += dt;
	else
		c->pub.other_ns += dt;
}

/*
 * Global EDF promises that the M earliest-deadline ready jobs run (M: the
 * CPUs).  So a ready job is inverted while fewer than M jobs with earlier
 * deadlines are ready or running: then some CPU it may use is idle, runs
 * a non-DL task, or runs a DL job with a later deadline, and no earlier
 * waiting job has a better claim to it.  (Counting every waiter behind a
 * free CPU, as "some CPU is free" would, counts one free CPU for several
 * waiters: seen on the kernel, two tasks queued behind one CPU that ran a
 * fair task for 1.6 ms both counted.)  Ties: a running job of the same
 * deadline is ahead (G-EDF may run either); equal waiting deadlines are
 * ordered by tid.  Affinity is taken as every CPU (the trace does not say
 * otherwise); a CPU whose occupant we do not know yet (before its first
 * sched_switch) is not counted, and one running a DL task of unknown
 * deadline counts as ahead of everyone.
 */
static int cmp_dl(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return dl_time_before(x, y) ? -1 : x != y;
}

static void cpu_summary(struct dlb_metrics *m)
{
	int i;

	m->nr_known = m->nr_dl_unknown = m->nr_run_dl = 0;
	for (i = 0; i <= m->max_cpu && i < m->nr_cpus_alloc; i++) {
		struct cpu *c = &m->cpus[i];

		if (!c->known)
			continue;
		m->nr_known++;
		if (c->curr_pid == 0 || !c->curr_dl)
			continue;
		if (!c->curr || !c->curr->sched_dl_valid)
			m->nr_dl_unknown++;
		else
			m->run_dl[m->nr_run_dl++] = c->curr->sched_dl;
	}
	qsort(m->run_dl, (size_t)m->nr_run_dl, sizeof(m->run_dl[0]), cmp_dl);
	m->dirty = false;
}

/* Running DL jobs whose deadline is not later than @dl. */
static int running_ahead(const struct dlb_metrics *m, u64 dl)
{
	int lo = 0, hi = m->nr_run_dl;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (dl_time_before(dl, m->run_dl[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int cmp_waiting(const void *a, const void *b)
{
	const struct task *x = *(struct task *const *)a, *y = *(struct task *const *)b;

	if (x->sched_dl != y->sched_dl)
		return dl_time_before(x->sched_dl, y->sched_dl) ? -1 : 1;
	return x->pub.tid < y->pub.tid ? -1 : x->pub.tid > y->pub.tid;
}

/* The replenishment timer fires at @at: a period's runtime per period the deadline moves on. */
static void task_unthrottle(struct dlb_metrics *m, struct task *t, u64 at)
{
	struct dlb_cbs *c = task_cbs(m, t);

	task_unthrottled(t, at);
	if (c)
		dlb_cbs_replenish(c, at);
	cbs_sync(m, t);
}

/*
 * Charge the interval [last_ts, ts) to the inverted ready tasks: those
 * with fewer than M earlier jobs ready or running (cpu_summary).  A
 * throttled task is not ready: it joins at its replenishment (the
 * dl_replenish event, or the replayed CBS's timer, inside the interval);
 * nor is one its last sched event showed out of SCHED_DEADLINE.
 */
void account_inversion(struct dlb_metrics *m, u64 ts)
{
	u64 union_from = ts;
	size_t i, n = 0;

	if (!m->nr_waiting || ts == m->last_ts)
		return;
	for (i = 0; i < m->nr_waiting; i++) {
		struct task *w = m->waiting[i];

		w->inv_from = m->last_ts;
		if (w->throttled) {
			if (w->throttle_explicit || !dl_time_before(w->throttle_until, ts))
				continue;
			if (dl_time_before(w->inv_from, w->throttle_until))
				w->inv_from = w->throttle_until;
			task_unthrottle(m, w, w->throttle_until);
			w->unthr_lazy = true;	/* ready since then (unavail_fair) */
			w->unthr_at = w->throttle_until;
		}
		/* !dl_now: no longer SCHED_DEADLINE (a generator resets its threads at the end) */
		if (w->sched_dl_valid && w->dl_now)
			m->elig[n++] = w;
	}
	if (m->opts.jobs_only)
		return;		/* the throttles above are still ended in time */
	if (m->dirty)
		cpu_summary(m);
	if (n > 1)
		qsort(m->elig, n, sizeof(m->elig[0]), cmp_waiting);
	for (i = 0; i < n; i++) {
		struct task *w = m->elig[i];

		if ((int)i + m->nr_dl_unknown + running_ahead(m, w->sched_dl) >= m->nr_known)
			continue;
		w->pub.inversion_ns += ts - w->inv_from;
		w->inv_job += ts - w->inv_from;
		if (dl_time_before(w->inv_from, union_from))
			union_from = w->inv_from;
	}
	m->run.inversion_ns += ts - union_from;
}
