/*
 * syms.c - a sorted symbol table with perf's rules: which of several
 * symbols at one address is kept, and where a symbol of size 0 ends.
 *
 * Symbols are added in the order of their source, sorted once by start
 * (ties keep that order, as perf's tree does), then:
 *  - a symbol of size 0 ends where the next one starts; the last, at the
 *    page after the one it starts in; in kallsyms a zero-size symbol before
 *    the first of a module (or the first after one) ends one page on;
 *  - of symbols at the same start, one is kept: sized over zero-sized, not
 *    weak over weak, global over not global, fewer leading underscores,
 *    longer name, else the one first in the source; the names compared
 *    are those perf holds, demangled where it demangles (see better()).
 * (These are perf's symbols__fixup_end and symbols__fixup_duplicate, in
 * that order.)
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "symbols/symbols.h"

#define STB_GLOBAL 1
#define STB_WEAK 2

struct fsym {
	uint64_t start, end;
	const char *name;
	const char *module;
	uint32_t idx;		/* order of addition */
	uint16_t type;
	uint8_t bind;
	uint8_t shared;		/* an earlier symbol also holds its start */
};

/*
 * Where symbols overlap (a symbol of size 0 extended over PLT entries
 * added after it, nested symbols, perf map entries at one address), which
 * one perf finds depends on the shape of its red-black tree: the first on
 * the path from the root that holds the address.  Then the tree is built
 * here as perf builds it (same insertions and erasures, in the same order,
 * with the classic algorithms Linux's rbtree implements) and searched the
 * same way.  Nodes are indexed by order of addition.
 */
#define NIL UINT32_MAX
struct tnode {
	uint64_t start;
	uint32_t l, r, p;
	uint32_t pos;		/* index in v, NIL once erased */
	uint8_t red;
	uint8_t late;		/* FOLD_SYM_LATE: inserted after the erasures */
};

/* a kallsyms line read lazily: its name is parsed when first looked up */
struct kent {
	uint64_t start;
	uint32_t name;		/* offset of the name in the buffer */
	uint32_t len;		/* to the end of the line, or KMOD and to the
				 * first tab (the module follows) */
};
#define KMOD 0x80000000u

/* the name and module of k[i], copied out of the buffer when first found
 * (the buffer is a private mapping: a byte written there would copy a page) */
struct kname {
	const char *name, *module;
};

/* A symbol perf erases as a duplicate: its index of addition and start. */
struct gone {
	uint64_t start;
	uint32_t idx;
};

struct fold_syms {
	struct kent *k;		/* lazy kallsyms (then v is unused) */
	const char *kbuf;
	struct fold_intern kid;	/* indexes i of k[] found so far (4 bytes) */
	int kidon;		/* kid initialized */
	struct kname *kn;	/* their names, by id in kid */
	size_t kncap;
	struct fold_arena kna;	/* the names' copies */
	struct fsym *v;
	size_t n, cap;
	void *own;
	uint64_t *starts;	/* v[i].start, searched */
	struct tnode *t;	/* perf's tree, NULL until first needed */
	uint32_t root;
	struct gone *g;		/* for the tree: the duplicates erased */
	size_t n0, ng;		/* symbols added, erased */
	int dmnames;		/* fold_syms_demangled() */
};

struct fold_syms *
fold_syms_new(void)
{
	return xcalloc(1, sizeof(struct fold_syms));
}

void
fold_syms_add(struct fold_syms *t, uint64_t start, uint64_t size,
    const char *name, const char *module, int bind, int type)
{
	struct fsym *s;

	if (t->n >= UINT32_MAX - 1)
		return;
	fold_grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	s = &t->v[t->n];
	s->start = start;
	s->end = start + size;
	if (s->end < start)	/* wrapped: up to the top */
		s->end = UINT64_MAX;
	s->name = name;
	s->module = module;
	s->idx = (uint32_t)t->n;
	s->type = (uint16_t)type;
	s->bind = (uint8_t)bind;
	t->n++;
}

/* Memory for n elements of size sz about to be written whole: resident at
 * once where that saves a page fault each (fold_prefault, as xcalloc()
 * does), zeroed if zero. */
