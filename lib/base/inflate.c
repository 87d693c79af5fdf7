/*
 * inflate.c - DEFLATE (RFC 1951) decompression, in zlib (RFC 1950) and
 * gzip (RFC 1952) wrappers, from memory to memory.
 *
 * The input is untrusted.  Bits are read through a 64-bit buffer: the
 * fast loop loads 8 bytes at a time only while 8 bytes remain, the slow
 * reader one byte at a time, and past the end it feeds zero bytes whose
 * count is checked after every symbol (consuming one is "truncated
 * input").  Every code length set is checked for over-subscription and
 * completeness before a table is built from it; every length is checked
 * against the room left and every distance against the output of the
 * current stream so far.  Each step consumes input or produces output (or
 * both), so work is linear in n + cap; tables and state live on the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

/*
 * A table entry: val << 16 | op << 8 | bits.  bits is the number of bits
 * the entry consumes (for a link: the root bits); op says what it is.
 */
enum {
	OP_LIT = 0x00,		/* a literal byte (or a code length symbol) */
	OP_BASE = 0x10,		/* a length or distance: val + (op & 15) bits */
	OP_EOB = 0x20,		/* end of block */
	OP_LINK = 0x40,		/* to a second-level table of op & 15 bits at val */
	OP_BAD = 0x80		/* no code has these bits */
};
#define ENT(op, val, bits) ((uint32_t)(val) << 16 | (uint32_t)(op) << 8 | (bits))
#define E_BITS(e) ((e) & 0xff)
#define E_OP(e) ((e) >> 8 & 0xff)
#define E_VAL(e) ((e) >> 16)

#define MAXBITS 15		/* longest code */
#define LROOT 10		/* first-level bits: literal/length table */
#define DROOT 8			/* distance table */
#define CROOT 7			/* code length code: no second level */
/* Room for any complete code: 286 symbols over a 10-bit root need at most
 * 1332 entries, 30 over 8 bits at most 672 (each second-level table of
 * 2^k entries takes k + 1 symbols at least); the builder checks anyway. */
#define LCAP 1536
#define DCAP 768
#define MINROOM (258 + 8)	/* fast loop: a match plus 8-byte overshoot */

static const char E_TRUNC[] = "truncated input";
static const char E_ROOM[] = "output larger than expected";

enum { T_CL, T_LIT, T_DIST };	/* which code a table is for */

struct inf {
	const unsigned char *in;
	size_t n, pos;		/* pos may pass n: zero bytes fed past the end */
	uint64_t bb;		/* bits, next first; above nb: 0 or the next bits */
	unsigned nb;
	unsigned char *out;
	size_t cap, op, start;	/* start: where the current stream's output began */
	int fixed;		/* the tables hold the fixed code */
	const char *why;
	uint32_t lit[LCAP], dist[DCAP];
};

/* ---- bits ---- */

/* At least k (<= 56) bits in the buffer: zero bytes past the end. */
static inline void
need(struct inf *s, unsigned k)
{
	while (s->nb < k) {
		if (s->pos < s->n)
			s->bb |= (uint64_t)s->in[s->pos] << s->nb;
		s->pos++;
		s->nb += 8;
	}
}

/* 1 if bits past the end were consumed (why set). */
static int
over(struct inf *s)
{
	if (s->pos > s->n && (s->pos - s->n) * 8 > s->nb) {
		s->why = E_TRUNC;
		return 1;
	}
	return 0;
}

static inline void
drop(struct inf *s, unsigned k)
{
	s->bb >>= k;
	s->nb -= k;
}

/* The next k (<= 16) bits as a number (need()ed here). */
static unsigned
getbits(struct inf *s, unsigned k)
{
	unsigned v;

	need(s, k);
	v = (unsigned)(s->bb & ((1u << k) - 1));
	drop(s, k);
	return v;
}

/* Skip to a byte boundary and hand the buffered whole bytes back: s->pos
 * is then the next byte to read.  Only after over() said no. */
