// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader's events: rt-app's event keys (matched by prefix),
 * the keys refused by name, and each event's value.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/workload.h"
#include "wl_local.h"

/*
 * rt-app matches an event key by prefix ("run1", "sleep_long"), in this
 * order; "runtime" must come before "run".  type -1 would be an rt-app
 * event we do not support yet, refused by name.
 */
const struct wl_ev_desc wl_ev_descs[] = {
	{ "sem_post", WL_EV_SEM_POST }, { "sem_wait", WL_EV_SEM_WAIT },
	{ "lock", WL_EV_LOCK }, { "unlock", WL_EV_UNLOCK }, { "wait", WL_EV_WAIT },
	{ "signal", WL_EV_SIGNAL }, { "broad", WL_EV_BROAD }, { "sync", WL_EV_SYNC },
	{ "sleep", WL_EV_SLEEP }, { "runtime", WL_EV_RUNTIME }, { "run", WL_EV_RUN },
	{ "timer", WL_EV_TIMER }, { "suspend", WL_EV_SUSPEND }, { "resume", WL_EV_RESUME },
	{ "mem", WL_EV_MEM }, { "iorun", WL_EV_IORUN }, { "yield", WL_EV_YIELD },
	{ "barrier", WL_EV_BARRIER }, { "fork", WL_EV_FORK },
};

const char *const wl_ev_names[] = {
	"sem_post", "sem_wait", "lock", "unlock", "wait", "signal", "broad", "sync", "sleep",
	"runtime", "run", "timer", "suspend", "resume", "mem", "iorun", "yield", "barrier", "fork",
	NULL
};

/* rt-app task keys we do not implement: refused by name. */
const char *const wl_task_unsupported[] = {
	"nodes_membind", "membind_nodes", "util_min", "util_max", "period",
	"deadline", "lock_order", "resources", NULL
};

/* rt-app lets a phase change the task's properties; we do not, yet. */
const char *const wl_phase_unsupported[] = {
	"nodes_membind", "membind_nodes", "policy", "priority", "dl-runtime",
	"dl-period", "dl-deadline", "dl-flags", "util_min", "util_max", NULL
};

/*
 * Asked for every key of every task (twice for a task's own keys): the
 * first character is compared before the prefix, and the unsupported
 * lists are only searched for a key longer than its prefix (no event name
 * is in them), which made it a tenth of the cost of loading a large file.
 */
int wl_ev_classify(const char *key)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(wl_ev_descs); i++) {
		if (key[0] != wl_ev_descs[i].prefix[0])
			continue;
		n = strlen(wl_ev_descs[i].prefix);
		if (!strncmp(key, wl_ev_descs[i].prefix, n))
			break;
	}
	if (i == ARRAY_SIZE(wl_ev_descs))
		return -1;
	/* rt-app keys that start like an event: "membind_nodes", "lock_order" */
	if (key[n] && (wl_in_list(key, wl_task_unsupported) || wl_in_list(key, wl_phase_unsupported)))
		return -1;
	return (int)i;
}

const char *wl_event_type_str(enum wl_event_type type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wl_ev_descs); i++)
		if (wl_ev_descs[i].type == (int)type)
			return wl_ev_descs[i].prefix;
	return "unknown";
}

static int ev_res(struct wl_ctx *c, const char *path, struct json_object *v,
		  enum wl_res_type type)
{
	if (wl_want_type(c, path, v, json_type_string, "a string (a resource name)"))
		return -1;
	if (!*json_object_get_string(v))
		return wl_ctx_fail(c, path, AT_VAL, "empty %s name", wl_res_type_names[type]);
	return wl_res_add(c, json_object_get_string(v), type, path, AT_VAL);
}

/* wait and sync: {"ref": condition, "mutex": mutex}, both required. */
static int ev_wait(struct wl_ctx *c, const char *path, struct json_object *v,
		   struct wl_event *ev)
{
	static const char *const keys[] = { "ref", "mutex", NULL };
	const char *const *lists[] = { keys, NULL };
	char kpath[WL_PATH_MAX];
	struct json_object *ref = NULL, *mutex = NULL;

