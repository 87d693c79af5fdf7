/*
 * fuzz.h - shared by the libFuzzer harnesses: standard output goes to a
 * scratch file (the fo_*() writer writes to fd 1), and input is handed out
 * line by line.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "folded/folded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Send fd 1 to a scratch file once; rewind it for each run. */
static void
fuzz_stdout(void)
{
	static int done;
	char path[] = "/tmp/foldkit-fuzz-XXXXXX";
	int fd;

	if (!done) {
		if ((fd = mkstemp(path)) < 0 || dup2(fd, 1) < 0)
			abort();
		unlink(path);
		close(fd);
		fold_init("fuzz");
		done = 1;
	}
	if (ftruncate(1, 0) != 0 || lseek(1, 0, SEEK_SET) != 0)
		abort();
}

/* What was written to fd 1 since fuzz_stdout(), in a malloc'd buffer. */
static char *
fuzz_output(size_t *n)
{
	off_t end = lseek(1, 0, SEEK_END);
	char *b = malloc((size_t)end + 1);

	if (b == NULL || end < 0 || pread(1, b, (size_t)end, 0) != end)
		abort();
	*n = (size_t)end;
	return b;
}

/* Call fn for each line of data (no newline; the last may lack one). */
#define FOR_EACH_LINE(data, size, line, len)                                 \
	for (const char *p_ = (const char *)(data),                             \
	    *e_ = (const char *)(data) + (size), *nl_;                          \
	    p_ < e_ && ((nl_ = memchr(p_, '\n', (size_t)(e_ - p_))) != NULL ||   \
	    (nl_ = e_)) && ((line = p_), (len = (size_t)(nl_ - p_)), 1);         \
	    p_ = nl_ + 1)

/* Every line written must be a valid folded line, and end in '\n'. */
static void
check_folded(void)
{
	struct fold_sample smp;
	const char *line;
	size_t n, len;
	char *out = fuzz_output(&n);

	if (n > 0 && out[n - 1] != '\n')
		abort();
	FOR_EACH_LINE(out, n, line, len)
		if (fold_parse_line(line, len, &smp) != FOLD_OK)
			abort();
	free(out);
}

/*
 * Output b (input read twice) must be output a (read once) with every
 * count doubled: the same stacks, in the same order.  A sum that would
 * pass 2^64 - 1 stays as it was (an error is reported instead).  Frees
 * both.
 */
static void
check_doubled(char *a, size_t na, char *b, size_t nb)
{
	struct fold_sample sa, sb;
	const char *la, *lb;
	char *pa = a, *ea = a + na, *pb = b, *eb = b + nb;
	size_t lena, lenb;

	while (pa < ea && pb < eb) {
		la = pa;
		pa = memchr(pa, '\n', (size_t)(ea - pa));
		lena = (size_t)(pa++ - la);
		lb = pb;
		pb = memchr(pb, '\n', (size_t)(eb - pb));
		lenb = (size_t)(pb++ - lb);
		if (fold_parse_line(la, lena, &sa) != FOLD_OK ||
		    fold_parse_line(lb, lenb, &sb) != FOLD_OK ||
		    sa.stacklen != sb.stacklen ||
		    memcmp(sa.stack, sb.stack, sa.stacklen) != 0)
			abort();
		if (sb.count.i != 2 * sa.count.i &&
		    !(sa.count.i > UINT64_MAX / 2 && sb.count.i == sa.count.i))
			abort();
	}
	if (pa != ea || pb != eb)
		abort();
	free(a);
	free(b);
}
