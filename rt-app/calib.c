// SPDX-License-Identifier: GPL-2.0
/* Busy loop and its calibration (see calib.h). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "calib.h"

/*
 * One loop: a chain of dependent multiply-adds, so its length is set by
 * the FPU's latency, not by memory or branch prediction, and the compiler
 * cannot fold it.  Eight steps keep the loop overhead small.
 */
static volatile double sink;

void rtapp_busy_loops(u64 loops)
{
	double x = sink + 1.0;
	u64 i;

	for (i = 0; i < loops; i++) {
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
		x = x * 0.9999999 + 1e-7;
	}
	sink = x;
}

static u64 now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

u64 rtapp_loops_for(u64 ns, double ns_per_loop)
{
	double l = (double)ns / ns_per_loop;

	if (ns == 0)
		return 0;
	return l < 1.0 ? 1 : (u64)llround(l);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median of 21 samples of ~5 ms each.  Not the minimum: on a virtual
 * CPU the cost of a loop varies by a few percent from sample to sample
 * (the host's load, not interference we could avoid), and a run event
 * should last the requested time on average, not in the best case.
 */
#define CALIB_SAMPLES	21

static double measure(void)
{
	double v[CALIB_SAMPLES];
	u64 loops = 1000, t0, dt;
	int i;

	/* grow until one sample takes ~5 ms */
	for (;;) {
		t0 = now_ns(CLOCK_MONOTONIC);
		rtapp_busy_loops(loops);
		dt = now_ns(CLOCK_MONOTONIC) - t0;
		if (dt >= 5 * NSEC_PER_MSEC)
			break;
		loops *= 2;
	}
	for (i = 0; i < CALIB_SAMPLES; i++) {
		t0 = now_ns(CLOCK_MONOTONIC);
		rtapp_busy_loops(loops);
		dt = now_ns(CLOCK_MONOTONIC) - t0;
		v[i] = (double)dt / (double)loops;
	}
	qsort(v, CALIB_SAMPLES, sizeof(v[0]), cmp_double);
	return v[CALIB_SAMPLES / 2];
}

int rtapp_calibrate(int cpu, double *ns_per_loop, struct dlb_err *err)
{
	struct sched_param old_param, rt = { .sched_priority = 99 };
	int rc, old_policy;
	cpu_set_t old, one;
	bool fifo;

	if (cpu >= 0) {
		if (pthread_getaffinity_np(pthread_self(), sizeof(old), &old))
			return dlb_err_set(err, DLB_EXIT_ENV, "calibration: cannot read affinity");
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		rc = pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
		if (rc)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "calibration: cannot run on "
					   "CPU%d: %s", cpu, dlb_strerror(rc));
	}
	/*
	 * Measure as SCHED_FIFO when allowed: fair tasks on that CPU (other
	 * users' builds) would otherwise stretch samples at random.  ~0.1 s,
	 * within RT throttling's 0.95 s per second.
	 */
	fifo = pthread_getschedparam(pthread_self(), &old_policy, &old_param) == 0 &&
	       pthread_setschedparam(pthread_self(), SCHED_FIFO, &rt) == 0;
	*ns_per_loop = measure();
	if (fifo)
		pthread_setschedparam(pthread_self(), old_policy, &old_param);
	if (cpu >= 0)
		pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	return 0;
}
