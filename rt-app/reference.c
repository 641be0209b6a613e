// SPDX-License-Identifier: GPL-2.0
/*
 * The reference backend: the workload on the reference simulator
 * (reference/sim.h), written to the same run folder as the kernel backend
 * (docs/results.md): rt-app logs from the simulator's job hook, trace.txt
 * in the kernel's text format from its event hook (markers included), or
 * with -f dat trace.dat (include/dlbench/tracedat.h),
 * /proc-style sched snapshots from its per-thread stats, summary.json.
 *
 * Everything here is a function of the workload and the options: virtual
 * time from 0, no wall clock, no PIDs, so the output is byte-identical from
 * run to run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/event_text.h"
#include "dlbench/exitcode.h"
#include "dlbench/tracedat.h"

#include "../reference/sim.h"
#include "rtapp.h"

/*
 * The model has no busy loop: a "loop" is one µs of nominal work, so
 * perf x calibration is the work done, as on the kernel backend.
 */
#define REF_NS_PER_LOOP	1000.0

struct ref_thread {
	FILE *log;
	char log_name[DLB_SUMMARY_PATH_MAX];
	char sched_name[DLB_SUMMARY_PATH_MAX];
	char events_name[DLB_SUMMARY_PATH_MAX];
	s64 max_lateness;
	u64 jobs;
};

struct ref_run {
	struct rtapp_run *run;
	struct dlb_sim *sim;
	FILE *trace;
	struct dlb_tracedat *dat;	/* -f dat: instead of trace */
	struct dlb_err dat_err;		/* its error, when dat_failed */
	bool dat_failed;
	size_t nr;		/* threads whose files are open (forked ones come in the run) */
	size_t cap;		/* wl_max_threads() */
	struct ref_thread *th;
	struct dlb_err *err;	/* where on_job says why it stopped the run */
	const char *bad_file;	/* the first output that could not be written */
	int bad_errno;		/* and why */
	struct dlb_cli_progress progress;
};

/* Remember the first failed write (its file and errno) for the run's error line. */
static void write_failed(struct ref_run *r, const char *name)
{
	if (r->bad_file)
		return;
	r->bad_file = name;
	r->bad_errno = errno ? errno : EIO;
}

static void on_progress(u64 now, u64 end, void *arg)
{
	dlb_cli_progress(arg, "dlb-rtapp", now, end, false);
}

static int on_event(const struct dlb_event *ev, void *arg)
{
	struct ref_run *r = arg;
	char line[DLB_EVENT_TEXT_MAX];
	int n;

	if (rtapp_signalled)
		return DLB_EXIT_INCOMPLETE;
	/* fwrite, not fprintf "%s\n": vfprintf was 4 % of a 64-CPU run's samples */
	n = dlb_event_format(line, sizeof(line) - 1, ev, dlb_sim_comm(r->sim, ev->pid));
	if (n < 0) {
		write_failed(r, "trace.txt");
		return 0;
	}
	line[n++] = '\n';
	if (fwrite(line, 1, (size_t)n, r->trace) != (size_t)n)
		write_failed(r, "trace.txt");
	return 0;
}

static int on_event_dat(const struct dlb_event *ev, void *arg)
{
	struct ref_run *r = arg;

	if (rtapp_signalled)
		return DLB_EXIT_INCOMPLETE;
	if (!dlb_tracedat_event(r->dat, ev, dlb_sim_comm(r->sim, ev->pid), &r->dat_err))
		return 0;
	r->dat_failed = true;
	return r->dat_err.code;
}

static int open_logs(struct ref_run *r, size_t n, struct dlb_err *err);