static void
align(struct inf *s)
{
	drop(s, s->nb & 7);
	s->pos -= s->nb / 8;
	s->bb = 0;
	s->nb = 0;
}

/* ---- tables ---- */

/* The entry for symbol sym of a code of kind t (bits filled in later). */
static uint32_t
symentry(int t, unsigned sym)
{
	unsigned i, base, extra;

	if (t == T_CL || (t == T_LIT && sym < 256))
		return ENT(OP_LIT, sym, 0);
	if (t == T_LIT) {
		if (sym == 256)
			return ENT(OP_EOB, 0, 0);
		if (sym == 285)
			return ENT(OP_BASE, 258, 0);
		if (sym > 285)
			return ENT(OP_BAD, 0, 0);
		/* 257..284: 3..10 without extra bits, then 4 per extra bit */
		i = sym - 257;
		if (i < 8)
			return ENT(OP_BASE, 3 + i, 0);
		extra = (i >> 2) - 1;
		base = 3 + ((4 + (i & 3)) << extra);
		return ENT(OP_BASE | extra, base, 0);
	}
	if (sym >= 30)
		return ENT(OP_BAD, 0, 0);
	if (sym < 4)
		return ENT(OP_BASE, 1 + sym, 0);
	extra = (sym >> 1) - 1;
	base = 1 + ((2 + (sym & 1)) << extra);
	return ENT(OP_BASE | extra, base, 0);
}

static unsigned
reverse(unsigned code, unsigned len)
{
	unsigned r = 0;

	while (len-- > 0) {
		r = r << 1 | (code & 1);
		code >>= 1;
	}
	return r;
}

/*
 * Build the table of the canonical code lens[0..nsym) (lengths 0..15) for
 * kind t with a first level of root bits into tab[0..tabcap).  0, or -1:
 * the lengths are over-subscribed, or incomplete (allowed, as zlib does,
 * only for a code of one length-1 code, or for a distance code with no
 * code at all), or there is no code.  Bits that are no code decode to
 * OP_BAD.
 */
static int
build(uint32_t *tab, size_t tabcap, const unsigned char *lens, unsigned nsym,
    unsigned root, int t)
{
	unsigned count[MAXBITS + 1], next[MAXBITS + 1], offs[MAXBITS + 2];
	unsigned short sorted[288];
	unsigned len, max, sym, i, code, rev, low, cur, sub, step, k;
	size_t used, at;
	int left;

	memset(count, 0, sizeof(count));
	for (sym = 0; sym < nsym; sym++)
		count[lens[sym]]++;
	for (max = MAXBITS; max > 0 && count[max] == 0; max--)
		;
	left = 1;
	for (len = 1; len <= MAXBITS; len++) {
		left = 2 * left - (int)count[len];
		if (left < 0)
			return -1;
	}
	if (max == 0 && t != T_DIST)
		return -1;
	if (left > 0 && max > 1)
		return -1;
	if (left > 0 && max == 1 && t == T_CL)
		return -1;
	code = 0;
	count[0] = 0;
	offs[1] = 0;
	for (len = 1; len <= MAXBITS; len++) {
		code = (code + count[len - 1]) << 1;
		next[len] = code;
		offs[len + 1] = offs[len] + count[len];
	}
	for (sym = 0; sym < nsym; sym++)
		if (lens[sym] != 0)
			sorted[offs[lens[sym]]++] = (unsigned short)sym;
	for (i = 0; i < (1u << root); i++)
		tab[i] = ENT(OP_BAD, 0, 1);
	used = (size_t)1 << root;
	cur = ~0u;		/* the root slot of the second-level table */
	at = 0;
	sub = 0;
	for (i = 0; i < offs[MAXBITS + 1]; i++) {
		sym = sorted[i];
		len = lens[sym];
		rev = reverse(next[len]++, len);
		if (len <= root) {
			for (k = rev; k < (1u << root); k += 1u << len)
				tab[k] = symentry(t, sym) | len;
			count[len]--;
			continue;
		}
		low = rev & ((1u << root) - 1);
		if (low != cur) {
			/* as many bits as the codes under this root slot need */
			sub = len - root;
			left = 1 << sub;
			while (sub + root < max) {
				left -= (int)count[sub + root];
				if (left <= 0)
					break;
				sub++;
				left <<= 1;
			}
			if (used + ((size_t)1 << sub) > tabcap)
				return -1;
			cur = low;
			at = used;
			used += (size_t)1 << sub;
			for (k = 0; k < (1u << sub); k++)
				tab[at + k] = ENT(OP_BAD, 0, 1);
			tab[low] = ENT(OP_LINK | sub, at, root);
		}
		step = 1u << (len - root);
		for (k = rev >> root; k < (1u << sub); k += step)
			tab[at + k] = symentry(t, sym) | (len - root);
		count[len]--;
	}
	return 0;
}

