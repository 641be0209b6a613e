// SPDX-License-Identifier: GPL-2.0
/*
 * The marker grammar (include/dlbench/marker.h, docs/markers.md): the one
 * formatter the generator and the reference call, and the one parser the
 * analyzer calls, for our dialect and the two rt-app dialects.
 *
 * Parsing is hand-written scanning, no sscanf: a long trace holds one
 * marker per job begin and end, and the parser runs on every one of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/marker.h"

#include "sbuf.h"

#define MARK_MAX_KV	16

struct mark_kv {
	const char *k, *v;
	size_t klen, vlen;
	int used;
};

struct mark_line {
	const char *type;		/* "dlb_job", without the colon */
	size_t tlen;
	struct mark_kv kv[MARK_MAX_KV];
	int nkv;
};

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "other", 0 }, { "fifo", 1 }, { "rr", 2 }, { "batch", 3 }, { "idle", 5 },
	{ "deadline", 6 },
};

static const char *const run_status[] = {
	[DLB_RUN_COMPLETE] = "complete",
	[DLB_RUN_INCOMPLETE] = "incomplete",
	[DLB_RUN_ERROR] = "error",
};

const char *dlb_run_status_str(enum dlb_run_status st)
{
	if ((unsigned int)st < sizeof(run_status) / sizeof(run_status[0]))
		return run_status[st];
	return "unknown";
}

static const char *policy_name(int policy)
{
	size_t i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return NULL;
}

/* ---- formatting (printf-free: see sbuf.h) ---- */

/*
 * A value is one token: whitespace and '=' would split it on the way back,
 * so they are written as '_' (task names may contain spaces; comm does).
 */
static void mb_add_word(struct sbuf *b, const char *key, const char *val)
{
	size_t i;

	if (!val[0])
		return;
	sb_put(b, " ", 1);
	sb_str(b, key);
	sb_put(b, "=", 1);
	if (b->overflow)
		return;
	for (i = 0; val[i]; i++) {
		unsigned char c = (unsigned char)val[i];

		if (b->len + 1 >= b->size) {
			b->overflow = 1;
			return;
		}
		b->p[b->len++] = (c <= ' ' || c == '=' || c == 0x7f) ? '_' : (char)c;
	}
	b->p[b->len] = '\0';
}

static void format_policy(struct sbuf *b, int policy)
{
	const char *name = policy_name(policy);

	sb_lit(b, " policy=");
	if (name)
		sb_str(b, name);
	else
		sb_int(b, policy);
}

int dlb_marker_format(char *buf, size_t size, const struct dlb_marker *m)
{
	struct sbuf b;

	if (!size)
		return -1;
	sb_init(&b, buf, size);
	switch (m->kind) {
	case DLB_MARK_RUN_START:
		sb_str(&b, "dlb_run: event=start");
		mb_add_word(&b, "backend", m->backend);
		if (m->cpus > 0) {
			sb_lit(&b, " cpus=");
			sb_int(&b, m->cpus);
		}
		mb_add_word(&b, "clock", m->clock);
		mb_add_word(&b, "tool", DLB_VERSION);
		mb_add_word(&b, "workload", m->workload);
		break;
	case DLB_MARK_RUN_END:
		sb_str(&b, "dlb_run: event=end status=");
		sb_str(&b, dlb_run_status_str(m->status));
		break;
	case DLB_MARK_TASK:
		sb_lit(&b, "dlb_task: tid=");
		sb_int(&b, m->tid);
		mb_add_word(&b, "name", m->name);
		format_policy(&b, m->policy);
		sb_lit(&b, " prio=");
		sb_int(&b, m->prio);
		if (m->flags & DLB_MF_PARAMS) {
			sb_lit(&b, " runtime=");
			sb_u64(&b, m->runtime);
			sb_lit(&b, " deadline=");
			sb_u64(&b, m->deadline);
			sb_lit(&b, " period=");
			sb_u64(&b, m->period);
		}
		break;
	case DLB_MARK_JOB_RELEASE:
	case DLB_MARK_JOB_BEGIN:
	case DLB_MARK_JOB_END:
		sb_lit(&b, "dlb_job: tid=");
		sb_int(&b, m->tid);
		sb_lit(&b, " job=");
		sb_u64(&b, m->job);
		sb_str(&b, m->kind == DLB_MARK_JOB_RELEASE ? " event=release" :
		       m->kind == DLB_MARK_JOB_BEGIN ? " event=begin" : " event=end");
		if (m->kind != DLB_MARK_JOB_END && (m->flags & DLB_MF_REL)) {
			sb_lit(&b, " rel=");
			sb_u64(&b, m->rel);
		}
		if (m->kind != DLB_MARK_JOB_END && (m->flags & DLB_MF_DL)) {
			sb_lit(&b, " dl=");
			sb_u64(&b, m->dl);
		}
		break;
	case DLB_MARK_TASK_EXIT:
		sb_lit(&b, "dlb_task: tid=");
		sb_int(&b, m->tid);
		sb_lit(&b, " event=exit");
		break;
	default:
		return -1;
	}
	if (b.overflow)
		return -1;
	return (int)b.len;
}

