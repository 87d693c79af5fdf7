/*
 * cfidump - the CFI tables libfold's cfi.c reads (a test tool).
 *
 *   cfidump [-H] [-e | -d] FILE [ADDR...]
 *	the rows of every FDE of .eh_frame and of .debug_frame, as
 *	`readelf --debug-dump=frames-interp` prints them; with addresses,
 *	the row of each (found as fold_cfi_find() finds it, "ADDR none"
 *	when there is none).  -e: .eh_frame (and .eh_frame_hdr) only; -d:
 *	.debug_frame only; -H: .eh_frame_hdr not used (the index instead).
 *   cfidump -c FILE ADDR RSP
 *	x86-64: the CFA at ADDR when rsp is RSP (rip is ADDR), evaluated.
 *   cfidump -x [-4] [-B] HEX [REG=VAL...]
 *	evaluate the DWARF expression of bytes HEX with registers REG
 *	(DWARF number, decimal) set to VAL: the value, or "fail".  Memory:
 *	the 8 bytes at an address a in [0x10000, 0x20000) are a ^ 0x5555,
 *	others cannot be read.  -4: a 32-bit object, -B: big-endian.
 *
 * Every FDE is read through fold_cfi_find(): rows from the FDE's start,
 * each next one at the previous one's next; each must be found again at
 * its middle and its last byte.  "signal" follows the range of an FDE
 * whose CIE has 'S'.  Numbers are hex.  A problem
 * fold_cfi_problem() reports goes to stderr ("cfidump: FILE: problem");
 * the exit status is 1 when a row could not be found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"

static int machine, wide = 16;

/* readelf's names of DWARF registers. */
static const char *
regname(unsigned r)
{
	static const char *x86_64[] = {
		"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip"
	};
	static const char *i386[] = {
		"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip",
		"eflags"
	};
	static const char *riscv[] = {
		"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
		"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3",
		"s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
		"t5", "t6"
	};
	static char buf[16];

	if (machine == 62 && r < 17)
		return x86_64[r];
	if (machine == 3 && r < 10)
		return i386[r];
	if (machine == 243 && r < 32)
		return riscv[r];
	if (machine == 62 && r < 33)
		snprintf(buf, sizeof(buf), "xmm%u", r - 17);
	else if (machine == 183 && r < 31)
		snprintf(buf, sizeof(buf), "x%u", r);
	else if (machine == 183 && r == 31)
		return "sp";
	else
		snprintf(buf, sizeof(buf), "r%u", r);
	return buf;
}

static void
print_rule(const struct fold_cfi_rule *u)
{
	char tmp[64];

	switch (u->how) {
	case FOLD_CFI_UNSET:
	case FOLD_CFI_UNDEF: strcpy(tmp, "u"); break;
	case FOLD_CFI_SAME: strcpy(tmp, "s"); break;
	case FOLD_CFI_OFFSET:
		snprintf(tmp, sizeof(tmp), "c%+d", (int)u->off);
		break;
	case FOLD_CFI_VALOFF:
		snprintf(tmp, sizeof(tmp), "v%+d", (int)u->off);
		break;
	case FOLD_CFI_REG:
		snprintf(tmp, sizeof(tmp), "r%u (%s)", u->reg, regname(u->reg));
		break;
	case FOLD_CFI_EXPR: strcpy(tmp, "exp"); break;
	case FOLD_CFI_VALEXPR: strcpy(tmp, "vexp"); break;
	default: strcpy(tmp, "n/a"); break;
	}
	printf("%-5s ", tmp);
}

/* One FDE's rows, as readelf: the columns of the registers with a rule. */
static void
print_table(const struct fold_cfi_row *rows, size_t n)
{
	char tmp[64];
	int used[FOLD_CFI_NREGS] = {0};
	size_t i;
	unsigned r;

	for (i = 0; i < n; i++)
		for (r = 0; r < FOLD_CFI_NREGS; r++)
			used[r] |= rows[i].r[r].how > FOLD_CFI_UNDEF;
	printf("pc=%0*llx..%0*llx%s\n", wide, (unsigned long long)rows[0].start,
	    wide, (unsigned long long)rows[0].end,
	    rows[0].signal ? " signal" : "");
	printf("%-*s CFA      ", wide, "   LOC");
	for (r = 0; r < FOLD_CFI_NREGS; r++)
		if (used[r])
			printf("%-5s ", r == rows[0].ra ? "ra" : regname(r));
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("%0*llx ", wide, (unsigned long long)rows[i].loc);
		if (rows[i].cfa_isexpr)
			strcpy(tmp, "exp");
		else
			snprintf(tmp, sizeof(tmp), "%s%+d",
			    regname(rows[i].cfa_reg), (int)rows[i].cfa_off);
		printf("%-8s ", tmp);
		for (r = 0; r < FOLD_CFI_NREGS; r++)
			if (used[r])
				print_rule(&rows[i].r[r]);
		printf("\n");
	}
	printf("\n");
}

