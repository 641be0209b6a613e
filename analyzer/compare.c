// SPDX-License-Identifier: GPL-2.0
/*
 * Compare two reports (compare.h).  Tasks are matched by their report key
 * (name, name#k), never by tid: tids differ between runs.  Every metric is
 * "higher is worse"; a change counts when it exceeds both the relative and
 * the absolute part of its threshold, so that noise on small values (a
 * 3 µs p99 becoming 4 µs) is not a regression.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "compare.h"
#include "dlbench/cli.h"
#include "dlbench/dltime.h"
#include "dlbench/exitcode.h"
#include "report.h"

enum cmp_unit { U_COUNT, U_NS, U_RATIO };

struct metric_def {
	const char *name;
	enum cmp_unit unit;
	const char *obj, *field;	/* task.obj.field, or task.field when obj is NULL */
	bool per_job;			/* divided by the task's jobs */
	const char *run_field;		/* the run-level counterpart in "run", or NULL */
	double rel, abs;		/* defaults: percent of base, and unit amount */
	const char *doc;
	/* run-level only, run_field a path in "conformance"."run" (docs/conformance.md) */
	bool conf;
	const char *run_field_v1;	/* where conformance version 1 kept it, or NULL */
};

static const struct metric_def metrics[] = {
	{ "misses", U_COUNT, NULL, "misses", false, "misses", 0, 0,
	  "deadline misses; any increase is worse", false, NULL },
	{ "lateness_max", U_NS, "lateness_ns", "max", false, NULL, 10, 50000,
	  "largest end - deadline", false, NULL },
	{ "response_p99", U_NS, "response_ns", "p99", false, NULL, 10, 50000,
	  "99th percentile of end - release", false, NULL },
	{ "response_max", U_NS, "response_ns", "max", false, NULL, 20, 100000,
	  "largest end - release", false, NULL },
	{ "wakeup_p99", U_NS, "wakeup_latency_ns", "p99", false, NULL, 20, 20000,
	  "99th percentile of begin - release", false, NULL },
	{ "exec_p99", U_NS, "exec_ns", "p99", false, NULL, 10, 50000,
	  "99th percentile of execution time", false, NULL },
	{ "overruns", U_COUNT, "overruns", "count", false, NULL, 0, 0,
	  "jobs that ran longer than their runtime; any increase is worse", false, NULL },
	{ "migrations_per_job", U_RATIO, NULL, "migrations", true, NULL, 20, 0.05,
	  "migrations divided by jobs", false, NULL },
	{ "migration_delay_p99", U_NS, "migration_delay_ns", "p99", false, NULL, 25, 20000,
	  "99th percentile of migration -> running on the destination", false, NULL },
	{ "inversion_per_job", U_NS, NULL, "inversion_ns", true, "inversion_ns", 20, 10000,
	  "G-EDF priority inversion time divided by jobs", false, NULL },
	{ "conformance.kernel_only", U_COUNT, NULL, NULL, false, "kernel_only_misses.total", 0, 0,
	  "jobs the run missed and its replay met; any increase is worse", true, NULL },
	{ "conformance.unexplained", U_COUNT, NULL, NULL, false,
	  "kernel_only_misses.unexplained", 0, 0,
	  "kernel-only misses not explained by overrun; any increase is worse", true, NULL },
	{ "conformance.oracle_only", U_COUNT, NULL, NULL, false, "oracle_only_misses.total", 0, 0,
	  "jobs the replay missed and the run met; any increase is worse", true,
	  "oracle_only_misses" },
};

#define NR_METRICS	(sizeof(metrics) / sizeof(metrics[0]))

struct cmp_override {
	char *task;		/* NULL: every task */
	size_t metric;
	double rel, abs;	/* NAN: not given */
};

struct dlb_compare {
	struct cmp_override *ov;
	size_t nr_ov;
	bool accept_incomplete;
	const char *thresholds;		/* a thresholds file, applied before the -t given */
	double rate_scale;		/* counts of NEW times this: per second of BASE's span */
	char summary[512];
};

struct dlb_compare *dlb_compare_create(struct dlb_err *err)
{
	struct dlb_compare *c = calloc(1, sizeof(*c));

	if (!c)
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	return c;
}

void dlb_compare_accept_incomplete(struct dlb_compare *c, bool accept)
{
	c->accept_incomplete = accept;
}

void dlb_compare_thresholds(struct dlb_compare *c, const char *path)
{
	c->thresholds = path;
}

const char *dlb_compare_summary(const struct dlb_compare *c)
{
	return c->summary;
}

/*
 * The thresholds file (workloads/suites/default.thresholds): "BACKEND
 * WORKLOAD OPTIONS", '*' for any, '#' comments; OPTIONS are -t SPEC.
 * Every matching line applies, in order, before the command line's -t.
 */
static int apply_thresholds_file(struct dlb_compare *c, const char *backend, const char *name,
				 struct dlb_err *err)
{
	struct cmp_override *given = c->ov;
	size_t nr_given = c->nr_ov, i, lineno = 0;
	char line[1024], *tok, *save, *b, *w;
	FILE *f = fopen(c->thresholds, "r");
	int rc = 0;

