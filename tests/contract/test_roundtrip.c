// SPDX-License-Identifier: GPL-2.0
/*
 * The contract between the reference and the analyzer: every event the
 * simulator emits, written as text by dlb_event_format() and as a trace.dat
 * by dlb_tracedat (include/dlbench/tracedat.h), comes back identical
 * through the analyzer's trace reader (analyzer/input/trace_input.h);
 * every schedstats snapshot written by dlb_sim_write_sched() comes back
 * through dlb_task_sched_parse() (analyzer/input/schedstat.h).
 */
#include "dlb_test.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/exitcode.h"
#include "dlbench/tracedat.h"

#include "../../analyzer/input/schedstat.h"
#include "../../analyzer/input/trace_input.h"
#include "../../reference/tests/wlbuild.h"

struct evlist {
	struct dlb_event *ev;
	char **text;		/* marker texts */
	size_t n, cap;
	FILE *f;
	struct dlb_tracedat *td;
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

	struct dlb_err err;

	assert_true(n > 0);
	fprintf(l->f, "%s\n", line);
	if (dlb_tracedat_event(l->td, ev, dlb_sim_comm(l->sim, ev->pid), &err))
		fail_msg("%s", err.msg);
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
		assert_int_equal(a->mig.prio, b->mig.prio);
		assert_int_equal(a->mig.orig_cpu, b->mig.orig_cpu);
		assert_int_equal(a->mig.dest_cpu, b->mig.dest_cpu);
		break;
	case DLB_EV_RUNTIME:
		assert_string_equal(a->rt.comm, b->rt.comm);
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

static void evlist_free(struct evlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->text[i]);
	free(l->ev);
	free(l->text);
	memset(l, 0, sizeof(*l));
}

