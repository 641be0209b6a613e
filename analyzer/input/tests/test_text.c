// SPDX-License-Identifier: GPL-2.0
/*
 * Text readers on hand-built traces with exact answers: every layout we
 * read (kernel µs, reference ns, trace-cmd report default/-N/-R), lost
 * events, a cut last line, garbage lines, an empty trace, no sched_switch,
 * backwards timestamps.
 */
#include "dlb_test.h"

#include <string.h>

#include "dlbench/exitcode.h"
#include "../trace_input.h"

#define MAX_EV 64

struct got {
	int n;
	struct dlb_event ev[MAX_EV];
	char text[MAX_EV][128];
	int stop_at;		/* return 7 at this event (1-based), 0: never */
	u64 cpu_events[4];	/* dlb_trace_cpu_events() after the read */
};

static int collect(const struct dlb_event *ev, void *arg)
{
	struct got *g = arg;

	if (g->n < MAX_EV) {
		g->ev[g->n] = *ev;
		if (ev->type == DLB_EV_MARKER) {
			snprintf(g->text[g->n], sizeof(g->text[0]), "%.*s", (int)ev->mark.len,
				 ev->mark.text);
			g->ev[g->n].mark.text = g->text[g->n];
		}
	}
	g->n++;
	return g->stop_at && g->n == g->stop_at ? 7 : 0;
}

static char *write_tmp(const char *content, size_t len)
{
	static char path[64];
	FILE *f;

	strcpy(path, "/tmp/dlb-test-text-XXXXXX");
	assert_int_not_equal(mkstemp(path), -1);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
	return path;
}

/* Read @content as a trace; returns the quality record (copied). */
static struct dlb_trace_quality read_text(const char *content, struct got *g, int want_ret)
{
	struct dlb_trace_quality q;
	struct dlb_err err = { 0 };
	struct dlb_trace *t;
	char *path = write_tmp(content, strlen(content));
	int r;

	t = dlb_trace_open(path, &err);
	if (!t)
		fail_msg("open: %s", err.msg);
	r = dlb_trace_read(t, collect, g, &err);
	if (r != want_ret)
		fail_msg("read returned %d (%s), want %d", r, err.msg, want_ret);
	q = *dlb_trace_quality(t);
	for (r = 0; r < 4; r++)
		g->cpu_events[r] = dlb_trace_cpu_events(t, r);
	assert_int_equal(dlb_trace_cpu_events(t, -1), 0);
	assert_int_equal(dlb_trace_cpu_events(t, 100000), 0);
	dlb_trace_close(t);
	unlink(path);
	return q;
}

static const char ref_trace[] =
	"# reference simulator\n"
	"          <idle>-0       [000] d..2. 100.000000000: sched_switch: prev_comm=swapper/0 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=1 next_prio=-1\n"
	"               A-1       [000] d..2. 100.000001000: tracing_mark_write: dlb_job: tid=1 "
	"job=0 event=begin rel=100000000000 dl=100010000000\n"
	"          <idle>-0       [001] d..2. 100.000002000: sched_wakeup: comm=B pid=2 prio=-1 "
	"target_cpu=001\n"
	"               A-1       [000] d..2. 100.000003000: sched_migrate_task: comm=B pid=2 "
	"prio=-1 orig_cpu=0 dest_cpu=1\n"
	"               A-1       [000] d..2. 100.000004000: sched_stat_runtime: comm=B pid=2 "
	"runtime=1000 [ns]\n"
	"               A-1       [000] d..2. 100.000005000: dl_throttle: comm=B pid=2 "
	"runtime=-5000 deadline=123456789\n"
	"               A-1       [000] d..2. 100.000006000: dl_replenish: comm=B pid=2 "
	"runtime=10000000 deadline=223456789\n"
	"               A-1       [000] d..2. 100.000007123: sched_switch: prev_comm=A prev_pid=1 "
	"prev_prio=-1 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

