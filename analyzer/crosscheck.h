/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run folder's other witnesses, set against the trace: the generator's
 * summary.json (task parameters, environment, job counts), its rt-app
 * logs (one row per job: the trace must hold at least as many jobs, at
 * times on the same clock) and the /proc/PID/sched snapshots (the seed's
 * dl.stats where a kernel prints them).  Each disagreement raises a
 * data-quality flag or adds a note; an unreadable witness is a note, never
 * a reason to refuse the trace.
 */
#ifndef DLB_CROSSCHECK_H
#define DLB_CROSSCHECK_H

#include "dlbench/error.h"
#include "metrics.h"
#include "report.h"

/*
 * The trace of run folder @dir into @path: trace.dat, else trace.txt (our
 * recorder's names), else the one trace among the folder's other files (a
 * folder as rt-app leaves it: NAME.dat or a text trace next to its logs).
 * Returns 0, or -1 with @err (DLB_EXIT_BAD_INPUT) when there is none or
 * more than one.
 */
int dlb_crosscheck_find_trace(const char *dir, char *path, size_t size, struct dlb_err *err);

/* Before the trace is read: parameters and environment from summary.json. */
int dlb_crosscheck_before(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri,
			  struct dlb_err *err);

/* After dlb_metrics_finish(): job counts, clocks and schedstats. */
void dlb_crosscheck_after(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri);

/*
 * The check itself, for one thread: @trace_jobs jobs found in the trace,
 * @log_rows rows in its log whose first job started at @log_first_ns.
 */
void dlb_crosscheck_jobs(struct dlb_metrics *m, const char *what, u64 trace_jobs, u64 log_rows,
			 u64 log_first_ns);

#endif