	if (wl_want_type(c, path, v, json_type_object, "an object {\"ref\", \"mutex\"}"))
		return -1;
	json_object_object_foreach(v, k, kv) {
		wl_path_child(kpath, path, k);
		if (!strcmp(k, "ref"))
			ref = kv;
		else if (!strcmp(k, "mutex"))
			mutex = kv;
		else
			return wl_fail_unknown(c, kpath, k, "key", "", lists);
	}
	if (!ref)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"ref\" (the condition to wait on)");
	if (!mutex)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"mutex\" (the mutex the wait "
				   "releases)");
	wl_path_child(kpath, path, "ref");
	ev->res = ev_res(c, kpath, ref, WL_RES_COND);
	if (ev->res < 0)
		return -1;
	wl_path_child(kpath, path, "mutex");
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

	if (wl_want_type(c, path, v, json_type_object, "an object {\"ref\", \"period\"}"))
		return -1;
	json_object_object_foreach(v, k, kv) {
		wl_path_child(kpath, path, k);
		if (!strcmp(k, "ref"))
			ref = kv;
		else if (!strcmp(k, "period"))
			period = kv;
		else if (!strcmp(k, "mode"))
			mode = kv;
		else
			return wl_fail_unknown(c, kpath, k, "key", "", lists);
	}
	if (!ref)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"ref\" (the timer's name)");
	if (!period)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"period\" (us)");
	wl_path_child(kpath, path, "period");
	if (wl_get_us(c, kpath, period, &ev->duration_ns))
		return -1;
	ev->timer_relative = true;	/* rt-app's default */
	if (mode) {
		wl_path_child(kpath, path, "mode");
		if (wl_want_type(c, kpath, mode, json_type_string, "a string"))
			return -1;
		if (!strcmp(json_object_get_string(mode), "absolute"))
			ev->timer_relative = false;
		else if (strcmp(json_object_get_string(mode), "relative"))
			return wl_ctx_fail(c, kpath, AT_VAL, "'%s' is not \"relative\" or \"absolute\"",
					   json_object_get_string(mode));
	}
	wl_path_child(kpath, path, "ref");
	if (wl_want_type(c, kpath, ref, json_type_string, "a string (the timer's name)"))
		return -1;
	r = json_object_get_string(ref);
	if (strncmp(r, "unique", 6))
		return (ev->res = wl_res_add(c, r, WL_RES_TIMER, kpath, AT_VAL)) < 0 ? -1 : 0;
	/* rt-app: a "unique..." timer is private to each thread of the task */
	if (asprintf(&name, "%s@%s", r, t->name) < 0)
		return wl_ctx_oom(c);
	idx = wl_res_add(c, name, WL_RES_TIMER, kpath, AT_VAL);
	free(name);
	if (idx < 0)
		return -1;
	c->wl->resources[idx].unique = true;
	ev->res = idx;
	return 0;
}

/*
 * fork: the name of a task of the file, declared before or after this one
 * (rt-app finds it when the fork runs, and exits if there is none).
 */
static int ev_fork(struct wl_ctx *c, const char *path, struct json_object *v,
		   struct wl_event *ev)
{
	const char *name;
	int i = 0;

	if (wl_want_type(c, path, v, json_type_string, "a string (the name of the task to fork)"))
		return -1;
	name = json_object_get_string(v);
	json_object_object_foreach(c->tasks, k, kv) {
		(void)kv;
		if (!strcmp(k, name)) {
			ev->task = i;
			return 0;
		}
		i++;
	}
	return wl_ctx_fail(c, path, AT_VAL, "fork of '%s': no such task in \"tasks\"", name);
}

int wl_parse_event(struct wl_ctx *c, const struct wl_task *t, const char *path,
		   struct json_object *v, enum wl_event_type type, struct wl_event *ev)
{
	const char *s;

	switch (type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		return wl_get_us(c, path, v, &ev->duration_ns);
	case WL_EV_MEM:
	case WL_EV_IORUN:
		return wl_get_u64(c, path, v, INT64_MAX, "", &ev->size);
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
		if (wl_want_type(c, path, v, json_type_string, "a string"))
			return -1;
		/* workgen fills an empty suspend with the thread's own name */
		s = json_object_get_string(v);
		ev->res = wl_res_add(c, *s ? s : t->name, WL_RES_WAKEUP, path, AT_VAL);
		return ev->res < 0 ? -1 : 0;
	case WL_EV_YIELD:
		return wl_want_type(c, path, v, json_type_string, "a string (may be empty)");
	case WL_EV_FORK:
		return ev_fork(c, path, v, ev);
	}
	return wl_ctx_fail(c, path, AT_KEY, "internal: event type %d", (int)type);
}
