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

/*
 * dlb_event_format writes without printf (one call per trace line of
 * dlb-sim -o): the same bytes as the printf formats of event_text.h, for
 * random values of every width, negative numbers and long names, checked
 * against snprintf.
 */
static void test_printf_equivalent(void **state)
{
	static const char *const comms[] = { "a", "rt-app", "swapper/1", "fifteen_chars__" };
	char buf[DLB_EVENT_TEXT_MAX], want[DLB_EVENT_TEXT_MAX], st[24], head[128];
	struct dlb_event ev;
	u64 x = 88172645463325252ULL;
	const char *comm;
	int k, n;

	(void)state;
	for (k = 0; k < 3000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memset(&ev, 0, sizeof(ev));
		ev.ts = k < 10 ? (u64)k : x >> (k % 40);
		ev.cpu = k % 50 == 0 ? -1 : (int)(x % (k % 3 ? 8 : 2000));
		ev.pid = k % 7 == 0 ? (int)(x >> 40) : (int)(x % 100000) * (k % 11 ? 1 : -1);
		comm = comms[k % 4];
		snprintf(head, sizeof(head), "%16s-%-7d [%03d] %s %5llu.%09llu: ",
			 ev.pid ? comm : "<idle>", ev.pid, ev.cpu, k % 5 ? "d..2." : ".....",
			 (unsigned long long)(ev.ts / 1000000000ULL),
			 (unsigned long long)(ev.ts % 1000000000ULL));
		switch (k % 5) {
		case 0:
			ev.type = DLB_EV_MARKER;
			ev.mark.text = "dlb_job: tid=1 job=2 event=end trailing";
			ev.mark.len = 30;
			snprintf(want, sizeof(want), "%stracing_mark_write: %.*s", head, 30,
				 ev.mark.text);
			break;
		case 1:
			ev.type = DLB_EV_SWITCH;
			ev.sw.prev_pid = (int)(x >> 45);
			ev.sw.prev_prio = k % 2 ? -1 : 120;
			ev.sw.prev_state = (long)(x & 0x1ff);
			strcpy(ev.sw.prev_comm, comms[(k + 1) % 4]);
			ev.sw.next_pid = -(int)(x >> 50);
			ev.sw.next_prio = (int)(x % 140);
			strcpy(ev.sw.next_comm, comm);
			snprintf(want, sizeof(want), "%ssched_switch: prev_comm=%s prev_pid=%d "
				 "prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d "
				 "next_prio=%d", head, ev.sw.prev_comm, ev.sw.prev_pid,
				 ev.sw.prev_prio, dlb_prev_state_str(st, sizeof(st), ev.sw.prev_state),
				 ev.sw.next_comm, ev.sw.next_pid, ev.sw.next_prio);
			break;
		case 2:
			ev.type = DLB_EV_WAKEUP;
			strcpy(ev.wake.comm, comm);
			ev.wake.pid = (int)(x >> 44);
			ev.wake.prio = -1;
			ev.wake.target_cpu = k % 13 == 0 ? -3 : (int)(x % 1500);
			snprintf(want, sizeof(want), "%ssched_wakeup: comm=%s pid=%d prio=%d "
				 "target_cpu=%03d", head, comm, ev.wake.pid, ev.wake.prio,
				 ev.wake.target_cpu);
			break;
		case 3:
			ev.type = DLB_EV_MIGRATE;
			strcpy(ev.mig.comm, comm);
			ev.mig.pid = (int)(x >> 44);
			ev.mig.prio = (int)(x % 100) - 1;
			ev.mig.orig_cpu = (int)(x % 64);
			ev.mig.dest_cpu = (int)(x % 1024);
			snprintf(want, sizeof(want), "%ssched_migrate_task: comm=%s pid=%d prio=%d "
				 "orig_cpu=%d dest_cpu=%d", head, comm, ev.mig.pid, ev.mig.prio,
				 ev.mig.orig_cpu, ev.mig.dest_cpu);
			break;
		default:
			ev.type = k % 2 ? DLB_EV_THROTTLE : DLB_EV_REPLENISH;
			strcpy(ev.dl.comm, comm);
			ev.dl.pid = (int)(x >> 44);
			ev.dl.runtime = (s64)(x >> 20) * (k % 3 ? -1 : 1);
			ev.dl.deadline = x;
			snprintf(want, sizeof(want), "%s%s: comm=%s pid=%d runtime=%lld deadline=%llu",
				 head, k % 2 ? "dl_throttle" : "dl_replenish", comm, ev.dl.pid,
				 (long long)ev.dl.runtime, (unsigned long long)ev.dl.deadline);
			break;
		}
		n = dlb_event_format(buf, sizeof(buf), &ev, ev.pid ? comm : NULL);
		assert_string_equal(buf, want);
		assert_int_equal(n, (int)strlen(want));
	}
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
		cmocka_unit_test(test_printf_equivalent),
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
