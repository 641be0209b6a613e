/* SPDX-License-Identifier: GPL-2.0 */
/* Hand-built events for the metric tests: one line per event, times in µs. */
#ifndef DLB_EVBUILD_H
#define DLB_EVBUILD_H

#include <string.h>

#include "dlbench/event.h"

#define US 1000ULL

static inline int eb_feed(dlb_event_fn fn, void *arg, struct dlb_event *ev)
{
	return fn(ev, arg);
}

static inline struct dlb_event eb_switch(u64 ts_us, int cpu, int prev, int prev_prio, long state,
					 int next, int next_prio)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.pid = prev;
	e.type = DLB_EV_SWITCH;
	e.sw.prev_pid = prev;
	e.sw.prev_prio = prev_prio;
	e.sw.prev_state = state;
	e.sw.next_pid = next;
	e.sw.next_prio = next_prio;
	return e;
}

static inline struct dlb_event eb_wake(u64 ts_us, int cpu, int pid, int prio)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.type = DLB_EV_WAKEUP;
	e.wake.pid = pid;
	e.wake.prio = prio;
	e.wake.target_cpu = cpu;
	return e;
}

static inline struct dlb_event eb_mig(u64 ts_us, int cpu, int pid, int from, int to)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.type = DLB_EV_MIGRATE;
	e.mig.pid = pid;
	e.mig.prio = -1;
	e.mig.orig_cpu = from;
	e.mig.dest_cpu = to;
	return e;
}

static inline struct dlb_event eb_mark(u64 ts_us, int cpu, int pid, const char *text)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.pid = pid;
	e.type = DLB_EV_MARKER;
	e.mark.text = text;
	e.mark.len = strlen(text);
	return e;
}

static inline struct dlb_event eb_lost(u64 ts_us, int cpu, u64 count)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.type = DLB_EV_LOST;
	e.lost.count = count;
	return e;
}

#endif
