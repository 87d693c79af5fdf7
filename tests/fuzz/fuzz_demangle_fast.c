/* fuzz_demangle_fast - the C++ demangler's fast path against its two
 * passes alone (demangle_cxx.c built again with CX_FAST=0, its entry point
 * renamed fold_demangle_cxx_ref): the same name, or both leave the symbol,
 * for any bytes, with and without argument lists, in a large buffer and in
 * one just too short for it. */
#include "fuzz.h"
#include "symbols/symbols.h"

size_t fold_demangle_cxx_ref(const char *sym, size_t len, char *out,
    size_t cap, unsigned flags);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[FOLD_DM_MAXOUT], ref[FOLD_DM_MAXOUT];
	const char *s = (const char *)data;
	size_t n, m;
	unsigned fl;

	for (fl = 0; fl <= FOLD_DM_PARAMS; fl++) {
		n = fold_demangle_cxx(s, size, out, sizeof(out), fl);
		m = fold_demangle_cxx_ref(s, size, ref, sizeof(ref), fl);
		if (n != m || memcmp(out, ref, n) != 0)
			abort();
		if (n > 0 && (fold_demangle_cxx(s, size, out, n - 1, fl) != 0 ||
		    fold_demangle_cxx_ref(s, size, ref, n - 1, fl) != 0))
			abort();
	}
	return 0;
}
