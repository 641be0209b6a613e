/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jobs trace (docs/conformance.md): the arrivals of a run, one line
 * per job (its task, release, absolute deadline, the CPU time it consumed
 * and the work the workload asked for), with the tasks' parameters and
 * affinity and the CPU count.  The analyzer writes it from any run it
 * analyzes (jobs-trace.txt); the reference replays it (dlb-sim --replay):
 * the same simulator, its releases and demands forced.
 *
 *	dlb-jobs-trace 6
 *	cpus 2
 *	t0 0
 *	end 1000000000
 *	tick 4000000
 *	tickphase 0 1178591
 *	tickphase 1 1178591
 *	kernel 6.18.44
 *	backend reference
 *	irq_time_accounting n
 *	model mainline
 *	affinity workload
 *	task 0 1000 4400000 10000000 10000000 0-1 g-0
 *	flags 0 reclaim
 *	job 0 0 0 0 10000000 4000000 4000000
 *	unavail 1 5000000 5200000 irq
 *
 * A job line: task, job index, release, wake-up (when its thread woke for
 * it: the scheduler's arrival, a timer's latency after the release),
 * absolute deadline, demand, asked.  Times are u64 ns on the trace's clock; t0 is the run's start, which the
 * replay's virtual time 0 stands for; end is the trace's last instant; tick
 * the traced kernel's budget accounting period (1/HZ; 0: exact, as with
 * hrtick, or unknown).  model (version 2, optional): the rules a reference
 * run ran, which its replay takes.  flags (version 2, optional): the
 * sched_flags the task was given, by name (dl_flag_name()), after its task.
 * tickphase (version 3, optional, one per CPU): where the CPU's ticks fell,
 * as an offset from t0 below tick: its ticks are at t0 + phase + k * tick
 * (without it, at t0 + k * tick).
 * unavail (version 4, optional): an interval [from, to) in which the CPU
 * was taken by what a deadline task cannot preempt, of a kind (irq: hard
 * and soft interrupts; stop: the stop class; irq+stop: both, merged); per
 * CPU in time order, not overlapping, after the jobs.  Version 6 adds the
 * kind fair: a fair task ran while a deadline task queued on the CPU
 * waited, within the CPU's fair server reservation (runtime per period);
 * merged: irq+fair, stop+fair, irq+stop+fair.
 * irq_time_accounting (version 5): the traced kernel's
 * CONFIG_IRQ_TIME_ACCOUNTING, y, n or "-" unknown (versions 1 to 4: unknown).
 * With y its tasks are not charged the irq intervals' time (rq_clock_task()
 * leaves it out); n and unknown: charged, as a kernel without the option does.
 * "-" is an unknown demand; "N+" the demand of a job the trace stopped in
 * (at least N: the replay runs it until its end).
 */
#ifndef DLBENCH_JOBSTRACE_H
#define DLBENCH_JOBSTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpumask.h"
#include "dltime.h"
#include "error.h"
#include "marker.h"
#include "workload.h"

#define DLB_JT_VERSION		6	/* reads 1 to 5 too: version 2 adds model and
					   flags, version 3 tickphase, version 4 unavail,
					   version 5 irq_time_accounting, version 6
					   the unavail kind fair */
#define DLB_JT_UNKNOWN		UINT64_MAX	/* a demand the trace does not tell */

/* Where the tasks' affinity came from (the trace does not carry it). */
enum dlb_jt_affinity {
	DLB_JT_AFF_ALL,			/* nothing said: every CPU */
	DLB_JT_AFF_WORKLOAD,		/* the run folder's workload (its tasks' "cpus") */
	DLB_JT_AFF_OPTION,		/* the user's option */
};

struct dlb_jt_task {
	int tid;
	char name[DLB_NAME_MAX];
	struct dl_params dl;
	struct dlb_cpumask cpus;
};

struct dlb_jt_job {
	int task;			/* index in tasks[] */
	u64 job;			/* the job's index in the run */
	u64 rel, dl;			/* release, absolute deadline */
	u64 wakeup;			/* its thread woke for it (>= rel) */
	u64 demand;			/* CPU time it consumed, or DLB_JT_UNKNOWN */
	u64 asked;			/* work the workload asked of it, or DLB_JT_UNKNOWN */
	bool open;			/* the trace stopped in it: demand is a lower bound */
};

