/*
 * unwind.c - the user stack of a --call-graph dwarf sample, walked as
 * perf 6.1 walks it with libunwind: from the sample's user registers, over
 * the copy of the stack the sample holds, with the CFI of the object
 * mapped at each address (symbols/cfi.c).
 *
 * What perf does, and so what this does:
 *  - The first frame is the sample's IP.  Each step finds the CFI row for
 *    the frame's address (less one, for a frame that was left by a call,
 *    so that the row is the call's), computes the CFA and the caller's
 *    registers, and takes the caller's address from the return address
 *    column.  The caller's stack pointer is the CFA.
 *  - A register's value is read only when needed (as libunwind keeps
 *    locations): a saved register whose slot cannot be read stops the
 *    walk only if that register is used.
 *  - Memory is the stack copy: [sp, sp + size), of which perf reads no
 *    word that ends at or past its end; other addresses are read from the
 *    file mapped there (the caller's filemem callback).  An address in a
 *    map with nothing to read there (the stack beyond the copy, an
 *    anonymous map) reads as 0, as perf's access_mem() has it (its error
 *    is positive, which libunwind takes for success): so a stack copy too
 *    small ends the walk with a caller at 0, printed as -1 ([unknown]).
 *    An address in no map is an error: the walk ends there.
 *  - The walk ends where libunwind's does: an address in no map or in an
 *    object without CFI sections, the return address undefined or its
 *    slot unreadable, an undefined frame pointer rule after a step, an
 *    address and CFA that did not change, or max frames.  Where an
 *    object has CFI but none for the address, libunwind's frame-pointer
 *    guess is made (a PLT entry; else [rbp + 8] when rbp is above the CFA
 *    by at most 16 KiB).
 *  - Callers are reported at their return address minus one, the signal
 *    trampoline too (a handler's caller prints as [unknown] at
 *    __restore_rt - 1, in libc), but for the frame a signal interrupted:
 *    perf asks libunwind whether the step just made went through a signal
 *    frame (a CIE with 'S'), and then leaves the address as it is; the row
 *    of that frame is looked up at that address, too.
 *
 * x86-64 only for now: the registers are perf's PERF_REG_X86_* numbers in
 * the sample, DWARF's numbers in the CFI (fold_unwind_regs_x86_64).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "symbols/symbols.h"
#include "perf/perf.h"

/* DWARF register numbers of x86-64 */
enum { X_RBP = 6, X_RSP = 7, X_RIP = 16, X_NREGS = 17 };

/* perf's PERF_REG_X86_* number of each DWARF register 0..16 */
static const unsigned char x86_perfreg[X_NREGS] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8
};

/*
 * The rows found, by object and address: the same return addresses come
 * back sample after sample, and a row costs a search and a run of the
 * CIE's and FDE's programs.  Direct-mapped, and small: a row of the usual
 * kind (CFA = rsp or a register + offset, registers saved at CFA +
 * offset, or undefined) is kept as its few rules (struct crow, 96
 * bytes: up to 8 rules, for the six registers a function saves on
 * x86-64 and its return address: with 6, Rust's -O3 functions, which
 * save all six, were kept whole and re-read from their FDEs), stepped
 * with in place; another row (expressions, a register in another) is
 * kept whole in a second, smaller table.  A row's
 * expressions point into the object's sections, which live as long as
 * its fold_cfi.
 */
#define UC_SLOTS 8192
#define UC_FULL 256
#define UC_RULES 8
enum { C_NONE, C_SIMPLE, C_FULL };
struct crow {
	const struct fold_cfi *cfi;	/* NULL: empty */
	uint64_t pc;
	int32_t cfa_off;
	unsigned char kind;	/* C_NONE: no row (guess), C_SIMPLE, C_FULL */
	unsigned char cfa_reg, ra, signal, n;
	struct {
		unsigned char reg, how;	/* FOLD_CFI_UNDEF, _OFFSET, _VALOFF */
		int32_t off;
	} r[UC_RULES];
};
struct frow {
	const struct fold_cfi *cfi;
	uint64_t pc;
	struct fold_cfi_row row;
};
struct fold_unwind_cache {
	struct crow *e;		/* UC_SLOTS, allocated at the first use */
	struct frow *f;		/* UC_FULL, at the first row kept whole */
	uint64_t reach;		/* fold_unwind_reach() */
};

