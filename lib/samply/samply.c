/*
 * samply.c - the Firefox Profiler's processed profile format, versions 41
 * to 70, to folded stacks (see samply.h).
 *
 * What moved between the versions we read (the profiler's
 * processed-profile-versioning.ts and CHANGELOG-formats.md):
 *   41  libs at the top level (before: per thread; not read)
 *   47  thread pid a string (before: a string or a number)
 *   50  samples.timeDeltas may stand for samples.time (neither is read)
 *   56  one string array, shared.stringArray (before: thread.stringArray)
 *   60  stackTable, frameTable, funcTable, resourceTable, nativeSymbols in
 *       shared (before: per thread)
 *   66  stackTable.prefixOffset (0: a root, else i - parent) for prefix
 *   70  frameTable.lib (-1: none) for resourceTable.lib
 * A JSON pass finds the top-level members (in any order); then meta (the
 * version), libs, shared and each thread are read by readers of their
 * own, tables first, then the thread's samples: the stack, weight and
 * threadCPUDelta columns walked side by side, each sample added to its
 * stack's sum.  A thread's stacks are made into text once each (frame
 * names once each), interned; an input's sums are kept aside until it is
 * read to its end, so that a damaged one adds nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "markup/markup.h"
#include "samply/samply.h"

#define NOPOS ((size_t)-1)
#define MAXVERSION 70
#define MINVERSION 41
#define INFLATE_MAX ((size_t)1 << 34)	/* 16 GiB of JSON at most */

struct pend {
	uint32_t id;
	fold_num n;
};

struct fold_samply_st {
	unsigned flags;
	char *symfs;
	struct fold_intern stacks;	/* folded stacks, all inputs */
	fold_num *counts;		/* by stack id */
	size_t ccap;
	int frac;			/* a weight with a fraction */
	struct pend *pend;		/* this input's sums */
	size_t npend, pcap;
	struct sbuf { char *p; size_t cap, n; } buf, fbuf;	/* a stack's
				   text, a frame's */
};

/* One set of tables: a thread's (before 60) or the shared ones. */
struct tables {
	size_t nstacks, nframes, nfuncs, nres, nstrs;
	int64_t *prefix, *sframe;
	int64_t *faddr, *ffunc, *flib;
	int64_t *fname, *fres;
	int64_t *rlib;
	struct fold_str *strs;
	struct fold_str *ftext;		/* frame names made, by frame */
	unsigned char *state;		/* the cycle check */
	fold_num *sum;			/* by stack, for the thread read */
	size_t *touched, ntouched;
	size_t *chain;
};

struct rd {
	struct fold_samply_st *st;
	const char *name;
	const unsigned char *text;
	size_t len;
	struct fold_json j, t, s[3];	/* top, tables, sample columns */
	int version;
	struct fold_samply_lib *libs;
	size_t nlibs;
	struct tables sh, th;
	struct fold_samply_names *names;
	struct fold_arena arena;	/* strings copied, frame names */
	char err[256];
	int bad;
	uint64_t negative;
};

struct fold_samply *
fold_samply_new(unsigned flags, const char *symfs)
{
	struct fold_samply *s = xcalloc(1, sizeof(*s));

	s->st = xcalloc(1, sizeof(*s->st));
	s->st->flags = flags;
	s->st->symfs = symfs != NULL && *symfs != '\0' ? xstrdup(symfs) : NULL;
	fold_intern_init(&s->st->stacks);
	return s;
}

static int FOLD_PRINTF(2, 3)
bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->bad) {
		va_start(ap, fmt);
		vsnprintf(r->err, sizeof(r->err), fmt, ap);
		va_end(ap);
		r->bad = 1;
	}
	return -1;
}

static int
streq(struct fold_str a, const char *s)
{
	return a.len == strlen(s) && memcmp(a.s, s, a.len) == 0;
}

/* A string that lives as long as the input: in the text, or copied. */
static struct fold_str
keep(struct rd *r, struct fold_str s)
{
	char *c;

	if ((const unsigned char *)s.s >= r->text &&
	    (const unsigned char *)s.s < r->text + r->len)
		return s;
	c = fold_arena_alloc(&r->arena, s.len + 1);
	memcpy(c, s.s, s.len);
	c[s.len] = '\0';
	s.s = c;
	return s;
}

/*
 * The members of the object at off (reader j) whose keys are in names:
 * their offsets in offs (NOPOS: absent); the others are skipped.
 */
