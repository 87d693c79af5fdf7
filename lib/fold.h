/*
 * fold.h - libfold, the shared core of the foldkit tools.
 *
 * Every foldkit binary is a thin main() over these units.  The rules that
 * hold for the whole library:
 *
 *  - Out of memory is fatal: the x*() allocators print "prog: out of memory"
 *    and exit 1.  No other function returns an allocation failure.
 *  - Nothing allocates per input line.  Memory grows with the number of
 *    distinct strings (stacks, frames) and with the longest line, never with
 *    the size of the input.
 *  - Strings are bytes with a length.  Names may hold any byte, NUL
 *    included; nothing here relies on NUL termination of input data.
 *  - All output to stdout goes through the fo_*() writer.  A write error is
 *    fatal ("prog: write error: ...", exit 1); a closed pipe (EPIPE) ends the
 *    program quietly with status 0.
 *  - Messages go to stderr as "prog: file:line: what is wrong".
 *  - Exit status: 0 success, 1 error in data or I/O, 2 usage error.
 */
#ifndef FOLD_H
#define FOLD_H

#include <stddef.h>
#include <stdint.h>

#ifndef FOLDKIT_VERSION
#define FOLDKIT_VERSION "0.1.0"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define FOLD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define FOLD_NOINLINE __attribute__((noinline))	/* a cold path kept out */
#else
#define FOLD_PRINTF(a, b)
#define FOLD_NOINLINE
#endif

/* ---- util.c: program name, messages, allocation ----------------------- */

extern const char *fold_prog;	/* basename of argv[0], for messages */

/* Set fold_prog and ignore SIGPIPE (a closed pipe is seen as EPIPE by the
 * writer, which ends quietly).  SIGBUS, raised when a mapped input file is
 * cut short by another process, becomes "prog: an input file was cut short
 * while it was being read" and exit 1.  Call first in main(). */
void fold_init(const char *argv0);
void fold_warn(const char *fmt, ...) FOLD_PRINTF(1, 2);	/* prog: msg */
_Noreturn void fold_die(int status, const char *fmt, ...) FOLD_PRINTF(2, 3);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/*
 * Make the pages of [p, p + n) resident now, many in one call (mlock,
 * munlock): where a page fault is dear (a virtual machine: ~10 us each) a
 * fresh array filled page by page costs more than the work done in it.
 * Best effort: nothing happens where locking is not allowed.
 */
void fold_prefault(void *p, size_t n);
/*
 * Where to keep the keep bytes left at the front of a read buffer so that
 * the next read(2) lands on a 64-byte boundary: base + pad + keep is
 * aligned.  The kernel's copy into a misaligned destination is several
 * times slower on some x86 CPUs (measured: 4x from a file, 1.7x from a
 * pipe, AMD EPYC); a buffer needs FOLD_READ_ALIGN bytes of slack for it.
 */
#define FOLD_READ_ALIGN 64
static inline size_t
fold_read_pad(const void *base, size_t keep)
{
	return (size_t)(0 - ((uintptr_t)base + keep)) & (FOLD_READ_ALIGN - 1);
}
/* Grow *arr (elements of elsize bytes, capacity *cap) so that index need-1
 * is valid; new elements are zeroed.  Doubles, so amortised O(1); inline
 * when there is room already.  A big growth is made resident first. */
void fold_grow_slow(void *arrp, size_t *cap, size_t need, size_t elsize);
static inline void
fold_grow(void *arrp, size_t *cap, size_t need, size_t elsize)
{
	if (need > *cap)
		fold_grow_slow(arrp, cap, need, elsize);
}

/* ---- in.c: the line reader --------------------------------------------- */

/*
 * Reads the files of a list in order ("-" or an empty list is stdin) with
 * read(2) into one buffer and hands out lines without copying.  A line is
 * valid until the next fold_in_line() call; it excludes the '\n' (a '\r'
 * before it is kept: callers decide).  A line longer than the buffer grows
 * the buffer, so lines of any length work; the buffer never shrinks.  A last
 * line without a newline is returned, with nonl set.
 *
 * A file that cannot be opened or read is reported ("prog: name: error"),
 * status becomes 1 and reading goes on with the next file.
 *
 * FOLD_IN_STREAM (the default): every line is dropped once used, and
 * files are read, never mapped (faulting the pages of a map in costs more
 * than read(2)'s copy into a buffer that stays in the cache: 70 against
 * 23 ms of CPU for a 95 MB file on our VM).  FOLD_IN_KEEP, for a caller
 * that keeps some lines: a regular file (stdin too) is mapped from its
 * offset, lines are handed out from the map without a copy (mapped is 1
 * while they are), and the caller calls fold_in_keep() after each line it
 * keeps: a kept line stays valid until fold_in_free() (so do the pages
 * before it); the pages behind the current line that hold no kept line are
 * unmapped as reading goes on, so memory does not grow with the file.
 * A file that cannot be mapped is read.  FOLD_IN_READ: never map.
 */
enum { FOLD_IN_STREAM, FOLD_IN_KEEP, FOLD_IN_READ };
struct fold_in {
	char **files;		/* the list; NULL means stdin only */
	int nfiles, next;	/* list length, index of the next to open */
	int fd;			/* current descriptor, -1 between files */
	const char *name;	/* current file name, "<stdin>" for stdin */
	unsigned long long lineno;	/* line number of the last line returned */
	int newfile;		/* the last line returned is a file's first */
	int nonl;		/* the last line returned had no '\n' */
	int status;		/* 1 once an open or read error happened */
	char *buf;
	size_t cap, pos, end;	/* data[pos..end) is unread data */
	int eof;		/* current file fully read */
	const char *data;	/* buf, or the current file's map */
	int map;		/* FOLD_IN_*, set by the caller */
	int mapped;		/* the current file is mapped */
	size_t dropped, kept;	/* map: unmapped or kept below dropped;
				   the end of the last line kept */
	struct fold_map { void *p; size_t len; } *maps;	/* unmapped at free */
	size_t nmaps, mapcap;
};

void fold_in_init(struct fold_in *in, int nfiles, char **files);
/* 1: a line in *line, *len; 0: end of all input. */
int fold_in_line(struct fold_in *in, const char **line, size_t *len);
/*
 * For callers that scan many lines in one pass: the unread bytes already in
 * the buffer after the last line returned (nothing is read), valid until
 * the next fold_in_*() call.  fold_in_take() consumes the first n of them,
 * which must be whole lines, nlines of them; fold_in_line() goes on after.
 */
size_t fold_in_buffered(const struct fold_in *in, const char **p);
void fold_in_take(struct fold_in *in, size_t n, unsigned long long nlines);
/* FOLD_IN_KEEP: the last line returned is kept (see above). */
void fold_in_keep(struct fold_in *in);
void fold_in_free(struct fold_in *in);

/* ---- out.c: the buffered writer for stdout ----------------------------- */

void fo_write(const void *p, size_t n);
void fo_putc(int c);
void fo_puts(const char *s);
void fo_u64(uint64_t v);
void fo_printf(const char *fmt, ...) FOLD_PRINTF(1, 2);
/* For writers of many small pieces: room for n bytes at the end of the
 * buffer (flushed first if need be), or NULL when n is more than it holds;
 * write at most n bytes there, then fo_wrote(end of what was written)
 * before any other fo_*() call. */
