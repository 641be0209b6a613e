/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stream of struct dlb_event written as a trace.dat (trace-cmd's file
 * format, version 6: trace-cmd.dat.v6(5)), so that a reference run's folder
 * holds what a kernel run's does and KernelShark or `trace-cmd report`
 * open it.
 *
 * Why not libtracecmd's writer: Debian's libtracecmd 1.3 (trace-cmd 3.1.6)
 * exports tracecmd_output_create() and friends but declares them only in
 * trace-cmd-private.h, which is not installed and whose signatures trace-cmd
 * changes between releases; and that writer takes the event formats from a
 * live tracefs and the CPU data as raw ring-buffer pages anyway.  The file
 * format is documented and stable (v6 is what `trace-cmd record
 * --file-version 6` still writes, and what every libtracecmd reads), so
 * the writer is ours and libtracecmd reading it back is the check.
 *
 * What is written: the header, the page and event header descriptions, the
 * format of every event the reference emits (Linux 6.18's sched_* and
 * ftrace print; dl_throttle and dl_replenish, which no kernel has, in a
 * system "dlb"), a one-symbol kallsyms naming tracing_mark_write, the
 * pid -> comm table of every common_pid seen, and per CPU the ring buffer's
 * pages: each record with its 27-bit time delta, a time-extend record
 * before any delta that does not fit.
 *
 * Events of one CPU must come in time order (the simulator's are).
 * dlb_tracedat_event() rejects a type that has no format here (irq, lost).
 * Nothing is written at @path before dlb_tracedat_finish(): the pages wait
 * in an unnamed temporary file in @path's folder.
 */
#ifndef DLBENCH_TRACEDAT_H
#define DLBENCH_TRACEDAT_H

#include "error.h"
#include "event.h"

struct dlb_tracedat;

/* A writer for @nr_cpus CPUs (1..4096) to @path.  NULL and @err on failure. */
struct dlb_tracedat *dlb_tracedat_create(const char *path, int nr_cpus, struct dlb_err *err);

/*
 * Append @ev; @common_comm is the comm of ev->pid (NULL or pid 0: none
 * kept; trace-cmd shows pid 0 as <idle>).  -1 and @err: a type without a
 * format, a CPU out of range, a time before the CPU's last one, or a write
 * error of the temporary file.
 */
int dlb_tracedat_event(struct dlb_tracedat *td, const struct dlb_event *ev,
		       const char *common_comm, struct dlb_err *err);

/* Write the file at @path.  -1 and @err on a write error (the file is then removed). */
int dlb_tracedat_finish(struct dlb_tracedat *td, struct dlb_err *err);

/* Free @td (NULL is fine); without dlb_tracedat_finish() nothing is left at @path. */
void dlb_tracedat_free(struct dlb_tracedat *td);

#endif
