// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-analyze: a trace (or a run folder) in, per-task / per-CPU / run
 * metrics out (report.txt, report.json, jobs.csv); and `compare` of two
 * reports.  Options and exit codes: usage() below, docs/analyzer.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "conform.h"
#include "env.h"
#include "crosscheck.h"
#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "metrics.h"
#include "report.h"
#include "input/trace_input.h"
#include "verdict.h"
#include "../reference/sim.h"

#define PROG "dlb-analyze"

struct opts {
	const char *input, *outdir, *kernel, *arch;
	int cpus;
	int jobs;			/* trace.dat decoding threads, 0: the default */
	int tick_hz;			/* --tick-hz; 0: env.txt's config_HZ */
	struct dlb_miss_limit max_misses;
	enum dlb_expect expect;
	const char *watch;
	int run_exit;			/* -1: not given */
	const char *baseline, *thresholds;
	const char *tspec[64];		/* -t SPEC for --baseline */
	int nr_tspec;
	unsigned int accepted;
	bool quiet, to_stdout;
	char cmdline[1024];
	bool no_conform, conform_asked;
	enum dlb_conform_ovh conform_ovh;
	u64 ovh_cs, ovh_mig;		/* --replay-overheads=CS,MIG */
	const char *conform_model;
	char conform_irq_acct;		/* --irq-time-accounting: 'y', 'n'; 0: env.txt's */
	struct { char spec[128]; } params[64];
	int nr_params;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [OPTIONS] INPUT\n"
"       " PROG " compare [OPTIONS] BASE NEW\n"
"\n"
"INPUT is a trace (trace.dat, kernel text, trace-cmd report output) or a run\n"
"folder (trace.dat or trace.txt, summary.json, rt-app logs, .sched snapshots).\n"
"Writes report.txt, report.json, jobs.csv and stalls.csv into the output folder\n"
"and prints the table.\n"
"\n"
"  -o, --output DIR          write the reports into DIR (default: the run folder;\n"
"                            for a trace file, only the table on stdout)\n"
"  -c, --cpus N              CPUs of the traced machine (default: from the trace)\n"
"  -m, --max-misses N|N%%     deadline misses allowed before exit 1, a number or a\n"
"                            percentage of the watched jobs (default 0; -1: any)\n"
"  -w, --watch TASK[,TASK]   judge misses on these tasks (and their threads\n"
"                            TASK-N) only; no job of theirs fails the run\n"
"  -e, --expect ok|refused   the expected outcome: refused means admission\n"
"                            control must refuse the workload (default ok)\n"
"      --run-exit CODE       the generator's (recorder's) exit code, for the\n"
"                            verdict of a run folder\n"
"  -B, --baseline DIR        compare with DIR's report (compare.txt); worse is\n"
"                            a failed verdict\n"
"  -t, --threshold SPEC      a compare threshold for --baseline (see compare)\n"
"  -T, --thresholds FILE     a suite's thresholds file for --baseline or compare:\n"
"                            the lines of this backend and run folder name\n"
"  -a, --accept FLAG[,FLAG]  accept these data-quality flags (see docs/analyzer.md)\n"
"  -A, --accept-incomplete   accept every data-quality flag\n"
"  -p, --params T=R,D,P      DL parameters of task T (tid or name): runtime,\n"
"                            deadline, period (\"2ms,10ms,10ms\"), for traces whose\n"
"                            markers do not carry them (rt-app 1.0)\n"
"      --kernel STR          kernel of the traced machine, for the report\n"
"      --arch STR            architecture of the traced machine, for the report\n"
"      --model MODEL         conformance: replay under MODEL (v4, mainline,\n"
"                            mainline:MAJ.MIN) instead of the traced kernel's\n"
"      --irq-time-accounting y|n\n"
"                            conformance: the traced kernel had (y) or had not\n"
"                            (n) CONFIG_IRQ_TIME_ACCOUNTING, whatever env.txt says;\n"
"                            y: interrupt time is not charged to the task\n"
"      --replay-asked        conformance: replay the work each job asked for,\n"
"                            not the CPU time it consumed\n"
"      --replay-overheads[=measured|none|CS,MIG]\n"
"                            conformance: charge context-switch and migration\n"
"                            overheads in the replay: the run's own (measured:\n"
"                            the median switch-in to job begin), or CS and MIG\n"
"                            (durations, bare numbers in ns); with them it\n"
"                            replays twice and counts the kernel-only misses\n"
"                            they reproduce (docs/conformance.md \"Overheads\")\n"
"      --no-conformance      do not replay the run through the reference\n"
"                            (docs/conformance.md)\n"
"      --tick-hz HZ          the traced kernel's CONFIG_HZ (100, 250, 300, 1000),\n"
"                            whatever env.txt or record.txt says: with it, CPU\n"
"                            stalls are looked for (docs/analyzer.md \"CPU\n"
"                            stalls\") and the replay checks budgets at it\n"
"  -j, --jobs N              decode a trace.dat's CPUs on N threads (default: the\n"
"                            online CPUs, or $DLB_TRACE_JOBS; 1: one thread); the\n"
"                            reports are the same whatever N\n"
"  -q, --quiet               do not print the table\n"
"  -h, --help                this text\n"
"  -V, --version             print the version\n"
"\n"
"compare: BASE and NEW are report.json files or folders holding one.\n"
"  -t, --threshold SPEC      override a threshold, SPEC [TASK:]METRIC=[N%%][,AMOUNT]\n"
"                            (repeatable; see -l)\n"
"  -T, --thresholds FILE     thresholds file lines for NEW's backend and folder name\n"
"                            (applied before the -t given)\n"
"  -A, --accept-incomplete   do not fail on incomplete data in either report\n"
"  -l, --list-metrics        list the metrics and their default thresholds\n"
"\n"
"exit codes:\n");
#define X(name, value, text) fprintf(f, "  %d  %s\n", value, text);
	DLB_EXIT_CODES(X)
