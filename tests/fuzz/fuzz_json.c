/* fuzz_json - the JSON pull reader (lib/markup/json.c) over any bytes,
 * then the samply collapser over them.  The reader walks the text two
 * ways, value by value (every string decoded, every number converted) and
 * by fold_json_skip(): both must end at the same place with the same
 * verdict; every string handed out must lie in the text or the reader's
 * buffer and be valid UTF-8; nesting never passes FOLD_JSON_MAXDEPTH.
 * The collapser (no symbol source read) must write valid folded lines,
 * and the same profile twice must give as many lines and double the
 * total. */
#include "fuzz.h"
#include "markup/markup.h"
#include "samply/samply.h"

/* A value and what it holds, by the typed calls; 1 or -1. */
static int
walk(struct fold_json *j, const uint8_t *data, size_t size, int depth)
{
	struct fold_str s;
	double d;
	int64_t i;
	int r, b;
	size_t k;
	uint32_t cp;
	int bad;

	if (depth > FOLD_JSON_MAXDEPTH + 1 || j->depth > FOLD_JSON_MAXDEPTH)
		abort();
	switch (fold_json_peek(j)) {
	case FOLD_JSON_NULL:
		return fold_json_null(j) == 1 ? 1 : -1;
	case FOLD_JSON_BOOL:
		return fold_json_bool(j, &b);
	case FOLD_JSON_NUM:
		return fold_json_num(j, &d);
	case FOLD_JSON_STR:
		if (fold_json_str(j, &s) < 0)
			return -1;
		if (!(((const uint8_t *)s.s >= data && (const uint8_t *)s.s +
		    s.len <= data + size) || (s.s >= j->buf && s.s + s.len <=
		    j->buf + j->cap)))
			abort();
		for (k = 0; k < s.len;) {
			k += fold_utf8_char((const unsigned char *)s.s + k,
			    s.len - k, &cp, &bad);
			if (bad)
				abort();
		}
		return 1;
	case FOLD_JSON_ARR:
		if (fold_json_arr(j) < 0)
			return -1;
		while ((r = fold_json_next(j)) == 1)
			if (walk(j, data, size, depth + 1) < 0)
				return -1;
		return r;
	case FOLD_JSON_OBJ:
		if (fold_json_obj(j) < 0)
			return -1;
		while ((r = fold_json_key(j, &s)) == 1)
			if (walk(j, data, size, depth + 1) < 0)
				return -1;
		return r;
	default:
		(void)i;
		return fold_json_fail(j, "a value was expected");
	}
}

static char *
collapse(const uint8_t *data, size_t size, unsigned flags, int times,
    size_t *n)
{
	struct fold_samply *s;
	int t, ok = 1;

	fuzz_stdout();
	s = fold_samply_new(flags | FOLD_SAMPLY_NOSYMS | FOLD_SAMPLY_QUIET,
	    NULL);
	for (t = 0; t < times && ok; t++)
		ok = fold_samply_add(s, "fuzz", NULL, data, size) == 0;
	fold_samply_print(s);
	fo_flush();
	(void)fold_samply_end(s);
	return ok ? fuzz_output(n) : NULL;
}

static int frac;

/* The lines of out and the sum of their integer counts. */
static int
total(const char *out, size_t n, size_t *lines, uint64_t *sum)
{
	struct fold_sample smp;
	const char *line;
	size_t len;

	*lines = 0;
	*sum = 0;
	FOR_EACH_LINE(out, n, line, len) {
		if (fold_parse_line(line, len, &smp) != FOLD_OK)
			return -1;
		if (smp.frac)
			frac = 1;
		*sum += smp.count.i;
		(*lines)++;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_json a, b;
	int ra, rb;
	unsigned flags;
	size_t na, nb;
	char *x, *y;
	size_t ca, cb;
	uint64_t la, lb;

	if (size == 0)
		return 0;
	/* the reader: a walk and a skip agree */
	fold_json_init(&a, data + 1, size - 1);
	fold_json_init(&b, data + 1, size - 1);
	ra = walk(&a, data + 1, size - 1, 0);
	rb = fold_json_skip(&b);
	if (ra == 1 && (rb != 1 || fold_json_tell(&a) != fold_json_tell(&b)))
		abort();
	if (rb == 1 && ra == 1 && (fold_json_end(&a) == 1) !=
	    (fold_json_end(&b) == 1))
		abort();
	if ((ra < 0 && a.err == NULL) || (rb < 0 && b.err == NULL))
		abort();
	if (a.off > size || b.off > size)
		abort();
	fold_json_free(&a);
	fold_json_free(&b);

	/* the collapser */
	frac = 0;
	flags = data[0] & (FOLD_SAMPLY_ADDRS | FOLD_SAMPLY_PID |
	    FOLD_SAMPLY_TID | FOLD_SAMPLY_CPU);
	x = collapse(data + 1, size - 1, flags, 1, &na);
	check_folded();
	if (x == NULL)
		return 0;
	y = collapse(data + 1, size - 1, flags, 2, &nb);
	if (y == NULL) {	/* only a sum past 2^64 - 1 may fail */
		free(x);
		return 0;
	}
	if (total(x, na, &ca, &la) < 0 || total(y, nb, &cb, &lb) < 0 ||
	    ca != cb || (!frac && lb != 2 * la))
		abort();
	free(x);
	free(y);
	return 0;
}
