// SPDX-License-Identifier: GPL-2.0
/*
 * Exclusive cpuset partitions for pinned SCHED_DEADLINE tasks (cpuset.h).
 *
 * Why: mainline refuses to restrict a DL task's affinity below its root
 * domain (EPERM): global EDF admission assumes the task may run on every
 * CPU of the domain.  A root domain smaller than the machine exists only
 * when cpusets split it: exclusive children and load balancing off at the
 * root (cgroup v1), or cpuset.cpus.partition=root (cgroup v2).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "cgroup.h"
#include "cpuset.h"

/*
 * Every task's and phase's cpus within CPUs 0..n-1, or the first CPU
 * outside, named with @beyond (what the bound is).
 */
static int cpus_within(const struct workload *wl, int n, const char *beyond,
		       struct dlb_err *err)
{
	unsigned int cpu;
	size_t i, p;

	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		cpu = t->has_cpus ? dlb_cpumask_next(&t->cpus, (unsigned int)n) : DLB_MAX_CPUS;
		if (cpu < DLB_MAX_CPUS)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': cpus names CPU %u, "
					   "%s", t->name, cpu, beyond);
		/* a phase's own cpus replace the task's while it runs: the same bound */
		for (p = 0; p < t->nr_phases; p++) {
			if (!t->phases[p].has_cpus)
				continue;
			cpu = dlb_cpumask_next(&t->phases[p].cpus, (unsigned int)n);
			if (cpu < DLB_MAX_CPUS)
				return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s' phase '%s': "
						   "cpus names CPU %u, %s", t->name,
						   t->phases[p].name, cpu, beyond);
		}
	}
	return 0;
}

int rtapp_cpus_limit(struct workload *wl, int n, struct dlb_err *err)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct dlb_cpumask run;
	char beyond[96];
	unsigned int cpu;
	size_t i;

	/* CPUs 0..N-1: the same N on every run of a machine, so runs compare */
	if (n < 1 || n > online)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "--cpus %d: the kernel backend runs "
				   "on CPUs 0..N-1 of this machine's %ld online CPUs: give N in "
				   "1..%ld, or simulate %d CPUs with --backend reference", n, online,
				   online, n);
	/* the whole machine: nothing to restrict, no partition to make */
	if (n < online) {
		dlb_cpumask_clear(&run);
		for (cpu = 0; cpu < (unsigned int)n; cpu++)
			dlb_cpumask_set(&run, cpu);
		for (i = 0; i < wl->nr_tasks; i++)
			if (!wl->tasks[i].has_cpus) {
				wl->tasks[i].cpus = run;
				wl->tasks[i].has_cpus = true;
			}
	}
	snprintf(beyond, sizeof(beyond), "outside the run's CPUs 0..%d (--cpus %d)", n - 1, n);
	return cpus_within(wl, n, beyond, err);
}

int rtapp_cpus_online(const struct workload *wl, struct dlb_err *err)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char beyond[192];

	snprintf(beyond, sizeof(beyond), "but this machine has %ld online CPUs (0..%ld): run it "
		 "where there are more (a guest: docs/guest.md), or simulate them with "
		 "--backend reference", online, online - 1);
	return cpus_within(wl, (int)online, beyond, err);
}

int rtapp_cpus_self(int n)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &set);
	/* not sched_setaffinity(): the reference model linked in has one of that name */
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

bool rtapp_cpusets_needed(const struct workload *wl)
{
	size_t i;

	for (i = 0; i < wl->nr_tasks; i++)
		if (wl->tasks[i].has_cpus && wl->tasks[i].policy == WL_POLICY_DEADLINE)
			return true;
	return false;
}

/* The file a thread id is written to, to move that one thread. */
static const char *threads_file(const struct rtapp_cpusets *cs)
{
	return cs->v2 ? "cgroup.threads" : "tasks";
}

/* The cpuset hierarchy: a v1 mount with the cpuset option, else v2 with cpuset. */
static int find_root(struct rtapp_cpusets *cs)
{
	return rtapp_cgroup_find("cpuset", cs->root, sizeof(cs->root), &cs->v2);
}

