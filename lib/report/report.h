/*
 * report.h - what the analysis tools (foldtop, foldcallers, foldmodules,
 * foldstats) share (lib/report/): tables in four formats and key/value
 * records (table.c), the common options (opt.c), --focus and --ignore
 * (filter.c), counts by name ranked (tally.c) and before/after rankings
 * (difftab.c).  Uses base.
 *
 *  - Lifetimes: a table's string cells are not copied and must outlive
 *    the table; the cells of fold_table_row() are valid until the next
 *    fold_table_*() call; rank arrays are malloc'd and the caller's.
 *  - Fatal: a bad option value is a usage error (exit 2); --help and
 *    --version exit 0.  A ranking never prints itself: the printers call
 *    the rankings, not the other way round.
 */
#ifndef FOLD_REPORT_H
#define FOLD_REPORT_H

#include "fold.h"

/* ---- table.c: tables in four formats ----------------------------------- */

enum { FOLD_FMT_TEXT, FOLD_FMT_TSV, FOLD_FMT_CSV, FOLD_FMT_JSON };
/* "text" "tsv" "csv" "json" to FOLD_FMT_*, or -1. */
int fold_fmt_parse(const char *s);

enum { FOLD_COL_COUNT, FOLD_COL_PCT, FOLD_COL_STR, FOLD_COL_INT,
	FOLD_COL_DELTA,		/* d.a - d.b, signed ("+N" in text) */
	FOLD_COL_DPCT		/* a signed percentage ("+1.25%" in text) */
};
struct fold_col {
	const char *name;
	int type;
};
union fold_cell {
	fold_num n;		/* COUNT */
	double pct;		/* PCT, 0..100 */
	uint64_t u;		/* INT */
	struct fold_str str;	/* STR: not copied, must outlive the table */
	struct {
		fold_num a, b;
	} d;			/* DELTA */
};
/*
 * A table is filled row by row and printed at once (text needs the column
 * widths).  Text: columns aligned, two spaces apart, numbers right-aligned,
 * the last column unpadded; percentages as "12.34%".  TSV/CSV: raw numbers
 * (percentages with 4 decimals), one header row unless noheader.  JSON: an
 * array of objects keyed by column name; the caller writes what surrounds
 * it.  frac: counts have decimals.
 *
 * fold_table_row() hands out the cells of a new row, valid until the next
 * fold_table_*() call: a row's numbers are formatted (once, for fmt) when
 * the next row is asked for or the table printed, and only their text is
 * kept (a few bytes per cell).  String cells are not copied.
 */
struct fold_table {
	const struct fold_col *cols;
	int ncols, frac, fmt;
	union fold_cell *row;	/* the row being filled */
	int pending;		/* row holds a row not formatted yet */
	size_t nrows;		/* rows formatted */
	char *text;		/* the number cells' text, row after row */
	size_t tlen, tcap;
	unsigned char *lens;	/* each cell's text length (ncols a row) */
	size_t lcap;
	struct fold_str *strs;	/* the string cells, row after row */
	size_t nstr, scap;
	size_t *w;		/* widest cell of each column */
};
void fold_table_init(struct fold_table *t, const struct fold_col *cols,
    int ncols, int frac, int fmt);
union fold_cell *fold_table_row(struct fold_table *t);	/* ncols cells */
void fold_table_print(struct fold_table *t, int noheader);
void fold_table_free(struct fold_table *t);
/* Write a - b (signed) as text: "+N", "-N" or "0" with sign, else "N"/"-N". */
size_t fold_fmt_delta(char *buf, fold_num a, fold_num b, int frac, int sign);

/* ---- opt.c: the options the analysis tools share ----------------------- */

/*
 * --format F, --no-header, -n/--limit N, --min-percent P, --focus RE,
 * --ignore RE (both repeatable), -F/--fixed-strings, --strict, --help,
 * --version.  Tools list FOLD_COMMON_LONGOPTS in their getopt_long table
 * and pass every option to fold_opt_common() first.
 */
