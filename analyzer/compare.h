/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlb-analyze compare: two report.json files (or run folders holding one),
 * metric by metric and task by task, against thresholds; thresholds and
 * their defaults: docs/analyzer.md ("compare").
 */
#ifndef DLB_COMPARE_H
#define DLB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "dlbench/error.h"

struct dlb_compare;	/* opaque */

struct dlb_compare *dlb_compare_create(struct dlb_err *err);

/*
 * "metric=VALUE" or "task:metric=VALUE", VALUE one or both of "N%"
 * (relative to the base) and an absolute amount ("50us", "3"), comma
 * separated: a change is beyond the threshold when it exceeds both.  A
 * part not given keeps its default.
 * Returns 0, or -1 with @err (unknown metric, bad value), code BAD_INPUT.
 */
int dlb_compare_threshold(struct dlb_compare *c, const char *spec, struct dlb_err *err);

/*
 * A thresholds file (workloads/suites/default.thresholds): the lines
 * matching NEW's backend and run folder name apply before the -t given.
 * @path must outlive the run.
 */
void dlb_compare_thresholds(struct dlb_compare *c, const char *path);

/* After dlb_compare_run: its one-line summary ("worse: 2 worse, ..."). */
const char *dlb_compare_summary(const struct dlb_compare *c);

/* Accept incomplete data in either report (else exit DLB_EXIT_INCOMPLETE). */
void dlb_compare_accept_incomplete(struct dlb_compare *c, bool accept);

/*
 * Compare; print the verdict table to @out.  Returns the exit code
 * (DLB_EXIT_OK, DLB_EXIT_REGRESSION when something got worse,
 * DLB_EXIT_INCOMPLETE when a report's data is incomplete and nothing got
 * worse), or -1 with @err set (unreadable or invalid report).
 */
int dlb_compare_run(struct dlb_compare *c, const char *base, const char *newp, FILE *out,
		    struct dlb_err *err);

/* The metric table, for --help: name, unit, default. */
void dlb_compare_print_metrics(FILE *f);

void dlb_compare_free(struct dlb_compare *c);

#endif
