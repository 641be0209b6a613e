/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of a run: the one place where dlbench decides pass, fail,
 * error or incomplete.  report.json carries it (docs/report-json.md
 * "verdict"), dlb-analyze exits with its code, and run.sh, the nightly
 * suite, JUnit/TAP and compare read it from there.
 *
 * It is made from structured data only: summary.json's status and
 * admission outcome, the generator's exit code (--run-exit), the data
 * quality flags, the jobs of the watched tasks, the baseline comparison.
 * Never from the text of a log.
 */
#ifndef DLB_VERDICT_H
#define DLB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "dlbench/error.h"
#include "dlbench/summary.h"
#include "metrics.h"

#define DLB_VERDICT_MAX_CHECKS	8
#define DLB_VERDICT_WATCH_MAX	256

/* What a suite entry (or the user) expects of the run. */
enum dlb_expect {
	DLB_EXPECT_OK,			/* admitted, deadlines within the limit */
	DLB_EXPECT_REFUSED,		/* refused by admission control (over capacity) */
};

/* A limit on misses: -1 none, else N misses or N percent of the watched jobs. */
struct dlb_miss_limit {
	long long n;
	bool pct;
};

/* How the run is judged: options of dlb-analyze. */
struct dlb_verdict_opts {
	enum dlb_expect expect;
	struct dlb_miss_limit max_misses;
	char watch[DLB_VERDICT_WATCH_MAX];	/* "" or "*": every task; else a,b,c */
	int run_exit;			/* the generator's (recorder's) exit code; -1 unknown */
	unsigned int accepted;		/* bit q: quality flag q accepted */
};

/* What is known about the run besides the trace. */
struct dlb_verdict_input {
	bool have_summary;
	enum dlb_run_status status;	/* summary.json */
	enum dlb_admission admission;	/* summary.json */
	const char *admission_detail;	/* for people only */
	bool have_trace;
	int baseline_exit;		/* compare's code; -1: no baseline */
	const char *baseline_detail;	/* compare's one-line summary */
	/*
	 * A defect the run found in the kernel itself (summary.json's kernel
	 * checks, e.g. the DL bandwidth accounting left changed): NULL none,
	 * else check @kernel_check failed with this detail.
	 */
	const char *kernel_check, *kernel_finding;
	const char *kernel_version;	/* the kernel the finding is about; NULL unknown */
};

/* One row: a check and what it found ("pass", "fail", "error", "incomplete", "skip"). */
struct dlb_verdict_check {
	char name[24];
	char result[12];
	char detail[256];
};

struct dlb_verdict {
	int exit_code;			/* enum dlb_exit */
	const char *result;		/* PASS, FAIL, ERROR, INCOMPLETE: from exit_code */
	char reason[DLB_ERR_MAX];	/* one line */
	int nr_checks;
	struct dlb_verdict_check checks[DLB_VERDICT_MAX_CHECKS];
};

/*
 * "N" or "N%" (N >= 0), or "-1"/"-" for no limit, into @lim.  Returns 0,
 * or -1 with @err (code DLB_EXIT_BAD_INPUT) naming @what.
 */
int dlb_miss_limit_parse(const char *s, const char *what, struct dlb_miss_limit *lim,
			 struct dlb_err *err);

/* "ok" or "refused"; -1 with @err otherwise. */
int dlb_expect_parse(const char *s, enum dlb_expect *out, struct dlb_err *err);

/* Whether task @name counts for @watch: "" or "*", the name, or a thread "name-N". */
bool dlb_verdict_watched(const char *watch, const char *name);

/*
 * Judge the run: @m may be NULL when there is no trace.  Fills @v; the
 * order of precedence is docs/analyzer.md's ("The verdict").
 */
void dlb_verdict_make(const struct dlb_metrics *m, const struct dlb_verdict_opts *o,
		      const struct dlb_verdict_input *in, struct dlb_verdict *v);

/* "PASS", "FAIL", "ERROR" or "INCOMPLETE" for an exit code. */
const char *dlb_verdict_result(int exit_code);

#endif
