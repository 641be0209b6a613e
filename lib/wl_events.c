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
 * order; "runtime" must come before "run", "memrun" before "mem".  type -1 would be an rt-app
 * event we do not support yet, refused by name.
 */
const struct wl_ev_desc wl_ev_descs[] = {
	{ "sem_post", WL_EV_SEM_POST }, { "sem_wait", WL_EV_SEM_WAIT },
	{ "lock", WL_EV_LOCK }, { "unlock", WL_EV_UNLOCK }, { "wait", WL_EV_WAIT },
	{ "signal", WL_EV_SIGNAL }, { "broad", WL_EV_BROAD }, { "sync", WL_EV_SYNC },
	{ "sleep", WL_EV_SLEEP }, { "runtime", WL_EV_RUNTIME }, { "run", WL_EV_RUN },
	{ "timer", WL_EV_TIMER }, { "suspend", WL_EV_SUSPEND }, { "resume", WL_EV_RESUME },
	{ "memrun", WL_EV_MEMRUN }, { "mem", WL_EV_MEM }, { "iorun", WL_EV_IORUN }, { "yield", WL_EV_YIELD },
	{ "barrier", WL_EV_BARRIER }, { "fork", WL_EV_FORK },
};

const char *const wl_ev_names[] = {
	"sem_post", "sem_wait", "lock", "unlock", "wait", "signal", "broad", "sync", "sleep",
	"runtime", "run", "timer", "suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier", "fork",
	NULL
};

/* rt-app task keys we do not implement: refused by name. */
const char *const wl_task_unsupported[] = {
	"period", "deadline", "lock_order", "resources", NULL
};

/* rt-app lets a phase change the task's properties; we do not, yet. */
const char *const wl_phase_unsupported[] = {
	"policy", "priority", "dl-runtime", "dl-period", "dl-deadline", "dl-flags", NULL
};

/* NUMA binding: rt-app's "nodes_membind" and its name before 8e79e11 (2020). */
const char *const wl_membind_keys[] = { "nodes_membind", "membind_nodes", NULL };

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
	if (key[n] && (wl_in_list(key, wl_task_unsupported) || wl_in_list(key, wl_phase_unsupported) ||
		       wl_in_list(key, wl_membind_keys)))
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

/*
 * memrun (rt-app's parse_task_event_data): {"type": "read" | "write" |
 * "chase", "size": buffer bytes, "count": bytes or hops, "stride",
 * "pattern" (chase only), "ref"}.  rt-app reads size and count as ints.
 */
struct memrun_keys {
	struct json_object *type, *size, *count, *stride, *pattern, *ref;
};

static int memrun_int(struct wl_ctx *c, const char *path, const char *key,
		      struct json_object *v, int min, u64 *out)
{
	char kpath[WL_PATH_MAX];
	int n;

	wl_path_child(kpath, path, key);
	if (wl_get_int(c, kpath, v, min, INT32_MAX, &n))
		return -1;
	*out = (u64)n;
	return 0;
}

/* type, size, stride, pattern: into @r (a resource not yet added) */
static int memrun_params(struct wl_ctx *c, const char *path, const struct memrun_keys *k,
			 struct wl_resource *r)
{
	static const char *const types[] = { "read", "write", "chase" };
	char kpath[WL_PATH_MAX];
	const char *s;
	size_t i;

	wl_path_child(kpath, path, "type");
	if (wl_want_type(c, kpath, k->type, json_type_string, "a string"))
		return -1;
	s = json_object_get_string(k->type);
	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(s, types[i]))
			break;
	if (i == ARRAY_SIZE(types))
		return wl_ctx_fail(c, kpath, AT_VAL, "'%s' is not \"read\", \"write\" or "
				   "\"chase\"", s);
	r->type = (enum wl_res_type)(WL_RES_MEMREAD + i);
	if (memrun_int(c, path, "size", k->size, 1, &r->size))
		return -1;
	r->stride = 64;		/* rt-app's defaults */
	r->random = true;
	if (r->type != WL_RES_MEMCHASE) {
		/* rt-app reads them for a chase only */
		if (k->stride && wl_ctx_warn(c, path, AT_VAL, "\"stride\" is ignored by memrun "
					     "\"%s\" (rt-app reads it for \"chase\" only)", s))
			return -1;
		if (k->pattern && wl_ctx_warn(c, path, AT_VAL, "\"pattern\" is ignored by memrun "
					      "\"%s\" (rt-app reads it for \"chase\" only)", s))
			return -1;
		return 0;
	}
	/* a pointer every stride bytes: they must not overlap */
	if (k->stride && memrun_int(c, path, "stride", k->stride, (int)sizeof(void *),
				    &r->stride))
		return -1;
	if (k->pattern) {
		wl_path_child(kpath, path, "pattern");
		if (wl_want_type(c, kpath, k->pattern, json_type_string, "a string"))
			return -1;
		s = json_object_get_string(k->pattern);
		if (!strcmp(s, "sequential"))
			r->random = false;
		else if (strcmp(s, "random") &&
			 wl_ctx_warn(c, kpath, AT_VAL, "'%s' is not \"random\" or \"sequential\": "
				     "random, as rt-app does", s))
			return -1;
	}
	/* rt-app logs an error and chases nothing in a smaller buffer */
	if (r->size / r->stride < 2)
		return wl_ctx_fail(c, path, AT_VAL, "a chase needs \"size\" of at least 2 * "
				   "\"stride\" (%llu bytes)", (unsigned long long)(2 * r->stride));
	return 0;
}

