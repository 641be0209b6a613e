// SPDX-License-Identifier: GPL-2.0
/*
 * The data structures on their own (rb-tree, cpudl heap) against brute
 * force, and the seed bugs the reference fixes, each shown at the level of
 * the library: next_deadline's int truncation, cpudl_find reading a stale
 * root, the draft 006 timer re-enqueueing a boosted task.
 */
#include "dlb_test.h"

#include <string.h>

#include "../sched.h"

struct item {
	struct rb_node node;
	u64 key;
};

static void rb_insert_item(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (it->key < rb_entry(parent, struct item, node)->key)
			link = &parent->left;
		else
			link = &parent->right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color(&it->node, root);
}

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* 20000 random inserts and erases; after each: valid tree, in order, right size. */
static void test_rbtree_random(void **state)
{
	enum { N = 512 };
	struct item items[N];
	bool in[N];
	struct rb_root root = RB_ROOT;
	u64 seed = 42;
	size_t count, want = 0;
	int op, i;

	(void)state;
	memset(in, 0, sizeof(in));
	for (i = 0; i < N; i++)
		RB_CLEAR_NODE(&items[i].node);
	for (op = 0; op < 20000; op++) {
		struct rb_node *n;
		u64 prev = 0;

		i = (int)(rnd(&seed) % N);
		if (in[i]) {
			rb_erase(&items[i].node, &root);
			RB_CLEAR_NODE(&items[i].node);
			in[i] = false;
			want--;
		} else {
			items[i].key = rnd(&seed) % 1000;
			rb_insert_item(&root, &items[i]);
			in[i] = true;
			want++;
		}
		assert_true(rb_check(&root, &count) >= 0);
		assert_int_equal(count, want);
		for (n = rb_first(&root); n; n = rb_next(n)) {
			assert_true(rb_entry(n, struct item, node)->key >= prev);
			prev = rb_entry(n, struct item, node)->key;
		}
		if (want)
			assert_int_equal(rb_entry(rb_last(&root), struct item, node)->key, prev);
	}
}

/* cpudl against brute force: after each random cpudl_set the root is the latest CPU. */
static void test_cpudl_random(void **state)
{
	enum { CPUS = 37 };
	struct cpudl cp;
	u64 dl[CPUS], seed = 7;
	bool valid[CPUS];
	const char *why = NULL;
	int op, c;

	(void)state;
	assert_int_equal(cpudl_init(&cp, CPUS), 0);
	memset(valid, 0, sizeof(valid));
	for (op = 0; op < 20000; op++) {
		u64 max = 0;
		int nvalid = 0;

		c = (int)(rnd(&seed) % CPUS);
		if (rnd(&seed) % 3 == 0) {
			cpudl_set(&cp, c, 0, 0);
			valid[c] = false;
		} else {
			dl[c] = 1 + rnd(&seed) % 100000;
			cpudl_set(&cp, c, dl[c], 1);
			valid[c] = true;
		}
		if (cpudl_check(&cp, &why) < 0)
			fail_msg("op %d: %s", op, why);
		for (c = 0; c < CPUS; c++) {
			assert_int_equal(dlb_cpumask_test(&cp.free_cpus, (unsigned int)c), !valid[c]);
			if (valid[c]) {
				nvalid++;
				if (dl[c] > max)
					max = dl[c];
			}
		}
		assert_int_equal(cp.size, nvalid);
		if (nvalid)
			assert_int_equal(cp.elements[0].dl, max);
	}
	cpudl_cleanup(&cp);
}

static struct sched *mksched(int cpus)
{
	struct sched_create_opts o = {
		.nr_cpus = cpus, .cpu_select = CPU_SELECT_HEAP, .admission = false,
	};
	struct sched_ops ops;
	struct dlb_err err;
	struct sched *s;

	memset(&ops, 0, sizeof(ops));
	s = sched_create(&o, &ops, &err);
	assert_non_null(s);
	return s;
}

static void mktask(struct sched *s, struct task_struct *p, int pid, const char *comm,
		   u64 runtime, u64 deadline)
{
	struct dl_params prm = { runtime, deadline, deadline, 0 };
	struct dlb_err err;

	memset(p, 0, sizeof(*p));
	sched_task_init(s, p, pid, comm, 0);
	assert_int_equal(sched_setattr(s, p, SCHED_DEADLINE, 0, &prm, NULL, &err), 0);
}

/*
 * Seed bug: next_deadline() returns int, so earliest_dl.next loses the high
 * bits of any deadline past 2^32 ns (4.3 s).  Ours keeps the u64.
 */
