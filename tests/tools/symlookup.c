/*
 * symlookup - what libfold's symbol sources give for addresses (a test tool).
 *
 *   symlookup elf FILE [OFFSET...]        symbol at each file offset
 *   symlookup kallsyms FILE [ADDR...]     symbol and module of each address
 *   symlookup kallsyms-full FILE [ADDR...]  the same, the table built whole
 *   symlookup permap FILE [ADDR...]       symbol in a perf map
 *   symlookup info FILE                   build id, symbol count, index time
 *   symlookup bench FILE N                N lookups at pseudo-random file
 *                                         offsets, timed (on stderr)
 *   symlookup check [-s SYMFS] [-d BUILDID_DIR] [-b BUILDIDS] [-p]
 *                   [-B BUILDIDS] [PERF_SCRIPT_OUTPUT]
 *
 * Numbers are hex; with none given they are read from stdin, one a line.
 * Each answer is printed as "ADDR NAME" ("[unknown]" when none; kallsyms
 * adds " MODULE" or " [kernel.kallsyms]").
 *
 * check reads the output of
 *   perf script --no-demangle --show-mmap-events -F comm,pid,tid,ip,sym,dso
 * follows the MMAP/MMAP2 events per process, and for every callchain frame
 * resolves its address with fold_symsrc_user() in the latest map of the
 * printed dso (perf script prints a user address as its offset in the
 * file, which is turned back into an address of that map), or with
 * fold_symsrc_kernel(), then compares with the symbol perf printed.  BUILDIDS is
 * `perf buildid-list` output.  -p: the objects with a build id by then are
 * opened and indexed ahead (fold_symsrc_prefetch()), as perf.data's reader
 * does; -B: build ids given after that.  It prints each mismatch, then
 * "frames N same N differ N", and exits 1 when any differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fold.h"
#include "symbols/symbols.h"

static int
hexbyte(const char *p)
{
	int v = 0, i, c;

	for (i = 0; i < 2; i++) {
		c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else
			return -1;
	}
	return v;
}

static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0, len = 0, r;

	if (f == NULL)
		fold_die(2, "%s: cannot open", path);
	do {
		fold_grow(&b, &cap, len + 65536, 1);
		r = fread(b + len, 1, cap - len, f);
		len += r;
	} while (r > 0);
	fclose(f);
	*n = len;
	return b;
}

/* Each address of argv, or of stdin. */
#define FOR_ADDRS(argc, argv, i, a, line)                                   \
	for (i = 0; (argc) > 0 ? i < (argc) && (a = strtoull((argv)[i], NULL, 16), 1) : \
	    (fgets(line, sizeof(line), stdin) != NULL &&                       \
	    (a = strtoull(line, NULL, 16), 1)); i++)

static int
cmd_elf(int argc, char **argv)
{
	const char *why, *name;
	struct fold_elf *e;
	unsigned long long a;
	char line[256];
	int i;

	if (argc < 1)
		return 2;
	if ((e = fold_elf_open(argv[0], &why)) == NULL)
		fold_die(1, "%s: %s", argv[0], why ? why : "cannot open");
	if ((why = fold_elf_problem(e)) != NULL)
		fold_warn("%s: %s", argv[0], why);
	FOR_ADDRS(argc - 1, argv + 1, i, a, line) {
		name = fold_elf_sym(e, a, NULL);
		printf("%llx %s\n", a, name ? name : "[unknown]");
	}
	fold_elf_free(e);
	return 0;
}


