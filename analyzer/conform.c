// SPDX-License-Identifier: GPL-2.0
/*
 * Trace-driven conformance: extract, replay, diff (conform.h,
 * docs/conformance.md).  The jobs on both sides are the metrics engine's
 * (metrics.c): the run's from its trace, the oracle's from the reference's
 * event stream, so "job", "miss", "CPU" and "migration" mean one thing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conform.h"
#include "env.h"
#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/grow.h"
#include "dlbench/jobstrace.h"
#include "dlbench/runlog.h"
#include "dlbench/summary.h"
#include "dlbench/workload.h"
#include "report.h"
#include "../lib/sbuf.h"
#include "../reference/sim.h"

/* What a job was, on either side: the fields of struct dlb_job the diff reads. */
struct cjob {
	u64 job, rel, wakeup, dl, begin, end, exec, inversion_ns;
	u64 unavail_ns;		/* of exec, interrupt time: an unavail record's, not demand */
	u64 held_from;		/* struct dlb_job's: its CBS held it back from there (held) */
	s64 lateness;
	bool dl_known, exec_known, miss, overrun, open, held;
	bool startup_known, startup_moved;	/* struct dlb_job's: the overheads it shows */
	bool konly_plain;	/* a kernel-only miss of the replay without overheads */
	u64 startup_ns;
	unsigned int switches_in, moves_in;
	/* a run job paired (diff_oracle_job()): now the oracle's, with the run's verdict */
	bool kmiss;
	unsigned char kind, cause;
	unsigned int migrations, throttles;
	int cpu_begin, cpu_end;
};

/* One task's jobs, in the order they came (then sorted: jobs_order()). */
struct tjobs {
	int tid;
	struct cjob *v;
	size_t n, cap;
	size_t jt0;		/* jt->jobs[jt0 + i] is v[i]'s (extract_task()) */
};

/*
 * A side's jobs, each task's apart as they come: 1.5 million jobs of a
 * 60 s run of 640 tasks sorted by task afterwards (a radix pass and a
 * permutation in place) moved every job once more, at random, and cost a
 * tenth of the replay.  slot: open addressing on the tid, the index in t
 * + 1 (0: free), nslot a power of two at least twice nt.
 */
struct jobs {
	struct tjobs *t;
	size_t nt, cap_t;
	u32 *slot;
	size_t nslot;
	size_t last;		/* the task of the last job: the likely next one */
	bool oom;
};

/* Why a job diverges; the first that applies, in this order. */
enum div_kind {
	DIV_NONE,
	DIV_KERNEL_ONLY,	/* the run missed, the oracle met */
	DIV_ORACLE_ONLY,	/* the oracle missed, the run met */
	DIV_PLACEMENT,		/* both met or both missed, on other CPUs */
};

/* Evidence for a kernel-only miss, in the order it is believed. */
enum miss_cause {
	CAUSE_OVERRUN,		/* it overran its runtime or was throttled */
	CAUSE_INVERSION,	/* it waited while a CPU of its affinity ran a later deadline */
	CAUSE_WAITED,		/* it waited for a CPU, longer than in the oracle, by its miss */
	CAUSE_UNKNOWN,
	CAUSE_NR,
};

static const char *const cause_names[CAUSE_NR] = { "overrun", "inversion", "waited", "unknown" };

/*
 * Evidence for an oracle-only miss, in the order it is believed: the
 * replay's budget first (it throttled the job), then its placement.
 */
enum oo_cause {
	OO_OVERRUN,		/* its demand overran its runtime by a tick or more */
	OO_BUDGET_EDGE,		/* its demand reached its runtime, by less than a tick */
	OO_IRQ_CHARGED,		/* within its runtime, over it with the interrupts charged */
	OO_SHORT_BUDGET,	/* within its runtime with them: it began with less budget */
	OO_WAITED,		/* not throttled: it waited longer than on the kernel */
	OO_UNKNOWN,
	OO_NR,
};

static const char *const oo_names[OO_NR] = {
	"overrun", "budget_edge", "irq_charged", "short_budget", "waited", "unknown",
};

static const char *const kind_names[] = {
	[DIV_NONE] = "none",
	[DIV_KERNEL_ONLY] = "kernel_only_miss",
	[DIV_ORACLE_ONLY] = "oracle_only_miss",
	[DIV_PLACEMENT] = "placement",
};

struct tsum {
	u64 jobs, kmiss, omiss, konly[CAUSE_NR], oonly[OO_NR], placement;
	u64 unmatched_kernel, unmatched_oracle;
	u64 late_diff_max, end_diff_max;	/* |kernel - oracle| */
};

/* A divergent job, both sides. */
struct first_div {
	bool set;
	size_t task, idx;		/* idx: the job's in its task's, from 0 */
	enum div_kind kind;
	int cause;		/* enum miss_cause or enum oo_cause, by kind */
	struct cjob k, o;
};

/*
 * The oracle's jobs of a jt task as the replay ends them: the k-th is
 * compared with the run's k-th at once (diff_oracle_job()) and takes its
 * place, the run's job no longer needed; those past the run's (or past a
 * run job the trace stopped in) are kept in extra.
 */
struct otask {
	size_t n;			/* seen */
	size_t npair;			/* the run's jobs before an open one: they pair */
	u64 last_job, last_rel;		/* of the last seen, for the order check */
	struct cjob *extra;
	size_t nextra, cap_extra;
};

struct dlb_conform {
	struct jobs run;
	struct otask *ot;		/* per jt task */
	bool oracle_oom, oracle_disorder;
	struct dlb_jobs_trace *jt;
	struct tjobs **kin;		/* per jt task: the run's jobs in the jobs trace */
	bool done;
	int first_tid;			/* the oracle's tid of task 0 */
	char why[DLB_ERR_MAX];		/* not done: why */
	char model[24];
	const char *model_src;
	bool asked;
	/* overheads charged (DLB_OVH_NONE: none), their samples, and the plain replay's verdict */
	enum dlb_conform_ovh ovh;
	u64 ovh_cs, ovh_mig, ovh_cs_n, ovh_mig_n;
	u64 plain_konly, plain_reproduced;
	char notes[8][320];
	int nr_notes;
	struct tsum *tasks;		/* per jt task */
	struct tsum all;
	struct first_div divs[DLB_CONFORM_LIST];	/* the earliest, by release */
	int nr_divs;
	struct first_div first_miss;	/* the earliest that is a miss on one side only */
	char *outbuf;			/* OUT_BUF: the stdio buffer of the file written */
};

static void jobs_free(struct jobs *js)
{
	size_t i;

	for (i = 0; i < js->nt; i++)
		free(js->t[i].v);
	free(js->t);
	free(js->slot);
}

struct dlb_conform *dlb_conform_create(struct dlb_err *err)
{
	struct dlb_conform *c = calloc(1, sizeof(*c));

	if (!c)
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	return c;
}

void dlb_conform_free(struct dlb_conform *c)
{
	size_t i;

	if (!c)
		return;
	jobs_free(&c->run);
	if (c->ot && c->jt)
		for (i = 0; i < c->jt->nr_tasks; i++)
			free(c->ot[i].extra);
	free(c->ot);
	free(c->kin);
	free(c->tasks);
	free(c->outbuf);
	dlb_jt_free(c->jt);
	free(c);
}

static size_t tid_hash(int tid, size_t nslot)
{
	return ((u32)tid * 2654435761u) & (nslot - 1);
}

/* The slots anew, twice as many: 0 or -1 (allocation). */
static int jobs_rehash(struct jobs *js)
{
	size_t n = js->nslot ? 2 * js->nslot : 64, i, h;
	u32 *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < js->nt; i++) {
		for (h = tid_hash(js->t[i].tid, n); slot[h]; h = (h + 1) & (n - 1))
			;
		slot[h] = (u32)i + 1;
	}
	free(js->slot);
	js->slot = slot;
	js->nslot = n;
	return 0;
}

/* The jobs of @tid, or NULL. */
static struct tjobs *jobs_task(const struct jobs *js, int tid)
{
	size_t h;

	if (!js->nslot)
		return NULL;
	for (h = tid_hash(tid, js->nslot); js->slot[h]; h = (h + 1) & (js->nslot - 1))
		if (js->t[js->slot[h] - 1].tid == tid)
			return &js->t[js->slot[h] - 1];
	return NULL;
}

/* The jobs of @tid, made when it has none yet; NULL on allocation failure. */
static struct tjobs *jobs_task_add(struct jobs *js, int tid)
{
	struct tjobs *t;
	size_t h;

	if (js->nt && js->t[js->last].tid == tid)
		return &js->t[js->last];
	t = jobs_task(js, tid);
	if (t) {
		js->last = (size_t)(t - js->t);
		return t;
	}
	if (js->nt >= UINT32_MAX - 1 || dlb_grow((void **)&js->t, &js->cap_t, js->nt + 1,
						 sizeof(*js->t)))
		return NULL;
	if (2 * (js->nt + 1) > js->nslot && jobs_rehash(js))
		return NULL;
	for (h = tid_hash(tid, js->nslot); js->slot[h]; h = (h + 1) & (js->nslot - 1))
		;
	js->slot[h] = (u32)js->nt + 1;
	js->last = js->nt;
	t = &js->t[js->nt++];
	*t = (struct tjobs){ .tid = tid };
	return t;
}