struct fold_unwind_cache *
fold_unwind_cache_new(void)
{
	return xcalloc(1, sizeof(struct fold_unwind_cache));
}

void
fold_unwind_cache_free(struct fold_unwind_cache *c)
{
	if (c != NULL) {
		free(c->e);
		free(c->f);
	}
	free(c);
}

uint64_t
fold_unwind_reach(const struct fold_unwind_cache *c)
{
	return c->reach;
}

/* Row r kept as e: 1 if it is of the usual kind (see above). */
static int
simple_row(const struct fold_cfi_row *row, struct crow *e)
{
	int r;

	if (row->cfa_isexpr || row->cfa_reg >= X_NREGS || row->ra >= X_NREGS ||
	    row->cfa_off != (int32_t)row->cfa_off)
		return 0;
	e->cfa_reg = (unsigned char)row->cfa_reg;
	e->cfa_off = (int32_t)row->cfa_off;
	e->ra = (unsigned char)row->ra;
	e->signal = row->signal != 0;
	e->n = 0;
	for (r = 0; r < X_NREGS; r++) {
		const struct fold_cfi_rule *ru = &row->r[r];

		switch (ru->how) {
		case FOLD_CFI_UNSET:
		case FOLD_CFI_SAME:
			continue;
		case FOLD_CFI_UNDEF:
		case FOLD_CFI_OFFSET:
		case FOLD_CFI_VALOFF:
			if (e->n == UC_RULES || ru->off != (int32_t)ru->off)
				return 0;
			e->r[e->n].reg = (unsigned char)r;
			e->r[e->n].how = ru->how;
			e->r[e->n++].off = (int32_t)ru->off;
			continue;
		default:
			return 0;
		}
	}
	return 1;
}

/*
 * The row for pc in cfi: *e, its kind C_NONE (no row), C_SIMPLE (in *e)
 * or C_FULL (*full).  Without a cache, every row is C_FULL: the walk
 * without one is the reference the kept rows are checked against
 * (tests/fuzz/fuzz_unwind.c).
 */
static int
find_row(struct fold_unwind_cache *c, struct fold_cfi *cfi, uint64_t pc,
    const struct crow **ep, const struct fold_cfi_row **full,
    struct fold_cfi_row *tmp, struct crow *etmp)
{
	struct crow *e;
	struct frow *f;
	uint64_t h = (pc ^ (uint64_t)(uintptr_t)cfi) * 0x9e3779b97f4a7c15ULL;

	if (c == NULL) {	/* the whole row, stepped with as it is */
		*ep = etmp;
		*full = tmp;
		return fold_cfi_find(cfi, pc, tmp) ? C_FULL : C_NONE;
	}
	if (c->e == NULL)
		c->e = xcalloc(UC_SLOTS, sizeof(*c->e));
	e = &c->e[h >> 51 & (UC_SLOTS - 1)];
	if (e->cfi != cfi || e->pc != pc) {
		e->cfi = cfi;
		e->pc = pc;
		e->kind = !fold_cfi_find(cfi, pc, tmp) ? C_NONE :
		    simple_row(tmp, e) ? C_SIMPLE : C_FULL;
		if (e->kind == C_FULL) {
			if (c->f == NULL)
				c->f = xcalloc(UC_FULL, sizeof(*c->f));
			f = &c->f[h >> 56 & (UC_FULL - 1)];
			f->cfi = cfi;
			f->pc = pc;
			f->row = *tmp;
			*full = &f->row;
			*ep = e;
			return e->kind;
		}
	}
	*ep = e;
	if (e->kind == C_FULL) {
		f = c->f != NULL ? &c->f[h >> 56 & (UC_FULL - 1)] : NULL;
		if (f == NULL || f->cfi != cfi || f->pc != pc) {
			if (!fold_cfi_find(cfi, pc, tmp)) {
				e->kind = C_NONE;	/* cannot be: as found */
				return C_NONE;
			}
			if (f != NULL) {
				f->cfi = cfi;
				f->pc = pc;
				f->row = *tmp;
				*full = &f->row;
			} else
				*full = tmp;
			return C_FULL;
		}
		*full = &f->row;
	}
	return e->kind;
}