static int
cmd_text(int argc, char **argv, int kall)
{
	struct timespec t0;
	struct fold_syms *t;
	const char *name, *mod;
	unsigned long long a;
	char line[256], *b;
	size_t n;
	int i;

	if (argc < 1)
		return 2;
	b = slurp(argv[0], &n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (kall == 2) {	/* the whole table, not read lazily */
		b = realloc(b, n + 1);
		t = fold_syms_kallsyms_full(b, n);
		b = NULL;
	} else
		t = kall ? fold_syms_kallsyms(b, n) : fold_syms_permap(b, n);
	if (getenv("SYMLOOKUP_TIME") != NULL)
		fprintf(stderr, "%zu symbols, parsed in %.3f ms\n",
		    fold_syms_count(t), fold_since(&t0) * 1e3);
	free(b);
	FOR_ADDRS(argc - 1, argv + 1, i, a, line) {
		name = fold_syms_find(t, a, NULL, &mod);
		printf("%llx %s", a, name ? name : "[unknown]");
		if (kall)
			printf(" %s", mod ? mod : "[kernel.kallsyms]");
		putchar('\n');
	}
	fold_syms_free(t);
	return 0;
}

static int
cmd_info(int argc, char **argv)
{
	const unsigned char *id;
	const char *why;
	struct fold_elf *e;
	struct timespec t0, t1;
	size_t n, i;

	if (argc < 1)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((e = fold_elf_open(argv[0], &why)) == NULL)
		fold_die(1, "%s: %s", argv[0], why ? why : "cannot open");
	n = fold_elf_buildid(e, &id);
	printf("buildid ");
	for (i = 0; i < n; i++)
		printf("%02x", id[i]);
	printf("\nsymtab %d dynsym %d\n", fold_elf_has_symtab(e),
	    fold_elf_has_dynsym(e));
	n = fold_elf_nsyms(e);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("symbols %zu\n", n);
	fprintf(stderr, "indexed in %.3f ms\n",
	    (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	fold_elf_free(e);
	return 0;
}

static int
cmd_bench(int argc, char **argv)
{
	struct timespec t0;
	const char *why;
	struct fold_elf *e;
	unsigned long long n, i, x = 88172645463325252ULL, hits = 0, size;
	double open_s, index_s, look_s;
	FILE *f;

	if (argc < 2)
		return 2;
	n = strtoull(argv[1], NULL, 10);
	if ((f = fopen(argv[0], "rb")) == NULL || fseek(f, 0, SEEK_END) != 0)
		fold_die(1, "%s: cannot open", argv[0]);
	size = (unsigned long long)ftell(f);
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((e = fold_elf_open(argv[0], &why)) == NULL)
		fold_die(1, "%s: %s", argv[0], why ? why : "cannot open");
	open_s = fold_since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	(void)fold_elf_nsyms(e);
	index_s = fold_since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		hits += fold_elf_sym(e, x % (size ? size : 1), NULL) != NULL;
	}
	look_s = fold_since(&t0);
	fprintf(stderr, "%s: %zu symbols; open %.3f ms, index %.3f ms; "
	    "%llu lookups (%llu named) in %.1f ms: %.1f ns each\n", argv[0],
	    fold_elf_nsyms(e), open_s * 1e3, index_s * 1e3, n, hits,
	    look_s * 1e3, n ? look_s * 1e9 / (double)n : 0.0);
	fold_elf_free(e);
	return 0;
}

/* ---- check ---- */

struct map {
	long pid;
	unsigned long long start, len, pgoff;
	char *path;
	struct fold_dso *dso;
};
static struct map *maps;
static size_t nmaps, capmaps;

static void
add_map(struct fold_symsrc *s, long pid, unsigned long long start,
    unsigned long long len, unsigned long long pgoff, const char *path)
{
	struct map *m;

	fold_grow(&maps, &capmaps, nmaps + 1, sizeof(*maps));
	m = &maps[nmaps++];
	m->pid = pid;
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	m->path = xstrdup(path);
	m->dso = fold_symsrc_dso(s, path, strlen(path));
}

/* The latest map of pid (else of any process) whose file is path. */
static struct map *
find_map(long pid, const char *path)
{
	size_t i;

	for (i = nmaps; i-- > 0;)
		if (maps[i].pid == pid && strcmp(maps[i].path, path) == 0)
			return &maps[i];
	for (i = nmaps; i-- > 0;)	/* inherited across fork */
		if (strcmp(maps[i].path, path) == 0)
			return &maps[i];
	return NULL;
}

static void
read_buildids(struct fold_symsrc *s, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[4096], *sp, *nl;
	unsigned char id[20];
	size_t n;
	int b;

	if (f == NULL)
		fold_die(2, "%s: cannot open", file);
	while (fgets(line, sizeof(line), f) != NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		for (n = 0; n < 20 && line + 2 * n < sp &&
		    (b = hexbyte(line + 2 * n)) >= 0; n++)
			id[n] = (unsigned char)b;
		while (*sp == ' ')	/* short ids are padded */
			sp++;
		fold_symsrc_buildid(s, sp, strlen(sp), id, n);
	}
	fclose(f);
}

static int
cmd_check(int argc, char **argv)
{
	const char *symfs = NULL, *bdir = NULL, *bids = NULL, *bids2 = NULL;
	const char *sym, *ours;
	const char *kdso;
	struct fold_symsrc *s;
	char line[8192], path[4096], *p, *q, *nl;
	unsigned long long ip, start, len, pgoff, frames = 0, same = 0,
	    differ = 0;
	long pid = 0, mpid;
	FILE *in = stdin;
	struct map *m;
	int i, ahead = 0;

	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
		if (strcmp(argv[i], "-p") == 0) {
			ahead = 1;
			i--;
			continue;
		}
		if (i + 1 >= argc)
			return 2;
		switch (argv[i][1]) {
		case 's': symfs = argv[i + 1]; break;
		case 'd': bdir = argv[i + 1]; break;
		case 'b': bids = argv[i + 1]; break;
		case 'B': bids2 = argv[i + 1]; break;
		default: return 2;
		}
	}
	if (i < argc && (in = fopen(argv[i], "r")) == NULL)
		fold_die(2, "%s: cannot open", argv[i]);
	s = fold_symsrc_new(symfs, bdir, 0);
	if (bids != NULL)
		read_buildids(s, bids);
	if (ahead)
		fold_symsrc_prefetch(s);
	if (bids2 != NULL)
		read_buildids(s, bids2);
	while (fgets(line, sizeof(line), in) != NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if ((p = strstr(line, "PERF_RECORD_MMAP")) != NULL) {
			/* ... PERF_RECORD_MMAP2 PID/TID: [0xSTART(0xLEN) @ 0xPGOFF ...]: PROT PATH */
			q = strchr(p, ' ');
			if (q == NULL)
				continue;
			mpid = strtol(q + 1, NULL, 10);
			if ((q = strstr(p, "[0x")) == NULL)
				continue;
			start = strtoull(q + 1, &q, 16);
			len = strtoull(q + 1, &q, 16);
			if ((q = strstr(q, "@ ")) == NULL)
				continue;
			pgoff = strtoull(q + 2, &q, 16);
			if ((q = strstr(q, "]: ")) == NULL)
				continue;
			q += 3;
			if ((p = strchr(q, ' ')) == NULL)
				continue;
			snprintf(path, sizeof(path), "%s", p + 1);
			if (strncmp(path, "[kernel.kallsyms]", 17) == 0) {
				fold_symsrc_kernel_ref(s, path + 17,
				    strlen(path + 17), pgoff);
				continue;
			}
			add_map(s, mpid, start, len, pgoff, path);
			continue;
		}
		if (line[0] != '\t' && line[0] != ' ') {	/* sample header */
			for (p = line; *p == ' '; p++)
				;
			/* comm may hold spaces: the pid is the last number
			 * before "/" */
			if ((q = strrchr(p, '/')) != NULL) {
				while (q > p && q[-1] >= '0' && q[-1] <= '9')
					q--;
				pid = strtol(q, NULL, 10);
			}
			continue;
		}
		/* a frame: "\t    IP SYM (DSO)" */
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		ip = strtoull(p, &q, 16);
		if (q == p || *q != ' ')
			continue;
		sym = q + 1;
		/* the dso is a path or a [name], in parentheses at the end */
		if ((p = strstr(sym, " (/")) == NULL &&
		    (p = strstr(sym, " ([")) == NULL)
			continue;
		*p++ = '\0';
		q = p + 1;
		if ((p = strrchr(q, ')')) == NULL)
			continue;
		*p = '\0';
		if (strcmp(q, "[unknown]") == 0)
			continue;	/* no map: nothing to compare */
		frames++;
		if (strcmp(q, "[kernel.kallsyms]") == 0 || (q[0] == '[' &&
		    strcmp(q, "[vdso]") != 0 && strcmp(q, "[heap]") != 0 &&
		    strcmp(q, "[stack]") != 0)) {
			ours = fold_symsrc_kernel(s, ip, &kdso, NULL);
			if (ours != NULL && strcmp(kdso, q) != 0) {
				printf("%llx %s (%s): ours %s (%s)\n", ip, sym,
				    q, ours, kdso);
				differ++;
				continue;
			}
		} else if ((m = find_map(pid, q)) != NULL) {
			/* perf script prints a user address as the offset in
			 * its map's file (ip - start + pgoff): back to ip; a
			 * perf map's addresses are absolute */
			if (strncmp(q, "/tmp/perf-", 10) != 0)
				ip = ip - m->pgoff + m->start;
			ours = fold_symsrc_user(s, m->dso, m->start, m->pgoff,
			    ip, NULL);
		}
		else {
			printf("%llx %s (%s): no map\n", ip, sym, q);
			differ++;
			continue;
		}
		if (ours == NULL)
			ours = "[unknown]";
		if (strcmp(ours, sym) == 0)
			same++;
		else {
			printf("%llx %s (%s): ours %s\n", ip, sym, q, ours);
			differ++;
		}
	}
	printf("frames %llu same %llu differ %llu\n", frames, same, differ);
	fold_symsrc_free(s);
	for (; nmaps > 0; nmaps--)
		free(maps[nmaps - 1].path);
	free(maps);
	if (in != stdin)
		fclose(in);
	return differ > 0;
}

int
main(int argc, char **argv)
{
	int r = 2;

	fold_init(argv[0]);
	if (argc >= 2) {
		if (strcmp(argv[1], "elf") == 0)
			r = cmd_elf(argc - 2, argv + 2);
		else if (strcmp(argv[1], "kallsyms") == 0)
			r = cmd_text(argc - 2, argv + 2, 1);
		else if (strcmp(argv[1], "kallsyms-full") == 0)
			r = cmd_text(argc - 2, argv + 2, 2);
		else if (strcmp(argv[1], "permap") == 0)
			r = cmd_text(argc - 2, argv + 2, 0);
		else if (strcmp(argv[1], "info") == 0)
			r = cmd_info(argc - 2, argv + 2);
		else if (strcmp(argv[1], "bench") == 0)
			r = cmd_bench(argc - 2, argv + 2);
		else if (strcmp(argv[1], "check") == 0)
			r = cmd_check(argc - 2, argv + 2);
	}
	if (r == 2)
		fprintf(stderr, "usage: symlookup elf|kallsyms|kallsyms-full|permap|info FILE "
		    "[ADDR...] | check [-s SYMFS] [-d DIR] [-b BUILDIDS] "
		    "[FILE]\n");
	return r;
}