static void mask_to_list(const struct dlb_cpumask *m, char *buf, size_t size)
{
	unsigned int cpu;
	size_t len = 0;

	buf[0] = '\0';
	dlb_for_each_cpu(cpu, m)
		len += (size_t)snprintf(buf + len, size > len ? size - len : 0, "%s%u",
					len ? "," : "", cpu);
}

static bool mask_equal(const struct dlb_cpumask *a, const struct dlb_cpumask *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static bool mask_intersects(const struct dlb_cpumask *a, const struct dlb_cpumask *b)
{
	size_t i;

	for (i = 0; i < DLB_MAX_CPUS / 64; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

/*
 * One partition per distinct CPU set of the DL tasks.  Sets must be equal
 * or disjoint (partitions cannot overlap), and every DL task must be
 * pinned: an unpinned DL task would span two root domains, which the
 * kernel's per-domain admission cannot account.
 */
static int plan_sets(struct rtapp_cpusets *cs, const struct workload *wl, struct dlb_err *err)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct dlb_cpumask used;
	size_t i;
	int k;

	dlb_cpumask_clear(&used);
	for (i = 0; i < wl->nr_tasks; i++) {
		const struct wl_task *t = &wl->tasks[i];

		if (t->policy != WL_POLICY_DEADLINE)
			continue;
		if (!t->has_cpus)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': SCHED_DEADLINE "
					   "without cpus while other DL tasks are pinned: pin every "
					   "DL task (each set becomes its own root domain)", t->name);
		if (dlb_cpumask_next(&t->cpus, (unsigned int)ncpu) < DLB_MAX_CPUS)
			return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': cpus names a CPU "
					   "that is not online (%ld online)", t->name, ncpu);
		for (k = 0; k < cs->nr; k++) {
			if (mask_equal(&cs->set[k].cpus, &t->cpus))
				break;
			if (mask_intersects(&cs->set[k].cpus, &t->cpus))
				return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s': its cpus "
						   "overlap another DL task's without being equal: "
						   "root domains cannot overlap", t->name);
		}
		if (k == cs->nr) {
			if (cs->nr == RTAPP_CPUSETS_MAX - 1)
				return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "more than %d distinct "
						   "cpus sets", RTAPP_CPUSETS_MAX - 1);
			cs->set[cs->nr++].cpus = t->cpus;
		}
		for (k = 0; k < DLB_MAX_CPUS / 64; k++)
			used.bits[k] |= t->cpus.bits[k];
	}
	/* the CPUs left over form one more domain, so they keep balancing */
	dlb_cpumask_clear(&cs->set[cs->nr].cpus);
	for (k = 0; k < ncpu; k++)
		if (!dlb_cpumask_test(&used, (unsigned int)k))
			dlb_cpumask_set(&cs->set[cs->nr].cpus, (unsigned int)k);
	if (dlb_cpumask_weight(&cs->set[cs->nr].cpus))
		cs->nr++;
	return 0;
}

/*
 * v2: a threaded child (its threads come one by one through cgroup.threads
 * from the root, their threaded domain) made a partition root.  The kernel
 * says in cpuset.cpus.partition whether it took: "root", or "root invalid
 * (why)" (CPUs a sibling holds, every CPU taken from the root...).
 */
static int make_partition(const struct rtapp_cpuset *s, const char *cpus, struct dlb_err *err)
{
	char prs[256];

	if (rtapp_cgroup_write(s->path, "cgroup.type", "threaded") ||
	    rtapp_cgroup_write(s->path, "cpuset.cpus", cpus))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cannot give it cpus %s: %s",
				   s->path, cpus, dlb_strerror(errno));
	if (rtapp_cgroup_write(s->path, "cpuset.cpus.partition", "root") ||
	    rtapp_cgroup_read(s->path, "cpuset.cpus.partition", prs, sizeof(prs)))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cannot make cpus %s a partition: "
				   "%s (another partition holds them?)", s->path, cpus,
				   dlb_strerror(errno));
	if (strcmp(prs, "root"))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cpus %s refused as a partition: "
				   "cpuset.cpus.partition reads '%s'", s->path, cpus, prs);
	return 0;
}

