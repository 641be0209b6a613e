// SPDX-License-Identifier: GPL-2.0
/*
 * The rt-app event interpreter on a toy backend: a virtual clock that run
 * and sleep advance, every other operation instant.  Checks where jobs
 * begin and end, their releases and deadlines, loops, the sporadic rule,
 * the event log and the livelock guard.
 */
#include "dlb_test.h"
#include "dlb_test_wl.h"

#include <string.h>

#include "dlbench/interp.h"

#define MS NSEC_PER_MSEC

struct toy {
	struct dlb_interp it;
	u64 now;
	bool block_runs;		/* run answers BLOCKED, as the simulator's */
	u64 run_wall;			/* the last job's run_wall_ns, at its end */
	struct dlb_interp_timer shared;
	char trace[4096];
	char uclamp[256];		/* the clamps set, "uPHASE:MIN/MAX " each */
	char membind[256];		/* the bindings set, "mPHASE:NODES " each (hex mask) */
};

static struct toy *toy_of(struct dlb_interp *it)
{
	return dlb_interp_entry(it, struct toy, it);
}

static void say(struct toy *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct toy *t, const char *fmt, ...)
{
	size_t n = strlen(t->trace);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->trace + n, sizeof(t->trace) - n, fmt, ap);
	va_end(ap);
}

static u64 toy_now(struct dlb_interp *it)
{
	return toy_of(it)->now;
}

static int toy_run(struct dlb_interp *it, const struct wl_event *ev)
{
	struct toy *t = toy_of(it);

	t->now += ev->duration_ns;
	return t->block_runs ? DLB_INTERP_BLOCKED : DLB_INTERP_DONE;
}

static int toy_sleep_until(struct dlb_interp *it, u64 when)
{
	struct toy *t = toy_of(it);

	if (when >= 100 * MS)
		return DLB_INTERP_STOP;	/* the run's end */
	t->now = when;
	return DLB_INTERP_DONE;
}

static int toy_done(struct dlb_interp *it, int res)
{
	(void)it;
	(void)res;
	return DLB_INTERP_DONE;
}

static void toy_void(struct dlb_interp *it, int res)
{
	(void)it;
	(void)res;
}

static int toy_cond_wait(struct dlb_interp *it, int cond, int mutex)
{
	(void)mutex;
	return toy_done(it, cond);
}

static void toy_signal(struct dlb_interp *it, int cond, bool all)
{
	(void)all;
	toy_void(it, cond);
}

static int toy_yield(struct dlb_interp *it)
{
	return toy_done(it, 0);
}

/* suspend: resumed 5 ms later */
static int toy_suspend(struct dlb_interp *it, int res)
{
	(void)res;
	toy_of(it)->now += 5 * MS;
	return DLB_INTERP_DONE;
}

static struct dlb_interp_timer *toy_timer_get(struct dlb_interp *it, int res)
{
	(void)res;
	return &toy_of(it)->shared;
}

static void toy_job_begin(struct dlb_interp *it)
{
	say(toy_of(it), "b%llu@%llu rel=%llu dl=%llu ", (unsigned long long)it->job,
	    (unsigned long long)(it->begin / MS), (unsigned long long)(it->rel / MS),
	    (unsigned long long)(it->dl / MS));
}

static void toy_job_end(struct dlb_interp *it)
{
	say(toy_of(it), "e%llu@%llu ", (unsigned long long)it->job,
	    (unsigned long long)(it->end / MS));
	toy_of(it)->run_wall = it->run_wall_ns;
}

static int toy_set_uclamp(struct dlb_interp *it, const struct wl_uclamp *u)
{
	struct toy *t = toy_of(it);
	size_t n = strlen(t->uclamp);

	snprintf(t->uclamp + n, sizeof(t->uclamp) - n, "u%zu:%d/%d ", it->phase,
		 u->has_min ? (int)u->min : -1, u->has_max ? (int)u->max : -1);
	return DLB_INTERP_DONE;
}

static int toy_set_membind(struct dlb_interp *it, const struct wl_membind *m)
{
	struct toy *t = toy_of(it);
	size_t n = strlen(t->membind);

	snprintf(t->membind + n, sizeof(t->membind) - n, "m%zu:%llx ", it->phase,
		 (unsigned long long)m->nodes.bits[0]);
	return DLB_INTERP_DONE;
}

static const struct dlb_interp_ops toy_ops = {
	.now		= toy_now,
	.run		= toy_run,
	.sleep_until	= toy_sleep_until,
	.lock		= toy_done,
	.unlock		= toy_void,
	.cond_wait	= toy_cond_wait,
	.cond_signal	= toy_signal,
	.barrier	= toy_done,
	.yield		= toy_yield,
	.suspend	= toy_suspend,
	.resume		= toy_void,
	.timer_get	= toy_timer_get,
	.set_uclamp	= toy_set_uclamp,
	.set_membind	= toy_set_membind,
	.job_begin	= toy_job_begin,
	.job_end	= toy_job_end,
};

