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

struct dlb_summary {
	char backend[16];		/* "kernel" or "reference" */
	char clock[16];			/* "mono" (kernel) or "virtual" (reference) */
	char workload[DLB_SUMMARY_PATH_MAX];
	int cpus;
	double calibration_ns;		/* ns per busy loop */
	u64 start_ns, end_ns;		/* the run's start and end on that clock */
	enum dlb_run_status status;
	enum dlb_admission admission;
	char admission_detail[DLB_ERR_MAX];	/* the refusal's message, for people; "" if none */
	char cmdline[1024];
	char version[32];		/* tool version */
	size_t nr_threads;
	struct dlb_summary_thread *threads;
};

/*
 * Write @s as JSON to @path (pretty-printed, keys in a fixed order, so the
 * same summary gives the same bytes).  Returns 0 or -1 with @err set.
 */
int dlb_summary_write(const char *path, const struct dlb_summary *s, struct dlb_err *err);

/*
 * Read @path into a new summary (the caller frees it with
 * dlb_summary_free).  Errors name the file and the key, code
 * DLB_EXIT_BAD_INPUT.
 */
int dlb_summary_read(const char *path, struct dlb_summary **out, struct dlb_err *err);

void dlb_summary_free(struct dlb_summary *s);

#endif
