/* foldcallers - which callers lead to a function, or what it calls. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"
#include "report/report.h"

static const char usage[] =
    "foldcallers [-F] [-c RE] [--callees] [--depth N] [--focus RE]\n"
    "               [--folded] [--format text|tsv|csv|json] [--ignore RE]\n"
    "               [--innermost] [--min-percent P] [-n N] [--no-header]\n"
    "               [-r] [--sort count|delta] [--strict] PATTERN [file ...]\n";

static const char help[] =
    "For the samples with a frame matching PATTERN (the outermost one), count\n"
    "who called it, or what it called.  On differential input (STACK BEFORE\n"
    "AFTER, as folddiff writes), before, after and the change.\n"
    "\n"
    "  -c, --caller RE         the nearest caller matching RE (else <other>)\n"
    "      --depth N           the chain of N callers (or callees)\n"
    "      --callees           the frame below instead (<self>: the leaf)\n"
    "      --innermost         use the innermost matching frame\n"
    "      --folded            write the matching stacks from the function\n"
    "                          down, as folded stacks\n"
    "  -F, --fixed-strings     patterns are fixed strings\n"
    "  -n, --limit N           print the first N rows only\n"
    "      --sort KEY          count (the default on ordinary input) or, on\n"
    "                          differential input, delta (its default): the\n"
    "                          largest increase first\n"
    "  -r, --reverse           reverse the order (delta: decreases first)\n"
    "      --min-percent P     drop rows under P% of the function's samples\n"
    "      --focus RE          keep only samples with a frame matching RE\n"
    "      --ignore RE         drop samples with a frame matching RE\n"
    "      --format FMT        text (default), tsv, csv or json\n"
    "      --no-header         no header row\n"
    "      --strict            the first invalid line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

enum { OPT_CALLEES = FOLD_OPT_TOOL, OPT_DEPTH, OPT_INNERMOST, OPT_FOLDED,
	OPT_SORT };

static const struct option longopts[] = {
	FOLD_COMMON_LONGOPTS,
	{ "caller", 1, NULL, 'c' },
	{ "callees", 0, NULL, OPT_CALLEES },
	{ "depth", 1, NULL, OPT_DEPTH },
	{ "innermost", 0, NULL, OPT_INNERMOST },
	{ "folded", 0, NULL, OPT_FOLDED },
	{ "sort", 1, NULL, OPT_SORT },
	{ "reverse", 0, NULL, 'r' },
	{ NULL, 0, NULL, 0 }
};

#define NONE ((size_t)-1)

static char *buf;
static size_t blen, bcap;

static void
bput(const char *s, size_t n)
{
	fold_grow(&buf, &bcap, blen + n + 1, 1);
	memcpy(buf + blen, s, n);
	blen += n;
}

/* What the differential path needs from main(). */
struct dopts {
	const char *pattern, *callerpat;
	uint64_t depth;
	int callees, innermost, folded, bydelta;
};

/*
 * Differential input: the same rows, each with its before and after
 * counts.  A separate pass (the loop in main() is for ordinary input): the
 * target is looked for in every sample, the row walked from it.
 */
