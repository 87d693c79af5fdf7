/* foldtop - rank the functions of folded stacks by self and total samples. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"
#include "report/report.h"

static const char usage[] =
    "foldtop [-F] [-n N] [-r] [--focus RE] [--format text|tsv|csv|json]\n"
    "               [--ignore RE] [--min-percent P] [--no-header]\n"
    "               [--percent-of total|shown]\n"
    "               [--sort self|total|name|delta|delta-total]\n"
    "               [--strict] [--strip-annotations] [file ...]\n";

static const char help[] =
    "Rank the functions of folded stacks: self (samples where the function\n"
    "is the leaf) and total (samples in which it appears, once per sample).\n"
    "On differential input (STACK BEFORE AFTER, as folddiff writes), both\n"
    "before and after, and the change (delta, delta% of the before total).\n"
    "\n"
    "  -n, --limit N           print the first N functions only\n"
    "      --sort KEY          self (default), total or name; on differential\n"
    "                          input also delta (default) or delta-total:\n"
    "                          the largest increase first\n"
    "  -r, --reverse           reverse the order (delta: decreases first)\n"
    "      --min-percent P     drop functions under P% (of the sort column)\n"
    "      --focus RE          keep only samples with a frame matching RE\n"
    "      --ignore RE         drop samples with a frame matching RE\n"
    "  -F, --fixed-strings     --focus and --ignore are fixed strings\n"
    "      --percent-of WHAT   total (all samples, default) or shown (kept\n"
    "                          by --focus and --ignore)\n"
    "      --strip-annotations merge name_[k] _[j] _[i] _[w] with name\n"
    "      --format FMT        text (default), tsv, csv or json\n"
    "      --no-header         no header row\n"
    "      --strict            the first invalid line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_SORT = FOLD_OPT_TOOL, OPT_PCTOF, OPT_STRIP };
enum { SORT_SELF, SORT_TOTAL, SORT_NAME, SORT_DELTA, SORT_DELTA_TOTAL,
	SORT_DEFAULT };

static const struct option longopts[] = {
	FOLD_COMMON_LONGOPTS,
	{ "sort", 1, NULL, OPT_SORT },
	{ "percent-of", 1, NULL, OPT_PCTOF },
	{ "strip-annotations", 0, NULL, OPT_STRIP },
	{ "reverse", 0, NULL, 'r' },
	{ NULL, 0, NULL, 0 }
};

struct fn {
	fold_num self, total;
	uint32_t inpos;		/* 1 + position in the current stack, or 0 */
	int seen;		/* in a kept sample */
};

/*
 * A frame in the stack gets the counts of all the kept samples while it
 * stays there: consecutive folded lines share their first frames, so
 * total += (sum of counts when it leaves) - (sum when it came), and a
 * sample costs only the frames that change.  Only the first position of a
 * frame counts (recursion once per sample).
 */
struct pos {
	fold_num start;		/* kept sum when it came */
	uint64_t lines;		/* kept lines when it came */
	int owner;		/* first position of its id in the stack */
	unsigned bits;		/* filter match bits */
};

static struct fold_intern names;
static struct fn *fns;
static int sortkey = SORT_DEFAULT, frac;

/* The frame at a stack position leaves: it had the samples since it came. */
static void
leave(uint32_t id, const struct pos *ps, fold_num sum, uint64_t lines,
    size_t *nfoc, size_t *nign)
{
	struct fn *fp = &fns[id];
	fold_num d;

	*nfoc -= (ps->bits & FOLD_FILTER_FOCUS) != 0;
	*nign -= (ps->bits & FOLD_FILTER_IGNORE) != 0;
	if (!ps->owner)
		return;
	fp->inpos = 0;
	d.i = sum.i - ps->start.i;
	d.f = sum.f - ps->start.f;
	fold_num_add(&fp->total, d);
	if (lines > ps->lines)
		fp->seen = 1;
}