static void *
resident(size_t n, size_t sz, int zero)
{
	void *p;

	if (zero || n == 0)
		return xcalloc(n, sz);
	if (n > ((size_t)-1) / sz)
		return xcalloc(n, sz);	/* which says out of memory */
	p = xmalloc(n * sz);
	if (n * sz >= 16384)
		fold_prefault(p, n * sz);
	return p;
}

/* ---- the red-black tree (CLRS, as Linux's lib/rbtree.c) ---- */

static void
rot_left(struct fold_syms *t, uint32_t x)
{
	struct tnode *n = t->t;
	uint32_t y = n[x].r;

	n[x].r = n[y].l;
	if (n[y].l != NIL)
		n[n[y].l].p = x;
	n[y].p = n[x].p;
	if (n[x].p == NIL)
		t->root = y;
	else if (n[n[x].p].l == x)
		n[n[x].p].l = y;
	else
		n[n[x].p].r = y;
	n[y].l = x;
	n[x].p = y;
}

static void
rot_right(struct fold_syms *t, uint32_t x)
{
	struct tnode *n = t->t;
	uint32_t y = n[x].l;

	n[x].l = n[y].r;
	if (n[y].r != NIL)
		n[n[y].r].p = x;
	n[y].p = n[x].p;
	if (n[x].p == NIL)
		t->root = y;
	else if (n[n[x].p].r == x)
		n[n[x].p].r = y;
	else
		n[n[x].p].l = y;
	n[y].r = x;
	n[x].p = y;
}

#define RED(x) ((x) != NIL && n[x].red)

/* perf's __symbols__insert: equal starts go right. */
static void
tree_insert(struct fold_syms *t, uint32_t z)
{
	struct tnode *n = t->t;
	uint32_t y = NIL, x = t->root, g, u;

	while (x != NIL) {
		y = x;
		x = n[z].start < n[x].start ? n[x].l : n[x].r;
	}
	n[z].p = y;
	n[z].l = n[z].r = NIL;
	n[z].red = 1;
	if (y == NIL)
		t->root = z;
	else if (n[z].start < n[y].start)
		n[y].l = z;
	else
		n[y].r = z;
	while (RED(n[z].p)) {
		y = n[z].p;
		g = n[y].p;
		if (y == n[g].l) {
			u = n[g].r;
			if (RED(u)) {
				n[y].red = n[u].red = 0;
				n[g].red = 1;
				z = g;
				continue;
			}
			if (z == n[y].r) {
				z = y;
				rot_left(t, z);
				y = n[z].p;
			}
			n[y].red = 0;
			n[g].red = 1;
			rot_right(t, g);
		} else {
			u = n[g].l;
			if (RED(u)) {
				n[y].red = n[u].red = 0;
				n[g].red = 1;
				z = g;
				continue;
			}
			if (z == n[y].l) {
				z = y;
				rot_right(t, z);
				y = n[z].p;
			}
			n[y].red = 0;
			n[g].red = 1;
			rot_left(t, g);
		}
	}
	n[t->root].red = 0;
}

static void
transplant(struct fold_syms *t, uint32_t u, uint32_t v)
{
	struct tnode *n = t->t;

	if (n[u].p == NIL)
		t->root = v;
	else if (u == n[n[u].p].l)
		n[n[u].p].l = v;
	else
		n[n[u].p].r = v;
	if (v != NIL)
		n[v].p = n[u].p;
}

