// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's jobs, from markers: begin and end, the release and
 * deadline (given, or inferred as rt-app's timer sets them), the job row
 * handed to opts.job_fn.
 */
#include <stdio.h>
#include <string.h>

#include "metrics_local.h"

/*
 * The instant the scheduler saw the job arrive: its thread's wake-up
 * between the release and the begin (a timer fires late), else the
 * release (a late thread that never slept, or no sched_wakeup traced).
 */
static void job_wakeup(const struct task *t, struct dlb_job *j)
{
	j->wakeup = t->wake && !dl_time_before(t->wake, t->rel) &&
		    !dl_time_before(t->begin, t->wake) ? t->wake : t->rel;
}

/* @j: task @t's current job, ending at @end having run @exec. */
static void job_fill(const struct dlb_metrics *m, const struct task *t, u64 end, u64 exec,
		     struct dlb_job *j)
{
	memset(j, 0, sizeof(*j));
	j->tid = t->pub.tid;
	j->name = t->pub.name;
	j->job = t->job_idx;
	j->rel = t->rel;
	j->begin = t->begin;
	j->end = end;
	j->dl = t->dl;
	j->rel_src = t->rel_src;
	j->dl_known = t->dl_valid;
	j->exec_known = m->run.switches > 0;
	j->response = end - t->rel;
	j->wakeup_lat = t->begin - t->rel;
	j->exec = exec;
	j->migrations = t->mig_job;
	j->preemptions = t->preempt_job;
	j->switches_in = t->sw_job;
	j->moves_in = t->moved_job;
	/* it began in the slice its wake-up's switch-in started, on that CPU */
	j->startup_known = t->woke_for_job && t->begin_in_slice &&
			   !dl_time_before(t->begin_slice, t->wake);
	j->startup_moved = t->begin_moved;
	j->startup_ns = j->startup_known ? t->begin - t->begin_slice : 0;
	j->cpu_begin = t->cpu_begin;
	j->cpu_end = t->cpu;
	j->inversion_ns = t->inv_job;
	j->throttles = t->thr_job;
	j->held = t->held;
	j->held_from = t->held_from;
	job_wakeup(t, j);
}

void task_throttled(struct task *t, u64 ts)
{
	t->throttled = true;
	t->thr_from = ts;
	t->thr_job++;
}

/*
 * The CBS lets @t go at @ts (replenished, or running again).  If it was
 * ready meanwhile (woken, or never asleep: not a sleeper its timer
 * replenished), its job waited for its budget from the throttle, or from
 * its wake-up if it woke throttled: the first such instant, when the wait
 * took time, is dlb_job.held_from.  A task throttled as it blocked and
 * replenished by the time it woke was held back by nothing.
 */
void task_unthrottled(struct task *t, u64 ts)
{
	u64 from = t->thr_from;

	if (!t->throttled)
		return;
	t->throttled = false;
	if (t->wait_idx < 0 && t->cpu < 0)
		return;		/* asleep */
	if (t->woke_since_done && dl_time_before(from, t->last_wakeup))
		from = t->last_wakeup;
	if (!t->held && dl_time_before(from, ts)) {
		t->held = true;
		t->held_from = from;
	}
}

/* A sample into a task's distribution, unless the engine keeps jobs only. */
static void sample(const struct dlb_metrics *m, struct dlb_stat *s, s64 v)
{
	if (!m->opts.jobs_only)
		dlb_stat_add(s, v);
}

void job_finish(struct dlb_metrics *m, struct task *t, u64 end)
{
	struct dlb_task_metrics *p = &t->pub;
	struct dlb_job j;

	task_seg_exec(m, t, end);
	task_seg(m, t, end);
	job_fill(m, t, end, t->exec, &j);
	j.unavail_ns = t->ua_exec;

	p->jobs++;
	m->run.jobs++;
	sample(m, &p->response, (s64)j.response);
	sample(m, &p->wakeup_lat, (s64)j.wakeup_lat);
	if (j.dl_known) {
		j.lateness = (s64)(end - t->dl);
		j.miss = dl_time_before(t->dl, end);
		sample(m, &p->lateness, j.lateness);
		if (j.miss) {
			p->misses++;
			m->run.misses++;
		}
	} else {
		p->jobs_no_dl++;
	}
	if (j.exec_known) {
		sample(m, &p->exec, (s64)j.exec);
		/* the seed's rorun: runtime used beyond the reservation, c_j - Q */
		if (p->param_src != DLB_PARAM_NONE && j.exec > p->runtime) {
			j.overrun = true;
			j.overrun_ns = j.exec - p->runtime;
			p->overruns++;
			p->overrun_last = j.overrun_ns;
			if (j.overrun_ns > p->overrun_max)
				p->overrun_max = j.overrun_ns;
		}
		sample(m, j.migrations ? &p->exec_migrated : &p->exec_unmigrated, (s64)j.exec);
	}
	if (j.migrations)
		p->migrated_jobs++;
	stall_job(m, t, &j);
	if (m->opts.job_fn)
		m->opts.job_fn(&j, m->opts.job_arg);

	t->in_job = false;
	t->mig_job = 0;
	t->inv_job = 0;
	t->thr_job = 0;
	t->held = false;
	t->woke_since_done = false;
	t->st_wait = 0;
	t->wake_st = (struct dlb_stall){ 0 };
	t->last_valid = true;
	t->last_rel = t->rel;
	t->last_dl = t->dl_valid ? t->dl : 0;
	t->last_end = end;
}

/*
 * A job the trace stopped in (opts.open_fn): what it was up to the last
 * event, counted nowhere.  The conformance replay keeps such a job
 * running to the end, as it was, rather than drop the load it put on its CPU.
 */
void job_open_at_end(struct dlb_metrics *m, struct task *t)
{
	struct dlb_job j;

	if (!m->opts.open_fn)
		return;
	task_seg_exec(m, t, m->last_ts);
	job_fill(m, t, m->last_ts, t->exec, &j);
	j.unavail_ns = t->ua_exec;
	j.open = true;
	m->opts.open_fn(&j, m->opts.job_arg);
}

/*
 * Release of a job whose markers carry none (rt-app), as rt-app's timer
 * sets it (src/rt-app.c, case rtapp_timer, identical in 1.0 and upstream):
 *
 *	t_next += period;			// t_next starts at the zero time
 *	if (now < t_next)
 *		clock_nanosleep(.., TIMER_ABSTIME, &t_next, NULL);
 *	else if (timer.relative)		// the default mode
 *		clock_gettime(CLOCK_MONOTONIC, &t_next);
 *
 * So the first job is released at rt-app's zero time ("[0] sets zero
 * time"), or at the end of the thread's "delay" (a sleep after its start
 * marker); job k + 1 at r_k + P when job k ended before that instant (the
 * thread slept until it), else at job k's end (a late job re-arms the
 * timer from its end and goes on without sleeping).  The previous
 * release + P of a late job would be a release rt-app never made: it
 * counts misses its logs do not show and lateness that grows with every
 * late job.  P is the DL period: the timer's period is not in the trace.
 * Two checks keep a wrong guess from running on: a wake-up before r_k + P
 * (the timer cannot expire early: r_k was guessed too late, e.g. without
 * a zero time) and a wake-up a period or more after it (no timer of period
 * P: a sleep paces the loop) both make the wake-up the release.  A wake-up
 * late by less than a period is the timer's: its lateness is wake-up
 * latency (5.6 ms seen on a loaded 2-CPU VM), not a later release.
 */
static void job_infer_release(struct task *t, u64 begin)
{
	const struct dlb_task_metrics *p = &t->pub;
	u64 next = t->last_rel + p->period;

	if (!t->last_valid && t->woke_since_done) {
		t->rel = t->last_wakeup;
		t->rel_src = DLB_REL_WAKEUP;
	} else if (!t->last_valid && t->zero_valid) {
		t->rel = t->zero;
		t->rel_src = DLB_REL_CLOCK_REF;
	} else if (!t->last_valid || !p->period) {
		t->rel = t->woke_since_done ? t->last_wakeup : begin;
		t->rel_src = t->woke_since_done ? DLB_REL_WAKEUP : DLB_REL_BEGIN;
	} else if (t->woke_since_done) {
		bool timer = !dl_time_before(t->last_wakeup, next) &&
			     t->last_wakeup - next < p->period;

		t->rel = timer ? next : t->last_wakeup;
		t->rel_src = timer ? DLB_REL_PERIOD : DLB_REL_WAKEUP;
	} else if (dl_time_before(t->last_end, next)) {
		/* ended in time but did not sleep: the timer had just expired */
		t->rel = next;
		t->rel_src = DLB_REL_PERIOD;
	} else {
		t->rel = t->last_end;
		t->rel_src = DLB_REL_LATE_END;
	}
	if (dl_time_before(begin, t->rel)) {
		t->rel = begin;
		t->rel_src = DLB_REL_BEGIN;
	}
	t->dl_valid = p->param_src != DLB_PARAM_NONE;
	t->dl = t->rel + p->deadline;
	t->pub.rel_inferred++;
}

static void job_begin(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk,
		      const struct dlb_event *ev)
{
	if (t->in_job)
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_BEGIN, 1,
				 "tid %d job %llu began at %llu ns and never ended", t->pub.tid,
				 (unsigned long long)t->job_idx, (unsigned long long)t->begin);
	t->in_job = true;
	t->expect_end = false;
	t->rtapp = mk->dialect != DLB_DIALECT_DLBENCH;
	t->pub.dialect = mk->dialect;
	t->job_idx = (mk->flags & DLB_MF_JOB) ? mk->job : t->job_count;
	t->job_count++;
	t->begin = ev->ts;
	t->cpu_begin = ev->cpu;
	t->exec = 0;
	t->ua_exec = 0;
	t->st_exec = 0;
	t->preempt_job = 0;
	t->sw_job = 0;
	t->moved_job = 0;
	/* the slice it begins in: since its switch-in, if it runs here */
	t->begin_in_slice = t->cpu == ev->cpu;
	t->begin_slice = t->run_since;
	t->woke_for_job = t->woke_since_done;
	t->begin_moved = t->slice_moved;
	t->wake = t->woke_since_done ? t->last_wakeup : 0;
	if ((mk->flags & DLB_MF_REL) && (mk->flags & DLB_MF_DL)) {
		t->rel = mk->rel;
		t->dl = mk->dl;
		t->dl_valid = true;
		t->rel_src = DLB_REL_MARKER;
	} else if (t->pend_rel && t->pend_job == t->job_idx) {
		t->rel = t->pend_rel_ts;
		t->dl = t->pend_dl;
		t->dl_valid = t->pend_dl_valid;
		t->rel_src = DLB_REL_MARKER;
	} else if (mk->flags & DLB_MF_REL) {
		t->rel = mk->rel;
		t->dl = mk->rel + t->pub.deadline;
		t->dl_valid = t->pub.param_src != DLB_PARAM_NONE;
		t->rel_src = DLB_REL_MARKER;
	} else {
		job_infer_release(t, ev->ts);
	}
	t->pend_rel = false;
	/* the generator writes begin after the release: earlier means two clocks */
	if (dl_time_before(ev->ts, t->rel))
		dlb_metrics_flag(m, DLB_Q_CLOCK_MISMATCH, 1,
				 "tid %d job %llu: begin marker at %llu ns before its release %llu ns",
				 t->pub.tid, (unsigned long long)t->job_idx,
				 (unsigned long long)ev->ts, (unsigned long long)t->rel);
	if (t->predicted) {
		t->pub.dl_predicted++;
		if (!t->dl_valid || t->sched_dl != t->dl)
			t->pub.dl_mispredicted++;
		t->predicted = false;
	}
	t->sched_dl = t->dl;
	t->sched_dl_valid = t->dl_valid;
	cbs_sync(m, t);
	m->dirty = true;
	/* the writer runs: a task first seen in its own begin marker is running now */
	if (ev->pid == t->pub.tid && t->cpu != ev->cpu) {
		struct cpu *c = cpu_get(m, ev->cpu);

		if (c)
			implicit_switch_in(m, c, ev);
	}
	task_seg(m, t, ev->ts);
}