char *fo_room(size_t n);
void fo_wrote(const char *end);
/* Write out the buffer; on error print "prog: write error: ..." and exit 1
 * (EPIPE: exit 0 quietly).  Call before exiting. */
void fo_flush(void);
/* fo_flush(), then return status: "return fo_end(status);" ends main(). */
int fo_end(int status);

/* ---- hash.c, arena.c, intern.c: strings and tables --------------------- */

uint64_t fold_hash(const void *p, size_t n);

/* An arena hands out memory that lives until fold_arena_free(). */
struct fold_arena {
	struct fold_chunk *head;
	char *cur;
	size_t left;
};
void *fold_arena_alloc(struct fold_arena *a, size_t n);	/* 8-aligned */
void fold_arena_free(struct fold_arena *a);

/*
 * An interning table: byte strings to dense ids 0, 1, 2, ... in order of
 * first sight, by open addressing.  The table copies each new string into
 * its arena; fold_intern_str() pointers stay valid until fold_intern_free().
 * Callers keep per-id data in their own arrays, grown with fold_grow() to
 * fold_intern_count().
 */
struct fold_str {
	const char *s;
	size_t len;
};
struct fold_slot {
	uint64_t h;		/* full hash */
	const char *s;		/* NULL: empty; else the string, after its
				   header (see intern.c) */
};
struct fold_intern {
	struct fold_slot *slots;	/* open addressing, linear probing */
	size_t mask;		/* slots - 1; slots is a power of two */
	size_t n;		/* strings held */
	struct fold_str *strs;	/* by id */
	size_t cap;
	struct fold_arena arena;
};
void fold_intern_init(struct fold_intern *t);
/* The id of s, adding it if new (*isnew set to 1, else 0; isnew may be
 * NULL).  h must be fold_hash(s, len). */
uint32_t fold_intern_h(struct fold_intern *t, const char *s, size_t len,
    uint64_t h, int *isnew);
uint32_t fold_intern(struct fold_intern *t, const char *s, size_t len,
    int *isnew);
/* The id of s if t holds it, else FOLD_NOID (never a valid id); t is not
 * changed, so a failed lookup costs no memory.  h must be fold_hash(s, len). */
#define FOLD_NOID ((uint32_t)-1)
uint32_t fold_intern_find_h(const struct fold_intern *t, const char *s,
    size_t len, uint64_t h);
/*
 * Hints for a batch of lookups (the frames of a stack): first
 * fold_intern_prefetch() for each hash (the slot), then
 * fold_intern_prefetch_str() for each (the string a slot may hold), then
 * the lookups: their cache misses overlap instead of coming one by one.
 * They change nothing.
 */
/* A hint that *p will be read soon (no effect where not supported). */
#if defined(__GNUC__) || defined(__clang__)
#define fold_prefetch(p) __builtin_prefetch(p)
#else
#define fold_prefetch(p) ((void)(p))
#endif
void fold_intern_prefetch(const struct fold_intern *t, uint64_t h);
void fold_intern_prefetch_str(const struct fold_intern *t, uint64_t h);
static inline size_t fold_intern_count(const struct fold_intern *t) { return t->n; }
static inline struct fold_str fold_intern_str(const struct fold_intern *t, uint32_t id) { return t->strs[id]; }
void fold_intern_free(struct fold_intern *t);

/* Byte order of two strings, shorter first on a common prefix. */
int fold_strcmp(struct fold_str a, struct fold_str b);

/* ---- sort.c: rankings ------------------------------------------------- */

/* ids (of names in t) sorted by their names, in fold_strcmp order: a radix
 * sort of 8 bytes at a time, deeper only where names tie. */
void fold_sort_names(uint32_t *ids, size_t n, const struct fold_intern *t);
/* ids sorted by key[id], largest first; stable, so ids already in name
 * order end up ranked by key, then name. */
void fold_sort_desc(uint32_t *ids, size_t n, const uint64_t *key);

/* ---- count.c: sample counts -------------------------------------------- */

/*
 * A count is an exact unsigned 64-bit integer, plus a fractional part for
 * inputs with decimal counts.  Sums of integers are exact; fold_num_add()
 * never wraps.
 */
typedef struct {
	uint64_t i;
	double f;
} fold_num;

static inline double fold_num_dbl(fold_num n) { return (double)n.i + n.f; }
/* A key that orders counts as fold_num_cmp() does (as doubles when frac:
 * counts are never negative, so their bits order as integers). */
static inline uint64_t
fold_num_key(fold_num n, int frac)
{
	union {
		double d;
		uint64_t k;
	} u;

	if (!frac)
		return n.i;
	u.d = fold_num_dbl(n) + 0.0;	/* no -0 */
	return u.k;
}
/* a += b; returns -1 (a unchanged) if the integer part would overflow. */
static inline int
fold_num_add(fold_num *a, fold_num b)
{
	if (a->i > UINT64_MAX - b.i)
		return -1;
	a->i += b.i;
	a->f += b.f;
	return 0;
}
/* Parse a whole count: digits, or digits '.' digits ("1.5", "3.").
 * 0: ok; FOLD_ENEG, FOLD_EBIG, FOLD_ECOUNT on error. */
int fold_num_parse(const char *s, size_t len, fold_num *out);
/* Write n: an integer when frac is 0, else the shortest decimal that reads
 * back as the same double. */
void fo_num(fold_num n, int frac);
/* Format a double with the shortest round-trip decimal into buf (>= 48 bytes). */
size_t fold_fmt_double(char *buf, double d);
/* v as printf("%.Nf") writes it (N = decimals, 0 to 4), into buf (size
 * bytes, NUL-terminated); the length, as snprintf's.  Without printf for
 * 0 <= v < 2^50 / 10^N when size >= 32. */
size_t fold_fmt_fixed(char *buf, size_t size, double v, int decimals);
/* v in decimal into buf (>= 20 bytes, not NUL-terminated); the length. */
size_t fold_fmt_u64(char *buf, uint64_t v);
/* v * scale rounded to an integer as printf rounds (to nearest, ties to
 * even, on the exact binary value): 0 and *out for 0 <= v < 2^50 / scale,
 * else -1. */
int fold_scaled(double v, double scale, uint64_t *out);

/* ---- folded.c: the folded-stack format (see folded(5)) ----------------- */

enum {
	FOLD_OK = 0,
	FOLD_BLANK,		/* empty or blank line: skipped, not an error */
	FOLD_ECOUNT,		/* no count after the stack */
	FOLD_ENEG,		/* negative count */
	FOLD_EBIG,		/* count larger than 2^64 - 1 */
	FOLD_EEMPTY,		/* count but no stack */
	FOLD_EOVERFLOW		/* sum of counts larger than 2^64 - 1 */
};
const char *fold_errstr(int err);

struct fold_sample {
	const char *stack;	/* points into the line; not NUL-terminated */
	size_t stacklen;
	fold_num count;		/* the count (the NEW one in STACK OLD NEW) */
	int frac;		/* count has a decimal part */
	int diff;		/* line had two counts */
	fold_num old;		/* the OLD count when diff */
	int stable;		/* from fold_read(): stack stays valid until
				   fold_reader_end() (a mapped file) */
};
/* Parse one line (trailing '\r' and blanks allowed).  FOLD_OK or an error. */
int fold_parse_line(const char *line, size_t len, struct fold_sample *s);

