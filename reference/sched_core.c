// SPDX-License-Identifier: GPL-2.0
/*
 * The core scheduler around the -deadline class: activate/deactivate,
 * try_to_wake_up(), __schedule() with the pre/post-schedule hooks,
 * check_preempt_curr() across classes, rt_mutex_setprio() with the seed's
 * boosting (patch 006), sched_setattr() with admission control.  After
 * kernel/sched.c of Linux 3.2 (the seed's base), cut down to what a
 * simulated CPU needs.  Also the lower classes' stand-ins: RT (FIFO/RR by
 * priority) and "fair" (weighted round robin: a slice in proportion to the
 * task's load weight), which exist so that -deadline preempts something and
 * mixed workloads make sense; they do not migrate except at wake-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/exitcode.h"

#include "sched.h"

struct sched *sched_of(struct task_struct *p)
{
	return p->sched;
}

struct rq *task_rq(struct task_struct *p)
{
	return cpu_rq(sched_of(p), task_cpu(p));
}

void update_rq_clock(struct rq *rq)
{
	rq->clock = rq->s->now;
}

void resched_rq(struct rq *rq)
{
	if (rq->need_resched)
		return;
	rq->need_resched = 1;
	if (rq->s->ops.resched_cpu)
		rq->s->ops.resched_cpu(rq->s->ops.arg, rq->cpu);
}

void resched_task(struct task_struct *p)
{
	resched_rq(task_rq(p));
}

/* ---- the list classes (RT and fair stand-ins) -------------------------- */

void list_rq_init(struct list_rq *l)
{
	memset(l, 0, sizeof(*l));
}

static struct list_rq *list_rq_of(struct rq *rq, struct task_struct *p)
{
	return p->sched_class == &rt_sched_class ? &rq->rt : &rq->cfs;
}

/*
 * Insert ordered by prio (RT); FIFO within a prio, or at its head with
 * ENQUEUE_HEAD.  The fair list ignores prio: one FIFO, which the slices
 * rotate (weighted round robin, sched_list_slice()).
 */
static void list_enqueue(struct list_rq *l, struct task_struct *p, int head)
{
	struct task_struct *pos = l->head;
	int fair = p->sched_class == &fair_sched_class;

	while (pos && (fair ? !head :
		       pos->prio < p->prio || (!head && pos->prio == p->prio)))
		pos = pos->run_next;
	p->run_next = pos;
	p->run_prev = pos ? pos->run_prev : l->tail;
	if (p->run_prev)
		p->run_prev->run_next = p;
	else
		l->head = p;
	if (pos)
		pos->run_prev = p;
	else
		l->tail = p;
	p->on_list = 1;
	l->nr_running++;
	if (fair)
		l->load += p->se.weight;
}

static void list_dequeue(struct list_rq *l, struct task_struct *p)
{
	if (!p->on_list)
		return;
	if (p->run_prev)
		p->run_prev->run_next = p->run_next;
	else
		l->head = p->run_next;
	if (p->run_next)
		p->run_next->run_prev = p->run_prev;
	else
		l->tail = p->run_prev;
	p->run_next = p->run_prev = NULL;
	p->on_list = 0;
	l->nr_running--;
	if (p->sched_class == &fair_sched_class)
		l->load -= p->se.weight;
}

static void update_curr_list(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	u64 delta;

	if (curr == rq->idle || dl_task(curr) || curr->sched_class == &stop_sched_class)
		return;
	delta = rq->s->now - curr->se.exec_start;
	if ((s64)delta <= 0)
		return;
	curr->se.sum_exec_runtime += delta;
	curr->se.slice_used += delta;
	if (delta > curr->se.exec_max)
		curr->se.exec_max = delta;
	curr->se.exec_start = rq->s->now;
	if (rq->s->ops.trace_runtime)
		rq->s->ops.trace_runtime(rq->s->ops.arg, curr, delta);
	/*
	 * [mainline 6.12, fair.c update_curr()] Fair time is charged to the
	 * active fair server whether the task ran on its behalf (its budget
	 * bounds the run) or in the background (time the server then need not
	 * give: its deferred activation moves a period on).
	 */
	if (curr->sched_class == &fair_sched_class && rq->fair_server.dl.dl_server_active)
		rq->s->model->dl_server_update(&rq->fair_server.dl, (s64)delta);
}

/*
 * [mainline 6.12, fair.c enqueue_task_fair()/dequeue_task_fair()] The first
 * runnable fair task starts the fair server, the idle time before it
 * charged to the server first if the rq held no task at all (mainline
 * tests !rq->nr_running before add_nr_running(); here activate_task()
 * counted @p already).  The last one leaving stops the server, up to 6.16:
 * from 6.17 (the lazy stop) __pick_task_dl() stops it instead.
 */
static void enqueue_task_list(struct rq *rq, struct task_struct *p, int flags)
{
	const struct dl_model *m = rq->s->model;

	list_enqueue(list_rq_of(rq, p), p, flags & ENQUEUE_HEAD);
	if (p->sched_class == &fair_sched_class && rq->cfs.nr_running == 1 &&
	    m->dl_server_start) {
		if (rq->nr_running == 1 && m->dl_server_update_idle_time)
			m->dl_server_update_idle_time(rq, rq->curr);
		m->dl_server_start(&rq->fair_server.dl);
	}
}

static void dequeue_task_list(struct rq *rq, struct task_struct *p, int flags)
{
	const struct dl_model *m = rq->s->model;

	(void)flags;
	update_curr_list(rq);
	list_dequeue(list_rq_of(rq, p), p);
	if (p->sched_class == &fair_sched_class && !rq->cfs.nr_running &&
	    m->dl_server_stop && !m->dl_server_lazy_stop)
		m->dl_server_stop(&rq->fair_server.dl);
}

