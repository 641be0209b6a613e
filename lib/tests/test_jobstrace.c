// SPDX-License-Identifier: GPL-2.0
/* The jobs trace: written and read back byte for byte, bad files, the replay's workload. */
#include "dlb_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlbench/exitcode.h"
#include "dlbench/jobstrace.h"

static const char good[] =
	"# dlbench jobs trace: releases and demands of a run (docs/conformance.md)\n"
	"dlb-jobs-trace 6\n"
	"cpus 4\n"
	"t0 1000\n"
	"end 90000000\n"
	"tick 4000000\n"
	"tickphase 0 0\n"
	"tickphase 1 1178591\n"
	"tickphase 2 3999999\n"
	"tickphase 3 0\n"
	"kernel 6.18.44\n"
	"backend kernel\n"
	"irq_time_accounting y\n"
	"model mainline:6.5\n"
	"affinity workload\n"
	"# task INDEX TID RUNTIME DEADLINE PERIOD CPUS NAME\n"
	"task 0 42 2000000 10000000 10000000 0-1,3 worker one\n"
	"flags 0 reclaim\n"
	"task 1 43 1000000 5000000 20000000 0-3 b\n"
	"# job TASK JOB RELEASE WAKEUP DEADLINE DEMAND ASKED\n"
	"job 0 0 1000 1000 10001000 1500000 1500000\n"
	"job 1 0 1000 1200 5001000 900000 -\n"
	"job 0 1 10001000 10001000 20001000 1500000 1500000\n"
	"job 0 2 20001000 20001000 30001000 1600000 1500000\n"
	"job 0 3 30001000 30002000 40001000 1700000 1500000\n"
	"job 1 1 20001000 20001000 25001000 400000+ -\n"
	"# unavail CPU FROM TO KIND\n"
	"unavail 0 5000000 5004000 irq\n"
	"unavail 0 5004000 5010000 stop\n"
	"unavail 3 1000 2000 irq+stop\n"
	"unavail 3 3000 4000 fair\n"
	"unavail 3 5000 6000 irq+fair\n";

/* @text into a temporary file; its path in @path (a buffer of 64). */
static void put_file(char *path, const char *text)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/dlb-test-jt.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static struct dlb_jobs_trace *read_text(const char *text, struct dlb_err *err)
{
	struct dlb_jobs_trace *jt = NULL;
	char path[64];
	int rc;

	put_file(path, text);
	rc = dlb_jt_read(path, &jt, err);
	unlink(path);
	assert_true(rc == 0 || !jt);
	return jt;
}