static int make_set(struct rtapp_cpusets *cs, int k, const char *mems, struct dlb_err *err)
{
	struct rtapp_cpuset *s = &cs->set[k];
	char cpus[DLB_MAX_CPUS * 5];

	/* the owner's pid and the root's load balancing before (v1; 0 on v2,
	 * which has none): what a later run needs to clean up after a SIGKILL
	 * (rtapp_cpusets_reap) */
	snprintf(s->path, sizeof(s->path), "%s/dlbench-%d-lb%d-%d", cs->root, (int)getpid(),
		 cs->old_load_balance > 0 ? 1 : 0, k);
	if (mkdir(s->path, 0755))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: %s", s->path, dlb_strerror(errno));
	s->created = true;
	mask_to_list(&s->cpus, cpus, sizeof(cpus));
	if (cs->v2)
		return make_partition(s, cpus, err);
	if (rtapp_cgroup_write(s->path, "cpuset.cpus", cpus) ||
	    rtapp_cgroup_write(s->path, "cpuset.mems", mems) ||
	    rtapp_cgroup_write(s->path, "cpuset.cpu_exclusive", "1"))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cannot make cpus %s exclusive: "
				   "%s (another exclusive cpuset holds them?)", s->path, cpus,
				   dlb_strerror(errno));
	return 0;
}

/* The cgroup v2 path of this process ("/" for the root); -1 if unknown. */
static int own_cgroup(char *buf, size_t size)
{
	char line[PATH_MAX + 8];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", line + 3);
			rc = 0;
		}
	fclose(f);
	return rc;
}

/*
 * cgroup v2: each set but the last becomes a partition below the root; the
 * last (the CPUs left over, or the last DL set when none are) stays the
 * root's own partition, which must keep a CPU for the tasks it holds.  The
 * root's load balancing is not touched (v2 has none: the partitions are
 * the root domains).
 */
static int create_v2(struct rtapp_cpusets *cs, struct dlb_err *err)
{
	char ctl[512], own[PATH_MAX];
	int k;

	if (rtapp_cgroup_read(cs->root, "cgroup.subtree_control", ctl, sizeof(ctl)) ||
	    !strstr(ctl, "cpuset"))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpus on a SCHED_DEADLINE task needs a cpuset "
				   "partition, and the cpuset controller is not enabled below the "
				   "cgroup v2 root (echo +cpuset > %s/cgroup.subtree_control)",
				   cs->root);
	/* threads move one by one only inside their threaded domain: the root's */
	if (own_cgroup(own, sizeof(own)) || strcmp(own, "/"))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpus on a SCHED_DEADLINE task: on cgroup v2 "
				   "the run's threads join their partitions from the root cgroup, "
				   "and dlb-rtapp runs in '%s' (echo $$ > %s/cgroup.procs first)",
				   own, cs->root);
	cs->active = true;
	snprintf(cs->set[cs->nr - 1].path, sizeof(cs->set[0].path), "%s", cs->root);
	for (k = 0; k < cs->nr - 1; k++)
		if (make_set(cs, k, NULL, err)) {
			rtapp_cpusets_destroy(cs);
			return -1;
		}
	return 0;
}

int rtapp_cpusets_create(struct rtapp_cpusets *cs, const struct workload *wl,
			 struct dlb_err *err)
{
	char mems[256], lb[16];
	int k;

