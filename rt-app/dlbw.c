// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's DL bandwidth accounting around a run (dlbw.h).
 *
 * Why: mainline admits a SCHED_DEADLINE task against its root domain's
 * dl_bw->total_bw.  A task that leaves SCHED_DEADLINE (or dies) before its
 * 0-lag time keeps its bandwidth counted until its inactive timer fires
 * (task_non_contending(), inactive_task_timer() in kernel/sched/deadline.c);
 * the timer then subtracts it from the root domain the task's CPU is in at
 * that moment.  A root-domain rebuild in between (a cpuset partition
 * removed, sched_load_balance restored) recomputes total_bw from the fair
 * servers and the tasks that are still SCHED_DEADLINE, without it, and the
 * late subtraction leaves the new domain short by that bandwidth, negative
 * on an otherwise idle machine.  From then on admission control admits
 * over-subscribed sets.  docs/kernel-findings.md has the measurements.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/dlparam.h"
#include "dlbench/exitcode.h"

#include "cpuset.h"
#include "dlbw.h"
#include "sched.h"

#define FAIR_DIR		"/sys/kernel/debug/sched/fair_server"
#define POLL_NS			(2 * NSEC_PER_MSEC)
#define READ_TRIES		5
/* SCHED_FLAG_SUGOV: schedutil's kthreads are DL without admitted bandwidth */
#define SCHED_FLAG_SUGOV	0x10000000ULL

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static void sleep_ns(u64 ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(ns % NSEC_PER_SEC) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- the kernel's numbers ---- */

/* Per CPU .dl_bw->total_bw from sched/debug; -1 (errno) if unreadable. */
static int read_totals(struct rtapp_dlbw_snap *s)
{
	FILE *f = fopen(RTAPP_DLBW_DEBUG, "r");
	char line[256];
	long long v;
	int cpu = -1, n;

	if (!f)
		return -1;
	s->nr_cpus = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "dl_rq[%d]:", &n) == 1) {
			cpu = n >= 0 && n < DLB_MAX_CPUS ? n : -1;
			continue;
		}
		if (cpu >= 0 && sscanf(line, " .dl_bw->total_bw : %lld", &v) == 1) {
			s->total[cpu] = v;
			if (cpu + 1 > s->nr_cpus)
				s->nr_cpus = cpu + 1;
			cpu = -1;
		}
	}
	fclose(f);
	if (!s->nr_cpus) {
		errno = ENODATA;
		return -1;
	}
	return 0;
}

/* The bandwidth of thread @tid if it is SCHED_DEADLINE (and admitted), else 0. */
static u64 task_dl_bw(int tid, struct dlb_cpumask *cpus)
{
	struct rtapp_sched_attr a;
	cpu_set_t set;
	long nr = rtapp_nr_sched_getattr();
	int c;

	memset(&a, 0, sizeof(a));
	if (nr < 0 || syscall(nr, tid, &a, sizeof(a), 0) || a.sched_policy != SCHED_DEADLINE ||
	    (a.sched_flags & SCHED_FLAG_SUGOV) || !a.sched_runtime)
		return 0;
	dlb_cpumask_clear(cpus);
	if (sched_getaffinity(tid, sizeof(set), &set)) {
		/* gone meanwhile: the caller's second scan sees it */
		return 0;
	}
	for (c = 0; c < CPU_SETSIZE && c < DLB_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			dlb_cpumask_set(cpus, (unsigned int)c);
	/* dl_se->dl_bw = to_ratio(dl_period, dl_runtime), as __setparam_dl() */
	return to_ratio(a.sched_period ? a.sched_period : a.sched_deadline, a.sched_runtime);
}

/* Every SCHED_DEADLINE thread on the machine, its bandwidth on each CPU it may use. */
static void scan_tasks(struct rtapp_dlbw_snap *s)
{
	char path[64];
	struct dirent *p, *t;
	struct dlb_cpumask cpus;
	DIR *proc, *task;
	unsigned int c;
	u64 bw;

	memset(s->tasks_bw, 0, sizeof(s->tasks_bw));
	s->nr_tasks = 0;
	s->all_tasks_bw = 0;
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task))) {
			if (t->d_name[0] < '1' || t->d_name[0] > '9')
				continue;
			bw = task_dl_bw(atoi(t->d_name), &cpus);
			if (!bw)
				continue;
			s->nr_tasks++;
			s->all_tasks_bw += bw;
			dlb_for_each_cpu(c, &cpus)
				s->tasks_bw[c] += bw;
		}
		closedir(task);
	}
	closedir(proc);
}

