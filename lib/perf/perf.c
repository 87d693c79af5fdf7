/* perf.c - perf script text to folded stacks (see stackcollapse-perf(1)). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fold.h"
#include "folded/folded.h"
#include "symbols/symbols.h"
#include "perf/perf.h"


/*
 * How it goes fast: every frame line of perf script repeats, byte for byte,
 * for every sample through that code address.  So the line itself (after
 * its leading blanks) is the cache key: a line seen before costs one hash
 * and one memcmp, and yields the frame name ids it stands for.  Most often
 * not even the hash: the line after a frame line (its caller) is nearly
 * always the same, so that one is tried first (rfind()).  Headers repeat too
 * but for the time and period: one with the bytes of a recent one around
 * those reuses its parse and root (header_fast()).  A sample is the array of
 * those ids (leaf first, root last), interned as bytes: one hash lookup per
 * sample.  Texts are built only at the end, for the distinct stacks.
 */

enum { S_NONE, S_SAMPLE, S_DROP };

struct rv {			/* what a cached frame line stands for */
	uint32_t a;		/* n == 1: the name id; n > 1: offset in pool */
	uint32_t n;		/* number of frames; 0: the line is dropped */
	uint32_t next;		/* the line after it last time, or FOLD_NOID */
};

/*
 * A sample header seen before, for header_fast(): the line up to its time
 * field (command, pid/tid, [CPU]), and after the time field either the
 * bytes after the period digits or, with no period, all of it.  Those bytes
 * decide everything but the time and the period, so the header's parse,
 * event verdict and root are kept with them.
 */
#define NHCACHE 4
struct hcache {
	char *key;		/* the line up to the time field */
	size_t nkey, keycap;
	char *tail;		/* the line after the period (or time) */
	size_t ntail, tailcap;
	int used, blank, period, want, java;
	uint32_t root;
};

struct a2l {			/* a module's DWARF, for --inline */
	struct fold_dwarf *dw;
	int dwtried, reported;
};

struct fold_perf_st {
	unsigned flags;
	const char *skip;
	size_t skiplen;
	char *event;		/* the filter; NULL until the first event */
	int event_default, event_warned;

	struct fold_intern names;	/* frame and root names */
	unsigned char *skipname;	/* per name: 1 if it is --skip-after's */
	size_t skipcap;
	/* the frame line cache, (not java, java): lines to ids, and by id
	 * what each stands for */
	struct fold_intern raw[2];
	struct rv *rv[2];
	size_t rvcap[2];
	uint32_t prevline;	/* the sample's last frame line, or FOLD_NOID */
	uint32_t *pool;
	size_t npool, poolcap;

	struct fold_intern stacks;	/* arrays of name ids, leaf first */
	uint64_t *counts;
	uint64_t total;		/* of counts, at most UINT64_MAX */
	size_t countcap;

	/* the current sample */
	int state, java, stopped;
	uint32_t root;
	uint64_t weight;
	uint32_t *stk;
	size_t nstk, stkcap;

	/* --srcline: a frame line waiting for its source line */
	int want_src;
	char *pend;
	size_t npend, pendcap;

	char *lasthdr;		/* the comm and pid/tid of the last root */
	size_t nlasthdr, lasthdrcap;
	int lastjava;
	uint32_t lastroot;
	struct hcache hc[NHCACHE];	/* recent header shapes */
	unsigned hclast, hcnext;	/* the last hit, the next to replace */

	char *tmp;		/* scratch for names */
	size_t tmpcap;
	uint32_t *ids;		/* scratch for the names of one line */
	size_t idcap;
	const char **sfile;	/* --context: source lines of a chain */
	unsigned *sline;
	size_t sfilecap, slinecap;
	uint32_t *ids2;		/* the names of one structured frame */
	size_t ids2cap;
	char *tmp2, *tmp3, *tmp4;	/* scratch for perf_name() */
	size_t tmp2cap, tmp3cap, tmp4cap;

	/* messages */
	uint64_t unrec;
	char *unrec_file;
	unsigned long long unrec_line;
	uint64_t overflows;

	/* structured frames (fold_perf_frame_id): keys and what they stand for */
	struct fold_intern fkeys;
	struct rv *fv;
	size_t fvcap;
	char *fkey;
	size_t fkeycap;

	struct fold_intern mods;	/* --inline */
	struct a2l *a2l;
	size_t a2lcap;
};

/* ---- bytes ---------------------------------------------------------- */

static inline int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
	    c == '\n';
}

