// SPDX-License-Identifier: GPL-2.0
/*
 * Finding processes that consume the trace buffer behind our back.
 *
 * Why: a reader of trace_pipe or trace_pipe_raw removes what it reads.  A
 * trace-cmd that crashed left such readers on this machine and the next
 * recordings silently lost ~40 % of their events with no lost-event record
 * (FACTS.md, Tracing).  The only place that tells is /proc/PID/fd.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "recorder.h"

static bool is_pipe_name(const char *base)
{
	return !strcmp(base, "trace_pipe") || !strcmp(base, "trace_pipe_raw");
}

bool rec_path_steals(const char *path, const char *instance)
{
	const char *base = strrchr(path, '/');
	const char *tr = strstr(path, "/tracing/");
	const char *inst;
	size_t n;

	if (!base || !tr || !is_pipe_name(base + 1))
		return false;
	inst = strstr(tr, "/instances/");
	if (!inst)
		return true;		/* top level: per_cpu/cpuN/trace_pipe_raw or trace_pipe */
	if (!instance)
		return false;
	inst += strlen("/instances/");
	n = strlen(instance);
	return !strncmp(inst, instance, n) && inst[n] == '/';
}

static void read_comm(const char *proc_root, const char *pid, char *comm, size_t size)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(comm, size, "?");
	snprintf(path, sizeof(path), "%s/%s/comm", proc_root, pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(comm, (int)size, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

/* Readers of one process; the first stealing fd is enough to name it. */
static int scan_pid(const char *proc_root, const char *pid, const char *instance,
		    struct rec_reader *r)
{
	char dir[PATH_MAX], link[PATH_MAX + 300], target[256];
	struct dirent *de;
	DIR *d;
	ssize_t n;
	int found = 0;

	snprintf(dir, sizeof(dir), "%s/%s/fd", proc_root, pid);
	d = opendir(dir);
	if (!d)
		return 0;	/* gone, or not ours to see */
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, de->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (rec_path_steals(target, instance)) {
			r->pid = (pid_t)atol(pid);
			snprintf(r->path, sizeof(r->path), "%s", target);
			read_comm(proc_root, pid, r->comm, sizeof(r->comm));
			found = 1;
		}
	}
	closedir(d);
	return found;
}

int rec_find_readers(const char *proc_root, pid_t self, const char *instance,
		     struct rec_reader *out, int max, struct dlb_err *err)
{
	struct rec_reader r;
	struct dirent *de;
	DIR *d;
	int count = 0;

	d = opendir(proc_root);
	if (!d)
		return dlb_err_set(err, DLB_EXIT_ENV, "%s: %s", proc_root, dlb_strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (atol(de->d_name) == (long)self)
			continue;
		memset(&r, 0, sizeof(r));
		if (!scan_pid(proc_root, de->d_name, instance, &r))
			continue;
		if (count < max)
			out[count] = r;
		count++;
	}
	closedir(d);
	return count;
}
