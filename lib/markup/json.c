/*
 * json.c - a strict pull reader of JSON text in memory (see markup.h).
 *
 * The reader keeps a position and, per open container, whether it is an
 * object and whether an element was seen (for the commas).  Strings
 * without escapes are handed out as pointers into the text; numbers are
 * converted exactly (Clinger's fast path where the digits allow it, else
 * strtod on a copy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "markup/markup.h"

enum { SEEN = 1, ISOBJ = 2 };

/* String bytes the fast scan stops at: '"', '\\', controls, non-ASCII. */
static unsigned char stop[256];
static int stop_ready;

static void
stop_init(void)
{
	int c;

	for (c = 0; c < 256; c++)
		stop[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
	stop_ready = 1;
}

void
fold_json_init(struct fold_json *j, const void *text, size_t n)
{
	memset(j, 0, sizeof(*j));
	j->text = j->p = text;
	j->end = j->text + n;
	if (!stop_ready)
		stop_init();
}

void
fold_json_seek(struct fold_json *j, size_t off)
{
	j->p = j->text + (off < (size_t)(j->end - j->text) ? off :
	    (size_t)(j->end - j->text));
	j->depth = 0;
}

void
fold_json_free(struct fold_json *j)
{
	free(j->buf);
	j->buf = NULL;
	j->cap = 0;
}

static const unsigned char *
ws(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'))
		p++;
	return p;
}

static int
fail_at(struct fold_json *j, const unsigned char *p, const char *what)
{
	if (j->err == NULL) {
		j->err = what;
		j->off = (size_t)(p - j->text);
	}
	return -1;
}

int
fold_json_fail(struct fold_json *j, const char *what)
{
	return fail_at(j, ws(j->p, j->end), what);
}

size_t
fold_json_tell(struct fold_json *j)
{
	j->p = ws(j->p, j->end);
	return (size_t)(j->p - j->text);
}

void
fold_json_where(const struct fold_json *j, size_t off, size_t *line,
    size_t *col)
{
	const unsigned char *p = j->text, *e, *nl;

	if (off > (size_t)(j->end - j->text))
		off = (size_t)(j->end - j->text);
	e = j->text + off;
	*line = 1;
	while ((nl = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		(*line)++;
		p = nl + 1;
	}
	*col = (size_t)(e - p) + 1;
}

int
fold_json_peek(struct fold_json *j)
{
	if (j->err != NULL)
		return FOLD_JSON_BAD;
	j->p = ws(j->p, j->end);
	if (j->p == j->end)
		return FOLD_JSON_BAD;
	switch (*j->p) {
	case 'n':
		return FOLD_JSON_NULL;
	case 't':
	case 'f':
		return FOLD_JSON_BOOL;
	case '"':
		return FOLD_JSON_STR;
	case '[':
		return FOLD_JSON_ARR;
	case '{':
		return FOLD_JSON_OBJ;
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			return FOLD_JSON_NUM;
		return FOLD_JSON_BAD;
	}
}

static int
enter(struct fold_json *j, int c, const char *what)
{
	if (j->err != NULL)
		return -1;
	j->p = ws(j->p, j->end);
	if (j->p == j->end)
		return fail_at(j, j->p, "the text ends where a value should be");
	if (*j->p != c)
		return fail_at(j, j->p, what);
	if (j->depth >= FOLD_JSON_MAXDEPTH)
		return fail_at(j, j->p, "nested deeper than 256 levels");
	j->p++;
	j->more[++j->depth] = c == '{' ? ISOBJ : 0;
	return 1;
}

int
fold_json_obj(struct fold_json *j)
{
	return enter(j, '{', "an object was expected");
}

int
fold_json_arr(struct fold_json *j)
{
	return enter(j, '[', "an array was expected");
}

/* Past the ',' before the next element, or the closing c (0). */
static int
comma(struct fold_json *j, int c)
{
	const unsigned char *p;

	if (j->err != NULL)
		return -1;
	p = j->p = ws(j->p, j->end);
	if (j->depth == 0)
		return fail_at(j, p, "no object or array is open");
	if (p == j->end)
		return fail_at(j, p, c == '}' ? "the text ends inside an "
		    "object" : "the text ends inside an array");
	if (*p == c) {
		j->p = p + 1;
		j->depth--;
		return 0;
	}
	if (j->more[j->depth] & SEEN) {
		if (*p != ',')
			return fail_at(j, p, c == '}' ? "',' or '}' was "
			    "expected" : "',' or ']' was expected");
		p = j->p = ws(p + 1, j->end);
		if (p < j->end && *p == c)
			return fail_at(j, p, "a comma before the end of an "
			    "object or array");
	}
	j->more[j->depth] |= SEEN;
	return 1;
}

static int scan_str(struct fold_json *j, struct fold_str *out);

int
fold_json_key(struct fold_json *j, struct fold_str *key)
{
	int r;

	if ((r = comma(j, '}')) <= 0)
		return r;
	if (j->p == j->end || *j->p != '"')
		return fail_at(j, j->p, "a key (a string) was expected");
	if (scan_str(j, key) < 0)
		return -1;
	j->p = ws(j->p, j->end);
	if (j->p == j->end || *j->p != ':')
		return fail_at(j, j->p, "':' was expected after a key");
	j->p++;
	return 1;
}

int
fold_json_next(struct fold_json *j)
{
	return comma(j, ']');
}

static int
hex4(const unsigned char *p, const unsigned char *end, uint32_t *v)
{
	int i, c;

	if (end - p < 4)
		return -1;
	for (*v = 0, i = 0; i < 4; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*v = *v << 4 | (uint32_t)c;
	}
	return 0;
}

static size_t
put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The string at j->p (its '"'), checked; decoded into *out when out is
 * not NULL (into the text when it has no escapes, else into j->buf).
 */
static int
scan_str(struct fold_json *j, struct fold_str *out)
{
	const unsigned char *p = j->p + 1, *start = p, *end = j->end;
	size_t n = 0, len;
	uint32_t cp, lo;
	int bad, esc = 0;

	for (;;) {
		while (p < end && !stop[*p])
			p++;
		if (p == end)
			return fail_at(j, j->p, "a string is not closed");
		if (*p == '"')
			break;
		if (!esc && out != NULL) {
			/* first escape or non-ASCII: copy from here on */
			esc = 1;
			n = (size_t)(p - start);
			fold_grow(&j->buf, &j->cap, n + 1, 1);
			memcpy(j->buf, start, n);
		} else if (esc) {
			/* the plain run before p */
			len = (size_t)(p - start);
			fold_grow(&j->buf, &j->cap, n + len + 1, 1);
			memcpy(j->buf + n, start, len);
			n += len;
		}
		if (*p < 0x20)
			return fail_at(j, p, "a control character in a "
			    "string");
		if (*p >= 0x80) {
			len = fold_utf8_char(p, (size_t)(end - p), &cp, &bad);
			if (bad)
				return fail_at(j, p, "invalid UTF-8 in a string");
			if (esc) {
				fold_grow(&j->buf, &j->cap, n + len + 1, 1);
				memcpy(j->buf + n, p, len);
				n += len;
			}
			p += len;
			start = p;
			continue;
		}
		/* a backslash */
		if (end - p < 2)
			return fail_at(j, j->p, "a string is not closed");
		switch (p[1]) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (hex4(p + 2, end, &cp) < 0)
				return fail_at(j, p, "a bad \\u escape");
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail_at(j, p, "a lone surrogate in a "
				    "\\u escape");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (end - p < 12 || p[6] != '\\' ||
				    p[7] != 'u' || hex4(p + 8, end, &lo) < 0 ||
				    lo < 0xdc00 || lo > 0xdfff)
					return fail_at(j, p, "a lone surrogate "
					    "in a \\u escape");
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				p += 6;
			}
			p += 4;
			break;
		default:
			return fail_at(j, p, "a bad escape in a string");
		}
		p += 2;
		if (esc) {
			fold_grow(&j->buf, &j->cap, n + 5, 1);
			n += put_utf8(j->buf + n, cp);
		}
		start = p;
	}
	if (out != NULL) {
		if (esc) {
			len = (size_t)(p - start);
			fold_grow(&j->buf, &j->cap, n + len + 1, 1);
			memcpy(j->buf + n, start, len);
			n += len;
			out->s = j->buf;
			out->len = n;
		} else {
			out->s = (const char *)start;
			out->len = (size_t)(p - start);
		}
	}
	j->p = p + 1;
	return 1;
}

