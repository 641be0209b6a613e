// SPDX-License-Identifier: GPL-2.0
/* Names of the normalized event types (include/dlbench/event.h). */
#include "dlbench/event.h"

static const char *const ev_names[] = {
	[DLB_EV_SWITCH] = "sched_switch",
	[DLB_EV_WAKEUP] = "sched_wakeup",
	[DLB_EV_WAKEUP_NEW] = "sched_wakeup_new",
	[DLB_EV_WAKING] = "sched_waking",
	[DLB_EV_MIGRATE] = "sched_migrate_task",
	[DLB_EV_RUNTIME] = "sched_stat_runtime",
	[DLB_EV_EXIT] = "sched_process_exit",
	[DLB_EV_THROTTLE] = "dl_throttle",
	[DLB_EV_REPLENISH] = "dl_replenish",
	[DLB_EV_MARKER] = "marker",
	[DLB_EV_LOST] = "lost",
	[DLB_EV_IRQ_ENTRY] = "irq_handler_entry",
	[DLB_EV_IRQ_EXIT] = "irq_handler_exit",
	[DLB_EV_SOFTIRQ_ENTRY] = "softirq_entry",
	[DLB_EV_SOFTIRQ_EXIT] = "softirq_exit",
};

const char *dlb_ev_type_str(enum dlb_ev_type type)
{
	if ((unsigned int)type < sizeof(ev_names) / sizeof(ev_names[0]) && ev_names[type])
		return ev_names[type];
	return "unknown";
}
