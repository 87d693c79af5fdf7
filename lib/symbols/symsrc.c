/*
 * symsrc.c - the symbol sources of one run: where each recorded object's
 * symbols are read from (in perf's order), each opened and indexed once.
 *
 * A user object (ELF) is looked for in these places, each prefixed with
 * --symfs except the build-id cache; those with xx/rest need a build id
 * (recorded, or read from the file at its path when none was recorded, as
 * perf does):
 *   1. the file named by PATH's .gnu_debuglink: the first that exists of
 *      NAME (in the current directory: perf's order), DIR/NAME,
 *      DIR/.debug/NAME, /usr/lib/debug/DIR/NAME (DIR: PATH's directory)
 *   2. BUILDID_DIR/.build-id/xx/rest/elf   (the cached copy)
 *   3. BUILDID_DIR/.build-id/xx/rest/debug
 *   4. /usr/lib/debug/PATH.debug, /usr/lib/debug/PATH
 *   5. /usr/lib/debug/.build-id/xx/rest.debug
 *   6. PATH
 * A candidate whose build id differs from the known one is not used.  The
 * first with a .symtab gives the symbols; the first with a .dynsym gives
 * the program headers and the PLT (perf's syms_ss and runtime_ss); either
 * stands for the other when it is the only one found.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/auxv.h>)
#include <sys/auxv.h>
#define HAVE_GETAUXVAL 1
#endif
#endif

#define BIDMAX 20

enum { D_ELF, D_PERFMAP, D_NONE };

struct fold_dso {
	struct fold_dso *next;	/* hash chain */
	uint64_t h;
	char *path;
	size_t pathlen;
	unsigned char bid[BIDMAX];
	size_t bidlen;
	int kind;
	int loaded, checked;
	struct fold_elf *syms, *rt;	/* rt may equal syms, or be NULL */
	struct fold_syms *map;	/* perf map */
	struct fold_cfi *cfi;	/* its CFI, once asked for (cfidone) */
	struct fold_elf *cfielf;	/* the file whose addresses it uses */
	unsigned char *cfibuf;	/* a compressed .debug_frame, inflated */
	int cfidone;
	struct fold_dwarf *dwarf;	/* its DWARF, once asked for */
	int dwarfdone, dwreported;
	uint64_t textoff;	/* perf's text_offset */
	/* why no file could be used: reported by the caller's thread */
	const char *why;
	int why_errno;
	int queued;		/* handed to the prefetch thread, not taken
				   back: the caller's thread's own flag */
	int pstate;		/* P_*, under plock */
};

/*
 * Objects opened and indexed ahead (fold_symsrc_prefetch()), in a thread of
 * their own: a queued object is P_QUEUED until the thread takes it
 * (P_BUSY) and is done with it (P_DONE), or the caller's thread needs it
 * first and takes it back (P_OWN, claim()).  Until then the caller's thread
 * touches nothing of it but pstate, under plock, and the thread nothing but
 * the object it is busy with.  Paths are built in a buffer of each
 * thread's own.
 */
enum { P_OWN, P_QUEUED, P_BUSY, P_DONE };

struct pathbuf {
	char *buf;
	size_t cap;
};

/*
 * Reading the kernel's symbols, apart from the rest of the state so that it
 * can run in a thread of its own (fold_symsrc_kernel_busy()): what it needs
 * is copied in, what it makes is handed back (kernel_install()).
 */
struct kjob {
	/* in */
	unsigned char kbid[BIDMAX];
	size_t kbidlen;
	char *copy;		/* the build-id cache's copy, NULL: no id */
	int try_cache;		/* may read the copy for /proc/kallsyms */
	char kref[64];
	uint64_t kref_addr;
	int has_kref;
	/* out */
	struct fold_syms *k, *kcache;
	void *kmap;
	size_t kmaplen;
	uint64_t kdelta;
	const char *errpath;	/* a file that could not be read, errno err */
	int err;
	int done;		/* under klock, when in a thread */
};

struct fold_symsrc {
	char *symfs;		/* "" for none */
	char *bdir;
	unsigned flags;
	struct fold_dso **tab;
	size_t mask, n;
	/* the kernel */
	unsigned char kbid[BIDMAX];
	size_t kbidlen;
	int kloaded;
	struct fold_syms *k;
	struct fold_syms *kcache;	/* the cache copy read in place of
					 * /proc/kallsyms, while every lookup
					 * hits the kernel proper; else kept
					 * for the names it returned */
	void *kmap;		/* the copy, mapped: kcache's names */
	size_t kmaplen;
	char kref[64];
	uint64_t kref_addr;
	int has_kref;
	uint64_t kdelta;	/* recorded minus file addresses */
	struct kjob *kjob;	/* kallsyms being read by kthr, or NULL */
	pthread_t kthr;
	pthread_mutex_t klock;	/* kjob->done */
	/* objects indexed ahead */
	struct fold_dso **pq;	/* queued, in order */
	size_t npq, pqcap, pnext;
	int pstarted, pstop;
	pthread_t pthr;
	pthread_mutex_t plock;
	pthread_cond_t pdone;
	/* the last hit */
	struct fold_dso *last_dso;
	uint64_t last_off, last_start;
	const char *last_name;
	struct pathbuf pb;	/* scratch path */
};

static void claim(struct fold_symsrc *s, struct fold_dso *d, int load);

