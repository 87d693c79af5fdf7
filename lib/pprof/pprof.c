/* pprof.c - pprof profiles (profile.proto) to folded stacks. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"
#include "pprof/pprof.h"
#include "symbols/symbols.h"

/*
 * Field numbers of profile.proto (github.com/google/pprof, proto/).
 * Profile: 1 sample_type, 2 sample, 3 mapping, 4 location, 5 function,
 * 6 string_table, 14 default_sample_type (the others are not needed).
 * ValueType: 1 type, 2 unit.  Sample: 1 location_id, 2 value, 3 label.
 * Label: 1 key, 2 str, 3 num, 4 num_unit.  Mapping: 1 id, 5 filename.
 * Location: 1 id, 2 mapping_id, 3 address, 4 line.  Line: 1 function_id,
 * 2 line.  Function: 1 id, 2 name, 3 system_name, 4 filename.
 * Strings are indexes into string_table; repeated integers come packed
 * (one LEN field) or not (a field each), which a reader must take both.
 */

#define NONE ((uint32_t)-1)
#define LOCMANY ((uint32_t)1 << 31)

struct vtype {
	uint64_t type, unit;		/* string indexes */
};
/* The id first in each: the id maps read it there. */
struct mapping {
	uint64_t id, file;
};
struct location {
	uint64_t id, mapping, addr;
	const unsigned char *msg;	/* its message, for its lines */
	size_t len;
};
struct function {
	uint64_t id, name, sysname, file;
	uint32_t frame;			/* its name's frame, or NONE */
};
struct line {
	uint64_t fn;
	int64_t line;
};
/* A label of the sample being read. */
struct label {
	uint64_t key, str, unit;
	int64_t num;
};

/*
 * ids to table indexes: a direct array when the ids are dense (Go numbers
 * them 1, 2, 3 ...), else open addressing.  id 0 is never in one.
 */
struct idmap {
	uint32_t *dir;			/* direct: by id, NONE for none */
	size_t ndir;
	uint64_t *keys;			/* hash: 0 is an empty slot */
	uint32_t *vals;
	size_t mask;
};

struct lkey {
	char *s;
	size_t len;
};

/*
 * Distinct stacks: their frame ids, root first, one after the other in
 * seq, found by open addressing; a record each.  The sequences are written
 * over with their sort ranks when printed.  Room for the stacks an input
 * may add is reserved before its samples are read (not touched, so not
 * resident until used): nothing is copied as they grow.
 */
struct srec {
	size_t off;			/* seq[off .. off + n) */
	uint64_t hash;
	uint64_t count;			/* the inputs read */
	uint64_t pending;		/* the one being read (values are
					   never 0: 0 is untouched) */
	uint32_t n;
};
struct stackset {
	uint32_t *seq;
	size_t nseq, seqcap;
	struct srec *rec;
	size_t n, reccap;
	uint64_t *slot;			/* hash >> 32 << 32 | id + 1;
					   0: empty */
	size_t mask;
};

struct fold_pprof_st {
	unsigned flags;
	char *sindex;			/* --sample-index, or NULL */
	struct lkey *lkeys;		/* --label keys, root first */
	size_t nlkeys;
	int nfiles;
	const char *name;		/* the input being read */
	const unsigned char *base;	/* its (decompressed) bytes */
	char why[640];			/* what is wrong with it */

	/* The tables of the input being read. */
	struct fold_str *strs;
	size_t nstr, strcap;
	struct vtype *types;
	size_t ntypes, typecap;
	struct mapping *maps;
	size_t nmaps, mapcap;
	struct location *locs;
	size_t nlocs, loccap;
	struct function *fns;
	size_t nfns, fncap;
	uint64_t dst;			/* default_sample_type */
	size_t nsamples, sbytes;	/* samples, their bytes */
	struct idmap mapids, locids, fnids;
	uint32_t *lf;			/* the frames of the locations */
	size_t nlf, lfcap;
	struct lspan {			/* by location: its frames */
		uint32_t first, n;
	} *span;
	size_t spancap;
	/*
	 * When location ids are dense: by id, a location's one frame, or
	 * LOCMANY | its index (more frames: span), or NONE.
	 */
	uint32_t *lfast;
	size_t nlfast;
	size_t vi;			/* the value taken */
	uint64_t negative, nostack;	/* samples skipped */

	/* Scratch, reused. */
	uint32_t *kb;			/* a sample's frames, root first,
					   at the end */
	size_t kbcap;
	struct label *labs;
	size_t labcap;
	struct line *lines;
	size_t linecap;
	char *nb;			/* a name being made */
	size_t nbcap;
	char *dm;			/* demangled names */

	/*
	 * All inputs.  A stack is its frame ids, root first (distinct frames
	 * have distinct names, so distinct sequences are distinct folded
	 * lines); its text is only written out.
	 */
	struct fold_intern frames;	/* frame names */
	size_t maxframe;		/* the longest */
	struct stackset stacks;		/* frame id sequences */
	uint32_t *touched;		/* stack ids this input touched */
	size_t ntouched, tcap;
};

/* ---- messages ---------------------------------------------------------- */

static int FOLD_PRINTF(2, 3)
bad(struct fold_pprof_st *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* A damaged message: where, and why. */
static int
damaged(struct fold_pprof_st *st, const struct fold_pb *b, const char *why)
{
	return bad(st, "damaged profile at byte %zu: %s",
	    (size_t)(b->p - st->base), why);
}

static int
wrongtype(struct fold_pprof_st *st, const unsigned char *at, const char *what)
{
	return bad(st, "damaged profile at byte %zu: %s has the wrong wire "
	    "type", (size_t)(at - st->base), what);
}

/* A string of the table, or -1 with a message naming what and whose. */
static int
getstr(struct fold_pprof_st *st, uint64_t i, struct fold_str *out,
    const char *what, uint64_t id)
{
	if (i >= st->nstr)
		return bad(st, "%s %llu: string %llu is not in the string "
		    "table (%zu strings)", what, (unsigned long long)id,
		    (unsigned long long)i, st->nstr);
	*out = st->strs[i];
	return 0;
}

/* ---- id maps ----------------------------------------------------------- */

static inline size_t
idhash(uint64_t id, size_t mask)
{
	uint64_t h = id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ h >> 32) & mask;
}

