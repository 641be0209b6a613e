// SPDX-License-Identifier: GPL-2.0
/*
 * The payload of a text trace line (after "event:") as a struct
 * dlb_event: the kernel's "key=value ..." form, read in the kernel's own
 * key order in one pass, else split into pairs; trace-cmd's short forms
 * of sched_switch and sched_wakeup; markers as the kernel and trace-cmd
 * print them.  The line around it: text.c.
 */
#include <limits.h>
#include <string.h>

#include "text_local.h"

#define MAX_KV		12

static void copy_comm(char *dst, const char *s, size_t len)
{
	if (len >= DLB_COMM_LEN)
		len = DLB_COMM_LEN - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* ---- key=value payloads ---- */

struct kv {
	const char *k, *v, *vend;
	size_t klen;
};

/*
 * Split "k=v k=v ..." into pairs.  A token that does not start with
 * "word=" continues the previous value: comm may contain spaces.
 */
static int kv_split(const char *p, const char *end, struct kv *kv)
{
	int n = 0;

	while ((p = skip_sp(p, end)) < end) {
		const char *t = p, *eq;

		while (p < end && ((*p >= 'a' && *p <= 'z') || *p == '_' ||
				   (*p >= '0' && *p <= '9')))
			p++;
		eq = p;
		while (p < end && *p != ' ')
			p++;
		if (eq < end && *eq == '=' && eq > t && n < MAX_KV) {
			kv[n].k = t;
			kv[n].klen = (size_t)(eq - t);
			kv[n].v = eq + 1;
			kv[n].vend = p;
			n++;
		} else if (n) {
			kv[n - 1].vend = p;
		}
	}
	return n;
}

static const struct kv *kv_get(const struct kv *kv, int n, const char *key)
{
	size_t len = strlen(key);
	int i;

	for (i = 0; i < n; i++)
		if (kv[i].klen == len && !memcmp(kv[i].k, key, len))
			return &kv[i];
	return NULL;
}

static int kv_num(const struct kv *kv, int n, const char *key, s64 *out)
{
	const struct kv *e = kv_get(kv, n, key);

	return e ? tok_num(e->v, e->vend, out) : -1;
}

static int kv_int(const struct kv *kv, int n, const char *key, int *out)
{
	s64 v;

	if (kv_num(kv, n, key, &v))
		return -1;
	*out = (int)v;		/* prio 4294967295 is -1 as an int */
	return 0;
}

static int kv_comm(const struct kv *kv, int n, const char *key, char *out)
{
	const struct kv *e = kv_get(kv, n, key);

	if (!e)
		return -1;
	copy_comm(out, e->v, (size_t)(e->vend - e->v));
	return 0;
}

/*
 * prev_state as text ("R", "R+", "S", "D|K" ...) or a number (-R): the
 * report bits of the kernel's sched_switch format, see DLB_STATE_MASK.
 * The letters are the kernel's ("SDTtXZPI" for bits 0-7); trace-cmd's
 * default sched_switch plugin prints bit i with its own older table
 * ("SDTtZXxW": 16 as Z, 32 as X, 128 as W), so it is passed in.
 */
static const char kernel_states[] = "SDTtXZPI";
static const char plugin_states[] = "SDTtZXxW";

static int parse_state(const char *p, const char *end, const char *letters, long *state)
{
	s64 v;
	long st = 0;

	if (tok_num(p, end, &v) == 0) {
		*state = (long)v & DLB_STATE_MASK;
		return 0;
	}
	for (; p < end; p++) {
		int i = 0;

		while (i < 8 && letters[i] != *p)
			i++;
		if (i < 8)
			st |= 1L << i;
		else if (*p != 'R' && *p != '+' && *p != '|' && *p != 'K' && *p != 'N')
			return -1;
	}
	*state = st;
	return 0;
}

/* ---- trace-cmd's short forms ---- */

/* "comm:pid [prio]" ending at end; returns 0. */
static int short_task(const char *p, const char *end, char *comm, int *pid, int *prio)
{
	const char *lb, *colon, *q;
	s64 v;

	if (end - p < 5 || end[-1] != ']')
		return -1;
	for (lb = end - 1; lb > p && *lb != '['; lb--)
		;
	if (*lb != '[' || tok_num(lb + 1, end - 1, &v))
		return -1;
	*prio = (int)v;
	q = lb;
	while (q > p && q[-1] == ' ')
		q--;
	for (colon = q - 1; colon > p && *colon != ':'; colon--)
		;
	if (*colon != ':' || tok_num(colon + 1, q, &v))
		return -1;
	*pid = (int)v;
	copy_comm(comm, p, (size_t)(colon - p));
	return 0;
}

/* The first " ==> " in [p, end), found by its '>' (memchr, not memmem: cheaper here). */
static const char *find_arrow(const char *p, const char *end)
{
	const char *q = p + 3;

	while (end - q > 1 && (q = memchr(q, '>', (size_t)(end - q - 1))) != NULL) {
		if (q[-1] == '=' && q[-2] == '=' && q[-3] == ' ' && q[1] == ' ')
			return q - 3;
		q++;
	}
	return NULL;
}

static int short_switch(const char *p, const char *end, struct dlb_event *ev)
{
	const char *arrow, *q, *st;

	arrow = find_arrow(p, end);
	if (!arrow)
		return -1;
	for (st = arrow; st > p && st[-1] != ' '; st--)
		;
	if (st == p || parse_state(st, arrow, plugin_states, &ev->sw.prev_state))
		return -1;
	q = st;
	while (q > p && q[-1] == ' ')
		q--;
	if (short_task(p, q, ev->sw.prev_comm, &ev->sw.prev_pid, &ev->sw.prev_prio))
		return -1;
	return short_task(skip_sp(arrow + 5, end), end, ev->sw.next_comm, &ev->sw.next_pid,
			  &ev->sw.next_prio);
}

static int short_wakeup(const char *p, const char *end, struct dlb_event *ev)
{
	const char *cpu = NULL, *q, *tend;
	s64 v;

	for (q = end - 4; q >= p; q--) {
		if (q[0] == 'C' && q[1] == 'P' && q[2] == 'U' && q[3] == ':') {
			cpu = q;
			break;
		}
	}
	if (!cpu || cpu == p || tok_num(cpu + 4, end, &v))
		return -1;
	ev->wake.target_cpu = (int)v;
	/* an older trace-cmd puts " success=1" between the task and CPU: */
	tend = cpu;
	while (tend > p && tend[-1] == ' ')
		tend--;
	if (tend - p > 10 && !memcmp(tend - 10, " success=1", 10))
		tend -= 10;
	return short_task(p, tend, ev->wake.comm, &ev->wake.pid, &ev->wake.prio);
}

/*
 * ---- the kernel's own key order, read in one pass ----
 *
 * The kernel prints each event's keys in one fixed order (below, 6.x and
 * the years before it).  These read exactly that order: the key is
 * compared, the value scanned where it stands, no split and no lookup.
 * Any deviation (another order, an older layout with more keys, anything
 * after the last value) returns -1 and the caller falls back to the
 * generic key=value split, which validates the line all over again.  A
 * comm value runs to the next " key=" (comm may contain spaces).
 */
struct fast {
	const char *p, *end;
};

/* the literal @lit at the cursor; moves past it */
static inline bool f_lit(struct fast *f, const char *lit, size_t len)
{
	if ((size_t)(f->end - f->p) < len || memcmp(f->p, lit, len))
		return false;
	f->p += len;
	return true;
}

/* a decimal ending at ' ' (consumed) or at the end */
static inline bool f_num(struct fast *f, s64 *v)
{
	if (scan_s64(&f->p, f->end, v))
		return false;
	if (f->p == f->end)
		return true;
	return *f->p++ == ' ';
}

static inline bool f_int(struct fast *f, int *out)
{
	s64 v;

	if (!f_num(f, &v))
		return false;
	*out = (int)v;		/* prio 4294967295 is -1 as an int */
	return true;
}

/* a comm up to the " @next" that follows it; moves past " @next" */
static inline bool f_comm(struct fast *f, char *out, const char *next, size_t len)
{
	const char *q;

	for (q = f->p; (q = memchr(q, ' ', (size_t)(f->end - q))) != NULL; q++) {
		if ((size_t)(f->end - q - 1) >= len && !memcmp(q + 1, next, len)) {
			copy_comm(out, f->p, (size_t)(q - f->p));
			f->p = q + 1 + len;
			return true;
		}
	}
	return false;
}

#define F_LIT(f, lit)		f_lit(f, lit, sizeof(lit) - 1)
#define F_COMM(f, out, next)	f_comm(f, out, next, sizeof(next) - 1)

/* prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d */
static int fast_switch(const char *p, const char *end, struct dlb_event *ev)
{
	struct fast f = { p, end };
	const char *st;

	if (!F_LIT(&f, "prev_comm=") || !F_COMM(&f, ev->sw.prev_comm, "prev_pid=") ||
	    !f_int(&f, &ev->sw.prev_pid) || !F_LIT(&f, "prev_prio=") ||
	    !f_int(&f, &ev->sw.prev_prio) || !F_LIT(&f, "prev_state="))
		return -1;
	st = f.p;
	while (f.p < f.end && *f.p != ' ')
		f.p++;
	if (st == f.p || parse_state(st, f.p, kernel_states, &ev->sw.prev_state) ||
	    !F_LIT(&f, " ==> next_comm=") || !F_COMM(&f, ev->sw.next_comm, "next_pid=") ||
	    !f_int(&f, &ev->sw.next_pid) || !F_LIT(&f, "next_prio=") ||
	    !f_int(&f, &ev->sw.next_prio) || f.p != f.end)
		return -1;
	return 0;
}

/* comm=%s pid=%d prio=%d target_cpu=%03d */
static int fast_wake(const char *p, const char *end, struct dlb_event *ev)
{
	struct fast f = { p, end };

	if (!F_LIT(&f, "comm=") || !F_COMM(&f, ev->wake.comm, "pid=") ||
	    !f_int(&f, &ev->wake.pid) || !F_LIT(&f, "prio=") || !f_int(&f, &ev->wake.prio) ||
	    !F_LIT(&f, "target_cpu=") || !f_int(&f, &ev->wake.target_cpu) || f.p != f.end)
		return -1;
	return 0;
}

/* comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d */
static int fast_migrate(const char *p, const char *end, struct dlb_event *ev)
{
	struct fast f = { p, end };

	if (!F_LIT(&f, "comm=") || !F_COMM(&f, ev->mig.comm, "pid=") ||
	    !f_int(&f, &ev->mig.pid) || !F_LIT(&f, "prio=") || !f_int(&f, &ev->mig.prio) ||
	    !F_LIT(&f, "orig_cpu=") || !f_int(&f, &ev->mig.orig_cpu) ||
	    !F_LIT(&f, "dest_cpu=") || !f_int(&f, &ev->mig.dest_cpu) || f.p != f.end)
		return -1;
	return 0;
}

/* comm=%s pid=%d runtime=%Lu [ns] (older kernels: then " vruntime=%Lu [ns]") */
static int fast_runtime(const char *p, const char *end, struct dlb_event *ev)
{
	struct fast f = { p, end };
	s64 v;

	if (!F_LIT(&f, "comm=") || !F_COMM(&f, ev->rt.comm, "pid=") ||
	    !f_int(&f, &ev->rt.pid) || !F_LIT(&f, "runtime=") ||
	    scan_s64(&f.p, f.end, &v) || v < 0 || !F_LIT(&f, " [ns]") ||
	    (f.p != f.end && !F_LIT(&f, " vruntime=")))
		return -1;
	ev->rt.runtime = (u64)v;
	return 0;
}

/* ---- events ---- */

static int ev_switch(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	const struct kv *st;
	int n;

	if (end - p < 10 || memcmp(p, "prev_comm=", 10))
		return short_switch(p, end, ev);
	if (fast_switch(p, end, ev) == 0)
		return 0;
	n = kv_split(p, end, kv);
	st = kv_get(kv, n, "prev_state");
	if (!st || kv_comm(kv, n, "prev_comm", ev->sw.prev_comm) ||
	    kv_int(kv, n, "prev_pid", &ev->sw.prev_pid) ||
	    kv_int(kv, n, "prev_prio", &ev->sw.prev_prio) ||
	    kv_comm(kv, n, "next_comm", ev->sw.next_comm) ||
	    kv_int(kv, n, "next_pid", &ev->sw.next_pid) ||
	    kv_int(kv, n, "next_prio", &ev->sw.next_prio))
		return -1;
	/* the kernel's value is followed by " ==>", which kv_split glued on */
	if (st->vend - st->v > 4 && !memcmp(st->vend - 4, " ==>", 4))
		return parse_state(st->v, st->vend - 4, kernel_states, &ev->sw.prev_state);
	return parse_state(st->v, st->vend, kernel_states, &ev->sw.prev_state);
}

static int ev_wake(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	int n;

	if (end - p < 5 || memcmp(p, "comm=", 5))
		return short_wakeup(p, end, ev);
	if (fast_wake(p, end, ev) == 0)
		return 0;
	n = kv_split(p, end, kv);
	if (kv_comm(kv, n, "comm", ev->wake.comm) || kv_int(kv, n, "pid", &ev->wake.pid) ||
	    kv_int(kv, n, "prio", &ev->wake.prio))
		return -1;
	if (kv_int(kv, n, "target_cpu", &ev->wake.target_cpu))
		ev->wake.target_cpu = -1;
	return 0;
}

static int ev_migrate(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	int n;

	if (fast_migrate(p, end, ev) == 0)
		return 0;
	n = kv_split(p, end, kv);
	return kv_comm(kv, n, "comm", ev->mig.comm) || kv_int(kv, n, "pid", &ev->mig.pid) ||
	       kv_int(kv, n, "prio", &ev->mig.prio) ||
	       kv_int(kv, n, "orig_cpu", &ev->mig.orig_cpu) ||
	       kv_int(kv, n, "dest_cpu", &ev->mig.dest_cpu) ? -1 : 0;
}

static int ev_runtime(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	const struct kv *rt;
	const char *q;
	s64 v;
	int n;

	if (fast_runtime(p, end, ev) == 0)
		return 0;
	n = kv_split(p, end, kv);
	rt = kv_get(kv, n, "runtime");
	if (!rt || kv_comm(kv, n, "comm", ev->rt.comm) || kv_int(kv, n, "pid", &ev->rt.pid))
		return -1;
	q = rt->v;		/* "1000 [ns]": the unit was glued on */
	if (scan_s64(&q, rt->vend, &v) || v < 0)
		return -1;
	ev->rt.runtime = (u64)v;
	return 0;
}

static int ev_exit(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	int n = kv_split(p, end, kv);

	return kv_comm(kv, n, "comm", ev->exit.comm) || kv_int(kv, n, "pid", &ev->exit.pid);
}

static int ev_dl(const char *p, const char *end, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	s64 dl;
	int n = kv_split(p, end, kv);

	if (kv_int(kv, n, "pid", &ev->dl.pid) || kv_num(kv, n, "runtime", &ev->dl.runtime) ||
	    kv_num(kv, n, "deadline", &dl))
		return -1;
	ev->dl.deadline = (u64)dl;
	return 0;
}

/*
 * A marker: the kernel prints "tracing_mark_write: TEXT" as the event;
 * trace-cmd prints "print: SYM: TEXT" (SYM an address when the file has
 * no kallsyms) or, with -R, "print: ip=0x... buf=TEXT".
 */
static int ev_marker(const char *p, const char *end, bool is_print, struct dlb_event *ev)
{
	const char *q;

	if (is_print) {
		if (end - p > 3 && !memcmp(p, "ip=", 3)) {
			q = memmem(p, (size_t)(end - p), " buf=", 5);
			if (!q)
				return -1;
			p = q + 5;
		} else {
			q = memchr(p, ':', (size_t)(end - p));
			if (!q || q + 1 == end || q[1] != ' ')
				return -1;
			p = q + 2;
		}
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	ev->mark.text = p;
	ev->mark.len = (size_t)(end - p);
	return 0;
}

/* irq_handler_*: "irq=16 ..."; softirq_*: "vec=1 [action=TIMER]"; irq_vectors: "vector=236" */
static int ev_irq(const char *p, const char *end, const char *key, struct dlb_event *ev)
{
	struct kv kv[MAX_KV];
	int n = kv_split(p, end, kv);
	const struct kv *e = kv_get(kv, n, key);
	const char *q;
	s64 v;

	if (!e)
		return -1;
	q = e->v;		/* softirq's " [action=TIMER]" was glued on */
	if (scan_s64(&q, e->vend, &v) || v < INT_MIN || v > INT_MAX)
		return -1;
	ev->irq.nr = (int)v;
	return 0;
}

/* x86's irq_vectors:*_entry and *_exit that the recorder records: hard interrupts too */
static enum dlb_ev_type irq_vector(const struct line *l)
{
	static const char *const names[] = { "local_timer", "reschedule", "call_function",
					     "call_function_single", "irq_work" };
	size_t i, len;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i]);
		if (l->event_len == len + 6 && !memcmp(l->event, names[i], len) &&
		    !memcmp(l->event + len, "_entry", 6))
			return DLB_EV_IRQ_ENTRY;
		if (l->event_len == len + 5 && !memcmp(l->event, names[i], len) &&
		    !memcmp(l->event + len, "_exit", 5))
			return DLB_EV_IRQ_EXIT;
	}
	return 0;
}

