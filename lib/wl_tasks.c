// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader's tasks and phases: a task's own keys (policy,
 * priority, deadline parameters, cpus, ...), its phases and their events.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dlbench/workload.h"
#include "wl_local.h"

static const char *const task_keys[] = {
	"instance", "loop", "policy", "priority", "dl-runtime", "dl-period", "dl-deadline",
	"dl-flags", "cpus", "delay", "taskgroup", "util_min", "util_max", "nodes_membind",
	"membind_nodes", "phases", NULL
};

static const char *const phase_keys[] = {
	"loop", "cpus", "taskgroup", "util_min", "util_max", "nodes_membind", "membind_nodes", NULL
};

/* loop: -1 (forever) or a count >= 1. */
static int get_loop(struct wl_ctx *c, const char *path, struct json_object *v, int *loop)
{
	if (wl_get_int(c, path, v, -1, INT32_MAX, loop))
		return -1;
	if (*loop == 0)
		return wl_ctx_fail(c, path, AT_VAL, "loop 0 would never run: use -1 (forever) or a "
				   "count >= 1");
	return 0;
}

/*
 * An array of numbers from 0 to @max into @m (a cpu or a node list), not
 * empty: @what names the array in the type error, @empty says why empty
 * is refused.
 */
static int parse_index_list(struct wl_ctx *c, const char *path, struct json_object *v,
			    const char *what, const char *empty, int max, struct dlb_cpumask *m)
{
	char epath[WL_PATH_MAX];
	size_t i, n;
	int idx;

	if (wl_want_type(c, path, v, json_type_array, what))
		return -1;
	n = json_object_array_length(v);
	if (!n)
		return wl_ctx_fail(c, path, AT_VAL, "%s", empty);
	dlb_cpumask_clear(m);
	for (i = 0; i < n; i++) {
		snprintf(epath, sizeof(epath), "%s[%zu]", path, i);
		if (wl_get_int(c, epath, json_object_array_get_idx(v, i), 0, max, &idx))
			return -1;
		dlb_cpumask_set(m, (unsigned int)idx);
	}
	return 0;
}

static int parse_cpus(struct wl_ctx *c, const char *path, struct json_object *v,
		      bool *has_cpus, struct dlb_cpumask *cpus)
{
	if (parse_index_list(c, path, v, "an array of cpu numbers", "empty cpu list (the task "
			     "could run nowhere)", DLB_MAX_CPUS - 1, cpus))
		return -1;
	*has_cpus = true;
	return 0;
}

/*
 * "/tg1/tg11" into wl->taskgroups (once per distinct path), normalised:
 * repeated and trailing '/' dropped, as the directories they name.
 * Appends a copy of @path, or finds it; its index, or -1 with c->err set.
 */
static int taskgroup_add(struct wl_ctx *c, const char *kpath, const char *path)
{
	struct workload *wl = c->wl;
	char *norm = malloc(strlen(path) + 2), **grown;
	const char *s = path;
	size_t len = 0, i, n;

	if (!norm)
		return wl_ctx_oom(c);
	while (*s) {
		while (*s == '/')
			s++;
		n = strcspn(s, "/");
		if (!n)
			break;
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) {
			free(norm);
			return wl_ctx_fail(c, kpath, AT_VAL, "taskgroup '%s': '.' and '..' are not "
					   "allowed (a taskgroup is a path of group names below "
					   "the cpu controller's root)", path);
		}
		norm[len++] = '/';
		memcpy(norm + len, s, n);
		len += n;
		s += n;
	}
	if (!len)
		norm[len++] = '/';
	norm[len] = '\0';
	for (i = 0; i < wl->nr_taskgroups; i++)
		if (!strcmp(wl->taskgroups[i], norm)) {
			free(norm);
			return (int)i;
		}
	grown = realloc(wl->taskgroups, (wl->nr_taskgroups + 1) * sizeof(*grown));
	if (!grown) {
		free(norm);
		return wl_ctx_oom(c);
	}
	wl->taskgroups = grown;
	wl->taskgroups[wl->nr_taskgroups] = norm;
	return (int)wl->nr_taskgroups++;
}

