// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA memory binding on the kernel backend: rt-app's set_thread_membind
 * calls libnuma's numa_set_membind, which is set_mempolicy(MPOL_BIND,
 * mask, size + 1); we make that call ourselves (no libnuma).  rt-app
 * built without libnuma, or on a machine where numa_available() fails,
 * logs "NUMA is not available" and runs without binding; we refuse the
 * run instead (exit 3), as for uclamp: a binding the file asks for and
 * the run silently lacks is not the workload it describes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "membind.h"

/*
 * The kernel's get_nodes() reads maxnode - 1 bits: WL_MAX_NODES + 1 passes
 * the whole mask (libnuma passes its bitmask's size + 1 the same way).
 */
#define MEMBIND_MAXNODE	(WL_MAX_NODES + 1UL)

int rtapp_membind_set(const struct wl_membind *m)
{
	if (syscall(SYS_set_mempolicy, MPOL_BIND, m->nodes.bits, MEMBIND_MAXNODE))
		return errno;
	return 0;
}

/* mpol_to_str()'s names, as in /proc/PID/numa_maps */
static const char *const mode_names[] = {
	[MPOL_DEFAULT] = "default", [MPOL_PREFERRED] = "prefer", [MPOL_BIND] = "bind",
	[MPOL_INTERLEAVE] = "interleave", [MPOL_LOCAL] = "local",
};

int rtapp_membind_get(char *buf, size_t size)
{
	struct dlb_cpumask nodes;
	int mode, n;

	dlb_cpumask_clear(&nodes);
	if (syscall(SYS_get_mempolicy, &mode, nodes.bits, MEMBIND_MAXNODE, NULL, 0UL))
		return errno;
	if (mode >= 0 && (size_t)mode < sizeof(mode_names) / sizeof(mode_names[0]) &&
	    mode_names[mode])
		n = snprintf(buf, size, "%s", mode_names[mode]);
	else
		n = snprintf(buf, size, "mode%d", mode);
	if (n < 0 || (size_t)n >= size)
		return ENOSPC;
	if (mode == MPOL_DEFAULT || mode == MPOL_LOCAL)
		return 0;
	if ((size_t)n + 2 > size)
		return ENOSPC;
	buf[n++] = ':';
	return dlb_cpumask_list(buf + n, size - (size_t)n, &nodes) ? ENOSPC : 0;
}

/* The first node of @m that @node_dir has no nodeN entry for, or -1. */
static int missing_node(const struct wl_membind *m, const char *node_dir)
{
	char path[PATH_MAX];
	unsigned int node;

	if (!m->set)
		return -1;
	dlb_for_each_cpu(node, &m->nodes) {
		snprintf(path, sizeof(path), "%s/node%u", node_dir, node);
		if (access(path, F_OK))
			return (int)node;
	}
	return -1;
}

static int refuse_node(struct dlb_err *err, const struct wl_task *t, const char *phase, int node,
		       const char *node_dir)
{
	char online[256] = "", path[PATH_MAX], where[160] = "";
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/online", node_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, online, sizeof(online) - 1);
		close(fd);
	}
	online[n > 0 ? n : 0] = '\0';
	online[strcspn(online, "\n")] = '\0';
	if (phase)
		snprintf(where, sizeof(where), " phase '%s'", phase);
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s'%s: nodes_membind: node %d does not "
			   "exist on this machine (its nodes: %s, in %s)", t->name, where, node,
			   online[0] ? online : "none listed", node_dir);
}

int rtapp_membind_check(const struct workload *wl, const char *node_dir, struct dlb_err *err)
{
	const struct wl_task *t = wl_membind_task(wl);
	size_t i, p;
	int mode, node;

	if (!t)
		return 0;
	/* no side effect: the main thread's policy, read */
	if (syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL) && errno == ENOSYS)
		return rtapp_membind_explain(err, ENOSYS, t, -1, NULL);
	for (i = 0; i < wl->nr_tasks; i++) {
		t = &wl->tasks[i];
		node = missing_node(&t->membind, node_dir);
		if (node >= 0)
			return refuse_node(err, t, NULL, node, node_dir);
		for (p = 0; p < t->nr_phases; p++) {
			node = missing_node(&t->phases[p].membind, node_dir);
			if (node >= 0)
				return refuse_node(err, t, t->phases[p].name, node, node_dir);
		}
	}
	return 0;
}

int rtapp_membind_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst,
			  const char *phase)
{
	char who[256];
	int n;

	n = snprintf(who, sizeof(who), "task '%s'", t->name);
	if (inst >= 0 && n > 0 && (size_t)n < sizeof(who))
		n += snprintf(who + n, sizeof(who) - (size_t)n, " instance %d", inst);
	if (phase && n > 0 && (size_t)n < sizeof(who))
		snprintf(who + n, sizeof(who) - (size_t)n, " phase '%s'", phase);
	if (errnum == ENOSYS)
		dlb_err_set(err, DLB_EXIT_ENV, "%s: nodes_membind needs NUMA memory policies, which "
			    "this kernel does not have (CONFIG_NUMA; get_mempolicy: ENOSYS); run "
			    "without it, or on a kernel with NUMA", who);
	else if (errnum == EINVAL)
		dlb_err_set(err, DLB_EXIT_ENV, "%s: nodes_membind: set_mempolicy: EINVAL (none of "
			    "its nodes has memory this thread may use: a memoryless node, or "
			    "nodes outside its cpuset's cpuset.mems)", who);
	else
		dlb_err_set(err, DLB_EXIT_ENV, "%s: nodes_membind: set_mempolicy: %s", who,
			    dlb_strerror(errnum));
	if (err)
		err->errnum = errnum;
	return -1;
}
