/* fuzz_cfi - the CFI reader and interpreter over any bytes.  The input:
 *
 *	0	flags: bit 0 ELF64, bit 1 big-endian, bit 2 no .eh_frame_hdr,
 *		bit 3 .debug_frame marked compressed
 *	4	.eh_frame's address (8 bytes, little-endian)
 *	12	.eh_frame_hdr's address
 *	20	.eh_frame's size (4 bytes), then 24 .eh_frame_hdr's size
 *	28	.eh_frame, .eh_frame_hdr, then .debug_frame: the rest
 *
 * Each section is copied to a buffer of its own size (a read past it is
 * seen).  Looked up: the starts, middles and ends of the FDEs the index
 * lists, addresses taken from the data and a few fixed ones; a row found
 * must hold pc, within its FDE, its expressions inside the sections; they
 * are evaluated with registers set and a fake memory.  Then the same with
 * the index instead of .eh_frame_hdr; and the bytes after the header
 * evaluated as an expression themselves. */
#include "fuzz.h"
#include "symbols/symbols.h"

static struct fold_elf_sec sec[3];

static uint64_t
le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static int
mem(void *arg, uint64_t addr, uint64_t *val)
{
	(void)arg;
	if (addr % 3 == 0)
		return -1;
	*val = addr * 0x9e3779b97f4a7c15ULL;
	return 0;
}

/* [x, x + n) lies inside one of the sections. */
static void
inside(const unsigned char *x, size_t n)
{
	uintptr_t a = (uintptr_t)x, p;
	int i;

	for (i = 0; i < 3; i++) {
		p = (uintptr_t)sec[i].p;
		if (p != 0 && a >= p && n <= sec[i].size &&
		    a - p <= sec[i].size - n)
			return;
	}
	abort();
}

static void
eval(int is64, int be, const unsigned char *x, size_t n, int push)
{
	uint64_t regs[64], v;
	int i;

	if (x == NULL)
		return;
	inside(x, n);
	for (i = 0; i < 64; i++)
		regs[i] = 0x10000 + 8 * (uint64_t)i;
	(void)fold_cfi_eval_as(is64, be, x, n, regs, 0xffffffffffULL, mem,
	    NULL, push, 0x7ff000, &v);
	(void)fold_cfi_eval(x, n, regs, 0x1ff, mem, NULL, push, 8, &v);
}

/* The bytes as an expression (at most 512 of them), in a buffer of
 * their own size. */
static void
raw(const uint8_t *data, size_t size, int is64, int be)
{
	uint64_t regs[64], v;
	unsigned char *x;
	int i;

	size = size < 512 ? size : 512;
	if ((x = malloc(size ? size : 1)) == NULL)
		abort();
	memcpy(x, data, size);
	for (i = 0; i < 64; i++)
		regs[i] = (uint64_t)i << 12 | 0x10;
	(void)fold_cfi_eval_as(is64, be, x, size, regs, 0xffffULL, mem, NULL,
	    0, 0, &v);
	(void)fold_cfi_eval(x, size, regs, ~0ULL, mem, NULL, 1, 0x1000, &v);
	free(x);
}

static void
look(struct fold_cfi *c, uint64_t pc, int is64, int be)
{
	struct fold_cfi_row row;
	int i;

	if (!fold_cfi_find(c, pc, &row))
		return;
	if (row.start > row.loc || row.loc > pc || pc >= row.next ||
	    row.next > row.end)
		abort();
	if (row.cfa_isexpr)
		eval(is64, be, row.cfa_expr, row.cfa_exprlen, 0);
	for (i = 0; i < FOLD_CFI_NREGS; i++)
		if (row.r[i].how == FOLD_CFI_EXPR ||
		    row.r[i].how == FOLD_CFI_VALEXPR)
			eval(is64, be, row.r[i].expr, row.r[i].exprlen, 1);
		else if (row.r[i].how > FOLD_CFI_VALEXPR)
			abort();
}

static void
lookups(const uint8_t *data, size_t size, int nohdr, int is64, int be)
{
	struct fold_cfi *c;
	uint64_t start, end;
	size_t i;
	int d;

	c = fold_cfi_new(&sec[0], nohdr ? NULL : &sec[1], &sec[2], is64, be);
	for (d = 0; d < 2; d++)
		for (i = 0; i < 64; i++) {
			if (!fold_cfi_fde(c, d, i, &start, &end))
				break;
			if (start >= end)
				abort();
			look(c, start, is64, be);
			look(c, start + (end - start) / 2, is64, be);
			look(c, end - 1, is64, be);
			look(c, end, is64, be);
		}
	for (i = 28; i + 8 <= size && i < 28 + 64 * 8; i += 8)
		look(c, le(data + i, is64 ? 8 : 4), is64, be);
	look(c, 0, is64, be);
	look(c, UINT64_MAX, is64, be);
	look(c, sec[0].addr, is64, be);
	(void)fold_cfi_problem(c);
	fold_cfi_free(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t n[3];
	size_t off = 28, i;
	int is64, be;

	fold_init("fuzz");
	if (size < 28)
		return 0;
	is64 = data[0] & 1;
	be = (data[0] & 2) != 0;
	n[0] = le(data + 20, 4);
	n[1] = le(data + 24, 4);
	n[0] = n[0] < size - off ? n[0] : size - off;
	n[1] = n[1] < size - off - n[0] ? n[1] : size - off - n[0];
	n[2] = size - off - n[0] - n[1];
	for (i = 0; i < 3; i++) {
		memset(&sec[i], 0, sizeof(sec[i]));
		if (n[i] == 0)
			continue;
		sec[i].p = malloc(n[i]);
		if (sec[i].p == NULL)
			abort();
		memcpy((unsigned char *)sec[i].p, data + off, n[i]);
		sec[i].size = n[i];
		off += n[i];
	}
	sec[0].addr = le(data + 4, 8);
	sec[1].addr = le(data + 12, 8);
	if (data[0] & 8)
		sec[2].flags = 0x800;	/* SHF_COMPRESSED */
	lookups(data, size, data[0] & 4, is64, be);
	if (sec[1].p != NULL && !(data[0] & 4))
		lookups(data, size, 1, is64, be);
	for (i = 0; i < 3; i++)
		free((void *)sec[i].p);
	raw(data + 28, size - 28, is64, be);
	return 0;
}
