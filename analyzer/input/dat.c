// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat (v6 and v7, compressed or not) through libtracecmd and
 * libtraceevent.
 *
 * Event types and field offsets are looked up once at open; each record is
 * then decoded by reading its fields at those offsets, bounds-checked
 * against the record's size (a corrupt record is counted, not followed).
 * The library merges the per-CPU streams in time order.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <dirent.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dat_local.h"

/*
 * Exported by libtracecmd 1.3 (trace-cmd 3.x) and declared in its private
 * header only; the trace clock and the recorder's per-CPU statistics are
 * nowhere else.
 */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

#if defined(__SANITIZE_ADDRESS__)
/*
 * libtraceevent 1.7 / libtracecmd 1.3 leak a few bytes per opened file
 * (strdup in tep_parse_event, an sscanf %m in the option parser): not
 * ours, and LeakSanitizer would fail every sanitized run on them.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\nleak:libtracecmd.so\nleak:vsscanf\n";
}
#endif

enum { F_A, F_B, F_C, F_D, F_E, F_F, F_G, F_MAX };

struct fld {
	int off, size;
	bool present, sign, dyn, rel;
};

/* One event type we decode: which normalized type, and its fields. */
struct dat_ev {
	const char *sys, *name;
	enum dlb_ev_type type;
	const char *fields[F_MAX];
	int id;
	struct fld f[F_MAX];
};

/* Field order per type is what decode_*() below expects. */
static const struct dat_ev ev_table[] = {
	{ .sys = "sched", .name = "sched_switch", .type = DLB_EV_SWITCH,
	  .fields = { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
	    "next_prio" } },
	{ .sys = "sched", .name = "sched_wakeup", .type = DLB_EV_WAKEUP,
	  .fields = { "comm", "pid", "prio", "target_cpu" } },
	{ .sys = "sched", .name = "sched_wakeup_new", .type = DLB_EV_WAKEUP_NEW,
	  .fields = { "comm", "pid", "prio", "target_cpu" } },
	{ .sys = "sched", .name = "sched_waking", .type = DLB_EV_WAKING,
	  .fields = { "comm", "pid", "prio", "target_cpu" } },
	{ .sys = "sched", .name = "sched_migrate_task", .type = DLB_EV_MIGRATE,
	  .fields = { "comm", "pid", "prio", "orig_cpu", "dest_cpu" } },
	{ .sys = "sched", .name = "sched_stat_runtime", .type = DLB_EV_RUNTIME,
	  .fields = { "comm", "pid", "runtime" } },
	{ .sys = "sched", .name = "sched_process_exit", .type = DLB_EV_EXIT,
	  .fields = { "comm", "pid" } },
	{ .sys = NULL, .name = "dl_throttle", .type = DLB_EV_THROTTLE,
	  .fields = { "pid", "runtime", "deadline" } },
	{ .sys = NULL, .name = "dl_replenish", .type = DLB_EV_REPLENISH,
	  .fields = { "pid", "runtime", "deadline" } },
	{ .sys = "ftrace", .name = "print", .type = DLB_EV_MARKER,
	  .fields = { "buf" } },
	{ .sys = "irq", .name = "irq_handler_entry", .type = DLB_EV_IRQ_ENTRY,
	  .fields = { "irq" } },
	{ .sys = "irq", .name = "irq_handler_exit", .type = DLB_EV_IRQ_EXIT,
	  .fields = { "irq" } },
	{ .sys = "irq", .name = "softirq_entry", .type = DLB_EV_SOFTIRQ_ENTRY,
	  .fields = { "vec" } },
	{ .sys = "irq", .name = "softirq_exit", .type = DLB_EV_SOFTIRQ_EXIT,
	  .fields = { "vec" } },
	/* x86: the local APIC's timer and IPIs bypass irq_handler_* (recorded by default) */
#define VEC(n) \
	{ .sys = "irq_vectors", .name = n "_entry", .type = DLB_EV_IRQ_ENTRY, \
	  .fields = { "vector" } }, \
	{ .sys = "irq_vectors", .name = n "_exit", .type = DLB_EV_IRQ_EXIT, \
	  .fields = { "vector" } }
	VEC("local_timer"), VEC("reschedule"), VEC("call_function"),
	VEC("call_function_single"), VEC("irq_work"),
#undef VEC
};

#define NR_EV	(sizeof(ev_table) / sizeof(ev_table[0]))

/* One CPU stream's window of the file as libtracecmd maps it. */
struct dat_window {
	uintptr_t start, end;		/* the mapping that holds the stream's current page */
	u64 off;			/* the file offset mapped at start */
	uintptr_t done;			/* released from start up to here */
	bool ours;			/* a read-only private mapping of the file read */
};

struct dat_behind {
	dev_t dev;
	ino_t ino;			/* the file libtracecmd maps; 0: release nothing */
	uintptr_t sys_page;
	uintptr_t step;			/* bytes a stream reads between two releases */
	struct dat_window *win;		/* per stream (the iterator's cpu) */
	int nr;
};

