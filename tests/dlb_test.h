/* SPDX-License-Identifier: GPL-2.0 */
/* Common includes and prerequisite checks for cmocka tests. */
#ifndef DLB_TEST_H
#define DLB_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

/* Print the reason (the harness lists it) and skip the test. */
#define dlb_skip(reason) do {				\
	print_message("# SKIP %s\n", (reason));		\
	skip();						\
} while (0)

#define dlb_need_root() do {				\
	if (geteuid() != 0)				\
		dlb_skip("needs root");			\
} while (0)

/* Source tree and build tree, set by make check. */
static inline const char *dlb_src(void)
{
	const char *s = getenv("DLB_SRC");

	return s ? s : ".";
}

static inline const char *dlb_build(void)
{
	const char *s = getenv("DLB_BUILD");

	return s ? s : "build";
}

#endif
