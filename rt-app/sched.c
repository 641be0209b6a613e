// SPDX-License-Identifier: GPL-2.0
/* Policy changes through sched_setattr / sched_setscheduler2, and why they fail. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"

#include "sched.h"

long rtapp_nr_sched_setattr(void)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	return 314;
#elif defined(__i386__)
	return 351;
#elif defined(__aarch64__)
	return 274;
#elif defined(__arm__)
	return 380;
#elif defined(__NR_sched_setattr)
	return __NR_sched_setattr;
#else
	return -1;
#endif
}

long rtapp_nr_sched_getattr(void)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	return 315;
#elif defined(__i386__)
	return 352;
#elif defined(__aarch64__)
	return 275;
#elif defined(__arm__)
	return 381;
#elif defined(__NR_sched_getattr)
	return __NR_sched_getattr;
#else
	return -1;
#endif
}

long rtapp_nr_setscheduler2_default(void)
{
	/* One later version of the v4 series; others differ: --setscheduler2=NR. */
#if defined(__x86_64__) && !defined(__ILP32__)
	return 315;
#elif defined(__i386__)
	return 352;
#elif defined(__arm__)
	return 379;
#else
	return -1;
#endif
}

static int set_deadline2(const struct wl_task *t, const struct rtapp_sched_abi *abi)
{
	struct rtapp_sched_param2 p;

	memset(&p, 0, sizeof(p));
	p.sched_runtime = t->dl.runtime;
	p.sched_deadline = t->dl.deadline;
	p.sched_period = t->dl.period;
	/* v4: sched_setscheduler2(pid, policy, struct sched_param2 *) */
	if (syscall(abi->nr, 0, SCHED_DEADLINE, &p))
		return errno;
	return 0;
}

/* Does @t have a fork event (its threads create threads)? */
static bool task_forks(const struct wl_task *t)
{
	size_t p, e;

	for (p = 0; p < t->nr_phases; p++)
		for (e = 0; e < t->phases[p].nr_events; e++)
			if (t->phases[p].events[e].type == WL_EV_FORK)
				return true;
	return false;
}

int rtapp_sched_set_self(const struct wl_task *t, const struct rtapp_sched_abi *abi)
{
	struct rtapp_sched_attr a;
	long nr = rtapp_nr_sched_setattr();

	if (t->policy == WL_POLICY_DEADLINE && abi && abi->setscheduler2)
		return set_deadline2(t, abi);
	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER0;
	a.sched_policy = (u32)t->policy;
	switch (t->policy) {
	case WL_POLICY_DEADLINE:
		a.sched_runtime = t->dl.runtime;
		a.sched_deadline = t->dl.deadline;
		a.sched_period = t->dl.period;
		a.sched_flags = t->dl.flags;	/* "dl-flags": SCHED_FLAG_RECLAIM */
		break;
	case WL_POLICY_FIFO:
	case WL_POLICY_RR:
		a.sched_priority = (u32)t->priority;
		break;
	default:
		a.sched_nice = t->priority;
		/* Linux 6.12+: a fair task's custom slice; older kernels ignore it */
		a.sched_runtime = t->slice_ns;
	}
	/*
	 * A thread that forks: its new threads start SCHED_OTHER and set
	 * their own policy (the kernel refuses to let a SCHED_DEADLINE
	 * thread create one otherwise: sched_fork, EAGAIN).
	 */
	if (task_forks(t))
		a.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	if (nr < 0)
		return ENOSYS;
	if (syscall(nr, 0, &a, 0))
		return errno;
	return 0;
}

int rtapp_sched_set_uclamp(const struct wl_task *t, const struct wl_uclamp *u)
{
	struct rtapp_sched_attr a;
	long nr = rtapp_nr_sched_setattr();

	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER1;
	/*
	 * KEEP_ALL keeps the policy and its parameters, but the kernel still
	 * checks the priority against the policy (__sched_setscheduler: an RT
	 * policy needs one): rt-app passes both, so do we.
	 */
	a.sched_policy = (u32)t->policy;
	if (t->policy == WL_POLICY_FIFO || t->policy == WL_POLICY_RR)
		a.sched_priority = (u32)t->priority;
	a.sched_flags = SCHED_FLAG_KEEP_ALL;
	if (u->has_min) {
		a.sched_util_min = u->min;
		a.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MIN;
	}
	if (u->has_max) {
		a.sched_util_max = u->max;
		a.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MAX;
	}
	if (nr < 0)
		return ENOSYS;
	if (syscall(nr, 0, &a, 0))
		return errno;
	return 0;
}