	memset(cs, 0, sizeof(*cs));
	cs->old_load_balance = -1;
	if (geteuid() != 0)
		return dlb_err_set(err, DLB_EXIT_ENV, "cpus on a SCHED_DEADLINE task: the kernel "
				   "allows it only inside an exclusive cpuset partition, and "
				   "creating one needs root; drop cpus or use --backend reference");
	if (find_root(cs))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpus on a SCHED_DEADLINE task needs an "
				   "exclusive cpuset partition, and no cpuset cgroup is mounted");
	if (plan_sets(cs, wl, err))
		return -1;
	if (cs->v2)
		return create_v2(cs, err);
	if (rtapp_cgroup_read(cs->root, "cpuset.mems", mems, sizeof(mems)) ||
	    rtapp_cgroup_read(cs->root, "cpuset.sched_load_balance", lb, sizeof(lb)))
		return dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cannot read: %s", cs->root,
				   dlb_strerror(errno));
	cs->active = true;
	/* only restored by destroy once the write below is done */
	cs->old_load_balance = atoi(lb);
	for (k = 0; k < cs->nr; k++)
		if (make_set(cs, k, mems, err)) {
			cs->old_load_balance = -1;
			goto fail;
		}
	/* only this write splits the root domain (FACTS.md) */
	if (rtapp_cgroup_write(cs->root, "cpuset.sched_load_balance", "0")) {
		cs->old_load_balance = -1;
		dlb_err_set(err, DLB_EXIT_ENV, "cpuset %s: cannot turn load balancing off: %s",
			    cs->root, dlb_strerror(errno));
		goto fail;
	}
	return 0;
fail:
	rtapp_cpusets_destroy(cs);
	return -1;
}

int rtapp_cpusets_join(struct rtapp_cpusets *cs, const struct dlb_cpumask *cpus, int tid)
{
	char buf[32];
	int k;

	for (k = 0; k < cs->nr; k++) {
		if (!mask_equal(&cs->set[k].cpus, cpus))
			continue;
		/* v2: the root's own set; the thread is there, its affinity is the
		 * root's CPUs but may be wider if it was set before the split */
		if (cs->v2 && k == cs->nr - 1) {
			cpu_set_t set;
			unsigned int cpu;

			CPU_ZERO(&set);
			dlb_for_each_cpu(cpu, cpus)
				if (cpu < CPU_SETSIZE)
					CPU_SET(cpu, &set);
			/* the syscall: the reference model linked in has a sched_setaffinity */
			return syscall(SYS_sched_setaffinity, tid, sizeof(set), &set) ? errno : 0;
		}
		snprintf(buf, sizeof(buf), "%d", tid);
		return rtapp_cgroup_write(cs->set[k].path, threads_file(cs), buf) ? errno : 0;
	}
	return ENOENT;
}

/* rmdir @dir after moving what it holds to the root; 0 or -1 (errno) */
static int remove_set(const struct rtapp_cpusets *cs, const char *dir)
{
	return rtapp_cgroup_remove(dir, threads_file(cs), cs->root);
}

void rtapp_cpusets_destroy(struct rtapp_cpusets *cs)
{
	int k;

	if (!cs->active)
		return;
	for (k = cs->nr - 1; k >= 0; k--) {
		if (!cs->set[k].created)
			continue;
		remove_set(cs, cs->set[k].path);
		cs->set[k].created = false;
	}
	if (cs->old_load_balance >= 0)
		rtapp_cgroup_write(cs->root, "cpuset.sched_load_balance", cs->old_load_balance ? "1" : "0");
	cs->old_load_balance = -1;
	cs->active = false;
}

/*
 * A run's cpuset, dlbench-PID-lbV-K: 1 if PID is gone, 0 if it is alive (or
 * a reused pid: then it is left alone), -1 if @name is not one.
 */
static int run_set(const char *name, int *pid, int *lb)
{
	int k;

	if (sscanf(name, "dlbench-%d-lb%d-%d", pid, lb, &k) != 3 || *pid <= 0)
		return -1;
	return kill(*pid, 0) && errno == ESRCH;
}

/* The cpuset root (v1 or v2), opened for reading its children; NULL if not root or none. */
static DIR *open_root(struct rtapp_cpusets *cs)
{
	memset(cs, 0, sizeof(*cs));
	if (geteuid() != 0 || find_root(cs))
		return NULL;
	return opendir(cs->root);
}

