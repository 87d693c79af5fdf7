/* stackcollapse-dtrace - DTrace and bpftrace stack aggregations to folded
 * stacks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "fold.h"
#include "dtrace/dtrace.h"

static const char usage[] =
    "stackcollapse-dtrace [-q] [--demangle] [--includeoffset] [--strict]\n"
    "               [file ...]\n";

static const char help[] =
    "Collapse the stack aggregations printed by dtrace (@[ustack()] =\n"
    "count()) or bpftrace (@[kstack, ustack] = count()) into folded stacks,\n"
    "one line per distinct stack: \"root;...;leaf COUNT\", sorted.\n"
    "\n"
    "      --includeoffset     keep the +0x offsets (but the leaf's)\n"
    "      --demangle          demangle C++ and Rust symbols (_Z..., _R...)\n"
    "                          as c++filt -p prints them\n"
    "      --demangle-rust     the same as --demangle\n"
    "  -q, --quiet             no warnings\n"
    "      --strict            a record without a count or an unrecognized\n"
    "                          line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_OFFSET = FOLD_OPT_FIRST, OPT_DEMANGLE, OPT_STRICT, OPT_VERSION };

static const struct option longopts[] = {
	{ "includeoffset", 0, NULL, OPT_OFFSET },
	{ "demangle", 0, NULL, OPT_DEMANGLE },
	{ "demangle-rust", 0, NULL, OPT_DEMANGLE },
	{ "quiet", 0, NULL, 'q' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_dtrace *d;
	unsigned flags = 0;
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_OFFSET:
			flags |= FOLD_DTRACE_OFFSET;
			break;
		case OPT_DEMANGLE:
			flags |= FOLD_DTRACE_DEMANGLE;
			break;
		case 'q':
			flags |= FOLD_DTRACE_QUIET;
			break;
		case OPT_STRICT:
			flags |= FOLD_DTRACE_STRICT;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	d = fold_dtrace_new(flags);
	fold_dtrace_run(d, argc - optind, argv + optind);
	fold_dtrace_print(d);
	return fo_end(fold_dtrace_end(d));
}
