// SPDX-License-Identifier: GPL-2.0
/* report.json, report.txt and jobs.csv from hand-built events: exact content. */
#include "dlb_test.h"

#include <string.h>

#include <json-c/json.h>

#include "../metrics.h"
#include "../report.h"
#include "dlbench/exitcode.h"
#include "evbuild.h"

static char csv[8192];
static FILE *csv_f;

static void on_job(const struct dlb_job *j, void *arg)
{
	(void)arg;
	dlb_jobs_csv_row(csv_f, j);
}

/* 3 jobs of 1 ms; the last one runs 10.5 ms: 510 µs late, 8.5 ms overrun. */
static struct dlb_metrics *scenario(bool lost)
{
	struct dlb_metrics_opts o = { .job_fn = on_job };
	struct dlb_metrics *m = dlb_metrics_create(&o, NULL);
	struct dlb_event e = eb_lost(31000, 0, 3);

	assert_non_null(m);
	csv_f = fmemopen(csv, sizeof(csv), "w");
	assert_non_null(csv_f);
	dlb_jobs_csv_header(csv_f);
	assert_int_equal(eb_periodic(dlb_metrics_event, m, 42, "dl_x", 3, 1000, 2, 10500), 16);
	if (lost)
		assert_int_equal(dlb_metrics_event(&e, m), 0);
	dlb_metrics_finish(m);
	fclose(csv_f);
	return m;
}

static struct json_object *json_of(struct dlb_metrics *m, struct dlb_report_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *o;

	assert_non_null(f);
	assert_int_equal(dlb_report_json(f, m, ri, NULL), 0);
	fclose(f);
	o = json_tokener_parse(buf);
	free(buf);
	assert_non_null(o);
	return o;
}

static s64 jget(struct json_object *o, const char *path)
{
	char buf[256], *tok, *save = NULL;
	struct json_object *cur = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		if (tok[0] >= '0' && tok[0] <= '9')
			cur = json_object_array_get_idx(cur, (size_t)atoi(tok));
		else if (!json_object_object_get_ex(cur, tok, &cur))
			fail_msg("no key %s in %s", tok, path);
		assert_non_null(cur);
	}
	return json_object_get_int64(cur);
}

static const char *jstr(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, k1, &v));
	assert_true(json_object_object_get_ex(v, k2, &v));
	return json_object_get_string(v);
}

static void test_json(void **state)
{
	struct dlb_report_info ri = { .max_misses = 0, .cmdline = "dlb-analyze x" };
	struct dlb_metrics *m = scenario(false);
	struct json_object *o;

	(void)state;
	o = json_of(m, &ri);
	assert_int_equal(jget(o, "report_version"), DLB_REPORT_VERSION);
	assert_string_equal(jstr(o, "environment", "tool_version"), DLB_VERSION);
	assert_string_equal(jstr(o, "environment", "command_line"), "dlb-analyze x");
	assert_int_equal(jget(o, "tasks.0.tid"), 42);
	assert_string_equal(jstr(json_object_array_get_idx(json_object_object_get(o, "tasks"), 0),
				 "params", "source"), "marker");
	assert_int_equal(jget(o, "tasks.0.jobs"), 3);
	assert_int_equal(jget(o, "tasks.0.misses"), 1);
	assert_int_equal(jget(o, "tasks.0.lateness_ns.max"), 510000);
	assert_int_equal(jget(o, "tasks.0.response_ns.p50"), 1010000);
	assert_int_equal(jget(o, "tasks.0.response_ns.max"), 10510000);
	assert_int_equal(jget(o, "tasks.0.wakeup_latency_ns.max"), 10000);
	assert_int_equal(jget(o, "tasks.0.overruns.count"), 1);
	assert_int_equal(jget(o, "tasks.0.overruns.max_ns"), 8500000);
	/* waiting 1 -> 5 µs on the idle CPU, jobs 1 and 2 (before the first switch CPU 0 is unknown) */
	assert_int_equal(jget(o, "tasks.0.inversion_ns"), 8000);
	assert_int_equal(jget(o, "run.jobs"), 3);
	assert_int_equal(jget(o, "cpus.0.dl_ns"), 3 * 1006000 + 9500000);
	assert_true(json_object_get_boolean(json_object_object_get(
		json_object_object_get(o, "quality"), "complete")));
	assert_int_equal(jget(o, "verdict.exit_code"), DLB_EXIT_REGRESSION);
	json_object_put(o);
	ri.max_misses = 1;
	assert_int_equal(dlb_report_exit(m, &ri, NULL, 0), DLB_EXIT_OK);
	ri.max_misses = -1;
	assert_int_equal(dlb_report_exit(m, &ri, NULL, 0), DLB_EXIT_OK);
	dlb_metrics_free(m);
}

