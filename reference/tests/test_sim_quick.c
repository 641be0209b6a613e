// SPDX-License-Identifier: GPL-2.0
#include "dlb_test.h"
#include <stdarg.h>
#include "wlbuild.h"

static void test_two_periodic(void **state)
{
	struct workload *wl = wlb_new(20 * MS);
	struct dlb_sim_opts o;
	struct dlb_err err;
	struct wlb_log log;

	(void)state;
	wlb_periodic(wl, "a", 2 * MS, 5 * MS, 5 * MS, 2 * MS);
	wlb_periodic(wl, "b", 4 * MS, 10 * MS, 10 * MS, 4 * MS);
	dlb_sim_opts_init(&o);
	o.check = true;
	if (wlb_run(wl, &o, WLB_SWITCH | WLB_DL, &log, NULL, &err) < 0)
		fail_msg("%s", err.msg);
	printf("%s", log.buf);
	free(log.buf);
	wlb_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_periodic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
