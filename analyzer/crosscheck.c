// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-checks of a run folder against its trace (crosscheck.h).  The
 * summary, log and schedstat readers live with their writers (lib/summary.c,
 * lib/runlog.c) and with the input half (analyzer/schedstat.c); where one is
 * not built in, that witness is skipped with a note.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crosscheck.h"

#if __has_include("dlbench/summary.h") && __has_include("dlbench/runlog.h")
#define HAVE_SUMMARY 1
#include "dlbench/runlog.h"
#include "dlbench/summary.h"
#else
#define HAVE_SUMMARY 0
#endif
#if __has_include("schedstat.h")
#define HAVE_SCHEDSTAT 1
#include "schedstat.h"
#else
#define HAVE_SCHEDSTAT 0
#endif

#if HAVE_SUMMARY
/* The generator's environment strings, referenced by the report info until exit. */
static struct {
	char backend[16], clock[16], workload[256];
} env;
#endif

/* Clocks agree if the generator's first logged job lies inside the trace (1 s of slack). */
#define CLOCK_SLACK_NS	NSEC_PER_SEC

void dlb_crosscheck_jobs(struct dlb_metrics *m, const char *what, u64 trace_jobs, u64 log_rows,
			 u64 log_first_ns)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);

	/* rt-app logs a row per finished job; every one of them has markers in the trace */
	if (trace_jobs < log_rows)
		dlb_metrics_flag(m, DLB_Q_MISSING_JOBS, log_rows - trace_jobs,
				 "%s: %llu jobs in the trace, %llu in its log", what,
				 (unsigned long long)trace_jobs, (unsigned long long)log_rows);
	if (!log_rows || !r->events)
		return;
	if (dl_time_before(log_first_ns + CLOCK_SLACK_NS, r->first_ts) ||
	    dl_time_before(r->last_ts + CLOCK_SLACK_NS, log_first_ns))
		dlb_metrics_flag(m, DLB_Q_CLOCK_MISMATCH, 1,
				 "%s: first logged job at %llu ns, the trace covers %llu..%llu ns",
				 what, (unsigned long long)log_first_ns,
				 (unsigned long long)r->first_ts, (unsigned long long)r->last_ts);
}

#if HAVE_SUMMARY
static struct dlb_summary *summary_load(const char *dir, struct dlb_report_info *ri)
{
	struct dlb_summary *s = NULL;
	struct dlb_err err = { 0 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (access(path, F_OK))
		return NULL;
	if (dlb_summary_read(path, &s, &err)) {
		dlb_report_note(ri, "summary.json not used: %s", err.msg);
		return NULL;
	}
	return s;
}

static void check_log(struct dlb_metrics *m, const char *dir, const char *log, int tid,
		      const char *what, struct dlb_report_info *ri)
{
	const struct dlb_task_metrics *t = dlb_metrics_task_by_tid(m, tid);
	struct dlb_runlog_rec *recs = NULL;
	struct dlb_err err = { 0 };
	char path[4096];
	size_t nr = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, log);
	if (dlb_runlog_read(path, &recs, &nr, NULL, 0, &err)) {
		dlb_report_note(ri, "log not used: %s", err.msg);
		return;
	}
	dlb_crosscheck_jobs(m, what, t ? t->jobs : 0, nr, nr ? recs[0].start * NSEC_PER_USEC : 0);
	free(recs);
}
#endif

#if HAVE_SCHEDSTAT
/*
 * The seed's schedstats (patch 005) count a miss or an overrun when the
 * kernel sees one; the trace must then show one too, and the other way
 * round.  Amounts differ by definition (the kernel measures at the
 * runtime-exhaustion check, we at the job's end), so only presence is
 * compared; both amounts go into a note.
 */
static void check_sched(struct dlb_metrics *m, const char *dir, const char *file, int tid,
			struct dlb_report_info *ri)
{
	const struct dlb_task_metrics *t = dlb_metrics_task_by_tid(m, tid);
	struct dlb_task_sched ts;
	struct dlb_err err = { 0 };
	char path[4096], *text = NULL;
	size_t len = 0;

	if (!file[0] || !t)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (dlb_read_small_file(path, &text, &len, &err) ||
	    dlb_task_sched_parse(text, len, path, &ts, &err)) {
		dlb_report_note(ri, "sched snapshot not used: %s", err.msg);
		free(text);
		return;
	}
	free(text);
	if (!(ts.has & DLB_TS_DL_STATS))
		return;
	dlb_report_note(ri, "task %s (tid %d): kernel dl.stats dmiss_max %llu ns, rorun_max %llu ns;"
			" trace max lateness %lld ns, max overrun %llu ns", t->name, tid,
			(unsigned long long)ts.dmiss_max, (unsigned long long)ts.rorun_max,
			(long long)t->lateness.max, (unsigned long long)t->overrun_max);
	if ((ts.dmiss_max > 0) != (t->misses > 0))
		dlb_metrics_flag(m, DLB_Q_SCHEDSTAT_DISAGREE, 1,
				 "tid %d: kernel dmiss_max %llu ns, trace %llu misses", tid,
				 (unsigned long long)ts.dmiss_max, (unsigned long long)t->misses);
	if ((ts.rorun_max > 0) != (t->overruns > 0))
		dlb_metrics_flag(m, DLB_Q_SCHEDSTAT_DISAGREE, 1,
				 "tid %d: kernel rorun_max %llu ns, trace %llu overruns", tid,
				 (unsigned long long)ts.rorun_max, (unsigned long long)t->overruns);
}
#endif

int dlb_crosscheck_before(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri,
			  struct dlb_err *err)
{
#if HAVE_SUMMARY
	struct dlb_summary *s = summary_load(dir, ri);
	size_t i;

	if (!s)
		return 0;
	for (i = 0; i < s->nr_threads; i++) {
		const struct dlb_summary_thread *t = &s->threads[i];

		if (t->policy == 6 && dlb_metrics_set_params(m, t->tid, t->name, t->runtime,
							     t->deadline, t->period)) {
			dlb_summary_free(s);
			return dlb_err_set(err, 5, "out of memory");
		}
	}
	snprintf(env.backend, sizeof(env.backend), "%s", s->backend);
	snprintf(env.clock, sizeof(env.clock), "%s", s->clock);
	snprintf(env.workload, sizeof(env.workload), "%s", s->workload);
	ri->backend = env.backend;
	ri->clock = env.clock;
	ri->workload = env.workload;
	if (s->cpus > 0)
		ri->cpus = s->cpus;
	if (s->status != DLB_RUN_COMPLETE)
		dlb_metrics_flag(m, DLB_Q_RUN_INCOMPLETE, 1, "summary.json: status %s",
				 dlb_run_status_str(s->status));
	dlb_summary_free(s);
#else
	(void)m;
	(void)err;
	if (!access(dir, F_OK))
		dlb_report_note(ri, "summary.json and logs not read: this build has no reader");
#endif
	return 0;
}

void dlb_crosscheck_after(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri)
{
#if HAVE_SUMMARY
	struct dlb_summary *s = summary_load(dir, ri);
	char what[128];
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_threads; i++) {
		const struct dlb_summary_thread *t = &s->threads[i];

		snprintf(what, sizeof(what), "task %s (tid %d)", t->name, t->tid);
		if (t->log[0])
			check_log(m, dir, t->log, t->tid, what, ri);
#if HAVE_SCHEDSTAT
		check_sched(m, dir, t->sched, t->tid, ri);
#endif
	}
	dlb_summary_free(s);
#else
	(void)m;
	(void)dir;
	(void)ri;
#endif
}