static void
idmap_free(struct idmap *m)
{
	free(m->dir);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Index the ids at the start of n records of stride bytes.  0, or -1 with
 * *badid: a duplicate, or 0. */
static int
idmap_build(struct idmap *m, const void *recs, size_t stride, size_t n,
    uint64_t *badid)
{
	const unsigned char *r = recs;
	uint64_t id, max = 0;
	size_t i, k, size;

	idmap_free(m);
	for (i = 0; i < n; i++) {
		memcpy(&id, r + i * stride, sizeof(id));
		if (id == 0) {
			*badid = 0;
			return -1;
		}
		if (id > max)
			max = id;
	}
	if (max <= 4 * (uint64_t)n + 1024) {
		m->ndir = (size_t)max + 1;
		m->dir = xmalloc(m->ndir * sizeof(*m->dir));
		memset(m->dir, 0xff, m->ndir * sizeof(*m->dir));
		for (i = 0; i < n; i++) {
			memcpy(&id, r + i * stride, sizeof(id));
			if (m->dir[id] != NONE) {
				*badid = id;
				return -1;
			}
			m->dir[id] = (uint32_t)i;
		}
		return 0;
	}
	for (size = 16; size < 2 * n; size *= 2)
		;
	m->mask = size - 1;
	m->keys = xcalloc(size, sizeof(*m->keys));
	m->vals = xmalloc(size * sizeof(*m->vals));
	for (i = 0; i < n; i++) {
		memcpy(&id, r + i * stride, sizeof(id));
		for (k = idhash(id, m->mask); m->keys[k] != 0;
		    k = (k + 1) & m->mask)
			if (m->keys[k] == id) {
				*badid = id;
				return -1;
			}
		m->keys[k] = id;
		m->vals[k] = (uint32_t)i;
	}
	return 0;
}

static inline uint32_t
idmap_get(const struct idmap *m, uint64_t id)
{
	size_t k;

	if (m->dir != NULL)
		return id < m->ndir ? m->dir[id] : NONE;
	if (m->keys == NULL || id == 0)
		return NONE;
	for (k = idhash(id, m->mask); m->keys[k] != 0; k = (k + 1) & m->mask)
		if (m->keys[k] == id)
			return m->vals[k];
	return NONE;
}

/* ---- setup ------------------------------------------------------------- */

struct fold_pprof *
fold_pprof_new(unsigned flags, const char *sample_index, char **labels,
    size_t nlabels)
{
	struct fold_pprof *p = xcalloc(1, sizeof(*p));
	struct fold_pprof_st *st = xcalloc(1, sizeof(*st));
	size_t i;

	p->st = st;
	st->flags = flags;
	st->nfiles = 1;
	if (sample_index != NULL)
		st->sindex = xstrdup(sample_index);
	st->nlkeys = nlabels;
	st->lkeys = xcalloc(nlabels + 1, sizeof(*st->lkeys));
	for (i = 0; i < nlabels; i++) {
		st->lkeys[i].s = xstrdup(labels[i]);
		st->lkeys[i].len = strlen(labels[i]);
	}
	if (flags & FOLD_PPROF_DEMANGLE)
		st->dm = xmalloc(FOLD_DM_MAXOUT);
	fold_intern_init(&st->frames);
	st->stacks.mask = 1023;
	st->stacks.slot = xcalloc(st->stacks.mask + 1, sizeof(uint64_t));
	return p;
}

/* ---- pass 1: the tables ------------------------------------------------- */

/* An integer field (a varint); -1 if of another wire type. */
static int
one(struct fold_pprof_st *st, const struct fold_pb_field *f,
    const unsigned char *at, const char *what, uint64_t *v)
{
	if (f->type != FOLD_PB_VARINT)
		return wrongtype(st, at, what);
	*v = f->v;
	return 0;
}

static int
read_vtype(struct fold_pprof_st *st, const unsigned char *p, size_t len)
{
	struct fold_pb b = { p, p + len };
	struct fold_pb_field f;
	struct vtype *t;
	const unsigned char *at;
	const char *why;
	int r;

	fold_grow(&st->types, &st->typecap, st->ntypes + 1, sizeof(*st->types));
	t = &st->types[st->ntypes++];
	t->type = t->unit = 0;
	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		if ((f.num == 1 || f.num == 2) && one(st, &f, at,
		    "a sample type", f.num == 1 ? &t->type : &t->unit) < 0)
			return -1;
	}
	return r < 0 ? damaged(st, &b, why) : 0;
}

static int
read_mapping(struct fold_pprof_st *st, const unsigned char *p, size_t len)
{
	struct fold_pb b = { p, p + len };
	struct fold_pb_field f;
	struct mapping *m;
	const unsigned char *at;
	const char *why;
	int r;

	fold_grow(&st->maps, &st->mapcap, st->nmaps + 1, sizeof(*st->maps));
	m = &st->maps[st->nmaps++];
	m->id = m->file = 0;
	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		if (f.num == 1 && one(st, &f, at, "a mapping", &m->id) < 0)
			return -1;
		if (f.num == 5 && one(st, &f, at, "a mapping", &m->file) < 0)
			return -1;
	}
	return r < 0 ? damaged(st, &b, why) : 0;
}

/* The lines of a location message into st->lines: their number, or -1. */
static long
loc_lines(struct fold_pprof_st *st, const unsigned char *p, size_t len,
    struct location *l)
{
	struct fold_pb b = { p, p + len }, lb;
	struct fold_pb_field f, g;
	const unsigned char *at, *lat;
	const char *why;
	size_t n = 0;
	uint64_t v = 0;
	int r;

	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		switch (f.num) {
		case 1:
			if (one(st, &f, at, "a location", &l->id) < 0)
				return -1;
			break;
		case 2:
			if (one(st, &f, at, "a location", &l->mapping) < 0)
				return -1;
			break;
		case 3:
			if (one(st, &f, at, "a location", &l->addr) < 0)
				return -1;
			break;
		case 4:
			if (f.type != FOLD_PB_LEN)
				return wrongtype(st, at, "a location's line");
			fold_grow(&st->lines, &st->linecap, n + 1,
			    sizeof(*st->lines));
			st->lines[n].fn = 0;
			st->lines[n].line = 0;
			lb.p = f.p;
			lb.end = f.p + f.len;
			for (lat = lb.p; (r = fold_pb_next(&lb, &g, &why)) > 0;
			    lat = lb.p) {
				if (g.num == 1 && one(st, &g, lat, "a line",
				    &st->lines[n].fn) < 0)
					return -1;
				if (g.num == 2) {
					if (one(st, &g, lat, "a line", &v) < 0)
						return -1;
					st->lines[n].line = (int64_t)v;
				}
			}
			if (r < 0)
				return damaged(st, &lb, why);
			n++;
			break;
		}
	}
	if (r < 0)
		return damaged(st, &b, why);
	return (long)n;
}

static int
read_location(struct fold_pprof_st *st, const unsigned char *p, size_t len)
{
	struct location *l;

	fold_grow(&st->locs, &st->loccap, st->nlocs + 1, sizeof(*st->locs));
	l = &st->locs[st->nlocs++];
	memset(l, 0, sizeof(*l));
	l->msg = p;
	l->len = len;
	return loc_lines(st, p, len, l) < 0 ? -1 : 0;
}