static void cjob_set(struct cjob *x, const struct dlb_job *j)
{
	x->job = j->job;
	x->rel = j->rel;
	x->wakeup = j->wakeup;
	x->dl = j->dl;
	x->begin = j->begin;
	x->end = j->end;
	x->exec = j->exec;
	x->unavail_ns = j->unavail_ns < j->exec ? j->unavail_ns : j->exec;
	x->inversion_ns = j->inversion_ns;
	x->lateness = j->lateness;
	x->dl_known = j->dl_known;
	x->exec_known = j->exec_known;
	x->miss = j->miss;
	x->overrun = j->overrun;
	x->migrations = j->migrations;
	x->throttles = j->throttles;
	x->held = j->held;
	x->held_from = j->held_from;
	x->cpu_begin = j->cpu_begin;
	x->cpu_end = j->cpu_end;
	x->open = j->open;
	x->startup_known = j->startup_known;
	x->startup_moved = j->startup_moved;
	x->startup_ns = j->startup_ns;
	x->switches_in = j->switches_in;
	x->moves_in = j->moves_in;
	x->konly_plain = false;
}

static void jobs_add(struct jobs *js, const struct dlb_job *j)
{
	struct tjobs *t;

	if (js->oom)
		return;
	t = jobs_task_add(js, j->tid);
	if (!t || dlb_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v))) {
		js->oom = true;
		return;
	}
	cjob_set(&t->v[t->n++], j);
}

void dlb_conform_job(const struct dlb_job *j, void *arg)
{
	jobs_add(&((struct dlb_conform *)arg)->run, j);
}

static void oracle_job(const struct dlb_job *j, void *arg);

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_cjob(const void *a, const void *b)
{
	const struct cjob *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->rel < y->rel ? -1 : x->rel > y->rel;
}

/*
 * Each task's jobs in order of job number (then release): they come in
 * the order they ended, a task's in order of job number, so only a task
 * whose jobs came otherwise is sorted.
 */
static void jobs_order(struct jobs *js)
{
	size_t i, e;
	struct tjobs *t;

	for (i = 0; i < js->nt; i++) {
		t = &js->t[i];
		for (e = 1; e < t->n && cmp_cjob(&t->v[e - 1], &t->v[e]) <= 0; e++)
			;
		if (e < t->n)
			qsort(t->v, t->n, sizeof(*t->v), cmp_cjob);
	}
}

