// SPDX-License-Identifier: GPL-2.0
/*
 * Text traces: the kernel's format (tracefs trace / trace_pipe, and the
 * reference simulator, which writes it with ns timestamps), and trace-cmd
 * report's default, -N, -R and -t outputs.  One line parser reads them all:
 *
 *   <comm>-<pid> [CPU] [flags] SSSS.FFFFFF[FFF]: <event>: <payload>
 *
 * where the payload is the kernel's "key=value ..." form, or trace-cmd's
 * short forms for sched_switch ("a:1 [120] R ==> b:2 [-1]") and
 * sched_wakeup ("b:2 [4294967295] CPU:001").
 *
 * Lines are cut out of a large read() buffer with memchr and scanned by
 * hand (no sscanf, no per-line allocation).  A line that is not a trace
 * line is counted with the first such line's number and skipped; a last
 * line without its newline means the file was cut.
 *
 * This file cuts the lines and reads their header (comm, pid, CPU, time,
 * event name) and the lines that are not events; text_event.c makes the
 * payload an event.  What both use: text_local.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "text_local.h"

#define TEXT_BUF	(1 << 18)	/* the longest line we accept; markers are <= 4 KB */
#define HEAD_LINES	1000	/* detection looks this far for an event line */

struct text_reader {
	int fd;
	char *buf;
	size_t start, end;	/* unread bytes are buf[start, end) */
	bool eof;
	u64 lineno;
	u64 last_ts;		/* for LOST lines, which carry no time */
	int min_digits;		/* fewest timestamp fraction digits seen so far */
	bool instances;		/* trace-cmd report lines with a "BUFFER:" prefix seen */
};

/* ---- scanning helpers (the inline ones: text_local.h) ---- */

/*
 * "SSSS.FFFFFF" with 0 to 9 fraction digits, into ns.  Returns the first
 * character after it, or NULL.
 */
static const char *scan_ts(const char *p, const char *end, u64 *ns, int *ndigits)
{
	u64 sec, frac = 0;
	unsigned int digits;

	if (!scan_digits(&p, end, 12, &sec) || (p < end && (unsigned int)(*p - '0') <= 9))
		return NULL;
	if (p < end && *p == '.') {
		p++;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* 6 or 9 digits: up to 8 of them a word at a time */
		if (end - p >= 8) {
			digits = digits8(p, 8, &frac);
			p += digits;
			if (digits == 8 && p < end && (unsigned int)(*p - '0') <= 9) {
				frac = frac * 10 + (unsigned int)(*p - '0');
				p++;
				digits++;
			}
		} else
#endif
			digits = scan_digits(&p, end, 9, &frac);
		/* more than 9 digits: the rest is below a ns */
		while (p < end && (unsigned int)(*p - '0') <= 9) {
			p++;
			digits++;
		}
		*ndigits = (int)digits;
		for (; digits < 9; digits++)
			frac *= 10;
	} else {
		*ndigits = 0;
	}
	*ns = sec * NSEC_PER_SEC + frac;
	return p;
}

/* ---- the line header ---- */

