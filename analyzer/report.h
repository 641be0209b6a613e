/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dlb-analyze writes: report.json (schema: docs/report-json.md),
 * report.txt (the human table) and jobs.csv (one row per job, streamed).
 */
#ifndef DLB_REPORT_H
#define DLB_REPORT_H

#include <stdio.h>

#include "dlbench/error.h"
#include "dlbench/summary.h"
#include "conform.h"
#include "input/schedstat.h"
#include "metrics.h"
#include "verdict.h"

#define DLB_REPORT_VERSION	2
#define DLB_REPORT_MAX_NOTES	32

/* One row of the reference's ops.csv: the cost of a scheduling decision. */
struct dlb_report_op {
	char op[16], cpu_select[16], unit[16];
	int cpus;
	unsigned long long calls, done, min, max, p50, p99;
	double mean;
};

#define DLB_REPORT_MAX_OPS	8

/*
 * The scheduler's own statistics around a kernel run: the folder's
 * sched-debug-before.txt/-after.txt (debugfs sched/debug: SCHED_DEBUG) and
 * schedstat-before.txt/-after.txt (/proc/schedstat: SCHEDSTATS), per CPU.
 */
struct dlb_kstats_cpu {
	int cpu;
	struct dlb_dl_rq before, after;		/* has == 0: not in both sched debug snapshots */
	bool schedstat;				/* the CPU is in both schedstat snapshots */
	struct dlb_schedstat_cpu delta;		/* after less before */
};

struct dlb_kstats {
	bool sched_debug, schedstat;		/* which pair of snapshots was read */
	int schedstat_version;
	int nr_cpus;
	struct dlb_kstats_cpu *cpus;		/* [nr_cpus] */
};

/*
 * A guest's DL bandwidth accounting at boot, checked by its /init before the
 * run (guest.txt boot_dl_*, docs/guest.md): a kernel finding of its own when
 * the fair servers exist but are not counted (docs/kernel-findings.md 2),
 * repaired before the run when it could be.  Shown, never judged: the run's
 * own check (dl_accounting) judges the run.
 */
struct dlb_boot_dlbw {
	char status[32];		/* ok, finding_repaired, finding, not_checked */
	char detail[512];
	long long total_bw, fair_bw, repaired;	/* CPU 0's at boot, expected, after the repair; -1: none */
};

/* What the report says about where the data came from and how it is judged. */
struct dlb_report_info {
	const char *kernel, *arch;	/* of the recording machine; NULL: unknown */
	const char *image, *image_sha256;	/* the kernel image a guest booted (guest.txt) */
	const char *clock, *backend, *workload;	/* NULL: from the run marker, else unknown */
	const char *clock_from;		/* who said ri->clock: "record.txt", "summary.json" */
	const char *cmdline;
	const char *input;		/* trace or folder analyzed */
	const char *format;		/* trace format */
	int cpus;			/* 0: from the metrics */
	unsigned int accepted;		/* bit q: quality flag q accepted by the user */
	/* how the run is judged (verdict.h) */
	long long max_misses;		/* misses allowed before DLB_EXIT_REGRESSION; -1: any */
	bool max_misses_pct;		/* max_misses is a percentage of the watched jobs */
	enum dlb_expect expect;
	const char *watch;		/* NULL or "*": every task */
	bool have_run_exit;
	int run_exit;			/* the generator's exit code (--run-exit) */
	/* what summary.json says (crosscheck.c) */
	bool have_summary;
	enum dlb_run_status run_status;
	enum dlb_admission admission;
	char admission_detail[DLB_ERR_MAX];
	bool no_trace;			/* a run folder without a trace (refused, failed) */
	bool have_baseline;
	int baseline_exit;		/* dlb-analyze compare's code against --baseline */
	char baseline_detail[256];
	const char *kernel_check;	/* a kernel check that found a defect ("dl_accounting") */
	const char *kernel_finding;	/* its detail; NULL: no finding */
	int nr_notes;
	char notes[DLB_REPORT_MAX_NOTES][192];
	int nr_ops;			/* decision costs (reference run folders) */
	struct dlb_report_op ops[DLB_REPORT_MAX_OPS];
	/* the kernel's DL accounting around the run (summary.json), NULL if none */
	const struct dlb_summary_dlbw *dlbw;
	/* the guest's accounting at boot, before the run (guest.txt), NULL if none */
	const struct dlb_boot_dlbw *boot_dlbw;
	/* the scheduler's statistics around the run (crosscheck.c), NULL if none */
	const struct dlb_kstats *kstats;
	/* the run held against the reference's replay of it (conform.h), NULL if none */
	const struct dlb_conform *conform;
};

/* Add a note (printf format); silently ignored past DLB_REPORT_MAX_NOTES. */
void dlb_report_note(struct dlb_report_info *ri, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Notes the metrics themselves call for (inferred releases, missing parameters...). */
void dlb_report_auto_notes(struct dlb_report_info *ri, const struct dlb_metrics *m);

/* The verdict (verdict.h) of the run @ri describes; @m may be NULL (no trace). */
void dlb_report_verdict(const struct dlb_metrics *m, const struct dlb_report_info *ri,
			struct dlb_verdict *v);

/*
 * The exit code the run deserves: the verdict's.  @why (may be NULL) gets
 * its one line.
 */
int dlb_report_exit(const struct dlb_metrics *m, const struct dlb_report_info *ri,
		    char *why, size_t size);

int dlb_report_json(FILE *f, const struct dlb_metrics *m, const struct dlb_report_info *ri,
		    struct dlb_err *err);
int dlb_report_txt(FILE *f, const struct dlb_metrics *m, const struct dlb_report_info *ri);

/* jobs.csv */
void dlb_jobs_csv_header(FILE *f);
void dlb_jobs_csv_row(FILE *f, const struct dlb_job *j);
/*
 * stalls.csv: the CPU stalls (docs/analyzer.md "CPU stalls") of the CPUs
 * checked, by CPU then time, the first DLB_STALLS_KEPT of each; the header
 * alone when there are none or none could be checked (report.json says).
 */
void dlb_stalls_csv(FILE *f, const struct dlb_metrics *m);
/* A CSV field: quoted when it holds a comma, a quote or a newline (RFC 4180). */
void dlb_csv_str(FILE *f, const char *s);

/*
 * The name a task is compared by across runs (tids differ): its name, with
 * "#k" for the k-th (k >= 2) task of the same name in tid order, or "tid N".
 */
void dlb_report_task_key(const struct dlb_metrics *m, size_t i, char *buf, size_t size);

#endif
