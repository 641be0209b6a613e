/* SPDX-License-Identifier: GPL-2.0 */
/* Markers to trace_marker: found once, opened once, written without allocation. */
#ifndef RTAPP_TRACEMARK_H
#define RTAPP_TRACEMARK_H

#include <stddef.h>

#include "dlbench/error.h"
#include "dlbench/marker.h"

struct rtapp_tracemark {
	int fd;			/* -1: markers off */
	char path[256];
};

/*
 * Open @path, or when NULL the trace_marker of a mounted tracefs
 * (/sys/kernel/tracing, then /sys/kernel/debug/tracing), mounting tracefs
 * at /sys/kernel/tracing when root and it is not mounted.  A missing
 * tracefs is not an error without @path (markers are then off and
 * @warn says why); an explicit @path that cannot be opened is.
 */
int rtapp_tracemark_open(struct rtapp_tracemark *tm, const char *path, char *warn,
			 size_t warn_size, struct dlb_err *err);

/*
 * Format @m into @buf (DLB_MARKER_MAX) and write it; no allocation.
 * Returns -1 with errno when the write fails (e.g. ENOSPC on /dev/full).
 */
int rtapp_tracemark_write(const struct rtapp_tracemark *tm, char *buf,
			  const struct dlb_marker *m);

void rtapp_tracemark_close(struct rtapp_tracemark *tm);

#endif
