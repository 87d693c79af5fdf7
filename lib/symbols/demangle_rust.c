/*
 * demangle_rust.c - Rust symbols, legacy (_ZN...17h<hash>E) and v0 (_R...,
 * RFC 2603), printed exactly as GNU c++filt -i (binutils 2.40, libiberty,
 * non-verbose) prints them: no hashes, no crate disambiguators, no const
 * types, the instantiating crate and any ".suffix" left out.  Where
 * c++filt gives up we give up too, so that the caller can try C++.  -p
 * changes nothing in Rust names.  For example (a line too long here goes
 * on, further indented, on the next, to be joined with nothing between
 * them):
 *
 *     _ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..
 *       $u7b$$u7b$closure$u7d$$u7d$$GT$17h1b3d5f7a9c2e4d6fE
 *         core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>
 *     _RNvXs_NtCs1234_1m5shapeNtB4_6CircleNtB4_5Shape4area
 *         <m::shape::Circle as m::shape::Shape>::area
 *     _RINvCs1234_1m4workKj2a_Kc78_Kb1_E
 *         m::work::<42, 'x', true>
 *
 * Legacy names (the default of stable rustc): the hash dropped, the $LT$,
 * $u20$... escapes and ".." decoded.  A name counts as Rust only when it
 * ends in "17h" and 16 lower-case hex digits with at least 5 distinct
 * ones, as in c++filt (otherwise it is a C++ name).
 *
 * v0 names (-C symbol-mangling-version=v0, rustc's own libraries): paths,
 * impls (<T as Trait>), generic arguments, every type (references,
 * pointers, arrays, slices, tuples, fn pointers with unsafe extern "ABI",
 * dyn Trait<Assoc = T> + 'a, for<'a>), integer, bool and char constants,
 * back-references, punycode identifiers (u9gre_6ka8i printed in UTF-8: gr,
 * U+00F6 U+00DF, e), {closure#0}, {shim:vtable#0}, without crate
 * disambiguators, the instantiating crate or a .llvm.N suffix.  str and
 * structural constants (-Z unstable-options' adt_const_params) are left
 * mangled, as c++filt 2.40 leaves them.
 *
 * Bounds: recursion is counted as libiberty counts it (1024 levels of
 * paths, non-basic types and consts), so that a symbol c++filt refuses for
 * depth is refused here too, including the levels a back-reference's
 * target took where its output is copied rather than read again (before
 * 2026-11-25 a copy inside a copy did not count them, and a symbol 1,024
 * levels deep that way was printed).  Output stops at min(cap,
 * FOLD_DM_MAXOUT) (64 KiB), and the work (parse steps, back-references
 * followed, punycode decoding) is capped in proportion to len +
 * FOLD_DM_MAXOUT, so that no input runs longer than linear time: a symbol
 * whose back-references expand without end (c++filt runs for ever on
 * some) is left as it is at once.  Over any bound: return 0.  No
 * allocation.
 *
 * The fast paths.  Legacy names take one (rs_legacy_fast()): one pass
 * that checks each identifier's bytes, copies them and decodes the
 * escapes 16 bytes at a time (SSE2; a byte loop elsewhere), giving way to
 * the reference parse (rs_legacy()) on anything unusual (a .suffix, an
 * escape c++filt does not know, a malformed name).  Most v0 symbols take
 * one too (rf_v0(), below), which gives up on anything rarer and leaves it
 * to the reference parse (rs_v0()): the symbol is copied and checked 16
 * bytes at a time into a buffer with zero bytes after it, so that the
 * parse reads with no length checks but the identifiers'; the read
 * position travels in registers; nested paths
 * (NtNtNtCs..._4core3ops8function) are read in a loop, not by recursion; a
 * plain identifier is printed with one 32-byte copy, a crate's hash
 * skipped 16 bytes at a time, a one- or two-digit length read without a
 * branch.  It takes all but 339 of the 150,382 symbols of
 * tests/bench/demangle-rust.sh's rust-v0.syms: 23 longer than 1,024 bytes,
 * and those that hold what it leaves to the reference parse (punycode,
 * for<'a> binders, char constants and integers over 64 bits, paths nested
 * over 31 deep, more than 32 back-references to parse, anything near a
 * limit).  It is kept within the reference parse's bounds by construction
 * (its depth and its work stay under them, so where c++filt would give
 * up, it gives up first); tests/fuzz/fuzz_demangle_rust_fast.c compares
 * the two on any bytes (RS_FAST=0 builds without it).
 *
 * Checked by tests/demangle-rust.bats against c++filt -i, c++filt -i -p
 * and c++filt -i -s rust on every Rust symbol of the Rust toolchain
 * installed (160,694 here: all of rustc's, cargo's, clippy's and
 * rustdoc's v0 symbols, and rustup's 10,302 legacy ones; all equal), on
 * two programs of ours built there with both manglings
 * (tests/data/demangle/rust-sample.rs, rust-consts.rs), and on a committed
 * sample of 3,784 symbols with c++filt's outputs
 * (tests/data/demangle/rust-sample.txt: tricky ones from the toolchain,
 * generated ones valid and not, real ones with bytes changed, and ones on
 * either side of the v0 fast path's bounds).  During development 60,000
 * generated and mutated symbols were compared the same way; none
 * differed.
 *
 * Written from RFC 2603 and from c++filt's observed output, which it
 * follows where c++filt has quirks (constants past 64 bits printed one byte
 * late, "a__b" ABIs, punycode cut short printing nothing).  The one
 * difference: a symbol c++filt prints as an empty name (_RC0_) is left as
 * it is, as the interface has no empty name.
 */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"
#include "symbols/symbols.h"

#define RS_MAXDEPTH 1024	/* libiberty's RUST_MAX_RECURSION_COUNT */
#define RS_MAXPUNY 512		/* code points of one punycode identifier */
#define RS_NMEMO 32		/* back-references remembered */
#ifndef RS_FAST
#define RS_FAST 1		/* 0: no fast path for v0 (to check it) */
#endif

struct rs {
	const char *s;		/* past "_R" or "_ZN" */
	const char *end;	/* the end of the symbol (readable up to) */
	size_t n;		/* its length, a v0 ".suffix" left out */
	size_t i;		/* the next byte */
	char *out;
	size_t olen, ocap;
	size_t work, maxwork;	/* steps taken, allowed */
	uint64_t bound;		/* lifetimes bound by enclosing binders */
	unsigned depth;
	unsigned maxdepth;	/* the deepest since the last reset */
	int skip;		/* parse without printing */
	int err;
	/* Back-references printed before, to copy their output rather than
	 * parse them again: the output of a path or type depends only on
	 * where it starts, in_value and the lifetimes bound. */
	struct rs_memo {
		size_t pos, off, len;
		uint64_t bound;
		unsigned used;	/* recursion levels it took */
		int kind;	/* 0, 1: a path (in_value); 2: a type */
	} memo[RS_NMEMO];
	unsigned nmemo;
};

struct rs_ident {
	const char *a;		/* the ASCII part */
	size_t alen;
	const char *p;		/* the punycode part, or NULL */
	size_t plen;
};

/* Bytes of v0 identifiers ([0-9A-Za-z_]), of legacy symbols (those and
 * "$.:@"). */
enum { RS_V0 = 1, RS_LEG = 2 };
static const unsigned char rs_cls[256] = {
#define V (RS_V0 | RS_LEG)
	['0'] = V, ['1'] = V, ['2'] = V, ['3'] = V, ['4'] = V, ['5'] = V,
	['6'] = V, ['7'] = V, ['8'] = V, ['9'] = V, ['_'] = V,
	['A'] = V, ['B'] = V, ['C'] = V, ['D'] = V, ['E'] = V, ['F'] = V,
	['G'] = V, ['H'] = V, ['I'] = V, ['J'] = V, ['K'] = V, ['L'] = V,
	['M'] = V, ['N'] = V, ['O'] = V, ['P'] = V, ['Q'] = V, ['R'] = V,
	['S'] = V, ['T'] = V, ['U'] = V, ['V'] = V, ['W'] = V, ['X'] = V,
	['Y'] = V, ['Z'] = V,
	['a'] = V, ['b'] = V, ['c'] = V, ['d'] = V, ['e'] = V, ['f'] = V,
	['g'] = V, ['h'] = V, ['i'] = V, ['j'] = V, ['k'] = V, ['l'] = V,
	['m'] = V, ['n'] = V, ['o'] = V, ['p'] = V, ['q'] = V, ['r'] = V,
	['s'] = V, ['t'] = V, ['u'] = V, ['v'] = V, ['w'] = V, ['x'] = V,
	['y'] = V, ['z'] = V,
	['$'] = RS_LEG, ['.'] = RS_LEG, [':'] = RS_LEG, ['@'] = RS_LEG,
#undef V
};

static int
rs_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
rs_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static int
rs_upper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static char
rs_peek(const struct rs *r)
{
	return r->i < r->n ? r->s[r->i] : 0;
}

static int
rs_eat(struct rs *r, char c)
{
	if (r->i < r->n && r->s[r->i] == c) {
		r->i++;
		return 1;
	}
	return 0;
}

static char
rs_next(struct rs *r)
{
	char c = rs_peek(r);

	if (c == 0)
		r->err = 1;
	else
		r->i++;
	return c;
}

/* One more step of work; 0 (and the error set) once over the budget. */
static int
rs_step(struct rs *r, size_t n)
{
	r->work += n;
	if (r->work > r->maxwork)
		r->err = 1;
	return !r->err;
}

