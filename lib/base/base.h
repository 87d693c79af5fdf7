/*
 * base.h - what every unit and tool stands on (lib/base/): the program's
 * name, messages and allocation (util.c), usage errors, --help and
 * --version (usage.c), the line reader (in.c), the stdout writer (out.c),
 * arenas, hashing and interning (arena.c, hash.c, intern.c), rankings
 * (sort.c), counts and numbers (count.c), patterns (regex.c), escaping
 * for the output formats (esc.c), decompression (inflate.c) and a second
 * thread (pair.c).  It uses libc only.
 *
 *  - Fatal: out of memory (the x*() allocators, fold_grow(): "prog: out of
 *    memory", exit 1), a write error on stdout (exit 1; a closed pipe exits
 *    0 quietly), a usage error (exit 2), --help and --version (exit 0),
 *    fold_die().  Nothing else here exits.
 *  - Lifetimes: a line from fold_in_line() is valid until the next
 *    fold_in_*() call (FOLD_IN_KEEP: a kept line until fold_in_free()); an
 *    interned string until fold_intern_free(), its id for the table's
 *    life; arena memory until fold_arena_free().  The writer owns one
 *    buffer for stdout; all output goes through it.
 */
#ifndef FOLD_BASE_H
#define FOLD_BASE_H

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
/* A file named on the command line, opened to be read: "-" is standard
 * input (*name "<stdin>"), else *name is arg.  Its descriptor, or -1
 * after "prog: name: why" on standard error. */
int fold_open_arg(const char *arg, const char **name);
/* The whole of file fd (name for messages): a regular file mapped from
 * where fd stands at offset 0 (*mapped 1), else read into a malloc'd
 * buffer; NULL after "prog: name: read error: why".  fold_unload() gives
 * it back. */
unsigned char *fold_load(int fd, const char *name, size_t *n, int *mapped);
void fold_unload(unsigned char *p, size_t n, int mapped);
/*
 * Regular file fd mapped to be read in place from where fd stands (moved
 * to the end), data[0..n) (off: its file offset), pad (<= a page) zero
 * bytes after it: 0, or -1 if it is not a regular file or cannot be.
 * fold_window_at(): a reader of data[from..end) (of n) at offset at, the
 * pages ahead read in (8 MB ahead, 4 MB at a time, in one call where the
 * system can: fold_populate()) and those behind lo <= at given back
 * (MADV_DONTNEED; read again, they come back from the file): memory does
 * not grow with it; fold_window_done() gives back all its whole pages.
 */
struct fold_padded {
	const char *data;
	size_t n, maplen;	/* maplen, map: private */
	uint64_t off;
	void *map;
};
int fold_map_padded(int fd, size_t pad, struct fold_padded *m);
void fold_unmap_padded(struct fold_padded *m);
void fold_populate(const void *p, size_t n);
struct fold_window { size_t filled, dropped, end; };	/* offsets */
void fold_window_init(struct fold_window *w, size_t from, size_t end);
void fold_window_at(const char *data, size_t n, struct fold_window *w,
    size_t lo, size_t at);
void fold_window_done(const char *data, struct fold_window *w);
/* Make the pages of [p, p + n) resident now, in one call where it can
 * (MADV_POPULATE_WRITE; else mlock(), munlock(), which stop other threads'
 * faults): a fault costs 2 to 10 us in a virtual machine, more than the
 * work done in a fresh array's page.  Best effort. */
void fold_prefault(void *p, size_t n);
/* Seconds since t0, a CLOCK_MONOTONIC time (struct timespec, <time.h>). */
struct timespec;
double fold_since(const struct timespec *t0);
/* Where to keep the keep bytes left at the front of a read buffer so that
 * read(2) lands on a 64-byte boundary (base + pad + keep): the kernel's copy
 * to a misaligned place is 1.7x (pipe) to 4x (file) slower on AMD EPYC; a
 * buffer needs FOLD_READ_ALIGN bytes of slack for it. */
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

/* The unsigned integer of n bytes (1 to 8) at p: big-endian if be, else
 * little-endian (binary formats of either byte order). */
static inline uint64_t
fold_getu(const unsigned char *p, int n, int be)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = be ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/* ---- usage.c: usage errors, --help, --version, option values ---------- */

/* The values of long options without a short letter start here (getopt's
 * letters are below). */
#define FOLD_OPT_FIRST 0x1000
/* Print "usage: ..." to stderr and exit 2. */
_Noreturn void fold_usage(const char *usage);
/* --help: "usage: USAGE" then HELP on stdout, exit 0 (1 if it cannot be
 * written); --version: "prog (foldkit) VERSION", exit 0. */
_Noreturn void fold_help(const char *usage, const char *help);
_Noreturn void fold_version(void);
/* Parse a non-negative decimal for option opt, or exit 2. */
uint64_t fold_opt_u64(const char *opt, const char *arg);
double fold_opt_pct(const char *opt, const char *arg);

/* ---- in.c: the line reader --------------------------------------------- */

