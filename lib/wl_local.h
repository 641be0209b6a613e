/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to the workload loader (workload.c and its wl_*.c sections):
 * the loading context and its helpers, then the position locator.
 *
 * The locator: a position locator over the JSON source.
 *
 * json-c is the parser; it keeps no positions and silently keeps the last of
 * two equal keys.  The locator scans the (already valid) source text once,
 * skipping strings and comments, and records for every key path
 * ("tasks.t0.dl-runtime", "tasks.t0.cpus[1]") where its key and its value
 * start, so that semantic errors can name file:line:col, and repeated keys
 * can be renamed (as rt-app's workgen does) or refused.
 */
#ifndef DLBENCH_WL_LOCAL_H
#define DLBENCH_WL_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "dlbench/workload.h"

struct wl_loc;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define WL_PATH_MAX		1024
/* Largest duration in µs whose ns fit in 63 bits (dl_time_before's range). */
#define WL_US_MAX		(INT64_MAX / NSEC_PER_USEC)
#define WL_MEM_BUF_DEFAULT	(4ULL << 20)	/* rt-app's DEFAULT_MEM_BUF_SIZE */
#define WL_PRIO_RT_DEFAULT	10		/* rt-app's DEFAULT_THREAD_PRIORITY */
#define WL_UCLAMP_MAX		1024		/* the kernel's SCHED_CAPACITY_SCALE */

/* One load: the file, its locator, the model being built, the error. */
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
	struct json_object *tasks;	/* the "tasks" object: fork names a task of it */
};

/* Where a message points: a path's key, or its value. */
enum wl_at { AT_KEY, AT_VAL };

/*
 * wl_json.c: messages and typed values.  Every failing helper has set
 * c->err (one line, "file:line:col: path: what") and returns -1.
 */

