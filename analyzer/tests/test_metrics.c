// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine on hand-built event sequences with answers worked out
 * by hand (times in µs in the comments and the builders, ns in markers).
 */
#include "dlb_test.h"

#include <string.h>

#include "../conform.h"
#include "../metrics.h"
#include "evbuild.h"

#define R DLB_PRIO_DL
#define MAXJOBS 16

static struct dlb_job jobs[MAXJOBS];
static int nr_jobs;

static void on_job(const struct dlb_job *j, void *arg)
{
	(void)arg;
	if (nr_jobs < MAXJOBS)
		jobs[nr_jobs] = *j;
	nr_jobs++;
}

static struct dlb_metrics *mk(void)
{
	struct dlb_metrics_opts o = { .job_fn = on_job };
	struct dlb_metrics *m = dlb_metrics_create(&o, NULL);

	assert_non_null(m);
	nr_jobs = 0;
	return m;
}

static void feed(struct dlb_metrics *m, struct dlb_event *evs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(dlb_metrics_event(&evs[i], m), 0);
	dlb_metrics_finish(m);
}

static s64 pct(const struct dlb_stat *s, double p)
{
	s64 v = -1;

	assert_int_equal(dlb_stat_pct(s, p, &v), 0);
	return v;
}

/*
 * One CPU.  Job 0 (rel 0, dl 10 ms) is preempted by a non-DL task from 1010
 * to 9010 µs (8 ms of inversion), runs 3 ms in all (1 ms overrun of its
 * 2 ms runtime) and ends at 11010 µs: 1010 µs late.  Job 1 wakes at
 * 20000 (its CBS, replayed: deadline 10 ms passed, so a new one, 30 ms; not
 * the 10 + 10 ms a prediction from the last job would say), waits 5 µs on
 * an idle CPU, runs 1 ms and meets its deadline.
 */