int rtapp_cpusets_reap(char *msg, size_t size)
{
	struct rtapp_cpusets cs;
	int pid, lb, dead, restore = -1, removed = 0, live = 0, failed = 0;
	char path[PATH_MAX + 256], cur[16];
	size_t len = 0;
	struct dirent *de;
	DIR *d;

	msg[0] = '\0';
	d = open_root(&cs);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		dead = run_set(de->d_name, &pid, &lb);
		if (dead < 0)
			continue;
		if (!dead) {
			live++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", cs.root, de->d_name);
		if (remove_set(&cs, path)) {
			failed++;
			len += (size_t)snprintf(msg + len, size > len ? size - len : 0,
						"%scannot remove stale cpuset %s: %s",
						len ? "; " : "", path, dlb_strerror(errno));
			continue;
		}
		removed++;
		if (lb > restore)
			restore = lb;
		len += (size_t)snprintf(msg + len, size > len ? size - len : 0,
					"%sremoved stale cpuset %s (pid %d is gone)",
					len ? "; " : "", path, pid);
	}
	closedir(d);
	/* the dead run had turned the root's load balancing off (v1): undo it
	 * unless a live run still needs it off */
	if (removed && !live && !failed && restore > 0 && !cs.v2 &&
	    !rtapp_cgroup_read(cs.root, "cpuset.sched_load_balance", cur, sizeof(cur)) &&
	    atoi(cur) == 0 && !rtapp_cgroup_write(cs.root, "cpuset.sched_load_balance", "1"))
		len += (size_t)snprintf(msg + len, size > len ? size - len : 0,
					"; restored %s/cpuset.sched_load_balance to 1", cs.root);
	return failed ? -1 : removed;
}

/* A v2 cgroup below @dir (depth @depth) that is a partition root: it splits a domain. */
static bool v2_partition_below(const char *dir, int depth)
{
	char path[PATH_MAX], val[64];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (depth > 8)
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (!rtapp_cgroup_read(path, "cpuset.cpus.partition", val, sizeof(val)) &&
		    (!strncmp(val, "root", 4) || !strncmp(val, "isolated", 8)))
			found = true;
		else
			found = v2_partition_below(path, depth + 1);
	}
	closedir(d);
	return found;
}

bool rtapp_cpusets_root_balanced(void)
{
	struct rtapp_cpusets cs;
	char lb[16];

	memset(&cs, 0, sizeof(cs));
	if (find_root(&cs))
		return true;	/* no cpusets: nothing splits the root domain */
	if (cs.v2)
		return !v2_partition_below(cs.root, 0);
	return !rtapp_cgroup_read(cs.root, "cpuset.sched_load_balance", lb, sizeof(lb)) && atoi(lb) == 1;
}

/* A live run's partition (dlbench-PID-...), whose root domains a rebuild would disturb. */
static bool live_partition(const char *root)
{
	struct dirent *de;
	bool live = false;
	int pid, lb;
	DIR *d = opendir(root);

	if (!d)
		return false;
	while (!live && (de = readdir(d)))
		if (!run_set(de->d_name, &pid, &lb) && pid != (int)getpid())
			live = true;
	closedir(d);
	return live;
}

/*
 * v2 has no sched_load_balance: a partition of the last online CPU made and
 * removed rebuilds the root domains twice (named as a run's set, index
 * RTAPP_CPUSETS_MAX, so that a run killed in between has it reaped).
 */
static int rebuild_v2(const struct rtapp_cpusets *cs, char *msg, size_t size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char path[PATH_MAX + 64], cpu[24], prs[64] = "";
	int rc = 0;

	if (ncpu < 2)
		return snprintf(msg, size, "one CPU: the root partition cannot give it away"), -1;
	snprintf(path, sizeof(path), "%s/dlbench-%d-lb0-%d", cs->root, (int)getpid(),
		 RTAPP_CPUSETS_MAX);
	snprintf(cpu, sizeof(cpu), "%ld", ncpu - 1);
	if (mkdir(path, 0755))
		return snprintf(msg, size, "%s: %s", path, dlb_strerror(errno)), -1;
	if (rtapp_cgroup_write(path, "cpuset.cpus", cpu) ||
	    rtapp_cgroup_write(path, "cpuset.cpus.partition", "root") ||
	    rtapp_cgroup_read(path, "cpuset.cpus.partition", prs, sizeof(prs)) || strcmp(prs, "root")) {
		snprintf(msg, size, "%s: CPU %s not made a partition: %s", path, cpu,
			 prs[0] ? prs : dlb_strerror(errno));
		rc = -1;
	}
	if (remove_set(cs, path) && !rc) {
		snprintf(msg, size, "%s: %s", path, dlb_strerror(errno));
		rc = -1;
	}
	if (!rc)
		snprintf(msg, size, "a partition of CPU %s made and removed", cpu);
	return rc;
}