int rtapp_dlbw_read(const struct rtapp_dlbw *d, struct rtapp_dlbw_snap *s)
{
	u64 bw;
	int n, tries;

	(void)d;
	/* the totals between two scans of the tasks that agree: no task came or went */
	for (tries = 0; tries < READ_TRIES; tries++) {
		scan_tasks(s);
		bw = s->all_tasks_bw;
		n = s->nr_tasks;
		if (read_totals(s))
			return -1;
		scan_tasks(s);
		if (s->all_tasks_bw == bw && s->nr_tasks == n)
			return 0;
	}
	return 0;
}

/* What CPU @c's domain holds beyond its DL tasks: the fair servers, when consistent. */
static s64 residual(const struct rtapp_dlbw_snap *s, int c)
{
	return s->total[c] - (s64)s->tasks_bw[c];
}

static bool settled(const struct rtapp_dlbw_snap *a, const struct rtapp_dlbw_snap *target)
{
	int c;

	if (a->nr_cpus != target->nr_cpus)
		return false;
	for (c = 0; c < a->nr_cpus; c++)
		if (residual(a, c) != residual(target, c))
			return false;
	return true;
}

bool rtapp_dlbw_wait(const struct rtapp_dlbw *d, const struct rtapp_dlbw_snap *target,
		     struct rtapp_dlbw_snap *now, u64 max_ns, u64 *waited)
{
	u64 t0 = mono_ns();
	bool ok = false;

	for (;;) {
		if (rtapp_dlbw_read(d, now))
			break;
		if (settled(now, target)) {
			ok = true;
			break;
		}
		if (mono_ns() - t0 >= max_ns)
			break;
		sleep_ns(POLL_NS);
	}
	*waited = mono_ns() - t0;
	return ok;
}

/* ---- where it is, what it should be ---- */

/* debugfs, mounted by us if it is not (sched/debug lives there). */
static int open_debugfs(struct rtapp_dlbw *d)
{
	if (!access(RTAPP_DLBW_DEBUG, R_OK))
		return 0;
	if (errno == ENOENT && geteuid() == 0 && !access("/sys/kernel/debug", F_OK) &&
	    !mount("none", "/sys/kernel/debug", "debugfs", 0, NULL)) {
		d->mounted = true;
		if (!access(RTAPP_DLBW_DEBUG, R_OK))
			return 0;
	}
	snprintf(d->why, sizeof(d->why), "%s: %s%s", RTAPP_DLBW_DEBUG, dlb_strerror(errno),
		 geteuid() ? " (needs root)" : errno == ENOENT ?
		 " (no debugfs, or a kernel without it)" : "");
	return -1;
}

static int read_u64_at(const char *path, u64 *v)
{
	unsigned long long x;
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return -1;
	rc = fscanf(f, "%llu", &x) == 1 ? 0 : -1;
	fclose(f);
	if (!rc)
		*v = x;
	return rc;
}

/*
 * Each CPU's fair server bandwidth (6.12 and later reserve it as DL
 * bandwidth): from debugfs where the kernel lets us read it, else the
 * default 50 ms every 1 s, saying so.  No fair_server folder: a kernel
 * without fair servers (before 6.12), 0.
 */
