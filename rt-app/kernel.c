// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel backend: one thread per task instance under the running
 * kernel's scheduler, each running its events (kthread.c, the shared
 * interpreter), an rt-app log per thread and a /proc sched snapshot.
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

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "kernel.h"
#include "membind.h"

#define LOG_RECS	1024	/* a thread's ring of finished log records */
#define LOG_DRAIN_NS	(5 * NSEC_PER_MSEC)	/* how often the main thread writes them */
#define SCHED_SNAP_MAX	(32 * 1024)	/* a thread's /proc sched file, read as it leaves */
#define STOP_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define THREAD_STACK	(256 * 1024)
/*
 * The run's start t0 lies at least this far after the go: every thread has
 * been woken, has read the go and sleeps until its first release on its
 * own absolute timer, as for every later job (one that comes later starts
 * at once).  See run_start() for the constrained tasks' longer wait.
 */
#define START_LEAD_NS	NSEC_PER_MSEC

/*
 * A stuck run's threads and resources, left to the process exit
 * (rtapp_kernel_run()); volatile: written only, the stores must stay.
 */
static struct {
	struct rtapp_thread **volatile threads;
	struct rtapp_res *volatile res;
} abandoned;

static void sleep_until(u64 t)
{
	sleep_until_run(NULL, t);
}

static void on_wake_signal(int sig)
{
	(void)sig;	/* only interrupts clock_nanosleep */
}

/* ---- thread life ---- */

/* The events the thread went through, in order (-E): written once it has left. */
static void save_events(struct rtapp_thread *th)
{
	char path[PATH_MAX + DLB_SUMMARY_PATH_MAX + 2];
	FILE *f;

	if (!th->events_name[0])
		return;
	snprintf(path, sizeof(path), "%s/%s", th->run->outdir, th->events_name);
	f = fopen(path, "w");
	if (!f || dlb_interp_log_write(&th->it, f) || fclose(f)) {
		rtapp_thread_write_failed(th, th->events_name);
		th->events_name[0] = '\0';
	}
}

/*
 * A workload with nodes_membind: the thread's memory policy as it exits,
 * as numa_maps writes it ("bind:0"), one more "key : value" line at the
 * end of its sched snapshot (/proc/PID/sched has none).
 */
static void snap_mempolicy(struct rtapp_thread *th)
{
	char pol[DLB_MAX_CPUS * 4 + 32];
	int n;

	if (!wl_membind_task(th->run->wl))
		return;
	if (rtapp_membind_get(pol, sizeof(pol)))
		snprintf(pol, sizeof(pol), "unknown");
	n = snprintf(th->sched_snap + th->sched_len, SCHED_SNAP_MAX - th->sched_len,
		     "%-45s: %s\n", "mempolicy", pol);
	if (n > 0 && (size_t)n < SCHED_SNAP_MAX - th->sched_len)
		th->sched_len += (size_t)n;
}

/*
 * The thread's own /proc sched file, read into its buffer just before it
 * leaves SCHED_DEADLINE (only the thread can: its file goes with it); the
 * main thread writes it out with the other files at the end (save_sched).
 */
static void snap_sched(struct rtapp_thread *th)
{
	char src[64];
	ssize_t n;
	int in;

	snprintf(src, sizeof(src), "/proc/self/task/%d/sched", th->tid);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		th->sched_name[0] = '\0';
		return;
	}
	while (th->sched_len < SCHED_SNAP_MAX &&
	       (n = read(in, th->sched_snap + th->sched_len, SCHED_SNAP_MAX - th->sched_len)) > 0)
		th->sched_len += (size_t)n;
	close(in);
	snap_mempolicy(th);
}

/* The sched snapshot to its file, by the main thread once the thread has left. */
static void save_sched(struct rtapp_thread *th)
{
	char dst[PATH_MAX + DLB_SUMMARY_PATH_MAX];
	int out;

	if (!th->sched_name[0])
		return;
	snprintf(dst, sizeof(dst), "%s/%s", th->run->outdir, th->sched_name);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		th->sched_name[0] = '\0';
		return;
	}
	if (write(out, th->sched_snap, th->sched_len) != (ssize_t)th->sched_len)
		rtapp_thread_write_failed(th, th->sched_name);
	close(out);
}

/*
 * @m as this thread's affinity; NULL: the default, the main thread's (what
 * the threads inherited, as rt-app's def_cpu_data).  0 or an errno.
 */
