/*
 * names.c - names for the frames samply left unsymbolicated (see
 * samply.h): the .syms.json sidecar of `samply record
 * --unstable-presymbolicate` (samply's symbol_precog.rs: string_table;
 * data[] of libraries with debug_name, debug_id, code_id, symbol_table[]
 * {rva, size, symbol, frames[] {function, file, line}} and
 * known_addresses[] [rva, index]: an address is known exactly or not at
 * all), then the library's ELF binary: at its path, its debugPath, or by
 * its codeId (the GNU build id) in the build-id directories, used only
 * when its build id is the codeId; on macOS the Mach-O binary there, its
 * slice with the lib's UUID (codeId), its dSYM's DWARF beside it.  samply's addresses are relative to
 * the first PT_LOAD's address; the names at one are the DWARF reader's
 * (addr2line -i -f's), demangled as perf script shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "markup/markup.h"
#include "samply/samply.h"
#include "symbols/symbols.h"

struct scsym {
	uint32_t sym;		/* name: a string index */
	uint32_t fr, nfr;	/* function names: frnames[fr..fr+nfr) */
};
struct known {
	uint64_t rva;
	uint64_t idx;
};
struct sclib {
	struct fold_str debug_name, debug_id, code_id;
	struct scsym *syms;
	size_t nsyms;
	struct known *known;
	size_t nknown;
};
struct nlib {
	struct fold_samply_lib l;
	int tried;
	struct sclib *sc;
	struct fold_dwarf *dw;
	struct fold_macho *mo;
	uint64_t base;
};
struct fold_samply_names {
	char *symfs;
	unsigned flags;
	struct nlib *libs;
	size_t nlibs, lcap;
	struct fold_str *strs;		/* the sidecar's strings */
	size_t nstrs;
	struct sclib *sc;
	size_t nsc;
	int64_t *frnames;		/* string index, -1: the symbol's */
	size_t nfr, frcap;
	struct fold_arena arena;
	struct fold_str out[64];
	char *dm;
};

struct fold_samply_names *
fold_samply_names_new(const char *symfs, unsigned flags)
{
	struct fold_samply_names *n = xcalloc(1, sizeof(*n));

	n->symfs = symfs != NULL ? xstrdup(symfs) : NULL;
	n->flags = flags;
	return n;
}

void
fold_samply_names_lib(struct fold_samply_names *n,
    const struct fold_samply_lib *lib)
{
	fold_grow(&n->libs, &n->lcap, n->nlibs + 1, sizeof(*n->libs));
	n->libs[n->nlibs++].l = *lib;
}

static struct fold_str
copy(struct fold_samply_names *n, struct fold_str s)
{
	char *c = fold_arena_alloc(&n->arena, s.len + 1);

	memcpy(c, s.s, s.len);
	c[s.len] = '\0';
	s.s = c;
	return s;
}

static int
streq(struct fold_str a, const char *s)
{
	return a.len == strlen(s) && memcmp(a.s, s, a.len) == 0;
}

static int
byrva(const void *a, const void *b)
{
	const struct known *x = a, *y = b;

	return x->rva < y->rva ? -1 : x->rva > y->rva;
}

/* An integer or null (-1) that must be below lim. */
static int
index_or_null(struct fold_json *j, int64_t *v)
{
	if (fold_json_null(j) == 1) {
		*v = -1;
		return 1;
	}
	if (fold_json_int(j, v) < 0)
		return -1;
	if (*v < 0)
		return fold_json_fail(j, "a negative index");
	return 1;
}

