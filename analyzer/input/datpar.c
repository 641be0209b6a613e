// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat's per-CPU streams decoded on threads, merged here by time.
 *
 * Each ring buffer is written in order per CPU, so each CPU's stream can
 * be read and decoded on its own; only the merge needs them all.  A
 * worker thread owns a set of streams (stream i goes to worker i % jobs)
 * and decodes their records (tracecmd_read_data + dat_decode) into
 * chunks; the reading thread merges the chunks' slots by time and applies
 * them (dat_apply: quality record, lost events, the consumer), so the
 * consumer runs on the caller's thread as before.
 *
 * Why one handle is shared: tracecmd_read_data(h, cpu) touches only that
 * CPU's state in the handle (its page, kbuffer, page maps, next record;
 * libtracecmd 1.3, trace-input.c; the "current handle" it sets is
 * __thread), and each stream has one reader.  A second handle per thread
 * would parse the file's metadata, kallsyms included, again.  Compressed
 * data read directly is the exception (one decompression context per
 * handle): dat.c reads it on one thread.  (libtracecmd reads pages with
 * lseek + read on the handle's one descriptor only when mmap fails at open,
 * which a 64-bit host does not see; the threads would then share its offset.)
 *
 * Memory stays bounded: each stream has a ring of DAT_RING chunks of
 * DAT_CHUNK slots; a worker fills a chunk only when its ring has room,
 * and the merge hands a chunk back when it has applied its last slot.
 * A worker never waits on one full ring while another of its streams has
 * room, so the merge, waiting on an empty stream, always gets its data.
 *
 * Order: the same as tracecmd_iterate_events_multi() (and _events() for
 * one buffer): the smallest timestamp first, compared as unsigned, and
 * on a tie the first stream in (buffer, CPU) order.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dat_local.h"

/*
 * A chunk holds DAT_CHUNK slots and 64 bytes of marker text a slot; a
 * marker that does not fit ends the chunk, and an empty chunk grows its
 * text to take it (a record fits in a page).  Per stream: DAT_RING chunks
 * of 1024 slots of 104 bytes and 64 KB of text, 0.7 MB.  For the tests,
 * DLB_TRACE_CHUNK=SLOTS[:TEXT] sets both (tiny chunks cross every
 * boundary, a tiny text overflows).
 */
#define DAT_CHUNK	1024
#define DAT_RING	4	/* chunks a stream may have decoded ahead */
#define DAT_TEXT_SLOT	64

struct par_chunk {
	int n;			/* slots filled */
	size_t text_used, text_size;
	struct dat_slot *slot;
	char *text;		/* markers' text, the slots point into it */
};

struct par_worker;

struct par_stream {
	struct tracecmd_input *h;
	int cpu;			/* index in h */
	int idx;			/* in all the streams, (buffer, CPU) order */
	struct par_worker *w;
	struct par_chunk ring[DAT_RING];
	unsigned int head, tail;	/* w->lock: chunks [head, tail) are decoded */
	bool done;			/* w->lock: tail is the last one */
	struct tep_record *pending;	/* worker: read, did not fit in the last chunk */
	const struct dat_slot *cur;	/* merge: the next slot, NULL at the end */
	int pos;			/* merge: its index in ring[head % DAT_RING] */
};

struct par_worker {
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t room;		/* the merge handed a chunk back, or stop */
	pthread_cond_t data;		/* a chunk is decoded */
	bool stop;
	struct par_stream **streams;
	int nr;
	const struct dat_reader *d;
	int chunk;			/* slots a chunk holds */
	size_t text_size;		/* marker text a chunk holds at first */
};

