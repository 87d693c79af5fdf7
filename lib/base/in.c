/* in.c - the line reader: read(2) into one buffer, memchr for newlines. */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"

#define IN_BUFSIZE (256 * 1024)

static char *stdin_name[] = { "-" };

void
fold_in_init(struct fold_in *in, int nfiles, char **files)
{
	memset(in, 0, sizeof(*in));
	if (nfiles <= 0) {
		nfiles = 1;
		files = stdin_name;
	}
	in->files = files;
	in->nfiles = nfiles;
	in->fd = -1;
	in->name = "<stdin>";
	in->cap = IN_BUFSIZE;
	in->buf = xmalloc(in->cap);
	in->data = in->buf;
}

/* A regular file is mapped whole: lines are handed out from the map, no
 * copy, and stay valid until fold_in_free().  0 if it cannot be (not a
 * regular file, empty, too large, mmap failed): then it is read. */
static int
map_file(struct fold_in *in)
{
	struct stat st;
	void *p;
	int flags = MAP_PRIVATE;
	off_t off, base;
	long pg;

	if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uintmax_t)st.st_size > (uintmax_t)SIZE_MAX / 2)
		return 0;
	/* From the descriptor's offset: stdin may have been read from
	 * before (by a shell's read, say).  The map starts at the page. */
	if ((off = lseek(in->fd, 0, SEEK_CUR)) < 0 || off >= st.st_size)
		return 0;
	pg = sysconf(_SC_PAGESIZE);
	base = pg > 0 ? off - off % pg : 0;
#ifdef MAP_POPULATE
	if (in->map == FOLD_IN_KEEP)	/* (a window reads its pages in) */
		flags |= MAP_POPULATE;
#endif
	p = mmap(NULL, (size_t)(st.st_size - base), PROT_READ, flags, in->fd,
	    base);
	if (p == MAP_FAILED)
		return 0;
	/* What a reader would have left: the offset at the end. */
	(void)lseek(in->fd, 0, SEEK_END);
	fold_grow(&in->maps, &in->mapcap, in->nmaps + 1, sizeof(*in->maps));
	in->maps[in->nmaps].p = p;
	in->maps[in->nmaps++].len = (size_t)(st.st_size - base);
	in->data = p;
	in->dataoff = (uint64_t)base;
	in->pos = (size_t)(off - base);
	in->end = (size_t)(st.st_size - base);
	in->eof = 1;
	in->mapped = 1;
	in->dropped = in->kept = in->pos;
	fold_window_init(&in->win, in->pos, in->end);
	return 1;
}

/* Unmap the whole pages behind pos that hold no kept line, 4 MB or more
 * at a time.  in->maps lists what is mapped: the current file's last
 * segment is the last entry, split in two when a hole is made in it. */
static void
drop_behind(struct fold_in *in)
{
	static size_t page;
	struct fold_map *m;
	size_t start, end;
	char *a, *b, *segend;

	if (page == 0) {
		long p = sysconf(_SC_PAGESIZE);

		page = p > 0 ? (size_t)p : 4096;
	}
	start = in->kept > in->dropped ? in->kept : in->dropped;
	start = (start + page - 1) / page * page;
	end = in->pos / page * page;
	if (end <= start || end - start < ((size_t)4 << 20))
		return;
	m = &in->maps[in->nmaps - 1];
	a = (char *)in->data + start;
	b = (char *)in->data + end;
	segend = (char *)m->p + m->len;
	munmap(a, end - start);
	in->dropped = end;
	if (a == (char *)m->p) {	/* nothing kept before: it shrinks */
		m->p = b;
		m->len = (size_t)(segend - b);
		return;
	}
	m->len = (size_t)(a - (char *)m->p);	/* the part kept, then */
	fold_grow(&in->maps, &in->mapcap, in->nmaps + 1, sizeof(*in->maps));
	in->maps[in->nmaps].p = b;	/* the rest */
	in->maps[in->nmaps++].len = (size_t)(segend - b);
}

/* A window's pages ahead read in, those behind pos and hold given back;
 * none for a file's first line (a caller may read the rest its own way:
 * stackcollapse-sample reads it with pread(2), and 4 MB read in were
 * 0.45 ms of 33 lost). */
static void
window(struct fold_in *in)
{
	uintptr_t h = (uintptr_t)in->hold, d = (uintptr_t)in->data;
	size_t lo = in->pos;

	if (in->lineno == 0)
		return;
	/* (a hold in an earlier file's map holds nothing here) */
	if (h >= d && h - d < lo)
		lo = (size_t)(h - d);
	fold_window_at(in->data, in->end, &in->win, lo, in->pos);
}

/* A map's pages behind the current line given back (or ahead read in) */
static void
behind(struct fold_in *in)
{
	if (in->map == FOLD_IN_WINDOW)
		window(in);
	else
		drop_behind(in);
}

void
fold_in_keep(struct fold_in *in)
{
	if (in->mapped)
		in->kept = in->pos;
}

void
fold_in_warn(const char *name, int err, int isread)
{
	fold_warn(isread ? "%s: read error: %s" : "%s: %s", name, strerror(err));
}

void
fold_in_error(struct fold_in *in, const char *name, int err, int isread)
{
	in->status = 1;
	if (in->onerr != NULL)
		in->onerr(in->onerr_arg, name, err, isread);
	else
		fold_in_warn(name, err, isread);
}

