/*
 * demangle_cxx.c - Itanium C++ ABI symbols (_Z...) printed exactly as GNU
 * c++filt -i prints them (binutils 2.40, libiberty, non-verbose), or
 * without FOLD_DM_PARAMS exactly as c++filt -i -p does (no argument
 * lists: what perf script prints); what c++filt leaves alone is left
 * alone.  fold_demangle() (symbols/symbols.h) tries Rust first, as
 * c++filt tries it, then C++.  For example (a line too long here goes on,
 * further indented, on the next, to be joined with nothing between them):
 *
 *     _ZN5store5IndexINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEl
 *       N12_GLOBAL__N_15Fnv1aEE3putERKS6_l
 *         store::Index<std::__cxx11::basic_string<char, std::char_traits<
 *           char>, std::allocator<char> >, long, (anonymous namespace)::
 *           Fnv1a>::put(std::__cxx11::basic_string<char, std::char_traits<
 *           char>, std::allocator<char> > const&, long)
 *     the same with -p:
 *         store::Index<std::__cxx11::basic_string<char, std::char_traits<
 *           char>, std::allocator<char> >, long, (anonymous namespace)::
 *           Fnv1a>::put
 *     _Z7apply_nIZ4mainEUliE_EdT_i
 *         double apply_n<main::{lambda(int)#1}>(main::{lambda(int)#1}, int)
 *     _ZTv0_n24_NSoD1Ev
 *         virtual thunk to std::basic_ostream<char, std::char_traits<
 *           char> >::~basic_ostream()
 *     _ZL4walki.isra.0
 *         walk(int) [clone .isra.0]
 *
 * Coverage: all of the Itanium C++ ABI that GCC and Clang emit.  Nested
 * and local names, templates and their arguments, substitutions (S_, St,
 * Ss printed "std::string" as non-verbose c++filt prints it), function,
 * array, vector and pointer-to-member types with c++filt's placement of
 * "(*)" and qualifiers, lambdas and unnamed types, ABI tags, clone
 * suffixes, special names (vtables, VTT, typeinfo, guard variables,
 * thunks, construction vtables, TLS, reference temporaries, transaction
 * clones, _GLOBAL__I_), operators and conversion operators, literals,
 * decltype and the expressions in it, packs and fold expressions, auto,
 * modules.  The printer follows libiberty's rules, quirks included ("> >",
 * "int const volatile", a template parameter of a T& resolved in the
 * scope where it was first printed).
 *
 * Two passes, as libiberty makes them, since its output is the contract:
 * the symbol is parsed into a tree of components (substitutions and
 * template parameters are references to earlier subtrees), then the tree
 * is printed, with a stack of pending type modifiers (so that a pointer to
 * a function prints as "int (*)(char)") and a stack of enclosing template
 * argument lists (to print a template parameter as its argument).
 *
 * Bounds: a symbol longer than CX_MAXIN (1024) bytes is left as it is, as
 * c++filt leaves it (libiberty refuses those too), so the component and
 * substitution tables are fixed arrays on the stack; no allocation.
 * Parsing and printing recursion are limited (1024 levels of nesting).
 * Printing is stopped at min(cap, FOLD_DM_MAXOUT) bytes (64 KiB) and
 * after a number of steps proportional to that, so that substitutions
 * that expand exponentially cannot make it hang: they can double a name
 * at each level (c++filt prints gigabytes for those, for hours), and a
 * name that would print longer than 64 KiB is left mangled at once.  A
 * template printed again through a substitution is copied, so that the
 * work is linear in the output.  Parsing is linear too: it gives up after
 * CX_WORK (16) components made a byte of the symbol, counting those it
 * takes back, and leaves such a symbol as it is, as c++filt does once it
 * is done.  libiberty reads the template arguments of a template
 * parameter in a conversion operator's type, and reads them a second time
 * when no other list follows, so that nested ones take twice the time a
 * level (an 80-byte symbol takes c++filt half a second, one of 130 bytes
 * hours); the 340,382 C++ symbols of this machine's programs and
 * libraries make at most 1.14 components a byte.
 *
 * The fast path (fx_demangle(), "the fast path" below for the details):
 * most symbols have shapes that print the same wherever they are: nested
 * names, templates whose arguments are types or integers, parameters that
 * are builtins, names, pointers, references, function types and pack
 * expansions, and some others that are common (local statics,
 * internal-linkage _ZL names, clone suffixes, ref-qualified member
 * functions, enable_if<is_signed<T>::value>-style scoped names and
 * &function<...> addresses in template arguments, lambdas in nested names,
 * conversion operators, templates of constructors, local names as types
 * such as "typeinfo for f()::S" or
 * "handleErrors<f<int>(int)::{lambda()#1}>", "char const (&) [4]" given
 * through a template parameter, auto).  For those the fast path prints the
 * name while it parses it, a substitution or a template parameter being a
 * copy of output already written.  It reads a copy of the symbol followed
 * by NUL bytes (made 16 bytes at a time, the check for a NUL in the symbol
 * with it), so that it never checks for the end where it looks at a byte,
 * and copies a name 32 bytes at a time.  Anything else (other
 * expressions, a type whose printing depends on what is around it, such
 * as a lambda's const parameter in a type that is itself const, which
 * libiberty prints without its const...) and anything near a limit goes
 * through the two passes, which stay the reference: the fast path gives
 * up wherever it could print other bytes.  On the lists of
 * tests/bench/demangle.sh, 99.8% of the symbols (all but 143 of the 75,500
 * of cxx.syms) and 99.5% of cxx-all.syms (all but 977 of 215,736) take
 * the fast path.
 *
 * Checked by tests/demangle-cxx.bats against c++filt -i and c++filt -i
 * -p: every C++ symbol of this machine's libraries and programs, collected
 * when the test runs (236,413 here: libstdc++, LLVM 14 and 15, Clang, ...;
 * all equal), our program tests/data/demangle/cxx-sample.cc built by g++
 * and clang++ (637 symbols: concepts, generic lambdas, spaceship, literal
 * operators, ABI tags, covariant thunks...), and a committed sample of
 * 3,299 symbols with c++filt's outputs (tests/data/demangle/cxx-sample.txt:
 * tricky ones from the machine, and real ones cut, corrupted or swapped,
 * which c++filt mostly rejects).  During development 894,060 symbols of
 * every binary on the machine (4,399 files) and 680,000 mutated ones were
 * compared the same way; none differs.  The libFuzzer harness
 * (tests/fuzz/fuzz_demangle.c) ran 1.5 million inputs in 5.5 minutes: no
 * crash, no output past the bound, the same name for the same input, and
 * a buffer of exactly the name's length enough.
 *
 * The fast path and the two passes (CX_FAST=0 builds without the fast path)
 * were compared on the machine's 236,413 symbols and 7.1 million mutated
 * ones, and by libFuzzer (tests/fuzz/fuzz_demangle_fast.c, the fast path
 * against the two passes), after each step that made it take more.
 * libFuzzer found two slips in its first runs; two later (a substitution
 * read in the expansion of an empty pack pointed at text that had been
 * dropped; a substitution made inside a &function<...> argument that holds
 * its T_ and is used after it); and four as the fast path last grew (a
 * chain of references to an array written out, which libiberty prints in
 * its own way; a lambda's parameters under the modifiers of the type it is
 * in; a constructor's second template argument list, which gives the name a
 * return type; template arguments after a local name's entity, which
 * libiberty reads), each fixed before it landed and kept in the golden
 * sample and tests/fuzz/regress/demangle_fast/; and an input on which the
 * two passes, as libiberty, took exponential time (see Bounds above).  The
 * last run, 8 minutes and 6.2 million inputs (4,043 edges), found nothing.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"
#include "demangle/demangle.h"

#define CX_MAXIN 1024		/* libiberty: no more than 2048 components */
#define CX_MAXCOMP (2 * CX_MAXIN)
#define CX_PARSE_DEPTH 1024	/* nested parse calls */
#define CX_FUNC_DEPTH 2048	/* nested function types, as libiberty */
#define CX_PRINT_DEPTH 1024	/* nested print calls */
#define CX_MAXSCOPE 512		/* saved template scopes */
#define CX_MAXSAVED 2048	/* templates in them */
#define CX_WORK 16		/* components made (taken back or not) a byte */
#ifndef CX_FAST
#define CX_FAST 1		/* 0: no fast path (to check it against the rest) */
#endif

enum {
	C_NAME = 1, C_QUAL, C_LOCAL, C_TYPED, C_TEMPLATE, C_TPARAM, C_FPARAM,
	C_CTOR, C_DTOR, C_VTABLE, C_VTT, C_CVTABLE, C_TYPEINFO, C_TINAME,
	C_TIFN, C_THUNK, C_VTHUNK, C_CTHUNK, C_JAVACLASS, C_GUARD, C_TLSINIT,
	C_TLSWRAP, C_REFTEMP, C_HIDDEN, C_SUBSTD, C_RESTRICT, C_VOLATILE,
	C_CONST, C_RESTRICT_THIS, C_VOLATILE_THIS, C_CONST_THIS, C_REF_THIS,
	C_RREF_THIS, C_TXSAFE, C_NOEXCEPT, C_THROW, C_VQUAL, C_POINTER,
	C_REF, C_RREF, C_COMPLEX, C_IMAGINARY, C_BUILTIN, C_EXTBUILTIN,
	C_VENDOR, C_FUNC, C_ARRAY, C_PTRMEM, C_VECTOR, C_ARGLIST, C_TARGLIST,
	C_TPARMOBJ, C_INITLIST, C_OPERATOR, C_EXTOP, C_CAST, C_CONVERSION,
	C_NULLARY, C_UNARY, C_BINARY, C_BINARGS, C_TRINARY, C_TRIARG1,
	C_TRIARG2, C_LITERAL, C_LITNEG, C_VENDOREXPR, C_NUMBER, C_DECLTYPE,
	C_GLOBALCTOR, C_GLOBALDTOR, C_LAMBDA, C_DEFARG, C_UNNAMED, C_TXCLONE,
	C_NTXCLONE, C_PACK, C_TAGGED, C_CLONE, C_BINDING, C_JAVARES,
	C_MODNAME, C_MODPART, C_MODENTITY, C_MODINIT
};

/* One component.  Names: s, n = length; numbers: n; builtins and
 * operators: n = table index; others: l and r. */
struct cx {
	unsigned char t;
	unsigned char busy;	/* times on the print stack */
	char suffix;		/* _Float<n>x */
	int n;
	int memo, memolen;	/* a template printed before: out[memo..+len) */
	const char *s;
	struct cx *l, *r;
};

/* Builtin types: how a literal of the type prints. */
enum { P_DEF, P_INT, P_UNS, P_LONG, P_ULONG, P_LLONG, P_ULLONG, P_BOOL,
	P_FLOAT, P_VOID };
static const struct {
	char name[24];		/* (NUL-padded: the fast path copies it whole) */
	unsigned char len, print;
} bt[] = {
#define B(s, p) { s, sizeof(s) - 1, p }
	B("signed char", P_DEF), B("bool", P_BOOL), B("char", P_DEF),
	B("double", P_FLOAT), B("long double", P_FLOAT), B("float", P_FLOAT),
	B("__float128", P_FLOAT), B("unsigned char", P_DEF), B("int", P_INT),
	B("unsigned int", P_UNS), B("", P_DEF), B("long", P_LONG),
	B("unsigned long", P_ULONG), B("__int128", P_DEF),
	B("unsigned __int128", P_DEF), B("", P_DEF), B("", P_DEF),
	B("", P_DEF), B("short", P_DEF), B("unsigned short", P_DEF),
	B("", P_DEF), B("void", P_VOID), B("wchar_t", P_DEF),
	B("long long", P_LLONG), B("unsigned long long", P_ULLONG),
	B("...", P_DEF),
	/* 26 */ B("decimal32", P_DEF), B("decimal64", P_DEF),
	B("decimal128", P_DEF), B("half", P_FLOAT), B("char8_t", P_DEF),
	B("char16_t", P_DEF), B("char32_t", P_DEF),
	/* 33 */ B("decltype(nullptr)", P_DEF), B("_Float", P_FLOAT),
	B("std::bfloat16_t", P_FLOAT)
#undef B
};
#define BT_NULLPTR 33
#define BT_FLOATN 34
#define BT_BF16 35

/* Operators, sorted by code for the binary search. */
static const struct {
	char code[3];
	unsigned char len, args;
	const char *name;
} ops[] = {
#define O(c, s, a) { c, sizeof(s) - 1, a, s }
	O("aN", "&=", 2), O("aS", "=", 2), O("aa", "&&", 2), O("ad", "&", 1),
	O("an", "&", 2), O("at", "alignof ", 1), O("aw", "co_await ", 1),
	O("az", "alignof ", 1), O("cc", "const_cast", 2), O("cl", "()", 2),
	O("cm", ",", 2), O("co", "~", 1), O("dV", "/=", 2),
	O("dX", "[...]=", 3), O("da", "delete[] ", 1),
	O("dc", "dynamic_cast", 2), O("de", "*", 1), O("di", "=", 2),
	O("dl", "delete ", 1), O("ds", ".*", 2), O("dt", ".", 2),
	O("dv", "/", 2), O("dx", "]=", 2), O("eO", "^=", 2), O("eo", "^", 2),
	O("eq", "==", 2), O("fL", "...", 3), O("fR", "...", 3),
	O("fl", "...", 2), O("fr", "...", 2), O("ge", ">=", 2),
	O("gs", "::", 1), O("gt", ">", 2), O("ix", "[]", 2),
	O("lS", "<<=", 2), O("le", "<=", 2), O("li", "operator\"\" ", 1),
	O("ls", "<<", 2), O("lt", "<", 2), O("mI", "-=", 2),
	O("mL", "*=", 2), O("mi", "-", 2), O("ml", "*", 2), O("mm", "--", 1),
	O("na", "new[]", 3), O("ne", "!=", 2), O("ng", "-", 1),
	O("nt", "!", 1), O("nw", "new", 3), O("oR", "|=", 2),
	O("oo", "||", 2), O("or", "|", 2), O("pL", "+=", 2), O("pl", "+", 2),
	O("pm", "->*", 2), O("pp", "++", 1), O("ps", "+", 1),
	O("pt", "->", 2), O("qu", "?", 3), O("rM", "%=", 2),
	O("rS", ">>=", 2), O("rc", "reinterpret_cast", 2), O("rm", "%", 2),
	O("rs", ">>", 2), O("sP", "sizeof...", 1), O("sZ", "sizeof...", 1),
	O("sc", "static_cast", 2), O("ss", "<=>", 2), O("st", "sizeof ", 1),
	O("sz", "sizeof ", 1), O("tr", "throw", 0), O("tw", "throw ", 1)
#undef O
};
#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

/* The standard substitutions: code, short, verbose, name for ctors. */
static const struct {
	char code;
	const char *simple, *full, *last;
} stdsub[] = {
	{ 't', "std", "std", NULL },
	{ 'a', "std::allocator", "std::allocator", "allocator" },
	{ 'b', "std::basic_string", "std::basic_string", "basic_string" },
	{ 's', "std::string",
	  "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
	  "basic_string" },
	{ 'i', "std::istream", "std::basic_istream<char, std::char_traits<char> >",
	  "basic_istream" },
	{ 'o', "std::ostream", "std::basic_ostream<char, std::char_traits<char> >",
	  "basic_ostream" },
	{ 'd', "std::iostream",
	  "std::basic_iostream<char, std::char_traits<char> >",
	  "basic_iostream" },
};

/* ---- parsing ------------------------------------------------------------ */

struct dp {
	const char *p, *end;
	unsigned flags;
	struct cx *comp;
	int ncomp, maxcomp;
	struct cx **sub;
	int nsub, maxsub;
	struct cx *last_name;
	int is_expr, is_conv;
	int unresolved;		/* libiberty's unresolved_name_state */
	int depth, fdepth;
	long work, maxwork;	/* components made, those taken back too */
};

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static int
islow(int c)
{
	return c >= 'a' && c <= 'z';
}

static int
isupp(int c)
{
	return c >= 'A' && c <= 'Z';
}

static char
peek(const struct dp *d)
{
	return d->p < d->end ? *d->p : '\0';
}

static char
peek2(const struct dp *d)
{
	return d->p + 1 < d->end ? d->p[1] : '\0';
}

static void
adv(struct dp *d, size_t n)
{
	d->p = (size_t)(d->end - d->p) < n ? d->end : d->p + n;
}

static char
next(struct dp *d)
{
	char c = peek(d);
	if (c)
		d->p++;
	return c;
}

static int
eat(struct dp *d, char c)
{
	if (peek(d) != c)
		return 0;
	d->p++;
	return 1;
}

static struct cx *
newc(struct dp *d, int t)
{
	struct cx *c;

	if (d->ncomp >= d->maxcomp || ++d->work > d->maxwork)
		return NULL;
	c = &d->comp[d->ncomp++];
	c->t = (unsigned char)t;
	c->busy = 0;
	c->suffix = 0;
	c->n = 0;
	c->memolen = 0;
	c->s = NULL;
	c->l = c->r = NULL;
	return c;
}

/* A node of two children, with the checks libiberty makes. */
static struct cx *
mk(struct dp *d, int t, struct cx *l, struct cx *r)
{
	struct cx *c;

	switch (t) {
	case C_QUAL: case C_LOCAL: case C_TYPED: case C_TAGGED:
	case C_TEMPLATE: case C_CVTABLE: case C_VQUAL: case C_PTRMEM:
	case C_UNARY: case C_BINARY: case C_BINARGS: case C_TRINARY:
	case C_TRIARG1: case C_LITERAL: case C_LITNEG: case C_VENDOREXPR:
	case C_VECTOR: case C_CLONE: case C_REFTEMP:
		if (l == NULL || r == NULL)
			return NULL;
		break;
	case C_VTABLE: case C_VTT: case C_TYPEINFO: case C_TINAME:
	case C_TIFN: case C_THUNK: case C_VTHUNK: case C_CTHUNK:
	case C_JAVACLASS: case C_GUARD: case C_TLSINIT: case C_TLSWRAP:
	case C_HIDDEN: case C_TXCLONE: case C_NTXCLONE: case C_POINTER:
	case C_REF: case C_RREF: case C_COMPLEX: case C_IMAGINARY:
	case C_VENDOR: case C_CAST: case C_CONVERSION: case C_DECLTYPE:
	case C_PACK: case C_GLOBALCTOR: case C_GLOBALDTOR: case C_NULLARY:
	case C_TRIARG2: case C_TPARMOBJ: case C_BINDING: case C_JAVARES:
		if (l == NULL)
			return NULL;
		break;
	case C_MODENTITY:
		if (l == NULL || r == NULL)
			return NULL;
		break;
	case C_MODINIT:
		if (l == NULL)
			return NULL;
		break;
	case C_ARRAY: case C_INITLIST: case C_MODNAME: case C_MODPART:
		if (r == NULL)
			return NULL;
		break;
	default:
		break;
	}
	if ((c = newc(d, t)) == NULL)
		return NULL;
	c->l = l;
	c->r = r;
	return c;
}

static struct cx *
mkname(struct dp *d, const char *s, size_t n)
{
	struct cx *c;

	if (s == NULL || n == 0 || (c = newc(d, C_NAME)) == NULL)
		return NULL;
	c->s = s;
	c->n = (int)n;
	return c;
}

