// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader's resources: the named mutexes, conditions, barriers,
 * timers, ... events refer to, declared on first use or by the older
 * "resources" section, and their look-ups in the loaded model.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/workload.h"
#include "wl_local.h"

const char *const wl_res_type_names[] = {
	[WL_RES_MUTEX] = "mutex",
	[WL_RES_COND] = "condition",
	[WL_RES_BARRIER] = "barrier",
	[WL_RES_TIMER] = "timer",
	[WL_RES_WAKEUP] = "suspend/resume point",
	[WL_RES_SEM] = "semaphore",
	[WL_RES_MEMREAD] = "memrun read buffer",
	[WL_RES_MEMWRITE] = "memrun write buffer",
	[WL_RES_MEMCHASE] = "memrun chase buffer",
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
		return wl_ctx_oom(c);
	wl->resources = r;
	seen = realloc(c->res_seen, cap * sizeof(*seen));
	if (!seen)
		return wl_ctx_oom(c);
	c->res_seen = seen;
	c->res_cap = cap;
	free(c->res_slot);
	c->res_slots = 2 * cap;		/* at most half full */
	c->res_slot = calloc(c->res_slots, sizeof(*c->res_slot));
	if (!c->res_slot)
		return wl_ctx_oom(c);
	for (i = 0; i < wl->nr_resources; i++)
		c->res_slot[res_slot_of(c, wl->resources[i].name, wl->resources[i].type)] =
			(unsigned int)i + 1;
	return 0;
}

int wl_res_add(struct wl_ctx *c, const char *name, enum wl_res_type type,
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
		return wl_ctx_oom(c);
	r->type = type;
	r->pos = wl_ctx_pos(c, path, at);
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

const struct wl_task *wl_uclamp_task(const struct workload *wl)
{
	size_t i, p;

	for (i = 0; i < wl->nr_tasks; i++) {
		if (wl_uclamp_set(&wl->tasks[i].uclamp))
			return &wl->tasks[i];
		for (p = 0; p < wl->tasks[i].nr_phases; p++)
			if (wl_uclamp_set(&wl->tasks[i].phases[p].uclamp))
				return &wl->tasks[i];
	}
	return NULL;
}

const struct wl_task *wl_membind_task(const struct workload *wl)
{
	size_t i, p;

	for (i = 0; i < wl->nr_tasks; i++) {
		if (wl->tasks[i].membind.set)
			return &wl->tasks[i];
		for (p = 0; p < wl->tasks[i].nr_phases; p++)
			if (wl->tasks[i].phases[p].membind.set)
				return &wl->tasks[i];
	}
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
int wl_parse_resources(struct wl_ctx *c, struct json_object *o)
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
	if (wl_want_type(c, "resources", o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, name, val) {
		const char *t = "mutex";	/* rt-app's default resource type */
		size_t i;

		wl_path_child(path, "resources", name);
		if (wl_want_type(c, path, val, json_type_object, "an object"))
			return -1;
		json_object_object_foreach(val, k, v) {
			wl_path_child(tpath, path, k);
			if (strcmp(k, "type"))
				return wl_ctx_fail(c, tpath, AT_KEY, "unknown key '%s'", k);
			if (wl_want_type(c, tpath, v, json_type_string, "a string"))
				return -1;
			t = json_object_get_string(v);
		}
		wl_path_child(tpath, path, "type");
		for (i = 0; i < ARRAY_SIZE(types); i++)
			if (!strcmp(t, types[i].name))
				break;
		if (i == ARRAY_SIZE(types))
			return wl_ctx_fail(c, tpath, AT_VAL, "resource type '%s' is not supported", t);
		if (types[i].type >= 0 &&
		    wl_res_add(c, name, (enum wl_res_type)types[i].type, path, AT_KEY) < 0)
			return -1;
	}
	return 0;
}
