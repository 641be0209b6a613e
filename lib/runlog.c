// SPDX-License-Identifier: GPL-2.0
/* rt-app's per-thread log format: writer and parser (see runlog.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/runlog.h"

#define RUNLOG_COLUMNS	11

static const char *const column_name[RUNLOG_COLUMNS] = {
	"idx", "perf", "run", "period", "start", "end", "rel_st", "slack",
	"c_duration", "c_period", "wu_lat",
};

static int fit(int n, size_t size)
{
	return n < 0 || (size_t)n >= size ? -1 : n;
}

int dlb_runlog_header(char *buf, size_t size, const char *policy_name, bool with_prio, int prio)
{
	int n;

	if (with_prio)
		n = snprintf(buf, size, "# Policy : %s priority : %d\n", policy_name, prio);
	else
		n = snprintf(buf, size, "# Policy : %s\n", policy_name);
	if (fit(n, size) < 0)
		return -1;
	/* rt-app 1.0's widths: "%s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s" */
	return fit(n + snprintf(buf + n, size - (size_t)n,
				"#idx %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s\n",
				"perf", "run", "period", "start", "end", "rel_st", "slack",
				"c_duration", "c_period", "wu_lat"), size);
}

int dlb_runlog_format(char *buf, size_t size, const struct dlb_runlog_rec *r)
{
	return fit(snprintf(buf, size, "%4d %8llu %8llu %8llu %15llu %15llu %15llu %10lld "
			    "%10llu %10llu %10llu\n", r->idx,
			    (unsigned long long)r->perf, (unsigned long long)r->run,
			    (unsigned long long)r->period, (unsigned long long)r->start,
			    (unsigned long long)r->end, (unsigned long long)r->rel_st,
			    (long long)r->slack, (unsigned long long)r->c_duration,
			    (unsigned long long)r->c_period, (unsigned long long)r->wu_lat),
		   size);
}

/*
 * The common field: plain digits, few enough that they cannot overflow,
 * then a separator.  Parsed here, as strtoull() would (a conformance check
 * reads every log of the run: strtoull was most of that); anything else
 * (a sign, a long number, a stray character) is left to strto[u]ll and its
 * errors.  Returns whether it parsed the field.
 */
static bool fast_field(const char **p, bool is_signed, u64 *out)
{
	const char *s = *p;
	u64 v = 0;
	int n;

	for (n = 0; n < (is_signed ? 18 : 19) && *s >= '0' && *s <= '9'; n++, s++)
		v = v * 10 + (u64)(*s - '0');
	if (!n || (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r'))
		return false;
	*p = s;
	*out = v;
	return true;
}

/* One signed or unsigned decimal field; *@p advanced past it. */
static int parse_field(const char **p, int col, bool is_signed, u64 *out, struct dlb_err *err)
{
	const char *s = *p;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0' || *s == '\n')
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "column %d (%s): missing", col + 1,
				   column_name[col]);
	if (!is_signed && *s == '-')
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "column %d (%s): negative value",
				   col + 1, column_name[col]);
	if (fast_field(&s, is_signed, out)) {
		*p = s;
		return 0;
	}
	errno = 0;
	if (is_signed)
		*out = (u64)strtoll(s, &end, 10);
	else
		*out = strtoull(s, &end, 10);
	if (end == s || errno == ERANGE || (*end && *end != ' ' && *end != '\t' && *end != '\n'
					    && *end != '\r'))
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "column %d (%s): not a number",
				   col + 1, column_name[col]);
	*p = end;
	return 0;
}

int dlb_runlog_parse(const char *line, struct dlb_runlog_rec *r, struct dlb_err *err)
{
	u64 v[RUNLOG_COLUMNS];
	const char *p = line;
	int i;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#' || *p == '\0' || *p == '\n' || *p == '\r')
		return 0;
	for (i = 0; i < RUNLOG_COLUMNS; i++)
		if (parse_field(&p, i, i == 0 || i == 7, &v[i], err))
			return -1;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "more than %d columns", RUNLOG_COLUMNS);
	r->idx = (int)(s64)v[0];
	r->perf = v[1];
	r->run = v[2];
	r->period = v[3];
	r->start = v[4];
	r->end = v[5];
	r->rel_st = v[6];
	r->slack = (s64)v[7];
	r->c_duration = v[8];
	r->c_period = v[9];
	r->wu_lat = v[10];
	return 1;
}

static void policy_from_comment(const char *line, char *policy, size_t size)
{
	const char *s = line + strlen("# Policy : ");
	size_t n = strcspn(s, " \n");

	if (n >= size)
		n = size - 1;
	memcpy(policy, s, n);
	policy[n] = '\0';
}

int dlb_runlog_read(const char *path, struct dlb_runlog_rec **recs, size_t *nr,
		    char *policy, size_t policy_size, struct dlb_err *err)
{
	struct dlb_runlog_rec *v = NULL, *nv;
	size_t n = 0, cap = 0, len = 0;
	char *line = NULL;
	unsigned int lineno = 0;
	FILE *f;
	int rc;

	if (policy && policy_size)
		policy[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return dlb_err_set(err, DLB_EXIT_BAD_INPUT, "%s: %s", path, dlb_strerror(errno));
	while (getline(&line, &len, f) > 0) {
		lineno++;
		if (policy && policy_size && !strncmp(line, "# Policy : ", 11))
			policy_from_comment(line, policy, policy_size);
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				dlb_err_set(err, DLB_EXIT_INTERNAL, "%s: out of memory", path);
				goto fail;
			}
			v = nv;
		}
		rc = dlb_runlog_parse(line, &v[n], err);
		if (rc < 0) {
			dlb_err_prefix(err, "%s:%u", path, lineno);
			goto fail;
		}
		n += (size_t)rc;
	}
	free(line);
	fclose(f);
	*recs = v;
	*nr = n;
	return 0;
fail:
	free(line);
	free(v);
	fclose(f);
	return -1;
}
