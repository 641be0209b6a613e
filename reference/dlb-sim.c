// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-sim: run a workload on the reference SCHED_DEADLINE scheduler.
 *
 * Writes into -o DIR:
 *   trace.txt          every event, one kernel-format ftrace line each
 *                      (include/dlbench/event_text.h), markers included;
 *                      or with -f dat, trace.dat (include/dlbench/tracedat.h)
 *   sched/<tid>.sched  per thread, /proc/PID/sched style, with the seed's
 *                      dl.stats.* lines (patch 005)
 *   jobs.csv           one line per finished job
 *   ops.csv            push/pull/find/set/select: calls and cost per call
 * Without -o it prints a per-thread summary only.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dlbench/cli.h"
#include "dlbench/error.h"
#include "dlbench/event_text.h"
#include "dlbench/exitcode.h"
#include "dlbench/jobstrace.h"
#include "dlbench/tracedat.h"
#include "dlbench/workload.h"

#include "sim.h"

static const char *prog = "dlb-sim";
static struct dlb_cli_progress progress;

static void on_progress(u64 now, u64 end, void *arg)
{
	(void)arg;
	dlb_cli_progress(&progress, prog, now, end, false);
}
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s [options] WORKLOAD.json\n"
"       %s --replay [options] JOBS-TRACE\n"
"Run an rt-app workload on the reference SCHED_DEADLINE scheduler (simulated);\n"
"or replay a run's jobs trace (dlb-analyze writes jobs-trace.txt): its tasks,\n"
"releases and per-job demands forced (docs/conformance.md).\n"
"\n"
"  -r, --replay              the argument is a jobs trace: CPUs, tick from it\n"
"                            (unless -m, -t), its kernel's model (unless --model),\n"
"                            admission off (unless -a: the run was admitted)\n"
"      --asked               replay: run each job's asked work, not its consumed\n"
"  -m, --cpus=N              simulated CPUs, 1..1024 (default 1)\n"
"  -s, --cpu-select=SEL      heap (cpudl, patch 007; default) or linear\n"
"                            (latest_cpu_find, patch 004)\n"
"      --model=MODEL         the rules: v4 (the seeds; default), mainline (6.18)\n"
"                            or mainline:MAJ.MIN (3.14..6.18; docs/reference.md)\n"
"  -a, --admission=MODE      kernel: 950000/1000000 us less 5%% per CPU for the\n"
"                            fair server (default; none for mainline < 6.12);\n"
"                            noreserve: without it;\n"
"                            off: admit anything; R/P[:PCT]: sched_rt_runtime_us\n"
"                            R, sched_rt_period_us P, PCT %% reserved per CPU\n"
"  -d, --duration=DUR        simulated time (default: the workload's duration;\n"
"                            if none, until every thread ends, at most 1h)\n"
"  -t, --tick=DUR            budget accounting at ticks of DUR (e.g. 4ms);\n"
"                            default 0: exact, at the budget's end (hrtick)\n"
"      --ctx-switch=DUR      overhead charged to a task switched in (default 0)\n"
"      --migration=DUR       overhead charged to a migrated task (default 0)\n"
"  -o, --output=DIR          write trace.txt, sched/, jobs.csv, ops.csv there\n"
"  -f, --format=FMT          the trace: text (trace.txt; default) or dat\n"
"                            (trace.dat, trace-cmd's file: KernelShark opens it)\n"
"  -c, --check               check every invariant after every step\n"
"      --no-timing           do not time push/pull/find/set (costs written as 0:\n"
"                            the output is then byte-identical run to run)\n"
"      --runtime-events      also write sched_stat_runtime events\n"
"  -h, --help                this help\n"
"\n"
"DUR takes a unit: ns, us, ms, s (a bare number is seconds for --duration,\n"
"ns otherwise).  Exit codes: 0 ok, 2 bad input (also: a parameter the kernel\n"
"would refuse, EINVAL), 3 environment: a bandwidth admission control refuses\n"
"(EBUSY, as dlb-rtapp on a kernel) or the output unwritable, 4 stopped early,\n"
"5 an invariant failed.\n", prog, prog);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try --help)\n");
	return DLB_EXIT_BAD_INPUT;
}

