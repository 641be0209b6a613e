/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers of the scheduler's own statistics, snapshots of which a run
 * leaves beside its trace:
 *
 *   /proc/PID/sched        per task: mainline dl.runtime (remaining, ns) and
 *                          dl.deadline (absolute, ns); the seed's (patch 005)
 *                          dl.stats.last_dmiss, dmiss_max, last_rorun, rorun_max
 *                          printed "%Ld.%06ld" (ms.ns); switch and migration counts
 *   /proc/PID/schedstat    per task: on-CPU time, run delay, timeslices
 *   /sys/kernel/debug/sched/debug   per CPU dl_rq[N]: .dl_nr_running,
 *                          .dl_bw->bw, .dl_bw->total_bw (mainline), .exec_clock,
 *                          .min_deadline, .max_deadline (the seed)
 *   /proc/schedstat        per CPU counters, version 15 and later
 *
 * Each parser takes the text (a file's content, or the part of a combined
 * snapshot file the caller cut out) and a name for messages.  Fields a
 * kernel does not print are flagged absent, not errors; a field we use
 * with a malformed value is an error naming name:line and the field.
 * Times are ns.
 */
#ifndef DLB_SCHEDSTAT_H
#define DLB_SCHEDSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "dlbench/dltime.h"
#include "dlbench/error.h"
#include "dlbench/event.h"

/* ---- /proc/PID/sched ---- */

#define DLB_TS_DL	0x1	/* dl_runtime, dl_deadline */
#define DLB_TS_DL_STATS	0x2	/* last_dmiss ... rorun_max (the seed's schedstats) */
#define DLB_TS_COUNTS	0x4	/* nr_switches ... nr_migrations, sum_exec_runtime */

struct dlb_task_sched {
	unsigned int has;		/* DLB_TS_* */
	char comm[DLB_COMM_LEN];
	int pid, threads;
	int policy, prio;		/* -1 if absent */
	s64 dl_runtime;			/* remaining runtime; negative when overrun */
	u64 dl_deadline;		/* absolute, rq clock */
	u64 last_dmiss, dmiss_max;	/* deadline miss amounts */
	u64 last_rorun, rorun_max;	/* runtime overrun amounts */
	u64 sum_exec_runtime;
	u64 nr_switches, nr_voluntary_switches, nr_involuntary_switches, nr_migrations;
};

int dlb_task_sched_parse(const char *text, size_t len, const char *name,
			 struct dlb_task_sched *ts, struct dlb_err *err);

/* ---- /proc/PID/schedstat: "sum_exec_runtime run_delay pcount" ---- */

struct dlb_task_schedstat {
	u64 cpu_time, run_delay, timeslices;
};

int dlb_task_schedstat_parse(const char *text, size_t len, const char *name,
			     struct dlb_task_schedstat *ss, struct dlb_err *err);

/* ---- /sys/kernel/debug/sched/debug ---- */

#define DLB_DLRQ_NR	0x1	/* dl_nr_running */
#define DLB_DLRQ_BW	0x2	/* bw, total_bw (fixed point, 1 << 20 = one CPU) */
#define DLB_DLRQ_SEED	0x4	/* exec_clock, min_deadline, max_deadline */

struct dlb_dl_rq {
	unsigned int has;		/* DLB_DLRQ_*; 0: no dl_rq block for this CPU */
	u64 dl_nr_running;
	u64 bw, total_bw;
	u64 exec_clock;
	s64 min_deadline, max_deadline;	/* the seed prints -1 (none) as "0.000001" */
};

struct dlb_sched_debug {
	char version[64];		/* "v0.11, 6.18.44 ..." */
	int nr_cpus;			/* highest dl_rq index + 1 */
	struct dlb_dl_rq *dl_rq;	/* [nr_cpus], owned; dlb_sched_debug_free() */
};

int dlb_sched_debug_parse(const char *text, size_t len, const char *name,
			  struct dlb_sched_debug *sd, struct dlb_err *err);
void dlb_sched_debug_free(struct dlb_sched_debug *sd);

/* ---- /proc/schedstat ---- */

struct dlb_schedstat_cpu {
	bool present;
	u64 yld_count, sched_count, sched_goidle, ttwu_count, ttwu_local;
	u64 rq_cpu_time, run_delay, pcount;	/* ns, ns, timeslices */
};

struct dlb_schedstat {
	int version;
	u64 timestamp;			/* jiffies */
	int nr_cpus;			/* highest cpuN + 1 */
	int nr_domains;			/* domain lines seen (not interpreted) */
	struct dlb_schedstat_cpu *cpu;	/* [nr_cpus], owned; dlb_schedstat_free() */
};

int dlb_schedstat_parse(const char *text, size_t len, const char *name,
			struct dlb_schedstat *st, struct dlb_err *err);
void dlb_schedstat_free(struct dlb_schedstat *st);

/*
 * Read a whole (small, procfs or debugfs) file into a NUL-terminated
 * buffer the caller frees.  -1 with err naming the file.
 */
int dlb_read_small_file(const char *path, char **text, size_t *len, struct dlb_err *err);

#endif
