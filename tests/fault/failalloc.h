/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for allocations, for tests: a test program linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup (the Makefile's
 * FAILALLOC_LDFLAGS) has every allocation of its own objects and static
 * libraries (not of shared libraries) go through here.  Arm it to make the
 * Nth next allocation fail, and every one after it, as real memory
 * exhaustion does:
 *
 *	for (n = 0; ; n++) {
 *		failalloc_arm(n);
 *		rc = code_under_test();
 *		failalloc_disarm();
 *		if (!failalloc_failed())
 *			break;			// n was past its last allocation
 *		// rc must be the documented error
 *	}
 */
#ifndef DLB_TESTS_FAILALLOC_H
#define DLB_TESTS_FAILALLOC_H

#include <stdbool.h>

/* Allocation number @n from now (0: the next) and all after it fail. */
void failalloc_arm(unsigned long n);
void failalloc_disarm(void);
/* Did an allocation fail since the last failalloc_arm()? */
bool failalloc_failed(void);

#endif