static void test_round_trip(void **state)
{
	struct dlb_jobs_trace *jt;
	struct dlb_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	jt = read_text(good, &err);
	assert_non_null(jt);
	assert_int_equal(jt->nr_cpus, 4);
	assert_int_equal(jt->t0, 1000);
	assert_int_equal(jt->tick, 4000000);
	assert_non_null(jt->tick_phase);
	assert_int_equal(jt->tick_phase[1], 1178591);
	assert_int_equal(jt->tick_phase[2], 3999999);
	assert_int_equal(jt->affinity, DLB_JT_AFF_WORKLOAD);
	assert_string_equal(jt->model, "mainline:6.5");
	assert_int_equal(jt->irq_time_acct, 1);
	assert_int_equal(jt->nr_tasks, 2);
	assert_int_equal(jt->tasks[0].dl.flags, DL_FLAG_RECLAIM);
	assert_int_equal(jt->tasks[1].dl.flags, 0);
	assert_string_equal(jt->tasks[0].name, "worker one");
	assert_true(dlb_cpumask_test(&jt->tasks[0].cpus, 3));
	assert_false(dlb_cpumask_test(&jt->tasks[0].cpus, 2));
	assert_int_equal(jt->nr_jobs, 6);
	assert_true(jt->jobs[1].asked == DLB_JT_UNKNOWN);
	assert_true(jt->jobs[5].open);
	assert_int_equal(jt->jobs[5].demand, 400000);
	assert_int_equal(jt->nr_unavail, 5);
	assert_int_equal(jt->unavail[1].cpu, 0);
	assert_int_equal(jt->unavail[1].from, 5004000);
	assert_int_equal(jt->unavail[1].to, 5010000);
	assert_int_equal(jt->unavail[1].kind, DLB_UA_STOP);
	assert_int_equal(jt->unavail[2].kind, DLB_UA_IRQ | DLB_UA_STOP);
	assert_int_equal(jt->unavail[3].kind, DLB_UA_FAIR);
	assert_int_equal(jt->unavail[4].kind, DLB_UA_IRQ | DLB_UA_FAIR);
	/* written again: the same bytes */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(dlb_jt_write(f, jt), 0);
	fclose(f);
	assert_string_equal(buf, good);
	free(buf);
	dlb_jt_free(jt);
	/* a trace before version 5 does not say: unknown, the replay charges irq time */
	jt = read_text("dlb-jobs-trace 4\ncpus 1\n", &err);
	assert_non_null(jt);
	assert_int_equal(jt->irq_time_acct, -1);
	dlb_jt_free(jt);
	jt = read_text("dlb-jobs-trace 5\ncpus 1\nirq_time_accounting n\n", &err);
	assert_non_null(jt);
	assert_int_equal(jt->irq_time_acct, 0);
	dlb_jt_free(jt);
}

static void test_bad_files(void **state)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "cpus 2\n", ":1: not a jobs trace: the first record must be 'dlb-jobs-trace N'" },
		{ "dlb-jobs-trace 7\n", ":1: version 7: this tool reads versions 1 to 6" },
		{ "dlb-jobs-trace 4\ncpus 2\nirq_time_accounting y\n",
		  ":3: irq_time_accounting: a version 5 record" },
		{ "dlb-jobs-trace 5\ncpus 2\nirq_time_accounting yes\n",
		  ":3: irq_time_accounting: 'yes' is not y, n or -" },
		{ "dlb-jobs-trace 3\ncpus 2\nunavail 0 1 2 irq\n", ":3: unavail: a version 4 record" },
		{ "dlb-jobs-trace 4\ncpus 2\nunavail 0 1 2\n", ":3: kind: missing" },
		{ "dlb-jobs-trace 4\ncpus 2\nunavail 0 1 2 nmi\n",
		  ":3: kind: 'nmi' is not irq, stop or irq+stop" },
		{ "dlb-jobs-trace 5\ncpus 2\nunavail 0 1 2 fair\n",
		  ":3: kind: 'fair' is not irq, stop or irq+stop" },
		{ "dlb-jobs-trace 6\ncpus 2\nunavail 0 1 2 nmi\n",
		  ":3: kind: 'nmi' is not irq, stop, fair or their merge (irq+stop, ...)" },
		{ "dlb-jobs-trace 4\ncpus 2\nunavail 0 2 2 irq\n", ":3: to: not after from" },
		{ "dlb-jobs-trace 4\ncpus 2\nunavail 0 1 5 irq\nunavail 1 1 5 irq\n"
		  "unavail 0 4 6 stop\n", ":5: from: before the end of the CPU's previous interval" },
		{ "dlb-jobs-trace 4\ncpus 2\nunavail 2 1 5 irq\n", ": unavail 2: no such CPU (cpus)" },
		{ "dlb-jobs-trace 3\ncpus 2\ntick 4000\ntickphase 1 4000\n",
		  ": tickphase 1 4000: not below the tick" },
		{ "dlb-jobs-trace 3\ncpus 2\ntickphase 0 5\n", ": tickphase 0 5: not below the tick" },
		{ "dlb-jobs-trace 3\ncpus 2\ntick 4000\ntickphase 2 5\n",
		  ": tickphase 2 5: no such CPU (cpus)" },
		{ "dlb-jobs-trace 3\ncpus 2\ntickphase x 5\n", ":3: cpu: not a number of ns" },
		{ "dlb-jobs-trace 1\n", ": no 'cpus' record" },
		{ "dlb-jobs-trace 1\ncpus 2\nfoo 1\n", ":3: unknown record 'foo'" },
		{ "dlb-jobs-trace 1\ncpus 2\njob 0 0 1 1 2 3 4\n",
		  ":3: task: no such task (tasks come before their jobs)" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 1 5 1 2 3 0 a\n",
		  ":3: task index: tasks must be numbered 0, 1, ... in order" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 0 5 1 2 3 0-x a\n", ":3: cpus: '0-x' is not a cpu list" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 0 5 1 2 3 0\n", ":3: name: missing" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 0 5 1 2 3 0 a\njob 0 0 10 5 20 1 1\n",
		  ":4: wakeup: before the release" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 0 5 1 2 3 0 a\njob 0 0 10 10 20 -5 1\n",
		  ":4: demand: not a number of ns" },
		{ "dlb-jobs-trace 1\ncpus 2\ntask 0 5 1 2 3 0 a\njob 0 0 10 10 20 5 1+\n",
		  ":4: asked: not a number of ns" },
		{ "dlb-jobs-trace 2\ncpus 2\ntask 0 5 1 2 3 0 a\nflags 0 fast\n",
		  ":4: flags: 'fast' is not a flag name" },
		{ "dlb-jobs-trace 2\ncpus 2\ntask 0 5 1 2 3 0 a\ntask 1 6 1 2 3 0 b\nflags 0 reclaim\n",
		  ":5: flags: not of the task just before" },
		{ "dlb-jobs-trace 2\ncpus 2\nflags 0 reclaim\n", ":3: flags: not of the task just before" },
		{ "dlb-jobs-trace 1\ncpus 2\naffinity some\n",
		  ":3: affinity: 'some' is not all, workload or option" },
	};
	struct dlb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_null(read_text(cases[i].text, &err));
		assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
		/* "PATH:LINE: what": the path is a temporary file's */
		assert_non_null(strstr(err.msg, cases[i].msg));
		assert_string_equal(strstr(err.msg, cases[i].msg), cases[i].msg);
	}
}

