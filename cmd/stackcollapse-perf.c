/* stackcollapse-perf - perf script output to folded stacks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "perf/perf.h"

static const char usage[] =
    "stackcollapse-perf [-q] [--addrs] [--all] [--buildid-dir DIR]\n"
    "               [--context] [--demangle] [--event-filter EVENT]\n"
    "               [--inline] [--jit] [--kernel] [--no-demangle]\n"
    "               [--no-inline] [--pid] [--samples] [--skip-after FUNC]\n"
    "               [--srcline] [--strict] [--symfs DIR] [--tid] [file ...]\n";

static const char help[] =
    "Collapse perf.data, or the output of `perf script`, into folded stacks,\n"
    "one line per distinct stack: \"comm;caller;...;leaf COUNT\", sorted.\n"
    "\n"
    "      --pid               root frame \"comm-PID\"\n"
    "      --tid               root frame \"comm-PID/TID\"\n"
    "      --kernel            annotate kernel frames with _[k]\n"
    "      --jit               annotate JIT frames (/tmp/perf-N.map) with _[j]\n"
    "      --all               --kernel and --jit\n"
    "      --addrs             [module <addr>] for unknown symbols\n"
    "      --demangle          demangle C++ and Rust names (perf script\n"
    "                          --no-demangle) as perf script prints them;\n"
    "                          the default for perf.data\n"
    "      --event-filter EVENT\n"
    "                          keep samples of EVENT only (default: the\n"
    "                          first event seen)\n"
    "      --inline            text: expand inlined functions with\n"
    "                          addr2line; perf.data -g: add perf's inlined\n"
    "                          frames (as perf 7.0)\n"
    "      --context           with --inline: add :file:line to each name\n"
    "      --srcline           input from perf script -F+srcline: add\n"
    "                          :file:line to each frame\n"
    "      --skip-after FUNC   drop the callers of the innermost FUNC frame\n"
    "      --samples           count samples, not periods\n"
    "      --buildid-dir DIR   perf.data: the build-id cache (default\n"
    "                          ~/.debug)\n"
    "      --symfs DIR         perf.data: look for binaries below DIR\n"
    "      --no-demangle       perf.data: keep symbol names as they are\n"
    "                          (perf script --no-demangle)\n"
    "      --no-inline         perf.data: no inlined frames (perf script\n"
    "                          --no-inline)\n"
    "  -q, --quiet             no warnings\n"
    "      --strict            an unrecognized line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum {
	OPT_PID = FOLD_OPT_FIRST, OPT_TID, OPT_KERNEL, OPT_JIT, OPT_ALL,
	OPT_ADDRS, OPT_EVENT, OPT_INLINE, OPT_CONTEXT, OPT_SRCLINE, OPT_SKIP,
	OPT_SAMPLES, OPT_STRICT, OPT_DEMANGLE, OPT_VERSION, OPT_BUILDID,
	OPT_SYMFS, OPT_NODEMANGLE, OPT_NOINLINE
};

static const struct option longopts[] = {
	{ "pid", 0, NULL, OPT_PID },
	{ "tid", 0, NULL, OPT_TID },
	{ "kernel", 0, NULL, OPT_KERNEL },
	{ "jit", 0, NULL, OPT_JIT },
	{ "all", 0, NULL, OPT_ALL },
	{ "addrs", 0, NULL, OPT_ADDRS },
	{ "demangle", 0, NULL, OPT_DEMANGLE },
	{ "event-filter", 1, NULL, OPT_EVENT },
	{ "inline", 0, NULL, OPT_INLINE },
	{ "context", 0, NULL, OPT_CONTEXT },
	{ "srcline", 0, NULL, OPT_SRCLINE },
	{ "skip-after", 1, NULL, OPT_SKIP },
	{ "samples", 0, NULL, OPT_SAMPLES },
	{ "buildid-dir", 1, NULL, OPT_BUILDID },
	{ "symfs", 1, NULL, OPT_SYMFS },
	{ "no-demangle", 0, NULL, OPT_NODEMANGLE },
	{ "no-inline", 0, NULL, OPT_NOINLINE },
	{ "quiet", 0, NULL, 'q' },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct fold_perf_opts o = { 0, NULL, NULL };
	struct fold_perfdata_opts po = { NULL, NULL, 0 };
	struct fold_perf *p;
	const char *env;
	int c, nodemangle = 0;

	fold_init(argv[0]);
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PID:
			o.flags |= FOLD_PERF_PID;
			break;
		case OPT_DEMANGLE:
			o.flags |= FOLD_PERF_DEMANGLE;
			break;
		case OPT_TID:
			o.flags |= FOLD_PERF_TID;
			break;
		case OPT_KERNEL:
			o.flags |= FOLD_PERF_KERNEL;
			break;
		case OPT_JIT:
			o.flags |= FOLD_PERF_JIT;
			break;
		case OPT_ALL:
			o.flags |= FOLD_PERF_KERNEL | FOLD_PERF_JIT;
			break;
		case OPT_ADDRS:
			o.flags |= FOLD_PERF_ADDRS;
			break;
		case OPT_EVENT:
			if (*optarg == '\0')
				fold_die(2, "--event-filter needs an event name");
			o.event = optarg;
			break;
		case OPT_INLINE:
			o.flags |= FOLD_PERF_INLINE;
			po.flags |= FOLD_PERFDATA_INLINE;
			break;
		case OPT_CONTEXT:
			o.flags |= FOLD_PERF_CONTEXT;
			break;
		case OPT_SRCLINE:
			o.flags |= FOLD_PERF_SRCLINE;
			break;
		case OPT_SKIP:
			if (*optarg == '\0')
				fold_die(2, "--skip-after needs a function name");
			o.skip_after = optarg;
			break;
		case OPT_SAMPLES:
			o.flags |= FOLD_PERF_SAMPLES;
			break;
		case OPT_BUILDID:
			if (*optarg == '\0')
				fold_die(2, "--buildid-dir needs a directory");
			po.buildid_dir = optarg;
			break;
		case OPT_SYMFS:
			po.symfs = optarg;
			break;
		case OPT_NODEMANGLE:
			nodemangle = 1;
			break;
		case OPT_NOINLINE:
			po.flags |= FOLD_PERFDATA_NOINLINE;
			break;
		case 'q':
			o.flags |= FOLD_PERF_QUIET;
			po.flags |= FOLD_PERFDATA_QUIET;
			break;
		case OPT_STRICT:
			o.flags |= FOLD_PERF_STRICT;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	if (isatty(2))
		po.flags |= FOLD_PERFDATA_PROGRESS;
	if ((env = getenv("FOLDKIT_PERF_READ")) != NULL && *env != '\0') {
		if (strcmp(env, "map") == 0)
			po.flags |= FOLD_PERFDATA_MAP;
		else if (strcmp(env, "read") == 0)
			po.flags |= FOLD_PERFDATA_READ;
		else
			fold_die(2, "FOLDKIT_PERF_READ: '%s' is not map or read",
			    env);
	}
	/* perf.data with --inline: perf 7.0's inlined frames; with --context
	 * too, addr2line's names and lines as for perf script text */
	if (o.flags & FOLD_PERF_CONTEXT)
		po.flags &= ~(unsigned)FOLD_PERFDATA_INLINE;
	/* perf.data: names as perf script prints them, unless --no-demangle
	 * (--demangle is for perf script text that holds mangled names) */
	if (!nodemangle)
		po.flags |= FOLD_PERFDATA_DEMANGLE;
	p = fold_perf_new(&o);
	if (fold_perf_run_any(p, &po, argc - optind, argv + optind)) {
		fold_perf_end(p);
		return fo_end(1);	/* refused: no graph rather than a wrong one */
	}
	fold_perf_print(p);
	return fo_end(fold_perf_end(p));
}