/*
 * Reads the files of a list in order ("-" or an empty list is stdin) with
 * read(2) into one buffer and hands out lines without copying, valid until
 * the next fold_in_line(), without the '\n' (a '\r' before it is kept).
 * The buffer grows for a long line; a last line without a newline is
 * returned, nonl set.  A file that cannot be opened or read is reported
 * ("prog: name: error"), status 1, and the next file is read.
 * FOLD_IN_STREAM (default): lines dropped once used; files read, never
 * mapped (a fault a page: 70 against 23 ms of CPU for 95 MB, our VM).
 * FOLD_IN_WINDOW: the same, but a regular file (stdin too) is mapped, read
 * through a fold_window after its first line.  FOLD_IN_KEEP, for a caller
 * that keeps lines: a regular file is mapped, lines handed out from the
 * map (mapped 1); one kept (fold_in_keep() after it) stays valid until
 * fold_in_free(), so do the pages before it; pages behind with no kept line
 * are unmapped as reading goes on.  FOLD_IN_READ: never map.  hold
 * (WINDOW): set by a caller that uses lines after it reads on: pages from
 * hold on stay, maps stay until fold_in_free().
 */
enum { FOLD_IN_STREAM, FOLD_IN_KEEP, FOLD_IN_READ, FOLD_IN_WINDOW };
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
	uint64_t dataoff;	/* mapped: the file offset of data[0] */
	size_t dropped, kept;	/* map: unmapped or kept below dropped;
				   the end of the last line kept */
	struct fold_map { void *p; size_t len; } *maps;	/* unmapped at free */
	size_t nmaps, mapcap;
	struct fold_window win;	/* FOLD_IN_WINDOW: of data[0..end) */
	const char *hold;	/* see above; NULL: none */
	/* set by a caller that reports errors itself (from another thread,
	 * in order): called instead of fold_in_warn() */
	void (*onerr)(void *arg, const char *name, int err, int isread);
	void *onerr_arg;
};

void fold_in_init(struct fold_in *in, int nfiles, char **files);
/* The message of an open (isread 0) or read error of file name (which is
 * a list's entry or "<stdin>": valid as long as the list). */
void fold_in_warn(const char *name, int err, int isread);
/* An error: status 1, then onerr() or fold_in_warn(). */
void fold_in_error(struct fold_in *in, const char *name, int err,
    int isread);
/* 1: a line in *line, *len; 0: end of all input. */
int fold_in_line(struct fold_in *in, const char **line, size_t *len);
/* For callers that scan many lines in one pass: the unread bytes in the
 * buffer after the last line returned (nothing read), valid until the next
 * fold_in_*() call; fold_in_take() consumes the first n, nlines whole
 * lines, and fold_in_line() goes on after them. */
size_t fold_in_buffered(const struct fold_in *in, const char **p);
void fold_in_take(struct fold_in *in, size_t n, unsigned long long nlines);
/* FOLD_IN_KEEP: the last line returned is kept (see above). */
void fold_in_keep(struct fold_in *in);
void fold_in_free(struct fold_in *in);
/* A look ahead, nothing consumed: the line *off bytes into the current
 * file's unread data (the first file opened if none is), *off moved past
 * it, valid until the next fold_in_*() call; 0 at the file's end.  From
 * *off = 0 on, the lines the next fold_in_line() calls return. */
int fold_in_peek(struct fold_in *in, size_t *off, const char **line,
    size_t *len);

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
/* Output that may be taken back: fo_seekable() is 1 if stdout is a regular
 * file (*start: where this output begins) or /dev/null (*start -1);
 * fo_rewind(start) then drops what is buffered, truncates the file back. */
int fo_seekable(int64_t *start);
void fo_rewind(int64_t start);
/* All of p[0..n) written to fd at offset off (-1: where fd stands); 0, or
 * the errno of the failure (ENOSPC: nothing written); no exit. */
int fold_write_all(int fd, const void *p, size_t n, int64_t off);
/* Parts of the output written at once by threads, each at its offset:
 * fo_at_begin() flushes, then 1 if stdout takes writes at offsets (a
 * regular file not opened to append, /dev/null), *start where the output
 * goes on.  A part: fo_at_init(w, off); fo_at_room(), fo_at_wrote() as
 * fo_room(), fo_wrote() (room for any n); fo_at_flush() at its end, then
 * w->err is the errno of a failed write (else 0; the caller says it);
 * fo_at_free().  fo_at_done(end): stdout's offset put at end. */
