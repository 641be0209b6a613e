// SPDX-License-Identifier: GPL-2.0
/*
 * The mainline model (sched_dl_mainline.c): golden schedules derived by
 * hand from mainline kernel/sched/deadline.c, each run on v4 and on the
 * mainline version before and after the rule arrived, so that every test
 * shows the rule and nothing else changing the schedule.  Every run checks
 * all invariants after every step (wlb_opts: o.check).
 *
 * One constrained task x throughout: runtime 2 ms, deadline 4 ms, period
 * 10 ms, on 1 CPU; instants below in ms.
 */
#include "dlb_test.h"

#include <stdarg.h>

#include "dlbench/exitcode.h"

#include "wlbuild.h"
#include "wlpi.h"
#include "../sched.h"

/* x (2/4/10 ms) runs @run1, sleeps @sleep, runs @run2, sleeps for good. */
static struct workload *constrained(u64 run1, u64 sleep, u64 run2)
{
	struct workload *wl = wlb_new(20 * MS);
	int x = wlb_task(wl, "x", WL_POLICY_DEADLINE, 2 * MS, 4 * MS, 10 * MS);

	wlb_ev(wl, x, WL_EV_RUN, run1, -1);
	if (sleep) {
		wlb_ev(wl, x, WL_EV_SLEEP, sleep, -1);
		wlb_ev(wl, x, WL_EV_RUN, run2, -1);
	}
	wlb_ev(wl, x, WL_EV_SLEEP, 100 * MS, -1);
	return wl;
}

/* Run @wl on 1 CPU under @model: its log of the events in @mask must be @want. */
static void run_expect_mask(struct workload *wl, const char *model, unsigned int mask,
			    const char *want)
{
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;

	wlb_opts(&o, 1);
	assert_int_equal(dlb_sim_opts_model(&o, model), 0);
	sim = wlb_sim(wl, &o, mask, &log);
	wlb_expect_log(&log, want);
	dlb_sim_free(sim);
}

static void run_expect(struct workload *wl, const char *model, const char *want)
{
	run_expect_mask(wl, model, WLB_SWITCH | WLB_DL, want);
}

/* Inheritance: the switches and migrations only (wlpi.h's logs). */
static void sched_expect(struct workload *wl, const char *model, const char *want)
{
	run_expect_mask(wl, model, WLB_SCHED, want);
}

/* sched_expect() for each { model, log } of @runs; frees @wl. */
static void sched_expect_runs(struct workload *wl, const char *const (*runs)[2], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sched_expect(wl, runs[i][0], runs[i][1]);
	wlb_free(wl);
}

/*
 * dl_check_constrained_dl() (4.11).  x runs 0-1, sleeps until 5: its
 * deadline 4 is past, its next period (4 - 4 + 10 = 10) not yet.  Mainline
 * throttles it at 5 with runtime 0, the timer at 10 replenishes (deadline
 * 4 + 10 = 14, runtime 2) and x runs 10-11.  v4 and 4.10 give it a new
 * deadline 5 + 4 = 9 and full runtime at once: it runs 5-6.
 */
static void test_constrained_throttle(void **state)
{
	struct workload *wl = constrained(1 * MS, 4 * MS, 1 * MS);
	const char *cbs =
		"0 0 swapper/0>x-0\n"
		"1000 0 x-0>swapper/0\n"
		"5000 0 swapper/0>x-0\n"
		"6000 0 x-0>swapper/0\n";
	const char *throttled =
		"0 0 swapper/0>x-0\n"
		"1000 0 x-0>swapper/0\n"
		"5000 throttle x-0 0 4000\n"
		"10000 repl x-0 2000 14000\n"
		"10000 0 swapper/0>x-0\n"
		"11000 0 x-0>swapper/0\n";

	(void)state;
	run_expect(wl, "v4", cbs);
	run_expect(wl, "mainline:4.10", cbs);
	run_expect(wl, "mainline:4.11", throttled);
	run_expect(wl, "mainline", throttled);
	wlb_free(wl);
}

/*
 * update_dl_revised_wakeup() (4.13).  x runs 0-0.5 (1.5 ms left), sleeps
 * until 3: 1.5 / (4 - 3) > 2 / 4, the CBS overflow.  Before 4.13 (and in
 * v4) x gets deadline 3 + 4 = 7 and 2 ms: it runs its 1 ms job 3-4.  From
 * 4.13 it keeps deadline 4 with runtime density * laxity = 0.5 * 1 = 0.5
 * ms: it runs 3-3.5, is throttled, and (timer at the next period, 4.11)
 * is replenished at 10 (deadline 14) to run its last 0.5 ms 10-10.5.
 */
