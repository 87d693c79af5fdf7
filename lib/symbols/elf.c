/*
 * elf.c - the parts of an ELF file that name addresses: program headers,
 * the GNU build id, .symtab (else .dynsym) and the PLT, read the way perf
 * reads them.  ELF32 and ELF64, either byte order; our own constants.
 *
 * The file is untrusted: every offset, size and count is checked against
 * the file size before use; names must end with a NUL inside their string
 * table.  A malformed part is ignored (fewer symbols), never followed.
 * Work stays linear in the file size whatever the bytes: a name is at most
 * NAMEMAX bytes, at most LOADMAX PT_LOAD segments are used, and the bytes
 * scanned for names and notes are budgeted (a few times the file size).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"

/* ELF numbers (from the System V ABI). */
enum {
	ET_EXEC = 2, ET_DYN = 3,
	EM_SPARC = 2, EM_SPARCV9 = 43, EM_ARM = 40, EM_AARCH64 = 183,
	PT_LOAD = 1, PT_NOTE = 4,
	SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_RELA = 4, SHT_NOTE = 7,
	SHT_NOBITS = 8, SHT_REL = 9, SHT_DYNSYM = 11,
	SHF_ALLOC = 2,
	SHN_UNDEF = 0, SHN_LORESERVE = 0xff00, SHN_ABS = 0xfff1,
	SHN_XINDEX = 0xffff, PN_XNUM = 0xffff,
	STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2, STT_GNU_IFUNC = 10,
	STB_GLOBAL = 1,
	NT_GNU_BUILD_ID = 3
};

struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link;
	uint64_t align, entsize;
};

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
};

#define NAMEMAX 65536
#define LOADMAX 1024

struct fold_elf {
	const unsigned char *p;
	size_t n;
	void *map;		/* from mmap, or NULL */
	int is64, be;
	unsigned type, machine;
	uint64_t phoff, shoff;
	size_t phnum, phentsize, shnum, shentsize, shstrndx;
	const unsigned char *bid;
	size_t bidlen;
	struct phdr *load;	/* the PT_LOAD segments, in order */
	size_t nload;
	uint64_t budget;	/* bytes left to scan for names, notes */
	unsigned char *textsec;	/* per section: 0 unknown, 1 no, 2 "text" */
	const char *problem;	/* the first thing found wrong, or NULL */
	int symtab, dynsym;	/* has a .symtab, a .dynsym */
	struct fold_elf *rt;	/* program headers and PLT from here */
	int indexed;
	int dmnames;		/* fold_elf_demangled() */
	struct fold_syms *syms;
	struct fold_arena names;	/* PLT names */
};

static uint64_t
rd(const struct fold_elf *e, const unsigned char *q, int n)
{
	return fold_getu(q, n, e->be);
}
#define R16(e, q) ((uint32_t)rd(e, q, 2))
#define R32(e, q) ((uint32_t)rd(e, q, 4))
#define RW(e, q) rd(e, q, (e)->is64 ? 8 : 4)	/* a word of the class */

/* [off, off + len) lies inside the file. */
static int
inside(const struct fold_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->n && len <= e->n - off;
}

static void
get_shdr(const struct fold_elf *e, size_t i, struct shdr *s)
{
	const unsigned char *q = e->p + e->shoff + i * e->shentsize;

	s->name = R32(e, q);
	s->type = R32(e, q + 4);
	if (e->is64) {
		s->flags = rd(e, q + 8, 8);
		s->addr = rd(e, q + 16, 8);
		s->offset = rd(e, q + 24, 8);
		s->size = rd(e, q + 32, 8);
		s->link = R32(e, q + 40);
		s->align = rd(e, q + 48, 8);
		s->entsize = rd(e, q + 56, 8);
	} else {
		s->flags = R32(e, q + 8);
		s->addr = R32(e, q + 12);
		s->offset = R32(e, q + 16);
		s->size = R32(e, q + 20);
		s->link = R32(e, q + 24);
		s->align = R32(e, q + 32);
		s->entsize = R32(e, q + 36);
	}
}

static void
get_phdr(const struct fold_elf *e, size_t i, struct phdr *h)
{
	const unsigned char *q = e->p + e->phoff + i * e->phentsize;

	h->type = R32(e, q);
	if (e->is64) {
		h->flags = R32(e, q + 4);
		h->offset = rd(e, q + 8, 8);
		h->vaddr = rd(e, q + 16, 8);
		h->filesz = rd(e, q + 32, 8);
		h->memsz = rd(e, q + 40, 8);
	} else {
		h->offset = R32(e, q + 4);
		h->vaddr = R32(e, q + 8);
		h->filesz = R32(e, q + 16);
		h->memsz = R32(e, q + 20);
		h->flags = R32(e, q + 24);
	}
}

