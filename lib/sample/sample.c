/* sample.c - macOS sample(1) reports to folded stacks. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"
#include "sample/sample.h"
#include "symbols/symbols.h"

/* The wait functions of inferno's and FlameGraph's sample collapsers. */
const char *const fold_samplerep_idle[] = {
	"__psynch_cvwait", "__select", "__semwait_signal", "__ulock_wait",
	"__wait4", "__workq_kernreturn", "kevent", "mach_msg_trap", "read",
	"semaphore_wait_trap", NULL
};

/* OUT: before "Call graph:" or after "Total number in stack"; TREE: in it. */
enum { S_OUT, S_TREE };

/* A frame of the current stack: level i is nodes[i]. */
struct node {
	uint64_t count;		/* its count */
	uint64_t kids;		/* its children's, summed */
	uint32_t stack;		/* its stack: a node of the call tree */
	uint32_t fresh;		/* a new stack: its children are in seen[] */
	size_t seen, nseen;	/* its children, seen[seen..seen + nseen) */
	unsigned long long line;
	unsigned char idle;	/* a wait function */
	unsigned char bad;	/* own samples unknown: a child was skipped */
	unsigned char over;	/* kids went past 2^64 - 1 */
};

/* A distinct frame: its folded text. */
struct frame {
	const char *s;
	size_t len;
	int idle;
};

enum { WIDE = 8, CACHE_BITS = 12, WAYS = 4 };	/* 4 ways a set */
/* A frame line's text seen lately. */
struct cached {
	uint64_t pos;		/* where its copy was put (see tcache) */
	uint32_t len;		/* its length; 0: none */
	uint32_t v;		/* what it is: a frame, or a text id */
};
/* Texts longer than CTEXT are not cached; CBUF: about what the sets
 * index, at a report's 140 bytes a text. */
enum { CTEXT = 4096, CBUF = 2 << 20 };
#define NOSET UINT32_MAX	/* a text in no set: not cached */
/*
 * The frame lines' texts seen lately, in sets of WAYS (newest first).
 * The copies go round a ring of CBUF bytes: a copy put at pos (counted
 * from the first, bytes skipped at the ring's end included) is at buf[pos
 * % CBUF], whole, and stays there until the copies after it pass pos +
 * CBUF.  (It was 4 MB, emptied when full: more fresh pages, and copies
 * that pushed the tables out of the processor's cache, for texts the sets
 * could not index.)
 */
struct tcache {
	struct cached sets[WAYS << CACHE_BITS];
	char *buf;		/* the ring */
	size_t cap;		/* its bytes so far */
	uint64_t head;		/* where the next copy goes */
};
struct tnode {
	uint64_t own;		/* its own samples */
	uint32_t up, fr;	/* the stack below it, its frame */
	uint32_t kid, sib;	/* its first child, its next sibling (0: none) */
};
/* A child of a stack of the current one: its frame and node. */
struct seen {
	uint32_t fr, node;
};
/* Stacks: at most 2^31 - 1 (node 0 is the empty one), so that the items
 * below one in fold_samplerep_print() are counted in 32 bits. */
#define MAXSTACKS 0x7fffffffu

struct fold_samplerep_st {
	unsigned flags;
	struct chunk *defer;	/* messages wait in it (see split_run()) */
	uint64_t maxown;	/* the most own samples of a stack */
	struct fold_samplerep *second;	/* the second thread's tree */
	int state;
	int skipping;		/* lines below the stack are skipped */
	uint64_t graphs;	/* call graphs begun in this input */
	uint64_t lines;		/* lines of this input */
	struct node *nodes;	/* the current stack, root first */
	size_t depth, ncap;
	char *tmp;		/* cleaning and demangling scratch */
	size_t tcap;
	struct fold_intern keys;	/* frame keys (see frame_of()) */
	uint32_t *keymap;		/* by key id: its frame */
	size_t keycap;
	struct fold_intern threads;	/* thread lines */
	uint32_t *thmap;		/* by thread line id: its frame */
	size_t thcap;
	struct tcache cache;		/* frame texts to frames */
	uint32_t *rmap, *rthmap;	/* by the reading side's text and
					   thread ids: the frame (made at an
					   id's first record) */
	size_t rmapcap, rthcap;
	struct fold_intern texts;	/* the frames' texts */
	struct frame *frames;		/* by text id */
	size_t fcap;
	char *fb;			/* a frame's text, made */
	size_t fbcap;
	/*
	 * The stacks, as a tree: node 0 is the empty stack, node n > 0 the
	 * stack of node t[n].up with frame t[n].fr on top.  A node's children
	 * are a list, searched first: they were made a moment ago (the report
	 * is a walk of the same tree), so they are in the cache, where a hash
	 * table's slot would not be.  The children of a node with more than
	 * WIDE of them are in slots too (open addressing on (up, fr), node 0:
	 * empty; the key is in the slot, so a probe reads no node).
	 * The children of a stack made in this walk of the tree are all in
	 * seen[] (a stack of lists, a list for each level of the current
	 * stack), so that they are searched without a look at t[].  nk[n]:
	 * node n's children, counted up to WIDE + 1.
	 */
	struct tnode *t;
	unsigned char *nk;
	size_t tn, tncap, tready;	/* t[0..tready), nk[]: resident */
	struct seen *seen;
	size_t seencap;
	struct slot { uint32_t up, fr, node; } *slots;
	size_t smask, nslots;
	char *rbuf;			/* read_range_fd()'s */
	size_t rbcap;
	struct fold_pair *pair;		/* with a second tree: the thread
					   that read it, kept for _print() */
};


struct fold_samplerep *
fold_samplerep_new(unsigned flags)
{
	struct fold_samplerep *r = xcalloc(1, sizeof(*r));
	struct fold_samplerep_st *st = xcalloc(1, sizeof(*st));

	st->flags = flags;
	fold_intern_init(&st->keys);
	fold_intern_init(&st->threads);
	fold_intern_init(&st->texts);
	st->tn = 1;			/* node 0: the empty stack */
	st->tncap = st->tready = 1024;
	st->t = xcalloc(st->tncap, sizeof(*st->t));
	st->nk = xcalloc(st->tncap, 1);
	st->smask = 1023;
	st->slots = xcalloc(st->smask + 1, sizeof(*st->slots));
	r->st = st;
	r->file = "<stdin>";
	return r;
}

/* ---- errors ------------------------------------------------------------ */

struct chunk;
static void defer_msg(struct fold_samplerep_st *st, unsigned long long line,
    const char *what);

static void
error_at(struct fold_samplerep *r, unsigned long long line, const char *what)
{
	if (r->st->defer != NULL) {
		defer_msg(r->st, line, what);
		r->status = 1;
		return;
	}
	if (r->st->flags & FOLD_SAMPLEREP_STRICT)
		fold_die(1, "%s:%llu: %s", r->file, line, what);
	fold_warn("%s:%llu: %s", r->file, line, what);
	r->status = 1;
}

/*
 * A tree line that cannot be read, at level lvl (or -1: unknown): the
 * frames below lvl end, the frame above it loses its own samples (they
 * cannot be told now) and the lines below it are skipped.
 */
static void pop_to(struct fold_samplerep *r, size_t lvl);

static void
bad_line(struct fold_samplerep *r, long lvl, const char *what)
{
	struct fold_samplerep_st *st = r->st;

	error_at(r, r->lineno, what);
	if (lvl >= 0 && (size_t)lvl < st->depth)
		pop_to(r, (size_t)lvl);
	if (st->depth > 0)
		st->nodes[st->depth - 1].bad = 1;
	st->skipping = 1;
}

/* ---- frames ------------------------------------------------------------ */

static int
ismark(char c)
{
	return c == ' ' || c == '+' || c == '!' || c == ':' || c == '|';
}

/* The end of the depth markers of s[k..len). */
static size_t
skip_marks(const char *s, size_t k, size_t len)
{
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' '), pl = _mm_set1_epi8('+');
	const __m128i ex = _mm_set1_epi8('!'), co = _mm_set1_epi8(':');
	const __m128i ba = _mm_set1_epi8('|');
	__m128i x, m;
	unsigned bits;

	for (; k + 16 <= len; k += 16) {
		x = _mm_loadu_si128((const __m128i *)(const void *)(s + k));
		m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp),
		    _mm_cmpeq_epi8(x, pl)), _mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(x, ex), _mm_cmpeq_epi8(x, co)),
		    _mm_cmpeq_epi8(x, ba)));
		bits = (unsigned)_mm_movemask_epi8(m) ^ 0xffffu;
		if (bits != 0) {
#if defined(__GNUC__) || defined(__clang__)
			return k + (size_t)__builtin_ctz(bits);
#else
			while (!(bits & 1)) {
				bits >>= 1;
				k++;
			}
			return k;
#endif
		}
	}
#endif
	while (k < len && ismark(s[k]))
		k++;
	return k;
}

/* The bytes of offsets and addresses: hex digits, 'x', ',' and '.'. */
#define A 1
static const unsigned char addrch[256] = {
	['0'] = A, ['1'] = A, ['2'] = A, ['3'] = A, ['4'] = A, ['5'] = A,
	['6'] = A, ['7'] = A, ['8'] = A, ['9'] = A, ['a'] = A, ['b'] = A,
	['c'] = A, ['d'] = A, ['e'] = A, ['f'] = A, ['A'] = A, ['B'] = A,
	['C'] = A, ['D'] = A, ['E'] = A, ['F'] = A, ['x'] = A, [','] = A,
	['.'] = A
};
#undef A

static int
isaddr(char c)
{
	return addrch[(unsigned char)c];
}

static size_t
rtrim(const char *t, size_t e)
{
	while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
		e--;
	return e;
}

/* The last c in t[0..e), or (size_t)-1. */
static size_t
rfind(const char *t, size_t e, char c)
{
#ifdef __SSE2__
	const __m128i v = _mm_set1_epi8(c);
	unsigned m;

	for (; e >= 16; e -= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)(const void *)(t + e - 16)), v));
		if (m != 0) {
#if defined(__GNUC__) || defined(__clang__)
			return e - 16 + (size_t)(31 - __builtin_clz(m));
#else
			for (e--; !(m & 0x8000u); m <<= 1)
				e--;
			return e;
#endif
		}
	}
#endif
	while (e > 0)
		if (t[--e] == c)
			return e;
	return (size_t)-1;
}

/*
 * Split a frame's text, read from the right: a source line after the
 * addresses, "  [0xADDR,...]", " + OFF[,OFF...]" or "  load address 0xBASE
 * + 0xOFF", then the last "  (in MODULE)"; the name is what is left.
 * *mod is NULL when there is no "(in".
 */
