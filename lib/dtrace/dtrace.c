/* dtrace.c - DTrace and bpftrace aggregated stacks to folded stacks. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"
#include "dtrace/dtrace.h"
#include "symbols/symbols.h"

/*
 * States.  PRE: the start of an input, where headers and messages are
 * skipped.  IDLE: between records.  DT: in a DTrace record (frames seen, no
 * count yet).  BT: in a bpftrace record (after "@[", before "]: N").
 */
enum { S_PRE, S_IDLE, S_DT, S_BT };

/*
 * A record is built as its key: the cleaned frames in input order (leaf
 * first), each followed by '\n' (no name holds one), then the bpftrace key
 * fields.  Appending lets a frame line be scanned once, front to back: the
 * blanks skipped, the bytes copied and checked for what needs more work
 * while looking for the newline (see frames()).  The key is looked up
 * once per record in stacks; the first time a key is seen its folded text
 * (root first, ';' between names) is built and interned in texts, where the
 * counts are kept.  Keys that spell the same text share its count.
 */
struct fold_dtrace_st {
	unsigned flags;
	int state;
	int btmode;			/* this input had bpftrace map output */
	const char *rec_file;		/* where the open record began */
	unsigned long long rec_line;
	size_t nframes;			/* frame lines in the open record */
	char *fb;			/* the key of the open record */
	size_t fcap, flen;
	char *kb;			/* bpftrace scalar key fields, joined */
	size_t kcap, klen;
	char *tmp;			/* demangling scratch, text building */
	size_t tcap;
	struct fold_intern stacks;	/* record keys */
	uint32_t *text;			/* by key id: its id in texts */
	size_t textcap;
	struct fold_intern texts;	/* folded stacks */
	uint64_t *counts;		/* by text id */
	size_t ccap;
	uint64_t unrec;			/* unrecognized lines */
	const char *unrec_file;
	unsigned long long unrec_line;
	uint64_t overflows;		/* records dropped: count too large */
};

/* Byte classes: Perl's \s (space, \t \n \v \f \r), digits, hex digits. */
enum { C_SP = 1, C_DIG = 2, C_HEX = 4 };
#define D (C_DIG | C_HEX)
static const unsigned char cls[256] = {
	['\t'] = C_SP, ['\n'] = C_SP, ['\v'] = C_SP, ['\f'] = C_SP,
	['\r'] = C_SP, [' '] = C_SP,
	['0'] = D, ['1'] = D, ['2'] = D, ['3'] = D, ['4'] = D,
	['5'] = D, ['6'] = D, ['7'] = D, ['8'] = D, ['9'] = D,
	['a'] = C_HEX, ['b'] = C_HEX, ['c'] = C_HEX, ['d'] = C_HEX,
	['e'] = C_HEX, ['f'] = C_HEX, ['A'] = C_HEX, ['B'] = C_HEX,
	['C'] = C_HEX, ['D'] = C_HEX, ['E'] = C_HEX, ['F'] = C_HEX,
};
#undef D

static inline int
issp(unsigned char c)
{
	return cls[c] & C_SP;
}

static inline int
isdig(unsigned char c)
{
	return cls[c] & C_DIG;
}

static inline int
isxdig(unsigned char c)
{
	return cls[c] & C_HEX;
}

struct fold_dtrace *
fold_dtrace_new(unsigned flags)
{
	struct fold_dtrace *d = xcalloc(1, sizeof(*d));
	struct fold_dtrace_st *st = xcalloc(1, sizeof(*st));

	d->st = st;
	d->file = "<stdin>";
	st->flags = flags;
	st->state = S_PRE;
	st->fcap = 4096;
	st->fb = xmalloc(st->fcap);
	fold_intern_init(&st->stacks);
	fold_intern_init(&st->texts);
	return d;
}

/* ---- the record key: frames appended, leaf first ---------------------- */

/* Room for n more bytes and a '\n' in the key. */
static inline void
room(struct fold_dtrace_st *st, size_t n)
{
	if (n + 1 > st->fcap - st->flen) {
		if (n + 1 > ((size_t)-1) / 2 - st->flen)
			fold_die(1, "out of memory");
		fold_grow(&st->fb, &st->fcap, st->flen + n + 1, 1);
	}
}

