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
#include <sys/types.h>
#include <string.h>

#include "wl_local.h"

struct wl_loc_ent {
	char *path;
	size_t key_off;
	size_t val_off;
	size_t end;		/* just past the value (or where the text ended) */
};

struct wl_loc {
	struct wl_loc_ent *ent;
	size_t nr, cap;
	struct wl_loc_rename *ren;	/* in file order */
	size_t nr_ren, cap_ren;
};

struct wl_scan {
	const char *b;
	size_t len, i;
	struct wl_loc *loc;
	bool oom;
};

static void scan_value(struct wl_scan *s, const char *path);

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

/* A quoted string at s->i, decoded as json-c decodes keys (BMP escapes). */
static char *scan_string(struct wl_scan *s)
{
	char q = s->b[s->i++], *out;
	size_t n = 0;

	out = malloc(s->len - s->i + 1);
	if (!out) {
		s->oom = true;
		return NULL;
	}
	while (s->i < s->len && s->b[s->i] != q) {
		char c = s->b[s->i++];
		unsigned int cp;

		if (c != '\\' || s->i >= s->len) {
			out[n++] = c;
			continue;
		}
		c = s->b[s->i++];
		switch (c) {
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u':
			if (s->i + 4 <= s->len && sscanf(s->b + s->i, "%4x", &cp) == 1) {
				s->i += 4;
				utf8_put(out, &n, cp);
			}
			break;
		default: out[n++] = c; break;
		}
	}
	s->i++;
	out[n] = '\0';
	return out;
}

static void loc_add(struct wl_scan *s, char *path, size_t key_off, size_t val_off)
{
	struct wl_loc *l = s->loc;

	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct wl_loc_ent *e = realloc(l->ent, cap * sizeof(*e));

		if (!e) {
			s->oom = true;
			free(path);
			return;
		}
		l->ent = e;
		l->cap = cap;
	}
	l->ent[l->nr++] = (struct wl_loc_ent){ path, key_off, val_off, s->len };
}

static char *path_join(const char *path, const char *key)
{
	char *p;

	if (asprintf(&p, "%s%s%s", path, *path ? "." : "", key) < 0)
		return NULL;
	return p;
}

/* The value of the entry just added; record where it ends. */
static void scan_entry_value(struct wl_scan *s, const char *path)
{
	size_t idx = s->loc->nr - 1;

	if (s->oom)
		return;
	scan_value(s, path);
	s->loc->ent[idx].end = s->i < s->len ? s->i : s->len;
}

static int ren_add(struct wl_scan *s, const struct wl_loc_rename *r)
{
	struct wl_loc *l = s->loc;

	if (l->nr_ren == l->cap_ren) {
		size_t cap = l->cap_ren ? 2 * l->cap_ren : 16;
		struct wl_loc_rename *e = realloc(l->ren, cap * sizeof(*e));

		if (!e)
			return -1;
		l->ren = e;
		l->cap_ren = cap;
	}
	l->ren[l->nr_ren++] = *r;
	return 0;
}

struct wl_keyset {
	char **key;
	size_t *off;
	size_t nr;
};

static ssize_t keyset_find(const struct wl_keyset *ks, const char *key)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		if (!strcmp(ks->key[i], key))
			return (ssize_t)i;
	return -1;
}

/*
 * workgen (rt-app's preprocessor) makes the keys of an object unique: a key
 * seen before in the same object gets the suffix @id (1 when the object
 * opens), raised until the name is new; @id stays raised for later keys.
 * Returns the key to use (@key itself, or a new string) and records the
 * rename; NULL when out of memory.
 */
static char *key_unique(struct wl_scan *s, struct wl_keyset *ks, unsigned int *id, char *key,
			const char *path, size_t key_off, size_t quote_off)
{
	struct wl_loc_rename r = { 0 };
	ssize_t first = keyset_find(ks, key);
	char *nk = NULL;

	if (first < 0)
		return key;
	for (;;) {
		free(nk);
		if (asprintf(&nk, "%s%u", key, *id) < 0)
			return NULL;
		if (keyset_find(ks, nk) < 0)
			break;
		(*id)++;
	}
	r.path = path_join(path, nk);
	r.key = strdup(key);
	r.first_key = ks->off[first];
	r.key_off = key_off;
	r.quote_off = quote_off;
	r.suffix = strdup(nk + strlen(key));
	if (!r.path || !r.key || !r.suffix || ren_add(s, &r)) {
		free(r.path);
		free(r.key);
		free(r.suffix);
		free(nk);
		return NULL;
	}
	return nk;
}

static int keyset_add(struct wl_keyset *ks, const char *key, size_t off)
{
	char **k = realloc(ks->key, (ks->nr + 1) * sizeof(*k));
	size_t *o;

	if (!k)
		return -1;
	ks->key = k;
	o = realloc(ks->off, (ks->nr + 1) * sizeof(*o));
	if (!o)
		return -1;
	ks->off = o;
	ks->key[ks->nr] = strdup(key);
	if (!ks->key[ks->nr])
		return -1;
	ks->off[ks->nr++] = off;
	return 0;
}

