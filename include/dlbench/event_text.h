/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One struct dlb_event as one line of the kernel's ftrace text format (what
 * /sys/kernel/tracing/trace prints), so that a trace written by the reference
 * simulator reads like a kernel trace, and the analyzer's text reader parses
 * both.  Timestamps have ns resolution (9 decimals) where the kernel prints
 * µs (6); everything else is the kernel's layout, checked against Linux 6.18:
 *
 *	"%16s-%-7d [%03d] %5s %5llu.%09llu: %s: <fields>"
 *	 comm pid   cpu  flags  sec    ns     event
 *
 *   comm  the task running when the event was recorded (common_pid's comm);
 *         "<idle>" for pid 0, "<...>" when unknown
 *   flags "d..2." for scheduler events, "....." for markers (the kernel's
 *         irqs-off / need-resched / hardirq / preempt-depth / migrate-disable)
 *
 * Event fields, one form per type (DL tasks have prio -1):
 *
 *   sched_switch: prev_comm=A prev_pid=1 prev_prio=-1 prev_state=R+ ==> next_comm=B next_pid=2 next_prio=-1
 *   sched_wakeup: comm=B pid=2 prio=-1 target_cpu=001
 *   sched_wakeup_new: comm=B pid=2 prio=-1 target_cpu=001
 *   sched_waking: comm=B pid=2 prio=-1 target_cpu=001
 *   sched_migrate_task: comm=B pid=2 prio=-1 orig_cpu=0 dest_cpu=1
 *   sched_stat_runtime: comm=B pid=2 runtime=1000 [ns]
 *   sched_process_exit: comm=B pid=2 prio=120 group_dead=false   (6.18's fields;
 *                       the event has no prio: rt-app threads exit as SCHED_OTHER)
 *   dl_throttle: comm=B pid=2 runtime=-5000 deadline=123456789
 *   dl_replenish: comm=B pid=2 runtime=10000000 deadline=223456789
 *   tracing_mark_write: <marker text>
 *   irq_handler_entry: irq=16 name=-     (the handler's name is not kept)
 *   irq_handler_exit: irq=16 ret=handled
 *   softirq_entry: vec=1                 (the kernel adds " [action=TIMER]")
 *   softirq_exit: vec=1
 *
 * prev_state is the kernel's raw value, printed as the kernel does: the
 * low byte's bits as S (0x1) D (0x2) T (0x4) t (0x8) X (0x10) Z (0x20)
 * P (0x40) I (0x80) joined by "|", "R" when none is set, then "+" when
 * 0x100 (TASK_REPORT_MAX: preempted while runnable) is set.  So 0 is "R"
 * and 0x100 "R+".
 *
 * dl_throttle and dl_replenish are no kernel tracepoints (FACTS.md: there
 * are none for -deadline); the reference writes them in the same layout.
 * DLB_EV_LOST prints the kernel's own line "CPU:%d [LOST %llu EVENTS]".
 */
#ifndef DLBENCH_EVENT_TEXT_H
#define DLBENCH_EVENT_TEXT_H

#include <stddef.h>

#include "event.h"

/* Longest line dlb_event_format() writes, with a marker of DLB_MARKER_MAX. */
#define DLB_EVENT_TEXT_MAX	512

/*
 * Format @ev into @buf without a trailing newline.  @common_comm is the
 * comm of ev->pid (NULL: "<...>", or "<idle>" for pid 0).  Returns the
 * length, or -1 if @size is too small (@buf then holds a truncated line).
 */
int dlb_event_format(char *buf, size_t size, const struct dlb_event *ev, const char *common_comm);

/* prev_state as the kernel prints it ("R", "R+", "S", "D|S" ...) into @buf (>= 24). */
char *dlb_prev_state_str(char *buf, size_t size, long state);

#endif