static int
read_function(struct fold_pprof_st *st, const unsigned char *p, size_t len)
{
	struct fold_pb b = { p, p + len };
	struct fold_pb_field f;
	struct function *fn;
	const unsigned char *at;
	const char *why;
	int r;

	fold_grow(&st->fns, &st->fncap, st->nfns + 1, sizeof(*st->fns));
	fn = &st->fns[st->nfns++];
	memset(fn, 0, sizeof(*fn));
	fn->frame = NONE;
	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		uint64_t *dst = f.num == 1 ? &fn->id : f.num == 2 ? &fn->name :
		    f.num == 3 ? &fn->sysname : f.num == 4 ? &fn->file : NULL;

		if (dst != NULL && one(st, &f, at, "a function", dst) < 0)
			return -1;
	}
	return r < 0 ? damaged(st, &b, why) : 0;
}

/* The first pass: every top-level field; the tables kept. */
static int
pass1(struct fold_pprof_st *st, const unsigned char *data, size_t n)
{
	struct fold_pb b = { data, data + n };
	struct fold_pb_field f;
	const unsigned char *at;
	const char *why;
	int r;

	st->nstr = st->ntypes = st->nmaps = st->nlocs = st->nfns = 0;
	st->dst = 0;
	st->nsamples = st->sbytes = 0;
	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		if (f.num <= 6 && f.type != FOLD_PB_LEN)
			return wrongtype(st, at, f.num == 1 ? "a sample type" :
			    f.num == 2 ? "a sample" : f.num == 3 ? "a mapping" :
			    f.num == 4 ? "a location" : f.num == 5 ?
			    "a function" : "a string");
		switch (f.num) {
		case 1:
			if (read_vtype(st, f.p, f.len) < 0)
				return -1;
			break;
		case 2:
			st->nsamples++;
			st->sbytes += f.len;
			break;
		case 3:
			if (read_mapping(st, f.p, f.len) < 0)
				return -1;
			break;
		case 4:
			if (read_location(st, f.p, f.len) < 0)
				return -1;
			break;
		case 5:
			if (read_function(st, f.p, f.len) < 0)
				return -1;
			break;
		case 6:
			fold_grow(&st->strs, &st->strcap, st->nstr + 1,
			    sizeof(*st->strs));
			st->strs[st->nstr].s = (const char *)f.p;
			st->strs[st->nstr++].len = f.len;
			break;
		case 14:
			if (one(st, &f, at, "default_sample_type",
			    &st->dst) < 0)
				return -1;
			break;
		}
	}
	if (r < 0)
		return damaged(st, &b, why);
	if (st->nstr > 0 && st->strs[0].len != 0)
		return bad(st, "the string table does not start with \"\"");
	if (st->nstr == 0) {	/* no strings: index 0 is still "" */
		fold_grow(&st->strs, &st->strcap, 1, sizeof(*st->strs));
		st->strs[0].s = "";
		st->strs[0].len = 0;
		st->nstr = 1;
	}
	return 0;
}

/* ---- frames ------------------------------------------------------------ */

/* Make room for n more bytes in the name buffer after k. */
static inline char *
nroom(struct fold_pprof_st *st, size_t k, size_t n)
{
	fold_grow(&st->nb, &st->nbcap, k + n, 1);
	return st->nb + k;
}

/* Append s, ';' made ':', CR and LF made spaces, to the name at k. */
static size_t
nput(struct fold_pprof_st *st, size_t k, const char *s, size_t len)
{
	char *o = nroom(st, k, len);
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		o[i] = c == ';' ? ':' : c == '\r' || c == '\n' ? ' ' : c;
	}
	return k + len;
}

static uint32_t
frame(struct fold_pprof_st *st, size_t len)
{
	if (len > st->maxframe)
		st->maxframe = len;
	return fold_intern(&st->frames, st->nb, len, NULL);
}

/* The frame of function fi at line (FOLD_PPROF_LINES); -1 if it is
 * damaged. */
static int
fn_frame(struct fold_pprof_st *st, uint32_t fi, int64_t line, uint32_t *out)
{
	struct function *fn = &st->fns[fi];
	struct fold_str name = { "", 0 }, file = { "", 0 };
	char num[24];
	size_t k, n;

	if (fn->frame == NONE) {
		if (getstr(st, fn->name, &name, "function", fn->id) < 0)
			return -1;
		if (name.len == 0 && getstr(st, fn->sysname, &name,
		    "function", fn->id) < 0)
			return -1;
		if (name.len == 0) {
			name.s = "[unknown]";
			name.len = 9;
		} else if ((st->flags & FOLD_PPROF_DEMANGLE) &&
		    (n = fold_demangle(name.s, name.len, st->dm,
		    FOLD_DM_MAXOUT, 0)) > 0) {
			name.s = st->dm;
			name.len = n;
		}
		fn->frame = frame(st, nput(st, 0, name.s, name.len));
	}
	*out = fn->frame;
	if (!(st->flags & FOLD_PPROF_LINES))
		return 0;
	if (getstr(st, fn->file, &file, "function", fn->id) < 0)
		return -1;
	if (file.len == 0 && line == 0)
		return 0;
	name = fold_intern_str(&st->frames, fn->frame);
	k = nput(st, 0, name.s, name.len);
	k = nput(st, k, ":", 1);
	k = file.len > 0 ? nput(st, k, file.s, file.len) : nput(st, k, "??", 2);
	k = nput(st, k, ":", 1);
	if (line == 0)
		k = nput(st, k, "?", 1);
	else
		k = nput(st, k, num, (size_t)snprintf(num, sizeof(num),
		    "%lld", (long long)line));
	*out = frame(st, k);
	return 0;
}

/* The frame of a location without lines: [BASENAME] of its mapping. */
static int
map_frame(struct fold_pprof_st *st, const struct location *l, uint32_t *out)
{
	struct fold_str file = { "", 0 };
	char num[32];
	size_t k, i;
	uint32_t mi;

	if (l->mapping != 0) {
		mi = idmap_get(&st->mapids, l->mapping);
		if (getstr(st, st->maps[mi].file, &file, "mapping",
		    st->maps[mi].id) < 0)
			return -1;
	}
	for (i = file.len; i > 0 && file.s[i - 1] != '/'; i--)
		;
	if (i == file.len) {	/* no file, or a path ending in '/' */
		file.s = "unknown";
		file.len = 7;
	} else {
		file.s += i;
		file.len -= i;
	}
	k = nput(st, 0, "[", 1);
	k = nput(st, k, file.s, file.len);
	if (st->flags & FOLD_PPROF_ADDRS)
		k = nput(st, k, num, (size_t)snprintf(num, sizeof(num),
		    " <0x%llx>", (unsigned long long)l->addr));
	k = nput(st, k, "]", 1);
	*out = frame(st, k);
	return 0;
}

