/*
 * dwarf.c - the functions inlined at an address, from an object's DWARF
 * debug information (DWARF 2 to 5), named as GNU addr2line -i -f
 * (binutils 2.40) names them: that is where perf script's inlined frames
 * come from.
 *
 * What is read: .debug_info's unit headers and each unit's first DIE when
 * the reader is made (the units' address ranges); the whole of a unit only
 * when an address falls in it, once.  Of its DIEs, the subprograms, entry
 * points and inlined subroutines (binutils' "funcinfo"): their address
 * ranges and names, each inlined subroutine linked to the function it is
 * nested in.  Strings from .debug_str, .debug_line_str, .debug_str_offsets;
 * addresses from .debug_addr; ranges from .debug_ranges and
 * .debug_rnglists.  Sections compressed with zlib are inflated once.
 *
 * binutils' rules, as observed and as its dwarf2.c states them:
 *  - a function's name is its DW_AT_linkage_name (or MIPS_linkage_name),
 *    else its DW_AT_name, else those of the DIE its DW_AT_abstract_origin
 *    or DW_AT_specification points to (following DW_AT_specification
 *    again from there, in any unit: DW_FORM_ref_addr); not demangled.
 *  - a function's ranges are its low_pc/high_pc (high_pc an address, or
 *    an offset from low_pc when a constant) or its DW_AT_ranges; empty
 *    ranges are dropped and a range that starts where one of the
 *    function's ranges ends (or ends where one starts) extends it.
 *  - the innermost function at an address is the one with the shortest
 *    range holding it, of two as short the later DIE; its callers are
 *    the functions it is nested in, as long as it is an inlined
 *    subroutine (an inlined subroutine's caller is the nearest function
 *    DIE above it).  A name missing is "??".
 *  - units are tried in their order; the first with a function at the
 *    address answers.  Where none has, the name is that of the ELF symbol
 *    (.symtab) binutils' _bfd_elf_find_function() gives: of the
 *    function-like symbols of the first allocated section holding the
 *    address, the nearest at or before it, of several there the one
 *    binutils 2.40 prefers: the first of the largest size (from
 *    .dynsym, without versions, where there is no .symtab); a file
 *    without DWARF is answered so throughout.
 *  - a function named by DW_AT_name alone, in a unit of a language that
 *    mangles names (not C, assembler, ...): the first time it is the
 *    innermost, the name given is that of the ELF symbol (.symtab)
 *    binutils finds for the address, if any; if that symbol starts where
 *    the function's first range does, the function is renamed after it
 *    for good (also as the caller of others), else it keeps its name for
 *    later answers.  So answers depend on the order addresses are asked,
 *    as addr2line's do: ask them in perf's order.
 *  - range lists of DWARF 5 using .debug_addr (DW_RLE_base_addressx,
 *    startx_endx, startx_length, as clang writes them) end there: binutils
 *    2.40 does not read those entries ("x-variants need .debug_addr
 *    support"), and the ranges before them are all it has.  Their base
 *    address is the unit's DW_AT_low_pc as read, an index into
 *    .debug_addr left unresolved (clang's DW_FORM_addrx), as binutils
 *    2.40 takes it.
 *  - source lines (fold_dwarf_srclines()): the row of the unit's line
 *    table (.debug_line, versions 2 to 5) holding the address, binutils'
 *    way: a row at the address of the row before it replaces it,
 *    sequences by start with nested ones dropped and overlapping ones
 *    trimmed, a sequence's rows in address order but its start where
 *    its first row was written, each sequence starting at file 1 (file 0
 *    in DWARF 5); a
 *    caller's line is the call site (DW_AT_call_file, DW_AT_call_line) of
 *    the function inlined in it; files by base name (addr2line -s).
 *
 * All bytes are untrusted: every read is checked against its section; a
 * unit that cannot be read is reported (fold_dwarf_problem()) and gives
 * no functions; nesting, chains and lists are bounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

enum { S_INFO, S_ABBREV, S_STR, S_LINESTR, S_STROFF, S_ADDR, S_RANGES,
	S_RNGLISTS, S_LINE, NSEC };
static const char *const secname[NSEC] = { ".debug_info", ".debug_abbrev",
	".debug_str", ".debug_line_str", ".debug_str_offsets", ".debug_addr",
	".debug_ranges", ".debug_rnglists", ".debug_line" };

/* DW_TAG_*, DW_AT_*, DW_FORM_* used here */
enum { TAG_ENTRY_POINT = 0x03, TAG_INLINED = 0x1d, TAG_SUBPROGRAM = 0x2e };
enum { AT_NAME = 0x03, AT_LOW_PC = 0x11, AT_HIGH_PC = 0x12, AT_LANGUAGE = 0x13,
	AT_ABSTRACT_ORIGIN = 0x31, AT_SPECIFICATION = 0x47, AT_RANGES = 0x55,
	AT_STMT_LIST = 0x10, AT_CALL_FILE = 0x58, AT_CALL_LINE = 0x59,
	AT_LINKAGE_NAME = 0x6e, AT_STR_OFFSETS_BASE = 0x72,
	AT_ADDR_BASE = 0x73, AT_RNGLISTS_BASE = 0x74,
	AT_MIPS_LINKAGE_NAME = 0x2007 };

#define NONE UINT32_MAX
#define MAXDEPTH 4096		/* DIE nesting followed */
#define MAXCHAIN 1025		/* perf reads 1 + 1024 inlined frames */
#define MAXRANGES (1u << 20)	/* entries of one range list */
#define WALKMAX (1u << 16)	/* ranges looked at for one address */
#define MERGEMAX 64		/* ranges of a function joined as binutils
				   joins them; past that, only added */
#define MAXREFS 100		/* DW_AT_specification followed */
#define NOTAB UINT32_MAX	/* a unit's abbreviations not read yet */

struct abbr {
	uint64_t code;
	uint32_t tag, attr;	/* attr: the first of its specs in d->spec */
	uint32_t nattr;
	int kids;
};
struct spec {
	uint32_t at, form;
	int64_t imp;		/* DW_FORM_implicit_const */
};
struct abtab {
	uint64_t off;
	uint32_t first, n;	/* its abbrevs in d->ab, by code */
	int dense;		/* code i at first + i - 1 */
	int bad;
};
struct unit {
	uint64_t off, end, die;	/* header, end, first DIE (.debug_info) */
	uint64_t strbase, addrbase, rngbase, base;
	uint64_t abo;		/* its abbreviations (.debug_abbrev) */
	uint32_t tab;		/* ... read, in d->tab, or NOTAB: not yet */
	unsigned ver, asz, osz;
	int plain;		/* a language whose names are not mangled */
	int parsed;		/* 0 not yet, 1 done, -1 could not */
	int ranged;		/* its first DIE gave ranges */
	size_t r0, r1;		/* its function ranges in d->fr, by start */
	uint64_t stmt;		/* its line table (.debug_line), or NONE64 */
	int lparsed;		/* the line table read: 1, or -1 */
	size_t q0, q1;		/* its sequences in d->seq, by start */
	size_t f0, nf;		/* its file names in d->lf */
	unsigned fbase;		/* the first file's number: 1, 0 in DWARF 5 */
};
struct lrow {			/* a row of a line table */
	uint64_t addr;
	uint32_t file, line;
};
struct lseq {			/* a sequence: rows [r0, r1), by address, the
				   last the end */
	uint64_t lo, hi;
	size_t r0, r1;
	size_t order;
};
struct func {
	const char *name;
	uint64_t low;		/* where its first range starts */
	uint32_t caller;	/* a function DIE above an inlined one */
	uint32_t unit;
	uint32_t cfile, cline;	/* DW_AT_call_file, DW_AT_call_line */
	uint8_t inlined, linkage;	/* linkage: no renaming */
};
struct esym {			/* a function-like ELF symbol */
	uint64_t value, size;
	uint32_t shndx, order;
	const char *name;
	const char *file;	/* its STT_FILE, as bfd gives it */
	uint8_t func, notype;
};
struct frange {
	uint64_t lo, hi;
	uint32_t fn;
};
struct urange {
	uint64_t lo, hi;
	uint32_t unit;
};
struct hent {			/* addr -> its answer, in d->pool */
	uint64_t addr;
	uint32_t at, n;		/* n + 1: 0 is an empty slot */
};

