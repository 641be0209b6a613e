/* SPDX-License-Identifier: GPL-2.0 */
/* dlb-rtapp internals: options, the run, the threads (kernel backend). */
#ifndef RTAPP_RTAPP_H
#define RTAPP_RTAPP_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "dlbench/error.h"
#include "dlbench/interp.h"
#include "dlbench/marker.h"
#include "dlbench/runlog.h"
#include "dlbench/summary.h"
#include "dlbench/workload.h"

#include "cgroup.h"
#include "cpuset.h"
#include "dlbw.h"
#include "membuf.h"
#include "sched.h"
#include "tracemark.h"

enum rtapp_backend {
	RTAPP_BACKEND_KERNEL,
	RTAPP_BACKEND_REFERENCE,
};

/*
 * The cleanup order of a pinned kernel run (docs/kernel-findings.md):
 * settle waits for the kernel to release the threads' DL bandwidth before
 * the partitions are dismantled; immediate dismantles them at once, the
 * order that makes a kernel with the deferred-release defect lose it.
 */
enum rtapp_teardown {
	RTAPP_TEARDOWN_SETTLE,
	RTAPP_TEARDOWN_IMMEDIATE,
};

struct rtapp_opts {
	enum rtapp_backend backend;
	int cpus;			/* -m: reference: simulated CPUs; kernel: run on
					 * CPUs 0..cpus-1 (rtapp_cpus_limit); 0: all online */
	const char *ref_model;		/* reference: v4 or mainline[:MAJ.MIN]; NULL = v4 */
	const char *workload;
	const char *outdir;		/* NULL: global.logdir */
	bool trace_dat;			/* -f dat: reference: trace.dat, not trace.txt */
	u64 duration_ns;		/* with duration_set, overrides global.duration */
	bool duration_set;
	const char *marker_path;	/* NULL: find tracefs */
	bool no_markers;
	bool quiet;
	enum rtapp_teardown teardown;
	bool event_log;			/* write each thread's event sequence (.events) */
	struct rtapp_sched_abi abi;
	char cmdline[1024];
};

/* rt-app's barrier, breakable on stop (pthread barriers are not). */
struct rtapp_barrier {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int users, waiting;
	u64 generation;
};

/*
 * suspend/resume: the suspended threads, counted, wait for the generation
 * to move (a resume wakes them all); a resume with none suspended is
 * pending for the next suspend.  A semaphore: its count.
 */
struct rtapp_wakeup {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int waiting;
	u64 generation;
	bool pending;
	u64 count;
};

struct rtapp_res {
	pthread_mutex_t mutex;		/* WL_RES_MUTEX; PI when pi_enabled */
	pthread_cond_t cond;		/* WL_RES_COND */
	struct rtapp_barrier barrier;	/* WL_RES_BARRIER */
	struct rtapp_wakeup wakeup;	/* WL_RES_WAKEUP, WL_RES_SEM */
	/*
	 * WL_RES_TIMER not "unique": rt-app's shared timer, one next expiry
	 * for every thread and instance using it (unique ones are the
	 * interpreter's, per thread).  PI, so that a DL user never waits long
	 * on a preempted lower-priority one.
	 */
	pthread_mutex_t timer_lock;
	struct dlb_interp_timer timer;
	struct rtapp_membuf membuf;	/* memrun buffer with a "ref": every thread's */
};

enum rtapp_setup {
	SETUP_PENDING,
	SETUP_DONE,			/* policy set, waiting for go */
	SETUP_FAILED,
};

struct rtapp_run;

struct rtapp_thread {
	struct rtapp_run *run;
	const struct wl_task *task;
	int index;			/* rt-app's thread number */
	int instance;			/* forked: the task's instances + fork */
	int fork;			/* its number among its task's forked threads; -1: not forked */
	int tid;
	pthread_t pth;
	bool created;
	bool exited;			/* left its body (under run->lock) */
	bool joinable;			/* exited: joined by the main thread */
	enum rtapp_setup setup;
	int setup_errno;
	const char *setup_what;		/* which call failed */
	u64 policy_ns;			/* when it took its policy (CLOCK_MONOTONIC) */
	int affinity_errno;		/* a phase's cpus failed mid-run: the thread stopped */
	int taskgroup_errno;		/* a phase's taskgroup failed mid-run: stopped too */
	int taskgroup_failed;		/* ... which one (index in wl->taskgroups) */
	int uclamp_errno;		/* a phase's clamps failed mid-run (it.uclamp_phase's) */
	int membind_errno;		/* a phase's nodes_membind failed mid-run: stopped */
	size_t membind_phase;		/* ... in which phase */
	int io_errno;			/* an iorun write failed (the first error) */