/* What took a CPU in an unavail interval: a mask (both: two intervals merged). */
#define DLB_UA_IRQ		0x1	/* hard or soft interrupts */
#define DLB_UA_STOP		0x2	/* the stop class (migration/N) */
#define DLB_UA_FAIR		0x4	/* a fair task while a DL task queued there waited:
					   the fair server's share (version 6) */

/* "irq", "stop", "fair", merges joined by '+' ("irq+stop", "irq+fair", ...); NULL: another mask */
const char *dlb_ua_kind_str(unsigned int kind);

/* CPU time DL tasks could not use (version 4): [from, to) on the trace's clock. */
struct dlb_jt_unavail {
	int cpu;
	u64 from, to;
	unsigned int kind;		/* DLB_UA_* */
};

struct dlb_jobs_trace {
	int nr_cpus;
	u64 t0;
	u64 end;			/* the trace's last instant; 0: unknown */
	u64 tick;			/* budget accounting period; 0: exact */
	u64 *tick_phase;		/* DLB_MAX_CPUS offsets from t0, < tick, or NULL: 0 */
	char kernel[128];		/* uname -r of the traced machine, "" unknown */
	char backend[16];		/* "kernel", "reference", "" unknown */
	char model[24];			/* a reference run's rules, "" none (dlb_sim_opts.model) */
	int irq_time_acct;		/* CONFIG_IRQ_TIME_ACCOUNTING: 1 y, 0 n, -1 unknown
					   (dlb_jt_create()'s, and a version < 5 trace's) */
	enum dlb_jt_affinity affinity;
	size_t nr_tasks, nr_jobs, nr_unavail;
	struct dlb_jt_task *tasks;
	struct dlb_jt_job *jobs;	/* per task in job order; tasks interleaved freely */
	struct dlb_jt_unavail *unavail;	/* per CPU in time order */
	size_t cap_tasks, cap_jobs, cap_unavail;
};

/* An empty trace to fill; NULL on allocation failure.  Free with dlb_jt_free(). */
struct dlb_jobs_trace *dlb_jt_create(void);
void dlb_jt_free(struct dlb_jobs_trace *jt);

/* Append; 0 or -1 (allocation). */
int dlb_jt_add_task(struct dlb_jobs_trace *jt, const struct dlb_jt_task *t);
int dlb_jt_add_job(struct dlb_jobs_trace *jt, const struct dlb_jt_job *j);
int dlb_jt_add_unavail(struct dlb_jobs_trace *jt, const struct dlb_jt_unavail *u);

/* Index of the task of @tid, or -1. */
int dlb_jt_find_task(const struct dlb_jobs_trace *jt, int tid);

/* Write as text.  0, or -1 on a write error. */
int dlb_jt_write(FILE *f, const struct dlb_jobs_trace *jt);

/* Read @path.  0, or -1 with @err ("path:line: what", DLB_EXIT_BAD_INPUT). */
int dlb_jt_read(const char *path, struct dlb_jobs_trace **out, struct dlb_err *err);

const char *dlb_jt_affinity_str(enum dlb_jt_affinity a);

/*
 * The workload the reference replays (docs/conformance.md, "Replay"): one
 * SCHED_DEADLINE task per trace task, in trace order, with its parameters
 * and affinity; per job, a runtime event of its demand (the asked work
 * when @asked, or when the demand is unknown; past the end for a job the
 * trace stopped in) then an absolute timer to the next job's wake-up; the
 * first job woken at its wake-up - t0.  global.duration: end - t0.
 * Consecutive jobs of equal demand and spacing share a looped phase.
 * The unavail intervals are not part of the workload: the simulator takes
 * them (dlb_sim_opts).
 * 0, or -1 with @err (a parameter the kernel refuses, releases out of
 * order, allocation).  Free with wl_free().
 */
int dlb_jt_workload(const struct dlb_jobs_trace *jt, bool asked, struct workload **out,
		    struct dlb_err *err);

/*
 * The work the replay gives job @j (the conformance diff reads it too):
 * its demand, or the work it asked when @asked and known; either when the
 * other is unknown; DLB_JT_UNKNOWN when both are.
 */
u64 dlb_jt_job_work(const struct dlb_jt_job *j, bool asked);

#endif