static void read_fair(struct rtapp_dlbw *d, int nr_cpus)
{
	char rp[96], pp[96];
	u64 rt, per, def = to_ratio(NSEC_PER_SEC, 50 * NSEC_PER_MSEC);
	int c, unread = 0, err = 0;

	if (access(FAIR_DIR, F_OK)) {
		snprintf(d->fair_src, sizeof(d->fair_src), "none: no %s (a kernel without fair "
			 "servers)", FAIR_DIR);
		return;
	}
	for (c = 0; c < nr_cpus; c++) {
		snprintf(rp, sizeof(rp), FAIR_DIR "/cpu%d/runtime", c);
		snprintf(pp, sizeof(pp), FAIR_DIR "/cpu%d/period", c);
		if (read_u64_at(rp, &rt) || read_u64_at(pp, &per) || !per) {
			err = errno;
			unread++;
			d->fair_bw[c] = def;
			continue;
		}
		d->fair_bw[c] = to_ratio(per, rt);
	}
	if (unread)
		snprintf(d->fair_src, sizeof(d->fair_src), "assumed: the default 50 ms every 1 s "
			 "(%s/cpuN/{runtime,period} unreadable: %s)", FAIR_DIR,
			 err ? dlb_strerror(err) : "not a number");
	else
		snprintf(d->fair_src, sizeof(d->fair_src), "read from %s", FAIR_DIR);
}

/*
 * One root domain of every online CPU: load balancing on at the root
 * cpuset (or no cpuset hierarchy) and no isolated CPUs.  Otherwise the
 * domains' extent is not known here and only the sign is checked.
 */
static bool one_domain(void)
{
	char buf[64] = "";
	FILE *f;

	f = fopen("/sys/devices/system/cpu/isolated", "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && buf[0] != '\n' && buf[0])
			buf[0] = 'x';
		fclose(f);
		if (buf[0] == 'x')
			return false;
	}
	return rtapp_cpusets_root_balanced();
}

/* what repairs the accounting by hand, for the hierarchy mounted (v1 or v2) */
static const char *repair_hint(void)
{
	static char hint[PATH_MAX * 4 + 256];

	if (!hint[0])
		rtapp_cpusets_repair_hint(hint, sizeof(hint));
	return hint;
}

static s64 fair_sum(const struct rtapp_dlbw *d, int nr_cpus)
{
	s64 fair = 0;
	int c;

	for (c = 0; c < nr_cpus; c++)
		fair += (s64)d->fair_bw[c];
	return fair;
}

/*
 * The first CPU whose accounting is wrong, or -1; its expected value in
 * *want, -1 when negative.  With one root domain, each CPU's total_bw is
 * every CPU's fair server plus every DL task (__dl_add() per admission,
 * dl_server_apply_params() per CPU).
 */
static int inconsistent(const struct rtapp_dlbw *d, const struct rtapp_dlbw_snap *s, s64 *want)
{
	s64 fair = fair_sum(d, s->nr_cpus);
	int c;

	for (c = 0; c < s->nr_cpus; c++) {
		if (s->total[c] < 0) {
			*want = -1;
			return c;
		}
	}
	if (!d->single_domain)
		return -1;
	for (c = 0; c < s->nr_cpus; c++)
		if (residual(s, c) != fair) {
			*want = fair + (s64)s->tasks_bw[c];
			return c;
		}
	return -1;
}

/*
 * Not every kernel with fair servers counts them in total_bw: Debian's 6.12
 * has /sys/kernel/debug/sched/fair_server and a total_bw of 0 with no DL
 * task (measured under qemu, docs/guest.md); this 6.18 counts them.  A
 * single root domain whose every CPU holds exactly its DL tasks is that
 * kernel's consistent state: the fair servers count 0 here, and the
 * before/after invariant stays the check.
 */
static void fair_not_counted(struct rtapp_dlbw *d, const struct rtapp_dlbw_snap *s)
{
	size_t n = strlen(d->fair_src);
	int c;

	if (!d->single_domain || !fair_sum(d, s->nr_cpus))
		return;
	for (c = 0; c < s->nr_cpus; c++)
		if (residual(s, c) != 0)
			return;
	for (c = 0; c < s->nr_cpus; c++)
		d->fair_bw[c] = 0;
	snprintf(d->fair_src + n, sizeof(d->fair_src) - n, "; not counted in total_bw here");
}

