/* folddiff - two folded profiles, before and after, as one differential
 * profile: "STACK BEFORE AFTER". */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"

static const char usage[] =
    "folddiff [-ns] [--strict] BEFORE AFTER\n";

static const char help[] =
    "Merge two folded profiles into one differential profile: each stack of\n"
    "either, once, as \"STACK BEFORE AFTER\" (0 where a profile lacks it),\n"
    "sorted by the bytes of the stack.  \"-\" reads one of them from stdin.\n"
    "\n"
    "  -n, --normalize         scale BEFORE's counts to AFTER's total\n"
    "  -s, --strip-hex         replace hex numbers (0x...) by \"0x...\"\n"
    "      --strict            the first invalid line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_STRICT = FOLD_OPT_FIRST, OPT_VERSION };

static const struct option longopts[] = {
	{ "normalize", 0, NULL, 'n' },
	{ "strip-hex", 0, NULL, 's' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_diff_opts o = { 0, 0, 0 };
	int c;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "nsh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o.normalize = 1;
			break;
		case 's':
			o.striphex = 1;
			break;
		case OPT_STRICT:
			o.strict = 1;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	if (argc - optind != 2)
		fold_usage(usage);
	if (strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0)
		fold_die(2, "only one of BEFORE and AFTER can be standard input");
	return fo_end(fold_diff_run(argv[optind], argv[optind + 1], &o));
}
