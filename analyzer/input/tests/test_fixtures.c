// SPDX-License-Identifier: GPL-2.0
/*
 * The traces recorded on this machine (analyzer/tests/fixtures/record.sh):
 * per-type counts against trace-cmd report's (the *.expected files), for
 * trace.dat v7 and v6 and each text rendering of the same recording; the
 * quality facts; rt-app 1.0's markers against its logs.
 */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/marker.h"
#include "../trace_input.h"

struct counts {
	u64 by_type[DLB_EV_LOST + 1];
	u64 lost_count;
	/* markers, rt-app 1.0 dialect */
	u64 begins[2], ends[2], exits, bad_markers, other_markers;
};

static int count(const struct dlb_event *ev, void *arg)
{
	struct counts *c = arg;
	struct dlb_marker m;
	struct dlb_err err;

	c->by_type[ev->type]++;
	if (ev->type == DLB_EV_LOST)
		c->lost_count += ev->lost.count;
	if (ev->type != DLB_EV_MARKER)
		return 0;
	if (dlb_marker_parse(ev->mark.text, ev->mark.len, ev->pid, &m, &err) != 1) {
		c->other_markers++;
		return 0;
	}
	if (m.dialect == DLB_DIALECT_RTAPP10 && m.rt_thread >= 0 && m.rt_thread < 2) {
		if (m.kind == DLB_MARK_JOB_BEGIN)
			c->begins[m.rt_thread]++;
		if (m.kind == DLB_MARK_JOB_END)
			c->ends[m.rt_thread]++;
	}
	if (m.kind == DLB_MARK_TASK_EXIT)
		c->exits++;
	return 0;
}

static void fixture(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/analyzer/tests/fixtures/%s", dlb_src(), name);
}

/* A gzipped text fixture, unpacked into a temporary file. */
static void gunzip(char *out, size_t size, const char *name)
{
	char src[512], cmd[1200];
	int fd;

	fixture(src, sizeof(src), name);
	snprintf(out, size, "/tmp/dlb-test-fix-XXXXXX");
	fd = mkstemp(out);
	assert_int_not_equal(fd, -1);
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s' > '%s'", src, out);
	assert_int_equal(system(cmd), 0);
}

static struct dlb_trace_quality read_counts(const char *path, struct counts *c)
{
	struct dlb_err err = { 0 };
	struct dlb_trace_quality q;
	struct dlb_trace *t;

	memset(c, 0, sizeof(*c));
	t = dlb_trace_open(path, &err);
	if (!t)
		fail_msg("%s", err.msg);
	if (dlb_trace_read(t, count, c, &err))
		fail_msg("%s", err.msg);
	q = *dlb_trace_quality(t);
	dlb_trace_close(t);
	return q;
}

static enum dlb_ev_type type_of(const char *tracecmd_name)
{
	static const struct {
		const char *name;
		enum dlb_ev_type type;
	} map[] = {
		{ "sched_switch", DLB_EV_SWITCH }, { "sched_wakeup", DLB_EV_WAKEUP },
		{ "sched_wakeup_new", DLB_EV_WAKEUP_NEW }, { "sched_waking", DLB_EV_WAKING },
		{ "sched_migrate_task", DLB_EV_MIGRATE }, { "sched_stat_runtime", DLB_EV_RUNTIME },
		{ "sched_process_exit", DLB_EV_EXIT }, { "print", DLB_EV_MARKER },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, tracecmd_name))
			return map[i].type;
	fail_msg("unexpected event '%s' in an .expected file", tracecmd_name);
	return DLB_EV_LOST;
}

/*
 * Compare with NAME.expected ("event count" lines by trace-cmd report, plus
 * lost_records and lost_events).  @text: the reader saw a text rendering,
 * where trace-cmd's lost-event lines are the only trace of the loss.
 */
static void check_counts(const char *exp_name, const struct counts *c,
			   const struct dlb_trace_quality *q, u64 *total)
{
	char path[512], name[64];
	unsigned long long n;
	u64 sum = 0;
	FILE *f;

	fixture(path, sizeof(path), exp_name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fscanf(f, "%63s %llu", name, &n) == 2) {
		if (!strcmp(name, "lost_records")) {
			assert_int_equal(c->by_type[DLB_EV_LOST], n);
			assert_int_equal(q->lost_records, n);
			sum += n;
		} else if (!strcmp(name, "lost_events")) {
			assert_int_equal(c->lost_count, n);
		} else {
			if (c->by_type[type_of(name)] != n)
				fail_msg("%s: %s: got %llu, want %llu", exp_name, name,
					 (unsigned long long)c->by_type[type_of(name)], n);
			sum += n;
		}
	}
	fclose(f);
	assert_int_equal(q->events, sum);
	*total = sum;
}

static void check_clean(const struct dlb_trace_quality *q)
{
	assert_int_equal(q->bad_lines, 0);
	assert_int_equal(q->backwards, 0);
	assert_int_equal(q->unknown_events, 0);
	assert_false(q->truncated);
	assert_int_equal(q->nr_cpus, 2);
	assert_int_equal(q->cpus_without_events, 0);
}

