/* fuzz_pprof - the pprof collapser (the protobuf wire reader, the tables,
 * the samples; gzip input through inflate) over any bytes after a first
 * byte of option bits: --lines, --addrs, --demangle, --label (thread,
 * worker), --list, and the sample index (default, 0, 1, a name).  Never
 * --strict, which exits.  What is written must be valid folded lines, and
 * the profile added twice must give the same stacks, each value doubled.
 * First the wire reader alone: the bytes walked as nested messages, every
 * field inside what is left, each step forward, an error with its why. */
#include "fuzz.h"
#include "pprof/pprof.h"

static const char *const indexes[] = { NULL, "0", "1", "cycles" };
static char *labels[] = { "thread", "worker" };

/* Walk [p, end) as a message, its LEN fields as messages too. */
static void
walk(const unsigned char *p, const unsigned char *end, int depth)
{
	struct fold_pb b = { p, end };
	struct fold_pb_field f;
	const unsigned char *before;
	const char *why = NULL;
	uint64_t v;
	int r;

	for (before = b.p; (r = fold_pb_next(&b, &f, &why)) > 0; before = b.p) {
		if (b.p <= before || b.p > end || f.num == 0 || f.type == 3 ||
		    f.type == 4 || f.type > 5)
			abort();
		if (f.type == FOLD_PB_LEN) {
			if (f.p < before || f.p + f.len != b.p)
				abort();
			if (depth < 6)
				walk(f.p, f.p + f.len, depth + 1);
			/* as packed varints */
			for (p = f.p; p < f.p + f.len;) {
				before = p;
				if (!fold_pb_varint(&p, f.p + f.len, &v))
					break;
				if (p <= before || p > f.p + f.len ||
				    p - before > 10)
					abort();
			}
		}
	}
	if (r < 0 && (why == NULL || b.p != before))
		abort();
	if (r == 0 && b.p != end)
		abort();
}

/* Run the collapser over data, times times; its output, or NULL if an
 * add failed. */
static char *
collapse(unsigned flags, unsigned o, const uint8_t *data, size_t size,
    int times, size_t *n)
{
	struct fold_pprof *p;
	int i, ok = 1;

	fuzz_stdout();
	p = fold_pprof_new(flags, indexes[o >> 6 & 3], labels,
	    (o & 0x08) ? 2 : 0);
	for (i = 0; i < times && ok; i++)
		ok = fold_pprof_add(p, "fuzz", data, size) == 0;
	if (!(flags & FOLD_PPROF_LIST))
		fold_pprof_print(p);
	fo_flush();
	(void)fold_pprof_end(p);
	return ok ? fuzz_output(n) : NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t na, nb;
	unsigned flags, o;
	char *a, *b;

	if (size == 0)
		return 0;
	walk(data + 1, data + size, 0);
	o = data[0];
	flags = FOLD_PPROF_QUIET | (o & (FOLD_PPROF_LINES | FOLD_PPROF_ADDRS |
	    FOLD_PPROF_DEMANGLE));
	if ((o & 0x30) == 0x30)
		flags |= FOLD_PPROF_LIST;
	a = collapse(flags, o, data + 1, size - 1, 1, &na);
	if (flags & FOLD_PPROF_LIST) {
		free(a);
		return 0;
	}
	check_folded();
	if (a == NULL)
		return 0;
	b = collapse(flags, o, data + 1, size - 1, 2, &nb);
	if (b == NULL) {	/* only a sum past 2^64 - 1 may fail */
		free(a);
		return 0;
	}
	check_doubled(a, na, b, nb);
	return 0;
}
