// SPDX-License-Identifier: GPL-2.0
/*
 * Deadline Scheduling Class (SCHED_DEADLINE), the reference.
 *
 * Earliest Deadline First (EDF) + Constant Bandwidth Server (CBS), global
 * EDF across CPUs by push and pull.  This is kernel/sched_dl.c of the
 * SCHED_DEADLINE v4 patchset (April 2012) in user space, function by
 * function and name by name.  Where each function comes from:
 *
 *   [004] seed patch 004 (06/16, push and pull logic): shown in full;
 *   [005] seed patch 005 (09/16, schedstats);
 *   [006] seed patch 006 (13/16, drafted deadline inheritance);
 *   [007] seed patch 007 (15/16, cpudl push-heap);
 *   [core] the CBS core of patch 04/16 ("SCHED_DEADLINE policy
 *          implementation"), which is not among the seeds: rebuilt from the
 *          context lines 004-007 show of it and from mainline 3.14
 *          kernel/sched/deadline.c, its direct descendant.
 *
 * Differences from the seed are marked "Seed bug fixed" or "Deviation"
 * and listed in docs/reference.md.  There are no locks: one operation runs
 * at a time, so the seed's racy unlocked reads are exact here.
 */
#include <errno.h>
#include <string.h>

#include "dlbench/exitcode.h"

#include "sched.h"

/* [004] Tells if entity @a should preempt entity @b. */
static inline int dl_entity_preempt(const struct sched_dl_entity *a,
				    const struct sched_dl_entity *b)
{
	return dl_time_before(a->deadline, b->deadline);
}

static inline int on_dl_rq(struct sched_dl_entity *dl_se)
{
	return !RB_EMPTY_NODE(&dl_se->rb_node);
}

static inline int is_leftmost(struct task_struct *p, struct dl_rq *dl_rq)
{
	return dl_rq->rb_leftmost == &p->dl.rb_node;
}

/* ---- overload mask and pushable tree [004] ---------------------------- */

static inline int dl_overloaded(struct rq *rq)
{
	return rq->rd->dlo_count;
}

static inline void dl_set_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	dlb_cpumask_set(&rq->rd->dlo_mask, (unsigned int)rq->cpu);
	rq->rd->dlo_count++;
}

static inline void dl_clear_overload(struct rq *rq)
{
	if (!rq->online)
		return;
	rq->rd->dlo_count--;
	dlb_cpumask_clr(&rq->rd->dlo_mask, (unsigned int)rq->cpu);
}

/* A rq is overloaded when it holds more than one -deadline task, one of them migratable. */
static void update_dl_migration(struct dl_rq *dl_rq)
{
	if (dl_rq->dl_nr_migratory && dl_rq->dl_nr_total > 1) {
		if (!dl_rq->overloaded) {
			dl_set_overload(rq_of_dl_rq(dl_rq));
			dl_rq->overloaded = 1;
		}
	} else if (dl_rq->overloaded) {
		dl_clear_overload(rq_of_dl_rq(dl_rq));
		dl_rq->overloaded = 0;
	}
}

static void inc_dl_migration(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	dl_rq->dl_nr_total++;
	if (dl_se->nr_cpus_allowed > 1)
		dl_rq->dl_nr_migratory++;
	update_dl_migration(dl_rq);
}

static void dec_dl_migration(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	dl_rq->dl_nr_total--;
	if (dl_se->nr_cpus_allowed > 1)
		dl_rq->dl_nr_migratory--;
	update_dl_migration(dl_rq);
}

/*
 * The list of pushable -deadline task is not a plist, like in
 * sched_rt.c, it is an rb-tree with tasks ordered by deadline.
 */
static void enqueue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct rb_node **link = &dl_rq->pushable_dl_tasks_root.rb_node;
	struct rb_node *parent = NULL;
	struct task_struct *entry;
	int leftmost = 1;

	if (WARN_ON_S(rq->s, !RB_EMPTY_NODE(&p->pushable_dl_tasks)))
		return;

	while (*link) {
		parent = *link;
		entry = rb_entry(parent, struct task_struct, pushable_dl_tasks);
		if (!dl_entity_preempt(&entry->dl, &p->dl)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = 0;
		}
	}

	if (leftmost)
		dl_rq->pushable_dl_tasks_leftmost = &p->pushable_dl_tasks;

	rb_link_node(&p->pushable_dl_tasks, parent, link);
	rb_insert_color(&p->pushable_dl_tasks, &dl_rq->pushable_dl_tasks_root);
}

static void dequeue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (RB_EMPTY_NODE(&p->pushable_dl_tasks))
		return;

	if (dl_rq->pushable_dl_tasks_leftmost == &p->pushable_dl_tasks)
		dl_rq->pushable_dl_tasks_leftmost = rb_next(&p->pushable_dl_tasks);

	rb_erase(&p->pushable_dl_tasks, &dl_rq->pushable_dl_tasks_root);
	RB_CLEAR_NODE(&p->pushable_dl_tasks);
}

static inline int has_pushable_dl_tasks(struct rq *rq)
{
	return !RB_EMPTY_ROOT(&rq->dl.pushable_dl_tasks_root);
}

static int push_dl_task(struct rq *rq);
static void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags);
static void __dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags);
static void check_preempt_curr_dl(struct rq *rq, struct task_struct *p, int flags);

/* ---- CBS [core] --------------------------------------------------------- */

/*
 * We are being explicitly informed that a new instance is starting,
 * and this means that:
 *  - the absolute deadline of the entity has to be placed at
 *    current time + relative deadline;
 *  - the runtime of the entity has to be set to the maximum value.
 *
 * [core, 006] With inheritance, @pi_se supplies the parameters.
 */
void setup_new_dl_entity(struct sched_dl_entity *dl_se, struct sched_dl_entity *pi_se)
{
	struct rq *rq = rq_of_dl_rq(dl_rq_of_se(dl_se));

	WARN_ON_S(rq->s, !dl_se->dl_new || dl_se->dl_throttled);

	dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
	dl_se->runtime = pi_se->dl_runtime;
	dl_se->dl_new = 0;
}

/*
 * Pure Earliest Deadline First (EDF) scheduling does not deal with the
 * possibility of a entity lasting more than what it declared, and thus
 * exhausting its runtime.
 *
 * Here we are interested in making runtime overrun possible, but we do
 * not want a entity which is misbehaving to affect the scheduling of all
 * other entities.  Therefore, a budgeting strategy called Constant
 * Bandwidth Server (CBS) is used: when the runtime is exhausted the
 * deadline is postponed by one period and the runtime refilled, as many
 * times as needed for the runtime to be positive again.  This keeps the
 * entity's bandwidth at dl_runtime/dl_period in every interval
 * (Abeni & Buttazzo, RTSS 1998).
 *
 * [core, 006] Parameters from @pi_se (the top waiter when boosted).
 */
static void replenish_dl_entity(struct sched_dl_entity *dl_se,
				struct sched_dl_entity *pi_se)
{
	struct rq *rq = rq_of_dl_rq(dl_rq_of_se(dl_se));

	if (WARN_ON_S(rq->s, pi_se->dl_runtime == 0))
		return;		/* the seed's BUG_ON: cannot replenish from nothing */

	/*
	 * [006] This could be the case for a !-dl task that is boosted.
	 * Just go with full inherited parameters.
	 */
	if (dl_se->dl_deadline == 0) {
		dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
		dl_se->runtime = pi_se->dl_runtime;
	}

	/*
	 * We keep moving the deadline away until we get some
	 * available runtime for the entity.  This ensures correct
	 * handling of situations where the runtime overrun is
	 * arbitrary large.
	 */
	while (dl_se->runtime <= 0) {
		dl_se->deadline += pi_se->dl_period;
		dl_se->runtime += (s64)pi_se->dl_runtime;
	}