static void job_end(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk,
		    const struct dlb_event *ev)
{
	if (!t->in_job) {
		if (t->expect_end) {
			t->expect_end = false;
			return;
		}
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_END, 1, "tid %d: end marker at %llu ns without a begin",
				 t->pub.tid, (unsigned long long)ev->ts);
		return;
	}
	if ((mk->flags & DLB_MF_JOB) && mk->job != t->job_idx) {
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_END, 1,
				 "tid %d: end of job %llu at %llu ns while job %llu was open",
				 t->pub.tid, (unsigned long long)mk->job, (unsigned long long)ev->ts,
				 (unsigned long long)t->job_idx);
		dlb_metrics_flag(m, DLB_Q_UNMATCHED_BEGIN, 1, "tid %d job %llu never ended",
				 t->pub.tid, (unsigned long long)t->job_idx);
		t->in_job = false;
		return;
	}
	job_finish(m, t, ev->ts);
}

static void marker_task(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk)
{
	if (mk->name[0]) {
		snprintf(t->pub.name, sizeof(t->pub.name), "%s", mk->name);
		t->name_fixed = true;
		task_named(m, t);
	}
	if (mk->policy == 6)
		t->pub.is_dl = true;
	if (mk->flags & DLB_MF_PARAMS) {
		t->pub.param_src = DLB_PARAM_MARKER;
		t->pub.runtime = mk->runtime;
		t->pub.deadline = mk->deadline;
		t->pub.period = mk->period ? mk->period : mk->deadline;
	}
}

