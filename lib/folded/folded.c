/* folded.c - the folded-stack format: "frame;frame;leaf COUNT". */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "folded/folded.h"

const char *
fold_errstr(int err)
{
	switch (err) {
	case FOLD_OK:
		return "ok";
	case FOLD_BLANK:
		return "blank line";
	case FOLD_ECOUNT:
		return "no count at the end of the line";
	case FOLD_ENEG:
		return "negative count";
	case FOLD_EBIG:
		return "count larger than 18446744073709551615";
	case FOLD_EEMPTY:
		return "no stack before the count";
	case FOLD_EOVERFLOW:
		return "sum of counts larger than 18446744073709551615";
	}
	return "invalid line";
}

static inline int
isblank_(char c)
{
	return c == ' ' || c == '\t';
}

/* Does [s, s+len) hold a count?  0 if so (parsed into *n). */
static int
count_at(const char *s, size_t len, fold_num *n)
{
	return fold_num_parse(s, len, n);
}

static int
has_dot(const char *s, size_t len)
{
	return memchr(s, '.', len) != NULL;
}

/*
 * The end of the stack before the blanks that end at line[cnt] (a count
 * starts there).  A stack that ends in ';' before two or more blanks has a
 * last frame of blanks, all of them but the one before the count: that is
 * how flamegraph.pl and the Perl one-liners (/^(.*)\s+(\d+)$/) read
 * "a;b;  3", and how collapsers write a frame whose name is a blank.
 */
static size_t
stack_end(const char *line, size_t cnt)
{
	size_t end = cnt;

	while (end > 0 && isblank_(line[end - 1]))
		end--;
	if (end > 0 && line[end - 1] == ';' && cnt - end >= 2)
		return cnt - 1;
	return end;
}

/*
 * The common line, "STACK COUNT" with one blank before a count of 1 to 19
 * digits and nothing after it: in one pass from the end.  1 if the line
 * is of that kind and not differential (s set as fold_parse_line() sets
 * it), 0 to leave it to the general parse.
 */
static inline int
plain_line(const char *line, size_t len, struct fold_sample *s)
{
	size_t k = len, st;
	uint64_t v = 0, m = 1;
	unsigned d;

	while (k > 0 && (d = (unsigned)(line[k - 1] - '0')) <= 9 &&
	    len - k < 19) {
		v += d * m;
		m *= 10;
		k--;
	}
	/* k - 1: the blank; the stack ends there, unless blanks or a
	 * second count come before it */
	if (k == len || k < 2 || !isblank_(line[k - 1]) ||
	    isblank_(line[k - 2]))
		return 0;
	for (st = k - 1; st > 0 && ((line[st - 1] >= '0' && line[st - 1] <= '9') ||
	    line[st - 1] == '.'); st--)
		;
	if (st < k - 1 && st > 0 && isblank_(line[st - 1]))
		return 0;	/* maybe STACK OLD NEW */
	s->count.i = v;
	s->count.f = 0;
	s->old.i = 0;
	s->old.f = 0;
	s->frac = 0;
	s->diff = 0;
	s->stack = line;
	s->stacklen = k - 1;
	return 1;
}

int
fold_parse_line(const char *line, size_t len, struct fold_sample *s)
{
	size_t end, k, st;
	int err;

	if (plain_line(line, len, s))
		return FOLD_OK;
	while (len > 0 && (line[len - 1] == '\r' || isblank_(line[len - 1])))
		len--;
	if (len == 0)
		return FOLD_BLANK;
	for (k = len; k > 0 && !isblank_(line[k - 1]); k--)
		;
	if ((err = count_at(line + k, len - k, &s->count)) != FOLD_OK)
		return err;
	if (k == 0)
		return FOLD_EEMPTY;
	s->frac = has_dot(line + k, len - k);
	end = stack_end(line, k);
	if (end == 0)
		return FOLD_EEMPTY;
	/* STACK OLD NEW: a second count before the first. */
	s->diff = 0;
	for (st = end; st > 0 && ((line[st - 1] >= '0' && line[st - 1] <= '9') ||
	    line[st - 1] == '.'); st--)
		;
	if (st > 0 && st < end && isblank_(line[st - 1]) &&
	    count_at(line + st, end - st, &s->old) == FOLD_OK) {
		k = stack_end(line, st);
		if (k == 0)	/* " OLD NEW": differential, no stack */
			return FOLD_EEMPTY;
		s->diff = 1;
		s->frac |= has_dot(line + st, end - st);
		end = k;
	}
	if (!s->diff) {
		s->old.i = 0;
		s->old.f = 0;
	}
	s->stack = line;
	s->stacklen = end;
	return FOLD_OK;
}

