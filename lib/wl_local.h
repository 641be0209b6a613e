/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to the workload loader: a position locator over the JSON source.
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

#include <stddef.h>

#include "dlbench/workload.h"

struct wl_loc;

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