	/*
	 * At this point, the deadline really should be "in
	 * the future" with respect to rq->clock.  If it's
	 * not, we are, for some reason, lagging too much!
	 * Anyway, after having warn userspace abut that,
	 * we still try to keep the things running by
	 * resetting the deadline and the budget of the
	 * entity.
	 */
	if (dl_time_before(dl_se->deadline, rq_clock(rq))) {
		/* WARN_ON_ONCE in the seed: counted, not fatal (the lag is legal here) */
		dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
		dl_se->runtime = (s64)pi_se->dl_runtime;
	}

	if (rq->s->ops.trace_replenish)
		rq->s->ops.trace_replenish(rq->s->ops.arg, dl_task_of(dl_se));
}

/*
 * Here we check if --at time t-- an entity (which is probably being
 * [re]activated or, in general, enqueued) can use its remaining runtime
 * and its current deadline _without_ exceeding the bandwidth it is
 * assigned (function returns true if it can't).  We are in fact applying
 * one of the CBS rules: when a task wakes up, if the residual runtime
 * over residual deadline fits within the allocated bandwidth, then we
 * can keep the current (absolute) deadline and residual budget without
 * disrupting the schedulability of the system.  Otherwise, we should
 * refill the runtime and set the deadline a period in the future,
 * because keeping the current (absolute) deadline of the task would
 * result in breaking guarantees promised to other tasks:
 *
 *   runtime / (deadline - t) > dl_runtime / dl_deadline ,
 *
 * [006] uses dl_deadline (the pi_se's) on the right: for a task with
 * deadline equal to period this is the same of using dl_period.
 *
 * Deviation: the seed multiplies in u64 and compares the products with the
 * wrap-safe dl_time_before(), which gives the wrong answer once a product
 * passes 2^63 (runtime and deadline both near the 4 s period limit).  We
 * compare exact 128-bit products (mul_s64_u64): identical whenever the seed's
 * are exact (test_structs.c: overflow_products).  The compare is signed, as
 * the seed's dl_time_before() of the two products and mainline's: a
 * negative remaining runtime (an overrun not yet accounted when the task
 * blocked) makes the left side negative, which is no overflow, so the task
 * keeps its deadline and pays the overrun (issue 13, defect 3; an unsigned
 * compare read it as 2^64 - overrun: test_structs.c: overflow_negative_runtime).
 */
struct s128 {
	s64 hi;
	u64 lo;
};

/* |a| * b exactly, from 32-bit halves (no __int128 on 32-bit ARM), then a's sign. */
static struct s128 mul_s64_u64(s64 a, u64 b)
{
	u64 m = a < 0 ? -(u64)a : (u64)a;
	u64 al = (u32)m, ah = m >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;
	u64 lo = (mid << 32) | (u32)ll;
	u64 hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	struct s128 r;

	if (a < 0) {		/* two's complement of the 128-bit magnitude */
		hi = ~hi + (lo == 0);
		lo = -lo;
	}
	r.hi = (s64)hi;
	r.lo = lo;
	return r;
}

static bool dl_entity_overflow(struct sched_dl_entity *dl_se,
			       struct sched_dl_entity *pi_se, u64 t)
{
	struct s128 left, right;

	left = mul_s64_u64(dl_se->runtime, pi_se->dl_deadline);
	right = mul_s64_u64((s64)(dl_se->deadline - t), pi_se->dl_runtime);

	return right.hi < left.hi || (right.hi == left.hi && right.lo < left.lo);
}

/*
 * When a -deadline entity is queued back on the runqueue, its runtime and
 * deadline might need updating.
 *
 * The policy here is that we update the deadline of the entity only if:
 *  - the current deadline is in the past,
 *  - using the remaining runtime with the current deadline would make
 *    the entity exceed its bandwidth.
 */
static void update_dl_entity(struct sched_dl_entity *dl_se,
			     struct sched_dl_entity *pi_se)
{
	struct rq *rq = rq_of_dl_rq(dl_rq_of_se(dl_se));

	/*
	 * The arrival of a new instance needs special treatment, i.e.,
	 * the actual scheduling parameters have to be "renewed".
	 */
	if (dl_se->dl_new) {
		setup_new_dl_entity(dl_se, pi_se);
		return;
	}

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) ||
	    dl_entity_overflow(dl_se, pi_se, rq_clock(rq))) {
		dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
		dl_se->runtime = (s64)pi_se->dl_runtime;
	}
}

/*
 * If the entity depleted all its runtime, and if we want it to sleep
 * while waiting for some new execution time to become available, we
 * set the bandwidth enforcement timer to the replenishment instant
 * and try to activate it.
 *
 * Notice that it is important for the caller to know if the timer
 * actually started or not (i.e., the replenishment instant is in
 * the future or in the past).
 *
 * [006] A boosted entity is never throttled: no timer, replenish now.
 * Deviation: the kernel compares at µs granularity (ktime_us_delta); we
 * compare ns: a deadline equal to now arms a timer that fires at once.
 */
int start_dl_timer(struct sched_dl_entity *dl_se, bool boosted)
{
	struct task_struct *p = dl_task_of(dl_se);
	struct sched *s = sched_of(p);

	u64 act = s->model->timer_expiry(dl_se);

	if (boosted)
		return 0;
	if ((s64)(act - s->now) < 0)
		return 0;

	dl_se->dl_timer.active = true;
	dl_se->dl_timer.expires = act;
	if (s->ops.timer_start)
		s->ops.timer_start(s->ops.arg, p, act);
	return 1;
}

/* [core] The replenishment instant: the deadline (mainline: dl_timer_expiry_next_period). */
static u64 dl_timer_expiry_deadline(struct sched_dl_entity *dl_se)
{
	return dl_se->deadline;
}

/*
 * This is the bandwidth enforcement timer callback.  If here, we know
 * a task is not on its dl_rq, since the fact that the timer was running
 * means the task is throttled and needs a runtime replenishment.
 *
 * However, what we actually do depends on the fact the task is active,
 * (it is on its rq) or has been removed from there by a call to
 * dequeue_task_dl().  In the former case we must issue the runtime
 * replenishment and add the task back to the dl_rq; in the latter, we just
 * do nothing but clearing dl_throttled, so that runtime and deadline
 * updating (and the queueing back to dl_rq) will be done by the
 * next call to enqueue_task_dl().
 *
 * Seed bug fixed (draft 006): a boost (rt_mutex_setprio) clears
 * dl_throttled and enqueues the task while this timer is still armed; the
 * seed's callback would then enqueue it a second time (BUG_ON(on_dl_rq)).
 * As mainline later did, a timer finding the task no longer throttled, or
 * no longer -deadline, does nothing (test_sched.c: boost_while_throttled).
 */
void dl_task_timer(struct sched *s, struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &p->dl;
	struct rq *rq = task_rq(p);

	dl_se->dl_timer.active = false;
	/* [mainline 6.12] a dl_server's timer is dl_server_timer()'s */
	if (dl_se->dl_server) {
		s->model->dl_server_timer(dl_se);
		return;
	}
	if (!dl_task(p) || !dl_se->dl_throttled)
		return;

	dl_se->dl_throttled = 0;
	if (p->on_rq) {
		enqueue_task_dl(rq, p, ENQUEUE_REPLENISH);
		if (dl_task(rq->curr))
			check_preempt_curr_dl(rq, p, 0);
		else
			resched_task(rq->curr);
		/*
		 * [004] Queueing this task back might have overloaded rq,
		 * check if we need to kick someone away.
		 */
		if (rq->dl.overloaded)
			push_dl_task(rq);
	} else if (s->model->replenish_sleeper && !dl_se->dl_new) {
		/*
		 * [mainline 4.2, model hook] Throttled during sched-out, so
		 * both throttled and !queued: replenish the counter but do
		 * not enqueue; the wake-up does that.
		 */
		replenish_dl_entity(dl_se, dl_se);
	}
}