int
fold_json_str(struct fold_json *j, struct fold_str *s)
{
	if (fold_json_peek(j) != FOLD_JSON_STR)
		return fail_at(j, j->p, "a string was expected");
	return scan_str(j, s);
}

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

#define ISDIGIT(c) ((unsigned)(c) - '0' < 10)

/*
 * The number at j->p, checked against the grammar.  *isint: it has no
 * fraction and no exponent and fits an int64_t (then *iv).  *dv: its
 * double, when dv is not NULL.
 */
static int
scan_num(struct fold_json *j, double *dv, int64_t *iv, int *isint)
{
	const unsigned char *p = j->p, *end = j->end, *start = p;
	uint64_t m = 0;
	int neg = 0, nd = 0, exact = 1, plain = 1;
	long e = 0, ee = 0;
	int eneg = 0;
	char small[64], *copy;
	size_t len;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (p == end || !ISDIGIT(*p))
		return fail_at(j, start, "a bad number");
	if (*p == '0') {
		p++;
		if (p < end && ISDIGIT(*p))
			return fail_at(j, start, "a number with a leading zero");
	} else {
		for (; p < end && ISDIGIT(*p); p++) {
			if (nd < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				if (m != 0)
					nd++;
			} else {
				exact = 0;
				e++;
			}
		}
	}
	if (p < end && *p == '.') {
		plain = 0;
		p++;
		if (p == end || !ISDIGIT(*p))
			return fail_at(j, start, "a bad number");
		for (; p < end && ISDIGIT(*p); p++) {
			if (nd < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				if (m != 0)
					nd++;
				e--;
			} else if (*p != '0')
				exact = 0;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		plain = 0;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || !ISDIGIT(*p))
			return fail_at(j, start, "a bad number");
		for (; p < end && ISDIGIT(*p); p++)
			if (ee < 100000)
				ee = ee * 10 + (*p - '0');
		e += eneg ? -ee : ee;
	}
	j->p = p;
	*isint = 0;
	if (plain && exact && m <= (uint64_t)INT64_MAX) {
		*isint = 1;
		*iv = neg ? -(int64_t)m : (int64_t)m;
	}
	if (dv == NULL)
		return 1;
	if (exact && m <= (1ULL << 53) && e >= -22 && e <= 22) {
		*dv = e < 0 ? (double)m / tens[-e] : (double)m * tens[e];
	} else {
		len = (size_t)(p - start);
		if (len < sizeof(small))
			copy = small;
		else {
			fold_grow(&j->buf, &j->cap, len + 1, 1);
			copy = j->buf;
		}
		memcpy(copy, start, len);
		copy[len] = '\0';
		*dv = strtod(copy, NULL);
		return 1;
	}
	if (neg)
		*dv = -*dv;
	return 1;
}