	if (!f)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", c->thresholds,
				   dlb_strerror(errno));
	c->ov = NULL;
	c->nr_ov = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		b = strtok_r(line, " \t", &save);
		w = b ? strtok_r(NULL, " \t", &save) : NULL;
		if (!b)
			continue;
		if (!w) {
			rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:%zu: expected BACKEND WORKLOAD "
					 "OPTIONS", c->thresholds, lineno);
			break;
		}
		if ((strcmp(b, "*") && strcmp(b, backend)) || (strcmp(w, "*") && strcmp(w, name)))
			continue;
		while (!rc && (tok = strtok_r(NULL, " \t", &save))) {
			const char *spec = NULL;

			if (!strcmp(tok, "-t") || !strcmp(tok, "--threshold"))
				spec = strtok_r(NULL, " \t", &save);
			else if (!strncmp(tok, "--threshold=", 12))
				spec = tok + 12;
			if (!spec)
				rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:%zu: '%s': expected "
						 "-t METRIC=VALUE", c->thresholds, lineno, tok);
			else if (dlb_compare_threshold(c, spec, err))
				rc = dlb_err_prefix(err, "%s:%zu", c->thresholds, lineno);
		}
	}
	fclose(f);
	/* then the command line's, so that they win */
	for (i = 0; i < nr_given; i++) {
		struct cmp_override *p = realloc(c->ov, (c->nr_ov + 1) * sizeof(*p));

		if (!p) {
			for (; i < nr_given; i++)
				free(given[i].task);
			rc = dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
			break;
		}
		c->ov = p;
		c->ov[c->nr_ov++] = given[i];
	}
	free(given);
	return rc;
}

void dlb_compare_free(struct dlb_compare *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_ov; i++)
		free(c->ov[i].task);
	free(c->ov);
	free(c);
}

static const char *unit_str(enum cmp_unit u)
{
	return u == U_NS ? "time" : u == U_COUNT ? "count" : "ratio";
}

void dlb_compare_print_metrics(FILE *f)
{
	size_t i;

	for (i = 0; i < NR_METRICS; i++) {
		const struct metric_def *d = &metrics[i];

		if (d->unit == U_NS)
			fprintf(f, "  %-23s %-6s %g%%,%gus: %s\n", d->name, unit_str(d->unit), d->rel,
				d->abs / 1000.0, d->doc);
		else
			fprintf(f, "  %-23s %-6s %g%%,%g: %s\n", d->name, unit_str(d->unit), d->rel,
				d->abs, d->doc);
	}
}

static int metric_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NR_METRICS; i++)
		if (strlen(metrics[i].name) == len && !strncmp(metrics[i].name, name, len))
			return (int)i;
	return -1;
}

/* One part of a threshold value: "N%" or an amount in the metric's unit. */
static int parse_part(const char *s, const struct metric_def *d, double *rel, double *abs)
{
	size_t n = strlen(s);
	char *end;
	double v;
	u64 ns;

	if (n && s[n - 1] == '%') {
		errno = 0;
		v = strtod(s, &end);
		if (errno || end != s + n - 1 || v < 0 || end == s)
			return -1;
		*rel = v;
		return 0;
	}
	if (d->unit == U_NS) {
		if (dlb_parse_duration(s, 1, &ns))
			return -1;
		*abs = (double)ns;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || v < 0)
		return -1;
	*abs = v;
	return 0;
}

int dlb_compare_threshold(struct dlb_compare *c, const char *spec, struct dlb_err *err)
{
	const char *eq = strchr(spec, '='), *colon, *name;
	struct cmp_override o = { .rel = NAN, .abs = NAN };
	char *val, *part, *save = NULL;
	struct cmp_override *p;
	int mi, bad = 0;

	if (!eq)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "--threshold '%s': expected [task:]metric=value", spec);
	colon = memrchr(spec, ':', (size_t)(eq - spec));
	name = colon ? colon + 1 : spec;
	mi = metric_find(name, (size_t)(eq - name));
	if (mi < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "--threshold '%s': unknown metric '%.*s'",
				   spec, (int)(eq - name), name);
	o.metric = (size_t)mi;
	val = strdup(eq + 1);
	if (!val)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	for (part = strtok_r(val, ",", &save); part; part = strtok_r(NULL, ",", &save))
		bad |= parse_part(part, &metrics[mi], &o.rel, &o.abs);
	if (bad || !eq[1]) {
		free(val);
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "--threshold '%s': bad value '%s' (want N%%, an amount, or both)",
				   spec, eq + 1);
	}
	free(val);
	if (colon && !(o.task = strndup(spec, (size_t)(colon - spec))))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	p = realloc(c->ov, (c->nr_ov + 1) * sizeof(*p));
	if (!p) {
		free(o.task);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	}
	c->ov = p;
	c->ov[c->nr_ov++] = o;
	return 0;
}

/* The threshold in force: per task, else per metric, else the default; last given wins. */
static void threshold_for(const struct dlb_compare *c, const char *task, size_t mi,
			  double *rel, double *abs)
{
	size_t i;
	int best = 0;

	*rel = metrics[mi].rel;
	*abs = metrics[mi].abs;
	for (i = 0; i < c->nr_ov; i++) {
		const struct cmp_override *o = &c->ov[i];
		int rank;

		if (o->metric != mi)
			continue;
		if (o->task && strcmp(o->task, task))
			continue;
		rank = o->task ? 2 : 1;
		if (rank < best)
			continue;
		best = rank;
		/* a part not given keeps the default (or what a less specific override said) */
		if (!isnan(o->rel))
			*rel = o->rel;
		if (!isnan(o->abs))
			*abs = o->abs;
	}
}

/* ---- reading reports ---- */

static struct json_object *report_load(const char *path, char *used, size_t size,
				       struct dlb_err *err)
{
	struct json_object *root, *v;
	struct stat st;

