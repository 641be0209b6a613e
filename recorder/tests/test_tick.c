// SPDX-License-Identifier: GPL-2.0
/* The traced kernel's CONFIG_HZ, from /proc/timer_list's jiffies at two instants. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dlb_test.h"

#include "../recorder.h"

#define MS	1000000ULL

static void test_tick_hz(void **state)
{
	(void)state;
	/* 250 Hz over 1 s, a tick off either way */
	assert_int_equal(rec_tick_hz(1000, 0, 1250, 1000 * MS), 250);
	assert_int_equal(rec_tick_hz(1000, 0, 1249, 1000 * MS), 250);
	assert_int_equal(rec_tick_hz(1000, 0, 1251, 1000 * MS), 250);
	assert_int_equal(rec_tick_hz(0, 5 * MS, 100, 1005 * MS), 100);
	assert_int_equal(rec_tick_hz(0, 0, 30, 100 * MS), 300);
	assert_int_equal(rec_tick_hz(0, 0, 500, 500 * MS), 1000);
	/* 250 Hz over 100 ms, off by a tick: 240 or 260, still 250; 300 is 20 % away */
	assert_int_equal(rec_tick_hz(0, 0, 24, 100 * MS), 250);
	assert_int_equal(rec_tick_hz(0, 0, 26, 100 * MS), 250);
	/* too short, backwards, or no CONFIG_HZ near */
	assert_int_equal(rec_tick_hz(0, 0, 25, 99 * MS), 0);
	assert_int_equal(rec_tick_hz(10, 0, 5, 1000 * MS), 0);
	assert_int_equal(rec_tick_hz(0, 2000 * MS, 250, 1000 * MS), 0);
	assert_int_equal(rec_tick_hz(0, 0, 180, 1000 * MS), 0);
	assert_int_equal(rec_tick_hz(0, 0, 600, 1000 * MS), 0);
}

static void test_jiffies(void **state)
{
	char path[] = "/tmp/dlb-timer-list.XXXXXX";
	u64 j = 0, now = 0;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	/* as 6.18 writes it: the clock first, a CPU's jiffies in its tick device */
	fputs("Timer List Version: v0.10\nHRTIMER_MAX_CLOCK_BASES: 8\n"
	      "now at 24171353767207 nsecs\n\ncpu: 0\n"
	      "  .idle_jiffies   : 4300849329\n  .last_jiffies   : 4300934924\n"
	      "jiffies: 4300935277\n\ncpu: 1\njiffies: 4300935278\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rec_jiffies(path, &j, &now), 0);
	assert_int_equal(now, 24171353767207ULL);
	assert_int_equal(j, 4300935277ULL);
	/* no jiffies line (another format), no file */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("now at 5 nsecs\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rec_jiffies(path, &j, &now), -1);
	unlink(path);
	assert_int_equal(rec_jiffies(path, &j, &now), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_hz),
		cmocka_unit_test(test_jiffies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
