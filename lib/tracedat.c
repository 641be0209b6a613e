// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat (v6) writer: include/dlbench/tracedat.h says what and why.
 *
 * Layout (trace-cmd.dat.v6(5)): magic, "6", endianness, long size, page
 * size; header_page and header_event; the ftrace formats (print); the
 * event systems (sched, dlb); kallsyms; printk formats (none); cmdlines;
 * the CPU count; options (none); "flyrecord" with each CPU's data offset
 * and size; then each CPU's pages, page-aligned.
 *
 * A page (header_page below): u64 timestamp of its first record, u64
 * commit = bytes of records, then the records.  A record (header_event):
 * a u32 of type_len (5 bits) and time_delta (27 bits, ns since the
 * previous record of the page, or since the page's timestamp); type_len
 * 1..28 is the payload's length in words, 0 means the length + 4 follows
 * in the next u32 (payloads over 112 bytes); type_len 30 is a time extend:
 * delta = next u32 << 27 | time_delta, added before the record after it.
 * This is what the kernel's ring buffer writes (kernel/trace/ring_buffer.c,
 * rb_update_event / rb_add_time_stamp) and what libtraceevent's kbuffer
 * reads (translate_data).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/tracedat.h"

#define TD_PAGE		4096u
#define TD_PAGE_HDR	16u			/* u64 timestamp, u64 commit */
#define TD_PAGE_DATA	(TD_PAGE - TD_PAGE_HDR)
#define TD_CHUNK_PAGES	8u			/* pages a CPU keeps before a write */
#define TD_TS_BITS	27
#define TD_TS_MASK	((1u << TD_TS_BITS) - 1)
#define TD_TYPE_MAX	28u			/* longest inline payload: 28 words */
#define TD_TYPE_EXTEND	30u
#define TD_MAX_CPUS	4096

/*
 * The event formats, copied byte for byte from the tracefs of Linux
 * 6.18.44 (x86-64) as trace-cmd 3.1.6 saved them in
 * analyzer/tests/fixtures/rtapp10.v6.dat (`trace-cmd dump --events`,
 * `--ftrace-events`, `--head-page`, `--head-event`), ids included: a
 * reference trace.dat then reads as a kernel's.
 */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* The fields every event starts with (common_*), then a blank line */
#define FMT_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

static const char fmt_sched_switch[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	FMT_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
	"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "
	"\"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { "
	"0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, "
	"\"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | "
	"0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, "
	"REC->next_prio\n";

/* sched_wakeup, sched_wakeup_new, sched_waking: one class in the kernel (sched_wakeup_template) */
#define WAKEUP_FORMAT(name, id) \
	"name: " name "\n" \
	"ID: " id "\n" \
	"format:\n" \
	FMT_COMMON \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

static const char fmt_sched_wakeup[] = WAKEUP_FORMAT("sched_wakeup", "374");
static const char fmt_sched_wakeup_new[] = WAKEUP_FORMAT("sched_wakeup_new", "373");
static const char fmt_sched_waking[] = WAKEUP_FORMAT("sched_waking", "375");

static const char fmt_sched_migrate_task[] =
	"name: sched_migrate_task\n"
	"ID: 371\n"
	"format:\n"
	FMT_COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), "
	"REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n";

static const char fmt_sched_stat_runtime[] =
	"name: sched_stat_runtime\n"
	"ID: 363\n"
	"format:\n"
	FMT_COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 runtime;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(comm), REC->pid, "
	"(unsigned long long)REC->runtime\n";

static const char fmt_sched_process_exit[] =
	"name: sched_process_exit\n"
	"ID: 369\n"
	"format:\n"
	FMT_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, "
	"REC->prio, REC->group_dead ? \"true\" : \"false\"\n";

