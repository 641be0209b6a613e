/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace readers: any supported trace file in, the normalized event stream
 * (include/dlbench/event.h) out, plus what the reader learned about the
 * data's quality.  Streaming: memory does not grow with the number of
 * events.
 *
 * Formats, detected from the content (not the file name):
 *   trace.dat v6/v7 (zstd or not), through libtracecmd + libtraceevent;
 *   kernel text (/sys/kernel/tracing/trace, trace_pipe), which is also what
 *   the reference simulator writes;
 *   trace-cmd report default output, and trace-cmd report -N / -R / -t.
 */
#ifndef DLB_TRACE_INPUT_H
#define DLB_TRACE_INPUT_H

#include <stdbool.h>

#include "dlbench/error.h"
#include "dlbench/event.h"

enum dlb_trace_format {
	DLB_FMT_UNKNOWN,
	DLB_FMT_TRACE_DAT,
	DLB_FMT_KERNEL_TEXT,	/* also the reference simulator's output */
	DLB_FMT_TRACECMD_REPORT,
};

/* What the reader saw; complete after dlb_trace_read() returns. */
struct dlb_trace_quality {
	u64 events;		/* events delivered */
	u64 lost_events;	/* sum of known lost counts */
	u64 lost_records;	/* lost-event records (count may be unknown) */
	u64 stats_lost;		/* overrun + dropped in trace.dat's per-CPU stats; folded
				 * into lost_events when larger (events lost with no
				 * record saying where) */
	u64 backwards;		/* timestamps going backwards within a CPU */
	u64 bad_lines;		/* text lines (or trace.dat records) that could not be parsed */
	u64 first_bad_line;	/* text: line number of the first one, 0 if none */
	u64 first_bad_offset;	/* trace.dat: offset of the first bad record (in the
				 * uncompressed stream of a v7 file) */
	u64 unknown_events;	/* well-formed events we do not use */
	bool truncated;		/* file ends mid-record / mid-line / mid-page */
	int nr_cpus;		/* CPUs in the file header (trace.dat), or seen */
	int cpus_without_events;	/* of nr_cpus, how many recorded nothing */
	u64 first_ts, last_ts;
	char clock[16];		/* trace clock if known ("mono", "local"...), else "" */
	u64 ts_unit_ns;		/* timestamp resolution: 1, or 1000 for µs text */
	enum dlb_trace_format format;
	bool uncompressed_copy;	/* a zstd trace.dat read through an uncompressed copy */
};

struct dlb_trace;	/* opaque */

/*
 * Open @path and detect its format.  Errors: unreadable file, directory,
 * empty, not a trace ("not a trace: ..."), bad magic, truncated header;
 * message names the file, err->code is DLB_EXIT_BAD_INPUT.
 */
struct dlb_trace *dlb_trace_open(const char *path, struct dlb_err *err);

/*
 * Deliver every event in time order (merged across CPUs) to @fn.  Returns
 * 0 at the end, the callback's non-zero value if it stopped the stream, or
 * -1 with @err set on an unrecoverable read error.  Lost events are
 * delivered as DLB_EV_LOST events at their place in the stream, and are
 * counted in the quality record.
 */
int dlb_trace_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err);

/*
 * Decode a trace.dat's per-CPU streams on @jobs threads (before
 * dlb_trace_read; 1: one thread, 0: the default, $DLB_TRACE_JOBS or the
 * online CPUs).  The events, their order and the quality record are the
 * same whatever the number (docs/trace-formats.md, "Parallel decoding");
 * text traces are read on one thread.
 */
void dlb_trace_set_jobs(struct dlb_trace *t, int jobs);

const struct dlb_trace_quality *dlb_trace_quality(const struct dlb_trace *t);
enum dlb_trace_format dlb_trace_format(const struct dlb_trace *t);

/* Events CPU @cpu recorded (after dlb_trace_read); 0 for a CPU out of range. */
u64 dlb_trace_cpu_events(const struct dlb_trace *t, int cpu);
const char *dlb_trace_format_str(enum dlb_trace_format f);

void dlb_trace_close(struct dlb_trace *t);

#endif
