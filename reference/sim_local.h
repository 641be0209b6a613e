/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's insides, shared by its files: sim.c (the event queue,
 * the scheduler's callbacks, planning, the event loop, creation),
 * sim_thread.c (threads stepping through their events with the shared
 * interpreter), sim_report.c (hooks, statistics, snapshots) and
 * sim_unavail.c (the CPUs' unavailable time).
 */
#ifndef DLB_REF_SIM_LOCAL_H
#define DLB_REF_SIM_LOCAL_H

#include "dlbench/interp.h"
#include "dlbench/marker.h"

#include "sched.h"
#include "sim.h"

enum sim_ev_type {
	SE_START,		/* thread: first wake-up, after its delay */
	SE_WAKE,		/* thread: sleep or timer expiry */
	SE_DL_TIMER,		/* thread: replenishment timer */
	SE_INACTIVE_TIMER,	/* thread: GRUB's inactive timer (mainline model) */
	SE_CPU_WORK,		/* cpu: curr's work ends */
	SE_CPU_BUDGET,		/* cpu: curr's -deadline runtime ends (hrtick) */
	SE_CPU_SLICE,		/* cpu: curr's RR/fair slice ends */
	SE_CPU_TICK,		/* cpu: periodic tick (tick accounting) */
	SE_RESCHED,		/* cpu: need_resched was set */
	SE_CPU_UA_START,	/* cpu: an unavail interval of a switched kind begins (gen: its index) */
	SE_CPU_UA_END,		/* cpu: it ends */
};

struct sim_ev {
	u64 time;
	u64 seq;		/* bit 62: not a work completion; below: insertion order */
	u64 gen;
	int type;
	int idx;
};

struct evq {
	struct sim_ev *h;
	size_t n, cap;
};

/* Events due now that sort after everything already queued: a FIFO. */
struct evfifo {
	struct sim_ev *h;
	size_t head, tail, cap;
};

enum thr_state {
	THR_NEW,
	THR_READY,		/* runnable or running */
	THR_SLEEP,
	THR_LOCK,
	THR_WAIT,		/* cond, barrier, suspend */
	THR_DONE,
};

struct sim_thread {
	struct task_struct task;	/* first: &thread->task == thread */
	struct dlb_sim *sim;
	const struct wl_task *wt;
	size_t index;
	int task_idx, instance, tid;
	int fork;			/* its number among its task's forked threads; -1: not forked */
	enum thr_state st;
	struct dlb_interp it;		/* the events, the jobs (include/dlbench/interp.h) */
	int cpu;			/* the CPU it runs on during an interpreter step */

	u64 work_left, run_start;
	bool running;
	int last_cpu;
	int relock;		/* mutex to take again after a cond wake-up, or -1 */
	u64 wake_gen, timer_gen, inactive_gen;
	struct sim_thread *wait_next;

	/* the current job, beyond what the interpreter keeps */
	u64 exec0;
	bool rel_marked;	/* its release marker was written at the release instant */

	u64 nr_throttled, nr_replenished;
};

struct sim_waitq {
	struct sim_thread *head, *tail;
	unsigned int waiting;
	u64 count;			/* a semaphore's count */
	bool pending;			/* a resume no thread was suspended for yet */
};

/*
 * The kinds of unavailable time (DLB_UA_*) that are another class's task
 * taking the CPU: the scheduler switches it in, and the task it takes the
 * CPU from is switched out (not charged, pushable, pullable) as the kernel
 * does.  Any other kind (interrupts) is time taken under the running task,
 * which stays, charged as irq_time_accounting says.  A merged kind with
 * one of these bits is switched (irq+stop, irq+fair: docs/conformance.md).  A new
 * kind of this sort adds its bit here and its task in sim_unavail.c's
 * ua_task().
 */
#define SIM_UA_SWITCHED		(DLB_UA_STOP | DLB_UA_FAIR)

/* A CPU's unavailable intervals, in virtual time, in order (sim_unavail.c). */
struct sim_ua_cpu {
	struct { u64 from, to; unsigned int kind; } *v;
	size_t n;
	/* with o.irq_time_accounting: irq[i], the irq-only time of v[0..i) (n + 1) */
	u64 *irq;
	/* its stop task (migration/N), if it has switched intervals (stop, fair) */
	struct task_struct *stop;
};

struct dlb_sim {
	const struct workload *wl;
	struct dlb_sim_opts o;
	struct dl_model model;		/* o.model, parsed */
	struct sched *s;
	struct sim_thread **thr;	/* each its own allocation: the scheduler points into it */
	size_t nr_thr, cap_thr;		/* cap: wl_max_threads(), the forks included */
	int *forks;			/* per task: threads forked so far */
	struct rt_mutex *mutexes;	/* per resource */
	struct sim_waitq *waitq;	/* per resource */
	struct dlb_interp_timer *timers;	/* per resource: the shared (not "unique") timers */
	struct evq q;
	struct evfifo now_q;
	u64 seq;
	u64 now, end;
	u64 *cpu_gen;
	u64 *tick_next;			/* per CPU: the pending tick, 0 = none */
	u64 *tick_last;			/* per CPU: the last tick handled */
	u64 *server_timer_gen;		/* per CPU: the fair server's timer generation */
	struct sim_ua_cpu *ua;		/* per CPU, or NULL: no unavailable time */
	unsigned char *cpu_dirty;
	int *dirty;
	int nr_dirty;
	dlb_event_fn ev_fn;
	void *ev_arg;
	const struct dlb_marker *ev_marker;	/* emit_marker()'s, during its event */
	dlb_sim_job_fn job_fn;
	void *job_arg;
	dlb_sim_progress_fn progress_fn;
	void *progress_arg;
	int stop;			/* non-zero: a hook or an error stopped the run */
	struct dlb_err stop_err;
	u64 steps, events;
};

/* The simulator's thread of @p; NULL for the idle, stop and fair-server tasks. */
static inline struct sim_thread *thr_of(struct task_struct *p)
{
	return p->owner;
}

/* sim.c */
int sim_fork(struct dlb_sim *sim, struct sim_thread *parent, int task_idx);
void evq_push(struct dlb_sim *sim, u64 time, int type, int idx, u64 gen);
void emit(struct dlb_sim *sim, struct dlb_event *ev);
void emit_marker(struct dlb_sim *sim, int cpu, int pid, const struct dlb_marker *m);
u64 thr_exec(struct dlb_sim *sim, struct sim_thread *t);

/* sim_unavail.c: unavailable CPU time */
int sim_unavail_init(struct dlb_sim *sim, struct dlb_err *err);
void sim_unavail_free(struct dlb_sim *sim);
/* of [@a, @b), the time @cpu was unavailable */
u64 sim_unavail_between(const struct dlb_sim *sim, int cpu, u64 a, u64 b);
/* the instant from @a by which @cpu has had @work of available time */
u64 sim_avail_after(const struct dlb_sim *sim, int cpu, u64 a, u64 work);
/* sched_ops.irq_time: @cpu's uncharged interrupt time up to @now (irq_time_accounting) */
u64 sim_irq_time(void *arg, int cpu, u64 now);
/* the instant from @a by which a task on @cpu has been charged @budget */
u64 sim_charged_after(const struct dlb_sim *sim, int cpu, u64 a, u64 budget);
/* queue each CPU's first switched interval (dlb_sim_run()'s start) */
void sim_unavail_start(struct dlb_sim *sim);
/* SE_CPU_UA_START, SE_CPU_UA_END: its class's task wakes, or blocks */
void sim_unavail_event(struct dlb_sim *sim, const struct sim_ev *e);
/* the comm of a task of the simulator's own (a stop task), or NULL */
const char *sim_unavail_comm(const struct dlb_sim *sim, int pid);

/* sim_thread.c */
int sim_thread_init(struct dlb_sim *sim, struct sim_thread *t, struct dlb_err *err);
void sim_thread_wake(struct dlb_sim *sim, struct sim_thread *t, int this_cpu);
void sim_thread_release(struct dlb_sim *sim, struct sim_thread *t, u64 rel);
void sim_thread_advance(struct dlb_sim *sim, struct sim_thread *t, int cpu);

#endif
