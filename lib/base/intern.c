/* intern.c - byte strings to dense ids, by open addressing. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

/*
 * Each string is copied into the arena after a header holding its length
 * and id, so that a probe touches the slot and the string only.
 */
struct hdr {
	uint64_t len;
	uint64_t id;
};

static inline const struct hdr *
hdrof(const char *s)
{
	return (const struct hdr *)(const void *)(s - sizeof(struct hdr));
}

void
fold_intern_init(struct fold_intern *t)
{
	memset(t, 0, sizeof(*t));
	t->mask = 1023;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
}

static void
rehash(struct fold_intern *t)
{
	size_t nmask = t->mask * 2 + 1, j, k;
	struct fold_slot *ns;

	if (nmask > ((size_t)-1) / sizeof(*ns))
		fold_die(1, "out of memory: too many distinct strings");
	ns = xcalloc(nmask + 1, sizeof(*ns));
	fold_prefault(ns, (nmask + 1) * sizeof(*ns));	/* all of it used */
	for (k = 0; k <= t->mask; k++) {
		if (t->slots[k].s == NULL)
			continue;
		for (j = t->slots[k].h & nmask; ns[j].s != NULL; j = (j + 1) & nmask)
			;
		ns[j] = t->slots[k];
	}
	free(t->slots);
	t->slots = ns;
	t->mask = nmask;
}

/* The slot holding s, or the empty slot where it would go. */
static inline struct fold_slot *
probe(const struct fold_intern *t, const char *s, size_t len, uint64_t h)
{
	struct fold_slot *sl;
	size_t j;

	for (j = h & t->mask; (sl = &t->slots[j])->s != NULL; j = (j + 1) & t->mask)
		if (sl->h == h && hdrof(sl->s)->len == len &&
		    memcmp(sl->s, s, len) == 0)
			break;
	return sl;
}

uint32_t
fold_intern_h(struct fold_intern *t, const char *s, size_t len, uint64_t h,
    int *isnew)
{
	struct fold_slot *sl = probe(t, s, len, h);
	struct hdr *hd;
	uint32_t id;
	char *copy;

	if (sl->s != NULL) {
		if (isnew != NULL)
			*isnew = 0;
		return (uint32_t)hdrof(sl->s)->id;
	}
	if (t->n >= 0xfffffffeU)
		fold_die(1, "too many distinct strings");
	id = (uint32_t)t->n++;
	fold_grow(&t->strs, &t->cap, t->n, sizeof(*t->strs));
	hd = fold_arena_alloc(&t->arena, sizeof(*hd) + len + 1);
	hd->len = len;
	hd->id = id;
	copy = (char *)(hd + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->strs[id].s = copy;
	t->strs[id].len = len;
	sl->h = h;
	sl->s = copy;
	if (isnew != NULL)
		*isnew = 1;
	if (t->n * 2 > t->mask)	/* load factor at most 1/2 */
		rehash(t);
	return id;
}

void
fold_intern_prefetch(const struct fold_intern *t, uint64_t h)
{
	fold_prefetch(&t->slots[h & t->mask]);
}

void
fold_intern_prefetch_str(const struct fold_intern *t, uint64_t h)
{
	const struct fold_slot *sl = &t->slots[h & t->mask];

	if (sl->s != NULL && sl->h == h)
		fold_prefetch(sl->s - sizeof(struct hdr));
}

uint32_t
fold_intern_find_h(const struct fold_intern *t, const char *s, size_t len,
    uint64_t h)
{
	const struct fold_slot *sl = probe(t, s, len, h);

	return sl->s != NULL ? (uint32_t)hdrof(sl->s)->id : FOLD_NOID;
}

uint32_t
fold_intern(struct fold_intern *t, const char *s, size_t len, int *isnew)
{
	return fold_intern_h(t, s, len, fold_hash(s, len), isnew);
}

void
fold_intern_free(struct fold_intern *t)
{
	free(t->slots);
	free(t->strs);
	fold_arena_free(&t->arena);
	memset(t, 0, sizeof(*t));
}

int
fold_strcmp(struct fold_str a, struct fold_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.s, b.s, n) : 0;

	if (c != 0)
		return c;
	return (a.len > b.len) - (a.len < b.len);
}