static int
diffcallers(struct fold_reader *r, const struct fold_common *o,
    struct fold_filter *filt, struct fold_stackids *sids,
    struct fold_idmatch *target, struct fold_idmatch *caller,
    const struct dopts *d)
{
	static const char *cols[] = { "before", "after", "delta", "delta%",
	    NULL };
	struct fold_sample s;
	struct fold_dtally t;
	struct fold_dtally_fmt f;
	fold_num hits[2] = { { 0, 0 }, { 0, 0 } };
	const uint32_t *ids;
	size_t n, k, j, tpos, got, start;
	int step = d->callees ? 1 : -1, hadhit = 0, status;
	const char *col = d->callees ? "callee" : d->depth > 1 ? "chain" :
	    "caller";
	double pb, pa;

	fold_dtally_init(&t, 1);
	while (fold_read(r, &s)) {
		ids = fold_stackids(sids, s.stack, s.stacklen, &n);
		if (fold_filter_active(filt) &&
		    !fold_filter_pass(filt, sids->t, ids, n))
			continue;
		tpos = NONE;
		for (k = 0; k < n; k++)
			if (fold_idmatch(target, sids->t, ids[k])) {
				tpos = k;
				if (!d->innermost)
					break;
			}
		if (tpos == NONE)
			continue;
		hadhit = 1;
		fold_num_add(&hits[0], s.old);	/* <= the totals: no wrap */
		fold_num_add(&hits[1], s.count);
		if (d->folded) {
			start = tpos > 0 ? sids->ends[tpos - 1] + 1 : 0;
			fold_dtally_add(&t, s.stack + start, s.stacklen - start,
			    0, s.old, s.count);
			continue;
		}
		blen = 0;
		got = 0;
		for (j = tpos + (size_t)step; j < n && got < d->depth;
		    j += (size_t)step) {
			struct fold_str fr;

			if (d->callerpat != NULL && !fold_idmatch(caller, sids->t,
			    ids[j]))
				continue;
			fr = fold_intern_str(sids->t, ids[j]);
			if (d->callees) {
				if (got > 0)
					bput(";", 1);
				bput(fr.s, fr.len);
			} else {	/* callers: the chain root first */
				fold_grow(&buf, &bcap, blen + fr.len + 2, 1);
				memmove(buf + fr.len + (got > 0), buf, blen);
				memcpy(buf, fr.s, fr.len);
				if (got > 0)
					buf[fr.len] = ';';
				blen += fr.len + (got > 0);
			}
			got++;
		}
		if (got == 0) {
			const char *nm = d->callerpat != NULL ? "<other>" :
			    d->callees ? "<self>" : "<root>";

			fold_dtally_add(&t, nm, strlen(nm), 0, s.old, s.count);
		} else
			fold_dtally_add(&t, buf, blen, 0, s.old, s.count);
	}
	status = fold_reader_end(r);

	memset(&f, 0, sizeof(f));
	cols[4] = col;
	f.cols = cols;
	f.key = d->bydelta ? FOLD_DSORT_DELTA : FOLD_DSORT_AFTER;
	f.reverse = o->reverse;
	f.before = r->total_old;
	f.after = r->total;
	f.frac = r->frac;
	f.what = "rows";
	pb = fold_num_dbl(r->total_old) > 0 ? 100.0 * fold_num_dbl(hits[0]) /
	    fold_num_dbl(r->total_old) : 0;
	pa = fold_num_dbl(r->total) > 0 ? 100.0 * fold_num_dbl(hits[1]) /
	    fold_num_dbl(r->total) : 0;
	if (!hadhit) {
		fold_warn("no frame matches '%s'", d->pattern);
		status = 1;
	} else if (d->folded) {
		uint32_t *order;
		size_t nn;

		f.key = FOLD_DSORT_NAME;
		f.reverse = 0;
		order = fold_dtally_rank(&t, &f, &nn);
		for (k = 0; k < nn; k++) {
			struct fold_str st = fold_intern_str(&t.names, order[k]);
			fold_num *v = fold_dtally_v(&t, order[k]);

			fo_write(st.s, st.len);
			fo_putc(' ');
			fo_num(v[0], r->frac);
			fo_putc(' ');
			fo_num(v[1], r->frac);
			fo_putc('\n');
		}
		free(order);
	} else {
		if (o->format == FOLD_FMT_JSON) {
			fo_puts("{\"pattern\": ");
			fo_json_str(d->pattern, strlen(d->pattern));
			fo_puts(", \"before\": ");
			fo_num(r->total_old, r->frac);
			fo_puts(", \"after\": ");
			fo_num(r->total, r->frac);
			fo_puts(", \"matched_before\": ");
			fo_num(hits[0], r->frac);
			fo_puts(", \"matched_after\": ");
			fo_num(hits[1], r->frac);
			fo_printf(", \"percent_before\": %.4f, \"percent_after\": "
			    "%.4f, \"by\": \"%s\", \"rows\": ", pb, pa, col);
		} else if (o->format == FOLD_FMT_TEXT && !o->noheader) {
			fo_write(d->pattern, strlen(d->pattern));
			fo_puts(": before ");
			fo_num(hits[0], r->frac);
			fo_puts(" of ");
			fo_num(r->total_old, r->frac);
			fo_printf(" samples (%.2f%%), after ", pb);
			fo_num(hits[1], r->frac);
			fo_puts(" of ");
			fo_num(r->total, r->frac);
			fo_printf(" (%.2f%%)\n", pa);
		}
		fold_dtally_print(&t, o, &f, NULL);
		if (o->format == FOLD_FMT_JSON)
			fo_puts("}\n");
	}
	fold_dtally_free(&t);
	return status;
}