#undef X
}

static int die_usage(const char *fmt, const char *arg);

/* A model the reference knows (--model). */
static bool model_known(const char *name)
{
	struct dlb_sim_opts so;

	dlb_sim_opts_init(&so);
	return dlb_sim_opts_model(&so, name) == 0;
}

/* --replay-overheads[=measured|none|CS,MIG]: 0, or -1 for a bad value. */
static int parse_overheads(const char *arg, struct opts *o)
{
	char cs[64];
	const char *comma;

	if (!arg || !strcmp(arg, "measured")) {
		o->conform_ovh = DLB_OVH_MEASURED;
		return 0;
	}
	if (!strcmp(arg, "none")) {
		o->conform_ovh = DLB_OVH_NONE;
		return 0;
	}
	comma = strchr(arg, ',');
	if (!comma || (size_t)(comma - arg) >= sizeof(cs))
		return -1;
	snprintf(cs, sizeof(cs), "%.*s", (int)(comma - arg), arg);
	if (dlb_parse_duration(cs, 1, &o->ovh_cs) || dlb_parse_duration(comma + 1, 1, &o->ovh_mig))
		return -1;
	o->conform_ovh = DLB_OVH_GIVEN;
	return 0;
}

/* getopt's complaint, in our one-line form (opterr is 0). */
static int bad_option(int ch, char **argv)
{
	const char *opt = argv[optind - 1];

	if (ch == ':')
		return die_usage("option '%s' needs a value", opt);
	return die_usage("unknown option '%s'", opt);
}

static int die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try --help)\n");
	return DLB_EXIT_BAD_INPUT;
}

static int parse_accept(struct opts *o, const char *list)
{
	char buf[512], *tok, *save = NULL;
	int q;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		q = dlb_quality_find(tok);
		if (q < 0)
			return die_usage("--accept: unknown data-quality flag '%s'", tok);
		o->accepted |= 1u << q;
	}
	return 0;
}

