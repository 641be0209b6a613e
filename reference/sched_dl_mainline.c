// SPDX-License-Identifier: GPL-2.0
/*
 * The mainline model: the rules of today's kernel/sched/deadline.c that the
 * v4 seeds did not have, each a hook of struct dl_model that sched_dl.c
 * calls where mainline calls the function of the same name.  Every function
 * names the mainline function it follows and the kernel version the rule
 * arrived in; dl_model_mainline() turns on the rules of the version asked
 * for.  Read against torvalds/linux kernel/sched/deadline.c (the 5.x-6.x
 * text; the functions below did not change in substance since they came).
 *
 * Modelled (docs/reference.md, "The mainline model"):
 *   4.11  dl_next_period(): the replenishment timer fires at the start of
 *         the next period, not at the deadline (start_dl_timer);
 *   4.11  dl_check_constrained_dl(): a constrained task (deadline < period)
 *         woken after its deadline but before its next period is throttled
 *         until the next period, its runtime cut to 0;
 *   4.13  update_dl_revised_wakeup(): a constrained task woken before its
 *         deadline whose runtime would overflow keeps its deadline, its
 *         runtime cut to density * laxity (the revised CBS wake-up rule);
 *   3.14+ dl_entity_overflow() in 64 bits scaled by DL_SCALE, as mainline;
 *   6.12  the fair server's bandwidth (50 ms every 1 s per CPU) counted by
 *         admission (dl_server_apply_params -> __dl_add);
 *   6.12  the fair server as a scheduled, deferred dl_server ("sched/fair:
 *         Add trivial fair server", "sched/deadline: Deferrable dl server",
 *         both in 6.12): dl_server_start/stop/update/timer below, and
 *         __pick_task_dl() in sched_dl.c; idle time charged to it
 *         (dl_server_update_idle_time());
 *   6.17  its lazy stop (cccb45d7c429 "sched/deadline: Less agressive
 *         dl_server handling", a3a70caf7906 "sched/deadline: Fix dl_server
 *         behaviour"): stopped by a pick that finds no fair task, not by
 *         the last fair task leaving.
 *   4.2   dl_task_timer() replenishes a throttled task that is not queued;
 *   4.13  GRUB reclaiming (SCHED_FLAG_RECLAIM), grub_reclaim() of 6.5 from 6.5;
 *   5.8   rt_mutex_setprio() (core.c) boosts a -deadline owner only for a
 *         top waiter at -deadline priority (dl_model.pi_boost_dl_waiter);
 *   5.10  the pi_se chain: a boosted owner takes its direct top waiter's
 *         pi_se, the donor at the chain's end (dl_model.pi_se; core.c,
 *         enqueue_task_dl() in sched_dl.c).
 * Not modelled: mainline's dl_runtime_exceeded()
 * without the v4 deadline-miss charge; for the fair server: the push
 * after its timer (__push_dl_task(): the server itself is never pushable),
 * and two fixes after 6.18.0, since taken by 6.18.y stable: 115135422562
 * "sched/deadline: Fix 'stuck' dl_server" (6.19) and 14a857056466 (the
 * revised wake-up rule for a deferred server).
 */
#include <stdio.h>
#include <string.h>

#include "dlbench/dlparam.h"

#include "sched.h"

/* Mainline's DL_SCALE (kernel/sched/sched.h): dl_entity_overflow() in µs. */
#define DL_SCALE		10

/*
 * dl_is_implicit() (4.13, "sched/deadline: Use the revised wakeup rule for
 * suspending constrained dl tasks"): deadline == period.
 */
static inline bool dl_is_implicit(struct sched_dl_entity *dl_se)
{
	return dl_se->dl_deadline == dl_se->dl_period;
}

/*
 * dl_next_period() (4.11, "sched/deadline: Make sure the replenishment
 * timer fires in the next period"): start_dl_timer() arms the timer here.
 */
static u64 dl_next_period(struct sched_dl_entity *dl_se)
{
	return dl_se->deadline - dl_se->dl_deadline + dl_se->dl_period;
}

/*
 * start_dl_timer()'s instant, mainline: a deferred server armed for zero
 * laxity fires at deadline - runtime (6.12, "sched/deadline: Deferrable dl
 * server"); anything else at the next period (4.11).
 */
