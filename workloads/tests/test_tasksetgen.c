// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-tasksetgen's generator: the PRNG against published vectors, sums and
 * bounds, rounding, determinism, and the distributions.
 *
 * The statistical tests draw from fixed seeds, so each gives the same
 * verdict on every run; the critical values are those of a 0.1 % test, so a
 * correct generator passes them by a margin while a wrong one (e.g.
 * uniform draws scaled to the sum: D = 0.065 against a critical 0.014 for
 * 20000 draws) fails.
 */
#include "dlb_test.h"

#include <math.h>
#include <string.h>

#include "../tsgen.h"

#define DRAWS		20000
/* Kolmogorov-Smirnov, alpha = 0.001: one sample, and two samples of DRAWS each */
#define KS1_CRIT	(1.9495 / sqrt(DRAWS))
#define KS2_CRIT	(1.9495 * sqrt(2.0 / DRAWS))

/* ---- PRNG ---- */

static void test_rng_vectors(void **state)
{
	/* xoshiro256** from the state {1, 2, 3, 4}: the reference code's outputs */
	static const u64 want[] = { 11520, 0, 1509978240, 1215971899390074240ULL };
	struct tsg_rng r = { .s = { 1, 2, 3, 4 } };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_true(tsg_rng_next(&r) == want[i]);
	/* splitmix64 from 0: its first outputs seed the state */
	tsg_rng_seed(&r, 0);
	assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
	assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
}

static void test_rng_ranges(void **state)
{
	struct tsg_rng r;
	unsigned int hits[7] = { 0 }, i;
	double x;

	(void)state;
	tsg_rng_seed(&r, 7);
	for (i = 0; i < 70000; i++) {
		x = tsg_rng_open01(&r);
		assert_true(x > 0 && x < 1);
		hits[tsg_rng_below(&r, 7)]++;
	}
	/* each of 7 values 10000 times: 5.4 sigma is 500 */
	for (i = 0; i < 7; i++)
		assert_in_range(hits[i], 9500, 10500);
	assert_int_equal(tsg_rng_below(&r, 1), 0);
}

/* ---- sums and bounds ---- */

static const struct {
	unsigned int n;
	double u;
} shapes[] = {
	{ 1, 0.3 }, { 1, 1 }, { 2, 0.1 }, { 2, 1 }, { 2, 1.9 }, { 3, 1.5 }, { 4, 2 },
	{ 4, 3.999 }, { 5, 5 }, { 8, 0.01 }, { 16, 11.2 }, { 64, 32 }, { 200, 160 },
	{ 2048, 819.2 }, { 4096, 4000 },
};

static void check_vector(const double *u, unsigned int n, double total)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		assert_true(u[i] >= 0 && u[i] <= 1);
		sum += u[i];
	}
	if (fabs(sum - total) > 1e-9 * (n + total))
		fail_msg("n %u: sum %.17g, want %.17g", n, sum, total);
}

static void test_randfixedsum_sums(void **state)
{
	struct tsg_rng r;
	double *u = malloc(sizeof(double) * TSG_TASKS_MAX);
	size_t s;
	int k;

	(void)state;
	assert_non_null(u);
	tsg_rng_seed(&r, 11);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		for (k = 0; k < (shapes[s].n > 100 ? 3 : 200); k++) {
			assert_int_equal(tsg_randfixedsum(&r, shapes[s].n, shapes[s].u, u), 0);
			check_vector(u, shapes[s].n, shapes[s].u);
		}
	}
	free(u);
}

static void test_uunifast_discard_sums(void **state)
{
	struct tsg_rng r;
	unsigned long draws;
	double u[64];
	size_t s;
	int k;

	(void)state;
	tsg_rng_seed(&r, 12);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]) && shapes[s].n <= 16; s++) {
		/* near U = n almost every draw is thrown away: keep to the easy ones */
		if (shapes[s].u > 0.6 * shapes[s].n && shapes[s].n > 2)
			continue;
		for (k = 0; k < 200; k++) {
			assert_int_equal(tsg_uunifast_discard(&r, shapes[s].n, shapes[s].u, u,
							      1000000, &draws), 0);
			assert_true(draws >= 1);
			check_vector(u, shapes[s].n, shapes[s].u);
		}
	}
	/* 20 tasks at U = 15: a u > 1 in practically every draw */
	assert_int_equal(tsg_uunifast_discard(&r, 20, 15, u, 1000, &draws), TSG_UTIL_GAVE_UP);
	assert_int_equal(draws, 1000);
}

