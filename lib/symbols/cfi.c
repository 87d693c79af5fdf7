/*
 * cfi.c - call frame information: the CIEs and FDEs of an object's
 * .eh_frame and .debug_frame, the FDE that covers a pc (.eh_frame_hdr's
 * search table, else an index of the section), its CFA program run up to
 * that pc, and the DWARF expressions a row may hold.  From DWARF 5 6.4
 * and 2.5, and the LSB's description of .eh_frame and .eh_frame_hdr.
 *
 * The sections are untrusted.  Every read goes through a cursor that
 * stops at the end of the entry it is in (an entry's length is checked
 * against its section first); a LEB128 is at most 10 bytes; a CFA program
 * only runs forward, each instruction a byte at least, so a lookup reads
 * at most the bytes of one CIE and one FDE; an expression runs at most
 * EVALMAX operations on a stack of STACKMAX.  What cannot be read is not
 * followed: the lookup fails and the first such thing is kept as the
 * problem.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "symbols/symbols.h"

/* DW_EH_PE_*: pointer encodings (LSB), a format and how it is applied. */
enum {
	PE_ABSPTR = 0x00, PE_ULEB128 = 0x01, PE_UDATA2 = 0x02,
	PE_UDATA4 = 0x03, PE_UDATA8 = 0x04, PE_SLEB128 = 0x09,
	PE_SDATA2 = 0x0a, PE_SDATA4 = 0x0b, PE_SDATA8 = 0x0c,
	PE_PCREL = 0x10, PE_DATAREL = 0x30, PE_ALIGNED = 0x50,
	PE_INDIRECT = 0x80, PE_OMIT = 0xff
};

/* DW_CFA_*: the instructions of a CFA program (DWARF 5 6.4.2, GNU). */
enum {
	CFA_advance_loc = 0x40, CFA_offset = 0x80, CFA_restore = 0xc0,
	CFA_nop = 0x00, CFA_set_loc = 0x01, CFA_advance_loc1 = 0x02,
	CFA_advance_loc2 = 0x03, CFA_advance_loc4 = 0x04,
	CFA_offset_extended = 0x05, CFA_restore_extended = 0x06,
	CFA_undefined = 0x07, CFA_same_value = 0x08, CFA_register = 0x09,
	CFA_remember_state = 0x0a, CFA_restore_state = 0x0b,
	CFA_def_cfa = 0x0c, CFA_def_cfa_register = 0x0d,
	CFA_def_cfa_offset = 0x0e, CFA_def_cfa_expression = 0x0f,
	CFA_expression = 0x10, CFA_offset_extended_sf = 0x11,
	CFA_def_cfa_sf = 0x12, CFA_def_cfa_offset_sf = 0x13,
	CFA_val_offset = 0x14, CFA_val_offset_sf = 0x15,
	CFA_val_expression = 0x16,
	CFA_GNU_window_save = 0x2d,	/* AArch64: negate_ra_state */
	CFA_GNU_args_size = 0x2e, CFA_GNU_negative_offset_extended = 0x2f
};

/* DW_OP_*: the operations of a DWARF expression (DWARF 5 2.5). */
enum {
	OP_addr = 0x03, OP_deref = 0x06, OP_const1u = 0x08, OP_const1s = 0x09,
	OP_const2u = 0x0a, OP_const2s = 0x0b, OP_const4u = 0x0c,
	OP_const4s = 0x0d, OP_const8u = 0x0e, OP_const8s = 0x0f,
	OP_constu = 0x10, OP_consts = 0x11, OP_dup = 0x12, OP_drop = 0x13,
	OP_over = 0x14, OP_pick = 0x15, OP_swap = 0x16, OP_rot = 0x17,
	OP_abs = 0x19, OP_and = 0x1a, OP_div = 0x1b, OP_minus = 0x1c,
	OP_mod = 0x1d, OP_mul = 0x1e, OP_neg = 0x1f, OP_not = 0x20,
	OP_or = 0x21, OP_plus = 0x22, OP_plus_uconst = 0x23, OP_shl = 0x24,
	OP_shr = 0x25, OP_shra = 0x26, OP_xor = 0x27, OP_bra = 0x28,
	OP_eq = 0x29, OP_ge = 0x2a, OP_gt = 0x2b, OP_le = 0x2c, OP_lt = 0x2d,
	OP_ne = 0x2e, OP_skip = 0x2f, OP_lit0 = 0x30, OP_lit31 = 0x4f,
	OP_reg0 = 0x50, OP_reg31 = 0x6f, OP_breg0 = 0x70, OP_breg31 = 0x8f,
	OP_regx = 0x90, OP_bregx = 0x92, OP_deref_size = 0x94, OP_nop = 0x96
};

#define SHF_COMPRESSED 0x800
#define SAVEMAX 16		/* DW_CFA_remember_state depth */
#define AUGMAX 16		/* longest augmentation string read */
#define STACKMAX 64		/* expression stack */
#define EVALMAX 1000		/* expression operations */
#define EMPTY 2			/* fde_row(): the FDE's range is empty */

/* One section: .eh_frame (eh) or .debug_frame. */
struct fde_ix {
	uint64_t start, end, off;
};
struct sec {
	const unsigned char *p;	/* NULL: absent */
	uint64_t size, addr;
	int eh;
	int indexed;
	struct fde_ix *ix;	/* sorted by start */
	size_t nix;
};

struct fold_cfi {
	struct sec eh, dbg;
	const unsigned char *hdr;	/* .eh_frame_hdr, or NULL */
	uint64_t hdrsize, hdraddr;
	int hdrok;		/* 0 not checked yet, 1 table used, -1 not */
	uint64_t tab;		/* the table's offset in hdr */
	uint64_t ntab;
	int asize, be;		/* the object's address size, byte order */
	const char *problem;
	int depth;		/* rows in saved */
	struct fold_cfi_row init;	/* after the CIE's program */
	struct fold_cfi_row saved[SAVEMAX];
};