int rtapp_dlbw_begin(struct rtapp_dlbw *d, struct dlb_err *err)
{
	struct rtapp_dlbw_snap target;
	struct dl_param_limits lim;
	u64 waited;
	s64 want;
	int c;

	if (open_debugfs(d))
		return 0;
	if (rtapp_dlbw_read(d, &d->before)) {
		snprintf(d->why, sizeof(d->why), "%s: no .dl_bw->total_bw read: %s",
			 RTAPP_DLBW_DEBUG, dlb_strerror(errno));
		return 0;
	}
	d->usable = true;
	read_fair(d, d->before.nr_cpus);
	d->single_domain = one_domain();
	fair_not_counted(d, &d->before);
	c = inconsistent(d, &d->before, &want);
	if (c < 0)
		return 0;
	if (want < 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "the kernel's SCHED_DEADLINE bandwidth "
				   "accounting is broken: CPU %d's root domain has dl_bw->total_bw "
				   "%lld (negative), so admission control would admit anything; "
				   "not measuring on it; %s", c, (long long)d->before.total[c],
				   repair_hint());
	/*
	 * More than expected may be a DL task of another process that has
	 * just exited: its bandwidth is released at its 0-lag time, at most
	 * a period later; the longest period the kernel allows bounds that.
	 */
	rtapp_sched_limits(&lim);
	memset(&target, 0, sizeof(target));
	target.nr_cpus = d->before.nr_cpus;
	for (c = 0; c < target.nr_cpus; c++)
		target.total[c] = fair_sum(d, target.nr_cpus);
	if (rtapp_dlbw_wait(d, &target, &d->before, lim.period_max + 100 * NSEC_PER_MSEC,
			    &waited))
		return 0;
	c = inconsistent(d, &d->before, &want);
	if (c < 0)
		return 0;
	return dlb_err_set(err, DLB_EXIT_ENV, "the kernel's SCHED_DEADLINE bandwidth accounting "
			   "is inconsistent: CPU %d's root domain has dl_bw->total_bw %lld, not "
			   "%lld (%d CPUs' fair servers at %llu each, %s, plus %d DL tasks' %llu); "
			   "not measuring on it; %s", c, (long long)d->before.total[c],
			   (long long)want, d->before.nr_cpus,
			   (unsigned long long)d->fair_bw[c], d->fair_src, d->before.nr_tasks,
			   (unsigned long long)d->before.tasks_bw[c], repair_hint());
}

/* ---- after ---- */

static void fill_cpus(const struct rtapp_dlbw *d, struct dlb_summary_dlbw *out)
{
	int c;

	out->cpus = calloc((size_t)d->before.nr_cpus, sizeof(*out->cpus));
	if (!out->cpus)
		return;
	out->nr_cpus = (size_t)d->before.nr_cpus;
	for (c = 0; c < d->before.nr_cpus; c++) {
		out->cpus[c].cpu = c;
		out->cpus[c].before = d->before.total[c];
		out->cpus[c].after = d->after.total[c];
		out->cpus[c].repaired = d->after.total[c];
	}
}

/* The first CPU whose accounting changed, or -1. */
static int changed(const struct rtapp_dlbw_snap *before, const struct rtapp_dlbw_snap *after)
{
	int c;

	for (c = 0; c < before->nr_cpus; c++)
		if (residual(after, c) != residual(before, c))
			return c;
	return -1;
}

/* The root-domain rebuild that puts total_bw back, then a reading of its result. */
static void repair(struct rtapp_dlbw *d, struct dlb_summary_dlbw *out, u64 max_ns)
{
	char why[160];
	size_t c;
	u64 waited;
	int bad;

	if (rtapp_cpusets_rebuild(why, sizeof(why))) {
		snprintf(out->repair, sizeof(out->repair), "not repaired: %s; %s", why,
			 repair_hint());
		return;
	}
	rtapp_dlbw_wait(d, &d->before, &d->repaired, max_ns, &waited);
	for (c = 0; c < out->nr_cpus; c++)
		out->cpus[c].repaired = d->repaired.total[c];
	bad = changed(&d->before, &d->repaired);
	if (bad < 0)
		snprintf(out->repair, sizeof(out->repair), "repaired: root domains rebuilt (%s), "
			 "total_bw back to %lld", why, (long long)d->repaired.total[0]);
	else
		snprintf(out->repair, sizeof(out->repair), "not repaired: root domains rebuilt "
			 "(%s), CPU %d's total_bw still %lld; %s", why, bad,
			 (long long)d->repaired.total[bad], repair_hint());
}

