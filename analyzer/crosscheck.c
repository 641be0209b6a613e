// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-checks of a run folder against its trace (crosscheck.h).  The
 * summary, log and schedstat readers live with their writers (lib/summary.c,
 * lib/runlog.c) and with the input half (analyzer/input/schedstat.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crosscheck.h"
#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/runlog.h"
#include "dlbench/summary.h"
#include "input/schedstat.h"
#include "input/trace_input.h"

/* The generator's environment strings, referenced by the report info until exit. */
static struct {
	char backend[16], clock[16], workload[256];
} env;

/* The kernel's DL accounting check of the run, referenced by the report info until exit. */
static struct dlb_summary_dlbw dlbw;

/* summary.json's dl_accounting (kernel runs) into the report: its cpus move with it. */
static void take_dlbw(struct dlb_summary *s, struct dlb_report_info *ri)
{
	if (s->dlbw.status == DLB_DLBW_ABSENT)
		return;
	free(dlbw.cpus);
	dlbw = s->dlbw;
	s->dlbw.cpus = NULL;
	s->dlbw.nr_cpus = 0;
	ri->dlbw = &dlbw;
	if (dlbw.status == DLB_DLBW_FINDING) {
		/* the verdict's kernel check (verdict.h): a finding fails the run */
		ri->kernel_check = "dl_accounting";
		ri->kernel_finding = dlbw.detail;
	}
}

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

/* A file of the folder that is never its trace: ours, the generator's, rt-app's logs. */
static bool not_a_trace(const char *name)
{
	static const char *const files[] = {
		"report.txt", "record.txt", "env.txt", "commands.sh",
	};
	static const char *const exts[] = {
		".log", ".json", ".csv", ".sched", ".png", ".svg", ".gz", ".md",
	};
	size_t i, len = strlen(name);

	if (name[0] == '.')
		return true;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(name, files[i]))
			return true;
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (len > strlen(exts[i]) && !strcmp(name + len - strlen(exts[i]), exts[i]))
			return true;
	return false;
}

/* Is @path a regular file one of our readers recognises? */
static bool is_trace(const char *path)
{
	struct dlb_err err = { 0 };
	struct dlb_trace *t;
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	t = dlb_trace_open(path, &err);
	dlb_trace_close(t);
	return t != NULL;
}

int dlb_crosscheck_find_trace(const char *dir, char *path, size_t size, struct dlb_err *err)
{
	static const char *const names[] = { "trace.dat", "trace.txt" };
	char found[2][256];
	struct dirent *de;
	int n = 0;
	size_t i;
	DIR *d;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, size, "%s/%s", dir, names[i]);
		if (access(path, F_OK) == 0)
			return 0;
	}
	d = opendir(dir);
	if (!d)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", dir, dlb_strerror(errno));
	while ((de = readdir(d))) {
		if (not_a_trace(de->d_name))
			continue;
		snprintf(path, size, "%s/%s", dir, de->d_name);
		if (!is_trace(path))
			continue;
		if (n < 2)
			snprintf(found[n], sizeof(found[n]), "%s", de->d_name);
		n++;
	}
	closedir(d);
	if (n == 1) {
		snprintf(path, size, "%s/%s", dir, found[0]);
		return 0;
	}
	if (n > 1)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %d traces in this folder (%s, %s%s): "
				   "give the one to read", dir, n, found[0], found[1],
				   n > 2 ? ", ..." : "");
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: no trace in this folder (trace.dat, "
			   "trace.txt, or another trace file)", dir);
}

