// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader: rt-app's JSON grammar into struct workload.
 *
 * json-c parses; the locator (wl_locate.c) finds positions for errors found
 * afterwards.  Every key is either understood, refused by name as "not
 * supported yet", or refused as unknown: nothing is ignored.  Times are µs in
 * the file and converted once, here, into u64 ns.
 * Grammar, defaults and our deviations from rt-app: docs/workload.md.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "dlbench/exitcode.h"
#include "dlbench/workload.h"
#include "wl_local.h"

#define WL_PATH_MAX		1024
/* Largest duration in µs whose ns fit in 63 bits (dl_time_before's range). */
#define WL_US_MAX		(INT64_MAX / NSEC_PER_USEC)
#define WL_MEM_BUF_DEFAULT	(4ULL << 20)	/* rt-app's DEFAULT_MEM_BUF_SIZE */
#define WL_PRIO_RT_DEFAULT	10		/* rt-app's DEFAULT_THREAD_PRIORITY */

struct wl_ctx {
	const char *name;
	const char *buf;
	size_t len;
	struct wl_loc *loc;
	const struct dl_param_limits *lim;
	struct workload *wl;
	struct dlb_err *err;
	size_t res_cap;
	/*
	 * Resources by name, for the loader only (one lookup per event: a
	 * linear search made a workload of "unique" timers quadratic):
	 * open addressing, res_slot[i] = index + 1, 0 empty; res_seen[r] is
	 * the last task (ordinal + 1) counted as a user of barrier r.
	 */
	unsigned int *res_slot;
	size_t res_slots;
	size_t *res_seen;
};

enum wl_at { AT_KEY, AT_VAL };

/* Copy @s to @out + @n, truncated to WL_PATH_MAX; the new length. */
static size_t path_put(char *out, size_t n, const char *s)
{
	size_t l = strlen(s);

	if (l > WL_PATH_MAX - 1 - n)
		l = WL_PATH_MAX - 1 - n;
	memcpy(out + n, s, l);
	out[n + l] = '\0';
	return n + l;
}

/* Position of @path, or of its nearest ancestor that the file has. */
static struct wl_pos ctx_pos(struct wl_ctx *c, const char *path, enum wl_at at)
{
	char p[WL_PATH_MAX];
	size_t key, val;
	char *cut;

	path_put(p, 0, path);
	for (;;) {
		if (*p && wl_loc_find(c->loc, p, &key, &val) == 0)
			return wl_loc_pos_of(c->loc, at == AT_KEY ? key : val);
		if (!*p)
			return (struct wl_pos){ 1, 1 };
		cut = strrchr(p, '.');
		if (strrchr(p, '[') > cut)
			cut = strrchr(p, '[');
		if (cut)
			*cut = '\0';
		else
			*p = '\0';
		at = AT_VAL;	/* a missing key: point at its parent's value */
	}
}

static int ctx_vfail(struct wl_ctx *c, struct wl_pos pos, const char *path, const char *fmt,
		     va_list ap)
{
	char what[DLB_ERR_MAX];

	vsnprintf(what, sizeof(what), fmt, ap);
	if (path && *path)
		return dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: %s: %s", c->name,
				   pos.line, pos.col, path, what);
	return dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: %s", c->name, pos.line,
			   pos.col, what);
}

