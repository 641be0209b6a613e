// SPDX-License-Identifier: GPL-2.0
/* dlb_event_format(): the kernel's ftrace text layout, line for line. */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/event_text.h"

static void expect(const struct dlb_event *ev, const char *comm, const char *want)
{
	char buf[DLB_EVENT_TEXT_MAX];
	int n = dlb_event_format(buf, sizeof(buf), ev, comm);

	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

static void test_switch(void **state)
{
	struct dlb_event ev = { .ts = 25416458208123ULL, .cpu = 0, .pid = 0, .type = DLB_EV_SWITCH };

	(void)state;
	ev.sw.prev_pid = 0;
	ev.sw.prev_prio = 120;
	ev.sw.prev_state = 0;
	strcpy(ev.sw.prev_comm, "swapper/0");
	ev.sw.next_pid = 23792;
	ev.sw.next_prio = -1;
	strcpy(ev.sw.next_comm, "dl_task");
	/* the kernel's line of FACTS.md, with ns */
	expect(&ev, NULL, "          <idle>-0       [000] d..2. 25416.458208123: sched_switch: "
	       "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
	       "next_comm=dl_task next_pid=23792 next_prio=-1");
	ev.pid = 1001;
	ev.cpu = 1;
	ev.ts = 1000;
	ev.sw.prev_pid = 1001;
	ev.sw.prev_prio = -1;
	ev.sw.prev_state = 0x100;
	strcpy(ev.sw.prev_comm, "a");
	expect(&ev, "a", "               a-1001    [001] d..2.     0.000001000: sched_switch: "
	       "prev_comm=a prev_pid=1001 prev_prio=-1 prev_state=R+ ==> "
	       "next_comm=dl_task next_pid=23792 next_prio=-1");
}

static void test_prev_state(void **state)
{
	char buf[24];

	(void)state;
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 0), "R");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 0x100), "R+");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 1), "S");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 2), "D");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 0x10), "X");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 0x20), "Z");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 0x80), "I");
	assert_string_equal(dlb_prev_state_str(buf, sizeof(buf), 3), "S|D");
}

static void test_others(void **state)
{
	struct dlb_event ev = { .ts = 2000000001ULL, .cpu = 1, .pid = 7, .type = DLB_EV_WAKEUP };
	const char *pre = "               x-7       [001] d..2.     2.000000001: ";
	char want[256];

	(void)state;
	strcpy(ev.wake.comm, "B");
	ev.wake.pid = 2;
	ev.wake.prio = -1;
	ev.wake.target_cpu = 1;
	snprintf(want, sizeof(want), "%ssched_wakeup: comm=B pid=2 prio=-1 target_cpu=001", pre);
	expect(&ev, "x", want);

	memset(&ev.mig, 0, sizeof(ev.mig));
	ev.type = DLB_EV_MIGRATE;
	strcpy(ev.mig.comm, "B");
	ev.mig.pid = 2;
	ev.mig.prio = -1;
	ev.mig.orig_cpu = 0;
	ev.mig.dest_cpu = 1;
	snprintf(want, sizeof(want), "%ssched_migrate_task: comm=B pid=2 prio=-1 orig_cpu=0 dest_cpu=1",
		 pre);
	expect(&ev, "x", want);

	ev.type = DLB_EV_RUNTIME;
	strcpy(ev.rt.comm, "B");
	ev.rt.pid = 2;
	ev.rt.runtime = 1000;
	snprintf(want, sizeof(want), "%ssched_stat_runtime: comm=B pid=2 runtime=1000 [ns]", pre);
	expect(&ev, "x", want);

	ev.type = DLB_EV_EXIT;
	strcpy(ev.exit.comm, "B");
	ev.exit.pid = 2;
	snprintf(want, sizeof(want), "%ssched_process_exit: comm=B pid=2 prio=120 group_dead=false",
		 pre);
	expect(&ev, "x", want);

	ev.type = DLB_EV_THROTTLE;
	strcpy(ev.dl.comm, "B");
	ev.dl.pid = 2;
	ev.dl.runtime = -5000;
	ev.dl.deadline = 123456789;
	snprintf(want, sizeof(want), "%sdl_throttle: comm=B pid=2 runtime=-5000 deadline=123456789", pre);
	expect(&ev, "x", want);
	ev.type = DLB_EV_REPLENISH;
	ev.dl.runtime = 10000000;
	ev.dl.deadline = 223456789;
	snprintf(want, sizeof(want), "%sdl_replenish: comm=B pid=2 runtime=10000000 deadline=223456789",
		 pre);
	expect(&ev, "x", want);

	ev.type = DLB_EV_MARKER;
	ev.mark.text = "dlb_job: tid=2 job=0 event=end\n";
	ev.mark.len = strlen("dlb_job: tid=2 job=0 event=end");
	expect(&ev, "x", "               x-7       [001] .....     2.000000001: "
	       "tracing_mark_write: dlb_job: tid=2 job=0 event=end");

	ev.type = DLB_EV_LOST;
	ev.lost.count = 12;
	expect(&ev, "x", "CPU:1 [LOST 12 EVENTS]");
	ev.pid = 12345678;
	ev.type = DLB_EV_WAKEUP;
	memset(&ev.wake, 0, sizeof(ev.wake));
	strcpy(ev.wake.comm, "B");
	ev.wake.pid = 2;
	ev.wake.prio = -1;
	ev.wake.target_cpu = 1;
	expect(&ev, NULL, "           <...>-12345678 [001] d..2.     2.000000001: sched_wakeup: "
	       "comm=B pid=2 prio=-1 target_cpu=001");
}

static void test_too_small(void **state)
{
	struct dlb_event ev = { .ts = 1, .type = DLB_EV_WAKEUP };
	char buf[40];

	(void)state;
	assert_int_equal(dlb_event_format(buf, sizeof(buf), &ev, "x"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_prev_state),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
