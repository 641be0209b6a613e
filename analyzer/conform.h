/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace-driven conformance (docs/conformance.md): the jobs of a run, as the
 * metrics engine built them, become a jobs trace (include/dlbench/jobstrace.h);
 * the reference replays it (the same simulator, releases and demands
 * forced); the oracle's events go through the same metrics engine, and the
 * two sets of jobs are compared job by job.
 *
 *	c = dlb_conform_create(&err);
 *	metrics opts.job_fn = ... dlb_conform_job(job, c) ...;	// every job of the run
 *	... dlb_metrics_finish(m) ...
 *	dlb_conform_run(c, m, &opts, &err);	// -1 only on allocation failure or
 *						// an unwritable jobs trace
 *	dlb_conform_json(c), dlb_conform_txt(f, c)	// the report's section
 *	dlb_conform_free(c);
 *
 * A run that cannot be replayed (no deadline task with parameters, a
 * demand unknown) is not an error: the section says why (status not_done).
 */
#ifndef DLB_CONFORM_H
#define DLB_CONFORM_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "dlbench/error.h"
#include "metrics.h"

#define DLB_CONFORM_VERSION	3
#define DLB_CONFORM_LIST	16	/* divergences listed in report.json */

/*
 * Overheads the replay charges (docs/conformance.md "Overheads"): none;
 * the run's own, measured from its trace (the median switch-in to begin,
 * migrated or not); or given.  With any, the plain replay runs first and
 * the report says how many of its kernel-only misses the replay with the
 * overheads reproduces.
 */
enum dlb_conform_ovh {
	DLB_OVH_NONE,
	DLB_OVH_MEASURED,
	DLB_OVH_GIVEN,
};

struct dlb_conform_opts {
	const char *folder;		/* run folder: summary.json, workload.json, logs; or NULL */
	const char *outdir;		/* where jobs-trace.txt goes; NULL: not written */
	const char *kernel;		/* uname -r of the traced machine, or NULL */
	const char *backend;		/* "kernel", "reference", or NULL */
	const char *model;		/* NULL: the traced kernel's (dlb_sim_model_for) */
	bool asked;			/* replay the asked work, not the consumed */
	/* CONFIG_IRQ_TIME_ACCOUNTING of the traced kernel: 'y', 'n' (the user's);
	 * 0: the run folder's env.txt, else unknown (irq time charged) */
	char irq_time_accounting;
	enum dlb_conform_ovh overheads;	/* charge overheads in the replay (below) */
	u64 ctx_switch_ns, migration_ns;	/* DLB_OVH_GIVEN's */
};

struct dlb_conform;

struct dlb_conform *dlb_conform_create(struct dlb_err *err);

/* A dlb_job_fn (@arg: the dlb_conform): keep the run's job. */
void dlb_conform_job(const struct dlb_job *j, void *arg);

/* Extract, write, replay, diff.  0, or -1 with @err (allocation, writing the jobs trace). */
int dlb_conform_run(struct dlb_conform *c, const struct dlb_metrics *m,
		    const struct dlb_conform_opts *o, struct dlb_err *err);

/* The report's "conformance" object (docs/report-json.md); a new reference. */
struct json_object *dlb_conform_json(const struct dlb_conform *c);
/* The text report's lines ("# conformance: ..."). */
void dlb_conform_txt(FILE *f, const struct dlb_conform *c);

void dlb_conform_free(struct dlb_conform *c);

/*
 * Where @n times (one CPU's sched_stat_runtime events) put the CPU's tick,
 * as an offset from @t0 below @tick, in *@phase: 1 found, 0 not (too few
 * times, none stands out; *@phase 0), -1 allocation.
 */
int dlb_tick_phase(const u64 *ts, size_t n, u64 t0, u64 tick, u64 *phase);

#endif
