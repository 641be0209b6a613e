/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interpreter of a thread's rt-app events: what run, runtime, sleep,
 * timer, lock/unlock, wait/signal/broad/sync, barrier, yield,
 * suspend/resume, sem_post/sem_wait, mem, memrun, iorun and fork mean, what a phase's
 * cpus do, and where a job begins and ends, written
 * once for every backend.  A backend (the kernel's real threads, the
 * reference simulator) supplies the primitive operations in a
 * struct dlb_interp_ops: burn CPU, sleep until an instant, take a lock,
 * wait on a condition, a barrier or a wake-up, write a job marker.
 *
 * Why a step function and not a blocking call.  The simulator is
 * event-driven: a simulated thread that sleeps or waits must hand control
 * back to the event loop and be continued later, from the event that
 * blocked.  So the interpreter keeps its position (phase, event, loops,
 * the open job) in struct dlb_interp and dlb_interp_step() runs events
 * until an operation answers DLB_INTERP_BLOCKED ("started: call me again
 * when it is done"), the thread ends, or the run stops.  A backend with
 * real threads simply never answers BLOCKED: its operations block in the
 * kernel and answer DONE, so for it one dlb_interp_step() call is the
 * thread's whole life, a plain loop with no state machine on its side.
 *
 * One rule fixes when an event counts as done: an event is consumed when
 * its operation starts, except run/runtime, whose work is the event and
 * which are consumed when the work ends.  That rule decides where a job
 * ends when a blocking event is the last of a pass.
 *
 * Jobs (the same on every backend; docs/rt-app.md, "Jobs"):
 *  - one pass over a phase's events is one job;
 *  - release: the expiry of the timer (or the end of the sleep) that ended
 *    the previous pass, else the instant the pass starts (t_first for the
 *    first); begin: the instant the thread starts executing the pass;
 *  - end: the pass's last event: a final timer or sleep ends the job when
 *    the thread reaches it (before it sleeps), any other last event when
 *    it is done;
 *  - a task without a timer that suspends is a sporadic task: the job ends
 *    at the suspend and the next one is released when it is resumed;
 *  - deadline: release + dl-deadline for SCHED_DEADLINE tasks, else none.
 *
 * Locking: a struct dlb_interp belongs to one thread; the interpreter
 * touches shared state only through the ops (a shared timer between
 * timer_get and timer_put).
 */
#ifndef DLBENCH_INTERP_H
#define DLBENCH_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dltime.h"
#include "error.h"
#include "workload.h"

/* What an operation, and dlb_interp_step(), answer. */
enum dlb_interp_rc {
	DLB_INTERP_DONE,	/* op: done, the thread goes on */
	DLB_INTERP_BLOCKED,	/* the thread waits (or lost its CPU): step again later */
	DLB_INTERP_STOP,	/* the run is ending: the thread leaves now */
	DLB_INTERP_EXIT,	/* step: the thread ran its last event (task loop done) */
	DLB_INTERP_LIVELOCK,	/* step: max_events events in one call, none blocked */
};

/* rt-app's timer: the next expiry, set from the first user's t_first. */
struct dlb_interp_timer {
	bool init;
	u64 next;
};

struct dlb_interp;

/* The backend's thread around @it: its struct dlb_interp is member @member of @type. */
#define dlb_interp_entry(it, type, member)	\
	((type *)((char *)(it) - offsetof(type, member)))

/*
 * The backend.  Operations that may block answer an enum dlb_interp_rc;
 * a NULL optional one is a no-op.  @it is the calling thread's interpreter
 * (container_of() it to the backend's thread).
 */
struct dlb_interp_ops {
	u64 (*now)(struct dlb_interp *it);
	/* false: the thread may not go on (run stopping, CPU lost): step returns */
	bool (*running)(struct dlb_interp *it);			/* optional */
	/* run/runtime: burn ev->duration_ns (> 0) of CPU, as the event says */
	int (*run)(struct dlb_interp *it, const struct wl_event *ev);
	/* sleep until the absolute instant @t (a release at or after the run's end: STOP) */
	int (*sleep_until)(struct dlb_interp *it, u64 t);
	int (*lock)(struct dlb_interp *it, int mutex);
	void (*unlock)(struct dlb_interp *it, int mutex);	/* only if this thread holds it */
	/* release @mutex (< 0: none) if held, wait for a signal on @cond, take @mutex again */
	int (*cond_wait)(struct dlb_interp *it, int cond, int mutex);
	void (*cond_signal)(struct dlb_interp *it, int cond, bool all);
	int (*barrier)(struct dlb_interp *it, int barrier);
	int (*yield)(struct dlb_interp *it);
	int (*suspend)(struct dlb_interp *it, int wakeup);
	void (*resume)(struct dlb_interp *it, int wakeup);
	void (*mem)(struct dlb_interp *it, u64 bytes);		/* optional */
	void (*iorun)(struct dlb_interp *it, u64 bytes);	/* optional */
	/*
	 * memrun on buffer @res (wl->resources[@res]; per thread if unique):
	 * @count bytes read or written, or @count pointer hops of a chase.
	 * Optional.
	 */
	void (*memrun)(struct dlb_interp *it, int res, u64 count);
	/* a counting semaphore from 0: post never blocks, wait while the count is 0 */
	void (*sem_post)(struct dlb_interp *it, int sem);
	int (*sem_wait)(struct dlb_interp *it, int sem);
	/*
	 * fork: one more thread of task @task (an index in wl->tasks), now;
	 * it starts at once (at its t_first if that is later).  STOP: it
	 * could not (WL_FORK_LIMIT reached), the backend says why.
	 */
	int (*fork)(struct dlb_interp *it, int task);
	/*
	 * A phase with its own "cpus" starts (or the next one falls back to
	 * the task's): the thread may now use @cpus only (NULL: every CPU).
	 * Called only when the mask changes; the backend set the task's own
	 * before the thread started.  Needed by workloads with phase cpus.
	 */
	int (*set_affinity)(struct dlb_interp *it, const struct dlb_cpumask *cpus);
	/*
	 * A phase with a "taskgroup" starts and the thread is in another one:
	 * move it to wl->taskgroups[@tg] (rt-app's set_thread_taskgroup; it
	 * stays there until a later phase names another).  Optional: a
	 * backend without group scheduling leaves it NULL.
	 */
	int (*set_taskgroup)(struct dlb_interp *it, int tg);
	/*
	 * A phase with its own clamps ("util_min"/"util_max") starts, and the
	 * clamps the thread set last are not this phase's: set those @u sets,
	 * keep the others (rt-app's set_thread_param sets a phase's
	 * sched_data unless it is the one set last).  Optional: a backend
	 * without utilization clamping leaves it NULL.
	 */
	int (*set_uclamp)(struct dlb_interp *it, const struct wl_uclamp *u);
	/*
	 * A phase with its own "nodes_membind" starts and its nodes are not
	 * the ones the thread is bound to: bind its memory to @m's nodes
	 * (rt-app's set_thread_membind; the binding is kept until a later
	 * phase sets other nodes).  The backend bound the thread to the
	 * task's nodes before it started.  Optional: a backend without a
	 * memory model leaves it NULL.
	 */
	int (*set_membind)(struct dlb_interp *it, const struct wl_membind *m);
	/* a timer shared by every thread using @res ("ref" not "unique..."), held until put */
	struct dlb_interp_timer *(*timer_get)(struct dlb_interp *it, int res);
	void (*timer_put)(struct dlb_interp *it, int res);	/* optional */
	/* a job opened / closed: it->job, it->rel, it->dl, it->begin, ... are set */
	void (*job_begin)(struct dlb_interp *it);		/* optional */
	void (*job_end)(struct dlb_interp *it);			/* optional */
};

/* One entry of the optional event log: the event a thread started. */
struct dlb_interp_logent {
	unsigned int phase, ev;
};

struct dlb_interp {
	const struct dlb_interp_ops *ops;
	const struct workload *wl;
	const struct wl_task *task;
	unsigned long max_events;	/* per step call, 0: no limit (set by the backend) */

	/* position */
	size_t phase, ev;
	int ploop, tloop;
	bool in_run;			/* a run's work is under way: consumed when it ends */
	bool exit_pending;		/* the task loop is done: leave at the next step */
	bool has_timer;			/* the task has a timer event */
	bool phase_cpus;		/* a phase has "cpus": affinity follows the phases */
	const struct dlb_cpumask *cpus;	/* the affinity the thread has now, NULL: all */
	int taskgroup;			/* the thread's taskgroup now, -1: where it started */
	int uclamp_phase;		/* the phase whose clamps it set last, -1: the task's */
	const struct wl_membind *membind;	/* the binding set last, NULL: none (all nodes) */
	u64 t_first;			/* run start + delay: rt-app's t_first */
	struct dlb_interp_timer *timers;	/* per resource: this thread's "unique" timers */

	/* the current job; job is its 0-based index (jobs begun before it) */
	bool in_job;
	u64 job;
	u64 rel, dl, begin, end;	/* dl = 0: no deadline (not SCHED_DEADLINE) */
	u64 rel_dl;			/* the task's relative deadline, 0 if none */
	u64 run_ns, period_ns;		/* nominal work and timer periods of the job */
	/*
	 * Wall time of the job's run events, each from its start to the end
	 * of its work (preemption inside included, sleeps and waits between
	 * them not): rt-app's "run" log column (rt-app.c, ldata->duration).
	 */
	u64 run_wall_ns;
	u64 run_t0;			/* when the run under way started */
	s64 slack;			/* next timer expiry - now, at the job's timer */
	bool have_next_rel;
	u64 next_rel;

	/* finished jobs */
	u64 jobs, misses;
	s64 max_lateness;

	/* optional log of the events started, in order (dlb_interp_log_enable) */
	struct dlb_interp_logent *log;
	size_t nr_log, cap_log, max_log;
	bool log_truncated;
};

/*
 * Set up @it for one thread of @task (of @wl) on backend @ops.  0, or -1
 * with @err (out of memory, a phase without events).  Free with
 * dlb_interp_fini().
 */
int dlb_interp_init(struct dlb_interp *it, const struct workload *wl, const struct wl_task *task,
		    const struct dlb_interp_ops *ops, struct dlb_err *err);
void dlb_interp_fini(struct dlb_interp *it);

/* Keep a log of up to @max events (0: unbounded) the thread starts. */
#define DLB_INTERP_LOG_MAX	(1u << 20)	/* what dlb-rtapp -E keeps per thread */
void dlb_interp_log_enable(struct dlb_interp *it, size_t max);
/*
 * Allocate the whole log now (a bounded one: after dlb_interp_log_enable
 * with @max > 0), so that no event allocates: for a real-time thread.
 * 0, or -1 when out of memory.
 */
int dlb_interp_log_reserve(struct dlb_interp *it);
/* The log, one "PHASE KEY" line per event (phase index, event key), no times.  0, or -1 on a write error. */
int dlb_interp_log_write(const struct dlb_interp *it, FILE *f);

/* The thread starts at @t_first (run start + delay): its first release. */
void dlb_interp_start(struct dlb_interp *it, u64 t_first);

/*
 * A forked thread starts at @now, later than its @t_first (run start +
 * delay, still rt-app's base of its timers): its first release is @now.
 */
void dlb_interp_start_forked(struct dlb_interp *it, u64 t_first, u64 now);

/*
 * Run events from where the thread is until one blocks (BLOCKED), the
 * thread ends (EXIT), the run stops (STOP) or max_events pass (LIVELOCK).
 * After BLOCKED, call again when the blocking operation is done.
 */
int dlb_interp_step(struct dlb_interp *it);

/* The thread leaves now (run end, stop): its open job ends here. */
void dlb_interp_finish(struct dlb_interp *it);

#endif