static void test_reference_ns(void **state)
{
	struct got g = { 0 };
	struct dlb_trace_quality q;
	const struct dlb_event *e = g.ev;

	(void)state;
	q = read_text(ref_trace, &g, 0);
	assert_int_equal(q.format, DLB_FMT_KERNEL_TEXT);
	assert_int_equal(g.n, 8);
	assert_int_equal(q.events, 8);
	assert_int_equal(q.bad_lines, 0);

	assert_int_equal(e[0].type, DLB_EV_SWITCH);
	assert_int_equal(e[0].ts, 100000000000ULL);
	assert_int_equal(e[0].cpu, 0);
	assert_int_equal(e[0].pid, 0);
	assert_string_equal(e[0].sw.prev_comm, "swapper/0");
	assert_int_equal(e[0].sw.prev_state, 0);
	assert_string_equal(e[0].sw.next_comm, "A");
	assert_int_equal(e[0].sw.next_pid, 1);
	assert_int_equal(e[0].sw.next_prio, -1);

	assert_int_equal(e[1].type, DLB_EV_MARKER);
	assert_int_equal(e[1].pid, 1);
	assert_string_equal(e[1].mark.text,
			    "dlb_job: tid=1 job=0 event=begin rel=100000000000 dl=100010000000");

	assert_int_equal(e[2].type, DLB_EV_WAKEUP);
	assert_int_equal(e[2].cpu, 1);
	assert_string_equal(e[2].wake.comm, "B");
	assert_int_equal(e[2].wake.pid, 2);
	assert_int_equal(e[2].wake.prio, -1);
	assert_int_equal(e[2].wake.target_cpu, 1);

	assert_int_equal(e[3].type, DLB_EV_MIGRATE);
	assert_int_equal(e[3].mig.orig_cpu, 0);
	assert_int_equal(e[3].mig.dest_cpu, 1);

	assert_int_equal(e[4].type, DLB_EV_RUNTIME);
	assert_int_equal(e[4].rt.runtime, 1000);

	assert_int_equal(e[5].type, DLB_EV_THROTTLE);
	assert_int_equal(e[5].dl.pid, 2);
	assert_int_equal(e[5].dl.runtime, -5000);
	assert_int_equal(e[5].dl.deadline, 123456789);

	assert_int_equal(e[6].type, DLB_EV_REPLENISH);
	assert_int_equal(e[6].dl.runtime, 10000000);
	assert_int_equal(e[6].dl.deadline, 223456789);

	assert_int_equal(e[7].ts, 100000007123ULL);
	assert_int_equal(e[7].sw.prev_state, 1);	/* S */
	assert_int_equal(q.first_ts, 100000000000ULL);
	assert_int_equal(q.last_ts, 100000007123ULL);
	assert_int_equal(q.nr_cpus, 2);
	assert_int_equal(q.cpus_without_events, 0);
	assert_int_equal(q.ts_unit_ns, 1);
	assert_int_equal(g.cpu_events[0], 7);
	assert_int_equal(g.cpu_events[1], 1);
	assert_int_equal(g.cpu_events[2], 0);
}

/* The kernel's own µs text, with its header, and a tgid column. */
static void test_kernel_usec(void **state)
{
	static const char trace[] =
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 3/3   #P:4\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"  <idle>-0     [000] d..2. 25416.458208: sched_switch: prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=R+ ==> next_comm=dl task-x next_pid=23792 next_prio=-1\n"
		"  dl task-x-23792 (  23790) [000] ..... 25416.458300: tracing_mark_write: hello world\n"
		"  dl task-x-23792 [000] d..2. 25416.458400: sched_switch: prev_comm=dl task-x "
		"prev_pid=23792 prev_prio=-1 prev_state=D|K ==> next_comm=swapper/0 next_pid=0 "
		"next_prio=120\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.format, DLB_FMT_KERNEL_TEXT);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.ev[0].ts, 25416458208000ULL);
	assert_string_equal(g.ev[0].sw.next_comm, "dl task-x");
	assert_int_equal(g.ev[0].sw.prev_state, 0);		/* R+: preempted */
	assert_int_equal(g.ev[1].pid, 23792);
	assert_string_equal(g.text[1], "hello world");
	assert_int_equal(g.ev[2].sw.prev_state, 2);		/* D (K is no report bit) */
	assert_int_equal(q.nr_cpus, 4);				/* from #P:4 */
	assert_int_equal(q.ts_unit_ns, 1000);
	assert_int_equal(q.cpus_without_events, 3);
	assert_int_equal(q.lost_events, 0);
}