struct fo_at { char *buf; size_t n, cap; int64_t off; int err; };
int fo_at_begin(int64_t *start);
void fo_at_init(struct fo_at *w, int64_t off);
char *fo_at_more(struct fo_at *w, size_t n);	/* fo_at_room()'s flush */
static inline char *fo_at_room(struct fo_at *w, size_t n)
{ return n <= w->cap - w->n ? w->buf + w->n : fo_at_more(w, n); }
static inline void fo_at_wrote(struct fo_at *w, const char *end)
{ w->n = (size_t)(end - w->buf); }
void fo_at_flush(struct fo_at *w);
void fo_at_free(struct fo_at *w);
void fo_at_done(int64_t end);

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
struct fold_str { const char *s; size_t len; };
struct fold_slot {
	uint64_t h;		/* full hash */
	const char *s;		/* NULL: empty; else the string (intern.c) */
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
/* A hint that *p will be read soon (no effect where not supported).  For a
 * batch of lookups: fold_intern_prefetch() for each hash (the slot), then
 * fold_intern_prefetch_str() for each (the string a slot may hold), then
 * the lookups: their cache misses overlap instead of coming one by one. */
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
/* The same for strings held by the caller: ids index strs. */
void fold_sort_strs(uint32_t *ids, size_t n, const struct fold_str *strs);
/* ids sorted by key[id], largest first; stable, so ids already in name
 * order end up ranked by key, then name. */
void fold_sort_desc(uint32_t *ids, size_t n, const uint64_t *key);
/* Reverse an array of ids in place (-r on a ranking). */
void fold_reverse_ids(uint32_t *ids, size_t n);

/* ---- count.c: sample counts -------------------------------------------- */

/* A count: an exact unsigned 64-bit integer, plus a fractional part for
 * inputs with decimal counts; fold_num_add() never wraps. */
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
/* What is wrong with a count or a folded line (fold_errstr() in folded.h). */
enum {
	FOLD_OK = 0,
	FOLD_BLANK,		/* empty or blank line: skipped, not an error */
	FOLD_ECOUNT,		/* no count after the stack */
	FOLD_ENEG,		/* negative count */
	FOLD_EBIG,		/* count larger than 2^64 - 1 */
	FOLD_EEMPTY,		/* count but no stack */
	FOLD_EOVERFLOW		/* sum of counts larger than 2^64 - 1 */
};
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
/* Compare counts (as doubles when frac). */
int fold_num_cmp(fold_num a, fold_num b, int frac);

/* ---- regex.c: patterns ------------------------------------------------- */

/* POSIX extended regular expressions, with Perl's \w \W \d \D \s \S (as
 * bracket expressions), or fixed strings, matched on byte strings with a
 * length (copied with a NUL: a NUL byte ends a subject for the engine). */
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

/* The UTF-8 character at s (n > 0 bytes): its length, its code point in
 * *cp; an invalid, overlong, surrogate or truncated sequence is one byte
 * long, *cp the byte and *bad 1 (else *bad 0). */
size_t fold_utf8_char(const unsigned char *s, size_t n, uint32_t *cp,
    int *bad);
void fo_json_str(const char *s, size_t len);	/* "..." valid JSON text */
void fo_csv_field(const char *s, size_t len);	/* RFC 4180 quoting */
void fo_tsv_field(const char *s, size_t len);	/* \t \n \r \\ escaped */

/* ---- pair.c: a second thread for the phases of a run ------------------ */

/*
 * A thread besides the caller's, made once and handed jobs in turn: one
 * made a phase cost 0.02 to 0.1 ms, and stalled the caller 1 to 4 ms when
 * it ran first on the caller's processor.  fold_pair_new(): NULL if no thread
 * can be made.  fold_pair_start(): fn(arg) begins there (after the job
 * before was waited for); fold_pair_wait(): it is done.  fold_pair_both():
 * fn(a1) there, fn(a0) here, both done on return (p NULL: both here, in
 * turn).  fold_pair_free() waits for a job not waited for (p NULL: none).
 */
struct fold_pair;
struct fold_pair *fold_pair_new(void);
void fold_pair_start(struct fold_pair *p, void *(*fn)(void *), void *arg);
void fold_pair_wait(struct fold_pair *p);
void fold_pair_both(struct fold_pair *p, void *(*fn)(void *), void *a0,
    void *a1);
void fold_pair_free(struct fold_pair *p);

/* ---- inflate.c: DEFLATE, zlib and gzip streams ------------------------- */

/*
 * A whole zlib (RFC 1950), raw DEFLATE (RFC 1951) or gzip stream (RFC
 * 1952: members as gzip -c a b writes them, zero bytes may follow) held in
 * memory, untrusted.  fold_inflate(): in[0..n) to out[0..cap), the bytes
 * written, or (size_t)-1 with *why a static message ("bad block type",
 * "distance too far back", "bad checksum", "truncated input", ...); out
 * past them may be written.  kind: _RAW, _ZLIB, _GZIP, or _AUTO (gzip if
 * 1f 8b, zlib if its 2-byte header checks, else raw).  Checksums verified
 * (adler32, crc32 and ISIZE, a gzip header's crc16), code length sets
 * checked as zlib does.  No allocation; work and stack (20 KB) bounded.
 * fold_inflate_alloc(): into a malloc'd buffer grown up to max bytes
 * (*outlen its length), NULL with *why on error (out of memory: fatal).
 */
enum { FOLD_INFLATE_RAW, FOLD_INFLATE_ZLIB, FOLD_INFLATE_GZIP, FOLD_INFLATE_AUTO };
size_t fold_inflate(const unsigned char *in, size_t n, unsigned char *out,
    size_t cap, int kind, const char **why);
unsigned char *fold_inflate_alloc(const unsigned char *in, size_t n,
    size_t max, int kind, size_t *outlen, const char **why);

#endif
