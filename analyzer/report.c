// SPDX-License-Identifier: GPL-2.0
/* report.json, report.txt and jobs.csv from the metrics (report.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/exitcode.h"
#include "report.h"

void dlb_report_note(struct dlb_report_info *ri, const char *fmt, ...)
{
	va_list ap;

	if (ri->nr_notes >= DLB_REPORT_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(ri->notes[ri->nr_notes++], sizeof(ri->notes[0]), fmt, ap);
	va_end(ap);
}

void dlb_report_task_key(const struct dlb_metrics *m, size_t i, char *buf, size_t size)
{
	const struct dlb_task_metrics *t = dlb_metrics_task(m, i);
	size_t j, same = 1;

	if (!t->name[0]) {
		snprintf(buf, size, "tid %d", t->tid);
		return;
	}
	for (j = 0; j < i; j++)
		if (!strcmp(dlb_metrics_task(m, j)->name, t->name))
			same++;
	if (same == 1)
		snprintf(buf, size, "%s", t->name);
	else
		snprintf(buf, size, "%s#%zu", t->name, same);
}

/* Tasks worth a row: deadline tasks and tasks with jobs. */
static bool task_reported(const struct dlb_task_metrics *t)
{
	return t->is_dl || t->jobs;
}

static const char *dialect_str(enum dlb_marker_dialect d)
{
	switch (d) {
	case DLB_DIALECT_DLBENCH:	return "dlbench";
	case DLB_DIALECT_RTAPP10:	return "rt-app-1.0";
	case DLB_DIALECT_RTAPP:		return "rt-app";
	}
	return "unknown";
}

static const char *param_src_str(enum dlb_param_src s)
{
	switch (s) {
	case DLB_PARAM_NONE:	return "none";
	case DLB_PARAM_MARKER:	return "marker";
	case DLB_PARAM_GIVEN:	return "given";
	}
	return "unknown";
}

void dlb_report_auto_notes(struct dlb_report_info *ri, const struct dlb_metrics *m)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	size_t i;

	for (i = 0; i < dlb_metrics_nr_tasks(m); i++) {
		const struct dlb_task_metrics *t = dlb_metrics_task(m, i);

		if (!task_reported(t))
			continue;
		if (t->rel_inferred)
			dlb_report_note(ri, "task %s (tid %d): %s markers carry no release; %llu "
					"releases inferred as rt-app's timer sets them, deadline = "
					"release + D (D %s)",
					t->name, t->tid, dialect_str(t->dialect),
					(unsigned long long)t->rel_inferred,
					param_src_str(t->param_src));
		if (t->jobs && t->param_src == DLB_PARAM_NONE)
			dlb_report_note(ri, "task %s (tid %d): no DL parameters known: no overrun "
					"check%s", t->name, t->tid,
					t->jobs_no_dl ? ", no deadline" : "");
		if (dlb_stat_approx(&t->response))
			dlb_report_note(ri, "task %s (tid %d): percentiles from a histogram "
					"(within 1.6 %%) past %d jobs", t->name, t->tid,
					DLB_STAT_EXACT);
	}
	if (r->jobs_open_at_end)
		dlb_report_note(ri, "%llu jobs had begun and not ended when the trace stopped "
				"(not counted)", (unsigned long long)r->jobs_open_at_end);
	if (r->events && !r->job_markers)
		dlb_report_note(ri, "no job markers in the trace: no per-job metrics");
}

void dlb_report_verdict(const struct dlb_metrics *m, const struct dlb_report_info *ri,
			struct dlb_verdict *v)
{
	struct dlb_verdict_opts o = {
		.expect = ri->expect,
		.max_misses = { ri->max_misses, ri->max_misses_pct },
		.run_exit = ri->have_run_exit ? ri->run_exit : -1,
		.accepted = ri->accepted,
	};
	struct dlb_verdict_input in = {
		.have_summary = ri->have_summary,
		.status = ri->run_status,
		.admission = ri->admission,
		.admission_detail = ri->admission_detail,
		.have_trace = !ri->no_trace,
		.baseline_exit = ri->have_baseline ? ri->baseline_exit : -1,
		.baseline_detail = ri->baseline_detail,
		.kernel_check = ri->kernel_check,
		.kernel_finding = ri->kernel_finding,
		.kernel_version = ri->dlbw && ri->dlbw->kernel[0] ? ri->dlbw->kernel : ri->kernel,
	};

	snprintf(o.watch, sizeof(o.watch), "%s", ri->watch ? ri->watch : "");
	dlb_verdict_make(m, &o, &in, v);
}

/* ---- kernel checks (summary.json's dl_accounting) ---- */