static void
split_frame(const char *t, size_t n, size_t *nlen, const char **mod,
    size_t *mlen)
{
	size_t e = n, a, b, q;

	*mod = NULL;
	*mlen = 0;
	b = rfind(t, e, ']');
	if (b != (size_t)-1 && (b + 1 == e || t[b + 1] == ' ' ||
	    t[b + 1] == '\t')) {
		a = rfind(t, b, '[');
		if (a != (size_t)-1 && a > 0 && t[a - 1] == ' ' &&
		    b - a >= 3 && t[a + 1] == '0' && t[a + 2] == 'x')
			e = rtrim(t, a);
	}
	for (q = e; q > 0 && isaddr(t[q - 1]); q--)
		;
	if (q < e && q >= 3 && t[q - 1] == ' ' && t[q - 2] == '+' &&
	    t[q - 3] == ' ') {
		e = rtrim(t, q - 3);
		for (q = e; q > 0 && isaddr(t[q - 1]); q--)
			;
		if (q < e && q >= 13 && memcmp(t + q - 13, "load address ",
		    13) == 0)
			e = rtrim(t, q - 13);
	}
	if (e > 0 && t[e - 1] == ')') {
		for (a = e - 1; (a = rfind(t, a, '(')) != (size_t)-1;)
			if (e - a >= 5 && memcmp(t + a, "(in ", 4) == 0) {
				*mod = t + a + 4;
				*mlen = e - 1 - (a + 4);
				e = rtrim(t, a);
				break;
			}
	}
	*nlen = e;
}

static void
copy_semi(char *o, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		o[k] = s[k] == ';' ? ':' : s[k];
}

/* Length of name without a trailing " (.llvm.DIGITS)". */
static size_t
cut_llvm(const char *s, size_t n)
{
	size_t q = n;

	if (n < 10 || s[n - 1] != ')')
		return n;
	for (q = n - 1; q > 0 && s[q - 1] >= '0' && s[q - 1] <= '9'; q--)
		;
	if (q == n - 1 || q < 8 || memcmp(s + q - 8, " (.llvm.", 8) != 0)
		return n;
	return rtrim(s, q - 8);
}

/* Whether a name ends in "::h<16 hex>" (no longer than the demangler
 * writes): a Rust name left half demangled, to be finished. */
static int
rust_hashed(const char *name, size_t nlen)
{
	return nlen >= 20 && nlen <= FOLD_DM_MAXOUT &&
	    name[nlen - 17] == 'h' && name[nlen - 18] == ':';
}

/*
 * The number of the frame made of a new key, made once: frames of the same
 * text are one ("m`f" from "f  (in m)" and "f  (in m.dylib)").
 */
static uint32_t
make_frame(struct fold_samplerep_st *st, int thread, const char *mod,
    size_t mlen, const char *name, size_t nlen)
{
	size_t n = 0, m, k, len;
	uint32_t id;
	int idle = 0, isnew, withmod;
	char *o;

	if (!thread) {
		nlen = cut_llvm(name, nlen);
		if (rust_hashed(name, nlen)) {
			fold_grow(&st->tmp, &st->tcap, FOLD_DM_MAXOUT +
			    12 * nlen + 32, 1);
			if ((m = fold_rust_remangle(name, nlen,
			    st->tmp + FOLD_DM_MAXOUT)) > 0)
				n = fold_demangle_rust(st->tmp +
				    FOLD_DM_MAXOUT, m, st->tmp, FOLD_DM_MAXOUT,
				    FOLD_DM_PARAMS);
		}
		if (n > 0)
			name = st->tmp;
	}
	if (n == 0)
		n = nlen;
	withmod = !thread && mod != NULL &&
	    !(st->flags & FOLD_SAMPLEREP_NO_MODULES);
	if (withmod && mlen >= 6 && memcmp(mod + mlen - 6, ".dylib", 6) == 0)
		mlen -= 6;
	len = (withmod ? mlen + 1 : 0) + n;
	fold_grow(&st->fb, &st->fbcap, len + 1, 1);
	o = st->fb;
	if (withmod) {
		copy_semi(o, mod, mlen);
		o[mlen] = '`';
		o += mlen + 1;
	}
	copy_semi(o, name, n);
	id = fold_intern(&st->texts, st->fb, len, &isnew);
	if (isnew) {
		for (k = 0; !thread && fold_samplerep_idle[k] != NULL; k++)
			if (strlen(fold_samplerep_idle[k]) == n &&
			    memcmp(fold_samplerep_idle[k], name, n) == 0)
				idle = 1;
		fold_grow(&st->frames, &st->fcap, (size_t)id + 1,
		    sizeof(*st->frames));
		st->frames[id].s = fold_intern_str(&st->texts, id).s;
		st->frames[id].len = len;
		st->frames[id].idle = idle;
	}
	return id;
}

/*
 * The frame of a tree line's text (after the count): its number.  A frame
 * line's whole text (with its offsets and addresses) is looked up first: a
 * text seen before is found by one look at the cache and one memcmp(),
 * without splitting it again.  A new one is split and its frame's text
 * made and looked up in the frames' table, but for a Rust name to be
 * finished (demangled): its key, the text up to the ')' of "(in MODULE)",
 * is looked up first, so that the frame is made once a key.  A thread's
 * text is the key, in a table of its own.
 */
static size_t
cache_of(const char *t, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	if (n >= 16) {
		memcpy(&a, t, 8);
		memcpy(&b, t + 8, 8);
		memcpy(&c, t + n - 16, 8);
		memcpy(&d, t + n - 8, 8);
	} else if (n >= 8) {
		memcpy(&a, t, 8);
		memcpy(&d, t + n - 8, 8);
	} else if (n > 0)
		a = (uint64_t)(unsigned char)t[0] << 16 |
		    (uint64_t)(unsigned char)t[n / 2] << 8 |
		    (unsigned char)t[n - 1];
	a = (a * UINT64_C(0x9E3779B97F4A7C15)) ^
	    (b * UINT64_C(0xBF58476D1CE4E5B9)) ^
	    (c * UINT64_C(0x94D049BB133111EB)) ^
	    ((d ^ n) * UINT64_C(0xD6E8FEB86659FD93));
	a ^= a >> 29;
	a *= UINT64_C(0xBF58476D1CE4E5B9);
	return (size_t)(a >> (64 - CACHE_BITS));
}

/* Whether text t[0..n) is in set (of c), its value in *v if so. */
static int
cache_find(struct tcache *c, uint32_t set, const char *t, size_t n,
    uint32_t *v)
{
	struct cached tmp, *e = &c->sets[WAYS * set];
	size_t w;

	for (w = 0; w < WAYS; w++)
		if (e[w].len == n && c->head - e[w].pos <= CBUF &&
		    memcmp(c->buf + e[w].pos % CBUF, t, n) == 0) {
			tmp = e[w];
			memmove(e + 1, e, w * sizeof(*e));
			e[0] = tmp;
			*v = tmp.v;
			return 1;
		}
	return 0;
}

/* Text t[0..n) (n <= CTEXT) put in set, its value v. */
static void
cache_put(struct tcache *c, uint32_t set, const char *t, size_t n, uint32_t v)
{
	struct cached *e = &c->sets[WAYS * set];
	size_t off = c->head % CBUF;

	if (off + n > CBUF) {	/* (the ring's end skipped) */
		c->head += CBUF - off;
		off = 0;
	}
	fold_grow(&c->buf, &c->cap, off + n, 1);
	memcpy(c->buf + off, t, n);
	memmove(e + 1, e, (WAYS - 1) * sizeof(*e));
	e->pos = c->head;
	e->len = (uint32_t)n;
	e->v = v;
	c->head += n;
}

/* Fetch the cache set of text t (c's set) and its newest text, a while
 * before they are looked at. */
static void
cache_prefetch(const struct tcache *c, uint32_t set, int text)
{
	if (set == NOSET)
		return;
	if (!text)
		fold_prefetch(&c->sets[WAYS * set]);
	else if (c->buf != NULL)
		fold_prefetch(c->buf + c->sets[WAYS * set].pos % CBUF);
}

static uint32_t
frame_of(struct fold_samplerep_st *st, int thread, const char *t, size_t n,
    uint32_t set)
{
	const char *mod = NULL;
	size_t nlen = n, mlen = 0, klen;
	uint32_t id, f;
	int isnew;

	if (thread) {
		id = fold_intern(&st->threads, t, n, &isnew);
		if (isnew) {
			fold_grow(&st->thmap, &st->thcap, (size_t)id + 1,
			    sizeof(*st->thmap));
			st->thmap[id] = make_frame(st, 1, NULL, 0, t, n);
		}
		return st->thmap[id];
	}
	if (set != NOSET && cache_find(&st->cache, set, t, n, &f))
		return f;
	split_frame(t, n, &nlen, &mod, &mlen);
	if (!rust_hashed(t, cut_llvm(t, nlen)))
		f = make_frame(st, 0, mod, mlen, t, nlen);
	else {
		klen = mod != NULL ? (size_t)(mod - t) + mlen + 1 : nlen;
		id = fold_intern(&st->keys, t, klen, &isnew);
		if (isnew) {
			fold_grow(&st->keymap, &st->keycap, (size_t)id + 1,
			    sizeof(*st->keymap));
			st->keymap[id] = make_frame(st, 0, mod, mlen, t, nlen);
		}
		f = st->keymap[id];
	}
	if (set != NOSET)	/* n <= CTEXT: scan_line() saw to it */
		cache_put(&st->cache, set, t, n, f);
	return f;
}

/* ---- the stacks: a tree of frames ------------------------------------- */

static size_t
slot_of(uint32_t up, uint32_t fr, size_t mask)
{
	uint64_t k = ((uint64_t)up << 32 | fr) * UINT64_C(0x9E3779B97F4A7C15);

	return (size_t)(k ^ k >> 29 ^ k >> 47) & mask;
}

static void
grow_slots(struct fold_samplerep_st *st)
{
	size_t mask = st->smask * 2 + 1, i, n;
	struct slot *sl = xcalloc(mask + 1, sizeof(*sl));

	for (n = 0; n <= st->smask; n++) {
		if (st->slots[n].node == 0)
			continue;
		for (i = slot_of(st->slots[n].up, st->slots[n].fr, mask);
		    sl[i].node != 0; i = (i + 1) & mask)
			;
		sl[i] = st->slots[n];
	}
	free(st->slots);
	st->slots = sl;
	st->smask = mask;
}

static void
put_slot(struct fold_samplerep_st *st, uint32_t n)
{
	size_t i;

	for (i = slot_of(st->t[n].up, st->t[n].fr, st->smask);
	    st->slots[i].node != 0; i = (i + 1) & st->smask)
		;
	st->slots[i].up = st->t[n].up;
	st->slots[i].fr = st->t[n].fr;
	st->slots[i].node = n;
	if (++st->nslots * 2 > st->smask)
		grow_slots(st);
}

/*
 * Room for the stacks after t[tready) (their nodes are set whole when
 * made: not zeroed): the arrays' pages made resident STACKS_AHEAD nodes at
 * a time, not all of their doubled size at once (a quarter of it, on
 * average, would never be used).
 */