/* memcpy, inline for the short pieces names are made of. */
static void
rs_copy(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		while (n-- > 0)
			*d++ = *s++;
	} else
		memcpy(d, s, n);
}

static void
rs_put(struct rs *r, const char *s, size_t n)
{
	if (r->skip || r->err || n == 0)
		return;
	if (n > r->ocap - r->olen) {
		r->err = 1;
		return;
	}
	rs_copy(r->out + r->olen, s, n);
	r->olen += n;
}

/* rs_put() for literals: memcpy of a constant length, inline. */
static void
rs_putl(struct rs *r, const char *s, size_t n)
{
	if (r->skip || r->err)
		return;
	if (n > r->ocap - r->olen) {
		r->err = 1;
		return;
	}
	memcpy(r->out + r->olen, s, n);
	r->olen += n;
}

/* rs_put() for bytes of the symbol (s + n <= r->end): a short piece is
 * copied as 32 bytes where the symbol and the output have room for them
 * (what follows in the output is scratch), without a branch on n. */
static inline void
rs_put_sym(struct rs *r, const char *s, size_t n)
{
	if (r->skip || r->err || n == 0)	/* (s is NULL then) */
		return;
	if (n <= 32 && r->ocap - r->olen >= 32 && r->end - s >= 32) {
		memcpy(r->out + r->olen, s, 32);
		r->olen += n;
	} else
		rs_put(r, s, n);
}

static void
rs_puts(struct rs *r, const char *s)
{
	rs_putl(r, s, strlen(s));
}

static void
rs_putc(struct rs *r, char c)
{
	if (r->skip || r->err)
		return;
	if (r->olen >= r->ocap) {
		r->err = 1;
		return;
	}
	r->out[r->olen++] = c;
}

static void
rs_uint(struct rs *r, uint64_t v, int hex)
{
	char b[24];
	size_t k = sizeof(b);
	unsigned base = hex ? 16 : 10;

	do {
		b[--k] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v > 0);
	rs_put(r, b + k, sizeof(b) - k);
}

#ifdef __SSE2__
/*
 * The 16 bytes at s against class cls (RS_V0 or RS_LEG): the mask of the
 * bytes not in it returned, that of '$' and '.' in *esc (RS_LEG only).
 * A range [a, a + n) in two steps: x - a - 128 (wrapping) is below
 * n - 128, as a signed byte, for x in it alone; "| 0x20" folds A-Z onto
 * a-z and moves nothing else there.
 */
static inline unsigned
rs_bad16(__m128i x, unsigned cls, unsigned *esc)
{
	const __m128i d0 = _mm_set1_epi8((char)(0x80 - '0'));
	const __m128i dn = _mm_set1_epi8((char)(10 - 0x80));
	const __m128i la = _mm_set1_epi8((char)(0x80 - 'a'));
	const __m128i ln = _mm_set1_epi8((char)(26 - 0x80));
	const __m128i bit = _mm_set1_epi8(0x20), us = _mm_set1_epi8('_');
	__m128i l = _mm_or_si128(x, bit), ok, e;

	ok = _mm_or_si128(
	    _mm_cmpgt_epi8(dn, _mm_add_epi8(x, d0)),
	    _mm_or_si128(_mm_cmpgt_epi8(ln, _mm_add_epi8(l, la)),
	    _mm_cmpeq_epi8(x, us)));
	*esc = 0;
	if (cls == RS_LEG) {
		e = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('$')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('.')));
		*esc = (unsigned)_mm_movemask_epi8(e);
		ok = _mm_or_si128(ok, _mm_or_si128(e,
		    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(':')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('@')))));
	}
	return (unsigned)_mm_movemask_epi8(ok) ^ 0xffffu;
}
#endif

/*
 * The length of the run at the start of s of bytes of class cls: RS_V0
 * ([0-9A-Za-z_]) or RS_LEG (those and "$.:@"); *esc set if it may hold
 * '$' or '.' (escapes, for legacy names).
 */
static size_t
rs_span(const char *s, size_t n, unsigned cls, int *esc)
{
	size_t i = 0;
	unsigned e = 0;

#ifdef __SSE2__
	unsigned bad, e16;

	for (; i + 16 <= n; i += 16) {
		bad = rs_bad16(_mm_loadu_si128((const __m128i *)(const void *)
		    (s + i)), cls, &e16);
		e |= e16;
		if (bad != 0) {
			while (!(bad & 1)) {
				bad >>= 1;
				i++;
			}
			*esc = 1;
			return i;
		}
	}
#endif
	while (i < n && (rs_cls[(unsigned char)s[i]] & cls)) {
		e |= s[i] == '$' || s[i] == '.';
		i++;
	}
	*esc = e != 0;
	return i;
}

/* ---- legacy ------------------------------------------------------------ */

/* A "$...$" escape at e[0..len): the character, its length in *elen; 0 if
 * it is none c++filt knows. */
static char
rs_legacy_escape(const char *e, size_t len, size_t *elen)
{
	char c = 0;
	size_t k = 0;
	int hi, lo;

	if (len < 3 || e[0] != '$')
		return 0;
	e++;
	len--;
	if (e[0] == 'C') {
		k = 1;
		c = ',';
	} else if (len > 2) {
		k = 2;
		if (e[0] == 'S' && e[1] == 'P')
			c = '@';
		else if (e[0] == 'B' && e[1] == 'P')
			c = '*';
		else if (e[0] == 'R' && e[1] == 'F')
			c = '&';
		else if (e[0] == 'L' && e[1] == 'T')
			c = '<';
		else if (e[0] == 'G' && e[1] == 'T')
			c = '>';
		else if (e[0] == 'L' && e[1] == 'P')
			c = '(';
		else if (e[0] == 'R' && e[1] == 'P')
			c = ')';
		else if (e[0] == 'u' && len > 3) {
			k = 3;
			hi = rs_digit(e[1]) ? e[1] - '0' :
			    e[1] >= 'a' && e[1] <= 'f' ? e[1] - 'a' + 10 : -1;
			lo = rs_digit(e[2]) ? e[2] - '0' :
			    e[2] >= 'a' && e[2] <= 'f' ? e[2] - 'a' + 10 : -1;
			if (hi < 0 || lo < 0 || hi > 7)
				return 0;
			c = (char)(hi << 4 | lo);
			if (c < 0x20)
				return 0;
		}
	}
	if (c == 0 || len <= k || e[k] != '$')
		return 0;
	*elen = 2 + k;
	return c;
}

/* The first '$' or '.' of a[0..n), or n; end: where reading must stop. */
static size_t
rs_legacy_plain(const char *a, size_t n, const char *end)
{
	size_t k = 1;

	(void)end;		/* (without SSE2) */
#ifdef __SSE2__
	const __m128i dl = _mm_set1_epi8('$'), dot = _mm_set1_epi8('.');
	__m128i x;
	unsigned m;

	for (; k < n && (size_t)(end - a) >= k + 16; k += 16) {
		x = _mm_loadu_si128((const __m128i *)(const void *)(a + k));
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(x, dl), _mm_cmpeq_epi8(x, dot)));
		if (m != 0) {
#if defined(__GNUC__) || defined(__clang__)
			k += (size_t)__builtin_ctz(m);
#else
			while (!(m & 1)) {
				m >>= 1;
				k++;
			}
#endif
			return k < n ? k : n;
		}
	}
#endif
	for (; k < n && a[k] != '$' && a[k] != '.'; k++)
		;
	return k < n ? k : n;
}

static void
rs_legacy_ident(struct rs *r, const char *a, size_t n)
{
	size_t k;
	char c;

	if (n >= 2 && a[0] == '_' && a[1] == '$') {
		a++;
		n--;
	}
	while (n > 0) {
		if (a[0] == '$') {
			c = rs_legacy_escape(a, n, &k);
			if (c == 0) {	/* unknown: the rest as it is */
				rs_put(r, a, n);
				return;
			}
			rs_putc(r, c);
		} else if (a[0] == '.') {
			if (n >= 2 && a[1] == '.') {
				rs_putl(r, "::", 2);
				k = 2;
			} else {
				rs_putc(r, '.');
				k = 1;
			}
		} else {
			k = rs_legacy_plain(a, n, r->end);
			rs_put(r, a, k);
		}
		a += k;
		n -= k;
	}
}

/* A legacy identifier: decimal length, bytes.  NULL a when malformed or
 * empty. */
static struct rs_ident
rs_legacy_parse(struct rs *r)
{
	struct rs_ident id = { NULL, 0, NULL, 0 };
	size_t len;
	char c = rs_next(r);

	if (!rs_digit(c)) {
		r->err = 1;
		return id;
	}
	len = (size_t)(c - '0');
	if (c != '0')
		while (rs_digit(rs_peek(r))) {
			len = len * 10 + (size_t)(rs_next(r) - '0');
			if (len > r->n) {
				r->err = 1;
				return id;
			}
		}
	if (len > r->n - r->i) {
		r->err = 1;
		return id;
	}
	if (len > 0) {
		id.a = r->s + r->i;
		id.alen = len;
	}
	r->i += len;
	return id;
}

/* Lower-case hex digits: value + 1; 0 for any other byte. */
static const unsigned char rs_hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

