/*
 * rustdemangle [-p] - the tests' driver for fold_demangle_rust(): one symbol
 * a line on stdin; each line out demangled, or as it is when it is not a
 * Rust symbol.  -p: without parameter lists (as c++filt -p).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"

int
main(int argc, char **argv)
{
	static char out[FOLD_DM_MAXOUT];
	static char obuf[1 << 16];
	unsigned flags = FOLD_DM_PARAMS;
	char *line = NULL;
	size_t cap = 0, n;
	ssize_t len;

	if (argc == 2 && strcmp(argv[1], "-p") == 0)
		flags = 0;
	else if (argc != 1) {
		fputs("usage: rustdemangle [-p] < symbols\n", stderr);
		return 2;
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		n = fold_demangle_rust(line, (size_t)len, out, sizeof(out),
		    flags);
		if (n > 0)
			fwrite(out, 1, n, stdout);
		else
			fwrite(line, 1, (size_t)len, stdout);
		putchar('\n');
	}
	free(line);
	return fflush(stdout) != 0 || ferror(stdout);
}
