// SPDX-License-Identifier: GPL-2.0
/* summary.json: writer and reader (json-c).  See summary.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "dlbench/dlparam.h"
#include "dlbench/exitcode.h"
#include "dlbench/summary.h"

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static void add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

static void add_u64(json_object *o, const char *key, u64 v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static const char *const admission_names[] = {
	[DLB_ADMISSION_UNKNOWN] = "unknown",
	[DLB_ADMISSION_NOT_REACHED] = "not_reached",
	[DLB_ADMISSION_ADMITTED] = "admitted",
	[DLB_ADMISSION_REFUSED] = "refused",
};

const char *dlb_admission_str(enum dlb_admission a)
{
	return (unsigned int)a < sizeof(admission_names) / sizeof(admission_names[0]) ?
	       admission_names[a] : "unknown";
}

static json_object *thread_to_json(const struct dlb_summary_thread *t)
{
	json_object *o = json_object_new_object();

	add_str(o, "name", t->name);
	add_int(o, "instance", t->instance);
	add_int(o, "index", t->index);
	add_int(o, "tid", t->tid);
	add_int(o, "policy", t->policy);
	add_int(o, "priority", t->priority);
	add_u64(o, "runtime_ns", t->runtime);
	add_u64(o, "deadline_ns", t->deadline);
	add_u64(o, "period_ns", t->period);
	if (t->dl_flags) {
		json_object *fl = json_object_new_array();
		u64 f;

		for (f = 1; f; f <<= 1)
			if ((t->dl_flags & f) && dl_flag_name(f))
				json_object_array_add(fl, json_object_new_string(dl_flag_name(f)));
		json_object_object_add(o, "dl_flags", fl);
	}
	add_u64(o, "jobs", t->jobs);
	add_u64(o, "misses", t->misses);
	add_int(o, "max_lateness_ns", t->max_lateness);
	add_str(o, "log", t->log);
	add_str(o, "sched", t->sched);
	return o;
}

static const char *const dlbw_status_names[] = {
	[DLB_DLBW_ABSENT] = "absent",
	[DLB_DLBW_OK] = "ok",
	[DLB_DLBW_FINDING] = "finding",
	[DLB_DLBW_NOT_CHECKED] = "not_checked",
};

const char *dlb_dlbw_status_str(enum dlb_dlbw_status st)
{
	return st <= DLB_DLBW_NOT_CHECKED ? dlbw_status_names[st] : "unknown";
}

static json_object *dlbw_to_json(const struct dlb_summary_dlbw *d)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	size_t i;

	add_str(o, "status", dlb_dlbw_status_str(d->status));
	add_str(o, "detail", d->detail);
	add_str(o, "kernel", d->kernel);
	add_str(o, "teardown", d->teardown);
	add_u64(o, "fair_server_bw", d->fair_bw);
	add_str(o, "fair_server_source", d->fair_source);
	add_int(o, "other_dl_tasks_before", d->other_tasks_before);
	add_u64(o, "other_dl_bw_before", d->other_bw_before);
	add_int(o, "other_dl_tasks_after", d->other_tasks_after);
	add_u64(o, "other_dl_bw_after", d->other_bw_after);
	add_u64(o, "release_wait_ns", d->release_wait_ns);
	add_u64(o, "settle_ns", d->settle_ns);
	add_str(o, "repair", d->repair);
	for (i = 0; i < d->nr_cpus; i++) {
		json_object *c = json_object_new_object();

		add_int(c, "cpu", d->cpus[i].cpu);
		add_int(c, "total_bw_before", d->cpus[i].before);
		add_int(c, "total_bw_after", d->cpus[i].after);
		add_int(c, "total_bw_repaired", d->cpus[i].repaired);
		json_object_array_add(arr, c);
	}
	json_object_object_add(o, "cpus", arr);
	return o;
}

int dlb_summary_write(const char *path, const struct dlb_summary *s, struct dlb_err *err)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array(), *adm;
	const char *text;
	char tmp[4104];
	size_t i;
	FILE *f;
	int rc = 0;

	add_int(root, "version", DLB_SUMMARY_VERSION);
	add_str(root, "tool_version", s->version);
	add_str(root, "backend", s->backend);
	add_str(root, "clock", s->clock);
	if (s->model[0])
		add_str(root, "model", s->model);
	add_str(root, "workload", s->workload);
	add_int(root, "cpus", s->cpus);
	json_object_object_add(root, "calibration_ns_per_loop",
			       json_object_new_double(s->calibration_ns));
	add_u64(root, "start_ns", s->start_ns);
	add_u64(root, "end_ns", s->end_ns);
	add_u64(root, "duration_ns", s->duration_ns);
	add_str(root, "duration_source", s->duration_source);
	add_str(root, "status", dlb_run_status_str(s->status));
	adm = json_object_new_object();
	add_str(adm, "outcome", dlb_admission_str(s->admission));
	add_str(adm, "detail", s->admission_detail);
	json_object_object_add(root, "admission", adm);
	add_str(root, "cmdline", s->cmdline);
	for (i = 0; i < s->nr_threads; i++)
		json_object_array_add(arr, thread_to_json(&s->threads[i]));
	json_object_object_add(root, "threads", arr);
	if (s->dlbw.status != DLB_DLBW_ABSENT)
		json_object_object_add(root, "dl_accounting", dlbw_to_json(&s->dlbw));

	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE |
					      JSON_C_TO_STRING_SPACED);
	/*
	 * Written to PATH.tmp then renamed: on a full file system the summary
	 * is either whole or absent, never a truncated file a farm would parse.
	 */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s\n", text) < 0)
		rc = dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, strerror(errno));
	if (f && fclose(f) && !rc)
		rc = dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, strerror(errno));
	if (!rc && rename(tmp, path))
		rc = dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	json_object_put(root);
	return rc;
}

