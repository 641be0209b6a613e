// SPDX-License-Identifier: GPL-2.0
/*
 * compare: an injected regression is caught (exit 1), an identical pair is
 * not (exit 0), thresholds move the line, bad inputs give exact errors.
 */
#include "dlb_test.h"

#include <string.h>
#include <sys/stat.h>

#include "../compare.h"
#include "../metrics.h"
#include "../report.h"
#include "dlbench/exitcode.h"
#include "evbuild.h"

static char dir[] = "/tmp/dlb-compare-XXXXXX";
static char base[256], same[256], worse[256], slower[256], out[16384];

/* A report of 20 jobs of task "dl_x", job 19 running @slow_us. */
static void write_report(const char *path, u64 slow_us)
{
	struct dlb_report_info ri = { .max_misses = -1 };
	struct dlb_metrics *m = dlb_metrics_create(NULL, NULL);
	FILE *f = fopen(path, "w");

	assert_non_null(m);
	assert_non_null(f);
	assert_true(eb_periodic(dlb_metrics_event, m, 7, "dl_x", 20, 1000, 19, slow_us) > 0);
	dlb_metrics_finish(m);
	assert_int_equal(dlb_report_json(f, m, &ri, NULL), 0);
	fclose(f);
	dlb_metrics_free(m);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(base, sizeof(base), "%s/base.json", dir);
	snprintf(same, sizeof(same), "%s/same", dir);
	snprintf(worse, sizeof(worse), "%s/worse.json", dir);
	snprintf(slower, sizeof(slower), "%s/slower.json", dir);
	mkdir(same, 0755);
	write_report(base, 1000);
	write_report(worse, 10500);	/* 510 µs late: a miss */
	write_report(slower, 1100);	/* p99 response +100 µs, +10 %: beyond 10 %,50 us? no: 9.9 % */
	strcat(same, "/report.json");
	write_report(same, 1000);
	same[strlen(same) - strlen("/report.json")] = '\0';
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static int run(const char *const *thresholds, const char *a, const char *b, struct dlb_err *err)
{
	struct dlb_compare *c = dlb_compare_create(err);
	FILE *f = fmemopen(out, sizeof(out), "w");
	int rc;

	assert_non_null(c);
	for (; thresholds && *thresholds; thresholds++)
		assert_int_equal(dlb_compare_threshold(c, *thresholds, err), 0);
	rc = dlb_compare_run(c, a, b, f, err);
	fclose(f);
	dlb_compare_free(c);
	return rc;
}

static void test_identical(void **state)
{
	(void)state;
	/* a folder holding report.json works as well as the file */
	assert_int_equal(run(NULL, base, same, NULL), DLB_EXIT_OK);
	assert_non_null(strstr(out, "# 0 worse, 0 better, "));
	assert_non_null(strstr(out, "# verdict: not worse\n"));
}

static void test_regression(void **state)
{
	static const char *const loose[] = { "misses=1", "dl_x:lateness_max=10ms",
					     "response_max=1000%", "exec_p99=10ms", "overruns=1",
					     "response_p99=0%,20ms", NULL };
	int rc;

	(void)state;
	assert_int_equal(run(NULL, base, worse, NULL), DLB_EXIT_REGRESSION);
	assert_non_null(strstr(out, "\ndl_x             misses                             0"
				    "            1  0%,0               worse\n"));
	assert_non_null(strstr(out, "\n(run)            misses                             0"
				    "            1  0%,0               worse\n"));
	assert_non_null(strstr(out, "\ndl_x             lateness_max                 -8990.0"
				    "        510.0  10%,50us           worse\n"));
	assert_non_null(strstr(out, "# verdict: worse\n"));
	/* the other way round, everything that changed got better */
	assert_int_equal(run(NULL, worse, base, NULL), DLB_EXIT_OK);
	assert_non_null(strstr(out, "\ndl_x             misses                             1"
				    "            0  0%,0               better\n"));
	/* thresholds wide enough let it pass; the run-level misses are per metric too */
	rc = run(loose, base, worse, NULL);
	if (rc != DLB_EXIT_OK)
		fail_msg("%s", out);
}

static void test_threshold_parts(void **state)
{
	static const char *const tight[] = { "response_max=1%,1us", NULL };

	(void)state;
	/* +100 µs on a 1010 µs max: 9.9 %, within the default 20 %,100us */
	assert_int_equal(run(NULL, base, slower, NULL), DLB_EXIT_OK);
	assert_int_equal(run(tight, base, slower, NULL), DLB_EXIT_REGRESSION);
	assert_non_null(strstr(out, "response_max"));
}

static void test_bad(void **state)
{
	struct dlb_compare *c = dlb_compare_create(NULL);
	struct dlb_err err = { 0 };
	char path[300];
	FILE *f;

	(void)state;
	assert_int_equal(dlb_compare_threshold(c, "bogus=1", &err), -1);
	assert_string_equal(err.msg, "--threshold 'bogus=1': unknown metric 'bogus'");
	assert_int_equal(dlb_compare_threshold(c, "misses", &err), -1);
	assert_string_equal(err.msg, "--threshold 'misses': expected [task:]metric=value");
	assert_int_equal(dlb_compare_threshold(c, "a:response_p99=fast", &err), -1);
	assert_string_equal(err.msg, "--threshold 'a:response_p99=fast': bad value 'fast' "
				     "(want N%, an amount, or both)");
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	dlb_compare_free(c);

	assert_int_equal(run(NULL, "/nonexistent/r.json", base, &err), -1);
	assert_string_equal(err.msg, "/nonexistent/r.json: no such file or directory");
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	snprintf(path, sizeof(path), "%s/garbage.json", dir);
	f = fopen(path, "w");
	fputs("{\"report_version\": 99, \"tasks\": []}\n", f);
	fclose(f);
	assert_int_equal(run(NULL, base, path, &err), -1);
	assert_non_null(strstr(err.msg, "garbage.json: not a report of version 1"));
	f = fopen(path, "w");
	fputs("trace.dat is not json", f);
	fclose(f);
	assert_int_equal(run(NULL, base, path, &err), -1);
	assert_non_null(strstr(err.msg, "garbage.json: not a report: "));
	assert_null(strchr(err.msg, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_regression),
		cmocka_unit_test(test_threshold_parts),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
