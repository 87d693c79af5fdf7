/*
 * callgrind.c - valgrind's callgrind profiles to folded stacks (see
 * callgrind.h; the format: valgrind's "Callgrind Format Specification").
 *
 * A file is read a line at a time.  Name compression keeps three tables
 * of ids (functions, files, objects); a function's id stands for a call
 * context, whose self cost is summed from the cost lines after its fn=.
 * The cost line after calls= is the call's inclusive cost and the line
 * after jump=/jcnd= a position only: neither is self cost.  When the file
 * ends, each context becomes a chain of function names (callee first) and
 * each distinct chain a folded stack (see resolve()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind/callgrind.h"
#include "symbols/symbols.h"

#define NONE ((uint32_t)-1)
#define MAXEV 64		/* events a file may declare */
#define MAXPOS 3		/* positions: instr bb line */
#define MAXERR 10		/* bad lines reported per file */
#define CUTFRAME "[stack cut]"

/* File ids ("(N)") to values, by open addressing; a key is id + 1. */
struct idmap {
	uint64_t *keys;
	uint32_t *vals;
	size_t mask, n;
};

/* A call context of the file being read. */
struct ctx {
	uint32_t chain;		/* its chain, once resolved */
	uint32_t obj;		/* object (objs id) of its function, or NONE */
	uint64_t self;		/* self cost of the event taken */
	int composite;		/* --compress-mangled: ids, not a name */
};

/* A distinct chain of function names (names ids), callee first. */
struct chain {
	size_t off;		/* cseq[off .. off + n) */
	uint32_t n;
	uint64_t h;
	uint64_t self;
	uint32_t memo;		/* its stack (keys id), or NONE */
	uint32_t stamp;		/* the walk that last passed it */
	uint32_t depth;		/* frames of its stack */
	int cut;		/* its stack is under CUTFRAME */
	int done;		/* completed through a caller context */
};

/* An event listed with --list: its name and total. */
struct evtot {
	char *name;
	uint64_t total;
	int over;		/* past 2^64 - 1 */
};

struct fold_cg_st {
	unsigned flags;
	char *evname;		/* --event, or NULL */
	int nfiles;
	int warned_noctx;

	/* The file being read. */
	const char *name;
	unsigned long long lineno;
	uint64_t nerr;		/* bad lines in it */
	int bad;		/* its event is missing: costs not taken */
	struct idmap fnids, flids, obids;
	struct fold_intern cx;	/* context names (or composite keys) */
	struct ctx *ctxs;
	size_t ctxcap;
	uint32_t cur;		/* fn= context, or NONE */
	int curbad;		/* NONE as its fn= was bad */
	uint32_t curobj, cobj;	/* ob=, the pending cob= */
	int expect;		/* 1: after calls=; 2: after jump= */
	int npos;		/* positions per cost line */
	int nev;		/* events per cost line (0: none yet) */
	int ev;			/* the one taken, or -1 */
	uint32_t evlist[MAXEV];	/* index in evt of each */
	uint64_t part[MAXEV];	/* cost line sums since totals: */
	int partover;
	int summary, pending;	/* summary: seen; costs after totals: */
	int composites;		/* composite names seen */
	char *kb;		/* a composite key being made */
	size_t kbcap;

	/* The chains of the file, at its end. */
	uint32_t *cseq;
	size_t nseq, seqcap;
	struct chain *chains;
	size_t nch, chcap;
	uint32_t *cslot;	/* chain index + 1 by hash; 0: empty */
	size_t cmask;
	uint32_t walk;

	/* All files. */
	struct fold_intern names;	/* function names */
	uint32_t *nameobj;		/* by name: object, or NONE */
	uint32_t *rend;			/* by name: rendered (rnames id) */
	size_t namecap;
	struct fold_intern rnames;	/* names as written in stacks */
	struct fold_intern objs;	/* object file names */
	struct fold_intern keys;	/* the folded stacks, as rnames ids */
	uint32_t *fb;			/* a stack being made */
	size_t fbcap;
	uint32_t cutname;		/* rnames id of CUTFRAME */
	uint64_t *counts;
	size_t countcap;
	struct evtot *evt;
	size_t nevt, evtcap;
	char *rb;			/* a name being rendered */
	size_t rbcap;
	size_t rendcap;
	uint32_t *path;			/* a walk's chains */
	size_t pathcap;
};

/* ---- messages ---------------------------------------------------------- */

static void bad(struct fold_cg *c, const char *fmt, ...) FOLD_PRINTF(2, 3);

/* A bad line: reported (the first MAXERR of a file), status 1. */
static void
bad(struct fold_cg *c, const char *fmt, ...)
{
	struct fold_cg_st *st = c->st;
	char msg[512];
	va_list ap;

	c->status = 1;
	if (++st->nerr > MAXERR && !(st->flags & FOLD_CG_STRICT))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (st->flags & FOLD_CG_STRICT)
		fold_die(1, "%s:%llu: %s", st->name, st->lineno, msg);
	fold_warn("%s:%llu: %s", st->name, st->lineno, msg);
}

/* ---- id tables --------------------------------------------------------- */

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ULL;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dULL;
	return x ^ (x >> 33);
}

static uint32_t
idmap_get(const struct idmap *m, uint64_t id)
{
	size_t i;

	if (m->keys == NULL)
		return NONE;
	for (i = mix(id) & m->mask; m->keys[i] != 0; i = (i + 1) & m->mask)
		if (m->keys[i] == id + 1)
			return m->vals[i];
	return NONE;
}

static void
idmap_put(struct idmap *m, uint64_t id, uint32_t v)
{
	struct idmap o = *m;
	size_t i, k;

	if (m->keys == NULL || 2 * (m->n + 1) > m->mask + 1) {
		m->mask = m->keys == NULL ? 255 : 2 * m->mask + 1;
		m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
		m->vals = xmalloc((m->mask + 1) * sizeof(*m->vals));
		m->n = 0;
		if (o.keys != NULL) {
			for (k = 0; k <= o.mask; k++)
				if (o.keys[k] != 0)
					idmap_put(m, o.keys[k] - 1, o.vals[k]);
			free(o.keys);
			free(o.vals);
		}
	}
	for (i = mix(id) & m->mask; m->keys[i] != 0; i = (i + 1) & m->mask)
		if (m->keys[i] == id + 1) {
			m->vals[i] = v;
			return;
		}
	m->keys[i] = id + 1;
	m->vals[i] = v;
	m->n++;
}

