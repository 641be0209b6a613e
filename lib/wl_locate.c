// SPDX-License-Identifier: GPL-2.0
/*
 * The position locator of the workload loader (see wl_local.h).  It runs
 * only on text json-c has accepted, so it can be lenient: it follows
 * json-c's extensions (comments, trailing commas, single quotes) and never
 * reports syntax errors itself.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_local.h"

/*
 * Every key path of the file ("tasks.t0.dl-runtime", "tasks.t0.cpus[1]"),
 * in file order.  The paths live in one arena (a path is its parent's path
 * plus a key, built in place) and are found by a hash table: a malloc and a
 * sort per key made the index of a 400k-task file cost more than parsing it.
 */
struct wl_loc_ent {
	size_t path;		/* offset of the path in the arena */
	size_t key_off;
	size_t val_off;
	size_t end;		/* just past the value (or where the text ended) */
	bool shadowed;		/* a later entry has the same path (not renamed): not found */
};

/*
 * Positions are asked for once per task, phase and event: counting lines
 * from byte 0 each time made loading quadratic in the number of tasks.  The
 * index keeps the line:col of every WL_LOC_MARK-th byte, so a position costs
 * at most WL_LOC_MARK bytes of counting, whatever the file's shape (one task
 * a line, or all of it on one line).
 */
#define WL_LOC_MARK_SHIFT	6
#define WL_LOC_MARK		((size_t)1 << WL_LOC_MARK_SHIFT)

struct wl_loc_slot {
	size_t ent;		/* entry index + 1, 0: empty */
	size_t hash;		/* of its path: most probes need no strcmp */
};

struct wl_loc {
	struct wl_loc_ent *ent;
	size_t nr, cap;
	char *arena;		/* NUL-terminated paths; offset 0 is "", the root */
	size_t arena_len, arena_cap;
	struct wl_loc_slot *slot;	/* open addressing by path */
	size_t slot_mask;
	const char *buf;
	size_t len;
	struct wl_pos *mark;	/* mark[k]: the position of byte k * WL_LOC_MARK */
	struct wl_loc_rename *ren;	/* in file order */
	size_t nr_ren, cap_ren;
	char **ren_parent;	/* objects with a rename, and workgen's index in each */
	unsigned int *ren_id;
	size_t nr_parent;
	size_t hint;		/* the entry wl_loc_find found last */
};

struct wl_scan {
	const char *b;
	size_t len, i;
	struct wl_loc *loc;
	bool oom;
};

static void scan_value(struct wl_scan *s, size_t path);

static const char *ent_path(const struct wl_loc *l, size_t idx)
{
	return l->arena + l->ent[idx].path;
}

static void scan_skip_ws(struct wl_scan *s)
{
	while (s->i < s->len) {
		const char *p = s->b + s->i;

		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			s->i++;
		} else if (*p == '/' && s->i + 1 < s->len && p[1] == '/') {
			while (s->i < s->len && s->b[s->i] != '\n')
				s->i++;
		} else if (*p == '/' && s->i + 1 < s->len && p[1] == '*') {
			s->i += 2;
			while (s->i + 1 < s->len && !(s->b[s->i] == '*' && s->b[s->i + 1] == '/'))
				s->i++;
			s->i += 2;
		} else {
			break;
		}
	}
}