static inline int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static inline int
isword(int c)
{
	return isdig(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    c == '_';
}

static inline int
ishex(int c)
{
	return isdig(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
has(const char *s, size_t n, const char *lit)
{
	size_t m = strlen(lit), i;

	for (i = 0; i + m <= n; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, m) == 0)
			return 1;
	return 0;
}

static int
prefix(const char *s, size_t n, const char *lit)
{
	size_t m = strlen(lit);

	return n >= m && memcmp(s, lit, m) == 0;
}

/* Scratch buffer append. */
static void
tput(struct fold_perf_st *st, size_t *len, const char *s, size_t n)
{
	fold_grow(&st->tmp, &st->tmpcap, *len + n + 1, 1);
	if (n > 0)
		memcpy(st->tmp + *len, s, n);
	*len += n;
}

/* ---- lookups -------------------------------------------------------- */

/*
 * The id of the cached frame line t in the current sample's table, or
 * FOLD_NOID.  A frame line is usually followed by the same line as the last
 * time (the caller of a code address seldom changes), so that one is tried
 * first, by its bytes: then the line is not even hashed.
 */
static inline uint32_t
rfind(struct fold_perf_st *st, const char *t, size_t n)
{
	int j = st->java;
	uint32_t id = FOLD_NOID, prev = st->prevline;
	struct fold_str s;

	if (prev != FOLD_NOID && (id = st->rv[j][prev].next) != FOLD_NOID) {
		s = fold_intern_str(&st->raw[j], id);
		if (s.len == n && memcmp(s.s, t, n) == 0)
			goto found;
	}
	id = fold_intern_find_h(&st->raw[j], t, n, fold_hash(t, n));
	if (id == FOLD_NOID)
		return id;
	if (prev != FOLD_NOID)
		st->rv[j][prev].next = id;
found:
	st->prevline = id;
	return id;
}

/* Cache the frame line t (not cached yet) as standing for v. */
static void
radd(struct fold_perf_st *st, const char *t, size_t n, struct rv v)
{
	int j = st->java;
	uint32_t id = fold_intern(&st->raw[j], t, n, NULL);

	fold_grow(&st->rv[j], &st->rvcap[j], (size_t)id + 1, sizeof(*st->rv[j]));
	v.next = FOLD_NOID;
	st->rv[j][id] = v;
	if (st->prevline != FOLD_NOID)
		st->rv[j][st->prevline].next = id;
	st->prevline = id;
}

/* A frame or root name to its id. */
static uint32_t
name_id(struct fold_perf_st *st, const char *s, size_t n)
{
	int isnew;
	uint32_t id = fold_intern(&st->names, s, n, &isnew);
	size_t k;

	if (isnew && st->skip != NULL) {
		fold_grow(&st->skipname, &st->skipcap, (size_t)id + 1, 1);
		k = fold_strip_annotation(s, n);
		st->skipname[id] = (n == st->skiplen &&
		    memcmp(s, st->skip, n) == 0) || (k == st->skiplen &&
		    memcmp(s, st->skip, k) == 0);
	}
	return id;
}

/* ---- messages ------------------------------------------------------- */

static void
unrecognized(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;

	if (st->flags & FOLD_PERF_STRICT)
		fold_die(1, "%s:%llu: unrecognized line", p->file, p->lineno);
	if (st->unrec++ == 0) {
		st->unrec_file = xstrdup(p->file);
		st->unrec_line = p->lineno;
	}
}

/* ---- inlined frames (--inline) --------------------------------------- */

/*
 * The chain of functions inlined at addr in mod, root first, into st->ids
 * (how many; 0: none, the symbol stays), as the Perl script has them from
 * `addr2line -a ADDR -e MODULE -i -f -s -C`: the names our DWARF reader
 * gives (in mod, or in the debug file addr2line finds for it), demangled
 * as -C demangles (with parameters; a "@..." suffix kept), "??" left out,
 * ';' made ':' and quotes dropped; with --context each followed by
 * ":FILE:LINE" (base name, "??" and "?" where unknown).
 */
static size_t
dw_chain(struct fold_perf *p, const char *mod, size_t mlen,
    const char *addr, size_t alen)
{
	struct fold_perf_st *st = p->st;
	const char *const *nm;
	const char *why;
	uint64_t a = 0;
	size_t n = 0, i, j, k, c, len, at;
	uint32_t m;
	struct a2l *x;
	int isnew;

	m = fold_intern(&st->mods, mod, mlen, &isnew);
	fold_grow(&st->a2l, &st->a2lcap, (size_t)m + 1, sizeof(*st->a2l));
	x = &st->a2l[m];
	if (isnew)
		memset(x, 0, sizeof(*x));
	if (!x->dwtried) {
		x->dwtried = 1;
		x->dw = fold_dwarf_open(fold_intern_str(&st->mods, m).s, &why);
		if (x->dw == NULL && !(st->flags & FOLD_PERF_QUIET))
			fold_warn("--inline: cannot read '%.*s'%s%s; its symbols "
			    "are used as they are", (int)mlen, mod,
			    why != NULL ? ": " : "", why != NULL ? why : "");
	}
	if (x->dw == NULL)
		return 0;
	/* addr2line reads the address as hex up to the first other byte */
	for (i = 0; i < alen && i < 16; i++) {
		c = (unsigned char)addr[i];
		if (c >= '0' && c <= '9')
			a = a << 4 | (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			a = a << 4 | ((c | 0x20) - 'a' + 10);
		else
			break;
	}
	k = fold_dwarf_inlines(x->dw, a, &nm);
	if (!x->reported && (why = fold_dwarf_problem(x->dw)) != NULL) {
		x->reported = 1;	/* damage found while reading: once */
		if (!(st->flags & FOLD_PERF_QUIET))
			fold_warn("--inline: '%.*s': debug information: %s",
			    (int)mlen, mod, why);
	}
	if (k > 0 && (st->flags & FOLD_PERF_CONTEXT)) {
		fold_grow(&st->sfile, &st->sfilecap, k, sizeof(*st->sfile));
		fold_grow(&st->sline, &st->slinecap, k, sizeof(*st->sline));
		if (fold_dwarf_srclines(x->dw, a, st->sfile, st->sline, k) < k)
			k = 0;
	}
	fold_grow(&st->tmp2, &st->tmp2cap, FOLD_DM_MAXOUT + 1, 1);
	for (i = 0; i < k; i++) {
		const char *f = nm[i];
		size_t at2 = 0, d;

		if (strcmp(f, "??") == 0)
			continue;
		len = strlen(f);
		at = len;
		for (j = 0; j < len; j++)	/* bfd_demangle(): "@..." kept */
			if (f[j] == '@') {
				at = j;
				break;
			}
		d = at > 2 && f[0] == '_' ? fold_demangle(f, at, st->tmp2,
		    FOLD_DM_MAXOUT, FOLD_DM_PARAMS) : 0;
		/* tidied like a symbol: ';' to ':', quotes dropped */
		at2 = 0;
		if (d > 0) {
			for (j = 0; j < d; j++)
				if (st->tmp2[j] != '"' && st->tmp2[j] != '\'') {
					char ch = st->tmp2[j] == ';' ? ':' :
					    st->tmp2[j];
					tput(st, &at2, &ch, 1);
				}
			f += at;
			len -= at;
		}
		for (j = 0; j < len; j++)
			if (f[j] != '"' && f[j] != '\'') {
				char ch = f[j] == ';' ? ':' : f[j] == '\n' ?
				    ' ' : f[j];
				tput(st, &at2, &ch, 1);
			}
		if (st->flags & FOLD_PERF_CONTEXT) {
			char lb[16];
			const char *sf = st->sfile[i] != NULL ? st->sfile[i] :
			    "??";

			tput(st, &at2, ":", 1);
			for (j = 0; sf[j] != '\0'; j++) {
				char ch = sf[j] == '\n' ? ' ' : sf[j];

				tput(st, &at2, &ch, 1);
			}
			if (st->sline[i] != 0)
				snprintf(lb, sizeof(lb), ":%u", st->sline[i]);
			else
				snprintf(lb, sizeof(lb), ":?");
			tput(st, &at2, lb, strlen(lb));
		}
		fold_grow(&st->ids, &st->idcap, n + 1, sizeof(*st->ids));
		st->ids[n++] = name_id(st, st->tmp, at2);
	}
	for (i = 0; i < n / 2; i++) {	/* innermost first: root first */
		m = st->ids[i];
		st->ids[i] = st->ids[n - 1 - i];
		st->ids[n - 1 - i] = m;
	}
	return n;
}

/* ---- frame names ---------------------------------------------------- */

/* Where the argument list of a name starts (fix 3), or len. */
static size_t
argcut(const char *s, size_t len)
{
	static const char anon[] = "(anonymous namespace)";
	size_t i, depth = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '(') {
			if (len - i >= sizeof(anon) - 1 &&
			    memcmp(s + i, anon, sizeof(anon) - 1) == 0) {
				i += sizeof(anon) - 2;
				continue;
			}
			if (depth == 0)
				return i;
			depth++;
		} else if (c == '<' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == '>' || c == ']' || c == '}') {
			if (depth > 0)
				depth--;
		} else if (c == 'o' && len - i > 8 &&
		    memcmp(s + i, "operator", 8) == 0 &&
		    (i == 0 || !isword((unsigned char)s[i - 1]))) {
			/* operator< operator<< operator<=> operator>> ... */
			i += 8;
			while (i < len && s[i] == ' ')
				i++;
			while (i < len && (s[i] == '<' || s[i] == '>' ||
			    s[i] == '=' || s[i] == '-'))
				i++;
			i--;
		}
	}
	return len;
}

/*
 * Whether the "->" at s[i] is part of an operator name (operator->,
 * operator->*): "operator" right before it, not ending a longer word.
 * Such a "->" does not separate inlined frames (fix 6).
 */
static int
oparrow(const char *s, size_t i)
{
	return i >= 8 && memcmp(s + i - 8, "operator", 8) == 0 &&
	    (i == 8 || !isword((unsigned char)s[i - 9]));
}

/* Go method names such as "Foo.(*Bar).baz" keep their parentheses. */
static int
gomethod(const char *s, size_t len)
{
	size_t i, j;

	for (i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '(')
			break;
	for (j = len; j >= i + 4; j--)
		if (s[j - 2] == ')' && s[j - 1] == '.')
			return 1;
	return 0;
}

static int
jitmod(const char *m, size_t n)
{
	size_t i, j;

	for (i = 0; i + 10 <= n; i++) {
		if (memcmp(m + i, "/tmp/perf-", 10) != 0)
			continue;
		for (j = i + 10; j < n && isdig((unsigned char)m[j]); j++)
			;
		if (j > i + 10 && n - j >= 4 && memcmp(m + j, ".map", 4) == 0)
			return 1;
	}
	return 0;
}

/* A module addr2line can read: not [x], perf-N.map or kernel. */
static int
filemod(const char *m, size_t n)
{
	size_t i, j;

	if (n == 0 || has(m, n, "kernel."))
		return 0;
	for (i = 0; i < n; i++) {
		if (m[i] == '[') {
			for (j = i + 1; j < n && m[j] != ']'; j++)
				;
			if (j < n && j > i + 1)
				return 0;
		}
		if (n - i >= 5 && memcmp(m + i, "perf-", 5) == 0) {
			for (j = i + 5; j < n && isdig((unsigned char)m[j]); j++)
				;
			if (j > i + 5 && n - j >= 4 && memcmp(m + j + 1, "map", 3) == 0)
				return 0;
		}
	}
	return 1;
}

struct frame {
	const char *addr, *sym, *mod, *src;
	size_t alen, slen, mlen, srclen;
	int hasmod, hassrc;
	int nooff;		/* sym carries no "+0x..." offset to strip: a
				   frame of perf.data (fold_perf_frame_id) */
	int demangle;		/* with nooff: demangle (else the flag) */
};

/*
 * The names a frame line stands for, root first, into st->ids; returns how
 * many (0: the frame is dropped).  *unknown is set when the symbol was
 * [unknown] (no source line follows it with --srcline).
 */
static size_t
frame_names(struct fold_perf *p, const struct frame *f, int java, int *unknown)
{
	struct fold_perf_st *st = p->st;
	const char *sym = f->sym, *mod = f->hasmod ? f->mod : "[unknown]";
	size_t slen = f->slen, mlen = f->hasmod ? f->mlen : 9;
	size_t n = 0, i, k, start, end, cut;
	int isunk = 0;

	*unknown = 0;
	/* the +0x offset */
	for (i = slen; !f->nooff && i > 0 && ishex((unsigned char)sym[i - 1]) &&
	    !(sym[i - 1] >= 'A' && sym[i - 1] <= 'F'); i--)
		;
	if (!f->nooff && i < slen && i >= 3 && sym[i - 1] == 'x' &&
	    sym[i - 2] == '0' && sym[i - 3] == '+')
		slen = i - 3;
	if (slen > 0 && sym[0] == '(' && !prefix(sym, slen,
	    "(anonymous namespace)"))
		return 0;
	/* split drops trailing empty pieces */
	while (slen >= 2 && sym[slen - 2] == '-' && sym[slen - 1] == '>' &&
	    !oparrow(sym, slen - 2))
		slen -= 2;
	if (slen == 0)
		return 0;
	/* perf.data frames: with --context only (else perfdata.c gives
	 * perf's own inlined frames) */
	if ((st->flags & FOLD_PERF_INLINE) && (!f->nooff ||
	    (st->flags & FOLD_PERF_CONTEXT)) && f->hasmod &&
	    filemod(mod, mlen)) {
		n = dw_chain(p, mod, mlen, f->addr, f->alen);
		if (n > 0)
			return n;
	}
	for (start = 0; start <= slen; start = end + 2) {
		const char *pc;
		size_t pl, ann = 0;

		for (end = start; end + 1 < slen &&
		    !(sym[end] == '-' && sym[end + 1] == '>' &&
		    !oparrow(sym, end)); end++)
			;
		if (end + 1 >= slen)
			end = slen;
		pc = sym + start;
		pl = end - start;
		k = 0;
		if (pl == 9 && memcmp(pc, "[unknown]", 9) == 0) {
			const char *b = mod;
			size_t bl = mlen;

			if (bl == 9 && memcmp(b, "[unknown]", 9) == 0) {
				b = "unknown";
				bl = 7;
			} else {
				for (i = bl; i > 0; i--)
					if (b[i - 1] == '/')
						break;
				b += i;
				bl -= i;
			}
			tput(st, &k, "[", 1);
			tput(st, &k, b, bl);
			if (st->flags & FOLD_PERF_ADDRS) {
				tput(st, &k, " <", 2);
				tput(st, &k, f->addr, f->alen);
				tput(st, &k, ">", 1);
			}
			tput(st, &k, "]", 1);
			isunk = 1;
		} else if ((f->nooff ? f->demangle :
		    (st->flags & FOLD_PERF_DEMANGLE) != 0) && pl > 2 &&
		    pc[0] == '_' && (pc[1] == 'Z' || pc[1] == 'R' ||
		    pc[1] == 'G')) {
			/* as perf script prints names: c++filt -p, and a PLT
			 * entry's name demangled before its "@plt" */
			size_t ml = pl;
			if (ml > 4 && memcmp(pc + ml - 4, "@plt", 4) == 0)
				ml -= 4;
			fold_grow(&st->tmp, &st->tmpcap, FOLD_DM_MAXOUT + 5, 1);
			k = fold_demangle(pc, ml, st->tmp, FOLD_DM_MAXOUT, 0);
			if (k == 0)
				tput(st, &k, pc, pl);
			else if (ml < pl)
				tput(st, &k, "@plt", 4);
		} else
			tput(st, &k, pc, pl);
		/* tidy: ';' to ':', cut the arguments, drop quotes */
		for (i = 0; i < k; i++)
			if (st->tmp[i] == ';')
				st->tmp[i] = ':';
		if (!gomethod(st->tmp, k))
			k = argcut(st->tmp, k);
		for (i = cut = 0; i < k; i++)
			if (st->tmp[i] != '"' && st->tmp[i] != '\'')
				st->tmp[cut++] = st->tmp[i];
		k = cut;
		if (java && k > 0 && st->tmp[0] == 'L' && memchr(st->tmp, '/', k)) {
			memmove(st->tmp, st->tmp + 1, k - 1);
			k--;
		}
		/* annotations */
		if (n > 0) {
			if (!has(st->tmp, k, "_[i]"))
				ann = 1;
		} else if ((st->flags & FOLD_PERF_KERNEL) && f->hasmod &&
		    (mod[0] == '[' || (mlen >= 7 &&
		    memcmp(mod + mlen - 7, "vmlinux", 7) == 0)) &&
		    !has(mod, mlen, "unknown")) {
			tput(st, &k, "_[k]", 4);
		} else if ((st->flags & FOLD_PERF_JIT) && f->hasmod &&
		    jitmod(mod, mlen) && !has(st->tmp, k, "_[j]")) {
			tput(st, &k, "_[j]", 4);
		}
		if (ann)
			tput(st, &k, "_[i]", 4);
		/* the source line goes to the innermost piece */
		if (f->hassrc && !isunk && end == slen) {
			const char *s = f->src;
			size_t sl = f->srclen, j, m0 = k;

			tput(st, &k, ":", 1);
			for (j = 0; j < sl; j++) {
				if (s[j] == '[') {
					const char *c = memchr(s + j, ']', sl - j);

					if (c != NULL) {
						j = (size_t)(c - s);
						continue;
					}
				}
				tput(st, &k, s + j, 1);
			}
			/* trim blanks */
			for (j = m0 + 1; j < k && isws((unsigned char)st->tmp[j]); j++)
				;
			memmove(st->tmp + m0 + 1, st->tmp + j, k - j);
			k -= j - (m0 + 1);
			while (k > m0 + 1 && isws((unsigned char)st->tmp[k - 1]))
				k--;
			if (k == m0 + 1)
				k = m0;
		}
		fold_grow(&st->ids, &st->idcap, n + 1, sizeof(*st->ids));
		st->ids[n++] = name_id(st, st->tmp, k);
		if (end == slen)
			break;
	}
	*unknown = isunk;
	return n;
}

/* ---- parsing lines -------------------------------------------------- */

/*
 * Where the module of a frame line starts, given rp, its last ")": just
 * after the " (" that opens the group rp closes, its parentheses balanced,
 * so "(/memfd:x (deleted))" is one module (fix 5).  If that "(" has no
 * blank before it or the group is not balanced, after the last " (" (the
 * reference's reading).  Below 2 (no " (" after the address a): none.
 */
static size_t
modstart(const char *t, size_t a, size_t rp)
{
	size_t i, depth = 0;

	for (i = rp; i > a; i--) {
		if (t[i - 1] == ')')
			depth++;
		else if (t[i - 1] == '(') {
			if (depth == 0) {
				if (i >= 2 && t[i - 2] == ' ')
					return i;
				break;
			}
			depth--;
		}
	}
	for (i = rp; i >= 2 && !(t[i - 1] == '(' && t[i - 2] == ' '); i--)
		;
	return i;
}

/*
 * A frame line, t[0] not blank: "ADDR SYMBOL (MODULE)", the module the
 * parenthesised group that ends at the last ")" (modstart()), the symbol
 * what precedes it; or, with no module, "HEXADDR SYMBOL".  0 if t is
 * neither.
 */
static int
parse_frame(const char *t, size_t n, struct frame *f)
{
	size_t a, s, rp, j, e;

	memset(f, 0, sizeof(*f));
	for (a = 0; a < n && isword((unsigned char)t[a]); a++)
		;
	if (a == 0)
		return 0;
	for (s = a; s < n && isws((unsigned char)t[s]); s++)
		;
	for (rp = n; rp > 0 && t[rp - 1] != ')'; rp--)
		;
	if (rp > 0) {
		rp--;
		j = modstart(t, a, rp);
		if (j >= 2 && j - 2 >= a) {	/* t[j-2..j) is " (" */
			size_t sp = j - 2;

			f->addr = t;
			f->alen = a;
			if (s < sp) {
				f->sym = t + s;
				f->slen = sp - s;
			} else if (sp > a) {	/* the regex's backtracking */
				f->sym = t + sp - 1;
				f->slen = 1;
			} else if (a >= 2) {
				f->alen = a - 1;
				f->sym = t + a - 1;
				f->slen = 1;
			} else
				goto nomod;
			f->mod = t + j;
			f->mlen = rp - j;
			f->hasmod = 1;
			return 1;
		}
	}
nomod:
	for (j = 0; j < a; j++)
		if (!ishex((unsigned char)t[j]))
			return 0;
	if (s == a || s == n)
		return 0;
	for (e = n; e > s && isws((unsigned char)t[e - 1]); e--)
		;
	f->addr = t;
	f->alen = a;
	f->sym = t + s;
	f->slen = e - s;
	return 1;
}

/*
 * The header regex of the reference, /^(\S.+?)\s+(\d+)[/]*(\d+)*\s+/, with
 * fix 4 (a one-character command) and the end of the line accepted as the
 * last blank.  On success: the command is t[0..*ce), the numbers t[*p1..)
 * (PID or TID) and t[*p2..) (TID, *l2 may be 0), the rest starts at *rest.
 */
struct hdr {
	size_t ce, p1, l1, p2, l2, rest;
};

static int
pidtid(const char *t, size_t n, size_t q, struct hdr *h)
{
	size_t r;

	if (q >= n || !isdig((unsigned char)t[q]))
		return 0;
	h->p1 = q;
	for (r = q; r < n && isdig((unsigned char)t[r]); r++)
		;
	h->l1 = r - q;
	while (r < n && t[r] == '/')
		r++;
	h->p2 = r;
	while (r < n && isdig((unsigned char)t[r]))
		r++;
	h->l2 = r - h->p2;
	if (r < n && !isws((unsigned char)t[r]))
		return 0;
	while (r < n && isws((unsigned char)t[r]))
		r++;
	h->rest = r;
	return 1;
}

/* A "[CPU]" or "TIME:" field at t[r]. */
static int
cpu_or_time(const char *t, size_t n, size_t r)
{
	size_t e;

	if (r < n && t[r] == '[') {
		for (e = r + 1; e < n && isdig((unsigned char)t[e]); e++)
			;
		return e > r + 1 && e < n && t[e] == ']';
	}
	for (e = r; e < n && isdig((unsigned char)t[e]); e++)
		;
	if (e == r || e >= n || t[e] != '.')
		return 0;
	for (e++; e < n && isdig((unsigned char)t[e]); e++)
		;
	return e < n && t[e] == ':';
}

static int
parse_hdr(const char *t, size_t n, struct hdr *h)
{
	struct hdr h2;
	size_t p, q;

	for (p = 1; p < n; p++) {
		if (!isws((unsigned char)t[p]))
			continue;
		for (q = p; q < n && isws((unsigned char)t[q]); q++)
			;
		if (pidtid(t, n, q, h)) {
			h->ce = p;
			/*
			 * Beyond the reference: a command whose last word is
			 * a number ("my worker 1  4618 [000] 530.8: ...").
			 * When two numbers come before the [CPU] or TIME
			 * field, the first belongs to the command.
			 */
			while (!cpu_or_time(t, n, h->rest) &&
			    pidtid(t, n, h->rest, &h2) &&
			    cpu_or_time(t, n, h2.rest)) {
				for (p = h->rest; p > 0 &&
				    isws((unsigned char)t[p - 1]); p--)
					;
				h2.ce = p;
				*h = h2;
			}
			return 1;
		}
		p = q - 1;
	}
	return 0;
}

/*
 * The event of a header: /:\s*(\d+)*\s+(\S+):\s*$/.  1 with the event in
 * t[*ev..+*el) and the period digits in t[*pp..+*pl) (*pl may be 0).
 */
static int
parse_event(const char *t, size_t n, size_t *ev, size_t *el, size_t *pp,
    size_t *pl)
{
	size_t e = n, b, w, d;

	while (e > 0 && isws((unsigned char)t[e - 1]))
		e--;
	if (e < 2 || t[e - 1] != ':')
		return 0;
	for (b = e - 1; b > 0 && !isws((unsigned char)t[b - 1]); b--)
		;
	if (b == 0 || b == e - 1)
		return 0;
	*ev = b;
	*el = e - 1 - b;
	for (w = b; w > 0 && isws((unsigned char)t[w - 1]); w--)
		;
	*pp = *pl = 0;
	if (w > 0 && t[w - 1] == ':')
		return 1;
	for (d = w; d > 0 && isdig((unsigned char)t[d - 1]); d--)
		;
	if (d == w)
		return 0;
	*pp = d;
	*pl = w - d;
	while (d > 0 && isws((unsigned char)t[d - 1]))
		d--;
	return d > 0 && t[d - 1] == ':';
}

static size_t
token(const char *t, size_t n, size_t i)
{
	while (i < n && !isws((unsigned char)t[i]))
		i++;
	return i;
}

static size_t
skipws(const char *t, size_t n, size_t i)
{
	while (i < n && isws((unsigned char)t[i]))
		i++;
	return i;
}

static int
allof(const char *s, size_t n, int (*fn)(int))
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fn((unsigned char)s[i]))
			return 0;
	return n > 0;
}