static u64 dl_timer_expiry(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_defer_armed)
		return dl_se->deadline - (u64)dl_se->runtime;
	return dl_next_period(dl_se);
}

/*
 * replenish_dl_new_period() (6.9, split out of setup_new_dl_entity() and
 * update_dl_entity(); the defer part 6.12): a new period from now, and a
 * deferred server that is not handling starvation waits for zero laxity.
 */
static void replenish_dl_new_period(struct sched_dl_entity *dl_se,
				    struct sched_dl_entity *pi_se, struct rq *rq)
{
	dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
	dl_se->runtime = (s64)pi_se->dl_runtime;

	if (dl_se->dl_defer && !dl_se->dl_defer_running) {
		dl_se->dl_throttled = 1;
		dl_se->dl_defer_armed = 1;
	}
}

/*
 * dl_entity_overflow(), mainline: the same test as v4's,
 *   runtime / (deadline - t) > dl_runtime / dl_deadline,
 * its four terms scaled down by DL_SCALE so the products fit 64 bits, and
 * compared wrap-safe.  A negative runtime shifts to a negative left side,
 * which dl_time_before() sees as earlier than any right side: no overflow.
 */
static bool dl_entity_overflow(struct sched_dl_entity *dl_se, struct sched_dl_entity *pi_se,
			       u64 t)
{
	u64 left, right;

	left = (pi_se->dl_deadline >> DL_SCALE) * (u64)(dl_se->runtime >> DL_SCALE);
	right = ((dl_se->deadline - t) >> DL_SCALE) * (pi_se->dl_runtime >> DL_SCALE);

	return dl_time_before(right, left);
}

/*
 * update_dl_revised_wakeup() (4.13): instead of a new deadline and full
 * runtime, the runtime becomes what the density allows until the current
 * deadline:
 *   runtime = (dl_runtime / dl_deadline) * (deadline - t).
 * dl_density is computed here as __setparam_dl() stores it,
 * to_ratio(dl_deadline, dl_runtime).
 */
static void update_dl_revised_wakeup(struct sched_dl_entity *dl_se, struct rq *rq)
{
	u64 laxity = dl_se->deadline - rq_clock(rq);
	u64 dl_density = to_ratio(dl_se->dl_deadline, dl_se->dl_runtime);

	/* the deadline in the past: dl_check_constrained_dl() throttled it */
	WARN_ON_S(rq->s, dl_time_before(dl_se->deadline, rq_clock(rq)));

	dl_se->runtime = (s64)((dl_density * laxity) >> BW_SHIFT);
}

/*
 * update_dl_entity(), mainline: the original CBS wake-up rule, but from
 * 4.13 a constrained task (not boosted) whose deadline is still ahead gets
 * the revised rule (before 4.13: a new deadline, as v4).  The overflow test
 * is mainline's, so the body differs from v4's in that call too.
 * Deviation: the dl_new branch of v4 stays (mainline calls
 * setup_new_dl_entity() from sched_setattr and switched_to instead; the
 * first wake-up of a new task is the same either way).
 */
static void update_dl_entity_mainline(struct sched_dl_entity *dl_se,
				      struct sched_dl_entity *pi_se)
{
	struct rq *rq = rq_of_dl_rq(dl_rq_of_se(dl_se));

	if (dl_se->dl_new) {
		setup_new_dl_entity(dl_se, pi_se);
		return;
	}

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) ||
	    dl_entity_overflow(dl_se, pi_se, rq_clock(rq))) {

		if (rq->s->model->version >= DL_KVER(4, 13) && !dl_is_implicit(dl_se) &&
		    !dl_time_before(dl_se->deadline, rq_clock(rq)) &&
		    !dl_se->dl_boosted) {
			update_dl_revised_wakeup(dl_se, rq);
			return;
		}

		replenish_dl_new_period(dl_se, pi_se, rq);
	} else if (dl_se->dl_server && dl_se->dl_defer) {
		/*
		 * 6.12: the server can still use its previous deadline, so
		 * check if it left the dl_defer_running state.
		 */
		if (!dl_se->dl_defer_running) {
			dl_se->dl_defer_armed = 1;
			dl_se->dl_throttled = 1;
		}
	}
}