/* "h" and 16 lower-case hex digits, at least 5 of them distinct. */
static int
rs_legacy_hash(const struct rs_ident *id)
{
	unsigned seen = 0, v;
	size_t k;

	if (id->alen != 17 || id->a[0] != 'h')
		return 0;
	for (k = 1; k < 17; k++) {
		if ((v = rs_hexv[(unsigned char)id->a[k]]) == 0)
			return 0;
		seen |= 1u << (v - 1);
	}
	seen = seen - ((seen >> 1) & 0x5555u);
	seen = (seen & 0x3333u) + ((seen >> 2) & 0x3333u);
	seen = (seen + (seen >> 4)) & 0x0f0fu;
	return (seen & 0xffu) + (seen >> 8) >= 5;
}

static int
rs_legacy(struct rs *r)
{
	struct rs_ident id = { NULL, 0, NULL, 0 };
	int dot = 1, esc, first;

	if (rs_span(r->s, r->n, RS_LEG, &esc) != r->n)
		return 0;
	/* The last 'E', or the last one before a ".suffix". */
	while (r->n > 0 && !(dot && r->s[r->n - 1] == 'E')) {
		dot = r->s[r->n - 1] == '.';
		r->n--;
	}
	if (r->n == 0)
		return 0;
	r->n--;
	if (!(r->n > 19 && memcmp(r->s + r->n - 19, "17h", 3) == 0))
		return 0;
	/* One pass: each identifier printed once the next is seen (the
	 * last must be the hash, not printed).  An output error before the
	 * end gives 0 as c++filt's check of the whole symbol would, or as a
	 * name too long would. */
	for (first = 1;; first = 0) {
		id = rs_legacy_parse(r);
		if (r->err || id.a == NULL)
			return 0;
		if (r->i >= r->n)
			break;
		if (!first)
			rs_putl(r, "::", 2);
		if (esc)
			rs_legacy_ident(r, id.a, id.alen);
		else
			rs_put(r, id.a, id.alen);
	}
	return rs_legacy_hash(&id) && !r->err;
}

/*
 * The fast path of legacy names: 16 bytes of an identifier at s copied to
 * d; the mask of the bytes that are not of a legacy symbol ([0-9A-Za-z_]
 * and "$.:@") set in *bad, that of '$' and '.' (escapes) returned.
 */
static unsigned
rs_leg16(char *d, const char *s, unsigned *bad)
{
#ifdef __SSE2__
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
	unsigned esc;

	_mm_storeu_si128((__m128i *)(void *)d, x);
	*bad = rs_bad16(x, RS_LEG, &esc);
	return esc;
#else
	unsigned b = 0, e = 0, k;
	unsigned char c;

	memcpy(d, s, 16);
	for (k = 0; k < 16; k++) {
		c = (unsigned char)s[k];
		if (!(rs_cls[c] & RS_LEG))
			b |= 1u << k;
		if (c == '$' || c == '.')
			e |= 1u << k;
	}
	*bad = b;
	return e;
#endif
}

/* The lowest bit set of m (not 0). */
static size_t
rs_ctz(unsigned m)
{
#if defined(__GNUC__) || defined(__clang__)
	return (size_t)__builtin_ctz(m);
#else
	size_t k = 0;

	while (!(m & 1)) {
		m >>= 1;
		k++;
	}
	return k;
#endif
}

/*
 * A legacy name in one pass, the common case: s[0..n) (past "_ZN") ends
 * in its 'E' (no ".suffix"); each identifier is checked (the bytes of a
 * legacy symbol, as rs_span() checks the whole) and copied 16 bytes at a
 * time, the escapes decoded as they come.  The output is written into
 * out[0..ocap), up to 16 bytes past the name.  Returns the name's length,
 * or 0 for anything else (a suffix, a malformed name, an escape c++filt
 * does not know, an identifier too near the end of the symbol or of the
 * room, a name that is not Rust): rs_legacy() decides those, and it
 * prints what this prints where this prints.
 */
static size_t
rs_legacy_fast(const char *s, size_t n, char *out, size_t ocap)
{
	const char *p = s, *e, *hend;
	char *o = out;
	size_t len, k;
	unsigned bad, esc;
	int first = 1;
	char c;
	struct rs_ident id;

	if (n < 21 || s[n - 1] != 'E' || memcmp(s + n - 20, "17h", 3) != 0)
		return 0;
	hend = s + n - 1;	/* the 'E' (not a digit: it stops them) */
	for (;; first = 0) {
		if ((unsigned)(*p - '1') > 8)
			return 0;
		len = (size_t)(*p++ - '0');
		while ((unsigned)(*p - '0') <= 9) {
			len = len * 10 + (size_t)(*p++ - '0');
			if (len > n)
				return 0;
		}
		if (len > (size_t)(hend - p))
			return 0;
		if ((e = p + len) == hend)
			break;	/* the last: the hash */
		if (ocap - (size_t)(o - out) < len + 18)
			return 0;
		if (!first) {
			memcpy(o, "::", 2);
			o += 2;
		}
		if (len >= 2 && p[0] == '_' && p[1] == '$')
			p++;
		while (p < e) {
			/* (a printed identifier is followed by the hash, 20
			 * bytes, where the parse goes as it should) */
			if (s + n - p < 16)
				return 0;
			esc = rs_leg16(o, p, &bad);
			if ((k = (size_t)(e - p)) < 16) {
				bad &= (1u << k) - 1;
				esc &= (1u << k) - 1;
			} else
				k = 16;
			if (bad != 0)
				return 0;
			if (esc == 0) {
				o += k;
				p += k;
				continue;
			}
			k = rs_ctz(esc);
			o += k;
			p += k;
			if (*p == '.') {
				if (e - p >= 2 && p[1] == '.') {
					memcpy(o, "::", 2);
					o += 2;
					p += 2;
				} else {
					*o++ = '.';
					p++;
				}
			} else {
				if ((c = rs_legacy_escape(p, (size_t)(e - p),
				    &k)) == 0)
					return 0;
				*o++ = c;
				p += k;
			}
		}
	}
	id.a = p;
	id.alen = len;
	return rs_legacy_hash(&id) ? (size_t)(o - out) : 0;
}

/* ---- v0 ---------------------------------------------------------------- */

/* Base-62 digits: value + 1; 0 for any other byte. */
static const unsigned char rs_b62[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['g'] = 17, ['h'] = 18, ['i'] = 19, ['j'] = 20,
	['k'] = 21, ['l'] = 22, ['m'] = 23, ['n'] = 24, ['o'] = 25,
	['p'] = 26, ['q'] = 27, ['r'] = 28, ['s'] = 29, ['t'] = 30,
	['u'] = 31, ['v'] = 32, ['w'] = 33, ['x'] = 34, ['y'] = 35,
	['z'] = 36,
	['A'] = 37, ['B'] = 38, ['C'] = 39, ['D'] = 40, ['E'] = 41,
	['F'] = 42, ['G'] = 43, ['H'] = 44, ['I'] = 45, ['J'] = 46,
	['K'] = 47, ['L'] = 48, ['M'] = 49, ['N'] = 50, ['O'] = 51,
	['P'] = 52, ['Q'] = 53, ['R'] = 54, ['S'] = 55, ['T'] = 56,
	['U'] = 57, ['V'] = 58, ['W'] = 59, ['X'] = 60, ['Y'] = 61,
	['Z'] = 62,
};

/* A base-62 number ended by '_': "_" is 0, "<digits>_" is 1 + value
 * (modulo 2^64, as libiberty). */
static uint64_t
rs_int62(struct rs *r)
{
	const char *s = r->s;
	size_t i = r->i, n = r->n;
	uint64_t x = 0;
	unsigned v;

	if (i < n && s[i] == '_') {
		r->i = i + 1;
		return 0;
	}
	for (;; i++) {
		if (i >= n)
			goto bad;
		if (s[i] == '_')
			break;
		if ((v = rs_b62[(unsigned char)s[i]]) == 0)
			goto bad;
		x = x * 62 + (v - 1);
	}
	r->i = i + 1;
	return x + 1;
bad:
	r->i = i;
	r->err = 1;
	return 0;
}

/* A disambiguator ("s" base-62) whose value is not printed: skipped to its
 * '_' (rs_v0_span() saw only [0-9A-Za-z_], all base-62 digits but '_'). */
static void
rs_skip_dis(struct rs *r)
{
	const char *s = r->s;
	size_t i = r->i, n = r->n;

	if (i < n && s[i] == 's') {
		/* (a crate's hash: some ten bytes; eight at a time while
		 * there is no '_' in them, a zero byte in w ^ "________",
		 * then one at a time) */
		const uint64_t ones = 0x0101010101010101u;
		uint64_t w;
		for (i++; n - i >= 8; i += 8) {
			memcpy(&w, s + i, 8);
			w ^= ones * '_';
			if (((w - ones) & ~w & (ones << 7)) != 0)
				break;
		}
		for (; i < n && s[i] != '_'; i++)
			;
		if (i < n)
			r->i = i + 1;
		else {
			r->i = n;
			r->err = 1;
		}
	}
}

static uint64_t
rs_opt62(struct rs *r, char tag)
{
	if (!rs_eat(r, tag))
		return 0;
	return 1 + rs_int62(r);
}

/* An identifier's <decimal> ["_"] at s[*pi..n): its length if there are
 * that many bytes left after it, else (size_t)-1; *pi past what was
 * read. */