/* Decode one chunk of @s's records; true at the end of the stream. */
static bool fill_chunk(struct par_worker *w, struct par_stream *s, struct par_chunk *c)
{
	c->n = 0;
	c->text_used = 0;
	while (c->n < w->chunk) {
		struct tep_record *rec = s->pending ? s->pending : tracecmd_read_data(s->h, s->cpu);
		struct dat_slot *sl = &c->slot[c->n];

		s->pending = NULL;
		if (!rec)
			return true;
		dat_release_behind(w->d, s->idx, rec);
		dat_decode(w->d, rec, sl);
		if (sl->kind == DAT_SLOT_EVENT && sl->ev.type == DLB_EV_MARKER) {
			/* its text lives in the record: copy it */
			if (c->text_used + sl->ev.mark.len > c->text_size) {
				char *t = c->n ? NULL : realloc(c->text, sl->ev.mark.len);

				if (!t) {
					s->pending = rec;	/* the next chunk's first */
					return false;
				}
				c->text = t;
				c->text_size = sl->ev.mark.len;
			}
			memcpy(c->text + c->text_used, sl->ev.mark.text, sl->ev.mark.len);
			sl->ev.mark.text = c->text + c->text_used;
			c->text_used += sl->ev.mark.len;
		}
		tracecmd_free_record(rec);
		c->n++;
	}
	return false;
}

/* Under w->lock: the stream whose ring is emptiest and has room; NULL if none. */
static struct par_stream *pick_stream(struct par_worker *w, bool *all_done)
{
	struct par_stream *best = NULL;
	int i;

	*all_done = true;
	for (i = 0; i < w->nr; i++) {
		struct par_stream *s = w->streams[i];

		if (s->done)
			continue;
		*all_done = false;
		if (s->tail - s->head < DAT_RING &&
		    (!best || s->tail - s->head < best->tail - best->head))
			best = s;
	}
	return best;
}

static void *worker_main(void *arg)
{
	struct par_worker *w = arg;

	for (;;) {
		struct par_stream *s = NULL;
		bool all_done, end;

		pthread_mutex_lock(&w->lock);
		while (!w->stop && !(s = pick_stream(w, &all_done)) && !all_done)
			pthread_cond_wait(&w->room, &w->lock);
		pthread_mutex_unlock(&w->lock);
		if (!s)
			return NULL;	/* stopped, or every stream is read */
		/* [head, tail) belong to the merge; ring[tail] is ours until published */
		end = fill_chunk(w, s, &s->ring[s->tail % DAT_RING]);
		pthread_mutex_lock(&w->lock);
		s->tail++;
		s->done = end;
		pthread_cond_signal(&w->data);
		pthread_mutex_unlock(&w->lock);
	}
}

/*
 * The merge's next slot of @s: the next in its chunk, else (handing the
 * chunk back) the first of the next decoded one, waiting for it.
 */
static void stream_next(struct par_stream *s, bool first)
{
	struct par_worker *w = s->w;
	const struct par_chunk *c;

	if (!first && ++s->pos < s->ring[s->head % DAT_RING].n) {
		s->cur = &s->ring[s->head % DAT_RING].slot[s->pos];
		return;
	}
	pthread_mutex_lock(&w->lock);
	if (!first) {
		s->head++;
		pthread_cond_signal(&w->room);
	}
	for (;;) {
		while (s->head == s->tail && !s->done)
			pthread_cond_wait(&w->data, &w->lock);
		if (s->head == s->tail) {		/* done: the end */
			s->cur = NULL;
			break;
		}
		c = &s->ring[s->head % DAT_RING];
		if (c->n) {
			s->pos = 0;
			s->cur = &c->slot[0];
			break;
		}
		s->head++;				/* an empty last chunk */
		pthread_cond_signal(&w->room);
	}
	pthread_mutex_unlock(&w->lock);
}

/* The smallest timestamp first, on a tie the first stream: libtracecmd's order. */
static int merge(struct dat_reader *d, struct par_stream *st, int nr)
{
	for (;;) {
		int i, next = -1;
		u64 ts = 0;

		for (i = 0; i < nr; i++) {
			if (st[i].cur && (next < 0 || st[i].cur->ev.ts < ts)) {
				next = i;
				ts = st[i].cur->ev.ts;
			}
		}
		if (next < 0)
			return 0;
		if (dat_apply(d, st[next].cur))
			return -1;
		stream_next(&st[next], false);
	}
}

static void stop_workers(struct par_worker *w, int jobs)
{
	int i;

	for (i = 0; i < jobs; i++) {
		if (!w[i].started)
			continue;
		pthread_mutex_lock(&w[i].lock);
		w[i].stop = true;
		pthread_cond_broadcast(&w[i].room);
		pthread_mutex_unlock(&w[i].lock);
		pthread_join(w[i].thread, NULL);
	}
}

