// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel-backend thread once released: the shared interpreter of its
 * rt-app events (dlbench/interp.h) on real operations.  Each operation
 * blocks in the kernel (a calibrated busy loop, clock_nanosleep, pthread
 * mutexes and condition variables) and answers DONE, or STOP when the run
 * is ending, so one dlb_interp_step() is the thread's whole life.  Markers
 * at every job begin and end; one rt-app log line per job.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"
#include "kernel.h"
#include "membind.h"

#define RUN_CHUNK_NS	(50 * NSEC_PER_USEC)	/* stop is checked between chunks */

static struct rtapp_thread *th_of(struct dlb_interp *it)
{
	return dlb_interp_entry(it, struct rtapp_thread, it);
}

static u64 op_now(struct dlb_interp *it)
{
	(void)it;
	return now_mono();
}

static bool op_running(struct dlb_interp *it)
{
	return !stopping(th_of(it));
}

static int go_on(const struct rtapp_thread *th)
{
	return stopping(th) ? DLB_INTERP_STOP : DLB_INTERP_DONE;
}

/* run: calibrated loops in chunks, the stop checked between them */
static int op_run(struct dlb_interp *it, const struct wl_event *ev)
{
	struct rtapp_thread *th = th_of(it);
	u64 c0, done = 0, n, loops, chunk;

	if (ev->type == WL_EV_RUNTIME) {
		/* runtime: busy until the thread has had that much CPU time */
		chunk = rtapp_loops_for(NSEC_PER_USEC, th->run->ns_per_loop);
		c0 = now_cputime();
		while (now_cputime() - c0 < ev->duration_ns && !stopping(th)) {
			rtapp_busy_loops(chunk);
			th->rec.perf += chunk;
		}
	} else {
		loops = rtapp_loops_for(ev->duration_ns, th->run->ns_per_loop);
		chunk = rtapp_loops_for(RUN_CHUNK_NS, th->run->ns_per_loop);
		while (done < loops && !stopping(th)) {
			n = loops - done < chunk ? loops - done : chunk;
			rtapp_busy_loops(n);
			done += n;
		}
		th->rec.perf += done;
	}
	return go_on(th);
}

/*
 * An absolute sleep, released at @t.  A release at or after the run's end
 * is not made: the thread leaves instead.  One before the end is a job of
 * the run even when the thread gets the CPU only after the end: the job
 * count is the workload's, not the wake-up latency's (the job then stops
 * at once; a late end is a miss).
 */
static int op_sleep_until(struct dlb_interp *it, u64 t)
{
	struct rtapp_thread *th = th_of(it);

	if (th->run->end && !dl_time_before(t, th->run->end))
		return DLB_INTERP_STOP;
	if (stopping(th))
		return DLB_INTERP_STOP;
	sleep_until_run(th->run, t);
	if (dl_time_before(now_mono(), t))
		return DLB_INTERP_STOP;	/* woken by the stop, before the release */
	return DLB_INTERP_DONE;
}

static int op_lock(struct dlb_interp *it, int res)
{
	struct rtapp_thread *th = th_of(it);

	pthread_mutex_lock(&th->run->res[res].mutex);
	th->held[res]++;
	return DLB_INTERP_DONE;
}

static void op_unlock(struct dlb_interp *it, int res)
{
	struct rtapp_thread *th = th_of(it);

	if (!th->held[res])
		return;
	th->held[res]--;
	pthread_mutex_unlock(&th->run->res[res].mutex);
}

static int op_cond_wait(struct dlb_interp *it, int cond, int mutex)
{
	struct rtapp_thread *th = th_of(it);

	if (stopping(th))
		return DLB_INTERP_STOP;
	pthread_cond_wait(&th->run->res[cond].cond, &th->run->res[mutex].mutex);
	return go_on(th);
}

static void op_cond_signal(struct dlb_interp *it, int cond, bool all)
{
	struct rtapp_res *r = &th_of(it)->run->res[cond];

	if (all)
		pthread_cond_broadcast(&r->cond);
	else
		pthread_cond_signal(&r->cond);
}

