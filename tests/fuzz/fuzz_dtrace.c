/* fuzz_dtrace - the DTrace/bpftrace collapser, with option bits from the
 * first byte (never --strict, which exits). */
#include "fuzz.h"
#include "dtrace/dtrace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_dtrace *d;
	const char *line;
	size_t len;
	unsigned long long ln = 0;

	if (size == 0)
		return 0;
	fuzz_stdout();
	d = fold_dtrace_new(FOLD_DTRACE_QUIET |
	    (data[0] & (FOLD_DTRACE_OFFSET | FOLD_DTRACE_DEMANGLE)));
	d->file = "fuzz";
	FOR_EACH_LINE(data + 1, size - 1, line, len) {
		d->lineno = ++ln;
		fold_dtrace_line(d, line, len);
	}
	fold_dtrace_eof(d);
	fold_dtrace_print(d);
	fo_flush();
	(void)fold_dtrace_end(d);
	check_folded();
	/* (the demanglers alone: fuzz_demangle, fuzz_demangle_rust) */
	return 0;
}