static struct cx *
mkstr(struct dp *d, int t, const char *s)
{
	struct cx *c;

	if ((c = newc(d, t)) == NULL)
		return NULL;
	c->s = s;
	c->n = (int)strlen(s);
	return c;
}

static struct cx *
mknum(struct dp *d, int t, int n)
{
	struct cx *c;

	if ((c = newc(d, t)) == NULL)
		return NULL;
	c->n = n;
	return c;
}

static int
addsub(struct dp *d, struct cx *c)
{
	if (c == NULL || d->nsub >= d->maxsub)
		return 0;
	d->sub[d->nsub++] = c;
	return 1;
}

static int
is_fnqual(int t)
{
	switch (t) {
	case C_RESTRICT_THIS: case C_VOLATILE_THIS: case C_CONST_THIS:
	case C_REF_THIS: case C_RREF_THIS: case C_TXSAFE: case C_NOEXCEPT:
	case C_THROW:
		return 1;
	}
	return 0;
}

static struct cx *p_type(struct dp *d);
static struct cx *p_name(struct dp *d);
static struct cx *p_encoding(struct dp *d, int top);
static struct cx *p_expr(struct dp *d);
static struct cx *p_expr1(struct dp *d);
static struct cx *p_targs(struct dp *d);
static struct cx *p_targs1(struct dp *d);
static struct cx *p_targ(struct dp *d);
static struct cx *p_unqualified(struct dp *d, struct cx *scope);
static struct cx *p_prefix(struct dp *d, int substable);
static struct cx *p_mangled(struct dp *d, int top);
static struct cx *p_parmlist(struct dp *d);
static struct cx *p_funtype(struct dp *d);
static struct cx *p_opname(struct dp *d);

/* [n] <digits>: -1 on overflow. */
static int
p_number(struct dp *d)
{
	int neg = 0, v = 0;
	char c = peek(d);

	if (c == 'n') {
		neg = 1;
		adv(d, 1);
		c = peek(d);
	}
	while (isdig(c)) {
		if (v > (INT_MAX - (c - '0')) / 10)
			return -1;
		v = v * 10 + c - '0';
		adv(d, 1);
		c = peek(d);
	}
	return neg ? -v : v;
}

/* _ is 0, <number>_ is number+1; -1 if malformed. */
static int
p_compact(struct dp *d)
{
	int n;

	if (peek(d) == '_')
		n = 0;
	else if (peek(d) == 'n')
		return -1;
	else {
		n = p_number(d);
		if (n < 0 || n == INT_MAX)
			return -1;
		n++;
	}
	if (!eat(d, '_'))
		return -1;
	return n;
}

static struct cx *
p_source_name(struct dp *d)
{
	int n = p_number(d);
	struct cx *c;
	const char *s = d->p;

	if (n <= 0 || (size_t)(d->end - d->p) < (size_t)n)
		return NULL;
	adv(d, (size_t)n);
	/* gcc's anonymous namespace */
	if (n >= 10 && memcmp(s, "_GLOBAL_", 8) == 0 &&
	    (s[8] == '.' || s[8] == '_' || s[8] == '$') && s[9] == 'N')
		c = mkstr(d, C_NAME, "(anonymous namespace)");
	else
		c = mkname(d, s, (size_t)n);
	d->last_name = c;
	return c;
}

static int
p_discriminator(struct dp *d)
{
	int n, under = 1;

	if (peek(d) != '_')
		return 1;
	adv(d, 1);
	if (peek(d) == '_') {
		under++;
		adv(d, 1);
	}
	n = p_number(d);
	if (n < 0)
		return 0;
	if (under > 1 && n >= 10) {
		if (!eat(d, '_'))
			return 0;
	}
	return 1;
}

static struct cx *
p_abi_tags(struct dp *d, struct cx *c)
{
	struct cx *hold = d->last_name;

	while (peek(d) == 'B') {
		adv(d, 1);
		c = mk(d, C_TAGGED, c, p_source_name(d));
	}
	d->last_name = hold;
	return c;
}

static struct cx *
p_substitution(struct dp *d, int prefix)
{
	char c;
	size_t k;

	if (!eat(d, 'S'))
		return NULL;
	c = next(d);
	if (c == '_' || isdig(c) || isupp(c)) {
		unsigned id = 0, nid;

		if (c != '_') {
			do {
				if (isdig(c))
					nid = id * 36 + (unsigned)(c - '0');
				else if (isupp(c))
					nid = id * 36 + (unsigned)(c - 'A') + 10;
				else
					return NULL;
				if (nid < id)
					return NULL;
				id = nid;
				c = next(d);
			} while (c != '_');
			id++;
		}
		if (id >= (unsigned)d->nsub)
			return NULL;
		return d->sub[id];
	}
	for (k = 0; k < sizeof(stdsub) / sizeof(stdsub[0]); k++) {
		struct cx *r;
		int verbose = 0;

		if (c != stdsub[k].code)
			continue;
		if (prefix && (peek(d) == 'C' || peek(d) == 'D'))
			verbose = 1;
		if (stdsub[k].last)
			d->last_name = mkstr(d, C_SUBSTD, stdsub[k].last);
		r = mkstr(d, C_SUBSTD,
		    verbose ? stdsub[k].full : stdsub[k].simple);
		if (peek(d) == 'B') {
			r = p_abi_tags(d, r);
			if (!addsub(d, r))
				return NULL;
		}
		return r;
	}
	return NULL;
}

static struct cx *
p_ctor_dtor(struct dp *d)
{
	struct cx *c;
	int inheriting = 0;

	if (peek(d) == 'C') {
		if (peek2(d) == 'I') {
			inheriting = 1;
			adv(d, 1);
		}
		switch (peek2(d)) {
		case '1': case '2': case '3': case '4': case '5':
			break;
		default:
			return NULL;
		}
		adv(d, 2);
		if (inheriting)
			p_type(d);
		if (d->last_name == NULL)
			return NULL;
		c = mk(d, C_CTOR, d->last_name, NULL);
		return c;
	}
	if (peek(d) == 'D') {
		switch (peek2(d)) {
		case '0': case '1': case '2': case '4': case '5':
			break;
		default:
			return NULL;
		}
		adv(d, 2);
		if (d->last_name == NULL)
			return NULL;
		return mk(d, C_DTOR, d->last_name, NULL);
	}
	return NULL;
}

static struct cx *
p_lambda(struct dp *d)
{
	struct cx *tl, *c;
	int num;

	if (!eat(d, 'U') || !eat(d, 'l'))
		return NULL;
	if ((tl = p_parmlist(d)) == NULL || !eat(d, 'E'))
		return NULL;
	if ((num = p_compact(d)) < 0)
		return NULL;
	if ((c = newc(d, C_LAMBDA)) == NULL)
		return NULL;
	c->l = tl;
	c->n = num;
	return c;
}

static struct cx *
p_unnamed(struct dp *d)
{
	struct cx *c;
	int num;

	if (!eat(d, 'U') || !eat(d, 't'))
		return NULL;
	if ((num = p_compact(d)) < 0)
		return NULL;
	c = mknum(d, C_UNNAMED, num);
	if (!addsub(d, c))
		return NULL;
	return c;
}

/* W [P] <source-name> ..., each a substitution candidate */
static int
p_module(struct dp *d, struct cx **name)
{
	while (peek(d) == 'W') {
		int t = C_MODNAME;
		adv(d, 1);
		if (peek(d) == 'P') {
			t = C_MODPART;
			adv(d, 1);
		}
		*name = mk(d, t, *name, p_source_name(d));
		if (*name == NULL || !addsub(d, *name))
			return 0;
	}
	return 1;
}

static struct cx *
p_unqualified_mod(struct dp *d, struct cx *scope, struct cx *module)
{
	struct cx *r;
	char c;

	if (!p_module(d, &module))
		return NULL;
	c = peek(d);

	if (isdig(c))
		r = p_source_name(d);
	else if (islow(c)) {
		int was = d->is_expr;
		if (c == 'o' && peek2(d) == 'n') {
			adv(d, 2);
			d->is_expr = 0;
		}
		r = p_opname(d);
		d->is_expr = was;
		if (r && r->t == C_OPERATOR && strcmp(ops[r->n].code, "li") == 0)
			r = mk(d, C_UNARY, r, p_source_name(d));
	} else if (c == 'D' && peek2(d) == 'C') {
		struct cx **pp = &r;
		adv(d, 2);
		r = NULL;
		do {
			struct cx *n = p_source_name(d);
			if ((*pp = mk(d, C_TARGLIST, n, NULL)) == NULL || !n)
				return NULL;
			pp = &(*pp)->r;
		} while (!eat(d, 'E'));
		r = mk(d, C_BINDING, r, NULL);
	} else if (c == 'C' || c == 'D')
		r = p_ctor_dtor(d);
	else if (c == 'L') {
		adv(d, 1);
		r = p_source_name(d);
		if (r == NULL || !p_discriminator(d))
			return NULL;
	} else if (c == 'U') {
		if (peek2(d) == 'l')
			r = p_lambda(d);
		else if (peek2(d) == 't')
			r = p_unnamed(d);
		else
			return NULL;
	} else
		return NULL;
	if (module)
		r = mk(d, C_MODENTITY, r, module);
	if (r && peek(d) == 'B')
		r = p_abi_tags(d, r);
	if (scope)
		r = mk(d, C_QUAL, scope, r);
	return r;
}

static struct cx *
p_unqualified(struct dp *d, struct cx *scope)
{
	return p_unqualified_mod(d, scope, NULL);
}

static struct cx *
p_tparam(struct dp *d)
{
	int n;

	if (!eat(d, 'T'))
		return NULL;
	if ((n = p_compact(d)) < 0)
		return NULL;
	return mknum(d, C_TPARAM, n);
}

static struct cx **
p_cv(struct dp *d, struct cx **pret, int member_fn)
{
	struct cx **pstart = pret;
	char c = peek(d);

	for (;;) {
		int t;
		struct cx *right = NULL;

		if (!(c == 'r' || c == 'V' || c == 'K' || (c == 'D' &&
		    (peek2(d) == 'x' || peek2(d) == 'o' || peek2(d) == 'O' ||
		    peek2(d) == 'w'))))
			break;
		adv(d, 1);
		if (c == 'r')
			t = member_fn ? C_RESTRICT_THIS : C_RESTRICT;
		else if (c == 'V')
			t = member_fn ? C_VOLATILE_THIS : C_VOLATILE;
		else if (c == 'K')
			t = member_fn ? C_CONST_THIS : C_CONST;
		else {
			c = next(d);
			if (c == 'x')
				t = C_TXSAFE;
			else if (c == 'o' || c == 'O') {
				t = C_NOEXCEPT;
				if (c == 'O') {
					if ((right = p_expr(d)) == NULL ||
					    !eat(d, 'E'))
						return NULL;
				}
			} else {
				t = C_THROW;
				if ((right = p_parmlist(d)) == NULL ||
				    !eat(d, 'E'))
					return NULL;
			}
		}
		if ((*pret = mk(d, t, NULL, right)) == NULL)
			return NULL;
		pret = &(*pret)->l;
		c = peek(d);
	}
	if (!member_fn && c == 'F') {
		for (; pstart != pret; pstart = &(*pstart)->l) {
			switch ((*pstart)->t) {
			case C_RESTRICT: (*pstart)->t = C_RESTRICT_THIS; break;
			case C_VOLATILE: (*pstart)->t = C_VOLATILE_THIS; break;
			case C_CONST: (*pstart)->t = C_CONST_THIS; break;
			}
		}
	}
	return pret;
}

static struct cx *
p_refqual(struct dp *d, struct cx *sub)
{
	char c = peek(d);

	if (c == 'R' || c == 'O') {
		adv(d, 1);
		return mk(d, c == 'R' ? C_REF_THIS : C_RREF_THIS, sub, NULL);
	}
	return sub;
}

static struct cx *
p_nested(struct dp *d)
{
	struct cx *ret = NULL, **pret, *rq;

	if (!eat(d, 'N'))
		return NULL;
	if ((pret = p_cv(d, &ret, 1)) == NULL)
		return NULL;
	rq = p_refqual(d, NULL);
	if ((*pret = p_prefix(d, 1)) == NULL)
		return NULL;
	if (rq) {
		rq->l = ret;
		ret = rq;
	}
	if (!eat(d, 'E'))
		return NULL;
	return ret;
}

static struct cx *
p_prefix(struct dp *d, int substable)
{
	struct cx *ret = NULL;

	for (;;) {
		char c = peek(d);

		if (c == 'D' && (peek2(d) == 'T' || peek2(d) == 't')) {
			if (ret)
				return NULL;
			ret = p_type(d);
		} else if (c == 'I') {
			if (ret == NULL)
				return NULL;
			ret = mk(d, C_TEMPLATE, ret, p_targs(d));
		} else if (c == 'T') {
			if (ret)
				return NULL;
			ret = p_tparam(d);
		} else if (c == 'M') {
			adv(d, 1);
			continue;
		} else if (c == 'S') {
			struct cx *m = p_substitution(d, 1);
			if (m == NULL)
				return NULL;
			if (m->t != C_MODNAME && m->t != C_MODPART) {
				if (ret)
					return NULL;
				ret = m;
				continue;
			}
			ret = p_unqualified_mod(d, ret, m);
		} else
			ret = p_unqualified(d, ret);
		if (ret == NULL)
			break;
		if (peek(d) == 'E')
			break;
		if (substable && !addsub(d, ret))
			return NULL;
	}
	return ret;
}

static struct cx *
p_local(struct dp *d)
{
	struct cx *fn, *name;

	if (!eat(d, 'Z'))
		return NULL;
	if ((fn = p_encoding(d, 0)) == NULL || !eat(d, 'E'))
		return NULL;
	if (peek(d) == 's') {
		adv(d, 1);
		if (!p_discriminator(d))
			return NULL;
		name = mkstr(d, C_NAME, "string literal");
	} else {
		int num = -1;
		if (peek(d) == 'd') {
			adv(d, 1);
			if ((num = p_compact(d)) < 0)
				return NULL;
		}
		name = p_name(d);
		if (name && name->t != C_LAMBDA && name->t != C_UNNAMED &&
		    !p_discriminator(d))
			return NULL;
		if (num >= 0 && name) {
			struct cx *a = newc(d, C_DEFARG);
			if (a == NULL)
				return NULL;
			a->n = num;
			a->l = name;
			name = a;
		}
	}
	if (fn->t == C_TYPED && fn->r->t == C_FUNC)
		fn->r->l = NULL;
	return mk(d, C_LOCAL, fn, name);
}

static struct cx *
p_name(struct dp *d)
{
	struct cx *c = NULL, *module = NULL;
	int subst = 0;

	switch (peek(d)) {
	case 'N':
		return p_nested(d);
	case 'Z':
		return p_local(d);
	case 'U':
		return p_unqualified(d, NULL);
	case 'S':
		if (peek2(d) == 't') {
			adv(d, 2);
			c = mkstr(d, C_NAME, "std");
			if (c == NULL)
				return NULL;
		}
		if (peek(d) == 'S') {
			if ((module = p_substitution(d, 0)) == NULL)
				return NULL;
			if (module->t != C_MODNAME && module->t != C_MODPART) {
				if (c)
					return NULL;
				subst = 1;
				c = module;
				module = NULL;
			}
		}
		/* FALLTHROUGH */
	default:
		if (!subst)
			c = p_unqualified_mod(d, c, module);
		if (peek(d) == 'I') {
			if (!subst && !addsub(d, c))
				return NULL;
			c = mk(d, C_TEMPLATE, c, p_targs(d));
		}
		return c;
	}
}

static int
p_call_offset(struct dp *d, char c)
{
	if (c == '\0')
		c = next(d);
	if (c == 'h')
		p_number(d);
	else if (c == 'v') {
		p_number(d);
		if (!eat(d, '_'))
			return 0;
		p_number(d);
	} else
		return 0;
	return eat(d, '_');
}

static struct cx *
p_special(struct dp *d)
{
	if (eat(d, 'T')) {
		switch (next(d)) {
		case 'V': return mk(d, C_VTABLE, p_type(d), NULL);
		case 'T': return mk(d, C_VTT, p_type(d), NULL);
		case 'I': return mk(d, C_TYPEINFO, p_type(d), NULL);
		case 'S': return mk(d, C_TINAME, p_type(d), NULL);
		case 'h':
			if (!p_call_offset(d, 'h'))
				return NULL;
			return mk(d, C_THUNK, p_encoding(d, 0), NULL);
		case 'v':
			if (!p_call_offset(d, 'v'))
				return NULL;
			return mk(d, C_VTHUNK, p_encoding(d, 0), NULL);
		case 'c':
			if (!p_call_offset(d, 0) || !p_call_offset(d, 0))
				return NULL;
			return mk(d, C_CTHUNK, p_encoding(d, 0), NULL);
		case 'C': {
			struct cx *derived = p_type(d), *base;
			if (p_number(d) < 0 || !eat(d, '_'))
				return NULL;
			base = p_type(d);
			return mk(d, C_CVTABLE, base, derived);
		}
		case 'F': return mk(d, C_TIFN, p_type(d), NULL);
		case 'J': return mk(d, C_JAVACLASS, p_type(d), NULL);
		case 'H': return mk(d, C_TLSINIT, p_name(d), NULL);
		case 'W': return mk(d, C_TLSWRAP, p_name(d), NULL);
		case 'A': return mk(d, C_TPARMOBJ, p_targ(d), NULL);
		default: return NULL;
		}
	}
	if (eat(d, 'G')) {
		switch (next(d)) {
		case 'V': return mk(d, C_GUARD, p_name(d), NULL);
		case 'R': {
			struct cx *name = p_name(d);
			return mk(d, C_REFTEMP, name,
			    mknum(d, C_NUMBER, p_number(d)));
		}
		case 'A': return mk(d, C_HIDDEN, p_encoding(d, 0), NULL);
		case 'I': {
			struct cx *m = NULL;
			if (!p_module(d, &m) || m == NULL)
				return NULL;
			return mk(d, C_MODINIT, m, NULL);
		}
		case 'T':
			if (next(d) == 'n')
				return mk(d, C_NTXCLONE, p_encoding(d, 0), NULL);
			return mk(d, C_TXCLONE, p_encoding(d, 0), NULL);
		/* Gr: Java resources, not demangled here */
		default:
			return NULL;
		}
	}
	return NULL;
}

static int
has_return_type(const struct cx *c)
{
	int k = 0;

	while (c && k++ < 4096) {
		switch (c->t) {
		case C_LOCAL:
			c = c->r;
			continue;
		case C_TEMPLATE: {
			const struct cx *n = c->l;
			int j = 0;
			while (n && j++ < 4096) {
				if (n->t == C_QUAL || n->t == C_LOCAL)
					n = n->r;
				else
					return !(n->t == C_CTOR ||
					    n->t == C_DTOR ||
					    n->t == C_CONVERSION);
			}
			return 1;
		}
		default:
			if (is_fnqual(c->t)) {
				c = c->l;
				continue;
			}
			return 0;
		}
	}
	return 0;
}

static struct cx *
p_bare_function(struct dp *d, int has_ret)
{
	struct cx *ret = NULL, *tl;

	if (peek(d) == 'J') {
		adv(d, 1);
		has_ret = 1;
	}
	if (has_ret && (ret = p_type(d)) == NULL)
		return NULL;
	if ((tl = p_parmlist(d)) == NULL)
		return NULL;
	return mk(d, C_FUNC, ret, tl);
}