/* The bytes of a section, if it has any in the file. */
static const unsigned char *
sec_data(const struct fold_elf *e, const struct shdr *s)
{
	if (s->type == SHT_NOBITS || !inside(e, s->offset, s->size))
		return NULL;
	return e->p + s->offset;
}

/* The NUL-terminated string at off of string table section s, or NULL
 * (no NUL within the table or within NAMEMAX bytes, or over budget). */
static const char *
sec_str(struct fold_elf *e, const struct shdr *s, uint64_t off)
{
	const unsigned char *d = sec_data(e, s), *z;
	uint64_t max;

	if (d == NULL || off >= s->size)
		return NULL;
	max = s->size - off < NAMEMAX ? s->size - off : NAMEMAX;
	if ((z = memchr(d + off, '\0', (size_t)max)) == NULL)
		return NULL;
	if ((uint64_t)(z - (d + off)) >= e->budget) {
		e->budget = 0;
		return NULL;
	}
	e->budget -= (uint64_t)(z - (d + off)) + 1;
	return (const char *)d + off;
}

/* Section s is named name (compared without scanning past it). */
static int
sec_named(const struct fold_elf *e, const struct shdr *s, const char *name)
{
	struct shdr str;
	const unsigned char *d;
	size_t len = strlen(name) + 1;

	if (e->shstrndx >= e->shnum)
		return 0;
	get_shdr(e, e->shstrndx, &str);
	if ((d = sec_data(e, &str)) == NULL || s->name >= str.size ||
	    len > str.size - s->name)
		return 0;
	return memcmp(d + s->name, name, len) == 0;
}

static int
sec_is_text1(const struct fold_elf *e, const struct shdr *s)
{
	struct shdr str;
	const unsigned char *d, *q, *end;

	if (e->shstrndx >= e->shnum)
		return 0;
	get_shdr(e, e->shstrndx, &str);
	if ((d = sec_data(e, &str)) == NULL || s->name >= str.size)
		return 0;
	q = d + s->name;
	end = str.size - s->name < NAMEMAX ? d + str.size : q + NAMEMAX;
	for (; q + 4 <= end && *q != '\0'; q++)
		if (memcmp(q, "text", 4) == 0)
			return 1;
	return 0;
}

/* Section i (header s) has "text" in its name (as perf's elf_sec__is_text;
 * a NUL within NAMEMAX bytes ends the name); remembered per section. */
static int
sec_is_text(struct fold_elf *e, size_t i, const struct shdr *s)
{
	if (e->textsec == NULL)
		e->textsec = xcalloc(e->shnum, 1);
	if (e->textsec[i] == 0)
		e->textsec[i] = 1 + (unsigned char)sec_is_text1(e, s);
	return e->textsec[i] - 1;
}

/* Section named name of type type (0: any): its index, or 0 (none). */
static size_t
find_sec(const struct fold_elf *e, const char *name, uint32_t type,
    struct shdr *s)
{
	size_t i;

	for (i = 1; i < e->shnum; i++) {
		get_shdr(e, i, s);
		if (sec_named(e, s, name))
			return type == 0 || s->type == type ? i : 0;
	}
	return 0;
}

/* Look for a GNU build id note in n bytes at q. */
static void
scan_notes(struct fold_elf *e, const unsigned char *q, uint64_t n,
    uint64_t align)
{
	uint64_t namesz, descsz, type, a = align == 8 ? 8 : 4;

	if (n > e->budget)
		n = e->budget;
	e->budget -= n;
	while (n >= 12 && e->bid == NULL) {
		namesz = R32(e, q);
		descsz = R32(e, q + 4);
		type = R32(e, q + 8);
		q += 12;
		n -= 12;
		namesz = (namesz + a - 1) & ~(a - 1);
		descsz = (descsz + a - 1) & ~(a - 1);
		if (namesz > n || descsz > n - namesz)
			return;
		if (type == NT_GNU_BUILD_ID && R32(e, q - 12) == 4 &&
		    memcmp(q, "GNU", 4) == 0 && R32(e, q - 8) > 0) {
			e->bid = q + namesz;
			e->bidlen = R32(e, q - 8);
		}
		q += namesz + descsz;
		n -= namesz + descsz;
	}
}