/*
 * "taskgroup" on a task or a phase (rt-app's parse_taskgroup_data): a path
 * from the cpu controller's root, "/" the root group itself; "" is no
 * taskgroup.  rt-app allows it on fair tasks only (check_taskgroup_policy_dep):
 * a new group has no RT runtime, so the kernel keeps FIFO/RR out of it; a
 * SCHED_DEADLINE thread could join one (6.18 allows it), but rt-app
 * refuses that file, and so do we (docs/workload.md).
 */
static int parse_taskgroup(struct wl_ctx *c, const struct wl_task *t, const char *kpath,
			   struct json_object *v, int *out)
{
	const char *s;

	*out = -1;
	if (wl_want_type(c, kpath, v, json_type_string, "a string (a group path such as "
			 "\"/tg1\")"))
		return -1;
	s = json_object_get_string(v);
	if (!*s)
		return 0;
	if (*s != '/')
		return wl_ctx_fail(c, kpath, AT_VAL, "taskgroup '%s' must start with '/' (a path "
				   "from the cpu controller's root, e.g. \"/tg1\")", s);
	if (t->policy != WL_POLICY_OTHER && t->policy != WL_POLICY_BATCH &&
	    t->policy != WL_POLICY_IDLE)
		return wl_ctx_fail(c, kpath, AT_KEY, "taskgroup needs policy SCHED_OTHER, "
				   "SCHED_BATCH or SCHED_IDLE, as in rt-app (policy is %s: cpu "
				   "groups share fair time only)", wl_policy_str(t->policy));
	*out = taskgroup_add(c, kpath, s);
	return *out < 0 ? -1 : 0;
}

/*
 * "util_min" or "util_max" (rt-app's parse_sched_data): -1, rt-app's "no
 * change", or a clamp of 0..1024.  rt-app refuses more than 1024 ("Invalid
 * util_min"); below -1 is no clamp either.
 */
static int parse_util(struct wl_ctx *c, const char *path, const char *key, struct json_object *v,
		      bool *has, unsigned int *out)
{
	int64_t n;

	if (wl_want_type(c, path, v, json_type_int, "an integer (0..1024, or -1)"))
		return -1;
	n = json_object_get_int64(v);
	if (n == -1)
		return 0;
	if (n < 0 || n > WL_UCLAMP_MAX)
		return wl_ctx_fail(c, path, AT_VAL, "%s %lld is out of range: a utilization clamp "
				   "is 0..%d (SCHED_CAPACITY_SCALE), or -1 to leave it unset", key,
				   (long long)n, WL_UCLAMP_MAX);
	*has = true;
	*out = (unsigned int)n;
	return 0;
}

/*
 * The clamps of a task or a phase at @path, the one validator of both:
 * each value, then the pair, as the kernel's uclamp_validate() refuses a
 * min above the max (EINVAL).  @umin, @umax: the values, NULL if absent.
 */
static int parse_uclamp(struct wl_ctx *c, const char *path, struct json_object *umin,
			struct json_object *umax, struct wl_uclamp *u)
{
	char kpath[WL_PATH_MAX];

	wl_path_child(kpath, path, "util_min");
	if (umin && parse_util(c, kpath, "util_min", umin, &u->has_min, &u->min))
		return -1;
	if (umax) {
		char mpath[WL_PATH_MAX];

		wl_path_child(mpath, path, "util_max");
		if (parse_util(c, mpath, "util_max", umax, &u->has_max, &u->max))
			return -1;
	}
	if (u->has_min && u->has_max && u->min > u->max)
		return wl_ctx_fail(c, kpath, AT_VAL, "util_min %u is above util_max %u (the kernel "
				   "refuses such a clamp: EINVAL)", u->min, u->max);
	return 0;
}

/* The key of @u to blame: util_min if it is set, else util_max. */
static const char *uclamp_key(const struct wl_uclamp *u)
{
	return u->has_min ? "util_min" : "util_max";
}