/* Reading: every key is required; a wrong type names the key. */
struct rd {
	const char *path;
	const char *where;	/* "" or "threads[3]." */
	struct dlb_err *err;
};

static json_object *get(struct rd *rd, json_object *o, const char *key, json_type type)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: %s%s: missing", rd->path,
				   rd->where, key), NULL;
	if (!json_object_is_type(v, type) &&
	    !(type == json_type_double && json_object_is_type(v, json_type_int)))
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: %s%s: expected %s",
				   rd->path, rd->where, key, json_type_to_name(type)), NULL;
	return v;
}

static int get_str(struct rd *rd, json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v = get(rd, o, key, json_type_string);

	if (!v)
		return -1;
	snprintf(dst, size, "%s", json_object_get_string(v));
	return 0;
}

static int get_i64(struct rd *rd, json_object *o, const char *key, int64_t *dst)
{
	json_object *v = get(rd, o, key, json_type_int);

	if (!v)
		return -1;
	*dst = json_object_get_int64(v);
	return 0;
}

static int get_u64(struct rd *rd, json_object *o, const char *key, u64 *dst)
{
	json_object *v = get(rd, o, key, json_type_int);

	if (!v)
		return -1;
	*dst = json_object_get_uint64(v);
	return 0;
}

/* "dl_flags" is optional: the names of the sched_flags set (none: absent) */
static int dl_flags_from_json(struct rd *rd, json_object *o, u64 *flags)
{
	json_object *arr;
	size_t i, n;

	*flags = 0;
	if (!json_object_object_get_ex(o, "dl_flags", &arr))
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: %sdl_flags: expected array",
				   rd->path, rd->where);
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(arr, i));
		u64 f = name ? dl_flag_parse(name) : 0;

		if (!f)
			return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: %sdl_flags[%zu]: "
					   "not a flag name (known: %s)", rd->path, rd->where, i,
					   dl_flag_names());
		*flags |= f;
	}
	return 0;
}

static int thread_from_json(struct rd *rd, json_object *o, struct dlb_summary_thread *t)
{
	int64_t inst, idx, tid, pol, prio, late;

	if (get_str(rd, o, "name", t->name, sizeof(t->name)) ||
	    get_i64(rd, o, "instance", &inst) || get_i64(rd, o, "index", &idx) ||
	    get_i64(rd, o, "tid", &tid) || get_i64(rd, o, "policy", &pol) ||
	    get_i64(rd, o, "priority", &prio) ||
	    get_u64(rd, o, "runtime_ns", &t->runtime) ||
	    get_u64(rd, o, "deadline_ns", &t->deadline) ||
	    get_u64(rd, o, "period_ns", &t->period) || get_u64(rd, o, "jobs", &t->jobs) ||
	    get_u64(rd, o, "misses", &t->misses) ||
	    get_i64(rd, o, "max_lateness_ns", &late) ||
	    get_str(rd, o, "log", t->log, sizeof(t->log)) ||
	    get_str(rd, o, "sched", t->sched, sizeof(t->sched)))
		return -1;
	if (dl_flags_from_json(rd, o, &t->dl_flags))
		return -1;
	t->instance = (int)inst;
	t->index = (int)idx;
	t->tid = (int)tid;
	t->policy = (int)pol;
	t->priority = (int)prio;
	t->max_lateness = late;
	return 0;
}

