// SPDX-License-Identifier: GPL-2.0
/* A struct dlb_event as one kernel-format ftrace text line: see event_text.h. */
#include <stdio.h>
#include <string.h>

#include "dlbench/event_text.h"

#include "sbuf.h"

#define TASK_REPORT_MAX	0x100

char *dlb_prev_state_str(char *buf, size_t size, long state)
{
	static const char letters[] = "SDTtXZPI";
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 8; i++) {
		if (!(state & (1L << i)))
			continue;
		if (n && n + 1 < size)
			buf[n++] = '|';
		if (n + 1 < size)
			buf[n++] = letters[i];
	}
	if (!n && size > 1)
		buf[n++] = 'R';
	if ((state & TASK_REPORT_MAX) && n + 1 < size)
		buf[n++] = '+';
	buf[n < size ? n : size - 1] = '\0';
	return buf;
}

/* comm=C pid=P: the head of most event lines */
static void format_task(struct sbuf *sb, const char *comm, int pid)
{
	sb_lit(sb, "comm=");
	sb_str(sb, comm);
	sb_lit(sb, " pid=");
	sb_int(sb, pid);
}

/* %03d (the sign counts in the width: -1 is "-01") */
static void format_cpu03(struct sbuf *sb, int cpu)
{
	if (cpu < 0) {
		sb_lit(sb, "-");
		sb_u64w(sb, (u64)0 - (u64)(s64)cpu, 2, '0', 0);
		return;
	}
	sb_u64w(sb, (u64)cpu, 3, '0', 0);
}

/* The fields after the prefix, printf-free (sbuf.h): one call per trace line. */
static void format_fields(struct sbuf *sb, const struct dlb_event *ev)
{
	char st[24];

	switch (ev->type) {
	case DLB_EV_SWITCH:
		sb_kstr(sb, "sched_switch: prev_comm=", ev->sw.prev_comm);
		sb_kint(sb, " prev_pid=", ev->sw.prev_pid);
		sb_kint(sb, " prev_prio=", ev->sw.prev_prio);
		sb_kstr(sb, " prev_state=", dlb_prev_state_str(st, sizeof(st), ev->sw.prev_state));
		sb_kstr(sb, " ==> next_comm=", ev->sw.next_comm);
		sb_kint(sb, " next_pid=", ev->sw.next_pid);
		sb_kint(sb, " next_prio=", ev->sw.next_prio);
		return;
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
	case DLB_EV_WAKING:
		sb_str(sb, ev->type == DLB_EV_WAKEUP ? "sched_wakeup: " :
		       ev->type == DLB_EV_WAKEUP_NEW ? "sched_wakeup_new: " : "sched_waking: ");
		format_task(sb, ev->wake.comm, ev->wake.pid);
		sb_kint(sb, " prio=", ev->wake.prio);
		sb_lit(sb, " target_cpu=");
		format_cpu03(sb, ev->wake.target_cpu);
		return;
	case DLB_EV_MIGRATE:
		sb_lit(sb, "sched_migrate_task: ");
		format_task(sb, ev->mig.comm, ev->mig.pid);
		sb_kint(sb, " prio=", ev->mig.prio);
		sb_kint(sb, " orig_cpu=", ev->mig.orig_cpu);
		sb_kint(sb, " dest_cpu=", ev->mig.dest_cpu);
		return;
	case DLB_EV_RUNTIME:
		sb_lit(sb, "sched_stat_runtime: ");
		format_task(sb, ev->rt.comm, ev->rt.pid);
		sb_lit(sb, " runtime=");
		sb_u64(sb, ev->rt.runtime);
		sb_lit(sb, " [ns]");
		return;
	case DLB_EV_EXIT:
		/*
		 * The event carries no prio: rt-app's threads return to
		 * SCHED_OTHER (120) before they exit, and are not the last
		 * thread of their process.
		 */
		sb_lit(sb, "sched_process_exit: ");
		format_task(sb, ev->exit.comm, ev->exit.pid);
		sb_lit(sb, " prio=120 group_dead=false");
		return;
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		sb_str(sb, ev->type == DLB_EV_THROTTLE ? "dl_throttle: " : "dl_replenish: ");
		format_task(sb, ev->dl.comm, ev->dl.pid);
		sb_lit(sb, " runtime=");
		sb_s64(sb, (s64)ev->dl.runtime);
		sb_lit(sb, " deadline=");
		sb_u64(sb, ev->dl.deadline);
		return;
	case DLB_EV_MARKER:
		sb_lit(sb, "tracing_mark_write: ");
		if (ev->mark.text)
			sb_put(sb, ev->mark.text, strnlen(ev->mark.text, ev->mark.len));
		return;
	case DLB_EV_IRQ_ENTRY:
		/* the handler's name is not kept: "-" stands for it */
		sb_kint(sb, "irq_handler_entry: irq=", ev->irq.nr);
		sb_lit(sb, " name=-");
		return;
	case DLB_EV_IRQ_EXIT:
		sb_kint(sb, "irq_handler_exit: irq=", ev->irq.nr);
		sb_lit(sb, " ret=handled");
		return;
	case DLB_EV_SOFTIRQ_ENTRY:
	case DLB_EV_SOFTIRQ_EXIT:
		sb_str(sb, ev->type == DLB_EV_SOFTIRQ_ENTRY ? "softirq_entry: vec=" :
		       "softirq_exit: vec=");
		sb_int(sb, ev->irq.nr);
		return;
	case DLB_EV_LOST:
		break;
	}
	sb_lit(sb, "unknown event ");
	sb_int(sb, (int)ev->type);
}

int dlb_event_format(char *buf, size_t size, const struct dlb_event *ev, const char *common_comm)
{
	const char *comm = common_comm ? common_comm : (ev->pid == 0 ? "<idle>" : "<...>");
	struct sbuf sb;
	int n;

	if (ev->type == DLB_EV_LOST) {
		n = snprintf(buf, size, "CPU:%d [LOST %llu EVENTS]", ev->cpu,
			     (unsigned long long)ev->lost.count);
		return n >= 0 && (size_t)n < size ? n : -1;
	}
	if (!size)
		return -1;
	if (ev->pid == 0)
		comm = "<idle>";
	/* "%16s-%-7d [%03d] %s %5llu.%09llu: " then the fields */
	sb_init(&sb, buf, size);
	sb_str_right(&sb, comm, 16);
	sb_lit(&sb, "-");
	sb_int_left(&sb, ev->pid, 7);
	sb_lit(&sb, " [");
	format_cpu03(&sb, ev->cpu);
	if (ev->type == DLB_EV_MARKER)
		sb_lit(&sb, "] ..... ");
	else
		sb_lit(&sb, "] d..2. ");
	sb_u64w(&sb, ev->ts / 1000000000ULL, 5, ' ', 0);
	sb_lit(&sb, ".");
	sb_u64w(&sb, ev->ts % 1000000000ULL, 9, '0', 0);
	sb_lit(&sb, ": ");
	format_fields(&sb, ev);
	return sb.overflow ? -1 : (int)sb.len;
}