static void *uclamp_probe(void *arg)
{
	static const struct wl_task other = { .policy = WL_POLICY_OTHER };
	static const struct wl_uclamp zero = { .has_min = true };

	*(int *)arg = rtapp_sched_set_uclamp(&other, &zero);
	return NULL;
}

int rtapp_sched_uclamp_probe(void)
{
	pthread_t th;
	int rc = 0;

	if (pthread_create(&th, NULL, uclamp_probe, &rc))
		return 0;	/* no answer: each thread's own call will tell */
	pthread_join(th, NULL);
	return rc;
}

int rtapp_uclamp_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst)
{
	char who[160];

	if (inst < 0)
		snprintf(who, sizeof(who), "task '%s'", t->name);
	else
		snprintf(who, sizeof(who), "task '%s' instance %d", t->name, inst);
	if (errnum == EOPNOTSUPP || errnum == ENOSYS || (inst < 0 && errnum == EINVAL))
		dlb_err_set(err, DLB_EXIT_ENV, "%s: util_min/util_max need utilization clamping, "
			    "which this kernel does not have (%s); run without them, or on a "
			    "kernel with uclamp", who, errnum == EOPNOTSUPP ?
			    "CONFIG_UCLAMP_TASK; sched_setattr: EOPNOTSUPP" : errnum == ENOSYS ?
			    "no sched_setattr: ENOSYS" :
			    "sched_setattr: EINVAL; uclamp came in Linux 5.3");
	else if (errnum == EINVAL)
		dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: the kernel refused its util_min/util_max "
			    "(EINVAL: with the clamps the thread has, its min would be above its "
			    "max; uclamp_validate)", who);
	else
		dlb_err_set(err, DLB_EXIT_ENV, "%s: setting util_min/util_max failed: %s", who,
			    dlb_strerror(errnum));
	if (err)
		err->errnum = errnum;
	return -1;
}

void rtapp_sched_reset_self(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	sched_setscheduler(0, SCHED_OTHER, &sp);
}

static u64 read_u64_file(const char *path, u64 def)
{
	unsigned long long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return def;
	if (fscanf(f, "%llu", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/*
 * The kernel's view of the root domain the caller is in: .dl_bw->total_bw
 * of the first dl_rq in /sys/kernel/debug/sched/debug (every CPU of a root
 * domain shows the same dl_bw).  Returns 0 and the value, -1 if unreadable.
 */
static int read_kernel_total_bw(u64 *total)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256];
	unsigned long long v;
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " .dl_bw->total_bw : %llu", &v) == 1) {
			*total = v;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

void rtapp_sched_limits(struct dl_param_limits *lim)
{
	lim->period_min = read_u64_file("/proc/sys/kernel/sched_deadline_period_min_us",
					DL_PERIOD_MIN_US_DEFAULT) * NSEC_PER_USEC;
	lim->period_max = read_u64_file("/proc/sys/kernel/sched_deadline_period_max_us",
					DL_PERIOD_MAX_US_DEFAULT) * NSEC_PER_USEC;
}

static int explain_ebusy(struct dlb_err *err, const struct wl_task *t, int inst,
			 const struct rtapp_admit_ctx *ctx)
{
	/*
	 * total_bw first: on kernels without mainline's 41d4200b7103 (Debian's
	 * 6.12) any access to the two sysctls below rebuilds the root domains
	 * and drops the fair servers from total_bw (docs/kernel-findings.md,
	 * finding 3), so read after them it would not be the total that refused.
	 */
	u64 kernel_total;
	int have_total = read_kernel_total_bw(&kernel_total) == 0;
	u64 rt_runtime = read_u64_file("/proc/sys/kernel/sched_rt_runtime_us", RT_RUNTIME_US_DEFAULT);
	u64 rt_period = read_u64_file("/proc/sys/kernel/sched_rt_period_us", RT_PERIOD_US_DEFAULT);
	/* 6.x: each CPU's fair server reserves 50 ms every 1000 ms of DL bandwidth. */
	u64 fair = to_ratio(1000000000ULL, 50000000ULL);
	u64 bw = to_ratio(dl_params_period(&t->dl), t->dl.runtime);
	u64 total = dl_bw_capacity(ctx->cpus, rt_runtime, rt_period, 0);
	u64 cap = dl_bw_capacity(ctx->cpus, rt_runtime, rt_period, fair);
	char kern[160] = "";

	if (have_total)
		snprintf(kern, sizeof(kern), "; the kernel's dl_bw total_bw for this root domain "
			 "is %.3f (fair servers included)", dl_bw_to_double(kernel_total));
	return dlb_err_set(err, DLB_EXIT_ENV,
			   "task '%s' instance %d: SCHED_DEADLINE admission refused (EBUSY): "
			   "bandwidth %.3f (runtime %llu ns / period %llu ns) does not fit: this "
			   "run had admitted %.3f of the %.3f available to tasks (%u CPUs x "
			   "sched_rt_runtime_us %llu / sched_rt_period_us %llu = %.3f, less the "
			   "fair servers' 0.050 per CPU)%s", t->name, inst, dl_bw_to_double(bw),
			   (unsigned long long)t->dl.runtime,
			   (unsigned long long)dl_params_period(&t->dl),
			   dl_bw_to_double(ctx->run_admitted), dl_bw_to_double(cap), ctx->cpus,
			   (unsigned long long)rt_runtime, (unsigned long long)rt_period,
			   dl_bw_to_double(total), kern);
}

static int explain_einval(struct dlb_err *err, const struct wl_task *t, int inst)
{
	struct dl_param_limits lim;
	enum dl_param_rule rule;
	char why[256];

	if (t->policy != WL_POLICY_DEADLINE)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s' instance %d: the kernel "
				   "refused policy %s priority %d (EINVAL)", t->name, inst,
				   wl_policy_str(t->policy), t->priority);
	rtapp_sched_limits(&lim);
	rule = dl_param_check(&t->dl, &lim);
	if (rule == DL_PARAM_OK)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s' instance %d: the kernel "
				   "refused runtime %llu ns, deadline %llu ns, period %llu ns "
				   "(EINVAL) although they pass its rules as dlbench knows "
				   "them", t->name, inst,
				   (unsigned long long)t->dl.runtime,
				   (unsigned long long)t->dl.deadline,
				   (unsigned long long)t->dl.period);
	return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "task '%s' instance %d: the kernel refused "
			   "its parameters (EINVAL): %s", t->name, inst,
			   dl_param_explain(why, sizeof(why), &t->dl, &lim, rule));
}

