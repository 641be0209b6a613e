// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-rtapp: run an rt-app JSON workload on the kernel's scheduler
 * (SCHED_DEADLINE, RT and fair threads) or on the reference simulator, and
 * write the run folder (docs/results.md): rt-app logs, sched snapshots,
 * summary.json, and (reference) the trace.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "../reference/sim.h"
#include "calib.h"
#include "membind.h"
#include "rtapp.h"

volatile sig_atomic_t rtapp_signalled;

static const char *prog = "dlb-rtapp";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] WORKLOAD.json\n"
		"Run an rt-app workload under the kernel's scheduler or the reference simulator.\n"
		"\n"
		"  -b, --backend=NAME         kernel (default) or reference\n"
		"  -m, --cpus=N               reference: simulated CPUs; kernel: run on CPUs\n"
		"                             0..N-1 only, N <= online CPUs (an exclusive cpuset\n"
		"                             for the DL tasks, affinity for the others; default:\n"
		"                             all online CPUs)\n"
		"      --model=MODEL          reference: the rules, v4 (default), mainline (the\n"
		"                             newest modelled) or mainline:MAJ.MIN\n"
		"  -o, --output=DIR           run folder (default: the workload's global.logdir)\n"
		"  -f, --format=FMT           reference: the trace, text (trace.txt; default) or\n"
		"                             dat (trace.dat, trace-cmd's file, as a kernel run's)\n"
		"  -d, --duration=TIME        run length, e.g. 2s, 500ms (default: global.duration)\n"
		"  -t, --trace-marker=PATH    write markers to PATH (a tracefs instance's trace_marker;\n"
		"                             default $DLB_TRACE_MARKER, set by dlb-record)\n"
		"  -n, --no-markers           write no markers\n"
		"  -E, --event-log            write each thread's events, in order, to\n"
		"                             <base>-<task>-<idx>.events (no times)\n"
		"  -2, --setscheduler2[=NR]   v4 patchset ABI: sched_setscheduler2 (syscall NR)\n"
		"      --teardown=ORDER       pinned runs: settle (default) waits for the kernel to\n"
		"                             release the DL bandwidth before removing the cpusets;\n"
		"                             immediate removes them at once (reproduces a kernel\n"
		"                             defect: docs/kernel-findings.md)\n"
		"  -q, --quiet                print nothing but errors\n"
		"  -V, --version              print the version and exit\n"
		"  -h, --help                 print this help and exit\n"
		"\n"
		"Exit codes: 0 ok, 2 bad input or parameters the kernel refuses (EINVAL),\n"
		"3 environment (not privileged: EPERM; not admitted: EBUSY; no tracefs for -t;\n"
		"the kernel's DL bandwidth accounting inconsistent before the run),\n"
		"4 interrupted (SIGINT/SIGTERM: the summary says incomplete), 5 internal error.\n"
		"A run that leaves the DL accounting changed (a kernel finding) exits 0 with a\n"
		"warning; summary.json says so and dlb-analyze's verdict fails (exit 1).\n",
		prog);
}

static void on_signal(int sig)
{
	(void)sig;
	rtapp_signalled = 1;
}

/* Print "PROG: message" on stderr and return the exit code (main() returns it). */
#define fail(...) dlb_cli_fail(prog, __VA_ARGS__)