/*
 * After pass 1: index the ids, check every reference of the tables, and
 * give each location its frames, root first (its lines reversed).
 */
static int
resolve(struct fold_pprof_st *st)
{
	struct location *l;
	struct fold_str s;
	size_t i;
	uint64_t id;
	uint32_t fi, fr;
	long n, j;

	if (idmap_build(&st->mapids, st->maps, sizeof(*st->maps), st->nmaps,
	    &id) < 0)
		return id == 0 ? bad(st, "a mapping with id 0") :
		    bad(st, "two mappings with id %llu",
		    (unsigned long long)id);
	if (idmap_build(&st->locids, st->locs, sizeof(*st->locs), st->nlocs,
	    &id) < 0)
		return id == 0 ? bad(st, "a location with id 0") :
		    bad(st, "two locations with id %llu",
		    (unsigned long long)id);
	if (idmap_build(&st->fnids, st->fns, sizeof(*st->fns), st->nfns,
	    &id) < 0)
		return id == 0 ? bad(st, "a function with id 0") :
		    bad(st, "two functions with id %llu",
		    (unsigned long long)id);
	for (i = 0; i < st->ntypes; i++)
		if (getstr(st, st->types[i].type, &s, "sample type", i) < 0 ||
		    getstr(st, st->types[i].unit, &s, "sample type", i) < 0)
			return -1;
	if (st->dst >= st->nstr)
		return bad(st, "default_sample_type: string %llu is not in the "
		    "string table (%zu strings)", (unsigned long long)st->dst,
		    st->nstr);
	if (st->flags & FOLD_PPROF_LIST)
		return 0;
	for (i = 0; i < st->nmaps; i++)
		if (getstr(st, st->maps[i].file, &s, "mapping",
		    st->maps[i].id) < 0)
			return -1;
	for (i = 0; i < st->nfns; i++)
		if (getstr(st, st->fns[i].name, &s, "function",
		    st->fns[i].id) < 0 ||
		    getstr(st, st->fns[i].sysname, &s, "function",
		    st->fns[i].id) < 0 ||
		    getstr(st, st->fns[i].file, &s, "function",
		    st->fns[i].id) < 0)
			return -1;
	st->nlf = 0;
	fold_grow(&st->span, &st->spancap, st->nlocs, sizeof(*st->span));
	for (i = 0; i < st->nlocs; i++) {
		l = &st->locs[i];
		if (l->mapping != 0 && idmap_get(&st->mapids, l->mapping) ==
		    NONE)
			return bad(st, "location %llu: mapping %llu is not in "
			    "the profile", (unsigned long long)l->id,
			    (unsigned long long)l->mapping);
		if ((n = loc_lines(st, l->msg, l->len, l)) < 0)
			return -1;
		if (st->nlf + (size_t)n + 1 > UINT32_MAX)
			return bad(st, "too many frames");
		st->span[i].first = (uint32_t)st->nlf;
		fold_grow(&st->lf, &st->lfcap, st->nlf + (size_t)n + 1,
		    sizeof(*st->lf));
		if (n == 0) {
			if (map_frame(st, l, &fr) < 0)
				return -1;
			st->lf[st->nlf++] = fr;
		}
		for (j = n - 1; j >= 0; j--) {
			fi = idmap_get(&st->fnids, st->lines[j].fn);
			if (fi == NONE)
				return bad(st, "location %llu: function %llu "
				    "is not in the profile",
				    (unsigned long long)l->id,
				    (unsigned long long)st->lines[j].fn);
			if (fn_frame(st, fi, st->lines[j].line, &fr) < 0)
				return -1;
			st->lf[st->nlf++] = fr;
		}
		st->span[i].n = (uint32_t)st->nlf - st->span[i].first;
	}
	free(st->lfast);
	st->lfast = NULL;
	st->nlfast = 0;
	if (st->locids.dir != NULL && fold_intern_count(&st->frames) <
	    LOCMANY && st->nlocs < LOCMANY) {
		st->nlfast = st->locids.ndir;
		st->lfast = xmalloc((st->nlfast + 1) * sizeof(*st->lfast));
		for (i = 0; i < st->nlfast; i++) {
			fi = st->locids.dir[i];
			st->lfast[i] = fi == NONE ? NONE : st->span[fi].n == 1 ?
			    st->lf[st->span[fi].first] : LOCMANY | fi;
		}
	}
	return 0;
}

/* ---- the sample type ---------------------------------------------------- */

static int
streq(struct fold_str a, const char *s, size_t len)
{
	return a.len == len && memcmp(a.s, s, len) == 0;
}

/* The value index to take from each sample; -1 if there is none. */
static int
pick_index(struct fold_pprof_st *st, const char *s)
{
	size_t i, len, nlen;
	uint64_t v = 0;
	int digits = 1;
	char *o;

	if (st->ntypes == 0)
		return st->nsamples == 0 ? 0 :
		    bad(st, "samples but no sample types");
	if (s == NULL) {
		st->vi = st->ntypes - 1;
		if (st->dst != 0)
			for (i = 0; i < st->ntypes; i++)
				if (streq(st->strs[st->types[i].type],
				    st->strs[st->dst].s,
				    st->strs[st->dst].len)) {
					st->vi = i;
					break;
				}
		return 0;
	}
	len = strlen(s);
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9' || v > UINT64_MAX / 10 - 1)
			digits = 0;
		else
			v = v * 10 + (uint64_t)(s[i] - '0');
	if (digits && len > 0) {
		if (v >= st->ntypes)
			return bad(st, "sample index %s is out of range: the "
			    "profile has %zu sample type%s (0 to %zu)", s,
			    st->ntypes, st->ntypes == 1 ? "" : "s",
			    st->ntypes - 1);
		st->vi = (size_t)v;
		return 0;
	}
	/* pprof's: "inuse_space" is also "space" (older heap profiles) */
	nlen = len > 6 && memcmp(s, "inuse_", 6) == 0 ? len - 6 : len;
	for (i = 0; i < st->ntypes; i++) {
		struct fold_str t = st->strs[st->types[i].type];

		if (streq(t, s, len) || streq(t, s + len - nlen, nlen)) {
			st->vi = i;
			return 0;
		}
	}
	o = st->why + snprintf(st->why, sizeof(st->why),
	    "no sample type '%s' in the profile (it has:", s);
	for (i = 0; i < st->ntypes; i++) {
		struct fold_str t = st->strs[st->types[i].type];
		size_t room = sizeof(st->why) - (size_t)(o - st->why);

		if (room < t.len + 8) {
			snprintf(o, room, " ...");
			break;
		}
		o += snprintf(o, room, "%s %.*s", i ? "," : "", (int)t.len,
		    t.s);
	}
	if ((size_t)(o - st->why) < sizeof(st->why) - 2)
		strcpy(o, ")");
	return -1;
}

