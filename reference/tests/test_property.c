// SPDX-License-Identifier: GPL-2.0
/*
 * Properties over random task sets (seeded, reproducible): every invariant
 * after every simulator step (o.check); EDF on 1 CPU with U <= 1 and
 * implicit deadlines misses nothing; global EDF on M CPUs under the GFB
 * bound U <= M - (M-1) u_max misses nothing (Goossens, Funk, Baruah 2003);
 * where docs/reference.md says the heap (cpudl) and the linear scan agree
 * (every -deadline task may use every CPU and is woken only from its own
 * CPU), the two schedules are the same event for event; random mixed
 * workloads (all classes, nested PI mutexes, affinities, suspend/resume,
 * cond wait/signal, yields, ticks, overheads) keep every invariant.
 *
 * Each property runs on the v4 model and on the mainline model (the newest
 * modelled kernel: constrained-deadline rules, the fair server among the
 * fair tasks of the mixed and agreeing sets), invariants after every step.
 *
 * DLB_PROPERTY_SETS=N overrides the number of sets per property (default
 * 1000).  Every set has its own seed, printed when it fails;
 * DLB_PROPERTY_SEED=0x... runs that one set of each property again.
 */
#include "dlb_test.h"

#include <stdarg.h>

#include "wlbuild.h"

static int nr_sets = 1000;

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double urand(u64 *s)
{
	return (double)(rnd(s) >> 11) / (double)(1ULL << 53);
}

static u64 replay_seed;		/* DLB_PROPERTY_SEED: run this one set only */

/* The test's model: cmocka's prestate, NULL for v4. */
static const char *model_of(void **state)
{
	return *state ? (const char *)*state : "v4";
}

/* wlb_opts() on @model; a model name the simulator refuses fails the test. */
static void prop_opts(struct dlb_sim_opts *o, int cpus, void **state)
{
	wlb_opts(o, cpus);
	if (dlb_sim_opts_model(o, model_of(state)) < 0)
		fail_msg("model %s refused", model_of(state));
	o->admission = false;
}

/* The seed of set @set of the property seeded @seed0 (splitmix64: never 0). */
static u64 set_seed(u64 seed0, int set)
{
	u64 z = seed0 + (u64)(set + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

static int property_sets(void)
{
	return replay_seed ? 1 : nr_sets;
}

static u64 property_seed(u64 seed0, int set)
{
	return replay_seed ? replay_seed : set_seed(seed0, set);
}

/*
 * A random implicit-deadline periodic set for @m CPUs: n tasks, periods
 * 2..20 ms (µs grain), utilisations scaled under the GFB bound (for m = 1:
 * U <= 1), each job running exactly its runtime.
 */
static struct workload *random_set(u64 *seed, int m, char *desc, size_t dsize)
{
	struct workload *wl = wlb_new(60 * MS);
	double u[16], sum = 0, umax = 0, f;
	int n = m == 1 ? 2 + (int)(rnd(seed) % 7) : m + 1 + (int)(rnd(seed) % (u64)(2 * m));
	size_t off = 0;
	int i;

	if (n > 16)
		n = 16;
	for (i = 0; i < n; i++) {
		u[i] = 0.02 + 0.9 * urand(seed);
		sum += u[i];
		if (u[i] > umax)
			umax = u[i];
	}
	f = (double)m / (sum + (double)(m - 1) * umax);
	if (f > 1)
		f = 1;
	f *= 0.5 + 0.5 * urand(seed);
	for (i = 0; i < n; i++) {
		u64 period = (2000 + rnd(seed) % 18001) * US;
		u64 c = (u64)(u[i] * f * (double)(period / US)) * US;
		char name[16];

		if (c < 2 * US)
			c = 2 * US;
		snprintf(name, sizeof(name), "t%d", i);
		wlb_periodic(wl, name, c, period, period, c);
		off += (size_t)snprintf(desc + off, off < dsize ? dsize - off : 0, " %llu/%llu",
					(unsigned long long)(c / US),
					(unsigned long long)(period / US));
	}
	return wl;
}

static void check_no_miss(struct dlb_sim *sim, const char *desc, int set, u64 s0)
{
	size_t i;

	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, i, &st);
		if (st.jobs_missed || st.late_pending || st.dmiss_max)
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx, %d CPUs:%s): %s missed %llu jobs "
				 "(pending late %llu, dmiss_max %llu)", set, (unsigned long long)s0,
				 dlb_sim_nr_cpus(sim), desc, st.comm,
				 (unsigned long long)st.jobs_missed,
				 (unsigned long long)st.late_pending,
				 (unsigned long long)st.dmiss_max);
		if (!st.jobs)
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx):%s: %s finished no job", set,
				 (unsigned long long)s0, desc, st.comm);
	}
}