/*
 * dl_check_constrained_dl() (4.11, "sched/deadline: Throttle a constrained
 * deadline task activated after the deadline"), with the condition
 * enqueue_task_dl() puts around its call (!dl_is_implicit()): woken after
 * the deadline but before the next period, a constrained task would get
 * runtime / deadline of the CPU; it is throttled until the next period
 * instead, unless boosted or the timer cannot start.  The throttle is
 * traced as update_curr_dl()'s is (the kernel has no tracepoint for either).
 */
static void dl_check_constrained_dl(struct sched_dl_entity *dl_se)
{
	struct task_struct *p = dl_task_of(dl_se);
	struct rq *rq = rq_of_dl_rq(dl_rq_of_se(dl_se));
	struct sched *s = rq->s;

	if (dl_is_implicit(dl_se) || dl_se->dl_new)
		return;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) &&
	    dl_time_before(rq_clock(rq), dl_next_period(dl_se))) {
		if (dl_se->dl_boosted || !start_dl_timer(dl_se, false))
			return;
		dl_se->dl_throttled = 1;
		if (dl_se->runtime > 0)
			dl_se->runtime = 0;
		if (s->ops.trace_throttle)
			s->ops.trace_throttle(s->ops.arg, p);
	}
}

/* ---- the fair server: a deferred dl_server (6.12) --------------------- */

/* dl_server_min_res: a defer timer is not pushed on for less than this. */
#define DL_SERVER_MIN_RES	(1 * NSEC_PER_MSEC)

static inline struct rq *rq_of_dl_se(struct sched_dl_entity *dl_se)
{
	return rq_of_dl_rq(dl_rq_of_se(dl_se));
}

/* hrtimer_try_to_cancel(&dl_se->dl_timer) */
static void cancel_dl_timer(struct sched_dl_entity *dl_se)
{
	struct sched *s = rq_of_dl_se(dl_se)->s;

	if (!dl_se->dl_timer.active)
		return;
	dl_se->dl_timer.active = false;
	if (s->ops.timer_cancel)
		s->ops.timer_cancel(s->ops.arg, dl_task_of(dl_se));
}

/* resched_curr() unless the running -deadline task keeps the CPU (dl_entity_preempt()). */
static void dl_server_resched(struct sched_dl_entity *dl_se, struct rq *rq)
{
	if (!dl_task(rq->curr) || dl_time_before(dl_se->deadline, rq->curr->dl.deadline))
		resched_rq(rq);
}

/*
 * replenish_dl_entity(), mainline, for the server (tasks keep sched_dl.c's):
 * a deferred server that reaches zero laxity with current u > U takes a new
 * period; the deadline moves on until runtime is positive; a replenishment
 * that was the zero-laxity one ends the deferral, any other re-arms it while
 * the server is not handling starvation (dl_defer_running).
 */
static void replenish_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (dl_se->dl_deadline == 0 ||
	    (dl_se->dl_defer_armed && dl_entity_overflow(dl_se, dl_se, rq_clock(rq)))) {
		dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
		dl_se->runtime = (s64)dl_se->dl_runtime;
	}

	if (dl_se->dl_yielded && dl_se->runtime > 0)
		dl_se->runtime = 0;

	while (dl_se->runtime <= 0) {
		dl_se->deadline += dl_se->dl_period;
		dl_se->runtime += (s64)dl_se->dl_runtime;
	}

	if (dl_time_before(dl_se->deadline, rq_clock(rq)))
		replenish_dl_new_period(dl_se, dl_se, rq);

	dl_se->dl_yielded = 0;
	dl_se->dl_throttled = 0;

	/* the replenishment of a deferred reservation: clear the flag, done */
	if (dl_se->dl_defer_armed) {
		dl_se->dl_defer_armed = 0;
		return;
	}

	/* not armed, not running already, zero laxity ahead: defer again */
	if (dl_se->dl_defer && !dl_se->dl_defer_running &&
	    dl_time_before(rq_clock(rq), dl_se->deadline - (u64)dl_se->runtime)) {
		dl_se->dl_defer_armed = 1;
		dl_se->dl_throttled = 1;
		if (!start_dl_timer(dl_se, false)) {
			cancel_dl_timer(dl_se);
			dl_se->dl_defer_armed = 0;
			dl_se->dl_throttled = 0;
		}
	}
}

