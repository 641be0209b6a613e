// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader's JSON walking: error and warning lines positioned by
 * the locator (file:line:col: path: what), the typed getters every section
 * parses its values with (µs converted once into u64 ns here), "did you
 * mean" for unknown keys, and the scheduling policy names.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/exitcode.h"
#include "dlbench/workload.h"
#include "wl_local.h"

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
struct wl_pos wl_ctx_pos(struct wl_ctx *c, const char *path, enum wl_at at)
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

int wl_ctx_fail(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ctx_vfail(c, wl_ctx_pos(c, path, at), path, fmt, ap);
	va_end(ap);
	return ret;
}

int wl_ctx_oom(struct wl_ctx *c)
{
	return dlb_err_set(c->err, DLB_EXIT_INTERNAL, "%s: out of memory", c->name);
}

/*
 * Accept, but tell the caller: the line goes into wl->warnings, in the
 * error's format ("file:line:col: path: what"), for main() to print.
 * Returns 0, or -1 out of memory.
 */
int wl_ctx_warn(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
{
	struct wl_pos pos = wl_ctx_pos(c, path, at);
	struct workload *wl = c->wl;
	char what[DLB_ERR_MAX], **w;
	va_list ap;
	char *p;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	w = realloc(wl->warnings, (wl->nr_warnings + 1) * sizeof(*w));
	if (!w)
		return wl_ctx_oom(c);
	wl->warnings = w;
	if (asprintf(&w[wl->nr_warnings], "%s:%d:%d: %s: %s", c->name, pos.line, pos.col,
		     path, what) < 0)
		return wl_ctx_oom(c);
	/* one line, as errors are (err_one_line) */
	for (p = w[wl->nr_warnings]; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	wl->nr_warnings++;
	return 0;
}

/* "path.key", as snprintf would (truncated), at a fraction of its cost. */
void wl_path_child(char *out, const char *path, const char *key)
{
	size_t n = path_put(out, 0, path);

	if (*path)
		n = path_put(out, n, ".");
	path_put(out, n, key);
}

const char *wl_json_kind(struct json_object *o)
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

int wl_want_type(struct wl_ctx *c, const char *path, struct json_object *o,
		 enum json_type type, const char *what)
{
	if (json_object_is_type(o, type))
		return 0;
	return wl_ctx_fail(c, path, AT_VAL, "must be %s, not %s", what, wl_json_kind(o));
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
int wl_get_u64(struct wl_ctx *c, const char *path, struct json_object *o, u64 max,
	       const char *unit, u64 *out)
{
	char raw[64];
	u64 v;

	if (wl_want_type(c, path, o, json_type_int, unit[0] ? "an integer (us)" : "an integer"))
		return -1;
	v = json_object_get_uint64(o);
	if (json_object_get_int64(o) >= 0 && v <= max && v != UINT64_MAX) {
		*out = v;
		return 0;
	}
	/* only a refusal needs the text: a lookup per number made loading slower */
	raw_token(c, path, raw, sizeof(raw));
	if (json_object_get_int64(o) < 0)
		return wl_ctx_fail(c, path, AT_VAL, "%s%s%s%s is negative", *unit ? "duration " : "",
				   raw, *unit ? " " : "", unit);
	return wl_ctx_fail(c, path, AT_VAL, "%s%s%s overflows (at most %llu%s%s)", raw,
			   *unit ? " " : "", unit, (unsigned long long)max, *unit ? " " : "", unit);
}

/* A duration in µs, converted once to ns. */
int wl_get_us(struct wl_ctx *c, const char *path, struct json_object *o, u64 *ns)
{
	u64 us;

	if (wl_get_u64(c, path, o, WL_US_MAX, "us", &us))
		return -1;
	if (dlb_us_to_ns(us, ns))	/* cannot fail below WL_US_MAX; kept as the one converter */
		return wl_ctx_fail(c, path, AT_VAL, "%llu us overflows", (unsigned long long)us);
	return 0;
}

int wl_get_int(struct wl_ctx *c, const char *path, struct json_object *o, int min, int max,
	       int *out)
{
	int64_t v;

	if (wl_want_type(c, path, o, json_type_int, "an integer"))
		return -1;
	v = json_object_get_int64(o);
	if (v < min || v > max)
		return wl_ctx_fail(c, path, AT_VAL, "%lld is out of range (%d..%d)", (long long)v,
				   min, max);
	*out = (int)v;
	return 0;
}

int wl_get_bool(struct wl_ctx *c, const char *path, struct json_object *o, bool *out)
{
	if (wl_want_type(c, path, o, json_type_boolean, "a boolean (true or false)"))
		return -1;
	*out = json_object_get_boolean(o);
	return 0;
}

int wl_get_str(struct wl_ctx *c, const char *path, struct json_object *o, char **out)
{
	char *s;

	if (wl_want_type(c, path, o, json_type_string, "a string"))
		return -1;
	s = strdup(json_object_get_string(o));
	if (!s)
		return wl_ctx_oom(c);
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
int wl_fail_unknown(struct wl_ctx *c, const char *path, const char *key, const char *what,
		    const char *where, const char *const *const *lists)
{
	const char *hint = did_you_mean(key, lists);

	if (hint)
		return wl_ctx_fail(c, path, AT_KEY, "unknown %s '%s'%s (did you mean '%s'?)", what,
				   key, where, hint);
	return wl_ctx_fail(c, path, AT_KEY, "unknown %s '%s'%s", what, key, where);
}

bool wl_in_list(const char *key, const char *const *list)
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

const char *wl_policy_str(enum wl_policy policy)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "SCHED_UNKNOWN";
}

int wl_get_policy(struct wl_ctx *c, const char *path, struct json_object *o,
		  enum wl_policy *out)
{
	const char *s;
	size_t i;

	if (wl_want_type(c, path, o, json_type_string, "a string"))
		return -1;
	s = json_object_get_string(o);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		if (!strcmp(s, policies[i].name)) {
			*out = policies[i].policy;
			return 0;
		}
	}
	return wl_ctx_fail(c, path, AT_VAL, "unknown policy '%s' (SCHED_OTHER, SCHED_BATCH, "
			   "SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)", s);
}
