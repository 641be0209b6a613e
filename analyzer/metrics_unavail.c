// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's unavailable time: per CPU, the intervals in which a
 * deadline task could not have had the CPU, whatever its deadline
 * (docs/conformance.md, "Unavailable time"):
 *   irq   hard interrupts (irq_handler_entry/exit, x86's irq_vectors
 *         *_entry/exit) and softirqs (softirq_entry/exit), when the trace
 *         has those events;
 *   stop  the stop class: a migration/N thread switched in (sched_switch
 *         shows it with prio 0, DLB_PRIO_STOP), in every trace;
 *   fair  a fair task running while a DL task queued on the CPU waits,
 *         ready and not throttled (one that woke behind the fair task:
 *         only if it waited DLB_FAIR_LATENCY_NS or more): the fair
 *         server's share, kept apart
 *         (unavail_fair) and added, up to the server's reservation, by
 *         dlb_metrics_unavail_fair().
 * Nested entries count in a depth per CPU; an exit without its entry (the
 * trace began inside the handler) is ignored, and lost events reset the
 * depths (closing what was open at the lost record).  Two intervals of a
 * CPU less than DLB_UNAVAIL_MERGE_NS apart are merged into one, the gap
 * counted unavailable: a softirq run at the exit of the interrupt that
 * raised it is one interval, not two.
 */
#include <stdlib.h>
#include <string.h>

#include "dlbench/grow.h"
#include "metrics_local.h"

static bool is_stop(const char *comm, int prio)
{
	return prio == DLB_PRIO_STOP && !strncmp(comm, "migration/", 10);
}

/*
 * Close the open interval at @to (its room was made when it opened).  One
 * that took no time (entry and exit at one timestamp: a text trace has µs)
 * is none: the jobs trace has no empty interval (its reader refuses one).
 */
static void ua_close(struct cpu *c, u64 to)
{
	struct dlb_unavail *last = c->nr_ua ? &c->ua[c->nr_ua - 1] : NULL;

	c->ua_open = false;
	if (!dl_time_before(c->ua_from, to))
		return;
	c->ua_total += to - c->ua_from;
	if (last && dl_time_before(c->ua_from, last->to + DLB_UNAVAIL_MERGE_NS)) {
		c->ua_total += c->ua_from - last->to;	/* the gap counts, as in the record */
		last->to = to;
		last->kind |= c->ua_kind;
		return;
	}
	c->ua[c->nr_ua++] = (struct dlb_unavail){ .from = c->ua_from, .to = to,
						  .kind = c->ua_kind };
}

/* Open or close the CPU's interval after its state changed at @ts. */
static int ua_update(struct cpu *c, u64 ts)
{
	unsigned int kind = (c->hardirq || c->softirq ? DLB_UA_IRQ : 0) | (c->stop ? DLB_UA_STOP : 0);

	if (kind && !c->ua_open) {
		if (dlb_grow((void **)&c->ua, &c->cap_ua, c->nr_ua + 1, sizeof(*c->ua)))
			return -1;
		c->ua_open = true;
		c->ua_from = ts;
		c->ua_kind = 0;
	}
	c->ua_kind |= kind;
	if (!kind && c->ua_open)
		ua_close(c, ts);
	return 0;
}

