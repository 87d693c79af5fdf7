/* foldmodules - where the samples go, by module (crate, namespace, ...). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"
#include "report/report.h"

static const char usage[] =
    "foldmodules [-F] [--by root|leaf|inclusive] [--focus RE]\n"
    "               [--format text|tsv|csv|json] [--ignore RE]\n"
    "               [--min-percent P] [-n N] [--no-header] [-p RE] [-r]\n"
    "               [--preset rust|cpp|java|go|kernel|dso]\n"
    "               [--sort count|delta] [--strict] [--top-functions N]\n"
    "               [file ...]\n";

static const char help[] =
    "Group the samples by module: the first capture group of a pattern (the\n"
    "whole match without one) in the frames of each sample.  On differential\n"
    "input (STACK BEFORE AFTER, as folddiff writes), before, after and the\n"
    "change.\n"
    "\n"
    "  -p, --pattern RE        what names a module\n"
    "      --preset NAME       rust (crate), cpp (outermost namespace), java\n"
    "                          (package), go (package), kernel (_[k] frames),\n"
    "                          dso ([libfoo.so] frames)\n"
    "      --by HOW            root: the first matching frame from the root\n"
    "                          (default); leaf: the one nearest the leaf;\n"
    "                          inclusive: every module once per sample\n"
    "      --top-functions N   the N hottest leaf functions of each module\n"
    "  -F, --fixed-strings     patterns are fixed strings\n"
    "  -n, --limit N           print the first N modules only\n"
    "      --sort KEY          count (the default on ordinary input) or, on\n"
    "                          differential input, delta (its default): the\n"
    "                          largest increase first\n"
    "  -r, --reverse           reverse the order (delta: decreases first)\n"
    "      --min-percent P     drop modules under P% of the samples\n"
    "      --focus RE          keep only samples with a frame matching RE\n"
    "      --ignore RE         drop samples with a frame matching RE\n"
    "      --format FMT        text (default), tsv, csv or json\n"
    "      --no-header         no header row\n"
    "      --strict            the first invalid line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_PRESET = FOLD_OPT_TOOL, OPT_BY, OPT_TOPFN, OPT_SORT };
enum { BY_ROOT, BY_LEAF, BY_INCLUSIVE };

static const struct option longopts[] = {
	FOLD_COMMON_LONGOPTS,
	{ "pattern", 1, NULL, 'p' },
	{ "preset", 1, NULL, OPT_PRESET },
	{ "by", 1, NULL, OPT_BY },
	{ "top-functions", 1, NULL, OPT_TOPFN },
	{ "sort", 1, NULL, OPT_SORT },
	{ "reverse", 0, NULL, 'r' },
	{ NULL, 0, NULL, 0 }
};

static const struct preset {
	const char *name, *pattern, *label;
} presets[] = {
	{ "rust", "^<?([[:alpha:]_][[:alnum:]_]*)::", NULL },
	{ "cpp", "^(\\(anonymous namespace\\)|[[:alpha:]_][[:alnum:]_]*)::", NULL },
	{ "java", "^L?([[:alnum:]_$]+(?:/[[:alnum:]_$]+)*)/[[:alnum:]_$]+[;.:]"
	    "|^([[:alnum:]_$]+(?:\\.[[:alnum:]_$]+)*)\\.[[:alnum:]_$]+\\."
	    "[[:alnum:]_$<>]+$", NULL },
	{ "go", "^((?:[[:alnum:]_.~-]+/)*[[:alnum:]_~-]+)\\.", NULL },
	{ "kernel", "_\\[k\\]$", "kernel" },
	{ "dso", "^\\[([^]]+)\\]$", NULL },
};

#define NONE UINT32_MAX
#define UNKNOWN (UINT32_MAX - 1)

static struct fold_intern frames;
static struct fold_re modre;
static const char *label;
static struct fold_tally mods;	/* module name -> samples */
static struct fold_tally fns;	/* "module\0leaf" -> samples */
static uint32_t *modof;		/* frame id -> module id, NONE, UNKNOWN */
static size_t modcap;
static char *key;
static size_t keycap;