/* @ri NULL: a failure is not noted again (dlb_crosscheck_before did). */
static struct dlb_summary *summary_load(const char *dir, struct dlb_report_info *ri)
{
	struct dlb_summary *s = NULL;
	struct dlb_err err = { 0 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (access(path, F_OK))
		return NULL;
	if (dlb_summary_read(path, &s, &err)) {
		if (ri)
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

/*
 * record.txt, the recorder's key=value account (docs/results.md): what it
 * knows about the recording that the trace may not say (events it saw
 * lost, an interrupted recording), and the machine if it records it.
 */
static struct {
	char clock[16], kernel[128], arch[32], status[32];
	u64 lost;
	unsigned long tick_hz;		/* the recorder measured the kernel's CONFIG_HZ */
	bool interrupted, seen;
} rec;

static void record_value(const char *k, const char *v)
{
	if (!strcmp(k, "clock"))
		snprintf(rec.clock, sizeof(rec.clock), "%s", v);
	else if (!strcmp(k, "kernel"))
		snprintf(rec.kernel, sizeof(rec.kernel), "%s", v);
	else if (!strcmp(k, "arch"))
		snprintf(rec.arch, sizeof(rec.arch), "%s", v);
	else if (!strcmp(k, "status"))
		snprintf(rec.status, sizeof(rec.status), "%s", v);
	else if (!strcmp(k, "lost_events"))
		rec.lost = strtoull(v, NULL, 10);
	else if (!strcmp(k, "interrupted"))
		rec.interrupted = strcmp(v, "0") != 0;
	else if (!strcmp(k, "tick_hz"))
		rec.tick_hz = strtoul(v, NULL, 10);
}

/*
 * A key=value file of the run folder (record.txt, guest.txt): each line to
 * @value, '#' lines and lines without '=' skipped.  False when there is none.
 */
static bool kv_load(const char *dir, const char *name, void (*value)(const char *, const char *))
{
	char path[4096], line[1280], *eq;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		eq = strchr(line, '=');
		if (line[0] == '#' || !eq)
			continue;
		*eq = '\0';
		value(line, eq + 1);
	}
	fclose(f);
	return true;
}

static void record_load(const char *dir, struct dlb_report_info *ri)
{
	memset(&rec, 0, sizeof(rec));	/* this folder's, not an earlier one's */
	if (!kv_load(dir, "record.txt", record_value))
		return;
	rec.seen = true;
	if (rec.clock[0]) {
		ri->clock = rec.clock;
		ri->clock_from = "record.txt";
	}
	if (rec.kernel[0] && !ri->kernel)
		ri->kernel = rec.kernel;
	if (rec.arch[0] && !ri->arch)
		ri->arch = rec.arch;
}

/*
 * guest.txt, what guest/run-guest.sh knows of a run under qemu (docs/guest.md):
 * the guest's own uname -r and uname -m, the CPUs it saw, and the image booted
 * with its checksum, so that a report names the exact kernel binary it judged.
 */
static struct {
	char kernel[128], arch[32], image[1024], sha256[72];
	int cpus;
	struct dlb_boot_dlbw boot;
} guest = { .boot = { .total_bw = -1, .fair_bw = -1, .repaired = -1 } };

/* a number of guest.txt, -1 when empty or not one */
static long long kv_num(const char *v)
{
	char *end;
	long long x = strtoll(v, &end, 10);

	return end != v && !*end ? x : -1;
}

static void guest_value(const char *k, const char *v)
{
	if (!strcmp(k, "kernel"))
		snprintf(guest.kernel, sizeof(guest.kernel), "%s", v);
	else if (!strcmp(k, "arch"))
		snprintf(guest.arch, sizeof(guest.arch), "%s", v);
	else if (!strcmp(k, "image"))
		snprintf(guest.image, sizeof(guest.image), "%s", v);
	else if (!strcmp(k, "image_sha256"))
		snprintf(guest.sha256, sizeof(guest.sha256), "%s", v);
	else if (!strcmp(k, "cpus_online"))
		guest.cpus = atoi(v);
	else if (!strcmp(k, "boot_dl_accounting"))
		snprintf(guest.boot.status, sizeof(guest.boot.status), "%s", v);
	else if (!strcmp(k, "boot_dl_detail"))
		snprintf(guest.boot.detail, sizeof(guest.boot.detail), "%s", v);
	else if (!strcmp(k, "boot_dl_total_bw"))
		guest.boot.total_bw = kv_num(v);
	else if (!strcmp(k, "boot_dl_fair_bw"))
		guest.boot.fair_bw = kv_num(v);
	else if (!strcmp(k, "boot_dl_total_bw_repaired"))
		guest.boot.repaired = kv_num(v);
}

/* The command line's --kernel/--arch win; summary.json's CPU count wins later. */
static void guest_load(const char *dir, struct dlb_report_info *ri)
{
	if (!kv_load(dir, "guest.txt", guest_value))
		return;
	if (guest.kernel[0] && (!ri->kernel || !ri->kernel[0]))
		ri->kernel = guest.kernel;
	if (guest.arch[0] && (!ri->arch || !ri->arch[0]))
		ri->arch = guest.arch;
	if (guest.cpus > 0 && !ri->cpus)
		ri->cpus = guest.cpus;
	if (guest.image[0])
		ri->image = guest.image;
	if (guest.sha256[0])
		ri->image_sha256 = guest.sha256;
	if (guest.boot.status[0])
		ri->boot_dlbw = &guest.boot;
}

/* What the recorder saw lost is lost, whether or not the trace file says so. */
static void record_check(struct dlb_metrics *m)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	u64 have = r->quality[DLB_Q_LOST_EVENTS].count;