	snprintf(used, size, "%s", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(used, size, "%s/report.json", path);
	root = json_object_from_file(used);
	if (!root) {
		if (access(used, R_OK))
			dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", used, dlb_strerror(errno));
		else
			dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: not a report: %s", used,
				    json_util_get_last_err() ? json_util_get_last_err() : "bad json");
		/* json-c's message ends with a newline */
		err->msg[strcspn(err->msg, "\n")] = '\0';
		return NULL;
	}
	if (!json_object_object_get_ex(root, "report_version", &v) ||
	    /* version 1 differs only in its verdict, which compare does not read */
	    json_object_get_int(v) < 1 || json_object_get_int(v) > DLB_REPORT_VERSION ||
	    !json_object_object_get_ex(root, "tasks", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		json_object_put(root);
		dlb_err_set(err, DLB_EXIT_BAD_INPUT,
			    "%s: not a report of version 1..%d (report_version or tasks missing)",
			    used, DLB_REPORT_VERSION);
		return NULL;
	}
	return root;
}

/* The number at @k in @o: a key, or a path of keys "a.b". */
static bool jnum(struct json_object *o, const char *k, double *out)
{
	struct json_object *v = o;
	const char *dot;

	for (; v && (dot = strchr(k, '.')); k = dot + 1) {
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(dot - k), k);
		if (!json_object_object_get_ex(v, key, &v))
			return false;
	}
	o = v;
	if (!o || !json_object_object_get_ex(o, k, &v) || !v)
		return false;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* Value of metric @d in task object @o, or in report @o's run (its "run" or "conformance"). */
static bool metric_value(const struct metric_def *d, struct json_object *o, bool run, double *out)
{
	struct json_object *sub = o;
	double v, jobs;

	if (run) {
		if (d->conf && (!json_object_object_get_ex(o, "conformance", &o) || !o))
			return false;
		if (!json_object_object_get_ex(o, "run", &o) || !o)
			return false;
		if (!d->run_field || (!jnum(o, d->run_field, &v) &&
				      (!d->run_field_v1 || !jnum(o, d->run_field_v1, &v))))
			return false;
	} else {
		if (!d->field)
			return false;
		if (d->obj && !json_object_object_get_ex(o, d->obj, &sub))
			return false;
		if (!jnum(sub, d->field, &v))
			return false;
	}
	if (d->per_job) {
		if (!jnum(o, "jobs", &jobs) || jobs <= 0)
			return false;
		v /= jobs;
	}
	*out = v;
	return true;
}

static struct json_object *task_by_key(struct json_object *tasks, const char *key)
{
	size_t i, n = json_object_array_length(tasks);

	for (i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(tasks, i), *k;

		if (json_object_object_get_ex(t, "key", &k) && !strcmp(json_object_get_string(k), key))
			return t;
	}
	return NULL;
}

/* ---- the table ---- */

static void put_val(FILE *f, const struct metric_def *d, bool known, double v)
{
	if (!known)
		fprintf(f, " %12s", "-");
	else if (d->unit == U_NS)
		fprintf(f, " %12.1f", v / 1000.0);
	else if (d->unit == U_COUNT)
		fprintf(f, " %12.0f", v);
	else
		fprintf(f, " %12.4f", v);
}

static const char *verdict(const struct metric_def *d, double base, double nv, double rel,
			   double abs)
{
	double lim = fmax(abs, fabs(base) * rel / 100.0), delta = nv - base;

	(void)d;
	if (delta > lim)
		return "worse";
	if (-delta > lim)
		return "better";
	return "same";
}

struct cmp_count {
	int worse, better, same, na, unclear;
	char first_worse[96];		/* "task metric" of the first worse row */
};

static void compare_obj(const struct dlb_compare *c, FILE *out, const char *key,
			struct json_object *b, struct json_object *n, bool run, struct cmp_count *cnt)
{
	size_t mi;

	for (mi = 0; mi < NR_METRICS; mi++) {
		const struct metric_def *d = &metrics[mi];
		double bv = 0, nv = 0, rel, abs;
		char thr[64];
		bool bk, nk;
		const char *v;

		if ((run && !d->run_field) || (!run && !d->field))
			continue;
		bk = metric_value(d, b, run, &bv);
		nk = metric_value(d, n, run, &nv);
		/* runs of different lengths: counts are compared as rates */
		if (d->unit == U_COUNT && !d->per_job && nk)
			nv *= c->rate_scale;
		threshold_for(c, key, mi, &rel, &abs);
		v = bk && nk ? verdict(d, bv, nv, rel, abs) : "n/a";
		if (!strcmp(v, "worse")) {
			if (!cnt->worse++)
				snprintf(cnt->first_worse, sizeof(cnt->first_worse), "%s %s", key,
					 d->name);
		} else if (!strcmp(v, "better"))
			cnt->better++;
		else if (!strcmp(v, "same"))
			cnt->same++;
		else
			cnt->na++;
		fprintf(out, "%-16.16s %-23s", key, d->name);
		put_val(out, d, bk, bv);
		put_val(out, d, nk, nv);
		if (d->unit == U_NS)
			snprintf(thr, sizeof(thr), "%g%%,%gus", rel, abs / 1000.0);
		else
			snprintf(thr, sizeof(thr), "%g%%,%g", rel, abs);
		fprintf(out, "  %-18s %s\n", thr, v);
	}
}

/*
 * Complete data, or data whose gaps the run's own verdict accepted: a PASS
 * (e.g. a run refused by admission control as its entry expected: the
 * generator's status is "error", there are no jobs, nothing is missing).
 */
static bool report_complete(struct json_object *r)
{
	struct json_object *q, *v;

	if (json_object_object_get_ex(r, "quality", &q) &&
	    json_object_object_get_ex(q, "complete", &v) && json_object_get_boolean(v))
		return true;
	return json_object_object_get_ex(r, "verdict", &q) &&
	       json_object_object_get_ex(q, "result", &v) && v &&
	       !strcmp(json_object_get_string(v), "PASS");
}

static void compare_tasks(const struct dlb_compare *c, FILE *out, struct json_object *bt,
			  struct json_object *nt, struct cmp_count *cnt)
{
	size_t i;