static void test_revised_wakeup(void **state)
{
	struct workload *wl = constrained(500 * US, 2500 * US, 1 * MS);
	const char *cbs =
		"0 0 swapper/0>x-0\n"
		"500 0 x-0>swapper/0\n"
		"3000 0 swapper/0>x-0\n"
		"4000 0 x-0>swapper/0\n";

	(void)state;
	run_expect(wl, "v4", cbs);
	run_expect(wl, "mainline:4.12", cbs);
	run_expect(wl, "mainline:4.13",
		   "0 0 swapper/0>x-0\n"
		   "500 0 x-0>swapper/0\n"
		   "3000 0 swapper/0>x-0\n"
		   "3500 throttle x-0 0 4000\n"
		   "3500 0 x-0>swapper/0\n"
		   "10000 repl x-0 2000 14000\n"
		   "10000 0 swapper/0>x-0\n"
		   "10500 0 x-0>swapper/0\n");
	wlb_free(wl);
}

/*
 * dl_next_period() in start_dl_timer() (4.11).  x runs a 3 ms job on a
 * 2 ms budget: throttled at 2.  v4 and 4.10 replenish at the deadline 4
 * (deadline 4 + 10 = 14) and x runs 4-5; from 4.11 the timer waits for the
 * next period, 10, and x runs 10-11 with the same deadline 14.
 */
static void test_timer_next_period(void **state)
{
	struct workload *wl = constrained(3 * MS, 0, 0);
	const char *at_deadline =
		"0 0 swapper/0>x-0\n"
		"2000 throttle x-0 0 4000\n"
		"2000 0 x-0>swapper/0\n"
		"4000 repl x-0 2000 14000\n"
		"4000 0 swapper/0>x-0\n"
		"5000 0 x-0>swapper/0\n";

	(void)state;
	run_expect(wl, "v4", at_deadline);
	run_expect(wl, "mainline:4.10", at_deadline);
	run_expect(wl, "mainline:6.1",
		   "0 0 swapper/0>x-0\n"
		   "2000 throttle x-0 0 4000\n"
		   "2000 0 x-0>swapper/0\n"
		   "10000 repl x-0 2000 14000\n"
		   "10000 0 swapper/0>x-0\n"
		   "11000 0 x-0>swapper/0\n");
	wlb_free(wl);
}

/*
 * Admission with the fair servers (6.12): 4 tasks of 0.46 on 2 CPUs, 1.84
 * in all.  6.1 has no fair server: 2 * 0.95 = 1.9 admits them; 6.12 and
 * later (and v4, documented as this machine's admission) keep 0.05 per CPU
 * for the fair server: 1.8, the fourth is refused.
 */
static void test_admission_fair_server(void **state)
{
	struct workload *wl = wlb_new(10 * MS);
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		char name[8];

		snprintf(name, sizeof(name), "t%d", i);
		wlb_periodic(wl, name, 4600 * US, 10 * MS, 10 * MS, 1 * MS);
	}
	wlb_opts(&o, 2);
	assert_int_equal(dlb_sim_opts_model(&o, "mainline:6.1"), 0);
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	dlb_sim_free(sim);
	assert_int_equal(dlb_sim_opts_model(&o, "mainline:6.11"), 0);
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	dlb_sim_free(sim);
	assert_int_equal(dlb_sim_opts_model(&o, "mainline:6.12"), 0);
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_string_equal(err.msg, "sched_setattr: EBUSY: t3-3: bandwidth 0.4600 would bring the "
			    "-deadline total to 1.8400 of 2 CPUs, over the admitted 1.8000 "
			    "(0.9000 per CPU)");
	assert_int_equal(dlb_sim_opts_model(&o, "mainline"), 0);
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_int_equal(dlb_sim_opts_model(&o, "v4"), 0);
	assert_null(dlb_sim_create(wl, &o, &err));
	wlb_free(wl);
}

/*
 * The fair server (6.12, dl_server_start/timer/update_curr_dl_se): a FIFO
 * hog r and a fair task f, both busy for 3 s on 1 CPU, f starting 1 ms
 * after r (instants in ms).  f's arrival starts the deferred server:
 * sched_init_dl_servers() gave it deadline 1000 and 50 ms at 0; at 1 the
 * wake-up rule finds 50 / 999 > 50 / 1000 (overflow): a new period,
 * deadline 1001, and, deferred, it waits throttled for zero laxity at
 * 1001 - 50 = 951.  Nothing fair ran meanwhile, so at 951 the fair class
 * is starving: dl_defer_running, and the replenishment finds 50 / 50 >
 * 50 / 1000 (u > U): a new period, deadline 1951, 50 ms.  It preempts r
 * (any -deadline entity beats FIFO) and f runs 951-1001 on its budget;
 * throttled at 1001, the timer at the next period 1951 replenishes it
 * (deadline 2951, not deferred again: dl_defer_running) and f runs
 * 1951-2001, then 2951-3000.  v4 and 6.11 have no server: f never runs.
 */
static struct workload *rt_hog_and_fair(void)
{
	struct workload *wl = wlb_new(3000 * MS);
	int r = wlb_task(wl, "r", WL_POLICY_FIFO, 0, 0, 0);
	int f = wlb_task(wl, "f", WL_POLICY_OTHER, 0, 0, 0);