static bool name_is(const struct line *l, const char *s, size_t len)
{
	return l->event_len == len && !memcmp(l->event, s, len);
}

#define IS(l, lit) name_is(l, lit, sizeof(lit) - 1)

/* 1: event filled; 0: an event we do not use; -1: malformed payload. */
int text_parse_payload(const struct line *l, struct dlb_event *ev)
{
	const char *p = l->payload, *end = l->end;

	if (IS(l, "sched_switch"))
		return ev->type = DLB_EV_SWITCH, ev_switch(p, end, ev) ? -1 : 1;
	if (IS(l, "sched_wakeup"))
		return ev->type = DLB_EV_WAKEUP, ev_wake(p, end, ev) ? -1 : 1;
	if (IS(l, "sched_waking"))
		return ev->type = DLB_EV_WAKING, ev_wake(p, end, ev) ? -1 : 1;
	if (IS(l, "sched_stat_runtime"))
		return ev->type = DLB_EV_RUNTIME, ev_runtime(p, end, ev) ? -1 : 1;
	if (IS(l, "sched_migrate_task"))
		return ev->type = DLB_EV_MIGRATE, ev_migrate(p, end, ev) ? -1 : 1;
	if (IS(l, "tracing_mark_write"))
		return ev->type = DLB_EV_MARKER, ev_marker(p, end, false, ev) ? -1 : 1;
	if (IS(l, "print"))
		return ev->type = DLB_EV_MARKER, ev_marker(p, end, true, ev) ? -1 : 1;
	if (IS(l, "sched_wakeup_new"))
		return ev->type = DLB_EV_WAKEUP_NEW, ev_wake(p, end, ev) ? -1 : 1;
	if (IS(l, "sched_process_exit"))
		return ev->type = DLB_EV_EXIT, ev_exit(p, end, ev) ? -1 : 1;
	if (IS(l, "dl_throttle"))
		return ev->type = DLB_EV_THROTTLE, ev_dl(p, end, ev) ? -1 : 1;
	if (IS(l, "dl_replenish"))
		return ev->type = DLB_EV_REPLENISH, ev_dl(p, end, ev) ? -1 : 1;
	if (IS(l, "irq_handler_entry"))
		return ev->type = DLB_EV_IRQ_ENTRY, ev_irq(p, end, "irq", ev) ? -1 : 1;
	if (IS(l, "irq_handler_exit"))
		return ev->type = DLB_EV_IRQ_EXIT, ev_irq(p, end, "irq", ev) ? -1 : 1;
	if (IS(l, "softirq_entry"))
		return ev->type = DLB_EV_SOFTIRQ_ENTRY, ev_irq(p, end, "vec", ev) ? -1 : 1;
	if (IS(l, "softirq_exit"))
		return ev->type = DLB_EV_SOFTIRQ_EXIT, ev_irq(p, end, "vec", ev) ? -1 : 1;
	if (irq_vector(l))
		return ev->type = irq_vector(l), ev_irq(p, end, "vector", ev) ? -1 : 1;
	return 0;
}