/* "T=R,D,P": parameters of a task by tid or name. */
static int apply_param(struct dlb_metrics *m, const char *spec, struct dlb_err *err)
{
	char name[DLB_NAME_MAX], r[32], d[32], p[32];
	const char *eq = strchr(spec, '=');
	u64 rt, dl, pd;
	long long tid;

	if (!eq || (size_t)(eq - spec) >= sizeof(name) ||
	    sscanf(eq + 1, "%31[^,],%31[^,],%31s", r, d, p) != 3 ||
	    dlb_parse_duration(r, 1, &rt) || dlb_parse_duration(d, 1, &dl) ||
	    dlb_parse_duration(p, 1, &pd))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "--params '%s': expected TASK=RUNTIME,DEADLINE,PERIOD", spec);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	if (!dlb_parse_ll(name, 1, 1 << 30, &tid))
		return dlb_metrics_set_params(m, (int)tid, NULL, rt, dl, pd) ?
			dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory") : 0;
	return dlb_metrics_set_params_by_name(m, name, rt, dl, pd) ?
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory") : 0;
}

/* ---- compare ---- */

static int cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "thresholds", required_argument, NULL, 'T' },
		{ "accept-incomplete", no_argument, NULL, 'A' },
		{ "list-metrics", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dlb_err err = { 0 };
	struct dlb_compare *c = dlb_compare_create(&err);
	int ch, rc;

	if (!c)
		goto fail;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":t:T:Alh", lopts, NULL)) != -1) {
		switch (ch) {
		case 't':
			if (dlb_compare_threshold(c, optarg, &err))
				goto fail;
			break;
		case 'T':
			dlb_compare_thresholds(c, optarg);
			break;
		case 'A':
			dlb_compare_accept_incomplete(c, true);
			break;
		case 'l':
			dlb_compare_print_metrics(stdout);
			dlb_compare_free(c);
			return DLB_EXIT_OK;
		case 'h':
			usage(stdout);
			dlb_compare_free(c);
			return DLB_EXIT_OK;
		default:
			dlb_compare_free(c);
			return bad_option(ch, argv);
		}
	}
	if (argc - optind != 2) {
		dlb_compare_free(c);
		return die_usage("compare: expected BASE and NEW%s", "");
	}
	rc = dlb_compare_run(c, argv[optind], argv[optind + 1], stdout, &err);
	if (rc < 0)
		goto fail;
	dlb_compare_free(c);
	return rc;
fail:
	fprintf(stderr, PROG ": %s\n", err.msg);
	dlb_compare_free(c);
	return err.code ? err.code : DLB_EXIT_INTERNAL;
}

/* ---- analyze ---- */

struct job_sink {
	FILE *csv;
	struct dlb_conform *conform;
};

static void on_job(const struct dlb_job *j, void *arg)
{
	struct job_sink *s = arg;

	if (s->csv)
		dlb_jobs_csv_row(s->csv, j);
	if (s->conform)
		dlb_conform_job(j, s->conform);
}

/* A job the trace stopped in: for the replay only (jobs.csv holds finished jobs). */
static void on_open_job(const struct dlb_job *j, void *arg)
{
	struct job_sink *s = arg;

	if (s->conform)
		dlb_conform_job(j, s->conform);
}

/* The run against the reference's replay of it: jobs-trace.txt and the report's section. */
static int conformance(const struct opts *o, const char *folder, struct dlb_metrics *m,
		       struct job_sink *sink, struct dlb_report_info *ri, struct dlb_err *err)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	struct dlb_conform_opts co = {
		.folder = folder,
		.outdir = o->outdir,
		.kernel = ri->kernel,
		.backend = ri->backend ? ri->backend : r->backend[0] ? r->backend : NULL,
		.model = o->conform_model,
		.asked = o->conform_asked,
		.irq_time_accounting = o->conform_irq_acct,
		.overheads = o->conform_ovh,
		.ctx_switch_ns = o->ovh_cs,
		.migration_ns = o->ovh_mig,
	};

	if (!sink->conform)
		return 0;
	if (dlb_conform_run(sink->conform, m, &co, err))
		return -1;
	ri->conform = sink->conform;
	return 0;
}

/* What the reader knows about the data, as quality flags (the larger count wins). */
/* "CPU 1, 3" of the CPUs that recorded nothing, into @buf. */
static void silent_cpus(const struct dlb_trace *t, int nr_cpus, char *buf, size_t size)
{
	size_t len = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < nr_cpus && len + 16 < size; c++)
		if (!dlb_trace_cpu_events(t, c))
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? ", " : "CPU ", c);
}