/* Run task @i of @wl on the toy from t = 0 to its end; its trace and final rc. */
static int toy_run_nth(struct toy *t, struct workload *wl, size_t i)
{
	struct dlb_err err;
	int rc;

	memset(t, 0, sizeof(*t));
	assert_int_equal(dlb_interp_init(&t->it, wl, &wl->tasks[i], &toy_ops, &err), 0);
	dlb_interp_log_enable(&t->it, 0);
	dlb_interp_start(&t->it, 0);
	while ((rc = dlb_interp_step(&t->it)) == DLB_INTERP_BLOCKED)
		;
	dlb_interp_finish(&t->it);
	return rc;
}

/* ... task 0 */
static int toy_run_task(struct toy *t, struct workload *wl)
{
	return toy_run_nth(t, wl, 0);
}

#define DL_TASK(events) \
	"{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { \"policy\": " \
	"\"SCHED_DEADLINE\", \"dl-runtime\": 3000, \"dl-period\": 30000, " \
	"\"dl-deadline\": 20000, " events " } } }"

/* A final timer ends the job before the sleep; releases on the timer's grid. */
static void test_timer_last(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"loop\": 3, \"run\": 25000, "
				   "\"timer\": { \"ref\": \"unique\", \"period\": 30000 }"));
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	/* job 1 ends at 55 ms: 5 ms after its deadline (30 + 20) */
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@25 b1@30 rel=30 dl=50 e1@55 "
			    "b2@60 rel=60 dl=80 e2@85 ");
	assert_int_equal(t.it.jobs, 3);
	assert_int_equal(t.it.misses, 3);
	assert_int_equal(t.it.max_lateness, 5 * MS);
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* A timer that is not last is a periodic sleep inside the job. */
static void test_timer_not_last(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"loop\": 2, "
				   "\"timer\": { \"ref\": \"unique\", \"period\": 30000 }, "
				   "\"run\": 1000"));
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@31 b1@31 rel=31 dl=51 e1@61 ");
	assert_int_equal(t.it.period_ns, 30 * MS);
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* A final sleep releases the next job when it ends; a release past the end stops. */
static void test_sleep_last_and_end(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"run\": 10000, \"sleep\": 30000"));
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_STOP);
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@10 b1@40 rel=40 dl=60 e1@50 "
			    "b2@80 rel=80 dl=100 e2@90 ");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* Without a timer, a suspend ends the job; the resume releases the next. */