/* ---- scanning helpers ---- */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Decimal u64, the whole token, overflow checked. */
static int scan_u64(const char *s, size_t len, u64 *out)
{
	u64 v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int scan_int(const char *s, size_t len, int *out)
{
	int neg = len && s[0] == '-';
	u64 v;

	if (scan_u64(s + neg, len - (size_t)neg, &v) || v > (u64)INT32_MAX + (u64)neg)
		return -1;
	*out = neg ? (int)-(s64)v : (int)v;
	return 0;
}

static int tok_eq(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len == n && !memcmp(s, lit, n);
}

/* Skip a literal word at *p; returns 0 and advances, or -1. */
static int eat(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return -1;
	*p += n;
	return 0;
}

static int eat_int(const char **p, const char *end, int *out)
{
	const char *s = *p;

	if (s < end && *s == '-')
		s++;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	if (scan_int(*p, (size_t)(s - *p), out))
		return -1;
	*p = s;
	return 0;
}

/*
 * Split "type: k=v k=v ..." into its parts.  Returns 0, or -1 with @err
 * naming the offending token (only reached for our own dialect).
 */
static int split_kv(const char *s, const char *end, struct mark_line *ml, struct dlb_err *err)
{
	const char *p = s;

	ml->nkv = 0;
	while (p < end) {
		struct mark_kv *kv;
		const char *tok = p, *eq = NULL;

		while (p < end && !is_space(*p)) {
			if (*p == '=' && !eq)
				eq = p;
			p++;
		}
		if (!eq || eq == tok)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: '%.*s' is not key=value",
					   (int)ml->tlen, ml->type, (int)(p - tok), tok);
		if (ml->nkv == MARK_MAX_KV)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: more than %d keys",
					   (int)ml->tlen, ml->type, MARK_MAX_KV);
		kv = &ml->kv[ml->nkv++];
		kv->k = tok;
		kv->klen = (size_t)(eq - tok);
		kv->v = eq + 1;
		kv->vlen = (size_t)(p - eq - 1);
		kv->used = 0;
		if (!kv->vlen)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: key '%.*s' has no value",
					   (int)ml->tlen, ml->type, (int)kv->klen, kv->k);
		while (p < end && is_space(*p))
			p++;
	}
	return 0;
}

static struct mark_kv *kv_find(struct mark_line *ml, const char *key)
{
	int i;

	for (i = 0; i < ml->nkv; i++)
		if (tok_eq(ml->kv[i].k, ml->kv[i].klen, key))
			return &ml->kv[i];
	return NULL;
}

static int kv_missing(struct mark_line *ml, const char *key, struct dlb_err *err)
{
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: missing key '%s'", (int)ml->tlen,
			   ml->type, key);
}