/*
 * The kernel's key order is read in one pass; anything else falls back to
 * the generic key=value split.  Both must agree, and neither may accept
 * what the other refuses: each line here is read by one path or the other
 * (an older layout with success=1, vruntime, keys out of order, a comm
 * holding "x=1"), and the garbage after a last value is refused by both.
 */
static void test_kernel_layouts_fast_and_generic(void **state)
{
	static const char trace[] =
		"# tracer: nop\n"
		/* 6.x order: the one-pass path */
		" a b-10 [000] d..2. 1.000001: sched_switch: prev_comm=a b prev_pid=10 prev_prio=-1 "
		"prev_state=S ==> next_comm=c x=1 next_pid=11 next_prio=4294967295\n"
		" c-11 [000] d..2. 1.000002: sched_wakeup: comm=a b pid=10 prio=-1 target_cpu=001\n"
		" c-11 [000] d..2. 1.000003: sched_stat_runtime: comm=c pid=11 runtime=1500 [ns]\n"
		" c-11 [000] d..2. 1.000004: sched_migrate_task: comm=a b pid=10 prio=-1 orig_cpu=1 "
		"dest_cpu=0\n"
		/* older layouts and other orders: the generic path */
		" c-11 [000] d..2. 1.000005: sched_wakeup: comm=a b pid=10 prio=-1 success=1 "
		"target_cpu=001\n"
		" c-11 [000] d..2. 1.000006: sched_stat_runtime: comm=c pid=11 runtime=1600 [ns] "
		"vruntime=99 [ns]\n"
		" c-11 [000] d..2. 1.000007: sched_migrate_task: pid=10 comm=a b prio=-1 orig_cpu=0 "
		"dest_cpu=1\n"
		" c-11 [000] d..2. 1.000008: sched_switch: prev_comm=c prev_pid=11 prev_prio=120 "
		"prev_state=R+ ==> next_comm=a b next_pid=10 next_prio=-1 extra=5\n"
		/* garbage after the last value: refused by both paths */
		" c-11 [000] d..2. 1.000009: sched_wakeup: comm=c pid=11 prio=120x target_cpu=001\n"
		" c-11 [000] d..2. 1.000010: sched_migrate_task: comm=c pid=11 prio=1 orig_cpu=0 "
		"dest_cpu=1x\n"
		" c-11 [000] d..2. 1.000011: sched_switch: prev_comm=c prev_pid=11 prev_prio=120 "
		"prev_state=Q ==> next_comm=a next_pid=10 next_prio=-1\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 8);
	assert_string_equal(g.ev[0].sw.prev_comm, "a b");
	assert_int_equal(g.ev[0].sw.prev_state, 1);
	assert_string_equal(g.ev[0].sw.next_comm, "c x=1");
	assert_int_equal(g.ev[0].sw.next_pid, 11);
	assert_int_equal(g.ev[0].sw.next_prio, -1);
	assert_string_equal(g.ev[1].wake.comm, "a b");
	assert_int_equal(g.ev[1].wake.target_cpu, 1);
	assert_int_equal(g.ev[2].rt.runtime, 1500);
	assert_int_equal(g.ev[3].mig.orig_cpu, 1);
	assert_int_equal(g.ev[3].mig.dest_cpu, 0);
	assert_string_equal(g.ev[3].mig.comm, "a b");
	assert_int_equal(g.ev[4].wake.pid, 10);
	assert_int_equal(g.ev[4].wake.target_cpu, 1);
	assert_int_equal(g.ev[5].rt.runtime, 1600);
	assert_string_equal(g.ev[6].mig.comm, "a b");
	assert_int_equal(g.ev[6].mig.dest_cpu, 1);
	assert_int_equal(g.ev[7].sw.prev_state, 0);
	assert_int_equal(g.ev[7].sw.next_pid, 10);
	assert_int_equal(q.bad_lines, 3);
	assert_int_equal(q.first_bad_line, 10);
}

