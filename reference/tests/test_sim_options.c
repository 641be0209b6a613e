// SPDX-License-Identifier: GPL-2.0
/*
 * Simulator options and the rest of the model: tick accounting (overruns
 * the seed's rorun schedstats record), context-switch and migration
 * overheads, yield, the lower classes, determinism (same input, same
 * bytes), bad options.
 */
#include "dlb_test.h"

#include <stdarg.h>

#include "dlbench/exitcode.h"

#include "wlbuild.h"

/*
 * Tick accounting (4 ms ticks): the 2 ms budget is only checked at the
 * tick, so the task overruns by 2 ms; the seed's schedstats record it
 * (rorun 2 ms) and the CBS pays it back: the replenishment at 10 leaves
 * runtime 0, so the deadline moves twice (to 30) for 2 ms of runtime; the
 * next tick, 12, finds exactly that budget used.
 */
static void test_tick_overrun(void **state)
{
	struct workload *wl = wlb_new(25 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	struct dlb_sim_task_stats st;

	(void)state;
	wlb_periodic(wl, "hog", 2 * MS, 10 * MS, 10 * MS, 50 * MS);
	wlb_opts(&o, 1);
	o.tick_ns = 4 * MS;
	sim = wlb_sim(wl, &o, WLB_SWITCH | WLB_DL, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>hog-0\n"
		       "4000 throttle hog-0 -2000 10000\n"
		       "4000 0 hog-0>swapper/0\n"
		       "10000 repl hog-0 2000 30000\n"
		       "10000 0 swapper/0>hog-0\n"
		       "12000 throttle hog-0 0 30000\n"
		       "12000 0 hog-0>swapper/0\n");
	dlb_sim_task_stats(sim, 0, &st);
	assert_int_equal(st.rorun_max, 2 * MS);
	assert_int_equal(st.last_rorun, 0);	/* the second throttle: exactly 0 */
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * The same with the CPU's ticks at 1 + 4k ms (tick_phase: a replay's
 * measured tick grid): the overrun is caught at 5, not 4 (-3 ms); the
 * replenishment at 10 pays it back twice (1 ms left, deadline 30), and the
 * next tick, 13, finds 3 ms used (-2 ms).  A phase not below the tick is
 * refused.
 */
static void test_tick_phase(void **state)
{
	struct workload *wl = wlb_new(25 * MS);
	const u64 phase[1] = { 1 * MS }, bad[1] = { 4 * MS };
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	struct dlb_err err = { 0 };

	(void)state;
	wlb_periodic(wl, "hog", 2 * MS, 10 * MS, 10 * MS, 50 * MS);
	wlb_opts(&o, 1);
	o.tick_ns = 4 * MS;
	o.tick_phase = phase;
	sim = wlb_sim(wl, &o, WLB_SWITCH | WLB_DL, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>hog-0\n"
		       "5000 throttle hog-0 -3000 10000\n"
		       "5000 0 hog-0>swapper/0\n"
		       "10000 repl hog-0 1000 30000\n"
		       "10000 0 swapper/0>hog-0\n"
		       "13000 throttle hog-0 -2000 30000\n"
		       "13000 0 hog-0>swapper/0\n");
	dlb_sim_free(sim);
	o.tick_phase = bad;
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	assert_string_equal(err.msg, "tick phase of CPU 0: 4000000 ns is not below the tick "
			    "(4000000 ns)");
	wlb_free(wl);
}

/*
 * Issue 13, defect 2: a tick is due at every multiple of the tick, whatever
 * else happens at that instant.  One 8 ms "runtime" event and two of 4 ms
 * are the same demand; with a 1 ms budget and 4 ms ticks both throttle at
 * the tick at 4 with -3 ms.  The old simulator re-planned the CPU when the
 * first 4 ms event ended at 4, dropped the pending tick at 4 with the stale
 * plan and planned the next at 8: the split task throttled at 8 with -7 ms.
 */
static char *tick_split_log(int nr_events)
{
	struct workload *wl = wlb_new(25 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int t, r, i;

	t = wlb_task(wl, "x", WL_POLICY_DEADLINE, 1 * MS, 20 * MS, 20 * MS);
	r = wlb_res(wl, "tx", WL_RES_TIMER);
	for (i = 0; i < nr_events; i++)
		wlb_ev(wl, t, WL_EV_RUNTIME, 8 * MS / (u64)nr_events, -1);
	wlb_ev(wl, t, WL_EV_TIMER, 20 * MS, r);
	wlb_opts(&o, 1);
	o.tick_ns = 4 * MS;
	sim = wlb_sim(wl, &o, WLB_DL, &log);
	dlb_sim_free(sim);
	wlb_free(wl);
	return log.buf;
}

static void test_tick_split_work(void **state)
{
	char *one = tick_split_log(1), *two = tick_split_log(2);

	(void)state;
	assert_non_null(strstr(one, "4000 throttle x-0 -3000 20000\n"));
	assert_string_equal(two, one);
	free(one);
	free(two);
}

/*
 * CBS isolation with 4 ms ticks (issue 13, defect 2), 1 CPU: hog (2 ms
 * every 20 ms, deadline 10) runs an 8 ms job as two 4 ms events; victim
 * (4.5 ms, deadline 11, from 1 ms: absolute 12) waits behind hog's earlier
 * deadline.  The tick at 4 throttles hog (-2 ms, an overrun ticks allow),
 * victim runs 4 to 8.5 and meets 12; hog, replenished at 10 (0 + 2 ms, deadline
 * 30), runs until the tick at 12.  With the tick at 4 lost hog ran to 8 and
 * victim ended at 12.5, a miss a reservation must not allow.
 */
static void test_tick_cbs_isolation(void **state)
{
	struct workload *wl = wlb_new(20 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	struct dlb_sim_task_stats st;
	int h, v, r;

	(void)state;
	h = wlb_task(wl, "hog", WL_POLICY_DEADLINE, 2 * MS, 10 * MS, 20 * MS);
	r = wlb_res(wl, "th", WL_RES_TIMER);
	wlb_ev(wl, h, WL_EV_RUN, 4 * MS, -1);
	wlb_ev(wl, h, WL_EV_RUN, 4 * MS, -1);
	wlb_ev(wl, h, WL_EV_TIMER, 20 * MS, r);
	v = wlb_task(wl, "victim", WL_POLICY_DEADLINE, 4500 * US, 11 * MS, 20 * MS);
	wl->tasks[v].delay_ns = 1 * MS;
	r = wlb_res(wl, "tv", WL_RES_TIMER);
	wlb_ev(wl, v, WL_EV_RUN, 4500 * US, -1);
	wlb_ev(wl, v, WL_EV_TIMER, 20 * MS, r);
	wlb_opts(&o, 1);
	o.tick_ns = 4 * MS;
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>hog-0\n"
		       "4000 0 hog-0>victim-1\n"
		       "8500 0 victim-1>swapper/0\n"
		       "10000 0 swapper/0>hog-0\n"
		       "12000 0 hog-0>swapper/0\n");
	dlb_sim_task_stats(sim, 1, &st);
	assert_int_equal(st.jobs, 1);
	assert_int_equal(st.jobs_missed, 0);
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * Unavailable CPU time (interrupts), t0 = 1 us, 1 CPU, exact accounting:
 * a (2 ms every 10) runs first, b (2 ms, deadline 12) after it.  The CPU
 * is taken by interrupts 1 to 1.5 ms (a makes no progress: it ends at
 * 2.5) and 3 to 3.2 (b ends at 4.7); the stop class runs 6 to 7 on the
 * idle CPU (test_unavail_stop: in a job).  The interrupts are charged
 * to what runs, as without IRQ time accounting: with a runtime of 2.2 ms,
 * a is throttled at 2.2 ms, 0.3 ms of its work left, and b runs from there.
 * With IRQ time accounting (@irq_acct) the interrupts are not charged: a
 * (2 ms of work, 2.2 ms of budget) ends at 2.5 ms unthrottled.
 */
static char *unavail_log(u64 a_runtime, bool irq_acct)
{
	static const struct dlb_jt_unavail ua[] = {
		{ 0, 1000 + 1 * MS, 1000 + 1500 * US, DLB_UA_IRQ },
		{ 0, 1000 + 3 * MS, 1000 + 3200 * US, DLB_UA_IRQ },
		{ 0, 1000 + 6 * MS, 1000 + 7 * MS, DLB_UA_STOP },
	};
	struct workload *wl = wlb_new(9 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;

	wlb_periodic(wl, "a", a_runtime, 10 * MS, 10 * MS, 2 * MS);
	wlb_periodic(wl, "b", 3 * MS, 12 * MS, 20 * MS, 2 * MS);
	wlb_opts(&o, 1);
	o.unavail = ua;
	o.nr_unavail = sizeof(ua) / sizeof(ua[0]);
	o.unavail_t0 = 1000;
	o.irq_time_accounting = irq_acct;
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	dlb_sim_free(sim);
	wlb_free(wl);
	return log.buf;
}

static void test_unavail(void **state)
{
	char *log;

	(void)state;
	log = unavail_log(3 * MS, false);
	assert_string_equal(log, "0 0 swapper/0>a-0\n"
			    "2500 0 a-0>b-1\n"
			    "4700 0 b-1>swapper/0\n"
			    "6000 0 swapper/0>migration/0\n"
			    "7000 0 migration/0>swapper/0\n");
	free(log);
	log = unavail_log(2200 * US, false);
	assert_string_equal(log, "0 0 swapper/0>a-0\n"
			    "2200 0 a-0>b-1\n"
			    "4400 0 b-1>swapper/0\n"
			    "6000 0 swapper/0>migration/0\n"
			    "7000 0 migration/0>swapper/0\n");
	free(log);
	/* CONFIG_IRQ_TIME_ACCOUNTING: the same budget lasts past the interrupt */
	log = unavail_log(2200 * US, true);
	assert_string_equal(log, "0 0 swapper/0>a-0\n"
			    "2500 0 a-0>b-1\n"
			    "4700 0 b-1>swapper/0\n"
			    "6000 0 swapper/0>migration/0\n"
			    "7000 0 migration/0>swapper/0\n");
	free(log);
}

/*
 * The stop class (a stop interval, the kernel's migration/N) takes the CPU
 * as a task of the highest class: the -deadline task it preempts is
 * switched out and put back (put_prev_task_dl(): charged up to the switch),
 * and is not charged the interval.  @ua (t0 = 0) on @cpus CPUs, the
 * workload built by @build; returns the log of @mask and a-0's stats.
 */
static char *stop_log(int cpus, const struct dlb_jt_unavail *ua, size_t n,
		      void (*build)(struct workload *), unsigned int mask,
		      struct dlb_sim_task_stats *st)
{
	struct workload *wl = wlb_new(9 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;

	build(wl);
	wlb_opts(&o, cpus);
	o.unavail = ua;
	o.nr_unavail = n;
	sim = wlb_sim(wl, &o, mask, &log);
	dlb_sim_task_stats(sim, 0, st);
	dlb_sim_free(sim);
	wlb_free(wl);
	return log.buf;
}

/* a: 2 ms of work every 10 ms, budget 2.2 ms */
static void build_a(struct workload *wl)
{
	wlb_periodic(wl, "a", 2200 * US, 10 * MS, 10 * MS, 2 * MS);
}

/*
 * The stop class 1 to 1.5 ms in a's job, on 1 CPU and on 2 with CPU 1
 * idle: a is switched out for it, ends 0.5 ms later (2.5 ms), and is
 * charged its 2 ms of work only: its 2.2 ms budget is not exhausted (0.2
 * ms left), where an interval charged as interrupts throttles it at 2.2
 * ms.  On 2 CPUs it stays queued on CPU 0 and runs there again at 1.5 ms.
 * Nothing pulls it: an idle CPU does not schedule, and pull_dl_task()
 * skips a CPU with one -deadline task ("if (src_rq->dl.dl_nr_running <=
 * 1) goto skip", the seed's and mainline's); nor is it pushed, as no
 * -deadline task is picked on CPU 0 meanwhile (pick_next_task_dl() asks
 * for post_schedule's push; mainline's set_next_task_dl(),
 * deadline_queue_push_tasks()).
 */
static void test_unavail_stop(void **state)
{
	static const struct dlb_jt_unavail ua[] = { { 0, 1 * MS, 1500 * US, DLB_UA_STOP } };
	struct dlb_sim_task_stats st;
	char *log;
	int cpus;

	(void)state;
	for (cpus = 1; cpus <= 2; cpus++) {
		log = stop_log(cpus, ua, 1, build_a, WLB_SCHED | WLB_DL, &st);
		assert_string_equal(log, "0 0 swapper/0>a-0\n"
				    "1000 0 a-0>migration/0\n"
				    "1500 0 migration/0>a-0\n"
				    "2500 0 a-0>swapper/0\n");
		free(log);
		assert_int_equal(st.sum_exec_runtime, 2 * MS);
		assert_int_equal(st.dl_runtime_left, 200 * US);
		assert_int_equal(st.nr_throttled, 0);
		assert_int_equal(st.nr_migrations, 0);
		assert_int_equal(st.jobs_missed, 0);
	}
}

/*
 * a as above on CPU 0; an idle task i of its own keeps thread 1 (CPU 1's)
 * out of the way; b (2 ms, deadline 20), thread 2, whose last CPU is 0,
 * wakes at 1.2 ms while the stop task runs there.  select_task_rq_dl()
 * looks for another CPU only when the current task is -deadline
 * ("dl_task(rq->curr) && ..."), and task_woken_dl() pushes only then: b
 * is queued on CPU 0 behind the stop task although CPU 1 is idle.  At
 * 1.5 ms CPU 0 picks a, the earlier deadline, and post_schedule_dl()
 * pushes b to CPU 1.  With the interval taken as interrupts, a stays the
 * current task and b goes to CPU 1 at its wake-up.
 */
static void build_ab(struct workload *wl)
{
	int t;

	build_a(wl);
	t = wlb_task(wl, "i", WL_POLICY_OTHER, 0, 0, 0);
	wl->tasks[t].delay_ns = 100 * MS;	/* after the run */
	wlb_ev(wl, t, WL_EV_RUN, 1 * MS, -1);
	t = wlb_periodic(wl, "b", 2 * MS, 20 * MS, 20 * MS, 2 * MS);
	wl->tasks[t].delay_ns = 1200 * US;
}

/*
 * A pull while the stop task runs: a (deadline 10) on CPU 0, b (1.2 ms,
 * deadline 8) on CPU 1, c (1 ms, deadline 20) woken on CPU 0 at 0.5 ms,
 * where no CPU runs a later deadline (a 10, b 8): queued behind a.  The
 * stop class takes CPU 0 1 to 1.5 ms; at 1.2 ms b blocks and CPU 1 pulls
 * (pre_schedule_dl(); mainline's balance_dl()) from CPU 0, which holds two
 * -deadline tasks: the seed's pick_next_earliest_dl_task() takes the
 * second earliest, c (it takes the earliest, a, for the running one), and
 * c is not earlier than the source's current (the stop task: deadline 0),
 * so it moves: c runs on CPU 1 at once, a on CPU 0 after the interval.
 * This pull happens the same with the interval taken as interrupts (a
 * running): a behaviour kept, not a change.  (Mainline's pull_dl_task()
 * walks the pushable tasks, pick_earliest_pushable_dl_task(), and would
 * take a itself: docs/conformance.md "Limits".)
 */
static void build_pull(struct workload *wl)
{
	int t;

	wlb_periodic(wl, "a", 3 * MS, 10 * MS, 10 * MS, 2 * MS);
	wlb_periodic(wl, "b", 2 * MS, 8 * MS, 10 * MS, 1200 * US);
	t = wlb_periodic(wl, "c", 2 * MS, 20 * MS, 20 * MS, 1 * MS);
	wl->tasks[t].delay_ns = 500 * US;
}

/* The two above: each run's log, and a's CPU time (2 ms: not charged the interval). */
static void test_unavail_stop_smp(void **state)
{
	static const struct dlb_jt_unavail ua[] = { { 0, 1 * MS, 1500 * US, DLB_UA_STOP } };
	static const struct {
		void (*build)(struct workload *);
		unsigned int mask;
		const char *want;
	} cases[] = {
		{ build_ab, WLB_SCHED | (1u << DLB_EV_WAKEUP),
		  "0 wake a-0@0\n"
		  "0 0 swapper/0>a-0\n"
		  "1000 wake migration/0@0\n"
		  "1000 0 a-0>migration/0\n"
		  "1200 wake b-2@0\n"
		  "1500 0 migration/0>a-0\n"
		  "1500 mig b-2 0>1\n"
		  "1500 1 swapper/1>b-2\n"
		  "2500 0 a-0>swapper/0\n"
		  "3500 1 b-2>swapper/1\n" },
		{ build_pull, WLB_SCHED,
		  "0 0 swapper/0>a-0\n"
		  "0 1 swapper/1>b-1\n"
		  "1000 0 a-0>migration/0\n"
		  "1200 mig c-2 0>1\n"
		  "1200 1 b-1>c-2\n"
		  "1500 0 migration/0>a-0\n"
		  "2200 1 c-2>swapper/1\n"
		  "2500 0 a-0>swapper/0\n" },
	};
	struct dlb_sim_task_stats st;
	char *log;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		log = stop_log(2, ua, 1, cases[i].build, cases[i].mask, &st);
		assert_string_equal(log, cases[i].want);
		free(log);
		assert_int_equal(st.sum_exec_runtime, 2 * MS);
	}
}

static u64 first_end;

static int on_job(const struct dlb_sim_job *j, void *arg)
{
	(void)arg;
	if (!first_end)
		first_end = j->end;
	return 0;
}

/* A context switch costs 100 µs of the task's time: the 1 ms job ends at 1.1 ms. */
static void test_ctx_switch_overhead(void **state)
{
	struct workload *wl = wlb_new(5 * MS);
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;

	(void)state;
	wlb_periodic(wl, "a", 2 * MS, 10 * MS, 10 * MS, 1 * MS);
	wlb_opts(&o, 1);
	o.ctx_switch_ns = 100 * US;
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	first_end = 0;
	dlb_sim_set_job_hook(sim, on_job, NULL);
	assert_int_equal(dlb_sim_run(sim, &err), 0);
	assert_int_equal(first_end, 1100 * US);
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * Yield (yield_task_dl): the rest of this instance's runtime is given up;
 * the task sleeps until its deadline and starts a new instance (dl_new).
 * As in the seed (and mainline 3.14), yield_task_dl() zeroes the runtime
 * before update_curr_dl() charges the time run since the last accounting,
 * so the yield shows as runtime -1 ms (a 1 ms "overrun" in dl.stats).
 */
static void test_yield(void **state)
{
	struct workload *wl = wlb_new(15 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int t;

	(void)state;
	t = wlb_task(wl, "y", WL_POLICY_DEADLINE, 5 * MS, 10 * MS, 10 * MS);
	wlb_ev(wl, t, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, t, WL_EV_YIELD, 0, -1);
	wlb_ev(wl, t, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, t, WL_EV_SLEEP, 100 * MS, -1);
	wlb_opts(&o, 1);
	sim = wlb_sim(wl, &o, WLB_SWITCH | WLB_DL, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>y-0\n"
		       "1000 throttle y-0 -1000 10000\n"
		       "1000 0 y-0>swapper/0\n"
		       "10000 0 swapper/0>y-0\n"
		       "11000 0 y-0>swapper/0\n");
	dlb_sim_free(sim);
	wlb_free(wl);
}

/*
 * Lower classes: a FIFO task and a fair task share the CPU with a
 * -deadline task; -deadline preempts FIFO, FIFO runs before fair.
 */
static void test_lower_classes(void **state)
{
	struct workload *wl = wlb_new(12 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int f, n, d;

	(void)state;
	f = wlb_task(wl, "fifo", WL_POLICY_FIFO, 0, 0, 0);
	wl->tasks[f].priority = 10;
	wlb_ev(wl, f, WL_EV_RUN, 4 * MS, -1);
	wlb_ev(wl, f, WL_EV_SLEEP, 100 * MS, -1);
	n = wlb_task(wl, "fair", WL_POLICY_OTHER, 0, 0, 0);
	wlb_ev(wl, n, WL_EV_RUN, 2 * MS, -1);
	wlb_ev(wl, n, WL_EV_SLEEP, 100 * MS, -1);
	d = wlb_periodic(wl, "dl", 1 * MS, 5 * MS, 5 * MS, 1 * MS);
	wl->tasks[d].delay_ns = 1 * MS;
	wlb_opts(&o, 1);
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	wlb_expect_log(&log,
		       "0 0 swapper/0>fifo-0\n"
		       "1000 0 fifo-0>dl-2\n"
		       "2000 0 dl-2>fifo-0\n"
		       "5000 0 fifo-0>fair-1\n"
		       "6000 0 fair-1>dl-2\n"
		       "7000 0 dl-2>fair-1\n"
		       "8000 0 fair-1>swapper/0\n"
		       "11000 0 swapper/0>dl-2\n");
	dlb_sim_free(sim);
	wlb_free(wl);
}

struct textlog {
	char *buf;
	size_t len, cap;
	struct dlb_sim *sim;
};

static int to_text(const struct dlb_event *ev, void *arg)
{
	struct textlog *t = arg;
	char line[DLB_EVENT_TEXT_MAX];
	int n = dlb_event_format(line, sizeof(line), ev, dlb_sim_comm(t->sim, ev->pid));

	assert_true(n > 0);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->cap + (size_t)n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
	}
	memcpy(t->buf + t->len, line, (size_t)n);
	t->len += (size_t)n;
	t->buf[t->len++] = '\n';
	return 0;
}

static struct textlog text_run(struct workload *wl, int cpus)
{
	struct textlog t = { 0 };
	struct dlb_sim_opts o;
	struct dlb_err err;

	wlb_opts(&o, cpus);
	o.timed = true;
	t.sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(t.sim);
	dlb_sim_set_event_hook(t.sim, to_text, &t);
	assert_int_equal(dlb_sim_run(t.sim, &err), 0);
	dlb_sim_free(t.sim);
	return t;
}

/* 12 periodic tasks on 4 CPUs: pushes, pulls and ties enough to show any drift. */
static struct workload *det_workload(void)
{
	struct workload *wl = wlb_new(200 * MS);
	int i;

	for (i = 0; i < 12; i++) {
		char name[8];

		snprintf(name, sizeof(name), "t%d", i);
		wlb_periodic(wl, name, (1 + i % 3) * MS, (7 + i) * MS, (7 + i) * MS,
			     (1 + i % 3) * MS - 100 * US);
	}
	return wl;
}

/* test_deterministic's child process: the trace text on stdout. */
static int deterministic_child(void)
{
	struct workload *wl = det_workload();
	struct textlog t = text_run(wl, 4);
	int rc = fwrite(t.buf, 1, t.len, stdout) == t.len && fflush(stdout) == 0 ? 0 : 1;

	free(t.buf);
	wlb_free(wl);
	return rc;
}

/* Run this test binary as a child with --deterministic-child; its output. */
static struct textlog child_run(void)
{
	struct textlog t = { 0 };
	char exe[4096], cmd[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	size_t r;

	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd), "'%s' --deterministic-child", exe);
	f = popen(cmd, "r");
	assert_non_null(f);
	do {
		if (t.len + 65536 > t.cap) {
			t.cap = (t.cap + 65536) * 2;
			t.buf = realloc(t.buf, t.cap);
			assert_non_null(t.buf);
		}
		r = fread(t.buf + t.len, 1, t.cap - t.len, f);
		t.len += r;
	} while (r);
	assert_int_equal(pclose(f), 0);
	return t;
}

/*
 * Same workload, same options: the same trace text, byte for byte, twice
 * in this process (no state left behind by a run) and once each in two
 * fresh processes (no dependence on addresses, which ASLR moves, on the
 * pid or on anything else of the process).  Push/pull timing is on: the
 * costs must not leak into the schedule.
 */
static void test_deterministic(void **state)
{
	struct workload *wl = det_workload();
	struct textlog a, b, c, d;

	(void)state;
	a = text_run(wl, 4);
	b = text_run(wl, 4);
	c = child_run();
	d = child_run();
	assert_true(a.len > 10000);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	assert_int_equal(c.len, a.len);
	assert_memory_equal(c.buf, a.buf, a.len);
	assert_int_equal(d.len, a.len);
	assert_memory_equal(d.buf, a.buf, a.len);
	free(a.buf);
	free(b.buf);
	free(c.buf);
	free(d.buf);
	wlb_free(wl);
}

static void test_bad_options(void **state)
{
	struct workload *wl = wlb_new(10 * MS);
	struct dlb_sim_opts o;
	struct dlb_err err;

	(void)state;
	wlb_periodic(wl, "a", 1 * MS, 10 * MS, 10 * MS, 1 * MS);
	wlb_opts(&o, 0);
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_int_equal(err.code, DLB_EXIT_BAD_INPUT);
	assert_string_equal(err.msg, "cpus: 0 is not in 1..1024");
	wlb_opts(&o, 1025);
	assert_null(dlb_sim_create(wl, &o, &err));
	wlb_opts(&o, 1);
	o.rt_runtime_us = 2000000;
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_string_equal(err.msg, "admission: rt runtime 2000000 us must be at most the rt "
			    "period 1000000 us (> 0)");
	wlb_opts(&o, 1);
	wl->tasks[0].has_cpus = true;
	dlb_cpumask_set(&wl->tasks[0].cpus, 5);
	assert_null(dlb_sim_create(wl, &o, &err));
	assert_string_equal(err.msg, "task a: sched_setaffinity: EINVAL: a-0: no CPU of the mask "
			    "below 1");
	wlb_free(wl);
}

/* 1024 CPUs work (the upper bound), with invariants. */
static void test_1024_cpus(void **state)
{
	struct workload *wl = wlb_new(20 * MS);
	struct dlb_sim_opts o;
	struct wlb_log log;
	struct dlb_sim *sim;
	int i;

	(void)state;
	for (i = 0; i < 40; i++) {
		char name[8];

		snprintf(name, sizeof(name), "t%d", i);
		wlb_periodic(wl, name, 2 * MS, (5 + i % 7) * MS, (5 + i % 7) * MS, 2 * MS);
	}
	wlb_opts(&o, 1024);
	o.check = false;
	sim = wlb_sim(wl, &o, WLB_SWITCH, &log);
	free(log.buf);
	for (i = 0; i < 40; i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, (size_t)i, &st);
		assert_int_equal(st.jobs_missed, 0);
	}
	dlb_sim_free(sim);
	wlb_free(wl);
}

static void count_op(enum dlb_op op, u64 cost, bool done, void *arg)
{
	u64 *n = arg;

	(void)cost;
	n[op * 2]++;
	n[op * 2 + 1] += done;
}

/* The op hook sees every call the counters count. */
static void test_op_hook(void **state)
{
	struct workload *wl = wlb_new(50 * MS);
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;
	u64 n[DLB_OP_NR * 2] = { 0 };
	int i;

	(void)state;
	for (i = 0; i < 6; i++) {
		char name[8];

		snprintf(name, sizeof(name), "t%d", i);
		wlb_periodic(wl, name, 2 * MS, (5 + i) * MS, (5 + i) * MS, 2 * MS);
	}
	wlb_opts(&o, 2);
	o.timed = true;
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	dlb_sim_set_op_hook(sim, count_op, n);
	assert_int_equal(dlb_sim_run(sim, &err), 0);
	for (i = 0; i < DLB_OP_NR; i++) {
		assert_int_equal(n[i * 2], dlb_sim_opcount(sim, (enum dlb_op)i)->calls);
		assert_int_equal(n[i * 2 + 1], dlb_sim_opcount(sim, (enum dlb_op)i)->done);
	}
	assert_true(n[DLB_OP_SET * 2] > 0 && n[DLB_OP_PUSH * 2] > 0);
	dlb_sim_free(sim);
	wlb_free(wl);
}

static volatile sig_atomic_t stop_now;

static int stop_after_100(const struct dlb_event *ev, void *arg)
{
	struct wlb_log *l = arg;

	if (ev->type == DLB_EV_MARKER) {
		free(l->buf);
		l->buf = strndup(ev->mark.text, ev->mark.len);	/* the last marker */
	}
	if (++l->n == 100)
		stop_now = 1;
	return 0;
}

/* opts.interrupt (a signal handler's flag) ends the run as incomplete. */
static void test_interrupt(void **state)
{
	struct workload *wl = wlb_new(0);
	struct wlb_log log = { 0 };
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;

	(void)state;
	wlb_periodic(wl, "a", 1 * MS, 10 * MS, 10 * MS, 1 * MS);
	wlb_opts(&o, 1);
	o.interrupt = &stop_now;
	stop_now = 0;
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	dlb_sim_set_event_hook(sim, stop_after_100, &log);
	assert_int_equal(dlb_sim_run(sim, &err), -1);
	assert_int_equal(err.code, DLB_EXIT_INCOMPLETE);
	assert_string_equal(log.buf, "dlb_run: event=end status=incomplete");
	assert_true(dlb_sim_now(sim) < 3600 * NSEC_PER_SEC);
	free(log.buf);
	dlb_sim_free(sim);
	wlb_free(wl);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_overrun),
		cmocka_unit_test(test_tick_phase),
		cmocka_unit_test(test_tick_split_work),
		cmocka_unit_test(test_tick_cbs_isolation),
		cmocka_unit_test(test_ctx_switch_overhead),
		cmocka_unit_test(test_unavail),
		cmocka_unit_test(test_unavail_stop),
		cmocka_unit_test(test_unavail_stop_smp),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_lower_classes),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_1024_cpus),
		cmocka_unit_test(test_op_hook),
		cmocka_unit_test(test_interrupt),
	};
	if (argc == 2 && !strcmp(argv[1], "--deterministic-child"))
		return deterministic_child();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
