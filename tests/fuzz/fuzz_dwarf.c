/* fuzz_dwarf - the DWARF reader (inlined functions) over any bytes taken
 * as an ELF file: units, abbreviations, forms, references, range lists,
 * compressed sections, the ELF symbol fallback, line tables (source
 * lines); lookups at addresses from
 * the input and across its sections, each asked twice (the answer must
 * not change), every name inside the input or the reader's copies. */
#include "fuzz.h"
#include "symbols/symbols.h"

static void
ask(struct fold_dwarf *d, uint64_t a)
{
	const char *const *nm, *const *nm2;
	size_t n, n2, i;

	n = fold_dwarf_inlines(d, a, &nm);
	for (i = 0; i < n; i++)
		if (nm[i] == NULL || strlen(nm[i]) > (1u << 30))
			abort();
	n2 = fold_dwarf_inlines(d, a, &nm2);
	if (n2 != n)
		abort();
	for (i = 0; i < n; i++)
		if (nm2[i] != nm[i])
			abort();
	{	/* and their source lines (the line tables) */
		const char *files[8];
		unsigned lines[8];
		size_t k = fold_dwarf_srclines(d, a, files, lines, 8);

		if (k > n || k > 8)
			abort();
		for (i = 0; i < k; i++)
			if (files[i] != NULL && strlen(files[i]) > (1u << 30))
				abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_elf *e;
	struct fold_dwarf *d;
	struct fold_elf_sec sec;
	const char *why;
	uint64_t a, v;
	size_t i, k;

	fold_init("fuzz");
	if ((e = fold_elf_mem(data, size, &why)) == NULL)
		return 0;
	if ((d = fold_dwarf_new(e, &why)) != NULL) {
		for (i = 8; i + 8 <= size && i < 4096; i += 8) {
			memcpy(&v, data + i, 8);
			ask(d, v);
		}
		for (k = 1; k < 64 && fold_elf_shdr(e, k, &sec); k++)
			if (sec.flags & 2)	/* SHF_ALLOC */
				for (a = sec.addr; a - sec.addr < sec.size &&
				    a - sec.addr < 4096; a += 13)
					ask(d, a);
		(void)fold_dwarf_problem(d);
		fold_dwarf_free(d);
	}
	fold_elf_free(e);
	return 0;
}
