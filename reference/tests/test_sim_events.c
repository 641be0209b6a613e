// SPDX-License-Identifier: GPL-2.0
/*
 * The workload model's events in the simulator: instances and their names,
 * task and phase loops ending in an exit, barrier, cond wait/signal,
 * suspend/resume, a shared mutex without inheritance.
 */
#include "dlb_test.h"

#include <stdarg.h>

#include "wlbuild.h"

/* Instances are threads "name-N", TIDs from 1000; a loop of 3 x (phase loop 2) = 6 jobs. */
static void test_instances_loops(void **state)
{
	struct workload *wl = wlb_new(100 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	struct dlb_sim_task_stats st;
	int t;

	(void)state;
	t = wlb_periodic(wl, "worker_with_a_long_name", 1 * MS, 10 * MS, 10 * MS, 1 * MS);
	/* one timer per instance (rt-app's "unique"): each thread every 10 ms */
	wl->resources[wl->tasks[t].phases[0].events[1].res].unique = true;
	wl->tasks[t].instances = 3;
	wl->tasks[t].loop = 3;
	wl->tasks[t].phases[0].loop = 2;
	wlb_opts(&o, 2);
	sim = wlb_sim(wl, &o, 0, &log);
	free(log.buf);
	assert_int_equal(dlb_sim_nr_threads(sim), 3);
	dlb_sim_task_stats(sim, 2, &st);
	assert_int_equal(st.tid, 1002);
	assert_string_equal(st.comm, "worker_with_a_l");	/* 15 characters */
	assert_string_equal(dlb_sim_comm(sim, 1002), "worker_with_a_l");
	assert_int_equal(st.jobs, 6);
	assert_int_equal(st.jobs_missed, 0);
	dlb_sim_free(sim);
	wlb_free(wl);

	wl = wlb_new(100 * MS);
	t = wlb_periodic(wl, "w", 1 * MS, 10 * MS, 10 * MS, 1 * MS);
	wl->tasks[t].instances = 2;
	wl->tasks[t].loop = 1;
	wlb_opts(&o, 1);
	sim = wlb_sim(wl, &o, WLB_SWITCH | (1u << DLB_EV_MARKER), &log);
	/* both end after one job: the exit marker, then the switch out as "Z" */
	assert_non_null(strstr(log.buf, "10000 dlb_task: tid=1000 event=exit\n"));
	assert_non_null(strstr(log.buf, "0 swapper/0>w-0\n"));
	assert_non_null(strstr(log.buf, "0 w-0>w-1\n"));
	free(log.buf);
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * A timer shared by two instances (rt-app: a ref without "unique" names one
 * timer, rt-app.c rdata->res.timer.t_next): its next expiry is common and
 * every use adds the period to it, so the instances release in turn.
 * 1 CPU, run 1 ms, timer 10 ms, both start at 0 (t_first 0):
 *   w-0 runs 0-1, t_next = 0 + 10 = 10: sleeps to 10
 *   w-1 runs 1-2, t_next = 10 + 10 = 20: sleeps to 20
 *   w-0 at 10, t_next 30; w-1 at 20, t_next 40; w-0 at 30, t_next 50 (the end)
 * so w-0 (1000) is released at 0, 10, 30 and w-1 (1001) at 0, 20, 40, each
 * every 20 ms (log times in us).  With a "unique" timer both would release at 0, 10, 20, 30, 40.
 */
static void test_shared_timer(void **state)
{
	struct workload *wl;
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	const char *want_shared =
		"0 dlb_job: tid=1000 job=0 event=release rel=0 dl=10000000\n"
		"0 dlb_job: tid=1001 job=0 event=release rel=0 dl=10000000\n"
		"10000 dlb_job: tid=1000 job=1 event=release rel=10000000 dl=20000000\n"
		"20000 dlb_job: tid=1001 job=1 event=release rel=20000000 dl=30000000\n"
		"30000 dlb_job: tid=1000 job=2 event=release rel=30000000 dl=40000000\n"
		"40000 dlb_job: tid=1001 job=2 event=release rel=40000000 dl=50000000\n";
	int t;
	bool unique;

	(void)state;
	for (unique = false; ; unique = true) {
		char *p, *q, *rel;
		size_t n = 0;

		wl = wlb_new(50 * MS);
		t = wlb_periodic(wl, "w", 1 * MS, 10 * MS, 10 * MS, 1 * MS);
		wl->tasks[t].instances = 2;
		wl->resources[wl->tasks[t].phases[0].events[1].res].unique = unique;
		wlb_opts(&o, 1);
		sim = wlb_sim(wl, &o, 1u << DLB_EV_MARKER, &log);
		/* keep the release markers only */
		rel = calloc(1, strlen(log.buf) + 1);
		for (p = log.buf; *p; p = q + 1) {
			q = strchr(p, '\n');
			if (strstr(p, "event=release") && strstr(p, "event=release") < q) {
				memcpy(rel + n, p, (size_t)(q - p + 1));
				n += (size_t)(q - p + 1);
			}
		}
		free(log.buf);
		log.buf = rel;
		if (!unique) {
			wlb_expect_log(&log, want_shared);
		} else {
			/* each instance its own timer: both at 0, 10, 20, 30, 40 */
			assert_non_null(strstr(rel, "40000 dlb_job: tid=1000 job=4 event=release"));
			assert_non_null(strstr(rel, "40000 dlb_job: tid=1001 job=4 event=release"));
			free(rel);
		}
		dlb_sim_free(sim);
		wlb_free(wl);
		if (unique)
			break;
	}
}

/* Barrier: a (1 ms) waits for b (3 ms); both continue at 3. */
static void test_barrier(void **state)
{
	struct workload *wl = wlb_new(10 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int a, b, r;

	(void)state;
	r = wlb_res(wl, "bar", WL_RES_BARRIER);
	wl->resources[r].users = 2;
	a = wlb_task(wl, "a", WL_POLICY_DEADLINE, 3 * MS, 10 * MS, 10 * MS);
	wlb_ev(wl, a, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, a, WL_EV_BARRIER, 0, r);
	wlb_ev(wl, a, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, a, WL_EV_SLEEP, 100 * MS, -1);
	b = wlb_task(wl, "b", WL_POLICY_DEADLINE, 5 * MS, 10 * MS, 10 * MS);
	wlb_ev(wl, b, WL_EV_RUN, 3 * MS, -1);
	wlb_ev(wl, b, WL_EV_BARRIER, 0, r);
	wlb_ev(wl, b, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, b, WL_EV_SLEEP, 100 * MS, -1);
	wlb_opts(&o, 2);
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>a-0\n"
		       "0 1 swapper/1>b-1\n"
		       "1000 0 a-0>swapper/0\n"
		       "3000 0 swapper/0>a-0\n"
		       "4000 1 b-1>swapper/1\n"
		       "4000 0 a-0>swapper/0\n");
	dlb_sim_free(sim);
	wlb_free(wl);
}

/* cond wait/signal: w waits on c (releasing m); s signals at 2 ms; w runs after. */
static void test_cond(void **state)
{
	struct workload *wl = wlb_new(10 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int w, sg, m, c;

	(void)state;
	m = wlb_res(wl, "m", WL_RES_MUTEX);
	c = wlb_res(wl, "c", WL_RES_COND);
	w = wlb_task(wl, "w", WL_POLICY_DEADLINE, 3 * MS, 10 * MS, 10 * MS);
	wlb_ev(wl, w, WL_EV_LOCK, 0, m);
	wlb_ev(wl, w, WL_EV_WAIT, 0, c);
	wl->tasks[w].phases[0].events[1].dep = m;
	wlb_ev(wl, w, WL_EV_UNLOCK, 0, m);
	wlb_ev(wl, w, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, w, WL_EV_SLEEP, 100 * MS, -1);
	sg = wlb_task(wl, "s", WL_POLICY_DEADLINE, 3 * MS, 10 * MS, 10 * MS);
	wl->tasks[sg].delay_ns = 2 * MS;
	wlb_ev(wl, sg, WL_EV_LOCK, 0, m);
	wlb_ev(wl, sg, WL_EV_SIGNAL, 0, c);
	wlb_ev(wl, sg, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, sg, WL_EV_UNLOCK, 0, m);
	wlb_ev(wl, sg, WL_EV_SLEEP, 100 * MS, -1);
	wlb_opts(&o, 1);
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	/*
	 * Woken at 2 with 3 ms left and deadline 10, w gets a new deadline 12
	 * (3/8 > 3/10), equal to s's: no preemption; it runs when s sleeps at
	 * 3, takes m again (free) and runs 1 ms.
	 */
	wlb_expect_log(&log,
		       "0 0 swapper/0>w-0\n"
		       "0 0 w-0>swapper/0\n"
		       "2000 0 swapper/0>s-1\n"
		       "3000 0 s-1>w-0\n"
		       "4000 0 w-0>swapper/0\n");
	dlb_sim_free(sim);
	wlb_free(wl);
}

/* suspend/resume: p suspends; q resumes it at 5 ms. */
static void test_suspend_resume(void **state)
{
	struct workload *wl = wlb_new(10 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int p, q, r;

	(void)state;
	r = wlb_res(wl, "p", WL_RES_WAKEUP);
	p = wlb_task(wl, "p", WL_POLICY_FIFO, 0, 0, 0);
	wl->tasks[p].priority = 50;
	wlb_ev(wl, p, WL_EV_SUSPEND, 0, r);
	wlb_ev(wl, p, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, p, WL_EV_SLEEP, 100 * MS, -1);
	q = wlb_task(wl, "q", WL_POLICY_OTHER, 0, 0, 0);
	wl->tasks[q].delay_ns = 5 * MS;
	wlb_ev(wl, q, WL_EV_RESUME, 0, r);
	wlb_ev(wl, q, WL_EV_SLEEP, 100 * MS, -1);
	wlb_opts(&o, 1);
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>p-0\n"
		       "0 0 p-0>swapper/0\n"
		       "5000 0 swapper/0>q-1\n"
		       "5000 0 q-1>p-0\n"
		       "6000 0 p-0>swapper/0\n");
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * dlb_sim_marker(): a job marker event's struct says what its text does,
 * field for field as dlb_marker_parse() reads the text back (the
 * conformance replay feeds its metrics the struct instead of parsing).
 */
struct marker_check {
	struct dlb_sim *sim;
	int jobs, others;
};

static int check_marker(const struct dlb_event *ev, void *arg)
{
	struct marker_check *mc = arg;
	const struct dlb_marker *mk = dlb_sim_marker(mc->sim);
	struct dlb_marker q;
	struct dlb_err err;

	if (ev->type != DLB_EV_MARKER) {
		assert_null(mk);
		return 0;
	}
	assert_non_null(mk);
	if (mk->kind != DLB_MARK_JOB_RELEASE && mk->kind != DLB_MARK_JOB_BEGIN &&
	    mk->kind != DLB_MARK_JOB_END) {
		mc->others++;
		return 0;
	}
	mc->jobs++;
	assert_int_equal(dlb_marker_parse(ev->mark.text, ev->mark.len, ev->pid, &q, &err), 1);
	assert_int_equal(q.dialect, mk->dialect);
	assert_int_equal(q.kind, mk->kind);
	assert_int_equal(q.flags, mk->flags);
	assert_int_equal(q.tid, mk->tid);
	assert_int_equal(q.job, mk->job);
	assert_int_equal(q.rel, mk->rel);
	assert_int_equal(q.dl, mk->dl);
	return 0;
}

static void test_marker_struct(void **state)
{
	struct workload *wl = wlb_new(100 * MS);
	struct dlb_sim_opts o;
	struct marker_check mc = { 0 };
	struct dlb_err err;

	(void)state;
	wlb_periodic(wl, "a", 2 * MS, 10 * MS, 10 * MS, 1 * MS);
	wlb_periodic(wl, "b", 3 * MS, 7 * MS, 15 * MS, 2 * MS);
	wlb_opts(&o, 2);
	mc.sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(mc.sim);
	dlb_sim_set_event_hook(mc.sim, check_marker, &mc);
	assert_int_equal(dlb_sim_run(mc.sim, &err), 0);
	/* a: 10 jobs, b: 7, three markers each; the tasks' and the run's markers besides */
	assert_int_equal(mc.jobs, 3 * (10 + 7));
	assert_true(mc.others >= 4);
	dlb_sim_free(mc.sim);
	wlb_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instances_loops),
		cmocka_unit_test(test_shared_timer),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_cond),
		cmocka_unit_test(test_suspend_resume),
		cmocka_unit_test(test_marker_struct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