enum { STACKS_AHEAD = 32768 };
static void
more_stacks(struct fold_samplerep_st *st)
{
	size_t want;

	if (st->tready == st->tncap) {
		if (st->tncap > ((size_t)-1 / 2) / sizeof(*st->t))
			fold_die(1, "out of memory");
		st->tncap *= 2;
		st->t = xrealloc(st->t, st->tncap * sizeof(*st->t));
		st->nk = xrealloc(st->nk, st->tncap);
	}
	want = st->tready + STACKS_AHEAD < st->tncap ? st->tready +
	    STACKS_AHEAD : st->tncap;
	fold_prefault(st->t + st->tready, (want - st->tready) *
	    sizeof(*st->t));
	fold_prefault(st->nk + st->tready, want - st->tready);
	st->tready = want;
}

/* A new stack: stack up with frame fr on top. */
static uint32_t
new_stack(struct fold_samplerep_st *st, uint32_t up, uint32_t fr)
{
	struct tnode *u, *c;
	uint32_t n;

	if (st->tn >= MAXSTACKS)
		fold_die(1, "more than %lu distinct stacks",
		    (unsigned long)MAXSTACKS - 1);
	n = (uint32_t)st->tn++;
	if (n == st->tready)
		more_stacks(st);
	u = &st->t[up];
	c = &st->t[n];
	c->own = 0;
	c->up = up;
	c->fr = fr;
	c->kid = 0;
	c->sib = u->kid;
	u->kid = n;
	st->nk[n] = 0;
	if (st->nk[up] <= WIDE && ++st->nk[up] > WIDE)	/* now wide */
		for (n = u->kid; n != 0; n = st->t[n].sib)
			put_slot(st, n);
	else if (st->nk[up] > WIDE)
		put_slot(st, n);
	return (uint32_t)(c - st->t);
}

/* The stack of stack up with frame fr on top. */
static uint32_t
stack_of(struct fold_samplerep_st *st, uint32_t up, uint32_t fr)
{
	size_t i;
	uint32_t n;

	if (st->nk[up] <= WIDE) {
		for (n = st->t[up].kid; n != 0; n = st->t[n].sib)
			if (st->t[n].fr == fr)
				return n;
	} else
		for (i = slot_of(up, fr, st->smask);
		    (n = st->slots[i].node) != 0; i = (i + 1) & st->smask)
			if (st->slots[i].up == up && st->slots[i].fr == fr)
				return n;
	return new_stack(st, up, fr);
}

/*
 * The stack of frame fr on top of the stack of level lvl - 1 (the empty
 * stack at level 0), set in nodes[lvl].  Below a stack made in this walk,
 * the children are those in its list in seen[].
 */
static void
push_stack(struct fold_samplerep_st *st, size_t lvl, uint32_t fr)
{
	struct node *nd = &st->nodes[lvl], *up = lvl > 0 ? nd - 1 : NULL;
	uint32_t upst = up != NULL ? up->stack : 0, n = 0;
	size_t i, e;

	nd->fresh = 0;
	if (up == NULL || !up->fresh || st->nk[upst] > WIDE) {
		n = stack_of(st, upst, fr);
		nd->fresh = n + 1 == st->tn && st->t[n].kid == 0 &&
		    st->nk[n] == 0;
	} else {
		e = up->seen + up->nseen;
		for (i = up->seen; i < e; i++)
			if (st->seen[i].fr == fr) {
				n = st->seen[i].node;
				break;
			}
		if (i == e) {
			n = new_stack(st, upst, fr);
			nd->fresh = 1;
			fold_grow(&st->seen, &st->seencap, e + 1,
			    sizeof(*st->seen));
			st->seen[e].fr = fr;
			st->seen[e].node = n;
			up->nseen++;
		}
	}
	nd->stack = n;
	nd->seen = up != NULL ? up->seen + up->nseen : 0;
	nd->nseen = 0;
}

/* ---- the tree ---------------------------------------------------------- */

/* The own samples of the frame on top of the stack, which ends. */
static void
pop(struct fold_samplerep *r)
{
	struct fold_samplerep_st *st = r->st;
	struct node *nd = &st->nodes[--st->depth];
	uint64_t self;
	char msg[160];

	if (nd->bad)
		return;
	if (nd->over || nd->kids > nd->count) {
		snprintf(msg, sizeof(msg), "the counts of the frames below "
		    "this one add up to more than its %llu",
		    (unsigned long long)nd->count);
		error_at(r, nd->line, msg);
		return;
	}
	self = nd->count - nd->kids;
	if (self == 0 || nd->stack == 0)
		return;
	if (nd->idle && !(st->flags & FOLD_SAMPLEREP_ALL)) {
		r->idle = r->idle > UINT64_MAX - self ? UINT64_MAX :
		    r->idle + self;
		return;
	}
	if (st->t[nd->stack].own > UINT64_MAX - self) {
		error_at(r, nd->line, "a sum of samples past "
		    "18446744073709551615");
		return;
	}
	st->t[nd->stack].own += self;
	if (st->t[nd->stack].own > st->maxown)
		st->maxown = st->t[nd->stack].own;
}

static void
pop_to(struct fold_samplerep *r, size_t lvl)
{
	while (r->st->depth > lvl)
		pop(r);
}

/*
 * A line, read without changing anything: what the call graph needs of it
 * if it is in one.  Lines are read a batch at a time before they are used,
 * so that the cache sets of their frames are fetched meanwhile.
 */
struct scan {
	const char *line;
	size_t len;		/* without the blanks at its end */
	size_t k;		/* the depth markers' end (0: no 4 spaces) */
	size_t j;		/* the end of the count */
	size_t f;		/* the frame's text */
	uint64_t c;		/* the count */
	int ovf;		/* the count passed 2^64 - 1 */
	uint32_t set;		/* the frame's cache set, or NOSET */
};

static void
scan_line(const char *line, size_t len, struct scan *sc)
{
	size_t k, j;
	uint64_t c = 0;

	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
	    line[len - 1] == '\r'))
		len--;
	sc->line = line;
	sc->len = len;
	sc->k = sc->j = sc->f = 0;
	sc->set = NOSET;
	sc->ovf = 0;
	if (len < 4 || memcmp(line, "    ", 4) != 0)
		return;
	sc->k = k = skip_marks(line, 4, len);
	/* 19 digits cannot pass 2^64 - 1: checked only after them */
	for (j = k; j < len && j - k < 19 && line[j] >= '0' && line[j] <= '9';
	    j++)
		c = c * 10 + (uint64_t)(line[j] - '0');
	for (; j < len && line[j] >= '0' && line[j] <= '9'; j++) {
		if (c > (UINT64_MAX - (uint64_t)(line[j] - '0')) / 10) {
			sc->ovf = 1;
			break;
		}
		c = c * 10 + (uint64_t)(line[j] - '0');
	}
	sc->j = j;
	sc->c = c;
	while (j < len && line[j] == ' ')
		j++;
	sc->f = j;
	if (j < len && len - j <= CTEXT)
		sc->set = (uint32_t)cache_of(line + j, len - j);
}

/*
 * What a line (or the end of an input) is to the call graph, as the
 * reading side tells it to the side that builds the tree: the reading side
 * follows where the report is (S_OUT, S_TREE: the text alone says it),
 * checks the line's shape and finds its frame; the tree side has the stack
 * and the stacks.  Each line gives one record, in order, so the tree side
 * counts the lines; errors of files (R_IOERR) and the ends of inputs come
 * where they happened, so that messages come in the order of one thread.
 */
