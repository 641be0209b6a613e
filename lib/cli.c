// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

int dlb_parse_ll(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int dlb_parse_double(const char *s, double min, double max, double *out)
{
	const char *p;
	char *end;
	double v;

	/* strtod also takes "inf", "nan" and hex floats: a duration or ratio is none of them */
	for (p = s; *p; p++)
		if (!strchr("0123456789.eE+-", *p))
			return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

const char *dlb_strerror(int e)
{
	static __thread char buf[128];

	snprintf(buf, sizeof(buf), "%s", strerror(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

int dlb_cli_exit(const char *prog, int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "%s: stdout: %s\n", prog, dlb_strerror(errno ? errno : EIO));
	return rc == DLB_EXIT_OK ? DLB_EXIT_ENV : rc;
}

void dlb_join_cmdline(char *buf, size_t size, int argc, char **argv)
{
	size_t len = 0;
	int i;

	if (!size)
		return;
	buf[0] = '\0';
	for (i = 0; i < argc && len + 1 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", argv[i]);
}

int dlb_cli_fail(const char *prog, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void dlb_cli_progress(struct dlb_cli_progress *p, const char *prog, u64 now_ns, u64 end_ns,
		      bool done)
{
	struct timespec ts;
	u64 wall;

	if (!p->tty)
		p->tty = isatty(STDERR_FILENO) ? 1 : -1;
	if (p->tty < 0)
		return;
	if (done) {
		if (p->shown)
			fputc('\n', stderr);
		p->shown = false;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	wall = (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
	if (p->last_ns && wall - p->last_ns < NSEC_PER_SEC)
		return;
	p->last_ns = wall;
	p->shown = true;
	fprintf(stderr, "\r%s: %.1f of %.1f s simulated (%.0f%%)", prog, (double)now_ns / 1e9,
		(double)end_ns / 1e9, end_ns ? 100.0 * (double)now_ns / (double)end_ns : 0.0);
	fflush(stderr);
}
