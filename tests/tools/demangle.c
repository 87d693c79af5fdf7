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

int
main(int argc, char **argv)
{
	static char out[FOLD_DM_MAXOUT];
	unsigned flags = FOLD_DM_PARAMS;
	int cxx = 0, rust = 0, c;
	long rounds = 1, r;
	char *buf = NULL, *p, *e, *nl;
	size_t len = 0, cap = 0, n;

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
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			if ((buf = realloc(buf, cap)) == NULL)
				return 1;
		}
		n = fread(buf + len, 1, cap - len, stdin);
		if (n == 0)
			break;
		len += n;
	}
	for (r = 0; r < rounds; r++) {
		for (p = buf, e = buf + len; p < e; p = nl + 1) {
			size_t k;
			if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
				nl = e;
			k = cxx ? fold_demangle_cxx(p, (size_t)(nl - p), out,
			    sizeof(out), flags) : rust ? fold_demangle_rust(p,
			    (size_t)(nl - p), out, sizeof(out), flags) :
			    fold_demangle(p, (size_t)(nl - p), out, sizeof(out),
			    flags);
			if (r + 1 < rounds)
				continue;
			if (k > 0)
				fwrite(out, 1, k, stdout);
			else
				fwrite(p, 1, (size_t)(nl - p), stdout);
			putchar('\n');
		}
	}
	free(buf);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
