// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine: one pass over the normalized event stream, keeping
 * per-task and per-CPU state only.  Definitions in docs/analyzer.md.
 *
 * What "running", "ready" and "throttled" mean here, from sched events only
 * (mainline has no deadline tracepoints):
 *   running    switched in by sched_switch, until switched out;
 *   ready      woken (sched_wakeup) or switched out runnable (prev_state 0);
 *   throttled  between dl_throttle and dl_replenish events when a trace
 *              has them (the reference does); else switched out runnable
 *              with its CBS budget used up, until the replenishment, as
 *              the task's CBS replayed from the trace says (cbs.h): the
 *              budget is the kernel's, per period and carried across jobs,
 *              not the job's own execution time.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbs.h"
#include "dlbench/cpumask.h"
#include "dlbench/exitcode.h"
#include "metrics.h"

struct task {
	struct dlb_task_metrics pub;
	int cpu;			/* CPU it runs on, -1 when not running */
	u64 run_since;			/* switch-in instant */
	u64 seg_start;			/* start of the running segment counted in exec */
	int wait_idx;			/* index in m->waiting, -1 when not ready */
	u64 inv_from;			/* account_inversion: waiting inverted since */
	u64 inv_job;			/* inversion since the previous job ended */
	unsigned int thr_job;		/* throttles since the previous job ended */
	bool throttled, throttle_explicit;
	u64 throttle_until;
	bool sched_dl_valid;		/* sched_dl: the deadline EDF compares */
	u64 sched_dl;
	bool dl_now;			/* its last sched event showed it SCHED_DEADLINE */
	struct dlb_cbs cbs;		/* its CBS, replayed (traces without dl_* events) */
	u64 cbs_from;			/* running: CPU time charged up to here */
	bool stat_runtime;		/* the kernel's own charges (sched_stat_runtime) seen */
	bool predicted;			/* sched_dl was predicted at wake-up */
	bool mig_pending;		/* migrated, not yet running on mig_dest */
	u64 mig_ts;
	int mig_dest;
	unsigned int mig_job;		/* migrations since the previous job ended */

	/* the current job */
	bool in_job, expect_end, rtapp;
	bool name_fixed;		/* named by a marker or the caller */
	u64 job_idx, job_count, rel, dl, begin, exec;
	u64 wake;			/* the wake-up that let the job run, 0: none seen */
	bool dl_valid;
	enum dlb_rel_src rel_src;
	unsigned int preempt_job;
	int cpu_begin;

	/* release marker seen ahead of its job */
	bool pend_rel;
	bool pend_dl_valid;	/* the release said its deadline (DL tasks only) */
	u64 pend_job, pend_rel_ts, pend_dl;

	/* for inferring releases (rt-app markers) and predicting deadlines */
	bool woke_since_done, last_valid;
	u64 last_wakeup, last_rel, last_dl, last_end;
	bool zero_valid;		/* rt-app's zero time, which its timer counts from */
	u64 zero;
};

struct cpu {
	struct dlb_cpu_metrics pub;
	bool seen, known;		/* known: a sched_switch told us who runs */
	int curr_pid;
	bool curr_dl;
	struct task *curr;		/* tracked task running, or NULL */
	u64 since;
};

struct named_params {
	char name[DLB_NAME_MAX];
	u64 runtime, deadline, period;
};

struct dlb_metrics {
	struct dlb_metrics_opts opts;
	struct named_params *named;	/* parameters for tasks known by name only */
	size_t nr_named;
	struct dlb_run_metrics run;
	/* tid -> task, open addressing, power-of-two size */
	struct task **hash;
	size_t hash_size, nr_tasks;
	struct task **sorted;		/* by tid, after finish */
	struct cpu *cpus;
	int nr_cpus_alloc, max_cpu;
	struct task **waiting;		/* ready DL tasks */
	size_t nr_waiting, waiting_alloc;
	bool started, finished, dirty;
	bool explicit_dl;		/* the trace has dl_throttle / dl_replenish events */
	u64 last_ts;
	/* the last rt-app zero time (CLOCK_REF marker), for the threads that start after it */
	bool clock_ref_valid;
	u64 clock_ref;
	/* CPU summary for inversion, recomputed when dirty */
	int nr_known;			/* CPUs whose occupant is known */
	int nr_dl_unknown;		/* of those, running a DL task of unknown deadline */
	int nr_run_dl;			/* running DL tasks of known deadline ... */
	u64 run_dl[DLB_MAX_CPUS];	/* ... their deadlines, sorted */
	struct task **elig;		/* scratch: waiting tasks that may be inverted */
	struct dlb_err perr;
};

static const char *const quality_names[] = {
#define X(id, name, sev, text) name,
	DLB_QUALITY_FLAGS(X)
#undef X
};