static void __attribute__((format(printf, 2, 3))) note(struct dlb_conform *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nr_notes == (int)(sizeof(c->notes) / sizeof(c->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(c->notes[c->nr_notes++], sizeof(c->notes[0]), fmt, ap);
	va_end(ap);
}

static int not_done(struct dlb_conform *c, const char *why)
{
	snprintf(c->why, sizeof(c->why), "%s", why);
	c->done = false;
	return 0;
}

/* ---- extraction ---- */

/* The run folder's witnesses of what the trace does not carry. */
struct witness {
	struct dlb_summary *sum;
	struct workload *wl;
	struct dlb_env env;	/* env.txt's */
};

static void witness_load(struct dlb_conform *c, const char *folder, struct witness *w)
{
	char path[4096];
	struct dlb_err e = { 0 };

	memset(w, 0, sizeof(*w));
	dlb_env_read(NULL, &w->env);
	if (!folder)
		return;
	snprintf(path, sizeof(path), "%s/summary.json", folder);
	if (!access(path, F_OK) && dlb_summary_read(path, &w->sum, &e))
		note(c, "summary.json unreadable (%s): affinity and asked work unknown", e.msg);
	snprintf(path, sizeof(path), "%s/workload.json", folder);
	if (access(path, F_OK) && w->sum)
		snprintf(path, sizeof(path), "%s", w->sum->workload);
	if (!access(path, F_OK) && wl_load_file(path, NULL, &w->wl, &e))
		note(c, "the run's workload is unreadable (%s): every task on every CPU", e.msg);
	dlb_env_read(folder, &w->env);
}

static void witness_free(struct witness *w)
{
	dlb_summary_free(w->sum);
	wl_free(w->wl);
	dlb_env_free(&w->env);
}

static const struct dlb_summary_thread *witness_thread(const struct witness *w, int tid)
{
	size_t i;

	for (i = 0; w->sum && i < w->sum->nr_threads; i++)
		if (w->sum->threads[i].tid == tid)
			return &w->sum->threads[i];
	return NULL;
}

/* The task's CPUs: its workload task's "cpus", else every CPU.  true: from the workload. */
static bool task_cpus(const struct witness *w, const struct dlb_summary_thread *st, int nr_cpus,
		      struct dlb_cpumask *cpus)
{
	size_t i;
	int cpu;

	dlb_cpumask_clear(cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		dlb_cpumask_set(cpus, (unsigned int)cpu);
	if (!w->wl || !st)
		return false;
	for (i = 0; i < w->wl->nr_tasks; i++) {
		if (strcmp(w->wl->tasks[i].name, st->name))
			continue;
		if (w->wl->tasks[i].has_cpus)
			*cpus = w->wl->tasks[i].cpus;
		return true;
	}
	return false;
}

/* The work the generator's log says each job asked for (c_duration, µs), or none. */
static struct dlb_runlog_rec *task_log(const char *folder, const struct dlb_summary_thread *st,
				       size_t *nr)
{
	struct dlb_runlog_rec *recs = NULL;
	struct dlb_err e = { 0 };
	char path[4096];

	*nr = 0;
	if (!folder || !st || !st->log[0])
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", folder, st->log);
	if (dlb_runlog_read(path, &recs, nr, NULL, 0, &e))
		return NULL;
	return recs;
}

/* The deadline tasks with parameters, and their jobs with a deadline, into c->jt. */
static int extract_task(struct dlb_conform *c, const struct dlb_task_metrics *t,
			const struct dlb_conform_opts *o, const struct witness *w, bool *from_wl)
{
	struct tjobs *kt = jobs_task(&c->run, t->tid);
	const struct dlb_summary_thread *st = witness_thread(w, t->tid);
	struct dlb_jt_task jtt = { .tid = t->tid };
	struct dlb_runlog_rec *log;
	size_t nlog, i, n = 0;
	int ti = (int)c->jt->nr_tasks;

	snprintf(jtt.name, sizeof(jtt.name), "%s", t->name);
	jtt.dl.runtime = t->runtime;
	jtt.dl.deadline = t->deadline;
	jtt.dl.period = t->period;
	jtt.dl.flags = st ? st->dl_flags : 0;	/* sched_flags (GRUB): the generator's word */
	*from_wl |= task_cpus(w, st, c->jt->nr_cpus, &jtt.cpus);
	log = task_log(o->folder, st, &nlog);
	if (kt)
		kt->jt0 = c->jt->nr_jobs;
	for (i = 0; kt && i < kt->n; i++) {
		const struct cjob *k = &kt->v[i];
		struct dlb_jt_job j = { .task = ti, .job = k->job, .rel = k->rel,
					.wakeup = k->wakeup, .dl = k->dl };

		if (!k->dl_known)
			continue;
		/* the replay takes its CPU's interrupts from the unavail records */
		j.demand = k->exec_known ? k->exec - k->unavail_ns : DLB_JT_UNKNOWN;
		j.open = k->open;
		j.asked = k->job < nlog ? log[k->job].c_duration * NSEC_PER_USEC : DLB_JT_UNKNOWN;
		kt->v[n++] = *k;	/* kept in place, at or before where it was */
		if (dlb_jt_add_job(c->jt, &j))
			goto oom;
	}
	free(log);
	if (!n)
		return 0;	/* no job with a deadline: nothing to replay */
	kt->n = n;
	c->kin[ti] = kt;
	return dlb_jt_add_task(c->jt, &jtt);
oom:
	free(log);
	return -1;
}

/*
 * The tick grid in @n times (one CPU's sched_stat_runtime events): the
 * kernel charges the running task at each tick, so on a CPU that ran
 * something the events pile up at one offset modulo the tick, while those
 * of switches and wake-ups spread over it.  Found: the densest window of
 * three 64ths of the tick, if it holds at least 16 times and 4 times its
 * share of an even spread; the phase is the median offset from @t0 of its
 * times (a tick's event comes an interrupt's latency after the tick).
 */
#define TICK_BINS	64
int dlb_tick_phase(const u64 *ts, size_t n, u64 t0, u64 tick, u64 *phase)
{
	unsigned h[TICK_BINS] = { 0 };
	u64 *d, off, centre;
	size_t i, k = 0, w, best_w = 0;
	int b, best = 0;

	*phase = 0;
	if (!tick || n < 16)
		return 0;
	for (i = 0; i < n; i++) {
		off = dl_time_before(ts[i], t0) ? (tick - (t0 - ts[i]) % tick) % tick :
						  (ts[i] - t0) % tick;
		h[off * TICK_BINS / tick]++;
	}
	for (b = 0; b < TICK_BINS; b++) {
		w = h[(b + TICK_BINS - 1) % TICK_BINS] + h[b] + h[(b + 1) % TICK_BINS];
		if (w > best_w) {
			best_w = w;
			best = b;
		}
	}
	if (best_w < 16 || best_w * TICK_BINS < 4 * 3 * n)
		return 0;
	d = malloc(best_w * sizeof(*d));
	if (!d)
		return -1;
	/* the window's offsets, unwrapped around its centre (it may straddle 0) */
	centre = (u64)best * tick / TICK_BINS + tick / (2 * TICK_BINS);
	for (i = 0; i < n && k < best_w; i++) {
		off = dl_time_before(ts[i], t0) ? (tick - (t0 - ts[i]) % tick) % tick :
						  (ts[i] - t0) % tick;
		b = (int)(off * TICK_BINS / tick);
		if (b != best && b != (best + 1) % TICK_BINS &&
		    b != (best + TICK_BINS - 1) % TICK_BINS)
			continue;
		/* off - centre, in (-tick/2, tick/2], kept positive by adding a tick */
		d[k++] = (off + tick - centre + tick / 2) % tick;
	}
	qsort(d, k, sizeof(*d), cmp_u64);
	*phase = (centre + d[k / 2] + tick - tick / 2) % tick;
	free(d);
	return 1;
}

/*
 * The traced CPUs' tick grid, for a replay that checks budgets at ticks
 * (the jobs trace's tickphase).  A CPU whose grid the trace does not show
 * (idle, few events) takes the first found CPU's; none found: the replay
 * keeps ticks at t0 + k * tick, and says so.
 */
static int tick_grid(struct dlb_conform *c, const struct dlb_metrics *m)
{
	u64 *ph = calloc(DLB_MAX_CPUS, sizeof(*ph));
	int cpu, first = -1, rc, nr_missing = 0;
	const u64 *ts;
	bool *found = calloc(DLB_MAX_CPUS, sizeof(*found));
	size_t n;

	if (!ph || !found) {
		free(ph);
		free(found);
		return -1;
	}
	for (cpu = 0; cpu < c->jt->nr_cpus; cpu++) {
		ts = dlb_metrics_runtime_times(m, cpu, &n);
		rc = dlb_tick_phase(ts, n, c->jt->t0, c->jt->tick, &ph[cpu]);
		if (rc < 0) {
			free(ph);
			free(found);
			return -1;
		}
		found[cpu] = rc;
		if (rc && first < 0)
			first = cpu;
		nr_missing += !rc;
	}
	if (first < 0) {
		note(c, "the trace does not show the CPUs' tick grid (no sched_stat_runtime "
		     "events at ticks): the replay's ticks fall at t0 + k * %llu ns",
		     (unsigned long long)c->jt->tick);
		free(ph);
		free(found);
		return 0;
	}
	for (cpu = 0; cpu < c->jt->nr_cpus; cpu++)
		if (!found[cpu])
			ph[cpu] = ph[first];
	if (nr_missing)
		note(c, "the tick grid of %d of %d CPUs is not in the trace: CPU %d's is used",
		     nr_missing, c->jt->nr_cpus, first);
	c->jt->tick_phase = ph;
	free(found);
	return 0;
}

/*
 * The fair server's reservation on @cpu: env.txt's (a host run), else the
 * default of the replay's model (the traced kernel's version: 50 ms every
 * 1 s from 6.12 on; none before, nor in v4).  *@src says which.
 */
static void fair_server(const struct dlb_conform *c, const struct witness *w, int cpu,
			u64 *runtime, u64 *period, const char **src)
{
	/* a period below the kernel's minimum (100 us, sched_fair_server_write()) is not one */
	const struct dlb_env *e = &w->env;

	if (e->fs_cpu && e->fs_cpu[2 * cpu + 1] >= 100 * NSEC_PER_USEC) {
		*runtime = e->fs_cpu[2 * cpu];
		*period = e->fs_cpu[2 * cpu + 1];
		*src = "env.txt";
	} else if (e->fs_known && e->fs_period >= 100 * NSEC_PER_USEC) {
		*runtime = e->fs_runtime;
		*period = e->fs_period;
		*src = "env.txt";
	} else {
		dlb_sim_model_fair_server(c->model, runtime, period);
		*src = *period ? "not in env.txt: the default of this kernel" : "none in this kernel";
	}
	if (*runtime > *period)
		*runtime = *period;
}

/*
 * The CPU time the trace shows DL tasks could not have had (the jobs
 * trace's unavail records, docs/conformance.md "Unavailable time"), from
 * t0 on.  Interrupts are in only when the trace recorded their events;
 * the fair server's share up to its reservation, in windows from t0.
 */
static int unavail(struct dlb_conform *c, const struct dlb_metrics *m, const struct witness *w)
{
	struct dlb_jt_unavail u;
	const struct dlb_unavail *ua;
	struct dlb_unavail *all;
	struct dlb_fair_sum fs = { 0 };
	const char *src = NULL;
	size_t n, i, nr = 0;
	u64 sum = 0, runtime = 0, period = 0;
	int cpu;

	for (cpu = 0; cpu < c->jt->nr_cpus; cpu++) {
		/* the interrupts and the stop class alone, for their note */
		ua = dlb_metrics_unavail(m, cpu, &n);
		for (i = 0; i < n; i++) {
			if (!dl_time_before(c->jt->t0, ua[i].to))
				continue;
			nr++;
			sum += ua[i].to - (dl_time_before(ua[i].from, c->jt->t0) ? c->jt->t0 :
					   ua[i].from);
		}
		fair_server(c, w, cpu, &runtime, &period, &src);
		if (dlb_metrics_unavail_fair(m, cpu, runtime, period, c->jt->t0, &all, &n, &fs))
			return -1;
		for (i = 0; i < n; i++) {
			if (!dl_time_before(c->jt->t0, all[i].to))
				continue;
			u = (struct dlb_jt_unavail){ .cpu = cpu, .from = all[i].from, .to = all[i].to,
						     .kind = all[i].kind };
			if (dl_time_before(u.from, c->jt->t0))
				u.from = c->jt->t0;
			if (dlb_jt_add_unavail(c->jt, &u)) {
				free(all);
				return -1;
			}
		}
		free(all);
	}
	if (!dlb_metrics_run(m)->irq_events && strcmp(c->jt->backend, "reference"))
		note(c, "interrupt time not recorded (no irq_handler or softirq events in the "
		     "trace): the replay gives it to the tasks");
	if (nr)
		note(c, "%zu intervals (%.3f ms) of interrupts or the stop class, in which no "
		     "DL task could run", nr, (double)sum / 1e6);
	if (fs.found)
		note(c, "%zu intervals (%.3f ms) of a fair task run while a DL task queued there "
		     "waited: %.3f ms within the reservation of the fair server (%.1f ms every %.1f ms "
		     "per CPU, %s) no DL task could use, %.3f ms beyond it left to the diff",
		     fs.found, (double)fs.found_ns / 1e6, (double)fs.counted_ns / 1e6,
		     (double)runtime / 1e6, (double)period / 1e6, src,
		     (double)(fs.found_ns - fs.counted_ns) / 1e6);
	return 0;
}

static int extract(struct dlb_conform *c, const struct dlb_metrics *m,
		   const struct dlb_conform_opts *o, const char *kernel, const struct witness *w)
{
	size_t i, skipped = 0;
	bool from_wl = false;
	u64 t0 = 0;

	c->jt = dlb_jt_create();
	c->kin = calloc(dlb_metrics_nr_tasks(m) + 1, sizeof(*c->kin));
	if (!c->jt || !c->kin)
		return -1;
	jobs_order(&c->run);
	c->jt->nr_cpus = dlb_metrics_nr_cpus(m);
	snprintf(c->jt->kernel, sizeof(c->jt->kernel), "%s", kernel ? kernel : "");
	snprintf(c->jt->backend, sizeof(c->jt->backend), "%s", o->backend ? o->backend : "");
	/* a reference run's own rules, for dlb-sim --replay of the jobs trace */
	if (o->backend && !strcmp(o->backend, "reference") && w->sum)
		snprintf(c->jt->model, sizeof(c->jt->model), "%s", w->sum->model);
	for (i = 0; i < dlb_metrics_nr_tasks(m); i++) {
		const struct dlb_task_metrics *t = dlb_metrics_task(m, i);

		if (!t->is_dl || t->param_src == DLB_PARAM_NONE) {
			skipped += t->jobs ? 1 : 0;
			continue;
		}
		if (extract_task(c, t, o, w, &from_wl))
			return -1;
	}
	if (skipped)
		note(c, "%zu tasks with jobs are not deadline tasks with known parameters: "
		     "not replayed", skipped);
	c->jt->affinity = from_wl ? DLB_JT_AFF_WORKLOAD : DLB_JT_AFF_ALL;
	for (i = 0; i < c->jt->nr_jobs; i++)
		if (!i || dl_time_before(c->jt->jobs[i].rel, t0))
			t0 = c->jt->jobs[i].rel;
	/* the run's start, when the generator says it and it comes first */
	if (w->sum && !dl_time_before(t0, w->sum->start_ns))
		t0 = w->sum->start_ns;
	c->jt->t0 = t0;
	c->jt->end = dlb_metrics_run(m)->last_ts;
	/*
	 * The traced kernel's tick, where the analysis found it (--tick-hz,
	 * env.txt's config_HZ, record.txt's measured tick_hz); a reference
	 * run's accounting is exact unless it was asked otherwise.
	 */
	if (!o->backend || strcmp(o->backend, "reference"))
		c->jt->tick = dlb_metrics_tick(m);
	/* whether the traced kernel charged interrupts (a reference run has none) */
	if (o->irq_time_accounting)
		c->jt->irq_time_acct = o->irq_time_accounting == 'y';
	else if (!o->backend || strcmp(o->backend, "reference"))
		c->jt->irq_time_acct = w->env.irq_acct;
	if (c->jt->irq_time_acct == 1)
		note(c, "interrupt time not charged to the task it interrupts "
		     "(CONFIG_IRQ_TIME_ACCOUNTING=y, %s)",
		     o->irq_time_accounting ? "the command line" : "env.txt");
	if (unavail(c, m, w))
		return -1;
	return c->jt->tick ? tick_grid(c, m) : 0;
}

/*
 * A file to write, one at a time, through c->outbuf: the three files
 * are 340 MB on a 60 s run of 640 tasks, in 4 KiB writes with stdio's
 * own buffer.  Without the buffer (no memory), stdio's.
 */
#define OUT_BUF		(1 << 20)
static FILE *out_open(const struct dlb_conform *c, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f && c->outbuf)
		setvbuf(f, c->outbuf, _IOFBF, OUT_BUF);
	return f;
}

static int write_jt(const struct dlb_conform *c, const char *dir, struct dlb_err *err)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/jobs-trace.txt", dir);
	f = out_open(c, path);
	if (!f)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	rc = dlb_jt_write(f, c->jt);
	if (fclose(f) || rc)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	return 0;
}

/* ---- replay ---- */

static FILE *csv_open(const struct dlb_conform *c, const char *dir, const char *name,
		      const char *header, char *path, size_t size, struct dlb_err *err);
static int csv_close(FILE *f, const char *path, struct dlb_err *err);
static void csv_put_name(FILE *f, struct sbuf *sb, const char *name);
static void sb_comma_u64(struct sbuf *sb, u64 v);
static void sb_comma_int(struct sbuf *sb, int v);

/*
 * The oracle's events: to its metrics engine, and its schedule to
 * oracle-slices.csv (docs/results.md) as it goes, on the trace's clock:
 * kept until the end, the 1.9 million slices of a 60 s run of 640 tasks
 * were 45 MB more to fault in and a second pass.
 */
struct oracle_hook {
	struct dlb_conform *c;
	struct dlb_sim *sim;
	struct dlb_metrics *om;
	int *ti;		/* per CPU: the task running (-1 none) */
	u64 *since;		/* per CPU: since when */
	u64 last;
	FILE *slices;		/* NULL: not written */
};

/* Task ti ran on cpu from start to end (the replay's clock): a row of oracle-slices.csv. */
static void slice_add(struct oracle_hook *h, int cpu, int ti, u64 start, u64 end)
{
	const struct dlb_conform *c = h->c;
	char buf[96];
	struct sbuf sb;

	if (!h->slices || end == start)
		return;
	sb_init(&sb, buf, sizeof(buf));
	sb_int(&sb, cpu);
	sb_comma_u64(&sb, start + c->jt->t0);
	sb_comma_u64(&sb, end + c->jt->t0);
	sb_comma_int(&sb, c->jt->tasks[ti].tid);
	sb_lit(&sb, ",");
	csv_put_name(h->slices, &sb, c->jt->tasks[ti].name);
	sb_lit(&sb, "\n");
	fwrite(buf, 1, sb.len, h->slices);
}

static int oracle_event(const struct dlb_event *ev, void *arg)
{
	struct oracle_hook *h = arg;
	const struct dlb_marker *mk;
	int cpu = ev->cpu, ti;

	h->last = ev->ts;
	if (ev->type == DLB_EV_SWITCH && cpu >= 0 && cpu < h->c->jt->nr_cpus) {
		if (h->ti[cpu] >= 0)
			slice_add(h, cpu, h->ti[cpu], h->since[cpu], ev->ts);
		ti = ev->sw.next_pid - h->c->first_tid;
		h->ti[cpu] = ti >= 0 && (size_t)ti < h->c->jt->nr_tasks ? ti : -1;
		h->since[cpu] = ev->ts;
	}
	/*
	 * The reference's job markers, three a job, as it made them: parsing
	 * their text back was a tenth of the replay.  Each says all its text
	 * does (a run marker's struct holds more than its text).
	 */
	mk = ev->type == DLB_EV_MARKER ? dlb_sim_marker(h->sim) : NULL;
	if (mk && (mk->kind == DLB_MARK_JOB_RELEASE || mk->kind == DLB_MARK_JOB_BEGIN ||
		   mk->kind == DLB_MARK_JOB_END))
		return dlb_metrics_marker_event(ev, mk, h->om);
	return dlb_metrics_event(ev, h->om);
}

static void oracle_hook_end(struct oracle_hook *h)
{
	int cpu;

	for (cpu = 0; cpu < h->c->jt->nr_cpus; cpu++)
		if (h->ti[cpu] >= 0)
			slice_add(h, cpu, h->ti[cpu], h->since[cpu], h->last);
}

/* The reference on the jobs trace, its events into a second metrics engine. */
static int replay(struct dlb_conform *c, const struct dlb_conform_opts *o, struct dlb_err *err)
{
	struct dlb_metrics_opts mo = { .job_fn = oracle_job, .job_arg = c, .jobs_only = true };
	struct dlb_metrics *om = NULL;
	struct dlb_sim_opts so;
	struct dlb_sim *sim = NULL;
	struct workload *wl = NULL;
	struct dlb_err e = { 0 };
	struct oracle_hook h = { .c = c };
	char path[4096];
	int rc = 0, cpu;
	size_t ti, k;

	if (dlb_jt_workload(c->jt, o->asked, &wl, &e))
		return e.code == DLB_EXIT_INTERNAL ? dlb_err_set(err, e.code, "%s", e.msg) :
			not_done(c, e.msg);
	dlb_sim_opts_init(&so);
	so.nr_cpus = c->jt->nr_cpus;
	so.tick_ns = c->jt->tick;
	so.tick_phase = c->jt->tick_phase;
	dlb_sim_opts_unavail(&so, c->jt);
	so.admission = false;		/* the run's tasks were admitted */
	so.timed = false;
	so.job_marker_structs = true;	/* oracle_event() reads them as structs */
	so.ctx_switch_ns = c->ovh_cs;	/* 0 unless overheads are charged */
	so.migration_ns = c->ovh_mig;
	if (dlb_sim_opts_model(&so, c->model) < 0) {
		rc = not_done(c, "the model is not known");
		goto out;
	}
	c->first_tid = so.first_tid;
	c->tasks = calloc(c->jt->nr_tasks, sizeof(*c->tasks));
	c->ot = calloc(c->jt->nr_tasks, sizeof(*c->ot));
	if (!c->tasks || !c->ot) {
		rc = dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	for (ti = 0; ti < c->jt->nr_tasks; ti++) {	/* a job the trace stopped in: no pair */
		for (k = 0; k < c->kin[ti]->n && !c->kin[ti]->v[k].open; k++)
			;
		c->ot[ti].npair = k;
	}
	mo.nr_cpus = so.nr_cpus;
	om = dlb_metrics_create(&mo, err);
	h.om = om;
	h.ti = malloc((size_t)so.nr_cpus * sizeof(*h.ti));
	h.since = calloc((size_t)so.nr_cpus, sizeof(*h.since));
	if (!om || !h.ti || !h.since) {
		rc = om ? dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory") : -1;
		goto out;
	}
	for (cpu = 0; cpu < so.nr_cpus; cpu++)
		h.ti[cpu] = -1;
	sim = dlb_sim_create(wl, &so, &e);
	if (!sim) {
		rc = e.code == DLB_EXIT_INTERNAL ? dlb_err_set(err, e.code, "%s", e.msg) :
			not_done(c, e.msg);
		goto out;
	}
	h.sim = sim;
	if (o->outdir && !(h.slices = csv_open(c, o->outdir, "oracle-slices.csv",
					       "cpu,start_ns,end_ns,tid,name\n", path,
					       sizeof(path), err))) {
		rc = -1;
		goto out;
	}
	dlb_sim_set_event_hook(sim, oracle_event, &h);
	if (dlb_sim_run(sim, &e) < 0) {
		rc = not_done(c, e.msg);
		goto out;
	}
	oracle_hook_end(&h);
	dlb_metrics_finish(om);
	if (c->oracle_oom)
		rc = dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	else if (c->oracle_disorder)	/* each replayed thread ends its jobs in order */
		rc = dlb_err_set(err, DLB_EXIT_INTERNAL, "the replay ended a task's jobs out of "
				 "order");
	else
		c->done = true;
out:
	if (h.slices) {
		/* a replay that did not finish has no schedule to show */
		if (csv_close(h.slices, path, rc || !c->done ? &e : err) && !rc && c->done)
			rc = -1;
		if (rc || !c->done)
			unlink(path);
	}
	free(h.ti);
	free(h.since);
	dlb_sim_free(sim);
	dlb_metrics_free(om);
	wl_free(wl);
	return rc;
}

/* ---- diff ---- */

static u64 absdiff(s64 a, s64 b)
{
	return a > b ? (u64)(a - b) : (u64)(b - a);
}

/* Its time ready and not running: from its wake-up to its end, less its CPU time. */
static u64 waited(const struct cjob *j)
{
	u64 span = j->end - j->wakeup;

	return j->exec_known && span > j->exec ? span - j->exec : 0;
}

/*
 * Why the run missed a job the oracle met.  Overrun first (its own
 * demand), then inversion (a CPU it could have had ran a later deadline,
 * other work or idled); else, when every CPU it could use ran an earlier
 * deadline but it waited longer than in the oracle, by more than its
 * lateness: it waited for a CPU the oracle gave it (the kernel's schedule
 * held earlier-deadline work there that the oracle had already run: an
 * earlier divergence's consequence).
 */
static enum miss_cause kernel_miss_cause(const struct cjob *k, const struct cjob *o)
{
	u64 kw = waited(k), ow = waited(o);

	if (k->overrun || k->throttles)
		return CAUSE_OVERRUN;
	if (k->inversion_ns)
		return CAUSE_INVERSION;
	if (k->exec_known && o->exec_known && kw > ow && k->lateness > 0 &&
	    (u64)k->lateness <= kw - ow)
		return CAUSE_WAITED;
	return CAUSE_UNKNOWN;
}

/*
 * The oracle's job on the trace's clock, judged against the trace's
 * release and deadline (its own are the wake-up's: jt_workload.c).
 */
static struct cjob rebase(const struct cjob *k, const struct cjob *o, u64 t0)
{
	struct cjob r = *o;

	r.begin += t0;
	r.end += t0;
	r.held_from += t0;
	r.rel = k->rel;
	r.wakeup = k->wakeup;
	r.dl = k->dl;
	r.lateness = (s64)(r.end - k->dl);
	r.miss = dl_time_before(k->dl, r.end);
	return r;
}

/*
 * The budget's verdict on an oracle job the replay throttled, from its
 * work @work (its demand, or asked) against the runtime Q, and the
 * interrupt time the replay charged it (o->exec - @work: the job stays
 * on its CPU in its irq intervals, charged unless @irq_free, the traced
 * kernel's CONFIG_IRQ_TIME_ACCOUNTING): work >= Q + tick, overrun
 * (on its own it overran by more than the kernel's check at ticks lets
 * pass); Q <= work < Q + tick, the budget edge (the kernel throttles at
 * runtime <= 0, but sees it only at a tick: whether it did depends on
 * where the tick fell in the job, and the replay's job sits elsewhere on
 * the grid); work < Q <= work + irq, interrupts (the interrupt time the
 * replay charged took it over, where the kernel's job met other
 * interrupts, or a kernel with CONFIG_IRQ_TIME_ACCOUNTING charged none);
 * work + irq < Q, a short budget (it began with less than Q: an earlier
 * job's overrun carried into it, or the CBS wake-up rule kept a nearly
 * spent budget: on this host a job that left 3 us of its 3.3 ms, woken 7
 * us before the old deadline, kept them and ran a tick into debt, and
 * three of the next seven jobs missed; the kernel had charged that job
 * 6.7 us over its runtime, so throttled and replenished it).
 */
static enum oo_cause budget_cause(const struct cjob *o, u64 work, u64 runtime, u64 tick,
				  bool irq_free)
{
	u64 irq = !irq_free && o->exec_known && o->exec > work ? o->exec - work : 0;

	if (work > runtime && work - runtime >= tick)
		return OO_OVERRUN;
	if (work >= runtime)
		return OO_BUDGET_EDGE;
	if (work + irq >= runtime)
		return OO_IRQ_CHARGED;
	return OO_SHORT_BUDGET;
}

/*
 * Why the oracle missed a job the run met, the first that applies:
 *  1. its CBS held it back before its deadline (o->held_from: throttled
 *     while it was ready, from the throttle or its wake-up on): the
 *     budget's verdict (budget_cause());
 *  2. it waited in the replay longer than on the kernel, by more than its
 *     lateness (the kernel ran it on a CPU the replay held with earlier
 *     deadlines: its push/pull, or an earlier divergence): waited;
 *  3. throttled otherwise: the budget's verdict;
 *  4. unknown.
 * Why placement before a later throttle: a throttle at or after the
 * deadline, or one that held nothing back (as the job blocked, replenished
 * by its next wake-up), cannot have made the miss.  The mainline rules
 * throttle a job running past its deadline until its next period
 * (dl_runtime_exceeded() at a deadline miss, the timer at the next
 * period): a job that missed by waiting is throttled as it ends, and
 * judging that first called every later job of a task pinned behind an
 * earlier deadline "short_budget" (conformance_oracle.sh).
 */
static enum oo_cause oracle_miss_cause(const struct cjob *k, const struct cjob *o, u64 work,
				       u64 runtime, u64 tick, bool irq_free)
{
	u64 kw = waited(k), ow = waited(o);
	bool budget = o->throttles && work != DLB_JT_UNKNOWN;

	if (budget && o->held && dl_time_before(o->held_from, o->dl))
		return budget_cause(o, work, runtime, tick, irq_free);
	if (k->exec_known && o->exec_known && ow > kw && o->lateness > 0 &&
	    (u64)o->lateness <= ow - kw)
		return OO_WAITED;
	if (budget)
		return budget_cause(o, work, runtime, tick, irq_free);
	return OO_UNKNOWN;
}

/* Pair @o with @k, the run's job idx of task ti: its class, its cause in @cause. */
static enum div_kind diff_job(const struct dlb_conform *c, size_t ti, size_t idx,
			      const struct cjob *k, const struct cjob *o, struct tsum *s, int *cause)
{
	u64 d;

	s->jobs++;
	s->kmiss += k->miss;
	s->omiss += o->miss;
	d = absdiff(k->lateness, o->lateness);
	if (d > s->late_diff_max)
		s->late_diff_max = d;
	d = absdiff((s64)k->end, (s64)o->end);
	if (d > s->end_diff_max)
		s->end_diff_max = d;
	if (k->miss && !o->miss) {
		*cause = kernel_miss_cause(k, o);
		s->konly[*cause]++;
		return DIV_KERNEL_ONLY;
	}
	if (o->miss && !k->miss) {
		*cause = oracle_miss_cause(k, o,
					   dlb_jt_job_work(&c->jt->jobs[c->kin[ti]->jt0 + idx], c->asked),
					   c->jt->tasks[ti].dl.runtime, c->jt->tick,
					   c->jt->irq_time_acct == 1);
		s->oonly[*cause]++;
		return DIV_ORACLE_ONLY;
	}
	if (k->cpu_begin != o->cpu_begin || k->cpu_end != o->cpu_end ||
	    k->migrations != o->migrations) {
		s->placement++;
		return DIV_PLACEMENT;
	}
	return DIV_NONE;
}

/*
 * Divergences come as the replay ends jobs, not in task order: of two
 * released at once, the earlier is the one of the lower task, then job.
 */
static bool div_before(const struct first_div *a, const struct first_div *b)
{
	if (a->k.rel != b->k.rel)
		return dl_time_before(a->k.rel, b->k.rel);
	return a->task < b->task || (a->task == b->task && a->idx < b->idx);
}

/* Keep the divergence if it is among the earliest (and the earliest miss). */
static void record_div(struct dlb_conform *c, size_t ti, size_t idx, enum div_kind kind,
		       int cause, const struct cjob *k, const struct cjob *o)
{
	struct first_div d = { .set = true, .task = ti, .idx = idx, .kind = kind, .cause = cause,
			       .k = *k, .o = *o };
	int i = c->nr_divs;

	if (kind != DIV_PLACEMENT && (!c->first_miss.set || div_before(&d, &c->first_miss)))
		c->first_miss = d;
	if (i == DLB_CONFORM_LIST && !div_before(&d, &c->divs[i - 1]))
		return;
	if (i == DLB_CONFORM_LIST)
		i--;
	else
		c->nr_divs++;
	for (; i > 0 && div_before(&d, &c->divs[i - 1]); i--)
		c->divs[i] = c->divs[i - 1];
	c->divs[i] = d;
}

/*
 * An oracle job, as the replay ends it (a dlb_job_fn): task ti's k-th
 * against the run's k-th (of tid first_tid + ti), compared now, the pair
 * then kept in the run job's place; one with no run job to pair with
 * kept apart.  Kept until the end, the oracle's 1.5 million jobs of a
 * 60 s run of 640 tasks were 160 MB more to fault in, written at random.
 */
static void oracle_job(const struct dlb_job *j, void *arg)
{
	struct dlb_conform *c = arg;
	long ti = (long)j->tid - c->first_tid;
	struct otask *ot;
	struct cjob x, o, *k;
	int cause = CAUSE_UNKNOWN;
	enum div_kind kind;
	bool kmiss, plain;

	if (ti < 0 || (size_t)ti >= c->jt->nr_tasks || c->oracle_oom)
		return;
	ot = &c->ot[ti];
	cjob_set(&x, j);
	if (ot->n && (x.job < ot->last_job || (x.job == ot->last_job && x.rel < ot->last_rel)))
		c->oracle_disorder = true;
	ot->last_job = x.job;
	ot->last_rel = x.rel;
	if (ot->n >= ot->npair) {
		if (dlb_grow((void **)&ot->extra, &ot->cap_extra, ot->nextra + 1,
			     sizeof(*ot->extra)))
			c->oracle_oom = true;
		else
			ot->extra[ot->nextra++] = x;
		ot->n++;
		return;
	}
	k = &c->kin[ti]->v[ot->n];
	o = rebase(k, &x, c->jt->t0);
	kind = diff_job(c, (size_t)ti, ot->n, k, &o, &c->tasks[ti], &cause);
	if (kind != DIV_NONE)
		record_div(c, (size_t)ti, ot->n, kind, cause, k, &o);
	kmiss = k->miss;
	plain = k->konly_plain;
	*k = o;
	k->kmiss = kmiss;
	k->konly_plain = plain;
	k->kind = (unsigned char)kind;
	k->cause = (unsigned char)cause;
	ot->n++;
}

static void sum_add(struct tsum *a, const struct tsum *s)
{
	int i;

	a->jobs += s->jobs;
	a->kmiss += s->kmiss;
	a->omiss += s->omiss;
	for (i = 0; i < CAUSE_NR; i++)
		a->konly[i] += s->konly[i];
	for (i = 0; i < OO_NR; i++)
		a->oonly[i] += s->oonly[i];
	a->placement += s->placement;
	a->unmatched_kernel += s->unmatched_kernel;
	a->unmatched_oracle += s->unmatched_oracle;
	if (s->late_diff_max > a->late_diff_max)
		a->late_diff_max = s->late_diff_max;
	if (s->end_diff_max > a->end_diff_max)
		a->end_diff_max = s->end_diff_max;
}

/*
 * The CSVs' rows, one a job or slice (150 000 and more in a 6 s run of 640
 * tasks): built with sbuf.h, not fprintf, whose format parsing was most of
 * their cost; the same bytes.  csv_put_name() writes what is built, then
 * the task's name quoted as dlb_csv_str() does, and starts the buffer anew.
 */
static void csv_put_name(FILE *f, struct sbuf *sb, const char *name)
{
	fwrite(sb->p, 1, sb->len, f);
	dlb_csv_str(f, name);
	sb_init(sb, sb->p, sb->size);
}

static void sb_comma_u64(struct sbuf *sb, u64 v)
{
	sb_lit(sb, ",");
	sb_u64(sb, v);
}

static void sb_comma_int(struct sbuf *sb, int v)
{
	sb_lit(sb, ",");
	sb_int(sb, v);
}

/* The cause of a divergence of @kind, NULL when it has none. */
static const char *div_cause(enum div_kind kind, int cause)
{
	if (kind == DIV_KERNEL_ONLY)
		return cause_names[cause];
	return kind == DIV_ORACLE_ONLY ? oo_names[cause] : NULL;
}

/* oracle-jobs.csv (docs/results.md): the oracle's jobs on the trace's clock, the run's tids. */
static void csv_job(FILE *f, const struct dlb_conform *c, size_t ti, const struct cjob *o,
		    bool paired)
{
	char buf[384];
	struct sbuf sb;

	if (!f)
		return;
	sb_init(&sb, buf, sizeof(buf));
	sb_int(&sb, c->jt->tasks[ti].tid);
	sb_lit(&sb, ",");
	csv_put_name(f, &sb, c->jt->tasks[ti].name);
	sb_comma_u64(&sb, o->job);
	sb_comma_u64(&sb, o->rel);
	sb_comma_u64(&sb, o->dl);
	sb_comma_u64(&sb, o->begin);
	sb_comma_u64(&sb, o->end);
	sb_comma_u64(&sb, o->exec);
	sb_lit(&sb, ",");
	sb_s64(&sb, o->lateness);
	sb_comma_int(&sb, o->miss);
	sb_comma_int(&sb, o->cpu_begin);
	sb_comma_int(&sb, o->cpu_end);
	sb_comma_u64(&sb, o->migrations);
	sb_comma_u64(&sb, waited(o));
	sb_lit(&sb, ",");
	if (paired) {
		sb_int(&sb, o->kmiss);
		sb_lit(&sb, ",");
		sb_str(&sb, kind_names[o->kind]);
		sb_lit(&sb, ",");
		if (div_cause((enum div_kind)o->kind, o->cause))
			sb_str(&sb, div_cause((enum div_kind)o->kind, o->cause));
		sb_lit(&sb, "\n");
	} else {
		sb_lit(&sb, ",unmatched,\n");
	}
	fwrite(buf, 1, sb.len, f);
}

/*
 * Task ti's pairs (compared as the replay went: oracle_job()), then its
 * unmatched jobs; the rows of oracle-jobs.csv in task order.
 */
static void diff(struct dlb_conform *c, FILE *f)
{
	size_t ti, i, np;

	for (ti = 0; ti < c->jt->nr_tasks; ti++) {
		struct tsum *s = &c->tasks[ti];
		const struct tjobs *kt = c->kin[ti];
		const struct otask *ot = &c->ot[ti];

		np = ot->n < ot->npair ? ot->n : ot->npair;
		for (i = 0; f && i < np; i++)
			csv_job(f, c, ti, &kt->v[i], true);
		/* a job the trace stopped in is the task's last: no pair */
		s->unmatched_kernel = kt->n - np - (np < kt->n && kt->v[kt->n - 1].open);
		s->unmatched_oracle = ot->nextra;
		for (i = 0; i < ot->nextra; i++) {
			struct cjob o = ot->extra[i];

			o.begin += c->jt->t0;
			o.end += c->jt->t0;
			csv_job(f, c, ti, &o, false);
		}
		sum_add(&c->all, s);
	}
}

static FILE *csv_open(const struct dlb_conform *c, const char *dir, const char *name,
		      const char *header, char *path, size_t size, struct dlb_err *err)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = out_open(c, path);
	if (!f)
		dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	else
		fputs(header, f);
	return f;
}

static int csv_close(FILE *f, const char *path, struct dlb_err *err)
{
	bool bad = ferror(f);

	if (fclose(f) || bad)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno ? errno : EIO));
	return 0;
}