static int ctx_fail(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int ctx_fail(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ctx_vfail(c, ctx_pos(c, path, at), path, fmt, ap);
	va_end(ap);
	return ret;
}

static int ctx_oom(struct wl_ctx *c)
{
	return dlb_err_set(c->err, DLB_EXIT_INTERNAL, "%s: out of memory", c->name);
}

static int ctx_warn(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Accept, but tell the caller: the line goes into wl->warnings, in the
 * error's format ("file:line:col: path: what"), for main() to print.
 * Returns 0, or -1 out of memory.
 */
static int ctx_warn(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
{
	struct wl_pos pos = ctx_pos(c, path, at);
	struct workload *wl = c->wl;
	char what[DLB_ERR_MAX], **w;
	va_list ap;
	char *p;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	w = realloc(wl->warnings, (wl->nr_warnings + 1) * sizeof(*w));
	if (!w)
		return ctx_oom(c);
	wl->warnings = w;
	if (asprintf(&w[wl->nr_warnings], "%s:%d:%d: %s: %s", c->name, pos.line, pos.col,
		     path, what) < 0)
		return ctx_oom(c);
	/* one line, as errors are (err_one_line) */
	for (p = w[wl->nr_warnings]; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	wl->nr_warnings++;
	return 0;
}

/* "path.key", as snprintf would (truncated), at a fraction of its cost. */
static void path_child(char *out, const char *path, const char *key)
{
	size_t n = path_put(out, 0, path);

	if (*path)
		n = path_put(out, n, ".");
	path_put(out, n, key);
}

static const char *json_kind(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:	return "null";
	case json_type_boolean:	return "a boolean";
	case json_type_double:	return "a fractional number";
	case json_type_int:	return "an integer";
	case json_type_object:	return "an object";
	case json_type_array:	return "an array";
	case json_type_string:	return "a string";
	}
	return "unknown";
}

static int want_type(struct wl_ctx *c, const char *path, struct json_object *o,
		     enum json_type type, const char *what)
{
	if (json_object_is_type(o, type))
		return 0;
	return ctx_fail(c, path, AT_VAL, "must be %s, not %s", what, json_kind(o));
}

/* The number as written in the file (json-c saturates what it cannot hold). */
static void raw_token(struct wl_ctx *c, const char *path, char *out, size_t size)
{
	size_t key, val, n = 0;

	if (wl_loc_find(c->loc, path, &key, &val) < 0) {
		snprintf(out, size, "?");
		return;
	}
	while (val < c->len && n + 1 < size && strchr("+-0123456789.eE", c->buf[val]))
		out[n++] = c->buf[val++];
	out[n] = '\0';
}

/* A non-negative integer up to @max; @unit names it in messages ("us"). */
static int get_u64(struct wl_ctx *c, const char *path, struct json_object *o, u64 max,
		   const char *unit, u64 *out)
{
	char raw[64];
	u64 v;

	if (want_type(c, path, o, json_type_int, unit[0] ? "an integer (us)" : "an integer"))
		return -1;
	v = json_object_get_uint64(o);
	if (json_object_get_int64(o) >= 0 && v <= max && v != UINT64_MAX) {
		*out = v;
		return 0;
	}
	/* only a refusal needs the text: a lookup per number made loading slower */
	raw_token(c, path, raw, sizeof(raw));
	if (json_object_get_int64(o) < 0)
		return ctx_fail(c, path, AT_VAL, "%s%s%s%s is negative", *unit ? "duration " : "",
				raw, *unit ? " " : "", unit);
	return ctx_fail(c, path, AT_VAL, "%s%s%s overflows (at most %llu%s%s)", raw,
			*unit ? " " : "", unit, (unsigned long long)max, *unit ? " " : "", unit);
}

/* A duration in µs, converted once to ns. */
static int get_us(struct wl_ctx *c, const char *path, struct json_object *o, u64 *ns)
{
	u64 us;

	if (get_u64(c, path, o, WL_US_MAX, "us", &us))
		return -1;
	if (dlb_us_to_ns(us, ns))	/* cannot fail below WL_US_MAX; kept as the one converter */
		return ctx_fail(c, path, AT_VAL, "%llu us overflows", (unsigned long long)us);
	return 0;
}

static int get_int(struct wl_ctx *c, const char *path, struct json_object *o, int min, int max,
		   int *out)
{
	int64_t v;

	if (want_type(c, path, o, json_type_int, "an integer"))
		return -1;
	v = json_object_get_int64(o);
	if (v < min || v > max)
		return ctx_fail(c, path, AT_VAL, "%lld is out of range (%d..%d)", (long long)v,
				min, max);
	*out = (int)v;
	return 0;
}

static int get_bool(struct wl_ctx *c, const char *path, struct json_object *o, bool *out)
{
	if (want_type(c, path, o, json_type_boolean, "a boolean (true or false)"))
		return -1;
	*out = json_object_get_boolean(o);
	return 0;
}

static int get_str(struct wl_ctx *c, const char *path, struct json_object *o, char **out)
{
	char *s;

	if (want_type(c, path, o, json_type_string, "a string"))
		return -1;
	s = strdup(json_object_get_string(o));
	if (!s)
		return ctx_oom(c);
	free(*out);
	*out = s;
	return 0;
}

/* ---- did you mean ---- */

/* Levenshtein distance, capped: keys are short, so a small table suffices. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t prev[33], cur[33];

	if (la > 32 || lb > 32)
		return 99;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(prev));
	}
	return prev[lb];
}

/* @lists: NULL-terminated arrays of candidates; NULL-terminated list of them. */
static const char *did_you_mean(const char *key, const char *const *const *lists)
{
	const char *best = NULL;
	size_t d, best_d = 3;

	for (; *lists; lists++) {
		const char *const *k;

		for (k = *lists; *k; k++) {
			d = edit_distance(key, *k);
			if (d < best_d && d < strlen(*k)) {
				best = *k;
				best_d = d;
			}
		}
	}
	return best;
}

/* @what: "key", or "key or event" where rt-app events may appear; @where: " in task". */
static int fail_unknown(struct wl_ctx *c, const char *path, const char *key, const char *what,
			const char *where, const char *const *const *lists)
{
	const char *hint = did_you_mean(key, lists);

	if (hint)
		return ctx_fail(c, path, AT_KEY, "unknown %s '%s'%s (did you mean '%s'?)", what,
				key, where, hint);
	return ctx_fail(c, path, AT_KEY, "unknown %s '%s'%s", what, key, where);
}

static bool in_list(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(key, *list))
			return true;
	return false;
}

/* ---- policies ---- */

static const struct {
	const char *name;
	enum wl_policy policy;
} policies[] = {
	{ "SCHED_OTHER", WL_POLICY_OTHER },
	{ "SCHED_FIFO", WL_POLICY_FIFO },
	{ "SCHED_RR", WL_POLICY_RR },
	{ "SCHED_BATCH", WL_POLICY_BATCH },
	{ "SCHED_IDLE", WL_POLICY_IDLE },
	{ "SCHED_DEADLINE", WL_POLICY_DEADLINE },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *wl_policy_str(enum wl_policy policy)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "SCHED_UNKNOWN";
}

static int get_policy(struct wl_ctx *c, const char *path, struct json_object *o,
		      enum wl_policy *out)
{
	const char *s;
	size_t i;

	if (want_type(c, path, o, json_type_string, "a string"))
		return -1;
	s = json_object_get_string(o);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		if (!strcmp(s, policies[i].name)) {
			*out = policies[i].policy;
			return 0;
		}
	}
	return ctx_fail(c, path, AT_VAL, "unknown policy '%s' (SCHED_OTHER, SCHED_BATCH, "
			"SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)", s);
}

/* ---- resources ---- */

static const char *const res_type_names[] = {
	[WL_RES_MUTEX] = "mutex",
	[WL_RES_COND] = "condition",
	[WL_RES_BARRIER] = "barrier",
	[WL_RES_TIMER] = "timer",
	[WL_RES_WAKEUP] = "suspend/resume point",
	[WL_RES_SEM] = "semaphore",
};

static size_t res_hash(const char *name, enum wl_res_type type)
{
	size_t h = 14695981039346656037ULL;	/* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 1099511628211ULL;
	return (h ^ (size_t)type) * 1099511628211ULL;
}

static bool res_is(const struct wl_resource *r, const char *name, enum wl_res_type type)
{
	return r->type == type && !strcmp(r->name, name);
}

/* The slot holding (@name, @type), or the empty slot where it would go. */
static size_t res_slot_of(const struct wl_ctx *c, const char *name, enum wl_res_type type)
{
	size_t mask = c->res_slots - 1, i = res_hash(name, type) & mask;

	while (c->res_slot[i] && !res_is(&c->wl->resources[c->res_slot[i] - 1], name, type))
		i = (i + 1) & mask;
	return i;
}

/* Room for one more resource: the array, its barrier stamps, the name index. */
static int res_grow(struct wl_ctx *c)
{
	struct workload *wl = c->wl;
	size_t cap = c->res_cap ? 2 * c->res_cap : 8, i;
	struct wl_resource *r;
	size_t *seen;

	r = realloc(wl->resources, cap * sizeof(*r));
	if (!r)
		return ctx_oom(c);
	wl->resources = r;
	seen = realloc(c->res_seen, cap * sizeof(*seen));
	if (!seen)
		return ctx_oom(c);
	c->res_seen = seen;
	c->res_cap = cap;
	free(c->res_slot);
	c->res_slots = 2 * cap;		/* at most half full */
	c->res_slot = calloc(c->res_slots, sizeof(*c->res_slot));
	if (!c->res_slot)
		return ctx_oom(c);
	for (i = 0; i < wl->nr_resources; i++)
		c->res_slot[res_slot_of(c, wl->resources[i].name, wl->resources[i].type)] =
			(unsigned int)i + 1;
	return 0;
}

static int res_add(struct wl_ctx *c, const char *name, enum wl_res_type type,
		   const char *path, enum wl_at at)
{
	struct workload *wl = c->wl;
	struct wl_resource *r;
	size_t slot;

	if (wl->nr_resources == c->res_cap && res_grow(c))
		return -1;
	/*
	 * rt-app creates resources by name as events use them, and keys them
	 * by name *and* type (get_resource_index()): one name is one object
	 * of each type.  Files use that on purpose: rt-app's video example
	 * names a mutex, a condition and a wake-up point after the one
	 * Android object they belong to ("NuPlayerDriver").
	 */
	slot = res_slot_of(c, name, type);
	if (c->res_slot[slot])
		return (int)c->res_slot[slot] - 1;
	r = &wl->resources[wl->nr_resources];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	if (!r->name)
		return ctx_oom(c);
	r->type = type;
	r->pos = ctx_pos(c, path, at);
	c->res_seen[wl->nr_resources] = 0;
	c->res_slot[slot] = (unsigned int)wl->nr_resources + 1;
	return (int)wl->nr_resources++;
}

const struct dlb_cpumask *wl_phase_cpus(const struct wl_task *t, size_t p)
{
	if (t->phases[p].has_cpus)
		return &t->phases[p].cpus;
	return t->has_cpus ? &t->cpus : NULL;
}

bool wl_task_phase_cpus(const struct wl_task *t)
{
	size_t p;

	for (p = 0; p < t->nr_phases; p++)
		if (t->phases[p].has_cpus)
			return true;
	return false;
}

const struct wl_task *wl_reclaim_task(const struct workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].dl.flags & DL_FLAG_RECLAIM)
			return &wl->tasks[i];
	return NULL;
}

const struct wl_task *wl_slice_task(const struct workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].slice_ns)
			return &wl->tasks[i];
	return NULL;
}

int wl_resource_find(const struct workload *wl, const char *name, enum wl_res_type type)
{
	size_t i;

	for (i = 0; i < wl->nr_resources; i++)
		if (res_is(&wl->resources[i], name, type))
			return (int)i;
	return -1;
}