static struct cx *
p_encoding(struct dp *d, int top)
{
	struct cx *c;
	char k = peek(d);

	if (k == 'G' || k == 'T')
		return p_special(d);
	if ((c = p_name(d)) == NULL)
		return NULL;
	if (top && !(d->flags & FOLD_DM_PARAMS)) {
		while (is_fnqual(c->t))
			c = c->l;
		if (c->t == C_LOCAL) {
			while (c->r && is_fnqual(c->r->t))
				c->r = c->r->l;
			if (c->r == NULL)
				return NULL;
		}
		return c;
	}
	k = peek(d);
	if (k != '\0' && k != 'E') {
		struct cx *ft = p_bare_function(d, has_return_type(c));
		if (ft == NULL)
			return NULL;
		if (!top && c->t == C_LOCAL && ft->t == C_FUNC)
			ft->l = NULL;
		c = mk(d, C_TYPED, c, ft);
	}
	return c;
}

static struct cx *
p_clone_suffix(struct dp *d, struct cx *enc)
{
	const char *s = d->p, *e = d->p;

	if (e < d->end && *e == '.' && e + 1 < d->end &&
	    (islow(e[1]) || isdig(e[1]) || e[1] == '_')) {
		e += 2;
		while (e < d->end && (islow(*e) || isdig(*e) || *e == '_'))
			e++;
	}
	while (e + 1 < d->end && *e == '.' && isdig(e[1])) {
		e += 2;
		while (e < d->end && isdig(*e))
			e++;
	}
	adv(d, (size_t)(e - s));
	return mk(d, C_CLONE, enc, mkname(d, s, (size_t)(e - s)));
}

static struct cx *
p_mangled(struct dp *d, int top)
{
	struct cx *c;

	if (!eat(d, '_') && top)
		return NULL;
	if (!eat(d, 'Z'))
		return NULL;
	c = p_encoding(d, top);
	if (top && (d->flags & FOLD_DM_PARAMS))
		while (peek(d) == '.' && (islow(peek2(d)) || peek2(d) == '_' ||
		    isdig(peek2(d))))
			c = p_clone_suffix(d, c);
	return c;
}

static struct cx *
p_parmlist(struct dp *d)
{
	struct cx *tl = NULL, **ptl = &tl;

	for (;;) {
		struct cx *t;
		char c = peek(d);

		if (c == '\0' || c == 'E' || c == '.')
			break;
		if ((c == 'R' || c == 'O') && peek2(d) == 'E')
			break;
		if ((t = p_type(d)) == NULL)
			return NULL;
		if ((*ptl = mk(d, C_ARGLIST, t, NULL)) == NULL)
			return NULL;
		ptl = &(*ptl)->r;
	}
	if (tl == NULL)
		return NULL;
	if (tl->r == NULL && tl->l->t == C_BUILTIN && bt[tl->l->n].print == P_VOID)
		tl->l = NULL;
	return tl;
}

static struct cx *
p_funtype(struct dp *d)
{
	struct cx *r = NULL;

	if (d->fdepth >= CX_FUNC_DEPTH)
		return NULL;
	d->fdepth++;
	if (eat(d, 'F')) {
		if (peek(d) == 'Y')
			adv(d, 1);
		r = p_bare_function(d, 1);
		r = p_refqual(d, r);
		if (!eat(d, 'E'))
			r = NULL;
	}
	d->fdepth--;
	return r;
}

static struct cx *
p_array(struct dp *d)
{
	struct cx *dim = NULL;
	char c;

	if (!eat(d, 'A'))
		return NULL;
	c = peek(d);
	if (c == '_')
		dim = NULL;
	else if (isdig(c)) {
		const char *s = d->p;
		while (isdig(peek(d)))
			adv(d, 1);
		if ((dim = mkname(d, s, (size_t)(d->p - s))) == NULL)
			return NULL;
	} else if ((dim = p_expr(d)) == NULL)
		return NULL;
	if (!eat(d, '_'))
		return NULL;
	return mk(d, C_ARRAY, dim, p_type(d));
}

static struct cx *
p_vector(struct dp *d)
{
	struct cx *dim;

	if (peek(d) == '_') {
		adv(d, 1);
		dim = p_expr(d);
	} else
		dim = mknum(d, C_NUMBER, p_number(d));
	if (dim == NULL || !eat(d, '_'))
		return NULL;
	return mk(d, C_VECTOR, dim, p_type(d));
}

static struct cx *
p_ptrmem(struct dp *d)
{
	struct cx *cl, *mem;

	if (!eat(d, 'M'))
		return NULL;
	if ((cl = p_type(d)) == NULL || (mem = p_type(d)) == NULL)
		return NULL;
	return mk(d, C_PTRMEM, cl, mem);
}

static struct cx *
mkbuiltin(struct dp *d, int k)
{
	return mknum(d, C_BUILTIN, k);
}

static struct cx *
p_type_inner(struct dp *d)
{
	struct cx *ret;
	int can_subst = 1;
	char c = peek(d);

	if (c == 'r' || c == 'V' || c == 'K' || (c == 'D' && (peek2(d) == 'x' ||
	    peek2(d) == 'o' || peek2(d) == 'O' || peek2(d) == 'w'))) {
		struct cx **pret = p_cv(d, &ret, 0);
		if (pret == NULL)
			return NULL;
		if (peek(d) == 'F')
			*pret = p_funtype(d);
		else
			*pret = p_type(d);
		if (*pret == NULL)
			return NULL;
		if ((*pret)->t == C_RREF_THIS || (*pret)->t == C_REF_THIS) {
			struct cx *fn = (*pret)->l;
			(*pret)->l = ret;
			ret = *pret;
			*pret = fn;
		}
		if (!addsub(d, ret))
			return NULL;
		return ret;
	}
	switch (c) {
	case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': case 'g':
	case 'h': case 'i': case 'j': case 'l': case 'm': case 'n':
	case 'o': case 's': case 't': case 'v': case 'w': case 'x': case 'y':
	case 'z':
		ret = mkbuiltin(d, c - 'a');
		can_subst = 0;
		adv(d, 1);
		break;
	case 'u':
		adv(d, 1);
		ret = mk(d, C_VENDOR, p_source_name(d), NULL);
		break;
	case 'F':
		ret = p_funtype(d);
		break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6':
	case '7': case '8': case '9': case 'N': case 'Z':
		ret = p_name(d);
		break;
	case 'A':
		ret = p_array(d);
		break;
	case 'M':
		ret = p_ptrmem(d);
		break;
	case 'T':
		ret = p_tparam(d);
		if (peek(d) == 'I') {
			if (!d->is_conv) {
				if (!addsub(d, ret))
					return NULL;
				ret = mk(d, C_TEMPLATE, ret, p_targs(d));
			} else {
				const char *save = d->p;
				int nc = d->ncomp, ns = d->nsub;
				struct cx *ln = d->last_name, *args;
				args = p_targs(d);
				if (peek(d) == 'I') {
					if (!addsub(d, ret))
						return NULL;
					ret = mk(d, C_TEMPLATE, ret, args);
				} else {
					d->p = save;
					d->ncomp = nc;
					d->nsub = ns;
					d->last_name = ln;
				}
			}
		}
		break;
	case 'S': {
		char n2 = peek2(d);
		if (isdig(n2) || n2 == '_' || isupp(n2)) {
			ret = p_substitution(d, 0);
			if (ret && (ret->t == C_MODNAME || ret->t == C_MODPART)) {
				/* a module: the name in it follows */
				ret = p_unqualified_mod(d, NULL, ret);
				if (ret && peek(d) == 'I') {
					if (!addsub(d, ret))
						return NULL;
					ret = mk(d, C_TEMPLATE, ret, p_targs(d));
				}
				break;
			}
			if (peek(d) == 'I')
				ret = mk(d, C_TEMPLATE, ret, p_targs(d));
			else
				can_subst = 0;
		} else {
			ret = p_name(d);
			if (ret && ret->t == C_SUBSTD)
				can_subst = 0;
		}
		break;
	}
	case 'O':
		adv(d, 1);
		ret = mk(d, C_RREF, p_type(d), NULL);
		break;
	case 'P':
		adv(d, 1);
		ret = mk(d, C_POINTER, p_type(d), NULL);
		break;
	case 'R':
		adv(d, 1);
		ret = mk(d, C_REF, p_type(d), NULL);
		break;
	case 'C':
		adv(d, 1);
		ret = mk(d, C_COMPLEX, p_type(d), NULL);
		break;
	case 'G':
		adv(d, 1);
		ret = mk(d, C_IMAGINARY, p_type(d), NULL);
		break;
	case 'U':
		adv(d, 1);
		ret = p_source_name(d);
		if (peek(d) == 'I')
			ret = mk(d, C_TEMPLATE, ret, p_targs(d));
		ret = mk(d, C_VQUAL, p_type(d), ret);
		break;
	case 'D':
		can_subst = 0;
		adv(d, 1);
		c = next(d);
		switch (c) {
		case 'T': case 't':
			ret = mk(d, C_DECLTYPE, p_expr(d), NULL);
			if (ret && next(d) != 'E')
				ret = NULL;
			can_subst = 1;
			break;
		case 'p':
			ret = mk(d, C_PACK, p_type(d), NULL);
			can_subst = 1;
			break;
		case 'a':
			ret = mkstr(d, C_NAME, "auto");
			break;
		case 'c':
			ret = mkstr(d, C_NAME, "decltype(auto)");
			break;
		case 'f': ret = mkbuiltin(d, 26); break;
		case 'd': ret = mkbuiltin(d, 27); break;
		case 'e': ret = mkbuiltin(d, 28); break;
		case 'h': ret = mkbuiltin(d, 29); break;
		case 'u': ret = mkbuiltin(d, 30); break;
		case 's': ret = mkbuiltin(d, 31); break;
		case 'i': ret = mkbuiltin(d, 32); break;
		case 'n': ret = mkbuiltin(d, BT_NULLPTR); break;
		case 'F': {
			int arg = p_number(d);
			char sfx = 0;
			if (peek(d) == 'b') {
				if (arg != 16)
					return NULL;
				adv(d, 1);
				ret = mkbuiltin(d, BT_BF16);
				break;
			}
			if (peek(d) == 'x')
				sfx = 'x';
			if (!sfx && peek(d) != '_')
				return NULL;
			ret = mknum(d, C_EXTBUILTIN, arg);
			if (ret)
				ret->suffix = sfx;
			adv(d, 1);
			break;
		}
		case 'v':
			ret = p_vector(d);
			can_subst = 1;
			break;
		default:
			return NULL;
		}
		break;
	default:
		/* as libiberty: any other name (an operator, an L name) */
		ret = p_name(d);
		break;
	}
	if (can_subst && !addsub(d, ret))
		return NULL;
	return ret;
}

static struct cx *
p_type(struct dp *d)
{
	struct cx *r;

	if (d->depth >= CX_PARSE_DEPTH)
		return NULL;
	d->depth++;
	r = p_type_inner(d);
	d->depth--;
	return r;
}

static struct cx *
p_targs1(struct dp *d)
{
	struct cx *hold = d->last_name, *al = NULL, **pal = &al;

	if (peek(d) == 'E') {
		adv(d, 1);
		return mk(d, C_TARGLIST, NULL, NULL);
	}
	for (;;) {
		struct cx *a = p_targ(d);
		if (a == NULL)
			return NULL;
		if ((*pal = mk(d, C_TARGLIST, a, NULL)) == NULL)
			return NULL;
		pal = &(*pal)->r;
		if (peek(d) == 'E') {
			adv(d, 1);
			break;
		}
	}
	d->last_name = hold;
	return al;
}

static struct cx *
p_targs(struct dp *d)
{
	if (peek(d) != 'I' && peek(d) != 'J')
		return NULL;
	adv(d, 1);
	return p_targs1(d);
}

static struct cx *
p_expr_primary(struct dp *d)
{
	struct cx *ret, *type;
	int t;
	const char *s;

	if (!eat(d, 'L'))
		return NULL;
	if (peek(d) == '_' || peek(d) == 'Z')
		ret = p_mangled(d, 0);
	else {
		if ((type = p_type(d)) == NULL)
			return NULL;
		if (type->t == C_BUILTIN && type->n == BT_NULLPTR &&
		    peek(d) == 'E') {
			adv(d, 1);
			return type;
		}
		t = C_LITERAL;
		if (peek(d) == 'n') {
			t = C_LITNEG;
			adv(d, 1);
		}
		s = d->p;
		while (peek(d) != 'E') {
			if (peek(d) == '\0')
				return NULL;
			adv(d, 1);
		}
		ret = mk(d, t, type, mkname(d, s, (size_t)(d->p - s)));
	}
	if (!eat(d, 'E'))
		return NULL;
	return ret;
}

static struct cx *
p_targ(struct dp *d)
{
	struct cx *r;

	switch (peek(d)) {
	case 'X':
		adv(d, 1);
		r = p_expr(d);
		if (!eat(d, 'E'))
			return NULL;
		return r;
	case 'L':
		return p_expr_primary(d);
	case 'I': case 'J':
		return p_targs(d);
	default:
		return p_type(d);
	}
}

static struct cx *
p_opname(struct dp *d)
{
	char c1 = next(d), c2 = next(d);
	int lo = 0, hi = NOPS;

	if (c1 == 'v' && isdig(c2)) {
		struct cx *n = p_source_name(d), *c;
		if (n == NULL || (c = newc(d, C_EXTOP)) == NULL)
			return NULL;
		c->n = c2 - '0';
		c->l = n;
		return c;
	}
	if (c1 == 'c' && c2 == 'v') {
		int was = d->is_conv;
		struct cx *type, *r;
		d->is_conv = !d->is_expr;
		type = p_type(d);
		r = mk(d, d->is_conv ? C_CONVERSION : C_CAST, type, NULL);
		d->is_conv = was;
		return r;
	}
	while (lo < hi) {
		int i = lo + (hi - lo) / 2;
		if (c1 == ops[i].code[0] && c2 == ops[i].code[1])
			return mknum(d, C_OPERATOR, i);
		if (c1 < ops[i].code[0] ||
		    (c1 == ops[i].code[0] && c2 < ops[i].code[1]))
			hi = i;
		else
			lo = i + 1;
	}
	return NULL;
}

static struct cx *
p_exprlist(struct dp *d, char term)
{
	struct cx *list = NULL, **pp = &list;

	if (peek(d) == term) {
		adv(d, 1);
		return mk(d, C_ARGLIST, NULL, NULL);
	}
	for (;;) {
		struct cx *a = p_expr(d);
		if (a == NULL)
			return NULL;
		if ((*pp = mk(d, C_ARGLIST, a, NULL)) == NULL)
			return NULL;
		pp = &(*pp)->r;
		if (peek(d) == term) {
			adv(d, 1);
			break;
		}
		if (peek(d) == '\0')
			return NULL;
	}
	return list;
}

static int
opis(const struct cx *op, const char *code)
{
	return op && op->t == C_OPERATOR && ops[op->n].code[0] == code[0] &&
	    ops[op->n].code[1] == code[1];
}

static int
is_new_cast(const struct cx *op)
{
	return opis(op, "dc") || opis(op, "sc") || opis(op, "cc") ||
	    opis(op, "rc");
}

static struct cx *
p_unresolved(struct dp *d)
{
	struct cx *type, *name;
	char c;

	adv(d, 2);
	c = peek(d);
	if (d->unresolved && (isdig(c) || islow(c) || c == 'C' || c == 'U' ||
	    c == 'L')) {
		d->unresolved = -1;
		type = p_prefix(d, 0);
		if (peek(d) == 'E')
			adv(d, 1);
	} else
		type = p_type(d);
	name = p_unqualified(d, type);
	if (peek(d) == 'I')
		name = mk(d, C_TEMPLATE, name, p_targs(d));
	return name;
}

static struct cx *
p_expr1_inner(struct dp *d)
{
	char c = peek(d), c2 = peek2(d);

	if (c == 'L')
		return p_expr_primary(d);
	if (c == 'T')
		return p_tparam(d);
	if (c == 's' && c2 == 'r')
		return p_unresolved(d);
	if (c == 's' && c2 == 'p') {
		adv(d, 2);
		return mk(d, C_PACK, p_expr1(d), NULL);
	}
	if (c == 'f' && c2 == 'p') {
		int idx;
		adv(d, 2);
		if (peek(d) == 'T') {
			adv(d, 1);
			idx = 0;
		} else {
			idx = p_compact(d);
			if (idx == INT_MAX || idx == -1)
				return NULL;
			idx++;
		}
		return mknum(d, C_FPARAM, idx);
	}
	if (isdig(c) || (c == 'o' && c2 == 'n')) {
		struct cx *name;
		if (c == 'o')
			adv(d, 2);
		if ((name = p_unqualified(d, NULL)) == NULL)
			return NULL;
		if (peek(d) == 'I')
			return mk(d, C_TEMPLATE, name, p_targs(d));
		return name;
	}
	if ((c == 'i' || c == 't') && c2 == 'l') {
		struct cx *type = NULL;
		adv(d, 2);
		if (c == 't')
			type = p_type(d);
		if (!peek(d) || !peek2(d))
			return NULL;
		return mk(d, C_INITLIST, type, p_exprlist(d, 'E'));
	}
	if (c == 'u') {
		struct cx *name;
		adv(d, 1);
		name = p_source_name(d);
		return mk(d, C_VENDOREXPR, name, p_targs1(d));
	}
	{
		struct cx *op = p_opname(d);
		const char *code = NULL;
		int args;

		if (op == NULL)
			return NULL;
		if (op->t == C_OPERATOR) {
			code = ops[op->n].code;
			if (opis(op, "st"))
				return mk(d, C_UNARY, op, p_type(d));
		}
		switch (op->t) {
		case C_OPERATOR: args = ops[op->n].args; break;
		case C_EXTOP: args = op->n; break;
		case C_CAST: args = 1; break;
		default: return NULL;
		}
		switch (args) {
		case 0:
			return mk(d, C_NULLARY, op, NULL);
		case 1: {
			struct cx *operand;
			int suffix = 0;
			if (code && (code[0] == 'p' || code[0] == 'm') &&
			    code[1] == code[0])
				suffix = !eat(d, '_');
			if (op->t == C_CAST && eat(d, '_'))
				operand = p_exprlist(d, 'E');
			else if (opis(op, "sP"))
				operand = p_targs1(d);
			else
				operand = p_expr1(d);
			if (suffix)
				operand = mk(d, C_BINARGS, operand, operand);
			return mk(d, C_UNARY, op, operand);
		}
		case 2: {
			struct cx *left, *right;
			if (code == NULL)
				return NULL;
			if (is_new_cast(op))
				left = p_type(d);
			else if (code[0] == 'f')
				left = p_opname(d);
			else if (opis(op, "di"))
				left = p_unqualified(d, NULL);
			else
				left = p_expr1(d);
			if (opis(op, "cl"))
				right = p_exprlist(d, 'E');
			else if (opis(op, "dt") || opis(op, "pt")) {
				c = peek(d);
				c2 = peek2(d);
				if ((c == 'g' && c2 == 's') ||
				    (c == 's' && c2 == 'r'))
					right = p_expr1(d);
				else {
					right = p_unqualified(d, NULL);
					if (peek(d) == 'I')
						right = mk(d, C_TEMPLATE, right,
						    p_targs(d));
				}
			} else
				right = p_expr1(d);
			return mk(d, C_BINARY, op, mk(d, C_BINARGS, left, right));
		}
		case 3: {
			struct cx *first, *second, *third;
			if (code == NULL)
				return NULL;
			if (opis(op, "qu") || opis(op, "dX")) {
				first = p_expr1(d);
				second = p_expr1(d);
				third = p_expr1(d);
				if (third == NULL)
					return NULL;
			} else if (code[0] == 'f') {
				first = p_opname(d);
				second = p_expr1(d);
				third = p_expr1(d);
				if (third == NULL)
					return NULL;
			} else if (code[0] == 'n') {
				if (code[1] != 'w' && code[1] != 'a')
					return NULL;
				first = p_exprlist(d, '_');
				second = p_type(d);
				if (peek(d) == 'E') {
					adv(d, 1);
					third = NULL;
				} else if (peek(d) == 'p' && peek2(d) == 'i') {
					adv(d, 2);
					third = p_exprlist(d, 'E');
				} else if (peek(d) == 'i' && peek2(d) == 'l')
					third = p_expr1(d);
				else
					return NULL;
			} else
				return NULL;
			return mk(d, C_TRINARY, op, mk(d, C_TRIARG1, first,
			    mk(d, C_TRIARG2, second, third)));
		}
		default:
			return NULL;
		}
	}
}

