// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-tasksetgen: random SCHED_DEADLINE task sets as rt-app JSON
 * (randfixedsum or UUniFast-discard utilisations, log-uniform or uniform
 * periods).  docs/tasksetgen.md has the algorithms and an example.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/dlparam.h"
#include "dlbench/exitcode.h"
#include "tsgen.h"

static const char *prog = "dlb-tasksetgen";

static void usage(FILE *f)
{
	fprintf(f,
"usage: dlb-tasksetgen [options] (-u TOTAL | --util-per-cpu X -m CPUS)\n"
"\n"
"  -a, --alg=NAME             randfixedsum (default) or uunifast-discard\n"
"  -n, --tasks=N              tasks per set (default 2 x CPUS; 1..%u)\n"
"  -m, --cpus=N               CPUs the set is meant for (1..1024)\n"
"  -u, --util=U               total utilisation, 0 < U <= N\n"
"      --util-per-cpu=X       total utilisation X x CPUS\n"
"      --period-min=TIME      shortest period (default 10ms; at least 100us)\n"
"      --period-max=TIME      longest period (default 100ms)\n"
"      --period-gran=TIME     periods are multiples of this (default 1ms; whole us)\n"
"      --period-dist=D        log (log-uniform, default) or uniform\n"
"      --deadline-ratio=LO[:HI]  D = C + x (T - C), x uniform in [LO, HI]\n"
"                             (default 1: implicit deadlines, D = T)\n"
"      --run-ratio=R          each job runs R x runtime (default 1; 0 < R <= 10)\n"
"  -d, --duration=S           global.duration, whole seconds (default 10)\n"
"  -s, --seed=N               seed (default 1); set i of --count uses N + i\n"
"  -o, --output=FILE          write the set to FILE (default: stdout)\n"
"  -c, --count=K              K sets, written to PREFIX-000.json ... (needs --prefix)\n"
"  -p, --prefix=PREFIX        file name prefix for the sets\n"
"  -q, --quiet                print no summary line\n"
"  -h, --help                 this help\n"
"  -V, --version              print the version\n"
"\n"
"Runtime C = u x T rounded to the nearest us (at least 2 us); the achieved\n"
"utilisation is in each file's header and the summary line.\n"
"exit status: 0 ok, 2 bad arguments, 3 output not writable (see exitcode.h)\n",
		TSG_TASKS_MAX);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "%s (try --help)", msg);
}

/* A duration in whole µs into @us. */
static int parse_us(const char *opt, const char *s, u64 *us)
{
	u64 ns;

	if (dlb_parse_duration(s, NSEC_PER_SEC, &ns) < 0)
		return bad("%s: '%s' is not a duration (e.g. 10ms, 500us)", opt, s);
	if (ns % NSEC_PER_USEC)
		return bad("%s: '%s' is not a whole number of microseconds", opt, s);
	*us = ns / NSEC_PER_USEC;
	return 0;
}

static int parse_deadline_ratio(const char *s, struct tsg_params *p)
{
	char lo[64], *colon;

	snprintf(lo, sizeof(lo), "%s", s);
	colon = strchr(lo, ':');
	if (colon)
		*colon = '\0';
	if (dlb_parse_double(lo, 0, 1, &p->dl_lo) < 0 ||
	    dlb_parse_double(colon ? colon + 1 : lo, 0, 1, &p->dl_hi) < 0 || p->dl_hi < p->dl_lo)
		return bad("--deadline-ratio: '%s' is not LO or LO:HI with 0 <= LO <= HI <= 1", s);
	return 0;
}

/* Everything the options leave to be checked together. */
struct cli {
	struct tsg_params p;
	long long tasks, cpus, count;
	double util, util_per_cpu;
	bool have_util, have_upc, quiet;
	const char *output, *prefix;
};