static int
isdig_(int c)
{
	return isdig(c);
}

static int
ishex_(int c)
{
	return ishex(c);
}

/* ---- samples -------------------------------------------------------- */

static void
push(struct fold_perf_st *st, const uint32_t *ids, size_t n)
{
	size_t i;

	if (st->stopped)
		return;
	if (st->nstk + n + 1 > st->stkcap)
		fold_grow(&st->stk, &st->stkcap, st->nstk + n + 1,
		    sizeof(*st->stk));
	/* ids are root first; the sample is kept leaf first */
	for (i = n; i > 0; i--) {
		uint32_t id = ids[i - 1];

		st->stk[st->nstk++] = id;
		if (st->skip != NULL && st->skipname[id]) {
			st->stopped = 1;
			return;
		}
	}
}

static inline void
push_rv(struct fold_perf_st *st, struct rv v)
{
	if (v.n == 1)
		push(st, &v.a, 1);
	else if (v.n > 1)
		push(st, st->pool + v.a, v.n);
}

/* The id of the stack in st->stk[0..nstk) with st->root appended. */
static uint32_t
intern_stack(struct fold_perf_st *st)
{
	size_t len;

	if (st->nstk + 1 > st->stkcap)
		fold_grow(&st->stk, &st->stkcap, st->nstk + 1, sizeof(*st->stk));
	st->stk[st->nstk++] = st->root;
	len = st->nstk * sizeof(*st->stk);
	return fold_intern_h(&st->stacks, (const char *)st->stk, len,
	    fold_hash(st->stk, len), NULL);
}

