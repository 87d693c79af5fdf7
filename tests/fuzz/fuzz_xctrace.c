/* fuzz_xctrace - the XML reader and the xctrace collapser over any bytes
 * after a first byte of option bits: --weight, --demangle, --pid, --tid.
 * First the reader alone, twice: handed the bytes in one piece and one
 * byte at a time (13 past 2 KB), it must give the same events (types, names, attributes,
 * text) and end the same way (the end or the same error on the same
 * line); START and END must pair up, the depth stay within its bound, an
 * error stick.  A third time with the fast paths (fold_xml_skip(),
 * fold_xml_leaf()) tried between events: they must end the same way (the
 * end, or the same error on the same line), so that they never take what
 * the reader would refuse.  Then the collapser: what it writes must be valid folded
 * lines, and an input read without error, added twice, must give the same
 * stacks with each count doubled; handed the bytes one at a time (the
 * events alone: its fast paths see no whole element) it must give the
 * output of the bytes in one piece, and fail or not alike.  Without --weight, --pid, --tid, the
 * bytes are also read from a file by two readers (FOLD_XCTRACE_TWO: split
 * at a row boundary about the middle, where there is one): the output and
 * whether the add failed must be those of one reader. */
#include "fuzz.h"
#include "markup/markup.h"
#include "xctrace/xctrace.h"

/* FNV-1a over the events, and where the reading ended. */
struct trail {
	uint64_t h;
	int last;
	unsigned long long line;
	char why[160];
	size_t events;
};

static void
mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		*h = (*h ^ s[i]) * 0x100000001b3ULL;
}

static void
read_all(const uint8_t *data, size_t size, size_t chunk, int fast,
    struct trail *t)
{
	static const char *const heads[] = {
		"<frame ref=\"", "<binary ref=\"", "<backtrace ref=\"",
		"<a b='"
	};
	struct fold_xml_head hd[4];
	struct fold_xml x;
	unsigned depth = 0;
	size_t i, n;
	const char *v;
	int e;

	memset(t, 0, sizeof(*t));
	t->h = 0xcbf29ce484222325ULL;
	for (i = 0; i < 4; i++)
		if (fold_xml_head(&hd[i], heads[i]) != 0)
			abort();
	fold_xml_init(&x, -1, data, size, chunk);
	for (;;) {
		if (fast && t->events % 3 != 2) {
			e = t->events % 3 == 0 ? fold_xml_skip(&x,
			    1 + (int)(t->events / 3 % 3)) :
			    fold_xml_leaf(&x, &hd[t->events / 3 % 4], &v, &n);
			if (e) {
				if (x.type != FOLD_XML_END || x.depth != depth ||
				    x.nlen == 0)
					abort();
				t->events++;
				continue;
			}
		}
		e = fold_xml_next(&x);
		t->events++;
		mix(&t->h, &e, sizeof(e));
		if (e == FOLD_XML_START) {
			if (x.depth != depth + 1 || x.depth > FOLD_XML_MAXDEPTH ||
			    x.nattrs > FOLD_XML_MAXATTRS || x.nlen == 0)
				abort();
			depth = x.depth;
			mix(&t->h, x.name, x.nlen);
			for (i = 0; i < x.nattrs; i++) {
				mix(&t->h, x.attrs[i].name, x.attrs[i].nlen);
				mix(&t->h, "=", 1);
				mix(&t->h, x.attrs[i].val, x.attrs[i].vlen);
			}
		} else if (e == FOLD_XML_END) {
			if (x.depth + 1 != depth)
				abort();
			depth = x.depth;
			mix(&t->h, x.name, x.nlen);
		} else if (e == FOLD_XML_TEXT) {
			if (depth == 0)
				abort();
			mix(&t->h, x.text, x.tlen);
		} else
			break;
		if (t->events > 4 * size + 16)	/* every event eats bytes */
			abort();
	}
	t->last = e;
	t->line = fold_xml_line(&x);
	if (t->line == 0)
		abort();
	if (e == FOLD_XML_ERROR) {
		if (x.why[0] == '\0' || fold_xml_next(&x) != FOLD_XML_ERROR)
			abort();
		memcpy(t->why, x.why, sizeof(t->why));
	} else if (depth != 0)
		abort();
	fold_xml_free(&x);
}

