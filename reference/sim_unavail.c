// SPDX-License-Identifier: GPL-2.0
/*
 * Unavailable CPU time (dlb_sim_opts.unavail: a replay's unavail records,
 * docs/conformance.md "Unavailable time"): intervals in which a CPU is
 * taken by what no task of the workload can preempt, interrupts or the
 * stop class.  A simulator matter, not the scheduler's: what runs on the
 * CPU makes no progress there, and the scheduler, whose clock goes on,
 * charges it the time, as the kernel charges interrupt time to the task it
 * interrupted without CONFIG_IRQ_TIME_ACCOUNTING (update_curr() measures
 * rq_clock_task(), which excludes interrupt time only with that option;
 * kernel/sched/core.c update_rq_clock_task()).  Work completions move by
 * the time taken; budgets, ticks and timers do not.
 * With o.irq_time_accounting (the traced kernel had the option) the
 * intervals of kind irq alone are left out of the tasks' clock instead
 * (sched_ops.irq_time, rq_clock_task()): no progress and no charge, so a
 * budget lasts longer by them.  stop and irq+stop stay charged.
 * Intervals with the kind fair (the fair server's share: a fair task ran
 * while the DL task waited) are left out of the clock always: the kernel
 * had switched the DL task out, so it made no progress and was not
 * charged.  Not modelled: that a DL task switched out may be pulled to
 * another CPU; here it stays on its CPU through the interval.
 */
#include <stdlib.h>

#include "dlbench/exitcode.h"

#include "sim_local.h"

void dlb_sim_opts_unavail(struct dlb_sim_opts *o, const struct dlb_jobs_trace *jt)
{
	o->unavail = jt->unavail;
	o->nr_unavail = jt->nr_unavail;
	o->unavail_t0 = jt->t0;
	o->irq_time_accounting = jt->irq_time_acct == 1;
}

/* Whether an interval of @kind is left out of the tasks' clock (not charged). */
static bool ua_uncharged(const struct dlb_sim_opts *o, unsigned int kind)
{
	return (kind & DLB_UA_FAIR) || (o->irq_time_accounting && kind == DLB_UA_IRQ);
}

bool sim_unavail_uncharged(const struct dlb_sim_opts *o)
{
	size_t i;

	for (i = 0; i < o->nr_unavail; i++)
		if (ua_uncharged(o, o->unavail[i].kind))
			return true;
	return false;
}

/* Each CPU's running sum of uncharged time: sim_irq_time() in O(log n). */
static int irq_prefix(struct dlb_sim *sim, struct dlb_err *err)
{
	struct sim_ua_cpu *c;
	size_t i;
	int cpu;

	for (cpu = 0; cpu < sim->o.nr_cpus; cpu++) {
		c = &sim->ua[cpu];
		if (!(c->irq = calloc(c->n + 1, sizeof(*c->irq))))
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		for (i = 0; i < c->n; i++)
			c->irq[i + 1] = c->irq[i] + (ua_uncharged(&sim->o, c->v[i].kind) ?
						     c->v[i].to - c->v[i].from : 0);
	}
	return 0;
}