/* "R/P[:PCT]": whole numbers through dlb_parse_ll, PCT through dlb_parse_double. */
static int parse_admission(const char *s, struct dlb_sim_opts *o)
{
	char buf[64], *slash, *colon;
	long long r, p;
	double pct = 0;

	if (!strcmp(s, "kernel"))
		return 0;
	if (!strcmp(s, "noreserve")) {
		o->reserved_bw = 0;
		return 0;
	}
	if (!strcmp(s, "off")) {
		o->admission = false;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	colon = strchr(slash + 1, ':');
	if (colon) {
		*colon = '\0';
		if (dlb_parse_double(colon + 1, 0, 100, &pct) < 0)
			return -1;
	}
	if (dlb_parse_ll(buf, 0, LLONG_MAX, &r) < 0 || dlb_parse_ll(slash + 1, 1, LLONG_MAX, &p) < 0 ||
	    r > p)
		return -1;
	o->rt_runtime_us = (u64)r;
	o->rt_period_us = (u64)p;
	o->reserved_bw = (u64)(pct / 100.0 * (double)BW_UNIT + 0.5);
	return 0;
}

struct out {
	struct dlb_sim *sim;
	FILE *trace, *jobs;
	struct dlb_tracedat *dat;	/* -f dat: instead of trace */
	int err;
	struct dlb_err dat_err;		/* the trace.dat writer's, when dat_failed */
	bool dat_failed;
};

static int on_event_dat(const struct dlb_event *ev, void *arg)
{
	struct out *o = arg;

	if (!dlb_tracedat_event(o->dat, ev, dlb_sim_comm(o->sim, ev->pid), &o->dat_err))
		return 0;
	o->dat_failed = true;
	return o->dat_err.code;
}

static int on_event(const struct dlb_event *ev, void *arg)
{
	struct out *o = arg;
	char line[DLB_EVENT_TEXT_MAX];
	int n = dlb_event_format(line, sizeof(line), ev, dlb_sim_comm(o->sim, ev->pid));

	if (n < 0)
		return 0;
	line[n++] = '\n';
	if (fwrite(line, 1, (size_t)n, o->trace) != (size_t)n) {
		o->err = errno;
		return DLB_EXIT_ENV;
	}
	return 0;
}

static int on_job(const struct dlb_sim_job *j, void *arg)
{
	struct out *o = arg;

	fprintf(o->jobs, "%d,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%llu\n", j->tid,
		j->comm, (unsigned long long)j->job, (unsigned long long)j->release,
		(unsigned long long)j->begin, (unsigned long long)j->end,
		(unsigned long long)j->deadline, (unsigned long long)j->exec_ns,
		(unsigned long long)j->run_ns, (unsigned long long)j->period_ns,
		(long long)j->slack_ns, (unsigned long long)j->wu_lat_ns);
	return 0;
}

static int write_outputs(const char *dir, struct dlb_sim *sim, const struct dlb_sim_opts *so)
{
	char path[4096];
	size_t i;
	int op;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sched", dir);
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		return -1;
	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, i, &st);
		snprintf(path, sizeof(path), "%s/sched/%d.sched", dir, st.tid);
		f = fopen(path, "w");
		if (!f)
			return -1;
		dlb_sim_write_sched(f, &st);
		if (fclose(f))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/ops.csv", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "op,cpu_select,cpus,calls,done,unit,cost_sum,cost_min,cost_max,cost_mean,cost_p50,cost_p99\n");
	for (op = 0; op < DLB_OP_NR; op++) {
		const struct dlb_opcount *c = dlb_sim_opcount(sim, (enum dlb_op)op);

		fprintf(f, "%s,%s,%d,%llu,%llu,%s,%llu,%llu,%llu,%.1f,%llu,%llu\n",
			dlb_op_str((enum dlb_op)op), dlb_sim_cpu_select_str(so->cpu_select),
			so->nr_cpus, (unsigned long long)c->calls, (unsigned long long)c->done,
			so->timed ? dlb_opstat_unit() : "none", (unsigned long long)c->cost_sum,
			(unsigned long long)c->cost_min, (unsigned long long)c->cost_max,
			c->calls ? (double)c->cost_sum / (double)c->calls : 0.0,
			(unsigned long long)dlb_opcount_quantile(c, 0.5),
			(unsigned long long)dlb_opcount_quantile(c, 0.99));
	}
	return fclose(f) ? -1 : 0;
}