/*
 * The trace file's own clock is a witness, not the truth: trace-cmd
 * extract of a tracefs instance (dlb-record) writes the top level's clock
 * ("local") into trace.dat while the instance recorded in another one.
 * record.txt (the recorder set the clock and read it back), else
 * summary.json or the generator's run marker (the clock of its markers),
 * win.  A header that disagrees with record.txt is a note (the recorder
 * set its clock and read it back: the header is known to be wrong); with
 * any other witness, the warning clock_header (the data checks -- a begin
 * before its release, logs outside the trace's span -- still catch times
 * that really are on another clock).
 */
static void trace_clock(struct dlb_metrics *m, const struct dlb_trace_quality *q,
			struct dlb_report_info *ri)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	const char *want = ri->clock, *from = ri->clock_from;

	if (!want && r->clock[0]) {
		want = r->clock;
		from = "the generator's run marker";
	}
	if (!q->clock[0])
		return;
	if (!want) {
		ri->clock = q->clock;
		ri->clock_from = "the trace file";
		return;
	}
	if (!strcmp(q->clock, want))
		return;
	/* explained: the recorder set the clock and read it back */
	if (from && !strcmp(from, "record.txt"))
		dlb_report_note(ri, "the trace file says clock %s, record.txt says %s: %s used "
				"(trace-cmd extract of an instance writes the top level's clock)",
				q->clock, want, want);
	else
		dlb_metrics_flag(m, DLB_Q_CLOCK_HEADER, 1,
				 "the trace file says clock %s, %s says %s: %s used", q->clock,
				 from ? from : "the run", want, want);
}

static void reader_quality(struct dlb_metrics *m, const struct dlb_trace *t, const char *path)
{
	const struct dlb_trace_quality *q = dlb_trace_quality(t);
	char cpus[128];

	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	u64 lost = q->lost_events > q->lost_records ? q->lost_events : q->lost_records;
	u64 have = r->quality[DLB_Q_LOST_EVENTS].count;

	if (lost > have)
		dlb_metrics_flag(m, DLB_Q_LOST_EVENTS, lost - have,
				 "%llu events lost in %llu lost-event records",
				 (unsigned long long)q->lost_events,
				 (unsigned long long)q->lost_records);
	if (q->truncated)
		dlb_metrics_flag(m, DLB_Q_TRUNCATED, 1, "the file ends in the middle of a %s",
				 q->format == DLB_FMT_TRACE_DAT ? "record" : "line");
	if (q->cpus_without_events > 0) {
		silent_cpus(t, q->nr_cpus, cpus, sizeof(cpus));
		dlb_metrics_flag(m, DLB_Q_CPUS_WITHOUT_EVENTS, (u64)q->cpus_without_events,
				 "%d of %d CPUs recorded no event (%s)", q->cpus_without_events,
				 q->nr_cpus, cpus);
	}
	have = r->quality[DLB_Q_BACKWARDS].count;
	if (q->backwards > have)
		dlb_metrics_flag(m, DLB_Q_BACKWARDS, q->backwards - have,
				 "%llu timestamps went backwards within a CPU",
				 (unsigned long long)q->backwards);
	if (q->bad_lines && q->first_bad_line)
		dlb_metrics_flag(m, DLB_Q_BAD_LINES, q->bad_lines, "first at %s:%llu", path,
				 (unsigned long long)q->first_bad_line);
	else if (q->bad_lines)
		dlb_metrics_flag(m, DLB_Q_BAD_LINES, q->bad_lines,
				 "first: the record at offset %llu of %s",
				 (unsigned long long)q->first_bad_offset, path);
}

static FILE *open_out(const char *dir, const char *name, struct dlb_err *err)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	return f;
}

/*
 * The trace of a run folder (dlb_crosscheck_find_trace).  A folder without
 * one is still judged when the run says why (summary.json: refused by
 * admission, failed; or --run-exit): 1, @path empty, the reason in a note.
 */
