/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run summary, summary.json in a run folder (docs/results.md): what
 * the generator ran, how, and what it saw.  Written by dlb-rtapp (both
 * backends), read by the analyzer and run.sh.  Times are ns; the file
 * carries "version": DLB_SUMMARY_VERSION.
 */
#ifndef DLBENCH_SUMMARY_H
#define DLBENCH_SUMMARY_H

#include <stddef.h>

#include "dltime.h"
#include "error.h"
#include "marker.h"

#define DLB_SUMMARY_VERSION	1
#define DLB_SUMMARY_PATH_MAX	256

struct dlb_summary_thread {
	char name[DLB_NAME_MAX];	/* the task's name in the workload */
	int instance;			/* 0-based instance of the task */
	int index;			/* thread index: the log's idx column */
	int tid;			/* kernel TID; reference: simulated pid */
	int policy;			/* SCHED_* number */
	int priority;			/* FIFO/RR priority or nice */
	u64 runtime, deadline, period;	/* ns, SCHED_DEADLINE only */
	u64 dl_flags;			/* sched_flags the generator set (DL_FLAG_*); 0 none */
	u64 jobs;			/* jobs begun */
	u64 misses;			/* jobs that ended after their absolute deadline */
	s64 max_lateness;		/* ns, max(end - deadline) over jobs; 0 if none */
	char log[DLB_SUMMARY_PATH_MAX];	/* rt-app log, relative to the run folder */
	char sched[DLB_SUMMARY_PATH_MAX];	/* /proc sched snapshot, relative; "" if none */
};

/*
 * What admission control said of the run's scheduling policies, set by the
 * generator where sched_setattr refuses (both backends): the verdict reads
 * this, never the message text.
 */
enum dlb_admission {
	DLB_ADMISSION_UNKNOWN,		/* a summary written before the field existed */
	DLB_ADMISSION_NOT_REACHED,	/* the run failed before every policy was set */
	DLB_ADMISSION_ADMITTED,		/* every thread's policy was set */
	DLB_ADMISSION_REFUSED,		/* sched_setattr: EBUSY (the bandwidth did not fit) */
};

const char *dlb_admission_str(enum dlb_admission a);

/*
 * The kernel's SCHED_DEADLINE bandwidth accounting around a kernel run
 * (summary.json "dl_accounting", docs/results.md): each CPU's root-domain
 * dl_bw->total_bw before and after, which must be equal once the run's
 * threads are gone and their bandwidth released.
 */
enum dlb_dlbw_status {
	DLB_DLBW_ABSENT,		/* no such section: reference backend, older summary */
	DLB_DLBW_OK,			/* after == before on every CPU */
	DLB_DLBW_FINDING,		/* the run left the accounting changed: a kernel finding */
	DLB_DLBW_NOT_CHECKED,		/* could not be read or compared: detail says why */
};

struct dlb_dlbw_cpu {
	int cpu;
	s64 before, after;		/* total_bw of its root domain, BW_SHIFT units */
	s64 repaired;			/* after the repair; = after when none was made */
};

struct dlb_summary_dlbw {
	enum dlb_dlbw_status status;
	char detail[256];		/* finding: what changed; not_checked: why */
	char kernel[128];		/* uname -r */
	char teardown[16];		/* the cleanup order: "settle" or "immediate" */
	u64 fair_bw;			/* one CPU's fair server bandwidth */
	char fair_source[160];		/* where fair_bw was read, or why assumed */
	int other_tasks_before, other_tasks_after;	/* DL tasks not of this run */
	u64 other_bw_before, other_bw_after;
	u64 release_wait_ns;		/* waited before dismantling the partitions */
	u64 settle_ns;			/* waited after, for the accounting to settle */
	char repair[256];		/* "" none; else what was done and its result */
	size_t nr_cpus;
	struct dlb_dlbw_cpu *cpus;
};

const char *dlb_dlbw_status_str(enum dlb_dlbw_status st);

struct dlb_summary {
	char backend[16];		/* "kernel" or "reference" */
	char clock[16];			/* "mono" (kernel) or "virtual" (reference) */
	char model[24];			/* reference: the rules it ran (dlb_sim_opts.model); "" kernel */
	char workload[DLB_SUMMARY_PATH_MAX];
	int cpus;
	double calibration_ns;		/* ns per busy loop */
	u64 start_ns, end_ns;		/* the run's start and end on that clock */
	u64 duration_ns;		/* the length asked for; 0: until every task ends */
	char duration_source[16];	/* wl_length_source_str(): where it came from;
					 * "" in summaries written before it existed */
	enum dlb_run_status status;
	enum dlb_admission admission;
	char admission_detail[DLB_ERR_MAX];	/* the refusal's message, for people; "" if none */
	char cmdline[1024];
	char version[32];		/* tool version */
	size_t nr_threads;
	struct dlb_summary_thread *threads;
	struct dlb_summary_dlbw dlbw;	/* kernel backend; written when status != ABSENT */
};

/*
 * Write @s as JSON to @path (pretty-printed, keys in a fixed order, so the
 * same summary gives the same bytes).  Returns 0 or -1 with @err set.
 */
int dlb_summary_write(const char *path, const struct dlb_summary *s, struct dlb_err *err);

/*
 * Read @path into a new summary (the caller frees it with
 * dlb_summary_free).  "dl_accounting" is optional (ABSENT when missing).  Errors name the file and the key, code
 * DLB_EXIT_BAD_INPUT.
 */
int dlb_summary_read(const char *path, struct dlb_summary **out, struct dlb_err *err);

void dlb_summary_free(struct dlb_summary *s);

#endif