static void
idmap_free(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- numbers ----------------------------------------------------------- */

static int
isdig(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int
hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * A number (decimal, or 0x hex) at s[*i..n): 1 with *v and *i past it,
 * 0 when there is none or it is past 2^64 - 1.
 */
static int
number(const char *s, size_t n, size_t *i, uint64_t *v)
{
	size_t k = *i;
	uint64_t x = 0;
	int d;

	if (k + 1 < n && s[k] == '0' &&
	    (s[k + 1] == 'x' || s[k + 1] == 'X')) {
		k += 2;
		if (k >= n || hexval((unsigned char)s[k]) < 0)
			return 0;
		for (; k < n && (d = hexval((unsigned char)s[k])) >= 0; k++) {
			if (x > UINT64_MAX >> 4)
				return 0;
			x = x << 4 | (uint64_t)d;
		}
	} else {
		if (k >= n || !isdig((unsigned char)s[k]))
			return 0;
		for (; k < n && isdig((unsigned char)s[k]); k++) {
			d = s[k] - '0';
			if (x > (UINT64_MAX - (uint64_t)d) / 10)
				return 0;
			x = x * 10 + (uint64_t)d;
		}
	}
	*i = k;
	*v = x;
	return 1;
}

static int
isblank_(int ch)
{
	return ch == ' ' || ch == '\t';
}

static size_t
skipws(const char *s, size_t n, size_t i)
{
	while (i < n && isblank_((unsigned char)s[i]))
		i++;
	return i;
}

/* ---- the tables of a file ---------------------------------------------- */

/*
 * "(N) name", "(N)" or "name" at s[0..n): 1 with *id (NONE-like
 * UINT64_MAX when there is none) and the name in *nm, *nlen (*nlen 0 and
 * *nm NULL for a bare id); 0 if damaged.
 */
static int
compressed(const char *s, size_t n, uint64_t *id, const char **nm,
    size_t *nlen)
{
	size_t i = 1;

	*id = UINT64_MAX;
	*nm = NULL;
	*nlen = 0;
	if (n >= 2 && s[0] == '(' && isdig((unsigned char)s[1])) {
		if (!number(s, n, &i, id) || i >= n || s[i] != ')' ||
		    *id >= UINT64_MAX / 2)
			return 0;
		i = skipws(s, n, i + 1);
		if (i < n) {
			*nm = s + i;
			*nlen = n - i;
		}
		return 1;
	}
	*nm = s;
	*nlen = n;
	return 1;
}

static uint32_t
new_ctx(struct fold_cg_st *st, const char *s, size_t n, int composite)
{
	int isnew;
	uint32_t k = fold_intern(&st->cx, s, n, &isnew);

	if (isnew) {
		fold_grow(&st->ctxs, &st->ctxcap, (size_t)k + 1,
		    sizeof(*st->ctxs));
		st->ctxs[k].chain = NONE;
		st->ctxs[k].obj = NONE;
		st->ctxs[k].self = 0;
		st->ctxs[k].composite = composite;
	}
	return k;
}

/*
 * A composite name of --compress-mangled=yes, "(N)['L]['(N)]...": the
 * contexts of its functions (names, not composite), callee first, as a
 * key of 0x01 then their context numbers.  0 (reported) if damaged.
 */
static int
composite(struct fold_cg *c, const char *s, size_t n, uint32_t *k)
{
	struct fold_cg_st *st = c->st;
	size_t i = 0, kn = 1, nf = 0;
	uint64_t id, lv;
	uint32_t x;

	fold_grow(&st->kb, &st->kbcap, 1, 1);
	st->kb[0] = 1;
	while (i < n) {
		if (nf > 0 && s[i] == '\'' && i + 1 < n &&
		    isdig((unsigned char)s[i + 1])) {
			i++;
			if (nf != 1 || !number(s, n, &i, &lv)) {
				bad(c, "bad recursion level in a compressed "
				    "context name");
				return 0;
			}
			continue;
		}
		if (nf > 0) {
			if (s[i] != '\'') {
				bad(c, "bad compressed context name");
				return 0;
			}
			i++;
		}
		if (i + 1 >= n || s[i] != '(' || !isdig((unsigned char)s[i + 1])) {
			bad(c, "bad compressed context name");
			return 0;
		}
		i++;
		if (!number(s, n, &i, &id) || i >= n || s[i] != ')') {
			bad(c, "bad compressed context name");
			return 0;
		}
		i++;
		if ((x = idmap_get(&st->fnids, id)) == NONE) {
			bad(c, "function id (%llu) used before its definition",
			    (unsigned long long)id);
			return 0;
		}
		if (st->ctxs[x].composite) {
			bad(c, "function id (%llu) in a context is itself a "
			    "context", (unsigned long long)id);
			return 0;
		}
		fold_grow(&st->kb, &st->kbcap, kn + 4, 1);
		memcpy(st->kb + kn, &x, 4);
		kn += 4;
		nf++;
	}
	if (i != n || nf == 0) {
		bad(c, "bad compressed context name");
		return 0;
	}
	*k = new_ctx(st, st->kb, kn, 1);
	st->composites = 1;
	return 1;
}

/* fn=, cfn=, jfn=: the context named, or NONE (reported). */
static uint32_t
fn_spec(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	const char *nm;
	size_t nlen;
	uint64_t id;
	uint32_t k;

	if (!compressed(s, n, &id, &nm, &nlen)) {
		bad(c, "bad function id");
		return NONE;
	}
	if (nm == NULL) {
		if ((k = idmap_get(&st->fnids, id)) == NONE)
			bad(c, "function id (%llu) used before its definition",
			    (unsigned long long)id);
		return k;
	}
	if (nlen >= 2 && nm[0] == '(' && isdig((unsigned char)nm[1])) {
		if (!composite(c, nm, nlen, &k))
			return NONE;
	} else
		k = new_ctx(st, nm, nlen, 0);
	if (id != UINT64_MAX)
		idmap_put(&st->fnids, id, k);
	return k;
}

/* fl=, fi=, fe=, cfi=, cfl=, jfi=: checked only. */
static void
fl_spec(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	const char *nm;
	size_t nlen;
	uint64_t id;

	if (!compressed(s, n, &id, &nm, &nlen))
		bad(c, "bad file id");
	else if (nm == NULL && idmap_get(&st->flids, id) == NONE)
		bad(c, "file id (%llu) used before its definition",
		    (unsigned long long)id);
	else if (nm != NULL && id != UINT64_MAX)
		idmap_put(&st->flids, id, 0);
}

/* ob=, cob=: the object (objs id), or NONE. */
static uint32_t
ob_spec(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	const char *nm;
	size_t nlen;
	uint64_t id;
	uint32_t k;

	if (!compressed(s, n, &id, &nm, &nlen)) {
		bad(c, "bad object id");
		return NONE;
	}
	if (nm == NULL) {
		if ((k = idmap_get(&st->obids, id)) == NONE)
			bad(c, "object id (%llu) used before its definition",
			    (unsigned long long)id);
		return k;
	}
	k = fold_intern(&st->objs, nm, nlen, NULL);
	if (id != UINT64_MAX)
		idmap_put(&st->obids, id, k);
	return k;
}

/* ---- header lines ------------------------------------------------------ */

static uint32_t
evt_index(struct fold_cg_st *st, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < st->nevt; k++)
		if (strlen(st->evt[k].name) == n &&
		    memcmp(st->evt[k].name, s, n) == 0)
			return (uint32_t)k;
	fold_grow(&st->evt, &st->evtcap, st->nevt + 1, sizeof(*st->evt));
	st->evt[st->nevt].name = xmalloc(n + 1);
	memcpy(st->evt[st->nevt].name, s, n);
	st->evt[st->nevt].name[n] = '\0';
	return (uint32_t)st->nevt++;
}

static void
events(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	size_t i = 0, b;
	int k = 0, ir = -1, want = -1;

	while ((i = skipws(s, n, i)) < n) {
		for (b = i; i < n && !isblank_((unsigned char)s[i]); i++)
			;
		if (k == MAXEV) {
			bad(c, "more than %d events", MAXEV);
			st->nev = 0;
			return;
		}
		st->evlist[k] = evt_index(st, s + b, i - b);
		if (i - b == 2 && memcmp(s + b, "Ir", 2) == 0)
			ir = k;
		if (st->evname != NULL && strlen(st->evname) == i - b &&
		    memcmp(st->evname, s + b, i - b) == 0)
			want = k;
		k++;
	}
	if (k == 0) {
		bad(c, "events: names no event");
		st->nev = 0;
		return;
	}
	st->nev = k;
	st->ev = st->evname != NULL ? want : ir >= 0 ? ir : 0;
	if (st->ev < 0 && !(st->flags & FOLD_CG_LIST)) {
		bad(c, "no event %s in this file (--list shows them)",
		    st->evname);
		st->bad = 1;
	}
	memset(st->part, 0, sizeof(st->part));
	st->partover = 0;
}

static void
positions(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	size_t i = 0, b;
	int k = 0;

	while ((i = skipws(s, n, i)) < n) {
		for (b = i; i < n && !isblank_((unsigned char)s[i]); i++)
			;
		if (!((i - b == 5 && memcmp(s + b, "instr", 5) == 0) ||
		    (i - b == 4 && memcmp(s + b, "line", 4) == 0) ||
		    (i - b == 2 && memcmp(s + b, "bb", 2) == 0)) || k == MAXPOS) {
			bad(c, "bad positions: line");
			return;
		}
		k++;
	}
	st->npos = k > 0 ? k : 1;
}

/* totals: checked against the cost lines of the part. */
static void
totals(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	size_t i = 0;
	uint64_t v;
	int k, wrong = 0;

	st->pending = 0;
	for (k = 0; k < st->nev; k++) {
		i = skipws(s, n, i);
		v = 0;
		if (i < n && !number(s, n, &i, &v)) {
			bad(c, "bad totals: line");
			return;
		}
		if (!st->partover && v != st->part[k] && !wrong) {
			bad(c, "totals: says %llu %s, the cost lines add up "
			    "to %llu", (unsigned long long)v,
			    st->evt[st->evlist[k]].name,
			    (unsigned long long)st->part[k]);
			wrong = 1;
		}
	}
	if (skipws(s, n, i) < n && st->nev > 0)
		bad(c, "totals: has more values than events");
	memset(st->part, 0, sizeof(st->part));
	st->partover = 0;
}

/* ---- cost lines -------------------------------------------------------- */

static void
cost_line(struct fold_cg *c, const char *s, size_t n)
{
	struct fold_cg_st *st = c->st;
	uint64_t v[MAXEV], x;
	size_t i = 0;
	int k, nv = 0, expect = st->expect;

	st->expect = 0;
	for (k = 0; k < st->npos; k++) {
		i = skipws(s, n, i);
		if (i >= n)
			break;
		if (s[i] == '*') {
			i++;
		} else {
			if (s[i] == '+' || s[i] == '-')
				i++;
			if (!number(s, n, &i, &x)) {
				bad(c, "bad position");
				return;
			}
		}
		if (i < n && !isblank_((unsigned char)s[i])) {
			bad(c, "bad position");
			return;
		}
	}
	while ((i = skipws(s, n, i)) < n) {
		if (nv == st->nev) {
			if (st->nev == 0)
				bad(c, "a cost line before events:");
			else
				bad(c, "a cost line with more than %d costs "
				    "(events: names %d)", st->nev, st->nev);
			return;
		}
		if (!number(s, n, &i, &v[nv]) ||
		    (i < n && !isblank_((unsigned char)s[i]))) {
			bad(c, "bad cost");
			return;
		}
		nv++;
	}
	if (expect != 0)	/* a call's inclusive cost, a jump's source */
		return;
	if (nv == 0)
		return;
	if (st->cur == NONE) {
		if (!st->curbad)	/* else its fn= was reported */
			bad(c, "a cost line before any fn=");
		return;
	}
	st->pending = 1;
	for (k = 0; k < nv; k++) {
		if (st->part[k] > UINT64_MAX - v[k])
			st->partover = 1;
		st->part[k] += v[k];
		if (st->flags & FOLD_CG_LIST) {
			struct evtot *e = &st->evt[st->evlist[k]];

			if (e->total > UINT64_MAX - v[k])
				e->over = 1;
			e->total += v[k];
		}
	}
	if (st->ev >= 0 && st->ev < nv && !st->bad) {
		x = st->ctxs[st->cur].self;
		if (x > UINT64_MAX - v[st->ev]) {
			bad(c, "the cost of a function is past 2^64 - 1");
			return;
		}
		st->ctxs[st->cur].self = x + v[st->ev];
	}
}

/* calls=N POSITION, jump=N POSITION, jcnd=N/N POSITION: checked. */
static int
assoc_line(struct fold_cg *c, const char *s, size_t n, int jcnd)
{
	size_t i = skipws(s, n, 0);
	uint64_t v;

	if (!number(s, n, &i, &v))
		return 0;
	if (jcnd) {
		if (i >= n || s[i] != '/')
			return 0;
		i++;
		if (!number(s, n, &i, &v))
			return 0;
	}
	(void)c;
	return i == n || isblank_((unsigned char)s[i]);
}

/* ---- a line ------------------------------------------------------------ */

static int
key_is(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key);

	return n == k && memcmp(s, key, k) == 0;
}

