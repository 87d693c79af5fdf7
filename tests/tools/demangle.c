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

#define OBUF (1 << 22)

/* Write out[0..*len), 0 on success. */
static int
flush(const char *out, size_t *len)
{
	size_t done = 0;

	while (done < *len) {
		ssize_t w = write(1, out + done, *len - done);
		if (w <= 0)
			return 1;
		done += (size_t)w;
	}
	*len = 0;
	return 0;
}

int
main(int argc, char **argv)
{
	static char out[FOLD_DM_MAXOUT];
	unsigned flags = FOLD_DM_PARAMS;
	int cxx = 0, rust = 0, c;
	long rounds = 1, r;
	char *buf = NULL, *obuf, *p, *e, *nl;
	size_t len = 0, cap = 0, olen = 0;

	while ((c = getopt(argc, argv, "pCRn:")) != -1) {
		switch (c) {
		case 'p': flags &= ~(unsigned)FOLD_DM_PARAMS; break;
		case 'C': cxx = 1; break;
		case 'R': rust = 1; break;
		case 'n': rounds = atol(optarg); break;
		default:
			fprintf(stderr, "usage: demangle [-pCR] [-n count]\n");
			return 2;
		}
	}
	for (;;) {
		ssize_t got;
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 22;
			if ((buf = realloc(buf, cap)) == NULL)
				return 1;
		}
		got = read(0, buf + len, cap - len);
		if (got < 0)
			return 1;
		if (got == 0)
			break;
		len += (size_t)got;
	}
	if ((obuf = malloc(OBUF)) == NULL)
		return 1;
	for (r = 0; r < rounds; r++) {
		int last = r + 1 == rounds;
		for (p = buf, e = buf + len; p < e; p = nl + 1) {
			size_t k, sl, room;
			char *o;
			if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
				nl = e;
			sl = (size_t)(nl - p);
			if (OBUF - olen < FOLD_DM_MAXOUT + sl + 1 &&
			    flush(obuf, &olen))
				return 1;
			/* demangled straight into the output */
			o = last ? obuf + olen : out;
			room = last ? OBUF - olen : sizeof(out);
			k = cxx ? fold_demangle_cxx(p, sl, o, room, flags) :
			    rust ? fold_demangle_rust(p, sl, o, room, flags) :
			    fold_demangle(p, sl, o, room, flags);
			if (!last)
				continue;
			if (k == 0) {
				memcpy(obuf + olen, p, sl);
				k = sl;
			}
			olen += k;
			obuf[olen++] = '\n';
		}
	}
	free(buf);
	c = flush(obuf, &olen);
	free(obuf);
	return c;
}
