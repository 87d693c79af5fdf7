/* stackcollapse-samply - samply's saved profiles (the Firefox Profiler's
 * processed format, gzip or not) to folded stacks, symbolicated. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "fold.h"
#include "samply/samply.h"

static const char usage[] =
    "stackcollapse-samply [-q] [--addrs] [--cpu] [--no-symbols] [--pid]\n"
    "               [--symfs DIR] [--tid] [file ...]\n";

static const char help[] =
    "Collapse profiles saved by samply (samply record --save-only -o\n"
    "prof.json.gz; the Firefox Profiler's processed format, versions 41 to\n"
    "70, gzip-compressed or not) into folded stacks, one line per distinct\n"
    "stack: \"root;...;leaf WEIGHT\", sorted.  Threads and profiles are\n"
    "summed.  Frames samply left unsymbolicated are named from\n"
    "PROFILE.syms.json, else from the library's binary (ELF at its path or\n"
    "by its build id; Mach-O and its dSYM by UUID), else \"[LIB]\".\n"
    "\n"
    "      --pid               a root frame per process: PROCESS-PID\n"
    "      --tid               a root frame per thread: THREAD-PID/TID\n"
    "      --cpu               only samples with CPU time (threadCPUDelta > 0)\n"
    "      --addrs             the address of frames left unnamed:\n"
    "                          [LIB <0xADDR>]\n"
    "      --symfs DIR         look for binaries below DIR (as perf's)\n"
    "      --no-symbols        read no sidecar and no binary\n"
    "  -q, --quiet             no warnings\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum {
	OPT_ADDRS = FOLD_OPT_FIRST, OPT_CPU, OPT_NOSYMS, OPT_PID, OPT_SYMFS,
	OPT_TID, OPT_VERSION
};

static const struct option longopts[] = {
	{ "addrs", 0, NULL, OPT_ADDRS },
	{ "cpu", 0, NULL, OPT_CPU },
	{ "no-symbols", 0, NULL, OPT_NOSYMS },
	{ "pid", 0, NULL, OPT_PID },
	{ "symfs", 1, NULL, OPT_SYMFS },
	{ "tid", 0, NULL, OPT_TID },
	{ "quiet", 0, NULL, 'q' },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_samply *s;
	const char *symfs = NULL;
	unsigned flags = 0;
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ADDRS:
			flags |= FOLD_SAMPLY_ADDRS;
			break;
		case OPT_CPU:
			flags |= FOLD_SAMPLY_CPU;
			break;
		case OPT_NOSYMS:
			flags |= FOLD_SAMPLY_NOSYMS;
			break;
		case OPT_PID:
			flags |= FOLD_SAMPLY_PID;
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_TID:
			flags |= FOLD_SAMPLY_TID;
			break;
		case 'q':
			flags |= FOLD_SAMPLY_QUIET;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	s = fold_samply_new(flags, symfs);
	fold_samply_run(s, argc - optind, argv + optind);
	fold_samply_print(s);
	return fo_end(fold_samply_end(s));
}
