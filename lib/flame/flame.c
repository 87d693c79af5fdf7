/*
 * flame.c - flame graphs: samples merged into a tree frame by frame, laid
 * out with flamegraph.pl's geometry and colours, written as SVG.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fold.h"
#include "flame/flame.h"

#define NONE UINT32_MAX

/* ---- colours ------------------------------------------------------------ */

static const char *const palnames[] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "rust",
	"python", "red", "green", "blue", "aqua", "yellow", "purple", "orange",
};

int
fold_palette_parse(const char *s)
{
	size_t k;

	for (k = 0; k < sizeof(palnames) / sizeof(*palnames); k++)
		if (strcmp(s, palnames[k]) == 0)
			return (int)k;
	return -1;
}

/* The 48-bit generator of drand48 (a = 0x5DEECE66D, c = 0xB). */
static double
lcg_next(uint64_t *x)
{
	*x = (*x * 0x5DEECE66DULL + 0xB) & 0xFFFFFFFFFFFFULL;
	return (double)*x / 281474976710656.0;
}

double
fold_drand48_first(uint32_t seed)
{
	uint64_t x = ((uint64_t)seed << 16) | 0x330E;

	return lcg_next(&x);
}

/* Code points of a name, in order (reversed: from the end). */
static size_t
codepoints(const char *name, size_t len, uint32_t *out, size_t max,
    int reversed)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t i = 0, n = 0, l;
	uint32_t cp;
	int bad;

	if (!reversed) {
		while (i < len && n < max) {
			i += fold_utf8_char(s + i, len - i, &cp, &bad);
			out[n++] = cp;
		}
		return n;
	}
	/* From the end: step back over continuation bytes, then check the
	 * sequence decodes to exactly that length. */
	i = len;
	while (i > 0 && n < max) {
		size_t st = i - 1, back = 0;

		while (st > 0 && back < 3 && (s[st] & 0xc0) == 0x80) {
			st--;
			back++;
		}
		l = fold_utf8_char(s + st, i - st, &cp, &bad);
		if (bad || st + l != i) {
			st = i - 1;
			fold_utf8_char(s + st, 1, &cp, &bad);
		}
		out[n++] = cp;
		i = st;
	}
	return n;
}