static void yield_task_list(struct rq *rq)
{
	struct task_struct *p = rq->curr;
	struct list_rq *l = list_rq_of(rq, p);

	list_dequeue(l, p);
	list_enqueue(l, p, 0);
}

static void check_preempt_curr_rt(struct rq *rq, struct task_struct *p, int flags)
{
	(void)flags;
	if (p->prio < rq->curr->prio)
		resched_task(rq->curr);
}

static void check_preempt_curr_fair(struct rq *rq, struct task_struct *p, int flags)
{
	(void)rq;
	(void)p;
	(void)flags;	/* the stand-in never preempts at wake-up: slices do */
}

static struct task_struct *pick_list(struct rq *rq, struct list_rq *l)
{
	struct task_struct *p = l->head;

	if (p)
		p->se.exec_start = rq->s->now;
	return p;
}

static struct task_struct *pick_next_task_rt(struct rq *rq)
{
	return pick_list(rq, &rq->rt);
}

static struct task_struct *pick_next_task_fair(struct rq *rq)
{
	return pick_list(rq, &rq->cfs);
}

/* [mainline 6.12, fair.c fair_server_pick_task()] What the fair server runs. */
struct task_struct *fair_server_pick(struct rq *rq)
{
	return pick_next_task_fair(rq);
}

static void put_prev_task_list(struct rq *rq, struct task_struct *p)
{
	(void)p;
	update_curr_list(rq);
}

/* Wake-up placement of the stand-ins: the previous CPU if idle, else an idle allowed CPU. */
static int select_task_rq_list(struct task_struct *p, int sd_flag, int flags)
{
	struct sched *s = sched_of(p);
	unsigned int cpu;

	(void)sd_flag;
	(void)flags;
	if (cpu_rq(s, task_cpu(p))->curr == cpu_rq(s, task_cpu(p))->idle)
		return task_cpu(p);
	dlb_for_each_cpu(cpu, &p->cpus_allowed) {
		struct rq *rq;

		if ((int)cpu >= s->nr_cpus)
			break;
		rq = cpu_rq(s, (int)cpu);
		if (rq->curr == rq->idle && !rq->need_resched)
			return (int)cpu;
	}
	return task_cpu(p);
}

static void set_curr_task_list(struct rq *rq)
{
	rq->curr->se.exec_start = rq->s->now;
}

/*
 * The slice of a list-class task: RR's is RR_TIMESLICE_NS.  The fair
 * stand-in is a weighted round robin (a model, not CFS or EEVDF): a round
 * of its run list lasts FAIR_SLICE_NS per queued task, shared in proportion
 * to the tasks' weights, so over a round each task gets
 *	FAIR_SLICE_NS * nr_running * weight / (sum of the weights)
 * and busy tasks share the CPU as their weights: nice 0 beside nice 5,
 * 1024:335; SCHED_IDLE (weight 3) beside nice 0, 3:1024.  Equal weights
 * give every task FAIR_SLICE_NS whatever its nice: plain round robin.
 * No wake-up preemption, no lag, no sleeper credit: a task's share is
 * only ever its weight's share of the rounds it is queued in.
 */
u64 sched_list_slice(struct rq *rq, struct task_struct *p)
{
	const struct list_rq *l = &rq->cfs;
	u64 slice;

	if (p->sched_class == &rt_sched_class)
		return RR_TIMESLICE_NS;
	if (!p->on_list || !l->load)
		return FAIR_SLICE_NS;
	slice = FAIR_SLICE_NS * l->nr_running * p->se.weight / l->load;
	return slice ? slice : 1;
}

/*
 * Time slices: queued = 1 means the simulator's slice event fired.  RR
 * rotates among equal priorities after RR_TIMESLICE_NS, fair among all
 * fair tasks after sched_list_slice(); FIFO never rotates.
 */
static void task_tick_list(struct rq *rq, struct task_struct *p, int queued)
{
	struct list_rq *l = list_rq_of(rq, p);
	u64 slice = sched_list_slice(rq, p);

	(void)queued;
	update_curr_list(rq);
	if (p->sched_class == &rt_sched_class && p->policy != SCHED_RR)
		return;
	if (p->se.slice_used < slice)
		return;
	p->se.slice_used = 0;
	if (l->head != l->tail) {
		list_dequeue(l, p);
		list_enqueue(l, p, 0);
		if (l->head != p)
			resched_task(p);
	}
}

static void switched_to_list(struct rq *rq, struct task_struct *p)
{
	if (p->on_rq && rq->curr != p && p->prio < rq->curr->prio)
		resched_task(rq->curr);
}

static void prio_changed_list(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!p->on_rq)
		return;
	if (rq->curr == p) {
		if (oldprio < p->prio)
			resched_task(p);
	} else if (p->prio < rq->curr->prio) {
		resched_task(rq->curr);
	}
}

static void set_cpus_allowed_list(struct task_struct *p, const struct dlb_cpumask *new_mask)
{
	p->cpus_allowed = *new_mask;
	p->dl.nr_cpus_allowed = (int)dlb_cpumask_weight(new_mask);
}

const struct sched_class rt_sched_class = {
	.next			= &fair_sched_class,
	.enqueue_task		= enqueue_task_list,
	.dequeue_task		= dequeue_task_list,
	.yield_task		= yield_task_list,
	.check_preempt_curr	= check_preempt_curr_rt,
	.pick_next_task		= pick_next_task_rt,
	.put_prev_task		= put_prev_task_list,
	.select_task_rq		= select_task_rq_list,
	.set_cpus_allowed	= set_cpus_allowed_list,
	.set_curr_task		= set_curr_task_list,
	.task_tick		= task_tick_list,
	.switched_to		= switched_to_list,
	.prio_changed		= prio_changed_list,
	.name			= "rt",
};

