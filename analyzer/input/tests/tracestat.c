// SPDX-License-Identifier: GPL-2.0
/*
 * tracestat: read a trace with dlb_trace_read() and print what came out,
 * for the tests and the bench.  Not installed.
 *
 *   tracestat [-d [-s]] [-u] [-n] FILE
 *     -d, --dump      one canonical line per event (formats compare equal)
 *     -s, --stats     with -d, the counts and quality record after the dump
 *                     (one open for both: tests/parallel.sh under ASan)
 *     -u, --usec      timestamps rounded to µs in the dump (text traces)
 *     -n, --no-op     deliver to a no-op consumer, print only the event count
 *     -m, --memory    also print the anonymous memory in use after the read
 *                     (RssAnon, KB: file pages mapped by libtracecmd are not ours)
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/event.h"
#include "../trace_input.h"

struct stat_ctx {
	u64 by_type[DLB_EV_LOST + 1];
	bool dump, usec, stats;
};

static int noop(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	(void)arg;
	return 0;
}

static void dump(const struct dlb_event *ev, bool usec)
{
	u64 ts = usec ? (ev->ts + 500) / 1000 : ev->ts;	/* as the kernel prints it */

	printf("%" PRIu64 " %d %d %s", ts, ev->cpu, ev->pid, dlb_ev_type_str(ev->type));
	switch (ev->type) {
	case DLB_EV_SWITCH:
		printf(" %s:%d:%d:%ld ==> %s:%d:%d\n", ev->sw.prev_comm, ev->sw.prev_pid,
		       ev->sw.prev_prio, ev->sw.prev_state, ev->sw.next_comm, ev->sw.next_pid,
		       ev->sw.next_prio);
		break;
	case DLB_EV_WAKEUP:
	case DLB_EV_WAKEUP_NEW:
	case DLB_EV_WAKING:
		printf(" %s:%d:%d cpu=%d\n", ev->wake.comm, ev->wake.pid, ev->wake.prio,
		       ev->wake.target_cpu);
		break;
	case DLB_EV_MIGRATE:
		printf(" %s:%d:%d %d->%d\n", ev->mig.comm, ev->mig.pid, ev->mig.prio,
		       ev->mig.orig_cpu, ev->mig.dest_cpu);
		break;
	case DLB_EV_RUNTIME:
		printf(" %s:%d %" PRIu64 "\n", ev->rt.comm, ev->rt.pid, ev->rt.runtime);
		break;
	case DLB_EV_EXIT:
		printf(" %s:%d\n", ev->exit.comm, ev->exit.pid);
		break;
	case DLB_EV_THROTTLE:
	case DLB_EV_REPLENISH:
		printf(" %d %" PRId64 " %" PRIu64 "\n", ev->dl.pid, ev->dl.runtime,
		       ev->dl.deadline);
		break;
	case DLB_EV_MARKER:
		printf(" '%.*s'\n", (int)ev->mark.len, ev->mark.text);
		break;
	case DLB_EV_IRQ_ENTRY:
	case DLB_EV_IRQ_EXIT:
	case DLB_EV_SOFTIRQ_ENTRY:
	case DLB_EV_SOFTIRQ_EXIT:
		printf(" %d\n", ev->irq.nr);
		break;
	case DLB_EV_LOST:
		printf(" %" PRIu64 "\n", ev->lost.count);
		break;
	}
}

static int count(const struct dlb_event *ev, void *arg)
{
	struct stat_ctx *c = arg;

	c->by_type[ev->type]++;
	if (c->dump)
		dump(ev, c->usec);
	return 0;
}

static void print_stats(const struct stat_ctx *c, const struct dlb_trace_quality *q)
{
	int i;

	printf("format %s\nclock %s\nts_unit_ns %" PRIu64 "\nevents %" PRIu64 "\n",
	       dlb_trace_format_str(q->format), q->clock[0] ? q->clock : "-", q->ts_unit_ns,
	       q->events);
	for (i = DLB_EV_SWITCH; i <= DLB_EV_LOST; i++)
		printf("%s %" PRIu64 "\n", dlb_ev_type_str((enum dlb_ev_type)i), c->by_type[i]);
	printf("lost_events %" PRIu64 "\nlost_records %" PRIu64 "\nstats_lost %" PRIu64 "\n"
	       "backwards %" PRIu64 "\nbad_lines %" PRIu64 "\nfirst_bad_line %" PRIu64 "\n"
	       "unknown_events %" PRIu64 "\ntruncated %d\nnr_cpus %d\n"
	       "cpus_without_events %d\nfirst_ts %" PRIu64 "\nlast_ts %" PRIu64 "\n",
	       q->lost_events, q->lost_records, q->stats_lost, q->backwards, q->bad_lines,
	       q->first_bad_line, q->unknown_events, q->truncated, q->nr_cpus,
	       q->cpus_without_events, q->first_ts, q->last_ts);
	if (q->uncompressed_copy)
		printf("uncompressed_copy 1\n");
}

static void print_rss_anon(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "RssAnon:", 8))
			printf("rss_anon_kb %ld\n", strtol(line + 8, NULL, 10));
	if (f)
		fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: tracestat [-d [-s]] [-u] [-n] [-m] [-j N] FILE\n"
		   "  -d, --dump     one canonical line per event\n"
		   "  -s, --stats    with -d, the counts and quality record after the dump\n"
		   "  -u, --usec     timestamps in the dump rounded to microseconds\n"
		   "  -n, --no-op    no-op consumer; print the event count only\n"
		   "  -m, --memory   print the anonymous memory in use after the read\n"
		   "  -j, --jobs N   decoding threads for a trace.dat (default: the reader's)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "stats", no_argument, NULL, 's' },
		{ "usec", no_argument, NULL, 'u' },
		{ "no-op", no_argument, NULL, 'n' },
		{ "memory", no_argument, NULL, 'm' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_ctx c = { { 0 }, false, false, false };
	struct dlb_trace *t;
	struct dlb_err err = { 0 };
	bool nop = false, mem = false;
	int jobs = 0;
	long long v;
	int o, r;

	while ((o = getopt_long(argc, argv, "dsunmj:h", opts, NULL)) != -1) {
		switch (o) {
		case 'd': c.dump = true; break;
		case 's': c.stats = true; break;
		case 'u': c.usec = true; break;
		case 'n': nop = true; break;
		case 'm': mem = true; break;
		case 'j':
			if (dlb_parse_ll(optarg, 1, 1024, &v)) {
				fprintf(stderr, "tracestat: --jobs: '%s' is not a number in 1..1024\n",
					optarg);
				return DLB_EXIT_BAD_INPUT;
			}
			jobs = (int)v;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return DLB_EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return DLB_EXIT_BAD_INPUT;
	}
	t = dlb_trace_open(argv[optind], &err);
	if (!t) {
		fprintf(stderr, "tracestat: %s\n", err.msg);
		return err.code;
	}
	dlb_trace_set_jobs(t, jobs);
	r = dlb_trace_read(t, nop ? noop : count, &c, &err);
	if (r < 0) {
		fprintf(stderr, "tracestat: %s\n", err.msg);
		dlb_trace_close(t);
		return err.code;
	}
	if (nop)
		printf("events %" PRIu64 "\n", dlb_trace_quality(t)->events);
	else if (!c.dump || c.stats)
		print_stats(&c, dlb_trace_quality(t));
	if (mem)
		print_rss_anon();
	dlb_trace_close(t);
	return 0;
}
