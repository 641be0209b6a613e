// SPDX-License-Identifier: GPL-2.0
/* Bounded percentiles: exact below DLB_STAT_EXACT samples, within 1/64 above. */
#include "dlb_test.h"

#include <math.h>

#include "../stats.h"

static void test_exact(void **state)
{
	struct dlb_stat s;
	s64 v;
	int i;

	(void)state;
	dlb_stat_init(&s);
	assert_int_equal(dlb_stat_pct(&s, 50, &v), -1);
	/* 1..100 shuffled by a stride coprime with 100 */
	for (i = 0; i < 100; i++)
		dlb_stat_add(&s, (i * 37) % 100 + 1);
	assert_false(dlb_stat_approx(&s));
	assert_int_equal(dlb_stat_pct(&s, 50, &v), 0);
	assert_int_equal(v, 50);
	assert_int_equal(dlb_stat_pct(&s, 99, &v), 0);
	assert_int_equal(v, 99);
	assert_int_equal(dlb_stat_pct(&s, 100, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(dlb_stat_pct(&s, 0.001, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 100);
	assert_int_equal(dlb_stat_mean(&s), 51);	/* 50.5 rounds away from zero */
	dlb_stat_free(&s);
}

static void test_signed(void **state)
{
	struct dlb_stat s;
	s64 v;

	(void)state;
	dlb_stat_init(&s);
	dlb_stat_add(&s, -300);
	dlb_stat_add(&s, -100);
	dlb_stat_add(&s, 200);
	assert_int_equal(dlb_stat_pct(&s, 50, &v), 0);
	assert_int_equal(v, -100);
	assert_int_equal(s.min, -300);
	dlb_stat_free(&s);
}

/* Past the exact buffer, every percentile is within 1/64 of the exact answer. */
static void test_histogram(void **state)
{
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 100 };
	const s64 n = 200000;
	struct dlb_stat s;
	size_t i;
	s64 k, v;

	(void)state;
	dlb_stat_init(&s);
	/* values -50000 .. 149999 ns in a scrambled order */
	for (k = 0; k < n; k++)
		dlb_stat_add(&s, (k * 7919) % n - 50000);
	assert_true(dlb_stat_approx(&s));
	assert_int_equal(s.count, n);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		s64 want = (s64)ceil(ps[i] / 100.0 * (double)n - 1e-9) - 1 - 50000;

		assert_int_equal(dlb_stat_pct(&s, ps[i], &v), 0);
		if (llabs(v - want) > llabs(want) / 64 + 1)
			fail_msg("p%g: got %lld, want %lld", ps[i], (long long)v, (long long)want);
	}
	assert_int_equal(dlb_stat_pct(&s, 100, &v), 0);
	assert_int_equal(v, 149999);	/* clamped to the exact max */
	dlb_stat_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_histogram),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