/*
 * trace-cmd report of a file with an instance buffer: the instance's lines
 * carry "NAME:", the top buffer's (marker copies) none and are skipped.
 */
static void test_report_instance_prefix(void **state)
{
	static const char trace[] =
		"cpus=2\n"
		"inst-1:       rt-app-10 [001] 1.000000001: sched_wakeup:         a:11 [-1] CPU:001\n"
		"                 a-11 [001] 1.000000002: print:                0xffffffff814ab9d1: [0] starts\n"
		"inst-1:            a-11 [001] 1.000000003: print:                0xffffffff814ab9d1: [0] starts\n"
		"inst-1:            a-11 [001] 1.000000004: sched_switch:         a:11 [-1] S ==> swapper/1:0 [120]\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.ev[0].type, DLB_EV_WAKEUP);
	assert_int_equal(g.ev[1].ts, 1000000003ULL);
	assert_string_equal(g.text[1], "[0] starts");
	assert_int_equal(g.ev[2].type, DLB_EV_SWITCH);
	assert_int_equal(g.ev[2].pid, 11);
	assert_int_equal(q.bad_lines, 0);
}

/* A comm that starts the line with '[' ("[pango] FcInit", seen on this machine). */
static void test_comm_bracket_first(void **state)
{
	static const char trace[] =
		"# tracer: nop\n"
		"[pango] FcInit-1234 [001] d..2. 100.000001: sched_switch: prev_comm=[pango] FcInit "
		"prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
		"next_prio=120\n"
		"<idle>-0 [001] d..2. 100.000002: sched_wakeup: comm=[pango] FcInit pid=1234 "
		"prio=120 target_cpu=001\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.bad_lines, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].pid, 1234);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_string_equal(g.ev[0].sw.prev_comm, "[pango] FcInit");
	assert_string_equal(g.ev[1].wake.comm, "[pango] FcInit");
}

/* trace-cmd report's default short forms; DL prio printed as 4294967295. */
static void test_tracecmd_default(void **state)
{
	static const char trace[] =
		"cpus=2\n"
		"CPU 1 is empty\n"
		"          <idle>-0     [000]  2158.476020: sched_wakeup:         dl_a:8486 "
		"[4294967295] CPU:000\n"
		"          <idle>-0     [000]  2158.476030: sched_switch:         swapper/0:0 [120] R "
		"==> dl_a:8486 [-1]\n"
		"            dl_a-8486  [000]  2158.476040: print:                tracing_mark_write: "
		"[0] begins loop 1 phase 0 step 0\n"
		"            dl_a-8486  [000]  2158.476041: print:                0xffffffff814aa941: "
		"[0] end loop 1 phase 0 step 0\n"
		"            dl_a-8486  [000]  2158.476042: print:                 ip=0xffffffff814aa941 "
		"buf=rtapp_loop: event=end thread_loop=0 phase=0 phase_loop=0\n"
		"     rcu_preempt-15    [000]  2158.480088: sched_switch:         rcu_preempt:15 [120] W "
		"==> swapper/0:0 [120]\n"
		"            dl_a-8486  [000]  2158.480090: sched_switch:         dl_a:8486 [-1] Z|x ==> "
		"kworker/0:1:11 [120]\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.format, DLB_FMT_TRACECMD_REPORT);
	assert_int_equal(q.bad_lines, 0);
	assert_int_equal(g.n, 7);
	assert_int_equal(g.ev[0].type, DLB_EV_WAKEUP);
	assert_int_equal(g.ev[0].wake.prio, -1);
	assert_int_equal(g.ev[0].wake.pid, 8486);
	assert_int_equal(g.ev[0].wake.target_cpu, 0);
	assert_string_equal(g.ev[0].wake.comm, "dl_a");
	assert_int_equal(g.ev[1].sw.next_prio, -1);
	assert_int_equal(g.ev[1].sw.next_pid, 8486);
	assert_string_equal(g.text[2], "[0] begins loop 1 phase 0 step 0");
	assert_string_equal(g.text[3], "[0] end loop 1 phase 0 step 0");
	assert_string_equal(g.text[4], "rtapp_loop: event=end thread_loop=0 phase=0 phase_loop=0");
	assert_int_equal(g.ev[5].sw.prev_state, 128);	/* plugin's W is bit 7 */
	assert_int_equal(g.ev[6].sw.prev_state, 16 | 64);
	assert_string_equal(g.ev[6].sw.next_comm, "kworker/0:1");
	assert_int_equal(g.ev[6].sw.next_pid, 11);
	assert_int_equal(q.nr_cpus, 2);
	assert_int_equal(q.cpus_without_events, 1);
}

