// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine: one pass over the normalized event stream, keeping
 * per-task and per-CPU state only.  Definitions in docs/analyzer.md.
 *
 * What "running", "ready" and "throttled" mean here, from sched events only
 * (mainline has no deadline tracepoints):
 *   running    switched in by sched_switch, until switched out;
 *   ready      woken (sched_wakeup) or switched out runnable (prev_state 0,
 *              but for the report bit 0x100: dlb_ev_prev_runnable());
 *   throttled  between dl_throttle and dl_replenish events when a trace
 *              has them (the reference does); else switched out runnable
 *              with its CBS budget used up, until the replenishment, as
 *              the task's CBS replayed from the trace says (cbs.h): the
 *              budget is the kernel's, per period and carried across jobs,
 *              not the job's own execution time.
 *
 * The engine is split by what it follows, its state in metrics_local.h:
 *   metrics.c            the run: create, data-quality flags, finish, the
 *                        accessors, free;
 *   metrics_sched.c      the scheduler's events, dlb_metrics_event() that
 *                        dispatches every event, migrations;
 *   metrics_jobs.c       markers: jobs, their releases and deadlines;
 *   metrics_inversion.c  the ready set, the CPUs' occupants and time, G-EDF
 *                        priority inversion;
 *   metrics_cbs.c        each task's CBS, replayed where the trace does not
 *                        show it;
 *   metrics_task.c       the tasks by tid, their names and given parameters;
 *   metrics_unavail.c    per CPU, the time interrupts, the stop class and the
 *                        fair server took.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "metrics_local.h"

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

void dlb_metrics_set_tick(struct dlb_metrics *m, u64 tick_ns)
{
	if (!m->opts.tick_ns && !m->started)
		m->opts.tick_ns = tick_ns;
}

u64 dlb_metrics_tick(const struct dlb_metrics *m)
{
	return m->opts.tick_ns;
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
	unavail_finish(m);
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
	stall_finish(m);
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

const u64 *dlb_metrics_runtime_times(const struct dlb_metrics *m, int cpu, size_t *n)
{
	*n = 0;
	if (cpu < 0 || cpu >= m->nr_cpus_alloc || !m->cpus[cpu].rt_ts)
		return NULL;
	*n = m->cpus[cpu].nr_rt_ts;
	return m->cpus[cpu].rt_ts;
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
	for (i = 0; m->cpus && i < (size_t)m->nr_cpus_alloc; i++) {
		free(m->cpus[i].rt_ts);
		free(m->cpus[i].ua);
		free(m->cpus[i].fa);
		free(m->cpus[i].gap);
	}
	free(m->cpus);
	free(m->waiting);
	free(m->elig);
	free(m);
}