/* The module of frame id: a module id, or NONE. */
static uint32_t
classify(uint32_t id)
{
	struct fold_str f;
	fold_num zero = { 0, 0 };
	size_t so, eo, old = modcap;

	fold_grow(&modof, &modcap, (size_t)id + 1, sizeof(*modof));
	for (; old < modcap; old++)
		modof[old] = UNKNOWN;
	if (modof[id] != UNKNOWN)
		return modof[id];
	f = fold_intern_str(&frames, id);
	if (!fold_re_match(&modre, f.s, f.len, &so, &eo))
		modof[id] = NONE;
	else if (label != NULL)
		modof[id] = fold_tally_add(&mods, label, strlen(label), zero);
	else
		modof[id] = fold_tally_add(&mods, f.s + so, eo - so, zero);
	return modof[id];
}

/*
 * --by inclusive without --top-functions: a module has the samples of all
 * the kept lines while it is in the stack, so that a line costs only the
 * frames that change (folded files are sorted: lines share their callers).
 */
static void
inclusive(struct fold_reader *r, struct fold_stackids *sids,
    struct fold_filter *filt)
{
	struct fold_sample s;
	struct ent {
		fold_num start;		/* kept sum when it came */
		uint64_t lines;		/* kept lines when it came */
		size_t ref;		/* positions in the stack */
	} *ent = NULL;
	uint32_t *mod = NULL, mm;	/* per position */
	unsigned char *used = NULL;	/* per module: in a kept line */
	size_t entcap = 0, modcap_ = 0, usedcap = 0, keep, n, k, nmod = 0;
	fold_num sum = { 0, 0 }, d, zero = { 0, 0 };
	uint64_t lines = 0;
	const uint32_t *ids;

	for (;;) {
		int more = fold_read(r, &s);

		keep = more ? fold_stackids_diff(sids, s.stack, s.stacklen) : 0;
		for (k = sids->n; k-- > keep;) {	/* frames leaving */
			if ((mm = mod[k]) == NONE || --ent[mm].ref > 0)
				continue;
			nmod--;
			d.i = sum.i - ent[mm].start.i;
			d.f = sum.f - ent[mm].start.f;
			fold_num_add(&mods.counts[mm], d);	/* <= total */
			if (lines > ent[mm].lines) {
				fold_grow(&used, &usedcap, (size_t)mm + 1, 1);
				used[mm] = 1;
			}
		}
		if (!more)
			break;
		ids = fold_stackids_push(sids, s.stack, s.stacklen, &n);
		fold_grow(&mod, &modcap_, n, sizeof(*mod));
		for (k = keep; k < n; k++) {	/* frames coming */
			if ((mm = mod[k] = classify(ids[k])) == NONE)
				continue;
			fold_grow(&ent, &entcap, (size_t)mm + 1, sizeof(*ent));
			if (ent[mm].ref++ == 0) {
				nmod++;
				ent[mm].start = sum;
				ent[mm].lines = lines;
			}
		}
		if (fold_filter_active(filt) &&
		    !fold_filter_pass(filt, &frames, ids, n))
			continue;
		fold_num_add(&sum, s.count);	/* <= the reader's total */
		lines++;
		if (nmod == 0) {
			/* not in one expression: the add may move counts */
			mm = fold_tally_add(&mods, "<other>", 7, zero);
			fold_num_add(&mods.counts[mm], s.count);
		}
	}
	/* Modules never in a kept line are not rows. */
	{
		struct fold_tally rows;

		fold_tally_init(&rows);
		for (k = 0; k < fold_intern_count(&mods.names); k++) {
			struct fold_str nm = fold_intern_str(&mods.names,
			    (uint32_t)k);

			if ((k < usedcap && used[k]) || (nm.len == 7 &&
			    memcmp(nm.s, "<other>", 7) == 0))
				fold_tally_add(&rows, nm.s, nm.len,
				    mods.counts[k]);
		}
		fold_tally_free(&mods);
		mods = rows;
	}
	free(ent);
	free(mod);
	free(used);
}

/* Count a sample for module m, and for its leaf function under m. */
static void
attribute(uint32_t m, uint32_t leaf, fold_num c, int topfn)
{
	struct fold_str mn, lf;

	fold_num_add(&mods.counts[m], c);	/* <= the total: no wrap */
	if (!topfn)
		return;
	mn = fold_intern_str(&mods.names, m);
	lf = fold_intern_str(&frames, leaf);
	fold_grow(&key, &keycap, mn.len + lf.len + 1, 1);
	memcpy(key, mn.s, mn.len);
	key[mn.len] = '\0';
	memcpy(key + mn.len + 1, lf.s, lf.len);
	fold_tally_add(&fns, key, mn.len + 1 + lf.len, c);
}

