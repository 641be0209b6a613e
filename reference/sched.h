/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference scheduler's internals: the seed's data structures (patches
 * 002, 003, 005, 006, 007) with the seed's names, in user space.
 *
 * One struct rq per simulated CPU, each with a dl_rq (the seed's EDF run
 * queue), an rt_rq and a cfs_rq (stand-ins for the lower classes).  One
 * root_domain spans all CPUs: the dl overload mask, the cpudl heap and the
 * admitted bandwidth.  Locks do not exist: the simulator runs one
 * scheduling operation at a time, so every "racy" read of the seed is exact
 * here (see docs/reference.md, "deviations").
 *
 * Only the library (sched_*.c, cpudl.c, invariants.c) includes this; the
 * simulator uses sched_api below.
 */
#ifndef DLB_REF_SCHED_H
#define DLB_REF_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "dlbench/cpumask.h"
#include "dlbench/dlparam.h"
#include "dlbench/dltime.h"
#include "dlbench/error.h"

#include "cpudl.h"
#include "opstat.h"
#include "rbtree.h"

/* Policies (the kernel's numbers). */
#define SCHED_NORMAL	0
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_BATCH	3
#define SCHED_IDLE	5
#define SCHED_DEADLINE	6

/* Priorities (include/linux/sched.h, patch 002). */
#define MAX_DL_PRIO	0
#define MAX_USER_RT_PRIO 100
#define MAX_RT_PRIO	MAX_USER_RT_PRIO
#define MAX_PRIO	(MAX_RT_PRIO + 40)
#define DEFAULT_PRIO	(MAX_RT_PRIO + 20)
#define NICE_TO_PRIO(n)	(MAX_RT_PRIO + (n) + 20)

/* Task states, values as the kernel's (prev_state in sched_switch). */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_DEAD		0x0010	/* printed X */
#define TASK_REPORT_MAX		0x0100	/* "+": preempted while runnable */

/* enqueue/dequeue flags (kernel/sched.c of 3.2, ENQUEUE_REPLENISH from 002). */
#define ENQUEUE_WAKEUP		1
#define ENQUEUE_HEAD		2
#define ENQUEUE_WAKING		4
#define ENQUEUE_REPLENISH	8
#define DEQUEUE_SLEEP		1

/* select_task_rq sd_flag values that matter here. */
#define SD_BALANCE_EXEC		0x0004
#define SD_BALANCE_FORK		0x0008
#define SD_BALANCE_WAKE		0x0010

/* RR and fair stand-in time slices. */
#define RR_TIMESLICE_NS		(100 * NSEC_PER_MSEC)	/* DEF_TIMESLICE */
#define FAIR_SLICE_NS		(3 * NSEC_PER_MSEC)	/* sched_min_granularity */

/*
 * Fair weights: nice 0's, and SCHED_IDLE's minimal one (kernel/sched/sched.h
 * NICE_0_LOAD without the fixed-point shift, WEIGHT_IDLEPRIO).
 */
#define NICE_0_WEIGHT		1024
#define WEIGHT_IDLEPRIO		3

struct rq;
struct task_struct;
struct rt_mutex;

/*
 * A task blocked on an rt_mutex: kernel/rtmutex.c keeps it on the stack of
 * rt_mutex_slowlock(); here it lives in the task (a task blocks on one
 * mutex at a time), so blocking allocates nothing.
 */
struct rt_mutex_waiter {
	struct task_struct *task;
	struct rt_mutex_waiter *next;	/* sorted: rt_mutex_waiter_less() */
};

struct sched_stats_dl {			/* patch 005 */
	u64 last_dmiss;
	u64 last_rorun;
	u64 dmiss_max;
	u64 rorun_max;
};

/* The hrtimer, simulated: the simulator owns the event, we keep its state. */
struct dl_hrtimer {
	bool active;
	u64 expires;
};

struct sched_dl_entity {		/* patch 002, 006 */
	struct rb_node rb_node;
	int nr_cpus_allowed;

