/* filter.c - --focus and --ignore, matched once per distinct frame. */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "report/report.h"

enum { KNOWN = 1, FOCUS = FOLD_FILTER_FOCUS, IGNORE = FOLD_FILTER_IGNORE };

static struct fold_re *
compile_all(const char **pats, size_t n, int flags)
{
	struct fold_re *re = xcalloc(n, sizeof(*re));
	size_t k;

	for (k = 0; k < n; k++)
		fold_re_xcompile(&re[k], pats[k], flags);
	return re;
}

void
fold_filter_init(struct fold_filter *f, const struct fold_common *o)
{
	int flags = o->fixed ? FOLD_RE_FIXED : 0;

	memset(f, 0, sizeof(*f));
	f->nfocus = o->nfocus;
	f->nignore = o->nignore;
	f->focus = compile_all(o->focus, o->nfocus, flags);
	f->ignore = compile_all(o->ignore, o->nignore, flags);
}

int
fold_filter_active(const struct fold_filter *f)
{
	return f->nfocus + f->nignore > 0;
}

unsigned
fold_filter_frame(struct fold_filter *f, const struct fold_intern *t, uint32_t id)
{
	struct fold_str s;
	unsigned bits = KNOWN;
	size_t k;

	fold_grow(&f->cache, &f->cap, (size_t)id + 1, 1);
	if (f->cache[id] & KNOWN)
		return f->cache[id] & ~(unsigned)KNOWN;
	s = fold_intern_str(t, id);
	for (k = 0; k < f->nfocus; k++)
		if (fold_re_match(&f->focus[k], s.s, s.len, NULL, NULL)) {
			bits |= FOCUS;
			break;
		}
	for (k = 0; k < f->nignore; k++)
		if (fold_re_match(&f->ignore[k], s.s, s.len, NULL, NULL)) {
			bits |= IGNORE;
			break;
		}
	f->cache[id] = (unsigned char)bits;
	return bits & ~(unsigned)KNOWN;
}

int
fold_filter_pass(struct fold_filter *f, const struct fold_intern *t,
    const uint32_t *ids, size_t n)
{
	int focused = f->nfocus == 0;
	unsigned bits;
	size_t k;

	for (k = 0; k < n; k++) {
		bits = fold_filter_frame(f, t, ids[k]);
		if (bits & IGNORE)
			return 0;
		if (bits & FOCUS)
			focused = 1;
	}
	return focused;
}

void
fold_filter_free(struct fold_filter *f)
{
	size_t k;

	for (k = 0; k < f->nfocus; k++)
		fold_re_free(&f->focus[k]);
	for (k = 0; k < f->nignore; k++)
		fold_re_free(&f->ignore[k]);
	free(f->focus);
	free(f->ignore);
	free(f->cache);
	memset(f, 0, sizeof(*f));
}

int
fold_idmatch(struct fold_idmatch *m, const struct fold_intern *t, uint32_t id)
{
	struct fold_str s;

	fold_grow(&m->cache, &m->cap, (size_t)id + 1, 1);
	if (m->cache[id] == 0) {
		s = fold_intern_str(t, id);
		m->cache[id] = fold_re_match(&m->re, s.s, s.len, NULL, NULL) ?
		    2 : 1;
	}
	return m->cache[id] == 2;
}

void
fold_idmatch_free(struct fold_idmatch *m)
{
	fold_re_free(&m->re);
	free(m->cache);
	memset(m, 0, sizeof(*m));
}
