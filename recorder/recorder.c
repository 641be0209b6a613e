// SPDX-License-Identifier: GPL-2.0
/* The private tracefs instance: set up, stream or save, tear down. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "recorder.h"

const char *const rec_default_events[] = {
	"sched:sched_switch", "sched:sched_wakeup", "sched:sched_wakeup_new",
	"sched:sched_waking", "sched:sched_migrate_task", "sched:sched_stat_runtime",
	"sched:sched_process_exit", NULL,
};

/*
 * Interrupts, for the time deadline tasks could not use (docs/conformance.md,
 * "Unavailable time"): recorded where the kernel has them, skipped quietly
 * where not (irq_vectors is x86's: its local APIC timer and IPIs do not go
 * through irq_handler_*).  Measured on a 1 s edf-global-2cpu run on this
 * 2-CPU x86 host: 4 048 of them beside 33 900 sched events (+12 %).
 */
const char *const rec_irq_events[] = {
	"irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
	"irq_vectors:local_timer_entry", "irq_vectors:local_timer_exit",
	"irq_vectors:reschedule_entry", "irq_vectors:reschedule_exit",
	"irq_vectors:call_function_entry", "irq_vectors:call_function_exit",
	"irq_vectors:call_function_single_entry", "irq_vectors:call_function_single_exit",
	"irq_vectors:irq_work_entry", "irq_vectors:irq_work_exit", NULL,
};
_Static_assert(sizeof(rec_irq_events) / sizeof(rec_irq_events[0]) == REC_NR_IRQ_EVENTS + 1,
	       "REC_NR_IRQ_EVENTS: the events above");

struct rec {
	struct tracefs_instance *inst;
	char name[64];
	char tracefs[256];
	char marker[512];
	enum rec_format format;
	int pipe_fd;		/* text mode: the instance's trace_pipe */
	FILE *text;		/* text mode: trace.txt */
	int text_errno;		/* first write/close error of trace.txt, 0 if none */
	bool on;
	bool top_on;		/* we turned the top level on: turn it off again */
	bool want_top_on;
	bool stats_read;
	int nr_cpus;
	u64 lost[REC_MAX_CPUS];
	u64 lost_total;
	char warn[REC_MAX_WARN][320];	/* for main() to print: rec_warning() */
	int nr_warn, warn_read, warn_dropped;
	bool irq_on[REC_NR_IRQ_EVENTS];	/* rec_irq_events[i] is recorded */
};

