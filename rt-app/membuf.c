// SPDX-License-Identifier: GPL-2.0
/* memrun's buffers (membuf.h). */
#include <stdlib.h>
#include <string.h>

#include "membuf.h"

#define CHUNK	((size_t)1 << 20)	/* bytes or hops between two stop checks */

static size_t bitreverse(size_t v, unsigned int bits)
{
	size_t r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		if (v & ((size_t)1 << i))
			r |= (size_t)1 << (bits - i - 1);
	return r;
}

int rtapp_membuf_init(struct rtapp_membuf *b, const struct wl_resource *r)
{
	size_t slots, i, stride = (size_t)r->stride;
	unsigned int bits = 0;

	memset(b, 0, sizeof(*b));
	if (r->type != WL_RES_MEMCHASE) {
		b->base = malloc((size_t)r->size);
		if (!b->base)
			return -1;
		b->len = (size_t)r->size;
		memset(b->base, 0xaa, b->len);
		return 0;
	}
	/* the loader made sure of size >= 2 * stride, stride >= a pointer */
	while (((size_t)2 << bits) <= (size_t)r->size / stride)
		bits++;
	slots = (size_t)1 << bits;
	b->len = slots * stride;
	b->base = calloc(1, b->len);
	if (!b->base)
		return -1;
	for (i = 0; i < slots; i++) {
		size_t from = r->random ? bitreverse(i, bits) : i;
		size_t to = r->random ? bitreverse((i + 1) % slots, bits) : (i + 1) % slots;
		void *next = b->base + to * stride;

		memcpy(b->base + from * stride, &next, sizeof(next));
	}
	return 0;
}

void rtapp_membuf_free(struct rtapp_membuf *b)
{
	free(b->base);
	b->base = NULL;
}

/* @n bytes from @off on, wrapping at the end; where it stopped */
static size_t touch(const struct rtapp_membuf *b, enum wl_res_type type, size_t off, size_t n)
{
	volatile char *p = (volatile char *)b->base;
	size_t i;

	while (n) {
		size_t k = n < b->len - off ? n : b->len - off;

		if (type == WL_RES_MEMWRITE)
			for (i = off; i < off + k; i++)
				p[i] = (char)i;
		else
			for (i = off; i < off + k; i++)
				(void)p[i];
		n -= k;
		off = (off + k) % b->len;
	}
	return off;
}

size_t rtapp_membuf_run(const struct rtapp_membuf *b, enum wl_res_type type, size_t count,
			void **cur, bool (*stop)(void *arg), void *arg)
{
	void *volatile *p;
	size_t n, i, off = 0;

	if (!b->base)
		return 0;
	while (count) {
		if (stop(arg))
			return count;
		n = count < CHUNK ? count : CHUNK;
		if (type != WL_RES_MEMCHASE) {
			/* rt-app: passes over the buffer from its start, then the rest */
			off = touch(b, type, off, n);
		} else {
			p = *cur ? *cur : (void *)b->base;
			for (i = 0; i < n; i++)
				p = *p;
			*cur = (void *)p;
		}
		count -= n;
	}
	return 0;
}