	u64 dl_runtime;		/* maximum runtime for each instance	*/
	u64 dl_deadline;	/* relative deadline of each instance	*/
	u64 dl_period;		/* separation of two instances (period)	*/
	u64 dl_bw;		/* dl_runtime / dl_period, BW_SHIFT	*/

	s64 runtime;		/* remaining runtime for this instance	*/
	u64 deadline;		/* absolute deadline for this instance	*/
	unsigned int flags;

	int dl_throttled, dl_new, dl_boosted;
	/*
	 * [mainline 5.10, 2279f540ea7d "sched/deadline: Fix priority
	 * inheritance with multiple scheduling classes"] when boosted, the
	 * donor's pi_se (the entity at the end of the chain), else this
	 * entity.  Read only with dl_model.pi_se; dl_boosted stays the
	 * model's is_dl_boosted().
	 */
	struct sched_dl_entity *pi_se;

	/*
	 * The dl_server (mainline 6.12, struct sched_dl_entity): this entity
	 * serves a lower class (the fair server) instead of being a task's;
	 * active while it has work, deferred until zero laxity (dl_defer),
	 * its zero-laxity timer armed (dl_defer_armed) or, after that timer,
	 * running as an ordinary -deadline reservation (dl_defer_running).
	 * Always 0 for v4 and for tasks.
	 */
	int dl_server, dl_server_active, dl_defer, dl_defer_armed, dl_defer_running;
	int dl_yielded;

	/*
	 * GRUB (mainline 4.13): blocked before its 0-lag time, the entity
	 * still counts in running_bw until inactive_timer fires.  Always 0
	 * for v4.
	 */
	int dl_non_contending;
	struct dl_hrtimer inactive_timer;

	struct dl_hrtimer dl_timer;
	struct sched_stats_dl stats;
};

struct sched_entity {
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 nr_migrations;
	u64 exec_max;
	u64 nr_wakeups;
	u64 slice_used;		/* fair/RR stand-in: time used in this slice */
	unsigned long weight;	/* fair stand-in: load weight (set_load_weight()) */
};

struct task_struct {
	int pid;
	char comm[16];
	long state;
	int on_rq;		/* queued in its class (or throttled -dl) */
	int on_cpu;		/* is some rq's curr */
	int cpu;		/* task_cpu() */

	int prio, normal_prio, static_prio, rt_priority;
	int policy;
	const struct sched_class *sched_class;
	struct sched_entity se;
	struct sched_dl_entity dl;

	struct rb_node pushable_dl_tasks;	/* patch 003 */

	/* rt_rq / cfs_rq stand-ins: one doubly linked run list per rq */
	struct task_struct *run_next, *run_prev;
	int on_list;

	struct dlb_cpumask cpus_allowed;

	/* PI (patch 006): the top waiter task, the mutex we block on */
	struct task_struct *pi_top_task;
	struct rt_mutex *pi_blocked_on;
	struct rt_mutex_waiter pi_waiter;	/* on pi_blocked_on's waiter list */
	struct rt_mutex *held_locks;	/* singly linked through rt_mutex.next_held */

	u64 nr_switches;		/* voluntary + involuntary */
	u64 nr_voluntary_switches;
	u64 nr_involuntary_switches;

	void *owner;			/* the simulator's thread */
	struct sched *sched;
	struct task_struct *next_task;	/* all tasks of the sched */
};

struct dl_rq {				/* patches 002, 003, 005 */
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;

	unsigned long dl_nr_running;
	u64 exec_clock;

	struct {
		u64 curr;
		u64 next;
	} earliest_dl;

	unsigned long dl_nr_migratory;
	unsigned long dl_nr_total;
	int overloaded;

	struct rb_root pushable_dl_tasks_root;
	struct rb_node *pushable_dl_tasks_leftmost;