static int find_trace(const struct opts *o, const char *dir, char *path, size_t size,
		      struct dlb_report_info *ri, struct dlb_err *err)
{
	if (!dlb_crosscheck_find_trace(dir, path, size, err))
		return 0;
	snprintf(path, size, "%s/summary.json", dir);
	if (o->run_exit < 0 && access(path, F_OK))
		return -1;
	dlb_report_note(ri, "%s", err->msg);
	dlb_err_clear(err);
	path[0] = '\0';
	return 1;
}

/* verdict.txt: the verdict as key=value lines, for shell scripts (run.sh) */
static int write_verdict_txt(const char *dir, const struct dlb_metrics *m,
			     const struct dlb_report_info *ri, struct dlb_err *err)
{
	struct dlb_verdict v;
	FILE *f = open_out(dir, "verdict.txt", err);
	int i;

	if (!f)
		return -1;
	dlb_report_verdict(m, ri, &v);
	fprintf(f, "verdict=%s\ncode=%d\nwhy=%s\n", v.result, v.exit_code, v.reason);
	for (i = 0; i < v.nr_checks; i++)
		fprintf(f, "check=%s %s %s\n", v.checks[i].name, v.checks[i].result,
			v.checks[i].detail);
	if (fclose(f))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/verdict.txt: %s", dir, dlb_strerror(errno));
	return 0;
}

/*
 * Our job rows go to jobs.csv: run.sh and plots/ read them there.  A
 * jobs.csv of another tool already in the folder (dlb-sim writes its own)
 * is a witness, not ours to destroy: it is kept as jobs.orig.csv, and the
 * report says so.  Returns 0, or -1 with @err if it cannot be kept.
 */
static int keep_foreign_jobs_csv(const char *dir, struct dlb_report_info *ri, struct dlb_err *err)
{
	char path[4096], kept[4096], line[64];
	bool ours;
	FILE *f;

	snprintf(path, sizeof(path), "%s/jobs.csv", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ours = fgets(line, sizeof(line), f) && !strncmp(line, "tid,name,job,release_ns,", 24);
	fclose(f);
	if (ours)
		return 0;
	snprintf(kept, sizeof(kept), "%s/jobs.orig.csv", dir);
	if (rename(path, kept))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: cannot keep another tool's jobs.csv: %s",
				   kept, dlb_strerror(errno));
	dlb_report_note(ri, "the jobs.csv that was in %s (another tool's) is now jobs.orig.csv", dir);
	return 0;
}

static int write_reports(const struct opts *o, struct dlb_metrics *m, struct dlb_report_info *ri,
			 struct dlb_err *err)
{
	FILE *f;
	int rc;

	if (!o->quiet)
		dlb_report_txt(stdout, m, ri);
	if (!o->outdir)
		return 0;
	f = open_out(o->outdir, "report.txt", err);
	if (!f)
		return -1;
	dlb_report_txt(f, m, ri);
	if (fclose(f))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/report.txt: %s", o->outdir,
				   dlb_strerror(errno));
	if (write_verdict_txt(o->outdir, m, ri, err))
		return -1;
	f = open_out(o->outdir, "stalls.csv", err);
	if (!f)
		return -1;
	dlb_stalls_csv(f, m);
	if (fclose(f))
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/stalls.csv: %s", o->outdir,
				   dlb_strerror(errno));
	f = open_out(o->outdir, "report.json", err);
	if (!f)
		return -1;
	rc = dlb_report_json(f, m, ri, err);
	if (rc)		/* its only failure is the write: name the file */
		dlb_err_set(err, DLB_EXIT_ENV, "%s/report.json: %s", o->outdir,
			    dlb_strerror(errno));
	if (fclose(f) && !rc)
		rc = dlb_err_set(err, DLB_EXIT_ENV, "%s/report.json: %s", o->outdir,
				 dlb_strerror(errno));
	return rc;
}

/*
 * A run folder without a trace: the run was refused by admission control or
 * failed before recording.  Still judged, and reported (report.json with no
 * tasks, verdict.txt), so that the verdict has one maker.
 */
