// SPDX-License-Identifier: GPL-2.0
/*
 * check_sched_invariants(): everything the seed's data structures promise,
 * checked from scratch (git's assert_sane_*() idea).  Tests and
 * dlb-sim --check call it after every simulator step.
 */
#include "dlbench/exitcode.h"

#include "sched.h"

#define FAIL(...) return dlb_err_set(err, DLB_EXIT_INTERNAL, __VA_ARGS__)

static inline int on_dl_rq_(const struct task_struct *p)
{
	return !RB_EMPTY_NODE(&p->dl.rb_node);
}

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
		/* [004] pick_next_pushable_dl_task(): BUG_ON(!p->se.on_rq), BUG_ON(!dl_task(p)) */
		if (!p->on_rq || !dl_task(p))
			FAIL("cpu %d: pushable %s is not a runnable -deadline task", rq->cpu, p->comm);
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

/*
 * The RT and fair stand-ins' run lists: linked both ways, RT's ordered by
 * prio, counted (fair's weights summed), and holding only runnable tasks of
 * this CPU and of that class.
 */
static int check_list(struct rq *rq, struct list_rq *l, const struct sched_class *class,
		      struct dlb_err *err)
{
	struct task_struct *p, *prev = NULL;
	unsigned long n = 0, load = 0;

	for (p = l->head; p; prev = p, p = p->run_next) {
		if (p->run_prev != prev || !p->on_list)
			FAIL("cpu %d: %s run list broken at %s", rq->cpu, class->name, p->comm);
		if (p->sched_class != class || task_cpu(p) != rq->cpu || !p->on_rq)
			FAIL("cpu %d: %s on the %s run list is not a runnable %s task of this cpu",
			     rq->cpu, p->comm, class->name, class->name);
		if (class == &rt_sched_class && prev && prev->prio > p->prio)
			FAIL("cpu %d: %s run list out of prio order at %s", rq->cpu, class->name,
			     p->comm);
		load += p->se.weight;
		if (++n > l->nr_running)
			break;
	}
	if (n != l->nr_running || l->tail != prev)
		FAIL("cpu %d: %s nr_running %lu, list holds %lu", rq->cpu, class->name,
		     l->nr_running, n);
	if (class == &fair_sched_class && load != l->load)
		FAIL("cpu %d: fair load %lu, its tasks weigh %lu", rq->cpu, l->load, load);
	return 0;
}

/*
 * Where a task is, from its state.  Every runnable task (on_rq) is
 * TASK_RUNNING and is queued in its class on its CPU, or running there, or
 * -deadline and throttled, waiting for its replenishment timer: a task
 * that is none of these is lost, nobody will ever run it (issue 13, defect
 * 1: enqueue_task_dl() returned early for a boosted owner and its CPU idled
 * for good).  The seed says so where it relies on it: enqueue_task_dl()
 * "if p is throttled, we do nothing ... the bandwidth timer callback will
 * take care of this" and dl_task_timer() "we know a task is not on its
 * dl_rq, since the fact that the timer was running means the task is
 * throttled".  A task that is not runnable is queued nowhere.
 */
static int check_task_place(struct task_struct *p, struct dlb_err *err)
{
	struct rq *rq = task_rq(p);
	int queued = on_dl_rq_(p) || p->on_list;

	if (!p->on_rq) {
		if (queued || !RB_EMPTY_NODE(&p->pushable_dl_tasks))
			FAIL("%s is not runnable but queued", p->comm);
		if (p->state == TASK_RUNNING)
			FAIL("%s is TASK_RUNNING but not runnable (on_rq 0)", p->comm);
		if (p->on_cpu)
			FAIL("cpu %d: %s runs but is not runnable", rq->cpu, p->comm);
		return 0;
	}
	if (p->state != TASK_RUNNING)
		FAIL("%s is runnable (on_rq) in state %ld", p->comm, p->state);
	if (dl_task(p)) {
		if (p->on_list)
			FAIL("%s is -deadline but on a lower class's run list", p->comm);
		if (!on_dl_rq_(p) && !p->dl.dl_throttled)
			FAIL("cpu %d: runnable -deadline %s is neither queued nor throttled: lost",
			     rq->cpu, p->comm);
	} else if (p->sched_class == &stop_sched_class) {
		/*
		 * The stop class has no queue: its one task per CPU runs as soon
		 * as it is runnable (check_preempt_curr(): it preempts every
		 * class), so it is running or a reschedule is pending.
		 */
		if (rq->stop != p)
			FAIL("cpu %d: %s is of the stop class but not this CPU's stop task",
			     rq->cpu, p->comm);
		if (rq->curr != p && !rq->need_resched)
			FAIL("cpu %d: runnable stop task %s does not run and no reschedule is "
			     "pending", rq->cpu, p->comm);
	} else if (!p->on_list) {
		FAIL("cpu %d: runnable %s (%s) is not on its run list: lost", rq->cpu, p->comm,
		     p->sched_class->name);
	}
	/*
	 * [006] replenish_dl_entity(): BUG_ON(pi_se->dl_runtime <= 0).  A task
	 * in the -deadline class without the policy is there only by a boost,
	 * and the chain of its top waiters must end at a -deadline task whose
	 * parameters replenish it.
	 */
	if (dl_task(p) && !dl_prio(p->normal_prio)) {
		struct task_struct *top = p->pi_top_task;
		int depth = 0;

		while (top && !dl_prio(top->normal_prio) && depth++ < 1024)
			top = top->pi_top_task;
		if (!p->dl.dl_boosted || !top || !dl_prio(top->normal_prio) ||
		    !top->dl.dl_runtime)
			FAIL("%s is -deadline by a boost with no -deadline task at the end of its "
			     "chain of top waiters", p->comm);
	}
	rq->nr_running_seen++;
	return 0;
}

