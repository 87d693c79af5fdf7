/* foldstats - what a profile is, and whether it can be trusted. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"
#include "report/report.h"

static const char usage[] =
    "foldstats [-F] [--focus RE] [--format text|tsv|csv|json] [--ignore RE]\n"
    "               [--min-percent P] [-n N] [--no-header] [--strict]\n"
    "               [file ...]\n";

static const char help[] =
    "Describe a profile: samples, distinct stacks, frames and leaves, stack\n"
    "depth, unresolved and annotated frames, roots, concentration, and hints\n"
    "of truncated stacks.\n"
    "\n"
    "  -n, --limit N           list N roots (default 10; 0: all)\n"
    "      --min-percent P     list roots of P% of the samples or more\n"
    "      --focus RE          keep only samples with a frame matching RE\n"
    "      --ignore RE         drop samples with a frame matching RE\n"
    "  -F, --fixed-strings     patterns are fixed strings\n"
    "      --format FMT        text (default), tsv, csv or json\n"
    "      --no-header         no header row (tsv, csv)\n"
    "      --strict            the first invalid line is an error\n"
    "  -h, --help              this help\n"
    "      --version           print the version\n";

static const struct option longopts[] = {
	FOLD_COMMON_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

/* Frame kinds, counted per frame and per sample. */
enum { K_UNKNOWN, K_UNRESOLVED, K_KERNEL, K_JIT, K_INLINE, NKINDS };
static const char *kindname[NKINDS] = {
	"unknown", "unresolved", "kernel", "jit", "inline"
};
#define KNOWN 0x80

static struct fold_intern frames;

/*
 * Distinct stacks are counted by their 64-bit hash, kept in an open
 * addressing set: 16 bytes per stack instead of the stack itself.  Two
 * different stacks with the same hash would count once; for a million
 * stacks the odds are about 1 in 30 million.
 */
static uint64_t *hset;
static size_t hmask, hcount;

/* The hash of a stack is chained over its frame ids, position by
 * position, so that the frames shared with the line before cost nothing. */
static uint64_t *chain;
static size_t chaincap;