static void run_sets(int m_min, int m_max, u64 seed0, void **state)
{
	int set;

	for (set = 0; set < property_sets(); set++) {
		u64 seed = property_seed(seed0, set), s0 = seed;
		int m = m_min + (int)(rnd(&seed) % (u64)(m_max - m_min + 1));
		char desc[512];
		struct workload *wl = random_set(&seed, m, desc, sizeof(desc));
		struct dlb_sim_opts o;
		struct wlb_log heap;
		struct dlb_sim *sim = NULL;
		struct dlb_err err;

		prop_opts(&o, m, state);
		if (wlb_run(wl, &o, WLB_SCHED | WLB_DL, &heap, &sim, &err) < 0)
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx, %s, %d CPUs:%s): %s", set,
				 (unsigned long long)s0, model_of(state), m, desc, err.msg);
		check_no_miss(sim, desc, set, s0);
		dlb_sim_free(sim);
		free(heap.buf);
		wlb_free(wl);
	}
}

static void test_uniprocessor_edf(void **state)
{
	run_sets(1, 1, 0x5eed1, state);
}

static void test_global_edf_gfb(void **state)
{
	run_sets(2, 8, 0x5eed2, state);
}

/*
 * The class in which docs/reference.md says heap and linear agree: every
 * -deadline task may run on every CPU and is woken only from its own CPU
 * (its timer, its sleep, its start).  Inside it the sets go further than
 * random_set(): synchronous equal periods (ties between CPUs' earliest
 * deadlines, the cpudl tie rule), constrained deadlines, jobs that overrun
 * their budget (throttling, replenishment), sleeps instead of timers,
 * staggered starts and FIFO/fair tasks on the same CPUs.
 */
static struct workload *agree_set(u64 *seed, int m, int *nr)
{
	struct workload *wl = wlb_new(60 * MS);
	int n = m + 1 + (int)(rnd(seed) % (u64)(2 * m)), i;
	double f = (0.5 + 0.45 * urand(seed)) * m / n;	/* average utilisation */

	for (i = 0; i < n; i++) {
		static const u64 common[] = { 4 * MS, 6 * MS, 12 * MS };
		u64 period = rnd(seed) % 2 ? common[rnd(seed) % 3] : (2000 + rnd(seed) % 18001) * US;
		u64 dl = rnd(seed) % 4 ? period : period / 2 + rnd(seed) % (period / 2);
		u64 c = (u64)((0.2 + 1.6 * urand(seed)) * f * (double)(dl / US)) * US;
		u64 run = rnd(seed) % 5 ? c : c + c / 2;	/* one in five overruns */
		char name[16];
		int t, r;

		if (c < 50 * US)
			c = run = 50 * US;
		if (c > dl)
			c = run = dl;
		snprintf(name, sizeof(name), "t%d", i);
		t = wlb_task(wl, name, WL_POLICY_DEADLINE, c, dl, period);
		wlb_ev(wl, t, WL_EV_RUN, run, -1);
		if (rnd(seed) % 4) {
			snprintf(name, sizeof(name), "tm%d", i);
			r = wlb_res(wl, name, WL_RES_TIMER);
			wlb_ev(wl, t, WL_EV_TIMER, period, r);
		} else {
			wlb_ev(wl, t, WL_EV_SLEEP, period - run / 2, -1);
		}
		if (rnd(seed) % 3 == 0)
			wl->tasks[t].delay_ns = rnd(seed) % 4 * MS;
	}
	for (i = 0; i < (int)(rnd(seed) % 3); i++) {	/* FIFO or fair, sleeping */
		char name[16];
		int t;

		snprintf(name, sizeof(name), "o%d", i);
		t = wlb_task(wl, name, i ? WL_POLICY_FIFO : WL_POLICY_OTHER, 0, 0, 0);
		wl->tasks[t].priority = i ? 10 : 0;
		wlb_ev(wl, t, WL_EV_RUN, (200 + rnd(seed) % 2000) * US, -1);
		wlb_ev(wl, t, WL_EV_SLEEP, (1000 + rnd(seed) % 5000) * US, -1);
	}
	*nr = n;
	return wl;
}