/* Open the next file of the list; 0 when there is none. */
static int
open_next(struct fold_in *in)
{
	const char *path;

	while (in->next < in->nfiles) {
		path = in->files[in->next++];
		in->pos = in->end = 0;
		in->eof = 0;
		in->lineno = 0;
		in->newfile = 1;
		in->data = in->buf;
		in->mapped = 0;
		if (strcmp(path, "-") == 0) {
			in->fd = 0;
			in->name = "<stdin>";
			/* stdin redirected from a regular file is mapped too */
			if (in->map == FOLD_IN_KEEP || in->map == FOLD_IN_WINDOW)
				map_file(in);
			return 1;
		}
		in->name = path;
		in->fd = open(path, O_RDONLY);
		if (in->fd >= 0) {
			if (in->map == FOLD_IN_KEEP || in->map == FOLD_IN_WINDOW)
				map_file(in);
			return 1;
		}
		fold_in_error(in, path, errno, 0);
	}
	return 0;
}

static void
close_cur(struct fold_in *in)
{
	if (in->fd > 0)
		close(in->fd);
	in->fd = -1;
	if (in->mapped && in->map != FOLD_IN_KEEP && in->hold == NULL) {
		in->nmaps--;
		munmap(in->maps[in->nmaps].p, in->maps[in->nmaps].len);
	}
	in->mapped = 0;
	in->data = in->buf;
	in->pos = in->end = 0;
}

/* Read more into the buffer, keeping buf[pos..end) (moved so that the
 * read lands aligned: fold_read_pad()); 0 at end of file. */
static int
fill(struct fold_in *in)
{
	ssize_t n;
	size_t keep = in->end - in->pos, pad;

	if (in->mapped)
		return 0;
	if (keep + 2 * FOLD_READ_ALIGN > in->cap) {	/* a long line */
		memmove(in->buf, in->buf + in->pos, keep);
		in->pos = 0;
		in->end = keep;
		fold_grow(&in->buf, &in->cap, in->cap * 2, 1);
	}
	pad = fold_read_pad(in->buf, keep);
	if (in->pos != pad)
		memmove(in->buf + pad, in->buf + in->pos, keep);
	in->pos = pad;
	in->end = pad + keep;
	in->data = in->buf;
	for (;;) {
		n = read(in->fd, in->buf + in->end, in->cap - in->end);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		fold_in_error(in, in->name, errno, 1);
		n = 0;
		break;
	}
	if (n == 0) {
		in->eof = 1;
		return 0;
	}
	in->end += (size_t)n;
	return 1;
}

int
fold_in_line(struct fold_in *in, const char **line, size_t *len)
{
	char *nl;
	size_t scanned;

	for (;;) {
		if (in->fd < 0) {
			if (!open_next(in))
				return 0;
		} else
			in->newfile = 0;
		if (in->mapped)
			behind(in);
		scanned = 0;
		for (;;) {
			nl = memchr(in->data + in->pos + scanned, '\n',
			    in->end - in->pos - scanned);
			if (nl != NULL) {
				*line = in->data + in->pos;
				*len = (size_t)(nl - *line);
				in->pos += *len + 1;
				in->lineno++;
				in->nonl = 0;
				return 1;
			}
			scanned = in->end - in->pos;
			if (in->eof || !fill(in))
				break;
		}
		if (in->end > in->pos) {	/* last line, no newline */
			*line = in->data + in->pos;
			*len = in->end - in->pos;
			in->pos = in->end;
			in->lineno++;
			in->nonl = 1;
			return 1;
		}
		close_cur(in);
		/* an empty file gives no line; the next file is new */
	}
}

size_t
fold_in_buffered(const struct fold_in *in, const char **p)
{
	*p = in->data + in->pos;
	return in->fd < 0 ? 0 : in->end - in->pos;
}

void
fold_in_take(struct fold_in *in, size_t n, unsigned long long nlines)
{
	in->pos += n;
	in->lineno += nlines;
	if (nlines > 0)
		in->newfile = 0;
	if (in->mapped && in->map == FOLD_IN_WINDOW)
		window(in);
}

void
fold_in_free(struct fold_in *in)
{
	size_t k;

	close_cur(in);
	free(in->buf);
	in->buf = NULL;
	for (k = 0; k < in->nmaps; k++)
		munmap(in->maps[k].p, in->maps[k].len);
	free(in->maps);
	in->maps = NULL;
	in->nmaps = 0;
}

int
fold_in_peek(struct fold_in *in, size_t *off, const char **line, size_t *len)
{
	const char *nl;

	if (in->fd < 0 && !open_next(in))
		return 0;
	for (;;) {
		nl = memchr(in->data + in->pos + *off, '\n',
		    in->end - in->pos - *off);
		if (nl != NULL) {
			*line = in->data + in->pos + *off;
			*len = (size_t)(nl - *line);
			*off += *len + 1;
			return 1;
		}
		if (in->eof || !fill(in))
			break;
	}
	if (in->end - in->pos > *off) {		/* last line, no newline */
		*line = in->data + in->pos + *off;
		*len = in->end - in->pos - *off;
		*off += *len;
		return 1;
	}
	return 0;
}