/*
 * A phase's clamps on a SCHED_DEADLINE task: rt-app sets the phase's
 * sched_data as it starts, with the task's policy and no runtime
 * (set_thread_param -> _set_thread_deadline: EINVAL, exit), and it applies
 * clamps to no SCHED_DEADLINE task anyway: refused.
 */
static int phase_uclamp(struct wl_ctx *c, const struct wl_task *t, const char *path,
			struct json_object *umin, struct json_object *umax, struct wl_phase *ph)
{
	char kpath[WL_PATH_MAX];

	if (parse_uclamp(c, path, umin, umax, &ph->uclamp))
		return -1;
	if (!wl_uclamp_set(&ph->uclamp) || t->policy != WL_POLICY_DEADLINE)
		return 0;
	wl_path_child(kpath, path, uclamp_key(&ph->uclamp));
	return wl_ctx_fail(c, kpath, AT_KEY, "%s in a phase of a SCHED_DEADLINE task is not "
			   "supported: rt-app fails there (the phase sets SCHED_DEADLINE again, "
			   "with no runtime) and applies no clamp to SCHED_DEADLINE; drop it, or "
			   "use another policy", uclamp_key(&ph->uclamp));
}

/* The nodes of "nodes_membind" at @path: an array of node numbers, not empty. */
static int parse_nodes(struct wl_ctx *c, const char *path, struct json_object *v,
		       struct wl_membind *m)
{
	if (parse_index_list(c, path, v, "an array of NUMA node numbers", "empty node list (the "
			     "kernel binds memory to no node: set_mempolicy refuses it, EINVAL)",
			     WL_MAX_NODES - 1, &m->nodes))
		return -1;
	m->set = true;
	return 0;
}

/*
 * The NUMA binding of a task or a phase at @path (rt-app's
 * parse_numa_data): "nodes_membind" (@v), or "membind_nodes" (@old), its
 * name until rt-app's 8e79e11 (2020).  rt-app renamed it because its
 * event keys match by prefix: rt-app since reads "membind_nodes" as a
 * "mem" event.  The old name is read as the binding its files meant,
 * with a warning; both in one object is refused.
 */
static int parse_membind(struct wl_ctx *c, const char *path, struct json_object *v,
			 struct json_object *old, struct wl_membind *m)
{
	char kpath[WL_PATH_MAX];

	wl_path_child(kpath, path, "membind_nodes");
	if (old && v)
		return wl_ctx_fail(c, kpath, AT_KEY, "membind_nodes and nodes_membind both given "
				   "(membind_nodes is nodes_membind's old name): keep nodes_membind");
	if (old) {
		if (wl_ctx_warn(c, kpath, AT_KEY, "nodes_membind's name before rt-app's 8e79e11 "
				"(2020), read as nodes_membind: rt-app since reads it as a 'mem' "
				"event, so write nodes_membind"))
			return -1;
		return parse_nodes(c, kpath, old, m);
	}
	wl_path_child(kpath, path, "nodes_membind");
	return v ? parse_nodes(c, kpath, v, m) : 0;
}

static int parse_phase(struct wl_ctx *c, const struct wl_task *t, const char *path,
		       struct json_object *o, bool in_task, struct wl_phase *ph)
{
	const char *const *lists[] = { in_task ? task_keys : phase_keys, wl_ev_names, NULL };
	struct json_object *umin = NULL, *umax = NULL, *nodes = NULL, *old_nodes = NULL;
	char kpath[WL_PATH_MAX];
	size_t n = 0;
	int d;

