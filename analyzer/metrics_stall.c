// SPDX-License-Identifier: GPL-2.0
/*
 * CPU stalls: spans in which a CPU running a task recorded no event at all,
 * not even its tick (docs/analyzer.md, "CPU stalls").  A busy CPU takes its
 * tick every 1/HZ s (NO_HZ stops it only on an idle CPU, or on a nohz_full
 * CPU running one task), and the tick leaves events: the timer interrupt's
 * entry (x86's irq_vectors local_timer_entry, the arch timer's
 * irq_handler_entry elsewhere) and the running task's charge
 * (sched_stat_runtime).  A span of 1.5 ticks or more without an event on a
 * CPU that ran a task is time in which that CPU executed nothing the kernel
 * saw: a virtual CPU the host did not run (steal), or a CPU with interrupts
 * off.  Either way its tasks waited and the timers due there (a release, a
 * replenishment) fired late: the trace shows delays that are not the
 * scheduler's.
 *
 * Not a data-quality flag: the data are whole, the machine is what they show
 * (the run's sums, and report.txt's "# cpu stalls:" line).
 *
 * Checked only where the trace can show it: the tick is known
 * (dlb_metrics_opts.tick_ns, from the run folder: the kernel's CONFIG_HZ),
 * the trace has interrupt events, and each CPU shows its tick: out of the
 * spans found, its busy time holds an interrupt entry at least every two
 * ticks, else that CPU is not checked (fewer is a trace that does not
 * record the tick there: x86 with irq: but not irq_vectors: events; unless
 * a device interrupts that CPU as often, whose gaps would then be taken for
 * stalls).  A CPU the host took a fifth of is checked: its spans are the
 * finding, not a sign of a missing tick.  A span that ends at a lost-events
 * record is lost data, not a stall.
 *
 * The jobs that met one (struct dlb_job stall_ns), as they end: the check
 * above needs the whole trace, so a job takes a span when its CPU had shown
 * its tick up to it (two interrupt entries at least, one per two ticks of
 * its busy time so far).  A job meets a stall when it runs through it
 * (its exec holds it; a kernel with steal time accounting did not charge
 * it), waits through it on that CPU's runqueue, or is woken late by it:
 * the timer of its release was due on a CPU that stalled.  A miss late by
 * no more than the stalls its job met, an overrun by no more than those it
 * ran through, would not have been without them.
 */
#include <stdlib.h>

#include "dlbench/grow.h"
#include "metrics_local.h"

/* @len is a stall: 1.5 ticks or more */
static bool stall_len(u64 len, u64 tick)
{
	return 2 * len >= 3 * tick;
}

/* Stalls are looked for: the tick is known, the trace has interrupts (the header) */
static bool stalls_on(const struct dlb_metrics *m)
{
	return !m->opts.jobs_only && m->opts.tick_ns && m->run.irq_events;
}

/* @c's stall @s, that it showed its tick before: to its tasks that waited there */
static void stall_waiters(struct dlb_metrics *m, const struct cpu *c, const struct dlb_stall *s)
{
	int cpu = (int)(c - m->cpus);
	size_t i;

	for (i = 0; i < m->nr_waiting; i++) {
		struct task *t = m->waiting[i];
		u64 from = dl_time_before(s->from, t->ready_ts) ? t->ready_ts : s->from;

		if (t->rq_cpu == cpu && dl_time_before(from, s->to))
			t->st_wait += s->to - from;
	}
}

int stall_event(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev)
{
	u64 len = ev->ts - c->ev_last, tick = m->opts.tick_ns;

	if (c->ev_busy && ev->type == DLB_EV_IRQ_ENTRY)
		c->busy_irqs++;
	if (m->opts.jobs_only || !tick || !c->ev_busy || ev->type == DLB_EV_LOST)
		return 0;
	if (!stall_len(len, tick)) {
		c->busy_live += len;
		return 0;
	}
	/* for the jobs now: the CPU showed its tick so far (stall_finish's rule) */
	if (c->busy_irqs >= 2 && 2 * c->busy_irqs * tick >= c->busy_live) {
		c->st_total += len;
		c->st_last = (struct dlb_stall){ c->ev_last, ev->ts, c->curr_pid };
		stall_waiters(m, c, &c->st_last);
	}
	c->pub.stalls++;
	c->pub.stall_ns += len;
	if (len > c->pub.stall_max_ns)
		c->pub.stall_max_ns = len;
	if (c->nr_gap >= DLB_STALLS_KEPT)
		return 0;
	if (dlb_grow((void **)&c->gap, &c->cap_gap, c->nr_gap + 1, sizeof(*c->gap)))
		return -1;
	c->gap[c->nr_gap++] = (struct dlb_stall){ c->ev_last, ev->ts, c->curr_pid };
	return 0;
}

