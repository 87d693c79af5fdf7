/* dtrace.c - DTrace and bpftrace aggregated stacks to folded stacks. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

/*
 * States.  PRE: the start of an input, where headers and messages are
 * skipped.  IDLE: between records.  DT: in a DTrace record (frames seen, no
 * count yet).  BT: in a bpftrace record (after "@[", before "]: N").
 */
enum { S_PRE, S_IDLE, S_DT, S_BT };

struct fold_dtrace_st {
	unsigned flags;
	int state;
	int btmode;			/* this input had bpftrace map output */
	const char *rec_file;		/* where the open record began */
	unsigned long long rec_line;
	size_t nframes;			/* frame lines in the open record */
	char *sb;			/* the stack, root first: sb[spos..scap) */
	size_t scap, spos;
	int any;			/* the stack has a frame (maybe empty) */
	char *kb;			/* bpftrace scalar key fields, joined */
	size_t kcap, klen;
	char *tmp;			/* demangling scratch */
	size_t tcap;
	struct fold_intern stacks;
	uint64_t *counts;		/* by stack id */
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
	st->scap = st->spos = 4096;
	st->sb = xmalloc(st->scap);
	fold_intern_init(&st->stacks);
	return d;
}

/* ---- the stack buffer: frames are put in front, leaf first ------------ */

/* Room for n more bytes and a ';' in front of the stack. */
static void
room(struct fold_dtrace_st *st, size_t n)
{
	size_t used = st->scap - st->spos, ncap = st->scap;
	char *nb;

	if (n + 1 <= st->spos)
		return;
	while (ncap - used < n + 1) {
		if (ncap > ((size_t)-1) / 4)
			fold_die(1, "out of memory");
		ncap *= 2;
	}
	nb = xmalloc(ncap);
	memcpy(nb + ncap - used, st->sb + st->spos, used);
	free(st->sb);
	st->sb = nb;
	st->spos = ncap - used;
	st->scap = ncap;
}

/* The n bytes in front of the stack, after a ';' if it is not empty. */
static inline char *
front(struct fold_dtrace_st *st, size_t n)
{
	room(st, n);
	if (st->any)
		st->sb[--st->spos] = ';';
	st->any = 1;
	st->spos -= n;
	return st->sb + st->spos;
}

