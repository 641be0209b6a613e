// SPDX-License-Identifier: GPL-2.0
/*
 * Bad inputs to dlb_trace_open(): exact one-line errors, exit code
 * BAD_INPUT, no crash.  Damaged trace.dat files are made from the
 * committed fixtures (cut, bytes changed).
 */
#include "dlb_test.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "dlbench/exitcode.h"
#include "../trace_input.h"

static char tmp[64];

static int noop(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	(void)arg;
	return 0;
}

static void expect_error_code(const char *path, const char *want, int code)
{
	struct dlb_err err = { 0 };
	struct dlb_trace *t = dlb_trace_open(path, &err);
	char full[1024];

	if (t) {
		dlb_trace_close(t);
		fail_msg("%s: opened, want error '%s'", path, want);
	}
	snprintf(full, sizeof(full), "%s: %s", path, want);
	if (strcmp(err.msg, full))
		fail_msg("\n got '%s'\nwant '%s'", err.msg, full);
	assert_int_equal(err.code, code);
	assert_null(strchr(err.msg, '\n'));
}

static void expect_error(const char *path, const char *want)
{
	expect_error_code(path, want, DLB_EXIT_BAD_INPUT);
}

/* A cut trace.dat is incomplete data: exit 4, as README.md and trace-formats.md say. */
static void expect_truncated(const char *path, const char *want)
{
	expect_error_code(path, want, DLB_EXIT_INCOMPLETE);
}

static const char *write_tmp(const void *data, size_t len)
{
	int fd;

	strcpy(tmp, "/tmp/dlb-test-bad-XXXXXX");
	fd = mkstemp(tmp);
	assert_int_not_equal(fd, -1);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return tmp;
}

