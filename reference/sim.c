// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator: M simulated CPUs in virtual time, one deterministic event
 * queue, threads executing the workload model's events on top of the
 * reference scheduler (sched.h).  See sim.h for the model and its rules.
 *
 * Each CPU runs its rq->curr.  A thread's "run" event is remaining work
 * (work_left); while it runs, the queue holds the instant its work ends,
 * the instant its -deadline budget ends (exact accounting) or the next
 * tick (tick accounting), and its time-slice end (RR/fair).  Those
 * per-CPU events carry a generation number: whenever a CPU's situation
 * changes it is re-planned with a new generation, and stale events are
 * dropped when popped (lazy deletion keeps the queue a plain heap).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/marker.h"

#include "sched.h"
#include "sim.h"

enum sim_ev_type {
	SE_START,		/* thread: first wake-up, after its delay */
	SE_WAKE,		/* thread: sleep or timer expiry */
	SE_DL_TIMER,		/* thread: replenishment timer */
	SE_CPU_WORK,		/* cpu: curr's work ends */
	SE_CPU_BUDGET,		/* cpu: curr's -deadline runtime ends (hrtick) */
	SE_CPU_SLICE,		/* cpu: curr's RR/fair slice ends */
	SE_CPU_TICK,		/* cpu: periodic tick (tick accounting) */
	SE_RESCHED,		/* cpu: need_resched was set */
};

struct sim_ev {
	u64 time;
	u64 seq;		/* bit 62: not a work completion; below: insertion order */
	u64 gen;
	int type;
	int idx;
};

struct evq {
	struct sim_ev *h;
	size_t n, cap;
};

/* Events due now that sort after everything already queued: a FIFO. */
struct evfifo {
	struct sim_ev *h;
	size_t head, tail, cap;
};

enum thr_state {
	THR_NEW,
	THR_READY,		/* runnable or running */
	THR_SLEEP,
	THR_LOCK,
	THR_WAIT,		/* cond, barrier, suspend */
	THR_DONE,
};

struct sim_thread {
	struct task_struct task;	/* first: &thread->task == thread */
	const struct wl_task *wt;
	size_t index;
	int task_idx, instance, tid;
	enum thr_state st;

	size_t phase, ev;
	int ploop, tloop;
	bool in_run;		/* executing a run event: step when work ends */
	bool exit_pending;
	u64 work_left, run_start;
	bool running;
	int last_cpu;
	int relock;		/* mutex to take again after a cond wake-up, or -1 */
	u64 wake_gen, timer_gen;
	struct sim_thread *wait_next;

	/* timers this thread used: (resource, next expiry), found by a short scan */
	u64 t_first;
	struct sim_timer *timers;
	int nr_timers;

	/* the current job */
	bool in_job;
	u64 jobs_started;
	u64 rel, begin, exec0, run_ns, period_ns;
	s64 slack;
	bool have_next_rel, rel_marked;
	u64 next_rel;

	u64 nr_throttled, nr_replenished, jobs, jobs_missed;
};

struct sim_timer {
	int res;
	bool init;		/* shared timers: t_next set by a first use */
	u64 t_next;
};

struct sim_waitq {
	struct sim_thread *head, *tail;
	unsigned int waiting;
};

struct dlb_sim {
	const struct workload *wl;
	struct dlb_sim_opts o;
	struct sched *s;
	struct sim_thread *thr;
	size_t nr_thr;
	struct rt_mutex *mutexes;	/* per resource */
	struct sim_waitq *waitq;	/* per resource */
	struct sim_timer *timers;	/* per resource: the shared (not "unique") timers */
	struct evq q;
	struct evfifo now_q;
	u64 seq;
	u64 now, end;
	u64 *cpu_gen;
	u64 *tick_next;			/* per CPU: the pending tick, 0 = none */
	u64 *tick_last;			/* per CPU: the last tick handled */
	unsigned char *cpu_dirty;
	int *dirty;
	int nr_dirty;
	dlb_event_fn ev_fn;
	void *ev_arg;
	dlb_sim_job_fn job_fn;
	void *job_arg;
	dlb_sim_progress_fn progress_fn;
	void *progress_arg;
	int stop;			/* non-zero: a hook or an error stopped the run */
	struct dlb_err stop_err;
	u64 steps, events;
};

/*
 * ---- event queue: binary min-heap on (time, seq) -----------------------
 *
 * with a side FIFO for the events that are not work completions and are due
 * at the current instant (mostly SE_RESCHED, pushed by every need_resched):
 * they are created in increasing (time, seq) order, so the FIFO is sorted
 * and popping the smaller of the two heads gives exactly the heap's order at
 * about half the heap operations.
 */

/*
 * Order: time, then work completions before anything else at that instant,
 * then insertion.  A job whose work ends at t is finished at t: a wake-up,
 * timer or preemption at the same t must not cut it off between the end of
 * its work and its (zero-time) next event, which would leave it throttled
 * with its job unfinished.
 */