/* Where a register of a frame is (libunwind's locations). */
enum { L_NULL, L_VAL, L_MEM, L_SAMPLE };
struct loc {
	unsigned char kind;
	uint64_t v;		/* L_VAL: the value; L_MEM: the address;
				   L_SAMPLE: the perf register number */
};

struct walk {
	const struct fold_unwind_in *in;
	struct loc loc[X_NREGS];
	uint64_t cfa, ip;
	int use_prev;		/* look up ip - 1 */
	int sig;		/* the last step was through a signal frame */
};

/* perf's access_mem(): the stack copy, else the mapped file. */
static int
mem(void *arg, uint64_t addr, uint64_t *val)
{
	const struct fold_unwind_in *in = arg;

	if (addr + 8 < addr)
		return -1;
	if (addr >= in->sp && addr + 8 < in->sp + in->size) {
		/* x86-64: little-endian */
		*val = fold_getu(in->stack + (addr - in->sp), 8, 0);
		return 0;
	}
	switch (in->filemem(in->arg, addr, val)) {
	case 0:
		return 0;
	case 1:			/* a map, but nothing to read there */
		*val = 0;
		return 0;
	}
	return -1;
}

static int
get(struct walk *w, const struct loc *l, uint64_t *v)
{
	switch (l->kind) {
	case L_VAL:
		*v = l->v;
		return 0;
	case L_MEM:
		return mem((void *)w->in, l->v, v);
	case L_SAMPLE:
		if (!(w->in->mask >> l->v & 1))
			return -1;
		*v = w->in->regs[l->v];
		return 0;
	}
	return -1;
}

/* The values of the registers that are known, for expressions. */
static uint64_t
known(struct walk *w, uint64_t *regs)
{
	uint64_t valid = 0;
	int r;

	for (r = 0; r < X_NREGS; r++)
		if (r == X_RSP) {
			regs[r] = w->cfa;
			valid |= 1ULL << r;
		} else if (get(w, &w->loc[r], &regs[r]) == 0)
			valid |= 1ULL << r;
	return valid;
}

static int
eval(struct walk *w, const unsigned char *x, size_t n, int push, uint64_t v,
    uint64_t *out)
{
	uint64_t regs[X_NREGS], valid;

	valid = known(w, regs);
	return fold_cfi_eval(x, n, regs, valid, mem, (void *)w->in, push, v,
	    out);
}

/*
 * One step with a CFI row: 1 stepped; 0 the end (return address
 * undefined, or the frame pointer's rule undefined); -1 an error.
 */