static void rec_warn(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rec_warn(struct rec *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nr_warn == REC_MAX_WARN) {
		r->warn_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(r->warn[r->nr_warn++], sizeof(r->warn[0]), fmt, ap);
	va_end(ap);
}

const char *rec_warning(struct rec *r)
{
	if (r->warn_read < r->nr_warn)
		return r->warn[r->warn_read++];
	if (r->warn_dropped) {
		snprintf(r->warn[0], sizeof(r->warn[0]), "warning: %d more warnings not kept",
			 r->warn_dropped);
		r->nr_warn = r->warn_read = 1;
		r->warn_dropped = 0;
		return r->warn[0];
	}
	r->nr_warn = r->warn_read = 0;
	return NULL;
}

/* Is there an executable trace-cmd in $PATH (what execlp() will run)? */
static bool have_trace_cmd(void)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(file, sizeof(file), "%.*s/trace-cmd", end == p ? 1 : (int)(end - p),
			 end == p ? "." : p);
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

/* Remove dlbench-rec-PID instances whose recorder died without cleaning up. */
static void remove_stale(struct rec *r)
{
	struct tracefs_instance *inst;
	char **names = tracefs_instances("^" REC_NAME_PREFIX "[0-9]+$");
	long pid;
	int i;

	for (i = 0; names && names[i]; i++) {
		pid = atol(names[i] + strlen(REC_NAME_PREFIX));
		if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		tracefs_trace_off(inst);
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
		rec_warn(r, "removed stale instance %s (pid %ld is gone)", names[i], pid);
	}
	tracefs_list_free(names);
}

static int write_file(struct rec *r, const char *file, const char *val, struct dlb_err *err)
{
	if (tracefs_instance_file_write(r->inst, file, val) < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/instances/%s/%s: cannot write '%s'",
				   r->tracefs, r->name, file, val);
	return 0;
}

/* The clock must be one the kernel offers: "[local] global ... mono ...". */
static int set_clock(struct rec *r, const char *clock, struct dlb_err *err)
{
	char *avail = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	char *p;
	size_t n = strlen(clock);
	bool ok = false;

	for (p = avail; p && (p = strstr(p, clock)); p += n) {
		if ((p == avail || p[-1] == ' ' || p[-1] == '[') &&
		    (p[n] == ' ' || p[n] == ']' || p[n] == '\n' || !p[n]))
			ok = true;
	}
	free(avail);
	if (!ok)
		return dlb_err_set(err, DLB_EXIT_ENV, "trace clock '%s' is not offered by this kernel",
				   clock);
	if (write_file(r, "trace_clock", clock, err))
		return -1;
	/*
	 * Read it back: record.txt states this clock, and it is the one the
	 * analyzer believes (trace-cmd extract of an instance writes the top
	 * level's clock into trace.dat, not the instance's).
	 */
	avail = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	p = avail ? strchr(avail, '[') : NULL;
	ok = p && !strncmp(p + 1, clock, n) && p[1 + n] == ']';
	free(avail);
	if (!ok)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s/instances/%s/trace_clock: '%s' written, "
				   "another clock selected", r->tracefs, r->name, clock);
	return 0;
}

/* "^name$" so that sched_wakeup does not also enable sched_wakeup_new. */
static int enable_event(struct rec *r, const char *spec, bool required, struct dlb_err *err)
{
	char sys[64], ev[128], path[256];
	const char *colon = strchr(spec, ':');

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(sys) - 3)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "event '%s': want SYSTEM:EVENT", spec);
	/*
	 * One write to events/SYS/EVENT/enable; tracefs_event_enable() matches
	 * its regexes against every system and event directory, which costs
	 * tenths of a second per event in an emulated guest.  The regex path
	 * stays for what the plain one does not find.
	 */
	snprintf(path, sizeof(path), "events/%.*s/%s/enable", (int)(colon - spec), spec,
		 colon + 1);
	if (!strpbrk(spec, "^$*?[]\\.|+()") &&
	    tracefs_instance_file_write(r->inst, path, "1") > 0)
		return 0;
	snprintf(sys, sizeof(sys), "^%.*s$", (int)(colon - spec), spec);
	snprintf(ev, sizeof(ev), "^%s$", colon + 1);
	if (tracefs_event_enable(r->inst, sys, ev) == 0)
		return 0;
	if (required)
		return dlb_err_set(err, DLB_EXIT_ENV, "event %s: not available in %s", spec,
				   r->tracefs);
	rec_warn(r, "warning: event %s not available, not recorded", spec);
	return 0;
}

static int configure(struct rec *r, const struct rec_opts *o, struct dlb_err *err)
{
	char buf[32];
	int i;

	snprintf(buf, sizeof(buf), "%lu", o->buffer_kb);
	if (write_file(r, "buffer_size_kb", buf, err) ||
	    set_clock(r, o->clock ? o->clock : "mono", err))
		return -1;
	/* markers written to the instance's own trace_marker are recorded */
	tracefs_instance_file_write(r->inst, "options/markers", "1");
	if (o->copy_marker) {
		if (!tracefs_file_exists(r->inst, "options/copy_trace_marker"))
			rec_warn(r, "warning: no options/copy_trace_marker on this kernel: "
				 "markers must be written to %s", r->marker);
		else if (write_file(r, "options/copy_trace_marker", "1", err))
			return -1;
	}
	for (i = 0; rec_default_events[i]; i++)
		if (enable_event(r, rec_default_events[i], i == 0, err))
			return -1;
	/* one plain write each: the regex path costs tenths of a second in a guest */
	for (i = 0; !o->no_irq && rec_irq_events[i]; i++) {
		char path[256];
		const char *colon = strchr(rec_irq_events[i], ':');

		snprintf(path, sizeof(path), "events/%.*s/%s/enable",
			 (int)(colon - rec_irq_events[i]), rec_irq_events[i], colon + 1);
		r->irq_on[i] = tracefs_instance_file_write(r->inst, path, "1") > 0;
	}
	for (i = 0; i < o->nr_events; i++)
		if (enable_event(r, o->events[i], true, err))
			return -1;
	return 0;
}