static char *
xstrndup(const char *s, size_t n)
{
	char *c = xmalloc(n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

struct fold_symsrc *
fold_symsrc_new(const char *symfs, const char *buildid_dir, unsigned flags)
{
	struct fold_symsrc *s = xcalloc(1, sizeof(*s));
	const char *home, *env;
	size_t n;

	s->flags = flags;
	s->symfs = xstrdup(symfs != NULL ? symfs : "");
	n = strlen(s->symfs);
	while (n > 0 && s->symfs[n - 1] == '/')	/* "dir/" + "/path" */
		s->symfs[--n] = '\0';
	if (buildid_dir != NULL)
		s->bdir = xstrdup(buildid_dir);
	else if ((env = getenv("PERF_BUILDID_DIR")) != NULL && *env != '\0')
		s->bdir = xstrdup(env);
	else {
		home = getenv("HOME");
		if (home == NULL || *home == '\0')
			home = "/";
		s->bdir = xmalloc(strlen(home) + 8);
		sprintf(s->bdir, "%s/.debug", home);
	}
	s->mask = 63;
	s->tab = xcalloc(s->mask + 1, sizeof(*s->tab));
	return s;
}

static struct fold_dso *
find_dso(struct fold_symsrc *s, const char *path, size_t len, int create)
{
	uint64_t h = fold_hash(path, len);
	struct fold_dso *d, **tab;
	size_t i, cap;

	for (d = s->tab[h & s->mask]; d != NULL; d = d->next)
		if (d->h == h && d->pathlen == len &&
		    memcmp(d->path, path, len) == 0)
			return d;
	if (!create)
		return NULL;
	if (s->n >= s->mask) {	/* grow: rehash the chains */
		cap = (s->mask + 1) * 2;
		tab = xcalloc(cap, sizeof(*tab));
		for (i = 0; i <= s->mask; i++)
			while ((d = s->tab[i]) != NULL) {
				s->tab[i] = d->next;
				d->next = tab[d->h & (cap - 1)];
				tab[d->h & (cap - 1)] = d;
			}
		free(s->tab);
		s->tab = tab;
		s->mask = cap - 1;
	}
	d = xcalloc(1, sizeof(*d));
	d->h = h;
	d->path = xstrndup(path, len);
	d->pathlen = len;
	if (len > 10 && memcmp(path, "/tmp/perf-", 10) == 0)
		d->kind = D_PERFMAP;
	else if (len == 0 || path[0] != '/' || memchr(path, '\0', len) ||
	    path[1] == '/' || (len >= 7 && memcmp(path, "/memfd:", 7) == 0) ||
	    (len >= 9 && memcmp(path, "/dev/zero", 9) == 0) ||
	    (len >= 5 && memcmp(path, "/SYSV", 5) == 0) ||
	    (len >= 14 && memcmp(path, "/anon_hugepage", 14) == 0))
		d->kind = D_NONE;	/* [heap], //anon, memfd ...; [vdso]: below */
	else
		d->kind = D_ELF;
	if (len == 6 && memcmp(path, "[vdso]", 6) == 0)
		d->kind = D_ELF;
	d->next = s->tab[h & s->mask];
	s->tab[h & s->mask] = d;
	s->n++;
	return d;
}

struct fold_dso *
fold_symsrc_dso(struct fold_symsrc *s, const char *path, size_t pathlen)
{
	return find_dso(s, path, pathlen, 1);
}

void
fold_symsrc_buildid(struct fold_symsrc *s, const char *path, size_t pathlen,
    const unsigned char *id, size_t idlen)
{
	struct fold_dso *d;

	if (idlen > BIDMAX)
		idlen = BIDMAX;
	if (pathlen == 17 && memcmp(path, "[kernel.kallsyms]", 17) == 0) {
		if (!s->kloaded) {
			memcpy(s->kbid, id, idlen);
			s->kbidlen = idlen;
		}
		return;
	}
	d = find_dso(s, path, pathlen, 1);
	if (d->queued && (d->bidlen != idlen ||
	    memcmp(d->bid, id, idlen) != 0)) {
		/* opened ahead for another id, no lookup made yet: again */
		claim(s, d, 0);
		fold_elf_free(d->syms);
		fold_elf_free(d->rt);
		d->syms = d->rt = NULL;
		d->why = NULL;
		d->why_errno = 0;
		d->loaded = 0;
	}
	if (!d->loaded) {
		memcpy(d->bid, id, idlen);
		d->bidlen = idlen;
	}
}

/* perf's dso__build_id_equal: a recorded id of 20 bytes also matches a
 * shorter one followed by zeros. */
static int
bid_equal(const unsigned char *rec, size_t reclen, const unsigned char *id,
    size_t len)
{
	size_t i;

	if (reclen > len && reclen == BIDMAX) {
		if (memcmp(rec, id, len) != 0)
			return 0;
		for (i = len; i < reclen; i++)
			if (rec[i] != 0)
				return 0;
		return 1;
	}
	return reclen == len && memcmp(rec, id, len) == 0;
}

static const char *
mkpath(struct pathbuf *pb, const char *a, const char *b, const char *c,
    const char *d)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + 1;

	fold_grow(&pb->buf, &pb->cap, n, 1);
	snprintf(pb->buf, n, "%s%s%s%s", a, b, c, d);
	return pb->buf;
}

static void
hexid(char *out, const unsigned char *id, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hx[id[i] >> 4];
		out[2 * i + 1] = hx[id[i] & 15];
	}
	out[2 * n] = '\0';
}

/* BUILDID_DIR/.build-id/xx/rest, then file: the old style cache has a
 * regular file at the link, the new one a directory holding file. */
