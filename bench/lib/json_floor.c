// SPDX-License-Identifier: GPL-2.0
/*
 * json_floor FILE: what json-c alone costs on a workload file, as the
 * loader uses it (the whole file read at once, json_tokener_parse_ex, the
 * tree freed): the floor under dlb-workload's loading time, measured beside
 * it by bench/lib/loader.sh.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct json_tokener *tok;
	struct json_object *root;
	char *buf;
	long len;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: json_floor FILE\n");
		return 2;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "json_floor: %s: cannot read\n", argv[1]);
		return 2;
	}
	fclose(f);
	tok = json_tokener_new();
	root = tok ? json_tokener_parse_ex(tok, buf, (int)len) : NULL;
	if (!root) {
		fprintf(stderr, "json_floor: %s: not parsed\n", argv[1]);
		return 2;
	}
	json_object_put(root);
	json_tokener_free(tok);
	free(buf);
	return 0;
}