void rtapp_dlbw_end(struct rtapp_dlbw *d, u64 max_ns, bool released, bool do_repair,
		    struct dlb_summary_dlbw *out)
{
	struct utsname u;
	u64 t0 = mono_ns();
	int c;

	if (!uname(&u))
		snprintf(out->kernel, sizeof(out->kernel), "%s", u.release);
	if (!d->usable) {
		out->status = DLB_DLBW_NOT_CHECKED;
		snprintf(out->detail, sizeof(out->detail), "%s", d->why);
		return;
	}
	out->fair_bw = d->fair_bw[0];
	snprintf(out->fair_source, sizeof(out->fair_source), "%s", d->fair_src);
	out->other_tasks_before = d->before.nr_tasks;
	out->other_bw_before = d->before.all_tasks_bw;
	/*
	 * A rebuild puts total_bw back to the fair servers at once; a release
	 * still pending subtracts from it later.  Unless the release was seen
	 * to happen, the whole bound is waited before the accounting is read.
	 */
	if (!released)
		sleep_ns(max_ns);
	/*
	 * Then poll until it settles: at once when it has; a pending release
	 * shows as an excess that goes away.  At least 1 s: on a loaded machine
	 * one reading of sched/debug took 50 ms, and another user's DL task
	 * that is dying is counted in total_bw but no longer listed.
	 */
	rtapp_dlbw_wait(d, &d->before, &d->after, max_ns > NSEC_PER_SEC ? max_ns : NSEC_PER_SEC,
			&out->settle_ns);
	out->settle_ns = mono_ns() - t0;
	out->other_tasks_after = d->after.nr_tasks;
	out->other_bw_after = d->after.all_tasks_bw;
	fill_cpus(d, out);
	if (d->after.nr_cpus != d->before.nr_cpus) {
		out->status = DLB_DLBW_NOT_CHECKED;
		snprintf(out->detail, sizeof(out->detail), "%d CPUs in sched/debug before the run, "
			 "%d after (CPU hotplug?)", d->before.nr_cpus, d->after.nr_cpus);
		return;
	}
	c = changed(&d->before, &d->after);
	if (c < 0) {
		out->status = DLB_DLBW_OK;
		return;
	}
	out->status = DLB_DLBW_FINDING;
	snprintf(out->detail, sizeof(out->detail), "the run left the kernel's DL bandwidth "
		 "accounting changed: CPU %d's root domain dl_bw->total_bw %lld before, %lld "
		 "after (%+.3f CPU) %.1f ms after the run's threads were gone", c,
		 (long long)d->before.total[c], (long long)d->after.total[c],
		 dl_bw_to_double((u64)llabs(residual(&d->after, c) - residual(&d->before, c))) *
		 (residual(&d->after, c) < residual(&d->before, c) ? -1 : 1),
		 (double)out->settle_ns / 1e6);
	if (do_repair)
		repair(d, out, max_ns);
}

void rtapp_dlbw_close(struct rtapp_dlbw *d)
{
	if (d->mounted && !umount("/sys/kernel/debug"))
		d->mounted = false;
}

bool rtapp_dlbw_wait_stale(const struct dlb_cpumask *sets, int n, u64 max_ns)
{
	struct rtapp_dlbw *d = calloc(1, sizeof(*d));
	struct rtapp_dlbw_snap *now = d ? calloc(1, sizeof(*now)) : NULL;
	u64 t0 = mono_ns(), fair;
	unsigned int c, k;
	bool ok = false;
	int i;

	if (!now || open_debugfs(d))
		goto out;
	if (rtapp_dlbw_read(d, now))
		goto out;
	read_fair(d, now->nr_cpus);
	for (;;) {
		ok = true;
		for (i = 0; i < n && ok; i++) {
			fair = 0;
			dlb_for_each_cpu(k, &sets[i])
				fair += d->fair_bw[k];
			dlb_for_each_cpu(c, &sets[i])
				if ((int)c < now->nr_cpus && residual(now, (int)c) > (s64)fair)
					ok = false;
		}
		if (ok || mono_ns() - t0 >= max_ns || rtapp_dlbw_read(d, now))
			break;
		sleep_ns(POLL_NS);
	}
out:
	if (d)
		rtapp_dlbw_close(d);
	free(now);
	free(d);
	return ok;
}