/* Linux's rb_erase: the successor takes the place and color of z. */
static void
tree_erase(struct fold_syms *t, uint32_t z)
{
	struct tnode *n = t->t;
	uint32_t x, xp, y, w;
	int black;

	if (n[z].l == NIL || n[z].r == NIL) {
		x = n[z].l == NIL ? n[z].r : n[z].l;
		xp = n[z].p;
		black = !n[z].red;
		transplant(t, z, x);
	} else {
		y = n[z].r;
		while (n[y].l != NIL)
			y = n[y].l;
		black = !n[y].red;
		x = n[y].r;
		if (n[y].p == z)
			xp = y;
		else {
			xp = n[y].p;
			transplant(t, y, x);
			n[y].r = n[z].r;
			n[n[y].r].p = y;
		}
		transplant(t, z, y);
		n[y].l = n[z].l;
		n[n[y].l].p = y;
		n[y].red = n[z].red;
	}
	if (!black)
		return;
	while (x != t->root && !RED(x)) {
		if (x == n[xp].l) {
			w = n[xp].r;
			if (RED(w)) {
				n[w].red = 0;
				n[xp].red = 1;
				rot_left(t, xp);
				w = n[xp].r;
			}
			if (!RED(n[w].l) && !RED(n[w].r)) {
				n[w].red = 1;
				x = xp;
				xp = n[x].p;
				continue;
			}
			if (!RED(n[w].r)) {
				n[n[w].l].red = 0;
				n[w].red = 1;
				rot_right(t, w);
				w = n[xp].r;
			}
			n[w].red = n[xp].red;
			n[xp].red = 0;
			if (n[w].r != NIL)
				n[n[w].r].red = 0;
			rot_left(t, xp);
			x = t->root;
		} else {
			w = n[xp].l;
			if (RED(w)) {
				n[w].red = 0;
				n[xp].red = 1;
				rot_right(t, xp);
				w = n[xp].l;
			}
			if (!RED(n[w].r) && !RED(n[w].l)) {
				n[w].red = 1;
				x = xp;
				xp = n[x].p;
				continue;
			}
			if (!RED(n[w].l)) {
				n[n[w].r].red = 0;
				n[w].red = 1;
				rot_left(t, w);
				w = n[xp].l;
			}
			n[w].red = n[xp].red;
			n[xp].red = 0;
			if (n[w].l != NIL)
				n[n[w].l].red = 0;
			rot_right(t, xp);
			x = t->root;
		}
	}
	if (x != NIL)
		n[x].red = 0;
}

void
fold_syms_reserve(struct fold_syms *t, size_t n)
{
	if (n >= UINT32_MAX || n <= t->cap ||
	    n > ((size_t)-1) / sizeof(*t->v))
		return;		/* (fold_grow() says out of memory) */
	t->v = xrealloc(t->v, n * sizeof(*t->v));	/* each filled by add */
	if (n - t->cap >= 16384 / sizeof(*t->v))
		fold_prefault(t->v + t->cap, (n - t->cap) * sizeof(*t->v));
	t->cap = n;
}