static void
put_clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fo_putc(s[i] == '\n' || s[i] == '\r' ? ' ' : s[i]);
}

/* --list: the sample types of the input. */
static void
list(struct fold_pprof_st *st)
{
	size_t i;
	struct fold_str t;

	if (st->nfiles > 1) {
		fo_puts(st->name);
		fo_puts(":\n");
	}
	for (i = 0; i < st->ntypes; i++) {
		fo_u64(i);
		fo_putc(' ');
		t = st->strs[st->types[i].type];
		put_clean(t.s, t.len);
		fo_putc(' ');
		t = st->strs[st->types[i].unit];
		put_clean(t.s, t.len);
		if (i == st->vi)
			fo_puts(" (default)");
		fo_putc('\n');
	}
}

/* ---- pass 2: the samples ------------------------------------------------ */

/* The root frame of label key k for the sample's nlab labels. */
static int
label_frame(struct fold_pprof_st *st, const struct lkey *key, size_t nlab,
    uint32_t *out)
{
	struct fold_str s = { "", 0 }, u = { "", 0 };
	size_t i, k = 0;
	int pass;
	char num[24];

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nlab; i++) {
			const struct label *lb = &st->labs[i];

			if (getstr(st, lb->key, &s, "a label of sample",
			    st->nsamples) < 0)
				return -1;
			if (!streq(s, key->s, key->len))
				continue;
			if (pass == 0 && lb->str != 0) {
				if (getstr(st, lb->str, &s, "a label of sample",
				    st->nsamples) < 0)
					return -1;
				if (k > 0)
					k = nput(st, k, ",", 1);
				k = nput(st, k, s.s, s.len);
			} else if (pass == 1 && lb->str == 0 &&
			    (lb->num != 0 || lb->unit != 0)) {
				if (getstr(st, lb->unit, &u,
				    "a label of sample", st->nsamples) < 0)
					return -1;
				if (k > 0)
					k = nput(st, k, ",", 1);
				k = nput(st, k, num, (size_t)snprintf(num,
				    sizeof(num), "%lld", (long long)lb->num));
				k = nput(st, k, u.s, u.len);
			}
		}
	if (k == 0)
		k = nput(st, 0, "[unknown]", 9);
	*out = frame(st, k);
	return 0;
}

/* Room for nrec records and nseq more frames at least; grown by half
 * again, with plain reallocs: the room is not touched (not resident
 * until used). */
static void
stack_reserve(struct stackset *ss, size_t nrec, size_t nseq)
{
	size_t c;

	if (nrec > ss->reccap) {
		c = ss->reccap + ss->reccap / 2;
		if (c < nrec)
			c = nrec;
		if (c > SIZE_MAX / 2 / sizeof(*ss->rec))
			fold_die(1, "out of memory");
		ss->rec = xrealloc(ss->rec, c * sizeof(*ss->rec));
		ss->reccap = c;
	}
	if (nseq > ss->seqcap - ss->nseq) {
		c = ss->seqcap + ss->seqcap / 2;
		if (c < ss->nseq + nseq)
			c = ss->nseq + nseq;
		if (c > SIZE_MAX / 2 / sizeof(*ss->seq))
			fold_die(1, "out of memory");
		ss->seq = xrealloc(ss->seq, c * sizeof(*ss->seq));
		ss->seqcap = c;
	}
}

/* The slots made size (a power of two) and filled again. */
static void
stack_rehash(struct stackset *ss, size_t size)
{
	size_t i, k;

	free(ss->slot);
	ss->slot = xcalloc(size, sizeof(*ss->slot));
	fold_prefault(ss->slot, size * sizeof(*ss->slot));
	ss->mask = size - 1;
	for (i = 0; i < ss->n; i++) {
		for (k = ss->rec[i].hash & ss->mask; ss->slot[k] != 0;
		    k = (k + 1) & ss->mask)
			;
		ss->slot[k] = (ss->rec[i].hash >> 32) << 32 | (i + 1);
	}
}

/* The id of the stack s[0..n) (hash h), added if new; -1: too many. */
static int64_t
stack_id(struct stackset *ss, const uint32_t *s, size_t n, uint64_t h)
{
	uint64_t tag = (h >> 32) << 32, e;
	size_t k, id;

	for (k = h & ss->mask; (e = ss->slot[k]) != 0; k = (k + 1) & ss->mask) {
		if ((e >> 32) << 32 != tag)
			continue;
		id = (size_t)(uint32_t)e - 1;
		if (ss->rec[id].n == n &&
		    memcmp(ss->seq + ss->rec[id].off, s, n * sizeof(*s)) == 0)
			return (int64_t)id;
	}
	if (ss->n >= UINT32_MAX - 1 || n > UINT32_MAX)
		return -1;
	if (ss->n == ss->reccap)
		stack_reserve(ss, ss->n + 1, 0);
	if (n > ss->seqcap - ss->nseq)
		stack_reserve(ss, 0, n);
	id = ss->n++;
	memcpy(ss->seq + ss->nseq, s, n * sizeof(*s));
	ss->rec[id].off = ss->nseq;
	ss->rec[id].n = (uint32_t)n;
	ss->rec[id].hash = h;
	ss->rec[id].count = ss->rec[id].pending = 0;
	ss->nseq += n;
	ss->slot[k] = tag | (id + 1);
	if (2 * ss->n > ss->mask)
		stack_rehash(ss, 2 * (ss->mask + 1));
	return (int64_t)id;
}

/* Room for need more frames before *pos in the stack being built
 * backwards at the end of kb. */
static void
kb_grow(struct fold_pprof_st *st, size_t *pos, size_t need)
{
	size_t used = st->kbcap - *pos, cap = 2 * st->kbcap + need + 256;
	uint32_t *nb;

	if (cap > SIZE_MAX / 2 / sizeof(*nb))
		fold_die(1, "out of memory");
	nb = xmalloc(cap * sizeof(*nb));
	if (used > 0)
		memcpy(nb + cap - used, st->kb + *pos, used * sizeof(*nb));
	free(st->kb);
	st->kb = nb;
	st->kbcap = cap;
	*pos = cap - used;
}

/* The frames of location id v before the others: locations come leaf
 * first, and the stack is built backwards, root first when done. */