static int
members(struct fold_json *j, size_t off, const char *const *names,
    size_t n, size_t *offs)
{
	struct fold_str k;
	size_t i;
	int x;

	for (i = 0; i < n; i++)
		offs[i] = NOPOS;
	fold_json_seek(j, off);
	if (fold_json_obj(j) < 0)
		return -1;
	while ((x = fold_json_key(j, &k)) == 1) {
		for (i = 0; i < n; i++)
			if (streq(k, names[i])) {
				offs[i] = fold_json_tell(j);
				break;
			}
		if (fold_json_skip(j) < 0)
			return -1;
	}
	return x;
}

/* A column of integers or nulls (null: -1) into *arr. */
static int
column(struct fold_json *j, int64_t **arr, size_t *n)
{
	size_t cap = 0;
	int64_t v;
	int x;

	*n = 0;
	free(*arr);
	*arr = NULL;
	if (fold_json_arr(j) < 0)
		return -1;
	while ((x = fold_json_next(j)) == 1) {
		fold_grow(arr, &cap, *n + 1, sizeof(**arr));
		if (fold_json_null(j) == 1)
			v = -1;
		else if (fold_json_int(j, &v) < 0)
			return -1;
		(*arr)[(*n)++] = v;
	}
	return x;
}

struct colspec {
	const char *name;
	int64_t **arr;
	int need;
};

/* A table at off: its columns (those with need must be there), all as
 * long as its length. */
static int
table(struct rd *r, size_t off, const char *tname, const struct colspec *c,
    size_t nc, size_t *len)
{
	struct fold_json *j = &r->t;
	struct fold_str k;
	size_t i, n[8], have = NOPOS;
	int64_t l = -1;
	int x;

	if (off == NOPOS)
		return bad(r, "no %s", tname);
	for (i = 0; i < nc; i++) {
		n[i] = NOPOS;
		free(*c[i].arr);
		*c[i].arr = NULL;
	}
	fold_json_seek(j, off);
	if (fold_json_obj(j) < 0)
		return -1;
	while ((x = fold_json_key(j, &k)) == 1) {
		if (streq(k, "length")) {
			if (fold_json_int(j, &l) < 0)
				return -1;
			continue;
		}
		for (i = 0; i < nc; i++)
			if (streq(k, c[i].name))
				break;
		if (i == nc) {
			if (fold_json_skip(j) < 0)
				return -1;
		} else if (fold_json_null(j) != 1 &&
		    column(j, c[i].arr, &n[i]) < 0)
			return -1;
	}
	if (x < 0)
		return -1;
	for (i = 0; i < nc; i++)
		if (n[i] != NOPOS && have == NOPOS)
			have = n[i];
	*len = l >= 0 ? (size_t)l : have == NOPOS ? 0 : have;
	for (i = 0; i < nc; i++) {
		if (n[i] == NOPOS && c[i].need && *len > 0)
			return bad(r, "%s has no %s column", tname, c[i].name);
		if (n[i] != NOPOS && n[i] != *len)
			return bad(r, "%s.%s has %zu entries, its length is %zu",
			    tname, c[i].name, n[i], *len);
	}
	return 0;
}

static int
strings(struct rd *r, size_t off, struct tables *t)
{
	struct fold_json *j = &r->t;
	struct fold_str s;
	size_t cap = 0;
	int x;

	free(t->strs);
	t->strs = NULL;
	t->nstrs = 0;
	if (off == NOPOS)
		return bad(r, "no stringArray");
	fold_json_seek(j, off);
	if (fold_json_arr(j) < 0)
		return -1;
	while ((x = fold_json_next(j)) == 1) {
		if (fold_json_str(j, &s) < 0)
			return -1;
		fold_grow(&t->strs, &cap, t->nstrs + 1, sizeof(*t->strs));
		t->strs[t->nstrs++] = keep(r, s);
	}
	return x < 0 ? -1 : 0;
}

/* The tables (no strings) at the offsets of stackTable, frameTable,
 * funcTable, resourceTable; checked. */