/* ---- whole sets ---- */

static struct tsg_params params(unsigned int n, double total, u64 seed)
{
	struct tsg_params p;

	tsg_params_init(&p);
	p.nr_tasks = n;
	p.total_util = total;
	p.seed = seed;
	return p;
}

/*
 * Runtime = u T rounded to the nearest µs, at least 2 µs: each task is off
 * by at most half a µs unless clamped, so the achieved sum is within
 * n x 0.5 µs / T_min of the target.
 */
static void test_set_rounding(void **state)
{
	static const double totals[] = { 0.05, 1.4, 3.2, 7.99, 8 };
	struct tsg_set set;
	size_t t;
	unsigned int i;
	u64 seed;

	(void)state;
	for (t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		for (seed = 1; seed <= 50; seed++) {
			struct tsg_params p = params(8, totals[t], seed);
			double sum = 0, bound = 0, exact;

			assert_int_equal(tsg_generate(&p, &set), 0);
			for (i = 0; i < set.nr_tasks; i++) {
				const struct tsg_task *tk = &set.tasks[i];

				exact = tk->util * (double)tk->period_us;
				assert_true(tk->runtime_us >= TSG_RUNTIME_MIN_US);
				assert_true(tk->runtime_us <= tk->period_us);
				assert_true(tk->runtime_us == TSG_RUNTIME_MIN_US ||
					    fabs((double)tk->runtime_us - exact) <= 0.5);
				assert_true(tk->deadline_us == tk->period_us);
				assert_true(tk->run_us == tk->runtime_us);
				sum += (double)tk->runtime_us / (double)tk->period_us;
				bound += fmax(0.5, TSG_RUNTIME_MIN_US - exact) /
					 (double)tk->period_us;
			}
			assert_true(fabs(sum - set.achieved_util) < 1e-12);
			if (fabs(sum - totals[t]) > bound + 1e-12)
				fail_msg("U %g seed %llu: achieved %.9f", totals[t],
					 (unsigned long long)seed, sum);
			if (totals[t] >= 1)
				assert_true(fabs(sum - totals[t]) <= 8 * 0.5 / 10000 + 1e-12);
			tsg_set_free(&set);
		}
	}
}

static char *set_json(const struct tsg_params *p)
{
	struct tsg_set set;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(tsg_generate(p, &set), 0);
	assert_int_equal(tsg_write_json(f, p, &set), 0);
	assert_int_equal(fclose(f), 0);
	tsg_set_free(&set);
	return buf;
}

static void test_same_seed_same_bytes(void **state)
{
	struct tsg_params p = params(24, 9.6, 42);
	char *a, *b, *c;

	(void)state;
	p.dl_lo = 0.2;
	p.dl_hi = 0.9;
	a = set_json(&p);
	b = set_json(&p);
	assert_string_equal(a, b);
	p.seed = 43;
	c = set_json(&p);
	assert_string_not_equal(a, c);
	free(c);
	p.seed = 42;
	p.alg = TSG_UUNIFAST_DISCARD;
	c = set_json(&p);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
}

/* Constrained deadlines: C <= D <= T, (D - C) / (T - C) uniform in [lo, hi]. */
static double uniform_cdf_lo, uniform_cdf_hi;