/* The modules with their top functions: a table of count, percent,
 * module, function (text: functions indented under their module). */
static void
print_nested(const struct fold_common *o, uint64_t topfn, double denom,
    int frac)
{
	static const struct fold_col cols4[] = {
		{ "count", FOLD_COL_COUNT }, { "percent", FOLD_COL_PCT },
		{ "module", FOLD_COL_STR }, { "function", FOLD_COL_STR },
	};
	static const struct fold_col cols3[] = {
		{ "count", FOLD_COL_COUNT }, { "percent", FOLD_COL_PCT },
		{ "module", FOLD_COL_STR },
	};
	struct fold_table tab;
	struct fold_arena a = { NULL, NULL, 0 };
	size_t nm, nf, i, j, shown = 0, got;
	uint32_t *mo = fold_tally_rank(&mods, frac, &nm);
	uint32_t *fo = fold_tally_rank(&fns, frac, &nf);
	int text = o->format == FOLD_FMT_TEXT;
	double p;

	if (o->reverse) {
		fold_reverse_ids(mo, nm);
		fold_reverse_ids(fo, nf);
	}

	fold_table_init(&tab, text ? cols3 : cols4, text ? 3 : 4, frac,
	    o->format);
	for (i = 0; i < nm; i++) {
		struct fold_str mn = fold_intern_str(&mods.names, mo[i]);
		union fold_cell *row;

		p = denom > 0 ? 100 * fold_num_dbl(mods.counts[mo[i]]) / denom : 0;
		if ((o->limit > 0 && shown >= o->limit) || p < o->minpct ||
		    fold_num_dbl(mods.counts[mo[i]]) == 0)
			continue;
		shown++;
		row = fold_table_row(&tab);
		row[0].n = mods.counts[mo[i]];
		row[1].pct = p;
		row[2].str = mn;
		if (!text)
			row[3].str.len = 0, row[3].str.s = "";
		for (j = got = 0; j < nf && got < topfn; j++) {
			struct fold_str k = fold_intern_str(&fns.names, fo[j]);
			char *ind;

			if (k.len <= mn.len || k.s[mn.len] != '\0' ||
			    memcmp(k.s, mn.s, mn.len) != 0)
				continue;
			got++;
			row = fold_table_row(&tab);
			row[0].n = fns.counts[fo[j]];
			row[1].pct = denom > 0 ? 100 *
			    fold_num_dbl(fns.counts[fo[j]]) / denom : 0;
			if (text) {	/* "  function" */
				ind = fold_arena_alloc(&a, k.len - mn.len + 1);
				memcpy(ind, "  ", 2);
				memcpy(ind + 2, k.s + mn.len + 1, k.len - mn.len - 1);
				row[2].str.s = ind;
				row[2].str.len = k.len - mn.len + 1;
			} else {
				row[2].str = mn;
				row[3].str.s = k.s + mn.len + 1;
				row[3].str.len = k.len - mn.len - 1;
			}
		}
	}
	fold_table_print(&tab, o->noheader);
	fold_table_free(&tab);
	fold_arena_free(&a);
	free(mo);
	free(fo);
}

/* Differential: count a sample for module mn, and its leaf under it. */
static void
dattribute(struct fold_dtally *dm, struct fold_dtally *df, struct fold_str mn,
    uint32_t leaf, const struct fold_sample *s, int topfn)
{
	struct fold_str lf;

	fold_dtally_add(dm, mn.s, mn.len, 0, s->old, s->count);
	if (!topfn)
		return;
	lf = fold_intern_str(&frames, leaf);
	fold_grow(&key, &keycap, mn.len + lf.len + 1, 1);
	memcpy(key, mn.s, mn.len);
	key[mn.len] = '\0';
	memcpy(key + mn.len + 1, lf.s, lf.len);
	fold_dtally_add(df, key, mn.len + 1 + lf.len, 0, s->old, s->count);
}

/*
 * Differential input: the modules (and with --top-functions their leaf
 * functions) with before, after and the change.  A separate pass: the
 * loops above are for ordinary input.
 */
