/* fuzz_demangle - the demangler (C++ and Rust, through fold_demangle) on
 * any bytes: no crash, no hang, the length returned within the buffer and
 * FOLD_DM_MAXOUT; with a small buffer, 0 or a prefix-sized result; the
 * same name each time (no state kept between calls). */
#include "fuzz.h"
#include "symbols/symbols.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[FOLD_DM_MAXOUT + 64], again[FOLD_DM_MAXOUT];
	const char *s = (const char *)data;
	size_t n, m, k;
	unsigned fl;

	for (fl = 0; fl <= FOLD_DM_PARAMS; fl++) {
		memset(out + FOLD_DM_MAXOUT, 0x5a, 64);
		n = fold_demangle(s, size, out, sizeof(out), fl);
		if (n > FOLD_DM_MAXOUT)
			abort();
		for (k = 0; k < 64; k++)
			if ((unsigned char)out[FOLD_DM_MAXOUT + k] != 0x5a)
				abort();
		m = fold_demangle(s, size, again, sizeof(again), fl);
		if (m != n || memcmp(out, again, n) != 0)
			abort();
		/* C++ alone: what it writes is what fold_demangle wrote, when
		 * the Rust demangler did not take the name */
		if (fold_demangle_rust(s, size, again, sizeof(again), fl) == 0 &&
		    ((m = fold_demangle_cxx(s, size, again, sizeof(again), fl)) != n ||
		    memcmp(out, again, n) != 0))
			abort();
		/* a buffer one byte too short: left as it is */
		if (n > 0 && fold_demangle(s, size, again, n - 1, fl) != 0)
			abort();
		if (n > 0 && fold_demangle(s, size, again, n, fl) != n)
			abort();
	}
	return 0;
}