static int
step_cfi(struct walk *w, const struct fold_cfi_row *row)
{
	struct loc nl[X_NREGS];
	uint64_t cfa, v, prev_ip = w->ip, prev_cfa = w->cfa;
	const struct fold_cfi_rule *ru;
	int r;

	if (row->cfa_isexpr) {
		if (eval(w, row->cfa_expr, row->cfa_exprlen, 0, 0, &cfa) != 0)
			return -1;
	} else {
		if (row->cfa_reg >= X_NREGS)
			return -1;
		if (row->cfa_reg == X_RSP)
			v = w->cfa;	/* the stack pointer is the CFA */
		else if (get(w, &w->loc[row->cfa_reg], &v) != 0)
			return -1;
		cfa = v + (uint64_t)row->cfa_off;
	}
	for (r = 0; r < X_NREGS; r++) {
		ru = &row->r[r];
		nl[r] = w->loc[r];
		switch (ru->how) {
		case FOLD_CFI_UNDEF:
			nl[r].kind = L_NULL;
			break;
		case FOLD_CFI_UNSET:	/* libunwind: the same value */
		case FOLD_CFI_SAME:
			break;
		case FOLD_CFI_OFFSET:
			nl[r].kind = L_MEM;
			nl[r].v = cfa + (uint64_t)ru->off;
			break;
		case FOLD_CFI_VALOFF:
			nl[r].kind = L_VAL;
			nl[r].v = cfa + (uint64_t)ru->off;
			break;
		case FOLD_CFI_REG:
			if (ru->reg >= X_NREGS)
				return -1;
			nl[r] = w->loc[ru->reg];
			if (ru->reg == X_RSP) {
				nl[r].kind = L_VAL;
				nl[r].v = w->cfa;
			}
			break;
		case FOLD_CFI_EXPR:
		case FOLD_CFI_VALEXPR:
			if (eval(w, ru->expr, ru->exprlen, 1, cfa, &v) != 0)
				return -1;
			nl[r].kind = ru->how == FOLD_CFI_EXPR ? L_MEM : L_VAL;
			nl[r].v = v;
			break;
		default:
			return -1;
		}
	}
	memcpy(w->loc, nl, sizeof(nl));
	w->cfa = cfa;
	if (row->ra >= X_NREGS || w->loc[row->ra].kind == L_NULL) {
		w->ip = 0;
		return 0;
	}
	if (get(w, &w->loc[row->ra], &w->ip) != 0)
		return -1;
	if (w->ip == prev_ip && w->cfa == prev_cfa)
		return -1;
	w->use_prev = !row->signal;
	w->sig = row->signal;
	if (w->loc[X_RBP].kind == L_NULL) {
		w->ip = 0;
		return 0;
	}
	return 1;		/* even for a caller at 0 (a slot read as 0) */
}

/* step_cfi() for a row of the usual kind: its rules set in place. */
static int
step_simple(struct walk *w, const struct crow *e)
{
	uint64_t cfa, v, prev_ip = w->ip, prev_cfa = w->cfa;
	unsigned i;

	if (e->cfa_reg == X_RSP)
		v = w->cfa;
	else if (get(w, &w->loc[e->cfa_reg], &v) != 0)
		return -1;
	cfa = v + (uint64_t)(int64_t)e->cfa_off;
	for (i = 0; i < e->n; i++) {
		struct loc *l = &w->loc[e->r[i].reg];

		if (e->r[i].how == FOLD_CFI_UNDEF)
			l->kind = L_NULL;
		else {
			l->kind = e->r[i].how == FOLD_CFI_OFFSET ? L_MEM : L_VAL;
			l->v = cfa + (uint64_t)(int64_t)e->r[i].off;
		}
	}
	w->cfa = cfa;
	if (w->loc[e->ra].kind == L_NULL) {
		w->ip = 0;
		return 0;
	}
	if (get(w, &w->loc[e->ra], &w->ip) != 0)
		return -1;
	if (w->ip == prev_ip && w->cfa == prev_cfa)
		return -1;
	w->use_prev = !e->signal;
	w->sig = e->signal;
	if (w->loc[X_RBP].kind == L_NULL) {
		w->ip = 0;
		return 0;
	}
	return 1;
}

/* A PLT entry: jmp *x(%rip); push $n; jmp ... */
static int
is_plt(struct walk *w, uint64_t ip)
{
	uint64_t w0, w1;

	if (mem((void *)w->in, ip, &w0) != 0 ||
	    mem((void *)w->in, ip + 8, &w1) != 0)
		return 0;
	return (w0 & 0xffff) == 0x25ff && (w0 >> 48 & 0xff) == 0x68 &&
	    (w1 >> 24 & 0xff) == 0xe9;
}

