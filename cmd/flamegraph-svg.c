/* flamegraph-svg - draw folded stacks as an interactive SVG flame graph. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"
#include "flame/flame.h"

static const char usage[] =
    "flamegraph-svg [--bgcolors C] [--colors PALETTE] [--countname NAME]\n"
    "               [--cp] [--encoding E] [--factor F] [--flamechart]\n"
    "               [--fonttype FONT] [--fontsize N] [--fontwidth N]\n"
    "               [--hash] [--height N] [--inverted] [--minwidth N|N%]\n"
    "               [--nameattr FILE] [--nametype TEXT] [--negate]\n"
    "               [--notes TEXT] [--random] [--reverse] [--strict]\n"
    "               [--subtitle TEXT] [--title TEXT] [--total N]\n"
    "               [--width N] [file ...]\n";

static const char help[] =
    "Draw folded stacks (STACK COUNT, or STACK OLD NEW for a differential\n"
    "graph) as an interactive SVG flame graph on standard output.\n"
    "\n"
    "      --title TEXT      title (Flame Graph, Icicle Graph, Flame Chart)\n"
    "      --subtitle TEXT   second title line\n"
    "      --width N         image width in pixels (1200)\n"
    "      --height N        frame height in pixels (16)\n"
    "      --minwidth N|N%   leave out boxes narrower than N pixels (0.1)\n"
    "                        or N percent of the total\n"
    "      --fonttype FONT   font family (Verdana)\n"
    "      --fontsize N      font size (12)\n"
    "      --fontwidth N     average character width, in font sizes (0.59)\n"
    "      --countname NAME  what the counts are (samples)\n"
    "      --nametype TEXT   what a box is, in the details line (Function:)\n"
    "      --colors PALETTE  hot (default), mem, io, wakeup, chain, java, js,\n"
    "                        perl, rust, python, red, green, blue, aqua,\n"
    "                        yellow, purple, orange\n"
    "      --bgcolors C      yellow, blue, green, grey or #rrggbb\n"
    "      --hash            colours hashed from the names\n"
    "      --random          random colours\n"
    "      --cp              consistent colours kept in ./palette.map\n"
    "      --reverse         reverse the stacks (leaf first)\n"
    "      --inverted        icicle graph: the root at the top\n"
    "      --flamechart      keep input order (time) instead of sorting\n"
    "      --negate          swap the differential colours and signs\n"
    "      --notes TEXT      a note kept in the SVG\n"
    "      --total N         the 100% total, when larger than the sum\n"
    "      --factor F        multiply the counts shown by F\n"
    "      --encoding E      the XML encoding declared\n"
    "      --nameattr FILE   extra attributes per name (NAME\\tattr=value...)\n"
    "      --strict          the first invalid line is an error\n"
    "  -h, --help            this help\n"
    "      --version         print the version\n";

enum {
	OPT_TITLE = FOLD_OPT_FIRST, OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT,
	OPT_MINWIDTH, OPT_FONTTYPE, OPT_FONTSIZE, OPT_FONTWIDTH, OPT_COUNTNAME,
	OPT_NAMETYPE, OPT_COLORS, OPT_BGCOLORS, OPT_HASH, OPT_RANDOM, OPT_CP,
	OPT_REVERSE, OPT_INVERTED, OPT_FLAMECHART, OPT_NEGATE, OPT_NOTES,
	OPT_TOTAL, OPT_FACTOR, OPT_ENCODING, OPT_NAMEATTR, OPT_STRICT,
	OPT_VERSION
};

static const struct option longopts[] = {
	{ "title", 1, NULL, OPT_TITLE },
	{ "subtitle", 1, NULL, OPT_SUBTITLE },
	{ "width", 1, NULL, OPT_WIDTH },
	{ "height", 1, NULL, OPT_HEIGHT },
	{ "minwidth", 1, NULL, OPT_MINWIDTH },
	{ "fonttype", 1, NULL, OPT_FONTTYPE },
	{ "fontsize", 1, NULL, OPT_FONTSIZE },
	{ "fontwidth", 1, NULL, OPT_FONTWIDTH },
	{ "countname", 1, NULL, OPT_COUNTNAME },
	{ "nametype", 1, NULL, OPT_NAMETYPE },
	{ "colors", 1, NULL, OPT_COLORS },
	{ "bgcolors", 1, NULL, OPT_BGCOLORS },
	{ "hash", 0, NULL, OPT_HASH },
	{ "random", 0, NULL, OPT_RANDOM },
	{ "cp", 0, NULL, OPT_CP },
	{ "reverse", 0, NULL, OPT_REVERSE },
	{ "inverted", 0, NULL, OPT_INVERTED },
	{ "flamechart", 0, NULL, OPT_FLAMECHART },
	{ "negate", 0, NULL, OPT_NEGATE },
	{ "notes", 1, NULL, OPT_NOTES },
	{ "total", 1, NULL, OPT_TOTAL },
	{ "factor", 1, NULL, OPT_FACTOR },
	{ "encoding", 1, NULL, OPT_ENCODING },
	{ "nameattr", 1, NULL, OPT_NAMEATTR },
	{ "strict", 0, NULL, OPT_STRICT },
	{ "help", 0, NULL, 'h' },
	{ "version", 0, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* A finite number in [lo, hi] (hi < 0: no bound), or exit 2.  With pct,
 * a trailing '%' is allowed and reported. */
