/*
 * pprofgen - synthetic pprof profiles (profile.proto, raw, on stdout) for
 * the tests and the bench of stackcollapse-pprof.  Its own small encoder.
 *
 *	pprofgen [-u | -p] SHAPE [ARGS]
 *
 * -u: repeated integers never packed; -p: always packed (as prost writes
 * them: RISC Zero, pprof-rs); default: packed when more than two, as
 * pprof's own encoder does.  Shapes:
 *
 *   risc0          a RISC Zero guest profile: "cycles" in "count", one
 *                  mapping (the guest ELF), a location per frame (inlined
 *                  functions too), addresses, lines, zkVM [PageIn] frames
 *   edge           edge cases: fields in an odd order (samples first, the
 *                  string table last), unknown fields of every wire type,
 *                  inlined lines, locations without lines, empty names,
 *                  system names, mangled names, ';' CR LF in names, zero
 *                  values, labels, sparse ids, three sample types with
 *                  default_sample_type the middle one
 *   bench N F S    N samples over F functions (2 locations each, some
 *                  with inlined lines), deterministic from seed S
 *   hostile KIND   a profile broken one way: varint keyvarint badloc
 *                  badfunc badmap badstr baddefault mismatch dupid zeroid
 *                  group wiretype negative nostack firststr bigsum
 *                  nearmax
 *   deep N         one sample of N frames (N functions and locations)
 *   long N         one sample whose leaf's name is N bytes
 *   cuts FILE DIR  FILE cut at every length: DIR/cut-N
 *   flips FILE DIR FILE with one bit flipped per byte: DIR/flip-N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pack = 0;	/* -1 never, 1 always, 0 more than two */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void
room(struct buf *b, size_t n)
{
	if (b->n + n <= b->cap)
		return;
	while (b->n + n > b->cap)
		b->cap = b->cap ? 2 * b->cap : 256;
	if ((b->p = realloc(b->p, b->cap)) == NULL) {
		perror("pprofgen");
		exit(1);
	}
}

