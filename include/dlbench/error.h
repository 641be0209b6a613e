/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors returned by libraries.
 *
 * Libraries never print and never exit: they fill a struct dlb_err and
 * return -1 (or NULL).  The message is one lowercase line without a final
 * full stop that names where the problem is, e.g.
 *
 *	workloads/x.json:12:7: tasks.t0.dl-runtime: runtime 500 ns is below 1024 ns
 *
 * Only main() prints it ("prog: <msg>") and exits with a code from
 * exitcode.h; @code tells main() which one.
 */
#ifndef DLBENCH_ERROR_H
#define DLBENCH_ERROR_H

#include <stddef.h>

#define DLB_ERR_MAX 512

struct dlb_err {
	int code;		/* enum dlb_exit: what main() should return */
	char msg[DLB_ERR_MAX];
	int errnum;		/* the errno a system call (real or modelled) refused with, else 0 */
};

/* Set @err (may be NULL) to a formatted message, errnum 0; always returns -1. */
int dlb_err_set(struct dlb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the existing message with "prefix: " (for context); returns -1. */
int dlb_err_prefix(struct dlb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void dlb_err_clear(struct dlb_err *err);

#endif
