// SPDX-License-Identifier: GPL-2.0
/*
 * The CBS replayed from a trace (cbs.h), after mainline's deadline.c:
 * replenish_dl_new_period, update_dl_entity, dl_entity_overflow,
 * update_dl_revised_wakeup, dl_runtime_exceeded, dl_next_period,
 * replenish_dl_entity.  What the trace cannot show and so is not here:
 * the tick that notices an exhausted budget (the trace shows the
 * switch-out it causes), GRUB reclaiming, the fair server's own deadline,
 * deadline inheritance.
 */
#include "cbs.h"

void dlb_cbs_init(struct dlb_cbs *c, u64 dl_runtime, u64 dl_deadline, u64 dl_period)
{
	c->dl_runtime = dl_runtime;
	c->dl_deadline = dl_deadline;
	c->dl_period = dl_period ? dl_period : dl_deadline;
	c->valid = false;
	c->runtime = 0;
	c->deadline = 0;
}

void dlb_cbs_new_period(struct dlb_cbs *c, u64 now)
{
	c->deadline = now + c->dl_deadline;
	c->runtime = (s64)c->dl_runtime;
	c->valid = true;
}

/*
 * dl_entity_overflow: keeping the current (deadline, runtime) would let
 * the task use more than its bandwidth before that deadline,
 *	runtime / (deadline - now) > dl_runtime / dl_period,
 * compared as runtime * dl_period > (deadline - now) * dl_runtime (128 bits:
 * no overflow for any u64 times).
 */
static bool dl_entity_overflow(const struct dlb_cbs *c, u64 now)
{
	unsigned __int128 left = (unsigned __int128)(u64)c->runtime * c->dl_period;
	unsigned __int128 right = (unsigned __int128)(c->deadline - now) * c->dl_runtime;

	return c->runtime > 0 && left > right;
}

/*
 * update_dl_entity: a task waking after its deadline, or with more runtime
 * than its bandwidth allows until it, starts a new instance; a task with a
 * constrained deadline (D < P) waking before its deadline instead keeps it
 * and gets the runtime its density allows until then (Revised CBS,
 * update_dl_revised_wakeup: runtime = (deadline - now) * Q / D).
 */
void dlb_cbs_wakeup(struct dlb_cbs *c, u64 now)
{
	if (!c->valid) {
		dlb_cbs_new_period(c, now);
		return;
	}
	if (!dl_time_before(c->deadline, now) && !dl_entity_overflow(c, now))
		return;
	if (c->dl_deadline < c->dl_period && !dl_time_before(c->deadline, now)) {
		c->runtime = (s64)((unsigned __int128)(c->deadline - now) * c->dl_runtime /
				   c->dl_deadline);
		return;
	}
	dlb_cbs_new_period(c, now);
}

void dlb_cbs_charge(struct dlb_cbs *c, u64 ns)
{
	c->runtime -= (s64)ns;
}

bool dlb_cbs_exhausted(const struct dlb_cbs *c)
{
	return c->valid && c->runtime <= 0;
}

u64 dlb_cbs_next_period(const struct dlb_cbs *c)
{
	return c->deadline - c->dl_deadline + c->dl_period;
}

/*
 * replenish_dl_entity: one period's runtime for each period the deadline
 * moves on, until the runtime is positive (an overrun is paid back out of
 * the following periods: the CBS isolation property); a deadline still in
 * the past after that (the task lagged) starts a new instance.
 */
void dlb_cbs_replenish(struct dlb_cbs *c, u64 now)
{
	if (!c->valid) {
		dlb_cbs_new_period(c, now);
		return;
	}
	if (!c->dl_runtime) {
		dlb_cbs_new_period(c, now);
		return;
	}
	while (c->runtime <= 0) {
		c->deadline += c->dl_period;
		c->runtime += (s64)c->dl_runtime;
	}
	if (dl_time_before(c->deadline, now))
		dlb_cbs_new_period(c, now);
}