static struct cx *
p_expr1(struct dp *d)
{
	struct cx *r;

	if (d->depth >= CX_PARSE_DEPTH)
		return NULL;
	d->depth++;
	r = p_expr1_inner(d);
	d->depth--;
	return r;
}

static struct cx *
p_expr(struct dp *d)
{
	int was = d->is_expr;
	struct cx *r;

	d->is_expr = 1;
	r = p_expr1(d);
	d->is_expr = was;
	return r;
}

/* ---- printing ----------------------------------------------------------- */

struct ptpl {				/* an enclosing template */
	struct ptpl *next;
	const struct cx *tpl;
};

struct pmod {				/* a pending modifier */
	struct pmod *next;
	struct cx *mod;
	int printed;
	struct ptpl *tpls;
};

struct pscope {				/* templates seen by a T_& */
	const struct cx *sub;
	struct ptpl *tpls;
};

struct pr {
	const struct cx *stack[CX_PRINT_DEPTH];	/* components being printed */
	struct pscope scope[CX_MAXSCOPE];
	struct ptpl saved[CX_MAXSAVED];
	int nscope, nsaved;
	char *out;
	size_t len, cap;
	char last;
	int err;
	struct ptpl *tpls;
	struct pmod *mods;
	int depth;
	long steps;
	int pack_index;
	int lambda_arg;
	int commas;		/* ", " to write before the next output */
	unsigned long dep;	/* uses of the context (template arguments) */
	const struct cx *cur_tpl;
};

static void pc(struct pr *p, struct cx *c);

static void
put(struct pr *p, const char *s, size_t n)
{
	if (p->err || n == 0)
		return;
	while (p->commas > 0) {
		/* the ", " of the argument lists around, now followed by
		 * something */
		if (p->cap - p->len < 2) {
			p->err = 1;
			return;
		}
		memcpy(p->out + p->len, ", ", 2);
		p->len += 2;
		p->commas--;
	}
	if (p->cap - p->len < n) {
		p->err = 1;
		return;
	}
	if (n <= 16) {		/* most pieces: short names, "::", ", " */
		char *o = p->out + p->len;
		size_t i;
		for (i = 0; i < n; i++)
			o[i] = s[i];
	} else
		memcpy(p->out + p->len, s, n);
	p->len += n;
	p->last = s[n - 1];
}

/* a string literal */
#define puts_(p, lit) put((p), (lit), sizeof(lit) - 1)

static void
putc_(struct pr *p, char c)
{
	put(p, &c, 1);
}

