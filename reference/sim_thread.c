// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated threads going through their rt-app events: the shared
 * interpreter (dlbench/interp.h) on simulator operations.  An operation
 * that takes time starts it (the work to do, a wake-up in the queue, a
 * place on a wait queue) and answers BLOCKED; the event loop steps the
 * thread again (sim_thread_advance) when it next runs with no work left.
 * Jobs are the interpreter's; here they become markers and job hooks.
 */
#include <string.h>

#include "dlbench/exitcode.h"

#include "sim_local.h"

/* ---- jobs ------------------------------------------------------------- */

static inline struct sim_thread *thr_of_it(struct dlb_interp *it)
{
	return dlb_interp_entry(it, struct sim_thread, it);
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
		if (t->it.rel_dl) {
			m.dl = rel + t->it.rel_dl;
			m.flags |= DLB_MF_DL;
		}
	}
	emit_marker(sim, task_cpu(&t->task), t->tid, &m);
}

/* The release marker, at the release instant (the job may begin later). */
void sim_thread_release(struct dlb_sim *sim, struct sim_thread *t, u64 rel)
{
	emit_job_marker(sim, t, DLB_MARK_JOB_RELEASE, t->it.job, rel);
	t->rel_marked = true;
}

static void op_job_begin(struct dlb_interp *it)
{
	struct sim_thread *t = thr_of_it(it);
	struct dlb_sim *sim = t->sim;

	if (!t->rel_marked)
		sim_thread_release(sim, t, it->rel);
	t->rel_marked = false;
	t->exec0 = thr_exec(sim, t);
	emit_job_marker(sim, t, DLB_MARK_JOB_BEGIN, it->job, it->rel);
}

static void op_job_end(struct dlb_interp *it)
{
	struct sim_thread *t = thr_of_it(it);
	struct dlb_sim *sim = t->sim;
	struct dlb_sim_job j;
	int rc;

	memset(&j, 0, sizeof(j));
	j.thread = t->index;
	j.task = t->task_idx;
	j.instance = t->instance;
	j.tid = t->tid;
	j.comm = t->task.comm;
	j.job = it->job;
	j.phase = (int)it->phase;
	j.phase_loop = it->ploop;
	j.release = it->rel;
	j.begin = it->begin;
	j.end = it->end;
	j.deadline = it->dl;
	j.exec_ns = thr_exec(sim, t) - t->exec0;
	j.run_ns = it->run_ns;
	j.run_wall_ns = it->run_wall_ns;
	j.period_ns = it->period_ns;
	j.slack_ns = it->slack;
	j.wu_lat_ns = it->begin - it->rel;
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

/* ---- the interpreter's operations: simulator events ------------------- */

static void block(struct dlb_sim *sim, struct sim_thread *t, int cpu, enum thr_state st,
		  long state)
{
	t->st = st;
	t->task.state = state;
	schedule(sim->s, cpu);
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

void sim_thread_wake(struct dlb_sim *sim, struct sim_thread *t, int this_cpu)
{
	t->st = THR_READY;
	wake_up_process(sim->s, &t->task, this_cpu);
}

static void waitq_wake(struct dlb_sim *sim, struct sim_waitq *w, int cpu, bool all)
{
	struct sim_thread *t;

	while ((t = waitq_pop(w))) {
		sim_thread_wake(sim, t, cpu);
		if (!all)
			break;
	}
}

/* Wait in @w: the thread blocks, woken by waitq_wake(). */
static int waitq_block(struct sim_thread *t, struct sim_waitq *w)
{
	waitq_add(w, t);
	block(t->sim, t, t->cpu, THR_WAIT, TASK_INTERRUPTIBLE);
	return DLB_INTERP_BLOCKED;
}

static u64 op_now(struct dlb_interp *it)
{
	return thr_of_it(it)->sim->now;
}

static bool op_running(struct dlb_interp *it)
{
	struct sim_thread *t = thr_of_it(it);

	return cpu_rq(t->sim->s, t->cpu)->curr == &t->task && !t->sim->stop;
}

/* The work is planned by replan(); the CPU's SE_CPU_WORK continues the thread. */
static int op_run(struct dlb_interp *it, const struct wl_event *ev)
{
	thr_of_it(it)->work_left = ev->duration_ns;
	return DLB_INTERP_BLOCKED;
}

/* A release at or after the end is never made: the run ends before its SE_WAKE. */
static int op_sleep_until(struct dlb_interp *it, u64 when)
{
	struct sim_thread *t = thr_of_it(it);

	evq_push(t->sim, when, SE_WAKE, (int)t->index, ++t->wake_gen);
	block(t->sim, t, t->cpu, THR_SLEEP, TASK_INTERRUPTIBLE);
	return DLB_INTERP_BLOCKED;
}

static int op_lock(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);

	if (rt_mutex_lock(t->sim->s, &t->sim->mutexes[res], t->cpu))
		return DLB_INTERP_DONE;
	block(t->sim, t, t->cpu, THR_LOCK, TASK_INTERRUPTIBLE);
	return DLB_INTERP_BLOCKED;
}

static void op_unlock(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);

	if (t->sim->mutexes[res].owner == &t->task)
		rt_mutex_unlock(t->sim->s, &t->sim->mutexes[res], t->cpu);
}

