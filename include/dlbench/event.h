/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The normalized event model: what every trace reader (trace.dat through
 * libtracecmd, the kernel's text format, trace-cmd report output, the
 * reference simulator's trace) produces, and the only thing the metric code
 * consumes.  The analyzer never needs to know where a trace came from.
 */
#ifndef DLBENCH_EVENT_H
#define DLBENCH_EVENT_H

#include <stddef.h>

#include "dltime.h"

#define DLB_COMM_LEN	16	/* TASK_COMM_LEN */

/* Kernel priority of a deadline task in sched_* events. */
#define DLB_PRIO_DL	(-1)
/*
 * The stop class's migration/N threads: sched_set_stop_task() makes them
 * SCHED_FIFO MAX_RT_PRIO - 1, so sched_switch prints prio 0 as for an RT
 * task of priority 99 (seen on 6.18): told apart by the comm.
 */
#define DLB_PRIO_STOP	0
/* The fair class's priorities: MAX_RT_PRIO (100) and up (nice -20..19: 100..139). */
#define DLB_PRIO_FAIR	100

enum dlb_ev_type {
	DLB_EV_SWITCH = 1,	/* sched_switch */
	DLB_EV_WAKEUP,		/* sched_wakeup */
	DLB_EV_WAKEUP_NEW,	/* sched_wakeup_new */
	DLB_EV_WAKING,		/* sched_waking */
	DLB_EV_MIGRATE,		/* sched_migrate_task */
	DLB_EV_RUNTIME,		/* sched_stat_runtime */
	DLB_EV_EXIT,		/* sched_process_exit */
	DLB_EV_THROTTLE,	/* dl_throttle: runtime exhausted (reference, or patched kernels) */
	DLB_EV_REPLENISH,	/* dl_replenish: new runtime and deadline */
	DLB_EV_MARKER,		/* tracing_mark_write / print */
	DLB_EV_LOST,		/* the ring buffer dropped events here */
	DLB_EV_IRQ_ENTRY,	/* irq_handler_entry, and x86's irq_vectors *_entry */
	DLB_EV_IRQ_EXIT,	/* irq_handler_exit, irq_vectors *_exit */
	DLB_EV_SOFTIRQ_ENTRY,	/* softirq_entry */
	DLB_EV_SOFTIRQ_EXIT,	/* softirq_exit */
};

struct dlb_event {
	u64 ts;			/* ns on the trace clock */
	int cpu;		/* CPU whose buffer recorded the event */
	int pid;		/* common_pid: who was running when it was recorded */
	enum dlb_ev_type type;
	union {
		struct {
			int prev_pid, next_pid;
			int prev_prio, next_prio;	/* DL: -1 */
			long prev_state;		/* 0: runnable (preempted); the
							 * kernel's raw value may add
							 * 0x100 (TASK_REPORT_MAX,
							 * printed "R+"): runnable is
							 * (prev_state & 0xff) == 0 */
			char prev_comm[DLB_COMM_LEN], next_comm[DLB_COMM_LEN];
		} sw;
		struct {		/* WAKEUP, WAKEUP_NEW, WAKING */
			int pid, prio, target_cpu;
			char comm[DLB_COMM_LEN];
		} wake;
		struct {
			int pid, prio, orig_cpu, dest_cpu;
			char comm[DLB_COMM_LEN];
		} mig;
		struct {
			int pid;
			u64 runtime;	/* ns just accounted */
			char comm[DLB_COMM_LEN];
		} rt;
		struct {
			int pid;
			char comm[DLB_COMM_LEN];
		} exit;
		struct {		/* THROTTLE, REPLENISH */
			int pid;
			s64 runtime;	/* remaining runtime after the event */
			u64 deadline;	/* absolute deadline after the event */
			char comm[DLB_COMM_LEN];
		} dl;
		struct {
			const char *text;	/* valid until the next event */
			size_t len;		/* without trailing newline */
		} mark;
		struct {
			u64 count;	/* events lost; 0 if the reader cannot tell */
		} lost;
		struct {		/* IRQ_*, SOFTIRQ_* */
			int nr;		/* irq number, x86 vector (irq_vectors), softirq vec */
		} irq;
	};
};

/* A consumer of a stream of events, in time order.  Non-zero stops it. */
typedef int (*dlb_event_fn)(const struct dlb_event *ev, void *arg);

const char *dlb_ev_type_str(enum dlb_ev_type type);

/* A switch's prev was switched out runnable (preempted): its state's low byte is 0. */
static inline bool dlb_ev_prev_runnable(const struct dlb_event *ev)
{
	return !(ev->sw.prev_state & 0xff);
}

#endif