static const char *const quality_texts[] = {
#define X(id, name, sev, text) text,
	DLB_QUALITY_FLAGS(X)
#undef X
};

static const int quality_sev[] = {
#define X(id, name, sev, text) sev,
	DLB_QUALITY_FLAGS(X)
#undef X
};

int dlb_quality_severity(enum dlb_quality q)
{
	return (unsigned int)q < DLB_Q_NR ? quality_sev[q] : 1;
}

const char *dlb_quality_name(enum dlb_quality q)
{
	return (unsigned int)q < DLB_Q_NR ? quality_names[q] : "unknown";
}

const char *dlb_quality_text(enum dlb_quality q)
{
	return (unsigned int)q < DLB_Q_NR ? quality_texts[q] : "unknown";
}

int dlb_quality_find(const char *name)
{
	int i;

	for (i = 0; i < DLB_Q_NR; i++)
		if (!strcmp(name, quality_names[i]))
			return i;
	return -1;
}

const char *dlb_rel_src_str(enum dlb_rel_src s)
{
	switch (s) {
	case DLB_REL_MARKER:	return "marker";
	case DLB_REL_WAKEUP:	return "wakeup";
	case DLB_REL_PERIOD:	return "period";
	case DLB_REL_BEGIN:	return "begin";
	case DLB_REL_CLOCK_REF:	return "clock_ref";
	case DLB_REL_LATE_END:	return "late_end";
	}
	return "unknown";
}

void dlb_metrics_flag(struct dlb_metrics *m, enum dlb_quality q, u64 count, const char *fmt, ...)
{
	struct dlb_quality_flag *f = &m->run.quality[q];
	va_list ap;

	if (!count)
		return;
	/* keep the first occurrence's detail: it says where to look */
	if (!f->count && fmt) {
		va_start(ap, fmt);
		vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
		va_end(ap);
	}
	f->count += count;
}

struct dlb_metrics *dlb_metrics_create(const struct dlb_metrics_opts *opts, struct dlb_err *err)
{
	struct dlb_metrics *m = calloc(1, sizeof(*m));

	if (!m)
		goto nomem;
	if (opts)
		m->opts = *opts;
	if (m->opts.nr_cpus < 0 || m->opts.nr_cpus > DLB_MAX_CPUS) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "cpus: %d is not in 1..%d", m->opts.nr_cpus,
			    DLB_MAX_CPUS);
		free(m);
		return NULL;
	}
	m->hash_size = 64;
	m->hash = calloc(m->hash_size, sizeof(*m->hash));
	if (!m->hash) {
		free(m);
		goto nomem;
	}
	m->max_cpu = m->opts.nr_cpus - 1;
	m->run.run_status = DLB_RUN_COMPLETE;
	return m;
nomem:
	dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	return NULL;
}

/* ---- tasks ---- */

static size_t hash_slot(const struct dlb_metrics *m, int tid)
{
	size_t h = (size_t)(unsigned int)tid * 2654435761u;

	return h & (m->hash_size - 1);
}

static struct task *task_find(const struct dlb_metrics *m, int tid)
{
	size_t i = hash_slot(m, tid);

	while (m->hash[i]) {
		if (m->hash[i]->pub.tid == tid)
			return m->hash[i];
		i = (i + 1) & (m->hash_size - 1);
	}
	return NULL;
}

static int hash_grow(struct dlb_metrics *m)
{
	struct task **old = m->hash;
	size_t i, old_size = m->hash_size;

	m->hash = calloc(old_size * 2, sizeof(*m->hash));
	if (!m->hash) {
		m->hash = old;
		return -1;
	}
	m->hash_size = old_size * 2;
	for (i = 0; i < old_size; i++) {
		size_t j;

		if (!old[i])
			continue;
		j = hash_slot(m, old[i]->pub.tid);
		while (m->hash[j])
			j = (j + 1) & (m->hash_size - 1);
		m->hash[j] = old[i];
	}
	free(old);
	return 0;
}

/* Apply @fn to every percentile summary of @t. */
static void task_stats(struct task *t, void (*fn)(struct dlb_stat *s))
{
	struct dlb_task_metrics *p = &t->pub;

	fn(&p->lateness);
	fn(&p->response);
	fn(&p->wakeup_lat);
	fn(&p->exec);
	fn(&p->mig_delay);
	fn(&p->exec_migrated);
	fn(&p->exec_unmigrated);
}

static struct task *task_get(struct dlb_metrics *m, int tid)
{
	struct task *t = task_find(m, tid);
	size_t i;

	if (t)
		return t;
	if ((m->nr_tasks + 1) * 2 > m->hash_size && hash_grow(m))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pub.tid = tid;
	t->cpu = -1;
	t->wait_idx = -1;
	t->cpu_begin = -1;
	task_stats(t, dlb_stat_init);
	i = hash_slot(m, tid);
	while (m->hash[i])
		i = (i + 1) & (m->hash_size - 1);
	m->hash[i] = t;
	m->nr_tasks++;
	return t;
}