void
fold_cg_line(struct fold_cg *c, const char *line, size_t len)
{
	struct fold_cg_st *st = c->st;
	const char *v;
	size_t k, vn;
	uint32_t x;
	int ch;

	st->lineno++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0 || line[0] == '#')
		return;
	ch = (unsigned char)line[0];
	if (isdig(ch) || ch == '+' || ch == '-' || ch == '*') {
		cost_line(c, line, len);
		return;
	}
	if (st->expect == 1) {
		bad(c, "calls= is not followed by its cost line");
		st->expect = 0;
	} else if (st->expect == 2) {
		bad(c, "jump= is not followed by its position line");
		st->expect = 0;
	}
	for (k = 0; k < len && line[k] != '=' && line[k] != ':'; k++)
		;
	if (k == len) {
		bad(c, "not a line of a callgrind profile");
		return;
	}
	v = line + k + 1;
	vn = len - k - 1;
	if (line[k] == ':') {
		while (k > 0 && isblank_((unsigned char)line[k - 1]))
			k--;
		vn -= skipws(v, vn, 0);
		v = line + len - vn;
		if (key_is(line, k, "events"))
			events(c, v, vn);
		else if (key_is(line, k, "positions"))
			positions(c, v, vn);
		else if (key_is(line, k, "totals"))
			totals(c, v, vn);
		else if (key_is(line, k, "summary"))
			st->summary = 1;
		/* any other header line (version, creator, cmd, desc...) */
		return;
	}
	if (key_is(line, k, "fn")) {
		/* the object of fn= is the function's, that of cfn= a guess
		 * of a caller's (its cob= or its own) */
		st->cur = x = fn_spec(c, v, vn);
		st->curbad = x == NONE;
		if (x != NONE && st->curobj != NONE)
			st->ctxs[x].obj = st->curobj;
	} else if (key_is(line, k, "cfn")) {
		x = fn_spec(c, v, vn);
		if (x != NONE && st->ctxs[x].obj == NONE)
			st->ctxs[x].obj = st->cobj != NONE ? st->cobj :
			    st->curobj;
		st->cobj = NONE;
	} else if (key_is(line, k, "jfn")) {
		(void)fn_spec(c, v, vn);
	} else if (key_is(line, k, "ob")) {
		st->curobj = ob_spec(c, v, vn);
		st->cobj = NONE;
	} else if (key_is(line, k, "cob")) {
		st->cobj = ob_spec(c, v, vn);
	} else if (key_is(line, k, "fl") || key_is(line, k, "fi") ||
	    key_is(line, k, "fe") || key_is(line, k, "cfi") ||
	    key_is(line, k, "cfl") || key_is(line, k, "jfi")) {
		fl_spec(c, v, vn);
	} else if (key_is(line, k, "calls")) {
		if (!assoc_line(c, v, vn, 0))
			bad(c, "bad calls= line");
		else
			st->expect = 1;
	} else if (key_is(line, k, "jump") || key_is(line, k, "jcnd")) {
		if (!assoc_line(c, v, vn, line[1] == 'c'))
			bad(c, "bad %.4s= line", line);
		else
			st->expect = 2;
	} else if (key_is(line, k, "ln") || key_is(line, k, "rec") ||
	    key_is(line, k, "frfn") || key_is(line, k, "bb")) {
		/* old or debugging output: nothing to count */
	} else
		bad(c, "unknown line %.*s=", (int)(k < 32 ? k : 32), line);
}