static int parse_args(int argc, char **argv, struct rtapp_opts *o)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "cpus", required_argument, NULL, 'm' },
		{ "model", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'd' },
		{ "trace-marker", required_argument, NULL, 't' },
		{ "no-markers", no_argument, NULL, 'n' },
		{ "event-log", no_argument, NULL, 'E' },
		{ "setscheduler2", optional_argument, NULL, '2' },
		{ "teardown", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dlb_sim_opts so;
	long long v;
	int c;

	while ((c = getopt_long(argc, argv, "b:m:o:f:d:t:nE2::qVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (!strcmp(optarg, "kernel"))
				o->backend = RTAPP_BACKEND_KERNEL;
			else if (!strcmp(optarg, "reference"))
				o->backend = RTAPP_BACKEND_REFERENCE;
			else
				return fail(DLB_EXIT_BAD_INPUT, "--backend: '%s' is not kernel or "
					   "reference", optarg);
			break;
		case 'm':
			if (dlb_parse_ll(optarg, 1, DLB_MAX_CPUS, &v))
				return fail(DLB_EXIT_BAD_INPUT, "--cpus: '%s' is not a number of "
					   "CPUs in 1..%d", optarg, DLB_MAX_CPUS);
			o->cpus = (int)v;
			break;
		case 'M':
			dlb_sim_opts_init(&so);
			if (dlb_sim_opts_model(&so, optarg))
				return fail(DLB_EXIT_BAD_INPUT, "--model: '%s' is not v4, mainline or "
					   "mainline:MAJ.MIN (docs/reference.md)", optarg);
			o->ref_model = optarg;
			break;
		case 'o':
			o->outdir = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "dat"))
				return fail(DLB_EXIT_BAD_INPUT, "--format: '%s' is neither text nor "
					   "dat", optarg);
			o->trace_dat = !strcmp(optarg, "dat");
			break;
		case 'd':
			/* 0 would mean "the workload's, else no end": not what was asked */
			if (dlb_parse_duration(optarg, NSEC_PER_SEC, &o->duration_ns) ||
			    !o->duration_ns)
				return fail(DLB_EXIT_BAD_INPUT, "--duration: '%s' is not a duration "
					   "above 0 (e.g. 2s, 500ms)", optarg);
			o->duration_set = true;
			break;
		case 't':
			o->marker_path = optarg;
			break;
		case 'n':
			o->no_markers = true;
			break;
		case 'E':
			o->event_log = true;
			break;
		case '2':
			o->abi.setscheduler2 = true;
			o->abi.nr = rtapp_nr_setscheduler2_default();
			if (optarg) {
				if (dlb_parse_ll(optarg, 0, 4095, &v))
					return fail(DLB_EXIT_BAD_INPUT, "--setscheduler2: '%s' is not a "
						   "syscall number", optarg);
				o->abi.nr = (long)v;
			}
			if (o->abi.nr < 0)
				return fail(DLB_EXIT_BAD_INPUT, "--setscheduler2: no known syscall "
					   "number on this architecture: give one (=NR)");
			break;
		case 'T':
			if (!strcmp(optarg, "settle"))
				o->teardown = RTAPP_TEARDOWN_SETTLE;
			else if (!strcmp(optarg, "immediate"))
				o->teardown = RTAPP_TEARDOWN_IMMEDIATE;
			else
				return fail(DLB_EXIT_BAD_INPUT, "--teardown: '%s' is not settle or "
					   "immediate", optarg);
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'V':
			printf("%s %s\n", prog, DLB_VERSION);
			exit(DLB_EXIT_OK);
		case 'h':
			usage(stdout);
			exit(DLB_EXIT_OK);
		default:
			usage(stderr);
			return DLB_EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return fail(DLB_EXIT_BAD_INPUT, optind >= argc ? "no workload given" :
			   "one workload only");
	}
	if (o->ref_model && o->backend != RTAPP_BACKEND_REFERENCE)
		return fail(DLB_EXIT_BAD_INPUT, "--model: the rules are for --backend "
			   "reference; the kernel backend is the machine's kernel");
	if (o->trace_dat && o->backend != RTAPP_BACKEND_REFERENCE)
		return fail(DLB_EXIT_BAD_INPUT, "--format: the reference backend's trace; a kernel "
			   "run's is dlb-record's");
	o->workload = argv[optind];
	return 0;
}

/* mkdir -p */
static int make_dir(const char *dir, struct dlb_err *err)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: path too long", dir);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", tmp, dlb_strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", tmp, dlb_strerror(errno));
	return 0;
}

static int calibrate(struct rtapp_run *run, struct dlb_err *err)
{
	const struct wl_global *g = &run->wl->global;

	if (g->calibration_cpu < 0 && g->calibration_ns) {
		run->ns_per_loop = (double)g->calibration_ns;
		run->calib_cpu = -1;
		return 0;
	}
	run->calib_cpu = g->calibration_cpu < 0 ? 0 : g->calibration_cpu;
	return rtapp_calibrate(run->calib_cpu, &run->ns_per_loop, err);
}

static int setup_markers(struct rtapp_run *run, const struct rtapp_opts *o, struct dlb_err *err)
{
	const char *path = o->marker_path;
	char warn[256];

	run->tm.fd = -1;
	if (o->no_markers)
		return 0;
	/* dlb-record names its instance's trace_marker for the command it runs */
	if (!path)
		path = getenv("DLB_TRACE_MARKER");
	if (path && !*path)
		path = NULL;
	if (rtapp_tracemark_open(&run->tm, path, warn, sizeof(warn), err))
		return -1;
	if (warn[0])
		fprintf(stderr, "%s: warning: %s\n", prog, warn);
	return 0;
}