/*
 * enqueue_dl_entity(), mainline, for the server: the wake-up rule or the
 * replenishment, then a reservation still throttled (deferred) waits for
 * its timer instead of being queued; if the timer cannot start, it is
 * queued now, unthrottled.
 */
static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	if (flags & ENQUEUE_WAKEUP)
		update_dl_entity_mainline(dl_se, dl_se);
	else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);

	if (dl_se->dl_throttled && start_dl_timer(dl_se, false))
		return;

	if (dl_se->dl_throttled) {
		cancel_dl_timer(dl_se);
		dl_se->dl_defer_armed = 0;
		dl_se->dl_throttled = 0;
	}

	__enqueue_dl_entity(dl_se);
}

/*
 * update_curr_dl_se(), mainline, for the server: charge @delta_exec of fair
 * time.  Consumed while still deferred (the fair class got the time in the
 * background), the server is not needed this period: a new one starts and
 * the zero-laxity timer moves with it.  Consumed while running, it is
 * throttled until its next period as any -deadline entity.
 */
static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (delta_exec <= 0) {
		if (dl_se->dl_yielded)
			goto throttle;
		return;
	}

	if (dl_se->dl_throttled && !dl_se->dl_defer)
		return;

	dl_se->runtime -= delta_exec;

	if (dl_se->dl_defer && dl_se->dl_throttled && dl_se->runtime <= 0) {
		dl_se->dl_defer_running = 0;
		cancel_dl_timer(dl_se);
		replenish_dl_new_period(dl_se, dl_se, rq);
		WARN_ON_S(rq->s, !start_dl_timer(dl_se, false));
		return;
	}

throttle:
	if (dl_se->runtime <= 0 || dl_se->dl_yielded) {
		dl_se->dl_throttled = 1;
		__dequeue_dl_entity(dl_se);
		if (!start_dl_timer(dl_se, false)) {
			replenish_dl_new_period(dl_se, dl_se, rq);
			start_dl_timer(dl_se, false);
		}
		if (rq->dl.rb_leftmost != &dl_se->rb_node)
			resched_rq(rq);
	}
}

/* dl_server_update(): 0 runtime = fair server disabled. */
static void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (dl_se->dl_runtime)
		update_curr_dl_se(rq_of_dl_se(dl_se), dl_se, delta_exec);
}

/*
 * dl_server_update_idle_time() (6.12, a110a81c52a9 "sched/deadline:
 * Deferrable dl server"; unchanged in substance to 6.18): in defer mode the time @p (the
 * idle task) held the CPU counts as time the fair class had, as if fair
 * tasks had run: there was no starvation to serve.  Unlike
 * update_curr_dl_se() it only lowers the runtime, floored at 0 (which ends
 * dl_defer_running), and never moves the period; nor does it ask whether
 * the server is active, so a stopped server's runtime goes down too (its
 * next start's wake-up rule sees it).  dl_scaled_delta_exec() is 1:1 here
 * (full capacity, no frequency scaling); rq_clock_task() is rq_clock().
 */
static void dl_server_update_idle_time(struct rq *rq, struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &rq->fair_server.dl;
	s64 delta_exec;

	if (!dl_se->dl_defer)
		return;

	/* no need to discount more */
	if (dl_se->runtime < 0)
		return;

	delta_exec = (s64)(rq_clock(rq) - p->se.exec_start);
	if (delta_exec < 0)
		return;

	dl_se->runtime -= delta_exec;

	if (dl_se->runtime < 0) {
		dl_se->dl_defer_running = 0;
		dl_se->runtime = 0;
	}

	p->se.exec_start = rq_clock(rq);
}