/* The end of the number at p (its grammar checked), or NULL. */
static const unsigned char *
num_end(const unsigned char *p, const unsigned char *end)
{
	if (p < end && *p == '-')
		p++;
	if (p == end)
		return NULL;
	if (*p == '0') {
		if (++p < end && ISDIGIT(*p))
			return NULL;
	} else if (ISDIGIT(*p)) {
		do
			p++;
		while (p < end && ISDIGIT(*p));
	} else
		return NULL;
	if (p < end && *p == '.') {
		if (++p == end || !ISDIGIT(*p))
			return NULL;
		do
			p++;
		while (p < end && ISDIGIT(*p));
	}
	if (p < end && (*p | 0x20) == 'e') {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !ISDIGIT(*p))
			return NULL;
		do
			p++;
		while (p < end && ISDIGIT(*p));
	}
	return p;
}

int
fold_json_num(struct fold_json *j, double *v)
{
	int64_t iv;
	int isint;

	if (fold_json_peek(j) != FOLD_JSON_NUM)
		return fail_at(j, j->p, "a number was expected");
	return scan_num(j, v, &iv, &isint);
}

int
fold_json_int(struct fold_json *j, int64_t *v)
{
	const unsigned char *at;
	double d;
	int isint;

	if (fold_json_peek(j) != FOLD_JSON_NUM)
		return fail_at(j, j->p, "an integer was expected");
	at = j->p;
	if (scan_num(j, NULL, v, &isint) < 0)
		return -1;
	if (isint)
		return 1;
	j->p = at;
	if (scan_num(j, &d, v, &isint) < 0)
		return -1;
	/* 1.0, 1e3: integers all the same, if exactly */
	if (d == floor(d) && fabs(d) <= 9007199254740992.0) {
		*v = (int64_t)d;
		return 1;
	}
	return fail_at(j, at, "an integer was expected");
}

