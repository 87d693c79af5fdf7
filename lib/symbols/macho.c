/*
 * macho.c - Mach-O files (macOS binaries and the DWARF files of dSYM
 * bundles) for the DWARF reader: thin or fat (the slice whose LC_UUID is
 * the one asked for), 64-bit little-endian (arm64, x86_64).  Their
 * sections and symbols (LC_SYMTAB) are laid out as an ELF image in memory
 * (the __DWARF segment's __debug_* sections as .debug_*, the others
 * allocated and without bytes, the defined symbols as .symtab, one
 * leading '_' dropped), which fold_dwarf_new() then reads as it reads any
 * ELF file: the same functions, inlined ones and symbol fallback, as for
 * Linux binaries.  Every offset, size and count is checked against the
 * file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"

#define MH_MAGIC_64 0xfeedfacfu
#define FAT_MAGIC 0xcafebabeu
#define FAT_MAGIC_64 0xcafebabfu
#define LC_SYMTAB 0x2
#define LC_SEGMENT_64 0x19
#define LC_UUID 0x1b
#define MAXSECT 255		/* n_sect is a byte */
#define MAXSYMS (1u << 24)

struct fold_macho {
	unsigned char *img;	/* the ELF image */
	struct fold_elf *elf;
	struct fold_dwarf *dw;
	uint64_t base;		/* __TEXT's vmaddr */
	unsigned char uuid[16];
	int hasuuid;
};

struct msect {
	char name[24];		/* the ELF name */
	uint64_t addr, size;
	uint32_t off;		/* file offset (DWARF sections) */
	int dwarf, text;
};

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)fold_getu(p, 4, 0);
}

static uint64_t
le64(const unsigned char *p)
{
	return fold_getu(p, 8, 0);
}

/* The UUID and __TEXT address of the thin 64-bit image at [p, p+n): 0,
 * or -1 when it is not one. */
static int
header(const unsigned char *p, size_t n, unsigned char *uuid, int *hasuuid,
    uint64_t *base, uint32_t *cpu)
{
	uint32_t ncmds, i, cmd, size;
	size_t off = 32;

	*hasuuid = 0;
	*base = 0;
	if (n < 32 || le32(p) != MH_MAGIC_64)
		return -1;
	*cpu = le32(p + 4);
	ncmds = le32(p + 16);
	for (i = 0; i < ncmds && i < 65536; i++) {
		if (n - off < 8)
			return -1;
		cmd = le32(p + off);
		size = le32(p + off + 4);
		if (size < 8 || size > n - off)
			return -1;
		if (cmd == LC_UUID && size >= 24) {
			memcpy(uuid, p + off + 8, 16);
			*hasuuid = 1;
		} else if (cmd == LC_SEGMENT_64 && size >= 72 &&
		    memcmp(p + off + 8, "__TEXT\0", 7) == 0)
			*base = le64(p + off + 24);
		off += size;
	}
	return 0;
}

/* The slice of a fat file (or the thin file) to read: its offset and
 * size; -1 when none is a 64-bit image with the UUID (any, if NULL). */
static int
slice(const unsigned char *p, size_t n, const unsigned char *uuid,
    size_t *off, size_t *len)
{
	uint32_t magic, nfat, i, cpu;
	uint64_t o, l, base;
	unsigned char u[16];
	int has, is64;

	if (n < 8)
		return -1;
	magic = (uint32_t)fold_getu(p, 4, 1);
	if (magic != FAT_MAGIC && magic != FAT_MAGIC_64) {
		if (header(p, n, u, &has, &base, &cpu) < 0)
			return -1;
		if (uuid != NULL && (!has || memcmp(u, uuid, 16) != 0))
			return -1;
		*off = 0;
		*len = n;
		return 0;
	}
	is64 = magic == FAT_MAGIC_64;
	nfat = (uint32_t)fold_getu(p + 4, 4, 1);
	if (nfat > 64)
		return -1;
	for (i = 0; i < nfat; i++) {
		size_t at = 8 + (size_t)i * (is64 ? 32 : 20);

		if (at + (is64 ? 32 : 20) > n)
			return -1;
		o = fold_getu(p + at + 8, is64 ? 8 : 4, 1);
		l = fold_getu(p + at + (is64 ? 16 : 12), is64 ? 8 : 4, 1);
		if (o > n || l > n - o)
			continue;
		if (header(p + o, (size_t)l, u, &has, &base, &cpu) < 0)
			continue;
		if (uuid != NULL && (!has || memcmp(u, uuid, 16) != 0))
			continue;
		*off = (size_t)o;
		*len = (size_t)l;
		return 0;
	}
	return -1;
}