/* dl_server_start(): the first runnable fair task (enqueue_task_fair()). */
static void dl_server_start(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (!dl_se->dl_server || dl_se->dl_server_active)
		return;

	dl_se->dl_server_active = 1;
	/* GRUB: enqueue_dl_entity(ENQUEUE_WAKEUP) -> task_contending() */
	if (rq->s->model->grub)
		add_running_bw(dl_se, &rq->dl);
	enqueue_dl_entity(dl_se, ENQUEUE_WAKEUP);
	dl_server_resched(dl_se, rq);
}

/*
 * dl_server_stop(): no fair task left.  6.12-6.16: dequeue_task_fair(), as
 * the last one leaves; 6.17 (the lazy stop, dl_model.dl_server_lazy_stop):
 * only __pick_task_dl(), when the queued server finds nothing to pick.
 */
static void dl_server_stop(struct sched_dl_entity *dl_se)
{
	if (!dl_se->dl_server || !dl_se->dl_server_active)
		return;

	__dequeue_dl_entity(dl_se);
	/*
	 * GRUB: dequeue_dl_entity(DEQUEUE_SLEEP) -> task_non_contending().
	 * Deviation: the server's utilization leaves running_bw now, not at
	 * its 0-lag time (no inactive timer for the server).
	 */
	if (rq_of_dl_se(dl_se)->s->model->grub)
		sub_running_bw(dl_se, &rq_of_dl_se(dl_se)->dl);
	cancel_dl_timer(dl_se);
	dl_se->dl_defer_armed = 0;
	dl_se->dl_throttled = 0;
	dl_se->dl_server_active = 0;
}

/*
 * dl_server_timer(): at zero laxity a deferred server that could still
 * have consumed its runtime in the background pushes the timer on
 * (hrtimer_forward_now() to deadline - runtime); otherwise the fair class
 * is starving: the server runs as an ordinary reservation from now
 * (dl_defer_running) and is queued with a replenishment.  After a throttle
 * the timer is the replenishment of a running server.
 */
static void dl_server_timer(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (!dl_se->dl_throttled || !dl_se->dl_runtime)
		return;

	if (dl_se->dl_defer_armed) {
		if (dl_time_before(rq_clock(rq),
				   dl_se->deadline - (u64)dl_se->runtime - DL_SERVER_MIN_RES)) {
			start_dl_timer(dl_se, false);	/* armed: deadline - runtime */
			return;
		}
		dl_se->dl_defer_running = 1;
	}

	enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
	dl_server_resched(dl_se, rq);
}

/*
 * sched_init_dl_servers() with dl_server_apply_params(): 50 ms every 1 s,
 * deferred, a new period from now.  The bandwidth is counted by admission
 * through the model's fair_server_bw, not here.
 */
void sched_init_dl_server(struct rq *rq)
{
	struct task_struct *p = &rq->fair_server;
	struct sched_dl_entity *dl_se = &p->dl;
	const struct dl_model *m = rq->s->model;

	sched_task_init(rq->s, p, 0, "fair_server", rq->cpu);
	p->policy = SCHED_DEADLINE;
	p->prio = p->normal_prio = MAX_DL_PRIO - 1;
	p->sched_class = &dl_sched_class;
	p->state = TASK_RUNNING;
	p->on_rq = 1;
	dlb_cpumask_clear(&p->cpus_allowed);
	dlb_cpumask_set(&p->cpus_allowed, (unsigned int)rq->cpu);
	dl_se->nr_cpus_allowed = 1;

	dl_se->dl_runtime = m->fair_server_runtime;
	dl_se->dl_deadline = m->fair_server_period;
	dl_se->dl_period = m->fair_server_period;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, dl_se->dl_runtime);
	dl_se->runtime = 0;
	dl_se->deadline = 0;

	dl_se->dl_server = 1;
	dl_se->dl_defer = 1;
	/* dl_server_apply_params(): __add_rq_bw(), GRUB's this_bw */
	if (m->grub)
		add_rq_bw(dl_se, &rq->dl);
	replenish_dl_new_period(dl_se, dl_se, rq);	/* setup_new_dl_entity() */
}


/* ---- GRUB bandwidth reclaiming (4.13) ---------------------------------- */