static int
diffmodules(struct fold_reader *r, const struct fold_common *o,
    struct fold_filter *filt, struct fold_stackids *sids, int by,
    uint64_t topfn, int bydelta)
{
	static const char *cols[] = { "before", "after", "delta", "delta%",
	    "module", "function" };
	struct fold_sample s;
	struct fold_dtally dm, df;
	struct fold_dtally_fmt f;
	struct fold_col tcols[6];
	struct fold_table tab;
	struct fold_arena a = { NULL, NULL, 0 };
	uint64_t *stamp = NULL, seq = 0;
	size_t stampcap = 0, n, k, i, j, nm, nf, shown = 0, got;
	const uint32_t *ids;
	uint32_t m, mm, *mo, *fo;
	int status, text = o->format == FOLD_FMT_TEXT;
	double p;

	fold_dtally_init(&dm, 1);
	fold_dtally_init(&df, 1);
	while (fold_read(r, &s)) {
		ids = fold_stackids(sids, s.stack, s.stacklen, &n);
		if (fold_filter_active(filt) &&
		    !fold_filter_pass(filt, &frames, ids, n))
			continue;
		seq++;
		m = NONE;
		for (k = 0; k < n; k++) {
			mm = classify(ids[by == BY_LEAF ? n - 1 - k : k]);
			if (mm == NONE)
				continue;
			m = mm;
			if (by != BY_INCLUSIVE)
				break;
			fold_grow(&stamp, &stampcap, (size_t)mm + 1,
			    sizeof(*stamp));
			if (stamp[mm] == seq)
				continue;	/* each module once */
			stamp[mm] = seq;
			dattribute(&dm, &df, fold_intern_str(&mods.names, mm),
			    ids[n - 1], &s, topfn > 0);
		}
		if (m != NONE && by == BY_INCLUSIVE)
			continue;
		dattribute(&dm, &df, m == NONE ? (struct fold_str){ "<other>",
		    7 } : fold_intern_str(&mods.names, m), ids[n - 1], &s,
		    topfn > 0);
	}
	status = fold_reader_end(r);

	memset(&f, 0, sizeof(f));
	f.cols = cols;
	f.key = bydelta ? FOLD_DSORT_DELTA : FOLD_DSORT_AFTER;
	f.reverse = o->reverse;
	f.before = r->total_old;
	f.after = r->total;
	f.frac = r->frac;
	f.what = "modules";
	if (o->format == FOLD_FMT_JSON) {
		static const char *bynames[] = { "root", "leaf", "inclusive" };

		fo_puts("{\"before\": ");
		fo_num(r->total_old, r->frac);
		fo_puts(", \"after\": ");
		fo_num(r->total, r->frac);
		fo_printf(", \"by\": \"%s\", \"rows\": ", bynames[by]);
	}
	if (topfn == 0) {
		fold_dtally_print(&dm, o, &f, NULL);
		goto out;
	}
	/* Modules with their top functions: text indents the functions
	 * under their module, the other formats have a function column. */
	fold_dtally_cols(&dm, &f, tcols);
	tcols[5].name = "function";
	tcols[5].type = FOLD_COL_STR;
	fold_table_init(&tab, tcols, text ? 5 : 6, r->frac, o->format);
	mo = fold_dtally_rank(&dm, &f, &nm);
	fo = fold_dtally_rank(&df, &f, &nf);
	for (i = 0; i < nm; i++) {
		struct fold_str mn = fold_intern_str(&dm.names, mo[i]);
		union fold_cell *row;

		p = fold_dtally_pct(&dm, mo[i], &f);
		if ((o->limit > 0 && shown >= o->limit) ||
		    (p < 0 ? -p : p) < o->minpct)
			continue;
		shown++;
		row = fold_table_row(&tab);
		fold_dtally_cells(&dm, mo[i], &f, row);
		row[4].str = mn;
		if (!text)
			row[5].str.len = 0, row[5].str.s = "";
		for (j = got = 0; j < nf && got < topfn; j++) {
			struct fold_str fk = fold_intern_str(&df.names, fo[j]);
			char *ind;

			if (fk.len <= mn.len || fk.s[mn.len] != '\0' ||
			    memcmp(fk.s, mn.s, mn.len) != 0)
				continue;
			got++;
			row = fold_table_row(&tab);
			fold_dtally_cells(&df, fo[j], &f, row);
			if (text) {	/* "  function" */
				ind = fold_arena_alloc(&a, fk.len - mn.len + 1);
				memcpy(ind, "  ", 2);
				memcpy(ind + 2, fk.s + mn.len + 1,
				    fk.len - mn.len - 1);
				row[4].str.s = ind;
				row[4].str.len = fk.len - mn.len + 1;
			} else {
				row[4].str = mn;
				row[5].str.s = fk.s + mn.len + 1;
				row[5].str.len = fk.len - mn.len - 1;
			}
		}
	}
	fold_table_print(&tab, o->noheader);
	if (text && shown < nm)
		fo_printf("(%zu more modules not shown)\n", nm - shown);
	fold_table_free(&tab);
	fold_arena_free(&a);
	free(mo);
	free(fo);
out:
	if (o->format == FOLD_FMT_JSON)
		fo_puts("}\n");
	free(stamp);
	fold_dtally_free(&dm);
	fold_dtally_free(&df);
	return status;
}