int rtapp_set_affinity(const struct dlb_cpumask *m)
{
	cpu_set_t set;
	unsigned int cpu;

	CPU_ZERO(&set);
	if (!m && sched_getaffinity(getpid(), sizeof(set), &set))
		return errno;
	for (cpu = 0; m && cpu < CPU_SETSIZE && cpu < DLB_MAX_CPUS; cpu++)
		if (dlb_cpumask_test(m, cpu))
			CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/*
 * Each phase's cpus once, before the run (the thread then takes the
 * task's): a mask this machine cannot use fails here, named, not in the
 * middle of the run at the phase change.
 */
static int check_phase_affinity(const struct wl_task *t)
{
	size_t p;
	int rc;

	for (p = 0; p < t->nr_phases; p++)
		if (t->phases[p].has_cpus && (rc = rtapp_set_affinity(&t->phases[p].cpus)))
			return rc;
	return rtapp_set_affinity(t->has_cpus ? &t->cpus : NULL);
}

static int thread_setup(struct rtapp_thread *th)
{
	const struct wl_task *t = th->task;
	struct rtapp_run *run = th->run;
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
	} else if (t->has_cpus || wl_task_phase_cpus(t) || th->fork >= 0) {
		/* a forked thread inherited its creator's CPUs: its task's, or the run's */
		rc = wl_task_phase_cpus(t) ? check_phase_affinity(t) :
		     rtapp_set_affinity(t->has_cpus ? &t->cpus : NULL);
		if (rc) {
			th->setup_what = "affinity";
			return rc;
		}
	}
	if (t->taskgroup >= 0) {
		/* rt-app's set_thread_taskgroup at the thread's start, before its policy */
		rc = rtapp_taskgroups_join(&run->tgroups, t->taskgroup, th->tid);
		if (rc) {
			th->setup_what = "taskgroup";
			return rc;
		}
	}
	th->setup_what = "policy";
	rc = rtapp_sched_set_self(t, &run->opts->abi);
	th->policy_ns = now_mono();	/* run_start(): when its first CBS period began */
	if (!rc && wl_uclamp_set(&t->uclamp)) {
		/* rt-app's set_thread_param: the clamps after the policy */
		th->setup_what = "uclamp";
		rc = rtapp_sched_set_uclamp(t, &t->uclamp);
	}
	if (rc || !t->membind.set)
		return rc;
	/* rt-app's set_thread_membind, after set_thread_param */
	th->setup_what = "membind";
	return rtapp_membind_set(&t->membind);
}

static int explain_setup(struct rtapp_run *run, struct rtapp_thread *th, struct dlb_err *err);
static void mark_task(struct rtapp_run *run, const struct rtapp_thread *th);

/*
 * The run's start t0, given the go's instant NOW: START_LEAD_NS after it,
 * or later when a constrained task (deadline < period) needs it.
 *
 * The kernel gave each thread a CBS deadline when it took SCHED_DEADLINE
 * in thread_setup() (setup_new_dl_entity: the setup instant + deadline),
 * and its first release is a wake-up against that old deadline.  An
 * implicit-deadline task always starts afresh there (dl_entity_overflow()
 * holds: a full runtime left and less than a deadline to use it), but a
 * constrained one does not (mainline kernel/sched/deadline.c):
 *  - woken before its old deadline, update_dl_revised_wakeup() keeps that
 *    deadline and cuts the runtime to the density of what is left: the job
 *    runs on the setup's clock, not its release's (with 1 ms, Dhall's
 *    heavy task came to hold an earlier kernel deadline than the light
 *    tasks released with it, ran first on the CPU both woke on, and met
 *    its deadlines: the set's predicted misses were gone);
 *  - woken after it but before the next period, dl_check_constrained_dl()
 *    throttles it to that period (a 20 ms lead: an 80 ms wu_lat at the
 *    first job of a 10 ms / 100 ms task, reference/tests/mainline-kernel.sh).
 * So each constrained thread's first release (t0 + its delay) waits for
 * the next period after its setup, when the kernel starts it afresh (its
 * deadline passed, dl_check_constrained_dl() no longer applies, and
 * update_dl_entity() replenishes a new period at the wake-up).
 */