/* The tables of the fixed code (RFC 1951 3.2.6), unless they hold it. */
static void
fixedtables(struct inf *s)
{
	unsigned char lens[288];

	if (s->fixed)
		return;
	memset(lens, 8, 144);
	memset(lens + 144, 9, 112);
	memset(lens + 256, 7, 24);
	memset(lens + 280, 8, 8);
	(void)build(s->lit, LCAP, lens, 288, LROOT, T_LIT);
	memset(lens, 5, 32);
	(void)build(s->dist, DCAP, lens, 32, DROOT, T_DIST);
	s->fixed = 1;
}

/* Read a dynamic block's code lengths and build its tables: 0 or -1. */
static int
dyntables(struct inf *s)
{
	static const unsigned char order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
	};
	unsigned char lens[286 + 30], cl[19];
	uint32_t ctab[1 << CROOT], e;
	unsigned nlit, ndist, ncl, i, sym, rep, prev;

	s->fixed = 0;
	nlit = getbits(s, 5) + 257;
	ndist = getbits(s, 5) + 1;
	ncl = getbits(s, 4) + 4;
	if (nlit > 286 || ndist > 30) {
		s->why = "too many length or distance symbols";
		return -1;
	}
	memset(cl, 0, sizeof(cl));
	for (i = 0; i < ncl; i++)
		cl[order[i]] = (unsigned char)getbits(s, 3);
	if (over(s))
		return -1;
	if (build(ctab, 1 << CROOT, cl, 19, CROOT, T_CL) != 0) {
		s->why = "bad code length code";
		return -1;
	}
	for (i = 0; i < nlit + ndist;) {
		need(s, CROOT);
		e = ctab[s->bb & ((1u << CROOT) - 1)];
		if (E_OP(e) == OP_BAD) {
			s->why = "bad code length code";
			return -1;
		}
		drop(s, E_BITS(e));
		sym = E_VAL(e);
		if (sym < 16) {
			lens[i++] = (unsigned char)sym;
		} else {
			prev = 0;
			if (sym == 16) {
				if (i == 0) {
					s->why = "repeat with no first length";
					return -1;
				}
				prev = lens[i - 1];
				rep = 3 + getbits(s, 2);
			} else if (sym == 17)
				rep = 3 + getbits(s, 3);
			else
				rep = 11 + getbits(s, 7);
			if (rep > nlit + ndist - i) {
				s->why = "repeat past the code lengths";
				return -1;
			}
			memset(lens + i, (int)prev, rep);
			i += rep;
		}
		if (over(s))
			return -1;
	}
	if (lens[256] == 0) {
		s->why = "no end-of-block code";
		return -1;
	}
	if (build(s->lit, LCAP, lens, nlit, LROOT, T_LIT) != 0) {
		s->why = "bad literal/length code lengths";
		return -1;
	}
	if (build(s->dist, DCAP, lens + nlit, ndist, DROOT, T_DIST) != 0) {
		s->why = "bad distance code lengths";
		return -1;
	}
	return 0;
}

/* ---- blocks ---- */

