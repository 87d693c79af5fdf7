/* sample.c - macOS sample(1) reports to folded stacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	size_t end;		/* its stack is path[0..end) */
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

struct fold_samplerep_st {
	unsigned flags;
	int state;
	int skipping;		/* lines below the stack are skipped */
	uint64_t graphs;	/* call graphs begun in this input */
	uint64_t lines;		/* lines of this input */
	struct node *nodes;	/* the current stack, root first */
	size_t depth, ncap;
	char *path;		/* its folded text */
	size_t pcap;
	char *key;		/* a frame's key: kind, module, '\0', name */
	size_t kcap;
	char *tmp;		/* cleaning and demangling scratch */
	size_t tcap;
	struct fold_arena arena;	/* the frames' texts */
	struct fold_intern keys;	/* frame keys */
	struct frame *frames;		/* by key id */
	size_t fcap;
	struct fold_intern stacks;	/* folded stacks */
	uint64_t *counts;		/* by stack id */
	size_t ccap;
};

struct fold_samplerep *
fold_samplerep_new(unsigned flags)
{
	struct fold_samplerep *r = xcalloc(1, sizeof(*r));
	struct fold_samplerep_st *st = xcalloc(1, sizeof(*st));

	st->flags = flags;
	fold_intern_init(&st->keys);
	fold_intern_init(&st->stacks);
	r->st = st;
	r->file = "<stdin>";
	return r;
}

/* ---- errors ------------------------------------------------------------ */

static void
error_at(struct fold_samplerep *r, unsigned long long line, const char *what)
{
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

static int
isaddr(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F') || c == 'x' || c == ',' || c == '.';
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

/* The folded text of a new frame (key id), made once. */
static void
make_frame(struct fold_samplerep_st *st, struct frame *f, int thread,
    const char *mod, size_t mlen, const char *name, size_t nlen)
{
	size_t n = 0, m, k;
	char *o;

	f->idle = 0;
	if (thread) {
		o = fold_arena_alloc(&st->arena, nlen + 1);
		copy_semi(o, name, nlen);
		f->s = o;
		f->len = nlen;
		return;
	}
	nlen = cut_llvm(name, nlen);
	/* "...::h<16 hex>" (no longer than a name the demangler writes) */
	if (nlen >= 20 && nlen <= FOLD_DM_MAXOUT && name[nlen - 17] == 'h' &&
	    name[nlen - 18] == ':') {
		fold_grow(&st->tmp, &st->tcap, FOLD_DM_MAXOUT + 12 * nlen + 32,
		    1);
		if ((m = fold_rust_remangle(name, nlen,
		    st->tmp + FOLD_DM_MAXOUT)) > 0)
			n = fold_demangle_rust(st->tmp + FOLD_DM_MAXOUT, m,
			    st->tmp, FOLD_DM_MAXOUT, FOLD_DM_PARAMS);
	}
	if (n > 0)
		name = st->tmp;
	else
		n = nlen;
	for (k = 0; fold_samplerep_idle[k] != NULL; k++)
		if (strlen(fold_samplerep_idle[k]) == n &&
		    memcmp(fold_samplerep_idle[k], name, n) == 0)
			f->idle = 1;
	if (mod == NULL || (st->flags & FOLD_SAMPLEREP_NO_MODULES))
		mlen = 0;
	else if (mlen >= 6 && memcmp(mod + mlen - 6, ".dylib", 6) == 0)
		mlen -= 6;
	o = fold_arena_alloc(&st->arena, mlen + 1 + n + 1);
	f->s = o;
	if (mod != NULL && !(st->flags & FOLD_SAMPLEREP_NO_MODULES)) {
		copy_semi(o, mod, mlen);
		o[mlen] = '`';
		o += mlen + 1;
	}
	copy_semi(o, name, n);
	f->len = (size_t)(o + n - f->s);
}

/* The frame of a tree line's text (after the count). */
static const struct frame *
frame_of(struct fold_samplerep_st *st, int thread, const char *t, size_t n)
{
	const char *mod = NULL;
	size_t nlen = n, mlen = 0, klen;
	uint32_t id;
	int isnew;

	if (!thread)
		split_frame(t, n, &nlen, &mod, &mlen);
	klen = 1 + (mod != NULL ? mlen + 1 : 0) + nlen;
	fold_grow(&st->key, &st->kcap, klen, 1);
	st->key[0] = thread ? 'T' : mod != NULL ? 'M' : 'F';
	klen = 1;
	if (mod != NULL) {
		memcpy(st->key + klen, mod, mlen);
		klen += mlen;
		st->key[klen++] = '\0';
	}
	memcpy(st->key + klen, t, nlen);
	klen += nlen;
	id = fold_intern(&st->keys, st->key, klen, &isnew);
	if (isnew) {
		fold_grow(&st->frames, &st->fcap, (size_t)id + 1,
		    sizeof(*st->frames));
		make_frame(st, &st->frames[id], thread, mod, mlen, t, nlen);
	}
	return &st->frames[id];
}

/* ---- the tree ---------------------------------------------------------- */

/* The own samples of the frame on top of the stack, which ends. */
static void
pop(struct fold_samplerep *r)
{
	struct fold_samplerep_st *st = r->st;
	struct node *nd = &st->nodes[--st->depth];
	uint64_t self;
	uint32_t id;
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
	if (self == 0 || nd->end == 0)
		return;
	if (nd->idle && !(st->flags & FOLD_SAMPLEREP_ALL)) {
		r->idle = r->idle > UINT64_MAX - self ? UINT64_MAX :
		    r->idle + self;
		return;
	}
	id = fold_intern(&st->stacks, st->path, nd->end, NULL);
	fold_grow(&st->counts, &st->ccap, (size_t)id + 1, sizeof(*st->counts));
	if (st->counts[id] > UINT64_MAX - self) {
		error_at(r, nd->line, "a sum of samples past "
		    "18446744073709551615");
		return;
	}
	st->counts[id] += self;
}

static void
pop_to(struct fold_samplerep *r, size_t lvl)
{
	while (r->st->depth > lvl)
		pop(r);
}

/* A line of the call graph. */
static void
tree_line(struct fold_samplerep *r, const char *line, size_t len)
{
	struct fold_samplerep_st *st = r->st;
	const struct frame *f;
	struct node *nd, *up;
	size_t k, j, lvl, start;
	uint64_t c = 0;
	int thread;
	char msg[96];

	if (len >= 21 && memcmp(line, "Total number in stack", 21) == 0) {
		pop_to(r, 0);
		st->state = S_OUT;
		return;
	}
	if (len < 4 || memcmp(line, "    ", 4) != 0) {
		bad_line(r, -1, "a call graph line that does not start with "
		    "4 spaces");
		return;
	}
	for (k = 4; k < len && ismark(line[k]); k++)
		;
	if (k == len) {
		bad_line(r, -1, "a call graph line with depth markers only");
		return;
	}
	if ((k - 4) % 2 != 0) {
		bad_line(r, -1, "an odd number of depth markers");
		return;
	}
	lvl = (k - 4) / 2;
	if (lvl > st->depth) {
		if (st->skipping)
			return;
		snprintf(msg, sizeof(msg), "a frame %zu levels below the one "
		    "before", lvl - st->depth + 1);
		bad_line(r, -1, msg);
		return;
	}
	for (j = k; j < len && line[j] >= '0' && line[j] <= '9'; j++) {
		if (c > (UINT64_MAX - (uint64_t)(line[j] - '0')) / 10) {
			bad_line(r, (long)lvl, "a sample count past "
			    "18446744073709551615");
			return;
		}
		c = c * 10 + (uint64_t)(line[j] - '0');
	}
	if (j == k || j == len || line[j] != ' ') {
		bad_line(r, (long)lvl, j == k ? "no sample count before the "
		    "frame" : "no frame after the sample count");
		return;
	}
	while (j < len && line[j] == ' ')
		j++;
	pop_to(r, lvl);
	st->skipping = 0;
	thread = lvl == 0;
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
	start = lvl > 0 ? st->nodes[lvl - 1].end : 0;
	if (thread && (st->flags & FOLD_SAMPLEREP_NO_THREADS)) {
		nd->idle = 0;
		nd->end = 0;
		return;
	}
	f = frame_of(st, thread, line + j, len - j);
	nd->idle = (unsigned char)f->idle;
	fold_grow(&st->path, &st->pcap, start + 1 + f->len, 1);
	if (start > 0)
		st->path[start++] = ';';
	memcpy(st->path + start, f->s, f->len);
	nd->end = start + f->len;
}

void
fold_samplerep_line(struct fold_samplerep *r, const char *line, size_t len)
{
	struct fold_samplerep_st *st = r->st;

	st->lines++;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
	    line[len - 1] == '\r'))
		len--;
	if (st->state == S_TREE) {
		if (len > 0)
			tree_line(r, line, len);
	} else if (len >= 11 && memcmp(line, "Call graph:", 11) == 0) {
		st->state = S_TREE;
		st->skipping = 0;
		st->graphs++;
	}
}

