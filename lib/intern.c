/* intern.c - byte strings to dense ids, by open addressing. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

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
	size_t nmask = t->mask * 2 + 1, j;
	uint64_t *ns, h;
	uint32_t id;

	if (nmask > ((size_t)-1) / sizeof(*ns) || nmask >= 0xffffffffULL)
		fold_die(1, "out of memory: too many distinct strings");
	ns = xcalloc(nmask + 1, sizeof(*ns));
	for (id = 0; id < t->n; id++) {
		h = fold_hash(t->strs[id].s, t->strs[id].len);
		for (j = h & nmask; ns[j] != 0; j = (j + 1) & nmask)
			;
		ns[j] = (h & ~(uint64_t)nmask) | ((uint64_t)id + 1);
	}
	free(t->slots);
	t->slots = ns;
	t->mask = nmask;
}

uint32_t
fold_intern_h(struct fold_intern *t, const char *s, size_t len, uint64_t h,
    int *isnew)
{
	uint64_t tag = h & ~(uint64_t)t->mask, v;
	size_t j;
	uint32_t id;
	char *copy;

	for (j = h & t->mask; (v = t->slots[j]) != 0; j = (j + 1) & t->mask) {
		if ((v & ~(uint64_t)t->mask) != tag)
			continue;
		id = (uint32_t)((v & t->mask) - 1);
		if (t->strs[id].len == len && memcmp(t->strs[id].s, s, len) == 0) {
			if (isnew != NULL)
				*isnew = 0;
			return id;
		}
	}
	if (t->n >= 0xfffffffeU)
		fold_die(1, "too many distinct strings");
	id = (uint32_t)t->n++;
	fold_grow(&t->strs, &t->cap, t->n, sizeof(*t->strs));
	copy = fold_arena_alloc(&t->arena, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->strs[id].s = copy;
	t->strs[id].len = len;
	t->slots[j] = tag | ((uint64_t)id + 1);
	if (isnew != NULL)
		*isnew = 1;
	if (t->n * 2 > t->mask)	/* load factor at most 1/2 */
		rehash(t);
	return id;
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
