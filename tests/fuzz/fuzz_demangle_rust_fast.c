/* fuzz_demangle_rust_fast - the Rust demangler's v0 fast path against the
 * rest alone (demangle_rust.c built again with RS_FAST=0, its entry point
 * renamed fold_demangle_rust_ref): the same name, or both leave the symbol,
 * for any bytes after "_R", in a large buffer and in one just too short
 * for it. */
#include "fuzz.h"
#include "symbols/symbols.h"

size_t fold_demangle_rust_ref(const char *sym, size_t len, char *out,
    size_t cap, unsigned flags);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[FOLD_DM_MAXOUT], ref[FOLD_DM_MAXOUT];
	char *s;
	size_t n, m;

	if ((s = malloc(size + 2)) == NULL)
		abort();
	s[0] = '_';
	s[1] = 'R';
	memcpy(s + 2, data, size);
	n = fold_demangle_rust(s, size + 2, out, sizeof(out), 0);
	m = fold_demangle_rust_ref(s, size + 2, ref, sizeof(ref), 0);
	if (n != m || memcmp(out, ref, n) != 0)
		abort();
	if (n > 0 && (fold_demangle_rust(s, size + 2, out, n - 1, 0) != 0 ||
	    fold_demangle_rust_ref(s, size + 2, ref, n - 1, 0) != 0))
		abort();
	free(s);
	return 0;
}
