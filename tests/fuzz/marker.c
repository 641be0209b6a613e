// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: the trace_marker parser (dlb_marker_parse), all dialects. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "dlbench/error.h"
#include "dlbench/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dlb_marker m;
	struct dlb_err err;
	char buf[DLB_MARKER_MAX];

	memset(&err, 0, sizeof(err));
	/* Not NUL-terminated on purpose: the parser must honour @len. */
	if (dlb_marker_parse((const char *)data, size, 4242, &m, &err) == 1)
		(void)dlb_marker_format(buf, sizeof(buf), &m);
	return 0;
}
