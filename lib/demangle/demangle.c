/*
 * demangle.c - fold_demangle(): one symbol, Rust or C++, demangled as GNU
 * c++filt's automatic style does it: Rust first (a legacy Rust symbol is
 * also a valid C++ name, _ZN...E, which C++ would print with its hash),
 * then the Itanium C++ ABI.
 */
#include <stddef.h>
#include <string.h>

#include "fold.h"
#include "demangle/demangle.h"

/* Whether s[0..len), "_ZN" and 20 bytes or more, not ending in 'E', may be
 * a legacy Rust name with a suffix: path segments (a decimal length and
 * its bytes), the last one "h" and 16 hex digits, 'E' and ".suffix"
 * (fold_demangle_rust() decides). */
static int
rust_legacy_suffixed(const char *s, size_t len)
{
	const char *p = s + 3, *end = s + len, *seg = p;
	size_t n;

	while (p < end && *p >= '0' && *p <= '9') {
		n = 0;
		while (p < end && *p >= '0' && *p <= '9' && n <= len)
			n = n * 10 + (size_t)(*p++ - '0');
		if (n > (size_t)(end - p))
			return 0;
		seg = p;
		p += n;
	}
	return end - p >= 2 && p[0] == 'E' && p[1] == '.' && p - seg == 17 &&
	    seg[0] == 'h';
}

size_t
fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags)
{
	size_t n;
	int rust = 0;

	if (sym == NULL || len < 2 || sym[0] != '_')
		return 0;
	flags &= ~(unsigned)FOLD_DM_QUICK;
	if (sym[1] == 'R')
		rust = 1;
	else if (sym[1] == 'Z' && len >= 23 && sym[2] == 'N') {
		/* Every legacy Rust name ends in a path segment of 17 bytes,
		 * 'h' and 16 hex digits, and 'E', maybe followed by a
		 * ".suffix"; C++ names seldom do.  Without the suffix, a look
		 * at the end tells.  With it, C++'s fast path first (which
		 * refuses any such name), the segments only when it gives up. */
		if (sym[len - 1] == 'E')
			rust = memcmp(sym + len - 20, "17h", 3) == 0;
		else if ((n = fold_demangle_cxx(sym, len, out, cap,
		    flags | FOLD_DM_QUICK)) > 0)
			return n;
		else
			rust = rust_legacy_suffixed(sym, len);
	}
	if (rust && (n = fold_demangle_rust(sym, len, out, cap, flags)) > 0)
		return n;
	return fold_demangle_cxx(sym, len, out, cap, flags);
}

/*
 * The name perf 6.1 holds for an ELF symbol when it demangles (perf script
 * without --no-demangle): demangle_sym() in tools/perf/util/symbol-elf.c
 * runs bfd_demangle() with DMGL_NO_OPTS on the name as dso__load_sym()
 * reads it, at load, before the symbols at one address are compared
 * (symbols__fixup_duplicate), and perf script prints that name.  Only
 * names that start "_Z", "_R" or "_G" are demangled; a "@plt" suffix is
 * kept after the demangled name, as dso__synthesize_plt_symbols() adds it.
 */
size_t
fold_demangle_perf(const char *s, size_t n, char *out, size_t cap)
{
	size_t ml = n, k;

	if (n <= 2 || s[0] != '_' || (s[1] != 'Z' && s[1] != 'R' &&
	    s[1] != 'G') || cap < 4)
		return 0;
	if (ml > 4 && memcmp(s + ml - 4, "@plt", 4) == 0)
		ml -= 4;
	if ((k = fold_demangle(s, ml, out, cap - 4, 0)) == 0)
		return 0;
	if (ml < n) {
		memcpy(out + k, "@plt", 4);
		k += 4;
	}
	return k;
}
