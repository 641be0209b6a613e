// SPDX-License-Identifier: GPL-2.0
/*
 * schedstat parsers on samples captured on this machine (Linux 6.18:
 * dl_task.*, sched_debug.txt, other_task.sched), on samples written in the
 * seed's format (patch 005: seed_*) and the documented /proc/schedstat
 * layouts (schedstat_v15/v17); exact errors; and, as root, a live
 * SCHED_DEADLINE task's /proc/PID/sched.
 */
#include "dlb_test.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>

#include "dlbench/exitcode.h"
#include "../schedstat.h"

static char *load(const char *name, size_t *len)
{
	struct dlb_err err;
	char path[512], *text;

	snprintf(path, sizeof(path), "%s/analyzer/tests/fixtures/schedstat/%s", dlb_src(), name);
	if (dlb_read_small_file(path, &text, len, &err))
		fail_msg("%s", err.msg);
	return text;
}

static void test_task_sched_dl(void **state)
{
	struct dlb_task_sched ts;
	struct dlb_err err;
	size_t len;
	char *t = load("dl_task.sched", &len);

	(void)state;
	assert_int_equal(dlb_task_sched_parse(t, len, "dl_task.sched", &ts, &err), 0);
	assert_string_equal(ts.comm, "sh");
	assert_int_equal(ts.pid, 20241);
	assert_int_equal(ts.threads, 1);
	assert_int_equal(ts.policy, 6);
	assert_int_equal(ts.prio, -1);
	assert_int_equal(ts.has, DLB_TS_DL | DLB_TS_COUNTS);
	assert_int_equal(ts.dl_runtime, -406437);	/* overran: negative */
	assert_int_equal(ts.dl_deadline, 2914264507215ULL);
	assert_int_equal(ts.sum_exec_runtime, 63661160);	/* "63.661160" ms */
	assert_int_equal(ts.nr_switches, 23);
	assert_int_equal(ts.nr_voluntary_switches, 0);
	assert_int_equal(ts.nr_involuntary_switches, 23);
	assert_int_equal(ts.nr_migrations, 22);
	free(t);
}

static void test_task_sched_other(void **state)
{
	struct dlb_task_sched ts;
	struct dlb_err err;
	size_t len;
	char *t = load("other_task.sched", &len);

	(void)state;
	assert_int_equal(dlb_task_sched_parse(t, len, "other_task.sched", &ts, &err), 0);
	assert_string_equal(ts.comm, "cat");
	assert_int_equal(ts.policy, 0);
	assert_int_equal(ts.prio, 120);
	assert_int_equal(ts.has & (DLB_TS_DL | DLB_TS_DL_STATS), 0);
	free(t);
}

static void test_task_sched_seed(void **state)
{
	struct dlb_task_sched ts;
	struct dlb_err err;
	size_t len;
	char *t = load("seed_task.sched", &len);

	(void)state;
	assert_int_equal(dlb_task_sched_parse(t, len, "seed_task.sched", &ts, &err), 0);
	assert_int_equal(ts.has, DLB_TS_DL_STATS | DLB_TS_COUNTS);
	assert_int_equal(ts.pid, 4242);
	assert_int_equal(ts.last_dmiss, 512345);	/* 0.512345 ms */
	assert_int_equal(ts.dmiss_max, 1000007);
	assert_int_equal(ts.last_rorun, 0);
	assert_int_equal(ts.rorun_max, 12345678);
	assert_int_equal(ts.sum_exec_runtime, 150250000);
	free(t);
}

static void test_task_schedstat(void **state)
{
	struct dlb_task_schedstat ss;
	struct dlb_err err;
	size_t len;
	char *t = load("dl_task.schedstat", &len);

	(void)state;
	assert_int_equal(dlb_task_schedstat_parse(t, len, "x", &ss, &err), 0);
	assert_int_equal(ss.cpu_time, 63661160);
	assert_int_equal(ss.run_delay, 227927140);
	assert_int_equal(ss.timeslices, 23);
	free(t);
}