static void test_miss_overrun_inversion(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=a policy=deadline prio=0 "
			"runtime=2000000 deadline=10000000 period=10000000"),
		eb_mark(10, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=10000000"),
		eb_switch(1010, 0, 100, R, 0, 200, 120),
		eb_switch(9010, 0, 200, 120, 1, 100, R),
		eb_mark(11010, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(11010, 0, 100, R, 1, 0, 120),
		eb_wake(20000, 0, 100, R),
		eb_switch(20005, 0, 0, 120, 0, 100, R),
		eb_mark(20010, 0, 100, "dlb_job: tid=100 job=1 event=begin rel=20000000 dl=30000000"),
		eb_mark(21010, 0, 100, "dlb_job: tid=100 job=1 event=end"),
		eb_switch(21020, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;
	const struct dlb_run_metrics *r;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(dlb_metrics_nr_tasks(m), 1);
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->tid, 100);
	assert_string_equal(t->name, "a");
	assert_int_equal(t->jobs, 2);
	assert_int_equal(t->misses, 1);
	assert_int_equal(t->lateness.max, 1010 * US);
	assert_int_equal(t->lateness.min, -(s64)(8990 * US));
	assert_int_equal(pct(&t->response, 50), 1010 * US);
	assert_int_equal(pct(&t->response, 99), 11010 * US);
	assert_int_equal(t->wakeup_lat.max, 10 * US);
	assert_int_equal(t->exec.max, 3000 * US);
	assert_int_equal(t->exec.min, 1000 * US);
	assert_int_equal(t->overruns, 1);
	assert_int_equal(t->overrun_max, 1000 * US);
	assert_int_equal(t->overrun_last, 1000 * US);
	assert_int_equal(t->preemptions, 1);
	assert_int_equal(t->throttles_inferred, 0);
	assert_int_equal(t->inversion_ns, 8005 * US);
	/* the waiting deadline is the replayed CBS's: nothing predicted */
	assert_int_equal(t->dl_predicted, 0);
	assert_int_equal(t->dl_mispredicted, 0);
	assert_int_equal(t->switches_in, 3);
	assert_int_equal(t->cpu_time, (11010 - 0 - 8000 + 1015) * US);
	r = dlb_metrics_run(m);
	assert_int_equal(r->jobs, 2);
	assert_int_equal(r->misses, 1);
	assert_int_equal(r->inversion_ns, 8005 * US);
	assert_int_equal(r->quality[DLB_Q_NO_SCHED_SWITCH].count, 0);
	assert_int_equal(nr_jobs, 2);
	assert_true(jobs[0].miss);
	assert_int_equal(jobs[0].lateness, 1010 * US);
	assert_int_equal(jobs[0].exec, 3000 * US);
	assert_true(jobs[0].overrun);
	assert_int_equal(jobs[0].preemptions, 1);
	assert_false(jobs[1].miss);
	assert_int_equal(jobs[1].wakeup_lat, 10 * US);
	dlb_metrics_free(m);
}

/*
 * Two CPUs.  Job 0 of task 100 is preempted on CPU 0 at 500, migrated to
 * CPU 1 at 600 and runs there at 700: migration delay 100 µs; it waited
 * 200 µs while both CPUs ran non-DL tasks.  Its exec is 490 + 500 = 990 µs;
 * job 1 runs 800 µs unmigrated: inflation 190 µs.
 */
static void test_migration(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_switch(0, 1, 0, 120, 0, 300, 120),
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=m policy=deadline prio=0 "
			"runtime=1000000 deadline=10000000 period=10000000"),
		eb_mark(10, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=10000000"),
		eb_switch(500, 0, 100, R, 0, 200, 120),
		eb_mig(600, 1, 100, 0, 1),
		eb_switch(700, 1, 300, 120, 0, 100, R),
		eb_mark(1200, 1, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(1210, 1, 100, R, 1, 0, 120),
		eb_wake(10000, 1, 100, R),
		eb_switch(10000, 1, 0, 120, 0, 100, R),
		eb_mark(10000, 1, 100, "dlb_job: tid=100 job=1 event=begin rel=10000000 dl=20000000"),
		eb_mark(10800, 1, 100, "dlb_job: tid=100 job=1 event=end"),
		eb_switch(10810, 1, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;
	const struct dlb_cpu_metrics *c0, *c1;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task_by_tid(m, 100);
	assert_non_null(t);
	assert_int_equal(t->migrations, 1);
	assert_int_equal(t->migrated_jobs, 1);
	assert_int_equal(t->mig_delay.count, 1);
	assert_int_equal(t->mig_delay.max, 100 * US);
	assert_int_equal(t->inversion_ns, 200 * US);
	assert_int_equal(dlb_stat_mean(&t->exec_migrated), 990 * US);
	assert_int_equal(dlb_stat_mean(&t->exec_unmigrated), 800 * US);
	assert_int_equal(jobs[0].migrations, 1);
	assert_int_equal(jobs[0].cpu_begin, 0);
	assert_int_equal(jobs[0].cpu_end, 1);
	assert_int_equal(jobs[1].migrations, 0);
	assert_int_equal(t->overruns, 0);
	assert_int_equal(t->dl_predicted, 0);	/* the replayed CBS's deadline */
	assert_int_equal(t->dl_mispredicted, 0);
	assert_int_equal(dlb_metrics_nr_cpus(m), 2);
	c0 = dlb_metrics_cpu(m, 0);
	c1 = dlb_metrics_cpu(m, 1);
	assert_int_equal(c0->dl_ns, 500 * US);
	assert_int_equal(c0->other_ns, 10310 * US);
	assert_int_equal(c0->idle_ns, 0);
	assert_int_equal(c1->other_ns, 700 * US);
	assert_int_equal(c1->dl_ns, 1320 * US);
	assert_int_equal(c1->idle_ns, 8790 * US);
	assert_int_equal(c0->migrations_out, 1);
	assert_int_equal(c1->migrations_in, 1);
	dlb_metrics_free(m);
}

/*
 * Two CPUs running B (dl 20 ms) and C (dl 30 ms).  A (dl 5 ms) is released
 * at 1000 and waits 100 µs while C, a later deadline, runs: inversion.  C,
 * preempted, then waits behind A and B (earlier deadlines): no inversion.
 * Later B wakes (dl 24 ms) while CPU 0 idles and C (30 ms) runs: 50 µs.
 */
static void test_inversion_gedf(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 101, R),
		eb_mark(0, 0, 101, "dlb_job: tid=101 job=0 event=begin rel=0 dl=20000000"),
		eb_switch(0, 1, 0, 120, 0, 102, R),
		eb_mark(0, 1, 102, "dlb_job: tid=102 job=0 event=begin rel=0 dl=30000000"),
		eb_mark(1000, 0, 101, "dlb_job: tid=100 job=0 event=release rel=1000000 dl=5000000"),
		eb_wake(1000, 0, 100, R),
		eb_switch(1100, 1, 102, R, 0, 100, R),
		eb_mark(1100, 1, 100, "dlb_job: tid=100 job=0 event=begin rel=1000000 dl=5000000"),
		eb_mark(2100, 1, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(2100, 1, 100, R, 1, 102, R),
		eb_mark(3000, 0, 101, "dlb_job: tid=101 job=0 event=end"),
		eb_mark(3000, 1, 102, "dlb_job: tid=102 job=0 event=end"),
		eb_switch(3000, 0, 101, R, 1, 0, 120),
		eb_mark(4000, 1, 102, "dlb_job: tid=101 job=1 event=release rel=4000000 dl=24000000"),
		eb_wake(4000, 1, 101, R),
		eb_switch(4050, 0, 0, 120, 0, 101, R),
		eb_mark(4050, 0, 101, "dlb_job: tid=101 job=1 event=begin rel=4000000 dl=24000000"),
		eb_mark(5000, 0, 101, "dlb_job: tid=101 job=1 event=end"),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(dlb_metrics_task_by_tid(m, 100)->inversion_ns, 100 * US);
	assert_int_equal(dlb_metrics_task_by_tid(m, 101)->inversion_ns, 50 * US);
	assert_int_equal(dlb_metrics_task_by_tid(m, 102)->inversion_ns, 0);
	assert_int_equal(dlb_metrics_task_by_tid(m, 102)->preemptions, 1);
	r = dlb_metrics_run(m);
	assert_int_equal(r->inversion_ns, 150 * US);
	assert_int_equal(r->inversion_sum_ns, 150 * US);
	assert_int_equal(r->jobs, 4);
	assert_int_equal(r->misses, 0);
	assert_int_equal(dlb_metrics_task_by_tid(m, 100)->wakeup_lat.max, 100 * US);
	dlb_metrics_free(m);
}

/*
 * A task no longer SCHED_DEADLINE is out of G-EDF's ready set: A's job
 * (dl 5 ms) ends at 2000 and the generator resets it to SCHED_NORMAL as
 * the run ends; the switch-out shows it runnable at prio 120 behind a fair
 * task, both CPUs then run fair tasks until the trace ends at 10000.  Its
 * last deadline is not a claim to a CPU: no inversion (8 ms before).
 */
static void test_inversion_reset(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 1, 0, 120, 0, 201, 120),
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(0, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=5000000"),
		eb_mark(2000, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(2000, 0, 100, 120, 0, 200, 120),
		eb_mark(10000, 1, 201, "dlb_run: event=end status=complete"),
	};
	struct dlb_metrics *m = mk();

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(dlb_metrics_task_by_tid(m, 100)->inversion_ns, 0);
	assert_int_equal(dlb_metrics_run(m)->inversion_ns, 0);
	dlb_metrics_free(m);
}

/*
 * A job uses its 1 ms runtime and is switched out runnable: throttled
 * until the replenishment timer, at deadline - D + P = 10 ms (mainline's
 * dl_next_period; D = 5, P = 10 ms), not inverted meanwhile although the
 * CPU idles; replenished (deadline 15 ms), it waits 200 µs on the idle
 * CPU: that is inversion.
 */
static void test_throttle(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=t policy=deadline prio=0 "
			"runtime=1000000 deadline=5000000 period=10000000"),
		eb_mark(0, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=5000000"),
		eb_switch(1000, 0, 100, R, 0, 0, 120),
		eb_switch(10200, 0, 0, 120, 0, 100, R),
		eb_mark(10300, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(10300, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->throttles_inferred, 1);
	assert_int_equal(t->preemptions, 0);
	assert_int_equal(t->inversion_ns, 200 * US);
	assert_int_equal(t->exec.max, 1100 * US);
	assert_int_equal(t->overrun_max, 100 * US);
	assert_int_equal(t->misses, 1);
	assert_int_equal(t->lateness.max, 5300 * US);
	dlb_metrics_free(m);
}

/*
 * The CBS budget is the kernel's, per period and carried across periods,
 * not the job's; and it is what the kernel charged (sched_stat_runtime),
 * not the time between switches.  A greedy task (Q 2 ms, D = P = 10 ms)
 * on one CPU, one job: it runs 0..3000 (the kernel notices the exhausted
 * budget at a tick: 1 ms overrun), throttled until 10000 (deadline - D +
 * P), replenished there with 2 - 1 = 1 ms and deadline 20 ms; it runs
 * 10000..10600 but the kernel charges it 1000 µs (from a stale rq clock),
 * so it is throttled again, not preempted, until 20000; then it runs and
 * ends.  The CPU idles meanwhile: no inversion, the task was not ready.
 * (Before: the throttles were guessed from the job's execution time
 * against the job's deadline, the second one was taken for a preemption,
 * and the 9.4 ms until 20000 counted as inversion.)
 */
static void test_throttle_cbs(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=g policy=deadline prio=0 "
			"runtime=2000000 deadline=10000000 period=10000000"),
		eb_wake(0, 0, 100, R),
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(0, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=10000000"),
		eb_runtime(3000, 0, 100, 3000),
		eb_switch(3000, 0, 100, R, 0, 0, 120),
		eb_switch(10000, 0, 0, 120, 0, 100, R),
		eb_runtime(10600, 0, 100, 1000),
		eb_switch(10600, 0, 100, R, 0, 0, 120),
		eb_switch(20000, 0, 0, 120, 0, 100, R),
		eb_runtime(21000, 0, 100, 1000),
		eb_mark(21000, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(21000, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->throttles_inferred, 2);
	assert_int_equal(t->preemptions, 0);
	assert_int_equal(t->inversion_ns, 0);
	assert_int_equal(dlb_metrics_run(m)->inversion_ns, 0);
	assert_int_equal(t->misses, 1);
	assert_int_equal(t->exec.max, 4600 * US);
	dlb_metrics_free(m);
}

/*
 * G-EDF owes a free CPU to the earliest waiting job only.  Two CPUs: CPU 0
 * runs A (dl 10 ms), CPU 1 a fair task; B (dl 12 ms) and C (dl 14 ms) wake
 * at 1000 and wait until 1500: B is inverted (it should have CPU 1), C is
 * not (A and B come first: two jobs for two CPUs).  Then B runs on CPU 1
 * and C waits behind A and B: no inversion.
 */
static void test_inversion_rank(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 101, R),
		eb_mark(0, 0, 101, "dlb_job: tid=101 job=0 event=begin rel=0 dl=10000000"),
		eb_switch(0, 1, 0, 120, 0, 200, 120),
		eb_mark(1000, 0, 101, "dlb_job: tid=102 job=0 event=release rel=1000000 dl=12000000"),
		eb_wake(1000, 0, 102, R),
		eb_mark(1000, 0, 101, "dlb_job: tid=103 job=0 event=release rel=1000000 dl=14000000"),
		eb_wake(1000, 0, 103, R),
		eb_switch(1500, 1, 200, 120, 0, 102, R),
		eb_mark(1500, 1, 102, "dlb_job: tid=102 job=0 event=begin rel=1000000 dl=12000000"),
		eb_mark(2000, 1, 102, "dlb_job: tid=102 job=0 event=end"),
		eb_switch(2000, 1, 102, R, 1, 103, R),
		eb_mark(2000, 1, 103, "dlb_job: tid=103 job=0 event=begin rel=1000000 dl=14000000"),
		eb_mark(2500, 1, 103, "dlb_job: tid=103 job=0 event=end"),
	};
	struct dlb_metrics *m = mk();

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(dlb_metrics_task_by_tid(m, 102)->inversion_ns, 500 * US);
	assert_int_equal(dlb_metrics_task_by_tid(m, 103)->inversion_ns, 0);
	assert_int_equal(dlb_metrics_run(m)->inversion_ns, 500 * US);
	assert_int_equal(dlb_metrics_run(m)->inversion_sum_ns, 500 * US);
	dlb_metrics_free(m);
}

static void test_lost_events(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_lost(5, 0, 7),
		eb_lost(6, 1, 0),
		eb_lost(7, 4096, 1),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	r = dlb_metrics_run(m);
	assert_int_equal(r->quality[DLB_Q_LOST_EVENTS].count, 8);
	assert_string_equal(r->quality[DLB_Q_LOST_EVENTS].detail, "CPU 0 lost events at 5000 ns");
	/* an event on a CPU number no machine has is bad data, not ignored */
	assert_int_equal(r->quality[DLB_Q_BAD_LINES].count, 1);
	assert_string_equal(r->quality[DLB_Q_BAD_LINES].detail,
			    "event at 7000 ns on CPU 4096, not in 0..1023");
	dlb_metrics_free(m);
}

static struct dlb_event named_switch(u64 ts_us, int cpu, int prev, int prev_prio, int next,
				     int next_prio, const char *next_comm)
{
	struct dlb_event e = eb_switch(ts_us, cpu, prev, prev_prio, 0, next, next_prio);

	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", next_comm);
	return e;
}

static void expect_unavail(const struct dlb_metrics *m, int cpu, const struct dlb_unavail *want,
			   size_t nr)
{
	const struct dlb_unavail *ua;
	size_t n, i;

	ua = dlb_metrics_unavail(m, cpu, &n);
	assert_int_equal(n, nr);
	for (i = 0; i < n; i++) {
		assert_int_equal(ua[i].from, want[i].from);
		assert_int_equal(ua[i].to, want[i].to);
		assert_int_equal(ua[i].kind, want[i].kind);
	}
}

/*
 * The time DL tasks could not have had a CPU (metrics_unavail.c), derived
 * by hand: an interrupt and the softirq after it 0.5 µs later are one
 * interval; an exit without its entry is ignored; nesting counts; the stop
 * class (migration/N, prio 0) is unavailable, an RT task of prio 0 is not;
 * lost events close what is open; what is open at the end ends there; an
 * interrupt whose entry and exit have one timestamp (a text trace's µs)
 * took no time and is no interval (the jobs trace refuses an empty one:
 * a guest run's conformance came out not_done for it).
 */
static void test_unavail(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, 120),
		eb_irq(10000, 0, DLB_EV_IRQ_ENTRY), eb_irq(14000, 0, DLB_EV_IRQ_EXIT),
		eb_irq(14500, 0, DLB_EV_SOFTIRQ_ENTRY), eb_irq(20000, 0, DLB_EV_SOFTIRQ_EXIT),
		eb_irq(25000, 0, DLB_EV_IRQ_EXIT),
		eb_irq(30000, 0, DLB_EV_SOFTIRQ_ENTRY), eb_irq(32000, 0, DLB_EV_IRQ_ENTRY),
		eb_irq(34000, 0, DLB_EV_IRQ_EXIT), eb_irq(40000, 0, DLB_EV_SOFTIRQ_EXIT),
		named_switch(50, 0, 100, 120, 18, DLB_PRIO_STOP, "migration/0"),
		eb_irq(52000, 0, DLB_EV_IRQ_ENTRY), eb_irq(53000, 0, DLB_EV_IRQ_EXIT),
		named_switch(56, 0, 18, DLB_PRIO_STOP, 100, 120, "a"),
		eb_irq(60000, 0, DLB_EV_IRQ_ENTRY), eb_lost(61, 0, 1),
		named_switch(70, 0, 100, 120, 300, 0, "fifo"),
		named_switch(75, 0, 300, 0, 100, 120, "a"),
		eb_irq(100000, 1, DLB_EV_IRQ_ENTRY), eb_irq(101500, 1, DLB_EV_IRQ_EXIT),
		eb_irq(102000, 1, DLB_EV_IRQ_ENTRY), eb_irq(103000, 1, DLB_EV_IRQ_EXIT),
		eb_irq(104500, 1, DLB_EV_IRQ_ENTRY), eb_irq(105000, 1, DLB_EV_IRQ_EXIT),
		eb_irq(107000, 1, DLB_EV_IRQ_ENTRY), eb_irq(107000, 1, DLB_EV_IRQ_EXIT),
		eb_irq(110000, 0, DLB_EV_IRQ_ENTRY),
		eb_switch(115, 1, 0, 120, 0, 0, 120),
	};
	static const struct dlb_unavail cpu0[] = {
		{ 10000, 20000, DLB_UA_IRQ }, { 30000, 40000, DLB_UA_IRQ },
		{ 50000, 56000, DLB_UA_IRQ | DLB_UA_STOP }, { 60000, 61000, DLB_UA_IRQ },
		{ 110000, 115000, DLB_UA_IRQ },
	}, cpu1[] = {
		{ 100000, 103000, DLB_UA_IRQ }, { 104500, 105000, DLB_UA_IRQ },
	};
	struct dlb_metrics *m = mk();
	size_t n;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(dlb_metrics_run(m)->irq_events, 21);
	expect_unavail(m, 0, cpu0, sizeof(cpu0) / sizeof(cpu0[0]));
	expect_unavail(m, 1, cpu1, sizeof(cpu1) / sizeof(cpu1[0]));
	assert_null(dlb_metrics_unavail(m, 2, &n));
	assert_int_equal(n, 0);
	dlb_metrics_free(m);
}

/*
 * A job's exec holds the interrupts taken while it ran (7 us of its 80),
 * not the stop class's time, during which it was switched out.
 */
static void test_unavail_job(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=a policy=deadline prio=0 "
			"runtime=2000000 deadline=10000000 period=10000000"),
		eb_wake(1, 0, 100, DLB_PRIO_DL),
		named_switch(5, 0, 0, 120, 100, DLB_PRIO_DL, "a"),
		eb_mark(10, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=10000000"),
		eb_irq(20000, 0, DLB_EV_IRQ_ENTRY), eb_irq(25000, 0, DLB_EV_IRQ_EXIT),
		named_switch(30, 0, 100, DLB_PRIO_DL, 18, DLB_PRIO_STOP, "migration/0"),
		named_switch(40, 0, 18, DLB_PRIO_STOP, 100, DLB_PRIO_DL, "a"),
		eb_irq(50000, 0, DLB_EV_SOFTIRQ_ENTRY), eb_irq(52000, 0, DLB_EV_SOFTIRQ_EXIT),
		eb_mark(100, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_switch(101, 0, 100, DLB_PRIO_DL, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(nr_jobs, 1);
	assert_int_equal(jobs[0].exec, 80 * US);
	assert_int_equal(jobs[0].unavail_ns, 7 * US);
	dlb_metrics_free(m);
}

/* CPU 0's fair intervals under a 50 ms / 1 s reservation are @want (@nwant). */
static void expect_fair0(struct dlb_metrics *m, const struct dlb_unavail *want, size_t nwant,
			 struct dlb_fair_sum *sum)
{
	struct dlb_unavail *v;
	size_t n, i;

	assert_int_equal(dlb_metrics_unavail_fair(m, 0, 50000 * US, 1000000 * US, 0, &v, &n,
						  sum), 0);
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++) {
		assert_int_equal(v[i].from, want[i].from);
		assert_int_equal(v[i].to, want[i].to);
		assert_int_equal(v[i].kind, want[i].kind);
	}
	free(v);
}

/*
 * The fair server's share (metrics_unavail.c unavail_fair), derived by
 * hand, times in ms: a fair hog (tid 200, prio 120) holds CPU 0; DL task
 * a, woken onto CPU 0 at 1, waits until the hog is switched out at 31
 * (30 ms, an interrupt at 10 inside), and again from 100 to 140 (40 ms).
 * With a reservation of 50 ms per 1 s: the first 30 ms counted (merged
 * with the interrupt), 20 of the next 40, the rest left out.  Not fair
 * time: task b woken onto CPU 1 (it waits for CPU 1, not CPU 0, which
 * the hog holds from 200 to 220), and CPU 1 running an RT task (prio 50)
 * meanwhile; nor the hog's time with no DL task waiting.
 */
static void test_unavail_fair(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=a policy=deadline prio=0 "
			"runtime=20000000 deadline=100000000 period=100000000"),
		named_switch(0, 0, 0, 120, 200, 120, "hog"),
		named_switch(0, 1, 0, 120, 300, 50, "fifo"),
		eb_wake(1000, 0, 100, DLB_PRIO_DL),
		eb_irq(10000000, 0, DLB_EV_IRQ_ENTRY), eb_irq(10500000, 0, DLB_EV_IRQ_EXIT),
		named_switch(31000, 0, 200, 120, 100, DLB_PRIO_DL, "a"),
		eb_switch(40000, 0, 100, DLB_PRIO_DL, 1, 200, 120),
		eb_wake(100000, 0, 100, DLB_PRIO_DL),
		named_switch(140000, 0, 200, 120, 100, DLB_PRIO_DL, "a"),
		eb_switch(145000, 0, 100, DLB_PRIO_DL, 1, 200, 120),
		eb_wake(200000, 1, 101, DLB_PRIO_DL),
		named_switch(220000, 1, 300, 50, 101, DLB_PRIO_DL, "b"),
		eb_switch(225000, 1, 101, DLB_PRIO_DL, 1, 0, 120),
		eb_switch(300000, 0, 200, 120, 0, 0, 120),
	};
	static const struct dlb_unavail want[] = {
		{ 1000 * US, 31000 * US, DLB_UA_IRQ | DLB_UA_FAIR },
		{ 100000 * US, 120000 * US, DLB_UA_FAIR },
	};
	struct dlb_fair_sum sum = { 0 };
	struct dlb_metrics *m = mk();
	struct dlb_unavail *v;
	size_t n;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	expect_fair0(m, want, 2, &sum);
	assert_int_equal(sum.found, 2);
	assert_int_equal(sum.found_ns, 70000 * US);
	assert_int_equal(sum.counted_ns, 50000 * US);
	/* CPU 1: nothing; no reservation (period 0): the interrupt alone */
	assert_int_equal(dlb_metrics_unavail_fair(m, 1, 50000 * US, 1000000 * US, 0, &v, &n,
						  &sum), 0);
	assert_int_equal(n, 0);
	free(v);
	assert_int_equal(dlb_metrics_unavail_fair(m, 0, 0, 0, 0, &v, &n, &sum), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].kind, DLB_UA_IRQ);
	free(v);
	dlb_metrics_free(m);
}