/* cond wait: release the mutex, sleep on the cond, take the mutex again when woken */
static int op_cond_wait(struct dlb_interp *it, int cond, int mutex)
{
	struct sim_thread *t = thr_of_it(it);
	struct dlb_sim *sim = t->sim;

	if (mutex >= 0 && sim->mutexes[mutex].owner == &t->task) {
		rt_mutex_unlock(sim->s, &sim->mutexes[mutex], t->cpu);
		t->relock = mutex;
	}
	return waitq_block(t, &sim->waitq[cond]);
}

static void op_cond_signal(struct dlb_interp *it, int cond, bool all)
{
	struct sim_thread *t = thr_of_it(it);

	waitq_wake(t->sim, &t->sim->waitq[cond], t->cpu, all);
}

static int op_barrier(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);
	struct sim_waitq *w = &t->sim->waitq[res];

	if (w->waiting + 1 < t->sim->wl->resources[res].users)
		return waitq_block(t, w);
	waitq_wake(t->sim, w, t->cpu, true);
	return DLB_INTERP_DONE;
}

/* A DL task is throttled to its next period: it loses the CPU at once. */
static int op_yield(struct dlb_interp *it)
{
	struct sim_thread *t = thr_of_it(it);

	sched_yield_curr(t->sim->s, t->cpu);
	schedule(t->sim->s, t->cpu);
	return op_running(it) ? DLB_INTERP_DONE : DLB_INTERP_BLOCKED;
}

/*
 * suspend/resume as the kernel backend's (rt-app/kthread.c, rtapp_wakeup):
 * a resume wakes every thread suspended on the name (rt-app:
 * pthread_cond_broadcast; rt-app/tests/resume_all.sh); one sent while no
 * thread is suspended is remembered, and the next suspend consumes it and
 * goes on (rt-app/tests/resume_pending.sh).
 */
static int op_suspend(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);
	struct sim_waitq *w = &t->sim->waitq[res];

	if (w->pending) {
		w->pending = false;
		return DLB_INTERP_DONE;
	}
	return waitq_block(t, w);
}

static void op_resume(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);
	struct sim_waitq *w = &t->sim->waitq[res];

	if (!w->head) {
		w->pending = true;
		return;
	}
	op_cond_signal(it, res, true);
}

/*
 * A phase's cpus (rt-app: pthread_setaffinity_np on itself).  On its own
 * CPU still allowed, nothing moves.  Else the kernel's migration of a
 * running task (__set_cpus_allowed_ptr: migration_cpu_stop) is modelled as
 * the thread leaving this CPU and being woken at once where the mask
 * allows: select_task_rq() places it, as for any wake-up.  The masks were
 * checked against the CPUs when the thread was made (sim.c).
 */
static int op_set_affinity(struct dlb_interp *it, const struct dlb_cpumask *cpus)
{
	struct sim_thread *t = thr_of_it(it);
	struct dlb_sim *sim = t->sim;
	struct dlb_cpumask all;
	struct dlb_err err;
	unsigned int c;

	if (!cpus) {
		dlb_cpumask_clear(&all);
		for (c = 0; c < (unsigned int)sim->s->nr_cpus; c++)
			dlb_cpumask_set(&all, c);
		cpus = &all;
	}
	if (sched_setaffinity(sim->s, &t->task, cpus, &err) < 0)
		return DLB_INTERP_DONE;	/* cannot happen: checked at thread creation */
	if (dlb_cpumask_test(cpus, (unsigned int)t->cpu))
		return DLB_INTERP_DONE;
	block(sim, t, t->cpu, THR_SLEEP, TASK_INTERRUPTIBLE);
	sim_thread_wake(sim, t, t->cpu);
	return DLB_INTERP_BLOCKED;
}