static int judge_without_trace(struct opts *o, const char *folder, struct dlb_report_info *ri,
			       struct dlb_err *err)
{
	struct dlb_metrics_opts mo = { .nr_cpus = o->cpus ? o->cpus : 1 };
	struct dlb_metrics *m;
	char why[DLB_ERR_MAX], path[4096];
	int rc = -1;

	m = dlb_metrics_create(&mo, err);
	if (!m)
		goto out;
	if (dlb_crosscheck_before(m, folder, ri, err))
		goto out;
	dlb_metrics_finish(m);
	ri->format = "none";
	dlb_report_note(ri, "no trace in %s: the run did not get to record", folder);
	/* an earlier analysis's jobs are not this run's */
	snprintf(path, sizeof(path), "%s/jobs.csv", o->outdir);
	if (unlink(path) && errno != ENOENT) {
		dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
		goto out;
	}
	if (write_reports(o, m, ri, err))
		goto out;
	rc = dlb_report_exit(m, ri, why, sizeof(why));
	if (rc != DLB_EXIT_OK)
		fprintf(stderr, PROG ": %s\n", why);
out:
	dlb_metrics_free(m);
	free(ri);
	return rc;
}

/*
 * --baseline: compare this run's report with the baseline's (compare.txt
 * beside it); the result is one check of the verdict, so the reports are
 * written again with it.
 */
static int baseline_check(struct opts *o, struct dlb_metrics *m, struct dlb_report_info *ri,
			  struct dlb_err *err)
{
	struct dlb_err cerr = { 0 };
	struct dlb_compare *c;
	FILE *out;
	int i, rc;

	c = dlb_compare_create(err);
	if (!c)
		return -1;
	for (i = 0; i < o->nr_tspec; i++)
		if (dlb_compare_threshold(c, o->tspec[i], err)) {
			dlb_compare_free(c);
			return -1;
		}
	if (o->thresholds)
		dlb_compare_thresholds(c, o->thresholds);
	out = open_out(o->outdir, "compare.txt", err);
	if (!out) {
		dlb_compare_free(c);
		return -1;
	}
	rc = dlb_compare_run(c, o->baseline, o->outdir, out, &cerr);
	fclose(out);
	ri->have_baseline = true;
	ri->baseline_exit = rc < 0 ? cerr.code : rc;
	snprintf(ri->baseline_detail, sizeof(ri->baseline_detail), "%s",
		 rc < 0 ? cerr.msg : dlb_compare_summary(c));
	dlb_compare_free(c);
	o->quiet = true;	/* the table is printed once */
	return write_reports(o, m, ri, err);
}