/* Rows a and b are the same. */
static int
same(const struct fold_cfi_row *a, const struct fold_cfi_row *b)
{
	const struct fold_cfi_rule *x, *y;
	unsigned r;

	if (a->cfa_isexpr != b->cfa_isexpr || a->cfa_reg != b->cfa_reg ||
	    a->cfa_off != b->cfa_off || a->cfa_expr != b->cfa_expr ||
	    a->cfa_exprlen != b->cfa_exprlen || a->ra != b->ra ||
	    a->signal != b->signal || a->start != b->start ||
	    a->end != b->end || a->loc != b->loc || a->next != b->next)
		return 0;
	for (r = 0; r < FOLD_CFI_NREGS; r++) {
		x = &a->r[r];
		y = &b->r[r];
		if (x->how != y->how || x->reg != y->reg || x->off != y->off ||
		    x->expr != y->expr || x->exprlen != y->exprlen)
			return 0;
	}
	return 1;
}

/* The row at the middle and the last byte of row is row. */
static int
same_inside(struct fold_cfi *c, const struct fold_cfi_row *row)
{
	struct fold_cfi_row t;
	uint64_t at[2];
	int i;

	at[0] = row->loc + (row->next - row->loc) / 2;
	at[1] = row->next - 1;
	for (i = 0; i < 2; i++)
		if (!fold_cfi_find(c, at[i], &t) || !same(row, &t)) {
			fprintf(stderr, "cfidump: the row at %llx is not the "
			    "row at %llx\n", (unsigned long long)at[i],
			    (unsigned long long)row->loc);
			return 0;
		}
	return 1;
}

/* The rows of the FDE [start, end) through lookups: 0, or -1.  A row
 * found at its start must be found again in its middle and at its last
 * byte. */
static int
dump_fde(struct fold_cfi *c, uint64_t start, uint64_t end)
{
	static struct fold_cfi_row *rows;
	static size_t cap;
	size_t n = 0;
	uint64_t pc = start;

	while (pc < end) {
		fold_grow(&rows, &cap, n + 1, sizeof(*rows));
		if (!fold_cfi_find(c, pc, &rows[n])) {
			fprintf(stderr, "cfidump: no row at %llx\n",
			    (unsigned long long)pc);
			return -1;
		}
		if (rows[n].next <= pc || rows[n].loc != pc ||
		    rows[n].start != start || rows[n].end != end) {
			fprintf(stderr, "cfidump: FDE %llx..%llx: row at %llx "
			    "is [%llx, %llx)\n", (unsigned long long)start,
			    (unsigned long long)end, (unsigned long long)pc,
			    (unsigned long long)rows[n].loc,
			    (unsigned long long)rows[n].next);
			return -1;
		}
		if (!same_inside(c, &rows[n]))
			return -1;
		pc = rows[n++].next;
	}
	if (n > 0)
		print_table(rows, n);
	return 0;
}

static void
section(const char *file, struct fold_elf *e, int dbg, int nohdr,
    int is64, int be, int *status)
{
	struct fold_elf_sec eh, hdr, df;
	struct fold_cfi *c;
	uint64_t start, end;
	size_t i;
	const char *name = dbg ? ".debug_frame" : ".eh_frame";

	if (fold_elf_section(e, name, dbg ? &df : &eh) == NULL)
		return;
	if (!dbg && (nohdr || fold_elf_section(e, ".eh_frame_hdr",
	    &hdr) == NULL))
		memset(&hdr, 0, sizeof(hdr));
	c = dbg ? fold_cfi_new(NULL, NULL, &df, is64, be) :
	    fold_cfi_new(&eh, &hdr, NULL, is64, be);
	printf("Contents of the %s section:\n\n", name);
	for (i = 0; fold_cfi_fde(c, dbg, i, &start, &end); i++)
		if (dump_fde(c, start, end) != 0)
			*status = 1;
	if (fold_cfi_problem(c) != NULL)
		fprintf(stderr, "cfidump: %s: %s: %s\n", file, name,
		    fold_cfi_problem(c));
	fold_cfi_free(c);
}

static struct fold_cfi *
open_cfi(const char *file, struct fold_elf **ep, int nohdr, int only)
{
	struct fold_elf_sec eh, hdr, df;
	const char *why;
	int is64, be;

	if ((*ep = fold_elf_open(file, &why)) == NULL)
		fold_die(1, "%s: %s", file, why != NULL ? why : "cannot open");
	machine = fold_elf_kind(*ep, &is64, &be);
	wide = is64 ? 16 : 8;
	if (only == 'd' || fold_elf_section(*ep, ".eh_frame", &eh) == NULL)
		memset(&eh, 0, sizeof(eh));
	if (only == 'd' || nohdr ||
	    fold_elf_section(*ep, ".eh_frame_hdr", &hdr) == NULL)
		memset(&hdr, 0, sizeof(hdr));
	if (only == 'e' || fold_elf_section(*ep, ".debug_frame", &df) == NULL)
		memset(&df, 0, sizeof(df));
	return fold_cfi_new(&eh, &hdr, &df, is64, be);
}

static uint64_t
hex(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 16);

	if (*s == '\0' || *end != '\0')
		fold_die(2, "not a hex number: %s", s);
	return v;
}

