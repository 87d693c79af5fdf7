/* stackcollapse-callgrind - valgrind's callgrind profiles to folded
 * stacks, exact where the file allows. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "callgrind/callgrind.h"

static const char usage[] =
    "stackcollapse-callgrind [-q] [--demangle] [--event NAME] [--list]\n"
    "               [--objects] [--strict] [file ...]\n";

static const char help[] =
    "Collapse valgrind's callgrind profiles (callgrind.out.PID) into folded\n"
    "stacks, one line per distinct stack: \"root;...;leaf COST\", sorted.\n"
    "Recorded with --separate-callers=N, each call context is a stack\n"
    "weighted by its self cost; without, each function is alone with its\n"
    "self cost.  Several files (threads, parts, runs) are summed.\n"
    "\n"
    "      --event NAME        the event to take (Ir, Dr, D1mr, ...);\n"
    "                          default: Ir, else the first\n"
    "      --list              print the events with their totals and exit\n"
    "      --demangle          demangle C++ and Rust names (recorded with\n"
    "                          --demangle=no)\n"
    "      --objects           functions without a name as [OBJECT <0x...>]\n"
    "  -q, --quiet             no warnings\n"
    "      --strict            a bad line is fatal\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum {
	OPT_DEMANGLE = FOLD_OPT_FIRST, OPT_EVENT, OPT_LIST, OPT_OBJECTS,
	OPT_STRICT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "demangle", 0, NULL, OPT_DEMANGLE },
	{ "event", 1, NULL, OPT_EVENT },
	{ "list", 0, NULL, OPT_LIST },
	{ "objects", 0, NULL, OPT_OBJECTS },
	{ "quiet", 0, NULL, 'q' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_cg *c;
	const char *ev = NULL;
	unsigned flags = 0;
	int ch;

	fold_init(argv[0]);
	while ((ch = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DEMANGLE:
			flags |= FOLD_CG_DEMANGLE;
			break;
		case OPT_EVENT:
			if (optarg[0] == '\0')
				fold_die(2, "--event: an event name is needed");
			ev = optarg;
			break;
		case OPT_LIST:
			flags |= FOLD_CG_LIST;
			break;
		case OPT_OBJECTS:
			flags |= FOLD_CG_OBJECTS;
			break;
		case 'q':
			flags |= FOLD_CG_QUIET;
			break;
		case OPT_STRICT:
			flags |= FOLD_CG_STRICT;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	c = fold_cg_new(flags, ev, argc - optind);
	fold_cg_run(c, argc - optind, argv + optind);
	if (!(flags & FOLD_CG_LIST))
		fold_cg_print(c);
	return fo_end(fold_cg_free(c));
}