static int kv_bad(struct mark_line *ml, const struct mark_kv *kv, const char *what,
		  struct dlb_err *err)
{
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: key '%.*s': %s '%.*s'",
			   (int)ml->tlen, ml->type, (int)kv->klen, kv->k, what, (int)kv->vlen,
			   kv->v);
}

/* Fetch key @key as u64 / int / word.  1 found, 0 absent, -1 bad. */
static int kv_u64(struct mark_line *ml, const char *key, u64 *out, struct dlb_err *err)
{
	struct mark_kv *kv = kv_find(ml, key);

	if (!kv)
		return 0;
	kv->used = 1;
	if (scan_u64(kv->v, kv->vlen, out))
		return kv_bad(ml, kv, "not an unsigned number", err);
	return 1;
}

static int kv_int(struct mark_line *ml, const char *key, int *out, struct dlb_err *err)
{
	struct mark_kv *kv = kv_find(ml, key);

	if (!kv)
		return 0;
	kv->used = 1;
	if (scan_int(kv->v, kv->vlen, out))
		return kv_bad(ml, kv, "not an integer", err);
	return 1;
}

static int kv_word(struct mark_line *ml, const char *key, char *out, size_t size,
		   struct dlb_err *err)
{
	struct mark_kv *kv = kv_find(ml, key);

	if (!kv)
		return 0;
	kv->used = 1;
	if (kv->vlen >= size)
		return kv_bad(ml, kv, "value too long", err);
	memcpy(out, kv->v, kv->vlen);
	out[kv->vlen] = '\0';
	return 1;
}

/* Required variants: absent is an error. */
static int kv_need_int(struct mark_line *ml, const char *key, int *out, struct dlb_err *err)
{
	int r = kv_int(ml, key, out, err);

	return r == 0 ? kv_missing(ml, key, err) : r;
}

static int kv_need_u64(struct mark_line *ml, const char *key, u64 *out, struct dlb_err *err)
{
	int r = kv_u64(ml, key, out, err);

	return r == 0 ? kv_missing(ml, key, err) : r;
}

/* Every key must have been consumed: unknown keys are typos in our dialect. */
static int kv_check_unused(struct mark_line *ml, struct dlb_err *err)
{
	int i;

	for (i = 0; i < ml->nkv; i++)
		if (!ml->kv[i].used)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%.*s: unknown key '%.*s'",
					   (int)ml->tlen, ml->type, (int)ml->kv[i].klen,
					   ml->kv[i].k);
	return 0;
}

/* Returns the index into @names of key @key's value, or -1 with err. */
static int kv_enum(struct mark_line *ml, const char *key, const char *const *names, int n,
		   struct dlb_err *err)
{
	struct mark_kv *kv = kv_find(ml, key);
	int i;

	if (!kv)
		return kv_missing(ml, key, err);
	kv->used = 1;
	for (i = 0; i < n; i++)
		if (names[i] && tok_eq(kv->v, kv->vlen, names[i]))
			return i;
	return kv_bad(ml, kv, "unknown value", err);
}

/* ---- our dialect ---- */

static int parse_run(struct mark_line *ml, struct dlb_marker *m, struct dlb_err *err)
{
	static const char *const events[] = { "start", "end" };
	char tool[DLB_NAME_MAX];
	int ev, st;

	ev = kv_enum(ml, "event", events, 2, err);
	if (ev < 0)
		return -1;
	if (ev == 0) {
		m->kind = DLB_MARK_RUN_START;
		if (kv_word(ml, "backend", m->backend, sizeof(m->backend), err) < 0 ||
		    kv_int(ml, "cpus", &m->cpus, err) < 0 ||
		    kv_word(ml, "clock", m->clock, sizeof(m->clock), err) < 0 ||
		    kv_word(ml, "tool", tool, sizeof(tool), err) < 0 ||
		    kv_word(ml, "workload", m->workload, sizeof(m->workload), err) < 0)
			return -1;
	} else {
		m->kind = DLB_MARK_RUN_END;
		st = kv_enum(ml, "status", run_status, 3, err);
		if (st < 0)
			return -1;
		m->status = (enum dlb_run_status)st;
	}
	return kv_check_unused(ml, err);
}