static int
tables(struct rd *r, const size_t *offs, struct tables *t)
{
	int v66 = r->version >= 66, v70 = r->version >= 70;
	const struct colspec st[] = {
		{ "frame", &t->sframe, 1 },
		{ v66 ? "prefixOffset" : "prefix", &t->prefix, 1 }
	}, ft[] = {
		{ "address", &t->faddr, 1 },
		{ "func", &t->ffunc, 1 },
		{ "lib", &t->flib, v70 }
	}, fn[] = {
		{ "name", &t->fname, 1 },
		{ "resource", &t->fres, 1 }
	}, rt[] = {
		{ "lib", &t->rlib, !v70 }
	};
	size_t i, k, d;
	int64_t v;
	int root;

	if (table(r, offs[0], "stackTable", st, 2, &t->nstacks) < 0 ||
	    table(r, offs[1], "frameTable", ft, v70 ? 3 : 2, &t->nframes) < 0 ||
	    table(r, offs[2], "funcTable", fn, 2, &t->nfuncs) < 0 ||
	    table(r, offs[3], "resourceTable", rt, 1, &t->nres) < 0)
		return -1;
	if (v66)	/* to prefix */
		for (i = 0; i < t->nstacks; i++) {
			v = t->prefix[i];
			if (v < 0 || (uint64_t)v > i)
				return bad(r, "stackTable: stack %zu's "
				    "prefixOffset %lld is out of range", i,
				    (long long)v);
			t->prefix[i] = v == 0 ? -1 : (int64_t)i - v;
		}
	for (i = 0; i < t->nstacks; i++) {
		if (t->sframe[i] < 0 || (uint64_t)t->sframe[i] >= t->nframes)
			return bad(r, "stackTable: stack %zu's frame %lld is out "
			    "of range (%zu frames)", i,
			    (long long)t->sframe[i], t->nframes);
		if (t->prefix[i] < -1 || t->prefix[i] >= (int64_t)t->nstacks)
			return bad(r, "stackTable: stack %zu's prefix %lld is "
			    "out of range (%zu stacks)", i,
			    (long long)t->prefix[i], t->nstacks);
	}
	/* no cycle: walk up from each stack to a root or a stack known to
	 * get there (state 2), marking the way (1) */
	free(t->state);
	t->state = xcalloc(t->nstacks + 1, 1);
	free(t->chain);
	t->chain = xmalloc((t->nstacks + 1) * sizeof(*t->chain));
	for (i = 0; i < t->nstacks; i++) {
		for (d = 0, k = i, root = 0; t->state[k] == 0;) {
			t->state[k] = 1;
			t->chain[d++] = k;
			if (t->prefix[k] < 0) {
				root = 1;
				break;
			}
			k = (size_t)t->prefix[k];
		}
		if (!root && t->state[k] == 1)
			return bad(r, "stackTable: the prefixes of stack %zu "
			    "go round in a cycle", i);
		while (d > 0)
			t->state[t->chain[--d]] = 2;
	}
	for (i = 0; i < t->nframes; i++) {
		if (t->ffunc[i] < 0 || (uint64_t)t->ffunc[i] >= t->nfuncs)
			return bad(r, "frameTable: frame %zu's func %lld is out "
			    "of range (%zu functions)", i,
			    (long long)t->ffunc[i], t->nfuncs);
		if (v70 && t->flib[i] >= (int64_t)r->nlibs)
			return bad(r, "frameTable: frame %zu's lib %lld is out "
			    "of range (%zu libs)", i, (long long)t->flib[i],
			    r->nlibs);
	}
	for (i = 0; i < t->nfuncs; i++)
		if (t->fres[i] >= (int64_t)t->nres)
			return bad(r, "funcTable: function %zu's resource %lld "
			    "is out of range (%zu resources)", i,
			    (long long)t->fres[i], t->nres);
	for (i = 0; !v70 && i < t->nres; i++)
		if (t->rlib[i] >= (int64_t)r->nlibs)
			return bad(r, "resourceTable: resource %zu's lib %lld "
			    "is out of range (%zu libs)", i,
			    (long long)t->rlib[i], r->nlibs);
	free(t->ftext);
	t->ftext = xcalloc(t->nframes + 1, sizeof(*t->ftext));
	free(t->sum);
	t->sum = xcalloc(t->nstacks + 1, sizeof(*t->sum));
	free(t->touched);
	t->touched = xmalloc((t->nstacks + 1) * sizeof(*t->touched));
	t->ntouched = 0;
	return 0;
}

/* The function names index strings: checked once strings and tables
 * are both known. */
static int
check_names(struct rd *r, const struct tables *t, const struct tables *s)
{
	size_t i;

	for (i = 0; i < t->nfuncs; i++)
		if (t->fname[i] < 0 || (uint64_t)t->fname[i] >= s->nstrs)
			return bad(r, "funcTable: function %zu's name %lld is out "
			    "of range (%zu strings)", i, (long long)t->fname[i],
			    s->nstrs);
	return 0;
}

static void
tables_free(struct tables *t)
{
	free(t->prefix);
	free(t->sframe);
	free(t->faddr);
	free(t->ffunc);
	free(t->flib);
	free(t->fname);
	free(t->fres);
	free(t->rlib);
	free(t->strs);
	free(t->ftext);
	free(t->state);
	free(t->sum);
	free(t->touched);
	free(t->chain);
	memset(t, 0, sizeof(*t));
}

