/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder: scheduler events of one run into a private tracefs
 * instance (own ring buffer, own clock, own events), saved as trace.dat
 * (trace-cmd extract, KernelShark opens it) or as kernel text streamed from
 * the instance's trace_pipe (boards without trace-cmd).
 *
 * Nothing global is changed: the top-level buffer, its events, its clock
 * and its tracing_on are left alone; everything we set lives in the
 * instance, and removing the instance restores it all.
 *
 * Usage: rec_find_readers() (refuse when someone steals events),
 * rec_create(), rec_start(), ... the run ..., rec_stop() (on every path),
 * rec_save(), rec_free() (removes the instance).
 */
#ifndef DLB_RECORDER_H
#define DLB_RECORDER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "dlbench/dltime.h"
#include "dlbench/error.h"

#define REC_NAME_PREFIX		"dlbench-rec-"
#define REC_MAX_EVENTS		32
#define REC_MAX_CPUS		1024
#define REC_MAX_WARN		16

enum rec_format {
	REC_FMT_AUTO,		/* dat when trace-cmd is there, text otherwise */
	REC_FMT_DAT,		/* trace-cmd extract -> trace.dat */
	REC_FMT_TEXT,		/* stream trace_pipe -> trace.txt */
	REC_FMT_BUFFER,		/* the instance's `trace` after the run -> trace.txt */
};

struct rec_opts {
	const char *tracefs;		/* NULL: found (and mounted if needed) */
	const char *instance;		/* NULL: dlbench-rec-PID */
	const char *clock;		/* "mono" */
	unsigned long buffer_kb;	/* per CPU */
	enum rec_format format;
	bool copy_marker;		/* set options/copy_trace_marker */
	bool top_on;			/* top-level tracing_on 1 while recording (rt-app 1.0) */
	bool no_irq;			/* do not record rec_irq_events */
	const char *events[REC_MAX_EVENTS];	/* "system:event" */
	int nr_events;
};

/* A process reading a trace_pipe or trace_pipe_raw it should not. */
struct rec_reader {
	pid_t pid;
	char comm[32];
	char path[256];
};

/*
 * Is @path (an fd link) a consuming reader of the top-level buffer or of
 * the instance called @instance (NULL: top level only)?
 */
bool rec_path_steals(const char *path, const char *instance);

/*
 * Scan @proc_root ("/proc" or a test tree) for processes other than
 * @self holding such a file open.  Fills at most @max entries of @out and
 * returns how many readers there are (may exceed @max), or -1 with @err.
 */
int rec_find_readers(const char *proc_root, pid_t self, const char *instance,
		     struct rec_reader *out, int max, struct dlb_err *err);

/* The sched events recorded by default (markers come as ftrace:print). */
extern const char *const rec_default_events[];
/* The interrupt events recorded by default where the kernel has them (not with no_irq). */
#define REC_NR_IRQ_EVENTS	14
extern const char *const rec_irq_events[];

struct rec;	/* opaque */

/*
 * Create and configure the instance (buffer, clock, events, marker copy),
 * tracing still off.  Stale instances of dead recorders (dlbench-rec-PID
 * with PID gone) are removed first.  Errors: DLB_EXIT_ENV.
 */
struct rec *rec_create(const struct rec_opts *o, struct dlb_err *err);

/* Format chosen (auto resolved), instance name, its trace_marker path. */
enum rec_format rec_format(const struct rec *r);

/*
 * What the recorder worked around (a stale instance removed, an optional
 * event missing, trace-cmd extract failing): the next unread one-line
 * message, NULL when none is left.  The library never prints; main()
 * prints these after rec_create() and rec_save().
 */
const char *rec_warning(struct rec *r);
const char *rec_instance_name(const struct rec *r);
const char *rec_marker_path(const struct rec *r);
const char *rec_tracefs_dir(const struct rec *r);

/* Tracing on; in text mode @out_dir/trace.txt is opened for streaming. */
int rec_start(struct rec *r, const char *out_dir, struct dlb_err *err);

/*
 * Text mode: copy what trace_pipe has now to trace.txt, waiting at most
 * @timeout_ms for data (0: do not wait).  Dat mode: just sleeps.
 * Returns 0, or -1 with @err on a write error.  EINTR is not an error.
 */
int rec_pump(struct rec *r, int timeout_ms, struct dlb_err *err);

/* Tracing off (idempotent, safe on every path), text drained, lost counted. */
void rec_stop(struct rec *r);

/* Events the ring buffer lost (overrun + dropped + commit overrun), all CPUs. */
u64 rec_lost_events(const struct rec *r);
int rec_nr_cpus(const struct rec *r);
/* rec_irq_events[@i] is recorded */
bool rec_irq_event_on(const struct rec *r, int i);
u64 rec_lost_cpu(const struct rec *r, int cpu);

/*
 * Save the buffer: dat mode runs `trace-cmd extract` into @out_dir/trace.dat
 * (its output in @out_dir/record-extract.log); if that fails the buffer is
 * dumped as text to trace.txt instead and *@file says so.  Text mode: the
 * file is already written.  *@file: "trace.dat" or "trace.txt", set also
 * when saving failed: then it names the partially written file (a write or
 * close error, e.g. ENOSPC, of trace.txt) for the caller to flag or remove.
 */
int rec_save(struct rec *r, const char *out_dir, const char **file, struct dlb_err *err);

/*
 * The kernel's jiffies and its clock (ktime, ns) read together from
 * @timer_list (/proc/timer_list; root only): its "now at N nsecs" line and
 * the first "jiffies: N" after it.  0, or -1 when either is missing.
 */
int rec_jiffies(const char *timer_list, u64 *jiffies, u64 *now);

/*
 * The tick rate, CONFIG_HZ, from two rec_jiffies() samples @j0, @t0 and
 * @j1, @t1 at least 100 ms apart: their jiffies per second, taken as the
 * nearest of 100, 250, 300 and 1000 when within 8 % of it (the samples are
 * off by at most a tick each: 2 % at 250 Hz over 0.5 s).  0: none fits.
 */
unsigned int rec_tick_hz(u64 j0, u64 t0, u64 j1, u64 t1);

/* Tracing off and the instance removed; NULL is fine. */
void rec_free(struct rec *r);

#endif
