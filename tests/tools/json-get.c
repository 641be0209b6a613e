// SPDX-License-Identifier: GPL-2.0
/*
 * json-get FILE PATH...: print the value at each PATH of a JSON file, one
 * line each; PATH is keys and array indices joined by dots
 * ("conformance.run.kernel_only_misses.total", "tasks.0.name").  Strings
 * are printed bare, anything else as JSON.  Exit 0, or 1 when the file
 * does not parse or a PATH is absent.  For shell tests, without Python or jq.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* The value at @path (NULL: a JSON null); *found false when there is none. */
static struct json_object *walk(struct json_object *o, const char *path, int *found)
{
	char buf[512], *tok, *save = NULL, *end;
	long i;

	snprintf(buf, sizeof(buf), "%s", path);
	*found = 1;
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array)) {
			i = strtol(tok, &end, 10);
			if (*end || i < 0 || (size_t)i >= json_object_array_length(o))
				break;
			o = json_object_array_get_idx(o, (size_t)i);
		} else if (!json_object_is_type(o, json_type_object) ||
			   !json_object_object_get_ex(o, tok, &o)) {
			break;
		}
	}
	if (tok)
		*found = 0;
	return o;
}

int main(int argc, char **argv)
{
	struct json_object *root, *v;
	int i, found, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: json-get FILE PATH...\n");
		return 2;
	}
	root = json_object_from_file(argv[1]);
	if (!root) {
		fprintf(stderr, "json-get: %s: not a JSON file\n", argv[1]);
		return 1;
	}
	for (i = 2; i < argc; i++) {
		v = walk(root, argv[i], &found);
		if (!found) {
			fprintf(stderr, "json-get: %s: no %s\n", argv[1], argv[i]);
			rc = 1;
			continue;
		}
		printf("%s\n", json_object_is_type(v, json_type_string) ? json_object_get_string(v) :
		       json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(root);
	return rc;
}
