// SPDX-License-Identifier: GPL-2.0
/*
 * check_sched_invariants(): everything the seed's data structures promise,
 * checked from scratch (git's assert_sane_*() idea).  Tests and
 * dlb-sim --check call it after every simulator step.
 */
#include "dlbench/exitcode.h"

#include "sched.h"

#define FAIL(...) return dlb_err_set(err, DLB_EXIT_INTERNAL, __VA_ARGS__)

static int check_dl_tree(struct sched *s, struct rq *rq, struct dlb_err *err)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct rb_node *n;
	unsigned long count = 0, migratory = 0;
	u64 prev = 0;
	bool next_seen = dl_rq->earliest_dl.next == 0;
	size_t nodes;

	if (rb_check(&dl_rq->rb_root, &nodes) < 0)
		FAIL("cpu %d: dl_rq rb-tree is not a valid red-black tree", rq->cpu);
	if (dl_rq->rb_leftmost != rb_first(&dl_rq->rb_root))
		FAIL("cpu %d: dl_rq leftmost cache is not the first node", rq->cpu);
	for (n = rb_first(&dl_rq->rb_root); n; n = rb_next(n)) {
		struct sched_dl_entity *se = rb_entry(n, struct sched_dl_entity, rb_node);
		struct task_struct *p = dl_task_of(se);

		if (count && dl_time_before(se->deadline, prev))
			FAIL("cpu %d: dl_rq out of deadline order at %s", rq->cpu, p->comm);
		if (task_cpu(p) != rq->cpu)
			FAIL("cpu %d: %s queued here but task_cpu is %d", rq->cpu, p->comm,
			     task_cpu(p));
		if (se->dl_throttled)
			FAIL("cpu %d: throttled %s is queued", rq->cpu, p->comm);
		if (!dl_task(p) || !p->on_rq)
			FAIL("cpu %d: %s queued but not a runnable -deadline task", rq->cpu,
			     p->comm);
		if (se->deadline == dl_rq->earliest_dl.next)
			next_seen = true;
		prev = se->deadline;
		count++;
		migratory += se->nr_cpus_allowed > 1;
	}
	if (count != dl_rq->dl_nr_running || count != dl_rq->dl_nr_total)
		FAIL("cpu %d: dl_nr_running %lu, dl_nr_total %lu, tree holds %lu", rq->cpu,
		     dl_rq->dl_nr_running, dl_rq->dl_nr_total, count);
	if (migratory != dl_rq->dl_nr_migratory)
		FAIL("cpu %d: dl_nr_migratory %lu, tree holds %lu migratory", rq->cpu,
		     dl_rq->dl_nr_migratory, migratory);
	if (dl_rq->earliest_dl.curr != (count ? rb_entry(dl_rq->rb_leftmost,
			struct sched_dl_entity, rb_node)->deadline : 0))
		FAIL("cpu %d: earliest_dl.curr %llu is not the leftmost deadline", rq->cpu,
		     (unsigned long long)dl_rq->earliest_dl.curr);
	if (!next_seen || (dl_rq->earliest_dl.next &&
			   dl_time_before(dl_rq->earliest_dl.next, dl_rq->earliest_dl.curr)))
		FAIL("cpu %d: earliest_dl.next %llu is no queued deadline at or after curr",
		     rq->cpu, (unsigned long long)dl_rq->earliest_dl.next);
	if (dl_rq->overloaded != (dl_rq->dl_nr_migratory && dl_rq->dl_nr_total > 1))
		FAIL("cpu %d: overloaded flag %d disagrees with the counts", rq->cpu,
		     dl_rq->overloaded);
	if (dlb_cpumask_test(&s->rd.dlo_mask, (unsigned int)rq->cpu) != !!dl_rq->overloaded)
		FAIL("cpu %d: dlo_mask bit disagrees with overloaded", rq->cpu);
	return 0;
}

