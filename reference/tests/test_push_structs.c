// SPDX-License-Identifier: GPL-2.0
/*
 * The three global push structures against brute force on random inputs
 * (seeded, so a failure replays): cpupri (sched_rt's, cpupri.c), the cpudl
 * heap's find with affinity and later_mask (patch 007; its set is checked
 * in test_structs.c), and the linear scan latest_cpu_find (patch 004,
 * reached through sched_bench_set_cpu_dl/sched_bench_find).  Each is held
 * to its own specification: cpudl looks at the heap's root only, the scan
 * at every CPU, so they may differ when the root is outside the affinity.
 * CPU counts straddle the 64-bit mask words.
 */
#include "dlb_test.h"

#include <string.h>

#include "../cpupri.h"
#include "../sched.h"

static const int cpu_counts[] = { 1, 2, 3, 37, 64, 65, 130, 1024 };

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random affinity: all CPUs, one CPU, or each CPU with probability 1/2. */
static void rnd_mask(u64 *seed, int cpus, struct dlb_cpumask *m)
{
	u64 kind = rnd(seed) % 4;
	int c;

	dlb_cpumask_clear(m);
	if (kind == 0) {
		dlb_cpumask_set(m, (unsigned int)(rnd(seed) % (u64)cpus));
		return;
	}
	for (c = 0; c < cpus; c++)
		if (kind == 1 || rnd(seed) & 1)
			dlb_cpumask_set(m, (unsigned int)c);
}

/* Kernel priorities a CPU can have: invalid, idle, normal, or RT 0..99. */
static int rnd_prio(u64 *seed)
{
	u64 r = rnd(seed) % 16;

	if (r == 0)
		return CPUPRI_INVALID;
	if (r == 1)
		return 140;
	if (r == 2)
		return 100 + (int)(rnd(seed) % 40);
	/* a few RT levels crowd, as a busy system's do */
	return r < 8 ? 90 + (int)(rnd(seed) % 10) : (int)(rnd(seed) % 100);
}

static int brute_level(int prio)
{
	if (prio == CPUPRI_INVALID)
		return CPUPRI_INVALID;
	if (prio >= 140)
		return CPUPRI_IDLE;
	if (prio >= 100)
		return CPUPRI_NORMAL;
	return 101 - prio;
}

static void test_cpupri_convert(void **state)
{
	(void)state;
	assert_int_equal(cpupri_convert_prio(CPUPRI_INVALID), CPUPRI_INVALID);
	assert_int_equal(cpupri_convert_prio(140), CPUPRI_IDLE);
	assert_int_equal(cpupri_convert_prio(120), CPUPRI_NORMAL);
	assert_int_equal(cpupri_convert_prio(100), CPUPRI_NORMAL);
	assert_int_equal(cpupri_convert_prio(99), 2);
	assert_int_equal(cpupri_convert_prio(0), 101);
}

/*
 * After every random cpupri_set: cpupri_check, and the level of every CPU
 * is the brute-force one.  After every random cpupri_find: the answer and
 * lowest_mask are those of a scan over all CPUs for the lowest level below
 * the task's among the allowed CPUs.
 */