	for (i = 0; i < json_object_array_length(bt); i++) {
		struct json_object *t = json_object_array_get_idx(bt, i), *k, *o;
		const char *key;

		if (!json_object_object_get_ex(t, "key", &k))
			continue;
		key = json_object_get_string(k);
		o = task_by_key(nt, key);
		if (!o) {
			fprintf(out, "%-16.16s %-23s %12s %12s  %-18s %s\n", key, "(task)", "present",
				"missing", "", "worse");
			if (!cnt->worse++)
				snprintf(cnt->first_worse, sizeof(cnt->first_worse), "%s missing",
					 key);
			continue;
		}
		compare_obj(c, out, key, t, o, false, cnt);
	}
	for (i = 0; i < json_object_array_length(nt); i++) {
		struct json_object *t = json_object_array_get_idx(nt, i), *k;

		if (json_object_object_get_ex(t, "key", &k) &&
		    !task_by_key(bt, json_object_get_string(k)))
			fprintf(out, "%-16.16s %-23s %12s %12s  %-18s %s\n",
				json_object_get_string(k), "(task)", "missing", "present", "", "new");
	}
}

static const char *env_str(struct json_object *r, const char *key)
{
	struct json_object *e, *v;

	if (!json_object_object_get_ex(r, "environment", &e) ||
	    !json_object_object_get_ex(e, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

/* The backend a thresholds file names: "qemu" for a guest run (one that names its image). */
static const char *thresholds_backend(struct json_object *r)
{
	return env_str(r, "image")[0] ? "qemu" : env_str(r, "backend");
}

/* The run's own verdict ("PASS", ...; "" for a version 1 report): shown, never re-judged. */
static const char *verdict_result(struct json_object *r, const char **reason)
{
	struct json_object *v, *res, *why;

	*reason = "";
	if (!json_object_object_get_ex(r, "verdict", &v) ||
	    !json_object_object_get_ex(v, "result", &res) || !res)
		return "";
	if (json_object_object_get_ex(v, "reason", &why) && why)
		*reason = json_object_get_string(why);
	return json_object_get_string(res);
}

/* The folder a report lives in (for workload.json and the entry's name). */
static void report_dir(const char *used, char *dir, size_t size)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", used);
	snprintf(dir, size, "%s", dirname(tmp));
}

/* 1 when both folders hold a workload.json and they differ, 0 same, -1 unknown */
static int workload_files_differ(const char *bdir, const char *ndir)
{
	char bp[4200], np[4200];
	FILE *b, *n;
	int cb, cn, rc = -1;

	snprintf(bp, sizeof(bp), "%s/workload.json", bdir);
	snprintf(np, sizeof(np), "%s/workload.json", ndir);
	b = fopen(bp, "r");
	n = fopen(np, "r");
	if (b && n) {
		do {
			cb = getc(b);
			cn = getc(n);
		} while (cb == cn && cb != EOF);
		rc = cb != cn;
	}
	if (b)
		fclose(b);
	if (n)
		fclose(n);
	return rc;
}

static void warn_differ(FILE *out, char *list, size_t size, const char *what, const char *bv,
			const char *nv)
{
	size_t len = strlen(list);

	fprintf(out, "# warning: the runs differ in %s: base %s, new %s\n", what, bv, nv);
	snprintf(list + len, size - len, "%s%s", len ? ", " : "", what);
}

/*
 * Two runs that differ in duration, workload, backend, CPUs or kernel are
 * not the same experiment: say so before the table.  Counts of runs of
 * different lengths are compared as rates: NEW's scaled to BASE's span.
 */
static void env_warnings(struct dlb_compare *c, FILE *out, struct json_object *b,
			 struct json_object *n, const char *bdir, const char *ndir, char *list,
			 size_t size)
{
	static const char *const keys[] = { "backend", "kernel", "cpus" };
	struct json_object *br, *nr, *v;
	double bd = 0, nd = 0;
	char bs[64], ns[64];
	size_t i;
	int wd;

	list[0] = '\0';
	c->rate_scale = 1.0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(env_str(b, keys[i]), env_str(n, keys[i])))
			warn_differ(out, list, size, keys[i], env_str(b, keys[i]),
				    env_str(n, keys[i]));
	wd = workload_files_differ(bdir, ndir);
	if (wd > 0)
		warn_differ(out, list, size, "workload", "workload.json", "another workload.json");
	else if (wd < 0 && strcmp(env_str(b, "workload"), env_str(n, "workload")))
		warn_differ(out, list, size, "workload", env_str(b, "workload"),
			    env_str(n, "workload"));
	if (json_object_object_get_ex(b, "run", &br) && json_object_object_get_ex(n, "run", &nr) &&
	    json_object_object_get_ex(br, "duration_ns", &v))
		bd = json_object_get_double(v);
	if (json_object_object_get_ex(n, "run", &nr) &&
	    json_object_object_get_ex(nr, "duration_ns", &v))
		nd = json_object_get_double(v);
	if (bd > 0 && nd > 0 && (nd > bd * 1.1 || bd > nd * 1.1)) {
		snprintf(bs, sizeof(bs), "%.3f s", bd / 1e9);
		snprintf(ns, sizeof(ns), "%.3f s", nd / 1e9);
		warn_differ(out, list, size, "duration", bs, ns);
		c->rate_scale = bd / nd;
		fprintf(out, "# counts (misses, overruns) of new are compared as rates: scaled by "
			"%.3f to base's %s\n", c->rate_scale, bs);
	}
}

/*
 * The end of every comparison: counts, the exit code and the one-line
 * summary (dlb_compare_summary).  A regression is news even on incomplete
 * data; otherwise incomplete data decides.
 */
static int compare_finish(struct dlb_compare *c, FILE *out, const struct cmp_count *cnt,
			  bool complete, const char *differ, const char *bv, const char *nv)
{
	int rc;

	fprintf(out, "# %d worse, %d better, %d same, %d n/a", cnt->worse, cnt->better, cnt->same,
		cnt->na);
	if (cnt->unclear)
		fprintf(out, ", %d unclear", cnt->unclear);
	fputc('\n', out);
	if (cnt->worse)
		rc = DLB_EXIT_REGRESSION;
	else if (!complete && !c->accept_incomplete)
		rc = DLB_EXIT_INCOMPLETE;
	else
		rc = DLB_EXIT_OK;
	fprintf(out, "# verdict: %s\n", rc == DLB_EXIT_REGRESSION ? "worse" :
		rc == DLB_EXIT_INCOMPLETE ? "incomplete data" : "not worse");
	snprintf(c->summary, sizeof(c->summary), "%s: %d worse, %d better, %d same, %d n/a%s%s%s",
		 rc == DLB_EXIT_REGRESSION ? "worse" : rc == DLB_EXIT_INCOMPLETE ?
		 "incomplete data" : "not worse", cnt->worse, cnt->better, cnt->same, cnt->na,
		 cnt->first_worse[0] ? " (first: " : "", cnt->first_worse,
		 cnt->first_worse[0] ? ")" : "");
	if (cnt->unclear)
		snprintf(c->summary + strlen(c->summary), sizeof(c->summary) - strlen(c->summary),
			 "; %d unclear (more repeats would tell)", cnt->unclear);
	if (differ[0])
		snprintf(c->summary + strlen(c->summary), sizeof(c->summary) - strlen(c->summary),
			 "; the runs differ in %s", differ);
	if (bv[0] && nv[0] && strcmp(bv, nv))
		snprintf(c->summary + strlen(c->summary), sizeof(c->summary) - strlen(c->summary),
			 "; verdict %s -> %s", bv, nv);
	fprintf(out, "compare: %s\n", c->summary);
	return rc;
}

/* ---- repeated runs: a folder of run folders on each side ---- */

/*
 * Repeats of one workload on one kernel vary (the host's noise on a VM or a
 * guest): one run against one run cannot tell a change from noise.  With R
 * runs a side, a row compares the medians against the metric's threshold,
 * as for two runs, and a change beyond it counts only if the rank test
 * agrees: the exact one-sided Mann-Whitney test (every way of splitting the
 * pooled runs into two groups of these sizes is equally likely when nothing
 * changed) gives p <= CMP_ALPHA.  With 3 runs a side that means every new
 * run worse than every base run (p = 1/20).  Medians beyond the threshold
 * with a larger p are "unclear": reported, not a regression.  With fewer
 * runs than the test can ever pass (C(nb + nn, nn) < 1 / CMP_ALPHA) the
 * medians decide alone, and the header says so.
 */
#define CMP_ALPHA		0.05
#define CMP_MAX_REPEATS		64
#define CMP_EXACT_MAX		16	/* pooled runs up to which p is exact */

struct rep_set {
	char dir[4096];
	int nr;
	char path[CMP_MAX_REPEATS][4096];
	struct json_object *r[CMP_MAX_REPEATS];
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Mann-Whitney U of @n over @b: pairs where new is larger, ties counted half. */
static double mw_u(const double *b, int nb, const double *n, int nn)
{
	double u = 0;
	int i, j;

	for (i = 0; i < nb; i++)
		for (j = 0; j < nn; j++)
			u += n[j] > b[i] ? 1 : n[j] == b[i] ? 0.5 : 0;
	return u;
}

/*
 * One-sided p that new is larger: exact up to CMP_EXACT_MAX pooled runs (all
 * C(N, nn) splits of the pooled values), else the normal approximation.
 */
static double mw_p_greater(const double *b, int nb, const double *n, int nn)
{
	double pool[2 * CMP_MAX_REPEATS], g0[CMP_MAX_REPEATS], g1[CMP_MAX_REPEATS], u, uo;
	int N = nb + nn, i, k0, k1;
	unsigned long mask, total = 0, hits = 0;

	uo = mw_u(b, nb, n, nn);
	if (N > CMP_EXACT_MAX) {
		double mu = nb * nn / 2.0, sd = sqrt(nb * nn * (N + 1) / 12.0);

		return 0.5 * erfc((uo - 0.5 - mu) / sd / sqrt(2.0));
	}
	memcpy(pool, b, sizeof(*b) * (size_t)nb);
	memcpy(pool + nb, n, sizeof(*n) * (size_t)nn);
	for (mask = 0; mask < 1ul << N; mask++) {
		if (__builtin_popcountl(mask) != nn)
			continue;
		for (i = k0 = k1 = 0; i < N; i++) {
			if (mask >> i & 1)
				g1[k1++] = pool[i];
			else
				g0[k0++] = pool[i];
		}
		u = mw_u(g0, k0, g1, k1);
		total++;
		hits += u >= uo - 1e-9;
	}
	return (double)hits / (double)total;
}

/* Whether the rank test can reach CMP_ALPHA with these sizes: C(nb + nn, nn) >= 1 / alpha. */
static bool mw_can_decide(int nb, int nn)
{
	double c = 1;
	int i;

	for (i = 1; i <= nn; i++)
		c = c * (nb + i) / i;
	return c * CMP_ALPHA >= 1 - 1e-9;
}

static void rep_free(struct rep_set *s)
{
	int i;

	for (i = 0; i < s->nr; i++)
		json_object_put(s->r[i]);
	s->nr = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * @dir holds no report.json but run folders that do (validate's
 * KERNEL/WORKLOAD/1, 2, ...): load them, by name.  Returns the number of
 * repeats, 0 when @dir is not such a folder, -1 with @err.
 */
static int rep_load(struct rep_set *s, const char *dir, struct dlb_err *err)
{
	char path[4200], *names[CMP_MAX_REPEATS];
	struct dirent *e;
	struct stat st;
	int nr = 0, i, rc = 0;
	DIR *d;

	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !access(path, F_OK))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) && nr < CMP_MAX_REPEATS) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/report.json", dir, e->d_name);
		if (!access(path, F_OK) && !(names[nr] = strdup(e->d_name)))
			break;
		nr += !access(path, F_OK);
	}
	closedir(d);
	qsort(names, (size_t)nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!rc && !(s->r[s->nr] = report_load(path, s->path[s->nr], sizeof(s->path[0]),
							 err)))
			rc = -1;
		else if (!rc)
			s->nr++;
		free(names[i]);
	}
	if (rc)
		rep_free(s);
	return rc ? -1 : s->nr;
}