static void utf8_put(char *out, size_t *n, unsigned int cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xe0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/*
 * Decode the quoted string at s->i into @out (NULL: only count), as json-c
 * decodes keys (BMP escapes); returns its length and leaves s->i past it.
 */
/*
 * Four hex digits at @p (a \u escape); sscanf() is no use here: it reads
 * up to a NUL the buffer need not have (fuzz find, regress/workload/).
 */
static bool hex4(const char *p, unsigned int *cp)
{
	unsigned int v = 0;
	int k;

	for (k = 0; k < 4; k++) {
		char c = p[k];

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (unsigned int)(c - 'A' + 10);
		else
			return false;
	}
	*cp = v;
	return true;
}

static size_t scan_string_into(struct wl_scan *s, char *out)
{
	char q = s->b[s->i++], u8[3];
	size_t n = 0, k, w;

	while (s->i < s->len && s->b[s->i] != q) {
		char c = s->b[s->i++], d = c;
		unsigned int cp;

		if (c == '\\' && s->i < s->len) {
			switch ((c = s->b[s->i++])) {
			case 'b': d = '\b'; break;
			case 'f': d = '\f'; break;
			case 'n': d = '\n'; break;
			case 'r': d = '\r'; break;
			case 't': d = '\t'; break;
			case 'u':
				if (s->i + 4 <= s->len && hex4(s->b + s->i, &cp)) {
					s->i += 4;
					w = 0;
					utf8_put(u8, &w, cp);
					for (k = 0; k < w; k++, n++)
						if (out)
							out[n] = u8[k];
				}
				continue;
			default: d = c; break;
			}
		}
		if (out)
			out[n] = d;
		n++;
	}
	s->i++;
	return n;
}

/* Room for @n more bytes in the arena; 0 or -1 (out of memory). */
static int arena_reserve(struct wl_scan *s, size_t n)
{
	struct wl_loc *l = s->loc;
	size_t cap = l->arena_cap ? l->arena_cap : 4096;
	char *a;

	if (l->arena_len + n <= l->arena_cap)
		return 0;
	while (cap < l->arena_len + n)
		cap *= 2;
	a = realloc(l->arena, cap);
	if (!a) {
		s->oom = true;
		return -1;
	}
	l->arena = a;
	l->arena_cap = cap;
	return 0;
}

/*
 * A child path in the arena: @parent's path, then ".key" (the key string at
 * s->i, decoded) or "[idx]" when @key is false.  Returns its offset; s->oom
 * on failure.
 */
static size_t arena_child(struct wl_scan *s, size_t parent, bool key, unsigned int idx)
{
	size_t plen = strlen(s->loc->arena + parent), start = s->i, n, off;
	const char *q = NULL;
	char *p;

	/*
	 * A key without a backslash (all of them, in practice) is its text:
	 * copied at once instead of decoded twice (to size, then to copy).
	 */
	if (key) {
		q = memchr(s->b + start + 1, s->b[start], s->len - start - 1);
		if (q && memchr(s->b + start + 1, '\\', (size_t)(q - s->b) - start - 1))
			q = NULL;
	}
	if (q)
		n = (size_t)(q - s->b) - start - 1;
	else
		n = key ? scan_string_into(s, NULL) : 12;	/* "[4294967295]" */
	if (arena_reserve(s, plen + n + 2))
		return 0;
	off = s->loc->arena_len;
	p = s->loc->arena + off;
	memcpy(p, s->loc->arena + parent, plen);
	p += plen;
	if (q) {
		if (plen)
			*p++ = '.';
		memcpy(p, s->b + start + 1, n);
		p += n;
		s->i = (size_t)(q - s->b) + 1;
	} else if (key) {
		if (plen)
			*p++ = '.';
		s->i = start;
		p += scan_string_into(s, p);
	} else {
		p += sprintf(p, "[%u]", idx);
	}
	*p++ = '\0';
	s->loc->arena_len = (size_t)(p - s->loc->arena);
	return off;
}

static void loc_add(struct wl_scan *s, size_t path, size_t key_off, size_t val_off)
{
	struct wl_loc *l = s->loc;

	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct wl_loc_ent *e = realloc(l->ent, cap * sizeof(*e));

		if (!e) {
			s->oom = true;
			return;
		}
		l->ent = e;
		l->cap = cap;
	}
	l->ent[l->nr++] = (struct wl_loc_ent){ path, key_off, val_off, s->len, false };
}

/* The value of the entry just added; record where it ends. */
static void scan_entry_value(struct wl_scan *s, size_t path)
{
	size_t idx = s->loc->nr - 1;

	if (s->oom)
		return;
	scan_value(s, path);
	s->loc->ent[idx].end = s->i < s->len ? s->i : s->len;
}