const struct sched_class fair_sched_class = {
	.next			= &idle_sched_class,
	.enqueue_task		= enqueue_task_list,
	.dequeue_task		= dequeue_task_list,
	.yield_task		= yield_task_list,
	.check_preempt_curr	= check_preempt_curr_fair,
	.pick_next_task		= pick_next_task_fair,
	.put_prev_task		= put_prev_task_list,
	.select_task_rq		= select_task_rq_list,
	.set_cpus_allowed	= set_cpus_allowed_list,
	.set_curr_task		= set_curr_task_list,
	.task_tick		= task_tick_list,
	.switched_to		= switched_to_list,
	.prio_changed		= prio_changed_list,
	.name			= "fair",
};

/* set_next_task_idle(): the idle time starts now (dl_server_update_idle_time()). */
static struct task_struct *pick_next_task_idle(struct rq *rq)
{
	rq->idle->se.exec_start = rq_clock(rq);
	return rq->idle;
}

/* [mainline 6.12, idle.c put_prev_task_idle()] idle time, charged to the fair server */
static void put_prev_task_idle(struct rq *rq, struct task_struct *prev)
{
	if (rq->s->model->dl_server_update_idle_time)
		rq->s->model->dl_server_update_idle_time(rq, prev);
}

const struct sched_class idle_sched_class = {
	.next			= NULL,
	.pick_next_task		= pick_next_task_idle,
	.put_prev_task		= put_prev_task_idle,
	.name			= "idle",
};

/*
 * ---- the stop class (kernel/sched_stoptask.c of 3.2; mainline
 * kernel/sched/stop_task.c) ---------------------------------------------
 *
 * "The stop task is the highest priority task in the system, it preempts
 * everything and will be preempted by nothing."  One per CPU (rq->stop, the
 * cpu stopper thread migration/N, sched_set_stop_task()); in the simulator
 * it runs in a replay's unavail intervals of the stop class
 * (reference/sim_unavail.c).  Being a class above -deadline, its wake-up
 * preempts a running -deadline task through check_preempt_curr()'s class
 * order, and __schedule() puts that task back with put_prev_task_dl():
 * update_curr_dl() charges it up to the switch and no further, and it
 * becomes pushable (pick_next_task_dl() re-sets its exec_start when it
 * runs again).
 */
static int select_task_rq_stop(struct task_struct *p, int sd_flag, int flags)
{
	(void)sd_flag;
	(void)flags;
	return task_cpu(p); /* stop tasks as never migrate */
}

static void check_preempt_curr_stop(struct rq *rq, struct task_struct *p, int flags)
{
	(void)rq;
	(void)p;
	(void)flags;
	/* we're never preempted */
}

static struct task_struct *pick_next_task_stop(struct rq *rq)
{
	struct task_struct *stop = rq->stop;

	if (stop && stop->on_rq) {
		stop->se.exec_start = rq_clock_task(rq);
		return stop;
	}

	return NULL;
}

/* inc_nr_running()/dec_nr_running(): activate_task()/deactivate_task() count here */
static void enqueue_task_stop(struct rq *rq, struct task_struct *p, int flags)
{
	(void)rq;
	(void)p;
	(void)flags;
}

static void dequeue_task_stop(struct rq *rq, struct task_struct *p, int flags)
{
	(void)rq;
	(void)p;
	(void)flags;
}

/*
 * The stop task's own time, as the first half of update_curr_dl(): the
 * kernel's two copies (3.2; mainline later shares them as
 * update_curr_common()), kept so for the line-by-line comparison.
 */
static void put_prev_task_stop(struct rq *rq, struct task_struct *prev)
{
	struct task_struct *curr = rq->curr;
	u64 delta_exec;

	(void)prev;
	delta_exec = rq_clock_task(rq) - curr->se.exec_start;
	if ((s64)delta_exec < 0)
		delta_exec = 0;

	if (delta_exec > curr->se.exec_max)
		curr->se.exec_max = delta_exec;

	curr->se.sum_exec_runtime += delta_exec;
	curr->se.exec_start = rq_clock_task(rq);
}

static void task_tick_stop(struct rq *rq, struct task_struct *curr, int queued)
{
	(void)rq;
	(void)curr;
	(void)queued;
}

static void set_curr_task_stop(struct rq *rq)
{
	struct task_struct *stop = rq->stop;

	stop->se.exec_start = rq_clock_task(rq);
}

/*
 * Simple, special scheduling class for the per-cpu stop tasks.  No
 * yield_task, switched_to, prio_changed: the kernel's BUG() (a stop task
 * never yields nor changes class or priority); the simulator never calls them.
 */
const struct sched_class stop_sched_class = {
	.next			= &dl_sched_class,
	.enqueue_task		= enqueue_task_stop,
	.dequeue_task		= dequeue_task_stop,
	.check_preempt_curr	= check_preempt_curr_stop,
	.pick_next_task		= pick_next_task_stop,
	.put_prev_task		= put_prev_task_stop,
	.select_task_rq		= select_task_rq_stop,
	.set_curr_task		= set_curr_task_stop,
	.task_tick		= task_tick_stop,
	.name			= "stop",
};

/* As the seed's kernel/sched.c: stop, then -deadline, RT, fair, idle. */
#define sched_class_highest	(&stop_sched_class)
#define for_each_class(class) \
	for (class = sched_class_highest; class; class = class->next)

/* ---- core ------------------------------------------------------------- */

/*
 * set_rq_online()/set_rq_offline() (kernel/sched.c of 3.2): a CPU joins or
 * leaves its root domain and every class hears of it.  The simulator has no
 * CPU hotplug and one root domain: every rq goes online at sched_create()
 * and offline at sched_free().
 */
