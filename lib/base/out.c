/* out.c - the buffered writer for stdout; every write checked. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"

#define OUT_BUFSIZE (256 * 1024)

static char obuf[OUT_BUFSIZE];
static size_t olen;

int
fold_write_all(int fd, const void *p, size_t n, int64_t off)
{
	const char *q = p;
	ssize_t w;

	while (n > 0) {
		w = off < 0 ? write(fd, q, n) : pwrite(fd, q, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : ENOSPC;
		q += w;
		n -= (size_t)w;
		if (off >= 0)
			off += w;
	}
	return 0;
}

static void
drain(const char *p, size_t n)
{
	int err = fold_write_all(1, p, n, -1);

	if (err == EPIPE)
		exit(0);	/* the reader is gone: quietly */
	if (err != 0)
		fold_die(1, "write error: %s", strerror(err));
}

void
fo_flush(void)
{
	drain(obuf, olen);
	olen = 0;
}

int
fo_end(int status)
{
	fo_flush();
	return status;
}

void
fo_write(const void *p, size_t n)
{
	if (n > sizeof(obuf) - olen) {
		fo_flush();
		if (n >= sizeof(obuf)) {
			drain(p, n);
			return;
		}
	}
	if (n <= 16) {		/* cells and separators: no call */
		const char *q = p;
		char *d = obuf + olen;

		olen += n;
		while (n-- > 0)
			*d++ = *q++;
		return;
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

char *
fo_room(size_t n)
{
	if (n > sizeof(obuf))
		return NULL;
	if (n > sizeof(obuf) - olen)
		fo_flush();
	return obuf + olen;
}

void
fo_wrote(const char *end)
{
	olen = (size_t)(end - obuf);
}

void
fo_putc(int c)
{
	if (olen == sizeof(obuf))
		fo_flush();
	obuf[olen++] = (char)c;
}

void
fo_puts(const char *s)
{
	fo_write(s, strlen(s));
}

void
fo_u64(uint64_t v)
{
	char b[24], *p = b + sizeof(b);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	fo_write(p, (size_t)(b + sizeof(b) - p));
}

void
fo_printf(const char *fmt, ...)
{
	char small[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		fold_die(1, "output format error");
	if ((size_t)n < sizeof(small)) {
		fo_write(small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	fo_write(big, (size_t)n);
	free(big);
}

int
fo_seekable(int64_t *start)
{
	struct stat st, nul;
	off_t off;

	if (fstat(1, &st) != 0)
		return 0;
	if (S_ISCHR(st.st_mode) && stat("/dev/null", &nul) == 0 &&
	    S_ISCHR(nul.st_mode) && st.st_rdev == nul.st_rdev) {
		*start = -1;	/* nothing to take back */
		return 1;
	}
	if (!S_ISREG(st.st_mode) || (off = lseek(1, 0, SEEK_CUR)) < 0)
		return 0;
	/* appending (>>): the output goes after what the file holds */
	if ((fcntl(1, F_GETFL) & O_APPEND) && st.st_size > off)
		off = st.st_size;
	*start = (int64_t)off + (int64_t)olen;
	return 1;
}

void
fo_rewind(int64_t start)
{
	olen = 0;
	if (start < 0)
		return;
	if (lseek(1, (off_t)start, SEEK_SET) < 0 ||
	    ftruncate(1, (off_t)start) != 0)
		fold_die(1, "write error: %s", strerror(errno));
}

/* Parts written at offsets by threads (see base.h). */

int
fo_at_begin(int64_t *start)
{
	int64_t at;

	fo_flush();
	if (!fo_seekable(&at) || (at >= 0 && (fcntl(1, F_GETFL) & O_APPEND)))
		return 0;
	*start = at < 0 ? 0 : at;
	return 1;
}

void
fo_at_init(struct fo_at *w, int64_t off)
{
	w->cap = 256 * 1024;
	w->buf = xmalloc(w->cap);
	w->n = 0;
	w->off = off;
	w->err = 0;
}

void
fo_at_flush(struct fo_at *w)
{
	if (w->err == 0 && (w->err = fold_write_all(1, w->buf, w->n,
	    w->off)) == 0)
		w->off += (int64_t)w->n;
	w->n = 0;
}

char *
fo_at_more(struct fo_at *w, size_t n)
{
	fo_at_flush(w);
	if (n > w->cap) {
		free(w->buf);
		w->cap = n;
		w->buf = xmalloc(w->cap);
	}
	return w->buf + w->n;
}

void
fo_at_free(struct fo_at *w)
{
	free(w->buf);
	w->buf = NULL;
}

void
fo_at_done(int64_t end)
{
	struct stat st;

	if (fstat(1, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(1, (off_t)end, SEEK_SET) < 0)
		fold_die(1, "write error: %s", strerror(errno));
}