static void print_summary(struct dlb_sim *sim)
{
	size_t i;

	printf("# %-15s %7s %10s %8s %8s %12s %12s\n", "comm", "tid", "jobs", "missed",
	       "throttle", "dmiss_max", "rorun_max");
	for (i = 0; i < dlb_sim_nr_threads(sim); i++) {
		struct dlb_sim_task_stats st;

		dlb_sim_task_stats(sim, i, &st);
		printf("  %-15s %7d %10llu %8llu %8llu %12llu %12llu\n", st.comm, st.tid,
		       (unsigned long long)st.jobs, (unsigned long long)st.jobs_missed,
		       (unsigned long long)st.nr_throttled, (unsigned long long)st.dmiss_max,
		       (unsigned long long)st.rorun_max);
	}
}

enum { OPT_CTX = 256, OPT_MIG, OPT_NOTIMING, OPT_RTEV, OPT_MODEL, OPT_ASKED };

struct replay {
	bool on, asked, cpus_given, model_given, tick_given;
	struct dlb_jobs_trace *jt;
};

/* --replay: the workload, CPUs, model and admission from the jobs trace. */
static int replay_load(const char *path, struct replay *r, struct dlb_sim_opts *so,
		       bool admission_given, struct workload **wl, struct dlb_err *err)
{
	char model[24];
	const char *why;

	if (dlb_jt_read(path, &r->jt, err) || dlb_jt_workload(r->jt, r->asked, wl, err))
		return -1;
	if (!r->cpus_given)
		so->nr_cpus = r->jt->nr_cpus;
	if (!r->tick_given) {
		so->tick_ns = r->jt->tick;
		so->tick_phase = r->jt->tick_phase;	/* the traced CPUs' tick grid */
	}
	dlb_sim_opts_unavail(so, r->jt);	/* interrupts and the stop class */
	if (!r->model_given) {
		why = dlb_sim_model_for(r->jt->backend, r->jt->kernel, r->jt->model, model,
					sizeof(model));
		if (dlb_sim_opts_model(so, model) < 0)
			return dlb_err_set(err, DLB_EXIT_INTERNAL, "model '%s' not known", model);
		fprintf(stderr, "%s: replay under model %s (%s)\n", prog, model, why);
	}
	/* the tasks were admitted where the trace was taken */
	if (!admission_given)
		so->admission = false;
	return 0;
}


/* DIR/NAME opened for writing; NULL with the file and the reason said on stderr. */
static FILE *out_open(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "%s: %s: %s\n", prog, path, dlb_strerror(errno));
	return f;
}

