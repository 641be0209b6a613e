// SPDX-License-Identifier: GPL-2.0
/* File-name escaping of workload names (see fname.h). */
#include <stdbool.h>
#include <string.h>

#include "dlbench/fname.h"

/* Length of the valid UTF-8 sequence at @s (1..4), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

int dlb_fname_escape(char *out, size_t size, const char *name)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)name;
	bool dots = !strcmp(name, ".") || !strcmp(name, "..");
	size_t n = 0, k, i;

	if (!size)
		return -1;
	while (*s) {
		k = utf8_len(s);
		if (k == 1 && (*s < 0x20 || *s == 0x7f || *s == '/' || *s == '%' || dots))
			k = 0;
		if (k) {
			if (n + k >= size)
				goto full;
			for (i = 0; i < k; i++)
				out[n++] = (char)*s++;
			continue;
		}
		if (n + 3 >= size)
			goto full;
		out[n++] = '%';
		out[n++] = hex[*s >> 4];
		out[n++] = hex[*s & 15];
		s++;
	}
	out[n] = '\0';
	return (int)n;
full:
	out[n] = '\0';
	return -1;
}