static const char *
cache_path(struct fold_symsrc *s, struct pathbuf *pb, const unsigned char *id,
    size_t n, const char *file)
{
	char hex[2 * BIDMAX + 1], xx[4], *p;
	struct stat st;

	hexid(hex, id, n);
	xx[0] = hex[0];
	xx[1] = hex[1];
	xx[2] = '/';
	xx[3] = '\0';
	p = (char *)mkpath(pb, s->bdir, "/.build-id/", xx, hex + 2);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	p = xstrdup(p);
	mkpath(pb, p, "/", file, "");
	free(p);
	return pb->buf;
}

/* Open a candidate; 1 if it is usable (ELF, build id as known). */
static struct fold_elf *
try_open(struct fold_dso *d, const char *path, int *why_errno,
    const char **why)
{
	struct fold_elf *e;
	const unsigned char *id;
	size_t n;

	if ((e = fold_elf_open(path, why)) == NULL) {
		if (*why == NULL)
			*why_errno = errno;
		return NULL;
	}
	if (d->bidlen > 0) {
		n = fold_elf_buildid(e, &id);
		if (n == 0 || !bid_equal(d->bid, d->bidlen, id, n)) {
			*why = "build id differs from the recorded one";
			fold_elf_free(e);
			return NULL;
		}
	}
	return e;
}

/*
 * perf reads "[vdso]" from a copy of its own vDSO when the build-id cache
 * has none: so do we, from this process's (Linux), if its build id is the
 * recorded one.  The size comes from the image's own headers.
 */
static struct fold_elf *
own_vdso(void)
{
#ifdef HAVE_GETAUXVAL
	const unsigned char *p = (const void *)getauxval(AT_SYSINFO_EHDR);
	uint64_t end = 0, x, shoff, phoff;
	uint16_t shnum, shent, phnum, phent, i;
	uint32_t type;
	const char *why;

	if (p == NULL || memcmp(p, "\177ELF", 4) != 0 || p[4] != 2)
		return NULL;	/* 64-bit only, as perf's own copy */
	memcpy(&phoff, p + 32, 8);
	memcpy(&shoff, p + 40, 8);
	memcpy(&phent, p + 54, 2);
	memcpy(&phnum, p + 56, 2);
	memcpy(&shent, p + 58, 2);
	memcpy(&shnum, p + 60, 2);
	end = shoff + (uint64_t)shnum * shent;
	for (i = 0; i < phnum && phent >= 56; i++) {
		memcpy(&type, p + phoff + (uint64_t)i * phent, 4);
		memcpy(&x, p + phoff + (uint64_t)i * phent + 8, 8);
		if (type == 1) {	/* PT_LOAD: offset + filesz */
			uint64_t fs;

			memcpy(&fs, p + phoff + (uint64_t)i * phent + 32, 8);
			if (x + fs > end)
				end = x + fs;
		}
	}
	if (end < 64 || end > (1 << 20))
		return NULL;
	return fold_elf_mem(p, (size_t)end, &why);
#else
	return NULL;
#endif
}

static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* perf's places for the debuglink file name (a copy, or NULL). */
static char *
debuglink_path(struct fold_symsrc *s, struct pathbuf *pb, const char *path,
    const char *name)
{
	char *dir, *slash, *r = NULL;

	dir = xstrdup(mkpath(pb, s->symfs, path, "", ""));
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (is_file(name))
		r = xstrdup(name);
	else if (is_file(mkpath(pb, dir, "/", name, "")) ||
	    is_file(mkpath(pb, dir, "/.debug/", name, "")))
		r = xstrdup(pb->buf);
	else {
		r = xstrdup(mkpath(pb, "/usr/lib/debug", dir, "/", ""));
		if (!is_file(mkpath(pb, r, name, "", ""))) {
			free(r);
			r = NULL;
		} else {
			free(r);
			r = xstrdup(pb->buf);
		}
	}
	free(dir);
	return r;
}

/*
 * Find and open d's files (into d->syms, d->rt; d->why, d->why_errno: why
 * none could be used, for report()), paths built in pb.  Touches nothing
 * of s but what never changes, so that it may run in the prefetch thread.
 */
