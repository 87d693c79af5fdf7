/* opt.c - the options the analysis tools share, and usage errors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"

void
fold_common_init(struct fold_common *o)
{
	memset(o, 0, sizeof(*o));
	o->format = FOLD_FMT_TEXT;
}

void
fold_usage(const char *usage)
{
	fprintf(stderr, "usage: %s", usage);
	exit(2);
}

void
fold_help(const char *usage, const char *help)
{
	printf("usage: %s\n%s", usage, help);
	if (fflush(stdout) != 0)
		fold_die(1, "write error: %s", strerror(errno));
	exit(0);
}

void
fold_version(void)
{
	printf("%s (foldkit) %s\n", fold_prog, FOLDKIT_VERSION);
	if (fflush(stdout) != 0)
		fold_die(1, "write error: %s", strerror(errno));
	exit(0);
}

uint64_t
fold_opt_u64(const char *opt, const char *arg)
{
	uint64_t v = 0;
	const char *p;

	for (p = arg; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (unsigned)(*p - '0')) / 10)
			break;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (p == arg || *p != '\0')
		fold_die(2, "invalid number for %s: '%s'", opt, arg);
	return v;
}

double
fold_opt_pct(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < 0 || v > 100)
		fold_die(2, "invalid percentage for %s: '%s' (want 0 to 100)",
		    opt, arg);
	return v;
}

static void
push(const char ***list, size_t *n, const char *arg)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = arg;
}

int
fold_opt_common(struct fold_common *o, int c, const char *arg,
    const char *usage, const char *help)
{
	switch (c) {
	case FOLD_OPT_FORMAT:
		if ((o->format = fold_fmt_parse(arg)) < 0)
			fold_die(2, "invalid format '%s' (want text, tsv, csv "
			    "or json)", arg);
		return 1;
	case FOLD_OPT_NOHEADER:
		o->noheader = 1;
		return 1;
	case 'n':
		o->limit = fold_opt_u64("--limit", arg);
		return 1;
	case FOLD_OPT_MINPCT:
		o->minpct = fold_opt_pct("--min-percent", arg);
		return 1;
	case FOLD_OPT_FOCUS:
		push(&o->focus, &o->nfocus, arg);
		return 1;
	case FOLD_OPT_IGNORE:
		push(&o->ignore, &o->nignore, arg);
		return 1;
	case 'F':
		o->fixed = 1;
		return 1;
	case FOLD_OPT_STRICT:
		o->strict = 1;
		return 1;
	case 'h':
		fold_help(usage, help);
	case FOLD_OPT_VERSION:
		fold_version();
	}
	return 0;
}

int
fold_opt_sortkey(const char *arg)
{
	if (strcmp(arg, "count") == 0)
		return 0;
	if (strcmp(arg, "delta") == 0)
		return 1;
	fold_die(2, "invalid sort key '%s' (want count or delta)", arg);
}