static int
sc_syms(struct fold_samply_names *n, struct fold_json *j, struct sclib *l)
{
	struct fold_str k;
	size_t cap = 0;
	struct scsym *y;
	int64_t v;
	int x, z;

	if (fold_json_arr(j) < 0)
		return -1;
	while ((x = fold_json_next(j)) == 1) {
		fold_grow(&l->syms, &cap, l->nsyms + 1, sizeof(*l->syms));
		y = &l->syms[l->nsyms++];
		y->sym = UINT32_MAX;
		y->fr = (uint32_t)n->nfr;
		if (fold_json_obj(j) < 0)
			return -1;
		while ((z = fold_json_key(j, &k)) == 1) {
			if (streq(k, "symbol")) {
				if (fold_json_int(j, &v) < 0)
					return -1;
				if (v < 0 || v >= UINT32_MAX)
					return fold_json_fail(j, "a symbol "
					    "index out of range");
				y->sym = (uint32_t)v;
			} else if (streq(k, "frames")) {
				struct fold_str fk;
				int w;

				if (fold_json_null(j) == 1)
					continue;
				if (fold_json_arr(j) < 0)
					return -1;
				while ((w = fold_json_next(j)) == 1) {
					v = -1;
					if (fold_json_obj(j) < 0)
						return -1;
					while ((z = fold_json_key(j, &fk)) == 1)
						if (streq(fk, "function")) {
							if (index_or_null(j,
							    &v) < 0)
								return -1;
						} else if (fold_json_skip(j) < 0)
							return -1;
					if (z < 0)
						return -1;
					fold_grow(&n->frnames, &n->frcap,
					    n->nfr + 1, sizeof(*n->frnames));
					n->frnames[n->nfr++] = v;
					y->nfr++;
				}
				if (w < 0)
					return -1;
			} else if (fold_json_skip(j) < 0)
				return -1;
		}
		if (z < 0)
			return -1;
		if (y->sym == UINT32_MAX)
			return fold_json_fail(j, "a symbol_table entry "
			    "without its symbol");
	}
	return x;
}

static int
sc_known(struct fold_json *j, struct sclib *l)
{
	size_t cap = 0;
	int64_t a, b;
	int x;

	if (fold_json_arr(j) < 0)
		return -1;
	while ((x = fold_json_next(j)) == 1) {
		if (fold_json_arr(j) < 0 || fold_json_next(j) != 1 ||
		    fold_json_int(j, &a) < 0 || fold_json_next(j) != 1 ||
		    fold_json_int(j, &b) < 0)
			return fold_json_fail(j, "known_addresses: an [rva, "
			    "index] pair was expected");
		if (fold_json_next(j) != 0)
			return fold_json_fail(j, "known_addresses: an [rva, "
			    "index] pair was expected");
		if (a < 0 || b < 0)
			return fold_json_fail(j, "known_addresses: a "
			    "negative number");
		fold_grow(&l->known, &cap, l->nknown + 1, sizeof(*l->known));
		l->known[l->nknown].rva = (uint64_t)a;
		l->known[l->nknown++].idx = (uint64_t)b;
	}
	return x;
}

static void
sc_free(struct fold_samply_names *n)
{
	size_t i;

	for (i = 0; i < n->nsc; i++) {
		free(n->sc[i].syms);
		free(n->sc[i].known);
	}
	free(n->sc);
	free(n->strs);
	free(n->frnames);
	n->sc = NULL;
	n->strs = NULL;
	n->frnames = NULL;
	n->nsc = n->nstrs = n->nfr = n->frcap = 0;
}