static int check_combination(struct cli *c)
{
	struct tsg_params *p = &c->p;

	if (c->have_util == c->have_upc)
		return bad("give the utilisation: -u TOTAL or --util-per-cpu X (one of them)");
	if (c->have_upc && !c->cpus)
		return bad("--util-per-cpu needs -m CPUS");
	if (!c->tasks && !c->cpus)
		return bad("give -n TASKS or -m CPUS (the default is 2 tasks per CPU)");
	if (!c->tasks && 2 * c->cpus > TSG_TASKS_MAX)
		return bad("-m %lld: 2 x CPUS is more than %u tasks: give -n", c->cpus,
			   TSG_TASKS_MAX);
	p->nr_tasks = (unsigned int)(c->tasks ? c->tasks : 2 * c->cpus);
	p->nr_cpus = (unsigned int)c->cpus;
	p->total_util = c->have_util ? c->util : c->util_per_cpu * (double)c->cpus;
	if (!(p->total_util > 0))
		return bad("the utilisation must be above 0");
	if (p->total_util > p->nr_tasks)
		return bad("utilisation %g is more than %u tasks can have (each u <= 1)",
			   p->total_util, p->nr_tasks);
	if (p->period_min_us > p->period_max_us)
		return bad("--period-min %llu us is above --period-max %llu us",
			   (unsigned long long)p->period_min_us,
			   (unsigned long long)p->period_max_us);
	if (p->period_min_us < DL_PERIOD_MIN_US_DEFAULT)
		return bad("--period-min: %llu us is below the kernel's %llu us "
			   "(sched_deadline_period_min_us)", (unsigned long long)p->period_min_us,
			   DL_PERIOD_MIN_US_DEFAULT);
	if (p->period_max_us > DL_PERIOD_MAX_US_DEFAULT)
		return bad("--period-max: %llu us is above the kernel's %llu us "
			   "(sched_deadline_period_max_us)", (unsigned long long)p->period_max_us,
			   DL_PERIOD_MAX_US_DEFAULT);
	if (p->period_min_us % p->period_gran_us || p->period_max_us % p->period_gran_us)
		return bad("--period-min and --period-max must be multiples of --period-gran "
			   "(%llu us)", (unsigned long long)p->period_gran_us);
	if (c->count > 1 && !c->prefix)
		return bad("--count %lld needs --prefix", c->count);
	if (c->prefix && c->output)
		return bad("-o and --prefix exclude each other");
	return 0;
}

static int write_set(const struct cli *c, const struct tsg_params *p, const char *path)
{
	struct tsg_set set;
	FILE *f = stdout;
	int rc;

	rc = tsg_generate(p, &set);
	if (rc == TSG_GEN_NOMEM)
		return dlb_cli_fail(prog, DLB_EXIT_ENV, "out of memory for %u tasks", p->nr_tasks);
	if (rc == TSG_GEN_GAVE_UP)
		return dlb_cli_fail(prog, DLB_EXIT_BAD_INPUT, "uunifast-discard: no draw in %lu "
				    "had every u <= 1 (utilisation %g of %u tasks): use --alg "
				    "randfixedsum", set.draws, p->total_util, p->nr_tasks);
	if (rc)
		return dlb_cli_fail(prog, DLB_EXIT_INTERNAL, "a generated task breaks the "
				    "kernel's rules (a dlb-tasksetgen bug)");
	if (path) {
		f = fopen(path, "w");
		if (!f) {
			rc = errno;
			tsg_set_free(&set);
			return dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: cannot open: %s", path,
					    dlb_strerror(rc));
		}
	}
	rc = tsg_write_json(f, p, &set);
	if ((path ? fclose(f) : fflush(f)) || rc) {
		tsg_set_free(&set);
		return dlb_cli_fail(prog, DLB_EXIT_ENV, "%s: cannot write", path ? path : "stdout");
	}
	if (!c->quiet && path)
		fprintf(stderr, "%s: %u tasks, utilisation %.6f (asked %.6f), seed %llu\n", path,
			set.nr_tasks, set.achieved_util, p->total_util,
			(unsigned long long)p->seed);
	tsg_set_free(&set);
	return DLB_EXIT_OK;
}

enum {
	OPT_UPC = 256, OPT_PMIN, OPT_PMAX, OPT_PGRAN, OPT_PDIST, OPT_DLRATIO, OPT_RUNRATIO,
};

