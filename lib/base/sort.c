/* sort.c - rankings by radix sorts: names by their bytes, counts stable. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

/* An id and the 8 bytes of its name being sorted on, big-endian. */
struct rec {
	uint64_t key;
	uint32_t id;
};

/* Below this many, an insertion sort on the bytes themselves. */
#define SMALL 16

static inline uint64_t
key8(struct fold_str s, size_t d)
{
	const unsigned char *p = (const unsigned char *)s.s + d;
	size_t k, n = s.len > d ? s.len - d : 0;
	uint64_t v = 0;

	if (n >= 8)	/* (one load and a byte swap, compiled) */
		return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
		    (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
		    (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
		    (uint64_t)p[6] << 8 | p[7];
	for (k = 0; k < 8; k++)
		v = v << 8 | (k < n ? p[k] : 0);
	return v;
}

/* a[0..n) by key, ascending and stable: LSD, a byte at a time, skipping
 * the bytes all keys share.  tmp holds n records. */
static void
radix64(struct rec *a, struct rec *tmp, size_t n)
{
	size_t cnt[8][256];	/* (not static: threads sort at once) */
	struct rec *src = a, *dst = tmp, *sw;
	size_t i, sum, c;
	int b;

	if (n < 128) {		/* an insertion sort costs less here */
		struct rec r;
		size_t j;

		for (i = 1; i < n; i++) {
			r = a[i];
			for (j = i; j > 0 && a[j - 1].key > r.key; j--)
				a[j] = a[j - 1];
			a[j] = r;
		}
		return;
	}
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			cnt[b][(a[i].key >> (8 * b)) & 0xff]++;
	for (b = 0; b < 8; b++) {
		if (cnt[b][(a[0].key >> (8 * b)) & 0xff] == n)
			continue;	/* one value: nothing moves */
		for (sum = 0, i = 0; i < 256; i++) {
			c = cnt[b][i];
			cnt[b][i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[b][(src[i].key >> (8 * b)) & 0xff]++] = src[i];
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* fold_strcmp of two names that share their first d bytes. */
static int
cmpfrom(struct fold_str x, struct fold_str y, size_t d)
{
	size_t n = (x.len < y.len ? x.len : y.len) - d;
	int c = n ? memcmp(x.s + d, y.s + d, n) : 0;

	if (c != 0)
		return c;
	return (x.len > y.len) - (x.len < y.len);
}

static void
insertion(struct rec *a, size_t n, const struct fold_str *t, size_t d)
{
	size_t i, j;
	struct rec r;

	for (i = 1; i < n; i++) {
		r = a[i];
		for (j = i; j > 0 && cmpfrom(t[a[j - 1].id],
		    t[r.id], d) > 0; j--)
			a[j] = a[j - 1];
		a[j] = r;
	}
}

/*
 * A run of names whose 8 bytes from d are equal: those that end within
 * them go first, shortest first (a name is below its extensions); the
 * rest are returned to be sorted from d + 8.
 */
static size_t
split_run(struct rec *a, struct rec *tmp, size_t n,
    const struct fold_str *t, size_t d)
{
	size_t i, nf = 0, nu = 0, j;
	struct rec r;

	for (i = 0; i < n; i++)
		if (t[a[i].id].len <= d + 8)
			tmp[nf++] = a[i];
	for (i = 0; i < n; i++)
		if (t[a[i].id].len > d + 8)
			tmp[nf + nu++] = a[i];
	for (i = 1; i < nf; i++) {	/* a handful: lengths d..d+8 */
		r = tmp[i];
		for (j = i; j > 0 && t[tmp[j - 1].id].len >
		    t[r.id].len; j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = r;
	}
	memcpy(a, tmp, n * sizeof(*a));
	return nf;
}

/* Names fetched this many records ahead of the one read: they lie
 * anywhere in memory, and waiting for each in turn is most of a sort. */
enum { AHEAD = 16 };

/*
 * The keys of a[0..n), names that share their first d bytes, from d.  If
 * all the keys are the same and no name ends within them, the bytes all
 * the names share past them are skipped first (names of one function may
 * share all but their last bytes, and sorting them 8 bytes at a time
 * would read each name again for every 8): the d the keys are from.
 */
static size_t
settle(struct rec *a, size_t n, const struct fold_str *t, size_t d)
{
	size_t i, k, lim, minlen;
	const char *r, *x;
	int same;

	for (;;) {
		same = 1;
		minlen = (size_t)-1;
		for (i = 0; i < n; i++) {
			if (i + 2 * AHEAD < n)
				fold_prefetch(&t[a[i + 2 * AHEAD].id]);
			if (i + AHEAD < n)
				fold_prefetch(t[a[i + AHEAD].id].s + d);
			a[i].key = key8(t[a[i].id], d);
			same &= a[i].key == a[0].key;
			if (t[a[i].id].len < minlen)
				minlen = t[a[i].id].len;
		}
		if (!same || minlen <= d + 8)
			return d;
		/* the bytes from d + 8 the first name shares with all */
		r = t[a[0].id].s;
		lim = minlen;
		for (i = 1; i < n && lim > d + 8; i++) {
			if (i + AHEAD < n)
				fold_prefetch(t[a[i + AHEAD].id].s + d + 8);
			x = t[a[i].id].s;
			for (k = d + 8; k + 8 <= lim && key8(t[a[i].id], k) ==
			    key8(t[a[0].id], k); k += 8)
				;
			while (k < lim && x[k] == r[k])
				k++;
			lim = k;
		}
		d = lim;	/* >= d + 8: each turn goes deeper */
	}
}

void
fold_sort_names(uint32_t *ids, size_t n, const struct fold_intern *t)
{
	fold_sort_strs(ids, n, t->strs);
}

void
fold_sort_strs(uint32_t *ids, size_t n, const struct fold_str *t)
{
	struct job {
		size_t lo, n, d;
	} *st = NULL, jb;
	struct rec *a, *tmp;
	size_t nst = 0, stcap = 0, i, j, nf;

	if (n < 2)
		return;
	a = xmalloc(n * sizeof(*a));
	tmp = xmalloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++)
		a[i].id = ids[i];
	/* Runs still to sort, on a heap stack: names may share any length. */
	fold_grow(&st, &stcap, 1, sizeof(*st));
	st[nst].lo = 0;
	st[nst].n = n;
	st[nst++].d = 0;
	while (nst > 0) {
		jb = st[--nst];
		jb.d = settle(a + jb.lo, jb.n, t, jb.d);
		if (jb.n <= SMALL) {
			insertion(a + jb.lo, jb.n, t, jb.d);
			continue;
		}
		radix64(a + jb.lo, tmp + jb.lo, jb.n);
		for (i = jb.lo; i < jb.lo + jb.n; i = j) {
			for (j = i + 1; j < jb.lo + jb.n && a[j].key == a[i].key;
			    j++)
				;
			if (j - i < 2)
				continue;
			nf = split_run(a + i, tmp + i, j - i, t, jb.d);
			if (j - i - nf < 2)
				continue;
			fold_grow(&st, &stcap, nst + 1, sizeof(*st));
			st[nst].lo = i + nf;
			st[nst].n = j - i - nf;
			st[nst++].d = jb.d + 8;
		}
	}
	for (i = 0; i < n; i++)
		ids[i] = a[i].id;
	free(st);
	free(a);
	free(tmp);
}

void
fold_sort_desc(uint32_t *ids, size_t n, const uint64_t *key)
{
	struct rec *a, *tmp;
	size_t i;

	if (n < 2)
		return;
	a = xmalloc(n * sizeof(*a));
	tmp = xmalloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++) {
		a[i].key = ~key[ids[i]];	/* descending */
		a[i].id = ids[i];
	}
	radix64(a, tmp, n);
	for (i = 0; i < n; i++)
		ids[i] = a[i].id;
	free(a);
	free(tmp);
}

void
fold_reverse_ids(uint32_t *ids, size_t n)
{
	size_t k;
	uint32_t x;

	for (k = 0; k < n / 2; k++) {
		x = ids[k];
		ids[k] = ids[n - 1 - k];
		ids[n - 1 - k] = x;
	}
}