static void test_sched_debug(void **state)
{
	struct dlb_sched_debug sd;
	struct dlb_err err;
	size_t len;
	char *t = load("sched_debug.txt", &len);
	int cpu;

	(void)state;
	assert_int_equal(dlb_sched_debug_parse(t, len, "sched_debug.txt", &sd, &err), 0);
	assert_string_equal(sd.version, "v0.11, 6.18.44-fc-v1147 #1");
	assert_int_equal(sd.nr_cpus, 2);
	for (cpu = 0; cpu < 2; cpu++) {
		assert_int_equal(sd.dl_rq[cpu].has, DLB_DLRQ_NR | DLB_DLRQ_BW);
		assert_int_equal(sd.dl_rq[cpu].dl_nr_running, 0);
		assert_int_equal(sd.dl_rq[cpu].bw, 996147);	/* 0.95 << 20 */
		/* fair servers 2 x 5 % + the 20 % task */
		assert_int_equal(sd.dl_rq[cpu].total_bw, 314571);
	}
	dlb_sched_debug_free(&sd);
	free(t);
}

static void test_sched_debug_seed(void **state)
{
	struct dlb_sched_debug sd;
	struct dlb_err err;
	size_t len;
	char *t = load("seed_sched_debug.txt", &len);

	(void)state;
	assert_int_equal(dlb_sched_debug_parse(t, len, "seed", &sd, &err), 0);
	assert_int_equal(sd.nr_cpus, 2);
	assert_int_equal(sd.dl_rq[0].has, DLB_DLRQ_NR | DLB_DLRQ_SEED);
	assert_int_equal(sd.dl_rq[0].dl_nr_running, 2);
	assert_int_equal(sd.dl_rq[0].exec_clock, 1500250000);
	assert_int_equal(sd.dl_rq[0].min_deadline, 123460000000LL);
	assert_int_equal(sd.dl_rq[0].max_deadline, 123490500001LL);
	assert_int_equal(sd.dl_rq[1].min_deadline, 1);	/* the seed's -1 */
	dlb_sched_debug_free(&sd);
	free(t);
}

static void test_schedstat(void **state)
{
	struct dlb_schedstat st;
	struct dlb_err err;
	size_t len;
	char *t = load("schedstat_v15.txt", &len);

	(void)state;
	assert_int_equal(dlb_schedstat_parse(t, len, "v15", &st, &err), 0);
	assert_int_equal(st.version, 15);
	assert_int_equal(st.timestamp, 4295620813ULL);
	assert_int_equal(st.nr_cpus, 2);
	assert_int_equal(st.nr_domains, 2);
	assert_int_equal(st.cpu[1].yld_count, 3);
	assert_int_equal(st.cpu[1].sched_count, 402210);
	assert_int_equal(st.cpu[1].sched_goidle, 99120);
	assert_int_equal(st.cpu[1].ttwu_count, 210987);
	assert_int_equal(st.cpu[1].ttwu_local, 150321);
	assert_int_equal(st.cpu[1].rq_cpu_time, 2814107146731ULL);
	assert_int_equal(st.cpu[1].run_delay, 51234567);
	assert_int_equal(st.cpu[1].pcount, 303089);
	dlb_schedstat_free(&st);
	free(t);

	t = load("schedstat_v17.txt", &len);
	assert_int_equal(dlb_schedstat_parse(t, len, "v17", &st, &err), 0);
	assert_int_equal(st.version, 17);
	assert_int_equal(st.nr_cpus, 4);		/* cpu0 and cpu3 */
	assert_true(st.cpu[0].present);
	assert_false(st.cpu[1].present);
	assert_int_equal(st.cpu[3].pcount, 190);
	assert_int_equal(st.nr_domains, 2);
	dlb_schedstat_free(&st);
	free(t);
}