static int analyze(struct opts *o, struct dlb_err *err)
{
	struct dlb_metrics_opts mo = { 0 };
	struct dlb_report_info *ri;
	struct job_sink sink = { NULL, NULL };
	struct dlb_trace *t = NULL;
	struct dlb_metrics *m = NULL;
	const struct dlb_trace_quality *q;
	char tpath[4096], why[DLB_ERR_MAX];
	const char *folder = NULL;
	struct stat st;
	int i, rc = -1, found;

	ri = calloc(1, sizeof(*ri));
	if (!ri)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	if (stat(o->input, &st) == 0 && S_ISDIR(st.st_mode)) {
		folder = o->input;
		found = find_trace(o, folder, tpath, sizeof(tpath), ri, err);
		if (found < 0)
			goto out;
		ri->no_trace = found;
		if (!o->outdir)
			o->outdir = folder;
	} else {
		snprintf(tpath, sizeof(tpath), "%s", o->input);
	}
	if (o->outdir && mkdir(o->outdir, 0755) && errno != EEXIST) {
		dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", o->outdir, dlb_strerror(errno));
		goto out;
	}
	/* the verdict's inputs: how to judge, what the generator said */
	/* -m -1 asks for no miss verdict: jobs without a deadline then cost nothing */
	ri->accepted = o->accepted | (o->max_misses.n < 0 ? 1u << DLB_Q_MISSES_NOT_JUDGED : 0);
	ri->max_misses = o->max_misses.n;
	ri->max_misses_pct = o->max_misses.pct;
	ri->expect = o->expect;
	ri->watch = o->watch;
	ri->have_run_exit = o->run_exit >= 0;
	ri->run_exit = o->run_exit;
	ri->cmdline = o->cmdline;
	ri->input = o->input;
	if (ri->no_trace)
		return judge_without_trace(o, folder, ri, err);
	t = dlb_trace_open(tpath, err);
	if (!t)
		goto out;
	dlb_trace_set_jobs(t, o->jobs);
	q = dlb_trace_quality(t);
	mo.nr_cpus = o->cpus ? o->cpus : q->nr_cpus;
	mo.job_fn = on_job;
	mo.job_arg = &sink;
	mo.tick_ns = o->tick_hz ? NSEC_PER_SEC / (u64)o->tick_hz : 0;
	if (!mo.tick_ns && folder) {
		struct dlb_env env;

		dlb_env_read(folder, &env);
		mo.tick_ns = env.tick;
		dlb_env_free(&env);
	}
	if (!o->no_conform) {
		sink.conform = dlb_conform_create(err);
		if (!sink.conform)
			goto out;
		mo.open_fn = on_open_job;
	}
	m = dlb_metrics_create(&mo, err);
	if (!m)
		goto out;
	for (i = 0; i < o->nr_params; i++)
		if (apply_param(m, o->params[i].spec, err))
			goto out;
	if (folder && dlb_crosscheck_before(m, folder, ri, err))
		goto out;
	if (o->outdir) {
		if (keep_foreign_jobs_csv(o->outdir, ri, err))
			goto out;
		sink.csv = open_out(o->outdir, "jobs.csv", err);
		if (!sink.csv)
			goto out;
		dlb_jobs_csv_header(sink.csv);
	}
	if (dlb_trace_read(t, dlb_metrics_event, m, err)) {
		/* the engine stops the stream only when it cannot allocate */
		if (!err->msg[0])
			dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory while analyzing %s", tpath);
		goto out;
	}
	dlb_metrics_finish(m);
	reader_quality(m, t, tpath);
	if (folder)
		dlb_crosscheck_after(m, folder, ri);
	/* the command line wins over record.txt and summary.json */
	if (o->kernel)
		ri->kernel = o->kernel;
	if (o->arch)
		ri->arch = o->arch;
	ri->format = dlb_trace_format_str(dlb_trace_format(t));
	trace_clock(m, q, ri);
	if (o->cpus)
		ri->cpus = o->cpus;
	dlb_report_auto_notes(ri, m);
	if (conformance(o, folder, m, &sink, ri, err))
		goto out;
	if (sink.csv && fclose(sink.csv)) {
		sink.csv = NULL;
		dlb_err_set(err, DLB_EXIT_ENV, "%s/jobs.csv: %s", o->outdir, dlb_strerror(errno));
		goto out;
	}
	sink.csv = NULL;
	if (write_reports(o, m, ri, err))
		goto out;
	if (o->baseline && o->outdir && baseline_check(o, m, ri, err))
		goto out;
	rc = dlb_report_exit(m, ri, why, sizeof(why));
	if (rc != DLB_EXIT_OK)
		fprintf(stderr, PROG ": %s\n", why);
out:
	if (sink.csv)
		fclose(sink.csv);
	dlb_metrics_free(m);
	dlb_conform_free(sink.conform);
	dlb_trace_close(t);
	free(ri);
	return rc;
}