/*
 * Wake-up latency is not the fair server (DLB_FAIR_LATENCY_NS), times in
 * us: the hog (tid 200) holds CPU 0.  a wakes behind it at 1000 and runs
 * at 1020: 20 us of preemption latency, not counted.  a wakes at 10000 and
 * runs at 11500: 1.5 ms behind the running hog, counted from its wake-up.
 * At 20100 b wakes onto CPU 0 behind the running a; at 20500 a blocks and
 * the kernel switches the hog in with b waiting there (a pick, not a
 * latency): counted though it lasts 100 us, until b runs at 20600.
 */
static void test_unavail_fair_latency(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "dlb_task: tid=100 name=a policy=deadline prio=0 "
			"runtime=20000000 deadline=100000000 period=100000000"),
		eb_mark(0, 0, 101, "dlb_task: tid=101 name=b policy=deadline prio=0 "
			"runtime=20000000 deadline=100000000 period=100000000"),
		named_switch(0, 0, 0, 120, 200, 120, "hog"),
		eb_wake(1000, 0, 100, DLB_PRIO_DL),
		named_switch(1020, 0, 200, 120, 100, DLB_PRIO_DL, "a"),
		eb_switch(2000, 0, 100, DLB_PRIO_DL, 1, 200, 120),
		eb_wake(10000, 0, 100, DLB_PRIO_DL),
		named_switch(11500, 0, 200, 120, 100, DLB_PRIO_DL, "a"),
		eb_switch(12000, 0, 100, DLB_PRIO_DL, 1, 200, 120),
		eb_wake(20000, 0, 100, DLB_PRIO_DL),
		named_switch(20010, 0, 200, 120, 100, DLB_PRIO_DL, "a"),
		eb_wake(20100, 0, 101, DLB_PRIO_DL),
		eb_switch(20500, 0, 100, DLB_PRIO_DL, 1, 200, 120),
		named_switch(20600, 0, 200, 120, 101, DLB_PRIO_DL, "b"),
		eb_switch(21000, 0, 101, DLB_PRIO_DL, 1, 200, 120),
		eb_switch(30000, 0, 200, 120, 0, 0, 120),
	};
	static const struct dlb_unavail want[] = {
		{ 10000 * US, 11500 * US, DLB_UA_FAIR },
		{ 20500 * US, 20600 * US, DLB_UA_FAIR },
	};
	struct dlb_fair_sum sum = { 0 };
	struct dlb_metrics *m = mk();

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	expect_fair0(m, want, 2, &sum);
	assert_int_equal(sum.found, 2);
	dlb_metrics_free(m);
}