enum {
	FOLD_OPT_FORMAT = FOLD_OPT_FIRST, FOLD_OPT_NOHEADER, FOLD_OPT_MINPCT,
	FOLD_OPT_FOCUS, FOLD_OPT_IGNORE, FOLD_OPT_STRICT, FOLD_OPT_HELP,
	FOLD_OPT_VERSION, FOLD_OPT_TOOL	/* first value free for the tool */
};
#define FOLD_COMMON_SHORTOPTS "n:Fh"
#define FOLD_COMMON_LONGOPTS \
	{ "format", 1, NULL, FOLD_OPT_FORMAT }, \
	{ "no-header", 0, NULL, FOLD_OPT_NOHEADER }, \
	{ "limit", 1, NULL, 'n' }, \
	{ "min-percent", 1, NULL, FOLD_OPT_MINPCT }, \
	{ "focus", 1, NULL, FOLD_OPT_FOCUS }, \
	{ "ignore", 1, NULL, FOLD_OPT_IGNORE }, \
	{ "fixed-strings", 0, NULL, 'F' }, \
	{ "strict", 0, NULL, FOLD_OPT_STRICT }, \
	{ "help", 0, NULL, 'h' }, \
	{ "version", 0, NULL, FOLD_OPT_VERSION }

struct fold_common {
	int format;
	int noheader;
	uint64_t limit;		/* 0: no limit */
	double minpct;
	int fixed;
	int strict;
	const char **focus, **ignore;	/* patterns as given */
	size_t nfocus, nignore;
	int reverse;		/* -r, set by the tools that rank */
};
struct fold_filter;		/* compiled --focus/--ignore, see filter.c */

void fold_common_init(struct fold_common *o);
/* Handle a common option: 1 if it was one.  --help prints help (usage
 * lines, then the option text) and exits 0; --version exits 0; a bad value
 * is a usage error. */
int fold_opt_common(struct fold_common *o, int c, const char *arg,
    const char *usage, const char *help);
/* --sort of foldcallers and foldmodules: "count" 0, "delta" 1, else exit 2. */
int fold_opt_sortkey(const char *arg);

/* ---- filter.c: --focus / --ignore over interned frames ----------------- */

/*
 * A sample passes when (no --focus, or some frame matches some --focus) and
 * no frame matches any --ignore.  Results are cached per frame id, so each
 * distinct frame is matched once.
 */
struct fold_filter {
	struct fold_re *focus, *ignore;
	size_t nfocus, nignore;
	unsigned char *cache;	/* per id: 1 known, 2 focus, 4 ignore */
	size_t cap;
};
void fold_filter_init(struct fold_filter *f, const struct fold_common *o);
int fold_filter_active(const struct fold_filter *f);
int fold_filter_pass(struct fold_filter *f, const struct fold_intern *t,
    const uint32_t *ids, size_t n);
/* The match bits of one frame: FOLD_FILTER_FOCUS, FOLD_FILTER_IGNORE. */
enum { FOLD_FILTER_FOCUS = 2, FOLD_FILTER_IGNORE = 4 };
unsigned fold_filter_frame(struct fold_filter *f, const struct fold_intern *t,
    uint32_t id);
void fold_filter_free(struct fold_filter *f);

/* One pattern matched against interned frames, once per distinct frame:
 * fold_idmatch() is 1 if frame id matches.  The pattern must be compiled
 * into m->re by the caller (fold_re_xcompile). */
struct fold_idmatch {
	struct fold_re re;
	unsigned char *cache;	/* per id: 0 unknown, 1 no, 2 yes */
	size_t cap;
};
int fold_idmatch(struct fold_idmatch *m, const struct fold_intern *t,
    uint32_t id);
void fold_idmatch_free(struct fold_idmatch *m);

/* ---- tally.c: counts by name, ranked -------------------------------------- */

/*
 * Names (copied into an interning table) with a count each, ranked by count,
 * largest first, ties by name in byte order.  fold_tally_print() writes the
 * rows (count, percent of denom, name) in the chosen format, keeping the
 * first o->limit rows (0: all) at or above o->minpct percent; in text it
 * ends with a footer saying what was left out.  In JSON it writes only the
 * array: the caller writes the object around it.
 */
struct fold_tally {
	struct fold_intern names;
	fold_num *counts;
	size_t cap;
};
void fold_tally_init(struct fold_tally *t);
/* Add c to name's count; returns the name's id. */
uint32_t fold_tally_add(struct fold_tally *t, const char *name, size_t len,
    fold_num c);