static void test_heap_linear_same(void **state)
{
	unsigned long long pushed = 0, pulled = 0, moved = 0;
	int set;

	for (set = 0; set < property_sets(); set++) {
		u64 seed = property_seed(0x5eed3, set), s0 = seed;
		int m = 2 + (int)(rnd(&seed) % 7), n;
		struct workload *wl = agree_set(&seed, m, &n);
		struct dlb_sim_opts o;
		struct wlb_log heap, lin;
		struct dlb_sim *sim = NULL;
		struct dlb_err err;

		prop_opts(&o, m, state);
		if (wlb_run(wl, &o, WLB_SCHED | WLB_DL, &heap, &sim, &err) < 0)
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx, %s, %d CPUs, %d tasks), heap: %s",
				 set, (unsigned long long)s0, model_of(state), m, n, err.msg);
		pushed += dlb_sim_opcount(sim, DLB_OP_PUSH)->done;
		pulled += dlb_sim_opcount(sim, DLB_OP_PULL)->done;
		moved += dlb_sim_opcount(sim, DLB_OP_SELECT)->done;
		dlb_sim_free(sim);
		o.cpu_select = DLB_SIM_LINEAR;
		if (wlb_run(wl, &o, WLB_SCHED | WLB_DL, &lin, NULL, &err) < 0)
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx), linear: %s", set, (unsigned long long)s0,
				 err.msg);
		if (strcmp(heap.buf, lin.buf)) {
			size_t i = 0;

			while (heap.buf[i] == lin.buf[i])
				i++;
			while (i && heap.buf[i - 1] != '\n')
				i--;
			fail_msg("set %d (DLB_PROPERTY_SEED=0x%llx, %s, %d CPUs, %d tasks): heap and "
				 "linear schedules differ from\n  heap:   %.60s\n  linear: %.60s", set,
				 (unsigned long long)s0, model_of(state), m, n, heap.buf + i,
				 lin.buf + i);
		}
		free(lin.buf);
		free(heap.buf);
		wlb_free(wl);
	}
	/* the sets exercise what could make the two differ */
	if (!replay_seed && (!pushed || !pulled || !moved))
		fail_msg("the sets never pushed (%llu), pulled (%llu) or moved a waking task (%llu)",
			 pushed, pulled, moved);
}

/*
 * Mixed random workloads: -deadline, FIFO, RR and fair tasks; two or three
 * mutexes, with and without inheritance, nested in a global order so that
 * chains of owners form (a -deadline waiter boosting a fair owner that
 * waits for another); affinities of one or several CPUs; suspend/resume
 * and cond wait/signal between threads (cross-CPU wake-ups); sleeps,
 * yields, tick accounting and overheads, heap or linear.  No
 * schedulability claim: every invariant after every step, and the run
 * ends without error.
 */
static struct workload *mixed_set(u64 *seed, int m, int *nr)
{
	struct workload *wl = wlb_new(40 * MS);
	int n = 2 + (int)(rnd(seed) % 7), nm = 2 + (int)(rnd(seed) % 2), i, j;
	int mtx[3], wk = -1, cond = -1, cmtx = -1;

