// SPDX-License-Identifier: GPL-2.0
/*
 * widen_dat IN OUT N SHIFT: a trace.dat with N CPU streams made from a
 * v6 trace.dat (little endian, top buffer only) recorded on fewer CPUs,
 * for the parallel reader's tests and bench on a machine with 2 CPUs.
 * Stream i is a copy of IN's stream i % M (M: IN's CPUs), its page
 * timestamps moved by (i / M) * SHIFT ns: SHIFT 0 gives ties across the
 * copies on every event, a small SHIFT interleaves them.  The header,
 * formats, kallsyms and options are IN's, with the two CPU counts
 * (before the options, and the CPUCOUNT option) set to N.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTION_CPUCOUNT	8	/* TRACECMD_OPTION_CPUCOUNT */

static int die(const char *msg)
{
	fprintf(stderr, "widen_dat: %s\n", msg);
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

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(b = malloc((size_t)n)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (f)
		fclose(f);
	*len = b ? (size_t)n : 0;
	return b;
}

static void *find(const unsigned char *b, size_t len, size_t from, const char *s, size_t n)
{
	return from < len ? memmem(b + from, len - from, s, n) : NULL;
}

int main(int argc, char **argv)
{
	static const char opts_tag[] = "options  ", fly_tag[] = "flyrecord";
	unsigned char *in, *p, *q, zero[8] = { 0 };
	uint64_t off[64], size[64], out_off, shift;
	uint32_t page, m, n, i;
	size_t len, opt, fly, pos;
	FILE *out;

	if (argc != 5)
		return die("usage: widen_dat IN OUT N SHIFT_NS");
	n = (uint32_t)strtoul(argv[3], NULL, 10);
	shift = strtoull(argv[4], NULL, 10);
	in = slurp(argv[1], &len);
	if (!in || len < 32 || memcmp(in + 10, "6", 2) || in[12] != 0 || in[13] != 8)
		return die("not a little-endian 64-bit v6 trace.dat");
	page = rd32(in + 14);
	p = find(in, len, 0, opts_tag, sizeof(opts_tag));
	if (!p)
		return die("no options section");
	opt = (size_t)(p - in) + sizeof(opts_tag);
	m = rd32(p - 4);
	if (m < 1 || m > 64 || n < 1 || n > 64)
		return die("CPU counts: 1..64");
	memcpy(p - 4, &n, 4);
	/* options: u16 id, u32 size, data; id 0 ends them */
	for (pos = opt; pos + 6 <= len && (in[pos] | in[pos + 1]); pos += 6 + rd32(in + pos + 2)) {
		if ((in[pos] | in[pos + 1] << 8) == 3)
			return die("a BUFFER option: instance buffers are not supported");
		if ((in[pos] | in[pos + 1] << 8) == OPTION_CPUCOUNT)
			memcpy(in + pos + 6, &n, 4);
	}
	q = find(in, len, pos, fly_tag, sizeof(fly_tag));
	if (!q)
		return die("no flyrecord section");
	fly = (size_t)(q - in) + sizeof(fly_tag);
	for (i = 0; i < m; i++) {
		off[i] = rd64(in + fly + 16 * i);
		size[i] = rd64(in + fly + 16 * i + 8);
		if (off[i] + size[i] > len || off[i] % page)
			return die("a CPU's data lies outside the file");
	}
	out = fopen(argv[2], "wb");
	if (!out)
		return die("cannot write the output");
	fwrite(in, 1, fly, out);
	out_off = (fly + 16 * (uint64_t)n + page - 1) / page * page;
	for (i = 0; i < n; i++) {
		uint64_t sz = (size[i % m] + page - 1) / page * page;

		fwrite(&out_off, 8, 1, out);
		fwrite(&size[i % m], 8, 1, out);
		out_off += sz;
	}
	for (pos = fly + 16 * n; pos % page; pos++)
		fwrite(zero, 1, 1, out);
	for (i = 0; i < n; i++) {
		uint64_t k = i / m, done;

		for (done = 0; done < (size[i % m] + page - 1) / page * page; done += page) {
			unsigned char *pg = malloc(page);
			uint64_t ts;

			memset(pg, 0, page);
			if (done < size[i % m])
				memcpy(pg, in + off[i % m] + done,
				       size[i % m] - done < page ? size[i % m] - done : page);
			ts = rd64(pg) + k * shift;
			memcpy(pg, &ts, 8);
			fwrite(pg, 1, page, out);
			free(pg);
		}
	}
	free(in);
	return fclose(out) ? die("write error") : 0;
}
