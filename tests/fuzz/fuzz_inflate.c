/* fuzz_inflate - the DEFLATE, zlib and gzip decoder (inflate.c) over any
 * bytes, two ways.
 *
 * As a stream: each kind (raw, zlib, gzip, guessed) into a 1 MB buffer;
 * an error must come with a message and again with a smaller buffer; a
 * success must give the same bytes into a buffer of exactly its size
 * (malloc'd: ASan sees a write past it), of its size and some, and from
 * fold_inflate_alloc(), and fail with "output larger than expected" one
 * byte short.
 *
 * As data: the bytes are compressed here (no library) into blocks, some
 * stored and some of the fixed code with matches at a few distances, and
 * wrapped as raw, zlib and gzip (two members when the first byte is odd);
 * each must decompress to the bytes exactly. */
#include "fuzz.h"

#define BIG (1 << 20)
static const char ROOM[] = "output larger than expected";

static void
same(const uint8_t *in, size_t n, int kind, const unsigned char *want,
    size_t len, size_t cap)
{
	unsigned char *b = malloc(cap ? cap : 1);
	const char *why = NULL;
	size_t r;

	if (b == NULL)
		abort();
	r = fold_inflate(in, n, b, cap, kind, &why);
	if (cap >= len) {
		if (r != len || memcmp(b, want, len) != 0 || why != NULL)
			abort();
	} else if (r != (size_t)-1 || why == NULL || strcmp(why, ROOM) != 0)
		abort();
	free(b);
}

static void
as_stream(const uint8_t *data, size_t size, int kind, unsigned char *big)
{
	const char *why = NULL, *why2 = NULL;
	unsigned char *a, small[64];
	size_t r, len;

	r = fold_inflate(data, size, big, BIG, kind, &why);
	if (r == (size_t)-1) {
		if (why == NULL)
			abort();
		if (fold_inflate(data, size, small, sizeof(small), kind,
		    &why2) != (size_t)-1 || why2 == NULL)
			abort();
		return;
	}
	if (r > BIG)
		abort();
	same(data, size, kind, big, r, r);
	same(data, size, kind, big, r, r + 1);
	same(data, size, kind, big, r, r + 300);
	if (r > 0)
		same(data, size, kind, big, r, r - 1);
	if (r > 300)
		same(data, size, kind, big, r, r - 300);
	a = fold_inflate_alloc(data, size, BIG, kind, &len, &why);
	if (a == NULL || len != r || memcmp(a, big, r) != 0)
		abort();
	free(a);
	if (r > 0 && fold_inflate_alloc(data, size, r - 1, kind, &len,
	    &why) != NULL)
		abort();
}

/* ---- a small compressor: stored blocks and fixed-code blocks ---- */

struct bw {
	unsigned char *p;
	size_t n;
	uint64_t acc;
	unsigned nb;
};

static void
put(struct bw *w, unsigned v, unsigned k)
{
	w->acc |= (uint64_t)v << w->nb;
	w->nb += k;
	while (w->nb >= 8) {
		w->p[w->n++] = (unsigned char)w->acc;
		w->acc >>= 8;
		w->nb -= 8;
	}
}

/* A Huffman code: its bits go first to last. */
static void
puth(struct bw *w, unsigned code, unsigned k)
{
	unsigned r = 0, i;

	for (i = 0; i < k; i++)
		r |= (code >> i & 1) << (k - 1 - i);
	put(w, r, k);
}

static void
flushbyte(struct bw *w)
{
	if (w->nb > 0)
		put(w, 0, 8 - w->nb);
}

static void
putlit(struct bw *w, unsigned sym)
{
	if (sym < 144)
		puth(w, 0x30 + sym, 8);
	else if (sym < 256)
		puth(w, 0x190 + sym - 144, 9);
	else if (sym < 280)
		puth(w, sym - 256, 7);
	else
		puth(w, 0xc0 + sym - 280, 8);
}

static void
putmatch(struct bw *w, unsigned len, unsigned dist)
{
	unsigned sym, base, extra, i;

	if (len == 258) {
		putlit(w, 285);
	} else {
		for (sym = 257, base = 3, extra = 0;; sym++) {
			i = sym - 257;
			extra = i < 8 ? 0 : (i >> 2) - 1;
			if (len < base + (1u << extra))
				break;
			base += 1u << extra;
		}
		putlit(w, sym);
		put(w, len - base, extra);
	}
	for (sym = 0, base = 1;; sym++) {
		extra = sym < 4 ? 0 : (sym >> 1) - 1;
		if (dist < base + (1u << extra))
			break;
		base += 1u << extra;
	}
	puth(w, sym, 5);
	put(w, dist - base, extra);
}