	/*
	 * GRUB (mainline 4.13, struct dl_rq), BW_SHIFT units; kept only by a
	 * model with dl_model.grub: running_bw, the active utilization (the
	 * contending tasks and the non-contending ones before their 0-lag
	 * time); this_bw, of every -deadline task on this rq; extra_bw, what
	 * admission left unallocated (max_bw less the root domain's total per
	 * CPU); max_bw, sched_rt_runtime / sched_rt_period (6.5); bw_ratio,
	 * 1 / max_bw in RATIO_SHIFT units.
	 */
	u64 running_bw;
	u64 this_bw;
	u64 extra_bw;
	u64 max_bw;
	u64 bw_ratio;
};

/*
 * Stand-in for the RT and fair classes: a list, RT's ordered by prio and
 * FIFO within, fair's FIFO (weighted round robin: sched_core.c).
 */
struct list_rq {
	struct task_struct *head, *tail;
	unsigned long nr_running;
	unsigned long load;	/* fair: sum of the queued tasks' weights */
};

struct dl_bw {
	s64 bw;			/* capacity per CPU, BW_SHIFT units; -1 = no limit */
	u64 total_bw;		/* admitted -deadline bandwidth */
};

struct root_domain {
	struct dlb_cpumask span;
	struct dlb_cpumask online;
	struct dlb_cpumask dlo_mask;	/* patch 003 */
	int dlo_count;
	struct dl_bw dl_bw;
	u64 reserved_bw;		/* per CPU, not for -deadline (fair server) */
	struct cpudl cpudl;		/* patch 007 */
};

struct rq {
	int cpu;
	int online;
	u64 clock;
	unsigned long nr_running;
	struct task_struct *curr, *idle;
	/*
	 * rq->stop: the CPU's stop-class task (the kernel's migration/N, the
	 * cpu stopper), or NULL; set by sched_set_stop_task().
	 */
	struct task_struct *stop;
	struct dl_rq dl;
	struct list_rq rt;
	struct list_rq cfs;
	int post_schedule;
	int need_resched;
	u64 nr_switches;
	struct root_domain *rd;
	struct sched *s;
	unsigned long nr_running_seen;	/* invariants.c's count, nothing else */
	/*
	 * Mainline 6.12: rq->fair_server, the per-CPU dl_server of the fair
	 * class, and rq->dl_server, the server whose pick is running now (NULL:
	 * none).  Deviation: the server's entity lives in a task_struct that
	 * never runs (pid 0, "fair_server", pinned here), so the v4 dl_rq code
	 * that reads dl_task_of() of a queued entity serves it unchanged.
	 */
	struct task_struct fair_server;
	struct sched_dl_entity *dl_server;
};

struct sched_class {
	const struct sched_class *next;
	void (*enqueue_task)(struct rq *rq, struct task_struct *p, int flags);
	void (*dequeue_task)(struct rq *rq, struct task_struct *p, int flags);
	void (*yield_task)(struct rq *rq);
	void (*check_preempt_curr)(struct rq *rq, struct task_struct *p, int flags);
	struct task_struct *(*pick_next_task)(struct rq *rq);
	void (*put_prev_task)(struct rq *rq, struct task_struct *p);
	int (*select_task_rq)(struct task_struct *p, int sd_flag, int flags);
	void (*pre_schedule)(struct rq *rq, struct task_struct *prev);
	void (*post_schedule)(struct rq *rq);
	void (*task_woken)(struct rq *rq, struct task_struct *p);
	void (*set_cpus_allowed)(struct task_struct *p, const struct dlb_cpumask *new_mask);
	void (*rq_online)(struct rq *rq);
	void (*rq_offline)(struct rq *rq);
	void (*set_curr_task)(struct rq *rq);
	void (*task_tick)(struct rq *rq, struct task_struct *p, int queued);
	void (*switched_from)(struct rq *rq, struct task_struct *p);
	void (*switched_to)(struct rq *rq, struct task_struct *p);
	void (*prio_changed)(struct rq *rq, struct task_struct *p, int oldprio);
	const char *name;
};