/* One value per repeat that has it: task @key's metric (or the run's, @key NULL). */
static int rep_values(const struct dlb_compare *c, const struct rep_set *s, const char *key,
		      const struct metric_def *d, bool scale, double *v)
{
	struct json_object *o, *t;
	int i, k = 0;

	for (i = 0; i < s->nr; i++) {
		if (key) {
			if (!json_object_object_get_ex(s->r[i], "tasks", &t) || !(o = task_by_key(t, key)))
				continue;
		} else {
			o = s->r[i];	/* the report: its run or its conformance */
		}
		if (!metric_value(d, o, !key, &v[k]))
			continue;
		/* runs of different lengths: counts are compared as rates */
		if (scale && d->unit == U_COUNT && !d->per_job)
			v[k] *= c->rate_scale;
		k++;
	}
	return k;
}

static void put_range(FILE *f, const struct metric_def *d, const double *v, int n)
{
	char r[72];
	double div = d->unit == U_NS ? 1000.0 : 1.0;
	int prec = d->unit == U_NS ? 1 : d->unit == U_COUNT ? 0 : 4;

	r[0] = '\0';
	if (n)	/* @v is sorted (median) */
		snprintf(r, sizeof(r), "[%.*f..%.*f]", prec, v[0] / div, prec, v[n - 1] / div);
	fprintf(f, " %-19s", r);
}