static double
num(const char *opt, const char *arg, double lo, double hi, int *pct)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (pct != NULL) {
		*pct = *end == '%';
		if (*pct)
			end++;
	}
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < lo || (hi >= 0 && v > hi) || arg[0] == ' ')
		fold_die(2, "invalid value for %s: '%s'", opt, arg);
	return v;
}

static int
ishex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

int
main(int argc, char **argv)
{
	struct fold_flame_opts o;
	struct fold_reader r;
	struct fold_sample s;
	struct fold_flame *f;
	int c, k, strict = 0, status, st2, pct;

	fold_init(argv[0]);
	fold_flame_opts_init(&o);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_SUBTITLE:
			o.subtitle = optarg;
			break;
		case OPT_WIDTH:
			o.width = num("--width", optarg, 21, 1e7, NULL);
			break;
		case OPT_HEIGHT:
			o.frameheight = num("--height", optarg, 1, 1e5, NULL);
			break;
		case OPT_MINWIDTH:
			o.minwidth = num("--minwidth", optarg, 0, -1, &pct);
			o.minpct = pct;
			if (pct && o.minwidth > 100)
				fold_die(2, "invalid value for --minwidth: '%s'",
				    optarg);
			break;
		case OPT_FONTTYPE:
			o.fonttype = optarg;
			break;
		case OPT_FONTSIZE:
			o.fontsize = num("--fontsize", optarg, 0.1, 1e4, NULL);
			break;
		case OPT_FONTWIDTH:
			o.fontwidth = num("--fontwidth", optarg, 0.01, 100, NULL);
			break;
		case OPT_COUNTNAME:
			o.countname = optarg;
			break;
		case OPT_NAMETYPE:
			o.nametype = optarg;
			break;
		case OPT_COLORS:
			if ((o.palette = fold_palette_parse(optarg)) < 0)
				fold_die(2, "unknown palette '%s' (see --help)",
				    optarg);
			break;
		case OPT_BGCOLORS:
			if (strcmp(optarg, "yellow") == 0)
				o.bg1 = "#eeeeee", o.bg2 = "#eeeeb0";
			else if (strcmp(optarg, "blue") == 0)
				o.bg1 = "#eeeeee", o.bg2 = "#e0e0ff";
			else if (strcmp(optarg, "green") == 0)
				o.bg1 = "#eef2ee", o.bg2 = "#e0ffe0";
			else if (strcmp(optarg, "grey") == 0 ||
			    strcmp(optarg, "gray") == 0)
				o.bg1 = "#f8f8f8", o.bg2 = "#e8e8e8";
			else {
				for (k = 1; k <= 6 && ishex(optarg[k]); k++)
					;
				if (optarg[0] != '#' || k != 7 || optarg[7])
					fold_die(2, "invalid --bgcolors '%s' (want "
					    "yellow, blue, green, grey or #rrggbb)",
					    optarg);
				o.bg1 = o.bg2 = optarg;
			}
			break;
		case OPT_HASH:
			o.colormode = FOLD_COLOR_HASH;
			break;
		case OPT_RANDOM:
			o.colormode = FOLD_COLOR_RANDOM;
			break;
		case OPT_CP:
			o.palmap = "palette.map";
			break;
		case OPT_REVERSE:
			o.reverse = 1;
			break;
		case OPT_INVERTED:
			o.inverted = 1;
			break;
		case OPT_FLAMECHART:
			o.flamechart = 1;
			break;
		case OPT_NEGATE:
			o.negate = 1;
			break;
		case OPT_NOTES:
			o.notes = optarg;
			break;
		case OPT_TOTAL:
			o.total = num("--total", optarg, 0, -1, NULL);
			break;
		case OPT_FACTOR:
			o.factor = num("--factor", optarg, 1e-300, -1, NULL);
			break;
		case OPT_ENCODING:
			for (k = 0; optarg[k]; k++)
				if (!((optarg[k] >= 'A' && optarg[k] <= 'Z') ||
				    (optarg[k] >= 'a' && optarg[k] <= 'z') ||
				    (k > 0 && ((optarg[k] >= '0' && optarg[k] <=
				    '9') || optarg[k] == '-' || optarg[k] == '_' ||
				    optarg[k] == '.'))))
					break;
			if (k == 0 || optarg[k])
				fold_die(2, "invalid --encoding '%s'", optarg);
			o.encoding = optarg;
			break;
		case OPT_NAMEATTR:
			o.nameattr = optarg;
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		case 'h':
			fold_help(usage, help);
		case OPT_VERSION:
			fold_version();
		default:
			fold_usage(usage);
		}
	}
	f = fold_flame_new(&o);
	fold_reader_init(&r, argc - optind, argv + optind, strict);
	r.in.map = FOLD_IN_KEEP;	/* the stacks are kept: no copy */
	while (fold_read(&r, &s))
		if (fold_flame_add(f, &s))
			fold_in_keep(&r.in);
	st2 = fold_flame_write(f, r.frac, r.diff);
	status = fold_reader_end(&r);
	if (r.samples == 0 || !(fold_num_dbl(r.total) > 0)) {
		fold_warn("no valid input: %s", r.samples > 0 ? "all counts are "
		    "zero" : r.invalid > 0 ? "every line was invalid" : "no stacks");
		status = 1;
	} else if (st2 != 0)
		status = 1;
	fold_flame_free(f);
	return fo_end(status);
}