static inline bool ev_less(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

#define SEQ_NOT_WORK	(1ULL << 62)

static int evfifo_push(struct evfifo *f, const struct sim_ev *e)
{
	if (f->tail == f->cap) {
		if (f->head) {
			/* the consumed front is free: slide the rest down */
			memmove(f->h, f->h + f->head, (f->tail - f->head) * sizeof(*f->h));
			f->tail -= f->head;
			f->head = 0;
		} else {
			size_t cap = f->cap ? f->cap * 2 : 256;
			struct sim_ev *h = realloc(f->h, cap * sizeof(*h));

			if (!h)
				return -1;
			f->h = h;
			f->cap = cap;
		}
	}
	f->h[f->tail++] = *e;
	return 0;
}

/*
 * No memory for an event: the simulation cannot go on truthfully.  The run
 * stops after this step and dlb_sim_run() returns the error (the step in
 * progress finishes without the event; nothing of it is reported as valid).
 */
static void evq_nomem(struct dlb_sim *sim)
{
	if (sim->stop)
		return;
	sim->stop = -1;
	dlb_err_set(&sim->stop_err, DLB_EXIT_INTERNAL,
		    "out of memory for the event queue at %llu ns of simulated time",
		    (unsigned long long)sim->now);
}

static void evq_push(struct dlb_sim *sim, u64 time, int type, int idx, u64 gen)
{
	struct evq *q = &sim->q;
	struct sim_ev e = { time, sim->seq++ | (type == SE_CPU_WORK ? 0 : SEQ_NOT_WORK), gen, type,
			    idx };
	size_t i;

	if (time == sim->now && type != SE_CPU_WORK) {
		if (evfifo_push(&sim->now_q, &e) < 0)
			evq_nomem(sim);
		return;
	}

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 1024;
		struct sim_ev *h = realloc(q->h, cap * sizeof(*h));

		if (!h) {
			evq_nomem(sim);
			return;
		}
		q->h = h;
		q->cap = cap;
	}
	i = q->n++;
	while (i > 0 && ev_less(&e, &q->h[(i - 1) / 2])) {
		q->h[i] = q->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->h[i] = e;
}

/*
 * Bottom-up (Floyd): the hole at the root goes down along the smaller
 * children to a leaf, one compare per level, and the last element rises
 * from there; it belongs near the bottom, so that is a step or two.
 */
static struct sim_ev evq_heap_pop(struct evq *q)
{
	struct sim_ev *h = q->h, top = h[0], last;
	size_t i = 0, c, n = --q->n;

	if (!n)
		return top;
	last = h[n];
	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
			c++;
		h[i] = h[c];
		i = c;
	}
	while (i > 0 && ev_less(&last, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = last;
	return top;
}

static bool evq_empty(const struct dlb_sim *sim)
{
	return !sim->q.n && sim->now_q.head == sim->now_q.tail;
}

static struct sim_ev evq_pop(struct dlb_sim *sim)
{
	struct evfifo *f = &sim->now_q;
	struct sim_ev e;

	if (f->head == f->tail || (sim->q.n && ev_less(&sim->q.h[0], &f->h[f->head])))
		return evq_heap_pop(&sim->q);
	e = f->h[f->head++];
	if (f->head == f->tail)
		f->head = f->tail = 0;
	return e;
}

/* ---- helpers ---------------------------------------------------------- */

static inline struct sim_thread *thr_of(struct task_struct *p)
{
	return p->pid ? (struct sim_thread *)p : NULL;
}

static void mark_dirty(struct dlb_sim *sim, int cpu)
{
	if (sim->cpu_dirty[cpu])
		return;
	sim->cpu_dirty[cpu] = 1;
	sim->dirty[sim->nr_dirty++] = cpu;
}

static void emit(struct dlb_sim *sim, struct dlb_event *ev)
{
	int rc;

	ev->ts = sim->now;
	sim->events++;
	if (!sim->ev_fn || sim->stop)
		return;
	rc = sim->ev_fn(ev, sim->ev_arg);
	if (rc) {
		sim->stop = rc;
		dlb_err_set(&sim->stop_err, rc > 0 && rc <= DLB_EXIT_INTERNAL ? rc : DLB_EXIT_INCOMPLETE,
			    "the event consumer stopped the simulation (%d)", rc);
	}
}

static int curr_pid(struct dlb_sim *sim, int cpu)
{
	return cpu_rq(sim->s, cpu)->curr->pid;
}

/* A marker in the shared grammar (dlb_marker_format), written by @pid on @cpu. */
static void emit_marker(struct dlb_sim *sim, int cpu, int pid, const struct dlb_marker *m)
{
	struct dlb_event ev = { .cpu = cpu, .pid = pid, .type = DLB_EV_MARKER };
	char buf[DLB_MARKER_MAX];
	int n;

	if (!sim->ev_fn) {
		sim->events++;
		return;
	}
	n = dlb_marker_format(buf, sizeof(buf), m);
	if (n < 0)
		return;		/* cannot happen: our fields fit DLB_MARKER_MAX */
	ev.mark.text = buf;
	ev.mark.len = (size_t)n;
	emit(sim, &ev);
}

static u64 thr_exec(struct dlb_sim *sim, struct sim_thread *t)
{
	u64 e = t->task.se.sum_exec_runtime;

	/* the running task's time since its last accounting */
	if (t->task.on_cpu && t->task.se.exec_start && sim->now > t->task.se.exec_start)
		e += sim->now - t->task.se.exec_start;
	return e;
}

/* ---- scheduler callbacks ---------------------------------------------- */

static void settle(struct dlb_sim *sim, struct sim_thread *t)
{
	u64 d;

	if (!t->running)
		return;
	d = sim->now - t->run_start;
	t->work_left -= d < t->work_left ? d : t->work_left;
	t->run_start = sim->now;
}

static void cb_resched(void *arg, int cpu)
{
	struct dlb_sim *sim = arg;

	evq_push(sim, sim->now, SE_RESCHED, cpu, 0);
}

static void cb_timer_start(void *arg, struct task_struct *p, u64 expires)
{
	struct dlb_sim *sim = arg;
	struct sim_thread *t = thr_of(p);

	evq_push(sim, expires, SE_DL_TIMER, (int)t->index, ++t->timer_gen);
}

static void cb_timer_cancel(void *arg, struct task_struct *p)
{
	thr_of(p)->timer_gen++;
	(void)arg;
}

static void cb_switch(void *arg, int cpu, struct task_struct *prev, long prev_state,
		      struct task_struct *next)
{
	struct dlb_sim *sim = arg;
	struct sim_thread *tp = thr_of(prev), *tn = thr_of(next);
	struct dlb_event ev = { .cpu = cpu, .pid = prev->pid, .type = DLB_EV_SWITCH };

	if (tp) {
		settle(sim, tp);
		tp->running = false;
	}
	if (tn) {
		tn->running = true;
		tn->run_start = sim->now;
		if (sim->o.ctx_switch_ns)
			tn->work_left += sim->o.ctx_switch_ns;
		if (sim->o.migration_ns && tn->last_cpu >= 0 && tn->last_cpu != cpu)
			tn->work_left += sim->o.migration_ns;
		tn->last_cpu = cpu;
	}
	mark_dirty(sim, cpu);

	ev.sw.prev_pid = prev->pid;
	ev.sw.next_pid = next->pid;
	ev.sw.prev_prio = dl_task(prev) ? DLB_PRIO_DL : prev->prio;
	ev.sw.next_prio = dl_task(next) ? DLB_PRIO_DL : next->prio;
	/* an exiting task: 6.x reports its exit_state, EXIT_ZOMBIE, printed "Z" */
	ev.sw.prev_state = prev_state == TASK_DEAD ? 0x20 : prev_state;
	memcpy(ev.sw.prev_comm, prev->comm, DLB_COMM_LEN);
	memcpy(ev.sw.next_comm, next->comm, DLB_COMM_LEN);
	emit(sim, &ev);
}

static void cb_wakeup(void *arg, struct task_struct *p, int cpu)
{
	struct dlb_sim *sim = arg;
	int this_cpu = sim->s->this_cpu;
	struct dlb_event ev = { .cpu = this_cpu, .pid = curr_pid(sim, this_cpu),
				.type = DLB_EV_WAKEUP };

	ev.wake.pid = p->pid;
	ev.wake.prio = dl_task(p) ? DLB_PRIO_DL : p->prio;
	ev.wake.target_cpu = cpu;
	memcpy(ev.wake.comm, p->comm, DLB_COMM_LEN);
	emit(sim, &ev);
}

static void cb_migrate(void *arg, struct task_struct *p, int orig, int dest)
{
	struct dlb_sim *sim = arg;
	int this_cpu = sim->s->this_cpu;
	struct dlb_event ev = { .cpu = this_cpu, .pid = curr_pid(sim, this_cpu),
				.type = DLB_EV_MIGRATE };

	ev.mig.pid = p->pid;
	ev.mig.prio = dl_task(p) ? DLB_PRIO_DL : p->prio;
	ev.mig.orig_cpu = orig;
	ev.mig.dest_cpu = dest;
	memcpy(ev.mig.comm, p->comm, DLB_COMM_LEN);
	emit(sim, &ev);
}

static void cb_runtime(void *arg, struct task_struct *p, u64 delta)
{
	struct dlb_sim *sim = arg;
	struct dlb_event ev = { .cpu = task_cpu(p), .pid = p->pid, .type = DLB_EV_RUNTIME };

	if (!sim->o.trace_runtime)
		return;
	ev.rt.pid = p->pid;
	ev.rt.runtime = delta;
	memcpy(ev.rt.comm, p->comm, DLB_COMM_LEN);
	emit(sim, &ev);
}

static void emit_dl(struct dlb_sim *sim, struct task_struct *p, enum dlb_ev_type type)
{
	struct dlb_event ev = { .cpu = task_cpu(p), .type = type };

	ev.pid = curr_pid(sim, task_cpu(p));
	ev.dl.pid = p->pid;
	ev.dl.runtime = p->dl.runtime;
	ev.dl.deadline = p->dl.deadline;
	memcpy(ev.dl.comm, p->comm, DLB_COMM_LEN);
	emit(sim, &ev);
}

static void cb_throttle(void *arg, struct task_struct *p)
{
	struct dlb_sim *sim = arg;

	thr_of(p)->nr_throttled++;
	emit_dl(sim, p, DLB_EV_THROTTLE);
}

static void cb_replenish(void *arg, struct task_struct *p)
{
	struct dlb_sim *sim = arg;

	thr_of(p)->nr_replenished++;
	if (p->on_cpu)
		mark_dirty(sim, task_cpu(p));
	emit_dl(sim, p, DLB_EV_REPLENISH);
}

/* ---- jobs ------------------------------------------------------------- */

static u64 thr_dl(struct sim_thread *t)
{
	return t->wt->policy == WL_POLICY_DEADLINE ? t->task.dl.dl_deadline : 0;
}

static void emit_job_marker(struct dlb_sim *sim, struct sim_thread *t,
			    enum dlb_marker_kind kind, u64 job, u64 rel)
{
	struct dlb_marker m;

	if (!sim->ev_fn) {	/* nobody reads it: count it, skip building it */
		sim->events++;
		return;
	}
	memset(&m, 0, sizeof(m));
	m.kind = kind;
	m.tid = t->tid;
	m.job = job;
	m.flags = DLB_MF_JOB;
	if (kind != DLB_MARK_JOB_END) {
		m.rel = rel;
		m.flags |= DLB_MF_REL;
		if (thr_dl(t)) {
			m.dl = rel + thr_dl(t);
			m.flags |= DLB_MF_DL;
		}
	}
	emit_marker(sim, task_cpu(&t->task), t->tid, &m);
}

static void emit_release(struct dlb_sim *sim, struct sim_thread *t, u64 rel)
{
	emit_job_marker(sim, t, DLB_MARK_JOB_RELEASE, t->jobs_started, rel);
	t->rel_marked = true;
}

static void job_open(struct dlb_sim *sim, struct sim_thread *t)
{
	t->rel = t->have_next_rel ? t->next_rel : sim->now;
	t->have_next_rel = false;
	if (!t->rel_marked)
		emit_release(sim, t, t->rel);
	t->rel_marked = false;
	t->in_job = true;
	t->begin = sim->now;
	t->exec0 = thr_exec(sim, t);
	t->run_ns = t->period_ns = 0;
	t->slack = 0;
	emit_job_marker(sim, t, DLB_MARK_JOB_BEGIN, t->jobs_started, t->rel);
}

static void job_close(struct dlb_sim *sim, struct sim_thread *t)
{
	struct dlb_sim_job j;
	int rc;

	if (!t->in_job)
		return;
	t->in_job = false;
	memset(&j, 0, sizeof(j));
	j.thread = t->index;
	j.task = t->task_idx;
	j.instance = t->instance;
	j.tid = t->tid;
	j.comm = t->task.comm;
	j.job = t->jobs_started++;
	j.phase = (int)t->phase;
	j.phase_loop = t->ploop;
	j.release = t->rel;
	j.begin = t->begin;
	j.end = sim->now;
	j.deadline = thr_dl(t) ? t->rel + thr_dl(t) : 0;
	j.exec_ns = thr_exec(sim, t) - t->exec0;
	j.run_ns = t->run_ns;
	j.period_ns = t->period_ns;
	j.slack_ns = t->slack;
	j.wu_lat_ns = t->begin - t->rel;
	t->jobs++;
	if (j.deadline && j.end > j.deadline)
		t->jobs_missed++;
	emit_job_marker(sim, t, DLB_MARK_JOB_END, j.job, 0);
	if (sim->job_fn && !sim->stop) {
		rc = sim->job_fn(&j, sim->job_arg);
		if (rc) {
			sim->stop = rc;
			dlb_err_set(&sim->stop_err, DLB_EXIT_INCOMPLETE,
				    "the job consumer stopped the simulation (%d)", rc);
		}
	}
}

/* ---- threads executing the workload ----------------------------------- */

/* Next event; past the last one, the next iteration (a job ends there). */
static void step(struct dlb_sim *sim, struct sim_thread *t)
{
	const struct wl_task *wt = t->wt;

	if (++t->ev < wt->phases[t->phase].nr_events)
		return;
	job_close(sim, t);
	t->ev = 0;
	if (++t->ploop < wt->phases[t->phase].loop)
		return;
	t->ploop = 0;
	if (++t->phase < wt->nr_phases)
		return;
	t->phase = 0;
	t->tloop++;
	if (wt->loop >= 0 && t->tloop >= (wt->loop ? wt->loop : 1))
		t->exit_pending = true;
}

static void block(struct dlb_sim *sim, struct sim_thread *t, int cpu, enum thr_state st,
		  long state)
{
	t->st = st;
	t->task.state = state;
	schedule(sim->s, cpu);
}

static void sleep_until(struct dlb_sim *sim, struct sim_thread *t, int cpu, u64 when)
{
	evq_push(sim, when, SE_WAKE, (int)t->index, ++t->wake_gen);
	block(sim, t, cpu, THR_SLEEP, TASK_INTERRUPTIBLE);
}

static void waitq_add(struct sim_waitq *w, struct sim_thread *t)
{
	t->wait_next = NULL;
	if (w->tail)
		w->tail->wait_next = t;
	else
		w->head = t;
	w->tail = t;
	w->waiting++;
}

static struct sim_thread *waitq_pop(struct sim_waitq *w)
{
	struct sim_thread *t = w->head;

	if (!t)
		return NULL;
	w->head = t->wait_next;
	if (!w->head)
		w->tail = NULL;
	w->waiting--;
	t->wait_next = NULL;
	return t;
}

static void wake_thread(struct dlb_sim *sim, struct sim_thread *t, int this_cpu)
{
	t->st = THR_READY;
	wake_up_process(sim->s, &t->task, this_cpu);
}

static void waitq_wake(struct dlb_sim *sim, struct sim_waitq *w, int cpu, bool all)
{
	struct sim_thread *t;

	while ((t = waitq_pop(w))) {
		wake_thread(sim, t, cpu);
		if (!all)
			break;
	}
}

/* cond wait: release the mutex, sleep on the cond, take the mutex again when woken */
static void cond_wait(struct dlb_sim *sim, struct sim_thread *t, int cpu, int cond, int mutex)
{
	if (mutex >= 0 && sim->mutexes[mutex].owner == &t->task) {
		rt_mutex_unlock(sim->s, &sim->mutexes[mutex], cpu);
		t->relock = mutex;
	}
	waitq_add(&sim->waitq[cond], t);
	block(sim, t, cpu, THR_WAIT, TASK_INTERRUPTIBLE);
}

/*
 * The timer of resource @res as thread @t sees it.  rt-app: a timer whose
 * ref starts with "unique" is private to each thread (its local resource);
 * any other ref names ONE timer shared by every thread and instance that
 * uses it (rt-app.c, case rtapp_timer: rdata->res.timer.t_next), so its
 * next expiry is common: the first use sets it to that thread's t_first,
 * and every use by any thread adds its period to it.  Instances of a task
 * on one shared timer therefore release in turn, not together (rt-app's
 * tutorial: sharing "disturbs the original sequence").
 */
static struct sim_timer *thread_timer(struct dlb_sim *sim, struct sim_thread *t, int res)
{
	struct sim_timer *tm;
	int i;

	if (!sim->wl->resources[res].unique) {
		tm = &sim->timers[res];
		if (!tm->init) {
			tm->init = true;
			tm->t_next = t->t_first;
		}
		return tm;
	}
	for (i = 0; i < t->nr_timers; i++)
		if (t->timers[i].res == res)
			return &t->timers[i];
	/* room for every timer event of the task was made by thread_init() */
	tm = &t->timers[t->nr_timers++];
	tm->res = res;
	tm->init = true;
	tm->t_next = t->t_first;
	return tm;
}

#define ADVANCE_MAX_ZERO_TIME	1000000	/* events at one instant before we call it a livelock */

/* Run thread @t, current on @cpu, until it needs CPU time or blocks. */
static void advance(struct dlb_sim *sim, struct sim_thread *t, int cpu)
{
	unsigned long guard = 0;

	for (;;) {
		const struct wl_phase *ph;
		const struct wl_event *e;
		struct rq *rq = cpu_rq(sim->s, cpu);
		u64 tn;
		bool last;

		if (rq->curr != &t->task || sim->stop)
			return;
		if (++guard > ADVANCE_MAX_ZERO_TIME) {
			sim->stop = -1;
			dlb_err_set(&sim->stop_err, DLB_EXIT_BAD_INPUT,
				    "task %s: %d events without using time (a loop of zero-time events)",
				    t->task.comm, ADVANCE_MAX_ZERO_TIME);
			return;
		}
		if (t->in_run) {
			t->in_run = false;
			step(sim, t);
			continue;
		}
		if (t->exit_pending) {
			struct dlb_marker m = { .kind = DLB_MARK_TASK_EXIT, .tid = t->tid };
			struct dlb_event ev = { .cpu = cpu, .pid = t->tid, .type = DLB_EV_EXIT };

			job_close(sim, t);
			emit_marker(sim, cpu, t->tid, &m);
			ev.exit.pid = t->tid;
			memcpy(ev.exit.comm, t->task.comm, DLB_COMM_LEN);
			emit(sim, &ev);
			t->st = THR_DONE;
			sched_exit_curr(sim->s, cpu);
			return;
		}
		if (t->relock >= 0) {
			int m = t->relock;

			t->relock = -1;
			if (!rt_mutex_lock(sim->s, &sim->mutexes[m], cpu)) {
				block(sim, t, cpu, THR_LOCK, TASK_INTERRUPTIBLE);
				return;
			}
		}
		if (!t->in_job)
			job_open(sim, t);

		ph = &t->wt->phases[t->phase];
		e = &ph->events[t->ev];
		last = t->ev + 1 == ph->nr_events;
		switch (e->type) {
		case WL_EV_RUN:
		case WL_EV_RUNTIME:
			t->run_ns += e->duration_ns;
			if (e->duration_ns) {
				t->work_left = e->duration_ns;
				t->in_run = true;
				return;
			}
			step(sim, t);
			break;
		case WL_EV_SLEEP:
			if (last) {
				job_close(sim, t);
				t->next_rel = sim->now + e->duration_ns;
				t->have_next_rel = true;
			}
			step(sim, t);
			if (e->duration_ns) {
				sleep_until(sim, t, cpu, sim->now + e->duration_ns);
				return;
			}
			break;
		case WL_EV_TIMER: {
			/* rt-app: the first expiry is t_first + period, then every period */
			struct sim_timer *tm = thread_timer(sim, t, e->res);

			tm->t_next += e->duration_ns;
			t->period_ns += e->duration_ns;
			tn = tm->t_next;
			t->slack = (s64)(tn - sim->now);
			if (!dl_time_before(sim->now, tn) && e->timer_relative)
				tm->t_next = tn = sim->now;
			if (last) {
				job_close(sim, t);
				t->next_rel = tn;
				t->have_next_rel = true;
			}
			step(sim, t);
			if (dl_time_before(sim->now, tn)) {
				sleep_until(sim, t, cpu, tn);
				return;
			}
			break;
		}
		case WL_EV_LOCK:
			step(sim, t);
			if (!rt_mutex_lock(sim->s, &sim->mutexes[e->res], cpu)) {
				block(sim, t, cpu, THR_LOCK, TASK_INTERRUPTIBLE);
				return;
			}
			break;
		case WL_EV_UNLOCK:
			step(sim, t);
			if (sim->mutexes[e->res].owner == &t->task)
				rt_mutex_unlock(sim->s, &sim->mutexes[e->res], cpu);
			break;
		case WL_EV_WAIT:
			step(sim, t);
			cond_wait(sim, t, cpu, e->res, e->dep);
			return;
		case WL_EV_SIGNAL:
		case WL_EV_BROAD:
			step(sim, t);
			waitq_wake(sim, &sim->waitq[e->res], cpu, e->type == WL_EV_BROAD);
			break;
		case WL_EV_SYNC:
			step(sim, t);
			waitq_wake(sim, &sim->waitq[e->res], cpu, false);
			cond_wait(sim, t, cpu, e->res, e->dep);
			return;
		case WL_EV_BARRIER: {
			struct sim_waitq *w = &sim->waitq[e->res];
			unsigned int users = sim->wl->resources[e->res].users;

			step(sim, t);
			if (w->waiting + 1 >= users) {
				waitq_wake(sim, w, cpu, true);
				break;
			}
			waitq_add(w, t);
			block(sim, t, cpu, THR_WAIT, TASK_INTERRUPTIBLE);
			return;
		}
		case WL_EV_YIELD:
			step(sim, t);
			sched_yield_curr(sim->s, cpu);
			schedule(sim->s, cpu);
			break;
		case WL_EV_SUSPEND:
			step(sim, t);
			waitq_add(&sim->waitq[e->res], t);
			block(sim, t, cpu, THR_WAIT, TASK_INTERRUPTIBLE);
			return;
		case WL_EV_RESUME:
			step(sim, t);
			waitq_wake(sim, &sim->waitq[e->res], cpu, true);
			break;
		case WL_EV_MEM:
		default:
			step(sim, t);	/* memory traffic takes no CPU time here */
			break;
		}
	}
}

/* ---- planning a CPU's next events ------------------------------------- */

static void replan(struct dlb_sim *sim, int cpu)
{
	struct rq *rq = cpu_rq(sim->s, cpu);
	struct task_struct *curr = rq->curr;
	struct sim_thread *t = thr_of(curr);
	u64 gen = ++sim->cpu_gen[cpu], now = sim->now;

	if (!t || t->st == THR_DONE)
		return;
	settle(sim, t);
	evq_push(sim, now + t->work_left, SE_CPU_WORK, cpu, gen);
	if (sim->o.tick_ns) {
		/*
		 * Ticks fall on every multiple of tick_ns, whatever else
		 * happens on the CPU: a pending tick stays valid across
		 * re-plans (it carries no generation).  Otherwise the next
		 * tick is the first multiple at or after now that has not
		 * been handled yet: a re-plan at a multiple of the tick before
		 * that tick's event must not push it a whole tick later
		 * (issue 13, defect 2: test_sim_options.c: tick_split_work).
		 */
		if (!sim->tick_next[cpu]) {
			u64 next = (now + sim->o.tick_ns - 1) / sim->o.tick_ns * sim->o.tick_ns;

			if (next <= sim->tick_last[cpu])
				next = sim->tick_last[cpu] + sim->o.tick_ns;
			sim->tick_next[cpu] = next;
			evq_push(sim, next, SE_CPU_TICK, cpu, 0);
		}
		return;
	}
	if (dl_task(curr)) {
		/* runtime is accounted up to exec_start: what is left now */
		s64 left = curr->dl.runtime - (s64)(now - curr->se.exec_start);

		/*
		 * Only if the budget ends before the work: a work completion
		 * re-plans the CPU anyway (fewer stale events in the heap).
		 */
		if (left < 0)
			left = 0;
		if (!RB_EMPTY_NODE(&curr->dl.rb_node) && (u64)left < t->work_left)
			evq_push(sim, now + (u64)left, SE_CPU_BUDGET, cpu, gen);
	} else if (curr->policy != SCHED_FIFO || !rt_task(curr)) {
		u64 slice = rt_task(curr) ? RR_TIMESLICE_NS : FAIR_SLICE_NS;
		u64 used = curr->se.slice_used + (now - curr->se.exec_start);

		evq_push(sim, now + (used < slice ? slice - used : 0), SE_CPU_SLICE, cpu, gen);
	}
}

static void replan_dirty(struct dlb_sim *sim)
{
	int i;

	for (i = 0; i < sim->nr_dirty; i++) {
		sim->cpu_dirty[sim->dirty[i]] = 0;
		replan(sim, sim->dirty[i]);
	}
	sim->nr_dirty = 0;
}

/* ---- the event loop --------------------------------------------------- */

static void emit_task_marker(struct dlb_sim *sim, struct sim_thread *t)
{
	struct dlb_marker m;

	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_TASK;
	m.tid = t->tid;
	snprintf(m.name, sizeof(m.name), "%s", t->task.comm);
	m.policy = t->task.policy;
	m.prio = dl_task(&t->task) ? DLB_PRIO_DL : t->task.prio;
	if (task_has_dl_policy(&t->task)) {
		m.flags = DLB_MF_PARAMS;
		m.runtime = t->task.dl.dl_runtime;
		m.deadline = t->task.dl.dl_deadline;
		m.period = t->task.dl.dl_period;
	}
	emit_marker(sim, task_cpu(&t->task), t->tid, &m);
}

static void emit_run_marker(struct dlb_sim *sim, enum dlb_marker_kind kind,
			    enum dlb_run_status status)
{
	struct dlb_marker m;
	const char *name = sim->wl->path ? sim->wl->path : "workload", *slash;

	memset(&m, 0, sizeof(m));
	m.kind = kind;
	m.status = status;
	m.cpus = sim->s->nr_cpus;
	snprintf(m.backend, sizeof(m.backend), "reference");
	snprintf(m.clock, sizeof(m.clock), "virtual");
	slash = strrchr(name, '/');
	snprintf(m.workload, sizeof(m.workload), "%s", slash ? slash + 1 : name);
	emit_marker(sim, 0, 0, &m);
}

static void handle(struct dlb_sim *sim, const struct sim_ev *e)
{
	struct sched *s = sim->s;
	struct sim_thread *t;
	struct rq *rq;

	switch (e->type) {
	case SE_START:
		t = &sim->thr[e->idx];
		t->t_first = sim->now;
		t->next_rel = sim->now;
		t->have_next_rel = true;
		emit_task_marker(sim, t);
		emit_release(sim, t, sim->now);
		wake_thread(sim, t, task_cpu(&t->task));
		break;
	case SE_WAKE:
		t = &sim->thr[e->idx];
		if (e->gen != t->wake_gen || t->st != THR_SLEEP)
			break;
		if (t->have_next_rel && t->next_rel == sim->now)
			emit_release(sim, t, sim->now);
		wake_thread(sim, t, task_cpu(&t->task));
		break;
	case SE_DL_TIMER:
		t = &sim->thr[e->idx];
		if (e->gen != t->timer_gen)
			break;
		sched_dl_timer_fire(s, &t->task);
		mark_dirty(sim, task_cpu(&t->task));
		break;
	case SE_CPU_WORK:
		if (e->gen != sim->cpu_gen[e->idx])
			break;
		t = thr_of(cpu_rq(s, e->idx)->curr);
		if (!t)
			break;
		settle(sim, t);
		mark_dirty(sim, e->idx);
		if (!t->work_left)
			advance(sim, t, e->idx);
		break;
	case SE_CPU_BUDGET:
	case SE_CPU_SLICE:
		if (e->gen != sim->cpu_gen[e->idx])
			break;
		scheduler_tick(s, e->idx, 1);
		mark_dirty(sim, e->idx);
		break;
	case SE_CPU_TICK:
		sim->tick_next[e->idx] = 0;
		sim->tick_last[e->idx] = sim->now;
		scheduler_tick(s, e->idx, 0);
		mark_dirty(sim, e->idx);
		break;
	case SE_RESCHED:
		rq = cpu_rq(s, e->idx);
		if (rq->need_resched) {
			schedule(s, e->idx);
			mark_dirty(sim, e->idx);
		}
		break;
	}
}

int dlb_sim_run(struct dlb_sim *sim, struct dlb_err *err)
{
	struct dlb_err ierr;
	size_t i;

	sim->now = sim->s->now = 0;
	emit_run_marker(sim, DLB_MARK_RUN_START, DLB_RUN_COMPLETE);
	for (i = 0; i < sim->nr_thr; i++)
		evq_push(sim, sim->thr[i].wt->delay_ns, SE_START, (int)i, 0);

	while (!evq_empty(sim) && !sim->stop) {
		struct sim_ev e;

		if (sim->o.interrupt && *sim->o.interrupt) {
			/* the run ends here, what was simulated is kept */
			emit_run_marker(sim, DLB_MARK_RUN_END, DLB_RUN_INCOMPLETE);
			if (err)
				dlb_err_set(err, DLB_EXIT_INCOMPLETE,
					    "interrupted at %llu ns of simulated time",
					    (unsigned long long)sim->now);
			return -1;
		}
		e = evq_pop(sim);

		if (e.time >= sim->end) {
			sim->now = sim->s->now = sim->end;
			break;
		}
		sim->now = sim->s->now = e.time;
		sim->steps++;
		if (sim->progress_fn && !(sim->steps & (DLB_SIM_PROGRESS_STEPS - 1)))
			sim->progress_fn(sim->now, sim->end, sim->progress_arg);
		handle(sim, &e);
		replan_dirty(sim);
		if (sim->o.check && !sim->stop && check_sched_invariants(sim->s, &ierr) < 0) {
			sim->stop = -1;
			dlb_err_set(&sim->stop_err, DLB_EXIT_INTERNAL, "at %llu ns: %s",
				    (unsigned long long)sim->now, ierr.msg);
		}
	}
	if (sim->stop) {
		if (err)
			*err = sim->stop_err;
		return -1;
	}
	emit_run_marker(sim, DLB_MARK_RUN_END, DLB_RUN_COMPLETE);
	if (sim->stop) {
		if (err)
			*err = sim->stop_err;
		return -1;
	}
	return 0;
}

/* ---- creation ----------------------------------------------------------- */

void dlb_sim_opts_init(struct dlb_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nr_cpus = 1;
	o->cpu_select = DLB_SIM_HEAP;
	o->admission = true;
	o->rt_runtime_us = RT_RUNTIME_US_DEFAULT;
	o->rt_period_us = RT_PERIOD_US_DEFAULT;
	o->reserved_bw = to_ratio(NSEC_PER_SEC, 50 * NSEC_PER_MSEC);
	o->max_time_ns = DLB_SIM_MAX_TIME_NS;
	o->timed = true;
	o->first_tid = 1000;
}

static int sim_policy(enum wl_policy p)
{
	return (int)p;	/* the workload model uses the kernel's numbers */
}

static int thread_init(struct dlb_sim *sim, struct sim_thread *t, size_t idx, int task_idx,
		       int instance, struct dlb_err *err)
{
	const struct wl_task *wt = &sim->wl->tasks[task_idx];
	struct sched *s = sim->s;
	size_t ph, ev, nr_timers = 0;
	char comm[64];
	int prio = 0;

	t->wt = wt;
	t->index = idx;
	t->task_idx = task_idx;
	t->instance = instance;
	t->tid = sim->o.first_tid + (int)idx;
	t->relock = -1;
	t->last_cpu = -1;
	t->st = THR_NEW;
	/* upstream rt-app (thread_data_set_unique_name): "<task>-<thread index>" */
	snprintf(comm, sizeof(comm), "%s-%zu", wt->name, idx);
	t->task.owner = t;
	sched_task_init(s, &t->task, t->tid, comm, (int)(idx % (size_t)s->nr_cpus));
	if (!wt->nr_phases)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task %s: no events", wt->name);
	/* the thread's own ("unique") timers, at most one per timer event: no allocation later */
	for (ph = 0; ph < wt->nr_phases; ph++)
		for (ev = 0; ev < wt->phases[ph].nr_events; ev++)
			nr_timers += wt->phases[ph].events[ev].type == WL_EV_TIMER;
	if (nr_timers) {
		t->timers = calloc(nr_timers, sizeof(*t->timers));
		if (!t->timers)
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	}
	if (wt->has_cpus && sched_setaffinity(s, &t->task, &wt->cpus, err) < 0)
		return dlb_err_prefix(err, "task %s", wt->name);
	if (wt->policy == WL_POLICY_FIFO || wt->policy == WL_POLICY_RR)
		prio = wt->priority;
	else if (wt->policy != WL_POLICY_DEADLINE)
		prio = wt->priority;
	return sched_setattr(s, &t->task, sim_policy(wt->policy), prio, &wt->dl, sim->o.lim, err);
}

struct dlb_sim *dlb_sim_create(const struct workload *wl, const struct dlb_sim_opts *opts,
			       struct dlb_err *err)
{
	struct sched_create_opts so;
	struct sched_ops ops;
	struct dlb_sim *sim;
	size_t i, n = 0;
	int ti, inst;

	if (opts->nr_cpus < 1 || opts->nr_cpus > DLB_MAX_CPUS) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "cpus: %d is not in 1..%d", opts->nr_cpus,
			    DLB_MAX_CPUS);
		return NULL;
	}
	if (opts->rt_period_us == 0 || opts->rt_runtime_us > opts->rt_period_us) {
		dlb_err_set(err, DLB_EXIT_BAD_INPUT,
			    "admission: rt runtime %llu us must be at most the rt period %llu us (> 0)",
			    (unsigned long long)opts->rt_runtime_us,
			    (unsigned long long)opts->rt_period_us);
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		goto nomem;
	sim->wl = wl;
	sim->o = *opts;
	memset(&ops, 0, sizeof(ops));
	ops.resched_cpu = cb_resched;
	ops.timer_start = cb_timer_start;
	ops.timer_cancel = cb_timer_cancel;
	ops.trace_switch = cb_switch;
	ops.trace_wakeup = cb_wakeup;
	ops.trace_migrate = cb_migrate;
	ops.trace_runtime = cb_runtime;
	ops.trace_throttle = cb_throttle;
	ops.trace_replenish = cb_replenish;
	ops.arg = sim;
	memset(&so, 0, sizeof(so));
	so.nr_cpus = opts->nr_cpus;
	so.cpu_select = opts->cpu_select == DLB_SIM_LINEAR ? CPU_SELECT_LINEAR : CPU_SELECT_HEAP;
	so.admission = opts->admission;
	so.rt_runtime_us = opts->rt_runtime_us;
	so.rt_period_us = opts->rt_period_us;
	so.reserved_bw = opts->reserved_bw;
	so.timed = opts->timed;
	sim->s = sched_create(&so, &ops, err);
	if (!sim->s) {
		free(sim);
		return NULL;
	}

	for (i = 0; i < wl->nr_tasks; i++)
		n += (size_t)(wl->tasks[i].instances > 0 ? wl->tasks[i].instances : 1);
	sim->nr_thr = n;
	sim->thr = calloc(n ? n : 1, sizeof(*sim->thr));
	sim->mutexes = calloc(wl->nr_resources + 1, sizeof(*sim->mutexes));
	sim->waitq = calloc(wl->nr_resources + 1, sizeof(*sim->waitq));
	sim->timers = calloc(wl->nr_resources + 1, sizeof(*sim->timers));
	sim->cpu_gen = calloc((size_t)opts->nr_cpus, sizeof(*sim->cpu_gen));
	sim->tick_next = calloc((size_t)opts->nr_cpus, sizeof(*sim->tick_next));
	sim->tick_last = calloc((size_t)opts->nr_cpus, sizeof(*sim->tick_last));
	sim->cpu_dirty = calloc((size_t)opts->nr_cpus, 1);
	sim->dirty = calloc((size_t)opts->nr_cpus, sizeof(*sim->dirty));
	if (!sim->thr || !sim->mutexes || !sim->waitq || !sim->timers || !sim->cpu_gen ||
	    !sim->tick_next || !sim->tick_last || !sim->cpu_dirty || !sim->dirty)
		goto nomem_free;
	for (i = 0; i < wl->nr_resources; i++)
		sim->mutexes[i].pi = wl->global.pi_enabled;

	n = 0;
	for (ti = 0; ti < (int)wl->nr_tasks; ti++) {
		int ninst = wl->tasks[ti].instances > 0 ? wl->tasks[ti].instances : 1;

		for (inst = 0; inst < ninst; inst++, n++)
			if (thread_init(sim, &sim->thr[n], n, ti, inst, err) < 0)
				goto fail;
	}

	sim->end = opts->duration_ns ? opts->duration_ns : wl->global.duration_ns;
	if (!sim->end)
		sim->end = opts->max_time_ns ? opts->max_time_ns : UINT64_MAX;
	return sim;

nomem_free:
	dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
fail:
	dlb_sim_free(sim);
	return NULL;
nomem:
	dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	return NULL;
}

void dlb_sim_free(struct dlb_sim *sim)
{
	size_t i;

	if (!sim)
		return;
	for (i = 0; sim->thr && i < sim->nr_thr; i++)
		free(sim->thr[i].timers);
	free(sim->thr);
	free(sim->mutexes);
	free(sim->waitq);
	free(sim->timers);
	free(sim->cpu_gen);
	free(sim->tick_next);
	free(sim->tick_last);
	free(sim->cpu_dirty);
	free(sim->dirty);
	free(sim->q.h);
	free(sim->now_q.h);
	sched_free(sim->s);
	free(sim);
}

void dlb_sim_set_event_hook(struct dlb_sim *sim, dlb_event_fn fn, void *arg)
{
	sim->ev_fn = fn;
	sim->ev_arg = arg;
}

void dlb_sim_set_progress_hook(struct dlb_sim *sim, dlb_sim_progress_fn fn, void *arg)
{
	sim->progress_fn = fn;
	sim->progress_arg = arg;
}

void dlb_sim_set_job_hook(struct dlb_sim *sim, dlb_sim_job_fn fn, void *arg)
{
	sim->job_fn = fn;
	sim->job_arg = arg;
}

void dlb_sim_set_op_hook(struct dlb_sim *sim, dlb_op_fn fn, void *arg)
{
	sim->s->opstat.hook = fn;
	sim->s->opstat.hook_arg = arg;
}

void dlb_sim_set_push_hook(struct dlb_sim *sim, dlb_push_fn fn, void *arg)
{
	sim->s->opstat.push_hook = fn;
	sim->s->opstat.push_arg = arg;
}

size_t dlb_sim_nr_threads(const struct dlb_sim *sim)
{
	return sim->nr_thr;
}

int dlb_sim_nr_cpus(const struct dlb_sim *sim)
{
	return sim->s->nr_cpus;
}

int dlb_sim_task_stats(const struct dlb_sim *sim, size_t i, struct dlb_sim_task_stats *st)
{
	const struct sim_thread *t;
	const struct task_struct *p;

	if (i >= sim->nr_thr)
		return -1;
	t = &sim->thr[i];
	p = &t->task;
	memset(st, 0, sizeof(*st));
	st->tid = t->tid;
	memcpy(st->comm, p->comm, DLB_COMM_LEN);
	st->task = t->task_idx;
	st->instance = t->instance;
	st->policy = p->policy;
	st->prio = dl_task(p) ? DLB_PRIO_DL : p->prio;
	st->dl_runtime = p->dl.dl_runtime;
	st->dl_deadline = p->dl.dl_deadline;
	st->dl_period = p->dl.dl_period;
	st->dl_runtime_left = p->dl.runtime;
	st->dl_deadline_abs = p->dl.deadline;
	st->sum_exec_runtime = thr_exec((struct dlb_sim *)sim, (struct sim_thread *)t);
	st->nr_switches = p->nr_switches;
	st->nr_voluntary_switches = p->nr_voluntary_switches;
	st->nr_involuntary_switches = p->nr_involuntary_switches;
	st->nr_migrations = p->se.nr_migrations;
	st->nr_wakeups = p->se.nr_wakeups;
	st->last_dmiss = p->dl.stats.last_dmiss;
	st->dmiss_max = p->dl.stats.dmiss_max;
	st->last_rorun = p->dl.stats.last_rorun;
	st->rorun_max = p->dl.stats.rorun_max;
	st->nr_throttled = t->nr_throttled;
	st->nr_replenished = t->nr_replenished;
	st->jobs = t->jobs;
	st->jobs_missed = t->jobs_missed;
	if (thr_dl((struct sim_thread *)t) && t->st != THR_DONE) {
		u64 rel = t->in_job ? t->rel : t->have_next_rel ? t->next_rel : UINT64_MAX;

		st->late_pending = rel != UINT64_MAX && rel + thr_dl((struct sim_thread *)t) < sim->now;
	}
	return 0;
}

const struct dlb_opcount *dlb_sim_opcount(const struct dlb_sim *sim, enum dlb_op op)
{
	return &sim->s->opstat.op[op];
}

u64 dlb_sim_now(const struct dlb_sim *sim)
{
	return sim->now;
}

u64 dlb_sim_nr_steps(const struct dlb_sim *sim)
{
	return sim->steps;
}

u64 dlb_sim_nr_events(const struct dlb_sim *sim)
{
	return sim->events;
}

const char *dlb_sim_comm(const struct dlb_sim *sim, int pid)
{
	int i = pid - sim->o.first_tid;

	if (pid == 0)
		return "<idle>";
	if (i < 0 || (size_t)i >= sim->nr_thr)
		return NULL;
	return sim->thr[i].task.comm;
}

/* /proc/PID/sched layout: P() "%-45s:%21lld", PN() "%-45s:%14lld.%06lld" (ms.ns). */
int dlb_sim_write_sched(FILE *f, const struct dlb_sim_task_stats *st)
{
#define P(name, v) fprintf(f, "%-45s:%21lld\n", name, (long long)(v))
#define PN(name, v) fprintf(f, "%-45s:%14lld.%06lld\n", name, (long long)((v) / 1000000), \
			    (long long)((v) % 1000000))
	fprintf(f, "%s (%d, #threads: 1)\n", st->comm, st->tid);
	fprintf(f, "-------------------------------------------------------------------\n");
	PN("se.sum_exec_runtime", st->sum_exec_runtime);
	P("se.nr_migrations", st->nr_migrations);
	P("se.statistics.nr_wakeups", st->nr_wakeups);
	P("nr_switches", st->nr_switches);
	P("nr_voluntary_switches", st->nr_voluntary_switches);
	P("nr_involuntary_switches", st->nr_involuntary_switches);
	P("policy", st->policy);
	P("prio", st->prio);
	if (st->policy == SCHED_DEADLINE) {
		P("dl.runtime", st->dl_runtime_left);
		P("dl.deadline", st->dl_deadline_abs);
		PN("dl.stats.last_dmiss", st->last_dmiss);
		PN("dl.stats.dmiss_max", st->dmiss_max);
		PN("dl.stats.last_rorun", st->last_rorun);
		PN("dl.stats.rorun_max", st->rorun_max);
		P("dl.nr_throttled", st->nr_throttled);
		P("dl.nr_replenished", st->nr_replenished);
	}
	P("jobs", st->jobs);
	P("jobs_missed", st->jobs_missed);
#undef P
#undef PN
	return ferror(f) ? -1 : 0;
}

const char *dlb_sim_cpu_select_str(enum dlb_sim_cpu_select sel)
{
	return sel == DLB_SIM_LINEAR ? "linear" : "heap";
}

int dlb_sim_cpu_select_parse(const char *s, enum dlb_sim_cpu_select *sel)
{
	if (!strcmp(s, "heap"))
		*sel = DLB_SIM_HEAP;
	else if (!strcmp(s, "linear"))
		*sel = DLB_SIM_LINEAR;
	else
		return -1;
	return 0;
}