struct fold_dwarf {
	const unsigned char *s[NSEC];
	uint64_t n[NSEC];
	unsigned char *own[NSEC];	/* inflated sections */
	uint64_t strend[NSEC];	/* string sections: just past the last NUL */
	uint64_t rleft;		/* range list entries left to read */
	int linesread;		/* .debug_line looked for */
	int be;
	const char *problem;
	struct abtab *tab;
	size_t ntab, tabcap;
	uint64_t dropped;	/* the table drop_tab() gave back last */
	struct abbr *ab;
	size_t nab, abcap;
	struct spec *spec;
	size_t nspec, speccap;
	struct unit *u;
	size_t nu, ucap;
	struct urange *ur;	/* units' ranges, by start; urmax: prefix max */
	uint64_t *urmax;
	size_t nur, urcap;
	uint32_t *norange;	/* units without ranges, in order */
	size_t nnr, nrcap;
	struct func *fn;
	size_t nfn, fncap;
	struct frange *fr;
	uint64_t *frmax;	/* per unit slice: prefix max of hi */
	size_t nfr, frcap, frmaxcap;
	struct frange *tmp;	/* one function's ranges while read */
	size_t ntmp, tmpcap;
	uint32_t nest[MAXDEPTH];
	struct hent *h;
	size_t hmask, hn;
	const char **pool;
	uint32_t *pfn;		/* the function of each name (NONE: an ELF
				   symbol's), beside d->pool */
	size_t npool, poolcap, pfncap;
	struct fb {		/* an ELF symbol answer's source line */
		uint64_t addr;
		const char *file;
		uint32_t line;
	} *fb;
	size_t nfb, fbcap;
	struct lrow *lr;	/* line tables read */
	size_t nlr, lrcap;
	struct lseq *seq;
	size_t nseq, seqcap;
	const char **lf;	/* file base names */
	size_t nlf, lfcap;
	uint32_t *cand;
	size_t candcap;
	const struct fold_elf *elf;
	struct fold_elf *own_elf[2];	/* fold_dwarf_open()'s files */
	struct esym *sym;	/* by section, value, order; read when first
				   needed (symread) */
	size_t nsym, symcap;
	int symread;
};

/* ---- reading ---------------------------------------------------------- */

/* The first thing found wrong, kept for fold_dwarf_problem(). */
static void
problem(struct fold_dwarf *d, const char *why)
{
	if (d->problem == NULL)
		d->problem = why;
}

struct cur {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t
rd(struct cur *c, const struct fold_dwarf *d, unsigned n)
{
	uint64_t v;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		return 0;
	}
	v = fold_getu(c->p, (int)n, d->be);
	c->p += n;
	return v;
}

static uint64_t
uleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned sh = 0;

	while (!c->bad) {
		unsigned char b;

		if (c->p >= c->end) {
			c->bad = 1;
			break;
		}
		b = *c->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
		if (!(b & 0x80))
			return v;
		if (sh > 70) {		/* a varint longer than 10 bytes */
			c->bad = 1;
			break;
		}
	}
	return 0;
}

static void
skip(struct cur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n)
		c->bad = 1;
	else
		c->p += n;
}

/* A string of a string section: its last NUL (d->strend) ends them all. */
static const char *
str_at(const struct fold_dwarf *d, int sec, uint64_t off)
{
	if (d->s[sec] == NULL || off >= d->strend[sec])
		return NULL;
	return (const char *)d->s[sec] + off;
}

/* The n-byte entry i of a table at base in section sec, or 0 (*ok 0). */
static uint64_t
table(const struct fold_dwarf *d, int sec, uint64_t base, uint64_t i,
    unsigned n, int *ok)
{
	struct cur c;
	uint64_t v;

	*ok = 0;
	if (d->s[sec] == NULL || base > d->n[sec] || i > d->n[sec] / n ||
	    i * n > d->n[sec] - base)
		return 0;
	c.p = d->s[sec] + base + i * n;
	c.end = d->s[sec] + d->n[sec];
	c.bad = 0;
	v = rd(&c, d, n);
	*ok = !c.bad;
	return v;
}

/* ---- forms ------------------------------------------------------------ */

/* What an attribute's value is. */
enum { V_NONE, V_CONST, V_ADDR, V_REF, V_STR, V_SECOFF, V_STRX, V_ADDRX,
	V_RNGX };
struct val {
	int kind;
	uint64_t v;
	const char *str;
};

/*
 * Read one value of form at c (u's sizes).  References become offsets in
 * .debug_info; indexed strings and addresses are left as indexes (V_STRX,
 * V_ADDRX) for resolve().  0 on a form it does not know or bytes missing.
 */
static int
form(struct fold_dwarf *d, const struct unit *u, struct cur *c, uint32_t f,
    int64_t imp, struct val *v)
{
	int depth;

	v->kind = V_NONE;
	v->str = NULL;
	v->v = 0;
	for (depth = 0; depth < 4; depth++) {
		switch (f) {
		case 0x01: v->kind = V_ADDR; v->v = rd(c, d, u->asz); break;
		case 0x03: skip(c, rd(c, d, 2)); break;
		case 0x04: skip(c, rd(c, d, 4)); break;
		case 0x05: v->kind = V_CONST; v->v = rd(c, d, 2); break;
		case 0x06: v->kind = V_CONST; v->v = rd(c, d, 4); break;
		case 0x07: v->kind = V_CONST; v->v = rd(c, d, 8); break;
		case 0x08: {
			const unsigned char *z = c->bad ? NULL :
			    memchr(c->p, 0, (size_t)(c->end - c->p));

			if (z == NULL) {
				c->bad = 1;
				break;
			}
			v->kind = V_STR;
			v->str = (const char *)c->p;
			c->p = z + 1;
			break;
		}
		case 0x09: case 0x18: skip(c, uleb(c)); break;
		case 0x0a: skip(c, rd(c, d, 1)); break;
		case 0x0b: v->kind = V_CONST; v->v = rd(c, d, 1); break;
		case 0x0c: v->kind = V_CONST; v->v = rd(c, d, 1); break;
		case 0x0d: v->kind = V_CONST; v->v = uleb(c); break;	/* sdata */
		case 0x0e:
			v->kind = V_STR;
			v->str = str_at(d, S_STR, rd(c, d, u->osz));
			break;
		case 0x0f: v->kind = V_CONST; v->v = uleb(c); break;
		case 0x10:
			v->kind = V_REF;
			v->v = rd(c, d, u->ver <= 2 ? u->asz : u->osz);
			break;
		case 0x11: v->kind = V_REF; v->v = u->off + rd(c, d, 1); break;
		case 0x12: v->kind = V_REF; v->v = u->off + rd(c, d, 2); break;
		case 0x13: v->kind = V_REF; v->v = u->off + rd(c, d, 4); break;
		case 0x14: v->kind = V_REF; v->v = u->off + rd(c, d, 8); break;
		case 0x15: v->kind = V_REF; v->v = u->off + uleb(c); break;
		case 0x16:	/* indirect */
			f = (uint32_t)uleb(c);
			if (c->bad)
				return 0;
			continue;
		case 0x17: v->kind = V_SECOFF; v->v = rd(c, d, u->osz); break;
		case 0x19: break;				/* flag_present */
		case 0x1a: case 0x1f02:				/* strx */
			v->kind = V_STRX; v->v = uleb(c); break;
		case 0x1b: case 0x1f01:				/* addrx */
			v->kind = V_ADDRX; v->v = uleb(c); break;
		case 0x1c: skip(c, 4); break;			/* ref_sup4 */
		case 0x1d: case 0x1f20: case 0x1f21:	/* strp_sup, GNU alt */
			skip(c, u->osz); break;
		case 0x1e: skip(c, 16); break;
		case 0x1f:
			v->kind = V_STR;
			v->str = str_at(d, S_LINESTR, rd(c, d, u->osz));
			break;
		case 0x20: skip(c, 8); break;			/* ref_sig8 */
		case 0x21: v->kind = V_CONST; v->v = (uint64_t)imp; break;
		case 0x22: uleb(c); break;			/* loclistx */
		case 0x23: v->kind = V_RNGX; v->v = uleb(c); break;
		case 0x24: skip(c, 8); break;			/* ref_sup8 */
		case 0x25: v->kind = V_STRX; v->v = rd(c, d, 1); break;
		case 0x26: v->kind = V_STRX; v->v = rd(c, d, 2); break;
		case 0x27: v->kind = V_STRX; v->v = rd(c, d, 3); break;
		case 0x28: v->kind = V_STRX; v->v = rd(c, d, 4); break;
		case 0x29: v->kind = V_ADDRX; v->v = rd(c, d, 1); break;
		case 0x2a: v->kind = V_ADDRX; v->v = rd(c, d, 2); break;
		case 0x2b: v->kind = V_ADDRX; v->v = rd(c, d, 3); break;
		case 0x2c: v->kind = V_ADDRX; v->v = rd(c, d, 4); break;
		default:
			c->bad = 1;
			return 0;
		}
		return !c->bad;
	}
	c->bad = 1;
	return 0;
}

/* Indexed strings and addresses through u's bases (V_NONE if not found). */
static void
resolve(const struct fold_dwarf *d, const struct unit *u, struct val *v)
{
	int ok;
	uint64_t x;

	if (v->kind == V_STRX) {
		x = table(d, S_STROFF, u->strbase, v->v, u->osz, &ok);
		v->kind = V_STR;
		v->str = ok ? str_at(d, S_STR, x) : NULL;
	} else if (v->kind == V_ADDRX) {
		x = table(d, S_ADDR, u->addrbase, v->v, u->asz, &ok);
		v->kind = ok ? V_ADDR : V_NONE;
		v->v = x;
	}
}

