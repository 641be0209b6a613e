/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to the workload loader: a position locator over the JSON source.
 *
 * json-c is the parser; it keeps no positions and silently keeps the last of
 * two equal keys.  The locator scans the (already valid) source text once,
 * skipping strings and comments, and records for every key path
 * ("tasks.t0.dl-runtime", "tasks.t0.cpus[1]") where its key and its value
 * start, so that semantic errors can name file:line:col, and duplicate keys
 * can be refused.
 */
#ifndef DLBENCH_WL_LOCAL_H
#define DLBENCH_WL_LOCAL_H

#include <stddef.h>

#include "dlbench/workload.h"

struct wl_loc;

struct wl_loc_dup {
	char *path;		/* path of the second occurrence */
	size_t first_key;	/* byte offsets of the two keys */
	size_t second_key;
};

/*
 * Index @buf (which must outlive the index).  Returns NULL only when out of memory.  If a key occurs twice
 * in one object, @dup is filled for the duplicate that comes first in the
 * file (the caller frees dup->path); else dup->path is NULL.
 */
struct wl_loc *wl_loc_create(const char *buf, size_t len, struct wl_loc_dup *dup);
void wl_loc_free(struct wl_loc *loc);

/* Offsets of the key and of the value of @path; -1 if the path is unknown. */
int wl_loc_find(const struct wl_loc *loc, const char *path, size_t *key_off, size_t *val_off);

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