/* Rows of an rt-app log: one per completed job. */
static u64 log_rows(const char *name)
{
	char path[512], line[512];
	u64 n = 0;
	FILE *f;

	fixture(path, sizeof(path), name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			n++;
	fclose(f);
	return n;
}

static void check_rtapp10_markers(const struct counts *c)
{
	/*
	 * rt-app 1.0 logs a job when it completes; the loop running at
	 * shutdown completes (begin and end markers) but is not logged.
	 */
	assert_int_equal(c->begins[0], log_rows("rtapp10.log/rt-dl_a-0.log") + 1);
	assert_int_equal(c->begins[1], log_rows("rtapp10.log/rt-dl_b-1.log") + 1);
	assert_int_equal(c->ends[0], c->begins[0]);
	assert_int_equal(c->ends[1], c->begins[1]);
	assert_int_equal(c->exits, 2);
	assert_int_equal(c->other_markers, 0);
}

static void test_rtapp10_dat(void **state)
{
	static const char *const files[] = { "rtapp10.dat", "rtapp10.v6.dat" };
	struct counts c;
	struct dlb_trace_quality q;
	char path[512];
	u64 total;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		fixture(path, sizeof(path), files[i]);
		q = read_counts(path, &c);
		check_counts("rtapp10.expected", &c, &q, &total);
		check_clean(&q);
		assert_int_equal(q.format, DLB_FMT_TRACE_DAT);
		assert_string_equal(q.clock, "mono");
		assert_int_equal(q.ts_unit_ns, 1);
		assert_int_equal(q.lost_events, 0);
		check_rtapp10_markers(&c);
	}
}

static void test_rtapp10_text(void **state)
{
	static const char *const files[] = {
		"rtapp10.report.txt.gz", "rtapp10.report-N.txt.gz", "rtapp10.report-R.txt.gz",
		"rtapp10.report-t.txt.gz",
	};
	struct dlb_trace_quality q, qd;
	struct counts c, cd;
	char path[512];
	u64 total;
	size_t i;

	(void)state;
	fixture(path, sizeof(path), "rtapp10.dat");
	qd = read_counts(path, &cd);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		gunzip(path, sizeof(path), files[i]);
		q = read_counts(path, &c);
		unlink(path);
		check_counts("rtapp10.expected", &c, &q, &total);
		check_clean(&q);
		assert_int_equal(q.format, DLB_FMT_TRACECMD_REPORT);
		assert_int_equal(q.ts_unit_ns, strstr(files[i], "-t") ? 1 : 1000);
		check_rtapp10_markers(&c);
		/* µs text rounds; -t keeps the ns of the trace.dat */
		assert_true(q.first_ts / 1000 - qd.first_ts / 1000 <= 1);
		if (strstr(files[i], "-t"))
			assert_int_equal(q.last_ts, qd.last_ts);
	}
}

/* A ring buffer overrun: two lost-event records in the .dat, the header count in text. */
static void test_lost(void **state)
{
	struct dlb_trace_quality q, qt;
	struct counts c, ct;
	char path[512];
	u64 total;

	(void)state;
	fixture(path, sizeof(path), "lost.dat");
	q = read_counts(path, &c);
	check_counts("lost.expected", &c, &q, &total);
	assert_int_equal(q.lost_records, 2);
	assert_true(q.lost_events > 0);
	assert_int_equal(q.stats_lost, q.lost_events);	/* cpustats agree with the records */

	gunzip(path, sizeof(path), "lost.txt.gz");
	qt = read_counts(path, &ct);
	unlink(path);
	assert_int_equal(qt.format, DLB_FMT_KERNEL_TEXT);
	/* the same buffer: same events; the loss known only from the header */
	assert_int_equal(qt.events + 2, q.events);
	assert_int_equal(ct.by_type[DLB_EV_SWITCH], c.by_type[DLB_EV_SWITCH]);
	assert_int_equal(ct.by_type[DLB_EV_MARKER], 1);
	assert_int_equal(qt.lost_records, 0);
	assert_int_equal(qt.lost_events, q.lost_events);
	assert_int_equal(qt.nr_cpus, 2);
}

/* trace-cmd record -B: the events are in an instance buffer, the top one is empty. */
static void test_instance(void **state)
{
	struct dlb_trace_quality q;
	struct counts c;
	char path[512];
	u64 total;

	(void)state;
	fixture(path, sizeof(path), "instance.dat");
	q = read_counts(path, &c);
	check_counts("instance.expected", &c, &q, &total);
	assert_true(total > 0);
	check_clean(&q);
}

static int stop_at_10(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	return ++*(int *)arg == 10 ? 42 : 0;
}

/* A consumer's non-zero return stops the stream and is returned. */
static void test_dat_stop(void **state)
{
	struct dlb_err err = { 0 };
	struct dlb_trace *t;
	char path[512];
	int n = 0;

	(void)state;
	fixture(path, sizeof(path), "rtapp10.dat");
	t = dlb_trace_open(path, &err);
	assert_non_null(t);
	assert_int_equal(dlb_trace_read(t, stop_at_10, &n, &err), 42);
	assert_int_equal(n, 10);
	assert_int_equal(dlb_trace_quality(t)->events, 10);
	dlb_trace_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtapp10_dat),
		cmocka_unit_test(test_rtapp10_text),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_instance),
		cmocka_unit_test(test_dat_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