static void scan_object(struct wl_scan *s, size_t path)
{
	s->i++;
	while (!s->oom) {
		size_t key_off, child;

		scan_skip_ws(s);
		if (s->i >= s->len || s->b[s->i] == '}')
			break;
		if (s->b[s->i] == ',') {
			s->i++;
			continue;
		}
		if (s->b[s->i] != '"' && s->b[s->i] != '\'') {
			s->i = s->len;	/* cannot happen on json-c-valid text */
			return;
		}
		key_off = s->i;
		child = arena_child(s, path, true, 0);
		if (s->oom)
			return;
		scan_skip_ws(s);
		if (s->i < s->len && s->b[s->i] == ':')
			s->i++;
		scan_skip_ws(s);
		loc_add(s, child, key_off, s->i);
		scan_entry_value(s, child);
	}
	s->i++;
}

static void scan_array(struct wl_scan *s, size_t path)
{
	unsigned int idx = 0;

	s->i++;
	while (!s->oom) {
		size_t child;

		scan_skip_ws(s);
		if (s->i >= s->len || s->b[s->i] == ']')
			break;
		if (s->b[s->i] == ',') {
			s->i++;
			continue;
		}
		child = arena_child(s, path, false, idx++);
		if (s->oom)
			return;
		loc_add(s, child, s->i, s->i);
		scan_entry_value(s, child);
	}
	s->i++;
}

static void scan_value(struct wl_scan *s, size_t path)
{
	char c;

	scan_skip_ws(s);
	if (s->i >= s->len)
		return;
	c = s->b[s->i];
	if (c == '{') {
		scan_object(s, path);
	} else if (c == '[') {
		scan_array(s, path);
	} else if (c == '"' || c == '\'') {
		scan_string_into(s, NULL);
	} else {
		size_t start = s->i;

		while (s->i < s->len && !strchr(" \t\r\n,]}/", s->b[s->i]))
			s->i++;
		/*
		 * The locator also runs over text json-c refused (to place a
		 * syntax error): a stray character ('/' not starting a comment)
		 * must still be consumed, or the enclosing array or object
		 * loop adds entries for it forever.
		 */
		if (s->i == start)
			s->i++;
	}
}

