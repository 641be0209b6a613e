// SPDX-License-Identifier: GPL-2.0
/* summary.json: written, read back equal; exact bytes; errors name the key. */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/dlparam.h"
#include "dlbench/exitcode.h"
#include "dlbench/summary.h"

static struct dlb_summary_thread threads[2] = {
	{ .name = "t0", .instance = 0, .index = 0, .tid = 100, .policy = 6,
	  .runtime = 1000000, .deadline = 10000000, .period = 10000000, .jobs = 200,
	  .misses = 1, .max_lateness = 1500, .log = "rt-app-t0-0.log", .sched = "rt-app-t0-0.sched" },
	{ .name = "t1", .instance = 1, .index = 1, .tid = 101, .policy = 0, .priority = -5,
	  .jobs = 3, .max_lateness = -20, .log = "rt-app-t1-1.log", .sched = "" },
};

static const struct dlb_summary sum = {
	.backend = "kernel", .clock = "mono", .workload = "w.json", .cpus = 2,
	.calibration_ns = 12.5, .start_ns = 1000, .end_ns = 2000000001000ULL,
	.duration_ns = 10000000000ULL, .duration_source = "default",
	.status = DLB_RUN_INCOMPLETE, .admission = DLB_ADMISSION_REFUSED,
	.admission_detail = "task 'a' instance 0: SCHED_DEADLINE admission refused (EBUSY)",
	.cmdline = "dlb-rtapp w.json", .version = "0.1",
	.nr_threads = 2, .threads = threads,
};

static struct dlb_dlbw_cpu dlbw_cpus[2] = {
	{ .cpu = 0, .before = 104856, .after = -293602, .repaired = 104856 },
	{ .cpu = 1, .before = 104856, .after = -293602, .repaired = 104856 },
};

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_round_trip(void **state)
{
	const char *path = "/tmp/dlb-test-summary.json";
	struct dlb_summary *back;
	struct dlb_err err;
	size_t i;

	(void)state;
	assert_int_equal(dlb_summary_write(path, &sum, &err), 0);
	assert_int_equal(dlb_summary_read(path, &back, &err), 0);
	assert_string_equal(back->backend, "kernel");
	assert_string_equal(back->clock, "mono");
	assert_string_equal(back->cmdline, sum.cmdline);
	assert_int_equal(back->status, DLB_RUN_INCOMPLETE);
	assert_int_equal(back->admission, DLB_ADMISSION_REFUSED);
	assert_string_equal(back->admission_detail, sum.admission_detail);
	assert_true(back->calibration_ns == 12.5);
	assert_true(back->end_ns == 2000000001000ULL);
	assert_true(back->duration_ns == 10000000000ULL);
	assert_string_equal(back->duration_source, "default");
	assert_int_equal(back->nr_threads, 2);
	for (i = 0; i < 2; i++)
		assert_memory_equal(&back->threads[i], &threads[i], sizeof(threads[i]));
	dlb_summary_free(back);
	unlink(path);
}

static void test_exact_bytes(void **state)
{
	const char *path = "/tmp/dlb-test-summary2.json";
	struct dlb_summary one = sum;
	struct dlb_err err;

	(void)state;
	one.nr_threads = 1;
	assert_int_equal(dlb_summary_write(path, &one, &err), 0);
	assert_string_equal(slurp(path),
		"{\n"
		"  \"version\": 1,\n"
		"  \"tool_version\": \"0.1\",\n"
		"  \"backend\": \"kernel\",\n"
		"  \"clock\": \"mono\",\n"
		"  \"workload\": \"w.json\",\n"
		"  \"cpus\": 2,\n"
		"  \"calibration_ns_per_loop\": 12.5,\n"
		"  \"start_ns\": 1000,\n"
		"  \"end_ns\": 2000000001000,\n"
		"  \"duration_ns\": 10000000000,\n"
		"  \"duration_source\": \"default\",\n"
		"  \"status\": \"incomplete\",\n"
		"  \"admission\": {\n"
		"    \"outcome\": \"refused\",\n"
		"    \"detail\": \"task 'a' instance 0: SCHED_DEADLINE admission refused (EBUSY)\"\n"
		"  },\n"
		"  \"cmdline\": \"dlb-rtapp w.json\",\n"
		"  \"threads\": [\n"
		"    {\n"
		"      \"name\": \"t0\",\n"
		"      \"instance\": 0,\n"
		"      \"index\": 0,\n"
		"      \"tid\": 100,\n"
		"      \"policy\": 6,\n"
		"      \"priority\": 0,\n"
		"      \"runtime_ns\": 1000000,\n"
		"      \"deadline_ns\": 10000000,\n"
		"      \"period_ns\": 10000000,\n"
		"      \"jobs\": 200,\n"
		"      \"misses\": 1,\n"
		"      \"max_lateness_ns\": 1500,\n"
		"      \"log\": \"rt-app-t0-0.log\",\n"
		"      \"sched\": \"rt-app-t0-0.sched\"\n"
		"    }\n"
		"  ]\n"
		"}\n");
	unlink(path);
}

