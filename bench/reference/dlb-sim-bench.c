// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-sim-bench (make bench): what the reference costs.
 *
 *  1. simulator throughput: scheduling events and simulator steps per
 *     second of wall time, and the wall time to simulate 60 s of a 64-CPU,
 *     640-task -deadline workload (goals: >= 5 M events/s, <= 10 s);
 *  2. CPU selection per call, find + set, heap (cpudl, patch 007) against
 *     the linear scan (latest_cpu_find, patch 004) at 2 .. 1024 CPUs,
 *     side by side with their ratio (goal: heap >= 50x cheaper at 1024).
 *
 * Reported, never asserted (timings depend on the machine).  Options:
 * --quick (1 s instead of 60 s, fewer calls), or DLB_BENCH_QUICK=1;
 * "--quick --sim-only" or "--full --sim-only": the first simulation alone (profiling);
 * "--quick --sched-only": the second alone (heap, no consumer: the scheduler
 * and simulator without formatting, what the 5 M events/s goal measures).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlbench/workload.h"

#include "../../reference/sched.h"
#include "../../reference/sim.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int count_event(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	(*(u64 *)arg)++;
	return 0;
}

/* 640 periodic -deadline tasks, 8 % each (51.2 of 64 CPUs), periods 10..100 ms. */
static struct workload *big_workload(int ntasks, u64 duration)
{
	struct workload *wl = calloc(1, sizeof(*wl));
	u64 seed = 1;
	int i;

	wl->path = "bench";
	wl->global.duration_ns = duration;
	wl->nr_tasks = (size_t)ntasks;
	wl->tasks = calloc((size_t)ntasks, sizeof(*wl->tasks));
	wl->nr_resources = (size_t)ntasks;
	wl->resources = calloc((size_t)ntasks, sizeof(*wl->resources));
	for (i = 0; i < ntasks; i++) {
		struct wl_task *t = &wl->tasks[i];
		u64 period = (10 + rnd(&seed) % 91) * NSEC_PER_MSEC;
		u64 c = period * 8 / 100;
		char *name = malloc(16);

		snprintf(name, 16, "t%d", i);
		t->name = name;
		t->instances = 1;
		t->loop = -1;
		t->policy = WL_POLICY_DEADLINE;
		t->dl.runtime = c;
		t->dl.deadline = period;
		t->dl.period = period;
		t->nr_phases = 1;
		t->phases = calloc(1, sizeof(*t->phases));
		t->phases[0].loop = 1;
		t->phases[0].nr_events = 2;
		t->phases[0].events = calloc(2, sizeof(struct wl_event));
		t->phases[0].events[0].type = WL_EV_RUN;
		t->phases[0].events[0].duration_ns = c * 9 / 10;
		t->phases[0].events[0].res = -1;
		t->phases[0].events[1].type = WL_EV_TIMER;
		t->phases[0].events[1].duration_ns = period;
		t->phases[0].events[1].res = i;
		wl->resources[i].type = WL_RES_TIMER;
	}
	return wl;
}

static void big_free(struct workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++) {
		free(wl->tasks[i].phases[0].events);
		free(wl->tasks[i].phases);
		free(wl->tasks[i].name);
	}
	free(wl->tasks);
	free(wl->resources);
	free(wl);
}

