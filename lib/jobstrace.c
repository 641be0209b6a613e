// SPDX-License-Identifier: GPL-2.0
/*
 * The jobs trace: text in and out, and the workload its replay runs
 * (include/dlbench/jobstrace.h, docs/conformance.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/grow.h"
#include "dlbench/jobstrace.h"
#include "sbuf.h"

struct dlb_jobs_trace *dlb_jt_create(void)
{
	struct dlb_jobs_trace *jt = calloc(1, sizeof(*jt));

	if (jt)
		jt->irq_time_acct = -1;		/* unknown until said */
	return jt;
}

/* "y", "n", "-" (CONFIG_IRQ_TIME_ACCOUNTING: 1, 0, unknown) */
static const char *const irq_acct_names[] = { "-", "n", "y" };

void dlb_jt_free(struct dlb_jobs_trace *jt)
{
	if (!jt)
		return;
	free(jt->tasks);
	free(jt->jobs);
	free(jt->unavail);
	free(jt->tick_phase);
	free(jt);
}

int dlb_jt_add_task(struct dlb_jobs_trace *jt, const struct dlb_jt_task *t)
{
	if (dlb_grow((void **)&jt->tasks, &jt->cap_tasks, jt->nr_tasks + 1, sizeof(*t)))
		return -1;
	jt->tasks[jt->nr_tasks++] = *t;
	return 0;
}

int dlb_jt_add_job(struct dlb_jobs_trace *jt, const struct dlb_jt_job *j)
{
	if (dlb_grow((void **)&jt->jobs, &jt->cap_jobs, jt->nr_jobs + 1, sizeof(*j)))
		return -1;
	jt->jobs[jt->nr_jobs++] = *j;
	return 0;
}

int dlb_jt_add_unavail(struct dlb_jobs_trace *jt, const struct dlb_jt_unavail *u)
{
	if (dlb_grow((void **)&jt->unavail, &jt->cap_unavail, jt->nr_unavail + 1, sizeof(*u)))
		return -1;
	jt->unavail[jt->nr_unavail++] = *u;
	return 0;
}

int dlb_jt_find_task(const struct dlb_jobs_trace *jt, int tid)
{
	size_t i;

	for (i = 0; i < jt->nr_tasks; i++)
		if (jt->tasks[i].tid == tid)
			return (int)i;
	return -1;
}

static const char *const aff_names[] = {
	[DLB_JT_AFF_ALL] = "all",
	[DLB_JT_AFF_WORKLOAD] = "workload",
	[DLB_JT_AFF_OPTION] = "option",
};

const char *dlb_jt_affinity_str(enum dlb_jt_affinity a)
{
	return aff_names[a];
}

static const char *const ua_names[] = {
	[DLB_UA_IRQ] = "irq",
	[DLB_UA_STOP] = "stop",
	[DLB_UA_IRQ | DLB_UA_STOP] = "irq+stop",
	[DLB_UA_FAIR] = "fair",
	[DLB_UA_IRQ | DLB_UA_FAIR] = "irq+fair",
	[DLB_UA_STOP | DLB_UA_FAIR] = "stop+fair",
	[DLB_UA_IRQ | DLB_UA_STOP | DLB_UA_FAIR] = "irq+stop+fair",
};

const char *dlb_ua_kind_str(unsigned int kind)
{
	return kind < sizeof(ua_names) / sizeof(ua_names[0]) ? ua_names[kind] : NULL;
}

/* ---- writing ---- */

/* "0-3,6" */
static void put_cpus(FILE *f, const struct dlb_cpumask *m)
{
	unsigned int c, end;
	bool first = true;

	for (c = dlb_cpumask_next(m, 0); c < DLB_MAX_CPUS; c = dlb_cpumask_next(m, end + 1)) {
		for (end = c; end + 1 < DLB_MAX_CPUS && dlb_cpumask_test(m, end + 1); end++)
			;
		fprintf(f, first ? "%u" : ",%u", c);
		if (end > c)
			fprintf(f, "-%u", end);
		first = false;
	}
	if (first)
		fputc('-', f);
}

/* "flags INDEX NAME..." when the task has any */
static void put_flags(FILE *f, size_t idx, u64 flags)
{
	u64 fl;

	if (!flags)
		return;
	fprintf(f, "flags %zu", idx);
	for (fl = 1; fl; fl <<= 1)
		if (flags & fl)
			fprintf(f, " %s", dl_flag_name(fl) ? dl_flag_name(fl) : "?");
	fputc('\n', f);
}

