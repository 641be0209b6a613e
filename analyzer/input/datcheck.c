// SPDX-License-Identifier: GPL-2.0
/*
 * Walk a trace.dat's layout (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5))
 * before libtracecmd sees it: libtracecmd trusts the sizes and offsets it
 * reads and crashes on a v6 file cut inside its CPU data.  We check that
 * every size and offset it will follow stays inside the file, and say
 * which one does not.  Nothing here interprets the data itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "local.h"

#define V7_MAX_SECTIONS	64	/* options sections chained by DONE; stops a loop */
#define OPT_DONE	0
#define OPT_BUFFER	3
#define OPT_FIRST_SECTION	16	/* HEADER_INFO ... CMDLINES: offsets of sections */
#define OPT_LAST_SECTION	21

struct walk {
	const char *path;
	int fd;
	u64 size;		/* file size */
	u64 pos;
	bool big;
	struct dlb_err *err;
	char *clock;		/* out: the first instance buffer's trace clock */
	size_t clock_size;
};

/* The file ends inside @what. */
static int w_short(struct walk *w, const char *what)
{
	/* a cut recording: incomplete data, exit 4 (docs/trace-formats.md) */
	return dlb_err_set(w->err, DLB_EXIT_INCOMPLETE,
			   "%s: truncated trace.dat: the file ends inside the %s (%llu bytes)",
			   w->path, what, (unsigned long long)w->size);
}

/* @what is not what the format says should be there. */
static int w_fail(struct walk *w, const char *what)
{
	return dlb_err_set(w->err, DLB_EXIT_BAD_INPUT, "%s: corrupt trace.dat: %s", w->path, what);
}

static int w_read(struct walk *w, void *buf, size_t len, const char *what)
{
	ssize_t n;

	if (w->pos + len > w->size || w->pos + len < w->pos)
		return w_short(w, what);
	n = pread(w->fd, buf, len, (off_t)w->pos);
	if (n != (ssize_t)len)
		return w_short(w, what);
	w->pos += len;
	return 0;
}

static int w_num(struct walk *w, int bytes, u64 *v, const char *what)
{
	unsigned char b[8];
	int i;

	if (w_read(w, b, (size_t)bytes, what))
		return -1;
	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (u64)b[w->big ? bytes - 1 - i : i] << (8 * i);
	return 0;
}

static int w_skip(struct walk *w, u64 len, const char *what)
{
	if (w->pos + len > w->size || w->pos + len < w->pos)
		return w_short(w, what);
	w->pos += len;
	return 0;
}

static int w_string(struct walk *w, const char *what)
{
	char c;

	do {
		if (w_read(w, &c, 1, what))
			return -1;
	} while (c);
	return 0;
}

/* A NUL-terminated string kept in @out (truncated to @size). */
static int w_string_to(struct walk *w, char *out, size_t size, const char *what)
{
	size_t n = 0;
	char c;

	do {
		if (w_read(w, &c, 1, what))
			return -1;
		if (n + 1 < size)
			out[n++] = c;
	} while (c);
	if (size)
		out[n < size ? n : size - 1] = '\0';
	return 0;
}

static int w_expect(struct walk *w, const char *lit, size_t len, const char *what)
{
	char buf[16];

	if (w_read(w, buf, len, what))
		return -1;
	if (memcmp(buf, lit, len))
		return w_fail(w, what[0] ? "a section tag is not where the format puts it" : what);
	return 0;
}

/* A (offset, size) pair of CPU data must lie inside the file. */
static int w_range(struct walk *w, u64 off, u64 size, int cpu)
{
	if (off > w->size || size > w->size - off)
		return dlb_err_set(w->err, DLB_EXIT_INCOMPLETE,
				   "%s: truncated trace.dat: CPU %d data (%llu bytes at %llu) ends "
				   "past the end of the file (%llu bytes)", w->path, cpu,
				   (unsigned long long)size, (unsigned long long)off,
				   (unsigned long long)w->size);
	return 0;
}

/* v6: header infos, formats, kallsyms, printk, cmdlines, options, flyrecord. */
static int walk_v6(struct walk *w)
{
	u64 n, m, i, j, v, cpus, off, sz, id;
	char tag[10];

	if (w_expect(w, "header_page", 12, "header_page tag") || w_num(w, 8, &v, "header_page") ||
	    w_skip(w, v, "header_page") ||
	    w_expect(w, "header_event", 13, "header_event tag") ||
	    w_num(w, 8, &v, "header_event") || w_skip(w, v, "header_event"))
		return -1;
	if (w_num(w, 4, &n, "ftrace formats"))
		return -1;
	for (i = 0; i < n; i++)
		if (w_num(w, 8, &v, "ftrace formats") || w_skip(w, v, "ftrace formats"))
			return -1;
	if (w_num(w, 4, &n, "event formats"))
		return -1;
	for (i = 0; i < n; i++) {
		if (w_string(w, "event formats") || w_num(w, 4, &m, "event formats"))
			return -1;
		for (j = 0; j < m; j++)
			if (w_num(w, 8, &v, "event formats") || w_skip(w, v, "event formats"))
				return -1;
	}
	if (w_num(w, 4, &v, "kallsyms") || w_skip(w, v, "kallsyms") ||
	    w_num(w, 4, &v, "printk formats") || w_skip(w, v, "printk formats") ||
	    w_num(w, 8, &v, "saved cmdlines") || w_skip(w, v, "saved cmdlines") ||
	    w_num(w, 4, &cpus, "cpu count") || w_read(w, tag, 10, "data section tag"))
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		for (;;) {
			if (w_num(w, 2, &id, "options"))
				return -1;
			if (id == 0)
				break;
			if (w_num(w, 4, &v, "options") || w_skip(w, v, "options"))
				return -1;
		}
		if (w_read(w, tag, 10, "data section tag"))
			return -1;
	}
	if (!memcmp(tag, "latency  ", 10))
		return 0;
	if (memcmp(tag, "flyrecord", 10))
		return w_fail(w, "no flyrecord or latency section after the options");
	if (cpus > DLB_TRACE_MAX_CPUS)
		return w_fail(w, "cpu count out of range");
	for (i = 0; i < cpus; i++)
		if (w_num(w, 8, &off, "cpu data offsets") || w_num(w, 8, &sz, "cpu data offsets") ||
		    w_range(w, off, sz, (int)i))
			return -1;
	return 0;
}