static void marker_release(struct dlb_metrics *m, struct task *t, const struct dlb_marker *mk)
{
	t->pend_rel = true;
	t->pend_job = mk->job;
	t->pend_rel_ts = mk->rel;
	t->pend_dl = mk->dl;
	t->pend_dl_valid = mk->flags & DLB_MF_DL;
	/* a job of a non-deadline task has no deadline to wait behind */
	if (!t->in_job && t->pend_dl_valid) {
		t->sched_dl = mk->dl;
		t->sched_dl_valid = true;
		t->predicted = false;
		cbs_sync(m, t);
		m->dirty = true;
	}
}

static void marker_run(struct dlb_metrics *m, const struct dlb_marker *mk)
{
	struct dlb_run_metrics *r = &m->run;

	if (mk->kind == DLB_MARK_RUN_START) {
		r->run_start_seen = true;
		if (mk->dialect != DLB_DIALECT_DLBENCH)
			return;
		snprintf(r->backend, sizeof(r->backend), "%s", mk->backend);
		snprintf(r->clock, sizeof(r->clock), "%s", mk->clock);
		snprintf(r->workload, sizeof(r->workload), "%s", mk->workload);
		if (mk->cpus > r->nr_cpus)
			r->nr_cpus = mk->cpus;
		return;
	}
	r->run_end_seen = true;
	r->run_status = mk->status;
	if (mk->status != DLB_RUN_COMPLETE)
		dlb_metrics_flag(m, DLB_Q_RUN_INCOMPLETE, 1, "the run ended with status %s",
				 dlb_run_status_str(mk->status));
}

