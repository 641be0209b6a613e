// SPDX-License-Identifier: GPL-2.0
/* Wrap-safe time compare and duration parsing. */
#include "dlb_test.h"

#include "dlbench/dltime.h"

static void test_time_before_wraps(void **state)
{
	(void)state;
	assert_true(dl_time_before(1, 2));
	assert_false(dl_time_before(2, 1));
	assert_false(dl_time_before(5, 5));
	/* across the u64 wrap: UINT64_MAX - 10 is 20 ns before 9 */
	assert_true(dl_time_before(UINT64_MAX - 10, 9));
	assert_false(dl_time_before(9, UINT64_MAX - 10));
	assert_int_equal(dl_time_max(UINT64_MAX - 10, 9), 9);
}

static void test_us_to_ns(void **state)
{
	u64 ns;

	(void)state;
	assert_int_equal(dlb_us_to_ns(1500, &ns), 0);
	assert_int_equal(ns, 1500000);
	assert_int_equal(dlb_us_to_ns(UINT64_MAX / 1000 + 1, &ns), -1);
}

static const struct {
	const char *s;
	u64 unit;
	int rc;
	u64 ns;
} durations[] = {
	{ "10",		NSEC_PER_SEC,	0, 10 * NSEC_PER_SEC },
	{ "2.5s",	NSEC_PER_SEC,	0, 2500 * NSEC_PER_MSEC },
	{ "0.1s",	NSEC_PER_SEC,	0, 100 * NSEC_PER_MSEC },
	{ "500ms",	NSEC_PER_SEC,	0, 500 * NSEC_PER_MSEC },
	{ "100us",	NSEC_PER_SEC,	0, 100 * NSEC_PER_USEC },
	{ "250ns",	NSEC_PER_SEC,	0, 250 },
	{ "1.5us",	NSEC_PER_SEC,	0, 1500 },
	{ "2m",		NSEC_PER_SEC,	0, 120 * NSEC_PER_SEC },
	{ "1h",		NSEC_PER_SEC,	0, 3600 * NSEC_PER_SEC },
	{ "7",		NSEC_PER_USEC,	0, 7000 },
	{ "",		NSEC_PER_SEC,	-1, 0 },
	{ "-1",		NSEC_PER_SEC,	-1, 0 },
	{ "1.",		NSEC_PER_SEC,	-1, 0 },
	{ "1x",		NSEC_PER_SEC,	-1, 0 },
	{ "s",		NSEC_PER_SEC,	-1, 0 },
	{ "99999999999h", NSEC_PER_SEC,	-1, 0 },	/* overflows u64 ns */
	{ "18446744073709551616", 1,	-1, 0 },	/* 2^64 */
};

static void test_parse_duration(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		u64 ns = 0;
		int rc = dlb_parse_duration(durations[i].s, durations[i].unit, &ns);

		if (rc != durations[i].rc || (rc == 0 && ns != durations[i].ns))
			fail_msg("'%s': rc %d ns %llu, want rc %d ns %llu", durations[i].s, rc,
				 (unsigned long long)ns, durations[i].rc,
				 (unsigned long long)durations[i].ns);
	}
}

static void test_fmt_sec(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(dlb_fmt_sec(buf, sizeof(buf), 25416458208123ULL), "25416.458208");
	assert_string_equal(dlb_fmt_sec(buf, sizeof(buf), 0), "0.000000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_before_wraps),
		cmocka_unit_test(test_us_to_ns),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_fmt_sec),
	};

	return cmocka_run_group_tests_name("dltime", tests, NULL, NULL);
}