static void task_params(struct task *t, u64 runtime, u64 deadline, u64 period)
{
	t->pub.param_src = DLB_PARAM_GIVEN;
	t->pub.runtime = runtime;
	t->pub.deadline = deadline;
	t->pub.period = period ? period : deadline;
	t->pub.is_dl = true;
}

/* A task got its name: parameters given for that name apply now. */
static void task_named(struct dlb_metrics *m, struct task *t)
{
	size_t i;

	if (t->pub.param_src != DLB_PARAM_NONE)
		return;
	for (i = 0; i < m->nr_named; i++) {
		if (strcmp(m->named[i].name, t->pub.name))
			continue;
		task_params(t, m->named[i].runtime, m->named[i].deadline, m->named[i].period);
		/* a job begun before the name was known gets its deadline now */
		if (t->in_job && !t->dl_valid && t->rel_src != DLB_REL_MARKER) {
			t->dl = t->rel + t->pub.deadline;
			t->dl_valid = true;
			t->sched_dl = t->dl;
			t->sched_dl_valid = true;
		}
		return;
	}
}

/*
 * A thread's comm changes (rt-app renames its threads after clone): the
 * latest one names the task, unless a marker or the caller named it.
 */
static void task_name(struct dlb_metrics *m, struct task *t, const char *comm)
{
	if (t->name_fixed || !comm || !comm[0] || !strncmp(t->pub.name, comm, DLB_COMM_LEN))
		return;
	snprintf(t->pub.name, sizeof(t->pub.name), "%.*s", DLB_COMM_LEN, comm);
	task_named(m, t);
}

/*
 * Is @comm a name parameters were given for?  Such a thread is followed
 * from its first sched event, before it is a DL task: rt-app 1.0 renames
 * its threads and makes them DL only then, and a first job that ends
 * without a switch (a late one) would otherwise end before its name is
 * known, and without its deadline.
 */
static bool named_wanted(const struct dlb_metrics *m, const char *comm)
{
	size_t i;

	for (i = 0; i < m->nr_named && comm && comm[0]; i++)
		if (!strncmp(m->named[i].name, comm, DLB_COMM_LEN))
			return true;
	return false;
}

/* The task of @pid, created if it is a DL task or a named one; -1: out of memory. */
static int task_lookup(struct dlb_metrics *m, int pid, bool dl, const char *comm, struct task **tp)
{
	*tp = task_find(m, pid);
	if (*tp || (!dl && !named_wanted(m, comm)))
		return 0;
	*tp = task_get(m, pid);
	return *tp ? 0 : -1;
}

int dlb_metrics_set_params_by_name(struct dlb_metrics *m, const char *name, u64 runtime,
				   u64 deadline, u64 period)
{
	struct named_params *p = realloc(m->named, (m->nr_named + 1) * sizeof(*p));

	if (!p)
		return -1;
	m->named = p;
	p = &m->named[m->nr_named++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->runtime = runtime;
	p->deadline = deadline;
	p->period = period;
	return 0;
}

int dlb_metrics_set_params(struct dlb_metrics *m, int tid, const char *name,
			   u64 runtime, u64 deadline, u64 period)
{
	struct task *t = task_get(m, tid);

	if (!t)
		return -1;
	if (name && name[0]) {
		snprintf(t->pub.name, sizeof(t->pub.name), "%s", name);
		t->name_fixed = true;
	}
	if (t->pub.param_src == DLB_PARAM_MARKER)
		return 0;
	task_params(t, runtime, deadline, period);
	return 0;
}

/* ---- the CBS, replayed where the trace does not show it ---- */

/*
 * The task's CBS, when it is to be replayed: a DL task right now, its
 * parameters known, and a trace without the scheduler's own dl_throttle /
 * dl_replenish events (those, where present, are the truth).
 */
static struct dlb_cbs *task_cbs(const struct dlb_metrics *m, struct task *t)
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
static void cbs_sync(struct dlb_metrics *m, struct task *t)
{
	struct dlb_cbs *c = task_cbs(m, t);

	if (!c || !c->valid)
		return;
	t->sched_dl = c->deadline;
	t->sched_dl_valid = true;
	m->dirty = true;
}

/* @t stops running at @ts (or moves on): charge its CBS the CPU time since cbs_from. */
static void cbs_stop(struct dlb_metrics *m, struct task *t, u64 ts)
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
static void ev_runtime(struct dlb_metrics *m, const struct dlb_event *ev)
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
static bool cbs_throttle(struct dlb_metrics *m, struct task *t, u64 ts)
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
	t->throttled = true;
	t->throttle_explicit = false;
	t->throttle_until = until;
	t->pub.throttles_inferred++;
	t->thr_job++;
	return true;
}