/* latency flags: letters, digits and '.' */
static const unsigned char flag_char[256] = {
	['.'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
};

static inline bool is_flag_char(char c)
{
	return flag_char[(unsigned char)c];
}

/* "comm-pid" ending at @q (after any "(tgid)"): pid after the last '-'. */
static int comm_pid(const char *s, const char *q, struct line *l)
{
	const char *dash;
	s64 v;

	while (q > s && q[-1] == ' ')
		q--;
	if (q > s && q[-1] == ')') {		/* "(tgid)" */
		while (q > s && q[-1] != '(')
			q--;
		if (q == s)
			return -1;
		q--;
		while (q > s && q[-1] == ' ')
			q--;
	}
	dash = q > s ? memrchr(s, '-', (size_t)(q - s)) : NULL;
	if (!dash || tok_num(dash + 1, q, &v))
		return -1;
	l->pid = (int)v;
	l->comm = skip_sp(s, dash);
	l->comm_len = (size_t)(dash - l->comm);
	return 0;
}

/* "TS: event: payload" at @p. */
static int ts_event(const char *p, const char *end, struct line *l)
{
	const char *tok;

	p = scan_ts(p, end, &l->ts, &l->ts_digits);
	if (!p || p == end || *p != ':')
		return -1;
	tok = skip_sp(p + 1, end);
	p = memchr(tok, ':', (size_t)(end - tok));
	if (!p || p == tok || memchr(tok, ' ', (size_t)(p - tok)))
		return -1;
	l->event = tok;
	l->event_len = (size_t)(p - tok);
	l->payload = skip_sp(p + 1, end);
	l->end = end;
	return 0;
}

/*
 * trace-cmd report -l: "comm-pid  1d..3.  TS: event: payload", the CPU
 * number leading the latency flags.  Found from the timestamp backwards:
 * the first "digits.digits: " whose previous word is "<cpu><flags>".
 */
static int parse_header_latency(const char *s, const char *end, struct line *l)
{
	const char *c = s, *t, *f, *fe;
	s64 v;

	while ((c = memchr(c, ':', (size_t)(end - c))) != NULL) {
		for (t = c; t > s && (((unsigned int)(t[-1] - '0') <= 9) || t[-1] == '.'); t--)
			;
		if (t < c && t > s && t[-1] == ' ') {
			fe = t;
			while (fe > s && fe[-1] == ' ')
				fe--;
			for (f = fe; f > s && f[-1] != ' '; f--)
				;
			for (t = f; t < fe && (unsigned int)(*t - '0') <= 9; t++)
				;
			if (t > f && t < fe && !tok_num(f, t, &v) && v < DLB_TRACE_MAX_CPUS) {
				l->cpu = (int)v;
				l->flags_column = true;
				if (comm_pid(s, f, l))
					return -1;
				return ts_event(skip_sp(fe, end), end, l);
			}
		}
		c++;
	}
	return -1;
}

/*
 * "<comm>-<pid> [CPU] [flags] TS: event: payload".  comm may contain
 * spaces, '-' and '[': the CPU field is the first " [digits]" after a
 * "-pid", and pid is after the last '-' before it.  Kernels with the tgid
 * option print "(tgid)" between them.
 */
static int parse_header_std(const char *s, const char *end, struct line *l)
{
	const char *p = s, *lb, *rb, *tok;
	s64 v;

	for (;;) {
		lb = memchr(p, '[', (size_t)(end - p));
		if (!lb)
			return -1;
		for (rb = lb + 1; rb < end && (unsigned)(*rb - '0') <= 9; rb++)
			;
		/* a comm may start with '[' ("[pango] FcInit"): look further */
		if (lb > s && rb < end && *rb == ']' && rb > lb + 1 && lb[-1] == ' ')
			break;
		p = lb + 1;
	}
	if (tok_num(lb + 1, rb, &v) || v >= DLB_TRACE_MAX_CPUS)
		return -1;
	l->cpu = (int)v;
	if (comm_pid(s, lb, l))
		return -1;

	/* optional flags column ("d..2.": never starts with a digit) */
	p = skip_sp(rb + 1, end);
	l->flags_column = false;
	if (p < end && (unsigned int)(*p - '0') > 9) {
		for (tok = p; p < end && *p != ' '; p++)
			if (!is_flag_char(*p))
				return -1;
		if (p == tok)
			return -1;
		l->flags_column = true;
		p = skip_sp(p, end);
	}
	return ts_event(p, end, l);
}

/* The usual layout, else trace-cmd's latency layout (report -l). */
static int parse_header(const char *s, const char *end, struct line *l)
{
	if (parse_header_std(s, end, l) == 0)
		return 0;
	return parse_header_latency(s, end, l);
}

/* ---- lines that are not events ---- */

/*
 * "CPU:N [LOST N EVENTS]" (kernel), "CPU:N [N EVENTS DROPPED]" (trace-cmd),
 * and both without a count.  Returns 1 and fills @ev, or 0.
 */
static int parse_lost(const char *p, const char *end, struct dlb_event *ev)
{
	s64 cpu, n = 0;

	if (end - p < 6 || memcmp(p, "CPU:", 4))
		return 0;
	p += 4;
	if (scan_s64(&p, end, &cpu) || cpu < 0 || cpu >= DLB_TRACE_MAX_CPUS)
		return 0;
	p = skip_sp(p, end);
	if (p == end || *p++ != '[')
		return 0;
	if (end - p >= 5 && !memcmp(p, "LOST ", 5)) {
		p += 5;
		if (scan_s64(&p, end, &n) == 0)
			p = skip_sp(p, end);
		if (end - p < 7 || memcmp(p, "EVENTS]", 7))
			return 0;
	} else {
		if (scan_s64(&p, end, &n) == 0)
			p = skip_sp(p, end);
		if (end - p < 15 || memcmp(p, "EVENTS DROPPED]", 15))
			return 0;
	}
	ev->type = DLB_EV_LOST;
	ev->cpu = (int)cpu;
	ev->pid = 0;
	ev->lost.count = n > 0 ? (u64)n : 0;
	return 1;
}

/*
 * The kernel's header: "#P:2" is the CPU count, and "entries-in-buffer/
 * entries-written: 10/15" says 5 events were overwritten before the read,
 * with no LOST line to say where.
 */
static void parse_comment(struct dlb_trace *t, const char *p, const char *end)
{
	static const char ent[] = "entries-in-buffer/entries-written:";
	const char *q = memmem(p, (size_t)(end - p), ent, sizeof(ent) - 1);
	s64 in, written, cpus;

	if (q) {
		q = skip_sp(q + sizeof(ent) - 1, end);
		if (!scan_s64(&q, end, &in) && q < end && *q++ == '/' &&
		    !scan_s64(&q, end, &written) && written > in) {
			t->q.stats_lost += (u64)(written - in);
			t->q.lost_events += (u64)(written - in);
		}
	}
	q = memmem(p, (size_t)(end - p), "#P:", 3);
	if (q) {
		q += 3;
		if (!scan_s64(&q, end, &cpus) && cpus > 0 && cpus < DLB_TRACE_MAX_CPUS)
			t->q.nr_cpus = (int)cpus;
	}
}

/*
 * trace-cmd report prefixes the lines of an instance buffer with its name
 * ("dlbench-rec-14589:       dlb-record-14589 [001] ..."); returns the
 * start of the line after it, or NULL when the line has no such prefix.
 * A comm cannot end its first word with ':' (the pid follows it).
 */
static const char *buffer_prefix(const char *p, const char *end)
{
	const char *q = memchr(p, ' ', (size_t)(end - p));

	if (!q || q - p < 2 || q[-1] != ':')
		return NULL;
	return skip_sp(q, end);
}

/* 1: @ev filled; 0: nothing to deliver; -1: garbage. */
static int parse_line(struct dlb_trace *t, const char *s, const char *end, struct dlb_event *ev)
{
	struct line l;
	const char *p = skip_sp(s, end), *q;
	s64 cpus;
	int r;

	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (p == end)
		return 0;
	if (*p == '#') {
		parse_comment(t, p, end);
		return 0;
	}
	/* older trace-cmd report opens with "version = 6" */
	if (*p == 'v' && end - p > 10 && !memcmp(p, "version = ", 10))
		return 0;
	if (*p == 'c' && end - p > 5 && !memcmp(p, "cpus=", 5)) {
		p += 5;
		if (tok_num(p, end, &cpus) || cpus <= 0 || cpus >= DLB_TRACE_MAX_CPUS)
			return -1;
		t->q.nr_cpus = (int)cpus;
		return 0;
	}
	if (*p == 'C') {
		if (parse_lost(p, end, ev)) {
			ev->ts = t->text->last_ts;
			return 1;
		}
		/* trace-cmd report: "CPU 1 is empty" */
		if (end - p > 9 && !memcmp(end - 9, " is empty", 9) && !memcmp(p, "CPU ", 4))
			return 0;
	}
	/*
	 * A file with instance buffers: they are the recording, the top
	 * buffer's lines (unprefixed: markers copied there, on the top
	 * buffer's own clock) are not read -- as dat.c does for trace.dat.
	 */
	q = t->fmt == DLB_FMT_TRACECMD_REPORT ? buffer_prefix(p, end) : NULL;
	if (q && parse_header(q, end, &l) == 0) {
		t->text->instances = true;
	} else {
		if (parse_header(p, end, &l))
			return -1;
		if (t->text->instances)
			return 0;
	}
	ev->ts = l.ts;
	ev->cpu = l.cpu;
	ev->pid = l.pid;
	/* the coarsest timestamp seen sets the resolution */
	if (l.ts_digits < t->text->min_digits) {
		t->text->min_digits = l.ts_digits;
		if (l.ts_digits < 9) {
			u64 unit = 1;
			int d;

			for (d = l.ts_digits; d < 9; d++)
				unit *= 10;
			if (unit > t->q.ts_unit_ns)
				t->q.ts_unit_ns = unit;
		} else if (!t->q.ts_unit_ns) {
			t->q.ts_unit_ns = 1;
		}
	}
	r = text_parse_payload(&l, ev);
	if (r == 0) {
		t->q.unknown_events++;
		if (trace_track_cpu(t, l.cpu) == 0)
			t->cpus[l.cpu].events++;
	}
	return r;
}

/* ---- line reader ---- */

/* Next line in [*s, *e) without its newline; 0 at the end, 1 a line, 2 a cut last line. */
static int next_line(struct text_reader *r, const char **s, const char **e, int *err_no)
{
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			*s = r->buf + r->start;
			*e = nl;
			r->start = (size_t)(nl - r->buf) + 1;
			r->lineno++;
			return 1;
		}
		if (r->eof) {
			if (r->start == r->end)
				return 0;
			*s = r->buf + r->start;
			*e = r->buf + r->end;
			r->start = r->end;
			r->lineno++;
			return 2;
		}
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == TEXT_BUF) {
			/* a line longer than the buffer: return its head as garbage */
			*s = r->buf;
			*e = r->buf + r->end;
			r->start = r->end;
			r->lineno++;
			return 3;
		}
		n = read(r->fd, r->buf + r->end, TEXT_BUF - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err_no = errno;
			return -1;
		}
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
	}
}

