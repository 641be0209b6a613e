// SPDX-License-Identifier: GPL-2.0
/* The verdict of a run, from structured data only.  See verdict.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "verdict.h"

int dlb_miss_limit_parse(const char *s, const char *what, struct dlb_miss_limit *lim,
			 struct dlb_err *err)
{
	char num[32];
	size_t len = strlen(s);
	long long v;

	lim->pct = len > 1 && s[len - 1] == '%';
	if (!strcmp(s, "-") || !strcmp(s, "-1")) {
		lim->n = -1;
		lim->pct = false;
		return 0;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(lim->pct ? len - 1 : len), s);
	if (len >= sizeof(num) || dlb_parse_ll(num, 0, lim->pct ? 100 : 1LL << 62, &v))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: '%s' is not N, N%% (0..100) or "
				   "-1 (no limit)", what, s);
	lim->n = v;
	return 0;
}

int dlb_expect_parse(const char *s, enum dlb_expect *out, struct dlb_err *err)
{
	if (!strcmp(s, "ok"))
		*out = DLB_EXPECT_OK;
	else if (!strcmp(s, "refused"))
		*out = DLB_EXPECT_REFUSED;
	else
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "--expect: '%s' is not ok or refused",
				   s);
	return 0;
}

bool dlb_verdict_watched(const char *watch, const char *name)
{
	const char *w = watch;
	size_t n;

	if (!w[0] || !strcmp(w, "*"))
		return true;
	while (*w) {
		n = strcspn(w, ",");
		/* the threads of a task are named after it: "t", "t-0", "t-1" */
		if (n && !strncmp(name, w, n) && (name[n] == '\0' || name[n] == '-'))
			return true;
		w += n;
		if (*w == ',')
			w++;
	}
	return false;
}

const char *dlb_verdict_result(int exit_code)
{
	switch (exit_code) {
	case DLB_EXIT_OK:
		return "PASS";
	case DLB_EXIT_REGRESSION:
		return "FAIL";
	case DLB_EXIT_INCOMPLETE:
		return "INCOMPLETE";
	default:
		return "ERROR";
	}
}

static struct dlb_verdict_check *add(struct dlb_verdict *v, const char *name, const char *result,
				     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static struct dlb_verdict_check *add(struct dlb_verdict *v, const char *name, const char *result,
				     const char *fmt, ...)
{
	struct dlb_verdict_check *c = &v->checks[v->nr_checks++];
	va_list ap;

	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->result, sizeof(c->result), "%s", result);
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

static bool interrupted(const struct dlb_verdict_opts *o, const struct dlb_verdict_input *in)
{
	/* 124..: timeout(1) and signals ended the run from outside */
	return o->run_exit == DLB_EXIT_INCOMPLETE || o->run_exit >= 124 ||
	       (in->have_summary && in->status == DLB_RUN_INCOMPLETE);
}

static const struct dlb_verdict_check *check_run(struct dlb_verdict *v,
						 const struct dlb_verdict_opts *o,
						 const struct dlb_verdict_input *in)
{
	if (o->run_exit < 0 && !in->have_summary)
		return NULL;
	if (in->have_summary && in->admission == DLB_ADMISSION_REFUSED && !interrupted(o, in))
		return add(v, "run", "skip", "refused by admission control before it started");
	if (interrupted(o, in))
		return o->run_exit > 0 ?
		       add(v, "run", "incomplete", "run incomplete (exit %d)", o->run_exit) :
		       add(v, "run", "incomplete", "run incomplete (summary.json: status %s)",
			   dlb_run_status_str(in->status));
	if (o->run_exit > 0)
		return add(v, "run", "error", "run failed (exit %d)", o->run_exit);
	if (in->have_summary && in->status == DLB_RUN_ERROR)
		return add(v, "run", "error", "run failed (summary.json: status error)");
	return add(v, "run", "pass", "run complete");
}

static const struct dlb_verdict_check *check_admission(struct dlb_verdict *v,
						       const struct dlb_verdict_opts *o,
						       const struct dlb_verdict_input *in)
{
	bool want_refused = o->expect == DLB_EXPECT_REFUSED;

	if (!in->have_summary || in->admission == DLB_ADMISSION_UNKNOWN)
		return want_refused ? add(v, "admission", "error", "%s: the admission outcome is "
					  "unknown", in->have_summary ? "summary.json says nothing" :
					  "no summary.json") : NULL;
	switch (in->admission) {
	case DLB_ADMISSION_REFUSED:
		if (want_refused)
			return add(v, "admission", "pass",
				   "refused by admission control, as predicted");
		return add(v, "admission", "error", "refused by admission control: %s",
			   in->admission_detail ? in->admission_detail : "");
	case DLB_ADMISSION_ADMITTED:
		if (want_refused)
			return add(v, "admission", "fail", "admitted a set over capacity");
		return add(v, "admission", "pass", "admitted");
	default:
		return add(v, "admission", "error", "the run ended before admission control "
			   "answered");
	}
}

static const struct dlb_verdict_check *check_quality(struct dlb_verdict *v,
						     const struct dlb_metrics *m,
						     const struct dlb_verdict_opts *o)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	int q, accepted = 0;

	for (q = 0; q < DLB_Q_NR; q++) {
		if (!r->quality[q].count || !dlb_quality_severity(q))
			continue;
		if (o->accepted & (1u << q)) {
			accepted++;
			continue;
		}
		return add(v, "data_quality", "incomplete", "incomplete data: %s (%s)",
			   dlb_quality_name(q), r->quality[q].detail);
	}
	return accepted ? add(v, "data_quality", "pass", "complete (%d flags accepted)", accepted) :
			  add(v, "data_quality", "pass", "complete");
}

