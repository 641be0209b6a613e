/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlb_sim: the reference SCHED_DEADLINE v4 scheduler (sched.h) driven by a
 * deterministic discrete-event simulator over the shared workload model
 * (dlbench/workload.h).  M CPUs (1..1024), virtual time in u64 ns starting
 * at 0, one event queue (a binary heap ordered by time, then insertion), so
 * the same workload and options give the same events, byte for byte.
 *
 * Usage (the caller owns @wl and frees it after dlb_sim_free()):
 *
 *	struct dlb_sim_opts o;
 *	dlb_sim_opts_init(&o);
 *	o.nr_cpus = 2;
 *	sim = dlb_sim_create(wl, &o, &err);         // NULL + err: bad options,
 *	                                            // EINVAL/EBUSY at sched_setattr
 *	dlb_sim_set_event_hook(sim, fn, arg);       // every event, time order
 *	dlb_sim_set_job_hook(sim, jfn, arg);        // every finished job
 *	if (dlb_sim_run(sim, &err) < 0) ...         // err: an invariant failed (--check)
 *	dlb_sim_task_stats(sim, i, &st);            // i < dlb_sim_nr_threads(sim)
 *	dlb_sim_opcount(sim, DLB_OP_FIND);          // cost of find calls
 *	dlb_sim_free(sim);
 *
 * Threads: every task instance of the workload is one simulated thread,
 * in workload order (task 0 instance 0, task 0 instance 1, ..., task 1 ...),
 * with TID first_tid + index (default 1000 + index) and comm
 * "<task name>-<thread index>" as upstream rt-app names its threads
 * (thread_data_set_unique_name(): "a-0", "b-1", "b-2" for a task a and a
 * task b of 2 instances), truncated to 15 characters (where rt-app's
 * pthread_setname_np() would fail and leave "rt-app").  Thread i starts on
 * CPU i % nr_cpus, after its "delay", as a wake-up.  A fork event
 * (rt-app's) creates one more thread of the task it names: the next index,
 * comm "<task>-<index>-<fork, 4 digits>" (wl_thread_name()), admitted then
 * (a refusal stops the run with the error), started at once or at its
 * delay if that is later; WL_FORK_LIMIT forks of a task at most, after
 * which the run stops with an error, as rt-app exits.
 *
 * Jobs, and what each event does, are the interpreter's, shared with the
 * kernel backend (dlbench/interp.h): one pass over a phase's events is one
 * job.  release: the expiry of the timer (or sleep) that ended the previous
 * pass, else the instant the pass starts (the thread's start for the
 * first); begin: the instant the thread starts executing the pass; end:
 * the instant it reaches the pass's final timer or sleep, else finishes its
 * last event (a task without a timer ends its job at a suspend, and the
 * next is released by the resume); deadline: release + dl_deadline
 * (-deadline tasks, else 0).
 *
 * Markers (in the event stream, DLB_EV_MARKER, grammar of marker.h):
 * "dlb_run: event=start backend=reference ..." at 0, one "dlb_task: ..."
 * per thread at its start, "dlb_job: ... event=release" at the release
 * instant, "event=begin" and "event=end" at begin and end, "dlb_run:
 * event=end status=complete" at the end of the run.
 */
#ifndef DLB_REF_SIM_H
#define DLB_REF_SIM_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "dlbench/dlparam.h"
#include "dlbench/dltime.h"
#include "dlbench/error.h"
#include "dlbench/event.h"
#include "dlbench/jobstrace.h"
#include "dlbench/workload.h"

#include "opstat.h"

struct dlb_sim;

enum dlb_sim_cpu_select {
	DLB_SIM_HEAP,		/* cpudl max-heap + free mask (patch 007), the default */
	DLB_SIM_LINEAR,		/* latest_cpu_find linear scan (patch 004) */
};

/* The cap on simulated time when nothing else ends a run (max_time_ns's default). */
#define DLB_SIM_MAX_TIME_NS	(3600ULL * NSEC_PER_SEC)

struct dlb_sim_opts {
	int nr_cpus;			/* 1..1024; default 1 */
	enum dlb_sim_cpu_select cpu_select;	/* default heap */

	/* admission control (EBUSY), as the kernel's */
	bool admission;			/* default true */
	u64 rt_runtime_us;		/* default 950000 */
	u64 rt_period_us;		/* default 1000000 */
	u64 reserved_bw;		/* per CPU, BW_SHIFT units, not for -deadline:
					 * default the fair server's 50 ms/1 s
					 * (to_ratio(1000000000, 50000000)) */
	const struct dl_param_limits *lim;	/* NULL: kernel defaults */

	/* the rules: "v4" (default) or "mainline[:MAJ.MIN]"; dlb_sim_opts_model() */
	char model[24];

	u64 duration_ns;		/* 0: the workload's global.duration; both 0:
					 * until every thread ends (cap: max_time_ns) */
	u64 max_time_ns;		/* safety cap when nothing else ends the run:
					 * default 3600 s */

	/* overhead model: CPU time charged with no progress; default 0 */
	u64 ctx_switch_ns;		/* to the task switched in */
	u64 migration_ns;		/* to a task running on a new CPU */

	/* accounting granularity: 0 = exact (hrtick at the budget's end);
	 * else the tick period (kernel HZ=250: 4000000), budgets checked at ticks */
	u64 tick_ns;
	/* NULL, or per CPU (nr_cpus entries, each < tick_ns): that CPU's ticks
	 * fall at tick_phase[cpu] + k * tick_ns (a replay's measured tick grid);
	 * NULL: at k * tick_ns.  The caller keeps the array for the run. */
	const u64 *tick_phase;

	/*
	 * Unavailable CPU time (a replay's unavail records, docs/conformance.md
	 * "Unavailable time"): [from - unavail_t0, to - unavail_t0) on their
	 * CPU, per CPU in time order.  Interrupts (irq): what runs there makes
	 * no progress and is charged the time, as the kernel charges
	 * interrupts to the task they interrupt without
	 * CONFIG_IRQ_TIME_ACCOUNTING (update_curr() on rq_clock_task()).  The
	 * stop class (stop, irq+stop): the CPU's stop task (migration/N) runs,
	 * and the task it preempts is switched out, not charged.  Intervals of
	 * CPUs not simulated are ignored.  The caller keeps the array for the
	 * run (dlb_sim_opts_unavail()).
	 */
	const struct dlb_jt_unavail *unavail;
	size_t nr_unavail;
	u64 unavail_t0;
	/*
	 * The traced kernel had CONFIG_IRQ_TIME_ACCOUNTING: intervals of kind
	 * irq alone still take the CPU but are not charged (rq_clock_task()
	 * leaves them out); the stop class is never charged.  Default
	 * false; dlb_sim_opts_unavail() sets it from the trace.
	 */
	bool irq_time_accounting;

	bool check;			/* check_sched_invariants() after every step */
	bool timed;			/* time push/pull/find/set: default true */
	bool trace_runtime;		/* emit sched_stat_runtime: default false */
	int first_tid;			/* default 1000 */
	bool event_log;			/* keep each thread's events: dlb_sim_write_events() */
	/*
	 * Job markers (release, begin, end) to the event hook without their
	 * text (mark.text "", mark.len 0): for a hook that reads each from
	 * dlb_sim_marker() (conform.c).  Default false.
	 */
	bool job_marker_structs;
	/* non-NULL: checked before every step; once non-zero the run ends
	 * ("dlb_run: event=end status=incomplete", DLB_EXIT_INCOMPLETE).
	 * A signal handler may set it. */
	volatile sig_atomic_t *interrupt;
};

void dlb_sim_opts_init(struct dlb_sim_opts *o);
/*
 * Run @m's rules ("v4", "mainline[:MAJ.MIN]"); the admission reserve becomes
 * that kernel's (the fair servers from 6.12).  -1 on a model not known.
 */
int dlb_sim_opts_model(struct dlb_sim_opts *o, const char *m);

/*
 * The model that matches a traced run (@backend, @kernel: uname -r;
 * @run_model: the rules a reference run says it ran, summary.json's
 * "model"; any may be NULL) into @buf ("v4", "mainline:MAJ.MIN",
 * "mainline").  Returns why, for reports.
 */
/*
 * The fair server's default reservation per CPU under model @name (6.12 on:
 * 50 ms every 1 s; before, or v4: none, 0 and 0).  -1 on a model not known.
 */
int dlb_sim_model_fair_server(const char *name, u64 *runtime, u64 *period);

/* A replay's unavailable CPU time: @jt's unavail records (kept by the caller). */
void dlb_sim_opts_unavail(struct dlb_sim_opts *o, const struct dlb_jobs_trace *jt);

const char *dlb_sim_model_for(const char *backend, const char *kernel, const char *run_model,
			      char *buf, size_t size);

/* One finished job (see "Jobs" above); rt-app log columns in comments. */
struct dlb_sim_job {
	size_t thread;			/* thread index */
	int task;			/* index in wl->tasks */
	int instance;
	int tid;
	const char *comm;
	u64 job;			/* 0-based, per thread */
	int phase, phase_loop;		/* where in the workload */
	u64 release, begin, end;	/* ns (rt-app: rel_st from release, start, end) */
	u64 deadline;			/* absolute; 0 for non -deadline threads */
	u64 exec_ns;			/* CPU time between begin and end */
	u64 run_ns;			/* nominal run/runtime of the job (c_duration) */
	u64 run_wall_ns;		/* wall time of its run events (rt-app's run) */
	u64 period_ns;			/* timer periods of the job (c_period) */
	s64 slack_ns;			/* next timer expiry - end (slack) */
	u64 wu_lat_ns;			/* begin - release (wu_lat) */
};

typedef int (*dlb_sim_job_fn)(const struct dlb_sim_job *job, void *arg);

/* Per-thread schedstats, /proc/PID/sched style (the seed's dl.stats included). */
struct dlb_sim_task_stats {
	int tid;
	char comm[DLB_COMM_LEN];
	int task, instance;		/* a forked thread: instance = the task's instances + fork */
	int fork;			/* its number among its task's forked threads; -1: not forked */
	int policy;			/* SCHED_* */
	int prio;			/* kernel prio: -1 for -deadline */
	u64 dl_runtime, dl_deadline, dl_period;
	s64 dl_runtime_left;		/* dl.runtime now */
	u64 dl_deadline_abs;		/* dl.deadline now */
	u64 sum_exec_runtime;
	u64 nr_switches, nr_voluntary_switches, nr_involuntary_switches;
	u64 nr_migrations, nr_wakeups;
	u64 last_dmiss, dmiss_max, last_rorun, rorun_max;	/* patch 005 */
	u64 nr_throttled, nr_replenished;
	u64 jobs, jobs_missed;		/* finished jobs, those with end > deadline */
	u64 late_pending;		/* 1 if a released, unfinished job is past its
					 * deadline at the end of the run */
};

/*
 * Build the threads of @wl and admit them (sched_setattr, in workload
 * order).  NULL with @err set: bad options (DLB_EXIT_BAD_INPUT), a
 * parameter the kernel refuses ("sched_setattr: EINVAL: ..."), or a
 * bandwidth it would not admit ("sched_setattr: EBUSY: ..." with the
 * numbers).  @wl must outlive the simulator.
 */
struct dlb_sim *dlb_sim_create(const struct workload *wl, const struct dlb_sim_opts *opts,
			       struct dlb_err *err);

/* Every event, in time order.  The event is valid during the call only. */
void dlb_sim_set_event_hook(struct dlb_sim *sim, dlb_event_fn fn, void *arg);

/*
 * In the event hook, for a DLB_EV_MARKER event: the marker its text was
 * formatted from (dlb_marker_format), so that a consumer need not parse
 * the text back; NULL in any other event.  Valid during the call only.
 */
const struct dlb_marker *dlb_sim_marker(const struct dlb_sim *sim);
void dlb_sim_set_job_hook(struct dlb_sim *sim, dlb_sim_job_fn fn, void *arg);

/*
 * Called every DLB_SIM_PROGRESS_STEPS steps with the simulated time and the
 * run's end (its cap if no duration), for a progress line.
 */
#define DLB_SIM_PROGRESS_STEPS	65536
typedef void (*dlb_sim_progress_fn)(u64 now, u64 end, void *arg);
void dlb_sim_set_progress_hook(struct dlb_sim *sim, dlb_sim_progress_fn fn, void *arg);

/*
 * Run to the end.  0, or -1 with @err: an invariant failed with --check
 * (DLB_EXIT_INTERNAL), a hook returned non-zero (its code in err->code,
 * DLB_EXIT_INCOMPLETE unless the hook set one), or opts.interrupt was set
 * (DLB_EXIT_INCOMPLETE; the stats and events so far stay valid).
 */
int dlb_sim_run(struct dlb_sim *sim, struct dlb_err *err);

size_t dlb_sim_nr_threads(const struct dlb_sim *sim);
int dlb_sim_nr_cpus(const struct dlb_sim *sim);
/* 0, or -1 if @i is out of range. */
int dlb_sim_task_stats(const struct dlb_sim *sim, size_t i, struct dlb_sim_task_stats *st);
/*
 * Every push/pull/find/set/select call with its cost (unit:
 * dlb_opstat_unit(); 0 when opts.timed is false), for exact distributions.
 */
void dlb_sim_set_op_hook(struct dlb_sim *sim, dlb_op_fn fn, void *arg);
/*
 * The arguments of every cpudl_set (heap selection only: the scan has no
 * structure to set) and every CPU selection call (both), after the call
 * and outside its timing: to drive another push structure (cpupri) with
 * the same sequence, as dlb-ospert does.
 */
void dlb_sim_set_push_hook(struct dlb_sim *sim, dlb_push_fn fn, void *arg);
/* Per-operation counters and costs (unit: dlb_opstat_unit()). */
const struct dlb_opcount *dlb_sim_opcount(const struct dlb_sim *sim, enum dlb_op op);
/* Virtual time now (the end time after dlb_sim_run) and events processed. */
u64 dlb_sim_now(const struct dlb_sim *sim);
u64 dlb_sim_nr_steps(const struct dlb_sim *sim);
u64 dlb_sim_nr_events(const struct dlb_sim *sim);	/* emitted trace events */

/*
 * @st as a /proc/PID/sched snapshot (the kernel's layout: "comm (pid,
 * #threads: 1)", dashes, "key : value" with P()/PN() widths; the seed's
 * dl.stats.* lines for -deadline threads).  0, or -1 on a write error.
 */
int dlb_sim_write_sched(FILE *f, const struct dlb_sim_task_stats *st);

/*
 * Thread @i's events in the order it went through them, one "PHASE KEY"
 * line each, no times (opts.event_log; dlb_interp_log_write()).  0, or -1
 * on a write error or a bad @i.
 */
int dlb_sim_write_events(const struct dlb_sim *sim, size_t i, FILE *f);

/* comm of a simulated pid ("<idle>" for 0), NULL if unknown: for the trace line prefix. */
const char *dlb_sim_comm(const struct dlb_sim *sim, int pid);

void dlb_sim_free(struct dlb_sim *sim);

const char *dlb_sim_cpu_select_str(enum dlb_sim_cpu_select sel);
/* "heap" or "linear" into @sel; -1 otherwise. */
int dlb_sim_cpu_select_parse(const char *s, enum dlb_sim_cpu_select *sel);

#endif