/*
 * A wake-up: a task still throttled stays so until its timer (the kernel
 * does not enqueue it before); one whose timer fired while it slept was
 * replenished then; then the CBS wake-up rule.
 */
static void cbs_wakeup(struct dlb_metrics *m, struct task *t, u64 ts)
{
	struct dlb_cbs *c = task_cbs(m, t);

	if (!c)
		return;
	if (t->throttled && !t->throttle_explicit) {
		if (dl_time_before(ts, t->throttle_until))
			return;
		dlb_cbs_replenish(c, t->throttle_until);
		t->throttled = false;
	}
	dlb_cbs_wakeup(c, ts);
	cbs_sync(m, t);
}

/* A sched event showed whether @t is SCHED_DEADLINE now; leaving it forgets its CBS. */
static void task_dl_now(struct task *t, bool dl)
{
	if (dl)
		t->pub.is_dl = true;
	else if (t->dl_now)
		t->cbs.valid = false;
	t->dl_now = dl;
}

/* ---- ready set ---- */

static int task_set_ready(struct dlb_metrics *m, struct task *t, bool ready)
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
	m->waiting[m->nr_waiting++] = t;
	return 0;
}

/* ---- CPUs ---- */

static struct cpu *cpu_get(struct dlb_metrics *m, int c)
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
static void cpu_account(struct cpu *c, u64 ts, int pid, bool dl, u64 since)
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

	t->throttled = false;
	if (c)
		dlb_cbs_replenish(c, at);
	cbs_sync(m, t);
}

/*
 * Charge the interval [last_ts, ts) to the inverted ready tasks: those
 * with fewer than M earlier jobs ready or running (cpu_summary).  A
 * throttled task is not ready: it joins at its replenishment (the
 * dl_replenish event, or the replayed CBS's timer, inside the interval).
 */
static void account_inversion(struct dlb_metrics *m, u64 ts)
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
		}
		if (w->sched_dl_valid)
			m->elig[n++] = w;
	}
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

static void implicit_switch_in(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev);

/* ---- jobs ---- */

/*
 * The instant the scheduler saw the job arrive: its thread's wake-up
 * between the release and the begin (a timer fires late), else the
 * release (a late thread that never slept, or no sched_wakeup traced).
 */
static void job_wakeup(const struct task *t, struct dlb_job *j)
{
	j->wakeup = t->wake && !dl_time_before(t->wake, t->rel) &&
		    !dl_time_before(t->begin, t->wake) ? t->wake : t->rel;
}

/* @j: task @t's current job, ending at @end having run @exec. */
static void job_fill(const struct dlb_metrics *m, const struct task *t, u64 end, u64 exec,
		     struct dlb_job *j)
{
	memset(j, 0, sizeof(*j));
	j->tid = t->pub.tid;
	j->name = t->pub.name;
	j->job = t->job_idx;
	j->rel = t->rel;
	j->begin = t->begin;
	j->end = end;
	j->dl = t->dl;
	j->rel_src = t->rel_src;
	j->dl_known = t->dl_valid;
	j->exec_known = m->run.switches > 0;
	j->response = end - t->rel;
	j->wakeup_lat = t->begin - t->rel;
	j->exec = exec;
	j->migrations = t->mig_job;
	j->preemptions = t->preempt_job;
	j->cpu_begin = t->cpu_begin;
	j->cpu_end = t->cpu;
	j->inversion_ns = t->inv_job;
	j->throttles = t->thr_job;
	job_wakeup(t, j);
}

static void job_finish(struct dlb_metrics *m, struct task *t, u64 end)
{
	struct dlb_task_metrics *p = &t->pub;
	struct dlb_job j;

	if (t->cpu >= 0 && dl_time_before(t->seg_start, end))
		t->exec += end - t->seg_start;
	job_fill(m, t, end, t->exec, &j);

	p->jobs++;
	m->run.jobs++;
	dlb_stat_add(&p->response, (s64)j.response);
	dlb_stat_add(&p->wakeup_lat, (s64)j.wakeup_lat);
	if (j.dl_known) {
		j.lateness = (s64)(end - t->dl);
		j.miss = dl_time_before(t->dl, end);
		dlb_stat_add(&p->lateness, j.lateness);
		if (j.miss) {
			p->misses++;
			m->run.misses++;
		}
	} else {
		p->jobs_no_dl++;
	}
	if (j.exec_known) {
		dlb_stat_add(&p->exec, (s64)j.exec);
		/* the seed's rorun: runtime used beyond the reservation, c_j - Q */
		if (p->param_src != DLB_PARAM_NONE && j.exec > p->runtime) {
			j.overrun = true;
			j.overrun_ns = j.exec - p->runtime;
			p->overruns++;
			p->overrun_last = j.overrun_ns;
			if (j.overrun_ns > p->overrun_max)
				p->overrun_max = j.overrun_ns;
		}
		dlb_stat_add(j.migrations ? &p->exec_migrated : &p->exec_unmigrated, (s64)j.exec);
	}
	if (j.migrations)
		p->migrated_jobs++;
	if (m->opts.job_fn)
		m->opts.job_fn(&j, m->opts.job_arg);

	t->in_job = false;
	t->mig_job = 0;
	t->inv_job = 0;
	t->thr_job = 0;
	t->woke_since_done = false;
	t->last_valid = true;
	t->last_rel = t->rel;
	t->last_dl = t->dl_valid ? t->dl : 0;
	t->last_end = end;
}