static void
putnum(struct pr *p, long v)
{
	char b[24];
	int i = (int)sizeof(b);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do {
		b[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		b[--i] = '-';
	put(p, b + i, sizeof(b) - (size_t)i);
}

static struct cx *
index_targ(struct cx *args, int i)
{
	struct cx *a;

	if (i < 0)
		return args;
	for (a = args; a; a = a->r) {
		if (a->t != C_TARGLIST)
			return NULL;
		if (i <= 0)
			break;
		i--;
	}
	if (i != 0 || a == NULL)
		return NULL;
	return a->l;
}

static struct cx *
lookup_targ(struct pr *p, const struct cx *c)
{
	p->dep++;
	if (p->tpls == NULL) {
		p->err = 1;
		return NULL;
	}
	return index_targ(p->tpls->tpl->r, c->n);
}

static struct cx *
find_pack(struct pr *p, const struct cx *c)
{
	struct cx *a;

	for (;;) {
		if (c == NULL || p->err || ++p->steps > 0x7fffffff)
			return NULL;
		if (p->steps > (long)(16 * (FOLD_DM_MAXOUT + CX_MAXCOMP))) {
			p->err = 1;
			return NULL;
		}
		switch (c->t) {
		case C_TPARAM:
			a = lookup_targ(p, c);
			if (a && a->t == C_TARGLIST)
				return a;
			return NULL;
		case C_PACK: case C_LAMBDA: case C_NAME: case C_TAGGED:
		case C_OPERATOR: case C_BUILTIN: case C_EXTBUILTIN:
		case C_SUBSTD: case C_FPARAM: case C_UNNAMED: case C_DEFARG:
		case C_NUMBER:
			/* (TAGGED: libiberty stops there too) */
			return NULL;
		case C_EXTOP: case C_CTOR: case C_DTOR:
			c = c->l;
			continue;
		default:
			if ((a = find_pack(p, c->l)) != NULL)
				return a;
			c = c->r;
			continue;
		}
	}
}

static int
pack_length(const struct cx *c)
{
	int n = 0;

	while (c && c->t == C_TARGLIST && c->l != NULL) {
		n++;
		c = c->r;
	}
	return n;
}

static void
subexpr(struct pr *p, struct cx *c)
{
	int simple = c && (c->t == C_NAME || c->t == C_QUAL ||
	    c->t == C_INITLIST || c->t == C_FPARAM);

	if (!simple)
		putc_(p, '(');
	pc(p, c);
	if (!simple)
		putc_(p, ')');
}

static void
expr_op(struct pr *p, struct cx *c)
{
	if (c->t == C_OPERATOR)
		put(p, ops[c->n].name, ops[c->n].len);
	else
		pc(p, c);
}

static void print_mod(struct pr *p, struct cx *m);
static void print_function_type(struct pr *p, struct cx *c, struct pmod *mods);
static void print_array_type(struct pr *p, struct cx *c, struct pmod *mods);

static void
print_mod_list(struct pr *p, struct pmod *mods, int suffix)
{
	struct ptpl *hold;

	for (; mods != NULL && !p->err; mods = mods->next) {
		if (mods->printed || (!suffix && is_fnqual(mods->mod->t)))
			continue;
		mods->printed = 1;
		hold = p->tpls;
		p->tpls = mods->tpls;
		if (mods->mod->t == C_FUNC) {
			print_function_type(p, mods->mod, mods->next);
			p->tpls = hold;
			return;
		}
		if (mods->mod->t == C_ARRAY) {
			print_array_type(p, mods->mod, mods->next);
			p->tpls = hold;
			return;
		}
		if (mods->mod->t == C_LOCAL) {
			struct pmod *hm = p->mods;
			struct cx *c;
			p->mods = NULL;
			pc(p, mods->mod->l);
			p->mods = hm;
			puts_(p, "::");
			c = mods->mod->r;
			if (c->t == C_DEFARG) {
				puts_(p, "{default arg#");
				putnum(p, (long)c->n + 1);
				puts_(p, "}::");
				c = c->l;
			}
			while (c && is_fnqual(c->t))
				c = c->l;
			pc(p, c);
			p->tpls = hold;
			return;
		}
		print_mod(p, mods->mod);
		p->tpls = hold;
	}
}

static void
print_mod(struct pr *p, struct cx *m)
{
	switch (m->t) {
	case C_RESTRICT: case C_RESTRICT_THIS:
		puts_(p, " restrict");
		return;
	case C_VOLATILE: case C_VOLATILE_THIS:
		puts_(p, " volatile");
		return;
	case C_CONST: case C_CONST_THIS:
		puts_(p, " const");
		return;
	case C_TXSAFE:
		puts_(p, " transaction_safe");
		return;
	case C_NOEXCEPT:
		puts_(p, " noexcept");
		if (m->r) {
			putc_(p, '(');
			pc(p, m->r);
			putc_(p, ')');
		}
		return;
	case C_THROW:
		puts_(p, " throw");
		if (m->r) {
			putc_(p, '(');
			pc(p, m->r);
			putc_(p, ')');
		}
		return;
	case C_VQUAL:
		putc_(p, ' ');
		pc(p, m->r);
		return;
	case C_POINTER:
		putc_(p, '*');
		return;
	case C_REF_THIS:
		putc_(p, ' ');
		/* FALLTHROUGH */
	case C_REF:
		putc_(p, '&');
		return;
	case C_RREF_THIS:
		putc_(p, ' ');
		/* FALLTHROUGH */
	case C_RREF:
		puts_(p, "&&");
		return;
	case C_COMPLEX:
		puts_(p, " _Complex");
		return;
	case C_IMAGINARY:
		puts_(p, " _Imaginary");
		return;
	case C_PTRMEM:
		if (p->last != '(')
			putc_(p, ' ');
		pc(p, m->l);
		puts_(p, "::*");
		return;
	case C_TYPED:
		pc(p, m->l);
		return;
	case C_VECTOR:
		puts_(p, " __vector(");
		pc(p, m->l);
		putc_(p, ')');
		return;
	default:
		pc(p, m);
		return;
	}
}

static void
print_function_type(struct pr *p, struct cx *c, struct pmod *mods)
{
	int need_paren = 0, need_space = 0;
	struct pmod *m, *hold;

	for (m = mods; m != NULL; m = m->next) {
		if (m->printed)
			break;
		switch (m->mod->t) {
		case C_POINTER: case C_REF: case C_RREF:
			need_paren = 1;
			break;
		case C_RESTRICT: case C_VOLATILE: case C_CONST: case C_VQUAL:
		case C_COMPLEX: case C_IMAGINARY: case C_PTRMEM:
			need_space = 1;
			need_paren = 1;
			break;
		default:
			break;
		}
		if (need_paren)
			break;
	}
	if (need_paren) {
		if (!need_space && p->last != '(' && p->last != '*')
			need_space = 1;
		if (need_space && p->last != ' ')
			putc_(p, ' ');
		putc_(p, '(');
	}
	hold = p->mods;
	p->mods = NULL;
	print_mod_list(p, mods, 0);
	if (need_paren)
		putc_(p, ')');
	putc_(p, '(');
	if (c->r != NULL)
		pc(p, c->r);
	putc_(p, ')');
	print_mod_list(p, mods, 1);
	p->mods = hold;
}

static void
print_array_type(struct pr *p, struct cx *c, struct pmod *mods)
{
	int need_space = 1;

	if (mods != NULL) {
		int need_paren = 0;
		struct pmod *m;
		for (m = mods; m != NULL; m = m->next) {
			if (!m->printed) {
				if (m->mod->t == C_ARRAY)
					need_space = 0;
				else {
					need_paren = 1;
					need_space = 1;
				}
				break;
			}
		}
		if (need_paren)
			puts_(p, " (");
		print_mod_list(p, mods, 0);
		if (need_paren)
			putc_(p, ')');
	}
	if (need_space)
		putc_(p, ' ');
	putc_(p, '[');
	if (c->l != NULL)
		pc(p, c->l);
	putc_(p, ']');
}

static void
print_template_args(struct pr *p, struct cx *args)
{
	if (p->last == '<')
		putc_(p, ' ');
	putc_(p, '<');
	pc(p, args);
	if (p->last == '>')
		putc_(p, ' ');
	putc_(p, '>');
}

static void
print_conversion(struct pr *p, struct cx *c)
{
	struct ptpl t;
	int pushed = 0;

	if (p->cur_tpl != NULL) {
		t.next = p->tpls;
		t.tpl = p->cur_tpl;
		p->tpls = &t;
		pushed = 1;
	}
	if (c->l->t != C_TEMPLATE) {
		pc(p, c->l);
		if (pushed)
			p->tpls = t.next;
	} else {
		pc(p, c->l->l);
		if (pushed)
			p->tpls = t.next;
		print_template_args(p, c->l->r);
	}
}

static void
print_typed_name(struct pr *p, struct cx *c)
{
	struct pmod *hold = p->mods, adpm[4];
	struct cx *tn = c->l;
	struct ptpl t;
	unsigned i = 0;

	p->mods = NULL;
	while (tn != NULL) {
		if (i >= 4) {
			p->err = 1;
			return;
		}
		adpm[i].next = p->mods;
		p->mods = &adpm[i];
		adpm[i].mod = tn;
		adpm[i].printed = 0;
		adpm[i].tpls = p->tpls;
		i++;
		if (!is_fnqual(tn->t))
			break;
		tn = tn->l;
	}
	if (tn == NULL) {
		p->err = 1;
		return;
	}
	if (tn->t == C_LOCAL) {
		tn = tn->r;
		if (tn->t == C_DEFARG)
			tn = tn->l;
		while (tn != NULL && is_fnqual(tn->t)) {
			if (i >= 4) {
				p->err = 1;
				return;
			}
			adpm[i] = adpm[i - 1];
			adpm[i].next = &adpm[i - 1];
			p->mods = &adpm[i];
			adpm[i - 1].mod = tn;
			adpm[i - 1].printed = 0;
			adpm[i - 1].tpls = p->tpls;
			i++;
			tn = tn->l;
		}
		if (tn == NULL) {
			p->err = 1;
			return;
		}
	}
	if (tn->t == C_TEMPLATE) {
		t.next = p->tpls;
		t.tpl = tn;
		p->tpls = &t;
	}
	pc(p, c->r);
	if (tn->t == C_TEMPLATE)
		p->tpls = t.next;
	while (i > 0) {
		i--;
		if (!adpm[i].printed) {
			putc_(p, ' ');
			print_mod(p, adpm[i].mod);
		}
	}
	p->mods = hold;
}

static void
print_array(struct pr *p, struct cx *c)
{
	struct pmod *hold = p->mods, adpm[4], *m;
	unsigned i = 1;

	adpm[0].next = hold;
	p->mods = &adpm[0];
	adpm[0].mod = c;
	adpm[0].printed = 0;
	adpm[0].tpls = p->tpls;
	for (m = hold; m != NULL && (m->mod->t == C_RESTRICT ||
	    m->mod->t == C_VOLATILE || m->mod->t == C_CONST); m = m->next) {
		if (!m->printed) {
			if (i >= 4) {
				p->err = 1;
				return;
			}
			adpm[i] = *m;
			adpm[i].next = p->mods;
			p->mods = &adpm[i];
			m->printed = 1;
			i++;
		}
	}
	pc(p, c->r);
	p->mods = hold;
	if (adpm[0].printed)
		return;
	while (i > 1) {
		i--;
		print_mod(p, adpm[i].mod);
	}
	print_array_type(p, c, p->mods);
}

static void
print_modifier(struct pr *p, struct cx *c, struct cx *inner)
{
	struct pmod m;

	m.next = p->mods;
	p->mods = &m;
	m.mod = c;
	m.printed = 0;
	m.tpls = p->tpls;
	pc(p, inner ? inner : c->l);
	if (!m.printed)
		print_mod(p, c);
	p->mods = m.next;
}

static void
print_literal(struct pr *p, struct cx *c)
{
	int tp = P_DEF;

	if (c->l->t == C_BUILTIN) {
		tp = bt[c->l->n].print;
		switch (tp) {
		case P_INT: case P_UNS: case P_LONG: case P_ULONG:
		case P_LLONG: case P_ULLONG:
			if (c->r->t == C_NAME) {
				static const char *const sfx[] = {
					"", "", "u", "l", "ul", "ll", "ull"
				};
				if (c->t == C_LITNEG)
					putc_(p, '-');
				pc(p, c->r);
				put(p, sfx[tp], strlen(sfx[tp]));
				return;
			}
			break;
		case P_BOOL:
			if (c->r->t == C_NAME && c->r->n == 1 &&
			    c->t == C_LITERAL) {
				if (c->r->s[0] == '0') {
					puts_(p, "false");
					return;
				}
				if (c->r->s[0] == '1') {
					puts_(p, "true");
					return;
				}
			}
			break;
		}
	}
	putc_(p, '(');
	pc(p, c->l);
	putc_(p, ')');
	if (c->t == C_LITNEG)
		putc_(p, '-');
	if (tp == P_FLOAT)
		putc_(p, '[');
	pc(p, c->r);
	if (tp == P_FLOAT)
		putc_(p, ']');
}

static int
print_fold(struct pr *p, struct cx *c)
{
	struct cx *opsc, *op, *op1, *op2 = NULL;
	int save;
	char k;

	if (c->l->t != C_OPERATOR || ops[c->l->n].code[0] != 'f')
		return 0;
	k = ops[c->l->n].code[1];
	opsc = c->r;
	op = opsc->l;
	op1 = opsc->r;
	if (op1->t == C_TRIARG2) {
		op2 = op1->r;
		op1 = op1->l;
	}
	save = p->pack_index;
	p->pack_index = -1;
	switch (k) {
	case 'l':
		puts_(p, "(...");
		expr_op(p, op);
		subexpr(p, op1);
		putc_(p, ')');
		break;
	case 'r':
		putc_(p, '(');
		subexpr(p, op1);
		expr_op(p, op);
		puts_(p, "...)");
		break;
	case 'L': case 'R':
		putc_(p, '(');
		subexpr(p, op1);
		expr_op(p, op);
		puts_(p, "...");
		expr_op(p, op);
		subexpr(p, op2);
		putc_(p, ')');
		break;
	}
	p->pack_index = save;
	return 1;
}

static int
is_designator(const struct cx *c)
{
	return (c->t == C_BINARY || c->t == C_TRINARY) &&
	    (opis(c->l, "di") || opis(c->l, "dx") || opis(c->l, "dX"));
}

static int
print_designated(struct pr *p, struct cx *c)
{
	struct cx *op = c->l, *op1, *op2;
	char k;

	if (!is_designator(c))
		return 0;
	k = ops[op->n].code[1];
	op1 = c->r->l;
	op2 = c->r->r;
	putc_(p, k == 'i' ? '.' : '[');
	pc(p, op1);
	if (k == 'X') {
		puts_(p, " ... ");
		pc(p, op2->l);
		op2 = op2->r;
	}
	if (k != 'i')
		putc_(p, ']');
	if (is_designator(op2))
		pc(p, op2);
	else {
		putc_(p, '=');
		subexpr(p, op2);
	}
	return 1;
}

static void
print_unary(struct pr *p, struct cx *c)
{
	struct cx *op = c->l, *operand = c->r;
	const char *code = NULL;

	if (op->t == C_OPERATOR) {
		code = ops[op->n].code;
		if (opis(op, "ad") && operand->t == C_TYPED &&
		    operand->l->t == C_QUAL && operand->r->t == C_FUNC)
			operand = operand->l;
		if (operand->t == C_BINARGS) {
			subexpr(p, operand->l);
			expr_op(p, op);
			return;
		}
	}
	if (code && opis(op, "sZ")) {
		putnum(p, pack_length(find_pack(p, operand)));
		return;
	}
	if (code && opis(op, "sP")) {
		/* d_args_length */
		int n = 0;
		struct cx *a;
		for (a = operand; a && a->t == C_TARGLIST; a = a->r) {
			struct cx *e = a->l;
			if (e == NULL)
				break;
			if (e->t == C_PACK) {
				struct cx *pk = find_pack(p, e->l);
				n += pack_length(pk);
			} else
				n++;
		}
		putnum(p, n);
		return;
	}
	if (op->t != C_CAST)
		expr_op(p, op);
	else {
		putc_(p, '(');
		pc(p, op->l);
		putc_(p, ')');
	}
	if (code && opis(op, "gs"))
		pc(p, operand);
	else if (code && opis(op, "st")) {
		putc_(p, '(');
		pc(p, operand);
		putc_(p, ')');
	} else
		subexpr(p, operand);
}

static void
print_binary(struct pr *p, struct cx *c)
{
	struct cx *op = c->l;
	int gt;

	if (c->r->t != C_BINARGS) {
		p->err = 1;
		return;
	}
	if (is_new_cast(op)) {
		expr_op(p, op);
		putc_(p, '<');
		pc(p, c->r->l);
		puts_(p, ">(");
		pc(p, c->r->r);
		putc_(p, ')');
		return;
	}
	if (print_fold(p, c) || print_designated(p, c))
		return;
	gt = op->t == C_OPERATOR && ops[op->n].len == 1 &&
	    ops[op->n].name[0] == '>';
	if (gt)
		putc_(p, '(');
	if (opis(op, "cl") && c->r->l->t == C_TYPED) {
		struct cx *fn = c->r->l;
		if (fn->r->t != C_FUNC)
			p->err = 1;
		subexpr(p, fn->l);
	} else
		subexpr(p, c->r->l);
	if (opis(op, "ix")) {
		putc_(p, '[');
		pc(p, c->r->r);
		putc_(p, ']');
	} else {
		if (!opis(op, "cl"))
			expr_op(p, op);
		subexpr(p, c->r->r);
	}
	if (gt)
		putc_(p, ')');
}

static void
print_trinary(struct pr *p, struct cx *c)
{
	struct cx *op = c->l, *first, *second, *third;

	if (c->r->t != C_TRIARG1 || c->r->r->t != C_TRIARG2) {
		p->err = 1;
		return;
	}
	if (print_fold(p, c) || print_designated(p, c))
		return;
	first = c->r->l;
	second = c->r->r->l;
	third = c->r->r->r;
	if (opis(op, "qu")) {
		subexpr(p, first);
		expr_op(p, op);
		subexpr(p, second);
		puts_(p, " : ");
		subexpr(p, third);
	} else {
		puts_(p, "new ");
		if (first->l != NULL) {
			subexpr(p, first);
			putc_(p, ' ');
		}
		pc(p, second);
		if (third)
			subexpr(p, third);
	}
}

static struct pscope *
get_scope(struct pr *p, const struct cx *sub)
{
	int i;

	for (i = 0; i < p->nscope; i++)
		if (p->scope[i].sub == sub)
			return &p->scope[i];
	return NULL;
}

/* Remember the templates in scope where sub is first printed. */
static void
save_scope(struct pr *p, const struct cx *sub)
{
	struct pscope *sc;
	struct ptpl *t, **pp;

	if (p->nscope >= CX_MAXSCOPE) {
		p->err = 1;
		return;
	}
	sc = &p->scope[p->nscope++];
	sc->sub = sub;
	sc->tpls = NULL;
	pp = &sc->tpls;
	for (t = p->tpls; t != NULL; t = t->next) {
		if (p->nsaved >= CX_MAXSAVED) {
			p->err = 1;
			return;
		}
		*pp = &p->saved[p->nsaved++];
		(*pp)->tpl = t->tpl;
		(*pp)->next = NULL;
		pp = &(*pp)->next;
	}
}

static void
print_reference(struct pr *p, struct cx *c)
{
	struct cx *sub = c->l, *inner = NULL;
	struct ptpl *hold = NULL;
	int restore = 0;

	if (!p->lambda_arg && sub->t == C_TPARAM) {
		struct pscope *sc = get_scope(p, sub);
		struct cx *a;

		if (sc == NULL) {
			save_scope(p, sub);
			if (p->err)
				return;
		} else {
			/* reentered as a substitution: unless beneath sub or
			 * c, use the templates of its first printing */
			int i, found = 0;
			for (i = p->depth - 1; i >= 0; i--)
				if (p->stack[i] == sub ||
				    (p->stack[i] == c && i != p->depth - 1)) {
					found = 1;
					break;
				}
			if (!found) {
				hold = p->tpls;
				p->tpls = sc->tpls;
				restore = 1;
			}
		}
		a = lookup_targ(p, sub);
		if (a && a->t == C_TARGLIST)
			a = index_targ(a, p->pack_index);
		if (a == NULL) {
			if (restore)
				p->tpls = hold;
			p->err = 1;
			return;
		}
		sub = a;
	}
	if (sub->t == C_REF || sub->t == c->t)
		c = sub;
	else if (sub->t == C_RREF)
		inner = sub->l;
	print_modifier(p, c, inner);
	if (restore)
		p->tpls = hold;
}

static void
pc_inner(struct pr *p, struct cx *c)
{
	switch (c->t) {
	case C_NAME:
		put(p, c->s, (size_t)c->n);
		return;
	case C_TAGGED:
		pc(p, c->l);
		puts_(p, "[abi:");
		pc(p, c->r);
		putc_(p, ']');
		return;
	case C_BINDING:
		putc_(p, '[');
		for (c = c->l; c; c = c->r) {
			pc(p, c->l);
			if (c->r)
				puts_(p, ", ");
		}
		putc_(p, ']');
		return;
	case C_QUAL: case C_LOCAL: {
		struct cx *ln = c->r;
		pc(p, c->l);
		puts_(p, "::");
		if (ln->t == C_DEFARG) {
			puts_(p, "{default arg#");
			putnum(p, (long)ln->n + 1);
			puts_(p, "}::");
			ln = ln->l;
		}
		pc(p, ln);
		return;
	}
	case C_TYPED:
		print_typed_name(p, c);
		return;
	case C_TEMPLATE: {
		/* A template prints the same wherever it is (modifiers do not
		 * go in) unless it looks up template arguments: then, printed
		 * again through a substitution, it is copied. */
		struct pmod *hm = p->mods;
		const struct cx *hc = p->cur_tpl;
		unsigned long dep = p->dep;
		size_t start = p->len + 2 * (size_t)p->commas;
		if (c->memolen > 0) {
			put(p, p->out + c->memo, (size_t)c->memolen);
			return;
		}
		p->cur_tpl = c;
		p->mods = NULL;
		pc(p, c->l);
		print_template_args(p, c->r);
		p->mods = hm;
		p->cur_tpl = hc;
		if (!p->err && p->dep == dep && p->len > start) {
			c->memo = (int)start;
			c->memolen = (int)(p->len - start);
		}
		return;
	}
	case C_TPARAM:
		if (p->lambda_arg) {
			p->dep++;
			puts_(p, "auto:");
			putnum(p, (long)c->n + 1);
		} else {
			struct ptpl *hold;
			struct cx *a = lookup_targ(p, c);
			if (a && a->t == C_TARGLIST)
				a = index_targ(a, p->pack_index);
			if (a == NULL) {
				p->err = 1;
				return;
			}
			hold = p->tpls;
			p->tpls = hold->next;
			pc(p, a);
			p->tpls = hold;
		}
		return;
	case C_TPARMOBJ:
		puts_(p, "template parameter object for ");
		pc(p, c->l);
		return;
	case C_CTOR:
		pc(p, c->l);
		return;
	case C_DTOR:
		putc_(p, '~');
		pc(p, c->l);
		return;
	case C_VTABLE: puts_(p, "vtable for "); pc(p, c->l); return;
	case C_VTT: puts_(p, "VTT for "); pc(p, c->l); return;
	case C_CVTABLE:
		puts_(p, "construction vtable for ");
		pc(p, c->l);
		puts_(p, "-in-");
		pc(p, c->r);
		return;
	case C_TYPEINFO: puts_(p, "typeinfo for "); pc(p, c->l); return;
	case C_TINAME: puts_(p, "typeinfo name for "); pc(p, c->l); return;
	case C_TIFN: puts_(p, "typeinfo fn for "); pc(p, c->l); return;
	case C_THUNK: puts_(p, "non-virtual thunk to "); pc(p, c->l); return;
	case C_VTHUNK: puts_(p, "virtual thunk to "); pc(p, c->l); return;
	case C_CTHUNK:
		puts_(p, "covariant return thunk to ");
		pc(p, c->l);
		return;
	case C_JAVACLASS: puts_(p, "java Class for "); pc(p, c->l); return;
	case C_GUARD: puts_(p, "guard variable for "); pc(p, c->l); return;
	case C_TLSINIT:
		puts_(p, "TLS init function for ");
		pc(p, c->l);
		return;
	case C_TLSWRAP:
		puts_(p, "TLS wrapper function for ");
		pc(p, c->l);
		return;
	case C_REFTEMP:
		puts_(p, "reference temporary #");
		pc(p, c->r);
		puts_(p, " for ");
		pc(p, c->l);
		return;
	case C_HIDDEN: puts_(p, "hidden alias for "); pc(p, c->l); return;
	case C_TXCLONE:
		puts_(p, "transaction clone for ");
		pc(p, c->l);
		return;
	case C_NTXCLONE:
		puts_(p, "non-transaction clone for ");
		pc(p, c->l);
		return;
	case C_SUBSTD:
		put(p, c->s, (size_t)c->n);
		return;
	case C_RESTRICT: case C_VOLATILE: case C_CONST: {
		struct pmod *m;
		for (m = p->mods; m != NULL; m = m->next) {
			if (!m->printed) {
				if (m->mod->t != C_RESTRICT &&
				    m->mod->t != C_VOLATILE &&
				    m->mod->t != C_CONST)
					break;
				if (m->mod->t == c->t) {
					pc(p, c->l);
					return;
				}
			}
		}
		print_modifier(p, c, NULL);
		return;
	}
	case C_REF: case C_RREF:
		print_reference(p, c);
		return;
	case C_VQUAL: case C_POINTER: case C_COMPLEX: case C_IMAGINARY:
	case C_RESTRICT_THIS: case C_VOLATILE_THIS: case C_CONST_THIS:
	case C_REF_THIS: case C_RREF_THIS: case C_TXSAFE: case C_NOEXCEPT:
	case C_THROW:
		print_modifier(p, c, NULL);
		return;
	case C_BUILTIN:
		put(p, bt[c->n].name, bt[c->n].len);
		return;
	case C_EXTBUILTIN:
		put(p, bt[BT_FLOATN].name, bt[BT_FLOATN].len);
		putnum(p, c->n);
		if (c->suffix)
			putc_(p, c->suffix);
		return;
	case C_VENDOR:
		pc(p, c->l);
		return;
	case C_FUNC:
		if (c->l != NULL) {
			struct pmod m;
			m.next = p->mods;
			p->mods = &m;
			m.mod = c;
			m.printed = 0;
			m.tpls = p->tpls;
			pc(p, c->l);
			p->mods = m.next;
			if (m.printed)
				return;
			putc_(p, ' ');
		}
		print_function_type(p, c, p->mods);
		return;
	case C_ARRAY:
		print_array(p, c);
		return;
	case C_PTRMEM: case C_VECTOR:
		print_modifier(p, c, c->r);
		return;
	case C_ARGLIST: case C_TARGLIST:
		if (c->l != NULL)
			pc(p, c->l);
		if (c->r != NULL) {
			/* ", " is written only if the rest prints something
			 * (an empty pack does not); like libiberty, which takes
			 * it back, the last character is then a blank */
			int commas = ++p->commas;
			p->last = ' ';
			pc(p, c->r);
			if (p->commas == commas)
				p->commas--;
		}
		return;
	case C_INITLIST:
		if (c->l)
			pc(p, c->l);
		putc_(p, '{');
		pc(p, c->r);
		putc_(p, '}');
		return;
	case C_OPERATOR: {
		size_t n = ops[c->n].len;
		const char *name = ops[c->n].name;
		puts_(p, "operator");
		if (islow(name[0]))
			putc_(p, ' ');
		if (name[n - 1] == ' ')
			n--;
		put(p, name, n);
		return;
	}
	case C_EXTOP:
		puts_(p, "operator ");
		pc(p, c->l);
		return;
	case C_CONVERSION:
		puts_(p, "operator ");
		print_conversion(p, c);
		return;
	case C_NULLARY:
		expr_op(p, c->l);
		return;
	case C_UNARY:
		print_unary(p, c);
		return;
	case C_BINARY:
		print_binary(p, c);
		return;
	case C_TRINARY:
		print_trinary(p, c);
		return;
	case C_LITERAL: case C_LITNEG:
		print_literal(p, c);
		return;
	case C_NUMBER:
		putnum(p, c->n);
		return;
	case C_DECLTYPE:
		puts_(p, "decltype (");
		pc(p, c->l);
		putc_(p, ')');
		return;
	case C_PACK: {
		struct cx *a;
		if (p->lambda_arg)
			p->dep++;
		a = p->lambda_arg ? NULL : find_pack(p, c->l);
		if (a == NULL) {
			subexpr(p, c->l);
			puts_(p, "...");
		} else {
			int len = pack_length(a), i;
			for (i = 0; i < len && !p->err; i++) {
				if (i)
					puts_(p, ", ");
				p->pack_index = i;
				pc(p, c->l);
			}
		}
		return;
	}
	case C_FPARAM:
		if (c->n == 0)
			puts_(p, "this");
		else {
			puts_(p, "{parm#");
			putnum(p, c->n);
			putc_(p, '}');
		}
		return;
	case C_GLOBALCTOR:
		puts_(p, "global constructors keyed to ");
		pc(p, c->l);
		return;
	case C_GLOBALDTOR:
		puts_(p, "global destructors keyed to ");
		pc(p, c->l);
		return;
	case C_LAMBDA:
		puts_(p, "{lambda(");
		p->lambda_arg++;
		pc(p, c->l);
		p->lambda_arg--;
		puts_(p, ")#");
		putnum(p, (long)c->n + 1);
		putc_(p, '}');
		return;
	case C_UNNAMED:
		puts_(p, "{unnamed type#");
		putnum(p, (long)c->n + 1);
		putc_(p, '}');
		return;
	case C_CLONE:
		pc(p, c->l);
		puts_(p, " [clone ");
		pc(p, c->r);
		putc_(p, ']');
		return;
	case C_MODENTITY:
		pc(p, c->l);
		putc_(p, '@');
		pc(p, c->r);
		return;
	case C_MODNAME: case C_MODPART:
		if (c->l)
			pc(p, c->l);
		if (c->t == C_MODPART)
			putc_(p, ':');
		else if (c->l)
			putc_(p, '.');
		pc(p, c->r);
		return;
	case C_MODINIT:
		puts_(p, "initializer for module ");
		pc(p, c->l);
		return;
	case C_VENDOREXPR:
		pc(p, c->l);
		putc_(p, '(');
		pc(p, c->r);
		putc_(p, ')');
		return;
	default:
		p->err = 1;
		return;
	}
}

static void
pc(struct pr *p, struct cx *c)
{
	if (p->err)
		return;
	/* leaves, the most common, print without the bookkeeping */
	if (c != NULL && (c->t == C_NAME || c->t == C_SUBSTD)) {
		put(p, c->s, (size_t)c->n);
		return;
	}
	if (c != NULL && c->t == C_BUILTIN) {
		put(p, bt[c->n].name, bt[c->n].len);
		return;
	}
	if (c == NULL || c->busy > 1 || p->depth >= CX_PRINT_DEPTH ||
	    ++p->steps > (long)(16 * (FOLD_DM_MAXOUT + CX_MAXCOMP))) {
		p->err = 1;
		return;
	}
	c->busy++;
	p->stack[p->depth++] = c;
	pc_inner(p, c);
	p->depth--;
	c->busy--;
}

/* ---- the fast path -------------------------------------------------------
 *
 * Most symbols are plain: nested names of source names and operators,
 * template arguments that are types, integer literals or packs of them,
 * parameters that are builtins, names, pointers and references, one
 * cv-qualifier, function types, pack expansions, substitutions and
 * template parameters.  Printed where they are, such shapes do not depend
 * on what is around them, so they are printed while they are parsed, and
 * a substitution or template parameter is a copy of a span of the output
 * already written.  Two expressions of template arguments are taken too,
 * scoped names (X sr ... E, enable_if<is_signed<T>::value>) and addresses
 * of template functions (X ad L_Z ... E E), and local statics (Z ... E
 * name), internal-linkage names (_ZL), ref-qualifiers and clone suffixes
 * (.cold), lambdas in nested names, conversion operators, templates of
 * ctors, local names as types (typeinfo for f()::S, a lambda of a function
 * in template arguments), auto, and an array given through a template
 * parameter under a qualifier or reference.  Anything else (pointers to
 * members, function types under qualifiers, other expressions, other
 * local names, a substitution whose text depends on where it is
 * printed...) makes fx_demangle() give up, and the symbol goes through
 * the two passes
 * above, which are the reference: the fast path only takes shapes for
 * which it writes the same bytes (CX_FAST=0 builds without it, to compare
 * them).  It also gives up where the two passes could reach one of their
 * limits (components, substitutions, print depth), so that they decide.
 *
 * It reads a copy of the symbol followed by FX_PAD NUL bytes: a NUL
 * matches nothing the grammar wants, so the end needs no check of its own
 * where a byte is looked at, and a name is copied 32 bytes at a time (a
 * symbol holding a NUL is no symbol: found while the copy is made).  The
 * readers of nested names, template argument lists and encodings are
 * compiled once for each of their cases (FX_INLINE bodies behind small
 * wrappers), which lets the compiler drop what the other case needs. */

#define FX_MAXSUB 256
#define FX_MAXTARG 64
#define FX_MAXDEPTH 64
#define FX_MAXCOMP 500		/* print depth <= 2 * components < CX_PRINT_DEPTH */
#define FX_MINCAP 64		/* a smaller output buffer: the two passes' */
#define FX_TD 2			/* packdep: a template parameter */
#define FX_PAD 32		/* NUL bytes after the copy of the symbol */
#if defined(__GNUC__)
#define FX_INLINE inline __attribute__((always_inline))
#define FX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FX_INLINE inline
#define FX_UNLIKELY(x) (x)
#endif

/* What a printed type is, for the rules that depend on it.  K_REFREF (a
 * reference to a reference, printed as one), K_FUNC, K_ARRAY and
 * K_FUNCPTR, K_FUNCREF, K_FUNCRREF (a pointer, reference or rvalue
 * reference to either) print the same only where no modifier is pending;
 * K_BAD (a
 * function type printed inside a pointer, a type of a pack expansion) has
 * no text of its own. */
enum { K_NAME, K_BUILTIN, K_VOID, K_PTR, K_REF, K_RREF, K_REFREF, K_CV,
	K_FUNC, K_ARRAY, K_FUNCPTR, K_FUNCREF, K_FUNCRREF, K_PACK, K_BAD };

struct fspan {
	int off, len, kind;	/* K_PACK: pack elements pel[off..off+len) */
	int td;			/* a substitution's: packdep where it was made
				 * (FX_TD: its text holds a T_; 1: it is of a
				 * pack expansion, it has no text of its own) */
};

/* a substitution that may be copied */
#define FX_USABLE(s) ((s)->kind != K_BAD && !((s)->td & 1))

struct fx {
	const char *p, *end;
	char *out;
	int len, cap;
	int ncomp, maxcomp;	/* components the two passes would make */
	int nsub, maxsub;
	int ntarg;		/* the function's template arguments; -1: none */
	int nrec, npel;		/* recorded so far */
	int packi, packn;	/* in a pack expansion: element, count (-1) */
	int packdep;		/* the type being parsed uses: 1 the pack,
				 * 2 a template parameter (FX_TD) */
	int depth;
	const char *ln;		/* the last source name (for a ctor) */
	int lnlen;
	struct fspan sub[FX_MAXSUB];
	struct fspan targ[FX_MAXTARG];
	struct fspan pel[FX_MAXTARG];
};

/* Append s[0..n), s + n <= send.  A short piece (most names) is copied
 * as 16 bytes where both sides have room for them (what follows it in the
 * output is scratch); memmove: a copy of the output may overlap. */
static inline int
fx_put(struct fx *f, const char *s, const char *send, int n)
{
	char *o = f->out + f->len;

	if (n <= 16 && f->cap - f->len >= 16 && send - s >= 16)
		memmove(o, s, 16);
	else if (!FX_UNLIKELY(f->cap - f->len < n))
		memmove(o, s, (size_t)n);
	else
		return 0;
	f->len += n;
	return 1;
}

/* a string literal */
static inline int
fx_lit(struct fx *f, const char *s, int n)
{
	if (FX_UNLIKELY(f->cap - f->len < n))
		return 0;
	memcpy(f->out + f->len, s, (size_t)n);
	f->len += n;
	return 1;
}

#define fx_puts(f, lit) fx_lit((f), (lit), (int)sizeof(lit) - 1)

static inline int
fx_copy(struct fx *f, const struct fspan *s)
{
	const char *from = f->out + s->off;

	return fx_put(f, from, f->out + f->cap, s->len);
}

static inline int
fx_addsub(struct fx *f, int start, int kind)
{
	struct fspan *s;

	if (FX_UNLIKELY(f->nsub >= f->maxsub))
		return 0;
	s = &f->sub[f->nsub++];
	s->off = start;
	s->len = f->len - start;
	s->kind = kind;
	s->td = f->packdep;
	return 1;
}

/* n more components: always 1, the count only grows (fx_expansion()
 * checks it before it takes it back), so fx_demangle() checks it once at
 * the end rather than a branch at each of them */
static inline int
fx_comp(struct fx *f, int n)
{
	f->ncomp += n;
	return 1;
}

static inline int fx_type(struct fx *f);
static int fx_encoding(struct fx *f, int params);
static int fx_targs(struct fx *f, int record);

/* _GLOBAL__N...: printed as "(anonymous namespace)" */
static int
fx_anon(struct fx *f)
{
	f->ln = "(anonymous namespace)";
	f->lnlen = (int)sizeof("(anonymous namespace)") - 1;
	return fx_lit(f, f->ln, f->lnlen);
}

/* <source-name> */
static inline int
fx_source_name(struct fx *f)
{
	const char *p = f->p;
	int n;

	if (!isdig(*p))
		return 0;
	n = *p++ - '0';
	while (isdig(*p)) {
		n = n * 10 + (*p++ - '0');
		if (n > CX_MAXIN)
			return 0;
	}
	if (n <= 0 || f->end - p < n)
		return 0;
	f->ncomp++;
	f->p = p + n;
	if (n >= 10 && p[0] == '_' && p[1] == 'G' &&
	    memcmp(p, "_GLOBAL_", 8) == 0 &&
	    (p[8] == '.' || p[8] == '_' || p[8] == '$') && p[9] == 'N')
		return fx_anon(f);
	f->ln = p;
	f->lnlen = n;
	return fx_put(f, p, f->end + FX_PAD, n);
}

/* [B <source-name>]... */
static int
fx_abi_tags1(struct fx *f)
{
	const char *ln = f->ln;
	int lnlen = f->lnlen;

	while (*f->p == 'B') {
		f->p++;
		if (!fx_comp(f, 1) || !fx_puts(f, "[abi:") ||
		    !fx_source_name(f) || !fx_puts(f, "]"))
			return 0;
	}
	f->ln = ln;
	f->lnlen = lnlen;
	return 1;
}

static inline int
fx_abi_tags(struct fx *f)
{
	return *f->p != 'B' || fx_abi_tags1(f);
}

/* Whether no substitution that can be used holds a T_ (see fx_lambda()) */
static int
fx_no_td(const struct fx *f)
{
	int k;

	for (k = 0; k < f->nsub; k++)
		if ((f->sub[k].td & FX_TD) && FX_USABLE(&f->sub[k]))
			return 0;
	return 1;
}

/* cv <type>: a conversion operator, "operator type" (fx_operator() gives
 * 2 for it).  A template parameter in the type is read and printed in ways
 * of its own (in the scope of the enclosing template): not here, nor
 * through a substitution, as in a lambda's parameters; nor a function or
 * array type. */
static int
fx_conversion(struct fx *f)
{
	int ntarg = f->ntarg, kind;

	if (!fx_no_td(f))
		return 0;
	f->p += 2;
	if (!fx_comp(f, 1) || !fx_puts(f, "operator "))
		return 0;
	f->ntarg = -1;
	kind = fx_type(f);
	f->ntarg = ntarg;
	return kind >= 0 && kind < K_FUNC;
}

/* an operator's name (not cv, v<digit>, li) */
static int
fx_operator(struct fx *f)
{
	int lo = 0, hi = NOPS;
	char c1, c2;

	c1 = f->p[0];
	c2 = f->p[1];
	if (c1 == 'c' && c2 == 'v')
		return fx_conversion(f) ? 2 : 0;
	if ((c1 == 'l' && c2 == 'i') || (c1 == 'o' && c2 == 'n'))
		return 0;
	while (lo < hi) {
		int i = lo + (hi - lo) / 2;
		if (c1 == ops[i].code[0] && c2 == ops[i].code[1]) {
			int n = ops[i].len;
			const char *name = ops[i].name;
			f->p += 2;
			if (name[n - 1] == ' ')
				n--;
			return fx_comp(f, 1) && fx_puts(f, "operator") &&
			    (!islow(name[0]) || fx_puts(f, " ")) &&
			    fx_lit(f, name, n) && fx_abi_tags(f);
		}
		if (c1 < ops[i].code[0] ||
		    (c1 == ops[i].code[0] && c2 < ops[i].code[1]))
			hi = i;
		else
			lo = i + 1;
	}
	return 0;
}

/* S_, S<seq-id>_: the substitution, or NULL */
static const struct fspan *
fx_seq_id(struct fx *f)
{
	unsigned id = 0;

	f->p++;		/* S */
	if (*f->p == '_')
		f->p++;
	else {
		while (*f->p != '_') {
			char c = *f->p++;
			if (isdig(c))
				id = id * 36 + (unsigned)(c - '0');
			else if (isupp(c))
				id = id * 36 + (unsigned)(c - 'A') + 10;
			else
				return NULL;
			if (id >= FX_MAXSUB)
				return NULL;
		}
		f->p++;
		id++;
	}
	if (id >= (unsigned)f->nsub || !FX_USABLE(&f->sub[id]))
		return NULL;
	return &f->sub[id];
}

/* the same, S_ and S<one digit>_ (most of them) where they are */
static inline const struct fspan *
fx_sub(struct fx *f)
{
	const char *p = f->p;
	unsigned id;

	if (p[1] == '_') {
		id = 0;
		f->p = p + 2;
	} else if (p[2] == '_' && isdig(p[1])) {
		id = (unsigned)(p[1] - '0') + 1;
		f->p = p + 3;
	} else if (p[2] == '_' && isupp(p[1])) {
		id = (unsigned)(p[1] - 'A') + 11;
		f->p = p + 3;
	} else
		return fx_seq_id(f);
	if (id >= (unsigned)f->nsub || !FX_USABLE(&f->sub[id]))
		return NULL;
	return &f->sub[id];
}

/* Sa, Sb, Ss, Si, So, Sd (not St); prefix: in a nested name (before a
 * ctor or dtor, the full name) */
static int
fx_stdsub(struct fx *f, int prefix)
{
	size_t k;
	char c;

	c = f->p[1];
	for (k = 1; k < sizeof(stdsub) / sizeof(stdsub[0]); k++) {
		const char *t = stdsub[k].simple;
		if (c != stdsub[k].code)
			continue;
		f->p += 2;
		if (*f->p == 'B')
			return 0;
		if (prefix && (*f->p == 'C' || *f->p == 'D'))
			t = stdsub[k].full;
		f->ln = stdsub[k].last;
		f->lnlen = (int)strlen(stdsub[k].last);
		return fx_comp(f, 2) && fx_lit(f, t, (int)strlen(t));
	}
	return 0;
}

/* L <type> [n] <digits> E: a literal of an integer, bool or named type */
static int
fx_literal(struct fx *f)
{
	const char *s;
	int neg = 0, tp = P_DEF;
	char t;

	f->p++;		/* L */
	t = *f->p;
	if (islow(t)) {
		if (t == 'u' || t == 'k' || t == 'p' || t == 'q' || t == 'r')
			return 0;
		tp = bt[t - 'a'].print;
		if (tp == P_FLOAT || tp == P_VOID)
			return 0;
	}
	if (tp == P_DEF || tp == P_BOOL) {
		if (!fx_puts(f, "(") || fx_type(f) < 0 || !fx_puts(f, ")"))
			return 0;
	} else
		f->p++;
	if (*f->p == 'n') {
		neg = 1;
		f->p++;
	}
	s = f->p;
	while (isdig(*f->p))
		f->p++;
	if (f->p == s || *f->p != 'E' || !fx_comp(f, 3))
		return 0;
	f->p++;
	if (tp == P_BOOL && !neg && f->p - s == 2 && (*s == '0' || *s == '1')) {
		f->len -= 6;	/* "(bool)" */
		return *s == '0' ? fx_puts(f, "false") : fx_puts(f, "true");
	}
	if ((neg && !fx_puts(f, "-")) || !fx_put(f, s, f->end + FX_PAD, (int)(f->p - 1 - s)))
		return 0;
	switch (tp) {
	case P_UNS: return fx_puts(f, "u");
	case P_LONG: return fx_puts(f, "l");
	case P_ULONG: return fx_puts(f, "ul");
	case P_LLONG: return fx_puts(f, "ll");
	case P_ULLONG: return fx_puts(f, "ull");
	default: return 1;
	}
}

/* X sr <prefix> E <source-name> [<template-args>] E: the expression
 * of a template argument that is a scoped name (enable_if<is_signed<T>::
 * value>), printed "prefix::name".  As the two passes read it first: the
 * prefix's names are not substitutions (its types are). */
static int
fx_unresolved(struct fx *f)
{
	const char *p = f->p;

	if (p[1] != 's' || p[2] != 'r' || !isdig(p[3]))
		return -1;
	f->p += 3;
	f->ncomp += 3;
	for (;;) {
		if (!fx_source_name(f) || !fx_abi_tags(f))
			return -1;
		f->ncomp++;
		if (*f->p == 'I' && !fx_targs(f, 0))
			return -1;
		if (*f->p == 'E')
			break;
		if (!isdig(*f->p) || !fx_puts(f, "::"))
			return -1;
	}
	f->p++;		/* E */
	if (!fx_puts(f, "::") || !fx_source_name(f) || !fx_abi_tags(f) ||
	    (*f->p == 'I' && !fx_targs(f, 0)) || *f->p != 'E')
		return -1;
	f->p++;		/* E */
	return K_NAME;
}

/* The encoding of a function inside the template arguments of another
 * (X ad L_Z ... E, Z ... E): its template arguments are its own, so those
 * of the list being read are put back after it, and the substitutions
 * made in it that hold its T_, which the two passes print with its
 * arguments wherever they are used again, are not copied after it.
 * params: as fx_encoding(). */
static int
fx_inner_encoding(struct fx *f, int params)
{
	struct fspan targ[FX_MAXTARG], pel[FX_MAXTARG];
	int ntarg = f->ntarg, npel = f->npel, nrec = f->nrec, mark = f->nsub;
	int ok, k;

	memcpy(targ, f->targ, sizeof(targ));
	memcpy(pel, f->pel, sizeof(pel));
	f->depth++;
	ok = fx_encoding(f, params);
	f->depth--;
	memcpy(f->targ, targ, sizeof(targ));
	memcpy(f->pel, pel, sizeof(pel));
	f->ntarg = ntarg;
	f->npel = npel;
	f->nrec = nrec;
	for (k = mark; k < f->nsub; k++)
		if (f->sub[k].td & FX_TD)
			f->sub[k].kind = K_BAD;
	return ok;
}

/* X ad L _Z <encoding> E E: the address of a template function as a
 * template argument, printed "&(ret name<args>(params))", where no T_ has
 * been read before it (fx_inner_encoding()). */
static int
fx_address(struct fx *f)
{
	if (f->packi >= 0 || f->depth >= FX_MAXDEPTH || f->ntarg >= 0)
		return -1;	/* (T_ before it: not here) */
	f->p += 6;
	f->ncomp += 3;
	if (!fx_puts(f, "&(") || !fx_inner_encoding(f, 2) ||
	    f->p[0] != 'E' || f->p[1] != 'E' || !fx_puts(f, ")"))
		return -1;
	f->p += 2;
	return K_NAME;
}

/* One template argument: its kind, or -1.  pack: an element of a pack;
 * rec: a pack's elements go to pel[] (the function's arguments). */
static int
fx_targ(struct fx *f, int pack, int rec)
{
	switch (*f->p) {
	case 'L':
		return fx_comp(f, 1) && fx_literal(f) ? K_NAME : -1;
	case 'X':
		if (f->p[1] == 'a' && f->p[2] == 'd' && f->p[3] == 'L' &&
		    f->p[4] == '_' && f->p[5] == 'Z')
			return fx_address(f);
		return fx_unresolved(f);
	case 'I':
		return -1;
	case 'J': {
		int n = 0, first = f->npel, slot = f->nrec;
		if (pack || !fx_comp(f, 1))
			return -1;
		f->p++;
		while (*f->p != 'E') {
			int start, kind;
			if ((n > 0 && !fx_puts(f, ", ")) || !fx_comp(f, 1))
				return -1;
			start = f->len;
			if ((kind = fx_targ(f, 1, 0)) < 0 || f->len == start)
				return -1;
			if (rec) {
				if (f->npel >= FX_MAXTARG)
					return -1;
				f->pel[f->npel].off = start;
				f->pel[f->npel].len = f->len - start;
				f->pel[f->npel].kind = kind;
				f->npel++;
			}
			n++;
		}
		f->p++;
		if (rec) {
			/* the span is the elements' */
			f->targ[slot].off = first;
			f->targ[slot].len = n;
		}
		return K_PACK;
	}
	default:
		return fx_type(f);
	}
}

/* I <template-arg>* E; record: they are the function's.  As libiberty,
 * an empty pack prints nothing, and the ", " before empty packs at the end
 * are taken back (and then no space goes before the '>'). */
static FX_INLINE int
fx_targs_body(struct fx *f, int record)
{
	const char *ln = f->ln;
	int lnlen = f->lnlen, n = 0, end;
	char c;

	f->p++;		/* I */
	if (f->len > 0 && f->out[f->len - 1] == '<' && !fx_puts(f, " "))
		return 0;
	if (!fx_puts(f, "<") || !fx_comp(f, 2))
		return 0;
	end = f->len;
	if (record) {
		f->ntarg = -1;	/* (not while they are parsed) */
		f->npel = 0;
	}
	while (*f->p != 'E') {
		int start, kind;
		if (n > 0 && !fx_puts(f, ", "))
			return 0;
		start = f->len;
		if (n >= FX_MAXTARG)
			return 0;
		f->nrec = n;
		f->ncomp++;
		c = *f->p;
		kind = c == 'L' || c == 'J' || c == 'X' || c == 'I' ?
		    fx_targ(f, 0, record) : fx_type(f);
		if (kind < 0)
			return 0;
		if (f->len > start)
			end = f->len;
		if (record) {
			if (kind != K_PACK) {
				f->targ[n].off = start;
				f->targ[n].len = f->len - start;
			}
			f->targ[n].kind = kind;
		}
		n++;
	}
	if (record)
		f->ntarg = n;
	f->p++;		/* E */
	if (n > 1 && f->len != end)
		f->len = end;	/* empty packs at the end */
	else if (f->out[f->len - 1] == '>' && !fx_puts(f, " "))
		return 0;
	f->ln = ln;
	f->lnlen = lnlen;
	return fx_puts(f, ">");
}


/* fx_targs_body() compiled for the two cases */
static int
fx_targs(struct fx *f, int record)
{
	return record ? fx_targs_body(f, 1) : fx_targs_body(f, 0);
}

/* a number >= 0, in decimal */
static int
fx_num(struct fx *f, long v)
{
	char b[24];
	int k = (int)sizeof(b);

	do
		b[--k] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	return fx_lit(f, b + k, (int)sizeof(b) - k);
}

/* Ul <type>+ E [<number>] _: a lambda, printed "{lambda(params)#n}", its
 * parameters as a function's.  A template parameter there prints as
 * auto:N, also through a substitution: not here (ntarg -1 refuses T_,
 * and no substitution may hold one).  Nor, in a type (!top), a parameter
 * that is qualified, or a function or array type or a pointer to one: the
 * two passes print it while the modifiers of the type wait (P, K...),
 * and those change how such a parameter prints (a const waiting drops the
 * parameter's own; an array or function takes them in), which only they
 * know. */
static int
fx_lambda(struct fx *f, int top)
{
	int ntarg = f->ntarg, n, ok = 1;
	long num = 0;

	if (!fx_no_td(f))
		return 0;
	f->p += 2;
	if (!fx_comp(f, 2) || !fx_puts(f, "{lambda("))
		return 0;
	f->ntarg = -1;
	for (n = 0; *f->p != 'E'; n++) {
		const char *pstart = f->p;
		int kind, start;
		if (n > 0 && !fx_puts(f, ", ")) {
			ok = 0;
			break;
		}
		start = f->len;
		if ((kind = fx_type(f)) < 0 || !fx_comp(f, 1) ||
		    (!top && kind >= K_CV)) {
			ok = 0;
			break;
		}
		/* (v): no parameters */
		if (n == 0 && kind == K_VOID && f->p - 1 == pstart &&
		    *f->p == 'E')
			f->len = start;
	}
	f->ntarg = ntarg;
	if (!ok || n == 0)
		return 0;
	f->p++;		/* E */
	if (*f->p != '_') {
		while (isdig(*f->p) && num < 1000000)
			num = num * 10 + (*f->p++ - '0');
		if (num >= 1000000)
			return 0;
		num++;
	}
	if (*f->p != '_' || !fx_puts(f, ")#"))
		return 0;
	f->p++;
	f->ln = NULL;	/* (no ctor after it here) */
	return fx_num(f, num + 1) && fx_puts(f, "}");
}

/* N [K] [R|O] <prefix> E: a type's (top 0: a substitution, as
 * fx_type_rec() makes one) or the function's (top 1, *cvq: 1 for a const
 * member function, | 2 for &, | 4 for &&).  *tpl: it ends in template
 * arguments, 1 of a name that is not a ctor or dtor (a return type
 * follows), 2 of a ctor's or dtor's (none does). */
static FX_INLINE int
fx_nested_body(struct fx *f, int top, int *cvq, int *tpl)
{
	/* (the cursors in locals: a store through o may alias *f) */
	char *const out = f->out;
	const char *const end = f->end;
	const char *p = f->p + 1;	/* N */
	char *o = out + f->len, *olim;
	int start = f->len, have = 0, ctor = 0, t = 0, dep = 0;

	olim = out + f->cap - 34;	/* room for "::" and 32 bytes */

#define FX_SAVE() (f->p = p, f->len = (int)(o - out))
#define FX_LOAD() (p = f->p, o = out + f->len)
	if (!top) {
		/* a type: fx_type_rec()'s bookkeeping, in this frame */
		char c = *p;
		if (c == 'R' || c == 'O' || f->depth >= FX_MAXDEPTH)
			return 0;
		f->depth++;
		dep = f->packdep;
		f->packdep = 0;
	} else {
		if (*p == 'K') {
			*cvq = 1;
			p++;
			f->ncomp++;
		}
		if (*p == 'R' || *p == 'O') {
			/* a ref-qualifier: " &" or " &&" after the const */
			*cvq |= *p == 'R' ? 2 : 4;
			p++;
			f->ncomp++;
		}
	}
	/* (more qualifiers: r is restrict there, not an operator) */
	if (*p == 'r' || *p == 'V' || *p == 'K')
		return 0;
	for (;;) {
		char c = p[0], c2 = p[1];

		if (c >= '1' && c <= '9') {
			/* <source-name>, as fx_source_name() (a length of 0...
			 * is the two passes') */
			int n = c - '0';
			unsigned d1 = (unsigned)(p[1] - '0');
			/* one digit or two without a branch, more in the
			 * loop */
			int two = d1 <= 9;
			n = two ? n * 10 + (int)d1 : n;
			p += 1 + two;
			if (two)
				while (isdig(*p)) {
					n = n * 10 + (*p++ - '0');
					if (n > CX_MAXIN)
						return 0;
				}
			if (FX_UNLIKELY(n > end - p || n > olim - o))
				return 0;
			if (have) {
				memcpy(o, "::", 2);
				o += 2;
			}
			f->ncomp += 2;
			if (n >= 10 && p[0] == '_' && p[1] == 'G' &&
			    memcmp(p, "_GLOBAL_", 8) == 0 &&
			    (p[8] == '.' || p[8] == '_' || p[8] == '$') &&
			    p[9] == 'N') {
				p += n;
				FX_SAVE();
				if (!fx_anon(f))
					return 0;
				o = out + f->len;
			} else {
				/* (the input is padded, the output has room) */
				if (n <= 32)
					memcpy(o, p, 32);
				else
					memcpy(o, p, (size_t)n);
				f->ln = p;
				f->lnlen = n;
				o += n;
				p += n;
			}
			if (*p == 'B') {
				FX_SAVE();
				if (!fx_abi_tags1(f))
					return 0;
				FX_LOAD();
			}
			ctor = 0;
			t = 0;
		} else if (c == 'I') {
			/* (after a substitution, whether the name is a
			 * ctor's is not known here) */
			if (!have || (ctor < 0 && top))
				return 0;
			FX_SAVE();
			if (!fx_targs(f, top))
				return 0;
			FX_LOAD();
			/* (a second list: a template of a template, which
			 * libiberty gives a return type) */
			t = ctor > 0 ? 2 : 1;
			ctor = 0;
		} else if (c == 'S') {
			if (have)
				return 0;
			ctor = 0;
			FX_SAVE();
			if (c2 == 't') {
				f->p += 2;
				if (!fx_comp(f, 1) || !fx_puts(f, "std"))
					return 0;
			} else if (c2 == '_' || isdig(c2) || isupp(c2)) {
				const struct fspan *s = fx_sub(f);
				if (s == NULL || s->kind != K_NAME ||
				    !fx_copy(f, s))
					return 0;
				f->packdep |= s->td & FX_TD;
				ctor = -1;
			} else if (!fx_stdsub(f, 1))
				return 0;
			FX_LOAD();
			have = 1;
			if (*p == 'E')
				return 0;
			continue;
		} else if (c == 'L' && c2 >= '1' && c2 <= '9') {
			/* internal linkage, not printed: the name is read
			 * next (a discriminator after it is the two passes') */
			const char *q = p + 1;
			int n = 0;
			while (isdig(*q) && n <= CX_MAXIN)
				n = n * 10 + (*q++ - '0');
			if (n > end - q || q[n] == '_')
				return 0;
			p++;
			continue;
		} else if (islow(c)) {
			int op;
			FX_SAVE();
			if ((have && !fx_puts(f, "::")) || !fx_comp(f, 1) ||
			    (op = fx_operator(f)) == 0)
				return 0;
			FX_LOAD();
			/* (a conversion operator in a type: the two passes';
			 * one with template arguments has no return type) */
			if (op == 2 && (!top || *p == 'B' || *p == 'I'))
				return 0;
			ctor = 0;
			t = 0;
		} else if (c == 'U' && c2 == 'l') {
			FX_SAVE();
			if ((have && !fx_puts(f, "::")) || !fx_lambda(f, top))
				return 0;
			FX_LOAD();
			if (*p == 'B')
				return 0;
			ctor = 0;
			t = 0;
		} else if ((c == 'C' && c2 >= '1' && c2 <= '5') ||
		    (c == 'D' && (c2 == '0' || c2 == '1' || c2 == '2' ||
		    c2 == '4' || c2 == '5'))) {
			p += 2;
			FX_SAVE();
			if (!have || f->ln == NULL || !fx_puts(f, "::") ||
			    (c == 'D' && !fx_puts(f, "~")) ||
			    !fx_lit(f, f->ln, f->lnlen) || !fx_comp(f, 2))
				return 0;
			FX_LOAD();
			if (*p == 'B')
				return 0;
			ctor = 1;
			t = 0;
		} else
			return 0;
		have = 1;
		if (*p == 'E')
			break;
		if (FX_UNLIKELY(f->nsub >= f->maxsub))
			return 0;
		f->sub[f->nsub].off = start;
		f->sub[f->nsub].len = (int)(o - out) - start;
		f->sub[f->nsub].kind = K_NAME;
		f->sub[f->nsub].td = f->packdep;
		f->nsub++;
	}
#undef FX_SAVE
#undef FX_LOAD
	*tpl = t;
	f->p = p + 1;	/* E */
	f->len = (int)(o - out);
	if (!top) {
		f->depth--;
		if (!fx_addsub(f, start, K_NAME))
			return 0;
		f->packdep |= dep;
	}
	return 1;
}

/* fx_nested_body() twice, for a function's name and for a type, so that
 * each is compiled for its own case */
static int
fx_nested_top(struct fx *f, int *cvq, int *tpl)
{
	return fx_nested_body(f, 1, cvq, tpl);
}

static int
fx_nested(struct fx *f)
{
	int tpl;

	return fx_nested_body(f, 0, NULL, &tpl);
}

/* <unscoped-name> [<template-args>], St included (not N): *tpl as above */
static int
fx_unscoped(struct fx *f, int top, int *tpl)
{
	int start = f->len;

	*tpl = 0;
	if (*f->p == 'S') {
		if (f->p[1] != 't' ||
		    !(isdig(f->p[2]) || islow(f->p[2])))
			return 0;
		f->p += 2;
		if (!fx_comp(f, 2) || !fx_puts(f, "std::"))
			return 0;
	}
	if (islow(*f->p)) {
		if (fx_operator(f) != 1)
			return 0;	/* (a conversion: the two passes') */
	} else if (top && *f->p == 'L') {
		/* internal linkage (_ZL3foov): not printed; a discriminator
		 * after the name is the two passes' */
		f->p++;
		if (!fx_source_name(f) || *f->p == '_' || !fx_abi_tags(f))
			return 0;
	} else if (!fx_source_name(f) || !fx_abi_tags(f))
		return 0;
	if (*f->p == 'I') {
		if (!fx_addsub(f, start, K_NAME) || !fx_targs(f, top))
			return 0;
		*tpl = 1;
	}
	return 1;
}

/* F <return type> <parameters> E; mod: the pointer or reference it is
 * under, or NULL.  Its kind, or -1. */
static int
fx_funtype(struct fx *f, const char *mod)
{
	int kind, n, start, end;

	f->p++;		/* F */
	if (*f->p == 'Y' || *f->p == '\0' || !fx_comp(f, 1))
		return -1;
	kind = fx_type(f);
	if (kind < 0 || kind >= K_FUNC || !fx_puts(f, " ") || (mod && (!fx_puts(f, "(") ||
	    !fx_lit(f, mod, (int)strlen(mod)) || !fx_puts(f, ")"))) ||
	    !fx_puts(f, "("))
		return -1;
	end = f->len;
	for (n = 0; *f->p != 'E'; n++) {
		const char *pstart = f->p;
		if ((n > 0 && !fx_puts(f, ", ")) || !fx_comp(f, 1))
			return -1;
		start = f->len;
		if ((*f->p == 'R' || *f->p == 'O') && f->p[1] == 'E')
			return -1;	/* a ref-qualifier */
		if ((kind = fx_type(f)) < 0)
			return -1;
		if (f->len > start)
			end = f->len;
		if (n == 0 && kind == K_VOID && f->p - 1 == pstart &&
		    *f->p == 'E')
			f->len = end = start;
	}
	if (n == 0)
		return -1;
	f->p++;		/* E */
	if (n > 1 && f->len != end)
		f->len = end;
	return fx_puts(f, ")") ? K_FUNC : -1;
}

/* A [<digits>] _ <type>; mod: the pointer or reference it is under, or
 * NULL.  Its kind, or -1. */
static int
fx_array(struct fx *f, const char *mod)
{
	const char *dim;
	int kind, n;

	f->p++;		/* A */
	dim = f->p;
	while (isdig(*f->p))
		f->p++;
	n = (int)(f->p - dim);
	if (*f->p != '_' || !fx_comp(f, 2))
		return -1;
	f->p++;
	kind = fx_type(f);
	if (kind < 0 || kind == K_REF || kind == K_RREF || kind == K_REFREF ||
	    kind >= K_FUNC)
		return -1;
	if (mod && (!fx_puts(f, " (") || !fx_lit(f, mod, (int)strlen(mod)) ||
	    !fx_puts(f, ")")))
		return -1;
	return fx_puts(f, " [") && fx_put(f, dim, f->end + FX_PAD, n) &&
	    fx_puts(f, "]") ? K_ARRAY : -1;
}

/* Dp <type>: the type once for each element of the pack it names */
static int
fx_expansion(struct fx *f)
{
	const char *p0, *p1 = NULL;
	int start = f->len, nsub = 0, ncomp = 0, i, hold = f->packdep;
	int nsub0 = f->nsub;

	if (f->packi >= 0 || !fx_comp(f, 1))
		return -1;
	f->p += 2;
	p0 = f->p;
	f->packn = -1;
	for (i = 0; i == 0 || i < f->packn; i++) {
		if (i > 0 && !fx_puts(f, ", "))
			return -1;
		f->p = p0;
		f->packi = i;
		f->packdep = 0;
		if (fx_type(f) < 0 || f->packn < 0)
			return -1;
		if (i == 0) {
			/* its substitutions and components, once */
			p1 = f->p;
			nsub = f->nsub;
			ncomp = f->ncomp;
		} else if (f->p != p1 || f->ncomp > f->maxcomp)
			return -1;
		f->nsub = nsub;
		f->ncomp = ncomp;
	}
	if (f->packn == 0) {
		/* an empty pack: its text is dropped, so the substitutions
		 * read in it have none to copy (the two passes print them) */
		f->len = start;
		for (i = nsub0; i < f->nsub; i++)
			f->sub[i].kind = K_BAD;
	}
	f->packi = -1;
	f->packdep = 1 | FX_TD;
	i = fx_addsub(f, start, K_BAD);
	f->packdep = hold | FX_TD;
	return i ? K_BAD : -1;
}

/* [_<number> | __<number>_] after a local name (not printed): __<number>
 * takes its _ after 10 or more only, as libiberty reads it */
static int
fx_discriminator(struct fx *f)
{
	const char *d;
	int two, n = 0;

	if (*f->p != '_')
		return 1;
	two = f->p[1] == '_';
	f->p += 1 + two;
	for (d = f->p; isdig(*f->p) && f->p - d < 9; f->p++)
		n = n * 10 + (*f->p - '0');
	if (f->p == d || isdig(*f->p))
		return 0;
	return !two || n < 10 || *f->p++ == '_';
}

/* Z <encoding> E <entity>: a local name as a type (a template argument's,
 * handleErrors<f<int>(int)::{lambda(Error&)#1}>), printed as the function
 * (its return type left out, as fx_local() does) "::" the entity, a
 * lambda or a name (its discriminator not printed).  The function's
 * template arguments are its own (fx_inner_encoding()), so no T_ may be
 * read before it. */
static int
fx_localtype(struct fx *f)
{
	if (f->packi >= 0 || f->depth >= FX_MAXDEPTH || !fx_no_td(f))
		return -1;
	f->p++;		/* Z */
	f->ncomp += 3;
	if (!fx_inner_encoding(f, 3) || *f->p != 'E')
		return -1;
	f->p++;		/* E */
	if (!fx_puts(f, "::"))
		return -1;
	/* (template arguments or ABI tags after it: the two passes') */
	if (f->p[0] == 'U' && f->p[1] == 'l')
		return fx_lambda(f, 0) && *f->p != 'B' && *f->p != 'I' ?
		    K_NAME : -1;
	if (!isdig(*f->p) || !fx_source_name(f) || *f->p == 'B' ||
	    *f->p == 'I')
		return -1;
	return fx_discriminator(f) ? K_NAME : -1;
}

/* An array type printed in out[start..len) (a template argument's), with
 * a qualifier (cv) or a pointer or reference applied to it: libiberty
 * prints the qualifier with the element type ("char const [4]") and the
 * pointer or reference before the dimensions ("char (&) [4]"), so ins is
 * put in before " [": 0 if it cannot be (a qualifier on an element type
 * already qualified).  The substitutions made in that text (the template
 * parameter's, the qualified type's) have no text of their own then. */
static int
fx_into_array(struct fx *f, int start, const char *ins, int n, int cv)
{
	char *o = f->out;
	int i = f->len, k;

	while (i > start && o[i - 1] == ']') {
		for (i--; i > start && isdig(o[i - 1]); i--)
			;
		if (i == start || o[--i] != '[')
			return 0;
	}
	if (i == f->len || i - start < 2 || o[--i] != ' ' ||
	    o[i - 1] == ' ' || f->cap - f->len < n)
		return 0;
	/* (an element type ending in a qualifier: not here) */
	if (cv && ((i - start >= 6 && memcmp(o + i - 6, " const", 6) == 0) ||
	    (i - start >= 9 && memcmp(o + i - 9, " volatile", 9) == 0) ||
	    (i - start >= 9 && memcmp(o + i - 9, " restrict", 9) == 0)))
		return 0;
	for (k = f->nsub - 1; k >= 0 && f->sub[k].off >= start; k--)
		if (f->sub[k].off + f->sub[k].len > i)
			f->sub[k].kind = K_BAD;
	memmove(o + i + n, o + i, (size_t)(f->len - i));
	memcpy(o + i, ins, (size_t)n);
	f->len += n;
	return 1;
}

/* K, V or r <type> at f->p, its text from out[start]: its kind (K_CV, or
 * K_ARRAY for an array given through a template parameter, the qualifier
 * going with its element type), or -1; its substitution is the caller's.
 * Inline, so that a pointer or reference to a qualified type (RK, PK) is
 * read in one frame. */
static FX_INLINE int
fx_cv(struct fx *f, int start)
{
	char c = *f->p++, c2 = *f->p;
	int kind;

	if (c2 == '\0' || c2 == 'K' || c2 == 'V' || c2 == 'r' || c2 == 'F' ||
	    (c2 == 'D' && (f->p[1] == '\0' || !strchr("fdehusin", f->p[1]))))
		return -1;
	kind = fx_type(f);
	if (kind == K_ARRAY && c2 == 'T') {
		/* a template argument that is an array: the qualifier goes
		 * with its element type */
		if (!fx_comp(f, 1) || !(c == 'K' ?
		    fx_into_array(f, start, " const", 6, 1) : c == 'V' ?
		    fx_into_array(f, start, " volatile", 9, 1) :
		    fx_into_array(f, start, " restrict", 9, 1)))
			return -1;
		return K_ARRAY;
	}
	if (kind < 0 || kind == K_CV || kind == K_REF || kind == K_RREF ||
	    kind == K_REFREF || kind >= K_FUNC || !fx_comp(f, 1))
		return -1;
	if (!(c == 'K' ? fx_puts(f, " const") : c == 'V' ?
	    fx_puts(f, " volatile") : fx_puts(f, " restrict")))
		return -1;
	return K_CV;
}

static int
fx_type_inner(struct fx *f)
{
	int start = f->len, kind, tpl;
	char c = f->p[0], c2 = f->p[1];
	const char *inner;

	switch (c) {
	case 'P': case 'R': case 'O':
		inner = ++f->p;
		if (!fx_comp(f, 1))
			return -1;
		if (c2 == 'F' || c2 == 'A') {
			/* (the function or array type's own text is not
			 * printed) */
			const char *mod = c == 'P' ? "*" : c == 'R' ? "&" : "&&";
			if ((c2 == 'F' ? fx_funtype(f, mod) :
			    fx_array(f, mod)) < 0 ||
			    !fx_addsub(f, start, K_BAD))
				return -1;
			kind = c == 'P' ? K_FUNCPTR : c == 'R' ? K_FUNCREF :
			    K_FUNCRREF;
			break;
		}
		if (c2 == 'K' || c2 == 'V' || c2 == 'r') {
			/* (the qualified type in this frame, and its
			 * substitution) */
			if ((kind = fx_cv(f, start)) < 0 ||
			    !fx_addsub(f, start, kind))
				return -1;
		} else
			kind = fx_type(f);
		if (kind == K_ARRAY && (c2 == 'T' || ((c2 == 'K' ||
		    c2 == 'V' || c2 == 'r') && inner[1] == 'T'))) {
			/* a template argument that is an array (maybe
			 * qualified): "char (&) [4]" */
			if (!(c == 'P' ? fx_into_array(f, start, " (*)", 4, 0) :
			    c == 'R' ? fx_into_array(f, start, " (&)", 4, 0) :
			    fx_into_array(f, start, " (&&)", 5, 0)))
				return -1;
			kind = c == 'P' ? K_FUNCPTR : c == 'R' ? K_FUNCREF :
			    K_FUNCRREF;
			break;
		}
		if ((kind == K_FUNCREF || kind == K_FUNCRREF) && c2 == 'T') {
			/* a reference to a template argument that is one:
			 * printed as it is, & and && or && and & as & (not
			 * here; nor a reference to one written out, which
			 * libiberty prints in its own way) */
			if (c == 'P' || (c == 'R' && kind == K_FUNCRREF))
				return -1;
			break;
		}
		if (kind < 0 || kind == K_REFREF || kind >= K_FUNC)
			return -1;
		if (kind == K_REF || kind == K_RREF) {
			/* a reference to a reference: printed as the inner
			 * one (&& to &: not here) */
			if (c == 'P' || (c == 'R' && kind == K_RREF))
				return -1;
			kind = K_REFREF;
		} else if (c == 'P') {
			if (!fx_puts(f, "*"))
				return -1;
			kind = K_PTR;
		} else if (c == 'R') {
			if (!fx_puts(f, "&"))
				return -1;
			kind = K_REF;
		} else {
			if (!fx_puts(f, "&&"))
				return -1;
			kind = K_RREF;
		}
		break;
	case 'K': case 'V': case 'r':
		if ((kind = fx_cv(f, start)) < 0)
			return -1;
		break;
	case 'F':
		if ((kind = fx_funtype(f, NULL)) < 0)
			return -1;
		break;
	case 'A':
		if ((kind = fx_array(f, NULL)) < 0)
			return -1;
		break;
	case '1': case '2': case '3': case '4': case '5': case '6': case '7':
	case '8': case '9':
		if (!fx_unscoped(f, 0, &tpl))
			return -1;
		kind = K_NAME;
		break;
	case 'S':
		if (c2 == '_' || isdig(c2) || isupp(c2)) {
			const struct fspan *s = fx_sub(f);
			if (s == NULL || !fx_copy(f, s))
				return -1;
			f->packdep |= s->td & FX_TD;
			kind = s->kind;
			if (*f->p != 'I')
				return kind;
			if (kind != K_NAME || !fx_targs(f, 0))
				return -1;
		} else if (c2 == 't') {
			if (!fx_unscoped(f, 0, &tpl))
				return -1;
		} else {
			if (!fx_stdsub(f, 0))
				return -1;
			if (*f->p != 'I')
				return K_NAME;
			if (!fx_targs(f, 0))
				return -1;
		}
		kind = K_NAME;
		break;
	case 'T': {
		const struct fspan *a;
		int n = 0;
		f->p++;
		if (*f->p != '_') {
			while (isdig(*f->p)) {
				n = n * 10 + (*f->p++ - '0');
				if (n > FX_MAXTARG)
					return -1;
			}
			n++;
		}
		if (*f->p != '_' || n >= f->ntarg ||
		    !fx_comp(f, 1))
			return -1;
		f->p++;
		f->packdep |= FX_TD;
		a = &f->targ[n];
		if (a->kind == K_PACK) {
			/* in a pack expansion, its element */
			if (f->packi < 0 ||
			    (f->packn >= 0 && f->packn != a->len))
				return -1;
			f->packn = a->len;
			f->packdep |= 1;
			if (a->len == 0) {
				kind = K_NAME;	/* (the text is dropped) */
				break;
			}
			a = &f->pel[a->off + f->packi];
		}
		if (!fx_copy(f, a))
			return -1;
		kind = a->kind;
		if (*f->p == 'I') {
			if (kind != K_NAME || !fx_addsub(f, start, kind) ||
			    !fx_targs(f, 0))
				return -1;
		}
		break;
	}
	case 'Z':
		if ((kind = fx_localtype(f)) < 0)
			return -1;
		break;
	case 'D': {
		static const char dbt[] = "fdehusi";
		const char *k;
		int i;
		if (c2 == 'p')
			return fx_expansion(f);
		if (c2 == 'a' || c2 == 'c') {
			/* auto, decltype(auto): names, not substitutions */
			f->p += 2;
			if (!fx_comp(f, 1))
				return -1;
			return (c2 == 'a' ? fx_puts(f, "auto") :
			    fx_puts(f, "decltype(auto)")) ? K_NAME : -1;
		}
		k = c2 ? strchr(dbt, c2) : NULL;
		i = k ? 26 + (int)(k - dbt) : c2 == 'n' ? BT_NULLPTR : -1;
		if (i < 0 || !fx_comp(f, 1))
			return -1;
		f->p += 2;
		return fx_lit(f, bt[i].name, bt[i].len) ? K_BUILTIN : -1;
	}
	default:
		return -1;
	}
	if (!fx_addsub(f, start, kind))
		return -1;
	return kind;
}

/* a type printed: its kind, or -1 to give up */
static int
fx_type_rec(struct fx *f)
{
	int k, dep = f->packdep;

	if (f->depth >= FX_MAXDEPTH)
		return -1;
	f->depth++;
	f->packdep = 0;
	k = fx_type_inner(f);
	f->packdep |= dep;
	f->depth--;
	return k;
}

/* the builtin types' letters (not k, p, q, r, u) */
#define FX_BUILTINS 0x3ec7bffu

/* the same: a builtin type (a third of them) written where it is */
static inline int
fx_type(struct fx *f)
{
	unsigned c = (unsigned)(unsigned char)*f->p - 'a';

	if (c < 26 && (FX_BUILTINS >> c & 1)) {
		f->p++;
		f->ncomp++;
		if (f->cap - f->len < (int)sizeof(bt[c].name))
			return -1;
		memcpy(f->out + f->len, bt[c].name, sizeof(bt[c].name));
		f->len += bt[c].len;
		return c == 'v' - 'a' ? K_VOID : K_BUILTIN;
	}
	if (*f->p == 'N')
		return fx_nested(f) ? K_NAME : -1;
	return fx_type_rec(f);
}

/* out[base..name) the name, out[name..len) its return type: made
 * "type name" */
static int
fx_rotate(struct fx *f, int base, int name)
{
	char tmp[CX_MAXIN];
	int nl = name - base, rl = f->len - name, i;

	if (nl > (int)sizeof(tmp) || !fx_puts(f, " "))
		return 0;
	memcpy(tmp, f->out + base, (size_t)nl);
	memmove(f->out + base, f->out + name, (size_t)rl);
	f->out[base + rl] = ' ';
	memcpy(f->out + base + rl + 1, tmp, (size_t)nl);
	for (i = 0; i < f->nsub; i++)
		if (f->sub[i].off >= base)
			f->sub[i].off += f->sub[i].off < name ? rl + 1 : -nl;
	for (i = 0; i < f->ntarg; i++)
		if (f->targ[i].kind != K_PACK)
			f->targ[i].off += rl + 1;
	for (i = 0; i < f->npel; i++)
		f->pel[i].off += rl + 1;
	return 1;
}

/* <name> [<bare-function-type>] (params 0: the name only; 2: the
 * encoding of an L_Z...E, a template function's, parameters up to the E;
 * 3: a local name's function, parameters up to the E, no return type) */
static FX_INLINE int
fx_encoding_body(struct fx *f, int params)
{
	int base = f->len, cvq = 0, tpl = 0, n, end;
	char c = *f->p;

	if (c == 'N') {
		if (!fx_nested_top(f, &cvq, &tpl))
			return 0;
	} else if (isdig(c) || c == 'S' || islow(c) || c == 'L') {
		if (!fx_unscoped(f, 1, &tpl))
			return 0;
	} else
		return 0;
	if (!params)
		return 1;
	if (params == 2 && tpl != 1)
		return 0;	/* (&name, or (name(...)): not here) */
	if (f->p == f->end)
		return !cvq;
	if (params > 1 && *f->p == 'E')
		return 0;
	if (!tpl)
		f->ntarg = -1;
	else if (tpl == 2)
		;	/* a ctor's or dtor's: no return type */
	else if (params == 3) {
		/* a local name's function: its return type is not printed,
		 * and its substitutions have no text to copy */
		int name = f->len, nsub = f->nsub, kind = fx_type(f);
		if (kind < 0 || kind >= K_FUNC)
			return 0;
		f->len = name;
		for (; nsub < f->nsub; nsub++)
			f->sub[nsub].kind = K_BAD;
	} else {
		int name = f->len, kind = fx_type(f);
		if (kind < 0 || kind >= K_FUNC || !fx_rotate(f, base, name))
			return 0;
	}
	if (!fx_comp(f, 3) || !fx_puts(f, "("))
		return 0;
	end = f->len;
	for (n = 0; f->p < f->end && *f->p != (params == 1 ? '.' : 'E'); n++) {
		int start, kind;
		const char *pstart = f->p;
		if (*f->p == 'E' || *f->p == '.' ||
		    (n > 0 && !fx_puts(f, ", ")))
			return 0;
		start = f->len;
		if ((kind = fx_type(f)) < 0 || !fx_comp(f, 1))
			return 0;
		if (f->len > start)
			end = f->len;
		/* (v): no parameters */
		if (n == 0 && kind == K_VOID && f->p - 1 == pstart &&
		    (params == 1 ? f->p == f->end || *f->p == '.' :
		    *f->p == 'E'))
			f->len = end = start;
	}
	if (n > 1 && f->len != end)
		f->len = end;	/* empty packs at the end */
	return n > 0 && fx_puts(f, ")") &&
	    (!(cvq & 1) || fx_puts(f, " const")) &&
	    (!(cvq & 2) || fx_puts(f, " &")) &&
	    (!(cvq & 4) || fx_puts(f, " &&"));
}

/* fx_encoding_body() compiled for the function's own name with and
 * without its parameters, and for the rest */
static int
fx_encoding(struct fx *f, int params)
{
	return fx_encoding_body(f, params);
}

static int
fx_encoding_params(struct fx *f)
{
	return fx_encoding_body(f, 1);
}

static int
fx_encoding_name(struct fx *f)
{
	return fx_encoding_body(f, 0);
}

/* Z <encoding> E <source-name> [<discriminator>] at the end of the
 * symbol: a local static, printed "function(params)::name" (with its
 * parameters even without FOLD_DM_PARAMS, as c++filt -p) */
static int
fx_local(struct fx *f)
{
	f->p++;		/* Z */
	f->ncomp += 3;
	if (!fx_encoding(f, 3) || *f->p != 'E')
		return 0;
	f->p++;
	if (!isdig(*f->p) || !fx_puts(f, "::") || !fx_source_name(f) ||
	    !fx_abi_tags(f) || !fx_discriminator(f))
		return 0;
	return f->p == f->end;
}

/* .cold, .isra.0, .constprop.0.isra.0 after the function's parameters:
 * each " [clone .suffix]", as the two passes split them */
static int
fx_clones(struct fx *f)
{
	while (f->p[0] == '.' && (islow(f->p[1]) || isdig(f->p[1]) ||
	    f->p[1] == '_')) {
		const char *s = f->p, *e = f->p + 2;
		while (islow(*e) || isdig(*e) || *e == '_')
			e++;
		while (*e == '.' && isdig(e[1]))
			for (e += 2; isdig(*e); e++)
				;
		f->p = e;
		f->ncomp += 2;
		if (!fx_puts(f, " [clone ") || !fx_lit(f, s, (int)(e - s)) ||
		    !fx_puts(f, "]"))
			return 0;
	}
	return 1;
}

/* <number> _, an offset of a thunk */
static int
fx_offset(struct fx *f)
{
	int n = 0;

	if (*f->p == 'n')
		f->p++;
	while (isdig(*f->p))
		if (++n > 9)
			return 0;
		else
			f->p++;
	if (*f->p != '_')
		return 0;
	f->p++;
	return 1;
}

/* sym[0..len) copied to in[], FX_PAD NUL bytes after it: whether sym
 * holds a NUL (then it is no symbol).  With SSE2, the copy and the check
 * in one pass, 16 bytes at a time (the last 16 overlap the previous). */
static inline int
fx_load(char *in, const char *sym, size_t len)
{
	memset(in + len, 0, FX_PAD);
#ifdef __SSE2__
	if (len >= 16) {
		__m128i v, low = _mm_set1_epi8(-1);
		size_t k;
		for (k = 0; k + 16 < len; k += 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)(sym + k));
			_mm_storeu_si128((__m128i *)(void *)(in + k), v);
			low = _mm_min_epu8(low, v);
		}
		v = _mm_loadu_si128((const __m128i *)(const void *)(sym + len - 16));
		_mm_storeu_si128((__m128i *)(void *)(in + len - 16), v);
		low = _mm_min_epu8(low, v);
		return _mm_movemask_epi8(_mm_cmpeq_epi8(low,
		    _mm_setzero_si128())) != 0;
	}
#endif
	memcpy(in, sym, len);
	return memchr(sym, '\0', len) != NULL;
}