/* trace-cmd report -l: the CPU number leads the latency flags. */
static void test_tracecmd_latency(void **state)
{
	static const char trace[] =
		"cpus=2\n"
		"  rt-app-16394   1dN.4.  2724.858208: sched_wakeup:         migration/1:23 [0] "
		"CPU:001\n"
		"  my task-7      0d..2.  2724.858212123: sched_switch:         my task:7 [120] R ==> "
		"migration/1:23 [0]\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.bad_lines, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[0].pid, 16394);
	assert_int_equal(g.ev[0].wake.pid, 23);
	assert_int_equal(g.ev[1].cpu, 0);
	assert_int_equal(g.ev[1].pid, 7);
	assert_int_equal(g.ev[1].ts, 2724858212123ULL);
	assert_string_equal(g.ev[1].sw.prev_comm, "my task");
}

/*
 * Interrupts as the kernel and trace-cmd report print them (6.18, x86):
 * irq_handler_*, softirq_* with its action, irq_vectors' vector=; a
 * malformed one is a bad line, irq_vectors' others are not ours.
 */
static void test_irq_events(void **state)
{
	static const char trace[] =
		"          <idle>-0       [001] d.h1. 87744.376021: irq_handler_entry: irq=16 "
		"name=ahci[0000:00:1f.2]\n"
		"          <idle>-0       [001] d.h1. 87744.376025: irq_handler_exit: irq=16 "
		"ret=handled\n"
		"          <idle>-0       [001] ..s1. 87744.376026: softirq_entry: vec=1 "
		"[action=TIMER]\n"
		"          <idle>-0       [001] ..s1. 87744.376030: softirq_exit: vec=1 [action=TIMER]\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376023: local_timer_entry: vector=236\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376041: local_timer_exit: vector=236\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376042: reschedule_entry: vector=253\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376043: call_function_single_exit: "
		"vector=251\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376044: vector_update: irq=1 vector=33\n"
		"       dlb-rtapp-1649    [000] d.h.. 87744.376045: softirq_entry: action=TIMER\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.bad_lines, 1);
	assert_int_equal(g.n, 8);
	assert_int_equal(g.ev[0].type, DLB_EV_IRQ_ENTRY);
	assert_int_equal(g.ev[0].irq.nr, 16);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[1].type, DLB_EV_IRQ_EXIT);
	assert_int_equal(g.ev[2].type, DLB_EV_SOFTIRQ_ENTRY);
	assert_int_equal(g.ev[2].irq.nr, 1);
	assert_int_equal(g.ev[3].type, DLB_EV_SOFTIRQ_EXIT);
	assert_int_equal(g.ev[4].type, DLB_EV_IRQ_ENTRY);
	assert_int_equal(g.ev[4].irq.nr, 236);
	assert_int_equal(g.ev[4].pid, 1649);
	assert_int_equal(g.ev[5].type, DLB_EV_IRQ_EXIT);
	assert_int_equal(g.ev[6].type, DLB_EV_IRQ_ENTRY);
	assert_int_equal(g.ev[7].type, DLB_EV_IRQ_EXIT);
	assert_int_equal(g.ev[7].irq.nr, 251);
}

