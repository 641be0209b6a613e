// SPDX-License-Identifier: GPL-2.0
/*
 * cgroups for the kernel backend (cgroup.h): a controller's hierarchy, and
 * rt-app's taskgroups (its rt-app_taskgroups.c, read for the semantics:
 * groups that exist are used and kept, the ones the run creates are removed
 * at its end, each thread moves itself in).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dlbench/exitcode.h"

#include "cgroup.h"

/* Is @tok one of the @sep-separated words of @list? */
static bool has_word(const char *list, const char *tok, const char *sep)
{
	size_t n = strlen(tok), w;

	while (*list) {
		w = strcspn(list, sep);
		if (w == n && !strncmp(list, tok, n))
			return true;
		list += w;
		list += strspn(list, sep);
	}
	return false;
}

int rtapp_cgroup_write(const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX + 64];
	int fd, rc = 0, e = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) < 0) {
		rc = -1;
		e = errno;
	}
	if (close(fd) && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc)
		errno = e;
	return rc;
}

int rtapp_cgroup_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int rtapp_cgroup_find(const char *controller, char *root, size_t size, bool *v2)
{
	char dev[256], dir[PATH_MAX], type[64], opts[512], ctl[512];
	FILE *f = fopen("/proc/mounts", "re");
	int found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		if (!strcmp(type, "cgroup") && has_word(opts, controller, ",")) {
			snprintf(root, size, "%s", dir);
			*v2 = false;
			found = 0;
			break;
		}
		if (!strcmp(type, "cgroup2") &&
		    !rtapp_cgroup_read(dir, "cgroup.controllers", ctl, sizeof(ctl)) &&
		    has_word(ctl, controller, " ")) {
			snprintf(root, size, "%s", dir);
			*v2 = true;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/*
 * The calling process's cgroup in the hierarchy of @controller (v1: the
 * line listing it; v2: the "0::" line), as a directory below @root.
 */
static int own_cgroup(const char *controller, bool v2, const char *root, char *out, size_t size)
{
	char line[PATH_MAX + 256], *ctl, *path;
	FILE *f = fopen("/proc/self/cgroup", "re");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ctl = strchr(line, ':');
		path = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		*ctl++ = '\0';
		if (v2 ? strcmp(line, "0") || *ctl : !has_word(ctl, controller, ","))
			continue;
		snprintf(out, size, "%s%s", root, strcmp(path, "/") ? path : "");
		rc = 0;
	}
	fclose(f);
	return rc;
}

static const char *ids_file(const struct rtapp_taskgroups *tg)
{
	return tg->v2 ? "cgroup.threads" : "tasks";
}

int rtapp_taskgroups_join(const struct rtapp_taskgroups *tg, int idx, int tid)
{
	char buf[32];

	if (idx < 0 || (size_t)idx >= tg->nr)
		return EINVAL;
	snprintf(buf, sizeof(buf), "%d", tid);
	return rtapp_cgroup_write(tg->dir[idx], ids_file(tg), buf) ? errno : 0;
}

int rtapp_taskgroups_leave(const struct rtapp_taskgroups *tg, int tid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", tid);
	return rtapp_cgroup_write(tg->v2 ? tg->base : tg->home, ids_file(tg), buf) ? errno : 0;
}

/* Record @dir as created by the run (removed by destroy). */
static int made(struct rtapp_taskgroups *tg, const char *dir)
{
	char **grown = realloc(tg->made, (tg->nr_made + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	tg->made = grown;
	tg->made[tg->nr_made] = strdup(dir);
	if (!tg->made[tg->nr_made])
		return -1;
	tg->nr_made++;
	tg->active = true;
	return 0;
}

static int fail_dir(struct dlb_err *err, const char *name, const char *dir, const char *what)
{
	int e = errno;

	return dlb_err_set(err, DLB_EXIT_ENV, "taskgroup '%s': %s %s: %s%s", name, what, dir,
			   strerror(e), e == EACCES || e == EPERM ? " (creating cgroups needs "
			   "root)" : "");
}

/*
 * mkdir each missing directory of @name (a normalised "/a/b") below the
 * base; v2: each new one becomes threaded, with the cpu controller on for
 * what is below it.
 */
static int make_path(struct rtapp_taskgroups *tg, const char *name, char *dir, size_t size,
		     struct dlb_err *err)
{
	const char *s = name;
	struct stat st;
	size_t len;

	len = (size_t)snprintf(dir, size, "%s", tg->base);
	while (*s == '/' && s[1]) {
		size_t n = strcspn(s + 1, "/") + 1;

		if (len + n >= size)
			return dlb_err_set(err, DLB_EXIT_ENV, "taskgroup '%s': path too long", name);
		memcpy(dir + len, s, n);
		len += n;
		dir[len] = '\0';
		s += n;
		if (!mkdir(dir, 0755)) {
			if (made(tg, dir))
				return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
			if (tg->v2 && (rtapp_cgroup_write(dir, "cgroup.type", "threaded") ||
				       rtapp_cgroup_write(dir, "cgroup.subtree_control", "+cpu")))
				return fail_dir(err, name, dir, "cannot make threaded (cpu) group");
			continue;
		}
		if (errno != EEXIST)
			return fail_dir(err, name, dir, "cannot create");
		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			return dlb_err_set(err, DLB_EXIT_ENV, "taskgroup '%s': %s exists and is not "
					   "a cgroup", name, dir);
	}
	return 0;
}

/*
 * v2: the container the process moves into, a threaded domain whose
 * threaded children are the taskgroups; the root's subtree_control gets
 * +cpu if it lacks it (undone at the end).
 */
static int v2_container(struct rtapp_taskgroups *tg, const struct workload *wl,
			struct dlb_err *err)
{
	bool below = false;
	char ctl[512];
	size_t i;

	if (rtapp_cgroup_read(tg->root, "cgroup.subtree_control", ctl, sizeof(ctl)))
		return fail_dir(err, "/", tg->root, "cannot read cgroup.subtree_control of");
	if (!has_word(ctl, "cpu", " ")) {
		if (rtapp_cgroup_write(tg->root, "cgroup.subtree_control", "+cpu"))
			return fail_dir(err, "/", tg->root, "cannot enable the cpu controller below");
		tg->enabled_root = true;
		tg->active = true;
	}
	snprintf(tg->base, sizeof(tg->base), "%s/dlbench-tg-%d", tg->root, (int)getpid());
	if (mkdir(tg->base, 0755))
		return fail_dir(err, "/", tg->base, "cannot create");
	if (made(tg, tg->base))
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	for (i = 0; i < wl->nr_taskgroups; i++)
		below |= strcmp(wl->taskgroups[i], "/") != 0;
	/*
	 * Before its children, which then have cpu to enable for theirs; not
	 * with "/" alone (a domain with controllers on below holds no process).
	 */
	if (below && rtapp_cgroup_write(tg->base, "cgroup.subtree_control", "+cpu"))
		return fail_dir(err, "/", tg->base, "cannot enable the cpu controller below");
	return 0;
}

int rtapp_taskgroups_create(struct rtapp_taskgroups *tg, const struct workload *wl,
			    struct dlb_err *err)
{
	char pid[32];
	size_t i;

	memset(tg, 0, sizeof(*tg));
	if (!wl->nr_taskgroups)
		return 0;
	if (rtapp_cgroup_find("cpu", tg->root, sizeof(tg->root), &tg->v2))
		return dlb_err_set(err, DLB_EXIT_ENV, "taskgroup '%s': no cgroup cpu controller "
				   "is mounted (neither a cgroup v1 hierarchy with cpu nor cgroup2 "
				   "with cpu in cgroup.controllers)", wl->taskgroups[0]);
	if (own_cgroup("cpu", tg->v2, tg->root, tg->home, sizeof(tg->home)))
		return dlb_err_set(err, DLB_EXIT_ENV, "taskgroup: cannot read this process's cpu "
				   "cgroup from /proc/self/cgroup");
	snprintf(tg->base, sizeof(tg->base), "%s", tg->root);
	tg->dir = calloc(wl->nr_taskgroups, sizeof(*tg->dir));
	if (!tg->dir)
		return dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
	tg->nr = wl->nr_taskgroups;
	if (tg->v2 && v2_container(tg, wl, err))
		goto fail;
	for (i = 0; i < tg->nr; i++) {
		tg->dir[i] = malloc(PATH_MAX);
		if (!tg->dir[i]) {
			dlb_err_set(err, DLB_EXIT_INTERNAL, "out of memory");
			goto fail;
		}
		if (make_path(tg, wl->taskgroups[i], tg->dir[i], PATH_MAX, err))
			goto fail;
	}
	if (tg->v2) {
		/* its children threaded, the container is a threaded domain: move in */
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (rtapp_cgroup_write(tg->base, "cgroup.procs", pid)) {
			fail_dir(err, "/", tg->base, "cannot move the run's process into");
			goto fail;
		}
		tg->moved = true;
	}
	return 0;
fail:
	rtapp_taskgroups_destroy(tg);
	return -1;
}

int rtapp_cgroup_remove(const char *dir, const char *file, const char *to)
{
	char path[PATH_MAX + 64], line[32];
	int tries;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* a thread exiting can hold the group busy for a moment */
	for (tries = 0; tries < 100; tries++) {
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			rtapp_cgroup_write(to, file, line);
		}
		if (f)
			fclose(f);
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -1;
}

void rtapp_taskgroups_destroy(struct rtapp_taskgroups *tg)
{
	char pid[32];
	size_t i;

	if (tg->moved) {
		/* the whole process (every thread) back where it was */
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		rtapp_cgroup_write(tg->home, "cgroup.procs", pid);
		tg->moved = false;
	}
	for (i = tg->nr_made; i-- > 0;) {
		rtapp_cgroup_remove(tg->made[i], tg->v2 ? "cgroup.procs" : "tasks", tg->home);
		free(tg->made[i]);
	}
	free(tg->made);
	tg->made = NULL;
	tg->nr_made = 0;
	if (tg->enabled_root)
		rtapp_cgroup_write(tg->root, "cgroup.subtree_control", "-cpu");
	tg->enabled_root = false;
	for (i = 0; i < tg->nr; i++)
		free(tg->dir[i]);
	free(tg->dir);
	tg->dir = NULL;
	tg->nr = 0;
	tg->active = false;
}
