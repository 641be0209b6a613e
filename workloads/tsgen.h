/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task-set generation for dlb-tasksetgen: a portable PRNG, utilisations
 * (randfixedsum, UUniFast-discard), periods (log-uniform or uniform with a
 * granularity), deadlines, and the set written as rt-app JSON.
 *
 * Everything that is random comes from one struct tsg_rng seeded by a u64:
 * the same seed and parameters give the same set on every machine (integer
 * PRNG; IEEE doubles; see docs/tasksetgen.md for the libm caveat).
 */
#ifndef DLBENCH_TSGEN_H
#define DLBENCH_TSGEN_H

#include <stdbool.h>
#include <stdio.h>

#include "dlbench/dlparam.h"
#include "dlbench/dltime.h"

/* ---- PRNG: xoshiro256** seeded through splitmix64 ---- */

struct tsg_rng {
	u64 s[4];
};

void tsg_rng_seed(struct tsg_rng *r, u64 seed);
u64 tsg_rng_next(struct tsg_rng *r);
/* Uniform in the open interval (0, 1), 53 random bits. */
double tsg_rng_open01(struct tsg_rng *r);
/* Uniform integer in [0, @n), unbiased (rejection); @n >= 1. */
u64 tsg_rng_below(struct tsg_rng *r, u64 n);

/* ---- utilisations ---- */

enum tsg_alg {
	TSG_RANDFIXEDSUM,
	TSG_UUNIFAST_DISCARD,
};

/* "randfixedsum" / "uunifast-discard" into @alg; -1 for anything else. */
int tsg_alg_parse(const char *s, enum tsg_alg *alg);
const char *tsg_alg_name(enum tsg_alg alg);

/* Most tasks in one set (randfixedsum keeps an n x n/2 table of doubles). */
#define TSG_TASKS_MAX	4096

enum tsg_util_err {
	TSG_UTIL_OK = 0,
	TSG_UTIL_NOMEM = -1,	/* randfixedsum's table */
	TSG_UTIL_GAVE_UP = -2,	/* uunifast-discard: every draw had a u > 1 */
};

/*
 * @n utilisations into @u, each in [0, 1], summing to @total (0 < @total <=
 * @n, 1 <= @n <= TSG_TASKS_MAX), uniformly distributed over that set
 * (Stafford's algorithm, Emberson, Stafford, Davis, WATERS 2010).
 */
int tsg_randfixedsum(struct tsg_rng *r, unsigned int n, double total, double *u);

/*
 * UUniFast (Bini and Buttazzo 2005) drawn again until every u <= 1 (Davis
 * and Burns 2009): uniform over the same set as randfixedsum, but the
 * chance of a draw being kept falls quickly as @total nears @n.  Gives up
 * after @max_draws draws (TSG_UTIL_GAVE_UP); *@draws (if not NULL) says how
 * many were made.
 */
int tsg_uunifast_discard(struct tsg_rng *r, unsigned int n, double total, double *u,
			 unsigned long max_draws, unsigned long *draws);

/* Draws dlb-tasksetgen allows uunifast-discard: 10^8 random numbers in all. */
unsigned long tsg_uunifast_max_draws(unsigned int n);

/* ---- periods and deadlines (µs) ---- */

enum tsg_period_dist {
	TSG_PERIOD_LOG,		/* log-uniform, Emberson et al. 2010 */
	TSG_PERIOD_UNIFORM,
};

/*
 * A period in [@min_us, @max_us], a multiple of @gran_us (both bounds are
 * multiples of it).  Log-uniform as Emberson et al.: r uniform in
 * [ln min, ln(max + gran)), T = floor(e^r / gran) * gran, so every grid
 * point T gets the probability ln((T + gran) / T) / ln((max + gran) / min).
 * Uniform: every grid point equally likely.
 */
u64 tsg_period(struct tsg_rng *r, enum tsg_period_dist dist, u64 min_us, u64 max_us,
	       u64 gran_us);

/* Smallest runtime written, µs: the kernel refuses runtimes under 1024 ns. */
#define TSG_RUNTIME_MIN_US	((DL_RUNTIME_MIN_NS + NSEC_PER_USEC - 1) / NSEC_PER_USEC)

/* ---- a whole set ---- */

struct tsg_params {
	enum tsg_alg alg;
	unsigned int nr_tasks;
	double total_util;
	unsigned int nr_cpus;		/* 0: not given; only written to the header */
	enum tsg_period_dist period_dist;
	u64 period_min_us, period_max_us, period_gran_us;
	double dl_lo, dl_hi;		/* D = C + x (T - C), x uniform in [lo, hi]; 1,1 implicit */
	double run_ratio;		/* run = ratio x runtime */
	unsigned int duration_s;
	u64 seed;
};

struct tsg_task {
	double util;			/* drawn */
	u64 period_us, runtime_us, deadline_us, run_us;
};

struct tsg_set {
	unsigned int nr_tasks;
	struct tsg_task *tasks;
	double achieved_util;		/* sum of runtime / period */
	unsigned long draws;		/* uunifast-discard: draws made */
};

/*
 * dlb-tasksetgen's defaults (the OSPERT 2011 setup): randfixedsum, periods
 * log-uniform in 10..100 ms on a 1 ms grid, implicit deadlines, run =
 * runtime, 10 s, seed 1; no tasks and no utilisation yet.
 */
void tsg_params_init(struct tsg_params *p);

enum tsg_gen_err {
	TSG_GEN_OK = 0,
	TSG_GEN_NOMEM = -1,
	TSG_GEN_GAVE_UP = -2,
	TSG_GEN_INTERNAL = -3,		/* a task the kernel's rules refuse: a bug */
};

/*
 * The set of @p (checked by the caller: see dlb-tasksetgen.c) into @set,
 * whose tasks the caller frees with tsg_set_free().  Random numbers are
 * used in this order: utilisations, then one period per task, then (when
 * dl_lo < 1) one deadline per task.
 */
int tsg_generate(const struct tsg_params *p, struct tsg_set *set);
void tsg_set_free(struct tsg_set *set);

/* The set as rt-app JSON, with a comment header naming the parameters; 0 or -1 (I/O). */
int tsg_write_json(FILE *f, const struct tsg_params *p, const struct tsg_set *set);

#endif