static int
cmp_start(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * v sorted by start, ties in the order of addition (v[i].idx == i on
 * entry): an LSD radix sort of keys by bytes, stable, passes over the bytes
 * all keys share skipped; then v permuted in place, cycle by cycle.  A key
 * is start << b | i in one word where the starts leave b bits for the index
 * (file offsets do), else a start and an index.
 */
struct skey {
	uint64_t start;
	uint32_t i;
};

/* LSD radix sort of the n elements of a (size sz, a key word at offset 0),
 * buffer b; returns which of the two holds the sorted run. */
static void *
radix(void *a, void *b, size_t n, size_t sz)
{
	size_t (*cnt)[256] = xcalloc(8, sizeof(*cnt)), i, sum, c;
	unsigned char *x = a, *y = b, *t;
	uint64_t k;
	unsigned d;

	for (i = 0; i < n; i++) {
		memcpy(&k, x + i * sz, sizeof(k));
		for (d = 0; d < 8; d++)
			cnt[d][(k >> (8 * d)) & 0xff]++;
	}
	memcpy(&k, x, sizeof(k));
	for (d = 0; d < 8; d++) {
		if (cnt[d][(k >> (8 * d)) & 0xff] == n)
			continue;	/* one value of this byte: order kept */
		for (i = 0, sum = 0; i < 256; i++) {
			c = cnt[d][i];
			cnt[d][i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			memcpy(&k, x + i * sz, sizeof(k));
			memcpy(y + cnt[d][(k >> (8 * d)) & 0xff]++ * sz,
			    x + i * sz, sz);
		}
		t = x;
		x = y;
		y = t;
	}
	free(cnt);
	return x;
}

static void
sort_starts(struct fsym *v, size_t n)
{
	uint32_t *to = resident(n, sizeof(*to), 0), j, s;
	uint64_t max = 0, *w;
	struct skey *a;
	struct fsym tmp;
	unsigned b = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].start > max)
			max = v[i].start;
	while (b < 32 && ((size_t)1 << b) < n)
		b++;
	if (max < (UINT64_C(1) << (64 - b))) {
		uint64_t *k = resident(n, sizeof(*k), 0),
		    *k2 = resident(n, sizeof(*k2), 0);

		for (i = 0; i < n; i++)
			k[i] = v[i].start << b | i;
		w = radix(k, k2, n, sizeof(*k));
		for (i = 0; i < n; i++)
			to[i] = (uint32_t)(w[i] & (((uint64_t)1 << b) - 1));
		free(k);
		free(k2);
	} else {
		struct skey *k = resident(n, sizeof(*k), 0),
		    *k2 = resident(n, sizeof(*k2), 0);

		for (i = 0; i < n; i++) {
			k[i].start = v[i].start;
			k[i].i = (uint32_t)i;
		}
		a = radix(k, k2, n, sizeof(*k));
		for (i = 0; i < n; i++)
			to[i] = a[i].i;
		free(k);
		free(k2);
	}
	/* v[i] becomes v[to[i]]: each cycle of the permutation in turn, a
	 * done place marked to[i] == i */
	for (i = 0; i < n; i++) {
		if (to[i] == i)
			continue;
		tmp = v[i];
		for (j = (uint32_t)i;; j = s) {
			s = to[j];
			to[j] = j;
			if (s == i) {
				v[j] = tmp;
				break;
			}
			v[j] = v[s];
		}
	}
	free(to);
}

static size_t
underscores(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && s[n] == '_')
		n++;
	return n;
}

/* Room for a name as perf holds it (fold_demangle_perf()). */
#define HELD_MAX (FOLD_DM_MAXOUT + 4)

/* The name perf compares for s: as it is, or, with a buffer (the table
 * chooses by demangled names), demangled as perf demangles it at load. */
static const char *
held(const struct fsym *s, char *buf, size_t *len)
{
	size_t n = strlen(s->name), k;

	if (buf != NULL && (k = fold_demangle_perf(s->name, n, buf,
	    HELD_MAX)) > 0) {
		*len = k;
		return buf;
	}
	*len = n;
	return s->name;
}

/*
 * perf 6.1's choose_best_symbol() (tools/perf/util/symbol.c), called by
 * symbols__fixup_duplicate() on neighbours of one start in its tree: 1 to
 * keep a, 0 to keep b.  In order: a sized symbol over one of size 0; not
 * STB_WEAK over STB_WEAK; STB_GLOBAL over the others; fewer leading '_';
 * the longer name; else arch__choose_best_symbol(), which keeps a except
 * that x86 and the default shun the kernel's "SyS"/"compat_SyS" aliases.
 * The names are sym->name as dso__load_sym() made them: demangled by
 * demangle_sym() (symbol-elf.c) before the symbol is inserted when perf
 * demangles (perf script's default, not with --no-demangle), so then
 * "<usize as core::fmt::Display>::fmt" wins over the "<u64 as ...>" alias
 * Rust merged into it, while their mangled names tie and the first stays.
 * bufa, bufb (HELD_MAX bytes each, or NULL: names as added) hold them.
 */
static int
better(const struct fsym *a, const struct fsym *b, char *bufa, char *bufb)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *sa, *sb;
	size_t na, nb, ua, ub;

	if (lb == 0 && la > 0)
		return 1;
	if (la == 0 && lb > 0)
		return 0;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	sa = held(a, bufa, &na);
	sb = held(b, bufb, &nb);
	ua = underscores(sa, na);
	ub = underscores(sb, nb);
	if (ua != ub)
		return ua < ub;
	if (na != nb)
		return na > nb;
	if ((na >= 3 && strncmp(sa, "SyS", 3) == 0) ||
	    (na >= 10 && strncmp(sa, "compat_SyS", 10) == 0))
		return 0;
	return 1;
}