/*
 * A cursor over p[0, end): the bytes of a section (or of an expression)
 * up to the end of the entry being read.  A read past end gives zeros
 * and sets bad, which stays set; pos never passes end.
 */
struct rd {
	const unsigned char *p;
	uint64_t pos, end;
	uint64_t addr;		/* the address of p[0] (pcrel) */
	int be, bad;
};

static void
rd_init(struct rd *r, const unsigned char *p, uint64_t pos, uint64_t end,
    uint64_t addr, int be)
{
	r->p = p;
	r->pos = pos;
	r->end = end;
	r->addr = addr;
	r->be = be;
	r->bad = pos > end;
}

/* The next n bytes, or NULL (bad set). */
static const unsigned char *
take(struct rd *r, uint64_t n)
{
	const unsigned char *q;

	if (r->bad || n > r->end - r->pos) {
		r->bad = 1;
		return NULL;
	}
	q = r->p + r->pos;
	r->pos += n;
	return q;
}

/* An unsigned number of n (1 to 8) bytes in the cursor's byte order. */
static uint64_t
rdn(struct rd *r, int n)
{
	const unsigned char *q = take(r, (uint64_t)n);

	return q != NULL ? fold_getu(q, n, r->be) : 0;
}

/* v's low n bytes as a signed number, extended to 64 bits. */
static uint64_t
sext(uint64_t v, int n)
{
	uint64_t sign = (uint64_t)1 << (8 * n - 1);

	if (n >= 8)
		return v;
	v &= (sign << 1) - 1;
	return (v ^ sign) - sign;
}

/* An unsigned LEB128 of at most 10 bytes (bits past 64 are dropped). */
static uint64_t
uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned i, b;

	for (i = 0; i < 10 && !r->bad && r->pos < r->end; i++) {
		b = r->p[r->pos++];
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static uint64_t
sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned i, b;

	for (i = 0; i < 10 && !r->bad && r->pos < r->end; i++) {
		b = r->p[r->pos++];
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if ((b & 0x40) && 7 * (i + 1) < 64)
				v |= ~(uint64_t)0 << (7 * (i + 1));
			return v;
		}
	}
	r->bad = 1;
	return 0;
}

/* The two's complement number v as an int64_t, without overflow. */
static int64_t
s64(uint64_t v)
{
	return v <= INT64_MAX ? (int64_t)v : -(int64_t)~v - 1;
}