	if (!rec.seen)
		return;
	if (rec.lost > have)
		dlb_metrics_flag(m, DLB_Q_LOST_EVENTS, rec.lost - have,
				 "record.txt: the recorder counted %llu lost events",
				 (unsigned long long)rec.lost);
	if (rec.interrupted || (rec.status[0] && strcmp(rec.status, "complete")))
		dlb_metrics_flag(m, DLB_Q_RUN_INCOMPLETE, 1, "record.txt: status %s%s",
				 rec.status[0] ? rec.status : "unknown",
				 rec.interrupted ? ", interrupted" : "");
}

/*
 * The task a log "<base>-<task>-<idx>.log" belongs to, by name: rt-app
 * names its threads after their task.  NULL (and a note) when no task or
 * more than one has that name.
 */
static const struct dlb_task_metrics *log_task(const struct dlb_metrics *m, const char *file,
					       struct dlb_report_info *ri)
{
	const struct dlb_task_metrics *found = NULL;
	size_t i, n = 0, flen = strlen(file);

	for (i = 0; i < dlb_metrics_nr_tasks(m); i++) {
		const struct dlb_task_metrics *t = dlb_metrics_task(m, i);
		size_t tl = strlen(t->name);
		const char *p;

		/* "-NAME-" followed by digits and ".log" */
		if (!tl || flen < tl + 7)
			continue;
		p = file + flen - 4;
		while (p > file && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p == file + flen - 4 || p - file < (long)tl + 2 || p[-1] != '-' ||
		    p[-2 - (long)tl] != '-' || memcmp(p - 1 - tl, t->name, tl))
			continue;
		found = t;
		n++;
	}
	if (n == 1)
		return found;
	dlb_report_note(ri, "log %s not checked: %s", file,
			n ? "several tasks have its name" : "no task of its name in the trace");
	return NULL;
}

/* A folder rt-app itself wrote: logs, no summary.json; tasks matched by name. */
static void check_logs_by_name(struct dlb_metrics *m, const char *dir,
			       struct dlb_report_info *ri)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char what[300];

	if (!d)
		return;
	while ((de = readdir(d))) {
		const struct dlb_task_metrics *t;
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".log"))
			continue;
		/* ours, not rt-app's: dlb-record's record-extract.log, run.sh's run.log... */
		if (!strncmp(de->d_name, "record-", 7) || !strcmp(de->d_name, "run.log") ||
		    !strcmp(de->d_name, "analyze.log"))
			continue;
		t = log_task(m, de->d_name, ri);
		if (!t)
			continue;
		snprintf(what, sizeof(what), "task %s (tid %d)", t->name, t->tid);
		check_log(m, dir, de->d_name, t->tid, what, ri);
	}
	closedir(d);
}

/*
 * The summary counts jobs begun; the trace's finished jobs may be one
 * fewer per thread (the job running when tracing stopped), never more
 * fewer than that.
 */
static void check_summary_jobs(struct dlb_metrics *m, const struct dlb_summary_thread *st,
			       const char *what)
{
	const struct dlb_task_metrics *t = dlb_metrics_task_by_tid(m, st->tid);
	u64 jobs = t ? t->jobs : 0;

	if (st->jobs > jobs + 1)
		dlb_metrics_flag(m, DLB_Q_MISSING_JOBS, st->jobs - jobs - 1,
				 "%s: %llu jobs in the trace, %llu begun says summary.json", what,
				 (unsigned long long)jobs, (unsigned long long)st->jobs);
}

/*
 * The reference's ops.csv: what its push, pull, find, set and select cost
 * per call (the decision cost DESIGN.md asks for), carried into the report
 * as the simulator measured it.
 */
static void read_ops(const char *dir, struct dlb_report_info *ri)
{
	char path[4096], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/ops.csv", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f) || strncmp(line, "op,cpu_select,cpus,calls,", 25)) {
		dlb_report_note(ri, "%s not used: not the reference's ops.csv", path);
		fclose(f);
		return;
	}
	while (ri->nr_ops < DLB_REPORT_MAX_OPS && fgets(line, sizeof(line), f)) {
		struct dlb_report_op *op = &ri->ops[ri->nr_ops];
		unsigned long long sum;

		if (sscanf(line, "%15[^,],%15[^,],%d,%llu,%llu,%15[^,],%llu,%llu,%llu,%lf,%llu,%llu",
			   op->op, op->cpu_select, &op->cpus, &op->calls, &op->done, op->unit, &sum,
			   &op->min, &op->max, &op->mean, &op->p50, &op->p99) != 12) {
			dlb_report_note(ri, "%s: row %d not understood", path, ri->nr_ops + 2);
			break;
		}
		ri->nr_ops++;
	}
	fclose(f);
}