struct dat_reader {
	struct tracecmd_input *h;
	struct tracecmd_input **bufs;	/* h, then its buffer instances (trace-cmd -B) */
	char copy[4096];		/* uncompressed copy being opened, "" if none */
	int nr_bufs;
	struct tep_handle *tep;
	struct dat_ev ev[NR_EV];
	unsigned char by_id[65536];	/* common_type -> 1 + index in ev[], 0: not ours */
	struct fld common_type, common_pid;
	bool swap;			/* file endianness differs from ours */
	u64 page_size;			/* the header's, checked: a power of two */
	struct dat_behind behind;	/* pages released behind the reader */
	bool compressed_direct;		/* compressed data decompressed by libtracecmd */

	/* during dat_read() */
	struct dlb_trace *t;
	dlb_event_fn fn;
	void *arg;
	int stop;
	bool oom;
};

/* ---- header validation: libtracecmd must only ever see a sane header ---- */

/* (u32 before shifting: a byte >= 0x80 shifted by 24 overflows an int) */
static u32 rd_u32(const unsigned char *p, bool big)
{
	return big ? ((u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3])
		   : ((u32)p[3] << 24 | (u32)p[2] << 16 | (u32)p[1] << 8 | p[0]);
}

/*
 * The fixed part of the header: magic (10 bytes), version string, endian
 * byte, long size, page size; v7 adds the compression name and version and
 * the offset of the first section.  libtracecmd trusts these numbers, so
 * we check them, and then every offset and size of the layout, first (a
 * crash inside the library cannot be caught).
 */
static int dat_check_header(const char *path, int fd, char *clock, size_t clock_size,
			    bool *compressed, u32 *page_size, struct dlb_err *err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char h[512];
	ssize_t len;
	size_t p;
	unsigned long version = 0;
	u32 page;

	len = pread(fd, h, sizeof(h), 0);
	if (len < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: read error: %s", path,
				   dlb_strerror(errno));
	/*
	 * A cut file is incomplete data (exit 4, as the README's table and a
	 * text trace's truncated flag say), not bad input: the recording was
	 * cut short (a full disk, a killed recorder), the same file whole is
	 * fine.
	 */
	if (len < 10 && memcmp(h, magic, (size_t)len))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: not a trace.dat: bad magic", path);
	if (len < 10)
		return dlb_err_set(err, DLB_EXIT_INCOMPLETE,
				   "%s: truncated trace.dat header (%zd bytes)", path, len);
	if (memcmp(h, magic, sizeof(magic)))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: not a trace.dat: bad magic", path);
	for (p = 10; p < (size_t)len && p < 20 && h[p] >= '0' && h[p] <= '9'; p++)
		version = version * 10 + (h[p] - '0');
	if (p == (size_t)len)
		return dlb_err_set(err, DLB_EXIT_INCOMPLETE,
				   "%s: truncated trace.dat header (%zd bytes)", path, len);
	if (p == 10 || h[p] != '\0')
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: bad trace.dat version string",
				   path);
	if (version != 6 && version != 7)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: trace.dat version %lu is not supported (6 and 7 are)", path,
				   version);
	p++;
	if ((size_t)len < p + 6)
		return dlb_err_set(err, DLB_EXIT_INCOMPLETE,
				   "%s: truncated trace.dat header (%zd bytes)", path, len);
	if (h[p] > 1 || (h[p + 1] != 4 && h[p + 1] != 8))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: bad trace.dat header: endian %u, long size %u", path, h[p],
				   h[p + 1]);
	page = rd_u32(h + p + 2, h[p]);
	if (page < 1024 || page > (1u << 24) || (page & (page - 1)))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: bad trace.dat page size %u", path,
				   page);
	*page_size = page;
	/* v7: the compression algorithm's name follows ("none" or e.g. "zstd") */
	*compressed = version == 7 && (size_t)len > p + 6 && h[p + 6] != '\0' &&
		      ((size_t)len < p + 11 || memcmp(h + p + 6, "none", 5));
	/* from here on, a walk of the whole layout (datcheck.c) */
	return dat_check_layout(path, fd, p + 6, (int)version, h[p], clock, clock_size, err);
}

/* ---- field access ---- */

static void fld_init(struct fld *f, struct tep_format_field *tf)
{
	memset(f, 0, sizeof(*f));
	if (!tf)
		return;
	f->present = true;
	f->off = tf->offset;
	f->size = tf->size;
	f->sign = tf->flags & TEP_FIELD_IS_SIGNED;
	f->dyn = tf->flags & TEP_FIELD_IS_DYNAMIC;
	f->rel = tf->flags & TEP_FIELD_IS_RELATIVE;
}

