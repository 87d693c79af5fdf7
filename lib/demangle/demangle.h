/*
 * demangle.h - symbol names demangled as GNU c++filt does it
 * (lib/demangle/): C++ (demangle_cxx.c, the Itanium ABI) and Rust
 * (demangle_rust.c, legacy and v0), tried in c++filt's order (demangle.c);
 * what is covered and the limits are in the header comments of
 * demangle_cxx.c and demangle_rust.c.  Uses base.
 *
 *  - Names are untrusted bytes with a length: every read is bounded, the
 *    recursion and the work are bounded, nothing allocates.
 *  - Output goes to the caller's buffer; nothing is kept between calls,
 *    so the functions may run in several threads at once.
 *  - Nothing here is fatal.
 */
#ifndef FOLD_DEMANGLE_H
#define FOLD_DEMANGLE_H

#include "fold.h"

/*
 * Demangle one symbol as GNU c++filt (libiberty, non-verbose, auto style)
 * prints it.  With FOLD_DM_PARAMS the output is that of `c++filt -i`
 * (function argument lists kept); without it, that of `c++filt -i -p`
 * (as perf script prints names).
 */
enum { FOLD_DM_PARAMS = 1 };
/* fold_demangle_cxx() only, for fold_demangle(): the shapes of its fast
 * path only, and not a symbol that could be a legacy Rust name; 0 for the
 * rest (the caller then goes on with Rust, and C++ without it). */
enum { FOLD_DM_QUICK = 2 };
/* The longest name written: a longer one is left mangled. */
#define FOLD_DM_MAXOUT 65536
/*
 * Demangle sym[0..len) into out (cap bytes, not NUL-terminated).  Returns
 * the length of the name, or 0 when the symbol is left as it is (not
 * mangled, malformed, over the limits, or it would not fit in cap).
 * Never allocates; bounded recursion; linear time.  fold_demangle() tries
 * Rust first (legacy Rust overlaps the C++ grammar), then C++.  No state is
 * kept between calls (callers cache per distinct symbol); the C++ side
 * uses about 150 KiB of stack (its tables), plus its recursion, bounded:
 * call it from threads with a stack of 1 MiB or more.  C++ symbols longer
 * than 1024 bytes are left as they are, as c++filt leaves them.
 */
size_t fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_rust(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_cxx(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
/* The name perf holds for ELF symbol s[0..n) when it demangles: its length
 * in out (cap FOLD_DM_MAXOUT + 4), or 0 where perf keeps it as it is. */
size_t fold_demangle_perf(const char *s, size_t n, char *out, size_t cap);
/*
 * A legacy Rust name that a C++ demangler has already split, as DTrace and
 * Instruments print them ("a::b::h<16 hex digits>", components still
 * escaped: "_$LT$...$GT$"), mangled again ("_ZN1a1b17h<hash>E") into o,
 * which has room for FOLD_RUST_REMANGLE_ROOM(len) bytes, so that
 * fold_demangle_rust() finishes it as it finishes any: the length, or 0
 * when the name does not end in such a hash.
 */
#define FOLD_RUST_REMANGLE_ROOM(len) (12 * (len) + 32)
size_t fold_rust_remangle(const char *s, size_t len, char *o);

#endif