/* The "resources" section of older rt-app files: declarations by type. */
static int parse_resources(struct wl_ctx *c, struct json_object *o)
{
	static const struct {
		const char *name;
		int type;	/* -1: nothing to create */
	} types[] = {
		{ "mutex", WL_RES_MUTEX }, { "lock", WL_RES_MUTEX }, { "unlock", WL_RES_MUTEX },
		{ "wait", WL_RES_COND }, { "signal", WL_RES_COND }, { "broadcast", WL_RES_COND },
		{ "sig_and_wait", WL_RES_COND }, { "barrier", WL_RES_BARRIER },
		{ "timer", WL_RES_TIMER }, { "suspend", WL_RES_WAKEUP },
		{ "resume", WL_RES_WAKEUP }, { "sem_post", WL_RES_SEM }, { "sem_wait", WL_RES_SEM },
		{ "iorun", -1 },	/* the run's one io_device */
	};
	char path[WL_PATH_MAX], tpath[WL_PATH_MAX];

	/* rt-app 0.x's resource count: rt-app ignores a section not an object */
	if (json_object_is_type(o, json_type_int))
		return 0;
	if (want_type(c, "resources", o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, name, val) {
		const char *t = "mutex";	/* rt-app's default resource type */
		size_t i;

		path_child(path, "resources", name);
		if (want_type(c, path, val, json_type_object, "an object"))
			return -1;
		json_object_object_foreach(val, k, v) {
			path_child(tpath, path, k);
			if (strcmp(k, "type"))
				return ctx_fail(c, tpath, AT_KEY, "unknown key '%s'", k);
			if (want_type(c, tpath, v, json_type_string, "a string"))
				return -1;
			t = json_object_get_string(v);
		}
		path_child(tpath, path, "type");
		for (i = 0; i < ARRAY_SIZE(types); i++)
			if (!strcmp(t, types[i].name))
				break;
		if (i == ARRAY_SIZE(types))
			return ctx_fail(c, tpath, AT_VAL, "resource type '%s' is not supported", t);
		if (types[i].type >= 0 &&
		    res_add(c, name, (enum wl_res_type)types[i].type, path, AT_KEY) < 0)
			return -1;
	}
	return 0;
}

/* ---- global ---- */

static const char *const global_keys[] = {
	"duration", "calibration", "default_policy", "pi_enabled", "lock_pages", "ftrace",
	"logdir", "log_basename", "log_size", "gnuplot", "io_device", "mem_buffer_size",
	"cumulative_slack", NULL
};

static int parse_calibration(struct wl_ctx *c, const char *path, struct json_object *o)
{
	struct wl_global *g = &c->wl->global;
	const char *s;
	char *end;
	long cpu;
	u64 v;

	if (json_object_is_type(o, json_type_int)) {
		/* ns per loop: the calibration step is skipped */
		if (get_u64(c, path, o, UINT32_MAX, "", &v))
			return -1;
		if (v == 0)
			return ctx_fail(c, path, AT_VAL, "ns per loop must be at least 1");
		g->calibration_ns = v;
		g->calibration_cpu = -1;
		return 0;
	}
	if (want_type(c, path, o, json_type_string, "\"CPUn\" or an integer (ns per loop)"))
		return -1;
	s = json_object_get_string(o);
	errno = 0;
	cpu = strncmp(s, "CPU", 3) ? -1 : strtol(s + 3, &end, 10);
	if (cpu < 0 || cpu >= DLB_MAX_CPUS || errno || end == s + 3 || *end)
		return ctx_fail(c, path, AT_VAL, "'%s' is not \"CPUn\" with n in 0..%d", s,
				DLB_MAX_CPUS - 1);
	g->calibration_cpu = (int)cpu;
	g->calibration_ns = 0;
	return 0;
}

/* ftrace: rt-app 1.0's boolean, or upstream's list of categories. */
static int parse_ftrace(struct wl_ctx *c, const char *path, struct json_object *o)
{
	static const char *const cats[] = {
		"main", "task", "run", "loop", "event", "stats", "attrs", "none", NULL
	};
	struct wl_global *g = &c->wl->global;
	char *list = NULL, *tok, *save;

	if (json_object_is_type(o, json_type_boolean)) {
		g->ftrace = json_object_get_boolean(o);
		free(g->ftrace_categories);
		g->ftrace_categories = strdup(g->ftrace ? "main,task,run,loop,stats" : "none");
		return g->ftrace_categories ? 0 : ctx_oom(c);
	}
	if (want_type(c, path, o, json_type_string, "a string or a boolean"))
		return -1;
	if (get_str(c, path, o, &g->ftrace_categories))
		return -1;
	list = strdup(g->ftrace_categories);
	if (!list)
		return ctx_oom(c);
	g->ftrace = false;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!in_list(tok, cats)) {
			ctx_fail(c, path, AT_VAL, "unknown ftrace category '%s' (main, task, run, "
				 "loop, event, stats, attrs or none)", tok);
			free(list);
			return -1;
		}
		if (strcmp(tok, "none"))
			g->ftrace = true;
	}
	free(list);
	return 0;
}

static int parse_log_size(struct wl_ctx *c, const char *path, struct json_object *o)
{
	struct wl_global *g = &c->wl->global;
	const char *s;

	if (json_object_is_type(o, json_type_int))
		return get_int(c, path, o, 0, 4095, &g->log_size);
	if (want_type(c, path, o, json_type_string, "a string or an integer (MB)"))
		return -1;
	s = json_object_get_string(o);
	if (!strcasecmp(s, "disable"))
		g->log_size = 0;
	else if (!strcasecmp(s, "file") || !strcasecmp(s, "auto"))
		g->log_size = WL_LOG_FILE;	/* rt-app: "auto" falls back to "file" */
	else
		return ctx_fail(c, path, AT_VAL, "'%s' is not \"file\", \"disable\", \"auto\" or "
				"a size in MB", s);
	return 0;
}

static int parse_global_key(struct wl_ctx *c, const char *key, const char *path,
			    struct json_object *v)
{
	struct wl_global *g = &c->wl->global;
	int sec;

	if (!strcmp(key, "duration")) {
		/* seconds; -1 (or 0, as rt-app treats it) runs until the tasks end */
		if (get_int(c, path, v, -1, INT32_MAX, &sec))
			return -1;
		g->duration_ns = sec > 0 ? (u64)sec * NSEC_PER_SEC : 0;
		return 0;
	}
	if (!strcmp(key, "calibration"))
		return parse_calibration(c, path, v);
	if (!strcmp(key, "default_policy"))
		return get_policy(c, path, v, &g->default_policy);
	if (!strcmp(key, "pi_enabled"))
		return get_bool(c, path, v, &g->pi_enabled);
	if (!strcmp(key, "lock_pages"))
		return get_bool(c, path, v, &g->lock_pages);
	if (!strcmp(key, "gnuplot"))
		return get_bool(c, path, v, &g->gnuplot);
	if (!strcmp(key, "cumulative_slack"))
		return get_bool(c, path, v, &g->cumulative_slack);
	if (!strcmp(key, "ftrace"))
		return parse_ftrace(c, path, v);
	if (!strcmp(key, "logdir"))
		return get_str(c, path, v, &g->logdir);
	if (!strcmp(key, "log_basename"))
		return get_str(c, path, v, &g->log_basename);
	if (!strcmp(key, "io_device"))
		return get_str(c, path, v, &g->io_device);
	if (!strcmp(key, "log_size"))
		return parse_log_size(c, path, v);
	if (!strcmp(key, "mem_buffer_size")) {
		if (get_u64(c, path, v, UINT32_MAX, "", &g->mem_buffer_size))
			return -1;
		if (!g->mem_buffer_size)
			return ctx_fail(c, path, AT_VAL, "must be at least 1 byte");
		return 0;
	}
	/*
	 * rt-app 0.x's "fragment" (AQuoSA's, removed from rt-app in 2014),
	 * and "frag", the spelling of rt-app's own browser and mp3 examples:
	 * rt-app ignores both.  Accepted so those files run, said aloud.
	 */
	if (!strcmp(key, "frag") || !strcmp(key, "fragment"))
		return ctx_warn(c, path, AT_KEY, "key '%s' ignored (rt-app 0.x's AQuoSA "
				"'fragment', which rt-app ignores too)", key);
	{
		const char *const *lists[] = { global_keys, NULL };

		return fail_unknown(c, path, key, "key", " in global", lists);
	}
}

static int global_defaults(struct wl_global *g)
{
	g->duration_ns = 0;
	g->calibration_ns = 0;
	g->calibration_cpu = 0;
	g->default_policy = WL_POLICY_OTHER;
	g->lock_pages = true;
	g->log_size = WL_LOG_FILE;
	g->mem_buffer_size = WL_MEM_BUF_DEFAULT;
	g->logdir = strdup("./");
	g->log_basename = strdup("rt-app");
	g->ftrace_categories = strdup("none");
	g->io_device = strdup("/dev/null");
	return g->logdir && g->log_basename && g->ftrace_categories && g->io_device ? 0 : -1;
}