/*
 * [core + 005] Runtime exhausted (rorun) or deadline passed while running
 * (dmiss): the caller throttles.  The seed's schedstats record the last
 * and the largest deadline miss (how late, ns) and runtime overrun (how
 * much runtime went below zero, ns).
 */
static int dl_runtime_exceeded(struct rq *rq, struct sched_dl_entity *dl_se)
{
	int dmiss = dl_time_before(dl_se->deadline, rq_clock(rq));
	int rorun = dl_se->runtime <= 0;

	if (!rorun && !dmiss)
		return 0;

	/*
	 * Record statistics about last and maximum deadline
	 * misses and runtime overruns.
	 */
	if (dmiss) {
		u64 damount = rq_clock(rq) - dl_se->deadline;

		dl_se->stats.last_dmiss = damount;
		if (damount > dl_se->stats.dmiss_max)
			dl_se->stats.dmiss_max = damount;
	}
	if (rorun) {
		u64 ramount = (u64)-dl_se->runtime;

		dl_se->stats.last_rorun = ramount;
		if (ramount > dl_se->stats.rorun_max)
			dl_se->stats.rorun_max = ramount;
	}

	/*
	 * If we are beyond our current deadline and we are still
	 * executing, then we have already used some of the runtime of
	 * the next instance.  Thus, if we do not account that, we are
	 * stealing bandwidth from the system at each deadline miss!
	 */
	if (dmiss) {
		dl_se->runtime = rorun ? dl_se->runtime : 0;
		dl_se->runtime -= (s64)(rq_clock(rq) - dl_se->deadline);
	}

	return 1;
}

/*
 * [core, 005, 006] Update the current task's runtime statistics (provided
 * it is still a -deadline task and has not been removed from the dl_rq),
 * charge the executed time to its budget and throttle it when exhausted.
 */
static void update_curr_dl(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_dl_entity *dl_se = &curr->dl;
	struct sched *s = rq->s;
	u64 delta_exec;

	if (!dl_task(curr) || !on_dl_rq(dl_se))
		return;

	delta_exec = rq_clock_task(rq) - curr->se.exec_start;
	if ((s64)delta_exec < 0)
		delta_exec = 0;

	if (delta_exec > curr->se.exec_max)
		curr->se.exec_max = delta_exec;
	curr->se.sum_exec_runtime += delta_exec;
	rq->dl.exec_clock += delta_exec;		/* [005] */
	curr->se.exec_start = rq_clock_task(rq);
	if (delta_exec && s->ops.trace_runtime)
		s->ops.trace_runtime(s->ops.arg, curr, delta_exec);

	/*
	 * [mainline 4.13, GRUB] A SCHED_FLAG_RECLAIM task is charged what
	 * grub_reclaim() says of delta_exec.
	 */
	if (s->model->grub && (dl_se->flags & DL_FLAG_RECLAIM))
		dl_se->runtime -= (s64)grub_reclaim(delta_exec, rq, dl_se);
	else
		dl_se->runtime -= (s64)delta_exec;
	if (dl_runtime_exceeded(rq, dl_se)) {
		__dequeue_task_dl(rq, curr, 0);
		if (start_dl_timer(dl_se, curr->dl.dl_boosted)) {
			dl_se->dl_throttled = 1;
			if (s->ops.trace_throttle)
				s->ops.trace_throttle(s->ops.arg, curr);
		} else {
			enqueue_task_dl(rq, curr, ENQUEUE_REPLENISH);
		}

		if (!is_leftmost(curr, &rq->dl))
			resched_task(curr);
	}
}

/* ---- earliest_dl caches [004, 007] ------------------------------------- */

static struct task_struct *pick_next_earliest_dl_task(struct rq *rq, int cpu);

/*
 * Seed bug fixed: the seed declares next_deadline() "static inline int"
 * and so truncates the u64 deadline to 32 bits (wrong after 2.1 s of
 * uptime).  It returns u64 here (test_sched.c: next_deadline_u64).
 */
static inline u64 next_deadline(struct rq *rq)
{
	struct task_struct *next = pick_next_earliest_dl_task(rq, rq->cpu);

	if (next && dl_prio(next->prio))
		return next->dl.deadline;
	return 0;
}

/* Hand the call's arguments to an observer (the OSPERT bench drives cpupri with them). */
static void push_observe(struct sched *s, enum dlb_op op, int cpu, bool valid, u64 dl,
			 const struct dlb_cpumask *allowed)
{
	struct dlb_push_call call = {
		.op = op, .now = s->now, .cpu = cpu, .valid = valid, .dl = dl, .allowed = allowed,
	};

	if (s->opstat.push_hook)
		s->opstat.push_hook(&call, s->opstat.push_arg);
}

static void dl_cpudl_set(struct rq *rq, u64 dl, int is_valid)
{
	struct sched *s = rq->s;
	u64 t0;

	/* [007] only the heap needs maintaining; the linear scan reads the rqs */
	if (s->cpu_select != CPU_SELECT_HEAP)
		return;
	t0 = s->opstat.timed ? dlb_opstat_now() : 0;
	cpudl_set(&rq->rd->cpudl, rq->cpu, dl, is_valid);
	dlb_opstat_add(&s->opstat, DLB_OP_SET, s->opstat.timed ? dlb_opstat_now() - t0 : 0, true);
	push_observe(s, DLB_OP_SET, rq->cpu, is_valid, dl, NULL);
}

static void inc_dl_deadline(struct dl_rq *dl_rq, u64 deadline)
{
	struct rq *rq = rq_of_dl_rq(dl_rq);

	if (dl_rq->earliest_dl.curr == 0 ||
	    dl_time_before(deadline, dl_rq->earliest_dl.curr)) {
		/*
		 * If the dl_rq had no -deadline tasks, or if the new task
		 * has shorter deadline than the current one on dl_rq, we
		 * know that the previous earliest becomes our next earliest,
		 * as the new task becomes the earliest itself.
		 */
		dl_rq->earliest_dl.next = dl_rq->earliest_dl.curr;
		dl_rq->earliest_dl.curr = deadline;
		dl_cpudl_set(rq, deadline, 1);
	} else if (dl_rq->earliest_dl.next == 0 ||
		   dl_time_before(deadline, dl_rq->earliest_dl.next)) {
		/*
		 * On the other hand, if the new -deadline task has a
		 * a later deadline than the earliest one on dl_rq, but
		 * it is earlier than the next (if any), we must
		 * recompute the next-earliest.
		 */
		dl_rq->earliest_dl.next = next_deadline(rq);
	}
}

static void dec_dl_deadline(struct dl_rq *dl_rq, u64 deadline)
{
	struct rq *rq = rq_of_dl_rq(dl_rq);

	(void)deadline;
	/*
	 * Since we may have removed our earliest (and/or next earliest)
	 * task we must recompute them.
	 */
	if (!dl_rq->dl_nr_running) {
		dl_rq->earliest_dl.curr = 0;
		dl_rq->earliest_dl.next = 0;
		dl_cpudl_set(rq, 0, 0);
	} else {
		struct sched_dl_entity *entry;

		entry = rb_entry(dl_rq->rb_leftmost, struct sched_dl_entity, rb_node);
		dl_rq->earliest_dl.curr = entry->deadline;
		dl_rq->earliest_dl.next = next_deadline(rq);
		dl_cpudl_set(rq, entry->deadline, 1);
	}
}