/* unlink @dir/@name if it exists; 1 if it was removed */
static int remove_out(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (!name[0])
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return unlink(path) == 0;
}

/*
 * summary.json could not be written (full disk): it is what says whether
 * the logs, snapshots and trace are whole, so without it they are removed
 * rather than left looking like a run's results.
 */
static void remove_unflagged(const char *dir, const struct dlb_summary *s, bool reference)
{
	size_t i;
	int n = 0;

	for (i = 0; i < s->nr_threads; i++) {
		n += remove_out(dir, s->threads[i].log);
		n += remove_out(dir, s->threads[i].sched);
	}
	if (reference)
		n += remove_out(dir, "trace.txt");
	if (n)
		fprintf(stderr, "%s: %s: removed %d output files: summary.json cannot be "
			"written, so nothing would say whether they are whole\n", prog, dir, n);
}

/*
 * A SIGKILLed run's threads died SCHED_DEADLINE in their partitions: the
 * kernel releases their bandwidth up to a period later, and removing the
 * partitions first would lose it (docs/kernel-findings.md).  The longest
 * period the kernel allows bounds the wait; it is over at once when the
 * release is done.
 */
static void reap_wait(void)
{
	struct dlb_cpumask sets[RTAPP_CPUSETS_MAX];
	struct dl_param_limits lim;
	int n = rtapp_cpusets_stale(sets, RTAPP_CPUSETS_MAX);

	if (!n)
		return;
	rtapp_sched_limits(&lim);
	if (!rtapp_dlbw_wait_stale(sets, n, lim.period_max + 100 * NSEC_PER_MSEC))
		fprintf(stderr, "%s: warning: a dead run's DL bandwidth not released after %llu ms; "
			"removing its cpusets anyway\n", prog,
			(unsigned long long)((lim.period_max + 100 * NSEC_PER_MSEC) / NSEC_PER_MSEC));
}

/*
 * A kernel finding is the kernel's, not the run's: the data are whole, the
 * exit code stays the run's, and the warning says what broke and whether
 * it was repaired (the analyzer's verdict fails on it).
 */
static void report_dlbw(const struct dlb_summary_dlbw *d, bool quiet)
{
	if (d->status == DLB_DLBW_FINDING)
		fprintf(stderr, "%s: warning: kernel finding (%s): %s; %s\n", prog, d->kernel,
			d->detail, d->repair[0] ? d->repair : "not repaired");
	else if (d->status == DLB_DLBW_NOT_CHECKED && !quiet)
		printf("# DL bandwidth accounting not checked: %s\n", d->detail);
}

/*
 * A fair task's custom slice ("dl-runtime" on SCHED_OTHER/BATCH): the
 * kernel backend sets it, and says so when this kernel ignores it; the
 * reference's fair class slices by nice weight only (docs/rt-app.md).
 */
static void slice_warning(const struct rtapp_opts *o, const struct wl_task *t)
{
	if (o->backend == RTAPP_BACKEND_REFERENCE)
		fprintf(stderr, "%s: warning: task '%s': dl-runtime (a custom slice) has no "
			"effect on the reference backend (its fair class slices by nice weight "
			"only)\n", prog, t->name);
	else if (!rtapp_sched_has_slice())
		fprintf(stderr, "%s: warning: task '%s': dl-runtime (a custom slice) is ignored "
			"by this kernel (custom slices need Linux 6.12 or later)\n", prog, t->name);
}

/*
 * "dl-flags": ["reclaim"] (SCHED_FLAG_RECLAIM, GRUB) is kept by the kernel
 * backend's sched_setattr and by the reference's mainline model; v4 has no
 * GRUB (the reference's default rules and the --setscheduler2 ABI): said,
 * not silently dropped.
 */
static void flags_warning(const struct rtapp_opts *o, const struct workload *wl)
{
	const struct wl_task *t = wl_reclaim_task(wl);
	const char *why = NULL;

	if (!t)
		return;
	if (o->backend == RTAPP_BACKEND_REFERENCE && (!o->ref_model || !strcmp(o->ref_model, "v4")))
		why = "the reference's v4 rules have no GRUB (use --model mainline)";
	else if (o->backend == RTAPP_BACKEND_KERNEL && o->abi.setscheduler2)
		why = "the v4 ABI (--setscheduler2) has no sched_flags for it";
	if (why)
		fprintf(stderr, "%s: warning: task '%s': dl-flags \"reclaim\" is ignored: %s\n",
			prog, t->name, why);
}

