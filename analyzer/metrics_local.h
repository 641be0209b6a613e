/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the metric engine (analyzer/metrics*.c; the public API is
 * metrics.h): its state, and the functions one of its files calls in
 * another.  What "running", "ready" and "throttled" mean: metrics.c.
 */
#ifndef DLB_METRICS_LOCAL_H
#define DLB_METRICS_LOCAL_H

#include <stdbool.h>

#include "cbs.h"
#include "dlbench/cpumask.h"
#include "metrics.h"

struct task {
	struct dlb_task_metrics pub;
	int cpu;			/* CPU it runs on, -1 when not running */
	u64 run_since;			/* switch-in instant */
	u64 seg_start;			/* start of the running segment counted in exec */
	u64 ua_seg;			/* its CPU's unavail_upto() at seg_start */
	u64 ua_exec;			/* of exec, the time its CPU was unavailable */
	u64 st_seg;			/* its CPU's stall_upto() at seg_start */
	u64 st_exec;			/* of exec, its CPU's stalls */
	u64 st_wait;			/* since its last job ended, stalls it waited in */
	struct dlb_stall wake_st;	/* its waker CPU's last stall at its last wake-up */
	u64 ready_ts;			/* ready (wait_idx >= 0) since */
	int wait_idx;			/* index in m->waiting, -1 when not ready */
	int rq_cpu;			/* ready: the CPU whose runqueue holds it, -1 unknown */
	bool unthr_lazy;		/* account_inversion ended its throttle, at unthr_at */
	u64 unthr_at;
	u64 inv_from;			/* account_inversion: waiting inverted since */
	u64 inv_job;			/* inversion since the previous job ended */
	unsigned int thr_job;		/* throttles since the previous job ended */
	bool throttled, throttle_explicit;
	u64 throttle_until;
	u64 thr_from;			/* throttled since */
	bool held;			/* the job was held by its CBS (task_unthrottled()) */
	u64 held_from;
	bool sched_dl_valid;		/* sched_dl: the deadline EDF compares */
	u64 sched_dl;
	bool dl_now;			/* its last sched event showed it SCHED_DEADLINE */
	struct dlb_cbs cbs;		/* its CBS, replayed (traces without dl_* events) */
	u64 cbs_from;			/* running: CPU time charged up to here */
	bool stat_runtime;		/* the kernel's own charges (sched_stat_runtime) seen */
	bool predicted;			/* sched_dl was predicted at wake-up */
	bool mig_pending;		/* migrated, not yet running on mig_dest */
	u64 mig_ts;
	int mig_dest;
	unsigned int mig_job;		/* migrations since the previous job ended */
	int last_run_cpu;		/* the CPU of its last slice, -1: none yet */
	bool slice_moved;		/* this slice began on another CPU than the last */

	/* the current job */
	bool in_job, expect_end, rtapp;
	bool name_fixed;		/* named by a marker or the caller */
	u64 job_idx, job_count, rel, dl, begin, exec;
	u64 wake;			/* the wake-up that let the job run, 0: none seen */
	bool dl_valid;
	enum dlb_rel_src rel_src;
	unsigned int preempt_job;
	unsigned int sw_job, moved_job;	/* switch-ins since begin, of them on a new CPU */
	u64 begin_slice;		/* switch-in of the slice it began in */
	bool begin_in_slice;		/* it began running (begin_slice is known) */
	bool begin_moved;		/* that slice began on a new CPU */
	bool woke_for_job;		/* it woke since the previous job ended (wake) */
	int cpu_begin;

	/* release marker seen ahead of its job */
	bool pend_rel;
	bool pend_dl_valid;	/* the release said its deadline (DL tasks only) */
	u64 pend_job, pend_rel_ts, pend_dl;

	/* for inferring releases (rt-app markers) and predicting deadlines */
	bool woke_since_done, last_valid;
	u64 last_wakeup, last_rel, last_dl, last_end;
	bool zero_valid;		/* rt-app's zero time, which its timer counts from */
	u64 zero;
};

struct cpu {
	struct dlb_cpu_metrics pub;
	bool seen, known;		/* known: a sched_switch told us who runs */
	int curr_pid;
	int curr_prio;			/* sched_switch's next_prio (a fair task: >= DLB_PRIO_FAIR) */
	bool curr_dl;
	struct task *curr;		/* tracked task running, or NULL */
	u64 since;
	u64 *rt_ts;			/* the first sched_stat_runtime times (tick grid) */
	unsigned nr_rt_ts;
	/* unavailable time (metrics_unavail.c) */
	int hardirq, softirq;		/* handler depths */
	bool stop;			/* the stop class runs */
	bool ua_open;			/* an interval is open since ua_from */
	u64 ua_from;
	unsigned int ua_kind;
	u64 ua_total;			/* unavailable time closed so far (merged gaps too) */
	struct dlb_unavail *ua;
	size_t nr_ua, cap_ua;
	/* the fair server's share: a fair task runs while a DL task queued here waits */
	u64 q_gen;			/* == m->fair_gen: such a DL task waits (unavail_fair) */
	u64 q_from;			/* since when, at the latest */
	bool fair_open;
	bool fair_wake;			/* it began at a DL wake-up behind the running fair task */
	u64 fair_from;
	struct dlb_unavail *fa;		/* found, closed, not capped */
	size_t nr_fa, cap_fa;
	/* stalls (metrics_stall.c) */
	u64 ev_last;			/* its last event's time */
	bool ev_busy;			/* after it, the CPU ran a task (known, not idle) */
	u64 busy_irqs;			/* interrupt entries recorded while it ran a task */
	u64 busy_live;			/* time it ran a task, out of stalls, so far */
	u64 st_total;			/* its stalls so far that showed its tick before */
	struct dlb_stall st_last;	/* the last of them */
	struct dlb_stall *gap;		/* the first DLB_STALLS_KEPT */
	size_t nr_gap, cap_gap;
};

