/* stackids.c - frame ids of a stack, reusing the previous stack's prefix. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"

void
fold_stackids_init(struct fold_stackids *s, struct fold_intern *t, int strip)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->strip = strip;
}

size_t
fold_stackids_diff(struct fold_stackids *s, const char *stack, size_t len)
{
	size_t l, k;

	l = fold_common_prefix(stack, s->prev, len < s->prevlen ? len :
	    s->prevlen);
	s->same = l == len && len == s->prevlen && s->n > 0;
	if (s->same)
		return s->keep = s->n;
	/* Frame k is kept when the ';' after it is in the common prefix. */
	for (k = 0; k < s->n && s->ends[k] < l; k++)
		;
	/* A frame ending where the common prefix ends is shared too when
	 * both stacks end or go on with a ';' there ("a;b" then "a;b;c"). */
	if (k < s->n && s->ends[k] == l &&
	    (l == len || stack[l] == ';') &&
	    (l == s->prevlen || s->prev[l] == ';'))
		k++;
	return s->keep = k;
}

const uint32_t *
fold_stackids_push(struct fold_stackids *s, const char *stack, size_t len,
    size_t *n)
{
	size_t start, flen, first, k;
	const char *semi;

	if (s->same) {
		*n = s->n;
		return s->ids;
	}
	s->n = s->keep;
	start = s->n ? s->ends[s->n - 1] + 1 : 0;
	if (start > len) {
		/* All its frames are kept: a prefix of the previous stack. */
		s->prevlen = len;
		*n = s->n;
		return s->ids;
	}
	fold_grow(&s->prev, &s->prevcap, len + 1, 1);
	/* From the ';' before start, which is new when the previous stack
	 * ended there ("a;b" then "a;b;c"). */
	memcpy(s->prev + (start ? start - 1 : 0), stack + (start ? start - 1 : 0),
	    len - (start ? start - 1 : 0));
	s->prevlen = len;
	/* The new frames' ends and hashes first, the table's memory for them
	 * fetched at once, then the lookups (their misses overlap). */
	first = s->n;
	for (;;) {
		semi = memchr(stack + start, ';', len - start);
		flen = semi != NULL ? (size_t)(semi - stack) - start : len - start;
		if (s->n == s->cap) {
			size_t c = s->cap, c2 = s->cap;

			fold_grow(&s->ids, &c, s->n + 1, sizeof(*s->ids));
			fold_grow(&s->hs, &c2, s->n + 1, sizeof(*s->hs));
			fold_grow(&s->ends, &s->cap, s->n + 1, sizeof(*s->ends));
		}
		if (s->strip)
			flen = fold_strip_annotation(stack + start, flen);
		s->hs[s->n] = fold_hash(stack + start, flen);
		fold_intern_prefetch(s->t, s->hs[s->n]);
		s->ids[s->n] = (uint32_t)flen;	/* for now */
		s->ends[s->n++] = start + (semi != NULL ?
		    (size_t)(semi - stack) - start : len - start);
		if (semi == NULL)
			break;
		start = s->ends[s->n - 1] + 1;
	}
	for (k = first; k < s->n; k++)
		fold_intern_prefetch_str(s->t, s->hs[k]);
	for (k = first; k < s->n; k++) {
		start = k > 0 ? s->ends[k - 1] + 1 : 0;
		s->ids[k] = fold_intern_h(s->t, stack + start, s->ids[k],
		    s->hs[k], NULL);
	}
	*n = s->n;
	return s->ids;
}

const uint32_t *
fold_stackids(struct fold_stackids *s, const char *stack, size_t len,
    size_t *n)
{
	fold_stackids_diff(s, stack, len);
	return fold_stackids_push(s, stack, len, n);
}

void
fold_stackids_free(struct fold_stackids *s)
{
	free(s->prev);
	free(s->ids);
	free(s->ends);
	free(s->hs);
	memset(s, 0, sizeof(*s));
}
