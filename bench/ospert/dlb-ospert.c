// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-ospert: the cost of the global push structures on the reference
 * scheduler, as Lelli et al. measured it in the kernel (OSPERT 2011, "An
 * efficient and scalable implementation of global EDF in Linux").
 *
 * Each task set runs twice on the simulator with the same options:
 *   heap:   cpudl (patch 007); every cpudl_set and cpudl_find is timed by
 *           the reference itself (opstat.c); every call's arguments also
 *           drive a cpupri (sched_rt's structure) here, timed the same way,
 *           the deadlines mapped to RT priorities (see dl_to_prio);
 *   linear: latest_cpu_find (patch 004), its find timed by the reference.
 * The two schedules are expected to be the same (cpudl breaks ties as the
 * scan does) but need not be: called without a later_mask, as
 * check_preempt_equal_dl() calls it, cpudl_find skips the free CPUs (as the
 * seed does) and the scan does not, so that function may make its second
 * find call in one run and not in the other.  Jobs, misses and migrations of
 * the two runs are compared and reported (--runs), with the find calls of each.
 *
 * Costs are pooled per group (-g LABEL before the group's files) and over
 * all files in the log-linear histogram of opstat.h (quantiles within
 * 1/128).  Output (-o FILE, default stdout), one CSV row per group,
 * structure and operation:
 *   cpus,group,struct,op,unit,calls,min,p25,p50,p75,max,mean,p99
 * with struct timer / op empty: two counter reads back to back, the
 * floor included in every other row; struct timer / op step: the
 * counter's step measured at run time (dlb_opstat_step(): every quantile
 * is the step, calls the read pairs it came from), which quantises every
 * other row.  --runs FILE: one row per file.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/workload.h"

#include "../../reference/cpupri.h"
#include "../../reference/sim.h"

#define MAX_RT_PRIO		100
#define MAX_GROUPS		16

static const char *prog = "dlb-ospert";
static volatile sig_atomic_t interrupted;

enum { S_HEAP, S_LINEAR, S_CPUPRI, S_TIMER, S_NR };
static const char *const struct_names[S_NR] = { "cpudl", "linear", "cpupri", "timer" };

/* One group's pooled costs: per structure, opstat's counters (set, find). */
struct group {
	const char *label;
	struct dlb_opstat st[S_NR];
};

struct opts {
	int cpus;
	u64 duration_ns;		/* 0: the workload's */
	u64 horizon_ns;			/* deadline -> priority range */
	bool linear;
	bool check;
};

/* cpupri driven by the heap run's calls, costs into two groups. */
struct pri_drive {
	struct cpupri cp;
	struct dlb_cpumask lowest;
	u64 horizon_ns;
	struct dlb_opstat *into[2];
};

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s -m CPUS [options] [-g LABEL] SET.json... [-g LABEL SET.json...]...\n"
"Cost per call of set and find in the global push structures (cpudl heap,\n"
"linear scan, cpupri) while the reference scheduler runs each task set.\n"
"\n"
"  -m, --cpus=N          simulated CPUs, 1..1024\n"
"  -d, --duration=DUR    simulated time per set (default: the set's duration)\n"
"  -g, --group=LABEL     the files that follow are pooled under LABEL\n"
"                        (default group \"-\"); every file is also in \"all\"\n"
"      --horizon=DUR     deadlines map to RT priorities 0..98 over DUR ahead\n"
"                        (default 100ms: the longest period of the paper's sets)\n"
"      --no-linear       skip the linear-scan run (half the time)\n"
"  -c, --check           check the scheduler's invariants after every step\n"
"  -o, --output=FILE     cost rows (CSV) to FILE instead of stdout\n"
"      --runs=FILE       one row per set: jobs, misses, migrations, wall time\n"
"  -h, --help            this help\n"
"\n"
"Unit: %s (dlb_opstat_unit).  Exit codes: 0 ok, 2 bad input, 3 output\n"
"unwritable, 4 interrupted, 5 an invariant failed (--check).\n",
		prog, dlb_opstat_unit());
}

