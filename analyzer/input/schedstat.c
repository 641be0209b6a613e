// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers of /proc/PID/sched, /proc/PID/schedstat, sched/debug's dl_rq
 * blocks and /proc/schedstat (analyzer/input/schedstat.h).  The kernel's lines
 * are "key : value" (sched, debug) or "name n n n" (schedstat); keys we do
 * not know are skipped, because every kernel version adds some.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "schedstat.h"

#define MAX_CPUS	4096

struct lines {
	const char *p, *end;
	unsigned int no;	/* number of the line last returned */
};

static bool next_line(struct lines *l, const char **s, const char **e)
{
	const char *nl;

	if (l->p >= l->end)
		return false;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*s = l->p;
	*e = nl ? nl : l->end;
	l->p = nl ? nl + 1 : l->end;
	l->no++;
	return true;
}

static const char *skip_sp(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *rtrim(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

/* [-]digits, the whole of [p, e). */
static int parse_s64(const char *p, const char *e, s64 *out)
{
	bool neg = p < e && *p == '-';
	u64 v = 0;

	p += neg;
	if (p == e)
		return -1;
	for (; p < e; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > (u64)INT64_MAX)
		return -1;
	*out = neg ? -(s64)v : (s64)v;
	return 0;
}

/*
 * A time: plain ns ("12345"), or the kernel's SPLIT_NS "%Ld.%06ld", ms
 * and the ns below them ("12.345678" = 12345678 ns, "-1.048576").
 */
static int parse_time(const char *p, const char *e, s64 *out)
{
	const char *dot = memchr(p, '.', (size_t)(e - p));
	s64 ms, ns;

	if (!dot)
		return parse_s64(p, e, out);
	if (e - dot != 7 || parse_s64(p, dot, &ms) || parse_s64(dot + 1, e, &ns) || ns < 0 ||
	    ms > INT64_MAX / 1000000 || ms < -(INT64_MAX / 1000000))
		return -1;
	*out = (*p == '-') ? ms * 1000000 - ns : ms * 1000000 + ns;
	return 0;
}

/* Split "key   : value" (value right-aligned, key possibly with a leading '.'). */
static bool split_colon(const char *s, const char *e, const char **k, const char **ke,
			const char **v, const char **ve)
{
	const char *c = memchr(s, ':', (size_t)(e - s));

	if (!c)
		return false;
	*k = skip_sp(s, c);
	*ke = rtrim(*k, c);
	*v = skip_sp(c + 1, e);
	*ve = rtrim(*v, e);
	return *ke > *k && *ve > *v;
}

static bool key_is(const char *k, const char *ke, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(ke - k) == n && !memcmp(k, lit, n);
}

static int bad_value(struct dlb_err *err, const char *name, unsigned int line, const char *k,
		     const char *ke, const char *v, const char *ve)
{
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:%u: %.*s: bad value '%.*s'", name, line,
			   (int)(ke - k), k, (int)(ve - v), v);
}

/* ---- /proc/PID/sched ---- */

enum fkind { F_INT32, F_S64, F_TIME };

static const struct task_field {
	const char *key;
	enum fkind kind;
	size_t off;
	unsigned int flag;
} task_fields[] = {
	{ "policy", F_INT32, offsetof(struct dlb_task_sched, policy), 0 },
	{ "prio", F_INT32, offsetof(struct dlb_task_sched, prio), 0 },
	{ "dl.runtime", F_TIME, offsetof(struct dlb_task_sched, dl_runtime), DLB_TS_DL },
	{ "dl.deadline", F_TIME, offsetof(struct dlb_task_sched, dl_deadline), DLB_TS_DL },
	{ "dl.stats.last_dmiss", F_TIME, offsetof(struct dlb_task_sched, last_dmiss),
	  DLB_TS_DL_STATS },
	{ "dl.stats.dmiss_max", F_TIME, offsetof(struct dlb_task_sched, dmiss_max),
	  DLB_TS_DL_STATS },
	{ "dl.stats.last_rorun", F_TIME, offsetof(struct dlb_task_sched, last_rorun),
	  DLB_TS_DL_STATS },
	{ "dl.stats.rorun_max", F_TIME, offsetof(struct dlb_task_sched, rorun_max),
	  DLB_TS_DL_STATS },
	{ "se.sum_exec_runtime", F_TIME, offsetof(struct dlb_task_sched, sum_exec_runtime),
	  DLB_TS_COUNTS },
	{ "nr_switches", F_S64, offsetof(struct dlb_task_sched, nr_switches), DLB_TS_COUNTS },
	{ "nr_voluntary_switches", F_S64, offsetof(struct dlb_task_sched, nr_voluntary_switches),
	  DLB_TS_COUNTS },
	{ "nr_involuntary_switches", F_S64,
	  offsetof(struct dlb_task_sched, nr_involuntary_switches), DLB_TS_COUNTS },
	{ "se.nr_migrations", F_S64, offsetof(struct dlb_task_sched, nr_migrations),
	  DLB_TS_COUNTS },
};

/* "comm (pid, #threads: n)"; comm may itself contain " (". */
static int task_header(const char *s, const char *e, struct dlb_task_sched *ts)
{
	const char *open = NULL, *p;
	s64 v;

	for (p = s; p + 1 < e; p++)
		if (p[0] == ' ' && p[1] == '(')
			open = p;
	if (!open || e[-1] != ')')
		return -1;
	snprintf(ts->comm, sizeof(ts->comm), "%.*s", (int)(open - s), s);
	for (p = open + 2; p < e && *p >= '0' && *p <= '9'; p++)
		;
	if (parse_s64(open + 2, p, &v))
		return -1;
	ts->pid = (int)v;
	p = memchr(p, ':', (size_t)(e - p));
	if (p && !parse_s64(skip_sp(p + 1, e), e - 1, &v))
		ts->threads = (int)v;
	return 0;
}

int dlb_task_sched_parse(const char *text, size_t len, const char *name,
			 struct dlb_task_sched *ts, struct dlb_err *err)
{
	struct lines l = { text, text + len, 0 };
	const char *s, *e, *k, *ke, *v, *ve;
	unsigned int dl_seen = 0;
	size_t i;
	s64 x;

	memset(ts, 0, sizeof(*ts));
	ts->policy = ts->prio = -1;
	if (!next_line(&l, &s, &e) || task_header(s, rtrim(s, e), ts))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s:1: not a /proc/PID/sched file: no 'comm (pid, #threads: n)' "
				   "line", name);
	while (next_line(&l, &s, &e)) {
		if (!split_colon(s, e, &k, &ke, &v, &ve))
			continue;
		for (i = 0; i < sizeof(task_fields) / sizeof(task_fields[0]); i++)
			if (key_is(k, ke, task_fields[i].key))
				break;
		if (i == sizeof(task_fields) / sizeof(task_fields[0]))
			continue;
		if (task_fields[i].kind == F_TIME ? parse_time(v, ve, &x) : parse_s64(v, ve, &x))
			return bad_value(err, name, l.no, k, ke, v, ve);
		if (task_fields[i].kind == F_INT32)
			*(int *)((char *)ts + task_fields[i].off) = (int)x;
		else
			*(s64 *)((char *)ts + task_fields[i].off) = x;
		ts->has |= task_fields[i].flag;
		if (task_fields[i].flag == DLB_TS_DL)
			dl_seen++;
	}
	/* dl.runtime without dl.deadline (or the reverse) is a cut file */
	if (dl_seen == 1)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: dl.runtime and dl.deadline come together; one is missing",
				   name);
	return 0;
}

