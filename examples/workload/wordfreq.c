/*
 * wordfreq.c - the workload behind the before/after pair in examples/
 * (wordfreq-before.folded, wordfreq-after.folded): count the words of a
 * generated text and print the most frequent ones.
 *
 *   main -> run -> make_text                 (generate the text)
 *               -> count_words -> next_word  (split)
 *                              -> find_word  (look a word up)
 *               -> report -> qsort -> by_count
 *
 * Built as is, find_word() scans the table of words seen so far (the
 * "before" program).  Built with -DHASHED it looks the word up in a hash
 * index instead (the "after" program): the one change between the two
 * profiles.
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer [-DHASHED] -o wordfreq wordfreq.c
 * Usage: wordfreq [ROUNDS]   (default 40)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS 3000
#define TEXTLEN (2 * 1024 * 1024)

struct word {
	char s[16];
	size_t len;
	unsigned long count;
};

static struct word table[NWORDS];
static size_t nwords;
#ifdef HASHED
static int idx[4096];		/* 1 + table position, 0: empty */
#endif

static unsigned long long rs = 88172645463325252ULL;

static unsigned
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (unsigned)rs;
}

/* A text of NWORDS distinct words, the common ones often. */
__attribute__((noinline)) static void
make_text(char *text, size_t cap)
{
	size_t n = 0, k, len;
	unsigned w;

	while (n + 20 < cap) {
		w = rnd() % NWORDS;
		w = w * (rnd() % NWORDS) / NWORDS;	/* skewed to small ids */
		len = 3 + w % 9;
		for (k = 0; k < len; k++)
			text[n++] = (char)('a' + (w * 7 + k * 13) % 26);
		text[n++] = (char)('0' + w % 10);
		text[n++] = (char)('a' + w / 10 % 26);
		text[n++] = ' ';
	}
	text[n] = '\0';
}

__attribute__((noinline)) static const char *
next_word(const char *p, size_t *len)
{
	while (*p == ' ')
		p++;
	*len = 0;
	while (p[*len] != ' ' && p[*len] != '\0')
		(*len)++;
	return p;
}

#ifdef HASHED
static unsigned
hash(const char *s, size_t len)
{
	unsigned h = 2166136261u;

	while (len-- > 0)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}
#endif

/* The position of the word in the table, added if new. */
__attribute__((noinline)) static size_t
find_word(const char *s, size_t len)
{
	size_t k;
#ifdef HASHED
	unsigned j = hash(s, len) & 4095;

	for (; idx[j] != 0; j = (j + 1) & 4095) {
		k = (size_t)idx[j] - 1;
		if (table[k].len == len && memcmp(table[k].s, s, len) == 0)
			return k;
	}
	idx[j] = (int)nwords + 1;
#else
	for (k = 0; k < nwords; k++)
		if (table[k].len == len && memcmp(table[k].s, s, len) == 0)
			return k;
#endif
	memcpy(table[nwords].s, s, len);
	table[nwords].len = len;
	return nwords++;
}

__attribute__((noinline)) static void
count_words(const char *text)
{
	const char *p = text;
	size_t len;

	for (;;) {
		p = next_word(p, &len);
		if (len == 0)
			break;
		if (len < sizeof(table[0].s))
			table[find_word(p, len)].count++;
		p += len;
	}
}

static int
by_count(const void *a, const void *b)
{
	const struct word *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

__attribute__((noinline)) static void
report(int show)
{
	static struct word sorted[NWORDS];
	size_t k;

	memcpy(sorted, table, nwords * sizeof(*table));
	qsort(sorted, nwords, sizeof(*sorted), by_count);
	for (k = 0; show && k < 5 && k < nwords; k++)
		printf("%8lu %.*s\n", sorted[k].count, (int)sorted[k].len,
		    sorted[k].s);
}

__attribute__((noinline)) static void
run(int rounds)
{
	char *text = malloc(TEXTLEN);
	int r;

	if (text == NULL)
		exit(1);
	for (r = 0; r < rounds; r++) {
		make_text(text, TEXTLEN);
		count_words(text);
		report(r == rounds - 1);
	}
	free(text);
}

int
main(int argc, char **argv)
{
	run(argc > 1 ? atoi(argv[1]) : 40);
	return 0;
}