/* Add w to the count of stack id (from intern_stack()). */
static void
add_count(struct fold_perf *p, uint32_t id, uint64_t w)
{
	struct fold_perf_st *st = p->st;

	if (id >= st->countcap)
		fold_grow(&st->counts, &st->countcap, (size_t)id + 1,
		    sizeof(*st->counts));
	if (st->counts[id] > UINT64_MAX - w) {
		if (st->overflows++ > 0)
			;
		else if (p->lineno > 0)
			fold_warn("%s:%llu: sum of counts larger than "
			    "18446744073709551615; sample skipped", p->file,
			    p->lineno);
		else		/* perf.data: no lines */
			fold_warn("%s: sum of counts larger than "
			    "18446744073709551615; sample skipped", p->file);
		p->status = 1;
		return;
	}
	st->counts[id] += w;
	st->total = st->total > UINT64_MAX - w ? UINT64_MAX : st->total + w;
}

static void
commit(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;

	if (st->state != S_SAMPLE) {
		st->state = S_NONE;
		return;
	}
	st->state = S_NONE;
	add_count(p, intern_stack(st), st->weight);
}

/* The weight of a sample from its period digits into st->weight; 0 (the
 * sample dropped, with a warning) if it is too large. */
static int
weight(struct fold_perf *p, const char *per, size_t perlen)
{
	struct fold_perf_st *st = p->st;
	size_t i;
	uint64_t w = 0;

	for (i = 0; i < perlen; i++) {
		unsigned d = (unsigned)(per[i] - '0');

		/* 19 digits are below 10^19 < 2^64: only then check */
		if (i >= 19 && w > (UINT64_MAX - d) / 10) {
			if (st->overflows++ == 0)
				fold_warn("%s:%llu: period larger than "
				    "18446744073709551615; sample skipped",
				    p->file, p->lineno);
			p->status = 1;
			st->state = S_DROP;
			return 0;
		}
		w = w * 10 + d;
	}
	if (w == 0 || (st->flags & FOLD_PERF_SAMPLES))
		w = 1;
	st->weight = w;
	return 1;
}

