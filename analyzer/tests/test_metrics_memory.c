// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming: 1 M synthetic events (4 DL tasks on 2 CPUs, a job each per
 * 10 ms period, migrations) must not make the engine's heap grow once the
 * tasks are known and the percentile buffers have switched to histograms.
 * Heap in use is sampled with mallinfo2() every 1000 events.
 */
#include "dlb_test.h"

#include <malloc.h>
#include <stdio.h>

#include "../metrics.h"
#include "evbuild.h"

#define NR_TASKS	4
#define EVENTS		1000000
#define WARM_JOBS	3200

static u64 jobs_seen;

static void on_job(const struct dlb_job *j, void *arg)
{
	(void)j;
	(void)arg;
	jobs_seen++;
}

static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}

/* One job of task @i: wake, switch in, begin, (migrate), end, sleep: 7 events. */
static int one_job(struct dlb_metrics *m, u64 n, int i, u64 *count)
{
	char begin[DLB_MARKER_MAX], end[DLB_MARKER_MAX];
	int tid = 1000 + i, cpu = i % 2;
	u64 rel = n * 10000 + (u64)i * 100, t = rel;	/* µs */
	struct dlb_event evs[7];
	int k, nr = 0;

	snprintf(begin, sizeof(begin), "dlb_job: tid=%d job=%llu event=begin rel=%llu dl=%llu",
		 tid, (unsigned long long)n, (unsigned long long)(rel * US),
		 (unsigned long long)((rel + 5000) * US));
	snprintf(end, sizeof(end), "dlb_job: tid=%d job=%llu event=end", tid,
		 (unsigned long long)n);
	evs[nr++] = eb_wake(t, cpu, tid, DLB_PRIO_DL);
	if (n % 3 == 0)
		evs[nr++] = eb_mig(t + 1, cpu, tid, 1 - cpu, cpu);
	evs[nr++] = eb_switch(t + 2 + (n % 7), cpu, 0, 120, 0, tid, DLB_PRIO_DL);
	evs[nr++] = eb_mark(t + 10, cpu, tid, begin);
	evs[nr++] = eb_mark(t + 60 + (n * 13) % 41, cpu, tid, end);
	evs[nr++] = eb_switch(t + 61 + (n * 13) % 41, cpu, tid, DLB_PRIO_DL, 1, 0, 120);
	for (k = 0; k < nr; k++)
		if (dlb_metrics_event(&evs[k], m))
			return -1;
	*count += (u64)nr;
	return 0;
}

static void test_flat_heap(void **state)
{
	struct dlb_metrics_opts o = { .job_fn = on_job };
	struct dlb_metrics *m;
	size_t warm = 0, peak = 0, h;
	u64 count = 0, next_sample = 0, n;
	int i;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	dlb_skip("mallinfo2 does not see AddressSanitizer's heap");
#endif
	m = dlb_metrics_create(&o, NULL);
	assert_non_null(m);
	for (n = 0; count < EVENTS; n++) {
		for (i = 0; i < NR_TASKS; i++)
			assert_int_equal(one_job(m, n, i, &count), 0);
		/* warmed up: tasks known, exact buffers turned into histograms (a third of the jobs migrate: 3 x 1024) */
		if (n == WARM_JOBS)
			warm = heap_in_use();
		if (n > WARM_JOBS && count >= next_sample) {
			h = heap_in_use();
			if (h > peak)
				peak = h;
			next_sample = count + 1000;
		}
	}
	dlb_metrics_finish(m);
	assert_true(warm > 0);
	print_message("# heap after warm-up %zu bytes, peak later %zu bytes, %llu events, %llu jobs\n",
		      warm, peak, (unsigned long long)count, (unsigned long long)jobs_seen);
	if (peak > warm)
		fail_msg("heap grew from %zu to %zu bytes while streaming", warm, peak);
	assert_int_equal(dlb_metrics_run(m)->jobs, jobs_seen);
	assert_int_equal(dlb_metrics_task(m, 0)->jobs, n);
	dlb_metrics_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