/* The kernel's DL accounting check: optional, every field back as written. */
static void test_dl_accounting(void **state)
{
	const char *path = "/tmp/dlb-test-summary4.json";
	struct dlb_summary one = sum, *back;
	struct dlb_summary_dlbw *d = &one.dlbw;
	struct dlb_err err;

	(void)state;
	one.nr_threads = 0;
	assert_int_equal(dlb_summary_write(path, &one, &err), 0);
	assert_null(strstr(slurp(path), "dl_accounting"));
	assert_int_equal(dlb_summary_read(path, &back, &err), 0);
	assert_int_equal(back->dlbw.status, DLB_DLBW_ABSENT);
	dlb_summary_free(back);

	d->status = DLB_DLBW_FINDING;
	snprintf(d->detail, sizeof(d->detail), "CPU 0 changed");
	snprintf(d->kernel, sizeof(d->kernel), "6.18.44");
	snprintf(d->teardown, sizeof(d->teardown), "immediate");
	d->fair_bw = 52428;
	snprintf(d->fair_source, sizeof(d->fair_source), "assumed");
	d->other_tasks_before = 1;
	d->other_bw_before = 1000;
	d->other_tasks_after = 2;
	d->other_bw_after = 3000;
	d->release_wait_ns = 5;
	d->settle_ns = 200000000;
	snprintf(d->repair, sizeof(d->repair), "repaired");
	d->nr_cpus = 2;
	d->cpus = dlbw_cpus;
	assert_int_equal(dlb_summary_write(path, &one, &err), 0);
	assert_non_null(strstr(slurp(path), "  \"dl_accounting\": {\n    \"status\": \"finding\",\n"));
	assert_int_equal(dlb_summary_read(path, &back, &err), 0);
	assert_int_equal(back->dlbw.status, DLB_DLBW_FINDING);
	assert_string_equal(back->dlbw.detail, d->detail);
	assert_string_equal(back->dlbw.kernel, d->kernel);
	assert_string_equal(back->dlbw.teardown, d->teardown);
	assert_string_equal(back->dlbw.fair_source, d->fair_source);
	assert_string_equal(back->dlbw.repair, d->repair);
	assert_true(back->dlbw.fair_bw == 52428 && back->dlbw.settle_ns == 200000000 &&
		    back->dlbw.release_wait_ns == 5);
	assert_true(back->dlbw.other_tasks_before == 1 && back->dlbw.other_bw_before == 1000 &&
		    back->dlbw.other_tasks_after == 2 && back->dlbw.other_bw_after == 3000);
	assert_int_equal(back->dlbw.nr_cpus, 2);
	assert_memory_equal(back->dlbw.cpus, dlbw_cpus, sizeof(dlbw_cpus));
	dlb_summary_free(back);

	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"cmdline\": \"x\", \"threads\": [ ], "
		   "\"dl_accounting\": { \"status\": \"ok\", \"detail\": \"\" } }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary4.json: dl_accounting.kernel: missing");
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"cmdline\": \"x\", \"threads\": [ ], "
		   "\"dl_accounting\": { \"status\": \"bad\", \"detail\": \"\", \"kernel\": \"\", "
		   "\"teardown\": \"\", \"fair_server_bw\": 0, \"fair_server_source\": \"\", "
		   "\"other_dl_tasks_before\": 0, \"other_dl_bw_before\": 0, "
		   "\"other_dl_tasks_after\": 0, \"other_dl_bw_after\": 0, \"release_wait_ns\": 0, "
		   "\"settle_ns\": 0, \"repair\": \"\", \"cpus\": [ { \"cpu\": 0 } ] } }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary4.json: dl_accounting.status: 'bad' is "
			    "not ok, finding or not_checked");
	unlink(path);
}