static int parse_policy(struct mark_line *ml, struct dlb_marker *m, struct dlb_err *err)
{
	struct mark_kv *kv = kv_find(ml, "policy");
	size_t i;

	if (!kv)
		return 0;
	kv->used = 1;
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (tok_eq(kv->v, kv->vlen, policies[i].name)) {
			m->policy = policies[i].policy;
			return 0;
		}
	}
	if (scan_int(kv->v, kv->vlen, &m->policy) || m->policy < 0)
		return kv_bad(ml, kv, "unknown policy", err);
	return 0;
}

static int parse_task(struct mark_line *ml, struct dlb_marker *m, struct dlb_err *err)
{
	struct mark_kv *ev = kv_find(ml, "event");
	int n;

	if (kv_need_int(ml, "tid", &m->tid, err) < 0)
		return -1;
	if (ev) {
		ev->used = 1;
		if (!tok_eq(ev->v, ev->vlen, "exit"))
			return kv_bad(ml, ev, "unknown value", err);
		m->kind = DLB_MARK_TASK_EXIT;
		return kv_check_unused(ml, err);
	}
	m->kind = DLB_MARK_TASK;
	if (kv_word(ml, "name", m->name, sizeof(m->name), err) < 0 ||
	    parse_policy(ml, m, err) < 0 || kv_int(ml, "prio", &m->prio, err) < 0)
		return -1;
	n = (kv_find(ml, "runtime") != NULL) + (kv_find(ml, "deadline") != NULL) +
	    (kv_find(ml, "period") != NULL);
	if (n) {
		/* the three come together: a bandwidth needs all of them */
		if (kv_need_u64(ml, "runtime", &m->runtime, err) < 0 ||
		    kv_need_u64(ml, "deadline", &m->deadline, err) < 0 ||
		    kv_need_u64(ml, "period", &m->period, err) < 0)
			return -1;
		m->flags |= DLB_MF_PARAMS;
	}
	return kv_check_unused(ml, err);
}

static int parse_job(struct mark_line *ml, struct dlb_marker *m, struct dlb_err *err)
{
	static const char *const events[] = { "release", "begin", "end" };
	int ev, r;

	if (kv_need_int(ml, "tid", &m->tid, err) < 0 || kv_need_u64(ml, "job", &m->job, err) < 0)
		return -1;
	m->flags |= DLB_MF_JOB;
	ev = kv_enum(ml, "event", events, 3, err);
	if (ev < 0)
		return -1;
	m->kind = ev == 0 ? DLB_MARK_JOB_RELEASE : ev == 1 ? DLB_MARK_JOB_BEGIN : DLB_MARK_JOB_END;
	if (m->kind == DLB_MARK_JOB_END)
		return kv_check_unused(ml, err);
	/* a release must say when; begin may (kernel generator) */
	r = m->kind == DLB_MARK_JOB_RELEASE ? kv_need_u64(ml, "rel", &m->rel, err)
					    : kv_u64(ml, "rel", &m->rel, err);
	if (r < 0)
		return -1;
	if (r)
		m->flags |= DLB_MF_REL;
	/* dl is absent for jobs of non-deadline tasks: nothing to miss */
	r = kv_u64(ml, "dl", &m->dl, err);
	if (r < 0)
		return -1;
	if (r)
		m->flags |= DLB_MF_DL;
	return kv_check_unused(ml, err);
}

static int parse_dlbench(const char *s, const char *end, struct dlb_marker *m,
			 struct dlb_err *err)
{
	struct mark_line ml;
	const char *p = s;