static void test_cpupri_random(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cpu_counts) / sizeof(cpu_counts[0]); k++) {
		int cpus = cpu_counts[k], ops = cpus > 200 ? 3000 : 20000, op, c;
		int *lvl = malloc(sizeof(int) * (size_t)cpus);
		u64 seed = 11 + (u64)cpus;
		struct cpupri cp;
		const char *why = NULL;

		assert_non_null(lvl);
		assert_int_equal(cpupri_init(&cp, cpus), 0);
		for (c = 0; c < cpus; c++)
			lvl[c] = CPUPRI_INVALID;
		for (op = 0; op < ops; op++) {
			if (rnd(&seed) & 1) {
				int prio = rnd_prio(&seed);

				c = (int)(rnd(&seed) % (u64)cpus);
				cpupri_set(&cp, c, prio);
				lvl[c] = brute_level(prio);
				if (cpupri_check(&cp, &why) < 0)
					fail_msg("%d CPUs, op %d: %s", cpus, op, why);
				for (c = 0; c < cpus; c++)
					assert_int_equal(cp.cpu_to_pri[c], lvl[c]);
			} else {
				struct dlb_cpumask allowed, lowest, want;
				int prio = rnd_prio(&seed), tl, best = CPUPRI_NR_PRIORITIES, got;

				if (prio == CPUPRI_INVALID)
					prio = 50;
				tl = brute_level(prio);
				rnd_mask(&seed, cpus, &allowed);
				for (c = 0; c < cpus; c++)
					if (dlb_cpumask_test(&allowed, (unsigned int)c) &&
					    lvl[c] != CPUPRI_INVALID && lvl[c] < tl && lvl[c] < best)
						best = lvl[c];
				dlb_cpumask_clear(&want);
				for (c = 0; c < cpus; c++)
					if (dlb_cpumask_test(&allowed, (unsigned int)c) && lvl[c] == best)
						dlb_cpumask_set(&want, (unsigned int)c);
				memset(&lowest, 0xa5, sizeof(lowest));
				got = cpupri_find(&cp, prio, &allowed, &lowest);
				if (got != (best < CPUPRI_NR_PRIORITIES))
					fail_msg("%d CPUs, op %d: find says %d", cpus, op, got);
				if (got && memcmp(&lowest, &want, sizeof(want)))
					fail_msg("%d CPUs, op %d: lowest_mask differs", cpus, op);
				assert_int_equal(cpupri_find(&cp, prio, &allowed, NULL), got);
			}
		}
		cpupri_cleanup(&cp);
		free(lvl);
	}
}

/* What cpudl_find must answer, from the per-CPU deadlines alone (0: free). */
static int brute_cpudl_find(const u64 *dl, int cpus, u64 task_dl,
			    const struct dlb_cpumask *allowed, struct dlb_cpumask *want)
{
	int c, max = -1;

	dlb_cpumask_clear(want);
	for (c = 0; c < cpus; c++)
		if (!dl[c] && dlb_cpumask_test(allowed, (unsigned int)c))
			dlb_cpumask_set(want, (unsigned int)c);
	if (dlb_cpumask_weight(want))
		return (int)dlb_cpumask_next(want, 0);
	/* the root: the latest deadline, the lower CPU on ties */
	for (c = 0; c < cpus; c++)
		if (dl[c] && (max < 0 || dl_time_before(dl[max], dl[c])))
			max = c;
	if (max < 0 || !dlb_cpumask_test(allowed, (unsigned int)max) ||
	    !dl_time_before(task_dl, dl[max]))
		return -1;
	dlb_cpumask_set(want, (unsigned int)max);
	return max;
}

/* What latest_cpu_find must answer: first free allowed CPU, else the latest preemptable. */
static int brute_linear_find(const u64 *dl, int cpus, u64 task_dl,
			     const struct dlb_cpumask *allowed, struct dlb_cpumask *want)
{
	int c, found = -1;

	dlb_cpumask_clear(want);
	for (c = 0; c < cpus; c++)
		if (dlb_cpumask_test(allowed, (unsigned int)c) &&
		    (!dl[c] || dl_time_before(task_dl, dl[c])))
			dlb_cpumask_set(want, (unsigned int)c);
	for (c = 0; c < cpus; c++)
		if (!dl[c] && dlb_cpumask_test(allowed, (unsigned int)c))
			return c;
	for (c = 0; c < cpus; c++)
		if (dlb_cpumask_test(want, (unsigned int)c) &&
		    (found < 0 || dl_time_before(dl[found], dl[c])))
			found = c;
	return found;
}

/*
 * Random per-CPU earliest deadlines (few distinct values, so ties happen)
 * set through the scheduler's own path, then random finds: the CPU and the
 * later_mask are the brute-force ones, for the heap and for the scan.
 */