/* One job as one rt-app log line (runlog.h has the columns). */
static int on_job(const struct dlb_sim_job *j, void *arg)
{
	struct ref_run *r = arg;
	struct ref_thread *t;
	char line[DLB_RUNLOG_LINE_MAX];
	struct dlb_runlog_rec rec = {
		.idx = (int)j->thread,
		.perf = j->run_ns / NSEC_PER_USEC,
		/* rt-app's run: the wall time of the run events, not the job's span */
		.run = j->run_wall_ns / NSEC_PER_USEC,
		/* to the next release, or to the end when the job was late */
		.period = (j->end + (j->slack_ns > 0 ? (u64)j->slack_ns : 0) - j->begin) /
			  NSEC_PER_USEC,
		.start = j->begin / NSEC_PER_USEC,
		.end = j->end / NSEC_PER_USEC,
		.rel_st = j->begin / NSEC_PER_USEC,
		.slack = j->slack_ns / (s64)NSEC_PER_USEC,
		.c_duration = j->run_ns / NSEC_PER_USEC,
		.c_period = j->period_ns / NSEC_PER_USEC,
		.wu_lat = j->wu_lat_ns / NSEC_PER_USEC,
	};
	int n;

	/* a thread forked in the run: its files now, before its first line */
	if (j->thread >= r->nr && open_logs(r, dlb_sim_nr_threads(r->sim), r->err))
		return r->err->code;
	t = &r->th[j->thread];
	if (j->deadline) {
		s64 late = (s64)(j->end - j->deadline);

		if (!t->jobs || late > t->max_lateness)
			t->max_lateness = late;
	}
	t->jobs++;
	if (!t->log)
		return 0;
	n = dlb_runlog_format(line, sizeof(line), &rec);
	if (n < 0 || fwrite(line, 1, (size_t)n, t->log) != (size_t)n)
		write_failed(r, t->log_name);
	return 0;
}

static FILE *open_out(struct ref_run *r, const char *name, struct dlb_err *err)
{
	char path[PATH_MAX + DLB_SUMMARY_PATH_MAX + 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->run->outdir, name);
	f = fopen(path, "w");
	if (!f)
		dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	return f;
}

/* The log files of threads r->nr .. @n - 1 (those forked since: @n grows). */
static int open_logs(struct ref_run *r, size_t n, struct dlb_err *err)
{
	const struct workload *wl = r->run->wl;
	char hdr[DLB_RUNLOG_LINE_MAX];
	struct dlb_sim_task_stats st;
	size_t i;

	for (i = r->nr; i < n && i < r->cap; i++, r->nr++) {
		const struct wl_task *t;

		dlb_sim_task_stats(r->sim, i, &st);
		t = &wl->tasks[st.task];
		if (rtapp_thread_files(wl, t, i, st.fork, r->th[i].log_name, r->th[i].sched_name,
				       r->run->opts->event_log ? r->th[i].events_name : NULL,
				       sizeof(r->th[i].log_name), err))
			return -1;
		if (wl->global.log_size == 0) {	/* "disable": no log, as rt-app */
			r->th[i].log_name[0] = '\0';
			continue;
		}
		r->th[i].log = open_out(r, r->th[i].log_name, err);
		if (!r->th[i].log)
			return -1;
		dlb_runlog_header(hdr, sizeof(hdr), wl_policy_str(t->policy),
				  t->policy != WL_POLICY_DEADLINE, t->priority);
		fputs(hdr, r->th[i].log);
	}
	return 0;
}