/* ---- the chains of a file ---------------------------------------------- */

static uint64_t
ids_hash(const uint32_t *ids, size_t n)
{
	return fold_hash(ids, n * sizeof(*ids));
}

static uint32_t
chain_find(const struct fold_cg_st *st, const uint32_t *ids, size_t n,
    uint64_t h)
{
	size_t i;
	const struct chain *ch;

	if (st->cslot == NULL)
		return NONE;
	for (i = h & st->cmask; st->cslot[i] != 0; i = (i + 1) & st->cmask) {
		ch = &st->chains[st->cslot[i] - 1];
		if (ch->h == h && ch->n == n &&
		    memcmp(st->cseq + ch->off, ids, n * sizeof(*ids)) == 0)
			return st->cslot[i] - 1;
	}
	return NONE;
}

/* The chain of ids (copied), added if new. */
static uint32_t
chain_add(struct fold_cg_st *st, const uint32_t *ids, size_t n)
{
	uint64_t h = ids_hash(ids, n);
	uint32_t k = chain_find(st, ids, n, h);
	struct chain *ch;
	size_t i, j;

	if (k != NONE)
		return k;
	if (st->cslot == NULL || 2 * (st->nch + 1) > st->cmask + 1) {
		st->cmask = st->cslot == NULL ? 255 : 2 * st->cmask + 1;
		free(st->cslot);
		while (2 * (st->nch + 1) > st->cmask + 1)
			st->cmask = 2 * st->cmask + 1;
		st->cslot = xcalloc(st->cmask + 1, sizeof(*st->cslot));
		for (j = 0; j < st->nch; j++) {
			for (i = st->chains[j].h & st->cmask; st->cslot[i];
			    i = (i + 1) & st->cmask)
				;
			st->cslot[i] = (uint32_t)j + 1;
		}
	}
	fold_grow(&st->chains, &st->chcap, st->nch + 1, sizeof(*st->chains));
	ch = &st->chains[st->nch];
	memset(ch, 0, sizeof(*ch));
	/* ids are never in cseq (the callers' own buffers) */
	fold_grow(&st->cseq, &st->seqcap, st->nseq + n, sizeof(*st->cseq));
	memcpy(st->cseq + st->nseq, ids, n * sizeof(*ids));
	ch->off = st->nseq;
	ch->n = (uint32_t)n;
	ch->h = h;
	ch->memo = NONE;
	st->nseq += n;
	for (i = h & st->cmask; st->cslot[i]; i = (i + 1) & st->cmask)
		;
	st->cslot[i] = (uint32_t)st->nch + 1;
	return (uint32_t)st->nch++;
}

static uint32_t
name_id(struct fold_cg_st *st, const char *s, size_t n)
{
	int isnew;
	uint32_t k = fold_intern(&st->names, s, n, &isnew);

	if (isnew) {
		fold_grow(&st->nameobj, &st->namecap, (size_t)k + 1,
		    sizeof(*st->nameobj));
		fold_grow(&st->rend, &st->rendcap, (size_t)k + 1,
		    sizeof(*st->rend));
		st->nameobj[k] = NONE;
		st->rend[k] = NONE;
	}
	return k;
}

/* The right-to-left hash of bytes (see split()). */
#define RK 0x100000001b3ULL

static uint64_t
rhash(const char *s, size_t n)
{
	uint64_t h = 0;

	while (n-- > 0)
		h = (unsigned char)s[n] + RK * h;
	return h;
}

struct norm {
	const char *s;		/* the name without its level: the context's */
	size_t off, len;	/* name, or (when it had one) in buf at off */
	size_t dl;		/* the length before its last "'", or 0 */
	uint64_t h, dh, rh;	/* fold_hash() of it and of dl bytes, rhash() */
	int inbuf;
};

/* A table of contexts by a hash of (a part of) their names. */
struct ntab {
	uint32_t *slot;		/* index + 1; 0: empty */
	size_t mask;
};

/*
 * The context whose name's first len bytes (which: 0 the whole name, 1
 * up to the last "'", 2 the whole name by rhash) hash to h and are s, or
 * NONE; add: put k there when there is none.
 */
static uint32_t
ntab_get(struct ntab *t, const struct norm *nm, int which, uint64_t h,
    const char *s, size_t len, uint32_t add)
{
	size_t i;
	uint32_t r;

	for (i = h & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask) {
		r = t->slot[i] - 1;
		if ((which == 0 ? nm[r].h : which == 2 ? nm[r].rh :
		    nm[r].dh) == h &&
		    (which == 1 ? nm[r].dl : nm[r].len) == len &&
		    memcmp(nm[r].s, s, len) == 0)
			return r;
	}
	if (add != NONE)
		t->slot[i] = add + 1;
	return NONE;
}

static void
ntab_init(struct ntab *t, size_t n)
{
	t->mask = 15;
	while (t->mask + 1 < 2 * n)
		t->mask = 2 * t->mask + 1;
	t->slot = xcalloc(t->mask + 1, sizeof(*t->slot));
}