/*
 * CPU stalls (metrics_stall.c), tick 4 ms.  CPU 0 runs a hog from 0 to 100
 * ms with its tick's interrupt every 4 ms, except none at 44 and 48 ms: it
 * recorded nothing from 40.005 to 52 ms, a stall.  It is idle from 100 to
 * 130 ms without an event: not a stall, then runs it to the end, 300 ms.
 * CPU 1 runs a hog throughout; its ticks stop at 60 ms until a lost-events
 * record at 80 ms: lost data, not a stall.  @irq: the ticks as interrupts (else as sched_stat_runtime
 * charges, a trace without interrupt events); @cpu0_ticks: CPU 0's ticks
 * are in the trace.
 */
static size_t stall_trace(struct dlb_event *ev, bool irq, bool cpu0_ticks)
{
	size_t n = 0;
	u64 t;
	int cpu;

	ev[n++] = eb_switch(0, 0, 0, 120, 0, 200, 120);
	ev[n++] = eb_switch(0, 1, 0, 120, 0, 201, 120);
	for (t = 4000; t <= 300000; t += 4000)
		for (cpu = 0; cpu < 2; cpu++) {
			if (cpu == 0 && t == 100000)
				ev[n++] = eb_switch(100000, 0, 200, 120, 1, 0, 120);
			if (cpu == 0 && t == 132000)
				ev[n++] = eb_switch(130000, 0, 0, 120, 0, 200, 120);
			if (cpu == 1 && t == 80000)
				ev[n++] = eb_lost(80000, 1, 0);
			if (cpu == 0 && (!cpu0_ticks || t == 44000 || t == 48000 ||
					 (t > 100000 && t < 132000)))
				continue;
			if (cpu == 1 && t > 60000 && t < 80000)
				continue;
			if (irq) {
				ev[n++] = eb_irq(t * US, cpu, DLB_EV_IRQ_ENTRY);
				ev[n++] = eb_irq(t * US + 5000, cpu, DLB_EV_IRQ_EXIT);
			} else {
				ev[n++] = eb_runtime(t, cpu, 200 + cpu, 4000);
			}
		}
	return n;
}