/* ---- overheads (docs/conformance.md "Overheads") ---- */

/*
 * The run's own overheads, from its trace: the time from the switch-in
 * that ran a woken job to its begin is the switch's tail as the traced
 * machine paid it (on the reference with --ctx-switch, exactly the
 * overhead); when that switch-in was on another CPU than the task's last,
 * the migration's too.  The median of each, not the mean: a few jobs
 * whose start met an interrupt, a page fault or a cold cache pull the
 * mean up, and a replay charged the mean at every switch would make
 * misses the run's typical switch does not; the median is the cost the
 * run paid most of the time, and with a constant overhead it is exact.
 */
static int ovh_measure(struct dlb_conform *c, u64 *cs, u64 *mig)
{
	struct dlb_stat st, mv;
	size_t ti, k;
	s64 a = 0, b = 0;
	int rc = 0;

	dlb_stat_init(&st);
	dlb_stat_init(&mv);
	for (ti = 0; ti < c->jt->nr_tasks; ti++)
		for (k = 0; k < c->kin[ti]->n; k++) {
			const struct cjob *j = &c->kin[ti]->v[k];

			if (j->startup_known)
				dlb_stat_add(j->startup_moved ? &mv : &st, (s64)j->startup_ns);
		}
	if (st.alloc_failed || mv.alloc_failed)
		rc = -1;
	c->ovh_cs_n = st.count;
	c->ovh_mig_n = mv.count;
	if (st.count && dlb_stat_pct(&st, 50, &a))
		a = 0;
	if (mv.count && dlb_stat_pct(&mv, 50, &b))
		b = 0;
	*cs = a > 0 ? (u64)a : 0;
	/* a migrated switch-in's tail is the switch's and the migration's */
	*mig = mv.count && b > a ? (u64)(b - a) : 0;
	dlb_stat_free(&st);
	dlb_stat_free(&mv);
	if (!st.count)
		note(c, "no job began in the slice its wake-up started: the context-switch "
		     "overhead is not measured, 0 charged");
	return rc;
}