/* d[start..end) as a fixed-code block; matches reach back to d[from]. */
static void
fixedblock(struct bw *w, const uint8_t *d, size_t from, size_t start,
    size_t end, int last)
{
	static const unsigned dists[] = { 1, 2, 3, 4, 7, 8, 64, 300, 1000,
	    4097, 32768 };
	size_t i = start, k, len, best;
	unsigned bd, j;

	put(w, last, 1);
	put(w, 1, 2);
	while (i < end) {
		best = 0;
		bd = 0;
		for (j = 0; j < sizeof(dists) / sizeof(dists[0]); j++) {
			if (dists[j] > i - from)
				break;
			for (len = 0, k = i; k < end && len < 258 &&
			    d[k] == d[k - dists[j]]; k++)
				len++;
			if (len > best) {
				best = len;
				bd = dists[j];
			}
			if (best >= 16)
				break;
		}
		if (best >= 3) {
			putmatch(w, (unsigned)best, bd);
			i += best;
		} else
			putlit(w, d[i++]);
	}
	putlit(w, 256);
}

static void
storedblock(struct bw *w, const uint8_t *d, size_t len, int last)
{
	put(w, last, 1);
	put(w, 0, 2);
	flushbyte(w);
	put(w, (unsigned)len & 0xffff, 16);
	put(w, ~(unsigned)len & 0xffff, 16);
	memcpy(w->p + w->n, d, len);
	w->n += len;
}

/* d[0..n) as a raw stream of blocks whose kinds and sizes come from seed. */
static void
deflate(struct bw *w, const uint8_t *d, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;
	size_t i = 0, k;
	int last, empty = 0;

	do {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		k = x % 4 == 0 ? x % 7 : 1 + x % 5000;
		if (k == 0 && ++empty > 8)	/* at most 8 empty blocks */
			k = 1;
		if (k > 65535 || k > n - i)
			k = n - i;
		last = i + k == n;
		if (x & 0x100)
			storedblock(w, d + i, k, last);
		else
			fixedblock(w, d, 0, i, i + k, last);
		i += k;
	} while (!last);
	flushbyte(w);
}

static uint32_t
adler(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	while (n-- > 0) {
		a = (a + *p++) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static uint32_t
crc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n-- > 0) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static void
put32(struct bw *w, uint32_t v, int be)
{
	int i;

	for (i = 0; i < 4; i++)
		w->p[w->n++] = (unsigned char)(be ? v >> (24 - 8 * i) : v >> (8 * i));
}

static void
member(struct bw *w, const uint8_t *d, size_t n, unsigned seed)
{
	static const unsigned char hd[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

	memcpy(w->p + w->n, hd, 10);
	w->n += 10;
	deflate(w, d, n, seed);
	put32(w, crc(d, n), 0);
	put32(w, (uint32_t)n, 0);
}

static void
check(struct bw *w, int kind, const uint8_t *d, size_t n)
{
	unsigned char *b = malloc(n ? n : 1);
	const char *why;
	size_t r;

	if (b == NULL)
		abort();
	r = fold_inflate(w->p, w->n, b, n, kind, &why);
	if (r != n || memcmp(b, d, n) != 0)
		abort();
	r = fold_inflate(w->p, w->n, b, n, FOLD_INFLATE_AUTO, &why);
	if (r != n || memcmp(b, d, n) != 0)
		abort();
	free(b);
}

static void
as_data(const uint8_t *d, size_t n)
{
	struct bw w;
	unsigned seed = n > 0 ? d[0] : 0;
	size_t half = n / 2;

	memset(&w, 0, sizeof(w));
	/* 9 bits a literal, 6 bytes a block, n + 9 blocks, two wrappers */
	if ((w.p = malloc(8 * n + 128)) == NULL)
		abort();
	deflate(&w, d, n, seed);
	check(&w, FOLD_INFLATE_RAW, d, n);

	w.n = 0;
	w.p[w.n++] = 0x78;
	w.p[w.n++] = 0x01;
	deflate(&w, d, n, seed + 1);
	put32(&w, adler(d, n), 1);
	check(&w, FOLD_INFLATE_ZLIB, d, n);

	w.n = 0;
	if (seed & 1) {
		member(&w, d, half, seed + 2);
		member(&w, d + half, n - half, seed + 3);
	} else
		member(&w, d, n, seed + 2);
	check(&w, FOLD_INFLATE_GZIP, d, n);
	free(w.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *big;
	int kind;

	fold_init("fuzz");
	if (big == NULL && (big = malloc(BIG)) == NULL)
		abort();
	for (kind = FOLD_INFLATE_RAW; kind <= FOLD_INFLATE_AUTO; kind++)
		as_stream(data, size, kind, big);
	as_data(data, size);
	return 0;
}