/*
 * The paper compared the DL class's cpudl with the RT class's cpupri: a
 * CPU's earliest deadline becomes a fixed priority, the nearer the
 * deadline the higher (kernel prio 0 highest): deadline-monotonic over
 * the next @horizon, 99 levels.  A CPU without -deadline tasks runs
 * SCHED_NORMAL or idles: MAX_RT_PRIO, cpupri's NORMAL level.
 */
static int dl_to_prio(bool valid, u64 dl, u64 now, u64 horizon)
{
	u64 rel;

	if (!valid)
		return MAX_RT_PRIO;
	rel = dl_time_before(now, dl) ? dl - now : 0;
	if (rel >= horizon)
		return MAX_RT_PRIO - 2;
	return (int)(rel * (MAX_RT_PRIO - 1) / horizon);
}

static void pri_observe(const struct dlb_push_call *c, void *arg)
{
	struct pri_drive *d = arg;
	int prio = dl_to_prio(c->op != DLB_OP_SET || c->valid, c->dl, c->now, d->horizon_ns);
	bool done = true;
	u64 t0, cost;

	if (c->op == DLB_OP_SET) {
		t0 = dlb_opstat_now();
		cpupri_set(&d->cp, c->cpu, prio);
		cost = dlb_opstat_now() - t0;
	} else {
		t0 = dlb_opstat_now();
		done = cpupri_find(&d->cp, prio, c->allowed, &d->lowest) != 0;
		cost = dlb_opstat_now() - t0;
	}
	dlb_opstat_add(d->into[0], c->op, cost, done);
	dlb_opstat_add(d->into[1], c->op, cost, done);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct totals {
	u64 threads, jobs, missed, migrations, finds;
};

static void sum_stats(const struct dlb_sim *sim, struct totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->threads = dlb_sim_nr_threads(sim);
	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, i, &st);
		t->jobs += st.jobs;
		t->missed += st.jobs_missed;
		t->migrations += st.nr_migrations;
	}
}

/* One simulation; costs of @ops pooled into @into[0..1] under structure @s. */
static int run_one(const struct workload *wl, const struct opts *o, enum dlb_sim_cpu_select sel,
		   struct group *g[2], struct totals *tot, double *secs, struct dlb_err *err)
{
	struct dlb_sim_opts so;
	struct pri_drive drive;
	struct dlb_sim *sim;
	int k, rc = 0;
	double t0;

	dlb_sim_opts_init(&so);
	so.nr_cpus = o->cpus;
	so.cpu_select = sel;
	so.duration_ns = o->duration_ns;
	so.check = o->check;
	so.interrupt = &interrupted;
	sim = dlb_sim_create(wl, &so, err);
	if (!sim)
		return -1;
	if (sel == DLB_SIM_HEAP) {
		memset(&drive, 0, sizeof(drive));
		if (cpupri_init(&drive.cp, o->cpus) < 0) {
			dlb_sim_free(sim);
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		}
		drive.horizon_ns = o->horizon_ns;
		drive.into[0] = &g[0]->st[S_CPUPRI];
		drive.into[1] = &g[1]->st[S_CPUPRI];
		dlb_sim_set_push_hook(sim, pri_observe, &drive);
	}
	t0 = wall();
	if (dlb_sim_run(sim, err) < 0)
		rc = -1;
	*secs = wall() - t0;
	if (!rc) {
		enum dlb_op ops[] = { DLB_OP_SET, DLB_OP_FIND };
		int s = sel == DLB_SIM_HEAP ? S_HEAP : S_LINEAR;

		for (k = 0; k < 2; k++) {
			int i;

			for (i = 0; i < 2; i++)
				if (s == S_HEAP || ops[k] == DLB_OP_FIND)
					dlb_opcount_merge(&g[i]->st[s].op[ops[k]],
							  dlb_sim_opcount(sim, ops[k]));
		}
		sum_stats(sim, tot);
		tot->finds = dlb_sim_opcount(sim, DLB_OP_FIND)->calls;
	}
	if (sel == DLB_SIM_HEAP)
		cpupri_cleanup(&drive.cp);
	dlb_sim_free(sim);
	return rc;
}