/* libunwind's guess where an object has CFI but none for the address. */
static int
step_guess(struct walk *w)
{
	uint64_t prev_ip = w->ip, prev_cfa = w->cfa, rbp, rbp1, x;
	struct loc rbpl, rspl, ripl;
	int r;

	w->sig = 0;
	if (is_plt(w, w->ip)) {
		w->loc[X_RIP].kind = L_MEM;
		w->loc[X_RIP].v = w->cfa;
		w->cfa += 8;
	} else if (w->loc[X_RBP].kind == L_NULL) {
		for (r = 0; r < X_NREGS; r++)
			w->loc[r].kind = L_NULL;
	} else {
		if (get(w, &w->loc[X_RBP], &rbp) != 0)
			return -1;
		rbpl.kind = L_MEM;
		rbpl.v = rbp;
		rspl.kind = L_NULL;
		ripl.kind = L_MEM;
		ripl.v = rbp + 8;
		if (rbp == 0 && mem((void *)w->in, prev_ip, &x) == 0) {
			rbpl.kind = L_NULL;
			ripl.kind = L_NULL;
		} else if (mem((void *)w->in, rbp, &rbp1) != 0 ||
		    rbp < w->cfa || rbp - w->cfa > 0x4000) {
			rbpl.kind = L_NULL;
			ripl.kind = L_NULL;
			w->cfa += 16;
		} else
			w->cfa += 16;
		for (r = 0; r < X_NREGS; r++)
			w->loc[r].kind = L_NULL;
		w->loc[X_RBP] = rbpl;
		w->loc[X_RSP] = rspl;
		w->loc[X_RIP] = ripl;
		w->use_prev = 1;
	}
	if (w->loc[X_RBP].kind == L_NULL)
		return 0;
	if (w->loc[X_RIP].kind == L_NULL) {
		w->ip = 0;
		return 0;
	}
	if (get(w, &w->loc[X_RIP], &w->ip) != 0)
		return -1;
	if (w->ip == prev_ip && w->cfa == prev_cfa)
		return -1;
	return 1;
}

size_t
fold_unwind_x86_64(const struct fold_unwind_in *in, uint64_t *ips,
    size_t max)
{
	struct walk w;
	struct fold_cfi_row tmp;
	const struct fold_cfi_row *row = NULL;
	const struct crow *e = NULL;
	struct crow etmp;
	struct fold_cfi *cfi;
	uint64_t pc, vaddr, top;
	size_t n = 0;
	int r, ret;

	if (max == 0 || !(in->mask >> 8 & 1))
		return 0;		/* no IP: perf has no user frame */
	w.in = in;		/* every field set here: no memset a sample */
	w.use_prev = 0;
	w.sig = 0;
	for (r = 0; r < X_NREGS; r++) {
		w.loc[r].kind = L_SAMPLE;
		w.loc[r].v = x86_perfreg[r];
	}
	w.ip = in->regs[8];
	w.cfa = in->regs[7];
	top = w.cfa;
	ips[n++] = w.ip;
	while (n < max && (in->mask >> 7 & 1)) {	/* no SP: no step */
		pc = w.ip - (w.use_prev ? 1 : 0);
		if ((cfi = in->find(in->arg, pc, &vaddr)) == NULL)
			break;		/* no map, no CFI sections: perf stops */
		switch (find_row(in->cache, cfi, vaddr, &e, &row, &tmp, &etmp)) {
		case C_SIMPLE:
			ret = step_simple(&w, e);
			break;
		case C_FULL:
			ret = step_cfi(&w, row);
			break;
		default:
			ret = step_guess(&w);
			break;
		}
		if (w.cfa > top)
			top = w.cfa;
		if (ret <= 0)
			break;
		ips[n++] = w.sig ? w.ip : w.ip - 1;
	}
	if (in->cache != NULL) {	/* the most of late, slowly let go */
		uint64_t used = top - in->sp < in->size ? top - in->sp :
		    in->size;

		in->cache->reach -= in->cache->reach / 64;
		if (used > in->cache->reach)
			in->cache->reach = used;
	}
	return n;
}