static void
find_buildid(struct fold_elf *e)
{
	struct shdr s;
	struct phdr h;
	size_t i;

	for (i = 1; i < e->shnum && e->bid == NULL; i++) {
		get_shdr(e, i, &s);
		if (s.type == SHT_NOTE && sec_data(e, &s) != NULL)
			scan_notes(e, e->p + s.offset, s.size, s.align);
	}
	for (i = 0; i < e->phnum && e->bid == NULL; i++) {
		get_phdr(e, i, &h);
		if (h.type == PT_NOTE && inside(e, h.offset, h.filesz))
			scan_notes(e, e->p + h.offset, h.filesz, 4);
	}
	if (e->bidlen > 20)	/* perf keeps at most 20 bytes */
		e->bidlen = 20;
}

struct fold_elf *
fold_elf_mem(const void *p, size_t n, const char **why)
{
	const unsigned char *q = p;
	struct fold_elf *e;
	struct shdr s0;
	size_t phsz, shsz, i;
	uint64_t phnum, shnum, shstrndx;

	if (n < 16 || memcmp(q, "\177ELF", 4) != 0) {
		*why = "not an ELF file";
		return NULL;
	}
	if ((q[4] != 1 && q[4] != 2) || (q[5] != 1 && q[5] != 2)) {
		*why = "unknown ELF class or byte order";
		return NULL;
	}
	if (n < (q[4] == 2 ? 64u : 52u)) {
		*why = "ELF header cut short";
		return NULL;
	}
	e = xcalloc(1, sizeof(*e));
	e->p = q;
	e->n = n;
	e->is64 = q[4] == 2;
	e->be = q[5] == 2;
	e->type = R16(e, q + 16);
	e->machine = R16(e, q + 18);
	phsz = e->is64 ? 56 : 32;
	shsz = e->is64 ? 64 : 40;
	if (e->is64) {
		e->phoff = rd(e, q + 32, 8);
		e->shoff = rd(e, q + 40, 8);
		q += 54;
	} else {
		e->phoff = R32(e, q + 28);
		e->shoff = R32(e, q + 32);
		q += 42;
	}
	e->phentsize = R16(e, q);
	phnum = R16(e, q + 2);
	e->shentsize = R16(e, q + 4);
	shnum = R16(e, q + 6);
	shstrndx = R16(e, q + 8);

	/* Section headers: a count of 0 (or an index of SHN_XINDEX) says
	 * the real one is in section 0. */
	if (e->shentsize >= shsz && e->shoff != 0 &&
	    inside(e, e->shoff, e->shentsize)) {
		e->shnum = 1;
		get_shdr(e, 0, &s0);
		if (shnum == 0)
			shnum = s0.size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = s0.link;
		if (phnum == PN_XNUM)
			phnum = R32(e, e->p + e->shoff + (e->is64 ? 44 : 28));
		if (shnum <= (e->n - e->shoff) / e->shentsize) {
			e->shnum = (size_t)shnum;
			e->shstrndx = (size_t)shstrndx;
		} else
			e->shnum = 0;
	}
	if (e->phentsize >= phsz && phnum > 0 && e->phoff <= e->n &&
	    phnum <= (e->n - e->phoff) / e->phentsize)
		e->phnum = (size_t)phnum;
	e->load = xmalloc(LOADMAX * sizeof(*e->load));
	for (i = 0; i < e->phnum && e->nload < LOADMAX; i++) {
		get_phdr(e, i, &e->load[e->nload]);
		if (e->load[e->nload].type == PT_LOAD)
			e->nload++;
	}
	e->budget = 4 * (uint64_t)n + 65536;
	find_buildid(e);
	{
		struct shdr s;

		e->symtab = find_sec(e, ".symtab", SHT_SYMTAB, &s) != 0;
		e->dynsym = find_sec(e, ".dynsym", SHT_DYNSYM, &s) != 0;
	}
	return e;
}

struct fold_elf *
fold_elf_open(const char *path, const char **why)
{
	struct fold_elf *e;
	struct stat st;
	void *m;
	int fd;

	/* O_NONBLOCK: a FIFO at a recorded path must not hang the open */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0) {
		*why = NULL;	/* see errno */
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		*why = NULL;
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		close(fd);
		return NULL;
	}
	if (st.st_size < 16 || (uint64_t)st.st_size > SIZE_MAX) {
		*why = "not an ELF file";
		close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		*why = NULL;
		return NULL;
	}
	if ((e = fold_elf_mem(m, (size_t)st.st_size, why)) == NULL) {
		munmap(m, (size_t)st.st_size);
		return NULL;
	}
	e->map = m;
	return e;
}

