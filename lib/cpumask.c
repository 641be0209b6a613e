// SPDX-License-Identifier: GPL-2.0
/* Cpu (and node) masks as the kernel's list format: "0-3,5". */
#include <stdio.h>

#include "dlbench/cpumask.h"

int dlb_cpumask_list(char *buf, size_t size, const struct dlb_cpumask *m)
{
	unsigned int cpu, first, last;
	size_t n = 0;
	int w;

	if (size)
		buf[0] = '\0';
	cpu = dlb_cpumask_next(m, 0);
	while (cpu < DLB_MAX_CPUS) {
		first = last = cpu;
		while ((cpu = dlb_cpumask_next(m, last + 1)) == last + 1)
			last = cpu;
		if (last != first)
			w = snprintf(buf + n, size - n, n ? ",%u-%u" : "%u-%u", first, last);
		else
			w = snprintf(buf + n, size - n, n ? ",%u" : "%u", first);
		if (w < 0 || (size_t)w >= size - n)
			return -1;
		n += (size_t)w;
	}
	return 0;
}