	for (j = 0; j < nm; j++) {
		char name[8];

		snprintf(name, sizeof(name), "m%d", j);
		mtx[j] = wlb_res(wl, name, WL_RES_MUTEX);
	}
	if (rnd(seed) % 2)
		wk = wlb_res(wl, "wk", WL_RES_WAKEUP);
	if (rnd(seed) % 2) {
		cond = wlb_res(wl, "cv", WL_RES_COND);
		cmtx = wlb_res(wl, "cm", WL_RES_MUTEX);
	}
	wl->global.pi_enabled = rnd(seed) % 4 != 0;
	for (i = 0; i < n; i++) {
		u64 period = (2000 + rnd(seed) % 8000) * US;
		u64 run = (50 + rnd(seed) % 2000) * US;
		int pol = (int)(rnd(seed) % 5), t, tmr, role = (int)(rnd(seed) % 6);
		char name[16];

		snprintf(name, sizeof(name), "x%d", i);
		if (pol >= 2) {
			t = wlb_task(wl, name, WL_POLICY_DEADLINE,
				     period / 8 > 1024 ? period / 8 : 1024, period, period);
			/* every other one reclaims (GRUB, mainline model; v4 ignores it) */
			if (i % 2)
				wl->tasks[t].dl.flags = DL_FLAG_RECLAIM;
		} else {
			t = wlb_task(wl, name, pol ? WL_POLICY_FIFO : WL_POLICY_OTHER, 0, 0, 0);
			wl->tasks[t].priority = pol ? 1 + (int)(rnd(seed) % 98) : 0;
			if (pol && rnd(seed) % 2)
				wl->tasks[t].policy = WL_POLICY_RR;
		}
		/* critical sections: a run of nested locks, taken in index order */
		if (rnd(seed) % 4) {
			int lo = (int)(rnd(seed) % (u64)nm), hi = lo + (int)(rnd(seed) % (u64)(nm - lo));

			for (j = lo; j <= hi; j++) {
				wlb_ev(wl, t, WL_EV_LOCK, 0, mtx[j]);
				wlb_ev(wl, t, WL_EV_RUN, run / 4, -1);
			}
			for (j = hi; j >= lo; j--)
				wlb_ev(wl, t, WL_EV_UNLOCK, 0, mtx[j]);
		}
		wlb_ev(wl, t, WL_EV_RUN, run, -1);
		if (wk >= 0 && role == 0)
			wlb_ev(wl, t, WL_EV_SUSPEND, 0, wk);
		if (wk >= 0 && role == 1)
			wlb_ev(wl, t, WL_EV_RESUME, 0, wk);
		if (cond >= 0 && role == 2) {
			wlb_ev(wl, t, WL_EV_LOCK, 0, cmtx);
			wlb_ev(wl, t, WL_EV_WAIT, 0, cond);
			wl->tasks[t].phases[0].events[wl->tasks[t].phases[0].nr_events - 1].dep = cmtx;
			wlb_ev(wl, t, WL_EV_UNLOCK, 0, cmtx);
		}
		if (cond >= 0 && role == 3)
			wlb_ev(wl, t, WL_EV_BROAD, 0, cond);
		if (rnd(seed) % 8 == 0)
			wlb_ev(wl, t, WL_EV_YIELD, 0, -1);
		if (pol >= 2) {
			snprintf(name, sizeof(name), "tm%d", i);
			tmr = wlb_res(wl, name, WL_RES_TIMER);
			wlb_ev(wl, t, WL_EV_TIMER, period, tmr);
		} else {
			wlb_ev(wl, t, WL_EV_SLEEP, period, -1);
		}
		if (m > 1 && rnd(seed) % 3 == 0) {
			unsigned int c;

			wl->tasks[t].has_cpus = true;
			for (c = 0; c < (unsigned int)m; c++)
				if (rnd(seed) % 2)
					dlb_cpumask_set(&wl->tasks[t].cpus, c);
			if (!dlb_cpumask_weight(&wl->tasks[t].cpus))
				dlb_cpumask_set(&wl->tasks[t].cpus, (unsigned int)(rnd(seed) % (u64)m));
		}
		wl->tasks[t].delay_ns = rnd(seed) % 3 * MS;
	}
	*nr = n;
	return wl;
}

