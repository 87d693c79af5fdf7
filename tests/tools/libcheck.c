/*
 * libcheck - library functions against simple references, on random input
 * (the same for the same seed).  Prints "ok ..." or the first disagreement;
 * exit 0 or 1.
 *
 *	libcheck sort N SEED	fold_sort_names() and fold_sort_desc() against
 *				qsort with fold_strcmp on N random names: long
 *				shared prefixes, names that are prefixes of
 *				others, NUL and 0xff bytes, lengths around the
 *				8-byte steps
 *	libcheck memmem N SEED	fold_memmem() against a byte-by-byte search
 *				on N random haystacks and needles over a small
 *				alphabet (NUL and 0xff in it): needles of 0 to
 *				40 bytes, matches at every offset, at the very
 *				end, overlapping, and none
 *	libcheck pair N SEED	fold_pair's jobs: N rounds of both halves of
 *				a job, and of one job started, waited for and
 *				run again; jobs of random lengths (some that
 *				sleep past the pair's spin), each writing its
 *				own slots, read after the wait; a pair freed
 *				with a job running, and the NULL pair
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fold.h"

static unsigned long long x;
static const struct fold_intern *T;
static const uint64_t *K;

static unsigned
rnd(unsigned n)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (unsigned)(x >> 33) % n;
}

static int
byname(const void *a, const void *b)
{
	return fold_strcmp(fold_intern_str(T, *(const uint32_t *)a),
	    fold_intern_str(T, *(const uint32_t *)b));
}

static int
bykey(const void *a, const void *b)
{
	uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;

	if (K[p] != K[q])
		return K[p] < K[q] ? 1 : -1;
	return byname(a, b);
}

/* The first place of needle[0..n) in s[0..len), by brute force. */
static const char *
naive(const char *s, size_t len, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return s + i;
	return NULL;
}

/* A job of fold_pair: its round's number written to its slots, after a
 * while of work (or a sleep) of the length asked. */
struct job {
	unsigned long long round;
	unsigned *slot;		/* NSLOT of them */
	unsigned spin;		/* loops, or 0: a sleep of 2 ms */
	volatile unsigned sink;
};
#define NSLOT 64

static void *
job_run(void *arg)
{
	struct job *j = arg;
	struct timespec ts = { 0, 2000000 };
	unsigned i;

	if (j->spin == 0)
		nanosleep(&ts, NULL);
	for (i = 0; i < j->spin; i++)
		j->sink = j->sink + i;
	for (i = 0; i < NSLOT; i++)
		j->slot[i] += (unsigned)j->round;
	return NULL;
}

/* Each slot of j holds the sum of the rounds of the jobs run there. */
static int
slots_are(const struct job *j, unsigned long long sum, const char *what,
    size_t r)
{
	unsigned i;

	for (i = 0; i < NSLOT; i++)
		if (j->slot[i] != (unsigned)sum) {
			printf("%s: round %zu: slot %u is %u, not %u\n", what, r,
			    i, j->slot[i], (unsigned)sum);
			return 0;
		}
	return 1;
}

static int
pair_check(size_t n)
{
	struct fold_pair *p;
	struct job j[2];
	unsigned long long sum[2] = { 0, 0 };
	size_t r;
	int k;

	if ((p = fold_pair_new()) == NULL) {
		printf("no thread\n");
		return 1;
	}
	for (k = 0; k < 2; k++) {
		j[k].slot = xcalloc(NSLOT, sizeof(*j[k].slot));
		j[k].sink = 0;
	}
	for (r = 0; r < n; r++) {
		for (k = 0; k < 2; k++) {
			j[k].round = r + 1;
			j[k].spin = rnd(40) == 0 ? 0 : rnd(4) == 0 ? rnd(200000) :
			    rnd(50);
		}
		if (rnd(2)) {	/* both halves */
			fold_pair_both(p, job_run, &j[0], &j[1]);
			sum[0] += r + 1;
			sum[1] += r + 1;
		} else {	/* one there, the caller's own meanwhile */
			fold_pair_start(p, job_run, &j[1]);
			job_run(&j[0]);
			fold_pair_wait(p);
			sum[0] += r + 1;
			sum[1] += r + 1;
		}
		if (!slots_are(&j[0], sum[0], "here", r) ||
		    !slots_are(&j[1], sum[1], "there", r))
			return 1;
	}
	/* freed with a job not waited for: it ends first */
	j[1].round = 1;
	j[1].spin = 0;
	fold_pair_start(p, job_run, &j[1]);
	fold_pair_free(p);
	if (!slots_are(&j[1], sum[1] + 1, "freed", n))
		return 1;
	/* no pair: both here, in turn */
	j[0].round = j[1].round = 1;
	j[0].spin = j[1].spin = 1;
	fold_pair_both(NULL, job_run, &j[0], &j[1]);
	if (!slots_are(&j[0], sum[0] + 1, "NULL", n) ||
	    !slots_are(&j[1], sum[1] + 2, "NULL", n))
		return 1;
	fold_pair_free(NULL);
	free(j[0].slot);
	free(j[1].slot);
	printf("ok %zu rounds\n", n);
	return 0;
}

