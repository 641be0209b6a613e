/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From the normalized event stream (event.h) to jobs and metrics, in one
 * pass, whichever reader or backend produced the events.  Definitions:
 * docs/analyzer.md ("Metrics"), after ../shared/DESIGN.md.
 *
 *	m = dlb_metrics_create(&opts, &err);
 *	dlb_trace_read(trace, dlb_metrics_event, m, &err);	// or any event source
 *	dlb_metrics_finish(m);
 *	... dlb_metrics_task(m, i), dlb_metrics_cpu(m, c), dlb_metrics_run(m) ...
 *	dlb_metrics_free(m);
 *
 * Streaming: memory grows with the number of tasks and CPUs, not with the
 * number of events or jobs; each finished job is handed to opts.job_fn
 * (jobs.csv) and only summarized here.
 */
#ifndef DLB_METRICS_H
#define DLB_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "dlbench/dltime.h"
#include "dlbench/error.h"
#include "dlbench/event.h"
#include "dlbench/jobstrace.h"
#include "dlbench/marker.h"
#include "stats.h"

/* Where a task's DL parameters came from. */
enum dlb_param_src {
	DLB_PARAM_NONE,
	DLB_PARAM_MARKER,	/* dlb_task / rtapp_attrs marker */
	DLB_PARAM_GIVEN,	/* the caller: summary.json, /proc sched snapshot, option */
};

/* Where a job's release and deadline came from. */
enum dlb_rel_src {
	DLB_REL_MARKER,		/* rel=/dl= of our markers */
	DLB_REL_WAKEUP,		/* rt-app markers: the wake-up before begin */
	DLB_REL_PERIOD,		/* rt-app markers: previous release + P (rt-app's timer) */
	DLB_REL_BEGIN,		/* nothing better: the begin marker itself */
	DLB_REL_CLOCK_REF,	/* rt-app markers, first job: rt-app's zero time */
	DLB_REL_LATE_END,	/* rt-app markers: the previous job's end (a late job
				 * re-arms rt-app's timer from its end) */
};

/* One finished job, handed to the job callback (a jobs.csv row). */
struct dlb_job {
	int tid;
	const char *name;
	u64 job;		/* index from the marker, or counted */
	u64 rel, begin, end, dl;
	u64 wakeup;		/* its thread's wake-up in [rel, begin], else rel */
	enum dlb_rel_src rel_src;
	bool dl_known;		/* false: no deadline (no dl=, no parameters) */
	bool exec_known;	/* false: no sched_switch seen, c_j unknown */
	s64 lateness;		/* end - dl */
	u64 response;		/* end - rel */
	u64 wakeup_lat;		/* begin - rel */
	u64 exec;		/* c_j */
	u64 unavail_ns;		/* of exec, the time its CPU was unavailable (interrupts) */
	/*
	 * CPU stalls it met (metrics_stall.c, docs/analyzer.md "CPU stalls"),
	 * from its wake-up to its end: while it ran (in exec),
	 * while it waited on a stalled CPU's runqueue, and its wake-up's delay
	 * past its release by a stall of the CPU that woke it.  stall_known
	 * false: stalls are not looked for (tick unknown, no interrupt events).
	 */
	bool stall_known;
	u64 stall_ns;
	bool miss;
	bool overrun;
	u64 overrun_ns;		/* c_j - dl_runtime when overrun */
	unsigned int migrations;	/* since the previous job ended */
	unsigned int preemptions;
	/*
	 * The switch that ran it: from the switch-in after its wake-up to its
	 * begin (the switch's tail, its overhead, as the trace shows it), and
	 * whether that slice began on another CPU than the task's last;
	 * startup_known false: it began in a slice that started before its
	 * wake-up, or it did not wake for it.  Then the switch-ins between
	 * its begin and end, and of them those on a new CPU (their overhead
	 * is in exec).
	 */
	bool startup_known, startup_moved;
	u64 startup_ns;
	unsigned int switches_in, moves_in;
	int cpu_begin, cpu_end;
	/* since the previous job of the task ended (the wait before begin included) */
	u64 inversion_ns;	/* G-EDF priority inversion: it waited while a CPU of
				 * its affinity ran a later deadline, other work or idled */
	unsigned int throttles;	/* its CBS throttled it (dl_throttle or replayed) */
	/*
	 * Its CBS held it back: from held_from on it was ready (woken, or not
	 * asleep) and throttled, for a positive time; the first such instant
	 * since the previous job ended.  A throttle as it blocked, replenished
	 * by its wake-up, held nothing.
	 */
	bool held;
	u64 held_from;
	bool open;		/* opts.open_fn: the trace stopped first; end is its last
				 * instant, exec the CPU time so far */
};