/*
 * A job the trace stopped in (opts.open_fn): what it was up to the last
 * event, counted nowhere.  The conformance replay keeps such a job
 * running to the end, as it was, rather than drop the load it put on its CPU.
 */
static void job_open_at_end(struct dlb_metrics *m, struct task *t)
{
	struct dlb_job j;

	if (!m->opts.open_fn)
		return;
	job_fill(m, t, m->last_ts, t->exec + (t->cpu >= 0 && dl_time_before(t->seg_start, m->last_ts) ?
					       m->last_ts - t->seg_start : 0), &j);
	j.open = true;
	m->opts.open_fn(&j, m->opts.job_arg);
}

/*
 * Release of a job whose markers carry none (rt-app), as rt-app's timer
 * sets it (src/rt-app.c, case rtapp_timer, identical in 1.0 and upstream):
 *
 *	t_next += period;			// t_next starts at the zero time
 *	if (now < t_next)
 *		clock_nanosleep(.., TIMER_ABSTIME, &t_next, NULL);
 *	else if (timer.relative)		// the default mode
 *		clock_gettime(CLOCK_MONOTONIC, &t_next);
 *
 * So the first job is released at rt-app's zero time ("[0] sets zero
 * time"), or at the end of the thread's "delay" (a sleep after its start
 * marker); job k + 1 at r_k + P when job k ended before that instant (the
 * thread slept until it), else at job k's end (a late job re-arms the
 * timer from its end and goes on without sleeping).  The previous
 * release + P of a late job would be a release rt-app never made: it
 * counts misses its logs do not show and lateness that grows with every
 * late job.  P is the DL period: the timer's period is not in the trace.
 * Two checks keep a wrong guess from running on: a wake-up before r_k + P
 * (the timer cannot expire early: r_k was guessed too late, e.g. without
 * a zero time) and a wake-up a period or more after it (no timer of period
 * P: a sleep paces the loop) both make the wake-up the release.  A wake-up
 * late by less than a period is the timer's: its lateness is wake-up
 * latency (5.6 ms seen on a loaded 2-CPU VM), not a later release.
 */
static void job_infer_release(struct task *t, u64 begin)
{
	const struct dlb_task_metrics *p = &t->pub;
	u64 next = t->last_rel + p->period;

	if (!t->last_valid && t->woke_since_done) {
		t->rel = t->last_wakeup;
		t->rel_src = DLB_REL_WAKEUP;
	} else if (!t->last_valid && t->zero_valid) {
		t->rel = t->zero;
		t->rel_src = DLB_REL_CLOCK_REF;
	} else if (!t->last_valid || !p->period) {
		t->rel = t->woke_since_done ? t->last_wakeup : begin;
		t->rel_src = t->woke_since_done ? DLB_REL_WAKEUP : DLB_REL_BEGIN;
	} else if (t->woke_since_done) {
		bool timer = !dl_time_before(t->last_wakeup, next) &&
			     t->last_wakeup - next < p->period;

		t->rel = timer ? next : t->last_wakeup;
		t->rel_src = timer ? DLB_REL_PERIOD : DLB_REL_WAKEUP;
	} else if (dl_time_before(t->last_end, next)) {
		/* ended in time but did not sleep: the timer had just expired */
		t->rel = next;
		t->rel_src = DLB_REL_PERIOD;
	} else {
		t->rel = t->last_end;
		t->rel_src = DLB_REL_LATE_END;
	}
	if (dl_time_before(begin, t->rel)) {
		t->rel = begin;
		t->rel_src = DLB_REL_BEGIN;
	}
	t->dl_valid = p->param_src != DLB_PARAM_NONE;
	t->dl = t->rel + p->deadline;
	t->pub.rel_inferred++;
}

