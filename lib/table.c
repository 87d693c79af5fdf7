/* table.c - rows of counts, percentages and names in four formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"

int
fold_fmt_parse(const char *s)
{
	static const char *names[] = { "text", "tsv", "csv", "json" };
	int k;

	for (k = 0; k < 4; k++)
		if (strcmp(s, names[k]) == 0)
			return k;
	return -1;
}

void
fold_table_init(struct fold_table *t, const struct fold_col *cols, int ncols,
    int frac)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->frac = frac;
}

union fold_cell *
fold_table_row(struct fold_table *t)
{
	size_t need = (t->nrows + 1) * (size_t)t->ncols;

	fold_grow(&t->cells, &t->cap, need, sizeof(*t->cells));
	return t->cells + t->nrows++ * (size_t)t->ncols;
}

void
fold_table_free(struct fold_table *t)
{
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* A number cell as text into buf (>= 48 bytes); its length. */
static size_t
numcell(const struct fold_table *t, int type, const union fold_cell *c,
    int fmt, char *buf)
{
	switch (type) {
	case FOLD_COL_COUNT:
		if (t->frac)
			return fold_fmt_double(buf, fold_num_dbl(c->n));
		return fold_fmt_u64(buf, c->n.i);
	case FOLD_COL_INT:
		return fold_fmt_u64(buf, c->u);
	case FOLD_COL_PCT:
		if (fmt == FOLD_FMT_TEXT) {
			size_t n = fold_fmt_fixed(buf, 47, c->pct, 2);

			if (n < 47) {
				buf[n] = '%';
				return n + 1;
			}
			return (size_t)snprintf(buf, 48, "%.2f%%", c->pct);
		}
		return fold_fmt_fixed(buf, 48, c->pct, 4);
	case FOLD_COL_DELTA:
		return fold_fmt_delta(buf, c->d.a, c->d.b, t->frac,
		    fmt == FOLD_FMT_TEXT);
	case FOLD_COL_DPCT:
		if (fmt == FOLD_FMT_TEXT)
			return (size_t)snprintf(buf, 48, c->pct == 0 ? "%.2f%%" :
			    "%+.2f%%", c->pct);
		return (size_t)snprintf(buf, 48, "%.4f", c->pct == 0 ? 0.0 :
		    c->pct);
	}
	return 0;
}

static void
pad(size_t n)
{
	while (n-- > 0)
		fo_putc(' ');
}

static void
print_text(const struct fold_table *t, int noheader)
{
	size_t *w = xcalloc((size_t)t->ncols, sizeof(*w));
	char buf[48];
	size_t r, n;
	int c, last;

	for (c = 0; c < t->ncols; c++)
		w[c] = noheader ? 0 : strlen(t->cols[c].name);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			const union fold_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];

			n = t->cols[c].type == FOLD_COL_STR ? cell->str.len :
			    numcell(t, t->cols[c].type, cell, FOLD_FMT_TEXT, buf);
			if (n > w[c])
				w[c] = n;
		}
	if (!noheader) {
		for (c = 0; c < t->ncols; c++) {
			last = c == t->ncols - 1;
			n = strlen(t->cols[c].name);
			if (t->cols[c].type != FOLD_COL_STR)
				pad(w[c] - n);
			fo_puts(t->cols[c].name);
			if (!last && t->cols[c].type == FOLD_COL_STR)
				pad(w[c] - n);
			fo_puts(last ? "\n" : "  ");
		}
	}
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			const union fold_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];

			last = c == t->ncols - 1;
			if (t->cols[c].type == FOLD_COL_STR) {
				fo_write(cell->str.s, cell->str.len);
				if (!last)
					pad(w[c] - cell->str.len);
			} else {
				n = numcell(t, t->cols[c].type, cell,
				    FOLD_FMT_TEXT, buf);
				pad(w[c] - n);
				fo_write(buf, n);
			}
			fo_puts(last ? "\n" : "  ");
		}
	free(w);
}

