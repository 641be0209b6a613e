/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread logs in rt-app's format: written by the generator (both
 * backends), read by the analyzer.  Same header, same columns, same units
 * (µs) and the same printf widths as Debian's rt-app 1.0, so that tools
 * reading rt-app logs read ours:
 *
 *	# Policy : SCHED_DEADLINE priority : 0
 *	#idx     perf      run   period           start             end          rel_st      slack c_duration   c_period     wu_lat
 *	   0   250000     1001    10000        12345678        12355678            1000       8998       1000      10000          4
 *
 * One line per pass over a phase's events (a job, for a periodic task).
 *	idx		the thread's index (rt-app's thread number, 0-based)
 *	perf		busy loops executed by run events during the pass
 *	run		µs spent in run/runtime events (wall clock)
 *	period		µs from the pass's start to its end
 *	start, end	µs on CLOCK_MONOTONIC (reference backend: virtual time)
 *	rel_st		start - the run's start, µs
 *	slack		next release - instant the timer event was reached, µs;
 *			negative when the work ended after the next release
 *	c_duration	configured run time of the pass (sum of run/runtime), µs
 *	c_period	configured timer period, µs (0 without a timer)
 *	wu_lat		timer wake-up latency: wake-up instant - release, µs
 *			(0 when the release had passed and no sleep happened)
 */
#ifndef DLBENCH_RUNLOG_H
#define DLBENCH_RUNLOG_H

#include <stddef.h>
#include <stdio.h>

#include "dltime.h"
#include "error.h"

#define DLB_RUNLOG_LINE_MAX	256	/* a formatted line, with its newline */

struct dlb_runlog_rec {
	int idx;
	u64 perf;
	u64 run;
	u64 period;
	u64 start;
	u64 end;
	u64 rel_st;
	s64 slack;
	u64 c_duration;
	u64 c_period;
	u64 wu_lat;
};

/*
 * The two header lines ("# Policy : NAME priority : P" and "#idx ...")
 * into @buf, newline-terminated; without @with_prio the first line is
 * "# Policy : NAME", as rt-app 1.0 writes it for SCHED_DEADLINE.  Returns
 * the length, -1 if it does not fit.
 */
int dlb_runlog_header(char *buf, size_t size, const char *policy_name, bool with_prio, int prio);

/* One record as a newline-terminated line.  Returns the length or -1. */
int dlb_runlog_format(char *buf, size_t size, const struct dlb_runlog_rec *r);

/*
 * Parse one line (trailing newline optional).  Returns 1 with @r filled,
 * 0 for a comment or blank line, -1 with @err set ("column 3 (run): ...")
 * for a malformed one.
 */
int dlb_runlog_parse(const char *line, struct dlb_runlog_rec *r, struct dlb_err *err);

/*
 * Read a whole log file.  On success *@recs (malloc'ed, the caller frees)
 * holds *@nr records and, if @policy is not NULL, the policy name of the
 * "# Policy" line is copied there (empty if absent).  Errors name
 * "path:line: ...", code DLB_EXIT_BAD_INPUT.
 */
int dlb_runlog_read(const char *path, struct dlb_runlog_rec **recs, size_t *nr,
		    char *policy, size_t policy_size, struct dlb_err *err);

#endif
