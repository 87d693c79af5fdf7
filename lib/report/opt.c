/* opt.c - the options the analysis tools share. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "report/report.h"

void
fold_common_init(struct fold_common *o)
{
	memset(o, 0, sizeof(*o));
	o->format = FOLD_FMT_TEXT;
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