static void keyset_free(struct wl_keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		free(ks->key[i]);
	free(ks->key);
	free(ks->off);
}

static void scan_object_keys(struct wl_scan *s, const char *path, struct wl_keyset *ks);

static void scan_object(struct wl_scan *s, const char *path)
{
	struct wl_keyset ks = { NULL, NULL, 0 };

	scan_object_keys(s, path, &ks);
	keyset_free(&ks);
}

static void scan_object_keys(struct wl_scan *s, const char *path, struct wl_keyset *ks)
{
	unsigned int id = 1;

	s->i++;
	while (!s->oom) {
		size_t key_off, val_off, quote_off;
		char *key, *child, *uk;

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
		key = scan_string(s);
		if (!key)
			return;
		quote_off = s->i - 1;
		uk = key_unique(s, ks, &id, key, path, key_off, quote_off);
		if (uk && uk != key) {
			free(key);
			key = uk;
		}
		if (!uk || keyset_add(ks, key, key_off)) {
			free(key);
			s->oom = true;
			return;
		}
		scan_skip_ws(s);
		if (s->i < s->len && s->b[s->i] == ':')
			s->i++;
		scan_skip_ws(s);
		val_off = s->i;
		child = path_join(path, key);
		free(key);
		if (!child) {
			s->oom = true;
			return;
		}
		loc_add(s, child, key_off, val_off);
		scan_entry_value(s, child);
	}
	s->i++;
}

static void scan_array(struct wl_scan *s, const char *path)
{
	unsigned int idx = 0;

	s->i++;
	while (!s->oom) {
		char *child;

		scan_skip_ws(s);
		if (s->i >= s->len || s->b[s->i] == ']')
			break;
		if (s->b[s->i] == ',') {
			s->i++;
			continue;
		}
		if (asprintf(&child, "%s[%u]", path, idx++) < 0) {
			s->oom = true;
			return;
		}
		loc_add(s, child, s->i, s->i);
		scan_entry_value(s, child);
	}
	s->i++;
}

static void scan_value(struct wl_scan *s, const char *path)
{
	char c, *str;

	scan_skip_ws(s);
	if (s->i >= s->len)
		return;
	c = s->b[s->i];
	if (c == '{') {
		scan_object(s, path);
	} else if (c == '[') {
		scan_array(s, path);
	} else if (c == '"' || c == '\'') {
		str = scan_string(s);
		free(str);
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

static int ent_cmp(const void *a, const void *b)
{
	const struct wl_loc_ent *x = a, *y = b;
	int r = strcmp(x->path, y->path);

	if (r)
		return r;
	return x->key_off < y->key_off ? -1 : x->key_off > y->key_off;
}

size_t wl_loc_nr_renames(const struct wl_loc *loc)
{
	return loc->nr_ren;
}

const struct wl_loc_rename *wl_loc_rename_at(const struct wl_loc *loc, size_t i)
{
	return &loc->ren[i];
}

struct wl_loc *wl_loc_create(const char *buf, size_t len)
{
	struct wl_loc *l = calloc(1, sizeof(*l));
	struct wl_scan s = { .b = buf, .len = len, .loc = l };

	if (!l)
		return NULL;
	scan_value(&s, "");
	if (s.oom)
		goto fail;
	if (l->nr)
		qsort(l->ent, l->nr, sizeof(*l->ent), ent_cmp);
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
	for (i = 0; i < loc->nr; i++)
		free(loc->ent[i].path);
	free(loc->ent);
	for (i = 0; i < loc->nr_ren; i++) {
		free(loc->ren[i].path);
		free(loc->ren[i].key);
		free(loc->ren[i].suffix);
	}
	free(loc->ren);
	free(loc);
}

int wl_loc_find(const struct wl_loc *loc, const char *path, size_t *key_off, size_t *val_off)
{
	size_t lo = 0, hi = loc->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(loc->ent[mid].path, path);

		if (r == 0) {
			*key_off = loc->ent[mid].key_off;
			*val_off = loc->ent[mid].val_off;
			return 0;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const char *wl_loc_path_at(const struct wl_loc *loc, size_t off)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < loc->nr; i++) {
		const struct wl_loc_ent *e = &loc->ent[i];

		if (e->key_off <= off && off <= e->end &&
		    (!best || strlen(e->path) > strlen(best)))
			best = e->path;
	}
	return best;
}

struct wl_pos wl_loc_pos(const char *buf, size_t len, size_t off)
{
	struct wl_pos pos = { 1, 1 };
	size_t i;

	if (off > len)
		off = len;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80) {
			pos.col++;	/* count characters, not UTF-8 continuation bytes */
		}
	}
	return pos;
}