/* Forget a replay's verdicts, for another. */
static void replay_reset(struct dlb_conform *c)
{
	size_t i;

	for (i = 0; c->ot && i < c->jt->nr_tasks; i++)
		free(c->ot[i].extra);
	free(c->ot);
	free(c->tasks);
	c->ot = NULL;
	c->tasks = NULL;
	memset(&c->all, 0, sizeof(c->all));
	memset(&c->first_miss, 0, sizeof(c->first_miss));
	c->nr_divs = 0;
	c->done = c->oracle_oom = c->oracle_disorder = false;
}

/*
 * The plain replay (no overheads), for its kernel-only misses: each run
 * job keeps whether it was one (konly_plain).  Then the demands of the
 * replay with overheads: a consumed demand already holds the overheads of
 * the switch-ins inside the job (those before its begin are not in it),
 * so they come out of it; the replay charges them at its own switches.
 */
static int ovh_plain(struct dlb_conform *c, const struct dlb_conform_opts *o, struct dlb_err *err)
{
	struct dlb_conform_opts po = *o;
	struct cjob **save = calloc(c->jt->nr_tasks, sizeof(*save));
	size_t ti, k, np;
	u64 cs = o->ctx_switch_ns, mig = o->migration_ns, ov;
	int rc = 0;

	for (ti = 0; save && ti < c->jt->nr_tasks; ti++) {
		save[ti] = malloc(c->kin[ti]->n * sizeof(**save) + 1);
		if (!save[ti])
			goto oom;
		memcpy(save[ti], c->kin[ti]->v, c->kin[ti]->n * sizeof(**save));
	}
	if (!save || (o->overheads == DLB_OVH_MEASURED && ovh_measure(c, &cs, &mig)))
		goto oom;
	po.outdir = NULL;		/* its schedule is not the one shown */
	rc = replay(c, &po, err);
	for (ti = 0; !rc && c->done && ti < c->jt->nr_tasks; ti++) {
		np = c->ot[ti].n < c->ot[ti].npair ? c->ot[ti].n : c->ot[ti].npair;
		for (k = 0; k < np; k++) {
			save[ti][k].konly_plain = c->kin[ti]->v[k].kind == DIV_KERNEL_ONLY;
			c->plain_konly += save[ti][k].konly_plain;
		}
	}
	for (ti = 0; ti < c->jt->nr_tasks; ti++) {
		memcpy(c->kin[ti]->v, save[ti], c->kin[ti]->n * sizeof(**save));
		free(save[ti]);
	}
	free(save);
	replay_reset(c);
	c->ovh = o->overheads;
	c->ovh_cs = cs;
	c->ovh_mig = mig;
	for (ti = 0; ti < c->jt->nr_tasks; ti++)
		for (k = 0; k < c->kin[ti]->n; k++) {
			const struct cjob *j = &c->kin[ti]->v[k];
			struct dlb_jt_job *jj = &c->jt->jobs[c->kin[ti]->jt0 + k];

			ov = j->switches_in * cs + j->moves_in * mig;
			if (jj->demand != DLB_JT_UNKNOWN)
				jj->demand = jj->demand > ov ? jj->demand - ov : 0;
		}
	return rc;
oom:
	for (ti = 0; save && ti < c->jt->nr_tasks; ti++)
		free(save[ti]);
	free(save);
	return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
}

