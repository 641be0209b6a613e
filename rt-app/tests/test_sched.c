// SPDX-License-Identifier: GPL-2.0
/* Policy failures explained: exact text per errno; syscall numbers; loop arithmetic. */
#include "dlb_test.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dlbench/exitcode.h"

#include "../calib.h"
#include "../sched.h"

static struct wl_task dl_task(const char *name, u64 rt, u64 dl, u64 pe)
{
	struct wl_task t;

	memset(&t, 0, sizeof(t));
	t.name = (char *)name;
	t.instances = 3;
	t.policy = WL_POLICY_DEADLINE;
	t.dl.runtime = rt;
	t.dl.deadline = dl;
	t.dl.period = pe;
	return t;
}

static void test_eperm(void **state)
{
	struct wl_task t = dl_task("dl_a", 1000000, 10000000, 10000000);
	struct rtapp_admit_ctx ctx = { 0, 2 };
	struct dlb_err err;
	char want[DLB_ERR_MAX];

	(void)state;
	assert_int_equal(rtapp_sched_explain(&err, EPERM, &t, 1, &ctx), -1);
	snprintf(want, sizeof(want), "task 'dl_a' instance 1: not permitted to set policy "
		 "SCHED_DEADLINE (EPERM): it needs root or CAP_SYS_NICE (uid %d); run as root, "
		 "or simulate with --backend reference", (int)geteuid());
	assert_string_equal(err.msg, want);
	assert_int_equal(err.code, DLB_EXIT_ENV);
}

static void test_einval_names_the_rule(void **state)
{
	struct wl_task t = dl_task("x", 2000000, 1000000, 0);
	struct rtapp_admit_ctx ctx = { 0, 2 };
	struct dlb_err err;

	(void)state;
	assert_int_equal(rtapp_sched_explain(&err, EINVAL, &t, 0, &ctx), -1);
	assert_string_equal(err.msg, "task 'x' instance 0: the kernel refused its parameters "
			    "(EINVAL): runtime 2000000 ns exceeds deadline 1000000 ns (runtime "
			    "must not exceed deadline)");
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
}

static void test_ebusy_numbers(void **state)
{
	struct wl_task t = dl_task("big", 9000000, 10000000, 10000000);
	struct rtapp_admit_ctx ctx = { to_ratio(10, 9) * 2, 2 };
	struct dlb_err err;
	const char *want = "task 'big' instance 2: SCHED_DEADLINE admission refused (EBUSY): "
			   "bandwidth 0.900 (runtime 9000000 ns / period 10000000 ns) does not "
			   "fit: this run had admitted 1.800 of the ";

	(void)state;
	assert_int_equal(rtapp_sched_explain(&err, EBUSY, &t, 2, &ctx), -1);
	assert_int_equal(strncmp(err.msg, want, strlen(want)), 0);
	assert_non_null(strstr(err.msg, "less the fair servers' 0.050 per CPU)"));
	assert_int_equal(err.code, DLB_EXIT_ENV);
}

static void test_enosys(void **state)
{
	struct wl_task t = dl_task("a", 1000000, 10000000, 10000000);
	struct rtapp_admit_ctx ctx = { 0, 2 };
	struct dlb_err err;

	(void)state;
	rtapp_sched_explain(&err, ENOSYS, &t, 0, &ctx);
	assert_string_equal(err.msg, "task 'a' instance 0: this kernel has no such system call "
			    "(ENOSYS): no SCHED_DEADLINE here; try --backend reference");
}

/* util_min/util_max: no uclamp is the environment's; a refusal of the values is the input's. */
static void test_uclamp_explain(void **state)
{
	struct wl_task t = { .name = "b", .policy = WL_POLICY_OTHER };
	struct dlb_err err;

	(void)state;
	assert_int_equal(rtapp_uclamp_explain(&err, EOPNOTSUPP, &t, -1), -1);
	assert_int_equal(err.code, DLB_EXIT_ENV);
	assert_string_equal(err.msg, "task 'b': util_min/util_max need utilization clamping, "
			    "which this kernel does not have (CONFIG_UCLAMP_TASK; sched_setattr: "
			    "EOPNOTSUPP); run without them, or on a kernel with uclamp");
	/* the probe's EINVAL: a kernel before uclamp's flags */
	rtapp_uclamp_explain(&err, EINVAL, &t, -1);
	assert_int_equal(err.code, DLB_EXIT_ENV);
	assert_non_null(strstr(err.msg, "uclamp came in Linux 5.3"));
	rtapp_uclamp_explain(&err, ENOSYS, &t, 0);
	assert_int_equal(err.code, DLB_EXIT_ENV);
	assert_non_null(strstr(err.msg, "(no sched_setattr: ENOSYS)"));
	/* a thread's EINVAL: its clamps, with those it has, are refused */
	rtapp_uclamp_explain(&err, EINVAL, &t, 2);
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	assert_int_equal(err.errnum, EINVAL);
	assert_non_null(strstr(err.msg, "task 'b' instance 2: the kernel refused its util_min"));
}

static void test_syscall_numbers(void **state)
{
	(void)state;
	/* VER1: the clamps follow the first 48 bytes (policy changes still pass 48) */
	assert_int_equal(sizeof(struct rtapp_sched_attr), SCHED_ATTR_SIZE_VER1);
	assert_int_equal(offsetof(struct rtapp_sched_attr, sched_util_min), SCHED_ATTR_SIZE_VER0);
	assert_int_equal(SCHED_ATTR_SIZE_VER1, 56);
#if defined(__x86_64__)
	assert_int_equal(rtapp_nr_sched_setattr(), 314);
	assert_int_equal(rtapp_nr_setscheduler2_default(), 315);
#elif defined(__aarch64__)
	assert_int_equal(rtapp_nr_sched_setattr(), 274);
#elif defined(__arm__)
	assert_int_equal(rtapp_nr_sched_setattr(), 380);
#elif defined(__i386__)
	assert_int_equal(rtapp_nr_sched_setattr(), 351);
#endif
}

static void test_loops_for(void **state)
{
	(void)state;
	assert_int_equal(rtapp_loops_for(1000, 20.0), 50);
	assert_int_equal(rtapp_loops_for(1, 20.0), 1);	/* never 0 loops for some work */
	assert_int_equal(rtapp_loops_for(0, 20.0), 0);
	assert_int_equal(rtapp_loops_for(1000000, 22.26), 44924);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eperm),
		cmocka_unit_test(test_einval_names_the_rule),
		cmocka_unit_test(test_ebusy_numbers),
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_uclamp_explain),
		cmocka_unit_test(test_syscall_numbers),
		cmocka_unit_test(test_loops_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
