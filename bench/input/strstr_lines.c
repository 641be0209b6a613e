// SPDX-License-Identifier: GPL-2.0
/*
 * strstr_lines FILE: the floor under any line-by-line text reader, for the
 * bench: fgets of each line and one strstr over it (for "==>", a switch),
 * nothing parsed -- sscanf_lines.c without its sscanf.  The text reader's
 * goal is >= 0.7 of its speed (issue 17).
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[4096];
	unsigned long n = 0, ok = 0;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: strstr_lines FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, "==>"))
			ok++;
	}
	fclose(f);
	printf("lines %lu %lu\n", n, ok);
	return 0;
}