/* Bounds-checked number at @f in @rec; @ok cleared when out of the record. */
static s64 fld_num(const struct dat_reader *d, const struct fld *f, const struct tep_record *rec,
		   bool *ok)
{
	const unsigned char *p = (const unsigned char *)rec->data + f->off;
	u64 v;

	if (!f->present)
		return 0;
	if (f->off < 0 || f->off + f->size > rec->size) {
		*ok = false;
		return 0;
	}
	switch (f->size) {
	case 1:
		return f->sign ? (s64)(int8_t)p[0] : (s64)p[0];
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		if (d->swap)
			x = __builtin_bswap16(x);
		return f->sign ? (s64)(int16_t)x : (s64)x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		if (d->swap)
			x = __builtin_bswap32(x);
		return f->sign ? (s64)(int32_t)x : (s64)x;
	}
	case 8:
		memcpy(&v, p, 8);
		if (d->swap)
			v = __builtin_bswap64(v);
		return (s64)v;
	default:
		*ok = false;
		return 0;
	}
}

/*
 * A string field: a fixed char array, or a __data_loc (u32: length << 16 |
 * offset; relative to the end of the field for __rel_loc).  Returns its
 * length without the NUL, or -1 if it lies outside the record.
 */
static int fld_str(const struct dat_reader *d, const struct fld *f, const struct tep_record *rec,
		   const char **s)
{
	int off = f->off, len = f->size;

	if (!f->present || f->off < 0)
		return -1;
	if (f->dyn) {
		bool ok = true;
		u32 loc = (u32)fld_num(d, &(struct fld){ .present = true, .off = f->off, .size = 4 },
				       rec, &ok);

		if (!ok)
			return -1;
		off = (int)(loc & 0xffff) + (f->rel ? f->off + f->size : 0);
		len = (int)(loc >> 16);
	} else if (len == 0) {
		len = rec->size - off;		/* char buf[]: to the end of the record */
	}
	if (off + len > rec->size || len < 0)
		return -1;
	*s = (const char *)rec->data + off;
	return (int)strnlen(*s, (size_t)len);
}

static void copy_comm(char *dst, const struct dat_reader *d, const struct fld *f,
		      const struct tep_record *rec, bool *ok)
{
	const char *s;
	int n = fld_str(d, f, rec, &s);

	if (n < 0) {
		dst[0] = '\0';
		if (f->present)
			*ok = false;
		return;
	}
	if (n >= DLB_COMM_LEN)
		n = DLB_COMM_LEN - 1;
	memcpy(dst, s, (size_t)n);
	dst[n] = '\0';
}

/* ---- decoding ---- */

static bool decode(const struct dat_reader *d, const struct dat_ev *e,
		   const struct tep_record *rec, struct dlb_event *ev)
{
	const struct fld *f = e->f;
	bool ok = true;

	switch (e->type) {
	case DLB_EV_SWITCH:
		copy_comm(ev->sw.prev_comm, d, &f[F_A], rec, &ok);
		ev->sw.prev_pid = (int)fld_num(d, &f[F_B], rec, &ok);
		ev->sw.prev_prio = (int)fld_num(d, &f[F_C], rec, &ok);
		ev->sw.prev_state = (long)fld_num(d, &f[F_D], rec, &ok) & DLB_STATE_MASK;
		copy_comm(ev->sw.next_comm, d, &f[F_E], rec, &ok);
		ev->sw.next_pid = (int)fld_num(d, &f[F_F], rec, &ok);
		ev->sw.next_prio = (int)fld_num(d, &f[F_G], rec, &ok);
		break;
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
	case DLB_EV_WAKING:
		copy_comm(ev->wake.comm, d, &f[F_A], rec, &ok);
		ev->wake.pid = (int)fld_num(d, &f[F_B], rec, &ok);
		ev->wake.prio = (int)fld_num(d, &f[F_C], rec, &ok);
		ev->wake.target_cpu = f[F_D].present ? (int)fld_num(d, &f[F_D], rec, &ok) : -1;
		break;
	case DLB_EV_MIGRATE:
		copy_comm(ev->mig.comm, d, &f[F_A], rec, &ok);
		ev->mig.pid = (int)fld_num(d, &f[F_B], rec, &ok);
		ev->mig.prio = (int)fld_num(d, &f[F_C], rec, &ok);
		ev->mig.orig_cpu = (int)fld_num(d, &f[F_D], rec, &ok);
		ev->mig.dest_cpu = (int)fld_num(d, &f[F_E], rec, &ok);
		break;
	case DLB_EV_RUNTIME:
		copy_comm(ev->rt.comm, d, &f[F_A], rec, &ok);
		ev->rt.pid = (int)fld_num(d, &f[F_B], rec, &ok);
		ev->rt.runtime = (u64)fld_num(d, &f[F_C], rec, &ok);
		break;
	case DLB_EV_EXIT:
		copy_comm(ev->exit.comm, d, &f[F_A], rec, &ok);
		ev->exit.pid = (int)fld_num(d, &f[F_B], rec, &ok);
		break;
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		ev->dl.pid = (int)fld_num(d, &f[F_A], rec, &ok);
		ev->dl.runtime = fld_num(d, &f[F_B], rec, &ok);
		ev->dl.deadline = (u64)fld_num(d, &f[F_C], rec, &ok);
		break;
	case DLB_EV_IRQ_ENTRY:
	case DLB_EV_IRQ_EXIT:
	case DLB_EV_SOFTIRQ_ENTRY:
	case DLB_EV_SOFTIRQ_EXIT:
		ev->irq.nr = (int)fld_num(d, &f[F_A], rec, &ok);
		break;
	case DLB_EV_MARKER: {
		const char *s;
		int n = fld_str(d, &f[F_A], rec, &s);

		if (n < 0)
			return false;
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
			n--;
		ev->mark.text = s;
		ev->mark.len = (size_t)n;
		break;
	}
	default:
		return false;
	}
	return ok;
}