/* ---- abbreviations ---------------------------------------------------- */

static int
abcmp(const void *a, const void *b)
{
	const struct abbr *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}

/* The table of abbreviations at off, read once. */
static uint32_t
abtab_at(struct fold_dwarf *d, uint64_t off)
{
	struct abtab *t;
	struct cur c;
	size_t i;

	for (i = 0; i < d->ntab; i++)	/* units seldom share tables */
		if (d->tab[d->ntab - 1 - i].off == off)
			return (uint32_t)(d->ntab - 1 - i);
		else if (i >= 8)
			break;
	fold_grow(&d->tab, &d->tabcap, d->ntab + 1, sizeof(*d->tab));
	t = &d->tab[d->ntab];
	memset(t, 0, sizeof(*t));
	t->off = off;
	t->first = (uint32_t)d->nab;
	if (d->s[S_ABBREV] == NULL || off >= d->n[S_ABBREV]) {
		t->bad = 1;
		return (uint32_t)d->ntab++;
	}
	c.p = d->s[S_ABBREV] + off;
	c.end = d->s[S_ABBREV] + d->n[S_ABBREV];
	c.bad = 0;
	for (;;) {
		struct abbr a;

		a.code = uleb(&c);
		if (c.bad || a.code == 0)
			break;
		a.tag = (uint32_t)uleb(&c);
		a.kids = c.p < c.end && *c.p != 0;
		skip(&c, 1);
		a.attr = (uint32_t)d->nspec;
		a.nattr = 0;
		for (;;) {
			struct spec s;

			s.at = (uint32_t)uleb(&c);
			s.form = (uint32_t)uleb(&c);
			s.imp = 0;
			if (s.form == 0x21)
				s.imp = (int64_t)uleb(&c);
			if (c.bad || (s.at == 0 && s.form == 0))
				break;
			fold_grow(&d->spec, &d->speccap, d->nspec + 1,
			    sizeof(*d->spec));
			d->spec[d->nspec++] = s;
			a.nattr++;
		}
		if (c.bad)
			break;
		fold_grow(&d->ab, &d->abcap, d->nab + 1, sizeof(*d->ab));
		d->ab[d->nab++] = a;
	}
	t = &d->tab[d->ntab];
	t->n = (uint32_t)(d->nab - t->first);
	t->bad = c.bad;
	t->dense = 1;
	for (i = 0; i < t->n; i++)
		if (d->ab[t->first + i].code != i + 1)
			t->dense = 0;
	if (!t->dense)
		qsort(d->ab + t->first, t->n, sizeof(*d->ab), abcmp);
	return (uint32_t)d->ntab++;
}

/*
 * Unit u's table, read by units() for its first DIE (the last in d->tab,
 * at d->ab[nab...], d->spec[nspec...]), given back: read again if a
 * sample is in the unit.  Kept when the unit before had it too: a table
 * all units share (dwz, Go) is read once.
 */
static void
drop_tab(struct fold_dwarf *d, struct unit *u, size_t nab, size_t nspec,
    size_t ntab)
{
	if (u->tab != ntab || d->ntab != ntab + 1 || u->abo == d->dropped)
		return;
	d->dropped = u->abo;
	d->nab = nab;
	d->nspec = nspec;
	d->ntab = ntab;
	u->tab = NOTAB;
}

/* Unit u's abbreviations, read now if they were not: 0 if damaged. */
static int
unit_tab(struct fold_dwarf *d, struct unit *u)
{
	if (u->tab == NOTAB)
		u->tab = abtab_at(d, u->abo);
	return !d->tab[u->tab].bad;
}

static const struct abbr *
abbr_of(const struct fold_dwarf *d, const struct unit *u, uint64_t code)
{
	const struct abtab *t = &d->tab[u->tab];
	size_t lo = 0, hi = t->n;

	if (t->dense)
		return code >= 1 && code <= t->n ? &d->ab[t->first + code - 1] :
		    NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct abbr *a = &d->ab[t->first + mid];

		if (a->code == code)
			return a;
		if (a->code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- ranges ----------------------------------------------------------- */

/* Add [lo, hi) to the ranges of the function being read, as binutils'
 * arange_add(): empty ones dropped, adjacent ones joined. */
static void
arange(struct fold_dwarf *d, uint64_t lo, uint64_t hi)
{
	size_t i;

	if (lo == hi)
		return;
	if (d->ntmp == 0) {
		fold_grow(&d->tmp, &d->tmpcap, 1, sizeof(*d->tmp));
		d->tmp[0].lo = lo;
		d->tmp[0].hi = hi;
		d->ntmp = 1;
		return;
	}
	/* binutils' list: the first, then the others newest first (past
	 * MERGEMAX ranges, which no compiler writes for a function, they
	 * are only added: the joining is quadratic) */
	for (i = 0; i < d->ntmp && d->ntmp < MERGEMAX; i++) {
		struct frange *r = &d->tmp[i == 0 ? 0 : d->ntmp - i];

		if (lo == r->hi) {
			r->hi = hi;
			return;
		}
		if (hi == r->lo) {
			r->lo = lo;
			return;
		}
	}
	fold_grow(&d->tmp, &d->tmpcap, d->ntmp + 1, sizeof(*d->tmp));
	d->tmp[d->ntmp].lo = lo;
	d->tmp[d->ntmp].hi = hi;
	d->ntmp++;
}

/* The range list of v (DW_AT_ranges) into arange(); 0 if it is damaged. */
static int ranges1(struct fold_dwarf *d, const struct unit *u,
    const struct val *v);

static int
ranges(struct fold_dwarf *d, const struct unit *u, const struct val *v)
{
	if (d->rleft == 0) {	/* lists read over and over: hostile */
		problem(d, "range lists read too often: the rest left out");
		return 1;
	}
	return ranges1(d, u, v);
}

/* The entries of a range list, within the budget d->rleft (a list is read
 * once per DIE that names it: the total is bounded by a few times the
 * sections' size, whatever a damaged file's DIEs point at). */
static int
ranges1(struct fold_dwarf *d, const struct unit *u, const struct val *v)
{
	uint64_t off = v->v, base = u->base, lo = 0, hi = 0, n, maxa;
	struct cur c;
	int ok = 1;

	if (u->ver < 5) {
		if (v->kind != V_SECOFF && v->kind != V_CONST)
			return 0;
		if (d->s[S_RANGES] == NULL || off >= d->n[S_RANGES])
			return 0;
		c.p = d->s[S_RANGES] + off;
		c.end = d->s[S_RANGES] + d->n[S_RANGES];
		c.bad = 0;
		maxa = u->asz == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * u->asz)) - 1;
		for (n = 0; n < MAXRANGES && d->rleft > 0; n++, d->rleft--) {
			lo = rd(&c, d, u->asz);
			hi = rd(&c, d, u->asz);
			if (c.bad)
				return 0;
			if (lo == 0 && hi == 0)
				return 1;
			if (lo == maxa && hi != maxa)
				base = hi;
			else
				arange(d, base + lo, base + hi);
		}
		return 0;
	}
	if (v->kind == V_RNGX) {
		off = table(d, S_RNGLISTS, u->rngbase, v->v, u->osz, &ok);
		if (!ok)
			return 0;
		off += u->rngbase;
	} else if (v->kind != V_SECOFF && v->kind != V_CONST)
		return 0;
	if (d->s[S_RNGLISTS] == NULL || off >= d->n[S_RNGLISTS])
		return 0;
	c.p = d->s[S_RNGLISTS] + off;
	c.end = d->s[S_RNGLISTS] + d->n[S_RNGLISTS];
	c.bad = 0;
	for (n = 0; n < MAXRANGES && !c.bad && d->rleft > 0; n++,
	    d->rleft--) {
		int kind = (int)rd(&c, d, 1);

		switch (kind) {
		case 0:			/* end_of_list */
			return !c.bad;
		case 1:			/* base_addressx */
		case 2:			/* startx_endx */
		case 3:			/* startx_length */
			return 1;	/* as binutils 2.40: see above */
		case 4:			/* offset_pair */
			lo = uleb(&c);
			hi = uleb(&c);
			arange(d, base + lo, base + hi);
			break;
		case 5:			/* base_address */
			base = rd(&c, d, u->asz);
			break;
		case 6:			/* start_end */
			lo = rd(&c, d, u->asz);
			hi = rd(&c, d, u->asz);
			arange(d, lo, hi);
			break;
		case 7:			/* start_length */
			lo = rd(&c, d, u->asz);
			hi = lo + uleb(&c);
			arange(d, lo, hi);
			break;
		default:
			return 0;
		}
		if (!ok)
			return 0;
	}
	return 0;
}

/* ---- line tables (for source lines: fold_dwarf_srclines()) ------------ */


