/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tests only: the inheritance workloads that test_golden.c runs under v4
 * and test_mainline.c under the mainline versions around a rule, with
 * their schedules where every model agrees.  Instants in the comments
 * are ms; the logs are WLB_SCHED's.
 */
#ifndef DLB_REF_TEST_WLPI_H
#define DLB_REF_TEST_WLPI_H

#include "wlbuild.h"

/* Task @t takes @m, runs @run ns holding it and releases it. */
static inline void wlpi_cs(struct workload *wl, int t, int m, u64 run)
{
	wlb_ev(wl, t, WL_EV_LOCK, 0, m);
	wlb_ev(wl, t, WL_EV_RUN, run, -1);
	wlb_ev(wl, t, WL_EV_UNLOCK, 0, m);
}

/* Task @t takes @outer, then wlpi_cs() on @inner for @run ns, releases @outer. */
static inline void wlpi_nested_cs(struct workload *wl, int t, int outer, int inner, u64 run)
{
	wlb_ev(wl, t, WL_EV_LOCK, 0, outer);
	wlpi_cs(wl, t, inner, run);
	wlb_ev(wl, t, WL_EV_UNLOCK, 0, outer);
}

/*
 * An RT waiter on a throttled -deadline owner, 1 CPU: o (1 ms every 10 ms)
 * holds m for 3 ms of work and is throttled at 1 until 10; FIFO r blocks
 * on m at 2.
 */
static inline struct workload *wlpi_rt_waiter(void)
{
	struct workload *wl = wlb_new(30 * MS);
	int ow, r, m, tm;

	m = wlb_res(wl, "m", WL_RES_MUTEX);
	tm = wlb_res(wl, "to", WL_RES_TIMER);
	ow = wlb_task(wl, "o", WL_POLICY_DEADLINE, 1 * MS, 10 * MS, 10 * MS);
	wlpi_cs(wl, ow, m, 3 * MS);
	wlb_ev(wl, ow, WL_EV_TIMER, 100 * MS, tm);
	r = wlb_task(wl, "r", WL_POLICY_FIFO, 0, 0, 0);
	wl->tasks[r].priority = 50;
	wl->tasks[r].delay_ns = 2 * MS;
	wlpi_cs(wl, r, m, 1 * MS);
	wlb_ev(wl, r, WL_EV_SLEEP, 300 * MS, -1);
	return wl;
}

/*
 * Only a -deadline top waiter boosts (v4's seed fix, mainline from 5.8):
 * o inherits nothing from r and stays throttled, runs 10-11 and 20-21,
 * unlocks at 21, and r runs 21-22.
 */
#define WLPI_RT_WAITER_NO_BOOST			\
	"0 0 swapper/0>o-0\n"			\
	"1000 0 o-0>swapper/0\n"		\
	"2000 0 swapper/0>r-1\n"		\
	"2000 0 r-1>swapper/0\n"		\
	"10000 0 swapper/0>o-0\n"		\
	"11000 0 o-0>swapper/0\n"		\
	"20000 0 swapper/0>o-0\n"		\
	"21000 0 o-0>r-1\n"			\
	"22000 0 r-1>swapper/0\n"

/*
 * A chain through tasks that are not -deadline (issue 13, defect 1), 1 CPU:
 * fair a holds l1 (6 ms of work); fair b (from 1 ms) takes l2, then blocks
 * on l1 when it first runs at 3 (a's fair slice ends); -deadline c (2 ms
 * every 10 ms, from 4) blocks on l2.  c boosts b, and b, blocked on l1,
 * boosts a: a's top waiter is b, itself boosted, not a -deadline task.
 */
static inline struct workload *wlpi_chain(void)
{
	struct workload *wl = wlb_new(30 * MS);
	int a, b, c, l1, l2, tm;

	l1 = wlb_res(wl, "l1", WL_RES_MUTEX);
	l2 = wlb_res(wl, "l2", WL_RES_MUTEX);
	tm = wlb_res(wl, "tc", WL_RES_TIMER);
	a = wlb_task(wl, "a", WL_POLICY_OTHER, 0, 0, 0);
	wlpi_cs(wl, a, l1, 6 * MS);
	wlb_ev(wl, a, WL_EV_SLEEP, 300 * MS, -1);
	b = wlb_task(wl, "b", WL_POLICY_OTHER, 0, 0, 0);
	wl->tasks[b].delay_ns = 1 * MS;
	wlpi_nested_cs(wl, b, l2, l1, 1 * MS);
	wlb_ev(wl, b, WL_EV_SLEEP, 300 * MS, -1);
	c = wlb_task(wl, "c", WL_POLICY_DEADLINE, 2 * MS, 10 * MS, 10 * MS);
	wl->tasks[c].delay_ns = 4 * MS;
	wlpi_cs(wl, c, l2, 1 * MS);
	wlb_ev(wl, c, WL_EV_TIMER, 10 * MS, tm);
	return wl;
}