size_t
fold_elf_buildid(const struct fold_elf *e, const unsigned char **id)
{
	*id = e->bid;
	return e->bidlen;
}

int
fold_elf_has_symtab(const struct fold_elf *e)
{
	return e->symtab;
}

int
fold_elf_has_dynsym(const struct fold_elf *e)
{
	return e->dynsym;
}

int
fold_elf_vaddr(const struct fold_elf *e, uint64_t off, uint64_t *vaddr)
{
	const struct phdr *h;
	size_t i;

	for (i = 0; i < e->nload; i++) {
		h = &e->load[i];
		if (off >= h->offset && off - h->offset < h->filesz) {
			*vaddr = off - h->offset + h->vaddr;
			return 1;
		}
	}
	return 0;
}

int
fold_elf_base(const struct fold_elf *e, uint64_t *vaddr)
{
	if (e->nload == 0)
		return 0;
	*vaddr = e->load[0].vaddr;
	return 1;
}

void
fold_elf_runtime(struct fold_elf *e, struct fold_elf *rt)
{
	if (!e->indexed)
		e->rt = rt;
}

/* perf's move of a symbol value to file offsets: by the first PT_LOAD of
 * rt holding it, else by its section. */
static uint64_t
to_offset(const struct fold_elf *rt, uint64_t v, const struct shdr *sec)
{
	const struct phdr *h;
	uint64_t sz;
	size_t i;

	for (i = 0; i < rt->nload; i++) {
		h = &rt->load[i];
		sz = h->memsz > h->filesz ? h->memsz : h->filesz;
		if (sz != 0 && v >= h->vaddr && v - h->vaddr < sz)
			return v - (h->vaddr - h->offset);
	}
	return v - (sec->addr - sec->offset);
}