static int op_barrier(struct dlb_interp *it, int res)
{
	struct rtapp_thread *th = th_of(it);
	struct rtapp_barrier *b = &th->run->res[res].barrier;
	u64 gen;

	pthread_mutex_lock(&b->lock);
	gen = b->generation;
	if (++b->waiting >= b->users) {
		b->waiting = 0;
		b->generation++;
		pthread_cond_broadcast(&b->cond);
	} else {
		while (gen == b->generation && !stopping(th))
			pthread_cond_wait(&b->cond, &b->lock);
	}
	pthread_mutex_unlock(&b->lock);
	return go_on(th);
}

static int op_yield(struct dlb_interp *it)
{
	/* for a DL task the kernel throttles it until its next period */
	sched_yield();
	return go_on(th_of(it));
}

/*
 * rt-app's suspend/resume: a resume wakes every thread suspended on the
 * name (pthread_cond_broadcast).  A resume sent while none is suspended is
 * remembered, and the next suspend consumes it and goes on, as on the
 * reference (rt-app/tests/resume_pending.sh, resume_all.sh).
 */
static int op_suspend(struct dlb_interp *it, int res)
{
	struct rtapp_thread *th = th_of(it);
	struct rtapp_wakeup *w = &th->run->res[res].wakeup;
	u64 gen;

	pthread_mutex_lock(&w->lock);
	if (w->pending) {
		w->pending = false;
	} else {
		gen = w->generation;
		w->waiting++;
		while (gen == w->generation && !stopping(th))
			pthread_cond_wait(&w->cond, &w->lock);
		w->waiting--;
	}
	pthread_mutex_unlock(&w->lock);
	return go_on(th);
}

static void op_resume(struct dlb_interp *it, int res)
{
	struct rtapp_wakeup *w = &th_of(it)->run->res[res].wakeup;

	pthread_mutex_lock(&w->lock);
	if (w->waiting) {
		w->generation++;
		pthread_cond_broadcast(&w->cond);
	} else {
		w->pending = true;
	}
	pthread_mutex_unlock(&w->lock);
}

/* mem: @size bytes written over the thread's buffer, wrapping as rt-app does. */
/*
 * rt-app's sem_post/sem_wait (a POSIX semaphore from 0): a count behind
 * the resource's lock, so that a waiter leaves when the run stops (the
 * stop broadcasts every wake-up condition, kernel.c).
 */
static void op_sem_post(struct dlb_interp *it, int res)
{
	struct rtapp_wakeup *w = &th_of(it)->run->res[res].wakeup;

	pthread_mutex_lock(&w->lock);
	w->count++;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static int op_sem_wait(struct dlb_interp *it, int res)
{
	struct rtapp_thread *th = th_of(it);
	struct rtapp_wakeup *w = &th->run->res[res].wakeup;

	pthread_mutex_lock(&w->lock);
	while (!w->count && !stopping(th))
		pthread_cond_wait(&w->cond, &w->lock);
	if (w->count)
		w->count--;
	pthread_mutex_unlock(&w->lock);
	return go_on(th);
}

static void op_mem(struct dlb_interp *it, u64 size)
{
	struct rtapp_thread *th = th_of(it);
	size_t n;

	while (size && th->mem && !stopping(th)) {
		n = size < th->mem_size ? (size_t)size : th->mem_size;
		memset(th->mem, (int)(it->job & 0xff), n);
		size -= n;
	}
}

static bool membuf_stop(void *arg)
{
	return stopping(arg);
}

/* memrun: on this thread's own buffer, or the one its "ref" names */
static void op_memrun(struct dlb_interp *it, int res, u64 count)
{
	struct rtapp_thread *th = th_of(it);
	const struct wl_resource *r = &th->run->wl->resources[res];

	rtapp_membuf_run(r->unique ? &th->membuf[res] : &th->run->res[res].membuf, r->type,
			 (size_t)count, &th->chase[res], membuf_stop, th);
}

/*
 * iorun: @size bytes of the thread's buffer written to global.io_device,
 * a buffer at a time, as rt-app's ioload().  A failed write ends the
 * event; the first error is reported when the run ends.
 */
static void op_iorun(struct dlb_interp *it, u64 size)
{
	struct rtapp_thread *th = th_of(it);
	ssize_t n;

	while (size && th->mem && !stopping(th)) {
		n = write(th->run->io_fd, th->mem, size < th->mem_size ? (size_t)size : th->mem_size);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (!th->io_errno)
				th->io_errno = n < 0 ? errno : EIO;
			return;
		}
		size -= (u64)n;
	}
}