static void test_mixed_invariants(void **state)
{
	int set, nsets = nr_sets / 3 > 0 ? nr_sets / 3 : 1;

	if (replay_seed)
		nsets = 1;
	for (set = 0; set < nsets; set++) {
		u64 seed = property_seed(0x5eed4, set), s0 = seed;
		int m = 1 + (int)(rnd(&seed) % 4), n;
		struct workload *wl = mixed_set(&seed, m, &n);
		struct dlb_sim_opts o;
		struct wlb_log log;
		struct dlb_err err;

		prop_opts(&o, m, state);
		o.cpu_select = rnd(&seed) & 1 ? DLB_SIM_LINEAR : DLB_SIM_HEAP;
		if (rnd(&seed) % 3 == 0)
			o.tick_ns = (1 + rnd(&seed) % 4) * MS;
		if (rnd(&seed) % 3 == 0) {
			o.ctx_switch_ns = rnd(&seed) % 50 * US;
			o.migration_ns = rnd(&seed) % 100 * US;
		}
		if (wlb_run(wl, &o, WLB_SCHED, &log, NULL, &err) < 0)
			fail_msg("mixed set %d (DLB_PROPERTY_SEED=0x%llx: %s, %d CPUs, %d tasks): %s",
				 set, (unsigned long long)s0, model_of(state), m, n, err.msg);
		free(log.buf);
		wlb_free(wl);
	}
}

/*
 * The fair server (mainline) over random partitioned sets on 1-3 CPUs, 3 s:
 * on every CPU a FIFO hog that never sleeps, -deadline periodic tasks
 * pinned there (U <= 0.5 per CPU), and on some CPUs 1-2 busy fair tasks.
 * Each CPU's server defers to zero laxity (~0.95 s), then must give 50 ms
 * before its deadline (~1.95 s) and 50 ms in its next period (before ~2.95
 * s): EDF with U <= 0.55 per CPU.  So the fair tasks of a CPU get >= 100 ms,
 * the -deadline tasks miss nothing, and every invariant holds after every
 * step; v4 (no server) gives the fair tasks nothing.
 */
static struct workload *starved_set(u64 *seed, int m, int *fair_cpu, int *nr)
{
	struct workload *wl = wlb_new(3000 * MS);
	int c, i, n = 0;

	for (c = 0; c < m; c++) {
		double left = 0.5 * urand(seed);
		char name[16];
		int t, nd = (int)(rnd(seed) % 4), nf = (int)(rnd(seed) % 3);

		snprintf(name, sizeof(name), "h%d", c);
		t = wlb_task(wl, name, WL_POLICY_FIFO, 0, 0, 0);
		wl->tasks[t].priority = 1 + (int)(rnd(seed) % 98);
		wlb_ev(wl, t, WL_EV_RUN, 3000 * MS, -1);
		fair_cpu[t] = -1;
		for (i = 0; i < nd + nf; i++) {
			u64 period = (2000 + rnd(seed) % 18001) * US;

			if (i < nd) {
				u64 run = (u64)(left / nd * (double)(period / US)) * US;

				if (run < 10 * US)
					run = 10 * US;
				snprintf(name, sizeof(name), "d%d.%d", c, i);
				t = wlb_periodic(wl, name, run, period, period, run);
				fair_cpu[t] = -1;
			} else {
				snprintf(name, sizeof(name), "f%d.%d", c, i);
				t = wlb_task(wl, name, WL_POLICY_OTHER, 0, 0, 0);
				wlb_ev(wl, t, WL_EV_RUN, 3000 * MS, -1);
				fair_cpu[t] = c;
			}
			wl->tasks[t].delay_ns = rnd(seed) % 20 * MS;
		}
		for (i = (int)wl->nr_tasks - nd - nf - 1; i < (int)wl->nr_tasks; i++) {
			wl->tasks[i].has_cpus = true;
			dlb_cpumask_set(&wl->tasks[i].cpus, (unsigned int)c);
		}
		n += 1 + nd + nf;
	}
	*nr = n;
	return wl;
}

