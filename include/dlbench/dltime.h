/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time inside dlbench is u64 nanoseconds.  Units appear in names only at the
 * edges (runtime_us in JSON, "10ms" on a command line) and are converted
 * once, where they are read.
 */
#ifndef DLBENCH_DLTIME_H
#define DLBENCH_DLTIME_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/*
 * Wrap-safe "a is before b", as the kernel's dl_time_before(): correct as
 * long as the two instants are less than 2^63 ns (292 years) apart.
 */
static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static inline u64 dl_time_max(u64 a, u64 b)
{
	return dl_time_before(a, b) ? b : a;
}

/* @us * 1000 into @ns; -1 on overflow. */
static inline int dlb_us_to_ns(u64 us, u64 *ns)
{
	if (us > UINT64_MAX / NSEC_PER_USEC)
		return -1;
	*ns = us * NSEC_PER_USEC;
	return 0;
}

/*
 * Parse a duration such as "10", "2.5s", "500ms", "100us", "250ns", "2m",
 * "1h" into ns.  A bare number is taken in @default_unit_ns (for example
 * NSEC_PER_SEC for --duration).  Returns 0, or -1 on syntax error,
 * negative value or overflow.
 */
int dlb_parse_duration(const char *s, u64 default_unit_ns, u64 *ns);

/* Format @ns as "12.345678" seconds into @buf (at least 24 bytes). */
char *dlb_fmt_sec(char *buf, unsigned long size, u64 ns);

#endif