/* Is name samply's placeholder for addr ("0x" and its hex)? */
static int
placeholder(struct fold_str name, uint64_t addr)
{
	uint64_t v = 0;
	size_t i;
	int c;

	if (name.len < 3 || name.len > 18 || name.s[0] != '0' ||
	    name.s[1] != 'x')
		return 0;
	for (i = 2; i < name.len; i++) {
		c = (unsigned char)name.s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return 0;
		v = v << 4 | (uint64_t)c;
	}
	return v == addr;
}

/* Append name to b, tidied: ';' to ':', CR LF to ' '. */
static void
put_name(struct sbuf *b, const char *s, size_t len)
{
	size_t i;
	char c;

	fold_grow(&b->p, &b->cap, b->n + len + 1, 1);
	for (i = 0; i < len; i++) {
		c = s[i];
		b->p[b->n++] = c == ';' ? ':' : c == '\n' || c == '\r' ?
		    ' ' : c;
	}
}

static void
put(struct sbuf *b, const char *s, size_t len)
{
	fold_grow(&b->p, &b->cap, b->n + len + 1, 1);
	memcpy(b->p + b->n, s, len);
	b->n += len;
}

/* The text of frame f (one name, or inlined ones joined, callers first),
 * made once. */
static struct fold_str
frame_text(struct rd *r, struct tables *t, const struct tables *s, size_t f)
{
	struct fold_samply_st *st = r->st;
	struct fold_str name, lname;
	const struct fold_str *nm;
	const struct fold_samply_lib *lib;
	int64_t li = -1, res;
	struct sbuf *b = &st->fbuf;
	size_t k, i;
	char hex[32];
	char *c;

	if (t->ftext[f].s != NULL)
		return t->ftext[f];
	b->n = 0;
	name = s->strs[t->fname[t->ffunc[f]]];
	if (t->flib != NULL && r->version >= 70)
		li = t->flib[f];
	else if ((res = t->fres[t->ffunc[f]]) >= 0)
		li = t->rlib[res];
	if (li < 0 || t->faddr[f] < 0 ||
	    !placeholder(name, (uint64_t)t->faddr[f]))
		put_name(b, name.s, name.len);
	else if ((k = fold_samply_names_find(r->names, (size_t)li,
	    (uint64_t)t->faddr[f], &nm)) > 0) {
		for (i = k; i-- > 0;) {
			put_name(b, nm[i].s, nm[i].len);
			if (i > 0)
				put(b, ";", 1);
		}
	} else {
		lib = &r->libs[li];
		lname = lib->name.len > 0 ? lib->name : lib->debug_name;
		put(b, "[", 1);
		put_name(b, lname.s, lname.len);
		if (st->flags & FOLD_SAMPLY_ADDRS)
			put(b, hex, (size_t)snprintf(hex, sizeof(hex),
			    " <0x%llx>", (unsigned long long)t->faddr[f]));
		put(b, "]", 1);
	}
	c = fold_arena_alloc(&r->arena, b->n + 1);
	memcpy(c, b->p, b->n);
	t->ftext[f].s = c;
	t->ftext[f].len = b->n;
	return t->ftext[f];
}

/* The thread's stacks summed: made into text, interned, kept aside. */
static void
emit(struct rd *r, struct tables *t, const struct tables *s,
    struct fold_str root)
{
	struct fold_samply_st *st = r->st;
	struct fold_str ft;
	struct sbuf *b = &st->buf;
	size_t i, k, d;
	uint32_t id;

	for (i = 0; i < t->ntouched; i++) {
		k = t->touched[i];
		if (t->sum[k].i == 0 && t->sum[k].f == 0) {
			t->state[k] &= 3;
			continue;
		}
		for (d = 0;; ) {
			t->chain[d++] = (size_t)t->sframe[k];
			if (t->prefix[k] < 0)
				break;
			k = (size_t)t->prefix[k];
		}
		b->n = 0;
		if (root.s != NULL) {
			put(b, root.s, root.len);
			put(b, ";", 1);
		}
		while (d > 0) {
			ft = frame_text(r, t, s, t->chain[--d]);
			put(b, ft.s, ft.len);
			if (d > 0)
				put(b, ";", 1);
		}
		id = fold_intern(&st->stacks, b->p, b->n, NULL);
		fold_grow(&st->pend, &st->pcap, st->npend + 1,
		    sizeof(*st->pend));
		st->pend[st->npend].id = id;
		st->pend[st->npend++].n = t->sum[t->touched[i]];
		k = t->touched[i];
		t->sum[k].i = 0;
		t->sum[k].f = 0;
		t->state[k] &= 3;
	}
	t->ntouched = 0;
}