/* Copy len bytes from dist back (checked) to out + op; may write up to 7
 * bytes past the copy when room allows (the fast loop's MINROOM). */
static inline void
copy(unsigned char *o, unsigned dist, unsigned len)
{
	const unsigned char *from = o - dist;
	unsigned char *end = o + len;

	if (dist >= 8) {
		do {
			memcpy(o, from, 8);
			o += 8;
			from += 8;
		} while (o < end);
	} else if (dist == 1) {
		memset(o, *from, len);
	} else {
		while (o < end)
			*o++ = *from++;
	}
}

/*
 * Decode symbols while 8 input bytes and MINROOM output bytes remain:
 * 1 at the end of the block, -1 on an error, 0 when the slow loop must
 * take over.
 */
static int
fastloop(struct inf *s)
{
	const unsigned char *in = s->in;
	unsigned char *out = s->out;
	const uint32_t *lit = s->lit, *dist = s->dist;
	size_t pos = s->pos, op = s->op, inend, outend;
	uint64_t bb = s->bb, w;
	unsigned nb = s->nb, len, d, op8;
	uint32_t e;
	int r = 0;
	int i;

	if (s->n < 8 || s->cap < MINROOM)
		return 0;
	inend = s->n - 8;
	outend = s->cap - MINROOM;
	while (pos <= inend && op <= outend) {
		w = 0;
		for (i = 7; i >= 0; i--)
			w = w << 8 | in[pos + (unsigned)i];
		bb |= w << nb;
		pos += (63 - nb) >> 3;
		nb |= 56;

		e = lit[bb & ((1u << LROOT) - 1)];
		if (E_OP(e) & OP_LINK) {
			bb >>= LROOT;
			nb -= LROOT;
			e = lit[E_VAL(e) + (bb & ((1u << (E_OP(e) & 15)) - 1))];
		}
		bb >>= E_BITS(e);
		nb -= E_BITS(e);
		op8 = E_OP(e);
		if (op8 == OP_LIT) {
			out[op++] = (unsigned char)E_VAL(e);
			/* a second literal when the next code is in the root */
			e = lit[bb & ((1u << LROOT) - 1)];
			if (E_OP(e) == OP_LIT) {
				bb >>= E_BITS(e);
				nb -= E_BITS(e);
				out[op++] = (unsigned char)E_VAL(e);
			}
			continue;
		}
		if (!(op8 & OP_BASE)) {
			r = op8 == OP_EOB ? 1 : -1;
			if (r < 0)
				s->why = "bad literal/length code";
			break;
		}
		len = E_VAL(e) + (unsigned)(bb & ((1u << (op8 & 15)) - 1));
		bb >>= op8 & 15;
		nb -= op8 & 15;

		e = dist[bb & ((1u << DROOT) - 1)];
		if (E_OP(e) & OP_LINK) {
			bb >>= DROOT;
			nb -= DROOT;
			e = dist[E_VAL(e) + (bb & ((1u << (E_OP(e) & 15)) - 1))];
		}
		bb >>= E_BITS(e);
		nb -= E_BITS(e);
		op8 = E_OP(e);
		if (!(op8 & OP_BASE)) {
			s->why = "bad distance code";
			r = -1;
			break;
		}
		d = E_VAL(e) + (unsigned)(bb & ((1u << (op8 & 15)) - 1));
		bb >>= op8 & 15;
		nb -= op8 & 15;
		if (d > op - s->start) {
			s->why = "distance too far back";
			r = -1;
			break;
		}
		copy(out + op, d, len);
		op += len;
	}
	s->pos = pos;
	s->op = op;
	s->bb = bb;
	s->nb = nb;
	return r;
}

/* Decode one symbol of table tab (root bits) with the slow reader. */
static uint32_t
slowsym(struct inf *s, const uint32_t *tab, unsigned root)
{
	uint32_t e;

	need(s, MAXBITS);
	e = tab[s->bb & ((1u << root) - 1)];
	if (E_OP(e) & OP_LINK) {
		drop(s, root);
		e = tab[E_VAL(e) + (s->bb & ((1u << (E_OP(e) & 15)) - 1))];
	}
	if (E_OP(e) != OP_BAD)
		drop(s, E_BITS(e));
	return e;
}