/* The symbol demangled into out[0..cap) by the fast path: its length, or
 * 0 where the two passes must decide (*nul: it holds a NUL byte, it is not
 * a symbol). */
static size_t
fx_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags, int *nul)
{
	struct fx f;
	char in[CX_MAXIN + FX_PAD];
	int ok;

	if (len < 4 || len > CX_MAXIN || sym[0] != '_' || sym[1] != 'Z' ||
	    cap < FX_MINCAP)
		return 0;
	if ((*nul = fx_load(in, sym, len)) != 0)
		return 0;
	f.p = in + 2;
	f.end = in + len;
	f.out = out;
	f.len = 0;
	f.cap = (int)(cap < FOLD_DM_MAXOUT ? cap : FOLD_DM_MAXOUT);
	f.ncomp = 0;
	f.maxcomp = 2 * len < FX_MAXCOMP ? (int)(2 * len) : FX_MAXCOMP;
	f.nsub = 0;
	f.maxsub = (int)len < FX_MAXSUB ? (int)len : FX_MAXSUB;
	f.ntarg = -1;
	f.npel = 0;
	f.packi = f.packn = -1;
	f.packdep = 0;
	f.depth = 0;
	f.ln = NULL;
	f.lnlen = 0;
	if (sym[2] == 'T') {
		f.p += 2;
		switch (sym[3]) {
		case 'V': ok = fx_puts(&f, "vtable for "); break;
		case 'T': ok = fx_puts(&f, "VTT for "); break;
		case 'I': ok = fx_puts(&f, "typeinfo for "); break;
		case 'S': ok = fx_puts(&f, "typeinfo name for "); break;
		case 'h':
			ok = fx_puts(&f, "non-virtual thunk to ") &&
			    fx_offset(&f) && fx_encoding(&f, 1);
			goto special;
		case 'v':
			ok = fx_puts(&f, "virtual thunk to ") &&
			    fx_offset(&f) && fx_offset(&f) &&
			    fx_encoding(&f, 1);
			goto special;
		default: return 0;
		}
		ok = ok && fx_type(&f) >= 0;
		goto special;
	}
	if (sym[2] == 'G') {
		int tpl;
		f.p += 2;
		if (sym[3] == 'V') {
			ok = fx_puts(&f, "guard variable for ") &&
			    f.p < f.end &&
			    (*f.p == 'N' ? fx_nested(&f) :
			    *f.p == 'Z' ? fx_local(&f) :
			    isdig(*f.p) || *f.p == 'S' ?
			    fx_unscoped(&f, 0, &tpl) : 0);
		} else if (sym[3] == 'T' && len > 4 && sym[4] == 't') {
			f.p++;
			ok = fx_puts(&f, "transaction clone for ") &&
			    fx_encoding(&f, 1);
		} else if (sym[3] == 'T' && len > 4 && sym[4] == 'n') {
			f.p++;
			ok = fx_puts(&f, "non-transaction clone for ") &&
			    fx_encoding(&f, 1);
		} else
			return 0;
		goto special;
	}
	if (sym[2] == 'Z') {
		ok = fx_local(&f);
		goto special;
	}
	if (!((flags & FOLD_DM_PARAMS) ? fx_encoding_params(&f) :
	    fx_encoding_name(&f)) ||
	    ((flags & FOLD_DM_PARAMS) && f.p != f.end && !fx_clones(&f)) ||
	    ((flags & FOLD_DM_PARAMS) && f.p != f.end) || f.ncomp > f.maxcomp)
		return 0;
	/* FOLD_DM_QUICK: a legacy Rust name (_ZN ... 17h<hash>E.suffix)
	 * reads as a nested name followed by '.', which the parameters
	 * above refuse; without them, it is looked for */
	if ((flags & (FOLD_DM_QUICK | FOLD_DM_PARAMS)) == FOLD_DM_QUICK &&
	    *f.p == '.')
		return 0;
	return (size_t)f.len;
special:
	if (!ok || !fx_comp(&f, 1) || f.ncomp > f.maxcomp ||
	    ((flags & FOLD_DM_PARAMS) && f.p != f.end))
		return 0;
	return (size_t)f.len;
}