struct rec *rec_create(const struct rec_opts *o, struct dlb_err *err)
{
	struct rec *r = calloc(1, sizeof(*r));
	const char *dir;

	if (!r) {
		dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	r->pipe_fd = -1;
	if (o->tracefs && tracefs_set_tracing_dir((char *)o->tracefs) < 0) {
		dlb_err_set(err, DLB_EXIT_ENV, "%s: not a tracefs", o->tracefs);
		goto fail;
	}
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !(dir = tracefs_tracing_dir())) {
		dlb_err_set(err, DLB_EXIT_ENV, "no tracefs: not mounted and cannot mount it");
		goto fail;
	}
	snprintf(r->tracefs, sizeof(r->tracefs), "%s", dir);
	if (o->instance)
		snprintf(r->name, sizeof(r->name), "%s", o->instance);
	else
		snprintf(r->name, sizeof(r->name), REC_NAME_PREFIX "%d", (int)getpid());
	remove_stale(r);
	if (tracefs_instance_exists(r->name)) {
		dlb_err_set(err, DLB_EXIT_ENV, "instance %s exists already (in use by another recorder?)",
			    r->name);
		goto fail;
	}
	r->inst = tracefs_instance_create(r->name);
	if (!r->inst) {
		dlb_err_set(err, DLB_EXIT_ENV, "cannot create instance %s under %s: %s", r->name,
			    r->tracefs, dlb_strerror(errno));
		goto fail;
	}
	snprintf(r->marker, sizeof(r->marker), "%s/instances/%s/trace_marker", r->tracefs, r->name);
	tracefs_trace_off(r->inst);
	r->format = o->format;
	r->want_top_on = o->top_on;
	if (r->format == REC_FMT_AUTO)
		r->format = have_trace_cmd() ? REC_FMT_DAT : REC_FMT_TEXT;
	if (configure(r, o, err))
		goto fail;
	r->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r->nr_cpus > REC_MAX_CPUS)
		r->nr_cpus = REC_MAX_CPUS;
	return r;
fail:
	rec_free(r);
	return NULL;
}

enum rec_format rec_format(const struct rec *r) { return r->format; }
const char *rec_instance_name(const struct rec *r) { return r->name; }
const char *rec_marker_path(const struct rec *r) { return r->marker; }
const char *rec_tracefs_dir(const struct rec *r) { return r->tracefs; }
int rec_nr_cpus(const struct rec *r) { return r->nr_cpus; }
bool rec_irq_event_on(const struct rec *r, int i) { return r->irq_on[i]; }
u64 rec_lost_events(const struct rec *r) { return r->lost_total; }

u64 rec_lost_cpu(const struct rec *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? r->lost[cpu] : 0;
}