/*
 * The root frame of a sample: the command with every space turned into '_',
 * then with --pid "-PID" and with --tid "-PID/TID" (an unknown PID, plen 0,
 * is "?").  Sets st->root and st->java.
 */
static void
make_root(struct fold_perf_st *st, const char *comm, size_t clen,
    const char *pid, size_t plen, const char *tid, size_t tlen)
{
	size_t k = 0, i;

	tput(st, &k, comm, clen);
	for (i = 0; i < k; i++)
		if (st->tmp[i] == ' ')
			st->tmp[i] = '_';
	if (st->flags & (FOLD_PERF_PID | FOLD_PERF_TID)) {
		tput(st, &k, "-", 1);
		if (plen > 0)
			tput(st, &k, pid, plen);
		else
			tput(st, &k, "?", 1);
		if (st->flags & FOLD_PERF_TID) {
			tput(st, &k, "/", 1);
			tput(st, &k, tid, tlen);
		}
	}
	st->java = k >= 4 && memcmp(st->tmp, "java", 4) == 0;
	st->root = name_id(st, st->tmp, k);
}

/* Start a sample: root name from the header, weight from the period. */
static void
begin(struct fold_perf *p, const char *t, const struct hdr *h,
    const char *per, size_t perlen)
{
	struct fold_perf_st *st = p->st;
	size_t i;

	if (!weight(p, per, perlen))
		return;
	st->nstk = 0;
	st->prevline = FOLD_NOID;
	st->stopped = 0;
	st->state = S_SAMPLE;
	/* the same command and thread as the last header: the same root */
	i = h->p2 + h->l2;
	if (i == st->nlasthdr && st->lasthdr != NULL &&
	    memcmp(t, st->lasthdr, i) == 0 && st->lastroot != (uint32_t)-1) {
		st->root = st->lastroot;
		st->java = st->lastjava;
		return;
	}
	fold_grow(&st->lasthdr, &st->lasthdrcap, i + 1, 1);
	memcpy(st->lasthdr, t, i);
	st->nlasthdr = i;
	if (h->l2 > 0)
		make_root(st, t, h->ce, t + h->p1, h->l1, t + h->p2, h->l2);
	else
		make_root(st, t, h->ce, NULL, 0, t + h->p1, h->l1);
	st->lastroot = st->root;
	st->lastjava = st->java;
}

static void frame_line(struct fold_perf *p, const char *t, size_t n);

/* Keep the sample of this event?  (The first event seen is the filter.) */
static int
want_event(struct fold_perf_st *st, const char *e, size_t el)
{
	if (st->event == NULL) {
		st->event = xmalloc(el + 1);
		memcpy(st->event, e, el);
		st->event[el] = '\0';
		st->event_default = 1;
		return 1;
	}
	if (strlen(st->event) == el && memcmp(st->event, e, el) == 0)
		return 1;
	if (st->event_default && !st->event_warned) {
		st->event_warned = 1;
		if (!(st->flags & FOLD_PERF_QUIET))
			fold_warn("more than one event: only '%s' samples are "
			    "kept (choose with --event-filter)", st->event);
	}
	return 0;
}

/* The end of a time field "DIGITS.DIGITS:" at t[r], followed by a blank
 * or the end of the line; 0 if there is none. */
static size_t
time_end(const char *t, size_t n, size_t r)
{
	size_t i;

	for (i = r; i < n && isdig((unsigned char)t[i]); i++)
		;
	if (i == r || i >= n || t[i] != '.')
		return 0;
	for (i++; i < n && isdig((unsigned char)t[i]); i++)
		;
	if (i >= n || t[i] != ':' || (i + 1 < n && !isws((unsigned char)t[i + 1])))
		return 0;
	return i + 1;
}

static void
hc_set(char **b, size_t *n, size_t *cap, const char *s, size_t len)
{
	fold_grow(b, cap, len + 1, 1);
	if (len > 0)
		memcpy(*b, s, len);
	*n = len;
}

/*
 * A frame line "ADDR SYMBOL (MODULE)" or "ADDR SYMBOL" whose address is hex
 * and whose symbol stands apart from it: not one that parse_frame() takes
 * only by the reference regex's backtracking ("add (/tmp/prog)").
 */
static int
whole_frame(const char *t, size_t n)
{
	struct frame f;

	return parse_frame(t, n, &f) && allof(f.addr, f.alen, ishex_) &&
	    f.sym > f.addr + f.alen;
}

/*
 * Is an indented line that parse_hdr() reads as "COMM PID[/TID] ..." a
 * header?  Its first word looks like an address, so it may as well be a
 * frame line ("7f00aa 1234 (/tmp/perf-1234.map)": a symbol of digits).  It
 * is decided by what follows the pid/tid at t[r], as perf script prints
 * headers: a [CPU] or TIME: field, an EVENT:, a PERIOD and EVENT:, a header
 * that ends in EVENT:, a bare PERIOD, a one-line sample's frame, or nothing
 * (-F comm,tid), which is a header only outside a sample.
 */
static int
header_tail(const struct fold_perf_st *st, const char *t, size_t n, size_t r)
{
	size_t e1, s2, e2, ev, el, pp, pl;

	if (r >= n)
		return st->state != S_SAMPLE;
	if (cpu_or_time(t, n, r) || parse_event(t, n, &ev, &el, &pp, &pl))
		return 1;
	e1 = token(t, n, r);
	if (t[e1 - 1] == ':')
		return 1;
	if (allof(t + r, e1 - r, isdig_)) {
		s2 = skipws(t, n, e1);
		e2 = token(t, n, s2);
		if (s2 == n || (e2 > s2 && t[e2 - 1] == ':'))
			return 1;
	}
	return whole_frame(t + r, n - r);
}

/*
 * Remember the header t, parsed by header() into a sample (or a dropped
 * one: want 0): the time field at t[ta], the period at t[pp..+pl) (pl 0:
 * none) right after the time field and its blanks at t[r].
 */
static void
hc_put(struct fold_perf_st *st, const char *t, size_t n, int blank,
    size_t ta, size_t r, size_t pp, size_t pl, int want)
{
	struct hcache *c = &st->hc[st->hcnext];

	if (pl > 0 && pp != r)
		return;
	st->hclast = st->hcnext;
	st->hcnext = (st->hcnext + 1) % NHCACHE;
	hc_set(&c->key, &c->nkey, &c->keycap, t, ta);
	if (pl > 0)
		hc_set(&c->tail, &c->ntail, &c->tailcap, t + pp + pl,
		    n - pp - pl);
	else
		hc_set(&c->tail, &c->ntail, &c->tailcap, t + r, n - r);
	c->used = 1;
	c->blank = blank;
	c->period = pl > 0;
	c->want = want;
	c->root = st->root;
	c->java = st->java;
}

/*
 * A header like one in the cache: the same bytes up to the time field, a
 * time field, blanks, the period digits if that one had a period, then the
 * same bytes to the end.  header() would parse it the same way (all it
 * looks at outside the time field and the period is those same bytes), with
 * the same event verdict and root, so that work is skipped.  1 if done.
 */