static size_t path_hash(const char *p)
{
	size_t h = 14695981039346656037ULL;	/* FNV-1a */

	while (*p)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

/* The slot of @path (hashed to @h), or the empty slot where it would go. */
static size_t loc_slot(const struct wl_loc *l, const char *path, size_t h)
{
	size_t i = h & l->slot_mask;

	while (l->slot[i].ent &&
	       (l->slot[i].hash != h || strcmp(ent_path(l, l->slot[i].ent - 1), path)))
		i = (i + 1) & l->slot_mask;
	return i;
}

/*
 * A copy of @a then @b in the arena; its offset, or (size_t)-1.  @a or @b
 * may point into the arena itself (a renamed path's tail): their offsets are
 * taken before the arena grows, since growing moves it.
 */
static size_t arena_add(struct wl_loc *l, const char *a, const char *b)
{
	struct wl_scan s = { .loc = l };
	size_t off, la = strlen(a), lb = strlen(b);
	bool a_in = l->arena && a >= l->arena && a < l->arena + l->arena_len;
	bool b_in = l->arena && b >= l->arena && b < l->arena + l->arena_len;
	size_t a_off = a_in ? (size_t)(a - l->arena) : 0;
	size_t b_off = b_in ? (size_t)(b - l->arena) : 0;

	if (arena_reserve(&s, la + lb + 1))
		return (size_t)-1;
	if (a_in)
		a = l->arena + a_off;
	if (b_in)
		b = l->arena + b_off;
	off = l->arena_len;
	memcpy(l->arena + off, a, la);
	memcpy(l->arena + off + la, b, lb + 1);
	l->arena_len += la + lb + 1;
	return off;
}

static bool loc_has(const struct wl_loc *l, const char *path)
{
	return l->slot[loc_slot(l, path, path_hash(path))].ent != 0;
}

/* workgen's index for the object @parent (1 when first met), kept raised. */
static unsigned int *ren_id_of(struct wl_loc *l, const char *parent)
{
	char **p;
	unsigned int *id;
	size_t i;

	for (i = 0; i < l->nr_parent; i++)
		if (!strcmp(l->ren_parent[i], parent))
			return &l->ren_id[i];
	p = realloc(l->ren_parent, (i + 1) * sizeof(*p));
	if (!p)
		return NULL;
	l->ren_parent = p;
	id = realloc(l->ren_id, (i + 1) * sizeof(*id));
	if (!id)
		return NULL;
	l->ren_id = id;
	p[i] = strdup(parent);
	if (!p[i])
		return NULL;
	id[i] = 1;
	l->nr_parent++;
	return &id[i];
}

/*
 * Entry @i repeats the key of entry @first in the same object: rename it as
 * rt-app's workgen does (doc/workgen, check_unikid_json): append the
 * object's index, raised until the name is new among the keys met so far,
 * then rename the paths inside its value too.
 */
static int loc_rename(struct wl_loc *l, size_t i, size_t first)
{
	struct wl_scan s = { .b = l->buf, .len = l->len, .i = l->ent[i].key_off, .loc = l };
	struct wl_loc_rename r = { 0 };
	char *old = strdup(ent_path(l, i)), *parent = NULL, *cand = NULL, num[16];
	size_t klen, olen, j, off;
	unsigned int *id;
	int ret = -1;

	if (!old)
		return -1;
	klen = scan_string_into(&s, NULL);
	r.quote_off = s.i - 1;
	olen = strlen(old);
	if (klen > olen) {
		/*
		 * The key holds a NUL (\u0000): the path, a C string, stops
		 * there, so no rename can name it.  Left as it is: json-c
		 * keeps the last of the two (fuzz find, regress/workload/).
		 */
		free(old);
		return 0;
	}
	parent = strndup(old, olen - klen - (olen > klen));
	if (!parent || !(id = ren_id_of(l, parent)))
		goto out;
	for (;;) {
		snprintf(num, sizeof(num), "%u", *id);
		free(cand);
		if (asprintf(&cand, "%s%s", old, num) < 0) {
			cand = NULL;
			goto out;
		}
		if (!loc_has(l, cand))
			break;
		(*id)++;
	}
	r.path = strdup(cand);
	r.key = strdup(old + olen - klen);
	r.suffix = strdup(num);
	r.first_key = l->ent[first].key_off;
	r.key_off = l->ent[i].key_off;
	if (!r.path || !r.key || !r.suffix)
		goto out;
	if ((off = arena_add(l, cand, "")) == (size_t)-1)
		goto out;
	l->ent[i].path = off;
	for (j = i + 1; j < l->nr && l->ent[j].key_off < l->ent[i].end; j++) {
		off = arena_add(l, cand, ent_path(l, j) + olen);
		if (off == (size_t)-1)
			goto out;
		l->ent[j].path = off;
	}
	if (l->nr_ren == l->cap_ren) {
		size_t cap = l->cap_ren ? 2 * l->cap_ren : 16;
		struct wl_loc_rename *e = realloc(l->ren, cap * sizeof(*e));

		if (!e)
			goto out;
		l->ren = e;
		l->cap_ren = cap;
	}
	l->ren[l->nr_ren++] = r;
	r = (struct wl_loc_rename){ 0 };
	ret = 0;
out:
	free(r.path);
	free(r.key);
	free(r.suffix);
	free(old);
	free(parent);
	free(cand);
	return ret;
}

/*
 * Index the entries by path, in file order: the first occurrence of a path
 * is the one found; a path met again is renamed (loc_rename) before it is
 * indexed, so the paths inside it are renamed before they are met.
 */
/*
 * How far ahead the slot of a later entry is prefetched while indexing: a
 * slot is a cache miss in a table of tens of MB (2 x 16 bytes per entry),
 * and inserting was most of the index's cost at 100k tasks.
 */
#define WL_LOC_PREFETCH		8

static int loc_index_paths(struct wl_loc *l)
{
	size_t size = 64, i, k, h, ahead[WL_LOC_PREFETCH];

	while (size < 2 * l->nr)
		size *= 2;
	l->slot = calloc(size, sizeof(*l->slot));
	if (!l->slot)
		return -1;
	l->slot_mask = size - 1;
	for (i = 0; i < l->nr && i < WL_LOC_PREFETCH; i++)
		ahead[i] = path_hash(ent_path(l, i));
	for (i = 0; i < l->nr; i++) {
		/* a rename changes entry i's path and those after it: hashed again */
		h = ahead[i % WL_LOC_PREFETCH];
		if (i + WL_LOC_PREFETCH < l->nr) {
			k = path_hash(ent_path(l, i + WL_LOC_PREFETCH));
			ahead[i % WL_LOC_PREFETCH] = k;
			__builtin_prefetch(&l->slot[k & l->slot_mask], 1);
		}
		if (l->nr_ren)
			h = path_hash(ent_path(l, i));
		k = loc_slot(l, ent_path(l, i), h);
		if (l->slot[k].ent) {
			if (loc_rename(l, i, l->slot[k].ent - 1))
				return -1;
			h = path_hash(ent_path(l, i));
			k = loc_slot(l, ent_path(l, i), h);
		}
		/* a key with \u0000 is not renamed: the last one wins, as in json-c */
		if (l->slot[k].ent)
			l->ent[l->slot[k].ent - 1].shadowed = true;
		l->slot[k] = (struct wl_loc_slot){ i + 1, h };
	}
	return 0;
}

/* The position after bytes [@from, @to) of @buf, starting at @pos. */
static struct wl_pos pos_advance(const char *buf, size_t from, size_t to, struct wl_pos pos)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (buf[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
			pos.col++;	/* count characters, not UTF-8 continuation bytes */
		}
	}
	return pos;
}

