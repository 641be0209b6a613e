// SPDX-License-Identifier: GPL-2.0
/*
 * The workload loader, data-driven:
 *  - golden: every JSON file in workloads/ and lib/tests/data/good/ loads and
 *    its dump, then its warnings ("warning FILE:LINE:COL: ..." lines, from
 *    wl_warnings_write), equals the committed .expected file;
 *  - bad: every JSON file in lib/tests/data/bad/ is refused with exit code 2 and
 *    exactly the one line in the .err file beside it.
 * DLB_REGEN=1 rewrites the .expected and .err files (then review the diff).
 */
#include "dlb_test.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "dlbench/exitcode.h"
#include "dlbench/workload.h"

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	n = (size_t)getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n == (size_t)-1) {
		free(buf);
		return strdup("");
	}
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static bool regen(void)
{
	const char *r = getenv("DLB_REGEN");

	return r && *r == '1';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.json names in @dir (relative to the source tree). */
static size_t list_json(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, len;

	if (!d)
		fail_msg("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		assert_non_null(names);
		names[n] = strdup(de->d_name);
		assert_non_null(names[n++]);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	return n;
}

static void free_list(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

/* @dir/x.json dumps to @expdir/x.expected. */
static size_t golden_dir(const char *dir, const char *expdir)
{
	char **names, path[512], exp[512], *dump, *want;
	struct workload *wl = NULL;
	struct dlb_err err;
	size_t i, n, size, bad = 0;
	FILE *f;

	n = list_json(dir, &names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(exp, sizeof(exp), "%s/%.*s.expected", expdir,
			 (int)(strlen(names[i]) - 5), names[i]);
		if (wl_load_file(path, NULL, &wl, &err)) {
			print_error("%s: does not load: %s\n", path, err.msg);
			bad++;
			continue;
		}
		f = open_memstream(&dump, &size);
		assert_non_null(f);
		assert_int_equal(wl_dump(wl, f), 0);
		assert_int_equal(wl_warnings_write(wl, "dlb-workload", f), (int)wl->nr_warnings);
		fclose(f);
		wl_free(wl);
		if (regen())
			write_text(exp, dump);
		want = read_text(exp);
		if (!want || strcmp(want, dump)) {
			print_error("%s: dump differs from %s%s\n--- got:\n%s", path, exp,
				    want ? "" : " (missing)", dump);
			bad++;
		}
		free(want);
		free(dump);
	}
	free_list(names, n);
	if (bad)
		fail_msg("%zu of %zu files in %s do not match their golden dump", bad, n, dir);
	return n;
}

static void test_golden_workloads(void **state)
{
	(void)state;
	/* at least the examples the docs promise */
	assert_true(golden_dir("workloads", "lib/tests/data/workloads") >= 1);
}

static void test_golden_good(void **state)
{
	(void)state;
	assert_true(golden_dir("lib/tests/data/good", "lib/tests/data/good") >= 1);
}

/* The one line the loader must give for @path (kept in @errfile). */
static bool check_bad(const char *path, const char *errfile)
{
	struct workload *wl = (struct workload *)0x1;	/* must stay untouched */
	struct dlb_err err;
	char *want, *nl;
	bool ok = true;

	dlb_err_clear(&err);
	if (!wl_load_file(path, NULL, &wl, &err)) {
		print_error("%s: loaded, but must be refused\n", path);
		wl_free(wl);
		return false;
	}
	if (wl != (struct workload *)0x1 || err.code != DLB_EXIT_BAD_INPUT) {
		print_error("%s: *out touched or code %d, want %d\n", path, err.code,
			    DLB_EXIT_BAD_INPUT);
		ok = false;
	}
	if (strchr(err.msg, '\n')) {
		print_error("%s: message is not one line\n", path);
		ok = false;
	}
	if (regen()) {
		char line[DLB_ERR_MAX + 2];

		snprintf(line, sizeof(line), "%s\n", err.msg);
		write_text(errfile, line);
	}
	want = read_text(errfile);
	if (!want) {
		print_error("%s: no %s; got: %s\n", path, errfile, err.msg);
		return false;
	}
	nl = strchr(want, '\n');
	if (nl)
		*nl = '\0';
	if (strcmp(want, err.msg)) {
		print_error("%s:\n  got:  %s\n  want: %s\n", path, err.msg, want);
		ok = false;
	}
	free(want);
	return ok;
}

static void test_bad_inputs(void **state)
{
	const char *dir = "lib/tests/data/bad";
	char **names, path[512], errfile[512];
	size_t i, n, bad = 0;

	(void)state;
	n = list_json(dir, &names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(errfile, sizeof(errfile), "%s/%.*s.err", dir,
			 (int)(strlen(names[i]) - 5), names[i]);
		bad += !check_bad(path, errfile);
	}
	free_list(names, n);
	if (bad)
		fail_msg("%zu of %zu bad inputs gave the wrong answer", bad, n);
	assert_true(n >= 25);
}

/* Paths that are no JSON file at all. */
static void test_bad_paths(void **state)
{
	(void)state;
	assert_true(check_bad("lib/tests/data/bad/no-such-file.json",
			      "lib/tests/data/bad/no-such-file.err"));
	assert_true(check_bad("lib/tests/data/bad", "lib/tests/data/bad/is-directory.err"));
}

static void test_buffer_api(void **state)
{
	static const char js[] = "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\","
		" \"dl-runtime\": 1000, \"dl-period\": 4000, \"instance\": 2, \"run\": 900,"
		" \"barrier\": \"b\", \"timer\": {\"ref\": \"t\", \"period\": 4000}}}}";
	struct workload *wl;
	struct dlb_err err;

	(void)state;
	assert_int_equal(wl_load_buffer("mem", js, strlen(js), NULL, &wl, &err), 0);
	assert_int_equal(wl->nr_tasks, 1);
	assert_int_equal(wl->tasks[0].dl.runtime, 1000000);
	assert_int_equal(wl->tasks[0].dl.deadline, 4000000);	/* deadline = period */
	assert_int_equal(wl_resource_find(wl, "t", WL_RES_TIMER), 1);
	assert_int_equal(wl_resource_find(wl, "nope", WL_RES_TIMER), -1);
	assert_int_equal(wl->resources[0].users, 2);		/* barrier: instances */
	/* 2 x to_ratio(4 ms, 1 ms) */
	assert_int_equal(wl_dl_bandwidth(wl), 2 * ((1000000ULL << BW_SHIFT) / 4000000));
	assert_string_equal(wl_policy_str(wl->tasks[0].policy), "SCHED_DEADLINE");
	assert_string_equal(wl_event_type_str(WL_EV_RUNTIME), "runtime");
	assert_string_equal(wl_event_type_str(WL_EV_BROAD), "broad");
	wl_free(wl);

	assert_int_equal(wl_load_buffer("mem", js, 17, NULL, &wl, &err), -1);
	assert_string_equal(err.msg, "mem:1:18: tasks.a: unexpected end of file (truncated json)");
}

/* Custom sysctl limits reach the validator. */
static void test_limits(void **state)
{
	static const char js[] = "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\","
		"\n \"dl-runtime\": 100, \"dl-period\": 500, \"run\": 90}}}";
	struct dl_param_limits lim = { .period_min = 1000000, .period_max = 10000000 };
	struct workload *wl;
	struct dlb_err err;

	(void)state;
	assert_int_equal(wl_load_buffer("x", js, strlen(js), &lim, &wl, &err), -1);
	assert_string_equal(err.msg, "x:2:34: tasks.a.dl-period: period 500000 ns is below "
			    "1000000 ns (period must be at least sched_deadline_period_min_us)");
	assert_int_equal(wl_load_buffer("x", js, strlen(js), NULL, &wl, &err), 0);
	wl_free(wl);
}

/* One mutated buffer: loads, or is refused with code 2 and one line. */
static void mutate_one(const char *orig, size_t len, unsigned int *seed)
{
	static const char bytes[] = "{}[]\",:/*-0123456789 \\'abtx\n";
	char *b = malloc(len + 1);
	struct workload *wl = NULL;
	struct dlb_err err;
	size_t cut = len;
	int k;

	assert_non_null(b);
	memcpy(b, orig, len);
	for (k = 0; k < 3; k++)
		b[rand_r(seed) % len] = bytes[rand_r(seed) % (sizeof(bytes) - 1)];
	if (rand_r(seed) % 4 == 0)
		cut = (size_t)rand_r(seed) % len;
	dlb_err_clear(&err);
	if (wl_load_buffer("m", b, cut, NULL, &wl, &err) == 0) {
		wl_free(wl);
	} else {
		if (err.code != DLB_EXIT_BAD_INPUT || strchr(err.msg, '\n') || !err.msg[0])
			fail_msg("mutant of %.40s: code %d, message '%s'", orig, err.code, err.msg);
	}
	free(b);
}

/*
 * Robustness, deterministically: mutated and truncated good files never
 * crash the loader and always get exit code 2 and a one-line message (run
 * under make SANITIZE=address,undefined check for memory errors).
 */
static void test_mutations(void **state)
{
	char **names, path[512], *text;
	unsigned int seed = 12345;
	size_t i, n;
	int k;

	(void)state;
	n = list_json("lib/tests/data/good", &names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "lib/tests/data/good/%s", names[i]);
		text = read_text(path);
		assert_non_null(text);
		for (k = 0; k < 300 && strlen(text) > 1; k++)
			mutate_one(text, strlen(text), &seed);
		free(text);
	}
	free_list(names, n);
}

/*
 * Scale: 100k tasks, each with a private timer and one shared barrier, load
 * (positions, resource names and barrier users were each quadratic in the
 * task count: at 40k tasks the loader took minutes), and an error in the
 * last task still names its exact line and column.
 */
static void test_many_tasks(void **state)
{
	enum { N = 100000 };
	size_t cap = (size_t)N * 96 + 64, len, col;
	char *buf = malloc(cap), *p, *last, msg[128];
	struct workload *wl;
	struct dlb_err err;
	int i;

	(void)state;
	assert_non_null(buf);
	p = buf + sprintf(buf, "{\"tasks\": {\n");
	for (i = 0; i < N; i++) {
		last = p;
		p += sprintf(p, "\t\"t%d\": {\"run\": 100, \"barrier\": \"b\", \"timer\": "
			     "{\"ref\": \"unique\", \"period\": 1000}}%s\n", i, i < N - 1 ? "," : "");
	}
	p += sprintf(p, "}}\n");
	len = (size_t)(p - buf);
	assert_int_equal(wl_load_buffer("big", buf, len, NULL, &wl, &err), 0);
	assert_int_equal(wl->nr_tasks, N);
	assert_int_equal(wl->nr_resources, N + 1);
	assert_int_equal(wl->resources[wl_resource_find(wl, "b", WL_RES_BARRIER)].users, N);
	assert_int_equal(wl->tasks[N - 1].pos.line, N + 1);
	assert_int_equal(wl->tasks[N - 1].pos.col, 2);
	wl_free(wl);

	/* the last task's run becomes negative */
	p = strstr(last, "100");
	memcpy(p, " -1", 3);
	col = (size_t)(p + 1 - last) + 1;
	snprintf(msg, sizeof(msg), "big:%d:%zu: tasks.t%d.run: duration -1 us is negative",
		 N + 1, col, N - 1);
	assert_int_equal(wl_load_buffer("big", buf, len, NULL, &wl, &err), -1);
	assert_string_equal(err.msg, msg);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_workloads),
		cmocka_unit_test(test_golden_good),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_bad_paths),
		cmocka_unit_test(test_buffer_api),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_many_tasks),
	};

	if (chdir(dlb_src())) {
		perror(dlb_src());
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
