/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload model: rt-app's JSON grammar (global, tasks, phases,
 * events) loaded once, validated once, with every time in u64 ns.  Used by
 * the generator's kernel backend and by the reference simulator alike.
 *
 * Grammar and what we support: docs/workload.md.  An rt-app key or event we
 * do not support is refused by name ("key 'nodes_membind' is not supported
 * yet"); a key rt-app does not know is refused as unknown; nothing is
 * ignored in silence (what rt-app ignores is accepted with a warning).
 */
#ifndef DLBENCH_WORKLOAD_H
#define DLBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpumask.h"
#include "dlparam.h"
#include "dltime.h"
#include "error.h"

/* Policies; the values are the kernel's SCHED_* numbers. */
enum wl_policy {
	WL_POLICY_OTHER		= 0,
	WL_POLICY_FIFO		= 1,
	WL_POLICY_RR		= 2,
	WL_POLICY_BATCH		= 3,
	WL_POLICY_IDLE		= 5,
	WL_POLICY_DEADLINE	= 6,
};

enum wl_event_type {
	WL_EV_RUN,		/* busy loop of duration_ns of calibrated work */
	WL_EV_RUNTIME,		/* busy until duration_ns of thread CPU time */
	WL_EV_SLEEP,		/* relative sleep of duration_ns */
	WL_EV_TIMER,		/* periodic release: res = timer, duration_ns = period */
	WL_EV_LOCK,		/* res = mutex */
	WL_EV_UNLOCK,		/* res = mutex */
	WL_EV_WAIT,		/* res = cond, dep = mutex */
	WL_EV_SIGNAL,		/* res = cond */
	WL_EV_BROAD,		/* res = cond */
	WL_EV_SYNC,		/* signal res and wait on it, dep = mutex */
	WL_EV_BARRIER,		/* res = barrier */
	WL_EV_YIELD,		/* DL: give up the rest of this period's runtime */
	WL_EV_SUSPEND,		/* res = wake-up object */
	WL_EV_RESUME,		/* res = wake-up object */
	WL_EV_MEM,		/* size bytes of memset on the thread's buffer */
	WL_EV_IORUN,		/* size bytes written to global.io_device from that buffer */
	WL_EV_SEM_POST,		/* res = semaphore: count + 1, or wake one waiter */
	WL_EV_SEM_WAIT,		/* res = semaphore: count - 1, waiting while it is 0 */
	WL_EV_FORK,		/* task = the task one more thread is created of, now */
	WL_EV_MEMRUN,		/* res = a memrun buffer: count bytes read or written, or
				 * count pointer hops of a chase (the resource's type says) */
};

enum wl_res_type {
	WL_RES_MUTEX,
	WL_RES_COND,
	WL_RES_BARRIER,
	WL_RES_TIMER,
	WL_RES_WAKEUP,		/* suspend/resume */
	WL_RES_SEM,		/* sem_post/sem_wait: a counting semaphore, from 0 */
	/*
	 * memrun's buffers, one type per access as in rt-app (a "ref" names
	 * one buffer of each): bytes read or written in order, wrapping at
	 * the end; a circular chain of pointers, one every stride bytes.
	 */
	WL_RES_MEMREAD,
	WL_RES_MEMWRITE,
	WL_RES_MEMCHASE,
};

/*
 * Utilization clamps (rt-app's "util_min" / "util_max", the kernel's uclamp,
 * sched_attr.sched_util_{min,max}): 0..1024 (SCHED_CAPACITY_SCALE).  A
 * clamp not set (absent, or rt-app's -1) is left as the thread has it.
 * rt-app applies them to FIFO, RR and fair tasks, never to SCHED_DEADLINE
 * ones: the loader keeps none on a DL task (docs/workload.md, "util_min").
 */
struct wl_uclamp {
	bool has_min, has_max;
	unsigned int min, max;
};

/*
 * NUMA memory binding (rt-app's "nodes_membind", set with numa_set_membind:
 * set_mempolicy(MPOL_BIND)): the nodes the thread's memory comes from.
 * The node set uses the cpu mask's bitmap: WL_MAX_NODES is the kernel's
 * largest MAX_NUMNODES (NODES_SHIFT 10), the loader's range; the host's
 * own nodes are checked by the kernel backend before the run.
 */
#define WL_MAX_NODES	1024
_Static_assert(WL_MAX_NODES <= DLB_MAX_CPUS, "a node set is a dlb_cpumask");

struct wl_membind {
	bool set;		/* the key was given: bind to @nodes */
	struct dlb_cpumask nodes;
};

/* Where something was in the JSON file, for errors after parsing. */
struct wl_pos {
	int line;		/* 1-based; 0 if unknown */
	int col;		/* 1-based */
};

struct wl_resource {
	char *name;
	enum wl_res_type type;
	unsigned int users;	/* barrier: participating task instances */
	bool unique;		/* timer whose ref starts with "unique", memrun buffer
				 * without "ref": one per thread */
	u64 size;		/* memrun buffer: bytes */
	u64 stride;		/* memrun chase: bytes between two pointers of the chain */
	bool random;		/* memrun chase: bit-reversed order, else one stride on */
	struct wl_pos pos;	/* first use (or declaration in "resources") */
};

struct wl_event {
	enum wl_event_type type;
	char *key;		/* the JSON key as written, e.g. "run1" */
	u64 duration_ns;	/* run, runtime, sleep; timer period */
	u64 size;		/* mem, iorun: bytes; memrun: "count" (bytes, or chase hops) */
	int res;		/* resource index, -1 if none */
	int dep;		/* wait/sync: mutex index, -1 if none */
	bool timer_relative;	/* timer "mode": "relative" (rt-app's default) or "absolute" */
	int task;		/* fork: index in wl->tasks of the task forked; else -1 */
	struct wl_pos pos;
};

struct wl_phase {
	char *name;		/* phase key, or "" for a task without phases */
	int loop;		/* repetitions of the events; >= 1, or -1 = until the run ends */
	bool has_cpus;		/* "cpus" in the phase: the affinity while it runs */
	struct dlb_cpumask cpus;
	int taskgroup;		/* "taskgroup": index in wl->taskgroups the thread moves
				 * to as the phase starts; -1: it stays where it is */
	struct wl_uclamp uclamp;	/* set as the phase starts, kept after it */
	struct wl_membind membind;	/* set as the phase starts, kept after it */
	size_t nr_events;
	struct wl_event *events;
	struct wl_pos pos;
};

struct wl_task {
	char *name;
	int instances;		/* "instance": threads at the start, >= 0 (0: only forks make them) */
	bool forked;		/* a fork event names it: it may get threads mid-run */
	int loop;		/* "loop": -1 = until the run's duration */
	enum wl_policy policy;
	int priority;		/* FIFO/RR: 1..99; OTHER/BATCH: nice */
	struct dl_params dl;	/* DEADLINE: ns, checked by dl_param_check() */
	u64 slice_ns;		/* OTHER/BATCH "dl-runtime": the custom slice (6.12+), 0: none */
	bool has_cpus;		/* "cpus" given */
	struct dlb_cpumask cpus;
	u64 delay_ns;		/* "delay" before the first phase */
	int taskgroup;		/* "taskgroup": index in wl->taskgroups, -1: none */
	struct wl_uclamp uclamp;	/* set with the policy, at the thread's start */
	struct wl_membind membind;	/* set at the thread's start */
	size_t nr_phases;
	struct wl_phase *phases;
	struct wl_pos pos;
};

struct wl_global {
	u64 duration_ns;	/* 0: no limit (rt-app's -1) */
	u64 calibration_ns;	/* ns per loop if given as a number, else 0 */
	int calibration_cpu;	/* "CPUn": n; -1 if a number was given */
	enum wl_policy default_policy;
	bool pi_enabled;
	bool lock_pages;
	bool ftrace;
	bool gnuplot;
	char *logdir;		/* default "./" */
	char *log_basename;	/* default "rt-app" */
	char *ftrace_categories; /* "main,task,run,loop,stats" as given; "none" if off */
	int log_size;		/* MB of log buffer per thread; 0 "disable"; WL_LOG_FILE */
	char *io_device;	/* default "/dev/null" */
	u64 mem_buffer_size;	/* bytes per thread, default 4 MiB */
	bool cumulative_slack;
};

/* "log_size": "file" or "auto" (the default): log straight to the file. */
#define WL_LOG_FILE	(-1)

struct workload {
	char *path;		/* as given to the loader, for messages */
	struct wl_global global;
	size_t nr_tasks;
	struct wl_task *tasks;
	size_t nr_resources;
	struct wl_resource *resources;
	/*
	 * The distinct "taskgroup" paths (cgroup cpu controller groups), in
	 * the order first met, normalised: "/" then names joined by one '/',
	 * no trailing '/'; "/" itself is the root group.  Only fair tasks
	 * (SCHED_OTHER, BATCH, IDLE) have one, as in rt-app.
	 */
	size_t nr_taskgroups;
	char **taskgroups;
	/*
	 * What the loader accepted but the caller should say, in the order met:
	 * "file:line:col: key.path: what", one line each, no prefix (the
	 * library does not print; wl_warnings_write() is the callers' one
	 * printer).  An rt-app key that rt-app itself ignores, for example.
	 */
	size_t nr_warnings;
	char **warnings;
};

/*
 * Load and validate a workload file.  On error returns -1 with @err set to
 * "file:line:col: key.path: what is wrong" and err->code DLB_EXIT_BAD_INPUT;
 * *@out is untouched.  The caller frees the result with wl_free().
 * @lim NULL: the kernel's default period limits.
 */
int wl_load_file(const char *path, const struct dl_param_limits *lim,
		 struct workload **out, struct dlb_err *err);

/* The same from a buffer; @name is used in messages in place of a path. */
int wl_load_buffer(const char *name, const char *buf, size_t len,
		   const struct dl_param_limits *lim,
		   struct workload **out, struct dlb_err *err);

void wl_free(struct workload *wl);

/*
 * Write @wl's warnings to @f, one line each: "PROG: warning: file:line:col:
 * ...".  The tools call it after a successful load.  Returns the number
 * written, or -1 on a write error.
 */
int wl_warnings_write(const struct workload *wl, const char *prog, FILE *f);

/*
 * The CPUs a thread of @t may use while in phase @p, rt-app's order
 * (set_thread_affinity): the phase's "cpus", else the task's, else NULL:
 * every CPU.
 */
const struct dlb_cpumask *wl_phase_cpus(const struct wl_task *t, size_t p);

/* Is @r one of memrun's buffers? */
static inline bool wl_res_memrun(const struct wl_resource *r)
{
	return r->type == WL_RES_MEMREAD || r->type == WL_RES_MEMWRITE ||
	       r->type == WL_RES_MEMCHASE;
}

/* Does any phase of @t set its own "cpus" (the affinity changes in the run)? */
bool wl_task_phase_cpus(const struct wl_task *t);

/* The first task with a "taskgroup" (on the task or a phase), or NULL. */
const struct wl_task *wl_taskgroup_task(const struct workload *wl);

/* The first task asking for SCHED_FLAG_RECLAIM ("dl-flags": ["reclaim"]), or NULL. */
const struct wl_task *wl_reclaim_task(const struct workload *wl);

/* Does @u set a clamp? */
static inline bool wl_uclamp_set(const struct wl_uclamp *u)
{
	return u->has_min || u->has_max;
}

/* The first task with a utilization clamp (on the task or a phase), or NULL. */
const struct wl_task *wl_uclamp_task(const struct workload *wl);

/* The first task with a NUMA binding (on the task or a phase), or NULL. */
const struct wl_task *wl_membind_task(const struct workload *wl);

/* The first task with a custom slice ("dl-runtime" on a fair task), or NULL. */
const struct wl_task *wl_slice_task(const struct workload *wl);

/*
 * rt-app's fork (docs/workload.md, "fork"): a fork event creates one more
 * thread of the task it names, at once, which runs that task from its
 * start (its delay counted from the run's start, as rt-app's t_first); the
 * forked threads of a task are numbered 0, 1, ... across every fork event
 * naming it, up to WL_FORK_LIMIT (rt-app's FORKS_LIMIT: rt-app exits when a
 * fork would pass it, dlbench stops the run with an error).
 */
#define WL_FORK_LIMIT	1024

/* The most threads a run of @wl can have: every instance, and every fork possible. */
size_t wl_max_threads(const struct workload *wl);

/*
 * A thread's name, rt-app's (thread_data_set_unique_name): "<task>-<index>"
 * for a thread made at the start, "<task>-<index>-<fork, 4 digits>" for a
 * forked one (@fork >= 0), where @index is the run's thread number (forked
 * threads take the next ones, in the order of the forks); like rt-app, at
 * most strlen(task) + 10 characters.  Returns @buf.
 */
const char *wl_thread_name(char *buf, size_t size, const struct wl_task *t, size_t index,
			   int fork);

/* Index of the resource called @name of @type (rt-app keys them by both), or -1. */
int wl_resource_find(const struct workload *wl, const char *name, enum wl_res_type type);

const char *wl_policy_str(enum wl_policy policy);
const char *wl_event_type_str(enum wl_event_type type);

/* Total DL bandwidth of the threads made at the start (all instances; not forks), BW_SHIFT units. */
u64 wl_dl_bandwidth(const struct workload *wl);

/*
 * How long a run lasts, the one rule of every tool (lib/wl_length.c,
 * docs/workload.md): the command line's duration, else global.duration;
 * with neither, a workload whose tasks all end runs until they do, and one
 * with a task that loops forever runs WL_DEFAULT_DURATION_NS, never an
 * unbounded (or an hour-long) run nobody asked for.
 */
#define WL_DEFAULT_DURATION_NS	(10 * NSEC_PER_SEC)

enum wl_length_source {
	WL_LEN_OPTION,		/* the command line's -d */
	WL_LEN_WORKLOAD,	/* global.duration */
	WL_LEN_DEFAULT,		/* neither, and a task loops forever */
	WL_LEN_TASKS_END,	/* neither, and every task ends: *ns is 0 */
};

struct wl_length {
	enum wl_length_source source;
	u64 ns;			/* the run's length; 0: until every task ends */
	const char *endless;	/* WL_LEN_DEFAULT: a task that loops forever */
};

/* @option_ns is used when @option_set (a -d on the command line). */
struct wl_length wl_run_length(const struct workload *wl, bool option_set, u64 option_ns);

/* "option", "workload", "default", "tasks-end" (summary.json's duration_source). */
const char *wl_length_source_str(enum wl_length_source source);

/*
 * What the tool will do when the workload does not say (WL_LEN_DEFAULT,
 * WL_LEN_TASKS_END), as one line for stderr, e.g. "w.json: no duration
 * (global.duration or -d) and task 't0' loops forever: running 10 s";
 * "" when the length was given.  Returns @buf.
 */
const char *wl_length_note(char *buf, size_t size, const struct workload *wl,
			   const struct wl_length *len);

/*
 * Write the canonical text dump of @wl to @f: one line per global, resource,
 * task, phase and event, all times in ns, no file positions.  Stable: the
 * golden tests compare it byte for byte.  Returns 0 or -1 on write error.
 */
int wl_dump(const struct workload *wl, FILE *f);

#endif