static inline void inc_dl_tasks(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	WARN_ON_S(rq_of_dl_rq(dl_rq)->s, !dl_prio(dl_task_of(dl_se)->prio));
	dl_rq->dl_nr_running++;

	inc_dl_deadline(dl_rq, dl_se->deadline);
	inc_dl_migration(dl_se, dl_rq);
}

static inline void dec_dl_tasks(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq)
{
	WARN_ON_S(rq_of_dl_rq(dl_rq)->s, !dl_rq->dl_nr_running);
	dl_rq->dl_nr_running--;

	dec_dl_deadline(dl_rq, dl_se->deadline);
	dec_dl_migration(dl_se, dl_rq);
}

/* ---- the EDF run queue [core] ----------------------------------------- */

void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);
	struct rb_node **link = &dl_rq->rb_root.rb_node;
	struct rb_node *parent = NULL;
	struct sched_dl_entity *entry;
	int leftmost = 1;

	while (*link) {
		parent = *link;
		entry = rb_entry(parent, struct sched_dl_entity, rb_node);
		if (dl_time_before(dl_se->deadline, entry->deadline)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = 0;
		}
	}

	if (leftmost)
		dl_rq->rb_leftmost = &dl_se->rb_node;

	rb_link_node(&dl_se->rb_node, parent, link);
	rb_insert_color(&dl_se->rb_node, &dl_rq->rb_root);

	inc_dl_tasks(dl_se, dl_rq);
}

void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct dl_rq *dl_rq = dl_rq_of_se(dl_se);

	if (RB_EMPTY_NODE(&dl_se->rb_node))
		return;

	if (dl_rq->rb_leftmost == &dl_se->rb_node)
		dl_rq->rb_leftmost = rb_next(&dl_se->rb_node);

	rb_erase(&dl_se->rb_node, &dl_rq->rb_root);
	RB_CLEAR_NODE(&dl_se->rb_node);

	dec_dl_tasks(dl_se, dl_rq);
}

static void enqueue_dl_entity(struct sched_dl_entity *dl_se,
			      struct sched_dl_entity *pi_se, int flags)
{
	if (WARN_ON_S(sched_of(dl_task_of(dl_se)), on_dl_rq(dl_se)))
		return;

	/*
	 * If this is a wakeup or a new instance, the scheduling
	 * parameters of the task might need updating.  Otherwise,
	 * we want a replenishment of its runtime.
	 *
	 * Seed bug fixed: the seed runs update_dl_entity() for every enqueue
	 * that is not a replenishment, so a task moved by push_dl_task() or
	 * pull_dl_task() (deactivate + activate, flags 0) or re-queued by
	 * rt_mutex_setprio() goes through the wake-up rule and, with runtime
	 * left and its deadline still ahead, fails dl_entity_overflow() and
	 * gets a new, later deadline: every migration postpones it, and task
	 * sets under the GFB bound miss deadlines.  As the comment says (and
	 * as mainline later did, ENQUEUE_WAKEUP), only a wake-up or a new
	 * instance updates the parameters; a migration keeps them
	 * (test_golden.c: pull_on_idle, test_property.c: GFB).
	 */
	/* [mainline 4.13, GRUB] a wake-up makes the entity contending */
	if ((flags & ENQUEUE_WAKEUP) && sched_of(dl_task_of(dl_se))->model->grub)
		task_contending(dl_se, flags);

	if (!dl_se->dl_new && (flags & ENQUEUE_REPLENISH))
		replenish_dl_entity(dl_se, pi_se);
	else if (dl_se->dl_new || (flags & ENQUEUE_WAKEUP))
		sched_of(dl_task_of(dl_se))->model->update_dl_entity(dl_se, pi_se);

	__enqueue_dl_entity(dl_se);
}

static void dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	__dequeue_dl_entity(dl_se);
}

/*
 * Seed bug fixed (draft 006): the top waiter whose parameters a boosted task
 * uses.  The draft takes p->pi_top_task, but in a chain (-deadline c waits
 * for fair b, which waits for fair a) a's top waiter b is itself only
 * boosted, with no -deadline parameters of its own: the draft replenishes a
 * from nothing (BUG_ON(pi_se->dl_runtime <= 0)), mainline 3.14 to 5.9 hit
 * the BUG_ON of the de-boost case below, and our early return left a in the
 * class on no queue, its CPU idle for good (issue 13, defect 1;
 * test_golden.c: inheritance_chain).  Mainline 5.10 (commit 2279f540ea7d,
 * "sched/deadline: Fix priority inheritance with multiple scheduling
 * classes") hands the -deadline parameters down the chain (dl_se->pi_se =
 * pi_task->dl.pi_se); we follow the chain of boosted top waiters to the
 * -deadline task at its end, which is the same entity when the tasks
 * between are not -deadline.  It stops at the first -deadline task, as
 * before 5.10; dl_model.pi_se (5.10+) follows mainline's pi_se instead,
 * which goes on through boosted -deadline tasks (rt_mutex_setprio()).
 */
struct task_struct *pi_dl_top_task(struct task_struct *p)
{
	struct task_struct *pi_task = p->pi_top_task;
	int depth = 0;

	while (pi_task && !dl_prio(pi_task->normal_prio) && pi_task->dl.dl_boosted &&
	       depth++ < 1024)
		pi_task = pi_task->pi_top_task;
	return pi_task;
}

static void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *pi_task = pi_dl_top_task(p);
	struct sched_dl_entity *pi_se = &p->dl;

	/*
	 * [006] Use the scheduling parameters of the top pi-waiter
	 * task if we have one and its (relative) deadline is
	 * smaller than our one... OTW we keep our runtime and
	 * deadline.
	 */
	if (rq->s->model->pi_se && p->dl.dl_boosted) {
		/*
		 * [mainline 5.10, model hook] is_dl_boosted(): pi_of(&p->dl),
		 * set by rt_mutex_setprio() to the donor at the end of the
		 * chain (2279f540ea7d, "sched/deadline: Fix priority
		 * inheritance with multiple scheduling classes").
		 */
		pi_se = p->dl.pi_se;
	} else if (!rq->s->model->pi_se && pi_task && p->dl.dl_boosted &&
		   dl_prio(pi_task->normal_prio)) {
		pi_se = &pi_task->dl;
	} else if (!dl_prio(p->normal_prio)) {
		/*
		 * Seed bug fixed (draft 006), as mainline 3.14 does: a
		 * !-deadline task being de-boosted (pi_top_task already NULL)
		 * that exhausts its runtime on the way out would be
		 * replenished with its own dl_runtime, 0: the replenishment
		 * loop never ends.  It returns to its own class right after
		 * this; there is nothing to replenish.  Mainline 3.14 asserts
		 * that this is the only way here: BUG_ON(!p->dl.dl_boosted ||
		 * flags != ENQUEUE_REPLENISH).
		 */
		WARN_ON_S(rq->s, !p->dl.dl_boosted || flags != ENQUEUE_REPLENISH);
		return;
	}

	/*
	 * [mainline 4.11, model hook] A constrained task woken after its
	 * deadline but before its next period is throttled until then.
	 */
	if (rq->s->model->check_constrained_dl && !p->dl.dl_throttled)
		rq->s->model->check_constrained_dl(&p->dl);

	/* [mainline 4.13, GRUB] moved here by push/pull: its utilization comes along */
	if (rq->s->model->grub && (flags & ENQUEUE_MIGRATING)) {
		add_rq_bw(&p->dl, &rq->dl);
		add_running_bw(&p->dl, &rq->dl);
	}

	/*
	 * If p is throttled, we do nothing.  In fact, if it exhausted
	 * its budget it needs a replenishment and, since it now is on
	 * its rq, the bandwidth timer callback (which clearly has not
	 * run yet) will take care of this.
	 * [mainline 4.13, GRUB] A throttled task woken up still becomes
	 * contending: its utilization counts whether it is queued or not.
	 */
	if (p->dl.dl_throttled) {
		if (rq->s->model->grub && (flags & ENQUEUE_WAKEUP))
			task_contending(&p->dl, flags);
		return;
	}

	enqueue_dl_entity(&p->dl, pi_se, flags);

	if (!task_current(rq, p) && p->dl.nr_cpus_allowed > 1)
		enqueue_pushable_dl_task(rq, p);
}

