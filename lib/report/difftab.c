/* difftab.c - ranked tables of before, after and change, for differential
 * input (STACK BEFORE AFTER) in the analysis tools. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "report/report.h"

void
fold_dtally_init(struct fold_dtally *t, int nm)
{
	memset(t, 0, sizeof(*t));
	fold_intern_init(&t->names);
	t->nm = nm;
}

uint32_t
fold_dtally_id(struct fold_dtally *t, const char *name, size_t len)
{
	uint32_t id = fold_intern(&t->names, name, len, NULL);

	fold_grow(&t->v, &t->cap, ((size_t)id + 1) * 2 * (size_t)t->nm,
	    sizeof(*t->v));
	return id;
}

uint32_t
fold_dtally_add(struct fold_dtally *t, const char *name, size_t len, int m,
    fold_num before, fold_num after)
{
	uint32_t id = fold_dtally_id(t, name, len);
	fold_num *v = fold_dtally_v(t, id);

	/* sums of parts of the reader's totals: no wrap */
	fold_num_add(&v[2 * m], before);
	fold_num_add(&v[2 * m + 1], after);
	return id;
}

void
fold_dtally_free(struct fold_dtally *t)
{
	fold_intern_free(&t->names);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* ---- ranking ---------------------------------------------------------- */

static const struct fold_dtally *R;
static const struct fold_dtally_fmt *RF;

/* a - b as a number that orders: exact sign, then magnitude. */
static int
deltacmp(const fold_num *x, const fold_num *y, int frac)
{
	/* compare x[1] - x[0] with y[1] - y[0] */
	if (frac) {
		double a = fold_num_dbl(x[1]) - fold_num_dbl(x[0]);
		double b = fold_num_dbl(y[1]) - fold_num_dbl(y[0]);

		return (a > b) - (a < b);
	}
	{
		int sa = x[1].i >= x[0].i, sb = y[1].i >= y[0].i;
		uint64_t ma = sa ? x[1].i - x[0].i : x[0].i - x[1].i;
		uint64_t mb = sb ? y[1].i - y[0].i : y[0].i - y[1].i;

		if (sa != sb)
			return sa ? 1 : -1;
		if (sa)
			return (ma > mb) - (ma < mb);
		return (mb > ma) - (mb < ma);
	}
}

static int
rowcmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const fold_num *x = R->v + (size_t)a * 2 * (size_t)R->nm +
	    2 * RF->measure;
	const fold_num *y = R->v + (size_t)b * 2 * (size_t)R->nm +
	    2 * RF->measure;
	int c = 0;

	if (RF->key == FOLD_DSORT_DELTA)
		c = deltacmp(y, x, RF->frac);
	else if (RF->key == FOLD_DSORT_AFTER)
		c = fold_num_cmp(y[1], x[1], RF->frac);
	if (c == 0)
		c = fold_strcmp(fold_intern_str(&R->names, a),
		    fold_intern_str(&R->names, b));
	return RF->reverse ? -c : c;
}

static double
pctof(double part, fold_num whole)
{
	double w = fold_num_dbl(whole);

	return w > 0 ? 100.0 * part / w : 0.0;
}

static double
dpct(const fold_num *x, fold_num whole)
{
	return pctof(fold_num_dbl(x[1]) - fold_num_dbl(x[0]), whole);
}

uint32_t *
fold_dtally_rank(const struct fold_dtally *t, const struct fold_dtally_fmt *f,
    size_t *n)
{
	size_t k;
	uint32_t *ids;

	*n = fold_intern_count(&t->names);
	ids = xmalloc((*n + 1) * sizeof(*ids));
	for (k = 0; k < *n; k++)
		ids[k] = (uint32_t)k;
	R = t;
	RF = f;
	qsort(ids, *n, sizeof(*ids), rowcmp);
	return ids;
}

double
fold_dtally_pct(const struct fold_dtally *t, uint32_t id,
    const struct fold_dtally_fmt *f)
{
	const fold_num *x = t->v + (size_t)id * 2 * (size_t)t->nm +
	    2 * f->measure;

	if (f->key == FOLD_DSORT_DELTA)
		return dpct(x, f->before);
	return pctof(fold_num_dbl(x[1]), f->after);
}

void
fold_dtally_cells(const struct fold_dtally *t, uint32_t id,
    const struct fold_dtally_fmt *f, union fold_cell *row)
{
	const fold_num *v = t->v + (size_t)id * 2 * (size_t)t->nm;
	int m;

	for (m = 0; m < t->nm; m++) {
		row[4 * m].n = v[2 * m];
		row[4 * m + 1].n = v[2 * m + 1];
		row[4 * m + 2].d.a = v[2 * m + 1];
		row[4 * m + 2].d.b = v[2 * m];
		row[4 * m + 3].pct = dpct(v + 2 * m, f->before);
	}
}

void
fold_dtally_cols(const struct fold_dtally *t, const struct fold_dtally_fmt *f,
    struct fold_col *cols)
{
	static const int types[4] = { FOLD_COL_COUNT, FOLD_COL_COUNT,
	    FOLD_COL_DELTA, FOLD_COL_DPCT };
	int c, nc = 4 * t->nm + 1;

	for (c = 0; c < nc; c++) {
		cols[c].name = f->cols[c];
		cols[c].type = c == nc - 1 ? FOLD_COL_STR : types[c % 4];
	}
}

size_t
fold_dtally_print(const struct fold_dtally *t, const struct fold_common *o,
    const struct fold_dtally_fmt *f, size_t *nrows)
{
	struct fold_col cols[9];
	struct fold_table tab;
	size_t n, k, shown = 0;
	uint32_t *ids = fold_dtally_rank(t, f, &n);
	int nc = 4 * t->nm + 1;
	double p;

	fold_dtally_cols(t, f, cols);
	fold_table_init(&tab, cols, nc, f->frac, o->format);
	for (k = 0; k < n; k++) {
		union fold_cell *row;

		p = fold_dtally_pct(t, ids[k], f);
		if ((o->limit > 0 && shown >= o->limit) ||
		    (p < 0 ? -p : p) < o->minpct)
			continue;
		shown++;
		row = fold_table_row(&tab);
		fold_dtally_cells(t, ids[k], f, row);
		row[nc - 1].str = fold_intern_str(&t->names, ids[k]);
	}
	fold_table_print(&tab, o->noheader);
	if (o->format == FOLD_FMT_TEXT && shown < n)
		fo_printf("(%zu more %s not shown)\n", n - shown, f->what);
	fold_table_free(&tab);
	free(ids);
	if (nrows != NULL)
		*nrows = n;
	return shown;
}