static int
literal(struct fold_json *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return fail_at(j, j->p, "a bad literal (not null, true or "
		    "false)");
	j->p += n;
	return 1;
}

int
fold_json_null(struct fold_json *j)
{
	if (j->err != NULL)
		return -1;
	if (fold_json_peek(j) != FOLD_JSON_NULL)
		return 0;
	return literal(j, "null");
}

int
fold_json_bool(struct fold_json *j, int *v)
{
	if (fold_json_peek(j) != FOLD_JSON_BOOL)
		return fail_at(j, j->p, "true or false was expected");
	*v = *j->p == 't';
	return literal(j, *v ? "true" : "false");
}

int
fold_json_skip(struct fold_json *j)
{
	int d0 = j->depth, r, isint;
	int64_t iv;
	struct fold_str k;
	const unsigned char *p, *q;

	for (;;) {
		switch (fold_json_peek(j)) {
		case FOLD_JSON_NULL:
			r = literal(j, "null");
			break;
		case FOLD_JSON_BOOL:
			r = literal(j, *j->p == 't' ? "true" : "false");
			break;
		case FOLD_JSON_NUM:
			if ((q = num_end(j->p, j->end)) != NULL) {
				j->p = q;
				r = 1;
			} else
				r = scan_num(j, NULL, &iv, &isint);
			break;
		case FOLD_JSON_STR:
			r = scan_str(j, NULL);
			break;
		case FOLD_JSON_ARR:
			r = enter(j, '[', "");
			break;
		case FOLD_JSON_OBJ:
			r = enter(j, '{', "");
			break;
		default:
			if (j->err != NULL)
				return -1;
			if (j->p == j->end)
				return fail_at(j, j->p, "the text ends where a "
				    "value should be");
			return fail_at(j, j->p, "a value was expected");
		}
		if (r < 0)
			return -1;
		/* close what ends here; stop at the next value inside */
		for (;;) {
			if (j->depth == d0)
				return 1;
			/* an array's numbers after the first, quickly */
			while (!(j->more[j->depth] & ISOBJ)) {
				p = ws(j->p, j->end);
				if (p == j->end || *p != ',')
					break;
				p = ws(p + 1, j->end);
				if (p == j->end || !(ISDIGIT(*p) || *p == '-') ||
				    (q = num_end(p, j->end)) == NULL)
					break;
				j->p = q;
			}
			if (j->more[j->depth] & ISOBJ) {
				if ((r = fold_json_key(j, &k)) < 0)
					return -1;
			} else if ((r = comma(j, ']')) < 0)
				return -1;
			if (r == 1)
				break;
		}
	}
}

int
fold_json_end(struct fold_json *j)
{
	if (j->err != NULL)
		return -1;
	j->p = ws(j->p, j->end);
	if (j->p != j->end)
		return fail_at(j, j->p, "more text after the JSON value");
	return 1;
}