static u64 run_start(const struct rtapp_run *run, u64 now)
{
	u64 t0 = now + START_LEAD_NS;
	size_t i;

	for (i = 0; i < run->nr_threads; i++) {
		const struct rtapp_thread *th = run->threads[i];
		const struct wl_task *t = th->task;
		u64 fresh;

		if (th->setup != SETUP_DONE || t->policy != WL_POLICY_DEADLINE ||
		    t->dl.deadline >= t->dl.period)
			continue;
		/* its first release, t0 + delay, at or after policy_ns + period */
		fresh = th->policy_ns + t->dl.period - t->delay_ns;
		if (t->delay_ns < t->dl.period && dl_time_before(t0, fresh))
			t0 = fresh;
	}
	return t0;
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
	if (rc && th->fork >= 0) {
		/* a forked thread nobody waits for: its failure ends the run, as rt-app exits */
		if (!run->fork_err.msg[0])
			explain_setup(run, th, &run->fork_err);
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	}
	while (run->go == 0)
		pthread_cond_wait(&run->cond, &run->lock);
	go = run->go;
	pthread_mutex_unlock(&run->lock);

	if (go > 0 && th->setup == SETUP_DONE) {
		if (th->fork >= 0)
			mark_task(run, th);	/* those of the threads made at the start: mark_run_start */
		rtapp_thread_events(th);
		dlb_interp_finish(&th->it);
		rtapp_thread_release_held(th);
		/* its log, events and sched files are written by the main thread (thread_fini) */
		snap_sched(th);
		th->ran = true;
	}
	/* leave SCHED_DEADLINE before anything else may move us (cpusets) */
	rtapp_sched_reset_self();
	/* and our taskgroup, as rt-app does, so that it can be removed at once */
	if (run->tgroups.nr)
		rtapp_taskgroups_leave(&run->tgroups, th->tid);
	pthread_mutex_lock(&run->lock);
	th->exited = true;
	run->exited++;
	pthread_mutex_unlock(&run->lock);
	return NULL;
}

/* ---- resources ---- */

/*
 * iorun writes to global.io_device, opened once for the run as rt-app
 * opens it (O_CREAT | O_WRONLY, 0644; a relative path from the current
 * directory); only when a task has an iorun event.
 */
static int io_open(struct rtapp_run *run, struct dlb_err *err)
{
	const struct workload *wl = run->wl;
	size_t i, p, e;
	bool io = false;

	for (i = 0; i < wl->nr_tasks; i++)
		for (p = 0; p < wl->tasks[i].nr_phases; p++)
			for (e = 0; e < wl->tasks[i].phases[p].nr_events; e++)
				io |= wl->tasks[i].phases[p].events[e].type == WL_EV_IORUN;
	run->io_fd = -1;
	if (!io)
		return 0;
	run->io_fd = open(wl->global.io_device, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (run->io_fd < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "global.io_device: %s: cannot open for "
				   "iorun: %s", wl->global.io_device, dlb_strerror(errno));
	return 0;
}

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
	/* memrun buffers with a "ref": built once, as rt-app does when it parses */
	for (i = 0; i < wl->nr_resources; i++)
		if (wl_res_memrun(&wl->resources[i]) && !wl->resources[i].unique &&
		    rtapp_membuf_init(&run->res[i].membuf, &wl->resources[i]))
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory (memrun buffer "
					   "'%s', %llu bytes)", wl->resources[i].name,
					   (unsigned long long)wl->resources[i].size);
	return 0;
}

static void res_fini(struct rtapp_run *run)
{
	size_t i;

	for (i = 0; run->res && i < run->wl->nr_resources; i++)
		rtapp_membuf_free(&run->res[i].membuf);
}