int ev_marker(struct dlb_metrics *m, const struct dlb_event *ev)
{
	struct dlb_marker parsed;
	const struct dlb_marker *mk = m->marker;
	struct task *t;
	int r = 1;

	m->run.markers++;
	if (!mk) {
		r = dlb_marker_parse(ev->mark.text, ev->mark.len, ev->pid, &parsed, &m->perr);
		mk = &parsed;
	}
	if (r < 0) {
		dlb_metrics_flag(m, DLB_Q_BAD_MARKERS, 1, "at %llu ns: %s",
				 (unsigned long long)ev->ts, m->perr.msg);
		return 0;
	}
	/*
	 * A marker proves its writer runs, except the ones written on a task's
	 * behalf: a release (the reference writes it at the release instant,
	 * as the released task), task attributes and run markers.
	 */
	if (r == 0 || mk->kind == DLB_MARK_JOB_BEGIN || mk->kind == DLB_MARK_JOB_END ||
	    mk->kind == DLB_MARK_OTHER || mk->kind == DLB_MARK_TASK_START ||
	    mk->kind == DLB_MARK_CLOCK_REF) {
		struct cpu *c = cpu_get(m, ev->cpu);

		if (c && ev->pid > 0)
			implicit_switch_in(m, c, ev);
	}
	if (r == 0) {
		m->run.other_markers++;
		return 0;
	}
	switch (mk->kind) {
	case DLB_MARK_RUN_START:
	case DLB_MARK_RUN_END:
		marker_run(m, mk);
		return 0;
	case DLB_MARK_OTHER:
		return 0;
	case DLB_MARK_CLOCK_REF:
		m->clock_ref = ev->ts;
		m->clock_ref_valid = true;
		return 0;
	default:
		break;
	}
	t = task_get(m, mk->tid);
	if (!t)
		return -1;
	switch (mk->kind) {
	case DLB_MARK_TASK:
		marker_task(m, t, mk);
		break;
	case DLB_MARK_JOB_RELEASE:
		m->run.job_markers++;
		marker_release(m, t, mk);
		break;
	case DLB_MARK_JOB_BEGIN:
		m->run.job_markers++;
		job_begin(m, t, mk, ev);
		break;
	case DLB_MARK_JOB_END:
		m->run.job_markers++;
		job_end(m, t, mk, ev);
		break;
	case DLB_MARK_TASK_START:
		/*
		 * Its timer counts from the zero time set before it started (the
		 * latest: of several rt-app processes, never an earlier one's);
		 * what woke it so far was rt-app's start barrier, not a release.
		 */
		t->zero = m->clock_ref;
		t->zero_valid = m->clock_ref_valid;
		t->woke_since_done = false;
		break;
	case DLB_MARK_TASK_EXIT:
	default:
		break;
	}
	return 0;
}
