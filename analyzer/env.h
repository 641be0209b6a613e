/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run folder's env.txt (written by run.sh: tools/run/env.sh write_env, and
 * for a qemu run tools/run/runone.sh): what the trace does not say about
 * the traced kernel.  One reader, for the conformance replay and the
 * metrics (docs/results.md, "env.txt").
 */
#ifndef DLB_ENV_H
#define DLB_ENV_H

#include <stdbool.h>

#include "dlbench/dltime.h"

struct dlb_env {
	char kernel[128];	/* kernel= (uname -r), "" if none */
	u64 tick;		/* the traced kernel's config_HZ as a tick, ns; 0 unknown */
	int irq_acct;		/* its config_IRQ_TIME_ACCOUNTING: 1 y, 0 n, -1 unknown */
	/* the fair servers' reservation: every CPU's, and per CPU (NULL: none) */
	bool fs_known;
	u64 fs_runtime, fs_period;
	u64 *fs_cpu;		/* DLB_MAX_CPUS runtime, period pairs; period 0: the CPU's not said */
};

/*
 * @folder's env.txt into *@e (all unknown without one; @folder NULL: only
 * that).  A missing or unreadable file is not an error: nothing is known.
 */
void dlb_env_read(const char *folder, struct dlb_env *e);
void dlb_env_free(struct dlb_env *e);

#endif