static inline size_t
rs_declen(const char *s, size_t n, size_t *pi)
{
	size_t i = *pi, len;

	if (i >= n || !rs_digit(s[i]))
		return (size_t)-1;
	len = (size_t)(s[i++] - '0');
	if (len != 0)
		while (i < n && rs_digit(s[i])) {
			len = len * 10 + (size_t)(s[i++] - '0');
			if (len > n) {
				*pi = i;
				return (size_t)-1;
			}
		}
	if (i < n && s[i] == '_')
		i++;
	*pi = i;
	return len <= n - i ? len : (size_t)-1;
}

/* An identifier: ["u"] decimal length ["_"] bytes, put in *id (a NULL
 * when its ASCII part is empty).  0 (and the error set) if malformed. */
static int
rs_ident(struct rs *r, struct rs_ident *id)
{
	const char *s = r->s;
	size_t i = r->i, n = r->n, len, end;
	int puny = 0;

	id->a = NULL;
	id->alen = 0;
	id->p = NULL;
	id->plen = 0;
	if (i < n && s[i] == 'u') {
		puny = 1;
		i++;
	}
	if ((len = rs_declen(s, n, &i)) == (size_t)-1)
		goto bad;
	end = i + len;
	r->i = end;
	id->alen = len;
	if (puny) {
		/* The last '_' separates the ASCII part from the punycode. */
		while (id->alen > 0) {
			id->alen--;
			if (s[i + id->alen] == '_')
				break;
			id->plen++;
		}
		if (id->plen == 0) {
			r->err = 1;
			return 0;
		}
		id->p = s + end - id->plen;
	}
	if (id->alen > 0)
		id->a = s + i;
	return 1;
bad:
	r->i = i;
	r->err = 1;
	return 0;
}

/* Punycode (RFC 3492) decoded as libiberty decodes it, code points kept as
 * 4-byte groups (zero bytes dropped when printed). */
static void
rs_puny(struct rs *r, const struct rs_ident *id)
{
	unsigned char buf[RS_MAXPUNY][4], *q, d;
	char o[RS_MAXPUNY * 4];
	size_t len, pos = 0, k, t, delta, w, bias = 72, i = 0, damp = 700;
	size_t olen;
	uint32_t c = 0x80;

	if (id->alen + id->plen > RS_MAXPUNY) {
		r->err = 1;
		return;
	}
	if (!rs_step(r, id->alen + id->plen))
		return;
	for (len = 0; len < id->alen; len++) {
		buf[len][0] = buf[len][1] = buf[len][2] = 0;
		buf[len][3] = (unsigned char)id->a[len];
	}
	while (pos < id->plen) {
		delta = 0;
		w = 1;
		k = 0;
		do {
			k += 36;
			t = k < bias ? 0 : k - bias;
			if (t < 1)
				t = 1;
			if (t > 26)
				t = 26;
			if (pos >= id->plen)
				return;		/* cut short: nothing printed */
			d = (unsigned char)id->p[pos++];
			if (rs_lower(d))
				d = (unsigned char)(d - 'a');
			else if (rs_digit(d))
				d = (unsigned char)(26 + d - '0');
			else {
				r->err = 1;
				return;
			}
			delta += d * w;
			w *= 36 - t;
		} while (d >= t);
		len++;
		if (len > RS_MAXPUNY) {
			r->err = 1;
			return;
		}
		i += delta;
		c += (uint32_t)(i / len);
		i %= len;
		memmove(buf[i + 1], buf[i], (len - i - 1) * 4);
		q = buf[i];
		q[0] = c >= 0x10000 ? (unsigned char)(0xf0 | (c >> 18)) : 0;
		q[1] = c >= 0x800 ? (unsigned char)((c < 0x10000 ? 0xe0 :
		    0x80) | ((c >> 12) & 0x3f)) : 0;
		q[2] = (unsigned char)((c < 0x800 ? 0xc0 : 0x80) |
		    ((c >> 6) & 0x3f));
		q[3] = (unsigned char)(0x80 | (c & 0x3f));
		i++;
		if (pos == id->plen)
			break;
		delta /= damp;
		damp = 2;
		delta += delta / len;
		k = 0;
		while (delta > (35 * 26) / 2) {
			delta /= 35;
			k += 36;
		}
		bias = k + (36 * delta) / (delta + 38);
	}
	for (olen = 0, k = 0; k < len * 4; k++)
		if (buf[k / 4][k % 4] != 0)
			o[olen++] = (char)buf[k / 4][k % 4];
	rs_put(r, o, olen);
}

static void
rs_print_ident(struct rs *r, const struct rs_ident *id)
{
	if (r->err || r->skip)
		return;
	if (id->p == NULL)
		rs_put_sym(r, id->a, id->alen);
	else
		rs_puny(r, id);
}

/* rs_name() for what it leaves: punycode, malformed lengths. */
static FOLD_NOINLINE void
rs_name_slow(struct rs *r, int sep)
{
	struct rs_ident id;

	if (rs_ident(r, &id) && (id.a != NULL || id.p != NULL)) {
		if (sep)
			rs_putl(r, "::", 2);
		rs_print_ident(r, &id);
	}
}

/* [<disambiguator>] <identifier>: the identifier printed, after "::" if
 * sep (and nothing if it is empty), as rs_skip_dis(), rs_ident() and
 * rs_print_ident() would, the plain ASCII ones that most are in one
 * go. */
static void
rs_name(struct rs *r, int sep)
{
	const char *s;
	size_t i, n, len;

	rs_skip_dis(r);
	s = r->s;
	i = r->i;
	n = r->n;
	if ((len = rs_declen(s, n, &i)) == (size_t)-1) {
		rs_name_slow(r, sep);	/* from r->i again */
		return;
	}
	r->i = i + len;
	if (len > 0) {
		if (sep)
			rs_putl(r, "::", 2);
		rs_put_sym(r, s + i, len);
	}
}

static void
rs_lifetime(struct rs *r, uint64_t lt)
{
	uint64_t depth;

	rs_putc(r, '\'');
	if (lt == 0) {
		rs_putc(r, '_');
		return;
	}
	depth = r->bound - lt;
	if (depth < 26)
		rs_putc(r, (char)('a' + depth));
	else {
		rs_putc(r, '_');
		rs_uint(r, depth, 0);
	}
}

/* "G" count: for<'a, 'b> */
static void
rs_binder(struct rs *r)
{
	uint64_t n, k;

	if (r->err)
		return;
	n = rs_opt62(r, 'G');
	if (n == 0)
		return;
	rs_putl(r, "for<", 4);
	for (k = 0; k < n && !r->err; k++) {
		if (k > 0)
			rs_putl(r, ", ", 2);
		r->bound++;
		rs_lifetime(r, 1);
		/* Each lifetime prints something: the output bound ends
		 * the loop unless skipping, so bound that case too. */
		if (!rs_step(r, 1))
			return;
	}
	rs_putl(r, "> ", 2);
}

static void rs_path(struct rs *r, int in_value);
static void rs_type(struct rs *r);
static void rs_const(struct rs *r);

static int
rs_enter(struct rs *r)
{
	if (r->err)
		return 0;
	if (++r->depth > RS_MAXDEPTH || !rs_step(r, 1)) {
		r->err = 1;
		r->depth--;
		return 0;
	}
	r->maxdepth = r->depth > r->maxdepth ? r->depth : r->maxdepth;
	return 1;
}

static void rs_path(struct rs *r, int in_value);
static void rs_type(struct rs *r);

/*
 * Print the path (kind 0 or 1: in_value) or type (kind 2) at pos, a
 * back-reference's target: copied from the output when printed before
 * (with the same lifetimes bound, and if it would not now pass the
 * recursion limit, which it would at this depth when c++filt fails), else
 * parsed and remembered.
 */
static void
rs_follow(struct rs *r, size_t pos, int kind)
{
	struct rs_memo *m;
	size_t save = r->i, off = r->olen;
	unsigned k, maxdepth = r->maxdepth, depth = r->depth;

	for (k = 0; k < r->nmemo; k++) {
		m = &r->memo[k];
		if (m->pos == pos && m->kind == kind && m->bound == r->bound) {
			if (depth + m->used > RS_MAXDEPTH) {
				r->err = 1;
				return;
			}
			if (!rs_step(r, 1))
				return;
			if (m->len > r->ocap - r->olen) {
				r->err = 1;
				return;
			}
			memcpy(r->out + r->olen, r->out + m->off, m->len);
			r->olen += m->len;
			if (depth + m->used > r->maxdepth)
				r->maxdepth = depth + m->used;
			return;
		}
	}
	r->i = pos;
	r->maxdepth = depth;
	if (kind == 2)
		rs_type(r);
	else
		rs_path(r, kind);
	r->i = save;
	if (!r->err && r->nmemo < RS_NMEMO) {
		m = &r->memo[r->nmemo++];
		m->pos = pos;
		m->off = off;
		m->len = r->olen - off;
		m->bound = r->bound;
		m->used = r->maxdepth - depth;
		m->kind = kind;
	}
	if (maxdepth > r->maxdepth)
		r->maxdepth = maxdepth;
}

/* A back-reference's target (past the end if it is: then an error when
 * followed, as in libiberty). */
static size_t
rs_backref(struct rs *r)
{
	uint64_t to = rs_int62(r);

	return to > r->n ? r->n : (size_t)to;
}

static void
rs_generic_arg(struct rs *r)
{
	if (rs_eat(r, 'L'))
		rs_lifetime(r, rs_int62(r));
	else if (rs_eat(r, 'K'))
		rs_const(r);
	else
		rs_type(r);
}