static int parse_global(struct wl_ctx *c, struct json_object *o)
{
	char path[WL_PATH_MAX];

	if (want_type(c, "global", o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, key, v) {
		path_child(path, "global", key);
		if (parse_global_key(c, key, path, v))
			return -1;
	}
	return 0;
}

/* ---- events ---- */

/*
 * rt-app matches an event key by prefix ("run1", "sleep_long"), in this
 * order; "runtime" must come before "run".  type -1: an rt-app event we do
 * not support yet, refused by name.
 */
static const struct {
	const char *prefix;
	int type;
} ev_descs[] = {
	{ "sem_post", WL_EV_SEM_POST }, { "sem_wait", WL_EV_SEM_WAIT },
	{ "lock", WL_EV_LOCK }, { "unlock", WL_EV_UNLOCK }, { "wait", WL_EV_WAIT },
	{ "signal", WL_EV_SIGNAL }, { "broad", WL_EV_BROAD }, { "sync", WL_EV_SYNC },
	{ "sleep", WL_EV_SLEEP }, { "runtime", WL_EV_RUNTIME }, { "run", WL_EV_RUN },
	{ "timer", WL_EV_TIMER }, { "suspend", WL_EV_SUSPEND }, { "resume", WL_EV_RESUME },
	{ "mem", WL_EV_MEM }, { "iorun", WL_EV_IORUN }, { "yield", WL_EV_YIELD },
	{ "barrier", WL_EV_BARRIER }, { "fork", -1 },
};

static const char *const ev_names[] = {
	"sem_post", "sem_wait", "lock", "unlock", "wait", "signal", "broad", "sync", "sleep", "runtime", "run", "timer",
	"suspend", "resume", "mem", "iorun", "yield", "barrier", "fork", NULL
};

/* rt-app task keys we do not implement: refused by name. */
static const char *const task_unsupported[] = {
	"nodes_membind", "membind_nodes", "util_min", "util_max", "taskgroup", "period",
	"deadline", "lock_order", "resources", NULL
};

/* rt-app lets a phase change the task's properties; we do not, yet. */
static const char *const phase_unsupported[] = {
	"nodes_membind", "membind_nodes", "policy", "priority", "dl-runtime",
	"dl-period", "dl-deadline", "dl-flags", "util_min", "util_max", "taskgroup", NULL
};

/*
 * Asked for every key of every task (twice for a task's own keys): the
 * first character is compared before the prefix, and the unsupported
 * lists are only searched for a key longer than its prefix (no event name
 * is in them), which made it a tenth of the cost of loading a large file.
 */
static int ev_classify(const char *key)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(ev_descs); i++) {
		if (key[0] != ev_descs[i].prefix[0])
			continue;
		n = strlen(ev_descs[i].prefix);
		if (!strncmp(key, ev_descs[i].prefix, n))
			break;
	}
	if (i == ARRAY_SIZE(ev_descs))
		return -1;
	/* rt-app keys that start like an event: "membind_nodes", "lock_order" */
	if (key[n] && (in_list(key, task_unsupported) || in_list(key, phase_unsupported)))
		return -1;
	return (int)i;
}

const char *wl_event_type_str(enum wl_event_type type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ev_descs); i++)
		if (ev_descs[i].type == (int)type)
			return ev_descs[i].prefix;
	return "unknown";
}

static int ev_res(struct wl_ctx *c, const char *path, struct json_object *v,
		  enum wl_res_type type)
{
	if (want_type(c, path, v, json_type_string, "a string (a resource name)"))
		return -1;
	if (!*json_object_get_string(v))
		return ctx_fail(c, path, AT_VAL, "empty %s name", res_type_names[type]);
	return res_add(c, json_object_get_string(v), type, path, AT_VAL);
}

/* wait and sync: {"ref": condition, "mutex": mutex}, both required. */
static int ev_wait(struct wl_ctx *c, const char *path, struct json_object *v,
		   struct wl_event *ev)
{
	static const char *const keys[] = { "ref", "mutex", NULL };
	const char *const *lists[] = { keys, NULL };
	char kpath[WL_PATH_MAX];
	struct json_object *ref = NULL, *mutex = NULL;

	if (want_type(c, path, v, json_type_object, "an object {\"ref\", \"mutex\"}"))
		return -1;
	json_object_object_foreach(v, k, kv) {
		path_child(kpath, path, k);
		if (!strcmp(k, "ref"))
			ref = kv;
		else if (!strcmp(k, "mutex"))
			mutex = kv;
		else
			return fail_unknown(c, kpath, k, "key", "", lists);
	}
	if (!ref)
		return ctx_fail(c, path, AT_VAL, "missing \"ref\" (the condition to wait on)");
	if (!mutex)
		return ctx_fail(c, path, AT_VAL, "missing \"mutex\" (the mutex the wait "
				"releases)");
	path_child(kpath, path, "ref");
	ev->res = ev_res(c, kpath, ref, WL_RES_COND);
	if (ev->res < 0)
		return -1;
	path_child(kpath, path, "mutex");
	ev->dep = ev_res(c, kpath, mutex, WL_RES_MUTEX);
	return ev->dep < 0 ? -1 : 0;
}

/* timer: {"ref", "period", "mode"}; a ref starting "unique" is per thread. */
static int ev_timer(struct wl_ctx *c, const struct wl_task *t, const char *path,
		    struct json_object *v, struct wl_event *ev)
{
	static const char *const keys[] = { "ref", "period", "mode", NULL };
	const char *const *lists[] = { keys, NULL };
	char kpath[WL_PATH_MAX], *name;
	struct json_object *ref = NULL, *period = NULL, *mode = NULL;
	const char *r;
	int idx;

	if (want_type(c, path, v, json_type_object, "an object {\"ref\", \"period\"}"))
		return -1;
	json_object_object_foreach(v, k, kv) {
		path_child(kpath, path, k);
		if (!strcmp(k, "ref"))
			ref = kv;
		else if (!strcmp(k, "period"))
			period = kv;
		else if (!strcmp(k, "mode"))
			mode = kv;
		else
			return fail_unknown(c, kpath, k, "key", "", lists);
	}
	if (!ref)
		return ctx_fail(c, path, AT_VAL, "missing \"ref\" (the timer's name)");
	if (!period)
		return ctx_fail(c, path, AT_VAL, "missing \"period\" (us)");
	path_child(kpath, path, "period");
	if (get_us(c, kpath, period, &ev->duration_ns))
		return -1;
	ev->timer_relative = true;	/* rt-app's default */
	if (mode) {
		path_child(kpath, path, "mode");
		if (want_type(c, kpath, mode, json_type_string, "a string"))
			return -1;
		if (!strcmp(json_object_get_string(mode), "absolute"))
			ev->timer_relative = false;
		else if (strcmp(json_object_get_string(mode), "relative"))
			return ctx_fail(c, kpath, AT_VAL, "'%s' is not \"relative\" or \"absolute\"",
					json_object_get_string(mode));
	}
	path_child(kpath, path, "ref");
	if (want_type(c, kpath, ref, json_type_string, "a string (the timer's name)"))
		return -1;
	r = json_object_get_string(ref);
	if (strncmp(r, "unique", 6))
		return (ev->res = res_add(c, r, WL_RES_TIMER, kpath, AT_VAL)) < 0 ? -1 : 0;
	/* rt-app: a "unique..." timer is private to each thread of the task */
	if (asprintf(&name, "%s@%s", r, t->name) < 0)
		return ctx_oom(c);
	idx = res_add(c, name, WL_RES_TIMER, kpath, AT_VAL);
	free(name);
	if (idx < 0)
		return -1;
	c->wl->resources[idx].unique = true;
	ev->res = idx;
	return 0;
}

static int parse_event(struct wl_ctx *c, const struct wl_task *t, const char *path,
		       struct json_object *v, enum wl_event_type type, struct wl_event *ev)
{
	const char *s;

	switch (type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		return get_us(c, path, v, &ev->duration_ns);
	case WL_EV_MEM:
	case WL_EV_IORUN:
		return get_u64(c, path, v, INT64_MAX, "", &ev->size);
	case WL_EV_LOCK:
	case WL_EV_UNLOCK:
		return (ev->res = ev_res(c, path, v, WL_RES_MUTEX)) < 0 ? -1 : 0;
	case WL_EV_SIGNAL:
	case WL_EV_BROAD:
		return (ev->res = ev_res(c, path, v, WL_RES_COND)) < 0 ? -1 : 0;
	case WL_EV_BARRIER:
		return (ev->res = ev_res(c, path, v, WL_RES_BARRIER)) < 0 ? -1 : 0;
	case WL_EV_RESUME:
		return (ev->res = ev_res(c, path, v, WL_RES_WAKEUP)) < 0 ? -1 : 0;
	case WL_EV_SEM_POST:
	case WL_EV_SEM_WAIT:
		return (ev->res = ev_res(c, path, v, WL_RES_SEM)) < 0 ? -1 : 0;
	case WL_EV_WAIT:
	case WL_EV_SYNC:
		return ev_wait(c, path, v, ev);
	case WL_EV_TIMER:
		return ev_timer(c, t, path, v, ev);
	case WL_EV_SUSPEND:
		if (want_type(c, path, v, json_type_string, "a string"))
			return -1;
		/* workgen fills an empty suspend with the thread's own name */
		s = json_object_get_string(v);
		ev->res = res_add(c, *s ? s : t->name, WL_RES_WAKEUP, path, AT_VAL);
		return ev->res < 0 ? -1 : 0;
	case WL_EV_YIELD:
		return want_type(c, path, v, json_type_string, "a string (may be empty)");
	}
	return ctx_fail(c, path, AT_KEY, "internal: event type %d", (int)type);
}

/* ---- tasks and phases ---- */

static const char *const task_keys[] = {
	"instance", "loop", "policy", "priority", "dl-runtime", "dl-period", "dl-deadline",
	"dl-flags", "cpus", "delay", "phases", NULL
};