/* Position of @path, or of its nearest ancestor that the file has. */
struct wl_pos wl_ctx_pos(struct wl_ctx *c, const char *path, enum wl_at at);
int wl_ctx_fail(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int wl_ctx_oom(struct wl_ctx *c);
/*
 * Accept, but tell the caller: the line goes into wl->warnings, in the
 * error's format ("file:line:col: path: what"), for main() to print.
 * Returns 0, or -1 out of memory.
 */
int wl_ctx_warn(struct wl_ctx *c, const char *path, enum wl_at at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "path.key" into @out (WL_PATH_MAX bytes), truncated. */
void wl_path_child(char *out, const char *path, const char *key);
/* "an integer", "a string", ...: for messages. */
const char *wl_json_kind(struct json_object *o);
int wl_want_type(struct wl_ctx *c, const char *path, struct json_object *o,
		 enum json_type type, const char *what);
/* A non-negative integer up to @max; @unit names it in messages ("us"). */
int wl_get_u64(struct wl_ctx *c, const char *path, struct json_object *o, u64 max,
	       const char *unit, u64 *out);
/* A duration in µs, converted once to ns. */
int wl_get_us(struct wl_ctx *c, const char *path, struct json_object *o, u64 *ns);
int wl_get_int(struct wl_ctx *c, const char *path, struct json_object *o, int min, int max,
	       int *out);
int wl_get_bool(struct wl_ctx *c, const char *path, struct json_object *o, bool *out);
/* A copy of the string into *@out (the old value freed). */
int wl_get_str(struct wl_ctx *c, const char *path, struct json_object *o, char **out);
int wl_get_policy(struct wl_ctx *c, const char *path, struct json_object *o,
		  enum wl_policy *out);
/*
 * Refuse an unknown key, suggesting the nearest of @lists (NULL-terminated
 * lists of NULL-terminated lists).  @what: "key", or "key or event" where
 * rt-app events may appear; @where: " in task".
 */
int wl_fail_unknown(struct wl_ctx *c, const char *path, const char *key, const char *what,
		    const char *where, const char *const *const *lists);
bool wl_in_list(const char *key, const char *const *list);

/* wl_resources.c */
extern const char *const wl_res_type_names[];
/* The resource's index, declared here on first use; -1 on error. */
int wl_res_add(struct wl_ctx *c, const char *name, enum wl_res_type type,
	       const char *path, enum wl_at at);
int wl_parse_resources(struct wl_ctx *c, struct json_object *o);

/* wl_global.c: wl_global_defaults() returns -1 only when out of memory. */
int wl_global_defaults(struct wl_global *g);
int wl_parse_global(struct wl_ctx *c, struct json_object *o);

/* wl_events.c: rt-app's event keys, matched by prefix; type -1: refused by name. */
struct wl_ev_desc {
	const char *prefix;
	int type;
};
extern const struct wl_ev_desc wl_ev_descs[];
extern const char *const wl_ev_names[];		/* for "did you mean" */
extern const char *const wl_task_unsupported[];	/* rt-app task keys refused by name */
extern const char *const wl_phase_unsupported[];	/* ... phase keys */
extern const char *const wl_membind_keys[];		/* "nodes_membind" and its old name */
/* The index in wl_ev_descs of the event @key names, or -1. */
int wl_ev_classify(const char *key);
int wl_parse_event(struct wl_ctx *c, const struct wl_task *t, const char *path,
		   struct json_object *v, enum wl_event_type type, struct wl_event *ev);

/* wl_tasks.c: the "tasks" object. */
int wl_parse_tasks(struct wl_ctx *c, struct json_object *o);

/* wl_locate.c */

/*
 * A key seen twice in one object, renamed as rt-app's workgen renames it
 * ("run", "sleep", "run" -> "run", "sleep", "run1"): json-c alone would
 * keep one value.  The caller decides which renames rt-app's meaning allows.
 */
struct wl_loc_rename {
	char *path;		/* the renamed key's path: "tasks.t0.run1" */
	char *key;		/* as written: "run" */
	char *suffix;		/* appended: "1" */
	size_t first_key;	/* byte offset of the first occurrence's key */
	size_t key_off;		/* ... of this one's key */
	size_t quote_off;	/* ... of this key's closing quote: the suffix goes there */
};

/*
 * Index @buf (which must outlive the index), renaming repeated keys (the
 * paths use the new names).  Returns NULL only when out of memory.
 */
struct wl_loc *wl_loc_create(const char *buf, size_t len);
void wl_loc_free(struct wl_loc *loc);

/*
 * rt-app's workgen turns a bare "suspend" key (no value: `"suspend",`)
 * into `"suspend" : "<task name>"` before rt-app parses the file.  Returns
 * a copy of @buf (@len bytes) with ` : ""` after every key holding
 * "suspend" that is followed by ',' or '}' (the loader reads "" as the
 * task's own name), its length in *@out_len; NULL with *@out_len 0 when
 * there is none, NULL with *@out_len 1 when out of memory.
 */
char *wl_loc_bare_suspend(const char *buf, size_t len, size_t *out_len);

/* The renames, in file order. */
size_t wl_loc_nr_renames(const struct wl_loc *loc);
const struct wl_loc_rename *wl_loc_rename_at(const struct wl_loc *loc, size_t i);

/*
 * Offsets of the key and of the value of @path; -1 if the path is unknown.
 * Cheapest when asked in file order (the loader's order): the entries
 * just after the last one found are tried before the hash table.
 */
int wl_loc_find(struct wl_loc *loc, const char *path, size_t *key_off, size_t *val_off);

/*
 * The deepest path whose key or value contains byte @off, or NULL.  Works on
 * a prefix of broken text too, to name where a syntax error is.
 */
const char *wl_loc_path_at(const struct wl_loc *loc, size_t off);

/*
 * 1-based line and column (in characters) of byte @off in @buf (@off past
 * the end: the end).  wl_loc_pos() counts from the start, for text the
 * locator has not indexed; wl_loc_pos_of() gives the same answer from the
 * index in constant time (the loader asks once per task, phase and event).
 */
struct wl_pos wl_loc_pos(const char *buf, size_t len, size_t off);
struct wl_pos wl_loc_pos_of(const struct wl_loc *loc, size_t off);

#endif