/* The sample columns of a thread (samples object at off) summed by
 * stack. */
static int
samples(struct rd *r, size_t off, struct tables *t)
{
	static const char *const names[] = { "stack", "weight",
	    "threadCPUDelta" };
	struct fold_json *sj = &r->s[0], *wj = &r->s[1], *cj = &r->s[2];
	size_t offs[3], i = 0;
	int64_t stack;
	double w, c;
	int x, y, hasw, hasc, cpu = (r->st->flags & FOLD_SAMPLY_CPU) != 0;
	fold_num *sum;

	if (off == NOPOS)
		return 0;
	if (members(&r->t, off, names, 3, offs) < 0)
		return -1;
	if (offs[0] == NOPOS)
		return 0;
	fold_json_seek(sj, offs[0]);
	if (fold_json_null(sj) == 1)
		return 0;
	if (fold_json_arr(sj) < 0)
		return -1;
	hasw = offs[1] != NOPOS;
	if (hasw) {
		fold_json_seek(wj, offs[1]);
		if (fold_json_null(wj) == 1)
			hasw = 0;
		else if (fold_json_arr(wj) < 0)
			return -1;
	}
	hasc = cpu && offs[2] != NOPOS;
	if (hasc) {
		fold_json_seek(cj, offs[2]);
		if (fold_json_null(cj) == 1)
			hasc = 0;
		else if (fold_json_arr(cj) < 0)
			return -1;
	}
	while ((x = fold_json_next(sj)) == 1) {
		w = 1;
		c = 0;
		if (hasw) {
			if ((y = fold_json_next(wj)) < 0)
				return -1;
			if (y == 0)
				return bad(r, "samples: the weight column is "
				    "shorter than the stack column");
			if (fold_json_null(wj) != 1 &&
			    fold_json_num(wj, &w) < 0)
				return -1;
		}
		if (hasc) {
			if ((y = fold_json_next(cj)) < 0)
				return -1;
			if (y == 0)
				return bad(r, "samples: the threadCPUDelta "
				    "column is shorter than the stack column");
			if (fold_json_null(cj) != 1 &&
			    fold_json_num(cj, &c) < 0)
				return -1;
		}
		i++;
		if (fold_json_null(sj) == 1)
			continue;
		if (fold_json_int(sj, &stack) < 0)
			return -1;
		if (stack < 0 || (uint64_t)stack >= t->nstacks)
			return bad(r, "samples: sample %zu's stack %lld is out "
			    "of range (%zu stacks)", i - 1, (long long)stack,
			    t->nstacks);
		if (cpu && !(c > 0))
			continue;
		if (w != w || w >= 9007199254740992.0)
			return bad(r, "samples: sample %zu's weight is not a "
			    "number below 2^53", i - 1);
		if (w < 0) {
			r->negative++;
			continue;
		}
		if (w == 0)
			continue;
		sum = &t->sum[stack];
		if (!(t->state[stack] & 4)) {
			t->state[stack] |= 4;
			t->touched[t->ntouched++] = (size_t)stack;
		}
		if (w == (double)(uint64_t)w) {
			if (sum->i > UINT64_MAX - (uint64_t)w)
				return bad(r, "the weights add up to more "
				    "than 2^64 - 1");
			sum->i += (uint64_t)w;
		} else {
			sum->f += w;
			r->st->frac = 1;
		}
	}
	if (x < 0)
		return -1;
	if (hasw && (y = fold_json_next(wj)) != 0)
		return y < 0 ? -1 : bad(r, "samples: the weight column is "
		    "longer than the stack column");
	if (hasc && (y = fold_json_next(cj)) != 0)
		return y < 0 ? -1 : bad(r, "samples: the threadCPUDelta "
		    "column is longer than the stack column");
	if (cpu && offs[2] == NOPOS && i > 0 &&
	    !(r->st->flags & FOLD_SAMPLY_QUIET))
		fold_warn("%s: a thread without threadCPUDelta: none of its "
		    "samples is kept by --cpu", r->name);
	return 0;
}