static void
load_symbols(struct fold_elf *e, struct fold_elf *rt)
{
	struct shdr st, str, sec;
	const unsigned char *d, *q;
	const char *name;
	size_t i, nsyms, esz = e->is64 ? 24 : 16;
	uint64_t value, size;
	unsigned info, type, bind, shndx;
	struct shdr csec[64], rsec[64];	/* section headers by index, parsed */
	size_t cidx[64], ridx[64];
	int label;

	if (find_sec(e, ".symtab", SHT_SYMTAB, &st) == 0 &&
	    find_sec(e, ".dynsym", SHT_DYNSYM, &st) == 0)
		return;
	if (st.type == SHT_NOBITS)
		return;
	if ((d = sec_data(e, &st)) == NULL) {
		e->problem = "symbol table past the end of the file";
		return;
	}
	if (st.link == 0 || st.link >= e->shnum) {
		e->problem = "symbol table without a string table";
		return;
	}
	get_shdr(e, st.link, &str);
	if (sec_data(e, &str) == NULL) {
		e->problem = "string table past the end of the file";
		return;
	}
	for (i = 0; i < 64; i++)
		cidx[i] = ridx[i] = SIZE_MAX;
	nsyms = (size_t)(st.size / esz);
	fold_syms_reserve(e->syms, nsyms);	/* within the file: bounded */
	for (i = 0; i < nsyms; i++) {
		q = d + i * esz;
		if (e->is64) {
			info = q[4];
			shndx = R16(e, q + 6);
			value = rd(e, q + 8, 8);
			size = rd(e, q + 16, 8);
		} else {
			value = R32(e, q + 4);
			size = R32(e, q + 8);
			info = q[12];
			shndx = R16(e, q + 14);
		}
		type = info & 0xf;
		bind = info >> 4;
		if (R32(e, q) == 0 || shndx == SHN_UNDEF)
			continue;
		label = type == STT_NOTYPE && shndx != SHN_ABS && size == 0;
		if (!label && type != STT_FUNC && type != STT_GNU_IFUNC &&
		    type != STT_OBJECT)
			continue;
		if ((name = sec_str(e, &str, R32(e, q))) == NULL) {
			if (e->problem == NULL)
				e->problem = e->budget == 0 ?
				    "symbol names over the size limit" :
				    "symbol name outside its string table";
			continue;
		}
		if ((e->machine == EM_ARM || e->machine == EM_AARCH64) &&
		    name[0] == '$' && name[1] != '\0' &&
		    strchr("adtx", name[1]) != NULL &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (shndx == SHN_ABS || shndx >= SHN_LORESERVE ||
		    shndx >= e->shnum)
			continue;
		if (cidx[shndx & 63] != shndx) {	/* few sections */
			get_shdr(e, shndx, &csec[shndx & 63]);
			cidx[shndx & 63] = shndx;
		}
		sec = csec[shndx & 63];
		if (!(sec.flags & SHF_ALLOC))
			continue;
		if (sec.type == SHT_NOBITS && rt != e && shndx < rt->shnum) {
			if (ridx[shndx & 63] != shndx) {
				get_shdr(rt, shndx, &rsec[shndx & 63]);
				ridx[shndx & 63] = shndx;
			}
			sec = rsec[shndx & 63];
			if (label && !sec_is_text(rt, shndx, &sec))
				continue;
		} else if (label && !sec_is_text(e, shndx, &sec))
			continue;
		if (e->machine == EM_ARM && type == STT_FUNC && (value & 1))
			value--;
		value = to_offset(rt, value, &sec);
		fold_syms_add(e->syms, value, size, name, NULL, (int)bind,
		    (int)type);
	}
}

/* perf's PLT symbols: name@plt for each .rela.plt (.rel.plt) entry, one
 * .plt entry each after the header, at file offsets. */
static void
load_plt(struct fold_elf *e, struct fold_elf *rt)
{
	struct shdr dyn, rel, plt, str;
	const unsigned char *dd, *rd_, *q;
	const char *name;
	size_t di, i, nrel, resz, desz = rt->is64 ? 24 : 16;
	uint64_t off, hdr, ent, symidx;
	char *pn;
	size_t len;

	if ((di = find_sec(rt, ".dynsym", SHT_DYNSYM, &dyn)) == 0)
		return;
	if (find_sec(rt, ".rela.plt", 0, &rel) == 0 &&
	    find_sec(rt, ".rel.plt", 0, &rel) == 0)
		return;
	if (rel.link != di || find_sec(rt, ".plt", 0, &plt) == 0)
		return;
	if ((dd = sec_data(rt, &dyn)) == NULL || dyn.link == 0 ||
	    dyn.link >= rt->shnum)
		return;
	get_shdr(rt, dyn.link, &str);
	if (sec_data(rt, &str) == NULL || str.size == 0)
		return;
	if ((rd_ = sec_data(rt, &rel)) == NULL || rel.entsize == 0)
		return;
	if (rel.type == SHT_RELA)
		resz = rt->is64 ? 24 : 12;
	else if (rel.type == SHT_REL)
		resz = rt->is64 ? 16 : 8;
	else
		return;
	switch (rt->machine) {
	case EM_ARM: hdr = 20; ent = 12; break;
	case EM_AARCH64: hdr = 32; ent = 16; break;
	case EM_SPARC: hdr = 48; ent = 12; break;
	case EM_SPARCV9: hdr = 128; ent = 32; break;
	default: hdr = ent = plt.entsize; break;
	}
	/* an entry size of 0 (lld's .plt) puts every name@plt at one offset
	 * with size 0: perf does so, and they change what its tree finds */
	nrel = (size_t)(rel.size / rel.entsize);
	if (nrel > rel.size / resz)
		nrel = (size_t)(rel.size / resz);
	off = plt.offset + hdr;
	fold_syms_reserve(e->syms, fold_syms_count(e->syms) + nrel);
	for (i = 0; i < nrel; i++, off += ent) {
		q = rd_ + i * (rel.entsize < resz ? resz : rel.entsize);
		if ((uint64_t)(q - rd_) + resz > rel.size)
			break;
		symidx = rt->is64 ? rd(rt, q + 8, 8) >> 32 :
		    R32(rt, q + 4) >> 8;
		if (symidx >= dyn.size / desz)
			continue;
		if ((name = sec_str(rt, &str,
		    R32(rt, dd + symidx * desz))) == NULL)
			continue;
		len = strlen(name);
		pn = fold_arena_alloc(&e->names, len + 5);
		memcpy(pn, name, len);
		memcpy(pn + len, "@plt", 5);
		fold_syms_add(e->syms, off, ent, pn, NULL, STB_GLOBAL,
		    STT_FUNC | FOLD_SYM_LATE);
	}
}

static void
build(struct fold_elf *e)
{
	struct fold_elf *rt = e->rt != NULL ? e->rt : e;

	e->indexed = 1;
	e->syms = fold_syms_new();
	if (e->dmnames)
		fold_syms_demangled(e->syms);
	load_symbols(e, rt);
	/* perf adds the PLT's names only to a table that has symbols */
	if (fold_syms_count(e->syms) > 0)
		load_plt(e, rt);
	fold_syms_done(e->syms, FOLD_SYMS_ELF);
}

void
fold_elf_demangled(struct fold_elf *e)
{
	e->dmnames = 1;
}

const char *
fold_elf_sym(struct fold_elf *e, uint64_t off, uint64_t *start)
{
	if (!e->indexed)
		build(e);
	return fold_syms_find(e->syms, off, start, NULL);
}

const char *
fold_elf_debuglink(struct fold_elf *e)
{
	struct shdr s;

	if (find_sec(e, ".gnu_debuglink", 0, &s) == 0)
		return NULL;
	return sec_str(e, &s, 0);
}

const unsigned char *
fold_elf_section(const struct fold_elf *e, const char *name,
    struct fold_elf_sec *sec)
{
	struct shdr s;
	const unsigned char *q;

	memset(sec, 0, sizeof(*sec));
	if (find_sec(e, name, 0, &s) == 0 || (q = sec_data(e, &s)) == NULL)
		return NULL;
	sec->p = q;
	sec->size = s.size;
	sec->addr = s.addr;
	sec->flags = s.flags;
	return q;
}

/* Compressed sections are inflated up to this size (a debug section of
 * that size describes millions of functions). */
#define INFLATE_MAX (1024u << 20)

const unsigned char *
fold_elf_section_plain(const struct fold_elf *e, const char *name,
    struct fold_elf_sec *sec, unsigned char **buf, const char **why)
{
	uint64_t type, size, hl = e->is64 ? 24 : 12;
	size_t got;

	*buf = NULL;
	*why = NULL;
	if (fold_elf_section(e, name, sec) == NULL)
		return NULL;
	if (!(sec->flags & 0x800))	/* SHF_COMPRESSED */
		return sec->p;
	if (sec->size < hl)
		*why = "compression header cut short";
	else {
		type = fold_getu(sec->p, 4, e->be);
		size = fold_getu(sec->p + (e->is64 ? 8 : 4), e->is64 ? 8 : 4,
		    e->be);
		if (type != 1)
			*why = type == 2 ? "compressed with zstd: not read" :
			    "unknown compression";
		else if (size == 0 || size > INFLATE_MAX)
			*why = "compressed size out of range";
		else {
			*buf = xmalloc((size_t)size);
			got = fold_inflate(sec->p + hl, (size_t)(sec->size - hl),
			    *buf, (size_t)size, FOLD_INFLATE_ZLIB, why);
			if (got == (size_t)size) {
				sec->p = *buf;
				sec->size = size;
				sec->flags &= ~(uint64_t)0x800;
				return sec->p;
			}
			if (*why == NULL)
				*why = "inflated to another size than its header's";
			free(*buf);
			*buf = NULL;
		}
	}
	memset(sec, 0, sizeof(*sec));
	return NULL;
}

int
fold_elf_shdr(const struct fold_elf *e, size_t i, struct fold_elf_sec *sec)
{
	struct shdr s;

	memset(sec, 0, sizeof(*sec));
	if (i >= e->shnum)
		return 0;
	get_shdr(e, i, &s);
	sec->p = sec_data(e, &s);
	sec->size = s.size;
	sec->addr = s.addr;
	sec->flags = s.flags;
	return 1;
}

int
fold_elf_etype(const struct fold_elf *e)
{
	return (int)e->type;
}

const unsigned char *
fold_elf_bytes(const struct fold_elf *e, uint64_t off, size_t n)
{
	return inside(e, off, n) ? e->p + off : NULL;
}

int
fold_elf_kind(const struct fold_elf *e, int *is64, int *be)
{
	*is64 = e->is64;
	*be = e->be;
	return (int)e->machine;
}

const char *
fold_elf_problem(struct fold_elf *e)
{
	if (!e->indexed)
		build(e);
	return e->problem;
}

size_t
fold_elf_nsyms(struct fold_elf *e)
{
	if (!e->indexed)
		build(e);
	return fold_syms_count(e->syms);
}

void
fold_elf_free(struct fold_elf *e)
{
	if (e == NULL)
		return;
	fold_syms_free(e->syms);
	fold_arena_free(&e->names);
	free(e->load);
	free(e->textsec);
	if (e->map != NULL)
		munmap(e->map, e->n);
	free(e);
}
