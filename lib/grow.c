// SPDX-License-Identifier: GPL-2.0
/* dlb_grow(): see grow.h. */
#include <stdlib.h>

#include "dlbench/grow.h"

int dlb_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}