static void test_incomplete(void **state)
{
	struct dlb_report_info ri = { .max_misses = -1 };
	struct dlb_metrics *m = scenario(true);
	struct json_object *o;
	char why[256];

	(void)state;
	assert_int_equal(dlb_report_exit(m, &ri, why, sizeof(why)), DLB_EXIT_INCOMPLETE);
	assert_string_equal(why, "incomplete data: lost_events (CPU 0 lost events at 31000000 ns)");
	o = json_of(m, &ri);
	assert_false(json_object_get_boolean(json_object_object_get(
		json_object_object_get(o, "quality"), "complete")));
	assert_int_equal(jget(o, "quality.flags.0.count"), 3);
	json_object_put(o);
	/* accepting this flag leaves the misses to decide */
	ri.accepted = 1u << DLB_Q_LOST_EVENTS;
	ri.max_misses = 0;
	assert_int_equal(dlb_report_exit(m, &ri, why, sizeof(why)), DLB_EXIT_REGRESSION);
	assert_string_equal(why, "1 of 3 jobs missed (allowed: 0)");
	dlb_metrics_free(m);
}

static void test_txt_csv(void **state)
{
	struct dlb_report_info ri = { .max_misses = 0 };
	struct dlb_metrics *m = scenario(false);
	char txt[8192];
	FILE *f = fmemopen(txt, sizeof(txt), "w");

	(void)state;
	dlb_report_txt(f, m, &ri);
	fclose(f);
	assert_non_null(strstr(txt, "\ndl_x                  42       3      1       510.0      1010.0"
				    "     10510.0     10510.0       1      0           -         8.0\n"));
	assert_non_null(strstr(txt, "# verdict: 1 of 3 jobs missed (allowed: 0)\n"));
	assert_non_null(strstr(txt, "# data quality: complete\n"));
	assert_string_equal(csv,
		"tid,name,job,release_ns,begin_ns,end_ns,deadline_ns,release_source,lateness_ns,"
		"response_ns,wakeup_latency_ns,exec_ns,miss,overrun_ns,migrations,preemptions,"
		"cpu_begin,cpu_end,stall_ns\n"
		"42,dl_x,0,0,10000,1010000,10000000,marker,-8990000,1010000,10000,1000000,0,,0,0,0,0,\n"
		"42,dl_x,1,10000000,10010000,11010000,20000000,marker,-8990000,1010000,10000,1000000,0,,"
		"0,0,0,0,\n"
		"42,dl_x,2,20000000,20010000,30510000,30000000,marker,510000,10510000,10000,10500000,1,"
		"8500000,0,0,0,0,\n");
	dlb_metrics_free(m);
}