static void count_bad(struct dlb_trace *t)
{
	if (!t->q.bad_lines++)
		t->q.first_bad_line = t->text->lineno;
}

int text_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err)
{
	struct text_reader *r = t->text;
	struct dlb_event ev;
	const char *s, *e;
	int k, res, err_no = 0;
	bool in_long = false;

	while ((k = next_line(r, &s, &e, &err_no)) > 0) {
		if (in_long) {		/* the rest of an over-long line */
			in_long = k == 3;
			r->lineno--;
			continue;
		}
		if (k == 3) {
			count_bad(t);
			in_long = true;
			continue;
		}
		if (k == 2) {
			/* no newline at the end: the writer was cut off mid-line */
			t->q.truncated = true;
			break;
		}
		res = parse_line(t, s, e, &ev);
		if (res < 0) {
			count_bad(t);
			continue;
		}
		if (res == 0)
			continue;
		if (ev.type == DLB_EV_LOST) {
			t->q.lost_records++;
			t->q.lost_events += ev.lost.count;
		} else {
			r->last_ts = ev.ts;
		}
		if (trace_note_event(t, &ev))
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", t->path);
		res = fn(&ev, arg);
		if (res)
			return res;
	}
	if (k < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:%llu: read error: %s", t->path,
				   (unsigned long long)r->lineno + 1, dlb_strerror(err_no));
	return 0;
}