static struct dlb_metrics *stall_metrics(u64 tick, bool irq, bool cpu0_ticks)
{
	struct dlb_metrics_opts o = { .tick_ns = tick };
	struct dlb_event ev[512];
	struct dlb_metrics *m = dlb_metrics_create(&o, NULL);

	assert_non_null(m);
	feed(m, ev, stall_trace(ev, irq, cpu0_ticks));
	return m;
}

/*
 * A hog on CPU 0 for 400 ms, its tick every 4 ms, except in 7 spans of 12
 * ms (from 40, 88, ..., 328 ms): 84 ms of 400 taken by the host.
 */
static struct dlb_metrics *stall_metrics_lossy(u64 tick)
{
	struct dlb_metrics_opts o = { .tick_ns = tick };
	struct dlb_event ev[256];
	struct dlb_metrics *m = dlb_metrics_create(&o, NULL);
	size_t n = 0;
	u64 t;

	assert_non_null(m);
	ev[n++] = eb_switch(0, 0, 0, 120, 0, 200, 120);
	for (t = 4000; t <= 400000; t += 4000) {
		if (t >= 40000 && t <= 340000 && (t - 40000) % 48000 > 0 &&
		    (t - 40000) % 48000 < 12000)
			continue;
		ev[n++] = eb_irq(t * US, 0, DLB_EV_IRQ_ENTRY);
		ev[n++] = eb_irq(t * US + 5000, 0, DLB_EV_IRQ_EXIT);
	}
	feed(m, ev, n);
	return m;
}

static void test_stalls(void **state)
{
	const struct dlb_cpu_metrics *c0, *c1;
	const struct dlb_stall *st;
	struct dlb_metrics *m;
	size_t n;

	(void)state;
	m = stall_metrics(4000 * US, true, true);
	c0 = dlb_metrics_cpu(m, 0);
	c1 = dlb_metrics_cpu(m, 1);
	assert_true(c0->stalls_checked && c1->stalls_checked);
	assert_int_equal(c0->tick_ns, 4000 * US);
	assert_int_equal(c0->stalls, 1);
	assert_int_equal(c0->stall_ns, 52000 * US - (40000 * US + 5000));
	assert_int_equal(c0->stall_max_ns, c0->stall_ns);
	assert_int_equal(c1->stalls, 0);
	st = dlb_metrics_stalls(m, 0, &n);
	assert_int_equal(n, 1);
	assert_int_equal(st[0].from, 40000 * US + 5000);
	assert_int_equal(st[0].to, 52000 * US);
	assert_int_equal(st[0].pid, 200);
	assert_int_equal(dlb_metrics_run(m)->stall_cpus_checked, 2);
	assert_int_equal(dlb_metrics_run(m)->stalls, 1);
	assert_int_equal(dlb_metrics_run(m)->stall_ns, c0->stall_ns);
	assert_int_equal(dlb_metrics_run(m)->stall_max_cpu, 0);
	assert_int_equal(dlb_metrics_run(m)->stall_max.from, 40000 * US + 5000);
	assert_int_equal(dlb_metrics_run(m)->stall_max.to, 52000 * US);
	dlb_metrics_free(m);

	/* a 10 ms tick: 12 ms is less than 1.5 ticks */
	m = stall_metrics(10000 * US, true, true);
	assert_true(dlb_metrics_cpu(m, 0)->stalls_checked);
	assert_int_equal(dlb_metrics_cpu(m, 0)->stalls, 0);
	assert_int_equal(dlb_metrics_run(m)->stalls, 0);
	assert_int_equal(dlb_metrics_run(m)->stall_cpus_checked, 2);
	dlb_metrics_free(m);

	/* the tick unknown, or no interrupt events: not checked */
	m = stall_metrics(0, true, true);
	assert_false(dlb_metrics_cpu(m, 0)->stalls_checked);
	assert_int_equal(dlb_metrics_cpu(m, 0)->stalls, 0);
	assert_null(dlb_metrics_stalls(m, 0, &n));
	dlb_metrics_free(m);
	m = stall_metrics(4000 * US, false, true);
	assert_false(dlb_metrics_cpu(m, 0)->stalls_checked);
	assert_int_equal(dlb_metrics_run(m)->stall_cpus_checked, 0);
	dlb_metrics_free(m);

	/* a host that took a fifth of CPU 0: its tick is in the trace, the stalls count */
	m = stall_metrics_lossy(4000 * US);
	assert_true(dlb_metrics_cpu(m, 0)->stalls_checked);
	assert_int_equal(dlb_metrics_cpu(m, 0)->stalls, 7);
	assert_int_equal(dlb_metrics_cpu(m, 0)->stall_ns, 7 * (12000 * US - 5000));
	dlb_metrics_free(m);

	/* CPU 0's tick not in the trace: its one busy span is not a stall, CPU 1 is checked */
	m = stall_metrics(4000 * US, true, false);
	assert_false(dlb_metrics_cpu(m, 0)->stalls_checked);
	assert_int_equal(dlb_metrics_cpu(m, 0)->stalls, 0);
	assert_true(dlb_metrics_cpu(m, 1)->stalls_checked);
	assert_int_equal(dlb_metrics_run(m)->stall_cpus_checked, 1);
	assert_int_equal(dlb_metrics_run(m)->stalls, 0);
	dlb_metrics_free(m);
}

