// SPDX-License-Identifier: GPL-2.0
/*
 * The tick grid in a CPU's sched_stat_runtime times (dlb_tick_phase(), the
 * jobs trace's tickphase): found where the times pile up modulo the tick,
 * also across the tick's end and before t0; not found in an even spread.
 */
#include "dlb_test.h"

#include "../conform.h"

#define MS	1000000ULL
#define T0	43527652839409ULL	/* a kernel run's start */

/* A small deterministic generator (the tests must give the same bytes). */
static u64 rnd(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/*
 * @ticks times at t0 + @phase + k * 4 ms plus 0..19 us of interrupt
 * latency, from 300 ms before t0, with @others spread evenly at random
 * (the switches' and wake-ups' charges).
 */
static size_t fill(u64 *ts, size_t ticks, size_t others, u64 phase)
{
	u64 s = 42, start = T0 - 300 * MS;
	size_t n = 0, i;

	for (i = 0; i < ticks; i++)
		ts[n++] = start + phase + i * 4 * MS + rnd(&s) % 20000;
	for (i = 0; i < others; i++)
		ts[n++] = start + rnd(&s) % (ticks * 4 * MS);
	return n;
}

static void test_found(void **state)
{
	static u64 ts[4096];
	u64 ph;
	size_t n;

	(void)state;
	/* a phase that, with the latency, stays inside the tick */
	n = fill(ts, 1000, 1000, 1191552);
	assert_int_equal(dlb_tick_phase(ts, n, T0, 4 * MS, &ph), 1);
	assert_in_range(ph, 1191552, 1191552 + 20000);
	/* one that crosses its end: the latency carries some times past 0 */
	n = fill(ts, 1000, 1000, 4 * MS - 8000);
	assert_int_equal(dlb_tick_phase(ts, n, T0, 4 * MS, &ph), 1);
	assert_true(ph >= 4 * MS - 8000 || ph <= 12000);
	/* three times as many other charges as ticks still show the grid */
	n = fill(ts, 500, 1500, 2 * MS);
	assert_int_equal(dlb_tick_phase(ts, n, T0, 4 * MS, &ph), 1);
	assert_in_range(ph, 2 * MS, 2 * MS + 20000);
}

static void test_not_found(void **state)
{
	static u64 ts[4096];
	u64 s = 7, ph = 5;
	size_t i;

	(void)state;
	/* an even spread: no tick stands out */
	for (i = 0; i < 2000; i++)
		ts[i] = T0 + rnd(&s) % (1000 * MS);
	assert_int_equal(dlb_tick_phase(ts, 2000, T0, 4 * MS, &ph), 0);
	assert_int_equal(ph, 0);
	/* too few times, or no tick */
	assert_int_equal(dlb_tick_phase(ts, 15, T0, 4 * MS, &ph), 0);
	assert_int_equal(dlb_tick_phase(ts, 2000, T0, 0, &ph), 0);
	assert_int_equal(dlb_tick_phase(NULL, 0, T0, 4 * MS, &ph), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found),
		cmocka_unit_test(test_not_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
