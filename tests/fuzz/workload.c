// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the rt-app JSON workload loader (wl_load_buffer). */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "dlbench/error.h"
#include "dlbench/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct workload *wl = NULL;
	struct dlb_err err;

	memset(&err, 0, sizeof(err));
	if (wl_load_buffer("fuzz.json", (const char *)data, size, NULL, &wl, &err) == 0)
		wl_free(wl);
	return 0;
}