	while (p < end && *p != ':' && !is_space(*p))
		p++;
	ml.type = s;
	ml.tlen = (size_t)(p - s);
	if (p == end || *p != ':')
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "marker '%.*s': no ':' after the type",
				   (int)ml.tlen, s);
	p++;
	while (p < end && is_space(*p))
		p++;
	if (tok_eq(ml.type, ml.tlen, "dlb_run") || tok_eq(ml.type, ml.tlen, "dlb_task") ||
	    tok_eq(ml.type, ml.tlen, "dlb_job")) {
		if (split_kv(p, end, &ml, err))
			return -1;
	} else {
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "unknown marker type '%.*s'",
				   (int)ml.tlen, ml.type);
	}
	m->dialect = DLB_DIALECT_DLBENCH;
	if (ml.type[4] == 'r')
		return parse_run(&ml, m, err) ? -1 : 1;
	if (ml.type[4] == 't')
		return parse_task(&ml, m, err) ? -1 : 1;
	return parse_job(&ml, m, err) ? -1 : 1;
}

/* ---- Debian rt-app 1.0: "[N] begins loop L phase P step S" ... ---- */

static int parse_loop_phase_step(const char *p, const char *end, struct dlb_marker *m)
{
	if (eat_int(&p, end, &m->rt_loop) || eat(&p, end, " phase ") ||
	    eat_int(&p, end, &m->rt_phase) || eat(&p, end, " step ") ||
	    eat_int(&p, end, &m->rt_step) || p != end)
		return 0;
	return 1;
}

static int parse_rtapp10(const char *s, const char *end, int writer_tid, struct dlb_marker *m)
{
	const char *p = s;

	m->dialect = DLB_DIALECT_RTAPP10;
	m->tid = writer_tid;
	if (*p != '[') {
		if (tok_eq(s, (size_t)(end - s), "main creates threads"))
			m->kind = DLB_MARK_RUN_START;
		else if (tok_eq(s, (size_t)(end - s), "main ends"))
			m->kind = DLB_MARK_RUN_END;
		else if (tok_eq(s, (size_t)(end - s), "main shutdown"))
			m->kind = DLB_MARK_OTHER;
		else
			return 0;
		return 1;
	}
	p++;
	if (eat_int(&p, end, &m->rt_thread) || eat(&p, end, "] "))
		return 0;
	if (!eat(&p, end, "begins loop ")) {
		m->kind = DLB_MARK_JOB_BEGIN;
		return parse_loop_phase_step(p, end, m);
	}
	if (!eat(&p, end, "end loop ")) {
		m->kind = DLB_MARK_JOB_END;
		return parse_loop_phase_step(p, end, m);
	}
	if (tok_eq(p, (size_t)(end - p), "exiting")) {
		m->kind = DLB_MARK_TASK_EXIT;
		return 1;
	}
	if (tok_eq(p, (size_t)(end - p), "starts")) {
		m->kind = DLB_MARK_TASK_START;
		return 1;
	}
	if (tok_eq(p, (size_t)(end - p), "sets zero time")) {
		m->kind = DLB_MARK_CLOCK_REF;
		return 1;
	}
	if (!eat(&p, end, "executing ")) {
		m->kind = DLB_MARK_OTHER;
		return 1;
	}
	return 0;
}

/* ---- upstream rt-app: "rtapp_loop: event=start thread_loop=.." ... ---- */

static int parse_rtapp_attrs(struct mark_line *ml, struct dlb_marker *m)
{
	struct mark_kv *pol = kv_find(ml, "policy");
	size_t i;

	m->kind = DLB_MARK_OTHER;
	if (!pol)
		return 1;
	m->kind = DLB_MARK_TASK;
	/* rt-app calls SCHED_DEADLINE "dl" and writes its parameters in ns */
	if (tok_eq(pol->v, pol->vlen, "dl")) {
		m->policy = 6;
		if (kv_u64(ml, "runtime", &m->runtime, NULL) == 1 &&
		    kv_u64(ml, "deadline", &m->deadline, NULL) == 1 &&
		    kv_u64(ml, "period", &m->period, NULL) == 1)
			m->flags |= DLB_MF_PARAMS;
		return 1;
	}
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (tok_eq(pol->v, pol->vlen, policies[i].name))
			m->policy = policies[i].policy;
	if (kv_int(ml, "prio", &m->prio, NULL) < 0)
		return 0;
	return 1;
}