static void
rs_path(struct rs *r, int in_value)
{
	struct rs_ident id;
	uint64_t dis = 0;
	size_t k;
	int skip;
	char tag, ns;

	if (!rs_enter(r))
		return;
	switch (tag = rs_next(r)) {
	case 'C':
		rs_name(r, 0);
		break;
	case 'N':
		ns = rs_next(r);
		if (!rs_lower(ns) && !rs_upper(ns)) {
			r->err = 1;
			break;
		}
		rs_path(r, in_value);
		if (rs_lower(ns)) {
			rs_name(r, 1);
			break;
		}
		/* a closure, shim or other special namespace */
		dis = rs_opt62(r, 's');
		rs_ident(r, &id);
		rs_putl(r, "::{", 3);
		if (ns == 'C')
			rs_puts(r, "closure");
		else if (ns == 'S')
			rs_puts(r, "shim");
		else
			rs_putc(r, ns);
		if (id.a != NULL || id.p != NULL) {
			rs_putc(r, ':');
			rs_print_ident(r, &id);
		}
		rs_putc(r, '#');
		rs_uint(r, dis, 0);
		rs_putc(r, '}');
		break;
	case 'M':
	case 'X':
		rs_skip_dis(r);
		skip = r->skip;
		r->skip = 1;
		rs_path(r, in_value);
		r->skip = skip;
		/* FALLTHROUGH */
	case 'Y':
		rs_putc(r, '<');
		rs_type(r);
		if (tag != 'M') {
			rs_putl(r, " as ", 4);
			rs_path(r, 0);
		}
		rs_putc(r, '>');
		break;
	case 'I':
		rs_path(r, in_value);
		if (in_value)
			rs_putl(r, "::", 2);
		rs_putc(r, '<');
		for (k = 0; !r->err && !rs_eat(r, 'E'); k++) {
			if (k > 0)
				rs_putl(r, ", ", 2);
			rs_generic_arg(r);
		}
		rs_putc(r, '>');
		break;
	case 'B':
		k = rs_backref(r);
		if (!r->skip && !r->err)
			rs_follow(r, k, in_value);
		break;
	default:
		r->err = 1;
	}
	r->depth--;
}

static const char *
rs_basic(char tag)
{
	switch (tag) {
	case 'b': return "bool";
	case 'c': return "char";
	case 'e': return "str";
	case 'u': return "()";
	case 'a': return "i8";
	case 's': return "i16";
	case 'l': return "i32";
	case 'x': return "i64";
	case 'n': return "i128";
	case 'i': return "isize";
	case 'h': return "u8";
	case 't': return "u16";
	case 'm': return "u32";
	case 'y': return "u64";
	case 'o': return "u128";
	case 'j': return "usize";
	case 'f': return "f32";
	case 'd': return "f64";
	case 'z': return "!";
	case 'p': return "_";
	case 'v': return "...";
	default: return NULL;
	}
}

/* The ABI of an extern fn: '_' back to '-' (libiberty's loop skips the
 * byte after each '_' it rejoins, so "a__b" prints "a-_b"). */
static void
rs_abi(struct rs *r, const char *a, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (a[k] == '_') {
			rs_put(r, a, k);
			rs_putc(r, '-');
			a += k + 1;
			n -= k + 1;
			k = 0;
		}
	rs_put(r, a, n);
}

static void
rs_fn(struct rs *r)
{
	struct rs_ident abi;
	uint64_t bound = r->bound;
	size_t k;

	rs_binder(r);
	if (rs_eat(r, 'U'))
		rs_putl(r, "unsafe ", 7);
	if (rs_eat(r, 'K')) {
		if (rs_eat(r, 'C')) {
			abi.a = "C";
			abi.alen = 1;
		} else {
			rs_ident(r, &abi);
			if (r->err || abi.a == NULL || abi.p != NULL) {
				r->err = 1;
				r->bound = bound;
				return;
			}
		}
		rs_putl(r, "extern \"", 8);
		rs_abi(r, abi.a, abi.alen);
		rs_putl(r, "\" ", 2);
	}
	rs_putl(r, "fn(", 3);
	for (k = 0; !r->err && !rs_eat(r, 'E'); k++) {
		if (k > 0)
			rs_putl(r, ", ", 2);
		rs_type(r);
	}
	rs_putc(r, ')');
	if (!rs_eat(r, 'u')) {
		rs_putl(r, " -> ", 4);
		rs_type(r);
	}
	r->bound = bound;
}

/* A path that may leave its generic argument list open (for the
 * associated types of a dyn trait).  1 if it did. */
static int
rs_path_open(struct rs *r)
{
	int open = 0;
	size_t k, save;

	if (!rs_enter(r))
		return 0;
	if (rs_eat(r, 'B')) {
		k = rs_backref(r);
		if (!r->skip && !r->err) {
			save = r->i;
			r->i = k;
			open = rs_path_open(r);
			r->i = save;
		}
	} else if (rs_eat(r, 'I')) {
		rs_path(r, 0);
		rs_putc(r, '<');
		open = 1;
		for (k = 0; !r->err && !rs_eat(r, 'E'); k++) {
			if (k > 0)
				rs_putl(r, ", ", 2);
			rs_generic_arg(r);
		}
	} else
		rs_path(r, 0);
	r->depth--;
	return open;
}

static void
rs_dyn_trait(struct rs *r)
{
	struct rs_ident id;
	int open;

	if (r->err)
		return;
	open = rs_path_open(r);
	while (!r->err && rs_eat(r, 'p')) {
		rs_put(r, open ? ", " : "<", open ? 2 : 1);
		open = 1;
		rs_ident(r, &id);
		rs_print_ident(r, &id);
		rs_putl(r, " = ", 3);
		rs_type(r);
	}
	if (open)
		rs_putc(r, '>');
}

static void
rs_type(struct rs *r)
{
	const char *b;
	uint64_t lt, bound;
	size_t k;
	char tag;

	if (r->err)
		return;
	tag = rs_next(r);
	if ((b = rs_basic(tag)) != NULL) {
		rs_puts(r, b);
		return;
	}
	if (!rs_enter(r))
		return;
	switch (tag) {
	case 'R':
	case 'Q':
		rs_putc(r, '&');
		if (rs_eat(r, 'L')) {
			lt = rs_int62(r);
			if (lt) {
				rs_lifetime(r, lt);
				rs_putc(r, ' ');
			}
		}
		if (tag != 'R')
			rs_putl(r, "mut ", 4);
		rs_type(r);
		break;
	case 'P':
	case 'O':
		rs_putc(r, '*');
		rs_puts(r, tag == 'P' ? "const " : "mut ");
		rs_type(r);
		break;
	case 'A':
	case 'S':
		rs_putc(r, '[');
		rs_type(r);
		if (tag == 'A') {
			rs_putl(r, "; ", 2);
			rs_const(r);
		}
		rs_putc(r, ']');
		break;
	case 'T':
		rs_putc(r, '(');
		for (k = 0; !r->err && !rs_eat(r, 'E'); k++) {
			if (k > 0)
				rs_putl(r, ", ", 2);
			rs_type(r);
		}
		if (k == 1)
			rs_putc(r, ',');
		rs_putc(r, ')');
		break;
	case 'F':
		rs_fn(r);
		break;
	case 'D':
		rs_putl(r, "dyn ", 4);
		bound = r->bound;
		rs_binder(r);
		for (k = 0; !r->err && !rs_eat(r, 'E'); k++) {
			if (k > 0)
				rs_putl(r, " + ", 3);
			rs_dyn_trait(r);
		}
		r->bound = bound;
		if (!rs_eat(r, 'L')) {
			r->err = 1;
			break;
		}
		lt = rs_int62(r);
		if (lt) {
			rs_putl(r, " + ", 3);
			rs_lifetime(r, lt);
		}
		break;
	case 'B':
		k = rs_backref(r);
		if (!r->skip && !r->err)
			rs_follow(r, k, 2);
		break;
	default:
		r->i--;		/* the tag is the path's */
		rs_path(r, 0);
	}
	r->depth--;
}

/* Hex digits ended by '_': how many, the value (low 64 bits) in *v. */
static size_t
rs_hex(struct rs *r, uint64_t *v)
{
	size_t n = 0;
	char c;

	*v = 0;
	while (!rs_eat(r, '_')) {
		*v <<= 4;
		c = rs_next(r);
		if (rs_digit(c))
			*v |= (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint64_t)(10 + c - 'a');
		else {
			r->err = 1;
			return 0;
		}
		n++;
	}
	return n;
}

static void
rs_const_uint(struct rs *r)
{
	uint64_t v;
	size_t n;

	if (r->err)
		return;
	n = rs_hex(r, &v);
	if (n > 16) {
		/* Past 64 bits: the digits as they are, but as libiberty
		 * prints them, one byte late (the last digit dropped, the
		 * closing '_' printed). */
		rs_putl(r, "0x", 2);
		rs_put(r, r->s + r->i - n, n);
	} else if (n > 0)
		rs_uint(r, v, 0);
	else
		r->err = 1;
}

static void
rs_const_char(struct rs *r)
{
	uint64_t v;
	size_t n = rs_hex(r, &v);

	if (r->err || n == 0 || n > 8) {
		r->err = 1;
		return;
	}
	rs_putc(r, '\'');
	if (v == '\t')
		rs_putl(r, "\\t", 2);
	else if (v == '\r')
		rs_putl(r, "\\r", 2);
	else if (v == '\n')
		rs_putl(r, "\\n", 2);
	else if (v > ' ' && v < '~')
		rs_putc(r, (char)v);
	else {
		rs_putl(r, "\\u{", 3);
		rs_uint(r, v, 1);
		rs_putc(r, '}');
	}
	rs_putc(r, '\'');
}

