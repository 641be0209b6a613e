/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel backend's insides, shared by kernel.c (the run: resources,
 * threads' setup and start, stop, teardown, summary) and kthread.c (what a
 * thread does once released: its events, on real clocks).
 */
#ifndef RTAPP_KERNEL_H
#define RTAPP_KERNEL_H

#include <errno.h>
#include <time.h>

#include "rtapp.h"

static inline u64 now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static inline u64 now_cputime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static inline bool run_stopping(const struct rtapp_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

static inline bool stopping(const struct rtapp_thread *th)
{
	return run_stopping(th->run);
}

/*
 * Absolute sleep.  The main thread interrupts sleepers with SIGUSR1 when
 * the run stops, so a long period does not delay the end; other
 * interruptions resume the sleep.
 */
static inline void sleep_until_run(const struct rtapp_run *run, u64 t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NSEC_PER_SEC),
			       .tv_nsec = (long)(t % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (run && run_stopping(run))
			return;
}

/* kthread.c: the interpreter's operations, a thread's events, its locks and log */
extern const struct dlb_interp_ops rtapp_kernel_ops;
void rtapp_thread_events(struct rtapp_thread *th);
/* kernel.c: rt-app's fork by @parent of one more thread of task @task; DONE or STOP. */
int rtapp_thread_fork(struct rtapp_thread *parent, int task);
int rtapp_set_affinity(const struct dlb_cpumask *m);
void rtapp_thread_release_held(struct rtapp_thread *th);
void rtapp_log_flush(struct rtapp_thread *th);
/* @th could not write its output file @name: the first failure (and errno) is kept. */
void rtapp_thread_write_failed(struct rtapp_thread *th, const char *name);

#endif