/* ---- /proc/PID/schedstat ---- */

int dlb_task_schedstat_parse(const char *text, size_t len, const char *name,
			     struct dlb_task_schedstat *ss, struct dlb_err *err)
{
	const char *p = text, *end = text + len, *t;
	s64 v[3];
	int i;

	end = rtrim(text, memchr(text, '\n', len) ? (const char *)memchr(text, '\n', len) : end);
	for (i = 0; i < 3; i++) {
		p = skip_sp(p, end);
		for (t = p; t < end && *t != ' '; t++)
			;
		if (parse_s64(p, t, &v[i]) || v[i] < 0)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
					   "%s:1: expected 3 numbers (cpu time, run delay, "
					   "timeslices), field %d is '%.*s'", name, i + 1,
					   (int)(t - p), p);
		p = t;
	}
	if (skip_sp(p, end) != end)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:1: more than 3 numbers", name);
	ss->cpu_time = (u64)v[0];
	ss->run_delay = (u64)v[1];
	ss->timeslices = (u64)v[2];
	return 0;
}

/* ---- arrays indexed by CPU ---- */

static void *grow(void *arr, int *n, int want, size_t elem)
{
	char *a;

	if (want <= *n)
		return arr;
	a = realloc(arr, (size_t)want * elem);
	if (!a)
		return NULL;
	memset(a + (size_t)*n * elem, 0, (size_t)(want - *n) * elem);
	*n = want;
	return a;
}

