// SPDX-License-Identifier: GPL-2.0
/*
 * What a simulation reports: its hooks, per-thread statistics, event logs,
 * /proc/PID/sched snapshots, operation counts (sim.h).
 */
#include <stdio.h>
#include <string.h>

#include "sim_local.h"

void dlb_sim_set_event_hook(struct dlb_sim *sim, dlb_event_fn fn, void *arg)
{
	sim->ev_fn = fn;
	sim->ev_arg = arg;
}

const struct dlb_marker *dlb_sim_marker(const struct dlb_sim *sim)
{
	return sim->ev_marker;
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
	t = sim->thr[i];
	p = &t->task;
	memset(st, 0, sizeof(*st));
	st->tid = t->tid;
	memcpy(st->comm, p->comm, DLB_COMM_LEN);
	st->task = t->task_idx;
	st->instance = t->instance;
	st->fork = t->fork;
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
	st->jobs = t->it.jobs;
	st->jobs_missed = t->it.misses;
	if (t->it.rel_dl && t->st != THR_DONE) {
		u64 rel = t->it.in_job ? t->it.rel : t->it.have_next_rel ? t->it.next_rel : UINT64_MAX;

		st->late_pending = rel != UINT64_MAX && rel + t->it.rel_dl < sim->now;
	}
	return 0;
}

int dlb_sim_write_events(const struct dlb_sim *sim, size_t i, FILE *f)
{
	if (i >= sim->nr_thr)
		return -1;
	return dlb_interp_log_write(&sim->thr[i]->it, f);
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
		return sim_unavail_comm(sim, pid);
	return sim->thr[i]->task.comm;
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