static void test_next_deadline_u64(void **state)
{
	struct sched *s = mksched(2);
	struct task_struct a, b, c;
	struct dlb_err err;

	(void)state;
	s->now = 5 * NSEC_PER_SEC;
	mktask(s, &a, 1, "a", 1 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	mktask(s, &b, 2, "b", 1 * NSEC_PER_MSEC, 20 * NSEC_PER_MSEC);
	mktask(s, &c, 3, "c", 1 * NSEC_PER_MSEC, 30 * NSEC_PER_MSEC);
	wake_up_process(s, &a, 0);
	wake_up_process(s, &b, 0);
	wake_up_process(s, &c, 0);
	assert_int_equal(a.cpu, 0);
	assert_int_equal(s->rqs[0].dl.earliest_dl.curr, 5 * NSEC_PER_SEC + 10 * NSEC_PER_MSEC);
	/* the seed's int next_deadline() stores 725032704 - 2^32 here, sign-extended */
	assert_int_equal(s->rqs[0].dl.earliest_dl.next, 5 * NSEC_PER_SEC + 20 * NSEC_PER_MSEC);
	assert_int_equal(check_sched_invariants(s, &err), 0);
	sched_free(s);
}

/*
 * Seed bug: with an empty heap elements[0] still holds the last removed
 * CPU, and cpudl_find() (later_mask NULL, as check_preempt_equal_dl calls
 * it) returned that CPU.  Ours returns -1.
 */
static void test_cpudl_stale_root(void **state)
{
	struct sched *s = mksched(2);
	struct task_struct p;

	(void)state;
	mktask(s, &p, 1, "p", 1000000, 10000000);
	p.dl.deadline = 50;
	cpudl_set(&s->rd.cpudl, 1, 100, 1);
	assert_int_equal(cpudl_find(&s->rd.cpudl, NULL, &p, NULL), 1);
	cpudl_set(&s->rd.cpudl, 1, 0, 0);
	assert_int_equal(s->rd.cpudl.size, 0);
	assert_int_equal(s->rd.cpudl.elements[0].cpu, 1);	/* the stale entry */
	assert_int_equal(cpudl_find(&s->rd.cpudl, NULL, &p, NULL), -1);
	sched_free(s);
}

/*
 * Seed bug (draft 006): a throttled owner boosted by a -deadline waiter is
 * un-throttled and enqueued by rt_mutex_setprio() while its replenishment
 * timer stays armed; when that timer fires, the seed's dl_task_timer()
 * enqueues it again (BUG_ON(on_dl_rq)).  Ours ignores a timer that finds
 * the task no longer throttled.
 */
static void test_boost_while_throttled(void **state)
{
	struct sched *s = mksched(1);
	struct task_struct o, w;
	struct rt_mutex m = { .pi = true };
	struct dlb_err err;

	(void)state;
	mktask(s, &o, 1, "o", 1 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC);
	mktask(s, &w, 2, "w", 2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	wake_up_process(s, &o, 0);
	schedule(s, 0);
	assert_ptr_equal(s->rqs[0].curr, &o);
	assert_int_equal(rt_mutex_lock(s, &m, 0), 1);

	s->now = 1 * NSEC_PER_MSEC;		/* budget gone: throttled until 100 ms */
	scheduler_tick(s, 0, 1);
	assert_true(o.dl.dl_throttled);
	assert_true(o.dl.dl_timer.active);
	schedule(s, 0);
	assert_ptr_equal(s->rqs[0].curr, s->rqs[0].idle);

	s->now = 2 * NSEC_PER_MSEC;		/* w blocks on m: o is boosted */
	wake_up_process(s, &w, 0);
	schedule(s, 0);
	assert_int_equal(rt_mutex_lock(s, &m, 0), 0);
	schedule(s, 0);
	assert_ptr_equal(s->rqs[0].curr, &o);
	assert_true(o.dl.dl_boosted);
	assert_false(o.dl.dl_throttled);
	/* replenished with w's parameters: deadline 100 + 10 ms, runtime 2 ms */
	assert_int_equal(o.dl.deadline, 110 * NSEC_PER_MSEC);
	assert_int_equal(o.dl.runtime, 2 * NSEC_PER_MSEC);
	assert_int_equal(check_sched_invariants(s, &err), 0);

	s->now = 100 * NSEC_PER_MSEC;		/* the stale timer fires */
	sched_dl_timer_fire(s, &o);
	assert_int_equal(s->warnings, 0);
	assert_int_equal(check_sched_invariants(s, &err), 0);

	rt_mutex_unlock(s, &m, 0);		/* un-boosted, w gets m */
	assert_false(o.dl.dl_boosted);
	assert_ptr_equal(m.owner, &w);
	sched_free(s);
}

/*
 * dl_entity_overflow() near the 4 s limits: runtime 1 ms left, 4.1 s to a
 * deadline of a 4.19 s reservation.  1/4100 is far below 4194/4194, so the
 * wake-up keeps the deadline; the seed's u64 products (4.2e15 and 1.7e19)
 * compared with the wrap-safe dl_time_before() say "overflow" and would
 * reset it.
 */
static void test_overflow_products(void **state)
{
	struct sched *s = mksched(1);
	struct task_struct p;
	u64 big = 4194304ULL * NSEC_PER_USEC;
	struct dlb_err err;

	(void)state;
	mktask(s, &p, 1, "p", big, big);
	wake_up_process(s, &p, 0);
	schedule(s, 0);
	assert_int_equal(p.dl.deadline, big);
	s->now = 90 * NSEC_PER_MSEC;
	p.state = TASK_INTERRUPTIBLE;
	schedule(s, 0);			/* sleeps with 4.1 s of runtime left */
	p.dl.runtime = 1 * NSEC_PER_MSEC;	/* as if it had used most of it */
	s->now = 94 * NSEC_PER_MSEC;
	wake_up_process(s, &p, 0);
	assert_int_equal(p.dl.deadline, big);
	assert_int_equal(p.dl.runtime, 1 * NSEC_PER_MSEC);
	assert_int_equal(check_sched_invariants(s, &err), 0);
	/*
	 * The other side: 4.15 s left and 4.094 s to the deadline is more than
	 * the reservation's 1:1, an overflow: a new deadline and full runtime.
	 */
	schedule(s, 0);
	p.state = TASK_INTERRUPTIBLE;
	schedule(s, 0);				/* runs for no time, sleeps again */
	p.dl.runtime = 4150 * (s64)NSEC_PER_MSEC;
	s->now = 100 * NSEC_PER_MSEC;
	wake_up_process(s, &p, 0);
	assert_int_equal(p.dl.deadline, 100 * NSEC_PER_MSEC + big);
	assert_int_equal(p.dl.runtime, big);
	assert_int_equal(check_sched_invariants(s, &err), 0);
	sched_free(s);
}

/*
 * Issue 13, defect 3: a task that wakes exactly at its deadline with -0.5 ms
 * of runtime (an overrun the tick did not see before it blocked).  The
 * seed's dl_entity_overflow() (and mainline's) compares in signed
 * arithmetic: runtime * dl_deadline < 0 <= (deadline - t) * dl_runtime is no
 * overflow, so the wake-up keeps the deadline and the negative runtime, and
 * the first accounting charges the overrun and records the miss.  An
 * unsigned compare reads -0.5 ms as 2^64 - 0.5 ms, "overflow": a new
 * deadline, full runtime, the overrun forgiven and no dmiss.
 */
static void test_overflow_negative_runtime(void **state)
{
	struct sched *s = mksched(1);
	struct task_struct p;
	struct dlb_err err;

	(void)state;
	mktask(s, &p, 1, "p", 2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	wake_up_process(s, &p, 0);
	schedule(s, 0);
	s->now = 1 * NSEC_PER_MSEC;
	p.state = TASK_INTERRUPTIBLE;
	schedule(s, 0);				/* sleeps with 1 ms left ... */
	p.dl.runtime = -500 * (s64)NSEC_PER_USEC;	/* ... as if 2.5 ms had run */
	s->now = 10 * NSEC_PER_MSEC;		/* wakes at its deadline */
	wake_up_process(s, &p, 0);
	assert_int_equal(p.dl.deadline, 10 * NSEC_PER_MSEC);
	assert_int_equal(p.dl.runtime, -500 * (s64)NSEC_PER_USEC);
	schedule(s, 0);
	assert_ptr_equal(s->rqs[0].curr, &p);
	/* 100 us later: the miss (100 us) is recorded and charged, then replenished */
	s->now = 10 * NSEC_PER_MSEC + 100 * NSEC_PER_USEC;
	scheduler_tick(s, 0, 0);
	assert_int_equal(p.dl.stats.last_dmiss, 100 * NSEC_PER_USEC);
	assert_int_equal(p.dl.stats.last_rorun, 600 * NSEC_PER_USEC);
	/* -0.6 - 0.1 (the miss) = -0.7 ms, + 2 ms: deadline 20 ms, 1.3 ms left */
	assert_int_equal(p.dl.deadline, 20 * NSEC_PER_MSEC);
	assert_int_equal(p.dl.runtime, 1300 * (s64)NSEC_PER_USEC);
	assert_int_equal(check_sched_invariants(s, &err), 0);
	sched_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rbtree_random),
		cmocka_unit_test(test_cpudl_random),
		cmocka_unit_test(test_next_deadline_u64),
		cmocka_unit_test(test_cpudl_stale_root),
		cmocka_unit_test(test_boost_while_throttled),
		cmocka_unit_test(test_overflow_products),
		cmocka_unit_test(test_overflow_negative_runtime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
