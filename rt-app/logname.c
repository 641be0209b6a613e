// SPDX-License-Identifier: GPL-2.0
/*
 * The files a thread writes, named as rt-app 1.0 names them,
 * <log_basename>-<task>-<thread index>.log (and .sched), for both backends;
 * the names come from the workload and are escaped (dlbench/fname.h).
 */
#include <stdio.h>

#include "dlbench/exitcode.h"
#include "dlbench/fname.h"
#include "rtapp.h"

int rtapp_thread_files(const struct workload *wl, const struct wl_task *t, size_t index,
		       char *log, char *sched, char *events, size_t size, struct dlb_err *err)
{
	const char *base = wl->global.log_basename ? wl->global.log_basename : "rt-app";
	char b[DLB_SUMMARY_PATH_MAX], n[DLB_SUMMARY_PATH_MAX];

	if (dlb_fname_escape(b, sizeof(b), base) < 0 || dlb_fname_escape(n, sizeof(n), t->name) < 0 ||
	    snprintf(log, size, "%s-%s-%zu.log", b, n, index) >= (int)size ||
	    snprintf(sched, size, "%s-%s-%zu.sched", b, n, index) >= (int)size ||
	    (events && snprintf(events, size, "%s-%s-%zu.events", b, n, index) >= (int)size))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': its log file name is "
				   "longer than %zu bytes", t->name, size - 1);
	return 0;
}
