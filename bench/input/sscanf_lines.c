// SPDX-License-Identifier: GPL-2.0
/*
 * sscanf_lines FILE: the naive text parser (fgets + sscanf of the line
 * header + strstr), as the bench's yardstick for the machine's speed at
 * the moment of the run: the text reader's speed is printed beside it.
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[4096], comm[64], ev[64];
	unsigned long n = 0, ok = 0;
	double ts;
	int cpu;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: sscanf_lines FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (sscanf(line, " %63[^[] [%d] %lf: %63[^:]:", comm, &cpu, &ts, ev) == 4)
			ok++;
		if (strstr(line, "==>"))
			ok++;
	}
	fclose(f);
	printf("lines %lu %lu\n", n, ok);
	return 0;
}