void
fold_reader_init(struct fold_reader *r, int nfiles, char **files, int strict)
{
	memset(r, 0, sizeof(*r));
	fold_in_init(&r->in, nfiles, files);
	r->strict = strict;
}

static void
reject(struct fold_reader *r, int err)
{
	if (r->strict)
		fold_die(1, "%s:%llu: invalid line: %s", r->in.name,
		    r->in.lineno, fold_errstr(err));
	if (r->invalid++ == 0) {
		r->first_err = err;
		r->first_file = xstrdup(r->in.name);
		r->first_line = r->in.lineno;
	}
	if (err == FOLD_EOVERFLOW && !r->overflow) {
		r->overflow = 1;
		fold_warn("%s:%llu: %s; line skipped", r->in.name,
		    r->in.lineno, fold_errstr(err));
	}
}

int
fold_read(struct fold_reader *r, struct fold_sample *s)
{
	const char *line;
	size_t len;
	fold_num t, o;
	int err;

	while (fold_in_line(&r->in, &line, &len)) {
		r->lines++;
		err = fold_parse_line(line, len, s);
		if (err == FOLD_BLANK)
			continue;
		if (err != FOLD_OK) {
			reject(r, err);
			continue;
		}
		t = r->total;
		o = r->total_old;
		if (fold_num_add(&t, s->count) < 0 ||
		    fold_num_add(&o, s->old) < 0) {
			reject(r, FOLD_EOVERFLOW);
			continue;
		}
		r->total = t;
		r->total_old = o;
		r->frac |= s->frac;
		r->diff |= s->diff;
		r->samples++;
		s->stable = r->in.mapped && r->in.map == FOLD_IN_KEEP;
		return 1;
	}
	return 0;
}

int
fold_reader_end(struct fold_reader *r)
{
	int status = r->in.status;

	if (r->invalid > 0)
		fold_warn("%s:%llu: %s (%llu invalid line%s skipped)",
		    r->first_file, r->first_line, fold_errstr(r->first_err),
		    (unsigned long long)r->invalid, r->invalid == 1 ? "" : "s");
	if (r->overflow)
		status = 1;
	free(r->first_file);
	r->first_file = NULL;
	fold_in_free(&r->in);
	return status;
}

int
fold_next_frame(const char *stack, size_t len, size_t *pos, const char **f,
    size_t *flen)
{
	const char *p, *semi;

	if (*pos > len)
		return 0;
	p = stack + *pos;
	semi = memchr(p, ';', len - *pos);
	*f = p;
	if (semi == NULL) {
		*flen = len - *pos;
		*pos = len + 1;
	} else {
		*flen = (size_t)(semi - p);
		*pos += *flen + 1;
	}
	return 1;
}

size_t
fold_strip_annotation(const char *name, size_t len)
{
	if (len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' &&
	    name[len - 1] == ']' && strchr("kjiw", name[len - 2]) != NULL &&
	    name[len - 2] != '\0')
		return len - 4;
	return len;
}

int
fold_reader_isdiff(struct fold_reader *r)
{
	struct fold_sample s;
	const char *line;
	size_t len, off = 0;
	int k, err;

	for (k = 0; k < 1000 && fold_in_peek(&r->in, &off, &line, &len); k++) {
		err = fold_parse_line(line, len, &s);
		if (err == FOLD_OK)
			return s.diff;
	}
	return 0;
}