static const char *const phase_keys[] = { "loop", "cpus", NULL };

/* loop: -1 (forever) or a count >= 1. */
static int get_loop(struct wl_ctx *c, const char *path, struct json_object *v, int *loop)
{
	if (get_int(c, path, v, -1, INT32_MAX, loop))
		return -1;
	if (*loop == 0)
		return ctx_fail(c, path, AT_VAL, "loop 0 would never run: use -1 (forever) or a "
				"count >= 1");
	return 0;
}

static int parse_cpus(struct wl_ctx *c, const char *path, struct json_object *v,
		      bool *has_cpus, struct dlb_cpumask *cpus)
{
	char epath[WL_PATH_MAX];
	size_t i, n;
	int cpu;

	if (want_type(c, path, v, json_type_array, "an array of cpu numbers"))
		return -1;
	n = json_object_array_length(v);
	if (!n)
		return ctx_fail(c, path, AT_VAL, "empty cpu list (the task could run nowhere)");
	dlb_cpumask_clear(cpus);
	for (i = 0; i < n; i++) {
		snprintf(epath, sizeof(epath), "%s[%zu]", path, i);
		if (get_int(c, epath, json_object_array_get_idx(v, i), 0, DLB_MAX_CPUS - 1, &cpu))
			return -1;
		dlb_cpumask_set(cpus, (unsigned int)cpu);
	}
	*has_cpus = true;
	return 0;
}

static int parse_phase(struct wl_ctx *c, const struct wl_task *t, const char *path,
		       struct json_object *o, bool in_task, struct wl_phase *ph)
{
	const char *const *lists[] = { in_task ? task_keys : phase_keys, ev_names, NULL };
	char kpath[WL_PATH_MAX];
	size_t n = 0;
	int d;

	json_object_object_foreach(o, k0, v0) {
		(void)v0;
		if (ev_classify(k0) >= 0)
			n++;
	}
	ph->pos = ctx_pos(c, path, AT_KEY);
	if (!n)
		return ctx_fail(c, path, AT_KEY, "no events (a %s needs at least one event)",
				in_task ? "task" : "phase");
	ph->events = calloc(n, sizeof(*ph->events));
	if (!ph->events)
		return ctx_oom(c);
	json_object_object_foreach(o, key, v) {
		struct wl_event *ev;

		path_child(kpath, path, key);
		d = ev_classify(key);
		if (d < 0) {
			if (in_task && (in_list(key, task_keys) || in_list(key, task_unsupported)))
				continue;	/* the task's own keys, parsed by parse_task() */
			if (!in_task && !strcmp(key, "loop")) {
				if (get_loop(c, kpath, v, &ph->loop))
					return -1;
				continue;
			}
			if (!in_task && !strcmp(key, "cpus")) {
				/*
				 * A DL task's CPUs are its cpuset partition, made
				 * before the run (docs/rt-app.md, "Pinned DL
				 * tasks"): the kernel refuses to narrow a DL
				 * task's affinity inside its root domain.
				 */
				if (t->policy == WL_POLICY_DEADLINE)
					return ctx_fail(c, kpath, AT_KEY, "key 'cpus' in a phase "
							"of a SCHED_DEADLINE task is not supported "
							"(its CPUs are its cpuset, fixed for the run: "
							"set cpus on the task)");
				if (parse_cpus(c, kpath, v, &ph->has_cpus, &ph->cpus))
					return -1;
				continue;
			}
			if (!in_task && in_list(key, phase_unsupported))
				return ctx_fail(c, kpath, AT_KEY, "key '%s' in a phase is not supported "
						"yet%s", key, in_list(key, task_unsupported) ? "" :
						" (set it on the task)");
			return fail_unknown(c, kpath, key, "key or event",
					    in_task ? " in task" : " in phase", lists);
		}
		if (ev_descs[d].type < 0)
			return ctx_fail(c, kpath, AT_KEY, "event '%s' is not supported yet",
					ev_descs[d].prefix);
		ev = &ph->events[ph->nr_events++];
		ev->type = (enum wl_event_type)ev_descs[d].type;
		ev->res = ev->dep = -1;
		ev->pos = ctx_pos(c, kpath, AT_KEY);
		ev->key = strdup(key);
		if (!ev->key)
			return ctx_oom(c);
		if (parse_event(c, t, kpath, v, ev->type, ev))
			return -1;
	}
	return 0;
}

static int parse_priority(struct wl_ctx *c, const char *path, struct json_object *v,
			  struct wl_task *t)
{
	switch (t->policy) {
	case WL_POLICY_FIFO:
	case WL_POLICY_RR:
		t->priority = WL_PRIO_RT_DEFAULT;
		return v ? get_int(c, path, v, 1, 99, &t->priority) : 0;
	case WL_POLICY_DEADLINE:
		t->priority = 0;
		if (!v)
			return 0;
		if (get_int(c, path, v, INT32_MIN, INT32_MAX, &t->priority))
			return -1;
		if (t->priority)
			return ctx_fail(c, path, AT_VAL, "priority %d has no meaning for "
					"SCHED_DEADLINE (use 0 or leave it out)", t->priority);
		return 0;
	default:
		/* SCHED_OTHER, BATCH, IDLE: the nice value */
		t->priority = 0;
		return v ? get_int(c, path, v, -20, 19, &t->priority) : 0;
	}
}

struct wl_dl_keys {
	struct json_object *runtime, *period, *deadline, *flags;
};

/*
 * "dl-flags" (a dlbench extension): sched_attr.sched_flags by name, e.g.
 * ["reclaim"] for SCHED_FLAG_RECLAIM; the names are dl_flag_parse()'s.
 */
static int parse_dl_flags(struct wl_ctx *c, const char *path, struct json_object *v, u64 *flags)
{
	char epath[WL_PATH_MAX];
	size_t i, n;

	if (want_type(c, path, v, json_type_array, "an array of flag names"))
		return -1;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		u64 f;

		snprintf(epath, sizeof(epath), "%s[%zu]", path, i);
		if (want_type(c, epath, e, json_type_string, "a flag name"))
			return -1;
		f = dl_flag_parse(json_object_get_string(e));
		if (!f)
			return ctx_fail(c, epath, AT_VAL, "unknown flag '%s' (known: %s)",
					json_object_get_string(e), dl_flag_names());
		if (*flags & f)
			return ctx_fail(c, epath, AT_VAL, "flag '%s' given twice",
					json_object_get_string(e));
		*flags |= f;
	}
	return 0;
}

/* Which key to blame for a failed kernel rule. */
static const char *dl_rule_key(enum dl_param_rule rule, const struct wl_dl_keys *k)
{
	switch (rule) {
	case DL_PARAM_RUNTIME_MIN:
	case DL_PARAM_RUNTIME_GT_DEADLINE:
		return "dl-runtime";
	case DL_PARAM_PERIOD_MIN:
	case DL_PARAM_PERIOD_MAX:
		return k->period ? "dl-period" : k->deadline ? "dl-deadline" : "dl-runtime";
	default:
		return k->deadline ? "dl-deadline" : k->period ? "dl-period" : "dl-runtime";
	}
}

/*
 * dl-runtime on a fair task (SCHED_OTHER, SCHED_BATCH) is its custom slice
 * (Linux 6.12+: sched_attr.sched_runtime; rt-app since 2025), which the
 * kernel clamps to 0.1..100 ms (__setscheduler_params).  dl-period and
 * dl-deadline mean nothing there and rt-app ignores them: accepted, said.
 */
#define WL_SLICE_MIN_NS		(100 * NSEC_PER_USEC)
#define WL_SLICE_MAX_NS		(100 * NSEC_PER_MSEC)

static int parse_slice(struct wl_ctx *c, const char *path, const struct wl_dl_keys *k,
		       struct wl_task *t)
{
	char kpath[WL_PATH_MAX];

	path_child(kpath, path, "dl-period");
	if (k->period && ctx_warn(c, kpath, AT_KEY, "ignored on %s (only dl-runtime, the "
				  "custom slice, applies to a fair task)", wl_policy_str(t->policy)))
		return -1;
	path_child(kpath, path, "dl-deadline");
	if (k->deadline && ctx_warn(c, kpath, AT_KEY, "ignored on %s (only dl-runtime, the "
				    "custom slice, applies to a fair task)", wl_policy_str(t->policy)))
		return -1;
	if (!k->runtime)
		return 0;
	path_child(kpath, path, "dl-runtime");
	if (get_us(c, kpath, k->runtime, &t->slice_ns))
		return -1;
	if (t->slice_ns && (t->slice_ns < WL_SLICE_MIN_NS || t->slice_ns > WL_SLICE_MAX_NS))
		return ctx_warn(c, kpath, AT_VAL, "slice %llu us: the kernel clamps a custom "
				"slice to 100..100000 us",
				(unsigned long long)(t->slice_ns / NSEC_PER_USEC));
	return 0;
}