static const char two_events[] =
	"  a-1 [000] d..2. 1.000001: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
	"  a-1 [001] d..2. 1.000002: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n";

/* An older trace-cmd report, as other tools' tests quote it. */
static void test_tracecmd_old(void **state)
{
	static const char trace[] =
		"version = 6\n"
		"cpus=8\n"
		"CPU:7 [204600 EVENTS DROPPED]\n"
		"           <...>-3979  [007]   217.975284: sched_stat_runtime:   comm=Thread-103 "
		"pid=3979 runtime=5014167 [ns] vruntime=244334517704 [ns]\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(q.format, DLB_FMT_TRACECMD_REPORT);
	assert_int_equal(q.bad_lines, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, DLB_EV_LOST);
	assert_int_equal(g.ev[0].cpu, 7);
	assert_int_equal(g.ev[0].lost.count, 204600);
	assert_int_equal(g.ev[1].pid, 3979);
	assert_int_equal(g.ev[1].rt.runtime, 5014167);
	assert_string_equal(g.ev[1].rt.comm, "Thread-103");
	assert_int_equal(q.nr_cpus, 8);
	assert_int_equal(q.cpus_without_events, 7);
}

static void test_lost(void **state)
{
	char trace[1024];
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	snprintf(trace, sizeof(trace), "%sCPU:1 [LOST 42 EVENTS]\n%s"
		 "CPU:0 [17 EVENTS DROPPED]\nCPU:0 [EVENTS DROPPED]\nCPU:1 [LOST EVENTS]\n",
		 two_events, two_events);
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 8);
	assert_int_equal(g.ev[2].type, DLB_EV_LOST);
	assert_int_equal(g.ev[2].cpu, 1);
	assert_int_equal(g.ev[2].lost.count, 42);
	assert_int_equal(g.ev[2].ts, 1000002000ULL);	/* the last time seen */
	assert_int_equal(g.ev[5].lost.count, 17);
	assert_int_equal(g.ev[6].lost.count, 0);	/* unknown */
	assert_int_equal(g.ev[7].lost.count, 0);
	assert_int_equal(q.lost_records, 4);
	assert_int_equal(q.lost_events, 59);
	assert_int_equal(q.events, 8);
	assert_int_equal(q.backwards, 0);	/* equal times are not backwards */
}

static void test_overwritten_header(void **state)
{
	struct got g = { 0 };
	struct dlb_trace_quality q;
	char trace[512];

	(void)state;
	snprintf(trace, sizeof(trace),
		 "# tracer: nop\n# entries-in-buffer/entries-written: 2/20953   #P:2\n%s",
		 two_events);
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(q.lost_events, 20951);
	assert_int_equal(q.stats_lost, 20951);
	assert_int_equal(q.lost_records, 0);
}

static void test_truncated_last_line(void **state)
{
	char trace[512];
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	snprintf(trace, sizeof(trace), "%s  a-1 [001] d..2. 1.000003: sched_wakeup: comm=b pi",
		 two_events);
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 2);
	assert_true(q.truncated);
	assert_int_equal(q.bad_lines, 0);
	/* a complete last line without its newline is still a cut file */
	g.n = 0;
	trace[strlen(two_events) - 1] = '\0';
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 1);
	assert_true(q.truncated);
}

static void test_garbage(void **state)
{
	char trace[1024];
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	snprintf(trace, sizeof(trace), "%s\nthis is not a trace line\n"
		 "  a-1 [000] d..2. 1.000003: sched_switch: prev_comm=a prev_pid=x\n"
		 "  a-1 [000] d..2. 1.x: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		 "  a-1 [000] d..2. 1.000004: some_other_event: x=1\n"
		 "  a-1 [000] d..2. 1.000005: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n",
		 two_events);
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(q.bad_lines, 3);
	assert_int_equal(q.first_bad_line, 4);		/* line 3 is empty: skipped */
	assert_int_equal(q.unknown_events, 1);
	assert_false(q.truncated);
}