	wl->tasks[r].priority = 50;
	wlb_ev(wl, r, WL_EV_RUN, 3000 * MS, -1);
	wl->tasks[f].delay_ns = 1 * MS;
	wlb_ev(wl, f, WL_EV_RUN, 3000 * MS, -1);
	return wl;
}

static void test_fair_server_rt_hog(void **state)
{
	struct workload *wl = rt_hog_and_fair();
	const char *starved = "0 0 swapper/0>r-0\n";

	(void)state;
	run_expect(wl, "v4", starved);
	run_expect(wl, "mainline:6.11", starved);
	run_expect(wl, "mainline:6.12",
		   "0 0 swapper/0>r-0\n"
		   "951000 0 r-0>f-1\n"
		   "1001000 0 f-1>r-0\n"
		   "1951000 0 r-0>f-1\n"
		   "2001000 0 f-1>r-0\n"
		   "2951000 0 r-0>f-1\n");
	wlb_free(wl);
}

/*
 * A fair task f that runs 1 ms, sleeps @sleep_ms, then is busy to the end,
 * and a FIFO hog r that arrives at @hog_ms and is busy to the end, on 1 CPU
 * (the fair server's lazy stop and its idle time, below).
 */
static struct workload *fair_sleeper_and_rt_hog(u64 sleep_ms, u64 hog_ms, u64 end_ms)
{
	struct workload *wl = wlb_new(end_ms * MS);
	int f = wlb_task(wl, "f", WL_POLICY_OTHER, 0, 0, 0);
	int r = wlb_task(wl, "r", WL_POLICY_FIFO, 0, 0, 0);

	wlb_ev(wl, f, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, f, WL_EV_SLEEP, sleep_ms * MS, -1);
	wlb_ev(wl, f, WL_EV_RUN, end_ms * MS, -1);
	wl->tasks[r].priority = 50;
	wl->tasks[r].delay_ns = hog_ms * MS;
	wlb_ev(wl, r, WL_EV_RUN, end_ms * MS, -1);
	return wl;
}

/* fair_sleeper_and_rt_hog()'s f runs 0-1 ms alone */
#define F_RUNS_0_1	"0 0 swapper/0>f-0\n1000 0 f-0>swapper/0\n"

/*
 * Run @wl under @model: @head, then f served by the fair server while r
 * hogs, 50 ms from @first_ms and from the next period (µs, as run_expect()).
 */
static void expect_served(struct workload *wl, const char *model, const char *head, u64 first_ms)
{
	char want[512];
	size_t len = (size_t)snprintf(want, sizeof(want), "%s", head);
	u64 t;

	for (t = first_ms * 1000; t < (first_ms + 2000) * 1000 && len < sizeof(want);
	     t += 1000 * 1000)
		len += (size_t)snprintf(want + len, sizeof(want) - len,
					"%llu 0 r-1>f-0\n%llu 0 f-0>r-1\n",
					(unsigned long long)t, (unsigned long long)(t + 50000));
	run_expect(wl, model, want);
}

/*
 * The lazy stop (6.17, cccb45d7c429 "sched/deadline: Less agressive
 * dl_server handling", with a3a70caf7906 "sched/deadline: Fix dl_server
 * behaviour").  f runs 0-1 and sleeps until 100; r hogs from 2 (ms).  At
 * 0 f starts the server: deadline 1000 (sched_init_dl_servers() at 0),
 * 50 / 1000 is no overflow, so it keeps it, deferred, timer at 1000 - 50
 * = 950.  f's 0-1 in the background leaves 49 ms; the idle 1-2 is charged
 * at r's arrival (put_prev_task_idle()): 48 ms.
 * 6.17+: f's sleep does not stop the server; at 100 dl_server_start()
 * finds it active.  At 950 the timer sees 950 < 1000 - 48 - 1 (min_res)
 * and pushes itself to 952; at 952 the fair class starved: the
 * replenishment (48 / 48 > 50 / 1000) gives deadline 1952, 50 ms, and f
 * runs 952-1002, then at its next period 1952-2002.
 * 6.12-6.16: f's sleep at 1 stops the server (dequeue_task_fair()); the
 * idle at 1-2 still lowers its runtime to 48.  At 100 the start's wake-up
 * rule finds 48 / (1000 - 100) > 50 / 1000: a new period, deadline 1100,
 * zero laxity at 1050: f runs 1050-1100, then 2050-2100.
 */
static void test_fair_server_lazy_stop(void **state)
{
	struct workload *wl = fair_sleeper_and_rt_hog(99, 2, 2200);
	const char *head = F_RUNS_0_1 "2000 0 swapper/0>r-1\n";

	(void)state;
	expect_served(wl, "mainline:6.12", head, 1050);
	expect_served(wl, "mainline:6.16", head, 1050);
	expect_served(wl, "mainline:6.17", head, 952);
	expect_served(wl, "mainline", head, 952);
	wlb_free(wl);
}