void
fold_syms_demangled(struct fold_syms *t)
{
	t->dmnames = 1;
}

static uint64_t
roundup4k(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

void
fold_syms_own(struct fold_syms *t, void *p)
{
	free(t->own);
	t->own = p;
}

/* perf's tree for t's symbols (n0 added: those kept in t->v, the others in
 * g[0..ng), in the order perf erases them at the same start). */
static void
build_tree(struct fold_syms *t, size_t n0, const struct gone *g, size_t ng)
{
	struct tnode *n = resident(n0, sizeof(*n), 1);
	size_t i;

	t->t = n;
	t->root = NIL;
	for (i = 0; i < t->n; i++) {
		n[t->v[i].idx].start = t->v[i].start;
		n[t->v[i].idx].pos = (uint32_t)i;
		n[t->v[i].idx].late = (t->v[i].type & FOLD_SYM_LATE) != 0;
	}
	for (i = 0; i < ng; i++) {	/* never late (see fold_syms_done) */
		n[g[i].idx].start = g[i].start;
		n[g[i].idx].pos = NIL;
	}
	for (i = 0; i < n0; i++)
		if (!n[i].late)
			tree_insert(t, (uint32_t)i);
	for (i = 0; i < ng; i++)
		tree_erase(t, g[i].idx);
	for (i = 0; i < n0; i++)
		if (n[i].late)
			tree_insert(t, (uint32_t)i);
}

void
fold_syms_done(struct fold_syms *t, int kind)
{
	struct fsym *v = t->v, *p, *c;
	size_t i, j, n = t->n, n0 = t->n, ng = 0, gcap = 0;
	uint64_t max;
	struct gone *g = NULL;
	int kallsyms = kind == FOLD_SYMS_KALLSYMS, overlap = 0;
	char *dm = NULL;	/* two names as perf holds them demangled */

	for (i = 1; i < n; i++)	/* often sorted already (kallsyms) */
		if (cmp_start(&v[i - 1], &v[i]) > 0)
			break;
	if (i < n)
		sort_starts(v, n);
	if (kind != FOLD_SYMS_PERFMAP) {
		/* symbols__fixup_end, over all but the late ones */
		for (i = 0, j = SIZE_MAX; i < n; i++) {
			c = &v[i];
			if (c->type & FOLD_SYM_LATE)
				continue;
			p = j != SIZE_MAX ? &v[j] : NULL;
			if (p != NULL && p->end == p->start) {
				if (kallsyms &&
				    (p->module == NULL) != (c->module == NULL))
					p->end = roundup4k(p->end + 4096);
				else
					p->end = c->start;
			}
			j = i;
		}
		if (j != SIZE_MAX && v[j].end == v[j].start)
			v[j].end = roundup4k(v[j].start) + 4096;
		/* symbols__fixup_duplicate (late ones come after the others
		 * of their start, and are kept) */
		for (i = 0, j = 0; i < n; i++) {
			if (j > 0 && v[j - 1].start == v[i].start &&
			    !((v[i].type | v[j - 1].type) & FOLD_SYM_LATE)) {
				fold_grow(&g, &gcap, ng + 1, sizeof(*g));
				g[ng].start = v[i].start;
				if (t->dmnames && dm == NULL)
					dm = xmalloc(2 * HELD_MAX);
				if (better(&v[j - 1], &v[i], dm,
				    dm != NULL ? dm + HELD_MAX : NULL))
					g[ng++].idx = v[i].idx;
				else {
					g[ng++].idx = v[j - 1].idx;
					v[j - 1] = v[i];
				}
				continue;
			}
			v[j++] = v[i];
		}
		t->n = n = j;
		free(dm);
	}
	t->starts = resident(n ? n : 1, sizeof(*t->starts), 0);
	for (i = 0, max = 0; i < n; i++) {
		t->starts[i] = v[i].start;
		v[i].shared = i > 0 && (v[i].start < max ||
		    v[i].start == v[i - 1].start);
		overlap |= v[i].shared;
		if (v[i].end > max)
			max = v[i].end;
	}
	if (overlap) {	/* the tree when a lookup lands where it decides */
		t->g = g;
		t->n0 = n0;
		t->ng = ng;
	} else
		free(g);
}

static const char *lazy_find(const struct fold_syms *t, uint64_t addr,
    uint64_t *start, const char **module, int *inner);

const char *
fold_syms_find(const struct fold_syms *t, uint64_t addr, uint64_t *start,
    const char **module)
{
	const struct fsym *v = t->v, *f = NULL;
	const struct tnode *n = t->t;
	const uint64_t *st = t->starts;
	size_t lo = 0, hi = t->n, mid;
	uint32_t x;

	if (t->k != NULL)
		return lazy_find(t, addr, start, module, NULL);
	if (module != NULL)
		*module = NULL;
	while (lo < hi) {	/* the last with start <= addr */
		mid = lo + (hi - lo) / 2;
		if (st[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	f = &v[lo - 1];
	/* where no other symbol holds f's start, f alone decides; else the
	 * answer is the one perf's tree gives (built the first time: a table
	 * is built in the lookup's thread, see fold.h) */
	if (f->shared) {
		if (n == NULL) {
			build_tree((struct fold_syms *)t, t->n0, t->g, t->ng);
			n = t->t;
		}
		for (x = t->root; x != NIL;) {
			f = &v[n[x].pos];
			if (addr < f->start)
				x = n[x].l;
			else if (addr > f->end ||
			    (addr == f->end && addr != f->start))
				x = n[x].r;
			else
				break;
		}
		if (x == NIL)
			return NULL;
	} else if (addr >= f->end && addr != f->start)
		return NULL;
	if (start != NULL)
		*start = f->start;
	if (module != NULL)
		*module = f->module;
	return f->name;
}

int
fold_syms_inner(const struct fold_syms *t, uint64_t addr)
{
	const uint64_t *st = t->starts;
	size_t lo = 0, hi = t->n, mid;
	int inner = 0;

	if (t->k != NULL) {
		lazy_find(t, addr, NULL, NULL, &inner);
		return inner;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && lo < t->n && !t->v[lo - 1].shared &&
	    t->v[lo - 1].module == NULL && t->v[lo].module == NULL &&
	    addr < t->v[lo - 1].end;
}

/* ---- kallsyms, read lazily ----
 *
 * A kallsyms table of the usual shape is not built whole: one pass keeps the
 * start and the line of each symbol of a type perf keeps, sorted by start
 * (usually already: only runs out of order are sorted), and a lookup applies
 * perf's rules to the symbols at the start it finds, as fold_syms_done()
 * would have.  Every symbol has size 0, so: a symbol ends where the next
 * starts, or one page on where the module changes, or (the last) at the page
 * after its own; of those at one start, better() picks, with those ends.  A
 * kept symbol can overlap the next one only at a change of module (one page
 * on); where that happens the whole table is built (then perf's tree
 * decides).
 */

static uint64_t
kend(const struct fold_syms *t, size_t i)
{
	const struct kent *k = t->k;

	if (i + 1 == t->n)
		return roundup4k(k[i].start) + 4096;
	if ((k[i].len & KMOD) != (k[i + 1].len & KMOD))
		return roundup4k(k[i].start + 4096);
	return k[i + 1].start;
}

/* A copy of the n bytes at p, NUL-terminated, in t's arena. */
static const char *
kcopy(struct fold_syms *t, const char *p, size_t n)
{
	char *c = fold_arena_alloc(&t->kna, n + 1);

	memcpy(c, p, n);
	c[n] = '\0';
	return c;
}

/* The names of k[i]: from the memo, else copied and kept (the name ends at
 * the first tab, the module at the end of the line; either sooner at a NUL
 * byte, as in the table built whole). */
static const struct kname *
kname(struct fold_syms *t, size_t i)
{
	const struct kent *e = &t->k[i];
	const char *name = t->kbuf + e->name, *m;
	uint32_t key = (uint32_t)i, id;
	struct kname *kn;
	size_t j;
	int isnew;

	if (!t->kidon) {
		fold_intern_init(&t->kid);
		t->kidon = 1;
	}
	id = fold_intern(&t->kid, (const char *)&key, sizeof(key), &isnew);
	if (!isnew)
		return &t->kn[id];
	fold_grow(&t->kn, &t->kncap, (size_t)id + 1, sizeof(*t->kn));
	kn = &t->kn[id];
	kn->name = kcopy(t, name, strnlen(name, e->len & ~KMOD));
	kn->module = NULL;
	if (e->len & KMOD) {
		m = name + (e->len & ~KMOD) + 1;
		for (j = 0; m[j] != '\0' && m[j] != '\n'; j++)
			;
		kn->module = kcopy(t, m, j);
	}
	return kn;
}

/* k[i] as a symbol, as the whole table would have it.  A lookup keeps the
 * names it finds: t changes (see fold.h). */
static void
kfill(const struct fold_syms *t, size_t i, struct fsym *f)
{
	const struct kname *kn = kname((struct fold_syms *)t, i);
	int type = (unsigned char)t->kbuf[t->k[i].name - 2];

	f->name = kn->name;
	f->module = kn->module;
	f->start = t->k[i].start;
	f->end = kend(t, i);
	f->bind = type == 'W' ? STB_WEAK : (type >= 'A' && type <= 'Z') ?
	    STB_GLOBAL : 0;
}

static const char *
lazy_find(const struct fold_syms *t, uint64_t addr, uint64_t *start,
    const char **module, int *inner)
{
	const struct kent *k = t->k;
	size_t lo = 0, hi = t->n, mid, g;
	struct fsym f, c;

	if (module != NULL)
		*module = NULL;
	while (lo < hi) {	/* the last with start <= addr */
		mid = lo + (hi - lo) / 2;
		if (k[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	for (g = lo - 1; g > 0 && k[g - 1].start == k[lo - 1].start; g--)
		;
	kfill(t, g, &f);
	for (g++; g < lo; g++) {	/* symbols__fixup_duplicate */
		kfill(t, g, &c);
		if (!better(&f, &c, NULL, NULL))
			f = c;
	}
	if (addr >= f.end && addr != f.start)
		return NULL;
	if (inner != NULL) {	/* all of the kernel proper, up to the next */
		for (g = lo; g > 0 && k[g - 1].start == f.start; g--)
			if (k[g - 1].len & KMOD)
				break;
		*inner = (g == 0 || k[g - 1].start != f.start) &&
		    lo < t->n && !(k[lo].len & KMOD) && addr < f.end;
	}
	if (start != NULL)
		*start = f.start;
	if (module != NULL)
		*module = f.module;
	return f.name;
}

static int
cmp_kent(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;	/* file order */
}

/* a hex digit's value plus 1, 0 for other bytes */
static const unsigned char hexd[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * Eight hex digits at once (a word loaded little-endian: byte i is digit i,
 * the most significant first): 1 and *v their value if all are hex digits.
 * Per byte, for bytes under 0x80: a digit is strictly between 0x2f and
 * 0x3a, a letter (with 0x20 set) between 0x60 and 0x67; its value is the low
 * nibble, plus 9 for letters (bit 6).
 */
#define B8(c) (0x0101010101010101ULL * (c))
#define BETWEEN(x, m, n) (((B8(127 + (n)) - ((x) & B8(127))) & ~(x) & \
    (((x) & B8(127)) + B8(127 - (m)))) & B8(128))
static inline int
hex8(uint64_t x, uint32_t *v)
{
	uint64_t l = x | B8(0x20);

	if ((x & B8(128)) != 0 ||
	    (BETWEEN(x, 0x2f, 0x3a) | BETWEEN(l, 0x60, 0x67)) != B8(128))
		return 0;
	x = (x & B8(0x0f)) + ((x >> 6) & B8(1)) * 9;
	x = ((x & 0x000f000f000f000fULL) << 4) | ((x >> 8) & 0x000f000f000f000fULL);
	x = ((x & 0x000000ff000000ffULL) << 8) | ((x >> 16) & 0x000000ff000000ffULL);
	x = ((x & 0x000000000000ffffULL) << 16) | ((x >> 32) & 0xffffULL);
	*v = (uint32_t)x;
	return 1;
}

static inline uint64_t
load_le(const char *p)
{
	const unsigned char *q = (const unsigned char *)p;

	return (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 |
	    (uint64_t)q[3] << 24 | (uint64_t)q[4] << 32 |
	    (uint64_t)q[5] << 40 | (uint64_t)q[6] << 48 | (uint64_t)q[7] << 56;
}

struct fold_syms *
fold_syms_kallsyms_lazy(char *c, size_t n)
{
	struct fold_syms *t;
	struct kent *k = NULL, *m;
	size_t cap = 0, nk = 0, i, j, sorted = 0, a, b;
	char *p = c, *end = c + n, *nl, *name, *tab;
	uint64_t addr, e;
	uint32_t hi, lo;
	unsigned d;
	int ut, any;

	if (n >= KMOD)
		return NULL;
	if (c[n] != '\0')
		c[n] = '\0';
	cap = n / 40 + 16;
	k = xmalloc(cap * sizeof(*k));
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		addr = 0;
		any = 0;
		/* the usual line: 16 digits and a space */
		if (end - p > 16 && hexd[(unsigned char)p[16]] == 0 &&
		    hex8(load_le(p), &hi) && hex8(load_le(p + 8), &lo)) {
			addr = (uint64_t)hi << 32 | lo;
			p += 16;
			any = 1;
		}
		for (; (d = hexd[(unsigned char)*p]) != 0; p++) {
			addr = addr << 4 | (d - 1);
			any = 1;
		}
		if (!any || *p != ' ' || p + 2 >= nl || p[2] != ' ')
			continue;
		ut = p[1] & ~0x20;
		name = p + 3;
		if ((ut != 'T' && ut != 'W' && ut != 'D' && ut != 'B') ||
		    !((p[1] >= 'A' && p[1] <= 'Z') ||
		    (p[1] >= 'a' && p[1] <= 'z')) || name[0] == '$')
			continue;
		if (nk == cap) {
			if (cap > SIZE_MAX / 2 / sizeof(*k))
				fold_die(1, "out of memory");
			cap *= 2;
			k = xrealloc(k, cap * sizeof(*k));
		}
		k[nk].start = addr;
		k[nk].name = (uint32_t)(name - c);
		if ((tab = memchr(name, '\t', (size_t)(nl - name))) != NULL)
			k[nk].len = (uint32_t)(tab - name) | KMOD;
		else
			k[nk].len = (uint32_t)(nl - name);
		if (sorted == nk && (nk == 0 || k[nk - 1].start <= addr))
			sorted++;
		nk++;
	}
	if (sorted < nk) {	/* sort the rest, merge with the sorted run */
		qsort(k + sorted, nk - sorted, sizeof(*k), cmp_kent);
		m = xmalloc(nk * sizeof(*m));
		for (a = 0, b = sorted, j = 0; j < nk; j++)
			m[j] = b >= nk || (a < sorted && cmp_kent(&k[a], &k[b]) <= 0) ?
			    k[a++] : k[b++];
		free(k);
		k = m;
	}
	/* a symbol one page long where the module changes may overlap the
	 * next start: then perf's tree decides, build the whole table */
	for (i = 0; i + 1 < nk; i++) {
		if ((k[i].len & KMOD) == (k[i + 1].len & KMOD))
			continue;
		e = roundup4k(k[i].start + 4096);
		for (j = i + 1; j < nk && k[j].start == k[i].start; j++)
			;
		if (j < nk && k[j].start < e) {
			free(k);
			return NULL;
		}
	}
	t = fold_syms_new();
	t->k = k;
	t->n = nk;
	t->kbuf = c;
	return t;
}

size_t
fold_syms_count(const struct fold_syms *t)
{
	return t->n;
}

void
fold_syms_free(struct fold_syms *t)
{
	if (t == NULL)
		return;
	free(t->k);
	free(t->v);
	free(t->starts);
	free(t->t);
	free(t->g);
	if (t->kidon)
		fold_intern_free(&t->kid);
	free(t->kn);
	fold_arena_free(&t->kna);
	free(t->own);
	free(t);
}
