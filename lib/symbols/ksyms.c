/*
 * ksyms.c - symbol tables from text: /proc/kallsyms and /tmp/perf-PID.map,
 * parsed as perf parses them.  The buffer is copied once; lines become
 * NUL-terminated strings in the copy and names point into it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "symbols/symbols.h"

#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_OBJECT 1
#define STT_FUNC 2

static char *
copy(const char *buf, size_t n)
{
	char *c = xmalloc(n + 1);

	memcpy(c, buf, n);
	c[n] = '\0';
	return c;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * kallsyms: "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MODULE]".  perf keeps the
 * types T, W, D and B (either case), not names starting with '$'.
 */
struct fold_syms *
fold_syms_kallsyms(const char *buf, size_t n)
{
	return fold_syms_kallsyms_own(copy(buf, n), n);
}

struct fold_syms *
fold_syms_kallsyms_own(char *c, size_t n)
{
	struct fold_syms *t = fold_syms_kallsyms_lazy(c, n);

	if (t == NULL)
		return fold_syms_kallsyms_full(c, n);
	fold_syms_own(t, c);
	return t;
}

struct fold_syms *
fold_syms_kallsyms_full(char *c, size_t n)
{
	struct fold_syms *t = fold_syms_new();
	char *p = c, *end = c + n, *nl, *name, *mod, *tab;
	uint64_t addr;
	size_t lines = 1;
	int d, type, ut, bind, any;

	fold_syms_own(t, c);
	for (p = c; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
		lines++;
	fold_syms_reserve(t, lines);
	for (p = c; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		*nl = '\0';
		addr = 0;
		any = 0;
		while ((d = hexval((unsigned char)*p)) >= 0) {
			addr = addr << 4 | (uint64_t)d;
			p++;
			any = 1;
		}
		if (!any || *p != ' ' || p + 2 >= nl || p[2] != ' ')
			continue;
		type = (unsigned char)p[1];
		name = p + 3;
		ut = toupper(type);
		if ((ut != 'T' && ut != 'W' && ut != 'D' && ut != 'B') ||
		    name[0] == '$')
			continue;
		mod = NULL;
		if ((tab = memchr(name, '\t', (size_t)(nl - name))) != NULL) {
			*tab = '\0';
			mod = tab + 1;
		}
		bind = type == 'W' ? STB_WEAK : isupper(type) ? STB_GLOBAL :
		    STB_LOCAL;
		fold_syms_add(t, addr, 0, name, mod, bind,
		    ut == 'T' || ut == 'W' ? STT_FUNC : STT_OBJECT);
	}
	fold_syms_done(t, FOLD_SYMS_KALLSYMS);
	return t;
}

/*
 * perf maps: "START SIZE NAME", both numbers as strtoull(.., 16) reads
 * them, NAME the rest of the line.  As perf does, the last character of
 * each line is dropped as its newline, even on a last line without one,
 * and lines too short to hold a name are skipped.
 */
struct fold_syms *
fold_syms_permap(const char *buf, size_t n)
{
	struct fold_syms *t = fold_syms_new();
	char *c = copy(buf, n), *p = c, *end = c + n, *nl, *q;
	unsigned long long start, size;
	size_t len, linelen;

	fold_syms_own(t, c);
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			nl = end;
			if (nl > p)
				nl[-1] = '\0';	/* perf's line[--len] = 0 */
		}
		*nl = '\0';
		linelen = strlen(p);	/* a NUL byte ends the line */
		start = strtoull(p, &q, 16);
		len = (size_t)(q - p) + 1;
		if (len + 2 >= linelen)
			continue;
		size = strtoull(p + len, &q, 16);
		len = (size_t)(q - p) + 1;
		if (len + 2 >= linelen)
			continue;
		fold_syms_add(t, start, size, p + len, NULL, STB_GLOBAL,
		    STT_FUNC);
	}
	fold_syms_done(t, FOLD_SYMS_PERFMAP);
	return t;
}
