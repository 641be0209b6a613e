/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers every dlb-* main() needs: numbers from options, the command line. */
#ifndef DLBENCH_CLI_H
#define DLBENCH_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "dltime.h"

/*
 * A whole decimal number in [@min, @max] into @out.  Returns 0, or -1 on
 * an empty string, trailing characters, overflow or a value out of range
 * (then @out is untouched).
 */
int dlb_parse_ll(const char *s, long long min, long long max, long long *out);

/*
 * A finite decimal number (strtod syntax, no hex, no inf/nan) in [@min,
 * @max] into @out.  Returns 0, or -1 like dlb_parse_ll.
 */
int dlb_parse_double(const char *s, double min, double max, double *out);

/*
 * strerror(@e) with a lowercase first letter, as error lines are written;
 * in a thread-local buffer valid until the next call.
 */
const char *dlb_strerror(int e);

/* argv joined by spaces into @buf (truncated to @size), for reports and summaries. */
void dlb_join_cmdline(char *buf, size_t size, int argc, char **argv);

/*
 * "PROG: message" and a newline on stderr; returns @code, so that main()
 * can `return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "...", ...)`.
 */
int dlb_cli_fail(const char *prog, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The end of a main() that prints its results on stdout: flushes it, and
 * when that fails (a full disk, a closed pipe under SIGPIPE ignored) says
 * "PROG: stdout: reason" on stderr and turns a success @rc into
 * DLB_EXIT_ENV, so that a cut output never exits 0.  Returns the exit code.
 */
int dlb_cli_exit(const char *prog, int rc);

/*
 * A progress line for a person watching a long run: on stderr only when it
 * is a terminal, at most once a second, rewritten in place ("PROG: 12.0 of
 * 60.0 s simulated (20%)"); @done ends the line if one was shown.  @p starts
 * zeroed.
 */
struct dlb_cli_progress {
	int tty;		/* 0 unknown, 1 yes, -1 no */
	u64 last_ns;		/* wall clock of the last line */
	bool shown;
};
void dlb_cli_progress(struct dlb_cli_progress *p, const char *prog, u64 now_ns, u64 end_ns,
		      bool done);

#endif