static void set_rq_online(struct rq *rq)
{
	const struct sched_class *class;

	if (rq->online)
		return;
	dlb_cpumask_set(&rq->rd->online, (unsigned int)rq->cpu);
	rq->online = 1;
	for_each_class(class) {
		if (class->rq_online)
			class->rq_online(rq);
	}
}

static void set_rq_offline(struct rq *rq)
{
	const struct sched_class *class;

	if (!rq->online)
		return;
	for_each_class(class) {
		if (class->rq_offline)
			class->rq_offline(rq);
	}
	dlb_cpumask_clr(&rq->rd->online, (unsigned int)rq->cpu);
	rq->online = 0;
}

static void enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	p->sched_class->enqueue_task(rq, p, flags);
}

static void dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	p->sched_class->dequeue_task(rq, p, flags);
}

void activate_task(struct rq *rq, struct task_struct *p, int flags)
{
	rq->nr_running++;
	enqueue_task(rq, p, flags);
}

void deactivate_task(struct rq *rq, struct task_struct *p, int flags)
{
	rq->nr_running--;
	dequeue_task(rq, p, flags);
}

void set_task_cpu(struct task_struct *p, int new_cpu)
{
	struct sched *s = sched_of(p);

	if (task_cpu(p) == new_cpu)
		return;
	if (s->ops.trace_migrate)
		s->ops.trace_migrate(s->ops.arg, p, task_cpu(p), new_cpu);
	p->se.nr_migrations++;
	p->cpu = new_cpu;
}

void check_preempt_curr(struct rq *rq, struct task_struct *p, int flags)
{
	const struct sched_class *class;

	if (p->sched_class == rq->curr->sched_class) {
		rq->curr->sched_class->check_preempt_curr(rq, p, flags);
	} else {
		for_each_class(class) {
			if (class == rq->curr->sched_class)
				break;
			if (class == p->sched_class) {
				resched_task(rq->curr);
				break;
			}
		}
	}
}

/* select_task_rq() and the fallback to an allowed CPU. */
static int select_task_rq(struct sched *s, struct task_struct *p, int sd_flag, int flags)
{
	int cpu = p->sched_class->select_task_rq(p, sd_flag, flags);

	if (cpu < 0 || cpu >= s->nr_cpus || !dlb_cpumask_test(&p->cpus_allowed, (unsigned int)cpu)) {
		unsigned int c = dlb_cpumask_next(&p->cpus_allowed, 0);

		cpu = (int)c < s->nr_cpus ? (int)c : 0;
	}
	return cpu;
}

int wake_up_process(struct sched *s, struct task_struct *p, int this_cpu)
{
	int flags = ENQUEUE_WAKEUP;
	struct rq *rq;
	int cpu;

	if (p->state == TASK_RUNNING || p->state == TASK_DEAD)
		return 0;
	s->this_cpu = this_cpu;
	p->se.nr_wakeups++;

	cpu = select_task_rq(s, p, SD_BALANCE_WAKE, 0);
	/* [mainline 4.13, GRUB] set_task_cpu() -> migrate_task_rq_dl(), WF_MIGRATED */
	if (cpu != task_cpu(p) && s->model->grub && task_has_dl_policy(p)) {
		migrate_task_rq_dl(p, cpu);
		flags |= ENQUEUE_MIGRATED;
	}
	set_task_cpu(p, cpu);
	rq = cpu_rq(s, cpu);
	update_rq_clock(rq);

	activate_task(rq, p, flags);
	p->on_rq = 1;
	if (s->ops.trace_wakeup)
		s->ops.trace_wakeup(s->ops.arg, p, cpu);
	check_preempt_curr(rq, p, 0);
	p->state = TASK_RUNNING;
	if (p->sched_class->task_woken)
		p->sched_class->task_woken(rq, p);
	return 1;
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	const struct sched_class *class;
	struct task_struct *p;

	for_each_class(class) {
		p = class->pick_next_task(rq);
		if (p)
			return p;
	}
	return rq->idle;	/* cannot happen: the idle class always has one */
}

void schedule(struct sched *s, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);
	struct task_struct *prev = rq->curr, *next;
	long prev_state = prev->state;

	s->this_cpu = cpu;
	update_rq_clock(rq);

	if (prev->state && prev != rq->idle) {
		deactivate_task(rq, prev, DEQUEUE_SLEEP);
		prev->on_rq = 0;
	}

	if (prev->sched_class->pre_schedule)
		prev->sched_class->pre_schedule(rq, prev);

	prev->sched_class->put_prev_task(rq, prev);
	rq->dl_server = NULL;
	next = pick_next_task(rq);
	rq->need_resched = 0;

	if (prev != next) {
		rq->nr_switches++;
		rq->curr = next;
		prev->on_cpu = 0;
		next->on_cpu = 1;
		prev->nr_switches++;
		if (prev_state)
			prev->nr_voluntary_switches++;
		else
			prev->nr_involuntary_switches++;
		if (s->ops.trace_switch)
			s->ops.trace_switch(s->ops.arg, cpu, prev,
					    prev_state ? prev_state :
					    (prev == rq->idle ? 0 : TASK_REPORT_MAX),
					    next);
	}

	if (rq->post_schedule) {
		if (rq->curr->sched_class->post_schedule)
			rq->curr->sched_class->post_schedule(rq);
		rq->post_schedule = 0;
	}
}

void sched_update_curr(struct sched *s, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);

	s->this_cpu = cpu;
	update_rq_clock(rq);
	if (rq->curr != rq->idle && rq->curr->sched_class->task_tick)
		rq->curr->sched_class->task_tick(rq, rq->curr, 0);
}