extern const struct sched_class stop_sched_class;
extern const struct sched_class dl_sched_class;
extern const struct sched_class rt_sched_class;
extern const struct sched_class fair_sched_class;
extern const struct sched_class idle_sched_class;

enum cpu_select {
	CPU_SELECT_HEAP,	/* cpudl_find, patch 007 */
	CPU_SELECT_LINEAR,	/* latest_cpu_find, patch 004 */
};

/*
 * What the scheduler asks of its environment (the simulator): timers,
 * rescheduling of a CPU, trace points.  All may be NULL.
 */
struct sched_ops {
	void (*resched_cpu)(void *arg, int cpu);
	void (*timer_start)(void *arg, struct task_struct *p, u64 expires);
	void (*timer_cancel)(void *arg, struct task_struct *p);
	void (*trace_switch)(void *arg, int cpu, struct task_struct *prev, long prev_state,
			     struct task_struct *next);
	void (*trace_wakeup)(void *arg, struct task_struct *p, int cpu);
	void (*trace_migrate)(void *arg, struct task_struct *p, int orig_cpu, int dest_cpu);
	void (*trace_runtime)(void *arg, struct task_struct *p, u64 delta);
	void (*trace_throttle)(void *arg, struct task_struct *p);
	void (*trace_replenish)(void *arg, struct task_struct *p);
	/*
	 * CONFIG_IRQ_TIME_ACCOUNTING's irq_time_read(): the interrupt time
	 * @cpu has had up to @now, which rq_clock_task() leaves out.  NULL: a
	 * kernel without the option, rq_clock_task() == rq_clock().
	 */
	u64 (*irq_time)(void *arg, int cpu, u64 now);
	/* GRUB's inactive timer (mainline model): one per task, as dl_timer */
	void (*inactive_timer_start)(void *arg, struct task_struct *p, u64 expires);
	void (*inactive_timer_cancel)(void *arg, struct task_struct *p);
	void *arg;
};

/*
 * The rules a run follows.  v4 (dl_model_v4, sched_dl.c) is the seeds'
 * scheduler; mainline (sched_dl_mainline.c) is kernel/sched/deadline.c of
 * the version asked for: each hook is one mainline function, on from the
 * kernel version that brought it.  sched_dl.c calls the hooks where the
 * kernel calls those functions; a NULL hook is a rule the version lacks.
 */
#define DL_KVER(maj, min)	((maj) * 1000u + (min))
/* The newest kernel whose rules are modelled (this machine runs 6.18). */
#define DL_KVER_NEWEST		DL_KVER(6, 18)