static struct json_object *json_dlbw_cpus(const struct dlb_summary_dlbw *d)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < d->nr_cpus; i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "cpu", json_object_new_int(d->cpus[i].cpu));
		json_object_object_add(o, "total_bw_before", json_object_new_int64(d->cpus[i].before));
		json_object_object_add(o, "total_bw_after", json_object_new_int64(d->cpus[i].after));
		json_object_object_add(o, "total_bw_repaired",
				       json_object_new_int64(d->cpus[i].repaired));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_num_or_null(long long v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

/* a guest's accounting at boot, before the run (guest.txt); null: none */
static struct json_object *json_boot_dlbw(const struct dlb_boot_dlbw *b)
{
	struct json_object *o;

	if (!b)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(b->status));
	json_object_object_add(o, "detail", b->detail[0] ? json_object_new_string(b->detail) :
			       NULL);
	json_object_object_add(o, "total_bw_boot", json_num_or_null(b->total_bw));
	json_object_object_add(o, "fair_server_bw", json_num_or_null(b->fair_bw));
	json_object_object_add(o, "total_bw_repaired", json_num_or_null(b->repaired));
	return o;
}

/*
 * "kernel_checks": {"boot_dl_accounting": {...}, "dl_accounting": {...}},
 * every key present (null when not run).
 */
static struct json_object *json_kernel_checks(const struct dlb_report_info *ri)
{
	const struct dlb_summary_dlbw *d = ri->dlbw;
	struct json_object *o = json_object_new_object(), *c = json_object_new_object();
	bool have = d && d->status != DLB_DLBW_ABSENT;
	bool numbers = have && d->status != DLB_DLBW_NOT_CHECKED;

#define S(k, v)	json_object_object_add(c, k, have && (v)[0] ? json_object_new_string(v) : NULL)
#define N(k, v)	json_object_object_add(c, k, numbers ? json_object_new_uint64(v) : NULL)
	json_object_object_add(c, "status", json_object_new_string(
		dlb_dlbw_status_str(have ? d->status : DLB_DLBW_ABSENT)));
	S("detail", d->detail);
	S("kernel", d->kernel);
	S("teardown", d->teardown);
	N("fair_server_bw", d->fair_bw);
	S("fair_server_source", d->fair_source);
	N("other_dl_tasks_before", (u64)d->other_tasks_before);
	N("other_dl_bw_before", d->other_bw_before);
	N("other_dl_tasks_after", (u64)d->other_tasks_after);
	N("other_dl_bw_after", d->other_bw_after);
	N("release_wait_ns", d->release_wait_ns);
	N("settle_ns", d->settle_ns);
	S("repair", d->repair);
	json_object_object_add(c, "cpus", numbers ? json_dlbw_cpus(d) : NULL);
#undef S
#undef N
	json_object_object_add(o, "boot_dl_accounting", json_boot_dlbw(ri->boot_dlbw));
	json_object_object_add(o, "dl_accounting", c);
	return o;
}

/* ---- the scheduler's statistics (sched debug, /proc/schedstat snapshots) ---- */

/*
 * "kernel_stats": null without snapshots, else which pairs were read and per
 * CPU the dl_rq before and after (null without SCHED_DEBUG) and the growth of
 * the schedstat counters over the run (null without SCHEDSTATS).
 */
static struct json_object *json_kstats(const struct dlb_report_info *ri)
{
#define F(k, f)	{ k, offsetof(struct dlb_schedstat_cpu, f) }
	static const struct {
		const char *key;
		size_t off;
	} sf[] = {	/* the schedstat counters' growth, in report order */
		F("rq_cpu_time_ns", rq_cpu_time), F("run_delay_ns", run_delay),
		F("timeslices", pcount), F("sched_count", sched_count),
		F("sched_goidle", sched_goidle), F("ttwu_count", ttwu_count),
		F("ttwu_local", ttwu_local), F("yld_count", yld_count),
	};
#undef F
	const struct dlb_kstats *k = ri->kstats;
	struct json_object *o, *arr;
	size_t i;
	int c;

#define U(v)	json_object_new_uint64(v)
	if (!k)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "sched_debug", json_object_new_boolean(k->sched_debug));
	json_object_object_add(o, "schedstat", json_object_new_boolean(k->schedstat));
	json_object_object_add(o, "schedstat_version", k->schedstat ?
			       json_object_new_int(k->schedstat_version) : NULL);
	arr = json_object_new_array();
	for (c = 0; c < k->nr_cpus; c++) {
		const struct dlb_kstats_cpu *p = &k->cpus[c];
		struct json_object *x = json_object_new_object();
		bool nr = (p->before.has & p->after.has) & DLB_DLRQ_NR;
		bool bw = (p->before.has & p->after.has) & DLB_DLRQ_BW;

		json_object_object_add(x, "cpu", json_object_new_int(p->cpu));
		json_object_object_add(x, "dl_nr_running_before", nr ? U(p->before.dl_nr_running) : NULL);
		json_object_object_add(x, "dl_nr_running_after", nr ? U(p->after.dl_nr_running) : NULL);
		json_object_object_add(x, "dl_bw_before", bw ? U(p->before.bw) : NULL);
		json_object_object_add(x, "total_bw_before", bw ? U(p->before.total_bw) : NULL);
		json_object_object_add(x, "total_bw_after", bw ? U(p->after.total_bw) : NULL);
		for (i = 0; i < sizeof(sf) / sizeof(sf[0]); i++)
			json_object_object_add(x, sf[i].key, p->schedstat ?
				U(*(const u64 *)((const char *)&p->delta + sf[i].off)) : NULL);
		json_object_array_add(arr, x);
	}