static inline int
push_loc(struct fold_pprof_st *st, uint64_t v, size_t *pos)
{
	uint32_t li, e;
	const struct lspan *l;

	if (v < st->nlfast) {	/* dense ids: one load for most */
		e = st->lfast[v];
		if (e < LOCMANY) {
			if (*pos == 0)
				kb_grow(st, pos, 1);
			st->kb[--*pos] = e;
			return 0;
		}
		li = e == NONE ? NONE : e & ~LOCMANY;
	} else
		li = idmap_get(&st->locids, v);
	if (li == NONE)
		return bad(st, "sample %zu: location %llu is not in the "
		    "profile", st->nsamples, (unsigned long long)v);
	l = &st->span[li];
	if (l->n > *pos)
		kb_grow(st, pos, l->n);
	*pos -= l->n;
	memcpy(st->kb + *pos, st->lf + l->first, l->n * sizeof(*st->kb));
	return 0;
}

static int
sample(struct fold_pprof_st *st, const unsigned char *p, size_t len)
{
	struct fold_pb b = { p, p + len }, lb;
	struct fold_pb_field f, g;
	const unsigned char *at, *q, *e, *lat;
	const char *why;
	size_t pos = st->kbcap, nk, nval = 0, nlab = 0, i;
	struct srec *rec;
	uint64_t v, val = 0, h;
	int64_t id;
	uint32_t t;
	int r;

	for (at = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; at = b.p) {
		switch (f.num) {
		case 1:		/* location ids, leaf first */
			if (f.type == FOLD_PB_VARINT) {
				if (push_loc(st, f.v, &pos) < 0)
					return -1;
				break;
			}
			if (f.type != FOLD_PB_LEN)
				return wrongtype(st, at, "a sample's location");
			for (q = f.p, e = f.p + f.len; q < e;) {
				if (!fold_pb_varint(&q, e, &v))
					return bad(st, "damaged profile at "
					    "byte %zu: a sample's location: a "
					    "damaged varint",
					    (size_t)(q - st->base));
				if (push_loc(st, v, &pos) < 0)
					return -1;
			}
			break;
		case 2:		/* values */
			if (f.type == FOLD_PB_VARINT) {
				if (nval++ == st->vi)
					val = f.v;
				break;
			}
			if (f.type != FOLD_PB_LEN)
				return wrongtype(st, at, "a sample's value");
			for (q = f.p, e = f.p + f.len; q < e; nval++) {
				if (!fold_pb_varint(&q, e, &v))
					return bad(st, "damaged profile at "
					    "byte %zu: a sample's value: a "
					    "damaged varint",
					    (size_t)(q - st->base));
				if (nval == st->vi)
					val = v;
			}
			break;
		case 3:		/* labels */
			if (f.type != FOLD_PB_LEN)
				return wrongtype(st, at, "a sample's label");
			if (st->nlkeys == 0)
				break;
			fold_grow(&st->labs, &st->labcap, nlab + 1,
			    sizeof(*st->labs));
			memset(&st->labs[nlab], 0, sizeof(st->labs[nlab]));
			lb.p = f.p;
			lb.end = f.p + f.len;
			for (lat = lb.p; (r = fold_pb_next(&lb, &g, &why)) > 0;
			    lat = lb.p) {
				uint64_t *dst = g.num == 1 ?
				    &st->labs[nlab].key : g.num == 2 ?
				    &st->labs[nlab].str : g.num == 4 ?
				    &st->labs[nlab].unit : g.num == 3 ? &v :
				    NULL;

				if (dst != NULL && one(st, &g, lat, "a label",
				    dst) < 0)
					return -1;
				if (g.num == 3)
					st->labs[nlab].num = (int64_t)v;
			}
			if (r < 0)
				return damaged(st, &lb, why);
			nlab++;
			break;
		}
	}
	if (r < 0)
		return damaged(st, &b, why);
	if (nval != st->ntypes)
		return bad(st, "sample %zu has %zu value%s, the profile %zu "
		    "sample type%s", st->nsamples, nval, nval == 1 ? "" : "s",
		    st->ntypes, st->ntypes == 1 ? "" : "s");
	if (val == 0)
		return 0;
	if (val > INT64_MAX) {
		st->negative++;
		return 0;
	}
	if (pos == st->kbcap) {	/* every location has a frame at least */
		st->nostack++;
		return 0;
	}
	/* the labels' frames at the root */
	if (st->nlkeys > pos)
		kb_grow(st, &pos, st->nlkeys);
	pos -= st->nlkeys;
	for (i = 0; i < st->nlkeys; i++)
		if (label_frame(st, &st->lkeys[i], nlab, &st->kb[pos + i]) < 0)
			return -1;
	nk = st->kbcap - pos;
	h = fold_hash(st->kb + pos, nk * sizeof(*st->kb));
	if ((id = stack_id(&st->stacks, st->kb + pos, nk, h)) < 0)
		return bad(st, "too many distinct stacks");
	t = (uint32_t)id;
	rec = &st->stacks.rec[t];
	if (rec->pending == 0) {	/* first in this input */
		fold_grow(&st->touched, &st->tcap, st->ntouched + 1,
		    sizeof(*st->touched));
		st->touched[st->ntouched++] = t;
	}
	if (rec->pending > UINT64_MAX - val)
		return bad(st, "sample %zu: a sum of values past "
		    "18446744073709551615", st->nsamples);
	rec->pending += val;
	return 0;
}

static int
pass2(struct fold_pprof_st *st, const unsigned char *data, size_t n)
{
	struct fold_pb b = { data, data + n };
	struct fold_pb_field f;
	const char *why;

	/* at most a stack a sample; a frame in two bytes of samples (a
	 * guess: more is grown into) */
	stack_reserve(&st->stacks, st->stacks.n + st->nsamples,
	    st->sbytes / 2);
	st->nsamples = 0;
	while (fold_pb_next(&b, &f, &why) > 0)	/* pass 1 read them all */
		if (f.num == 2) {
			st->nsamples++;
			if (sample(st, f.p, f.len) < 0)
				return -1;
		}
	return 0;
}

/* This input's sums into the totals, or dropped. */
static int
settle(struct fold_pprof_st *st, int ok)
{
	struct srec *rec;
	size_t i;

	if (ok)
		for (i = 0; i < st->ntouched; i++) {
			rec = &st->stacks.rec[st->touched[i]];
			if (rec->count > UINT64_MAX - rec->pending) {
				ok = 0;
				bad(st, "a sum of values past "
				    "18446744073709551615 with the inputs "
				    "before");
				break;
			}
		}
	for (i = 0; i < st->ntouched; i++) {
		rec = &st->stacks.rec[st->touched[i]];
		if (ok)
			rec->count += rec->pending;
		rec->pending = 0;
	}
	st->ntouched = 0;
	return ok ? 0 : -1;
}