/* The table of names by their start up to their last "'". */
static void
start_table(struct ntab *t, struct norm *nm, uint32_t nctx)
{
	uint32_t k;
	size_t i;

	ntab_init(t, nctx);
	for (k = 0; k < nctx; k++) {
		for (i = nm[k].len; i > 0 && nm[k].s[i - 1] != '\''; i--)
			;
		nm[k].dl = i > 1 ? i - 1 : 0;
		if (nm[k].dl > 0) {
			nm[k].dh = fold_hash(nm[k].s, nm[k].dl);
			(void)ntab_get(t, nm, 1, nm[k].dh, nm[k].s, nm[k].dl,
			    k);
		}
	}
}

static const struct norm *sort_norm;

static int
bylen(const void *a, const void *b)
{
	size_t x = sort_norm[*(const uint32_t *)a].len;
	size_t y = sort_norm[*(const uint32_t *)b].len;

	return x < y ? -1 : x > y;
}

/*
 * The level of a context name: [*b, *e) is "'DIGITS" after the callee,
 * looked for at its first "'" (a callee with "'" inside keeps its level
 * here: split() drops it from the callee's name).
 */
static int
level(const char *s, size_t n, size_t *b, size_t *e)
{
	const char *q;
	size_t i, j;

	if (n < 3 || (q = memchr(s + 1, '\'', n - 2)) == NULL)
		return 0;
	i = (size_t)(q - s);
	for (j = i + 1; j < n && isdig((unsigned char)s[j]); j++)
		;
	if (j == i + 1 || (j < n && s[j] != '\''))
		return 0;
	*b = i;
	*e = j;
	return 1;
}

/*
 * Context names without --compress-mangled: "callee['LEVEL]'caller'...".
 * The level (the first piece of digits after the callee) is dropped; the
 * callee ends at the first "'" after which the rest is another context's
 * name (its caller's context): one lookup when the callee has no "'".
 * Failing that, a context whose rest is the start of another's name up to
 * its last "'" is cut (its caller's context has one more caller), and
 * split at each "'"; else each "'" is tried, from the left, by a hash of
 * each suffix made in one pass from the right (a name with "'" inside).
 * The chain is the callee then the rest's context's chain (contexts are
 * done shortest first); a name with no "'" is one function.
 */
static void
split(struct fold_cg_st *st, uint32_t nctx)
{
	struct norm *nm = xmalloc(((size_t)nctx + 1) * sizeof(*nm));
	uint32_t *order = xmalloc(((size_t)nctx + 1) * sizeof(*order));
	uint32_t *ids = NULL, best, found, r, k, rc;
	size_t i, j, p, q, nb = 0, cap = 0, idcap = 0, nids, bj, lb, le;
	struct ntab whole, start = { NULL, 0 }, rtab = { NULL, 0 };
	const char *t, *t0;
	char *buf = NULL;
	struct fold_str s;
	uint64_t h;
	size_t L;

	/* the names without their level */
	for (k = 0; k < nctx; k++) {
		s = fold_intern_str(&st->cx, k);
		nm[k].inbuf = level(s.s, s.len, &lb, &le);
		nm[k].s = s.s;
		nm[k].len = s.len;
		if (nm[k].inbuf) {
			fold_grow(&buf, &cap, nb + s.len + 1, 1);
			memcpy(buf + nb, s.s, lb);
			memcpy(buf + nb + lb, s.s + le, s.len - le);
			nm[k].len = s.len - (le - lb);
			nm[k].off = nb;
			nb += nm[k].len;
		}
		order[k] = k;
	}
	/* the names with a level dropped: a table of their own (the others
	 * are found in cx, as they were read) */
	ntab_init(&whole, nb > 0 ? nctx : 1);
	for (k = 0; k < nctx; k++)
		if (nm[k].inbuf) {
			nm[k].s = buf + nm[k].off;
			nm[k].h = fold_hash(nm[k].s, nm[k].len);
			(void)ntab_get(&whole, nm, 0, nm[k].h, nm[k].s,
			    nm[k].len, k);
		}
	sort_norm = nm;
	qsort(order, nctx, sizeof(*order), bylen);
	for (q = 0; q < nctx; q++) {
		k = order[q];
		t = nm[k].s;
		L = nm[k].len;
		best = found = NONE;
		bj = 0;
		p = 0;
		if (L > 2 && (t0 = memchr(t + 1, '\'', L - 2)) != NULL) {
			p = (size_t)(t0 - t);
			h = fold_hash(t + p + 1, L - p - 1);
			best = fold_intern_find_h(&st->cx, t + p + 1, L - p - 1, h);
			if (best != NONE && st->ctxs[best].composite)
				best = NONE;
			if (best == NONE && nb > 0)
				best = ntab_get(&whole, nm, 0, h, t + p + 1,
				    L - p - 1, NONE);
			bj = p;
			if (best == NONE && start.slot == NULL)
				start_table(&start, nm, nctx);
			if (best == NONE && ntab_get(&start, nm, 1, h, t + p + 1,
			    L - p - 1, NONE) != NONE)
				p = 0;	/* cut */
		}
		if (best == NONE && p > 0 && rtab.slot == NULL) {
			ntab_init(&rtab, nctx);
			for (j = 0; j < nctx; j++) {
				nm[j].rh = rhash(nm[j].s, nm[j].len);
				(void)ntab_get(&rtab, nm, 2, nm[j].rh, nm[j].s,
				    nm[j].len, (uint32_t)j);
			}
		}
		h = 0;
		for (j = L; best == NONE && p > 0 && j-- > 1;) {
			/* h is the rhash of t[j + 1 .. L); the leftmost wins */
			if (t[j] == '\'' && j + 1 < L &&
			    (r = ntab_get(&rtab, nm, 2, h, t + j + 1, L - j - 1,
			    NONE)) != NONE) {
				found = r;
				bj = j;
			}
			h = (unsigned char)t[j] + RK * h;
		}
		if (found != NONE)
			best = found;
		nids = 0;
		if (best != NONE && (rc = st->ctxs[best].chain) != NONE) {
			fold_grow(&ids, &idcap, (size_t)st->chains[rc].n + 1,
			    sizeof(*ids));
			/* a level left after a callee with "'" inside */
			for (i = bj; i > 1 && isdig((unsigned char)t[i - 1]); i--)
				;
			if (i < bj && i > 1 && t[i - 1] == '\'' && !nm[k].inbuf)
				bj = i - 1;
			ids[0] = name_id(st, t, bj);
			memcpy(ids + 1, st->cseq + st->chains[rc].off,
			    st->chains[rc].n * sizeof(*ids));
			nids = st->chains[rc].n + 1u;
		} else {
			for (i = 0, p = 0; i <= L; i++) {
				if (i < L && (t[i] != '\'' || i == 0 ||
				    i + 1 >= L || t[i - 1] == '\'' ||
				    t[i + 1] == '\''))
					continue;
				fold_grow(&ids, &idcap, nids + 1, sizeof(*ids));
				ids[nids++] = name_id(st, t + p, i - p);
				p = i + 1;
			}
		}
		st->ctxs[k].chain = chain_add(st, ids, nids);
	}
	free(ids);
	free(whole.slot);
	free(start.slot);
	free(rtab.slot);
	free(order);
	free(nm);
	free(buf);
}

