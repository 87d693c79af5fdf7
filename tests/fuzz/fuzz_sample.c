/* fuzz_sample - the macOS sample report collapser, with option bits from
 * the first byte (never --strict, which exits); the output must read back
 * as valid folded lines.  With bit 0x40 the input is also written to a
 * file (after "Call graph:" with bit 0x80, as above) and read by
 * fold_samplerep_run(), twice over and then once, each in one thread and
 * in two (twice over: the second finds the frames of the file's lines,
 * left in its map; once: two threads read it in chunks, each into a tree
 * of its own, and write the trees at once): the outputs and statuses
 * must be the same. */
#include "fuzz.h"
#include "sample/sample.h"

/* The output of the run of r over files f (nthr threads), malloc'd; its
 * status in *st. */
static char *
run(unsigned flags, const char *nthr, char **f, int nf, size_t *n, int *st)
{
	struct fold_samplerep *r;

	if (setenv("FOLDKIT_SAMPLE_THREADS", nthr, 1) != 0)
		abort();
	fuzz_stdout();
	r = fold_samplerep_new(flags);
	fold_samplerep_run(r, nf, f);
	fold_samplerep_print(r);
	fo_flush();
	*st = fold_samplerep_end(r);
	return fuzz_output(n);
}

/* One thread and two on a file of data, read twice over, then once (in
 * chunks by two threads, their trees written at once; after a "Call
 * graph:" line if graph): the same output and status. */
static void
threads(unsigned flags, int graph, const uint8_t *data, size_t size)
{
	char path[] = "/tmp/foldkit-fuzz-sample-XXXXXX";
	char *f[2] = { path, path }, *o1, *o2;
	size_t n1, n2;
	int fd, nf, s1, s2;

	if ((fd = mkstemp(path)) < 0)
		abort();
	if ((graph && write(fd, "Call graph:\n", 12) != 12) ||
	    (size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    close(fd) != 0)
		abort();
	for (nf = 2; nf >= 1; nf--) {
		o1 = run(flags, "1", f, nf, &n1, &s1);
		o2 = run(flags, "2", f, nf, &n2, &s2);
		if (s1 != s2 || n1 != n2 || (n1 > 0 && memcmp(o1, o2, n1) != 0))
			abort();
		free(o1);
		free(o2);
	}
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_samplerep *r;
	const char *line;
	size_t len;
	unsigned long long ln = 0;

	if (size == 0)
		return 0;
	fuzz_stdout();
	r = fold_samplerep_new(FOLD_SAMPLEREP_QUIET | (data[0] &
	    (FOLD_SAMPLEREP_NO_THREADS | FOLD_SAMPLEREP_NO_MODULES |
	    FOLD_SAMPLEREP_ALL)));
	r->file = "fuzz";
	/* most inputs are inside the call graph: the 1-bit says so */
	if (data[0] & 0x80)
		fold_samplerep_line(r, "Call graph:", 11);
	FOR_EACH_LINE(data + 1, size - 1, line, len) {
		r->lineno = ++ln;
		fold_samplerep_line(r, line, len);
	}
	fold_samplerep_eof(r);
	fold_samplerep_print(r);
	fo_flush();
	(void)fold_samplerep_end(r);
	check_folded();
	if (data[0] & 0x40)
		threads(FOLD_SAMPLEREP_QUIET | (data[0] &
		    (FOLD_SAMPLEREP_NO_THREADS | FOLD_SAMPLEREP_NO_MODULES |
		    FOLD_SAMPLEREP_ALL)), data[0] & 0x80, data + 1, size - 1);
	return 0;
}