/* The reference's snapshots, sched/<tid>.sched, in a folder without summary.json. */
static void check_sched_dir(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri)
{
	char path[4096], file[300];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sched", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (end == de->d_name || strcmp(end, ".sched") || tid <= 0)
			continue;
		snprintf(file, sizeof(file), "sched/%s", de->d_name);
		check_sched(m, dir, file, (int)tid, ri);
	}
	closedir(d);
}

int dlb_crosscheck_before(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri,
			  struct dlb_err *err)
{
	struct dlb_summary *s;
	size_t i;

	record_load(dir, ri);
	/* the tick for the CPU stall check, if neither --tick-hz nor env.txt gave it */
	if (rec.tick_hz >= 24 && rec.tick_hz <= 10000)
		dlb_metrics_set_tick(m, NSEC_PER_SEC / rec.tick_hz);
	guest_load(dir, ri);
	read_ops(dir, ri);
	s = summary_load(dir, ri);
	if (!s)
		return 0;
	for (i = 0; i < s->nr_threads; i++) {
		const struct dlb_summary_thread *t = &s->threads[i];

		if (t->policy == 6 && dlb_metrics_set_params(m, t->tid, t->name, t->runtime,
							     t->deadline, t->period)) {
			dlb_summary_free(s);
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		}
	}
	snprintf(env.backend, sizeof(env.backend), "%s", s->backend);
	snprintf(env.clock, sizeof(env.clock), "%s", s->clock);
	snprintf(env.workload, sizeof(env.workload), "%s", s->workload);
	ri->backend = env.backend;
	/*
	 * The recorder's clock is the trace's (it set it and read it back);
	 * the generator's is the one of its markers and logs.  Two different
	 * clocks: marker and log times cannot be compared with the trace's.
	 */
	if (ri->clock && env.clock[0] && strcmp(ri->clock, env.clock))
		dlb_metrics_flag(m, DLB_Q_CLOCK_MISMATCH, 1,
				 "record.txt: trace clock %s, summary.json: the generator's clock %s",
				 ri->clock, env.clock);
	else if (!ri->clock && env.clock[0]) {
		ri->clock = env.clock;
		ri->clock_from = "summary.json";
	}
	ri->workload = env.workload;
	take_dlbw(s, ri);
	if (s->cpus > 0)
		ri->cpus = s->cpus;
	/* for the verdict: the generator's own account, never its messages */
	ri->have_summary = true;
	ri->run_status = s->status;
	ri->admission = s->admission;
	snprintf(ri->admission_detail, sizeof(ri->admission_detail), "%s", s->admission_detail);
	if (s->status != DLB_RUN_COMPLETE)
		dlb_metrics_flag(m, DLB_Q_RUN_INCOMPLETE, 1, "summary.json: status %s",
				 dlb_run_status_str(s->status));
	dlb_summary_free(s);
	return 0;
}

/* The scheduler's statistics around the run, referenced by the report info until exit. */
static struct dlb_kstats kstats;

/*
 * DIR/BASE-before.txt and -after.txt, parsed by @parse into @snap[0] and [1].
 * 1: no such pair (a kernel without the file, a reference run); -1: one is
 * unreadable or malformed, said in a note (the report goes on without them).
 */
static int snap_pair(const char *dir, const char *base, void *snap, size_t size,
		     int (*parse)(const char *, size_t, const char *, void *, struct dlb_err *),
		     void (*release)(void *), struct dlb_report_info *ri)
{
	static const char *const when[2] = { "before", "after" };
	struct dlb_err err = { 0 };
	char path[4096], *text;
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s-%s.txt", dir, base, when[i]);
		if (access(path, F_OK)) {
			if (i)
				release(snap);
			return 1;
		}
		text = NULL;
		if (dlb_read_small_file(path, &text, &len, &err) ||
		    parse(text, len, path, (char *)snap + (size_t)i * size, &err)) {
			free(text);
			if (i)
				release(snap);
			dlb_report_note(ri, "%s snapshots not used: %s", base, err.msg);
			return -1;
		}
		free(text);
	}
	return 0;
}