/* ---- the entry point ----------------------------------------------------- */

size_t
fold_demangle_cxx(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags)
{
	struct cx comp[CX_MAXCOMP];
	struct cx *sub[CX_MAXIN];
	struct dp d;
	struct pr p;
	struct cx *c = NULL;
	int global = 0;

	if (sym == NULL || len < 2 || len > CX_MAXIN || out == NULL)
		return 0;
	if (sym[0] == '_' && sym[1] == 'Z')
		global = 0;
	else if (len >= 11 && memcmp(sym, "_GLOBAL_", 8) == 0 &&
	    (sym[8] == '.' || sym[8] == '_' || sym[8] == '$') &&
	    (sym[9] == 'D' || sym[9] == 'I') && sym[10] == '_')
		global = sym[9] == 'I' ? C_GLOBALCTOR : C_GLOBALDTOR;
	else
		return 0;
	if (!global && CX_FAST) {
		int nul = 0;
		size_t n = fx_demangle(sym, len, out, cap, flags, &nul);
		if (n > 0 || nul || (flags & FOLD_DM_QUICK))
			return n;
	} else if (flags & FOLD_DM_QUICK)
		return 0;
	if (memchr(sym, '\0', len) != NULL)
		return 0;

	memset(&d, 0, sizeof(d));
	d.unresolved = 1;
	d.maxwork = CX_WORK * (long)len;
again:
	d.p = sym;
	d.end = sym + len;
	d.flags = flags;
	d.comp = comp;
	d.ncomp = 0;
	d.maxcomp = (int)(2 * len);
	d.sub = sub;
	d.nsub = 0;
	d.maxsub = (int)len;
	d.last_name = NULL;
	d.is_expr = d.is_conv = 0;
	d.depth = d.fdepth = 0;
	if (!global)
		c = p_mangled(&d, 1);
	else {
		struct cx *in;
		adv(&d, 11);
		if (peek(&d) != '_' || peek2(&d) != 'Z')
			in = mkname(&d, d.p, (size_t)(d.end - d.p));
		else {
			adv(&d, 2);
			in = p_encoding(&d, 0);
		}
		c = mk(&d, global, in, NULL);
		d.p = d.end;
	}
	if ((flags & FOLD_DM_PARAMS) && d.p != d.end)
		c = NULL;
	if (c == NULL && d.unresolved == -1) {
		d.unresolved = 0;
		goto again;
	}
	if (c == NULL)
		return 0;

	p.err = 0;
	p.tpls = NULL;
	p.mods = NULL;
	p.depth = 0;
	p.steps = 0;
	p.pack_index = 0;
	p.lambda_arg = 0;
	p.commas = 0;
	p.dep = 0;
	p.cur_tpl = NULL;
	p.nscope = p.nsaved = 0;
	p.len = 0;
	p.last = 0;
	p.out = out;
	p.cap = cap < FOLD_DM_MAXOUT ? cap : FOLD_DM_MAXOUT;
	pc(&p, c);
	if (p.err || p.len == 0)
		return 0;
	return p.len;
}
