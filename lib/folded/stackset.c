/* stackset.c - the distinct stacks of an input, in frame order. */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "folded/folded.h"

/* Bytes made resident at a time ahead of use. */
#define AHEAD (256 * 1024)

static inline size_t
first_diff(uint64_t x, uint64_t y)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (size_t)__builtin_ctzll(x ^ y) / 8;
#else
	size_t k = 0;

	while (((const unsigned char *)&x)[k] == ((const unsigned char *)&y)[k])
		k++;
	return k;
#endif
}

static inline uint64_t
load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

size_t
fold_common_prefix(const char *a, const char *b, size_t n)
{
	size_t k = 0;

	/* 32 bytes a step while they agree (one branch), then 8 at a time. */
	while (k + 32 <= n && ((load64(a + k) ^ load64(b + k)) |
	    (load64(a + k + 8) ^ load64(b + k + 8)) |
	    (load64(a + k + 16) ^ load64(b + k + 16)) |
	    (load64(a + k + 24) ^ load64(b + k + 24))) == 0)
		k += 32;
	while (k + 8 <= n) {
		uint64_t x = load64(a + k), y = load64(b + k);

		if (x != y)
			return k + first_diff(x, y);
		k += 8;
	}
	while (k < n && a[k] == b[k])
		k++;
	return k;
}

/* Order at the first difference l of a and b (l < alen or l < blen). */
static inline int
frame_order_at(const char *a, size_t alen, const char *b, size_t blen,
    size_t l)
{
	unsigned char ca, cb;

	if (l == alen)
		return -1;
	if (l == blen)
		return 1;
	ca = (unsigned char)a[l];
	cb = (unsigned char)b[l];
	if (ca == ';')
		return -1;
	if (cb == ';')
		return 1;
	return ca < cb ? -1 : 1;
}

/* fold_frame_cmp(), with the common prefix's length in *lcp. */
static int
frame_cmp_lcp(const char *a, size_t alen, const char *b, size_t blen,
    size_t *lcp)
{
	size_t l = fold_common_prefix(a, b, alen < blen ? alen : blen);

	*lcp = l;
	if (l == alen && l == blen)
		return 0;
	return frame_order_at(a, alen, b, blen, l);
}

int
fold_frame_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t l;

	return frame_cmp_lcp(a, alen, b, blen, &l);
}

void
fold_stackset_init(struct fold_stackset *ss)
{
	memset(ss, 0, sizeof(*ss));
}

static void
map_put(struct fold_stackset *ss, uint32_t idx, uint64_t h)
{
	size_t j;

	for (j = h & ss->mask; ss->map[j] != 0; j = (j + 1) & ss->mask)
		;
	ss->map[j] = idx + 1;
	ss->hashes[idx] = h;
}

static void
map_grow(struct fold_stackset *ss)
{
	size_t k, nmask = ss->mask ? ss->mask * 2 + 1 : 4095;

	while (ss->n * 2 > nmask)	/* load at most 1/2 */
		nmask = nmask * 2 + 1;
	free(ss->map);
	ss->map = xcalloc(nmask + 1, sizeof(*ss->map));
	fold_prefault(ss->map, (nmask + 1) * sizeof(*ss->map));	/* (all used) */
	ss->mask = nmask;
	for (k = 0; k < ss->n; k++)
		map_put(ss, (uint32_t)k, ss->hashes[k]);
}

/* The first line out of order: from now on, stacks are found by hash. */
static void
unsorted(struct fold_stackset *ss)
{
	size_t k;

	ss->sorted = 0;
	ss->hashes = xmalloc(ss->cap * sizeof(*ss->hashes));
	fold_prefault(ss->hashes, ss->ready * sizeof(*ss->hashes));
	for (k = 0; k < ss->n; k++)
		ss->hashes[k] = fold_hash(ss->recs[k].s, ss->recs[k].len);
	map_grow(ss);	/* (which puts the records in) */
}

/* Records (and hashes) up to n + 1 in resident memory: a new array is
 * made resident up to a little past n before the records are copied in,
 * then the pages ahead a piece at a time (fold_prefault()). */
