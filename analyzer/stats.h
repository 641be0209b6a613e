/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded summary of a stream of signed ns samples: count, min, max, sum
 * exactly, and percentiles that are exact for the first DLB_STAT_EXACT
 * samples, then read from a fixed log-bucketed histogram (relative error at
 * most 1/(2 * DLB_STAT_SUB) = 1.6 % of the value).  Memory is fixed per
 * summary: streaming a long trace does not grow it.
 *
 * Percentile: nearest rank, the smallest sample s such that at least p % of
 * the samples are <= s.
 */
#ifndef DLB_STATS_H
#define DLB_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "dlbench/dltime.h"

#define DLB_STAT_EXACT	1024	/* samples kept exactly */
#define DLB_STAT_SUB	32	/* histogram buckets per power of two */
#define DLB_STAT_BINS	(64 * DLB_STAT_SUB)

struct dlb_stat {
	u64 count;
	s64 min, max;
	long double sum;
	s64 *exact;		/* up to DLB_STAT_EXACT samples, grown as they come */
	u64 exact_cap;		/* room in exact[] (a task of few jobs needs little) */
	u64 *hist;		/* [2][DLB_STAT_BINS]: negative, positive; NULL until needed */
	u64 hist_zero;		/* zero samples in histogram mode */
	int alloc_failed;	/* an allocation failed: percentiles unavailable */
};

void dlb_stat_init(struct dlb_stat *s);
void dlb_stat_add(struct dlb_stat *s, s64 v);

/* Percentile @p (0 < p <= 100) into *@out; -1 if there are no samples. */
int dlb_stat_pct(const struct dlb_stat *s, double p, s64 *out);

/* true when percentiles come from the histogram (approximate). */
bool dlb_stat_approx(const struct dlb_stat *s);

s64 dlb_stat_mean(const struct dlb_stat *s);

void dlb_stat_free(struct dlb_stat *s);

#endif
