// SPDX-License-Identifier: GPL-2.0
/*
 * bare_iter FILE: the least a libtracecmd reader can do, for the bench's
 * baseline: merged iteration reading two fields per event (common_pid and
 * sched_switch's next_pid), with events and fields looked up once.
 */
#include <stdio.h>

#include <trace-cmd/trace-cmd.h>

struct bare {
	struct tep_format_field *pid, *next_pid;
	int switch_id;
	unsigned long long n, sum;
};

static int cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
	struct bare *b = arg;
	unsigned long long v = 0;

	(void)h;
	(void)cpu;
	b->n++;
	tep_read_number_field(b->pid, rec->data, &v);
	b->sum += v;
	if (*(unsigned short *)rec->data == b->switch_id) {
		tep_read_number_field(b->next_pid, rec->data, &v);
		b->sum += v;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_event *sw;
	struct bare b = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: bare_iter FILE\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "bare_iter: %s: cannot open\n", argv[1]);
		return 2;
	}
	sw = tep_find_event_by_name(tracecmd_get_tep(h), "sched", "sched_switch");
	if (!sw) {
		fprintf(stderr, "bare_iter: %s: no sched_switch\n", argv[1]);
		return 2;
	}
	b.switch_id = sw->id;
	b.pid = tep_find_common_field(sw, "common_pid");
	b.next_pid = tep_find_field(sw, "next_pid");
	tracecmd_iterate_events(h, NULL, 0, cb, &b);
	printf("events %llu\n", b.n);
	tracecmd_close(h);
	return b.sum == 42 ? 1 : 0;	/* keep the reads */
}