static int loc_index_positions(struct wl_loc *l)
{
	size_t k, nr = (l->len >> WL_LOC_MARK_SHIFT) + 1;

	l->mark = malloc(nr * sizeof(*l->mark));
	if (!l->mark)
		return -1;
	l->mark[0] = (struct wl_pos){ 1, 1 };
	for (k = 1; k < nr; k++)
		l->mark[k] = pos_advance(l->buf, (k - 1) << WL_LOC_MARK_SHIFT,
					 k << WL_LOC_MARK_SHIFT, l->mark[k - 1]);
	return 0;
}

#define WL_BARE_VALUE	" : \"\""
#define WL_DEPTH_MAX	256

/* The offsets just past each bare "suspend" key of @s's text (up to @max). */
static size_t find_bare_suspend(struct wl_scan *s, size_t *at, size_t max)
{
	char stack[WL_DEPTH_MAX];
	size_t depth = 0, n = 0, start, end;
	bool want_key = false;
	char c;

	while (s->i < s->len) {
		scan_skip_ws(s);
		if (s->i >= s->len)
			break;
		c = s->b[s->i];
		if ((c == '"' || c == '\'') && depth && stack[depth - 1] == '{' && want_key) {
			start = s->i;
			scan_string_into(s, NULL);
			end = s->i < s->len ? s->i : s->len;
			want_key = false;
			scan_skip_ws(s);
			if (s->i < s->len && (s->b[s->i] == ',' || s->b[s->i] == '}') &&
			    memmem(s->b + start, end - start, "suspend", 7)) {
				if (at && n < max)
					at[n] = end;
				n++;
			}
			continue;
		}
		if (c == '"' || c == '\'') {
			scan_string_into(s, NULL);
			continue;
		}
		s->i++;
		if ((c == '{' || c == '[') && depth < WL_DEPTH_MAX)
			stack[depth++] = c;
		else if ((c == '}' || c == ']') && depth)
			depth--;
		want_key = (c == '{' || c == ',') && depth && stack[depth - 1] == '{';
	}
	return n;
}

