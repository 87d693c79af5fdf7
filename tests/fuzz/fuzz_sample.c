/* fuzz_sample - the macOS sample report collapser, with option bits from
 * the first byte (never --strict, which exits); the output must read back
 * as valid folded lines. */
#include "fuzz.h"
#include "sample/sample.h"

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
	return 0;
}
