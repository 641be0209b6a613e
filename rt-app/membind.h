/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NUMA memory binding on the kernel backend ("nodes_membind"): rt-app's
 * set_thread_membind (numa_set_membind, set_mempolicy MPOL_BIND) through
 * the raw system calls, without libnuma; the nodes checked before the run.
 */
#ifndef RTAPP_MEMBIND_H
#define RTAPP_MEMBIND_H

#include <stddef.h>

#include "dlbench/error.h"
#include "dlbench/workload.h"

/* Where the kernel lists the machine's nodes (numa_max_node() reads it too). */
#define RTAPP_NODE_DIR	"/sys/devices/system/node"

/* Bind the calling thread's memory to @m's nodes: 0 or an errno. */
int rtapp_membind_set(const struct wl_membind *m);

/*
 * The calling thread's memory policy as /proc/PID/numa_maps writes it
 * ("bind:0-1", "default") into @buf: 0 or an errno.
 */
int rtapp_membind_get(char *buf, size_t size);

/*
 * Before any thread starts: can this kernel bind memory at all (ENOSYS
 * without CONFIG_NUMA: exit 3), and does every node a task or a phase of
 * @wl names exist under @node_dir (rt-app refuses a node above
 * numa_max_node(): exit 2)?  0, or -1 with @err: one line naming the task.
 */
int rtapp_membind_check(const struct workload *wl, const char *node_dir, struct dlb_err *err);

/*
 * A thread's set_mempolicy failed with @errnum: @err says why, naming task
 * @t, instance @inst and @phase (NULL: the task's own nodes).  Returns -1.
 */
int rtapp_membind_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst,
			  const char *phase);

#endif