struct img {
	unsigned char *p;
	size_t n, cap;
};

static size_t
put(struct img *b, const void *p, size_t n)
{
	size_t at;

	b->n = (b->n + 7) & ~(size_t)7;
	at = b->n;
	fold_grow(&b->p, &b->cap, b->n + n + 1, 1);
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	return at;
}

static void
w16(unsigned char *p, uint64_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void
w32(unsigned char *p, uint64_t v)
{
	w16(p, v);
	w16(p + 2, v >> 16);
}

static void
w64(unsigned char *p, uint64_t v)
{
	w32(p, v);
	w32(p + 4, v >> 32);
}

struct msym {
	uint64_t value, size;
	uint32_t name;		/* in our .strtab */
	unsigned sect;
};

static int
bysym(const void *a, const void *b)
{
	const struct msym *x = a, *y = b;

	if (x->sect != y->sect)
		return x->sect < y->sect ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* The ELF image of the thin image at [p, p+n) in b. */
static int
build(const unsigned char *p, size_t n, uint32_t cpu, struct img *b)
{
	struct msect *sec = xcalloc(MAXSECT + 1, sizeof(*sec));
	struct msym *sym = NULL;
	size_t nsec = 0, nsym = 0, scap = 0, off = 32, i, k;
	uint32_t ncmds = le32(p + 16), c, cmd, size, nsects, j;
	uint32_t symoff = 0, nsyms = 0, stroff = 0, strsize = 0;
	struct img strtab = { 0 }, shstr = { 0 };
	size_t *dataoff, symat, strat, shstrat, shoff, shnum;
	unsigned char *sh, *e;
	const unsigned char *q;
	char z = 0;

	for (c = 0; c < ncmds && c < 65536; c++) {
		if (n - off < 8)
			break;
		cmd = le32(p + off);
		size = le32(p + off + 4);
		if (size < 8 || size > n - off)
			break;
		if (cmd == LC_SYMTAB && size >= 24) {
			symoff = le32(p + off + 8);
			nsyms = le32(p + off + 12);
			stroff = le32(p + off + 16);
			strsize = le32(p + off + 20);
		} else if (cmd == LC_SEGMENT_64 && size >= 72) {
			nsects = le32(p + off + 64);
			if (nsects > (size - 72) / 80)
				nsects = (size - 72) / 80;
			for (j = 0; j < nsects && nsec < MAXSECT; j++) {
				struct msect *s = &sec[nsec++];
				const unsigned char *x = p + off + 72 +
				    (size_t)j * 80;
				char sn[17], sg[17];

				memcpy(sn, x, 16);
				sn[16] = '\0';
				memcpy(sg, x + 16, 16);
				sg[16] = '\0';
				s->addr = le64(x + 32);
				s->size = le64(x + 40);
				s->off = le32(x + 48);
				s->text = (le32(x + 64) & 0x80000400u) != 0;
				if (strcmp(sg, "__DWARF") == 0 &&
				    strncmp(sn, "__debug_", 8) == 0) {
					s->dwarf = 1;
					snprintf(s->name, sizeof(s->name),
					    ".debug_%s", strcmp(sn + 8,
					    "str_offs") == 0 ? "str_offsets" :
					    sn + 8);
				} else
					snprintf(s->name, sizeof(s->name),
					    "%s", sn);
			}
		}
		off += size;
	}
	/* the symbols defined in a section, sized to the next */
	put(&strtab, &z, 1);
	if (symoff <= n && stroff <= n && strsize <= n - stroff &&
	    nsyms <= MAXSYMS && (size_t)nsyms <= (n - symoff) / 16) {
		for (k = 0; k < nsyms; k++) {
			uint32_t strx;
			const char *nm;
			size_t len;

			q = p + symoff + k * 16;
			strx = le32(q);
			if ((q[4] & 0xe0) != 0 || (q[4] & 0x0e) != 0x0e ||
			    q[5] == 0 || q[5] > nsec || strx >= strsize)
				continue;
			nm = (const char *)p + stroff + strx;
			len = strnlen(nm, strsize - strx);
			if (len == strsize - strx || len == 0)
				continue;
			if (nm[0] == '_') {
				nm++;
				len--;
			}
			fold_grow(&sym, &scap, nsym + 1, sizeof(*sym));
			sym[nsym].value = le64(q + 8);
			sym[nsym].sect = q[5];
			sym[nsym].name = (uint32_t)strtab.n;
			fold_grow(&strtab.p, &strtab.cap, strtab.n + len + 2, 1);
			memcpy(strtab.p + strtab.n, nm, len);
			strtab.p[strtab.n + len] = '\0';
			strtab.n += len + 1;
			nsym++;
		}
	}
	if (nsym > 1)
		qsort(sym, nsym, sizeof(*sym), bysym);
	for (k = 0; k < nsym; k++) {
		const struct msect *s = &sec[sym[k].sect - 1];
		uint64_t end = s->addr + s->size;

		if (k + 1 < nsym && sym[k + 1].sect == sym[k].sect)
			end = sym[k + 1].value;
		sym[k].size = end > sym[k].value ? end - sym[k].value : 0;
	}
	/* the image: header, section data, .symtab, names, headers */
	b->n = 0;
	{
		unsigned char eh[64] = { 0 };
		put(b, eh, 64);
	}
	dataoff = xcalloc(nsec + 1, sizeof(*dataoff));
	for (i = 0; i < nsec; i++)
		if (sec[i].dwarf && sec[i].off <= n &&
		    sec[i].size <= n - sec[i].off)
			dataoff[i] = put(b, p + sec[i].off, (size_t)sec[i].size);
		else
			sec[i].dwarf = 0;
	symat = put(b, NULL, 0);
	{
		unsigned char s[24] = { 0 };

		put(b, s, 24);
		for (k = 0; k < nsym; k++) {
			memset(s, 0, sizeof(s));
			w32(s, sym[k].name);
			s[4] = (unsigned char)(1 << 4 |
			    (sec[sym[k].sect - 1].text ? 2 : 1));
			w16(s + 6, sym[k].sect);
			w64(s + 8, sym[k].value);
			w64(s + 16, sym[k].size);
			fold_grow(&b->p, &b->cap, b->n + 24, 1);
			memcpy(b->p + b->n, s, 24);
			b->n += 24;
		}
	}
	strat = put(b, strtab.p, strtab.n);
	/* section names: ours, then .symtab .strtab .shstrtab */
	put(&shstr, &z, 1);
	shnum = nsec + 4;
	sh = xcalloc(shnum, 64);
	for (i = 0; i < nsec; i++) {
		size_t at = shstr.n, len = strlen(sec[i].name);

		fold_grow(&shstr.p, &shstr.cap, shstr.n + len + 1, 1);
		memcpy(shstr.p + shstr.n, sec[i].name, len + 1);
		shstr.n += len + 1;
		e = sh + (i + 1) * 64;
		w32(e, at);
		if (sec[i].dwarf) {
			w32(e + 4, 1);			/* PROGBITS */
			w64(e + 24, dataoff[i]);
		} else {
			w32(e + 4, 8);			/* NOBITS */
			w64(e + 8, 2 | (sec[i].text ? 4 : 0));
			w64(e + 16, sec[i].addr);
		}
		w64(e + 32, sec[i].size);
		w64(e + 48, 1);
	}
	{
		static const char *const names[] = { ".symtab", ".strtab",
		    ".shstrtab" };

		for (k = 0; k < 3; k++) {
			e = sh + (nsec + 1 + k) * 64;
			w32(e, shstr.n);
			fold_grow(&shstr.p, &shstr.cap, shstr.n + 16, 1);
			memcpy(shstr.p + shstr.n, names[k],
			    strlen(names[k]) + 1);
			shstr.n += strlen(names[k]) + 1;
		}
	}
	shstrat = put(b, shstr.p, shstr.n);
	e = sh + (nsec + 1) * 64;		/* .symtab */
	w32(e + 4, 2);
	w64(e + 24, symat);
	w64(e + 32, (nsym + 1) * 24);
	w32(e + 40, nsec + 2);
	w32(e + 44, 1);
	w64(e + 48, 8);
	w64(e + 56, 24);
	e += 64;				/* .strtab */
	w32(e + 4, 3);
	w64(e + 24, strat);
	w64(e + 32, strtab.n);
	w64(e + 48, 1);
	e += 64;				/* .shstrtab */
	w32(e + 4, 3);
	w64(e + 24, shstrat);
	w64(e + 32, shstr.n);
	w64(e + 48, 1);
	shoff = put(b, sh, shnum * 64);
	/* the ELF header */
	e = b->p;
	memcpy(e, "\177ELF\2\1\1", 7);
	w16(e + 16, 3);				/* ET_DYN */
	w16(e + 18, cpu == 0x0100000cu ? 183 : cpu == 0x01000007u ? 62 : 0);
	w32(e + 20, 1);
	w64(e + 40, shoff);
	w16(e + 52, 64);
	w16(e + 54, 56);
	w16(e + 58, 64);
	w16(e + 60, shnum);
	w16(e + 62, nsec + 3);
	free(sec);
	free(sym);
	free(dataoff);
	free(sh);
	free(strtab.p);
	free(shstr.p);
	return 0;
}

struct fold_macho *
fold_macho_mem(const void *p, size_t n, const unsigned char *uuid,
    const char **why)
{
	struct fold_macho *m;
	struct img b = { 0 };
	size_t off, len;
	uint32_t cpu;

	*why = NULL;
	m = xcalloc(1, sizeof(*m));
	if (slice(p, n, uuid, &off, &len) < 0 ||
	    header((const unsigned char *)p + off, len, m->uuid,
	    &m->hasuuid, &m->base, &cpu) < 0) {
		*why = uuid != NULL ? "no Mach-O image with that UUID" :
		    "not a 64-bit Mach-O file";
		free(m);
		return NULL;
	}
	build((const unsigned char *)p + off, len, cpu, &b);
	m->img = b.p;
	if ((m->elf = fold_elf_mem(m->img, b.n, why)) == NULL ||
	    (m->dw = fold_dwarf_new(m->elf, why)) == NULL) {
		if (*why == NULL)
			*why = "no debug information and no symbols";
		fold_macho_free(m);
		return NULL;
	}
	return m;
}

struct fold_macho *
fold_macho_open(const char *path, const unsigned char *uuid,
    const char **why)
{
	struct fold_macho *m;
	struct stat sb;
	void *map;
	size_t n;
	int fd;

	*why = NULL;
	if ((fd = open(path, O_RDONLY)) < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size < 32 ||
	    (uint64_t)sb.st_size > SIZE_MAX / 2) {
		close(fd);
		*why = "not a Mach-O file";
		return NULL;
	}
	n = (size_t)sb.st_size;
	map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		*why = "cannot be mapped";
		return NULL;
	}
	/* what is kept is copied into the image */
	m = fold_macho_mem(map, n, uuid, why);
	munmap(map, n);
	return m;
}

uint64_t
fold_macho_base(const struct fold_macho *m)
{
	return m->base;
}

size_t
fold_macho_inlines(struct fold_macho *m, uint64_t addr,
    const char *const **names)
{
	return fold_dwarf_inlines(m->dw, addr, names);
}

void
fold_macho_free(struct fold_macho *m)
{
	if (m == NULL)
		return;
	if (m->dw != NULL)
		fold_dwarf_free(m->dw);
	if (m->elf != NULL)
		fold_elf_free(m->elf);
	free(m->img);
	free(m);
}