enum {
	R_NONE,		/* a line outside the call graph, or blank */
	R_GRAPH,	/* "Call graph:" */
	R_TOTAL,	/* "Total number in stack" */
	R_E4SP, R_EMARKS, R_EODD,	/* errors at no level */
	R_EOVF, R_ENOCOUNT, R_ENOFRAME,	/* errors at level lvl */
	R_FRAME,	/* a frame (fr, or NOFRAME: a thread left out) */
	/* not lines: */
	R_EOF,		/* the input ended */
	R_EOFIN,	/* the input ended inside the call graph */
	R_EOFNO,	/* the input ended before any call graph */
	R_FILE,		/* a new input, name */
	R_IOERR		/* an error of file name: errno c, a read error: idle */
};
#define NOFRAME UINT32_MAX
#define TEXT (UINT32_MAX - 1)	/* the frame of text (its cache set: set) */
#define RID (UINT32_MAX - 2)	/* the frame of the reading side's text id
				   set (a thread's at level 0); its text is
				   given with the first record of an id */
struct rec {
	uint64_t c;		/* the count */
	union {
		size_t lvl;	/* the level */
		const char *name;
	} u;
	const char *text;	/* TEXT, RID: the frame's text[0..tlen) */
	size_t tlen;
	uint32_t fr;		/* the frame, NOFRAME, or TEXT or RID: to be
				   found by the tree side (see read_all()) */
	uint32_t set;
	unsigned char kind, idle;
};

/* The frame of a TEXT or RID record, found (the tree side). */
static void
find_frame(struct fold_samplerep_st *st, struct rec *o)
{
	int thread = o->u.lvl == 0;
	uint32_t **map = thread ? &st->rthmap : &st->rmap;
	size_t *cap = thread ? &st->rthcap : &st->rmapcap;

	if (o->fr == TEXT)
		o->fr = frame_of(st, thread, o->text, o->tlen, o->set);
	else {
		if (o->text != NULL) {	/* the id's first record */
			fold_grow(map, cap, (size_t)o->set + 1, sizeof(**map));
			(*map)[o->set] = frame_of(st, thread, o->text, o->tlen,
			    NOSET);
		}
		o->fr = (*map)[o->set];
	}
	o->idle = (unsigned char)st->frames[o->fr].idle;
}

/* The record of the line of sc (the reading side); its frame found, or
 * left to find (TEXT) if defer. */
static void
line_rec(struct fold_samplerep_st *st, const struct scan *sc, struct rec *o,
    int defer)
{
	const char *line = sc->line;
	size_t len = sc->len, k = sc->k, j = sc->j, lvl;

	st->lines++;
	if (st->state != S_TREE) {
		o->kind = R_NONE;
		if (len >= 11 && memcmp(line, "Call graph:", 11) == 0) {
			st->state = S_TREE;
			st->graphs++;
			o->kind = R_GRAPH;
		}
		return;
	}
	if (len == 0)
		o->kind = R_NONE;
	else if (k == 0 && len >= 21 &&
	    memcmp(line, "Total number in stack", 21) == 0) {
		st->state = S_OUT;
		o->kind = R_TOTAL;
	} else if (k == 0)
		o->kind = R_E4SP;
	else if (k == len)
		o->kind = R_EMARKS;
	else if ((k - 4) % 2 != 0)
		o->kind = R_EODD;
	else {
		o->u.lvl = lvl = (k - 4) / 2;
		o->c = sc->c;
		if (sc->ovf)
			o->kind = R_EOVF;
		else if (j == k)
			o->kind = R_ENOCOUNT;
		else if (j == len || line[j] != ' ')
			o->kind = R_ENOFRAME;
		else {
			o->kind = R_FRAME;
			o->idle = 0;
			if (lvl == 0 && (st->flags & FOLD_SAMPLEREP_NO_THREADS))
				o->fr = NOFRAME;
			else if (defer) {
				o->fr = TEXT;
				o->text = line + sc->f;
				o->tlen = len - sc->f;
				o->set = sc->set;
			} else {
				o->fr = frame_of(st, lvl == 0, line + sc->f,
				    len - sc->f, sc->set);
				o->idle = (unsigned char)st->frames[o->fr].idle;
			}
		}
	}
}

/* The record of the end of an input (the reading side). */
static void
eof_rec(struct fold_samplerep_st *st, struct rec *o)
{
	o->kind = st->state == S_TREE ? R_EOFIN : st->graphs == 0 &&
	    st->lines > 0 ? R_EOFNO : R_EOF;
	st->state = S_OUT;
	st->graphs = st->lines = 0;
}

/* A frame line at level lvl (the tree side). */
static void
frame_line(struct fold_samplerep *r, const struct rec *rc, size_t lvl)
{
	struct fold_samplerep_st *st = r->st;
	struct node *nd, *up;
	uint64_t c = rc->c;

	pop_to(r, lvl);
	st->skipping = 0;
	if (lvl > 0) {
		up = &st->nodes[lvl - 1];
		if (up->kids > UINT64_MAX - c)
			up->over = 1;
		else
			up->kids += c;
	}
	fold_grow(&st->nodes, &st->ncap, lvl + 1, sizeof(*st->nodes));
	nd = &st->nodes[lvl];
	st->depth = lvl + 1;
	nd->count = c;
	nd->kids = 0;
	nd->line = r->lineno;
	nd->bad = nd->over = 0;
	nd->idle = rc->idle;
	if (rc->fr == NOFRAME) {
		nd->stack = 0;
		nd->fresh = 0;
		nd->seen = nd->nseen = 0;
		return;
	}
	push_stack(st, lvl, rc->fr);
}

/* Use a record (the tree side); r->lineno is the line's. */
static void
use_rec(struct fold_samplerep *r, const struct rec *rc)
{
	struct fold_samplerep_st *st = r->st;
	size_t lvl;
	char msg[96];

	switch (rc->kind) {
	case R_NONE:
		return;
	case R_GRAPH:
		st->skipping = 0;
		return;
	case R_TOTAL:
		pop_to(r, 0);
		return;
	case R_E4SP:
		bad_line(r, -1, "a call graph line that does not start with "
		    "4 spaces");
		return;
	case R_EMARKS:
		bad_line(r, -1, "a call graph line with depth markers only");
		return;
	case R_EODD:
		bad_line(r, -1, "an odd number of depth markers");
		return;
	case R_EOFIN:
		error_at(r, r->lineno, "the report ends inside the call graph "
		    "(no \"Total number in stack\" line)");
		pop_to(r, 0);
		st->skipping = 0;
		return;
	case R_EOFNO:
		error_at(r, r->lineno, "the report ends before its call graph "
		    "(no \"Call graph:\" line): not the output of sample");
		st->skipping = 0;
		return;
	case R_EOF:
		st->skipping = 0;
		return;
	}
	lvl = rc->u.lvl;
	if (lvl > st->depth) {
		if (st->skipping)
			return;
		snprintf(msg, sizeof(msg), "a frame %zu levels below the one "
		    "before", lvl - st->depth + 1);
		bad_line(r, -1, msg);
		return;
	}
	switch (rc->kind) {
	case R_EOVF:
		bad_line(r, (long)lvl, "a sample count past "
		    "18446744073709551615");
		return;
	case R_ENOCOUNT:
		bad_line(r, (long)lvl, "no sample count before the frame");
		return;
	case R_ENOFRAME:
		bad_line(r, (long)lvl, "no frame after the sample count");
		return;
	}
	frame_line(r, rc, lvl);
}

void
fold_samplerep_line(struct fold_samplerep *r, const char *line, size_t len)
{
	struct scan sc;
	struct rec rc;

	scan_line(line, len, &sc);
	line_rec(r->st, &sc, &rc, 0);
	use_rec(r, &rc);
}

void
fold_samplerep_eof(struct fold_samplerep *r)
{
	struct rec rc;

	memset(&rc, 0, sizeof(rc));	/* (a compiler's warning otherwise) */
	eof_rec(r->st, &rc);
	use_rec(r, &rc);
}

/* ---- reading ----------------------------------------------------------- */

/*
 * The lines of an input are read BATCH at a time: scanned first (which
 * fetches their cache sets), then their frames found, then used.  Where
 * the input is large and there are two processors, the reading side runs
 * in a thread of its own and hands records over in blocks (a ring of
 * NBLK of them, BLKRECS records each); the tree side is the caller's.
 * Frames are the tree side's.  A mapped file's lines stay where they
 * are: their texts are left to the tree side (TEXT records), which would
 * otherwise wait for the reading side (for 86 MB: 0.0776 to 0.0715 s); the
 * pages from the oldest block not used yet on are held (in.hold).  A line
 * read into a buffer does not stay: its text is found by the reading side,
 * to an id of its own (RID: a cache and tables of its own; the tree side
 * makes an id's frame once).
 */
enum { BATCH = 32, BLKRECS = 4096, NBLK = 8, AHEAD = 16 };
#define THREAD_MIN (4u << 20)	/* bytes: a smaller input is read in one */

struct reader {
	struct fold_samplerep *r;
	struct fold_in in;
	int first;		/* no line read yet */
	/* the threaded reader: blocks[i % NBLK] is written, then handed
	 * over (filled counts them), then used (used counts them) */
	int threaded;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct rec *blk[NBLK];
	size_t nrec[NBLK];
	const char *bstart[NBLK];	/* where the lines of each begin */
	size_t filled, used;	/* under mu */
	int done;		/* under mu: no block comes after filled */
	int waiting;		/* under mu: a side waits on cv */
	struct rec *cur;	/* the reading side's block */
	size_t ncur;
	struct tcache *cache;	/* the reading side's: texts to text ids */
	struct fold_intern texts, threads;	/* its text ids */
};

/* Hand the current block over (the reading side). */
static void
hand_over(struct reader *rd, int done)
{
	size_t used;

	pthread_mutex_lock(&rd->mu);
	rd->nrec[rd->filled % NBLK] = rd->ncur;
	rd->filled++;
	rd->done = done;
	if (rd->waiting)
		pthread_cond_broadcast(&rd->cv);
	while (!done && rd->filled - rd->used >= NBLK) {
		rd->waiting++;
		pthread_cond_wait(&rd->cv, &rd->mu);
		rd->waiting--;
	}
	used = rd->used;
	pthread_mutex_unlock(&rd->mu);
	rd->cur = rd->blk[rd->filled % NBLK];
	rd->ncur = 0;
	/* no line of this block or a later one lies before where reading
	 * is (the line just read, if any, is kept in the block before) */
	rd->bstart[rd->filled % NBLK] = rd->in.data + rd->in.pos;
	rd->in.hold = rd->bstart[used % NBLK];
}

/* A record to fill (the reading side): the next of the current block. */
static struct rec *
next_rec(struct reader *rd)
{
	if (rd->ncur == BLKRECS)
		hand_over(rd, 0);
	return &rd->cur[rd->ncur++];
}

static void use_recs(struct fold_samplerep *r, struct rec *rc, size_t n);

/* A record of no line: handed over or used now. */
static void
side_rec(struct reader *rd, struct rec *rc)
{
	if (rd->threaded)
		*next_rec(rd) = *rc;
	else
		use_recs(rd->r, rc, 1);
}

static void
in_error(void *arg, const char *name, int err, int isread)
{
	struct reader *rd = arg;
	struct rec rc;

	rc.kind = R_IOERR;
	rc.u.name = name;
	rc.c = (uint64_t)err;
	rc.idle = (unsigned char)isread;
	side_rec(rd, &rc);
}

/* Use n records of a block (the tree side), the frames of TEXT and RID
 * records found first (TEXT cache sets and texts fetched AHEAD before). */
static void
use_recs(struct fold_samplerep *r, struct rec *rc, size_t n)
{
	struct fold_samplerep_st *st = r->st;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i + AHEAD < n && rc[i + AHEAD].kind == R_FRAME &&
		    rc[i + AHEAD].fr == TEXT)
			cache_prefetch(&st->cache, rc[i + AHEAD].set, 0);
		if (i + AHEAD / 2 < n && rc[i + AHEAD / 2].kind == R_FRAME &&
		    rc[i + AHEAD / 2].fr == TEXT) {
			fold_prefetch(rc[i + AHEAD / 2].text);
			cache_prefetch(&st->cache, rc[i + AHEAD / 2].set, 1);
		}
		switch (rc[i].kind) {
		case R_FILE:
			r->file = rc[i].u.name;
			r->lineno = 0;
			break;
		case R_IOERR:
			fold_in_warn(rc[i].u.name, (int)rc[i].c,
			    (int)rc[i].idle);
			break;
		case R_EOF:
		case R_EOFIN:
		case R_EOFNO:
			use_rec(r, &rc[i]);
			break;
		case R_FRAME:
			if (rc[i].fr == TEXT || rc[i].fr == RID)
				find_frame(st, &rc[i]);
			/* FALLTHROUGH */
		default:
			r->lineno++;
			use_rec(r, &rc[i]);
		}
	}
}

/* The text of TEXT record o made the reading side's text id (RID). */
static void
text_id(struct reader *rd, struct rec *o)
{
	int thread = o->u.lvl == 0, isnew;
	struct fold_intern *t = thread ? &rd->threads : &rd->texts;
	uint32_t set = thread ? NOSET : o->set, id;

	o->fr = RID;
	if (set != NOSET && cache_find(rd->cache, set, o->text, o->tlen,
	    &o->set)) {
		o->text = NULL;
		return;
	}
	id = fold_intern(t, o->text, o->tlen, &isnew);
	if (set != NOSET)
		cache_put(rd->cache, set, o->text, o->tlen, id);
	o->set = id;
	/* the first record of an id gives its text, a copy that stays */
	o->text = isnew ? fold_intern_str(t, id).s : NULL;
}

/* The record of the line of sc, lineno (the reading side): handed over
 * (its frame left to the tree side or found here), or used now. */
static void
put_line(struct reader *rd, const struct scan *sc, unsigned long long lineno)
{
	struct fold_samplerep *r = rd->r;
	struct rec rc, *o;

	if (!rd->threaded) {
		r->lineno = lineno;
		line_rec(r->st, sc, &rc, 0);
		use_rec(r, &rc);
		return;
	}
	line_rec(r->st, sc, o = next_rec(rd), 1);
	if (o->kind == R_FRAME && o->fr == TEXT && !rd->in.mapped)
		text_id(rd, o);
}

/* Up to BATCH lines of p[*off..end) scanned into sc[] (*off moved past
 * them), the cache sets of their texts in c fetched meanwhile (c NULL:
 * not); their number.  Whole lines only, unless last: then the last line
 * may end at end without its '\n'. */