static int main_run(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "max-misses", required_argument, NULL, 'm' },
		{ "watch", required_argument, NULL, 'w' },
		{ "expect", required_argument, NULL, 'e' },
		{ "run-exit", required_argument, NULL, 'X' },
		{ "baseline", required_argument, NULL, 'B' },
		{ "threshold", required_argument, NULL, 't' },
		{ "thresholds", required_argument, NULL, 'T' },
		{ "accept", required_argument, NULL, 'a' },
		{ "accept-incomplete", no_argument, NULL, 'A' },
		{ "params", required_argument, NULL, 'p' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "arch", required_argument, NULL, 'R' },
		{ "model", required_argument, NULL, 'M' },
		{ "replay-asked", no_argument, NULL, 'Q' },
		{ "irq-time-accounting", required_argument, NULL, 'I' },
		{ "replay-overheads", optional_argument, NULL, 'O' },
		{ "no-conformance", no_argument, NULL, 'N' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "tick-hz", required_argument, NULL, 'H' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .max_misses = { 0, false }, .run_exit = -1 };
	struct dlb_err err = { 0 };
	long long v;
	int ch, rc;

	dlb_join_cmdline(o.cmdline, sizeof(o.cmdline), argc, argv);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:c:m:w:e:B:t:T:a:Ap:j:qhV", lopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			o.outdir = optarg;
			break;
		case 'c':
			if (dlb_parse_ll(optarg, 1, 1024, &v))
				return die_usage("--cpus: '%s' is not a number in 1..1024", optarg);
			o.cpus = (int)v;
			break;
		case 'm':
			if (dlb_miss_limit_parse(optarg, "--max-misses", &o.max_misses, &err))
				return die_usage("%s", err.msg);
			break;
		case 'w':
			o.watch = optarg;
			break;
		case 'e':
			if (dlb_expect_parse(optarg, &o.expect, &err))
				return die_usage("%s", err.msg);
			break;
		case 'B':
			o.baseline = optarg;
			break;
		case 't':
			if (o.nr_tspec == (int)(sizeof(o.tspec) / sizeof(o.tspec[0])))
				return die_usage("--threshold: more than 64 given%s", "");
			o.tspec[o.nr_tspec++] = optarg;
			break;
		case 'T':
			o.thresholds = optarg;
			break;
		case 'X':
			if (dlb_parse_ll(optarg, 0, 255, &v))
				return die_usage("--run-exit: '%s' is not an exit code (0..255)",
						 optarg);
			o.run_exit = (int)v;
			break;
		case 'a':
			if (parse_accept(&o, optarg))
				return DLB_EXIT_BAD_INPUT;
			break;
		case 'A':
			o.accepted = ~0u;
			break;
		case 'p':
			if (o.nr_params == (int)(sizeof(o.params) / sizeof(o.params[0])))
				return die_usage("--params: more than 64 given%s", "");
			snprintf(o.params[o.nr_params++].spec, sizeof(o.params[0].spec), "%s",
				 optarg);
			break;
		case 'K':
			o.kernel = optarg;
			break;
		case 'R':
			o.arch = optarg;
			break;
		case 'M':
			if (!model_known(optarg))
				return die_usage("--model: '%s' is not v4, mainline or "
						 "mainline:MAJ.MIN (3.14..6.18)", optarg);
			o.conform_model = optarg;
			break;
		case 'Q':
			o.conform_asked = true;
			break;
		case 'I':
			if (strcmp(optarg, "y") && strcmp(optarg, "n"))
				return die_usage("--irq-time-accounting: '%s' is not y or n", optarg);
			o.conform_irq_acct = optarg[0];
			break;
		case 'O':
			if (parse_overheads(optarg, &o))
				return die_usage("--replay-overheads: '%s' is not measured, none or "
						 "CS,MIG (durations: 2us,10us)", optarg);
			break;
		case 'N':
			o.no_conform = true;
			break;
		case 'j':
			if (dlb_parse_ll(optarg, 1, 1024, &v))
				return die_usage("--jobs: '%s' is not a number in 1..1024", optarg);
			o.jobs = (int)v;
			break;
		case 'H':
			if (dlb_parse_ll(optarg, 24, 10000, &v))
				return die_usage("--tick-hz: '%s' is not a number in 24..10000", optarg);
			o.tick_hz = (int)v;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return DLB_EXIT_OK;
		case 'V':
			printf(PROG " %s\n", DLB_VERSION);
			return DLB_EXIT_OK;
		default:
			return bad_option(ch, argv);
		}
	}
	if (argc - optind != 1)
		return die_usage("expected one INPUT (a trace or a run folder)%s", "");
	o.input = argv[optind];
	rc = analyze(&o, &err);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return err.code ? err.code : DLB_EXIT_INTERNAL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	return dlb_cli_exit(PROG, main_run(argc, argv));
}