static uint64_t
chainmix(uint64_t h, uint32_t id)
{
	h = (h ^ id) * 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

/* Start fetching the slot of h. */
static inline void
prefetch(uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(&hset[(h | (h == 0)) & hmask]);
#else
	(void)h;
#endif
}

/* Add h to the set; 1 if it was not there. */
static int
hset_add(uint64_t h)
{
	size_t j, k;
	uint64_t *old;

	h |= h == 0;	/* 0 marks an empty slot */
	for (j = h & hmask; hset[j] != 0; j = (j + 1) & hmask)
		if (hset[j] == h)
			return 0;
	hset[j] = h;
	if (++hcount * 2 > hmask) {
		old = hset;
		hset = xcalloc((hmask + 1) * 2, sizeof(*hset));
		hmask = hmask * 2 + 1;
		for (k = 0; k <= hmask / 2; k++) {
			if (old[k] == 0)
				continue;
			for (j = old[k] & hmask; hset[j] != 0; j = (j + 1) & hmask)
				;
			hset[j] = old[k];
		}
		free(old);
	}
	return 1;
}
static unsigned char *kinds;	/* per frame id: KNOWN | 1 << kind */
static size_t kcap;
static fold_num *leafc, *rootc;	/* per frame id */
static size_t lcap, rcap;
static unsigned char *seen;	/* per frame id: in a kept sample */
static size_t scap;
static size_t inkind[NKINDS];	/* frames of each kind in the stack */
static size_t anykind;		/* the sum of inkind */

/* The kinds of frame id (kinds[] must hold id: see main). */
static unsigned
kindof(uint32_t id)
{
	struct fold_str f;
	unsigned k = KNOWN;

	if (kinds[id] & KNOWN)
		return kinds[id];
	f = fold_intern_str(&frames, id);
	if (f.len == 9 && memcmp(f.s, "[unknown]", 9) == 0)
		k |= 1 << K_UNKNOWN;
	if (f.len >= 2 && f.s[0] == '[' && f.s[f.len - 1] == ']')
		k |= 1 << K_UNRESOLVED;
	if (f.len >= 4 && memcmp(f.s + f.len - 4, "_[k]", 4) == 0)
		k |= 1 << K_KERNEL;
	if (f.len >= 4 && memcmp(f.s + f.len - 4, "_[j]", 4) == 0)
		k |= 1 << K_JIT;
	if (f.len >= 4 && memcmp(f.s + f.len - 4, "_[i]", 4) == 0)
		k |= 1 << K_INLINE;
	return kinds[id] = (unsigned char)k;
}

/* A frame of the stack comes (d = 1) or goes (-1): the count of frames of
 * each kind in the stack.  Most frames are of no kind: one load. */
static inline void
stackkinds(uint32_t id, int d)
{
	unsigned k = kinds[id], i;

	if (k == KNOWN)
		return;
	k = kindof(id);
	for (i = 0; i < NKINDS; i++)
		if (k & (1u << i)) {
			inkind[i] += (size_t)d;
			anykind += (size_t)d;
		}
}

static int fmt, noheader;

/* Frame ids with a count in cnt, ranked. */
static uint32_t *
ranked(fold_num *cnt, size_t cap, int frac, size_t *n)
{
	size_t k, m = 0, all = fold_intern_count(&frames);
	uint32_t *ids = xmalloc((all + 1) * sizeof(*ids));
	uint64_t *key;

	for (k = 0; k < all && k < cap; k++)
		if (cnt[k].i > 0 || cnt[k].f > 0)
			ids[m++] = (uint32_t)k;
	key = xmalloc((all + 1) * sizeof(*key));
	for (k = 0; k < m; k++)
		key[ids[k]] = fold_num_key(cnt[ids[k]], frac);
	fold_sort_names(ids, m, &frames);
	fold_sort_desc(ids, m, key);	/* by count, then name */
	free(key);
	*n = m;
	return ids;
}

/*
 * Differential input (STACK BEFORE AFTER): both totals of the kept samples
 * and the change; the other figures are of the AFTER counts.
 */
static void
diffstats(fold_num before, fold_num after, int frac)
{
	char b[64];
	double pb = fold_num_dbl(before), d;

	fold_kv_open("diff");
	fold_kv_num(fold_kv_key("diff", "before"), before, frac);
	fold_kv_num(fold_kv_key("diff", "after"), after, frac);
	fold_fmt_delta(b, after, before, frac, fmt == FOLD_FMT_TEXT);
	fold_kv(fold_kv_key("diff", "delta"), b);
	d = pb > 0 ? 100.0 * (fold_num_dbl(after) - pb) / pb : 0;
	snprintf(b, sizeof(b), fmt == FOLD_FMT_TEXT && d != 0 ? "%+.2f" :
	    "%.2f", d == 0 ? 0.0 : d);
	fold_kv(fold_kv_key("diff", "delta_percent"), b);
	fold_kv_close();
}

static double
share(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

int
main(int argc, char **argv)
{
	struct fold_common o;
	struct fold_reader r;
	struct fold_filter filt;
	struct fold_sample s;
	struct fold_stackids sids;
	fold_num *hist = NULL, kept = { 0, 0 }, atmax = { 0, 0 };
	fold_num kept_old = { 0, 0 };
	double kfr[NKINDS] = { 0 }, ksa[NKINDS] = { 0 }, wframes = 0, d;
	size_t hcap = 0, n, k, keep, maxd = 0, mind = (size_t)-1, nmax = 0;
	size_t nleaves, nroots, nframes = 0, shown, i;
	uint64_t nkept = 0;
	uint32_t *lr, *rr;
	const uint32_t *ids;
	int c, status, frac, prevkept = 0, truncated;
	uint64_t pend_h = 0;
	size_t pend_n = 0;

	fold_init(argv[0]);
	fold_common_init(&o);
	o.limit = 10;
	while ((c = getopt_long(argc, argv, FOLD_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		if (fold_opt_common(&o, c, optarg, usage, help))
			continue;
		fold_usage(usage);
	}
	fmt = o.format;
	noheader = o.noheader;
	fold_filter_init(&filt, &o);
	fold_intern_init(&frames);
	hmask = 1023;
	hset = xcalloc(hmask + 1, sizeof(*hset));
	fold_stackids_init(&sids, &frames, 0);
	fold_reader_init(&r, argc - optind, argv + optind, o.strict);

	while (fold_read(&r, &s)) {
		keep = fold_stackids_diff(&sids, s.stack, s.stacklen);
		for (k = keep; k < sids.n; k++)
			stackkinds(sids.ids[k], -1);
		ids = fold_stackids_push(&sids, s.stack, s.stacklen, &n);
		fold_grow(&leafc, &lcap, fold_intern_count(&frames), sizeof(*leafc));
		fold_grow(&rootc, &rcap, fold_intern_count(&frames), sizeof(*rootc));
		fold_grow(&seen, &scap, fold_intern_count(&frames), 1);
		fold_grow(&kinds, &kcap, fold_intern_count(&frames), 1);
		fold_prefetch(&leafc[ids[n - 1]]);	/* used below */
		for (k = keep; k < n; k++)
			stackkinds(ids[k], 1);
		prevkept >>= 1;
		if (fold_filter_active(&filt) &&
		    !fold_filter_pass(&filt, &frames, ids, n))
			continue;
		d = fold_num_dbl(s.count);
		fold_num_add(&kept, s.count);	/* <= the total: no wrap */
		fold_num_add(&kept_old, s.old);	/* differential input */
		nkept++;
		fold_grow(&hist, &hcap, n + 1, sizeof(*hist));
		fold_num_add(&hist[n], s.count);
		fold_num_add(&leafc[ids[n - 1]], s.count);
		fold_num_add(&rootc[ids[0]], s.count);
		/* Frames before keep were marked with the line before, if
		 * that one was kept. */
		for (k = prevkept ? keep : 0; k < n; k++)
			seen[ids[k]] = 1;
		prevkept = 2;
		wframes += d * (double)n;
		for (i = 0; anykind > 0 && i < NKINDS; i++) {
			kfr[i] += d * (double)inkind[i];
			if (inkind[i] > 0)
				ksa[i] += d;
		}
		fold_grow(&chain, &chaincap, n, sizeof(*chain));
		for (k = keep; k < n; k++)
			chain[k] = chainmix(k ? chain[k - 1] : 0x5bd1e995, ids[k]);
		/*
		 * The set lookup of a stack waits for the next line, so that
		 * its slot can be fetched from memory meanwhile; its depth is
		 * kept to count it at the greatest depth then.
		 */
		if (pend_n > 0 && hset_add(pend_h) && pend_n == maxd)
			nmax++;
		pend_n = 0;
		if (!sids.same) {
			pend_h = chainmix(chain[n - 1], (uint32_t)n);
			pend_n = n;
			prefetch(pend_h);
		}
		if (n > maxd) {
			maxd = n;
			nmax = 0;
			atmax.i = 0;
			atmax.f = 0;
		}
		if (n == maxd)
			fold_num_add(&atmax, s.count);
		if (n < mind)
			mind = n;
	}
	if (pend_n > 0 && hset_add(pend_h) && pend_n == maxd)
		nmax++;
	status = fold_reader_end(&r);
	frac = r.frac;
	for (k = 0; k < scap && k < fold_intern_count(&frames); k++)
		nframes += seen[k];
	lr = ranked(leafc, lcap, frac, &nleaves);
	rr = ranked(rootc, rcap, frac, &nroots);
	if (nkept == 0)
		mind = 0;

	fold_kv_begin(fmt, noheader);
	fold_kv_num("samples", kept, frac);
	fold_kv_u64("lines", r.lines);
	fold_kv_u64("stacks", hcount);
	fold_kv_u64("frames", nframes);
	fold_kv_u64("leaves", nleaves);
	fold_kv_u64("invalid", r.invalid);
	if (r.diff)
		diffstats(kept_old, kept, frac);
	{
		double tot = fold_num_dbl(kept), cum = 0, sum = 0;
		double q[3] = { 0.5, 0.9, 0.99 };
		size_t qd[3] = { 0, 0, 0 }, qi = 0;

		for (k = 0; k < hcap; k++) {
			double h = fold_num_dbl(hist[k]);

			sum += h * (double)k;
			cum += h;
			while (qi < 3 && h > 0 && cum >= q[qi] * tot)
				qd[qi++] = k;
		}
		fold_kv_open("depth");
		fold_kv_u64(fold_kv_key("depth", "min"), mind);
		fold_kv_dbl(fold_kv_key("depth", "mean"), tot > 0 ? sum / tot : 0, 2);
		fold_kv_u64(fold_kv_key("depth", "median"), qd[0]);
		fold_kv_u64(fold_kv_key("depth", "p90"), qd[1]);
		fold_kv_u64(fold_kv_key("depth", "p99"), qd[2]);
		fold_kv_u64(fold_kv_key("depth", "max"), maxd);
		fold_kv_close();
		if (fmt == FOLD_FMT_TEXT && tot > 0) {
			/* A histogram in at most 12 buckets of equal width. */
			size_t w = (maxd - mind) / 12 + 1, b, lo;
			double best = 0, bk[13] = { 0 };

			for (k = mind; k <= maxd && k < hcap; k++)
				bk[(k - mind) / w] += fold_num_dbl(hist[k]);
			for (b = 0; b < 13; b++)
				if (bk[b] > best)
					best = bk[b];
			for (b = 0, lo = mind; lo <= maxd; b++, lo += w) {
				size_t bar = (size_t)(40 * bk[b] / best + 0.5);
				char range[48];

				if (w == 1)
					snprintf(range, sizeof(range), "%zu", lo);
				else
					snprintf(range, sizeof(range), "%zu-%zu",
					    lo, lo + w - 1 < maxd ? lo + w - 1 : maxd);
				fo_printf("  %-9s %6.2f%%  ", range,
				    share(bk[b], tot));
				while (bar-- > 0)
					fo_putc('#');
				fo_putc('\n');
			}
		}
	}
	for (i = 0; i < NKINDS; i++) {
		fold_kv_open(kindname[i]);
		fold_kv_dbl(fold_kv_key(kindname[i], "frames"), share(kfr[i], wframes), 2);
		fold_kv_dbl(fold_kv_key(kindname[i], "samples"), share(ksa[i],
		    fold_num_dbl(kept)), 2);
		fold_kv_close();
	}
	{
		double tot = fold_num_dbl(kept), cum = 0, top1 = 0, top10 = 0;
		size_t need[3] = { 0, 0, 0 };
		double q[3] = { 50, 80, 90 };
		int qi = 0;

		for (k = 0; k < nleaves; k++) {
			cum += fold_num_dbl(leafc[lr[k]]);
			if (k == 0)
				top1 = cum;
			if (k < 10)
				top10 = cum;
			while (qi < 3 && share(cum, tot) >= q[qi] - 1e-9)
				need[qi++] = k + 1;
		}
		fold_kv_open("concentration");
		fold_kv_dbl(fold_kv_key("concentration", "top1"), share(top1, tot), 2);
		fold_kv_dbl(fold_kv_key("concentration", "top10"), share(top10, tot), 2);
		fold_kv_u64(fold_kv_key("concentration", "leaves50"), need[0]);
		fold_kv_u64(fold_kv_key("concentration", "leaves80"), need[1]);
		fold_kv_u64(fold_kv_key("concentration", "leaves90"), need[2]);
		fold_kv_close();
	}
	fold_kv_open("max_depth");
	fold_kv_u64(fold_kv_key("max_depth", "stacks"), nmax);
	fold_kv_dbl(fold_kv_key("max_depth", "percent"), share(fold_num_dbl(atmax),
	    fold_num_dbl(kept)), 2);
	truncated = nmax >= 3 && maxd >= 32;
	fold_kv_u64(fold_kv_key("max_depth", "truncated"), (uint64_t)truncated);
	fold_kv_close();

	/* Roots: the first frames, usually processes or threads. */
	if (fmt == FOLD_FMT_JSON)
		fo_puts(", \"roots\": [");
	for (k = shown = 0; k < nroots; k++) {
		struct fold_str nm = fold_intern_str(&frames, rr[k]);
		double p = share(fold_num_dbl(rootc[rr[k]]), fold_num_dbl(kept));

		if ((o.limit > 0 && shown >= o.limit) || p < o.minpct)
			continue;
		if (fmt == FOLD_FMT_JSON) {
			fo_puts(shown ? ", {\"name\": " : "{\"name\": ");
			fo_json_str(nm.s, nm.len);
			fo_puts(", \"samples\": ");
			fo_num(rootc[rr[k]], frac);
			fo_printf(", \"percent\": %.2f}", p);
		} else if (fmt == FOLD_FMT_TEXT) {
			fo_printf("%-24s %6.2f%%  ", shown ? "" : "roots", p);
			fo_write(nm.s, nm.len);
			fo_putc('\n');
		} else {
			fo_printf("%.2f%c", p, fmt == FOLD_FMT_TSV ? '\t' : ',');
			fo_puts("roots.");
			if (fmt == FOLD_FMT_TSV)
				fo_tsv_field(nm.s, nm.len);
			else
				fo_csv_field(nm.s, nm.len);
			fo_putc('\n');
		}
		shown++;
	}
	if (fmt == FOLD_FMT_JSON)
		fo_puts("]");
	if (fmt == FOLD_FMT_TEXT && shown < nroots)
		fo_printf("%-24s (%zu more roots)\n", "", nroots - shown);
	if (fmt == FOLD_FMT_JSON)
		fo_puts("}\n");
	/* The hint: many distinct stacks end at the same greatest depth. */
	if (truncated && fmt == FOLD_FMT_TEXT)
		fo_printf("hint: %zu stacks (%.2f%% of the samples) end at the "
		    "maximum depth, %zu: the profiler may have cut them (perf "
		    "keeps 127 frames unless told otherwise)\n", nmax,
		    share(fold_num_dbl(atmax), fold_num_dbl(kept)), maxd);
	free(lr);
	free(rr);
	free(hist);
	free(kinds);
	free(leafc);
	free(rootc);
	free(seen);
	fold_stackids_free(&sids);
	free(hset);
	free(chain);
	fold_intern_free(&frames);
	fold_filter_free(&filt);
	free(o.focus);
	free(o.ignore);
	return fo_end(status);
}