static void
room(struct fold_stackset *ss)
{
	size_t ncap, want, ahead = AHEAD / sizeof(*ss->recs);
	struct fold_stackrec *nr;
	uint64_t *nh;

	if (ss->n == ss->cap) {
		if (ss->cap > (size_t)-1 / 4 / sizeof(*ss->recs))
			fold_die(1, "out of memory");
		ncap = ss->cap ? ss->cap * 2 : 1024;
		want = ss->n + ahead < ncap ? ss->n + ahead : ncap;
		nr = xmalloc(ncap * sizeof(*nr));
		fold_prefault(nr, want * sizeof(*nr));
		if (ss->n > 0)
			memcpy(nr, ss->recs, ss->n * sizeof(*nr));
		free(ss->recs);
		ss->recs = nr;
		if (ss->hashes != NULL) {
			nh = xmalloc(ncap * sizeof(*nh));
			fold_prefault(nh, want * sizeof(*nh));
			memcpy(nh, ss->hashes, ss->n * sizeof(*nh));
			free(ss->hashes);
			ss->hashes = nh;
		}
		ss->cap = ncap;
		ss->ready = want;
		return;
	}
	want = ss->ready + ahead < ss->cap ? ss->ready + ahead : ss->cap;
	fold_prefault(ss->recs + ss->ready, (want - ss->ready) *
	    sizeof(*ss->recs));
	if (ss->hashes != NULL)
		fold_prefault(ss->hashes + ss->ready, (want - ss->ready) *
		    sizeof(*ss->hashes));
	ss->ready = want;
}

static struct fold_stackrec *
append(struct fold_stackset *ss, const char *s, size_t len, int stable)
{
	struct fold_stackrec *r;
	char *copy;

	if (ss->n >= 0xfffffffeU)
		fold_die(1, "too many distinct stacks");
	if (ss->n >= ss->ready)	/* records are set whole: not zeroed */
		room(ss);
	r = &ss->recs[ss->n++];
	memset(r, 0, sizeof(*r));
	if (stable)
		r->s = s;
	else {
		copy = fold_arena_alloc(&ss->arena, len);
		memcpy(copy, s, len);
		r->s = copy;
	}
	r->len = len;
	return r;
}

struct fold_stackrec *
fold_stackset_add(struct fold_stackset *ss, const char *s, size_t len,
    int stable)
{
	struct fold_stackrec *r;
	uint64_t h;
	size_t j;
	int c;

	if (ss->n == 0) {
		ss->sorted = 1;
		return append(ss, s, len, stable);
	}
	if (ss->sorted) {
		r = &ss->recs[ss->n - 1];
		c = fold_frame_cmp(r->s, r->len, s, len);
		if (c == 0)
			return r;
		if (c < 0)
			return append(ss, s, len, stable);
		unsorted(ss);
	}
	h = fold_hash(s, len);
	for (j = h & ss->mask; ss->map[j] != 0; j = (j + 1) & ss->mask) {
		r = &ss->recs[ss->map[j] - 1];
		if (ss->hashes[ss->map[j] - 1] == h && r->len == len &&
		    memcmp(r->s, s, len) == 0)
			return r;
	}
	r = append(ss, s, len, stable);
	ss->map[j] = (uint32_t)ss->n;
	ss->hashes[ss->n - 1] = h;
	if (ss->n * 2 > ss->mask)
		map_grow(ss);
	return r;
}

/* ---- sorting: frame order, MSD radix, in place ------------------------ */

static double sortminw;

/* The rank of byte off in frame order: end of stack 0, ';' 1, others from
 * 2 (0x00 is 2, 0xff is 256). */
static inline unsigned
rank_at(const struct fold_stackrec *e, size_t off)
{
	unsigned c;

	if (off >= e->len)
		return 0;
	c = (unsigned char)e->s[off];
	return c == ';' ? 1 : c < ';' ? c + 2 : c + 1;
}

/* Bucket counters, fill points and sums, one row per depth of recursion;
 * counters and sums kept zeroed between uses (a level clears the ranks it
 * used).  rk: the rank of each record of the set being dealt, by place
 * (so that dealing does not go back to the stack bytes). */
#define MAXDEPTH 64
static size_t (*wcnt)[258];
static size_t (*wnext)[257];
static double (*wsum)[257];
static uint16_t *rk;

static inline void
swaprec(struct fold_stackrec *a, struct fold_stackrec *b)
{
	struct fold_stackrec t = *a;

	*a = *b;
	*b = t;
}

/*
 * Sort e[0..n), whose stacks agree on their first off bytes (r: their
 * ranks' room): skip the bytes all of them share, deal them in place into
 * buckets by the next byte's rank (American flag: each record is moved
 * straight to its bucket, no second array), and go on in each bucket;
 * the largest bucket by a loop, the others by recursion (each at most
 * half: the depth stays below log2 n).  Small sets by insertion.  Distinct
 * stacks: at most one ends at a given place.  A bucket whose counts sum
 * below sortminw stays as it is.
 */