static int parse_dl(struct wl_ctx *c, const char *path, const struct wl_dl_keys *k,
		    struct wl_task *t)
{
	char kpath[WL_PATH_MAX], why[256];
	enum dl_param_rule rule;
	struct dl_params *p = &t->dl;

	if (t->policy != WL_POLICY_DEADLINE && k->flags) {
		path_child(kpath, path, "dl-flags");
		return ctx_fail(c, kpath, AT_KEY, "dl-flags needs policy SCHED_DEADLINE (policy "
				"is %s)", wl_policy_str(t->policy));
	}
	if (t->policy == WL_POLICY_OTHER || t->policy == WL_POLICY_BATCH)
		return parse_slice(c, path, k, t);
	if (t->policy != WL_POLICY_DEADLINE) {
		const char *key = k->runtime ? "dl-runtime" : k->period ? "dl-period" :
				  k->deadline ? "dl-deadline" : NULL;

		if (!key)
			return 0;
		path_child(kpath, path, key);
		return ctx_fail(c, kpath, AT_KEY, "%s needs policy SCHED_DEADLINE (policy is %s)",
				key, wl_policy_str(t->policy));
	}
	if (!k->runtime)
		return ctx_fail(c, path, AT_KEY, "SCHED_DEADLINE needs dl-runtime");
	path_child(kpath, path, "dl-runtime");
	if (get_us(c, kpath, k->runtime, &p->runtime))
		return -1;
	path_child(kpath, path, "dl-period");
	if (k->period && get_us(c, kpath, k->period, &p->period))
		return -1;
	path_child(kpath, path, "dl-deadline");
	if (k->deadline && get_us(c, kpath, k->deadline, &p->deadline))
		return -1;
	path_child(kpath, path, "dl-flags");
	if (k->flags && parse_dl_flags(c, kpath, k->flags, &p->flags))
		return -1;
	/*
	 * rt-app: period defaults to runtime, deadline to period.  Without a
	 * period but with a deadline we take the kernel's rule (period =
	 * deadline): rt-app would set period = runtime and the kernel would
	 * refuse deadline > period.  See docs/workload.md.
	 */
	if (!k->period)
		p->period = k->deadline ? p->deadline : p->runtime;
	if (!k->deadline)
		p->deadline = p->period;
	rule = dl_param_check(p, c->lim);
	if (rule == DL_PARAM_OK)
		return 0;
	path_child(kpath, path, dl_rule_key(rule, k));
	dl_param_explain(why, sizeof(why), p, c->lim, rule);
	return ctx_fail(c, kpath, AT_VAL, "%s", why);
}

/* A task may only unlock a mutex it locks somewhere (else: EPERM or a hang). */
static int check_unlocks(struct wl_ctx *c, const char *path, bool phases,
			 const struct wl_task *t)
{
	char kpath[WL_PATH_MAX], ppath[WL_PATH_MAX];
	size_t p, e, q, f;

	for (p = 0; p < t->nr_phases; p++) {
		for (e = 0; e < t->phases[p].nr_events; e++) {
			const struct wl_event *ev = &t->phases[p].events[e];
			bool locked = false;

			if (ev->type != WL_EV_UNLOCK)
				continue;
			for (q = 0; q < t->nr_phases && !locked; q++)
				for (f = 0; f < t->phases[q].nr_events; f++)
					if (t->phases[q].events[f].type == WL_EV_LOCK &&
					    t->phases[q].events[f].res == ev->res)
						locked = true;
			if (locked)
				continue;
			if (phases) {
				snprintf(ppath, sizeof(ppath), "%s.phases", path);
				path_child(kpath, ppath, t->phases[p].name);
				path_child(ppath, kpath, ev->key);
			} else {
				path_child(ppath, path, ev->key);
			}
			return ctx_fail(c, ppath, AT_VAL, "unlock of mutex '%s' that task '%s' "
					"never locks", c->wl->resources[ev->res].name, t->name);
		}
	}
	return 0;
}

/* rt-app counts a barrier's users in thread instances. */
/* Each thread of @t that waits on a barrier is one of the barrier's users. */
static void count_barrier_users(struct wl_ctx *c, const struct wl_task *t)
{
	size_t stamp = (size_t)(t - c->wl->tasks) + 1, p, e;

	for (p = 0; p < t->nr_phases; p++) {
		for (e = 0; e < t->phases[p].nr_events; e++) {
			const struct wl_event *ev = &t->phases[p].events[e];

			if (ev->type != WL_EV_BARRIER || c->res_seen[ev->res] == stamp)
				continue;
			c->res_seen[ev->res] = stamp;
			c->wl->resources[ev->res].users += (unsigned int)t->instances;
		}
	}
}

static int parse_phases(struct wl_ctx *c, const char *path, struct json_object *o,
			struct wl_task *t)
{
	char ppath[WL_PATH_MAX], kpath[WL_PATH_MAX];
	size_t n;

	path_child(ppath, path, "phases");
	if (want_type(c, ppath, o, json_type_object, "an object of phases"))
		return -1;
	n = (size_t)json_object_object_length(o);
	if (!n)
		return ctx_fail(c, ppath, AT_VAL, "no phase (phases needs at least one)");
	t->phases = calloc(n, sizeof(*t->phases));
	if (!t->phases)
		return ctx_oom(c);
	json_object_object_foreach(o, name, v) {
		struct wl_phase *ph = &t->phases[t->nr_phases++];

		path_child(kpath, ppath, name);
		ph->loop = 1;
		ph->name = strdup(name);
		if (!ph->name)
			return ctx_oom(c);
		if (want_type(c, kpath, v, json_type_object, "an object"))
			return -1;
		if (parse_phase(c, t, kpath, v, false, ph))
			return -1;
	}
	return 0;
}

static int parse_task_key(struct wl_ctx *c, const char *kpath, const char *key,
			  struct json_object *v, struct wl_task *t)
{
	if (!strcmp(key, "instance")) {
		if (get_int(c, kpath, v, 0, 4096, &t->instances))
			return -1;
		if (!t->instances)
			return ctx_fail(c, kpath, AT_VAL, "instance 0 creates no thread (rt-app "
					"uses it for 'fork', which is not supported yet)");
		return 0;
	}
	if (!strcmp(key, "policy"))
		return get_policy(c, kpath, v, &t->policy);
	if (!strcmp(key, "cpus"))
		return parse_cpus(c, kpath, v, &t->has_cpus, &t->cpus);
	if (!strcmp(key, "delay"))
		return get_us(c, kpath, v, &t->delay_ns);
	if (in_list(key, task_unsupported))
		return ctx_fail(c, kpath, AT_KEY, "key '%s' is not supported yet", key);
	return 1;	/* not a key this function handles */
}

static int parse_task(struct wl_ctx *c, const char *name, struct json_object *o,
		      struct wl_task *t)
{
	const char *const *lists[] = { task_keys, ev_names, NULL };
	char path[WL_PATH_MAX], kpath[WL_PATH_MAX];
	struct json_object *prio = NULL, *phases = NULL, *loop = NULL;
	struct wl_dl_keys dk = { NULL, NULL, NULL, NULL };
	const char *first_event = NULL;
	int r, l;