struct dl_model {
	char name[24];			/* "v4", "mainline:6.18" */
	unsigned int version;		/* DL_KVER(); 0 for v4 */
	/* update_dl_entity(): the CBS wake-up rule */
	void (*update_dl_entity)(struct sched_dl_entity *dl_se, struct sched_dl_entity *pi_se);
	/* dl_check_constrained_dl(): enqueue_task_dl() of a constrained task */
	void (*check_constrained_dl)(struct sched_dl_entity *dl_se);
	/* the instant start_dl_timer() arms the replenishment timer for */
	u64 (*timer_expiry)(struct sched_dl_entity *dl_se);
	u64 fair_server_bw;		/* per CPU, BW_SHIFT units, counted by admission */
	/*
	 * The fair server as a scheduled dl_server (6.12): fair.c's calls into
	 * deadline.c.  All NULL for a kernel without it (v4, before 6.12).
	 */
	void (*dl_server_start)(struct sched_dl_entity *dl_se);
	void (*dl_server_stop)(struct sched_dl_entity *dl_se);
	void (*dl_server_update)(struct sched_dl_entity *dl_se, s64 delta_exec);
	void (*dl_server_timer)(struct sched_dl_entity *dl_se);
	/* fair_server_init(): its runtime and period, ns */
	u64 fair_server_runtime, fair_server_period;
	/*
	 * dl_server_update_idle_time() (6.12, a110a81c52a9 "sched/deadline:
	 * Deferrable dl server"): idle time lowers the deferred server's
	 * runtime as fair time does; idle.c put_prev_task_idle() and
	 * enqueue_task_fair() call it.  NULL for v4 and before 6.12.
	 */
	void (*dl_server_update_idle_time)(struct rq *rq, struct task_struct *p);
	/*
	 * The lazy stop (6.17, cccb45d7c429 "sched/deadline: Less agressive
	 * dl_server handling" as fixed by a3a70caf7906 "sched/deadline: Fix
	 * dl_server behaviour", both in 6.17): dequeue_task_fair() no longer
	 * stops the server when the last fair task leaves; __pick_task_dl()
	 * stops it at a pick that finds no fair task.
	 */
	bool dl_server_lazy_stop;
	/*
	 * GRUB reclaiming (4.13): running_bw/this_bw per rq, the inactive
	 * timer, grub_reclaim() for SCHED_FLAG_RECLAIM tasks (sched_dl_mainline.c).
	 * grub_max_bw: grub_reclaim() scales by max_bw (6.5, 6a9d623aad89 "sched/deadline:
	 * Fix bandwidth reclaim equation in GRUB") instead of by 1.
	 */
	bool grub, grub_max_bw;
	/*
	 * dl_task_timer() of a throttled task that is not queued (it blocked
	 * as it was throttled): replenish it now, enqueue at its wake-up
	 * (4.2, "sched/deadline: Fix sched class hopping CBS hole").  v4 only
	 * clears dl_throttled and lets the wake-up rule decide.
	 */
	bool replenish_sleeper;
	/*
	 * rt_mutex_setprio() boosts a -deadline owner only for a top waiter
	 * that runs at -deadline priority, "dl_prio(pi_task->prio)" (5.8,
	 * 740797ce3a12, "sched/core: Fix PI boosting between RT and DEADLINE
	 * tasks").  Before, any top waiter with an earlier dl.deadline boosted:
	 * an RT waiter's unused 0 did, and the owner, boosted on its own
	 * parameters, was never throttled until it unlocked.  v4 keeps the
	 * fixed rule (a seed bug fix, docs/reference.md).
	 */
	bool pi_boost_dl_waiter;
	/*
	 * rt_mutex_setprio() hands a boosted owner its direct top waiter's
	 * pi_se, "p->dl.pi_se = pi_task->dl.pi_se", and enqueue_task_dl()
	 * and replenish_dl_entity() use pi_of(dl_se) (5.10, 2279f540ea7d,
	 * "sched/deadline: Fix priority inheritance with multiple scheduling
	 * classes"): an owner whose -deadline top waiter is itself boosted
	 * runs on the parameters of the task at the end of the chain.
	 * Before, enqueue_task_dl() took the top waiter's own parameters
	 * (v4 too, with its seed fix for a chain through tasks that are not
	 * -deadline: pi_dl_top_task()).
	 */
	bool pi_se;
};

/*
 * The fair server's default reservation (6.12, "sched/fair: Fair server
 * interface"; fair_server_init(): 50 ms every 1 s per CPU), counted by
 * admission as dl_server_apply_params() adds it to the root domain.
 */
#define DL_FAIR_SERVER_BW	((50ULL * NSEC_PER_MSEC << BW_SHIFT) / NSEC_PER_SEC)

extern const struct dl_model dl_model_v4;
/*
 * "v4", "mainline" (the newest modelled) or "mainline:MAJ.MIN"; fills @m.
 * -1 on a name or version not modelled.
 */
int dl_model_parse(const char *s, struct dl_model *m);
void dl_model_mainline(unsigned int version, struct dl_model *m);

struct sched {
	const struct dl_model *model;	/* never NULL: &dl_model_v4 by default */
	int nr_cpus;
	struct rq *rqs;
	struct task_struct *idle_tasks;
	struct root_domain rd;
	enum cpu_select cpu_select;
	int this_cpu;			/* smp_processor_id(): CPU running the code */
	u64 now;			/* the simulator's clock */
	struct sched_ops ops;
	struct dlb_opstat opstat;
	struct dlb_cpumask *local_cpu_mask_dl;	/* per CPU scratch masks */
	struct task_struct *tasks;	/* every task, for the invariants */
	u64 warnings;			/* WARN_ON()s that fired */
	const char *last_warning;
};