#undef U
	json_object_object_add(o, "cpus", arr);
	return o;
}

/* "# kernel stats:" lines of report.txt, one per CPU with anything to say. */
static void txt_kstats(FILE *f, const struct dlb_report_info *ri)
{
	const struct dlb_kstats *k = ri->kstats;
	int c;

	for (c = 0; k && c < k->nr_cpus; c++) {
		const struct dlb_kstats_cpu *p = &k->cpus[c];
		bool nr = (p->before.has & p->after.has) & DLB_DLRQ_NR;

		if (!nr && !p->schedstat)
			continue;
		fprintf(f, "# kernel stats: cpu %d:", p->cpu);
		if (nr)
			fprintf(f, " dl_nr_running %llu -> %llu", (unsigned long long)p->before.dl_nr_running,
				(unsigned long long)p->after.dl_nr_running);
		if (p->schedstat)
			fprintf(f, "%s on-CPU %.1f ms, run delay %.1f ms, %llu timeslices, %llu wakeups"
				" (schedstat v%d)", nr ? ";" : "", (double)p->delta.rq_cpu_time / 1e6,
				(double)p->delta.run_delay / 1e6, (unsigned long long)p->delta.pcount,
				(unsigned long long)p->delta.ttwu_count, k->schedstat_version);
		fputc('\n', f);
	}
}

/* "# kernel check:" line(s) of report.txt. */
static void txt_kernel_checks(FILE *f, const struct dlb_report_info *ri)
{
	const struct dlb_summary_dlbw *d = ri->dlbw;
	const struct dlb_boot_dlbw *b = ri->boot_dlbw;

	/* a finding at boot is shown; the run's own check below judges the run */
	if (b)
		fprintf(f, "# kernel check: boot_dl_accounting %s%s%s (guest.txt, before the run)\n",
			!strcmp(b->status, "finding_repaired") ? "FINDING, repaired" :
			!strcmp(b->status, "finding") ? "FINDING, not repaired" : b->status,
			b->detail[0] ? ": " : "", b->detail);
	if (!d || d->status == DLB_DLBW_ABSENT)
		return;
	switch (d->status) {
	case DLB_DLBW_OK:
		fprintf(f, "# kernel check: dl_accounting ok: total_bw %lld before and after on "
			"every CPU (%s teardown, settled in %.1f ms)\n",
			d->nr_cpus ? (long long)d->cpus[0].before : 0LL, d->teardown,
			(double)d->settle_ns / 1e6);
		break;
	case DLB_DLBW_FINDING:
		fprintf(f, "# kernel check: dl_accounting FINDING (kernel %s, %s teardown): %s\n",
			d->kernel, d->teardown, d->detail);
		fprintf(f, "# kernel check: dl_accounting %s\n", d->repair[0] ? d->repair :
			"not repaired");
		break;
	default:
		fprintf(f, "# kernel check: dl_accounting NOT CHECKED: %s\n", d->detail);
		break;
	}
}

int dlb_report_exit(const struct dlb_metrics *m, const struct dlb_report_info *ri,
		    char *why, size_t size)
{
	struct dlb_verdict v;

	dlb_report_verdict(m, ri, &v);
	if (why)
		snprintf(why, size, "%s", v.reason);
	return v.exit_code;
}

/* ---- JSON ---- */