int unavail_event(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
{
	if (m->opts.jobs_only)
		return 0;
	switch (ev->type) {
	case DLB_EV_IRQ_ENTRY:
		c->hardirq++;
		break;
	case DLB_EV_IRQ_EXIT:
		if (c->hardirq)
			c->hardirq--;
		break;
	case DLB_EV_SOFTIRQ_ENTRY:
		c->softirq++;
		break;
	case DLB_EV_SOFTIRQ_EXIT:
		if (c->softirq)
			c->softirq--;
		break;
	case DLB_EV_SWITCH:
		c->stop = is_stop(ev->sw.next_comm, ev->sw.next_prio);
		return ua_update(c, ev->ts);
	case DLB_EV_LOST:
		c->hardirq = c->softirq = 0;
		return ua_update(c, ev->ts);
	default:
		return 0;
	}
	m->run.irq_events++;
	return ua_update(c, ev->ts);
}

/* Close @c's fair interval at @to (its room was made when it opened). */
static void fair_close(struct dlb_metrics *m, struct cpu *c, u64 to)
{
	struct dlb_unavail *last = c->nr_fa ? &c->fa[c->nr_fa - 1] : NULL;

	c->fair_open = false;
	m->nr_fair_open--;
	if (!dl_time_before(c->fair_from, to))
		return;
	/* a wake-up's preemption latency, not the server (DLB_FAIR_LATENCY_NS) */
	if (c->fair_wake && to - c->fair_from < DLB_FAIR_LATENCY_NS)
		return;
	if (last && dl_time_before(c->fair_from, last->to + DLB_UNAVAIL_MERGE_NS)) {
		last->to = to;
		return;
	}
	c->fa[c->nr_fa++] = (struct dlb_unavail){ .from = c->fair_from, .to = to,
						  .kind = DLB_UA_FAIR };
}

static bool cpu_runs_fair(const struct cpu *c)
{
	return c->known && c->curr_pid != 0 && c->curr_prio >= DLB_PRIO_FAIR;
}

void cpu_set_curr(struct dlb_metrics *m, struct cpu *c, int pid, int prio)
{
	m->nr_fair_cpus -= cpu_runs_fair(c);
	c->curr_pid = pid;
	c->curr_prio = prio;
	m->nr_fair_cpus += pid != 0 && prio >= DLB_PRIO_FAIR;	/* known from here on */
}

/*
 * After each event: which CPUs run a fair task (prio >= DLB_PRIO_FAIR)
 * while a DL task queued on them (t->rq_cpu: woken, pushed or pulled
 * there, or preempted there by another DL task) is ready, not running and
 * not throttled.  The kernel
 * runs a fair task ahead of a queued DL task only through the fair
 * server (a DL entity of its own, with an earlier deadline), or by a
 * defect; so from when both hold (the later of the fair task's switch-in
 * and the DL task's readiness) to when either ends.  A throttle that
 * account_inversion() ended at this event counts from its end.  The
 * kernel's placement is the evidence, not the task's affinity: a task
 * queued elsewhere waits for that CPU, not this one.
 */
int unavail_fair(struct dlb_metrics *m, u64 ts)
{
	size_t i;
	int cpu;

	/* nothing to open (no fair task runs or none waits) nor to close */
	if (m->opts.jobs_only || ((!m->nr_waiting || !m->nr_fair_cpus) && !m->nr_fair_open))
		return 0;
	m->fair_gen++;
	for (i = 0; i < m->nr_waiting; i++) {
		struct task *w = m->waiting[i];
		u64 from = w->unthr_lazy ? w->unthr_at : ts;
		struct cpu *c;

		w->unthr_lazy = false;
		/* !dl_now: no longer SCHED_DEADLINE (a generator resets its threads at the end) */
		if (w->throttled || !w->dl_now || w->rq_cpu < 0 || w->rq_cpu >= m->nr_cpus_alloc)
			continue;
		c = &m->cpus[w->rq_cpu];
		if (c->q_gen != m->fair_gen || dl_time_before(from, c->q_from))
			c->q_from = from;
		c->q_gen = m->fair_gen;
	}
	for (cpu = 0; cpu <= m->max_cpu && cpu < m->nr_cpus_alloc; cpu++) {
		struct cpu *c = &m->cpus[cpu];
		bool fair = cpu_runs_fair(c) && c->q_gen == m->fair_gen;

		if (fair && !c->fair_open) {
			if (dlb_grow((void **)&c->fa, &c->cap_fa, c->nr_fa + 1, sizeof(*c->fa)))
				return -1;
			c->fair_open = true;
			m->nr_fair_open++;
			c->fair_wake = dl_time_before(c->since, c->q_from);
			c->fair_from = c->fair_wake ? c->q_from : c->since;
		} else if (!fair && c->fair_open) {
			fair_close(m, c, ts);
		}
	}
	return 0;
}

/* At the trace's end: what is still open ends there. */
void unavail_finish(struct dlb_metrics *m)
{
	int i;

	for (i = 0; i < m->nr_cpus_alloc; i++) {
		if (m->cpus[i].ua_open)
			ua_close(&m->cpus[i], m->last_ts);
		if (m->cpus[i].fair_open)
			fair_close(m, &m->cpus[i], m->last_ts);
	}
}

/* The CPU's unavailable time up to @ts (not before its last change). */
static u64 unavail_upto(const struct dlb_metrics *m, int cpu, u64 ts)
{
	const struct cpu *c;

	if (cpu < 0 || cpu >= m->nr_cpus_alloc)
		return 0;
	c = &m->cpus[cpu];
	return c->ua_total + (c->ua_open ? ts - c->ua_from : 0);
}

/*
 * A job's exec is sched_switch accounting: it holds the interrupts taken
 * while it ran.  ua_exec keeps that part, which the conformance replay
 * gives back as unavail intervals rather than as the job's demand; st_exec
 * the CPU's stalls (metrics_stall.c).
 */
void task_seg(struct dlb_metrics *m, struct task *t, u64 ts)
{
	t->seg_start = ts;
	t->ua_seg = unavail_upto(m, t->cpu, ts);
	t->st_seg = stall_upto(m, t->cpu);
}

void task_seg_exec(struct dlb_metrics *m, struct task *t, u64 end)
{
	if (t->cpu < 0 || !dl_time_before(t->seg_start, end))
		return;
	t->exec += end - t->seg_start;
	t->ua_exec += unavail_upto(m, t->cpu, end) - t->ua_seg;
	t->st_exec += stall_upto(m, t->cpu) - t->st_seg;
}

const struct dlb_unavail *dlb_metrics_unavail(const struct dlb_metrics *m, int cpu, size_t *n)
{
	*n = 0;
	if (cpu < 0 || cpu >= m->nr_cpus_alloc)
		return NULL;
	*n = m->cpus[cpu].nr_ua;
	return m->cpus[cpu].ua;
}

/*
 * @cpu's fair intervals from @origin on, at most @runtime of them in each
 * @period window from @origin, the earliest first, into @v (room for 2 pieces a found
 * interval and a window it spans: the caller's count).  The reservation
 * as the trace can know it: the server's own period does not show, so
 * the windows are the trace's, from its start.
 */
static size_t fair_cap(const struct cpu *c, u64 runtime, u64 period, u64 origin,
		       struct dlb_unavail *v, struct dlb_fair_sum *sum)
{
	u64 win = UINT64_MAX, used = 0, pos, end, wend, take;
	size_t i, n = 0;

	for (i = 0; i < c->nr_fa; i++) {
		if (!dl_time_before(origin, c->fa[i].to))
			continue;	/* before the trace's windows */
		pos = dl_time_before(c->fa[i].from, origin) ? origin : c->fa[i].from;
		sum->found++;
		sum->found_ns += c->fa[i].to - pos;
		while (period && dl_time_before(pos, c->fa[i].to)) {
			if ((pos - origin) / period != win) {
				win = (pos - origin) / period;
				used = 0;
			}
			wend = origin + (win + 1) * period;
			end = dl_time_before(wend, c->fa[i].to) ? wend : c->fa[i].to;
			take = runtime - used < end - pos ? runtime - used : end - pos;
			if (take) {
				v[n++] = (struct dlb_unavail){ .from = pos, .to = pos + take,
							       .kind = DLB_UA_FAIR };
				used += take;
				sum->counted_ns += take;
			}
			pos = end;
		}
	}
	return n;
}

/* Append @u to @v[0..*n), merged with the last when less than DLB_UNAVAIL_MERGE_NS apart. */
static void ua_push(struct dlb_unavail *v, size_t *n, const struct dlb_unavail *u)
{
	struct dlb_unavail *last = *n ? &v[*n - 1] : NULL;

	if (last && dl_time_before(u->from, last->to + DLB_UNAVAIL_MERGE_NS)) {
		if (dl_time_before(last->to, u->to))
			last->to = u->to;
		last->kind |= u->kind;
		return;
	}
	v[(*n)++] = *u;
}

int dlb_metrics_unavail_fair(const struct dlb_metrics *m, int cpu, u64 runtime, u64 period,
			     u64 origin, struct dlb_unavail **out, size_t *n,
			     struct dlb_fair_sum *sum)
{
	const struct cpu *c;
	struct dlb_unavail *fv, *v;
	size_t nf, i = 0, j = 0, room;

	*out = NULL;
	*n = 0;
	if (cpu < 0 || cpu >= m->nr_cpus_alloc)
		return 0;
	c = &m->cpus[cpu];
	/* a found interval spans at most to - from over period + 2 windows */
	room = 1;
	for (i = 0; period && i < c->nr_fa; i++)
		room += 2 + (c->fa[i].to - c->fa[i].from) / period;
	fv = malloc(room * sizeof(*fv));
	v = malloc((c->nr_ua + room) * sizeof(*v));
	if (!fv || !v) {
		free(fv);
		free(v);
		return -1;
	}
	nf = fair_cap(c, runtime, period, origin, fv, sum);
	/* the union, in time order: both lists are, and neither overlaps itself */
	for (i = 0; i < c->nr_ua || j < nf;) {
		if (j == nf || (i < c->nr_ua && !dl_time_before(fv[j].from, c->ua[i].from)))
			ua_push(v, n, &c->ua[i++]);
		else
			ua_push(v, n, &fv[j++]);
	}
	free(fv);
	*out = v;
	return 0;
}