static void __dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	(void)flags;
	dequeue_dl_entity(&p->dl);
	dequeue_pushable_dl_task(rq, p);
}

static void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_dl(rq);
	__dequeue_task_dl(rq, p, flags);

	/* [mainline 4.13, GRUB] */
	if (!rq->s->model->grub)
		return;
	if (flags & DEQUEUE_MIGRATING) {
		sub_running_bw(&p->dl, &rq->dl);
		sub_rq_bw(&p->dl, &rq->dl);
	}
	if (flags & DEQUEUE_SLEEP)
		task_non_contending(p);
}

/*
 * [core, as mainline 3.14] Yield task semantic for -deadline tasks is:
 *
 *   get off from the CPU until our next instance, with
 *   a new runtime.
 *
 * We make the task go to sleep until its current deadline by forcing its
 * runtime to zero.  This way, update_curr_dl() stops it and the bandwidth
 * timer will wake it up and will give it new scheduling parameters
 * (thanks to dl_new=1).
 */
static void yield_task_dl(struct rq *rq)
{
	struct task_struct *p = rq->curr;

	if (p->dl.runtime > 0) {
		rq->curr->dl.dl_new = 1;
		p->dl.runtime = 0;
	}
	update_curr_dl(rq);
}

/* ---- wake-up placement [004, 007] ------------------------------------- */

static int find_later_rq(struct task_struct *task);

/*
 * [004] The linear scan that patch 007 replaces: every CPU in @span where
 * @task could run and would preempt goes into @later_mask; the answer is
 * the first CPU without -deadline tasks, else the one whose earliest
 * deadline is the latest.
 */
static int latest_cpu_find(struct sched *s, const struct dlb_cpumask *span,
			   struct task_struct *task, struct dlb_cpumask *later_mask)
{
	const struct sched_dl_entity *dl_se = &task->dl;
	int found = -1, best = 0;
	unsigned int cpu;
	u64 max_dl = 0;

	dlb_for_each_cpu(cpu, span) {
		struct dl_rq *dl_rq = &cpu_rq(s, (int)cpu)->dl;

		if (dlb_cpumask_test(&task->cpus_allowed, cpu) &&
		    (!dl_rq->dl_nr_running ||
		     dl_time_before(dl_se->deadline, dl_rq->earliest_dl.curr))) {
			if (later_mask)
				dlb_cpumask_set(later_mask, cpu);
			if (!best && !dl_rq->dl_nr_running) {
				best = 1;
				found = (int)cpu;
			} else if (!best && dl_time_before(max_dl, dl_rq->earliest_dl.curr)) {
				max_dl = dl_rq->earliest_dl.curr;
				found = (int)cpu;
			}
		} else if (later_mask) {
			dlb_cpumask_clr(later_mask, cpu);
		}
	}
	return found;
}

/* The pluggable CPU selection: cpudl_find [007] or latest_cpu_find [004], counted and timed. */
static int dl_find_cpu(struct sched *s, struct task_struct *p, struct dlb_cpumask *later_mask)
{
	u64 t0 = s->opstat.timed ? dlb_opstat_now() : 0;
	int cpu;

	if (s->cpu_select == CPU_SELECT_HEAP)
		cpu = cpudl_find(&s->rd.cpudl, &s->rd.dlo_mask, p, later_mask);
	else
		cpu = latest_cpu_find(s, &s->rd.span, p, later_mask);
	dlb_opstat_add(&s->opstat, DLB_OP_FIND, s->opstat.timed ? dlb_opstat_now() - t0 : 0,
		       cpu != -1);
	push_observe(s, DLB_OP_FIND, -1, true, p->dl.deadline, &p->cpus_allowed);
	return cpu;
}

/*
 * [004] Where a waking task goes.  If it has a later deadline than the
 * current task of its CPU and that one can't move (provided the waking
 * task can!) we prefer to send it somewhere else.  If it has a shorter
 * deadline, we try to make it stay here, it might be important.
 */
static int __select_task_rq_dl(struct task_struct *p, int sd_flag, int flags)
{
	struct sched *s = sched_of(p);
	struct rq *rq;
	int cpu;

	(void)flags;
	if (sd_flag != SD_BALANCE_WAKE)
		return s->this_cpu;

	cpu = task_cpu(p);
	rq = cpu_rq(s, cpu);

	if (dl_task(rq->curr) &&
	    (rq->curr->dl.nr_cpus_allowed < 2 ||
	     dl_entity_preempt(&rq->curr->dl, &p->dl)) &&
	    p->dl.nr_cpus_allowed > 1) {
		int target = find_later_rq(p);

		if (target != -1)
			cpu = target;
	}
	return cpu;
}

/* select_task_rq_dl, counted and timed (done: the task goes to another CPU). */
static int select_task_rq_dl(struct task_struct *p, int sd_flag, int flags)
{
	struct sched *s = sched_of(p);
	u64 t0 = s->opstat.timed ? dlb_opstat_now() : 0;
	int cpu = __select_task_rq_dl(p, sd_flag, flags);

	dlb_opstat_add(&s->opstat, DLB_OP_SELECT, s->opstat.timed ? dlb_opstat_now() - t0 : 0,
		       cpu != task_cpu(p));
	return cpu;
}

static void check_preempt_equal_dl(struct rq *rq, struct task_struct *p)
{
	struct sched *s = rq->s;

	/*
	 * Current can't be migrated, useless to reschedule,
	 * let's hope p can move out.
	 */
	if (rq->curr->dl.nr_cpus_allowed == 1 || dl_find_cpu(s, rq->curr, NULL) == -1)
		return;

	/*
	 * p is migratable, so let's not schedule it and
	 * see if it is pushed or pulled somewhere else.
	 */
	if (p->dl.nr_cpus_allowed != 1 && dl_find_cpu(s, p, NULL) != -1)
		return;

	resched_task(rq->curr);
}

/*
 * Only called when both the current and waking task are -deadline
 * tasks.
 */
static void check_preempt_curr_dl(struct rq *rq, struct task_struct *p, int flags)
{
	(void)flags;
	if (dl_time_before(p->dl.deadline, rq->curr->dl.deadline)) {
		resched_task(rq->curr);
		return;
	}

	/*
	 * [004] In the unlikely case current and p have the same deadline
	 * let us try to decide what's the best thing to do...
	 */
	if ((s64)(p->dl.deadline - rq->curr->dl.deadline) == 0 && !rq->need_resched)
		check_preempt_equal_dl(rq, p);
}

static struct sched_dl_entity *pick_next_dl_entity(struct rq *rq, struct dl_rq *dl_rq)
{
	(void)rq;
	if (!dl_rq->rb_leftmost)
		return NULL;
	return rb_entry(dl_rq->rb_leftmost, struct sched_dl_entity, rb_node);
}

static struct task_struct *pick_next_task_dl(struct rq *rq)
{
	struct sched_dl_entity *dl_se;
	struct task_struct *p;
	struct dl_rq *dl_rq = &rq->dl;

	if (!dl_rq->dl_nr_running)
		return NULL;

again:
	dl_se = pick_next_dl_entity(rq, dl_rq);
	if (WARN_ON_S(rq->s, !dl_se))
		return NULL;