static void test_sporadic(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"loop\": 2, \"suspend\": \"w\", \"run\": 2000"));
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_string_equal(t.trace, "b0@5 rel=5 dl=25 e0@7 b1@12 rel=12 dl=32 e1@14 ");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* Phase and task loops, in order, in the event log; a BLOCKED run resumes there. */
static void test_loops_and_log(void **state)
{
	struct workload *wl = dlb_test_load(
		"{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { \"loop\": 2, "
		"\"phases\": { \"p0\": { \"loop\": 2, \"run\": 1000, \"sleep\": 1000 }, "
		"\"p1\": { \"run2\": 500 } } } } }");
	char buf[512] = "";
	struct toy t;
	FILE *f;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_int_equal(t.it.jobs, 6);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	assert_int_equal(dlb_interp_log_write(&t.it, f), 0);
	fclose(f);
	assert_string_equal(buf, "0 run\n0 sleep\n0 run\n0 sleep\n1 run2\n"
			    "0 run\n0 sleep\n0 run\n0 sleep\n1 run2\n");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/*
 * A phase's clamps are set as it starts unless they were the last set, as
 * rt-app's set_thread_param: p0 once per task loop (not again for its own
 * second pass), p1 (none) keeps them, p2 sets its own; in the second task
 * "a" (clamps) then "b" (none) loop, and "a"'s are set once in the run.
 */
static void test_phase_uclamp(void **state)
{
	struct workload *wl = dlb_test_load(
		"{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { \"loop\": 2, "
		"\"util_min\": 10, \"phases\": { "
		"\"p0\": { \"loop\": 2, \"util_min\": 100, \"run\": 1000 }, "
		"\"p1\": { \"run\": 1000 }, "
		"\"p2\": { \"util_min\": -1, \"util_max\": 900, \"run\": 1000 } } }, "
		"\"u\": { \"loop\": 3, \"phases\": { \"a\": { \"util_max\": 5, \"run\": 1000 }, "
		"\"b\": { \"run\": 1000 } } } } }");
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_string_equal(t.uclamp, "u0:100/-1 u2:-1/900 u0:100/-1 u2:-1/900 ");
	dlb_interp_fini(&t.it);
	assert_int_equal(toy_run_nth(&t, wl, 1), DLB_INTERP_EXIT);
	assert_int_equal(t.it.jobs, 6);
	assert_string_equal(t.uclamp, "u0:-1/5 ");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/*
 * A phase's nodes are bound as it starts unless the thread is bound to the
 * same nodes already, as rt-app's set_thread_membind: in "t" (task nodes
 * 0-1) "near" binds 0 at each task loop, "keep" (none) keeps it, "far"
 * binds 2, "same" (0-1 again) binds 0-1; in "u" (no task nodes) "a" binds
 * 1 once, and "b", with the same node, binds nothing in the whole run.
 */
static void test_phase_membind(void **state)
{
	struct workload *wl = dlb_test_load(
		"{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { \"loop\": 2, "
		"\"nodes_membind\": [0, 1], \"phases\": { "
		"\"near\": { \"loop\": 2, \"nodes_membind\": [0], \"run\": 1000 }, "
		"\"keep\": { \"run\": 1000 }, "
		"\"far\": { \"nodes_membind\": [2], \"run\": 1000 }, "
		"\"same\": { \"nodes_membind\": [1, 0], \"run\": 1000 } } }, "
		"\"u\": { \"loop\": 3, \"phases\": { \"a\": { \"nodes_membind\": [1], "
		"\"run\": 1000 }, \"b\": { \"nodes_membind\": [1], \"run\": 1000 } } } } }");
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_string_equal(t.membind, "m0:1 m2:4 m3:3 m0:1 m2:4 m3:3 ");
	dlb_interp_fini(&t.it);
	assert_int_equal(toy_run_nth(&t, wl, 1), DLB_INTERP_EXIT);
	assert_int_equal(t.it.jobs, 6);
	assert_string_equal(t.membind, "m0:2 ");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* A run that blocks (the simulator's) is consumed when the step is called again. */
static void test_blocked_run(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"loop\": 1, \"run\": 1000, \"run2\": 1000"));
	struct dlb_err err;
	struct toy t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.block_runs = true;
	assert_int_equal(dlb_interp_init(&t.it, wl, &wl->tasks[0], &toy_ops, &err), 0);
	dlb_interp_start(&t.it, 0);
	assert_int_equal(dlb_interp_step(&t.it), DLB_INTERP_BLOCKED);
	assert_int_equal(t.it.ev, 0);		/* run: not consumed until its work ends */
	assert_int_equal(dlb_interp_step(&t.it), DLB_INTERP_BLOCKED);
	assert_int_equal(t.it.ev, 1);
	assert_int_equal(dlb_interp_step(&t.it), DLB_INTERP_EXIT);
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@2 ");
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/*
 * rt-app's "run" column: the wall time of the job's run events, not its
 * span (1 ms, a 5 ms sleep, 2 ms: 3 ms of an 8 ms job), whether the run
 * returns done (the kernel backend's) or blocks (the simulator's).
 */
static void test_run_wall(void **state)
{
	struct workload *wl = dlb_test_load(DL_TASK("\"loop\": 1, \"run\": 1000, \"sleep\": 5000, "
					   "\"run2\": 2000"));
	struct dlb_err err;
	struct toy t;

	(void)state;
	assert_int_equal(toy_run_task(&t, wl), DLB_INTERP_EXIT);
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@8 ");
	assert_int_equal(t.run_wall, 3 * MS);
	dlb_interp_fini(&t.it);

	memset(&t, 0, sizeof(t));
	t.block_runs = true;
	assert_int_equal(dlb_interp_init(&t.it, wl, &wl->tasks[0], &toy_ops, &err), 0);
	dlb_interp_start(&t.it, 0);
	while (dlb_interp_step(&t.it) == DLB_INTERP_BLOCKED)
		;
	assert_string_equal(t.trace, "b0@0 rel=0 dl=20 e0@8 ");
	assert_int_equal(t.run_wall, 3 * MS);
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

/* A loop of zero-time events is cut by max_events, not run forever. */
static void test_livelock(void **state)
{
	struct workload *wl = dlb_test_load(
		"{ \"global\": { \"calibration\": 100 }, \"tasks\": { \"t\": { "
		"\"lock\": \"m\", \"unlock\": \"m\" } } }");
	struct dlb_err err;
	struct toy t;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(dlb_interp_init(&t.it, wl, &wl->tasks[0], &toy_ops, &err), 0);
	t.it.max_events = 1000;
	dlb_interp_start(&t.it, 0);
	assert_int_equal(dlb_interp_step(&t.it), DLB_INTERP_LIVELOCK);
	dlb_interp_fini(&t.it);
	wl_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_last),
		cmocka_unit_test(test_timer_not_last),
		cmocka_unit_test(test_sleep_last_and_end),
		cmocka_unit_test(test_sporadic),
		cmocka_unit_test(test_loops_and_log),
		cmocka_unit_test(test_blocked_run),
		cmocka_unit_test(test_phase_uclamp),
		cmocka_unit_test(test_phase_membind),
		cmocka_unit_test(test_run_wall),
		cmocka_unit_test(test_livelock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