static void limit_str(const struct dlb_miss_limit *l, char *buf, size_t size)
{
	if (l->n < 0)
		snprintf(buf, size, "any");
	else
		snprintf(buf, size, "%lld%s", l->n, l->pct ? "%" : "");
}

static const struct dlb_verdict_check *check_misses(struct dlb_verdict *v,
						    const struct dlb_metrics *m,
						    const struct dlb_verdict_opts *o)
{
	const struct dlb_miss_limit *l = &o->max_misses;
	unsigned long long jobs = 0, misses = 0, stalled = 0;
	bool over;
	char lim[32];
	size_t i;

	for (i = 0; i < dlb_metrics_nr_tasks(m); i++) {
		const struct dlb_task_metrics *t = dlb_metrics_task(m, i);

		if (!dlb_verdict_watched(o->watch, t->name))
			continue;
		jobs += t->jobs;
		misses += t->misses;
		stalled += t->stall_misses;
	}
	limit_str(l, lim, sizeof(lim));
	if (o->watch[0] && strcmp(o->watch, "*") && !jobs)
		return add(v, "misses", "fail", "no jobs of the watched tasks (%s)", o->watch);
	if (l->n < 0)
		over = false;
	else if (l->pct)
		over = (double)misses > (double)jobs * (double)l->n / 100.0;
	else
		over = misses > (unsigned long long)l->n;
	if (stalled && dlb_metrics_run(m)->stall_cpus_checked)	/* said, not excused: the run is what the machine gave it */
		return add(v, "misses", over ? "fail" : "pass", "%llu of %llu jobs missed "
			   "(allowed: %s), %llu of them late by no more than the CPU stalls they met "
			   "(the host's: report.txt \"# cpu stalls\")", misses, jobs, lim, stalled);
	return add(v, "misses", over ? "fail" : "pass", "%llu of %llu jobs missed (allowed: %s)",
		   misses, jobs, lim);
}

static void check_baseline(struct dlb_verdict *v, const struct dlb_verdict_input *in)
{
	const char *d = in->baseline_detail ? in->baseline_detail : "";

	if (in->baseline_exit < 0)
		return;
	if (in->baseline_exit == DLB_EXIT_OK)
		add(v, "baseline", "pass", "baseline: not worse");
	else if (in->baseline_exit == DLB_EXIT_REGRESSION)
		add(v, "baseline", "fail", "regression against the baseline: %s", d);
	else
		add(v, "baseline", "skip", "baseline not judged: compare exit %d%s%s",
		    in->baseline_exit, d[0] ? ": " : "", d);
}

