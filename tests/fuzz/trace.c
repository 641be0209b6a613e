// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the trace readers through their public API
 * (dlb_trace_open + dlb_trace_read), fed via a memfd so no disk is touched.
 * Format detection picks the reader: the corpora trace_text (kernel text and
 * trace-cmd report lines) and trace_dat (trace.dat, read through libtracecmd)
 * share this binary.  A crash inside libtracecmd on a corrupt file counts:
 * the reader's own checks must stop such a file first.  The reader opens a
 * trace.dat first in a forked child (dat_probe) so that a crash of the
 * library there becomes a bad-input error: in that child a sanitizer report
 * must kill the child, as the crash would, not end the whole fuzzing run.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>

#include "dlbench/error.h"
#include "dlbench/event.h"
#include "../../analyzer/input/trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static void child_death(void)
{
	signal(SIGABRT, SIG_DFL);
	abort();
}

static void child_after_fork(void)
{
	__sanitizer_set_death_callback(child_death);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pthread_atfork(NULL, NULL, child_after_fork);
	return 0;
}

static int count_event(const struct dlb_event *ev, void *arg)
{
	(void)ev;
	(*(unsigned long *)arg)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dlb_trace *t;
	struct dlb_err err;
	unsigned long n = 0;
	char path[64];
	int fd;

	fd = memfd_create("fuzz-trace", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&err, 0, sizeof(err));
	t = dlb_trace_open(path, &err);
	if (t) {
		(void)dlb_trace_read(t, count_event, &n, &err);
		(void)dlb_trace_quality(t);
		dlb_trace_close(t);
	}
out:
	close(fd);
	return 0;
}
