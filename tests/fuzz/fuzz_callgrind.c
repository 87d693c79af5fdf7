/* fuzz_callgrind - the callgrind collapser (name compression, positions,
 * costs, contexts split and completed) over any bytes after a first byte
 * of option bits: --demangle, --objects, --list, and the event (default,
 * Ir, Dr, a missing one).  Never --strict, which exits.  What is written
 * must be valid folded lines, and the profile read twice (two files) must
 * give the same stacks, each cost doubled. */
#include "fuzz.h"
#include "callgrind/callgrind.h"

static const char *const events[] = { NULL, "Ir", "Dr", "nope" };

/* Run the collapser over data as times files; its output. */
static char *
collapse(unsigned flags, unsigned o, const uint8_t *data, size_t size,
    int times, size_t *n)
{
	struct fold_cg *c;
	const char *line;
	size_t len;
	int i, nonl;

	fuzz_stdout();
	c = fold_cg_new(flags, events[o >> 6 & 3], times);
	for (i = 0; i < times; i++) {
		fold_cg_begin(c, "fuzz");
		nonl = 0;
		FOR_EACH_LINE(data, size, line, len) {
			fold_cg_line(c, line, len);
			nonl = line + len == (const char *)data + size;
		}
		fold_cg_end(c, nonl && size > 0 && data[size - 1] != '\n');
	}
	if (!(flags & FOLD_CG_LIST))
		fold_cg_print(c);
	fo_flush();
	(void)fold_cg_free(c);
	return fuzz_output(n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t na, nb;
	unsigned flags, o;
	char *a, *b;

	if (size == 0)
		return 0;
	o = data[0];
	flags = FOLD_CG_QUIET | (o & (FOLD_CG_DEMANGLE | FOLD_CG_OBJECTS));
	if ((o & 0x30) == 0x30)
		flags |= FOLD_CG_LIST;
	a = collapse(flags, o, data + 1, size - 1, 1, &na);
	if (flags & FOLD_CG_LIST) {
		free(a);
		return 0;
	}
	check_folded();
	b = collapse(flags, o, data + 1, size - 1, 2, &nb);
	check_doubled(a, na, b, nb);
	return 0;
}