static int deliver(struct dat_reader *d, const struct dlb_event *ev)
{
	int r;

	if (trace_note_event(d->t, ev)) {
		d->oom = true;
		return -1;
	}
	r = d->fn(ev, d->arg);
	if (r)
		d->stop = r;
	return r;
}

void dat_decode(const struct dat_reader *d, const struct tep_record *rec, struct dat_slot *s)
{
	const struct dat_ev *e;
	bool ok = true;
	int idx;

	s->ev.ts = rec->ts;
	s->ev.cpu = rec->cpu;	/* the iterator's cpu counts across buffers in a multi-buffer file */
	s->missed = rec->missed_events;
	s->offset = rec->offset;
	s->kind = DAT_SLOT_BAD;
	/*
	 * kbuffer takes a record's length from the page, and a corrupt one
	 * reaches past the page's buffer (found by the fuzzer: tests/fuzz/
	 * regress/trace_dat/record-past-page.dat).  Pages sit page-aligned in
	 * the file (in the uncompressed stream of a v7 one), so rec->offset
	 * within its page plus the record's length must stay inside the page.
	 */
	if (rec->size < 8 || !rec->data || rec->record_size < rec->size ||
	    (rec->offset & (d->page_size - 1)) + (u64)rec->record_size > d->page_size)
		return;
	idx = d->by_id[(uint16_t)fld_num(d, &d->common_type, rec, &ok)];
	if (!idx) {
		s->kind = DAT_SLOT_UNKNOWN;
		return;
	}
	e = &d->ev[idx - 1];
	s->ev.pid = (int)fld_num(d, &d->common_pid, rec, &ok);
	s->ev.type = e->type;
	if (ok && decode(d, e, rec, &s->ev))
		s->kind = DAT_SLOT_EVENT;
}

int dat_apply(struct dat_reader *d, const struct dat_slot *s)
{
	struct dlb_trace_quality *q = &d->t->q;
	int cpu = s->ev.cpu;

	/*
	 * The ring buffer flags a page whose predecessor was overwritten or
	 * dropped; kbuffer hands the count (or -1: unknown) to the first
	 * record after the gap.  It becomes a LOST event just before it.
	 */
	if (s->missed) {
		struct dlb_event ev;

		ev.ts = s->ev.ts;
		ev.cpu = cpu;
		ev.pid = 0;
		ev.type = DLB_EV_LOST;
		ev.lost.count = s->missed > 0 ? (u64)s->missed : 0;
		q->lost_records++;
		q->lost_events += ev.lost.count;
		if (deliver(d, &ev))
			return -1;	/* only a negative value stops tracecmd_iterate_events */
	}
	switch (s->kind) {
	case DAT_SLOT_BAD:	/* counted, the first one's offset kept */
		if (!q->bad_lines++)
			q->first_bad_offset = s->offset;
		return 0;
	case DAT_SLOT_UNKNOWN:
		q->unknown_events++;
		if (trace_track_cpu(d->t, cpu) == 0)
			d->t->cpus[cpu].events++;	/* the CPU did record */
		return 0;
	case DAT_SLOT_EVENT:
		break;
	}
	return deliver(d, &s->ev) ? -1 : 0;
}

/* ---- memory: the pages behind the reader ---- */

/*
 * libtracecmd 1.3 maps a CPU's data in windows of page_map_size bytes, the
 * largest power of two not above the largest CPU's data (tracecmd_init_data()
 * in trace-input.c, whose comment says "about a meg"): a stream in one or
 * two windows, each unmapped only when the reader leaves it.  Every page
 * read stays resident until then, so peak RSS grew with the trace (106 MB
 * for 168 MB of data, file-backed pages but counted all the same).  So the
 * pages of each stream behind the one being read are dropped from our page
 * tables (MADV_DONTNEED) every `step` bytes read.  That is safe on a
 * read-only private mapping of a file, which is never written: a page
 * touched again would be read back from the file, the same bytes (the
 * reader does not go back).  The window may have been unmapped and its
 * addresses reused since the last release, so each release first asks
 * /proc/self/maps whether the range is still such a mapping of the file
 * read (device, inode); if not, nothing is released.  The page cache keeps
 * the pages, reclaimable.  Only an uncompressed file or copy is mapped:
 * compressed data read directly is decompressed into malloc'd chunks.
 */
#define DAT_RELEASE_BUDGET	(8UL << 20)	/* split among the streams */
#define DAT_RELEASE_MIN		(64UL << 10)
#define DAT_RELEASE_MAX		(1UL << 20)