static void count_row(struct cmp_count *cnt, const char *v, const char *key, const char *what)
{
	if (!strcmp(v, "worse")) {
		if (!cnt->worse++)
			snprintf(cnt->first_worse, sizeof(cnt->first_worse), "%s %s", key, what);
	} else if (!strcmp(v, "better")) {
		cnt->better++;
	} else if (!strcmp(v, "same")) {
		cnt->same++;
	} else if (!strcmp(v, "unclear")) {
		cnt->unclear++;
	} else {
		cnt->na++;
	}
}

/*
 * Medians @bm, @nm of sorted @bv, @nv: "same" within @lim, else the rank
 * test's word (its p into @p): "worse"/"better" when p <= CMP_ALPHA,
 * "unclear" above, and "unclear" too when the sizes cannot reach CMP_ALPHA
 * (fewer than 3 runs a side): one run against one cannot tell a change
 * from noise.
 */
static const char *rep_decide(const double *bv, int nb, double bm, const double *nv, int nn,
			      double nm, double lim, double *p)
{
	if (nm - bm <= lim && bm - nm <= lim)
		return "same";
	*p = nm > bm ? mw_p_greater(bv, nb, nv, nn) : mw_p_greater(nv, nn, bv, nb);
	if (!mw_can_decide(nb, nn) || *p > CMP_ALPHA)
		return "unclear";
	return nm > bm ? "worse" : "better";
}

/* A metric's row over the repeats: medians, ranges, the rank test, the verdict. */
static void rep_row(const struct dlb_compare *c, FILE *out, const char *key,
		    const struct rep_set *b, const struct rep_set *n, size_t mi,
		    struct cmp_count *cnt)
{
	const struct metric_def *d = &metrics[mi];
	double bv[CMP_MAX_REPEATS], nv[CMP_MAX_REPEATS], bm = 0, nm = 0, rel, abs, p = NAN;
	const char *v = "n/a", *label = strcmp(key, "(run)") ? key : NULL;
	char thr[64], ps[16];
	int nb, nn;

	nb = rep_values(c, b, label, d, false, bv);
	nn = rep_values(c, n, label, d, true, nv);
	if ((!label && !d->run_field) || (label && !d->field) || (!nb && !nn))
		return;
	threshold_for(c, key, mi, &rel, &abs);
	if (nb)
		bm = median(bv, nb);
	if (nn)
		nm = median(nv, nn);
	if (nb && nn)
		v = rep_decide(bv, nb, bm, nv, nn, nm, fmax(abs, fabs(bm) * rel / 100.0), &p);
	count_row(cnt, v, key, d->name);
	fprintf(out, "%-16.16s %-23s", key, d->name);
	put_val(out, d, nb > 0, bm);
	put_range(out, d, bv, nb);
	put_val(out, d, nn > 0, nm);
	put_range(out, d, nv, nn);
	if (d->unit == U_NS)
		snprintf(thr, sizeof(thr), "%g%%,%gus", rel, abs / 1000.0);
	else
		snprintf(thr, sizeof(thr), "%g%%,%g", rel, abs);
	snprintf(ps, sizeof(ps), isnan(p) ? "-" : "%.3f", p);
	fprintf(out, "  %-18s %6s %s\n", thr, ps, v);
}

/* How many repeats say @want at @path ("admission", "kernel_checks.dl_accounting.status"...). */
static int rep_count(const struct rep_set *s, const char *const *path, const char *want,
		     int *known)
{
	struct json_object *o;
	int i, k = 0, j;

	*known = 0;
	for (i = 0; i < s->nr; i++) {
		o = s->r[i];
		for (j = 0; o && path[j]; j++)
			if (!json_object_object_get_ex(o, path[j], &o))
				o = NULL;
		if (!o || !json_object_is_type(o, json_type_string))
			continue;
		++*known;
		k += !strcmp(json_object_get_string(o), want);
	}
	return k;
}

/* The runs' own verdicts as a metric: 1 a run that did not pass, 0 one that did. */
static const char *rep_verdicts(const struct rep_set *b, const struct rep_set *n, double *p)
{
	double bv[CMP_MAX_REPEATS], nv[CMP_MAX_REPEATS];
	const struct rep_set *sides[2] = { b, n };
	double *vals[2] = { bv, nv };
	int cnt[2] = { 0, 0 }, s, i;
	struct json_object *v, *r;

	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->nr; i++)
			if (json_object_object_get_ex(sides[s]->r[i], "verdict", &v) &&
			    json_object_object_get_ex(v, "result", &r) && r)
				vals[s][cnt[s]++] = strcmp(json_object_get_string(r), "PASS") != 0;
	return rep_decide(bv, cnt[0], median(bv, cnt[0]), nv, cnt[1], median(nv, cnt[1]), 0, p);
}