/* The kernel's /proc/PID/sched layout ("%-45s:%21lld"), from the simulator's stats. */
static int write_sched(struct ref_run *r, size_t i, struct dlb_err *err)
{
	struct dlb_sim_task_stats st;
	FILE *f;

	dlb_sim_task_stats(r->sim, i, &st);
	f = open_out(r, r->th[i].sched_name, err);
	if (!f)
		return -1;
	fprintf(f, "%s (%d, #threads: 1)\n", st.comm, st.tid);
	fprintf(f, "-------------------------------------------------------------------\n");
#define LINE(name, v) fprintf(f, "%-45s:%21lld\n", name, (long long)(v))
	fprintf(f, "%-45s:%14llu.%06llu\n", "se.sum_exec_runtime",
		(unsigned long long)(st.sum_exec_runtime / NSEC_PER_MSEC),
		(unsigned long long)(st.sum_exec_runtime % NSEC_PER_MSEC));
	LINE("se.nr_migrations", st.nr_migrations);
	LINE("nr_switches", st.nr_switches);
	LINE("nr_voluntary_switches", st.nr_voluntary_switches);
	LINE("nr_involuntary_switches", st.nr_involuntary_switches);
	LINE("se.nr_wakeups", st.nr_wakeups);
	LINE("policy", st.policy);
	LINE("prio", st.prio);
	if (st.policy == WL_POLICY_DEADLINE) {
		LINE("dl.runtime", st.dl_runtime_left);
		LINE("dl.deadline", st.dl_deadline_abs);
		/* the seed's per-task schedstats (patch 005) and the simulator's counts */
		LINE("dl.stats.last_dmiss", st.last_dmiss);
		LINE("dl.stats.dmiss_max", st.dmiss_max);
		LINE("dl.stats.last_rorun", st.last_rorun);
		LINE("dl.stats.rorun_max", st.rorun_max);
		LINE("dl.nr_throttled", st.nr_throttled);
		LINE("dl.nr_replenished", st.nr_replenished);
	}
#undef LINE
	if (fclose(f))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/%s: %s", r->run->outdir,
				   r->th[i].sched_name, dlb_strerror(errno));
	return 0;
}

/* The events thread @i went through (-E), as the kernel backend writes them. */
static int write_events(struct ref_run *r, size_t i, struct dlb_err *err)
{
	FILE *f;

	if (!r->th[i].events_name[0])
		return 0;
	f = open_out(r, r->th[i].events_name, err);
	if (!f)
		return -1;
	if (dlb_sim_write_events(r->sim, i, f) | fclose(f))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/%s: %s", r->run->outdir,
				   r->th[i].events_name, dlb_strerror(errno ? errno : EIO));
	return 0;
}

static void fill_summary(struct ref_run *r, const struct dlb_sim_opts *o, struct dlb_summary *sum)
{
	const struct workload *wl = r->run->wl;
	struct dlb_sim_task_stats st;
	size_t i;

	snprintf(sum->backend, sizeof(sum->backend), "reference");
	snprintf(sum->clock, sizeof(sum->clock), "virtual");
	snprintf(sum->model, sizeof(sum->model), "%s", o->model);
	sum->cpus = dlb_sim_nr_cpus(r->sim);
	sum->start_ns = 0;
	sum->end_ns = dlb_sim_now(r->sim);
	sum->threads = calloc(r->nr ? r->nr : 1, sizeof(*sum->threads));
	if (!sum->threads)
		return;
	sum->nr_threads = r->nr;
	for (i = 0; i < r->nr; i++) {
		struct dlb_summary_thread *s = &sum->threads[i];
		const struct wl_task *t;

		dlb_sim_task_stats(r->sim, i, &st);
		t = &wl->tasks[st.task];
		snprintf(s->name, sizeof(s->name), "%s", t->name);
		s->instance = st.instance;
		s->index = (int)i;
		s->tid = st.tid;
		s->policy = st.policy;
		s->priority = t->priority;
		s->runtime = st.dl_runtime;
		s->deadline = st.dl_deadline;
		s->period = st.dl_period;
		/* what the simulated sched_setattr was given (the v4 rules ignore it) */
		s->dl_flags = st.policy == WL_POLICY_DEADLINE ? t->dl.flags : 0;
		s->jobs = st.jobs;
		s->misses = st.jobs_missed;
		s->max_lateness = r->th[i].max_lateness;
		snprintf(s->log, sizeof(s->log), "%s", r->th[i].log_name);
		snprintf(s->sched, sizeof(s->sched), "%s", r->th[i].sched_name);
	}
}