static int main_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'm' },
		{ "cpu-select", required_argument, NULL, 's' },
		{ "admission", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
			{ "tick", required_argument, NULL, 't' },
		{ "ctx-switch", required_argument, NULL, OPT_CTX },
		{ "migration", required_argument, NULL, OPT_MIG },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "check", no_argument, NULL, 'c' },
		{ "no-timing", no_argument, NULL, OPT_NOTIMING },
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "runtime-events", no_argument, NULL, OPT_RTEV },
		{ "replay", no_argument, NULL, 'r' },
		{ "asked", no_argument, NULL, OPT_ASKED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dlb_sim_opts so;
	struct workload *wl = NULL;
	struct dlb_sim *sim;
	struct dlb_err err;
	struct out out = { 0 };
	struct replay rp = { 0 };
	const char *dir = NULL, *admission = NULL;
	char path[4096], note[DLB_ERR_MAX];
	struct wl_length len;
	long long v;
	bool dat = false;
	int c, rc;

	dlb_sim_opts_init(&so);
	so.interrupt = &interrupted;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while ((c = getopt_long(argc, argv, "m:s:a:d:t:o:f:crh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (dlb_parse_ll(optarg, 1, 1024, &v) < 0)
				return bad("--cpus: '%s' is not a number in 1..1024", optarg);
			so.nr_cpus = (int)v;
			rp.cpus_given = true;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "dat"))
				return bad("--format: '%s' is neither text nor dat", optarg);
			dat = !strcmp(optarg, "dat");
			break;
		case 's':
			if (dlb_sim_cpu_select_parse(optarg, &so.cpu_select) < 0)
				return bad("--cpu-select: '%s' is neither heap nor linear", optarg);
			break;
		case 'a':
			admission = optarg;	/* after --model: its kernel's reserve */
			break;
		case OPT_MODEL:
			if (dlb_sim_opts_model(&so, optarg) < 0)
				return bad("--model: '%s' is not v4, mainline or mainline:MAJ.MIN "
					   "(3.14..6.18)", optarg);
			rp.model_given = true;
			break;
		case 'd':
			if (dlb_parse_duration(optarg, NSEC_PER_SEC, &so.duration_ns) < 0)
				return bad("--duration: '%s' is not a duration", optarg);
			break;
		case 't':
			if (dlb_parse_duration(optarg, 1, &so.tick_ns) < 0)
				return bad("--tick: '%s' is not a duration", optarg);
			rp.tick_given = true;
			break;
		case OPT_CTX:
			if (dlb_parse_duration(optarg, 1, &so.ctx_switch_ns) < 0)
				return bad("--ctx-switch: '%s' is not a duration", optarg);
			break;
		case OPT_MIG:
			if (dlb_parse_duration(optarg, 1, &so.migration_ns) < 0)
				return bad("--migration: '%s' is not a duration", optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		case 'c':
			so.check = true;
			break;
		case OPT_NOTIMING:
			so.timed = false;
			break;
		case OPT_RTEV:
			so.trace_runtime = true;
			break;
		case 'r':
			rp.on = true;
			break;
		case OPT_ASKED:
			rp.asked = true;
			break;
		case 'h':
			usage(stdout);
			return DLB_EXIT_OK;
		default:
			usage(stderr);
			return DLB_EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1)
		return bad("%s", optind >= argc ? "no workload given" : "more than one workload given");
	if (admission && parse_admission(admission, &so) < 0)
		return bad("--admission: '%s' is not kernel, noreserve, off or R/P[:PCT]", admission);

	if (rp.asked && !rp.on)
		return bad("--asked: only with --replay%s", "");
	if (rp.on ? replay_load(argv[optind], &rp, &so, admission != NULL, &wl, &err) :
	    wl_load_file(argv[optind], so.lim, &wl, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		dlb_jt_free(rp.jt);
		wl_free(wl);
		return err.code ? err.code : DLB_EXIT_BAD_INPUT;
	}
	wl_warnings_write(wl, prog, stderr);
	if (wl_slice_task(wl))
		fprintf(stderr, "%s: warning: task '%s': dl-runtime (a custom slice) has no effect "
			"on the reference (its fair class slices by nice weight only)\n", prog,
			wl_slice_task(wl)->name);
	if (wl_taskgroup_task(wl))
		fprintf(stderr, "%s: warning: task '%s': taskgroup has no effect on the reference "
			"(it has no group scheduling)\n", prog, wl_taskgroup_task(wl)->name);
	if (wl_uclamp_task(wl))
		fprintf(stderr, "%s: warning: task '%s': util_min/util_max have no effect on the "
			"reference (it has no utilization clamping: no CPU frequency or capacity "
			"model)\n", prog, wl_uclamp_task(wl)->name);
	if (wl_membind_task(wl))
		fprintf(stderr, "%s: warning: task '%s': nodes_membind has no effect on the "
			"reference (it has no memory model: no NUMA nodes)\n", prog,
			wl_membind_task(wl)->name);
	if (wl_reclaim_task(wl) && !strcmp(so.model, "v4"))
		fprintf(stderr, "%s: warning: task '%s': dl-flags \"reclaim\" is ignored: the v4 "
			"rules have no GRUB (use --model mainline)\n", prog, wl_reclaim_task(wl)->name);
	len = wl_run_length(wl, so.duration_ns != 0, so.duration_ns);
	so.duration_ns = len.ns;
	if (len.source == WL_LEN_TASKS_END && !rp.on)
		fprintf(stderr, "%s: %s (at most %llu s of simulated time)\n", prog,
			wl_length_note(note, sizeof(note), wl, &len),
			(unsigned long long)(so.max_time_ns / NSEC_PER_SEC));
	else if (len.source == WL_LEN_DEFAULT)
		fprintf(stderr, "%s: %s\n", prog, wl_length_note(note, sizeof(note), wl, &len));
	sim = dlb_sim_create(wl, &so, &err);
	if (!sim) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		wl_free(wl);
		dlb_jt_free(rp.jt);
		return err.code ? err.code : DLB_EXIT_BAD_INPUT;
	}
	out.sim = sim;
	if (dir) {
		if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
			fprintf(stderr, "%s: %s: %s\n", prog, dir, dlb_strerror(errno));
			rc = DLB_EXIT_ENV;
			goto done;
		}
		if (dat) {
			snprintf(path, sizeof(path), "%s/trace.dat", dir);
			out.dat = dlb_tracedat_create(path, so.nr_cpus, &err);
			if (!out.dat) {
				fprintf(stderr, "%s: %s\n", prog, err.msg);
				rc = err.code;
				goto done;
			}
		} else {
			out.trace = out_open(dir, "trace.txt");
			if (!out.trace) {
				rc = DLB_EXIT_ENV;
				goto done;
			}
		}
		out.jobs = out_open(dir, "jobs.csv");
		if (!out.jobs) {
			rc = DLB_EXIT_ENV;
			goto done;
		}
		if (out.trace)
			fprintf(out.trace, "# tracer: nop\n#\n# dlb-sim %s: reference SCHED_DEADLINE "
				"v4, %d CPUs, cpu-select %s\n#\n", DLB_VERSION, so.nr_cpus,
				dlb_sim_cpu_select_str(so.cpu_select));
		fprintf(out.jobs, "tid,comm,job,release,begin,end,deadline,exec,run,period,slack,wu_lat\n");
		dlb_sim_set_event_hook(sim, out.dat ? on_event_dat : on_event, &out);
		dlb_sim_set_job_hook(sim, on_job, &out);
	}
	dlb_sim_set_progress_hook(sim, on_progress, NULL);
	rc = dlb_sim_run(sim, &err) < 0 ? -1 : DLB_EXIT_OK;
	dlb_cli_progress(&progress, prog, 0, 0, true);
	if (rc < 0) {
		if (out.err)	/* on_event's write */
			fprintf(stderr, "%s: %s/trace.txt: %s\n", prog, dir, dlb_strerror(out.err));
		else if (out.dat_failed)
			fprintf(stderr, "%s: %s\n", prog, out.dat_err.msg);
		else
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		rc = err.code ? err.code : DLB_EXIT_INTERNAL;
	}
	/* interrupted: what was simulated is still written, the exit code says so */
	if (dir && (rc == DLB_EXIT_OK || (interrupted && !out.err && !out.dat_failed)) &&
	    write_outputs(dir, sim, &so) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, dlb_strerror(errno));
		rc = DLB_EXIT_ENV;
	}
	if (out.dat && (rc == DLB_EXIT_OK || (interrupted && !out.dat_failed)) &&
	    dlb_tracedat_finish(out.dat, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		if (rc == DLB_EXIT_OK)
			rc = err.code;
	}
	if (!dir && rc == DLB_EXIT_OK)
		print_summary(sim);
done:
	if (out.trace && fclose(out.trace) && rc == DLB_EXIT_OK) {
		fprintf(stderr, "%s: %s/trace.txt: %s\n", prog, dir, dlb_strerror(errno));
		rc = DLB_EXIT_ENV;
	}
	if (out.jobs && fclose(out.jobs) && rc == DLB_EXIT_OK) {
		fprintf(stderr, "%s: %s/jobs.csv: %s\n", prog, dir, dlb_strerror(errno));
		rc = DLB_EXIT_ENV;
	}
	dlb_tracedat_free(out.dat);
	dlb_sim_free(sim);
	wl_free(wl);
	dlb_jt_free(rp.jt);
	return rc;
}

int main(int argc, char **argv)
{
	return dlb_cli_exit(prog, main_run(argc, argv));
}