/* This thread's own memrun buffers: those without a "ref" its task uses. */
static int thread_membufs(struct rtapp_thread *th, size_t nres, struct dlb_err *err)
{
	const struct wl_task *t = th->task;
	const struct wl_resource *r;
	size_t p, e;

	th->membuf = calloc(nres, sizeof(*th->membuf));
	th->chase = calloc(nres, sizeof(*th->chase));
	if (!th->membuf || !th->chase)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	for (p = 0; p < t->nr_phases; p++)
		for (e = 0; e < t->phases[p].nr_events; e++) {
			const struct wl_event *ev = &t->phases[p].events[e];

			if (ev->type != WL_EV_MEMRUN)
				continue;
			r = &th->run->wl->resources[ev->res];
			if (r->unique && !th->membuf[ev->res].base &&
			    rtapp_membuf_init(&th->membuf[ev->res], r))
				return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory (memrun "
						   "buffer of task %s, %llu bytes)", t->name,
						   (unsigned long long)r->size);
		}
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

/* rt-app's mem_buffer_size for a task with mem or iorun events, else 0 (no buffer). */
static size_t task_mem_size(const struct workload *wl, const struct wl_task *t)
{
	size_t p, e;

	for (p = 0; p < t->nr_phases; p++)
		for (e = 0; e < t->phases[p].nr_events; e++)
			if (t->phases[p].events[e].type == WL_EV_MEM ||
			    t->phases[p].events[e].type == WL_EV_IORUN)
				return wl->global.mem_buffer_size ?
				       (size_t)wl->global.mem_buffer_size : 4 << 20;
	return 0;
}

static int thread_init(struct rtapp_run *run, struct rtapp_thread *th, const struct wl_task *t,
		       int index, int instance, int fork, struct dlb_err *err)
{
	char path[PATH_MAX + DLB_SUMMARY_PATH_MAX + 2], hdr[DLB_RUNLOG_LINE_MAX];
	size_t nres = run->wl->nr_resources ? run->wl->nr_resources : 1;
	pthread_mutexattr_t ma;

	th->run = run;
	th->task = t;
	th->index = index;
	th->instance = instance;
	th->fork = fork;
	pthread_mutexattr_init(&ma);
	/* PI: a real-time thread whose ring is full waits for the main thread's write */
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&th->log_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	if (dlb_interp_init(&th->it, run->wl, t, &rtapp_kernel_ops, err))
		return -1;
	/* -E: the whole log allocated (and, with lock_pages, faulted in) now, not on the job path */
	if (run->opts->event_log) {
		dlb_interp_log_enable(&th->it, DLB_INTERP_LOG_MAX);
		if (dlb_interp_log_reserve(&th->it))
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory (-E: the event "
					   "log of task %s, %zu bytes)", t->name, DLB_INTERP_LOG_MAX *
					   sizeof(struct dlb_interp_logent));
	}
	th->held = calloc(nres, sizeof(*th->held));
	th->cap_recs = LOG_RECS;
	th->recs = calloc(th->cap_recs, sizeof(*th->recs));
	th->sched_snap = malloc(SCHED_SNAP_MAX);
	th->mem_size = task_mem_size(run->wl, t);
	th->mem = th->mem_size ? malloc(th->mem_size) : NULL;
	if (!th->held || !th->recs || !th->sched_snap || (th->mem_size && !th->mem))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	if (th->mem)
		memset(th->mem, 0, th->mem_size);	/* fault the pages in now */
	if (thread_membufs(th, nres, err))
		return -1;
	/* rt-app's names: <basename>-<task>-<thread index>[-<fork>].log */
	wl_thread_name(th->comm, sizeof(th->comm), t, (size_t)index, fork);
	if (rtapp_thread_files(run->wl, t, (size_t)index, th->fork, th->log_name, th->sched_name,
			       run->opts->event_log ? th->events_name : NULL,
			       sizeof(th->log_name), err))
		return -1;
	if (run->wl->global.log_size == 0) {
		/* "log_size": "disable", as rt-app: no log (summary says "") */
		th->log_name[0] = '\0';
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", run->outdir, th->log_name);
	th->log = fopen(path, "w");
	if (!th->log)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
	dlb_runlog_header(hdr, sizeof(hdr), wl_policy_str(t->policy),
			  t->policy != WL_POLICY_DEADLINE, t->priority);
	fputs(hdr, th->log);
	return 0;
}

/* A thread that has left: what it recorded goes to its files (by the main thread). */
static void thread_files(struct rtapp_thread *th)
{
	if (th->recs)
		rtapp_log_flush(th);
	if (th->ran) {
		save_events(th);
		save_sched(th);
	}
}

static void thread_fini(struct rtapp_thread *th, struct dlb_err *err)
{
	size_t i;

	thread_files(th);
	if (th->io_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "task %s thread %d: iorun: write to %s: %s",
			    th->task->name, th->instance, th->run->wl->global.io_device,
			    dlb_strerror(th->io_errno));
	if (th->affinity_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "task %s thread %d: a phase's cpus: "
			    "sched_setaffinity: %s (the thread stopped there)", th->task->name,
			    th->instance, dlb_strerror(th->affinity_errno));
	if (th->taskgroup_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "task %s thread %d: a phase's taskgroup '%s': "
			    "%s (the thread stopped there)", th->task->name, th->instance,
			    th->run->wl->taskgroups[th->taskgroup_failed],
			    dlb_strerror(th->taskgroup_errno));
	if (th->uclamp_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "task %s thread %d: phase '%s': setting "
			    "util_min/util_max: %s (the thread stopped there)", th->task->name,
			    th->instance, th->task->phases[th->it.uclamp_phase].name,
			    dlb_strerror(th->uclamp_errno));
	if (th->membind_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "task %s thread %d: phase '%s': "
			    "nodes_membind: set_mempolicy: %s (the thread stopped there)",
			    th->task->name, th->instance, th->task->phases[th->membind_phase].name,
			    dlb_strerror(th->membind_errno));
	if (th->log && fclose(th->log))
		rtapp_thread_write_failed(th, th->log_name);
	if (th->out_errno && err && !err->msg[0])
		dlb_err_set(err, DLB_EXIT_INCOMPLETE, "%s/%s: %s", th->run->outdir, th->out_bad,
			    dlb_strerror(th->out_errno));
	th->log = NULL;
	dlb_interp_fini(&th->it);
	free(th->held);
	free(th->recs);
	pthread_mutex_destroy(&th->log_lock);
	free(th->sched_snap);
	free(th->mem);
	for (i = 0; th->membuf && i < th->run->wl->nr_resources; i++)
		rtapp_membuf_free(&th->membuf[i]);
	free(th->membuf);
	free(th->chase);
}

/* Thread @index of task @t: allocated, counted in run->threads (freed at the end), set up. */
static struct rtapp_thread *thread_new(struct rtapp_run *run, const struct wl_task *t,
				       int instance, int fork, struct dlb_err *err)
{
	size_t index = run->nr_threads;
	struct rtapp_thread *th;

	if (index >= run->cap_threads) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "internal: more threads than %zu",
			    run->cap_threads);
		return NULL;
	}
	th = calloc(1, sizeof(*th));
	if (!th) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	run->threads[run->nr_threads++] = th;
	return thread_init(run, th, t, (int)index, instance, fork, err) ? NULL : th;
}

