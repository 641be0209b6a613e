/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pinning SCHED_DEADLINE tasks.  Mainline refuses to restrict a DL task's
 * CPUs (EPERM) unless its root domain is an exclusive cpuset partition, so
 * a run with `cpus` on DL tasks creates one exclusive child cpuset per
 * distinct CPU set (and one for the CPUs left over), splits the root domain
 * by turning off the root cpuset's load balancing (cgroup v1; on v2 each set
 * but the last is a threaded partition root, the last stays the root's),
 * and undoes all of it at the end, on errors and on signals.
 * docs/rt-app.md has the details.
 */
#ifndef RTAPP_CPUSET_H
#define RTAPP_CPUSET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "dlbench/cpumask.h"
#include "dlbench/error.h"
#include "dlbench/workload.h"

#define RTAPP_CPUSETS_MAX	64

struct rtapp_cpuset {
	char path[PATH_MAX];
	struct dlb_cpumask cpus;
	bool created;
};

struct rtapp_cpusets {
	bool active;			/* the root domain is split */
	char root[PATH_MAX];		/* the cpuset hierarchy's root directory */
	bool v2;			/* cgroup v2 (cpuset.cpus.partition) */
	int old_load_balance;		/* root's sched_load_balance before, -1 if unchanged */
	int nr;
	struct rtapp_cpuset set[RTAPP_CPUSETS_MAX];
};

/*
 * -m N on the kernel backend: the run uses CPUs 0..N-1 only.  Every task
 * without cpus gets cpus 0..N-1 (so its DL threads join one exclusive
 * partition of those CPUs, its other threads get that affinity); a task
 * pinned to a CPU outside them is refused.  N must be 1..online CPUs.
 * Returns 0 or -1 with @err (BAD_INPUT) set.
 */
int rtapp_cpus_limit(struct workload *wl, int n, struct dlb_err *err);
/*
 * The kernel backend without -m: every task's and phase's cpus name online
 * CPUs (0..online-1); else exit 2 naming the first CPU beyond, before
 * anything is created or started (rt-app fails at that thread's affinity).
 */
int rtapp_cpus_online(const struct workload *wl, struct dlb_err *err);

/*
 * Restrict the calling thread to CPUs 0..@n-1, so that the threads it
 * creates start there (a new thread inherits the affinity): none of the
 * run's threads is ever scheduled on another CPU.  0 or an errno.
 */
int rtapp_cpus_self(int n);

/* True if @wl pins a SCHED_DEADLINE task (has_cpus on a DL task). */
bool rtapp_cpusets_needed(const struct workload *wl);

/*
 * Check the DL tasks' CPU sets (pairwise equal or disjoint, all online) and
 * create the partitions.  On error nothing is left behind.
 */
int rtapp_cpusets_create(struct rtapp_cpusets *cs, const struct workload *wl,
			 struct dlb_err *err);

/* Move thread @tid (still SCHED_OTHER) into the partition of @cpus. */
int rtapp_cpusets_join(struct rtapp_cpusets *cs, const struct dlb_cpumask *cpus, int tid);

/* Move every task left back to the root, remove the children, restore. */
void rtapp_cpusets_destroy(struct rtapp_cpusets *cs);

/*
 * Remove the cpusets a dead run left behind (SIGKILL gives no chance to
 * clean up): children named dlbench-PID-lbV-K whose PID no longer exists,
 * then restore the root's load balancing to V when no live run holds a
 * partition (v1).  Returns how many were removed (0: none, or not root / no
 * cpuset hierarchy), -1 if one could not be; @msg says what was done.
 */
int rtapp_cpusets_reap(char *msg, size_t size);

/*
 * The CPUs of each partition a dead run left (as rtapp_cpusets_reap would
 * remove them), at most @max; returns how many.
 */
int rtapp_cpusets_stale(struct dlb_cpumask *sets, int max);

/*
 * True when no cpuset splits the root domain: load balancing on at the
 * root (v1), no partition root below it (v2), or no cpuset hierarchy.
 */
bool rtapp_cpusets_root_balanced(void);

/*
 * Rebuild the root domains (v1: the root's sched_load_balance 1 -> 0 -> 1;
 * v2: a partition of the last CPU made and removed), which recomputes every
 * domain's DL bandwidth from the fair servers and the DL tasks.  Refused
 * (-1) unless root, a cpuset hierarchy (v1: load balancing on; v2: two CPUs
 * or more) and no other live run holding a partition; @msg says what was
 * done or why not.
 */
int rtapp_cpusets_rebuild(char *msg, size_t size);

/* The shell commands that rebuild the root domains on this machine's hierarchy. */
int rtapp_cpusets_repair_hint(char *buf, size_t size);

#endif