/* ---- one input ---------------------------------------------------------- */

/* Text, probably: a legacy pprof format or something else. */
static int
texty(const unsigned char *d, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 64; i++)
		if ((d[i] < 0x20 && d[i] != '\n' && d[i] != '\t' &&
		    d[i] != '\r') || d[i] >= 0x7f)
			return 0;
	return 1;
}

static int
add(struct fold_pprof_st *st, const unsigned char *data, size_t n)
{
	if (n == 0)
		return bad(st, "empty input (not a profile)");
	st->base = data;
	if (pass1(st, data, n) < 0) {
		if (texty(data, n))
			return bad(st, "not a pprof profile (text; legacy "
			    "text profiles are not read)");
		return -1;
	}
	if (resolve(st) < 0 || pick_index(st, st->flags & FOLD_PPROF_LIST ?
	    NULL : st->sindex) < 0)
		return -1;
	if (st->flags & FOLD_PPROF_LIST) {
		list(st);
		return 0;
	}
	st->negative = st->nostack = 0;
	if (pass2(st, data, n) < 0)
		return -1;
	return 0;
}

int
fold_pprof_add(struct fold_pprof *p, const char *name,
    const unsigned char *data, size_t n)
{
	struct fold_pprof_st *st = p->st;
	unsigned char *raw = NULL;
	const char *why = NULL;
	size_t len;
	int r;

	st->name = name;
	st->ntouched = 0;
	if (n >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
		/* the size the trailer gives (one member: the usual), in
		 * pages made resident at once; else grown as needed.
		 * deflate makes at most 1032 bytes of one. */
		len = n >= 18 ? (size_t)fold_getu(data + n - 4, 4, 0) : 0;
		if (len > 0 && len / 1032 <= n) {
			raw = xmalloc(len);
			fold_prefault(raw, len);
			if (fold_inflate(data, n, raw, len, FOLD_INFLATE_GZIP,
			    &why) != len) {
				free(raw);
				raw = NULL;
			}
		}
		if (raw == NULL)
			raw = fold_inflate_alloc(data, n, n > SIZE_MAX / 2048 ?
			    SIZE_MAX / 2 : n * 1100 + 4096, FOLD_INFLATE_GZIP,
			    &len, &why);
		if (raw == NULL) {
			fold_warn("%s: gzip: %s", name, why);
			p->status = 1;
			return -1;
		}
		data = raw;
		n = len;
	}
	r = add(st, data, n);
	if (settle(st, r == 0) < 0)
		r = -1;
	free(raw);
	if (r < 0) {
		fold_warn("%s: %s", name, st->why);
		p->status = 1;
		return -1;
	}
	if (st->negative > 0) {
		if (st->flags & FOLD_PPROF_STRICT)
			fold_die(1, "%s: %llu sample%s with a negative value "
			    "(a -diff_base profile?)", name,
			    (unsigned long long)st->negative,
			    st->negative == 1 ? "" : "s");
		if (!(st->flags & FOLD_PPROF_QUIET))
			fold_warn("%s: %llu sample%s with a negative value "
			    "skipped (a -diff_base profile?)", name,
			    (unsigned long long)st->negative,
			    st->negative == 1 ? "" : "s");
	}
	if (st->nostack > 0) {
		if (st->flags & FOLD_PPROF_STRICT)
			fold_die(1, "%s: %llu sample%s without a location",
			    name, (unsigned long long)st->nostack,
			    st->nostack == 1 ? "" : "s");
		if (!(st->flags & FOLD_PPROF_QUIET))
			fold_warn("%s: %llu sample%s without a location "
			    "skipped", name, (unsigned long long)st->nostack,
			    st->nostack == 1 ? "" : "s");
	}
	return 0;
}

/* Read all of fd: a malloc'd buffer (*n bytes), or NULL (reported). */
void
fold_pprof_run(struct fold_pprof *p, int nfiles, char **files)
{
	static char *dash[] = { "-" };
	const char *name;
	unsigned char *d;
	size_t n;
	int i, fd, mapped;

	if (nfiles == 0) {
		nfiles = 1;
		files = dash;
	}
	p->st->nfiles = nfiles;
	for (i = 0; i < nfiles; i++) {
		if ((fd = fold_open_arg(files[i], &name)) < 0) {
			p->status = 1;
			continue;
		}
		if ((d = fold_load(fd, name, &n, &mapped)) != NULL) {
			fold_pprof_add(p, name, d, n);
			fold_unload(d, n, mapped);
		} else
			p->status = 1;
		if (fd != 0)
			close(fd);
	}
}

/*
 * Stacks are written in the byte order of their text (as sort(1) and the
 * other collapsers write them), found without making the texts: the text
 * of frames X1 ... Xn is the tokens "X1;" ... "Xn-1;" "Xn<end>", where
 * <end> is below every byte (shorter first).  No name holds ';', so no
 * token is a prefix of another: ordering the sequences of token ranks,
 * token by token, orders the texts.  Tokens are ranked once (a frame's
 * two: 2f for "X;", 2f + 1 for "X<end>"), then the stacks are sorted as
 * rank strings by a multikey quicksort, which looks at each shared prefix
 * once.
 */
static const struct fold_intern *rank_frames;

static int
bytoken(const void *a, const void *b)
{
	uint32_t ta = *(const uint32_t *)a, tb = *(const uint32_t *)b;
	struct fold_str x = fold_intern_str(rank_frames, ta / 2);
	struct fold_str y = fold_intern_str(rank_frames, tb / 2);
	size_t n = x.len < y.len ? x.len : y.len;
	int c = memcmp(x.s, y.s, n), cx, cy;

	if (c != 0)
		return c;
	/* the byte after the common part: ';', <end> (-1), or a name's */
	cx = x.len > n ? (unsigned char)x.s[n] : ta & 1 ? -1 : ';';
	cy = y.len > n ? (unsigned char)y.s[n] : tb & 1 ? -1 : ';';
	return cx < cy ? -1 : cx > cy;
}

/* A stack being sorted: its token ranks (from 1; 0 past the end), and
 * the one at the depth being sorted on. */
struct skey {
	const uint32_t *r;
	uint32_t n, c;
	uint64_t count;			/* its sum, to write */
};

static inline uint32_t
at(const struct skey *k, size_t d)
{
	return d < k->n ? k->r[d] : 0;
}