/*
 * A FIFO task's jobs (the reference writes release markers without dl=, the
 * task has no deadline): counted as jobs with response times, never as
 * misses, and its release does not make it an earliest-deadline waiter.
 */
static void test_job_without_deadline(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 0, "dlb_task: tid=300 name=rt-0 policy=fifo prio=89"),
		eb_mark(1000, 0, 0, "dlb_job: tid=300 job=0 event=release rel=1000000"),
		eb_wake(1000, 0, 300, 89),
		eb_switch(1000, 0, 0, 120, 0, 300, 10),
		eb_mark(1000, 0, 300, "dlb_job: tid=300 job=0 event=begin rel=1000000"),
		eb_mark(4000, 0, 300, "dlb_job: tid=300 job=0 event=end"),
		eb_switch(4000, 0, 300, 10, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	r = dlb_metrics_run(m);
	assert_int_equal(r->jobs, 1);
	assert_int_equal(r->misses, 0);
	assert_int_equal(nr_jobs, 1);
	assert_false(jobs[0].dl_known);
	assert_false(jobs[0].miss);
	assert_int_equal(jobs[0].response, 3000 * US);
	dlb_metrics_free(m);
}

static void test_empty(void **state)
{
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;
	int q;

	(void)state;
	dlb_metrics_finish(m);
	r = dlb_metrics_run(m);
	assert_int_equal(dlb_metrics_nr_tasks(m), 0);
	assert_int_equal(dlb_metrics_nr_cpus(m), 0);
	assert_int_equal(r->events, 0);
	for (q = 0; q < DLB_Q_NR; q++)
		assert_int_equal(r->quality[q].count, q == DLB_Q_NO_EVENTS);
	dlb_metrics_free(m);
}

/* Markers only: jobs and misses still count; execution time is unknown and flagged. */
static void test_no_sched_switch(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(10, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=1000000"),
		eb_mark(1500, 0, 100, "dlb_job: tid=100 job=0 event=end"),
		eb_mark(2010, 0, 100, "dlb_job: tid=100 job=1 event=begin rel=2000000 dl=3000000"),
		eb_mark(2500, 0, 100, "dlb_job: tid=100 job=1 event=end"),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;
	const struct dlb_task_metrics *t;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	r = dlb_metrics_run(m);
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->jobs, 2);
	assert_int_equal(t->misses, 1);
	assert_int_equal(t->lateness.max, 500 * US);
	assert_int_equal(t->exec.count, 0);
	assert_false(jobs[0].exec_known);
	assert_int_equal(r->quality[DLB_Q_NO_SCHED_SWITCH].count, 1);
	dlb_metrics_free(m);
}

static void test_unmatched_and_clock(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(10, 0, 100, "dlb_job: tid=100 job=0 event=begin rel=0 dl=1000000"),
		eb_mark(20, 0, 100, "dlb_job: tid=100 job=1 event=begin rel=0 dl=1000000"),
		eb_mark(30, 0, 100, "dlb_job: tid=100 job=1 event=end"),
		eb_mark(40, 0, 100, "dlb_job: tid=100 job=2 event=end"),
		eb_mark(50, 0, 100, "dlb_job: tid=100 job=3 event=begin rel=60000 dl=1000000"),
		eb_mark(70, 0, 100, "dlb_job: tid=100 job=3 event=end"),
		eb_mark(80, 0, 100, "dlb_job: tid=100 job=x event=end"),
		eb_mark(90, 0, 100, "dlb_job: tid=100 job=4 event=begin rel=0 dl=1000000"),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	r = dlb_metrics_run(m);
	assert_int_equal(r->jobs, 2);
	assert_int_equal(r->quality[DLB_Q_UNMATCHED_BEGIN].count, 1);
	assert_string_equal(r->quality[DLB_Q_UNMATCHED_BEGIN].detail,
			    "tid 100 job 0 began at 10000 ns and never ended");
	assert_int_equal(r->quality[DLB_Q_UNMATCHED_END].count, 1);
	assert_int_equal(r->quality[DLB_Q_CLOCK_MISMATCH].count, 1);
	assert_string_equal(r->quality[DLB_Q_CLOCK_MISMATCH].detail,
			    "tid 100 job 3: begin marker at 50000 ns before its release 60000 ns");
	assert_int_equal(r->quality[DLB_Q_BAD_MARKERS].count, 1);
	assert_string_equal(r->quality[DLB_Q_BAD_MARKERS].detail,
			    "at 80000 ns: dlb_job: key 'job': not an unsigned number 'x'");
	assert_int_equal(r->jobs_open_at_end, 1);
	dlb_metrics_free(m);
}

/*
 * Debian rt-app 1.0: no release, no deadline in the markers.  The release
 * is the wake-up before begin; the job's work ends when the thread sleeps
 * (its end marker comes after the timer's sleep); D comes from outside.
 */