	/*
	 * [mainline 6.12, __pick_task_dl()] The earliest entity is a dl_server:
	 * run what its class picks (server_pick_task); with nothing to pick the
	 * server stops and the next entity is tried (6.17's text, a3a70caf7906
	 * "sched/deadline: Fix dl_server behaviour"; 6.12-6.16 yield the period
	 * here instead, which cannot happen in the model: up to 6.16 the server
	 * stops as the last fair task leaves).  Never true for v4.
	 */
	if (dl_se->dl_server) {
		p = fair_server_pick(rq);
		if (!p) {
			rq->s->model->dl_server_stop(dl_se);
			if (!dl_rq->dl_nr_running)
				return NULL;
			goto again;
		}
		rq->dl_server = dl_se;
		return p;
	}

	p = dl_task_of(dl_se);
	p->se.exec_start = rq_clock_task(rq);

	/* Running task will never be pushed. */
	dequeue_pushable_dl_task(rq, p);

	rq->post_schedule = has_pushable_dl_tasks(rq);
	return p;
}

static void put_prev_task_dl(struct rq *rq, struct task_struct *p)
{
	update_curr_dl(rq);
	p->se.exec_start = 0;

	if (on_dl_rq(&p->dl) && p->dl.nr_cpus_allowed > 1)
		enqueue_pushable_dl_task(rq, p);
}

/* Called at every tick, or at the exact budget instant with hrtick (queued = 1). */
static void task_tick_dl(struct rq *rq, struct task_struct *p, int queued)
{
	(void)p;
	(void)queued;
	update_curr_dl(rq);
}

static void set_curr_task_dl(struct rq *rq)
{
	struct task_struct *p = rq->curr;

	p->se.exec_start = rq_clock_task(rq);

	/* You can't push away the running task */
	dequeue_pushable_dl_task(rq, p);
}

/* ---- push and pull [004] ---------------------------------------------- */

/* Only try algorithms three times */
#define DL_MAX_TRIES 3

static int pick_dl_task(struct rq *rq, struct task_struct *p, int cpu)
{
	if (!task_running(rq, p) &&
	    (cpu < 0 || dlb_cpumask_test(&p->cpus_allowed, (unsigned int)cpu)) &&
	    p->dl.nr_cpus_allowed > 1)
		return 1;
	return 0;
}

/* Returns the second earliest -deadline task, NULL otherwise */
static struct task_struct *pick_next_earliest_dl_task(struct rq *rq, int cpu)
{
	struct rb_node *next_node = rq->dl.rb_leftmost;
	struct sched_dl_entity *dl_se;
	struct task_struct *p;

	if (!next_node)
		return NULL;
	for (next_node = rb_next(next_node); next_node; next_node = rb_next(next_node)) {
		dl_se = rb_entry(next_node, struct sched_dl_entity, rb_node);
		p = dl_task_of(dl_se);
		if (pick_dl_task(rq, p, cpu))
			return p;
	}
	return NULL;
}

/*
 * [004, 007] Best CPU for @task among those where it would preempt.  One
 * sched domain with SD_WAKE_AFFINE spans all simulated CPUs, so the seed's
 * for_each_domain() loop reduces to its body run once.
 */
static int find_later_rq(struct task_struct *task)
{
	struct sched *s = sched_of(task);
	struct dlb_cpumask *later_mask = &s->local_cpu_mask_dl[s->this_cpu];
	int this_cpu = s->this_cpu;
	int best_cpu, cpu = task_cpu(task);

	if (task->dl.nr_cpus_allowed == 1)
		return -1;

	best_cpu = dl_find_cpu(s, task, later_mask);
	if (best_cpu == -1)
		return -1;

	/*
	 * If we are here, some target has been found, the most suitable of
	 * which is cached in best_cpu.  The last cpu where the task run is
	 * our first guess, since it is most likely cache-hot there.
	 */
	if (dlb_cpumask_test(later_mask, (unsigned int)cpu))
		return cpu;
	/*
	 * Check if this_cpu is to be skipped (i.e., it is
	 * not in the mask) or not.
	 */
	if (!dlb_cpumask_test(later_mask, (unsigned int)this_cpu))
		this_cpu = -1;

	/* the SD_WAKE_AFFINE domain (all CPUs): preempting this_cpu is cheaper than migrating */
	if (this_cpu != -1)
		return this_cpu;

	/* Last chance: if best_cpu is valid and is in the mask, that becomes our choice. */
	if (best_cpu < s->nr_cpus)
		return best_cpu;

	cpu = (int)dlb_cpumask_next(later_mask, 0);
	if (cpu < s->nr_cpus)
		return cpu;
	return -1;
}

/* [004] "Locks the rq it finds": no locks here, the re-checks stay. */
static struct rq *find_lock_later_rq(struct task_struct *task, struct rq *rq)
{
	struct sched *s = rq->s;
	struct rq *later_rq = NULL;
	int tries, cpu;

	for (tries = 0; tries < DL_MAX_TRIES; tries++) {
		cpu = find_later_rq(task);

		if (cpu == -1 || cpu == rq->cpu)
			break;

		later_rq = cpu_rq(s, cpu);

		/* Retry if something changed (cannot happen without concurrency). */
		if (task_rq(task) != rq ||
		    !dlb_cpumask_test(&task->cpus_allowed, (unsigned int)later_rq->cpu) ||
		    task_running(rq, task) || !task->on_rq) {
			later_rq = NULL;
			break;
		}

		/*
		 * If the rq we found has no -deadline task, or
		 * its earliest one has a later deadline than our
		 * task, the rq is a good one.
		 */
		if (!later_rq->dl.dl_nr_running ||
		    dl_time_before(task->dl.deadline, later_rq->dl.earliest_dl.curr))
			break;

		/* Otherwise we try again. */
		later_rq = NULL;
	}

	return later_rq;
}

static struct task_struct *pick_next_pushable_dl_task(struct rq *rq)
{
	struct task_struct *p;

	if (!has_pushable_dl_tasks(rq))
		return NULL;

	p = rb_entry(rq->dl.pushable_dl_tasks_leftmost, struct task_struct, pushable_dl_tasks);

	WARN_ON_S(rq->s, rq->cpu != task_cpu(p));
	WARN_ON_S(rq->s, task_current(rq, p));
	WARN_ON_S(rq->s, p->dl.nr_cpus_allowed <= 1);
	WARN_ON_S(rq->s, !p->on_rq);
	WARN_ON_S(rq->s, !dl_task(p));
	return p;
}

/*
 * See if the non running -deadline tasks on this rq
 * can be sent to some other CPU where they can preempt
 * and start executing.
 */
static int __push_dl_task(struct rq *rq, bool *moved)
{
	struct task_struct *next_task, *task;
	struct rq *later_rq;

	if (!rq->dl.overloaded)
		return 0;

	next_task = pick_next_pushable_dl_task(rq);
	if (!next_task)
		return 0;

retry:
	if (WARN_ON_S(rq->s, next_task == rq->curr))
		return 0;

	/*
	 * If next_task preempts rq->curr, and rq->curr
	 * can move away, it makes sense to just reschedule
	 * without going further in pushing next_task.
	 */
	if (dl_task(rq->curr) &&
	    dl_time_before(next_task->dl.deadline, rq->curr->dl.deadline) &&
	    rq->curr->dl.nr_cpus_allowed > 1) {
		resched_task(rq->curr);
		return 0;
	}

	later_rq = find_lock_later_rq(next_task, rq);
	if (!later_rq) {
		/*
		 * We must check all this again, since
		 * find_lock_later_rq releases rq->lock and it is
		 * then possible that next_task has migrated.
		 */
		task = pick_next_pushable_dl_task(rq);
		if (task_cpu(next_task) == rq->cpu && task == next_task) {
			/*
			 * The task is still there. We don't try
			 * again, some other cpu will pull it when ready.
			 */
			dequeue_pushable_dl_task(rq, next_task);
			return 1;
		}
		if (!task)
			return 1;	/* No more tasks */
		next_task = task;
		goto retry;
	}

	/* [mainline 4.13] *_MIGRATING: TASK_ON_RQ_MIGRATING, for GRUB */
	deactivate_task(rq, next_task, DEQUEUE_MIGRATING);
	set_task_cpu(next_task, later_rq->cpu);
	activate_task(later_rq, next_task, ENQUEUE_MIGRATING);

	resched_task(later_rq->curr);
	*moved = true;
	return 1;
}