/*
 * The folded reader: lines from a fold_in, parsed; invalid lines counted and
 * skipped.  fold_read() returns the next valid sample (1) or 0 at the end.
 * Totals of the accepted counts are kept exactly: a line that would push
 * total or total_old past 2^64 - 1 is rejected as FOLD_EOVERFLOW.
 * With strict, the first invalid line is fatal (message, exit 1).
 * fold_reader_end() reports the invalid lines once ("prog: file:line: ...;
 * N invalid lines skipped") and returns the exit status so far.
 */
struct fold_reader {
	struct fold_in in;
	int strict;
	fold_num total, total_old;	/* sums of accepted counts */
	int frac;			/* a decimal count was seen */
	int diff;			/* a two-count line was seen */
	uint64_t lines;			/* all lines read, blank included */
	uint64_t samples;		/* accepted lines */
	uint64_t invalid;		/* rejected lines */
	int first_err;			/* error of the first rejected line */
	char *first_file;
	unsigned long long first_line;
	int overflow;			/* some line was rejected for overflow */
};
void fold_reader_init(struct fold_reader *r, int nfiles, char **files,
    int strict);
int fold_read(struct fold_reader *r, struct fold_sample *s);
int fold_reader_end(struct fold_reader *r);

/*
 * Frame ids of a stack, interned in t.  Folded files are sorted, so a stack
 * usually shares its first frames with the one before: those keep their ids
 * and only the frames after the first difference are looked up.  With strip,
 * annotations (_[k] ...) are removed before interning.  The array returned
 * is valid until the next call; *n is set to its length (at least 1).
 */
struct fold_stackids {
	struct fold_intern *t;
	int strip;
	char *prev;		/* the previous stack */
	size_t prevlen, prevcap;
	uint32_t *ids;		/* its frame ids */
	size_t *ends;		/* end offset of each frame in prev */
	uint64_t *hs;		/* hashes of the frames being pushed */
	size_t n, cap;
	size_t keep;		/* from the last diff */
	int same;		/* the last diff found the same stack */
};
void fold_stackids_init(struct fold_stackids *s, struct fold_intern *t,
    int strip);
const uint32_t *fold_stackids(struct fold_stackids *s, const char *stack,
    size_t len, size_t *n);
/*
 * The same in two steps, for callers that track frames as they come and
 * go: fold_stackids_diff() returns keep, the number of leading frames the
 * stack shares with the previous one, whose ids (s->ids[0..s->n)) are still
 * readable: frames keep..n-1 are leaving.  fold_stackids_push() then
 * interns the frames after keep and returns all the ids.
 */
size_t fold_stackids_diff(struct fold_stackids *s, const char *stack,
    size_t len);
const uint32_t *fold_stackids_push(struct fold_stackids *s, const char *stack,
    size_t len, size_t *n);
void fold_stackids_free(struct fold_stackids *s);

/* Split helpers: the next frame of a stack.  *pos starts at 0; returns 0
 * when no frame is left.  Frames may be empty ("a;;b"). */
int fold_next_frame(const char *stack, size_t len, size_t *pos,
    const char **f, size_t *flen);
/* Length of name without a trailing annotation _[k] _[j] _[i] _[w]. */
size_t fold_strip_annotation(const char *name, size_t len);

/* ---- regex.c: patterns ------------------------------------------------- */

/*
 * POSIX extended regular expressions, with Perl's \w \W \d \D \s \S
 * accepted (translated to bracket expressions), or fixed strings.  Matching
 * works on byte strings with a length; a copy with a NUL is made internally,
 * so a NUL byte in a subject ends the subject for the regex engine.
 */
enum { FOLD_RE_FIXED = 1, FOLD_RE_ICASE = 2 };
struct fold_re {
	int flags;
	int compiled;
	void *re;		/* regex_t, opaque here */
	char *lit;		/* fixed string */
	size_t litlen;
	uint64_t capmask;	/* ERE groups that capture (Perl's (...)) */
	char *scratch;		/* NUL-terminated copy of the subject */
	size_t scap;
	char *need;		/* bytes every match contains, or NULL */
	size_t needlen;
};
/* Translate a Perl-style pattern to POSIX ERE: \w \W \d \D \s \S (also
 * inside [...]), Perl escapes inside [...], (?:...) groups, lazy quantifiers
 * (matched greedily).  Returns a malloc'd string and in *capmask a bit for
 * each ERE group (1 to 63) that is capturing, or NULL with a message in err
 * (errlen bytes). */
char *fold_re_translate(const char *pat, uint64_t *capmask, char *err,
    size_t errlen);
/* 0 on success; -1 with a message in err. */
int fold_re_compile(struct fold_re *re, const char *pat, int flags,
    char *err, size_t errlen);
/* 1 if s matches; then [*so, *eo) is the first capture group that took
 * part in the match, or the whole match if none did.  so/eo may be NULL. */
int fold_re_match(struct fold_re *re, const char *s, size_t len,
    size_t *so, size_t *eo);
void fold_re_free(struct fold_re *re);
/* Bytes that every subject re matches contains (the pattern itself when it
 * is a fixed string or has no special character, and case matters), in
 * *lit: their length, or 0 when there are none to rely on.  A subject
 * without them cannot match; one with them may not match either. */
size_t fold_re_needed(const struct fold_re *re, const char **lit);
/* The first n bytes at needle in s (len bytes), or NULL. */
const char *fold_memmem(const char *s, size_t len, const char *needle,
    size_t n);
/* Compile or exit 2 with "prog: bad pattern 'P': why". */
void fold_re_xcompile(struct fold_re *re, const char *pat, int flags);

/* ---- esc.c: escaping for the output formats ---------------------------- */

/*
 * Decode the UTF-8 character at s (n > 0 bytes): its code point in *cp and
 * its length.  An invalid, overlong, surrogate or truncated sequence is one
 * byte long, with *cp = the byte and *bad = 1 (else *bad = 0).
 */
size_t fold_utf8_char(const unsigned char *s, size_t n, uint32_t *cp,
    int *bad);
void fo_json_str(const char *s, size_t len);	/* "..." valid JSON text */
void fo_csv_field(const char *s, size_t len);	/* RFC 4180 quoting */
void fo_tsv_field(const char *s, size_t len);	/* \t \n \r \\ escaped */

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

/* ---- opt.c: the options the analysis tools share ----------------------- */

/*
 * --format F, --no-header, -n/--limit N, --min-percent P, --focus RE,
 * --ignore RE (both repeatable), -F/--fixed-strings, --strict, --help,
 * --version.  Tools list FOLD_COMMON_LONGOPTS in their getopt_long table
 * and pass every option to fold_opt_common() first.
 */
