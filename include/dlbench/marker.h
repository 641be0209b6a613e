/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker grammar: the key=value lines that the generator (rt-app/) and
 * the reference simulator write to trace_marker, and that the analyzer reads
 * back.  The one definition; docs/markers.md is its prose.
 *
 *	dlb_run: event=start backend=kernel cpus=2 clock=mono tool=0.1 workload=NAME
 *	dlb_run: event=end status=complete|incomplete|error
 *	dlb_task: tid=T name=NAME policy=deadline prio=P runtime=NS deadline=NS period=NS
 *	dlb_job: tid=T job=J event=release rel=NS dl=NS
 *	dlb_job: tid=T job=J event=begin rel=NS dl=NS
 *	dlb_job: tid=T job=J event=end
 *
 * All times are ns on the trace clock (CLOCK_MONOTONIC for the kernel
 * backend, recorded with trace clock "mono"; virtual time for the
 * reference).  rel and dl are the job's release instant and absolute
 * deadline, which are not the instant the marker is written.  A job's
 * release marker is optional (the reference writes it at the release; the
 * kernel generator writes only begin, carrying rel and dl).  Keys may come
 * in any order; unknown keys are an error only in our own dialect's known
 * prefixes.
 *
 * The parser also reads the real rt-app's markers into the same struct:
 * Debian's rt-app 1.0 ("[0] begins loop 3 phase 0 step 12" ...) and
 * upstream rt-app ("rtapp_loop: event=start thread_loop=..." ...).
 */
#ifndef DLBENCH_MARKER_H
#define DLBENCH_MARKER_H

#include <stddef.h>

#include "dltime.h"
#include "error.h"

#define DLB_MARKER_MAX		256	/* longest marker we write */
#define DLB_NAME_MAX		64	/* task name, backend, workload, ... */

enum dlb_marker_dialect {
	DLB_DIALECT_DLBENCH,
	DLB_DIALECT_RTAPP10,		/* Debian rt-app 1.0: "[N] ..." */
	DLB_DIALECT_RTAPP,		/* upstream rt-app: "rtapp_*: ..." */
};

enum dlb_marker_kind {
	DLB_MARK_RUN_START,
	DLB_MARK_RUN_END,
	DLB_MARK_TASK,			/* task attributes */
	DLB_MARK_JOB_RELEASE,
	DLB_MARK_JOB_BEGIN,
	DLB_MARK_JOB_END,
	DLB_MARK_TASK_EXIT,		/* rt-app "[0] exiting", rtapp_main exit */
	DLB_MARK_TASK_START,		/* rt-app "[1] starts", rtapp_task start: its loop follows */
	DLB_MARK_CLOCK_REF,		/* rt-app "[0] sets zero time", rtapp_main clock_ref:
					 * the instant its timers count from */
	DLB_MARK_OTHER,			/* a recognised marker with no job meaning */
};

enum dlb_run_status {
	DLB_RUN_COMPLETE,
	DLB_RUN_INCOMPLETE,		/* interrupted (signal) */
	DLB_RUN_ERROR,
};

#define DLB_MF_REL	0x1		/* m.rel is set */
#define DLB_MF_DL	0x2		/* m.dl is set */
#define DLB_MF_JOB	0x4		/* m.job is set */
#define DLB_MF_PARAMS	0x8		/* runtime/deadline/period set */

struct dlb_marker {
	enum dlb_marker_dialect dialect;
	enum dlb_marker_kind kind;
	unsigned int flags;		/* DLB_MF_* */
	int tid;			/* the thread the marker is about */
	u64 job;			/* job index, 0-based */
	u64 rel;			/* release, ns */
	u64 dl;				/* absolute deadline, ns */

	/* task attributes (DLB_MARK_TASK) */
	char name[DLB_NAME_MAX];
	int policy;			/* SCHED_* number: 6 = SCHED_DEADLINE */
	int prio;
	u64 runtime, deadline, period;	/* ns */

	/* run start/end */
	char backend[16];
	char clock[16];
	char workload[DLB_NAME_MAX];
	int cpus;
	enum dlb_run_status status;

	/* rt-app dialects: thread index, loop, phase, step */
	int rt_thread, rt_loop, rt_phase, rt_step;
};

/*
 * Format @m in the dlbench dialect into @buf (DLB_MARKER_MAX is enough).
 * Returns the length written (no trailing newline), or -1 if it does not
 * fit.  No allocation: the generator calls this on its hot path.
 */
int dlb_marker_format(char *buf, size_t size, const struct dlb_marker *m);

/*
 * Parse marker text @s (length @len, no trailing newline needed) written by
 * thread @writer_tid (the trace record's common_pid, used by the rt-app
 * dialects that do not name the thread).
 *
 * Returns 1 and fills @m for a marker of a known dialect; 0 for text that
 * is no marker of ours nor rt-app's (left to the caller to ignore or
 * count); -1 with @err set for a malformed marker of the dlbench dialect
 * (a "dlb_" line with a bad key or value).
 */
int dlb_marker_parse(const char *s, size_t len, int writer_tid,
		     struct dlb_marker *m, struct dlb_err *err);

const char *dlb_run_status_str(enum dlb_run_status st);

#endif