static size_t
scan_batch(const char *p, size_t *off, size_t end, int last,
    const struct tcache *c, struct scan *sc)
{
	const char *q;
	size_t o = *off, nb, i, e;

	for (nb = 0; nb < BATCH && o < end; nb++) {
		if ((q = memchr(p + o, '\n', end - o)) == NULL && !last)
			break;
		e = q != NULL ? (size_t)(q - p) : end;
		scan_line(p + o, e - o, &sc[nb]);
		if (c != NULL)
			cache_prefetch(c, sc[nb].set, 0);
		o = q != NULL ? e + 1 : end;
	}
	for (i = 0; i < nb && c != NULL; i++)
		cache_prefetch(c, sc[i].set, 1);
	*off = o;
	return nb;
}

/*
 * Read all lines (the reading side); with a thread, records are handed
 * over, else used.  A line's record is made after its batch is scanned.
 */
static void
read_all(struct reader *rd)
{
	struct fold_samplerep_st *st = rd->r->st;
	struct fold_in *in = &rd->in;
	struct tcache *c;
	struct scan sc[BATCH];
	struct rec rc;
	const char *line, *p;
	size_t len, avail, off, nb, i;

	while (fold_in_line(in, &line, &len)) {
		if (in->newfile && !rd->first) {
			eof_rec(st, &rc);
			side_rec(rd, &rc);
		}
		if (in->newfile) {
			rc.kind = R_FILE;
			rc.u.name = in->name;
			side_rec(rd, &rc);
		}
		rd->first = 0;
		scan_line(line, len, &sc[0]);
		put_line(rd, &sc[0], in->lineno);
		/* the cache sets of the texts found here fetched first */
		c = rd->threaded ? rd->cache : &st->cache;
		/* then the whole lines read already, BATCH at a time */
		for (;;) {
			avail = fold_in_buffered(in, &p);
			off = 0;
			if ((nb = scan_batch(p, &off, avail, 0,
			    !rd->threaded || !in->mapped ? c : NULL, sc)) == 0)
				break;
			for (i = 0; i < nb; i++)
				put_line(rd, &sc[i], in->lineno + i + 1);
			fold_in_take(in, off, nb);
		}
	}
}

static void *
reader_run(void *arg)
{
	struct reader *rd = arg;

	read_all(rd);
	hand_over(rd, 1);
	return NULL;
}

/* FOLDKIT_SAMPLE_THREADS: 1 or 2 threads, or 0: not said (exit 2 if bad). */
static int
threads_env(void)
{
	const char *env = getenv("FOLDKIT_SAMPLE_THREADS");

	if (env == NULL || *env == '\0')
		return 0;
	if (strcmp(env, "1") != 0 && strcmp(env, "2") != 0)
		fold_die(2, "FOLDKIT_SAMPLE_THREADS: '%s' is not 1 or 2", env);
	return *env - '0';
}

/* Whether to read in a thread, not said: a regular file of THREAD_MIN
 * bytes or more and two processors. */
static int
want_thread(const struct fold_in *in)
{
	struct stat sb;

	return sysconf(_SC_NPROCESSORS_ONLN) >= 2 && in->fd >= 0 &&
	    fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size >= (off_t)THREAD_MIN;
}

/* What reading in a thread took, given back. */
static void
end_threaded(struct reader *rd)
{
	size_t k;

	pthread_cond_destroy(&rd->cv);
	pthread_mutex_destroy(&rd->mu);
	for (k = 0; k < NBLK; k++)
		free(rd->blk[k]);
	free(rd->cache->buf);
	free(rd->cache);
	fold_intern_free(&rd->texts);
	fold_intern_free(&rd->threads);
	rd->threaded = 0;
}

/* Read the rest of the input in a thread and use its records; 0 if no
 * thread could start. */
static int
run_threaded(struct reader *rd)
{
	struct fold_pair *pair;
	size_t k, n;
	int done;

	for (k = 0; k < NBLK; k++)
		rd->blk[k] = xmalloc(BLKRECS * sizeof(*rd->blk[k]));
	rd->cur = rd->blk[0];
	rd->ncur = 0;
	rd->threaded = 1;
	rd->bstart[0] = rd->in.data + rd->in.pos;
	rd->in.hold = rd->bstart[0];	/* and every map kept */
	rd->cache = xcalloc(1, sizeof(*rd->cache));
	fold_intern_init(&rd->texts);
	fold_intern_init(&rd->threads);
	pthread_mutex_init(&rd->mu, NULL);
	pthread_cond_init(&rd->cv, NULL);
	if ((pair = fold_pair_new()) == NULL) {
		rd->in.hold = NULL;
		end_threaded(rd);
		return 0;
	}
	fold_pair_start(pair, reader_run, rd);
	for (;;) {
		pthread_mutex_lock(&rd->mu);
		while (rd->used == rd->filled && !rd->done) {
			rd->waiting++;
			pthread_cond_wait(&rd->cv, &rd->mu);
			rd->waiting--;
		}
		done = rd->used == rd->filled;
		n = rd->nrec[rd->used % NBLK];
		pthread_mutex_unlock(&rd->mu);
		if (done)
			break;
		use_recs(rd->r, rd->blk[rd->used % NBLK], n);
		pthread_mutex_lock(&rd->mu);
		rd->used++;
		if (rd->waiting)
			pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
	}
	fold_pair_wait(pair);
	fold_pair_free(pair);
	end_threaded(rd);
	return 1;
}

/*
 * A large mapped file in chunks, read by two threads, each into a tree of
 * its own, taking the next chunk when done with one (the halves of a file
 * do not take the same time: for 86 MB, one thread waited 7 ms in 10 for
 * the other).  A chunk begins at a thread's line (level 0: "    COUNT
 * THREAD"): what comes before it in the report does not change how it is
 * read if the chunk before ends inside a call graph, which is checked
 * after (if not, the file is read again in one thread, from its first
 * line).  Messages wait, each with its chunk, until the line numbers
 * before each chunk are known (too many: read again in one thread).  Each
 * side does all the work of its lines in its own caches; the two trees
 * are walked together by fold_samplerep_print() (for 86 MB, with the
 * output written by two threads: 0.0688 to 0.0590 s, interleaved runs).
 */
/* at most MAXDEFER messages wait in a chunk: with more, the file is read
 * again in one thread, which says them as they come.  NCHUNK: 32, 24 and
 * 48 chunks took 2 to 4% less time than 16 on 86 MB (interleaved runs,
 * boundaries found as needed), where the last chunks left a thread idle */
enum { NCHUNK = 32, MAXDEFER = 1024 };

/* A message waiting for its line number: line is its chunk's. */
struct dmsg {
	unsigned long long line;
	char *what;
};
struct chunk {
	size_t from, to;		/* data[from..to) (set by its reader) */
	unsigned long long lines;
	int state;			/* at its end */
	struct dmsg *msgs;
	size_t nmsgs, mcap;
	int many;			/* more than MAXDEFER */
};
struct chunks {
	const char *data;
	size_t len;			/* of data */
	int fd;				/* data[k] is at offset foff + k of
					   fd (-1: read the map) */
	int64_t foff;
	size_t ahead;			/* data[0..ahead) was read in */
	struct chunk c[NCHUNK];
	size_t n;
	pthread_mutex_t mu;
	size_t next;			/* under mu: the next to read */
	size_t b[NCHUNK + 1];		/* under mu: where chunk k begins, */
	unsigned char known[NCHUNK + 1];	/* once known */
};

/* A message of st's current chunk (error_at() with defer). */
static void
defer_msg(struct fold_samplerep_st *st, unsigned long long line,
    const char *what)
{
	struct chunk *c = st->defer;

	if (c->nmsgs == MAXDEFER) {	/* (memory would grow with input) */
		c->many = 1;
		return;
	}
	fold_grow(&c->msgs, &c->mcap, c->nmsgs + 1, sizeof(*c->msgs));
	c->msgs[c->nmsgs].line = line;
	c->msgs[c->nmsgs++].what = xstrdup(what);
}

/* Read the lines of data[from..to) (the last one may have no '\n') into
 * r, the first numbered lineno + 1, through a window of their own (the
 * pages before ahead read in already), given back at the end; the number
 * of the last. */
static unsigned long long
read_range(struct fold_samplerep *r, const char *data, size_t from,
    size_t to, size_t ahead, unsigned long long lineno)
{
	struct fold_samplerep_st *st = r->st;
	struct fold_window w;
	struct scan sc[BATCH];
	struct rec rc;
	size_t off = from, nb, i;

	fold_window_init(&w, from, to);
	if (ahead > from)
		w.filled = ahead < to ? ahead : to;
	while (off < to) {
		fold_window_at(data, to, &w, off, off);
		nb = scan_batch(data, &off, to, 1, &st->cache, sc);
		for (i = 0; i < nb; i++) {
			r->lineno = ++lineno;
			line_rec(st, &sc[i], &rc, 0);
			use_rec(r, &rc);
		}
	}
	fold_window_done(data, &w);
	return lineno;
}

/* The first line at level 0 ("    COUNT THREAD") that begins in
 * data[from..lim), from a line's start; 0 if none. */
static size_t
level0_at(const char *data, size_t from, size_t lim, size_t to)
{
	const char *q;
	size_t off, e;
	struct scan sc;

	for (off = from; off < lim; off = e + 1) {
		if ((q = memchr(data + off, '\n', to - off)) == NULL)
			return 0;
		e = (size_t)(q - data);
		if (e - off < 6 || memcmp(data + off, "    ", 4) != 0 ||
		    data[off + 4] < '0' || data[off + 4] > '9')
			continue;
		scan_line(data + off, e - off, &sc);
		if (sc.k == 4 && sc.j > sc.k && !sc.ovf && sc.j < sc.len &&
		    data[off + sc.j] == ' ')
			return off;
	}
	return 0;
}

/* Where chunk k (0 < k < NCHUNK) would begin in data[0..n): the first
 * level-0 line in the half chunk after the k-th NCHUNK-th of it, from a
 * line's start; n if no line begins there, 0 if none is at level 0. */
static size_t
level0_near(const char *data, size_t n, size_t k)
{
	const char *q;
	size_t at = n / NCHUNK * k;

	if ((q = memchr(data + at, '\n', n - at)) == NULL)
		return n;
	at = (size_t)(q - data) + 1;
	return level0_at(data, at, n - at < n / NCHUNK / 2 ? n : at +
	    n / NCHUNK / 2, n);
}

/*
 * Where chunk k begins (k == NCHUNK: the end of data), found by the
 * thread that needs it first (as the beginning of a chunk it reads, or
 * its end), outside the lock: the other thread may find it as well, the
 * same.  Without a level-0 line near its place, chunk k is empty: it
 * begins where chunk k + 1 does.  So the chunks' boundaries are looked
 * for by both threads at once, not before they start (for 86 MB, 15 of
 * them took 1.5 to 3 ms: a level-0 line was 450 KB after its place).
 */