static const char fmt_print[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	FMT_COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/*
 * No kernel has these (include/dlbench/event_text.h): ours, in a system of
 * their own, laid out as the kernel lays out a TRACE_EVENT (8-byte fields
 * 8-aligned) and printed as the reference's text prints them.
 */
#define DL_FORMAT(name, id) \
	"name: " name "\n" \
	"ID: " id "\n" \
	"format:\n" \
	FMT_COMMON \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:s64 runtime;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:u64 deadline;\toffset:40;\tsize:8;\tsigned:0;\n" \
	"\n" \
	"print fmt: \"comm=%s pid=%d runtime=%Ld deadline=%Lu\", REC->comm, REC->pid, " \
	"REC->runtime, REC->deadline\n"

static const char fmt_dl_throttle[] = DL_FORMAT("dl_throttle", "1001");
static const char fmt_dl_replenish[] = DL_FORMAT("dl_replenish", "1002");

/* print's ip: the one symbol of the file's kallsyms, so that report shows its name */
#define TD_MARK_IP	0xffffffff81000000ull
static const char kallsyms[] = "ffffffff81000000 T tracing_mark_write\n";

enum {
	ID_PRINT = 5, ID_RUNTIME = 363, ID_EXIT = 369, ID_MIGRATE = 371, ID_SWITCH = 372,
	ID_WAKEUP_NEW = 373, ID_WAKEUP = 374, ID_WAKING = 375,
	ID_THROTTLE = 1001, ID_REPLENISH = 1002,
};

/* The kernel's common_flags / preempt_count of the text's "d..2." (sched) and "....." */
#define TD_FLAG_IRQS_OFF	0x01
#define TD_PREEMPT_SCHED	2

struct td_cpu {
	unsigned char *buf;	/* TD_CHUNK_PAGES pages; page npages is being filled */
	unsigned npages;	/* full pages in buf */
	unsigned used;		/* record bytes in the page being filled */
	bool open;		/* that page has its first record */
	u64 last_ts;		/* of the last record */
	u64 *chunks;		/* offsets in the temporary file of this CPU's full chunks */
	size_t nr_chunks, cap;
};

struct td_comm {
	int pid;		/* 0: free slot */
	char comm[DLB_COMM_LEN];
};

struct dlb_tracedat {
	char *path;
	int tmp;		/* the pages of full chunks, every CPU's, appended */
	u64 tmp_size;
	int nr_cpus;
	int hi_cpu;		/* highest CPU with an event, -1: none */
	struct td_cpu *cpu;
	struct td_comm *comms;	/* open addressing on pid */
	size_t nr_comms, comms_cap;
};

static int td_errno(struct dlb_err *err, const char *what, const char *path, int e)
{
	return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s: %s", path, what, dlb_strerror(e));
}

static int write_all(int fd, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* An unnamed file beside @path (same file system: the final copy stays in the kernel). */
static int open_tmp(const char *path)
{
	char dir[PATH_MAX], tmpl[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
#endif
	snprintf(tmpl, sizeof(tmpl), "%s/.trace.dat.XXXXXX", dir);
	fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

struct dlb_tracedat *dlb_tracedat_create(const char *path, int nr_cpus, struct dlb_err *err)
{
	struct dlb_tracedat *td;
	int i;

	if (nr_cpus < 1 || nr_cpus > TD_MAX_CPUS) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: %d CPUs: not in 1..%d", path, nr_cpus,
			    TD_MAX_CPUS);
		return NULL;
	}
	td = calloc(1, sizeof(*td));
	if (!td || !(td->path = strdup(path)) ||
	    !(td->cpu = calloc((size_t)nr_cpus, sizeof(*td->cpu))))
		goto oom;
	td->nr_cpus = nr_cpus;
	td->hi_cpu = -1;
	td->tmp = -1;
	for (i = 0; i < nr_cpus; i++)
		if (!(td->cpu[i].buf = malloc(TD_PAGE * TD_CHUNK_PAGES)))
			goto oom;
	td->comms_cap = 256;
	if (!(td->comms = calloc(td->comms_cap, sizeof(*td->comms))))
		goto oom;
	td->tmp = open_tmp(path);
	if (td->tmp < 0) {
		td_errno(err, "temporary file", path, errno);
		dlb_tracedat_free(td);
		return NULL;
	}
	return td;
oom:
	dlb_tracedat_free(td);
	dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", path);
	return NULL;
}

void dlb_tracedat_free(struct dlb_tracedat *td)
{
	int i;

	if (!td)
		return;
	for (i = 0; td->cpu && i < td->nr_cpus; i++) {
		free(td->cpu[i].buf);
		free(td->cpu[i].chunks);
	}
	if (td->tmp >= 0)
		close(td->tmp);
	free(td->cpu);
	free(td->comms);
	free(td->path);
	free(td);
}

/* ---- cmdlines: the comm of every common_pid ---- */

static struct td_comm *comm_slot(struct td_comm *tab, size_t cap, int pid)
{
	size_t i = ((size_t)(unsigned)pid * 2654435761u) & (cap - 1);

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int comm_add(struct dlb_tracedat *td, int pid, const char *comm)
{
	struct td_comm *s;

	if (pid <= 0 || !comm)
		return 0;
	s = comm_slot(td->comms, td->comms_cap, pid);
	if (s->pid)
		return 0;
	if (2 * (td->nr_comms + 1) > td->comms_cap) {
		size_t cap = td->comms_cap * 2, i;
		struct td_comm *n = calloc(cap, sizeof(*n));

		if (!n)
			return -1;
		for (i = 0; i < td->comms_cap; i++)
			if (td->comms[i].pid)
				*comm_slot(n, cap, td->comms[i].pid) = td->comms[i];
		free(td->comms);
		td->comms = n;
		td->comms_cap = cap;
		s = comm_slot(n, cap, pid);
	}
	s->pid = pid;
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	td->nr_comms++;
	return 0;
}

/* ---- pages ---- */

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* The CPU's full chunk to the temporary file. */
static int flush_chunk(struct dlb_tracedat *td, struct td_cpu *c)
{
	if (c->nr_chunks == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		u64 *n = realloc(c->chunks, cap * sizeof(*n));

		if (!n)
			return -1;
		c->chunks = n;
		c->cap = cap;
	}
	if (write_all(td->tmp, c->buf, TD_PAGE * TD_CHUNK_PAGES))
		return -1;
	c->chunks[c->nr_chunks++] = td->tmp_size;
	td->tmp_size += TD_PAGE * TD_CHUNK_PAGES;
	c->npages = 0;
	return 0;
}

/* Seal the page being filled: its commit is the bytes of records. */
static int close_page(struct dlb_tracedat *td, struct td_cpu *c)
{
	unsigned char *pg = c->buf + (size_t)c->npages * TD_PAGE;

	put64(pg + 8, c->used);
	c->open = false;
	if (++c->npages == TD_CHUNK_PAGES)
		return flush_chunk(td, c);
	return 0;
}

/*
 * Room for a record of @len payload bytes (a multiple of 4) at @ts on @c:
 * its headers written, the payload zeroed; returns the payload or NULL
 * (errno) on a write error.
 */
static unsigned char *reserve(struct dlb_tracedat *td, struct td_cpu *c, u64 ts, unsigned len)
{
	unsigned hdr = len <= TD_TYPE_MAX * 4 ? 4 : 8, ext = 0;
	u64 delta = 0;
	unsigned char *pg, *p;

	if (c->open) {
		delta = ts - c->last_ts;
		/* a delta past 27 bits takes a time extend; past 59 bits, a new page */
		if (delta > TD_TS_MASK)
			ext = 8;
		if ((delta >> TD_TS_BITS) > UINT32_MAX ||
		    c->used + ext + hdr + len > TD_PAGE_DATA) {
			if (close_page(td, c))
				return NULL;
		}
	}
	pg = c->buf + (size_t)c->npages * TD_PAGE;
	if (!c->open) {
		memset(pg, 0, TD_PAGE);
		put64(pg, ts);
		c->open = true;
		c->used = 0;
		delta = 0;
		ext = 0;
	}
	p = pg + TD_PAGE_HDR + c->used;
	if (ext) {
		put32(p, TD_TYPE_EXTEND | (uint32_t)(delta & TD_TS_MASK) << 5);
		put32(p + 4, (uint32_t)(delta >> TD_TS_BITS));
		p += 8;
		delta = 0;
	}
	if (hdr == 4) {
		put32(p, len / 4 | (uint32_t)delta << 5);
	} else {
		put32(p, (uint32_t)delta << 5);
		put32(p + 4, len + 4);
	}
	p += hdr;
	c->used += ext + hdr + len;
	c->last_ts = ts;
	return p;
}

static void put_comm(unsigned char *p, const char *comm)
{
	size_t n = strnlen(comm, DLB_COMM_LEN - 1);

	memcpy(p, comm, n);	/* the rest is zero already */
}

/* The common fields: type, flags, preempt count, pid. */
static void put_common(unsigned char *p, int id, int sched, int pid)
{
	uint16_t type = (uint16_t)id;

	memcpy(p, &type, 2);
	p[2] = sched ? TD_FLAG_IRQS_OFF : 0;
	p[3] = sched ? TD_PREEMPT_SCHED : 0;
	memcpy(p + 4, &pid, 4);
}

static void put_i32(unsigned char *p, int v)
{
	memcpy(p, &v, 4);
}

/* __data_loc char[] comm at @off: the string after the fixed fields at @at */
static unsigned dyn_comm_len(const char *comm)
{
	return (unsigned)strnlen(comm, DLB_COMM_LEN - 1) + 1;
}

static void put_dyn_comm(unsigned char *p, unsigned off, unsigned at, const char *comm)
{
	unsigned n = dyn_comm_len(comm);

	put32(p + off, n << 16 | at);
	memcpy(p + at, comm, n - 1);
}

#define ALIGN4(n)	(((n) + 3u) & ~3u)

static int event_id(enum dlb_ev_type type, unsigned *len, const struct dlb_event *ev)
{
	switch (type) {
	case DLB_EV_SWITCH:
		*len = 64;
		return ID_SWITCH;
	case DLB_EV_WAKEUP:
		*len = 36;
		return ID_WAKEUP;
	case DLB_EV_WAKEUP_NEW:
		*len = 36;
		return ID_WAKEUP_NEW;
	case DLB_EV_WAKING:
		*len = 36;
		return ID_WAKING;
	case DLB_EV_MIGRATE:
		*len = ALIGN4(28 + dyn_comm_len(ev->mig.comm));
		return ID_MIGRATE;
	case DLB_EV_RUNTIME:
		*len = ALIGN4(24 + dyn_comm_len(ev->rt.comm));
		return ID_RUNTIME;
	case DLB_EV_EXIT:
		*len = 36;	/* 33, as the kernel: rounded to words */
		return ID_EXIT;
	case DLB_EV_THROTTLE:
		*len = 48;
		return ID_THROTTLE;
	case DLB_EV_REPLENISH:
		*len = 48;
		return ID_REPLENISH;
	case DLB_EV_MARKER:
		/* the kernel's buf: the text, a newline, a NUL */
		*len = ALIGN4(16 + (unsigned)ev->mark.len + 2);
		return ID_PRINT;
	default:
		return -1;
	}
}

static void put_payload(unsigned char *p, const struct dlb_event *ev)
{
	switch (ev->type) {
	case DLB_EV_SWITCH:
		put_comm(p + 8, ev->sw.prev_comm);
		put_i32(p + 24, ev->sw.prev_pid);
		put_i32(p + 28, ev->sw.prev_prio);
		put64(p + 32, (uint64_t)ev->sw.prev_state);
		put_comm(p + 40, ev->sw.next_comm);
		put_i32(p + 56, ev->sw.next_pid);
		put_i32(p + 60, ev->sw.next_prio);
		break;
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
	case DLB_EV_WAKING:
		put_comm(p + 8, ev->wake.comm);
		put_i32(p + 24, ev->wake.pid);
		put_i32(p + 28, ev->wake.prio);
		put_i32(p + 32, ev->wake.target_cpu);
		break;
	case DLB_EV_MIGRATE:
		put_dyn_comm(p, 8, 28, ev->mig.comm);
		put_i32(p + 12, ev->mig.pid);
		put_i32(p + 16, ev->mig.prio);
		put_i32(p + 20, ev->mig.orig_cpu);
		put_i32(p + 24, ev->mig.dest_cpu);
		break;
	case DLB_EV_RUNTIME:
		put_dyn_comm(p, 8, 24, ev->rt.comm);
		put_i32(p + 12, ev->rt.pid);
		put64(p + 16, ev->rt.runtime);
		break;
	case DLB_EV_EXIT:
		put_comm(p + 8, ev->exit.comm);
		put_i32(p + 24, ev->exit.pid);
		put_i32(p + 28, 120);	/* event_text.h: rt-app threads exit as SCHED_OTHER */
		break;
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		put_comm(p + 8, ev->dl.comm);
		put_i32(p + 24, ev->dl.pid);
		put64(p + 32, (uint64_t)ev->dl.runtime);
		put64(p + 40, ev->dl.deadline);
		break;
	case DLB_EV_MARKER:
		put64(p + 8, TD_MARK_IP);
		memcpy(p + 16, ev->mark.text, ev->mark.len);
		p[16 + ev->mark.len] = '\n';
		break;
	default:
		break;
	}
}

int dlb_tracedat_event(struct dlb_tracedat *td, const struct dlb_event *ev,
		       const char *common_comm, struct dlb_err *err)
{
	struct td_cpu *c;
	unsigned char *p;
	unsigned len;
	int id;

	if (ev->cpu < 0 || ev->cpu >= td->nr_cpus)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: event on CPU %d of %d",
				   td->path, ev->cpu, td->nr_cpus);
	id = event_id(ev->type, &len, ev);
	if (id < 0)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: %s events have no format here",
				   td->path, dlb_ev_type_str(ev->type));
	if (ev->type == DLB_EV_MARKER && len > TD_PAGE_DATA - 8)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: marker of %zu bytes: too long",
				   td->path, ev->mark.len);
	c = &td->cpu[ev->cpu];
	if ((c->open || c->npages || c->nr_chunks) && dl_time_before(ev->ts, c->last_ts))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: CPU %d: event at %llu ns before "
				   "the last one (%llu ns)", td->path, ev->cpu,
				   (unsigned long long)ev->ts, (unsigned long long)c->last_ts);
	if (comm_add(td, ev->pid, common_comm))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", td->path);
	p = reserve(td, c, ev->ts, len);
	if (!p)
		return td_errno(err, "temporary file", td->path, errno);
	if (ev->cpu > td->hi_cpu)
		td->hi_cpu = ev->cpu;
	put_common(p, id, ev->type != DLB_EV_MARKER, ev->pid);
	put_payload(p, ev);
	return 0;
}

