/*
 * xmlcheck - exit 0 if standard input is a well-formed XML 1.0 document
 * (UTF-8, characters in XML's Char range, tags nested and matched, unique
 * attributes with quoted values, only the predefined entities and valid
 * character references, one root element), else print where it is not and
 * exit 1.  A DOCTYPE without an internal subset is skipped.  A test
 * helper: the suite must not depend on python or xmllint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *s;
static size_t n, i;

static void
fail(const char *why)
{
	fprintf(stderr, "xmlcheck: offset %zu: %s\n", i, why);
	exit(1);
}

static int
ischar(unsigned long c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	    (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/* Decode one UTF-8 character at i, advance, return it (fail if bad). */
static unsigned long
uchar(void)
{
	unsigned long c = s[i], v;
	size_t len, k;

	if (c < 0x80)
		len = 1, v = c;
	else if (c >= 0xc2 && c <= 0xdf)
		len = 2, v = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, v = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, v = c & 0x07;
	else
		fail("invalid UTF-8");
	if (i + len > n)
		fail("truncated UTF-8");
	for (k = 1; k < len; k++) {
		if ((s[i + k] & 0xc0) != 0x80)
			fail("invalid UTF-8");
		v = v << 6 | (s[i + k] & 0x3f);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000))
		fail("overlong UTF-8");
	if (!ischar(v))
		fail("character not allowed in XML");
	i += len;
	return v;
}

static int
namestart(unsigned c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	    c == ':' || c >= 0x80;
}

static int
namechar(unsigned c)
{
	return namestart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static size_t
name(void)
{
	size_t st = i;

	if (i >= n || !namestart(s[i]))
		fail("name expected");
	while (i < n && namechar(s[i]))
		i++;
	return i - st;
}

static void
ws(void)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
}

static int
at(const char *p)
{
	size_t l = strlen(p);

	return i + l <= n && memcmp(s + i, p, l) == 0;
}

/* An entity or character reference at '&'. */
static void
ref(void)
{
	unsigned long v = 0;

	i++;
	if (i < n && s[i] == '#') {
		int hex = 0, digits = 0;

		i++;
		if (i < n && s[i] == 'x')
			hex = 1, i++;
		for (; i < n && s[i] != ';'; i++, digits++) {
			unsigned c = s[i];

			if (c >= '0' && c <= '9')
				v = v * (hex ? 16 : 10) + (c - '0');
			else if (hex && c >= 'a' && c <= 'f')
				v = v * 16 + (c - 'a' + 10);
			else if (hex && c >= 'A' && c <= 'F')
				v = v * 16 + (c - 'A' + 10);
			else
				fail("bad character reference");
			if (v > 0x10ffff)
				fail("character reference out of range");
		}
		if (i >= n || digits == 0 || !ischar(v))
			fail("bad character reference");
		i++;
		return;
	}
	if (at("amp;"))
		i += 4;
	else if (at("lt;") || at("gt;"))
		i += 3;
	else if (at("quot;") || at("apos;"))
		i += 5;
	else
		fail("unknown entity");
}

static void
comment(void)
{
	i += 4;
	for (;;) {
		if (i >= n)
			fail("unterminated comment");
		if (at("--")) {
			if (!at("-->"))
				fail("'--' in a comment");
			i += 3;
			return;
		}
		uchar();
	}
}

static void
pi(void)
{
	i += 2;
	name();
	for (;;) {
		if (i >= n)
			fail("unterminated processing instruction");
		if (at("?>")) {
			i += 2;
			return;
		}
		uchar();
	}
}

static void
misc(void)
{
	for (;;) {
		ws();
		if (at("<!--"))
			comment();
		else if (at("<?"))
			pi();
		else
			return;
	}
}

static void
element(int depth)
{
	size_t nst, nlen, an[256], al[256], na = 0, k;

	if (depth > 100000)
		fail("too deep");
	i++;	/* '<' */
	nst = i;
	nlen = name();
	for (;;) {
		int sp = i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r');

		ws();
		if (i >= n)
			fail("unterminated tag");
		if (at("/>")) {
			i += 2;
			return;
		}
		if (s[i] == '>') {
			i++;
			break;
		}
		if (!sp)
			fail("space expected before attribute");
		an[na] = i;
		al[na] = name();
		for (k = 0; k < na; k++)
			if (al[k] == al[na] && memcmp(s + an[k], s + an[na],
			    al[k]) == 0)
				fail("duplicate attribute");
		if (na < 255)
			na++;
		ws();
		if (i >= n || s[i] != '=')
			fail("'=' expected");
		i++;
		ws();
		if (i >= n || (s[i] != '"' && s[i] != '\''))
			fail("quoted value expected");
		{
			unsigned char q = s[i++];

			for (;;) {
				if (i >= n)
					fail("unterminated attribute value");
				if (s[i] == q) {
					i++;
					break;
				}
				if (s[i] == '<')
					fail("'<' in an attribute value");
				if (s[i] == '&')
					ref();
				else
					uchar();
			}
		}
	}
	/* Content. */
	for (;;) {
		if (i >= n)
			fail("unclosed element");
		if (at("</")) {
			i += 2;
			if (i + nlen > n || memcmp(s + i, s + nst, nlen) != 0)
				fail("mismatched end tag");
			i += nlen;
			if (i < n && namechar(s[i]))
				fail("mismatched end tag");
			ws();
			if (i >= n || s[i] != '>')
				fail("'>' expected");
			i++;
			return;
		}
		if (at("<!--"))
			comment();
		else if (at("<![CDATA[")) {
			i += 9;
			for (;;) {
				if (i >= n)
					fail("unterminated CDATA section");
				if (at("]]>")) {
					i += 3;
					break;
				}
				uchar();
			}
		} else if (at("<?"))
			pi();
		else if (s[i] == '<')
			element(depth + 1);
		else if (s[i] == '&')
			ref();
		else if (at("]]>"))
			fail("']]>' in text");
		else
			uchar();
	}
}

int
main(void)
{
	size_t cap = 1 << 16, r;

	s = malloc(cap);
	while ((r = fread(s + n, 1, cap - n, stdin)) > 0) {
		n += r;
		if (n == cap && (s = realloc(s, cap *= 2)) == NULL)
			return 2;
	}
	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	if (at("<?xml")) {
		if (i + 5 < n && s[i + 5] != ' ' && s[i + 5] != '?')
			fail("bad XML declaration");
		pi();
	}
	misc();
	if (at("<!DOCTYPE")) {
		while (i < n && s[i] != '>' && s[i] != '[')
			uchar();
		if (i >= n || s[i] != '>')
			fail("DOCTYPE with an internal subset not supported");
		i++;
	}
	misc();
	if (i >= n || s[i] != '<')
		fail("root element expected");
	element(0);
	misc();
	if (i < n)
		fail("content after the root element");
	return 0;
}