/* The verdict: watched tasks, N%, expected outcome, admission, the run's exit code. */
static void test_verdict_misses(void **state)
{
	struct dlb_report_info ri = { .max_misses = 34, .max_misses_pct = true, .watch = "dl_x" };
	struct dlb_metrics *m = scenario(false);
	struct dlb_verdict v;
	struct json_object *o;

	(void)state;
	dlb_report_verdict(m, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_OK);		/* 1 of 3 is not over 34 % */
	assert_string_equal(v.result, "PASS");
	ri.max_misses = 33;
	dlb_report_verdict(m, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_REGRESSION);	/* 1 > 3 x 33 % */
	assert_string_equal(v.reason, "1 of 3 jobs missed (allowed: 33%)");
	ri.watch = "other,dl";
	dlb_report_verdict(m, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_REGRESSION);
	assert_string_equal(v.reason, "no jobs of the watched tasks (other,dl)");
	assert_true(dlb_verdict_watched("a,dl_x", "dl_x-3"));
	assert_false(dlb_verdict_watched("dl", "dl_x"));
	assert_true(dlb_verdict_watched("*", "anything"));
	/* the run's exit code: interrupted outranks misses */
	ri.watch = NULL;
	ri.max_misses = 0;
	ri.max_misses_pct = false;
	ri.have_run_exit = true;
	ri.run_exit = DLB_EXIT_INCOMPLETE;
	dlb_report_verdict(m, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_INCOMPLETE);
	assert_string_equal(v.reason, "run incomplete (exit 4)");
	/* a defect found in the kernel fails the run, before an interrupted run or misses */
	ri.kernel_check = "dl_accounting";
	ri.kernel_finding = "CPU 0 total_bw 104856 before, -817889 after";
	dlb_report_verdict(m, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_REGRESSION);
	assert_string_equal(v.reason, "kernel finding: dl_accounting: CPU 0 total_bw 104856 before, "
			    "-817889 after");
	ri.kernel_finding = NULL;
	ri.run_exit = 0;
	o = json_of(m, &ri);
	assert_string_equal(jstr(o, "verdict", "result"), "FAIL");
	assert_string_equal(jstr(o, "verdict", "max_misses"), "0");
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_array_get_idx(
		json_object_object_get(json_object_object_get(o, "verdict"), "checks"), 2), "name")),
		"misses");
	json_object_put(o);
	dlb_metrics_free(m);
}

static void test_verdict_admission(void **state)
{
	struct dlb_report_info ri = { .have_summary = true, .no_trace = true,
				      .run_status = DLB_RUN_ERROR,
				      .admission = DLB_ADMISSION_REFUSED,
				      .admission_detail = "sched_setattr: EBUSY: o-3",
				      .have_run_exit = true, .run_exit = DLB_EXIT_ENV };
	struct dlb_verdict v;

	(void)state;
	dlb_report_verdict(NULL, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_ENV);
	assert_string_equal(v.result, "ERROR");
	assert_string_equal(v.reason, "refused by admission control: sched_setattr: EBUSY: o-3");
	ri.expect = DLB_EXPECT_REFUSED;
	dlb_report_verdict(NULL, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_OK);
	assert_string_equal(v.reason, "refused by admission control, as predicted");
	/* admitted although over capacity: the scheduler's failure */
	ri.admission = DLB_ADMISSION_ADMITTED;
	ri.run_exit = 0;
	ri.run_status = DLB_RUN_COMPLETE;
	dlb_report_verdict(NULL, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_REGRESSION);
	assert_string_equal(v.reason, "admitted a set over capacity");
	/* failed before admission: the run's own code */
	ri.admission = DLB_ADMISSION_NOT_REACHED;
	ri.run_exit = DLB_EXIT_BAD_INPUT;
	ri.run_status = DLB_RUN_ERROR;
	dlb_report_verdict(NULL, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_BAD_INPUT);
	ri.expect = DLB_EXPECT_OK;
	dlb_report_verdict(NULL, &ri, &v);
	assert_int_equal(v.exit_code, DLB_EXIT_BAD_INPUT);
	assert_string_equal(v.reason, "run failed (exit 2)");
}

static void test_miss_limit_parse(void **state)
{
	struct dlb_miss_limit l;
	struct dlb_err err;

	(void)state;
	assert_int_equal(dlb_miss_limit_parse("5%", "-m", &l, &err), 0);
	assert_true(l.n == 5 && l.pct);
	assert_int_equal(dlb_miss_limit_parse("7", "-m", &l, &err), 0);
	assert_true(l.n == 7 && !l.pct);
	assert_int_equal(dlb_miss_limit_parse("-", "-m", &l, &err), 0);
	assert_true(l.n == -1);
	assert_int_equal(dlb_miss_limit_parse("101%", "-m", &l, &err), -1);
	assert_string_equal(err.msg, "-m: '101%' is not N, N% (0..100) or -1 (no limit)");
	assert_int_equal(dlb_miss_limit_parse("-2", "-m", &l, &err), -1);
	assert_int_equal(dlb_miss_limit_parse("x", "-m", &l, &err), -1);
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_txt_csv),
		cmocka_unit_test(test_verdict_misses),
		cmocka_unit_test(test_verdict_admission),
		cmocka_unit_test(test_miss_limit_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
