/* SPDX-License-Identifier: GPL-2.0 */
/* cmocka tests on workloads: a workload from a JSON string (include after dlb_test.h). */
#ifndef DLB_TEST_WL_H
#define DLB_TEST_WL_H

#include <string.h>

#include "dlbench/workload.h"

/* @json loaded as "t.json", without kernel limits; the test fails if it is refused. */
static inline struct workload *dlb_test_load(const char *json)
{
	struct workload *wl = NULL;
	struct dlb_err err;

	if (wl_load_buffer("t.json", json, strlen(json), NULL, &wl, &err))
		fail_msg("%s", err.msg);
	return wl;
}

#endif
