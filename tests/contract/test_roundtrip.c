// SPDX-License-Identifier: GPL-2.0
/*
 * The contract between the reference and the analyzer: every event the
 * simulator emits, written as text by dlb_event_format(), comes back
 * identical through the analyzer's trace reader (analyzer/input/trace_input.h);
 * every schedstats snapshot written by dlb_sim_write_sched() comes back
 * through dlb_task_sched_parse() (analyzer/input/schedstat.h).
 */
#include "dlb_test.h"

#include <stdarg.h>

#include "../../analyzer/input/schedstat.h"
#include "../../analyzer/input/trace_input.h"
#include "../../reference/tests/wlbuild.h"

struct evlist {
	struct dlb_event *ev;
	char **text;		/* marker texts */
	size_t n, cap;
	FILE *f;
	struct dlb_sim *sim;
};

static void push(struct evlist *l, const struct dlb_event *ev)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
		l->text = realloc(l->text, l->cap * sizeof(*l->text));
	}
	l->ev[l->n] = *ev;
	l->text[l->n] = ev->type == DLB_EV_MARKER ? strndup(ev->mark.text, ev->mark.len) : NULL;
	l->n++;
}

static int sim_event(const struct dlb_event *ev, void *arg)
{
	struct evlist *l = arg;
	char line[DLB_EVENT_TEXT_MAX];
	int n = dlb_event_format(line, sizeof(line), ev, dlb_sim_comm(l->sim, ev->pid));

	assert_true(n > 0);
	fprintf(l->f, "%s\n", line);
	push(l, ev);
	return 0;
}

static int read_event(const struct dlb_event *ev, void *arg)
{
	push(arg, ev);
	return 0;
}

static void same_event(const struct dlb_event *a, const char *at, const struct dlb_event *b,
		       const char *bt, size_t i)
{
	if (a->type != b->type || a->ts != b->ts || a->cpu != b->cpu || a->pid != b->pid)
		fail_msg("event %zu: type %d/%d ts %llu/%llu cpu %d/%d pid %d/%d", i, a->type,
			 b->type, (unsigned long long)a->ts, (unsigned long long)b->ts, a->cpu,
			 b->cpu, a->pid, b->pid);
	switch (a->type) {
	case DLB_EV_SWITCH:
		assert_int_equal(a->sw.prev_pid, b->sw.prev_pid);
		assert_int_equal(a->sw.next_pid, b->sw.next_pid);
		assert_int_equal(a->sw.prev_prio, b->sw.prev_prio);
		assert_int_equal(a->sw.next_prio, b->sw.next_prio);
		/* runnable: "R+" written, 0 read back (event.h) */
		assert_int_equal(a->sw.prev_state & 0xff, b->sw.prev_state & 0xff);
		assert_string_equal(a->sw.prev_comm, b->sw.prev_comm);
		assert_string_equal(a->sw.next_comm, b->sw.next_comm);
		break;
	case DLB_EV_WAKEUP:
		assert_int_equal(a->wake.pid, b->wake.pid);
		assert_int_equal(a->wake.prio, b->wake.prio);
		assert_int_equal(a->wake.target_cpu, b->wake.target_cpu);
		assert_string_equal(a->wake.comm, b->wake.comm);
		break;
	case DLB_EV_MIGRATE:
		assert_int_equal(a->mig.pid, b->mig.pid);
		assert_int_equal(a->mig.orig_cpu, b->mig.orig_cpu);
		assert_int_equal(a->mig.dest_cpu, b->mig.dest_cpu);
		break;
	case DLB_EV_RUNTIME:
		assert_int_equal(a->rt.pid, b->rt.pid);
		assert_int_equal(a->rt.runtime, b->rt.runtime);
		break;
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		assert_int_equal(a->dl.pid, b->dl.pid);
		assert_int_equal(a->dl.runtime, b->dl.runtime);
		assert_int_equal(a->dl.deadline, b->dl.deadline);
		break;
	case DLB_EV_MARKER:
		assert_string_equal(at, bt);
		break;
	case DLB_EV_EXIT:
		assert_int_equal(a->exit.pid, b->exit.pid);
		break;
	default:
		break;
	}
}

/* Order within an instant is the file's per-CPU order: compare by (ts, cpu, rank). */
static int cmp_idx(const void *x, const void *y, void *arg)
{
	const struct dlb_event *ev = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (ev[i].ts != ev[j].ts)
		return ev[i].ts < ev[j].ts ? -1 : 1;
	if (ev[i].cpu != ev[j].cpu)
		return ev[i].cpu - ev[j].cpu;
	return i < j ? -1 : i > j;
}

