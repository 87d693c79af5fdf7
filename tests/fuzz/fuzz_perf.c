/* fuzz_perf - the perf script collapser, with option bits from the first
 * byte (never --inline, which runs addr2line, nor --strict, which exits). */
#include "fuzz.h"
#include "perf/perf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_perf_opts o;
	struct fold_perf *p;
	const char *line;
	size_t len;
	unsigned long long ln = 0;

	if (size == 0)
		return 0;
	fuzz_stdout();
	memset(&o, 0, sizeof(o));
	o.flags = data[0] & (FOLD_PERF_PID | FOLD_PERF_TID | FOLD_PERF_KERNEL |
	    FOLD_PERF_JIT | FOLD_PERF_ADDRS | FOLD_PERF_SRCLINE);
	o.flags |= FOLD_PERF_QUIET;
	if (data[0] & 0x80)
		o.flags |= FOLD_PERF_SAMPLES;
	if (data[0] & 0x40)
		o.skip_after = "main";
	if (data[size - 1] & 1)		/* (the first byte is all taken) */
		o.flags |= FOLD_PERF_DEMANGLE;
	p = fold_perf_new(&o);
	p->file = "fuzz";
	FOR_EACH_LINE(data + 1, size - 1, line, len) {
		p->lineno = ++ln;
		fold_perf_line(p, line, len);
	}
	fold_perf_eof(p);
	fold_perf_print(p);
	fo_flush();
	(void)fold_perf_end(p);
	check_folded();
	return 0;
}
