// SPDX-License-Identifier: GPL-2.0
/*
 * dlb_trace_open(): look at the first bytes of a file and hand it to the
 * reader of its format; the quality bookkeeping every reader shares.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "local.h"

#define HEAD_MAX	65536

static const char *const fmt_names[] = {
	[DLB_FMT_UNKNOWN] = "unknown",
	[DLB_FMT_TRACE_DAT] = "trace.dat",
	[DLB_FMT_KERNEL_TEXT] = "kernel text",
	[DLB_FMT_TRACECMD_REPORT] = "trace-cmd report",
};

const char *dlb_trace_format_str(enum dlb_trace_format f)
{
	if ((unsigned int)f < sizeof(fmt_names) / sizeof(fmt_names[0]))
		return fmt_names[f];
	return "unknown";
}

int trace_track_cpu(struct dlb_trace *t, int cpu)
{
	int n = t->nr_track ? t->nr_track : 8;
	struct cpu_track *c;

	if (cpu < t->nr_track)
		return 0;
	while (n <= cpu)
		n *= 2;
	c = realloc(t->cpus, (size_t)n * sizeof(*c));
	if (!c)
		return -1;
	memset(c + t->nr_track, 0, (size_t)(n - t->nr_track) * sizeof(*c));
	t->cpus = c;
	t->nr_track = n;
	return 0;
}

/*
 * Timestamps must not go backwards within one CPU's buffer: each per-CPU
 * ring buffer is written in order, so a step back means a corrupt file, a
 * clock change during the recording or two traces concatenated.  Across
 * CPUs, small inversions are normal (merge of per-CPU buffers in text
 * output, clock skew) and are not counted.
 */
int trace_note_event(struct dlb_trace *t, const struct dlb_event *ev)
{
	struct cpu_track *c;

	if (ev->cpu < 0 || trace_track_cpu(t, ev->cpu))
		return -1;
	c = &t->cpus[ev->cpu];
	/* a text LOST line carries no time of its own: it takes part in no order */
	if (ev->type != DLB_EV_LOST) {
		if (c->events && dl_time_before(ev->ts, c->last_ts))
			t->q.backwards++;
		else
			c->last_ts = ev->ts;
		c->events++;
	}
	if (!t->q.events || dl_time_before(ev->ts, t->q.first_ts))
		t->q.first_ts = ev->ts;
	if (!t->q.events || dl_time_before(t->q.last_ts, ev->ts))
		t->q.last_ts = ev->ts;
	t->q.events++;
	return 0;
}

void trace_finish_quality(struct dlb_trace *t)
{
	int cpu, seen = 0, nr = t->q.nr_cpus;

	for (cpu = 0; cpu < t->nr_track; cpu++) {
		if (t->cpus[cpu].events) {
			seen++;
			if (cpu >= nr)
				nr = cpu + 1;
		}
	}
	t->q.nr_cpus = nr;
	t->q.cpus_without_events = nr - seen;
}

static const unsigned char dat_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* Read up to HEAD_MAX bytes; fewer only at end of file. */
static ssize_t read_head(int fd, char *buf)
{
	size_t got = 0;

	while (got < HEAD_MAX) {
		ssize_t n = read(fd, buf + got, HEAD_MAX - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static enum dlb_trace_format detect(const char *head, size_t len)
{
	if (len >= 3 && !memcmp(head, dat_magic, 3))
		return DLB_FMT_TRACE_DAT;
	if (memchr(head, '\0', len))
		return DLB_FMT_UNKNOWN;
	return DLB_FMT_KERNEL_TEXT;	/* text.c refines it */
}

static int open_fd(const char *path, struct dlb_err *err)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: cannot open: %s", path,
				   dlb_strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: is a directory, not a trace",
				   path);
	}
	return fd;
}

struct dlb_trace *dlb_trace_open(const char *path, struct dlb_err *err)
{
	struct dlb_trace *t;
	char *head = NULL;
	ssize_t len;
	int fd, r;

	fd = open_fd(path, err);
	if (fd < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	head = malloc(HEAD_MAX);
	if (!t || !head || !(t->path = strdup(path))) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", path);
		goto fail;
	}
	len = read_head(fd, head);
	if (len < 0) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: read error: %s", path, dlb_strerror(errno));
		goto fail;
	}
	if (len == 0) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: empty file, not a trace", path);
		goto fail;
	}
	t->fmt = detect(head, (size_t)len);
	switch (t->fmt) {
	case DLB_FMT_TRACE_DAT:
		r = dat_open(t, fd, err);
		break;
	case DLB_FMT_KERNEL_TEXT:
		r = text_open(t, fd, head, (size_t)len, err);
		fd = -1;	/* the text reader owns it now */
		break;
	default:
		r = dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				"%s: not a trace: binary data without the trace.dat magic", path);
	}
	if (r)
		goto fail;
	t->q.format = t->fmt;
	if (fd >= 0)
		close(fd);
	free(head);
	return t;
fail:
	if (fd >= 0)
		close(fd);
	free(head);
	dlb_trace_close(t);
	return NULL;
}

int dlb_trace_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err)
{
	int r;

	if (t->read_done)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: trace already read", t->path);
	t->read_done = true;
	r = t->fmt == DLB_FMT_TRACE_DAT ? dat_read(t, fn, arg, err) : text_read(t, fn, arg, err);
	trace_finish_quality(t);
	return r;
}

void dlb_trace_set_jobs(struct dlb_trace *t, int jobs)
{
	t->jobs = jobs > 0 ? jobs : 0;
}

const struct dlb_trace_quality *dlb_trace_quality(const struct dlb_trace *t)
{
	return &t->q;
}

u64 dlb_trace_cpu_events(const struct dlb_trace *t, int cpu)
{
	return cpu >= 0 && cpu < t->nr_track ? t->cpus[cpu].events : 0;
}

enum dlb_trace_format dlb_trace_format(const struct dlb_trace *t)
{
	return t->fmt;
}

void dlb_trace_close(struct dlb_trace *t)
{
	if (!t)
		return;
	if (t->dat)
		dat_close(t);
	if (t->text)
		text_close(t);
	free(t->cpus);
	free(t->path);
	free(t);
}