/* @hook: deliver every event (markers formatted); else the scheduler alone. */
static void bench_sim(enum dlb_sim_cpu_select sel, u64 duration, bool hook)
{
	struct workload *wl = big_workload(640, duration);
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;
	u64 events = 0;
	double t0, t;

	dlb_sim_opts_init(&o);
	o.nr_cpus = 64;
	o.cpu_select = sel;
	o.timed = false;
	sim = dlb_sim_create(wl, &o, &err);
	if (!sim) {
		fprintf(stderr, "dlb-sim-bench: %s\n", err.msg);
		exit(1);
	}
	if (hook)
		dlb_sim_set_event_hook(sim, count_event, &events);
	t0 = wall();
	if (dlb_sim_run(sim, &err) < 0) {
		fprintf(stderr, "dlb-sim-bench: %s\n", err.msg);
		exit(1);
	}
	t = wall() - t0;
	if (!hook)
		events = dlb_sim_nr_events(sim);
	printf("sim  64 CPUs 640 tasks %3.0f s simulated  %-6s %-8s wall %6.2f s  events %9llu "
	       "(%5.2f M/s)  steps %9llu (%5.2f M/s)  push %llu pull %llu\n",
	       (double)duration / 1e9, dlb_sim_cpu_select_str(sel), hook ? "+markers" : "sched",
	       t, (unsigned long long)events, (double)events / t / 1e6,
	       (unsigned long long)dlb_sim_nr_steps(sim), (double)dlb_sim_nr_steps(sim) / t / 1e6,
	       (unsigned long long)dlb_sim_opcount(sim, DLB_OP_PUSH)->calls,
	       (unsigned long long)dlb_sim_opcount(sim, DLB_OP_PULL)->calls);
	dlb_sim_free(sim);
	big_free(wl);
}

/* find + set per call on @cpus CPUs, all busy with random deadlines. */
static double bench_select(enum cpu_select sel, int cpus, int calls)
{
	struct sched_create_opts so = { .nr_cpus = cpus, .cpu_select = sel };
	struct sched_ops ops;
	struct task_struct p;
	struct dlb_err err;
	struct sched *s;
	u64 seed = 99, t0, t1;
	volatile int sink = 0;
	int i;

	memset(&ops, 0, sizeof(ops));
	s = sched_create(&so, &ops, &err);
	if (!s) {
		fprintf(stderr, "dlb-sim-bench: %s\n", err.msg);
		exit(1);
	}
	memset(&p, 0, sizeof(p));
	sched_task_init(s, &p, 1, "bench", 0);
	for (i = 0; i < cpus; i++)
		sched_bench_set_cpu_dl(s, i, NSEC_PER_SEC + rnd(&seed) % NSEC_PER_SEC);
	t0 = dlb_opstat_now();
	for (i = 0; i < calls; i++) {
		sched_bench_set_cpu_dl(s, (int)(rnd(&seed) % (u64)cpus),
				       NSEC_PER_SEC + rnd(&seed) % NSEC_PER_SEC);
		p.dl.deadline = NSEC_PER_SEC + rnd(&seed) % NSEC_PER_SEC;
		sink += sched_bench_find(s, &p);
	}
	t1 = dlb_opstat_now();
	(void)sink;
	sched_free(s);
	return (double)(t1 - t0) / calls;
}

int main(int argc, char **argv)
{
	bool quick = getenv("DLB_BENCH_QUICK") || (argc > 1 && !strcmp(argv[1], "--quick"));
	bool sim_only = argc > 2 && !strcmp(argv[2], "--sim-only");
	bool sched_only = argc > 2 && !strcmp(argv[2], "--sched-only");
	u64 duration = (quick ? 1 : 60) * NSEC_PER_SEC;
	int cpus;

	printf("# dlb-sim-bench: reference scheduler costs (%s)\n", quick ? "quick" : "full");
	printf("# +markers: every event delivered and job markers formatted (what dlb-sim -o\n"
	       "# does before writing); sched: no consumer, the scheduler and simulator alone\n");
	if (!sched_only)
		bench_sim(DLB_SIM_HEAP, duration, true);
	if (sim_only)
		return 0;
	bench_sim(DLB_SIM_HEAP, duration, false);
	if (sched_only)
		return 0;
	bench_sim(DLB_SIM_LINEAR, duration, false);
	printf("# find+set per call, %s per call (lower is better)\n", dlb_opstat_unit());
	printf("%6s %12s %12s %14s\n", "cpus", "heap", "linear", "linear/heap");
	for (cpus = 2; cpus <= 1024; cpus *= 2) {
		int calls = quick ? 20000 : 200000;
		double h = bench_select(CPU_SELECT_HEAP, cpus, calls);
		double l = bench_select(CPU_SELECT_LINEAR, cpus, calls);

		printf("%6d %12.1f %12.1f %13.1fx\n", cpus, h, l, l / h);
	}
	return 0;
}
