// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-record: record the scheduler events of one run into a private
 * tracefs instance, around a command or until signalled.  See usage().
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dlbench/dltime.h"
#include "dlbench/error.h"
#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "recorder.h"

#define MAX_READERS	16
#define KILL_GRACE_MS	5000	/* after SIGINT, before SIGKILL */

static volatile sig_atomic_t rec_signalled;

struct opts {
	struct rec_opts rec;
	const char *out_dir;
	u64 duration_ns;	/* 0: until the command ends or a signal */
	bool quiet;
	char **cmd;		/* NULL: no command */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlb-record [options] [--] [COMMAND [ARG...]]\n"
		"Record scheduler events into a private tracefs instance while COMMAND runs\n"
		"(or until SIGINT/SIGTERM or --duration), then save them.\n"
		"\n"
		"  -o, --output=DIR       folder for trace.dat or trace.txt and record.txt (default .)\n"
		"  -f, --format=FMT       dat (trace-cmd extract), text (trace_pipe stream),\n"
		"                         buffer (text of the whole buffer, read after the run:\n"
		"                         size -b for it) or auto (default: dat when trace-cmd\n"
		"                         is installed, else text)\n"
		"  -b, --buffer-kb=KB     ring buffer per CPU (default 8192)\n"
		"  -C, --clock=CLOCK      trace clock (default mono: matches CLOCK_MONOTONIC logs)\n"
		"  -d, --duration=TIME    stop after TIME (e.g. 5s); with COMMAND, SIGINT it then\n"
		"  -e, --event=SYS:NAME   record one more event (repeatable)\n"
		"  -i, --instance=NAME    instance name (default " REC_NAME_PREFIX "PID)\n"
		"  -n, --no-copy-marker   do not copy top-level trace_marker writes into the instance\n"
		"  -I, --no-irq           do not record interrupts (irq, softirq, x86 irq_vectors),\n"
		"                         which are recorded by default where the kernel has them\n"
		"  -t, --tracefs=DIR      tracefs mount point (default: found, or mounted)\n"
		"  -T, --top-on           top-level tracing_on 1 while recording, restored after\n"
		"                         (rt-app 1.0 exits when its marker writes fail)\n"
		"  -q, --quiet            print nothing but errors and lost events\n"
		"  -V, --version          print the version and exit\n"
		"  -h, --help             print this help and exit\n"
		"\n"
		"COMMAND gets DLB_TRACE_MARKER (the instance's trace_marker) and DLB_TRACE_INSTANCE\n"
		"in its environment.  Recording is refused when another process reads the top-level\n"
		"trace_pipe or trace_pipe_raw (it would steal events silently).\n"
		"\n"
		"Exit: COMMAND's non-zero exit code; else 4 when interrupted or events were lost,\n"
		"3 when recording is impossible or refused, 2 on bad options, 0 otherwise.\n");
}