typedef void (*dlb_job_fn)(const struct dlb_job *job, void *arg);

struct dlb_task_metrics {
	int tid;
	char name[DLB_NAME_MAX];
	bool is_dl;			/* seen with prio -1, or declared deadline */
	enum dlb_param_src param_src;
	u64 runtime, deadline, period;	/* ns, when param_src != NONE */
	enum dlb_marker_dialect dialect;	/* of its job markers */
	u64 rel_inferred;		/* jobs whose release was inferred (rt-app markers) */

	u64 jobs, misses;
	u64 jobs_no_dl;			/* jobs without a deadline: not in miss/lateness */
	struct dlb_stat lateness, response, wakeup_lat, exec;
	u64 overruns, overrun_last, overrun_max;
	u64 throttles;			/* dl_throttle events */
	u64 throttles_inferred;		/* of its CBS replayed from the trace (cbs.h) */
	u64 migrations, migrated_jobs;
	struct dlb_stat mig_delay;	/* migration -> running on the destination */
	struct dlb_stat exec_migrated, exec_unmigrated;
	u64 inversion_ns;		/* G-EDF priority inversion time */
	u64 preemptions, switches_in, cpu_time;
	u64 dl_predicted, dl_mispredicted;	/* waiting-deadline predictions checked */
	/*
	 * Its jobs that met CPU stalls (struct dlb_job stall_ns), its misses
	 * late by no more than the stalls they met, its overruns by no more
	 * than the stalls they ran through: without the host they were not.
	 */
	u64 stalled_jobs, stall_misses, stall_overruns;
};

struct dlb_cpu_metrics {
	int cpu;
	u64 events;
	u64 first_ts;			/* first event: the CPU's observed window starts */
	u64 dl_ns, other_ns, idle_ns, unknown_ns;	/* time by what was running */
	u64 switches, migrations_in, migrations_out;
	/*
	 * Stalls (analyzer/metrics_stall.c, docs/analyzer.md "CPU stalls"):
	 * spans of 1.5 ticks or more in which the CPU, running a task, recorded
	 * no event, not even its tick.  tick_ns: dlb_metrics_opts.tick_ns (0:
	 * unknown).  stalls_checked: the trace could show them on this CPU.
	 */
	u64 tick_ns;
	bool stalls_checked;
	u64 stalls, stall_ns, stall_max_ns;
};

struct dlb_stall {
	u64 from, to;			/* the last event before it, the first after it */
	int pid;			/* the task that was running */
};

/*
 * Data-quality checks: id, name in report.json, severity (1: the data is
 * incomplete, exit DLB_EXIT_INCOMPLETE unless accepted; 0: a warning),
 * meaning.
 */
#define DLB_QUALITY_FLAGS(X)								\
	X(LOST_EVENTS,		"lost_events",		1, "the ring buffer lost events")	\
	X(TRUNCATED,		"truncated",		1, "the trace file is truncated")	\
	X(CPUS_WITHOUT_EVENTS,	"cpus_without_events",	1, "CPUs recorded no event")	\
	X(BACKWARDS,		"backwards_timestamps",	1, "timestamps went backwards")	\
	X(BAD_LINES,		"bad_lines",		1, "trace lines or records could not be parsed") \
	X(BAD_MARKERS,		"bad_markers",		1, "markers of our dialect were malformed") \
	X(UNMATCHED_BEGIN,	"unmatched_begin",	1, "job begin markers without an end") \
	X(UNMATCHED_END,	"unmatched_end",	1, "job end markers without a begin") \
	X(CLOCK_MISMATCH,	"clock_mismatch",	1, "trace clock and marker or log times disagree") \
	X(MISSING_JOBS,		"missing_jobs",		1, "fewer jobs in the trace than in the generator's logs") \
	X(NO_SCHED_SWITCH,	"no_sched_switch",	1, "no sched_switch events: execution time, migrations and inversion unknown") \
	X(NO_EVENTS,		"no_events",		1, "the trace holds no events")	\
	X(RUN_INCOMPLETE,	"run_incomplete",	1, "the generator says its run did not complete") \
	X(MISSES_NOT_JUDGED,	"misses_not_judged",	1, "jobs of deadline tasks have no known deadline: their misses were not judged") \
	X(SCHEDSTAT_DISAGREE,	"schedstat_disagree",	0, "the kernel's schedstats disagree with the trace") \
	X(CLOCK_HEADER,		"clock_header",		0, "the trace file's header names another clock than the generator used")

