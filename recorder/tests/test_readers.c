// SPDX-License-Identifier: GPL-2.0
/* Stray trace readers: which fd links steal events, and the /proc scan. */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "dlb_test.h"

#include "../recorder.h"

static void test_path_steals(void **state)
{
	(void)state;
	assert_true(rec_path_steals("/sys/kernel/tracing/trace_pipe", NULL));
	assert_true(rec_path_steals("/sys/kernel/tracing/per_cpu/cpu1/trace_pipe_raw", NULL));
	assert_true(rec_path_steals("/sys/kernel/debug/tracing/trace_pipe", "x"));
	/* another instance's reader takes nothing from us */
	assert_false(rec_path_steals("/sys/kernel/tracing/instances/other/trace_pipe", NULL));
	assert_false(rec_path_steals("/sys/kernel/tracing/instances/other/trace_pipe", "oth"));
	assert_true(rec_path_steals("/sys/kernel/tracing/instances/mine/per_cpu/cpu0/trace_pipe_raw",
				    "mine"));
	/* reading `trace` or writing trace_marker consumes nothing */
	assert_false(rec_path_steals("/sys/kernel/tracing/trace", NULL));
	assert_false(rec_path_steals("/sys/kernel/tracing/trace_marker", NULL));
	assert_false(rec_path_steals("/tmp/trace_pipe", NULL));
	assert_false(rec_path_steals("pipe:[1234]", NULL));
}

static void mk(const char *root, const char *rel, const char *link, const char *comm)
{
	char p[PATH_MAX], q[PATH_MAX + 8];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(q, sizeof(q), "%s/fd", p);
	assert_int_equal(mkdir(q, 0755), 0);
	snprintf(q, sizeof(q), "%s/fd/3", p);
	assert_int_equal(symlink(link, q), 0);
	snprintf(q, sizeof(q), "%s/comm", p);
	f = fopen(q, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
}

static void test_find_readers(void **state)
{
	char root[] = "/tmp/dlb-readers-XXXXXX", cmd[PATH_MAX];
	struct rec_reader rd[4];
	struct dlb_err err;
	int n;

	(void)state;
	assert_non_null(mkdtemp(root));
	mk(root, "100", "/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw", "trace-cmd");
	mk(root, "200", "/dev/null", "bash");
	mk(root, "300", "/sys/kernel/tracing/trace_pipe", "cat");
	mk(root, "400", "/sys/kernel/tracing/trace_pipe", "self");
	mk(root, "self", "/sys/kernel/tracing/trace_pipe", "not-a-pid");
	n = rec_find_readers(root, 400, NULL, rd, 4, &err);
	assert_int_equal(n, 2);
	/* readdir order is the file system's: sort the two */
	if (rd[0].pid > rd[1].pid) {
		struct rec_reader t = rd[0];

		rd[0] = rd[1];
		rd[1] = t;
	}
	assert_int_equal(rd[0].pid, 100);
	assert_string_equal(rd[0].comm, "trace-cmd");
	assert_string_equal(rd[0].path, "/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw");
	assert_int_equal(rd[1].pid, 300);
	assert_string_equal(rd[1].comm, "cat");
	/* more readers than room: the count is still right */
	assert_int_equal(rec_find_readers(root, 400, NULL, rd, 1, &err), 2);
	assert_int_equal(rec_find_readers("/nonexistent-proc", 1, NULL, rd, 4, &err), -1);
	assert_string_equal(err.msg, "/nonexistent-proc: no such file or directory");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_steals),
		cmocka_unit_test(test_find_readers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