static void test_header_only_and_no_switch(void **state)
{
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text("# tracer: nop\n#\n", &g, 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(q.events, 0);
	assert_int_equal(q.nr_cpus, 0);
	assert_int_equal(q.cpus_without_events, 0);

	q = read_text("cpus=2\n", &g, 0);
	assert_int_equal(q.events, 0);
	assert_int_equal(q.nr_cpus, 2);
	assert_int_equal(q.cpus_without_events, 2);

	q = read_text(two_events, &g, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, DLB_EV_WAKEUP);
	assert_int_equal(g.ev[1].type, DLB_EV_WAKEUP);
	assert_int_equal(q.format, DLB_FMT_KERNEL_TEXT);
}

static void test_backwards(void **state)
{
	static const char trace[] =
		"  a-1 [000] d..2. 2.000000: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"  a-1 [001] d..2. 1.500000: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"  a-1 [000] d..2. 1.999999: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"  a-1 [000] d..2. 2.000001: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(q.backwards, 1);	/* CPU 0 only; across CPUs is no error */
	assert_int_equal(q.first_ts, 1500000000ULL);
	assert_int_equal(q.last_ts, 2000001000ULL);
}

/* A LOST line takes the last time seen on any CPU; it must not make its own
 * CPU's next event look backwards. */
static void test_lost_no_false_backwards(void **state)
{
	static const char trace[] =
		"  a-1 [001] d..2. 1.000005: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"  a-1 [000] d..2. 1.000010: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"CPU:1 [LOST 3 EVENTS]\n"
		"  a-1 [001] d..2. 1.000008: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n"
		"  a-1 [001] d..2. 1.000007: sched_wakeup: comm=b pid=2 prio=120 target_cpu=001\n";
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(trace, &g, 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.ev[2].type, DLB_EV_LOST);
	assert_int_equal(g.ev[2].ts, 1000010000ULL);
	assert_int_equal(q.backwards, 1);	/* only the real one: 1.000007 after 1.000008 */
	assert_int_equal(g.cpu_events[1], 3);
}

static void test_callback_stops(void **state)
{
	struct got g = { .stop_at = 1 };
	struct dlb_trace_quality q;

	(void)state;
	q = read_text(two_events, &g, 7);
	assert_int_equal(g.n, 1);
	assert_int_equal(q.events, 1);
}

static void test_read_twice(void **state)
{
	struct dlb_err err = { 0 };
	struct dlb_trace *t;
	struct got g = { 0 };
	char *path = write_tmp(two_events, strlen(two_events));

	(void)state;
	t = dlb_trace_open(path, &err);
	assert_non_null(t);
	assert_int_equal(dlb_trace_read(t, collect, &g, &err), 0);
	assert_int_equal(dlb_trace_read(t, collect, &g, &err), -1);
	assert_int_equal(err.code, DLB_EXIT_INTERNAL);
	dlb_trace_close(t);
	unlink(path);
}

/* Lines longer than the read buffer (256 KB) are garbage, and the rest is read. */
static void test_long_line(void **state)
{
	size_t n = (1 << 20) + 100, len = strlen(two_events);
	char *big = malloc(n + 2 * len + 2);
	struct got g = { 0 };
	struct dlb_trace_quality q;

	(void)state;
	assert_non_null(big);
	memcpy(big, two_events, len);
	memset(big + len, 'x', n);
	big[len + n] = '\n';
	memcpy(big + len + n + 1, two_events, len + 1);
	q = read_text(big, &g, 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(q.bad_lines, 1);
	assert_int_equal(q.first_bad_line, 3);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_ns),
		cmocka_unit_test(test_kernel_usec),
		cmocka_unit_test(test_comm_bracket_first),
		cmocka_unit_test(test_tracecmd_default),
		cmocka_unit_test(test_tracecmd_latency),
		cmocka_unit_test(test_irq_events),
		cmocka_unit_test(test_tracecmd_old),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_overwritten_header),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_header_only_and_no_switch),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_lost_no_false_backwards),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_read_twice),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_kernel_layouts_fast_and_generic),
		cmocka_unit_test(test_report_instance_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