/* --- accessors, as in the kernel --------------------------------------- */

/*
 * dlb_cpumask_next() for a mask with no CPU at or above @nr: the scan ends
 * at @nr instead of DLB_MAX_CPUS, as the kernel's for_each_cpu() ends at
 * nr_cpu_ids (after the last CPU of a 64-CPU mask, 1 word read, not 15).
 */
static inline unsigned int cpumask_next_below(const struct dlb_cpumask *m, unsigned int from,
					      unsigned int nr)
{
	unsigned int i;

	for (i = from; i < nr; i++) {
		u64 w = m->bits[i / 64] >> (i % 64);

		if (w) {
			i += (unsigned int)__builtin_ctzll(w);
			return i < nr ? i : nr;
		}
		i |= 63;
	}
	return nr;
}

#define for_each_cpu_below(cpu, mask, nr)					\
	for ((cpu) = cpumask_next_below((mask), 0, (nr)); (cpu) < (nr);		\
	     (cpu) = cpumask_next_below((mask), (cpu) + 1, (nr)))

static inline struct rq *cpu_rq(struct sched *s, int cpu)
{
	return &s->rqs[cpu];
}

static inline int task_cpu(const struct task_struct *p)
{
	return p->cpu;
}

static inline struct task_struct *dl_task_of(struct sched_dl_entity *dl_se)
{
	return rb_entry(dl_se, struct task_struct, dl);
}

static inline int dl_prio(int prio)
{
	return prio < MAX_DL_PRIO;
}

static inline int dl_task(const struct task_struct *p)
{
	return dl_prio(p->prio);
}

static inline int rt_prio(int prio)
{
	return prio >= MAX_DL_PRIO && prio < MAX_RT_PRIO;
}

static inline int rt_task(const struct task_struct *p)
{
	return rt_prio(p->prio);
}

static inline int dl_policy(int policy)
{
	return policy == SCHED_DEADLINE;
}

static inline int task_has_dl_policy(const struct task_struct *p)
{
	return dl_policy(p->policy);
}

static inline int task_current(struct rq *rq, struct task_struct *p)
{
	return rq->curr == p;
}

static inline int task_running(struct rq *rq, struct task_struct *p)
{
	(void)rq;
	return p->on_cpu;
}

/* The kernel's WARN_ON: count it, remember the first, carry on. */
#define WARN_ON_S(s, cond) ({						\
	int __c = !!(cond);						\
	if (__c) {							\
		(s)->warnings++;					\
		if (!(s)->last_warning)					\
			(s)->last_warning = __FILE__ ":" DLB_STR(__LINE__) ": " #cond; \
	}								\
	__c;								\
})
#define DLB_STR2(x) #x
#define DLB_STR(x) DLB_STR2(x)


/* --- PI mutex (rt_mutex with the v4 rb-tree/deadline ordering) ---------- */
struct rt_mutex {
	struct task_struct *owner;
	struct rt_mutex_waiter *waiters;	/* head = top waiter */
	struct rt_mutex *next_held;		/* owner's held list */
	bool pi;				/* priority/deadline inheritance */
};

/* --- the library's entry points, for the simulator ---------------------- */
struct sched_create_opts {
	int nr_cpus;
	enum cpu_select cpu_select;
	bool admission;			/* refuse over-subscription (EBUSY) */
	u64 rt_runtime_us, rt_period_us;	/* sched_rt_{runtime,period}_us */
	u64 reserved_bw;		/* per CPU, BW_SHIFT units (fair server) */
	const struct dl_model *model;	/* NULL: v4 */
	bool timed;			/* time every push/pull/find/set */
};

struct sched *sched_create(const struct sched_create_opts *o, const struct sched_ops *ops,
			   struct dlb_err *err);