static void
print_sep(const struct fold_table *t, int fmt, int noheader)
{
	char buf[48];
	size_t r;
	int c;
	char sep = fmt == FOLD_FMT_TSV ? '\t' : ',';

	if (!noheader)
		for (c = 0; c < t->ncols; c++) {
			fo_puts(t->cols[c].name);
			fo_putc(c == t->ncols - 1 ? '\n' : sep);
		}
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			const union fold_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];

			if (t->cols[c].type != FOLD_COL_STR)
				fo_write(buf, numcell(t, t->cols[c].type, cell,
				    fmt, buf));
			else if (fmt == FOLD_FMT_TSV)
				fo_tsv_field(cell->str.s, cell->str.len);
			else
				fo_csv_field(cell->str.s, cell->str.len);
			fo_putc(c == t->ncols - 1 ? '\n' : sep);
		}
}

static void
print_json(const struct fold_table *t)
{
	char buf[48];
	size_t r;
	int c;

	fo_putc('[');
	for (r = 0; r < t->nrows; r++) {
		fo_puts(r ? ",\n  {" : "\n  {");
		for (c = 0; c < t->ncols; c++) {
			const union fold_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];

			if (c)
				fo_puts(", ");
			fo_json_str(t->cols[c].name, strlen(t->cols[c].name));
			fo_puts(": ");
			if (t->cols[c].type == FOLD_COL_STR)
				fo_json_str(cell->str.s, cell->str.len);
			else
				fo_write(buf, numcell(t, t->cols[c].type, cell,
				    FOLD_FMT_JSON, buf));
		}
		fo_putc('}');
	}
	fo_puts(t->nrows ? "\n]" : "]");
}

void
fold_table_print(const struct fold_table *t, int fmt, int noheader)
{
	switch (fmt) {
	case FOLD_FMT_TEXT:
		print_text(t, noheader);
		break;
	case FOLD_FMT_TSV:
	case FOLD_FMT_CSV:
		print_sep(t, fmt, noheader);
		break;
	case FOLD_FMT_JSON:
		print_json(t);
		break;
	}
}

/* ---- key/value records ------------------------------------------------- */

static int kvfmt, kvfirst = 1;
static char kvkey[256];

void
fold_kv_begin(int fmt, int noheader)
{
	kvfmt = fmt;
	kvfirst = 1;
	if (fmt == FOLD_FMT_JSON)
		fo_putc('{');
	else if (fmt != FOLD_FMT_TEXT && !noheader)
		fo_puts(fmt == FOLD_FMT_TSV ? "value\tkey\n" : "value,key\n");
}

void
fold_kv(const char *key, const char *val)
{
	if (kvfmt == FOLD_FMT_JSON) {
		fo_puts(kvfirst ? "" : ", ");
		fo_json_str(key, strlen(key));
		fo_puts(": ");
		fo_puts(val);
	} else if (kvfmt == FOLD_FMT_TEXT) {
		fo_printf("%-24s %s\n", key, val);
	} else {
		fo_puts(val);
		fo_putc(kvfmt == FOLD_FMT_TSV ? '\t' : ',');
		fo_puts(key);
		fo_putc('\n');
	}
	kvfirst = 0;
}

void
fold_kv_u64(const char *key, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	fold_kv(key, b);
}

void
fold_kv_dbl(const char *key, double v, int decimals)
{
	char b[64];

	snprintf(b, sizeof(b), "%.*f", decimals, v);
	fold_kv(key, b);
}

void
fold_kv_num(const char *key, fold_num n, int frac)
{
	char b[48];

	if (frac)
		fold_fmt_double(b, fold_num_dbl(n));
	else
		snprintf(b, sizeof(b), "%llu", (unsigned long long)n.i);
	fold_kv(key, b);
}

void
fold_kv_open(const char *key)
{
	if (kvfmt != FOLD_FMT_JSON)
		return;
	fo_puts(kvfirst ? "" : ", ");
	fo_json_str(key, strlen(key));
	fo_puts(": {");
	kvfirst = 1;
}

void
fold_kv_close(void)
{
	if (kvfmt != FOLD_FMT_JSON)
		return;
	fo_putc('}');
	kvfirst = 0;
}

const char *
fold_kv_key(const char *a, const char *b)
{
	if (kvfmt == FOLD_FMT_JSON)
		return b;
	snprintf(kvkey, sizeof(kvkey), "%s.%s", a, b);
	return kvkey;
}