static void test_workload(void **state)
{
	struct dlb_jobs_trace *jt;
	struct dlb_err err = { 0 };
	struct workload *wl = NULL;
	const struct wl_task *t;

	(void)state;
	jt = read_text(good, &err);
	assert_non_null(jt);
	assert_int_equal(dlb_jt_workload(jt, false, &wl, &err), 0);
	assert_int_equal(wl->nr_tasks, 2);
	assert_int_equal(wl->global.duration_ns, 90000000 - 1000);
	t = &wl->tasks[0];
	assert_int_equal(t->policy, WL_POLICY_DEADLINE);
	/* the flags the run's task had: a reclaiming task reclaims in its replay */
	assert_int_equal(t->dl.flags, DL_FLAG_RECLAIM);
	assert_int_equal(wl->tasks[1].dl.flags, 0);
	assert_true(t->has_cpus);
	assert_int_equal(t->delay_ns, 0);
	/* jobs 0 and 1: the same work 10 ms apart, one phase looped twice */
	assert_int_equal(t->nr_phases, 3);
	assert_int_equal(t->phases[0].loop, 2);
	assert_int_equal(t->phases[0].events[0].type, WL_EV_RUNTIME);
	assert_int_equal(t->phases[0].events[0].duration_ns, 1500000);
	assert_int_equal(t->phases[0].events[1].type, WL_EV_TIMER);
	assert_false(t->phases[0].events[1].timer_relative);
	assert_int_equal(t->phases[0].events[1].duration_ns, 10000000);
	/* job 2 wakes job 3 1 us later than its release: wake-ups are replayed */
	assert_int_equal(t->phases[1].events[0].duration_ns, 1600000);
	assert_int_equal(t->phases[1].events[1].duration_ns, 10001000);
	assert_int_equal(t->phases[2].nr_events, 1);
	assert_int_equal(t->phases[2].events[0].duration_ns, 1700000);
	t = &wl->tasks[1];
	assert_false(t->has_cpus);		/* every CPU: no mask */
	assert_int_equal(t->delay_ns, 200);
	/* the job the trace stopped in runs past the end */
	assert_true(t->phases[1].events[0].duration_ns > 90000000);
	wl_free(wl);
	wl = NULL;
	/* asked: the asked work where known, else the consumed */
	assert_int_equal(dlb_jt_workload(jt, true, &wl, &err), 0);
	assert_int_equal(wl->tasks[0].phases[1].events[0].duration_ns, 1500000);
	assert_int_equal(wl->tasks[0].phases[2].events[0].duration_ns, 1500000);
	assert_int_equal(wl->tasks[1].phases[0].events[0].duration_ns, 900000);
	wl_free(wl);
	dlb_jt_free(jt);
}

