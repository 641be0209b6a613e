// SPDX-License-Identifier: GPL-2.0
/* env.txt, read once for all (env.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cpumask.h"
#include "env.h"

/*
 * run.sh's env.txt: the traced kernel (kernel=, uname -r) when the command
 * line did not say it, and its tick (config_HZ=N): mainline checks a DL
 * budget at ticks (sched feature HRTICK_DL is off by default), so a job
 * overruns its runtime until the next one; the replay does the same.  And
 * whether it charges interrupt time to tasks (config_IRQ_TIME_ACCOUNTING=
 * y, n or unknown).  A qemu run: the guest kernel's, guest_config_...; the
 * host's config_HZ is not the guest's, so without guest_config_HZ the tick
 * is unknown (0: budgets checked exactly).  And the fair servers'
 * reservation (fair_server_runtime_ns=, fair_server_period_ns=, every
 * CPU's; fair_server_cpuN_runtime_ns=, ..._period_ns= where CPUs differ),
 * a host's only: the guest's is not known (its kernel's default is used).
 */
static int irq_acct_val(const char *v)
{
	return !strcmp(v, "y") ? 1 : !strcmp(v, "n") ? 0 : -1;
}

/* One fair_server_...= line of env.txt into @e (a host run's). */
static void env_fair_server(struct dlb_env *e, const char *line)
{
	unsigned long long v;
	int cpu;

	if (sscanf(line, "fair_server_runtime_ns=%llu", &v) == 1) {
		e->fs_runtime = v;
		e->fs_known = true;
	} else if (sscanf(line, "fair_server_period_ns=%llu", &v) == 1) {
		e->fs_period = v;
		e->fs_known = true;
	} else if (sscanf(line, "fair_server_cpu%d_runtime_ns=%llu", &cpu, &v) == 2 &&
		   cpu >= 0 && cpu < DLB_MAX_CPUS &&
		   (e->fs_cpu || (e->fs_cpu = calloc(2 * DLB_MAX_CPUS, sizeof(u64))))) {
		e->fs_cpu[2 * cpu] = v;
	} else if (sscanf(line, "fair_server_cpu%d_period_ns=%llu", &cpu, &v) == 2 &&
		   cpu >= 0 && cpu < DLB_MAX_CPUS &&
		   (e->fs_cpu || (e->fs_cpu = calloc(2 * DLB_MAX_CPUS, sizeof(u64))))) {
		e->fs_cpu[2 * cpu + 1] = v;
		e->fs_known = true;
	}
}

void dlb_env_read(const char *folder, struct dlb_env *e)
{
	static const char host_irq[] = "config_IRQ_TIME_ACCOUNTING=";
	static const char guest_irq[] = "guest_config_IRQ_TIME_ACCOUNTING=";
	char path[4096], line[256];
	int irq_host = -1, irq_guest = -1;
	bool qemu = false;
	unsigned long hz = 0, guest_hz = 0;
	FILE *f;

	memset(e, 0, sizeof(*e));
	e->irq_acct = -1;
	if (!folder)
		return;
	snprintf(path, sizeof(path), "%s/env.txt", folder);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "kernel=", 7))
			snprintf(e->kernel, sizeof(e->kernel), "%s", line + 7);
		else if (!strcmp(line, "backend=qemu"))
			qemu = true;
		else if (!strncmp(line, host_irq, sizeof(host_irq) - 1))
			irq_host = irq_acct_val(line + sizeof(host_irq) - 1);
		else if (!strncmp(line, guest_irq, sizeof(guest_irq) - 1))
			irq_guest = irq_acct_val(line + sizeof(guest_irq) - 1);
		else if (!strncmp(line, "fair_server_", 12))
			env_fair_server(e, line);
		else if (sscanf(line, "guest_config_HZ=%lu", &guest_hz) != 1)
			sscanf(line, "config_HZ=%lu", &hz);
	}
	fclose(f);
	if (qemu)
		hz = guest_hz;
	e->tick = hz >= 24 && hz <= 10000 ? NSEC_PER_SEC / hz : 0;
	e->irq_acct = qemu ? irq_guest : irq_host;
	if (qemu) {		/* the host's servers, not the guest's */
		e->fs_known = false;
		free(e->fs_cpu);
		e->fs_cpu = NULL;
	}
}

void dlb_env_free(struct dlb_env *e)
{
	free(e->fs_cpu);
	e->fs_cpu = NULL;
}