static int threads_init(struct rtapp_run *run, struct dlb_err *err)
{
	const struct workload *wl = run->wl;
	size_t t;
	int i;

	run->cap_threads = wl_max_threads(wl);
	run->threads = calloc(run->cap_threads ? run->cap_threads : 1, sizeof(*run->threads));
	run->forks = calloc(wl->nr_tasks ? wl->nr_tasks : 1, sizeof(*run->forks));
	if (!run->threads || !run->forks)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	run->nr_threads = 0;
	for (t = 0; t < wl->nr_tasks; t++)
		for (i = 0; i < wl->tasks[t].instances; i++)
			if (!thread_new(run, &wl->tasks[t], i, -1, err))
				return -1;
	return 0;
}

/*
 * A new thread starts in its creator's cpuset.  One forked by a pinned DL
 * thread (inside a cpuset partition) can leave it only for another
 * partition (a pinned DL task's, rtapp_cpusets_join): any other is refused.
 */
static int check_forks(const struct workload *wl, struct dlb_err *err)
{
	size_t i, p, e;

	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (!t->has_cpus || t->policy != WL_POLICY_DEADLINE)
			continue;
		for (p = 0; p < t->nr_phases; p++) {
			for (e = 0; e < t->phases[p].nr_events; e++) {
				const struct wl_event *ev = &t->phases[p].events[e];
				const struct wl_task *c = &wl->tasks[ev->task < 0 ? 0 : ev->task];

				if (ev->type != WL_EV_FORK ||
				    (c->has_cpus && c->policy == WL_POLICY_DEADLINE))
					continue;
				return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s' (SCHED_DEADLINE "
						   "with cpus: a cpuset partition) forks task '%s', "
						   "which is not a pinned SCHED_DEADLINE task: not "
						   "supported on the kernel backend (a new thread "
						   "starts in its creator's cpuset)", t->name, c->name);
			}
		}
	}
	return 0;
}

/* The CPUs the run uses: -m N (0..N-1, rtapp_cpus_limit), else every online one. */
static int run_cpus(const struct rtapp_run *run)
{
	return run->opts->cpus ? run->opts->cpus : (int)sysconf(_SC_NPROCESSORS_ONLN);
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
		const struct wl_task *t = run->threads[i]->task;

		if (run->threads[i]->setup != SETUP_DONE || t->policy != WL_POLICY_DEADLINE)
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
				       (unsigned int)run_cpus(run) };

	if (th->task->has_cpus && th->task->policy == WL_POLICY_DEADLINE)
		ctx.cpus = dlb_cpumask_weight(&th->task->cpus);
	if (!strcmp(th->setup_what, "policy"))
		return rtapp_sched_explain(err, th->setup_errno, th->task, th->instance, &ctx);
	if (!strcmp(th->setup_what, "uclamp"))
		return rtapp_uclamp_explain(err, th->setup_errno, th->task, th->instance);
	if (!strcmp(th->setup_what, "membind"))
		return rtapp_membind_explain(err, th->setup_errno, th->task, th->instance, NULL);
	if (!strcmp(th->setup_what, "taskgroup"))
		return dlb_err_set(err, DLB_EXIT_ENV, "task '%s' instance %d: cannot join taskgroup "
				   "'%s' (%s): %s", th->task->name, th->instance,
				   run->wl->taskgroups[th->task->taskgroup],
				   run->tgroups.dir[th->task->taskgroup], strerror(th->setup_errno));
	return dlb_err_set(err, th->setup_errno == EPERM ? DLB_EXIT_ENV : DLB_EXIT_BAD_INPUT,
			   "task '%s' instance %d: cannot set its %s: %s", th->task->name,
			   th->instance, th->setup_what, dlb_strerror(th->setup_errno));
}

