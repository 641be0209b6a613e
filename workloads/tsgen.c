// SPDX-License-Identifier: GPL-2.0
/*
 * Task-set generation: PRNG, utilisations, periods, deadlines, rt-app JSON.
 * The algorithms and their references are in docs/tasksetgen.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/dlparam.h"
#include "tsgen.h"

/* ---- PRNG ---- */

/*
 * splitmix64 (Steele, Lea, Flood 2014) spreads the user's seed over the
 * 256-bit state; xoshiro256** (Blackman, Vigna 2018) is the generator.
 * Both are integer-only, so the stream is the same on every machine.
 */
static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void tsg_rng_seed(struct tsg_rng *r, u64 seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

u64 tsg_rng_next(struct tsg_rng *r)
{
	u64 *s = r->s;
	u64 result = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double tsg_rng_open01(struct tsg_rng *r)
{
	/* the centre of one of 2^53 equal cells: never 0, never 1 */
	return ((double)(tsg_rng_next(r) >> 11) + 0.5) * 0x1p-53;
}

u64 tsg_rng_below(struct tsg_rng *r, u64 n)
{
	/* reject the top 2^64 mod n values, so every residue is equally likely */
	u64 floor_ = (0 - n) % n, x;

	do
		x = tsg_rng_next(r);
	while (x < floor_);
	return x % n;
}

/* ---- utilisations ---- */

static const char *const alg_names[] = {
	[TSG_RANDFIXEDSUM] = "randfixedsum",
	[TSG_UUNIFAST_DISCARD] = "uunifast-discard",
};

int tsg_alg_parse(const char *s, enum tsg_alg *alg)
{
	size_t i;

	for (i = 0; i < sizeof(alg_names) / sizeof(alg_names[0]); i++) {
		if (!strcmp(s, alg_names[i])) {
			*alg = (enum tsg_alg)i;
			return 0;
		}
	}
	return -1;
}

const char *tsg_alg_name(enum tsg_alg alg)
{
	return alg_names[alg];
}

static void shuffle(struct tsg_rng *r, double *u, unsigned int n)
{
	unsigned int i, j;
	double x;

	for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		j = (unsigned int)tsg_rng_below(r, (u64)i + 1);
		x = u[i];
		u[i] = u[j];
		u[j] = x;
	}
}

/* Row @q (0..n-2) of the transition table holds q + 2 entries. */
static inline size_t trow(unsigned int q)
{
	return (size_t)q * (q + 3) / 2;
}

/*
 * Stafford's randfixedsum, as Emberson, Stafford and Davis (WATERS 2010)
 * use it.  The slice {x in [0,1]^n : sum x = s} is a union of simplices;
 * the algorithm picks one with probability proportional to its volume and
 * a uniform point inside it, one coordinate at a time (k = floor(s),
 * clamped to 0..n-1):
 *
 * - in row r (r + 1 coordinates), w[c + 1] is proportional to the volume of
 *   the slice {sum = (s - k) + c} of the (r+1)-cube, i.e. the Irwin-Hall
 *   density there.  It comes from row r - 1 by the B-spline recurrence
 *   f_i(x) ~ x f_{i-1}(x) + (i - x) f_{i-1}(x - 1) (s1[c] is x, s2[...] is
 *   i - x): the two terms are the "below" and "above" parts.  Only ratios within a row are used, so each row is
 *   scaled to a maximum of 1: no overflow or underflow however large n
 *   (Stafford scales the first row by realmax instead);
 * - t[r][c] is the share of the "above" part: the probability that the
 *   walk, in column c of row r, steps down one unit of sum;
 * - walking the rows from n - 1 down, a uniform draw against t chooses the
 *   step e, and x_i = sm + pr * e accumulates the barycentric coordinates
 *   of a uniform point in a standard simplex (rs^(1/i) is distributed as
 *   the largest of i uniforms);
 * - a random permutation makes the coordinates exchangeable.
 */
int tsg_randfixedsum(struct tsg_rng *r, unsigned int n, double total, double *u)
{
	double *t, *s1, *s2, *wp, *wc, *mem;
	double s = total, sm = 0, pr = 1;
	unsigned int k, row, c, i, j;

	if (n == 1) {
		u[0] = total;
		return TSG_UTIL_OK;
	}
	mem = malloc(sizeof(double) * (trow(n - 1) + 4 * ((size_t)n + 1)));
	if (!mem)
		return TSG_UTIL_NOMEM;
	t = mem;
	s1 = t + trow(n - 1);
	s2 = s1 + n + 1;
	wp = s2 + n + 1;
	wc = wp + n + 1;

	/* 0 <= k <= n-1 and k <= s <= k+1, so s1 and s2 are never negative */
	k = s <= 0 ? 0 : (unsigned int)floor(s);
	if (k > n - 1)
		k = n - 1;
	s = fmin(fmax(s, k), k + 1.0);
	for (c = 0; c < n; c++) {
		s1[c] = s - ((double)k - c);
		s2[c] = ((double)k + n - c) - s;
	}

	memset(wp, 0, sizeof(double) * (n + 1));
	wp[1] = 1;
	for (row = 1; row < n; row++) {
		double *tr = t + trow(row - 1), inv = 1.0 / (row + 1), top = 0, *x;

		memset(wc, 0, sizeof(double) * (n + 1));
		for (c = 0; c <= row; c++) {
			double lo = wp[c + 1] * s1[c] * inv;
			double hi = wp[c] * s2[n - 1 - row + c] * inv;
			double sum = lo + hi, den = sum + 0x1p-1074;

			wc[c + 1] = sum;
			if (sum > top)
				top = sum;
			/* when both parts are 0 the side of s decides */
			tr[c] = s2[n - 1 - row + c] > s1[c] ? hi / den : 1 - lo / den;
		}
		if (top > 0)
			for (c = 1; c <= row + 1; c++)
				wc[c] /= top;
		x = wp;
		wp = wc;
		wc = x;
	}

	j = k;
	for (i = n - 1; i >= 1; i--) {
		const double *tr = t + trow(i - 1);	/* i + 1 entries */
		double rt = tsg_rng_open01(r), rs = tsg_rng_open01(r), sx;
		bool e;

		/*
		 * The table keeps j in 1..i whenever a step is possible; the
		 * clamps only guard against a rounding accident.
		 */
		if (j > i)
			j = i;
		e = rt <= tr[j] && j > 0;
		sx = pow(rs, 1.0 / i);
		sm += (1 - sx) * pr * s / (i + 1);
		pr *= sx;
		u[n - 1 - i] = sm + (e ? pr : 0);
		if (e) {
			s -= 1;
			j--;
		}
	}
	u[n - 1] = sm + pr * s;
	free(mem);

	for (i = 0; i < n; i++)
		u[i] = fmin(fmax(u[i], 0), 1);
	shuffle(r, u, n);
	return TSG_UTIL_OK;
}

/*
 * UUniFast (Bini, Buttazzo 2005): the sum left after task i is the sum
 * before it times U^(1/(n-i)) with U uniform, which makes the vector uniform
 * on the simplex sum = total, u >= 0.  Discarding every vector with a u > 1
 * (Davis, Burns 2009) leaves it uniform on the part of that simplex inside
 * the unit cube: randfixedsum's distribution, at the cost of the draws
 * thrown away.
 */
int tsg_uunifast_discard(struct tsg_rng *r, unsigned int n, double total, double *u,
			 unsigned long max_draws, unsigned long *draws)
{
	unsigned long d;
	unsigned int i;

	for (d = 1; d <= max_draws; d++) {
		double sum = total, next;
		bool ok = true;

		for (i = 0; i + 1 < n && ok; i++) {
			next = sum * pow(tsg_rng_open01(r), 1.0 / (n - 1 - i));
			u[i] = sum - next;
			sum = next;
			ok = u[i] <= 1;
		}
		if (ok && sum <= 1) {
			u[n - 1] = sum;
			if (draws)
				*draws = d;
			return TSG_UTIL_OK;
		}
	}
	if (draws)
		*draws = max_draws;
	return TSG_UTIL_GAVE_UP;
}

unsigned long tsg_uunifast_max_draws(unsigned int n)
{
	return 100000000UL / (n ? n : 1);
}

/* ---- periods ---- */

u64 tsg_period(struct tsg_rng *r, enum tsg_period_dist dist, u64 min_us, u64 max_us,
	       u64 gran_us)
{
	double lo, hi, x;
	u64 p;

	if (dist == TSG_PERIOD_UNIFORM)
		return min_us + gran_us * tsg_rng_below(r, (max_us - min_us) / gran_us + 1);
	lo = log((double)min_us);
	hi = log((double)(max_us + gran_us));
	x = exp(lo + (hi - lo) * tsg_rng_open01(r));
	p = (u64)floor(x / (double)gran_us) * gran_us;
	/* exp(log(min)) may come out a hair under min */
	if (p < min_us)
		p = min_us;
	if (p > max_us)
		p = max_us;
	return p;
}

/* ---- a set ---- */

static u64 round_us(double x)
{
	return x <= 0 ? 0 : (u64)llround(x);
}

static u64 clamp_u64(u64 x, u64 lo, u64 hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void tsg_params_init(struct tsg_params *p)
{
	memset(p, 0, sizeof(*p));
	p->alg = TSG_RANDFIXEDSUM;
	p->period_dist = TSG_PERIOD_LOG;
	p->period_min_us = 10000;
	p->period_max_us = 100000;
	p->period_gran_us = 1000;
	p->dl_lo = 1;
	p->dl_hi = 1;
	p->run_ratio = 1;
	p->duration_s = 10;
	p->seed = 1;
}

static int make_task(struct tsg_rng *r, const struct tsg_params *p, struct tsg_task *tk,
		     bool draw_deadline)
{
	struct dl_params dp;

	tk->runtime_us = clamp_u64(round_us(tk->util * (double)tk->period_us),
				   TSG_RUNTIME_MIN_US, tk->period_us);
	tk->deadline_us = tk->period_us;
	if (draw_deadline) {
		u64 slack = tk->period_us - tk->runtime_us;
		double x = p->dl_lo + (p->dl_hi - p->dl_lo) * tsg_rng_open01(r);

		tk->deadline_us = tk->runtime_us + clamp_u64(round_us(x * (double)slack), 0, slack);
	}
	tk->run_us = round_us(p->run_ratio * (double)tk->runtime_us);
	if (tk->run_us < 1)
		tk->run_us = 1;

	dp.runtime = tk->runtime_us * NSEC_PER_USEC;
	dp.deadline = tk->deadline_us * NSEC_PER_USEC;
	dp.period = tk->period_us * NSEC_PER_USEC;
	return dl_param_check(&dp, NULL) == DL_PARAM_OK ? 0 : -1;
}

int tsg_generate(const struct tsg_params *p, struct tsg_set *set)
{
	struct tsg_rng r;
	double *u;
	unsigned int i, n = p->nr_tasks;
	bool draw_deadline = !(p->dl_lo == 1 && p->dl_hi == 1);
	int rc;

	memset(set, 0, sizeof(*set));
	u = calloc(n, sizeof(*u));
	set->tasks = calloc(n, sizeof(*set->tasks));
	if (!u || !set->tasks) {
		free(u);
		tsg_set_free(set);
		return TSG_GEN_NOMEM;
	}
	set->nr_tasks = n;
	tsg_rng_seed(&r, p->seed);
	if (p->alg == TSG_RANDFIXEDSUM) {
		rc = tsg_randfixedsum(&r, n, p->total_util, u);
		set->draws = 1;
	} else {
		rc = tsg_uunifast_discard(&r, n, p->total_util, u, tsg_uunifast_max_draws(n),
					  &set->draws);
	}
	if (rc) {
		free(u);
		tsg_set_free(set);
		return rc == TSG_UTIL_NOMEM ? TSG_GEN_NOMEM : TSG_GEN_GAVE_UP;
	}
	for (i = 0; i < n; i++) {
		set->tasks[i].util = u[i];
		set->tasks[i].period_us = tsg_period(&r, p->period_dist, p->period_min_us,
						     p->period_max_us, p->period_gran_us);
	}
	free(u);
	set->achieved_util = 0;
	for (i = 0; i < n; i++) {
		if (make_task(&r, p, &set->tasks[i], draw_deadline)) {
			tsg_set_free(set);
			return TSG_GEN_INTERNAL;
		}
		set->achieved_util += (double)set->tasks[i].runtime_us /
				      (double)set->tasks[i].period_us;
	}
	return TSG_GEN_OK;
}

void tsg_set_free(struct tsg_set *set)
{
	free(set->tasks);
	set->tasks = NULL;
	set->nr_tasks = 0;
}

/* ---- JSON ---- */

static void write_header(FILE *f, const struct tsg_params *p, const struct tsg_set *set)
{
	fprintf(f, "/*\n * dlb-tasksetgen %s: %s, seed %llu, %u tasks", DLB_VERSION,
		tsg_alg_name(p->alg), (unsigned long long)p->seed, p->nr_tasks);
	if (p->nr_cpus)
		fprintf(f, ", %u cpus", p->nr_cpus);
	fprintf(f, "\n * utilisation %.6f asked, %.6f achieved (runtimes rounded to 1 us)\n",
		p->total_util, set->achieved_util);
	fprintf(f, " * periods %s in [%llu, %llu] us, granularity %llu us\n",
		p->period_dist == TSG_PERIOD_LOG ? "log-uniform" : "uniform",
		(unsigned long long)p->period_min_us, (unsigned long long)p->period_max_us,
		(unsigned long long)p->period_gran_us);
	if (p->dl_lo == 1 && p->dl_hi == 1)
		fprintf(f, " * implicit deadlines");
	else
		fprintf(f, " * deadlines C + x (T - C), x uniform in [%g, %g]", p->dl_lo, p->dl_hi);
	fprintf(f, ", run = %g x runtime\n */\n", p->run_ratio);
}

int tsg_write_json(FILE *f, const struct tsg_params *p, const struct tsg_set *set)
{
	unsigned int i, width = 1, n;

	for (n = set->nr_tasks - 1; n >= 10; n /= 10)
		width++;
	write_header(f, p, set);
	fprintf(f, "{\n\t\"tasks\": {\n");
	for (i = 0; i < set->nr_tasks; i++) {
		const struct tsg_task *tk = &set->tasks[i];

		fprintf(f, "\t\t\"t%0*u\": {\n"
			"\t\t\t\"loop\": -1,\n"
			"\t\t\t\"run\": %llu,\n"
			"\t\t\t\"timer\": { \"ref\": \"unique\", \"period\": %llu },\n"
			"\t\t\t\"dl-runtime\": %llu,\n"
			"\t\t\t\"dl-period\": %llu,\n"
			"\t\t\t\"dl-deadline\": %llu\n"
			"\t\t}%s\n",
			(int)width, i, (unsigned long long)tk->run_us,
			(unsigned long long)tk->period_us, (unsigned long long)tk->runtime_us,
			(unsigned long long)tk->period_us, (unsigned long long)tk->deadline_us,
			i + 1 < set->nr_tasks ? "," : "");
	}
	fprintf(f, "\t},\n\t\"global\": {\n"
		"\t\t\"duration\": %u,\n"
		"\t\t\"default_policy\": \"SCHED_DEADLINE\"\n"
		"\t}\n}\n", p->duration_s);
	return ferror(f) ? -1 : 0;
}
