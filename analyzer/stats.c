// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded percentile summaries (stats.h).  A task's response times over a
 * night's run are millions of samples; keeping them all would make memory
 * grow with the trace.  So: exact up to DLB_STAT_EXACT samples (short runs,
 * tests: exact answers), then an HDR-style histogram, 32 buckets per power
 * of two, signed (lateness is negative for jobs that met their deadline).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void dlb_stat_init(struct dlb_stat *s)
{
	memset(s, 0, sizeof(*s));
}

/* Magnitude -> bucket: values below DLB_STAT_SUB are their own bucket. */
static unsigned int stat_bin(u64 v)
{
	unsigned int o;

	if (v < DLB_STAT_SUB)
		return (unsigned int)v;
	o = 63 - (unsigned int)__builtin_clzll(v);	/* o >= 5 */
	return (o - 4) * DLB_STAT_SUB + (unsigned int)((v >> (o - 5)) & (DLB_STAT_SUB - 1));
}

/* Bucket -> the middle of its value range (error <= half a bucket). */
static u64 stat_bin_value(unsigned int b)
{
	unsigned int o, sub;
	u64 low, width;

	if (b < DLB_STAT_SUB)
		return b;
	o = b / DLB_STAT_SUB + 4;
	sub = b % DLB_STAT_SUB;
	low = (u64)(DLB_STAT_SUB + sub) << (o - 5);
	width = 1ULL << (o - 5);
	return low + width / 2;
}

static void stat_hist_add(struct dlb_stat *s, s64 v)
{
	if (v == 0)
		s->hist_zero++;
	else if (v < 0)
		s->hist[stat_bin((u64)0 - (u64)v)]++;
	else
		s->hist[DLB_STAT_BINS + stat_bin((u64)v)]++;
}

/* Move the exact samples into the histogram: from now on percentiles are approximate. */
static void stat_to_hist(struct dlb_stat *s)
{
	u64 i;

	s->hist = calloc(2 * DLB_STAT_BINS, sizeof(*s->hist));
	if (!s->hist) {
		s->alloc_failed = 1;
		return;
	}
	for (i = 0; i < DLB_STAT_EXACT; i++)
		stat_hist_add(s, s->exact[i]);
	free(s->exact);
	s->exact = NULL;
	s->exact_cap = 0;
}

void dlb_stat_add(struct dlb_stat *s, s64 v)
{
	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->sum += v;
	if (s->alloc_failed) {
		s->count++;
		return;
	}
	if (s->hist) {
		stat_hist_add(s, v);
	} else {
		if (s->count == s->exact_cap && s->count < DLB_STAT_EXACT) {
			u64 cap = s->exact_cap ? 2 * s->exact_cap : 16;
			s64 *p = realloc(s->exact, cap * sizeof(*s->exact));

			if (!p) {
				s->alloc_failed = 1;
				s->count++;
				return;
			}
			s->exact = p;
			s->exact_cap = cap;
		}
		if (s->count == DLB_STAT_EXACT) {
			stat_to_hist(s);
			if (!s->alloc_failed)
				stat_hist_add(s, v);
		} else {
			s->exact[s->count] = v;
		}
	}
	s->count++;
}

bool dlb_stat_approx(const struct dlb_stat *s)
{
	return s->hist != NULL;
}

s64 dlb_stat_mean(const struct dlb_stat *s)
{
	return s->count ? (s64)llroundl(s->sum / (long double)s->count) : 0;
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: 1-based rank ceil(p/100 * n), at least 1. */
static u64 stat_rank(u64 n, double p)
{
	u64 k = (u64)ceil(p / 100.0 * (double)n - 1e-9);

	return k < 1 ? 1 : k > n ? n : k;
}

static s64 stat_hist_pct(const struct dlb_stat *s, u64 k)
{
	u64 seen = 0;
	int b;

	for (b = DLB_STAT_BINS - 1; b >= 0; b--) {
		seen += s->hist[b];
		if (seen >= k)
			return -(s64)stat_bin_value((unsigned int)b);
	}
	seen += s->hist_zero;
	if (seen >= k)
		return 0;
	for (b = 0; b < DLB_STAT_BINS; b++) {
		seen += s->hist[DLB_STAT_BINS + b];
		if (seen >= k)
			return (s64)stat_bin_value((unsigned int)b);
	}
	return s->max;
}

int dlb_stat_pct(const struct dlb_stat *s, double p, s64 *out)
{
	u64 k;
	s64 *tmp, v;

	if (!s->count || s->alloc_failed)
		return -1;
	k = stat_rank(s->count, p);
	/* the extremes are known exactly */
	if (k == 1 || k == s->count) {
		*out = k == 1 ? s->min : s->max;
		return 0;
	}
	if (s->hist) {
		v = stat_hist_pct(s, k);
	} else {
		tmp = malloc(s->count * sizeof(*tmp));
		if (!tmp)
			return -1;
		memcpy(tmp, s->exact, s->count * sizeof(*tmp));
		qsort(tmp, s->count, sizeof(*tmp), cmp_s64);
		v = tmp[k - 1];
		free(tmp);
	}
	/* the histogram's bucket middle may lie outside what was seen */
	*out = v < s->min ? s->min : v > s->max ? s->max : v;
	return 0;
}

void dlb_stat_free(struct dlb_stat *s)
{
	free(s->exact);
	free(s->hist);
	s->exact = NULL;
	s->exact_cap = 0;
	s->hist = NULL;
}