static int explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst,
		   const struct rtapp_admit_ctx *ctx)
{
	switch (errnum) {
	case EPERM:
	case EACCES:
		return dlb_err_set(err, DLB_EXIT_ENV, "task '%s' instance %d: not permitted to "
				   "set policy %s (EPERM): it needs root or CAP_SYS_NICE (uid %d); "
				   "run as root, or simulate with --backend reference", t->name,
				   inst, wl_policy_str(t->policy), (int)geteuid());
	case EINVAL:
		return explain_einval(err, t, inst);
	case EBUSY:
		return explain_ebusy(err, t, inst, ctx);
	case ENOSYS:
		return dlb_err_set(err, DLB_EXIT_ENV, "task '%s' instance %d: this kernel has no "
				   "such system call (ENOSYS): no SCHED_DEADLINE here; try "
				   "--backend reference", t->name, inst);
	default:
		return dlb_err_set(err, DLB_EXIT_ENV, "task '%s' instance %d: setting policy %s "
				   "failed: %s", t->name, inst, wl_policy_str(t->policy),
				   dlb_strerror(errnum));
	}
}

int rtapp_sched_explain(struct dlb_err *err, int errnum, const struct wl_task *t, int inst,
			const struct rtapp_admit_ctx *ctx)
{
	explain(err, errnum, t, inst, ctx);
	/* structured, for summary.json's admission outcome: never read from the text */
	if (err)
		err->errnum = errnum;
	return -1;
}

/*
 * Does this kernel apply a fair task's custom slice (Linux 6.12+)?  Older
 * kernels accept sched_attr.sched_runtime on SCHED_OTHER and ignore it; a
 * kernel with custom slices reports the slice back in sched_getattr's
 * sched_runtime (get_params: p->se.slice).  So a helper thread sets 1 ms
 * on itself and reads it back; the caller's own thread is not touched.
 */
static void *slice_probe(void *arg)
{
	struct rtapp_sched_attr a;
	long set = rtapp_nr_sched_setattr(), get = rtapp_nr_sched_getattr();
	bool *ok = arg;

	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER0;
	a.sched_policy = SCHED_OTHER;
	a.sched_runtime = NSEC_PER_MSEC;
	if (set < 0 || get < 0 || syscall(set, 0, &a, 0))
		return NULL;
	memset(&a, 0, sizeof(a));
	*ok = !syscall(get, 0, &a, sizeof(a), 0) && a.sched_runtime == NSEC_PER_MSEC;
	return NULL;
}

bool rtapp_sched_has_slice(void)
{
	pthread_t th;
	bool ok = false;

	if (pthread_create(&th, NULL, slice_probe, &ok))
		return false;
	pthread_join(th, NULL);
	return ok;
}