void stall_after(struct cpu *c, const struct dlb_event *ev)
{
	c->ev_last = ev->ts;
	c->ev_busy = c->known && c->curr_pid != 0;
}

u64 stall_upto(const struct dlb_metrics *m, int cpu)
{
	return cpu >= 0 && cpu < m->nr_cpus_alloc ? m->cpus[cpu].st_total : 0;
}

/* sched_waking's CPU or sched_wakeup's: the later stall of the two */
void stall_wakeup(struct dlb_metrics *m, struct task *t, int cpu)
{
	if (cpu >= 0 && cpu < m->nr_cpus_alloc &&
	    dl_time_before(t->wake_st.to, m->cpus[cpu].st_last.to))
		t->wake_st = m->cpus[cpu].st_last;
}

/* The part of [@from, @to) in @s */
static u64 overlap(const struct dlb_stall *s, u64 from, u64 to)
{
	u64 a = dl_time_before(from, s->from) ? s->from : from;
	u64 b = dl_time_before(s->to, to) ? s->to : to;

	return dl_time_before(a, b) ? b - a : 0;
}

void stall_job(struct dlb_metrics *m, struct task *t, struct dlb_job *j)
{
	struct dlb_task_metrics *p = &t->pub;

	j->stall_known = stalls_on(m);
	if (!j->stall_known)
		return;
	j->stall_ns = t->st_exec + t->st_wait;
	/* its release's timer fired late: the waker stalled from before the release on */
	if (t->woke_for_job && j->wakeup != j->rel)
		j->stall_ns += overlap(&t->wake_st, j->rel, j->wakeup);
	if (!j->stall_ns)
		return;
	p->stalled_jobs++;
	m->run.stalled_jobs++;
	if (j->miss && (u64)j->lateness <= j->stall_ns) {
		p->stall_misses++;
		m->run.stall_misses++;
	}
	if (j->overrun && j->overrun_ns <= t->st_exec) {
		p->stall_overruns++;
		m->run.stall_overruns++;
	}
}

/* Call after the CPUs' time is accounted: each CPU checked or not; the run's sums. */
void stall_finish(struct dlb_metrics *m)
{
	struct dlb_run_metrics *r = &m->run;
	int cpu;

	if (!stalls_on(m))
		return;
	for (cpu = 0; cpu <= m->max_cpu && cpu < m->nr_cpus_alloc; cpu++) {
		struct cpu *c = &m->cpus[cpu];
		u64 busy = c->pub.dl_ns + c->pub.other_ns;
		size_t i;

		c->pub.tick_ns = m->opts.tick_ns;
		if (!busy)
			continue;
		if (2 * c->busy_irqs * m->opts.tick_ns <
		    (busy > c->pub.stall_ns ? busy - c->pub.stall_ns : 0)) {
			/* not the host's: the tick is not in this trace */
			c->pub.stalls = c->pub.stall_ns = c->pub.stall_max_ns = 0;
			c->nr_gap = 0;
			continue;
		}
		c->pub.stalls_checked = true;
		r->stall_cpus_checked++;
		r->stalls += c->pub.stalls;
		r->stall_ns += c->pub.stall_ns;
		for (i = 0; i < c->nr_gap; i++)
			if (c->gap[i].to - c->gap[i].from > r->stall_max.to - r->stall_max.from) {
				r->stall_max = c->gap[i];
				r->stall_max_cpu = cpu;
			}
	}
}

const struct dlb_stall *dlb_metrics_stalls(const struct dlb_metrics *m, int cpu, size_t *n)
{
	*n = 0;
	if (cpu < 0 || cpu >= m->nr_cpus_alloc || !m->cpus[cpu].pub.stalls_checked)
		return NULL;
	*n = m->cpus[cpu].nr_gap;
	return m->cpus[cpu].gap;
}
