/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the text trace reader: text.c (lines, their header) and
 * text_event.c (their payload as an event) share the parsed line and the
 * scanners, inline: they run on every field of every line.
 */
#ifndef DLB_INPUT_TEXT_LOCAL_H
#define DLB_INPUT_TEXT_LOCAL_H

#include <stdbool.h>
#include <string.h>

#include "local.h"

/* A trace line: its header (parse_header() in text.c), where its payload is. */
struct line {
	const char *comm;
	size_t comm_len;
	int pid, cpu;
	u64 ts;
	const char *event, *payload, *end;
	size_t event_len;
	bool flags_column;
	int ts_digits;		/* fraction digits of the timestamp */
};

static inline const char *skip_sp(const char *p, const char *end)
{
	u64 w;

	/*
	 * The kernel pads comm to 16 columns and trace-cmd the event name to
	 * 20: eight spaces at a time, and where a word has fewer, its leading
	 * spaces at once (the lowest non-space byte, little-endian).
	 */
	while (end - p >= 8) {
		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ULL;
		if (w) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			p += __builtin_ctzll(w) / 8;
#endif
			break;
		}
		p += 8;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * How many of the 8 bytes at @p (all 8 must be readable) are leading
 * decimal digits, at most @cap (0..8), and their value.  A word at a
 * time: a byte below '0' borrows and one above '9' carries into its bit 7
 * (0x46 + ':' = 0x80; from 0xba up, w - '0' has bit 7 set); borrows and
 * carries only move up, so the lowest flagged byte is the first
 * non-digit.  The digits are then summed pairwise (the usual SWAR
 * conversion), the first digit in the lowest byte, as little-endian loads
 * put it.
 */
static inline unsigned int digits8(const char *p, unsigned int cap, u64 *val)
{
	u64 w, x, m;
	unsigned int n;

	memcpy(&w, p, 8);
	x = w - 0x3030303030303030ULL;
	m = (x | (w + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
	n = m ? (unsigned int)__builtin_ctzll(m) / 8 : 8;
	if (n > cap)
		n = cap;
	if (!n) {
		*val = 0;
		return 0;
	}
	x <<= 8 * (8 - n);		/* drop what follows; leading zeros come in */
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
	x = (x * 10000 + (x >> 32)) & 0x00000000ffffffffULL;
	*val = x;
	return n;
}

/*
 * Unsigned decimal digits at *pp, at most @max of them; *pp moves past
 * them.  Returns how many were read (0: none); the caller looks at what
 * follows.  @max <= 19 cannot overflow a u64.  Byte by byte: pids, prios
 * and CPUs are too short for digits8() to pay.
 */
static inline unsigned int scan_digits(const char **pp, const char *end, unsigned int max,
				       u64 *out)
{
	const char *p = *pp, *lim = (size_t)(end - p) > max ? p + max : end;
	unsigned int d;
	u64 v = 0;

	while (p < lim && (d = (unsigned int)(*p - '0')) <= 9) {
		v = v * 10 + d;
		p++;
	}
	*out = v;
	d = (unsigned int)(p - *pp);
	*pp = p;
	return d;
}

/* Signed decimal at p; *pp moves past it.  -1 if no digits or overflow. */
static inline int scan_s64(const char **pp, const char *end, s64 *out)
{
	const char *p = *pp;
	bool neg = false;
	u64 v;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	/* 19 digits cannot overflow a u64; longer numbers are refused */
	if (!scan_digits(&p, end, 19, &v) || (p < end && (unsigned int)(*p - '0') <= 9))
		return -1;
	*out = neg ? -(s64)v : (s64)v;
	*pp = p;
	return 0;
}

/* A whole token [p, end) as a number. */
static inline int tok_num(const char *p, const char *end, s64 *out)
{
	return scan_s64(&p, end, out) || p != end ? -1 : 0;
}

/* 1: @ev filled from @l's payload; 0: an event we do not use; -1: malformed payload. */
int text_parse_payload(const struct line *l, struct dlb_event *ev);

#endif