static void
msd(struct fold_stackrec *e, uint16_t *r, size_t n, size_t off, int depth)
{
	size_t *cnt = wcnt[depth], *nxt = wnext[depth], i, j, m, c, lo, hi,
	    big, bigat;
	double *sum = wsum[depth];
	struct fold_stackrec t;
	uint16_t tr;

	for (;;) {
		if (n <= 24) {
			for (i = 1; i < n; i++) {
				t = e[i];
				for (j = i; j > 0 && fold_frame_cmp(e[j - 1].s + off,
				    e[j - 1].len - off, t.s + off,
				    t.len - off) > 0; j--)
					e[j] = e[j - 1];
				e[j] = t;
			}
			return;
		}
		/* (The stacks are far apart in memory: each loop fetches the
		 * bytes of the stacks a few ahead while it works.) */
		m = e[0].len - off;
		for (i = 1; i < n && m > 0; i++) {
			if (i + 8 < n)
				fold_prefetch(e[i + 8].s + off);
			c = e[i].len - off < m ? e[i].len - off : m;
			m = fold_common_prefix(e[0].s + off, e[i].s + off, c);
		}
		off += m;
		lo = 256;
		hi = 0;
		for (i = 0; i < n; i++) {
			if (i + 8 < n)
				fold_prefetch(e[i + 8].s + off);
			c = rank_at(&e[i], off);
			r[i] = (uint16_t)c;
			cnt[c + 1]++;
			sum[c] += fold_num_dbl(e[i].count);
			lo = c < lo ? c : lo;
			hi = c > hi ? c : hi;
		}
		if (lo == 0 && cnt[1] == 1 && cnt[hi + 1] == n - 1) {
			/* One ends here and all the others go on with the same
			 * byte (a caller and its callees): it comes first, the
			 * rest as they are, without dealing. */
			for (j = 0; r[j] != 0; j++)
				;
			swaprec(&e[0], &e[j]);
			m = sum[hi] >= sortminw;
			cnt[1] = cnt[hi + 1] = 0;
			sum[0] = sum[hi] = 0;
			if (!m)
				return;
			e++;
			r++;
			n--;
			off++;
			continue;
		}
		/* cnt[c]: where bucket c starts, cnt[c + 1] where it ends. */
		for (i = lo + 1; i <= hi + 1; i++)
			cnt[i] += cnt[i - 1];
		for (c = lo; c <= hi; c++)
			nxt[c] = cnt[c];
		for (c = lo; c <= hi; c++)
			while (nxt[c] < cnt[c + 1]) {
				i = nxt[c];
				/* Follow the cycle from e[i] until a record of
				 * bucket c comes back to its place. */
				while (r[i] != c) {
					j = nxt[r[i]]++;
					swaprec(&e[i], &e[j]);
					tr = r[i];
					r[i] = r[j];
					r[j] = tr;
				}
				nxt[c]++;
			}
		/* Narrow buckets stay as they are; the one ended (rank 0) is
		 * alone and first. */
		big = 0;
		bigat = 0;
		for (c = lo > 0 ? lo : 1; c <= hi; c++) {
			j = cnt[c];
			if (cnt[c + 1] - j > big && sum[c] >= sortminw) {
				big = cnt[c + 1] - j;
				bigat = j;
			}
		}
		for (c = lo > 0 ? lo : 1; c <= hi; c++) {
			j = cnt[c];
			if (cnt[c + 1] - j > 1 && j != bigat && sum[c] >= sortminw &&
			    depth + 1 < MAXDEPTH)
				msd(e + j, r + j, cnt[c + 1] - j, off + 1,
				    depth + 1);
		}
		memset(cnt + lo, 0, (hi + 2 - lo) * sizeof(*cnt));
		memset(sum + lo, 0, (hi + 1 - lo) * sizeof(*sum));
		if (big < 2)
			return;
		e += bigat;
		r += bigat;
		n = big;
		off++;
	}
}

void
fold_stackset_sort(struct fold_stackset *ss, double minw)
{
	/* The hash is done with: its memory goes before the sort's comes. */
	free(ss->map);
	free(ss->hashes);
	ss->map = NULL;
	ss->hashes = NULL;
	ss->mask = 0;
	if (ss->sorted || ss->n < 2) {
		ss->sorted = 1;
		return;
	}
	/* A margin, so that no sum in another order can reach minw. */
	sortminw = minw > 0 ? minw * (1 - 1e-9) : 0;
	wcnt = xcalloc(MAXDEPTH, sizeof(*wcnt));
	wnext = xmalloc(MAXDEPTH * sizeof(*wnext));
	wsum = xcalloc(MAXDEPTH, sizeof(*wsum));
	rk = xmalloc(ss->n * sizeof(*rk));
	fold_prefault(rk, ss->n * sizeof(*rk));
	msd(ss->recs, rk, ss->n, 0, 0);
	free(wcnt);
	free(wnext);
	free(wsum);
	free(rk);
	ss->sorted = 1;
}

void
fold_stackset_free(struct fold_stackset *ss)
{
	free(ss->recs);
	free(ss->map);
	free(ss->hashes);
	fold_arena_free(&ss->arena);
	memset(ss, 0, sizeof(*ss));
}