/* @path read back through the analyzer's reader: @want's events, field for field. */
static void same_back(const char *path, struct evlist *want)
{
	struct evlist back = { 0 };
	struct dlb_trace *t;
	struct dlb_err err;
	size_t i, *os, *ob;

	t = dlb_trace_open(path, &err);
	if (!t)
		fail_msg("%s", err.msg);
	if (dlb_trace_read(t, read_event, &back, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(dlb_trace_quality(t)->bad_lines, 0);
	assert_int_equal(dlb_trace_quality(t)->backwards, 0);
	assert_int_equal(dlb_trace_quality(t)->lost_events, 0);
	assert_int_equal(back.n, want->n);
	os = order(want);
	ob = order(&back);
	for (i = 0; i < want->n; i++)
		same_event(&want->ev[os[i]], want->text[os[i]], &back.ev[ob[i]], back.text[ob[i]],
			   i);
	dlb_trace_close(t);
	free(os);
	free(ob);
	evlist_free(&back);
}

static void test_trace_roundtrip(void **state)
{
	struct workload *wl = wlb_new(60 * MS);
	struct evlist sim = { 0 };
	char path[] = "/tmp/dlb-roundtrip-XXXXXX";
	char dat[sizeof(path) + 4];
	struct dlb_sim_opts o;
	struct dlb_err err;
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
	snprintf(dat, sizeof(dat), "%s.dat", path);
	sim.td = dlb_tracedat_create(dat, o.nr_cpus, &err);
	if (!sim.td)
		fail_msg("%s", err.msg);
	sim.sim = dlb_sim_create(wl, &o, &err);
	assert_non_null(sim.sim);
	dlb_sim_set_event_hook(sim.sim, sim_event, &sim);
	assert_int_equal(dlb_sim_run(sim.sim, &err), 0);
	fclose(sim.f);
	if (dlb_tracedat_finish(sim.td, &err))
		fail_msg("%s", err.msg);
	dlb_tracedat_free(sim.td);

	same_back(path, &sim);
	same_back(dat, &sim);
	unlink(path);
	unlink(dat);
	dlb_sim_free(sim.sim);
	evlist_free(&sim);	/* zeroes it */
	wlb_free(wl);
}

/* One event of each kind the writer knows, at @ts on @cpu, into @l and the writer. */
static void put_events(struct evlist *l, int cpu, u64 ts, int k)
{
	static const char comm15[] = "abcdefghijklmno";	/* TASK_COMM_LEN - 1 */
	struct dlb_event ev = { .ts = ts, .cpu = cpu, .pid = 100 + k };
	struct dlb_err err;

	switch (k % 7) {
	case 0:
		ev.type = DLB_EV_SWITCH;
		ev.sw.prev_pid = 100 + k;
		ev.sw.next_pid = 200 + k;
		ev.sw.prev_prio = -1;
		ev.sw.next_prio = 120;
		ev.sw.prev_state = k & 1 ? 0x100 : 1;
		snprintf(ev.sw.prev_comm, sizeof(ev.sw.prev_comm), "%s", comm15);
		snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "n %d", k);
		break;
	case 1:
		ev.type = DLB_EV_WAKEUP;
		ev.wake.pid = 300 + k;
		ev.wake.prio = -1;
		ev.wake.target_cpu = cpu;
		snprintf(ev.wake.comm, sizeof(ev.wake.comm), "w%d", k);
		break;
	case 2:
		ev.type = DLB_EV_MIGRATE;
		ev.mig.pid = 400 + k;
		ev.mig.prio = -1;
		ev.mig.orig_cpu = cpu;
		ev.mig.dest_cpu = cpu ? 0 : 1;
		snprintf(ev.mig.comm, sizeof(ev.mig.comm), "%s", k & 1 ? comm15 : "m");
		break;
	case 3:
		ev.type = DLB_EV_RUNTIME;
		ev.rt.pid = 500 + k;
		ev.rt.runtime = 123456789012ull + (u64)k;
		snprintf(ev.rt.comm, sizeof(ev.rt.comm), "%s", k & 1 ? "rt" : comm15);
		break;
	case 4:
	case 5:
		ev.type = k % 7 == 4 ? DLB_EV_THROTTLE : DLB_EV_REPLENISH;
		ev.dl.pid = 600 + k;
		ev.dl.runtime = k % 7 == 4 ? -5000 - k : 10000000;
		ev.dl.deadline = ts + 10000000;
		snprintf(ev.dl.comm, sizeof(ev.dl.comm), "d%d", k);
		break;
	default:
		ev.type = DLB_EV_EXIT;
		ev.exit.pid = 700 + k;
		snprintf(ev.exit.comm, sizeof(ev.exit.comm), "x%d", k);
		break;
	}
	if (dlb_tracedat_event(l->td, &ev, "common", &err))
		fail_msg("%s", err.msg);
	push(l, &ev);
}

static void put_marker(struct evlist *l, int cpu, u64 ts, size_t len)
{
	char text[DLB_MARKER_MAX];
	struct dlb_event ev = { .ts = ts, .cpu = cpu, .pid = 42, .type = DLB_EV_MARKER };
	struct dlb_err err;
	size_t i;

	for (i = 0; i < len; i++)
		text[i] = (char)('a' + i % 26);
	ev.mark.text = text;
	ev.mark.len = len;
	if (dlb_tracedat_event(l->td, &ev, "marker", &err))
		fail_msg("%s", err.msg);
	push(l, &ev);
}

/*
 * The ring buffer's encodings, each at its edge: time deltas just under,
 * at and over 27 bits (a time extend), over 32 and 59 bits (a new page),
 * records over pages, payloads at and past 28 words (the length word),
 * CPUs without events below and between the others.  A wrong delta or
 * length shows as a time or field that does not come back.
 */
static void test_dat_encoding(void **state)
{
	static const u64 gaps[] = {
		0, 1, (1ull << 27) - 1, 1ull << 27, (1ull << 27) + 1, 1000000000ull,
		3000000000ull, (1ull << 32) + 5, (1ull << 40) + 3, (1ull << 59) + 7, 1,
	};
	/* inline up to 112 payload bytes: 16 + len + 2, rounded to words */
	static const size_t marks[] = { 1, 93, 94, 95, 96, 200, DLB_MARKER_MAX - 1 };
	char path[] = "/tmp/dlb-roundtrip-dat-XXXXXX";
	struct evlist l = { 0 };
	struct dlb_err err;
	u64 ts = 5000000000ull;
	size_t i;
	int fd, k = 0;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	l.td = dlb_tracedat_create(path, 5, &err);
	if (!l.td)
		fail_msg("%s", err.msg);
	for (i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		ts += gaps[i];
		put_events(&l, 1, ts, k++);
		put_events(&l, 3, ts + 1, k++);
	}
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		put_marker(&l, 3, ts + 1 + i, marks[i]);
	/* pages filled: 60 switches of 68 bytes to a page; an extend at the page's edge */
	for (i = 0; i < 2000; i++) {
		ts += i % 61 == 60 ? (1ull << 28) : i % 3;
		put_events(&l, 1, ts, 7 * (int)(i % 2));
		put_events(&l, 1, ts, 7 * (int)(i % 5) + 3);
	}
	if (dlb_tracedat_finish(l.td, &err))
		fail_msg("%s", err.msg);
	dlb_tracedat_free(l.td);
	l.td = NULL;
	same_back(path, &l);
	unlink(path);
	evlist_free(&l);
}

/* Refused: a type without a format, a CPU out of range, time going back on a CPU. */
static void test_dat_refusals(void **state)
{
	char dir[] = "/tmp/dlb-roundtrip-dir-XXXXXX", path[64];
	struct dlb_event ev = { .ts = 10, .cpu = 0, .type = DLB_EV_IRQ_ENTRY };
	struct dlb_tracedat *td;
	struct dlb_err err;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	td = dlb_tracedat_create(path, 2, &err);
	assert_non_null(td);
	assert_int_equal(dlb_tracedat_event(td, &ev, NULL, &err), -1);
	assert_string_equal(err.msg + strlen(dir), "/trace.dat: irq_handler_entry events have no "
			    "format here");
	ev.type = DLB_EV_WAKEUP;
	ev.cpu = 2;
	assert_int_equal(dlb_tracedat_event(td, &ev, NULL, &err), -1);
	ev.cpu = 1;
	assert_int_equal(dlb_tracedat_event(td, &ev, NULL, &err), 0);
	ev.ts = 9;
	assert_int_equal(dlb_tracedat_event(td, &ev, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "CPU 1: event at 9 ns before the last one (10 ns)"));
	/* nothing at the path before finish, nothing after free without it */
	assert_int_equal(stat(path, &st), -1);
	dlb_tracedat_free(td);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(rmdir(dir), 0);
	assert_null(dlb_tracedat_create(path, 1, &err));	/* its folder is gone */
	assert_int_equal(err.code, DLB_EXIT_ENV);
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
		cmocka_unit_test(test_dat_encoding),
		cmocka_unit_test(test_dat_refusals),
		cmocka_unit_test(test_sched_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