static int parse_rtapp(const char *s, const char *end, int writer_tid, struct dlb_marker *m)
{
	struct mark_line ml;
	struct mark_kv *ev;
	const char *p = s;
	int start;

	while (p < end && *p != ':')
		p++;
	if (p == end)
		return 0;
	ml.type = s;
	ml.tlen = (size_t)(p - s);
	for (p++; p < end && is_space(*p); p++)
		;
	if (split_kv(p, end, &ml, NULL))
		return 0;
	m->dialect = DLB_DIALECT_RTAPP;
	m->tid = writer_tid;
	m->kind = DLB_MARK_OTHER;
	ev = kv_find(&ml, "event");
	start = ev && tok_eq(ev->v, ev->vlen, "start");
	if (tok_eq(ml.type, ml.tlen, "rtapp_attrs"))
		return parse_rtapp_attrs(&ml, m);
	if (tok_eq(ml.type, ml.tlen, "rtapp_event") || tok_eq(ml.type, ml.tlen, "rtapp_stats"))
		return 1;
	if (!ev)
		return 0;
	if (tok_eq(ml.type, ml.tlen, "rtapp_main")) {
		if (start)
			m->kind = DLB_MARK_RUN_START;
		else if (tok_eq(ev->v, ev->vlen, "end"))
			m->kind = DLB_MARK_RUN_END;
		else if (tok_eq(ev->v, ev->vlen, "clock_ref"))
			m->kind = DLB_MARK_CLOCK_REF;
		return 1;
	}
	if (tok_eq(ml.type, ml.tlen, "rtapp_task")) {
		if (tok_eq(ev->v, ev->vlen, "end"))
			m->kind = DLB_MARK_TASK_EXIT;
		else if (start)
			m->kind = DLB_MARK_TASK_START;
		return 1;
	}
	if (!tok_eq(ml.type, ml.tlen, "rtapp_loop"))
		return 0;
	/* one loop of the thread is one job: start = begin, end = end */
	if (!start && !tok_eq(ev->v, ev->vlen, "end"))
		return 0;
	if (kv_int(&ml, "thread_loop", &m->rt_loop, NULL) != 1 ||
	    kv_int(&ml, "phase", &m->rt_phase, NULL) != 1 ||
	    kv_int(&ml, "phase_loop", &m->rt_step, NULL) != 1)
		return 0;
	m->kind = start ? DLB_MARK_JOB_BEGIN : DLB_MARK_JOB_END;
	return 1;
}

int dlb_marker_parse(const char *s, size_t len, int writer_tid,
		     struct dlb_marker *m, struct dlb_err *err)
{
	const char *end = s + len;
	int r;

	/* trace_marker text keeps the writer's newline; trace-cmd adds spaces */
	while (s < end && is_space(*s))
		s++;
	while (end > s && (is_space(end[-1]) || end[-1] == '\0'))
		end--;
	memset(m, 0, sizeof(*m));
	m->tid = writer_tid;
	m->rt_thread = m->rt_loop = m->rt_phase = m->rt_step = -1;
	if (end - s >= 4 && !memcmp(s, "dlb_", 4))
		return parse_dlbench(s, end, m, err);
	if (end - s >= 6 && !memcmp(s, "rtapp_", 6))
		r = parse_rtapp(s, end, writer_tid, m);
	else if (end > s && (*s == '[' || *s == 'm'))
		r = parse_rtapp10(s, end, writer_tid, m);
	else
		r = 0;
	if (r == 0) {
		memset(m, 0, sizeof(*m));
		m->tid = writer_tid;
	}
	return r;
}