/*
 * The target frame of a stack when the pattern has bytes every match
 * contains (lit): only the frames holding them are looked up, and a stack
 * without them is passed over at once.  Returns the frame [*ts, *te) of
 * the first (or the innermost) frame that matches, as the frame ids would
 * give it, or 0 when none does.
 */
static int
find_target(const char *st, size_t len, const char *lit, size_t litlen,
    int innermost, struct fold_idmatch *target, struct fold_intern *frames,
    const char **ts, const char **te)
{
	const char *e = st + len, *p = st, *fs, *fe;
	int found = 0;

	while ((p = fold_memmem(p, (size_t)(e - p), lit, litlen)) != NULL) {
		for (fs = p; fs > st && fs[-1] != ';'; fs--)
			;
		fe = memchr(p, ';', (size_t)(e - p));
		if (fe == NULL)
			fe = e;
		if (fold_idmatch(target, frames, fold_intern(frames, fs,
		    (size_t)(fe - fs), NULL))) {
			*ts = fs;
			*te = fe;
			found = 1;
			if (!innermost)
				break;
		}
		if (fe == e)
			break;
		p = fe + 1;
	}
	return found;
}

int
main(int argc, char **argv)
{
	struct fold_common o;
	struct fold_reader r;
	struct fold_filter filt;
	struct fold_sample s;
	struct fold_intern frames;
	struct fold_stackids sids;
	struct fold_idmatch target, caller;
	struct fold_tally rows;
	fold_num hits = { 0, 0 }, none = { 0, 0 }, *byid = NULL;
	struct pos {
		size_t first, last, call;	/* positions, or NONE */
	} *pos = NULL;
	size_t poscap = 0, byidcap = 0, keep, t;
	int hadhit = 0, nonehit = 0;
	const uint32_t *ids;
	const char *pattern, *callerpat = NULL, *lit;
	uint64_t depth = 1;
	size_t n, k, j, got, start, litlen;
	int c, callees = 0, innermost = 0, folded = 0, status, step, frac;
	int sortkey = -1;	/* 0 count, 1 delta, -1 by the input */

	fold_init(argv[0]);
	fold_common_init(&o);
	while ((c = getopt_long(argc, argv, FOLD_COMMON_SHORTOPTS "c:r", longopts,
	    NULL)) != -1) {
		if (fold_opt_common(&o, c, optarg, usage, help))
			continue;
		switch (c) {
		case 'c':
			callerpat = optarg;
			break;
		case OPT_CALLEES:
			callees = 1;
			break;
		case OPT_DEPTH:
			depth = fold_opt_u64("--depth", optarg);
			if (depth == 0)
				fold_die(2, "invalid number for --depth: '0'");
			break;
		case OPT_INNERMOST:
			innermost = 1;
			break;
		case OPT_FOLDED:
			folded = 1;
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
	if (optind >= argc)
		fold_usage(usage);
	pattern = argv[optind++];
	memset(&target, 0, sizeof(target));
	memset(&caller, 0, sizeof(caller));
	fold_re_xcompile(&target.re, pattern, o.fixed ? FOLD_RE_FIXED : 0);
	if (callerpat != NULL)
		fold_re_xcompile(&caller.re, callerpat, o.fixed ? FOLD_RE_FIXED : 0);
	fold_filter_init(&filt, &o);
	fold_intern_init(&frames);
	fold_stackids_init(&sids, &frames, 0);
	fold_tally_init(&rows);
	fold_reader_init(&r, argc - optind, argv + optind, o.strict);
	step = callees ? 1 : -1;
	if (fold_reader_isdiff(&r)) {
		struct dopts d = { pattern, callerpat, depth, callees,
		    innermost, folded, sortkey != 0 };

		status = diffcallers(&r, &o, &filt, &sids, &target, &caller, &d);
		goto done;
	}
	if (sortkey == 1)
		fold_die(2, "--sort delta needs differential input (STACK "
		    "BEFORE AFTER)");

	/* The common case, one caller or callee without -c, filters or
	 * --folded: frames are looked up only where the pattern may match
	 * and for the caller found; the same counts as the loop below. */
	if (depth == 1 && callerpat == NULL && !folded &&
	    !fold_filter_active(&filt) &&
	    (litlen = fold_re_needed(&target.re, &lit)) > 0) {
		while (fold_read(&r, &s)) {
			const char *ts, *te, *fs, *fe, *e = s.stack + s.stacklen;
			uint32_t id;

			if (!find_target(s.stack, s.stacklen, lit, litlen,
			    innermost, &target, &frames, &ts, &te))
				continue;
			hadhit = 1;
			fold_num_add(&hits, s.count);	/* <= the total */
			if (callees) {	/* the frame after the target */
				fs = te + 1;
				if (te == e)
					fs = NULL;
				else if ((fe = memchr(fs, ';',
				    (size_t)(e - fs))) == NULL)
					fe = e;
			} else {	/* the frame before it */
				fe = ts - 1;
				if (ts == s.stack)
					fs = NULL;
				else
					for (fs = fe; fs > s.stack &&
					    fs[-1] != ';'; fs--)
						;
			}
			if (fs == NULL) {
				fold_num_add(&none, s.count);
				nonehit = 1;
			} else if (s.count.i > 0 || s.count.f > 0) {
				id = fold_intern(&frames, fs, (size_t)(fe - fs),
				    NULL);
				fold_grow(&byid, &byidcap, (size_t)id + 1,
				    sizeof(*byid));
				fold_num_add(&byid[id], s.count);
			} else	/* a row even with nothing in it */
				fold_tally_add(&rows, fs, (size_t)(fe - fs),
				    s.count);
		}
	}
	while (fold_read(&r, &s)) {
		keep = fold_stackids_diff(&sids, s.stack, s.stacklen);
		ids = fold_stackids_push(&sids, s.stack, s.stacklen, &n);
		/* Per position: the first and last target at or before it, and
		 * the last -c match; only the frames after keep are new. */
		fold_grow(&pos, &poscap, n, sizeof(*pos));
		for (k = keep; k < n; k++) {
			int m = fold_idmatch(&target, &frames, ids[k]);

			pos[k].first = k > 0 && pos[k - 1].first != NONE ?
			    pos[k - 1].first : m ? k : NONE;
			pos[k].last = m ? k : k > 0 ? pos[k - 1].last : NONE;
			pos[k].call = callerpat != NULL && fold_idmatch(&caller,
			    &frames, ids[k]) ? k : k > 0 ? pos[k - 1].call : NONE;
		}
		if (fold_filter_active(&filt) &&
		    !fold_filter_pass(&filt, &frames, ids, n))
			continue;
		t = innermost ? pos[n - 1].last : pos[n - 1].first;
		if (t == NONE)
			continue;
		hadhit = 1;
		fold_num_add(&hits, s.count);	/* <= the total: no wrap */
		if (folded) {
			start = t > 0 ? sids.ends[t - 1] + 1 : 0;
			fold_tally_add(&rows, s.stack + start, s.stacklen - start,
			    s.count);
			continue;
		}
		if (depth == 1 && !(callees && callerpat != NULL) &&
		    (s.count.i > 0 || s.count.f > 0)) {
			/* One frame: counted by its id, named at the end. */
			if (callees)
				j = t + 1 < n ? t + 1 : NONE;
			else if (callerpat != NULL)
				j = t > 0 ? pos[t - 1].call : NONE;
			else
				j = t > 0 ? t - 1 : NONE;
			if (j == NONE) {
				fold_num_add(&none, s.count);
				nonehit = 1;
			} else {
				fold_grow(&byid, &byidcap, (size_t)ids[j] + 1,
				    sizeof(*byid));
				fold_num_add(&byid[ids[j]], s.count);
			}
			continue;
		}
		/* Walk up (callers) or down (callees) for depth frames. */
		blen = 0;
		got = 0;
		for (j = t + (size_t)step; j < n && got < depth; j += (size_t)step) {
			struct fold_str f;

			if (callerpat != NULL && !fold_idmatch(&caller, &frames,
			    ids[j]))
				continue;
			f = fold_intern_str(&frames, ids[j]);
			if (callees) {
				if (got > 0)
					bput(";", 1);
				bput(f.s, f.len);
			} else {	/* callers: build the chain root first */
				fold_grow(&buf, &bcap, blen + f.len + 2, 1);
				memmove(buf + f.len + (got > 0), buf, blen);
				memcpy(buf, f.s, f.len);
				if (got > 0)
					buf[f.len] = ';';
				blen += f.len + (got > 0);
			}
			got++;
		}
		if (got == 0) {
			fold_num_add(&none, s.count);
			nonehit = 1;
		} else
			fold_tally_add(&rows, buf, blen, s.count);
	}
	/* The rows counted by frame id, and those with no frame. */
	for (k = 0; k < byidcap && k < fold_intern_count(&frames); k++)
		if (byid[k].i > 0 || byid[k].f > 0) {
			struct fold_str f = fold_intern_str(&frames, (uint32_t)k);

			fold_tally_add(&rows, f.s, f.len, byid[k]);
		}
	if (nonehit) {
		const char *nm = callerpat != NULL ? "<other>" : callees ?
		    "<self>" : "<root>";

		fold_tally_add(&rows, nm, strlen(nm), none);
	}
	status = fold_reader_end(&r);
	frac = r.frac;

	if (!hadhit) {
		fold_warn("no frame matches '%s'", pattern);
		status = 1;
	} else if (folded) {
		uint32_t *order = fold_tally_byname(&rows, &n);

		for (k = 0; k < n; k++) {
			struct fold_str st = fold_intern_str(&rows.names, order[k]);

			fo_write(st.s, st.len);
			fo_putc(' ');
			fo_num(rows.counts[order[k]], frac);
			fo_putc('\n');
		}
		free(order);
	} else {
		const char *col = callees ? "callee" : depth > 1 ? "chain" :
		    "caller";
		double pct = fold_num_dbl(r.total) > 0 ? 100.0 *
		    fold_num_dbl(hits) / fold_num_dbl(r.total) : 0;

		if (o.format == FOLD_FMT_JSON) {
			fo_puts("{\"pattern\": ");
			fo_json_str(pattern, strlen(pattern));
			fo_puts(", \"samples\": ");
			fo_num(r.total, frac);
			fo_puts(", \"matched\": ");
			fo_num(hits, frac);
			fo_printf(", \"percent\": %.4f, \"by\": \"%s\", \"rows\": ",
			    pct, col);
		} else if (o.format == FOLD_FMT_TEXT && !o.noheader) {
			fo_write(pattern, strlen(pattern));
			fo_puts(": ");
			fo_num(hits, frac);
			fo_puts(" of ");
			fo_num(r.total, frac);
			fo_printf(" samples (%.2f%%)\n", pct);
		}
		fold_tally_print(&rows, &o, col, fold_num_dbl(hits), frac);
		if (o.format == FOLD_FMT_JSON)
			fo_puts("}\n");
	}
done:
	free(buf);
	free(pos);
	free(byid);
	fold_tally_free(&rows);
	fold_idmatch_free(&target);
	fold_idmatch_free(&caller);
	fold_stackids_free(&sids);
	fold_intern_free(&frames);
	fold_filter_free(&filt);
	free(o.focus);
	free(o.ignore);
	return fo_end(status);
}
