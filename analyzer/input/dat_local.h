/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the trace.dat reader: dat.c decodes records and keeps the
 * quality record, datpar.c decodes the per-CPU streams on threads and
 * merges them.  A record is decoded into a slot without touching shared
 * state (dat_decode, any thread), and a slot is applied -- quality
 * counted, event delivered -- in stream order on the reading thread
 * (dat_apply): the serial and the parallel reader differ only in where
 * the decoding runs and in who merges.
 */
#ifndef DLB_DAT_LOCAL_H
#define DLB_DAT_LOCAL_H

#include <trace-cmd/trace-cmd.h>

#include "local.h"

/* Exported by libtracecmd 1.3, not declared in its public header: a handle's CPU streams. */
int tracecmd_cpus(struct tracecmd_input *handle);

enum dat_slot_kind {
	DAT_SLOT_EVENT,		/* ev is a decoded event */
	DAT_SLOT_BAD,		/* the record cannot be decoded (counted, offset kept) */
	DAT_SLOT_UNKNOWN,	/* a well-formed event we do not use */
};

/* One record, decoded. */
struct dat_slot {
	struct dlb_event ev;	/* ts and cpu are set for every kind */
	u64 offset;		/* the record's offset in the file (BAD) */
	long long missed;	/* events lost before it: > 0 count, < 0 unknown, 0 none */
	enum dat_slot_kind kind;
};

struct dat_reader;

/*
 * Decode @rec into @s; reads only @d's tables, set at open, so any thread
 * may call it.  A marker's text points into @rec.
 */
void dat_decode(const struct dat_reader *d, const struct tep_record *rec, struct dat_slot *s);

/*
 * Release the mapped pages of stream @stream (0..streams-1, in (buffer,
 * CPU) order, as tracecmd_iterate_events_multi() numbers them) behind
 * @rec, just read from it.  Only the thread that reads the stream may call
 * it for that stream; nothing else is shared.
 */
void dat_release_behind(const struct dat_reader *d, int stream, const struct tep_record *rec);

/* Count @s in the quality record and deliver its events; -1 stops the read. */
int dat_apply(struct dat_reader *d, const struct dat_slot *s);

/*
 * Read @bufs' per-CPU streams on @jobs threads (>= 2) and apply their
 * records on this thread in the order tracecmd_iterate_events_multi()
 * gives.  Returns 0 at the end, -1 when dat_apply() stopped the read or
 * on an allocation or thread failure (*@failed set for the latter).
 */
int dat_par_read(struct dat_reader *d, struct tracecmd_input **bufs, int nr_bufs, int jobs,
		 bool *failed);

#endif