static void test_rtapp10(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(1, 0, 100, "[0] begins loop 0 phase 0 step 0"),
		eb_switch(1001, 0, 100, R, 1, 0, 120),
		eb_wake(10000, 0, 100, R),
		eb_switch(10004, 0, 0, 120, 0, 100, R),
		eb_mark(10005, 0, 100, "[0] end loop 0 phase 0 step 0"),
		eb_mark(10006, 0, 100, "[0] begins loop 1 phase 0 step 0"),
		eb_switch(13006, 0, 100, R, 1, 0, 120),
		eb_wake(20000, 0, 100, R),
		eb_switch(20010, 0, 0, 120, 0, 100, R),
		eb_mark(20011, 0, 100, "[0] end loop 1 phase 0 step 0"),
		eb_mark(20012, 0, 100, "[0] exiting"),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;

	(void)state;
	assert_int_equal(dlb_metrics_set_params(m, 100, "dl_a", 2000 * US, 2500 * US, 10000 * US),
			 0);
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->jobs, 2);
	assert_int_equal(t->dialect, DLB_DIALECT_RTAPP10);
	assert_int_equal(t->rel_inferred, 2);
	assert_int_equal(jobs[0].rel_src, DLB_REL_BEGIN);
	assert_int_equal(jobs[0].end, 1001 * US);
	assert_int_equal(jobs[0].exec, 1000 * US);
	assert_int_equal(jobs[1].rel_src, DLB_REL_WAKEUP);
	assert_int_equal(jobs[1].rel, 10000 * US);
	assert_int_equal(jobs[1].wakeup_lat, 6 * US);
	assert_int_equal(jobs[1].exec, 3000 * US);
	assert_true(jobs[1].miss);
	assert_int_equal(jobs[1].lateness, 506 * US);
	assert_int_equal(t->overruns, 1);
	assert_int_equal(t->misses, 1);
	/* waiting at 10000..10004 and 20000..20010 on an idle CPU, deadlines wake-up + D */
	assert_int_equal(t->inversion_ns, 14 * US);
	assert_int_equal(dlb_metrics_run(m)->quality[DLB_Q_UNMATCHED_END].count, 0);
	dlb_metrics_free(m);
}

/*
 * rt-app 1.0 re-arms its timer from a late job's end (src/rt-app.c, timer
 * event, relative mode).  Zero time at 0, P = D = 10 ms.  Job 0 (released
 * at the zero time) works until 12000 µs: late, no sleep; job 1 is released
 * at that end (not at 10000: rt-app never released a job there), works
 * 3 ms and sleeps until 22000, its timer's expiry (the wake-up at 22030 is
 * 30 µs of latency).  Job 2 ends at 24000.  The first job's name comes only
 * with its end: parameters given by name still give it a deadline.
 */
static void test_rtapp10_late_rearm(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "[0] sets zero time"),
		eb_mark(50, 0, 100, "[0] starts"),
		eb_mark(100, 0, 100, "[0] begins loop 0 phase 0 step 0"),
		eb_switch(6000, 0, 100, 120, 0, 0, 120),
		eb_wake(6001, 0, 100, 120),	/* a CFS sleep before sched_setattr */
		eb_switch(6002, 0, 0, 120, 0, 100, R),
		eb_mark(12000, 0, 100, "[0] end loop 0 phase 0 step 0"),
		eb_mark(12001, 0, 100, "[0] begins loop 1 phase 0 step 0"),
		eb_switch(15001, 0, 100, R, 1, 0, 120),
		eb_wake(22030, 0, 100, R),
		eb_switch(22031, 0, 0, 120, 0, 100, R),
		eb_mark(22032, 0, 100, "[0] end loop 1 phase 0 step 0"),
		eb_mark(22033, 0, 100, "[0] begins loop 2 phase 0 step 0"),
		eb_switch(24000, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;
	int i;

	(void)state;
	evs[3].sw.prev_comm[0] = '\0';
	for (i = 4; i < (int)(sizeof(evs) / sizeof(evs[0])); i++) {
		if (evs[i].type == DLB_EV_SWITCH)
			snprintf(evs[i].sw.prev_pid == 100 ? evs[i].sw.prev_comm :
				 evs[i].sw.next_comm, DLB_COMM_LEN, "dl_a");
		if (evs[i].type == DLB_EV_WAKEUP)
			snprintf(evs[i].wake.comm, DLB_COMM_LEN, "dl_a");
	}
	assert_int_equal(dlb_metrics_set_params_by_name(m, "dl_a", 2000 * US, 10000 * US,
							10000 * US), 0);
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->jobs, 3);
	assert_int_equal(t->jobs_no_dl, 0);
	assert_int_equal(jobs[0].rel_src, DLB_REL_CLOCK_REF);
	assert_int_equal(jobs[0].rel, 0);
	assert_int_equal(jobs[0].end, 12000 * US);
	assert_true(jobs[0].dl_known);
	assert_int_equal(jobs[0].lateness, 2000 * US);
	assert_int_equal(jobs[1].rel_src, DLB_REL_LATE_END);
	assert_int_equal(jobs[1].rel, 12000 * US);
	assert_int_equal(jobs[1].lateness, -6999 * US);
	assert_false(jobs[1].miss);
	assert_int_equal(jobs[2].rel_src, DLB_REL_PERIOD);
	assert_int_equal(jobs[2].rel, 22000 * US);
	assert_int_equal(jobs[2].wakeup_lat, 33 * US);
	assert_int_equal(t->misses, 1);
	assert_int_equal(t->lateness.max, 2000 * US);
	assert_int_equal(dlb_metrics_run(m)->quality[DLB_Q_MISSES_NOT_JUDGED].count, 0);
	dlb_metrics_free(m);
}

/*
 * Release guesses that cannot be rt-app's timer are dropped for the
 * wake-up: a thread that sleeps after its start marker (rt-app's "delay")
 * is first released when it wakes; a wake-up before r + P (the timer
 * cannot expire early), or a period or more after it (not a timer of
 * period P), is the release.  P = D = 10 ms, no zero time in the trace.
 */