	path_child(path, "tasks", name);
	t->name = strdup(name);
	if (!t->name)
		return ctx_oom(c);
	t->instances = 1;
	t->loop = -1;
	t->policy = c->wl->global.default_policy;
	t->pos = ctx_pos(c, path, AT_KEY);
	if (want_type(c, path, o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, key, v) {
		path_child(kpath, path, key);
		if (ev_classify(key) >= 0) {
			first_event = first_event ? first_event : key;
			continue;
		}
		r = parse_task_key(c, kpath, key, v, t);
		if (r <= 0) {
			if (r < 0)
				return -1;
		} else if (!strcmp(key, "priority")) {
			prio = v;
		} else if (!strcmp(key, "dl-runtime")) {
			dk.runtime = v;
		} else if (!strcmp(key, "dl-period")) {
			dk.period = v;
		} else if (!strcmp(key, "dl-deadline")) {
			dk.deadline = v;
		} else if (!strcmp(key, "dl-flags")) {
			dk.flags = v;
		} else if (!strcmp(key, "phases")) {
			phases = v;
		} else if (!strcmp(key, "loop")) {
			loop = v;
		} else {
			return fail_unknown(c, kpath, key, "key or event", " in task", lists);
		}
	}
	path_child(kpath, path, "priority");
	if (parse_priority(c, kpath, prio, t))
		return -1;
	if (parse_dl(c, path, &dk, t))
		return -1;
	path_child(kpath, path, "loop");
	if (loop && get_loop(c, kpath, loop, &l))
		return -1;
	if (phases) {
		if (first_event) {
			path_child(kpath, path, first_event);
			return ctx_fail(c, kpath, AT_KEY, "event '%s' outside \"phases\": with "
					"phases, events go inside a phase", first_event);
		}
		t->loop = loop ? l : -1;
		if (parse_phases(c, path, phases, t))
			return -1;
	} else {
		/*
		 * One implicit phase.  rt-app then reads "loop" as the phase's
		 * and runs the task once; absent, the task loops forever.
		 * loop -1 here is the same as no loop: normalised to that.
		 */
		t->phases = calloc(1, sizeof(*t->phases));
		if (!t->phases)
			return ctx_oom(c);
		t->nr_phases = 1;
		t->phases[0].name = strdup("");
		if (!t->phases[0].name)
			return ctx_oom(c);
		t->phases[0].loop = loop && l > 0 ? l : 1;
		t->loop = loop && l > 0 ? 1 : -1;
		if (parse_phase(c, t, path, o, true, &t->phases[0]))
			return -1;
	}
	if (check_unlocks(c, path, phases != NULL, t))
		return -1;
	count_barrier_users(c, t);
	return 0;
}

static int parse_tasks(struct wl_ctx *c, struct json_object *o)
{
	struct workload *wl = c->wl;
	size_t n;

	if (!o)
		return ctx_fail(c, "tasks", AT_KEY, "missing (a workload needs a \"tasks\" object)");
	if (want_type(c, "tasks", o, json_type_object, "an object of tasks"))
		return -1;
	n = (size_t)json_object_object_length(o);
	if (!n)
		return ctx_fail(c, "tasks", AT_VAL, "no task defined");
	wl->tasks = calloc(n, sizeof(*wl->tasks));
	if (!wl->tasks)
		return ctx_oom(c);
	json_object_object_foreach(o, name, v) {
		if (parse_task(c, name, v, &wl->tasks[wl->nr_tasks++]))
			return -1;
	}
	return 0;
}

/* ---- the file ---- */

static const char *const root_keys[] = { "global", "tasks", "resources", NULL };

static int parse_root(struct wl_ctx *c, struct json_object *root)
{
	const char *const *lists[] = { root_keys, NULL };
	struct json_object *global = NULL, *tasks = NULL, *resources = NULL;

	if (!json_object_is_type(root, json_type_object))
		return ctx_fail(c, "", AT_VAL, "the top level must be an object, not %s",
				json_kind(root));
	json_object_object_foreach(root, key, v) {
		if (!strcmp(key, "global"))
			global = v;
		else if (!strcmp(key, "tasks"))
			tasks = v;
		else if (!strcmp(key, "resources"))
			resources = v;
		else
			return fail_unknown(c, key, key, "key", " at top level", lists);
	}
	if (global_defaults(&c->wl->global))
		return ctx_oom(c);
	/* global first: default_policy applies to the tasks */
	if (global && parse_global(c, global))
		return -1;
	if (resources && parse_resources(c, resources))
		return -1;
	return parse_tasks(c, tasks);
}

/* Where parsing stopped, as json-c reports it, in line:col. */
static int fail_syntax(struct wl_ctx *c, struct json_tokener *tok)
{
	enum json_tokener_error e = json_tokener_get_error(tok);
	char shortp[80];
	struct wl_loc *loc;
	const char *path;
	struct wl_pos pos;
	size_t off;

	off = e == json_tokener_continue ? c->len : json_tokener_get_parse_end(tok);
	pos = wl_loc_pos(c->buf, c->len, off);
	/* json-c has no path: the locator, run on the text before the error, has */
	loc = wl_loc_create(c->buf, off);
	path = loc ? wl_loc_path_at(loc, off) : NULL;
	/* a broken quote can make a "key" of the rest of the file: keep its start */
	if (path && strlen(path) > 72) {
		snprintf(shortp, sizeof(shortp), "%.72s...", path);
		path = shortp;
	}
	dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: %s%s%s%s", c->name, pos.line, pos.col,
		    path ? path : "", path ? ": " : "",
		    e == json_tokener_continue ? "unexpected end of file (truncated json)" :
		    "json syntax: ", e == json_tokener_continue ? "" : json_tokener_error_desc(e));
	wl_loc_free(loc);
	return -1;
}

/*
 * Only whitespace and comments may follow the top-level value, and one ','
 * (json-c as rt-app calls it stops at the end of the object).
 */
static int check_trailing(struct wl_ctx *c, size_t off)
{
	bool comma = false;
	struct wl_pos pos;

	while (off < c->len) {
		const char *p = c->buf + off;

		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			off++;
		} else if (*p == '/' && off + 1 < c->len && p[1] == '/') {
			while (off < c->len && c->buf[off] != '\n')
				off++;
		} else if (*p == '/' && off + 1 < c->len && p[1] == '*') {
			const char *end = memmem(p + 2, c->len - off - 2, "*/", 2);

			if (!end)
				break;
			off = (size_t)(end - c->buf) + 2;
		} else if (*p == ',' && !comma) {
			comma = true;
			off++;
		} else {
			break;
		}
	}
	if (off >= c->len)
		return 0;
	pos = wl_loc_pos(c->buf, c->len, off);
	return dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: json syntax: data after the "
			   "top-level object", c->name, pos.line, pos.col);
}

static struct json_object *parse_json(struct wl_ctx *c)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	if (!tok) {
		ctx_oom(c);
		return NULL;
	}
	root = json_tokener_parse_ex(tok, c->buf, (int)c->len);
	if (!root) {
		fail_syntax(c, tok);
	} else if (check_trailing(c, json_tokener_get_parse_end(tok))) {
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	return root;
}


/* "tasks.T.phases", T a task of @root with "phases": an object of phases. */
static bool is_phases_object(struct json_object *root, const char *path)
{
	struct json_object *tasks, *task;
	size_t len = strlen(path);
	char *name;
	bool found;

	if (strncmp(path, "tasks.", 6) || len < 6 + 7 || strcmp(path + len - 7, ".phases") ||
	    !json_object_object_get_ex(root, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_object))
		return false;
	name = strndup(path + 6, len - 6 - 7);
	if (!name)
		return false;
	found = json_object_object_get_ex(tasks, name, &task) &&
		json_object_object_get_ex(task, "phases", NULL);
	free(name);
	return found;
}

/*
 * "tasks.T" or "tasks.T.phases.P": an object whose keys are events.  Task
 * and phase names may hold dots (rt-app's mp3 example has a task
 * "mp3.decoder"), so the path is held against the names @root has, not
 * split at its dots; P is a phase of @root or one renamed before
 * (@renamed: the @nr_renamed paths of phases renamed so far).
 */
static bool is_event_object(struct json_object *root, const char *path,
			    char *const *renamed, size_t nr_renamed)
{
	struct json_object *tasks, *task, *phases;
	const char *t;
	char *name;
	bool found;
	size_t i;

	if (strncmp(path, "tasks.", 6) || !json_object_object_get_ex(root, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_object))
		return false;
	if (json_object_object_get_ex(tasks, path + 6, NULL))
		return true;
	for (i = 0; i < nr_renamed; i++)
		if (!strcmp(renamed[i], path))
			return true;
	/* each ".phases." in the path may end the task's name */
	for (t = strstr(path + 6, ".phases."); t; t = strstr(t + 1, ".phases.")) {
		name = strndup(path + 6, (size_t)(t - path - 6));
		if (!name)
			return false;
		found = json_object_object_get_ex(tasks, name, &task);
		free(name);
		if (found && json_object_object_get_ex(task, "phases", &phases) &&
		    json_object_is_type(phases, json_type_object) &&
		    json_object_object_get_ex(phases, t + 8, NULL))
			return true;
	}
	return false;
}

/*
 * rt-app's workgen renames a repeated key; we do too for events, whose
 * order is their meaning, and for phases, which run in file order whatever
 * their names (rt-app's spreading-tasks example repeats "heavy1"; said with
 * a warning, as a repeated phase is often a copy and paste).  Any other
 * repeated key is refused: rt-app would ignore the renamed one ("loop1"),
 * or two tasks share a name.
 */