static int
lookups(const char *file, int nohdr, int only, int n, char **addrs)
{
	struct fold_elf *e;
	struct fold_cfi *c = open_cfi(file, &e, nohdr, only);
	struct fold_cfi_row row;
	uint64_t pc;
	int i;

	for (i = 0; i < n; i++) {
		pc = hex(addrs[i]);
		printf("%llx ", (unsigned long long)pc);
		if (fold_cfi_find(c, pc, &row))
			print_table(&row, 1);
		else
			printf("none\n");
	}
	if (fold_cfi_problem(c) != NULL)
		fprintf(stderr, "cfidump: %s: %s\n", file, fold_cfi_problem(c));
	fold_cfi_free(c);
	fold_elf_free(e);
	return 0;
}

static int
fakemem(void *arg, uint64_t addr, uint64_t *val)
{
	(void)arg;
	if (addr < 0x10000 || addr >= 0x20000)
		return -1;
	*val = addr ^ 0x5555;
	return 0;
}

/* -c: the CFA at addr when rsp is rsp (x86-64). */
static int
cfa(const char *file, const char *addr, const char *rsp)
{
	struct fold_elf *e;
	struct fold_cfi *c = open_cfi(file, &e, 0, 0);
	struct fold_cfi_row row;
	uint64_t regs[64] = {0}, v, valid = (uint64_t)1 << 7 | (uint64_t)1 << 16;
	int ok;

	regs[16] = hex(addr);
	regs[7] = hex(rsp);
	if (!fold_cfi_find(c, regs[16], &row))
		ok = 0;
	else if (row.cfa_isexpr)
		ok = fold_cfi_eval(row.cfa_expr, row.cfa_exprlen, regs, valid,
		    fakemem, NULL, 0, 0, &v) == 0;
	else if ((ok = row.cfa_reg < 64 && (valid >> row.cfa_reg & 1)))
		v = regs[row.cfa_reg] + (uint64_t)row.cfa_off;
	if (ok)
		printf("%llx\n", (unsigned long long)v);
	else
		printf("fail\n");
	fold_cfi_free(c);
	fold_elf_free(e);
	return ok ? 0 : 1;
}

/* -x: an expression of hex bytes with registers REG=VAL. */
static int
eval(int is64, int be, int argc, char **argv)
{
	unsigned char x[4096];
	uint64_t regs[64] = {0}, valid = 0, v;
	const char *s = argv[0];
	char *eq;
	size_t n = 0;
	unsigned long r;
	int i;
	unsigned b;

	for (; s[0] != '\0' && s[1] != '\0' && n < sizeof(x); s += 2) {
		if (sscanf(s, "%2x", &b) != 1)
			fold_die(2, "not hex bytes: %s", argv[0]);
		x[n++] = (unsigned char)b;
	}
	for (i = 1; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL ||
		    (r = strtoul(argv[i], NULL, 10)) >= 64)
			fold_die(2, "not REG=VAL: %s", argv[i]);
		regs[r] = hex(eq + 1);
		valid |= (uint64_t)1 << r;
	}
	if (fold_cfi_eval_as(is64, be, x, n, regs, valid, fakemem, NULL, 0, 0,
	    &v) != 0) {
		printf("fail\n");
		return 1;
	}
	printf("%llx\n", (unsigned long long)v);
	return 0;
}

int
main(int argc, char **argv)
{
	struct fold_elf *e;
	const char *why;
	int ch, nohdr = 0, only = 0, mode = 0, is64 = 1, be = 0, status = 0;
	int e64, ebe;

	fold_init(argv[0]);
	while ((ch = getopt(argc, argv, "HedcxB4")) != -1)
		switch (ch) {
		case 'H': nohdr = 1; break;
		case 'e': case 'd': only = ch; break;
		case 'c': case 'x': mode = ch; break;
		case 'B': be = 1; break;
		case '4': is64 = 0; break;
		default: goto usage;
		}
	argc -= optind;
	argv += optind;
	if (mode == 'x' && argc >= 1)
		return eval(is64, be, argc, argv);
	if (mode == 'c' && argc == 3)
		return cfa(argv[0], argv[1], argv[2]);
	if (mode != 0 || argc < 1)
		goto usage;
	if (argc > 1)
		return lookups(argv[0], nohdr, only, argc - 1, argv + 1);
	if ((e = fold_elf_open(argv[0], &why)) == NULL)
		fold_die(1, "%s: %s", argv[0], why != NULL ? why : "cannot open");
	machine = fold_elf_kind(e, &e64, &ebe);
	wide = e64 ? 16 : 8;
	if (only != 'd')
		section(argv[0], e, 0, nohdr, e64, ebe, &status);
	if (only != 'e')
		section(argv[0], e, 1, nohdr, e64, ebe, &status);
	fold_elf_free(e);
	fflush(stdout);
	return status;
usage:
	fprintf(stderr, "usage: cfidump [-H] [-e | -d] FILE [ADDR...]\n"
	    "       cfidump -c FILE ADDR RSP\n"
	    "       cfidump -x [-4] [-B] HEX [REG=VAL...]\n");
	return 2;
}