static void
start_record(struct fold_dtrace *d, int state)
{
	struct fold_dtrace_st *st = d->st;

	st->state = state;
	st->spos = st->scap;
	st->any = 0;
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

/* Nonzero if some byte of w is c (exact, eight bytes at a time). */
static inline uint64_t
hasbyte(uint64_t w, unsigned char c)
{
	w ^= ONES * c;
	return (w - ONES) & ~w & (ONES << 7);
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

/* The usual frame, 8 bytes or more: copied in front eight bytes at a time,
 * from the end, checking for bytes that need more work.  0 (nothing put) if
 * there is one of ':' '-' ';'. */
static int
put_plain(struct fold_dtrace_st *st, const char *f, size_t len)
{
	size_t old = st->spos, k = len;
	int any = st->any;
	uint64_t w, hit = 0;
	char *o;

	room(st, len + 8);
	o = front(st, len);
	do {
		k = k >= 8 ? k - 8 : 0;	/* the last word overlaps */
		w = load64(f + k);
		memcpy(o + k, &w, 8);
		/* ':' is 0x3a, ';' 0x3b: one test for both */
		hit |= hasbyte(w | ONES, ';') | hasbyte(w, '-');
	} while (k > 0);
	if (hit == 0)
		return 1;
	st->spos = old;
	st->any = any;
	return 0;
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

/* Put one frame line in front: split on "->" (Java inlining: pieces after
 * the first get _[i]), ';' to ':', one leading 'L' dropped per piece. */
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
		o = front(st, len);
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
	o = front(st, out);
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

/* --demangle-rust: 1 if the frame was a Rust symbol, put in front. */
static int
put_rust(struct fold_dtrace_st *st, const char *f, size_t len)
{
	size_t k = len, n;
	char *o;

	while (k > 0 && f[k - 1] != '`')	/* module`symbol */
		k--;
	if (len - k < 4)
		return 0;
	if (st->tcap < 2 * (len - k))
		fold_grow(&st->tmp, &st->tcap, 2 * (len - k), 1);
	n = fold_rust_demangle(f + k, len - k, st->tmp);
	if (n == 0)
		return 0;
	o = front(st, k + n);
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
	if ((st->flags & FOLD_DTRACE_RUST) && put_rust(st, f, len))
		return;
	if (len >= 8 && f[0] != 'L' && put_plain(st, f, len))
		return;		/* the usual case */
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

/* The count line of the open record: look its stack up once, add. */
static void
close_record(struct fold_dtrace *d, int r, uint64_t count)
{
	struct fold_dtrace_st *st = d->st;
	const char *s;
	size_t len;
	uint32_t id;
	char *o;

	st->state = S_IDLE;
	if (r < 0) {
		too_big(d, "count");
		return;
	}
	if (st->klen > 0) {	/* bpftrace scalar keys: the root frames */
		o = front(st, st->klen);
		memcpy(o, st->kb, st->klen);
	}
	s = st->sb + st->spos;
	len = st->scap - st->spos;
	if (len == 0) {		/* a record with no frame */
		s = "-";
		len = 1;
	}
	id = fold_intern(&st->stacks, s, len, NULL);
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
	size_t n = fold_intern_count(&st->stacks), k;
	uint32_t *ids = xmalloc((n + 1) * sizeof(*ids));
	struct fold_str s;

	for (k = 0; k < n; k++)
		ids[k] = (uint32_t)k;
	sort_t = &st->stacks;
	qsort(ids, n, sizeof(*ids), bystack);
	for (k = 0; k < n; k++) {
		s = fold_intern_str(&st->stacks, ids[k]);
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
	free(st->counts);
	free(st->sb);
	free(st->kb);
	free(st->tmp);
	free(st);
	free(d);
	return status;
}

/* ---- Rust legacy demangling -------------------------------------------- */

static const struct {
	const char *esc;
	char c;
} rust_esc[] = {
	{ "LT", '<' }, { "GT", '>' }, { "C", ',' }, { "RF", '&' },
	{ "BP", '*' }, { "SP", '@' }, { "LP", '(' }, { "RP", ')' },
};

/* One component: escapes decoded, ".." to "::".  Returns bytes written. */
static size_t
rust_comp(const char *c, size_t n, char *out)
{
	size_t i = 0, o = 0, j, k, e;
	unsigned v;

	if (n >= 2 && c[0] == '_' && c[1] == '$')
		i = 1;
	while (i < n) {
		if (c[i] == '.' && i + 1 < n && c[i + 1] == '.') {
			out[o++] = ':';
			out[o++] = ':';
			i += 2;
			continue;
		}
		if (c[i] != '$') {
			out[o++] = c[i++];
			continue;
		}
		for (j = i + 1; j < n && c[j] != '$'; j++)
			;
		if (j == n) {		/* no closing '$': as it is */
			memcpy(out + o, c + i, n - i);
			return o + n - i;
		}
		e = j - i - 1;		/* the escape is c[i+1 .. j) */
		for (k = 0; k < sizeof(rust_esc) / sizeof(rust_esc[0]); k++)
			if (strlen(rust_esc[k].esc) == e &&
			    memcmp(rust_esc[k].esc, c + i + 1, e) == 0)
				break;
		if (k < sizeof(rust_esc) / sizeof(rust_esc[0])) {
			out[o++] = rust_esc[k].c;
		} else if (e >= 2 && e <= 3 && c[i + 1] == 'u' &&
		    isxdig((unsigned char)c[i + 2]) &&
		    (e == 2 || isxdig((unsigned char)c[i + 3]))) {
			v = 0;
			for (k = i + 2; k < j; k++)
				v = v * 16 + (unsigned)(isdig((unsigned char)c[k]) ?
				    c[k] - '0' : (c[k] | 0x20) - 'a' + 10);
			if (v >= 0x20 && v < 0x7f)
				out[o++] = (char)v;
			else {
				memcpy(out + o, c + i, j + 1 - i);
				o += j + 1 - i;
			}
		} else {		/* unknown escape: as it is */
			memcpy(out + o, c + i, j + 1 - i);
			o += j + 1 - i;
		}
		i = j + 1;
	}
	return o;
}

/* "h" and 16 hex digits. */
static int
rust_hash(const char *c, size_t n)
{
	size_t k;

	if (n != 17 || c[0] != 'h')
		return 0;
	for (k = 1; k < 17; k++)
		if (!isxdig((unsigned char)c[k]))
			return 0;
	return 1;
}

size_t
fold_rust_demangle(const char *s, size_t len, char *out)
{
	size_t i, n, o = 0, a, b;
	int first = 1;

	if (len >= 4 && memcmp(s, "__ZN", 4) == 0) {
		s++;
		len--;
	}
	if (len >= 5 && memcmp(s, "_ZN", 3) == 0 && s[len - 1] == 'E') {
		for (i = 3; i < len - 1;) {
			if (!isdig((unsigned char)s[i]) || s[i] == '0')
				return 0;
			for (n = 0; i < len - 1 && isdig((unsigned char)s[i]); i++) {
				n = n * 10 + (size_t)(s[i] - '0');
				if (n > len)
					return 0;
			}
			if (n > len - 1 - i)
				return 0;
			if (!(i + n == len - 1 && rust_hash(s + i, n) && !first)) {
				if (!first) {
					out[o++] = ':';
					out[o++] = ':';
				}
				o += rust_comp(s + i, n, out + o);
				first = 0;
			}
			i += n;
		}
		return first ? 0 : o;
	}
	/* Already split by a C++ demangler: "a::b::h0123456789abcdef". */
	if (len < 20 || s[len - 19] != ':' || s[len - 18] != ':' ||
	    !rust_hash(s + len - 17, 17))
		return 0;
	len -= 19;
	for (a = 0;; a = b + 2) {
		for (b = a; b + 1 < len && !(s[b] == ':' && s[b + 1] == ':'); b++)
			;
		if (b + 1 >= len)
			b = len;
		if (a > 0) {
			out[o++] = ':';
			out[o++] = ':';
		}
		o += rust_comp(s + a, b - a, out + o);
		if (b >= len)
			break;
	}
	return o;
}
