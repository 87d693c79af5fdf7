/* stackcollapse-pprof - pprof profiles (profile.proto: Go, RISC Zero's
 * zkVM, pprof-rs) to folded stacks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "pprof/pprof.h"

static const char usage[] =
    "stackcollapse-pprof [-q] [--addrs] [--demangle] [--label KEY] [--lines]\n"
    "               [--list] [--sample-index N|NAME] [--strict] [file ...]\n";

static const char help[] =
    "Collapse pprof profiles (profile.proto, gzip-compressed or not: Go's\n"
    "runtime/pprof, RISC Zero's profile.pb, pprof-rs) into folded stacks,\n"
    "one line per distinct stack: \"root;...;leaf VALUE\", sorted.  Several\n"
    "profiles are summed.\n"
    "\n"
    "      --sample-index N|NAME  the value to take, as pprof -sample_index:\n"
    "                          an index or a sample type (alloc_space,\n"
    "                          cycles); default: default_sample_type, else\n"
    "                          the last\n"
    "      --list              print the sample types and exit\n"
    "      --label KEY         a root frame from the sample's label KEY (as\n"
    "                          pprof -tagroot); repeat or KEY,KEY for more\n"
    "      --lines             :FILE:LINE after each function name\n"
    "      --addrs             the address of locations without a function:\n"
    "                          [binary <0xADDR>]\n"
    "      --demangle          demangle C++ and Rust names (_Z..., _R...)\n"
    "  -q, --quiet             no warnings\n"
    "      --strict            a sample skipped (negative value, no\n"
    "                          location) is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum {
	OPT_ADDRS = FOLD_OPT_FIRST, OPT_DEMANGLE, OPT_LABEL, OPT_LINES,
	OPT_LIST, OPT_INDEX, OPT_STRICT, OPT_VERSION
};

static const struct option longopts[] = {
	{ "addrs", 0, NULL, OPT_ADDRS },
	{ "demangle", 0, NULL, OPT_DEMANGLE },
	{ "label", 1, NULL, OPT_LABEL },
	{ "lines", 0, NULL, OPT_LINES },
	{ "list", 0, NULL, OPT_LIST },
	{ "sample-index", 1, NULL, OPT_INDEX },
	{ "quiet", 0, NULL, 'q' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_pprof *p;
	const char *index = NULL;
	char **labels = NULL, *k;
	size_t nlabels = 0, cap = 0;
	unsigned flags = 0;
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ADDRS:
			flags |= FOLD_PPROF_ADDRS;
			break;
		case OPT_DEMANGLE:
			flags |= FOLD_PPROF_DEMANGLE;
			break;
		case OPT_LABEL:
			/* KEY,KEY,...: pieces of optarg, which lives on */
			for (k = strtok(optarg, ","); k != NULL;
			    k = strtok(NULL, ",")) {
				fold_grow(&labels, &cap, nlabels + 1,
				    sizeof(*labels));
				labels[nlabels++] = k;
			}
			break;
		case OPT_LINES:
			flags |= FOLD_PPROF_LINES;
			break;
		case OPT_LIST:
			flags |= FOLD_PPROF_LIST;
			break;
		case OPT_INDEX:
			if (optarg[0] == '\0')
				fold_die(2, "--sample-index: an index or a "
				    "sample type name is needed");
			index = optarg;
			break;
		case 'q':
			flags |= FOLD_PPROF_QUIET;
			break;
		case OPT_STRICT:
			flags |= FOLD_PPROF_STRICT;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	p = fold_pprof_new(flags, index, labels, nlabels);
	free(labels);
	fold_pprof_run(p, argc - optind, argv + optind);
	if (!(flags & FOLD_PPROF_LIST))
		fold_pprof_print(p);
	return fo_end(fold_pprof_end(p));
}