/* A string or a number (its text) at off, or "?" */
static struct fold_str
text_at(struct rd *r, size_t off)
{
	struct fold_json *j = &r->t;
	struct fold_str s = { "?", 1 };
	size_t a;

	if (off == NOPOS)
		return s;
	fold_json_seek(j, off);
	switch (fold_json_peek(j)) {
	case FOLD_JSON_STR:
		if (fold_json_str(j, &s) < 0)
			s.s = "?", s.len = 1;
		return keep(r, s);
	case FOLD_JSON_NUM:
		a = fold_json_tell(j);
		(void)fold_json_skip(j);
		s.s = (const char *)r->text + a;
		s.len = fold_json_tell(j) - a;
		return s;
	default:
		return s;
	}
}

static int
thread(struct rd *r, size_t off)
{
	static const char *const names[] = { "stackTable", "frameTable",
	    "funcTable", "resourceTable", "stringArray", "samples", "name",
	    "processName", "pid", "tid" };
	struct fold_samply_st *st = r->st;
	struct fold_str root = { NULL, 0 }, a, b, c;
	struct tables *t = r->version >= 60 ? &r->sh : &r->th;
	struct tables *s = r->version >= 56 ? &r->sh : &r->th;
	struct sbuf *sb = &st->buf;
	size_t offs[10];
	char *rb;

	if (members(&r->t, off, names, 10, offs) < 0)
		return -1;
	if (offs[5] == NOPOS)
		return 0;
	if (r->version < 60 && tables(r, offs, t) < 0)
		return -1;
	if (r->version < 56 && strings(r, offs[4], s) < 0)
		return -1;
	if (r->version < 60 && check_names(r, t, s) < 0)
		return -1;
	if (st->flags & (FOLD_SAMPLY_PID | FOLD_SAMPLY_TID)) {
		sb->n = 0;
		a = text_at(r, offs[st->flags & FOLD_SAMPLY_TID ? 6 : 7]);
		if (a.s[0] == '?' && a.len == 1)
			a = text_at(r, offs[6]);
		b = text_at(r, offs[8]);
		put_name(sb, a.s, a.len);
		put(sb, "-", 1);
		put_name(sb, b.s, b.len);
		if (st->flags & FOLD_SAMPLY_TID) {
			c = text_at(r, offs[9]);
			put(sb, "/", 1);
			put_name(sb, c.s, c.len);
		}
		rb = fold_arena_alloc(&r->arena, sb->n + 1);
		memcpy(rb, sb->p, sb->n);
		root.s = rb;
		root.len = sb->n;
	}
	if (samples(r, offs[5], t) < 0)
		return -1;
	emit(r, t, s, root);
	return 0;
}

static int
libs(struct rd *r, size_t off)
{
	static const char *const names[] = { "name", "path", "debugName",
	    "debugPath", "breakpadId", "codeId" };
	struct fold_json *j = &r->j;
	struct fold_samply_lib *l;
	struct fold_str *f[6];
	size_t cap = 0, offs[6], i;
	int x;

	if (off == NOPOS)
		return bad(r, "no libs");
	fold_json_seek(j, off);
	if (fold_json_arr(j) < 0)
		return -1;
	while ((x = fold_json_next(j)) == 1) {
		fold_grow(&r->libs, &cap, r->nlibs + 1, sizeof(*r->libs));
		l = &r->libs[r->nlibs++];
		if (members(&r->t, fold_json_tell(j), names, 6, offs) < 0)
			return -1;
		f[0] = &l->name, f[1] = &l->path, f[2] = &l->debug_name;
		f[3] = &l->debug_path, f[4] = &l->breakpad_id;
		f[5] = &l->code_id;
		for (i = 0; i < 6; i++) {
			f[i]->s = "";
			f[i]->len = 0;
			if (offs[i] == NOPOS)
				continue;
			fold_json_seek(&r->t, offs[i]);
			if (fold_json_null(&r->t) == 1)
				continue;
			if (fold_json_str(&r->t, f[i]) < 0)
				return -1;
			*f[i] = keep(r, *f[i]);
		}
		if (fold_json_skip(j) < 0)
			return -1;
	}
	return x < 0 ? -1 : 0;
}

static int
meta(struct rd *r, size_t off)
{
	static const char *const names[] = { "preprocessedProfileVersion",
	    "version" };
	size_t offs[2];
	int64_t v;

	if (off == NOPOS)
		return bad(r, "not a Firefox Profiler profile: no meta");
	if (members(&r->j, off, names, 2, offs) < 0)
		return -1;
	if (offs[0] == NOPOS)
		return bad(r, "not a processed profile (no "
		    "meta.preprocessedProfileVersion): a Gecko profile is not "
		    "read");
	fold_json_seek(&r->j, offs[0]);
	if (fold_json_int(&r->j, &v) < 0)
		return -1;
	if (v > MAXVERSION)
		return bad(r, "format version %lld is newer than %d, the last "
		    "this reads", (long long)v, MAXVERSION);
	if (v < MINVERSION)
		return bad(r, "format version %lld is older than %d, the "
		    "first this reads", (long long)v, MINVERSION);
	r->version = (int)v;
	return 0;
}