void scheduler_tick(struct sched *s, int cpu, int queued)
{
	struct rq *rq = cpu_rq(s, cpu);

	s->this_cpu = cpu;
	update_rq_clock(rq);
	if (rq->curr != rq->idle && rq->curr->sched_class->task_tick)
		rq->curr->sched_class->task_tick(rq, rq->curr, queued);
}

void sched_yield_curr(struct sched *s, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);

	s->this_cpu = cpu;
	update_rq_clock(rq);
	if (rq->curr->sched_class->yield_task)
		rq->curr->sched_class->yield_task(rq);
	resched_rq(rq);
}

void sched_dl_timer_fire(struct sched *s, struct task_struct *p)
{
	s->this_cpu = task_cpu(p);
	update_rq_clock(task_rq(p));
	dl_task_timer(s, p);
}

void sched_inactive_timer_fire(struct sched *s, struct task_struct *p)
{
	s->this_cpu = task_cpu(p);
	update_rq_clock(task_rq(p));
	inactive_task_timer(s, p);
}

void sched_exit_curr(struct sched *s, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);
	struct task_struct *p = rq->curr;

	p->state = TASK_DEAD;
	schedule(s, cpu);
	/* task_dead_dl(): cancel the timer, give the bandwidth back */
	if (p->dl.dl_timer.active) {
		p->dl.dl_timer.active = false;
		if (s->ops.timer_cancel)
			s->ops.timer_cancel(s->ops.arg, p);
	}
	if (task_has_dl_policy(p)) {
		s->rd.dl_bw.total_bw -= p->dl.dl_bw;
		dl_extra_bw_update(s, (s64)(p->dl.dl_bw / (u64)s->nr_cpus));
		/*
		 * [GRUB] Deviation: a task that died before its 0-lag time
		 * leaves running_bw and this_bw now, not when its inactive
		 * timer fires (inactive_task_timer()'s TASK_DEAD branch).
		 */
		if (p->dl.dl_non_contending) {
			sub_running_bw(&p->dl, &task_rq(p)->dl);
			sub_rq_bw(&p->dl, &task_rq(p)->dl);
			p->dl.dl_non_contending = 0;
			cancel_inactive_timer(&p->dl);
		}
		p->dl.dl_bw = 0;
	}
}

/* ---- PI: rt_mutex with the seed's deadline boosting (patch 006) ------- */

/* Waiter order of the v4 rb-tree rtmutex: prio, then deadline among -deadline. */
static int rt_mutex_waiter_less(const struct task_struct *a, const struct task_struct *b)
{
	if (a->prio < b->prio)
		return 1;
	if (dl_prio(a->prio) && dl_prio(b->prio))
		return dl_time_before(a->dl.deadline, b->dl.deadline);
	return 0;
}

/* The highest waiter over all mutexes @task holds (its pi_waiters' leftmost). */
static struct task_struct *rt_mutex_get_top_task(struct task_struct *task)
{
	struct task_struct *top = NULL;
	struct rt_mutex *m;

	for (m = task->held_locks; m; m = m->next_held) {
		if (!m->pi || !m->waiters)
			continue;
		if (!top || rt_mutex_waiter_less(m->waiters->task, top))
			top = m->waiters->task;
	}
	return top;
}

static int rt_mutex_getprio(struct task_struct *task)
{
	struct task_struct *top = rt_mutex_get_top_task(task);

	if (!top)
		return task->normal_prio;
	return top->prio < task->normal_prio ? top->prio : task->normal_prio;
}

static void check_class_changed(struct rq *rq, struct task_struct *p,
				const struct sched_class *prev_class, int oldprio)
{
	if (prev_class != p->sched_class) {
		if (prev_class->switched_from)
			prev_class->switched_from(rq, p);
		if (p->sched_class->switched_to)
			p->sched_class->switched_to(rq, p);
	} else if (oldprio != p->prio || dl_task(p)) {
		if (p->sched_class->prio_changed)
			p->sched_class->prio_changed(rq, p, oldprio);
	}
}

static const struct sched_class *class_of_prio(int prio)
{
	if (dl_prio(prio))
		return &dl_sched_class;
	if (rt_prio(prio))
		return &rt_sched_class;
	return &fair_sched_class;
}

