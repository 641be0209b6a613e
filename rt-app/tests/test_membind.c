// SPDX-License-Identifier: GPL-2.0
/* nodes_membind on the kernel backend: the nodes checked before the run, failures explained. */
#include "dlb_test.h"
#include "dlb_test_wl.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "dlbench/exitcode.h"

#include "../membind.h"

/* A node directory like the kernel's, with node0 and node2 (a hole at 1). */
static const char *fake_node_dir(void)
{
	static char dir[] = "/tmp/dlb-nodes.XXXXXX";
	char path[64];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/node0", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/node2", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/online", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0,2\n", f);
	fclose(f);
	return dir;
}

static void rm_node_dir(const char *dir)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/node0", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/node2", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/online", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * Every node of every task and phase must exist (rt-app: "Invalid node"
 * above numa_max_node()): a missing one is the input's error, exit 2, one
 * line naming the task and the phase; nodes that exist pass.
 */
static void test_check_nodes(void **state)
{
	struct workload *ok = dlb_test_load("{ \"tasks\": { \"t\": { \"nodes_membind\": [0, 2], "
				   "\"run\": 100 } } }");
	struct workload *bad = dlb_test_load("{ \"tasks\": { \"a\": { \"nodes_membind\": [0], \"run\": 100 }, "
				    "\"t\": { \"phases\": { \"p0\": { \"run\": 100 }, \"p1\": { "
				    "\"nodes_membind\": [2, 1], \"run\": 100 } } } } }");
	struct workload *none = dlb_test_load("{ \"tasks\": { \"t\": { \"run\": 100 } } }");
	const char *dir = fake_node_dir();
	struct dlb_err err = { 0 };
	char want[512];

	(void)state;
	assert_int_equal(rtapp_membind_check(ok, dir, &err), 0);
	assert_int_equal(rtapp_membind_check(none, "/nonexistent", &err), 0);
	assert_int_equal(rtapp_membind_check(bad, dir, &err), -1);
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	snprintf(want, sizeof(want), "task 't' phase 'p1': nodes_membind: node 1 does not exist on "
		 "this machine (its nodes: 0,2, in %s)", dir);
	assert_string_equal(err.msg, want);
	rm_node_dir(dir);
	wl_free(ok);
	wl_free(bad);
	wl_free(none);
}

/* A kernel without NUMA policies is the environment's: exit 3. */
static void test_explain(void **state)
{
	struct wl_task t = { .name = "b", .policy = WL_POLICY_OTHER };
	struct dlb_err err;

	(void)state;
	assert_int_equal(rtapp_membind_explain(&err, ENOSYS, &t, -1, NULL), -1);
	assert_int_equal(err.code, DLB_EXIT_ENV);
	assert_int_equal(err.errnum, ENOSYS);
	assert_string_equal(err.msg, "task 'b': nodes_membind needs NUMA memory policies, which "
			    "this kernel does not have (CONFIG_NUMA; get_mempolicy: ENOSYS); run "
			    "without it, or on a kernel with NUMA");
	rtapp_membind_explain(&err, EINVAL, &t, 1, "p0");
	assert_int_equal(err.code, DLB_EXIT_ENV);
	assert_non_null(strstr(err.msg, "task 'b' instance 1 phase 'p0': nodes_membind: "
			       "set_mempolicy: EINVAL (none of its nodes"));
}

/* The calling thread's policy reads back as numa_maps writes it; bound to node 0 here. */
static void test_set_get(void **state)
{
	struct wl_membind m = { .set = true };
	char pol[64];
	int rc;

	(void)state;
	rc = rtapp_membind_get(pol, sizeof(pol));
	if (rc == ENOSYS)
		dlb_skip("this kernel has no NUMA policies (ENOSYS)");
	assert_int_equal(rc, 0);
	assert_string_equal(pol, "default");
	dlb_cpumask_set(&m.nodes, 0);
	assert_int_equal(rtapp_membind_set(&m), 0);
	assert_int_equal(rtapp_membind_get(pol, sizeof(pol)), 0);
	assert_string_equal(pol, "bind:0");
	/* too small a buffer is said, not cut silently */
	assert_int_equal(rtapp_membind_get(pol, 5), ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_nodes),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_set_get),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