static int check_pushable(struct rq *rq, struct dlb_err *err)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct rb_node *n;
	u64 prev = 0;
	int first = 1;

	if (rb_check(&dl_rq->pushable_dl_tasks_root, NULL) < 0)
		FAIL("cpu %d: pushable rb-tree is not a valid red-black tree", rq->cpu);
	if (dl_rq->pushable_dl_tasks_leftmost != rb_first(&dl_rq->pushable_dl_tasks_root))
		FAIL("cpu %d: pushable leftmost cache is not the first node", rq->cpu);
	for (n = rb_first(&dl_rq->pushable_dl_tasks_root); n; n = rb_next(n)) {
		struct task_struct *p = rb_entry(n, struct task_struct, pushable_dl_tasks);

		if (!first && dl_time_before(p->dl.deadline, prev))
			FAIL("cpu %d: pushable tree out of deadline order", rq->cpu);
		if (RB_EMPTY_NODE(&p->dl.rb_node) || task_cpu(p) != rq->cpu)
			FAIL("cpu %d: pushable %s is not queued on this dl_rq", rq->cpu, p->comm);
		if (rq->curr == p)
			FAIL("cpu %d: the running task %s is pushable", rq->cpu, p->comm);
		if (p->dl.nr_cpus_allowed < 2)
			FAIL("cpu %d: pinned %s is pushable", rq->cpu, p->comm);
		prev = p->dl.deadline;
		first = 0;
	}
	return 0;
}

static int check_heap(struct sched *s, struct dlb_err *err)
{
	const char *why;
	int i;

	if (s->cpu_select != CPU_SELECT_HEAP)
		return 0;
	if (cpudl_check(&s->rd.cpudl, &why) < 0)
		FAIL("%s", why);
	for (i = 0; i < s->nr_cpus; i++) {
		struct dl_rq *dl_rq = &s->rqs[i].dl;
		int idx = s->rd.cpudl.cpu_to_idx[i];

		if (!dl_rq->dl_nr_running) {
			if (idx != IDX_INVALID ||
			    !dlb_cpumask_test(&s->rd.cpudl.free_cpus, (unsigned int)i))
				FAIL("cpudl: cpu %d has no -deadline task but is not free", i);
		} else if (idx == IDX_INVALID ||
			   s->rd.cpudl.elements[idx].dl != dl_rq->earliest_dl.curr) {
			FAIL("cpudl: cpu %d's key is not its earliest_dl.curr", i);
		}
	}
	return 0;
}

static int check_tasks(struct sched *s, struct dlb_err *err)
{
	struct task_struct *p;
	u64 bw = 0;

	for (p = s->tasks; p; p = p->next_task) {
		if (task_has_dl_policy(p))
			bw += p->dl.dl_bw;
		if (dl_task(p) && p->on_cpu) {
			struct rq *rq = task_rq(p);

			if (rq->curr != p)
				FAIL("%s is on_cpu but not its rq's curr", p->comm);
			if (p->dl.dl_throttled && !rq->need_resched)
				FAIL("cpu %d: throttled %s keeps running", rq->cpu, p->comm);
		}
		if (p->dl.dl_throttled && !p->dl.dl_timer.active && p->on_rq)
			FAIL("%s is throttled without a replenishment timer", p->comm);
	}
	if (bw != s->rd.dl_bw.total_bw)
		FAIL("dl_bw: total_bw %llu is not the sum %llu of the -deadline tasks",
		     (unsigned long long)s->rd.dl_bw.total_bw, (unsigned long long)bw);
	if (s->rd.dl_bw.bw >= 0 && bw > (u64)s->rd.dl_bw.bw * (u64)s->nr_cpus)
		FAIL("dl_bw: admitted %llu over the capacity", (unsigned long long)bw);
	return 0;
}

int check_sched_invariants(struct sched *s, struct dlb_err *err)
{
	int i, dlo = 0;

	for (i = 0; i < s->nr_cpus; i++) {
		struct rq *rq = &s->rqs[i];

		if (check_dl_tree(s, rq, err) < 0 || check_pushable(rq, err) < 0)
			return -1;
		if (rq->curr->cpu != i || !rq->curr->on_cpu)
			FAIL("cpu %d: curr %s does not belong here", i, rq->curr->comm);
		dlo += rq->dl.overloaded;
	}
	if (dlo != s->rd.dlo_count)
		FAIL("dlo_count %d, %d rqs overloaded", s->rd.dlo_count, dlo);
	if (check_heap(s, err) < 0 || check_tasks(s, err) < 0)
		return -1;
	if (s->warnings)
		FAIL("%llu scheduler warnings, first: %s", (unsigned long long)s->warnings,
		     s->last_warning);
	return 0;
}
