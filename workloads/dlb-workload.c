// SPDX-License-Identifier: GPL-2.0
/*
 * dlb-workload: check workload files, or show what one means.
 *
 *	dlb-workload check FILE...	one line per file; exit 0 or 2
 *	dlb-workload dump FILE		canonical model, all times in ns
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlbench/cli.h"
#include "dlbench/exitcode.h"
#include "dlbench/workload.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlb-workload [-q] check FILE...  validate workload files (\"-\": stdin)\n"
		"       dlb-workload dump FILE            print the loaded model, times in ns\n"
		"\n"
		"  -q, --quiet      check: print only the files that fail\n"
		"  -h, --help       this help\n"
		"  -V, --version    print the version\n"
		"\n"
		"options may come before or after the command; \"--\" ends them\n"
		"exit status: 0 all files valid, 2 bad input, 5 the dump could not be written\n");
}

static int cmd_check(int argc, char **argv, bool quiet)
{
	struct dlb_err err;
	struct workload *wl;
	int i, ret = DLB_EXIT_OK;

	for (i = 0; i < argc; i++) {
		dlb_err_clear(&err);
		if (wl_load_file(argv[i], NULL, &wl, &err)) {
			fprintf(stderr, "dlb-workload: %s\n", err.msg);
			if (ret == DLB_EXIT_OK || err.code > ret)
				ret = err.code;
			continue;
		}
		wl_warnings_write(wl, "dlb-workload", stderr);
		if (!quiet)
			printf("%s: ok, %zu task%s, dl bandwidth %.6f cpus\n", argv[i],
			       wl->nr_tasks, wl->nr_tasks == 1 ? "" : "s",
			       dl_bw_to_double(wl_dl_bandwidth(wl)));
		wl_free(wl);
	}
	return ret;
}

static int cmd_dump(const char *path)
{
	struct dlb_err err;
	struct workload *wl;
	int ret;

	dlb_err_clear(&err);
	if (wl_load_file(path, NULL, &wl, &err)) {
		fprintf(stderr, "dlb-workload: %s\n", err.msg);
		return err.code;
	}
	wl_warnings_write(wl, "dlb-workload", stderr);
	/* a failed write is said once, by dlb_cli_exit() */
	ret = wl_dump(wl, stdout) ? DLB_EXIT_ENV : DLB_EXIT_OK;
	wl_free(wl);
	return ret;
}

static int main_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool quiet = false;
	int c;

	while ((c = getopt_long(argc, argv, "qhV", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return DLB_EXIT_OK;
		case 'V':
			printf("dlb-workload %s\n", DLB_VERSION);
			return DLB_EXIT_OK;
		default:
			usage(stderr);
			return DLB_EXIT_BAD_INPUT;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc >= 2 && !strcmp(argv[0], "check"))
		return cmd_check(argc - 1, argv + 1, quiet);
	if (argc == 2 && !strcmp(argv[0], "dump"))
		return cmd_dump(argv[1]);
	usage(stderr);
	return DLB_EXIT_BAD_INPUT;
}

int main(int argc, char **argv)
{
	return dlb_cli_exit("dlb-workload", main_run(argc, argv));
}