/* sem_post: the first waiter takes the post, else the count keeps it. */
static void op_sem_post(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);
	struct sim_waitq *w = &t->sim->waitq[res];

	if (w->waiting)
		waitq_wake(t->sim, w, t->cpu, false);
	else
		w->count++;
}

static int op_sem_wait(struct dlb_interp *it, int res)
{
	struct sim_thread *t = thr_of_it(it);
	struct sim_waitq *w = &t->sim->waitq[res];

	if (w->count) {
		w->count--;
		return DLB_INTERP_DONE;
	}
	return waitq_block(t, w);
}

static struct dlb_interp_timer *op_timer_get(struct dlb_interp *it, int res)
{
	return &thr_of_it(it)->sim->timers[res];
}

/* fork: the new thread is set up and queued to start; the parent goes on */
static int op_fork(struct dlb_interp *it, int task)
{
	struct sim_thread *t = thr_of_it(it);

	return sim_fork(t->sim, t, task) ? DLB_INTERP_STOP : DLB_INTERP_DONE;
}

/* mem, memrun: memory traffic takes no CPU time here (no .mem, no .memrun) */
static const struct dlb_interp_ops sim_ops = {
	.now		= op_now,
	.running	= op_running,
	.run		= op_run,
	.sleep_until	= op_sleep_until,
	.lock		= op_lock,
	.unlock		= op_unlock,
	.cond_wait	= op_cond_wait,
	.cond_signal	= op_cond_signal,
	.barrier	= op_barrier,
	.yield		= op_yield,
	.suspend	= op_suspend,
	.resume		= op_resume,
	.set_affinity	= op_set_affinity,
	.sem_post	= op_sem_post,
	.sem_wait	= op_sem_wait,
	.fork		= op_fork,
	.timer_get	= op_timer_get,
	.job_begin	= op_job_begin,
	.job_end	= op_job_end,
};

/* ---- threads executing the workload ----------------------------------- */

#define ADVANCE_MAX_ZERO_TIME	1000000	/* events at one instant before we call it a livelock */

static void thread_exit(struct dlb_sim *sim, struct sim_thread *t, int cpu)
{
	struct dlb_marker m = { .kind = DLB_MARK_TASK_EXIT, .tid = t->tid };
	struct dlb_event ev = { .cpu = cpu, .pid = t->tid, .type = DLB_EV_EXIT };

	emit_marker(sim, cpu, t->tid, &m);
	ev.exit.pid = t->tid;
	memcpy(ev.exit.comm, t->task.comm, DLB_COMM_LEN);
	emit(sim, &ev);
	t->st = THR_DONE;
	sched_exit_curr(sim->s, cpu);
}

/* Run thread @t, current on @cpu, until it needs CPU time or blocks. */
void sim_thread_advance(struct dlb_sim *sim, struct sim_thread *t, int cpu)
{
	int m = t->relock;

	if (sim->stop)
		return;
	t->cpu = cpu;
	/* a cond wait ends when its mutex is ours again (not when leaving) */
	if (m >= 0 && !t->it.exit_pending) {
		t->relock = -1;
		if (!rt_mutex_lock(sim->s, &sim->mutexes[m], cpu)) {
			block(sim, t, cpu, THR_LOCK, TASK_INTERRUPTIBLE);
			return;
		}
	}
	switch (dlb_interp_step(&t->it)) {
	case DLB_INTERP_EXIT:
		thread_exit(sim, t, cpu);
		break;
	case DLB_INTERP_LIVELOCK:
		sim->stop = -1;
		dlb_err_set(&sim->stop_err, DLB_EXIT_BAD_INPUT,
			    "task %s: %d events without using time (a loop of zero-time events)",
			    t->task.comm, ADVANCE_MAX_ZERO_TIME);
		break;
	default:
		break;
	}
}

int sim_thread_init(struct dlb_sim *sim, struct sim_thread *t, struct dlb_err *err)
{
	if (dlb_interp_init(&t->it, sim->wl, t->wt, &sim_ops, err))
		return -1;
	t->it.max_events = ADVANCE_MAX_ZERO_TIME;
	if (sim->o.event_log)
		dlb_interp_log_enable(&t->it, DLB_INTERP_LOG_MAX);
	return 0;
}
