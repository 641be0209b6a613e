// SPDX-License-Identifier: GPL-2.0
/*
 * The metric engine's tasks: found by tid (open addressing), named by
 * their comm or a marker, given DL parameters by the caller or by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics_local.h"

static size_t hash_slot(const struct dlb_metrics *m, int tid)
{
	size_t h = (size_t)(unsigned int)tid * 2654435761u;

	return h & (m->hash_size - 1);
}

struct task *task_find(const struct dlb_metrics *m, int tid)
{
	size_t i = hash_slot(m, tid);

	while (m->hash[i]) {
		if (m->hash[i]->pub.tid == tid)
			return m->hash[i];
		i = (i + 1) & (m->hash_size - 1);
	}
	return NULL;
}

static int hash_grow(struct dlb_metrics *m)
{
	struct task **old = m->hash;
	size_t i, old_size = m->hash_size;

	m->hash = calloc(old_size * 2, sizeof(*m->hash));
	if (!m->hash) {
		m->hash = old;
		return -1;
	}
	m->hash_size = old_size * 2;
	for (i = 0; i < old_size; i++) {
		size_t j;

		if (!old[i])
			continue;
		j = hash_slot(m, old[i]->pub.tid);
		while (m->hash[j])
			j = (j + 1) & (m->hash_size - 1);
		m->hash[j] = old[i];
	}
	free(old);
	return 0;
}

/* Apply @fn to every percentile summary of @t. */
void task_stats(struct task *t, void (*fn)(struct dlb_stat *s))
{
	struct dlb_task_metrics *p = &t->pub;

	fn(&p->lateness);
	fn(&p->response);
	fn(&p->wakeup_lat);
	fn(&p->exec);
	fn(&p->mig_delay);
	fn(&p->exec_migrated);
	fn(&p->exec_unmigrated);
}

struct task *task_get(struct dlb_metrics *m, int tid)
{
	struct task *t = task_find(m, tid);
	size_t i;

	if (t)
		return t;
	if ((m->nr_tasks + 1) * 2 > m->hash_size && hash_grow(m))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pub.tid = tid;
	t->cpu = -1;
	t->wait_idx = -1;
	t->rq_cpu = -1;
	t->cpu_begin = -1;
	t->last_run_cpu = -1;
	task_stats(t, dlb_stat_init);
	i = hash_slot(m, tid);
	while (m->hash[i])
		i = (i + 1) & (m->hash_size - 1);
	m->hash[i] = t;
	m->nr_tasks++;
	return t;
}

static void task_params(struct task *t, u64 runtime, u64 deadline, u64 period)
{
	t->pub.param_src = DLB_PARAM_GIVEN;
	t->pub.runtime = runtime;
	t->pub.deadline = deadline;
	t->pub.period = period ? period : deadline;
	t->pub.is_dl = true;
}

/* A task got its name: parameters given for that name apply now. */
void task_named(struct dlb_metrics *m, struct task *t)
{
	size_t i;

	if (t->pub.param_src != DLB_PARAM_NONE)
		return;
	for (i = 0; i < m->nr_named; i++) {
		if (strcmp(m->named[i].name, t->pub.name))
			continue;
		task_params(t, m->named[i].runtime, m->named[i].deadline, m->named[i].period);
		/* a job begun before the name was known gets its deadline now */
		if (t->in_job && !t->dl_valid && t->rel_src != DLB_REL_MARKER) {
			t->dl = t->rel + t->pub.deadline;
			t->dl_valid = true;
			t->sched_dl = t->dl;
			t->sched_dl_valid = true;
		}
		return;
	}
}

/*
 * A thread's comm changes (rt-app renames its threads after clone): the
 * latest one names the task, unless a marker or the caller named it.
 */
void task_name(struct dlb_metrics *m, struct task *t, const char *comm)
{
	if (t->name_fixed || !comm || !comm[0] || !strncmp(t->pub.name, comm, DLB_COMM_LEN))
		return;
	snprintf(t->pub.name, sizeof(t->pub.name), "%.*s", DLB_COMM_LEN, comm);
	task_named(m, t);
}

/*
 * Is @comm a name parameters were given for?  Such a thread is followed
 * from its first sched event, before it is a DL task: rt-app 1.0 renames
 * its threads and makes them DL only then, and a first job that ends
 * without a switch (a late one) would otherwise end before its name is
 * known, and without its deadline.
 */
static bool named_wanted(const struct dlb_metrics *m, const char *comm)
{
	size_t i;

	for (i = 0; i < m->nr_named && comm && comm[0]; i++)
		if (!strncmp(m->named[i].name, comm, DLB_COMM_LEN))
			return true;
	return false;
}

/* The task of @pid, created if it is a DL task or a named one; -1: out of memory. */
int task_lookup(struct dlb_metrics *m, int pid, bool dl, const char *comm, struct task **tp)
{
	*tp = task_find(m, pid);
	if (*tp || (!dl && !named_wanted(m, comm)))
		return 0;
	*tp = task_get(m, pid);
	return *tp ? 0 : -1;
}

int dlb_metrics_set_params_by_name(struct dlb_metrics *m, const char *name, u64 runtime,
				   u64 deadline, u64 period)
{
	struct named_params *p = realloc(m->named, (m->nr_named + 1) * sizeof(*p));

	if (!p)
		return -1;
	m->named = p;
	p = &m->named[m->nr_named++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->runtime = runtime;
	p->deadline = deadline;
	p->period = period;
	return 0;
}

int dlb_metrics_set_params(struct dlb_metrics *m, int tid, const char *name,
			   u64 runtime, u64 deadline, u64 period)
{
	struct task *t = task_get(m, tid);

	if (!t)
		return -1;
	if (name && name[0]) {
		snprintf(t->pub.name, sizeof(t->pub.name), "%s", name);
		t->name_fixed = true;
	}
	if (t->pub.param_src == DLB_PARAM_MARKER)
		return 0;
	task_params(t, runtime, deadline, period);
	return 0;
}