static int parse_debug(const char *t, size_t n, const char *name, void *sd, struct dlb_err *err)
{
	return dlb_sched_debug_parse(t, n, name, sd, err);
}

static int parse_schedstat(const char *t, size_t n, const char *name, void *st, struct dlb_err *err)
{
	return dlb_schedstat_parse(t, n, name, st, err);
}

static void free_debug(void *sd)
{
	dlb_sched_debug_free(sd);
}

static void free_schedstat(void *st)
{
	dlb_schedstat_free(st);
}

/* after less before of one CPU's counters; false when one went back (not one boot's) */
static bool schedstat_delta(const struct dlb_schedstat_cpu *b, const struct dlb_schedstat_cpu *a,
			    struct dlb_schedstat_cpu *d)
{
#define D(f)	do { if (a->f < b->f) return false; d->f = a->f - b->f; } while (0)
	D(yld_count);
	D(sched_count);
	D(sched_goidle);
	D(ttwu_count);
	D(ttwu_local);
	D(rq_cpu_time);
	D(run_delay);
	D(pcount);
#undef D
	d->present = true;
	return true;
}

/*
 * The folder's sched debug and /proc/schedstat snapshots into ri->kstats:
 * per CPU, the dl_rq before and after and the schedstat counters' growth.
 */
static void load_kstats(const char *dir, struct dlb_report_info *ri)
{
	struct dlb_sched_debug sd[2];
	struct dlb_schedstat st[2];
	bool debug, sstat;
	int c, n = 0;

	free(kstats.cpus);
	memset(&kstats, 0, sizeof(kstats));
	debug = !snap_pair(dir, "sched-debug", sd, sizeof(sd[0]), parse_debug, free_debug, ri);
	sstat = !snap_pair(dir, "schedstat", st, sizeof(st[0]), parse_schedstat, free_schedstat, ri);
	if (debug)
		n = sd[0].nr_cpus > sd[1].nr_cpus ? sd[0].nr_cpus : sd[1].nr_cpus;
	if (sstat && st[0].nr_cpus > n)
		n = st[0].nr_cpus;
	if (sstat && st[1].nr_cpus > n)
		n = st[1].nr_cpus;
	if (n > 0)
		kstats.cpus = calloc((size_t)n, sizeof(*kstats.cpus));
	if (kstats.cpus) {
		kstats.nr_cpus = n;
		kstats.sched_debug = debug;
		kstats.schedstat = sstat;
		kstats.schedstat_version = sstat ? st[1].version : 0;
		for (c = 0; c < n; c++) {
			struct dlb_kstats_cpu *k = &kstats.cpus[c];

			k->cpu = c;
			if (debug && c < sd[0].nr_cpus && c < sd[1].nr_cpus &&
			    sd[0].dl_rq[c].has && sd[1].dl_rq[c].has) {
				k->before = sd[0].dl_rq[c];
				k->after = sd[1].dl_rq[c];
			}
			if (sstat && c < st[0].nr_cpus && c < st[1].nr_cpus &&
			    st[0].cpu[c].present && st[1].cpu[c].present) {
				k->schedstat = schedstat_delta(&st[0].cpu[c], &st[1].cpu[c], &k->delta);
				if (!k->schedstat)
					dlb_report_note(ri, "schedstat of cpu%d went back between the"
							" snapshots: not used", c);
			}
		}
		ri->kstats = &kstats;
	}
	if (debug) {
		dlb_sched_debug_free(&sd[0]);
		dlb_sched_debug_free(&sd[1]);
	}
	if (sstat) {
		dlb_schedstat_free(&st[0]);
		dlb_schedstat_free(&st[1]);
	}
}

void dlb_crosscheck_after(struct dlb_metrics *m, const char *dir, struct dlb_report_info *ri)
{
	struct dlb_summary *s = summary_load(dir, NULL);
	char what[128];
	size_t i;

	record_check(m);
	load_kstats(dir, ri);
	if (!s) {
		check_logs_by_name(m, dir, ri);
		check_sched_dir(m, dir, ri);
		return;
	}
	for (i = 0; i < s->nr_threads; i++) {
		const struct dlb_summary_thread *t = &s->threads[i];

		snprintf(what, sizeof(what), "task %s (tid %d)", t->name, t->tid);
		check_summary_jobs(m, t, what);
		if (t->log[0])
			check_log(m, dir, t->log, t->tid, what, ri);
		check_sched(m, dir, t->sched, t->tid, ri);
	}
	dlb_summary_free(s);
}
