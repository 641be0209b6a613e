// SPDX-License-Identifier: GPL-2.0
/*
 * json-status FILE: print the "status" string of a JSON object file (a
 * summary.json, a report.json); exit 0, or 1 when the file does not parse
 * as a whole object with a string "status".  For shell tests that must
 * tell a whole file from a half-written one without Python or jq.
 */
#include <stdio.h>

#include <json-c/json.h>

int main(int argc, char **argv)
{
	struct json_object *o, *st;

	if (argc != 2) {
		fprintf(stderr, "usage: json-status FILE\n");
		return 2;
	}
	o = json_object_from_file(argv[1]);
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "status", &st) || !json_object_is_type(st, json_type_string)) {
		fprintf(stderr, "json-status: %s: not a whole JSON object with a status\n", argv[1]);
		json_object_put(o);
		return 1;
	}
	printf("%s\n", json_object_get_string(st));
	json_object_put(o);
	return 0;
}
