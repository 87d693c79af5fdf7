/* table.c - rows of counts, percentages and names in four formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "report/report.h"

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
    int frac, int fmt)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->frac = frac;
	t->fmt = fmt;
	t->row = xcalloc((size_t)ncols, sizeof(*t->row));
	t->w = xcalloc((size_t)ncols, sizeof(*t->w));
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

/* The row filled last becomes text: numbers formatted, strings listed. */
static void
commit(struct fold_table *t)
{
	unsigned char *len;
	size_t n;
	int c;

	if (!t->pending)
		return;
	t->pending = 0;
	fold_grow(&t->lens, &t->lcap, (t->nrows + 1) * (size_t)t->ncols, 1);
	len = t->lens + t->nrows++ * (size_t)t->ncols;
	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].type == FOLD_COL_STR) {
			fold_grow(&t->strs, &t->scap, t->nstr + 1, sizeof(*t->strs));
			t->strs[t->nstr++] = t->row[c].str;
			n = t->row[c].str.len;
			len[c] = 0;
		} else {
			fold_grow(&t->text, &t->tcap, t->tlen + 48, 1);
			n = numcell(t, t->cols[c].type, &t->row[c], t->fmt,
			    t->text + t->tlen);
			if (n > 47)
				n = 47;	/* snprintf's: never more */
			t->tlen += n;
			len[c] = (unsigned char)n;
		}
		if (n > t->w[c])
			t->w[c] = n;
	}
}

union fold_cell *
fold_table_row(struct fold_table *t)
{
	commit(t);
	memset(t->row, 0, (size_t)t->ncols * sizeof(*t->row));
	t->pending = 1;
	return t->row;
}

void
fold_table_free(struct fold_table *t)
{
	free(t->row);
	free(t->text);
	free(t->lens);
	free(t->strs);
	free(t->w);
	memset(t, 0, sizeof(*t));
}

static void
pad(size_t n)
{
	static const char sp[64] = "                                "
	    "                                ";

	for (; n > sizeof(sp); n -= sizeof(sp))
		fo_write(sp, sizeof(sp));
	fo_write(sp, n);
}

static void
print_text(const struct fold_table *t, int noheader)
{
	const char *text = t->text;
	const struct fold_str *str = t->strs;
	const unsigned char *len = t->lens;
	size_t r, n, *w = xcalloc((size_t)t->ncols, sizeof(*w));
	int c, last;

	for (c = 0; c < t->ncols; c++) {
		w[c] = t->w[c];
		if (!noheader && strlen(t->cols[c].name) > w[c])
			w[c] = strlen(t->cols[c].name);
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
	for (c = 0, n = 0; c < t->ncols; c++)
		n += w[c] + 2;		/* the longest a row can be */
	for (r = 0; r < t->nrows; r++) {
		char *o = n <= 65536 ? fo_room(n) : NULL;

		if (o != NULL) {	/* the row straight into the buffer */
			for (c = 0; c < t->ncols; c++, len++) {
				const char *p;
				size_t k, m;

				if (t->cols[c].type == FOLD_COL_STR) {
					p = str->s;
					m = str->len;
					str++;
					for (k = 0; k < m; k++)
						*o++ = p[k];
					if (c < t->ncols - 1)
						for (; k < w[c]; k++)
							*o++ = ' ';
				} else {
					m = *len;
					for (k = m; k < w[c]; k++)
						*o++ = ' ';
					for (k = 0; k < m; k++)
						*o++ = text[k];
					text += m;
				}
				if (c < t->ncols - 1) {
					*o++ = ' ';
					*o++ = ' ';
				}
			}
			*o++ = '\n';
			fo_wrote(o);
			continue;
		}
		for (c = 0; c < t->ncols; c++, len++) {
			last = c == t->ncols - 1;
			if (t->cols[c].type == FOLD_COL_STR) {
				fo_write(str->s, str->len);
				if (!last)
					pad(w[c] - str->len);
				str++;
			} else {
				pad(w[c] - *len);
				fo_write(text, *len);
				text += *len;
			}
			fo_write(last ? "\n" : "  ", last ? 1 : 2);
		}
	}
	free(w);
}

static void
print_sep(const struct fold_table *t, int noheader)
{
	const char *text = t->text;
	const struct fold_str *str = t->strs;
	const unsigned char *len = t->lens;
	size_t r;
	int c;
	char sep = t->fmt == FOLD_FMT_TSV ? '\t' : ',';

	if (!noheader)
		for (c = 0; c < t->ncols; c++) {
			fo_puts(t->cols[c].name);
			fo_putc(c == t->ncols - 1 ? '\n' : sep);
		}
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++, len++) {
			if (t->cols[c].type != FOLD_COL_STR) {
				fo_write(text, *len);
				text += *len;
			} else if (t->fmt == FOLD_FMT_TSV)
				fo_tsv_field(str->s, str->len), str++;
			else
				fo_csv_field(str->s, str->len), str++;
			fo_putc(c == t->ncols - 1 ? '\n' : sep);
		}
}

static void
print_json(const struct fold_table *t)
{
	const char *text = t->text;
	const struct fold_str *str = t->strs;
	const unsigned char *len = t->lens;
	size_t r;
	int c;

	fo_putc('[');
	for (r = 0; r < t->nrows; r++) {
		fo_puts(r ? ",\n  {" : "\n  {");
		for (c = 0; c < t->ncols; c++, len++) {
			if (c)
				fo_puts(", ");
			fo_json_str(t->cols[c].name, strlen(t->cols[c].name));
			fo_puts(": ");
			if (t->cols[c].type == FOLD_COL_STR) {
				fo_json_str(str->s, str->len);
				str++;
			} else {
				fo_write(text, *len);
				text += *len;
			}
		}
		fo_putc('}');
	}
	fo_puts(t->nrows ? "\n]" : "]");
}

void
fold_table_print(struct fold_table *t, int noheader)
{
	commit(t);
	switch (t->fmt) {
	case FOLD_FMT_TEXT:
		print_text(t, noheader);
		break;
	case FOLD_FMT_TSV:
	case FOLD_FMT_CSV:
		print_sep(t, noheader);
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

size_t
fold_fmt_delta(char *buf, fold_num a, fold_num b, int frac, int sign)
{
	char *p = buf;
	uint64_t d;

	if (frac) {
		double x = fold_num_dbl(a) - fold_num_dbl(b);

		if (x < 0)
			*p++ = '-';
		else if (x > 0 && sign)
			*p++ = '+';
		return (size_t)(p - buf) + fold_fmt_double(p, x < 0 ? -x : x);
	}
	if (a.i >= b.i) {
		d = a.i - b.i;
		if (d > 0 && sign)
			*p++ = '+';
	} else {
		d = b.i - a.i;
		*p++ = '-';
	}
	return (size_t)(p - buf) + (size_t)snprintf(p, 24, "%llu",
	    (unsigned long long)d);
}