static const struct {
	int which;		/* 0 task sched, 1 sched debug, 2 schedstat, 3 task schedstat */
	const char *text, *err;
} bad[] = {
	{ 0, "", "x:1: not a /proc/PID/sched file: no 'comm (pid, #threads: n)' line" },
	{ 0, "hello\n", "x:1: not a /proc/PID/sched file: no 'comm (pid, #threads: n)' line" },
	{ 0, "a (1, #threads: 1)\n---\npolicy : six\n", "x:3: policy: bad value 'six'" },
	{ 0, "a (1, #threads: 1)\n---\ndl.stats.dmiss_max : 1.5\n",
	  "x:3: dl.stats.dmiss_max: bad value '1.5'" },
	{ 0, "a (1, #threads: 1)\ndl.runtime : 5\n",
	  "x: dl.runtime and dl.deadline come together; one is missing" },
	{ 1, "cpu#0\n  .nr_running : 1\n", "x: no dl_rq[N] block (not sched/debug output?)" },
	{ 1, "dl_rq[0]:\n  .dl_nr_running : many\n", "x:2: .dl_nr_running: bad value 'many'" },
	{ 2, "cpu0 1 2 3\n", "x:1: not a /proc/schedstat file: no 'version N' line" },
	{ 2, "version 14\n", "x:1: schedstat version 14 is not supported (15 and later are)" },
	{ 2, "version 15\ncpu0 1 2 3\n", "x:2: unexpected line 'cpu0 1 2 3'" },
	{ 2, "version 15\nbogus\n", "x:2: unexpected line 'bogus'" },
	{ 3, "1 2\n", "x:1: expected 3 numbers (cpu time, run delay, timeslices), field 3 is ''" },
	{ 3, "1 2 3 4\n", "x:1: more than 3 numbers" },
};

static void test_errors(void **state)
{
	struct dlb_task_sched ts;
	struct dlb_sched_debug sd;
	struct dlb_schedstat st;
	struct dlb_task_schedstat tss;
	struct dlb_err err;
	size_t i, n;
	int r;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = strlen(bad[i].text);
		dlb_err_clear(&err);
		r = bad[i].which == 0 ? dlb_task_sched_parse(bad[i].text, n, "x", &ts, &err) :
		    bad[i].which == 1 ? dlb_sched_debug_parse(bad[i].text, n, "x", &sd, &err) :
		    bad[i].which == 2 ? dlb_schedstat_parse(bad[i].text, n, "x", &st, &err) :
					dlb_task_schedstat_parse(bad[i].text, n, "x", &tss, &err);
		if (r != -1 || strcmp(err.msg, bad[i].err))
			fail_msg("row %zu: got %d '%s', want '%s'", i, r, err.msg, bad[i].err);
		assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	}
	assert_int_equal(dlb_read_small_file("/nonexistent", NULL, &n, &err), -1);
	assert_string_equal(err.msg, "/nonexistent: cannot open: no such file or directory");
}

/* A live SCHED_DEADLINE task: its /proc/PID/sched has the mainline fields. */
static void test_live_dl_task(void **state)
{
	struct dlb_task_sched ts;
	struct dlb_err err;
	char path[64], *text;
	size_t len;
	pid_t pid;
	int lock, status;

	(void)state;
	dlb_need_root();
	lock = open("/tmp/dlbench-kernel.lock", O_RDWR | O_CREAT, 0666);
	assert_true(lock >= 0);
	assert_int_equal(flock(lock, LOCK_EX), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execlp("chrt", "chrt", "-d", "-T", "1000000", "-D", "10000000", "-P", "10000000",
		       "0", "sleep", "10", (char *)NULL);
		_exit(127);
	}
	usleep(200000);
	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	if (waitpid(pid, &status, WNOHANG) == pid) {
		close(lock);
		dlb_skip("chrt -d refused: no SCHED_DEADLINE bandwidth here");
	}
	assert_int_equal(dlb_read_small_file(path, &text, &len, &err), 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(lock);
	assert_int_equal(dlb_task_sched_parse(text, len, path, &ts, &err), 0);
	assert_int_equal(ts.pid, (int)pid);
	assert_string_equal(ts.comm, "sleep");
	assert_int_equal(ts.policy, 6);
	assert_int_equal(ts.prio, -1);
	assert_true(ts.has & DLB_TS_DL);
	assert_true(ts.dl_deadline > 0);
	assert_true(ts.dl_runtime <= 1000000);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_sched_dl),
		cmocka_unit_test(test_task_sched_other),
		cmocka_unit_test(test_task_sched_seed),
		cmocka_unit_test(test_task_schedstat),
		cmocka_unit_test(test_sched_debug),
		cmocka_unit_test(test_sched_debug_seed),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_live_dl_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