static void job_begin(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk,
		      const struct dlb_event *ev)
{
	if (t->in_job)
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_BEGIN, 1,
				 "tid %d job %llu began at %llu ns and never ended", t->pub.tid,
				 (unsigned long long)t->job_idx, (unsigned long long)t->begin);
	t->in_job = true;
	t->expect_end = false;
	t->rtapp = mk->dialect != DLB_DIALECT_DLBENCH;
	t->pub.dialect = mk->dialect;
	t->job_idx = (mk->flags & DLB_MF_JOB) ? mk->job : t->job_count;
	t->job_count++;
	t->begin = ev->ts;
	t->cpu_begin = ev->cpu;
	t->exec = 0;
	t->preempt_job = 0;
	t->wake = t->woke_since_done ? t->last_wakeup : 0;
	if ((mk->flags & DLB_MF_REL) && (mk->flags & DLB_MF_DL)) {
		t->rel = mk->rel;
		t->dl = mk->dl;
		t->dl_valid = true;
		t->rel_src = DLB_REL_MARKER;
	} else if (t->pend_rel && t->pend_job == t->job_idx) {
		t->rel = t->pend_rel_ts;
		t->dl = t->pend_dl;
		t->dl_valid = t->pend_dl_valid;
		t->rel_src = DLB_REL_MARKER;
	} else if (mk->flags & DLB_MF_REL) {
		t->rel = mk->rel;
		t->dl = mk->rel + t->pub.deadline;
		t->dl_valid = t->pub.param_src != DLB_PARAM_NONE;
		t->rel_src = DLB_REL_MARKER;
	} else {
		job_infer_release(t, ev->ts);
	}
	t->pend_rel = false;
	/* the generator writes begin after the release: earlier means two clocks */
	if (dl_time_before(ev->ts, t->rel))
		dlb_metrics_flag(m, DLB_Q_CLOCK_MISMATCH, 1,
				 "tid %d job %llu: begin marker at %llu ns before its release %llu ns",
				 t->pub.tid, (unsigned long long)t->job_idx,
				 (unsigned long long)ev->ts, (unsigned long long)t->rel);
	if (t->predicted) {
		t->pub.dl_predicted++;
		if (!t->dl_valid || t->sched_dl != t->dl)
			t->pub.dl_mispredicted++;
		t->predicted = false;
	}
	t->sched_dl = t->dl;
	t->sched_dl_valid = t->dl_valid;
	cbs_sync(m, t);
	m->dirty = true;
	/* the writer runs: a task first seen in its own begin marker is running now */
	if (ev->pid == t->pub.tid && t->cpu != ev->cpu) {
		struct cpu *c = cpu_get(m, ev->cpu);

		if (c)
			implicit_switch_in(m, c, ev);
	}
	t->seg_start = ev->ts;
}

static void job_end(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk,
		    const struct dlb_event *ev)
{
	if (!t->in_job) {
		if (t->expect_end) {
			t->expect_end = false;
			return;
		}
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_END, 1, "tid %d: end marker at %llu ns without a begin",
				 t->pub.tid, (unsigned long long)ev->ts);
		return;
	}
	if ((mk->flags & DLB_MF_JOB) && mk->job != t->job_idx) {
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_END, 1,
				 "tid %d: end of job %llu at %llu ns while job %llu was open",
				 t->pub.tid, (unsigned long long)mk->job, (unsigned long long)ev->ts,
				 (unsigned long long)t->job_idx);
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_BEGIN, 1, "tid %d job %llu never ended",
				 t->pub.tid, (unsigned long long)t->job_idx);
		t->in_job = false;
		return;
	}
	job_finish(m, t, ev->ts);
}

static void marker_task(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk)
{
	if (mk->name[0]) {
		snprintf(t->pub.name, sizeof(t->pub.name), "%s", mk->name);
		t->name_fixed = true;
		task_named(m, t);
	}
	if (mk->policy == 6)
		t->pub.is_dl = true;
	if (mk->flags & DLB_MF_PARAMS) {
		t->pub.param_src = DLB_PARAM_MARKER;
		t->pub.runtime = mk->runtime;
		t->pub.deadline = mk->deadline;
		t->pub.period = mk->period ? mk->period : mk->deadline;
	}
}

static void marker_release(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk)
{
	t->pend_rel = true;
	t->pend_job = mk->job;
	t->pend_rel_ts = mk->rel;
	t->pend_dl = mk->dl;
	t->pend_dl_valid = mk->flags & DLB_MF_DL;
	/* a job of a non-deadline task has no deadline to wait behind */
	if (!t->in_job && t->pend_dl_valid) {
		t->sched_dl = mk->dl;
		t->sched_dl_valid = true;
		t->predicted = false;
		cbs_sync(m, t);
		m->dirty = true;
	}
}

