// SPDX-License-Identifier: GPL-2.0
/* rt-app log lines: exact bytes written, rt-app 1.0's own lines parsed back. */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/runlog.h"

/* Copied from a log written by Debian's rt-app 1.0 on this machine. */
static const char rtapp10_log[] =
	"# Policy : SCHED_OTHER priority : 0\n"
	"#idx     perf      run   period           start             end          rel_st      slack c_duration   c_period     wu_lat\n"
	"   1     1000       39    19933      2059233488      2059253421             412      19796       1000      10000 18446744073709541714\n";

static void test_header_matches_rtapp(void **state)
{
	char buf[DLB_RUNLOG_LINE_MAX];
	int n;

	(void)state;
	n = dlb_runlog_header(buf, sizeof(buf), "SCHED_OTHER", true, 0);
	assert_int_equal(n, (int)strlen(buf));
	/* the first two lines of rt-app 1.0's file, byte for byte */
	assert_int_equal(memcmp(buf, rtapp10_log, (size_t)n), 0);
	assert_int_equal(dlb_runlog_header(buf, 20, "SCHED_OTHER", true, 0), -1);
	/* rt-app 1.0 writes no priority for SCHED_DEADLINE */
	n = dlb_runlog_header(buf, sizeof(buf), "SCHED_DEADLINE", false, 0);
	assert_int_equal(n, (int)strlen(buf));
	assert_int_equal(strncmp(buf, "# Policy : SCHED_DEADLINE\n", 26), 0);
	/* and the same column line */
	assert_int_equal(strncmp(buf + 26, strchr(rtapp10_log, '\n') + 1, (size_t)n - 26), 0);
}

static void test_format_and_parse_back(void **state)
{
	struct dlb_runlog_rec r, back;
	char buf[DLB_RUNLOG_LINE_MAX];
	struct dlb_err err;
	int n;

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(&back, 0, sizeof(back));
	r.idx = 3, r.perf = 250000, r.run = 1001, r.period = 10000, r.start = 12345678;
	r.end = 12355678, r.rel_st = 1000, r.slack = -12, r.c_duration = 1000;
	r.c_period = 10000, r.wu_lat = 4;
	n = dlb_runlog_format(buf, sizeof(buf), &r);
	assert_int_equal(n, (int)strlen(buf));
	assert_string_equal(buf, "   3   250000     1001    10000        12345678        12355678"
			    "            1000        -12       1000      10000          4\n");
	assert_int_equal(dlb_runlog_parse(buf, &back, &err), 1);
	assert_memory_equal(&r, &back, sizeof(r));
}

static void test_parse_rtapp10_line(void **state)
{
	const char *line = strrchr(rtapp10_log, '\n') - 1;
	struct dlb_runlog_rec r;
	struct dlb_err err;

	(void)state;
	while (line[-1] != '\n')
		line--;
	assert_int_equal(dlb_runlog_parse(line, &r, &err), 1);
	assert_int_equal(r.idx, 1);
	assert_int_equal(r.perf, 1000);
	assert_int_equal(r.start, 2059233488ULL);
	assert_int_equal(r.slack, 19796);
	/* rt-app 1.0 prints a negative wake-up latency as unsigned: kept as is */
	assert_true(r.wu_lat == 18446744073709541714ULL);
	assert_int_equal(dlb_runlog_parse("# Policy : X priority : 0\n", &r, &err), 0);
	assert_int_equal(dlb_runlog_parse("\n", &r, &err), 0);
}

static void test_parse_errors(void **state)
{
	struct dlb_runlog_rec r;
	struct dlb_err err;

	(void)state;
	assert_int_equal(dlb_runlog_parse("1 2 3\n", &r, &err), -1);
	assert_string_equal(err.msg, "column 4 (period): missing");
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	assert_int_equal(dlb_runlog_parse("1 2 x 4 5 6 7 8 9 10 11\n", &r, &err), -1);
	assert_string_equal(err.msg, "column 3 (run): not a number");
	assert_int_equal(dlb_runlog_parse("1 2 3 4 5 6 7 8 9 10 11 12\n", &r, &err), -1);
	assert_string_equal(err.msg, "more than 11 columns");
	assert_int_equal(dlb_runlog_parse("1 -2 3 4 5 6 7 8 9 10 11\n", &r, &err), -1);
	assert_string_equal(err.msg, "column 2 (perf): negative value");
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/dlb-runlog-XXXXXX";
	struct dlb_runlog_rec *recs;
	char policy[32];
	struct dlb_err err;
	size_t nr;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(rtapp10_log, f);
	fputs("   1 1 2 3 4 5 6 7 8 9 10\n", f);
	fclose(f);
	assert_int_equal(dlb_runlog_read(path, &recs, &nr, policy, sizeof(policy), &err), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(policy, "SCHED_OTHER");
	assert_int_equal(recs[1].wu_lat, 10);
	free(recs);

	f = fopen(path, "a");
	fputs("bad\n", f);
	fclose(f);
	assert_int_equal(dlb_runlog_read(path, &recs, &nr, NULL, 0, &err), -1);
	assert_true(strstr(err.msg, ":5: column 1 (idx): not a number") != NULL);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_matches_rtapp),
		cmocka_unit_test(test_format_and_parse_back),
		cmocka_unit_test(test_parse_rtapp10_line),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_read_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