/* Of the plain replay's kernel-only misses, those the replay with overheads missed too. */
static void ovh_count(struct dlb_conform *c)
{
	size_t ti, k, np;

	for (ti = 0; ti < c->jt->nr_tasks; ti++) {
		np = c->ot[ti].n < c->ot[ti].npair ? c->ot[ti].n : c->ot[ti].npair;
		for (k = 0; k < np; k++)
			c->plain_reproduced += c->kin[ti]->v[k].konly_plain &&
					       c->kin[ti]->v[k].miss;
	}
}

int dlb_conform_run(struct dlb_conform *c, const struct dlb_metrics *m,
		    const struct dlb_conform_opts *o, struct dlb_err *err)
{
	char path[4096];
	FILE *f = NULL;
	const char *kernel = o->kernel;
	struct witness w;
	int rc;

	if (c->run.oom)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	c->asked = o->asked;
	witness_load(c, o->folder, &w);
	if (!o->kernel && w.env.kernel[0])
		kernel = w.env.kernel;
	if (o->model) {
		snprintf(c->model, sizeof(c->model), "%s", o->model);
		c->model_src = "the command line";
	} else {
		c->model_src = dlb_sim_model_for(o->backend, kernel, w.sum ? w.sum->model : NULL,
						 c->model, sizeof(c->model));
	}
	if (o->outdir)
		c->outbuf = malloc(OUT_BUF);
	rc = extract(c, m, o, kernel, &w);
	witness_free(&w);
	if (rc)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	if (o->outdir && write_jt(c, o->outdir, err))
		return -1;
	if (!c->jt->nr_tasks)
		return not_done(c, "no deadline task with known parameters has a job with a deadline");
	if (o->overheads != DLB_OVH_NONE && ovh_plain(c, o, err))
		return -1;
	if (replay(c, o, err))
		return -1;
	if (!c->done)
		return 0;
	if (c->ovh != DLB_OVH_NONE)
		ovh_count(c);
	if (o->outdir && !(f = csv_open(c, o->outdir, "oracle-jobs.csv", "tid,name,job,release_ns,"
					 "deadline_ns,begin_ns,end_ns,exec_ns,lateness_ns,miss,"
					 "cpu_begin,cpu_end,migrations,waited_ns,kernel_miss,"
					 "divergence,cause\n", path, sizeof(path), err)))
		return -1;
	diff(c, f);
	if (f && csv_close(f, path, err))
		return -1;
	return 0;
}

