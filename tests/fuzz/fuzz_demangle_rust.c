/*
 * fuzz_demangle_rust - fold_demangle_rust() on any bytes: no crash, no
 * hang, the name within cap and FOLD_DM_MAXOUT, written only inside cap
 * (the small buffer is allocated to its exact size, so ASan sees a write
 * past it), and the same name whatever the cap it fits in and whatever the
 * flags.  The first byte picks a prefix ("", "_R", "_ZN") and a small cap.
 */
#include "fuzz.h"
#include "symbols/symbols.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char big[FOLD_DM_MAXOUT + 16];
	static const char *pre[] = { "", "_R", "_ZN", "_RIC" };
	size_t n, m, k, cap, plen;
	char *sym, *small;

	if (size == 0)
		return 0;
	plen = strlen(pre[data[0] & 3]);
	cap = (size_t)(data[0] >> 2) * 8 + 1;	/* 1 .. 505 */
	if ((sym = malloc(plen + size - 1 + 1)) == NULL)
		abort();
	memcpy(sym, pre[data[0] & 3], plen);
	memcpy(sym + plen, data + 1, size - 1);
	m = plen + size - 1;

	n = fold_demangle_rust(sym, m, big, sizeof(big), FOLD_DM_PARAMS);
	if (n > FOLD_DM_MAXOUT)
		abort();
	if (fold_demangle_rust(sym, m, big + FOLD_DM_MAXOUT, 0, 0) != 0)
		abort();
	if ((small = malloc(cap)) == NULL)
		abort();
	k = fold_demangle_rust(sym, m, small, cap, 0);
	if (k > cap || (k != 0 && (k != n || memcmp(small, big, n) != 0)))
		abort();
	if (n != 0 && n <= cap && k != n)
		abort();
	free(small);
	free(sym);
	return 0;
}