static void
bytes(struct buf *b, const void *p, size_t n)
{
	room(b, n);
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
varint(struct buf *b, uint64_t v)
{
	unsigned char t[10];
	size_t k = 0;

	do {
		t[k] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			t[k] |= 0x80;
		k++;
	} while (v);
	bytes(b, t, k);
}

static void
key(struct buf *b, unsigned field, unsigned wt)
{
	varint(b, (uint64_t)field << 3 | wt);
}

static void
vfield(struct buf *b, unsigned field, uint64_t v)
{
	key(b, field, 0);
	varint(b, v);
}

static void
lfield(struct buf *b, unsigned field, const void *p, size_t n)
{
	key(b, field, 2);
	varint(b, n);
	bytes(b, p, n);
}

/* A message in sub as field of b; sub emptied. */
static void
msg(struct buf *b, unsigned field, struct buf *sub)
{
	lfield(b, field, sub->p, sub->n);
	sub->n = 0;
}

static void
ints(struct buf *b, unsigned field, const uint64_t *v, size_t n)
{
	struct buf t = { 0 };
	size_t i;

	if (n == 0)
		return;
	if (pack > 0 || (pack == 0 && n > 2)) {
		for (i = 0; i < n; i++)
			varint(&t, v[i]);
		msg(b, field, &t);
		free(t.p);
		return;
	}
	for (i = 0; i < n; i++)
		vfield(b, field, v[i]);
}

/* ---- strings ----------------------------------------------------------- */

static char **strs;
static size_t nstrs, scap;

static uint64_t
S(const char *s)
{
	size_t i;

	for (i = 0; i < nstrs; i++)
		if (strcmp(strs[i], s) == 0)
			return i;
	if (nstrs == scap) {
		scap = scap ? 2 * scap : 64;
		if ((strs = realloc(strs, scap * sizeof(*strs))) == NULL)
			exit(1);
	}
	strs[nstrs] = strdup(s);
	return nstrs++;
}

static void
strtab(struct buf *b)
{
	size_t i;

	for (i = 0; i < nstrs; i++)
		lfield(b, 6, strs[i], strlen(strs[i]));
}

/* ---- messages ---------------------------------------------------------- */

static struct buf tmp, tmp2;

static void
vtype(struct buf *b, const char *type, const char *unit)
{
	vfield(&tmp, 1, S(type));
	vfield(&tmp, 2, S(unit));
	msg(b, 1, &tmp);
}

static void
mapping(struct buf *b, uint64_t id, uint64_t start, uint64_t limit,
    const char *file)
{
	vfield(&tmp, 1, id);
	vfield(&tmp, 2, start);
	vfield(&tmp, 3, limit);
	vfield(&tmp, 4, 0);
	if (file != NULL)
		vfield(&tmp, 5, S(file));
	vfield(&tmp, 7, 1);
	msg(b, 3, &tmp);
}

static void
function(struct buf *b, uint64_t id, const char *name, const char *sys,
    const char *file)
{
	vfield(&tmp, 1, id);
	if (name != NULL)
		vfield(&tmp, 2, S(name));
	if (sys != NULL)
		vfield(&tmp, 3, S(sys));
	if (file != NULL)
		vfield(&tmp, 4, S(file));
	msg(b, 5, &tmp);
}

/* A location: n lines (function id, line), leaf-most first. */
static void
location(struct buf *b, uint64_t id, uint64_t map, uint64_t addr,
    const uint64_t *fn, const int64_t *line, size_t n)
{
	size_t i;

	vfield(&tmp, 1, id);
	if (map)
		vfield(&tmp, 2, map);
	vfield(&tmp, 3, addr);
	for (i = 0; i < n; i++) {
		vfield(&tmp2, 1, fn[i]);
		if (line[i] != 0)
			vfield(&tmp2, 2, (uint64_t)line[i]);
		msg(&tmp, 4, &tmp2);
	}
	msg(b, 4, &tmp);
}

static void
sample(struct buf *b, const uint64_t *locs, size_t nl, const int64_t *vals,
    size_t nv, const struct buf *labels)
{
	uint64_t v[16];
	size_t i;

	for (i = 0; i < nv; i++)
		v[i] = (uint64_t)vals[i];
	ints(&tmp, 1, locs, nl);
	ints(&tmp, 2, v, nv);
	if (labels != NULL)
		bytes(&tmp, labels->p, labels->n);
	msg(b, 2, &tmp);
}

/* A label (str or num) appended to lb. */
static void
label(struct buf *lb, const char *k, const char *str, int64_t num,
    const char *unit)
{
	struct buf t = { 0 };

	vfield(&t, 1, S(k));
	if (str != NULL)
		vfield(&t, 2, S(str));
	else
		vfield(&t, 3, (uint64_t)num);
	if (unit != NULL)
		vfield(&t, 4, S(unit));
	msg(lb, 3, &t);
	free(t.p);
}

static void
out(const struct buf *b)
{
	if (fwrite(b->p, 1, b->n, stdout) != b->n || fflush(stdout) != 0) {
		perror("pprofgen: write");
		exit(1);
	}
}

/* ---- shapes ------------------------------------------------------------ */

/*
 * RISC Zero: one sample type, one mapping, a location per function and
 * call, each one line, addresses; samples packed (prost), values cycles.
 */
static void
risc0(void)
{
	struct buf b = { 0 };
	static const struct { const char *name, *file; } fns[] = {
		{ "fibonacci::main", "src/main.rs" },
		{ "risc0_zkvm::guest::env::read", "risc0/zkvm/src/guest/env/mod.rs" },
		{ "fibonacci::fibonacci_1", "src/main.rs" },
		{ "fibonacci::fibonacci_2", "src/main.rs" },
		{ "<u64 as core::ops::arith::Add>::add",
		    "/rustc/library/core/src/ops/arith.rs" },
		{ "core::num::<impl u64>::wrapping_add", "unknown" },
		{ "[PageIn]", "" },
		{ "[PageOut]", "" },
		{ "__start", "risc0/zkvm/platform/src/rust_rt.rs" },
		{ "risc0_zkvm::guest::env::commit", "risc0/zkvm/src/guest/env/mod.rs" },
		{ "risc0_zkvm_platform::syscall::sys_sha_buffer",
		    "risc0/zkvm/platform/src/syscall.rs" },
		{ "sha2::sha256::compress256", "sha2/src/sha256.rs" },
	};
	/* locations: id, function (1-based), line, address */
	static const struct { int fn; int64_t line; uint64_t addr; } locs[] = {
		{ 9, 41, 0x200800 },	/* 1 __start */
		{ 1, 12, 0x200a00 },	/* 2 main */
		{ 2, 80, 0x201000 },	/* 3 env::read */
		{ 3, 20, 0x200b00 },	/* 4 fibonacci_1 */
		{ 5, 0, 0x200b00 },	/* 5 add, inlined (line 0) */
		{ 4, 31, 0x200c00 },	/* 6 fibonacci_2 */
		{ 6, 0, 0x200c00 },	/* 7 wrapping_add, inlined */
		{ 7, 0, 0 },		/* 8 [PageIn] */
		{ 8, 0, 0 },		/* 9 [PageOut] */
		{ 10, 120, 0x201200 },	/* 10 env::commit */
		{ 11, 300, 0x202000 },	/* 11 sys_sha_buffer */
		{ 12, 70, 0x203000 },	/* 12 compress256 */
	};
	static const struct { uint64_t locs[8]; size_t n; int64_t cycles; } smp[] = {
		{ { 1 }, 1, 1500 },
		{ { 2, 1 }, 2, 4200 },
		{ { 8, 2, 1 }, 3, 131072 },
		{ { 3, 2, 1 }, 3, 9000 },
		{ { 8, 3, 2, 1 }, 4, 65536 },
		{ { 4, 2, 1 }, 3, 2000000 },
		{ { 5, 4, 2, 1 }, 4, 1200000 },
		{ { 6, 2, 1 }, 3, 900000 },
		{ { 7, 6, 2, 1 }, 4, 450000 },
		{ { 10, 2, 1 }, 3, 3000 },
		{ { 11, 10, 2, 1 }, 4, 5000 },
		{ { 12, 11, 10, 2, 1 }, 5, 180000 },
		{ { 9, 10, 2, 1 }, 4, 32768 },
	};
	size_t i;
	uint64_t f;

	S("");
	vtype(&b, "cycles", "count");
	for (i = 0; i < sizeof(smp) / sizeof(smp[0]); i++)
		sample(&b, smp[i].locs, smp[i].n, &smp[i].cycles, 1, NULL);
	mapping(&b, 1, 0x200400, 0x240000,
	    "target/riscv-guest/riscv32im-risc0-zkvm-elf/release/fibonacci");
	for (i = 0; i < sizeof(locs) / sizeof(locs[0]); i++) {
		f = (uint64_t)locs[i].fn;
		location(&b, i + 1, 1, locs[i].addr, &f, &locs[i].line, 1);
	}
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		function(&b, i + 1, fns[i].name, NULL, fns[i].file);
	strtab(&b);
	out(&b);
}

/* Unknown fields of every wire type, numbered n. */
static void
unknown(struct buf *b, unsigned n)
{
	static const unsigned char eight[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	vfield(b, n, 12345);
	key(b, n + 1, 1);
	bytes(b, eight, 8);
	lfield(b, n + 2, "unknown\0bytes", 13);
	key(b, n + 3, 5);
	bytes(b, eight, 4);
}

static void
edge(void)
{
	struct buf b = { 0 }, lb = { 0 };
	const uint64_t big = (uint64_t)1 << 40;	/* sparse location ids */
	uint64_t l[8];
	int64_t v[3];
	uint64_t fn[3];
	int64_t ln[3];

	/* samples first: values samples, cpu, wall */
#define SMP(nl, a, b_, c, ...) do {					\
		uint64_t l_[] = { __VA_ARGS__ };			\
		v[0] = (a); v[1] = (b_); v[2] = (c);			\
		sample(&b, l_, (nl), v, 3, NULL);			\
	} while (0)
	S("");
	SMP(2, 1, 10, 11, big + 1, big + 2);	/* main;inl chain */
	SMP(2, 2, 20, 21, big + 1, big + 2);	/* the same stack again */
	SMP(3, 1, 30, 31, big + 3, big + 1, big + 2);	/* no-line, libc */
	SMP(2, 1, 40, 41, big + 4, big + 2);	/* no mapping */
	SMP(2, 1, 50, 51, big + 5, big + 2);	/* mapping without file */
	SMP(2, 1, 60, 61, big + 6, big + 2);	/* system name only */
	SMP(2, 1, 70, 71, big + 7, big + 2);	/* no name at all */
	SMP(2, 1, 80, 81, big + 8, big + 2);	/* ; CR LF in a name */
	SMP(2, 1, 0, 91, big + 9, big + 2);	/* cpu 0: skipped */
	SMP(2, 1, 100, 101, big + 10, big + 2);	/* Rust v0 mangled */
	SMP(2, 1, 110, 111, big + 11, big + 2);	/* lines: file, no line */
	SMP(2, 1, 120, 121, big + 12, big + 2);	/* lines: line, no file */
	SMP(2, 1, 130, 131, big + 13, big + 2);	/* other location, same
						   function as big + 1 */
	SMP(0, 1, 140, 141, 0);			/* no location: skipped */
	/* labels */
	label(&lb, "thread", "worker-1", 0, NULL);
	label(&lb, "bytes", NULL, 4096, "bytes");
	label(&lb, "req", NULL, 7, NULL);
	label(&lb, "thread", "pool;a", 0, NULL);	/* a second value */
	l[0] = big + 7;
	l[1] = big + 2;
	v[0] = 1;
	v[1] = 1000;
	v[2] = 1001;
	sample(&b, l, 2, v, 3, &lb);
	lb.n = 0;
	label(&lb, "thread", "worker-2", 0, NULL);
	vfield(&tmp2, 1, S("ignored"));		/* a label without value */
	msg(&lb, 3, &tmp2);
	v[1] = 2000;
	v[2] = 2001;
	sample(&b, l, 2, v, 3, &lb);
	unknown(&b, 100);

	/* sample types after the samples; unit before type in the second */
	vtype(&b, "samples", "count");
	vfield(&tmp, 2, S("nanoseconds"));
	unknown(&tmp, 50);
	vfield(&tmp, 1, S("cpu"));
	msg(&b, 1, &tmp);
	vtype(&b, "wall", "nanoseconds");
	vfield(&b, 14, S("cpu"));		/* default: the middle one */

	/* locations, their lines leaf-most first */
	fn[0] = 1; fn[1] = 2; fn[2] = 3;	/* inner in outer in main */
	ln[0] = 10; ln[1] = 20; ln[2] = 30;
	location(&b, big + 1, 1, 0x401000, fn, ln, 3);
	fn[0] = 4; ln[0] = 5;			/* root: start */
	location(&b, big + 2, 1, 0x400100, fn, ln, 1);
	location(&b, big + 3, 2, 0x7f0000123456, NULL, NULL, 0);
	location(&b, big + 4, 0, 0xdead, NULL, NULL, 0);
	location(&b, big + 5, 3, 0xbeef, NULL, NULL, 0);
	fn[0] = 5; ln[0] = 1;
	location(&b, big + 6, 1, 0x401100, fn, ln, 1);
	fn[0] = 6;
	location(&b, big + 7, 1, 0x401200, fn, ln, 1);
	fn[0] = 7;
	location(&b, big + 8, 1, 0x401300, fn, ln, 1);
	fn[0] = 8;
	location(&b, big + 9, 1, 0x401400, fn, ln, 1);
	fn[0] = 9;
	location(&b, big + 10, 1, 0x401500, fn, ln, 1);
	fn[0] = 10; ln[0] = 0;
	location(&b, big + 11, 1, 0x401600, fn, ln, 1);
	fn[0] = 11; ln[0] = 77;
	location(&b, big + 12, 1, 0x401700, fn, ln, 1);
	fn[0] = 1; fn[1] = 2; fn[2] = 3;
	ln[0] = 11; ln[1] = 21; ln[2] = 31;
	location(&b, big + 13, 1, 0x401008, fn, ln, 3);
	/* an unknown field inside a location and a line */
	vfield(&tmp, 1, big + 14);
	unknown(&tmp, 60);
	vfield(&tmp2, 1, 4);
	unknown(&tmp2, 70);
	msg(&tmp, 4, &tmp2);
	msg(&b, 4, &tmp);

	/* functions, some fields missing */
	function(&b, 1, "inner", "inner_sys", "src/inner.c");
	function(&b, 2, "outer", NULL, "src/outer.c");
	function(&b, 3, "main", NULL, "src/main.c");
	function(&b, 4, "_start", NULL, "");
	function(&b, 5, "", "_ZN3foo3barEv", "foo.cc");
	function(&b, 6, NULL, NULL, NULL);
	function(&b, 7, "odd;name\r\nhere", NULL, "odd.c");
	function(&b, 8, "zero_cpu", NULL, "z.c");
	function(&b, 9, "_RINvCs1234_1m4workmEB2_", NULL, "m.rs");
	function(&b, 10, "nofile_line0", NULL, "has/file.c");
	function(&b, 11, "noname_file", NULL, "");
	unknown(&b, 200);

	/* mappings: 1 the program, 2 libc, 3 without a file */
	mapping(&b, 1, 0x400000, 0x500000, "/usr/local/bin/prog");
	mapping(&b, 2, 0x7f0000000000, 0x7f0000200000,
	    "/usr/lib/x86_64-linux-gnu/libc.so.6");
	mapping(&b, 3, 0xb000, 0xc000, NULL);

	strtab(&b);			/* the string table last */
	out(&b);
	free(lb.p);
#undef SMP
}

/* A reproducible generator. */
static uint64_t rs = 88172645463325252ULL;
static uint64_t
rnd(uint64_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (rs >> 11) % n;
}

/*
 * N samples, F functions, 2 F locations: location 2f+1 and 2f+2 are calls
 * in function f+1; one in eight has the function two more inlined into it.
 * Stacks: a path down a tree whose first levels have few choices (the
 * shared callers), 4 to 31 frames; values [count, nanoseconds].
 */
static void
bench(uint64_t n, uint64_t nf, uint64_t seed)
{
	struct buf b = { 0 };
	uint64_t i, d, k, f, *loc, fns[3];
	int64_t v[2], lines[3];
	char name[128], file[64];
	const uint64_t sbase = 6;	/* strings before the functions' */

	rs += seed * 0x9e3779b97f4a7c15ULL;
	S("");
	vtype(&b, "samples", "count");
	vtype(&b, "cpu", "nanoseconds");
	S("/usr/local/bin/server");
	mapping(&b, 1, 0x400000, 0x4000000, "/usr/local/bin/server");
	/* strings of the functions: name 2f, file 2f + 1, after sbase */
	for (f = 0; f < nf; f++) {
		snprintf(name, sizeof(name), "example.com/svc/pkg%llu.(*Type%llu).method%llu",
		    (unsigned long long)(f % 97), (unsigned long long)(f % 13),
		    (unsigned long long)f);
		snprintf(file, sizeof(file), "example.com/svc/pkg%llu/file%llu.go",
		    (unsigned long long)(f % 97), (unsigned long long)f);
		strs = realloc(strs, (nstrs + 2) * sizeof(*strs));
		strs[nstrs++] = strdup(name);
		strs[nstrs++] = strdup(file);
	}
	for (f = 0; f < nf; f++) {
		vfield(&tmp, 1, f + 1);
		vfield(&tmp, 2, sbase + 2 * f);
		vfield(&tmp, 3, sbase + 2 * f);
		vfield(&tmp, 4, sbase + 2 * f + 1);
		vfield(&tmp, 5, 10);
		msg(&b, 5, &tmp);
	}
	for (i = 0; i < 2 * nf; i++) {
		f = i / 2;
		k = 1;
		fns[0] = f + 1;
		lines[0] = (int64_t)(10 + i % 50);
		if (i % 8 == 3 && f + 2 < nf) {	/* inlined calls */
			fns[0] = f + 3;
			fns[1] = f + 2;
			fns[2] = f + 1;
			lines[0] = 7;
			lines[1] = 8;
			lines[2] = (int64_t)(10 + i % 50);
			k = 3;
		}
		location(&b, i + 1, 1, 0x400000 + 16 * i, fns, lines, k);
	}
	loc = malloc(40 * sizeof(*loc));
	for (i = 0; i < n; i++) {
		d = 4 + rnd(28);
		/* root first into loc[d-1 .. 0] */
		for (k = 0; k < d; k++) {
			uint64_t span = k < 3 ? 2 * (k + 1) : 2 * nf;

			loc[d - 1 - k] = 1 + (k < 3 ? rnd(span) + 2 * k * 7 :
			    rnd(span));
		}
		v[0] = 1 + (int64_t)rnd(3);
		v[1] = v[0] * 10000000;
		sample(&b, loc, d, v, 2, NULL);
	}
	free(loc);
	strtab(&b);
	out(&b);
}

/* One sample: main calling fn1 ... fnN-1 (deep), or a leaf of a long
 * name. */
static void
deep(uint64_t n, int longname)
{
	struct buf b = { 0 };
	uint64_t i, *loc = malloc((n + 1) * sizeof(*loc)), fn;
	int64_t v = 3, ln = 1;
	char name[32], *big;

	S("");
	vtype(&b, "samples", "count");
	if (longname) {
		big = malloc(n + 1);
		memset(big, 'x', n);
		big[n] = '\0';
		function(&b, 1, "main", NULL, NULL);
		function(&b, 2, big, NULL, NULL);
		fn = 1;
		location(&b, 1, 0, 0x10, &fn, &ln, 1);
		fn = 2;
		location(&b, 2, 0, 0x20, &fn, &ln, 1);
		loc[0] = 2;
		loc[1] = 1;
		sample(&b, loc, 2, &v, 1, NULL);
		free(big);
	} else {
		/* strings by number: main, fn1 .. fnN-1 after those */
		uint64_t base = nstrs;

		strs = realloc(strs, (nstrs + n) * sizeof(*strs));
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), i ? "fn%llu" : "main",
			    (unsigned long long)i);
			strs[nstrs++] = strdup(name);
			vfield(&tmp, 1, i + 1);
			vfield(&tmp, 2, base + i);
			msg(&b, 5, &tmp);
			fn = i + 1;
			location(&b, i + 1, 0, 0x1000 + i, &fn, &ln, 1);
			loc[n - 1 - i] = i + 1;
		}
		sample(&b, loc, n, &v, 1, NULL);
	}
	free(loc);
	strtab(&b);
	out(&b);
}