double
fold_namehash(const char *name, size_t len, int reversed)
{
	uint32_t cps[64];
	size_t n, k, start = 0;
	double vector = 0, weight = 1, max = 1;
	unsigned mod = 10;

	/* s/.(.*?)`// : drop up to the first backtick after the first
	 * character.  Only the first characters matter, so look at a few. */
	n = codepoints(name, len, cps, 64, reversed);
	for (k = 1; k < n; k++)
		if (cps[k] == '`') {
			start = k + 1;
			break;
		}
	if (start == 0 && n == 64) {
		/* A backtick may lie further: take the slow path. */
		size_t total = fold_xml_chars(name, len, 0);
		uint32_t *all = xmalloc((total + 1) * sizeof(*all));

		total = codepoints(name, len, all, total + 1, reversed);
		for (k = 1; k < total; k++)
			if (all[k] == '`') {
				n = total - (k + 1) < 3 ? total - (k + 1) : 3;
				memcpy(cps, all + k + 1, n * sizeof(*cps));
				break;
			}
		free(all);
	}
	for (k = start; k < n; k++) {
		unsigned i = cps[k] % mod;

		vector += ((double)i / (double)(mod - 1)) * weight;
		mod++;
		max += 1 * weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static int
endswith(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && memcmp(s + len - n, suf, n) == 0;
}

static int
startswith(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && memcmp(s, pre, n) == 0;
}

static int
contains(const char *s, size_t len, const char *sub)
{
	size_t n = strlen(sub), k;

	for (k = 0; k + n <= len; k++)
		if (memcmp(s + k, sub, n) == 0)
			return 1;
	return 0;
}

/* java: ^L?(java|javax|jdk|net|org|com|io|sun)/ */
static int
javaname(const char *s, size_t len)
{
	static const char *const pre[] = {
		"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/"
	};
	size_t k;

	if (len > 0 && s[0] == 'L') {
		s++;
		len--;
	}
	for (k = 0; k < sizeof(pre) / sizeof(*pre); k++)
		if (startswith(s, len, pre[k]))
			return 1;
	return 0;
}

/* js: /.*\.js  ("/" and later ".js") */
static int
jspath(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	return slash != NULL && contains(slash, len - (size_t)(slash - s), ".js");
}

/* The single-colour palette a rule palette picks for a name. */
static int
rule(int pal, const char *s, size_t len)
{
	switch (pal) {
	case FOLD_PAL_JAVA:
		if (endswith(s, len, "_[j]"))
			return FOLD_PAL_GREEN;
		if (endswith(s, len, "_[i]"))
			return FOLD_PAL_AQUA;
		if (javaname(s, len) || contains(s, len, ":::"))
			return FOLD_PAL_GREEN;
		if (contains(s, len, "::"))
			return FOLD_PAL_YELLOW;
		if (endswith(s, len, "_[k]"))
			return FOLD_PAL_ORANGE;
		return FOLD_PAL_RED;
	case FOLD_PAL_PERL:
		if (contains(s, len, "::"))
			return FOLD_PAL_YELLOW;
		if (contains(s, len, "Perl") || contains(s, len, ".pl"))
			return FOLD_PAL_GREEN;
		if (endswith(s, len, "_[k]"))
			return FOLD_PAL_ORANGE;
		return FOLD_PAL_RED;
	case FOLD_PAL_JS:
		if (endswith(s, len, "_[j]"))
			return memchr(s, '/', len) ? FOLD_PAL_GREEN : FOLD_PAL_AQUA;
		if (contains(s, len, "::"))
			return FOLD_PAL_YELLOW;
		if (jspath(s, len))
			return FOLD_PAL_GREEN;
		if (memchr(s, ':', len))
			return FOLD_PAL_AQUA;
		if (len == 1 && s[0] == ' ')
			return FOLD_PAL_GREEN;
		if (contains(s, len, "_[k]"))
			return FOLD_PAL_ORANGE;
		return FOLD_PAL_RED;
	case FOLD_PAL_WAKEUP:
		return FOLD_PAL_AQUA;
	case FOLD_PAL_CHAIN:
		return contains(s, len, "_[w]") ? FOLD_PAL_AQUA : FOLD_PAL_BLUE;
	case FOLD_PAL_RUST:
		/* Ours: kernel orange, the standard library yellow, crate code
		 * (paths with ::) green, the rest (C, libc, runtime) red. */
		if (endswith(s, len, "_[k]"))
			return FOLD_PAL_ORANGE;
		if (len > 0 && s[0] == '<') {
			s++;
			len--;
		}
		if (startswith(s, len, "std::") || startswith(s, len, "core::") ||
		    startswith(s, len, "alloc::"))
			return FOLD_PAL_YELLOW;
		if (contains(s, len, "::"))
			return FOLD_PAL_GREEN;
		return FOLD_PAL_RED;
	case FOLD_PAL_PYTHON:
		/* Ours: kernel orange, Python code ("fn (file.py:N)", "file.py")
		 * green, the interpreter (_Py*, Py*) yellow, the rest red. */
		if (endswith(s, len, "_[k]"))
			return FOLD_PAL_ORANGE;
		if (contains(s, len, ".py"))
			return FOLD_PAL_GREEN;
		if (startswith(s, len, "_Py") || startswith(s, len, "Py"))
			return FOLD_PAL_YELLOW;
		return FOLD_PAL_RED;
	}
	return pal;
}

#define RGB(r, g, b) ((uint32_t)(r) << 16 | (uint32_t)(g) << 8 | (uint32_t)(b))

uint32_t
fold_flame_color(int pal, int mode, const char *name, size_t len,
    uint64_t *rs)
{
	double v1, v2, v3;
	int r, g, b;

	if (mode == FOLD_COLOR_HASH) {
		v1 = fold_namehash(name, len, 0);
		v2 = v3 = fold_namehash(name, len, 1);
	} else if (mode == FOLD_COLOR_RANDOM) {
		v1 = lcg_next(rs);
		v2 = lcg_next(rs);
		v3 = lcg_next(rs);
	} else {
		const unsigned char *s = (const unsigned char *)name;
		uint32_t sum = 0, cp;
		size_t i = 0;
		int bad;

		while (i < len) {
			i += fold_utf8_char(s + i, len - i, &cp, &bad);
			sum += cp;
		}
		v1 = v2 = v3 = fold_drand48_first(sum);
	}
	switch (rule(pal, name, len)) {
	case FOLD_PAL_HOT:
		r = 205 + (int)(50 * v3);
		g = (int)(230 * v1);
		b = (int)(55 * v2);
		break;
	case FOLD_PAL_MEM:
		r = 0;
		g = 190 + (int)(50 * v2);
		b = (int)(210 * v1);
		break;
	case FOLD_PAL_IO:
		r = g = 80 + (int)(60 * v1);
		b = 190 + (int)(55 * v2);
		break;
	case FOLD_PAL_RED:
		r = 200 + (int)(55 * v1);
		g = b = 50 + (int)(80 * v1);
		break;
	case FOLD_PAL_GREEN:
		r = b = 50 + (int)(60 * v1);
		g = 200 + (int)(55 * v1);
		break;
	case FOLD_PAL_BLUE:
		r = g = 80 + (int)(60 * v1);
		b = 205 + (int)(50 * v1);
		break;
	case FOLD_PAL_YELLOW:
		r = g = 175 + (int)(55 * v1);
		b = 50 + (int)(20 * v1);
		break;
	case FOLD_PAL_PURPLE:
		r = b = 190 + (int)(65 * v1);
		g = 80 + (int)(60 * v1);
		break;
	case FOLD_PAL_AQUA:
		r = 50 + (int)(60 * v1);
		g = b = 165 + (int)(55 * v1);
		break;
	case FOLD_PAL_ORANGE:
		r = 190 + (int)(65 * v1);
		g = 90 + (int)(65 * v1);
		b = 0;
		break;
	default:
		r = g = b = 0;
	}
	return RGB(r, g, b);
}

/* ---- the tree ----------------------------------------------------------- */

struct node {
	uint32_t parent, name;	/* name: frame id, NONE for the root */
	uint32_t child, next;	/* children list, built before layout */
	fold_num self;		/* samples of stacks ending here */
	fold_num total;		/* self + children, computed */
	double delta;		/* NEW - OLD of stacks ending here */
	double start;		/* flamechart: time of creation; then x */
	uint32_t depth;
	int drawn;
};

struct fold_flame {
	struct fold_flame_opts o;
	struct fold_intern names;
	struct fold_stackids sids;	/* flamechart: frame ids */
	struct fold_stackset ss;	/* else: the distinct stacks */
	struct node *nodes;
	size_t nnodes, ncap, nready;	/* nready: resident */
	uint32_t *path;		/* nodes of the previous stack */
	struct pend {		/* flow(): boxes kept, names not yet interned */
		uint32_t node;
		const char *s;
		size_t len;
		uint64_t h;
	} *pend;
	size_t npend, pendcap;
	size_t pathcap;
	double time;		/* flamechart clock */
	int any;		/* a sample was added */
	char *buf;		/* reversed / rewritten stack */
	size_t bufcap;
	uint32_t *colors;	/* per frame id: rgb | 1 << 24 once known */
	size_t ccap;
	uint64_t rs;		/* --random state */
};

void
fold_flame_opts_init(struct fold_flame_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nametype = "Function:";
	o->countname = "samples";
	o->fonttype = "Verdana";
	o->width = 1200;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
	o->factor = 1;
	o->palette = FOLD_PAL_HOT;
	o->colormode = FOLD_COLOR_SEED;
}

/* Nodes up to nnodes + 1 in resident memory, made so a piece at a time
 * (fold_prefault(): a page faulted in alone is dear). */
static void
noderoom(struct fold_flame *f)
{
	size_t ahead = 256 * 1024 / sizeof(*f->nodes), ncap;
	struct node *nn;

	if (f->nnodes == f->ncap) {
		ncap = f->ncap ? f->ncap * 2 : 1024;
		nn = xmalloc(ncap * sizeof(*nn));
		f->nready = f->nnodes + ahead < ncap ? f->nnodes + ahead : ncap;
		fold_prefault(nn, f->nready * sizeof(*nn));
		if (f->nnodes > 0)
			memcpy(nn, f->nodes, f->nnodes * sizeof(*nn));
		free(f->nodes);
		f->nodes = nn;
		f->ncap = ncap;
		return;
	}
	ahead = f->nready + ahead < f->ncap ? ahead : f->ncap - f->nready;
	fold_prefault(f->nodes + f->nready, ahead * sizeof(*f->nodes));
	f->nready += ahead;
}

static uint32_t
newnode(struct fold_flame *f, uint32_t parent, uint32_t name)
{
	struct node *n;

	if (f->nnodes >= NONE - 1)
		fold_die(1, "too many frames");
	if (f->nnodes >= f->nready)	/* set whole below: not zeroed */
		noderoom(f);
	n = &f->nodes[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->name = name;
	n->child = n->next = NONE;
	n->start = f->time;
	n->depth = parent == NONE ? 0 : f->nodes[parent].depth + 1;
	return (uint32_t)f->nnodes++;
}

struct fold_flame *
fold_flame_new(const struct fold_flame_opts *o)
{
	struct fold_flame *f = xcalloc(1, sizeof(*f));

	f->o = *o;
	fold_intern_init(&f->names);
	fold_stackids_init(&f->sids, &f->names, 0);
	fold_stackset_init(&f->ss);
	newnode(f, NONE, NONE);
	if (o->colormode == FOLD_COLOR_RANDOM) {
		int fd = open("/dev/urandom", O_RDONLY);

		f->rs = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
		if (fd >= 0) {
			uint64_t v;

			if (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
				f->rs ^= v;
			close(fd);
		}
	}
	return f;
}

/* The stack to merge: reversed with --reverse; for the chain palette, the
 * frames after ";--;" marked as wakers (_[w]). */
static const char *
prepare(struct fold_flame *f, const char *s, size_t len, size_t *outlen)
{
	size_t k, o = 0, fl, seg;
	const char *p;

	/* Empty frames at the end are no frames, as Perl's split() drops
	 * them in flamegraph.pl: "a;b;" is "a;b". */
	while (len > 0 && s[len - 1] == ';')
		len--;
	if (f->o.reverse && len > 0) {
		fold_grow(&f->buf, &f->bufcap, len + 1, 1);
		k = len;
		for (;;) {
			for (fl = 0; fl < k && s[k - fl - 1] != ';'; fl++)
				;
			memcpy(f->buf + o, s + k - fl, fl);
			o += fl;
			if (fl == k)
				break;
			f->buf[o++] = ';';
			k -= fl + 1;
		}
		s = f->buf;
		len = o;
		/* ";a;b" reversed is "b;a;": that empty frame goes too */
		while (len > 0 && s[len - 1] == ';')
			len--;
	}
	/* (Not for flow(), which marks the wakers as it interns names.) */
	if (f->o.palette == FOLD_PAL_CHAIN && f->o.flamechart && (p = NULL,
	    contains(s, len, ";--;"))) {
		char *out;
		size_t cap = 0, n = 0, i = 0;
		int waker = 0;

		out = NULL;
		fold_grow(&out, &cap, len * 2 + 8, 1);
		while (i <= len) {
			p = memchr(s + i, ';', len - i);
			seg = p ? (size_t)(p - (s + i)) : len - i;
			if (n + seg + 8 > cap)
				fold_grow(&out, &cap, n + seg + 8, 1);
			memcpy(out + n, s + i, seg);
			n += seg;
			if (seg == 2 && memcmp(s + i, "--", 2) == 0)
				waker = 1;
			else if (waker) {
				memcpy(out + n, "_[w]", 4);
				n += 4;
			}
			if (!p)
				break;
			out[n++] = ';';
			i += seg + 1;
		}
		free(f->buf);
		f->buf = out;
		f->bufcap = cap;
		s = out;
		len = n;
	}
	*outlen = len;
	return s;
}

int
fold_flame_add(struct fold_flame *f, const struct fold_sample *smp)
{
	size_t len, keep, n, k;
	const char *stack = prepare(f, smp->stack, smp->stacklen, &len);
	const uint32_t *ids;
	struct node *leaf;
	uint32_t parent;

	if (!f->o.flamechart) {
		/* The tree is built by flow() once all stacks are in. */
		struct fold_stackrec *r = fold_stackset_add(&f->ss, stack, len,
		    smp->stable && stack == smp->stack);

		if (fold_num_add(&r->count, smp->count) != 0)
			fold_die(1, "sum of counts larger than "
			    "18446744073709551615");
		if (smp->diff)
			r->delta += fold_num_dbl(smp->count) -
			    fold_num_dbl(smp->old);
		f->time += fold_num_dbl(smp->count);
		f->any = 1;
		return r->s == smp->stack;	/* new, not copied */
	}
	/* Flame chart: boxes in input order, merged with the one before. */
	if (len == 0)		/* only empty frames (";;"): the root's */
		leaf = &f->nodes[0];
	else {
		keep = fold_stackids_diff(&f->sids, stack, len);
		ids = fold_stackids_push(&f->sids, stack, len, &n);
		fold_grow(&f->path, &f->pathcap, n, sizeof(*f->path));
		for (k = keep; k < n; k++) {
			parent = k == 0 ? 0 : f->path[k - 1];
			f->path[k] = newnode(f, parent, ids[k]);
		}
		leaf = &f->nodes[f->path[n - 1]];
	}
	if (fold_num_add(&leaf->self, smp->count) != 0)
		fold_die(1, "sum of counts larger than 18446744073709551615");
	if (smp->diff)
		leaf->delta += fold_num_dbl(smp->count) - fold_num_dbl(smp->old);
	f->time += fold_num_dbl(smp->count);
	f->any = 1;
	return 0;
}

void
fold_flame_free(struct fold_flame *f)
{
	if (f == NULL)
		return;
	fold_intern_free(&f->names);
	fold_stackids_free(&f->sids);
	fold_stackset_free(&f->ss);
	free(f->nodes);
	free(f->path);
	free(f->pend);
	free(f->buf);
	free(f->colors);
	free(f);
}

/* ---- layout and output -------------------------------------------------- */

/*
 * The boxes at least minw wide, from the distinct stacks in frame order:
 * flamegraph.pl's flow.  Each stack is compared with the one before; the
 * frames after the shared ones close (a box, kept if wide enough: its
 * children were closed before it, so a box dropped is the last node) and
 * the stack's own frames open.  The nodes come out as they are drawn,
 * parents before children and siblings by name, with the x (start), totals
 * and depth pass 1 of fold_flame_write() would give them.  Only the names
 * of the boxes kept are interned.  With the chain palette, the frames
 * below a "--" frame (other than "--") are wakers: their names get _[w]
 * here, so that siblings come in the order of the names as the input
 * spells them ("b" before "b_Z").
 */
struct open {
	uint32_t node;
	const char *name;	/* in the stackset's copy */
	size_t len, end;	/* name length, end offset in the stack */
	double mid;		/* where the next child starts */
	int below;		/* chain palette: below a "--" frame */
};

static int
isdashes(const char *s, size_t len)
{
	return len == 2 && s[0] == '-' && s[1] == '-';
}

static void
flow_close(struct fold_flame *f, struct open *op, size_t k, double minw)
{
	struct node *n = &f->nodes[op[k].node], *p;

	if (k > 0) {
		p = &f->nodes[op[k - 1].node];
		fold_num_add(&p->total, n->total);	/* <= total: no wrap */
		op[k - 1].mid += fold_num_dbl(n->total);
	}
	if (fold_num_dbl(n->total) < minw)
		f->nnodes = op[k].node;	/* the last node: drop it */
	else if (k > 0 && op[k].below && !isdashes(op[k].name, op[k].len)) {
		fold_grow(&f->buf, &f->bufcap, op[k].len + 5, 1);
		memcpy(f->buf, op[k].name, op[k].len);
		memcpy(f->buf + op[k].len, "_[w]", 4);
		n->name = fold_intern(&f->names, f->buf, op[k].len + 4, NULL);
	} else if (k > 0) {
		fold_grow(&f->pend, &f->pendcap, f->npend + 1, sizeof(*f->pend));
		f->pend[f->npend].node = op[k].node;
		f->pend[f->npend].s = op[k].name;
		f->pend[f->npend++].len = op[k].len;
	}
}

/* The names of the boxes kept since the last call, interned in a batch:
 * hashes and table memory first, so that the cache misses overlap. */
static void
flow_names(struct fold_flame *f)
{
	struct pend *p = f->pend;
	size_t k;

	for (k = 0; k < f->npend; k++) {
		p[k].h = fold_hash(p[k].s, p[k].len);
		fold_intern_prefetch(&f->names, p[k].h);
	}
	for (k = 0; k < f->npend; k++)
		fold_intern_prefetch_str(&f->names, p[k].h);
	for (k = 0; k < f->npend; k++)
		f->nodes[p[k].node].name = fold_intern_h(&f->names, p[k].s,
		    p[k].len, p[k].h, NULL);
	f->npend = 0;
}

static void
flow(struct fold_flame *f, double minw)
{
	struct fold_stackset *ss = &f->ss;
	const struct fold_stackrec *r, *prev = NULL;
	struct open *op = NULL;
	size_t ocap = 0, nopen = 0, i, k, l, start, flen;
	const char *semi;
	struct node *n;
	uint32_t nid;
	int chain = f->o.palette == FOLD_PAL_CHAIN;

	fold_stackset_sort(ss, minw);
	f->nnodes = 1;		/* the root */
	memset(&f->nodes[0].self, 0, sizeof(f->nodes[0].self));
	f->nodes[0].total = f->nodes[0].self;
	f->nodes[0].start = 0;
	fold_grow(&op, &ocap, 1, sizeof(*op));
	op[0].node = 0;
	op[0].mid = 0;
	op[0].below = 0;
	for (i = 0; i < ss->n; i++) {
		r = &ss->recs[i];
		/* After a sort the stacks are far apart in memory: the bytes of
		 * one a few ahead are fetched while this one is merged. */
		if (i + 4 < ss->n) {
			const struct fold_stackrec *a = &ss->recs[i + 4];

			for (k = 0; k < a->len && k < 1024; k += 64)
				fold_prefetch(a->s + k);
		}
		/* op[1..nopen] are prev's frames: keep those r shares. */
		k = 0;
		if (prev != NULL) {
			l = fold_common_prefix(prev->s, r->s, prev->len < r->len ?
			    prev->len : r->len);
			while (k < nopen && op[k + 1].end < l)
				k++;
			if (k < nopen && op[k + 1].end == l &&
			    (l == r->len || r->s[l] == ';') &&
			    (l == prev->len || prev->s[l] == ';'))
				k++;
		}
		while (nopen > k)
			flow_close(f, op, nopen--, minw);
		if (f->npend >= 32)
			flow_names(f);
		if (r->len == 0) {	/* only empty frames: the root's */
			f->nodes[0].self = r->count;
			f->nodes[0].total = r->count;
			f->nodes[0].delta = r->delta;
			op[0].mid += fold_num_dbl(r->count);
			prev = r;
			continue;
		}
		start = k > 0 ? op[k].end + 1 : 0;
		if (start > r->len) {
			/* All its frames are open: a stack after its children,
			 * in a run too narrow to be sorted (fold_stackset_sort):
			 * its box is narrower than minw. */
			n = &f->nodes[op[k].node];
			fold_num_add(&n->self, r->count);
			fold_num_add(&n->total, r->count);
			n->delta += r->delta;
			op[k].mid += fold_num_dbl(r->count);
			prev = r;
			continue;
		}
		for (;;) {
			semi = memchr(r->s + start, ';', r->len - start);
			flen = semi ? (size_t)(semi - r->s) - start : r->len - start;
			fold_grow(&op, &ocap, k + 2, sizeof(*op));
			nid = newnode(f, op[k].node, NONE);
			n = &f->nodes[nid];
			n->start = op[k].mid;
			memset(&n->self, 0, sizeof(n->self));
			n->total = n->self;
			n->delta = 0;
			k++;
			op[k].node = nid;
			op[k].name = r->s + start;
			op[k].len = flen;
			op[k].end = start + flen;
			op[k].mid = n->start;
			/* Below a "--" that is not the first frame (as
			 * prepare() did it: the stack has ";--;"). */
			op[k].below = chain && (op[k - 1].below ||
			    (k > 2 && isdashes(op[k - 1].name, op[k - 1].len)));
			if (semi == NULL)
				break;
			start += flen + 1;
		}
		nopen = k;
		n->self = r->count;
		n->total = r->count;
		n->delta = r->delta;
		op[k].mid += fold_num_dbl(r->count);
		prev = r;
	}
	while (nopen > 0)
		flow_close(f, op, nopen--, minw);
	flow_close(f, op, 0, minw);
	flow_names(f);
	free(op);
}

/* Flame chart: children lists in creation order, and totals. */
static void
build(struct fold_flame *f)
{
	size_t i;
	struct node *nd = f->nodes;

	for (i = f->nnodes; i-- > 1;) {
		nd[i].next = nd[nd[i].parent].child;
		nd[nd[i].parent].child = (uint32_t)i;
	}
	/* Children are created after their parent: totals bottom-up. */
	for (i = 0; i < f->nnodes; i++)
		nd[i].total = nd[i].self;
	for (i = f->nnodes; i-- > 1;)
		fold_num_add(&nd[nd[i].parent].total, nd[i].total);
}


/* Room for any double as %.2f (DBL_MAX has 309 digits). */
#define FIXED_MAX 400

/* v with decimals digits after the point (as %.Nf), into the end of b;
 * with trim, a zero fraction is left out.  Returns the start. */
static char *
fmt_fixed(char b[FIXED_MAX], double v, int decimals, int trim)
{
	static const double scales[] = { 1, 10, 100 };
	char *p = b + FIXED_MAX;
	uint64_t n;
	int k, len;

	if (v < 0 || fold_scaled(v, scales[decimals], &n) != 0) {
		char t[FIXED_MAX];

		len = snprintf(t, sizeof(t), "%.*f", decimals, v);
		if (len < 0 || len >= (int)sizeof(t))
			len = snprintf(t, sizeof(t), "%g", v);
		if (trim && len > decimals + 1 &&
		    strspn(t + len - decimals, "0") == (size_t)decimals)
			len -= decimals + 1;
		p -= len;
		memcpy(p, t, (size_t)len);
		return p;
	}
	if (trim && n % (uint64_t)scales[decimals] == 0) {
		n /= (uint64_t)scales[decimals];
		decimals = 0;
	}
	for (k = 0; k < decimals; k++) {
		*--p = (char)('0' + n % 10);
		n /= 10;
	}
	if (decimals > 0)
		*--p = '.';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	return p;
}

static void
fo_fixed(double v, int decimals, int trim)
{
	char b[FIXED_MAX], *p = fmt_fixed(b, v, decimals, trim);

	fo_write(p, (size_t)(b + sizeof(b) - p));
}

/* A number as %.1f without a trailing ".0" and without the leading "0"
 * of a fraction (".5", as SVG and CSS allow). */
static void
fo_num1(double v)
{
	char b[FIXED_MAX], *p = fmt_fixed(b, v, 1, 1);
	size_t len = (size_t)(b + sizeof(b) - p);

	if (len > 2 && p[0] == '0' && p[1] == '.')
		p++, len--;
	fo_write(p, len);
}

/* v rounded to one decimal as printf does it. */
static double
round1(double v)
{
	uint64_t n;
	char b[64];

	if (fold_scaled(v, 10, &n) == 0)
		return (double)n / 10;
	snprintf(b, sizeof(b), "%.1f", v);
	return strtod(b, NULL);
}

/* A rounded count with thousands commas. */
static void
fo_commas(const char *digits)
{
	size_t n = strlen(digits), k;

	for (k = 0; k < n; k++) {
		fo_putc(digits[k]);
		if (digits[k] >= '0' && digits[k] <= '9' && (n - k - 1) % 3 == 0 &&
		    k + 1 < n)
			fo_putc(',');
	}
}

static void
fo_str(const char *s, int raw8)
{
	fo_xml(s, strlen(s), raw8, 0);
}

static void
fo_rgb(uint32_t c)
{
	fo_puts("rgb(");
	fo_u64(c >> 16 & 255);
	fo_putc(',');
	fo_u64(c >> 8 & 255);
	fo_putc(',');
	fo_u64(c & 255);
	fo_putc(')');
}

/* --nameattr: "NAME\tattr=value\t..." lines. */
struct attrs {
	struct fold_intern names;	/* the names of the file */
	size_t nfile;			/* ids below this came from it */
	char **lines;			/* per name: the attr part */
	size_t cap;
};

static int
load_nameattr(struct attrs *a, const char *path)
{
	struct fold_in in;
	const char *line, *tab;
	size_t len;
	uint32_t id;
	char *files[1];
	int isnew;

	fold_intern_init(&a->names);
	files[0] = (char *)path;
	fold_in_init(&in, 1, files);
	while (fold_in_line(&in, &line, &len)) {
		if (len > 0 && line[len - 1] == '\r')
			len--;
		tab = memchr(line, '\t', len);
		if (tab == NULL) {
			if (len > 0)
				fold_warn("%s:%llu: no tab after the name", path,
				    in.lineno);
			continue;
		}
		id = fold_intern(&a->names, line, (size_t)(tab - line), &isnew);
		fold_grow(&a->lines, &a->cap, id + 1, sizeof(*a->lines));
		free(a->lines[id]);
		a->lines[id] = xmalloc(len - (size_t)(tab - line));
		memcpy(a->lines[id], tab + 1, len - (size_t)(tab - line) - 1);
		a->lines[id][len - (size_t)(tab - line) - 1] = '\0';
	}
	a->nfile = fold_intern_count(&a->names);
	fold_in_free(&in);
	return in.status;
}

/* A value of the attr list, or NULL. */
static const char *
attr_get(const char *list, const char *key, size_t *vlen)
{
	size_t kl = strlen(key);
	const char *p = list, *end;

	while (*p) {
		end = strchr(p, '\t');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > kl && memcmp(p, key, kl) == 0 &&
		    p[kl] == '=') {
			*vlen = (size_t)(end - p) - kl - 1;
			return p + kl + 1;
		}
		p = *end ? end + 1 : end;
	}
	return NULL;
}

/* An attribute name we are willing to write: [A-Za-z_][A-Za-z0-9_.:-]*. */
static int
attr_name_ok(const char *s, size_t n)
{
	size_t k;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' &&
	    s[0] <= 'z') || s[0] == '_'))
		return 0;
	for (k = 1; k < n; k++)
		if (!((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <=
		    'z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '_' ||
		    s[k] == '-' || s[k] == '.' || s[k] == ':'))
			return 0;
	return 1;
}

/* --cp: palette.map, "NAME->rgb(r,g,b)" lines. */
struct palmap {
	struct fold_intern names;
	uint32_t *rgb;		/* per name, | 1 << 24 when set */
	size_t cap;
	int changed;
};

static int
parse_rgb(const char *s, size_t n, uint32_t *out)
{
	unsigned v[3];
	int k, used = 0;
	char b[64];

	if (n >= sizeof(b))
		return -1;
	memcpy(b, s, n);
	b[n] = '\0';
	if (sscanf(b, "rgb(%u,%u,%u)%n", &v[0], &v[1], &v[2], &used) != 3 ||
	    (size_t)used != n)
		return -1;
	for (k = 0; k < 3; k++)
		if (v[k] > 255)
			return -1;
	*out = RGB(v[0], v[1], v[2]);
	return 0;
}

static void
load_palmap(struct palmap *m, const char *path)
{
	struct fold_in in;
	const char *line, *arrow;
	size_t len, k;
	uint32_t id, rgb;
	char *files[1];
	int fd;

	fold_intern_init(&m->names);
	if ((fd = open(path, O_RDONLY)) < 0)
		return;		/* made at the end */
	close(fd);
	files[0] = (char *)path;
	fold_in_init(&in, 1, files);
	while (fold_in_line(&in, &line, &len)) {
		/* The colour follows the last "->" (names may hold "->"). */
		for (arrow = NULL, k = len; k >= 2; k--)
			if (line[k - 2] == '-' && line[k - 1] == '>') {
				arrow = line + k - 2;
				break;
			}
		if (arrow == NULL || parse_rgb(arrow + 2, len - (size_t)(arrow -
		    line) - 2, &rgb) != 0) {
			if (len > 0)
				fold_warn("%s:%llu: not NAME->rgb(R,G,B)", path,
				    in.lineno);
			continue;
		}
		id = fold_intern(&m->names, line, (size_t)(arrow - line), NULL);
		fold_grow(&m->rgb, &m->cap, id + 1, sizeof(*m->rgb));
		m->rgb[id] = rgb | 1u << 24;
	}
	fold_in_free(&in);
}

static int
save_palmap(struct palmap *m, const char *path)
{
	size_t n = fold_intern_count(&m->names), k;
	uint32_t *ord = xmalloc((n + 1) * sizeof(*ord));
	struct fold_str s;
	FILE *fp;
	int err;

	for (k = 0; k < n; k++)
		ord[k] = (uint32_t)k;
	/* Sort ids by name: a tiny insertion-free qsort over the table. */
	{
		struct fold_intern *t = &m->names;
		size_t i, j;

		for (i = 1; i < n; i++) {
			uint32_t v = ord[i];

			for (j = i; j > 0 && fold_strcmp(fold_intern_str(t,
			    ord[j - 1]), fold_intern_str(t, v)) > 0; j--)
				ord[j] = ord[j - 1];
			ord[j] = v;
		}
	}
	if ((fp = fopen(path, "w")) == NULL) {
		fold_warn("%s: %s", path, strerror(errno));
		free(ord);
		return 1;
	}
	for (k = 0; k < n; k++) {
		uint32_t c = m->rgb[ord[k]];

		s = fold_intern_str(&m->names, ord[k]);
		fwrite(s.s, 1, s.len, fp);
		fprintf(fp, "->rgb(%u,%u,%u)\n", c >> 16 & 255, c >> 8 & 255,
		    c & 255);
	}
	err = ferror(fp);
	if (fclose(fp) != 0 || err) {
		fold_warn("%s: write error", path);
		free(ord);
		return 1;
	}
	free(ord);
	return 0;
}

struct writer {
	struct fold_flame *f;
	const struct fold_flame_opts *o;
	double wpt, timemax, maxdelta, imgh, ypad1, ypad2, top;
	uint32_t maxdepth;
	int frac, diff, raw8;
	struct attrs attrs;
	int haveattrs;
	struct palmap pm;
	int havepm;
};

/* A colour channel from a value: truncated, and held in 0..255. */
static int
clampch(double v)
{
	return v <= 0 ? 0 : v >= 255 ? 255 : (int)v;
}

static uint32_t
node_color(struct writer *w, const struct node *n, const char *name,
    size_t len)
{
	struct fold_flame *f = w->f;
	if (len == 2 && memcmp(name, "--", 2) == 0)
		return RGB(160, 160, 160);
	if (len == 1 && name[0] == '-')
		return RGB(200, 200, 200);
	if (w->diff) {
		double d = w->o->negate ? -n->delta : n->delta, m = w->maxdelta;
		int v;

		/* |d| <= m, so v is in 0..210; clamped all the same */
		if (d > 0) {
			v = clampch(210 * (m - d) / m);
			return RGB(255, v, v);
		}
		if (d < 0) {
			v = clampch(210 * (m + d) / m);
			return RGB(v, v, 255);
		}
		return RGB(255, 255, 255);
	}
	if (w->havepm) {
		uint32_t id = fold_intern(&w->pm.names, name, len, NULL);

		fold_grow(&w->pm.rgb, &w->pm.cap, id + 1, sizeof(*w->pm.rgb));
		if (!(w->pm.rgb[id] & 1u << 24)) {
			w->pm.rgb[id] = fold_flame_color(w->o->palette,
			    w->o->colormode, name, len, &f->rs) | 1u << 24;
			w->pm.changed = 1;
		}
		return w->pm.rgb[id] & 0xffffff;
	}
	if (n->name == NONE)
		return fold_flame_color(w->o->palette, w->o->colormode, "", 0,
		    &f->rs);
	fold_grow(&f->colors, &f->ccap, n->name + 1, sizeof(*f->colors));
	if (!(f->colors[n->name] & 1u << 24))
		f->colors[n->name] = fold_flame_color(w->o->palette,
		    w->o->colormode, name, len, &f->rs) | 1u << 24;
	return f->colors[n->name] & 0xffffff;
}

static void
fo_count(struct writer *w, fold_num span, char *digits, size_t dsz,
    double *rounded)
{
	double v = fold_num_dbl(span) * w->o->factor;

	if (!w->frac && w->o->factor == 1) {
		snprintf(digits, dsz, "%llu", (unsigned long long)span.i);
		*rounded = (double)span.i;
	} else {
		snprintf(digits, dsz, "%.0f", v);
		*rounded = strtod(digits, NULL);
	}
}

static void
frame(struct writer *w, const struct node *n)
{
	const struct fold_flame_opts *o = w->o;
	struct fold_str name = { "", 0 };
	double x1, x2, y1, y2, pct, rounded;
	char digits[400];
	const char *attrs = NULL, *title = NULL, *href = NULL, *v;
	size_t shown, chars, tl = 0, vl;
	uint32_t color;
	int depth = (int)n->depth;

	if (n->name != NONE)
		name = fold_intern_str(&w->f->names, n->name);
	shown = fold_strip_annotation(name.s, name.len);
	x1 = 10 + n->start * w->wpt;
	/* the root spans the total, or --total when larger */
	x2 = 10 + (n->name == NONE ? w->timemax :
	    n->start + fold_num_dbl(n->total)) * w->wpt;
	if (!o->inverted) {
		y1 = w->imgh - w->ypad2 - (depth + 1) * o->frameheight + 1;
		y2 = w->imgh - w->ypad2 - depth * o->frameheight;
	} else {
		y1 = w->top + depth * o->frameheight;
		y2 = w->top + (depth + 1) * o->frameheight - 1;
	}
	color = node_color(w, n, name.s, name.len);
	if (w->haveattrs && n->name != NONE) {
		uint32_t id = fold_intern(&w->attrs.names, name.s, name.len,
		    NULL);

		if (id < w->attrs.nfile)
			attrs = w->attrs.lines[id];
		if (attrs) {
			title = attr_get(attrs, "title", &tl);
			href = attr_get(attrs, "href", &vl);
		}
	}
	if (href) {
		fo_puts("<a xlink:href=\"");
		fo_xml(href, vl, w->raw8, 0);
		fo_puts("\" target=\"");
		if ((v = attr_get(attrs, "target", &vl)) != NULL)
			fo_xml(v, vl, w->raw8, 0);
		else
			fo_puts("_top");
		fo_putc('"');
	} else
		fo_puts("<g");
	if (attrs) {
		/* The other attributes, on the group. */
		const char *p = attrs, *end, *eq;

		while (*p) {
			end = strchr(p, '\t');
			if (end == NULL)
				end = p + strlen(p);
			eq = memchr(p, '=', (size_t)(end - p));
			if (eq && attr_name_ok(p, (size_t)(eq - p)) &&
			    !((eq - p == 5 && memcmp(p, "title", 5) == 0) ||
			    (eq - p == 4 && memcmp(p, "href", 4) == 0) ||
			    (eq - p == 6 && memcmp(p, "target", 6) == 0) ||
			    memcmp(p, "xmlns", eq - p < 5 ? (size_t)(eq - p) : 5)
			    == 0)) {
				fo_putc(' ');
				fo_write(p, (size_t)(eq - p));
				fo_puts("=\"");
				fo_xml(eq + 1, (size_t)(end - eq - 1), w->raw8, 0);
				fo_putc('"');
			}
			p = *end ? end + 1 : end;
		}
	}
	fo_puts("><title>");
	if (title)
		fo_xml(title, tl, w->raw8, 0);
	else {
		fo_count(w, n->total, digits, sizeof(digits), &rounded);
		if (n->name == NONE)
			fo_puts("all");
		else
			fo_xml(name.s, shown, w->raw8, 0);
		fo_puts(" (");
		fo_commas(digits);
		fo_putc(' ');
		fo_str(o->countname, w->raw8);
		pct = 100 * rounded / (w->timemax * o->factor);
		if (n->name == NONE && w->timemax == w->f->time)
			fo_puts(", 100%");
		else
			fo_puts(", "), fo_fixed(pct, 2, 0), fo_putc('%');
		if (w->diff && n->name != NONE) {
			double d = o->negate ? -n->delta : n->delta;
			double dp = 100 * d / (w->timemax * o->factor);

			fo_puts(d > 0 ? "; +" : "; ");
			fo_fixed(dp, 2, 0);
			fo_putc('%');
		}
		fo_putc(')');
	}
	fo_puts("</title><rect x=\"");
	fo_num1(x1);
	fo_puts("\" y=\"");
	fo_num1(y1);
	fo_puts("\" width=\"");
	/* As flamegraph.pl: the width between the rounded ends (the search
	 * figure is computed from these). */
	fo_num1(round1(x2) - round1(x1));
	/* The height is the same for every box: it is in the stylesheet. */
	fo_puts("\" fill=\"");
	fo_rgb(color);
	fo_puts("\"/>");
	chars = (size_t)((x2 - x1) / (o->fontsize * o->fontwidth));
	if (chars >= 3 && (n->name == NONE || shown > 0)) {
		fo_puts("<text x=\"");
		fo_num1(x1 + 3);
		fo_puts("\" y=\"");
		fo_num1(3 + (y1 + y2) / 2);
		fo_puts("\">");
		if (n->name == NONE)
			fo_xml("all", 3, 0, chars);
		else
			fo_xml(name.s, shown, w->raw8, chars);
		fo_puts("</text>");
	}
	fo_puts(href ? "</a>" : "</g>");
}

static void
header(struct writer *w, double height)
{
	const struct fold_flame_opts *o = w->o;

	fo_puts("<?xml version=\"1.0\"");
	if (o->encoding) {
		fo_puts(" encoding=\"");
		fo_str(o->encoding, 0);
		fo_putc('"');
	}
	fo_puts(" standalone=\"no\"?>\n<svg version=\"1.1\" width=\"");
	fo_num1(o->width);
	fo_puts("\" height=\"");
	fo_num1(height);
	fo_puts("\" viewBox=\"0 0 ");
	fo_num1(o->width);
	fo_putc(' ');
	fo_num1(height);
	fo_puts("\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" font-family=\"");
	fo_str(o->fonttype, w->raw8);
	fo_puts("\" font-size=\"");
	fo_num1(o->fontsize);
	fo_puts("\"");
}

static void
background(struct writer *w, double height)
{
	const struct fold_flame_opts *o = w->o;
	const char *b1 = o->bg1, *b2 = o->bg2;

	if (b1 == NULL) {
		switch (o->palette) {
		case FOLD_PAL_MEM:
			b1 = "#eef2ee", b2 = "#e0ffe0";
			break;
		case FOLD_PAL_IO: case FOLD_PAL_WAKEUP: case FOLD_PAL_CHAIN:
			b1 = "#eeeeee", b2 = "#e0e0ff";
			break;
		case FOLD_PAL_RED: case FOLD_PAL_GREEN: case FOLD_PAL_BLUE:
		case FOLD_PAL_AQUA: case FOLD_PAL_YELLOW: case FOLD_PAL_PURPLE:
		case FOLD_PAL_ORANGE:
			b1 = "#f8f8f8", b2 = "#e8e8e8";
			break;
		default:
			b1 = "#eeeeee", b2 = "#eeeeb0";
		}
	}
	fo_puts("<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" "
	    "x1=\"0\" x2=\"0\"><stop stop-color=\"");
	fo_str(b1, 0);
	fo_puts("\" offset=\"5%\"/><stop stop-color=\"");
	fo_str(b2, 0);
	fo_puts("\" offset=\"95%\"/></linearGradient></defs>\n");
	fo_puts("<rect x=\"0\" y=\"0\" width=\"");
	fo_num1(o->width);
	fo_puts("\" height=\"");
	fo_num1(height);
	fo_puts("\" fill=\"url(#background)\"/>\n");
}

/* Is an encoding name UTF-8?  (ASCII case-insensitive) */
static int
is_utf8(const char *e)
{
	char b[8];
	size_t k;

	for (k = 0; e[k] && k < sizeof(b) - 1; k++)
		b[k] = (char)(e[k] >= 'A' && e[k] <= 'Z' ? e[k] + 32 : e[k]);
	b[k] = '\0';
	return e[k] == '\0' && (strcmp(b, "utf-8") == 0 || strcmp(b, "utf8") == 0);
}

static const char *
title_text(const struct fold_flame_opts *o)
{
	if (o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* The small SVG for no input. */
static int
write_empty(struct writer *w)
{
	const struct fold_flame_opts *o = w->o;
	double h = o->fontsize * 5;

	header(w, h);
	fo_puts(">\n");
	fo_puts("<text x=\"");
	fo_num1(o->width / 2);
	fo_puts("\" y=\"");
	fo_num1(o->fontsize * 2);
	fo_puts("\" text-anchor=\"middle\">ERROR: No valid input provided "
	    "to flamegraph-svg.</text>\n</svg>\n");
	return 1;
}

int
fold_flame_write(struct fold_flame *f, int frac, int diff)
{
	struct writer w;
	const struct fold_flame_opts *o = &f->o;
	struct node *nd;
	uint32_t *stk = NULL, i, c;
	size_t scap = 0, sn, k, ndrawn = 0;
	double minw, height, mid, ypad3 = 0;
	int status = 0;

	memset(&w, 0, sizeof(w));
	w.f = f;
	w.o = o;
	w.frac = frac;
	w.diff = diff;
	w.raw8 = o->encoding && !is_utf8(o->encoding);
	if (!f->any || !(f->time > 0))
		return write_empty(&w);	/* nothing, or only zero counts */
	if (o->flamechart)
		build(f);
	w.timemax = f->time;
	if (o->total > 0 && o->total > f->time)
		w.timemax = o->total;
	else if (o->total > 0 && o->total < f->time)
		fold_warn("--total %.17g is less than the actual total %.17g: "
		    "ignored", o->total, f->time);
	if (w.timemax <= 0)
		w.timemax = 1;	/* all counts zero: boxes of width 0 */
	w.wpt = (o->width - 20) / w.timemax;
	minw = o->minpct ? w.timemax * o->minwidth / 100 : o->minwidth / w.wpt;
	w.maxdelta = 1;
	/* The largest delta of any box, the root's included (the stacks of
	 * empty frames end there): no box is coloured past it. */
	if (diff && o->flamechart) {
		for (k = 0; k < f->nnodes; k++)
			if (fabs(f->nodes[k].delta) > w.maxdelta)
				w.maxdelta = fabs(f->nodes[k].delta);
	} else if (diff)	/* a box's delta is that of the stack ending there */
		for (k = 0; k < f->ss.n; k++)
			if (fabs(f->ss.recs[k].delta) > w.maxdelta)
				w.maxdelta = fabs(f->ss.recs[k].delta);
	if (!o->flamechart)
		flow(f, minw);	/* the boxes drawn, in order */
	nd = f->nodes;

	/* Pass 1: which boxes are drawn, their x, the depth. */
	fold_grow(&stk, &scap, 1, sizeof(*stk));
	stk[0] = 0;
	sn = !o->flamechart ? 0 : 1;
	for (k = 0; !o->flamechart && k < f->nnodes; k++) {
		nd[k].drawn = 1;
		ndrawn++;
		if (nd[k].depth > w.maxdepth)
			w.maxdepth = nd[k].depth;
	}
	while (sn > 0) {
		i = stk[--sn];
		if (fold_num_dbl(nd[i].total) < minw)
			continue;
		nd[i].drawn = 1;
		ndrawn++;
		if (nd[i].depth > w.maxdepth)
			w.maxdepth = nd[i].depth;
		mid = nd[i].start + fold_num_dbl(nd[i].self);
		for (c = nd[i].child; c != NONE; c = nd[c].next) {
			if (!o->flamechart) {
				nd[c].start = mid;
				mid += fold_num_dbl(nd[c].total);
			}
			fold_grow(&stk, &scap, sn + 1, sizeof(*stk));
			stk[sn++] = c;
		}
	}
	w.ypad1 = o->fontsize * 3;
	w.ypad2 = o->fontsize * 2 + 10;
	if (o->subtitle && *o->subtitle)
		ypad3 = o->fontsize * 2;
	w.top = w.ypad1 + ypad3;
	height = (w.maxdepth + 1) * o->frameheight + w.ypad1 + w.ypad2 + ypad3;
	w.imgh = height;

	if (o->nameattr) {
		w.haveattrs = 1;
		if (load_nameattr(&w.attrs, o->nameattr) != 0)
			status = 1;
	}
	if (o->palmap && !diff) {
		w.havepm = 1;
		load_palmap(&w.pm, o->palmap);
	}

	header(&w, height);
	fo_puts(" data-fontsize=\"");
	fo_num1(o->fontsize);
	fo_printf("\" data-fontwidth=\"%g\" data-inverted=\"%d\" "
	    "data-nametype=\"", o->fontwidth, o->inverted != 0);
	fo_str(o->nametype, w.raw8);
	fo_puts("\">\n<!-- Flame graph by foldkit flamegraph-svg "
	    FOLDKIT_VERSION "; click to zoom, Ctrl-F to search. -->\n");
	if (o->notes && *o->notes) {
		fo_puts("<desc id=\"notes\">");
		fo_str(o->notes, w.raw8);
		fo_puts("</desc>\n");
	}
	fo_puts("<style type=\"text/css\">");
	fo_puts(fold_flame_style);
	fo_puts("#frames rect { height: ");
	fo_num1(o->frameheight - 1);
	fo_puts("px; rx: 2px; ry: 2px; }\n</style>\n");
	background(&w, height);
	fo_puts("<text id=\"title\" x=\"");
	fo_num1(o->width / 2);
	fo_puts("\" y=\"");
	fo_num1(o->fontsize * 2);
	fo_puts("\" font-size=\"");
	fo_num1(o->fontsize + 5);
	fo_puts("\">");
	fo_str(title_text(o), w.raw8);
	fo_puts("</text>\n");
	if (ypad3 > 0) {
		fo_puts("<text id=\"subtitle\" x=\"");
		fo_num1(o->width / 2);
		fo_puts("\" y=\"");
		fo_num1(o->fontsize * 4);
		fo_puts("\">");
		fo_str(o->subtitle, w.raw8);
		fo_puts("</text>\n");
	}
	fo_puts("<text id=\"details\" x=\"10\" y=\"");
	fo_num1(height - w.ypad2 / 2);
	fo_puts("\"> </text>\n<text id=\"unzoom\" class=\"hide\" x=\"10\" y=\"");
	fo_num1(o->fontsize * 2);
	fo_puts("\">Reset Zoom</text>\n<text id=\"search\" x=\"");
	fo_num1(o->width - 10 - 100);
	fo_puts("\" y=\"");
	fo_num1(o->fontsize * 2);
	fo_puts("\">Search</text>\n<text id=\"ignorecase\" x=\"");
	fo_num1(o->width - 10 - 16);
	fo_puts("\" y=\"");
	fo_num1(o->fontsize * 2);
	fo_puts("\">ic</text>\n<text id=\"matched\" x=\"");
	fo_num1(o->width - 10 - 100);
	fo_puts("\" y=\"");
	fo_num1(height - w.ypad2 / 2);
	fo_puts("\"> </text>\n<g id=\"frames\">\n");

	/* Pass 2: the boxes, depth first, parents before children; one line
	 * per branch: a line ends after a leaf box.  Flow gave that order. */
	for (k = 0; !o->flamechart && k < f->nnodes; k++) {
		/* The names of the boxes a little ahead: fetched meanwhile. */
		if (k + 16 < f->nnodes && nd[k + 16].name != NONE)
			fold_prefetch(&f->names.strs[nd[k + 16].name]);
		if (k + 8 < f->nnodes && nd[k + 8].name != NONE)
			fold_prefetch(f->names.strs[nd[k + 8].name].s);
		frame(&w, &nd[k]);
		if (k + 1 == f->nnodes || nd[k + 1].depth <= nd[k].depth)
			fo_putc('\n');
	}
	stk[0] = 0;
	sn = !o->flamechart ? 0 : 1;
	while (sn > 0) {
		i = stk[--sn];
		if (!nd[i].drawn)
			continue;
		frame(&w, &nd[i]);
		/* Children pushed last to first, so they come out in order. */
		k = sn;
		for (c = nd[i].child; c != NONE; c = nd[c].next)
			if (nd[c].drawn) {
				fold_grow(&stk, &scap, sn + 1, sizeof(*stk));
				stk[sn++] = c;
			}
		/* One line per branch: a line ends after a leaf box. */
		if (sn == k)
			fo_putc('\n');
		for (size_t a = k, b = sn; a + 1 < b; a++, b--) {
			uint32_t t = stk[a];

			stk[a] = stk[b - 1];
			stk[b - 1] = t;
		}
	}
	fo_puts("</g>\n<script type=\"text/ecmascript\"><![CDATA[");
	for (k = 0; fold_flame_script[k] != NULL; k++)
		fo_puts(fold_flame_script[k]);
	fo_puts("]]></script>\n</svg>\n");
	free(stk);
	if (w.haveattrs) {
		for (k = 0; k < w.attrs.nfile; k++)
			free(w.attrs.lines[k]);
		free(w.attrs.lines);
		fold_intern_free(&w.attrs.names);
	}
	if (w.havepm) {
		if (save_palmap(&w.pm, o->palmap) != 0)
			status = 1;
		free(w.pm.rgb);
		fold_intern_free(&w.pm.names);
	}
	(void)ndrawn;
	return status;
}