char *wl_loc_bare_suspend(const char *buf, size_t len, size_t *out_len)
{
	struct wl_scan s = { .b = buf, .len = len };
	size_t n = find_bare_suspend(&s, NULL, 0), *at, i, from = 0, o = 0, vl;
	char *out;

	*out_len = 0;
	if (!n)
		return NULL;
	vl = strlen(WL_BARE_VALUE);
	at = malloc(n * sizeof(*at));
	out = malloc(len + n * vl + 1);
	if (!at || !out) {
		free(at);
		free(out);
		*out_len = 1;
		return NULL;
	}
	s.i = 0;
	find_bare_suspend(&s, at, n);
	for (i = 0; i < n; i++) {
		memcpy(out + o, buf + from, at[i] - from);
		o += at[i] - from;
		memcpy(out + o, WL_BARE_VALUE, vl);
		o += vl;
		from = at[i];
	}
	memcpy(out + o, buf + from, len - from);
	o += len - from;
	out[o] = '\0';
	free(at);
	*out_len = o;
	return out;
}

struct wl_loc *wl_loc_create(const char *buf, size_t len)
{
	struct wl_loc *l = calloc(1, sizeof(*l));
	struct wl_scan s = { .b = buf, .len = len, .loc = l };

	if (!l)
		return NULL;
	l->buf = buf;
	l->len = len;
	if (loc_index_positions(l) || arena_reserve(&s, 1))
		goto fail;
	l->arena[l->arena_len++] = '\0';	/* the root's path */
	scan_value(&s, 0);
	if (s.oom || loc_index_paths(l))
		goto fail;
	return l;
fail:
	wl_loc_free(l);
	return NULL;
}

void wl_loc_free(struct wl_loc *loc)
{
	size_t i;

	if (!loc)
		return;
	free(loc->ent);
	free(loc->arena);
	free(loc->slot);
	free(loc->mark);
	for (i = 0; i < loc->nr_ren; i++) {
		free(loc->ren[i].path);
		free(loc->ren[i].key);
		free(loc->ren[i].suffix);
	}
	free(loc->ren);
	for (i = 0; i < loc->nr_parent; i++)
		free(loc->ren_parent[i]);
	free(loc->ren_parent);
	free(loc->ren_id);
	free(loc);
}

size_t wl_loc_nr_renames(const struct wl_loc *loc)
{
	return loc->nr_ren;
}

const struct wl_loc_rename *wl_loc_rename_at(const struct wl_loc *loc, size_t i)
{
	return &loc->ren[i];
}

/*
 * How many entries after the last one found are tried before the hash
 * table: the loader asks for a task, its phase and its events in file
 * order, a few entries apart.  A hash probe is two or three cache misses in
 * tables of tens of MB (a third of the locator's cost at 100k tasks); these
 * entries are next to each other in memory.
 */
#define WL_LOC_HINT_WINDOW	16

int wl_loc_find(struct wl_loc *loc, const char *path, size_t *key_off, size_t *val_off)
{
	size_t j, end = loc->hint + WL_LOC_HINT_WINDOW, k;

	for (j = loc->hint; j < end && j < loc->nr; j++)
		if (!loc->ent[j].shadowed && !strcmp(ent_path(loc, j), path))
			goto found;
	k = loc_slot(loc, path, path_hash(path));
	if (!loc->slot[k].ent)
		return -1;
	j = loc->slot[k].ent - 1;
found:
	loc->hint = j;
	*key_off = loc->ent[j].key_off;
	*val_off = loc->ent[j].val_off;
	return 0;
}

const char *wl_loc_path_at(const struct wl_loc *loc, size_t off)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < loc->nr; i++) {
		const struct wl_loc_ent *e = &loc->ent[i];

		if (e->key_off <= off && off <= e->end &&
		    (!best || strlen(ent_path(loc, i)) > strlen(best)))
			best = ent_path(loc, i);
	}
	return best;
}

struct wl_pos wl_loc_pos(const char *buf, size_t len, size_t off)
{
	return pos_advance(buf, 0, off < len ? off : len, (struct wl_pos){ 1, 1 });
}

struct wl_pos wl_loc_pos_of(const struct wl_loc *loc, size_t off)
{
	size_t k;

	if (off > loc->len)
		off = loc->len;
	k = off >> WL_LOC_MARK_SHIFT;
	return pos_advance(loc->buf, k << WL_LOC_MARK_SHIFT, off, loc->mark[k]);
}