/* "prefix[N]:" or "prefixN": the CPU number, or -1. */
static int cpu_index(const char *p, const char *e, const char *prefix, char close)
{
	size_t n = strlen(prefix);
	const char *q;
	s64 v;

	if ((size_t)(e - p) <= n || memcmp(p, prefix, n))
		return -1;
	p += n;
	for (q = p; q < e && *q >= '0' && *q <= '9'; q++)
		;
	if (q == e || *q != close || parse_s64(p, q, &v) || v >= MAX_CPUS)
		return -1;
	return (int)v;
}

/* ---- /sys/kernel/debug/sched/debug ---- */

static int dl_rq_field(struct dlb_dl_rq *rq, const char *k, const char *ke, const char *v,
		       const char *ve)
{
	static const struct {
		const char *key;
		size_t off;
		unsigned int flag;
	} f[] = {
		{ ".dl_nr_running", offsetof(struct dlb_dl_rq, dl_nr_running), DLB_DLRQ_NR },
		{ ".dl_bw->bw", offsetof(struct dlb_dl_rq, bw), DLB_DLRQ_BW },
		{ ".dl_bw->total_bw", offsetof(struct dlb_dl_rq, total_bw), DLB_DLRQ_BW },
		{ ".exec_clock", offsetof(struct dlb_dl_rq, exec_clock), DLB_DLRQ_SEED },
		{ ".min_deadline", offsetof(struct dlb_dl_rq, min_deadline), DLB_DLRQ_SEED },
		{ ".max_deadline", offsetof(struct dlb_dl_rq, max_deadline), DLB_DLRQ_SEED },
	};
	size_t i;
	s64 x;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!key_is(k, ke, f[i].key))
			continue;
		if (parse_time(v, ve, &x))
			return -1;
		*(s64 *)((char *)rq + f[i].off) = x;
		rq->has |= f[i].flag;
		return 0;
	}
	return 0;
}

int dlb_sched_debug_parse(const char *text, size_t len, const char *name,
			  struct dlb_sched_debug *sd, struct dlb_err *err)
{
	struct lines l = { text, text + len, 0 };
	const char *s, *e, *k, *ke, *v, *ve;
	int cur = -1, nr = 0, cpu;

	memset(sd, 0, sizeof(*sd));
	while (next_line(&l, &s, &e)) {
		e = rtrim(s, e);
		if (e - s > 20 && !memcmp(s, "Sched Debug Version:", 20)) {
			snprintf(sd->version, sizeof(sd->version), "%.*s", (int)(e - s - 21),
				 skip_sp(s + 20, e));
			continue;
		}
		cpu = cpu_index(s, e, "dl_rq[", ']');
		if (cpu >= 0) {
			struct dlb_dl_rq *a = grow(sd->dl_rq, &nr, cpu + 1, sizeof(*a));

			if (!a) {
				dlb_sched_debug_free(sd);
				return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory",
						   name);
			}
			sd->dl_rq = a;
			cur = cpu;
			continue;
		}
		/* a dl_rq block is the "  .key : value" lines under it */
		if (cur < 0)
			continue;
		if (skip_sp(s, e) == e || *skip_sp(s, e) != '.') {
			cur = -1;
			continue;
		}
		if (!split_colon(s, e, &k, &ke, &v, &ve))
			continue;
		if (dl_rq_field(&sd->dl_rq[cur], k, ke, v, ve)) {
			dlb_sched_debug_free(sd);
			return bad_value(err, name, l.no, k, ke, v, ve);
		}
	}
	sd->nr_cpus = nr;
	if (!nr)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s: no dl_rq[N] block (not sched/debug output?)", name);
	return 0;
}