/* ---- the file ---- */

struct mbuf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static void mb_put(struct mbuf *m, const void *s, size_t n)
{
	if (m->oom)
		return;
	if (m->len + n > m->cap) {
		size_t cap = m->cap ? m->cap : 16384;
		unsigned char *p;

		while (cap < m->len + n)
			cap *= 2;
		p = realloc(m->p, cap);
		if (!p) {
			m->oom = true;
			return;
		}
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->len, s, n);
	m->len += n;
}

static void mb_u16(struct mbuf *m, uint16_t v)
{
	mb_put(m, &v, 2);
}

static void mb_u32(struct mbuf *m, uint32_t v)
{
	mb_put(m, &v, 4);
}

static void mb_u64(struct mbuf *m, uint64_t v)
{
	mb_put(m, &v, 8);
}

/* A format file: its size in 8 bytes, then the text. */
static void mb_format(struct mbuf *m, const char *text)
{
	mb_u64(m, strlen(text));
	mb_put(m, text, strlen(text));
}

static int cmp_comm(const void *a, const void *b)
{
	const struct td_comm *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* "pid comm" lines, in pid order (saved_cmdlines' content) */
static int put_cmdlines(struct dlb_tracedat *td, struct mbuf *m)
{
	struct td_comm *v = malloc((td->nr_comms ? td->nr_comms : 1) * sizeof(*v));
	struct mbuf t = { 0 };
	size_t i, n = 0;
	char line[64];

	if (!v)
		return -1;
	for (i = 0; i < td->comms_cap; i++)
		if (td->comms[i].pid)
			v[n++] = td->comms[i];
	qsort(v, n, sizeof(*v), cmp_comm);
	for (i = 0; i < n; i++) {
		int k = snprintf(line, sizeof(line), "%d %s\n", v[i].pid, v[i].comm);

		mb_put(&t, line, (size_t)k);
	}
	free(v);
	mb_u64(m, t.len);
	if (t.len)
		mb_put(m, t.p, t.len);
	free(t.p);
	return t.oom ? -1 : 0;
}

static u64 cpu_pages(const struct td_cpu *c)
{
	return (u64)c->nr_chunks * TD_CHUNK_PAGES + c->npages;
}

/*
 * The file's CPUs: up to the highest one with an event, as the text reader
 * counts a trace.txt's (it has no "#P:" line): an idle simulated CPU
 * records nothing in either, and the two give the same report.
 */
static int file_cpus(const struct dlb_tracedat *td)
{
	return td->hi_cpu < 0 ? 1 : td->hi_cpu + 1;
}

/* Everything before the CPU data; the data of CPU i starts at @data + sum of those before. */
static int put_meta(struct dlb_tracedat *td, struct mbuf *m, u64 *data)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
					       '6', 0 };
	static const char *const sched[] = {
		fmt_sched_switch, fmt_sched_wakeup, fmt_sched_wakeup_new, fmt_sched_waking,
		fmt_sched_migrate_task, fmt_sched_stat_runtime, fmt_sched_process_exit,
	};
	const uint16_t one = 1;
	unsigned char b;
	size_t i;
	u64 off;
	int cpu;

	mb_put(m, magic, sizeof(magic));
	b = *(const unsigned char *)&one ? 0 : 1;	/* 0: little endian */
	mb_put(m, &b, 1);
	b = 8;		/* the formats above are a 64-bit kernel's (commit, long prev_state) */
	mb_put(m, &b, 1);
	mb_u32(m, TD_PAGE);
	mb_put(m, "header_page", 12);
	mb_format(m, header_page);
	mb_put(m, "header_event", 13);
	mb_format(m, header_event);
	mb_u32(m, 1);				/* ftrace events */
	mb_format(m, fmt_print);
	mb_u32(m, 2);				/* event systems */
	mb_put(m, "sched", 6);
	mb_u32(m, sizeof(sched) / sizeof(sched[0]));
	for (i = 0; i < sizeof(sched) / sizeof(sched[0]); i++)
		mb_format(m, sched[i]);
	mb_put(m, "dlb", 4);
	mb_u32(m, 2);
	mb_format(m, fmt_dl_throttle);
	mb_format(m, fmt_dl_replenish);
	mb_u32(m, sizeof(kallsyms) - 1);
	mb_put(m, kallsyms, sizeof(kallsyms) - 1);
	mb_u32(m, 0);				/* printk formats */
	if (put_cmdlines(td, m))
		return -1;
	mb_u32(m, (uint32_t)file_cpus(td));
	mb_put(m, "options  ", 10);
	mb_u16(m, 0);				/* no options */
	mb_put(m, "flyrecord", 10);
	/* the data starts page-aligned after the offset/size pairs */
	*data = (m->len + 16 * (u64)file_cpus(td) + TD_PAGE - 1) / TD_PAGE * TD_PAGE;
	for (off = *data, cpu = 0; cpu < file_cpus(td); cpu++) {
		u64 size = cpu_pages(&td->cpu[cpu]) * TD_PAGE;

		mb_u64(m, off);
		mb_u64(m, size);
		off += size;
	}
	return m->oom ? -1 : 0;
}

