/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's SCHED_DEADLINE bandwidth accounting around a kernel run:
 * each root domain's dl_bw->total_bw (per CPU in /sys/kernel/debug/sched/
 * debug: every CPU shows its root domain's) against the fair servers and
 * the DL tasks that exist.  Read before the run (an inconsistent state is
 * refused), in the split state before the partitions are dismantled (the
 * deferred release of the run's bandwidth is waited for there), and after
 * (a changed accounting is a finding: summary.json "dl_accounting",
 * docs/kernel-findings.md).
 */
#ifndef RTAPP_DLBW_H
#define RTAPP_DLBW_H

#include <stdbool.h>
#include <stddef.h>

#include "dlbench/cpumask.h"
#include "dlbench/error.h"
#include "dlbench/summary.h"

#define RTAPP_DLBW_DEBUG	"/sys/kernel/debug/sched/debug"

/* One reading: the accounting per CPU and the DL tasks that exist. */
struct rtapp_dlbw_snap {
	int nr_cpus;			/* CPUs with a dl_rq in sched/debug */
	s64 total[DLB_MAX_CPUS];	/* .dl_bw->total_bw of the CPU's root domain */
	u64 tasks_bw[DLB_MAX_CPUS];	/* DL tasks allowed on the CPU (BW_SHIFT units) */
	int nr_tasks;			/* DL tasks on the machine */
	u64 all_tasks_bw;
};

struct rtapp_dlbw {
	bool usable;			/* the accounting can be read */
	char why[200];			/* if not: why (a counted 'not checked') */
	bool mounted;			/* debugfs mounted by us: unmounted at the end */
	u64 fair_bw[DLB_MAX_CPUS];	/* each CPU's fair server bandwidth */
	char fair_src[160];		/* where fair_bw comes from */
	bool single_domain;		/* root domain = every online CPU (not split) */
	struct rtapp_dlbw_snap before, split, after, repaired;
	bool has_split;			/* split read after the partitions were made */
};

/*
 * Read the accounting before a run.  Unreadable: d->usable false with the
 * reason, and 0 (the run goes on, not checked).  Inconsistent (a negative
 * total_bw, or with one root domain a total that is not the fair servers
 * plus the DL tasks', still so after waiting out a deferred release):
 * -1 with @err (DLB_EXIT_ENV), one line saying what is wrong and how to
 * repair it.
 */
int rtapp_dlbw_begin(struct rtapp_dlbw *d, struct dlb_err *err);

/* Read @s now (a consistent reading: the DL tasks did not change meanwhile). */
int rtapp_dlbw_read(const struct rtapp_dlbw *d, struct rtapp_dlbw_snap *s);

/*
 * Poll until every CPU's accounting less its DL tasks' bandwidth is what
 * it was in @target, at most @max_ns.  @now gets the last reading; returns
 * true if it settled, with the time waited in *@waited.
 */
bool rtapp_dlbw_wait(const struct rtapp_dlbw *d, const struct rtapp_dlbw_snap *target,
		     struct rtapp_dlbw_snap *now, u64 max_ns, u64 *waited);

/*
 * After the run (threads gone, partitions dismantled): wait for the
 * accounting to come back to d->before (at most @max_ns; first the whole
 * @max_ns unless @released: the threads' bandwidth was seen released before
 * a root-domain rebuild), fill @out; on a finding, repair with a rebuild
 * when @repair is set and say what it did in @out.
 */
void rtapp_dlbw_end(struct rtapp_dlbw *d, u64 max_ns, bool released, bool repair,
		    struct dlb_summary_dlbw *out);

/*
 * Before removing the partitions @sets a dead (SIGKILLed) run left: wait
 * until no CPU of them holds more than its partition's fair servers, i.e.
 * the dead threads' bandwidth has been released (at most @max_ns), so the
 * rebuild that follows does not lose it.  False if it did not settle.
 */
bool rtapp_dlbw_wait_stale(const struct dlb_cpumask *sets, int n, u64 max_ns);

/* Unmount debugfs if rtapp_dlbw_begin mounted it. */
void rtapp_dlbw_close(struct rtapp_dlbw *d);

#endif
