/* arena.c - memory handed out in big chunks, freed all at once. */
#include <stdlib.h>

#include "fold.h"

#define CHUNK (1024 * 1024)

struct fold_chunk {
	struct fold_chunk *next;
	/* data follows */
};

void *
fold_arena_alloc(struct fold_arena *a, size_t n)
{
	struct fold_chunk *c;
	size_t size;
	char *p;

	if (n > (size_t)-1 / 2)
		fold_die(1, "out of memory");
	n = n ? (n + 7) & ~(size_t)7 : 8;
	if (n > a->left) {
		size = n > CHUNK / 4 ? n : CHUNK;	/* big: own chunk */
		c = xmalloc(sizeof(*c) + 8 + size);
		p = (char *)c + ((sizeof(*c) + 7) & ~(size_t)7);
		if (size != CHUNK) {	/* keep the current chunk in use */
			if (a->head != NULL) {
				c->next = a->head->next;
				a->head->next = c;
			} else {
				c->next = NULL;
				a->head = c;
			}
			return p;
		}
		/* A second chunk and on: a big input, whose strings will
		 * fill it; its pages resident at once (fold_prefault). */
		if (a->head != NULL)
			fold_prefault(p, size);
		c->next = a->head;
		a->head = c;
		a->cur = p;
		a->left = size;
	}
	p = a->cur;
	a->cur += n;
	a->left -= n;
	return p;
}

void
fold_arena_free(struct fold_arena *a)
{
	struct fold_chunk *c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->cur = NULL;
	a->left = 0;
}
