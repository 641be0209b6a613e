// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader: rt-app's JSON grammar into struct workload.
 *
 * json-c parses; the locator (wl_locate.c) finds positions for errors found
 * afterwards.  Every key is either understood, refused by name as "not
 * supported yet", or refused as unknown: nothing is ignored.  Times are µs in
 * the file and converted once, in wl_json.c, into u64 ns.
 *
 * This file reads the file and walks its root; the sections are
 * wl_global.c, wl_resources.c and wl_tasks.c (their events: wl_events.c),
 * parsed with the helpers of wl_json.c (wl_local.h); the model's own
 * functions are in wl_model.c.
 * Grammar, defaults and our deviations from rt-app: docs/workload.md.
 */
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

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/workload.h"
#include "wl_local.h"

static const char *const root_keys[] = { "global", "tasks", "resources", NULL };

static int parse_root(struct wl_ctx *c, struct json_object *root)
{
	const char *const *lists[] = { root_keys, NULL };
	struct json_object *global = NULL, *tasks = NULL, *resources = NULL;

	if (!json_object_is_type(root, json_type_object))
		return wl_ctx_fail(c, "", AT_VAL, "the top level must be an object, not %s",
				   wl_json_kind(root));
	json_object_object_foreach(root, key, v) {
		if (!strcmp(key, "global"))
			global = v;
		else if (!strcmp(key, "tasks"))
			tasks = v;
		else if (!strcmp(key, "resources"))
			resources = v;
		else
			return wl_fail_unknown(c, key, key, "key", " at top level", lists);
	}
	if (wl_global_defaults(&c->wl->global))
		return wl_ctx_oom(c);
	/* global first: default_policy applies to the tasks */
	if (global && wl_parse_global(c, global))
		return -1;
	if (resources && wl_parse_resources(c, resources))
		return -1;
	return wl_parse_tasks(c, tasks);
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
		wl_ctx_oom(c);
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
 * a warning, as a repeated phase is often a copy and paste, and rt-app
 * itself runs only one: workgen leaves a key whose object opens on its
 * line, and json-c keeps the second value in the first key's place).  Any other
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
			wl_ctx_oom(c);
			goto out;
		}
		ok = is_event_object(root, parent, phases, nr_phases) && wl_ev_classify(r->key) >= 0;
		if (!ok && is_phases_object(root, parent)) {
			char **p = realloc(phases, (nr_phases + 1) * sizeof(*p));

			ok = true;
			if (p)
				(phases = p)[nr_phases++] = r->path;
			if (!p || wl_ctx_warn(c, r->path, AT_KEY, "phase '%s' repeated (first at line "
					      "%d): run as a phase of its own, '%s%s'; rt-app runs one "
					      "(json-c keeps the second in the first's place)", r->key,
					      first.line, r->key, r->suffix)) {
				if (!p)
					wl_ctx_oom(c);
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
		wl_ctx_oom(c);
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
		wl_ctx_oom(c);	/* the source parsed, so only memory can fail */
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
		return wl_ctx_oom(&c);
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
		wl_ctx_oom(&c);
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
		wl_ctx_oom(&c);
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
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s: %s", path, what, dlb_strerror(e));
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