static void put_demand(struct sbuf *sb, u64 v, bool open)
{
	if (v == DLB_JT_UNKNOWN) {
		sb_lit(sb, " -");
		return;
	}
	sb_lit(sb, " ");
	sb_u64(sb, v);
	if (open)
		sb_lit(sb, "+");
}

/*
 * The job lines, printf-free (sbuf.h): one a job, 150 000 and more in a
 * 6 s run of 640 tasks, where fprintf's format parsing was most of the
 * cost.  Appended to @sb, written out when it has less than a line's room.
 */
#define JT_JOB_MAX	160	/* "job " + an int + 6 * (" " + 20 digits) + "+\n" */

static void put_job(FILE *f, struct sbuf *sb, const struct dlb_jt_job *j)
{
	if (sb->size - sb->len <= JT_JOB_MAX) {
		fwrite(sb->p, 1, sb->len, f);
		sb_init(sb, sb->p, sb->size);
	}
	sb_lit(sb, "job ");
	sb_int(sb, j->task);
	sb_lit(sb, " ");
	sb_u64(sb, j->job);
	sb_lit(sb, " ");
	sb_u64(sb, j->rel);
	sb_lit(sb, " ");
	sb_u64(sb, j->wakeup);
	sb_lit(sb, " ");
	sb_u64(sb, j->dl);
	put_demand(sb, j->demand, j->open);
	put_demand(sb, j->asked, false);
	sb_lit(sb, "\n");
}

int dlb_jt_write(FILE *f, const struct dlb_jobs_trace *jt)
{
	char buf[8192];
	struct sbuf sb;
	size_t i;

	fprintf(f, "# dlbench jobs trace: releases and demands of a run (docs/conformance.md)\n");
	fprintf(f, "dlb-jobs-trace %d\ncpus %d\nt0 %" PRIu64 "\nend %" PRIu64 "\ntick %" PRIu64 "\n",
		DLB_JT_VERSION, jt->nr_cpus, jt->t0, jt->end, jt->tick);
	for (i = 0; jt->tick_phase && i < (size_t)jt->nr_cpus; i++)
		fprintf(f, "tickphase %zu %" PRIu64 "\n", i, jt->tick_phase[i]);
	fprintf(f, "kernel %s\nbackend %s\n", jt->kernel[0] ? jt->kernel : "-",
		jt->backend[0] ? jt->backend : "-");
	fprintf(f, "irq_time_accounting %s\n",
		irq_acct_names[jt->irq_time_acct < 0 ? 0 : jt->irq_time_acct ? 2 : 1]);
	if (jt->model[0])
		fprintf(f, "model %s\n", jt->model);
	fprintf(f, "affinity %s\n", dlb_jt_affinity_str(jt->affinity));
	fprintf(f, "# task INDEX TID RUNTIME DEADLINE PERIOD CPUS NAME\n");
	for (i = 0; i < jt->nr_tasks; i++) {
		const struct dlb_jt_task *t = &jt->tasks[i];

		fprintf(f, "task %zu %d %" PRIu64 " %" PRIu64 " %" PRIu64 " ", i, t->tid,
			t->dl.runtime, t->dl.deadline, t->dl.period);
		put_cpus(f, &t->cpus);
		fprintf(f, " %s\n", t->name);
		put_flags(f, i, t->dl.flags);
	}
	fprintf(f, "# job TASK JOB RELEASE WAKEUP DEADLINE DEMAND ASKED\n");
	sb_init(&sb, buf, sizeof(buf));
	for (i = 0; i < jt->nr_jobs; i++)
		put_job(f, &sb, &jt->jobs[i]);
	fwrite(buf, 1, sb.len, f);
	if (jt->nr_unavail)
		fprintf(f, "# unavail CPU FROM TO KIND\n");
	for (i = 0; i < jt->nr_unavail; i++)
		fprintf(f, "unavail %d %" PRIu64 " %" PRIu64 " %s\n", jt->unavail[i].cpu,
			jt->unavail[i].from, jt->unavail[i].to,
			dlb_ua_kind_str(jt->unavail[i].kind) ? dlb_ua_kind_str(jt->unavail[i].kind) :
			"-");
	return ferror(f) ? -1 : 0;
}

/* ---- reading ---- */

struct rd {
	const char *path;
	unsigned long line;
	int version;
	struct dlb_err *err;
	char *save;
};

static int rd_fail(struct rd *r, const char *fmt, const char *arg)
{
	char what[256];

	snprintf(what, sizeof(what), fmt, arg);
	return dlb_err_set(r->err, DLB_EXIT_BAD_INPUT, "%s:%lu: %s", r->path, r->line, what);
}