/*
 * A kernel check's row (@path: its status): how many of the repeats that ran
 * it found something ("finding", or "finding_repaired" at boot); a finding
 * on the new side where the base had none is worse.  Repeats without the
 * check (no status, or "absent") are not counted.
 */
static void rep_findings(FILE *out, const struct rep_set *b, const struct rep_set *n,
			 const char *const *path, const char *name, struct cmp_count *cnt)
{
	const struct rep_set *sides[2] = { b, n };
	int found[2], ran[2], k, s;
	char txt[2][48];
	const char *v;

	for (s = 0; s < 2; s++) {
		found[s] = rep_count(sides[s], path, "finding", &ran[s]) +
			   rep_count(sides[s], path, "finding_repaired", &k);
		ran[s] -= rep_count(sides[s], path, "absent", &k);
		snprintf(txt[s], sizeof(txt[s]), "%d/%d findings", found[s], ran[s] > 0 ? ran[s] : 0);
	}
	v = ran[0] <= 0 || ran[1] <= 0 ? "n/a" : found[1] && !found[0] ? "worse" :
	    found[0] && !found[1] ? "better" : "same";
	fprintf(out, "%-16s %-23s %32s %32s  %-18s %6s %s\n", "(run)", name, txt[0], txt[1],
		"any", "-", v);
	count_row(cnt, v, "(run)", name);
}

/*
 * The outcomes that are not timing: admission control's (exact arithmetic
 * on the reservations: a changed majority is a change in behaviour, worse),
 * the kernel's DL accounting checks, at boot and over the run (a finding
 * where the base had none is worse), and the runs' own verdicts (misses over a limit are timing:
 * judged as a metric, 1 per failed run, by rep_decide).
 */
static void rep_outcomes(FILE *out, const struct rep_set *b, const struct rep_set *n,
			 struct cmp_count *cnt)
{
	static const char *const adm[] = { "admission", NULL };
	static const char *const dla[] = { "kernel_checks", "dl_accounting", "status", NULL };
	static const char *const bda[] = { "kernel_checks", "boot_dl_accounting", "status", NULL };
	static const char *const ver[] = { "verdict", "result", NULL };
	int bk, nk, ba, na, bp, np;
	char bs[48], ns[48], ps[16];
	double p = NAN;
	const char *v;

	ba = rep_count(b, adm, "admitted", &bk);
	na = rep_count(n, adm, "admitted", &nk);
	v = !bk || !nk ? "n/a" : (2 * ba > bk) != (2 * na > nk) ? "worse" : "same";
	snprintf(bs, sizeof(bs), "%d/%d admitted", ba, bk);
	snprintf(ns, sizeof(ns), "%d/%d admitted", na, nk);
	fprintf(out, "%-16s %-23s %32s %32s  %-18s %6s %s\n", "(run)", "admission", bs, ns,
		"majority", "-", v);
	count_row(cnt, v, "(run)", "admission");

	rep_findings(out, b, n, dla, "dl_accounting", cnt);
	rep_findings(out, b, n, bda, "boot_dl_accounting", cnt);

	bp = rep_count(b, ver, "PASS", &bk);
	np = rep_count(n, ver, "PASS", &nk);
	v = !bk || !nk ? "n/a" : rep_verdicts(b, n, &p);
	snprintf(bs, sizeof(bs), "%d/%d PASS", bp, bk);
	snprintf(ns, sizeof(ns), "%d/%d PASS", np, nk);
	snprintf(ps, sizeof(ps), isnan(p) ? "-" : "%.3f", p);
	fprintf(out, "%-16s %-23s %32s %32s  %-18s %6s %s\n", "(run)", "verdict", bs, ns,
		"majority", ps, v);
	count_row(cnt, v, "(run)", "verdict");
}

/* The tasks of every repeat of either side, once each, in order of appearance. */
static void rep_tasks(const struct dlb_compare *c, FILE *out, const struct rep_set *b,
		      const struct rep_set *n, struct cmp_count *cnt)
{
	const struct rep_set *sides[2] = { b, n };
	struct json_object *seen = json_object_new_object(), *t, *k;
	size_t mi, j;
	int s, i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->nr; i++) {
			if (!json_object_object_get_ex(sides[s]->r[i], "tasks", &t))
				continue;
			for (j = 0; j < json_object_array_length(t); j++) {
				const char *key;

				if (!json_object_object_get_ex(json_object_array_get_idx(t, j), "key", &k))
					continue;
				key = json_object_get_string(k);
				if (json_object_object_get_ex(seen, key, NULL))
					continue;
				json_object_object_add(seen, key, NULL);
				for (mi = 0; mi < NR_METRICS; mi++)
					rep_row(c, out, key, b, n, mi, cnt);
			}
		}
	json_object_put(seen);
	for (mi = 0; mi < NR_METRICS; mi++)
		rep_row(c, out, "(run)", b, n, mi, cnt);
}

static bool rep_complete(const struct rep_set *s, FILE *out)
{
	bool all = true;
	int i;

	for (i = 0; i < s->nr; i++)
		if (!report_complete(s->r[i])) {
			fprintf(out, "# warning: %s: data incomplete (see its quality flags)\n",
				s->path[i]);
			all = false;
		}
	return all;
}

/* "# base kernel: 6.1.0-28-arm64 aarch64, 4 CPUs, image sha256 ..." */
static void rep_kernel(FILE *out, const char *what, struct json_object *r)
{
	const char *k = env_str(r, "kernel"), *a = env_str(r, "arch"), *h = env_str(r, "image_sha256");

	fprintf(out, "# %s %s %s, %s CPUs, backend %s%s%s\n", what, k[0] ? k : "unknown",
		a[0] ? a : "unknown", env_str(r, "cpus"), env_str(r, "backend"),
		h[0] ? ", image sha256 " : "", h);
}

