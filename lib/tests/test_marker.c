// SPDX-License-Identifier: GPL-2.0
/*
 * The marker grammar: our dialect round trip and exact errors, and the two
 * rt-app dialects mapped onto the same struct.
 */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/marker.h"

static int parse(const char *s, int writer, struct dlb_marker *m, struct dlb_err *err)
{
	dlb_err_clear(err);
	return dlb_marker_parse(s, strlen(s), writer, m, err);
}

/* format -> parse -> format gives the same text and the same struct */
static void roundtrip(const struct dlb_marker *in, const char *want)
{
	char buf[DLB_MARKER_MAX], buf2[DLB_MARKER_MAX];
	struct dlb_marker out;
	struct dlb_err err;
	int n;

	n = dlb_marker_format(buf, sizeof(buf), in);
	assert_int_equal(n, (int)strlen(want));
	assert_string_equal(buf, want);
	assert_int_equal(parse(buf, 999, &out, &err), 1);
	assert_int_equal(out.dialect, DLB_DIALECT_DLBENCH);
	assert_int_equal(out.kind, in->kind);
	assert_int_equal(out.flags, in->flags);
	assert_int_equal(dlb_marker_format(buf2, sizeof(buf2), &out), n);
	assert_string_equal(buf2, buf);
}

static void test_roundtrip_job(void **state)
{
	struct dlb_marker m = { .kind = DLB_MARK_JOB_BEGIN, .tid = 1234, .job = 7,
				.flags = DLB_MF_JOB | DLB_MF_REL | DLB_MF_DL,
				.rel = 25416458208123ULL, .dl = 25416488208123ULL };

	(void)state;
	roundtrip(&m, "dlb_job: tid=1234 job=7 event=begin rel=25416458208123 dl=25416488208123");
	m.kind = DLB_MARK_JOB_RELEASE;
	roundtrip(&m, "dlb_job: tid=1234 job=7 event=release rel=25416458208123 dl=25416488208123");
	/* a job of a non-deadline task has a release and no deadline */
	roundtrip(&(struct dlb_marker){ .kind = DLB_MARK_JOB_RELEASE, .tid = 3,
					 .flags = DLB_MF_JOB | DLB_MF_REL, .rel = 5 },
		  "dlb_job: tid=3 job=0 event=release rel=5");
	m.kind = DLB_MARK_JOB_END;
	m.flags = DLB_MF_JOB;
	roundtrip(&m, "dlb_job: tid=1234 job=7 event=end");
	m.kind = DLB_MARK_JOB_BEGIN;
	m.job = UINT64_MAX;
	roundtrip(&m, "dlb_job: tid=1234 job=18446744073709551615 event=begin");
}

static void test_roundtrip_task_run(void **state)
{
	struct dlb_marker m = { .kind = DLB_MARK_TASK, .tid = 42, .policy = 6, .prio = 0,
				.flags = DLB_MF_PARAMS, .runtime = 10000000,
				.deadline = 30000000, .period = 100000000 };
	struct dlb_marker out;
	struct dlb_err err;

	(void)state;
	strcpy(m.name, "dl a=b");
	roundtrip(&m, "dlb_task: tid=42 name=dl_a_b policy=deadline prio=0 runtime=10000000 "
		      "deadline=30000000 period=100000000");
	m.policy = 9;
	m.flags = 0;
	roundtrip(&m, "dlb_task: tid=42 name=dl_a_b policy=9 prio=0");
	m.kind = DLB_MARK_TASK_EXIT;
	roundtrip(&m, "dlb_task: tid=42 event=exit");

	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_RUN_START;
	strcpy(m.backend, "kernel");
	strcpy(m.clock, "mono");
	strcpy(m.workload, "smoke");
	m.cpus = 2;
	roundtrip(&m, "dlb_run: event=start backend=kernel cpus=2 clock=mono tool=" DLB_VERSION
		      " workload=smoke");
	assert_int_equal(parse("dlb_run: event=start backend=kernel cpus=2 clock=mono tool=0.1 "
			       "workload=smoke\n", 1, &out, &err), 1);
	assert_string_equal(out.backend, "kernel");
	assert_string_equal(out.clock, "mono");
	assert_string_equal(out.workload, "smoke");
	assert_int_equal(out.cpus, 2);

	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_RUN_END;
	m.status = DLB_RUN_INCOMPLETE;
	roundtrip(&m, "dlb_run: event=end status=incomplete");
}

