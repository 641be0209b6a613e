/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The busy loop of run events, and its calibration: rt-app's model, where
 * a run event of N µs is N µs worth of *work* (loops), not of wall time, so
 * that a preempted job takes longer, as a real job would.
 */
#ifndef RTAPP_CALIB_H
#define RTAPP_CALIB_H

#include "dlbench/dltime.h"
#include "dlbench/error.h"

/* Execute @loops loops of the calibrated work.  Never optimised away. */
void rtapp_busy_loops(u64 loops);

/*
 * Measure ns per loop on @cpu (-1: where the caller runs), pinning the
 * calling thread there for the measurement and restoring its affinity.
 * Returns 0 and *@ns_per_loop, or -1 with @err set.
 */
int rtapp_calibrate(int cpu, double *ns_per_loop, struct dlb_err *err);

/* Loops for @ns of work at @ns_per_loop (at least 1 for @ns > 0). */
u64 rtapp_loops_for(u64 ns, double ns_per_loop);

#endif