/* pthread_create of @th; 0 or -1 with @err. */
static int thread_create(struct rtapp_run *run, struct rtapp_thread *th, struct dlb_err *err)
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
				   th->task->name, dlb_strerror(rc), rc == EAGAIN &&
				   run->wl->global.lock_pages ? " (lock_pages: RLIMIT_MEMLOCK "
				   "too small? set \"lock_pages\": false or raise it)" : "");
	th->created = true;
	return 0;
}

/*
 * rt-app's fork (rt-app.c, case rtapp_fork), called by thread @parent:
 * one more thread of task @task, the run's next index, created now by
 * the parent (which, forking, has SCHED_FLAG_RESET_ON_FORK: a DL thread
 * could not create one otherwise); it sets itself up and starts without
 * waiting for anyone.  A failure stops the run, as rt-app exits;
 * run->fork_err says why.
 */
int rtapp_thread_fork(struct rtapp_thread *parent, int task)
{
	struct rtapp_run *run = parent->run;
	const struct wl_task *t = &run->wl->tasks[task];
	struct rtapp_thread *th;
	struct dlb_err err;

	dlb_err_clear(&err);
	pthread_mutex_lock(&run->lock);
	if (stopping(parent)) {
		pthread_mutex_unlock(&run->lock);
		return DLB_INTERP_STOP;
	}
	if (run->forks[task] >= WL_FORK_LIMIT) {
		dlb_err_set(&err, DLB_EXIT_BAD_INPUT, "%s: fork of '%s': %d forks of a task at "
			    "most (rt-app's limit, where it exits)", parent->comm, t->name,
			    WL_FORK_LIMIT);
		goto fail;
	}
	th = thread_new(run, t, t->instances + run->forks[task], run->forks[task], &err);
	if (!th || thread_create(run, th, &err))
		goto fail;
	run->forks[task]++;
	pthread_mutex_unlock(&run->lock);
	return DLB_INTERP_DONE;
fail:
	if (!run->fork_err.msg[0])
		run->fork_err = err;
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&run->lock);
	return DLB_INTERP_STOP;
}

/* Create thread i and wait until it has set its policy (or failed). */
static int thread_start(struct rtapp_run *run, struct rtapp_thread *th, struct dlb_err *err)
{
	if (thread_create(run, th, err))
		return -1;
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

/* A thread's "dlb_task" marker: at the run's start, or as a forked one starts. */
static void mark_task(struct rtapp_run *run, const struct rtapp_thread *th)
{
	char buf[DLB_MARKER_MAX];
	struct dlb_marker m;

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
	m.cpus = run_cpus(run);
	if (rtapp_tracemark_write(&run->tm, buf, &m)) {
		/* the kernel answers EBADF when the buffer behind the marker is off */
		if (errno == EBADF)
			return dlb_err_set(err, DLB_EXIT_ENV, "trace_marker %s: tracing is off "
					   "(tracing_on is 0 there): turn it on, record with "
					   "dlb-record or run.sh, or run with -n (no markers)",
					   run->tm.path);
		return dlb_err_set(err, DLB_EXIT_ENV, "trace_marker %s: cannot write the "
				   "run-start marker: %s", run->tm.path, dlb_strerror(errno));
	}
	for (i = 0; i < run->nr_threads; i++)
		mark_task(run, run->threads[i]);
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

	/* no fork creates a thread once stop is set (rtapp_thread_fork checks it under the lock) */
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	for (;;) {
		res_wake_all(run);
		pthread_mutex_lock(&run->lock);
		exited = run->exited;
		for (i = created = 0; i < run->nr_threads; i++)
			created += run->threads[i]->created;
		for (i = 0; i < run->nr_threads; i++)
			if (run->threads[i]->created && !run->threads[i]->exited)
				pthread_kill(run->threads[i]->pth, SIGUSR1);
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
		struct rtapp_thread *th = run->threads[i];

		if (th->created && !th->exited)
			run->stuck = true;
		else if (th->created)
			th->joinable = true;
	}
	pthread_mutex_unlock(&run->lock);
	for (i = 0; i < run->nr_threads; i++)
		if (run->threads[i]->joinable)
			pthread_join(run->threads[i]->pth, NULL);
	return rc;
}

/* The records the threads finished so far, written by this (the main, non-RT) thread. */
static void drain_logs(struct rtapp_run *run)
{
	size_t i, n;

	pthread_mutex_lock(&run->lock);
	n = run->nr_threads;	/* a fork adds one fully made, under the lock */
	pthread_mutex_unlock(&run->lock);
	for (i = 0; i < n; i++)
		rtapp_log_flush(run->threads[i]);
}

/* Main thread: wait for the duration, a signal, or every thread done. */
static enum dlb_run_status wait_run(struct rtapp_run *run)
{
	bool done;

	for (;;) {
		drain_logs(run);
		if (rtapp_signalled)
			return DLB_RUN_INCOMPLETE;
		if (run_stopping(run))
			return DLB_RUN_ERROR;	/* a fork failed: run->fork_err */
		if (run->end && !dl_time_before(now_mono(), run->end))
			return DLB_RUN_COMPLETE;
		pthread_mutex_lock(&run->lock);
		done = (size_t)run->exited >= run->nr_threads;
		pthread_mutex_unlock(&run->lock);
		if (done)
			return DLB_RUN_COMPLETE;
		sleep_until(now_mono() + LOG_DRAIN_NS);
	}
}

static void fill_summary(struct rtapp_run *run, struct dlb_summary *sum)
{
	size_t i;

	snprintf(sum->backend, sizeof(sum->backend), "kernel");
	snprintf(sum->clock, sizeof(sum->clock), "mono");
	sum->cpus = run_cpus(run);
	sum->start_ns = run->t0;
	sum->threads = calloc(run->nr_threads ? run->nr_threads : 1, sizeof(*sum->threads));
	if (!sum->threads)
		return;
	sum->nr_threads = run->nr_threads;
	for (i = 0; i < run->nr_threads; i++) {
		const struct rtapp_thread *th = run->threads[i];
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
			/* what sched_setattr was given: the v4 syscall takes no flags */
			s->dl_flags = run->opts->abi.setscheduler2 ? 0 : th->task->dl.flags;
		}
		s->jobs = th->it.jobs;
		s->misses = th->it.misses;
		s->max_lateness = th->it.max_lateness;
		snprintf(s->log, sizeof(s->log), "%s", th->log_name);
		snprintf(s->sched, sizeof(s->sched), "%s", th->sched_name);
	}
}