static int parse_args(int argc, char **argv, struct cli *c)
{
	static const struct option opts[] = {
		{ "alg", required_argument, NULL, 'a' },
		{ "tasks", required_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, 'm' },
		{ "util", required_argument, NULL, 'u' },
		{ "util-per-cpu", required_argument, NULL, OPT_UPC },
		{ "period-min", required_argument, NULL, OPT_PMIN },
		{ "period-max", required_argument, NULL, OPT_PMAX },
		{ "period-gran", required_argument, NULL, OPT_PGRAN },
		{ "period-dist", required_argument, NULL, OPT_PDIST },
		{ "deadline-ratio", required_argument, NULL, OPT_DLRATIO },
		{ "run-ratio", required_argument, NULL, OPT_RUNRATIO },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "count", required_argument, NULL, 'c' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tsg_params *p = &c->p;
	long long v;
	u64 ns;
	int o;

	opterr = 0;
	while ((o = getopt_long(argc, argv, ":a:n:m:u:d:s:o:c:p:qhV", opts, NULL)) != -1) {
		switch (o) {
		case 'a':
			if (tsg_alg_parse(optarg, &p->alg) < 0)
				return bad("--alg: '%s' is neither randfixedsum nor uunifast-discard",
					   optarg);
			break;
		case 'n':
			if (dlb_parse_ll(optarg, 1, TSG_TASKS_MAX, &c->tasks) < 0)
				return bad("--tasks: '%s' is not a number in 1..%u", optarg,
					   TSG_TASKS_MAX);
			break;
		case 'm':
			if (dlb_parse_ll(optarg, 1, 1024, &c->cpus) < 0)
				return bad("--cpus: '%s' is not a number in 1..1024", optarg);
			break;
		case 'u':
			if (dlb_parse_double(optarg, 0, TSG_TASKS_MAX, &c->util) < 0)
				return bad("--util: '%s' is not a number in 0..%u", optarg,
					   TSG_TASKS_MAX);
			c->have_util = true;
			break;
		case OPT_UPC:
			if (dlb_parse_double(optarg, 0, TSG_TASKS_MAX, &c->util_per_cpu) < 0)
				return bad("--util-per-cpu: '%s' is not a number in 0..%u", optarg,
					   TSG_TASKS_MAX);
			c->have_upc = true;
			break;
		case OPT_PMIN:
			if (parse_us("--period-min", optarg, &p->period_min_us))
				return DLB_EXIT_BAD_INPUT;
			break;
		case OPT_PMAX:
			if (parse_us("--period-max", optarg, &p->period_max_us))
				return DLB_EXIT_BAD_INPUT;
			break;
		case OPT_PGRAN:
			if (parse_us("--period-gran", optarg, &p->period_gran_us))
				return DLB_EXIT_BAD_INPUT;
			if (!p->period_gran_us)
				return bad("--period-gran: '%s' is 0", optarg);
			break;
		case OPT_PDIST:
			if (!strcmp(optarg, "log"))
				p->period_dist = TSG_PERIOD_LOG;
			else if (!strcmp(optarg, "uniform"))
				p->period_dist = TSG_PERIOD_UNIFORM;
			else
				return bad("--period-dist: '%s' is neither log nor uniform", optarg);
			break;
		case OPT_DLRATIO:
			if (parse_deadline_ratio(optarg, p))
				return DLB_EXIT_BAD_INPUT;
			break;
		case OPT_RUNRATIO:
			if (dlb_parse_double(optarg, 0, 10, &p->run_ratio) < 0 || !(p->run_ratio > 0))
				return bad("--run-ratio: '%s' is not a number in (0, 10]", optarg);
			break;
		case 'd':
			if (dlb_parse_duration(optarg, NSEC_PER_SEC, &ns) < 0 || ns % NSEC_PER_SEC ||
			    !ns || ns / NSEC_PER_SEC > INT32_MAX)
				return bad("--duration: '%s' is not a whole number of seconds >= 1 "
					   "(rt-app's global.duration)", optarg);
			p->duration_s = (unsigned int)(ns / NSEC_PER_SEC);
			break;
		case 's':
			if (dlb_parse_ll(optarg, 0, INT64_MAX, &v) < 0)
				return bad("--seed: '%s' is not a number in 0..2^63-1", optarg);
			p->seed = (u64)v;
			break;
		case 'o':
			c->output = optarg;
			break;
		case 'c':
			if (dlb_parse_ll(optarg, 1, 1000000, &c->count) < 0)
				return bad("--count: '%s' is not a number in 1..1000000", optarg);
			break;
		case 'p':
			c->prefix = optarg;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			printf("dlb-tasksetgen %s\n", DLB_VERSION);
			return -1;
		case ':':
			return bad("%s needs a value", argv[optind - 1]);
		default:
			return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s'", argv[optind]);
	return check_combination(c);
}

int main(int argc, char **argv)
{
	struct cli c = { .count = 1 };
	char path[4096];
	long long i;
	int rc, width;

	tsg_params_init(&c.p);
	rc = parse_args(argc, argv, &c);
	if (rc)
		return rc < 0 ? DLB_EXIT_OK : rc;
	if (!c.prefix)
		return write_set(&c, &c.p, c.output);
	width = c.count > 1000 ? (int)floor(log10((double)(c.count - 1))) + 1 : 3;
	for (i = 0; i < c.count; i++) {
		struct tsg_params p = c.p;

		p.seed = c.p.seed + (u64)i;
		if (snprintf(path, sizeof(path), "%s-%0*lld.json", c.prefix, width, i) >=
		    (int)sizeof(path))
			return bad("--prefix: '%s' is too long", c.prefix);
		rc = write_set(&c, &p, path);
		if (rc)
			return rc;
	}
	return DLB_EXIT_OK;
}