static int
memmem_check(size_t n)
{
	static const char abc[] = "ab\0\377;";
	char *hay = xmalloc(300), *nd = xmalloc(48);
	const char *got, *want;
	size_t i, k, hl, nl, off;

	for (i = 0; i < n; i++) {
		hl = rnd(300);
		nl = rnd(8) == 0 ? rnd(41) : rnd(6);
		for (k = 0; k < hl; k++)
			hay[k] = abc[rnd(rnd(3) == 0 ? 5 : 2)];
		if (nl <= hl && rnd(2) == 0) {	/* a piece of the haystack */
			off = rnd((unsigned)(hl - nl + 1));
			memcpy(nd, hay + off, nl);
			if (nl > 0 && rnd(3) == 0)	/* or nearly */
				nd[rnd((unsigned)nl)] ^= 1;
		} else
			for (k = 0; k < nl; k++)
				nd[k] = abc[rnd(5)];
		/* from every start, so that each offset of a vector step is
		 * tried */
		for (off = 0; off <= hl; off += 1 + rnd(4)) {
			got = fold_memmem(hay + off, hl - off, nd, nl);
			want = naive(hay + off, hl - off, nd, nl);
			if (got != want) {
				printf("memmem: case %zu: %zu-byte needle in %zu "
				    "bytes: found at %ld, want %ld\n", i, nl,
				    hl - off, got ? (long)(got - hay - off) : -1L,
				    want ? (long)(want - hay - off) : -1L);
				return 1;
			}
		}
	}
	printf("ok %zu haystacks\n", n);
	free(hay);
	free(nd);
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *pre[] = { "", "std::", "std::collections::hash::",
	    "minieth_vm::evm::", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" };
	struct fold_intern t;
	char nm[200];
	size_t n, i, len, k, cnt;
	uint32_t *a, *b;
	uint64_t *key;

	if (argc != 4)
		return 2;
	n = strtoul(argv[2], NULL, 10);
	x = strtoull(argv[3], NULL, 10) * 0x9e3779b97f4a7c15ULL + 1;
	if (strcmp(argv[1], "memmem") == 0)
		return memmem_check(n);
	if (strcmp(argv[1], "pair") == 0)
		return pair_check(n);
	if (strcmp(argv[1], "sort") != 0)
		return 2;
	fold_intern_init(&t);
	for (i = 0; i < n; i++) {
		const char *p = pre[rnd(5)];

		len = strlen(p);
		memcpy(nm, p, len);
		for (k = rnd(20); k > 0; k--)
			nm[len++] = "ab\0\377z"[rnd(5)];
		fold_intern(&t, nm, len, NULL);
	}
	cnt = fold_intern_count(&t);
	a = xmalloc((cnt + 1) * sizeof(*a));
	b = xmalloc((cnt + 1) * sizeof(*b));
	key = xmalloc((cnt + 1) * sizeof(*key));
	for (i = 0; i < cnt; i++) {
		a[i] = b[i] = (uint32_t)(cnt - 1 - i);
		key[i] = rnd(4) == 0 ? (uint64_t)rnd(3) << 40 : rnd(7);
	}
	T = &t;
	K = key;
	fold_sort_names(a, cnt, &t);
	qsort(b, cnt, sizeof(*b), byname);
	for (i = 0; i < cnt; i++)
		if (a[i] != b[i]) {
			printf("names differ at %zu of %zu\n", i, cnt);
			return 1;
		}
	fold_sort_desc(a, cnt, key);
	qsort(b, cnt, sizeof(*b), bykey);
	for (i = 0; i < cnt; i++)
		if (a[i] != b[i]) {
			printf("ranks differ at %zu of %zu\n", i, cnt);
			return 1;
		}
	printf("ok %zu names\n", cnt);
	free(a);
	free(b);
	free(key);
	fold_intern_free(&t);
	return 0;
}