static int
sidecar(struct fold_samply_names *n, struct fold_json *j)
{
	struct fold_str k, s;
	size_t cap = 0, lcap = 0, i, m;
	struct sclib *l;
	int x, y;

	if (fold_json_obj(j) < 0)
		return -1;
	while ((x = fold_json_key(j, &k)) == 1) {
		if (streq(k, "string_table")) {
			if (fold_json_arr(j) < 0)
				return -1;
			while ((y = fold_json_next(j)) == 1) {
				if (fold_json_str(j, &s) < 0)
					return -1;
				fold_grow(&n->strs, &cap, n->nstrs + 1,
				    sizeof(*n->strs));
				n->strs[n->nstrs++] = copy(n, s);
			}
			if (y < 0)
				return -1;
			continue;
		}
		if (!streq(k, "data")) {
			if (fold_json_skip(j) < 0)
				return -1;
			continue;
		}
		if (fold_json_arr(j) < 0)
			return -1;
		while ((y = fold_json_next(j)) == 1) {
			fold_grow(&n->sc, &lcap, n->nsc + 1, sizeof(*n->sc));
			l = &n->sc[n->nsc++];
			if (fold_json_obj(j) < 0)
				return -1;
			while ((x = fold_json_key(j, &k)) == 1) {
				struct fold_str *f = streq(k, "debug_name") ?
				    &l->debug_name : streq(k, "debug_id") ?
				    &l->debug_id : streq(k, "code_id") ?
				    &l->code_id : NULL;

				if (f != NULL) {
					if (fold_json_null(j) == 1)
						continue;
					if (fold_json_str(j, f) < 0)
						return -1;
					*f = copy(n, *f);
				} else if (streq(k, "symbol_table")) {
					if (sc_syms(n, j, l) < 0)
						return -1;
				} else if (streq(k, "known_addresses")) {
					if (sc_known(j, l) < 0)
						return -1;
				} else if (fold_json_skip(j) < 0)
					return -1;
			}
			if (x < 0)
				return -1;
		}
		if (y < 0)
			return -1;
	}
	if (x < 0 || fold_json_end(j) < 0)
		return -1;
	/* every index in range */
	for (i = 0; i < n->nsc; i++) {
		l = &n->sc[i];
		for (m = 0; m < l->nsyms; m++)
			if (l->syms[m].sym >= n->nstrs)
				return fold_json_fail(j, "a symbol name out of "
				    "the string_table");
		for (m = 0; m < l->nknown; m++)
			if (l->known[m].idx >= l->nsyms)
				return fold_json_fail(j, "known_addresses: an "
				    "index out of the symbol_table");
		qsort(l->known, l->nknown, sizeof(*l->known), byrva);
	}
	for (m = 0; m < n->nfr; m++)
		if (n->frnames[m] >= (int64_t)n->nstrs)
			return fold_json_fail(j, "a function name out of the "
			    "string_table");
	return 0;
}

int
fold_samply_names_sidecar(struct fold_samply_names *n,
    const unsigned char *text, size_t len, const char **why, size_t *off)
{
	struct fold_json j;

	sc_free(n);
	fold_json_init(&j, text, len);
	if (sidecar(n, &j) < 0) {
		*why = j.err != NULL ? j.err : "damaged";
		*off = j.off;
		fold_json_free(&j);
		sc_free(n);
		return -1;
	}
	fold_json_free(&j);
	return 0;
}

/* Two hex ids the same, '-' left out, case ignored; a breakpad id's age
 * (its 33rd digit on) may be absent from the other where it is 0. */
static int
sameid(struct fold_str a, struct fold_str b)
{
	char x[80], y[80];
	size_t i, nx = 0, ny = 0;

	for (i = 0; i < a.len && nx < sizeof(x) - 1; i++)
		if (a.s[i] != '-')
			x[nx++] = (char)(a.s[i] | 0x20);
	for (i = 0; i < b.len && ny < sizeof(y) - 1; i++)
		if (b.s[i] != '-')
			y[ny++] = (char)(b.s[i] | 0x20);
	if (nx == 0 || ny == 0)
		return 0;
	if (nx == ny)
		return memcmp(x, y, nx) == 0;
	if (nx == 32 && ny == 33 && y[32] == '0')
		return memcmp(x, y, 32) == 0;
	if (ny == 32 && nx == 33 && x[32] == '0')
		return memcmp(x, y, 32) == 0;
	return 0;
}

static struct sclib *
sc_match(struct fold_samply_names *n, const struct fold_samply_lib *lib)
{
	size_t i;

	for (i = 0; i < n->nsc; i++) {
		if (lib->code_id.len > 0 && n->sc[i].code_id.len > 0) {
			if (sameid(lib->code_id, n->sc[i].code_id))
				return &n->sc[i];
			continue;
		}
		if (lib->debug_name.len == n->sc[i].debug_name.len &&
		    memcmp(lib->debug_name.s, n->sc[i].debug_name.s,
		    lib->debug_name.len) == 0 &&
		    sameid(lib->breakpad_id, n->sc[i].debug_id))
			return &n->sc[i];
	}
	return NULL;
}