static int status_from_str(struct rd *rd, const char *str, enum dlb_run_status *st)
{
	enum dlb_run_status i;

	for (i = DLB_RUN_COMPLETE; i <= DLB_RUN_ERROR; i++) {
		if (!strcmp(str, dlb_run_status_str(i))) {
			*st = i;
			return 0;
		}
	}
	return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT,
			   "%s: status: '%s' is not complete, incomplete or error", rd->path, str);
}

/* "admission" is optional: summaries written before it existed say nothing (unknown) */
static int admission_from_json(struct rd *rd, json_object *root, struct dlb_summary *s)
{
	char outcome[32];
	json_object *adm;
	int a;

	s->admission = DLB_ADMISSION_UNKNOWN;
	if (!json_object_object_get_ex(root, "admission", &adm))
		return 0;
	if (!json_object_is_type(adm, json_type_object))
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: admission: expected object",
				   rd->path);
	rd->where = "admission.";
	if (get_str(rd, adm, "outcome", outcome, sizeof(outcome)) ||
	    get_str(rd, adm, "detail", s->admission_detail, sizeof(s->admission_detail)))
		return -1;
	rd->where = "";
	for (a = DLB_ADMISSION_NOT_REACHED; a <= DLB_ADMISSION_REFUSED; a++) {
		if (!strcmp(outcome, dlb_admission_str(a))) {
			s->admission = a;
			return 0;
		}
	}
	return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: admission.outcome: '%s' is not "
			   "admitted, refused or not_reached", rd->path, outcome);
}

static int dlbw_cpu_from_json(struct rd *rd, json_object *o, struct dlb_dlbw_cpu *c)
{
	int64_t cpu;

	if (get_i64(rd, o, "cpu", &cpu) || get_i64(rd, o, "total_bw_before", &c->before) ||
	    get_i64(rd, o, "total_bw_after", &c->after) ||
	    get_i64(rd, o, "total_bw_repaired", &c->repaired))
		return -1;
	c->cpu = (int)cpu;
	return 0;
}

/* "dl_accounting": optional; when present every key is required. */
static int dlbw_from_json(struct rd *rd, json_object *root, struct dlb_summary_dlbw *d)
{
	char status[32], where[64];
	int64_t tb, ta;
	json_object *o, *arr;
	size_t i;

	if (!json_object_object_get_ex(root, "dl_accounting", &o))
		return 0;
	rd->where = "dl_accounting.";
	if (!json_object_is_type(o, json_type_object))
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: dl_accounting: expected "
				   "object", rd->path);
	if (get_str(rd, o, "status", status, sizeof(status)) ||
	    get_str(rd, o, "detail", d->detail, sizeof(d->detail)) ||
	    get_str(rd, o, "kernel", d->kernel, sizeof(d->kernel)) ||
	    get_str(rd, o, "teardown", d->teardown, sizeof(d->teardown)) ||
	    get_u64(rd, o, "fair_server_bw", &d->fair_bw) ||
	    get_str(rd, o, "fair_server_source", d->fair_source, sizeof(d->fair_source)) ||
	    get_i64(rd, o, "other_dl_tasks_before", &tb) ||
	    get_u64(rd, o, "other_dl_bw_before", &d->other_bw_before) ||
	    get_i64(rd, o, "other_dl_tasks_after", &ta) ||
	    get_u64(rd, o, "other_dl_bw_after", &d->other_bw_after) ||
	    get_u64(rd, o, "release_wait_ns", &d->release_wait_ns) ||
	    get_u64(rd, o, "settle_ns", &d->settle_ns) ||
	    get_str(rd, o, "repair", d->repair, sizeof(d->repair)) ||
	    !(arr = get(rd, o, "cpus", json_type_array)))
		return -1;
	d->other_tasks_before = (int)tb;
	d->other_tasks_after = (int)ta;
	for (d->status = DLB_DLBW_OK; d->status <= DLB_DLBW_NOT_CHECKED; d->status++)
		if (!strcmp(status, dlb_dlbw_status_str(d->status)))
			break;
	if (d->status > DLB_DLBW_NOT_CHECKED)
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: dl_accounting.status: '%s' "
				   "is not ok, finding or not_checked", rd->path, status);
	d->nr_cpus = json_object_array_length(arr);
	d->cpus = calloc(d->nr_cpus ? d->nr_cpus : 1, sizeof(*d->cpus));
	if (!d->cpus)
		return dlb_err_set(rd->err, DLB_EXIT_INTERNAL, "%s: out of memory", rd->path);
	for (i = 0; i < d->nr_cpus; i++) {
		json_object *c = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(c, json_type_object))
			return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: dl_accounting.cpus[%zu]: "
					   "expected object", rd->path, i);
		snprintf(where, sizeof(where), "dl_accounting.cpus[%zu].", i);
		rd->where = where;
		if (dlbw_cpu_from_json(rd, c, &d->cpus[i]))
			return -1;
	}
	rd->where = "";
	return 0;
}

