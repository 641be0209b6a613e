// SPDX-License-Identifier: GPL-2.0
/* A struct dlb_event as one kernel-format ftrace text line: see event_text.h. */
#include <stdio.h>
#include <string.h>

#include "dlbench/event_text.h"

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

static int format_fields(char *buf, size_t size, const struct dlb_event *ev)
{
	char st[24];

	switch (ev->type) {
	case DLB_EV_SWITCH:
		return snprintf(buf, size, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d "
				"prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
				ev->sw.prev_comm, ev->sw.prev_pid, ev->sw.prev_prio,
				dlb_prev_state_str(st, sizeof(st), ev->sw.prev_state),
				ev->sw.next_comm, ev->sw.next_pid, ev->sw.next_prio);
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
	case DLB_EV_WAKING:
		return snprintf(buf, size, "%s: comm=%s pid=%d prio=%d target_cpu=%03d",
				ev->type == DLB_EV_WAKEUP ? "sched_wakeup" :
				ev->type == DLB_EV_WAKEUP_NEW ? "sched_wakeup_new" : "sched_waking",
				ev->wake.comm, ev->wake.pid, ev->wake.prio, ev->wake.target_cpu);
	case DLB_EV_MIGRATE:
		return snprintf(buf, size, "sched_migrate_task: comm=%s pid=%d prio=%d "
				"orig_cpu=%d dest_cpu=%d", ev->mig.comm, ev->mig.pid, ev->mig.prio,
				ev->mig.orig_cpu, ev->mig.dest_cpu);
	case DLB_EV_RUNTIME:
		return snprintf(buf, size, "sched_stat_runtime: comm=%s pid=%d runtime=%llu [ns]",
				ev->rt.comm, ev->rt.pid, (unsigned long long)ev->rt.runtime);
	case DLB_EV_EXIT:
		/*
		 * The event carries no prio: rt-app's threads return to
		 * SCHED_OTHER (120) before they exit, and are not the last
		 * thread of their process.
		 */
		return snprintf(buf, size, "sched_process_exit: comm=%s pid=%d prio=120 "
				"group_dead=false", ev->exit.comm, ev->exit.pid);
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		return snprintf(buf, size, "%s: comm=%s pid=%d runtime=%lld deadline=%llu",
				ev->type == DLB_EV_THROTTLE ? "dl_throttle" : "dl_replenish",
				ev->dl.comm, ev->dl.pid, (long long)ev->dl.runtime,
				(unsigned long long)ev->dl.deadline);
	case DLB_EV_MARKER:
		return snprintf(buf, size, "tracing_mark_write: %.*s", (int)ev->mark.len,
				ev->mark.text ? ev->mark.text : "");
	case DLB_EV_LOST:
		break;
	}
	return snprintf(buf, size, "unknown event %d", (int)ev->type);
}

int dlb_event_format(char *buf, size_t size, const struct dlb_event *ev, const char *common_comm)
{
	const char *comm = common_comm ? common_comm : (ev->pid == 0 ? "<idle>" : "<...>");
	int n, m;

	if (ev->type == DLB_EV_LOST) {
		n = snprintf(buf, size, "CPU:%d [LOST %llu EVENTS]", ev->cpu,
			     (unsigned long long)ev->lost.count);
		return n >= 0 && (size_t)n < size ? n : -1;
	}
	if (ev->pid == 0)
		comm = "<idle>";
	n = snprintf(buf, size, "%16s-%-7d [%03d] %s %5llu.%09llu: ", comm, ev->pid, ev->cpu,
		     ev->type == DLB_EV_MARKER ? "....." : "d..2.",
		     (unsigned long long)(ev->ts / 1000000000ULL),
		     (unsigned long long)(ev->ts % 1000000000ULL));
	if (n < 0 || (size_t)n >= size)
		return -1;
	m = format_fields(buf + n, size - (size_t)n, ev);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		return -1;
	return n + m;
}
