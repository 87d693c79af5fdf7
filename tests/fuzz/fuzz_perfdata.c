/*
 * fuzz_perfdata - the perf.data reader on any bytes after the magic.  The
 * first byte picks the magic's byte order, option bits and demangling
 * (0x40); the rest is the
 * file (file mode, or pipe mode when its size field says 16).  Objects are
 * looked for below a folder that does not exist, so only the bytes given
 * are read (and /proc/kallsyms once, for kernel frames).  --no-inline:
 * --call-graph dwarf samples are unwound (as far as the vDSO, the only
 * object found).
 */
#include "fuzz.h"
#include "perf/perf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fold_perfdata *d;
	static int fd = -1;
	static struct fold_perfdata *dd;	/* the same, demangling */
	static const struct fold_perfdata_opts po = {
		"/nonexistent/foldkit-fuzz", "/nonexistent/foldkit-fuzz",
		FOLD_PERFDATA_QUIET | FOLD_PERFDATA_NOINLINE
	};
	static const struct fold_perfdata_opts pod = {
		"/nonexistent/foldkit-fuzz", "/nonexistent/foldkit-fuzz",
		FOLD_PERFDATA_QUIET | FOLD_PERFDATA_DEMANGLE |
		FOLD_PERFDATA_NOINLINE
	};
	static const unsigned char le[8] = "PERFILE2";
	static const unsigned char be[8] = { '2', 'E', 'L', 'I', 'F', 'R', 'E', 'P' };
	struct fold_perf_opts o;
	struct fold_perf *p;
	unsigned char head[16];
	char path[] = "/tmp/foldkit-fuzz-pd-XXXXXX";

	if (size == 0)
		return 0;
	fuzz_stdout();
	if (fd < 0) {
		if ((fd = mkstemp(path)) < 0)
			abort();
		unlink(path);
		d = fold_perfdata_new(&po);
		dd = fold_perfdata_new(&pod);
	}
	if (ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data[0] & 1 ? be : le, 8, 0) != 8 ||
	    (size > 1 && pwrite(fd, data + 1, size - 1, 8) != (ssize_t)(size - 1)) ||
	    lseek(fd, 8, SEEK_SET) != 8)
		abort();
	memset(&o, 0, sizeof(o));
	o.flags = FOLD_PERF_QUIET | ((data[0] >> 1) & (FOLD_PERF_PID |
	    FOLD_PERF_TID | FOLD_PERF_KERNEL | FOLD_PERF_JIT | FOLD_PERF_ADDRS));
	if (data[0] & 0x80)
		o.skip_after = "main";
	p = fold_perf_new(&o);
	memcpy(head, data[0] & 1 ? be : le, 8);
	if (fold_perfdata_file(data[0] & 0x40 ? dd : d, p, fd, "fuzz", head,
	    8) != 2)
		fold_perf_print(p);
	fo_flush();
	(void)fold_perf_end(p);
	check_folded();
	return 0;
}
