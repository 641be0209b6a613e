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

	/* the kernel pads comm to 16 columns: eight spaces at a time */
	while (end - p >= 8) {
		memcpy(&w, p, 8);
		if (w != 0x2020202020202020ULL)
			break;
		p += 8;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Signed decimal at p; *pp moves past it.  -1 if no digits or overflow. */
static inline int scan_s64(const char **pp, const char *end, s64 *out)
{
	const char *p = *pp, *start, *lim;
	bool neg = false;
	u64 v = 0;
	unsigned int d;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	start = p;
	/* 19 digits cannot overflow a u64; longer numbers are refused */
	lim = end - p > 19 ? p + 19 : end;
	while (p < lim && (d = (unsigned int)(*p - '0')) <= 9) {
		v = v * 10 + d;
		p++;
	}
	if (p == start || (p < end && (unsigned int)(*p - '0') <= 9))
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