/* The n bytes of the next name, ended by its '\n'. */
static char *
put(struct fold_dtrace_st *st, size_t n)
{
	char *o;

	room(st, n);
	o = st->fb + st->flen;
	st->flen += n;
	st->fb[st->flen++] = '\n';
	return o;
}

static void
start_record(struct fold_dtrace *d, int state)
{
	struct fold_dtrace_st *st = d->st;

	st->state = state;
	st->flen = 0;
	st->klen = 0;
	st->nframes = 0;
	st->rec_file = d->file;
	st->rec_line = d->lineno;
}

/* ---- frames ------------------------------------------------------------ */

#define ONES 0x0101010101010101ULL

static inline uint64_t
load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Length of f without a trailing offset: "+0x" and hex digits, or '+' and
 * decimal digits (bpftrace). */
static size_t
cut_offset(const char *f, size_t len)
{
	size_t j = len, k;

	while (j > 0 && isxdig((unsigned char)f[j - 1]))
		j--;
	if (j == len)
		return len;
	if (j >= 3 && (f[j - 1] | 0x20) == 'x' && f[j - 2] == '0' &&
	    f[j - 3] == '+')
		return j - 3;
	if (j >= 1 && f[j - 1] == '+') {
		for (k = j; k < len && isdig((unsigned char)f[k]); k++)
			;
		if (k == len)
			return j - 1;
	}
	return len;
}

/* C++: from the first "::", cut at the last '(' or '<' after it. */
static size_t
cut_cpp(const char *f, size_t len)
{
	const char *p = f, *end = f + len, *q;

	for (;;) {
		p = memchr(p, ':', (size_t)(end - p));
		if (p == NULL || p + 1 >= end)
			return len;
		if (p[1] == ':')
			break;
		p++;
	}
	for (q = end; q > p + 2; q--)
		if (q[-1] == '(' || q[-1] == '<')
			return (size_t)(q - 1 - f);
	return len;
}

/* Copy n bytes, ';' turned into ':' (';' separates frames). */
static void
copy_semi(char *o, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		o[k] = s[k] == ';' ? ':' : s[k];
}

/* Find "->" in f[from..len): its index, or len. */
static size_t
find_arrow(const char *f, size_t from, size_t len)
{
	const char *p;

	while (from + 1 < len) {
		p = memchr(f + from, '-', len - 1 - from);
		if (p == NULL)
			return len;
		from = (size_t)(p - f);
		if (f[from + 1] == '>')
			return from;
		from++;
	}
	return len;
}

/* Put one frame line: split on "->" (Java inlining: pieces after the first
 * get _[i]), ';' to ':', one leading 'L' dropped per piece. */
static void
put_pieces(struct fold_dtrace_st *st, const char *f, size_t len)
{
	size_t a, b, out, n, np;
	char *o;

	/* Perl's split drops trailing empty fields. */
	while (len >= 2 && f[len - 2] == '-' && f[len - 1] == '>')
		len -= 2;
	if (len == 0)
		return;
	b = find_arrow(f, 0, len);
	if (b == len) {		/* the usual case: one piece */
		if (f[0] == 'L') {
			f++;
			len--;
		}
		o = put(st, len);
		if (memchr(f, ';', len) != NULL)
			copy_semi(o, f, len);
		else
			memcpy(o, f, len);
		return;
	}
	/* Size first, then write. */
	for (out = 0, np = 0, a = 0;; np++) {
		b = find_arrow(f, a, len);
		n = b - a;
		if (n > 0 && f[a] == 'L')
			n--;
		out += n + (np > 0 ? 5 : 0);	/* ";" and "_[i]" */
		if (b == len)
			break;
		a = b + 2;
	}
	o = put(st, out);
	for (np = 0, a = 0;; np++) {
		b = find_arrow(f, a, len);
		if (np > 0)
			*o++ = ';';
		n = b - a;
		if (n > 0 && f[a] == 'L') {
			a++;
			n--;
		}
		copy_semi(o, f + a, n);
		o += n;
		if (np > 0) {
			memcpy(o, "_[i]", 4);
			o += 4;
		}
		if (b == len)
			break;
		a = b + 2;
	}
}

