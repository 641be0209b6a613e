// SPDX-License-Identifier: GPL-2.0
/*
 * repeat_dat IN OUT N: a trace.dat N times as long as IN, a v6 trace.dat
 * (little endian, top buffer only, no instance buffers): each CPU's pages
 * are written N times in a row, copy r with its page timestamps moved by
 * r times (twice IN's span + 1 s), so the stream stays in time order.
 * The header, formats, kallsyms and options are IN's; only the flyrecord
 * table (each CPU's data offset and size) is new.  For the memory tests:
 * traces of 1x and 4x the length with the same content.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int die(const char *msg)
{
	fprintf(stderr, "repeat_dat: %s\n", msg);
	return 2;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* @p past a section of @len_size bytes of length then its data; 0 if out of @n */
static size_t skip_sized(const unsigned char *b, size_t n, size_t p, int len_size)
{
	uint64_t sz;

	if (p + (size_t)len_size > n)
		return 0;
	sz = len_size == 8 ? rd64(b + p) : rd32(b + p);
	if (sz > n - p - (size_t)len_size)
		return 0;
	return p + (size_t)len_size + (size_t)sz;
}

/* Offset of the flyrecord table in @b (IN's bytes), 0 if not a v6 file we handle. */
static size_t find_table(const unsigned char *b, size_t n, uint32_t *page, uint32_t *cpus)
{
	size_t p = 10, i, j, cnt, sub;

	if (n < 64 || memcmp(b + 3, "tracing6", 9) || b[12] != 0 || b[13] != 8)
		return 0;
	*page = rd32(b + 14);
	p = 18;
	if (memcmp(b + p, "header_page", 12) || !(p = skip_sized(b, n, p + 12, 8)))
		return 0;
	if (memcmp(b + p, "header_event", 13) || !(p = skip_sized(b, n, p + 13, 8)))
		return 0;
	cnt = rd32(b + p);
	for (p += 4, i = 0; i < cnt; i++)	/* ftrace events */
		if (!(p = skip_sized(b, n, p, 8)))
			return 0;
	cnt = rd32(b + p);
	for (p += 4, i = 0; i < cnt; i++) {	/* event systems */
		p += strnlen((const char *)b + p, n - p) + 1;
		if (p + 4 > n)
			return 0;
		sub = rd32(b + p);
		for (p += 4, j = 0; j < sub; j++)
			if (!(p = skip_sized(b, n, p, 8)))
				return 0;
	}
	if (!(p = skip_sized(b, n, p, 4)) || !(p = skip_sized(b, n, p, 4)) ||	/* kallsyms, printk */
	    !(p = skip_sized(b, n, p, 8)) || p + 4 > n)			/* cmdlines */
		return 0;
	*cpus = rd32(b + p);
	p += 4;
	if (p + 10 <= n && !memcmp(b + p, "options  ", 10)) {
		for (p += 10; p + 2 <= n && (b[p] | b[p + 1]); )
			if (!(p = skip_sized(b, n, p + 2, 4)))
				return 0;
		p += 2;
	}
	if (p + 10 > n || memcmp(b + p, "flyrecord", 10) || p + 10 + *cpus * 16ull > n)
		return 0;
	return p + 10;
}

int main(int argc, char **argv)
{
	unsigned char *b, *pg;
	uint64_t lo = UINT64_MAX, hi = 0, shift, off, start;
	uint32_t page = 0, cpus = 0, c;
	size_t n, t, o;
	long reps, r;
	FILE *in, *out;

	if (argc != 4 || (reps = strtol(argv[3], NULL, 10)) < 1)
		return die("usage: repeat_dat IN OUT N");
	in = fopen(argv[1], "rb");
	if (!in || fseek(in, 0, SEEK_END) || (n = (size_t)ftell(in)) == 0 ||
	    fseek(in, 0, SEEK_SET) || !(b = malloc(n)) || fread(b, 1, n, in) != n)
		return die("cannot read IN");
	fclose(in);
	t = find_table(b, n, &page, &cpus);
	if (!t || !cpus || page < 1024)
		return die("IN is not a little-endian v6 trace.dat with one buffer");
	for (c = 0; c < cpus; c++) {
		uint64_t co = rd64(b + t + c * 16), cs = rd64(b + t + c * 16 + 8);

		if (co % page || cs % page || co + cs > n)
			return die("a CPU's data is not whole pages inside IN");
		for (o = co; o < co + cs; o += page) {
			lo = rd64(b + o) < lo ? rd64(b + o) : lo;
			hi = rd64(b + o) > hi ? rd64(b + o) : hi;
		}
	}
	shift = 2 * (hi - lo) + 1000000000ull;
	out = fopen(argv[2], "wb");
	if (!out || fwrite(b, 1, t, out) != t)
		return die("cannot write OUT");
	start = (t + cpus * 16ull + page - 1) / page * page;
	for (off = start, c = 0; c < cpus; c++) {
		uint64_t cs = rd64(b + t + c * 16 + 8) * (uint64_t)reps;

		if (fwrite(&off, 8, 1, out) != 1 || fwrite(&cs, 8, 1, out) != 1)
			return die("cannot write OUT");
		off += cs;
	}
	for (o = t + cpus * 16; o < start; o++)
		fputc(0, out);
	pg = malloc(page);
	for (c = 0; c < cpus && pg; c++) {
		uint64_t co = rd64(b + t + c * 16), cs = rd64(b + t + c * 16 + 8);

		for (r = 0; r < reps; r++)
			for (o = co; o < co + cs; o += page) {
				uint64_t ts = rd64(b + o) + (uint64_t)r * shift;

				memcpy(pg, b + o, page);
				memcpy(pg, &ts, 8);
				if (fwrite(pg, 1, page, out) != page)
					return die("cannot write OUT");
			}
	}
	if (!pg || fclose(out))
		return die("cannot write OUT");
	free(pg);
	free(b);
	return 0;
}