/* Set up the release for the file at @path, which the handles map, read as @nr streams. */
static void dat_behind_init(struct dat_behind *b, const char *path, int nr)
{
	struct stat st;
	long sys = sysconf(_SC_PAGESIZE);

	if (nr <= 0 || sys <= 0 || stat(path, &st))
		return;
	b->win = calloc((size_t)nr, sizeof(*b->win));
	if (!b->win)
		return;			/* only memory saved is lost, no data */
	b->nr = nr;
	b->dev = st.st_dev;
	b->ino = st.st_ino;
	b->sys_page = (uintptr_t)sys;
	b->step = DAT_RELEASE_BUDGET / (unsigned long)nr;
	if (b->step < DAT_RELEASE_MIN)
		b->step = DAT_RELEASE_MIN;
	if (b->step > DAT_RELEASE_MAX)
		b->step = DAT_RELEASE_MAX;
}

/* The mapping that holds address @a, from /proc/self/maps; -1 if none. */
static int dat_find_window(const struct dat_behind *b, uintptr_t a, struct dat_window *w)
{
	char line[4352], perm[8];
	unsigned long start, end, ino;
	unsigned long long off;
	unsigned int maj, min;
	int r = -1;
	FILE *f = fopen("/proc/self/maps", "re");
	char *p;

	if (!f)
		return -1;
	while (r && fgets(line, sizeof(line), f)) {
		/* the range first: one line in some fifty is parsed whole */
		start = strtoul(line, &p, 16);
		if (*p != '-' || a < start || a >= strtoul(p + 1, NULL, 16))
			continue;
		if (sscanf(line, "%lx-%lx %7s %llx %x:%x %lu", &start, &end, perm, &off, &maj, &min,
			   &ino) != 7)
			break;
		w->start = start;
		w->end = end;
		w->off = off;
		w->ours = !strcmp(perm, "r--p") && ino == b->ino && makedev(maj, min) == b->dev;
		r = 0;
	}
	fclose(f);
	return r;
}

/*
 * Called with each record of stream @stream (the iterator's cpu), on the
 * thread that reads that stream: it only touches the stream's own window,
 * which only that thread's reads map and unmap.
 */
void dat_release_behind(const struct dat_reader *d, int stream, const struct tep_record *rec)
{
	const struct dat_behind *b = &d->behind;
	uintptr_t a = (uintptr_t)rec->data, page;
	struct dat_window *w, m;

	if (stream < 0 || stream >= b->nr || !rec->data)
		return;
	w = &b->win[stream];
	if (a >= w->start && a < w->end && (!w->ours || (a >= w->done && a - w->done < b->step)))
		return;
	if (dat_find_window(b, a, &m)) {	/* cannot happen: a record is mapped */
		m.start = a & ~(b->sys_page - 1);
		m.end = m.start + b->sys_page;
		m.ours = false;
	}
	m.done = m.start == w->start && a >= w->done ? w->done : m.start;
	*w = m;
	if (!w->ours)
		return;
	/* the start of the trace page being read (pages are page_size-aligned in the file) */
	page = m.start + (uintptr_t)((rec->offset & ~(d->page_size - 1)) - m.off);
	page &= ~(b->sys_page - 1);
	if (page > w->done && page <= a) {
		madvise((void *)w->done, page - w->done, MADV_DONTNEED);
		w->done = page;
	}
}

static int dat_record(struct tracecmd_input *h, struct tep_record *rec, int iter_cpu, void *arg)
{
	struct dat_reader *d = arg;
	struct dat_slot s;

	(void)h;
	dat_release_behind(d, iter_cpu, rec);
	dat_decode(d, rec, &s);
	return dat_apply(d, &s);
}

/* ---- open / read / close ---- */

static void dat_lookup(struct dat_reader *d)
{
	size_t i;
	int j;

	memcpy(d->ev, ev_table, sizeof(d->ev));
	for (i = 0; i < NR_EV; i++) {
		struct dat_ev *e = &d->ev[i];
		struct tep_event *te = tep_find_event_by_name(d->tep, e->sys, e->name);

		e->id = -1;
		if (!te)
			continue;
		e->id = te->id;
		if (te->id >= 0 && te->id < 65536)
			d->by_id[te->id] = (unsigned char)(i + 1);
		for (j = 0; j < F_MAX && e->fields[j]; j++)
			fld_init(&e->f[j], tep_find_field(te, e->fields[j]));
		if (!d->common_pid.present) {
			fld_init(&d->common_type, tep_find_common_field(te, "common_type"));
			fld_init(&d->common_pid, tep_find_common_field(te, "common_pid"));
		}
	}
}

/*
 * trace-cmd saves each CPU's ring-buffer statistics at the end of the
 * recording ("CPU: N", "overrun: N", "dropped events: N" ...).  Overruns
 * and drops counted there are events lost even when no page carries a
 * missed-events flag (buffer in overwrite mode, reader too slow).
 */
static u64 stats_sum(const char *s);

static u64 dat_stats_lost(struct dat_reader *d)
{
	const char *s;
	u64 sum = 0;
	int b;

	for (b = 0; b < d->nr_bufs; b++) {
		s = tracecmd_get_cpustats(d->bufs[b]);
		if (s)
			sum += stats_sum(s);
	}
	return sum;
}

