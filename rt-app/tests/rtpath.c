// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD probe of dlb-rtapp's real-time path (rt-app/tests/rtpath.sh):
 * counts the allocations and the output calls (write(2) and the stdio
 * writers) a thread makes while its policy is SCHED_DEADLINE.  Writes to
 * the file named by DLB_RTPATH_ALLOW (the run's trace_marker) are the
 * markers' and are allowed.  At exit it writes one line to DLB_RTPATH_OUT:
 *
 *	mallocs=N writes=N first=FUNCTION vmlck_kb=N
 *
 * first: the first call counted ("-": none); vmlck_kb: the process's VmLck
 * as it exits.  Not a test itself; not linked into anything.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif
#define POLICY_MASK	0xff	/* without SCHED_RESET_ON_FORK */

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static unsigned long nr_mallocs, nr_writes;
static const char *first;

static int is_dl(void)
{
	long p = syscall(SYS_sched_getscheduler, 0);

	return p >= 0 && (p & POLICY_MASK) == SCHED_DEADLINE;
}

static void count(unsigned long *n, const char *what)
{
	const char *none = NULL;

	__atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
	__atomic_compare_exchange_n(&first, &none, what, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* @fd is the allowed file (the markers'): same path as DLB_RTPATH_ALLOW */
static int allowed(int fd)
{
	const char *allow = getenv("DLB_RTPATH_ALLOW");
	char link[64], path[4096];
	ssize_t n;

	if (!allow)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return !strcmp(path, allow);
}

static void out_call(int fd, const char *what)
{
	if (is_dl() && (fd < 0 || !allowed(fd)))
		count(&nr_writes, what);
}

static void alloc_call(const char *what)
{
	if (is_dl())
		count(&nr_mallocs, what);
}

void *malloc(size_t size)
{
	alloc_call("malloc");
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	alloc_call("calloc");
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	alloc_call("realloc");
	return __libc_realloc(p, size);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	out_call(fd, "write");
	return syscall(SYS_write, fd, buf, n);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	out_call(fd, "writev");
	return syscall(SYS_writev, fd, iov, cnt);
}

#define NEXT(name)	((__typeof__(&name))dlsym(RTLD_NEXT, #name))

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	out_call(fileno(f), "fwrite");
	return NEXT(fwrite)(p, size, n, f);
}

int fputs(const char *s, FILE *f)
{
	out_call(fileno(f), "fputs");
	return NEXT(fputs)(s, f);
}

int fflush(FILE *f)
{
	out_call(f ? fileno(f) : -1, "fflush");
	return NEXT(fflush)(f);
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	out_call(fileno(f), "vfprintf");
	return NEXT(vfprintf)(f, fmt, ap);
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	out_call(fileno(f), "fprintf");
	va_start(ap, fmt);
	n = NEXT(vfprintf)(f, fmt, ap);
	va_end(ap);
	return n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	out_call(fd, "dprintf");
	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

static long vmlck_kb(void)
{
	char buf[4096];
	ssize_t n;
	char *p;
	int fd = open("/proc/self/status", O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "VmLck:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

__attribute__((destructor)) static void report(void)
{
	const char *out = getenv("DLB_RTPATH_OUT");
	char line[256];
	int fd, n;

	if (!out)
		return;
	n = snprintf(line, sizeof(line), "mallocs=%lu writes=%lu first=%s vmlck_kb=%ld\n",
		     nr_mallocs, nr_writes, first ? first : "-", vmlck_kb());
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (syscall(SYS_write, fd, line, (size_t)n) < 0)
		fd = -fd;
	close(fd < 0 ? -fd : fd);
}