static int ref_close(struct ref_run *r, struct dlb_err *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < r->nr; i++)
		if (r->th[i].log && fclose(r->th[i].log))
			write_failed(r, r->th[i].log_name);
	if (r->trace && fclose(r->trace))
		write_failed(r, "trace.txt");
	/* what was simulated is written, as trace.txt's lines are, unless it failed */
	if (r->dat && !r->dat_failed && dlb_tracedat_finish(r->dat, &r->dat_err))
		r->dat_failed = true;
	dlb_tracedat_free(r->dat);
	/* the writer's own words, not the simulator's "the event consumer stopped" */
	if (r->dat_failed)
		rc = dlb_err_set(err, r->dat_err.code, "%s", r->dat_err.msg);
	if (r->bad_file && !err->msg[0])
		rc = dlb_err_set(err, DLB_EXIT_ENV, "%s/%s: %s", r->run->outdir, r->bad_file,
				 dlb_strerror(r->bad_errno));
	free(r->th);
	return rc;
}

int rtapp_reference_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err)
{
	struct ref_run r = { .run = run };
	struct dlb_sim_opts o;
	int rc = -1;
	size_t i;

	dlb_sim_opts_init(&o);
	o.nr_cpus = run->opts->cpus ? run->opts->cpus :
		    (int)sysconf(_SC_NPROCESSORS_ONLN);
	o.duration_ns = run->opts->duration_ns;
	o.event_log = run->opts->event_log;
	if (run->opts->ref_model && dlb_sim_opts_model(&o, run->opts->ref_model))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "model: '%s' is not known",
				   run->opts->ref_model);
	run->ns_per_loop = REF_NS_PER_LOOP;
	r.sim = dlb_sim_create(run->wl, &o, err);
	if (!r.sim) {
		/* the simulated sched_setattr refused: the same outcome as the kernel's */
		if (err->errnum == EBUSY) {
			sum->admission = DLB_ADMISSION_REFUSED;
			snprintf(sum->admission_detail, sizeof(sum->admission_detail), "%s",
				 err->msg);
		}
		return err->code;
	}
	sum->admission = DLB_ADMISSION_ADMITTED;
	r.cap = wl_max_threads(run->wl);
	r.err = err;
	r.th = calloc(r.cap ? r.cap : 1, sizeof(*r.th));
	if (!r.th) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	if (run->opts->trace_dat) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/trace.dat", run->outdir);
		r.dat = dlb_tracedat_create(path, o.nr_cpus, err);
		if (!r.dat)
			goto out;
	} else {
		r.trace = open_out(&r, "trace.txt", err);
		if (!r.trace)
			goto out;
		fprintf(r.trace, "# tracer: nop\n#\n");
	}
	if (open_logs(&r, dlb_sim_nr_threads(r.sim), err))
		goto out;
	dlb_sim_set_event_hook(r.sim, r.dat ? on_event_dat : on_event, &r);
	dlb_sim_set_job_hook(r.sim, on_job, &r);
	if (!run->opts->quiet)
		dlb_sim_set_progress_hook(r.sim, on_progress, &r.progress);
	rc = dlb_sim_run(r.sim, err);
	dlb_cli_progress(&r.progress, "dlb-rtapp", 0, 0, true);
	/* forked threads that ended no job: their (empty) logs, as the kernel backend's */
	if (!rc && open_logs(&r, dlb_sim_nr_threads(r.sim), err))
		rc = -1;
	for (i = 0; i < r.nr && !rc; i++)
		rc = write_sched(&r, i, err) || write_events(&r, i, err) ? -1 : 0;
out:
	fill_summary(&r, &o, sum);
	sum->status = rc == 0 ? DLB_RUN_COMPLETE :
		      err->code == DLB_EXIT_INCOMPLETE ? DLB_RUN_INCOMPLETE : DLB_RUN_ERROR;
	if (ref_close(&r, err) && !rc)
		rc = -1;
	dlb_sim_free(r.sim);
	return rc ? err->code : DLB_EXIT_OK;
}