static int
header_fast(struct fold_perf *p, const char *t, size_t n, int blank)
{
	struct fold_perf_st *st = p->st;
	struct hcache *c;
	size_t r = 0, d = 0;
	unsigned k, i = 0;

	for (k = 0; k < NHCACHE; k++) {
		i = (st->hclast + k) % NHCACHE;
		c = &st->hc[i];
		if (!c->used || c->blank != blank || n <= c->nkey ||
		    memcmp(t, c->key, c->nkey) != 0 ||
		    (r = time_end(t, n, c->nkey)) == 0)
			continue;
		d = r = skipws(t, n, r);
		if (c->period) {
			while (d < n && isdig((unsigned char)t[d]))
				d++;
			if (d == r)
				continue;
		}
		if (n - d == c->ntail && memcmp(t + d, c->tail, c->ntail) == 0)
			break;
	}
	if (k == NHCACHE)
		return 0;
	c = &st->hc[i];
	st->hclast = i;
	if (st->state == S_SAMPLE)
		commit(p);
	if (!c->want) {
		st->state = S_DROP;
		return 1;
	}
	if (!weight(p, t + r, d - r))
		return 1;
	st->nstk = 0;
	st->prevline = FOLD_NOID;
	st->stopped = 0;
	st->state = S_SAMPLE;
	st->root = c->root;
	st->java = c->java;
	return 1;
}

/*
 * A header line t (its leading blanks skipped).  Returns 0 if it turns out
 * not to be one.
 */
static int
header(struct fold_perf *p, const char *t, size_t n, int blank)
{
	struct fold_perf_st *st = p->st;
	struct hdr h;
	size_t ev, el, pp, pl, r, e1, e2, s2, e3, per = 0, perl = 0, ta;
	const char *evp = NULL;
	size_t evl = 0;
	struct frame f;
	int timed = 0, want;

	if (header_fast(p, t, n, blank))
		return 1;
	if (!parse_hdr(t, n, &h))
		return 0;
	/* the rest: [CPU] TIME: then PERF_RECORD_... or period event: */
	r = h.rest;
	if (r < n && t[r] == '[') {
		e1 = token(t, n, r);
		if (t[e1 - 1] == ']')
			r = skipws(t, n, e1);
	}
	ta = r;
	if (r < n && isdig((unsigned char)t[r])) {
		e1 = token(t, n, r);
		if (t[e1 - 1] == ':' && memchr(t + r, '.', e1 - r) != NULL) {
			r = skipws(t, n, e1);
			timed = 1;
		}
	}
	if (n - r >= 12 && memcmp(t + r, "PERF_RECORD_", 12) == 0) {
		if (st->state == S_SAMPLE)
			commit(p);
		st->state = S_NONE;	/* not a sample: no effect */
		return 1;
	}
	/* an indented line that starts with an address may be a frame line */
	if (blank && allof(t, token(t, n, 0), ishex_) &&
	    !header_tail(st, t, n, h.rest))
		return 0;
	if (st->state == S_SAMPLE)	/* no blank line before: ends it */
		commit(p);
	if (parse_event(t, n, &ev, &el, &pp, &pl)) {
		want = want_event(st, t + ev, el);
		if (!want)
			st->state = S_DROP;
		else
			begin(p, t, &h, t + pp, pl);
		/* a shape header_fast() can take: see there */
		if (timed && time_end(t, n, ta) != 0 &&
		    cpu_or_time(t, n, h.rest) && (!want || st->state == S_SAMPLE))
			hc_put(st, t, n, blank, ta, r, pp, pl, want);
		return 1;
	}
	/*
	 * No "event:" at the end.  Beyond the reference: a sample without a
	 * callchain has its frame on the header line, after the optional
	 * period and event: "... 1003009 cpu-clock:pppH:  7f1c1a8a464b
	 * sym+0x1b (/lib/libc.so.6)".
	 */
	e1 = token(t, n, r);
	s2 = skipws(t, n, e1);
	e2 = token(t, n, s2);
	e3 = skipws(t, n, e2);
	if (e1 > r && t[e1 - 1] == ':') {
		evp = t + r;
		evl = e1 - r - 1;
		r = s2;
	} else if (allof(t + r, e1 - r, isdig_) && e2 > s2 &&
	    (t[e2 - 1] == ':' || (allof(t + s2, e2 - s2, ishex_) &&
	    whole_frame(t + s2, n - s2)))) {
		per = r;
		perl = e1 - r;
		if (t[e2 - 1] == ':') {
			evp = t + s2;
			evl = e2 - s2 - 1;
			r = e3;
		} else
			r = s2;
	}
	e1 = token(t, n, r);
	if (r < n && allof(t + r, e1 - r, ishex_) && skipws(t, n, e1) < n &&
	    e1 < n && parse_frame(t + r, n - r, &f)) {
		if (evp != NULL && !want_event(st, evp, evl)) {
			st->state = S_DROP;
			return 1;
		}
		begin(p, t, &h, t + per, perl);
		if (st->state == S_SAMPLE) {
			frame_line(p, t + r, n - r);
			commit(p);
		}
		return 1;
	}
	begin(p, t, &h, NULL, 0);
	return 1;
}

/* A frame line t (leading blanks skipped) in the current sample. */
static void
frame_line(struct fold_perf *p, const char *t, size_t n)
{
	struct fold_perf_st *st = p->st;
	int j = st->java, unk;
	uint32_t id = rfind(st, t, n);
	struct frame f;
	size_t k;
	struct rv v;

	if (id != FOLD_NOID)
		v = st->rv[j][id];
	else {
		if (!parse_frame(t, n, &f)) {
			unrecognized(p);
			return;
		}
		k = frame_names(p, &f, j, &unk);
		v.n = (uint32_t)k;
		if (k == 1)
			v.a = st->ids[0];
		else {
			fold_grow(&st->pool, &st->poolcap, st->npool + k,
			    sizeof(*st->pool));
			v.a = (uint32_t)st->npool;
			if (k > 0)
				memcpy(st->pool + st->npool, st->ids,
				    k * sizeof(*st->ids));
			st->npool += k;
		}
		radd(st, t, n, v);
	}
	push_rv(st, v);
}

/* --srcline: a frame line and its source line (NULL: none). */
static void
src_frame(struct fold_perf *p, const char *t, size_t n, const char *src,
    size_t srclen)
{
	struct fold_perf_st *st = p->st;
	struct frame f;
	size_t k;
	int unk;

	if (!parse_frame(t, n, &f)) {
		unrecognized(p);
		return;
	}
	if (src != NULL) {
		f.src = src;
		f.srclen = srclen;
		f.hassrc = 1;
	}
	k = frame_names(p, &f, st->java, &unk);
	if (src == NULL && !unk) {	/* wait for the source line */
		fold_grow(&st->pend, &st->pendcap, n + 1, 1);
		memcpy(st->pend, t, n);
		st->npend = n;
		st->want_src = 1;
		return;
	}
	push(st, st->ids, k);
}

/* The pending --srcline frame, without a source line. */
static void
flush_src(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;
	struct frame f;
	size_t k;
	int unk;

	st->want_src = 0;
	if (st->state == S_SAMPLE && parse_frame(st->pend, st->npend, &f)) {
		k = frame_names(p, &f, st->java, &unk);
		push(st, st->ids, k);
	}
}

void
fold_perf_line(struct fold_perf *p, const char *s, size_t n)
{
	struct fold_perf_st *st = p->st;
	const char *t;
	size_t m;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (st->want_src) {
		st->want_src = 0;
		if (n > 0) {	/* whatever it is, as the reference does */
			src_frame(p, st->pend, st->npend, s, n);
			return;
		}
		flush_src(p);	/* an empty line: no source line after all */
	}
	if (n == 0) {
		commit(p);
		return;
	}
	if (s[0] == '#')
		return;
	if (isws((unsigned char)s[0])) {
		t = s + 1;
		m = n - 1;
		while (m >= 8) {	/* perf pads with spaces: 8 at a time */
			uint64_t w8;

			memcpy(&w8, t, 8);
			w8 ^= 0x2020202020202020ULL;
			if (w8 != 0) {
#if (defined(__GNUC__) || defined(__clang__)) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
				/* the spaces before the first other byte */
				size_t k = (size_t)__builtin_ctzll(w8) / 8;

				t += k;
				m -= k;
#endif
				break;
			}
			t += 8;
			m -= 8;
		}
		for (; m > 0 && isws((unsigned char)*t); t++)
			m--;
		if (m == 0) {	/* blanks only: ends a sample too */
			commit(p);
			return;
		}
		if (st->state == S_SAMPLE) {
			if (p->nonl)	/* a cut frame line: dropped */
				return;
			if (!(st->flags & FOLD_PERF_SRCLINE)) {
				uint32_t id = rfind(st, t, m);

				if (id != FOLD_NOID) {
					push_rv(st, st->rv[st->java][id]);
					return;
				}
			}
		}
		if (header(p, t, m, 1))
			return;
	} else {
		t = s;
		m = n;
		if (header(p, t, m, 0))
			return;
	}
	if (st->state == S_SAMPLE) {
		if (st->flags & FOLD_PERF_SRCLINE)
			src_frame(p, t, m, NULL, 0);
		else
			frame_line(p, t, m);
	} else {
		struct frame f;

		if (!parse_frame(t, m, &f))
			unrecognized(p);
	}
}


