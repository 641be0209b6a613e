// SPDX-License-Identifier: GPL-2.0
/*
 * The files a thread writes, named as rt-app 1.0 names them,
 * <log_basename>-<task>-<thread index>.log (and .sched), for both backends,
 * and a forked thread's as upstream rt-app names them, with its name
 * (wl_thread_name(): <task>-<index>-<fork>); the names come from the
 * workload and are escaped (dlbench/fname.h).
 */
#include <stdio.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/fname.h"
#include "rtapp.h"

int rtapp_thread_files(const struct workload *wl, const struct wl_task *t, size_t index,
		       int fork, char *log, char *sched, char *events, size_t size,
		       struct dlb_err *err)
{
	const char *base = wl->global.log_basename ? wl->global.log_basename : "rt-app";
	char b[DLB_SUMMARY_PATH_MAX], n[DLB_SUMMARY_PATH_MAX], name[DLB_SUMMARY_PATH_MAX];
	/* the thread's name past the task's: "-<index>", "-<index>-<fork>" */
	const char *sfx = wl_thread_name(name, sizeof(name), t, index, fork);

	sfx += strlen(sfx) < strlen(t->name) ? strlen(sfx) : strlen(t->name);
	if (dlb_fname_escape(b, sizeof(b), base) < 0 || dlb_fname_escape(n, sizeof(n), t->name) < 0 ||
	    snprintf(log, size, "%s-%s%s.log", b, n, sfx) >= (int)size ||
	    snprintf(sched, size, "%s-%s%s.sched", b, n, sfx) >= (int)size ||
	    (events && snprintf(events, size, "%s-%s%s.events", b, n, sfx) >= (int)size))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': its log file name is "
				   "longer than %zu bytes", t->name, size - 1);
	return 0;
}