static int check_renames(struct wl_ctx *c, struct json_object *root)
{
	size_t i, n = wl_loc_nr_renames(c->loc), nr_phases = 0;
	char **phases = NULL;	/* the renamed phases' paths (borrowed) */
	int ret = -1;

	for (i = 0; i < n; i++) {
		const struct wl_loc_rename *r = wl_loc_rename_at(c->loc, i);
		struct wl_pos first = wl_loc_pos_of(c->loc, r->first_key);
		struct wl_pos second = wl_loc_pos_of(c->loc, r->key_off);
		size_t plen = strlen(r->path) - strlen(r->key) - strlen(r->suffix);
		char *parent = strndup(r->path, plen ? plen - 1 : 0);
		bool ok;

		if (!parent) {
			ctx_oom(c);
			goto out;
		}
		ok = is_event_object(root, parent, phases, nr_phases) && ev_classify(r->key) >= 0;
		if (!ok && is_phases_object(root, parent)) {
			char **p = realloc(phases, (nr_phases + 1) * sizeof(*p));

			ok = true;
			if (p)
				(phases = p)[nr_phases++] = r->path;
			if (!p || ctx_warn(c, r->path, AT_KEY, "phase '%s' repeated (first at line "
					   "%d): renamed '%s%s', as rt-app's workgen does", r->key,
					   first.line, r->key, r->suffix)) {
				if (!p)
					ctx_oom(c);
				free(parent);
				goto out;
			}
		}
		if (!ok && !strcmp(parent, "tasks")) {
			dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: %s.%s: duplicate task "
				    "name '%s' (first at line %d)", c->name, second.line,
				    second.col, parent, r->key, r->key, first.line);
		} else if (!ok) {
			dlb_err_set(c->err, DLB_EXIT_BAD_INPUT, "%s:%d:%d: %s%s%s: duplicate key "
				    "'%s' (first at line %d; only events may repeat)", c->name,
				    second.line, second.col, parent, *parent ? "." : "", r->key,
				    r->key, first.line);
		}
		free(parent);
		if (!ok)
			goto out;
	}
	ret = 0;
out:
	free(phases);
	return ret;
}

/* The text json-c parses: the source with workgen's renames applied. */
static struct json_object *parse_renamed(struct wl_ctx *c)
{
	size_t i, n = wl_loc_nr_renames(c->loc), extra = 0, at = 0, o = 0;
	struct json_object *root;
	char *b;

	for (i = 0; i < n; i++)
		extra += strlen(wl_loc_rename_at(c->loc, i)->suffix);
	b = malloc(c->len + extra + 1);
	if (!b) {
		ctx_oom(c);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct wl_loc_rename *r = wl_loc_rename_at(c->loc, i);
		size_t sl = strlen(r->suffix);

		memcpy(b + o, c->buf + at, r->quote_off - at);
		o += r->quote_off - at;
		memcpy(b + o, r->suffix, sl);
		o += sl;
		at = r->quote_off;
	}
	memcpy(b + o, c->buf + at, c->len - at);
	o += c->len - at;
	b[o] = '\0';
	root = json_tokener_parse(b);
	free(b);
	if (!root)
		ctx_oom(c);	/* the source parsed, so only memory can fail */
	return root;
}

/*
 * Messages are one line: keys and names come from the file and may hold
 * control characters (a "\n" escape, or a broken quote that swallowed
 * lines), so those become '?'.
 */
static int err_one_line(struct dlb_err *err)
{
	char *p;

	if (!err)
		return -1;
	for (p = err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -1;
}

static int load_buffer(const char *name, const char *buf, size_t len,
		       const struct dl_param_limits *lim, struct workload **out,
		       struct dlb_err *err);

int wl_load_buffer(const char *name, const char *buf, size_t len,
		   const struct dl_param_limits *lim, struct workload **out, struct dlb_err *err)
{
	return load_buffer(name, buf, len, lim, out, err) ? err_one_line(err) : 0;
}

static int load_buffer(const char *name, const char *buf, size_t len,
		       const struct dl_param_limits *lim, struct workload **out,
		       struct dlb_err *err)
{
	struct wl_ctx c = { .name = name, .buf = buf, .len = len, .lim = lim, .err = err };
	struct json_object *root = NULL;
	size_t bare_len;
	char *bare;
	int ret = -1;

	if (len == 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:1:1: file is empty", name);
	if (len > INT32_MAX)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: file too large", name);
	/*
	 * workgen's other rewrite: a bare "suspend" key gets the task's name
	 * ("" here).  Positions after it on its line move by the 5 bytes
	 * added, as in the file workgen hands to rt-app.
	 */
	bare = wl_loc_bare_suspend(buf, len, &bare_len);
	if (!bare && bare_len)
		return ctx_oom(&c);
	if (bare) {
		c.buf = buf = bare;
		c.len = len = bare_len;
	}
	root = parse_json(&c);
	if (!root) {
		free(bare);
		return -1;
	}
	c.loc = wl_loc_create(buf, len);
	c.wl = calloc(1, sizeof(*c.wl));
	if (!c.loc || !c.wl) {
		ctx_oom(&c);
		goto out;
	}
	if (wl_loc_nr_renames(c.loc)) {
		if (check_renames(&c, root))
			goto out;
		json_object_put(root);
		root = parse_renamed(&c);
		if (!root)
			goto out;
	}
	c.wl->path = strdup(name);
	if (!c.wl->path) {
		ctx_oom(&c);
		goto out;
	}
	if (parse_root(&c, root))
		goto out;
	*out = c.wl;
	c.wl = NULL;
	ret = 0;
out:
	wl_free(c.wl);
	wl_loc_free(c.loc);
	free(c.res_slot);
	free(c.res_seen);
	json_object_put(root);
	free(bare);
	return ret;
}

static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b = malloc(cap), *nb;
	ssize_t r;

	if (!b)
		return -1;
	for (;;) {
		if (n == cap) {
			nb = realloc(b, cap * 2);
			if (!nb)
				goto fail;
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	return -1;
}

static int fail_errno(struct dlb_err *err, const char *path, const char *what, int e)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s", strerror(e));
	msg[0] = (char)tolower((unsigned char)msg[0]);
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s: %s", path, what, msg);
}

int wl_load_file(const char *path, const struct dl_param_limits *lim,
		 struct workload **out, struct dlb_err *err)
{
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t len;
	int ret, e;

	if (fd < 0) {
		fail_errno(err, path, "cannot open", errno);
		return err_one_line(err);
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: is a directory, not a workload file",
			    path);
		return err_one_line(err);
	}
	ret = read_all(fd, &buf, &len);
	e = errno;
	if (!is_stdin)
		close(fd);
	if (ret) {
		fail_errno(err, path, "cannot read", e);
		return err_one_line(err);
	}
	ret = wl_load_buffer(is_stdin ? "<stdin>" : path, buf, len, lim, out, err);
	free(buf);
	return ret;
}

/* ---- the model ---- */

void wl_free(struct workload *wl)
{
	size_t i, p, e;

	if (!wl)
		return;
	for (i = 0; i < wl->nr_tasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		for (p = 0; p < t->nr_phases; p++) {
			for (e = 0; e < t->phases[p].nr_events; e++)
				free(t->phases[p].events[e].key);
			free(t->phases[p].events);
			free(t->phases[p].name);
		}
		free(t->phases);
		free(t->name);
	}
	free(wl->tasks);
	for (i = 0; i < wl->nr_resources; i++)
		free(wl->resources[i].name);
	free(wl->resources);
	for (i = 0; i < wl->nr_warnings; i++)
		free(wl->warnings[i]);
	free(wl->warnings);
	free(wl->global.logdir);
	free(wl->global.log_basename);
	free(wl->global.ftrace_categories);
	free(wl->global.io_device);
	free(wl->path);
	free(wl);
}

u64 wl_dl_bandwidth(const struct workload *wl)
{
	u64 bw = 0;
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (t->policy == WL_POLICY_DEADLINE)
			bw += (u64)t->instances * to_ratio(dl_params_period(&t->dl), t->dl.runtime);
	}
	return bw;
}

int wl_warnings_write(const struct workload *wl, const char *prog, FILE *f)
{
	size_t i;

	for (i = 0; i < wl->nr_warnings; i++)
		if (fprintf(f, "%s: warning: %s\n", prog, wl->warnings[i]) < 0)
			return -1;
	return (int)wl->nr_warnings;
}