static double
pct(fold_num n, double denom)
{
	return denom > 0 ? 100.0 * fold_num_dbl(n) / denom : 0.0;
}

/*
 * Differential input: self and total of each function, before and after.
 * A separate pass (the loop above is for ordinary input): total counts a
 * function once per sample, by the sample's stamp.
 */
static int
difftop(struct fold_reader *r, const struct fold_common *o,
    struct fold_filter *filt, struct fold_stackids *sids, int pctshown,
    int reverse)
{
	static const char *const cols[] = {
		"self-before", "self-after", "delta", "delta%", "total-before",
		"total-after", "delta-total", "delta-total%", "name"
	};
	struct fold_sample s;
	struct fold_dtally t;
	struct fold_dtally_fmt f;
	fold_num *v = NULL, kept[2] = { { 0, 0 }, { 0, 0 } };
	uint64_t *stamp = NULL, nsample = 0;
	size_t vcap = 0, scap = 0, n, k, nrows, shown;
	const uint32_t *ids;
	uint32_t id;
	int status;

	while (fold_read(r, &s)) {
		ids = fold_stackids(sids, s.stack, s.stacklen, &n);
		if (fold_filter_active(filt) &&
		    !fold_filter_pass(filt, &names, ids, n))
			continue;
		nsample++;
		fold_grow(&v, &vcap, 4 * fold_intern_count(&names), sizeof(*v));
		fold_grow(&stamp, &scap, fold_intern_count(&names),
		    sizeof(*stamp));
		fold_num_add(&kept[0], s.old);	/* <= the totals: no wrap */
		fold_num_add(&kept[1], s.count);
		id = ids[n - 1];
		fold_num_add(&v[4 * id], s.old);
		fold_num_add(&v[4 * id + 1], s.count);
		for (k = 0; k < n; k++) {
			id = ids[k];
			if (stamp[id] == nsample)
				continue;	/* recursion: once per sample */
			stamp[id] = nsample;
			fold_num_add(&v[4 * id + 2], s.old);
			fold_num_add(&v[4 * id + 3], s.count);
		}
	}
	status = fold_reader_end(r);

	fold_dtally_init(&t, 2);
	for (k = 0; k < scap && k < fold_intern_count(&names); k++) {
		struct fold_str nm = fold_intern_str(&names, (uint32_t)k);

		if (stamp[k] == 0)
			continue;	/* only in samples left out */
		id = fold_dtally_id(&t, nm.s, nm.len);
		memcpy(fold_dtally_v(&t, id), &v[4 * k], 4 * sizeof(*v));
	}
	memset(&f, 0, sizeof(f));
	f.cols = cols;
	f.measure = sortkey == SORT_TOTAL || sortkey == SORT_DELTA_TOTAL;
	f.key = sortkey == SORT_NAME ? FOLD_DSORT_NAME : sortkey == SORT_SELF ||
	    sortkey == SORT_TOTAL ? FOLD_DSORT_AFTER : FOLD_DSORT_DELTA;
	f.reverse = reverse;
	f.before = pctshown ? kept[0] : r->total_old;
	f.after = pctshown ? kept[1] : r->total;
	f.frac = r->frac;
	f.what = "functions";
	if (o->format == FOLD_FMT_JSON) {
		fo_puts("{\"before\": ");
		fo_num(r->total_old, r->frac);
		fo_puts(", \"after\": ");
		fo_num(r->total, r->frac);
		fo_puts(", \"kept_before\": ");
		fo_num(kept[0], r->frac);
		fo_puts(", \"kept_after\": ");
		fo_num(kept[1], r->frac);
		fo_printf(", \"functions\": %zu, \"rows\": ",
		    fold_intern_count(&t.names));
	}
	shown = fold_dtally_print(&t, o, &f, &nrows);
	if (o->format == FOLD_FMT_JSON)
		fo_printf(", \"shown\": %zu}\n", shown);
	fold_dtally_free(&t);
	free(v);
	free(stamp);
	fold_stackids_free(sids);
	fold_filter_free(filt);
	fold_intern_free(&names);
	free(o->focus);
	free(o->ignore);
	return fo_end(status);
}

