/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit codes of every dlbench tool and of run.sh: defined here, once.
 *
 * run.sh reads this table with sed (see tools/exitcodes.sh), so keep each
 * X() on one line.  The README's table is checked against it by a test.
 */
#ifndef DLBENCH_EXITCODE_H
#define DLBENCH_EXITCODE_H

#define DLB_EXIT_CODES(X)								\
	X(OK,		0, "success: data complete, nothing over threshold")		\
	X(REGRESSION,	1, "regression against the baseline, or deadline misses over the threshold") \
	X(BAD_INPUT,	2, "bad input: command line, workload, trace or report unusable") \
	X(ENV,		3, "environment unusable: not root, no SCHED_DEADLINE, no tracefs, missing dependency") \
	X(INCOMPLETE,	4, "incomplete data: lost events, truncated trace, interrupted run") \
	X(INTERNAL,	5, "internal error: a dlbench bug (an invariant failed)")

enum dlb_exit {
#define X(name, value, text) DLB_EXIT_##name = value,
	DLB_EXIT_CODES(X)
#undef X
};

/* One lowercase line describing @code; "unknown exit code" otherwise. */
const char *dlb_exit_str(int code);

#endif