static void test_format_too_small(void **state)
{
	struct dlb_marker m = { .kind = DLB_MARK_JOB_END, .tid = 1, .job = 2, .flags = DLB_MF_JOB };
	char buf[64];

	(void)state;
	assert_int_equal(dlb_marker_format(buf, 10, &m), -1);
	assert_int_equal(dlb_marker_format(buf, 30, &m), -1);	/* 30 chars + NUL fits */
	assert_int_equal(dlb_marker_format(buf, 31, &m), 30);
	assert_int_equal(dlb_marker_format(buf, 0, &m), -1);
	m.kind = DLB_MARK_OTHER;
	assert_int_equal(dlb_marker_format(buf, sizeof(buf), &m), -1);
}

static void test_parse_keys_any_order(void **state)
{
	struct dlb_marker m;
	struct dlb_err err;

	(void)state;
	assert_int_equal(parse("  dlb_job:  dl=200 event=begin   job=3 tid=5 \n", 1, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_JOB_BEGIN);
	assert_int_equal(m.flags, DLB_MF_JOB | DLB_MF_DL);
	assert_int_equal(m.tid, 5);
	assert_int_equal(m.job, 3);
	assert_int_equal(m.dl, 200);
	assert_int_equal(parse("dlb_task: tid=5 prio=-1 policy=fifo", 1, &m, &err), 1);
	assert_int_equal(m.policy, 1);
	assert_int_equal(m.prio, -1);
}

static const struct {
	const char *in, *err;
} bad[] = {
	{ "dlb_job: tid=1 job=x event=end", "dlb_job: key 'job': not an unsigned number 'x'" },
	{ "dlb_job: tid=1 job=-1 event=end", "dlb_job: key 'job': not an unsigned number '-1'" },
	{ "dlb_job: tid=1 job=18446744073709551616 event=end",
	  "dlb_job: key 'job': not an unsigned number '18446744073709551616'" },
	{ "dlb_job: job=1 event=end", "dlb_job: missing key 'tid'" },
	{ "dlb_job: tid=1 event=end", "dlb_job: missing key 'job'" },
	{ "dlb_job: tid=1 job=1", "dlb_job: missing key 'event'" },
	{ "dlb_job: tid=1 job=1 event=finish", "dlb_job: key 'event': unknown value 'finish'" },
	{ "dlb_job: tid=1 job=1 event=end foo=2", "dlb_job: unknown key 'foo'" },
	{ "dlb_job: tid=1 job=1 event=end rel=5", "dlb_job: unknown key 'rel'" },
	{ "dlb_job: tid=1 job=1 event=release dl=5", "dlb_job: missing key 'rel'" },
	{ "dlb_job: tid=1 job=1 event=begin rel=", "dlb_job: key 'rel' has no value" },
	{ "dlb_job: tid=1 job=1 event=begin garbage", "dlb_job: 'garbage' is not key=value" },
	{ "dlb_job: tid=1 job=1 event=begin =5", "dlb_job: '=5' is not key=value" },
	{ "dlb_job: tid=99999999999 job=1 event=end",
	  "dlb_job: key 'tid': not an integer '99999999999'" },
	{ "dlb_job tid=1", "marker 'dlb_job': no ':' after the type" },
	{ "dlb_jobs: tid=1", "unknown marker type 'dlb_jobs'" },
	{ "dlb_run: event=middle", "dlb_run: key 'event': unknown value 'middle'" },
	{ "dlb_run: event=end", "dlb_run: missing key 'status'" },
	{ "dlb_run: event=end status=fine", "dlb_run: key 'status': unknown value 'fine'" },
	{ "dlb_run: event=start cpus=two", "dlb_run: key 'cpus': not an integer 'two'" },
	{ "dlb_run: event=start clock=a_very_long_clock_name",
	  "dlb_run: key 'clock': value too long 'a_very_long_clock_name'" },
	{ "dlb_task: tid=1 runtime=5 deadline=6", "dlb_task: missing key 'period'" },
	{ "dlb_task: tid=1 policy=sporadic", "dlb_task: key 'policy': unknown policy 'sporadic'" },
	{ "dlb_task: tid=1 event=start", "dlb_task: key 'event': unknown value 'start'" },
	{ "dlb_task: tid=1 event=exit name=x", "dlb_task: unknown key 'name'" },
	{ "dlb_task: name=x", "dlb_task: missing key 'tid'" },
	{ "dlb_job: a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17",
	  "dlb_job: more than 16 keys" },
};

static void test_parse_errors(void **state)
{
	struct dlb_marker m;
	struct dlb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = parse(bad[i].in, 1, &m, &err);

		if (r != -1)
			fail_msg("'%s': returned %d, want -1", bad[i].in, r);
		if (strcmp(err.msg, bad[i].err))
			fail_msg("'%s':\n got '%s'\nwant '%s'", bad[i].in, err.msg, bad[i].err);
		assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
		assert_null(strchr(err.msg, '\n'));
	}
}