static char *rd_tok(struct rd *r)
{
	return strtok_r(NULL, " \t\n", &r->save);
}

static int rd_u64_plus(struct rd *r, const char *field, u64 *v, bool dash_ok, bool *plus)
{
	char *tok = rd_tok(r), *end;
	unsigned long long x;

	*v = 0;
	if (!tok)
		return rd_fail(r, "%s: missing", field);
	if (dash_ok && !strcmp(tok, "-")) {
		*v = DLB_JT_UNKNOWN;
		return 0;
	}
	errno = 0;
	x = strtoull(tok, &end, 10);
	if (plus && *end == '+' && end > tok) {
		*plus = true;
		end++;
	}
	if (*end || end == tok || errno || tok[0] == '-' || x == DLB_JT_UNKNOWN)
		return rd_fail(r, "%s: not a number of ns", field);
	*v = x;
	return 0;
}

static int rd_u64(struct rd *r, const char *field, u64 *v, bool dash_ok)
{
	return rd_u64_plus(r, field, v, dash_ok, NULL);
}

static int rd_int(struct rd *r, const char *field, int max, int *v)
{
	u64 x;

	if (rd_u64(r, field, &x, false))
		return -1;
	if (x > (u64)max)
		return rd_fail(r, "%s: out of range", field);
	*v = (int)x;
	return 0;
}

/* "0-3,6" or "-" (none) */
static int rd_cpus(struct rd *r, struct dlb_cpumask *m)
{
	char *tok = rd_tok(r), *p, *end;
	unsigned long a, b;

	dlb_cpumask_clear(m);
	if (!tok)
		return rd_fail(r, "%s: missing", "cpus");
	if (!strcmp(tok, "-"))
		return 0;
	for (p = tok; *p; p = end + (*end == ',')) {
		a = b = strtoul(p, &end, 10);
		if (end == p)
			return rd_fail(r, "cpus: '%s' is not a cpu list", tok);
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p)
				return rd_fail(r, "cpus: '%s' is not a cpu list", tok);
		}
		if (a > b || b >= DLB_MAX_CPUS || (*end && *end != ','))
			return rd_fail(r, "cpus: '%s' is not a cpu list", tok);
		for (; a <= b; a++)
			dlb_cpumask_set(m, (unsigned int)a);
	}
	return 0;
}

static int rd_rest(struct rd *r, const char *field, char *buf, size_t size)
{
	char *tok = r->save;

	while (tok && (*tok == ' ' || *tok == '\t'))
		tok++;
	if (!tok || !*tok || *tok == '\n')
		return rd_fail(r, "%s: missing", field);
	tok[strcspn(tok, "\n")] = '\0';
	if (strlen(tok) >= size)
		return rd_fail(r, "%s: too long", field);
	strcpy(buf, tok);
	return 0;
}

static int rd_task(struct rd *r, struct dlb_jobs_trace *jt)
{
	struct dlb_jt_task t;
	int idx = 0;

	memset(&t, 0, sizeof(t));
	if (rd_int(r, "task index", 1 << 30, &idx) || rd_int(r, "tid", 1 << 30, &t.tid) ||
	    rd_u64(r, "runtime", &t.dl.runtime, false) ||
	    rd_u64(r, "deadline", &t.dl.deadline, false) ||
	    rd_u64(r, "period", &t.dl.period, false) || rd_cpus(r, &t.cpus) ||
	    rd_rest(r, "name", t.name, sizeof(t.name)))
		return -1;
	if ((size_t)idx != jt->nr_tasks)
		return rd_fail(r, "task index: tasks must be numbered 0, 1, ... in order%s", "");
	if (dlb_jt_find_task(jt, t.tid) >= 0)
		return rd_fail(r, "tid: a second task with this tid (%s)", t.name);
	return dlb_jt_add_task(jt, &t) ?
		dlb_err_set(r->err, DLB_EXIT_INTERNAL, "out of memory") : 0;
}