static void test_errors(void **state)
{
	const char *path = "/tmp/dlb-test-summary3.json";
	struct dlb_summary *back;
	struct dlb_err err;

	(void)state;
	assert_int_equal(dlb_summary_write(path, &sum, &err), 0);
	write_text(path, "{ \"version\": 1 }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary3.json: tool_version: missing");
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	write_text(path, "{ \"version\": 2 }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary3.json: version: 2, expected 1");
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"done\" }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary3.json: status: 'done' is not "
			    "complete, incomplete or error");
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"cmdline\": \"x\", \"threads\": [ { \"name\": 3 } ] }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary3.json: threads[0].name: "
			    "expected string");
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"admission\": { \"outcome\": \"maybe\", "
		   "\"detail\": \"\" } }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary3.json: admission.outcome: 'maybe' "
			    "is not admitted, refused or not_reached");
	/* written before the field existed: unknown, not a failure */
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"cmdline\": \"x\", \"threads\": [] }");
	assert_int_equal(dlb_summary_read(path, &back, &err), 0);
	assert_int_equal(back->admission, DLB_ADMISSION_UNKNOWN);
	dlb_summary_free(back);
	unlink(path);
}

/* A reference run's model, and a task's sched_flags: written when set, read back. */
static void test_model_and_flags(void **state)
{
	const char *path = "/tmp/dlb-test-summary4.json";
	struct dlb_summary s = sum, *back;
	struct dlb_summary_thread th[2];
	struct dlb_err err;

	(void)state;
	memcpy(th, threads, sizeof(th));
	th[0].dl_flags = DL_FLAG_RECLAIM;
	s.threads = th;
	snprintf(s.backend, sizeof(s.backend), "reference");
	snprintf(s.model, sizeof(s.model), "mainline:6.5");
	assert_int_equal(dlb_summary_write(path, &s, &err), 0);
	assert_non_null(strstr(slurp(path), "\"model\": \"mainline:6.5\""));
	assert_non_null(strstr(slurp(path), "\"dl_flags\": [\n        \"reclaim\"\n      ]"));
	assert_int_equal(dlb_summary_read(path, &back, &err), 0);
	assert_string_equal(back->model, "mainline:6.5");
	assert_int_equal(back->threads[0].dl_flags, DL_FLAG_RECLAIM);
	assert_int_equal(back->threads[1].dl_flags, 0);
	dlb_summary_free(back);
	/* a name that is no flag: said where */
	write_text(path, "{ \"version\": 1, \"tool_version\": \"0\", \"backend\": \"k\", "
		   "\"clock\": \"m\", \"workload\": \"w\", \"cpus\": 1, "
		   "\"calibration_ns_per_loop\": 1, \"start_ns\": 0, \"end_ns\": 0, "
		   "\"status\": \"error\", \"cmdline\": \"x\", \"threads\": [ { \"name\": \"a\", "
		   "\"instance\": 0, \"index\": 0, \"tid\": 1, \"policy\": 6, \"priority\": 0, "
		   "\"runtime_ns\": 1, \"deadline_ns\": 1, \"period_ns\": 1, \"jobs\": 0, "
		   "\"misses\": 0, \"max_lateness_ns\": 0, \"log\": \"\", \"sched\": \"\", "
		   "\"dl_flags\": [ \"fast\" ] } ] }");
	assert_int_equal(dlb_summary_read(path, &back, &err), -1);
	assert_string_equal(err.msg, "/tmp/dlb-test-summary4.json: threads[0].dl_flags[0]: not a "
			    "flag name (known: reclaim)");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_exact_bytes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_dl_accounting),
		cmocka_unit_test(test_model_and_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