/*
 * --demangle: 1 if the frame was a mangled name, put demangled.  C++ names
 * (_Z...) are written without their argument lists, as c++filt -p and perf
 * print them (and as the names DTrace demangles itself look once cut);
 * Rust names, legacy or v0, as c++filt prints them.  macOS's extra leading
 * '_' is taken off, and Rust names split by DTrace's C++ demangler ("a::b::
 * h<hash>", see fold_rust_remangle()) are mangled again to drop the hash.
 */
static int
put_demangled(struct fold_dtrace_st *st, const char *f, size_t len)
{
	size_t k = len, m, n = 0;
	const char *s;
	char *o;

	while (k > 0 && f[k - 1] != '`')	/* module`symbol */
		k--;
	s = f + k;
	m = len - k;
	if (m < 4)
		return 0;
	if (s[0] == '_' && s[1] == '_' && (s[2] == 'R' || s[2] == 'Z')) {
		s++;
		m--;
	}
	fold_grow(&st->tmp, &st->tcap, FOLD_DM_MAXOUT + 12 * m + 32, 1);
	if (s[0] == '_' && (s[1] == 'R' || s[1] == 'Z' || s[1] == 'G')) {
		n = fold_demangle_rust(s, m, st->tmp, FOLD_DM_MAXOUT,
		    FOLD_DM_PARAMS);
		if (n == 0)
			n = fold_demangle_cxx(s, m, st->tmp, FOLD_DM_MAXOUT, 0);
	} else if ((m = fold_rust_remangle(s, m, st->tmp + FOLD_DM_MAXOUT)) > 0)
		n = fold_demangle_rust(st->tmp + FOLD_DM_MAXOUT, m, st->tmp,
		    FOLD_DM_MAXOUT, FOLD_DM_PARAMS);
	if (n == 0)
		return 0;
	o = put(st, k + n);
	copy_semi(o, f, k);
	copy_semi(o + k, st->tmp, n);
	return 1;
}

/* A frame line, leading blanks removed. */
static void
add_frame(struct fold_dtrace_st *st, const char *f, size_t len)
{
	int leaf = st->nframes++ == 0;

	if (!(st->flags & FOLD_DTRACE_OFFSET) || leaf)
		len = cut_offset(f, len);
	if ((st->flags & FOLD_DTRACE_DEMANGLE) && put_demangled(st, f, len))
		return;
	len = cut_cpp(f, len);
	if (len == 0) {
		f = "-";
		len = 1;
	}
	put_pieces(st, f, len);
}

/* ---- records ----------------------------------------------------------- */

/* A count: digits, then blanks only.  1: *v set; 0: not a count; -1: a
 * count larger than 2^64 - 1. */
static int
parse_count(const char *s, size_t len, uint64_t *v)
{
	size_t i = 0;
	uint64_t x = 0;
	int big = 0;
	unsigned dg;

	if (len == 0 || !isdig((unsigned char)s[0]))
		return 0;
	for (; i < len && isdig((unsigned char)s[i]); i++) {
		dg = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - dg) / 10)
			big = 1;
		else
			x = x * 10 + dg;
	}
	for (; i < len; i++)
		if (!issp((unsigned char)s[i]))
			return 0;
	*v = x;
	return big ? -1 : 1;
}

static void
too_big(struct fold_dtrace *d, const char *what)
{
	struct fold_dtrace_st *st = d->st;

	if (st->overflows++ == 0)
		fold_warn("%s:%llu: %s larger than 18446744073709551615; "
		    "record dropped", d->file, d->lineno, what);
	d->status = 1;
}

