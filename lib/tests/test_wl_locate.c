// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's position locator (lib/wl_locate.c):
 *  - the indexed position of every byte equals the one counted from byte 0
 *    (lines, columns in characters over multi-byte UTF-8, one long line);
 *  - a position costs a bounded amount of text, not the text before it: the
 *    file's start is made unreadable and positions near its end still come
 *    back (counting from byte 0, as the loader did, faults);
 *  - paths are found by name; a repeated key is renamed as rt-app's workgen
 *    does (a, e, a, e -> a, e, a1, e1), the paths inside it too.
 */
#include "dlb_test.h"

#include <string.h>
#include <sys/mman.h>

#include "../wl_local.h"

/* Every offset, one past the end and far beyond: index == count. */
static void check_all_offsets(const char *buf, size_t len)
{
	struct wl_loc *loc = wl_loc_create(buf, len);
	size_t off;

	assert_non_null(loc);
	for (off = 0; off <= len + 2; off++) {
		struct wl_pos a = wl_loc_pos(buf, len, off), b = wl_loc_pos_of(loc, off);

		if (a.line != b.line || a.col != b.col)
			fail_msg("offset %zu: counted %d:%d, indexed %d:%d", off, a.line, a.col,
				 b.line, b.col);
	}
	wl_loc_free(loc);
}

static void test_positions_match(void **state)
{
	char *buf, *p;
	size_t i;

	(void)state;
	check_all_offsets("{}", 2);
	check_all_offsets("{\n\"a\": 1\n}\n", 11);
	/* tabs, CRLF, 2- and 3-byte UTF-8 keys, and a 5000-byte line */
	buf = malloc(40000);
	assert_non_null(buf);
	p = buf + sprintf(buf, "{\r\n\t\"tasks\": {\n");
	for (i = 0; i < 200; i++)
		p += sprintf(p, "\t\t\"t\xc3\xa9\xe2\x82\xac%zu\": { \"run\": %zu },\n", i, i);
	p += sprintf(p, "\t\t\"long\": \"");
	memset(p, 'x', 5000);
	p += 5000;
	p += sprintf(p, "\" }\n}\n");
	check_all_offsets(buf, (size_t)(p - buf));
	free(buf);
}

static void test_position_is_local(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 256 * page, len, off, tail;
	struct wl_pos want[64];
	struct wl_loc *loc;
	char *buf, *p;
	int i;

	(void)state;
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	p = buf + sprintf(buf, "{\"tasks\": {\n");
	for (i = 0; p + 64 < buf + size - page; i++)
		p += sprintf(p, "\"t%d\": {\"run\": %d},\n", i, i);
	p += sprintf(p, "\"last\": {\"run\": 1}}}\n");
	len = (size_t)(p - buf);
	loc = wl_loc_create(buf, len);
	assert_non_null(loc);
	assert_int_equal(wl_loc_nr_renames(loc), 0);
	tail = (len - 1) / page * page;		/* the last page of text */
	for (i = 0; i < 64; i++)
		want[i] = wl_loc_pos(buf, len, tail + (size_t)i * (len - tail) / 64);
	/* everything before the last page: unreadable */
	assert_int_equal(mprotect(buf, tail, PROT_NONE), 0);
	for (i = 0; i < 64; i++) {
		struct wl_pos got;

		off = tail + (size_t)i * (len - tail) / 64;
		got = wl_loc_pos_of(loc, off);
		assert_int_equal(got.line, want[i].line);
		assert_int_equal(got.col, want[i].col);
	}
	assert_int_equal(mprotect(buf, tail, PROT_READ), 0);
	wl_loc_free(loc);
	munmap(buf, size);
}

static void test_find_and_renames(void **state)
{
	static const char js[] = "{\"a\": {\"b\": [1, {\"c\": 2}], \"d\\u00e9\": 3},\n"
		" \"e\": 1, \"a\": {\"b\": 4}, \"e\": 5}";
	const struct wl_loc_rename *r;
	struct wl_loc *loc;
	size_t key, val;

	(void)state;
	loc = wl_loc_create(js, strlen(js));
	assert_non_null(loc);
	assert_int_equal(wl_loc_find(loc, "a.b[1].c", &key, &val), 0);
	assert_int_equal(key, strchr(js, 'c') - 1 - js);
	assert_int_equal(val, strchr(js, '2') - js);
	assert_int_equal(wl_loc_find(loc, "a.d\xc3\xa9", &key, &val), 0);
	assert_int_equal(wl_loc_find(loc, "a.b[2]", &key, &val), -1);
	/* the first keeps its name; the second "a" is "a1", its "b" "a1.b" */
	assert_int_equal(wl_loc_find(loc, "a", &key, &val), 0);
	assert_int_equal(key, 1);
	assert_int_equal(wl_loc_nr_renames(loc), 2);
	r = wl_loc_rename_at(loc, 0);
	assert_string_equal(r->path, "a1");
	assert_string_equal(r->key, "a");
	assert_string_equal(r->suffix, "1");
	assert_int_equal(r->first_key, 1);
	assert_int_equal(r->key_off, strstr(js, "\"a\": {\"b\": 4") - js);
	assert_int_equal(r->quote_off, r->key_off + 2);
	assert_int_equal(wl_loc_find(loc, "a1.b", &key, &val), 0);
	assert_int_equal(val, strchr(js, '4') - js);
	assert_string_equal(wl_loc_rename_at(loc, 1)->path, "e1");
	assert_int_equal(wl_loc_find(loc, "e1", &key, &val), 0);
	assert_int_equal(val, strchr(js, '5') - js);
	assert_string_equal(wl_loc_path_at(loc, (size_t)(strchr(js, '2') - js)), "a.b[1].c");
	wl_loc_free(loc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions_match),
		cmocka_unit_test(test_position_is_local),
		cmocka_unit_test(test_find_and_renames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