static int compare_repeats(struct dlb_compare *c, struct rep_set *b, struct rep_set *n,
			   FILE *out, struct dlb_err *err)
{
	char bdir[4096], ndir[4096], differ[256], tmp[4096];
	struct cmp_count cnt = { 0 };
	bool complete;

	report_dir(b->path[0], bdir, sizeof(bdir));
	report_dir(n->path[0], ndir, sizeof(ndir));
	if (c->thresholds) {
		/* the entry: NEW's backend, and the workload's folder name (KERNEL/NAME/K) */
		snprintf(tmp, sizeof(tmp), "%s", n->dir);
		if (apply_thresholds_file(c, thresholds_backend(n->r[0]), basename(tmp), err))
			return -1;
		c->thresholds = NULL;
	}
	fprintf(out, "# dlb-analyze compare: repeated runs\n# base: %s (%d runs)\n"
		"# new:  %s (%d runs)\n", b->dir, b->nr, n->dir, n->nr);
	rep_kernel(out, "base kernel:", b->r[0]);
	rep_kernel(out, "new kernel: ", n->r[0]);
	env_warnings(c, out, b->r[0], n->r[0], bdir, ndir, differ, sizeof(differ));
	fprintf(out, "# medians and [min..max] of the runs, times in us; worse/better: medians "
		"beyond both parts of the threshold and the one-sided Mann-Whitney p <= %g%s\n",
		CMP_ALPHA, mw_can_decide(b->nr, n->nr) ? "" :
		"; too few runs for the rank test (3 a side): a timing change is at most unclear");
	fprintf(out, "%-16s %-23s %12s %-19s %12s %-19s  %-18s %6s %s\n", "task", "metric",
		"base", "", "new", "", "threshold", "p", "verdict");
	rep_tasks(c, out, b, n, &cnt);
	rep_outcomes(out, b, n, &cnt);
	complete = rep_complete(b, out);
	complete = rep_complete(n, out) && complete;
	return compare_finish(c, out, &cnt, complete, differ, "", "");
}

int dlb_compare_run(struct dlb_compare *c, const char *base, const char *newp, FILE *out,
		    struct dlb_err *err)
{
	char bdir[4096], ndir[4096], differ[256], tmp[4096];
	const char *bv, *nv, *bwhy, *nwhy;
	char bpath[4096], npath[4096];
	struct json_object *b, *n, *bt, *nt;
	struct cmp_count cnt = { 0 };
	struct rep_set *rb, *rn;
	bool complete;
	int rc, kb, kn;

	/* folders of repeated runs on both sides (validate) */
	rb = calloc(1, sizeof(*rb));
	rn = calloc(1, sizeof(*rn));
	if (!rb || !rn) {
		free(rb);
		free(rn);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	}
	kb = rep_load(rb, base, err);
	kn = kb < 0 ? -1 : rep_load(rn, newp, err);
	if (kb > 0 && kn > 0)
		rc = compare_repeats(c, rb, rn, out, err);
	else if (kb >= 0 && kn >= 0 && (kb > 0 || kn > 0))
		rc = dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s holds repeated runs and %s does not: "
				 "compare repeats with repeats", kb > 0 ? base : newp,
				 kb > 0 ? newp : base);
	else
		rc = kb < 0 || kn < 0 ? -1 : -2;
	rep_free(rb);
	rep_free(rn);
	free(rb);
	free(rn);
	if (rc != -2)
		return rc;

	b = report_load(base, bpath, sizeof(bpath), err);
	if (!b)
		return -1;
	n = report_load(newp, npath, sizeof(npath), err);
	if (!n) {
		json_object_put(b);
		return -1;
	}
	json_object_object_get_ex(b, "tasks", &bt);
	json_object_object_get_ex(n, "tasks", &nt);
	report_dir(bpath, bdir, sizeof(bdir));
	report_dir(npath, ndir, sizeof(ndir));
	if (c->thresholds) {
		/* the entry: NEW's backend, and its run folder's name (suite/BACKEND/NAME) */
		snprintf(tmp, sizeof(tmp), "%s", ndir);
		if (apply_thresholds_file(c, thresholds_backend(n), basename(tmp), err)) {
			json_object_put(b);
			json_object_put(n);
			return -1;
		}
		c->thresholds = NULL;
	}
	fprintf(out, "# dlb-analyze compare\n# base: %s\n# new:  %s\n", bpath, npath);
	bv = verdict_result(b, &bwhy);
	nv = verdict_result(n, &nwhy);
	if (bv[0])
		fprintf(out, "# base verdict: %s: %s\n", bv, bwhy);
	if (nv[0])
		fprintf(out, "# new verdict:  %s: %s\n", nv, nwhy);
	env_warnings(c, out, b, n, bdir, ndir, differ, sizeof(differ));
	fprintf(out, "# times in us; a change counts when beyond both parts of the threshold\n");
	fprintf(out, "%-16s %-23s %12s %12s  %-18s %s\n", "task", "metric", "base", "new",
		"threshold", "verdict");
	compare_tasks(c, out, bt, nt, &cnt);
	if (json_object_object_get_ex(b, "run", NULL) && json_object_object_get_ex(n, "run", NULL))
		compare_obj(c, out, "(run)", b, n, true, &cnt);
	complete = report_complete(b) && report_complete(n);
	if (!report_complete(b))
		fprintf(out, "# warning: %s: data incomplete (see its quality flags)\n", bpath);
	if (!report_complete(n))
		fprintf(out, "# warning: %s: data incomplete (see its quality flags)\n", npath);
	rc = compare_finish(c, out, &cnt, complete, differ, bv, nv);
	json_object_put(b);
	json_object_put(n);
	return rc;
}
