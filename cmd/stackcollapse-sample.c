/* stackcollapse-sample - macOS sample(1) reports (and Activity Monitor's
 * "Sample Process") to folded stacks. */
#include <getopt.h>
#include <stdio.h>

#include "fold.h"
#include "sample/sample.h"

static const char usage[] =
    "stackcollapse-sample [-q] [--all] [--no-modules] [--no-threads]\n"
    "               [--strict] [file ...]\n";

static const char help[] =
    "Collapse the call graph of macOS sample reports (sample PID -file F,\n"
    "Activity Monitor's Sample Process) into folded stacks, one line per\n"
    "distinct stack: \"Thread_N;MODULE`NAME;... COUNT\", sorted.  Several\n"
    "reports are summed.  Stacks of idle threads (a wait function on top)\n"
    "are left out.\n"
    "\n"
    "      --all               keep the stacks of idle threads\n"
    "      --no-modules        NAME, not MODULE`NAME\n"
    "      --no-threads        no thread frame at the root\n"
    "  -q, --quiet             no note on the idle samples left out\n"
    "      --strict            the first bad line is fatal\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum {
	OPT_ALL = FOLD_OPT_FIRST, OPT_NO_MODULES, OPT_NO_THREADS, OPT_STRICT,
	OPT_VERSION
};

static const struct option longopts[] = {
	{ "all", 0, NULL, OPT_ALL },
	{ "no-modules", 0, NULL, OPT_NO_MODULES },
	{ "no-threads", 0, NULL, OPT_NO_THREADS },
	{ "quiet", 0, NULL, 'q' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_samplerep *r;
	unsigned flags = 0;
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ALL:
			flags |= FOLD_SAMPLEREP_ALL;
			break;
		case OPT_NO_MODULES:
			flags |= FOLD_SAMPLEREP_NO_MODULES;
			break;
		case OPT_NO_THREADS:
			flags |= FOLD_SAMPLEREP_NO_THREADS;
			break;
		case 'q':
			flags |= FOLD_SAMPLEREP_QUIET;
			break;
		case OPT_STRICT:
			flags |= FOLD_SAMPLEREP_STRICT;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	r = fold_samplerep_new(flags);
	fold_samplerep_run(r, argc - optind, argv + optind);
	fold_samplerep_print(r);
	return fo_end(fold_samplerep_end(r));
}
