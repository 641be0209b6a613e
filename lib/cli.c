// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dlbench/cli.h"

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