static int rd_job(struct rd *r, struct dlb_jobs_trace *jt)
{
	struct dlb_jt_job j = { 0 };

	if (rd_int(r, "task", 1 << 30, &j.task) || rd_u64(r, "job", &j.job, false) ||
	    rd_u64(r, "release", &j.rel, false) || rd_u64(r, "wakeup", &j.wakeup, false) ||
	    rd_u64(r, "deadline", &j.dl, false) ||
	    rd_u64_plus(r, "demand", &j.demand, true, &j.open) ||
	    rd_u64(r, "asked", &j.asked, true))
		return -1;
	if (dl_time_before(j.wakeup, j.rel))
		return rd_fail(r, "wakeup: before the release%s", "");
	if ((size_t)j.task >= jt->nr_tasks)
		return rd_fail(r, "task: no such task (tasks come before their jobs)%s", "");
	return dlb_jt_add_job(jt, &j) ?
		dlb_err_set(r->err, DLB_EXIT_INTERNAL, "out of memory") : 0;
}

/* "flags INDEX NAME...": of the task just read */
static int rd_flags(struct rd *r, struct dlb_jobs_trace *jt)
{
	char *tok;
	int idx = 0;
	u64 f;

	if (rd_int(r, "task", 1 << 30, &idx))
		return -1;
	if (!jt->nr_tasks || (size_t)idx != jt->nr_tasks - 1)
		return rd_fail(r, "flags: not of the task just before%s", "");
	if (!(tok = rd_tok(r)))
		return rd_fail(r, "flags: missing%s", "");
	for (; tok; tok = rd_tok(r)) {
		f = dl_flag_parse(tok);
		if (!f)
			return rd_fail(r, "flags: '%s' is not a flag name", tok);
		jt->tasks[idx].dl.flags |= f;
	}
	return 0;
}

/* tickphase CPU OFFSET (checked against tick and cpus once all is read) */
static int rd_tickphase(struct rd *r, struct dlb_jobs_trace *jt)
{
	int cpu = 0;
	u64 v = 0;

	if (rd_int(r, "cpu", DLB_MAX_CPUS - 1, &cpu) || rd_u64(r, "phase", &v, false))
		return -1;
	if (!jt->tick_phase) {
		jt->tick_phase = calloc(DLB_MAX_CPUS, sizeof(*jt->tick_phase));
		if (!jt->tick_phase)
			return dlb_err_set(r->err, DLB_EXIT_INTERNAL, "out of memory");
	}
	jt->tick_phase[cpu] = v;
	return 0;
}

/* unavail CPU FROM TO KIND (version 4; the CPU checked against cpus once all is read) */
static int rd_unavail(struct rd *r, struct dlb_jobs_trace *jt)
{
	struct dlb_jt_unavail u = { 0 };
	const struct dlb_jt_unavail *prev = NULL;
	char *tok;
	size_t i;

	if (r->version < 4)
		return rd_fail(r, "unavail: a version 4 record%s", "");
	if (rd_int(r, "cpu", DLB_MAX_CPUS - 1, &u.cpu) || rd_u64(r, "from", &u.from, false) ||
	    rd_u64(r, "to", &u.to, false))
		return -1;
	if (!(tok = rd_tok(r)))
		return rd_fail(r, "kind: missing%s", "");
	for (u.kind = DLB_UA_IRQ; dlb_ua_kind_str(u.kind); u.kind++)
		if (!strcmp(tok, dlb_ua_kind_str(u.kind)))
			break;
	if (!dlb_ua_kind_str(u.kind) || (r->version < 6 && (u.kind & DLB_UA_FAIR)))
		return rd_fail(r, r->version < 6 ? "kind: '%s' is not irq, stop or irq+stop" :
			       "kind: '%s' is not irq, stop, fair or their merge (irq+stop, ...)", tok);
	if (!dl_time_before(u.from, u.to))
		return rd_fail(r, "to: not after from%s", "");
	for (i = jt->nr_unavail; i > 0 && !prev; i--)
		if (jt->unavail[i - 1].cpu == u.cpu)
			prev = &jt->unavail[i - 1];
	if (prev && dl_time_before(u.from, prev->to))
		return rd_fail(r, "from: before the end of the CPU's previous interval%s", "");
	return dlb_jt_add_unavail(jt, &u) ?
		dlb_err_set(r->err, DLB_EXIT_INTERNAL, "out of memory") : 0;
}

