/*
 * demangle - test and bench driver: reads symbols one per line and writes
 * each demangled by fold_demangle() (as c++filt -i), or as it is when it
 * is not a mangled name.  -p: no argument lists (as c++filt -i -p).
 * -C: C++ only (fold_demangle_cxx).  -R: Rust only (fold_demangle_rust).
 * -n COUNT: demangle the whole input
 * COUNT times, writing only the last pass (for timing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"

#define IBUF (1 << 16)	/* read(2) size */
#define OBUF (3 << 16)	/* flushed when less than a name's room is left */

static char out[FOLD_DM_MAXOUT];	/* the passes not written (-n) */
static char *obuf;
static size_t olen;
static unsigned flags = FOLD_DM_PARAMS;
/* fold_demangle(), or -C, -R */
static size_t (*dm)(const char *, size_t, char *, size_t, unsigned) =
    fold_demangle;

/* Write obuf[0..olen), 0 on success. */
static int
flush(void)
{
	size_t done = 0;

	while (done < olen) {
		ssize_t w = write(1, obuf + done, olen - done);
		if (w <= 0)
			return 1;
		done += (size_t)w;
	}
	olen = 0;
	return 0;
}

/* Demangle the lines of p[0..e), the last one even without its newline
 * when all is set: where the unfinished line starts, or NULL on a write
 * error.  last: write the names (else demangle them only, for -n). */
static char *
lines(char *p, char *e, int all, int last)
{
	char *nl, *const ob = obuf;
	size_t ol = olen;
	const unsigned fl = flags;

	for (; p < e; p = nl + 1) {
		size_t k, sl;
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL) {
			if (!all)
				break;
			nl = e;
		}
		sl = (size_t)(nl - p);
		if (!last) {
			dm(p, sl, out, sizeof(out), fl);
			continue;
		}
		if (OBUF - ol < FOLD_DM_MAXOUT + sl + 1) {
			olen = ol;
			if (flush())
				return NULL;
			ol = 0;
		}
		/* demangled straight into the output */
		if ((k = dm(p, sl, ob + ol, OBUF - ol, fl)) == 0) {
			memcpy(ob + ol, p, sl);
			k = sl;
		}
		ol += k;
		ob[ol++] = '\n';
	}
	olen = ol;
	return p < e ? p : e;
}

int
main(int argc, char **argv)
{
	long rounds = 1, r;
	char *buf = NULL, *p;
	size_t len = 0, cap = 0, off = 0;
	int c;

	while ((c = getopt(argc, argv, "pCRn:")) != -1) {
		switch (c) {
		case 'p': flags &= ~(unsigned)FOLD_DM_PARAMS; break;
		case 'C': dm = fold_demangle_cxx; break;
		case 'R': dm = fold_demangle_rust; break;
		case 'n': rounds = atol(optarg); break;
		default:
			fprintf(stderr, "usage: demangle [-pCR] [-n count]\n");
			return 2;
		}
	}
	if ((obuf = malloc(OBUF)) == NULL)
		return 1;
	/* the input a block at a time (all of it for -n), each line as it
	 * comes: buffers that stay small and in the cache */
	for (;;) {
		ssize_t got;
		if (cap - off - len < IBUF) {
			cap = cap ? cap * 2 : 2 * IBUF + FOLD_READ_ALIGN;
			if ((buf = realloc(buf, cap)) == NULL)
				return 1;
		}
		got = read(0, buf + off + len, IBUF);
		if (got < 0)
			return 1;
		if (got == 0)
			break;
		len += (size_t)got;
		if (rounds > 1)
			continue;
		if ((p = lines(buf + off, buf + off + len, 0, 1)) == NULL)
			return 1;
		len -= (size_t)(p - buf - off);
		/* the next read lands aligned */
		off = fold_read_pad(buf, len);
		memmove(buf + off, p, len);
	}
	for (r = 0; r < rounds; r++)
		if (lines(buf + off, buf + off + len, 1, r + 1 == rounds) == NULL)
			return 1;
	free(buf);
	c = flush();
	free(obuf);
	return c;
}
