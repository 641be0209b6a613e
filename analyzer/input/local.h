/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to analyzer/input/: the trace handle behind analyzer/input/trace_input.h
 * and what the format readers share (per-CPU bookkeeping, payload parsing).
 */
#ifndef DLB_INPUT_LOCAL_H
#define DLB_INPUT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_input.h"

#define DLB_TRACE_MAX_CPUS	4096	/* more than that in a text line is garbage */

struct dat_reader;
struct text_reader;

/* What we track per CPU to fill the quality record. */
struct cpu_track {
	u64 last_ts;
	u64 events;
};

struct dlb_trace {
	char *path;
	enum dlb_trace_format fmt;
	struct dlb_trace_quality q;
	bool read_done;
	int jobs;		/* decoding threads asked for, 0: default (dlb_trace_set_jobs) */

	struct cpu_track *cpus;
	int nr_track;		/* allocated entries of cpus[] */

	struct dat_reader *dat;
	struct text_reader *text;
};

/* Per-CPU accounting of one delivered event: counts, backwards, first/last. */
int trace_note_event(struct dlb_trace *t, const struct dlb_event *ev);
/* Fill cpus_without_events (after the read). */
void trace_finish_quality(struct dlb_trace *t);
/* Grow cpus[] to hold @cpu; -1 on allocation failure. */
int trace_track_cpu(struct dlb_trace *t, int cpu);

/* trace.dat (dat.c) */
int dat_open(struct dlb_trace *t, int fd, struct dlb_err *err);
int dat_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err);
void dat_close(struct dlb_trace *t);

/*
 * Every offset and size libtracecmd will follow lies inside the file; the
 * first instance buffer's clock into @clock when the file names it.
 */
int dat_check_layout(const char *path, int fd, u64 pos, int version, bool big,
		     char *clock, size_t clock_size, struct dlb_err *err);

/* text (text.c) */
int text_open(struct dlb_trace *t, int fd, const char *head, size_t len, struct dlb_err *err);
int text_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err);
void text_close(struct dlb_trace *t);

/*
 * sched_switch prev_state, normalized: the low byte of the kernel's report
 * bits (S 1, D 2, T 4, t 8, X 16, Z 32, P 64, I 128); 0 = runnable, which
 * includes the preempted "R+" (TASK_REPORT_MAX, 256 on 4.14+, higher before).
 */
#define DLB_STATE_MASK	0xffL

#endif
