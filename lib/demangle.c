/*
 * demangle.c - fold_demangle(): one symbol, Rust or C++, demangled as GNU
 * c++filt's automatic style does it: Rust first (a legacy Rust symbol is
 * also a valid C++ name, _ZN...E, which C++ would print with its hash),
 * then the Itanium C++ ABI.
 */
#include <stddef.h>

#include "fold.h"

size_t
fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags)
{
	size_t n;

	if (sym == NULL || len < 2 || sym[0] != '_')
		return 0;
	if (sym[1] == 'R' || sym[1] == 'Z') {
		n = fold_demangle_rust(sym, len, out, cap, flags);
		if (n > 0)
			return n;
	}
	return fold_demangle_cxx(sym, len, out, cap, flags);
}