/*
 * "taskgroup" (cgroup cpu controller groups): the kernel backend creates
 * and joins them (rt-app/cgroup.c); the reference has no group scheduling,
 * so there it is accepted and has no effect, said once (docs/workload.md).
 */
static void taskgroup_warning(const struct rtapp_opts *o, const struct workload *wl)
{
	const struct wl_task *t = wl_taskgroup_task(wl);

	if (t && o->backend == RTAPP_BACKEND_REFERENCE)
		fprintf(stderr, "%s: warning: task '%s': taskgroup has no effect on the reference "
			"backend (it has no group scheduling)\n", prog, t->name);
}

/*
 * "util_min"/"util_max" (uclamp): the kernel backend sets them as rt-app
 * does (rt-app/sched.c), and a kernel that cannot clamp refuses the run
 * before any thread starts (rt-app exits at the first thread's
 * sched_setattr; a phase's clamps would fail mid-run).  The reference has
 * no utilization clamping, nothing for a clamp to act on: said once.
 */
static int uclamp_check(const struct rtapp_opts *o, const struct workload *wl,
			struct dlb_err *err)
{
	const struct wl_task *t = wl_uclamp_task(wl);
	int rc;

	if (!t)
		return 0;
	if (o->backend == RTAPP_BACKEND_REFERENCE) {
		if (!o->quiet)
			fprintf(stderr, "%s: warning: task '%s': util_min/util_max have no effect "
				"on the reference backend (it has no utilization clamping: no CPU "
				"frequency or capacity model)\n", prog, t->name);
		return 0;
	}
	rc = rtapp_sched_uclamp_probe();
	if (rc == EOPNOTSUPP || rc == EINVAL || rc == ENOSYS)
		return rtapp_uclamp_explain(err, rc, t, -1);
	return 0;
}

/*
 * "nodes_membind" (NUMA memory binding): the kernel backend binds each
 * thread as rt-app does (rt-app/membind.c); a kernel without NUMA
 * policies (exit 3) or a node this machine does not have (exit 2, as
 * rt-app's "Invalid node") refuses the run before any thread starts.  The
 * reference has no memory model, nothing for a binding to act on: said
 * once.
 */
static int membind_check(const struct rtapp_opts *o, const struct workload *wl,
			 struct dlb_err *err)
{
	const struct wl_task *t = wl_membind_task(wl);

	if (!t)
		return 0;
	if (o->backend == RTAPP_BACKEND_KERNEL)
		return rtapp_membind_check(wl, RTAPP_NODE_DIR, err);
	if (!o->quiet)
		fprintf(stderr, "%s: warning: task '%s': nodes_membind has no effect on the "
			"reference backend (it has no memory model: no NUMA nodes)\n", prog,
			t->name);
	return 0;
}

