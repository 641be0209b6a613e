// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the procfs/debugfs parsers (/proc/PID/sched,
 * /proc/PID/schedstat, sched_debug, /proc/schedstat).  Each gets the same
 * input: they share no state, and a seed of one is a fine mutation base for
 * the others.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/error.h"
#include "../../analyzer/input/schedstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dlb_task_sched ts;
	struct dlb_task_schedstat ss;
	struct dlb_sched_debug sd;
	struct dlb_schedstat st;
	struct dlb_err err;
	/* The parsers get (text, len) but callers pass NUL-terminated files. */
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&err, 0, sizeof(err));
	(void)dlb_task_sched_parse(text, size, "sched", &ts, &err);
	(void)dlb_task_schedstat_parse(text, size, "schedstat", &ss, &err);
	memset(&sd, 0, sizeof(sd));
	if (dlb_sched_debug_parse(text, size, "debug", &sd, &err) == 0)
		dlb_sched_debug_free(&sd);
	memset(&st, 0, sizeof(st));
	if (dlb_schedstat_parse(text, size, "schedstat", &st, &err) == 0)
		dlb_schedstat_free(&st);
	free(text);
	return 0;
}
