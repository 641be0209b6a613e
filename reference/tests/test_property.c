// SPDX-License-Identifier: GPL-2.0
/*
 * Properties over random task sets (seeded, reproducible): every invariant
 * after every simulator step (o.check); EDF on 1 CPU with U <= 1 and
 * implicit deadlines misses nothing; global EDF on M CPUs under the GFB
 * bound U <= M - (M-1) u_max misses nothing (Goossens, Funk, Baruah 2003);
 * the heap (cpudl) and the linear scan choose the same CPUs, so the two
 * schedules are the same event for event.
 *
 * DLB_PROPERTY_SETS=N overrides the number of sets per property (default 1000).
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

static void check_no_miss(struct dlb_sim *sim, const char *desc, int set)
{
	size_t i;

	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, i, &st);
		if (st.jobs_missed || st.late_pending || st.dmiss_max)
			fail_msg("set %d (%d CPUs:%s): %s missed %llu jobs (pending late %llu, "
				 "dmiss_max %llu)", set, dlb_sim_nr_cpus(sim), desc, st.comm,
				 (unsigned long long)st.jobs_missed,
				 (unsigned long long)st.late_pending,
				 (unsigned long long)st.dmiss_max);
		if (!st.jobs)
			fail_msg("set %d:%s: %s finished no job", set, desc, st.comm);
	}
}

static void run_sets(int m_min, int m_max, u64 seed0, bool compare)
{
	u64 seed = seed0;
	int set;

	for (set = 0; set < nr_sets; set++) {
		int m = m_min + (int)(rnd(&seed) % (u64)(m_max - m_min + 1));
		char desc[512];
		struct workload *wl = random_set(&seed, m, desc, sizeof(desc));
		struct dlb_sim_opts o;
		struct wlb_log heap, lin;
		struct dlb_sim *sim = NULL;
		struct dlb_err err;

		dlb_sim_opts_init(&o);
		o.nr_cpus = m;
		o.admission = false;
		o.check = true;
		o.timed = false;
		if (wlb_run(wl, &o, WLB_SCHED | WLB_DL, &heap, &sim, &err) < 0)
			fail_msg("set %d (%d CPUs:%s): %s", set, m, desc, err.msg);
		check_no_miss(sim, desc, set);
		dlb_sim_free(sim);
		if (compare) {
			o.cpu_select = DLB_SIM_LINEAR;
			if (wlb_run(wl, &o, WLB_SCHED | WLB_DL, &lin, NULL, &err) < 0)
				fail_msg("set %d (linear): %s", set, err.msg);
			if (strcmp(heap.buf, lin.buf))
				fail_msg("set %d (%d CPUs:%s): heap and linear schedules differ",
					 set, m, desc);
			free(lin.buf);
		}
		free(heap.buf);
		wlb_free(wl);
	}
}

static void test_uniprocessor_edf(void **state)
{
	(void)state;
	run_sets(1, 1, 0x5eed1, false);
}

static void test_global_edf_gfb(void **state)
{
	(void)state;
	run_sets(2, 8, 0x5eed2, false);
}

static void test_heap_linear_same(void **state)
{
	(void)state;
	run_sets(2, 8, 0x5eed3, true);
}

/*
 * Mixed random workloads: -deadline, FIFO, RR and fair tasks, shared
 * mutexes with and without inheritance, sleeps, yields, pinned tasks, tick
 * accounting and overheads, heap or linear.  No schedulability claim: every
 * invariant after every step, and the run ends without error.
 */
static void test_mixed_invariants(void **state)
{
	u64 seed = 0x5eed4;
	int set, nsets = nr_sets / 3 > 0 ? nr_sets / 3 : 1;

	(void)state;
	for (set = 0; set < nsets; set++) {
		struct workload *wl = wlb_new(40 * MS);
		int m = 1 + (int)(rnd(&seed) % 4), n = 2 + (int)(rnd(&seed) % 6), i;
		int mtx = wlb_res(wl, "m", WL_RES_MUTEX);
		struct dlb_sim_opts o;
		struct wlb_log log;
		struct dlb_err err;

		wl->global.pi_enabled = rnd(&seed) & 1;
		for (i = 0; i < n; i++) {
			u64 period = (2000 + rnd(&seed) % 8000) * US;
			u64 run = (50 + rnd(&seed) % 2000) * US;
			int pol = (int)(rnd(&seed) % 5), t, tmr;
			char name[16];

			snprintf(name, sizeof(name), "m%d", i);
			if (pol >= 2) {
				t = wlb_task(wl, name, WL_POLICY_DEADLINE,
					     period / 8 > 1024 ? period / 8 : 1024, period, period);
			} else {
				t = wlb_task(wl, name, pol ? WL_POLICY_FIFO : WL_POLICY_OTHER, 0, 0, 0);
				wl->tasks[t].priority = pol ? 1 + (int)(rnd(&seed) % 98) : 0;
				if (pol && rnd(&seed) % 2)
					wl->tasks[t].policy = WL_POLICY_RR;
			}
			if (rnd(&seed) % 2) {	/* a critical section first */
				wlb_ev(wl, t, WL_EV_LOCK, 0, mtx);
				wlb_ev(wl, t, WL_EV_RUN, run / 2, -1);
				wlb_ev(wl, t, WL_EV_UNLOCK, 0, mtx);
			}
			wlb_ev(wl, t, WL_EV_RUN, run, -1);
			if (rnd(&seed) % 8 == 0)
				wlb_ev(wl, t, WL_EV_YIELD, 0, -1);
			if (pol >= 2) {
				snprintf(name, sizeof(name), "tm%d", i);
				tmr = wlb_res(wl, name, WL_RES_TIMER);
				wlb_ev(wl, t, WL_EV_TIMER, period, tmr);
			} else {
				wlb_ev(wl, t, WL_EV_SLEEP, period, -1);
			}
			if (m > 1 && rnd(&seed) % 5 == 0) {
				wl->tasks[t].has_cpus = true;
				dlb_cpumask_set(&wl->tasks[t].cpus, (unsigned int)(rnd(&seed) % (u64)m));
			}
			wl->tasks[t].delay_ns = rnd(&seed) % 3 * MS;
		}
		dlb_sim_opts_init(&o);
		o.nr_cpus = m;
		o.admission = false;
		o.check = true;
		o.timed = false;
		o.cpu_select = rnd(&seed) & 1 ? DLB_SIM_LINEAR : DLB_SIM_HEAP;
		if (rnd(&seed) % 3 == 0)
			o.tick_ns = (1 + rnd(&seed) % 4) * MS;
		if (rnd(&seed) % 3 == 0) {
			o.ctx_switch_ns = rnd(&seed) % 50 * US;
			o.migration_ns = rnd(&seed) % 100 * US;
		}
		if (wlb_run(wl, &o, WLB_SCHED, &log, NULL, &err) < 0)
			fail_msg("mixed set %d (%d CPUs, %d tasks): %s", set, m, n, err.msg);
		free(log.buf);
		wlb_free(wl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniprocessor_edf),
		cmocka_unit_test(test_global_edf_gfb),
		cmocka_unit_test(test_heap_linear_same),
		cmocka_unit_test(test_mixed_invariants),
	};
	const char *n = getenv("DLB_PROPERTY_SETS");

	if (n && atoi(n) > 0)
		nr_sets = atoi(n);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