int sim_unavail_init(struct dlb_sim *sim, struct dlb_err *err)
{
	const struct dlb_sim_opts *o = &sim->o;
	u64 t0 = o->unavail_t0;
	size_t i, *n;
	int cpu;

	if (!o->nr_unavail)
		return 0;
	sim->ua = calloc((size_t)o->nr_cpus, sizeof(*sim->ua));
	n = calloc((size_t)o->nr_cpus, sizeof(*n));
	if (!sim->ua || !n) {
		free(n);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	}
	/* a replay on fewer CPUs than the trace's (dlb-sim --replay -m) has none of theirs */
	for (i = 0; i < o->nr_unavail; i++)
		if (o->unavail[i].cpu >= 0 && o->unavail[i].cpu < o->nr_cpus)
			n[o->unavail[i].cpu]++;
	for (cpu = 0; cpu < o->nr_cpus; cpu++)
		if (n[cpu] && !(sim->ua[cpu].v = calloc(n[cpu], sizeof(*sim->ua[cpu].v)))) {
			free(n);
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		}
	free(n);
	for (i = 0; i < o->nr_unavail; i++) {
		const struct dlb_jt_unavail *u = &o->unavail[i];
		struct sim_ua_cpu *c;
		u64 from = dl_time_before(u->from, t0) ? 0 : u->from - t0;

		if (u->cpu < 0 || u->cpu >= o->nr_cpus || !dl_time_before(t0, u->to))
			continue;	/* not simulated, or before the run */
		c = &sim->ua[u->cpu];
		if (!dl_time_before(from, u->to - t0) ||
		    (c->n && dl_time_before(from, c->v[c->n - 1].to)))
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "unavail %zu: not after the "
					   "CPU's previous interval, or empty", i);
		c->v[c->n].from = from;
		c->v[c->n].kind = u->kind;
		c->v[c->n++].to = u->to - t0;
	}
	return sim_unavail_uncharged(o) ? irq_prefix(sim, err) : 0;
}

void sim_unavail_free(struct dlb_sim *sim)
{
	int cpu;

	for (cpu = 0; sim->ua && cpu < sim->o.nr_cpus; cpu++) {
		free(sim->ua[cpu].v);
		free(sim->ua[cpu].irq);
	}
	free(sim->ua);
}

/* The first interval of @cpu that ends after @t (c->n if none). */
static size_t ua_after(const struct sim_ua_cpu *c, u64 t)
{
	size_t lo = 0, hi = c->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dl_time_before(t, c->v[mid].to))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

u64 sim_unavail_between(const struct dlb_sim *sim, int cpu, u64 a, u64 b)
{
	const struct sim_ua_cpu *c;
	u64 sum = 0, from, to;
	size_t i;

	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus)
		return 0;
	c = &sim->ua[cpu];
	for (i = ua_after(c, a); i < c->n && dl_time_before(c->v[i].from, b); i++) {
		from = dl_time_before(c->v[i].from, a) ? a : c->v[i].from;
		to = dl_time_before(b, c->v[i].to) ? b : c->v[i].to;
		sum += to - from;
	}
	return sum;
}

/* From @a, the instant @cpu has had @work outside its intervals (the uncharged ones: @uncharged). */
static u64 ua_walk(const struct dlb_sim *sim, int cpu, u64 a, u64 work, bool uncharged)
{
	const struct sim_ua_cpu *c;
	u64 t = a, from;
	size_t i;

	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus)
		return a + work;
	c = &sim->ua[cpu];
	for (i = ua_after(c, a); i < c->n; i++) {
		if (uncharged && !ua_uncharged(&sim->o, c->v[i].kind))
			continue;
		from = dl_time_before(c->v[i].from, t) ? t : c->v[i].from;
		if (from - t >= work)
			break;		/* the work ends before this interval */
		work -= from - t;
		t = c->v[i].to;
	}
	return t + work;
}

u64 sim_avail_after(const struct dlb_sim *sim, int cpu, u64 a, u64 work)
{
	return ua_walk(sim, cpu, a, work, false);
}

u64 sim_charged_after(const struct dlb_sim *sim, int cpu, u64 a, u64 budget)
{
	/* irq[]: some interval is uncharged (sim_unavail_init()) */
	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus || !sim->ua[cpu].irq)
		return a + budget;
	return ua_walk(sim, cpu, a, budget, true);
}

u64 sim_irq_time(void *arg, int cpu, u64 now)
{
	const struct dlb_sim *sim = arg;
	const struct sim_ua_cpu *c;
	u64 sum;
	size_t i;

	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus || !sim->ua[cpu].irq)
		return 0;
	c = &sim->ua[cpu];
	i = ua_after(c, now);
	sum = c->irq[i];
	/* inside interval i: its part before @now */
	if (i < c->n && ua_uncharged(&sim->o, c->v[i].kind) && dl_time_before(c->v[i].from, now))
		sum += now - c->v[i].from;
	return sum;
}