static void test_not_a_marker(void **state)
{
	static const char *const other[] = {
		"", "   \n", "hello world", "dlb", "[x] begins loop 1 phase 0 step 0",
		"[0] begins loop 1 phase 0", "[0] begins loop 1 phase 0 step 0 extra",
		"[0] dances", "main thinks", "rtapp_loop: event=start", "rtapp_unknown: event=x",
		"rtapp_loop: event=middle thread_loop=0 phase=0 phase_loop=0", "rtapp_main",
	};
	struct dlb_marker m;
	struct dlb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		int r = parse(other[i], 77, &m, &err);

		if (r != 0)
			fail_msg("'%s': returned %d, want 0", other[i], r);
		assert_int_equal(m.tid, 77);
		assert_string_equal(err.msg, "");
	}
}

static const struct {
	const char *in;
	enum dlb_marker_kind kind;
	int thread, loop, phase, step;
} rtapp10[] = {
	{ "main creates threads", DLB_MARK_RUN_START, -1, -1, -1, -1 },
	{ "main shutdown\n", DLB_MARK_OTHER, -1, -1, -1, -1 },
	{ "main ends", DLB_MARK_RUN_END, -1, -1, -1, -1 },
	{ "[0] sets zero time", DLB_MARK_CLOCK_REF, 0, -1, -1, -1 },
	{ "[1] starts", DLB_MARK_TASK_START, 1, -1, -1, -1 },
	{ "[0] begins loop 3 phase 1 step 12", DLB_MARK_JOB_BEGIN, 0, 3, 1, 12 },
	{ "[0] executing 2", DLB_MARK_OTHER, 0, -1, -1, -1 },
	{ "[12] end loop 3 phase 1 step 12\n", DLB_MARK_JOB_END, 12, 3, 1, 12 },
	{ "[0] exiting", DLB_MARK_TASK_EXIT, 0, -1, -1, -1 },
};

static void test_rtapp10(void **state)
{
	struct dlb_marker m;
	struct dlb_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rtapp10) / sizeof(rtapp10[0]); i++) {
		if (parse(rtapp10[i].in, 4321, &m, &err) != 1)
			fail_msg("'%s' not recognised", rtapp10[i].in);
		assert_int_equal(m.dialect, DLB_DIALECT_RTAPP10);
		assert_int_equal(m.kind, rtapp10[i].kind);
		assert_int_equal(m.tid, 4321);
		assert_int_equal(m.rt_thread, rtapp10[i].thread);
		assert_int_equal(m.rt_loop, rtapp10[i].loop);
		assert_int_equal(m.rt_phase, rtapp10[i].phase);
		assert_int_equal(m.rt_step, rtapp10[i].step);
		assert_int_equal(m.flags, 0);	/* no job index: the consumer counts */
	}
}