static void run_select_random(enum cpu_select sel)
{
	size_t k;

	for (k = 0; k < sizeof(cpu_counts) / sizeof(cpu_counts[0]); k++) {
		int cpus = cpu_counts[k], ops = cpus > 200 ? 3000 : 20000, op, c;
		struct sched_create_opts o = { .nr_cpus = cpus, .cpu_select = sel };
		u64 *dl = calloc((size_t)cpus, sizeof(u64)), seed = 5 + (u64)cpus;
		struct task_struct p;
		struct sched_ops ops_;
		struct dlb_err err;
		struct sched *s;
		const char *why = NULL;

		assert_non_null(dl);
		memset(&ops_, 0, sizeof(ops_));
		s = sched_create(&o, &ops_, &err);
		assert_non_null(s);
		memset(&p, 0, sizeof(p));
		sched_task_init(s, &p, 1, "find", 0);
		for (op = 0; op < ops; op++) {
			struct dlb_cpumask want, *later = &s->local_cpu_mask_dl[0];
			int got, exp;

			if (rnd(&seed) % 3) {
				c = (int)(rnd(&seed) % (u64)cpus);
				dl[c] = rnd(&seed) % 4 ? 1000 + rnd(&seed) % 50 : 0;
				sched_bench_set_cpu_dl(s, c, dl[c]);
				if (sel == CPU_SELECT_HEAP && cpudl_check(&s->rd.cpudl, &why) < 0)
					fail_msg("%d CPUs, op %d: %s", cpus, op, why);
				continue;
			}
			rnd_mask(&seed, cpus, &p.cpus_allowed);
			p.dl.deadline = 990 + rnd(&seed) % 70;
			got = sched_bench_find(s, &p);
			if (sel == CPU_SELECT_HEAP)
				exp = brute_cpudl_find(dl, cpus, p.dl.deadline, &p.cpus_allowed, &want);
			else
				exp = brute_linear_find(dl, cpus, p.dl.deadline, &p.cpus_allowed, &want);
			if (got != exp)
				fail_msg("%s, %d CPUs, op %d: found %d, brute force %d",
					 sel == CPU_SELECT_HEAP ? "heap" : "linear", cpus, op, got, exp);
			if (memcmp(later, &want, sizeof(want)))
				fail_msg("%s, %d CPUs, op %d: later_mask differs",
					 sel == CPU_SELECT_HEAP ? "heap" : "linear", cpus, op);
		}
		sched_free(s);
		free(dl);
	}
}

static void test_cpudl_find_random(void **state)
{
	(void)state;
	run_select_random(CPU_SELECT_HEAP);
}

static void test_linear_find_random(void **state)
{
	(void)state;
	run_select_random(CPU_SELECT_LINEAR);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The fine histogram the OSPERT boxplots are read from: every quantile
 * within 1/128 of the sorted samples' (one bucket), min and max exact, and
 * two halves merged give the whole.
 */
static void test_opstat_quantiles(void **state)
{
	enum { N = 20000 };
	static const double qs[] = { 0, 0.25, 0.5, 0.75, 0.99, 1 };
	struct dlb_opstat *all = calloc(1, sizeof(*all)), *half = calloc(2, sizeof(*half));
	struct dlb_opcount merged;
	u64 *v = malloc(N * sizeof(u64)), seed = 3;
	size_t i;

	(void)state;
	assert_non_null(all);
	assert_non_null(half);
	assert_non_null(v);
	for (i = 0; i < N; i++) {
		/* 1 .. 2^30, log-spread, with a cluster near 1500 like a set's cost */
		v[i] = rnd(&seed) % 3 ? 1400 + rnd(&seed) % 300 : 1 + (rnd(&seed) >> (34 + rnd(&seed) % 30));
		dlb_opstat_add(all, DLB_OP_SET, v[i], true);
		dlb_opstat_add(&half[i & 1], DLB_OP_SET, v[i], true);
	}
	qsort(v, N, sizeof(u64), cmp_u64);
	memset(&merged, 0, sizeof(merged));
	dlb_opcount_merge(&merged, &half[0].op[DLB_OP_SET]);
	dlb_opcount_merge(&merged, &half[1].op[DLB_OP_SET]);
	assert_memory_equal(&merged, &all->op[DLB_OP_SET], sizeof(merged));
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t k = (size_t)(qs[i] * N) < N ? (size_t)(qs[i] * N) : N - 1;
		u64 got = dlb_opcount_quantile(&all->op[DLB_OP_SET], qs[i]), want = v[k];
		u64 tol = want / 128 + 1;

		if (got + tol < want || got > want + tol)
			fail_msg("q %.2f: histogram %llu, samples %llu", qs[i], (unsigned long long)got,
				 (unsigned long long)want);
	}
	assert_int_equal(dlb_opcount_quantile(&all->op[DLB_OP_SET], 0), v[0]);
	assert_int_equal(dlb_opcount_quantile(&all->op[DLB_OP_SET], 1), v[N - 1]);
	free(all);
	free(half);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpupri_convert),
		cmocka_unit_test(test_cpupri_random),
		cmocka_unit_test(test_cpudl_find_random),
		cmocka_unit_test(test_linear_find_random),
		cmocka_unit_test(test_opstat_quantiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