static u64 stats_sum(const char *s)
{
	const char *p;
	u64 sum = 0;

	for (p = s; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *v = NULL;

		if (!strncmp(p, "overrun: ", 9))
			v = p + 9;
		else if (!strncmp(p, "dropped events: ", 16))
			v = p + 16;
		if (v)
			sum += strtoull(v, NULL, 10);
	}
	return sum;
}

/*
 * libtracecmd inflates the compressed metadata of a v7 file and parses it
 * trusting what it finds: a single flipped byte there can crash it inside
 * tracecmd_open(), where nothing can catch it.  So a child process opens
 * the file and its buffer instances first; only if that child survives
 * does this process open them.  It is the one extra parse of a valid file
 * (its metadata, kallsyms included): the child also hands back the trace
 * clock it read, so that nothing else needs the original opened again.
 * (Data pages are decoded by kbuffer with its own checks and by us with
 * bounds checks: corrupt data gives counted bad records, not crashes.)
 */
static void dat_probe_child(const char *path, int out, size_t clock_size)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM };
	struct tracecmd_input *h;
	const char *clock;
	size_t i;

	/* die of the crash: the caller's handlers (a test harness) must not run */
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	alarm(60);		/* a hang in the library becomes SIGALRM */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		_exit(1);
	/*
	 * A corrupt buffer-option section crashes the library in
	 * tracecmd_buffer_instance_handle() (tests/fuzz/regress/trace_dat/
	 * crash-buffer-instance.dat): dat_open_buffers() opens them all,
	 * so open them here first.  NULL is not a crash: the parent
	 * reports it with the buffer's name.
	 */
	for (i = 0; i < (size_t)(tracecmd_buffer_instances(h) > 0 ?
				 tracecmd_buffer_instances(h) : 0); i++)
		tracecmd_buffer_instance_handle(h, (int)i);
	/* shorter than PIPE_BUF: written whole, never blocks on the parent */
	clock = tracecmd_get_trace_clock(h);
	if (clock && write(out, clock, strnlen(clock, clock_size - 1)) < 0)
		_exit(1);
	_exit(0);
}