	json_object_object_foreach(o, k0, v0) {
		(void)v0;
		if (wl_ev_classify(k0) >= 0)
			n++;
	}
	ph->pos = wl_ctx_pos(c, path, AT_KEY);
	ph->taskgroup = -1;
	if (!n)
		return wl_ctx_fail(c, path, AT_KEY, "no events (a %s needs at least one event)",
				   in_task ? "task" : "phase");
	ph->events = calloc(n, sizeof(*ph->events));
	if (!ph->events)
		return wl_ctx_oom(c);
	json_object_object_foreach(o, key, v) {
		struct wl_event *ev;

		wl_path_child(kpath, path, key);
		d = wl_ev_classify(key);
		if (d < 0) {
			if (in_task && (wl_in_list(key, task_keys) || wl_in_list(key, wl_task_unsupported)))
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
					return wl_ctx_fail(c, kpath, AT_KEY, "key 'cpus' in a phase "
							   "of a SCHED_DEADLINE task is not supported "
							   "(its CPUs are its cpuset, fixed for the run: "
							   "set cpus on the task)");
				if (parse_cpus(c, kpath, v, &ph->has_cpus, &ph->cpus))
					return -1;
				continue;
			}
			if (!in_task && !strcmp(key, "taskgroup")) {
				if (parse_taskgroup(c, t, kpath, v, &ph->taskgroup))
					return -1;
				continue;
			}
			if (!in_task && !strcmp(key, "util_min")) {
				umin = v;
				continue;
			}
			if (!in_task && !strcmp(key, "util_max")) {
				umax = v;
				continue;
			}
			if (!in_task && !strcmp(key, "nodes_membind")) {
				nodes = v;
				continue;
			}
			if (!in_task && !strcmp(key, "membind_nodes")) {
				old_nodes = v;
				continue;
			}
			if (!in_task && wl_in_list(key, wl_phase_unsupported))
				return wl_ctx_fail(c, kpath, AT_KEY, "key '%s' in a phase is not supported "
						   "yet%s", key, wl_in_list(key, wl_task_unsupported) ? "" :
						   " (set it on the task)");
			return wl_fail_unknown(c, kpath, key, "key or event",
					       in_task ? " in task" : " in phase", lists);
		}
		if (wl_ev_descs[d].type < 0)
			return wl_ctx_fail(c, kpath, AT_KEY, "event '%s' is not supported yet",
					   wl_ev_descs[d].prefix);
		ev = &ph->events[ph->nr_events++];
		ev->type = (enum wl_event_type)wl_ev_descs[d].type;
		ev->res = ev->dep = ev->task = -1;
		ev->pos = wl_ctx_pos(c, kpath, AT_KEY);
		ev->key = strdup(key);
		if (!ev->key)
			return wl_ctx_oom(c);
		if (wl_parse_event(c, t, kpath, v, ev->type, ev))
			return -1;
	}
	/* a task without phases: its clamps and binding are the task's (parse_task) */
	if (in_task)
		return 0;
	if (parse_membind(c, path, nodes, old_nodes, &ph->membind))
		return -1;
	return phase_uclamp(c, t, path, umin, umax, ph);
}