/* a * b, or UINT64_MAX when that does not fit. */
static uint64_t
mulsat(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t
amask(int asize)
{
	return asize == 4 ? 0xffffffffu : UINT64_MAX;
}

/* Keep the first problem; -1, for the callers' returns. */
static int
bad(struct fold_cfi *c, const char *why)
{
	if (c->problem == NULL)
		c->problem = why;
	return -1;
}

/*
 * A pointer in encoding enc at r, applied to the address it is read at
 * (pcrel) or to database (datarel): 0 and *v; -1 for an encoding that
 * cannot be followed here (textrel, funcrel, indirect, omit, unknown)
 * or a read past the end.  With skip, only its bytes are passed over
 * and any encoding of a known format will do (*v meaningless).
 */
static int
rd_ptr(struct rd *r, int enc, int asize, uint64_t database, int skip,
    uint64_t *v)
{
	uint64_t here = r->addr + r->pos, x, pad;

	if (enc == PE_OMIT)
		return -1;
	if ((enc & 0x70) == PE_ALIGNED) {
		pad = (uint64_t)(asize - (int)(here % (uint64_t)asize)) %
		    (uint64_t)asize;
		(void)take(r, pad);
		x = rdn(r, asize);
		enc &= PE_INDIRECT;	/* nothing to add */
	} else {
		switch (enc & 0x0f) {
		case PE_ABSPTR: x = rdn(r, asize); break;
		case PE_ULEB128: x = uleb(r); break;
		case PE_UDATA2: x = rdn(r, 2); break;
		case PE_UDATA4: x = rdn(r, 4); break;
		case PE_UDATA8: x = rdn(r, 8); break;
		case PE_SLEB128: x = sleb(r); break;
		case PE_SDATA2: x = sext(rdn(r, 2), 2); break;
		case PE_SDATA4: x = sext(rdn(r, 4), 4); break;
		case PE_SDATA8: x = rdn(r, 8); break;
		default: return -1;
		}
	}
	if (r->bad)
		return -1;
	*v = 0;
	if (skip)
		return 0;
	if (enc & PE_INDIRECT)
		return -1;
	switch (enc & 0x70) {
	case 0: break;
	case PE_PCREL: x += here; break;
	case PE_DATAREL: x += database; break;
	default: return -1;
	}
	*v = x & amask(asize);
	return 0;
}

/* ---- entries, CIEs, FDEs ---- */

/* The header of an entry (CIE or FDE). */
struct ent {
	uint64_t off, end;	/* the entry is [off, end) */
	uint64_t body;		/* after its CIE id / CIE pointer */
	uint64_t cie;		/* FDE: its CIE's offset (UINT64_MAX none) */
	int iscie;
};

/*
 * The entry at off of s: 1 and *e; 0 at the end (a zero length, or fewer
 * than 4 bytes left); -1 when it cannot be right (problem set): the walk
 * over a section stops there.
 */
static int
get_ent(struct fold_cfi *c, const struct sec *s, uint64_t off, struct ent *e)
{
	struct rd r;
	uint64_t len, id, idpos;
	int dw64;

	if (off >= s->size || s->size - off < 4)
		return 0;
	rd_init(&r, s->p, off, s->size, s->addr, c->be);
	if ((len = rdn(&r, 4)) == 0)
		return 0;
	if ((dw64 = len == 0xffffffff))
		len = rdn(&r, 8);
	if (r.bad || len > r.end - r.pos)
		return bad(c, "CFI entry longer than its section");
	e->off = off;
	e->end = r.end = r.pos + len;
	idpos = r.pos;
	id = rdn(&r, dw64 && !s->eh ? 8 : 4);	/* .eh_frame: 4 (LSB) */
	if (r.bad)
		return bad(c, "CFI entry too short");
	if (s->eh) {
		e->iscie = id == 0;
		e->cie = id <= idpos ? idpos - id : UINT64_MAX;
	} else {
		e->iscie = id == (dw64 ? UINT64_MAX : 0xffffffff);
		e->cie = id;
	}
	e->body = r.pos;
	return 1;
}

struct cie {
	uint64_t caf;		/* code alignment factor */
	int64_t daf;		/* data alignment factor */
	uint64_t ra;		/* return address column */
	uint64_t ins, end;	/* the initial instructions */
	int fdeenc;		/* DW_EH_PE_* of FDE addresses */
	int aug;		/* 'z': FDEs have augmentation data */
	int signal;		/* 'S' */
	int asize, segsize;	/* address, segment selector sizes */
};

/* The augmentation letters after 'z' (their data ends at augend). */
static int
aug_data(struct fold_cfi *c, const struct sec *s, struct rd *r,
    const char *aug, struct cie *ci)
{
	uint64_t v;

	for (; *aug != '\0'; aug++) {
		switch (*aug) {
		case 'L':	/* the LSDA's encoding: not needed */
			(void)rdn(r, 1);
			break;
		case 'P':	/* the personality routine: passed over */
			if (rd_ptr(r, (int)rdn(r, 1), ci->asize, s->addr, 1,
			    &v) != 0)
				return bad(c, "CIE personality unreadable");
			break;
		case 'R':
			ci->fdeenc = (int)rdn(r, 1);
			break;
		case 'S':
			ci->signal = 1;
			break;
		case 'B':	/* AArch64 pointer authentication, B key */
		case 'G':	/* AArch64 memory tagging */
			break;
		default:
			return bad(c, "CIE augmentation unknown");
		}
	}
	return r->bad ? bad(c, "CIE augmentation cut short") : 0;
}

/* The CIE at off of s: 0 and *ci, or -1 (problem set). */
static int
get_cie(struct fold_cfi *c, const struct sec *s, uint64_t off, struct cie *ci)
{
	struct ent e;
	struct rd r;
	char aug[AUGMAX + 1];
	const char *a = aug;
	uint64_t augend;
	int version, i;

	if (get_ent(c, s, off, &e) != 1 || !e.iscie)
		return bad(c, "FDE without a CIE");
	memset(ci, 0, sizeof(*ci));
	ci->asize = c->asize;
	rd_init(&r, s->p, e.body, e.end, s->addr, c->be);
	version = (int)rdn(&r, 1);
	if (version != 1 && version != 3 && version != 4)
		return bad(c, "CIE version unknown");
	for (i = 0; (aug[i] = (char)rdn(&r, 1)) != '\0'; i++)
		if (i == AUGMAX || r.bad)
			return bad(c, "CIE augmentation unknown");
	if (a[0] == 'e' && a[1] == 'h') {	/* old GCC: a pointer */
		(void)take(&r, (uint64_t)ci->asize);
		a += 2;
	}
	if (version == 4) {
		ci->asize = (int)rdn(&r, 1);
		ci->segsize = (int)rdn(&r, 1);
		if ((ci->asize != 4 && ci->asize != 8) || ci->segsize > 8)
			return bad(c, "CIE address size unknown");
	}
	ci->caf = uleb(&r);
	ci->daf = s64(sleb(&r));
	ci->ra = version == 1 ? rdn(&r, 1) : uleb(&r);
	if (ci->ra > UINT16_MAX)
		return bad(c, "CIE return address column too large");
	if (*a == 'z') {
		ci->aug = 1;
		augend = uleb(&r);
		if (r.bad || augend > r.end - r.pos)
			return bad(c, "CIE augmentation cut short");
		augend += r.pos;
		r.end = augend;
		if (aug_data(c, s, &r, a + 1, ci) != 0)
			return -1;
		r.pos = augend;
		r.end = e.end;
	} else {
		for (; *a != '\0'; a++)
			if (*a == 'S')
				ci->signal = 1;
			else if (*a != 'B' && *a != 'G')
				return bad(c, "CIE augmentation unknown");
	}
	if (r.bad)
		return bad(c, "CIE cut short");
	ci->ins = r.pos;
	ci->end = e.end;
	return 0;
}

struct fde {
	uint64_t start, end;	/* the range [start, end) */
	uint64_t ins, insend;	/* the instructions */
	struct cie ci;
};

/* An FDE's address at r, as its CIE says (DW_CFA_set_loc's too). */
static int
fde_addr(struct fold_cfi *c, const struct sec *s, struct rd *r,
    const struct cie *ci, uint64_t *v)
{
	if (!s->eh && ci->fdeenc == PE_ABSPTR) {
		(void)take(r, (uint64_t)ci->segsize);
		*v = rdn(r, ci->asize);
		return r->bad ? bad(c, "FDE cut short") : 0;
	}
	if (rd_ptr(r, ci->fdeenc, ci->asize, s->addr, 0, v) != 0)
		return bad(c, (ci->fdeenc & PE_INDIRECT) ?
		    "FDE address indirect" : "FDE address unreadable");
	return 0;
}

/* The FDE of entry e of s: 0 and *f, or -1 (problem set). */
static int
get_fde(struct fold_cfi *c, const struct sec *s, const struct ent *e,
    struct fde *f)
{
	struct rd r;
	uint64_t range, n;

	if (e->cie >= s->size || e->cie == e->off)
		return bad(c, "FDE without a CIE");
	if (get_cie(c, s, e->cie, &f->ci) != 0)
		return -1;
	rd_init(&r, s->p, e->body, e->end, s->addr, c->be);
	if (fde_addr(c, s, &r, &f->ci, &f->start) != 0)
		return -1;
	if (!s->eh && f->ci.fdeenc == PE_ABSPTR)
		range = rdn(&r, f->ci.asize);
	else if (rd_ptr(&r, f->ci.fdeenc & 0x0f, f->ci.asize, 0, 0,
	    &range) != 0)
		return bad(c, "FDE range unreadable");
	if (f->ci.aug) {
		n = uleb(&r);
		(void)take(&r, n);
	}
	if (r.bad)
		return bad(c, "FDE cut short");
	if (range > amask(f->ci.asize) - f->start)
		range = 0;	/* a linker's tombstone address: covers nothing */
	f->end = f->start + range;
	f->ins = r.pos;
	f->insend = e->end;
	return 0;
}

/* ---- the CFA program ---- */

/* A lookup's run of a CIE's or an FDE's program. */
struct run {
	struct fold_cfi *c;
	const struct sec *s;
	const struct cie *ci;
	struct fold_cfi_row *row;
	uint64_t pc;
	int fde;		/* an FDE's program: advances count */
};

/* reg's rule, if it is one we keep. */
static void
set_rule(struct fold_cfi_row *row, uint64_t reg, int how, int64_t off)
{
	struct fold_cfi_rule *u;

	if (reg >= FOLD_CFI_NREGS)
		return;
	u = &row->r[reg];
	memset(u, 0, sizeof(*u));
	u->how = (uint8_t)how;
	u->off = off;
}

/* A register operand: at most 16 bits (problem set otherwise). */
static int
reg16(struct run *x, uint64_t reg)
{
	if (reg > UINT16_MAX)
		return bad(x->c, "CFA register number too large");
	return 0;
}

/* n times the data alignment factor. */
static int64_t
factored(const struct run *x, uint64_t n)
{
	return s64(n * (uint64_t)x->ci->daf);
}

/* The location moves to to (>= the current one): 1 when to is past pc,
 * where the program stops with the row for pc. */
static int
advance(struct run *x, uint64_t to)
{
	struct fold_cfi_row *row = x->row;

	if (!x->fde)
		return 0;
	if (to > x->pc) {
		row->next = to < row->end ? to : row->end;
		return 1;
	}
	row->loc = to;
	return 0;
}

static int
advance_by(struct run *x, uint64_t delta)
{
	uint64_t d = mulsat(delta, x->ci->caf), loc = x->row->loc;

	return advance(x, d > UINT64_MAX - loc ? UINT64_MAX : loc + d);
}

/* A block operand (an expression): its length, then its bytes (NULL,
 * *n 0, when they are not all there: bad is set). */
static const unsigned char *
block(struct rd *r, size_t *n)
{
	uint64_t len = uleb(r);
	const unsigned char *q = take(r, len);

	*n = q != NULL ? (size_t)len : 0;
	return q;
}

/* remember_state, restore_state: of the rules and the CFA, not of the
 * location. */
static int
state(struct run *x, int op)
{
	struct fold_cfi *c = x->c;
	uint64_t loc = x->row->loc;

	if (op == CFA_remember_state) {
		if (c->depth == SAVEMAX)
			return bad(c, "CFA states remembered too deep");
		c->saved[c->depth++] = *x->row;
	} else {
		if (c->depth == 0)
			return bad(c, "CFA state restored but none remembered");
		*x->row = c->saved[--c->depth];
		x->row->loc = loc;
	}
	return 0;
}

/* The CFA rules: def_cfa (_sf, _register, _offset, _offset_sf,
 * _expression). */
static int
def_cfa(struct run *x, struct rd *r, int op)
{
	struct fold_cfi_row *row = x->row;
	uint64_t reg = 0;

	if (op == CFA_def_cfa || op == CFA_def_cfa_sf ||
	    op == CFA_def_cfa_register) {
		if (reg16(x, reg = uleb(r)) != 0)
			return -1;
		row->cfa_isexpr = 0;
		row->cfa_reg = (uint16_t)reg;
	}
	switch (op) {
	case CFA_def_cfa:
	case CFA_def_cfa_offset:
		row->cfa_off = s64(uleb(r));	/* not factored */
		break;
	case CFA_def_cfa_sf:
	case CFA_def_cfa_offset_sf:
		row->cfa_off = factored(x, sleb(r));
		break;
	case CFA_def_cfa_expression:
		row->cfa_isexpr = 1;
		row->cfa_expr = block(r, &row->cfa_exprlen);
		break;
	}
	return 0;
}

/* The register rules of the extended forms. */
static int
reg_rule(struct run *x, struct rd *r, int op)
{
	struct fold_cfi_row *row = x->row;
	const unsigned char *q;
	uint64_t reg = uleb(r), reg2;
	size_t n;

	switch (op) {
	case CFA_offset_extended:
		set_rule(row, reg, FOLD_CFI_OFFSET, factored(x, uleb(r)));
		break;
	case CFA_offset_extended_sf:
		set_rule(row, reg, FOLD_CFI_OFFSET, factored(x, sleb(r)));
		break;
	case CFA_GNU_negative_offset_extended:
		set_rule(row, reg, FOLD_CFI_OFFSET, factored(x, 0 - uleb(r)));
		break;
	case CFA_val_offset:
		set_rule(row, reg, FOLD_CFI_VALOFF, factored(x, uleb(r)));
		break;
	case CFA_val_offset_sf:
		set_rule(row, reg, FOLD_CFI_VALOFF, factored(x, sleb(r)));
		break;
	case CFA_restore_extended:
		if (reg < FOLD_CFI_NREGS)
			row->r[reg] = x->c->init.r[reg];
		break;
	case CFA_undefined:
		set_rule(row, reg, FOLD_CFI_UNDEF, 0);
		break;
	case CFA_same_value:
		set_rule(row, reg, FOLD_CFI_SAME, 0);
		break;
	case CFA_register:
		if (reg16(x, reg2 = uleb(r)) != 0)
			return -1;
		set_rule(row, reg, FOLD_CFI_REG, 0);
		if (reg < FOLD_CFI_NREGS)
			row->r[reg].reg = (uint16_t)reg2;
		break;
	case CFA_expression:
	case CFA_val_expression:
		q = block(r, &n);
		set_rule(row, reg, op == CFA_expression ? FOLD_CFI_EXPR :
		    FOLD_CFI_VALEXPR, 0);
		if (reg < FOLD_CFI_NREGS) {
			row->r[reg].expr = q;
			row->r[reg].exprlen = n;
		}
		break;
	}
	return 0;
}

/* One instruction at r: 0 go on, 1 the row for pc is done, -1 damaged. */
static int
step(struct run *x, struct rd *r)
{
	int op = (int)rdn(r, 1);
	uint64_t to;

	switch (op & 0xc0) {
	case CFA_advance_loc:
		return advance_by(x, (uint64_t)(op & 0x3f));
	case CFA_offset:
		set_rule(x->row, (uint64_t)(op & 0x3f), FOLD_CFI_OFFSET,
		    factored(x, uleb(r)));
		return 0;
	case CFA_restore:
		if ((op & 0x3f) < FOLD_CFI_NREGS)
			x->row->r[op & 0x3f] = x->c->init.r[op & 0x3f];
		return 0;
	}
	switch (op) {
	case CFA_nop:
	case CFA_GNU_window_save:
		return 0;
	case CFA_GNU_args_size:
		(void)uleb(r);
		return 0;
	case CFA_set_loc:
		if (fde_addr(x->c, x->s, r, x->ci, &to) != 0)
			return -1;
		if (x->fde && to < x->row->loc)
			return bad(x->c, "DW_CFA_set_loc going back");
		return advance(x, to);
	case CFA_advance_loc1:
		return advance_by(x, rdn(r, 1));
	case CFA_advance_loc2:
		return advance_by(x, rdn(r, 2));
	case CFA_advance_loc4:
		return advance_by(x, rdn(r, 4));
	case CFA_remember_state:
	case CFA_restore_state:
		return state(x, op);
	case CFA_def_cfa:
	case CFA_def_cfa_sf:
	case CFA_def_cfa_register:
	case CFA_def_cfa_offset:
	case CFA_def_cfa_offset_sf:
	case CFA_def_cfa_expression:
		return def_cfa(x, r, op);
	case CFA_offset_extended:
	case CFA_offset_extended_sf:
	case CFA_GNU_negative_offset_extended:
	case CFA_val_offset:
	case CFA_val_offset_sf:
	case CFA_restore_extended:
	case CFA_undefined:
	case CFA_same_value:
	case CFA_register:
	case CFA_expression:
	case CFA_val_expression:
		return reg_rule(x, r, op);
	}
	return bad(x->c, "CFA instruction unknown");
}

/* Run the program [ins, end) of s: 1 stopped at the row for pc, 0 at
 * its end, -1 damaged. */
static int
run(struct run *x, uint64_t ins, uint64_t end)
{
	struct rd r;
	int k;

	rd_init(&r, x->s->p, ins, end, x->s->addr, x->c->be);
	while (r.pos < r.end) {
		k = step(x, &r);
		if (r.bad)
			return bad(x->c, "CFA instruction cut short");
		if (k != 0)
			return k;
	}
	return 0;
}

/* The row for pc of the FDE at off of s: 1; 0 when that FDE does not
 * cover pc, EMPTY when its range is empty; -1 damaged. */
static int
fde_row(struct fold_cfi *c, const struct sec *s, uint64_t off, uint64_t pc,
    struct fold_cfi_row *row)
{
	struct ent e;
	struct fde f;
	struct run x;
	int k;

	if (get_ent(c, s, off, &e) != 1 || e.iscie)
		return bad(c, "FDE pointer to no FDE");
	if (get_fde(c, s, &e, &f) != 0)
		return -1;
	if (f.start == f.end)
		return EMPTY;
	if (pc < f.start || pc >= f.end)
		return 0;
	memset(row, 0, sizeof(*row));	/* FOLD_CFI_UNSET is 0 */
	row->ra = (uint16_t)f.ci.ra;
	row->signal = f.ci.signal;
	row->start = row->loc = f.start;
	row->end = row->next = f.end;
	c->init = *row;
	c->depth = 0;
	x.c = c;
	x.s = s;
	x.ci = &f.ci;
	x.row = row;
	x.pc = pc;
	x.fde = 0;
	if (run(&x, f.ci.ins, f.ci.end) < 0)
		return -1;
	c->init = *row;
	x.fde = 1;
	if ((k = run(&x, f.ins, f.insend)) < 0)
		return -1;
	if (k == 0)
		row->next = f.end;
	return 1;
}

/* ---- finding the FDE ---- */

static int
ixcmp(const void *a, const void *b)
{
	const struct fde_ix *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The index of s: its FDEs of non-empty range, sorted (once). */
static void
build_index(struct fold_cfi *c, struct sec *s)
{
	struct ent e;
	struct fde f;
	uint64_t off;
	size_t n = 0;

	s->indexed = 1;
	for (off = 0; get_ent(c, s, off, &e) == 1; off = e.end)
		n += !e.iscie;
	if (n == 0)
		return;
	s->ix = xmalloc(n * sizeof(*s->ix));
	for (off = 0; s->nix < n && get_ent(c, s, off, &e) == 1; off = e.end)
		if (!e.iscie && get_fde(c, s, &e, &f) == 0 && f.end > f.start) {
			s->ix[s->nix].start = f.start;
			s->ix[s->nix].end = f.end;
			s->ix[s->nix++].off = e.off;
		}
	qsort(s->ix, s->nix, sizeof(*s->ix), ixcmp);
}

/* The index entry of the FDE with the last start <= pc, if it covers
 * pc: 1 and *off, else 0. */
static int
ix_search(const struct sec *s, uint64_t pc, uint64_t *off)
{
	size_t lo = 0, hi = s->nix, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->ix[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= s->ix[lo - 1].end)
		return 0;
	*off = s->ix[lo - 1].off;
	return 1;
}

/* Entry i of .eh_frame_hdr's table: initial location, FDE address. */
static void
tab_entry(const struct fold_cfi *c, uint64_t i, uint64_t *loc, uint64_t *fde)
{
	struct rd r;

	rd_init(&r, c->hdr, c->tab + 8 * i, c->hdrsize, c->hdraddr, c->be);
	*loc = (c->hdraddr + sext(rdn(&r, 4), 4)) & amask(c->asize);
	*fde = (c->hdraddr + sext(rdn(&r, 4), 4)) & amask(c->asize);
}

/* .eh_frame_hdr's table can be used: version 1, datarel|sdata4 entries,
 * a pointer to the .eh_frame given, entries sorted. */
static int
hdr_check(struct fold_cfi *c)
{
	struct rd r;
	uint64_t ptr, n, i, prev, loc, fde;

	if (c->hdr == NULL || c->eh.p == NULL || c->hdrsize < 4 ||
	    c->hdr[0] != 1 || c->hdr[3] != (PE_DATAREL | PE_SDATA4))
		return 0;
	rd_init(&r, c->hdr, 4, c->hdrsize, c->hdraddr, c->be);
	if (rd_ptr(&r, c->hdr[1], c->asize, c->hdraddr, 0, &ptr) != 0 ||
	    rd_ptr(&r, c->hdr[2], c->asize, c->hdraddr, 0, &n) != 0)
		return 0;
	if (ptr != c->eh.addr) {
		bad(c, ".eh_frame_hdr not for this .eh_frame");
		return 0;
	}
	if (n > (r.end - r.pos) / 8) {
		bad(c, ".eh_frame_hdr table past its end");
		return 0;
	}
	c->tab = r.pos;
	c->ntab = n;
	for (i = 0, prev = 0; i < n; i++, prev = loc) {
		tab_entry(c, i, &loc, &fde);
		if (loc < prev) {
			bad(c, ".eh_frame_hdr table not sorted");
			return 0;
		}
	}
	return 1;
}

/* Through .eh_frame_hdr: the row for pc from the FDE with the last start
 * <= pc, as fde_row() gives it. */
static int
hdr_find(struct fold_cfi *c, uint64_t pc, struct fold_cfi_row *row)
{
	uint64_t lo = 0, hi = c->ntab, mid, loc, fde, off;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		tab_entry(c, mid, &loc, &fde);
		if (loc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	tab_entry(c, lo - 1, &loc, &fde);
	off = fde - c->eh.addr;
	if (fde < c->eh.addr || off >= c->eh.size)
		return bad(c, ".eh_frame_hdr entry outside .eh_frame");
	return fde_row(c, &c->eh, off, pc, row);
}

/*
 * The row for pc from s: 1, 0 (no FDE of s covers pc), -1 damaged.  An
 * empty FDE that .eh_frame_hdr's table gives may stand for others at its
 * start (lld keeps one entry of those): the index is searched then.
 */
static int
find_in(struct fold_cfi *c, struct sec *s, uint64_t pc,
    struct fold_cfi_row *row)
{
	uint64_t off;
	int k;

	if (s->p == NULL)
		return 0;
	if (s->eh && c->hdrok == 0)
		c->hdrok = hdr_check(c) ? 1 : -1;
	if (s->eh && c->hdrok > 0 && (k = hdr_find(c, pc, row)) != EMPTY)
		return k;
	if (!s->indexed)
		build_index(c, s);
	if (!ix_search(s, pc, &off))
		return 0;
	return fde_row(c, s, off, pc, row);
}

static void
sec_init(struct fold_cfi *c, struct sec *s, const struct fold_elf_sec *e,
    int eh)
{
	s->eh = eh;
	if (e == NULL || e->p == NULL || e->size == 0)
		return;
	if (e->flags & SHF_COMPRESSED) {
		bad(c, eh ? "compressed .eh_frame not read" :
		    "compressed .debug_frame not read");
		return;
	}
	s->p = e->p;
	s->size = e->size;
	s->addr = e->addr;
}

struct fold_cfi *
fold_cfi_new(const struct fold_elf_sec *eh_frame,
    const struct fold_elf_sec *eh_frame_hdr,
    const struct fold_elf_sec *debug_frame, int is64, int be)
{
	struct fold_cfi *c = xcalloc(1, sizeof(*c));

	c->asize = is64 ? 8 : 4;
	c->be = be != 0;
	sec_init(c, &c->eh, eh_frame, 1);
	sec_init(c, &c->dbg, debug_frame, 0);
	if (eh_frame_hdr != NULL && eh_frame_hdr->p != NULL &&
	    !(eh_frame_hdr->flags & SHF_COMPRESSED)) {
		c->hdr = eh_frame_hdr->p;
		c->hdrsize = eh_frame_hdr->size;
		c->hdraddr = eh_frame_hdr->addr;
	}
	return c;
}

int
fold_cfi_find(struct fold_cfi *c, uint64_t pc, struct fold_cfi_row *row)
{
	if (find_in(c, &c->eh, pc, row) == 1)
		return 1;
	return find_in(c, &c->dbg, pc, row) == 1;
}

int
fold_cfi_fde(struct fold_cfi *c, int dbg, size_t i, uint64_t *start,
    uint64_t *end)
{
	struct sec *s = dbg ? &c->dbg : &c->eh;

	if (s->p != NULL && !s->indexed)
		build_index(c, s);
	if (i >= s->nix)
		return 0;
	*start = s->ix[i].start;
	*end = s->ix[i].end;
	return 1;
}

const char *
fold_cfi_problem(const struct fold_cfi *c)
{
	return c->problem;
}

void
fold_cfi_free(struct fold_cfi *c)
{
	if (c == NULL)
		return;
	free(c->eh.ix);
	free(c->dbg.ix);
	free(c);
}

/* ---- DWARF expressions ---- */

/* An evaluation: the stack, the width of its values. */
struct ev {
	uint64_t st[STACKMAX];
	size_t n;
	uint64_t mask;		/* all ones of the address size */
	int asize, be;
};

static int
push(struct ev *e, uint64_t v)
{
	if (e->n == STACKMAX)
		return -1;
	e->st[e->n++] = v & e->mask;
	return 0;
}

/* A value as signed, of the address size. */
static int64_t
sval(const struct ev *e, uint64_t v)
{
	return s64(e->asize == 4 ? sext(v, 4) : v);
}

/* The two operands a (second) and b (top) of a binary operation. */
static uint64_t
binop(const struct ev *e, int op, uint64_t a, uint64_t b, int *fail)
{
	unsigned bits = 8 * (unsigned)e->asize;
	int64_t sa = sval(e, a), sb = sval(e, b);

	switch (op) {
	case OP_and: return a & b;
	case OP_or: return a | b;
	case OP_xor: return a ^ b;
	case OP_plus: return a + b;
	case OP_minus: return a - b;
	case OP_mul: return a * b;
	case OP_div:
		if (b == 0)
			return (uint64_t)(*fail = 1);
		if (sb == -1)	/* INT_MIN / -1 wraps */
			return 0 - a;
		return (uint64_t)(sa / sb);
	case OP_mod:
		if (b == 0)
			return (uint64_t)(*fail = 1);
		return a % b;
	case OP_shl: return b >= bits ? 0 : a << b;
	case OP_shr: return b >= bits ? 0 : a >> b;
	case OP_shra:
		if (sa >= 0)
			return b >= bits ? 0 : (uint64_t)sa >> b;
		return b >= bits ? UINT64_MAX : ~(~(uint64_t)sa >> b);
	case OP_eq: return sa == sb;
	case OP_ne: return sa != sb;
	case OP_ge: return sa >= sb;
	case OP_gt: return sa > sb;
	case OP_le: return sa <= sb;
	case OP_lt: return sa < sb;
	}
	return (uint64_t)(*fail = 1);
}

/* The register's value, if valid: 0, else -1. */
static int
regval(const uint64_t *regs, uint64_t valid, uint64_t reg, uint64_t *v)
{
	if (reg >= 64 || !(valid >> reg & 1))
		return -1;
	*v = regs[reg];
	return 0;
}

/* n (1..8) bytes at addr through mem. */
static int
deref(const struct ev *e, int (*mem)(void *, uint64_t, uint64_t *),
    void *arg, uint64_t addr, uint64_t n, uint64_t *v)
{
	uint64_t w;

	if (n == 0 || n > (uint64_t)e->asize || mem == NULL ||
	    mem(arg, addr, &w) != 0)
		return -1;
	if (n < 8)
		w = e->be ? w >> (64 - 8 * n) :
		    w & (((uint64_t)1 << 8 * n) - 1);
	*v = w;
	return 0;
}

/* A constant operand of op (const*, addr). */
static uint64_t
constant(const struct ev *e, struct rd *r, int op)
{
	switch (op) {
	case OP_addr: return rdn(r, e->asize);
	case OP_const1u: return rdn(r, 1);
	case OP_const1s: return sext(rdn(r, 1), 1);
	case OP_const2u: return rdn(r, 2);
	case OP_const2s: return sext(rdn(r, 2), 2);
	case OP_const4u: return rdn(r, 4);
	case OP_const4s: return sext(rdn(r, 4), 4);
	case OP_const8u:
	case OP_const8s: return rdn(r, 8);
	case OP_constu: return uleb(r);
	case OP_consts: return sleb(r);
	}
	return 0;
}

/* The stack operations: dup, drop, over, pick, swap, rot. */
static int
stackop(struct ev *e, struct rd *r, int op)
{
	uint64_t t, i;

	switch (op) {
	case OP_dup:
		return e->n < 1 ? -1 : push(e, e->st[e->n - 1]);
	case OP_drop:
		return e->n < 1 ? -1 : (e->n--, 0);
	case OP_over:
		return e->n < 2 ? -1 : push(e, e->st[e->n - 2]);
	case OP_pick:
		i = rdn(r, 1);
		return i >= e->n ? -1 : push(e, e->st[e->n - 1 - i]);
	case OP_swap:
		if (e->n < 2)
			return -1;
		t = e->st[e->n - 1];
		e->st[e->n - 1] = e->st[e->n - 2];
		e->st[e->n - 2] = t;
		return 0;
	case OP_rot:	/* top becomes third, second top, third second */
		if (e->n < 3)
			return -1;
		t = e->st[e->n - 1];
		e->st[e->n - 1] = e->st[e->n - 2];
		e->st[e->n - 2] = e->st[e->n - 3];
		e->st[e->n - 3] = t;
		return 0;
	}
	return -1;
}

/* A branch by the 2-byte offset at r (taken: to pos + offset, which
 * must be inside the expression or its end). */
static int
branch(struct rd *r, int taken)
{
	int64_t d = s64(sext(rdn(r, 2), 2));

	if (r->bad || !taken)
		return r->bad ? -1 : 0;
	if (d < 0 ? (uint64_t)-d > r->pos : (uint64_t)d > r->end - r->pos)
		return -1;
	r->pos = (uint64_t)((int64_t)r->pos + d);
	return 0;
}

int
fold_cfi_eval_as(int is64, int be, const unsigned char *x, size_t n,
    const uint64_t *regs, uint64_t valid,
    int (*mem)(void *arg, uint64_t addr, uint64_t *val), void *arg,
    int push1, uint64_t v, uint64_t *out)
{
	struct ev e;
	struct rd r;
	uint64_t a, b;
	int op, steps, fail = 0;

	e.n = 0;
	e.asize = is64 ? 8 : 4;
	e.be = be != 0;
	e.mask = amask(e.asize);
	if (push1)
		(void)push(&e, v);
	rd_init(&r, x, 0, x != NULL ? n : 0, 0, e.be);
	for (steps = 0; r.pos < r.end; steps++) {
		if (steps == EVALMAX)
			return -1;
		op = (int)rdn(&r, 1);
		if (op >= OP_lit0 && op <= OP_lit31) {
			fail = push(&e, (uint64_t)(op - OP_lit0));
		} else if (op >= OP_reg0 && op <= OP_reg31) {
			fail = regval(regs, valid, (uint64_t)(op - OP_reg0),
			    &a) || push(&e, a);
		} else if (op >= OP_breg0 && op <= OP_breg31) {
			b = sleb(&r);
			fail = regval(regs, valid, (uint64_t)(op - OP_breg0),
			    &a) || push(&e, a + b);
		} else switch (op) {
		case OP_regx:
			fail = regval(regs, valid, uleb(&r), &a) ||
			    push(&e, a);
			break;
		case OP_bregx:
			a = uleb(&r);
			b = sleb(&r);
			fail = regval(regs, valid, a, &a) || push(&e, a + b);
			break;
		case OP_addr: case OP_const1u: case OP_const1s:
		case OP_const2u: case OP_const2s: case OP_const4u:
		case OP_const4s: case OP_const8u: case OP_const8s:
		case OP_constu: case OP_consts:
			fail = push(&e, constant(&e, &r, op));
			break;
		case OP_dup: case OP_drop: case OP_over: case OP_pick:
		case OP_swap: case OP_rot:
			fail = stackop(&e, &r, op);
			break;
		case OP_deref:
		case OP_deref_size:
			b = op == OP_deref ? (uint64_t)e.asize : rdn(&r, 1);
			fail = e.n < 1 || deref(&e, mem, arg, e.st[e.n - 1],
			    b, &a);
			if (!fail)
				e.st[e.n - 1] = a & e.mask;
			break;
		case OP_abs:
			if ((fail = e.n < 1) == 0 &&
			    sval(&e, e.st[e.n - 1]) < 0)
				e.st[e.n - 1] = (0 - e.st[e.n - 1]) & e.mask;
			break;
		case OP_neg:
			if ((fail = e.n < 1) == 0)
				e.st[e.n - 1] = (0 - e.st[e.n - 1]) & e.mask;
			break;
		case OP_not:
			if ((fail = e.n < 1) == 0)
				e.st[e.n - 1] = ~e.st[e.n - 1] & e.mask;
			break;
		case OP_plus_uconst:
			a = uleb(&r);
			if ((fail = e.n < 1) == 0)
				e.st[e.n - 1] = (e.st[e.n - 1] + a) & e.mask;
			break;
		case OP_and: case OP_div: case OP_minus: case OP_mod:
		case OP_mul: case OP_or: case OP_plus: case OP_shl:
		case OP_shr: case OP_shra: case OP_xor: case OP_eq:
		case OP_ge: case OP_gt: case OP_le: case OP_lt: case OP_ne:
			if ((fail = e.n < 2) != 0)
				break;
			a = binop(&e, op, e.st[e.n - 2], e.st[e.n - 1], &fail);
			e.n--;
			e.st[e.n - 1] = a & e.mask;
			break;
		case OP_skip:
			fail = branch(&r, 1);
			break;
		case OP_bra:
			if ((fail = e.n < 1) == 0)
				fail = branch(&r, e.st[--e.n] != 0);
			break;
		case OP_nop:
			break;
		default:
			fail = 1;
		}
		if (fail || r.bad)
			return -1;
	}
	if (e.n == 0)
		return -1;
	*out = e.st[e.n - 1];
	return 0;
}

int
fold_cfi_eval(const unsigned char *x, size_t n, const uint64_t *regs,
    uint64_t valid, int (*mem)(void *arg, uint64_t addr, uint64_t *val),
    void *arg, int push1, uint64_t v, uint64_t *out)
{
	return fold_cfi_eval_as(1, 0, x, n, regs, valid, mem, arg, push1, v,
	    out);
}