/* fork: kernel.c creates the thread */
static int op_fork(struct dlb_interp *it, int task)
{
	return rtapp_thread_fork(th_of(it), task);
}

/* A shared timer's next expiry lives in run->res[], under its own PI lock. */
/*
 * A phase's cpus, as rt-app (set_thread_affinity): the kernel moves the
 * thread now if its CPU is no longer allowed.  The masks were tried before
 * the run (kernel.c, check_phase_affinity); should one fail now (a CPU
 * went offline), the thread stops, named in the run's errors.
 */
static int op_set_affinity(struct dlb_interp *it, const struct dlb_cpumask *cpus)
{
	struct rtapp_thread *th = th_of(it);
	int rc = rtapp_set_affinity(cpus);

	if (rc) {
		th->affinity_errno = rc;
		return DLB_INTERP_STOP;
	}
	return go_on(th);
}

/*
 * A phase's taskgroup (rt-app's set_thread_taskgroup): the groups were
 * made before the run; should a move fail now, the thread stops, named.
 */
static int op_set_taskgroup(struct dlb_interp *it, int tg)
{
	struct rtapp_thread *th = th_of(it);
	int rc = rtapp_taskgroups_join(&th->run->tgroups, tg, th->tid);

	if (rc) {
		th->taskgroup_errno = rc;
		th->taskgroup_failed = tg;
		return DLB_INTERP_STOP;
	}
	return go_on(th);
}

/*
 * A phase's clamps (rt-app's _set_thread_uclamp): main() asked the kernel
 * before the run whether it clamps at all; should it refuse these now
 * (a min above the max the thread has), the thread stops, named.
 */
static int op_set_uclamp(struct dlb_interp *it, const struct wl_uclamp *u)
{
	struct rtapp_thread *th = th_of(it);
	int rc = rtapp_sched_set_uclamp(th->task, u);

	if (rc) {
		th->uclamp_errno = rc;
		return DLB_INTERP_STOP;
	}
	return go_on(th);
}

/*
 * A phase's nodes (rt-app's set_thread_membind): main() checked before
 * the run that the kernel binds memory and that the nodes exist; should
 * the kernel refuse them now (a node without memory left in the cpuset),
 * the thread stops, named.
 */
static int op_set_membind(struct dlb_interp *it, const struct wl_membind *m)
{
	struct rtapp_thread *th = th_of(it);
	int rc = rtapp_membind_set(m);

	if (rc) {
		th->membind_errno = rc;
		th->membind_phase = it->phase;
		return DLB_INTERP_STOP;
	}
	return go_on(th);
}

static struct dlb_interp_timer *op_timer_get(struct dlb_interp *it, int res)
{
	struct rtapp_res *r = &th_of(it)->run->res[res];

	pthread_mutex_lock(&r->timer_lock);
	return &r->timer;
}

static void op_timer_put(struct dlb_interp *it, int res)
{
	pthread_mutex_unlock(&th_of(it)->run->res[res].timer_lock);
}

static void mark_job(struct rtapp_thread *th, enum dlb_marker_kind kind)
{
	struct dlb_marker m;

	memset(&m, 0, sizeof(m));
	m.kind = kind;
	m.tid = th->tid;
	m.job = th->it.job;
	m.rel = th->it.rel;
	m.dl = th->it.dl;
	m.flags = DLB_MF_JOB | DLB_MF_REL | (th->it.dl ? DLB_MF_DL : 0);
	rtapp_tracemark_write(&th->run->tm, th->mark, &m);
}

void rtapp_thread_write_failed(struct rtapp_thread *th, const char *name)
{
	if (th->out_errno)
		return;
	th->out_errno = errno ? errno : EIO;
	snprintf(th->out_bad, sizeof(th->out_bad), "%s", name);
}

/*
 * Format and write the finished records of @th's ring.  The run's main
 * thread calls it every few ms and after the threads have left; the thread
 * itself only when its ring is full.
 */
void rtapp_log_flush(struct rtapp_thread *th)
{
	char line[DLB_RUNLOG_LINE_MAX];
	size_t t, h;
	int n;

	pthread_mutex_lock(&th->log_lock);
	h = __atomic_load_n(&th->log_head, __ATOMIC_ACQUIRE);
	for (t = th->log_tail; t != h; t++) {
		if (!th->log)
			continue;
		n = dlb_runlog_format(line, sizeof(line), &th->recs[t % th->cap_recs]);
		if (n < 0 || fwrite(line, 1, (size_t)n, th->log) != (size_t)n)
			rtapp_thread_write_failed(th, th->log_name);
	}
	__atomic_store_n(&th->log_tail, h, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&th->log_lock);
}