/*
 * Luca Abeni's series in 4.13 ("sched/deadline: Improve the tracking of
 * active utilization", "Implement GRUB accounting", "Do not reclaim the
 * whole CPU bandwidth", "Make GRUB more robust and fair", "Reclaim
 * bandwidth not used by dl tasks"): a task's utilization counts in its
 * rq's running_bw from its wake-up until its 0-lag time after it blocks
 * (task_contending(), task_non_contending(), inactive_task_timer()); a
 * SCHED_FLAG_RECLAIM task's runtime is then charged at the rate
 * grub_reclaim() computes instead of 1.  Called from sched_dl.c and
 * sched_core.c where mainline calls them, only when model->grub.
 */

/* RATIO_SHIFT (kernel/sched/sched.h): bw_ratio's fixed point. */
#define RATIO_SHIFT		8

/* __add_running_bw() */
void add_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	struct sched *s = rq_of_dl_rq(dl_rq)->s;
	u64 old = dl_rq->running_bw;

	dl_rq->running_bw += dl_se->dl_bw;
	WARN_ON_S(s, dl_rq->running_bw < old);	/* overflow */
	WARN_ON_S(s, dl_rq->running_bw > dl_rq->this_bw);
}

/* __sub_running_bw() */
void sub_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	struct sched *s = rq_of_dl_rq(dl_rq)->s;
	u64 old = dl_rq->running_bw;

	dl_rq->running_bw -= dl_se->dl_bw;
	if (WARN_ON_S(s, dl_rq->running_bw > old))	/* underflow */
		dl_rq->running_bw = 0;
}

/* __add_rq_bw() */
void add_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	u64 old = dl_rq->this_bw;

	dl_rq->this_bw += dl_se->dl_bw;
	WARN_ON_S(rq_of_dl_rq(dl_rq)->s, dl_rq->this_bw < old);	/* overflow */
}

/* __sub_rq_bw() */
void sub_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	struct sched *s = rq_of_dl_rq(dl_rq)->s;
	u64 old = dl_rq->this_bw;

	dl_rq->this_bw -= dl_se->dl_bw;
	if (WARN_ON_S(s, dl_rq->this_bw > old))	/* underflow */
		dl_rq->this_bw = 0;
	WARN_ON_S(s, dl_rq->running_bw > dl_rq->this_bw);
}

/* hrtimer_try_to_cancel(&dl_se->inactive_timer) */
void cancel_inactive_timer(struct sched_dl_entity *dl_se)
{
	struct sched *s = rq_of_dl_se(dl_se)->s;

	if (!dl_se->inactive_timer.active)
		return;
	dl_se->inactive_timer.active = false;
	if (s->ops.inactive_timer_cancel)
		s->ops.inactive_timer_cancel(s->ops.arg, dl_task_of(dl_se));
}

/*
 * task_non_contending(): @p blocks (DEQUEUE_SLEEP, also when it dies).
 * Its 0-lag time is deadline - runtime * dl_period / dl_runtime: past it,
 * running_bw drops now (and this_bw too for a dead task); before it, @p
 * stays "active non contending" and the inactive timer drops it then.
 * Deviation: admission gives a dead task's bandwidth back at its exit
 * (sched_exit_curr()), not at its 0-lag time (__dl_sub() here and in
 * inactive_task_timer()).
 */
void task_non_contending(struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);
	struct rq *rq = rq_of_dl_rq(dl_rq);
	struct sched *s = rq->s;
	s64 zerolag_time;

	/* a non -deadline task that has been boosted: nothing */
	if (dl_se->dl_runtime == 0)
		return;

	WARN_ON_S(s, dl_se->dl_non_contending);

	zerolag_time = (s64)dl_se->deadline -
		       dl_se->runtime * (s64)dl_se->dl_period / (s64)dl_se->dl_runtime;

	/* relative to now, as mainline's */
	zerolag_time -= (s64)rq_clock(rq);

	/* the 0-lag time already passed: decrease the active utilization now */
	if (zerolag_time < 0 || dl_se->inactive_timer.active) {
		if (dl_task(p))
			sub_running_bw(dl_se, dl_rq);
		if (p->state == TASK_DEAD)
			sub_rq_bw(dl_se, dl_rq);
		return;
	}

	dl_se->dl_non_contending = 1;
	dl_se->inactive_timer.active = true;
	dl_se->inactive_timer.expires = rq_clock(rq) + (u64)zerolag_time;
	if (s->ops.inactive_timer_start)
		s->ops.inactive_timer_start(s->ops.arg, p, dl_se->inactive_timer.expires);
}