/* The folded text of the open record's key into st->tmp: its length. */
static size_t
key_text(struct fold_dtrace_st *st)
{
	const char *k = st->fb, *e = st->fb + st->flen, *a;
	char *o;

	if (st->flen == 0)
		return 0;
	if (st->tcap < st->flen)
		fold_grow(&st->tmp, &st->tcap, st->flen, 1);
	/* The names leaf first, each ending in '\n', are written from the
	 * end, with ';' between them: flen - 1 bytes. */
	o = st->tmp + st->flen - 1;
	while (k < e) {
		a = k;
		k = memchr(k, '\n', (size_t)(e - k));
		o -= k - a;
		memcpy(o, a, (size_t)(k - a));
		if (++k < e)
			*--o = ';';
	}
	return st->flen - 1;
}

/* Only spaces and tabs, or nothing. */
static int
blank(const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (s[k] != ' ' && s[k] != '\t')
			return 0;
	return 1;
}

/* The count line of the open record: look its stack up once, add. */
static void
close_record(struct fold_dtrace *d, int r, uint64_t count)
{
	struct fold_dtrace_st *st = d->st;
	const char *s;
	size_t len;
	uint32_t id;
	int isnew;

	st->state = S_IDLE;
	if (r < 0) {
		too_big(d, "count");
		return;
	}
	if (st->klen > 0)	/* bpftrace scalar keys: the root frames */
		memcpy(put(st, st->klen), st->kb, st->klen);
	id = fold_intern(&st->stacks, st->fb, st->flen, &isnew);
	if (isnew) {
		len = key_text(st);
		s = st->tmp;
		if (blank(s, len)) {
			/* no frame, or only blank ones ("L  "): a folded
			 * reader could not read it back */
			s = "-";
			len = 1;
		}
		fold_grow(&st->text, &st->textcap, (size_t)id + 1,
		    sizeof(*st->text));
		st->text[id] = fold_intern(&st->texts, s, len, NULL);
	}
	id = st->text[id];
	if (id >= st->ccap)
		fold_grow(&st->counts, &st->ccap, (size_t)id + 1,
		    sizeof(*st->counts));
	if (st->counts[id] > UINT64_MAX - count) {
		too_big(d, "sum of counts");
		return;
	}
	st->counts[id] += count;
}

static void
unrecognized(struct fold_dtrace *d)
{
	struct fold_dtrace_st *st = d->st;

	if (st->flags & FOLD_DTRACE_STRICT)
		fold_die(1, "%s:%llu: unrecognized line", d->file, d->lineno);
	if (st->unrec++ == 0) {
		st->unrec_file = d->file;
		st->unrec_line = d->lineno;
	}
}

/* A record without its count: dropped, with a warning. */
static void
truncated(struct fold_dtrace *d, const char *why)
{
	struct fold_dtrace_st *st = d->st;

	st->state = S_IDLE;
	if (st->flags & FOLD_DTRACE_STRICT)
		fold_die(1, "%s:%llu: record without a count (%s)",
		    st->rec_file, st->rec_line, why);
	if (!(st->flags & FOLD_DTRACE_QUIET))
		fold_warn("%s:%llu: record without a count (%s); dropped",
		    st->rec_file, st->rec_line, why);
}

/* Scalar key fields of a bpftrace record ("comm, pid, "): root frames. */
static void
add_keys(struct fold_dtrace_st *st, const char *s, size_t len)
{
	size_t a = 0, b, e;

	while (a < len) {
		for (b = a; b < len && s[b] != ','; b++)
			;
		for (e = b; e > a && issp((unsigned char)s[e - 1]); e--)
			;
		while (a < e && issp((unsigned char)s[a]))
			a++;
		if (e > a) {
			fold_grow(&st->kb, &st->kcap, st->klen + (e - a) + 1, 1);
			if (st->klen > 0)
				st->kb[st->klen++] = ';';
			copy_semi(st->kb + st->klen, s + a, e - a);
			st->klen += e - a;
		}
		a = b + 1;
	}
}

/* Index of "]:" in s, or len. */
static size_t
find_close(const char *s, size_t len)
{
	const char *p = s;

	while ((p = memchr(p, ']', len - (size_t)(p - s))) != NULL) {
		if ((size_t)(p - s) + 1 < len && p[1] == ':')
			return (size_t)(p - s);
		p++;
	}
	return len;
}

