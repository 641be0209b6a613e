/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names from a workload (task names, log_basename) made safe as one file
 * name component.  Every file named after a task goes through it: rt-app
 * logs and sched snapshots of both backends (rt-app/logname.c).
 *
 * Valid UTF-8 is kept as it is; '/', '%', control characters, DEL and the
 * bytes of invalid UTF-8 become "%XX" (upper-case hex), as do the dots of a
 * name that is "." or ".." and nothing else.  The mapping is one to one ('%'
 * is escaped too), so two names never share a file, and a name that needed
 * nothing comes out unchanged (rt-app's own file names for it).
 */
#ifndef DLBENCH_FNAME_H
#define DLBENCH_FNAME_H

#include <stddef.h>

/*
 * Write @name, escaped, to @out (@size bytes, NUL-terminated).  Returns the
 * escaped length, or -1 if it does not fit (@out then holds a truncated,
 * still escaped and terminated, prefix).
 */
int dlb_fname_escape(char *out, size_t size, const char *name);

#endif