/* @len bytes at @off of the temporary file to @out's current position. */
static int copy_range(int tmp, u64 off, int out, size_t len)
{
	static unsigned char buf[TD_PAGE * TD_CHUNK_PAGES];
	loff_t in = (loff_t)off;

	while (len) {
		ssize_t n = copy_file_range(tmp, &in, out, NULL, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len -= (size_t)n;
	}
	/* no copy_file_range here (EXDEV on old kernels, ENOSYS, EINVAL): read and write */
	while (len) {
		size_t k = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t n = pread(tmp, buf, k, in);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		if (write_all(out, buf, (size_t)n))
			return -1;
		in += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_file(struct dlb_tracedat *td, int fd)
{
	static const unsigned char zero[TD_PAGE];
	struct mbuf m = { 0 };
	u64 data;
	size_t i;
	int cpu, rc = -1;

	if (put_meta(td, &m, &data)) {
		errno = ENOMEM;
		goto out;
	}
	if (write_all(fd, m.p, m.len) || write_all(fd, zero, (size_t)(data - m.len)))
		goto out;
	for (cpu = 0; cpu < file_cpus(td); cpu++) {
		struct td_cpu *c = &td->cpu[cpu];

		for (i = 0; i < c->nr_chunks; i++)
			if (copy_range(td->tmp, c->chunks[i], fd, TD_PAGE * TD_CHUNK_PAGES))
				goto out;
		if (c->npages && write_all(fd, c->buf, (size_t)c->npages * TD_PAGE))
			goto out;
	}
	rc = 0;
out:
	free(m.p);
	return rc;
}

int dlb_tracedat_finish(struct dlb_tracedat *td, struct dlb_err *err)
{
	int fd, cpu, e;

	for (cpu = 0; cpu < td->nr_cpus; cpu++)
		if (td->cpu[cpu].open && close_page(td, &td->cpu[cpu]))
			return td_errno(err, "temporary file", td->path, errno);
	fd = open(td->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return td_errno(err, "open", td->path, errno);
	if (write_file(td, fd)) {
		e = errno ? errno : EIO;
		close(fd);
		unlink(td->path);
		return e == ENOMEM ? dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory",
						 td->path) : td_errno(err, "write", td->path, e);
	}
	if (close(fd)) {
		e = errno;
		unlink(td->path);
		return td_errno(err, "close", td->path, e);
	}
	return 0;
}