void sched_free(struct sched *s);
/* A new task, SCHED_NORMAL nice 0, not runnable, on @cpu. */
void sched_task_init(struct sched *s, struct task_struct *p, int pid, const char *comm, int cpu);
/* sched_setattr() of a task that is not runnable: checks, admission. */
int sched_setattr(struct sched *s, struct task_struct *p, int policy, int prio,
		  const struct dl_params *dl, const struct dl_param_limits *lim,
		  struct dlb_err *err);
int sched_setaffinity(struct sched *s, struct task_struct *p, const struct dlb_cpumask *mask,
		      struct dlb_err *err);
/*
 * sched_set_stop_task() (kernel/sched/core.c): @stop, a task made with
 * sched_task_init() on @cpu and never runnable yet, becomes @cpu's stop
 * task: SCHED_FIFO at the top priority, in the stop class, which preempts
 * every other and is preempted by none.  It runs when woken
 * (wake_up_process()) and leaves the CPU when it blocks (schedule()).
 */
void sched_set_stop_task(struct sched *s, int cpu, struct task_struct *stop);
/* try_to_wake_up() from CPU @this_cpu; returns 1 if woken. */
int wake_up_process(struct sched *s, struct task_struct *p, int this_cpu);
/* __schedule() on @cpu; rq->curr's state decides whether it blocks. */
void schedule(struct sched *s, int cpu);
/* scheduler_tick() (queued = 0) or hrtick (queued = 1) on @cpu. */
void scheduler_tick(struct sched *s, int cpu, int queued);
/* sched_yield() by the current task of @cpu. */
void sched_yield_curr(struct sched *s, int cpu);
/* The current task of @cpu exits (TASK_DEAD) and its bandwidth is freed. */
void sched_exit_curr(struct sched *s, int cpu);
/* The hrtimer of @p fired. */
void sched_dl_timer_fire(struct sched *s, struct task_struct *p);
/* GRUB's inactive timer of @p expired (mainline model). */
void sched_inactive_timer_fire(struct sched *s, struct task_struct *p);
/*
 * The execution time after which curr of @rq has used @left of its
 * runtime: @left, or for a reclaiming task (GRUB) grub_wall_time().
 */
u64 sched_dl_budget_wall(struct rq *rq, struct task_struct *p, s64 left);
/* rt_mutex_lock by the current task of @cpu: 1 acquired, 0 blocked (then schedule()). */
int rt_mutex_lock(struct sched *s, struct rt_mutex *m, int cpu);
/* rt_mutex_unlock: hands the lock to the top waiter and wakes it. */
void rt_mutex_unlock(struct sched *s, struct rt_mutex *m, int cpu);
/* Account the running time of @cpu's current task up to now. */
void sched_update_curr(struct sched *s, int cpu);

/*
 * For the benchmark: the CPU selection alone.  sched_bench_set_cpu_dl()
 * makes @cpu look as if its earliest -deadline task had deadline @dl (0:
 * none), updating what the configured selection reads (the rq caches for
 * linear, the cpudl heap too for heap) as inc/dec_dl_deadline() do;
 * sched_bench_find() is find_later_rq()'s call of the selection.
 */
void sched_bench_set_cpu_dl(struct sched *s, int cpu, u64 dl);
int sched_bench_find(struct sched *s, struct task_struct *p);

/* invariants.c: 0 if all hold, else -1 with a message in @err. */
int check_sched_invariants(struct sched *s, struct dlb_err *err);

/* --- core (sched_core.c) ----------------------------------------------- */
void resched_task(struct task_struct *p);
void resched_rq(struct rq *rq);
void activate_task(struct rq *rq, struct task_struct *p, int flags);
void deactivate_task(struct rq *rq, struct task_struct *p, int flags);
void set_task_cpu(struct task_struct *p, int new_cpu);
void check_preempt_curr(struct rq *rq, struct task_struct *p, int flags);
struct rq *task_rq(struct task_struct *p);
struct sched *sched_of(struct task_struct *p);
void update_rq_clock(struct rq *rq);

