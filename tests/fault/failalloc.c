// SPDX-License-Identifier: GPL-2.0
/* Fault injection for allocations (failalloc.h): the --wrap'ed allocators. */
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);

static bool armed, failed;
static unsigned long left;

void failalloc_arm(unsigned long n)
{
	armed = true;
	failed = false;
	left = n;
}

void failalloc_disarm(void)
{
	armed = false;
}

bool failalloc_failed(void)
{
	return failed;
}

/* true: this allocation fails */
static bool fail_now(void)
{
	if (!armed)
		return false;
	if (left) {
		left--;
		return false;
	}
	failed = true;
	return true;
}

void *__wrap_malloc(size_t size)
{
	return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fail_now() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}