/* [006] rt_mutex_setprio() with the boosting conditions of the draft. */
static void rt_mutex_setprio(struct task_struct *p, int prio)
{
	struct rq *rq = task_rq(p);
	const struct sched_class *prev_class = p->sched_class;
	int oldprio = p->prio, on_rq = p->on_rq, running = task_current(rq, p);
	int enqueue_flag = 0;

	update_rq_clock(rq);
	p->pi_top_task = rt_mutex_get_top_task(p);

	if (on_rq)
		dequeue_task(rq, p, 0);
	if (running)
		p->sched_class->put_prev_task(rq, p);

	/*
	 * Boosting condition are:
	 * 1. -rt task is running and holds mutex A
	 *      --> -dl task blocks on mutex A
	 *
	 * 2. -dl task is running and holds mutex A
	 *      --> -dl task blocks on mutex A and could preempt the
	 *          running task
	 */
	/*
	 * Seed bug fixed: the draft compares with p->pi_top_task's deadline
	 * whatever that task is.  An RT top waiter's dl.deadline is unused
	 * (0), so a throttled -deadline owner was "boosted" by an RT waiter,
	 * un-throttled and, boosted, never throttled again until it unlocked
	 * (test_golden.c: inheritance_rt_waiter).  As mainline 5.8
	 * (740797ce3a12, "sched/core: Fix PI boosting between RT and DEADLINE
	 * tasks"): only a top waiter at -deadline priority boosts, and in a
	 * chain that is the -deadline task at its end (pi_dl_top_task()); from
	 * 5.10 (dl_model.pi_se) the direct top waiter, as mainline.
	 */
	if (dl_prio(prio)) {
		/*
		 * [mainline 5.10, model hook] rt_mutex_setprio(): pi_task is the
		 * direct top waiter, "p->dl.pi_se = pi_task->dl.pi_se" hands the
		 * donor at the chain's end down (2279f540ea7d, "sched/deadline:
		 * Fix priority inheritance with multiple scheduling classes").
		 */
		struct task_struct *pi_task = rq->s->model->pi_se ? p->pi_top_task :
								     pi_dl_top_task(p);

		/*
		 * [mainline 3.14 to 5.7, model hook] without "dl_prio(pi_task->prio)":
		 * any top waiter with an earlier dl.deadline boosts.
		 */
		if (!dl_prio(p->normal_prio) ||
		    (pi_task && (dl_prio(pi_task->prio) || !rq->s->model->pi_boost_dl_waiter) &&
		     dl_time_before(pi_task->dl.deadline, p->dl.deadline))) {
			p->dl.dl_boosted = 1;
			/* [mainline 5.10] p->dl.pi_se = pi_task->dl.pi_se */
			if (!WARN_ON_S(rq->s, !pi_task))
				p->dl.pi_se = pi_task->dl.pi_se;
			p->dl.dl_throttled = 0;
			enqueue_flag = ENQUEUE_REPLENISH;
		} else {
			p->dl.dl_boosted = 0;
			p->dl.pi_se = &p->dl;		/* [mainline 5.10] */
		}
	} else {
		if (dl_prio(oldprio)) {
			p->dl.dl_boosted = 0;
			p->dl.pi_se = &p->dl;		/* [mainline 5.10] */
		}
		if (rt_prio(prio) && oldprio < prio)
			enqueue_flag = ENQUEUE_HEAD;
	}
	p->sched_class = class_of_prio(prio);
	p->prio = prio;

	if (running)
		p->sched_class->set_curr_task(rq);
	if (on_rq)
		enqueue_task(rq, p, enqueue_flag);

	check_class_changed(rq, p, prev_class, oldprio);
}

/* __rt_mutex_adjust_prio, [006]: always re-evaluated for -deadline. */
static void __rt_mutex_adjust_prio(struct task_struct *task)
{
	int prio = rt_mutex_getprio(task);

	if (task->prio != prio || dl_prio(prio))
		rt_mutex_setprio(task, prio);
}

static void waiter_insert(struct rt_mutex *m, struct rt_mutex_waiter *w)
{
	struct rt_mutex_waiter **link = &m->waiters;

	while (*link && !rt_mutex_waiter_less(w->task, (*link)->task))
		link = &(*link)->next;
	w->next = *link;
	*link = w;
}

static struct rt_mutex_waiter *waiter_remove(struct rt_mutex *m, struct task_struct *t)
{
	struct rt_mutex_waiter **link = &m->waiters, *w;

	while (*link && (*link)->task != t)
		link = &(*link)->next;
	w = *link;
	if (w)
		*link = w->next;
	return w;
}

/* Walk the blocking chain from @owner upwards re-adjusting priorities (bounded). */
static void rt_mutex_adjust_chain(struct task_struct *owner)
{
	int depth;

	for (depth = 0; owner && depth < 1024; depth++) {
		struct rt_mutex *next_lock = owner->pi_blocked_on;
		struct rt_mutex_waiter *w;

		__rt_mutex_adjust_prio(owner);
		if (!next_lock || !next_lock->pi)
			break;
		/* re-sort owner among the waiters of the lock it blocks on */
		w = waiter_remove(next_lock, owner);
		if (w)
			waiter_insert(next_lock, w);
		owner = next_lock->owner;
	}
}

static void held_add(struct task_struct *p, struct rt_mutex *m)
{
	m->next_held = p->held_locks;
	p->held_locks = m;
}

static void held_del(struct task_struct *p, struct rt_mutex *m)
{
	struct rt_mutex **link = &p->held_locks;

	while (*link && *link != m)
		link = &(*link)->next_held;
	if (*link)
		*link = m->next_held;
	m->next_held = NULL;
}

int rt_mutex_lock(struct sched *s, struct rt_mutex *m, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);
	struct task_struct *p = rq->curr;
	struct rt_mutex_waiter *w;

	s->this_cpu = cpu;
	update_rq_clock(rq);
	if (!m->owner) {
		m->owner = p;
		held_add(p, m);
		return 1;
	}
	w = &p->pi_waiter;
	w->task = p;
	/* the waiter's deadline must be current for the ordering */
	sched_update_curr(s, cpu);
	waiter_insert(m, w);
	p->pi_blocked_on = m;
	p->state = TASK_INTERRUPTIBLE;	/* a user PI futex sleeps interruptibly: "S" */
	if (m->pi)
		rt_mutex_adjust_chain(m->owner);
	return 0;
}

void rt_mutex_unlock(struct sched *s, struct rt_mutex *m, int cpu)
{
	struct rq *rq = cpu_rq(s, cpu);
	struct task_struct *p = rq->curr, *next = NULL;
	struct rt_mutex_waiter *w = m->waiters;

	s->this_cpu = cpu;
	update_rq_clock(rq);
	held_del(p, m);
	m->owner = NULL;
	if (w) {
		/*
		 * Deviation: the lock is handed to the top waiter (no lock
		 * stealing), which keeps the simulation simple and deterministic.
		 */
		m->waiters = w->next;
		next = w->task;
		w->next = NULL;
		next->pi_blocked_on = NULL;
		m->owner = next;
		held_add(next, m);
	}
	/* the owner loses the boost of this lock's waiters */
	if (m->pi)
		__rt_mutex_adjust_prio(p);
	if (next) {
		if (m->pi && m->waiters)
			__rt_mutex_adjust_prio(next);
		wake_up_process(s, next, cpu);
	}
}

/* ---- parameters ------------------------------------------------------- */

