/*
 * xctrace.c - xctrace export XML to folded stacks (see xctrace.h).
 *
 * The XML comes as events; a context per open element says what it is to
 * us (a row, a cell of a column we use, a backtrace, a frame...), and a
 * subtree we do not use is passed over by depth alone.  Each element we
 * use that carries id= leaves its value in an id table when it ends (a
 * frame its name id, a backtrace its stack id, a weight its number...);
 * a ref= element takes the value from there.  A distinct backtrace is
 * made once: its frame ids, root first, interned as bytes; a row adds to
 * the count of its stack (with PID or TID: of the pair root frame,
 * stack).  Counts go to per-input sums first, added to the totals when
 * the input is not refused.  The folded text is made only when printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "markup/markup.h"
#include "symbols/symbols.h"
#include "xctrace/xctrace.h"

extern char **environ;

#define NONE ((uint32_t)-1)
#define MAXCOLS 64
#define MAXSHORT 128		/* mnemonics, numbers, a process name */

/* what an open element is to us */
enum {
	K_SKIP,			/* not used: its subtree is passed over */
	K_ROOT, K_NODE, K_SCHEMA, K_COL, K_MNEMONIC, K_ETYPE, K_ROW,
	K_BT,			/* <backtrace> */
	K_TBT,			/* <tagged-backtrace> */
	K_SENTINEL,
	K_FRAME, K_BINARY,
	K_WEIGHT,		/* the weight cell: a number */
	K_THREAD, K_PROCESS, K_TID, K_PID
};
static const char *const kname[] = {
	"", "trace-query-result", "node", "schema", "col", "mnemonic",
	"engineering-type", "row", "backtrace", "tagged-backtrace", "sentinel",
	"frame", "binary", "weight", "thread", "process", "tid", "pid"
};

/* the role of a column */
enum { R_NONE, R_STACK, R_WEIGHT, R_THREAD, R_PROCESS };

/*
 * id table: the value of each element kept, by its id.  xctrace numbers
 * the elements it writes from 1, in writing order: the ids are small and
 * dense, so each has a slot in an array indexed by the id itself (4 bytes:
 * kind << 27 | value, or its index in vals for the few elements with a
 * number).  The array grows to cover an id only below 8 times the ids
 * kept plus 2^16, so that its memory grows with the elements kept, never
 * with how large an id is; any other id goes to an open-addressing table
 * on a hash of it.  Values are below 2^27 - 1 (frame, binary or stack ids);
 * 0 is an empty slot.
 */
struct ident {
	uint32_t id;
	uint32_t ka;			/* as a slot of the array */
};
#define KAKIND(ka) ((int)((ka) >> 27))
#define IDNONE 0x7ffffffu		/* NONE, stored */
#define KAVAL(ka) (((ka) & IDNONE) == IDNONE ? NONE : (ka) & IDNONE)
/* the second reader's values from the first half: index of the id */
#define EXTBIT (1u << 26)
#define XKIND(k) (16 + (k))		/* its kind in the id table */
#define DENSE_SLACK 65536u

struct ctx {
	int kind;
	int ref;			/* a ref= element */
	uint64_t id;			/* id= (0: none; ids are kept +1) */
	uint32_t a;			/* the value being made */
	uint64_t b;
	int set;			/* a set (by a child, or a ref) */
	int has;			/* a <pid> or <tid> child gave b */
};

struct fold_xctrace_st {
	unsigned flags;
	const char *name;		/* the input being read */
	struct fold_xml xml;
	char why[512];

	struct ctx cx[FOLD_XML_MAXDEPTH + 2];
	struct fold_xml_head hframe, hbinary, hbt;	/* fast(): refs */
	struct fold_xml_head rowh[MAXCOLS];	/* row_fast(): cell forms */
	unsigned skip;			/* > 0: inside a skipped subtree
					   opened at this depth */

	/* the table being read */
	int roles[MAXCOLS];
	int ncols, schema, rows;	/* rows: a row seen in this node */
	int refused;			/* the input is refused */
	char mnem[MAXSHORT], etype[MAXSHORT], schname[MAXSHORT];
	size_t mlen, elen;
	int col;			/* the cell being read */
	int nodes;

	/* the row being read */
	uint32_t rstack;		/* its stack, NONE: none */
	uint32_t rtproc, rproc;		/* its thread's process, its process
					   (root frames "NAME-PID") */
	uint64_t rtid;			/* its thread's tid + 1, 0: none */
	uint64_t rweight;
	int rhasw;

	/* text of a number element */
	char num[MAXSHORT];
	size_t numlen;
	int numbig;
	/* the process being read: its name, pid */
	char pname[MAXSHORT];
	size_t plen;

	/* frames of the backtrace being read, leaf first */
	uint32_t *bt;
	size_t nbt, btcap;

	uint32_t *dense;		/* by id */
	size_t dcap;
	struct ident *ids;		/* the rest, hashed */
	size_t idmask, nhash, nids;
	uint64_t *vals;
	size_t nvals, vcap;

	/* frame names: raw name -> frame id */
	struct fold_intern raw;
	uint32_t *raw2f;
	size_t r2cap;
	struct fold_intern frames;
	int named;			/* this input: a frame had a symbol */
	size_t nframes;			/* this input: frames read */
	char *nb;			/* a name being made */
	size_t nbcap;

	struct fold_intern stacks;	/* frame id sequences, root first */
	struct fold_intern keys;	/* PID/TID: (root frame, stack) */

	/* sums by key (stack id, or keys' id) */
	uint64_t *n, *w;		/* totals */
	uint64_t *pn, *pw;		/* this input */
	size_t ncap, pcap;
	uint32_t *touched;
	size_t ntouched, tcap;
	/* stacks a second reader counted, in these frames, not interned:
	 * added to the stacks at the output (sorted with them) */
	uint32_t *xseq;			/* their frames, root first */
	size_t nxseq, xseqcap;
	struct pend { size_t at, len; uint64_t n; } *pend;
	size_t npend, pendcap;
	size_t npend0, nxseq0;		/* at the start of this input */
	uint64_t psent;			/* this input: rows not folded */

	/* a mapped input: the pages this reader reads read in ahead and
	 * given back behind it, between rows */
	const struct fold_padded *pm;
	struct fold_window win;
	unsigned rowtick;

	/* the two readers (see split()) */
	int watch;			/* stopat, jumpto or cancel is set */
	uint64_t stopat;		/* first: stop there, between rows */
	uint64_t jumpto;		/* second: go on there after the schema */
	int spec;			/* second: ids not seen are kept */
	uint64_t jumpat;		/* second: where it jumped */
	size_t dslack;			/* the id table's room (DENSE_SLACK) */
	uint64_t idlo, idhi;		/* the ids given, lowest and highest */
	unsigned tick;			/* second: events since cancel read */
	atomic_int *cancel;		/* second: the first says stop */
	struct fold_pair *pair;		/* a second thread, once one was
					   wanted (made once: fold_pair_new()) */
	uint32_t *extid;		/* their ids, kinds, rows counted */
	unsigned char *extkind;
	uint64_t *extn;
	size_t next, extcap;
};

/* ---- messages ---------------------------------------------------------- */

