/* stackcollapse-xctrace - Instruments profiles (the XML of xctrace export:
 * Time Profiler, CPU Profiler, CPU Counters; or a .trace bundle) to folded
 * stacks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "xctrace/xctrace.h"

static const char usage[] =
    "stackcollapse-xctrace [-q] [--demangle] [--pid] [--tid] [--weight]\n"
    "               [file ...]\n";

static const char help[] =
    "Collapse Instruments profiles into folded stacks, one line per\n"
    "distinct stack: \"root;...;leaf COUNT\", sorted.  A file is the XML of\n"
    "xctrace export --xpath '/trace-toc/*/data/table[@schema=\"time-profile\"]'\n"
    "(or cpu-profile, counters-profile), or a .trace bundle, exported by\n"
    "running xctrace.  Several files are summed.\n"
    "\n"
    "      --weight            sum the weight column (ns, cycles, events)\n"
    "                          instead of counting rows\n"
    "      --pid               the process as a root frame: NAME-PID\n"
    "      --tid               the thread as a root frame: NAME-PID/TID\n"
    "      --demangle          demangle C++ and Rust names still mangled\n"
    "  -q, --quiet             no warnings\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_DEMANGLE = FOLD_OPT_FIRST, OPT_PID, OPT_TID, OPT_WEIGHT, OPT_VERSION };

static const struct option longopts[] = {
	{ "demangle", 0, NULL, OPT_DEMANGLE },
	{ "pid", 0, NULL, OPT_PID },
	{ "tid", 0, NULL, OPT_TID },
	{ "weight", 0, NULL, OPT_WEIGHT },
	{ "quiet", 0, NULL, 'q' },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_xctrace *x;
	unsigned flags = 0;
	const char *env;
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DEMANGLE:
			flags |= FOLD_XCTRACE_DEMANGLE;
			break;
		case OPT_PID:
			flags |= FOLD_XCTRACE_PID;
			break;
		case OPT_TID:
			flags |= FOLD_XCTRACE_TID;
			break;
		case OPT_WEIGHT:
			flags |= FOLD_XCTRACE_WEIGHT;
			break;
		case 'q':
			flags |= FOLD_XCTRACE_QUIET;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	if ((env = getenv("FOLDKIT_XCTRACE_THREADS")) != NULL && *env != '\0') {
		if (strcmp(env, "1") == 0)
			flags |= FOLD_XCTRACE_ONE;
		else if (strcmp(env, "2") == 0)
			flags |= FOLD_XCTRACE_TWO;
		else
			fold_die(2, "FOLDKIT_XCTRACE_THREADS: '%s' is not 1 or 2",
			    env);
	}
	x = fold_xctrace_new(flags);
	fold_xctrace_run(x, argc - optind, argv + optind);
	fold_xctrace_print(x);
	return fo_end(fold_xctrace_end(x));
}
