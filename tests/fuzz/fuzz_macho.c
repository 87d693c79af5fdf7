/* fuzz_macho - the Mach-O reader (lib/symbols/macho.c) over any bytes:
 * thin or fat, any slice, its sections and symbols laid out as an ELF
 * image for the DWARF reader; then the functions at addresses across its
 * __TEXT.  No crash, no hang, every name a NUL-terminated string. */
#include "fuzz.h"
#include "symbols/symbols.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_macho *m;
	const char *why;
	const char *const *names;
	uint64_t base, a;
	size_t k, i;

	fuzz_stdout();
	if ((m = fold_macho_mem(data, size, NULL, &why)) == NULL) {
		if (why == NULL)
			abort();
		return 0;
	}
	base = fold_macho_base(m);
	for (a = 0; a < 0x1000; a += 4) {
		k = fold_macho_inlines(m, base + a, &names);
		for (i = 0; i < k; i++)
			if (names[i] == NULL || strlen(names[i]) > size + 65536)
				abort();
	}
	fold_macho_free(m);
	return 0;
}