	struct dlb_interp it;		/* the events, the jobs (include/dlbench/interp.h) */
	unsigned int *held;		/* per resource: lock depth held */
	char *mem;			/* mem event buffer */
	size_t mem_size;
	struct rtapp_membuf *membuf;	/* per resource: this thread's memrun buffers */
	void **chase;			/* per resource: where its chase stopped, NULL: start */

	/*
	 * The current log record and a ring of finished ones: the thread
	 * adds at @log_head, the run's main thread (not real-time) formats
	 * and writes them from @log_tail (rtapp_log_flush, under @log_lock),
	 * so that no write(2) is on the job path.  @log_inline counts the
	 * times the ring was full and the thread wrote them itself.
	 */
	struct dlb_runlog_rec rec;
	struct dlb_runlog_rec *recs;
	size_t cap_recs;
	size_t log_head, log_tail;	/* atomic: head by the thread, tail by the writer */
	size_t log_inline;
	pthread_mutex_t log_lock;	/* PI: one writer of @log at a time */
	FILE *log;
	/* its /proc sched file, read by the thread as it leaves, written by main */
	char *sched_snap;
	size_t sched_len;
	bool ran;			/* released: its files are written at the end */
	int out_errno;			/* the first failed write of an output file, */
	char out_bad[DLB_SUMMARY_PATH_MAX];	/* and its name */
	char log_name[DLB_SUMMARY_PATH_MAX];
	char sched_name[DLB_SUMMARY_PATH_MAX];
	char events_name[DLB_SUMMARY_PATH_MAX];
	char mark[DLB_MARKER_MAX];	/* preformatted marker buffer */
	char comm[DLB_NAME_MAX];	/* "<task>-<index>[-<fork>]", as upstream rt-app and the reference */
};

struct rtapp_run {
	const struct workload *wl;
	const struct rtapp_opts *opts;
	char outdir[PATH_MAX];
	double ns_per_loop;
	int calib_cpu;
	u64 t0;				/* run start (the first releases), CLOCK_MONOTONIC ns */
	u64 end;			/* t0 + duration; 0: no limit */
	volatile int stop;		/* set by main: every thread leaves */
	struct rtapp_tracemark tm;
	struct rtapp_cpusets cpusets;
	struct rtapp_taskgroups tgroups;	/* "taskgroup": the cpu cgroups of the run */
	struct rtapp_dlbw *dlbw;	/* the kernel's DL accounting, NULL if refused */
	struct rtapp_res *res;
	int io_fd;			/* global.io_device if a task has iorun, else -1 */

	pthread_mutex_t lock;		/* setup handshake; the threads array once running */
	pthread_cond_t cond;
	int go;				/* 0 wait, 1 run, -1 abort */
	int exited;			/* threads that have left their body */
	bool stuck;			/* some thread did not stop: not joined */

	/*
	 * Each thread its own allocation (they hold pointers to themselves);
	 * a fork adds one under @lock, up to cap_threads (wl_max_threads()).
	 */
	size_t nr_threads, cap_threads;
	struct rtapp_thread **threads;
	int *forks;			/* per task: threads forked so far */
	struct dlb_err fork_err;	/* the first fork that failed (under @lock) */
};

/*
 * The log, sched snapshot and (@events not NULL) event-log file names of
 * thread @index of task @t (forked: @fork >= 0, its number among the
 * task's forked threads), in @log, @sched and @events (@size bytes each):
 * rt-app's names, the workload's names escaped (rt-app/logname.c).  -1 and
 * @err if they do not fit.
 */
int rtapp_thread_files(const struct workload *wl, const struct wl_task *t, size_t index,
		       int fork, char *log, char *sched, char *events, size_t size,
		       struct dlb_err *err);

/* Run the workload on the kernel; fills @sum.  Returns an exit code. */
int rtapp_kernel_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err);

/* The simulated run (reference backend).  Returns an exit code. */
int rtapp_reference_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err);

/* Set by the signal handler. */
extern volatile sig_atomic_t rtapp_signalled;

#endif