/* A line starting with '@': 1 if it is bpftrace map output. */
static int
bt_map(struct fold_dtrace *d, const char *s, size_t len)
{
	struct fold_dtrace_st *st = d->st;
	size_t i = 1;

	while (i < len && (s[i] == '_' || isdig((unsigned char)s[i]) ||
	    ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')))
		i++;
	if (i >= len || (s[i] != '[' && s[i] != ':'))
		return 0;
	if (st->state == S_DT)
		truncated(d, "a bpftrace map follows");
	st->btmode = 1;
	st->state = S_IDLE;
	if (s[i] == ':' || find_close(s, len) < len)
		return 1;	/* @name: value, @name[key]: value: no stack */
	start_record(d, S_BT);
	add_keys(st, s + i + 1, len - i - 1);
	return 1;
}

/* A line inside a bpftrace record, blanks at [0, i). */
static void
bt_line(struct fold_dtrace *d, const char *s, size_t len, size_t i)
{
	struct fold_dtrace_st *st = d->st;
	size_t c;
	uint64_t v;
	int r;

	if (i == len)
		return;
	if (i > 0) {
		add_frame(st, s + i, len - i);
		return;
	}
	if (s[0] == '@') {
		truncated(d, "a bpftrace map follows");
		bt_map(d, s, len);
		return;
	}
	if (s[0] != ',' && s[0] != ']') {
		unrecognized(d);
		return;
	}
	c = find_close(s, len);
	add_keys(st, s + (s[0] == ','), c - (s[0] == ','));
	if (c == len)
		return;		/* ", " between two keys */
	for (c += 2; c < len && issp((unsigned char)s[c]); c++)
		;
	r = parse_count(s + c, len - c, &v);
	if (r == 0) {		/* hist(), stats(): not a count */
		st->state = S_IDLE;
		unrecognized(d);
		return;
	}
	close_record(d, r, v);
}

/* Lines before the first record that are not stacks: the dtrace header
 * ("CPU ID FUNCTION:NAME" and probe lines), messages, bpftrace's
 * "Attaching N probes...", text from BEGIN probes. */
static int
preamble(const char *s, size_t len, size_t i)
{
	size_t k;

	if (i == 0)
		return memchr(s, ' ', len) != NULL ||
		    memchr(s, '\t', len) != NULL ||
		    (len == 2 && s[0] == '^' && s[1] == 'C');
	/* "  0  64091    :tick-60s": CPU, probe id, probe */
	for (k = i; k < len && isdig((unsigned char)s[k]); k++)
		;
	if (k == i || k == len || !issp((unsigned char)s[k]))
		return 0;
	while (k < len && issp((unsigned char)s[k]))
		k++;
	i = k;
	while (k < len && isdig((unsigned char)s[k]))
		k++;
	if (k == i || k == len || !issp((unsigned char)s[k]))
		return 0;
	while (k < len && issp((unsigned char)s[k]))
		k++;
	return k < len;
}

static inline void
one_line(struct fold_dtrace *d, const char *s, size_t len)
{
	struct fold_dtrace_st *st = d->st;
	size_t i = 0;
	uint64_t v, w;
	int r;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	while (i + 8 <= len) {	/* frames are indented by 14 spaces */
		w = load64(s + i) ^ (ONES * ' ');
		if (w == 0) {
			i += 8;
			continue;
		}
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		i += (size_t)__builtin_ctzll(w) / 8;
#endif
		break;
	}
	while (i < len && issp((unsigned char)s[i]))
		i++;
	if (st->state == S_BT) {
		bt_line(d, s, len, i);
		return;
	}
	if (i == len)
		return;		/* blank: also between kernel and user stacks */
	if (st->state != S_DT && st->btmode && !(i == 0 && s[0] == '@'))
		return;		/* text between bpftrace maps */
	if (isdig((unsigned char)s[i]) &&
	    (r = parse_count(s + i, len - i, &v)) != 0) {
		if (st->state != S_DT)
			start_record(d, S_DT);
		close_record(d, r, v);
		return;
	}
	if (i == 0 && s[0] == '@' && bt_map(d, s, len))
		return;
	if (st->state == S_PRE && preamble(s, len, i))
		return;
	if (st->state != S_DT)
		start_record(d, S_DT);
	add_frame(st, s + i, len - i);
}

void
fold_dtrace_line(struct fold_dtrace *d, const char *s, size_t len)
{
	one_line(d, s, len);
}

void
fold_dtrace_eof(struct fold_dtrace *d)
{
	struct fold_dtrace_st *st = d->st;

	if (st->state == S_DT || st->state == S_BT)
		truncated(d, "input ends");
	st->state = S_PRE;
	st->btmode = 0;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Nonzero if some byte of w is c: the lowest such byte (in memory order on
 * a little-endian machine) is exact, bytes above it may be false hits. */
static inline uint64_t
hasbyte(uint64_t w, unsigned char c)
{
	w ^= ONES * c;
	return (w - ONES) & ~w & (ONES << 7);
}

/* The bytes that end the usual frame: '\n', and ':' ';' '-', which need
 * more work (':' is 0x3a, ';' 0x3b: one test for both). */
static inline uint64_t
stops(uint64_t w)
{
	return hasbyte(w, '\n') | hasbyte(w | ONES, ';') | hasbyte(w, '-');
}

/* Copy 32 bytes from s to o; a bit for each byte that stops() finds. */
#ifdef __SSE2__
static inline uint64_t
copy32(char *o, const char *s)
{
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
	__m128i nl = _mm_set1_epi8('\n'), semi = _mm_set1_epi8(';');
	__m128i dash = _mm_set1_epi8('-'), one = _mm_set1_epi8(1);

	_mm_storeu_si128((__m128i *)(void *)o, a);
	_mm_storeu_si128((__m128i *)(void *)(o + 16), b);
	a = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(a, nl),
	    _mm_cmpeq_epi8(a, dash)), _mm_cmpeq_epi8(_mm_or_si128(a, one), semi));
	b = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, nl),
	    _mm_cmpeq_epi8(b, dash)), _mm_cmpeq_epi8(_mm_or_si128(b, one), semi));
	return (uint64_t)(unsigned)_mm_movemask_epi8(a) |
	    (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16;
}
#else
/* The bits of a hasbyte() mask, one per byte, as the low eight bits (the
 * products do not overlap, so nothing carries). */