/*
 * Idle time charged to the fair server (6.12, a110a81c52a9
 * "sched/deadline: Deferrable dl server": dl_server_update_idle_time(),
 * from put_prev_task_idle() and enqueue_task_fair()).  f runs 0-1, sleeps
 * until 10, then runs in the background until r hogs from 30 (ms).  The
 * server starts at 0 (deadline 1000, 50 ms, timer at 950); 0-1 leaves
 * 49 ms.  At 10 f's enqueue on an empty rq charges the idle 1-10: 40 ms
 * (6.12-6.16: to the stopped server, whose wake-up rule then finds 40 /
 * 990 no overflow and keeps deadline 1000; 6.17+: the server never
 * stopped).  f's 10-30 leaves 20 ms.  At the zero-laxity timer (950 or
 * 960) 1000 - 20 - 1 is still ahead: pushed to 980, where the fair class
 * starved: deadline 1980, 50 ms, f runs 980-1030, then 1980-2030.  Without
 * the idle time (49 - 20 = 29 ms) f would run at 1000 - 29 = 971.
 */
static void test_fair_server_idle_time(void **state)
{
	struct workload *wl = fair_sleeper_and_rt_hog(9, 30, 2100);
	const char *head = F_RUNS_0_1 "10000 0 swapper/0>f-0\n30000 0 f-0>r-1\n";

	(void)state;
	expect_served(wl, "mainline:6.12", head, 980);
	expect_served(wl, "mainline", head, 980);
	run_expect(wl, "mainline:6.11", head);
	wlb_free(wl);
}

/*
 * A server woken with its budget spent (simulator, mainline 6.12+): f
 * repeats {run 1, sleep 29, run 10} ms, a FIFO hog r from 35, on 1 CPU.
 * The server (deadline 1000, 50 ms, timer at 950 from 0): f's 0-1 leaves
 * 49; the idle 1-30 is charged at f's wake-up (20 left: 20 / 970 keeps
 * deadline 1000), f runs 30-35 in the background (15 left); the zero-
 * laxity timer, pushed to 1000 - 15 = 985, finds the fair class starved:
 * deadline 1985, 50 ms, dl_defer_running.  f runs 985-991 (44 left) and
 * sleeps.  From here each wake-up finds no CBS overflow (44 / 965, 33 /
 * 925, 22 / 885, 11 / 845) and the server runs f at once: 1020-1031,
 * 1060-1071, 1100-1111, 1140-1151, which spends the budget exactly.
 * 6.12-6.16 (stopped at each sleep): at 1180 the wake-up's CBS test sees
 * runtime 0 (no overflow) and queues the server unthrottled; f runs until
 * time passes (1 ns here), then the server is throttled until its next
 * period 1985.  6.17+: the server, throttled at 1151 and never stopped,
 * runs f at 1985.  The simulator used to plan the throttle at 1180 itself,
 * where update_curr_dl_se() charges nothing: the same instant for ever.
 */
static void test_fair_server_spent_wakeup(void **state)
{
	struct workload *wl = wlb_new(1990 * MS);
	int f = wlb_task(wl, "f", WL_POLICY_OTHER, 0, 0, 0);
	int r = wlb_task(wl, "r", WL_POLICY_FIFO, 0, 0, 0);
	const char *head =
		"0 0 swapper/0>f-0\n1000 0 f-0>swapper/0\n"
		"30000 0 swapper/0>f-0\n35000 0 f-0>r-1\n"
		"985000 0 r-1>f-0\n991000 0 f-0>r-1\n"
		"1020000 0 r-1>f-0\n1031000 0 f-0>r-1\n"
		"1060000 0 r-1>f-0\n1071000 0 f-0>r-1\n"
		"1100000 0 r-1>f-0\n1111000 0 f-0>r-1\n"
		"1140000 0 r-1>f-0\n1151000 0 f-0>r-1\n";
	char want[1024];

	(void)state;
	wlb_ev(wl, f, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, f, WL_EV_SLEEP, 29 * MS, -1);
	wlb_ev(wl, f, WL_EV_RUN, 10 * MS, -1);
	wl->tasks[r].priority = 50;
	wl->tasks[r].delay_ns = 35 * MS;
	wlb_ev(wl, r, WL_EV_RUN, 2000 * MS, -1);
	snprintf(want, sizeof(want), "%s%s", head,
		 "1180000 0 r-1>f-0\n1180000 0 f-0>r-1\n1985000 0 r-1>f-0\n");
	run_expect(wl, "mainline:6.12", want);
	snprintf(want, sizeof(want), "%s%s", head, "1985000 0 r-1>f-0\n");
	run_expect(wl, "mainline", want);
	wlb_free(wl);
}

