/*
 * fuzz_unwind - the --call-graph dwarf unwinder (lib/perf/unwind.c) on any
 * registers and stack copy.  The CFI is real: the .eh_frame and
 * .eh_frame_hdr of this program's own file, mapped at the address its ELF
 * says (find() answers for addresses inside the file's segments, and the
 * file's bytes are its memory); the input is the 17 x86-64 registers perf
 * samples (IP first, then SP, then the others: 8 bytes each, little-
 * endian), then the stack copy.  Half the stack words are bent towards
 * addresses inside the program, so that walks go on.  Checked: no crash,
 * no hang, no more than max addresses, and the same addresses with the
 * rows kept in a cache (the usual ones as their few rules, stepped with
 * in place) as without (each row whole, as fold_cfi_find() gives it).
 */
#include "fuzz.h"
#include "symbols/symbols.h"
#include "perf/perf.h"

static struct fold_elf *self;
static struct fold_cfi *cfi;
static uint64_t lo, hi;		/* the file's bytes as "memory" */

static struct fold_cfi *
find(void *arg, uint64_t addr, uint64_t *vaddr)
{
	(void)arg;
	if (cfi == NULL || addr < lo || addr >= hi)
		return NULL;
	*vaddr = addr;
	return cfi;
}

static int
filemem(void *arg, uint64_t addr, uint64_t *val)
{
	const unsigned char *p;

	(void)arg;
	if (addr < lo || addr + 8 < addr || addr + 8 > hi)
		return addr >= 0x1000 && addr < 0x7fffffffffffULL ? 1 : -1;
	if ((p = fold_elf_bytes(self, addr - lo, 8)) == NULL)
		return 1;
	*val = fold_getu(p, 8, 0);
	return 0;
}

static uint64_t
le64(const uint8_t *p)
{
	return fold_getu(p, 8, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char order[17] = {
		8, 7, 0, 1, 2, 3, 4, 5, 6, 16, 17, 18, 19, 20, 21, 22, 23
	};
	static struct fold_unwind_cache *cache;
	struct fold_unwind_in in;
	uint64_t regs[64], ips[130], ips2[130], span;
	unsigned char *stack;
	struct fold_elf_sec eh, hdr, dbg;
	const char *why;
	size_t i, n, k;
	int is64, be;

	if (self == NULL) {
		if ((self = fold_elf_open("/proc/self/exe", &why)) == NULL)
			abort();
		(void)fold_elf_section(self, ".eh_frame", &eh);
		(void)fold_elf_section(self, ".eh_frame_hdr", &hdr);
		memset(&dbg, 0, sizeof(dbg));
		(void)fold_elf_kind(self, &is64, &be);
		cfi = fold_cfi_new(&eh, &hdr, &dbg, is64, be);
		/* the file's bytes at their virtual addresses: assume the
		 * first segment at 0 (a PIE), as its offsets */
		lo = 0;
		hi = eh.addr + eh.size;
		cache = fold_unwind_cache_new();
	}
	if (size < 17 * 8)
		return 0;
	memset(regs, 0, sizeof(regs));
	span = hi > lo ? hi - lo : 1;
	for (i = 0; i < 17; i++)
		regs[order[i]] = le64(data + 8 * i);
	regs[8] = lo + regs[8] % span;	/* an IP in the program */
	n = size - 17 * 8;
	stack = malloc(n + 1);
	if (stack == NULL)
		abort();
	memcpy(stack, data + 17 * 8, n);
	for (k = 0; k + 8 <= n; k += 16) {	/* return addresses, often */
		uint64_t v = le64(stack + k) % span + lo;
		int b;

		for (b = 0; b < 8; b++)
			stack[k + (size_t)b] = (unsigned char)(v >> (8 * b));
	}
	memset(&in, 0, sizeof(in));
	in.regs = regs;
	in.mask = 0xff0fffULL;
	in.stack = stack;
	in.size = n;
	in.sp = regs[7];
	in.find = find;
	in.filemem = filemem;
	in.cache = NULL;	/* the reference: each row whole */
	if ((k = fold_unwind_x86_64(&in, ips, 127)) > 127)
		abort();
	in.cache = cache;	/* rows kept, the usual ones as their rules */
	if (fold_unwind_x86_64(&in, ips2, 127) != k ||
	    memcmp(ips, ips2, k * sizeof(*ips)) != 0)
		abort();
	free(stack);
	return 0;
}