static inline uint64_t
gather(uint64_t m)
{
	return (m >> 7) * 0x0102040810204080ULL >> 56;
}

static inline uint64_t
copy32(char *o, const char *s)
{
	uint64_t w, m;

	w = load64(s);
	memcpy(o, &w, 8);
	m = gather(stops(w));
	w = load64(s + 8);
	memcpy(o + 8, &w, 8);
	m |= gather(stops(w)) << 8;
	w = load64(s + 16);
	memcpy(o + 16, &w, 8);
	m |= gather(stops(w)) << 16;
	w = load64(s + 24);
	memcpy(o + 24, &w, 8);
	return m | gather(stops(w)) << 24;
}
#endif

/*
 * cut_offset() for a frame at f with blanks before it from lo on: the last
 * bytes classified at once, the usual "+0x" checked.  The bytes at [lo, f)
 * are not hex digits, so they end a run of them as well as f does.
 */
#ifdef __SSE2__
static inline size_t
cut_offset_fast(const char *f, size_t len, const char *lo)
{
	__m128i x, y;
	unsigned other;
	size_t j;

	if ((size_t)(f - lo) + len < 16)
		return cut_offset(f, len);
	x = _mm_loadu_si128((const __m128i *)(const void *)(f + len - 16));
	y = _mm_or_si128(x, _mm_set1_epi8(0x20));
	/* signed compares: bytes past 0x7f are below '0' */
	x = _mm_or_si128(_mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
	    _mm_cmpgt_epi8(_mm_set1_epi8('9' + 1), x)),
	    _mm_and_si128(_mm_cmpgt_epi8(y, _mm_set1_epi8('a' - 1)),
	    _mm_cmpgt_epi8(_mm_set1_epi8('f' + 1), y)));
	other = ~(unsigned)_mm_movemask_epi8(x) & 0xffff;
	if (other == 0)
		return cut_offset(f, len);	/* sixteen or more */
	/* The hex digits at the end: after the last other byte. */
	j = len - 16 + (size_t)(32 - __builtin_clz(other));