static void free_streams(struct par_stream *st, int nr)
{
	int i, k;

	for (i = 0; i < nr; i++) {
		if (st[i].pending)
			tracecmd_free_record(st[i].pending);
		for (k = 0; k < DAT_RING; k++) {
			free(st[i].ring[k].slot);
			free(st[i].ring[k].text);
		}
	}
	free(st);
}

static void free_workers(struct par_worker *w, int jobs)
{
	int i;

	for (i = 0; i < jobs; i++) {
		pthread_mutex_destroy(&w[i].lock);
		pthread_cond_destroy(&w[i].room);
		pthread_cond_destroy(&w[i].data);
		free(w[i].streams);
	}
	free(w);
}

/* Streams in (buffer, CPU) order, each given to worker index % jobs. */
static struct par_stream *make_streams(struct tracecmd_input **bufs, int nr_bufs,
				       struct par_worker *w, int jobs, int *nr)
{
	struct par_stream *st;
	int b, cpu, i, k, n = 0;

	for (b = 0; b < nr_bufs; b++)
		n += tracecmd_cpus(bufs[b]) > 0 ? tracecmd_cpus(bufs[b]) : 0;
	st = calloc((size_t)n ? (size_t)n : 1, sizeof(*st));
	if (!st)
		return NULL;
	*nr = n;
	for (i = 0; i < jobs; i++) {
		w[i].streams = calloc((size_t)n / (size_t)jobs + 1, sizeof(*w[i].streams));
		if (!w[i].streams)
			goto fail;
	}
	for (b = 0, i = 0; b < nr_bufs; b++) {
		for (cpu = 0; cpu < tracecmd_cpus(bufs[b]); cpu++, i++) {
			struct par_worker *wk = &w[i % jobs];

			st[i].h = bufs[b];
			st[i].cpu = cpu;
			st[i].idx = i;
			st[i].w = wk;
			wk->streams[wk->nr++] = &st[i];
			for (k = 0; k < DAT_RING; k++) {
				struct par_chunk *c = &st[i].ring[k];

				c->slot = malloc((size_t)wk->chunk * sizeof(*c->slot));
				c->text = malloc(wk->text_size);
				c->text_size = wk->text_size;
				if (!c->slot || !c->text)
					goto fail;
			}
		}
	}
	return st;
fail:
	free_streams(st, n);
	return NULL;
}

int dat_par_read(struct dat_reader *d, struct tracecmd_input **bufs, int nr_bufs, int jobs,
		 bool *failed)
{
	const char *env = getenv("DLB_TRACE_CHUNK");
	long chunk = DAT_CHUNK, text = -1;
	size_t text_size;
	struct par_worker *w;
	struct par_stream *st;
	int i, nr = 0, r = -1;

	if (env && *env) {
		char *end;

		chunk = strtol(env, &end, 10);
		if (*end == ':')
			text = strtol(end + 1, NULL, 10);
		if (chunk < 1 || chunk > 1 << 20)
			chunk = DAT_CHUNK;
	}
	text_size = text >= 1 && text <= 1 << 24 ? (size_t)text : (size_t)chunk * DAT_TEXT_SLOT;
	w = calloc((size_t)jobs, sizeof(*w));
	if (!w) {
		*failed = true;
		return -1;
	}
	for (i = 0; i < jobs; i++) {
		pthread_mutex_init(&w[i].lock, NULL);
		pthread_cond_init(&w[i].room, NULL);
		pthread_cond_init(&w[i].data, NULL);
		w[i].d = d;
		w[i].chunk = (int)chunk;
		w[i].text_size = text_size;
	}
	st = make_streams(bufs, nr_bufs, w, jobs, &nr);
	if (!st) {
		*failed = true;
		goto out;
	}
	for (i = 0; i < jobs; i++) {
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			*failed = true;
			goto stop;
		}
		w[i].started = true;
	}
	for (i = 0; i < nr; i++)
		stream_next(&st[i], true);
	r = merge(d, st, nr);
stop:
	stop_workers(w, jobs);
	free_streams(st, nr);
out:
	free_workers(w, jobs);
	return r;
}