/* The longest period of the run's DL tasks: a bound on their bandwidth's deferred release. */
static u64 longest_period(const struct workload *wl)
{
	u64 p, max = 0;
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++) {
		if (wl->tasks[i].policy != WL_POLICY_DEADLINE)
			continue;
		p = dl_params_period(&wl->tasks[i].dl);
		if (p > max)
			max = p;
	}
	return max;
}

/*
 * The DL accounting before anything starts: an inconsistent one is
 * refused (rtapp_dlbw_begin), since admission, and so the run, would
 * measure a broken kernel.
 */
static int dlbw_start(struct rtapp_run *run, struct dlb_err *err)
{
	run->dlbw = calloc(1, sizeof(*run->dlbw));
	if (!run->dlbw)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	if (!rtapp_dlbw_begin(run->dlbw, err))
		return 0;
	rtapp_dlbw_close(run->dlbw);
	free(run->dlbw);
	run->dlbw = NULL;
	return -1;
}

/*
 * The cleanup order (docs/kernel-findings.md).  The threads have left
 * SCHED_DEADLINE and exited; the kernel releases the bandwidth of one that
 * left before its 0-lag time later, when its inactive timer fires, in the
 * root domain its CPU is in then.  Dismantling the partitions in between
 * rebuilds the domains without it, and the late release then makes the new
 * domain's total_bw short (negative): so first wait until the partitions'
 * accounting is back to what it was before the threads started (bounded),
 * then dismantle, then compare with the state before the run.
 */
static void teardown(struct rtapp_run *run, struct dlb_summary *sum)
{
	struct rtapp_dlbw *d = run->dlbw;
	struct dlb_summary_dlbw *out = &sum->dlbw;
	u64 bound = 2 * longest_period(run->wl) + 100 * NSEC_PER_MSEC;
	bool settle = run->opts->teardown == RTAPP_TEARDOWN_SETTLE;
	/* no rebuild (no partitions): a pending release is seen in total_bw */
	bool released = !run->cpusets.active;

	if (d && d->usable && d->has_split && settle && !run->stuck)
		released = rtapp_dlbw_wait(d, &d->split, &d->after, bound, &out->release_wait_ns);
	rtapp_cpusets_destroy(&run->cpusets);
	rtapp_taskgroups_destroy(&run->tgroups);
	if (!d)
		return;
	snprintf(out->teardown, sizeof(out->teardown), "%s", settle ? "settle" : "immediate");
	if (run->stuck) {
		out->status = DLB_DLBW_NOT_CHECKED;
		snprintf(out->detail, sizeof(out->detail), "threads of the run still alive");
	} else {
		rtapp_dlbw_end(d, bound, released, true, out);
	}
	rtapp_dlbw_close(d);
	free(d);
	run->dlbw = NULL;
}