static void marker_run(struct dlb_metrics *m, const struct dlb_marker *mk)
{
	struct dlb_run_metrics *r = &m->run;

	if (mk->kind == DLB_MARK_RUN_START) {
		r->run_start_seen = true;
		if (mk->dialect != DLB_DIALECT_DLBENCH)
			return;
		snprintf(r->backend, sizeof(r->backend), "%s", mk->backend);
		snprintf(r->clock, sizeof(r->clock), "%s", mk->clock);
		snprintf(r->workload, sizeof(r->workload), "%s", mk->workload);
		if (mk->cpus > r->nr_cpus)
			r->nr_cpus = mk->cpus;
		return;
	}
	r->run_end_seen = true;
	r->run_status = mk->status;
	if (mk->status != DLB_RUN_COMPLETE)
		dlb_metrics_flag(m, DLB_Q_RUN_INCOMPLETE, 1, "the run ended with status %s",
				 dlb_run_status_str(mk->status));
}

static int ev_marker(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct dlb_marker mk;
	struct task *t;
	int r;

	m->run.markers++;
	r = dlb_marker_parse(ev->mark.text, ev->mark.len, ev->pid, &mk, &m->perr);
	if (r < 0) {
		dlb_metrics_flag(m, DLB_Q_BAD_MARKERS, 1, "at %llu ns: %s",
				 (unsigned long long)ev->ts, m->perr.msg);
		return 0;
	}
	/*
	 * A marker proves its writer runs, except the ones written on a task's
	 * behalf: a release (the reference writes it at the release instant,
	 * as the released task), task attributes and run markers.
	 */
	if (r == 0 || mk.kind == DLB_MARK_JOB_BEGIN || mk.kind == DLB_MARK_JOB_END ||
	    mk.kind == DLB_MARK_OTHER || mk.kind == DLB_MARK_TASK_START ||
	    mk.kind == DLB_MARK_CLOCK_REF) {
		struct cpu *c = cpu_get(m, ev->cpu);

		if (c && ev->pid > 0)
			implicit_switch_in(m, c, ev);
	}
	if (r == 0) {
		m->run.other_markers++;
		return 0;
	}
	switch (mk.kind) {
	case DLB_MARK_RUN_START:
	case DLB_MARK_RUN_END:
		marker_run(m, &mk);
		return 0;
	case DLB_MARK_OTHER:
		return 0;
	case DLB_MARK_CLOCK_REF:
		m->clock_ref = ev->ts;
		m->clock_ref_valid = true;
		return 0;
	default:
		break;
	}
	t = task_get(m, mk.tid);
	if (!t)
		return -1;
	switch (mk.kind) {
	case DLB_MARK_TASK:
		marker_task(m, t, &mk);
		break;
	case DLB_MARK_JOB_RELEASE:
		m->run.job_markers++;
		marker_release(m, t, &mk);
		break;
	case DLB_MARK_JOB_BEGIN:
		m->run.job_markers++;
		job_begin(m, t, &mk, ev);
		break;
	case DLB_MARK_JOB_END:
		m->run.job_markers++;
		job_end(m, t, &mk, ev);
		break;
	case DLB_MARK_TASK_START:
		/*
		 * Its timer counts from the zero time set before it started (the
		 * latest: of several rt-app processes, never an earlier one's);
		 * what woke it so far was rt-app's start barrier, not a release.
		 */
		t->zero = m->clock_ref;
		t->zero_valid = m->clock_ref_valid;
		t->woke_since_done = false;
		break;
	case DLB_MARK_TASK_EXIT:
	default:
		break;
	}
	return 0;
}

/* ---- scheduling events ---- */

