// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dlbench/dltime.h"

static const struct {
	const char *suffix;
	u64 ns;
} units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s",	NSEC_PER_SEC },
	{ "m",	60 * NSEC_PER_SEC },
	{ "h",	3600 * NSEC_PER_SEC },
};

/*
 * Integer part and up to 9 fractional digits are parsed exactly (no
 * floating point), so "0.1s" is 100000000 ns, not 99999999.
 */
int dlb_parse_duration(const char *s, u64 default_unit_ns, u64 *ns)
{
	u64 ip = 0, frac = 0, fdiv = 1, unit = default_unit_ns, v;
	const char *p = s;
	size_t i;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (u64)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			if (fdiv < NSEC_PER_SEC) {
				frac = frac * 10 + (u64)(*p - '0');
				fdiv *= 10;
			}
		}
	}
	if (*p) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(p, units[i].suffix))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -1;
		unit = units[i].ns;
	}
	if (unit && ip > UINT64_MAX / unit)
		return -1;
	v = ip * unit;
	if (frac) {
		/* frac / fdiv * unit, exact for unit >= fdiv */
		u64 f = unit >= fdiv ? frac * (unit / fdiv) : frac * unit / fdiv;

		if (v > UINT64_MAX - f)
			return -1;
		v += f;
	}
	*ns = v;
	return 0;
}

char *dlb_fmt_sec(char *buf, unsigned long size, u64 ns)
{
	snprintf(buf, size, "%llu.%06llu", (unsigned long long)(ns / NSEC_PER_SEC),
		 (unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
	return buf;
}