/* One record; the header's own keys first. */
static int rd_line(struct rd *r, char *line, struct dlb_jobs_trace *jt, bool *have_version)
{
	char *key = strtok_r(line, " \t\n", &r->save);
	int v = 0;

	if (!key || key[0] == '#')
		return 0;
	if (!strcmp(key, "dlb-jobs-trace")) {
		if (rd_int(r, "version", 1 << 30, &v))
			return -1;
		if (v < 1 || v > DLB_JT_VERSION) {
			char num[16];

			snprintf(num, sizeof(num), "%d", v);
			return rd_fail(r, "version %s: this tool reads versions 1 to 6", num);
		}
		r->version = v;
		*have_version = true;
		return 0;
	}
	if (!*have_version)
		return rd_fail(r, "not a jobs trace: the first record must be 'dlb-jobs-trace N'%s",
			       "");
	if (!strcmp(key, "cpus"))
		return rd_int(r, "cpus", DLB_MAX_CPUS, &jt->nr_cpus) ? -1 :
			jt->nr_cpus ? 0 : rd_fail(r, "cpus: 0%s", "");
	if (!strcmp(key, "t0"))
		return rd_u64(r, "t0", &jt->t0, false);
	if (!strcmp(key, "end"))
		return rd_u64(r, "end", &jt->end, false);
	if (!strcmp(key, "tick"))
		return rd_u64(r, "tick", &jt->tick, false);
	if (!strcmp(key, "tickphase"))
		return rd_tickphase(r, jt);
	if (!strcmp(key, "kernel"))
		return rd_rest(r, "kernel", jt->kernel, sizeof(jt->kernel)) ? -1 :
			(!strcmp(jt->kernel, "-") ? (jt->kernel[0] = '\0', 0) : 0);
	if (!strcmp(key, "backend"))
		return rd_rest(r, "backend", jt->backend, sizeof(jt->backend)) ? -1 :
			(!strcmp(jt->backend, "-") ? (jt->backend[0] = '\0', 0) : 0);
	if (!strcmp(key, "model"))
		return rd_rest(r, "model", jt->model, sizeof(jt->model));
	if (!strcmp(key, "irq_time_accounting")) {
		char *tok = rd_tok(r);

		if (r->version < 5)
			return rd_fail(r, "irq_time_accounting: a version 5 record%s", "");
		for (v = 0; tok && v < 3; v++)
			if (!strcmp(tok, irq_acct_names[v])) {
				jt->irq_time_acct = v - 1;
				return 0;
			}
		return rd_fail(r, "irq_time_accounting: '%s' is not y, n or -", tok ? tok : "");
	}
	if (!strcmp(key, "affinity")) {
		char *tok = rd_tok(r);

		for (v = 0; tok && v <= DLB_JT_AFF_OPTION; v++)
			if (!strcmp(tok, aff_names[v])) {
				jt->affinity = (enum dlb_jt_affinity)v;
				return 0;
			}
		return rd_fail(r, "affinity: '%s' is not all, workload or option", tok ? tok : "");
	}
	if (!strcmp(key, "task"))
		return rd_task(r, jt);
	if (!strcmp(key, "job"))
		return rd_job(r, jt);
	if (!strcmp(key, "unavail"))
		return rd_unavail(r, jt);
	if (!strcmp(key, "flags"))
		return rd_flags(r, jt);
	return rd_fail(r, "unknown record '%s'", key);
}

int dlb_jt_read(const char *path, struct dlb_jobs_trace **out, struct dlb_err *err)
{
	struct rd r = { .path = path, .err = err };
	struct dlb_jobs_trace *jt;
	bool have_version = false;
	char line[4096];
	FILE *f;
	int rc = 0, i;

	f = fopen(path, "r");
	if (!f)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", path, dlb_strerror(errno));
	jt = dlb_jt_create();
	if (!jt) {
		fclose(f);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		r.line++;
		if (!strchr(line, '\n') && !feof(f))
			rc = rd_fail(&r, "line longer than %s characters", "4095");
		else
			rc = rd_line(&r, line, jt, &have_version);
	}
	if (!rc && !have_version)
		rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: not a jobs trace (no "
				 "'dlb-jobs-trace N' record)", path);
	if (!rc && !jt->nr_cpus)
		rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: no 'cpus' record", path);
	for (i = 0; !rc && jt->tick_phase && i < DLB_MAX_CPUS; i++)
		if (jt->tick_phase[i] && (i >= jt->nr_cpus || jt->tick_phase[i] >= jt->tick))
			rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: tickphase %d %" PRIu64 ": %s",
					 path, i, jt->tick_phase[i], i >= jt->nr_cpus ?
					 "no such CPU (cpus)" : "not below the tick");
	for (i = 0; !rc && (size_t)i < jt->nr_unavail; i++)
		if (jt->unavail[i].cpu >= jt->nr_cpus)
			rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: unavail %d: no such CPU (cpus)",
					 path, jt->unavail[i].cpu);
	fclose(f);
	if (rc) {
		dlb_jt_free(jt);
		return -1;
	}
	*out = jt;
	return 0;
}