/* The sidecar PATH.syms.json as samply looks for it (the last extension
 * replaced), then PATH.syms.json. */
static void
sidecar(struct rd *r, const char *path)
{
	const char *base, *dot;
	char *p;
	size_t n;
	unsigned char *d;
	const char *why;
	size_t off, line, col;
	int fd, mapped, k;
	struct fold_json tmp;

	if (path == NULL || (r->st->flags & FOLD_SAMPLY_NOSYMS))
		return;
	n = strlen(path);
	p = xmalloc(n + 16);
	for (k = 0; k < 2; k++) {
		memcpy(p, path, n + 1);
		base = strrchr(p, '/');
		base = base == NULL ? p : base + 1;
		dot = strrchr(base, '.');
		if (k == 0 && dot != NULL && dot != base)
			strcpy(p + (dot - p), ".syms.json");
		else
			strcpy(p + n, ".syms.json");
		if (access(p, F_OK) == 0)
			break;
	}
	if (k == 2) {
		free(p);
		return;
	}
	if ((fd = fold_open_arg(p, &base)) < 0) {
		free(p);
		return;
	}
	if ((d = fold_load(fd, p, &n, &mapped)) != NULL) {
		if (fold_samply_names_sidecar(r->names, d, n, &why, &off) < 0 &&
		    !(r->st->flags & FOLD_SAMPLY_QUIET)) {
			fold_json_init(&tmp, d, n);
			fold_json_where(&tmp, off, &line, &col);
			fold_warn("%s:%zu:%zu: %s (its names are not used)", p,
			    line, col, why);
		}
		fold_unload(d, n, mapped);
	}
	close(fd);
	free(p);
}

static int
profile(struct rd *r, const char *path)
{
	static const char *const top[] = { "meta", "libs", "shared",
	    "threads" };
	static const char *const sh[] = { "stackTable", "frameTable",
	    "funcTable", "resourceTable", "stringArray" };
	size_t offs[4], soffs[5];
	int x;

	if (members(&r->j, 0, top, 4, offs) < 0 || fold_json_end(&r->j) < 0)
		return -1;
	if (meta(r, offs[0]) < 0 || libs(r, offs[1]) < 0)
		return -1;
	r->names = fold_samply_names_new(r->st->symfs, r->st->flags);
	for (x = 0; (size_t)x < r->nlibs; x++)
		fold_samply_names_lib(r->names, &r->libs[x]);
	if (r->version >= 56) {
		if (offs[2] == NOPOS)
			return bad(r, "no shared");
		if (members(&r->j, offs[2], sh, 5, soffs) < 0)
			return -1;
		if (strings(r, soffs[4], &r->sh) < 0)
			return -1;
		if (r->version >= 60 && (tables(r, soffs, &r->sh) < 0 ||
		    check_names(r, &r->sh, &r->sh) < 0))
			return -1;
	}
	sidecar(r, path);
	if (offs[3] == NOPOS)
		return bad(r, "no threads");
	fold_json_seek(&r->j, offs[3]);
	if (fold_json_arr(&r->j) < 0)
		return -1;
	while ((x = fold_json_next(&r->j)) == 1) {
		if (thread(r, fold_json_tell(&r->j)) < 0)
			return -1;
		if (fold_json_skip(&r->j) < 0)
			return -1;
	}
	return x < 0 ? -1 : 0;
}

/* The error of r, reported. */
static void
report(struct rd *r)
{
	struct fold_json *js[] = { &r->j, &r->t, &r->s[0], &r->s[1], &r->s[2] };
	size_t i, line, col;

	if (r->bad) {
		fold_warn("%s: %s", r->name, r->err);
		return;
	}
	for (i = 0; i < 5; i++)
		if (js[i]->err != NULL) {
			fold_json_where(js[i], js[i]->off, &line, &col);
			fold_warn("%s:%zu:%zu: %s", r->name, line, col,
			    js[i]->err);
			return;
		}
	fold_warn("%s: damaged", r->name);
}

