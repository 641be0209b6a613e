// SPDX-License-Identifier: GPL-2.0
/*
 * Out of memory: every allocation of dlb_sim_create() and dlb_sim_run() is
 * made to fail in turn (tests/fault/failalloc.h), and each time the library
 * returns DLB_EXIT_INTERNAL with "out of memory ..." instead of aborting,
 * and frees what it holds (the sanitizer build checks leaks).
 */
#include "dlb_test.h"

#include "dlbench/exitcode.h"
#include "fault/failalloc.h"

#include "wlbuild.h"

/* 4 CPUs: periodic tasks on unique timers, a shared mutex, enough to queue events. */
static struct workload *oom_workload(void)
{
	struct workload *wl = wlb_new(50 * MS);
	int i, m = wlb_res(wl, "m", WL_RES_MUTEX);

	for (i = 0; i < 8; i++) {
		char name[8];
		int t, r;

		snprintf(name, sizeof(name), "t%d", i);
		t = wlb_task(wl, name, WL_POLICY_DEADLINE, 1 * MS, (5 + i) * MS, (5 + i) * MS);
		r = wlb_res(wl, name, WL_RES_TIMER);
		wl->resources[r].unique = true;
		wlb_ev(wl, t, WL_EV_LOCK, 0, m);
		wlb_ev(wl, t, WL_EV_RUN, 200 * US, -1);
		wlb_ev(wl, t, WL_EV_UNLOCK, 0, m);
		wlb_ev(wl, t, WL_EV_RUN, 500 * US, -1);
		wlb_ev(wl, t, WL_EV_TIMER, (5 + i) * MS, r);
	}
	return wl;
}

static void expect_oom(const struct dlb_err *err, unsigned long n, const char *where)
{
	if (err->code != DLB_EXIT_INTERNAL || !strstr(err->msg, "out of memory"))
		fail_msg("allocation %lu failed in %s: code %d, '%s', want %d and out of memory", n,
			 where, err->code, err->msg, DLB_EXIT_INTERNAL);
}

static void test_every_allocation_fails(void **state)
{
	struct workload *wl = oom_workload();
	unsigned long n, in_create = 0, in_run = 0;
	struct dlb_sim_opts o;

	(void)state;
	wlb_opts(&o, 4);
	for (n = 0; n < 100000; n++) {
		struct dlb_sim *sim;
		struct dlb_err err = { 0 };
		int rc;

		failalloc_arm(n);
		sim = dlb_sim_create(wl, &o, &err);
		if (!sim) {
			failalloc_disarm();
			assert_true(failalloc_failed());
			expect_oom(&err, n, "dlb_sim_create");
			in_create++;
			continue;
		}
		rc = dlb_sim_run(sim, &err);
		failalloc_disarm();
		dlb_sim_free(sim);
		if (!failalloc_failed()) {
			assert_int_equal(rc, 0);	/* n is past the last allocation */
			break;
		}
		assert_int_equal(rc, -1);
		expect_oom(&err, n, "dlb_sim_run");
		in_run++;
	}
	/* both sides were reached: the sim's own arrays, then the event queue */
	assert_true(in_create >= 5);
	assert_true(in_run >= 1);
	wlb_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_allocation_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