/* @clock (@clock_size bytes) receives the file's trace clock, "" if none. */
static int dat_probe(const char *path, char *clock, size_t clock_size, struct dlb_err *err)
{
	int status, fds[2];
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	clock[0] = '\0';
	if (pipe2(fds, O_CLOEXEC))
		return 0;		/* cannot probe: open directly */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		dat_probe_child(path, fds[1], clock_size);
	}
	close(fds[1]);
	while (got < clock_size - 1 &&
	       ((n = read(fds[0], clock + got, clock_size - 1 - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	clock[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: corrupt trace.dat: libtracecmd crashed opening it (%s)", path,
				   strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: corrupt trace.dat: libtracecmd cannot open it", path);
	return 0;
}

/*
 * libtracecmd 1.3 reads a compressed v7 file by decompressing its chunks
 * in memory and never frees them: free_zpage() looks the page up with
 * "map <= cache->map && map > cache->map + size", which no address
 * satisfies (upstream replaced that list by an rbtree in Nov 2023,
 * libtracecmd 1.5).  Reading costs as much memory as the uncompressed
 * data: 154 MB for 3.1 M events here, whatever we free, and the chunk list
 * it searches grows with it.  `trace-cmd convert --compression none`
 * streams, and converting then reading the copy costs less CPU than the
 * in-memory reading on a large file (3.4 M events with kallsyms, 18.5 MB:
 * 1.71 s against 3.32 s, medians of alternated runs, bench_input.sh), a
 * little more from about 7 MB down (1.27x at 4.1 MB), and always far less
 * memory (11 MB of anonymous memory against 40 MB at 4.1 MB; peak RSS 30
 * MB against 52 MB at 3.9 MB, which a 4 MB threshold read directly: the
 * bound is the threshold times the compression ratio, 13 here), so a compressed
 * file of DAT_COPY_MIN bytes or more (DLB_DAT_COPY_MIN overrides;
 * docs/trace-formats.md) is read through such a copy in $TMPDIR, unlinked
 * as soon as it is open.  Without trace-cmd, or if the conversion fails,
 * the file is read directly.
 */
#define DAT_COPY_MIN	(2L << 20)

/* Start `trace-cmd convert` of @path into a new file named in @copy; its pid, or -1. */
static pid_t dat_copy_start(const char *path, char *copy, size_t size)
{
	const char *tmpdir = getenv("TMPDIR");
	pid_t pid;
	int fd;

	snprintf(copy, size, "%s/dlb-analyze-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(copy);
	if (fd < 0) {
		copy[0] = '\0';
		return -1;
	}
	close(fd);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		unlink(copy);
		copy[0] = '\0';
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("trace-cmd", "trace-cmd", "convert", "--file-version", "7",
		       "--compression", "none", "-i", path, "-o", copy, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait for dat_copy_start()'s child: 0 if the copy is complete, else it is removed. */
static int dat_copy_finish(pid_t pid, char *copy)
{
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	unlink(copy);
	copy[0] = '\0';
	return -1;
}

/*
 * Stop dat_copy_start()'s child before its end (the probe found the file
 * corrupt) and remove what it made.  libtracecmd decompresses a CPU's data
 * into "/tmp/trace_cpu_dataXXXXXX" (a fixed path, whatever TMPDIR says) and
 * removes it only in tracecmd_close(): a conversion killed leaves it
 * behind, one file per CPU decompressed so far.  So the child is stopped
 * first (a stopped process creates nothing more), the files it holds open
 * under that name are read from /proc/PID/fd, and they are removed once it
 * is dead.  (A conversion that fails on its own exits with them left: that
 * is trace-cmd's, docs/trace-formats.md.)
 */
#define DAT_CONVERT_TEMP	"/tmp/trace_cpu_data"
#define DAT_CONVERT_TEMPS	64

static void dat_copy_abort(pid_t pid, char *copy)
{
	char dir[64], link[PATH_MAX], temps[DAT_CONVERT_TEMPS][32];
	int n = 0, status = 0, i;
	pid_t r = -1;
	struct dirent *e;
	DIR *fds;

	if (pid <= 0)
		return;
	if (!kill(pid, SIGSTOP))
		while ((r = waitpid(pid, &status, WUNTRACED)) < 0 && errno == EINTR)
			;
	if (r == pid && !WIFSTOPPED(status)) {
		/* it ended on its own and is reaped: its pid may be another's now */
		unlink(copy);
		copy[0] = '\0';
		return;
	}
	if (r == pid) {
		snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
		fds = opendir(dir);
		while (fds && (e = readdir(fds)) && n < DAT_CONVERT_TEMPS) {
			char path[sizeof(dir) + 256];
			ssize_t len;

			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0 || (size_t)len >= sizeof(temps[0]))
				continue;
			link[len] = '\0';
			if (!strncmp(link, DAT_CONVERT_TEMP, strlen(DAT_CONVERT_TEMP)) &&
			    !strchr(link + strlen(DAT_CONVERT_TEMP), '/'))
				memcpy(temps[n++], link, (size_t)len + 1);
		}
		if (fds)
			closedir(fds);
	}
	kill(pid, SIGKILL);
	dat_copy_finish(pid, copy);	/* reaps it; a killed child's copy is removed */
	for (i = 0; i < n; i++)
		unlink(temps[i]);
}

/*
 * The copy is not probed again: convert writes the metadata the probe has
 * just parsed, byte for byte (header pages, formats, kallsyms, printk,
 * cmdlines, decompressed), so libtracecmd parses the same bytes again;
 * only the layout around them is new (options, buffer and CPU data
 * offsets), and that is walked here, as every file's is, without a parse.
 */
static int dat_copy_check(const char *copy, u32 page_size)
{
	struct dlb_err err = { 0 };
	bool compressed = true;
	u32 copy_page = 0;
	int fd, r;

	fd = open(copy, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = dat_check_header(copy, fd, NULL, 0, &compressed, &copy_page, &err);
	close(fd);
	return r || compressed || copy_page != page_size ? -1 : 0;
}

static bool dat_want_copy(int fd, bool compressed)
{
	const char *env = getenv("DLB_DAT_COPY_MIN");
	long min = env && *env ? strtol(env, NULL, 10) : DAT_COPY_MIN;
	struct stat st;

	return compressed && min >= 0 && fstat(fd, &st) == 0 && st.st_size >= min;
}

/*
 * A recording into a tracefs instance (trace-cmd record -B NAME, dlb-record)
 * stores that buffer beside the top one.  When a file has instance buffers,
 * they are the recording and the top buffer is not read: it is either empty
 * or holds what the instance does not own -- trace_marker writes copied
 * there as well (copy_trace_marker with top-level tracing on, as dlb-record
 * -T does for rt-app 1.0), on the top buffer's own clock.  Merging it would
 * count every marker twice, at times from another clock.  The instance
 * buffers are merged in time; the clock is the first instance's.
 */
static int dat_open_buffers(struct dlb_trace *t, struct dat_reader *d, const char *buf_clock,
			    struct dlb_err *err)
{
	int i, n = tracecmd_buffer_instances(d->h);

	d->bufs = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*d->bufs));
	if (!d->bufs)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", t->path);
	d->nr_bufs = 0;
	if (n <= 0)
		d->bufs[d->nr_bufs++] = d->h;
	else	/* the instance's own clock, or unknown: never the top buffer's */
		snprintf(t->q.clock, sizeof(t->q.clock), "%s", buf_clock);
	for (i = 0; i < n; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(d->h, i);

		if (!b)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
					   "%s: corrupt trace.dat: cannot open buffer '%s'", t->path,
					   tracecmd_buffer_instance_name(d->h, i));
		d->bufs[d->nr_bufs++] = b;
	}
	return 0;
}

int dat_open(struct dlb_trace *t, int fd, struct dlb_err *err)
{
	struct dat_reader *d;
	char buf_clock[sizeof(t->q.clock)] = "", file_clock[sizeof(t->q.clock)];
	const char *clock;

	const char *open_path = t->path;
	bool compressed = false;
	pid_t convert = -1;
	u32 page_size = 0;
	int r;

	if (dat_check_header(t->path, fd, buf_clock, sizeof(buf_clock), &compressed, &page_size,
			     err))
		return -1;
	d = calloc(1, sizeof(*d));
	if (!d)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", t->path);
	t->dat = d;
	d->page_size = page_size;
	/* the conversion runs while the probe does: two processes, two CPUs */
	if (dat_want_copy(fd, compressed))
		convert = dat_copy_start(t->path, d->copy, sizeof(d->copy));
	if (dat_probe(t->path, file_clock, sizeof(file_clock), err)) {
		dat_copy_abort(convert, d->copy);
		return -1;
	}
	d->compressed_direct = compressed;
	if (dat_copy_finish(convert, d->copy) == 0) {
		if (dat_copy_check(d->copy, page_size) == 0) {
			open_path = d->copy;
			t->q.uncompressed_copy = true;
			d->compressed_direct = false;
		} else {
			unlink(d->copy);
			d->copy[0] = '\0';
		}
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	d->h = tracecmd_open(open_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->h)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: corrupt trace.dat: libtracecmd cannot open it",
				   t->path);
	d->tep = tracecmd_get_tep(d->h);
	if (!d->tep)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: trace.dat without event formats",
				   t->path);
	d->swap = tep_is_file_bigendian(d->tep) != (__BYTE_ORDER == __BIG_ENDIAN);
	dat_lookup(d);
	t->q.nr_cpus = tep_get_cpus(d->tep);
	t->q.ts_unit_ns = 1;
	/*
	 * The clock of the handle read, or for a copy the original's, which
	 * the probe read (the copy's clock option is convert's): the file is
	 * not opened again for it.
	 */
	clock = d->copy[0] && file_clock[0] ? file_clock : tracecmd_get_trace_clock(d->h);
	if (clock && clock[0])
		snprintf(t->q.clock, sizeof(t->q.clock), "%s", clock);
	r = dat_open_buffers(t, d, buf_clock, err);
	if (!r && (!compressed || d->copy[0]))	/* the handles map the file */
		dat_behind_init(&d->behind, open_path, d->nr_bufs * t->q.nr_cpus);
	if (d->copy[0]) {		/* open: the handles keep it alive */
		unlink(d->copy);
		d->copy[0] = '\0';
	}
	return r;
}

/*
 * How many threads decode (docs/trace-formats.md, "Parallel decoding"):
 * dlb_trace_set_jobs(), else DLB_TRACE_JOBS, else the online CPUs, at most
 * one per CPU stream.  One thread when the data is compressed and read
 * directly: libtracecmd then inflates every CPU's chunks with the one
 * decompression context of the handle, which two threads must not share.
 */
static int dat_jobs(const struct dlb_trace *t, const struct dat_reader *d)
{
	const char *env = getenv("DLB_TRACE_JOBS");
	long jobs = t->jobs, streams = 0;
	int b;

	if (jobs <= 0 && env && *env)
		jobs = strtol(env, NULL, 10);
	if (jobs <= 0)
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if (d->compressed_direct)
		return 1;
	for (b = 0; b < d->nr_bufs; b++)
		streams += tracecmd_cpus(d->bufs[b]) > 0 ? tracecmd_cpus(d->bufs[b]) : 0;
	return (int)(jobs < streams ? jobs : streams);
}

int dat_read(struct dlb_trace *t, dlb_event_fn fn, void *arg, struct dlb_err *err)
{
	struct dat_reader *d = t->dat;
	bool failed = false;
	int r, jobs;
	u64 stats;

	d->t = t;
	d->fn = fn;
	d->arg = arg;
	d->stop = 0;
	jobs = dat_jobs(t, d);
	if (jobs >= 2)
		r = dat_par_read(d, d->bufs, d->nr_bufs, jobs, &failed);
	else if (d->nr_bufs > 1)
		r = tracecmd_iterate_events_multi(d->bufs, d->nr_bufs, dat_record, d);
	else
		r = tracecmd_iterate_events(d->bufs[0], NULL, 0, dat_record, d);
	if (d->oom || failed)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", t->path);
	if (d->stop)
		return d->stop;
	if (r < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: error reading trace.dat records",
				   t->path);
	stats = dat_stats_lost(d);
	t->q.stats_lost = stats;
	if (stats > t->q.lost_events)
		t->q.lost_events = stats;
	return 0;
}

void dat_close(struct dlb_trace *t)
{
	struct dat_reader *d = t->dat;
	int i;

	if (d->copy[0])			/* an error before it was open */
		unlink(d->copy);
	for (i = 0; i < d->nr_bufs; i++)
		if (d->bufs[i] != d->h)
			tracecmd_close(d->bufs[i]);
	if (d->h)
		tracecmd_close(d->h);
	free(d->bufs);
	free(d->behind.win);
	free(t->dat);
	t->dat = NULL;
}