int
fold_samply_add(struct fold_samply *s, const char *name, const char *path,
    const unsigned char *data, size_t n)
{
	struct fold_samply_st *st = s->st;
	struct rd *r = xcalloc(1, sizeof(*r));
	unsigned char *infl = NULL;
	const char *why;
	size_t i, k, len;
	int ret = 0;

	r->st = st;
	r->name = name;
	st->npend = 0;
	if (n >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
		infl = fold_inflate_alloc(data, n, INFLATE_MAX,
		    FOLD_INFLATE_GZIP, &len, &why);
		if (infl == NULL) {
			fold_warn("%s: gzip: %s", name, why);
			s->status = 1;
			free(r);
			return -1;
		}
		data = infl;
		n = len;
	}
	if (n == 0) {
		fold_warn("%s: empty input (not a profile)", name);
		s->status = 1;
		free(infl);
		free(r);
		return -1;
	}
	r->text = data;
	r->len = n;
	fold_json_init(&r->j, data, n);
	fold_json_init(&r->t, data, n);
	for (i = 0; i < 3; i++)
		fold_json_init(&r->s[i], data, n);
	if (profile(r, path) < 0) {
		report(r);
		s->status = 1;
		ret = -1;
	} else {
		for (i = 0; i < st->npend; i++) {
			k = st->pend[i].id;
			fold_grow(&st->counts, &st->ccap, k + 1,
			    sizeof(*st->counts));
			if (fold_num_add(&st->counts[k], st->pend[i].n) < 0) {
				fold_warn("%s: the weights of a stack add up to "
				    "more than 2^64 - 1", name);
				s->status = 1;
				break;
			}
		}
		if (r->negative > 0 && !(st->flags & FOLD_SAMPLY_QUIET))
			fold_warn("%s: %llu samples of negative weight "
			    "skipped", name, (unsigned long long)r->negative);
	}
	st->npend = 0;
	fold_json_free(&r->j);
	fold_json_free(&r->t);
	for (i = 0; i < 3; i++)
		fold_json_free(&r->s[i]);
	tables_free(&r->sh);
	tables_free(&r->th);
	if (r->names != NULL)
		fold_samply_names_free(r->names);
	free(r->libs);
	fold_arena_free(&r->arena);
	free(r);
	free(infl);
	return ret;
}

void
fold_samply_run(struct fold_samply *s, int nfiles, char **files)
{
	static char *dash[] = { "-" };
	const char *name;
	unsigned char *d;
	size_t n;
	int i, fd, mapped;

	if (nfiles == 0) {
		nfiles = 1;
		files = dash;
	}
	for (i = 0; i < nfiles; i++) {
		if ((fd = fold_open_arg(files[i], &name)) < 0) {
			s->status = 1;
			continue;
		}
		if ((d = fold_load(fd, name, &n, &mapped)) != NULL) {
			fold_samply_add(s, name, fd == 0 ? NULL : name, d, n);
			fold_unload(d, n, mapped);
		} else
			s->status = 1;
		if (fd != 0)
			close(fd);
	}
}

void
fold_samply_print(struct fold_samply *s)
{
	struct fold_samply_st *st = s->st;
	struct sbuf *b = &st->buf;
	struct fold_intern lines;
	struct fold_str t;
	uint32_t *ids;
	size_t i, m = 0, ns = fold_intern_count(&st->stacks);
	char num[64];
	fold_num c;

	/* whole lines sorted, as sort(1) sorts them */
	fold_intern_init(&lines);
	for (i = 0; i < ns && i < st->ccap; i++) {
		c = st->counts[i];
		if (c.i == 0 && c.f == 0)
			continue;
		t = fold_intern_str(&st->stacks, (uint32_t)i);
		b->n = 0;
		put(b, t.s, t.len);
		put(b, " ", 1);
		if (st->frac)
			put(b, num, fold_fmt_double(num, fold_num_dbl(c)));
		else
			put(b, num, fold_fmt_u64(num, c.i));
		fold_intern(&lines, b->p, b->n, NULL);
		m++;
	}
	ids = xmalloc((m + 1) * sizeof(*ids));
	for (i = 0; i < m; i++)
		ids[i] = (uint32_t)i;
	fold_sort_names(ids, m, &lines);
	for (i = 0; i < m; i++) {
		t = fold_intern_str(&lines, ids[i]);
		fo_write(t.s, t.len);
		fo_putc('\n');
	}
	free(ids);
	fold_intern_free(&lines);
}

int
fold_samply_end(struct fold_samply *s)
{
	int status = s->status;

	fold_intern_free(&s->st->stacks);
	free(s->st->counts);
	free(s->st->pend);
	free(s->st->buf.p);
	free(s->st->fbuf.p);
	free(s->st->symfs);
	free(s->st);
	free(s);
	return status;
}
