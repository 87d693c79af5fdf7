/*
 * jsoncheck - exit 0 if standard input is one valid JSON text (RFC 8259,
 * strings valid UTF-8), else print where it is not and exit 1.  A test
 * helper: the suite must not depend on python or jq.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *s;
static size_t n, i;

static void
fail(const char *why)
{
	fprintf(stderr, "jsoncheck: offset %zu: %s\n", i, why);
	exit(1);
}

static void
ws(void)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
}

static void value(int depth);

static void
string(void)
{
	i++;
	while (i < n && s[i] != '"') {
		unsigned c = s[i];

		if (c < 0x20)
			fail("control byte in string");
		if (c == '\\') {
			i++;
			if (i >= n)
				fail("end in escape");
			if (strchr("\"\\/bfnrt", s[i]) != NULL && s[i] != '\0')
				i++;
			else if (s[i] == 'u') {
				int k;

				for (k = 1; k <= 4; k++)
					if (i + k >= n || strchr("0123456789abcdefABCDEF", s[i + k]) == NULL || s[i + k] == '\0')
						fail("bad \\u escape");
				i += 5;
			} else
				fail("bad escape");
		} else if (c < 0x80)
			i++;
		else {
			int len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
			int k;

			if (len == 0 || (c >= 0xf5))
				fail("invalid UTF-8");
			for (k = 1; k < len; k++)
				if (i + (size_t)k >= n || (s[i + k] & 0xc0) != 0x80)
					fail("invalid UTF-8");
			i += (size_t)len;
		}
	}
	if (i >= n)
		fail("unterminated string");
	i++;
}

static void
number(void)
{
	size_t st = i;

	if (s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		fail("bad number");
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || s[i] < '0' || s[i] > '9')
			fail("bad fraction");
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || s[i] < '0' || s[i] > '9')
			fail("bad exponent");
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	(void)st;
}

static void
lit(const char *w)
{
	size_t l = strlen(w);

	if (n - i < l || memcmp(s + i, w, l) != 0)
		fail("unexpected token");
	i += l;
}

static void
value(int depth)
{
	if (depth > 512)
		fail("too deep");
	ws();
	if (i >= n)
		fail("unexpected end");
	switch (s[i]) {
	case '{':
		i++;
		ws();
		if (i < n && s[i] == '}') {
			i++;
			return;
		}
		for (;;) {
			ws();
			if (i >= n || s[i] != '"')
				fail("expected key");
			string();
			ws();
			if (i >= n || s[i] != ':')
				fail("expected ':'");
			i++;
			value(depth + 1);
			ws();
			if (i < n && s[i] == ',') {
				i++;
				continue;
			}
			if (i < n && s[i] == '}') {
				i++;
				return;
			}
			fail("expected ',' or '}'");
		}
	case '[':
		i++;
		ws();
		if (i < n && s[i] == ']') {
			i++;
			return;
		}
		for (;;) {
			value(depth + 1);
			ws();
			if (i < n && s[i] == ',') {
				i++;
				continue;
			}
			if (i < n && s[i] == ']') {
				i++;
				return;
			}
			fail("expected ',' or ']'");
		}
	case '"':
		string();
		return;
	case 't':
		lit("true");
		return;
	case 'f':
		lit("false");
		return;
	case 'n':
		lit("null");
		return;
	default:
		number();
	}
}

int
main(void)
{
	size_t cap = 1 << 16, r;

	s = malloc(cap);
	while (s != NULL && (r = fread(s + n, 1, cap - n, stdin)) > 0) {
		n += r;
		if (n == cap)
			s = realloc(s, cap *= 2);
	}
	if (s == NULL)
		fail("out of memory");
	value(0);
	ws();
	if (i != n)
		fail("trailing data");
	return 0;
}