/* One symbol with every check: 1 end of block, -1 error, 0 go on. */
static int
slowstep(struct inf *s)
{
	uint32_t e;
	unsigned len, d, x;

	e = slowsym(s, s->lit, LROOT);
	if (over(s))
		return -1;
	if (E_OP(e) == OP_LIT) {
		if (s->op == s->cap) {
			s->why = E_ROOM;
			return -1;
		}
		s->out[s->op++] = (unsigned char)E_VAL(e);
		return 0;
	}
	if (E_OP(e) == OP_EOB)
		return 1;
	if (!(E_OP(e) & OP_BASE)) {
		s->why = "bad literal/length code";
		return -1;
	}
	x = E_OP(e) & 15;
	len = E_VAL(e) + getbits(s, x);
	e = slowsym(s, s->dist, DROOT);
	if (!(E_OP(e) & OP_BASE)) {
		s->why = over(s) ? E_TRUNC : "bad distance code";
		return -1;
	}
	x = E_OP(e) & 15;
	d = E_VAL(e) + getbits(s, x);
	if (over(s))
		return -1;
	if (d > s->op - s->start) {
		s->why = "distance too far back";
		return -1;
	}
	if (len > s->cap - s->op) {
		s->why = E_ROOM;
		return -1;
	}
	for (x = 0; x < len; x++, s->op++)
		s->out[s->op] = s->out[s->op - d];
	return 0;
}

static int
stored(struct inf *s)
{
	unsigned len, nlen;

	drop(s, s->nb & 7);
	len = getbits(s, 16);
	nlen = getbits(s, 16);
	if (over(s))
		return -1;
	if (len != (~nlen & 0xffff)) {
		s->why = "bad stored block length";
		return -1;
	}
	align(s);
	if (len > s->n - s->pos) {
		s->why = E_TRUNC;
		return -1;
	}
	if (len > s->cap - s->op) {
		s->why = E_ROOM;
		return -1;
	}
	memcpy(s->out + s->op, s->in + s->pos, len);
	s->op += len;
	s->pos += len;
	return 0;
}

/* One raw DEFLATE stream from s->pos: 0, s->pos then after its last
 * byte, or -1 with s->why. */
static int
deflate_stream(struct inf *s)
{
	unsigned last, type;
	int r;

	s->start = s->op;
	s->bb = 0;
	s->nb = 0;
	do {
		last = getbits(s, 1);
		type = getbits(s, 2);
		if (over(s))
			return -1;
		if (type == 0) {
			if (stored(s) != 0)
				return -1;
			continue;
		}
		if (type == 3) {
			s->why = "bad block type";
			return -1;
		}
		if (type == 1)
			fixedtables(s);
		else if (dyntables(s) != 0)
			return -1;
		for (;;) {
			if ((r = fastloop(s)) == 0)
				r = slowstep(s);
			if (r < 0)
				return -1;
			if (r > 0)
				break;
		}
		if (over(s))
			return -1;
	} while (!last);
	align(s);
	return 0;
}

/* ---- checksums ---- */

