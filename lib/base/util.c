/* util.c - program name, messages, allocation that cannot fail. */
#define _DEFAULT_SOURCE 1	/* MAP_ANONYMOUS, MADV_POPULATE_READ (Linux) */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fold.h"

const char *fold_prog = "foldkit";

/*
 * Input files and binaries are mapped (in.c, fdiff.c, elf.c): a file cut
 * short by another process while it is mapped makes the next access to a
 * page past its new end raise SIGBUS.  That is an error in the input, not a
 * crash: say so and exit 1 (only async-signal-safe calls here).
 */
static void
on_sigbus(int sig)
{
	static const char msg[] =
	    ": an input file was cut short while it was being read\n";
	size_t n = strlen(fold_prog);

	(void)sig;
	if (write(2, fold_prog, n) < 0 || write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

void
fold_init(const char *argv0)
{
	const char *p;
	struct sigaction sa;

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		fold_prog = p != NULL ? p + 1 : argv0;
	}
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void
fold_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", fold_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
fold_die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fold_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void
nomem(void)
{
	fold_die(1, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem();
	return p;
}

/* From this size on, memory about to be written whole is made resident in
 * one call (fold_prefault) rather than by a page fault a page. */
#define PREFAULT_MIN (16 * 1024)

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > ((size_t)-1) / size)
		nomem();
	if (n * size < PREFAULT_MIN) {
		if ((p = calloc(n ? n : 1, size ? size : 1)) == NULL)
			nomem();
		return p;
	}
	/* zeroed by hand, the pages resident first: calloc() would fault
	 * them in one by one as it zeroes (or as the caller first writes) */
	p = xmalloc(n * size);
	fold_prefault(p, n * size);
	return memset(p, 0, n * size);
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		nomem();
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Pages made resident per call: below any RLIMIT_MEMLOCK. */
#define PREFAULT_PIECE (256 * 1024)

void
fold_prefault(void *p, size_t n)
{
	uintptr_t a, end;
	size_t len, pg;
	long v;

	if (n == 0)
		return;
	/* asked each time (no static: threads call this too); it is called
	 * for big blocks only */
	pg = (v = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)v : 4096;
	a = (uintptr_t)p - (uintptr_t)p % pg;
	end = (uintptr_t)p + n;
#ifdef MADV_POPULATE_WRITE
	/* (Linux 5.14) without the lock of the whole map that mlock() takes,
	 * which stops every other thread's page faults meanwhile */
	if (madvise((void *)a, (size_t)(end - a), MADV_POPULATE_WRITE) == 0)
		return;
#endif
	/* A lock makes the pages resident in one call; they stay so once
	 * unlocked.  In pieces, below any RLIMIT_MEMLOCK; failure (no
	 * right, no room) only leaves the faults to come one by one. */
	for (; a < end; a += len) {
		len = end - a < PREFAULT_PIECE ? end - a : PREFAULT_PIECE;
		if (mlock((void *)a, len) != 0)
			return;
		(void)munlock((void *)a, len);
	}
}

double
fold_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

void
fold_grow_slow(void *arrp, size_t *cap, size_t need, size_t elsize)
{
	char **arr = arrp;
	size_t ncap = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (ncap < need) {
		if (ncap > ((size_t)-1 / 2) / elsize)
			nomem();
		ncap *= 2;
	}
	*arr = xrealloc(*arr, ncap * elsize);
	/* big arrays: the new pages resident in a few calls, not a fault
	 * each (see fold_prefault) */
	if ((ncap - *cap) * elsize >= PREFAULT_MIN)
		fold_prefault(*arr + *cap * elsize, (ncap - *cap) * elsize);
	memset(*arr + *cap * elsize, 0, (ncap - *cap) * elsize);
	*cap = ncap;
}

int
fold_open_arg(const char *arg, const char **name)
{
	int fd;

	if (strcmp(arg, "-") == 0) {
		*name = "<stdin>";
		return 0;
	}
	*name = arg;
	if ((fd = open(arg, O_RDONLY)) < 0)
		fold_warn("%s: %s", arg, strerror(errno));
	return fd;
}

unsigned char *
fold_load(int fd, const char *name, size_t *n, int *mapped)
{
	struct stat sb;
	unsigned char *b;
	size_t cap = 65536, len = 0;
	ssize_t r;
	void *map;

	/* a regular file is mapped (its pages are not copied), from where
	 * stdin stands; the rest is read */
	*mapped = 0;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size < SIZE_MAX / 2 && lseek(fd, 0, SEEK_CUR) == 0 &&
	    (map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd,
	    0)) != MAP_FAILED) {
		fold_prefault(map, (size_t)sb.st_size);
		*mapped = 1;
		*n = (size_t)sb.st_size;
		return map;
	}
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size < SIZE_MAX / 2)
		cap = (size_t)sb.st_size + 1;
	b = xmalloc(cap);
	for (;;) {
		if (len == cap)
			fold_grow(&b, &cap, cap + 1, 1);
		r = read(fd, b + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fold_warn("%s: read error: %s", name, strerror(errno));
			free(b);
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	*n = len;
	return b;
}

int
fold_map_padded(int fd, size_t pad, struct fold_padded *m)
{
	struct stat sb;
	off_t at;
	uint64_t base;
	size_t pg, len, span;
	long v;
	char *r;

	memset(m, 0, sizeof(*m));
#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif
#ifndef MAP_ANONYMOUS
	(void)fd, (void)pad, (void)sb, (void)at, (void)base, (void)len;
	(void)span, (void)r, (void)v, (void)pg;
	return -1;	/* then the file is read */
#else
	pg = (v = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)v : 4096;
	if (pad > pg || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (at = lseek(fd, 0, SEEK_CUR)) < 0 || sb.st_size <= at ||
	    (uint64_t)sb.st_size >= SIZE_MAX / 2)
		return -1;
	/* from the page where fd stands: the file's pages, then one more */
	base = (uint64_t)at - (uint64_t)at % pg;
	len = (size_t)((uint64_t)sb.st_size - base);
	span = (len + pg - 1) / pg * pg + pg;
	r = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -1;
	if (mmap(r, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
	    (off_t)base) == MAP_FAILED) {
		munmap(r, span);
		return -1;
	}
	(void)lseek(fd, 0, SEEK_END);
	m->map = r;
	m->maplen = span;
	m->data = r + ((uint64_t)at - base);
	m->n = (size_t)((uint64_t)sb.st_size - (uint64_t)at);
	m->off = (uint64_t)at;
	return 0;
#endif
}

void
fold_unmap_padded(struct fold_padded *m)
{
	if (m->map != NULL)
		munmap(m->map, m->maplen);
	memset(m, 0, sizeof(*m));
}

void
fold_populate(const void *p, size_t n)
{
	uintptr_t a;
	size_t pg;
	long v;

	if (n == 0)
		return;
	pg = (v = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)v : 4096;
	a = (uintptr_t)p - (uintptr_t)p % pg;
#ifdef MADV_POPULATE_READ
	if (madvise((void *)a, (size_t)((uintptr_t)p + n - a),
	    MADV_POPULATE_READ) == 0)
		return;
#endif
	fold_prefault((void *)a, (size_t)((uintptr_t)p + n - a));
}

#define WINDOW_STEP ((size_t)4 << 20)

void
fold_window_init(struct fold_window *w, size_t from, size_t end)
{
	w->filled = w->dropped = from;
	w->end = end;
}

void
fold_window_at(const char *data, size_t n, struct fold_window *w, size_t lo,
    size_t at)
{
	size_t pg, a, b;
	long v;

	if (lo > at || at > n)
		return;
	if (w->filled < w->end && w->filled < at + 2 * WINDOW_STEP) {
		b = w->end - w->filled < WINDOW_STEP ? w->end :
		    w->filled + WINDOW_STEP;
		fold_populate(data + w->filled, b - w->filled);
		w->filled = b;
	}
	if (lo < w->dropped || lo - w->dropped < WINDOW_STEP)
		return;
	/* the whole pages behind lo */
	pg = (v = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)v : 4096;
	a = (uintptr_t)(data + w->dropped);
	a = (a + pg - 1) / pg * pg;
	b = (uintptr_t)(data + lo);
	b -= b % pg;
#ifdef MADV_DONTNEED
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
#endif
	w->dropped = lo;
}

void
fold_window_done(const char *data, struct fold_window *w)
{
	size_t pg;
	uintptr_t a, b;
	long v;

	pg = (v = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)v : 4096;
	a = (uintptr_t)(data + w->dropped);
	a = (a + pg - 1) / pg * pg;
	b = (uintptr_t)(data + w->end);
	b -= b % pg;
#ifdef MADV_DONTNEED
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
#endif
	w->dropped = w->end;
}

void
fold_unload(unsigned char *p, size_t n, int mapped)
{
	if (mapped)
		munmap(p, n);
	else
		free(p);
}