static int push_dl_task(struct rq *rq)
{
	struct sched *s = rq->s;
	u64 t0 = s->opstat.timed ? dlb_opstat_now() : 0;
	bool moved = false;
	int ret;

	ret = __push_dl_task(rq, &moved);
	dlb_opstat_add(&s->opstat, DLB_OP_PUSH, s->opstat.timed ? dlb_opstat_now() - t0 : 0, moved);
	return ret;
}

static void push_dl_tasks(struct rq *rq)
{
	/* Terminates as it moves a -deadline task */
	while (push_dl_task(rq))
		;
}

static int __pull_dl_task(struct rq *this_rq)
{
	struct sched *s = this_rq->s;
	int this_cpu = this_rq->cpu, ret = 0;
	unsigned int cpu;
	struct task_struct *p;
	struct rq *src_rq;
	u64 dmin = INT64_MAX;	/* LONG_MAX */

	if (!dl_overloaded(this_rq))
		return 0;

	/* the rd's CPUs are below nr_cpus: the scan stops there */
	for_each_cpu_below(cpu, &this_rq->rd->dlo_mask, (unsigned int)s->nr_cpus) {
		if ((unsigned int)this_cpu == cpu)
			continue;

		src_rq = cpu_rq(s, (int)cpu);

		/*
		 * It looks racy, and it is! However, as in sched_rt.c,
		 * we are fine with this.
		 */
		if (this_rq->dl.dl_nr_running &&
		    dl_time_before(this_rq->dl.earliest_dl.curr, src_rq->dl.earliest_dl.next))
			continue;

		/*
		 * If there are no more pullable tasks on the
		 * rq, we're done with it.
		 */
		if (src_rq->dl.dl_nr_running <= 1)
			continue;

		p = pick_next_earliest_dl_task(src_rq, this_cpu);

		/*
		 * We found a task to be pulled if:
		 *  - it preempts our current (if there's one),
		 *  - it will preempt the last one we pulled (if any).
		 */
		if (p && dl_time_before(p->dl.deadline, dmin) &&
		    (!this_rq->dl.dl_nr_running ||
		     dl_time_before(p->dl.deadline, this_rq->dl.earliest_dl.curr))) {
			WARN_ON_S(s, p == src_rq->curr);
			WARN_ON_S(s, !p->on_rq);

			/*
			 * Then we pull iff p has actually an earlier
			 * deadline than the current task of its runqueue.
			 * (The code skips p when it is earlier than the
			 * source's current: p will preempt it there soon.)
			 */
			if (dl_time_before(p->dl.deadline, src_rq->curr->dl.deadline))
				continue;

			ret = 1;

			deactivate_task(src_rq, p, DEQUEUE_MIGRATING);
			set_task_cpu(p, this_cpu);
			activate_task(this_rq, p, ENQUEUE_MIGRATING);
			dmin = p->dl.deadline;

			/* Is there any other task even earlier? */
		}
	}

	/*
	 * Seed bug fixed: switched_from_dl() and prio_changed_dl() pull
	 * outside schedule(), and a task pulled onto an idle CPU then waited
	 * for whatever rescheduled it next (test_property.c: mixed_invariants,
	 * "idle with queued tasks and no reschedule pending").  As mainline's
	 * pull_dl_task() ends: "if (resched) resched_curr(this_rq)"; within
	 * schedule() the pick that follows clears it.
	 */
	if (ret)
		resched_rq(this_rq);

	return ret;
}

static int pull_dl_task(struct rq *this_rq)
{
	struct sched *s = this_rq->s;
	u64 t0;
	int ret;

	if (!dl_overloaded(this_rq))
		return 0;	/* likely(): not counted, as the seed's fast path */
	t0 = s->opstat.timed ? dlb_opstat_now() : 0;
	ret = __pull_dl_task(this_rq);
	dlb_opstat_add(&s->opstat, DLB_OP_PULL, s->opstat.timed ? dlb_opstat_now() - t0 : 0,
		       ret);
	return ret;
}

static void pre_schedule_dl(struct rq *rq, struct task_struct *prev)
{
	/* Try to pull other tasks here */
	if (dl_task(prev))
		pull_dl_task(rq);
}

static void post_schedule_dl(struct rq *rq)
{
	push_dl_tasks(rq);
}

/*
 * Since the task is not running and a reschedule is not going to happen
 * anytime soon on its runqueue, we try pushing it away now.
 */
static void task_woken_dl(struct rq *rq, struct task_struct *p)
{
	if (!task_running(rq, p) &&
	    !rq->need_resched &&
	    has_pushable_dl_tasks(rq) &&
	    p->dl.nr_cpus_allowed > 1 &&
	    dl_task(rq->curr) &&
	    (rq->curr->dl.nr_cpus_allowed < 2 ||
	     dl_entity_preempt(&rq->curr->dl, &p->dl))) {
		push_dl_tasks(rq);
	}
}

static void set_cpus_allowed_dl(struct task_struct *p, const struct dlb_cpumask *new_mask)
{
	int weight = (int)dlb_cpumask_weight(new_mask);

	/*
	 * Update only if the task is actually running (i.e.,
	 * it is on the rq AND it is not throttled).
	 */
	if (on_dl_rq(&p->dl) && weight != p->dl.nr_cpus_allowed) {
		struct rq *rq = task_rq(p);

		if (!task_current(rq, p)) {
			/*
			 * If the task was on the pushable list,
			 * make sure it stays there only if the new
			 * mask allows that.
			 */
			if (p->dl.nr_cpus_allowed > 1)
				dequeue_pushable_dl_task(rq, p);
			if (weight > 1)
				enqueue_pushable_dl_task(rq, p);
		}

		if (p->dl.nr_cpus_allowed <= 1 && weight > 1) {
			rq->dl.dl_nr_migratory++;
		} else if (p->dl.nr_cpus_allowed > 1 && weight <= 1) {
			WARN_ON_S(rq->s, !rq->dl.dl_nr_migratory);
			rq->dl.dl_nr_migratory--;
		}
		update_dl_migration(&rq->dl);
	}

	p->cpus_allowed = *new_mask;
	p->dl.nr_cpus_allowed = weight;
}

static void switched_from_dl(struct rq *rq, struct task_struct *p)
{
	struct sched *s = rq->s;

	if (p->dl.dl_timer.active && !dl_policy(p->policy)) {
		p->dl.dl_timer.active = false;
		if (s->ops.timer_cancel)
			s->ops.timer_cancel(s->ops.arg, p);
	}

	/*
	 * Since this might be the only -deadline task on the rq,
	 * this is the right place to try to pull some other one
	 * from an overloaded cpu, if any.
	 */
	if (!rq->dl.dl_nr_running)
		pull_dl_task(rq);
}

/*
 * When switching to -deadline, we may overload the rq, then
 * we try to push someone off, if possible.
 */