/*
 * task_contending(): a wake-up (ENQUEUE_WAKEUP).  Still non contending:
 * the timer is cancelled, running_bw already has it; else it is added.
 * ENQUEUE_MIGRATED (woken on another CPU): this_bw moves with it
 * (migrate_task_rq_dl() took it off the old rq).
 */
void task_contending(struct sched_dl_entity *dl_se, int flags)
{
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);

	/* a non -deadline task that has been boosted: nothing */
	if (dl_se->dl_runtime == 0)
		return;

	if (flags & ENQUEUE_MIGRATED)
		add_rq_bw(dl_se, dl_rq);

	if (dl_se->dl_non_contending) {
		dl_se->dl_non_contending = 0;
		cancel_inactive_timer(dl_se);
	} else {
		add_running_bw(dl_se, dl_rq);
	}
}

/*
 * migrate_task_rq_dl(): try_to_wake_up() places @p on another CPU; its
 * utilization leaves the old rq (running_bw if still non contending,
 * this_bw always).
 */
void migrate_task_rq_dl(struct task_struct *p, int new_cpu)
{
	struct rq *rq = task_rq(p);

	(void)new_cpu;
	if (p->dl.dl_non_contending) {
		sub_running_bw(&p->dl, &rq->dl);
		p->dl.dl_non_contending = 0;
		cancel_inactive_timer(&p->dl);
	}
	sub_rq_bw(&p->dl, &rq->dl);
}

/*
 * inactive_task_timer(): the 0-lag time of a non-contending task came:
 * its utilization leaves running_bw (and this_bw, for a dead task).
 */
void inactive_task_timer(struct sched *s, struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;
	struct rq *rq = task_rq(p);

	(void)s;
	dl_se->inactive_timer.active = false;
	if (!dl_task(p) || p->state == TASK_DEAD) {
		if (p->state == TASK_DEAD && dl_se->dl_non_contending) {
			sub_running_bw(dl_se, &rq->dl);
			sub_rq_bw(dl_se, &rq->dl);
			dl_se->dl_non_contending = 0;
		}
		/* __dl_clear_params(): admission gave it back at the exit */
		if (p->state == TASK_DEAD)
			dl_se->dl_bw = 0;
		return;
	}
	if (dl_se->dl_non_contending == 0)
		return;

	sub_running_bw(dl_se, &rq->dl);
	dl_se->dl_non_contending = 0;
}

/*
 * grub_reclaim(): the runtime a reclaiming task is charged for @delta of
 * execution, dq = -max{u, (Umax - Uinact - Uextra)} / Umax dt (6.5, 6a9d623aad89
 * "Fix bandwidth reclaim equation in GRUB"); before 6.5 (4.13's text)
 * dq = -max{u / Umax, (1 - Uinact - Uextra)} dt.  Uinact = this_bw -
 * running_bw, Uextra = extra_bw; compared, not subtracted, so that no
 * difference goes negative.
 */
u64 grub_reclaim(u64 delta, struct rq *rq, struct sched_dl_entity *dl_se)
{
	u64 u_inact = rq->dl.this_bw - rq->dl.running_bw;	/* Utot - Uact */
	u64 u_act;

	if (rq->s->model->grub_max_bw) {
		if (u_inact + rq->dl.extra_bw > rq->dl.max_bw - dl_se->dl_bw)
			u_act = dl_se->dl_bw;
		else
			u_act = rq->dl.max_bw - u_inact - rq->dl.extra_bw;

		u_act = (u_act * rq->dl.bw_ratio) >> RATIO_SHIFT;
	} else {
		u64 u_act_min = (dl_se->dl_bw * rq->dl.bw_ratio) >> RATIO_SHIFT;

		if (u_inact + rq->dl.extra_bw > BW_UNIT - u_act_min)
			u_act = u_act_min;
		else
			u_act = BW_UNIT - u_inact - rq->dl.extra_bw;
	}

	return (delta * u_act) >> BW_SHIFT;
}