/*
 * --by root or leaf, without --top-functions or filters: only the frames
 * up to the first with a module (from the root, or from the leaf) are
 * looked up, and a stack that begins with the same frames as the one
 * before, up to the one that decided its module, has that module.
 */
static void
rootleaf(struct fold_reader *r, int by)
{
	struct fold_sample s;
	fold_num zero = { 0, 0 };
	char *dec = NULL;	/* the previous stack up to its deciding frame */
	size_t dlen = 0, dcap = 0, len;
	int have = 0, whole = 0;
	uint32_t m = NONE;
	const char *p, *e, *fs, *fe;

	while (fold_read(r, &s)) {
		p = s.stack;
		e = s.stack + s.stacklen;
		if (by == BY_ROOT && have && dlen <= s.stacklen &&
		    memcmp(s.stack, dec, dlen) == 0 && (dlen == s.stacklen ||
		    (!whole && s.stack[dlen] == ';'))) {
			attribute(m, 0, s.count, 0);	/* decided as before */
			continue;
		}
		m = NONE;
		if (by == BY_ROOT) {
			for (;;) {
				if ((fe = memchr(p, ';', (size_t)(e - p))) == NULL)
					fe = e;
				m = classify(fold_intern(&frames, p,
				    (size_t)(fe - p), NULL));
				if (m != NONE || fe == e)
					break;
				p = fe + 1;
			}
			/* no module: only the same stack has none for sure */
			whole = m == NONE;
			len = (size_t)(fe - s.stack);
			fold_grow(&dec, &dcap, len + 1, 1);
			memcpy(dec, s.stack, len);
			dlen = len;
			have = 1;
		} else {
			for (fe = e;; fe = fs - 1) {
				for (fs = fe; fs > s.stack && fs[-1] != ';'; fs--)
					;
				m = classify(fold_intern(&frames, fs,
				    (size_t)(fe - fs), NULL));
				if (m != NONE || fs == s.stack)
					break;
			}
		}
		if (m == NONE)
			m = fold_tally_add(&mods, "<other>", 7, zero);
		attribute(m, 0, s.count, 0);
	}
	free(dec);
}