static int summary_from_json(struct rd *rd, json_object *root, struct dlb_summary *s)
{
	json_object *arr, *v;
	char where[32], status[32];
	int64_t ver, cpus;
	size_t i;

	if (get_i64(rd, root, "version", &ver))
		return -1;
	if (ver != DLB_SUMMARY_VERSION)
		return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: version: %lld, expected %d",
				   rd->path, (long long)ver, DLB_SUMMARY_VERSION);
	if (get_str(rd, root, "tool_version", s->version, sizeof(s->version)) ||
	    get_str(rd, root, "backend", s->backend, sizeof(s->backend)) ||
	    get_str(rd, root, "clock", s->clock, sizeof(s->clock)) ||
	    get_str(rd, root, "workload", s->workload, sizeof(s->workload)) ||
	    get_i64(rd, root, "cpus", &cpus) ||
	    !(v = get(rd, root, "calibration_ns_per_loop", json_type_double)) ||
	    get_u64(rd, root, "start_ns", &s->start_ns) ||
	    get_u64(rd, root, "end_ns", &s->end_ns) ||
	    get_str(rd, root, "status", status, sizeof(status)) ||
	    status_from_str(rd, status, &s->status) ||
	    admission_from_json(rd, root, s) ||
	    get_str(rd, root, "cmdline", s->cmdline, sizeof(s->cmdline)) ||
	    !(arr = get(rd, root, "threads", json_type_array)))
		return -1;
	/* optional: a kernel run has no model, older summaries have none */
	if (json_object_object_get_ex(root, "model", NULL) &&
	    get_str(rd, root, "model", s->model, sizeof(s->model)))
		return -1;
	/* optional: older summaries have neither */
	if (json_object_object_get_ex(root, "duration_source", NULL) &&
	    (get_u64(rd, root, "duration_ns", &s->duration_ns) ||
	     get_str(rd, root, "duration_source", s->duration_source, sizeof(s->duration_source))))
		return -1;
	s->cpus = (int)cpus;
	s->calibration_ns = json_object_get_double(v);
	s->nr_threads = json_object_array_length(arr);
	s->threads = calloc(s->nr_threads ? s->nr_threads : 1, sizeof(*s->threads));
	if (!s->threads)
		return dlb_err_set(rd->err, DLB_EXIT_INTERNAL, "%s: out of memory", rd->path);
	for (i = 0; i < s->nr_threads; i++) {
		json_object *t = json_object_array_get_idx(arr, i);

		snprintf(where, sizeof(where), "threads[%zu].", i);
		rd->where = where;
		if (!json_object_is_type(t, json_type_object))
			return dlb_err_set(rd->err, DLB_EXIT_BAD_INPUT, "%s: threads[%zu]: "
					   "expected object", rd->path, i);
		if (thread_from_json(rd, t, &s->threads[i]))
			return -1;
	}
	rd->where = "";
	return dlbw_from_json(rd, root, &s->dlbw);
}

int dlb_summary_read(const char *path, struct dlb_summary **out, struct dlb_err *err)
{
	struct rd rd = { .path = path, .where = "", .err = err };
	struct dlb_summary *s;
	json_object *root;

	root = json_object_from_file(path);
	if (!root)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", path,
				   json_util_get_last_err() ? json_util_get_last_err() :
				   "cannot parse");
	s = calloc(1, sizeof(*s));
	if (!s) {
		json_object_put(root);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", path);
	}
	if (!json_object_is_type(root, json_type_object)) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: expected a json object", path);
		goto fail;
	}
	if (summary_from_json(&rd, root, s))
		goto fail;
	json_object_put(root);
	*out = s;
	return 0;
fail:
	json_object_put(root);
	dlb_summary_free(s);
	return -1;
}

void dlb_summary_free(struct dlb_summary *s)
{
	if (!s)
		return;
	free(s->threads);
	free(s->dlbw.cpus);
	free(s);
}