static void
hostile(const char *kind)
{
	struct buf b = { 0 };
	uint64_t l[2] = { 1, 2 }, fn = 1;
	int64_t v[2] = { 5, 50 }, ln = 3;

	S("");
	if (strcmp(kind, "firststr") == 0) {
		/* a string table whose first string is not "" */
		lfield(&b, 6, "x", 1);
	}
	vtype(&b, "samples", "count");
	vtype(&b, "cpu", "nanoseconds");
	function(&b, strcmp(kind, "zeroid") == 0 ? 0 : 1, "leaf", NULL, "a.c");
	function(&b, 2, strcmp(kind, "badstr") == 0 ? NULL : "root", NULL,
	    "a.c");
	if (strcmp(kind, "badstr") == 0) {	/* name: string 1000 */
		vfield(&tmp, 1, 3);
		vfield(&tmp, 2, 1000);
		msg(&b, 5, &tmp);
	}
	location(&b, 1, strcmp(kind, "badmap") == 0 ? 7 : 0, 0x10, &fn, &ln, 1);
	fn = strcmp(kind, "badfunc") == 0 ? 42 : 2;
	location(&b, strcmp(kind, "dupid") == 0 ? 1 : 2, 0, 0x20, &fn, &ln, 1);
	if (strcmp(kind, "badloc") == 0)
		l[0] = 99;
	if (strcmp(kind, "mismatch") == 0)
		sample(&b, l, 2, v, 1, NULL);
	else
		sample(&b, l, 2, v, 2, NULL);
	if (strcmp(kind, "negative") == 0) {
		v[1] = -7;
		sample(&b, l, 2, v, 2, NULL);
		sample(&b, l, 1, v, 2, NULL);
	}
	if (strcmp(kind, "nostack") == 0)
		sample(&b, l, 0, v, 2, NULL);
	if (strcmp(kind, "bigsum") == 0) {
		v[1] = INT64_MAX;
		sample(&b, l, 2, v, 2, NULL);
		sample(&b, l, 2, v, 2, NULL);
		sample(&b, l, 2, v, 2, NULL);
	}
	if (strcmp(kind, "nearmax") == 0) {	/* 2^64 - 52 in all */
		v[1] = INT64_MAX;
		sample(&b, l, 2, v, 2, NULL);
		v[1] = INT64_MAX - 100;
		sample(&b, l, 2, v, 2, NULL);
	}
	if (strcmp(kind, "baddefault") == 0)
		vfield(&b, 14, 500);
	if (strcmp(kind, "varint") == 0) {
		/* a sample whose location id takes 11 bytes */
		static const unsigned char s[] = { 0x12, 12, 0x08, 0xff, 0xff,
		    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };

		bytes(&b, s, sizeof(s));
	}
	if (strcmp(kind, "keyvarint") == 0) {
		static const unsigned char s[] = { 0x80, 0x80, 0x80, 0x80,
		    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };

		bytes(&b, s, sizeof(s));
	}
	if (strcmp(kind, "group") == 0)
		key(&b, 20, 3);
	if (strcmp(kind, "wiretype") == 0)
		vfield(&b, 2, 1);
	strtab(&b);
	out(&b);
}

