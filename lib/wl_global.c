// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader's "global" section and its defaults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/workload.h"
#include "wl_local.h"

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
		if (wl_get_u64(c, path, o, UINT32_MAX, "", &v))
			return -1;
		if (v == 0)
			return wl_ctx_fail(c, path, AT_VAL, "ns per loop must be at least 1");
		g->calibration_ns = v;
		g->calibration_cpu = -1;
		return 0;
	}
	if (wl_want_type(c, path, o, json_type_string, "\"CPUn\" or an integer (ns per loop)"))
		return -1;
	s = json_object_get_string(o);
	errno = 0;
	cpu = strncmp(s, "CPU", 3) ? -1 : strtol(s + 3, &end, 10);
	if (cpu < 0 || cpu >= DLB_MAX_CPUS || errno || end == s + 3 || *end)
		return wl_ctx_fail(c, path, AT_VAL, "'%s' is not \"CPUn\" with n in 0..%d", s,
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
		return g->ftrace_categories ? 0 : wl_ctx_oom(c);
	}
	if (wl_want_type(c, path, o, json_type_string, "a string or a boolean"))
		return -1;
	if (wl_get_str(c, path, o, &g->ftrace_categories))
		return -1;
	list = strdup(g->ftrace_categories);
	if (!list)
		return wl_ctx_oom(c);
	g->ftrace = false;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!wl_in_list(tok, cats)) {
			wl_ctx_fail(c, path, AT_VAL, "unknown ftrace category '%s' (main, task, run, "
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
		return wl_get_int(c, path, o, 0, 4095, &g->log_size);
	if (wl_want_type(c, path, o, json_type_string, "a string or an integer (MB)"))
		return -1;
	s = json_object_get_string(o);
	if (!strcasecmp(s, "disable"))
		g->log_size = 0;
	else if (!strcasecmp(s, "file") || !strcasecmp(s, "auto"))
		g->log_size = WL_LOG_FILE;	/* rt-app: "auto" falls back to "file" */
	else
		return wl_ctx_fail(c, path, AT_VAL, "'%s' is not \"file\", \"disable\", \"auto\" or "
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
		if (wl_get_int(c, path, v, -1, INT32_MAX, &sec))
			return -1;
		g->duration_ns = sec > 0 ? (u64)sec * NSEC_PER_SEC : 0;
		return 0;
	}
	if (!strcmp(key, "calibration"))
		return parse_calibration(c, path, v);
	if (!strcmp(key, "default_policy"))
		return wl_get_policy(c, path, v, &g->default_policy);
	if (!strcmp(key, "pi_enabled"))
		return wl_get_bool(c, path, v, &g->pi_enabled);
	if (!strcmp(key, "lock_pages"))
		return wl_get_bool(c, path, v, &g->lock_pages);
	if (!strcmp(key, "gnuplot"))
		return wl_get_bool(c, path, v, &g->gnuplot);
	if (!strcmp(key, "cumulative_slack"))
		return wl_get_bool(c, path, v, &g->cumulative_slack);
	if (!strcmp(key, "ftrace"))
		return parse_ftrace(c, path, v);
	if (!strcmp(key, "logdir"))
		return wl_get_str(c, path, v, &g->logdir);
	if (!strcmp(key, "log_basename"))
		return wl_get_str(c, path, v, &g->log_basename);
	if (!strcmp(key, "io_device"))
		return wl_get_str(c, path, v, &g->io_device);
	if (!strcmp(key, "log_size"))
		return parse_log_size(c, path, v);
	if (!strcmp(key, "mem_buffer_size")) {
		if (wl_get_u64(c, path, v, UINT32_MAX, "", &g->mem_buffer_size))
			return -1;
		if (!g->mem_buffer_size)
			return wl_ctx_fail(c, path, AT_VAL, "must be at least 1 byte");
		return 0;
	}
	/*
	 * rt-app 0.x's "fragment" (AQuoSA's, removed from rt-app in 2014),
	 * and "frag", the spelling of rt-app's own browser and mp3 examples:
	 * rt-app ignores both.  Accepted so those files run, said aloud.
	 */
	if (!strcmp(key, "frag") || !strcmp(key, "fragment"))
		return wl_ctx_warn(c, path, AT_KEY, "key '%s' ignored (rt-app 0.x's AQuoSA "
				   "'fragment', which rt-app ignores too)", key);
	{
		const char *const *lists[] = { global_keys, NULL };

		return wl_fail_unknown(c, path, key, "key", " in global", lists);
	}
}

int wl_global_defaults(struct wl_global *g)
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

int wl_parse_global(struct wl_ctx *c, struct json_object *o)
{
	char path[WL_PATH_MAX];

	if (wl_want_type(c, "global", o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, key, v) {
		wl_path_child(path, "global", key);
		if (parse_global_key(c, key, path, v))
			return -1;
	}
	return 0;
}