/* Every context's chain, and the self costs summed by chain. */
static void
chains(struct fold_cg_st *st)
{
	uint32_t nctx = (uint32_t)fold_intern_count(&st->cx), k, x, *ids = NULL;
	size_t n, i, cap = 0;
	struct fold_str s;

	if (!st->composites)
		split(st, nctx);
	else
		for (k = 0; k < nctx; k++) {
			s = fold_intern_str(&st->cx, k);
			if (!st->ctxs[k].composite) {
				x = name_id(st, s.s, s.len);
				st->ctxs[k].chain = chain_add(st, &x, 1);
				continue;
			}
			n = (s.len - 1) / 4;
			fold_grow(&ids, &cap, n, sizeof(*ids));
			for (i = 0; i < n; i++) {
				memcpy(&x, s.s + 1 + 4 * i, 4);
				s = fold_intern_str(&st->cx, x);
				ids[i] = name_id(st, s.s, s.len);
				s = fold_intern_str(&st->cx, k);
			}
			st->ctxs[k].chain = chain_add(st, ids, n);
		}
	free(ids);
	for (k = 0; k < nctx; k++) {
		struct chain *ch = &st->chains[st->ctxs[k].chain];
		uint32_t f = st->cseq[ch->off];

		if (st->ctxs[k].obj != NONE)
			st->nameobj[f] = st->ctxs[k].obj;
		/* sums of parts of one chain stay below 2^64: checked */
		if (ch->self > UINT64_MAX - st->ctxs[k].self)
			ch->self = UINT64_MAX;
		else
			ch->self += st->ctxs[k].self;
	}
}

/* ---- stacks ------------------------------------------------------------ */