/* --- dl class (sched_dl.c) --------------------------------------------- */
/* One virtual clock for every rq: rq->clock is always current. */
static inline u64 rq_clock(struct rq *rq)
{
	return rq->s->now;
}

/*
 * The clock tasks are charged by (update_rq_clock_task()): rq_clock() less
 * the interrupt time with CONFIG_IRQ_TIME_ACCOUNTING (sched_ops.irq_time).
 */
static inline u64 rq_clock_task(struct rq *rq)
{
	const struct sched_ops *o = &rq->s->ops;

	return rq->s->now - (o->irq_time ? o->irq_time(o->arg, rq->cpu, rq->s->now) : 0);
}

static inline struct rq *rq_of_dl_rq(struct dl_rq *dl_rq)
{
	return rb_entry(dl_rq, struct rq, dl);
}

static inline struct dl_rq *dl_rq_of_se(struct sched_dl_entity *dl_se)
{
	return &task_rq(dl_task_of(dl_se))->dl;
}

/* sched_dl.c, for the models' rules (sched_dl_mainline.c) too */
void setup_new_dl_entity(struct sched_dl_entity *dl_se, struct sched_dl_entity *pi_se);
void __enqueue_dl_entity(struct sched_dl_entity *dl_se);
void __dequeue_dl_entity(struct sched_dl_entity *dl_se);
/* The fair class's pick (the fair server's server_pick_task), sched_core.c. */
struct task_struct *fair_server_pick(struct rq *rq);
u64 sched_list_slice(struct rq *rq, struct task_struct *p);
/* Set up @rq's fair server from the model (sched_init_dl_servers()). */
void sched_init_dl_server(struct rq *rq);
int start_dl_timer(struct sched_dl_entity *dl_se, bool boosted);
/* The -deadline task at the end of @p's chain of (boosted) top waiters, or NULL/not -deadline. */
struct task_struct *pi_dl_top_task(struct task_struct *p);
void dl_task_timer(struct sched *s, struct task_struct *p);
int dl_bw_admit(struct sched *s, struct task_struct *p, u64 new_bw, struct dlb_err *err);
void init_dl_rq(struct dl_rq *dl_rq);

/* GRUB (sched_dl_mainline.c), called where mainline calls them when model->grub */
#define ENQUEUE_MIGRATED	0x40	/* woken on another CPU (try_to_wake_up) */
#define ENQUEUE_MIGRATING	0x100	/* moved by push/pull (TASK_ON_RQ_MIGRATING) */
#define DEQUEUE_MIGRATING	0x100
void add_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq);
void sub_running_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq);
void add_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq);
void sub_rq_bw(struct sched_dl_entity *dl_se, struct dl_rq *dl_rq);
void task_non_contending(struct task_struct *p);
void task_contending(struct sched_dl_entity *dl_se, int flags);
void migrate_task_rq_dl(struct task_struct *p, int new_cpu);
void inactive_task_timer(struct sched *s, struct task_struct *p);
void cancel_inactive_timer(struct sched_dl_entity *dl_se);
u64 grub_reclaim(u64 delta, struct rq *rq, struct sched_dl_entity *dl_se);
/* The wall time a reclaiming @dl_se takes to consume @runtime (the inverse of grub_reclaim()). */
u64 grub_wall_time(u64 runtime, struct rq *rq, struct sched_dl_entity *dl_se);
/* init_dl_rq_bw_ratio() and the fair servers' __dl_add() on extra_bw */
void init_dl_rq_bw_ratio(struct sched *s, struct dl_rq *dl_rq, u64 rt_runtime_us,
			 u64 rt_period_us);
/* __dl_update(): @bw added to every rq's extra_bw of the root domain */
void dl_extra_bw_update(struct sched *s, s64 bw);

/* list stand-ins (sched_rt.c) */
void list_rq_init(struct list_rq *l);

#endif
