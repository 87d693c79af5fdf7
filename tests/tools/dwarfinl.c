/* dwarfinl - the inlined functions lib/symbols/dwarf.c finds, for the
 * tests: dwarfinl [-l] FILE [ADDR ...] (hex; or one per line on stdin)
 * prints, for each address, the names innermost first, one per line, as
 * `addr2line -i -f -e FILE ADDR` prints its function lines ("??" and one
 * line when nothing holds it), then a line "--".  With -l each name is
 * followed by its FILE:LINE line as `addr2line -i -f -s` prints it (without
 * its discriminator); found by fold_dwarf_open() (FILE's debug file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "symbols/symbols.h"

static int lflag;

static void
one(struct fold_dwarf *d, const char *s)
{
	const char *const *nm;
	const char *files[64];
	unsigned lines[64];
	size_t n, i, nl = 0;
	uint64_t a = strtoull(s, NULL, 16);

	n = d != NULL ? fold_dwarf_inlines(d, a, &nm) : 0;
	if (lflag && n > 0)
		nl = fold_dwarf_srclines(d, a, files, lines, 64);
	if (n == 0) {
		puts("??");
		if (lflag)
			puts("??:0");
	}
	for (i = 0; i < n; i++) {
		puts(nm[i]);
		if (!lflag)
			continue;
		if (i >= nl)
			puts("(more)");
		else if (lines[i] != 0)
			printf("%s:%u\n", files[i] != NULL ? files[i] : "??",
			    lines[i]);
		else
			printf("%s:?\n", files[i] != NULL ? files[i] : "??");
	}
	puts("--");
}

int
main(int argc, char **argv)
{
	struct fold_elf *e;
	struct fold_dwarf *d;
	const char *why;
	char line[256];
	int i;

	fold_init(argv[0]);
	if (argc > 1 && strcmp(argv[1], "-l") == 0) {
		lflag = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: dwarfinl [-l] FILE [ADDR ...]\n");
		return 2;
	}
	if (lflag) {
		e = NULL;
		if ((d = fold_dwarf_open(argv[1], &why)) == NULL)
			fold_die(1, "%s: %s", argv[1], why != NULL ? why : "?");
	} else {
		if ((e = fold_elf_open(argv[1], &why)) == NULL)
			fold_die(1, "%s: %s", argv[1], why);
		d = fold_dwarf_new(e, &why);
	}
	if (why != NULL)
		fprintf(stderr, "dwarfinl: %s: %s\n", argv[1], why);
	for (i = 2; i < argc; i++)
		one(d, argv[i]);
	if (argc == 2)
		while (fgets(line, sizeof(line), stdin) != NULL)
			one(d, line);
	if (d != NULL && fold_dwarf_problem(d) != NULL)
		fprintf(stderr, "dwarfinl: %s: %s\n", argv[1],
		    fold_dwarf_problem(d));
	fold_dwarf_free(d);
	fold_elf_free(e);
	return 0;
}