static void jadd(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *jstr(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static struct json_object *ju64(u64 v)
{
	return json_object_new_uint64(v);
}

static struct json_object *js64(s64 v)
{
	return json_object_new_int64(v);
}

static struct json_object *jstat(const struct dlb_stat *s)
{
	struct json_object *o = json_object_new_object();
	s64 v;

	jadd(o, "count", ju64(s->count));
	if (!s->count)
		return o;
	jadd(o, "min", js64(s->min));
	jadd(o, "p50", dlb_stat_pct(s, 50, &v) ? NULL : js64(v));
	jadd(o, "p99", dlb_stat_pct(s, 99, &v) ? NULL : js64(v));
	jadd(o, "max", js64(s->max));
	jadd(o, "mean", js64(dlb_stat_mean(s)));
	jadd(o, "approx", json_object_new_boolean(dlb_stat_approx(s)));
	return o;
}

/* Mean exec of migrated jobs minus that of the others: migration's cost in execution time. */
static bool task_inflation(const struct dlb_task_metrics *t, s64 *out)
{
	if (!t->exec_migrated.count || !t->exec_unmigrated.count)
		return false;
	*out = dlb_stat_mean(&t->exec_migrated) - dlb_stat_mean(&t->exec_unmigrated);
	return true;
}

/*
 * The jobs that met CPU stalls, the misses and overruns within them
 * (struct dlb_task_metrics); null when no CPU could be checked.
 */
static struct json_object *json_stalled(const struct dlb_run_metrics *r, u64 jobs, u64 misses,
					u64 overruns)
{
	struct json_object *o;

	if (!r->stall_cpus_checked)
		return NULL;
	o = json_object_new_object();
	jadd(o, "met", ju64(jobs));
	jadd(o, "misses_within", ju64(misses));
	jadd(o, "overruns_within", ju64(overruns));
	return o;
}

static struct json_object *json_task(const struct dlb_metrics *m, size_t i)
{
	const struct dlb_task_metrics *t = dlb_metrics_task(m, i);
	struct json_object *o = json_object_new_object(), *p, *ov;
	char key[DLB_NAME_MAX + 16];
	s64 infl;

	dlb_report_task_key(m, i, key, sizeof(key));
	jadd(o, "key", json_object_new_string(key));
	jadd(o, "tid", json_object_new_int(t->tid));
	jadd(o, "name", json_object_new_string(t->name));
	jadd(o, "deadline_task", json_object_new_boolean(t->is_dl));
	p = json_object_new_object();
	jadd(p, "source", json_object_new_string(param_src_str(t->param_src)));
	if (t->param_src != DLB_PARAM_NONE) {
		jadd(p, "runtime_ns", ju64(t->runtime));
		jadd(p, "deadline_ns", ju64(t->deadline));
		jadd(p, "period_ns", ju64(t->period));
	}
	jadd(o, "params", p);
	jadd(o, "marker_dialect", json_object_new_string(t->jobs ? dialect_str(t->dialect) : "none"));
	jadd(o, "jobs", ju64(t->jobs));
	jadd(o, "misses", ju64(t->misses));
	jadd(o, "jobs_without_deadline", ju64(t->jobs_no_dl));
	jadd(o, "releases_inferred", ju64(t->rel_inferred));
	jadd(o, "lateness_ns", jstat(&t->lateness));
	jadd(o, "response_ns", jstat(&t->response));
	jadd(o, "wakeup_latency_ns", jstat(&t->wakeup_lat));
	jadd(o, "exec_ns", jstat(&t->exec));
	ov = json_object_new_object();
	jadd(ov, "count", ju64(t->overruns));
	jadd(ov, "last_ns", ju64(t->overrun_last));
	jadd(ov, "max_ns", ju64(t->overrun_max));
	jadd(o, "overruns", ov);
	jadd(o, "throttles", ju64(t->throttles));
	jadd(o, "throttles_inferred", ju64(t->throttles_inferred));
	jadd(o, "migrations", ju64(t->migrations));
	jadd(o, "migrated_jobs", ju64(t->migrated_jobs));
	jadd(o, "migration_delay_ns", jstat(&t->mig_delay));
	jadd(o, "exec_migrated_ns", jstat(&t->exec_migrated));
	jadd(o, "exec_unmigrated_ns", jstat(&t->exec_unmigrated));
	jadd(o, "exec_inflation_ns", task_inflation(t, &infl) ? js64(infl) : NULL);
	jadd(o, "inversion_ns", ju64(t->inversion_ns));
	jadd(o, "cpu_stalls", json_stalled(dlb_metrics_run(m), t->stalled_jobs, t->stall_misses,
					   t->stall_overruns));
	jadd(o, "preemptions", ju64(t->preemptions));
	jadd(o, "context_switches", ju64(t->switches_in));
	jadd(o, "cpu_time_ns", ju64(t->cpu_time));
	jadd(o, "deadline_predictions", ju64(t->dl_predicted));
	jadd(o, "deadline_mispredictions", ju64(t->dl_mispredicted));
	return o;
}

static double frac(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static struct json_object *json_cpu(const struct dlb_cpu_metrics *c, int cpu)
{
	struct json_object *o = json_object_new_object();
	u64 known = c->dl_ns + c->other_ns + c->idle_ns;

	jadd(o, "cpu", json_object_new_int(cpu));
	jadd(o, "events", ju64(c->events));
	jadd(o, "dl_ns", ju64(c->dl_ns));
	jadd(o, "other_ns", ju64(c->other_ns));
	jadd(o, "idle_ns", ju64(c->idle_ns));
	jadd(o, "unknown_ns", ju64(c->unknown_ns));
	jadd(o, "dl_utilization", json_object_new_double(frac(c->dl_ns, known)));
	jadd(o, "idle_fraction", json_object_new_double(frac(c->idle_ns, known)));
	jadd(o, "context_switches", ju64(c->switches));
	jadd(o, "migrations_in", ju64(c->migrations_in));
	jadd(o, "migrations_out", ju64(c->migrations_out));
	/* stalls: null where the trace does not show the CPU's tick (not checked) */
	jadd(o, "tick_ns", c->tick_ns ? ju64(c->tick_ns) : NULL);
	jadd(o, "stalls", c->stalls_checked ? ju64(c->stalls) : NULL);
	jadd(o, "stall_ns", c->stalls_checked ? ju64(c->stall_ns) : NULL);
	jadd(o, "stall_max_ns", c->stalls_checked ? ju64(c->stall_max_ns) : NULL);
	return o;
}

/* The run's CPU stalls (docs/analyzer.md "CPU stalls"); null when no CPU could be checked. */
static struct json_object *json_stalls(const struct dlb_run_metrics *r)
{
	struct json_object *o, *x;

	if (!r->stall_cpus_checked)
		return NULL;
	o = json_object_new_object();
	jadd(o, "cpus_checked", json_object_new_int(r->stall_cpus_checked));
	jadd(o, "count", ju64(r->stalls));
	jadd(o, "ns", ju64(r->stall_ns));
	jadd(o, "jobs", json_stalled(r, r->stalled_jobs, r->stall_misses, r->stall_overruns));
	if (r->stalls) {
		x = json_object_new_object();
		jadd(x, "cpu", json_object_new_int(r->stall_max_cpu));
		jadd(x, "from_ns", ju64(r->stall_max.from));
		jadd(x, "ns", ju64(r->stall_max.to - r->stall_max.from));
		jadd(x, "pid", json_object_new_int(r->stall_max.pid));
		jadd(o, "longest", x);
	} else {
		jadd(o, "longest", NULL);
	}
	return o;
}

static struct json_object *json_run(const struct dlb_run_metrics *r)
{
	struct json_object *o = json_object_new_object();

	jadd(o, "first_ts_ns", ju64(r->first_ts));
	jadd(o, "last_ts_ns", ju64(r->last_ts));
	jadd(o, "duration_ns", ju64(r->last_ts - r->first_ts));
	jadd(o, "events", ju64(r->events));
	jadd(o, "context_switches", ju64(r->switches));
	jadd(o, "wakeups", ju64(r->wakeups));
	jadd(o, "migrations", ju64(r->migrations));
	jadd(o, "markers", ju64(r->markers));
	jadd(o, "job_markers", ju64(r->job_markers));
	jadd(o, "implicit_switches", ju64(r->implicit_switches));
	jadd(o, "jobs", ju64(r->jobs));
	jadd(o, "misses", ju64(r->misses));
	jadd(o, "jobs_open_at_end", ju64(r->jobs_open_at_end));
	jadd(o, "inversion_ns", ju64(r->inversion_ns));
	jadd(o, "inversion_sum_ns", ju64(r->inversion_sum_ns));
	jadd(o, "run_start_marker", json_object_new_boolean(r->run_start_seen));
	jadd(o, "run_end_marker", json_object_new_boolean(r->run_end_seen));
	jadd(o, "cpu_stalls", json_stalls(r));
	return o;
}

static struct json_object *json_quality(const struct dlb_metrics *m,
					const struct dlb_report_info *ri)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	struct json_object *o = json_object_new_object(), *flags = json_object_new_array();
	bool complete = true;
	int q;

	for (q = 0; q < DLB_Q_NR; q++) {
		struct json_object *f;
		bool accepted = ri->accepted & (1u << q);

		if (!r->quality[q].count)
			continue;
		if (dlb_quality_severity(q) && !accepted)
			complete = false;
		f = json_object_new_object();
		jadd(f, "name", json_object_new_string(dlb_quality_name(q)));
		jadd(f, "count", ju64(r->quality[q].count));
		jadd(f, "meaning", json_object_new_string(dlb_quality_text(q)));
		jadd(f, "detail", json_object_new_string(r->quality[q].detail));
		jadd(f, "severity", json_object_new_string(dlb_quality_severity(q) ? "incomplete"
										  : "warning"));
		jadd(f, "accepted", json_object_new_boolean(accepted));
		json_object_array_add(flags, f);
	}
	jadd(o, "complete", json_object_new_boolean(complete));
	jadd(o, "flags", flags);
	return o;
}

static struct json_object *json_env(const struct dlb_metrics *m, const struct dlb_report_info *ri)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	struct json_object *o = json_object_new_object();

	jadd(o, "kernel", jstr(ri->kernel));
	jadd(o, "arch", jstr(ri->arch));
	jadd(o, "image", jstr(ri->image));
	jadd(o, "image_sha256", jstr(ri->image_sha256));
	jadd(o, "cpus", json_object_new_int(ri->cpus ? ri->cpus : dlb_metrics_nr_cpus(m)));
	jadd(o, "clock", jstr(ri->clock ? ri->clock : r->clock));
	jadd(o, "backend", jstr(ri->backend ? ri->backend : r->backend));
	jadd(o, "workload", jstr(ri->workload ? ri->workload : r->workload));
	jadd(o, "tool", json_object_new_string("dlb-analyze"));
	jadd(o, "tool_version", json_object_new_string(DLB_VERSION));
	jadd(o, "command_line", jstr(ri->cmdline));
	jadd(o, "input", jstr(ri->input));
	jadd(o, "trace_format", jstr(ri->format));
	return o;
}

static struct json_object *json_ops(const struct dlb_report_info *ri)
{
	struct json_object *arr = json_object_new_array();
	int i;

	for (i = 0; i < ri->nr_ops; i++) {
		const struct dlb_report_op *op = &ri->ops[i];
		struct json_object *o = json_object_new_object();

		jadd(o, "op", json_object_new_string(op->op));
		jadd(o, "cpu_select", json_object_new_string(op->cpu_select));
		jadd(o, "cpus", json_object_new_int(op->cpus));
		jadd(o, "calls", ju64(op->calls));
		jadd(o, "done", ju64(op->done));
		jadd(o, "unit", json_object_new_string(op->unit));
		jadd(o, "min", ju64(op->min));
		jadd(o, "p50", ju64(op->p50));
		jadd(o, "p99", ju64(op->p99));
		jadd(o, "max", ju64(op->max));
		jadd(o, "mean", json_object_new_double(op->mean));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The one verdict: what run.sh, nightly, JUnit/TAP and compare read. */
static struct json_object *json_verdict(const struct dlb_metrics *m,
					const struct dlb_report_info *ri)
{
	struct json_object *v = json_object_new_object(), *arr = json_object_new_array(), *c;
	struct dlb_verdict vd;
	char lim[32];
	int i;

	dlb_report_verdict(m, ri, &vd);
	snprintf(lim, sizeof(lim), "%lld%s", ri->max_misses, ri->max_misses_pct ? "%" : "");
	jadd(v, "result", json_object_new_string(vd.result));
	jadd(v, "exit_code", json_object_new_int(vd.exit_code));
	jadd(v, "reason", json_object_new_string(vd.reason));
	jadd(v, "expect", json_object_new_string(ri->expect == DLB_EXPECT_REFUSED ? "refused" :
						  "ok"));
	jadd(v, "max_misses", ri->max_misses >= 0 ? json_object_new_string(lim) : NULL);
	jadd(v, "watch", json_object_new_string(ri->watch && ri->watch[0] ? ri->watch : "*"));
	for (i = 0; i < vd.nr_checks; i++) {
		c = json_object_new_object();
		jadd(c, "name", json_object_new_string(vd.checks[i].name));
		jadd(c, "result", json_object_new_string(vd.checks[i].result));
		jadd(c, "detail", json_object_new_string(vd.checks[i].detail));
		json_object_array_add(arr, c);
	}
	jadd(v, "checks", arr);
	/* the kernel checks that found a defect in the kernel itself (kernel_checks) */
	arr = json_object_new_array();
	if (ri->kernel_finding)
		json_object_array_add(arr, json_object_new_string(ri->kernel_check ?
								  ri->kernel_check : "kernel"));
	jadd(v, "findings", arr);
	return v;
}

int dlb_report_json(FILE *f, const struct dlb_metrics *m, const struct dlb_report_info *ri,
		    struct dlb_err *err)
{
	struct json_object *root = json_object_new_object(), *arr;
	size_t i;
	int c, rc = 0;

	jadd(root, "report_version", json_object_new_int(DLB_REPORT_VERSION));
	jadd(root, "environment", json_env(m, ri));
	jadd(root, "run", json_run(dlb_metrics_run(m)));
	arr = json_object_new_array();
	for (i = 0; i < dlb_metrics_nr_tasks(m); i++)
		if (task_reported(dlb_metrics_task(m, i)))
			json_object_array_add(arr, json_task(m, i));
	jadd(root, "tasks", arr);
	arr = json_object_new_array();
	for (c = 0; c < dlb_metrics_nr_cpus(m); c++)
		json_object_array_add(arr, json_cpu(dlb_metrics_cpu(m, c), c));
	jadd(root, "cpus", arr);
	jadd(root, "decision_cost", json_ops(ri));
	jadd(root, "quality", json_quality(m, ri));
	arr = json_object_new_array();
	for (c = 0; c < ri->nr_notes; c++)
		json_object_array_add(arr, json_object_new_string(ri->notes[c]));
	jadd(root, "notes", arr);
	jadd(root, "kernel_checks", json_kernel_checks(ri));
	jadd(root, "kernel_stats", json_kstats(ri));
	jadd(root, "conformance", ri->conform ? dlb_conform_json(ri->conform) : NULL);
	/* what admission control did, whatever was expected (compare reads it) */
	jadd(root, "admission", ri->have_summary ?
	     json_object_new_string(dlb_admission_str(ri->admission)) : NULL);
	jadd(root, "verdict", json_verdict(m, ri));
	if (fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		rc = dlb_err_set(err, DLB_EXIT_ENV, "cannot write the json report");
	json_object_put(root);
	return rc;
}

/* ---- text ---- */

/* ns as µs with one decimal, right-aligned in @w columns; "-" when unknown. */
static void put_us(FILE *f, int w, bool known, s64 ns)
{
	if (!known) {
		fprintf(f, " %*s", w, "-");
		return;
	}
	fprintf(f, " %*.1f", w, (double)ns / 1000.0);
}

static void put_pct(FILE *f, int w, const struct dlb_stat *s, double p)
{
	s64 v = 0;
	bool known = dlb_stat_pct(s, p, &v) == 0;

	put_us(f, w, known, v);
}

static void txt_header(FILE *f, const struct dlb_metrics *m, const struct dlb_report_info *ri)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	const char *unk = "unknown";
	struct dlb_verdict v;
	int i;

	fprintf(f, "# dlb-analyze %s report (version %d)\n", DLB_VERSION, DLB_REPORT_VERSION);
	fprintf(f, "# input: %s (%s)\n", ri->input ? ri->input : unk, ri->format ? ri->format : unk);
	fprintf(f, "# kernel: %s  arch: %s  cpus: %d  clock: %s  backend: %s  workload: %s\n",
		ri->kernel ? ri->kernel : unk, ri->arch ? ri->arch : unk,
		ri->cpus ? ri->cpus : dlb_metrics_nr_cpus(m),
		ri->clock ? ri->clock : r->clock[0] ? r->clock : unk,
		ri->backend ? ri->backend : r->backend[0] ? r->backend : unk,
		ri->workload ? ri->workload : r->workload[0] ? r->workload : unk);
	if (ri->image)
		fprintf(f, "# image: %s  sha256: %s\n", ri->image,
			ri->image_sha256 ? ri->image_sha256 : unk);
	if (ri->cmdline)
		fprintf(f, "# command: %s\n", ri->cmdline);
	fprintf(f, "# duration %.6f s, %llu events, %llu jobs, %llu misses, inversion %.1f us\n",
		(double)(r->last_ts - r->first_ts) / 1e9, (unsigned long long)r->events,
		(unsigned long long)r->jobs, (unsigned long long)r->misses,
		(double)r->inversion_ns / 1000.0);
	dlb_report_verdict(m, ri, &v);
	fprintf(f, "# verdict: %s\n", v.reason);
	for (i = 0; i < v.nr_checks; i++)
		fprintf(f, "# check %s: %s: %s\n", v.checks[i].name, v.checks[i].result,
			v.checks[i].detail);
	fprintf(f, "# times in us; lateness = end - deadline; response = end - release\n");
}

/* Misses, or "-" when none of the task's jobs had a deadline to miss (not judged). */
static void put_misses(FILE *f, const struct dlb_task_metrics *t)
{
	if (t->jobs && t->jobs_no_dl == t->jobs)
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6llu", (unsigned long long)t->misses);
}

static void txt_tasks(FILE *f, const struct dlb_metrics *m)
{
	size_t i;

	fprintf(f, "%-16s %7s %7s %6s %11s %11s %11s %11s %7s %6s %11s %11s\n", "task", "tid",
		"jobs", "misses", "late_max", "resp_p50", "resp_p99", "resp_max", "overrun",
		"migr", "migdly_p99", "inversion");
	for (i = 0; i < dlb_metrics_nr_tasks(m); i++) {
		const struct dlb_task_metrics *t = dlb_metrics_task(m, i);
		char key[DLB_NAME_MAX + 16];

		if (!task_reported(t))
			continue;
		dlb_report_task_key(m, i, key, sizeof(key));
		fprintf(f, "%-16.16s %7d %7llu", key, t->tid, (unsigned long long)t->jobs);
		put_misses(f, t);
		put_us(f, 11, t->lateness.count > 0, t->lateness.max);
		put_pct(f, 11, &t->response, 50);
		put_pct(f, 11, &t->response, 99);
		put_us(f, 11, t->response.count > 0, t->response.max);
		fprintf(f, " %7llu %6llu", (unsigned long long)t->overruns,
			(unsigned long long)t->migrations);
		put_pct(f, 11, &t->mig_delay, 99);
		put_us(f, 11, true, (s64)t->inversion_ns);
		fputc('\n', f);
	}
}

static void txt_cpus(FILE *f, const struct dlb_metrics *m)
{
	int c;

	fprintf(f, "\n%-6s %8s %8s %8s %11s %9s %7s %7s\n", "cpu", "dl_util", "idle", "other",
		"unknown_us", "switches", "mig_in", "mig_out");
	for (c = 0; c < dlb_metrics_nr_cpus(m); c++) {
		const struct dlb_cpu_metrics *p = dlb_metrics_cpu(m, c);
		u64 known = p->dl_ns + p->other_ns + p->idle_ns;

		fprintf(f, "%-6d %7.1f%% %7.1f%% %7.1f%%", c, 100.0 * frac(p->dl_ns, known),
			100.0 * frac(p->idle_ns, known), 100.0 * frac(p->other_ns, known));
		put_us(f, 11, true, (s64)p->unknown_ns);
		fprintf(f, " %9llu %7llu %7llu\n", (unsigned long long)p->switches,
			(unsigned long long)p->migrations_in, (unsigned long long)p->migrations_out);
	}
}

static void txt_ops(FILE *f, const struct dlb_report_info *ri)
{
	int i;

	if (!ri->nr_ops)
		return;
	fprintf(f, "\n%-8s %-10s %9s %9s %-7s %9s %9s %9s\n", "decision", "cpu_select", "calls",
		"done", "unit", "p50", "p99", "max");
	for (i = 0; i < ri->nr_ops; i++) {
		const struct dlb_report_op *op = &ri->ops[i];

		fprintf(f, "%-8s %-10s %9llu %9llu %-7s %9llu %9llu %9llu\n", op->op,
			op->cpu_select, op->calls, op->done, op->unit, op->p50, op->p99, op->max);
	}
}

int dlb_report_txt(FILE *f, const struct dlb_metrics *m, const struct dlb_report_info *ri)
{
	const struct dlb_run_metrics *r = dlb_metrics_run(m);
	bool any = false;
	int q;

	txt_header(f, m, ri);
	txt_tasks(f, m);
	txt_cpus(f, m);
	txt_ops(f, ri);
	fputc('\n', f);
	for (q = 0; q < DLB_Q_NR; q++) {
		if (!r->quality[q].count)
			continue;
		any = true;
		fprintf(f, "# data quality: %s%s: %s x%llu: %s (%s)\n",
			dlb_quality_severity(q) ? "INCOMPLETE" : "warning",
			(ri->accepted & (1u << q)) ? " (accepted)" : "", dlb_quality_name(q),
			(unsigned long long)r->quality[q].count, dlb_quality_text(q),
			r->quality[q].detail);
	}
	if (!any)
		fprintf(f, "# data quality: complete\n");
	if (r->stalls)
		fprintf(f, "# cpu stalls: %llu, %.3f ms in all (CPUs checked: %d): a CPU running "
			"a task recorded nothing, not even its tick, for 1.5 ticks or more (the host "
			"did not run it, or its interrupts were off); longest: CPU %d, %.3f ms from "
			"%llu ns, pid %d running; %llu jobs met one, %llu misses and %llu overruns "
			"were within the stalls their jobs met\n",
			(unsigned long long)r->stalls, (double)r->stall_ns / 1e6, r->stall_cpus_checked,
			r->stall_max_cpu, (double)(r->stall_max.to - r->stall_max.from) / 1e6,
			(unsigned long long)r->stall_max.from, r->stall_max.pid,
			(unsigned long long)r->stalled_jobs, (unsigned long long)r->stall_misses,
			(unsigned long long)r->stall_overruns);
	txt_kernel_checks(f, ri);
	txt_kstats(f, ri);
	if (ri->conform)
		dlb_conform_txt(f, ri->conform);
	for (q = 0; q < ri->nr_notes; q++)
		fprintf(f, "# note: %s\n", ri->notes[q]);
	return ferror(f) ? -1 : 0;
}

/* ---- jobs.csv ---- */

void dlb_jobs_csv_header(FILE *f)
{
	fputs("tid,name,job,release_ns,begin_ns,end_ns,deadline_ns,release_source,lateness_ns,"
	      "response_ns,wakeup_latency_ns,exec_ns,miss,overrun_ns,migrations,preemptions,"
	      "cpu_begin,cpu_end,stall_ns\n", f);
}

void dlb_stalls_csv(FILE *f, const struct dlb_metrics *m)
{
	const struct dlb_stall *s;
	int cpu;
	size_t i, n;

	fputs("cpu,from_ns,to_ns,pid\n", f);
	for (cpu = 0; cpu < dlb_metrics_nr_cpus(m); cpu++) {
		s = dlb_metrics_stalls(m, cpu, &n);
		for (i = 0; i < n; i++)
			fprintf(f, "%d,%llu,%llu,%d\n", cpu, (unsigned long long)s[i].from,
				(unsigned long long)s[i].to, s[i].pid);
	}
}

/* A name is quoted when it holds a comma, a quote or a newline (RFC 4180). */
void dlb_csv_str(FILE *f, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void dlb_jobs_csv_row(FILE *f, const struct dlb_job *j)
{
	fprintf(f, "%d,", j->tid);
	dlb_csv_str(f, j->name ? j->name : "");
	fprintf(f, ",%llu,%llu,%llu,%llu,", (unsigned long long)j->job,
		(unsigned long long)j->rel, (unsigned long long)j->begin,
		(unsigned long long)j->end);
	if (j->dl_known)
		fprintf(f, "%llu", (unsigned long long)j->dl);
	fprintf(f, ",%s,", dlb_rel_src_str(j->rel_src));
	if (j->dl_known)
		fprintf(f, "%lld", (long long)j->lateness);
	fprintf(f, ",%llu,%llu,", (unsigned long long)j->response,
		(unsigned long long)j->wakeup_lat);
	if (j->exec_known)
		fprintf(f, "%llu", (unsigned long long)j->exec);
	fprintf(f, ",%s,", !j->dl_known ? "" : j->miss ? "1" : "0");
	if (j->overrun)
		fprintf(f, "%llu", (unsigned long long)j->overrun_ns);
	fprintf(f, ",%u,%u,%d,%d,", j->migrations, j->preemptions, j->cpu_begin, j->cpu_end);
	if (j->stall_known)
		fprintf(f, "%llu", (unsigned long long)j->stall_ns);
	fputc('\n', f);
}
