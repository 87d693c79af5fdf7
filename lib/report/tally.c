/* tally.c - counts by name, ranked and printed as a table. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "report/report.h"

void
fold_tally_init(struct fold_tally *t)
{
	memset(t, 0, sizeof(*t));
	fold_intern_init(&t->names);
}

uint32_t
fold_tally_add(struct fold_tally *t, const char *name, size_t len, fold_num c)
{
	uint32_t id = fold_intern(&t->names, name, len, NULL);

	fold_grow(&t->counts, &t->cap, (size_t)id + 1, sizeof(*t->counts));
	fold_num_add(&t->counts[id], c);	/* callers bound the sums */
	return id;
}

uint32_t *
fold_tally_rank(const struct fold_tally *t, int frac, size_t *n)
{
	size_t k, cnt = fold_intern_count(&t->names);
	uint32_t *ids = fold_tally_byname(t, n);
	uint64_t *key = xmalloc((cnt + 1) * sizeof(*key));

	for (k = 0; k < cnt; k++)
		key[k] = fold_num_key(t->counts[k], frac);
	fold_sort_desc(ids, cnt, key);
	free(key);
	return ids;
}

uint32_t *
fold_tally_byname(const struct fold_tally *t, size_t *n)
{
	size_t k, cnt = fold_intern_count(&t->names);
	uint32_t *ids = xmalloc((cnt + 1) * sizeof(*ids));

	for (k = 0; k < cnt; k++)
		ids[k] = (uint32_t)k;
	fold_sort_names(ids, cnt, &t->names);
	*n = cnt;
	return ids;
}

size_t
fold_tally_print(const struct fold_tally *t, const struct fold_common *o,
    const char *namecol, double denom, int frac)
{
	struct fold_col cols[3] = {
		{ "count", FOLD_COL_COUNT }, { "percent", FOLD_COL_PCT },
		{ NULL, FOLD_COL_STR }
	};
	struct fold_table tab;
	fold_num dropped = { 0, 0 };
	size_t n, k, shown = 0;
	uint32_t *ids = fold_tally_rank(t, frac, &n);
	double p;

	if (o->reverse)
		fold_reverse_ids(ids, n);

	cols[2].name = namecol;
	fold_table_init(&tab, cols, 3, frac, o->format);
	for (k = 0; k < n; k++) {
		union fold_cell *row;

		p = denom > 0 ? 100.0 * fold_num_dbl(t->counts[ids[k]]) / denom : 0;
		if ((o->limit > 0 && shown >= o->limit) || p < o->minpct) {
			fold_num_add(&dropped, t->counts[ids[k]]);
			continue;
		}
		shown++;
		row = fold_table_row(&tab);
		row[0].n = t->counts[ids[k]];
		row[1].pct = p;
		row[2].str = fold_intern_str(&t->names, ids[k]);
	}
	fold_table_print(&tab, o->noheader);
	if (o->format == FOLD_FMT_TEXT && shown < n)
		fo_printf("(%zu more not shown, %.2f%%)\n", n - shown,
		    denom > 0 ? 100.0 * fold_num_dbl(dropped) / denom : 0.0);
	fold_table_free(&tab);
	free(ids);
	return shown;
}

void
fold_tally_free(struct fold_tally *t)
{
	fold_intern_free(&t->names);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}