/* The collapser over data (fd >= 0: read from fd, at its start), times
 * times; its output, *ok 0 if an add failed. */
static char *
collapse_any(unsigned flags, int fd, const uint8_t *data, size_t size,
    size_t chunk, int times, size_t *n, int *ok)
{
	struct fold_xctrace *x;
	int i;

	fuzz_stdout();
	x = fold_xctrace_new(flags);
	*ok = 1;
	for (i = 0; i < times; i++) {
		if (fd >= 0 && lseek(fd, 0, SEEK_SET) != 0)
			abort();
		if (fold_xctrace_add(x, "fuzz", fd, fd >= 0 ? NULL : data,
		    size, chunk) != 0)
			*ok = 0;
	}
	fold_xctrace_print(x);
	fo_flush();
	(void)fold_xctrace_end(x);
	return fuzz_output(n);
}

/* ... its output, or NULL if an add failed */
static char *
collapse(unsigned flags, const uint8_t *data, size_t size, size_t chunk,
    int times, size_t *n)
{
	int ok;
	char *o = collapse_any(flags, -1, data, size, chunk, times, n, &ok);

	if (ok)
		return o;
	free(o);
	return NULL;
}

/* Two readers on a file of data: what one reader in memory gives. */
static void
two_readers(unsigned flags, const uint8_t *data, size_t size)
{
	FILE *f = tmpfile();
	char *o1, *o2;
	size_t n1, n2;
	int ok1, ok2;

	if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) ||
	    fflush(f) != 0)
		abort();
	o1 = collapse_any(flags, -1, data, size, 0, 1, &n1, &ok1);
	o2 = collapse_any(flags | FOLD_XCTRACE_TWO, fileno(f), NULL, size, 0,
	    1, &n2, &ok2);
	if (ok1 != ok2 || n1 != n2 || (n1 > 0 && memcmp(o1, o2, n1) != 0))
		abort();
	free(o1);
	free(o2);
	fclose(f);
}

/* The bytes one at a time (no fast path) and in one piece: the same. */
static void
events_alone(unsigned flags, const uint8_t *data, size_t size)
{
	char *o1, *o2;
	size_t n1, n2;
	int ok1, ok2;

	if (size > 4096)
		return;
	o1 = collapse_any(flags, -1, data, size, 1, 1, &n1, &ok1);
	o2 = collapse_any(flags, -1, data, size, 0, 1, &n2, &ok2);
	if (ok1 != ok2 || n1 != n2 || (n1 > 0 && memcmp(o1, o2, n1) != 0))
		abort();
	free(o1);
	free(o2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t chunks[] = { 0, 1, 7, 4096 };
	struct trail a, b, c;
	size_t na, nb;
	unsigned flags;
	char *oa, *ob;

	if (size == 0)
		return 0;
	read_all(data + 1, size - 1, 0, 0, &a);
	read_all(data + 1, size - 1, size < 2048 ? 1 : 13, 0, &b);
	if (a.h != b.h || a.last != b.last || a.line != b.line ||
	    strcmp(a.why, b.why) != 0 || a.events != b.events)
		abort();
	read_all(data + 1, size - 1, chunks[data[0] >> 6], 1, &c);
	if (a.last != c.last || a.line != c.line || strcmp(a.why, c.why) != 0)
		abort();
	flags = FOLD_XCTRACE_QUIET | (data[0] & (FOLD_XCTRACE_WEIGHT |
	    FOLD_XCTRACE_DEMANGLE | FOLD_XCTRACE_PID | FOLD_XCTRACE_TID));
	if (!(flags & (FOLD_XCTRACE_WEIGHT | FOLD_XCTRACE_PID |
	    FOLD_XCTRACE_TID)))
		two_readers(flags, data + 1, size - 1);
	oa = collapse(flags, data + 1, size - 1, chunks[data[0] >> 6], 1, &na);
	check_folded();
	events_alone(flags, data + 1, size - 1);
	if (oa == NULL)
		return 0;
	ob = collapse(flags, data + 1, size - 1, chunks[data[0] >> 6], 2, &nb);
	if (ob == NULL) {	/* only a sum past 2^64 - 1 may fail */
		free(oa);
		return 0;
	}
	check_doubled(oa, na, ob, nb);
	return 0;
}