static void switched_to_dl(struct rq *rq, struct task_struct *p)
{
	int check_resched = 1;

	/*
	 * If p is throttled, don't consider the possibility
	 * of preempting rq->curr, the check will be done right
	 * after its runtime will get replenished.
	 */
	if (p->dl.dl_throttled)
		return;

	if (!p->on_rq || rq->curr != p) {
		if (rq->dl.overloaded && push_dl_task(rq) && rq != task_rq(p))
			/* Only reschedule if pushing failed */
			check_resched = 0;
		/*
		 * Seed bug fixed, as later mainline (4.x: "if (dl_task(rq->curr))
		 * check_preempt_curr_dl(); else resched_curr(rq)"): the seed
		 * checks only "if (check_resched && task_has_dl_policy(rq->curr))",
		 * so a task just boosted into -deadline waited behind a running
		 * fair or RT task (test_golden.c: inheritance_boost_preempts).
		 */
		if (check_resched) {
			if (dl_task(rq->curr))
				check_preempt_curr_dl(rq, p, 0);
			else
				resched_task(rq->curr);
		}
	}
}

/*
 * If the scheduling parameters of a -deadline task changed,
 * a push or pull operation might be needed.
 */
static void prio_changed_dl(struct rq *rq, struct task_struct *p, int oldprio)
{
	(void)oldprio;
	if (p->on_rq || rq->curr == p) {
		/*
		 * This might be too much, but unfortunately
		 * we don't have the old deadline value, and
		 * we can't argue if the task is increasing
		 * or lowering its prio, so...
		 */
		if (!rq->dl.overloaded)
			pull_dl_task(rq);

		/*
		 * If we now have a earlier deadline task than p,
		 * then reschedule, provided p is still on this
		 * runqueue.
		 */
		if (dl_time_before(rq->dl.earliest_dl.curr, p->dl.deadline) && rq->curr == p)
			resched_task(p);
		/*
		 * Seed bug fixed: a queued p that is not current can now be
		 * ahead of current, above all when rt_mutex_setprio() has
		 * just un-throttled and replenished it with an idle CPU
		 * (found by test_property.c: mixed_invariants, "idle with
		 * queued tasks and no reschedule pending"); the seed left the
		 * CPU idle.  As mainline's prio_changed_dl(): "Current may not
		 * be deadline in case p was throttled but we have just
		 * replenished it (e.g. rt_mutex_setprio()).  Otherwise, if p
		 * was given an earlier deadline, reschedule."
		 */
		else if (rq->curr != p && on_dl_rq(&p->dl) &&
			 (!dl_task(rq->curr) || dl_time_before(p->dl.deadline, rq->curr->dl.deadline)))
			resched_task(rq->curr);
	} else {
		switched_to_dl(rq, p);
	}
}

/* [004, 007] Assumes rq->lock is held */
static void rq_online_dl(struct rq *rq)
{
	if (rq->dl.overloaded)
		dl_set_overload(rq);

	if (rq->dl.dl_nr_running > 0 && rq->s->cpu_select == CPU_SELECT_HEAP)
		cpudl_set(&rq->rd->cpudl, rq->cpu, rq->dl.earliest_dl.curr, 1);
}

/* [004, 007] Assumes rq->lock is held */
static void rq_offline_dl(struct rq *rq)
{
	if (rq->dl.overloaded)
		dl_clear_overload(rq);

	if (rq->s->cpu_select == CPU_SELECT_HEAP)
		cpudl_set(&rq->rd->cpudl, rq->cpu, 0, 0);
}

void sched_bench_set_cpu_dl(struct sched *s, int cpu, u64 dl)
{
	struct rq *rq = cpu_rq(s, cpu);

	rq->dl.dl_nr_running = dl ? 1 : 0;
	rq->dl.earliest_dl.curr = dl;
	dl_cpudl_set(rq, dl, dl != 0);
}

int sched_bench_find(struct sched *s, struct task_struct *p)
{
	return dl_find_cpu(s, p, &s->local_cpu_mask_dl[0]);
}

u64 sched_dl_budget_wall(struct rq *rq, struct task_struct *p, s64 left)
{
	if (left <= 0)
		return 0;
	if (rq->s->model->grub && (p->dl.flags & DL_FLAG_RECLAIM))
		return grub_wall_time((u64)left, rq, &p->dl);
	return (u64)left;
}

void init_dl_rq(struct dl_rq *dl_rq)
{
	memset(dl_rq, 0, sizeof(*dl_rq));
	dl_rq->rb_root = RB_ROOT;
	/* zero means no -deadline tasks */
	dl_rq->earliest_dl.curr = dl_rq->earliest_dl.next = 0;
	dl_rq->pushable_dl_tasks_root = RB_ROOT;
}

/*
 * Admission control (patch 14/16 "add bandwidth management for sched_dl",
 * as mainline's __dl_overflow()): a new or changed reservation is refused
 * with EBUSY when the root domain's admitted bandwidth would exceed
 * cpus * (sched_rt_runtime/sched_rt_period - reserved per CPU).
 */
int dl_bw_admit(struct sched *s, struct task_struct *p, u64 new_bw, struct dlb_err *err)
{
	struct dl_bw *dl_b = &s->rd.dl_bw;
	u64 old_bw = task_has_dl_policy(p) ? p->dl.dl_bw : 0;
	u64 cap;

	if (dl_b->bw < 0)
		goto ok;
	cap = (u64)dl_b->bw * (u64)s->nr_cpus;
	if (dl_b->total_bw - old_bw + new_bw > cap) {
		/* the environment's exit code, as the generator's EBUSY on a real kernel */
		dlb_err_set(err, DLB_EXIT_ENV,
			"sched_setattr: EBUSY: %s: bandwidth %.4f would bring the -deadline total to "
			"%.4f of %d CPUs, over the admitted %.4f (%.4f per CPU)",
			p->comm, dl_bw_to_double(new_bw),
			dl_bw_to_double(dl_b->total_bw - old_bw + new_bw), s->nr_cpus,
			dl_bw_to_double(cap), dl_bw_to_double((u64)dl_b->bw));
		if (err)
			err->errnum = EBUSY;
		return -1;
	}
ok:
	dl_b->total_bw = dl_b->total_bw - old_bw + new_bw;
	/* [mainline 4.13, GRUB] __dl_sub(), __dl_add(): extra_bw follows */
	dl_extra_bw_update(s, (s64)(old_bw / (u64)s->nr_cpus));
	dl_extra_bw_update(s, -(s64)(new_bw / (u64)s->nr_cpus));
	return 0;
}

/* The seeds' rules (the default model). */
const struct dl_model dl_model_v4 = {
	.name			= "v4",
	.version		= 0,
	.update_dl_entity	= update_dl_entity,
	.check_constrained_dl	= NULL,
	.timer_expiry		= dl_timer_expiry_deadline,
	/* admission as this machine's kernel counts it (docs/reference.md) */
	.fair_server_bw		= DL_FAIR_SERVER_BW,
	.pi_boost_dl_waiter	= true,
};

const struct sched_class dl_sched_class = {
	.next			= &rt_sched_class,
	.enqueue_task		= enqueue_task_dl,
	.dequeue_task		= dequeue_task_dl,
	.yield_task		= yield_task_dl,
	.check_preempt_curr	= check_preempt_curr_dl,
	.pick_next_task		= pick_next_task_dl,
	.put_prev_task		= put_prev_task_dl,
	.select_task_rq		= select_task_rq_dl,
	.set_cpus_allowed	= set_cpus_allowed_dl,
	.rq_online		= rq_online_dl,
	.rq_offline		= rq_offline_dl,
	.pre_schedule		= pre_schedule_dl,
	.post_schedule		= post_schedule_dl,
	.task_woken		= task_woken_dl,
	.set_curr_task		= set_curr_task_dl,
	.task_tick		= task_tick_dl,
	.switched_from		= switched_from_dl,
	.switched_to		= switched_to_dl,
	.prio_changed		= prio_changed_dl,
	.name			= "dl",
};