static size_t
bound(struct chunks *ch, size_t k)
{
	size_t b;
	int known;

	pthread_mutex_lock(&ch->mu);
	known = ch->known[k];
	b = ch->b[k];
	pthread_mutex_unlock(&ch->mu);
	if (known)
		return b;
	if ((b = level0_near(ch->data, ch->len, k)) == 0)
		b = bound(ch, k + 1);
	pthread_mutex_lock(&ch->mu);
	ch->b[k] = b;
	ch->known[k] = 1;
	pthread_mutex_unlock(&ch->mu);
	return b;
}

/* The next chunk to read, or ch->n. */
static size_t
take_chunk(struct chunks *ch)
{
	size_t k;

	pthread_mutex_lock(&ch->mu);
	k = ch->next < ch->n ? ch->next++ : ch->n;
	pthread_mutex_unlock(&ch->mu);
	return k;
}

/*
 * read_range() with pread(2) into the tree's buffer of RBUF bytes (grown
 * for a longer line), not through the map: the kernel copies the file's pages
 * instead of mapping them and taking them back (6 against 10 ms of CPU
 * for 86 MB on our VM), and the lines are read from the cache.  A read
 * that fails or comes short (a file cut meanwhile) leaves the rest to
 * read_range(), from the map, as it would have been read.
 */
#define RBUF (128 * 1024)
static unsigned long long
read_range_fd(struct fold_samplerep *r, const struct chunks *ch, size_t from,
    size_t to, unsigned long long lineno)
{
	struct fold_samplerep_st *st = r->st;
	struct scan sc[BATCH];
	struct rec rc;
	size_t have = 0, off, nb, i, want, cap;
	char *buf;
	ssize_t got;
	struct fold_window w;

	if (st->rbuf == NULL) {		/* (the tree's: one a thread) */
		st->rbcap = RBUF;
		st->rbuf = xmalloc(st->rbcap);
	}
	buf = st->rbuf;
	cap = st->rbcap;
	/* the map's pages here (read in by fold_in's window, or by bound()
	 * looking for where chunks begin) given back at the end */
	fold_window_init(&w, from, to);
	w.filled = to;

	/* buf[0..have) is data[from..from + have) */
	while (from + have < to || have > 0) {
		if (from + have < to && have < cap) {
			want = to - from - have < cap - have ? to - from - have :
			    cap - have;
			got = pread(ch->fd, buf + have, want, (off_t)(ch->foff +
			    (int64_t)(from + have)));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0 || (size_t)got > want)
				break;
			have += (size_t)got;
		}
		off = 0;
		while ((nb = scan_batch(buf, &off, have, from + have == to,
		    &st->cache, sc)) > 0)
			for (i = 0; i < nb; i++) {
				r->lineno = ++lineno;
				line_rec(st, &sc[i], &rc, 0);
				use_rec(r, &rc);
			}
		memmove(buf, buf + off, have - off);
		from += off;
		have -= off;
		if (have == cap) {	/* a line longer than buf */
			cap *= 2;
			st->rbuf = buf = xrealloc(buf, cap);
			st->rbcap = cap;
		}
	}
	if (from < to)
		lineno = read_range(r, ch->data, from, to, 0, lineno);
	fold_window_done(ch->data, &w);
	return lineno;
}

/* Read chunk k into r, as the line after the chunk before would find it
 * if that ends inside a call graph: at level 0 of a call graph. */
static void
read_chunk(struct fold_samplerep *r, struct chunks *ch, size_t k)
{
	struct fold_samplerep_st *st = r->st;
	struct chunk *c = &ch->c[k];

	c->from = bound(ch, k);
	c->to = bound(ch, k + 1);
	if (c->from == c->to)	/* (no line of its own: see bound()) */
		return;
	st->defer = c;
	if (k > 0) {
		st->state = S_TREE;
		st->skipping = 0;
		if (st->graphs == 0)
			st->graphs = 1;
	}
	c->lines = ch->fd >= 0 ? read_range_fd(r, ch, c->from, c->to, 0) :
	    read_range(r, ch->data, c->from, c->to, ch->ahead, 0);
	c->state = st->state;
	if (c->to < ch->len) {
		if (st->state == S_TREE)
			pop_to(r, 0);	/* as the next chunk's first line */
	} else
		fold_samplerep_eof(r);
}

struct reading {
	struct fold_samplerep *r;
	struct chunks *ch;
	size_t first;
};

static void *
read_chunks(void *arg)
{
	struct reading *rg = arg;
	size_t k;

	read_chunk(rg->r, rg->ch, rg->first);
	while ((k = take_chunk(rg->ch)) < rg->ch->n)
		read_chunk(rg->r, rg->ch, k);
	return NULL;
}

/* The waiting messages said, in order, each chunk's lines after those of
 * the chunks before it and lineno; the last line's number. */
static unsigned long long
say_chunks(struct fold_samplerep *r, struct chunks *ch,
    unsigned long long lineno, int say)
{
	struct chunk *c;
	size_t k, i;

	for (k = 0; k < ch->n; k++) {
		c = &ch->c[k];
		for (i = 0; i < c->nmsgs; i++) {
			if (say)	/* (never --strict: see fold_samplerep_run()) */
				fold_warn("%s:%llu: %s", r->file,
				    lineno + c->msgs[i].line, c->msgs[i].what);
			free(c->msgs[i].what);
		}
		free(c->msgs);
		lineno += c->lines;
	}
	return lineno;
}

/*
 * Read the rest of rd's file, data[0..n) (line1: its first line, read
 * already), in chunks by two threads; 0 if it cannot be split, nothing
 * read.
 */
static int
split_run(struct reader *rd, const char *line1, const char *data, size_t n)
{
	struct fold_samplerep *r = rd->r, *r2, *fresh;
	struct fold_samplerep_st *tmp;
	struct chunks ch;
	struct reading rg[2];
	unsigned long long lineno = rd->in.lineno;
	size_t k, b, prev;
	int ok;

	/* a report with few threads is read as before: not in chunks */
	if ((b = level0_near(data, n, 1)) == 0 || b == n)
		return 0;
	memset(&ch, 0, sizeof(ch));
	ch.data = data;
	ch.len = n;
	ch.n = NCHUNK;
	ch.b[1] = b;
	ch.b[NCHUNK] = n;
	ch.known[0] = ch.known[1] = ch.known[NCHUNK] = 1;
	/* (the first pages, read in by fold_in) */
	ch.ahead = rd->in.win.filled > rd->in.pos ? rd->in.win.filled -
	    rd->in.pos : 0;
	ch.next = 2;
	/* the chunks read with pread(2) from the mapped file */
	ch.fd = rd->in.fd;
	ch.foff = (int64_t)rd->in.dataoff + (data - rd->in.data);
	pthread_mutex_init(&ch.mu, NULL);
	r2 = fold_samplerep_new(r->st->flags);
	r2->file = r->file;
	rg[0].r = r;
	rg[1].r = r2;
	rg[0].ch = rg[1].ch = &ch;
	rg[0].first = 0;
	rg[1].first = 1;
	if ((r->st->pair = fold_pair_new()) == NULL) {
		pthread_mutex_destroy(&ch.mu);
		fold_samplerep_end(r2);
		return 0;
	}
	fold_pair_both(r->st->pair, read_chunks, &rg[0], &rg[1]);
	pthread_mutex_destroy(&ch.mu);
	r->st->defer = r2->st->defer = NULL;
	/* (an empty chunk is not read: the one before the next is prev) */
	for (ok = 1, prev = 0, k = 0; k < ch.n; k++) {
		if (ch.c[k].from == ch.c[k].to)
			continue;
		if ((k > 0 && ch.c[prev].state != S_TREE) || ch.c[k].many)
			ok = 0;
		prev = k;
	}
	if (r->st->maxown > UINT64_MAX - r2->st->maxown)
		ok = 0;
	say_chunks(r, &ch, lineno, ok);
	if (!ok) {
		/* all again, as one thread reads it, from a new tree */
		fresh = fold_samplerep_new(r->st->flags);
		tmp = r->st;
		r->st = fresh->st;
		fresh->st = tmp;
		fold_samplerep_end(fresh);
		r2->idle = 0;	/* (no note of it) */
		fold_samplerep_end(r2);
		r->status = 0;
		r->idle = 0;
		r->lineno = read_range(r, line1, 0, n + (size_t)(data - line1),
		    0, 0);
		fold_samplerep_eof(r);
		return 1;
	}
	r->st->second = r2;
	r->idle = r->idle > UINT64_MAX - r2->idle ? UINT64_MAX :
	    r->idle + r2->idle;
	r2->idle = 0;
	if (r2->status)
		r->status = 1;
	return 1;
}

void
fold_samplerep_run(struct fold_samplerep *r, int nfiles, char **files)
{
	struct reader rd;
	const char *line, *p;
	size_t len, n;
	struct scan sc;
	struct rec rc;
	int nthr = threads_env();

	memset(&rd, 0, sizeof(rd));
	rd.r = r;
	rd.first = 1;
	fold_in_init(&rd.in, nfiles, files);
	rd.in.map = FOLD_IN_WINDOW;	/* a file is read in place */
	/* the first line, read by the caller: then the input is open */
	if (fold_in_line(&rd.in, &line, &len)) {
		rd.first = 0;
		r->file = rd.in.name;
		r->lineno = rd.in.lineno;
		scan_line(line, len, &sc);
		line_rec(r->st, &sc, &rc, 0);
		use_rec(r, &rc);
		if (!(r->st->flags & FOLD_SAMPLEREP_STRICT) && (nthr == 2 ||
		    (nthr == 0 && want_thread(&rd.in)))) {
			rd.in.onerr = in_error;
			rd.in.onerr_arg = &rd;
		}
		if (rd.in.onerr != NULL && rd.in.mapped && nfiles <= 1 &&
		    (n = fold_in_buffered(&rd.in, &p)) > 0 &&
		    split_run(&rd, line, p, n)) {
			if (rd.in.status)
				r->status = 1;
			fold_in_free(&rd.in);	/* (the file is read) */
			return;
		} else if (rd.in.onerr == NULL || !run_threaded(&rd)) {
			rd.in.onerr = NULL;
			read_all(&rd);
		}
	}
	if (rd.first)
		error_at(r, 0, "empty input: not the output of sample");
	else
		fold_samplerep_eof(r);
	if (rd.in.status)
		r->status = 1;
	fold_in_free(&rd.in);
}

/* ---- output ------------------------------------------------------------ */

/*
 * The stacks are written in the byte order of their text by a walk of the
 * tree.  Below a stack P, the lines of child c are "P;c" (its own samples)
 * and "P;c;..." (those of its children): two items, ordered by c's text
 * followed by the end (lower than any byte) for the first, by ';' for the
 * second.  So a child whose name is another's with a byte below ';' after
 * it ("f" and "f(int)") comes between the other's own line and its
 * children's, as in the byte order of whole lines.  Those two strings of
 * every frame are ranked once (2 * frame for the first, + 1 for the
 * second); an item is its rank (and more, below), and the items below a
 * stack are sorted as numbers.
 */