static void
rs_const(struct rs *r)
{
	uint64_t v;
	size_t k, save;

	if (!rs_enter(r))
		return;
	if (rs_eat(r, 'B')) {
		k = rs_backref(r);
		if (!r->skip && !r->err) {
			save = r->i;
			r->i = k;
			rs_const(r);
			r->i = save;
		}
		r->depth--;
		return;
	}
	switch (rs_next(r)) {
	case 'p':
		rs_putc(r, '_');
		break;
	case 'h': case 't': case 'm': case 'y': case 'o': case 'j':
		rs_const_uint(r);
		break;
	case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
		if (rs_eat(r, 'n'))
			rs_putc(r, '-');
		rs_const_uint(r);
		break;
	case 'b':
		if (rs_hex(r, &v) != 1 || v > 1)
			r->err = 1;
		else
			rs_puts(r, v ? "true" : "false");
		break;
	case 'c':
		rs_const_char(r);
		break;
	default:
		r->err = 1;
	}
	r->depth--;
}

/* ---- v0, the fast path ------------------------------------------------- */

/*
 * Most v0 symbols are read in one go by the rf_ functions below, on a copy
 * of the symbol whose [0-9A-Za-z_] run is followed by RF_PAD NUL bytes: no
 * byte is read past a NUL, so that no length is checked but the
 * identifiers', and a short identifier is copied as 32 bytes.  Each takes
 * the position to read at and returns the one past what it read (kept in
 * registers).  They take what rs_path() and the rest take, and print it as
 * those do, but give up (NULL) on what is rarer: punycode, binders and the
 * lifetimes they bind, char constants and integers over 64 bits,
 * back-references forward, more than RS_NMEMO back-references to parse,
 * paths and types nested deeper than RF_MAXDEPTH, output past its bound;
 * rs_v0() then decides.  A skipped path (an impl's, the instantiating
 * crate) is printed, its back-references not followed, and its output
 * taken back.
 *
 * Nothing they take reaches the bounds of rs_v0() (where libiberty would
 * fail, the fast path must give up): the deepest recursion libiberty
 * counts is at most RF_MAXDEPTH, plus RF_MAXDEPTH for each of the
 * remembered back-references it expands, one inside the other; and the
 * work, at most 3 steps a byte (a tag read at two levels, a
 * back-reference's copy) for the symbol and each path or type parsed at a
 * back-reference's target (RS_NMEMO of them remembered, f->jumps not), is
 * kept under rs_v0()'s budget by a bound on f->jumps.
 */
#define RF_MAXIN 1024		/* longer symbols: rs_v0() alone */
#define RF_PAD 32
#define RF_MAXDEPTH 31

_Static_assert(RF_MAXDEPTH * (RS_NMEMO + 1) <= RS_MAXDEPTH,
    "the fast path's depth must stay within libiberty's");

struct rf {
	const char *s;		/* the copy (past "_R") */
	const char *e;		/* the end of the run: *e == 0 */
	char *ob, *o, *oe;	/* the output: start, next byte, bound */
	int skip;		/* back-references not followed */
	unsigned jumps, maxjumps;	/* back-references parsed again */
	unsigned nmemo;
	struct rf_memo {
		uint32_t pos, off, len;
		int kind;	/* 0, 1: a path (in_value); 2: a type */
	} memo[RS_NMEMO];
};

static const char *rf_path(struct rf *f, const char *p, int in_value,
    unsigned d);
static const char *rf_type(struct rf *f, const char *p, unsigned d);
static const char *rf_const(struct rf *f, const char *p, unsigned d);

/* The output is written through a local copy of f->o (a char store may
 * alias *f: the compiler would read f->o again after each). */
static inline int
rf_lit(struct rf *f, const char *s, size_t n)
{
	char *o = f->o;

	if ((size_t)(f->oe - o) < n)
		return 0;
	memcpy(o, s, n);
	f->o = o + n;
	return 1;
}

static inline int
rf_putc(struct rf *f, char c)
{
	char *o = f->o;

	if (o == f->oe)
		return 0;
	*o = c;
	f->o = o + 1;
	return 1;
}

/* n bytes of the copy at s (s + n <= f->e), after "::" if sep. */
static inline int
rf_copy(struct rf *f, const char *s, size_t n, int sep)
{
	char *o = f->o;

	if (n <= 30 && f->oe - o >= 34) {
		memcpy(o, "::", 2);
		o += sep ? 2 : 0;
		memcpy(o, s, 32);
		f->o = o + n;
		return 1;
	}
	if (sep && !rf_lit(f, "::", 2))
		return 0;
	return rf_lit(f, s, n);
}

static int
rf_uint(struct rf *f, uint64_t v)
{
	char b[24];
	size_t k = sizeof(b);

	do {
		b[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	return rf_lit(f, b + k, sizeof(b) - k);
}

/* A base-62 number ended by '_', as rs_int62(), in *v. */
static inline const char *
rf_int62(const char *p, uint64_t *v)
{
	uint64_t x = 0;
	unsigned c;

	if (*p == '_') {
		*v = 0;
		return p + 1;
	}
	for (; *p != '_'; p++) {
		if ((c = rs_b62[(unsigned char)*p]) == 0)
			return NULL;
		x = x * 62 + (c - 1);
	}
	*v = x + 1;
	return p + 1;
}

/* [<disambiguator>] skipped, as rs_skip_dis(): its '_' looked for 16
 * bytes at a time (it stops at a NUL too). */
static inline const char *
rf_skip_dis(const char *p)
{
	if (*p != 's')
		return p;
#ifdef __SSE2__
	{
		const __m128i us = _mm_set1_epi8('_'), z = _mm_setzero_si128();
		__m128i x;
		unsigned m;

		for (p++;; p += 16) {
			x = _mm_loadu_si128((const __m128i *)(const void *)p);
			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(x, us), _mm_cmpeq_epi8(x, z)));
			if (m != 0)
				break;
		}
		p += rs_ctz(m);
	}
#else
	for (p++; *p != '_' && *p != 0; p++)
		;
#endif
	return *p == '_' ? p + 1 : NULL;
}

/* An identifier's decimal length and '_' (not punycode): its bytes at *a,
 * *len of them. */
static inline const char *
rf_ident(const struct rf *f, const char *p, const char **a, size_t *len)
{
	size_t n;
	unsigned d0 = (unsigned)(p[0] - '0'), d1 = (unsigned)(p[1] - '0');
	unsigned two;

	if (d0 > 9)
		return NULL;
	/* one digit or two, without a branch (no leading zeros: "0" is
	 * one); three or more in the loop */
	two = (d1 <= 9) & (d0 != 0);
	n = two ? d0 * 10 + d1 : d0;
	p += 1 + two;
	if (two)
		while ((unsigned)(*p - '0') <= 9) {
			n = n * 10 + (size_t)(*p++ - '0');
			if (n > RF_MAXIN)
				return NULL;
		}
	p += *p == '_';
	if (n > (size_t)(f->e - p))
		return NULL;
	*a = p;
	*len = n;
	return p + n;
}

/* [<disambiguator>] <identifier>, printed after "::" if sep (nothing if it
 * is empty). */
static inline const char *
rf_name(struct rf *f, const char *p, int sep)
{
	const char *a;
	size_t len;

	if ((p = rf_skip_dis(p)) == NULL ||
	    (p = rf_ident(f, p, &a, &len)) == NULL)
		return NULL;
	return len == 0 || rf_copy(f, a, len, sep) ? p : NULL;
}

/* A special namespace's name (ns uppercase): ::{closure:name#N} */
static const char *
rf_special(struct rf *f, const char *p, char ns)
{
	const char *a;
	uint64_t dis = 0;
	size_t len;
	int ok;

	if (*p == 's') {
		if ((p = rf_int62(p + 1, &dis)) == NULL)
			return NULL;
		dis++;
	}
	if ((p = rf_ident(f, p, &a, &len)) == NULL || !rf_lit(f, "::{", 3))
		return NULL;
	if (ns == 'C')
		ok = rf_lit(f, "closure", 7);
	else if (ns == 'S')
		ok = rf_lit(f, "shim", 4);
	else
		ok = rf_putc(f, ns);
	if (ok && len > 0)
		ok = rf_putc(f, ':') && rf_lit(f, a, len);
	return ok && rf_putc(f, '#') && rf_uint(f, dis) && rf_putc(f, '}') ?
	    p : NULL;
}

/* A back-reference's target, in *to; p is past its 'B', the target must
 * be before it. */
static inline const char *
rf_backref(const struct rf *f, const char *p, size_t *to)
{
	size_t at = (size_t)(p - 1 - f->s);
	uint64_t v;

	if ((p = rf_int62(p, &v)) == NULL || v >= at)
		return NULL;
	*to = (size_t)v;
	return p;
}

/* The path (kind 0, 1: in_value) or type (2) at pos, at depth d: copied
 * from the output if printed before, else parsed and remembered. */
