// SPDX-License-Identifier: GPL-2.0
/* The reference backend: the workload on the reference simulator. */
#include "dlbench/exitcode.h"

#include "rtapp.h"

int rtapp_reference_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err)
{
	(void)run;
	(void)sum;
	return dlb_err_set(err, DLB_EXIT_ENV, "--backend reference: not available yet");
}