/*
 * a runs with c's parameters, those of the -deadline task at the chain's
 * end (runtime 2 ms, deadline 14): it ends its work at 6 and hands l1 to
 * b, b runs its 1 ms and hands l2 to c, c ends its job at 8, then its
 * next two jobs at 14 and 24.
 */
#define WLPI_CHAIN_SCHED			\
	"0 0 swapper/0>a-0\n"			\
	"3000 0 a-0>b-1\n"			\
	"3000 0 b-1>a-0\n"			\
	"4000 0 a-0>c-2\n"			\
	"4000 0 c-2>a-0\n"			\
	"6000 0 a-0>b-1\n"			\
	"7000 0 b-1>c-2\n"			\
	"8000 0 c-2>swapper/0\n"		\
	"14000 0 swapper/0>c-2\n"		\
	"15000 0 c-2>swapper/0\n"		\
	"24000 0 swapper/0>c-2\n"		\
	"25000 0 c-2>swapper/0\n"

/*
 * A chain of -deadline tasks, 1 CPU: a (4 ms every 20 ms) holds l1 for 5
 * ms of work, then works 4 ms more; b (3 ms every 15 ms, from 1 ms) takes
 * l2 and blocks on l1; c (2 ms every 10 ms, from 2 ms) blocks on l2.
 * Absolute deadlines c 12 < b 16 < a 20: c boosts b, b boosts a.
 */
static inline struct workload *wlpi_dl_chain(void)
{
	struct workload *wl = wlb_new(40 * MS);
	int a, b, c, l1, l2;

	l1 = wlb_res(wl, "l1", WL_RES_MUTEX);
	l2 = wlb_res(wl, "l2", WL_RES_MUTEX);
	a = wlb_task(wl, "a", WL_POLICY_DEADLINE, 4 * MS, 20 * MS, 20 * MS);
	wlpi_cs(wl, a, l1, 5 * MS);
	wlb_ev(wl, a, WL_EV_RUN, 4 * MS, -1);
	wlb_ev(wl, a, WL_EV_SLEEP, 300 * MS, -1);
	b = wlb_task(wl, "b", WL_POLICY_DEADLINE, 3 * MS, 15 * MS, 15 * MS);
	wl->tasks[b].delay_ns = 1 * MS;
	wlpi_nested_cs(wl, b, l2, l1, 1 * MS);
	wlb_ev(wl, b, WL_EV_SLEEP, 300 * MS, -1);
	c = wlb_task(wl, "c", WL_POLICY_DEADLINE, 2 * MS, 10 * MS, 10 * MS);
	wl->tasks[c].delay_ns = 2 * MS;
	wlpi_cs(wl, c, l2, 1 * MS);
	wlb_ev(wl, c, WL_EV_SLEEP, 300 * MS, -1);
	return wl;
}

/*
 * A -deadline owner behind a fair waiter, 1 CPU: a (2 ms every 10 ms)
 * takes l1, runs 1 ms, sleeps 2 ms, then works 2.5 ms more holding it;
 * fair b takes l2 at 1 and blocks on l1; c (1 ms every 20 ms, from 2,
 * deadline 22, later than a's 10) blocks on l2, then works 0.5 ms.  b's dl.deadline is 0: it
 * never had -deadline parameters.
 */
static inline struct workload *wlpi_dl_owner_fair_waiter(void)
{
	struct workload *wl = wlb_new(30 * MS);
	int a, b, c, l1, l2;

	l1 = wlb_res(wl, "l1", WL_RES_MUTEX);
	l2 = wlb_res(wl, "l2", WL_RES_MUTEX);
	a = wlb_task(wl, "a", WL_POLICY_DEADLINE, 2 * MS, 10 * MS, 10 * MS);
	wlb_ev(wl, a, WL_EV_LOCK, 0, l1);
	wlb_ev(wl, a, WL_EV_RUN, 1 * MS, -1);
	wlb_ev(wl, a, WL_EV_SLEEP, 2 * MS, -1);
	wlb_ev(wl, a, WL_EV_RUN, 2500 * US, -1);
	wlb_ev(wl, a, WL_EV_UNLOCK, 0, l1);
	wlb_ev(wl, a, WL_EV_SLEEP, 300 * MS, -1);
	b = wlb_task(wl, "b", WL_POLICY_OTHER, 0, 0, 0);
	wlpi_nested_cs(wl, b, l2, l1, 500 * US);
	wlb_ev(wl, b, WL_EV_SLEEP, 300 * MS, -1);
	c = wlb_task(wl, "c", WL_POLICY_DEADLINE, 1 * MS, 20 * MS, 20 * MS);
	wl->tasks[c].delay_ns = 2 * MS;
	wlpi_cs(wl, c, l2, 500 * US);
	wlb_ev(wl, c, WL_EV_SLEEP, 300 * MS, -1);
	return wl;
}

#endif
