/* SPDX-License-Identifier: GPL-2.0 */
/* A growable array's one growth rule, shared by the libraries. */
#ifndef DLBENCH_GROW_H
#define DLBENCH_GROW_H

#include <stddef.h>

/*
 * Make @*arr (@*cap elements of @size bytes) hold at least @n, doubling
 * from 16.  0, or -1 on allocation failure (then @*arr and @*cap are as
 * they were).
 */
int dlb_grow(void **arr, size_t *cap, size_t n, size_t size);

#endif