void dlb_sched_debug_free(struct dlb_sched_debug *sd)
{
	free(sd->dl_rq);
	sd->dl_rq = NULL;
	sd->nr_cpus = 0;
}

/* ---- /proc/schedstat ---- */

/* Up to @n numbers after the first word of [s, e); returns how many. */
static int numbers(const char *p, const char *e, u64 *out, int n)
{
	const char *t;
	int i = 0;
	s64 v;

	while (i < n && (p = skip_sp(p, e)) < e) {
		for (t = p; t < e && *t != ' '; t++)
			;
		if (parse_s64(p, t, &v) || v < 0)
			return -1;
		out[i++] = (u64)v;
		p = t;
	}
	return i;
}

static int schedstat_cpu(struct dlb_schedstat *st, int cpu, const char *p, const char *e)
{
	struct dlb_schedstat_cpu *c;
	u64 n[9];

	/* cpu<N> yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
	 *        rq_cpu_time run_delay pcount (versions 15-17) */
	if (numbers(p, e, n, 9) != 9)
		return -1;
	c = grow(st->cpu, &st->nr_cpus, cpu + 1, sizeof(*c));
	if (!c)
		return -2;
	st->cpu = c;
	c += cpu;
	c->present = true;
	c->yld_count = n[0];
	c->sched_count = n[2];
	c->sched_goidle = n[3];
	c->ttwu_count = n[4];
	c->ttwu_local = n[5];
	c->rq_cpu_time = n[6];
	c->run_delay = n[7];
	c->pcount = n[8];
	return 0;
}

int dlb_schedstat_parse(const char *text, size_t len, const char *name,
			struct dlb_schedstat *st, struct dlb_err *err)
{
	struct lines l = { text, text + len, 0 };
	const char *s, *e;
	u64 v;
	int cpu, r;

	memset(st, 0, sizeof(*st));
	if (!next_line(&l, &s, &e) || e - s < 9 || memcmp(s, "version ", 8) ||
	    numbers(s + 8, rtrim(s, e), &v, 1) != 1)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s:1: not a /proc/schedstat file: no 'version N' line", name);
	st->version = (int)v;
	if (st->version < 15)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT,
				   "%s:1: schedstat version %d is not supported (15 and later are)",
				   name, st->version);
	while (next_line(&l, &s, &e)) {
		e = rtrim(s, e);
		if (e - s > 10 && !memcmp(s, "timestamp ", 10)) {
			if (numbers(s + 10, e, &st->timestamp, 1) != 1)
				goto bad;
			continue;
		}
		if (e - s > 6 && !memcmp(s, "domain", 6)) {
			st->nr_domains++;
			continue;
		}
		cpu = cpu_index(s, e, "cpu", ' ');
		if (cpu < 0)
			goto bad;
		r = schedstat_cpu(st, cpu, memchr(s, ' ', (size_t)(e - s)), e);
		if (r == -2) {
			dlb_schedstat_free(st);
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", name);
		}
		if (r)
			goto bad;
	}
	return 0;
bad:
	dlb_schedstat_free(st);
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s:%u: unexpected line '%.*s'", name, l.no,
			   (int)(e - s > 60 ? 60 : e - s), s);
}

void dlb_schedstat_free(struct dlb_schedstat *st)
{
	free(st->cpu);
	st->cpu = NULL;
	st->nr_cpus = 0;
}

int dlb_read_small_file(const char *path, char **text, size_t *len, struct dlb_err *err)
{
	size_t cap = 65536, n = 0;
	char *buf = NULL, *nb;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: cannot open: %s", path,
				   dlb_strerror(errno));
	for (;;) {
		if (!buf || n + 1 >= cap) {
			cap = buf ? cap * 2 : cap;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				return dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", path);
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			close(fd);
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: read error: %s", path,
					   dlb_strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}