/* "kernel finding on VERSION: CHECK: DETAIL" (docs/kernel-findings.md) */
static const struct dlb_verdict_check *check_kernel(struct dlb_verdict *v,
						    const struct dlb_verdict_input *in)
{
	const char *k = in->kernel_version && in->kernel_version[0] ? in->kernel_version : NULL;

	return add(v, in->kernel_check ? in->kernel_check : "kernel", "fail",
		   "kernel finding%s%s: %s: %s", k ? " on " : "", k ? k : "",
		   in->kernel_check ? in->kernel_check : "kernel", in->kernel_finding);
}

static const struct dlb_verdict_check *find(const struct dlb_verdict *v, const char *name)
{
	int i;

	for (i = 0; i < v->nr_checks; i++)
		if (!strcmp(v->checks[i].name, name))
			return &v->checks[i];
	return NULL;
}

static bool is(const struct dlb_verdict_check *c, const char *result)
{
	return c && !strcmp(c->result, result);
}

static void decide(struct dlb_verdict *v, int code, const char *reason)
{
	v->exit_code = code;
	snprintf(v->reason, sizeof(v->reason), "%s", reason);
}

/*
 * The order of precedence: a defect found in the kernel itself (a kernel
 * check of summary.json) fails the run whatever else it shows, as misses
 * do: nothing else in the run makes it up; then an interrupted run is
 * incomplete; a suite entry that expects a refusal is judged by admission
 * alone; then an unexpected refusal (the environment), a failed run,
 * incomplete data (numbers from a trace with holes cannot say there was no
 * miss, nor that there was one), misses over the limit, a regression
 * against the baseline.
 */
void dlb_verdict_make(const struct dlb_metrics *m, const struct dlb_verdict_opts *o,
		      const struct dlb_verdict_input *in, struct dlb_verdict *v)
{
	const struct dlb_verdict_check *run, *adm, *dq = NULL, *mis = NULL, *base, *kern;
	int fail_code;

	memset(v, 0, sizeof(*v));
	run = check_run(v, o, in);
	adm = check_admission(v, o, in);
	if (m && in->have_trace && o->expect == DLB_EXPECT_OK) {
		dq = check_quality(v, m, o);
		mis = check_misses(v, m, o);
	}
	kern = in->kernel_finding ? check_kernel(v, in) : NULL;
	check_baseline(v, in);
	base = find(v, "baseline");
	fail_code = o->run_exit > 0 ? o->run_exit : DLB_EXIT_ENV;

	if (kern)
		/* the kernel under test failed, as with misses; the data do not make it up */
		decide(v, DLB_EXIT_REGRESSION, kern->detail);
	else if (is(run, "incomplete"))
		decide(v, DLB_EXIT_INCOMPLETE, run->detail);
	else if (o->expect == DLB_EXPECT_REFUSED)
		decide(v, is(adm, "pass") ? DLB_EXIT_OK : is(adm, "fail") ? DLB_EXIT_REGRESSION :
		       fail_code, adm->detail);
	else if (is(adm, "error") && in->admission == DLB_ADMISSION_REFUSED)
		decide(v, DLB_EXIT_ENV, adm->detail);
	else if (is(run, "error"))
		decide(v, fail_code, run->detail);
	else if (!in->have_trace)
		decide(v, DLB_EXIT_BAD_INPUT, "no trace to judge");
	else if (is(dq, "incomplete"))
		decide(v, DLB_EXIT_INCOMPLETE, dq->detail);
	else if (is(mis, "fail"))
		decide(v, DLB_EXIT_REGRESSION, mis->detail);
	else if (is(base, "fail"))
		decide(v, DLB_EXIT_REGRESSION, base->detail);
	else if (mis)
		snprintf(v->reason, sizeof(v->reason), "%s%s%s", mis->detail,
			 base ? "; " : "", base ? base->detail : "");
	else
		decide(v, DLB_EXIT_OK, "ok");
	v->result = dlb_verdict_result(v->exit_code);
}
