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

#include "sim_local.h"

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

void evq_push(struct dlb_sim *sim, u64 time, int type, int idx, u64 gen)
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

static void mark_dirty(struct dlb_sim *sim, int cpu)
{
	if (sim->cpu_dirty[cpu])
		return;
	sim->cpu_dirty[cpu] = 1;
	sim->dirty[sim->nr_dirty++] = cpu;
}

void emit(struct dlb_sim *sim, struct dlb_event *ev)
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
void emit_marker(struct dlb_sim *sim, int cpu, int pid, const struct dlb_marker *m)
{
	struct dlb_event ev = { .cpu = cpu, .pid = pid, .type = DLB_EV_MARKER };
	char buf[DLB_MARKER_MAX];
	int n;

	if (!sim->ev_fn) {
		sim->events++;
		return;
	}
	/* three a job, 4.6 million in the replay of a 60 s run of 640 tasks */
	buf[0] = '\0';
	if (sim->o.job_marker_structs && (m->kind == DLB_MARK_JOB_RELEASE ||
					  m->kind == DLB_MARK_JOB_BEGIN ||
					  m->kind == DLB_MARK_JOB_END))
		n = 0;
	else
		n = dlb_marker_format(buf, sizeof(buf), m);
	if (n < 0)
		return;		/* cannot happen: our fields fit DLB_MARKER_MAX */
	ev.mark.text = buf;
	ev.mark.len = (size_t)n;
	sim->ev_marker = m;
	emit(sim, &ev);
	sim->ev_marker = NULL;
}

u64 thr_exec(struct dlb_sim *sim, struct sim_thread *t)
{
	u64 e = t->task.se.sum_exec_runtime, now = sim->now;

	/* a DL task's exec_start is on rq_clock_task(), less uncharged interrupts */
	if (t->task.on_cpu && dl_task(&t->task))
		now = rq_clock_task(task_rq(&t->task));
	/* the running task's time since its last accounting */
	if (t->task.on_cpu && t->task.se.exec_start && now > t->task.se.exec_start)
		e += now - t->task.se.exec_start;
	return e;
}

/* ---- scheduler callbacks ---------------------------------------------- */

static void settle(struct dlb_sim *sim, struct sim_thread *t)
{
	u64 d;

	if (!t->running)
		return;
	/* no progress while its CPU was taken (sim_unavail.c) */
	d = sim->now - t->run_start - sim_unavail_between(sim, t->last_cpu, t->run_start, sim->now);
	t->work_left -= d < t->work_left ? d : t->work_left;
	t->run_start = sim->now;
}

static void cb_resched(void *arg, int cpu)
{
	struct dlb_sim *sim = arg;

	evq_push(sim, sim->now, SE_RESCHED, cpu, 0);
}

/*
 * A thread's replenishment timer is event index >= 0; a CPU's fair server
 * (mainline model, rq->fair_server, no thread) is -1 - cpu.
 */
static void cb_timer_start(void *arg, struct task_struct *p, u64 expires)
{
	struct dlb_sim *sim = arg;
	struct sim_thread *t = thr_of(p);

	if (!t) {
		evq_push(sim, expires, SE_DL_TIMER, -1 - task_cpu(p),
			 ++sim->server_timer_gen[task_cpu(p)]);
		return;
	}
	evq_push(sim, expires, SE_DL_TIMER, (int)t->index, ++t->timer_gen);
}

static void cb_timer_cancel(void *arg, struct task_struct *p)
{
	struct dlb_sim *sim = arg;
	struct sim_thread *t = thr_of(p);

	if (!t)
		sim->server_timer_gen[task_cpu(p)]++;
	else
		t->timer_gen++;
}

static void cb_inactive_start(void *arg, struct task_struct *p, u64 expires)
{
	struct dlb_sim *sim = arg;
	struct sim_thread *t = thr_of(p);

	if (t)
		evq_push(sim, expires, SE_INACTIVE_TIMER, (int)t->index, ++t->inactive_gen);
}

