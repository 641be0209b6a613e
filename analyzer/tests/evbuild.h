/* SPDX-License-Identifier: GPL-2.0 */
/* Hand-built events for the metric tests: one line per event, times in µs. */
#ifndef DLB_EVBUILD_H
#define DLB_EVBUILD_H

#include <stdio.h>
#include <string.h>

#include "dlbench/marker.h"

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

/* sched_stat_runtime: the kernel charged @pid @runtime_us. */
static inline struct dlb_event eb_runtime(u64 ts_us, int cpu, int pid, u64 runtime_us)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_us * US;
	e.cpu = cpu;
	e.pid = pid;
	e.type = DLB_EV_RUNTIME;
	e.rt.pid = pid;
	e.rt.runtime = runtime_us * US;
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

/* An interrupt event (DLB_EV_IRQ_*, DLB_EV_SOFTIRQ_*) at @ts_ns: ns, for sub-µs gaps. */
static inline struct dlb_event eb_irq(u64 ts_ns, int cpu, enum dlb_ev_type type)
{
	struct dlb_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts_ns;
	e.cpu = cpu;
	e.type = type;
	e.irq.nr = 1;
	return e;
}

/*
 * A periodic DL task @tid called @name on CPU 0 (runtime 2 ms, deadline =
 * period = 10 ms): job j is released at j * 10 ms, begins 10 µs later and
 * runs @exec_us, except job @slow_job which runs @slow_us.  Returns the
 * number of events fed, or -1 if @fn failed.
 */
static inline int eb_periodic(dlb_event_fn fn, void *arg, int tid, const char *name, int jobs,
			      u64 exec_us, int slow_job, u64 slow_us)
{
	char task[DLB_MARKER_MAX], begin[DLB_MARKER_MAX], end[DLB_MARKER_MAX];
	struct dlb_event e[6];
	int j, k, n = 0;

	snprintf(task, sizeof(task), "dlb_task: tid=%d name=%s policy=deadline prio=0 "
		 "runtime=2000000 deadline=10000000 period=10000000", tid, name);
	e[0] = eb_mark(0, 0, tid, task);
	if (fn(&e[0], arg))
		return -1;
	for (j = 0; j < jobs; j++) {
		u64 rel = (u64)j * 10000, run = j == slow_job ? slow_us : exec_us;

		snprintf(begin, sizeof(begin), "dlb_job: tid=%d job=%d event=begin rel=%llu dl=%llu",
			 tid, j, (unsigned long long)(rel * US),
			 (unsigned long long)((rel + 10000) * US));
		snprintf(end, sizeof(end), "dlb_job: tid=%d job=%d event=end", tid, j);
		e[0] = eb_wake(rel + 1, 0, tid, DLB_PRIO_DL);
		e[1] = eb_switch(rel + 5, 0, 0, 120, 0, tid, DLB_PRIO_DL);
		e[2] = eb_mark(rel + 10, 0, tid, begin);
		e[3] = eb_mark(rel + 10 + run, 0, tid, end);
		e[4] = eb_switch(rel + 11 + run, 0, tid, DLB_PRIO_DL, 1, 0, 120);
		for (k = 0; k < 5; k++, n++)
			if (fn(&e[k], arg))
				return -1;
	}
	return n + 1;
}

#endif