static void op_job_begin(struct dlb_interp *it)
{
	struct rtapp_thread *th = th_of(it);

	mark_job(th, DLB_MARK_JOB_BEGIN);
	memset(&th->rec, 0, sizeof(th->rec));
	th->rec.idx = th->index;
}

/*
 * A job's log line, the columns as the reference backend fills them
 * (rt-app/reference.c on_job): start/end its begin and end, period to the
 * next release, perf the loops done and run the wall time of its run events
 * (the interpreter's run_wall_ns, as for the reference backend).
 */
static void op_job_end(struct dlb_interp *it)
{
	struct rtapp_thread *th = th_of(it);
	struct dlb_runlog_rec *r = &th->rec;
	u64 next = it->end + (it->slack > 0 ? (u64)it->slack : 0);

	mark_job(th, DLB_MARK_JOB_END);
	r->start = it->begin / NSEC_PER_USEC;
	r->end = it->end / NSEC_PER_USEC;
	r->period = (next - it->begin) / NSEC_PER_USEC;
	r->rel_st = (it->begin - th->run->t0) / NSEC_PER_USEC;
	r->run = it->run_wall_ns / NSEC_PER_USEC;
	r->slack = it->slack / (s64)NSEC_PER_USEC;
	r->wu_lat = (it->begin - it->rel) / NSEC_PER_USEC;
	r->c_duration = it->run_ns / NSEC_PER_USEC;
	r->c_period = it->period_ns / NSEC_PER_USEC;
	/* a record in the ring, written by the main thread; only a full ring here */
	if (th->log_head - __atomic_load_n(&th->log_tail, __ATOMIC_ACQUIRE) == th->cap_recs) {
		th->log_inline++;
		rtapp_log_flush(th);
	}
	th->recs[th->log_head % th->cap_recs] = *r;
	__atomic_store_n(&th->log_head, th->log_head + 1, __ATOMIC_RELEASE);
}

const struct dlb_interp_ops rtapp_kernel_ops = {
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
	.mem		= op_mem,
	.memrun		= op_memrun,
	.sem_post	= op_sem_post,
	.sem_wait	= op_sem_wait,
	.iorun		= op_iorun,
	.fork		= op_fork,
	.set_affinity	= op_set_affinity,
	.set_taskgroup	= op_set_taskgroup,
	.set_uclamp	= op_set_uclamp,
	.set_membind	= op_set_membind,
	.timer_get	= op_timer_get,
	.timer_put	= op_timer_put,
	.job_begin	= op_job_begin,
	.job_end	= op_job_end,
};

/*
 * The thread's life: from its t_first (the run's start + its delay) the
 * interpreter runs its events to the end; our operations block, so one
 * step is the whole life.  Its open job ends when it leaves.  A forked
 * thread starts when it is created, or at its t_first if that is later
 * (rt-app: the delay counts from the run's start, t_zero, for it too).
 *
 * The first release is a timer's expiry like every other: t0 is in the
 * future when the threads are told to go (kernel.c, run_start()), so each
 * sleeps until its t_first and the first job's wu_lat is the same quantity
 * as the later ones' (timer expiry to running), not the time the go's
 * condition variable and the run's lock took to hand every thread over.
 */
void rtapp_thread_events(struct rtapp_thread *th)
{
	u64 t_first = th->run->t0 + th->task->delay_ns, now;

	if (dl_time_before(now_mono(), t_first))
		sleep_until_run(th->run, t_first);
	if (stopping(th))
		return;
	now = now_mono();
	if (th->fork >= 0)
		dlb_interp_start_forked(&th->it, t_first, dl_time_before(now, t_first) ? t_first : now);
	else
		dlb_interp_start(&th->it, t_first);
	dlb_interp_step(&th->it);
}

/* Locks the thread still holds when it leaves, released. */
void rtapp_thread_release_held(struct rtapp_thread *th)
{
	size_t r;

	for (r = 0; r < th->run->wl->nr_resources; r++)
		while (th->held[r])
			op_unlock(&th->it, (int)r);
}