/* Two counter reads back to back: the floor under every measured cost. */
static void time_empty(struct dlb_opstat *st)
{
	int i;

	for (i = 0; i < 100000; i++) {
		u64 t0 = dlb_opstat_now(), cost = dlb_opstat_now() - t0;

		dlb_opstat_add(st, DLB_OP_FIND, cost, true);
	}
}

static void write_row(FILE *f, int cpus, const char *label, int s, const char *op,
		      const struct dlb_opcount *c)
{
	if (!c->calls)
		return;
	fprintf(f, "%d,%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%llu\n", cpus, label,
		struct_names[s], op, dlb_opstat_unit(), (unsigned long long)c->calls,
		(unsigned long long)c->cost_min,
		(unsigned long long)dlb_opcount_quantile(c, 0.25),
		(unsigned long long)dlb_opcount_quantile(c, 0.5),
		(unsigned long long)dlb_opcount_quantile(c, 0.75),
		(unsigned long long)c->cost_max, (double)c->cost_sum / (double)c->calls,
		(unsigned long long)dlb_opcount_quantile(c, 0.99));
}

#define STEP_SAMPLES	100000

static void write_costs(FILE *f, int cpus, struct group *groups, int ngroups, u64 step)
{
	unsigned long long v = step;
	int i, s;

	fprintf(f, "cpus,group,struct,op,unit,calls,min,p25,p50,p75,max,mean,p99\n");
	for (i = 0; i < ngroups; i++) {
		for (s = 0; s < S_NR; s++) {
			const char *op = s == S_TIMER ? "empty" : "set";

			if (s != S_TIMER)
				write_row(f, cpus, groups[i].label, s, op, &groups[i].st[s].op[DLB_OP_SET]);
			write_row(f, cpus, groups[i].label, s, s == S_TIMER ? op : "find",
				  &groups[i].st[s].op[DLB_OP_FIND]);
		}
		fprintf(f, "%d,%s,timer,step,%s,%d,%llu,%llu,%llu,%llu,%llu,%.1f,%llu\n", cpus,
			groups[i].label, dlb_opstat_unit(), STEP_SAMPLES, v, v, v, v, v, (double)v, v);
	}
}

/* Both runs of one file; 0, or an exit code. */
static int run_file(const char *path, const struct opts *o, struct group *g[2], FILE *runs)
{
	struct totals th, tl = { 0 };
	struct workload *wl = NULL;
	double sh, sl = 0;
	struct dlb_err err;
	bool same = true;

	if (wl_load_file(path, NULL, &wl, &err) < 0)
		return dlb_cli_fail(prog, err.code ? err.code : DLB_EXIT_BAD_INPUT, "%s", err.msg);
	if (run_one(wl, o, DLB_SIM_HEAP, g, &th, &sh, &err) < 0 ||
	    (o->linear && run_one(wl, o, DLB_SIM_LINEAR, g, &tl, &sl, &err) < 0)) {
		wl_free(wl);
		return dlb_cli_fail(prog, err.code ? err.code : DLB_EXIT_INTERNAL, "%s: %s", path,
				    err.msg);
	}
	wl_free(wl);
	if (o->linear)
		same = th.jobs == tl.jobs && th.missed == tl.missed && th.migrations == tl.migrations;
	if (runs)
		fprintf(runs, "%d,%s,%s,%llu,%llu,%llu,%llu,%s,%.3f,%.3f,%llu,%llu\n", o->cpus,
			g[0]->label, path, (unsigned long long)th.threads, (unsigned long long)th.jobs,
			(unsigned long long)th.missed, (unsigned long long)th.migrations,
			o->linear ? (same ? "yes" : "no") : "-", sh, sl, (unsigned long long)th.finds,
			(unsigned long long)tl.finds);
	if (!same)
		fprintf(stderr, "%s: note: %s: heap and linear schedules differ (jobs %llu/%llu, "
			"missed %llu/%llu, migrations %llu/%llu)\n", prog, path,
			(unsigned long long)th.jobs, (unsigned long long)tl.jobs,
			(unsigned long long)th.missed, (unsigned long long)tl.missed,
			(unsigned long long)th.migrations, (unsigned long long)tl.migrations);
	return 0;
}

enum { OPT_HORIZON = 256, OPT_NOLINEAR, OPT_RUNS };

