// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel backend: one thread per task instance under the running
 * kernel's scheduler, rt-app's event semantics, markers at every job
 * begin and end, an rt-app log per thread and a /proc sched snapshot.
 *
 * Start-up is sequential and checked: thread i sets its own policy and
 * reports before thread i+1 is created, so an admission failure names the
 * task that did not fit and what was admitted before it; after any failure
 * every thread already created is told to leave and is joined.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "dlbench/exitcode.h"

#include "calib.h"
#include "rtapp.h"

#define LOG_RECS	1024	/* records buffered per thread between writes */
#define RUN_CHUNK_NS	(50 * NSEC_PER_USEC)	/* stop is checked between chunks */
#define STOP_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define THREAD_STACK	(256 * 1024)

static u64 now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static u64 now_cputime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static bool run_stopping(const struct rtapp_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

static bool stopping(const struct rtapp_thread *th)
{
	return run_stopping(th->run);
}

/*
 * Absolute sleep.  The main thread interrupts sleepers with SIGUSR1 when
 * the run stops, so a long period does not delay the end; other
 * interruptions resume the sleep.
 */
static void sleep_until_run(const struct rtapp_run *run, u64 t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NSEC_PER_SEC),
			       .tv_nsec = (long)(t % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (run && run_stopping(run))
			return;
}

static void sleep_until(u64 t)
{
	sleep_until_run(NULL, t);
}

static void on_wake_signal(int sig)
{
	(void)sig;	/* only interrupts clock_nanosleep */
}

/* ---- markers ---- */

static void mark_job(struct rtapp_thread *th, enum dlb_marker_kind kind)
{
	struct dlb_marker m;

	memset(&m, 0, sizeof(m));
	m.kind = kind;
	m.tid = th->tid;
	m.job = th->job - 1;
	m.rel = th->rel;
	m.dl = th->dl;
	m.flags = DLB_MF_JOB | DLB_MF_REL | (th->has_dl ? DLB_MF_DL : 0);
	rtapp_tracemark_write(&th->run->tm, th->mark, &m);
}

/* A job is released at @rel: its absolute deadline is rel + D. */
static void job_begin(struct rtapp_thread *th, u64 rel)
{
	th->rel = rel;
	th->dl = rel + th->rel_dl;
	th->job++;
	th->job_open = true;
	mark_job(th, DLB_MARK_JOB_BEGIN);
}

/* A job ends when its work is done: late if that is after its deadline. */
static void job_end(struct rtapp_thread *th, u64 now)
{
	s64 late;

	if (!th->job_open)
		return;
	th->job_open = false;
	mark_job(th, DLB_MARK_JOB_END);
	if (!th->has_dl)
		return;
	late = (s64)(now - th->dl);
	if (th->job == 1 || late > th->max_lateness)
		th->max_lateness = late;
	if (late > 0)
		th->misses++;
}

/* ---- logs ---- */

static void log_flush(struct rtapp_thread *th)
{
	char line[DLB_RUNLOG_LINE_MAX];
	size_t i;
	int n;

	for (i = 0; i < th->nr_recs && th->log; i++) {
		n = dlb_runlog_format(line, sizeof(line), &th->recs[i]);
		if (n < 0 || fwrite(line, 1, (size_t)n, th->log) != (size_t)n)
			th->log_error = true;
	}
	th->nr_recs = 0;
}

static void log_pass_start(struct rtapp_thread *th)
{
	memset(&th->rec, 0, sizeof(th->rec));
	th->rec.idx = th->index;
	th->rec.start = now_mono();
}

static void log_pass_end(struct rtapp_thread *th, u64 c_duration, u64 c_period)
{
	struct dlb_runlog_rec *r = &th->rec;
	u64 end = now_mono();

	r->end = end / NSEC_PER_USEC;
	r->period = (end - r->start) / NSEC_PER_USEC;
	r->rel_st = (r->start - th->run->t0) / NSEC_PER_USEC;
	r->start /= NSEC_PER_USEC;
	r->run /= NSEC_PER_USEC;
	r->c_duration = c_duration / NSEC_PER_USEC;
	r->c_period = c_period / NSEC_PER_USEC;
	if (th->nr_recs == th->cap_recs)
		log_flush(th);
	th->recs[th->nr_recs++] = *r;
}

/* ---- events ---- */

static void ev_run(struct rtapp_thread *th, const struct wl_event *ev)
{
	u64 loops = rtapp_loops_for(ev->duration_ns, th->run->ns_per_loop);
	u64 chunk = rtapp_loops_for(RUN_CHUNK_NS, th->run->ns_per_loop);
	u64 t = now_mono(), done = 0, n;

	while (done < loops && !stopping(th)) {
		n = loops - done < chunk ? loops - done : chunk;
		rtapp_busy_loops(n);
		done += n;
	}
	th->rec.perf += done;
	th->rec.run += now_mono() - t;
}

static void ev_runtime(struct rtapp_thread *th, const struct wl_event *ev)
{
	u64 chunk = rtapp_loops_for(NSEC_PER_USEC, th->run->ns_per_loop);
	u64 t = now_mono(), c0 = now_cputime();

	while (now_cputime() - c0 < ev->duration_ns && !stopping(th)) {
		rtapp_busy_loops(chunk);
		th->rec.perf += chunk;
	}
	th->rec.run += now_mono() - t;
}

static void ev_sleep(struct rtapp_thread *th, u64 ns)
{
	if (!stopping(th))
		sleep_until_run(th->run, now_mono() + ns);
}

/*
 * One use of the timer of @ev by @th: its next expiry advanced by the
 * period, as rt-app's res.timer.  A ref starting with "unique" is this
 * thread's own timer; any other ref names ONE timer shared by every thread
 * and instance using it, its expiry in run->res[] under its own lock: the
 * first use sets it to that thread's t_first and every use by any thread
 * adds its own period, so instances on one shared timer release in turn
 * (as the reference backend does, reference/sim.c thread_timer).  Returns
 * the expiry; *rel is the release: the expiry, or @now when the expiry has
 * passed in "relative" mode (the shared timer then restarts from now for
 * every user, as rt-app's does).
 */
static u64 timer_advance(struct rtapp_thread *th, const struct wl_event *ev, u64 now, u64 *rel)
{
	struct rtapp_res *r = &th->run->res[ev->res];
	bool shared = !th->run->wl->resources[ev->res].unique;
	u64 *next = shared ? &r->timer_next : &th->timer_next[ev->res];
	u64 expiry;

	if (shared) {
		pthread_mutex_lock(&r->timer_lock);
		if (!r->timer_init) {
			r->timer_init = true;
			r->timer_next = th->t_first;
		}
	}
	expiry = *next += ev->duration_ns;
	if (!dl_time_before(now, expiry) && ev->timer_relative)
		*next = now;
	*rel = *next;
	if (shared)
		pthread_mutex_unlock(&r->timer_lock);
	return expiry;
}

/*
 * timer: the job's work is done; the next job is released at the timer's
 * next absolute expiry, t_ref + k * period, whatever happened before, so
 * releases do not drift.  If that instant has passed, rt-app does not
 * sleep (and in "relative" mode restarts the period from now).  A release
 * at or after the run's end is not made: the thread leaves instead.  A
 * release before the end is a job of the run even when the thread gets the
 * CPU only after the end: the job count is the workload's, not the wake-up
 * latency's (the job's work then stops at once; a late end is a miss).
 */
static bool ev_timer(struct rtapp_thread *th, const struct wl_event *ev)
{
	u64 now = now_mono(), expiry, rel, t;

	job_end(th, now);
	expiry = timer_advance(th, ev, now, &rel);
	th->rec.slack = (s64)(expiry - now) / (s64)NSEC_PER_USEC;
	th->rec.wu_lat = 0;
	if (th->run->end && !dl_time_before(expiry, th->run->end))
		return false;
	if (dl_time_before(now, rel)) {
		sleep_until_run(th->run, rel);
		t = now_mono();
		if (dl_time_before(t, rel))
			return false;	/* woken by the stop, before the release */
		th->rec.wu_lat = (t - rel) / NSEC_PER_USEC;
	}
	job_begin(th, rel);
	return true;
}

static void ev_lock(struct rtapp_thread *th, int res)
{
	pthread_mutex_lock(&th->run->res[res].mutex);
	th->held[res]++;
}

static void ev_unlock(struct rtapp_thread *th, int res)
{
	if (!th->held[res])
		return;
	th->held[res]--;
	pthread_mutex_unlock(&th->run->res[res].mutex);
}

static void ev_barrier(struct rtapp_thread *th, struct rtapp_barrier *b)
{
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
}

static void ev_suspend(struct rtapp_thread *th, struct rtapp_wakeup *w)
{
	pthread_mutex_lock(&w->lock);
	while (!w->pending && !stopping(th))
		pthread_cond_wait(&w->cond, &w->lock);
	w->pending = false;
	pthread_mutex_unlock(&w->lock);
}

static void ev_resume(struct rtapp_wakeup *w)
{
	pthread_mutex_lock(&w->lock);
	w->pending = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* mem: @size bytes written over the thread's buffer, wrapping as rt-app does. */
static void ev_mem(struct rtapp_thread *th, u64 size)
{
	size_t n;

	while (size && th->mem && !stopping(th)) {
		n = size < th->mem_size ? (size_t)size : th->mem_size;
		memset(th->mem, (int)(th->job & 0xff), n);
		size -= n;
	}
}

/* One event; false when the thread must leave. */
static bool run_event(struct rtapp_thread *th, const struct wl_event *ev)
{
	struct rtapp_res *r = ev->res >= 0 ? &th->run->res[ev->res] : NULL;

	switch (ev->type) {
	case WL_EV_RUN:
		ev_run(th, ev);
		break;
	case WL_EV_RUNTIME:
		ev_runtime(th, ev);
		break;
	case WL_EV_SLEEP:
		ev_sleep(th, ev->duration_ns);
		break;
	case WL_EV_TIMER:
		return ev_timer(th, ev);
	case WL_EV_LOCK:
		ev_lock(th, ev->res);
		break;
	case WL_EV_UNLOCK:
		ev_unlock(th, ev->res);
		break;
	case WL_EV_WAIT:
		if (!stopping(th))
			pthread_cond_wait(&r->cond, &th->run->res[ev->dep].mutex);
		break;
	case WL_EV_SIGNAL:
		pthread_cond_signal(&r->cond);
		break;
	case WL_EV_BROAD:
		pthread_cond_broadcast(&r->cond);
		break;
	case WL_EV_SYNC:
		pthread_cond_signal(&r->cond);
		if (!stopping(th))
			pthread_cond_wait(&r->cond, &th->run->res[ev->dep].mutex);
		break;
	case WL_EV_BARRIER:
		ev_barrier(th, &r->barrier);
		break;
	case WL_EV_YIELD:
		/* for a DL task the kernel throttles it until its next period */
		sched_yield();
		break;
	case WL_EV_SUSPEND:
		/*
		 * Without a timer, a resume is what releases the task (a
		 * sporadic activation): the job ends before the wait and the
		 * next one is released at the wake-up.
		 */
		if (!th->has_timer)
			job_end(th, now_mono());
		ev_suspend(th, &r->wakeup);
		if (!th->has_timer && !stopping(th))
			job_begin(th, now_mono());
		break;
	case WL_EV_RESUME:
		ev_resume(&r->wakeup);
		break;
	case WL_EV_MEM:
		ev_mem(th, ev->size);
		break;
	}
	return !stopping(th);
}

/* Configured run time and timer period of one pass over @ph, for the log. */
static void phase_config(const struct wl_phase *ph, u64 *c_duration, u64 *c_period)
{
	size_t i;

	*c_duration = *c_period = 0;
	for (i = 0; i < ph->nr_events; i++) {
		if (ph->events[i].type == WL_EV_RUN || ph->events[i].type == WL_EV_RUNTIME)
			*c_duration += ph->events[i].duration_ns;
		if (ph->events[i].type == WL_EV_TIMER)
			*c_period = ph->events[i].duration_ns;
	}
}

/* One pass over a phase's events; a pass without a timer is one job. */
static bool run_pass(struct rtapp_thread *th, const struct wl_phase *ph)
{
	u64 c_duration, c_period;
	bool go = true;
	size_t i;

	phase_config(ph, &c_duration, &c_period);
	log_pass_start(th);
	if (!th->has_timer && !th->job_open &&
	    !(ph->nr_events && ph->events[0].type == WL_EV_SUSPEND))
		job_begin(th, now_mono());
	for (i = 0; i < ph->nr_events && go; i++)
		go = run_event(th, &ph->events[i]);
	if (!th->has_timer)
		job_end(th, now_mono());
	log_pass_end(th, c_duration, c_period);
	return go;
}

static void thread_loop(struct rtapp_thread *th)
{
	const struct wl_task *t = th->task;
	size_t p, r;
	int loop, pl;

	th->t_first = th->run->t0 + t->delay_ns;
	for (r = 0; r < th->run->wl->nr_resources; r++)
		th->timer_next[r] = th->t_first;
	if (t->delay_ns)
		sleep_until_run(th->run, th->t_first);
	if (th->has_timer)
		job_begin(th, th->t_first);
	for (loop = 0; t->loop < 0 || loop < t->loop; loop++) {
		for (p = 0; p < t->nr_phases; p++) {
			/* a phase loop of -1 repeats until the run ends */
			for (pl = 0; t->phases[p].loop < 0 || pl < t->phases[p].loop; pl++) {
				if (stopping(th) || !run_pass(th, &t->phases[p]))
					return;
			}
		}
	}
}

/* ---- thread life ---- */

static void release_held(struct rtapp_thread *th)
{
	size_t r;

	for (r = 0; r < th->run->wl->nr_resources; r++)
		while (th->held[r])
			ev_unlock(th, (int)r);
}

/* The thread's own /proc sched file, copied just before it exits. */
static void save_sched(struct rtapp_thread *th)
{
	char src[64], dst[PATH_MAX + DLB_SUMMARY_PATH_MAX], buf[4096];
	int in, out;
	ssize_t n;

	snprintf(src, sizeof(src), "/proc/self/task/%d/sched", th->tid);
	snprintf(dst, sizeof(dst), "%s/%s", th->run->outdir, th->sched_name);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		th->sched_name[0] = '\0';
		return;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				break;
		close(out);
	} else {
		th->sched_name[0] = '\0';
	}
	close(in);
}

static int thread_setup(struct rtapp_thread *th)
{
	const struct wl_task *t = th->task;
	struct rtapp_run *run = th->run;
	cpu_set_t set;
	unsigned int cpu;
	int rc;

	th->tid = gettid();
	/* no timer slack: a release must wake the thread at the instant asked */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* comm "<task>-<thread index>" as upstream rt-app; the kernel keeps 15 chars */
	prctl(PR_SET_NAME, th->comm, 0, 0, 0);
	if (t->has_cpus && t->policy == WL_POLICY_DEADLINE) {
		/* join the partition while still SCHED_OTHER (FACTS: never move a DL task) */
		rc = rtapp_cpusets_join(&run->cpusets, &t->cpus, th->tid);
		if (rc) {
			th->setup_what = "cpuset";
			return rc;
		}
	} else if (t->has_cpus) {
		CPU_ZERO(&set);
		dlb_for_each_cpu(cpu, &t->cpus)
			if (cpu < CPU_SETSIZE)
				CPU_SET(cpu, &set);
		rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (rc) {
			th->setup_what = "affinity";
			return rc;
		}
	}
	th->setup_what = "policy";
	return rtapp_sched_set_self(t, &run->opts->abi);
}

static void *thread_main(void *arg)
{
	struct rtapp_thread *th = arg;
	struct rtapp_run *run = th->run;
	int rc = thread_setup(th), go;

	pthread_mutex_lock(&run->lock);
	th->setup_errno = rc;
	th->setup = rc ? SETUP_FAILED : SETUP_DONE;
	pthread_cond_broadcast(&run->cond);
	while (run->go == 0)
		pthread_cond_wait(&run->cond, &run->lock);
	go = run->go;
	pthread_mutex_unlock(&run->lock);

	if (go > 0) {
		thread_loop(th);
		job_end(th, now_mono());
		release_held(th);
		log_flush(th);
		save_sched(th);
	}
	/* leave SCHED_DEADLINE before anything else may move us (cpusets) */
	rtapp_sched_reset_self();
	pthread_mutex_lock(&run->lock);
	th->exited = true;
	run->exited++;
	pthread_mutex_unlock(&run->lock);
	return NULL;
}

/* ---- resources ---- */

static int res_init(struct rtapp_run *run, struct dlb_err *err)
{
	const struct workload *wl = run->wl;
	pthread_mutexattr_t ma;
	size_t i;

	run->res = calloc(wl->nr_resources ? wl->nr_resources : 1, sizeof(*run->res));
	if (!run->res)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	pthread_mutexattr_init(&ma);
	/* PI mutexes: a DL lock holder inherits its waiters' deadline (the seed's DI) */
	if (wl->global.pi_enabled)
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	for (i = 0; i < wl->nr_resources; i++) {
		struct rtapp_res *r = &run->res[i];

		pthread_mutex_init(&r->mutex, &ma);
		pthread_cond_init(&r->cond, NULL);
		pthread_mutex_init(&r->barrier.lock, NULL);
		pthread_cond_init(&r->barrier.cond, NULL);
		r->barrier.users = wl->resources[i].users;
		pthread_mutex_init(&r->wakeup.lock, NULL);
		pthread_cond_init(&r->wakeup.cond, NULL);
	}
	pthread_mutexattr_destroy(&ma);
	/* the shared timers' own locks: PI whatever pi_enabled says */
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	for (i = 0; i < wl->nr_resources; i++)
		pthread_mutex_init(&run->res[i].timer_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	return 0;
}

/* Wake every thread that may wait on something: used when stopping. */
static void res_wake_all(struct rtapp_run *run)
{
	size_t i;

	for (i = 0; i < run->wl->nr_resources; i++) {
		struct rtapp_res *r = &run->res[i];

		pthread_cond_broadcast(&r->cond);
		pthread_mutex_lock(&r->barrier.lock);
		pthread_cond_broadcast(&r->barrier.cond);
		pthread_mutex_unlock(&r->barrier.lock);
		pthread_mutex_lock(&r->wakeup.lock);
		pthread_cond_broadcast(&r->wakeup.cond);
		pthread_mutex_unlock(&r->wakeup.lock);
	}
}

/* ---- threads ---- */

static bool task_has_timer(const struct wl_task *t)
{
	size_t p, e;

	for (p = 0; p < t->nr_phases; p++)
		for (e = 0; e < t->phases[p].nr_events; e++)
			if (t->phases[p].events[e].type == WL_EV_TIMER)
				return true;
	return false;
}

/* rt-app's mem_buffer_size for a task with mem events, else 0 (no buffer). */
static size_t task_mem_size(const struct workload *wl, const struct wl_task *t)
{
	size_t p, e;

	for (p = 0; p < t->nr_phases; p++)
		for (e = 0; e < t->phases[p].nr_events; e++)
			if (t->phases[p].events[e].type == WL_EV_MEM)
				return wl->global.mem_buffer_size ?
				       (size_t)wl->global.mem_buffer_size : 4 << 20;
	return 0;
}

/*
 * Relative deadline D of a job.  Only a SCHED_DEADLINE task has one: a
 * periodic FIFO, RR or fair task's jobs are marked without dl= and counted
 * without a miss (docs/markers.md), as the reference backend does.
 */
static u64 task_rel_deadline(const struct wl_task *t)
{
	return t->policy == WL_POLICY_DEADLINE ? t->dl.deadline : 0;
}

static int thread_init(struct rtapp_run *run, struct rtapp_thread *th, const struct wl_task *t,
		       int index, int instance, struct dlb_err *err)
{
	const char *base = run->wl->global.log_basename ? run->wl->global.log_basename : "rt-app";
	char path[PATH_MAX + DLB_SUMMARY_PATH_MAX + 2], hdr[DLB_RUNLOG_LINE_MAX];
	size_t nres = run->wl->nr_resources ? run->wl->nr_resources : 1;

	th->run = run;
	th->task = t;
	th->index = index;
	th->instance = instance;
	th->has_timer = task_has_timer(t);
	th->rel_dl = task_rel_deadline(t);
	th->has_dl = th->rel_dl != 0;
	th->timer_next = calloc(nres, sizeof(*th->timer_next));
	th->held = calloc(nres, sizeof(*th->held));
	th->cap_recs = LOG_RECS;
	th->recs = calloc(th->cap_recs, sizeof(*th->recs));
	th->mem_size = task_mem_size(run->wl, t);
	th->mem = th->mem_size ? malloc(th->mem_size) : NULL;
	if (!th->timer_next || !th->held || !th->recs || (th->mem_size && !th->mem))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	if (th->mem)
		memset(th->mem, 0, th->mem_size);	/* fault the pages in now */
	/* rt-app 1.0's names: <basename>-<task>-<thread index>.log */
	snprintf(th->comm, sizeof(th->comm), "%s-%d", t->name, index);
	snprintf(th->log_name, sizeof(th->log_name), "%s-%s-%d.log", base, t->name, index);
	snprintf(th->sched_name, sizeof(th->sched_name), "%s-%s-%d.sched", base, t->name, index);
	if (run->wl->global.log_size == 0) {
		/* "log_size": "disable", as rt-app: no log (summary says "") */
		th->log_name[0] = '\0';
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", run->outdir, th->log_name);
	th->log = fopen(path, "w");
	if (!th->log)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, strerror(errno));
	dlb_runlog_header(hdr, sizeof(hdr), wl_policy_str(t->policy),
			  t->policy != WL_POLICY_DEADLINE, t->priority);
	fputs(hdr, th->log);
	return 0;
}

static void thread_fini(struct rtapp_thread *th, struct dlb_err *err)
{
	if (th->log && (fclose(th->log) || th->log_error) && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "%s/%s: write error", th->run->outdir,
			    th->log_name);
	th->log = NULL;
	free(th->timer_next);
	free(th->held);
	free(th->recs);
	free(th->mem);
}

static int threads_init(struct rtapp_run *run, struct dlb_err *err)
{
	const struct workload *wl = run->wl;
	size_t t, n = 0;
	int i;

	for (t = 0; t < wl->nr_tasks; t++)
		n += (size_t)wl->tasks[t].instances;
	run->threads = calloc(n ? n : 1, sizeof(*run->threads));
	if (!run->threads)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	run->nr_threads = 0;
	for (t = 0; t < wl->nr_tasks; t++) {
		for (i = 0; i < wl->tasks[t].instances; i++) {
			if (thread_init(run, &run->threads[run->nr_threads], &wl->tasks[t],
					(int)run->nr_threads, i, err))
				return -1;
			run->nr_threads++;
		}
	}
	return 0;
}

/*
 * Bandwidth admitted so far by this run's threads in @task's root domain
 * (the whole machine, or the task's cpuset partition), for EBUSY messages.
 */
static u64 admitted_bw(const struct rtapp_run *run, const struct wl_task *task)
{
	u64 bw = 0;
	size_t i;

	for (i = 0; i < run->nr_threads; i++) {
		const struct wl_task *t = run->threads[i].task;

		if (run->threads[i].setup != SETUP_DONE || t->policy != WL_POLICY_DEADLINE)
			continue;
		if (task->has_cpus && memcmp(&t->cpus, &task->cpus, sizeof(t->cpus)))
			continue;
		bw += to_ratio(dl_params_period(&t->dl), t->dl.runtime);
	}
	return bw;
}

static int explain_setup(struct rtapp_run *run, struct rtapp_thread *th, struct dlb_err *err)
{
	struct rtapp_admit_ctx ctx = { admitted_bw(run, th->task),
				       (unsigned int)sysconf(_SC_NPROCESSORS_ONLN) };

	if (th->task->has_cpus && th->task->policy == WL_POLICY_DEADLINE)
		ctx.cpus = dlb_cpumask_weight(&th->task->cpus);
	if (!strcmp(th->setup_what, "policy"))
		return rtapp_sched_explain(err, th->setup_errno, th->task, th->instance, &ctx);
	return dlb_err_set(err, th->setup_errno == EPERM ? DLB_EXIT_ENV : DLB_EXIT_BAD_INPUT,
			   "task '%s' instance %d: cannot set its %s: %s", th->task->name,
			   th->instance, th->setup_what, strerror(th->setup_errno));
}

/* Create thread i and wait until it has set its policy (or failed). */
static int thread_start(struct rtapp_run *run, struct rtapp_thread *th, struct dlb_err *err)
{
	pthread_attr_t attr;
	int rc;

	/*
	 * A small stack: with lock_pages (rt-app's default) every stack is
	 * locked in memory, and 8 MiB ones exhaust RLIMIT_MEMLOCK at once.
	 */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	rc = pthread_create(&th->pth, &attr, thread_main, th);
	pthread_attr_destroy(&attr);
	if (rc)
		return dlb_err_set(err, DLB_EXIT_ENV, "task '%s': cannot create a thread: %s%s",
				   th->task->name, strerror(rc), rc == EAGAIN &&
				   run->wl->global.lock_pages ? " (lock_pages: RLIMIT_MEMLOCK "
				   "too small? set \"lock_pages\": false or raise it)" : "");
	th->created = true;
	pthread_mutex_lock(&run->lock);
	while (th->setup == SETUP_PENDING)
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	if (th->setup == SETUP_FAILED)
		return explain_setup(run, th, err);
	return 0;
}

/* The prio the kernel shows in sched events: -1 DL, 99 - p RT, 120 + nice fair. */
static int kernel_prio(const struct wl_task *t)
{
	switch (t->policy) {
	case WL_POLICY_DEADLINE:
		return -1;
	case WL_POLICY_FIFO:
	case WL_POLICY_RR:
		return 99 - t->priority;
	default:
		return 120 + t->priority;
	}
}

/*
 * The run-start marker is the first write to trace_marker: if it fails (a
 * read-only or full target), no marker would reach the trace and the analysis
 * would silently lack the DL parameters and job boundaries, so the run is
 * refused before any thread is released.  Job markers after it are not
 * checked: the job path must not branch on I/O, and the trace shows a gap.
 */
static int mark_run_start(struct rtapp_run *run, struct dlb_err *err)
{
	char buf[DLB_MARKER_MAX];
	struct dlb_marker m;
	const char *w = strrchr(run->opts->workload, '/');
	size_t i;

	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_RUN_START;
	snprintf(m.backend, sizeof(m.backend), "kernel");
	snprintf(m.clock, sizeof(m.clock), "mono");
	snprintf(m.workload, sizeof(m.workload), "%s", w ? w + 1 : run->opts->workload);
	m.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (rtapp_tracemark_write(&run->tm, buf, &m)) {
		/* the kernel answers EBADF when the buffer behind the marker is off */
		if (errno == EBADF)
			return dlb_err_set(err, DLB_EXIT_ENV, "trace_marker %s: tracing is off "
					   "(tracing_on is 0 there): turn it on, record with "
					   "dlb-record or run.sh, or run with -n (no markers)",
					   run->tm.path);
		return dlb_err_set(err, DLB_EXIT_ENV, "trace_marker %s: cannot write the "
				   "run-start marker: %s", run->tm.path, strerror(errno));
	}
	for (i = 0; i < run->nr_threads; i++) {
		const struct rtapp_thread *th = &run->threads[i];

		memset(&m, 0, sizeof(m));
		m.kind = DLB_MARK_TASK;
		m.tid = th->tid;
		snprintf(m.name, sizeof(m.name), "%s", th->comm);
		m.policy = (int)th->task->policy;
		m.prio = kernel_prio(th->task);
		if (th->task->policy == WL_POLICY_DEADLINE) {
			m.flags = DLB_MF_PARAMS;
			m.runtime = th->task->dl.runtime;
			m.deadline = th->task->dl.deadline;
			m.period = dl_params_period(&th->task->dl);
		}
		rtapp_tracemark_write(&run->tm, buf, &m);
	}
	return 0;
}

static void mark_run_end(struct rtapp_run *run, enum dlb_run_status st)
{
	char buf[DLB_MARKER_MAX];
	struct dlb_marker m;

	memset(&m, 0, sizeof(m));
	m.kind = DLB_MARK_RUN_END;
	m.status = st;
	rtapp_tracemark_write(&run->tm, buf, &m);
}

/* Tell every thread to go (1) or to leave without running (-1). */
static void threads_release(struct rtapp_run *run, int go)
{
	pthread_mutex_lock(&run->lock);
	run->go = go;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

/*
 * Stop and join everything.  The wake-ups (condition variables, and
 * SIGUSR1 for sleepers) are repeated until all threads have left, because
 * a thread may test the stop flag just before it starts to wait.  Returns
 * -1 if some thread is still there after STOP_TIMEOUT_NS (a workload that
 * deadlocks itself): those are not joined, the process exit ends them.
 */
static int threads_stop(struct rtapp_run *run)
{
	u64 give_up = now_mono() + STOP_TIMEOUT_NS;
	int exited, created = 0, rc = 0;
	size_t i;

	for (i = 0; i < run->nr_threads; i++)
		created += run->threads[i].created;
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	for (;;) {
		res_wake_all(run);
		pthread_mutex_lock(&run->lock);
		exited = run->exited;
		for (i = 0; i < run->nr_threads; i++)
			if (run->threads[i].created && !run->threads[i].exited)
				pthread_kill(run->threads[i].pth, SIGUSR1);
		pthread_mutex_unlock(&run->lock);
		if (exited >= created)
			break;
		if (!dl_time_before(now_mono(), give_up)) {
			rc = -1;
			break;
		}
		sleep_until(now_mono() + NSEC_PER_MSEC);
	}
	pthread_mutex_lock(&run->lock);
	for (i = 0; i < run->nr_threads; i++) {
		struct rtapp_thread *th = &run->threads[i];

		if (th->created && !th->exited)
			run->stuck = true;
		else if (th->created)
			th->joinable = true;
	}
	pthread_mutex_unlock(&run->lock);
	for (i = 0; i < run->nr_threads; i++)
		if (run->threads[i].joinable)
			pthread_join(run->threads[i].pth, NULL);
	return rc;
}

/* Main thread: wait for the duration, a signal, or every thread done. */
static enum dlb_run_status wait_run(struct rtapp_run *run)
{
	int exited;

	for (;;) {
		if (rtapp_signalled)
			return DLB_RUN_INCOMPLETE;
		if (run->end && !dl_time_before(now_mono(), run->end))
			return DLB_RUN_COMPLETE;
		pthread_mutex_lock(&run->lock);
		exited = run->exited;
		pthread_mutex_unlock(&run->lock);
		if ((size_t)exited >= run->nr_threads)
			return DLB_RUN_COMPLETE;
		sleep_until(now_mono() + 5 * NSEC_PER_MSEC);
	}
}

static void fill_summary(struct rtapp_run *run, struct dlb_summary *sum)
{
	size_t i;

	snprintf(sum->backend, sizeof(sum->backend), "kernel");
	snprintf(sum->clock, sizeof(sum->clock), "mono");
	sum->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	sum->start_ns = run->t0;
	sum->threads = calloc(run->nr_threads ? run->nr_threads : 1, sizeof(*sum->threads));
	if (!sum->threads)
		return;
	sum->nr_threads = run->nr_threads;
	for (i = 0; i < run->nr_threads; i++) {
		const struct rtapp_thread *th = &run->threads[i];
		struct dlb_summary_thread *s = &sum->threads[i];

		snprintf(s->name, sizeof(s->name), "%s", th->task->name);
		s->instance = th->instance;
		s->index = th->index;
		s->tid = th->tid;
		s->policy = (int)th->task->policy;
		s->priority = th->task->priority;
		if (th->task->policy == WL_POLICY_DEADLINE) {
			s->runtime = th->task->dl.runtime;
			s->deadline = th->task->dl.deadline;
			s->period = dl_params_period(&th->task->dl);
		}
		s->jobs = th->job;
		s->misses = th->misses;
		s->max_lateness = th->max_lateness;
		snprintf(s->log, sizeof(s->log), "%s", th->log_name);
		snprintf(s->sched, sizeof(s->sched), "%s", th->sched_name);
	}
}

int rtapp_kernel_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err)
{
	enum dlb_run_status st = DLB_RUN_ERROR;
	struct sigaction sa;
	sigset_t block, old;
	size_t i;
	int rc = -1;

	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
	if (run->wl->global.lock_pages && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		dlb_err_set(err, DLB_EXIT_ENV, "lock_pages: mlockall: %s", strerror(errno));
		goto out;
	}
	if (res_init(run, err) || threads_init(run, err))
		goto out;
	if (rtapp_cpusets_needed(run->wl) && rtapp_cpusets_create(&run->cpusets, run->wl, err))
		goto out;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake_signal;	/* no SA_RESTART: sleeps return EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	/* threads never take SIGINT/SIGTERM: the main thread does, and tells them */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < run->nr_threads && !rtapp_signalled; i++)
		if (thread_start(run, &run->threads[i], err))
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (i == run->nr_threads) {
		sum->admission = DLB_ADMISSION_ADMITTED;
	} else if (err->errnum == EBUSY) {
		sum->admission = DLB_ADMISSION_REFUSED;
		snprintf(sum->admission_detail, sizeof(sum->admission_detail), "%s", err->msg);
	}
	if (i < run->nr_threads) {
		if (!err->msg[0])
			dlb_err_set(err, DLB_EXIT_INCOMPLETE, "interrupted while starting threads");
		threads_release(run, -1);
		if (threads_stop(run))
			dlb_err_prefix(err, "threads did not stop");
		goto out;
	}
	if (mark_run_start(run, err)) {
		threads_release(run, -1);
		if (threads_stop(run))
			dlb_err_prefix(err, "threads did not stop");
		goto out;
	}
	run->t0 = now_mono();
	run->end = run->opts->duration_ns ? run->t0 + run->opts->duration_ns : 0;
	threads_release(run, 1);
	st = wait_run(run);
	if (threads_stop(run)) {
		st = DLB_RUN_ERROR;
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "threads still blocked %llu s after the "
			    "end (does the workload deadlock, e.g. locks taken in opposite "
			    "orders?): left to the process exit",
			    (unsigned long long)(STOP_TIMEOUT_NS / NSEC_PER_SEC));
	}
	mark_run_end(run, st);
	rc = 0;
out:
	sum->end_ns = now_mono();
	fill_summary(run, sum);
	sum->status = rc ? DLB_RUN_ERROR : st;
	/* a stuck thread may still touch its buffers: leave them to the exit */
	for (i = 0; i < run->nr_threads && !run->stuck; i++)
		thread_fini(&run->threads[i], rc ? NULL : err);
	rtapp_cpusets_destroy(&run->cpusets);
	if (rc)
		return err->code;
	if (err->msg[0])
		return err->code;
	return st == DLB_RUN_COMPLETE ? DLB_EXIT_OK : DLB_EXIT_INCOMPLETE;
}