int rtapp_kernel_run(struct rtapp_run *run, struct dlb_summary *sum, struct dlb_err *err)
{
	enum dlb_run_status st = DLB_RUN_ERROR;
	struct sigaction sa;
	sigset_t block, old;
	size_t i;
	int rc = -1;

	run->io_fd = -1;
	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
	if (dlbw_start(run, err))
		goto out;
	if (run->wl->global.lock_pages && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		dlb_err_set(err, DLB_EXIT_ENV, "lock_pages: mlockall: %s", dlb_strerror(errno));
		goto out;
	}
	if (check_forks(run->wl, err) || res_init(run, err) || io_open(run, err) ||
	    threads_init(run, err))
		goto out;
	/* -m N: the threads inherit this, so none starts outside 0..N-1 */
	if (run->opts->cpus && run->opts->cpus < (int)sysconf(_SC_NPROCESSORS_ONLN)) {
		int e = rtapp_cpus_self(run->opts->cpus);

		if (e) {
			dlb_err_set(err, DLB_EXIT_ENV, "--cpus %d: cannot restrict the run to "
				    "CPUs 0..%d: %s", run->opts->cpus, run->opts->cpus - 1,
				    dlb_strerror(e));
			goto out;
		}
	}
	if (rtapp_cpusets_needed(run->wl) && rtapp_cpusets_create(&run->cpusets, run->wl, err))
		goto out;
	if (rtapp_taskgroups_create(&run->tgroups, run->wl, err))
		goto out;
	/* the split domains before any DL thread: what they must come back to */
	if (run->cpusets.active && run->dlbw->usable)
		run->dlbw->has_split = !rtapp_dlbw_read(run->dlbw, &run->dlbw->split);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake_signal;	/* no SA_RESTART: sleeps return EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	/* threads never take SIGINT/SIGTERM: the main thread does, and tells them */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < run->nr_threads && !rtapp_signalled; i++)
		if (thread_start(run, run->threads[i], err))
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (i == run->nr_threads) {
		sum->admission = DLB_ADMISSION_ADMITTED;
	} else if (err->errnum == EBUSY) {
		sum->admission = DLB_ADMISSION_REFUSED;
		snprintf(sum->admission_detail, sizeof(sum->admission_detail), "%s", err->msg);
	}
	if (i < run->nr_threads) {
		if (!err->msg[0]) {
			/* a signal, not a failure: the run is incomplete, as after its start */
			dlb_err_set(err, DLB_EXIT_INCOMPLETE, "interrupted while starting threads");
			st = DLB_RUN_INCOMPLETE;
		}
		threads_release(run, -1);
		if (threads_stop(run)) {
			dlb_err_prefix(err, "threads did not stop");
			st = DLB_RUN_ERROR;
		}
		goto out;
	}
	if (mark_run_start(run, err)) {
		threads_release(run, -1);
		if (threads_stop(run))
			dlb_err_prefix(err, "threads did not stop");
		goto out;
	}
	run->t0 = run_start(run, now_mono());
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
	if (run->fork_err.msg[0])
		*err = run->fork_err;
	rc = 0;
out:
	sum->end_ns = now_mono();
	fill_summary(run, sum);
	sum->status = rc && st != DLB_RUN_INCOMPLETE ? DLB_RUN_ERROR : st;
	/*
	 * A stuck thread may still touch its buffers: leave them to the exit;
	 * those that left still get their files (the exit flushes the logs).
	 */
	for (i = 0; i < run->nr_threads && run->stuck; i++)
		if (run->threads[i]->joinable)
			thread_files(run->threads[i]);
	for (i = 0; i < run->nr_threads && !run->stuck; i++) {
		thread_fini(run->threads[i], rc ? NULL : err);
		free(run->threads[i]);
		run->threads[i] = NULL;
	}
	if (!run->stuck)
		res_fini(run);
	/* a log or event file that could not be written: the run's data are not whole */
	if (!rc && err->code == DLB_EXIT_INCOMPLETE && sum->status == DLB_RUN_COMPLETE)
		sum->status = DLB_RUN_INCOMPLETE;
	teardown(run, sum);
	if (run->io_fd >= 0)
		close(run->io_fd);
	if (run->stuck) {
		/*
		 * Left to the process exit with threads still blocked in them (on
		 * the resources' locks, with their own buffers): kept reachable, not
		 * freed by the caller, nor reported as leaks at the exit.
		 */
		abandoned.threads = run->threads;
		abandoned.res = run->res;
		run->threads = NULL;
		run->res = NULL;
	}
	if (rc)
		return err->code;
	if (err->msg[0])
		return err->code;
	return st == DLB_RUN_COMPLETE ? DLB_EXIT_OK : DLB_EXIT_INCOMPLETE;
}