static int main_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'd' },
		{ "group", required_argument, NULL, 'g' },
		{ "horizon", required_argument, NULL, OPT_HORIZON },
		{ "no-linear", no_argument, NULL, OPT_NOLINEAR },
		{ "check", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .horizon_ns = 100 * NSEC_PER_MSEC, .linear = true };
	static struct group groups[MAX_GROUPS + 1];	/* 12 MB: BSS, nothing to free on early returns */
	const char *out = NULL, *runs_path = NULL;
	int c, ngroups = 1, cur = -1, nfiles = 0, rc = DLB_EXIT_OK;
	FILE *f = stdout, *runs = NULL;
	long long v;

	groups[0].label = "all";
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* first pass: options (files and -g are taken in order in the second) */
	while ((c = getopt_long(argc, argv, "-m:d:g:co:h", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			nfiles++;
			break;
		case 'g':
			break;
		case 'm':
			if (dlb_parse_ll(optarg, 1, 1024, &v) < 0)
				return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT,
						    "--cpus: '%s' is not a number in 1..1024", optarg);
			o.cpus = (int)v;
			break;
		case 'd':
			if (dlb_parse_duration(optarg, NSEC_PER_SEC, &o.duration_ns) < 0)
				return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT,
						    "--duration: '%s' is not a duration", optarg);
			break;
		case OPT_HORIZON:
			if (dlb_parse_duration(optarg, 1, &o.horizon_ns) < 0 || !o.horizon_ns)
				return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT,
						    "--horizon: '%s' is not a positive duration", optarg);
			break;
		case OPT_NOLINEAR:
			o.linear = false;
			break;
		case 'c':
			o.check = true;
			break;
		case 'o':
			out = optarg;
			break;
		case OPT_RUNS:
			runs_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return DLB_EXIT_OK;
		default:
			usage(stderr);
			return DLB_EXIT_BAD_INPUT;
		}
	}
	if (!o.cpus)
		return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "--cpus is required (try --help)");
	if (!nfiles)
		return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "no task set given (try --help)");
	if (out && !(f = fopen(out, "w")))
		return dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: %s", out, dlb_strerror(errno));
	if (runs_path && !(runs = fopen(runs_path, "w")))
		return dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: %s", runs_path, dlb_strerror(errno));
	if (runs)
		fprintf(runs, "cpus,group,file,threads,jobs,missed,migrations,heap_linear_same,"
			"wall_heap_s,wall_linear_s,finds_heap,finds_linear\n");
	optind = 0;
	while (rc == DLB_EXIT_OK && (c = getopt_long(argc, argv, "-m:d:g:co:h", longopts, NULL)) != -1) {
		struct group *g[2];

		if (c == 'g') {
			if (ngroups > MAX_GROUPS) {
				rc = dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "more than %d groups",
						  MAX_GROUPS);
				break;
			}
			cur = ngroups++;
			groups[cur].label = optarg;
			continue;
		}
		if (c != 1)
			continue;
		if (cur < 0) {
			cur = ngroups++;
			groups[cur].label = "-";
		}
		g[0] = &groups[cur];
		g[1] = &groups[0];
		rc = run_file(optarg, &o, g, runs);
		if (interrupted && rc == DLB_EXIT_OK)
			rc = DLB_EXIT_INCOMPLETE;
	}
	if (rc == DLB_EXIT_OK) {
		struct dlb_opstat *t = calloc(1, sizeof(*t));
		int i;

		if (t) {
			time_empty(t);
			for (i = 0; i < ngroups; i++)
				dlb_opcount_merge(&groups[i].st[S_TIMER].op[DLB_OP_FIND],
						  &t->op[DLB_OP_FIND]);
			free(t);
		}
		write_costs(f, o.cpus, groups, ngroups, dlb_opstat_step(STEP_SAMPLES));
	}
	if (f != stdout && fclose(f) && rc == DLB_EXIT_OK)
		rc = dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: %s", out, dlb_strerror(errno));
	if (runs && fclose(runs) && rc == DLB_EXIT_OK)
		rc = dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: %s", runs_path, dlb_strerror(errno));
	return rc;
}

int main(int argc, char **argv)
{
	return dlb_cli_exit(prog, main_run(argc, argv));
}