static void switch_out(struct dlb_metrics *m, struct task *t, const struct dlb_event *ev)
{
	struct dlb_task_metrics *p = &t->pub;
	u64 ts = ev->ts;

	cbs_stop(m, t, ts);
	if (t->cpu >= 0) {
		p->cpu_time += ts - t->run_since;
		if (t->in_job && dl_time_before(t->seg_start, ts))
			t->exec += ts - t->seg_start;
		t->seg_start = ts;
	}
	if (ev->sw.prev_state != 0) {
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
	t->cpu = cpu;
	t->run_since = ts;
	t->seg_start = ts;
	t->cbs_from = ts;
	t->throttled = false;
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
	c->curr_pid = ev->sw.next_pid;
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
	if (!t->in_job) {
		t->last_wakeup = ev->ts;
		t->woke_since_done = true;
		wakeup_deadline(m, t, ev->ts);
	}
	return task_set_ready(m, t, true);
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
		t->thr_job++;
		t->throttled = true;
		t->throttle_explicit = true;
		return;
	}
	t->throttled = false;
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
static void implicit_switch_in(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
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
		c->curr_pid = t->pub.tid;
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
	/* markers: only those a running writer writes about itself (ev_marker) */
	if (ev->pid > 0 && ev->type != DLB_EV_SWITCH && ev->type != DLB_EV_MARKER)
		implicit_switch_in(m, c, ev);
	switch (ev->type) {
	case DLB_EV_SWITCH:
		return ev_switch(m, c, ev);
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
		return ev_wakeup(m, ev);
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

/* ---- end ---- */

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = *(struct task *const *)a, *y = *(struct task *const *)b;

	return x->pub.tid < y->pub.tid ? -1 : x->pub.tid > y->pub.tid;
}

/*
 * A deadline task whose jobs have no deadline (rt-app 1.0 markers carry
 * none, and neither the folder nor --params gave its parameters): "0
 * misses" would be a verdict on nothing.  Say so, naming the first task.
 */
static void flag_no_deadline(struct dlb_metrics *m)
{
	char who[DLB_NAME_MAX];
	size_t i;

	for (i = 0; i < m->nr_tasks; i++) {
		const struct dlb_task_metrics *p = &m->sorted[i]->pub;

		if (!p->is_dl || !p->jobs_no_dl)
			continue;
		if (p->name[0])
			snprintf(who, sizeof(who), "%s", p->name);
		else
			snprintf(who, sizeof(who), "%d", p->tid);
		dlb_metrics_flag(m, DLB_Q_MISSES_NOT_JUDGED, p->jobs_no_dl,
				 "task %s (tid %d): %llu of %llu jobs without a deadline; give its "
				 "parameters: -p %s=RUNTIME,DEADLINE,PERIOD", who, p->tid,
				 (unsigned long long)p->jobs_no_dl, (unsigned long long)p->jobs, who);
	}
}

void dlb_metrics_finish(struct dlb_metrics *m)
{
	u64 open = 0;
	size_t i, n = 0;
	int c;

	if (m->finished)
		return;
	m->finished = true;
	m->run.last_ts = m->last_ts;
	if (m->run.nr_cpus < m->max_cpu + 1)
		m->run.nr_cpus = m->max_cpu + 1;
	for (c = 0; c <= m->max_cpu && c < m->nr_cpus_alloc; c++) {
		struct cpu *cp = &m->cpus[c];

		cp->pub.cpu = c;
		if (cp->known) {
			cpu_account(cp, m->last_ts, cp->curr_pid, cp->curr_dl, cp->since);
			cp->pub.unknown_ns = cp->pub.first_ts - m->run.first_ts;
		} else {
			cp->pub.unknown_ns = m->last_ts - m->run.first_ts;
		}
	}
	m->sorted = malloc((m->nr_tasks ? m->nr_tasks : 1) * sizeof(*m->sorted));
	if (!m->sorted)
		return;
	for (i = 0; i < m->hash_size; i++) {
		struct task *t = m->hash[i];

		if (!t)
			continue;
		m->sorted[n++] = t;
		m->run.inversion_sum_ns += t->pub.inversion_ns;
		if (t->in_job) {
			open++;
			job_open_at_end(m, t);
		}
		if (t->cpu >= 0)
			t->pub.cpu_time += m->last_ts - t->run_since;
	}
	qsort(m->sorted, n, sizeof(*m->sorted), cmp_task);
	m->run.jobs_open_at_end = open;
	flag_no_deadline(m);
	if (!m->run.events)
		dlb_metrics_flag(m, DLB_Q_NO_EVENTS, 1, "not one event in the trace");
	if (m->run.events && !m->run.switches)
		dlb_metrics_flag(m, DLB_Q_NO_SCHED_SWITCH, 1, "%llu events, none of them sched_switch",
				 (unsigned long long)m->run.events);
}

size_t dlb_metrics_nr_tasks(const struct dlb_metrics *m)
{
	return m->sorted ? m->nr_tasks : 0;
}

const struct dlb_task_metrics *dlb_metrics_task(const struct dlb_metrics *m, size_t i)
{
	return m->sorted && i < m->nr_tasks ? &m->sorted[i]->pub : NULL;
}

const struct dlb_task_metrics *dlb_metrics_task_by_tid(const struct dlb_metrics *m, int tid)
{
	struct task *t = task_find(m, tid);

	return t ? &t->pub : NULL;
}

int dlb_metrics_nr_cpus(const struct dlb_metrics *m)
{
	return m->run.nr_cpus;
}

const struct dlb_cpu_metrics *dlb_metrics_cpu(const struct dlb_metrics *m, int cpu)
{
	static const struct dlb_cpu_metrics none;

	if (cpu < 0 || cpu >= m->run.nr_cpus)
		return NULL;
	if (cpu >= m->nr_cpus_alloc)
		return &none;
	return &m->cpus[cpu].pub;
}

const struct dlb_run_metrics *dlb_metrics_run(const struct dlb_metrics *m)
{
	return &m->run;
}

void dlb_metrics_free(struct dlb_metrics *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->hash_size; i++) {
		struct task *t = m->hash[i];

		if (!t)
			continue;
		task_stats(t, dlb_stat_free);
		free(t);
	}
	free(m->hash);
	free(m->named);
	free(m->sorted);
	free(m->cpus);
	free(m->waiting);
	free(m->elig);
	free(m);
}
