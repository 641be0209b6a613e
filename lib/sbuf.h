/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to lib/ and analyzer/: appending text to a fixed buffer without
 * printf, for the formatters on the simulator's hot path (dlb_marker_format,
 * one call per job release/begin/end; dlb_event_format, one call per trace
 * line) and the conformance files' rows (one per job or slice: jobstrace.c,
 * analyzer/conform.c).  Under
 * callgrind on make bench and dlb-sim -o, vsnprintf's format parsing was
 * half or more of all instructions; these write the same bytes as the
 * printf conversions named on each.
 *
 * On overflow, as vsnprintf: as much as fits is written, NUL-terminated,
 * and sb->overflow is set; later appends do nothing.
 */
#ifndef DLBENCH_SBUF_H
#define DLBENCH_SBUF_H

#include <stddef.h>
#include <string.h>

#include "dlbench/dltime.h"

struct sbuf {
	char *p;
	size_t size, len;	/* size > 0; len < size */
	int overflow;
};

static inline void sb_init(struct sbuf *sb, char *p, size_t size)
{
	sb->p = p;
	sb->size = size;
	sb->len = 0;
	sb->overflow = 0;
	p[0] = '\0';
}

static inline void sb_put(struct sbuf *sb, const char *s, size_t len)
{
	size_t room;

	if (sb->overflow)
		return;
	room = sb->size - sb->len - 1;		/* one byte for the NUL */
	if (len > room) {
		len = room;
		sb->overflow = 1;
	}
	memcpy(sb->p + sb->len, s, len);
	sb->len += len;
	sb->p[sb->len] = '\0';
}

/* %s */
static inline void sb_str(struct sbuf *sb, const char *s)
{
	sb_put(sb, s, strlen(s));
}

/* a string literal: its length known at compile time, the copy inlined */
#define sb_lit(sb, lit)	sb_put((sb), (lit), sizeof(lit) - 1)

static inline void sb_pad(struct sbuf *sb, char c, size_t n)
{
	static const char spaces[] = "                ", zeros[] = "0000000000000000";

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		sb_put(sb, c == '0' ? zeros : spaces, k);
		n -= k;
	}
}

/* %*s (right-justified in @width) */
static inline void sb_str_right(struct sbuf *sb, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n < width)
		sb_pad(sb, ' ', width - n);
	sb_put(sb, s, n);
}

/* The decimal digits of @v, at the end of @d[20]; returns where they start. */
static inline size_t sb_digits(char d[20], u64 v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	size_t i = 20;

	/* two digits per division: half the divisions of a digit loop */
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		i -= 2;
		memcpy(d + i, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(d + i, pairs + 2 * v, 2);
	} else {
		d[--i] = (char)('0' + v);
	}
	return i;
}

/*
 * %llu with a minimum @width, padded on the left with @pad (' ': "%5llu",
 * '0': "%09llu"), or on the right with spaces if @left ("%-7llu").
 */
static inline void sb_u64w(struct sbuf *sb, u64 v, size_t width, char pad, int left)
{
	char d[20];
	size_t i = sb_digits(d, v), n = 20 - i;

	if (!left && n < width)
		sb_pad(sb, pad, width - n);
	sb_put(sb, d + i, n);
	if (left && n < width)
		sb_pad(sb, ' ', width - n);
}

/* %llu */
static inline void sb_u64(struct sbuf *sb, u64 v)
{
	char d[20];
	size_t i = sb_digits(d, v);

	sb_put(sb, d + i, 20 - i);
}

/* %lld */
static inline void sb_s64(struct sbuf *sb, s64 v)
{
	if (v < 0) {
		sb_lit(sb, "-");
		sb_u64(sb, (u64)0 - (u64)v);	/* INT64_MIN too */
		return;
	}
	sb_u64(sb, (u64)v);
}

/* %d */
static inline void sb_int(struct sbuf *sb, int v)
{
	sb_s64(sb, v);
}

/* %-*d (left-justified in @width) */
static inline void sb_int_left(struct sbuf *sb, int v, size_t width)
{
	size_t l0 = sb->len;

	sb_int(sb, v);
	if (!sb->overflow && sb->len - l0 < width)
		sb_pad(sb, ' ', width - (sb->len - l0));
}

/* " key=" then the value: the formatters' common pair */
#define sb_kint(sb, lit, v)	do { sb_lit((sb), lit); sb_int((sb), (v)); } while (0)
#define sb_kstr(sb, lit, v)	do { sb_lit((sb), lit); sb_str((sb), (v)); } while (0)

#endif