static uint32_t
adler32(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	size_t k;

	while (n > 0) {
		k = n < 5552 ? n : 5552;	/* b stays below 2^32 */
		n -= k;
		while (k-- > 0) {
			a += *p++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return b << 16 | a;
}

/* CRC-32 (ISO-HDLC, reflected 0xedb88320), eight bytes a step. */
struct crctab {
	uint32_t t[8][256];
};

static void
crcinit(struct crctab *c)
{
	uint32_t v;
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		v = i;
		for (k = 0; k < 8; k++)
			v = v & 1 ? v >> 1 ^ 0xedb88320u : v >> 1;
		c->t[0][i] = v;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			c->t[k][i] = c->t[k - 1][i] >> 8 ^
			    c->t[0][c->t[k - 1][i] & 0xff];
}

static uint32_t
crc32(const struct crctab *c, uint32_t crc, const unsigned char *p, size_t n)
{
	uint32_t v, w;

	crc = ~crc;
	for (; n >= 8; n -= 8, p += 8) {
		v = crc ^ (uint32_t)fold_getu(p, 4, 0);
		w = (uint32_t)fold_getu(p + 4, 4, 0);
		crc = c->t[7][v & 0xff] ^ c->t[6][v >> 8 & 0xff] ^
		    c->t[5][v >> 16 & 0xff] ^ c->t[4][v >> 24] ^
		    c->t[3][w & 0xff] ^ c->t[2][w >> 8 & 0xff] ^
		    c->t[1][w >> 16 & 0xff] ^ c->t[0][w >> 24];
	}
	while (n-- > 0)
		crc = crc >> 8 ^ c->t[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* ---- wrappers ---- */

static int
zlibhead(const unsigned char *p, size_t n)
{
	return n >= 2 && (p[0] & 15) == 8 && p[0] >> 4 <= 7 &&
	    (p[0] << 8 | p[1]) % 31 == 0;
}

static int
zlib_stream(struct inf *s)
{
	if (!zlibhead(s->in, s->n)) {
		s->why = s->n < 2 ? E_TRUNC : "bad zlib header";
		return -1;
	}
	if (s->in[1] & 0x20) {
		s->why = "zlib stream needs a preset dictionary";
		return -1;
	}
	s->pos = 2;
	if (deflate_stream(s) != 0)
		return -1;
	if (s->n - s->pos < 4) {
		s->why = E_TRUNC;
		return -1;
	}
	if (fold_getu(s->in + s->pos, 4, 1) != adler32(s->out, s->op)) {
		s->why = "bad checksum";
		return -1;
	}
	s->pos += 4;
	return 0;
}

/* Skip a NUL-terminated field: 0 or -1. */
static int
skipz(struct inf *s)
{
	const unsigned char *z = memchr(s->in + s->pos, 0, s->n - s->pos);

	if (z == NULL)
		return -1;
	s->pos = (size_t)(z - s->in) + 1;
	return 0;
}

/* A gzip member's header, from s->pos. */
static int
gziphead(struct inf *s, const struct crctab *c)
{
	const unsigned char *h = s->in + s->pos;
	size_t at = s->pos, xlen;
	unsigned flg;

	if (s->n - s->pos < 10) {
		s->why = E_TRUNC;
		return -1;
	}
	if (h[0] != 0x1f || h[1] != 0x8b) {
		s->why = "bad gzip header";
		return -1;
	}
	if (h[2] != 8) {
		s->why = "unknown compression method";
		return -1;
	}
	flg = h[3];
	if (flg & 0xe0) {
		s->why = "unknown gzip header flags";
		return -1;
	}
	s->pos += 10;
	if (flg & 4) {
		if (s->n - s->pos < 2)
			goto trunc;
		xlen = (size_t)fold_getu(s->in + s->pos, 2, 0);
		if (s->n - s->pos - 2 < xlen)
			goto trunc;
		s->pos += 2 + xlen;
	}
	if ((flg & 8) && skipz(s) != 0)
		goto trunc;
	if ((flg & 16) && skipz(s) != 0)
		goto trunc;
	if (flg & 2) {
		if (s->n - s->pos < 2)
			goto trunc;
		if (fold_getu(s->in + s->pos, 2, 0) !=
		    (crc32(c, 0, s->in + at, s->pos - at) & 0xffff)) {
			s->why = "bad gzip header checksum";
			return -1;
		}
		s->pos += 2;
	}
	return 0;
trunc:
	s->why = E_TRUNC;
	return -1;
}

/* Members one after the other; zero bytes may follow the last. */
static int
gzip_stream(struct inf *s)
{
	struct crctab c;
	size_t i;

	crcinit(&c);
	s->pos = 0;
	do {
		if (gziphead(s, &c) != 0 || deflate_stream(s) != 0)
			return -1;
		if (s->n - s->pos < 8) {
			s->why = E_TRUNC;
			return -1;
		}
		if (fold_getu(s->in + s->pos, 4, 0) !=
		    crc32(&c, 0, s->out + s->start, s->op - s->start)) {
			s->why = "bad checksum";
			return -1;
		}
		if (fold_getu(s->in + s->pos + 4, 4, 0) !=
		    ((s->op - s->start) & 0xffffffffu)) {
			s->why = "bad uncompressed length";
			return -1;
		}
		s->pos += 8;
		for (i = s->pos; i < s->n && s->in[i] == 0; i++)
			;
		if (i == s->n)
			s->pos = s->n;
		else if (s->n - s->pos < 2 || s->in[s->pos] != 0x1f ||
		    s->in[s->pos + 1] != 0x8b) {
			s->why = "trailing garbage";
			return -1;
		}
	} while (s->pos < s->n);
	return 0;
}

static int
run(struct inf *s, int kind)
{
	if (kind == FOLD_INFLATE_AUTO) {
		if (s->n >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b)
			kind = FOLD_INFLATE_GZIP;
		else if (zlibhead(s->in, s->n))
			kind = FOLD_INFLATE_ZLIB;
		else
			kind = FOLD_INFLATE_RAW;
	}
	switch (kind) {
	case FOLD_INFLATE_RAW:
		s->pos = 0;
		if (deflate_stream(s) != 0)
			return -1;
		break;
	case FOLD_INFLATE_ZLIB:
		if (zlib_stream(s) != 0)
			return -1;
		break;
	case FOLD_INFLATE_GZIP:
		return gzip_stream(s);
	default:
		s->why = "unknown stream kind";
		return -1;
	}
	if (s->pos != s->n) {
		s->why = "trailing garbage";
		return -1;
	}
	return 0;
}

size_t
fold_inflate(const unsigned char *in, size_t n, unsigned char *out,
    size_t cap, int kind, const char **why)
{
	struct inf s;

	s.in = in;
	s.n = n;
	s.pos = 0;
	s.bb = 0;
	s.nb = 0;
	s.out = out;
	s.cap = cap;
	s.op = 0;
	s.start = 0;
	s.fixed = 0;
	s.why = NULL;
	if (run(&s, kind) != 0) {
		*why = s.why != NULL ? s.why : "bad stream";
		return (size_t)-1;
	}
	*why = NULL;
	return s.op;
}

/*
 * A first guess at the size: gzip's last ISIZE, else 4 input bytes per
 * byte; never more than DEFLATE can make of n bytes (1032 per byte, a
 * length-258 match in 2 bits), nor max.  Then doubled while too small.
 */
unsigned char *
fold_inflate_alloc(const unsigned char *in, size_t n, size_t max, int kind,
    size_t *outlen, const char **why)
{
	unsigned char *buf = NULL;
	size_t size, most, r;

	most = n < SIZE_MAX / 1032 - 64 ? n * 1032 + 64 : SIZE_MAX;
	if (most > max)
		most = max;
	size = n < SIZE_MAX / 4 ? n * 4 : SIZE_MAX;
	if (n >= 18 && in[0] == 0x1f && in[1] == 0x8b &&
	    kind != FOLD_INFLATE_RAW && kind != FOLD_INFLATE_ZLIB)
		size = (size_t)fold_getu(in + n - 4, 4, 0);
	if (size < 4096)
		size = 4096;
	if (size > most)
		size = most;
	for (;;) {
		buf = xrealloc(buf, size ? size : 1);
		r = fold_inflate(in, n, buf, size, kind, why);
		if (r != (size_t)-1) {
			*outlen = r;
			return buf;
		}
		if (*why != E_ROOM || size == most)
			break;
		size = size <= most / 2 ? size * 2 : most;
	}
	free(buf);
	*outlen = 0;
	return NULL;
}
