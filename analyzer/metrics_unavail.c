// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's unavailable time: per CPU, the intervals in which a
 * deadline task could not have had the CPU, whatever its deadline
 * (docs/conformance.md, "Unavailable time"):
 *   irq   hard interrupts (irq_handler_entry/exit, x86's irq_vectors
 *         *_entry/exit) and softirqs (softirq_entry/exit), when the trace
 *         has those events;
 *   stop  the stop class: a migration/N thread switched in (sched_switch
 *         shows it with prio 0, DLB_PRIO_STOP), in every trace.
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

/* At the trace's end: what is still open ends there. */
void unavail_finish(struct dlb_metrics *m)
{
	int i;

	for (i = 0; i < m->nr_cpus_alloc; i++)
		if (m->cpus[i].ua_open)
			ua_close(&m->cpus[i], m->last_ts);
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
 * gives back as unavail intervals rather than as the job's demand.
 */
void task_seg(struct dlb_metrics *m, struct task *t, u64 ts)
{
	t->seg_start = ts;
	t->ua_seg = unavail_upto(m, t->cpu, ts);
}

void task_seg_exec(struct dlb_metrics *m, struct task *t, u64 end)
{
	if (t->cpu < 0 || !dl_time_before(t->seg_start, end))
		return;
	t->exec += end - t->seg_start;
	t->ua_exec += unavail_upto(m, t->cpu, end) - t->ua_seg;
}

const struct dlb_unavail *dlb_metrics_unavail(const struct dlb_metrics *m, int cpu, size_t *n)
{
	*n = 0;
	if (cpu < 0 || cpu >= m->nr_cpus_alloc)
		return NULL;
	*n = m->cpus[cpu].nr_ua;
	return m->cpus[cpu].ua;
}
