// SPDX-License-Identifier: GPL-2.0
/*
 * Unavailable CPU time (dlb_sim_opts.unavail: a replay's unavail records,
 * docs/conformance.md "Unavailable time"): intervals in which a CPU is
 * taken by what no task of the workload can preempt, of two sorts.
 *
 * Interrupts (kind irq) are time taken under the running task: a
 * simulator matter, not the scheduler's.  What runs on the CPU makes no
 * progress there, and the scheduler, whose clock goes on, charges it the
 * time, as the kernel charges interrupt time to the task it interrupted
 * without CONFIG_IRQ_TIME_ACCOUNTING (update_curr() measures
 * rq_clock_task(), which excludes interrupt time only with that option;
 * kernel/sched/core.c update_rq_clock_task()).  Work completions move by
 * the time taken; budgets, ticks and timers do not.  With
 * o.irq_time_accounting (the traced kernel had the option) they are left
 * out of the tasks' clock instead (sched_ops.irq_time, rq_clock_task()):
 * no progress and no charge, so a budget lasts longer by them.
 *
 * The stop class (kinds with stop: SIM_UA_SWITCHED) is a task:
 * the CPU's stop task (migration/N, sched_set_stop_task()) wakes at the
 * interval's start and blocks at its end, and the scheduler does the
 * rest as the kernel's does (stop > dl > rt > fair, reference/sched_core.c):
 * the task it preempts is put back (put_prev_task_dl(): charged up to the
 * switch, not beyond; pushable), a task waking on the CPU meanwhile stays
 * queued behind it, another CPU's pull may take what is queued here.
 *
 * The fair server's share (kinds with fair, SIM_UA_SWITCHED too) is run by
 * the same stop task: the server is a -deadline entity whose choice the
 * trace already made (the analyzer's fair intervals: it ran a fair task
 * while a DL task waited there), so its time is forced here by the one
 * class that preempts every -deadline task: the task it takes the CPU
 * from is switched out, not charged, and may be pulled, as when the
 * kernel picked the server.  The replay's own trace shows that time as
 * migration/N's.
 */
#include <stdio.h>
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

/* Each CPU's running sum of uncharged (irq-only) time: sim_irq_time() in O(log n). */
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
			c->irq[i + 1] = c->irq[i] +
				(c->v[i].kind == DLB_UA_IRQ ? c->v[i].to - c->v[i].from : 0);
	}
	return 0;
}

/*
 * The stop task of each CPU with switched intervals: the kernel's
 * migration/N, made with pids after every thread's (first_tid + the
 * threads the workload can have + cpu) and registered with the scheduler
 * as the kernel's smpboot does (sched_set_stop_task()).
 */
