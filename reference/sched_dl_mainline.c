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
 *         admission (dl_server_apply_params -> __dl_add).
 * Not modelled: GRUB reclaiming, the fair server as a scheduled entity,
 * replenishing a throttled sleeper in dl_task_timer(), the pi_se chain,
 * mainline's dl_runtime_exceeded() without the v4 deadline-miss charge.
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

		dl_se->deadline = rq_clock(rq) + pi_se->dl_deadline;
		dl_se->runtime = (s64)pi_se->dl_runtime;
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

void dl_model_mainline(unsigned int version, struct dl_model *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "mainline:%u.%u", version / 1000, version % 1000);
	m->version = version;
	m->update_dl_entity = update_dl_entity_mainline;
	m->check_constrained_dl = version >= DL_KVER(4, 11) ? dl_check_constrained_dl : NULL;
	m->timer_expiry = version >= DL_KVER(4, 11) ? dl_next_period : dl_model_v4.timer_expiry;
	m->fair_server_bw = version >= DL_KVER(6, 12) ? DL_FAIR_SERVER_BW : 0;
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