#else
static inline size_t
cut_offset_fast(const char *f, size_t len, const char *lo)
{
	uint64_t w, t, u, hex, H = ONES << 7;
	size_t j;

	if ((size_t)(f - lo) + len < 8)
		return cut_offset(f, len);
	w = load64(f + len - 8);
	t = w & ~H;
	u = t | (ONES * 0x20);
	hex = (((t + ONES * 0x50) & ~(t + ONES * 0x46)) |	/* 0-9 */
	    ((u + ONES * 0x1f) & ~(u + ONES * 0x19))) & ~w & H;	/* a-f */
	if (hex == H)
		return cut_offset(f, len);	/* eight or more */
	/* The last byte is the most significant: count hex digits at the end. */
	j = len - (size_t)__builtin_clzll(~hex & H) / 8;
#endif
	if (j == len)
		return len;
	if (j >= 3 && (f[j - 1] | 0x20) == 'x' && f[j - 2] == '0' &&
	    f[j - 3] == '+')
		return j - 3;
	return cut_offset(f, len);
}

/*
 * The frame lines from p on, in a record or starting one, while they are
 * of the usual kind: what one_line() does with them, in one pass each.  The
 * blanks are skipped eight at a time, then the bytes are copied to the key
 * 32 at a time (SSE2, or eight at a time) while looking for the newline and
 * for ':' ';' '-', which need more work; the offset is cut by classifying
 * the last bytes at once.  Stops at a line of another kind (a count, a
 * blank, "-", a leading 'L', one of ':' ';' '-': left to one_line()), or
 * one whose newline is not before end; returns where it stopped.  *lineno
 * is the number of the line before p, and is advanced.
 */
static const char *
frames(struct fold_dtrace *d, const char *p, const char *end,
    unsigned long long *lineno)
{
	struct fold_dtrace_st *st = d->st;
	int bt = st->state == S_BT, idle = st->state == S_IDLE;
	int alloff = !(st->flags & FOLD_DTRACE_OFFSET);
	char *fb = st->fb;
	size_t flen = idle ? 0 : st->flen, fcap = st->fcap;
	size_t nf = idle ? 0 : st->nframes;
	size_t j, len, n;
	const char *s;
	uint64_t w, m;
	unsigned char c;

	for (;; p = s + j + 1) {
		for (s = p;; s += 8) {	/* frames are indented by 14 spaces */
			if (end - s < 8)
				goto out;
			w = load64(s) ^ (ONES * ' ');
			if (w != 0)
				break;
		}
		s += (size_t)__builtin_ctzll(w) / 8;
		c = (unsigned char)*s;
		if (issp(c) || c == 'L' || (bt ? s == p :
		    isdig(c) || (s == p && c == '@')))
			goto out;	/* blank, a count, '@': not a frame */
		if (end - s < 32)
			goto out;
		if (fcap - flen < 64) {
			st->flen = flen;
			room(st, 64);
			fb = st->fb;
			fcap = st->fcap;
		}
		/*
		 * The first byte that is '\n' or one of ':' ';' '-'.  Most
		 * frames end in the first 32 bytes: no branch on where.
		 */
		m = copy32(fb + flen, s);
		if (m != 0)
			j = (size_t)__builtin_ctzll(m);
		else {
			for (j = 32;; j += 8) {
				if ((size_t)(end - s) < j + 8)
					goto out;
				if (j + 8 > fcap - flen) {
					st->flen = flen;
					room(st, j + 8);
					fb = st->fb;
					fcap = st->fcap;
				}
				w = load64(s + j);
				memcpy(fb + flen + j, &w, 8);
				if ((m = stops(w)) != 0)
					break;
			}
			j += (size_t)__builtin_ctzll(m) / 8;
		}
		if (s[j] != '\n')
			goto out;	/* ':' ';' '-': add_frame() */
		len = j;
		if (s[len - 1] == '\r')	/* len >= 1: s[0] is not a blank */
			len--;
		n = alloff || nf == 0 ? cut_offset_fast(s, len, p) : len;
		if (n == 0)
			goto out;	/* the frame is "-" */
		if (idle) {	/* this line starts a record */
			d->lineno = *lineno + 1;
			start_record(d, S_DT);
			idle = 0;
		}
		nf++;		/* the frame as it is: already in place */
		flen += n;
		fb[flen++] = '\n';
		++*lineno;
	}
out:
	if (!idle) {
		st->flen = flen;
		st->nframes = nf;
	}
	return p;
}
#define FRAME_FAST 1
#endif