/*
 * The ranks of one tree's frames or two's: the frames' texts sorted, each
 * tree's by itself (at once, one in the second thread), then merged (a
 * text in both is one); then the ranks of the two strings of each
 * distinct text in turn.
 */
struct ranks {
	const struct frame **uf;	/* the distinct texts, in byte order */
	uint32_t *of[2];	/* by distinct text: its frame in each tree
				   (NOFRAME: none) */
	uint32_t *order;	/* by rank: 2 * distinct text, + 1 for the
				   second string */
	uint32_t *rank[2];	/* by tree, 2 * frame (+ 1): the rank */
};

/* A tree's frames, sorted by their texts. */
struct sorting {
	const struct fold_samplerep_st *st;
	uint32_t *ids;
	size_t n;
};

static void *
sort_frames(void *arg)
{
	struct sorting *so = arg;
	size_t i;

	so->n = fold_intern_count(&so->st->texts);
	so->ids = xmalloc((so->n + 1) * sizeof(*so->ids));
	for (i = 0; i < so->n; i++)
		so->ids[i] = (uint32_t)i;
	fold_sort_names(so->ids, so->n, &so->st->texts);
	return NULL;
}

/* The next rank: string b of distinct text u's. */
static void
emit(struct ranks *rk, size_t *r, size_t u, uint32_t b)
{
	int s;

	rk->order[*r] = (uint32_t)(2 * u + b);
	for (s = 0; s < 2; s++)
		if (rk->of[s][u] != NOFRAME)
			rk->rank[s][2 * rk->of[s][u] + b] = (uint32_t)*r;
	(*r)++;
}

/*
 * The ranks of the texts of so[0] and so[1] (each sorted), merged.  The
 * strings: a text followed by the end comes where the text is, before the
 * texts it begins; followed by ';', after those of them with a byte below
 * ';' next (no text holds a ';') and before the others.  open[] holds the
 * texts that begin the current one and wait for their second string.
 */
static void
merge_frames(struct ranks *rk, const struct sorting *so,
    const struct fold_samplerep_st *const *st)
{
	const struct frame *f[2], *g;
	size_t at[2] = { 0, 0 }, n = so[0].n + so[1].n, u, k, r = 0, no = 0;
	size_t *open = xmalloc((n + 1) * sizeof(*open));
	struct fold_str x, y;
	int c, s;

	rk->uf = xmalloc((n + 1) * sizeof(*rk->uf));
	rk->order = xmalloc((2 * n + 1) * sizeof(*rk->order));
	for (s = 0; s < 2; s++) {
		rk->of[s] = xmalloc((n + 1) * sizeof(*rk->of[s]));
		rk->rank[s] = xmalloc((2 * so[s].n + 1) * sizeof(*rk->rank[s]));
	}
	for (u = 0; at[0] < so[0].n || at[1] < so[1].n; u++) {
		for (s = 0; s < 2; s++) {
			f[s] = at[s] < so[s].n ? &st[s]->frames[so[s].ids[at[s]]] :
			    NULL;
			/* (the texts lie anywhere: fetched ahead) */
			if ((k = at[s] + AHEAD) < so[s].n)
				fold_prefetch(st[s]->frames[so[s].ids[k]].s);
			if (k + AHEAD < so[s].n)
				fold_prefetch(&st[s]->frames[so[s].ids[k +
				    AHEAD]]);
		}
		if (f[0] == NULL || f[1] == NULL)
			c = f[0] == NULL ? 1 : -1;
		else {
			x.s = f[0]->s;
			x.len = f[0]->len;
			y.s = f[1]->s;
			y.len = f[1]->len;
			c = fold_strcmp(x, y);
		}
		rk->uf[u] = c <= 0 ? f[0] : f[1];
		rk->of[0][u] = c <= 0 ? so[0].ids[at[0]++] : NOFRAME;
		rk->of[1][u] = c >= 0 ? so[1].ids[at[1]++] : NOFRAME;
		while (no > 0) {
			g = rk->uf[open[no - 1]];
			if (g->len < rk->uf[u]->len && (g->len == 0 ||
			    memcmp(g->s, rk->uf[u]->s, g->len) == 0) &&
			    (unsigned char)rk->uf[u]->s[g->len] < ';')
				break;
			emit(rk, &r, open[--no], 1);
		}
		emit(rk, &r, u, 0);
		open[no++] = u;
	}
	while (no > 0)
		emit(rk, &r, open[--no], 1);
	free(open);
}

/* The ranks of the frames of st[0] and st[1] (NULL: one tree); pair does
 * half the sorting. */
static void
rank_frames(struct ranks *rk, const struct fold_samplerep_st *const *st,
    struct fold_pair *pair)
{
	struct sorting so[2];
	int s;

	for (s = 0; s < 2; s++) {
		so[s].st = st[s];
		so[s].ids = NULL;
		so[s].n = 0;
	}
	if (st[1] != NULL)
		fold_pair_both(pair, sort_frames, &so[0], &so[1]);
	else
		sort_frames(&so[0]);
	if (so[0].n + so[1].n > UINT32_MAX / 2)
		fold_die(1, "more than %lu distinct frames",
		    (unsigned long)(UINT32_MAX / 2));
	merge_frames(rk, so, st);
	for (s = 0; s < 2; s++)
		free(so[s].ids);
}

static void
ranks_free(struct ranks *rk)
{
	free(rk->uf);
	free(rk->of[0]);
	free(rk->of[1]);
	free(rk->order);
	free(rk->rank[0]);
	free(rk->rank[1]);
}

/*
 * An item: key, its rank << 32 and (rank odd) the number of the node's
 * own items; v, the node's own samples (rank even) or where its items
 * start (odd).  The items below a stack are together, unsorted until the
 * walk comes to them.
 */
struct item {
	uint64_t key;
	uint64_t v;
};

static int
bykey(const void *pa, const void *pb)
{
	uint64_t a = ((const struct item *)pa)->key;
	uint64_t b = ((const struct item *)pb)->key;

	return a < b ? -1 : a > b;
}