/*
 * The fair server against a -deadline hog h (admission off: runtime =
 * period = 10 ms) and a fair f, both from 0, for 10 s (ms below).  The
 * server, deadline 1000 from 0, waits for zero laxity (950), then takes a
 * new period (u > U): deadline 1950.  EDF against h's 10 ms jobs: h's job
 * released at 1940 has deadline 1950 too and queues behind it, so the
 * server runs f 1940-1990.  Throttled at 1990 its next period (1950) is
 * past: start_dl_timer() fails, and the server takes a new period from now
 * (deadline 2990) and waits for it.  At 2990 the replenishment keeps that
 * deadline (not before now) and 50 ms: f runs 2990-3040 at once, and so
 * on every 1050: 8 runs of 50 ms by 10000.  v4 gives f nothing.
 */
static u64 fair_time_beside_dl_hog(const char *model)
{
	struct workload *wl = wlb_new(10000 * MS);
	int h = wlb_task(wl, "h", WL_POLICY_DEADLINE, 10 * MS, 10 * MS, 10 * MS);
	int f = wlb_task(wl, "f", WL_POLICY_OTHER, 0, 0, 0);
	struct dlb_sim_opts o;
	struct dlb_sim_task_stats st;
	struct wlb_log log;
	struct dlb_sim *sim;
	u64 fair;

	wlb_ev(wl, h, WL_EV_RUN, 10000 * MS, -1);
	wlb_ev(wl, f, WL_EV_RUN, 10000 * MS, -1);
	wlb_opts(&o, 1);
	o.admission = false;
	assert_int_equal(dlb_sim_opts_model(&o, model), 0);
	sim = wlb_sim(wl, &o, 0, &log);
	assert_int_equal(dlb_sim_task_stats(sim, 1, &st), 0);
	fair = st.sum_exec_runtime;
	free(log.buf);
	dlb_sim_free(sim);
	wlb_free(wl);
	return fair;
}

static void test_fair_server_dl_hog(void **state)
{
	u64 v4 = fair_time_beside_dl_hog("v4"), ml = fair_time_beside_dl_hog("mainline");

	(void)state;
	assert_int_equal(v4, 0);
	assert_int_equal(ml, 8 * 50 * MS);
}

/*
 * GRUB reclaiming (4.13, SCHED_FLAG_RECLAIM).  One task x, runtime 10 ms,
 * period 100 ms, "dl-flags": ["reclaim"], busy for good, alone on 1 CPU
 * (the fair server, 6.12+, has no fair task to serve: stopped).  Derived
 * from mainline's grub_reclaim(), update_curr_dl() and
 * init_dl_rq_bw_ratio(), with sched_rt_runtime/period 950000/1000000 us,
 * BW_SHIFT 20, RATIO_SHIFT 8:
 *   max_bw = extra_bw = to_ratio(1000000, 950000) = 996147 (Umax = 0.95),
 *   bw_ratio = to_ratio(950000, 1000000) >> 12 = 1103764 >> 12 = 269,
 *   x: dl_bw = to_ratio(100 ms, 10 ms) = 104857; admission's __dl_add()
 *   takes it from extra_bw; 6.12+: so does the fair server's
 *   dl_server_apply_params() (52428), which also adds it to this_bw.
 * 6.18: this_bw = 157285, running_bw = 104857 (x), u_inact = 52428,
 *   extra_bw = 996147 - 52428 - 104857 = 838862;
 *   u_inact + extra_bw = 891290, not above max_bw - dl_bw = 891290, so
 *   u_act = max_bw - u_inact - extra_bw = 104857, scaled by bw_ratio:
 *   (104857 * 269) >> 8 = 110181 (0.1051 of a CPU-second per second).
 *   The 10 ms runtime lasts ceil(10^7 * 2^20 / 110181) = 95168496 ns:
 *   x runs 0-95.168 ms, is throttled, replenished at 100 (next period)
 *   and runs 100-195.168: Umax = 95% of the CPU, the GRUB bound
 *   (1 - (Umax - Uact)) / (1 / Umax) reached when x is the only one.
 * 6.5 (no fair server): u_inact 0, extra_bw 891290: the same 110181.
 * 4.13 to 6.4 (before 6.5's "Fix bandwidth reclaim equation in GRUB"):
 *   u_act_min = 110181; u_inact + extra_bw = 891290 is not above
 *   2^20 - 110181 = 938395, so u_act = 2^20 - 0 - 891290 = 157286:
 *   ceil(10^7 * 2^20 / 157286) = 66666667 ns, throttled at 66.667 ms.
 * v4 and 4.12 (no GRUB), or 6.18 without the flag: 10 ms.
 */
static struct workload *reclaim_hog(bool reclaim)
{
	struct workload *wl = wlb_new(200 * MS);
	int x = wlb_task(wl, "x", WL_POLICY_DEADLINE, 10 * MS, 100 * MS, 100 * MS);