static int
rf_follow(struct rf *f, size_t pos, int kind, unsigned d)
{
	struct rf_memo *m;
	size_t off = (size_t)(f->o - f->ob);
	unsigned k;

	for (k = 0; k < f->nmemo; k++) {
		m = &f->memo[k];
		if (m->pos == pos && m->kind == kind) {
			if ((size_t)(f->oe - f->o) < m->len)
				return 0;
			memcpy(f->o, f->ob + m->off, m->len);
			f->o += m->len;
			return 1;
		}
	}
	if (f->nmemo == RS_NMEMO || (kind == 2 ? rf_type(f, f->s + pos, d) :
	    rf_path(f, f->s + pos, kind, d)) == NULL)
		return 0;
	m = &f->memo[f->nmemo++];
	m->pos = (uint32_t)pos;
	m->off = (uint32_t)off;
	m->len = (uint32_t)(f->o - f->ob - off);
	m->kind = kind;
	return 1;
}

/* Generic arguments up to their 'E', at depth d, separated by ", ". */
static const char *
rf_generic_args(struct rf *f, const char *p, unsigned d)
{
	int first = 1;

	for (; *p != 'E'; first = 0) {
		if (!first && !rf_lit(f, ", ", 2))
			return NULL;
		if (*p == 'L') {
			/* lifetimes: only '_ (none bound) */
			if (p[1] != '_' || !rf_lit(f, "'_", 2))
				return NULL;
			p += 2;
		} else if (*p == 'K')
			p = rf_const(f, p + 1, d);
		else
			p = rf_type(f, p, d);
		if (p == NULL)
			return NULL;
	}
	return p + 1;
}

/* A path at depth d printed and taken back, its back-references not
 * followed. */
static const char *
rf_skip_path(struct rf *f, const char *p, int in_value, unsigned d)
{
	char *o = f->o;
	int skip = f->skip;

	f->skip = 1;
	p = rf_path(f, p, in_value, d);
	f->skip = skip;
	f->o = o;
	return p;
}

/* The innermost path at depth d, its tag at p[-1], but a crate root. */
static const char *
rf_path_inner(struct rf *f, const char *p, int in_value, unsigned d)
{
	size_t to;
	char tag = p[-1];

	if (tag == 'B') {
		if ((p = rf_backref(f, p, &to)) == NULL ||
		    (!f->skip && !rf_follow(f, to, in_value, d + 1)))
			return NULL;
		return p;
	}
	if (tag == 'I') {
		if ((p = rf_path(f, p, in_value, d + 1)) == NULL ||
		    (in_value && !rf_lit(f, "::", 2)) || !rf_putc(f, '<') ||
		    (p = rf_generic_args(f, p, d + 1)) == NULL ||
		    !rf_putc(f, '>'))
			return NULL;
		return p;
	}
	if (tag != 'M' && tag != 'X' && tag != 'Y')
		return NULL;
	if (tag != 'Y' && ((p = rf_skip_dis(p)) == NULL ||
	    (p = rf_skip_path(f, p, in_value, d + 1)) == NULL))
		return NULL;
	if (!rf_putc(f, '<') || (p = rf_type(f, p, d + 1)) == NULL ||
	    (tag != 'M' && (!rf_lit(f, " as ", 4) ||
	    (p = rf_path(f, p, 0, d + 1)) == NULL)) || !rf_putc(f, '>'))
		return NULL;
	return p;
}

/* A path at depth d.  Its nested 'N's (each a level) are skipped in a
 * loop: their names follow the innermost path in the order they print, and
 * their namespaces are read again from the copy (p0[1], p0[3]...). */
static const char *
rf_path(struct rf *f, const char *p, int in_value, unsigned d)
{
	const char *const p0 = p;
	size_t k;
	char ns;

	while (*p == 'N')
		p += 2;
	k = (size_t)(p - p0) / 2;
	if (d + k > RF_MAXDEPTH)
		return NULL;
	if (*p++ == 'C')
		p = rf_name(f, p, 0);
	else
		p = rf_path_inner(f, p, in_value, (unsigned)(d + k));
	while (p != NULL && k > 0) {
		ns = p0[2 * --k + 1];
		if (rs_lower(ns))
			p = rf_name(f, p, 1);
		else if (rs_upper(ns))
			p = rf_special(f, p, ns);
		else
			return NULL;
	}
	return p;
}

/* Basic types by their lowercase tag: the name and its length. */
static const struct {
	char s[6];
	unsigned char n;
} rf_basics[26] = {
	['a' - 'a'] = {"i8", 2}, ['b' - 'a'] = {"bool", 4},
	['c' - 'a'] = {"char", 4}, ['d' - 'a'] = {"f64", 3},
	['e' - 'a'] = {"str", 3}, ['f' - 'a'] = {"f32", 3},
	['h' - 'a'] = {"u8", 2}, ['i' - 'a'] = {"isize", 5},
	['j' - 'a'] = {"usize", 5}, ['l' - 'a'] = {"i32", 3},
	['m' - 'a'] = {"u32", 3}, ['n' - 'a'] = {"i128", 4},
	['o' - 'a'] = {"u128", 4}, ['p' - 'a'] = {"_", 1},
	['s' - 'a'] = {"i16", 3}, ['t' - 'a'] = {"u16", 3},
	['u' - 'a'] = {"()", 2}, ['v' - 'a'] = {"...", 3},
	['x' - 'a'] = {"i64", 3}, ['y' - 'a'] = {"u64", 3},
	['z' - 'a'] = {"!", 1},
};

/* A path at depth d that may leave its argument list open, as
 * rs_path_open(): *open set if it does. */
static const char *
rf_path_open(struct rf *f, const char *p, unsigned d, int *open)
{
	size_t to;

	*open = 0;
	if (d > RF_MAXDEPTH)
		return NULL;
	if (*p == 'B') {
		if ((p = rf_backref(f, p + 1, &to)) == NULL)
			return NULL;
		if (f->skip)
			return p;
		if (++f->jumps > f->maxjumps ||
		    rf_path_open(f, f->s + to, d + 1, open) == NULL)
			return NULL;
		return p;
	}
	if (*p == 'I') {
		*open = 1;
		if ((p = rf_path(f, p + 1, 0, d + 1)) == NULL ||
		    !rf_putc(f, '<'))
			return NULL;
		return rf_generic_args(f, p, d + 1);
	}
	return rf_path(f, p, 0, d + 1);
}

/* A dyn trait at depth d (its path one deeper), as rs_dyn_trait(). */
static const char *
rf_dyn_trait(struct rf *f, const char *p, unsigned d)
{
	const char *a;
	size_t len;
	int open;

	if ((p = rf_path_open(f, p, d + 1, &open)) == NULL)
		return NULL;
	for (; *p == 'p'; open = 1)
		if (!(open ? rf_lit(f, ", ", 2) : rf_putc(f, '<')) ||
		    (p = rf_ident(f, p + 1, &a, &len)) == NULL ||
		    !rf_lit(f, a, len) || !rf_lit(f, " = ", 3) ||
		    (p = rf_type(f, p, d + 1)) == NULL)
			return NULL;
	return !open || rf_putc(f, '>') ? p : NULL;
}

/* A fn type at depth d, as rs_fn(), binders aside. */
static const char *
rf_fn(struct rf *f, const char *p, unsigned d)
{
	const char *a;
	size_t len, k;
	int first = 1;

	if (*p == 'G')
		return NULL;
	if (*p == 'U' && (p++, !rf_lit(f, "unsafe ", 7)))
		return NULL;
	if (*p == 'K') {
		if (p[1] == 'C') {
			p += 2;
			a = "C";
			len = 1;
		} else if ((p = rf_ident(f, p + 1, &a, &len)) == NULL ||
		    len == 0)
			return NULL;
		if (!rf_lit(f, "extern \"", 8))
			return NULL;
		/* '_' back to '-', as rs_abi() */
		for (k = 0; k < len; k++)
			if (a[k] == '_') {
				if (!rf_lit(f, a, k) || !rf_putc(f, '-'))
					return NULL;
				a += k + 1;
				len -= k + 1;
				k = 0;
			}
		if (!rf_lit(f, a, len) || !rf_lit(f, "\" ", 2))
			return NULL;
	}
	if (!rf_lit(f, "fn(", 3))
		return NULL;
	for (; *p != 'E'; first = 0)
		if ((!first && !rf_lit(f, ", ", 2)) ||
		    (p = rf_type(f, p, d + 1)) == NULL)
			return NULL;
	if (!rf_putc(f, ')'))
		return NULL;
	if (*++p == 'u')
		return p + 1;
	return rf_lit(f, " -> ", 4) ? rf_type(f, p, d + 1) : NULL;
}