int main(int argc, char **argv)
{
	struct rtapp_opts o = { .backend = RTAPP_BACKEND_KERNEL };
	struct dlb_summary sum = { 0 };
	struct rtapp_run run = { 0 };
	struct workload *wl = NULL;
	struct dlb_err err = { 0 };
	struct dl_param_limits lim;
	char path[PATH_MAX + 16], calib_where[32], reaped[2048], note[DLB_ERR_MAX];
	const struct wl_task *st;
	struct wl_length len;
	struct sigaction sa;
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	dlb_join_cmdline(o.cmdline, sizeof(o.cmdline), argc, argv);
	/*
	 * The kernel backend checks every DL task against this kernel's
	 * period limits (dl_param_check, in the loader) before any
	 * sched_setattr: a refusal then names the file, line and rule.  The
	 * reference models a kernel with the defaults.
	 */
	if (o.backend == RTAPP_BACKEND_KERNEL)
		rtapp_sched_limits(&lim);
	if (wl_load_file(o.workload, o.backend == RTAPP_BACKEND_KERNEL ? &lim : NULL, &wl, &err))
		return fail(err.code, "%s", err.msg);
	if (!o.quiet)
		wl_warnings_write(wl, prog, stderr);
	if (!o.quiet && (st = wl_slice_task(wl)))
		slice_warning(&o, st);
	if (!o.quiet)
		flags_warning(&o, wl);
	if (!o.quiet)
		taskgroup_warning(&o, wl);
	if (uclamp_check(&o, wl, &err) || membind_check(&o, wl, &err)) {
		wl_free(wl);
		return fail(err.code, "%s", err.msg);
	}
	/* the CPUs named, on the kernel: checked before anything is created or started */
	if (o.backend == RTAPP_BACKEND_KERNEL &&
	    (o.cpus ? rtapp_cpus_limit(wl, o.cpus, &err) : rtapp_cpus_online(wl, &err))) {
		wl_free(wl);
		return fail(err.code, "%s", err.msg);
	}
	len = wl_run_length(wl, o.duration_set, o.duration_ns);
	o.duration_ns = len.ns;
	if (!o.quiet && len.source == WL_LEN_TASKS_END && o.backend == RTAPP_BACKEND_REFERENCE)
		fprintf(stderr, "%s: %s (at most %llu s of simulated time)\n", prog,
			wl_length_note(note, sizeof(note), wl, &len),
			(unsigned long long)(DLB_SIM_MAX_TIME_NS / NSEC_PER_SEC));
	else if (!o.quiet && len.source >= WL_LEN_DEFAULT)
		fprintf(stderr, "%s: %s\n", prog, wl_length_note(note, sizeof(note), wl, &len));
	run.wl = wl;
	run.opts = &o;
	run.cpusets.old_load_balance = -1;
	snprintf(run.outdir, sizeof(run.outdir), "%s",
		 o.outdir ? o.outdir : wl->global.logdir ? wl->global.logdir : ".");
	if (make_dir(run.outdir, &err))
		goto fail;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* what the summary says if a backend fails before it fills it in */
	sum.status = DLB_RUN_ERROR;
	sum.admission = DLB_ADMISSION_NOT_REACHED;
	sum.duration_ns = len.ns;
	snprintf(sum.duration_source, sizeof(sum.duration_source), "%s",
		 wl_length_source_str(len.source));
	snprintf(sum.backend, sizeof(sum.backend), "%s",
		 o.backend == RTAPP_BACKEND_REFERENCE ? "reference" : "kernel");
	snprintf(sum.clock, sizeof(sum.clock), "%s",
		 o.backend == RTAPP_BACKEND_REFERENCE ? "virtual" : "mono");
	if (o.backend == RTAPP_BACKEND_REFERENCE) {
		rc = rtapp_reference_run(&run, &sum, &err);
	} else {
		/* a SIGKILLed run leaves its partitions (and the root domain split) */
		reap_wait();
		if (rtapp_cpusets_reap(reaped, sizeof(reaped)) && reaped[0])
			fprintf(stderr, "%s: warning: %s\n", prog, reaped);
		if (calibrate(&run, &err))
			goto fail;
		snprintf(calib_where, sizeof(calib_where), "measured on CPU%d", run.calib_cpu);
		if (!o.quiet)
			printf("# calibration: %.3f ns per loop (%s)\n", run.ns_per_loop,
			       run.calib_cpu >= 0 ? calib_where : "given");
		if (setup_markers(&run, &o, &err))
			goto fail;
		rc = rtapp_kernel_run(&run, &sum, &err);
		rtapp_tracemark_close(&run.tm);
	}
	sum.calibration_ns = run.ns_per_loop;
	snprintf(sum.workload, sizeof(sum.workload), "%s", o.workload);
	snprintf(sum.cmdline, sizeof(sum.cmdline), "%s", o.cmdline);
	snprintf(sum.version, sizeof(sum.version), "%s", DLB_VERSION);
	snprintf(path, sizeof(path), "%s/summary.json", run.outdir);
	if (dlb_summary_write(path, &sum, rc ? NULL : &err)) {
		if (!rc)
			rc = err.code;
		remove_unflagged(run.outdir, &sum, o.backend == RTAPP_BACKEND_REFERENCE);
	}
	report_dlbw(&sum.dlbw, o.quiet);
	if (err.msg[0])
		fail(rc, "%s", err.msg);
	else if (rc == DLB_EXIT_INCOMPLETE)
		fail(rc, "interrupted: the run is incomplete (%s)", path);
	free(sum.threads);
	free(sum.dlbw.cpus);
	free(run.threads);
	free(run.forks);
	free(run.res);
	wl_free(wl);
	return rc;
fail:
	wl_free(wl);
	return fail(err.code, "%s", err.msg);
}