static void test_fair_server_starved(void **state)
{
	int set, nsets = nr_sets / 20 > 0 ? nr_sets / 20 : 1;

	if (replay_seed)
		nsets = 1;
	for (set = 0; set < nsets; set++) {
		u64 seed = property_seed(0x5eed5, set), s0 = seed, fair[3] = { 0, 0, 0 };
		int m = 1 + (int)(rnd(&seed) % 3), n, fair_cpu[3 * 8], c;
		struct workload *wl = starved_set(&seed, m, fair_cpu, &n);
		bool has_fair[3] = { false, false, false };
		struct dlb_sim_opts o;
		struct wlb_log log;
		struct dlb_sim *sim = NULL;
		struct dlb_err err;
		size_t i;

		prop_opts(&o, m, state);
		if (wlb_run(wl, &o, 0, &log, &sim, &err) < 0)
			fail_msg("starved set %d (DLB_PROPERTY_SEED=0x%llx: %s, %d CPUs, %d tasks): %s",
				 set, (unsigned long long)s0, model_of(state), m, n, err.msg);
		for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
			struct dlb_sim_task_stats st;

			dlb_sim_task_stats(sim, i, &st);
			if (fair_cpu[st.task] >= 0) {
				has_fair[fair_cpu[st.task]] = true;
				fair[fair_cpu[st.task]] += st.sum_exec_runtime;
			} else if (st.jobs_missed || st.late_pending) {
				fail_msg("starved set %d (DLB_PROPERTY_SEED=0x%llx: %s): %s missed %llu",
					 set, (unsigned long long)s0, model_of(state), st.comm,
					 (unsigned long long)st.jobs_missed);
			}
		}
		for (c = 0; c < m; c++) {
			bool v4 = !strcmp(model_of(state), "v4");

			if (has_fair[c] && (v4 ? fair[c] != 0 : fair[c] < 100 * MS))
				fail_msg("starved set %d (DLB_PROPERTY_SEED=0x%llx: %s): the fair tasks "
					 "of cpu %d ran %llu us", set, (unsigned long long)s0,
					 model_of(state), c, (unsigned long long)(fair[c] / US));
		}
		dlb_sim_free(sim);
		free(log.buf);
		wlb_free(wl);
	}
}

/* The prestate of the mainline runs (cmocka wants a non-const pointer). */
#define ML ((void *)(uintptr_t)"mainline")

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniprocessor_edf),
		cmocka_unit_test(test_global_edf_gfb),
		cmocka_unit_test(test_heap_linear_same),
		cmocka_unit_test(test_mixed_invariants),
		{ "test_uniprocessor_edf (mainline)", test_uniprocessor_edf, NULL, NULL, ML },
		{ "test_global_edf_gfb (mainline)", test_global_edf_gfb, NULL, NULL, ML },
		{ "test_heap_linear_same (mainline)", test_heap_linear_same, NULL, NULL, ML },
		{ "test_mixed_invariants (mainline)", test_mixed_invariants, NULL, NULL, ML },
		cmocka_unit_test(test_fair_server_starved),
		{ "test_fair_server_starved (mainline)", test_fair_server_starved, NULL, NULL, ML },
	};
	const char *n = getenv("DLB_PROPERTY_SETS"), *seed = getenv("DLB_PROPERTY_SEED");

	if (n && atoi(n) > 0)
		nr_sets = atoi(n);
	if (seed)
		replay_seed = strtoull(seed, NULL, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