/* ---- structured samples (the perf.data reader) ----------------------- */

/*
 * A frame as perf script would print it, made into names once: the same
 * frame_names() a parsed frame line goes through, cached by the frame's
 * bytes (and its address where the names depend on it).
 */
/*
 * Name s[0..n) as perf holds it: demangled as perf script demangles (if
 * dm), into st->tmp2; *len its length.
 */
static const char *
perf_name(struct fold_perf_st *st, const char *s, size_t n, int dm,
    size_t *len)
{
	size_t k;

	*len = n;
	if (!dm || n <= 2 || s[0] != '_')
		return s;
	fold_grow(&st->tmp2, &st->tmp2cap, FOLD_DM_MAXOUT + 5, 1);
	if ((k = fold_demangle_perf(s, n, st->tmp2, FOLD_DM_MAXOUT + 4)) == 0)
		return s;
	*len = k;
	return st->tmp2;
}

/* The names of one frame of a structured sample (root first) appended to
 * st->ids2 from index *n. */
static void
frame_add(struct fold_perf *p, const char *sym, size_t slen, const char *mod,
    size_t mlen, const char *abuf, size_t alen, int demangle, int java,
    size_t *n)
{
	struct fold_perf_st *st = p->st;
	struct frame f;
	int unk;
	size_t k;

	memset(&f, 0, sizeof(f));
	f.addr = abuf;
	f.alen = alen;
	f.sym = sym;
	f.slen = slen;
	f.mod = mod;
	f.mlen = mlen;
	f.hasmod = 1;
	f.nooff = 1;
	f.demangle = demangle;
	k = frame_names(p, &f, java, &unk);
	fold_grow(&st->ids2, &st->ids2cap, *n + k, sizeof(*st->ids2));
	memcpy(st->ids2 + *n, st->ids, k * sizeof(*st->ids));
	*n += k;
}

uint32_t
fold_perf_frame_id(struct fold_perf *p, const struct fold_perf_frame *pf,
    int java)
{
	struct fold_perf_st *st = p->st;
	char abuf[24];
	size_t alen, klen, k, i, o, nl;
	int isnew, j = java != 0;
	uint32_t id;
	struct rv v;
	const char *sym = pf->sym != NULL ? pf->sym : "[unknown]";
	size_t slen = pf->sym != NULL ? pf->symlen : 9;
	const char *mod = pf->dso != NULL ? pf->dso : "[unknown]";
	size_t mlen = pf->dso != NULL ? pf->dsolen : 9;
	size_t ninl = pf->sym != NULL ? pf->ninl : 0;
	int withaddr = (st->flags & FOLD_PERF_INLINE) ||
	    ((st->flags & FOLD_PERF_ADDRS) && has(sym, slen, "[unknown]"));

	alen = (size_t)snprintf(abuf, sizeof(abuf), "%llx",
	    (unsigned long long)pf->addr);
	klen = 1 + slen + 1 + mlen + (withaddr ? 1 + alen : 0);
	for (i = 0; i < ninl; i++)
		klen += 1 + strlen(pf->inl[i]);
	fold_grow(&st->fkey, &st->fkeycap, klen, 1);
	st->fkey[0] = (char)(j | (pf->demangle ? 2 : 0) | (ninl ? 4 : 0));
	memcpy(st->fkey + 1, sym, slen);
	st->fkey[1 + slen] = '\0';
	memcpy(st->fkey + 2 + slen, mod, mlen);
	o = 2 + slen + mlen;
	if (withaddr) {
		st->fkey[o] = '\0';
		memcpy(st->fkey + o + 1, abuf, alen);
		o += 1 + alen;
	}
	for (i = 0; i < ninl; i++) {	/* innermost first; never a NUL */
		nl = strlen(pf->inl[i]);
		st->fkey[o] = '\0';
		memcpy(st->fkey + o + 1, pf->inl[i], nl);
		o += 1 + nl;
	}
	id = fold_intern(&st->fkeys, st->fkey, klen, &isnew);
	if (!isnew)
		return id;
	/* names from files may hold any byte: none may end a line here */
	for (k = 1; k < klen; k++)
		if (st->fkey[k] == '\n')
			st->fkey[k] = ' ';
	sym = st->fkey + 1;
	mod = st->fkey + 2 + slen;
	k = 0;
	if (ninl == 0)
		frame_add(p, sym, slen, mod, mlen, abuf, alen, pf->demangle, j,
		    &k);
	else {
		/* perf's append_inlines(): the outermost last, each name
		 * compared with the symbol's as perf holds them */
		const char *pn, *in;
		size_t pl, il;

		pn = perf_name(st, sym, slen, pf->demangle, &pl);
		fold_grow(&st->tmp3, &st->tmp3cap, pl, 1);
		memcpy(st->tmp3, pn, pl);
		for (i = ninl; i-- > 0;) {
			const char *nm = pf->inl[i];

			nl = strlen(nm);
			in = perf_name(st, nm, nl, pf->demangle, &il);
			if (il == pl && memcmp(in, st->tmp3, pl) == 0)
				frame_add(p, sym, slen, mod, mlen, abuf, alen,
				    pf->demangle, j, &k);
			else {
				fold_grow(&st->tmp4, &st->tmp4cap, nl, 1);
				for (o = 0; o < nl; o++)
					st->tmp4[o] = nm[o] == '\n' ? ' ' :
					    nm[o];
				frame_add(p, st->tmp4, nl, "inlined", 7, abuf,
				    alen, pf->demangle, j, &k);
			}
		}
	}
	v.n = (uint32_t)k;
	v.a = 0;
	v.next = FOLD_NOID;
	if (k == 1)
		v.a = st->ids2[0];
	else if (k > 1) {
		fold_grow(&st->pool, &st->poolcap, st->npool + k,
		    sizeof(*st->pool));
		v.a = (uint32_t)st->npool;
		memcpy(st->pool + st->npool, st->ids2, k * sizeof(*st->ids2));
		st->npool += k;
	}
	fold_grow(&st->fv, &st->fvcap, (size_t)id + 1, sizeof(*st->fv));
	st->fv[id] = v;
	return id;
}

uint32_t
fold_perf_root(struct fold_perf *p, const char *comm, size_t commlen,
    const char *pid, const char *tid, int *java)
{
	struct fold_perf_st *st = p->st;
	char c[64];
	size_t i;

	/* a command name is at most 16 bytes in the kernel; one that would
	 * break a line (or be none) cannot come through perf script's text */
	if (commlen > sizeof(c))
		commlen = sizeof(c);
	for (i = 0; i < commlen; i++)
		c[i] = comm[i] == '\n' || comm[i] == '\r' ? ' ' : comm[i];
	if (commlen == 0) {
		memcpy(c, "[unknown]", 9);
		commlen = 9;
	}
	make_root(st, c, commlen, pid, pid != NULL ? strlen(pid) : 0, tid,
	    strlen(tid));
	*java = st->java;
	return st->root;
}

int
fold_perf_want(struct fold_perf *p, const char *event, size_t len)
{
	if (event == NULL)
		return 1;
	return want_event(p->st, event, len);
}

uint32_t
fold_perf_stack(struct fold_perf *p, uint32_t root, const uint32_t *frames,
    size_t n)
{
	struct fold_perf_st *st = p->st;
	size_t i;

	st->state = S_NONE;
	st->nstk = 0;
	st->stopped = 0;
	st->root = root;
	for (i = 0; i < n && !st->stopped; i++)
		push_rv(st, st->fv[frames[i]]);
	return intern_stack(st);
}