enum dlb_quality {
#define X(id, name, sev, text) DLB_Q_##id,
	DLB_QUALITY_FLAGS(X)
#undef X
	DLB_Q_NR
};

struct dlb_quality_flag {
	u64 count;			/* 0: not raised */
	char detail[160];		/* first occurrence, or a summary */
};

struct dlb_run_metrics {
	u64 events, first_ts, last_ts;
	u64 switches, wakeups, migrations, markers, job_markers, other_markers;
	u64 implicit_switches;		/* a task ran with no sched_switch saying so */
	u64 irq_events;			/* interrupt and softirq events (0: not recorded) */
	u64 jobs, misses;
	u64 jobs_open_at_end;		/* begun, not ended when the trace stops */
	u64 inversion_ns;		/* time with at least one inverted task (union) */
	u64 inversion_sum_ns;		/* sum over tasks */
	int nr_cpus;			/* CPUs seen or declared */
	char backend[16], clock[16], workload[DLB_NAME_MAX];	/* from dlb_run start marker */
	bool run_start_seen, run_end_seen;
	enum dlb_run_status run_status;
	struct dlb_quality_flag quality[DLB_Q_NR];
	/*
	 * CPU stalls (struct dlb_cpu_metrics): not a data-quality matter but
	 * the machine's, summed over the CPUs checked (stall_cpus_checked 0:
	 * none could be), and the longest.
	 */
	int stall_cpus_checked;
	u64 stalls, stall_ns;
	struct dlb_stall stall_max;	/* to == from: none */
	int stall_max_cpu;
	u64 stalled_jobs, stall_misses, stall_overruns;	/* the tasks' sums */
};

struct dlb_metrics_opts {
	int nr_cpus;		/* 0: the CPUs seen in the events */
	dlb_job_fn job_fn;	/* may be NULL */
	void *job_arg;
	/* may be NULL: at finish, each job the trace stopped in (job.open), arg job_arg */
	dlb_job_fn open_fn;
	/*
	 * Jobs only: each job to job_fn and the counts, but no G-EDF
	 * inversion accounting (every inversion 0) and no per-task
	 * distributions (response, lateness, ... percentiles empty).  For the
	 * conformance replay's engine, whose jobs are wanted, not its
	 * statistics: the inversion accounting sorts the CPUs and the waiting
	 * tasks at every event, most of the replay's cost on many CPUs.
	 */
	bool jobs_only;
	/*
	 * The traced kernel's tick (CONFIG_HZ), ns; 0: unknown, CPU stalls are
	 * not looked for (analyzer/metrics_stall.c).
	 */
	u64 tick_ns;
};

struct dlb_metrics;	/* opaque */

struct dlb_metrics *dlb_metrics_create(const struct dlb_metrics_opts *opts, struct dlb_err *err);

/* A dlb_event_fn: feed events in time order.  Returns 0, or -1 on allocation failure. */
int dlb_metrics_event(const struct dlb_event *ev, void *arg);

/*
 * dlb_metrics_event() of a marker event whose text is known to say @mk
 * (the reference's own, dlb_sim_marker(): the conformance replay), taken
 * as dlb_marker_parse() would have returned it, without parsing the text.
 */
int dlb_metrics_marker_event(const struct dlb_event *ev, const struct dlb_marker *mk,
			     struct dlb_metrics *m);

/*
 * Declare a task's DL parameters from outside the trace (summary.json, a
 * /proc/PID/sched snapshot); markers in the trace take precedence.  @name
 * may be NULL.  Returns 0 or -1 (allocation).
 */
int dlb_metrics_set_params(struct dlb_metrics *m, int tid, const char *name,
			   u64 runtime, u64 deadline, u64 period);

/*
 * The traced kernel's tick (ns) when dlb_metrics_opts.tick_ns gave none:
 * another witness's (record.txt's measured tick_hz).  Before the first event.
 */
void dlb_metrics_set_tick(struct dlb_metrics *m, u64 tick_ns);

/*
 * The traced kernel's tick (ns) as the analysis took it: the options', else
 * dlb_metrics_set_tick()'s; 0 unknown.  The one answer for the stall check
 * and the conformance replay.
 */
u64 dlb_metrics_tick(const struct dlb_metrics *m);

/* The same for the task that will be called @name (rt-app logs, --params NAME=...). */
int dlb_metrics_set_params_by_name(struct dlb_metrics *m, const char *name, u64 runtime,
				   u64 deadline, u64 period);

/* Close the open intervals at the last event's time.  Call once, after the last event. */
void dlb_metrics_finish(struct dlb_metrics *m);