/* A type at depth d (a basic one takes none). */
static const char *
rf_type(struct rf *f, const char *p, unsigned d)
{
	size_t to;
	int k;
	char tag = *p++;

	if (rs_lower(tag)) {
		if (rf_basics[tag - 'a'].n == 0 ||
		    !rf_lit(f, rf_basics[tag - 'a'].s, rf_basics[tag - 'a'].n))
			return NULL;
		return p;
	}
	if (d > RF_MAXDEPTH)
		return NULL;
	switch (tag) {
	case 'R':
	case 'Q':
		if (!rf_putc(f, '&'))
			return NULL;
		if (*p == 'L') {
			if (p[1] != '_')
				return NULL;
			p += 2;
		}
		return tag == 'R' || rf_lit(f, "mut ", 4) ?
		    rf_type(f, p, d + 1) : NULL;
	case 'P':
		return rf_lit(f, "*const ", 7) ? rf_type(f, p, d + 1) : NULL;
	case 'O':
		return rf_lit(f, "*mut ", 5) ? rf_type(f, p, d + 1) : NULL;
	case 'A':
	case 'S':
		if (!rf_putc(f, '[') || (p = rf_type(f, p, d + 1)) == NULL ||
		    (tag == 'A' && (!rf_lit(f, "; ", 2) ||
		    (p = rf_const(f, p, d + 1)) == NULL)) || !rf_putc(f, ']'))
			return NULL;
		return p;
	case 'T':
		if (!rf_putc(f, '('))
			return NULL;
		for (k = 0; *p != 'E'; k++)
			if ((k > 0 && !rf_lit(f, ", ", 2)) ||
			    (p = rf_type(f, p, d + 1)) == NULL)
				return NULL;
		return (k != 1 || rf_putc(f, ',')) && rf_putc(f, ')') ?
		    p + 1 : NULL;
	case 'F':
		return rf_fn(f, p, d);
	case 'D':
		if (*p == 'G' || !rf_lit(f, "dyn ", 4))
			return NULL;
		for (k = 0; *p != 'E'; k++)
			if ((k > 0 && !rf_lit(f, " + ", 3)) ||
			    (p = rf_dyn_trait(f, p, d)) == NULL)
				return NULL;
		/* 'E', then the lifetime: only none (L_) */
		return p[1] == 'L' && p[2] == '_' ? p + 3 : NULL;
	case 'B':
		if ((p = rf_backref(f, p, &to)) == NULL ||
		    (!f->skip && !rf_follow(f, to, 2, d + 1)))
			return NULL;
		return p;
	default:
		/* the tag is the path's */
		return rf_path(f, p - 1, 0, d + 1);
	}
}

/* Hex digits ended by '_' (1 to 16 of them), as rs_hex(): the value in
 * *v, how many in *n. */
static inline const char *
rf_hex(const char *p, uint64_t *v, int *n)
{
	uint64_t x = 0;
	int k;
	char c;

	for (k = 0; (c = *p) != '_'; k++, p++) {
		if (rs_digit(c))
			x = x << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x = x << 4 | (uint64_t)(10 + c - 'a');
		else
			return NULL;
	}
	if (k == 0 || k > 16)
		return NULL;
	*v = x;
	*n = k;
	return p + 1;
}

/* A const at depth d, as rs_const(): not chars. */
static const char *
rf_const(struct rf *f, const char *p, unsigned d)
{
	uint64_t v;
	size_t to;
	int n;

	if (d > RF_MAXDEPTH)
		return NULL;
	switch (*p++) {
	case 'B':
		if ((p = rf_backref(f, p, &to)) == NULL)
			return NULL;
		if (f->skip)
			return p;
		if (++f->jumps > f->maxjumps ||
		    rf_const(f, f->s + to, d + 1) == NULL)
			return NULL;
		return p;
	case 'p':
		return rf_putc(f, '_') ? p : NULL;
	case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
		if (*p == 'n' && (p++, !rf_putc(f, '-')))
			return NULL;
		/* FALLTHROUGH */
	case 'h': case 't': case 'm': case 'y': case 'o': case 'j':
		if ((p = rf_hex(p, &v, &n)) == NULL || !rf_uint(f, v))
			return NULL;
		return p;
	case 'b':
		if ((p = rf_hex(p, &v, &n)) == NULL || n != 1 || v > 1 ||
		    !(v ? rf_lit(f, "true", 4) : rf_lit(f, "false", 5)))
			return NULL;
		return p;
	default:
		return NULL;
	}
}

/*
 * s[0..n) (past "_R") copied to in[], its [0-9A-Za-z_] run checked on the
 * way (16 bytes at a time): the run's length returned, the RF_PAD bytes
 * after it set to NUL.
 */
static size_t
rf_load(char *in, const char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	__m128i v;
	unsigned bad, esc;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		_mm_storeu_si128((__m128i *)(void *)(in + i), v);
		if ((bad = rs_bad16(v, RS_V0, &esc)) != 0) {
			i += rs_ctz(bad);
			goto end;
		}
	}
	if (i < n && n >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)
		    (s + n - 16));
		_mm_storeu_si128((__m128i *)(void *)(in + n - 16), v);
		bad = rs_bad16(v, RS_V0, &esc) >> (16 - (n - i));
		i = bad != 0 ? i + rs_ctz(bad) : n;
		goto end;
	}
#endif
	for (; i < n && (rs_cls[(unsigned char)s[i]] & RS_V0); i++)
		in[i] = s[i];
#ifdef __SSE2__
end:
	/* (not memset, which gcc -O2 makes a "rep stos", slow to start) */
	_mm_storeu_si128((__m128i *)(void *)(in + i), _mm_setzero_si128());
	_mm_storeu_si128((__m128i *)(void *)(in + i + 16),
	    _mm_setzero_si128());
#else
	memset(in + i, 0, RF_PAD);
#endif
	return i;
}

/* A v0 symbol s[0..n) (past "_R") by the fast path: the name's length,
 * or 0 for rs_v0() to decide (maxwork: its budget). */
static size_t
rf_v0(const char *s, size_t n, char *out, size_t ocap, size_t maxwork)
{
	char in[RF_MAXIN + RF_PAD];
	struct rf f;
	const char *p;
	size_t k;

	if (n > RF_MAXIN || ocap < 34 || n == 0 || !rs_upper(s[0]))
		return 0;
	k = rf_load(in, s, n);
	if (k < n && s[k] != '.')
		return 0;
	f.s = in;
	f.e = in + k;
	f.ob = f.o = out;
	f.oe = out + ocap;
	f.skip = 0;
	f.jumps = 0;
	k = maxwork / (3 * k);
	f.maxjumps = k > RS_NMEMO + 1 ? (unsigned)(k - RS_NMEMO - 1) : 0;
	f.nmemo = 0;
	if ((p = rf_path(&f, in, 1, 1)) == NULL)
		return 0;
	/* the instantiating crate */
	if (p < f.e && (p = rf_skip_path(&f, p, 0, 1)) == NULL)
		return 0;
	return p == f.e ? (size_t)(f.o - out) : 0;
}

static int
rs_v0(struct rs *r)
{
	size_t k;
	int esc;

	if (r->n == 0 || !rs_upper(r->s[0]))
		return 0;
	/* Only [0-9A-Za-z_] up to a ".suffix" (anything after it). */
	k = rs_span(r->s, r->n, RS_V0, &esc);
	if (k < r->n && r->s[k] != '.')
		return 0;
	r->n = k;
	rs_path(r, 1);
	if (!r->err && r->i < r->n) {	/* the instantiating crate */
		r->skip = 1;
		rs_path(r, 0);
	}
	return !r->err && r->i == r->n;
}

size_t
fold_demangle_rust(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags)
{
	struct rs r;
	size_t n;
	int ok;

	(void)flags;		/* c++filt -p changes nothing in Rust names */
	if (len < 2 || sym[0] != '_' || (sym[1] != 'R' && sym[1] != 'Z'))
		return 0;
	/* Not memset: the memo table is only read up to nmemo. */
	r.i = r.olen = r.work = 0;
	r.bound = 0;
	r.depth = r.maxdepth = r.nmemo = 0;
	r.skip = r.err = 0;
	r.out = out;
	r.ocap = cap < FOLD_DM_MAXOUT ? cap : FOLD_DM_MAXOUT;
	r.maxwork = 2 * len + 2 * FOLD_DM_MAXOUT + 64;
	if (len >= 2 && sym[0] == '_' && sym[1] == 'R') {
		if (RS_FAST && (n = rf_v0(sym + 2, len - 2, out, r.ocap,
		    r.maxwork)) > 0)
			return n;
		r.s = sym + 2;
		r.n = len - 2;
		r.end = sym + len;
		ok = rs_v0(&r);
	} else if (len >= 3 && sym[0] == '_' && sym[1] == 'Z' &&
	    sym[2] == 'N') {
		if ((n = rs_legacy_fast(sym + 3, len - 3, out, r.ocap)) > 0)
			return n;
		r.s = sym + 3;
		r.n = len - 3;
		r.end = sym + len;
		ok = rs_legacy(&r);
	} else
		return 0;
	return ok ? r.olen : 0;
}

/*
 * A legacy Rust name a tool printed half demangled, "a::b::h<16 hex>" (DTrace's
 * C++ demangler, macOS sample), mangled again ("_ZN1a1b17h<hash>E") so that
 * fold_demangle_rust() finishes it.
 */
size_t
fold_rust_remangle(const char *s, size_t len, char *o)
{
	size_t a, b, n = 3, k, v;
	char num[24];

	if (len < 20 || s[len - 19] != ':' || s[len - 18] != ':' ||
	    s[len - 17] != 'h')
		return 0;
	for (k = len - 16; k < len; k++)
		if (!((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f') ||
		    (s[k] >= 'A' && s[k] <= 'F')))
			return 0;
	memcpy(o, "_ZN", 3);
	for (a = 0;; a = b + 2) {
		for (b = a; b + 1 < len && !(s[b] == ':' && s[b + 1] == ':'); b++)
			;
		if (b + 1 >= len)
			b = len;
		k = sizeof(num);
		v = b - a;
		do {
			num[--k] = (char)('0' + v % 10);
			v /= 10;
		} while (v > 0);
		memcpy(o + n, num + k, sizeof(num) - k);
		n += sizeof(num) - k;
		memcpy(o + n, s + a, b - a);
		n += b - a;
		if (b >= len)
			break;
	}
	o[n++] = 'E';
	return n;
}