void
fold_samplerep_eof(struct fold_samplerep *r)
{
	struct fold_samplerep_st *st = r->st;

	if (st->state == S_TREE) {
		error_at(r, r->lineno, "the report ends inside the call graph "
		    "(no \"Total number in stack\" line)");
		pop_to(r, 0);
	} else if (st->graphs == 0 && st->lines > 0)
		error_at(r, r->lineno, "the report ends before its call graph "
		    "(no \"Call graph:\" line): not the output of sample");
	st->state = S_OUT;
	st->graphs = st->lines = 0;
	st->skipping = 0;
}

void
fold_samplerep_run(struct fold_samplerep *r, int nfiles, char **files)
{
	struct fold_in in;
	const char *line;
	size_t len;
	int first = 1;

	fold_in_init(&in, nfiles, files);
	while (fold_in_line(&in, &line, &len)) {
		if (in.newfile && !first)
			fold_samplerep_eof(r);
		first = 0;
		r->file = in.name;
		r->lineno = in.lineno;
		fold_samplerep_line(r, line, len);
	}
	if (first)
		error_at(r, 0, "empty input: not the output of sample");
	else
		fold_samplerep_eof(r);
	if (in.status)
		r->status = 1;
	fold_in_free(&in);
}

/* ---- output ------------------------------------------------------------ */

void
fold_samplerep_print(struct fold_samplerep *r)
{
	struct fold_samplerep_st *st = r->st;
	size_t n = fold_intern_count(&st->stacks), k;
	uint32_t *ids = xmalloc((n + 1) * sizeof(*ids));
	struct fold_str s;

	for (k = 0; k < n; k++)
		ids[k] = (uint32_t)k;
	fold_sort_names(ids, n, &st->stacks);
	for (k = 0; k < n; k++) {
		if (st->counts[ids[k]] == 0)
			continue;
		s = fold_intern_str(&st->stacks, ids[k]);
		fo_write(s.s, s.len);
		fo_putc(' ');
		fo_u64(st->counts[ids[k]]);
		fo_putc('\n');
	}
	free(ids);
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
	fold_intern_free(&st->keys);
	fold_arena_free(&st->arena);
	fold_intern_free(&st->stacks);
	free(st->frames);
	free(st->counts);
	free(st->nodes);
	free(st->path);
	free(st->key);
	free(st->tmp);
	free(st);
	free(r);
	return status;
}