static int
unnamed(const char *s, size_t n, int *hex)
{
	size_t i;

	*hex = 0;
	if (n == 3 && memcmp(s, "???", 3) == 0)
		return 1;
	if (n < 3 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return 0;
	*hex = 1;
	return 1;
}

/* A name as it is written in a stack: its rnames id. */
static uint32_t
render(struct fold_cg_st *st, uint32_t name)
{
	struct fold_str s, o;
	char *dm = NULL;
	size_t n, i, b;
	int hex;

	if (st->rend[name] != NONE)
		return st->rend[name];
	s = fold_intern_str(&st->names, name);
	if ((st->flags & FOLD_CG_DEMANGLE) && s.len > 1 &&
	    s.s[0] == '_' && s.len < FOLD_DM_MAXOUT) {
		dm = xmalloc(FOLD_DM_MAXOUT);
		if ((n = fold_demangle(s.s, s.len, dm, FOLD_DM_MAXOUT,
		    FOLD_DM_PARAMS)) > 0) {
			s.s = dm;
			s.len = n;
		}
	}
	fold_grow(&st->rb, &st->rbcap, s.len + 8, 1);
	if ((st->flags & FOLD_CG_OBJECTS) && unnamed(s.s, s.len, &hex) &&
	    st->nameobj[name] != NONE) {
		o = fold_intern_str(&st->objs, st->nameobj[name]);
		for (b = o.len; b > 0 && o.s[b - 1] != '/'; b--)
			;
		fold_grow(&st->rb, &st->rbcap, o.len - b + s.len + 8, 1);
		n = 0;
		st->rb[n++] = '[';
		memcpy(st->rb + n, o.s + b, o.len - b);
		n += o.len - b;
		if (hex) {
			memcpy(st->rb + n, " <", 2);
			memcpy(st->rb + n + 2, s.s, s.len);
			n += s.len + 2;
			st->rb[n++] = '>';
		}
		st->rb[n++] = ']';
	} else {
		memcpy(st->rb, s.s, s.len);
		n = s.len;
	}
	for (i = 0; i < n && (st->rb[i] == ' ' || st->rb[i] == '\t'); i++)
		;
	if (i == n) {		/* an empty or blank name: not a stack */
		fold_grow(&st->rb, &st->rbcap, 16, 1);
		memcpy(st->rb, "[unknown]", 9);
		n = 9;
	}
	for (i = 0; i < n; i++)
		if (st->rb[i] == ';')
			st->rb[i] = ':';
		else if (st->rb[i] == '\n' || st->rb[i] == '\r')
			st->rb[i] = ' ';
	free(dm);
	st->rend[name] = fold_intern(&st->rnames, st->rb, n, NULL);
	return st->rend[name];
}

/*
 * A stack is kept as its frames, root first, each an rnames id (4 bytes,
 * as the machine has them), interned in keys: made in fb.  The frames
 * become sort ranks when they are printed (fold_cg_print()).
 */
static uint32_t *
fb_room(struct fold_cg_st *st, size_t n, size_t more)
{
	fold_grow(&st->fb, &st->fbcap, n + more, sizeof(*st->fb));
	return st->fb + n;
}

/* The stack of fb[0..n) interned: its keys id. */
static uint32_t
stack_id(struct fold_cg_st *st, size_t n)
{
	int isnew;
	uint32_t k = fold_intern(&st->keys, (const char *)st->fb,
	    n * sizeof(*st->fb), &isnew);

	if (isnew) {
		fold_grow(&st->counts, &st->countcap, (size_t)k + 1,
		    sizeof(*st->counts));
		st->counts[k] = 0;
	}
	return k;
}

/* The frames of chain c, root first, after n frames of fb: how many. */
static size_t
put_chain(struct fold_cg_st *st, size_t n, uint32_t c)
{
	const struct chain *ch = &st->chains[c];
	uint32_t j, *o = fb_room(st, n, ch->n);

	for (j = ch->n; j-- > 0;)
		*o++ = render(st, st->cseq[ch->off + j]);
	return n + ch->n;
}

/* Chains of N + 1 functions by their first N: the first and how many. */
struct pref {
	uint64_t h;
	uint32_t chain, count;
};

static uint32_t
pref_find(const struct pref *pt, size_t mask, const struct fold_cg_st *st,
    const uint32_t *ids, size_t n, uint64_t h, int add, uint32_t c)
{
	size_t i;
	const struct chain *ch;

	for (i = h & mask; pt[i].count != 0; i = (i + 1) & mask) {
		ch = &st->chains[pt[i].chain];
		if (pt[i].h == h &&
		    memcmp(st->cseq + ch->off, ids, n * sizeof(*ids)) == 0)
			return (uint32_t)i;
	}
	if (!add)
		return NONE;
	((struct pref *)pt)[i].h = h;
	((struct pref *)pt)[i].chain = c;
	return (uint32_t)i;
}

/*
 * The stack of chain c (its memo): a chain of fewer than N + 1 functions,
 * or whose callers are a chain of the file, is whole as it is; one of
 * N + 1 functions whose callers are the first N of exactly one chain of
 * N + 1 is completed through that one (a walk up such chains, each seen
 * once); else it is cut: its frames under CUTFRAME.
 */
static void
stack_of(struct fold_cg_st *st, uint32_t c, uint32_t N, const struct pref *pt,
    size_t pmask)
{
	struct chain *ch, *up;
	size_t np = 0, len;
	uint32_t cur = c, i, w = ++st->walk;
	struct fold_str r;
	uint64_t h;

	for (;;) {
		ch = &st->chains[cur];
		if (ch->memo != NONE)
			break;
		fold_grow(&st->path, &st->pathcap, np + 1, sizeof(*st->path));
		st->path[np++] = cur;
		ch->stamp = w;
		if (ch->n < N + 1 || chain_find(st, st->cseq + ch->off + 1,
		    ch->n - 1, ids_hash(st->cseq + ch->off + 1, ch->n - 1)) !=
		    NONE) {
			ch->memo = stack_id(st, put_chain(st, 0, cur));
			ch->depth = ch->n;
			np--;
			break;
		}
		h = ids_hash(st->cseq + ch->off + 1, N);
		i = pref_find(pt, pmask, st, st->cseq + ch->off + 1, N, h, 0, 0);
		if (i == NONE || pt[i].count != 1 ||
		    st->chains[pt[i].chain].stamp == w) {
			*fb_room(st, 0, 1) = st->cutname;
			ch->memo = stack_id(st, put_chain(st, 1, cur));
			ch->depth = ch->n;
			ch->cut = 1;
			np--;
			break;
		}
		cur = pt[i].chain;
	}
	/* each below: its caller's stack, then its function */
	while (np-- > 0) {
		ch = &st->chains[st->path[np]];
		up = &st->chains[cur];
		r = fold_intern_str(&st->keys, up->memo);
		len = r.len / sizeof(*st->fb);
		memcpy(fb_room(st, 0, len + 1), r.s, r.len);
		st->fb[len] = render(st, st->cseq[ch->off]);
		ch->memo = stack_id(st, len + 1);
		ch->depth = up->depth + 1;
		ch->cut = up->cut;
		ch->done = 1;
		cur = st->path[np];
	}
}

static void
add_count(struct fold_cg *c, uint32_t t, uint64_t v)
{
	struct fold_cg_st *st = c->st;

	if (st->counts[t] > UINT64_MAX - v) {
		c->status = 1;
		fold_warn("%s: the sum of a stack is past 2^64 - 1", st->name);
		return;
	}
	st->counts[t] += v;
}

/* The file's chains to stacks. */
static void
resolve(struct fold_cg *c)
{
	struct fold_cg_st *st = c->st;
	struct chain *ch;
	struct pref *pt = NULL;
	size_t pmask = 15, k;
	uint32_t N = 0, i;
	uint64_t cutcost = 0, total = 0, h;
	size_t ncut = 0, ndone = 0;
	uint32_t need = 0;
	const char *evn;

	chains(st);
	fold_intern_free(&st->cx);	/* the names are in chains now */
	fold_intern_init(&st->cx);
	for (k = 0; k < st->nch; k++)
		if (st->chains[k].n - 1 > N)
			N = st->chains[k].n - 1;
	if (N == 0) {
		for (k = 0; k < st->nch; k++) {
			ch = &st->chains[k];
			if (ch->self == 0)
				continue;
			*fb_room(st, 0, 1) = render(st, st->cseq[ch->off]);
			add_count(c, stack_id(st, 1), ch->self);
		}
		if (st->nch > 0 && !st->warned_noctx &&
		    !(st->flags & FOLD_CG_QUIET)) {
			st->warned_noctx = 1;
			fold_warn("%s: no call contexts in this profile: each "
			    "function is alone with its self cost (record "
			    "with valgrind --tool=callgrind "
			    "--separate-callers=50 for stacks)", st->name);
		}
		return;
	}
	/* chains of N + 1 by their first N functions */
	while (pmask + 1 < 2 * st->nch)
		pmask = 2 * pmask + 1;
	pt = xcalloc(pmask + 1, sizeof(*pt));
	for (k = 0; k < st->nch; k++) {
		ch = &st->chains[k];
		if (ch->n != N + 1)
			continue;
		h = ids_hash(st->cseq + ch->off, N);
		i = pref_find(pt, pmask, st, st->cseq + ch->off, N, h, 1,
		    (uint32_t)k);
		pt[i].count++;
	}
	for (k = 0; k < st->nch; k++) {
		ch = &st->chains[k];
		if (ch->self == 0)
			continue;
		stack_of(st, (uint32_t)k, N, pt, pmask);
		ch = &st->chains[k];
		add_count(c, ch->memo, ch->self);
		total += ch->self;
		if (ch->cut) {
			cutcost += ch->self;
			ncut++;
			if (ch->depth > need)
				need = ch->depth;
		} else if (ch->done)
			ndone++;
	}
	free(pt);
	if (ncut > 0 && !(st->flags & FOLD_CG_QUIET)) {
		evn = st->ev >= 0 && st->nev > 0 ?
		    st->evt[st->evlist[st->ev]].name : "";
		fold_warn("%s: %llu of %llu %s (%.1f%%), in %zu contexts, "
		    "under " CUTFRAME ": their callers are cut at %u and do "
		    "not follow from the file; record with "
		    "--separate-callers=%u or more for whole stacks%s",
		    st->name, (unsigned long long)cutcost,
		    (unsigned long long)total, evn,
		    total ? 100.0 * (double)cutcost / (double)total : 0.0,
		    ncut, N, need > N ? need : N + 1,
		    ndone > 0 ? " (others were completed: one calling "
		    "context fits)" : "");
	}
}

/* ---- files ------------------------------------------------------------- */

struct fold_cg *
fold_cg_new(unsigned flags, const char *ev, int nfiles)
{
	struct fold_cg *c = xcalloc(1, sizeof(*c));
	struct fold_cg_st *st = xcalloc(1, sizeof(*st));

	c->st = st;
	st->flags = flags;
	st->evname = ev != NULL ? xstrdup(ev) : NULL;
	st->nfiles = nfiles;
	fold_intern_init(&st->names);
	fold_intern_init(&st->rnames);
	fold_intern_init(&st->objs);
	fold_intern_init(&st->keys);
	st->cutname = fold_intern(&st->rnames, CUTFRAME, sizeof(CUTFRAME) - 1,
	    NULL);
	return c;
}

void
fold_cg_begin(struct fold_cg *c, const char *name)
{
	struct fold_cg_st *st = c->st;

	st->name = name;
	st->lineno = 0;
	st->nerr = 0;
	st->bad = 0;
	fold_intern_init(&st->cx);
	st->cur = st->curobj = st->cobj = NONE;
	st->curbad = 0;
	st->expect = 0;
	st->npos = 1;
	st->nev = 0;
	st->ev = -1;
	memset(st->part, 0, sizeof(st->part));
	st->partover = 0;
	st->summary = st->pending = 0;
	st->composites = 0;
	st->nseq = st->nch = 0;
	st->nevt = 0;
}

static void
end_tables(struct fold_cg_st *st)
{
	idmap_free(&st->fnids);
	idmap_free(&st->flids);
	idmap_free(&st->obids);
	fold_intern_free(&st->cx);
	free(st->cslot);
	st->cslot = NULL;
	st->cmask = 0;
}

void
fold_cg_end(struct fold_cg *c, int nonl)
{
	struct fold_cg_st *st = c->st;
	size_t k;

	if (nonl)
		bad(c, "the last line has no newline: the file is cut short");
	else if (st->expect == 1)
		bad(c, "the file ends after calls=, without its cost line");
	else if (st->summary && st->pending)
		bad(c, "no totals: line after the last costs: the file is "
		    "cut short");
	if (st->nerr > MAXERR)
		fold_warn("%s: %llu more bad lines", st->name,
		    (unsigned long long)(st->nerr - MAXERR));
	if (st->flags & FOLD_CG_LIST) {
		if (st->nfiles > 1)
			fo_printf("%s:\n", st->name);
		for (k = 0; k < st->nevt; k++) {
			fo_printf("%s ", st->evt[k].name);
			if (st->evt[k].over)
				fo_puts("past 2^64 - 1");
			else
				fo_u64(st->evt[k].total);
			fo_putc('\n');
		}
	} else
		resolve(c);
	for (k = 0; k < st->nevt; k++)
		free(st->evt[k].name);
	st->nevt = 0;
	end_tables(st);
}

void
fold_cg_run(struct fold_cg *c, int nfiles, char **files)
{
	static char *dash[] = { "-" };
	struct fold_in in;
	const char *line;
	size_t len;
	int i, nonl;

	if (nfiles == 0) {
		nfiles = 1;
		files = dash;
	}
	for (i = 0; i < nfiles; i++) {
		fold_in_init(&in, 1, files + i);
		nonl = 0;
		if (fold_in_line(&in, &line, &len)) {
			fold_cg_begin(c, in.name);
			do {
				fold_cg_line(c, line, len);
				nonl = in.nonl;
			} while (fold_in_line(&in, &line, &len));
			fold_cg_end(c, nonl);
		} else if (!in.status) {
			fold_cg_begin(c, in.name);
			fold_cg_end(c, 0);
		}
		if (in.status)
			c->status = 1;
		fold_in_free(&in);
	}
}

/*
 * Byte order of stacks is the order of their frames, each frame compared
 * as its name followed by ';', or by nothing when it is the last: a token
 * each (2 * rnames id + last), ranked once.
 */
static const struct fold_intern *tok_names;

static int
bytoken(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	struct fold_str p = fold_intern_str(tok_names, x / 2);
	struct fold_str q = fold_intern_str(tok_names, y / 2);
	size_t n = p.len < q.len ? p.len : q.len;
	int r = memcmp(p.s, q.s, n), u, v;

	if (r != 0)
		return r;
	/* after the common bytes: the next byte, ';' or the end (-1) */
	u = p.len > n ? (unsigned char)p.s[n] : (x & 1) ? -1 : ';';
	v = q.len > n ? (unsigned char)q.s[n] : (y & 1) ? -1 : ';';
	if (u != v)
		return u < v ? -1 : 1;
	if (p.len == q.len)
		return (x & 1) == (y & 1) ? 0 : (x & 1) ? -1 : 1;
	return p.len < q.len ? -1 : 1;
}

void
fold_cg_print(struct fold_cg *c)
{
	struct fold_cg_st *st = c->st;
	size_t n = fold_intern_count(&st->keys), k, m = 0, j, nf;
	size_t nr = fold_intern_count(&st->rnames);
	uint32_t *ids = xmalloc((n + 1) * sizeof(*ids));
	uint32_t *tok = xmalloc((2 * nr + 1) * sizeof(*tok));
	uint32_t *rank = xmalloc((2 * nr + 1) * sizeof(*rank));
	unsigned char *b;
	struct fold_str s, r;
	uint32_t x;
	size_t len;
	char *o;

	for (k = 0; k < 2 * nr; k++)
		tok[k] = (uint32_t)k;
	tok_names = &st->rnames;
	qsort(tok, 2 * nr, sizeof(*tok), bytoken);
	for (k = 0; k < 2 * nr; k++)
		rank[tok[k]] = (uint32_t)k;
	/* each stack's frames become their ranks, big-endian: in place, as
	 * the keys are not looked up again */
	for (k = 0; k < n; k++) {
		if (st->counts[k] == 0)
			continue;
		ids[m++] = (uint32_t)k;
		s = fold_intern_str(&st->keys, (uint32_t)k);
		b = (unsigned char *)(uintptr_t)s.s;
		nf = s.len / 4;
		for (j = 0; j < nf; j++) {
			memcpy(&x, b + 4 * j, 4);
			x = rank[2 * x + (j + 1 == nf)];
			b[4 * j] = (unsigned char)(x >> 24);
			b[4 * j + 1] = (unsigned char)(x >> 16);
			b[4 * j + 2] = (unsigned char)(x >> 8);
			b[4 * j + 3] = (unsigned char)x;
		}
	}
	free(rank);
	fold_sort_names(ids, m, &st->keys);
	for (k = 0; k < m; k++) {
		s = fold_intern_str(&st->keys, ids[k]);
		b = (unsigned char *)(uintptr_t)s.s;
		nf = s.len / 4;
		/* the ranks back to names, in place: rnames ids */
		for (j = 0, len = 24; j < nf; j++) {
			x = (uint32_t)b[4 * j] << 24 | (uint32_t)b[4 * j + 1] << 16 |
			    (uint32_t)b[4 * j + 2] << 8 | b[4 * j + 3];
			x = tok[x] / 2;
			memcpy(b + 4 * j, &x, 4);
			len += fold_intern_str(&st->rnames, x).len + 1;
		}
		if ((o = fo_room(len)) == NULL) {	/* longer than the buffer */
			for (j = 0; j < nf; j++) {
				memcpy(&x, b + 4 * j, 4);
				r = fold_intern_str(&st->rnames, x);
				if (j > 0)
					fo_putc(';');
				fo_write(r.s, r.len);
			}
			fo_putc(' ');
			fo_u64(st->counts[ids[k]]);
			fo_putc('\n');
			continue;
		}
		for (j = 0; j < nf; j++) {
			memcpy(&x, b + 4 * j, 4);
			r = fold_intern_str(&st->rnames, x);
			if (j > 0)
				*o++ = ';';
			memcpy(o, r.s, r.len);
			o += r.len;
		}
		*o++ = ' ';
		o += fold_fmt_u64(o, st->counts[ids[k]]);
		*o++ = '\n';
		fo_wrote(o);
	}
	free(tok);
	free(ids);
}

int
fold_cg_free(struct fold_cg *c)
{
	struct fold_cg_st *st = c->st;
	int status = c->status;
	size_t k;

	for (k = 0; k < st->nevt; k++)
		free(st->evt[k].name);
	free(st->evt);
	free(st->evname);
	free(st->ctxs);
	free(st->kb);
	free(st->cseq);
	free(st->chains);
	free(st->cslot);
	free(st->nameobj);
	free(st->rend);
	free(st->counts);
	free(st->rb);
	free(st->path);
	fold_intern_free(&st->names);
	fold_intern_free(&st->rnames);
	fold_intern_free(&st->objs);
	fold_intern_free(&st->keys);
	free(st->fb);
	free(st);
	free(c);
	return status;
}
