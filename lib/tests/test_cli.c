// SPDX-License-Identifier: GPL-2.0
/* The command-line helpers: number parsers and the lowercase strerror. */
#include "dlb_test.h"

#include <errno.h>

#include "dlbench/cli.h"

static void test_parse_ll(void **state)
{
	long long v = 7;

	(void)state;
	assert_int_equal(dlb_parse_ll("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(dlb_parse_ll("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(dlb_parse_ll("101", 0, 100, &v), -1);
	assert_int_equal(dlb_parse_ll("", 0, 100, &v), -1);
	assert_int_equal(dlb_parse_ll("4x", 0, 100, &v), -1);
	assert_int_equal(dlb_parse_ll("99999999999999999999", 0, 100, &v), -1);
	assert_int_equal(v, -3);	/* untouched by the failures */
}

static const struct {
	const char *s;
	int rc;
	double v;
} doubles[] = {
	{ "0.7", 0, 0.7 }, { "1", 0, 1 }, { "0", 0, 0 }, { ".5", 0, 0.5 }, { "2e-1", 0, 0.2 },
	{ "10", 0, 10 },
	{ "10.5", -1, 0 },	/* above max */
	{ "-0.1", -1, 0 },	/* below min */
	{ "", -1, 0 }, { "0.5x", -1, 0 }, { "inf", -1, 0 }, { "nan", -1, 0 },
	{ "0x1p-1", -1, 0 }, { " 1", -1, 0 }, { "1e999", -1, 0 },
};

static void test_parse_double(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
		double v = -42;
		int rc = dlb_parse_double(doubles[i].s, 0, 10, &v);

		if (rc != doubles[i].rc)
			fail_msg("'%s': rc %d, want %d", doubles[i].s, rc, doubles[i].rc);
		if (!rc)
			assert_true(v == doubles[i].v);
		else
			assert_true(v == -42);
	}
}

static void test_strerror_lowercase(void **state)
{
	(void)state;
	assert_string_equal(dlb_strerror(ENOENT), "no such file or directory");
	assert_string_equal(dlb_strerror(EACCES), "permission denied");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ll),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_strerror_lowercase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
