// SPDX-License-Identifier: GPL-2.0
/*
 * json-status FILE [KEY]: print the "status" string of a JSON object file
 * (a summary.json, a report.json), or of its object KEY (summary.json's
 * dl_accounting); exit 0, or 1 when the file does not parse as a whole
 * object with a string "status" there.  For shell tests that must
 * tell a whole file from a half-written one without Python or jq.
 */
#include <stdio.h>

#include <json-c/json.h>

int main(int argc, char **argv)
{
	struct json_object *o, *in, *st;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: json-status FILE [KEY]\n");
		return 2;
	}
	o = json_object_from_file(argv[1]);
	in = o;
	if (argc == 3 && o && !json_object_object_get_ex(o, argv[2], &in))
		in = NULL;
	if (!in || !json_object_is_type(in, json_type_object) ||
	    !json_object_object_get_ex(in, "status", &st) || !json_object_is_type(st, json_type_string)) {
		fprintf(stderr, "json-status: %s: not a whole JSON object with a status%s%s\n",
			argv[1], argc == 3 ? " in " : "", argc == 3 ? argv[2] : "");
		json_object_put(o);
		return 1;
	}
	printf("%s\n", json_object_get_string(st));
	json_object_put(o);
	return 0;
}