static void
swapk(struct skey *a, size_t i, size_t j)
{
	struct skey t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/* Compare from depth d. */
static int
kcmp(const struct skey *x, const struct skey *y, size_t d)
{
	uint32_t u, v;

	for (;; d++) {
		u = at(x, d);
		v = at(y, d);
		if (u != v)
			return u < v ? -1 : 1;
		if (u == 0)
			return 0;
	}
}

/*
 * Bentley and Sedgewick's multikey quicksort of a[0..n) from depth d, the
 * ranks at d read into the keys first (filled: they are there), in a loop
 * of independent loads that the memory can serve together, then
 * partitioned on.
 */
static void
mkqs(struct skey *a, size_t n, size_t d, int filled)
{
	size_t i, j, lt, gt;
	uint32_t p, v, x, y, z;

	while (n > 1) {
		if (n < 12) {
			for (i = 1; i < n; i++)
				for (j = i; j > 0 &&
				    kcmp(&a[j - 1], &a[j], d) > 0; j--)
					swapk(a, j, j - 1);
			return;
		}
		if (!filled)
			for (i = 0; i < n; i++)
				a[i].c = at(&a[i], d);
		x = a[0].c;
		y = a[n / 2].c;
		z = a[n - 1].c;
		p = x < y ? (y < z ? y : x < z ? z : x) :
		    (x < z ? x : y < z ? z : y);
		/* a[0..lt) < p, a[lt..i) == p, a[gt..n) > p */
		for (lt = 0, i = 0, gt = n; i < gt;) {
			v = a[i].c;
			if (v < p)
				swapk(a, lt++, i++);
			else if (v > p)
				swapk(a, i, --gt);
			else
				i++;
		}
		mkqs(a, lt, d, 1);
		mkqs(a + gt, n - gt, d, 1);
		if (p == 0)	/* all ended here: equal */
			return;
		a += lt;
		n = gt - lt;
		d++;
		filled = 0;
	}
}

/*
 * The names by token rank, for writing: one block, each name at off, with
 * 16 bytes of slack at the end, so that names are copied 16 bytes at a
 * time (the line's room has the slack too).
 */
struct oname {
	size_t off;
	size_t len;
};

static inline char *
put_name(char *o, const char *blob, const struct oname *nm)
{
	const char *src = blob + nm->off;
	size_t i;

	for (i = 0; i < nm->len; i += 16)
		memcpy(o + i, src + i, 16);
	return o + nm->len;
}

/* One line: its frames, ';', the count. */
static void
put_stack(const struct fold_pprof_st *st, const struct skey *k,
    const char *blob, const struct oname *names)
{
	size_t n = k->n, j, len;
	const struct oname *nm;
	char *o = NULL;

	/* room for the longest line of n frames, else for this one */
	if (st->maxframe < 65536 && n < 65536)
		o = fo_room(n * (st->maxframe + 1) + 22 + 16);
	if (o == NULL) {
		for (len = 22 + 16, j = 0; j < n; j++)
			len += names[k->r[j]].len + 1;
		o = fo_room(len);
	}
	if (o == NULL) {	/* longer than the buffer */
		for (j = 0; j < n; j++) {
			nm = &names[k->r[j]];
			if (j > 0)
				fo_putc(';');
			fo_write(blob + nm->off, nm->len);
		}
		fo_putc(' ');
		fo_u64(k->count);
		fo_putc('\n');
		return;
	}
	o = put_name(o, blob, &names[k->r[0]]);
	for (j = 1; j < n; j++) {
		*o++ = ';';
		o = put_name(o, blob, &names[k->r[j]]);
	}
	*o++ = ' ';
	o += fold_fmt_u64(o, k->count);
	*o++ = '\n';
	fo_wrote(o);
}

void
fold_pprof_print(struct fold_pprof *p)
{
	struct fold_pprof_st *st = p->st;
	struct stackset *ss = &st->stacks;
	size_t nf, k, j, m = 0, size = 16;
	struct skey *keys;
	struct oname *names;
	uint32_t *tok, *rank, *r;
	struct fold_str name;
	char *blob;

	/* rank the tokens: tok[rank - 1] is the token of a rank */
	nf = fold_intern_count(&st->frames);
	tok = xmalloc((2 * nf + 1) * sizeof(*tok));
	rank = xmalloc((2 * nf + 1) * sizeof(*rank));
	for (k = 0; k < 2 * nf; k++)
		tok[k] = (uint32_t)k;
	rank_frames = &st->frames;
	qsort(tok, 2 * nf, sizeof(*tok), bytoken);
	for (k = 0; k < 2 * nf; k++)
		rank[tok[k]] = (uint32_t)k + 1;
	for (k = 0; k < nf; k++)
		size += fold_intern_str(&st->frames, (uint32_t)k).len;
	blob = xmalloc(size);
	names = xmalloc((2 * nf + 1) * sizeof(*names));
	for (k = 0, size = 0; k < nf; k++) {
		name = fold_intern_str(&st->frames, (uint32_t)k);
		memcpy(blob + size, name.s, name.len);
		names[rank[2 * k]].off = names[rank[2 * k + 1]].off = size;
		names[rank[2 * k]].len = names[rank[2 * k + 1]].len = name.len;
		size += name.len;
	}
	memset(blob + size, 0, 16);
	free(tok);

	/* the stacks counted, as rank strings (in place) */
	keys = xmalloc((ss->n + 1) * sizeof(*keys));
	fold_prefault(keys, (ss->n + 1) * sizeof(*keys));
	for (k = 0; k < ss->n; k++) {
		if (ss->rec[k].count == 0)
			continue;
		r = ss->seq + ss->rec[k].off;
		keys[m].r = r;
		keys[m].n = ss->rec[k].n;
		keys[m].count = ss->rec[k].count;
		for (j = 0; j < keys[m].n; j++)
			r[j] = rank[2 * r[j] + (j + 1 == keys[m].n)];
		m++;
	}
	free(rank);
	mkqs(keys, m, 0, 0);
	for (k = 0; k < m; k++)
		put_stack(st, &keys[k], blob, names);
	free(names);
	free(blob);
	free(keys);
}

int
fold_pprof_end(struct fold_pprof *p)
{
	struct fold_pprof_st *st = p->st;
	int status = p->status;
	size_t i;

	for (i = 0; i < st->nlkeys; i++)
		free(st->lkeys[i].s);
	free(st->lkeys);
	free(st->sindex);
	free(st->strs);
	free(st->types);
	free(st->maps);
	free(st->locs);
	free(st->fns);
	idmap_free(&st->mapids);
	idmap_free(&st->locids);
	idmap_free(&st->fnids);
	free(st->lf);
	free(st->span);
	free(st->lfast);
	free(st->kb);
	free(st->labs);
	free(st->lines);
	free(st->nb);
	free(st->dm);
	fold_intern_free(&st->frames);
	free(st->stacks.seq);
	free(st->stacks.rec);
	free(st->stacks.slot);
	free(st->touched);
	free(st);
	free(p);
	return status;
}