/*
 * Which text format, from the first lines: "cpus=N" opens trace-cmd report
 * output, "# tracer:" the kernel's; otherwise the first event line decides
 * (the kernel's has a flags column).  No event line and no header in the
 * first HEAD_LINES lines: not a trace.
 */
static int text_detect(struct dlb_trace *t, const char *head, size_t len, struct dlb_err *err)
{
	const char *p = head, *end = head + len, *nl;
	struct line l;
	int lines = 0;

	while (p < end && lines < HEAD_LINES) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		lines++;
		p = skip_sp(p, nl);
		if ((nl - p >= 5 && !memcmp(p, "cpus=", 5)) ||
		    (nl - p >= 10 && !memcmp(p, "version = ", 10))) {
			t->fmt = DLB_FMT_TRACECMD_REPORT;
			return 0;
		}
		if (nl - p >= 9 && !memcmp(p, "# tracer:", 9)) {
			t->fmt = DLB_FMT_KERNEL_TEXT;
			return 0;
		}
		if (p < nl && *p != '#' && !parse_header(p, nl, &l)) {
			t->fmt = l.flags_column ? DLB_FMT_KERNEL_TEXT : DLB_FMT_TRACECMD_REPORT;
			return 0;
		}
		p = nl + 1;
	}
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
			   "%s: not a trace: no trace event line in the first %d lines", t->path,
			   lines);
}

/* An instance buffer's line in the first bytes: skip the top buffer's from the start. */
static bool head_has_instances(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *nl, *q;
	struct line l;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		q = buffer_prefix(skip_sp(p, nl), nl);
		if (q && !parse_header(q, nl, &l))
			return true;
	}
	return false;
}

int text_open(struct dlb_trace *t, int fd, const char *head, size_t len, struct dlb_err *err)
{
	struct text_reader *r;

	r = calloc(1, sizeof(*r));
	if (!r || !(r->buf = malloc(TEXT_BUF))) {
		free(r);
		close(fd);
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", t->path);
	}
	r->fd = fd;
	r->min_digits = 100;
	t->text = r;
	memcpy(r->buf, head, len);
	r->end = len;
	if (text_detect(t, head, len, err))
		return -1;
	if (t->fmt == DLB_FMT_TRACECMD_REPORT)
		r->instances = head_has_instances(head, len);
	return 0;
}

void text_close(struct dlb_trace *t)
{
	close(t->text->fd);
	free(t->text->buf);
	free(t->text);
	t->text = NULL;
}