/*
 * [mainline 4.10+, kernel/sched/core.c sched_prio_to_weight[]; Linux 3.2's
 * prio_to_weight[], kernel/sched.c, holds the same values] The load weight
 * of nice -20..19: each nice step is about 10% of CPU time (x 1.25).
 */
static const unsigned long sched_prio_to_weight[40] = {
 /* -20 */     88761,     71755,     56483,     46273,     36291,
 /* -15 */     29154,     23254,     18705,     14949,     11916,
 /* -10 */      9548,      7620,      6100,      4904,      3906,
 /*  -5 */      3121,      2501,      1991,      1586,      1277,
 /*   0 */      1024,       820,       655,       526,       423,
 /*   5 */       335,       272,       215,       172,       137,
 /*  10 */       110,        87,        70,        56,        45,
 /*  15 */        36,        29,        23,        18,        15,
};

/*
 * [3.2, kernel/sched.c set_load_weight()] SCHED_IDLE gets WEIGHT_IDLEPRIO,
 * the others their nice's weight (static_prio: a PI boost does not change it).
 */
static void set_load_weight(struct task_struct *p)
{
	int prio = p->static_prio - MAX_RT_PRIO;

	if (p->policy == SCHED_IDLE)
		p->se.weight = WEIGHT_IDLEPRIO;
	else if (prio >= 0 && prio < 40)
		p->se.weight = sched_prio_to_weight[prio];
	else
		p->se.weight = NICE_0_WEIGHT;
}

static void __setscheduler(struct task_struct *p, int policy, int prio)
{
	p->policy = policy;
	if (dl_policy(policy)) {
		p->normal_prio = MAX_DL_PRIO - 1;
	} else if (policy == SCHED_FIFO || policy == SCHED_RR) {
		p->rt_priority = prio;
		p->normal_prio = MAX_RT_PRIO - 1 - prio;
	} else {
		p->static_prio = NICE_TO_PRIO(prio);
		p->normal_prio = p->static_prio;
	}
	p->prio = rt_mutex_getprio(p);
	p->sched_class = class_of_prio(p->prio);
	set_load_weight(p);
}

int sched_setattr(struct sched *s, struct task_struct *p, int policy, int prio,
		  const struct dl_params *dl, const struct dl_param_limits *lim,
		  struct dlb_err *err)
{
	if (p->on_rq)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "sched_setattr: %s is runnable", p->comm);
	if (dl_policy(policy)) {
		/*
		 * Seed bug fixed: patch 002's __checkparam_dl() compares the
		 * addresses of sched_deadline and sched_runtime, not their
		 * values, and so accepts anything.  What it means (deadline
		 * != 0, runtime <= deadline) and mainline's other rules are
		 * dl_param_check() (test_golden.c: test_checkparam).
		 */
		enum dl_param_rule r = dl_param_check(dl, lim);
		char buf[256];
		u64 period = dl_params_period(dl), bw = to_ratio(period, dl->runtime);

		if (r != DL_PARAM_OK)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "sched_setattr: EINVAL: %s: %s",
					   p->comm, dl_param_explain(buf, sizeof(buf), dl, lim, r));
		if (dl_bw_admit(s, p, bw, err) < 0)
			return -1;
		/*
		 * [mainline 4.13, GRUB] switched_to_dl() of a task not queued,
		 * or dl_change_utilization() of one that stays -deadline:
		 * this_bw of its rq carries the new bandwidth.
		 */
		if (s->model->grub) {
			struct dl_rq *dl_rq = &task_rq(p)->dl;

			if (task_has_dl_policy(p)) {
				if (p->dl.dl_non_contending) {
					sub_running_bw(&p->dl, dl_rq);
					p->dl.dl_non_contending = 0;
					cancel_inactive_timer(&p->dl);
				}
				sub_rq_bw(&p->dl, dl_rq);
			}
			p->dl.dl_bw = bw;
			add_rq_bw(&p->dl, dl_rq);
		}
		p->dl.dl_runtime = dl->runtime;
		p->dl.dl_deadline = dl->deadline;
		p->dl.dl_period = period;
		p->dl.dl_bw = bw;
		p->dl.flags = (unsigned int)dl->flags;	/* sched_flags (SCHED_FLAG_RECLAIM) */
		p->dl.dl_throttled = 0;
		p->dl.dl_new = 1;
	} else {
		if (task_has_dl_policy(p)) {
			s->rd.dl_bw.total_bw -= p->dl.dl_bw;
			dl_extra_bw_update(s, (s64)(p->dl.dl_bw / (u64)s->nr_cpus));
			/* [mainline 4.13, GRUB] switched_from_dl() of a task not queued */
			if (s->model->grub) {
				if (p->dl.dl_non_contending) {
					sub_running_bw(&p->dl, &task_rq(p)->dl);
					p->dl.dl_non_contending = 0;
					cancel_inactive_timer(&p->dl);
				}
				sub_rq_bw(&p->dl, &task_rq(p)->dl);
			}
		}
		p->dl.dl_bw = 0;
	}
	__setscheduler(p, policy, prio);
	return 0;
}

int sched_setaffinity(struct sched *s, struct task_struct *p, const struct dlb_cpumask *mask,
		      struct dlb_err *err)
{
	struct dlb_cpumask m = *mask;
	unsigned int c;