static void cb_inactive_cancel(void *arg, struct task_struct *p)
{
	struct sim_thread *t = thr_of(p);

	(void)arg;
	if (t)
		t->inactive_gen++;
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
	/* a fair arrival shortens the running fair task's slice (sched_list_slice()) */
	if (p->sched_class == &fair_sched_class)
		mark_dirty(sim, cpu);
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

/* ---- planning a CPU's next events ------------------------------------- */

static void replan(struct dlb_sim *sim, int cpu)
{
	struct rq *rq = cpu_rq(sim->s, cpu);
	struct task_struct *curr = rq->curr;
	struct sim_thread *t = thr_of(curr);
	u64 gen = ++sim->cpu_gen[cpu], now = sim->now, work_wall;

	if (!t || t->st == THR_DONE)
		return;
	settle(sim, t);
	/* the work's end, later by the CPU's unavailable time until then */
	work_wall = sim_avail_after(sim, cpu, now, t->work_left) - now;
	evq_push(sim, now + work_wall, SE_CPU_WORK, cpu, gen);
	if (sim->o.tick_ns) {
		/*
		 * Ticks fall on every multiple of tick_ns (plus the CPU's
		 * phase), whatever else happens on the CPU: a pending tick
		 * stays valid across re-plans (it carries no generation).
		 * Otherwise the next tick is the first one at or after now
		 * that has not been handled yet: a re-plan at a tick's
		 * instant before that tick's event must not push it a whole
		 * tick later (issue 13, defect 2: test_sim_options.c:
		 * tick_split_work).
		 */
		if (!sim->tick_next[cpu]) {
			u64 ph = sim->o.tick_phase ? sim->o.tick_phase[cpu] : 0;
			u64 next = now <= ph ? ph :
				   ph + (now - ph + sim->o.tick_ns - 1) / sim->o.tick_ns * sim->o.tick_ns;

			if (next <= sim->tick_last[cpu])
				next = sim->tick_last[cpu] + sim->o.tick_ns;
			sim->tick_next[cpu] = next;
			evq_push(sim, next, SE_CPU_TICK, cpu, 0);
		}
		return;
	}
	if (dl_task(curr)) {
		/* runtime is accounted up to exec_start: what is left now */
		s64 left = curr->dl.runtime;
		u64 wall, ran = rq_clock_task(rq) - curr->se.exec_start;

		/* a reclaiming task (GRUB) uses its runtime slower than time passes */
		wall = sched_dl_budget_wall(rq, curr, left);
		wall = wall > ran ? wall - ran : 0;
		/* later by the interrupts it is not charged (irq_time_accounting) */
		wall = sim_charged_after(sim, cpu, now, wall) - now;
		/*
		 * Only if the budget ends before the work: a work completion
		 * re-plans the CPU anyway (fewer stale events in the heap).
		 */
		if (!RB_EMPTY_NODE(&curr->dl.rb_node) && wall < work_wall)
			evq_push(sim, now + wall, SE_CPU_BUDGET, cpu, gen);
	} else if (rq->dl_server) {
		/*
		 * A fair task run by the fair server: the server's budget ends
		 * it.  Mainline's update_curr_dl_se() ignores a zero delta, so
		 * a server picked with nothing left (a wake-up whose CBS test
		 * kept a spent budget) is throttled only once time has passed,
		 * as at the kernel's next tick: the budget event is at least
		 * 1 ns ahead, or it would fire at this instant for ever.
		 */
		s64 left = rq->dl_server->runtime - (s64)(now - curr->se.exec_start);

		if (left < 1)
			left = 1;
		if ((u64)left < work_wall)
			evq_push(sim, now + (u64)left, SE_CPU_BUDGET, cpu, gen);
	}
	if (!dl_task(curr) && (curr->policy != SCHED_FIFO || !rt_task(curr))) {
		u64 slice = sched_list_slice(rq, curr);
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
		t = sim->thr[e->idx];
		/* a forked thread's t_first is still the run's start + its delay */
		dlb_interp_start_forked(&t->it, t->wt->delay_ns, sim->now);
		emit_task_marker(sim, t);
		if (t->it.have_next_rel)	/* not a sporadic task's: its resume releases it */
			sim_thread_release(sim, t, sim->now);
		sim_thread_wake(sim, t, task_cpu(&t->task));
		break;
	case SE_WAKE:
		t = sim->thr[e->idx];
		if (e->gen != t->wake_gen || t->st != THR_SLEEP)
			break;
		if (t->it.have_next_rel && t->it.next_rel == sim->now)
			sim_thread_release(sim, t, sim->now);
		sim_thread_wake(sim, t, task_cpu(&t->task));
		break;
	case SE_DL_TIMER:
		if (e->idx < 0) {
			int cpu = -1 - e->idx;

			if (e->gen != sim->server_timer_gen[cpu])
				break;
			sched_dl_timer_fire(s, &cpu_rq(s, cpu)->fair_server);
			mark_dirty(sim, cpu);
			break;
		}
		t = sim->thr[e->idx];
		if (e->gen != t->timer_gen)
			break;
		sched_dl_timer_fire(s, &t->task);
		mark_dirty(sim, task_cpu(&t->task));
		break;
	case SE_INACTIVE_TIMER:
		t = sim->thr[e->idx];
		if (e->gen != t->inactive_gen)
			break;
		sched_inactive_timer_fire(s, &t->task);
		/* running_bw changed: a reclaiming curr's budget end moves */
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
			sim_thread_advance(sim, t, e->idx);
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
	case SE_CPU_UA_START:
	case SE_CPU_UA_END:
		s->this_cpu = e->idx;
		update_rq_clock(cpu_rq(s, e->idx));
		sim_unavail_event(sim, e);
		mark_dirty(sim, e->idx);
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
		evq_push(sim, sim->thr[i]->wt->delay_ns, SE_START, (int)i, 0);
	sim_unavail_start(sim);

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
	strcpy(o->model, dl_model_v4.name);
	o->reserved_bw = dl_model_v4.fair_server_bw;
	o->max_time_ns = DLB_SIM_MAX_TIME_NS;
	o->timed = true;
	o->first_tid = 1000;
}

int dlb_sim_opts_model(struct dlb_sim_opts *o, const char *name)
{
	struct dl_model m;

	if (strlen(name) >= sizeof(o->model) || dl_model_parse(name, &m) < 0)
		return -1;
	strcpy(o->model, name);
	o->reserved_bw = m.fair_server_bw;
	return 0;
}

int dlb_sim_model_fair_server(const char *name, u64 *runtime, u64 *period)
{
	struct dl_model m;

	*runtime = *period = 0;
	if (dl_model_parse(name, &m) < 0)
		return -1;
	*runtime = m.fair_server_runtime;
	*period = m.fair_server_period;
	return 0;
}

/*
 * The model a traced kernel runs (docs/conformance.md, "Model"): its
 * MAJ.MIN when a mainline model of it exists (3.14 .. newest), the newest
 * for a later kernel, v4 (the seeds, before SCHED_DEADLINE was merged) for
 * an earlier one; a reference run: the model it ran (v4, the default, when
 * it does not say); an unknown kernel: v4.
 */
const char *dlb_sim_model_for(const char *backend, const char *kernel, const char *run_model,
			      char *buf, size_t size)
{
	unsigned int maj, min;

	if (backend && !strcmp(backend, "reference") && run_model && run_model[0]) {
		snprintf(buf, size, "%s", run_model);
		return "the reference run's own model";
	}
	if ((backend && !strcmp(backend, "reference")) || !kernel ||
	    sscanf(kernel, "%u.%u", &maj, &min) != 2 || maj > 99 || min > 999 ||
	    DL_KVER(maj, min) < DL_KVER(3, 14)) {
		snprintf(buf, size, "%s", dl_model_v4.name);
		return backend && !strcmp(backend, "reference") ? "the reference's default" :
			kernel && kernel[0] ? "a kernel before 3.14, or no version in its name" :
			"the kernel is unknown";
	}
	if (DL_KVER(maj, min) > DL_KVER_NEWEST) {
		snprintf(buf, size, "mainline");
		return "a kernel newer than the newest model";
	}
	snprintf(buf, size, "mainline:%u.%u", maj, min);
	return "the traced kernel's version";
}

static int sim_policy(enum wl_policy p)
{
	return (int)p;	/* the workload model uses the kernel's numbers */
}

/*
 * A phase's cpus need a CPU of this machine, as the task's do
 * (sched_setaffinity: EINVAL): checked before the run, so the phase
 * change itself cannot fail.
 */
static int check_phase_cpus(struct sched *s, const struct wl_task *wt, struct dlb_err *err)
{
	unsigned int c;
	size_t p;

	for (p = 0; p < wt->nr_phases; p++) {
		if (!wt->phases[p].has_cpus)
			continue;
		c = dlb_cpumask_next(&wt->phases[p].cpus, 0);
		if ((int)c >= s->nr_cpus)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task %s: phase %s: "
					   "sched_setaffinity: EINVAL: no CPU of the mask below %d",
					   wt->name, wt->phases[p].name, s->nr_cpus);
	}
	return 0;
}

static int thread_init(struct dlb_sim *sim, struct sim_thread *t, size_t idx, int task_idx,
		       int instance, int fork, struct dlb_err *err)
{
	const struct wl_task *wt = &sim->wl->tasks[task_idx];
	struct sched *s = sim->s;
	char comm[64];
	int prio = 0;

	t->sim = sim;
	t->wt = wt;
	t->index = idx;
	t->task_idx = task_idx;
	t->instance = instance;
	t->fork = fork;
	t->tid = sim->o.first_tid + (int)idx;
	t->relock = -1;
	t->last_cpu = -1;
	t->st = THR_NEW;
	/* upstream rt-app (thread_data_set_unique_name): "<task>-<thread index>[-<fork>]" */
	wl_thread_name(comm, sizeof(comm), wt, idx, fork);
	t->task.owner = t;
	sched_task_init(s, &t->task, t->tid, comm, (int)(idx % (size_t)s->nr_cpus));
	if (sim_thread_init(sim, t, err))
		return -1;
	if (wt->has_cpus && sched_setaffinity(s, &t->task, &wt->cpus, err) < 0)
		return dlb_err_prefix(err, "task %s", wt->name);
	if (check_phase_cpus(s, wt, err))
		return -1;
	if (wt->policy == WL_POLICY_FIFO || wt->policy == WL_POLICY_RR)
		prio = wt->priority;
	else if (wt->policy != WL_POLICY_DEADLINE)
		prio = wt->priority;
	return sched_setattr(s, &t->task, sim_policy(wt->policy), prio, &wt->dl, sim->o.lim, err);
}

/*
 * rt-app's fork (rt-app.c, case rtapp_fork): one more thread of task
 * @task_idx, the run's next thread index, set up as the others (its
 * sched_setattr now: a refusal stops the run, as rt-app exits), started
 * now or at its delay from the run's start if that is later.  0, or -1
 * with the run stopped and sim->stop_err set.
 */
int sim_fork(struct dlb_sim *sim, struct sim_thread *parent, int task_idx)
{
	const struct wl_task *wt = &sim->wl->tasks[task_idx];
	struct sim_thread *t;
	struct dlb_err err;
	size_t n = sim->nr_thr;

	if (sim->forks[task_idx] >= WL_FORK_LIMIT || n >= sim->cap_thr) {
		sim->stop = -1;
		return dlb_err_set(&sim->stop_err, DLB_EXIT_BAD_INPUT, "%s: fork of '%s' at %llu "
				   "ns: %d forks of a task at most (rt-app's limit, where it exits)",
				   parent->task.comm, wt->name, (unsigned long long)sim->now,
				   WL_FORK_LIMIT);
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		sim->stop = -1;
		return dlb_err_set(&sim->stop_err, DLB_EXIT_INTERNAL, "out of memory");
	}
	sim->thr[sim->nr_thr++] = t;	/* freed with the others, even on failure */
	dlb_err_clear(&err);
	if (thread_init(sim, t, n, task_idx, wt->instances + sim->forks[task_idx],
			sim->forks[task_idx], &err) < 0) {
		sim->stop = -1;
		sim->stop_err = err;
		return dlb_err_prefix(&sim->stop_err, "%s: fork of '%s' at %llu ns",
				      parent->task.comm, wt->name, (unsigned long long)sim->now);
	}
	sim->forks[task_idx]++;
	evq_push(sim, dl_time_before(sim->now, wt->delay_ns) ? wt->delay_ns : sim->now,
		 SE_START, (int)n, 0);
	return 0;
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
	for (ti = 0; opts->tick_phase && ti < opts->nr_cpus; ti++)
		if (opts->tick_phase[ti] && opts->tick_phase[ti] >= opts->tick_ns) {
			dlb_err_set(err, DLB_EXIT_BAD_INPUT, "tick phase of CPU %d: %llu ns is not "
				    "below the tick (%llu ns)", ti,
				    (unsigned long long)opts->tick_phase[ti],
				    (unsigned long long)opts->tick_ns);
			return NULL;
		}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		goto nomem;
	if (dl_model_parse(opts->model, &sim->model) < 0) {
		free(sim);
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "model: '%s' is not v4 or mainline[:MAJ.MIN]",
			    opts->model);
		return NULL;
	}
	sim->wl = wl;
	sim->o = *opts;
	memset(&ops, 0, sizeof(ops));
	ops.resched_cpu = cb_resched;
	ops.timer_start = cb_timer_start;
	ops.timer_cancel = cb_timer_cancel;
	ops.inactive_timer_start = cb_inactive_start;
	ops.inactive_timer_cancel = cb_inactive_cancel;
	ops.trace_switch = cb_switch;
	ops.trace_wakeup = cb_wakeup;
	ops.trace_migrate = cb_migrate;
	ops.trace_runtime = cb_runtime;
	ops.trace_throttle = cb_throttle;
	ops.trace_replenish = cb_replenish;
	if (opts->irq_time_accounting && opts->nr_unavail)
		ops.irq_time = sim_irq_time;
	ops.arg = sim;
	memset(&so, 0, sizeof(so));
	so.nr_cpus = opts->nr_cpus;
	so.cpu_select = opts->cpu_select == DLB_SIM_LINEAR ? CPU_SELECT_LINEAR : CPU_SELECT_HEAP;
	so.admission = opts->admission;
	so.rt_runtime_us = opts->rt_runtime_us;
	so.rt_period_us = opts->rt_period_us;
	so.reserved_bw = opts->reserved_bw;
	so.model = &sim->model;
	so.timed = opts->timed;
	sim->s = sched_create(&so, &ops, err);
	if (!sim->s) {
		free(sim);
		return NULL;
	}

	sim->cap_thr = wl_max_threads(wl);
	sim->thr = calloc(sim->cap_thr ? sim->cap_thr : 1, sizeof(*sim->thr));
	sim->forks = calloc(wl->nr_tasks ? wl->nr_tasks : 1, sizeof(*sim->forks));
	sim->mutexes = calloc(wl->nr_resources + 1, sizeof(*sim->mutexes));
	sim->waitq = calloc(wl->nr_resources + 1, sizeof(*sim->waitq));
	sim->timers = calloc(wl->nr_resources + 1, sizeof(*sim->timers));
	sim->cpu_gen = calloc((size_t)opts->nr_cpus, sizeof(*sim->cpu_gen));
	sim->tick_next = calloc((size_t)opts->nr_cpus, sizeof(*sim->tick_next));
	sim->tick_last = calloc((size_t)opts->nr_cpus, sizeof(*sim->tick_last));
	sim->server_timer_gen = calloc((size_t)opts->nr_cpus, sizeof(*sim->server_timer_gen));
	sim->cpu_dirty = calloc((size_t)opts->nr_cpus, 1);
	sim->dirty = calloc((size_t)opts->nr_cpus, sizeof(*sim->dirty));
	if (!sim->thr || !sim->forks || !sim->mutexes || !sim->waitq || !sim->timers || !sim->cpu_gen ||
	    !sim->tick_next || !sim->tick_last || !sim->cpu_dirty || !sim->dirty ||
	    !sim->server_timer_gen)
		goto nomem_free;
	if (sim_unavail_init(sim, err))
		goto fail;
	for (i = 0; i < wl->nr_resources; i++)
		sim->mutexes[i].pi = wl->global.pi_enabled;

	for (ti = 0; ti < (int)wl->nr_tasks; ti++) {
		for (inst = 0; inst < wl->tasks[ti].instances; inst++, sim->nr_thr++) {
			n = sim->nr_thr;
			sim->thr[n] = calloc(1, sizeof(*sim->thr[n]));
			if (!sim->thr[n])
				goto nomem_free;
			if (thread_init(sim, sim->thr[n], n, ti, inst, -1, err) < 0) {
				sim->nr_thr++;	/* freed with the others */
				goto fail;
			}
		}
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
	for (i = 0; sim->thr && i < sim->nr_thr; i++) {
		if (sim->thr[i])
			dlb_interp_fini(&sim->thr[i]->it);
		free(sim->thr[i]);
	}
	free(sim->thr);
	free(sim->forks);
	free(sim->mutexes);
	free(sim->waitq);
	free(sim->timers);
	free(sim->cpu_gen);
	sim_unavail_free(sim);
	free(sim->tick_next);
	free(sim->tick_last);
	free(sim->server_timer_gen);
	free(sim->cpu_dirty);
	free(sim->dirty);
	free(sim->q.h);
	free(sim->now_q.h);
	sched_free(sim->s);
	free(sim);
}
void dlb_sim_set_progress_hook(struct dlb_sim *sim, dlb_sim_progress_fn fn, void *arg)
{
	sim->progress_fn = fn;
	sim->progress_arg = arg;
}