enum {
	FOLD_OPT_FORMAT = 0x1000, FOLD_OPT_NOHEADER, FOLD_OPT_MINPCT,
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
/* Print "usage: ..." to stderr and exit 2. */
_Noreturn void fold_usage(const char *usage);
/* --help: "usage: USAGE" then HELP on stdout, exit 0 (1 if it cannot be
 * written); --version: "prog (foldkit) VERSION", exit 0. */
_Noreturn void fold_help(const char *usage, const char *help);
_Noreturn void fold_version(void);
/* Parse a non-negative decimal for option opt, or exit 2. */
uint64_t fold_opt_u64(const char *opt, const char *arg);
double fold_opt_pct(const char *opt, const char *arg);
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
/* Compare counts (as doubles when frac). */
int fold_num_cmp(fold_num a, fold_num b, int frac);

/* ---- perf.c: perf script to folded stacks ------------------------------ */

/*
 * The collapser behind stackcollapse-perf(1): `perf script` text in, one
 * folded line per distinct stack out ("root;caller;...;leaf COUNT", sorted by
 * the bytes of the stack).  Create with fold_perf_new(), feed lines (without
 * the '\n') with fold_perf_line() or whole inputs with fold_perf_run(), then
 * fold_perf_print() and fold_perf_end().
 *
 *  - Any bytes are accepted: lines of any length, NUL and non-UTF-8 bytes,
 *    '\r' before the newline.  Nothing is allocated per line; memory grows
 *    with the distinct stacks and distinct frame lines only.
 *  - Before each fold_perf_line() the caller sets file and lineno (used in
 *    messages) and nonl (the line is the input's last and had no newline).
 *    fold_perf_eof() ends one input: a sample still open is kept, with a
 *    warning that the input ended mid-sample.
 *  - Unrecognized lines are counted and reported once by fold_perf_end()
 *    ("prog: file:line: unrecognized line (N ...)"); with FOLD_PERF_STRICT
 *    the first is fatal (exit 1).  FOLD_PERF_QUIET silences warnings, not
 *    errors.  A count sum past 2^64 - 1 is an error: the sample is dropped
 *    and status becomes 1.
 *  - FOLD_PERF_INLINE runs addr2line(1); if it cannot be found,
 *    fold_perf_new() exits 1 with "prog: --inline needs addr2line: ...".
 */
enum {
	FOLD_PERF_PID = 1 << 0,		/* root "comm-PID" */
	FOLD_PERF_TID = 1 << 1,		/* root "comm-PID/TID" (wins over PID) */
	FOLD_PERF_KERNEL = 1 << 2,	/* _[k] on kernel frames */
	FOLD_PERF_JIT = 1 << 3,		/* _[j] on /tmp/perf-N.map frames */
	FOLD_PERF_ADDRS = 1 << 4,	/* [module <addr>] for unknown symbols */
	FOLD_PERF_INLINE = 1 << 5,	/* expand inlined frames with addr2line */
	FOLD_PERF_CONTEXT = 1 << 6,	/* with INLINE: name:file:line */
	FOLD_PERF_SRCLINE = 1 << 7,	/* input has perf script -F+srcline lines */
	FOLD_PERF_SAMPLES = 1 << 8,	/* count samples, not periods */
	FOLD_PERF_QUIET = 1 << 9,	/* no warnings */
	FOLD_PERF_STRICT = 1 << 10,	/* an unrecognized line is fatal */
	FOLD_PERF_DEMANGLE = 1 << 11	/* demangle C++ and Rust names */
};
struct fold_perf_opts {
	unsigned flags;
	const char *event;	/* keep this event only; NULL: the first seen */
	const char *skip_after;	/* drop the callers of the innermost FUNC */
};
struct fold_perf_st;
struct fold_perf {
	const char *file;		/* set by the caller, for messages */
	unsigned long long lineno;
	int nonl;
	int status;			/* 1 once an error happened */
	struct fold_perf_st *st;	/* private */
};
struct fold_perf *fold_perf_new(const struct fold_perf_opts *o);
void fold_perf_line(struct fold_perf *p, const char *line, size_t len);
void fold_perf_eof(struct fold_perf *p);
/* Read all of a file list ("-" or none: stdin) through fold_perf_line(). */
void fold_perf_run(struct fold_perf *p, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer. */
void fold_perf_print(struct fold_perf *p);
/* Final warnings; free everything; the exit status (0 or 1). */
int fold_perf_end(struct fold_perf *p);

/* ---- dtrace.c: DTrace and bpftrace stacks to folded stacks ------------- */

/*
 * The collapser behind stackcollapse-dtrace(1): the aggregations printed by
 * dtrace(1) (@[stack()], @[ustack()], both) or bpftrace(8) (@[kstack],
 * @[ustack], @name[...]) in, one folded line per distinct stack out, sorted
 * by the bytes of the stack.  Records are read one at a time: frames leaf
 * first, then the count; the cleaned frames are appended to a reused buffer
 * as they come and the record is looked up once; the folded text is made
 * once per distinct stack.  Use: fold_dtrace_new(), fold_dtrace_line() for
 * each line (or fold_dtrace_run() for whole inputs) with fold_dtrace_eof()
 * after each input, then fold_dtrace_print() and fold_dtrace_end().
 *
 *  - Any bytes are accepted, NUL and non-UTF-8 included; a '\r' ending a
 *    line is dropped.  Memory grows with the distinct stacks and the
 *    longest record, not with the input.
 *  - The caller sets file and lineno (for messages) before each line; file
 *    must stay valid until fold_dtrace_end().  fold_dtrace_eof() ends one
 *    input (a format is detected per input): a record still open (frames, no
 *    count) is dropped with a warning naming the line it began on; with
 *    FOLD_DTRACE_STRICT that is fatal (exit 1).
 *  - Lines that fit neither format (only possible around bpftrace records)
 *    are counted and reported once by fold_dtrace_end(); with STRICT the
 *    first is fatal.  A count or a sum past 2^64 - 1 is an error: the
 *    record is dropped and status becomes 1.  QUIET silences warnings only.
 */
enum {
	FOLD_DTRACE_OFFSET = 1 << 0,	/* keep +0x offsets (not the leaf's) */
	FOLD_DTRACE_DEMANGLE = 1 << 1,	/* demangle C++ and Rust symbols */
	FOLD_DTRACE_QUIET = 1 << 2,	/* no warnings */
	FOLD_DTRACE_STRICT = 1 << 3	/* anything dropped is fatal */
};
struct fold_dtrace_st;
struct fold_dtrace {
	const char *file;		/* set by the caller, for messages */
	unsigned long long lineno;
	int status;			/* 1 once an error happened */
	struct fold_dtrace_st *st;	/* private */
};
struct fold_dtrace *fold_dtrace_new(unsigned flags);
void fold_dtrace_line(struct fold_dtrace *d, const char *line, size_t len);
void fold_dtrace_eof(struct fold_dtrace *d);
/* Read all of a file list ("-" or none: stdin) through fold_dtrace_line(). */
void fold_dtrace_run(struct fold_dtrace *d, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer. */
void fold_dtrace_print(struct fold_dtrace *d);
/* Final warnings; free everything; the exit status (0 or 1). */
int fold_dtrace_end(struct fold_dtrace *d);

/* ---- svg.c, flame.c, flamejs.c: flame graphs as SVG -------------------- */

/*
 * Write s as XML 1.0 text that is also safe inside a quoted attribute
 * value: & < > " ' as entities, tab/newline/CR as character references,
 * other control characters, U+FFFE/U+FFFF and invalid UTF-8 as U+FFFD.
 * With raw8, bytes >= 0x80 are written as they are (for a declared
 * single-byte encoding).  With maxchars > 0, at most maxchars characters
 * are written, the last two replaced by ".." when s is longer.
 */
void fo_xml(const char *s, size_t len, int raw8, size_t maxchars);
/* Characters in s, as fo_xml() counts them. */
size_t fold_xml_chars(const char *s, size_t len, int raw8);

/* The colour palettes of flamegraph.pl, plus rust and python. */
enum {
	FOLD_PAL_HOT, FOLD_PAL_MEM, FOLD_PAL_IO, FOLD_PAL_WAKEUP,
	FOLD_PAL_CHAIN, FOLD_PAL_JAVA, FOLD_PAL_JS, FOLD_PAL_PERL,
	FOLD_PAL_RUST, FOLD_PAL_PYTHON, FOLD_PAL_RED, FOLD_PAL_GREEN,
	FOLD_PAL_BLUE, FOLD_PAL_AQUA, FOLD_PAL_YELLOW, FOLD_PAL_PURPLE,
	FOLD_PAL_ORANGE
};
/* Palette name to FOLD_PAL_*, or -1. */
int fold_palette_parse(const char *s);
/* How the three values behind a colour are drawn from a name. */
enum { FOLD_COLOR_SEED, FOLD_COLOR_HASH, FOLD_COLOR_RANDOM };
/* The fill of a frame name as flamegraph.pl picks it: rgb packed as
 * 0xRRGGBB.  For FOLD_COLOR_RANDOM, *rs is the generator state. */
uint32_t fold_flame_color(int palette, int mode, const char *name,
    size_t len, uint64_t *rs);
/* flamegraph.pl's namehash(): 0..1 from the first characters of a name. */
double fold_namehash(const char *name, size_t len, int reversed);
/* drand48's first draw after srand48(seed), computed here. */
double fold_drand48_first(uint32_t seed);

struct fold_flame_opts {
	const char *title;	/* NULL: by mode */
	const char *subtitle, *notes;	/* NULL or "": none */
	const char *nametype, *countname, *fonttype;
	const char *encoding;	/* NULL: UTF-8, not declared */
	const char *bg1, *bg2;	/* background gradient; NULL: by palette */
	const char *nameattr;	/* --nameattr file or NULL */
	const char *palmap;	/* --cp: palette.map path, or NULL */
	double width, frameheight, fontsize, fontwidth;
	double minwidth;	/* px, or percent with minpct */
	int minpct;
	double factor;
	double total;		/* --total, 0: none */
	int palette, colormode;
	int reverse, inverted, flamechart, negate;
};
void fold_flame_opts_init(struct fold_flame_opts *o);

/*
 * A flame graph: samples merged frame by frame into a tree (siblings
 * ordered by name; with flamechart, in input order and merged only with
 * the box just before), then laid out and written as an interactive SVG.
 * Memory grows with the distinct (parent, frame) pairs only.
 */
struct fold_flame;
struct fold_flame *fold_flame_new(const struct fold_flame_opts *o);
/* Add one sample (the stack as it comes, reversed here if asked).  Returns
 * 1 if the graph keeps pointing at the sample's stack bytes (s->stable: a
 * mapped line; the caller then calls fold_in_keep()), else 0. */
int fold_flame_add(struct fold_flame *f, const struct fold_sample *s);
/*
 * Write the SVG with the fo_*() writer.  frac: some count had decimals;
 * diff: differential input.  With no samples at all, write a small SVG
 * saying so and return 1 (the caller prints the error); else 0, or 1 if
 * --nameattr or --cp files could not be used.
 */
int fold_flame_write(struct fold_flame *f, int frac, int diff);
void fold_flame_free(struct fold_flame *f);

/* The script and styles embedded in every flame graph (flamejs.c). */
extern const char *const fold_flame_script[];	/* lines, NULL-ended */
extern const char fold_flame_style[];

/* ---- difftab.c: differential input in the analysis tools ------------- */

/*
 * Look ahead in a fold_in without consuming anything: the line that starts
 * *off bytes into the unread data of the current file (the first file is
 * opened if none is), *off moved past it; 0 at the end of that file.  The
 * line stays valid until the next fold_in_*() call.  Starting at *off = 0
 * and calling again walks the lines the next fold_in_line() calls return.
 */
int fold_in_peek(struct fold_in *in, size_t *off, const char **line,
    size_t *len);
/*
 * Is the input differential ("STACK BEFORE AFTER")?  Decided by the first
 * valid line (blank and invalid lines before it are looked past, up to
 * 1000 lines), read ahead without consuming it: call before fold_read().
 */
int fold_reader_isdiff(struct fold_reader *r);

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
/* Reverse an array of ids in place (-r on a ranking). */
void fold_reverse_ids(uint32_t *ids, size_t n);
/* Write a - b (signed) as text: "+N", "-N" or "0" with sign, else "N"/"-N". */
size_t fold_fmt_delta(char *buf, fold_num a, fold_num b, int frac, int sign);

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

/* ---- fdiff.c: two profiles into one differential profile -------------- */

/*
 * The merge behind folddiff(1): the union of the stacks of BEFORE and AFTER
 * (paths, "-" for stdin: at most one) as "STACK BEFORE AFTER" lines, in
 * byte order of the stacks, written with fo_*().  Lines are read as
 * difffolded.pl reads them: the count is the last word (digits, or digits
 * '.' digits), the stack everything before the whitespace character in
 * front of it (so "a;b  5" has the stack "a;b ").  Counts of a stack are
 * summed exactly; a line that would take a file's total past 2^64 - 1 is
 * an error (skipped, status 1).  Invalid lines are reported as the folded
 * reader does ("prog: file:line: ..."; fatal with strict).
 * normalize: BEFORE's counts scaled to AFTER's total, floor(c * t2 / t1)
 * (difffolded.pl's int()); striphex: 0x[0-9a-fA-F]+ becomes "0x..." in the
 * stacks before they are merged.  Memory: a sorted regular file is read
 * through (mapped, unmapped behind the reader); the distinct stacks of an
 * input that is not (a pipe, or unsorted) are held.  Returns the exit status.
 */
/*
 * Output that may be taken back (out.c): fo_seekable() is 1 if stdout is a
 * regular file (*start: where this output begins) or /dev/null (*start
 * -1); fo_rewind(start) then drops what is buffered and truncates the file
 * back to start.  folddiff merges sorted inputs in one pass when it can
 * take its output back, should an input turn out unsorted.
 */
int fo_seekable(int64_t *start);
void fo_rewind(int64_t start);

struct fold_diff_opts {
	int normalize, striphex, strict;
};
int fold_diff_run(const char *before, const char *after,
    const struct fold_diff_opts *o);

/* ---- stackset.c: distinct stacks in frame order (i11) ------------------ */

/*
 * Frame order: stacks compared frame by frame, each frame by its bytes,
 * shorter first on a common prefix, so a stack comes before those it is a
 * prefix of: "a;b" < "a;b;c" < "a;b-c" < "a;bc".  In this order the stacks
 * that share callers are next to each other and siblings come by name, so
 * a tree can be built by comparing each stack with the one before
 * (flamegraph.pl's flow).  Byte order (`sort`) differs only where a name
 * is a prefix of a sibling's name followed by a byte below ';' (bytes:
 * "a;b" < "a;b-c" < "a;b;c").
 *
 * fold_frame_cmp() is <0, 0, >0.  fold_common_prefix() is the length of
 * the common prefix of a and b, n bytes at most.
 */
int fold_frame_cmp(const char *a, size_t alen, const char *b, size_t blen);
size_t fold_common_prefix(const char *a, const char *b, size_t n);

/*
 * A stackset holds each distinct stack once (copied into its arena unless
 * the caller's bytes are stable), with
 * fields for the caller's sums (zero when the stack is first added).
 * Adding is cheap while the input comes in frame order (a comparison with
 * the stack before, which is also how a repeat is found); at the first
 * stack out of order the set starts hashing whole stacks.
 * fold_stackset_sort() then puts the records in frame order once (MSD
 * radix on the bytes, in place).  Record pointers stay valid until the
 * next add or the sort; the stack bytes until fold_stackset_free().
 * Memory grows with the distinct stacks only: a record and, once out of
 * order, a hash slot or two each (fresh pages cost: records are small).
 */
struct fold_stackrec {
	const char *s;		/* the stack */
	size_t len;
	fold_num count;		/* the caller's sums */
	double delta;
};
struct fold_stackset {
	struct fold_stackrec *recs;	/* in frame order once sorted */
	size_t n, cap, ready;		/* ready: resident (fold_prefault) */
	int sorted;		/* recs are in frame order */
	uint32_t *map;		/* index + 1 by hash, once out of order */
	uint64_t *hashes;	/* per record, once out of order */
	size_t mask;
	struct fold_arena arena;
};
void fold_stackset_init(struct fold_stackset *ss);
/* The record of stack s (len bytes), added if new.  With stable, s stays
 * valid as long as the set: it is not copied. */
struct fold_stackrec *fold_stackset_add(struct fold_stackset *ss,
    const char *s, size_t len, int stable);
/*
 * Put the records in frame order.  With minw > 0, a run of records sharing
 * a prefix whose counts (fold_num_dbl) sum below minw may be left in any
 * order: a tree built from them is the same down to the boxes at least
 * minw wide (narrower ones may come in pieces).
 */
void fold_stackset_sort(struct fold_stackset *ss, double minw);
void fold_stackset_free(struct fold_stackset *ss);

/* ---- syms.c, elf.c, ksyms.c, symsrc.c: addresses to symbol names ------ */

/*
 * What `perf script` prints as the symbol of an address, from the sources
 * perf reads: ELF files (.symtab, else .dynsym, plus name@plt entries),
 * kallsyms and /tmp/perf-PID.map files.  All input bytes are untrusted:
 * every offset and size is checked against the file; a malformed file gives
 * fewer or no symbols, never a crash or a hang.
 *
 * Names are NUL-terminated and point into the mapped file or an arena of the
 * object that returned them: valid until that object is freed.  Nothing is
 * allocated per lookup; lookups are binary searches over sorted arrays (and,
 * only where symbols overlap, a walk down a tree built as perf's).
 */

/*
 * A sorted symbol table (syms.c), built once by one of the parsers below.
 * Symbols at the same address are reduced to one by perf's rules; a symbol
 * of size 0 ends where the next one starts.  fold_syms_find(): the symbol
 * holding addr (start <= addr < end, or addr == start for a symbol still
 * of size 0) or NULL; *start (may be NULL) is its start.  *module (may be
 * NULL) is set to the kallsyms module name ("[ext4]") of that symbol, or
 * NULL for the kernel itself and for other tables.
 */
struct fold_syms;
/*
 * Building a table (elf.c, ksyms.c): fold_syms_new(), then fold_syms_add()
 * for each symbol in the source's order (name NUL-terminated, kept by
 * pointer: it must outlive the table; module likewise, or NULL; bind and
 * type are ELF's STB_* and STT_* values), then fold_syms_done() once, which
 * sorts and applies perf's rules for the kind of source: FOLD_SYMS_ELF,
 * FOLD_SYMS_KALLSYMS (zero-size symbols end at a page boundary where the
 * module changes), FOLD_SYMS_PERFMAP (perf applies no rules: sizes as
 * given, entries at one start all kept).  No lookup before
 * fold_syms_done().  fold_syms_own(): free(p) with the table.
 * A type with FOLD_SYM_LATE is a symbol perf adds after those rules (PLT
 * entries): it ends no zero-size symbol and is merged with none.
 * Where symbols overlap, the one found is the one perf's red-black tree
 * finds: the tree is rebuilt as perf builds it (see syms.c), by the first
 * lookup that needs it.  So a lookup may still write to the table (that
 * tree; the names a lazy kallsyms table has found, below): lookups in one
 * table must not run in two threads at once.
 */
#define FOLD_SYM_LATE 0x100
enum { FOLD_SYMS_ELF, FOLD_SYMS_KALLSYMS, FOLD_SYMS_PERFMAP };
struct fold_syms *fold_syms_new(void);
void fold_syms_add(struct fold_syms *t, uint64_t start, uint64_t size,
    const char *name, const char *module, int bind, int type);
void fold_syms_done(struct fold_syms *t, int kind);
void fold_syms_own(struct fold_syms *t, void *p);
void fold_syms_reserve(struct fold_syms *t, size_t n);	/* room for n */
const char *fold_syms_find(const struct fold_syms *t, uint64_t addr,
    uint64_t *start, const char **module);
size_t fold_syms_count(const struct fold_syms *t);
/* 1 if addr is inside a symbol without module (fold_syms_find finds it
 * alone at its start) that another symbol without module follows. */
int fold_syms_inner(const struct fold_syms *t, uint64_t addr);
void fold_syms_free(struct fold_syms *t);

/* Text symbol files (ksyms.c).  The buffer is copied into the table; it
 * need not be NUL-terminated.  Lines that do not parse are skipped. */
/* /proc/kallsyms: "ADDR TYPE NAME [\t[MODULE]]"; the types perf keeps (T,
 * W, D, B, either case), not names starting with '$'. */
struct fold_syms *fold_syms_kallsyms(const char *buf, size_t n);
/* The same, taking buf (from malloc, n + 1 bytes) instead of a copy.  The
 * table is read lazily where it can be (syms.c: one pass keeps the start and
 * line of each symbol, a lookup applies perf's rules where it lands);
 * fold_syms_kallsyms_full() builds it whole, the same answers (for checks).
 * fold_syms_kallsyms_lazy(): buf stays the caller's (n + 1 bytes, the last
 * set to 0 if it is not; the others are only read: names are copied out as
 * they are found), to keep as long as the table; NULL where the lazy form
 * cannot answer as the whole table would. */
struct fold_syms *fold_syms_kallsyms_own(char *buf, size_t n);
struct fold_syms *fold_syms_kallsyms_full(char *buf, size_t n);
struct fold_syms *fold_syms_kallsyms_lazy(char *buf, size_t n);
/* /tmp/perf-PID.map: "START SIZE NAME" (hex, NAME to the end of line). */
struct fold_syms *fold_syms_permap(const char *buf, size_t n);

/*
 * An ELF file (elf.c): ELF32 and ELF64, either byte order, no <elf.h>.
 * fold_elf_open() maps a regular file once (read-only); fold_elf_mem() reads
 * n bytes at p, which must stay valid and unchanged until fold_elf_free().
 * Both return NULL with *why set to a static message when the file cannot
 * be used (not ELF, truncated header, ...).  The symbol table is built only
 * when first needed (fold_elf_sym / fold_elf_nsyms).
 *
 * Symbols are placed as perf places them: at file offsets, each symbol
 * value moved by p_offset - p_vaddr of the PT_LOAD segment that holds it.
 * So an address addr in a map at start with page offset pgoff is looked up
 * as the offset addr - start + pgoff.  fold_elf_sym(): the symbol holding
 * that offset, or NULL; *start (may be NULL): the symbol's start offset.
 * fold_elf_runtime(): take program headers and PLT entries from rt (the
 * file that was mapped) while symbols come from e (a debug file); call
 * before the first lookup; rt must outlive e.
 * fold_elf_vaddr(): the virtual address of file offset off, through the
 * PT_LOAD segment holding it (1), or 0 when no segment holds it.
 * fold_elf_problem(): what was found wrong in the symbol table, once it is
 * read (a static message: "symbol table past the end of the file", ...),
 * or NULL; the symbols that could be read are used all the same.
 * fold_elf_buildid(): the GNU build id (its length, 0 if none; *id points
 * into the file).  fold_elf_has_symtab(), fold_elf_has_dynsym(): 1 if a
 * .symtab (.dynsym) section is present.
 */
struct fold_elf;
struct fold_elf *fold_elf_open(const char *path, const char **why);
struct fold_elf *fold_elf_mem(const void *p, size_t n, const char **why);
size_t fold_elf_buildid(const struct fold_elf *e, const unsigned char **id);
int fold_elf_has_symtab(const struct fold_elf *e);
int fold_elf_has_dynsym(const struct fold_elf *e);
int fold_elf_vaddr(const struct fold_elf *e, uint64_t off, uint64_t *vaddr);
void fold_elf_runtime(struct fold_elf *e, struct fold_elf *rt);
const char *fold_elf_sym(struct fold_elf *e, uint64_t off, uint64_t *start);
size_t fold_elf_nsyms(struct fold_elf *e);
const char *fold_elf_problem(struct fold_elf *e);
/* The file name in .gnu_debuglink (inside the file), or NULL. */
const char *fold_elf_debuglink(struct fold_elf *e);
void fold_elf_free(struct fold_elf *e);

/*
 * All symbol sources of one run (symsrc.c).  Objects are found, opened and
 * indexed lazily, each once per run (keyed by recorded path, with the build
 * id recorded for it).
 *
 * fold_symsrc_new(): symfs is perf's --symfs (a prefix for every path; NULL
 * or "": none); buildid_dir is perf's --buildid-dir (NULL:
 * $PERF_BUILDID_DIR, else $HOME/.debug).  Flags: FOLD_SYMSRC_QUIET.
 *
 * A file that cannot be used is reported once ("prog: path: why") unless
 * quiet, and its addresses resolve to NULL (perf prints [unknown]); so is a
 * damaged symbol table, when first read (its readable symbols are used).
 *
 * The order a user object is looked for is perf's (see symsrc.c): its
 * .gnu_debuglink file, the build-id cache (BUILDID_DIR/.build-id/xx/rest,
 * xx: the id's first byte in hex, rest: the others), /usr/lib/debug, then
 * the recorded path; all but the cache under SYMFS.  A file whose build id
 * differs from the known one is skipped.
 */
enum { FOLD_SYMSRC_QUIET = 1 };
struct fold_symsrc;
struct fold_dso;	/* one recorded object; owned by the fold_symsrc */
struct fold_symsrc *fold_symsrc_new(const char *symfs, const char *buildid_dir,
    unsigned flags);
/*
 * The build id recorded for path (BUILD_ID feature, HEADER_BUILD_ID
 * records; "[kernel.kallsyms]" for the kernel, "[vdso]" for the vDSO).  Call
 * before the first lookup in that object; a second id for the same path
 * replaces the first if no lookup was made yet, else it is ignored.
 */
void fold_symsrc_buildid(struct fold_symsrc *s, const char *path,
    size_t pathlen, const unsigned char *id, size_t idlen);
/*
 * Open and index, in a thread of its own, every object that has a build id
 * by now and no lookup yet (perf.data's BUILD_ID feature lists those that
 * samples hit), while the caller reads on; a lookup in one of them waits
 * for it, or takes it back if the thread has not begun it.  Once per run;
 * where no thread can be made, nothing is done ahead.
 */
void fold_symsrc_prefetch(struct fold_symsrc *s);
/*
 * The object of a recorded path, found or created (one hash lookup; nothing
 * is opened yet).  Keep the handle with the map: it is valid until
 * fold_symsrc_free().  A path /tmp/perf-PID.map is read as a perf map
 * (absolute addresses; not if another user than root owns it, as perf);
 * "[vdso]" is read from the build-id cache, else from this process's own
 * vDSO if its build id is the recorded one (or none was recorded).
 * Pseudo paths ([heap], //anon, /memfd:..., /dev/zero) have no symbols.
 */
struct fold_dso *fold_symsrc_dso(struct fold_symsrc *s, const char *path,
    size_t pathlen);
/*
 * The symbol of user address addr in a map of dso at [start, ...) with page
 * offset pgoff (the MMAP/MMAP2 record's fields), or NULL (perf prints
 * [unknown]).  *symstart (may be NULL): the symbol's start, in the same
 * address space as addr.
 */
const char *fold_symsrc_user(struct fold_symsrc *s, struct fold_dso *dso,
    uint64_t start, uint64_t pgoff, uint64_t addr, uint64_t *symstart);
/* JIT code: the symbol of addr in /tmp/perf-PID.map, or NULL. */
const char *fold_symsrc_jit(struct fold_symsrc *s, long pid, uint64_t addr,
    uint64_t *symstart);
/*
 * The kernel's relocation as recorded: the kernel map's MMAP record is named
 * "[kernel.kallsyms]" followed by the reference symbol (e.g. "_text") and
 * has that symbol's address as pgoff.  Pass the name after
 * "[kernel.kallsyms]" and that address: the kernel's symbols (not the
 * modules') in the kallsyms read are shifted by the difference (KASLR), as
 * perf does.  Optional; call before the first kernel lookup.
 */
void fold_symsrc_kernel_ref(struct fold_symsrc *s, const char *name,
    size_t namelen, uint64_t addr);
/*
 * A kernel address: the symbol (or NULL) from kallsyms, as perf chooses it
 * (/proc/kallsyms when the running kernel has the recorded build id or none
 * is recorded, else BUILDID_DIR/[kernel.kallsyms]/ID/kallsyms; read once, at
 * the first kernel lookup).  *dso (may be NULL) is set to the name perf
 * script prints as its dso: "[kernel.kallsyms]", or the module's "[name]"
 * from kallsyms' module column.
 */
const char *fold_symsrc_kernel(struct fold_symsrc *s, uint64_t addr,
    const char **dso, uint64_t *symstart);
/*
 * Reading kallsyms takes milliseconds; a caller with other work may have it
 * done in a thread of its own meanwhile.  fold_symsrc_kernel_busy(): 0 if
 * fold_symsrc_kernel() answers at once; else 1, and the kernel's symbols
 * are being read in the background (started by the first call, which
 * stands for the first kernel lookup: fold_symsrc_buildid() and
 * fold_symsrc_kernel_ref() for the kernel are then too late).  Where no
 * thread can be made they are read at once and it returns 0.
 * fold_symsrc_kernel_wait(): wait for that reading to end (a lookup waits
 * by itself).  While busy, calls for user objects may go on in the
 * caller's thread: the background reading touches nothing they touch.
 */
int fold_symsrc_kernel_busy(struct fold_symsrc *s);
void fold_symsrc_kernel_wait(struct fold_symsrc *s);
void fold_symsrc_free(struct fold_symsrc *s);

/* ---- perf.c (structured samples), perfdata.c: perf.data ------------- */

/*
 * perf.c's collapser fed with samples instead of text (the perf.data
 * reader): the same names, annotations, filters and counts as the frame
 * lines perf script would print for them.
 *
 * fold_perf_frame_id(): the id of a frame as perf script prints it: addr is
 * the address it prints (a user address as the offset in its file, other
 * addresses as they are), sym the symbol without "+0x" offset (NULL:
 * [unknown]), dso the object (NULL: [unknown]); demangle: as perf script
 * (without --no-demangle) prints the name.  Strings are copied; ids
 * stay valid until fold_perf_end().  java: the sample's root starts with
 * "java".  The names are made once per distinct frame.
 * fold_perf_root(): the root frame of a command and thread (pid NULL:
 * unknown, printed "?", as perf script's default output has no PID); *java
 * is set for fold_perf_frame_id().
 * fold_perf_want(): 1 if samples of event (NULL: no event, as tracepoints
 * print) are kept, by --event-filter or the first event seen.
 * fold_perf_sample(): one sample, frames leaf first; period 0 counts 1.
 * It is fold_perf_count(p, fold_perf_stack(p, root, frames, n),
 * fold_perf_weight(p, period)): fold_perf_stack() gives the id of the
 * stack the frames make (the same frames, the same id, for the life of p),
 * fold_perf_weight() what a sample of that period counts (1 with
 * FOLD_PERF_SAMPLES), fold_perf_count() adds a count to a stack; so a
 * caller may add up the samples of one stack first (the same counts as
 * one by one while the sum of every count, fold_perf_counted(), stays
 * below 2^64: no count can be too large then, in any order).
 * fold_perf_run_fd(): text input on fd whose first n bytes were already
 * read into head.
 */
struct fold_perf_frame {
	uint64_t addr;
	const char *sym;
	size_t symlen;
	const char *dso;
	size_t dsolen;
	int demangle;		/* demangle sym as perf script does */
};
uint32_t fold_perf_frame_id(struct fold_perf *p,
    const struct fold_perf_frame *f, int java);
uint32_t fold_perf_root(struct fold_perf *p, const char *comm, size_t commlen,
    const char *pid, const char *tid, int *java);
int fold_perf_want(struct fold_perf *p, const char *event, size_t len);
void fold_perf_sample(struct fold_perf *p, uint32_t root, uint64_t period,
    const uint32_t *frames, size_t n);
uint32_t fold_perf_stack(struct fold_perf *p, uint32_t root,
    const uint32_t *frames, size_t n);
uint64_t fold_perf_weight(struct fold_perf *p, uint64_t period);
uint64_t fold_perf_counted(struct fold_perf *p);
void fold_perf_count(struct fold_perf *p, uint32_t stack, uint64_t weight);
void fold_perf_run_fd(struct fold_perf *p, int fd, const char *name,
    const char *head, size_t n);

/*
 * perf.data to folded stacks (perfdata.c): file mode and pipe mode (perf
 * record -o -), either byte order, read with the symbol sources above and
 * fed to a fold_perf.  Read with pread(2) and read(2) into 256 KiB chunks
 * (pipe mode streams; file mode through a pipe is read whole first).
 * Records are delivered in perf's order (sorted by time up to each
 * FINISHED_ROUND); memory grows with the threads, maps, symbols and
 * distinct stacks, and with the records of one round.
 *
 * What cannot be read right is refused with a message (the tool then
 * exits 1 writing nothing): --call-graph dwarf captures, zstd-compressed
 * records, AUX area traces, directory format, a header it cannot read.
 * Damaged data is reported ("prog: file: offset N: ...") and the rest
 * read; a file cut short is read up to the last whole record, with a
 * warning.  Names that would break a folded line (a newline in a command,
 * symbol or object name; an empty command) are made safe.
 */
enum {
	FOLD_PERFDATA_QUIET = 1,	/* no warnings */
	FOLD_PERFDATA_PROGRESS = 2,	/* progress on stderr (a terminal) */
	FOLD_PERFDATA_DEMANGLE = 4	/* names as perf script prints them,
					   not as --no-demangle */
};
struct fold_perfdata_opts {
	const char *buildid_dir;	/* NULL: perf's default */
	const char *symfs;		/* NULL: none */
	unsigned flags;
};
struct fold_perfdata;
/* 1 if the 8 bytes at p are perf.data's magic, in either byte order. */
int fold_perfdata_magic(const void *p, size_t n);
/* The reader; its symbol sources (files opened and indexed) are kept for
 * all the files it reads. */
struct fold_perfdata *fold_perfdata_new(const struct fold_perfdata_opts *o);
/* One perf.data input on fd into p, its first nhead (8 <= nhead <= 16)
 * bytes already read into head, which must have room for 16.  0; 1 after
 * an error (reported, the rest read); 2 when the file was refused
 * (reported, not read further: write no stacks, exit 1). */
int fold_perfdata_file(struct fold_perfdata *d, struct fold_perf *p, int fd,
    const char *name, unsigned char *head, size_t nhead);
void fold_perfdata_free(struct fold_perfdata *d);
/* Read a list of inputs ("-" or none: stdin), each perf.data or perf
 * script text by its first bytes.  1 if a perf.data input was refused. */
int fold_perf_run_any(struct fold_perf *p, const struct fold_perfdata_opts *o,
    int nfiles, char **files);
/* ---- demangle.c, demangle_cxx.c, demangle_rust.c: symbol demangling ---- */
/*
 * Demangle one symbol as GNU c++filt (libiberty, non-verbose, auto style)
 * prints it.  With FOLD_DM_PARAMS the output is that of `c++filt -i`
 * (function argument lists kept); without it, that of `c++filt -i -p`
 * (as perf script prints names).
 */
enum { FOLD_DM_PARAMS = 1 };
/* fold_demangle_cxx() only, for fold_demangle(): the shapes of its fast
 * path only, and not a symbol that could be a legacy Rust name; 0 for the
 * rest (the caller then goes on with Rust, and C++ without it). */
enum { FOLD_DM_QUICK = 2 };
/* The longest name written: a longer one is left mangled. */
#define FOLD_DM_MAXOUT 65536
/*
 * Demangle sym[0..len) into out (cap bytes, not NUL-terminated).  Returns
 * the length of the name, or 0 when the symbol is left as it is (not
 * mangled, malformed, over the limits, or it would not fit in cap).
 * Never allocates; bounded recursion; linear time.  fold_demangle() tries
 * Rust first (legacy Rust overlaps the C++ grammar), then C++.  No state is
 * kept between calls (callers cache per distinct symbol); the C++ side
 * uses about 150 KiB of stack (its tables), plus its recursion, bounded:
 * call it from threads with a stack of 1 MiB or more.  C++ symbols longer
 * than 1024 bytes are left as they are, as c++filt leaves them.
 */
size_t fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_rust(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_cxx(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);

#endif