static int64_t
sleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned sh = 0;
	unsigned char b = 0;

	do {
		if (c->bad || c->p >= c->end || sh > 63) {
			c->bad = 1;
			return 0;
		}
		b = *c->p++;
		v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	} while (b & 0x80);
	if (sh < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << sh;
	return (int64_t)v;
}

/* A file name's base name, as addr2line -s prints it. */
static const char *
base(const char *f)
{
	const char *b = f != NULL ? strrchr(f, '/') : NULL;

	return b != NULL ? b + 1 : f;
}

static void
addfile(struct fold_dwarf *d, const char *name)
{
	fold_grow(&d->lf, &d->lfcap, d->nlf + 1, sizeof(*d->lf));
	d->lf[d->nlf++] = base(name);
}

/* DWARF 5's directory and file tables: the file paths (DW_LNCT_path) into
 * d->lf; 0 when they cannot be read. */
static int
entries(struct fold_dwarf *d, struct cur *c, const struct unit *lu, int files)
{
	uint32_t fmt[2 * 16];
	unsigned nfmt, i, k;
	uint64_t n, j;

	nfmt = (unsigned)rd(c, d, 1);
	if (nfmt > 16)
		return 0;
	for (i = 0; i < 2 * nfmt; i++)
		fmt[i] = (uint32_t)uleb(c);
	n = uleb(c);
	if (c->bad || n > (uint64_t)(c->end - c->p))
		return 0;
	for (j = 0; j < n; j++) {
		const char *path = NULL;

		for (k = 0; k < nfmt; k++) {
			struct val v;

			if (!form(d, lu, c, fmt[2 * k + 1], 0, &v))
				return 0;
			resolve(d, lu, &v);
			if (fmt[2 * k] == 1 && v.kind == V_STR)	/* path */
				path = v.str;
		}
		if (files)
			addfile(d, path);
	}
	return !c->bad;
}

/* Rows a[0..n) in address order, stable (binutils' add_line_info() keeps
 * a sequence sorted as rows come): a merge sort through tmp (n rows). */
static void
rowsort(struct lrow *a, struct lrow *tmp, size_t n)
{
	size_t w, i, l, m, r, k;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			l = i;
			m = i + w < n ? i + w : n;
			r = i + 2 * w < n ? i + 2 * w : n;
			for (k = i; k < r; k++)
				tmp[k] = l < m && (m >= r ||
				    a[l].addr <= a[m].addr) ? a[l++] : a[m++];
		}
		memcpy(a, tmp, n * sizeof(*a));
	}
}

/*
 * A sequence ended: its rows put in address order (the end row last), as
 * binutils keeps them, its start the first row's address as written (a
 * lower one written later does not move it: binutils finds no row there).
 */
static void
endseq(struct fold_dwarf *d, size_t r0, size_t order)
{
	struct lseq q;
	size_t i, n = d->nlr - r0;

	if (n < 2)		/* the end alone: no address in it */
		return;
	q.lo = d->lr[r0].addr;
	for (i = r0 + 1; i + 1 < d->nlr; i++)
		if (d->lr[i].addr < d->lr[i - 1].addr)
			break;
	if (i + 1 < d->nlr) {
		struct lrow *tmp = xmalloc((n - 1) * sizeof(*tmp));

		rowsort(d->lr + r0, tmp, n - 1);
		free(tmp);
	}
	q.r0 = r0;
	q.r1 = d->nlr;
	q.hi = d->lr[d->nlr - 1].addr;
	q.order = order;
	fold_grow(&d->seq, &d->seqcap, d->nseq + 1, sizeof(*d->seq));
	d->seq[d->nseq++] = q;
}

/* Add a row as binutils' add_line_info(): one at the address of the row
 * before it (and as much the end or not) takes its place. */
static void
row(struct fold_dwarf *d, size_t r0, uint64_t addr, uint32_t file,
    uint32_t line, int end, int *lastend)
{
	if (d->nlr > r0 && d->lr[d->nlr - 1].addr == addr && *lastend == end)
		d->nlr--;
	fold_grow(&d->lr, &d->lrcap, d->nlr + 1, sizeof(*d->lr));
	d->lr[d->nlr].addr = addr;
	d->lr[d->nlr].file = file;
	d->lr[d->nlr].line = line;
	d->nlr++;
	*lastend = end;
}

static int
seqcmp(const void *a, const void *b)
{
	const struct lseq *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;	/* the longer first */
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Read u's line table (once): files and sequences of rows. */
static void
lines(struct fold_dwarf *d, struct unit *u)
{
	struct cur c;
	struct unit lu;
	uint64_t len, hlen, addr = 0, n = 0;
	unsigned ver, minlen, range, opbase, i;
	int lbase, lastend = 0;
	unsigned char oplen[256];
	const unsigned char *prog;
	uint32_t file = 1, line = 1;
	size_t r0, k, kept, order = 0;

	u->lparsed = -1;
	u->q0 = u->q1 = d->nseq;
	u->f0 = d->nlf;
	u->nf = 0;
	if (!d->linesread) {	/* .debug_line, inflated if need be, once */
		struct fold_elf_sec sec;
		const char *w;

		d->linesread = 1;
		if (fold_elf_section_plain(d->elf, secname[S_LINE], &sec,
		    &d->own[S_LINE], &w) != NULL) {
			d->s[S_LINE] = sec.p;
			d->n[S_LINE] = sec.size;
		} else if (w != NULL)
			problem(d, w);
	}
	if (d->s[S_LINE] == NULL || u->stmt >= d->n[S_LINE])
		return;
	c.p = d->s[S_LINE] + u->stmt;
	c.end = d->s[S_LINE] + d->n[S_LINE];
	c.bad = 0;
	lu = *u;
	lu.osz = 4;
	if ((len = rd(&c, d, 4)) == 0xffffffff) {
		len = rd(&c, d, 8);
		lu.osz = 8;
	}
	if (c.bad || len > (uint64_t)(c.end - c.p))
		goto bad;
	c.end = c.p + len;
	ver = (unsigned)rd(&c, d, 2);
	if (ver < 2 || ver > 5)
		goto bad;
	lu.ver = ver;
	if (ver >= 5) {
		lu.asz = (unsigned)rd(&c, d, 1);
		skip(&c, 1);		/* segment selector size */
	}
	hlen = rd(&c, d, lu.osz);
	if (c.bad || hlen > (uint64_t)(c.end - c.p))
		goto bad;
	prog = c.p + hlen;
	minlen = (unsigned)rd(&c, d, 1);
	if (ver >= 4)
		skip(&c, 1);		/* maximum operations per instruction */
	skip(&c, 1);			/* default_is_stmt */
	lbase = (int)(int8_t)rd(&c, d, 1);
	range = (unsigned)rd(&c, d, 1);
	opbase = (unsigned)rd(&c, d, 1);
	if (c.bad || range == 0 || opbase == 0)
		goto bad;
	for (i = 1; i < opbase; i++)
		oplen[i] = (unsigned char)rd(&c, d, 1);
	if (ver >= 5) {
		u->fbase = 0;
		if (!entries(d, &c, &lu, 0) || !entries(d, &c, &lu, 1))
			goto bad;
	} else {
		u->fbase = 1;
		while (!c.bad && c.p < c.end && *c.p != 0)	/* directories */
			c.p = (const unsigned char *)memchr(c.p, 0,
			    (size_t)(c.end - c.p)) + 1;
		skip(&c, 1);
		while (!c.bad && c.p < c.end && *c.p != 0) {	/* files */
			const char *f = (const char *)c.p;

			if (memchr(c.p, 0, (size_t)(c.end - c.p)) == NULL)
				goto bad;
			c.p += strlen(f) + 1;
			uleb(&c);
			uleb(&c);
			uleb(&c);
			addfile(d, f);
		}
	}
	u->nf = d->nlf - u->f0;
	if (c.bad || prog > c.end)
		goto bad;
	c.p = prog;
	r0 = d->nlr;
	/* binutils starts each sequence at file 0 in DWARF 5 (not 1, which
	 * may name another file) */
	file = u->fbase;
	while (c.p < c.end && !c.bad && n++ < (UINT64_C(1) << 26)) {
		unsigned op = *c.p++;

		if (op >= opbase) {		/* special */
			unsigned adj = op - opbase;

			addr += (uint64_t)(adj / range) * minlen;
			line += (uint32_t)(lbase + (int)(adj % range));
			row(d, r0, addr, file, line, 0, &lastend);
			continue;
		}
		switch (op) {
		case 0: {			/* extended */
			uint64_t el = uleb(&c);
			const unsigned char *next;
			unsigned sub;

			if (c.bad || el == 0 || el > (uint64_t)(c.end - c.p))
				goto bad;
			next = c.p + el;
			sub = *c.p++;
			if (sub == 1) {		/* end_sequence */
				row(d, r0, addr, file, line, 1, &lastend);
				endseq(d, r0, order++);
				r0 = d->nlr;
				addr = 0;
				file = u->fbase;
				line = 1;
				lastend = 0;
			} else if (sub == 2)	/* set_address */
				addr = rd(&c, d, (unsigned)(el - 1) > 8 ? 8 :
				    (unsigned)(el - 1));
			else if (sub == 3 && ver < 5) {	/* define_file */
				const char *f = (const char *)c.p;

				if (memchr(c.p, 0, (size_t)(next - c.p)) != NULL &&
				    (size_t)(d->nlf - u->f0) == u->nf) {
					addfile(d, f);
					u->nf++;
				}
			}
			c.p = next;
			break;
		}
		case 1:				/* copy */
			row(d, r0, addr, file, line, 0, &lastend);
			break;
		case 2:
			addr += uleb(&c) * minlen;
			break;
		case 3:
			line += (uint32_t)sleb(&c);
			break;
		case 4:
			file = (uint32_t)uleb(&c);
			break;
		case 5: case 12:
			uleb(&c);
			break;
		case 6: case 7: case 10: case 11:
			break;
		case 8:
			addr += (uint64_t)((255 - opbase) / range) * minlen;
			break;
		case 9:
			addr += rd(&c, d, 2);
			break;
		default:			/* unknown: its operands */
			for (i = 0; i < oplen[op]; i++)
				uleb(&c);
			break;
		}
	}
	d->nlr = r0;		/* a sequence not ended is dropped */
	/* binutils' sort_line_sequences(): by start, nested ones dropped,
	 * overlapping ones trimmed */
	if (d->nseq > u->q0 + 1)
		qsort(d->seq + u->q0, d->nseq - u->q0, sizeof(*d->seq),
		    seqcmp);
	for (k = u->q0, kept = u->q0; k < d->nseq; k++) {
		if (kept > u->q0 && d->seq[k].lo < d->seq[kept - 1].hi) {
			if (d->seq[k].hi <= d->seq[kept - 1].hi)
				continue;
			d->seq[k].lo = d->seq[kept - 1].hi;
		}
		d->seq[kept++] = d->seq[k];
	}
	d->nseq = kept;
	u->q1 = d->nseq;
	u->lparsed = 1;
	return;
bad:
	problem(d, "a line table cut short or damaged");
	u->q1 = d->nseq;
	u->nf = d->nlf - u->f0;
	u->lparsed = 1;
}

/* The file name (base name) of file number f of u's table; "<unknown>"
 * for a number outside it, as binutils' concat_filename(). */
static const char *
ufile(struct fold_dwarf *d, struct unit *u, uint32_t f)
{
	const char *n;

	if (u->lparsed == 0)
		lines(d, u);
	if (f < u->fbase || f - u->fbase >= u->nf)
		return "<unknown>";
	n = d->lf[u->f0 + f - u->fbase];
	return n != NULL ? n : "<unknown>";
}

/* The row of u's line table holding addr: 1 and its file and line. */
static int
lookup_line(struct fold_dwarf *d, struct unit *u, uint64_t addr,
    const char **file, uint32_t *line)
{
	size_t lo, hi, mid = 0;
	const struct lseq *q = NULL;
	const struct lrow *r;

	if (u->lparsed == 0)
		lines(d, u);
	lo = u->q0;
	hi = u->q1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		q = &d->seq[mid];
		if (addr < q->lo)
			hi = mid;
		else if (addr >= q->hi)
			lo = mid + 1;
		else
			break;
	}
	if (q == NULL || addr < q->lo || addr >= q->hi)
		return 0;
	r = d->lr + q->r0;
	lo = 0;
	hi = q->r1 - q->r0 - 1;		/* the end row is no answer */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr < r[mid].addr)
			hi = mid;
		else if (addr >= r[mid + 1].addr)
			lo = mid + 1;
		else
			break;
	}
	if (lo >= hi || addr < r[mid].addr || addr >= r[mid + 1].addr)
		return 0;
	*file = ufile(d, u, r[mid].file);
	*line = r[mid].line;
	return 1;
}