static double uniform_cdf(double x)
{
	return fmin(fmax((x - uniform_cdf_lo) / (uniform_cdf_hi - uniform_cdf_lo), 0), 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One-sample KS distance of @v (sorted here) from @cdf. */
static double ks1(double *v, size_t n, double (*cdf)(double))
{
	double d = 0, f;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++) {
		f = cdf(v[i]);
		d = fmax(d, fmax(f - (double)i / n, (double)(i + 1) / n - f));
	}
	return d;
}

static void test_deadlines(void **state)
{
	struct tsg_params p = params(20, 6, 5);
	double *x = malloc(sizeof(double) * DRAWS), d;
	struct tsg_set set;
	size_t k = 0;
	unsigned int i;

	(void)state;
	assert_non_null(x);
	p.dl_lo = 0.25;
	p.dl_hi = 0.75;
	p.run_ratio = 0.5;
	while (k < DRAWS) {
		p.seed++;
		assert_int_equal(tsg_generate(&p, &set), 0);
		for (i = 0; i < set.nr_tasks && k < DRAWS; i++) {
			const struct tsg_task *tk = &set.tasks[i];

			assert_true(tk->runtime_us <= tk->deadline_us);
			assert_true(tk->deadline_us <= tk->period_us);
			assert_true(llabs((long long)tk->run_us - (long long)(tk->runtime_us / 2)) <= 1);
			x[k++] = (double)(tk->deadline_us - tk->runtime_us) /
				 (double)(tk->period_us - tk->runtime_us);
		}
		tsg_set_free(&set);
	}
	uniform_cdf_lo = 0.25;
	uniform_cdf_hi = 0.75;
	d = ks1(x, DRAWS, uniform_cdf);
	print_message("# deadline ratio: KS D %.4f (critical %.4f)\n", d, KS1_CRIT);
	assert_true(d < KS1_CRIT);

	/* lo = hi = 0: D = C */
	p.dl_lo = p.dl_hi = 0;
	assert_int_equal(tsg_generate(&p, &set), 0);
	for (i = 0; i < set.nr_tasks; i++)
		assert_true(set.tasks[i].deadline_us == set.tasks[i].runtime_us);
	tsg_set_free(&set);
	free(x);
}

/* ---- the distribution of the utilisations ---- */

/* Irwin-Hall CDF: the sum of @m uniforms on [0,1] is <= @t. */
static double irwin_hall_cdf(unsigned int m, double t)
{
	double sum = 0, binom = 1, fact = 1;
	unsigned int k;

	if (t <= 0)
		return 0;
	if (t >= m)
		return 1;
	for (k = 2; k <= m; k++)
		fact *= k;
	for (k = 0; k <= m && k <= t; k++) {
		sum += (k % 2 ? -1 : 1) * binom * pow(t - k, m);
		binom = binom * (m - k) / (k + 1);
	}
	return sum / fact;
}

/*
 * Uniform on {u in [0,1]^n : sum u = U}: u_1 has the density
 * f_{n-1}(U - x) on [0, 1], f the Irwin-Hall density of the other n - 1,
 * so P(u_1 <= x) = (F(U) - F(U - x)) / (F(U) - F(U - 1)).
 */
static unsigned int marg_n;
static double marg_u;

static double marginal_cdf(double x)
{
	double top = irwin_hall_cdf(marg_n - 1, marg_u);

	return (top - irwin_hall_cdf(marg_n - 1, marg_u - x)) /
	       (top - irwin_hall_cdf(marg_n - 1, marg_u - 1));
}

typedef int (*util_fn)(struct tsg_rng *r, unsigned int n, double total, double *u);

static int rfs(struct tsg_rng *r, unsigned int n, double total, double *u)
{
	return tsg_randfixedsum(r, n, total, u);
}

static int uud(struct tsg_rng *r, unsigned int n, double total, double *u)
{
	return tsg_uunifast_discard(r, n, total, u, 100000000UL, NULL);
}

/*
 * DRAWS vectors; coords[c * DRAWS + k] = coordinate c of vector k.  Every
 * coordinate is tested on its own: an algorithm that is right only on
 * average over the coordinates (no final shuffle) fails too.
 */
static double *draw_coords(util_fn fn, unsigned int n, double total, u64 seed)
{
	double *coords = malloc(sizeof(double) * DRAWS * n), u[16];
	struct tsg_rng r;
	unsigned int c;
	size_t k;

	assert_non_null(coords);
	tsg_rng_seed(&r, seed);
	for (k = 0; k < DRAWS; k++) {
		assert_int_equal(fn(&r, n, total, u), 0);
		for (c = 0; c < n; c++)
			coords[c * DRAWS + k] = u[c];
	}
	return coords;
}

static const struct {
	unsigned int n;
	double u;
} ks_shapes[] = {
	{ 3, 1.5 },	/* the hexagon: every u <= 1 bites */
	{ 4, 2.0 },
	{ 5, 0.8 },	/* U <= 1: the plain simplex, u_1 / U ~ Beta(1, 4) */
	{ 4, 3.3 },	/* near U = n: k = n - 1 */
	{ 6, 2.7 },
	{ 10, 7.5 },
};

static void ks_marginals(util_fn fn, const char *name, bool easy_only)
{
	size_t s;
	unsigned int c;
	double d, worst;

	for (s = 0; s < sizeof(ks_shapes) / sizeof(ks_shapes[0]); s++) {
		double *coords;

		/* UUniFast-discard keeps 1 draw in 10^4 at n 10, U 7.5: too slow */
		if (easy_only && ks_shapes[s].u > 0.6 * ks_shapes[s].n)
			continue;
		coords = draw_coords(fn, ks_shapes[s].n, ks_shapes[s].u, 1000 + s);
		marg_n = ks_shapes[s].n;
		marg_u = ks_shapes[s].u;
		worst = 0;
		for (c = 0; c < marg_n; c++) {
			d = ks1(coords + (size_t)c * DRAWS, DRAWS, marginal_cdf);
			worst = fmax(worst, d);
		}
		print_message("# %s n %u U %.2f: worst KS D %.4f over %u coordinates "
			      "(critical %.4f)\n", name, marg_n, marg_u, worst, marg_n, KS1_CRIT);
		assert_true(worst < KS1_CRIT);
		free(coords);
	}
}

static void test_randfixedsum_marginals(void **state)
{
	(void)state;
	ks_marginals(rfs, "randfixedsum", false);
}

static void test_uunifast_discard_marginals(void **state)
{
	(void)state;
	ks_marginals(uud, "uunifast-discard", true);
}

/*
 * The joint law, not only the marginals: for n 3, U 1.5, (u1, u2) is
 * uniform on the hexagon 0 <= u1, u2 <= 1, 0.5 <= u1 + u2 <= 1.5, so the
 * difference d = u1 - u2 has the density 2/3 on |d| <= 1/2 and
 * (4/3)(1 - |d|) beyond.
 */
static double hexagon_diff_cdf(double d)
{
	if (d <= -1)
		return 0;
	if (d <= -0.5)
		return (d + 1) * (d + 1) / 1.5;
	if (d <= 0.5)
		return 1.0 / 6 + (d + 0.5) / 1.5;
	if (d < 1)
		return 1 - (1 - d) * (1 - d) / 1.5;
	return 1;
}

static void test_joint_difference(void **state)
{
	static const struct {
		util_fn fn;
		const char *name;
	} algs[] = { { rfs, "randfixedsum" }, { uud, "uunifast-discard" } };
	double *diff = malloc(sizeof(double) * DRAWS), d;
	size_t a, k;

	(void)state;
	assert_non_null(diff);
	for (a = 0; a < 2; a++) {
		double *coords = draw_coords(algs[a].fn, 3, 1.5, 77);

		for (k = 0; k < DRAWS; k++)
			diff[k] = coords[k] - coords[DRAWS + k];
		d = ks1(diff, DRAWS, hexagon_diff_cdf);
		print_message("# %s u1 - u2: KS D %.4f (critical %.4f)\n", algs[a].name, d,
			      KS1_CRIT);
		assert_true(d < KS1_CRIT);
		free(coords);
	}
	free(diff);
}

/* Two-sample KS distance of two sorted samples of DRAWS each. */
static double ks2(const double *a, const double *b)
{
	size_t i = 0, j = 0;
	double d = 0;

	while (i < DRAWS && j < DRAWS) {
		if (a[i] <= b[j])
			i++;
		else
			j++;
		d = fmax(d, fabs((double)i / DRAWS - (double)j / DRAWS));
	}
	return d;
}

/* Where both are uniform on the slice and UUniFast-discard is cheap, they agree. */
static void test_algorithms_agree(void **state)
{
	double *a = draw_coords(rfs, 6, 2.4, 31), *b = draw_coords(uud, 6, 2.4, 32), d, worst = 0;
	unsigned int c;

	(void)state;
	for (c = 0; c < 6; c++) {
		qsort(a + (size_t)c * DRAWS, DRAWS, sizeof(double), cmp_double);
		qsort(b + (size_t)c * DRAWS, DRAWS, sizeof(double), cmp_double);
		d = ks2(a + (size_t)c * DRAWS, b + (size_t)c * DRAWS);
		worst = fmax(worst, d);
	}
	print_message("# randfixedsum vs uunifast-discard, n 6 U 2.4: worst two-sample KS D "
		      "%.4f (critical %.4f)\n", worst, KS2_CRIT);
	assert_true(worst < KS2_CRIT);
	free(a);
	free(b);
}

/* ---- periods ---- */

/* Chi-square, alpha = 0.001, for 1..12 degrees of freedom. */
static const double chi2_crit[] = {
	0, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588,
	31.264, 32.909,
};

/*
 * Bins [edge_j, edge_j+1) on the period grid.  Log-uniform: a grid point T
 * has the probability ln((T + g) / T) / ln((max + g) / min), so a bin has
 * ln(edge_j+1 / edge_j) / ln((max + g) / min); uniform: its share of the
 * grid points.
 */
static void chi2_periods(enum tsg_period_dist dist, u64 min, u64 max, u64 gran, u64 seed)
{
	enum { BINS = 10 };
	u64 edge[BINS + 1], t;
	unsigned int count[BINS] = { 0 }, j, at_min = 0, at_max = 0;
	struct tsg_rng r;
	double chi2 = 0, p, span = log((double)(max + gran) / (double)min);
	size_t k;

	for (j = 0; j <= BINS; j++) {
		double x = dist == TSG_PERIOD_LOG ?
			   (double)min * exp(span * j / BINS) :
			   (double)min + (double)(max + gran - min) * j / BINS;

		edge[j] = (u64)llround(x / (double)gran) * gran;
	}
	edge[0] = min;
	edge[BINS] = max + gran;
	tsg_rng_seed(&r, seed);
	for (k = 0; k < DRAWS; k++) {
		t = tsg_period(&r, dist, min, max, gran);
		assert_true(t >= min && t <= max);
		assert_int_equal(t % gran, 0);
		at_min += t == min;
		at_max += t == max;
		for (j = 0; t >= edge[j + 1]; j++)
			;
		count[j]++;
	}
	for (j = 0; j < BINS; j++) {
		p = dist == TSG_PERIOD_LOG ? log((double)edge[j + 1] / (double)edge[j]) / span :
		    (double)(edge[j + 1] - edge[j]) / (double)(max + gran - min);
		chi2 += pow(count[j] - DRAWS * p, 2) / (DRAWS * p);
	}
	print_message("# periods %s [%llu, %llu] / %llu: chi-square %.2f (critical %.2f, "
		      "%d dof); %u at min, %u at max\n", dist == TSG_PERIOD_LOG ? "log" : "uniform",
		      (unsigned long long)min, (unsigned long long)max, (unsigned long long)gran,
		      chi2, chi2_crit[BINS - 1], BINS - 1, at_min, at_max);
	assert_true(chi2 < chi2_crit[BINS - 1]);
	/* both ends of the range are reachable (where they should be seen at all) */
	p = dist == TSG_PERIOD_LOG ? log((double)(max + gran) / (double)max) / span :
	    (double)gran / (double)(max + gran - min);
	if (DRAWS * p >= 20)
		assert_true(at_min > 0 && at_max > 0);
}

static void test_periods_log_uniform(void **state)
{
	(void)state;
	chi2_periods(TSG_PERIOD_LOG, 10000, 100000, 1000, 3);	/* the paper's */
	chi2_periods(TSG_PERIOD_LOG, 1000, 1000000, 1, 4);	/* 3 decades, 1 us */
	chi2_periods(TSG_PERIOD_LOG, 700, 7000, 7, 5);		/* an odd granularity */
}

static void test_periods_uniform(void **state)
{
	(void)state;
	chi2_periods(TSG_PERIOD_UNIFORM, 10000, 100000, 1000, 6);
	chi2_periods(TSG_PERIOD_UNIFORM, 700, 7000, 7, 7);
}

/* A set's periods respect the granularity too (the path through tsg_generate). */
static void test_set_granularity(void **state)
{
	struct tsg_params p = params(40, 10, 9);
	struct tsg_set set;
	unsigned int i;

	(void)state;
	p.period_min_us = 300;
	p.period_max_us = 3000;
	p.period_gran_us = 300;
	p.period_dist = TSG_PERIOD_UNIFORM;
	assert_int_equal(tsg_generate(&p, &set), 0);
	for (i = 0; i < set.nr_tasks; i++) {
		assert_int_equal(set.tasks[i].period_us % 300, 0);
		assert_in_range(set.tasks[i].period_us, 300, 3000);
	}
	tsg_set_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_vectors),
		cmocka_unit_test(test_rng_ranges),
		cmocka_unit_test(test_randfixedsum_sums),
		cmocka_unit_test(test_uunifast_discard_sums),
		cmocka_unit_test(test_set_rounding),
		cmocka_unit_test(test_same_seed_same_bytes),
		cmocka_unit_test(test_deadlines),
		cmocka_unit_test(test_randfixedsum_marginals),
		cmocka_unit_test(test_uunifast_discard_marginals),
		cmocka_unit_test(test_joint_difference),
		cmocka_unit_test(test_algorithms_agree),
		cmocka_unit_test(test_periods_log_uniform),
		cmocka_unit_test(test_periods_uniform),
		cmocka_unit_test(test_set_granularity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