/*
 * A thread woken for job 0 5 ms after its release, after job 1's release
 * (4 ms): it never slept for job 1, whose wake-up is its release, before
 * job 0's.  Job 1 arrives 1 ns after job 0 (its replay begins it when job 0
 * ends, as the run did), job 2 on its own wake-up again (the old code
 * refused the trace: "job 1 does not arrive after job 0", and a guest run's
 * conformance came out not_done).
 */
static void test_workload_late_wakeup(void **state)
{
	static const char text[] = "dlb-jobs-trace 1\ncpus 1\n"
		"task 0 5 2000000 4000000 4000000 0 a\n"
		"job 0 0 0 5000000 4000000 1000000 1000000\n"
		"job 0 1 4000000 4000000 8000000 1000000 1000000\n"
		"job 0 2 8000000 8100000 12000000 1000000 1000000\n";
	struct dlb_jobs_trace *jt;
	struct dlb_err err = { 0 };
	struct workload *wl = NULL;
	const struct wl_task *t;

	(void)state;
	jt = read_text(text, &err);
	assert_non_null(jt);
	if (dlb_jt_workload(jt, false, &wl, &err))
		fail_msg("%s", err.msg);
	t = &wl->tasks[0];
	assert_int_equal(t->delay_ns, 5000000);
	assert_int_equal(t->nr_phases, 3);
	assert_int_equal(t->phases[0].events[1].duration_ns, 1);
	assert_int_equal(t->phases[1].events[1].duration_ns, 8100000 - 5000001);
	assert_int_equal(t->phases[2].nr_events, 1);
	wl_free(wl);
	dlb_jt_free(jt);
}

static void test_workload_errors(void **state)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "dlb-jobs-trace 1\ncpus 1\ntask 0 5 500 2000000 2000000 0 a\njob 0 0 0 0 1 1 1\n",
		  "task 'a': runtime must be at least 1024 ns" },
		{ "dlb-jobs-trace 1\ncpus 1\ntask 0 5 2000 2000000 2000000 0 a\n"
		  "job 0 0 0 0 1 - -\n",
		  "job 0 of task 'a': its demand is unknown (no sched_switch, no asked work): cannot replay" },
		{ "dlb-jobs-trace 1\ncpus 1\ntask 0 5 2000 2000000 2000000 0 a\n"
		  "job 0 0 50 50 1 1 1\njob 0 1 40 40 1 1 1\n",
		  "task 'a': job 1 does not arrive after job 0" },
	};
	struct dlb_jobs_trace *jt;
	struct dlb_err err;
	struct workload *wl;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&err, 0, sizeof(err));
		wl = NULL;
		jt = read_text(cases[i].text, &err);
		assert_non_null(jt);
		assert_int_equal(dlb_jt_workload(jt, false, &wl, &err), -1);
		assert_null(wl);
		assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
		assert_string_equal(err.msg, cases[i].msg);
		dlb_jt_free(jt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_workload_late_wakeup),
		cmocka_unit_test(test_workload_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