struct named_params {
	char name[DLB_NAME_MAX];
	u64 runtime, deadline, period;
};

struct dlb_metrics {
	struct dlb_metrics_opts opts;
	const struct dlb_marker *marker;	/* the event's, parsed (dlb_metrics_marker_event) */
	struct named_params *named;	/* parameters for tasks known by name only */
	size_t nr_named;
	struct dlb_run_metrics run;
	/* tid -> task, open addressing, power-of-two size */
	struct task **hash;
	size_t hash_size, nr_tasks;
	struct task **sorted;		/* by tid, after finish */
	struct cpu *cpus;
	int nr_cpus_alloc, max_cpu;
	struct task **waiting;		/* ready DL tasks */
	size_t nr_waiting, waiting_alloc;
	bool started, finished, dirty;
	bool explicit_dl;		/* the trace has dl_throttle / dl_replenish events */
	u64 last_ts;
	u64 fair_gen;			/* unavail_fair's pass */
	int nr_fair_open;		/* CPUs with an open fair interval */
	int nr_fair_cpus;		/* CPUs running a fair task (cpu_set_curr) */
	/* the last rt-app zero time (CLOCK_REF marker), for the threads that start after it */
	bool clock_ref_valid;
	u64 clock_ref;
	/* CPU summary for inversion, recomputed when dirty */
	int nr_known;			/* CPUs whose occupant is known */
	int nr_dl_unknown;		/* of those, running a DL task of unknown deadline */
	int nr_run_dl;			/* running DL tasks of known deadline ... */
	u64 run_dl[DLB_MAX_CPUS];	/* ... their deadlines, sorted */
	struct task **elig;		/* scratch: waiting tasks that may be inverted */
	struct dlb_err perr;
};

/* metrics_task.c: the tasks by tid, their names and given parameters */
struct task *task_find(const struct dlb_metrics *m, int tid);
/* NULL: out of memory */
struct task *task_get(struct dlb_metrics *m, int tid);
void task_stats(struct task *t, void (*fn)(struct dlb_stat *s));
void task_named(struct dlb_metrics *m, struct task *t);
void task_name(struct dlb_metrics *m, struct task *t, const char *comm);
int task_lookup(struct dlb_metrics *m, int pid, bool dl, const char *comm, struct task **tp);

/* metrics_cbs.c: a task's CBS replayed where the trace does not show it */
struct dlb_cbs *task_cbs(const struct dlb_metrics *m, struct task *t);
void cbs_sync(struct dlb_metrics *m, struct task *t);
void cbs_stop(struct dlb_metrics *m, struct task *t, u64 ts);
void ev_runtime(struct dlb_metrics *m, const struct dlb_event *ev);
bool cbs_throttle(struct dlb_metrics *m, struct task *t, u64 ts);
void cbs_wakeup(struct dlb_metrics *m, struct task *t, u64 ts);
void task_dl_now(struct task *t, bool dl);

/* metrics_inversion.c: the ready set, the CPUs, G-EDF priority inversion */
int task_set_ready(struct dlb_metrics *m, struct task *t, bool ready);
struct cpu *cpu_get(struct dlb_metrics *m, int c);
void cpu_account(struct cpu *c, u64 ts, int pid, bool dl, u64 since);
void account_inversion(struct dlb_metrics *m, u64 ts);

/* metrics_jobs.c: markers, jobs, releases */
void job_finish(struct dlb_metrics *m, struct task *t, u64 end);
/* @t was throttled at @ts, is no longer at @ts: keep when its job was held */
void task_throttled(struct task *t, u64 ts);
void task_unthrottled(struct task *t, u64 ts);
void job_open_at_end(struct dlb_metrics *m, struct task *t);
int ev_marker(struct dlb_metrics *m, const struct dlb_event *ev);

/* metrics_unavail.c: per CPU, the time DL tasks could not have had it; -1: allocation */
int unavail_event(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev);
void unavail_finish(struct dlb_metrics *m);
/* after each event at @ts: open or close the CPUs' fair intervals; -1: allocation */
int unavail_fair(struct dlb_metrics *m, u64 ts);
/* @c runs @pid of sched_switch priority @prio now (curr_pid, curr_prio, nr_fair_cpus) */
void cpu_set_curr(struct dlb_metrics *m, struct cpu *c, int pid, int prio);
/* @t's running segment starts at @ts (on t->cpu, or none when -1) */
void task_seg(struct dlb_metrics *m, struct task *t, u64 ts);
/* the running segment, from seg_start to @end, into exec and ua_exec */
void task_seg_exec(struct dlb_metrics *m, struct task *t, u64 end);

/* metrics_sched.c: the scheduler's events (and dlb_metrics_event, which dispatches) */
/* metrics_stall.c: @ev on @c, before (stall_event) and after (stall_after) its effect */
int stall_event(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev);
void stall_after(struct cpu *c, const struct dlb_event *ev);
void stall_finish(struct dlb_metrics *m);
/* @cpu's stalls that jobs meet (stall_event's guard), their time so far; 0 for -1 */
u64 stall_upto(const struct dlb_metrics *m, int cpu);
/* @j, task @t's job ending: the stalls it met (struct dlb_job), counted in @t and the run */
void stall_job(struct dlb_metrics *m, struct task *t, struct dlb_job *j);
/* @t wakes on @cpu: that CPU's last stall may have made it late */
void stall_wakeup(struct dlb_metrics *m, struct task *t, int cpu);

void implicit_switch_in(struct dlb_metrics *m, struct cpu *c, const struct dlb_event *ev);

#endif
