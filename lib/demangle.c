/*
 * demangle.c - fold_demangle(): one symbol, Rust or C++, demangled as GNU
 * c++filt's automatic style does it: Rust first (a legacy Rust symbol is
 * also a valid C++ name, _ZN...E, which C++ would print with its hash),
 * then the Itanium C++ ABI.
 */
#include <stddef.h>
#include <string.h>

#include "fold.h"

/* The same, for a name with a suffix (".llvm.123"): anywhere. */
static int
has_hash_segment_dot(const char *s, size_t len)
{
	const char *p = s + 2, *end = s + len;

	while (p < end && (p = memchr(p, 'h', (size_t)(end - p))) != NULL) {
		if (p[-1] == '7' && p[-2] == '1')
			return 1;
		p++;
	}
	return 0;
}

/* Whether s holds "17h": every legacy Rust name ends in a path segment of
 * 17 bytes, 'h' and 16 hex digits; C++ names seldom have it. */
static int
has_hash_segment(const char *s, size_t len)
{
	/* Without a '.', the name must end in that segment and its 'E'
	 * (as fold_demangle_rust() checks): a look at the end is enough. */
	if (len < 23 || s[2] != 'N')
		return 0;
	if (s[len - 1] == 'E')
		return memcmp(s + len - 20, "17h", 3) == 0;
	if (memchr(s, '.', len) == NULL)
		return 0;
	return has_hash_segment_dot(s, len);
}

size_t
fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags)
{
	size_t n;

	if (sym == NULL || len < 2 || sym[0] != '_')
		return 0;
	if (sym[1] == 'R' || (sym[1] == 'Z' && has_hash_segment(sym, len))) {
		n = fold_demangle_rust(sym, len, out, cap, flags);
		if (n > 0)
			return n;
	}
	return fold_demangle_cxx(sym, len, out, cap, flags);
}