/* The ids in rank order (malloc'd, *n of them). */
uint32_t *fold_tally_rank(const struct fold_tally *t, int frac, size_t *n);
/* The ids in byte order of their names. */
uint32_t *fold_tally_byname(const struct fold_tally *t, size_t *n);
/* Print the ranked rows; returns how many were printed. */
size_t fold_tally_print(const struct fold_tally *t, const struct fold_common *o,
    const char *namecol, double denom, int frac);
void fold_tally_free(struct fold_tally *t);

/* ---- difftab.c: differential input in the analysis tools ------------- */

/*
 * A ranked table of before/after counts.  Each row has a name and nm
 * measures (1: a count; 2: self and total), each with a before and an
 * after value; it is printed as four columns per measure (before, after,
 * delta, and delta% of the before total), then the name.  Rows are ranked
 * by one measure's delta (the largest increase first) or after value, or
 * by name; ties by name.  reverse turns the ranking around.  --limit and
 * --min-percent (of the magnitude of the ranked column, as a percentage
 * of the before total for deltas, of the after total otherwise) apply.
 */
enum { FOLD_DSORT_DELTA, FOLD_DSORT_AFTER, FOLD_DSORT_NAME };
struct fold_dtally {
	struct fold_intern names;
	int nm;
	fold_num *v;		/* per id: nm * 2 values, before then after */
	size_t cap;		/* in values */
};
void fold_dtally_init(struct fold_dtally *t, int nm);
/* The id of name (added with zero counts if new). */
uint32_t fold_dtally_id(struct fold_dtally *t, const char *name, size_t len);
/* The 2 * nm values of id: [2m] before, [2m + 1] after of measure m. */
static inline fold_num *fold_dtally_v(struct fold_dtally *t, uint32_t id) { return t->v + (size_t)id * 2 * (size_t)t->nm; }
/* Add before/after to measure m of name; returns its id. */
uint32_t fold_dtally_add(struct fold_dtally *t, const char *name, size_t len,
    int m, fold_num before, fold_num after);
struct fold_dtally_fmt {
	const char *const *cols;	/* 4 * nm names, then the name column */
	int measure;		/* the measure ranked */
	int key;		/* FOLD_DSORT_* */
	int reverse;
	fold_num before, after;	/* the totals, for percentages */
	int frac;
	const char *what;	/* "functions", for the text footer */
};
/* The ids in rank order (malloc'd, *n of them). */
uint32_t *fold_dtally_rank(const struct fold_dtally *t,
    const struct fold_dtally_fmt *f, size_t *n);
/* The percentage --min-percent is checked against (may be negative). */
double fold_dtally_pct(const struct fold_dtally *t, uint32_t id,
    const struct fold_dtally_fmt *f);
/* Fill the 4 * nm number cells of id's row; nc = 4 * nm + 1 columns. */
void fold_dtally_cells(const struct fold_dtally *t, uint32_t id,
    const struct fold_dtally_fmt *f, union fold_cell *row);
/* The column types for f->cols (4 * nm numbers, then a name). */
void fold_dtally_cols(const struct fold_dtally *t,
    const struct fold_dtally_fmt *f, struct fold_col *cols);
/* Print the rows; returns how many were printed.  In JSON only the array. */
size_t fold_dtally_print(const struct fold_dtally *t,
    const struct fold_common *o, const struct fold_dtally_fmt *f,
    size_t *nrows);
void fold_dtally_free(struct fold_dtally *t);

/* ---- table.c: key/value output (foldstats) ----------------------------- */

/*
 * One record of named values: text "key  value" lines, tsv/csv "value,key"
 * rows (after a header unless noheader), or one JSON object, nested with
 * fold_kv_open()/fold_kv_close() (dotted keys elsewhere).  One record at a
 * time: fold_kv_begin() starts it, the caller writes the closing '}' in
 * JSON.
 */
void fold_kv_begin(int fmt, int noheader);
void fold_kv(const char *key, const char *val);	/* val already formatted */
void fold_kv_u64(const char *key, uint64_t v);
void fold_kv_dbl(const char *key, double v, int decimals);
void fold_kv_num(const char *key, fold_num n, int frac);
void fold_kv_open(const char *key);
void fold_kv_close(void);
/* The key b inside object a: "a.b", or b in JSON (valid until the next
 * call). */
const char *fold_kv_key(const char *a, const char *b);

#endif
