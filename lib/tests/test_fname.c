// SPDX-License-Identifier: GPL-2.0
/* dlb_fname_escape: what reaches a file name from a task name. */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/fname.h"

static void expect(const char *name, const char *want)
{
	char out[128];

	assert_int_equal(dlb_fname_escape(out, sizeof(out), name), (int)strlen(want));
	assert_string_equal(out, want);
}

static void test_escape(void **state)
{
	(void)state;
	expect("dl_a", "dl_a");
	expect("t\xc3\xa9\xe2\x82\xac", "t\xc3\xa9\xe2\x82\xac");	/* valid UTF-8 kept */
	expect("a/b", "a%2Fb");
	expect("../../etc/x", "..%2F..%2Fetc%2Fx");
	expect("100%", "100%25");				/* one to one */
	expect("a%2Fb", "a%252Fb");
	expect("tab\there\n", "tab%09here%0A");
	expect("\xff\xfe", "%FF%FE");				/* not UTF-8 */
	expect("\xc3", "%C3");					/* truncated sequence */
	expect("\xc0\xaf", "%C0%AF");				/* overlong '/' */
	expect("\xed\xa0\x80", "%ED%A0%80");			/* surrogate */
	expect("\xf4\x90\x80\x80", "%F4%90%80%80");		/* past U+10FFFF */
	expect(".", "%2E");
	expect("..", "%2E%2E");
	expect("...", "...");
	expect("", "");
}

static void test_truncation(void **state)
{
	char out[6];

	(void)state;
	assert_int_equal(dlb_fname_escape(out, sizeof(out), "abcde"), 5);
	assert_int_equal(dlb_fname_escape(out, sizeof(out), "abcdef"), -1);
	assert_string_equal(out, "abcde");
	/* an escape is never cut in half, nor a UTF-8 character */
	assert_int_equal(dlb_fname_escape(out, sizeof(out), "abc/d"), -1);
	assert_string_equal(out, "abc");
	assert_int_equal(dlb_fname_escape(out, sizeof(out), "abcd\xc3\xa9"), -1);
	assert_string_equal(out, "abcd");
	assert_int_equal(dlb_fname_escape(out, 0, "a"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