uint64_t
fold_perf_counted(struct fold_perf *p)
{
	return p->st->total;
}

uint64_t
fold_perf_weight(struct fold_perf *p, uint64_t period)
{
	return period == 0 || (p->st->flags & FOLD_PERF_SAMPLES) ? 1 : period;
}

void
fold_perf_count(struct fold_perf *p, uint32_t stack, uint64_t weight)
{
	add_count(p, stack, weight);
}

void
fold_perf_sample(struct fold_perf *p, uint32_t root, uint64_t period,
    const uint32_t *frames, size_t n)
{
	add_count(p, fold_perf_stack(p, root, frames, n),
	    fold_perf_weight(p, period));
}

void
fold_perf_eof(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;

	if (st->want_src)
		flush_src(p);
	if (st->state == S_SAMPLE) {
		if (!(st->flags & FOLD_PERF_QUIET))
			fold_warn("%s:%llu: input ended mid-sample", p->file,
			    p->lineno);
		commit(p);
	}
	st->state = S_NONE;
	st->want_src = 0;
}


struct fold_perf *
fold_perf_new(const struct fold_perf_opts *o)
{
	struct fold_perf *p = xcalloc(1, sizeof(*p));
	struct fold_perf_st *st = xcalloc(1, sizeof(*st));

	p->st = st;
	p->file = "<stdin>";
	st->flags = o->flags;
	if (o->event != NULL)
		st->event = xstrdup(o->event);
	if (o->skip_after != NULL) {
		st->skip = o->skip_after;
		st->skiplen = strlen(o->skip_after);
	}
	fold_intern_init(&st->names);
	fold_intern_init(&st->raw[0]);
	fold_intern_init(&st->raw[1]);
	st->prevline = FOLD_NOID;
	fold_intern_init(&st->stacks);
	fold_intern_init(&st->mods);
	fold_intern_init(&st->fkeys);

	return p;
}

void
fold_perf_run(struct fold_perf *p, int nfiles, char **files)
{
	struct fold_in in;
	const char *line;
	size_t len;

	fold_in_init(&in, nfiles, files);
	while (fold_in_line(&in, &line, &len)) {
		if (in.newfile && in.lineno == 1 && p->lineno > 0)
			fold_perf_eof(p);
		p->file = in.name;
		p->lineno = in.lineno;
		p->nonl = in.nonl;
		fold_perf_line(p, line, len);
	}
	fold_perf_eof(p);
	if (in.status)
		p->status = 1;
	fold_in_free(&in);
}

/*
 * One text input on fd (not closed here), whose first n bytes were read
 * already (to look for perf.data's magic): they go first.
 */
void
fold_perf_run_fd(struct fold_perf *p, int fd, const char *name,
    const char *head, size_t n)
{
	static char *dash[] = { "-" };
	struct fold_in in;
	const char *line;
	size_t len;

	if (p->lineno > 0)
		fold_perf_eof(p);
	fold_in_init(&in, 1, dash);
	in.next = 1;
	in.fd = fd;
	in.name = name;
	in.newfile = 1;
	fold_grow(&in.buf, &in.cap, n + 1, 1);
	memcpy(in.buf, head, n);
	in.end = n;
	p->lineno = 0;
	while (fold_in_line(&in, &line, &len)) {
		p->file = in.name;
		p->lineno = in.lineno;
		p->nonl = in.nonl;
		fold_perf_line(p, line, len);
	}
	fold_perf_eof(p);
	if (in.status)
		p->status = 1;
	in.fd = -1;	/* the caller closes it */
	fold_in_free(&in);
}

struct outl {
	size_t off, len;
	uint64_t count;
};

static char *obuf;

static int
outcmp(const void *a, const void *b)
{
	const struct outl *x = a, *y = b;
	struct fold_str sx = { obuf + x->off, x->len }, sy = { obuf + y->off,
	    y->len };

	return fold_strcmp(sx, sy);
}

void
fold_perf_print(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;
	size_t ns = fold_intern_count(&st->stacks), i, j, k, n, nl = 0;
	size_t cap = 0, len = 0;
	struct outl *ol = xmalloc((ns + 1) * sizeof(*ol));
	struct fold_str s, nm;
	uint32_t id;
	uint64_t c;

	/* the lines' length first: their buffer made once, resident at once */
	for (i = 0; i < ns && i < st->countcap; i++) {
		if (st->counts[i] == 0)
			continue;
		s = fold_intern_str(&st->stacks, (uint32_t)i);
		for (k = 0; k < s.len / sizeof(uint32_t); k++) {
			memcpy(&id, s.s + k * sizeof(id), sizeof(id));
			cap += fold_intern_str(&st->names, id).len + 1;
		}
	}
	obuf = xmalloc(cap + 1);
	if (cap >= 16384)
		fold_prefault(obuf, cap);
	for (i = 0; i < ns; i++) {
		if (i >= st->countcap || st->counts[i] == 0)
			continue;	/* only overflowed samples */
		s = fold_intern_str(&st->stacks, (uint32_t)i);
		n = s.len / sizeof(uint32_t);
		ol[nl].off = len;
		for (k = n; k > 0; k--) {
			memcpy(&id, s.s + (k - 1) * sizeof(id), sizeof(id));
			nm = fold_intern_str(&st->names, id);
			fold_grow(&obuf, &cap, len + nm.len + 1, 1);
			memcpy(obuf + len, nm.s, nm.len);
			len += nm.len;
			if (k > 1)
				obuf[len++] = ';';
		}
		ol[nl].len = len - ol[nl].off;
		ol[nl].count = st->counts[i];
		nl++;
	}
	qsort(ol, nl, sizeof(*ol), outcmp);
	for (i = 0; i < nl; i = j) {
		int over = 0;

		c = ol[i].count;
		for (j = i + 1; j < nl && ol[j].len == ol[i].len &&
		    memcmp(obuf + ol[j].off, obuf + ol[i].off, ol[i].len) == 0;
		    j++) {
			if (c > UINT64_MAX - ol[j].count)
				over = 1;
			c += ol[j].count;
		}
		if (over) {
			fold_warn("sum of counts larger than "
			    "18446744073709551615 for one stack; stack skipped");
			p->status = 1;
			continue;
		}
		fo_write(obuf + ol[i].off, ol[i].len);
		fo_putc(' ');
		fo_u64(c);
		fo_putc('\n');
	}
	free(ol);
	free(obuf);
	obuf = NULL;
}

int
fold_perf_end(struct fold_perf *p)
{
	struct fold_perf_st *st = p->st;
	int status = p->status;
	size_t i;

	if (st->unrec > 0 && !(st->flags & FOLD_PERF_QUIET))
		fold_warn("%s:%llu: unrecognized line (%llu unrecognized "
		    "line%s ignored)", st->unrec_file, st->unrec_line,
		    (unsigned long long)st->unrec, st->unrec == 1 ? "" : "s");
	if (st->overflows > 1)
		fold_warn("%llu samples skipped: count too large",
		    (unsigned long long)st->overflows);
	for (i = 0; i < fold_intern_count(&st->mods); i++)
		fold_dwarf_free(st->a2l[i].dw);
	free(st->a2l);
	fold_intern_free(&st->mods);
	fold_intern_free(&st->fkeys);
	free(st->fv);
	free(st->fkey);
	fold_intern_free(&st->names);
	fold_intern_free(&st->raw[0]);
	fold_intern_free(&st->raw[1]);
	free(st->rv[0]);
	free(st->rv[1]);
	fold_intern_free(&st->stacks);
	free(st->skipname);
	free(st->pool);
	free(st->counts);
	free(st->stk);
	free(st->pend);
	free(st->tmp);
	free(st->lasthdr);
	for (i = 0; i < NHCACHE; i++) {
		free(st->hc[i].key);
		free(st->hc[i].tail);
	}
	free(st->ids);
	free(st->ids2);
	free(st->sfile);
	free(st->sline);
	free(st->tmp2);
	free(st->tmp3);
	free(st->tmp4);
	free(st->event);
	free(st->unrec_file);
	free(st);
	free(p);
	return status;
}