int rtapp_cpusets_repair_hint(char *buf, size_t size)
{
	struct rtapp_cpusets cs;

	memset(&cs, 0, sizeof(cs));
	if (find_root(&cs))
		return snprintf(buf, size, "repair (as root): rebuild the root domains, e.g. by "
				"creating and removing a cpuset partition (docs/kernel-findings.md)");
	if (cs.v2)
		return snprintf(buf, size, "repair (as root): cd %s; mkdir x; echo 1 > x/cpuset.cpus; "
				"echo root > x/cpuset.cpus.partition; rmdir x (docs/kernel-findings.md)",
				cs.root);
	return snprintf(buf, size, "repair (as root): echo 0 > %s/cpuset.sched_load_balance; "
			"echo 1 > %s/cpuset.sched_load_balance (docs/kernel-findings.md)",
			cs.root, cs.root);
}

int rtapp_cpusets_rebuild(char *msg, size_t size)
{
	struct rtapp_cpusets cs;
	char lb[16];

	memset(&cs, 0, sizeof(cs));
	if (geteuid() != 0)
		return snprintf(msg, size, "not root"), -1;
	if (find_root(&cs))
		return snprintf(msg, size, "no cpuset hierarchy mounted"), -1;
	if (live_partition(cs.root))
		return snprintf(msg, size, "another run holds a partition under %s", cs.root), -1;
	if (cs.v2)
		return rebuild_v2(&cs, msg, size);
	if (rtapp_cgroup_read(cs.root, "cpuset.sched_load_balance", lb, sizeof(lb)) || atoi(lb) != 1)
		return snprintf(msg, size, "%s/cpuset.sched_load_balance is not 1", cs.root), -1;
	if (rtapp_cgroup_write(cs.root, "cpuset.sched_load_balance", "0") ||
	    rtapp_cgroup_write(cs.root, "cpuset.sched_load_balance", "1")) {
		snprintf(msg, size, "%s/cpuset.sched_load_balance: %s", cs.root, dlb_strerror(errno));
		rtapp_cgroup_write(cs.root, "cpuset.sched_load_balance", "1");
		return -1;
	}
	snprintf(msg, size, "%s/cpuset.sched_load_balance 1 -> 0 -> 1", cs.root);
	return 0;
}

/* "0-2,5" (a cpuset.cpus list) into @m; -1 if malformed. */
static int parse_cpulist(const char *s, struct dlb_cpumask *m)
{
	unsigned long a, b;
	char *end;

	dlb_cpumask_clear(m);
	while (*s) {
		a = strtoul(s, &end, 10);
		if (end == s)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtoul(s + 1, &end, 10);
			if (end == s + 1)
				return -1;
			s = end;
		}
		if (b < a || b >= DLB_MAX_CPUS)
			return -1;
		for (; a <= b; a++)
			dlb_cpumask_set(m, (unsigned int)a);
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

int rtapp_cpusets_stale(struct dlb_cpumask *sets, int max)
{
	struct rtapp_cpusets cs;
	char path[PATH_MAX + 256], cpus[4096];
	struct dirent *de;
	int pid, lb, n = 0;
	DIR *d = open_root(&cs);

	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		if (run_set(de->d_name, &pid, &lb) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cs.root, de->d_name);
		if (rtapp_cgroup_read(path, "cpuset.cpus", cpus, sizeof(cpus)) ||
		    parse_cpulist(cpus, &sets[n]))
			continue;
		n++;
	}
	closedir(d);
	return n;
}