/* The buffer: @want's, or the one "ref" names (which must agree with @want). */
static int memrun_buffer(struct wl_ctx *c, const struct wl_task *t, const char *path,
			 struct json_object *ref, const struct wl_resource *want)
{
	char kpath[WL_PATH_MAX], was[64] = "", *name;
	struct wl_resource *r;
	int idx;

	wl_path_child(kpath, path, "ref");
	if (ref) {
		/* one buffer shared by every thread naming it */
		if (wl_want_type(c, kpath, ref, json_type_string, "a string (the buffer's name)"))
			return -1;
		if (!*json_object_get_string(ref))
			return wl_ctx_fail(c, kpath, AT_VAL, "empty memrun buffer name");
		idx = wl_res_add(c, json_object_get_string(ref), want->type, kpath, AT_VAL);
	} else {
		/* rt-app: each thread's own, one per type, size, stride and pattern */
		if ((want->type == WL_RES_MEMCHASE ?
		     asprintf(&name, "memrun_%c_%llu_%llu@%s", want->random ? 'r' : 's',
			      (unsigned long long)want->stride, (unsigned long long)want->size,
			      t->name) :
		     asprintf(&name, "memrun_%s_%llu@%s",
			      want->type == WL_RES_MEMREAD ? "read" : "write",
			      (unsigned long long)want->size, t->name)) < 0)
			return wl_ctx_oom(c);
		idx = wl_res_add(c, name, want->type, path, AT_VAL);
		free(name);
	}
	if (idx < 0)
		return -1;
	r = &c->wl->resources[idx];
	if (!r->size) {		/* new */
		r->unique = !ref;
		r->size = want->size;
		r->stride = want->stride;
		r->random = want->random;
		return idx;
	}
	if (r->size == want->size && r->stride == want->stride && r->random == want->random)
		return idx;
	if (r->type == WL_RES_MEMCHASE)
		snprintf(was, sizeof(was), " stride %llu pattern %s",
			 (unsigned long long)r->stride, r->random ? "random" : "sequential");
	return wl_ctx_fail(c, kpath, AT_VAL, "memrun buffer '%s' has size %llu%s (%d:%d): every "
			   "use of one \"ref\" must agree on them (rt-app refuses the file)",
			   r->name, (unsigned long long)r->size, was, r->pos.line, r->pos.col);
}

static int ev_memrun(struct wl_ctx *c, const struct wl_task *t, const char *path,
		     struct json_object *v, struct wl_event *ev)
{
	static const char *const keys[] = { "type", "size", "count", "stride", "pattern",
					    "ref", NULL };
	const char *const *lists[] = { keys, NULL };
	char kpath[WL_PATH_MAX];
	struct memrun_keys k = { 0 };
	struct json_object **slot[] = { &k.type, &k.size, &k.count, &k.stride, &k.pattern,
					&k.ref };
	struct wl_resource want = { 0 };
	size_t i;

	if (wl_want_type(c, path, v, json_type_object, "an object {\"type\", \"size\", \"count\"}"))
		return -1;
	json_object_object_foreach(v, key, kv) {
		for (i = 0; keys[i] && strcmp(key, keys[i]); i++)
			;
		wl_path_child(kpath, path, key);
		if (!keys[i])
			return wl_fail_unknown(c, kpath, key, "key", "", lists);
		*slot[i] = kv;
	}
	if (!k.type)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"type\" (\"read\", \"write\" or "
				   "\"chase\")");
	if (!k.size)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"size\" (the buffer's bytes)");
	if (!k.count)
		return wl_ctx_fail(c, path, AT_VAL, "missing \"count\" (bytes, or hops of a chase)");
	if (memrun_params(c, path, &k, &want) || memrun_int(c, path, "count", k.count, 0, &ev->size))
		return -1;
	ev->res = memrun_buffer(c, t, path, k.ref, &want);
	return ev->res < 0 ? -1 : 0;
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
	case WL_EV_MEMRUN:
		return ev_memrun(c, t, path, v, ev);
	}
	return wl_ctx_fail(c, path, AT_KEY, "internal: event type %d", (int)type);
}