static void
sort_items(struct item *a, size_t n)
{
	size_t i, j;
	struct item x;

	if (n > 16) {
		qsort(a, n, sizeof(*a), bykey);
		return;
	}
	for (i = 1; i < n; i++) {
		x = a[i];
		for (j = i; j > 0 && a[j - 1].key > x.key; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* The items of a tree (see above), made in a thread of their own for the
 * second one; with sizes, the bytes each item below the empty stack
 * stands for in the output (its line, or the lines of its children). */
struct titems {
	struct fold_samplerep_st *st;	/* the tree (its child lists and nk[]
				   used up: see make_items()) */
	const uint32_t *rank;	/* by its frame (see struct ranks) */
	const struct frame *frames;	/* its frames */
	int sizes;		/* tsz[] wanted */
	struct item *items;
	size_t m;		/* the items below the empty stack */
	uint64_t *tsz;		/* by item below the empty stack: its bytes
				   (NULL: not wanted, or a line too long) */
};

/* The digits of v. */
static size_t
ndigits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The items below the empty stack sorted, their sizes with them. */
struct sized {
	struct item it;
	uint64_t sz;
};

static int
bysized(const void *pa, const void *pb)
{
	uint64_t a = ((const struct sized *)pa)->it.key;
	uint64_t b = ((const struct sized *)pb)->it.key;

	return a < b ? -1 : a > b;
}

static void
sort_top(struct titems *ti)
{
	struct sized *t;
	size_t i;

	if (ti->tsz == NULL) {
		sort_items(ti->items, ti->m);
		return;
	}
	t = xmalloc((ti->m + 1) * sizeof(*t));
	for (i = 0; i < ti->m; i++) {
		t[i].it = ti->items[i];
		t[i].sz = ti->tsz[i];
	}
	qsort(t, ti->m, sizeof(*t), bysized);
	for (i = 0; i < ti->m; i++) {
		ti->items[i] = t[i].it;
		ti->tsz[i] = t[i].sz;
	}
	free(t);
}

/*
 * A stack is live (1) with samples of its own or a live child (2); a
 * child's number is above its parent's, so one pass from the top settles
 * it, and counts the items below each stack (at first[up + 2], summed
 * below into where each stack's items start).  With sizes, the length of
 * each live stack's text (plen) and the item below the empty stack its
 * lines count in (top) follow from its parent's.  The tree is read: the
 * flags go in nk[], plen and top in each node's kid and sib (its child
 * list), memory already resident, where fresh arrays would cost a page
 * fault every 4 KB.
 */
#define PLEN(n) t[n].kid
#define TOP(n) t[n].sib
static void *
make_items(void *arg)
{
	struct titems *ti = arg;
	struct tnode *t = ti->st->t;
	const uint32_t *rank = ti->rank;
	size_t tn = ti->st->tn, n, u, i, len;
	unsigned char *fl = ti->st->nk;
	uint32_t *first = xcalloc(tn + 2, sizeof(*first)), fr;
	int sized = ti->sizes;
	struct item *it;

	memset(fl, 0, tn);

	for (n = tn; n-- > 1;)
		if (t[n].own > 0 || (fl[n] & 2)) {
			u = t[n].up;
			first[u + 2] += (t[n].own > 0) + (fl[n] >> 1);
			fl[n] |= 1;
			fl[u] |= 2;
		}
	for (n = 2; n < tn + 2; n++)
		first[n] += first[n - 1];
	ti->items = xmalloc(((size_t)first[tn + 1] + 1) * sizeof(*ti->items));
	fold_prefault(ti->items, ((size_t)first[tn + 1] + 1) *
	    sizeof(*ti->items));
	ti->m = first[2];
	ti->tsz = NULL;
	if (sized)
		ti->tsz = xcalloc(ti->m + 1, sizeof(*ti->tsz));
	/* stack u's items are filled from first[u + 1] on; a stack's number
	 * is below its children's, so where its own are is known then (fewer
	 * than 2 * MAXSTACKS items in all: first[] and the counts in the keys
	 * fit in 32 bits) */
	for (n = 1; n < tn; n++) {
		if (!(fl[n] & 1))
			continue;
		u = t[n].up + 1;
		fr = t[n].fr;
		if (sized) {	/* as the walk writes it */
			len = ti->frames[fr].len;
			if (u > 1 && PLEN(u - 1) > 0)
				len += (size_t)PLEN(u - 1) + 1;
			if (len > UINT32_MAX - 64) {
				free(ti->tsz);
				ti->tsz = NULL;
				sized = 0;
			} else
				PLEN(n) = (uint32_t)len;
		}
		if (t[n].own > 0) {
			i = first[u]++;
			it = &ti->items[i];
			it->key = (uint64_t)rank[2 * fr] << 32;
			it->v = t[n].own;
			if (sized && PLEN(n) > 0)
				ti->tsz[u > 1 ? TOP(u - 1) : i] += PLEN(n) + 2 +
				    ndigits(t[n].own);
		}
		if (fl[n] & 2) {
			i = first[u]++;
			it = &ti->items[i];
			it->key = (uint64_t)rank[2 * fr + 1] << 32 |
			    (first[n + 2] - first[n + 1]);
			it->v = first[n + 1];
			if (sized)
				TOP(n) = u > 1 ? TOP(u - 1) : (uint32_t)i;
		}
	}
	sort_top(ti);
	free(first);
	return NULL;
}
#undef PLEN
#undef TOP

/* The walk: a level is, in each tree s, the items items[s][at[s]..end[s])
 * (sorted), below the stack of text path[0..plen).  Items of the same
 * rank in both trees are one stack. */
struct level {
	size_t at[2], end[2], plen;
};

/* A walk of (a part of) the output, written with fo_room() or to at. */
struct walk {
	const struct frame *const *uf;	/* the distinct texts (struct ranks) */
	const uint32_t *order;
	struct item *items[2];
	struct fo_at *at;
	char *path;
	size_t pcap;
	struct level *lv;
	size_t lcap;
};

/* The rank of the next item of tree s at level l, or UINT64_MAX. */
static uint64_t
head(const struct level *l, struct item *const *items, int s)
{
	return l->at[s] < l->end[s] ? items[s][l->at[s]].key >> 32 :
	    UINT64_MAX;
}

/* A line: path[0..n) and own. */
static void
put_stack(struct walk *w, size_t n, uint64_t own)
{
	char *p = w->at != NULL ? fo_at_room(w->at, n + 22) : fo_room(n + 22);

	if (p == NULL) {	/* longer than fo's buffer */
		fo_write(w->path, n);
		fo_putc(' ');
		fo_u64(own);
		fo_putc('\n');
		return;
	}
	memcpy(p, w->path, n);
	p += n;
	*p++ = ' ';
	p += fold_fmt_u64(p, own);
	*p++ = '\n';
	if (w->at != NULL)
		fo_at_wrote(w->at, p);
	else
		fo_wrote(p);
}

/* Write the stacks of the items top[s][at[s]..end[s]) and below. */
static void
walk(struct walk *w, const size_t *at, const size_t *end)
{
	struct item *const *items = w->items, *it[2];
	const struct frame *f;
	struct level *l;
	size_t nl = 1, plen, m;
	uint64_t rk, own;
	uint32_t k;
	char *o;
	int s;

	fold_grow(&w->lv, &w->lcap, 1, sizeof(*w->lv));
	for (s = 0; s < 2; s++) {
		w->lv[0].at[s] = at[s];
		w->lv[0].end[s] = end[s];
	}
	w->lv[0].plen = 0;
	while (nl > 0) {
		l = &w->lv[nl - 1];
		rk = head(l, items, 0);
		if (head(l, items, 1) < rk)
			rk = head(l, items, 1);
		if (rk == UINT64_MAX) {
			nl--;
			continue;
		}
		for (s = 0; s < 2; s++) {
			it[s] = head(l, items, s) == rk ? &items[s][l->at[s]++] :
			    NULL;
			/* the items of a stack AHEAD on (its children's:
			   their number in the key) fetched meanwhile */
			if (l->at[s] + AHEAD < l->end[s] &&
			    (uint32_t)items[s][l->at[s] + AHEAD].key != 0)
				fold_prefetch(&items[s][items[s][l->at[s] +
				    AHEAD].v]);
		}
		plen = l->plen;
		k = w->order[rk];
		f = w->uf[k >> 1];
		fold_grow(&w->path, &w->pcap, plen + 1 + f->len + 1, 1);
		o = w->path + plen;
		if (plen > 0)
			*o++ = ';';
		memcpy(o, f->s, f->len);
		o += f->len;
		if (k & 1) {
			fold_grow(&w->lv, &w->lcap, nl + 1, sizeof(*w->lv));
			for (s = 0; s < 2; s++) {
				w->lv[nl].at[s] = w->lv[nl].end[s] = 0;
				if (it[s] == NULL)
					continue;
				m = (uint32_t)it[s]->key;
				sort_items(items[s] + it[s]->v, m);
				w->lv[nl].at[s] = it[s]->v;
				w->lv[nl].end[s] = it[s]->v + m;
			}
			w->lv[nl++].plen = (size_t)(o - w->path);
		} else if (o > w->path) { /* (an empty stack is not written) */
			/* (no sum passes 2^64 - 1: split_run() saw to it) */
			own = (it[0] != NULL ? it[0]->v : 0) +
			    (it[1] != NULL ? it[1]->v : 0);
			put_stack(w, (size_t)(o - w->path), own);
		}
	}
}

/*
 * The two trees written at once by two threads, where no stack below the
 * empty one is in both: the items below the empty stack of both trees in
 * their order, each at the sum of the sizes before it; the first half of
 * the bytes by one thread, the rest by the other.
 */
struct top {
	uint64_t off, sz;	/* where its stacks go, their bytes */
	size_t i;		/* the item */
	int s;			/* its tree */
};
struct part {
	struct walk w;
	const struct top *top;
	size_t from, to;	/* top[from..to) */
	int bad;		/* a size was not what was written */
};

static void *
write_part(void *arg)
{
	struct part *pt = arg;
	struct fo_at *at = pt->w.at;
	const struct top *t;
	size_t k, a[2], e[2];

	for (k = pt->from; k < pt->to; k++) {
		t = &pt->top[k];
		if (at->off + (int64_t)at->n != (int64_t)t->off) {
			fo_at_flush(at);
			at->off = (int64_t)t->off;
		}
		a[0] = a[1] = e[0] = e[1] = 0;
		a[t->s] = t->i;
		e[t->s] = t->i + 1;
		walk(&pt->w, a, e);
		if (at->off + (int64_t)at->n != (int64_t)(t->off + t->sz))
			pt->bad = 1;
	}
	fo_at_flush(at);
	return NULL;
}

/* Write both trees in two threads if they can be (their sizes known, no
 * item below the empty stack in both, stdout written at offsets from
 * start); 0 if not, nothing written. */
static int
write_parts(const struct walk *w0, const struct titems *ti, int64_t start,
    struct fold_pair *pair)
{
	struct part pt[2];
	struct fo_at at[2];
	struct top *top;
	uint64_t o = (uint64_t)start;
	size_t i = 0, j = 0, n = 0, half;
	int s, err;

	if (ti[0].tsz == NULL || ti[1].tsz == NULL)
		return 0;
	top = xmalloc((ti[0].m + ti[1].m + 1) * sizeof(*top));
	while (i < ti[0].m || j < ti[1].m) {
		if (j == ti[1].m || (i < ti[0].m &&
		    ti[0].items[i].key >> 32 < ti[1].items[j].key >> 32)) {
			top[n].s = 0;
			top[n].i = i++;
		} else if (i == ti[0].m ||
		    ti[1].items[j].key >> 32 < ti[0].items[i].key >> 32) {
			top[n].s = 1;
			top[n].i = j++;
		} else {	/* the same stack in both */
			free(top);
			return 0;
		}
		top[n].off = o;
		top[n].sz = ti[top[n].s].tsz[top[n].i];
		o += top[n++].sz;
	}
	for (half = 0; half < n && top[half].off - (uint64_t)start <
	    (o - (uint64_t)start) / 2; half++)
		;
	for (s = 0; s < 2; s++) {
		pt[s].w = *w0;
		pt[s].w.at = &at[s];
		pt[s].top = top;
		pt[s].from = s == 0 ? 0 : half;
		pt[s].to = s == 0 ? half : n;
		pt[s].bad = 0;
		fo_at_init(&at[s], start);
	}
	fold_pair_both(pair, write_part, &pt[0], &pt[1]);
	err = at[0].err != 0 ? at[0].err : at[1].err;
	for (s = 0; s < 2; s++) {
		fo_at_free(&at[s]);
		free(pt[s].w.path);
		free(pt[s].w.lv);
	}
	free(top);
	if (err != 0)
		fold_die(1, "write error: %s", strerror(err));
	if (pt[0].bad || pt[1].bad)
		fold_die(1, "internal error: the output's parts were not the "
		    "sizes counted");
	fo_at_done((int64_t)o);
	return 1;
}

void
fold_samplerep_print(struct fold_samplerep *r)
{
	const struct fold_samplerep_st *sts[2];
	struct fold_samplerep_st *st = r->st, *s2;
	size_t at[2] = { 0, 0 }, end[2];
	struct titems ti[2];
	struct ranks rk;
	struct walk w;
	int64_t start = 0;
	int s, parts;

	s2 = st->second != NULL ? st->second->st : NULL;
	sts[0] = st;
	sts[1] = s2;
	rank_frames(&rk, sts, st->pair);
	/* the items of the second half's tree made meanwhile, if any; with
	 * two trees and an output written at offsets, their sizes too */
	parts = s2 != NULL && fo_at_begin(&start);
	for (s = 0; s < 2; s++) {
		ti[s].st = s == 0 ? st : s2;
		ti[s].rank = rk.rank[s];
		ti[s].frames = s == 0 ? st->frames : s2 != NULL ? s2->frames :
		    NULL;
		ti[s].sizes = parts;
		ti[s].items = NULL;
		ti[s].tsz = NULL;
		ti[s].m = 0;
	}
	if (s2 != NULL)
		fold_pair_both(st->pair, make_items, &ti[0], &ti[1]);
	else
		make_items(&ti[0]);
	memset(&w, 0, sizeof(w));
	w.uf = rk.uf;
	w.order = rk.order;
	for (s = 0; s < 2; s++) {
		w.items[s] = ti[s].items;
		end[s] = ti[s].m;
	}
	if (!parts || !write_parts(&w, ti, start, st->pair))
		walk(&w, at, end);
	free(w.lv);
	free(w.path);
	for (s = 0; s < 2; s++) {
		free(ti[s].items);
		free(ti[s].tsz);
	}
	ranks_free(&rk);
}

int
fold_samplerep_end(struct fold_samplerep *r)
{
	struct fold_samplerep_st *st = r->st;
	int status = r->status;

	if (r->idle > 0 && !(st->flags & FOLD_SAMPLEREP_QUIET))
		fold_warn("%llu sample%s of idle threads left out (a wait "
		    "function on top: --all keeps them)",
		    (unsigned long long)r->idle, r->idle == 1 ? "" : "s");
	fold_pair_free(st->pair);
	if (st->second != NULL)
		fold_samplerep_end(st->second);
	free(st->cache.buf);
	free(st->rmap);
	free(st->rthmap);
	fold_intern_free(&st->keys);
	fold_intern_free(&st->threads);
	fold_intern_free(&st->texts);
	free(st->fb);
	free(st->keymap);
	free(st->thmap);
	free(st->frames);
	free(st->t);
	free(st->nk);
	free(st->seen);
	free(st->slots);
	free(st->rbuf);
	free(st->nodes);
	free(st->tmp);
	free(st);
	free(r);
	return status;
}