	for (c = (unsigned int)s->nr_cpus; c < DLB_MAX_CPUS; c++)
		dlb_cpumask_clr(&m, c);
	if (!dlb_cpumask_weight(&m))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "sched_setaffinity: EINVAL: %s: no CPU of the mask below %d",
				   p->comm, s->nr_cpus);
	if (p->sched_class->set_cpus_allowed)
		p->sched_class->set_cpus_allowed(p, &m);
	p->cpus_allowed = m;
	p->dl.nr_cpus_allowed = (int)dlb_cpumask_weight(&m);
	if (!dlb_cpumask_test(&m, (unsigned int)p->cpu) && !p->on_rq) {
		int cpu = (int)dlb_cpumask_next(&m, 0);

		/*
		 * [GRUB] Deviation: the task moves now, not at its next wake-up;
		 * its utilization moves with it (migrate_task_rq_dl()).
		 */
		if (s->model->grub && task_has_dl_policy(p)) {
			migrate_task_rq_dl(p, cpu);
			p->cpu = cpu;
			add_rq_bw(&p->dl, &task_rq(p)->dl);
		}
		p->cpu = cpu;
	}
	return 0;
}

/*
 * [kernel/sched/core.c sched_set_stop_task()] "Make it appear like a
 * SCHED_FIFO task, its something userspace knows about and won't get
 * confused about": FIFO at priority MAX_RT_PRIO - 1 (prio 0, what
 * sched_switch shows), then the stop class; pinned to its CPU.
 */
void sched_set_stop_task(struct sched *s, int cpu, struct task_struct *stop)
{
	struct rq *rq = cpu_rq(s, cpu);

	__setscheduler(stop, SCHED_FIFO, MAX_RT_PRIO - 1);
	stop->sched_class = &stop_sched_class;
	dlb_cpumask_clear(&stop->cpus_allowed);
	dlb_cpumask_set(&stop->cpus_allowed, (unsigned int)cpu);
	stop->dl.nr_cpus_allowed = 1;
	stop->cpu = cpu;
	rq->stop = stop;
}

void sched_task_init(struct sched *s, struct task_struct *p, int pid, const char *comm, int cpu)
{
	unsigned int c;

	p->sched = s;
	if (pid) {
		p->next_task = s->tasks;
		s->tasks = p;
	}
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->state = TASK_INTERRUPTIBLE;
	p->cpu = cpu;
	RB_CLEAR_NODE(&p->dl.rb_node);
	RB_CLEAR_NODE(&p->pushable_dl_tasks);
	p->dl.pi_se = &p->dl;	/* [mainline 5.10] __dl_clear_params() */
	dlb_cpumask_clear(&p->cpus_allowed);
	for (c = 0; c < (unsigned int)s->nr_cpus; c++)
		dlb_cpumask_set(&p->cpus_allowed, c);
	p->dl.nr_cpus_allowed = s->nr_cpus;
	__setscheduler(p, SCHED_NORMAL, 0);
}

struct sched *sched_create(const struct sched_create_opts *o, const struct sched_ops *ops,
			   struct dlb_err *err)
{
	struct sched *s;
	int i;

	if (o->nr_cpus < 1 || o->nr_cpus > DLB_MAX_CPUS) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "cpus: %d is not in 1..%d", o->nr_cpus,
			    DLB_MAX_CPUS);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->model = o->model ? o->model : &dl_model_v4;
	s->nr_cpus = o->nr_cpus;
	s->cpu_select = o->cpu_select;
	s->ops = *ops;
	s->opstat.timed = o->timed;
	s->rqs = calloc((size_t)o->nr_cpus, sizeof(*s->rqs));
	s->idle_tasks = calloc((size_t)o->nr_cpus, sizeof(*s->idle_tasks));
	s->local_cpu_mask_dl = calloc((size_t)o->nr_cpus, sizeof(*s->local_cpu_mask_dl));
	if (!s->rqs || !s->idle_tasks || !s->local_cpu_mask_dl ||
	    cpudl_init(&s->rd.cpudl, o->nr_cpus) < 0)
		goto nomem;
	s->rd.reserved_bw = o->reserved_bw;
	if (o->admission) {
		u64 per = to_ratio(o->rt_period_us, o->rt_runtime_us);

		s->rd.dl_bw.bw = (s64)(per > o->reserved_bw ? per - o->reserved_bw : 0);
	} else {
		s->rd.dl_bw.bw = -1;
	}
	for (i = 0; i < o->nr_cpus; i++) {
		struct rq *rq = &s->rqs[i];
		struct task_struct *idle = &s->idle_tasks[i];
		char name[16];

		dlb_cpumask_set(&s->rd.span, (unsigned int)i);
		rq->cpu = i;
		rq->s = s;
		rq->rd = &s->rd;
		init_dl_rq(&rq->dl);
		if (s->model->grub)
			init_dl_rq_bw_ratio(s, &rq->dl, o->rt_runtime_us, o->rt_period_us);
		list_rq_init(&rq->rt);
		list_rq_init(&rq->cfs);
		set_rq_online(rq);
		snprintf(name, sizeof(name), "swapper/%d", i);
		idle->sched = s;
		sched_task_init(s, idle, 0, name, i);
		idle->state = TASK_RUNNING;
		idle->sched_class = &idle_sched_class;
		idle->on_cpu = 1;
		rq->idle = idle;
		rq->curr = idle;
		if (s->model->dl_server_start)
			sched_init_dl_server(rq);
	}
	/* [mainline 6.12, GRUB] dl_server_apply_params() -> __dl_add() per CPU */
	for (i = 0; i < o->nr_cpus && s->model->fair_server_bw; i++)
		dl_extra_bw_update(s, -(s64)(s->model->fair_server_bw / (u64)o->nr_cpus));
	return s;
nomem:
	dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory for %d CPUs", o->nr_cpus);
	sched_free(s);
	return NULL;
}

void sched_free(struct sched *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; s->rqs && i < s->nr_cpus; i++)
		if (s->rqs[i].s)
			set_rq_offline(&s->rqs[i]);
	cpudl_cleanup(&s->rd.cpudl);
	free(s->rqs);
	free(s->idle_tasks);
	free(s->local_cpu_mask_dl);
	free(s);
}