	if (reclaim)
		wl->tasks[x].dl.flags = DL_FLAG_RECLAIM;
	wlb_ev(wl, x, WL_EV_RUN, 1000 * MS, -1);
	return wl;
}

static void expect_grub(struct workload *wl, const char *model, const char *t1,
			const char *t2)
{
	char want[512];

	snprintf(want, sizeof(want),
		 "0 0 swapper/0>x-0\n"
		 "%s throttle x-0 0 100000\n"
		 "%s 0 x-0>swapper/0\n"
		 "100000 repl x-0 10000 200000\n"
		 "100000 0 swapper/0>x-0\n"
		 "%s throttle x-0 0 200000\n"
		 "%s 0 x-0>swapper/0\n", t1, t1, t2, t2);
	run_expect(wl, model, want);
}

static void test_grub_reclaim(void **state)
{
	struct workload *wl = reclaim_hog(true), *plain = reclaim_hog(false);

	(void)state;
	expect_grub(wl, "v4", "10000", "110000");
	expect_grub(wl, "mainline:4.12", "10000", "110000");
	expect_grub(wl, "mainline:4.13", "66666", "166666");
	expect_grub(wl, "mainline:6.4", "66666", "166666");
	expect_grub(wl, "mainline:6.5", "95168", "195168");
	expect_grub(wl, "mainline", "95168", "195168");
	expect_grub(plain, "mainline", "10000", "110000");
	wlb_free(wl);
	wlb_free(plain);
}

/*
 * dl_task_timer() of a sleeper (4.2): x (2/10/10 ms, implicit) runs 2 ms,
 * its work and runtime ending together at 2, and sleeps until 11: it is
 * throttled as it blocks (update_curr_dl() from dequeue_task_dl()), so at
 * its timer (10, next period) it is throttled and not queued.  Mainline
 * replenishes it there (deadline 10 + 10 = 20, runtime 2; "10000 repl");
 * at 11, 2 / (20 - 11) > 2 / 10 overflows: new deadline 21.  v4 and 4.1
 * only clear dl_throttled: no replenishment at 10, the wake-up rule gives
 * deadline 21 at 11.
 */
static void test_replenish_sleeper(void **state)
{
	struct workload *wl = wlb_new(15 * MS);
	int x = wlb_task(wl, "x", WL_POLICY_DEADLINE, 2 * MS, 10 * MS, 10 * MS);
	const char *v4 =
		"0 0 swapper/0>x-0\n"
		"2000 throttle x-0 0 10000\n"
		"2000 0 x-0>swapper/0\n"
		"11000 0 swapper/0>x-0\n"
		"13000 throttle x-0 0 21000\n"
		"13000 0 x-0>swapper/0\n";
	const char *ml =
		"0 0 swapper/0>x-0\n"
		"2000 throttle x-0 0 10000\n"
		"2000 0 x-0>swapper/0\n"
		"10000 repl x-0 2000 20000\n"
		"11000 0 swapper/0>x-0\n"
		"13000 throttle x-0 0 21000\n"
		"13000 0 x-0>swapper/0\n";

	(void)state;
	wlb_ev(wl, x, WL_EV_RUN, 2 * MS, -1);
	wlb_ev(wl, x, WL_EV_SLEEP, 9 * MS, -1);
	run_expect(wl, "v4", v4);
	run_expect(wl, "mainline:4.1", v4);
	run_expect(wl, "mainline:4.2", ml);
	run_expect(wl, "mainline", ml);
	wlb_free(wl);
}

/*
 * rt_mutex_setprio()'s boost of a -deadline owner (5.8, 740797ce3a12,
 * "sched/core: Fix PI boosting between RT and DEADLINE tasks"), on
 * wlpi_rt_waiter(): o, throttled at 1 until 10, holds m; FIFO r blocks on
 * m at 2.  From 5.8 (and v4, fixed) only a top waiter at -deadline
 * priority boosts: WLPI_RT_WAITER_NO_BOOST, r runs 21-22.  3.14 to 5.7:
 * "pi_task && dl_entity_preempt(&pi_task->dl, &p->dl)" takes r's unused
 * deadline 0 as earlier: o is boosted and enqueued with ENQUEUE_REPLENISH
 * on its own parameters (r is not -deadline: enqueue_task_dl() keeps pi_se
 * = &p->dl), runtime 0 + 1 ms, deadline 10 + 10 = 20; it runs at 2 and,
 * boosted, is replenished at once when its runtime ends at 3
 * (update_curr_dl(): "dl_boosted || !start_dl_timer()"): it runs 2-4, 2 ms
 * over its reservation, unlocks at 4 and r runs 4-5.
 */