static int ua_tasks(struct dlb_sim *sim, struct dlb_err *err)
{
	struct sim_ua_cpu *c;
	char comm[16];
	size_t i;
	int cpu;

	for (cpu = 0; cpu < sim->o.nr_cpus; cpu++) {
		c = &sim->ua[cpu];
		for (i = 0; i < c->n && !(c->v[i].kind & SIM_UA_SWITCHED); i++)
			;
		if (i == c->n)
			continue;
		if (!(c->stop = calloc(1, sizeof(*c->stop))))
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		snprintf(comm, sizeof(comm), "migration/%d", cpu);
		sched_task_init(sim->s, c->stop, sim->o.first_tid + (int)sim->cap_thr + cpu, comm,
				cpu);
		sched_set_stop_task(sim->s, cpu, c->stop);
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
	if (ua_tasks(sim, err))
		return -1;
	return o->irq_time_accounting ? irq_prefix(sim, err) : 0;
}

void sim_unavail_free(struct dlb_sim *sim)
{
	int cpu;

	for (cpu = 0; sim->ua && cpu < sim->o.nr_cpus; cpu++) {
		free(sim->ua[cpu].v);
		free(sim->ua[cpu].irq);
		free(sim->ua[cpu].stop);
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
		if (c->v[i].kind & SIM_UA_SWITCHED)
			continue;	/* the running task was switched out */
		from = dl_time_before(c->v[i].from, a) ? a : c->v[i].from;
		to = dl_time_before(b, c->v[i].to) ? b : c->v[i].to;
		sum += to - from;
	}
	return sum;
}

/*
 * From @a, the instant @cpu has had @work outside its intervals taken
 * under the running task (of kind irq alone: @irq_only).  Switched
 * intervals are not walked: the task is switched out at their start and
 * its CPU re-planned then.
 */
static u64 ua_walk(const struct dlb_sim *sim, int cpu, u64 a, u64 work, bool irq_only)
{
	const struct sim_ua_cpu *c;
	u64 t = a, from;
	size_t i;

	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus)
		return a + work;
	c = &sim->ua[cpu];
	for (i = ua_after(c, a); i < c->n; i++) {
		if ((irq_only && c->v[i].kind != DLB_UA_IRQ) || (c->v[i].kind & SIM_UA_SWITCHED))
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
	return sim->o.irq_time_accounting ? ua_walk(sim, cpu, a, budget, true) : a + budget;
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
	if (i < c->n && c->v[i].kind == DLB_UA_IRQ && dl_time_before(c->v[i].from, now))
		sum += now - c->v[i].from;
	return sum;
}

/* The task that takes @cpu in a switched interval of @kind (stop or fair). */
static struct task_struct *ua_task(const struct dlb_sim *sim, int cpu, unsigned int kind)
{
	return kind & SIM_UA_SWITCHED ? sim->ua[cpu].stop : NULL;
}

/* The first switched interval of @c from index @i (c->n if none). */
static size_t sw_next(const struct sim_ua_cpu *c, size_t i)
{
	while (i < c->n && !(c->v[i].kind & SIM_UA_SWITCHED))
		i++;
	return i;
}

void sim_unavail_start(struct dlb_sim *sim)
{
	size_t i;
	int cpu;

	for (cpu = 0; sim->ua && cpu < sim->o.nr_cpus; cpu++) {
		i = sw_next(&sim->ua[cpu], 0);
		if (i < sim->ua[cpu].n)
			evq_push(sim, sim->ua[cpu].v[i].from, SE_CPU_UA_START, cpu, i);
	}
}

/*
 * An interval's start wakes its task (try_to_wake_up(), as whoever queued
 * the stopper's work wakes it; which CPU that was, the trace does not say:
 * this one); its end blocks it, as the stopper's thread function does
 * when its work is done (set_current_state(TASK_INTERRUPTIBLE);
 * schedule()), unless the next interval begins at that instant: it runs on.
 */
void sim_unavail_event(struct dlb_sim *sim, const struct sim_ev *e)
{
	struct sim_ua_cpu *c = &sim->ua[e->idx];
	size_t i = (size_t)e->gen, j;
	struct task_struct *p = ua_task(sim, e->idx, c->v[i].kind);
	struct rq *rq = cpu_rq(sim->s, e->idx);

	if (e->type == SE_CPU_UA_START) {
		wake_up_process(sim->s, p, e->idx);
		evq_push(sim, c->v[i].to, SE_CPU_UA_END, e->idx, i);
		return;
	}
	j = sw_next(c, i + 1);
	if (j < c->n && c->v[j].from == c->v[i].to && ua_task(sim, e->idx, c->v[j].kind) == p) {
		evq_push(sim, c->v[j].to, SE_CPU_UA_END, e->idx, j);
		return;
	}
	if (rq->curr != p) {
		/* cannot happen: it preempts every class from its wake-up on */
		sim->stop = -1;
		dlb_err_set(&sim->stop_err, DLB_EXIT_INTERNAL, "at %llu ns: cpu %d: %s is not "
			    "running at the end of its interval", (unsigned long long)sim->now,
			    e->idx, p->comm);
		return;
	}
	p->state = TASK_INTERRUPTIBLE;
	schedule(sim->s, e->idx);
	if (j < c->n)
		evq_push(sim, c->v[j].from, SE_CPU_UA_START, e->idx, j);
}

const char *sim_unavail_comm(const struct dlb_sim *sim, int pid)
{
	int cpu = pid - sim->o.first_tid - (int)sim->cap_thr;

	if (!sim->ua || cpu < 0 || cpu >= sim->o.nr_cpus || !sim->ua[cpu].stop)
		return NULL;
	return sim->ua[cpu].stop->comm;
}
