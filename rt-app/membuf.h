/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memrun's buffers on the kernel backend, as rt-app builds and walks them
 * (rt-app.c memread/memwrite/memchase_run, rt-app_parse_config.c
 * init_membuf_resource_sized/init_memchase_resource).
 */
#ifndef RTAPP_MEMBUF_H
#define RTAPP_MEMBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "dlbench/workload.h"

struct rtapp_membuf {
	char *base;		/* NULL: not allocated (not a memrun buffer) */
	size_t len;		/* read/write: the bytes; chase: slots * stride */
};

/*
 * Allocate and fill @b for memrun resource @r: read/write bytes set (and
 * so faulted in) now; a chase's circular chain of pointers, one every
 * stride bytes, over the largest power of two of slots that fits, in
 * bit-reversed order (random) or one stride on (sequential).  0, or -1
 * out of memory.
 */
int rtapp_membuf_init(struct rtapp_membuf *b, const struct wl_resource *r);
void rtapp_membuf_free(struct rtapp_membuf *b);

/*
 * Up to @count bytes read or written from the start of @b, wrapping at its
 * end, or @count hops of a chase from *@cur (NULL: the start; where it
 * stopped is left there for the next use).  Returns what is left when
 * @stop said so between chunks, else 0.
 */
size_t rtapp_membuf_run(const struct rtapp_membuf *b, enum wl_res_type type, size_t count,
			void **cur, bool (*stop)(void *arg), void *arg);

#endif
