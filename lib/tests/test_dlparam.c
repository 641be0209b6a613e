// SPDX-License-Identifier: GPL-2.0
/* The kernel-rule validator against a table, and the seed's broken check. */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/dlparam.h"
#include "dlbench/exitcode.h"

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

static const struct {
	u64 runtime, deadline, period;
	enum dl_param_rule want;
} table[] = {
	{ 10 * MS, 30 * MS, 100 * MS,	DL_PARAM_OK },
	{ 10 * MS, 100 * MS, 0,		DL_PARAM_OK },		/* period 0 = deadline */
	{ 1024, 100 * US, 100 * US,	DL_PARAM_OK },		/* both limits exactly */
	{ 10 * MS, 10 * MS, 10 * MS,	DL_PARAM_OK },		/* runtime == deadline == period */
	{ 10 * MS, 0, 100 * MS,		DL_PARAM_DEADLINE_ZERO },
	{ 0, 0, 0,			DL_PARAM_DEADLINE_ZERO },
	{ 1023, 1 * MS, 1 * MS,		DL_PARAM_RUNTIME_MIN },
	{ 0, 1 * MS, 1 * MS,		DL_PARAM_RUNTIME_MIN },
	{ 1 * MS, 1ULL << 63, 0,	DL_PARAM_BIT63 },
	{ 1 * MS, 2 * MS, (1ULL << 63) | 1, DL_PARAM_BIT63 },
	{ 10 * US, 50 * US, 99 * US,	DL_PARAM_PERIOD_MIN },
	{ 10 * US, 50 * US, 0,		DL_PARAM_PERIOD_MIN },	/* period = deadline = 50us */
	{ 1 * MS, 1 * MS, 4194305 * US,	DL_PARAM_PERIOD_MAX },
	{ 1 * MS, 4194304 * US, 0,	DL_PARAM_OK },
	{ 1 * MS, 20 * MS, 10 * MS,	DL_PARAM_DEADLINE_GT_PERIOD },
	{ 20 * MS, 10 * MS, 30 * MS,	DL_PARAM_RUNTIME_GT_DEADLINE },
	{ 20 * MS, 10 * MS, 0,		DL_PARAM_RUNTIME_GT_DEADLINE },
	/* both wrong: mainline checks deadline <= period first */
	{ 50 * MS, 20 * MS, 10 * MS,	DL_PARAM_DEADLINE_GT_PERIOD },
};

static void test_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct dl_params p = { table[i].runtime, table[i].deadline, table[i].period, 0 };
		enum dl_param_rule got = dl_param_check(&p, NULL);

		if (got != table[i].want)
			fail_msg("row %zu: got '%s', want '%s'", i, dl_param_rule_str(got),
				 dl_param_rule_str(table[i].want));
	}
}

static void test_custom_limits(void **state)
{
	struct dl_param_limits lim = { .period_min = 1 * MS, .period_max = 10 * MS };
	struct dl_params p = { 100 * US, 500 * US, 0, 0 };

	(void)state;
	assert_int_equal(dl_param_check(&p, &lim), DL_PARAM_PERIOD_MIN);
	p.deadline = p.period = 20 * MS;
	assert_int_equal(dl_param_check(&p, &lim), DL_PARAM_PERIOD_MAX);
}

/* The seed's __checkparam_dl accepts what the kernel must refuse. */
static void test_seed_check_is_broken(void **state)
{
	struct dl_params bad = { .runtime = 20 * MS, .deadline = 10 * MS, .period = 0 };
	struct dl_params zero = { 0 };

	(void)state;
	assert_true(dl_param_check_seed_v4(&bad));
	assert_int_equal(dl_param_check(&bad, NULL), DL_PARAM_RUNTIME_GT_DEADLINE);
	assert_true(dl_param_check_seed_v4(&zero));
	assert_int_equal(dl_param_check(&zero, NULL), DL_PARAM_DEADLINE_ZERO);
	assert_false(dl_param_check_seed_v4(NULL));
}

static void test_explain(void **state)
{
	struct dl_params p = { 2 * MS, 1 * MS, 0, 0 };
	char buf[256];

	(void)state;
	dl_param_explain(buf, sizeof(buf), &p, NULL, dl_param_check(&p, NULL));
	assert_string_equal(buf, "runtime 2000000 ns exceeds deadline 1000000 ns "
				 "(runtime must not exceed deadline)");
	p.runtime = 1000;
	dl_param_explain(buf, sizeof(buf), &p, NULL, dl_param_check(&p, NULL));
	assert_string_equal(buf, "runtime 1000 ns is below 1024 ns (runtime must be at least 1024 ns)");
}

/* This machine: 2 CPUs, 950000/1000000, 5 % fair server each: 1.8 CPUs. */
static void test_capacity(void **state)
{
	u64 cap = dl_bw_capacity(2, RT_RUNTIME_US_DEFAULT, RT_PERIOD_US_DEFAULT,
				 to_ratio(1000000000ULL, 50000000ULL));

	(void)state;
	assert_true(dl_bw_to_double(cap) > 1.799 && dl_bw_to_double(cap) < 1.801);
	/* 18 tasks of 10 % fit, the 19th does not */
	assert_true(18 * to_ratio(100 * MS, 10 * MS) <= cap);
	assert_true(19 * to_ratio(100 * MS, 10 * MS) > cap);
}

static void test_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(DLB_EXIT_OK, 0);
	assert_string_equal(dlb_exit_str(DLB_EXIT_INCOMPLETE),
			    "incomplete data: lost events, truncated trace, interrupted run");
	assert_string_equal(dlb_exit_str(99), "unknown exit code");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_custom_limits),
		cmocka_unit_test(test_seed_check_is_broken),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests_name("dlparam", tests, NULL, NULL);
}