/* The build id of e as lowercase hex is id? */
static int
buildid_is(const struct fold_elf *e, struct fold_str id)
{
	const unsigned char *b;
	size_t n = fold_elf_buildid(e, &b), i;
	static const char hx[] = "0123456789abcdef";

	if (n == 0 || id.len != 2 * n)
		return 0;
	for (i = 0; i < n; i++)
		if (hx[b[i] >> 4] != (id.s[2 * i] | 0x20) ||
		    hx[b[i] & 15] != (id.s[2 * i + 1] | 0x20))
			return 0;
	return 1;
}

/* The UUID of a Mach-O lib: its codeId, else its breakpadId's first 32
 * digits (1), or none (0). */
static int
lib_uuid(const struct fold_samply_lib *l, unsigned char *u)
{
	struct fold_str id = l->code_id.len == 32 ? l->code_id :
	    l->breakpad_id;
	size_t i;
	int c, v;

	if (id.len < 32)
		return 0;
	for (i = 0; i < 32; i++) {
		c = id.s[i] | 0x20;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			return 0;
		if (i % 2 == 0)
			u[i / 2] = (unsigned char)(v << 4);
		else
			u[i / 2] |= (unsigned char)v;
	}
	return 1;
}

/* A Mach-O binary at path with the lib's UUID: its dSYM's DWARF
 * (PATH.dSYM/Contents/Resources/DWARF/BASENAME) if there is one with that
 * UUID, else its own sections and symbols. */
static void
macho(struct nlib *nl, const char *path)
{
	unsigned char u[16];
	const char *why, *base = strrchr(path, '/');
	int has = lib_uuid(&nl->l, u);
	size_t n = strlen(path) + 64 + strlen(base ? base : path);
	char *d = xmalloc(n);

	base = base != NULL ? base + 1 : path;
	snprintf(d, n, "%s.dSYM/Contents/Resources/DWARF/%s", path, base);
	if ((nl->mo = fold_macho_open(d, has ? u : NULL, &why)) == NULL)
		nl->mo = fold_macho_open(path, has ? u : NULL, &why);
	if (nl->mo != NULL)
		nl->base = fold_macho_base(nl->mo);
	free(d);
}

/* The binary of lib, opened for its DWARF (or symbols). */
static void
binary(struct fold_samply_names *n, struct nlib *nl)
{
	const struct fold_samply_lib *l = &nl->l;
	const char *home = getenv("HOME"), *why, *fs = n->symfs ? n->symfs : "";
	char *cand[6], xx[3];
	size_t nc = 0, i, len = strlen(fs) + l->path.len + l->debug_path.len +
	    l->code_id.len + (home ? strlen(home) : 0) + 64;
	struct fold_elf *e;
	int hexid = l->code_id.len >= 4 && l->code_id.len <= 128;

	for (i = 0; i < l->code_id.len; i++)
		if (!((l->code_id.s[i] >= '0' && l->code_id.s[i] <= '9') ||
		    ((l->code_id.s[i] | 0x20) >= 'a' &&
		    (l->code_id.s[i] | 0x20) <= 'f')))
			hexid = 0;
	if (l->path.len > 0 && memchr(l->path.s, '\0', l->path.len) == NULL) {
		cand[nc] = xmalloc(len);
		snprintf(cand[nc++], len, "%s%.*s", fs, (int)l->path.len,
		    l->path.s);
	}
	if (l->debug_path.len > 0 && (l->debug_path.len != l->path.len ||
	    memcmp(l->debug_path.s, l->path.s, l->path.len) != 0) &&
	    memchr(l->debug_path.s, '\0', l->debug_path.len) == NULL) {
		cand[nc] = xmalloc(len);
		snprintf(cand[nc++], len, "%s%.*s", fs,
		    (int)l->debug_path.len, l->debug_path.s);
	}
	if (hexid) {
		xx[0] = (char)(l->code_id.s[0] | 0x20);
		xx[1] = (char)(l->code_id.s[1] | 0x20);
		xx[2] = '\0';
		cand[nc] = xmalloc(len);
		snprintf(cand[nc++], len, "%s/usr/lib/debug/.build-id/%s/%.*s"
		    ".debug", fs, xx, (int)l->code_id.len - 2,
		    l->code_id.s + 2);
		if (home != NULL) {
			cand[nc] = xmalloc(len);
			snprintf(cand[nc++], len, "%s/.debug/.build-id/%s/%.*s"
			    "/elf", home, xx, (int)l->code_id.len - 2,
			    l->code_id.s + 2);
			cand[nc] = xmalloc(len);
			snprintf(cand[nc++], len, "%s/.debug/.build-id/%s/%.*s"
			    "/debug", home, xx, (int)l->code_id.len - 2,
			    l->code_id.s + 2);
		}
	}
	for (i = 0; i < nc && nl->dw == NULL && nl->mo == NULL; i++) {
		if ((e = fold_elf_open(cand[i], &why)) == NULL) {
			macho(nl, cand[i]);
			continue;
		}
		if ((l->code_id.len > 0 && !buildid_is(e, l->code_id)) ||
		    !fold_elf_base(e, &nl->base)) {
			fold_elf_free(e);
			continue;
		}
		fold_elf_free(e);
		nl->dw = fold_dwarf_open(cand[i], &why);
	}
	for (i = 0; i < nc; i++)
		free(cand[i]);
}