int rec_start(struct rec *r, const char *out_dir, struct dlb_err *err)
{
	char path[4096];

	if (r->format == REC_FMT_TEXT) {
		snprintf(path, sizeof(path), "%s/trace.txt", out_dir);
		r->text = fopen(path, "w");
		if (!r->text)
			return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", path, dlb_strerror(errno));
		r->pipe_fd = tracefs_instance_file_open(r->inst, "trace_pipe",
							O_RDONLY | O_NONBLOCK);
		if (r->pipe_fd < 0)
			return dlb_err_set(err, DLB_EXIT_ENV, "%s/instances/%s/trace_pipe: cannot open",
					   r->tracefs, r->name);
	}
	/*
	 * rt-app 1.0 writes its markers to the top-level trace_marker, which
	 * fails (EBADF) while the top level is off, and rt-app then exits; the
	 * copy reaches our instance either way.  Restored in rec_stop().
	 */
	if (r->want_top_on && tracefs_trace_is_on(NULL) == 0) {
		if (tracefs_trace_on(NULL) < 0)
			return dlb_err_set(err, DLB_EXIT_ENV, "cannot turn top-level tracing on");
		r->top_on = true;
	}
	if (tracefs_trace_on(r->inst) < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "instance %s: cannot turn tracing on", r->name);
	r->on = true;
	return 0;
}

/* Copy what trace_pipe holds now; 1 if something was read. */
static int drain(struct rec *r, struct dlb_err *err)
{
	char buf[65536];
	ssize_t n;
	int got = 0;

	while ((n = read(r->pipe_fd, buf, sizeof(buf))) > 0) {
		got = 1;
		if (fwrite(buf, 1, (size_t)n, r->text) != (size_t)n) {
			if (!r->text_errno)
				r->text_errno = errno ? errno : EIO;
			return dlb_err_set(err, DLB_EXIT_ENV, "trace.txt: %s",
					   dlb_strerror(r->text_errno));
		}
	}
	return got;
}

int rec_pump(struct rec *r, int timeout_ms, struct dlb_err *err)
{
	if (r->pipe_fd < 0) {
		if (timeout_ms > 0)
			usleep((useconds_t)timeout_ms * 1000);
		return 0;
	}
	/*
	 * Sleep, then drain in one go: waking on every event (poll) would make
	 * our own wake-ups and writes most of what we record.
	 */
	if (timeout_ms > 0)
		usleep((useconds_t)timeout_ms * 1000);
	return drain(r, err) < 0 ? -1 : 0;
}

/* "overrun: N", "commit overrun: N", "dropped events: N" of each CPU. */
static void read_lost(struct rec *r)
{
	static const char *const keys[] = { "overrun:", "commit overrun:", "dropped events:" };
	char file[64], *s, *p;
	size_t k;
	int cpu;

	r->lost_total = 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		s = tracefs_instance_file_read(r->inst, file, NULL);
		r->lost[cpu] = 0;
		for (k = 0; s && k < sizeof(keys) / sizeof(keys[0]); k++) {
			p = strstr(s, keys[k]);
			/* "overrun:" must not match inside "commit overrun:" */
			if (p && k == 0 && p != s && p[-1] != '\n')
				p = strstr(p + 1, "\noverrun:");
			if (p)
				r->lost[cpu] += strtoull(strchr(p, ':') + 1, NULL, 10);
		}
		r->lost_total += r->lost[cpu];
		free(s);
	}
}

void rec_stop(struct rec *r)
{
	if (!r || !r->inst)
		return;
	if (r->on)
		tracefs_trace_off(r->inst);
	r->on = false;
	if (r->top_on)
		tracefs_trace_off(NULL);
	r->top_on = false;
	if (!r->stats_read) {
		read_lost(r);
		r->stats_read = true;
	}
	if (r->pipe_fd >= 0) {
		/* trace_pipe blocks nothing with O_NONBLOCK: EAGAIN ends the drain */
		drain(r, NULL);
		close(r->pipe_fd);
		r->pipe_fd = -1;
	}
	if (r->text) {
		/* buffered data reaches the disk here: ENOSPC may show only now */
		if (fclose(r->text) && !r->text_errno)
			r->text_errno = errno ? errno : EIO;
		r->text = NULL;
	}
}

