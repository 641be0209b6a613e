// SPDX-License-Identifier: GPL-2.0
/* trace_marker lookup and writes (see tracemark.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "tracemark.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int try_open(struct rtapp_tracemark *tm, const char *dir)
{
	snprintf(tm->path, sizeof(tm->path), "%s/trace_marker", dir);
	tm->fd = open(tm->path, O_WRONLY | O_CLOEXEC);
	return tm->fd;
}

int rtapp_tracemark_open(struct rtapp_tracemark *tm, const char *path, char *warn,
			 size_t warn_size, struct dlb_err *err)
{
	size_t i;

	tm->fd = -1;
	warn[0] = '\0';
	if (path) {
		snprintf(tm->path, sizeof(tm->path), "%s", path);
		tm->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (tm->fd < 0)
			return dlb_err_set(err, DLB_EXIT_ENV, "--trace-marker: %s: %s", path,
					   dlb_strerror(errno));
		return 0;
	}
	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++)
		if (try_open(tm, tracefs_dirs[i]) >= 0)
			return 0;
	/*
	 * Not mounted: mount it where the kernel expects it.  It is left
	 * mounted: other tools may start using it meanwhile, and a mounted
	 * tracefs changes nothing until someone enables tracing.
	 */
	if (geteuid() == 0 && mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL) == 0 &&
	    try_open(tm, tracefs_dirs[0]) >= 0)
		return 0;
	snprintf(warn, warn_size, "no trace_marker (tracefs not mounted under %s or %s%s): "
		 "markers are off", tracefs_dirs[0], tracefs_dirs[1],
		 geteuid() ? ", and mounting it needs root" : "");
	tm->path[0] = '\0';
	return 0;
}

int rtapp_tracemark_write(const struct rtapp_tracemark *tm, char *buf,
			  const struct dlb_marker *m)
{
	int n;

	if (tm->fd < 0)
		return 0;
	n = dlb_marker_format(buf, DLB_MARKER_MAX, m);
	if (n > 0 && write(tm->fd, buf, (size_t)n) < 0)
		return -1;
	return 0;
}

void rtapp_tracemark_close(struct rtapp_tracemark *tm)
{
	if (tm->fd >= 0)
		close(tm->fd);
	tm->fd = -1;
}