static void test_pi_rt_waiter(void **state)
{
	struct workload *wl = wlpi_rt_waiter();
	const char *boost =
		"0 0 swapper/0>o-0\n"
		"1000 0 o-0>swapper/0\n"
		"2000 0 swapper/0>r-1\n"
		"2000 0 r-1>o-0\n"
		"4000 0 o-0>r-1\n"
		"5000 0 r-1>swapper/0\n";

	(void)state;
	sched_expect(wl, "v4", WLPI_RT_WAITER_NO_BOOST);
	sched_expect(wl, "mainline:3.14", boost);
	sched_expect(wl, "mainline:5.7", boost);
	sched_expect(wl, "mainline:5.8", WLPI_RT_WAITER_NO_BOOST);
	sched_expect(wl, "mainline", WLPI_RT_WAITER_NO_BOOST);
	wlb_free(wl);
}

/*
 * A fair owner boosted through a chain (wlpi.h: wlpi_chain()): every model
 * gives a c's parameters, those of the -deadline entity at the chain's end
 * (5.10 hands it down as dl_se->pi_se, 2279f540ea7d; 3.14 to 5.9 hit a
 * BUG_ON in enqueue_task_dl() here, which we do not model), on either
 * side of 5.8's boost rule, and every invariant holds after every step.
 */
static void test_pi_chain_fair_owner(void **state)
{
	static const char *const models[] = {
		"v4", "mainline:5.7", "mainline:5.8", "mainline:5.10", "mainline"
	};
	struct workload *wl = wlpi_chain();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		sched_expect(wl, models[i], WLPI_CHAIN_SCHED);
	wlb_free(wl);
}

/*
 * The pi_se chain (5.10, 2279f540ea7d, "sched/deadline: Fix priority
 * inheritance with multiple scheduling classes"), on wlpi_dl_chain(): c
 * (2/10) blocks at 2 on l2, held by b (3/15), blocked at 1 on l1, held by
 * a (4/20).  Both sides decide the boost in rt_mutex_setprio() on a's
 * direct top waiter b (dl_prio(b->prio), b's deadline 16 before a's 20)
 * and a keeps its deadline 20 and runtime while it has some
 * (replenish_dl_entity() with runtime > 0).  At 4 a's runtime ends; it is
 * boosted, so update_curr_dl() enqueues it with ENQUEUE_REPLENISH:
 *   5.9: enqueue_task_dl() takes pi_se = &b->dl (the top waiter, at
 *        -deadline by normal_prio): runtime 0 + 3, deadline 20 + 15 = 35;
 *   5.10: pi_of(&a->dl) = b's pi_se = &c->dl: runtime 0 + 2, deadline
 *        20 + 10 = 30.
 * a unlocks l1 at 5 with 2 ms left (5.9) or 1 ms (5.10), de-boosted with
 * those.  b wakes with l1, boosted by c: update_dl_entity() on c's
 * parameters overflows (3 * 10 > (16 - 5) * 2), deadline 15, runtime 2;
 * it preempts a, runs 5-6, unlocks l1 and l2 and sleeps; c wakes with
 * l2 (overflow: deadline 16), runs 6-7 and sleeps; a runs from 7 until
 * its runtime ends, is throttled until its next period (5.9 35, 5.10
 * 30, dl_next_period()), and finishes its last 4 ms of work there.
 */
#define PI_DL_CHAIN_HEAD			\
	"0 0 swapper/0>a-0\n"			\
	"1000 0 a-0>b-1\n"			\
	"1000 0 b-1>a-0\n"			\
	"2000 0 a-0>c-2\n"			\
	"2000 0 c-2>a-0\n"			\
	"5000 0 a-0>b-1\n"			\
	"6000 0 b-1>c-2\n"			\
	"7000 0 c-2>a-0\n"

#define PI_DL_CHAIN_DIRECT PI_DL_CHAIN_HEAD	\
	"9000 0 a-0>swapper/0\n"		\
	"35000 0 swapper/0>a-0\n"		\
	"37000 0 a-0>swapper/0\n"
#define PI_DL_CHAIN_END PI_DL_CHAIN_HEAD	\
	"8000 0 a-0>swapper/0\n"		\
	"30000 0 swapper/0>a-0\n"		\
	"33000 0 a-0>swapper/0\n"

static void test_pi_dl_chain(void **state)
{
	static const char *const runs[][2] = {
		{ "v4", PI_DL_CHAIN_DIRECT },
		{ "mainline:5.8", PI_DL_CHAIN_DIRECT },
		{ "mainline:5.9", PI_DL_CHAIN_DIRECT },
		{ "mainline:5.10", PI_DL_CHAIN_END },
		{ "mainline", PI_DL_CHAIN_END },
	};

	(void)state;
	sched_expect_runs(wlpi_dl_chain(), runs, sizeof(runs) / sizeof(runs[0]));
}

