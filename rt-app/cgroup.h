/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroups for the kernel backend: finding a controller's hierarchy (shared
 * by the cpuset partitions, cpuset.c, and the taskgroups here), and rt-app's
 * "taskgroup": groups of the cpu controller created for the run, joined by
 * the threads, removed at its end (docs/workload.md, "Taskgroups").
 */
#ifndef RTAPP_CGROUP_H
#define RTAPP_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "dlbench/error.h"
#include "dlbench/workload.h"

/*
 * The hierarchy of @controller ("cpu", "cpuset"): a cgroup v1 mount with it
 * among its mount options (preferred), else the cgroup2 mount listing it in
 * cgroup.controllers.  0 with @root and *@v2 set, or -1: none mounted.
 */
int rtapp_cgroup_find(const char *controller, char *root, size_t size, bool *v2);

/* Write @val to @dir/@name, or read it (first line) into @buf: 0, or -1 (errno). */
int rtapp_cgroup_write(const char *dir, const char *name, const char *val);
int rtapp_cgroup_read(const char *dir, const char *name, char *buf, size_t size);

/*
 * Move the ids listed in @dir/@file ("tasks", "cgroup.procs") to @to/@file,
 * then rmdir @dir, retrying for a second while an exiting thread holds it
 * busy.  0 (removed, or gone already) or -1 (errno).
 */
int rtapp_cgroup_remove(const char *dir, const char *file, const char *to);

/*
 * The run's taskgroups.  v1: wl->taskgroups[i] is that path below the cpu
 * hierarchy's root, as rt-app makes it; threads move with "tasks".  v2:
 * the threads of one process can only be in different groups inside one
 * threaded subtree, so the run makes a container <root>/dlbench-tg-PID,
 * moves the process into it, and each taskgroup is a threaded group below
 * it ("/" is the container); threads move with "cgroup.threads".
 */
struct rtapp_taskgroups {
	bool active;			/* something was created: destroy undoes it */
	bool v2;
	char root[PATH_MAX];		/* the cpu hierarchy's mount */
	char base[PATH_MAX];		/* where the paths start: v1 root, v2 container */
	char home[PATH_MAX];		/* the process's cpu cgroup before the run */
	bool moved;			/* v2: the process is in the container */
	bool enabled_root;		/* v2: we wrote +cpu to the root's subtree_control */
	size_t nr;			/* = wl->nr_taskgroups */
	char **dir;			/* each taskgroup's directory */
	size_t nr_made;
	char **made;			/* directories created, in order (removed in reverse) */
};

/*
 * Create what the workload's taskgroups need that does not exist yet
 * (groups that exist are used and kept, as rt-app does).  Nothing to do
 * without taskgroups.  On error nothing is left behind; @err is one line,
 * DLB_EXIT_ENV.
 */
int rtapp_taskgroups_create(struct rtapp_taskgroups *tg, const struct workload *wl,
			    struct dlb_err *err);

/* Move thread @tid into taskgroup @idx (of wl->taskgroups): 0 or an errno. */
int rtapp_taskgroups_join(const struct rtapp_taskgroups *tg, int idx, int tid);

/* Move thread @tid back to where the run's threads started: 0 or an errno. */
int rtapp_taskgroups_leave(const struct rtapp_taskgroups *tg, int tid);

/*
 * Move what is left in the created groups back home, remove them (deepest
 * first), restore what was changed.  Safe to call twice, and on a zeroed
 * struct.
 */
void rtapp_taskgroups_destroy(struct rtapp_taskgroups *tg);

#endif