/* `trace-cmd extract -B NAME -o OUT`, output to the log; 0 if OUT is non-empty. */
static int extract(struct rec *r, const char *out, const char *log)
{
	struct stat st;
	pid_t pid;
	int status, fd;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("trace-cmd", "trace-cmd", "extract", "-B", r->name, "-o", out, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return stat(out, &st) == 0 && st.st_size > 0 ? 0 : -1;
}

/* Fallback: the instance's `trace` file (the buffer as text, not consumed). */
static int dump_text(struct rec *r, const char *out, struct dlb_err *err)
{
	char buf[65536];
	ssize_t n;
	int in, fd;

	in = tracefs_instance_file_open(r->inst, "trace", O_RDONLY);
	if (in < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "instance %s: cannot read its trace", r->name);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		close(in);
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", out, dlb_strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	close(fd);
	return n < 0 ? dlb_err_set(err, DLB_EXIT_ENV, "%s: write error", out) : 0;
}

int rec_save(struct rec *r, const char *out_dir, const char **file, struct dlb_err *err)
{
	char out[4096], log[4096];

	rec_stop(r);
	if (r->format == REC_FMT_BUFFER) {
		/*
		 * Read once, after the run, all CPUs' events committed: merged in
		 * time order.  Streaming trace_pipe can emit an event after later
		 * ones of other CPUs when its CPU committed it late (a vCPU the
		 * host paused: seen under qemu as timestamps going backwards).
		 */
		snprintf(out, sizeof(out), "%s/trace.txt", out_dir);
		*file = "trace.txt";
		return dump_text(r, out, err);
	}
	if (r->format == REC_FMT_TEXT) {
		*file = "trace.txt";
		if (r->text_errno)
			return dlb_err_set(err, DLB_EXIT_ENV, "%s/trace.txt: %s", out_dir,
					   dlb_strerror(r->text_errno));
		return 0;
	}
	snprintf(out, sizeof(out), "%s/trace.dat", out_dir);
	snprintf(log, sizeof(log), "%s/record-extract.log", out_dir);
	if (extract(r, out, log) == 0) {
		*file = "trace.dat";
		return 0;
	}
	/* Detected, not assumed: trace-cmd may be missing or refuse here. */
	rec_warn(r, "trace-cmd extract failed (see %s): saving text instead", log);
	unlink(out);
	snprintf(out, sizeof(out), "%s/trace.txt", out_dir);
	r->format = REC_FMT_TEXT;
	*file = "trace.txt";
	return dump_text(r, out, err);
}

void rec_free(struct rec *r)
{
	if (!r)
		return;
	rec_stop(r);
	if (r->inst) {
		/* trace-cmd extract may have removed it already */
		if (tracefs_instance_exists(r->name))
			tracefs_instance_destroy(r->inst);
		tracefs_instance_free(r->inst);
	}
	free(r);
}

int rec_jiffies(const char *timer_list, u64 *jiffies, u64 *now)
{
	unsigned long long v;
	char line[256];
	bool have_now = false;
	FILE *f = fopen(timer_list, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!have_now && sscanf(line, "now at %llu nsecs", &v) == 1) {
			*now = v;
			have_now = true;
		} else if (have_now && sscanf(line, "jiffies: %llu", &v) == 1) {
			*jiffies = v;
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

unsigned int rec_tick_hz(u64 j0, u64 t0, u64 j1, u64 t1)
{
	static const unsigned int hz[] = { 100, 250, 300, 1000 };
	double rate;
	size_t i;

	if (dl_time_before(j1, j0) || dl_time_before(t1, t0) || t1 - t0 < 100 * NSEC_PER_MSEC)
		return 0;
	rate = (double)(j1 - j0) * (double)NSEC_PER_SEC / (double)(t1 - t0);
	for (i = 0; i < sizeof(hz) / sizeof(hz[0]); i++)
		if (rate >= 0.92 * hz[i] && rate <= 1.08 * hz[i])
			return hz[i];
	return 0;
}