/*
 * 5.10's boost decision on the direct top waiter, on
 * wlpi_dl_owner_fair_waiter() (times in ms).  At 2 c blocks on l2 and
 * boosts b (asleep on l1, not enqueued: its dl.deadline stays 0), and the
 * chain reaches a, asleep: rt_mutex_setprio(a, b) tests
 * dl_prio(b->prio) && dl_entity_preempt(&b->dl, &a->dl), 0 before 10:
 * a is boosted, a->dl.pi_se = b->dl.pi_se = &c->dl.  At 3 a wakes
 * (enqueue_task_dl(), update_dl_entity() on pi_of(): 20 * 1 > (10 - 3) *
 * 1 overflows): deadline 23, runtime 1.  Boosted, it is replenished on
 * c's parameters at 4 (deadline 43) and 5 (63) instead of throttled
 * (update_curr_dl()), ends its work at 5.5 and unlocks; b wakes boosted
 * (deadline 5.5 + 20, runtime 1), runs its 0.5 ms, hands l2 to c and
 * sleeps (the simulator's events take no time); c runs 6-6.5.
 * The model before 5.10 (and v4) compares with the -deadline task at the
 * end of the chain (pi_dl_top_task(), the seed fix; not 5.9's rule, which
 * boosts a on its own parameters): c's 22 is after a's 10, no boost; a
 * is throttled at 4 until 10, runs 10-11.5 and unlocks.
 */
#define PI_DL_OWNER_HEAD			\
	"0 0 swapper/0>a-0\n"			\
	"1000 0 a-0>b-1\n"			\
	"1000 0 b-1>swapper/0\n"		\
	"2000 0 swapper/0>c-2\n"		\
	"2000 0 c-2>swapper/0\n"		\
	"3000 0 swapper/0>a-0\n"
#define PI_DL_OWNER_DIRECT PI_DL_OWNER_HEAD	\
	"5500 0 a-0>b-1\n"			\
	"6000 0 b-1>c-2\n"			\
	"6500 0 c-2>swapper/0\n"
#define PI_DL_OWNER_CHAIN_END PI_DL_OWNER_HEAD	\
	"4000 0 a-0>swapper/0\n"		\
	"10000 0 swapper/0>a-0\n"		\
	"11500 0 a-0>b-1\n"			\
	"12000 0 b-1>c-2\n"			\
	"12500 0 c-2>swapper/0\n"

static void test_pi_dl_owner_fair_waiter(void **state)
{
	static const char *const runs[][2] = {
		{ "v4", PI_DL_OWNER_CHAIN_END },
		{ "mainline:5.9", PI_DL_OWNER_CHAIN_END },
		{ "mainline:5.10", PI_DL_OWNER_DIRECT },
		{ "mainline", PI_DL_OWNER_DIRECT },
	};

	(void)state;
	sched_expect_runs(wlpi_dl_owner_fair_waiter(), runs, sizeof(runs) / sizeof(runs[0]));
}

/* The model names: what is accepted, and that a bad one changes nothing. */
static void test_model_parse(void **state)
{
	static const char *const bad[] = {
		"", "v5", "mainline:", "mainline:6", "mainline:6.1x", "mainline:3.13",
		"mainline:6.19", "mainline:-1.2", "mainline:6.1.2", "Mainline", "mainline:6.",
	};
	struct dl_model m;
	struct dlb_sim_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(dl_model_parse(bad[i], &m), -1);
		wlb_opts(&o, 1);
		assert_int_equal(dlb_sim_opts_model(&o, bad[i]), -1);
		assert_string_equal(o.model, "v4");
	}
	assert_int_equal(dl_model_parse("mainline", &m), 0);
	assert_string_equal(m.name, "mainline:6.18");
	assert_int_equal(dl_model_parse("mainline:3.14", &m), 0);
	assert_null(m.check_constrained_dl);
	assert_int_equal(m.fair_server_bw, 0);
	assert_int_equal(dl_model_parse("mainline:6.12", &m), 0);
	assert_non_null(m.check_constrained_dl);
	/* 50 ms every 1 s: half of this machine's idle dl_bw->total_bw, 104856 on 2 CPUs */
	assert_int_equal(m.fair_server_bw, 52428);
	assert_int_equal(dl_model_parse("v4", &m), 0);
	assert_string_equal(m.name, "v4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constrained_throttle),
		cmocka_unit_test(test_revised_wakeup),
		cmocka_unit_test(test_timer_next_period),
		cmocka_unit_test(test_admission_fair_server),
		cmocka_unit_test(test_fair_server_rt_hog),
		cmocka_unit_test(test_fair_server_dl_hog),
		cmocka_unit_test(test_fair_server_lazy_stop),
		cmocka_unit_test(test_fair_server_idle_time),
		cmocka_unit_test(test_fair_server_spent_wakeup),
		cmocka_unit_test(test_grub_reclaim),
		cmocka_unit_test(test_replenish_sleeper),
		cmocka_unit_test(test_pi_rt_waiter),
		cmocka_unit_test(test_pi_chain_fair_owner),
		cmocka_unit_test(test_pi_dl_chain),
		cmocka_unit_test(test_pi_dl_owner_fair_waiter),
		cmocka_unit_test(test_model_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