static void
load_elf(struct fold_symsrc *s, struct fold_dso *d, struct pathbuf *pb)
{
	const char *cand[8], *why = NULL, *why_main = NULL, *link;
	char *p;
	char *own[8];
	int nc = 0, i, err = 0, err_main = 0;
	struct fold_elf *e, *syms = NULL, *rt = NULL;
	char hex[2 * BIDMAX + 1];
	const unsigned char *id;
	size_t n;
	int vdso = strcmp(d->path, "[vdso]") == 0;

	/* perf reads the build id at the path when none was recorded, and
	 * the path's debuglink */
	if (!vdso && (e = fold_elf_open(mkpath(pb, s->symfs, d->path, "", ""),
	    &why)) != NULL) {
		if (d->bidlen == 0 && (n = fold_elf_buildid(e, &id)) > 0) {
			memcpy(d->bid, id, n);
			d->bidlen = n;
		}
		if ((link = fold_elf_debuglink(e)) != NULL &&
		    (p = debuglink_path(s, pb, d->path, link)) != NULL)
			cand[nc++] = p;
		fold_elf_free(e);
	}
	if (d->bidlen > 0) {
		cand[nc++] = xstrdup(cache_path(s, pb, d->bid, d->bidlen,
		    vdso ? "vdso" : "elf"));
		if (!vdso)
			cand[nc++] = xstrdup(cache_path(s, pb, d->bid,
			    d->bidlen, "debug"));
	}
	if (!vdso) {
		cand[nc++] = xstrdup(mkpath(pb, s->symfs, "/usr/lib/debug",
		    d->path, ".debug"));
		cand[nc++] = xstrdup(mkpath(pb, s->symfs, "/usr/lib/debug",
		    d->path, ""));
		if (d->bidlen > 0) {
			hexid(hex, d->bid, d->bidlen);
			cand[nc] = xstrdup(mkpath(pb, s->symfs,
			    "/usr/lib/debug/.build-id/xx/", hex + 2, ".debug"));
			memcpy(strstr((char *)cand[nc], "/xx/") + 1, hex, 2);
			nc++;
		}
		cand[nc++] = xstrdup(mkpath(pb, s->symfs, d->path, "", ""));
	}
	for (i = 0; i < nc; i++)
		own[i] = (char *)cand[i];
	for (i = 0; i < nc && (syms == NULL || rt == NULL); i++) {
		why = NULL;
		err = 0;
		e = try_open(d, cand[i], &err, &why);
		if (e == NULL) {
			if (i == nc - 1) {	/* the recorded path says why */
				why_main = why;
				err_main = err;
			}
			continue;
		}
		if (syms == NULL && fold_elf_has_symtab(e)) {
			syms = e;
			if (rt == NULL && fold_elf_has_dynsym(e))
				rt = e;
		} else if (rt == NULL && fold_elf_has_dynsym(e))
			rt = e;
		else
			fold_elf_free(e);
	}
	if (syms == NULL && rt == NULL && vdso && (e = own_vdso()) != NULL) {
		n = fold_elf_buildid(e, &id);
		if (d->bidlen == 0 || (n > 0 && bid_equal(d->bid, d->bidlen, id, n)))
			rt = e;
		else
			fold_elf_free(e);
	}
	if (syms == NULL)
		syms = rt;
	if (syms == NULL) {
		if (!vdso) {
			d->why = why_main;
			d->why_errno = err_main;
		}
	} else {
		if (rt != NULL && rt != syms)
			fold_elf_runtime(syms, rt);
		if (s->flags & FOLD_SYMSRC_DEMANGLE)
			fold_elf_demangled(syms);
		d->syms = syms;
		d->rt = rt != syms ? rt : NULL;
	}
	for (i = 0; i < nc; i++)
		free(own[i]);
}