/* ---- units ------------------------------------------------------------ */

/* 1 for the languages binutils does not demangle (mangle_style() 0): a
 * DW_AT_name of theirs is as good as a linkage name. */
static int
plain(uint64_t lang)
{
	switch (lang) {
	case 0x01: case 0x02: case 0x05: case 0x06: case 0x07: case 0x09:
	case 0x0c: case 0x0f: case 0x12: case 0x1d: case 0x2c:
	case 0x8001:
		return 1;
	}
	return 0;
}

static struct unit *
unit_of(struct fold_dwarf *d, uint64_t off)
{
	size_t lo = 0, hi = d->nu;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (off < d->u[mid].off)
			hi = mid;
		else if (off >= d->u[mid].end)
			lo = mid + 1;
		else
			return &d->u[mid];
	}
	return NULL;
}

/*
 * The name of the DIE at off (a DW_AT_abstract_origin or
 * DW_AT_specification), into *name as binutils' find_abstract_instance():
 * its DW_AT_name when *name is still unset, its linkage name in any case,
 * and the same again through its own DW_AT_specification.
 */
static void
origin(struct fold_dwarf *d, uint64_t off, const char **name, uint8_t *linkage,
    int depth)
{
	struct unit *u = unit_of(d, off);
	const struct abbr *ap;
	struct abbr a;		/* a copy: origin() below may read another
				   unit's table, moving d->ab */
	struct cur c;
	uint32_t i;

	if (u == NULL || off < u->die || depth >= MAXREFS ||
	    !unit_tab(d, u)) {
		problem(d, "a reference to no DIE");
		return;
	}
	c.p = d->s[S_INFO] + off;
	c.end = d->s[S_INFO] + u->end;
	c.bad = 0;
	if ((ap = abbr_of(d, u, uleb(&c))) == NULL)
		return;
	a = *ap;
	for (i = 0; i < a.nattr && !c.bad; i++) {
		const struct spec *s = &d->spec[a.attr + i];
		struct val v;

		if (!form(d, u, &c, s->form, s->imp, &v))
			break;
		resolve(d, u, &v);
		switch (s->at) {
		case AT_NAME:
			if (*name == NULL && v.kind == V_STR) {
				*name = v.str;
				if (u->plain)
					*linkage = 1;
			}
			break;
		case AT_LINKAGE_NAME:
		case AT_MIPS_LINKAGE_NAME:
			if (v.kind == V_STR) {
				*name = v.str;
				*linkage = 1;
			}
			break;
		case AT_SPECIFICATION:
			if (v.kind == V_REF)
				origin(d, v.v, name, linkage, depth + 1);
			break;
		}
	}
}