static size_t *order(struct evlist *l)
{
	size_t *o = malloc(l->n * sizeof(*o)), i;

	for (i = 0; i < l->n; i++)
		o[i] = i;
	qsort_r(o, l->n, sizeof(*o), cmp_idx, l->ev);
	return o;
}

static void test_trace_roundtrip(void **state)
{
	struct workload *wl = wlb_new(60 * MS);
	struct evlist sim = { 0 }, back = { 0 };
	char path[] = "/tmp/dlb-roundtrip-XXXXXX";
	struct dlb_sim_opts o;
	struct dlb_trace *t;
	struct dlb_err err;
	size_t i, *os, *ob;
	int fd, ti;

	(void)state;
	for (ti = 0; ti < 7; ti++) {
		char name[16];

		snprintf(name, sizeof(name), "task %d", ti);	/* a space in comm */
		wlb_periodic(wl, name, 2 * MS, (5 + ti) * MS, (5 + ti) * MS,
			     ti == 3 ? 4 * MS : 2 * MS - 100 * US);	/* task 3 overruns */
	}
	dlb_sim_opts_init(&o);
	o.nr_cpus = 3;
	o.trace_runtime = true;
	o.timed = false;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	sim.f = fdopen(fd, "w");
	fprintf(sim.f, "# tracer: nop\n#\n");
	sim.sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim.sim);
	dlb_sim_set_event_hook(sim.sim, sim_event, &sim);
	assert_int_equal(dlb_sim_run(sim.sim, &err), 0);
	fclose(sim.f);

	t = dlb_trace_open(path, &err);
	if (!t)
		fail_msg("%s", err.msg);
	if (dlb_trace_read(t, read_event, &back, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(dlb_trace_quality(t)->bad_lines, 0);
	assert_int_equal(back.n, sim.n);
	os = order(&sim);
	ob = order(&back);
	for (i = 0; i < sim.n; i++)
		same_event(&sim.ev[os[i]], sim.text[os[i]], &back.ev[ob[i]], back.text[ob[i]], i);
	dlb_trace_close(t);
	unlink(path);
	for (i = 0; i < sim.n; i++)
		free(sim.text[i]);
	for (i = 0; i < back.n; i++)
		free(back.text[i]);
	free(sim.ev);
	free(sim.text);
	free(back.ev);
	free(back.text);
	free(os);
	free(ob);
	dlb_sim_free(sim.sim);
	wlb_free(wl);
}

static void test_sched_roundtrip(void **state)
{
	struct workload *wl = wlb_new(50 * MS);
	struct dlb_sim_opts o;
	struct dlb_sim *sim;
	struct dlb_err err;
	size_t i;

	(void)state;
	wlb_periodic(wl, "over", 2 * MS, 10 * MS, 10 * MS, 3 * MS);
	wlb_periodic(wl, "fine", 3 * MS, 7 * MS, 7 * MS, 1 * MS);
	dlb_sim_opts_init(&o);
	o.tick_ns = 4 * MS;	/* overruns, so dl.stats are not all 0 */
	sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim);
	assert_int_equal(dlb_sim_run(sim, &err), 0);
	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;
		struct dlb_task_sched ts;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		dlb_sim_task_stats(sim, i, &st);
		assert_int_equal(dlb_sim_write_sched(f, &st), 0);
		fclose(f);
		if (dlb_task_sched_parse(buf, len, "sched", &ts, &err) < 0)
			fail_msg("%s", err.msg);
		assert_string_equal(ts.comm, st.comm);
		assert_int_equal(ts.pid, st.tid);
		assert_int_equal(ts.policy, 6);
		assert_int_equal(ts.prio, -1);
		assert_int_equal(ts.dl_runtime, st.dl_runtime_left);
		assert_int_equal(ts.dl_deadline, st.dl_deadline_abs);
		assert_int_equal(ts.last_dmiss, st.last_dmiss);
		assert_int_equal(ts.dmiss_max, st.dmiss_max);
		assert_int_equal(ts.last_rorun, st.last_rorun);
		assert_int_equal(ts.rorun_max, st.rorun_max);
		assert_int_equal(ts.sum_exec_runtime, st.sum_exec_runtime);
		assert_int_equal(ts.nr_switches, st.nr_switches);
		assert_int_equal(ts.nr_migrations, st.nr_migrations);
		if (i == 0)
			assert_true(st.rorun_max > 0);
		free(buf);
	}
	dlb_sim_free(sim);
	wlb_free(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_roundtrip),
		cmocka_unit_test(test_sched_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