static void
load_permap(struct fold_symsrc *s, struct fold_dso *d)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd;
	struct stat st;

	if ((fd = open(d->path, O_RDONLY | O_NONBLOCK)) < 0) {
		if (!(s->flags & FOLD_SYMSRC_QUIET))
			fold_warn("%s: %s", d->path, strerror(errno));
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {	/* a FIFO... */
		if (!(s->flags & FOLD_SYMSRC_QUIET))
			fold_warn("%s: not a regular file", d->path);
		close(fd);
		return;
	}
	/* as perf: another user's map could name anything */
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		if (!(s->flags & FOLD_SYMSRC_QUIET))
			fold_warn("%s: not owned by the current user or root: "
			    "not used", d->path);
		close(fd);
		return;
	}
	for (;;) {
		fold_grow(&buf, &cap, n + 65536, 1);
		if ((r = read(fd, buf + n, cap - n)) < 0) {
			if (errno == EINTR)
				continue;
			if (!(s->flags & FOLD_SYMSRC_QUIET))
				fold_warn("%s: %s", d->path, strerror(errno));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	d->map = fold_syms_permap(buf != NULL ? buf : "", n);
	free(buf);
}

/* Say once why none of d's files could be used. */
static void
report(struct fold_symsrc *s, struct fold_dso *d)
{
	if (s->flags & FOLD_SYMSRC_QUIET)
		;
	else if (d->why != NULL)
		fold_warn("%s: %s", d->path, d->why);
	else if (d->why_errno != 0)
		fold_warn("%s: %s", d->path, strerror(d->why_errno));
	d->why = NULL;
	d->why_errno = 0;
}

/* Open and index d's files, as fold_symsrc_user()'s first lookup would. */
static void
index_elf(struct fold_symsrc *s, struct fold_dso *d, struct pathbuf *pb)
{
	load_elf(s, d, pb);
	if (d->syms != NULL)
		(void)fold_elf_problem(d->syms);	/* builds the index */
}

static void *
prefetch_thread(void *arg)
{
	struct fold_symsrc *s = arg;
	struct pathbuf pb = { NULL, 0 };
	struct fold_dso *d;

	pthread_mutex_lock(&s->plock);
	for (;;) {
		while (s->pnext < s->npq && s->pq[s->pnext]->pstate != P_QUEUED)
			s->pnext++;
		if (s->pstop || s->pnext == s->npq)
			break;
		d = s->pq[s->pnext++];
		d->pstate = P_BUSY;
		pthread_mutex_unlock(&s->plock);
		index_elf(s, d, &pb);
		pthread_mutex_lock(&s->plock);
		d->pstate = P_DONE;
		pthread_cond_broadcast(&s->pdone);
	}
	pthread_mutex_unlock(&s->plock);
	free(pb.buf);
	return NULL;
}

/*
 * Take d back from the prefetch thread: opened and indexed there, or not
 * yet begun (then the caller does it).  While the thread is busy with it,
 * the caller does the next queued object in its place, rather than wait
 * idle; that one is then P_DONE, as if the thread had done it.
 */
static void
claim(struct fold_symsrc *s, struct fold_dso *d, int load)
{
	struct fold_dso *x;
	size_t i;
	int state;

	pthread_mutex_lock(&s->plock);
	while (d->pstate == P_BUSY) {
		for (i = s->pnext, x = NULL; i < s->npq && x == NULL; i++)
			if (s->pq[i]->pstate == P_QUEUED)
				x = s->pq[i];
		if (x == NULL) {
			pthread_cond_wait(&s->pdone, &s->plock);
			continue;
		}
		x->pstate = P_BUSY;
		pthread_mutex_unlock(&s->plock);
		index_elf(s, x, &s->pb);
		pthread_mutex_lock(&s->plock);
		x->pstate = P_DONE;
	}
	state = d->pstate;
	d->pstate = P_OWN;
	pthread_mutex_unlock(&s->plock);
	d->queued = 0;
	if (state == P_QUEUED && load)
		load_elf(s, d, &s->pb);
}

void
fold_symsrc_prefetch(struct fold_symsrc *s)
{
	struct fold_dso *d;
	size_t i, n0 = s->npq;

	if (s->pstarted)
		return;		/* once per run */
	for (i = 0; i <= s->mask; i++)
		for (d = s->tab[i]; d != NULL; d = d->next) {
			if (d->loaded || d->kind != D_ELF || d->bidlen == 0 ||
			    d->path[0] != '/')
				continue;
			fold_grow(&s->pq, &s->pqcap, s->npq + 1,
			    sizeof(*s->pq));
			s->pq[s->npq++] = d;
		}
	if (s->npq == n0)
		return;
	if (pthread_mutex_init(&s->plock, NULL) != 0)
		goto none;
	if (pthread_cond_init(&s->pdone, NULL) != 0) {
		pthread_mutex_destroy(&s->plock);
		goto none;
	}
	for (i = n0; i < s->npq; i++) {
		s->pq[i]->loaded = 1;
		s->pq[i]->queued = 1;
		s->pq[i]->pstate = P_QUEUED;
	}
	if (pthread_create(&s->pthr, NULL, prefetch_thread, s) == 0) {
		s->pstarted = 1;
		return;
	}
	for (i = n0; i < s->npq; i++) {
		s->pq[i]->loaded = 0;
		s->pq[i]->queued = 0;
		s->pq[i]->pstate = P_OWN;
	}
	pthread_cond_destroy(&s->pdone);
	pthread_mutex_destroy(&s->plock);
none:
	s->npq = n0;
}

/* d's files opened (and indexed), here or by the prefetch thread. */
static void
ensure(struct fold_symsrc *s, struct fold_dso *d)
{
	if (!d->loaded) {
		d->loaded = 1;
		if (d->kind == D_ELF)
			load_elf(s, d, &s->pb);
		else if (d->kind == D_PERFMAP)
			load_permap(s, d);
		report(s, d);
	} else if (d->queued) {
		claim(s, d, 1);
		report(s, d);
	}
}

const char *
fold_symsrc_user(struct fold_symsrc *s, struct fold_dso *d, uint64_t start,
    uint64_t pgoff, uint64_t addr, uint64_t *symstart)
{
	const char *name, *why;
	uint64_t off, st;

	ensure(s, d);
	if (d->kind == D_PERFMAP) {
		if (d->map == NULL)
			return NULL;
		return fold_syms_find(d->map, addr, symstart, NULL);
	}
	if (d->syms == NULL)
		return NULL;
	if (!d->checked) {	/* indexes the table: report damage once */
		d->checked = 1;
		if ((why = fold_elf_problem(d->syms)) != NULL &&
		    !(s->flags & FOLD_SYMSRC_QUIET))
			fold_warn("%s: %s", d->path, why);
	}
	off = addr - start + pgoff;
	if (s->last_dso == d && s->last_off == off) {
		name = s->last_name;
		st = s->last_start;
	} else {
		name = fold_elf_sym(d->syms, off, &st);
		s->last_dso = d;
		s->last_off = off;
		s->last_name = name;
		s->last_start = st;
	}
	if (name != NULL && symstart != NULL)
		*symstart = st - pgoff + start;
	return name;
}

/*
 * A SHF_COMPRESSED section of e: zlib is inflated into d->cfibuf and sec
 * made to point there; anything else (zstd, a damaged stream) is said
 * once and sec emptied.
 */
static void
inflate_sec(struct fold_symsrc *s, struct fold_dso *d, struct fold_elf *e,
    const char *name, struct fold_elf_sec *sec)
{
	const char *why;

	if (fold_elf_section_plain(e, name, sec, &d->cfibuf, &why) != NULL)
		return;
	if (why != NULL && !(s->flags & FOLD_SYMSRC_QUIET))
		fold_warn("%s: %s: %s", d->path, name, why);
}

/*
 * The CFI of d, made once: .eh_frame and .eh_frame_hdr of the file that
 * was mapped (else of the symbol file), .debug_frame of the symbol file
 * (else of the file mapped), inflated when compressed with zlib.
 */
static void
make_cfi(struct fold_symsrc *s, struct fold_dso *d)
{
	struct fold_elf *rt = d->rt != NULL ? d->rt : d->syms, *e, *de;
	struct fold_elf_sec eh, hdr, dbg;
	int is64, be;

	d->cfidone = 1;
	if (rt == NULL)
		return;
	e = rt;
	if (fold_elf_section(e, ".eh_frame", &eh) == NULL && d->syms != NULL &&
	    d->syms != rt && fold_elf_section(d->syms, ".eh_frame", &eh) != NULL)
		e = d->syms;
	(void)fold_elf_section(e, ".eh_frame_hdr", &hdr);
	de = d->syms != NULL ? d->syms : rt;
	if (fold_elf_section(de, ".debug_frame", &dbg) == NULL)
		(void)fold_elf_section(de = rt, ".debug_frame", &dbg);
	if (dbg.p != NULL && (dbg.flags & 0x800))	/* SHF_COMPRESSED */
		inflate_sec(s, d, de, ".debug_frame", &dbg);
	if (eh.p == NULL && dbg.p == NULL)
		return;
	(void)fold_elf_kind(e, &is64, &be);
	d->cfi = fold_cfi_new(&eh, &hdr, &dbg, is64, be);
	d->cfielf = e;
}

struct fold_cfi *
fold_symsrc_cfi(struct fold_symsrc *s, struct fold_dso *d, uint64_t off,
    uint64_t *vaddr)
{
	ensure(s, d);
	if (d->kind != D_ELF)
		return NULL;
	if (!d->cfidone)
		make_cfi(s, d);
	if (d->cfi == NULL || !fold_elf_vaddr(d->cfielf, off, vaddr))
		return NULL;
	return d->cfi;
}

/*
 * The DWARF of d's symbol file, made once (perf runs addr2line on the
 * file it read the symbols from); and perf's text_offset: .text's
 * address less its file offset, in the file that was mapped.
 */
static void
make_dwarf(struct fold_symsrc *s, struct fold_dso *d)
{
	struct fold_elf *rt = d->rt != NULL ? d->rt : d->syms;
	struct fold_elf_sec text;
	const unsigned char *q;
	const char *why;

	d->dwarfdone = 1;
	if (d->syms == NULL || d->path[0] == '[' ||
	    strncmp(d->path, "/tmp/perf-", 10) == 0)
		return;
	d->dwarf = fold_dwarf_new(d->syms, &why);
	if (why != NULL && !(s->flags & FOLD_SYMSRC_QUIET))
		fold_warn("%s: debug information: %s", d->path, why);
	if (d->dwarf == NULL)
		return;
	/* sh_offset: where .text's bytes are in the file */
	if (fold_elf_section(rt, ".text", &text) != NULL &&
	    (q = fold_elf_bytes(rt, 0, 1)) != NULL)
		d->textoff = text.addr - (uint64_t)(text.p - q);
}

size_t
fold_symsrc_inlines(struct fold_symsrc *s, struct fold_dso *d, uint64_t off,
    const char *const **names)
{
	const char *why;
	size_t n;

	ensure(s, d);
	if (d->kind != D_ELF)
		return 0;
	if (!d->dwarfdone)
		make_dwarf(s, d);
	if (d->dwarf == NULL)
		return 0;
	n = fold_dwarf_inlines(d->dwarf, off + d->textoff, names);
	if (!d->dwreported && (why = fold_dwarf_problem(d->dwarf)) != NULL) {
		d->dwreported = 1;	/* damage found while reading: once */
		if (!(s->flags & FOLD_SYMSRC_QUIET))
			fold_warn("%s: debug information: %s", d->path, why);
	}
	return n;
}

int
fold_symsrc_read(struct fold_symsrc *s, struct fold_dso *d, uint64_t off,
    void *buf, size_t n)
{
	struct fold_elf *rt;
	const unsigned char *p;

	ensure(s, d);
	rt = d->rt != NULL ? d->rt : d->syms;
	if (d->kind != D_ELF || rt == NULL ||
	    (p = fold_elf_bytes(rt, off, n)) == NULL)
		return -1;
	memcpy(buf, p, n);
	return 0;
}

const char *
fold_symsrc_jit(struct fold_symsrc *s, long pid, uint64_t addr,
    uint64_t *symstart)
{
	char path[40];
	int n = snprintf(path, sizeof(path), "/tmp/perf-%ld.map", pid);

	return fold_symsrc_user(s, find_dso(s, path, (size_t)n, 1), 0, 0,
	    addr, symstart);
}

void
fold_symsrc_kernel_ref(struct fold_symsrc *s, const char *name,
    size_t namelen, uint64_t addr)
{
	if (s->kloaded || namelen == 0 || namelen >= sizeof(s->kref))
		return;
	memcpy(s->kref, name, namelen);
	s->kref[namelen] = '\0';
	s->kref_addr = addr;
	s->has_kref = 1;
}

/* The whole of a (proc) file, read(2) until its end, chunk bytes or more
 * at a time (a small file: a small buffer, no big one made resident and
 * zeroed); NULL if unreadable. */
static char *
slurp(const char *path, size_t *len, size_t chunk)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return NULL;
	for (;;) {
		fold_grow(&buf, &cap, n + chunk + 1, 1);
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The build id in /sys/kernel/notes (notes in native byte order). */
static size_t
running_kernel_bid(unsigned char *id)
{
	size_t n, off = 0, len = 0;
	uint32_t nsz, dsz, type;
	char *b = slurp("/sys/kernel/notes", &n, 4096);

	while (b != NULL && n - off >= 12) {
		memcpy(&nsz, b + off, 4);
		memcpy(&dsz, b + off + 4, 4);
		memcpy(&type, b + off + 8, 4);
		off += 12;
		nsz = (nsz + 3) & ~3u;
		dsz = (dsz + 3) & ~3u;
		if (nsz > n - off || dsz > n - off - nsz)
			break;
		if (type == 3 && nsz == 4 && memcmp(b + off, "GNU", 4) == 0) {
			memcpy(&dsz, b + off - 8, 4);
			len = dsz > BIDMAX ? BIDMAX : dsz;
			memcpy(id, b + off + nsz, len);
			break;
		}
		off += nsz + dsz;
	}
	free(b);
	return len;
}

/* The address of the first kallsyms line naming name. */
static int
kallsyms_addr(const char *b, size_t n, const char *name, uint64_t *addr)
{
	const char *p = b, *end = b + n, *nl, *q;
	size_t len = strlen(name);
	uint64_t v;
	int d;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		for (q = p; q < nl && *q != ' '; q++)
			;
		if ((size_t)(nl - q) < 3 + len || q[2] != ' ' ||
		    memcmp(q + 3, name, len) != 0 ||
		    (q + 3 + len < nl && q[3 + len] != '\t'))
			continue;
		for (v = 0; p < q; p++) {
			d = *p >= '0' && *p <= '9' ? *p - '0' :
			    *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			    *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
			if (d < 0)
				break;
			v = v << 4 | (uint64_t)d;
		}
		if (p == q) {
			*addr = v;
			return 1;
		}
	}
	return 0;
}

/* The address of name in the head of /proc/kallsyms (the reference
 * symbol, "_text", comes in its first lines), 0 if not found in its first
 * 64 KiB: the kernel writes the whole file slowly, its first pages are
 * quick.  Read 4 KiB at a time and looked at after each: the first lines
 * are usually enough. */
static uint64_t
proc_kallsyms_head(const char *name)
{
	char *b = xmalloc(1 << 16);
	size_t n = 0, len, want;
	ssize_t r;
	uint64_t at = 0;
	int fd, found = 0;

	if ((fd = open("/proc/kallsyms", O_RDONLY)) < 0) {
		free(b);
		return 0;
	}
	while (!found && n < (1 << 16) - 1) {
		want = (1 << 16) - 1 - n;
		if (want > 4096)
			want = 4096;
		r = read(fd, b + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		for (len = n; len > 0 && b[len - 1] != '\n'; len--)
			;
		found = kallsyms_addr(b, len, name, &at);
	}
	close(fd);
	if (!found)
		at = 0;
	free(b);
	return at;
}

/* A regular file mapped private and writable (the lazy table may set the
 * byte after the end), with that byte inside the mapping (so 0, never
 * written): NULL if it cannot be. */
static char *
mapfile(const char *path, size_t *len)
{
	struct stat st;
	long pg = sysconf(_SC_PAGESIZE);
	void *m;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size >= SIZE_MAX / 2 || pg <= 0 ||
	    st.st_size % pg == 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
	    fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return m;
}

/*
 * perf reads /proc/kallsyms when the running kernel is the recorded one;
 * the kernel takes tens of milliseconds to write it.  perf record left a
 * copy in the build-id cache: where its reference symbol has the address
 * /proc/kallsyms gives it now, it is the same kernel image at the same
 * place, and its symbols of the kernel proper are those of /proc/kallsyms.
 * Modules, BPF programs and trampolines may have come and gone since: a
 * lookup that does not land on a symbol of the kernel proper followed by
 * another (fold_syms_inner) reads /proc/kallsyms after all.
 */
static int
load_cached_kallsyms(struct kjob *j)
{
	char *buf;
	size_t n;
	uint64_t at;

	if (!j->has_kref || j->copy == NULL)
		return 0;
	if ((buf = mapfile(j->copy, &n)) == NULL)
		return 0;
	if (!kallsyms_addr(buf, n, j->kref, &at) || at == 0 ||
	    proc_kallsyms_head(j->kref) != at) {
		munmap(buf, n);
		return 0;
	}
	j->kdelta = j->kref_addr - at;
	if ((j->kcache = fold_syms_kallsyms_lazy(buf, n)) != NULL) {
		j->kmap = buf;
		j->kmaplen = n;
	} else {
		j->kcache = fold_syms_kallsyms(buf, n);
		munmap(buf, n);
	}
	j->k = j->kcache;
	return 1;
}

/* Read the kernel's symbols as j says; touches nothing but j. */
static void
kernel_read(struct kjob *j)
{
	unsigned char id[BIDMAX];
	const char *path = "/proc/kallsyms";
	char *buf;
	size_t n, len;
	uint64_t at;

	if (j->kbidlen > 0) {
		len = running_kernel_bid(id);
		if (len == 0 || !bid_equal(j->kbid, j->kbidlen, id, len))
			path = j->copy;
		else if (j->try_cache && load_cached_kallsyms(j))
			return;
	}
	j->kdelta = 0;
	if ((buf = slurp(path, &n, 1 << 20)) == NULL) {
		j->errpath = path;
		j->err = errno;
		return;
	}
	/* KASLR: the file's addresses move to the recorded ones by the
	 * distance between the reference symbol here and as recorded */
	if (j->has_kref && kallsyms_addr(buf, n, j->kref, &at))
		j->kdelta = j->kref_addr - at;
	j->k = fold_syms_kallsyms_own(buf, n);
}

/* A job for what s knows of the kernel; marks the kernel loaded. */
static struct kjob *
kernel_job(struct fold_symsrc *s)
{
	struct kjob *j = xcalloc(1, sizeof(*j));
	char hex[2 * BIDMAX + 1];

	s->kloaded = 1;
	memcpy(j->kbid, s->kbid, s->kbidlen);
	j->kbidlen = s->kbidlen;
	if (s->kbidlen > 0) {
		hexid(hex, s->kbid, s->kbidlen);
		j->copy = xstrdup(mkpath(&s->pb, s->bdir, "/[kernel.kallsyms]/",
		    hex, "/kallsyms"));
	}
	j->try_cache = s->kcache == NULL;
	memcpy(j->kref, s->kref, sizeof(j->kref));
	j->kref_addr = s->kref_addr;
	j->has_kref = s->has_kref;
	return j;
}

/* What j read, into s (then j is freed). */
static void
kernel_install(struct fold_symsrc *s, struct kjob *j)
{
	if (j->errpath != NULL && !(s->flags & FOLD_SYMSRC_QUIET))
		fold_warn("%s: %s", j->errpath, strerror(j->err));
	if (j->kcache != NULL) {
		s->kcache = j->kcache;
		s->kmap = j->kmap;
		s->kmaplen = j->kmaplen;
	}
	s->kdelta = j->kdelta;
	s->k = j->k;
	free(j->copy);
	free(j);
}

static void
load_kernel(struct fold_symsrc *s)
{
	struct kjob *j = kernel_job(s);

	kernel_read(j);
	kernel_install(s, j);
}

static void *
kernel_thread(void *arg)
{
	struct fold_symsrc *s = arg;

	kernel_read(s->kjob);
	pthread_mutex_lock(&s->klock);
	s->kjob->done = 1;
	pthread_mutex_unlock(&s->klock);
	return NULL;
}

/* Wait for the thread reading the kernel's symbols, if any. */
static void
kernel_wait(struct fold_symsrc *s)
{
	if (s->kjob == NULL)
		return;
	pthread_join(s->kthr, NULL);
	pthread_mutex_destroy(&s->klock);
	kernel_install(s, s->kjob);
	s->kjob = NULL;
}

int
fold_symsrc_kernel_busy(struct fold_symsrc *s)
{
	int done;

	if (!s->kloaded) {
		s->kjob = kernel_job(s);
		if (pthread_mutex_init(&s->klock, NULL) == 0) {
			if (pthread_create(&s->kthr, NULL, kernel_thread,
			    s) == 0)
				return 1;
			pthread_mutex_destroy(&s->klock);
		}
		kernel_read(s->kjob);	/* no thread: here, now */
		kernel_install(s, s->kjob);
		s->kjob = NULL;
		return 0;
	}
	if (s->kjob == NULL)
		return 0;
	pthread_mutex_lock(&s->klock);
	done = s->kjob->done;
	pthread_mutex_unlock(&s->klock);
	return !done;
}

void
fold_symsrc_kernel_wait(struct fold_symsrc *s)
{
	kernel_wait(s);
}

const char *
fold_symsrc_kernel(struct fold_symsrc *s, uint64_t addr, const char **dso,
    uint64_t *symstart)
{
	const char *name, *mod;
	uint64_t st;

	if (!s->kloaded)
		load_kernel(s);
	kernel_wait(s);
	if (dso != NULL)
		*dso = "[kernel.kallsyms]";
	if (s->k == NULL)
		return NULL;
	/* the relocation moves the kernel's symbols, not the modules' (perf's
	 * dso__split_kallsyms) */
	name = fold_syms_find(s->k, addr - s->kdelta, &st, &mod);
	if (s->k == s->kcache && (name == NULL || mod != NULL ||
	    !fold_syms_inner(s->k, addr - s->kdelta))) {
		/* not sure to be as in /proc/kallsyms: read it */
		s->k = NULL;
		load_kernel(s);
		if (s->k == NULL)
			return NULL;
		name = fold_syms_find(s->k, addr - s->kdelta, &st, &mod);
	}
	if (name != NULL && mod == NULL) {
		if (symstart != NULL)
			*symstart = st + s->kdelta;
		return name;
	}
	if (s->kdelta != 0)
		name = fold_syms_find(s->k, addr, &st, &mod);
	if (name == NULL || mod == NULL)
		return NULL;
	if (dso != NULL)
		*dso = mod;
	if (symstart != NULL)
		*symstart = st;
	return name;
}

void
fold_symsrc_free(struct fold_symsrc *s)
{
	struct fold_dso *d;
	size_t i;

	if (s == NULL)
		return;
	kernel_wait(s);
	if (s->pstarted) {	/* what the thread has not begun, it leaves */
		pthread_mutex_lock(&s->plock);
		s->pstop = 1;
		pthread_mutex_unlock(&s->plock);
		pthread_join(s->pthr, NULL);
		pthread_cond_destroy(&s->pdone);
		pthread_mutex_destroy(&s->plock);
		s->pstarted = 0;
	}
	for (i = 0; i <= s->mask; i++)
		while ((d = s->tab[i]) != NULL) {
			s->tab[i] = d->next;
			fold_cfi_free(d->cfi);
			free(d->cfibuf);
			fold_dwarf_free(d->dwarf);
			fold_elf_free(d->syms);
			fold_elf_free(d->rt);
			fold_syms_free(d->map);
			free(d->path);
			free(d);
		}
	free(s->tab);
	if (s->k != s->kcache)
		fold_syms_free(s->k);
	fold_syms_free(s->kcache);
	if (s->kmap != NULL)
		munmap(s->kmap, s->kmaplen);
	free(s->symfs);
	free(s->bdir);
	free(s->pq);
	free(s->pb.buf);
	free(s);
}