int
main(int argc, char **argv)
{
	static const char *bynames[] = { "root", "leaf", "inclusive" };
	struct fold_common o;
	struct fold_reader r;
	struct fold_filter filt;
	struct fold_sample s;
	struct fold_stackids sids;
	uint64_t *stamp = NULL, seq = 0, topfn = 0;
	size_t stampcap = 0, n, k;
	const uint32_t *ids;
	const char *pattern = NULL;
	uint32_t m, mm;
	int c, by = BY_ROOT, status, frac, fixed;
	int sortkey = -1;	/* 0 count, 1 delta, -1 by the input */

	fold_init(argv[0]);
	fold_common_init(&o);
	while ((c = getopt_long(argc, argv, FOLD_COMMON_SHORTOPTS "p:r", longopts,
	    NULL)) != -1) {
		if (fold_opt_common(&o, c, optarg, usage, help))
			continue;
		switch (c) {
		case 'p':
			pattern = optarg;
			label = NULL;
			break;
		case OPT_PRESET:
			for (k = 0; k < sizeof(presets) / sizeof(*presets); k++)
				if (strcmp(optarg, presets[k].name) == 0)
					break;
			if (k == sizeof(presets) / sizeof(*presets))
				fold_die(2, "unknown preset '%s' (want rust, cpp, "
				    "java, go, kernel or dso)", optarg);
			pattern = presets[k].pattern;
			label = presets[k].label;
			break;
		case OPT_BY:
			for (by = 0; by < 3; by++)
				if (strcmp(optarg, bynames[by]) == 0)
					break;
			if (by == 3)
				fold_die(2, "invalid --by '%s' (want root, leaf "
				    "or inclusive)", optarg);
			break;
		case OPT_TOPFN:
			topfn = fold_opt_u64("--top-functions", optarg);
			break;
		case OPT_SORT:
			sortkey = fold_opt_sortkey(optarg);
			break;
		case 'r':
			o.reverse = 1;
			break;
		default:
			fold_usage(usage);
		}
	}
	if (pattern == NULL) {
		fold_warn("no module pattern: give -p RE or --preset NAME");
		fold_usage(usage);
	}
	/* -F applies to -p, never to a preset's own pattern. */
	fixed = o.fixed;
	for (k = 0; k < sizeof(presets) / sizeof(*presets); k++)
		if (pattern == presets[k].pattern)
			fixed = 0;
	fold_re_xcompile(&modre, pattern, fixed ? FOLD_RE_FIXED : 0);
	fold_filter_init(&filt, &o);
	fold_intern_init(&frames);
	fold_stackids_init(&sids, &frames, 0);
	fold_tally_init(&mods);
	fold_tally_init(&fns);
	fold_reader_init(&r, argc - optind, argv + optind, o.strict);

	if (fold_reader_isdiff(&r)) {
		status = diffmodules(&r, &o, &filt, &sids, by, topfn,
		    sortkey != 0);
		goto freeall;
	}
	if (sortkey == 1)
		fold_die(2, "--sort delta needs differential input (STACK "
		    "BEFORE AFTER)");
	if (by == BY_INCLUSIVE && topfn == 0) {
		inclusive(&r, &sids, &filt);
		goto done;
	}
	if (by != BY_INCLUSIVE && topfn == 0 && !fold_filter_active(&filt)) {
		rootleaf(&r, by);
		goto done;
	}
	while (fold_read(&r, &s)) {
		ids = fold_stackids(&sids, s.stack, s.stacklen, &n);
		if (fold_filter_active(&filt) &&
		    !fold_filter_pass(&filt, &frames, ids, n))
			continue;
		seq++;
		m = NONE;
		for (k = 0; k < n; k++) {
			mm = classify(ids[by == BY_LEAF ? n - 1 - k : k]);
			if (mm == NONE)
				continue;
			m = mm;
			if (by != BY_INCLUSIVE)
				break;
			fold_grow(&stamp, &stampcap, (size_t)mm + 1, sizeof(*stamp));
			if (stamp[mm] != seq) {	/* each module once */
				stamp[mm] = seq;
				attribute(mm, ids[n - 1], s.count, topfn > 0);
			}
		}
		if (m == NONE) {
			fold_num zero = { 0, 0 };

			m = fold_tally_add(&mods, "<other>", 7, zero);
		} else if (by == BY_INCLUSIVE)
			continue;
		attribute(m, ids[n - 1], s.count, topfn > 0);
	}
done:
	status = fold_reader_end(&r);
	frac = r.frac;

	if (o.format == FOLD_FMT_JSON) {
		fo_puts("{\"samples\": ");
		fo_num(r.total, frac);
		fo_printf(", \"by\": \"%s\", \"rows\": ", bynames[by]);
	}
	if (topfn > 0)
		print_nested(&o, topfn, fold_num_dbl(r.total), frac);
	else
		fold_tally_print(&mods, &o, "module", fold_num_dbl(r.total), frac);
	if (o.format == FOLD_FMT_JSON)
		fo_puts("}\n");
freeall:
	free(key);
	free(stamp);
	fold_tally_free(&fns);
	fold_tally_free(&mods);
	fold_stackids_free(&sids);
	fold_intern_free(&frames);
	fold_filter_free(&filt);
	fold_re_free(&modre);
	free(modof);
	free(o.focus);
	free(o.ignore);
	return fo_end(status);
}
