/* stackset.c - the distinct stacks of an input, in frame order. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

size_t
fold_common_prefix(const char *a, const char *b, size_t n)
{
	size_t k = 0;
	uint64_t x, y;

	while (k + 8 <= n) {
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return k + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
			break;
#endif
		}
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

int
fold_frame_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t l = fold_common_prefix(a, b, alen < blen ? alen : blen);

	if (l == alen && l == blen)
		return 0;
	return frame_order_at(a, alen, b, blen, l);
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

	free(ss->map);
	ss->map = xcalloc(nmask + 1, sizeof(*ss->map));
	ss->mask = nmask;
	for (k = 0; k < ss->n; k++)
		map_put(ss, (uint32_t)k, ss->hashes[k]);
}

/* The first line out of order: from now on, stacks are found by hash. */
static void
unsorted(struct fold_stackset *ss)
{
	size_t k, hcap = 0;

	ss->sorted = 0;
	fold_grow(&ss->hashes, &hcap, ss->cap, sizeof(*ss->hashes));
	for (k = 0; k < ss->n; k++)
		ss->hashes[k] = fold_hash(ss->recs[k].s, ss->recs[k].len);
	while (ss->n * 2 > ss->mask)
		map_grow(ss);
	for (k = 0; k < ss->n; k++)
		map_put(ss, (uint32_t)k, ss->hashes[k]);
}

static struct fold_stackrec *
append(struct fold_stackset *ss, const char *s, size_t len)
{
	struct fold_stackrec *r;
	size_t ocap = ss->cap;
	char *copy;

	if (ss->n >= 0xfffffffeU)
		fold_die(1, "too many distinct stacks");
	fold_grow(&ss->recs, &ss->cap, ss->n + 1, sizeof(*ss->recs));
	if (ss->hashes != NULL && ss->cap != ocap)
		fold_grow(&ss->hashes, &ocap, ss->cap, sizeof(*ss->hashes));
	copy = fold_arena_alloc(&ss->arena, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	r = &ss->recs[ss->n++];
	memset(r, 0, sizeof(*r));
	r->s = copy;
	r->len = len;
	return r;
}

struct fold_stackrec *
fold_stackset_add(struct fold_stackset *ss, const char *s, size_t len)
{
	struct fold_stackrec *r;
	uint64_t h;
	size_t j;
	int c;

	if (ss->n == 0) {
		ss->sorted = 1;
		return append(ss, s, len);
	}
	if (ss->sorted) {
		r = &ss->recs[ss->n - 1];
		c = fold_frame_cmp(r->s, r->len, s, len);
		if (c == 0)
			return r;
		if (c < 0)
			return append(ss, s, len);
		unsorted(ss);
	}
	h = fold_hash(s, len);
	for (j = h & ss->mask; ss->map[j] != 0; j = (j + 1) & ss->mask) {
		r = &ss->recs[ss->map[j] - 1];
		if (ss->hashes[ss->map[j] - 1] == h && r->len == len &&
		    memcmp(r->s, s, len) == 0)
			return r;
	}
	r = append(ss, s, len);
	ss->map[j] = (uint32_t)ss->n;
	ss->hashes[ss->n - 1] = h;
	if (ss->n * 2 > ss->mask)
		map_grow(ss);
	return r;
}

/* ---- sorting: frame order, by 8-byte keys then the bytes ------------- */

/* A byte's rank in frame order: end of stack 0, ';' 1, the others from 2
 * (9 bits). */
static inline uint64_t
rank(unsigned char c)
{
	if (c == ';')
		return 1;
	return c < ';' ? (uint64_t)c + 2 : (uint64_t)c + 1;
}

/* Keys hold the ranks of KEYLEN bytes: they compare as the stacks do. */
#define KEYLEN 7

static inline uint64_t
key_at(const struct fold_stackrec *r, size_t off)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < KEYLEN; i++)
		k = k << 9 | (off + i < r->len ?
		    rank((unsigned char)r->s[off + i]) : 0);
	return k;
}

struct sortent {
	uint64_t key;
	uint32_t idx;
};

static const struct fold_stackrec *sortrecs;
static size_t sortoff;

static int
entcmp(const void *pa, const void *pb)
{
	const struct sortent *a = pa, *b = pb;
	const struct fold_stackrec *x, *y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	x = &sortrecs[a->idx];
	y = &sortrecs[b->idx];
	/* Equal keys: the bytes up to sortoff + KEYLEN agree. */
	if (x->len <= sortoff + KEYLEN || y->len <= sortoff + KEYLEN)
		return (x->len > y->len) - (x->len < y->len);
	return fold_frame_cmp(x->s + sortoff + KEYLEN,
	    x->len - sortoff - KEYLEN, y->s + sortoff + KEYLEN,
	    y->len - sortoff - KEYLEN);
}

static int
keycmp(const void *pa, const void *pb)
{
	const struct sortent *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/*
 * Sort e[0..n), whose stacks agree on their first off bytes: by the key at
 * off (from a contiguous array, no string touched), then each group of one
 * key at off + KEYLEN; small groups by the whole comparison.
 */
static void
sort_from(struct sortent *e, size_t n, size_t off)
{
	size_t i, j;

	for (;;) {
		for (i = 0; i < n; i++)
			e[i].key = key_at(&sortrecs[e[i].idx], off);
		if (n <= 16) {
			sortoff = off;
			qsort(e, n, sizeof(*e), entcmp);
			return;
		}
		qsort(e, n, sizeof(*e), keycmp);
		if (e[0].key == e[n - 1].key && (e[0].key & 0x1ff) != 0) {
			off += KEYLEN;	/* one key: go on with the next bytes */
			continue;
		}
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && e[j].key == e[i].key; j++)
				;
			if (j - i == 1)
				continue;
			if ((e[i].key & 0x1ff) == 0)	/* ended: all equal */
				continue;
			sort_from(e + i, j - i, off + KEYLEN);
		}
		return;
	}
}

void
fold_stackset_sort(struct fold_stackset *ss)
{
	struct sortent *e;
	struct fold_stackrec *out;
	size_t k;

	if (ss->sorted || ss->n < 2) {
		ss->sorted = 1;
		return;
	}
	e = xmalloc(ss->n * sizeof(*e));
	for (k = 0; k < ss->n; k++)
		e[k].idx = (uint32_t)k;
	sortrecs = ss->recs;
	sort_from(e, ss->n, 0);
	out = xmalloc(ss->n * sizeof(*out));
	for (k = 0; k < ss->n; k++)
		out[k] = ss->recs[e[k].idx];
	free(ss->recs);
	free(e);
	ss->recs = out;
	ss->cap = ss->n;
	free(ss->map);
	free(ss->hashes);
	ss->map = NULL;
	ss->hashes = NULL;
	ss->mask = 0;
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