/* A name from a binary: demangled (as perf script, no parameters). */
static struct fold_str
tidy(struct fold_samply_names *n, const char *s)
{
	struct fold_str r = { s, strlen(s) };
	size_t k;

	if (r.len > 2 && s[0] == '_') {
		if (n->dm == NULL)
			n->dm = xmalloc(FOLD_DM_MAXOUT);
		if ((k = fold_demangle(s, r.len, n->dm, FOLD_DM_MAXOUT, 0)) > 0) {
			r.s = n->dm;
			r.len = k;
			r = copy(n, r);
		}
	}
	return r;
}

size_t
fold_samply_names_find(struct fold_samply_names *n, size_t lib,
    uint64_t addr, const struct fold_str **names)
{
	struct nlib *nl;
	const struct sclib *l;
	const struct scsym *y;
	const char *const *dn;
	size_t lo, hi, mid, k, i;

	if (lib >= n->nlibs || (n->flags & FOLD_SAMPLY_NOSYMS))
		return 0;
	nl = &n->libs[lib];
	if (!nl->tried) {
		nl->tried = 1;
		nl->sc = sc_match(n, &nl->l);
		binary(n, nl);
	}
	if ((l = nl->sc) != NULL) {
		for (lo = 0, hi = l->nknown; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (l->known[mid].rva < addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < l->nknown && l->known[lo].rva == addr) {
			y = &l->syms[l->known[lo].idx];
			k = 0;
			for (i = 0; i < y->nfr && k < 64; i++) {
				int64_t f = n->frnames[y->fr + i];

				n->out[k++] = n->strs[f >= 0 ? (size_t)f :
				    y->sym];
			}
			if (k == 0)
				n->out[k++] = n->strs[y->sym];
			*names = n->out;
			return k;
		}
	}
	if ((nl->dw != NULL || nl->mo != NULL) &&
	    addr <= UINT64_MAX - nl->base) {
		k = nl->dw != NULL ? fold_dwarf_inlines(nl->dw, nl->base + addr,
		    &dn) : fold_macho_inlines(nl->mo, nl->base + addr, &dn);
		if (k > 64)
			k = 64;
		for (i = 0; i < k; i++)
			n->out[i] = tidy(n, dn[i]);
		*names = n->out;
		return k;
	}
	return 0;
}

void
fold_samply_names_free(struct fold_samply_names *n)
{
	size_t i;

	sc_free(n);
	for (i = 0; i < n->nlibs; i++) {
		if (n->libs[i].dw != NULL)
			fold_dwarf_free(n->libs[i].dw);
		fold_macho_free(n->libs[i].mo);
	}
	free(n->libs);
	free(n->symfs);
	free(n->dm);
	fold_arena_free(&n->arena);
	free(n);
}