/* The first @len bytes of fixture @name, with @nflip bytes at @at changed. */
static const char *fixture_cut(const char *name, size_t len, size_t at, int nflip)
{
	char path[512];
	unsigned char *buf = malloc(len);
	FILE *f;
	const char *r;
	int i;

	snprintf(path, sizeof(path), "%s/analyzer/tests/fixtures/%s", dlb_src(), name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	for (i = 0; i < nflip; i++)
		buf[at + (size_t)i] ^= 0x5a;
	r = write_tmp(buf, len);
	free(buf);
	return r;
}

static void test_missing_and_directory(void **state)
{
	(void)state;
	expect_error("/nonexistent/trace.dat", "cannot open: no such file or directory");
	expect_error("/tmp", "is a directory, not a trace");
}

/* Root reads a chmod 000 file anyway; /proc/self/mem opens but fails to read. */
static void test_unreadable(void **state)
{
	(void)state;
	expect_error("/proc/self/mem", "read error: input/output error");
}

static void test_empty_and_garbage(void **state)
{
	static const unsigned char bin[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0 };
	char text[4096];
	int i, n = 0;

	(void)state;
	expect_error(write_tmp("", 0), "empty file, not a trace");
	unlink(tmp);
	expect_error(write_tmp(bin, sizeof(bin)),
		     "not a trace: binary data without the trace.dat magic");
	unlink(tmp);
	for (i = 0; i < 1200 && n < (int)sizeof(text) - 8; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "hello\n");
	expect_error(write_tmp(text, (size_t)n), "not a trace: no trace event line in the first "
		     "682 lines");
	unlink(tmp);
}

static void test_bad_header(void **state)
{
	static const char magic[] = "\027\010\104tracing";
	char h[64];

	(void)state;
	expect_truncated(write_tmp("\027\010\104trac", 7), "truncated trace.dat header (7 bytes)");

	unlink(tmp);
	expect_error(write_tmp("\027\010\104tracinX6\0\0\10\0\20\0\0", 16),
		     "not a trace.dat: bad magic");
	unlink(tmp);
	memcpy(h, magic, 10);
	memcpy(h + 10, "8\0\0\10\0\20\0\0", 8);
	expect_error(write_tmp(h, 18), "trace.dat version 8 is not supported (6 and 7 are)");
	unlink(tmp);
	memcpy(h + 10, "x\0", 2);
	expect_error(write_tmp(h, 18), "bad trace.dat version string");
	unlink(tmp);
	memcpy(h + 10, "6\0\0\3\0\20\0\0", 8);
	expect_error(write_tmp(h, 18), "bad trace.dat header: endian 0, long size 3");
	unlink(tmp);
	memcpy(h + 10, "6\0\0\10\0\21\0\0", 8);
	expect_error(write_tmp(h, 18), "bad trace.dat page size 4352");
	unlink(tmp);
	/* a top byte >= 0x80 (a fuzzer find: UB when shifted as an int) */
	memcpy(h + 10, "6\0\0\10\0\20\0\365", 8);
	expect_error(write_tmp(h, 18), "bad trace.dat page size 4110422016");
	unlink(tmp);
	memcpy(h + 10, "6\0\0\10\0\20\0\0", 8);
	expect_truncated(write_tmp(h, 18),
		     "truncated trace.dat: the file ends inside the header_page tag (18 bytes)");
	unlink(tmp);
	memcpy(h + 18, "header_pagX", 12);
	expect_error(write_tmp(h, 30),
		     "corrupt trace.dat: a section tag is not where the format puts it");
	unlink(tmp);
}

/* A v6 file cut inside its CPU data crashed libtracecmd before the walk. */
static void test_truncated_v6(void **state)
{
	(void)state;
	expect_truncated(fixture_cut("rtapp10.v6.dat", 40000, 0, 0),
		     "truncated trace.dat: CPU 0 data (28672 bytes at 24576) ends past the end "
		     "of the file (40000 bytes)");
	unlink(tmp);
	expect_truncated(fixture_cut("rtapp10.v6.dat", 102399, 0, 0),
		     "truncated trace.dat: CPU 1 data (49152 bytes at 53248) ends past the end "
		     "of the file (102399 bytes)");
	unlink(tmp);
	expect_truncated(fixture_cut("rtapp10.v6.dat", 5000, 0, 0),
		     "truncated trace.dat: the file ends inside the ftrace formats (5000 bytes)");
	unlink(tmp);
}

/* v7 keeps the CPU data offsets after the data: a cut file cannot be opened. */
static void test_truncated_v7(void **state)
{
	(void)state;
	expect_truncated(fixture_cut("rtapp10.dat", 10000, 0, 0),
		     "truncated trace.dat: the file ends inside the options section (10000 bytes)");
	unlink(tmp);
}

/*
 * Changed bytes in v7's compressed metadata made tracecmd_open() crash;
 * the child probe turns that into an error.  Whatever the outcome, this
 * process must survive every one of these.
 */
static void test_corrupt_v7_no_crash(void **state)
{
	struct dlb_err err;
	struct dlb_trace *t;
	size_t at;
	int opened = 0, failed = 0;

	(void)state;
	for (at = 1000; at < 19000; at += 397) {
		fixture_cut("rtapp10.dat", 19374, at, 4);
		t = dlb_trace_open(tmp, &err);
		if (t) {
			opened++;
			dlb_trace_read(t, noop, NULL, &err);
			dlb_trace_close(t);
		} else {
			failed++;
			/* a flipped size may point past the end: read as a cut file */
			assert_true(err.code == DLB_EXIT_BAD_INPUT || err.code == DLB_EXIT_INCOMPLETE);
		}
		unlink(tmp);
	}
	print_message("# %d opened, %d refused\n", opened, failed);
	assert_true(failed > 0);
}

static int count(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	(*(unsigned long *)arg)++;
	return 0;
}

/*
 * A fuzzer find (tests/fuzz/regress/trace_dat/record-past-page.dat): three
 * records whose length field reaches past their page (one by 230 KB); the
 * reader used to decode one of them from whatever memory followed the page
 * (a heap overflow under ASan, a garbage event otherwise).  Each is now a
 * bad record, the first one's offset kept; the rest of the file is read.
 */
static void test_record_past_page(void **state)
{
	struct dlb_err err = { 0 };
	const struct dlb_trace_quality *q;
	struct dlb_trace *t;
	unsigned long n = 0;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/fuzz/regress/trace_dat/record-past-page.dat",
		 dlb_src());
	t = dlb_trace_open(path, &err);
	if (!t)
		fail_msg("%s", err.msg);
	assert_int_equal(dlb_trace_read(t, count, &n, &err), 0);
	q = dlb_trace_quality(t);
	assert_int_equal(n, 1470);
	assert_int_equal(q->bad_lines, 9);		/* 6 undecodable + 3 past their page */
	assert_int_equal(q->first_bad_offset, 39012);
	dlb_trace_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_and_directory),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_empty_and_garbage),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_truncated_v6),
		cmocka_unit_test(test_truncated_v7),
		cmocka_unit_test(test_corrupt_v7_no_crash),
		cmocka_unit_test(test_record_past_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
