/* fuzz_regex - Perl shorthand translation, compilation and matching.  The
 * first line is the pattern (at most 64 bytes: libc's regcomp may take
 * exponential time on longer ones), the rest the subject. */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t plen = nl != NULL ? (size_t)(nl - (const char *)data) : size;
	char pat[65], err[256];
	struct fold_re re;
	uint64_t caps;
	size_t so, eo;
	char *ere;

	if (plen > 64 || memchr(data, '\0', plen) != NULL)
		return 0;
	memcpy(pat, data, plen);
	pat[plen] = '\0';
	if ((ere = fold_re_translate(pat, &caps, err, sizeof(err))) != NULL)
		free(ere);
	if (fold_re_compile(&re, pat, size > 1 && (data[size - 1] & 1) ?
	    FOLD_RE_FIXED : 0, err, sizeof(err)) == 0) {
		const char *subj = nl != NULL ? nl + 1 : "";
		size_t slen = nl != NULL ? size - plen - 1 : 0;

		if (fold_re_match(&re, subj, slen, &so, &eo) &&
		    (so > eo || eo > slen))
			abort();
		fold_re_free(&re);
	}
	return 0;
}
