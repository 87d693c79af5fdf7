/* failpread.so - for the tests, loaded with LD_PRELOAD (Linux): once
 * FAILPREAD_AFTER bytes (default 0) were read with pread(2), the calls
 * fail with EIO, as on a file cut short or a disk failing while it is
 * read; a reader must say so or read on another way, never lose lines.
 * (The program's calls only: the dynamic loader's own are not seen.) */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);

static atomic_ullong done;

ssize_t
pread(int fd, void *buf, size_t n, off_t off)
{
	const char *e = getenv("FAILPREAD_AFTER");
	unsigned long long after = e != NULL ? strtoull(e, NULL, 10) : 0;
	long r;

	if (atomic_load(&done) >= after) {
		errno = EIO;
		return -1;
	}
#ifdef SYS_pread64
	r = syscall(SYS_pread64, fd, buf, n, off);
#else
	(void)fd, (void)buf, (void)n, (void)off;
	errno = EIO;	/* (the tests use it on Linux only) */
	r = -1;
#endif
	if (r > 0)
		atomic_fetch_add(&done, (unsigned long long)r);
	return (ssize_t)r;
}

ssize_t
pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}
