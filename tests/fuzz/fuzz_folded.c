/* fuzz_folded - the folded-line parser, and frame ids over its stacks. */
#include "fuzz.h"
#include "folded/folded.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_intern t;
	struct fold_stackids s;
	struct fold_sample smp;
	const char *line;
	size_t len, n, k;
	const uint32_t *ids;
	fold_num total = { 0, 0 };

	fold_intern_init(&t);
	fold_stackids_init(&s, &t, size > 0 && (data[0] & 1));
	FOR_EACH_LINE(data, size, line, len) {
		if (fold_parse_line(line, len, &smp) != FOLD_OK)
			continue;
		if (smp.stacklen == 0 || smp.stacklen > len)
			abort();
		(void)fold_num_add(&total, smp.count);
		ids = fold_stackids(&s, smp.stack, smp.stacklen, &n);
		for (k = 0; k < n; k++)
			if (ids[k] >= fold_intern_count(&t))
				abort();
	}
	fold_stackids_free(&s);
	fold_intern_free(&t);
	return 0;
}