/* Raise a data-quality flag from outside (reader quality, log cross-check). */
void dlb_metrics_flag(struct dlb_metrics *m, enum dlb_quality q, u64 count, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

size_t dlb_metrics_nr_tasks(const struct dlb_metrics *m);
/* Tasks in order of tid. */
const struct dlb_task_metrics *dlb_metrics_task(const struct dlb_metrics *m, size_t i);
const struct dlb_task_metrics *dlb_metrics_task_by_tid(const struct dlb_metrics *m, int tid);
int dlb_metrics_nr_cpus(const struct dlb_metrics *m);
const struct dlb_cpu_metrics *dlb_metrics_cpu(const struct dlb_metrics *m, int cpu);
const struct dlb_run_metrics *dlb_metrics_run(const struct dlb_metrics *m);

/*
 * The times of the first DLB_TICK_SAMPLES sched_stat_runtime events on
 * @cpu charged to -deadline tasks, in trace order; *@n of them (0 in
 * jobs_only mode, or without such events).  The kernel charges the running
 * task at every tick, so these times hold the CPU's tick grid (the
 * conformance replay's tickphase, docs/conformance.md).
 */
#define DLB_TICK_SAMPLES	2048
const u64 *dlb_metrics_runtime_times(const struct dlb_metrics *m, int cpu, size_t *n);

/*
 * The intervals in which @cpu was taken by what a deadline task cannot
 * preempt (analyzer/metrics_unavail.c, docs/conformance.md "Unavailable
 * time"), in time order, *@n of them (0 in jobs_only mode).  Interrupts
 * are in only when the trace has their events (run.irq_events > 0).
 * Intervals less than DLB_UNAVAIL_MERGE_NS apart are merged.
 */
#define DLB_UNAVAIL_MERGE_NS	1000
/*
 * A fair task that keeps its CPU after a deadline task woke there behind
 * it: the fair server's share only when it keeps it this long; shorter is
 * the wake-up's preemption latency (resched IPI to switch: 9 us to 272 us,
 * median 17 us, in 273 such waits of a 1 s edf-global-2cpu run on this
 * host at load 7), a cost the diff shows, not time the algorithm gives
 * away.  Intervals where the kernel switched a fair task in while the
 * deadline task already waited there are the server's whatever their length.
 */
#define DLB_FAIR_LATENCY_NS	1000000
struct dlb_unavail {
	u64 from, to;
	unsigned int kind;		/* DLB_UA_* (jobstrace.h): what took it (both: merged) */
};
const struct dlb_unavail *dlb_metrics_unavail(const struct dlb_metrics *m, int cpu, size_t *n);

/*
 * The fair server's share (docs/conformance.md "Unavailable time"): the
 * intervals in which @cpu ran a fair task while a deadline task queued on
 * it (woken there, pushed or pulled there, or preempted there) was ready,
 * not running and not throttled.  On a kernel with the fair server that is
 * its reservation at work (or a kernel defect); before it, a defect.
 * dlb_metrics_unavail_fair() gives @cpu's intervals of dlb_metrics_unavail()
 * with these added as kind DLB_UA_FAIR, but at most @runtime of them in
 * each window [origin + k * period, origin + (k + 1) * period) (@period 0:
 * none), the earliest first: the reservation's worth; the rest is no
 * unavailable time.  Merged as dlb_metrics_unavail()'s (kinds or-ed), in
 * time order.  *@out: a new array (free()), *@n of them; @sum: what was
 * found and what was counted.  0, or -1 on allocation failure.
 */
struct dlb_fair_sum {
	size_t found;			/* fair intervals found */
	u64 found_ns;			/* their time */
	u64 counted_ns;			/* of it, within the reservation */
};
int dlb_metrics_unavail_fair(const struct dlb_metrics *m, int cpu, u64 runtime, u64 period,
			     u64 origin, struct dlb_unavail **out, size_t *n,
			     struct dlb_fair_sum *sum);

/*
 * @cpu's stalls (struct dlb_cpu_metrics), in time order, *@n of them (at
 * most DLB_STALLS_KEPT a CPU: the counts go on); none where not checked.
 */
#define DLB_STALLS_KEPT	4096
const struct dlb_stall *dlb_metrics_stalls(const struct dlb_metrics *m, int cpu, size_t *n);

const char *dlb_quality_name(enum dlb_quality q);
const char *dlb_quality_text(enum dlb_quality q);
/* 1: raising @q makes the data incomplete; 0: a warning. */
int dlb_quality_severity(enum dlb_quality q);
/* Index of the flag called @name, or -1. */
int dlb_quality_find(const char *name);

const char *dlb_rel_src_str(enum dlb_rel_src s);

void dlb_metrics_free(struct dlb_metrics *m);

#endif
