/* fuzz_elf - the ELF reader over any bytes: header, build id, every symbol
 * lookup path (symbols, PLT, program headers), also with the input as both
 * the symbol file and the runtime file of another copy of itself.  Input
 * that is not ELF goes to the text parsers (kallsyms, perf maps). */
#include "fuzz.h"
#include "symbols/symbols.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_elf *e, *rt;
	const unsigned char *id;
	const char *why, *name;
	uint64_t off, st, va;
	size_t n, i;
	char *copy;

	fold_init("fuzz");
	if ((e = fold_elf_mem(data, size, &why)) == NULL) {
		struct fold_syms *t[2];
		const char *mod;
		int k;

		t[0] = fold_syms_kallsyms((const char *)data, size);
		t[1] = fold_syms_permap((const char *)data, size);
		for (k = 0; k < 2; k++) {
			for (i = 0; i < size; i += 7) {
				off = i;	/* addresses from the input too */
				if (i >= 8 && size - i >= 8)
					memcpy(&off, data + i, 8);
				if ((name = fold_syms_find(t[k], off, &st,
				    &mod)) != NULL && strlen(name) > size)
					abort();
			}
			fold_syms_free(t[k]);
		}
		return 0;
	}
	(void)fold_elf_problem(e);
	n = fold_elf_buildid(e, &id);
	for (i = 0; i < n; i++)
		if (id + i < data || id + i >= data + size)
			abort();
	(void)fold_elf_has_symtab(e);
	(void)fold_elf_has_dynsym(e);
	(void)fold_elf_nsyms(e);
	for (off = 0; off < 0x2000 + size; off += 0x3b) {
		if ((name = fold_elf_sym(e, off, &st)) != NULL &&
		    (strlen(name) > size || st > off))
			abort();
		if ((off & 0x3ff) < 0x3b)
			(void)fold_elf_vaddr(e, off, &va);
	}
	fold_elf_free(e);
	/* as a debug file whose runtime file is another copy */
	copy = malloc(size ? size : 1);
	if (copy == NULL)
		abort();
	memcpy(copy, data, size);
	rt = fold_elf_mem(copy, size, &why);
	e = fold_elf_mem(data, size, &why);
	if (rt != NULL && e != NULL) {
		fold_elf_runtime(e, rt);
		for (off = 0; off < 0x2000; off += 0x3b)
			(void)fold_elf_sym(e, off, NULL);
	}
	fold_elf_free(e);
	fold_elf_free(rt);
	free(copy);
	return 0;
}
