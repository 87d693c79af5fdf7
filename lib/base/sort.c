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

static uint64_t
key8(struct fold_str s, size_t d)
{
	const unsigned char *p = (const unsigned char *)s.s + d;
	size_t k, n = s.len > d ? s.len - d : 0;
	uint64_t v = 0;

	if (n >= 8) {
		for (k = 0; k < 8; k++)
			v = v << 8 | p[k];
		return v;
	}
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
		if (jb.n <= SMALL) {
			insertion(a + jb.lo, jb.n, t, jb.d);
			continue;
		}
		for (i = jb.lo; i < jb.lo + jb.n; i++)
			a[i].key = key8(t[a[i].id], jb.d);
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