/* ---- output ---- */

static struct json_object *ju64(u64 v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static void jadd(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static u64 counts_sum(const u64 *v, int n)
{
	u64 sum = 0;

	while (n--)
		sum += v[n];
	return sum;
}

static u64 konly_total(const struct tsum *s)
{
	return counts_sum(s->konly, CAUSE_NR);
}

static u64 oonly_total(const struct tsum *s)
{
	return counts_sum(s->oonly, OO_NR);
}

/* Oracle-only misses the replay's budget does not explain: its placement, or unknown. */
static u64 oonly_unexplained(const struct tsum *s)
{
	return s->oonly[OO_WAITED] + s->oonly[OO_UNKNOWN];
}

static struct json_object *json_sum(const struct tsum *s)
{
	struct json_object *o = json_object_new_object(), *k = json_object_new_object();
	struct json_object *oo = json_object_new_object();
	int i;

	jadd(o, "jobs", ju64(s->jobs));
	jadd(o, "kernel_misses", ju64(s->kmiss));
	jadd(o, "oracle_misses", ju64(s->omiss));
	jadd(k, "total", ju64(konly_total(s)));
	for (i = 0; i < CAUSE_NR; i++)
		jadd(k, cause_names[i], ju64(s->konly[i]));
	jadd(k, "unexplained", ju64(konly_total(s) - s->konly[CAUSE_OVERRUN]));
	jadd(o, "kernel_only_misses", k);
	jadd(oo, "total", ju64(oonly_total(s)));
	for (i = 0; i < OO_NR; i++)
		jadd(oo, oo_names[i], ju64(s->oonly[i]));
	jadd(oo, "unexplained", ju64(oonly_unexplained(s)));
	jadd(o, "oracle_only_misses", oo);
	jadd(o, "placement_divergences", ju64(s->placement));
	jadd(o, "unmatched_kernel_jobs", ju64(s->unmatched_kernel));
	jadd(o, "unmatched_oracle_jobs", ju64(s->unmatched_oracle));
	jadd(o, "lateness_diff_max_ns", ju64(s->late_diff_max));
	jadd(o, "end_diff_max_ns", ju64(s->end_diff_max));
	return o;
}

static u64 divergent(const struct tsum *s)
{
	return konly_total(s) + oonly_total(s) + s->placement +
		s->unmatched_kernel + s->unmatched_oracle;
}

static struct json_object *json_side(const struct cjob *j, u64 t0)
{
	struct json_object *o = json_object_new_object();

	jadd(o, "miss", json_object_new_boolean(j->miss));
	jadd(o, "lateness_ns", json_object_new_int64(j->lateness));
	jadd(o, "response_ns", ju64(j->end - j->rel));
	jadd(o, "end_ns", ju64(j->end - t0));
	jadd(o, "cpu_begin", json_object_new_int(j->cpu_begin));
	jadd(o, "cpu_end", json_object_new_int(j->cpu_end));
	jadd(o, "migrations", json_object_new_int((int)j->migrations));
	jadd(o, "waited_ns", ju64(waited(j)));
	return o;
}

static struct json_object *json_div(const struct dlb_conform *c, const struct first_div *f)
{
	struct json_object *o;

	if (!f->set)
		return NULL;
	o = json_object_new_object();
	jadd(o, "task", json_object_new_string(c->jt->tasks[f->task].name));
	jadd(o, "tid", json_object_new_int(c->jt->tasks[f->task].tid));
	jadd(o, "job", ju64(f->k.job));
	jadd(o, "release_ns", ju64(f->k.rel - c->jt->t0));
	jadd(o, "kind", json_object_new_string(kind_names[f->kind]));
	jadd(o, "cause", div_cause(f->kind, f->cause) ?
	     json_object_new_string(div_cause(f->kind, f->cause)) : NULL);
	jadd(o, "kernel", json_side(&f->k, c->jt->t0));
	jadd(o, "oracle", json_side(&f->o, c->jt->t0));
	return o;
}

static const char *ovh_source(const struct dlb_conform *c)
{
	return c->ovh == DLB_OVH_MEASURED ? "measured" : "given";
}

/* What the replay charged; null: nothing (docs/report-json.md). */
static struct json_object *json_ovh(const struct dlb_conform *c)
{
	struct json_object *o;

	if (c->ovh == DLB_OVH_NONE)
		return NULL;
	o = json_object_new_object();
	jadd(o, "source", json_object_new_string(ovh_source(c)));
	jadd(o, "ctx_switch_ns", ju64(c->ovh_cs));
	jadd(o, "migration_ns", ju64(c->ovh_mig));
	jadd(o, "ctx_switch_samples", c->ovh == DLB_OVH_MEASURED ? ju64(c->ovh_cs_n) : NULL);
	jadd(o, "migration_samples", c->ovh == DLB_OVH_MEASURED ? ju64(c->ovh_mig_n) : NULL);
	jadd(o, "plain_kernel_only", c->done ? ju64(c->plain_konly) : NULL);
	jadd(o, "reproduced", c->done ? ju64(c->plain_reproduced) : NULL);
	return o;
}

struct json_object *dlb_conform_json(const struct dlb_conform *c)
{
	struct json_object *o = json_object_new_object(), *arr, *t;
	size_t i;
	int n;

	jadd(o, "version", json_object_new_int(DLB_CONFORM_VERSION));
	jadd(o, "status", json_object_new_string(c->done ? "done" : "not_done"));
	jadd(o, "why", c->done ? NULL : json_object_new_string(c->why));
	jadd(o, "jobs_trace", c->jt ? json_object_new_string("jobs-trace.txt") : NULL);
	jadd(o, "model", json_object_new_string(c->model));
	jadd(o, "model_source", json_object_new_string(c->model_src ? c->model_src : ""));
	jadd(o, "demand", json_object_new_string(c->asked ? "asked" : "consumed"));
	jadd(o, "overheads", json_ovh(c));
	jadd(o, "affinity", c->jt ? json_object_new_string(dlb_jt_affinity_str(c->jt->affinity)) :
	     NULL);
	jadd(o, "cpus", json_object_new_int(c->jt ? c->jt->nr_cpus : 0));
	arr = json_object_new_array();
	for (n = 0; n < c->nr_notes; n++)
		json_object_array_add(arr, json_object_new_string(c->notes[n]));
	jadd(o, "notes", arr);
	if (!c->done) {
		jadd(o, "divergent_jobs", NULL);
		jadd(o, "run", NULL);
		jadd(o, "first_divergence", NULL);
		jadd(o, "first_miss_divergence", NULL);
		jadd(o, "divergences", NULL);
		jadd(o, "tasks", NULL);
		return o;
	}
	jadd(o, "divergent_jobs", ju64(divergent(&c->all)));
	jadd(o, "run", json_sum(&c->all));
	jadd(o, "first_divergence", c->nr_divs ? json_div(c, &c->divs[0]) : NULL);
	jadd(o, "first_miss_divergence", json_div(c, &c->first_miss));
	arr = json_object_new_array();
	for (n = 0; n < c->nr_divs; n++)
		json_object_array_add(arr, json_div(c, &c->divs[n]));
	jadd(o, "divergences", arr);
	arr = json_object_new_array();
	for (i = 0; i < c->jt->nr_tasks; i++) {
		t = json_sum(&c->tasks[i]);
		jadd(t, "name", json_object_new_string(c->jt->tasks[i].name));
		jadd(t, "tid", json_object_new_int(c->jt->tasks[i].tid));
		json_object_array_add(arr, t);
	}
	jadd(o, "tasks", arr);
	return o;
}

static void txt_side(FILE *f, const char *who, const struct cjob *j)
{
	fprintf(f, "%s %s (lateness %.1f us, waited %.1f us) on CPU %d", who,
		j->miss ? "missed" : "met", (double)j->lateness / 1000.0,
		(double)waited(j) / 1000.0, j->cpu_end);
	if (j->cpu_begin != j->cpu_end || j->migrations)
		fprintf(f, " (began on CPU %d, %u migrations)", j->cpu_begin, j->migrations);
}

static void txt_div(FILE *f, const struct dlb_conform *c, const char *what,
		    const struct first_div *d)
{
	fprintf(f, "# conformance: %s: task %s job %llu released at %.3f ms: %s", what,
		c->jt->tasks[d->task].name, (unsigned long long)d->k.job,
		(double)(d->k.rel - c->jt->t0) / 1e6, kind_names[d->kind]);
	if (div_cause(d->kind, d->cause))
		fprintf(f, " (%s)", div_cause(d->kind, d->cause));
	fprintf(f, ": ");
	txt_side(f, "kernel", &d->k);
	fprintf(f, "; ");
	txt_side(f, "oracle", &d->o);
	fputc('\n', f);
}

void dlb_conform_txt(FILE *f, const struct dlb_conform *c)
{
	const struct tsum *s = &c->all;
	int n;

	if (!c->done) {
		fprintf(f, "# conformance: not done: %s\n", c->why);
		return;
	}
	fprintf(f, "# conformance (replay under model %s, %s; %s demands, affinity %s): %llu jobs, "
		"%llu divergent: %llu kernel-only misses (%llu overrun, %llu inversion, %llu "
		"waited, %llu unknown), %llu oracle-only misses (%llu overrun, %llu budget edge, "
		"%llu irq charged, %llu short budget, %llu waited, %llu unknown), %llu placement\n",
		c->model, c->model_src,
		c->asked ? "asked" : "consumed", dlb_jt_affinity_str(c->jt->affinity),
		(unsigned long long)s->jobs, (unsigned long long)divergent(s),
		(unsigned long long)konly_total(s), (unsigned long long)s->konly[CAUSE_OVERRUN],
		(unsigned long long)s->konly[CAUSE_INVERSION],
		(unsigned long long)s->konly[CAUSE_WAITED],
		(unsigned long long)s->konly[CAUSE_UNKNOWN], (unsigned long long)oonly_total(s),
		(unsigned long long)s->oonly[OO_OVERRUN], (unsigned long long)s->oonly[OO_BUDGET_EDGE],
		(unsigned long long)s->oonly[OO_IRQ_CHARGED],
		(unsigned long long)s->oonly[OO_SHORT_BUDGET], (unsigned long long)s->oonly[OO_WAITED],
		(unsigned long long)s->oonly[OO_UNKNOWN], (unsigned long long)s->placement);
	if (c->ovh != DLB_OVH_NONE)
		fprintf(f, "# conformance: overheads charged (%s): context switch %.1f us, "
			"migration %.1f us; of the %llu kernel-only misses without them, %llu "
			"reproduced with them (overhead), %llu not\n", ovh_source(c),
			(double)c->ovh_cs / 1000.0, (double)c->ovh_mig / 1000.0,
			(unsigned long long)c->plain_konly,
			(unsigned long long)c->plain_reproduced,
			(unsigned long long)(c->plain_konly - c->plain_reproduced));
	if (s->unmatched_kernel || s->unmatched_oracle)
		fprintf(f, "# conformance: unmatched jobs: %llu of the run, %llu of the oracle\n",
			(unsigned long long)s->unmatched_kernel,
			(unsigned long long)s->unmatched_oracle);
	if (c->nr_divs)
		txt_div(f, c, "first divergence", &c->divs[0]);
	if (c->first_miss.set && (!c->nr_divs || c->divs[0].kind == DIV_PLACEMENT))
		txt_div(f, c, "first miss divergence", &c->first_miss);
	for (n = 0; n < c->nr_notes; n++)
		fprintf(f, "# conformance note: %s\n", c->notes[n]);
}