static int FOLD_PRINTF(2, 3)
bad(struct fold_xctrace_st *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* A refusal: the input is not what we read; nothing of it counts. */
static int FOLD_PRINTF(2, 3)
refuse(struct fold_xctrace_st *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	st->refused = 1;
	return -1;
}

static const char export_hint[] =
    "export the time-profile table: xctrace export --input FILE.trace "
    "--xpath '/trace-toc/*/data/table[@schema=\"time-profile\"]'";

/* ---- the id table ------------------------------------------------------ */

static inline size_t
idslot(uint64_t id, size_t mask)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* kinds whose value is a number */
static int
numeric(int kind)
{
	return kind == K_WEIGHT || kind == K_TID || kind == K_PID ||
	    kind == K_THREAD;
}

/* The slot of id: kind << 27 | value, or 0 when no element has it. */
static inline uint32_t
id_get(const struct fold_xctrace_st *st, uint64_t id)
{
	size_t i;

	if (id < st->dcap && st->dense[id] != 0)
		return st->dense[id];
	if (st->nhash == 0)
		return 0;
	for (i = idslot(id, st->idmask);; i = (i + 1) & st->idmask) {
		if (st->ids[i].ka == 0)
			return 0;
		if (st->ids[i].id == id)
			return st->ids[i].ka;
	}
}

static void
hash_put(struct fold_xctrace_st *st, uint64_t id, uint32_t ka)
{
	struct ident *old = st->ids;
	size_t i, j, n = st->idmask + 1;

	if (old == NULL || 2 * (st->nhash + 1) > n) {
		n = old == NULL ? 0 : n;
		st->idmask = n == 0 ? 1023 : 2 * n - 1;
		st->ids = xcalloc(st->idmask + 1, sizeof(*st->ids));
		for (i = 0; i < n; i++)
			if (old[i].ka != 0) {
				j = idslot(old[i].id, st->idmask);
				while (st->ids[j].ka != 0)
					j = (j + 1) & st->idmask;
				st->ids[j] = old[i];
			}
		free(old);
	}
	for (i = idslot(id, st->idmask); st->ids[i].ka != 0;
	    i = (i + 1) & st->idmask)
		;
	st->ids[i].id = (uint32_t)id;
	st->ids[i].ka = ka;
	st->nhash++;
}

static void id_store(struct fold_xctrace_st *st, uint64_t id, uint32_t ka);

static int
id_put(struct fold_xctrace_st *st, uint64_t id, int kind, uint32_t a,
    uint64_t b)
{
	uint32_t ka = id_get(st, id);

	if (ka != 0 && KAKIND(ka) < XKIND(0))
		return bad(st, "id=\"%llu\" given twice (a <%s>, then a "
		    "<%s>)", (unsigned long long)id - 1, kname[KAKIND(ka)],
		    kname[kind]);
	if (ka != 0)
		return bad(st, "an id referred to before it");
	if (numeric(kind)) {
		/* a thread: its process frame and tid, two in a row */
		fold_grow(&st->vals, &st->vcap, st->nvals + 2,
		    sizeof(*st->vals));
		st->vals[st->nvals] = b;
		st->vals[st->nvals + 1] = a;
		a = (uint32_t)st->nvals;
		st->nvals += 2;
	}
	if (a == NONE)
		a = IDNONE;
	else if (a >= IDNONE)
		return bad(st, "more than 2^27 - 1 elements kept");
	id_store(st, id, (uint32_t)kind << 27 | a);
	if (st->idlo == 0 || id < st->idlo)
		st->idlo = id;
	if (id > st->idhi)
		st->idhi = id;
	return 0;
}

/* id's slot set to ka */
static void
id_store(struct fold_xctrace_st *st, uint64_t id, uint32_t ka)
{
	size_t n;

	st->nids++;
	if (st->dslack == 0)
		/* the second reader's first id: those before it are the
		 * first half's, in about as many bytes */
		st->dslack = DENSE_SLACK + (st->spec ? (id < st->jumpat / 4 ?
		    id : st->jumpat / 4) : 0);
	if (id >= st->dcap && id < 8 * (uint64_t)st->nids + st->dslack) {
		for (n = st->dcap ? st->dcap : DENSE_SLACK; n <= id; n *= 2)
			;
		st->dense = xrealloc(st->dense, n * sizeof(*st->dense));
		memset(st->dense + st->dcap, 0,
		    (n - st->dcap) * sizeof(*st->dense));
		st->dcap = n;
	}
	if (id < st->dcap)
		st->dense[id] = ka;
	else
		hash_put(st, id, ka);
}

static void
id_reset(struct fold_xctrace_st *st)
{
	free(st->ids);
	free(st->dense);
	st->ids = NULL;
	st->dense = NULL;
	st->idmask = st->dcap = st->nhash = st->nids = st->dslack = 0;
	st->idlo = st->idhi = 0;
	st->nvals = 0;
}

/*
 * The second reader's ref to an id it has not seen: kept, to be looked up
 * in the first half's ids when the halves meet, and a value standing for
 * it (EXTBIT | its index).  Only elements whose value goes into a stack
 * or a row's count as it is: anything else, and the second reader gives
 * up.
 */
static int
ext_ref(struct fold_xctrace_st *st, int k, uint64_t id, uint32_t *e)
{
	size_t n;
	uint32_t x;

	if (k != K_BT && k != K_TBT && k != K_FRAME && k != K_BINARY)
		return bad(st, "a ref to an earlier <%s>", kname[k]);
	if (st->next + 1 >= EXTBIT)
		return bad(st, "too many refs to the first half");
	if (st->next == st->extcap) {
		n = st->extcap;
		fold_grow(&st->extid, &n, st->next + 1, sizeof(*st->extid));
		n = st->extcap;
		fold_grow(&st->extkind, &n, st->next + 1, 1);
		n = st->extcap;
		fold_grow(&st->extn, &n, st->next + 1, sizeof(*st->extn));
		st->extcap = n;
	}
	x = (uint32_t)st->next++;
	st->extid[x] = (uint32_t)id;
	st->extkind[x] = (unsigned char)k;
	st->extn[x] = 0;
	/* in the id table, as the kind XKIND(k): a second ref finds it */
	id_store(st, id, (uint32_t)XKIND(k) << 27 | EXTBIT | x);
	*e = (uint32_t)k << 27 | EXTBIT | x;
	return 0;
}

/* a value of the first half, in the second reader */
static inline int
isext(const struct fold_xctrace_st *st, uint32_t v)
{
	return st->spec && v != NONE && (v & EXTBIT);
}

static int
not_id(struct fold_xctrace_st *st, const char *what, const char *s,
    size_t n)
{
	return bad(st, "%s=\"%.*s\" is not a number", what,
	    (int)(n > 40 ? 40 : n), s);
}

/* A decimal id or ref value: 1 with *v (plus 1: 0 is "none"), or -1. */
static inline int
parse_id(struct fold_xctrace_st *st, const char *what, const char *s,
    size_t n, uint64_t *v)
{
	uint64_t x = 0;
	unsigned d;
	size_t i;

	if (n == 0 || n > 10)
		return not_id(st, what, s, n);
	for (i = 0; i < n; i++) {
		d = (unsigned)((unsigned char)s[i] - '0');
		if (d > 9)
			return not_id(st, what, s, n);
		x = x * 10 + d;
	}
	if (x >= 0xffffffffULL)
		return not_id(st, what, s, n);
	*v = x + 1;
	return 1;
}

/* ---- frames ------------------------------------------------------------ */

static char *
nroom(struct fold_xctrace_st *st, size_t n)
{
	fold_grow(&st->nb, &st->nbcap, n, 1);
	return st->nb;
}

static int
ishex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* "0x" and hex digits: an address standing for a name */
static int
isaddr(const char *s, size_t n)
{
	size_t i;

	if (n < 3 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if (!ishex((unsigned char)s[i]))
			return 0;
	return 1;
}

/* The frame id of text s (n bytes) as it is printed: ';' to ':', CR and
 * LF to spaces. */
static uint32_t
frame_text(struct fold_xctrace_st *st, const char *s, size_t n)
{
	char *o;
	size_t i;

	if (memchr(s, ';', n) == NULL && memchr(s, '\n', n) == NULL &&
	    memchr(s, '\r', n) == NULL)
		return fold_intern(&st->frames, s, n, NULL);
	o = nroom(st, n);
	for (i = 0; i < n; i++)
		o[i] = s[i] == ';' ? ':' : s[i] == '\n' || s[i] == '\r' ? ' ' :
		    s[i];
	return fold_intern(&st->frames, o, n, NULL);
}

/*
 * A raw name's frame: Rust legacy names left half-demangled finished,
 * --demangle for the rest.  The remangled name goes after FOLD_DM_MAXOUT
 * bytes of room for the demangled one.
 */
static uint32_t
make_frame(struct fold_xctrace_st *st, const char *s, size_t n)
{
	size_t m, k;
	char *o;

	if (n >= 20 && s[n - 17] == 'h' && s[n - 18] == ':') {
		o = nroom(st, FOLD_DM_MAXOUT + FOLD_RUST_REMANGLE_ROOM(n));
		m = fold_rust_remangle(s, n, o + FOLD_DM_MAXOUT);
		if (m > 0) {
			k = fold_demangle_rust(o + FOLD_DM_MAXOUT, m, o,
			    FOLD_DM_MAXOUT, FOLD_DM_PARAMS);
			if (k > 0) {
				/* the buffer is reused by frame_text */
				char *t = xmalloc(k);
				uint32_t f;

				memcpy(t, o, k);
				f = frame_text(st, t, k);
				free(t);
				return f;
			}
			/* not a name c++filt reads: the hash cut alone */
			return frame_text(st, s, n - 19);
		}
	}
	if ((st->flags & FOLD_XCTRACE_DEMANGLE) && n >= 3 && s[0] == '_') {
		k = (s[1] == '_' && (s[2] == 'Z' || s[2] == 'R')) ? 1 : 0;
		o = nroom(st, FOLD_DM_MAXOUT);
		m = fold_demangle(s + k, n - k, o, FOLD_DM_MAXOUT, 0);
		if (m > 0) {
			char *t = xmalloc(m);
			uint32_t f;

			memcpy(t, o, m);
			f = frame_text(st, t, m);
			free(t);
			return f;
		}
	}
	return frame_text(st, s, n);
}

/* A named frame: made once per distinct raw name. */
static uint32_t
named_frame(struct fold_xctrace_st *st, const char *s, size_t n)
{
	int isnew;
	uint32_t r = fold_intern(&st->raw, s, n, &isnew);

	if (isnew) {
		fold_grow(&st->raw2f, &st->r2cap, (size_t)r + 1,
		    sizeof(*st->raw2f));
		st->raw2f[r] = make_frame(st, s, n);
	}
	return st->raw2f[r];
}

/* ---- sums -------------------------------------------------------------- */

/* "NAME-PID/TID" from the process frame "NAME-PID" (tid + 1; 0: none) */
static uint32_t
thread_frame(struct fold_xctrace_st *st, uint32_t proc, uint64_t tid)
{
	struct fold_str p = fold_intern_str(&st->frames, proc);
	char *o = nroom(st, p.len + 24);
	size_t n = p.len;

	memcpy(o, p.s, n);
	if (tid > 0)
		n += (size_t)snprintf(o + n, 24, "/%llu",
		    (unsigned long long)tid - 1);
	else {
		memcpy(o + n, "/?", 2);
		n += 2;
	}
	return fold_intern(&st->frames, o, n, NULL);
}

static int tally(struct fold_xctrace_st *st, uint32_t key, uint64_t n,
    uint64_t w);

static int
count_row(struct fold_xctrace_st *st)
{
	uint32_t key = st->rstack, kb[2], root;
	uint64_t w = 1;

	if (st->rstack == NONE) {
		st->psent++;
		return 0;
	}
	if (isext(st, st->rstack)) {
		st->extn[st->rstack & ~EXTBIT]++;
		return 0;
	}
	if (st->flags & FOLD_XCTRACE_WEIGHT) {
		if (!st->rhasw)
			return bad(st, "a row without a weight");
		w = st->rweight;
	}
	if (st->flags & (FOLD_XCTRACE_PID | FOLD_XCTRACE_TID)) {
		root = st->rtproc != NONE ? st->rtproc : st->rproc;
		if (root == NONE)
			root = fold_intern(&st->frames, "[unknown]", 9, NULL);
		if (st->flags & FOLD_XCTRACE_TID)
			root = thread_frame(st, root, st->rtid);
		kb[0] = root;
		kb[1] = st->rstack;
		key = fold_intern(&st->keys, (const char *)kb, sizeof(kb),
		    NULL);
	}
	return tally(st, key, 1, w);
}

/* n rows of weight w added to key */
static int
tally(struct fold_xctrace_st *st, uint32_t key, uint64_t n, uint64_t w)
{
	int wt = (st->flags & FOLD_XCTRACE_WEIGHT) != 0;

	if (key >= st->pcap) {
		size_t c = st->pcap;
		fold_grow(&st->pn, &c, (size_t)key + 1, sizeof(*st->pn));
		if (wt) {	/* (else the weights are the counts) */
			c = st->pcap;
			fold_grow(&st->pw, &c, (size_t)key + 1,
			    sizeof(*st->pw));
		}
		st->pcap = c;
	}
	if (st->pn[key] == 0) {
		fold_grow(&st->touched, &st->tcap, st->ntouched + 1,
		    sizeof(*st->touched));
		st->touched[st->ntouched++] = key;
	}
	if ((wt && st->pw[key] > UINT64_MAX - w) ||
	    st->pn[key] > UINT64_MAX - n)
		return bad(st, "sum of weights larger than "
		    "18446744073709551615");
	st->pn[key] += n;
	if (wt)
		st->pw[key] += w;
	return 0;
}

/* The sums of this input: added to the totals (keep), or dropped. */
static int
settle(struct fold_xctrace_st *st, int keep)
{
	size_t i;
	uint32_t k;
	int over = 0, wt = (st->flags & FOLD_XCTRACE_WEIGHT) != 0;
	uint64_t *t;

	if (keep && st->ncap == 0) {
		/* the first input kept: its sums are the totals */
		t = st->n, st->n = st->pn, st->pn = t;
		t = st->w, st->w = st->pw, st->pw = t;
		st->ncap = st->pcap;
		st->pcap = 0;
		st->ntouched = 0;
	}
	for (i = 0; i < st->ntouched; i++) {
		k = st->touched[i];
		if (keep) {
			if (k >= st->ncap) {
				size_t c = st->ncap;
				fold_grow(&st->n, &c, (size_t)k + 1,
				    sizeof(*st->n));
				if (wt) {
					c = st->ncap;
					fold_grow(&st->w, &c, (size_t)k + 1,
					    sizeof(*st->w));
				}
				st->ncap = c;
			}
			if ((wt && st->w[k] > UINT64_MAX - st->pw[k]) ||
			    st->n[k] > UINT64_MAX - st->pn[k])
				over = 1;
			else {
				st->n[k] += st->pn[k];
				if (wt)
					st->w[k] += st->pw[k];
			}
		}
		st->pn[k] = 0;
		if (wt)
			st->pw[k] = 0;
	}
	st->ntouched = 0;
	if (!keep) {		/* and the stacks of a second reader */
		st->npend = st->npend0;
		st->nxseq = st->nxseq0;
	}
	if (keep && st->psent > 0 && !(st->flags & FOLD_XCTRACE_QUIET))
		fold_warn("%s: %llu row%s without a backtrace (<sentinel/> or "
		    "empty) not counted", st->name,
		    (unsigned long long)st->psent, st->psent == 1 ? "" : "s");
	st->psent = 0;
	return over ? bad(st, "sum larger than 18446744073709551615") : 0;
}

/* ---- elements ---------------------------------------------------------- */

static int
eq(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* The element at START: its kind in the context it is in. */
static int
kind_of(struct fold_xctrace_st *st, const struct ctx *up, const char *nm,
    size_t n)
{
	unsigned fl = st->flags;
	int role;

	switch (up == NULL ? -1 : up->kind) {
	case -1:
		return K_ROOT;
	case K_ROOT:
		return eq(nm, n, "node") ? K_NODE : K_SKIP;
	case K_NODE:
		if (eq(nm, n, "schema"))
			return K_SCHEMA;
		return eq(nm, n, "row") ? K_ROW : K_SKIP;
	case K_SCHEMA:
		return eq(nm, n, "col") ? K_COL : K_SKIP;
	case K_COL:
		if (eq(nm, n, "mnemonic"))
			return K_MNEMONIC;
		return eq(nm, n, "engineering-type") ? K_ETYPE : K_SKIP;
	case K_ROW:
		if (st->schema)
			role = st->col < st->ncols ? st->roles[st->col] :
			    R_NONE;
		else if (eq(nm, n, "backtrace") || eq(nm, n, "sentinel") ||
		    eq(nm, n, "tagged-backtrace"))
			role = R_STACK;
		else if (eq(nm, n, "weight") || eq(nm, n, "cycle-weight") ||
		    eq(nm, n, "pmc-event"))
			role = R_WEIGHT;
		else if (eq(nm, n, "thread"))
			role = R_THREAD;
		else if (eq(nm, n, "process"))
			role = R_PROCESS;
		else
			role = R_NONE;
		st->col++;
		switch (role) {
		case R_STACK:
			if (eq(nm, n, "backtrace"))
				return K_BT;
			if (eq(nm, n, "tagged-backtrace"))
				return K_TBT;
			if (eq(nm, n, "sentinel"))
				return K_SENTINEL;
			bad(st, "<%.*s> in the backtrace column", (int)(n > 64 ?
			    64 : n), nm);
			return -1;
		case R_WEIGHT:
			return (fl & FOLD_XCTRACE_WEIGHT) ? K_WEIGHT : K_SKIP;
		case R_THREAD:
			return (fl & (FOLD_XCTRACE_PID | FOLD_XCTRACE_TID)) ?
			    K_THREAD : K_SKIP;
		case R_PROCESS:
			return (fl & (FOLD_XCTRACE_PID | FOLD_XCTRACE_TID)) ?
			    K_PROCESS : K_SKIP;
		}
		return K_SKIP;
	case K_TBT:
		if (eq(nm, n, "backtrace"))
			return K_BT;
		/* FALLTHROUGH */
	case K_BT:
		return eq(nm, n, "frame") ? K_FRAME : K_SKIP;
	case K_FRAME:
		return eq(nm, n, "binary") ? K_BINARY : K_SKIP;
	case K_THREAD:
		if (eq(nm, n, "tid"))
			return K_TID;
		return eq(nm, n, "process") ? K_PROCESS : K_SKIP;
	case K_PROCESS:
		return eq(nm, n, "pid") ? K_PID : K_SKIP;
	}
	return K_SKIP;
}

/* How many of the next cells of the row have columns we do not use
 * (kind_of() would say K_SKIP whatever their names); past the last
 * column, cells are not used either (one counted). */
static int
cells_unused(const struct fold_xctrace_st *st)
{
	unsigned fl = st->flags;
	int c, n = 0;

	if (!st->schema)
		return 0;
	if (st->col >= st->ncols)
		return 1;
	for (c = st->col; c < st->ncols; c++, n++)
		switch (st->roles[c]) {
		case R_STACK:
			return n;
		case R_WEIGHT:
			if (fl & FOLD_XCTRACE_WEIGHT)
				return n;
			break;
		case R_THREAD:
		case R_PROCESS:
			if (fl & (FOLD_XCTRACE_PID | FOLD_XCTRACE_TID))
				return n;
			break;
		}
	return n;
}

/* copy at most MAXSHORT - 1 bytes */
static size_t
short_copy(char *dst, const char *s, size_t n)
{
	if (n > MAXSHORT - 1)
		n = MAXSHORT - 1;
	memcpy(dst, s, n);
	return n;
}

/* A number element's text, blanks around it allowed: 0 with *v, or -1. */
static int
num_value(struct fold_xctrace_st *st, const char *what, uint64_t *v)
{
	const char *s = st->num;
	size_t n = st->numlen, i = 0;
	uint64_t x = 0;
	unsigned d;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' ||
	    s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' ||
	    s[i] == '\r'))
		i++;
	if (i == n || st->numbig)
		goto no;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			goto no;
		d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			goto no;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
no:
	return bad(st, "<%s> is not a whole number from 0 to "
	    "18446744073709551615: \"%.*s\"", what, (int)(n > 40 ? 40 : n), s);
}

/* the root frame "NAME-PID" of a process whose fmt was "NAME (PID)" */
static uint32_t
proc_frame(struct fold_xctrace_st *st, uint64_t pid, int haspid)
{
	char b[MAXSHORT + 32];
	size_t n = st->plen;

	memcpy(b, st->pname, n);
	if (n == 0) {
		memcpy(b, "[unknown]", 9);
		n = 9;
	}
	if (haspid)
		n += (size_t)snprintf(b + n, 24, "-%llu",
		    (unsigned long long)pid);
	return frame_text(st, b, n);
}

/* The process name of fmt "NAME (PID)" into pname. */
static void
proc_name(struct fold_xctrace_st *st, const char *s, size_t n)
{
	size_t k = n;

	if (k > 0 && s[k - 1] == ')') {
		while (k > 0 && s[k - 1] != '(')
			k--;
		if (k >= 2 && s[k - 2] == ' ')
			n = k - 2;
	}
	st->plen = short_copy(st->pname, s, n);
}

/* The attributes of a START we read, in one pass over them. */
struct avals {
	const char *ref, *id, *name, *addr;
	size_t nref, nid, nname, naddr;
};

static void
avals(const struct fold_xml *x, struct avals *av)
{
	const struct fold_xml_attr *t;
	size_t i;

	av->ref = av->id = av->name = av->addr = NULL;
	av->nref = av->nid = av->nname = av->naddr = 0;
	for (i = 0; i < x->nattrs; i++) {
		t = &x->attrs[i];
		if (t->nlen == 2 && t->name[0] == 'i' && t->name[1] == 'd') {
			av->id = t->val;
			av->nid = t->vlen;
		} else if (t->nlen == 3 && memcmp(t->name, "ref", 3) == 0) {
			av->ref = t->val;
			av->nref = t->vlen;
		} else if (t->nlen == 4 && memcmp(t->name, "name", 4) == 0) {
			av->name = t->val;
			av->nname = t->vlen;
		} else if (t->nlen == 4 && memcmp(t->name, "addr", 4) == 0) {
			av->addr = t->val;
			av->naddr = t->vlen;
		}
	}
}

/* The slot of id ref when it is not an element of kind k as it is: a
 * ref to the first half in the second reader, else an error. */
static int
ref_other(struct fold_xctrace_st *st, int k, uint64_t ref, uint32_t *e)
{
	const struct fold_xml *x = &st->xml;

	if (*e == 0 && st->spec)
		return ext_ref(st, k, ref, e);
	if (KAKIND(*e) == XKIND(k)) {
		*e = (uint32_t)k << 27 | (*e & IDNONE);
		return 0;
	}
	if (KAKIND(*e) >= XKIND(0))
		return bad(st, "two kinds");
	if (*e == 0)
		return bad(st, "<%.*s ref=\"%llu\">: no element with that id "
		    "before it", (int)x->nlen, x->name,
		    (unsigned long long)ref - 1);
	return bad(st, "<%.*s ref=\"%llu\">: that id is a <%s>",
	    (int)x->nlen, x->name, (unsigned long long)ref - 1,
	    kname[KAKIND(*e)]);
}

/* The slot of the element of kind k with id ref (plus 1): 0 with *e, or
 * -1 with why. */
static inline int
ref_id(struct fold_xctrace_st *st, int k, uint64_t ref, uint32_t *e)
{
	*e = id_get(st, ref);
	if (KAKIND(*e) == k)	/* (k is not 0: *e is not 0) */
		return 0;
	return ref_other(st, k, ref, e);
}

/* The slot of the element of kind k that ref="v" names: 0 with *e, or -1
 * with why. */
static int
ref_slot(struct fold_xctrace_st *st, int k, const char *v, size_t vn,
    uint32_t *e)
{
	uint64_t ref = 0;

	if (parse_id(st, "ref", v, vn, &ref) < 0)
		return -1;
	return ref_id(st, k, ref, e);
}

/*
 * A backtrace's run of <frame ref="N"/>, up to RUN at a time: the ids read
 * first and their slots fetched, then looked up, so that the cache misses
 * of refs to frames written long before overlap.  1: some taken; 0: none;
 * -1: an error (why set, the place the element's).
 */
#define RUN 32

static int
frame_run(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	const char *v[RUN];
	size_t vn[RUN];
	uint64_t id[RUN];
	uint32_t e;
	int n, k, ok;

	if ((n = fold_xml_leaves(x, &st->hframe, v, vn, RUN)) == 0)
		return 0;
	for (ok = 0; ok < n; ok++) {
		if (parse_id(st, "ref", v[ok], vn[ok], &id[ok]) < 0)
			break;
		if (id[ok] < st->dcap)
			fold_prefetch(&st->dense[id[ok]]);
	}
	st->why[0] = '\0';	/* said below, in the order of the elements */
	fold_grow(&st->bt, &st->btcap, st->nbt + (size_t)n, sizeof(*st->bt));
	for (k = 0; k < ok; k++) {
		if (ref_id(st, K_FRAME, id[k], &e) < 0)
			goto fail;
		st->bt[st->nbt++] = KAVAL(e);
	}
	if (ok == n)
		return 1;
	(void)parse_id(st, "ref", v[k], vn[k], &id[k]);
fail:
	fold_xml_here(x, v[k] - st->hframe.len);
	return -1;
}

/*
 * A hint for the next row: where its backtrace cell is likely to be (at
 * about the offset it had in this one, rows being alike), a ref there has
 * its id slot fetched now, so that its cache miss overlaps this row's
 * work.  A guess only: nothing is consumed or checked.
 */
static void
prefetch_row(const struct fold_xctrace_st *st, const char *p, size_t n,
    size_t at)
{
	const char *q, *e;
	uint64_t id = 0;
	size_t i;

	if (n < at + 64)
		return;
	p += at > 8 ? at - 8 : 0;
	e = p + 24;
	for (; (q = memchr(p, '<', (size_t)(e - p))) != NULL; p = q + 1)
		if (memcmp(q, "<backtrace ref=\"", 16) == 0) {
			for (i = 16; i < 26 && q[i] >= '0' && q[i] <= '9'; i++)
				id = id * 10 + (uint64_t)(q[i] - '0');
			if (id + 1 < st->dcap)
				fold_prefetch(&st->dense[id + 1]);
			return;
		}
}

static int on_start(struct fold_xctrace_st *st);

/*
 * A row that row_fast() cannot take whole, its first c cells checked
 * (bytes from where the reader stands: the row's "<row>" at w, its last
 * cell checked at lo, its name ln bytes, cell c at i): when those cells
 * are not used (all before the stack's), the row's START and them are
 * taken, as fold_xml_start(), on_start() and fold_xml_skip() would take
 * them, and the events read on from cell c (a backtrace written out, 3
 * rows in 10 of a Time Profiler export).  1: taken; 0: nothing changed;
 * -1: an error (why set).
 */
static int
row_begun(struct fold_xctrace_st *st, size_t w, size_t i, int c, size_t lo,
    size_t ln)
{
	struct fold_xml *x = &st->xml;
	int j;

	/* (no --weight, --pid, --tid: those cells are not used) */
	for (j = 0; j < c; j++)
		if (st->roles[j] == R_STACK)
			return 0;
	if (c == 0 || !fold_xml_start(x, "<row>", 5))
		return 0;
	if (on_start(st) < 0)
		return -1;
	fold_xml_took(x, lo - (w + 5), i - lo, ln);
	st->col = c;
	return 1;
}

/* Column c's cell at b (n bytes, as fold_xml_small() took it, e): an
 * empty element of one attribute is the form looked for first in the next
 * rows (rowh[c]), its head the bytes before its value. */
static void
cell_form(struct fold_xctrace_st *st, int c, const char *b, size_t n,
    const struct fold_xml_small *e)
{
	char h[sizeof(st->rowh[c].s)];
	size_t k = (size_t)(e->av[0] - b);

	if (e->nattr != 1 || b[n - 2] != '/' || k >= sizeof(h))
		return;
	memcpy(h, b, k);
	h[k] = '\0';
	(void)fold_xml_head(&st->rowh[c], h);
}

/*
 * A whole row in one step, where it is the usual one of a table read for
 * its counts alone: "<row>", cells of the form fold_xml_small() takes,
 * the stack cell a <backtrace ref="N"/>, "</row>" (7 rows in 10 of a
 * Time Profiler export).  Each column's cell is looked for first in the
 * form it had in the row before (a ref, as most are), without its names
 * scanned.  What the events of the row would do, without them; 1: taken,
 * 0: not such a row (nothing changed; the events read it), -1: an error
 * (why set).
 */
static int
row_fast(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	struct fold_xml_small e;
	size_t n, w = 0, i, k, vn, lo = 0, ln = 0;
	const char *b = fold_xml_peek(x, &n), *v;
	uint64_t ref = 0;
	uint32_t slot, stack = NONE;
	int c, got = 0;
	size_t at = 0;

	if (!st->schema || (st->flags & (FOLD_XCTRACE_WEIGHT |
	    FOLD_XCTRACE_PID | FOLD_XCTRACE_TID)))
		return 0;
	while (w < n && (b[w] == '\n' || b[w] == ' ' || b[w] == '\t'))
		w++;
	if (n - w < 11 || memcmp(b + w, "<row>", 5) != 0)
		return 0;
	for (i = w + 5, c = 0; c < st->ncols; c++, i += k) {
		if (st->roles[c] == R_STACK) {
			at = i - w;
			if ((k = fold_xml_leaf_at(x, i, &st->hbt, &v, &vn)) ==
			    0 || parse_id(st, "ref", v, vn, &ref) < 0 ||
			    ref_id(st, K_BT, ref, &slot) < 0) {
				st->why[0] = '\0';	/* the events say it */
				return row_begun(st, w, i, c, lo, ln);
			}
			stack = KAVAL(slot);
			got = 1;
			continue;
		}
		if ((k = fold_xml_leaf_at(x, i, &st->rowh[c], &v, &vn)) > 0)
			ln = st->rowh[c].nlen;
		else if ((k = fold_xml_small(x, i, &e)) > 0) {
			cell_form(st, c, b + i, k, &e);
			ln = e.nlen;
		} else
			return row_begun(st, w, i, c, lo, ln);
		lo = i;
	}
	if (!got || n - i < 6 || memcmp(b + i, "</row>", 6) != 0)
		return 0;
	fold_xml_took(x, w, i + 6 - w, 3);
	prefetch_row(st, b + i + 6, n - i - 6, at);
	st->rows = 1;
	st->col = st->ncols;
	st->rstack = stack;
	st->rtproc = st->rproc = NONE;
	st->rtid = 0;
	st->rhasw = 0;
	return count_row(st) < 0 ? -1 : 1;
}

/*
 * The fast path of the elements most written: refs written
 * <frame ref="N"/> in a backtrace, <binary ref="N"/> in a frame,
 * <backtrace ref="N"/> as a row's stack cell (fold_xml_leaf()), and the
 * cells of columns not used (fold_xml_skip()): what on_start() and
 * on_end() would do with them, without their events.  1: one taken; 0:
 * none (fold_xml_next() reads on); -1: an error (why set).
 */
static void
window_at(struct fold_xctrace_st *st)
{
	uint64_t off;

	if (fold_xml_tell(&st->xml, &off))
		fold_window_at(st->pm->data, st->pm->n, &st->win,
		    (size_t)off, (size_t)off);
}

static int
fast(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	struct ctx *c = &st->cx[x->depth];
	const char *v;
	size_t vn;
	uint32_t e;
	int n;

	switch (c->kind) {
	case K_NODE:
		if (st->pm != NULL && (++st->rowtick & 255) == 0)
			window_at(st);
		if ((n = row_fast(st)) != 0)
			return n;
		/* a row and the blanks before it (no TEXT used in a node) */
		if (!fold_xml_start(x, "<row>", 5))
			return 0;
		return on_start(st) < 0 ? -1 : 1;
	case K_ROW:
		if ((n = cells_unused(st)) > 0) {
			/* as kind_of() counts them */
			st->col += (n = fold_xml_skip(x, n));
			return n > 0;
		}
		if (st->col >= st->ncols || st->roles[st->col] != R_STACK ||
		    !fold_xml_leaf(x, &st->hbt, &v, &vn))
			return 0;
		st->col++;
		if (ref_slot(st, K_BT, v, vn, &e) < 0)
			return -1;
		st->rstack = KAVAL(e);
		return 1;
	case K_BT:
	case K_TBT:
		return c->ref ? 0 : frame_run(st);
	case K_FRAME:
		if (c->ref || !fold_xml_leaf(x, &st->hbinary, &v, &vn))
			return 0;
		if (ref_slot(st, K_BINARY, v, vn, &e) < 0)
			return -1;
		if (KAVAL(e) != NONE && !c->set) {
			if (isext(st, KAVAL(e)))
				return bad(st, "a frame named by an earlier "
				    "binary");
			c->a = KAVAL(e);
			c->set = 1;
		}
		return 1;
	}
	return 0;
}

/* A START.  0, or -1 with why. */
static int
on_start(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	unsigned d = x->depth;
	struct ctx *c = &st->cx[d], *up = d > 1 ? &st->cx[d - 1] : NULL;
	const char *v;
	size_t vn;
	uint32_t e;
	int k;
	struct avals av;

	if (up != NULL && up->ref) {
		st->skip = d;		/* a ref's content is not read */
		return 0;
	}
	k = kind_of(st, up, x->name, x->nlen);
	if (k < 0)
		return -1;
	if (k == K_ROOT) {
		if (eq(x->name, x->nlen, "trace-toc"))
			return refuse(st, "a table of contents (xctrace export "
			    "--toc), not a table: %s", export_hint);
		if (!eq(x->name, x->nlen, "trace-query-result"))
			return refuse(st, "not an xctrace export: its root is "
			    "<%.*s>, not <trace-query-result>",
			    (int)(x->nlen > 64 ? 64 : x->nlen), x->name);
	}
	if (k == K_SKIP) {
		st->skip = d;
		return 0;
	}
	c->kind = k;
	c->ref = 0;
	c->id = 0;
	c->a = NONE;
	c->b = 0;
	c->set = 0;
	c->has = 0;
	avals(x, &av);
	if (k >= K_BT && k != K_SENTINEL) {
		if (av.ref != NULL) {
			if (ref_slot(st, k, av.ref, av.nref, &e) < 0)
				return -1;
			/* the value goes up at END; nothing inside is read */
			c->a = KAVAL(e);
			c->b = 0;
			if (numeric(k)) {
				c->b = st->vals[c->a];
				c->a = (uint32_t)st->vals[c->a + 1];
			}
			c->set = 1;
			c->ref = 1;
			return 0;
		}
		if (av.id != NULL && parse_id(st, "id", av.id, av.nid, &c->id) < 0)
			return -1;
	}
	switch (k) {
	case K_NODE:
		st->nodes++;
		st->schema = st->ncols = st->rows = 0;
		break;
	case K_SCHEMA:
		if (st->schema || st->rows)
			return bad(st, "a second <schema> in a table");
		st->schema = 1;
		v = fold_xml_attr(x, "name", &vn);
		st->schname[short_copy(st->schname, v ? v : "", v ? vn : 0)] =
		    '\0';
		if (strcmp(st->schname, "time-sample") == 0)
			return refuse(st, "a time-sample table holds addresses "
			    "only, no frame names: %s", export_hint);
		break;
	case K_COL:
		st->mlen = st->elen = 0;
		break;
	case K_MNEMONIC:
	case K_ETYPE:
	case K_WEIGHT:
	case K_TID:
	case K_PID:
		st->numlen = 0;
		st->numbig = 0;
		break;
	case K_ROW:
		st->rows = 1;
		st->col = 0;
		st->rstack = st->rtproc = st->rproc = NONE;
		st->rtid = 0;
		st->rhasw = 0;
		break;
	case K_BT:
	case K_TBT:
		st->nbt = 0;
		break;
	case K_FRAME:
		st->nframes++;
		v = av.name;
		vn = av.nname;
		if (v != NULL && vn > 0) {
			if (!st->named && !isaddr(v, vn))
				st->named = 1;
			c->a = named_frame(st, v, vn);
			c->set = 1;
		} else if ((v = av.addr) != NULL && (vn = av.naddr) > 0) {
			c->a = frame_text(st, v, vn);	/* till a binary */
			c->b = 1;
		}
		break;
	case K_BINARY:
		v = av.name;
		vn = av.nname;
		if (v != NULL && vn > 0) {
			char *o = nroom(st, vn + 2);
			o[0] = '[';
			memcpy(o + 1, v, vn);
			o[vn + 1] = ']';
			c->a = frame_text(st, o, vn + 2);
			c->set = 1;
		}
		break;
	case K_PROCESS:
		v = fold_xml_attr(x, "fmt", &vn);
		proc_name(st, v ? v : "", v ? vn : 0);
		break;
	}
	return 0;
}

/* TEXT inside a number or a schema's name */
static void
on_text(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	struct ctx *c = &st->cx[x->depth];
	size_t n = x->tlen, room;

	switch (c->kind) {
	case K_MNEMONIC:
	case K_ETYPE:
	case K_WEIGHT:
	case K_TID:
	case K_PID:
		if (c->ref)
			return;		/* a ref's content */
		room = MAXSHORT - 1 - st->numlen;
		if (n > room) {
			n = room;
			st->numbig = 1;
		}
		memcpy(st->num + st->numlen, x->text, n);
		st->numlen += n;
		break;
	}
}

/* An END.  0, or -1 with why. */
static int
on_end(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	unsigned d = x->depth + 1;
	struct ctx *c = &st->cx[d], *up = &st->cx[d - 1];
	int isref = c->ref;
	uint64_t v;
	uint32_t sid;
	size_t i;

	switch (c->kind) {
	case K_COL:
		if (st->ncols == MAXCOLS)
			return bad(st, "more than %d columns", MAXCOLS);
		st->mnem[st->mlen] = st->etype[st->elen] = '\0';
		if (strcmp(st->mnem, "stack") == 0 ||
		    strcmp(st->etype, "backtrace") == 0 ||
		    strcmp(st->etype, "tagged-backtrace") == 0)
			st->roles[st->ncols] = R_STACK;
		else if (strcmp(st->mnem, "weight") == 0)
			st->roles[st->ncols] = R_WEIGHT;
		else if (strcmp(st->mnem, "thread") == 0)
			st->roles[st->ncols] = R_THREAD;
		else if (strcmp(st->mnem, "process") == 0)
			st->roles[st->ncols] = R_PROCESS;
		else
			st->roles[st->ncols] = R_NONE;
		st->ncols++;
		return 0;
	case K_MNEMONIC:
		memcpy(st->mnem, st->num, st->numlen);
		st->mlen = st->numlen;
		return 0;
	case K_ETYPE:
		memcpy(st->etype, st->num, st->numlen);
		st->elen = st->numlen;
		return 0;
	case K_SCHEMA:
		for (i = 0; i < (size_t)st->ncols; i++)
			if (st->roles[i] == R_STACK)
				return 0;
		return refuse(st, "the table %s has no backtrace column: %s",
		    st->schname[0] ? st->schname : "(unnamed)", export_hint);
	case K_ROW:
		return count_row(st);
	case K_SENTINEL:
		st->rstack = NONE;
		return 0;
	case K_FRAME:
		if (!c->set && c->b == 0)
			c->a = fold_intern(&st->frames, "[unknown]", 9, NULL);
		if (!isref && c->id && id_put(st, c->id, K_FRAME, c->a, 0) < 0)
			return -1;
		goto up;
	case K_BINARY:
		if (!isref && c->id && id_put(st, c->id, K_BINARY, c->a, 0) < 0)
			return -1;
		if (c->a != NONE && up->kind == K_FRAME && !up->set) {
			if (isext(st, c->a))
				return bad(st, "a frame named by an earlier "
				    "binary");
			up->a = c->a;
			up->set = 1;
		}
		return 0;
	case K_BT:
	case K_TBT:
		if (!isref) {
			if (c->kind == K_TBT && c->set)
				sid = c->a;	/* from its <backtrace> */
			else if (st->nbt == 0)
				sid = NONE;
			else {
				/* root first */
				for (i = 0; i < st->nbt / 2; i++) {
					uint32_t t = st->bt[i];
					st->bt[i] = st->bt[st->nbt - 1 - i];
					st->bt[st->nbt - 1 - i] = t;
				}
				sid = fold_intern(&st->stacks,
				    (const char *)st->bt,
				    st->nbt * sizeof(*st->bt), NULL);
			}
			st->nbt = 0;
			c->a = sid;
			if (c->id && id_put(st, c->id, c->kind, sid, 0) < 0)
				return -1;
		}
		if (up->kind == K_TBT) {
			up->a = c->a;
			up->set = 1;
		} else
			st->rstack = c->a;
		return 0;
	case K_WEIGHT:
		if (!isref) {
			if (num_value(st, "weight", &v) < 0)
				return -1;
			c->b = v;
			if (c->id && id_put(st, c->id, K_WEIGHT, 0, v) < 0)
				return -1;
		}
		st->rweight = c->b;
		st->rhasw = 1;
		return 0;
	case K_TID:
	case K_PID:
		if (!isref) {
			if (num_value(st, kname[c->kind], &v) < 0)
				return -1;
			c->b = v;
			if (c->id && id_put(st, c->id, c->kind, 0, v) < 0)
				return -1;
		}
		/* to the process or thread it is in */
		up->b = c->b;
		up->has = 1;
		return 0;
	case K_PROCESS:
		if (!isref) {
			c->a = proc_frame(st, c->b, c->has);
			if (c->id && id_put(st, c->id, K_PROCESS, c->a, 0) < 0)
				return -1;
		}
		if (up->kind == K_THREAD)
			up->a = c->a;	/* the thread's own process */
		else
			st->rproc = c->a;
		return 0;
	case K_THREAD:
		/* a: its process frame (NONE: none); b: tid + 1 */
		if (!isref) {
			c->b = c->has ? c->b + 1 : 0;
			if (c->id && id_put(st, c->id, K_THREAD, c->a, c->b) < 0)
				return -1;
		}
		st->rtproc = c->a;
		st->rtid = c->b;
		return 0;
	}
	return 0;
up:
	/* a frame: into its backtrace */
	fold_grow(&st->bt, &st->btcap, st->nbt + 1, sizeof(*st->bt));
	st->bt[st->nbt++] = c->a;
	return 0;
}

/* ---- inputs ------------------------------------------------------------ */

static void
st_init(struct fold_xctrace_st *st, unsigned flags)
{
	st->flags = flags;
	fold_intern_init(&st->raw);
	fold_intern_init(&st->frames);
	fold_intern_init(&st->stacks);
	fold_intern_init(&st->keys);
	(void)fold_xml_head(&st->hframe, "<frame ref=\"");
	(void)fold_xml_head(&st->hbinary, "<binary ref=\"");
	(void)fold_xml_head(&st->hbt, "<backtrace ref=\"");
}

static void
st_free(struct fold_xctrace_st *st)
{
	free(st->ids);
	free(st->dense);
	free(st->vals);
	free(st->bt);
	fold_intern_free(&st->raw);
	free(st->raw2f);
	fold_intern_free(&st->frames);
	fold_intern_free(&st->stacks);
	fold_intern_free(&st->keys);
	free(st->nb);
	free(st->n);
	free(st->w);
	free(st->pn);
	free(st->pw);
	free(st->touched);
	free(st->xseq);
	free(st->pend);
	free(st->extid);
	free(st->extkind);
	free(st->extn);
	fold_pair_free(st->pair);
	free(st);
}

struct fold_xctrace *
fold_xctrace_new(unsigned flags)
{
	struct fold_xctrace *x = xcalloc(1, sizeof(*x));

	x->st = xcalloc(1, sizeof(*x->st));
	st_init(x->st, flags);
	return x;
}

/* ---- reading ----------------------------------------------------------- */

enum { P_END, P_STOP, P_PASSED };

/*
 * The two readers' checks before each event: the first stops at stopat,
 * the second jumps to jumpto once it has read the schema, or stops when
 * told to.  0: read on; P_STOP, P_PASSED; -1: the second gives up.
 */
static int
watch(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	uint64_t off = 0;
	int between;

	if (st->spec) {
		if ((++st->tick & 1023) == 0 &&
		    atomic_load_explicit(st->cancel, memory_order_relaxed))
			return bad(st, "told to stop");
		if (st->jumpto == 0)
			return 0;
	} else if (!fold_xml_tell(x, &off) || off < st->stopat)
		return 0;
	between = !st->skip && x->depth == 2 && st->cx[2].kind == K_NODE &&
	    st->nodes == 1 && fold_xml_tell(x, &off);
	if (st->spec) {
		if (st->rows || st->nodes > 1)
			return bad(st, "no schema before the first row");
		if (between && st->schema) {
			if (fold_xml_jump(x, st->jumpto) < 0)
				return bad(st, "cannot jump");
			/* its part from here, read in by this thread */
			fold_window_init(&st->win, (size_t)st->jumpto,
			    st->pm->n);
			fold_window_at(st->pm->data, st->pm->n, &st->win,
			    (size_t)st->jumpto, (size_t)st->jumpto);
			st->rows = 1;	/* as the first reader will be */
			st->jumpat = st->jumpto;
			st->jumpto = 0;
		}
		return 0;
	}
	if (off == st->stopat && between && st->rows)
		return P_STOP;
	return off > st->stopat ? P_PASSED : 0;
}

/* Events to the end of the input (P_END), or an error (-1, why set), or
 * where watch() says. */
static int
pump(struct fold_xctrace_st *st)
{
	struct fold_xml *x = &st->xml;
	int t, f;

	for (;;) {
		if (st->watch && (f = watch(st)) != 0)
			return f;
		if (!st->skip && (f = fast(st)) != 0) {
			if (f < 0)
				return -1;
			continue;
		}
		t = fold_xml_next(x);
		if (t == FOLD_XML_START) {
			if (st->skip)
				continue;
			if (on_start(st) < 0)
				return -1;
		} else if (t == FOLD_XML_END) {
			if (st->skip) {
				if (x->depth + 1 == st->skip)
					st->skip = 0;
				continue;
			}
			if (on_end(st) < 0)
				return -1;
		} else if (t == FOLD_XML_TEXT) {
			if (!st->skip)
				on_text(st);
		} else if (t == FOLD_XML_EOF) {
			return P_END;
		} else {
			snprintf(st->why, sizeof(st->why), "%s", x->why);
			return -1;
		}
	}
}

/*
 * Two readers.  A large export is read by two threads: the first reads
 * from the start, the second reads the schema, then jumps to a row
 * boundary near the middle (split()) and reads to the end, with tables of
 * its own.  A ref to an id it has not seen stands for an element of the
 * first half, and is looked up there when the halves meet (merge()).
 * The second half is a guess that the first reader checks: it must stop
 * exactly at that boundary, between two rows of the first table, and
 * every id the second one referred to must be there, of the same kind,
 * and none it gave; anything else (an error, a second table before the
 * boundary, an element the second reader does not take) and the first
 * reader reads on alone, as it would have, to the same output and
 * messages.  Only counts of rows (no --weight, --pid, --tid).
 */
#define SPLIT_MIN (4u << 20)	/* smaller inputs: one reader */
#define SPLIT_WINDOW 65536	/* where a row boundary is looked for */
#define SPLIT_PERCENT 53	/* the first reader's part */

struct second {
	struct fold_xctrace_st *st;
	atomic_int cancel;
	int r;			/* its pump(): P_END is a whole half */
};

static void *
second_run(void *arg)
{
	struct second *b = arg;

	b->r = pump(b->st);
	return NULL;
}

/* The end of a "</row>" followed by blanks and "<row>" in the window of
 * data[0..n) from off, or 0. */
static uint64_t
row_boundary(const char *data, size_t n, size_t off)
{
	const char *p = data + off, *e;
	size_t i;

	e = n - off > SPLIT_WINDOW ? p + SPLIT_WINDOW : data + n;
	while (e - p >= 11 && (p = memchr(p, '<', (size_t)(e - p))) != NULL) {
		if (e - p < 11)
			break;
		if (memcmp(p, "</row>", 6) == 0) {
			for (i = 6; p + i < e && (p[i] == '\n' ||
			    p[i] == ' ' || p[i] == '\t' || p[i] == '\r'); i++)
				;
			if (e - (p + i) >= 5 && memcmp(p + i, "<row>", 5) == 0)
				return (uint64_t)(p + 6 - data);
		}
		p++;
	}
	return 0;
}

/* st's second thread, made the first time; NULL if none can be. */
static struct fold_pair *
pair_of(struct fold_xctrace_st *st)
{
	if (st->pair == NULL)
		st->pair = fold_pair_new();
	return st->pair;
}

/* The second reader of the mapped input pm, or NULL (one reader). */
static struct second *
split(struct fold_xctrace_st *st, const struct fold_padded *pm)
{
	struct second *b;
	uint64_t mid;
	unsigned fl = st->flags;

	if (fl & (FOLD_XCTRACE_WEIGHT | FOLD_XCTRACE_PID | FOLD_XCTRACE_TID |
	    FOLD_XCTRACE_ONE))
		return NULL;
	if (!(fl & FOLD_XCTRACE_TWO) && (pm->n < SPLIT_MIN ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2))
		return NULL;
	/* the first reader has the merge and the output after its part */
	if ((mid = row_boundary(pm->data, pm->n,
	    pm->n / 100 * SPLIT_PERCENT)) == 0)
		return NULL;
	b = xcalloc(1, sizeof(*b));
	b->st = xcalloc(1, sizeof(*b->st));
	st_init(b->st, fl | FOLD_XCTRACE_QUIET);
	b->st->name = st->name;
	b->st->spec = 1;
	b->st->watch = 1;
	b->st->jumpto = mid;
	b->st->cancel = &b->cancel;
	atomic_init(&b->cancel, 0);
	fold_xml_whole(&b->st->xml, pm->data, pm->n);
	b->st->pm = pm;
	if (pair_of(st) == NULL) {
		fold_xml_free(&b->st->xml);
		st_free(b->st);
		free(b);
		return NULL;
	}
	fold_pair_start(st->pair, second_run, b);
	st->watch = 1;
	st->stopat = mid;
	return b;
}

/* The second half's sums into the first's (its stacks in the first's
 * frames, kept apart for the output): 0 (a sum too large leaves why set),
 * or -1 when the halves do not fit together (nothing changed). */
static int
merge(struct fold_xctrace_st *a, struct fold_xctrace_st *b)
{
	size_t nf = fold_intern_count(&b->frames), i, j, m;
	uint32_t *extv, *f2a, e, v;
	struct fold_str t;
	int r = 0;

	if (nf >= EXTBIT || fold_intern_count(&b->stacks) >= EXTBIT)
		return -1;
	/* the ids the second half gave: none of them the first's (xctrace
	 * numbers them in order: a look at each only when they overlap) */
	for (i = b->idlo > a->idhi ? b->dcap : 0; i < b->dcap; i++)
		if (b->dense[i] != 0 && KAKIND(b->dense[i]) < XKIND(0) &&
		    id_get(a, i) != 0)
			return -1;
	for (i = 0; b->idlo <= a->idhi && b->ids != NULL && i <= b->idmask;
	    i++)
		if (b->ids[i].ka != 0 && KAKIND(b->ids[i].ka) < XKIND(0) &&
		    id_get(a, b->ids[i].id) != 0)
			return -1;
	/* those it referred to: the first's, of the same kind */
	extv = xmalloc((b->next + 1) * sizeof(*extv));
	for (i = 0; i < b->next; i++) {
		e = id_get(a, b->extid[i]);
		if (e == 0 || KAKIND(e) != b->extkind[i]) {
			free(extv);
			return -1;
		}
		extv[i] = KAVAL(e);
	}
	f2a = xmalloc((nf + 1) * sizeof(*f2a));
	for (i = 0; i < nf; i++) {
		t = fold_intern_str(&b->frames, (uint32_t)i);
		f2a[i] = fold_intern(&a->frames, t.s, t.len, NULL);
	}
	/* the second half's stacks in the first's frames, kept apart */
	for (i = 0; i < b->ntouched; i++) {
		t = fold_intern_str(&b->stacks, b->touched[i]);
		m = t.len / sizeof(v);
		fold_grow(&a->xseq, &a->xseqcap, a->nxseq + m + 1,
		    sizeof(*a->xseq));
		fold_grow(&a->pend, &a->pendcap, a->npend + 1,
		    sizeof(*a->pend));
		for (j = 0; j < m; j++) {
			memcpy(&v, t.s + j * sizeof(v), sizeof(v));
			a->xseq[a->nxseq + j] = (v & EXTBIT) ?
			    extv[v & ~EXTBIT] : f2a[v];
		}
		a->pend[a->npend].at = a->nxseq;
		a->pend[a->npend].len = m;
		a->pend[a->npend++].n = b->pn[b->touched[i]];
		a->nxseq += m;
	}
	for (i = 0; i < b->next && r == 0; i++) {
		if (b->extn[i] == 0)
			continue;
		if (extv[i] == NONE)
			a->psent += b->extn[i];
		else
			r = tally(a, extv[i], b->extn[i], b->extn[i]);
	}
	a->psent += b->psent;
	a->nodes += b->nodes - 1;
	a->nframes += b->nframes;
	a->named |= b->named;
	free(f2a);
	free(extv);
	(void)r;
	return 0;
}

/* Wait for the second reader; its half merged (1) or not (0). */
static int
second_end(struct fold_xctrace_st *st, struct second *b, int stopped)
{
	int used = 0;

	if (!stopped)
		atomic_store(&b->cancel, 1);
	fold_pair_wait(st->pair);
	if (stopped && b->r == P_END && b->st->why[0] == '\0')
		used = merge(st, b->st) == 0;
	fold_xml_free(&b->st->xml);
	st_free(b->st);
	free(b);
	st->watch = 0;
	return used;
}

int
fold_xctrace_add(struct fold_xctrace *xc, const char *name, int fd,
    const void *data, size_t n, size_t chunk)
{
	struct fold_xctrace_st *st = xc->st;
	struct fold_xml *x = &st->xml;
	struct second *b = NULL;
	int r = 0, f, refused = 0;
	unsigned long long line = 0;
	struct fold_padded pm;

	memset(&pm, 0, sizeof(pm));
	st->name = name;
	st->why[0] = '\0';
	st->skip = 0;
	st->nodes = st->schema = st->ncols = st->rows = 0;
	st->named = 0;
	st->refused = 0;
	st->nframes = 0;
	st->nbt = 0;
	st->npend0 = st->npend;
	st->nxseq0 = st->nxseq;
	id_reset(st);
	/* a regular file is read in place, a map (no copy into a buffer) */
	if (data == NULL && fd >= 0 &&
	    fold_map_padded(fd, FOLD_XML_PAD, &pm) == 0) {
		fold_xml_whole(x, pm.data, pm.n);
		b = split(st, &pm);
		/* this reader's part */
		st->pm = &pm;
		fold_window_init(&st->win, 0,
		    b != NULL ? (size_t)st->stopat : pm.n);
		fold_window_at(pm.data, pm.n, &st->win, 0, 0);
	} else
		fold_xml_init(x, fd, data, n, chunk);
	f = pump(st);
	if (b != NULL) {
		if (second_end(st, b, f == P_STOP))
			f = P_END;
		else if (f == P_STOP || f == P_PASSED) {
			st->win.end = pm.n;	/* all of it now */
			f = pump(st);
		}
	}
	(void)f;
	if (st->why[0] != '\0') {
		line = fold_xml_line(x);
		r = -1;
		refused = st->refused;	/* then nothing of it is counted */
	} else if (st->nodes == 0) {
		r = bad(st, "no table in this export (did the xpath match "
		    "nothing?): %s", export_hint);
		refused = 1;
	} else if (st->nframes > 0 && !st->named) {
		r = bad(st, "no frame has a symbol name, only addresses: "
		    "symbolicate the trace (xctrace symbolicate --input "
		    "FILE.trace), then export it again");
		refused = 1;
	}
	fold_xml_free(x);
	st->pm = NULL;
	fold_unmap_padded(&pm);
	if (r < 0) {
		if (line > 0)
			fold_warn("%s:%llu: %s", name, line, st->why);
		else
			fold_warn("%s: %s", name, st->why);
		xc->status = 1;
	}
	if (settle(st, !refused) < 0) {
		fold_warn("%s: %s", name, st->why);
		xc->status = 1;
		r = -1;
	}
	return r;
}

/* A .trace bundle: a directory, or a name ending in ".trace". */
static int
is_bundle(const char *path)
{
	struct stat sb;
	size_t n = strlen(path);

	if (n > 6 && strcmp(path + n - 6, ".trace") == 0)
		return 1;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Run `xctrace export` on a bundle and read its output. */
static void
add_bundle(struct fold_xctrace *xc, const char *path)
{
	char *argv[] = {
		"xctrace", "export", "--input", NULL, "--xpath",
		"/trace-toc/*/data/table[@schema=\"time-profile\"]", NULL
	};
	posix_spawn_file_actions_t fa;
	int p[2], err, ws;
	pid_t pid;

	argv[3] = (char *)(uintptr_t)path;
	if (pipe(p) < 0)
		fold_die(1, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	err = posix_spawnp(&pid, "xctrace", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (err != 0) {
		close(p[0]);
		fold_warn("%s: a .trace bundle, and xctrace (Xcode's command "
		    "line tools) cannot be run to export it: %s", path,
		    strerror(err));
		xc->status = 1;
		return;
	}
	fold_xctrace_add(xc, path, p[0], NULL, 0, 0);
	close(p[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		fold_warn("%s: xctrace export failed (%s %d)", path,
		    WIFEXITED(ws) ? "exit status" : "signal",
		    WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
		xc->status = 1;
	}
}

void
fold_xctrace_run(struct fold_xctrace *xc, int nfiles, char **files)
{
	static char *stdin_only[] = { "-" };
	const char *name;
	int i, fd;

	if (nfiles == 0) {
		nfiles = 1;
		files = stdin_only;
	}
	for (i = 0; i < nfiles; i++) {
		if (strcmp(files[i], "-") != 0 && is_bundle(files[i])) {
			add_bundle(xc, files[i]);
			continue;
		}
		fd = fold_open_arg(files[i], &name);
		if (fd < 0) {
			xc->status = 1;
			continue;
		}
		fold_xctrace_add(xc, name, fd, NULL, 0, 0);
		if (fd != 0)
			close(fd);
	}
}

/* ---- output ------------------------------------------------------------ */

/*
 * The order of the output, without its text: a stack's text is its frames'
 * joined by ';', and as frames are not empty and hold no ';', the byte
 * order of two texts is that of their frames compared one by one as
 * "FRAME;" (a frame followed by another) or "FRAME" (the last), which
 * never differ by a prefix but where the last ends.  So each frame's two
 * forms are ranked once, among all of them, and the stacks sorted as
 * strings of ranks (4 bytes each, big-endian): 4 bytes a frame instead of
 * its text.  rank[2 * f] is frame f's rank as the last, rank[2 * f + 1]
 * followed.
 */
static uint32_t *
frame_ranks(struct fold_xctrace_st *st)
{
	size_t nf = fold_intern_count(&st->frames), i, tot = 0, cap;
	struct fold_str *fs = xmalloc((2 * nf + 1) * sizeof(*fs)), f;
	uint32_t *ids = xmalloc((2 * nf + 1) * sizeof(*ids));
	uint32_t *rank = xmalloc((2 * nf + 1) * sizeof(*rank));
	char *semi;

	for (i = 0; i < nf; i++)
		tot += fold_intern_str(&st->frames, (uint32_t)i).len + 1;
	cap = tot + 1;
	semi = xmalloc(cap);
	for (i = 0, tot = 0; i < nf; i++) {
		f = fold_intern_str(&st->frames, (uint32_t)i);
		memcpy(semi + tot, f.s, f.len);
		semi[tot + f.len] = ';';
		fs[2 * i] = f;
		fs[2 * i + 1].s = semi + tot;
		fs[2 * i + 1].len = f.len + 1;
		tot += f.len + 1;
	}
	for (i = 0; i < 2 * nf; i++)
		ids[i] = (uint32_t)i;
	fold_sort_strs(ids, 2 * nf, fs);
	for (i = 0; i < 2 * nf; i++)
		rank[ids[i]] = (uint32_t)i;
	free(semi);
	free(fs);
	free(ids);
	return rank;
}

/* The key of a line (stack id, or keys' id): its root frame (NONE: none)
 * and stack. */
static void
key_of(const struct fold_xctrace_st *st, size_t k, uint32_t *root,
    uint32_t *sid)
{
	struct fold_str s;
	uint32_t kb[2];

	if (st->flags & (FOLD_XCTRACE_PID | FOLD_XCTRACE_TID)) {
		s = fold_intern_str(&st->keys, (uint32_t)k);
		memcpy(kb, s.s, sizeof(kb));
		*root = kb[0];
		*sid = kb[1];
	} else {
		*root = NONE;
		*sid = (uint32_t)k;
	}
}

/*
 * The lines, written from each frame's text followed by ';' (tx, frame
 * f's from to[f] to to[f + 1]).  Lines come sorted, and the frames a line
 * shares with the one before, from the root, are copied from it at once
 * while it is still in the writer's buffer (half the frames of the 200k
 * export).
 */
struct lines {
	const struct fold_xctrace_st *st;
	const char *tx;
	const size_t *to;
	size_t maxf;			/* the longest text in tx */
	const char *prev, *end;		/* the last line, its end */
	uint32_t root;			/* its root frame and frames */
	const char *seq;
	size_t nseq;
	struct fo_at *at;		/* a part written at an offset, or
					   NULL: stdout's writer */
	int64_t atoff;			/* at->off when the last was put */
};

/* A line: root frame root (NONE: none), then the frames of s (uint32_t
 * ids, root first), then v. */
static void
put_line(struct lines *l, uint32_t root, struct fold_str s, uint64_t v)
{
	const size_t *to = l->to;
	size_t nfr = s.len / sizeof(uint32_t), i, j, k, n = 24 + 16, c = 0;
	size_t pb = 0;
	uint32_t fr;
	char *o, *p;
	int same = l->prev != NULL && root == l->root;

	/* room: a bound from the longest frame, summed for long lines */
	n += (nfr + 1) * l->maxf;
	if (n > 65536) {
		n = 24 + 16 + (root != NONE ? to[root + 1] - to[root] : 0);
		for (i = 0; i < nfr; i++) {
			memcpy(&fr, s.s + i * sizeof(fr), sizeof(fr));
			n += to[fr + 1] - to[fr];
		}
	}
	/* the frames shared with the line before, from the root */
	if (same) {
		pb = root != NONE ? to[root + 1] - to[root] : 0;
		for (; c < nfr && c < l->nseq && memcmp(s.s + c * sizeof(fr),
		    l->seq + c * sizeof(fr), sizeof(fr)) == 0; c++) {
			memcpy(&fr, s.s + c * sizeof(fr), sizeof(fr));
			pb += to[fr + 1] - to[fr];
		}
	}
	o = p = l->at != NULL ? fo_at_room(l->at, n) : fo_room(n);
	if (o == NULL) {
		/* longer than the buffer: piece by piece */
		if (root != NONE)
			fo_write(l->tx + to[root], to[root + 1] - to[root]);
		for (i = 0; i < nfr; i++) {
			memcpy(&fr, s.s + i * sizeof(fr), sizeof(fr));
			fo_write(l->tx + to[fr], to[fr + 1] - to[fr] -
			    (i + 1 == nfr));
		}
		fo_putc(' ');
		fo_u64(v);
		fo_putc('\n');
		l->prev = NULL;
		return;
	}
	i = root != NONE ? 0 : 1;
	if (o == l->end && pb > 0 && (l->at == NULL ||
	    l->at->off == l->atoff)) {	/* (not flushed since) */
		/* the frames shared with the line before (whose last ';'
		 * may be its ' ') */
		memcpy(p, l->prev, pb);
		p += pb;
		p[-1] = ';';
		i = c + 1;
	}
	/* 16 bytes at a time: the room has 16 to spare, tx 16 after it */
	for (; i <= nfr; i++) {
		if (i == 0)
			fr = root;
		else
			memcpy(&fr, s.s + (i - 1) * sizeof(fr), sizeof(fr));
		k = to[fr + 1] - to[fr];
		for (j = 0; j < k; j += 16)
			memcpy(p + j, l->tx + to[fr] + j, 16);
		p += k;
	}
	p[-1] = ' ';		/* the last frame's ';' */
	p += fold_fmt_u64(p, v);
	*p++ = '\n';
	if (l->at != NULL) {
		fo_at_wrote(l->at, p);
		l->atoff = l->at->off;
	} else
		fo_wrote(p);
	l->prev = o;
	l->end = p;
	l->root = root;
	l->seq = s.s;
	l->nseq = nfr;
}

/*
 * The lines: the keys counted, each a stack (sid, of st->stacks; with a
 * root frame with --pid or --tid) or a stack a second reader counted (of
 * st->pend), as strings of ranks, sorted; equal ones (the same stack
 * counted by both readers, or in several inputs) are one line.
 */
struct key {
	uint32_t root, sid;		/* sid: a stack, or pend[sid - nst] */
	uint64_t n;
};
struct keyset {
	const struct fold_xctrace_st *st;
	const uint32_t *rank;
	struct key *k;
	size_t n, nst;			/* keys; stacks before the pending */
	struct fold_str *ks;		/* their strings of ranks */
	uint32_t *ids;			/* sorted */
	unsigned char *rb;
};

/* key k's frames */
static struct fold_str
key_stack(const struct keyset *ks, const struct key *k)
{
	const struct fold_xctrace_st *st = ks->st;
	const struct pend *pd;
	struct fold_str s;

	if (k->sid < ks->nst)
		return fold_intern_str(&st->stacks, k->sid);
	pd = &st->pend[k->sid - ks->nst];
	s.s = (const char *)(st->xseq + pd->at);
	s.len = pd->len * sizeof(uint32_t);
	return s;
}

/* rank r at p, big-endian */
static inline void
put_rank(unsigned char *p, uint32_t r)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	r = __builtin_bswap32(r);
	memcpy(p, &r, 4);
#else
	p[0] = (unsigned char)(r >> 24);
	p[1] = (unsigned char)(r >> 16);
	p[2] = (unsigned char)(r >> 8);
	p[3] = (unsigned char)r;
#endif
}

/* The strings of ranks of the keys of ks, and their order. */
static void *
sort_keys(void *arg)
{
	struct keyset *ks = arg;
	struct fold_str s;
	size_t i, j, nfr, rn = 0;
	unsigned char *p;
	uint32_t fr;

	for (i = 0; i < ks->n; i++)
		rn += key_stack(ks, &ks->k[i]).len +
		    (ks->k[i].root != NONE ? 4 : 0);
	ks->rb = p = xmalloc(rn + 1);
	ks->ks = xmalloc((ks->n + 1) * sizeof(*ks->ks));
	ks->ids = xmalloc((ks->n + 1) * sizeof(*ks->ids));
	for (i = 0; i < ks->n; i++) {
		s = key_stack(ks, &ks->k[i]);
		nfr = s.len / sizeof(uint32_t);
		ks->ks[i].s = (const char *)p;
		if (ks->k[i].root != NONE) {
			put_rank(p, ks->rank[2 * ks->k[i].root + 1]);
			p += 4;
		}
		for (j = 0; j < nfr; j++, p += 4) {
			memcpy(&fr, s.s + j * sizeof(fr), sizeof(fr));
			put_rank(p, ks->rank[2 * fr + (j + 1 < nfr)]);
		}
		ks->ks[i].len = (size_t)(p - (const unsigned char *)ks->ks[i].s);
		ks->ids[i] = (uint32_t)i;
	}
	fold_sort_strs(ks->ids, ks->n, ks->ks);
	return NULL;
}

static void
free_keys(struct keyset *ks)
{
	free(ks->k);
	free(ks->ks);
	free(ks->ids);
	free(ks->rb);
}

/* Frame texts followed by ';' for put_line(). */
static void
frame_texts(const struct fold_xctrace_st *st, struct lines *l)
{
	size_t nf = fold_intern_count(&st->frames), i, *to;
	char *tx;

	to = xmalloc((nf + 1) * sizeof(*to));
	for (i = 0, to[0] = 0; i < nf; i++)
		to[i + 1] = to[i] + fold_intern_str(&st->frames,
		    (uint32_t)i).len + 1;
	tx = xmalloc(to[nf] + 16);
	for (i = 0; i < nf; i++)
		memcpy(tx + to[i], fold_intern_str(&st->frames, (uint32_t)i).s,
		    to[i + 1] - to[i] - 1);
	for (i = 0; i < nf; i++)
		tx[to[i + 1] - 1] = ';';
	memset(tx + to[nf], 0, 16);
	memset(l, 0, sizeof(*l));
	for (i = 0; i < nf; i++)
		if (to[i + 1] - to[i] > l->maxf)
			l->maxf = to[i + 1] - to[i];
	l->st = st;
	l->tx = tx;
	l->to = to;
}

/* Keys below this many: no second thread for the pending ones. */
#define KEYS_THREAD 4096

/*
 * The lines in order, written in two halves at once (half the frames
 * each) when stdout takes writes at offsets: the second half by a thread
 * of its own, at the offset it counts from the sizes of the lines before
 * (their texts, count and '\n': put_line()'s bytes).  From LINES_THREAD
 * lines (FOLD_XCTRACE_TWO: 2; FOLD_XCTRACE_ONE: never).
 */
#define LINES_THREAD 4096
struct oline {
	const struct key *k;
	size_t frames;
	uint64_t v;
};
struct half {
	struct lines l;
	const struct keyset *ks;
	const struct oline *ol;
	size_t from, to;
	int64_t start, at;	/* the output's offset, this half's */
	struct fo_at w;
};

/* bytes of the line of ol */
static uint64_t
line_size(const struct lines *l, const struct keyset *ks,
    const struct oline *ol)
{
	struct fold_str s = key_stack(ks, ol->k);
	uint64_t n = 1, v = ol->v;
	size_t i;
	uint32_t fr;

	if (ol->k->root != NONE)
		n += l->to[ol->k->root + 1] - l->to[ol->k->root];
	for (i = 0; i < ol->frames; i++) {
		memcpy(&fr, s.s + i * sizeof(fr), sizeof(fr));
		n += l->to[fr + 1] - l->to[fr];
	}
	do
		n++;
	while ((v /= 10) != 0);
	return n;
}

static void *
write_half(void *arg)
{
	struct half *h = arg;
	size_t i;

	h->at = h->start;
	for (i = 0; i < h->from; i++)
		h->at += (int64_t)line_size(&h->l, h->ks, &h->ol[i]);
	fo_at_init(&h->w, h->at);
	h->l.at = &h->w;
	for (i = h->from; i < h->to; i++)
		put_line(&h->l, h->ol[i].k->root, key_stack(h->ks,
		    h->ol[i].k), h->ol[i].v);
	fo_at_flush(&h->w);
	return NULL;
}

/* The nl lines of ol in two halves (see above), the second by pair: 1,
 * or 0 if there is no second thread (nothing written). */
static int
write_halves(struct fold_pair *pair, const struct lines *l,
    const struct keyset *ks, const struct oline *ol, size_t nl, int64_t start)
{
	struct half h[2];
	size_t tot = 0, i, m;
	int err, s;

	if (pair == NULL)
		return 0;

	for (i = 0; i < nl; i++)
		tot += ol[i].frames;
	for (i = m = 0; m < nl && 2 * i < tot; m++)
		i += ol[m].frames;
	for (s = 0; s < 2; s++) {
		h[s].l = *l;
		h[s].ks = ks;
		h[s].ol = ol;
		h[s].from = s == 0 ? 0 : m;
		h[s].to = s == 0 ? m : nl;
		h[s].start = start;
	}
	fold_pair_both(pair, write_half, &h[0], &h[1]);
	err = h[0].w.err != 0 ? h[0].w.err : h[1].w.err;
	fo_at_free(&h[0].w);
	fo_at_free(&h[1].w);
	if (err != 0)
		fold_die(1, "write error: %s", strerror(err));
	if (h[0].w.off != h[1].at)
		fold_die(1, "internal error: the output's halves were not the "
		    "sizes counted");
	fo_at_done(h[1].w.off);
	return 1;
}

void
fold_xctrace_print(struct fold_xctrace *xc)
{
	struct fold_xctrace_st *st = xc->st;
	struct keyset a, b;
	struct key *k;
	struct fold_str ka, kb;
	struct lines l;
	uint64_t v;
	size_t i, j, nst = fold_intern_count(&st->stacks);
	uint32_t *rank, root, sid;
	int weight = (st->flags & FOLD_XCTRACE_WEIGHT) != 0, c;
	struct oline *ol;
	size_t nl = 0;
	int64_t start;

	rank = frame_ranks(st);
	memset(&a, 0, sizeof(a));
	a.st = st;
	a.rank = rank;
	a.nst = nst;
	b = a;
	/* the keys counted, and the stacks a second reader counted */
	a.k = xmalloc((st->ncap + 1) * sizeof(*a.k));
	for (i = 0; i < st->ncap; i++) {
		v = weight ? st->w[i] : st->n[i];
		if (v == 0)
			continue;
		key_of(st, i, &root, &sid);
		a.k[a.n].root = root;
		a.k[a.n].sid = sid;
		a.k[a.n++].n = v;
	}
	b.k = xmalloc((st->npend + 1) * sizeof(*b.k));
	for (i = 0; i < st->npend; i++) {
		if (st->pend[i].n == 0)
			continue;
		b.k[b.n].root = NONE;
		b.k[b.n].sid = (uint32_t)(nst + i);
		b.k[b.n++].n = st->pend[i].n;
	}
	fold_pair_both(b.n >= KEYS_THREAD ? pair_of(st) : NULL, sort_keys, &a,
	    &b);
	free(rank);
	/* both in order, each key once, its counts summed (rows: no sum
	 * comes near 2^64) */
	frame_texts(st, &l);
	ol = xmalloc((a.n + b.n + 1) * sizeof(*ol));
	for (i = j = 0; i < a.n || j < b.n;) {
		if (j == b.n)
			c = -1;
		else if (i == a.n)
			c = 1;
		else {
			ka = a.ks[a.ids[i]];
			kb = b.ks[b.ids[j]];
			c = fold_strcmp(ka, kb);
		}
		k = c <= 0 ? &a.k[a.ids[i++]] : &b.k[b.ids[j++]];
		v = k->n;
		if (c == 0)
			v += b.k[b.ids[j++]].n;
		/* the same stack in several inputs' pending ones */
		while (c >= 0 && j < b.n &&
		    fold_strcmp(b.ks[b.ids[j - 1]], b.ks[b.ids[j]]) == 0)
			v += b.k[b.ids[j++]].n;
		ol[nl].k = k;
		ol[nl].frames = key_stack(&a, k).len / sizeof(uint32_t);
		ol[nl++].v = v;
	}
	if ((st->flags & FOLD_XCTRACE_ONE) || nl < ((st->flags &
	    FOLD_XCTRACE_TWO) ? 2 : LINES_THREAD) || !fo_at_begin(&start) ||
	    !write_halves(pair_of(st), &l, &a, ol, nl, start))
		for (i = 0; i < nl; i++)
			put_line(&l, ol[i].k->root, key_stack(&a, ol[i].k),
			    ol[i].v);
	free(ol);
	free((void *)l.tx);
	free((void *)l.to);
	free_keys(&a);
	free_keys(&b);
}

int
fold_xctrace_end(struct fold_xctrace *xc)
{
	int status = xc->status;

	st_free(xc->st);
	free(xc);
	return status;
}