/*
 * The lines after the one fold_in_line() just returned that are whole in
 * its buffer (fold_in_buffered()): taken from there, so that a frame line
 * is scanned once.  fold_in_line() goes on after them.
 */
static void
run_buffer(struct fold_dtrace *d, struct fold_in *in)
{
	const char *start, *p, *end, *nl;
	unsigned long long lineno = in->lineno;
#ifdef FRAME_FAST
	struct fold_dtrace_st *st = d->st;
#endif
	size_t n = fold_in_buffered(in, &start);

	end = start + n;
	p = start;
	while (p < end) {
#ifdef FRAME_FAST
		if ((st->state == S_DT || st->state == S_BT ||
		    (st->state == S_IDLE && !st->btmode)) &&
		    !(st->flags & FOLD_DTRACE_DEMANGLE)) {
			p = frames(d, p, end, &lineno);
			if (p == end)
				break;
		}
#endif
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		d->lineno = ++lineno;
		one_line(d, p, (size_t)(nl - p));
		p = nl + 1;
	}
	fold_in_take(in, (size_t)(p - start), lineno - in->lineno);
	d->lineno = lineno;
}

void
fold_dtrace_run(struct fold_dtrace *d, int nfiles, char **files)
{
	struct fold_in in;
	const char *line;
	size_t len;
	int first = 1;

	fold_in_init(&in, nfiles, files);
	while (fold_in_line(&in, &line, &len)) {
		if (in.newfile && !first)
			fold_dtrace_eof(d);
		first = 0;
		d->file = in.name;
		d->lineno = in.lineno;
		one_line(d, line, len);
		run_buffer(d, &in);
	}
	fold_dtrace_eof(d);
	if (in.status)
		d->status = 1;
	fold_in_free(&in);
}

/* ---- output ------------------------------------------------------------ */

static const struct fold_intern *sort_t;

static int
bystack(const void *a, const void *b)
{
	return fold_strcmp(fold_intern_str(sort_t, *(const uint32_t *)a),
	    fold_intern_str(sort_t, *(const uint32_t *)b));
}

void
fold_dtrace_print(struct fold_dtrace *d)
{
	struct fold_dtrace_st *st = d->st;
	size_t n = fold_intern_count(&st->texts), k;
	uint32_t *ids = xmalloc((n + 1) * sizeof(*ids));
	struct fold_str s;

	for (k = 0; k < n; k++)
		ids[k] = (uint32_t)k;
	sort_t = &st->texts;
	qsort(ids, n, sizeof(*ids), bystack);
	for (k = 0; k < n; k++) {
		s = fold_intern_str(&st->texts, ids[k]);
		fo_write(s.s, s.len);
		fo_putc(' ');
		fo_u64(st->counts[ids[k]]);
		fo_putc('\n');
	}
	free(ids);
}

int
fold_dtrace_end(struct fold_dtrace *d)
{
	struct fold_dtrace_st *st = d->st;
	int status = d->status;

	if (st->unrec > 0 && !(st->flags & FOLD_DTRACE_QUIET))
		fold_warn("%s:%llu: unrecognized line (%llu unrecognized "
		    "line%s ignored)", st->unrec_file, st->unrec_line,
		    (unsigned long long)st->unrec, st->unrec == 1 ? "" : "s");
	if (st->overflows > 1)
		fold_warn("%llu records dropped: count too large",
		    (unsigned long long)st->overflows);
	fold_intern_free(&st->stacks);
	free(st->text);
	fold_intern_free(&st->texts);
	free(st->counts);
	free(st->fb);
	free(st->kb);
	free(st->tmp);
	free(st);
	free(d);
	return status;
}