/*
 * GRUB (mainline model): each rq's this_bw is the bandwidth of the
 * -deadline tasks placed on it (and of its fair server, 6.12+); running_bw
 * that of those runnable or blocked before their 0-lag time (and of the
 * server while it is active).
 */
static int check_grub(struct sched *s, struct dlb_err *err)
{
	struct task_struct *p;
	int i;

	for (i = 0; i < s->nr_cpus; i++) {
		struct rq *rq = &s->rqs[i];
		struct sched_dl_entity *srv = &rq->fair_server.dl;
		u64 this_bw = srv->dl_server ? srv->dl_bw : 0;
		u64 running_bw = srv->dl_server && srv->dl_server_active ? srv->dl_bw : 0;

		for (p = s->tasks; p; p = p->next_task) {
			if (task_cpu(p) != i || !task_has_dl_policy(p) || p->state == TASK_DEAD)
				continue;
			this_bw += p->dl.dl_bw;
			if (p->on_rq || p->dl.dl_non_contending)
				running_bw += p->dl.dl_bw;
		}
		if (rq->dl.this_bw != this_bw || rq->dl.running_bw != running_bw)
			FAIL("cpu %d: GRUB this_bw %llu running_bw %llu, tasks give %llu and %llu", i,
			     (unsigned long long)rq->dl.this_bw,
			     (unsigned long long)rq->dl.running_bw, (unsigned long long)this_bw,
			     (unsigned long long)running_bw);
	}
	return 0;
}

static int check_tasks(struct sched *s, struct dlb_err *err)
{
	struct task_struct *p;
	u64 bw = 0;
	int i;

	for (i = 0; i < s->nr_cpus; i++)
		s->rqs[i].nr_running_seen = 0;
	for (p = s->tasks; p; p = p->next_task) {
		if (task_has_dl_policy(p))
			bw += p->dl.dl_bw;
		if (check_task_place(p, err) < 0)
			return -1;
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
	/* inc_nr_running()/dec_nr_running() in activate/deactivate_task (kernel/sched.c) */
	for (i = 0; i < s->nr_cpus; i++)
		if (s->rqs[i].nr_running != s->rqs[i].nr_running_seen)
			FAIL("cpu %d: nr_running %lu, %lu runnable tasks here", i,
			     s->rqs[i].nr_running, s->rqs[i].nr_running_seen);
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
		if (check_list(rq, &rq->rt, &rt_sched_class, err) < 0 ||
		    check_list(rq, &rq->cfs, &fair_sched_class, err) < 0)
			return -1;
		if (rq->curr != rq->idle && !rq->curr->on_rq)
			FAIL("cpu %d: curr %s is not runnable", i, rq->curr->comm);
		if (rq->stop && (rq->stop->sched_class != &stop_sched_class ||
				 task_cpu(rq->stop) != i))
			FAIL("cpu %d: stop task %s is not of the stop class on this CPU", i,
			     rq->stop->comm);
		/*
		 * Every enqueue on an idle CPU reschedules it (check_preempt_curr():
		 * any class preempts idle), so an idle CPU with queued work has a
		 * reschedule pending: otherwise it idles for good.
		 */
		if (rq->curr == rq->idle && !rq->need_resched &&
		    (rq->dl.dl_nr_running || rq->rt.nr_running || rq->cfs.nr_running))
			FAIL("cpu %d: idle with queued tasks (-deadline %lu, rt %lu, fair %lu) and no "
			     "reschedule pending", i, rq->dl.dl_nr_running, rq->rt.nr_running,
			     rq->cfs.nr_running);
		dlo += rq->dl.overloaded;
	}
	if (dlo != s->rd.dlo_count)
		FAIL("dlo_count %d, %d rqs overloaded", s->rd.dlo_count, dlo);
	if (check_heap(s, err) < 0 || check_tasks(s, err) < 0)
		return -1;
	if (s->model->grub && check_grub(s, err) < 0)
		return -1;
	if (s->warnings)
		FAIL("%llu scheduler warnings, first: %s", (unsigned long long)s->warnings,
		     s->last_warning);
	return 0;
}