/*
 * Not mainline's: the simulator's budget event (the hrtick) needs the
 * execution time after which grub_reclaim() has charged @runtime, the
 * smallest d with (d * u_act) >> BW_SHIFT >= runtime.
 */
u64 grub_wall_time(u64 runtime, struct rq *rq, struct sched_dl_entity *dl_se)
{
	u64 u_act = grub_reclaim(BW_UNIT, rq, dl_se);

	if (!u_act)
		return runtime << 8;
	return ((runtime << BW_SHIFT) + u_act - 1) / u_act;
}

/*
 * init_dl_rq_bw_ratio(): bw_ratio = 1 / Umax (RATIO_SHIFT), max_bw =
 * extra_bw = Umax = sched_rt_runtime / sched_rt_period; the fair servers'
 * bandwidth (6.12, dl_server_apply_params() -> __dl_add(), once per CPU,
 * bw / cpus each time) then leaves extra_bw, as admitted tasks do.
 */
void init_dl_rq_bw_ratio(struct sched *s, struct dl_rq *dl_rq, u64 rt_runtime_us,
			 u64 rt_period_us)
{
	(void)s;
	dl_rq->bw_ratio = to_ratio(rt_runtime_us, rt_period_us) >> (BW_SHIFT - RATIO_SHIFT);
	dl_rq->max_bw = dl_rq->extra_bw = to_ratio(rt_period_us, rt_runtime_us);
}

/* __dl_update(): @bw added to the extra_bw of every rq of the root domain. */
void dl_extra_bw_update(struct sched *s, s64 bw)
{
	int i;

	if (!s->model->grub)
		return;
	for (i = 0; i < s->nr_cpus; i++)
		s->rqs[i].dl.extra_bw += (u64)bw;
}

void dl_model_mainline(unsigned int version, struct dl_model *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "mainline:%u.%u", version / 1000, version % 1000);
	m->version = version;
	m->update_dl_entity = update_dl_entity_mainline;
	m->check_constrained_dl = version >= DL_KVER(4, 11) ? dl_check_constrained_dl : NULL;
	m->timer_expiry = version >= DL_KVER(4, 11) ? dl_timer_expiry : dl_model_v4.timer_expiry;
	m->fair_server_bw = version >= DL_KVER(6, 12) ? DL_FAIR_SERVER_BW : 0;
	m->grub = version >= DL_KVER(4, 13);
	m->replenish_sleeper = version >= DL_KVER(4, 2);
	m->grub_max_bw = version >= DL_KVER(6, 5);
	m->pi_boost_dl_waiter = version >= DL_KVER(5, 8);
	m->pi_se = version >= DL_KVER(5, 10);
	if (version >= DL_KVER(6, 12)) {
		m->dl_server_start = dl_server_start;
		m->dl_server_stop = dl_server_stop;
		m->dl_server_update = dl_server_update;
		m->dl_server_timer = dl_server_timer;
		m->dl_server_update_idle_time = dl_server_update_idle_time;
		m->fair_server_runtime = 50 * NSEC_PER_MSEC;
		m->fair_server_period = 1000 * NSEC_PER_MSEC;
	}
	m->dl_server_lazy_stop = version >= DL_KVER(6, 17);
}

/* "v4", "mainline", "mainline:MAJ.MIN" (3.14, the first with SCHED_DEADLINE, or later). */
int dl_model_parse(const char *s, struct dl_model *m)
{
	unsigned int maj, min;
	char end;

	if (!strcmp(s, "v4")) {
		*m = dl_model_v4;
		return 0;
	}
	if (!strcmp(s, "mainline")) {
		dl_model_mainline(DL_KVER_NEWEST, m);
		return 0;
	}
	if (strncmp(s, "mainline:", 9) || sscanf(s + 9, "%u.%u%c", &maj, &min, &end) != 2 ||
	    maj > 99 || min > 999 || DL_KVER(maj, min) < DL_KVER(3, 14) ||
	    DL_KVER(maj, min) > DL_KVER_NEWEST)
		return -1;
	dl_model_mainline(DL_KVER(maj, min), m);
	return 0;
}