static void test_rtapp10_wakeup_guards(void **state)
{
	struct dlb_event evs[] = {
		eb_mark(0, 0, 100, "[0] starts"),
		eb_switch(1, 0, 100, R, 1, 0, 120),
		eb_wake(5000, 0, 100, R),		/* delay ends */
		eb_switch(5001, 0, 0, 120, 0, 100, R),
		eb_mark(5002, 0, 100, "[0] begins loop 0 phase 0 step 0"),
		eb_switch(6000, 0, 100, R, 1, 0, 120),
		eb_wake(14990, 0, 100, R),		/* before 5000 + P */
		eb_switch(14991, 0, 0, 120, 0, 100, R),
		eb_mark(14992, 0, 100, "[0] end loop 0 phase 0 step 0"),
		eb_mark(14993, 0, 100, "[0] begins loop 1 phase 0 step 0"),
		eb_switch(16000, 0, 100, R, 1, 0, 120),
		eb_wake(40000, 0, 100, R),		/* 15 ms after 14990 + P */
		eb_switch(40001, 0, 0, 120, 0, 100, R),
		eb_mark(40002, 0, 100, "[0] end loop 1 phase 0 step 0"),
		eb_mark(40003, 0, 100, "[0] begins loop 2 phase 0 step 0"),
		eb_switch(41000, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();

	(void)state;
	assert_int_equal(dlb_metrics_set_params(m, 100, "dl_a", 2000 * US, 10000 * US, 10000 * US),
			 0);
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	assert_int_equal(nr_jobs, 3);
	assert_int_equal(jobs[0].rel_src, DLB_REL_WAKEUP);
	assert_int_equal(jobs[0].rel, 5000 * US);
	assert_int_equal(jobs[1].rel_src, DLB_REL_WAKEUP);
	assert_int_equal(jobs[1].rel, 14990 * US);
	assert_int_equal(jobs[2].rel_src, DLB_REL_WAKEUP);
	assert_int_equal(jobs[2].rel, 40000 * US);
	assert_int_equal(dlb_metrics_task(m, 0)->misses, 0);
	dlb_metrics_free(m);
}

/*
 * rt-app 1.0 without parameters: its DL threads' jobs have no deadline,
 * so "0 misses" would judge nothing: misses_not_judged (incomplete) names
 * the task and how to give its parameters.  A SCHED_OTHER rt-app thread
 * has no deadline to miss: not counted.
 */
static void test_rtapp10_no_params(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 0, 0, 120, 0, 100, R),
		eb_mark(1, 0, 100, "[0] begins loop 0 phase 0 step 0"),
		eb_switch(1001, 0, 100, R, 1, 200, 120),
		eb_mark(1002, 0, 200, "[1] begins loop 0 phase 0 step 0"),
		eb_switch(2002, 0, 200, 120, 1, 0, 120),
		eb_wake(10000, 0, 100, R),
		eb_switch(10004, 0, 0, 120, 0, 100, R),
		eb_mark(10005, 0, 100, "[0] end loop 0 phase 0 step 0"),
		eb_mark(10006, 0, 100, "[0] begins loop 1 phase 0 step 0"),
		eb_switch(11006, 0, 100, R, 1, 0, 120),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_run_metrics *r;

	(void)state;
	snprintf(evs[0].sw.next_comm, DLB_COMM_LEN, "dl_a");
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	r = dlb_metrics_run(m);
	assert_int_equal(r->jobs, 3);	/* 2 of dl_a, 1 of the SCHED_OTHER thread */
	assert_int_equal(r->misses, 0);
	assert_int_equal(dlb_quality_severity(DLB_Q_MISSES_NOT_JUDGED), 1);
	assert_int_equal(r->quality[DLB_Q_MISSES_NOT_JUDGED].count, 2);
	assert_string_equal(r->quality[DLB_Q_MISSES_NOT_JUDGED].detail,
			    "task dl_a (tid 100): 2 of 2 jobs without a deadline; give its "
			    "parameters: -p dl_a=RUNTIME,DEADLINE,PERIOD");
	dlb_metrics_free(m);
}

/* Upstream rt-app: parameters from rtapp_attrs, jobs from rtapp_loop start/end. */
static void test_rtapp_upstream(void **state)
{
	struct dlb_event evs[] = {
		eb_switch(0, 1, 0, 120, 0, 100, R),
		eb_mark(1, 1, 100, "rtapp_attrs: event=policy policy=dl runtime=1000000 "
			"deadline=5000000 period=10000000"),
		eb_mark(2, 1, 100, "rtapp_loop: event=start thread_loop=0 phase=0 phase_loop=0"),
		eb_switch(802, 1, 100, R, 1, 0, 120),
		eb_wake(10000, 1, 100, R),
		eb_switch(10002, 1, 0, 120, 0, 100, R),
		eb_mark(10003, 1, 100, "rtapp_loop: event=end thread_loop=0 phase=0 phase_loop=0"),
		eb_mark(10004, 1, 100, "rtapp_loop: event=start thread_loop=1 phase=0 phase_loop=0"),
		eb_switch(11204, 1, 100, R, 1, 0, 120),
		eb_mark(20000, 0, 7, "rtapp_main: event=end"),
	};
	struct dlb_metrics *m = mk();
	const struct dlb_task_metrics *t;

	(void)state;
	feed(m, evs, sizeof(evs) / sizeof(evs[0]));
	t = dlb_metrics_task(m, 0);
	assert_int_equal(t->param_src, DLB_PARAM_MARKER);
	assert_int_equal(t->deadline, 5000 * US);
	assert_int_equal(t->dialect, DLB_DIALECT_RTAPP);
	assert_int_equal(t->jobs, 2);
	assert_int_equal(jobs[0].exec, 800 * US);
	assert_int_equal(jobs[1].rel, 10000 * US);
	assert_int_equal(jobs[1].dl, 15000 * US);
	assert_int_equal(jobs[1].exec, 1200 * US);
	assert_int_equal(jobs[1].response, 1204 * US);
	assert_int_equal(t->overruns, 1);
	assert_int_equal(t->overrun_max, 200 * US);
	assert_int_equal(t->misses, 0);
	assert_true(dlb_metrics_run(m)->run_end_seen);
	dlb_metrics_free(m);
}


/*
 * The tick grid's samples (dlb_metrics_runtime_times(), the conformance
 * replay's tickphase) are the -deadline tasks' charges only.  One CPU, 20
 * periods of 4 ms: the DL task 100 runs 0..1500 µs of each, charged at the
 * tick (1000) and as it switches out (1500); a fair task 200 runs the rest,
 * charged every 50 µs (a machine busy with short-lived processes).  With
 * every task's charges the fair ones (1000 of 1040) hide the ticks and no
 * grid is found; with the DL task's, 40 samples and the grid at 1000 µs.
 */
static void test_tick_samples_dl_only(void **state)
{
	struct dlb_event evs[20 * 54];
	struct dlb_metrics *m = mk();
	const u64 *ts;
	u64 phase = 0, t;
	size_t n = 0, i;
	int k;

	(void)state;
	for (k = 0; k < 20; k++) {
		t = 4000 * (u64)k;
		evs[n++] = eb_switch(t, 0, 200, 120, 0, 100, R);
		evs[n++] = eb_runtime(t + 1000, 0, 100, 1000);
		evs[n++] = eb_runtime(t + 1500, 0, 100, 500);
		evs[n++] = eb_switch(t + 1500, 0, 100, R, 1, 200, 120);
		for (i = 0; i < 50; i++)
			evs[n++] = eb_runtime(t + 1500 + 50 * (i + 1) - 25, 0, 200, 50);
	}
	feed(m, evs, n);
	ts = dlb_metrics_runtime_times(m, 0, &n);
	assert_int_equal(n, 40);
	assert_int_equal(dlb_tick_phase(ts, n, 0, 4000 * US, &phase), 1);
	assert_int_equal(phase, 1000 * US);
	dlb_metrics_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_miss_overrun_inversion),
		cmocka_unit_test(test_migration),
		cmocka_unit_test(test_inversion_gedf),
		cmocka_unit_test(test_inversion_reset),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_throttle_cbs),
		cmocka_unit_test(test_inversion_rank),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_unavail),
		cmocka_unit_test(test_unavail_job),
		cmocka_unit_test(test_unavail_fair),
		cmocka_unit_test(test_unavail_fair_latency),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_job_without_deadline),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_no_sched_switch),
		cmocka_unit_test(test_unmatched_and_clock),
		cmocka_unit_test(test_rtapp10),
		cmocka_unit_test(test_rtapp10_late_rearm),
		cmocka_unit_test(test_rtapp10_wakeup_guards),
		cmocka_unit_test(test_rtapp10_no_params),
		cmocka_unit_test(test_rtapp_upstream),
		cmocka_unit_test(test_tick_samples_dl_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