static int
load(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t r;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	while ((r = fread(chunk, 1, sizeof(chunk), f)) > 0)
		bytes(b, chunk, r);
	fclose(f);
	return 0;
}

static int
save(const char *dir, const char *what, size_t i, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%05zu", dir, what, i);
	if ((f = fopen(path, "wb")) == NULL ||
	    (n > 0 && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct buf b = { 0 };
	size_t i;
	int a = 1;

	if (a < argc && strcmp(argv[a], "-u") == 0) {
		pack = -1;
		a++;
	} else if (a < argc && strcmp(argv[a], "-p") == 0) {
		pack = 1;
		a++;
	}
	if (a >= argc)
		goto usage;
	if (strcmp(argv[a], "risc0") == 0)
		risc0();
	else if (strcmp(argv[a], "edge") == 0)
		edge();
	else if (strcmp(argv[a], "bench") == 0 && argc - a == 4)
		bench(strtoull(argv[a + 1], NULL, 10),
		    strtoull(argv[a + 2], NULL, 10),
		    strtoull(argv[a + 3], NULL, 10));
	else if ((strcmp(argv[a], "deep") == 0 || strcmp(argv[a], "long") == 0)
	    && argc - a == 2)
		deep(strtoull(argv[a + 1], NULL, 10), argv[a][0] == 'l');
	else if (strcmp(argv[a], "hostile") == 0 && argc - a == 2)
		hostile(argv[a + 1]);
	else if ((strcmp(argv[a], "cuts") == 0 || strcmp(argv[a], "flips") == 0)
	    && argc - a == 3) {
		if (load(argv[a + 1], &b) < 0)
			return 1;
		for (i = 0; i < b.n; i++) {
			if (argv[a][0] == 'c') {
				if (save(argv[a + 2], "cut", i, b.p, i) < 0)
					return 1;
				continue;
			}
			b.p[i] ^= (unsigned char)(1u << (i * 5 % 8));
			if (save(argv[a + 2], "flip", i, b.p, b.n) < 0)
				return 1;
			b.p[i] ^= (unsigned char)(1u << (i * 5 % 8));
		}
	} else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: pprofgen [-u | -p] risc0 | edge | bench N F S |"
	    " deep N | long N | hostile KIND | cuts FILE DIR | flips FILE DIR\n");
	return 2;
}