/* Print "PROG: message" on stderr and return the exit code (main() returns it). */
#define fail(...) dlb_cli_fail("dlb-record", __VA_ARGS__)

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "output",		required_argument, NULL, 'o' },
		{ "format",		required_argument, NULL, 'f' },
		{ "buffer-kb",		required_argument, NULL, 'b' },
		{ "clock",		required_argument, NULL, 'C' },
		{ "duration",		required_argument, NULL, 'd' },
		{ "event",		required_argument, NULL, 'e' },
		{ "instance",		required_argument, NULL, 'i' },
		{ "no-copy-marker",	no_argument,	   NULL, 'n' },
		{ "no-irq",		no_argument,	   NULL, 'I' },
		{ "tracefs",		required_argument, NULL, 't' },
		{ "top-on",		no_argument,	   NULL, 'T' },
		{ "quiet",		no_argument,	   NULL, 'q' },
		{ "version",		no_argument,	   NULL, 'V' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int c;

	o->out_dir = ".";
	o->rec.clock = "mono";
	o->rec.buffer_kb = 8192;
	o->rec.copy_marker = true;
	while ((c = getopt_long(argc, argv, "+o:f:b:C:d:e:i:nIt:TqVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o->out_dir = optarg; break;
		case 'C': o->rec.clock = optarg; break;
		case 'i': o->rec.instance = optarg; break;
		case 'n': o->rec.copy_marker = false; break;
		case 'I': o->rec.no_irq = true; break;
		case 't': o->rec.tracefs = optarg; break;
		case 'T': o->rec.top_on = true; break;
		case 'q': o->quiet = true; break;
		case 'f':
			if (!strcmp(optarg, "dat"))
				o->rec.format = REC_FMT_DAT;
			else if (!strcmp(optarg, "text"))
				o->rec.format = REC_FMT_TEXT;
			else if (!strcmp(optarg, "buffer"))
				o->rec.format = REC_FMT_BUFFER;
			else if (!strcmp(optarg, "auto"))
				o->rec.format = REC_FMT_AUTO;
			else
				return fail(DLB_EXIT_BAD_INPUT,
					   "--format: '%s' is not dat, text, buffer or auto", optarg);
			break;
		case 'b':
			if (dlb_parse_ll(optarg, 4, 4LL << 20, &v))
				return fail(DLB_EXIT_BAD_INPUT, "--buffer-kb: '%s' is not a size "
					   "between 4 and 4194304 KB", optarg);
			o->rec.buffer_kb = (unsigned long)v;
			break;
		case 'd':
			if (dlb_parse_duration(optarg, NSEC_PER_SEC, &o->duration_ns) ||
			    !o->duration_ns)
				return fail(DLB_EXIT_BAD_INPUT, "--duration: '%s' is not a duration",
					   optarg);
			break;
		case 'e':
			if (o->rec.nr_events == REC_MAX_EVENTS)
				return fail(DLB_EXIT_BAD_INPUT, "--event: more than %d", REC_MAX_EVENTS);
			o->rec.events[o->rec.nr_events++] = optarg;
			break;
		case 'V':
			printf("dlb-record %s\n", DLB_VERSION);
			exit(DLB_EXIT_OK);
		case 'h':
			usage(stdout);
			exit(DLB_EXIT_OK);
		default:
			usage(stderr);
			return DLB_EXIT_BAD_INPUT;
		}
	}
	o->cmd = optind < argc ? argv + optind : NULL;
	if (!o->cmd && !o->duration_ns)
		fprintf(stderr, "dlb-record: no command: recording until SIGINT or SIGTERM\n");
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	rec_signalled = 1;
}

static void setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Refuse when someone consumes the top-level buffer: it steals events silently. */
/* What the recorder worked around, one "dlb-record: ..." line each. */
static void print_warnings(struct rec *r)
{
	const char *w;

	while ((w = rec_warning(r)))
		fprintf(stderr, "dlb-record: %s\n", w);
}

static int check_readers(const struct opts *o)
{
	struct rec_reader rd[MAX_READERS];
	struct dlb_err err;
	int n, i;

	n = rec_find_readers("/proc", getpid(), o->rec.instance, rd, MAX_READERS, &err);
	if (n < 0)
		return fail(err.code, "%s", err.msg);
	if (n == 0)
		return 0;
	fprintf(stderr, "dlb-record: refusing to record: %d process%s read%s the trace buffer "
		"and would steal events:\n", n, n > 1 ? "es" : "", n > 1 ? "" : "s");
	for (i = 0; i < n && i < MAX_READERS; i++)
		fprintf(stderr, "  pid %d (%s) holds %s\n", (int)rd[i].pid, rd[i].comm, rd[i].path);
	/* the last line names them too: it is the one scripts show */
	fprintf(stderr, "dlb-record: refused: stop pid");
	for (i = 0; i < n && i < MAX_READERS; i++)
		fprintf(stderr, " %d", (int)rd[i].pid);
	fprintf(stderr, " (trace buffer readers) and run again\n");
	return DLB_EXIT_ENV;
}

static pid_t spawn(struct rec *r, char **cmd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	setenv("DLB_TRACE_MARKER", rec_marker_path(r), 1);
	setenv("DLB_TRACE_INSTANCE", rec_instance_name(r), 1);
	execvp(cmd[0], cmd);
	fprintf(stderr, "dlb-record: %s: %s\n", cmd[0], dlb_strerror(errno));
	_exit(errno == ENOENT ? DLB_EXIT_BAD_INPUT : DLB_EXIT_ENV);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

struct run {
	pid_t child;
	int child_status;	/* exit code, 128+signal, -1 while running */
	bool interrupted;	/* we were signalled (SIGINT, SIGTERM, SIGHUP) */
	u64 start, end;
	/* the kernel's jiffies at the start and the end (rec_jiffies()): its tick */
	u64 jiffies[2], ktime[2];
	bool have_jiffies[2];
};

#define TIMER_LIST	"/proc/timer_list"

static void reap(struct run *st, int flags)
{
	int status;

	if (st->child <= 0 || st->child_status >= 0)
		return;
	if (waitpid(st->child, &status, flags) != st->child)
		return;
	st->child_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* SIGINT the command, give it time to clean up (its DL threads), then SIGKILL. */
static void stop_child(struct rec *r, struct run *st)
{
	u64 t0 = now_ns();

	if (st->child <= 0 || st->child_status >= 0)
		return;
	kill(st->child, SIGINT);
	while (st->child_status < 0 && now_ns() - t0 < KILL_GRACE_MS * NSEC_PER_MSEC) {
		rec_pump(r, 20, NULL);
		reap(st, WNOHANG);
	}
	if (st->child_status < 0) {
		fprintf(stderr, "dlb-record: command did not stop in %d ms: SIGKILL\n",
			KILL_GRACE_MS);
		kill(st->child, SIGKILL);
		reap(st, 0);
	}
}

static int run_loop(struct rec *r, const struct opts *o, struct run *st, struct dlb_err *err)
{
	st->have_jiffies[0] = !rec_jiffies(TIMER_LIST, &st->jiffies[0], &st->ktime[0]);
	st->start = now_ns();
	if (o->cmd)
		st->child = spawn(r, o->cmd);
	if (st->child < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "fork: %s", dlb_strerror(errno));
	for (;;) {
		if (rec_pump(r, 100, err))
			return -1;
		reap(st, WNOHANG);
		if (o->cmd && st->child_status >= 0)
			break;
		if (rec_signalled || (o->duration_ns && now_ns() - st->start >= o->duration_ns)) {
			st->interrupted = rec_signalled;
			break;
		}
	}
	stop_child(r, st);
	st->end = now_ns();
	st->have_jiffies[1] = !rec_jiffies(TIMER_LIST, &st->jiffies[1], &st->ktime[1]);
	return 0;
}

/*
 * record.txt, whole or not at all: written to record.txt.tmp and renamed.
 * @partial names a trace file left partially written (status is then not
 * complete), the flag the analyzer and a reader see.  -1 if it could not be
 * written (the message is printed).
 */
static int write_meta(const struct opts *o, struct rec *r, const struct run *st,
		      const char *file, const char *partial, const char *status)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int i, n, bad;
	unsigned int hz;

	snprintf(path, sizeof(path), "%s/record.txt", o->out_dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "dlb-record: %s: %s\n", tmp, dlb_strerror(errno));
		return -1;
	}
	fprintf(f, "# dlb-record %s: key=value, one per line\n", DLB_VERSION);
	fprintf(f, "tracefs=%s\ninstance=%s\nclock=%s\nbuffer_kb=%lu\n", rec_tracefs_dir(r),
		rec_instance_name(r), o->rec.clock, o->rec.buffer_kb);
	fprintf(f, "top_on=%d\n", o->rec.top_on);
	fprintf(f, "format=%s\nfile=%s\ncopy_trace_marker=%d\nevents=",
		rec_format(r) == REC_FMT_DAT ? "dat" : rec_format(r) == REC_FMT_BUFFER ? "buffer" :
		"text", file ? file : "",
		o->rec.copy_marker);
	for (i = 0; rec_default_events[i]; i++)
		fprintf(f, "%s%s", i ? "," : "", rec_default_events[i]);
	for (i = 0; i < o->rec.nr_events; i++)
		fprintf(f, ",%s", o->rec.events[i]);
	/* the interrupt events this kernel has (none: interrupt time not recorded) */
	fprintf(f, "\nirq_events=");
	for (i = 0, n = 0; rec_irq_events[i]; i++)
		if (rec_irq_event_on(r, i))
			fprintf(f, "%s%s", n++ ? "," : "", rec_irq_events[i]);
	fprintf(f, "\ncommand=");
	for (i = 0; o->cmd && o->cmd[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", o->cmd[i]);
	fprintf(f, "\ncommand_status=%d\ninterrupted=%d\nduration_ns=%llu\n",
		st->child_status, st->interrupted, (unsigned long long)(st->end - st->start));
	/* the traced kernel's CONFIG_HZ, measured: the analyzer's CPU stall check needs it */
	if (st->have_jiffies[0] && st->have_jiffies[1] &&
	    (hz = rec_tick_hz(st->jiffies[0], st->ktime[0], st->jiffies[1], st->ktime[1])))
		fprintf(f, "tick_hz=%u\n", hz);
	fprintf(f, "lost_events=%llu\n", (unsigned long long)rec_lost_events(r));
	for (i = 0; i < rec_nr_cpus(r); i++)
		fprintf(f, "lost_cpu%d=%llu\n", i, (unsigned long long)rec_lost_cpu(r, i));
	if (partial)
		fprintf(f, "partial_file=%s\n", partial);
	fprintf(f, "status=%s\n", status);
	bad = ferror(f);
	if (fclose(f))
		bad = 1;
	if (bad || rename(tmp, path)) {
		fprintf(stderr, "dlb-record: %s: %s\n", path, dlb_strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * After a failed write (full disk): the partial trace file is flagged by
 * record.txt (partial_file=, status not complete); if record.txt could not
 * be written either, nothing can flag it, so it is removed.
 */
static void flag_or_remove(const struct opts *o, const char *partial, int meta_rc)
{
	char path[PATH_MAX];

	if (!partial)
		return;
	snprintf(path, sizeof(path), "%s/%s", o->out_dir, partial);
	if (meta_rc == 0) {
		fprintf(stderr, "dlb-record: %s is incomplete (record.txt: partial_file=%s)\n",
			path, partial);
		return;
	}
	if (unlink(path) == 0)
		fprintf(stderr, "dlb-record: %s: removed, partially written and "
			"record.txt cannot flag it\n", path);
}


/*
 * The exit code: a failed command's own code first (the generator's codes
 * are the same enum); then incomplete data (signal, lost events, nothing
 * saved).  --duration cutting a command short is the plan, not an
 * interruption.  *@status: complete, incomplete or error.
 */
static int finish(struct rec *r, const struct run *st, int saved, const char **status)
{
	u64 lost = rec_lost_events(r);
	int i;

	if (lost) {
		fprintf(stderr, "dlb-record: %llu events lost by the ring buffer (",
			(unsigned long long)lost);
		for (i = 0; i < rec_nr_cpus(r); i++)
			fprintf(stderr, "%scpu%d %llu", i ? ", " : "", i,
				(unsigned long long)rec_lost_cpu(r, i));
		fprintf(stderr, "): raise --buffer-kb\n");
	}
	*status = "complete";
	if (st->child_status > 0 && st->child_status < 128 && !rec_signalled &&
	    st->child_status != DLB_EXIT_INCOMPLETE) {
		*status = "error";
		return st->child_status;
	}
	if (rec_signalled || lost || saved < 0 || st->child_status >= 128 ||
	    st->child_status == DLB_EXIT_INCOMPLETE) {
		*status = "incomplete";
		return DLB_EXIT_INCOMPLETE;
	}
	return DLB_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct run st = { .child = 0, .child_status = -1 };
	struct dlb_err err;
	struct rec *r;
	const char *file = NULL, *partial = NULL;
	const char *status;
	int rc, saved, code, meta_rc;

	memset(&o, 0, sizeof(o));
	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if (mkdir(o.out_dir, 0755) && errno != EEXIST)
		return fail(DLB_EXIT_ENV, "%s: %s", o.out_dir, dlb_strerror(errno));
	rc = check_readers(&o);
	if (rc)
		return rc;
	setup_signals();
	r = rec_create(&o.rec, &err);
	if (!r)
		return fail(err.code, "%s", err.msg);
	print_warnings(r);
	if (rec_start(r, o.out_dir, &err) || run_loop(r, &o, &st, &err)) {
		char txt[PATH_MAX];

		stop_child(r, &st);
		rec_stop(r);
		fprintf(stderr, "dlb-record: %s\n", err.msg);
		/* text mode: trace.txt was being written when the run failed */
		snprintf(txt, sizeof(txt), "%s/trace.txt", o.out_dir);
		partial = rec_format(r) == REC_FMT_TEXT && access(txt, F_OK) == 0 ?
			  "trace.txt" : NULL;
		flag_or_remove(&o, partial, write_meta(&o, r, &st, NULL, partial, "error"));
		rec_free(r);
		return err.code;
	}
	saved = rec_save(r, o.out_dir, &file, &err);
	print_warnings(r);
	if (saved < 0) {
		fprintf(stderr, "dlb-record: %s\n", err.msg);
		partial = file;
		file = NULL;
	}
	code = finish(r, &st, saved, &status);
	meta_rc = write_meta(&o, r, &st, file, partial, status);
	flag_or_remove(&o, partial, meta_rc);
	if (meta_rc && code == DLB_EXIT_OK)
		code = DLB_EXIT_ENV;
	if (!o.quiet)
		fprintf(stderr, "dlb-record: %s/%s (%s, %llu events lost)\n", o.out_dir,
			file ? file : "-", status,
			(unsigned long long)rec_lost_events(r));
	rec_free(r);
	return code;
}