int
main(int argc, char **argv)
{
	static const struct fold_col cols[] = {
		{ "self", FOLD_COL_COUNT }, { "self%", FOLD_COL_PCT },
		{ "sum%", FOLD_COL_PCT }, { "total", FOLD_COL_COUNT },
		{ "total%", FOLD_COL_PCT }, { "name", FOLD_COL_STR },
	};
	struct fold_common o;
	struct fold_reader r;
	struct fold_filter filt;
	struct fold_sample s;
	struct fold_table tab;
	fold_num kept = { 0, 0 }, dropped_self = { 0, 0 };
	const uint32_t *ids;
	uint32_t *order;
	struct fold_stackids sids;
	struct pos *stk = NULL;
	size_t nids, fcap = 0, stkcap = 0, nrows, k, keep, shown, nfoc = 0, nign = 0;
	fold_num sum_kept = { 0, 0 };
	uint64_t nkept = 0;
	int filtered;
	double denom, sum = 0, p;
	int c, strip = 0, pctshown = 0, status, reverse = 0;

	fold_init(argv[0]);
	fold_common_init(&o);
	while ((c = getopt_long(argc, argv, FOLD_COMMON_SHORTOPTS "r", longopts,
	    NULL)) != -1) {
		if (fold_opt_common(&o, c, optarg, usage, help))
			continue;
		switch (c) {
		case OPT_SORT:
			if (strcmp(optarg, "self") == 0)
				sortkey = SORT_SELF;
			else if (strcmp(optarg, "total") == 0)
				sortkey = SORT_TOTAL;
			else if (strcmp(optarg, "name") == 0)
				sortkey = SORT_NAME;
			else if (strcmp(optarg, "delta") == 0)
				sortkey = SORT_DELTA;
			else if (strcmp(optarg, "delta-total") == 0)
				sortkey = SORT_DELTA_TOTAL;
			else
				fold_die(2, "invalid sort key '%s' (want self, "
				    "total, name, delta or delta-total)", optarg);
			break;
		case OPT_PCTOF:
			if (strcmp(optarg, "total") == 0)
				pctshown = 0;
			else if (strcmp(optarg, "shown") == 0)
				pctshown = 1;
			else
				fold_die(2, "invalid --percent-of '%s' (want "
				    "total or shown)", optarg);
			break;
		case OPT_STRIP:
			strip = 1;
			break;
		case 'r':
			reverse = 1;
			break;
		default:
			fold_usage(usage);
		}
	}
	fold_filter_init(&filt, &o);
	fold_intern_init(&names);
	fold_stackids_init(&sids, &names, strip);
	fold_reader_init(&r, argc - optind, argv + optind, o.strict);
	filtered = fold_filter_active(&filt);
	if (fold_reader_isdiff(&r))
		return difftop(&r, &o, &filt, &sids, pctshown, reverse);
	if (sortkey == SORT_DELTA || sortkey == SORT_DELTA_TOTAL)
		fold_die(2, "--sort %s needs differential input (STACK BEFORE "
		    "AFTER)", sortkey == SORT_DELTA ? "delta" : "delta-total");
	if (sortkey == SORT_DEFAULT)
		sortkey = SORT_SELF;

	while (fold_read(&r, &s)) {
		keep = fold_stackids_diff(&sids, s.stack, s.stacklen);
		for (k = sids.n; k-- > keep;)
			leave(sids.ids[k], &stk[k], sum_kept, nkept, &nfoc, &nign);
		ids = fold_stackids_push(&sids, s.stack, s.stacklen, &nids);
		fold_grow(&fns, &fcap, fold_intern_count(&names), sizeof(*fns));
		fold_grow(&stk, &stkcap, nids, sizeof(*stk));
		for (k = keep; k < nids; k++)
			fold_prefetch(&fns[ids[k]]);
		for (k = keep; k < nids; k++) {
			struct fn *fp = &fns[ids[k]];
			struct pos *ps = &stk[k];

			ps->owner = fp->inpos == 0;
			if (ps->owner)
				fp->inpos = (uint32_t)k + 1;
			ps->start = sum_kept;
			ps->lines = nkept;
			ps->bits = filtered ? fold_filter_frame(&filt, &names,
			    ids[k]) : 0;
			nfoc += (ps->bits & FOLD_FILTER_FOCUS) != 0;
			nign += (ps->bits & FOLD_FILTER_IGNORE) != 0;
		}
		if (filtered && ((filt.nfocus > 0 && nfoc == 0) || nign > 0))
			continue;
		fold_num_add(&sum_kept, s.count);	/* <= r.total: no wrap */
		nkept++;
		fold_num_add(&fns[ids[nids - 1]].self, s.count);
		fns[ids[nids - 1]].seen = 1;
	}
	for (k = sids.n; k-- > 0;)
		leave(sids.ids[k], &stk[k], sum_kept, nkept, &nfoc, &nign);
	kept = sum_kept;
	status = fold_reader_end(&r);
	frac = r.frac;

	/* The functions seen in kept samples, sorted. */
	order = xmalloc((fold_intern_count(&names) + 1) * sizeof(*order));
	for (nrows = 0, k = 0; k < fold_intern_count(&names); k++)
		if (fns[k].seen)
			order[nrows++] = (uint32_t)k;
	fold_sort_names(order, nrows, &names);
	if (sortkey != SORT_NAME) {
		uint64_t *key = xmalloc((fold_intern_count(&names) + 1) *
		    sizeof(*key));

		for (k = 0; k < nrows; k++)
			key[order[k]] = fold_num_key(sortkey == SORT_TOTAL ?
			    fns[order[k]].total : fns[order[k]].self, frac);
		fold_sort_desc(order, nrows, key);
		free(key);
	}
	if (reverse)
		fold_reverse_ids(order, nrows);

	denom = fold_num_dbl(pctshown ? kept : r.total);
	fold_table_init(&tab, cols, 6, frac, o.format);
	for (shown = 0, k = 0; k < nrows; k++) {
		struct fn *fp = &fns[order[k]];
		union fold_cell *row;

		p = pct(sortkey == SORT_TOTAL ? fp->total : fp->self, denom);
		if ((o.limit > 0 && shown >= o.limit) || p < o.minpct) {
			fold_num_add(&dropped_self, fp->self);
			continue;
		}
		shown++;
		sum += pct(fp->self, denom);
		row = fold_table_row(&tab);
		row[0].n = fp->self;
		row[1].pct = pct(fp->self, denom);
		row[2].pct = sum;
		row[3].n = fp->total;
		row[4].pct = pct(fp->total, denom);
		row[5].str = fold_intern_str(&names, order[k]);
	}

	if (o.format == FOLD_FMT_JSON) {
		fo_puts("{\"samples\": ");
		fo_num(r.total, frac);
		fo_puts(", \"kept\": ");
		fo_num(kept, frac);
		fo_printf(", \"functions\": %zu, \"shown\": %zu, \"rows\": ",
		    nrows, shown);
		fold_table_print(&tab, o.noheader);
		fo_puts("}\n");
	} else {
		fold_table_print(&tab, o.noheader);
		if (o.format == FOLD_FMT_TEXT && shown < nrows) {
			fo_printf("(%zu more function%s not shown, ", nrows - shown,
			    nrows - shown == 1 ? "" : "s");
			fo_printf("%.2f%% of self samples)\n",
			    pct(dropped_self, denom));
		}
	}
	fold_table_free(&tab);
	free(order);
	fold_stackids_free(&sids);
	free(stk);
	free(fns);
	fold_filter_free(&filt);
	fold_intern_free(&names);
	free(o.focus);
	free(o.ignore);
	return fo_end(status);
}