/* v7 BUFFER option: the instance's flyrecord section and each CPU's data. */
static int walk_v7_buffer(struct walk *w, u64 end)
{
	u64 sec, cpus, i, id, off, sz, page;

	char clock[32];

	/*
	 * section offset, name, trace clock, page size, CPU count.  The clock
	 * is kept: libtracecmd 1.3 gives an instance's handle the top
	 * buffer's clock, which need not be the one the instance recorded in.
	 */
	if (w_num(w, 8, &sec, "buffer option") || w_string(w, "buffer option") ||
	    w_string_to(w, clock, sizeof(clock), "buffer option") ||
	    w_num(w, 4, &page, "buffer option") ||
	    w_num(w, 4, &cpus, "buffer option"))
		return -1;
	if (sec + 16 > w->size)
		return w_short(w, "buffer section");
	if (cpus > DLB_TRACE_MAX_CPUS)
		return w_fail(w, "cpu count out of range");
	for (i = 0; i < cpus; i++) {
		if (w_num(w, 4, &id, "buffer option") || w_num(w, 8, &off, "buffer option") ||
		    w_num(w, 8, &sz, "buffer option") || w_range(w, off, sz, (int)id))
			return -1;
	}
	if (w->pos > end)
		return w_fail(w, "buffer option overruns its section");
	if (w->clock && w->clock_size && !w->clock[0])
		snprintf(w->clock, w->clock_size, "%s", clock);
	return 0;
}

/* One options section at w->pos; *next receives DONE's offset (0: last). */
static int walk_v7_options(struct walk *w, u64 *next)
{
	u64 id, flags, str, size, end, osz, v;

	*next = 0;
	if (w_num(w, 2, &id, "options section") || w_num(w, 2, &flags, "options section") ||
	    w_num(w, 4, &str, "options section") || w_num(w, 8, &size, "options section"))
		return -1;
	if (id != 0)
		return w_fail(w, "an options section expected at the offset the header gives");
	if (w->pos + size > w->size)
		return w_short(w, "options section");
	if (flags & 1)		/* compressed: libtracecmd checks what it inflates */
		return 0;
	end = w->pos + size;
	while (w->pos < end) {
		if (w_num(w, 2, &id, "options") || w_num(w, 4, &osz, "options"))
			return -1;
		if (w->pos + osz > end)
			return w_fail(w, "an option runs past the end of its section");
		if (id == OPT_DONE) {
			return osz >= 8 ? w_num(w, 8, next, "options") : 0;
		} else if (id == OPT_BUFFER) {
			u64 oend = w->pos + osz;

			if (walk_v7_buffer(w, oend))
				return -1;
			w->pos = oend;
		} else if (id >= OPT_FIRST_SECTION && id <= OPT_LAST_SECTION && osz == 8) {
			if (w_num(w, 8, &v, "options"))
				return -1;
			if (v + 16 > w->size)
				return w_short(w, "metadata sections");
		} else if (w_skip(w, osz, "options")) {
			return -1;
		}
	}
	return 0;
}

static int walk_v7(struct walk *w)
{
	u64 next;
	int i;

	/* compression name and version, then the first options section */
	if (w_string(w, "compression header") || w_string(w, "compression header") ||
	    w_num(w, 8, &next, "first options offset"))
		return -1;
	for (i = 0; next && i < V7_MAX_SECTIONS; i++) {
		w->pos = next;
		if (walk_v7_options(w, &next))
			return -1;
	}
	if (next)
		return w_fail(w, "options sections form a loop");
	return 0;
}

/*
 * @pos is just past the fixed header (page size); @version 6 or 7.
 * Returns 0 when every offset libtracecmd will follow is inside the file.
 * @clock (may be NULL) receives the first instance buffer's trace clock
 * when an uncompressed v7 options section names it, else stays as it is.
 */
int dat_check_layout(const char *path, int fd, u64 pos, int version, bool big,
		     char *clock, size_t clock_size, struct dlb_err *err)
{
	struct walk w = { path, fd, 0, pos, big, err, clock, clock_size };
	struct stat st;

	if (fstat(fd, &st))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", path, dlb_strerror(errno));
	w.size = (u64)st.st_size;
	return version == 6 ? walk_v6(&w) : walk_v7(&w);
}