static int
frcmp(const void *a, const void *b)
{
	const struct frange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Read the functions of unit u (once). */
static void
parse(struct fold_dwarf *d, struct unit *u)
{
	struct cur c;
	size_t depth = 0, i;
	int ok = 1;

	u->parsed = -1;
	u->r0 = u->r1 = d->nfr;
	if (!unit_tab(d, u)) {
		problem(d, "abbreviations cut short or damaged");
		return;
	}
	c.p = d->s[S_INFO] + u->die;
	c.end = d->s[S_INFO] + u->end;
	c.bad = 0;
	while (c.p < c.end && !c.bad) {
		uint64_t code = uleb(&c), lo = 0, hi = 0;
		const struct abbr *ap;
		struct abbr a;	/* a copy: origin() may read another unit's
				   table, moving d->ab */
		int isfn, haslo = 0, hashi = 0, hirel = 0, hasrng = 0;
		struct val rng;
		struct func f;

		if (code == 0) {
			if (depth == 0 || --depth == 0)
				break;
			continue;
		}
		if ((ap = abbr_of(d, u, code)) == NULL) {
			problem(d, "a DIE with an unknown abbreviation");
			ok = 0;
			break;
		}
		a = *ap;
		isfn = a.tag == TAG_SUBPROGRAM || a.tag == TAG_INLINED ||
		    a.tag == TAG_ENTRY_POINT;
		f.name = NULL;
		f.low = 0;
		f.caller = NONE;
		f.unit = (uint32_t)(u - d->u);
		f.cfile = NONE;
		f.cline = 0;
		f.inlined = a.tag == TAG_INLINED;
		f.linkage = 0;
		memset(&rng, 0, sizeof(rng));
		for (i = 0; i < a.nattr && !c.bad; i++) {
			const struct spec *s = &d->spec[a.attr + i];
			struct val v;

			if (!form(d, u, &c, s->form, s->imp, &v))
				break;
			if (!isfn)
				continue;
			resolve(d, u, &v);
			switch (s->at) {
			case AT_NAME:
				if (f.name == NULL && v.kind == V_STR) {
					f.name = v.str;
					if (u->plain)
						f.linkage = 1;
				}
				break;
			case AT_LINKAGE_NAME:
			case AT_MIPS_LINKAGE_NAME:
				if (v.kind == V_STR) {
					f.name = v.str;
					f.linkage = 1;
				}
				break;
			case AT_ABSTRACT_ORIGIN:
			case AT_SPECIFICATION:
				if (v.kind == V_REF)
					origin(d, v.v, &f.name, &f.linkage, 0);
				break;
			case AT_LOW_PC:
				if (v.kind == V_ADDR || v.kind == V_CONST) {
					lo = v.v;
					haslo = 1;
				}
				break;
			case AT_HIGH_PC:
				if (v.kind == V_ADDR || v.kind == V_CONST) {
					hi = v.v;
					hashi = 1;
					hirel = v.kind == V_CONST;
				}
				break;
			case AT_RANGES:
				rng = v;
				hasrng = 1;
				break;
			case AT_CALL_FILE:
				if (v.kind == V_CONST)
					f.cfile = (uint32_t)v.v;
				break;
			case AT_CALL_LINE:
				if (v.kind == V_CONST)
					f.cline = (uint32_t)v.v;
				break;
			}
		}
		if (c.bad) {
			problem(d, "a DIE cut short or of an unknown form");
			ok = 0;
			break;
		}
		if (depth >= MAXDEPTH) {
			problem(d, "DIEs nested too deep");
			ok = 0;
			break;
		}
		if (isfn) {
			uint32_t id = (uint32_t)d->nfn;
			size_t k;

			if (f.inlined)
				for (k = depth; k-- > 0;)
					if (d->nest[k] != NONE) {
						f.caller = d->nest[k];
						break;
					}
			fold_grow(&d->fn, &d->fncap, d->nfn + 1, sizeof(*d->fn));
			d->fn[d->nfn++] = f;
			d->nest[depth] = id;
			d->ntmp = 0;
			if (hasrng) {
				if (!ranges(d, u, &rng))
					problem(d, "a range list cut short or "
					    "damaged");
			} else if (haslo && hashi) {
				if (hirel)
					hi += lo;
				if (hi != 0)
					arange(d, lo, hi);
			}
			if (d->ntmp > 0)
				d->fn[id].low = d->tmp[0].lo;
			fold_grow(&d->fr, &d->frcap, d->nfr + d->ntmp,
			    sizeof(*d->fr));
			for (k = 0; k < d->ntmp; k++) {
				if (d->tmp[k].hi <= d->tmp[k].lo)
					continue;
				d->fr[d->nfr].lo = d->tmp[k].lo;
				d->fr[d->nfr].hi = d->tmp[k].hi;
				d->fr[d->nfr++].fn = id;
			}
		} else
			d->nest[depth] = NONE;
		if (a.kids) {
			depth++;
			if (depth < MAXDEPTH)
				d->nest[depth] = NONE;
		}
	}
	if (c.bad && ok)
		problem(d, "a unit cut short");
	u->r1 = d->nfr;
	for (i = u->r0 + 1; i < u->r1; i++)	/* often in order already */
		if (frcmp(&d->fr[i - 1], &d->fr[i]) > 0)
			break;
	if (i < u->r1)
		qsort(d->fr + u->r0, u->r1 - u->r0, sizeof(*d->fr), frcmp);
	fold_grow(&d->frmax, &d->frmaxcap, d->nfr, sizeof(*d->frmax));
	for (i = u->r0; i < u->r1; i++)
		d->frmax[i] = i > u->r0 && d->frmax[i - 1] > d->fr[i].hi ?
		    d->frmax[i - 1] : d->fr[i].hi;
	u->parsed = 1;
}

/* Read unit headers and each unit's first DIE: its bases and ranges. */
static void
units(struct fold_dwarf *d)
{
	uint64_t off = 0, n = d->n[S_INFO];
	const unsigned char *s = d->s[S_INFO];

	while (off < n && n - off >= 11) {
		struct cur c;
		struct unit u;
		uint64_t len, abo;
		unsigned type = 1;
		const struct abbr *a;
		uint32_t i;
		struct val lo, hi, rng;
		uint64_t rawidx;
		size_t nab, nspec, ntab;
		int rawbase;

		memset(&u, 0, sizeof(u));
		u.stmt = UINT64_MAX;
		c.p = s + off;
		c.end = s + n;
		c.bad = 0;
		u.off = off;
		len = rd(&c, d, 4);
		u.osz = 4;
		if (len == 0xffffffff) {
			len = rd(&c, d, 8);
			u.osz = 8;
		} else if (len >= 0xfffffff0) {
			problem(d, "a unit of a reserved length");
			return;
		}
		if (c.bad || len > (uint64_t)(c.end - c.p)) {
			problem(d, "a unit past the end of .debug_info");
			return;
		}
		u.end = (uint64_t)(c.p - s) + len;
		c.end = s + u.end;
		u.ver = (unsigned)rd(&c, d, 2);
		if (u.ver >= 5) {
			type = (unsigned)rd(&c, d, 1);
			u.asz = (unsigned)rd(&c, d, 1);
			abo = rd(&c, d, u.osz);
			if (type == 4 || type == 5)	/* skeleton, split */
				skip(&c, 8);
			else if (type == 2 || type == 6)	/* type units */
				skip(&c, 8 + u.osz);
		} else {
			abo = rd(&c, d, u.osz);
			u.asz = (unsigned)rd(&c, d, 1);
		}
		off = u.end;
		if (c.bad || u.ver < 2 || u.ver > 5 || (u.asz != 4 &&
		    u.asz != 8 && u.asz != 2)) {
			if (u.ver < 2 || u.ver > 5)
				problem(d, "a unit of an unknown DWARF version");
			else
				problem(d, "a unit header cut short or damaged");
			continue;
		}
		if (type != 1 && type != 3)	/* compile and partial units */
			continue;
		u.die = (uint64_t)(c.p - s);
		u.abo = abo;
		/* the table read for the first DIE, and kept only if it was
		 * read before: most units no sample hits, and their tables
		 * are most of the memory (libc: 12 MB) */
		nab = d->nab;
		nspec = d->nspec;
		ntab = d->ntab;
		u.tab = abtab_at(d, abo);
		if (d->tab[u.tab].bad || (a = abbr_of(d, &u, uleb(&c))) ==
		    NULL) {
			problem(d, "a unit's first DIE unreadable");
			drop_tab(d, &u, nab, nspec, ntab);
			continue;
		}
		memset(&lo, 0, sizeof(lo));
		hi = rng = lo;
		for (i = 0; i < a->nattr && !c.bad; i++) {
			const struct spec *sp = &d->spec[a->attr + i];
			struct val v;

			if (!form(d, &u, &c, sp->form, sp->imp, &v))
				break;
			switch (sp->at) {
			case AT_LOW_PC: lo = v; break;
			case AT_HIGH_PC: hi = v; break;
			case AT_RANGES: rng = v; break;
			case AT_STR_OFFSETS_BASE: u.strbase = v.v; break;
			case AT_ADDR_BASE: u.addrbase = v.v; break;
			case AT_RNGLISTS_BASE: u.rngbase = v.v; break;
			case AT_LANGUAGE: u.plain = plain(v.v); break;
			case AT_STMT_LIST:
				if (v.kind == V_SECOFF || v.kind == V_CONST)
					u.stmt = v.v;
				break;
			}
		}
		drop_tab(d, &u, nab, nspec, ntab);
		if (c.bad) {
			problem(d, "a unit's first DIE unreadable");
			continue;
		}
		/* binutils 2.40 takes the base address of range lists from
		 * DW_AT_low_pc before indexed addresses are resolved: an
		 * index (DW_FORM_addrx, as clang writes it) is used as it is */
		rawbase = lo.kind == V_ADDRX;
		rawidx = lo.v;
		resolve(d, &u, &lo);
		resolve(d, &u, &hi);
		if (lo.kind == V_ADDR || lo.kind == V_CONST)
			u.base = lo.v;
		if (rawbase)
			u.base = rawidx;
		d->ntmp = 0;
		if (rng.kind != V_NONE) {
			if (!ranges(d, &u, &rng))
				problem(d, "a unit's range list damaged");
		} else if ((lo.kind == V_ADDR || lo.kind == V_CONST) &&
		    (hi.kind == V_ADDR || hi.kind == V_CONST))
			arange(d, lo.v, hi.kind == V_CONST ? lo.v + hi.v : hi.v);
		fold_grow(&d->u, &d->ucap, d->nu + 1, sizeof(*d->u));
		u.ranged = d->ntmp > 0;
		d->u[d->nu] = u;
		if (d->ntmp == 0) {
			fold_grow(&d->norange, &d->nrcap, d->nnr + 1,
			    sizeof(*d->norange));
			d->norange[d->nnr++] = (uint32_t)d->nu;
		}
		fold_grow(&d->ur, &d->urcap, d->nur + d->ntmp, sizeof(*d->ur));
		for (i = 0; i < d->ntmp; i++) {
			if (d->tmp[i].hi <= d->tmp[i].lo)
				continue;
			d->ur[d->nur].lo = d->tmp[i].lo;
			d->ur[d->nur].hi = d->tmp[i].hi;
			d->ur[d->nur++].unit = (uint32_t)d->nu;
		}
		d->nu++;
	}
}

static int
urcmp(const void *a, const void *b)
{
	const struct urange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

/* ---- the reader ------------------------------------------------------- */

struct fold_dwarf *
fold_dwarf_new(const struct fold_elf *e, const char **why)
{
	struct fold_dwarf *d;
	struct fold_elf_sec sec;
	const char *w;
	int i, is64;
	size_t k;

	*why = NULL;
	d = xcalloc(1, sizeof(*d));
	d->elf = e;
	d->dropped = UINT64_MAX;
	(void)fold_elf_kind(e, &is64, &d->be);
	for (i = 0; i < NSEC; i++) {
		if (i == S_LINE)	/* read with the first source line */
			continue;
		if (fold_elf_section_plain(e, secname[i], &sec, &d->own[i],
		    &w) != NULL) {
			d->s[i] = sec.p;
			d->n[i] = sec.size;
		} else if (w != NULL && *why == NULL)
			*why = w;
	}
	/* an entry takes 16 bytes of .debug_ranges, 2 or more of
	 * .debug_rnglists: each list read twice at most, on average */
	d->rleft = d->n[S_RANGES] / 8 + d->n[S_RNGLISTS] + 65536;
	for (i = S_STR; i <= S_LINESTR; i++)
		for (d->strend[i] = d->n[i]; d->strend[i] > 0 &&
		    d->s[i][d->strend[i] - 1] != 0; d->strend[i]--)
			;
	if (d->s[S_INFO] == NULL || d->s[S_ABBREV] == NULL) {
		if (*why == NULL && d->s[S_INFO] != NULL)
			*why = "no .debug_abbrev";
		d->s[S_INFO] = NULL;	/* the symbols alone, if any */
		if (fold_elf_section(e, ".symtab", &sec) == NULL &&
		    fold_elf_section(e, ".dynsym", &sec) == NULL) {
			fold_dwarf_free(d);
			return NULL;
		}
	} else
		units(d);
	if (d->nur > 0) {
		qsort(d->ur, d->nur, sizeof(*d->ur), urcmp);
		d->urmax = xmalloc(d->nur * sizeof(*d->urmax));
		for (k = 0; k < d->nur; k++)
			d->urmax[k] = k > 0 && d->urmax[k - 1] > d->ur[k].hi ?
			    d->urmax[k - 1] : d->ur[k].hi;
	}
	d->hmask = 255;
	d->h = xcalloc(d->hmask + 1, sizeof(*d->h));
	return d;
}

/* The file at path if it opens as ELF with a .debug_info, else NULL. */
static struct fold_elf *
debug_file(const char *path)
{
	struct fold_elf *e;
	struct fold_elf_sec sec;
	const char *why;

	if ((e = fold_elf_open(path, &why)) == NULL)
		return NULL;
	if (fold_elf_section(e, ".debug_info", &sec) != NULL)
		return e;
	fold_elf_free(e);
	return NULL;
}

struct fold_dwarf *
fold_dwarf_open(const char *path, const char **why)
{
	struct fold_elf *e, *dbg = NULL;
	struct fold_elf_sec sec;
	struct fold_dwarf *d;
	const unsigned char *id;
	const char *link, *slash;
	size_t n, i, dl, bl;
	char *buf;

	if ((e = fold_elf_open(path, why)) == NULL) {
		if (*why == NULL)
			*why = strerror(errno);
		return NULL;
	}
	if (fold_elf_section(e, ".debug_info", &sec) == NULL) {
		/* bfd's places: by build id, then by .gnu_debuglink (its
		 * CRC is not checked here) */
		n = fold_elf_buildid(e, &id);
		link = fold_elf_debuglink(e);
		slash = strrchr(path, '/');
		dl = slash != NULL ? (size_t)(slash - path) : 0;
		bl = 64 + 2 * n + dl + (link != NULL ? strlen(link) : 0);
		buf = xmalloc(bl);
		if (n > 0 && n <= 64) {
			size_t o = (size_t)snprintf(buf, bl,
			    "/usr/lib/debug/.build-id/%02x/", id[0]);

			for (i = 1; i < n; i++)
				o += (size_t)snprintf(buf + o, bl - o, "%02x",
				    id[i]);
			snprintf(buf + o, bl - o, ".debug");
			dbg = debug_file(buf);
		}
		if (dbg == NULL && link != NULL && link[0] != '\0') {
			snprintf(buf, bl, "%.*s/%s", (int)dl, path, link);
			if ((dbg = debug_file(buf)) == NULL) {
				snprintf(buf, bl, "%.*s/.debug/%s", (int)dl,
				    path, link);
				dbg = debug_file(buf);
			}
			if (dbg == NULL) {
				snprintf(buf, bl, "/usr/lib/debug%.*s/%s",
				    (int)dl, path, link);
				dbg = debug_file(buf);
			}
		}
		free(buf);
	}
	if ((d = fold_dwarf_new(dbg != NULL ? dbg : e, why)) == NULL) {
		if (*why == NULL)
			*why = "no debug information and no symbols";
		fold_elf_free(dbg);
		fold_elf_free(e);
		return NULL;
	}
	d->own_elf[0] = e;
	d->own_elf[1] = dbg;
	return d;
}

const char *
fold_dwarf_problem(const struct fold_dwarf *d)
{
	return d->problem;
}

/* The innermost function of unit u at addr, or NONE. */
static uint32_t
innermost(struct fold_dwarf *d, struct unit *u, uint64_t addr)
{
	size_t lo, hi, i, k;
	uint64_t best = UINT64_MAX;
	uint32_t fn = NONE;

	if (u->parsed == 0)
		parse(d, u);
	lo = u->r0;
	hi = u->r1;
	while (lo < hi) {		/* the first range starting past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (d->fr[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo, k = 0; i-- > u->r0 && d->frmax[i] > addr &&
	    k++ < WALKMAX;) {
		const struct frange *r = &d->fr[i];
		uint64_t len = r->hi - r->lo;

		if (addr >= r->hi)
			continue;
		if (len < best || (len == best && r->fn > fn)) {
			best = len;
			fn = r->fn;
		}
	}
	return fn;
}

static int
u32cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The units that may hold addr, in their order, into d->cand. */
static size_t
candidates(struct fold_dwarf *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nur, i, n = 0, a, b;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->ur[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && d->urmax[i] > addr;)
		if (addr < d->ur[i].hi) {
			fold_grow(&d->cand, &d->candcap, n + 1,
			    sizeof(*d->cand));
			d->cand[n++] = d->ur[i].unit;
		}
	if (n + d->nnr == 0)
		return 0;
	fold_grow(&d->cand, &d->candcap, n + d->nnr, sizeof(*d->cand));
	if (d->nnr > 0)
		memcpy(d->cand + n, d->norange, d->nnr * sizeof(*d->norange));
	n += d->nnr;
	qsort(d->cand, n, sizeof(*d->cand), u32cmp);
	for (a = b = 0; a < n; a++)	/* a unit may have several ranges */
		if (b == 0 || d->cand[b - 1] != d->cand[a])
			d->cand[b++] = d->cand[a];
	return b;
}

/* ---- ELF symbols, for renaming ---------------------------------------- */

static int
escmp(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The function-like symbols of .symtab (else .dynsym), as bfd's
 * maybe_function_sym()
 * takes them: not sections, files, objects, TLS or common symbols, not
 * in no section, not local hidden untyped symbols of size 0. */
static void
symread(struct fold_dwarf *d)
{
	struct fold_elf_sec st, ss;
	int is64, be, state = 0;	/* bfd's: nothing, symbol, file after */
	size_t es, i, n;
	const char *file = NULL;

	d->symread = 1;
	(void)fold_elf_kind(d->elf, &is64, &be);
	es = is64 ? 24 : 16;
	/* addr2line reads .dynsym where there is no .symtab (names without
	 * versions) */
	if ((fold_elf_section(d->elf, ".symtab", &st) == NULL ||
	    st.size < 2 * es ||
	    fold_elf_section(d->elf, ".strtab", &ss) == NULL) &&
	    (fold_elf_section(d->elf, ".dynsym", &st) == NULL ||
	    fold_elf_section(d->elf, ".dynstr", &ss) == NULL))
		return;
	n = (size_t)(st.size / es);
	for (i = 1; i < n; i++) {
		const unsigned char *q = st.p + i * es;
		uint64_t name = fold_getu(q, 4, be), value, size;
		unsigned info, other, shndx, type, bind;
		struct esym e;

		if (is64) {
			info = q[4];
			other = q[5];
			shndx = (unsigned)fold_getu(q + 6, 2, be);
			value = fold_getu(q + 8, 8, be);
			size = fold_getu(q + 16, 8, be);
		} else {
			value = fold_getu(q + 4, 4, be);
			size = fold_getu(q + 8, 4, be);
			info = q[12];
			other = q[13];
			shndx = (unsigned)fold_getu(q + 14, 2, be);
		}
		type = info & 0xf;
		bind = info >> 4;
		if (name >= ss.size || memchr(ss.p + name, 0,
		    (size_t)(ss.size - name)) == NULL)
			continue;
		if (type == 4) {	/* STT_FILE: names the symbols after it */
			file = (const char *)ss.p + name;
			if (state == 1)
				state = 2;
			continue;
		}
		e.file = bind == 0 || state != 2 ? file : NULL;
		if (state == 0)
			state = 1;
		if (type == 1 || type == 3 || type == 5 ||
		    type == 6 || shndx == 0 || shndx >= 0xff00)
			continue;
		if (size == 0 && bind == 0 && type == 0 && (other & 3) == 2)
			continue;
		e.value = value;
		e.size = size != 0 ? size : 1;
		e.shndx = shndx;
		e.order = (uint32_t)i;
		e.name = (const char *)ss.p + name;
		e.func = type == 2 || type == 10;
		e.notype = type == 0;
		fold_grow(&d->sym, &d->symcap, d->nsym + 1, sizeof(*d->sym));
		d->sym[d->nsym++] = e;
	}
	if (d->nsym > 1)
		qsort(d->sym, d->nsym, sizeof(*d->sym), escmp);
}

/*
 * Symbol y in place of x (both start at the same place, at or before
 * addr)?  binutils 2.40's elf_find_function() takes, of the symbols at the
 * nearest start, the first of the largest size (a size of 0 counted as 1):
 * not the newer better_fit(), which prefers the smaller of two that hold
 * the address, a function over other symbols (tested with addr2line 2.40:
 * a sized function and a label of size 0 at its start give the function;
 * two sized functions at one start, the larger).
 */
static int
better(const struct esym *x, const struct esym *y)
{
	return y->size > x->size;
}

/* The symbol binutils' _bfd_elf_find_function() gives for addr: of the
 * function-like symbols of the first allocated section holding addr, the
 * nearest at or before it (of several there, by better()). */
static const struct esym *
elf_function(struct fold_dwarf *d, uint64_t addr)
{
	struct fold_elf_sec sec;
	size_t i, lo, hi, first;
	uint32_t shndx = 0;
	const struct esym *best;

	if (!d->symread)
		symread(d);
	for (i = 1; fold_elf_shdr(d->elf, i, &sec); i++)
		if ((sec.flags & 2) && addr >= sec.addr &&
		    addr - sec.addr < sec.size) {
			shndx = (uint32_t)i;
			break;
		}
	if (shndx == 0)
		return NULL;
	lo = 0;
	hi = d->nsym;
	while (lo < hi) {	/* the first past (shndx, addr) */
		size_t mid = lo + (hi - lo) / 2;
		const struct esym *e = &d->sym[mid];

		if (e->shndx < shndx || (e->shndx == shndx && e->value <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || d->sym[lo - 1].shndx != shndx)
		return NULL;
	first = lo - 1;
	while (first > 0 && d->sym[first - 1].shndx == shndx &&
	    d->sym[first - 1].value == d->sym[lo - 1].value)
		first--;
	best = &d->sym[first];
	for (i = first + 1; i < lo; i++)
		if (better(best, &d->sym[i]))
			best = &d->sym[i];
	return best;
}

static uint64_t
hmix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return x;
}

static void
hgrow(struct fold_dwarf *d)
{
	size_t cap = (d->hmask + 1) * 2, i, k;
	struct hent *nh = xcalloc(cap, sizeof(*nh));

	for (i = 0; i <= d->hmask; i++) {
		if (d->h[i].n == 0)
			continue;
		for (k = hmix(d->h[i].addr) & (cap - 1); nh[k].n != 0;
		    k = (k + 1) & (cap - 1))
			;
		nh[k] = d->h[i];
	}
	free(d->h);
	d->h = nh;
	d->hmask = cap - 1;
}

static const char *const nonames[1] = { "??" };

size_t
fold_dwarf_inlines(struct fold_dwarf *d, uint64_t addr,
    const char *const **names)
{
	size_t k, i, nc;
	uint32_t fn = NONE, at, n = 0;
	const char *first = NULL, *ffile = NULL;

	for (k = hmix(addr) & d->hmask; d->h[k].n != 0;
	    k = (k + 1) & d->hmask)
		if (d->h[k].addr == addr) {
			*names = d->h[k].n > 1 ? d->pool + d->h[k].at : nonames;
			return d->h[k].n - 1;
		}
	nc = d->s[S_INFO] != NULL ? candidates(d, addr) : 0;
	for (i = 0; i < nc && fn == NONE; i++)
		fn = innermost(d, &d->u[d->cand[i]], addr);
	if (fn == NONE) {	/* binutils falls back on the ELF symbols */
		const struct esym *e = elf_function(d, addr);

		if (e != NULL) {
			first = e->name;
			ffile = e->file;
		}
	}
	if (fn != NONE && !d->fn[fn].linkage) {
		const struct esym *e = elf_function(d, addr);

		if (e != NULL) {
			first = e->name;
			ffile = e->file;
			if (e->value == d->fn[fn].low)
				d->fn[fn].name = e->name;
		}
		d->fn[fn].linkage = 1;
	}
	if (first != NULL) {	/* the symbol's file, where no line is found */
		fold_grow(&d->fb, &d->fbcap, d->nfb + 1, sizeof(*d->fb));
		d->fb[d->nfb].addr = addr;
		d->fb[d->nfb].file = ffile;
		d->fb[d->nfb++].line = 0;
	}
	at = (uint32_t)d->npool;
	if (fn == NONE && first != NULL) {
		fold_grow(&d->pool, &d->poolcap, d->npool + 1,
		    sizeof(*d->pool));
		fold_grow(&d->pfn, &d->pfncap, d->npool + 1, sizeof(*d->pfn));
		d->pfn[d->npool] = NONE;
		d->pool[d->npool++] = first[0] != '\0' ? first : "??";
		n = 1;
	}
	while (fn != NONE && n < MAXCHAIN) {
		const char *nm = n == 0 && first != NULL ? first :
		    d->fn[fn].name;

		fold_grow(&d->pool, &d->poolcap, d->npool + 1,
		    sizeof(*d->pool));
		fold_grow(&d->pfn, &d->pfncap, d->npool + 1, sizeof(*d->pfn));
		d->pfn[d->npool] = fn;
		d->pool[d->npool++] = nm != NULL && nm[0] != '\0' ? nm : "??";
		n++;
		fn = d->fn[fn].inlined ? d->fn[fn].caller : NONE;
	}
	if (++d->hn * 4 > d->hmask * 3) {
		hgrow(d);
		for (k = hmix(addr) & d->hmask; d->h[k].n != 0;
		    k = (k + 1) & d->hmask)
			;
	}
	d->h[k].addr = addr;
	d->h[k].at = at;
	d->h[k].n = n + 1;
	*names = n > 0 ? d->pool + at : nonames;
	return n;
}

size_t
fold_dwarf_srclines(struct fold_dwarf *d, uint64_t addr, const char **files,
    unsigned *lns, size_t max)
{
	const char *const *nm;
	size_t n, k, i, nc, at;
	const char *f = NULL;
	uint32_t l = 0, fn;

	n = fold_dwarf_inlines(d, addr, &nm);
	if (n == 0)
		return 0;
	at = (size_t)(nm - d->pool);
	/* the innermost: the line table of its unit (or, with no function,
	 * of the first unit with a row there), else its symbol's file */
	fn = d->pfn[at];
	if (fn != NONE)
		(void)lookup_line(d, &d->u[d->fn[fn].unit], addr, &f, &l);
	else if (d->s[S_INFO] != NULL) {
		nc = candidates(d, addr);
		for (i = 0; i < nc; i++)
			if (lookup_line(d, &d->u[d->cand[i]], addr, &f, &l))
				break;
	}
	if (f == NULL)
		for (k = d->nfb; k-- > 0;)
			if (d->fb[k].addr == addr) {
				f = base(d->fb[k].file);
				break;
			}
	for (i = 0; i < n && i < max; i++) {
		if (i > 0) {	/* where the one before is inlined */
			const struct func *c = &d->fn[d->pfn[at + i - 1]];

			f = c->cfile == NONE ? NULL :
			    ufile(d, &d->u[c->unit], c->cfile);
			l = c->cline;
		}
		files[i] = f;
		lns[i] = l;
	}
	return n < max ? n : max;
}

void
fold_dwarf_free(struct fold_dwarf *d)
{
	int i;

	if (d == NULL)
		return;
	for (i = 0; i < NSEC; i++)
		free(d->own[i]);
	free(d->tab);
	free(d->ab);
	free(d->spec);
	free(d->u);
	free(d->ur);
	free(d->urmax);
	free(d->norange);
	free(d->fn);
	free(d->fr);
	free(d->frmax);
	free(d->tmp);
	free(d->h);
	free(d->pool);
	free(d->cand);
	free(d->sym);
	free(d->pfn);
	free(d->fb);
	free(d->lr);
	free(d->seq);
	free(d->lf);
	fold_elf_free(d->own_elf[1]);
	fold_elf_free(d->own_elf[0]);
	free(d);
}