static void test_rtapp_upstream(void **state)
{
	struct dlb_marker m;
	struct dlb_err err;

	(void)state;
	assert_int_equal(parse("rtapp_main: event=start", 10, &m, &err), 1);
	assert_int_equal(m.dialect, DLB_DIALECT_RTAPP);
	assert_int_equal(m.kind, DLB_MARK_RUN_START);
	assert_int_equal(parse("rtapp_main: event=clock_ref data=471324860", 10, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_CLOCK_REF);
	assert_int_equal(parse("rtapp_main: event=end", 10, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_RUN_END);
	assert_int_equal(parse("rtapp_task: event=start", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_TASK_START);
	assert_int_equal(parse("rtapp_task: event=end", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_TASK_EXIT);
	assert_int_equal(m.tid, 11);

	assert_int_equal(parse("rtapp_loop: event=start thread_loop=5 phase=2 phase_loop=3", 11,
			       &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_JOB_BEGIN);
	assert_int_equal(m.rt_loop, 5);
	assert_int_equal(m.rt_phase, 2);
	assert_int_equal(m.rt_step, 3);
	assert_int_equal(m.tid, 11);
	assert_int_equal(parse("rtapp_loop: event=end thread_loop=5 phase=2 phase_loop=3\n", 11,
			       &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_JOB_END);

	assert_int_equal(parse("rtapp_attrs: event=policy policy=dl runtime=10000000 "
			       "deadline=30000000 period=100000000", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_TASK);
	assert_int_equal(m.policy, 6);
	assert_int_equal(m.flags, DLB_MF_PARAMS);
	assert_int_equal(m.runtime, 10000000);
	assert_int_equal(m.deadline, 30000000);
	assert_int_equal(m.period, 100000000);
	assert_int_equal(parse("rtapp_attrs: event=policy policy=fifo prio=10", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_TASK);
	assert_int_equal(m.policy, 1);
	assert_int_equal(m.prio, 10);
	assert_int_equal(parse("rtapp_attrs: event=uclamp util_min=100", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_OTHER);
	assert_int_equal(parse("rtapp_event: id=0 type=4 desc=run0", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_OTHER);
	assert_int_equal(parse("rtapp_stats: period=100 run=10 wu_lat=3 slack=5 c_period=100 "
			       "c_run=10", 11, &m, &err), 1);
	assert_int_equal(m.kind, DLB_MARK_OTHER);
}

/*
 * The formatter writes numbers without printf (it is the simulator's hot
 * path): the same bytes as "%d"/"%llu" for every digit count, the extremes
 * and negative values, checked against snprintf.
 */
static void test_format_numbers(void **state)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, 99, 100, -100, 12345, 2147483647,
					  -2147483647 - 1 };
	char buf[DLB_MARKER_MAX], want[DLB_MARKER_MAX];
	struct dlb_marker m;
	u64 v = 1, x = 88172645463325252ULL;
	size_t i;
	int k;

	(void)state;
	for (k = 0; k < 2000; k++) {
		/* every power of ten and its neighbours, then random values */
		if (k < 60) {
			v = k % 3 == 0 ? v * 10 : v;
			x = v + (u64)(k % 3) - 1;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		memset(&m, 0, sizeof(m));
		m.kind = DLB_MARK_JOB_BEGIN;
		m.tid = (int)(x >> 33) * (k % 2 ? -1 : 1);
		m.job = k == 0 ? UINT64_MAX : x;
		m.rel = x >> (k % 64);
		m.dl = x * 3;
		m.flags = DLB_MF_JOB | DLB_MF_REL | DLB_MF_DL;
		snprintf(want, sizeof(want), "dlb_job: tid=%d job=%llu event=begin rel=%llu dl=%llu",
			 m.tid, (unsigned long long)m.job, (unsigned long long)m.rel,
			 (unsigned long long)m.dl);
		assert_int_equal(dlb_marker_format(buf, sizeof(buf), &m), (int)strlen(want));
		assert_string_equal(buf, want);
	}
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		memset(&m, 0, sizeof(m));
		m.kind = DLB_MARK_TASK;
		m.tid = (int)ints[i];
		m.prio = (int)ints[i];
		m.policy = 4;		/* no name: written as a number */
		snprintf(want, sizeof(want), "dlb_task: tid=%d policy=4 prio=%d", m.tid, m.prio);
		assert_int_equal(dlb_marker_format(buf, sizeof(buf), &m), (int)strlen(want));
		assert_string_equal(buf, want);
	}
	/* a truncated result is the prefix, NUL-terminated, as vsnprintf leaves it */
	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_JOB_END;
	m.tid = 123456;
	m.job = 7;
	assert_int_equal(dlb_marker_format(buf, 18, &m), -1);
	assert_string_equal(buf, "dlb_job: tid=1234");
}

static void test_status_str(void **state)
{
	(void)state;
	assert_string_equal(dlb_run_status_str(DLB_RUN_COMPLETE), "complete");
	assert_string_equal(dlb_run_status_str(DLB_RUN_ERROR), "error");
	assert_string_equal(dlb_run_status_str((enum dlb_run_status)7), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_job),
		cmocka_unit_test(test_roundtrip_task_run),
		cmocka_unit_test(test_format_too_small),
		cmocka_unit_test(test_format_numbers),
		cmocka_unit_test(test_parse_keys_any_order),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_not_a_marker),
		cmocka_unit_test(test_rtapp10),
		cmocka_unit_test(test_rtapp_upstream),
		cmocka_unit_test(test_status_str),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