static int parse_priority(struct wl_ctx *c, const char *path, struct json_object *v,
			  struct wl_task *t)
{
	switch (t->policy) {
	case WL_POLICY_FIFO:
	case WL_POLICY_RR:
		t->priority = WL_PRIO_RT_DEFAULT;
		return v ? wl_get_int(c, path, v, 1, 99, &t->priority) : 0;
	case WL_POLICY_DEADLINE:
		t->priority = 0;
		if (!v)
			return 0;
		if (wl_get_int(c, path, v, INT32_MIN, INT32_MAX, &t->priority))
			return -1;
		if (t->priority)
			return wl_ctx_fail(c, path, AT_VAL, "priority %d has no meaning for "
					   "SCHED_DEADLINE (use 0 or leave it out)", t->priority);
		return 0;
	default:
		/* SCHED_OTHER, BATCH, IDLE: the nice value */
		t->priority = 0;
		return v ? wl_get_int(c, path, v, -20, 19, &t->priority) : 0;
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

	if (wl_want_type(c, path, v, json_type_array, "an array of flag names"))
		return -1;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		u64 f;

		snprintf(epath, sizeof(epath), "%s[%zu]", path, i);
		if (wl_want_type(c, epath, e, json_type_string, "a flag name"))
			return -1;
		f = dl_flag_parse(json_object_get_string(e));
		if (!f)
			return wl_ctx_fail(c, epath, AT_VAL, "unknown flag '%s' (known: %s)",
					json_object_get_string(e), dl_flag_names());
		if (*flags & f)
			return wl_ctx_fail(c, epath, AT_VAL, "flag '%s' given twice",
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

	wl_path_child(kpath, path, "dl-period");
	if (k->period && wl_ctx_warn(c, kpath, AT_KEY, "ignored on %s (only dl-runtime, the "
				     "custom slice, applies to a fair task)", wl_policy_str(t->policy)))
		return -1;
	wl_path_child(kpath, path, "dl-deadline");
	if (k->deadline && wl_ctx_warn(c, kpath, AT_KEY, "ignored on %s (only dl-runtime, the "
				       "custom slice, applies to a fair task)", wl_policy_str(t->policy)))
		return -1;
	if (!k->runtime)
		return 0;
	wl_path_child(kpath, path, "dl-runtime");
	if (wl_get_us(c, kpath, k->runtime, &t->slice_ns))
		return -1;
	if (t->slice_ns && (t->slice_ns < WL_SLICE_MIN_NS || t->slice_ns > WL_SLICE_MAX_NS))
		return wl_ctx_warn(c, kpath, AT_VAL, "slice %llu us: the kernel clamps a custom "
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
		wl_path_child(kpath, path, "dl-flags");
		return wl_ctx_fail(c, kpath, AT_KEY, "dl-flags needs policy SCHED_DEADLINE (policy "
				"is %s)", wl_policy_str(t->policy));
	}
	if (t->policy == WL_POLICY_OTHER || t->policy == WL_POLICY_BATCH)
		return parse_slice(c, path, k, t);
	if (t->policy != WL_POLICY_DEADLINE) {
		const char *key = k->runtime ? "dl-runtime" : k->period ? "dl-period" :
				  k->deadline ? "dl-deadline" : NULL;

		if (!key)
			return 0;
		wl_path_child(kpath, path, key);
		return wl_ctx_fail(c, kpath, AT_KEY, "%s needs policy SCHED_DEADLINE (policy is %s)",
				   key, wl_policy_str(t->policy));
	}
	if (!k->runtime)
		return wl_ctx_fail(c, path, AT_KEY, "SCHED_DEADLINE needs dl-runtime");
	wl_path_child(kpath, path, "dl-runtime");
	if (wl_get_us(c, kpath, k->runtime, &p->runtime))
		return -1;
	wl_path_child(kpath, path, "dl-period");
	if (k->period && wl_get_us(c, kpath, k->period, &p->period))
		return -1;
	wl_path_child(kpath, path, "dl-deadline");
	if (k->deadline && wl_get_us(c, kpath, k->deadline, &p->deadline))
		return -1;
	wl_path_child(kpath, path, "dl-flags");
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
	wl_path_child(kpath, path, dl_rule_key(rule, k));
	dl_param_explain(why, sizeof(why), p, c->lim, rule);
	return wl_ctx_fail(c, kpath, AT_VAL, "%s", why);
}

/* "tasks.t.key" or "tasks.t.phases.p.key": event @key of phase @p of @t, at @path. */
static void event_path(char *out, const char *path, bool phases, const struct wl_task *t,
		       size_t p, const char *key)
{
	char ppath[WL_PATH_MAX], kpath[WL_PATH_MAX];

	if (!phases) {
		wl_path_child(out, path, key);
		return;
	}
	snprintf(ppath, sizeof(ppath), "%s.phases", path);
	wl_path_child(kpath, ppath, t->phases[p].name);
	wl_path_child(out, kpath, key);
}

/* A task may only unlock a mutex it locks somewhere (else: EPERM or a hang). */
static int check_unlocks(struct wl_ctx *c, const char *path, bool phases,
			 const struct wl_task *t)
{
	char ppath[WL_PATH_MAX];
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
			event_path(ppath, path, phases, t, p, ev->key);
			return wl_ctx_fail(c, ppath, AT_VAL, "unlock of mutex '%s' that task '%s' "
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

	wl_path_child(ppath, path, "phases");
	if (wl_want_type(c, ppath, o, json_type_object, "an object of phases"))
		return -1;
	n = (size_t)json_object_object_length(o);
	if (!n)
		return wl_ctx_fail(c, ppath, AT_VAL, "no phase (phases needs at least one)");
	t->phases = calloc(n, sizeof(*t->phases));
	if (!t->phases)
		return wl_ctx_oom(c);
	json_object_object_foreach(o, name, v) {
		struct wl_phase *ph = &t->phases[t->nr_phases++];

		wl_path_child(kpath, ppath, name);
		ph->loop = 1;
		ph->name = strdup(name);
		if (!ph->name)
			return wl_ctx_oom(c);
		if (wl_want_type(c, kpath, v, json_type_object, "an object"))
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
		/* 0: no thread at the start, those its forks create only */
		return wl_get_int(c, kpath, v, 0, 4096, &t->instances);
	}
	if (!strcmp(key, "policy"))
		return wl_get_policy(c, kpath, v, &t->policy);
	if (!strcmp(key, "cpus"))
		return parse_cpus(c, kpath, v, &t->has_cpus, &t->cpus);
	if (!strcmp(key, "delay"))
		return wl_get_us(c, kpath, v, &t->delay_ns);
	if (wl_in_list(key, wl_task_unsupported))
		return wl_ctx_fail(c, kpath, AT_KEY, "key '%s' is not supported yet", key);
	return 1;	/* not a key this function handles */
}

static int parse_task(struct wl_ctx *c, const char *name, struct json_object *o,
		      struct wl_task *t, bool *has_phases)
{
	const char *const *lists[] = { task_keys, wl_ev_names, NULL };
	char path[WL_PATH_MAX], kpath[WL_PATH_MAX];
	struct json_object *prio = NULL, *phases = NULL, *loop = NULL, *tg = NULL;
	struct json_object *umin = NULL, *umax = NULL, *nodes = NULL, *old_nodes = NULL;
	struct wl_dl_keys dk = { NULL, NULL, NULL, NULL };
	const char *first_event = NULL;
	int r, l;

	wl_path_child(path, "tasks", name);
	t->name = strdup(name);
	if (!t->name)
		return wl_ctx_oom(c);
	t->instances = 1;
	t->loop = -1;
	t->policy = c->wl->global.default_policy;
	t->pos = wl_ctx_pos(c, path, AT_KEY);
	if (wl_want_type(c, path, o, json_type_object, "an object"))
		return -1;
	json_object_object_foreach(o, key, v) {
		wl_path_child(kpath, path, key);
		if (wl_ev_classify(key) >= 0) {
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
		} else if (!strcmp(key, "taskgroup")) {
			tg = v;
		} else if (!strcmp(key, "util_min")) {
			umin = v;
		} else if (!strcmp(key, "util_max")) {
			umax = v;
		} else if (!strcmp(key, "nodes_membind")) {
			nodes = v;
		} else if (!strcmp(key, "membind_nodes")) {
			old_nodes = v;
		} else {
			return wl_fail_unknown(c, kpath, key, "key or event", " in task", lists);
		}
	}
	wl_path_child(kpath, path, "priority");
	if (parse_priority(c, kpath, prio, t))
		return -1;
	if (parse_dl(c, path, &dk, t))
		return -1;
	if (parse_uclamp(c, path, umin, umax, &t->uclamp))
		return -1;
	if (wl_uclamp_set(&t->uclamp) && t->policy == WL_POLICY_DEADLINE) {
		/* rt-app's set_thread_param: no _set_thread_uclamp for deadline */
		wl_path_child(kpath, path, uclamp_key(&t->uclamp));
		memset(&t->uclamp, 0, sizeof(t->uclamp));
		if (wl_ctx_warn(c, kpath, AT_KEY, "ignored on SCHED_DEADLINE, as rt-app does (it "
				"applies clamps to FIFO, RR and fair tasks only)"))
			return -1;
	}
	if (parse_membind(c, path, nodes, old_nodes, &t->membind))
		return -1;
	/* after the policy, which decides whether a taskgroup is allowed */
	wl_path_child(kpath, path, "taskgroup");
	t->taskgroup = -1;
	if (tg && parse_taskgroup(c, t, kpath, tg, &t->taskgroup))
		return -1;
	wl_path_child(kpath, path, "loop");
	if (loop && get_loop(c, kpath, loop, &l))
		return -1;
	if (phases) {
		if (first_event) {
			wl_path_child(kpath, path, first_event);
			return wl_ctx_fail(c, kpath, AT_KEY, "event '%s' outside \"phases\": with "
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
			return wl_ctx_oom(c);
		t->nr_phases = 1;
		t->phases[0].name = strdup("");
		if (!t->phases[0].name)
			return wl_ctx_oom(c);
		t->phases[0].loop = loop && l > 0 ? l : 1;
		t->loop = loop && l > 0 ? 1 : -1;
		if (parse_phase(c, t, path, o, true, &t->phases[0]))
			return -1;
	}
	*has_phases = phases != NULL;
	if (check_unlocks(c, path, phases != NULL, t))
		return -1;
	count_barrier_users(c, t);
	return 0;
}

/*
 * Forks, once every task is known: the tasks they name are marked
 * forked.  rt-app counts a barrier's users from the instances when it
 * parses the file, so a forked thread at a barrier would wait for ever
 * or let the others through early (its tutorial: "barrier can't be used
 * with fork event"): refused.  A task of instance 0 that nothing forks
 * never runs: said.
 */
static int check_forks(struct wl_ctx *c, const bool *has_phases)
{
	struct workload *wl = c->wl;
	char path[WL_PATH_MAX], epath[WL_PATH_MAX];
	size_t i, p, e, q, f;

	for (i = 0; i < wl->nr_tasks; i++)
		for (p = 0; p < wl->tasks[i].nr_phases; p++)
			for (e = 0; e < wl->tasks[i].phases[p].nr_events; e++)
				if (wl->tasks[i].phases[p].events[e].type == WL_EV_FORK)
					wl->tasks[wl->tasks[i].phases[p].events[e].task].forked = true;
	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		wl_path_child(path, "tasks", t->name);
		if (!t->forked) {
			wl_path_child(epath, path, "instance");
			if (!t->instances && wl_ctx_warn(c, epath, AT_VAL, "instance 0 and no fork "
							 "event names task '%s': it never runs",
							 t->name))
				return -1;
			continue;
		}
		for (q = 0; q < t->nr_phases; q++) {
			for (f = 0; f < t->phases[q].nr_events; f++) {
				if (t->phases[q].events[f].type != WL_EV_BARRIER)
					continue;
				event_path(epath, path, has_phases[i], t, q, t->phases[q].events[f].key);
				return wl_ctx_fail(c, epath, AT_KEY, "barrier in task '%s', which a "
						   "fork event creates threads of: a barrier's users "
						   "are counted at the start (rt-app: \"barrier can't "
						   "be used with fork\"); use suspend/resume or a "
						   "semaphore", t->name);
			}
		}
	}
	return 0;
}

int wl_parse_tasks(struct wl_ctx *c, struct json_object *o)
{
	struct workload *wl = c->wl;
	bool *has_phases;
	size_t n;
	int rc;

	if (!o)
		return wl_ctx_fail(c, "tasks", AT_KEY, "missing (a workload needs a \"tasks\" object)");
	if (wl_want_type(c, "tasks", o, json_type_object, "an object of tasks"))
		return -1;
	n = (size_t)json_object_object_length(o);
	if (!n)
		return wl_ctx_fail(c, "tasks", AT_VAL, "no task defined");
	wl->tasks = calloc(n, sizeof(*wl->tasks));
	has_phases = calloc(n, sizeof(*has_phases));
	if (!wl->tasks || !has_phases) {
		free(has_phases);
		return wl_ctx_oom(c);
	}
	c->tasks = o;
	json_object_object_foreach(o, name, v) {
		size_t i = wl->nr_tasks++;

		if (parse_task(c, name, v, &wl->tasks[i], &has_phases[i])) {
			free(has_phases);
			return -1;
		}
	}
	rc = check_forks(c, has_phases);
	free(has_phases);
	return rc;
}
