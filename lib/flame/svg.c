/* svg.c - any bytes into well-formed XML 1.0 text and attribute values. */
#include <string.h>

#include "fold.h"
#include "flame/flame.h"

/* Bytes of the character at s as fo_xml() sees it, and whether it must
 * be replaced by U+FFFD. */
static size_t
xml_char(const unsigned char *s, size_t n, int raw8, int *repl)
{
	uint32_t cp;
	int bad;
	size_t l;

	if (s[0] >= 0x80 && raw8) {
		*repl = 0;
		return 1;
	}
	l = fold_utf8_char(s, n, &cp, &bad);
	*repl = bad || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
	    cp == 0xfffe || cp == 0xffff;
	return l;
}

size_t
fold_xml_chars(const char *str, size_t len, int raw8)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n = 0;
	int repl;

	while (i < len) {
		if (s[i] < 0x80)
			i++;
		else
			i += xml_char(s + i, len - i, raw8, &repl);
		n++;
	}
	return n;
}

void
fo_xml(const char *str, size_t len, int raw8, size_t maxchars)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0, l, nch = 0, limit = (size_t)-1;
	int repl;

	if (maxchars > 0 && fold_xml_chars(str, len, raw8) > maxchars)
		limit = maxchars >= 2 ? maxchars - 2 : 0;
	while (i < len && nch < limit) {
		unsigned c = s[i];

		/* Plain printable ASCII goes out in runs. */
		if (c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' &&
		    c != '"' && c != '\'') {
			i++;
			nch++;
			continue;
		}
		if (i > run)
			fo_write(s + run, i - run);
		l = c < 0x80 ? 1 : xml_char(s + i, len - i, raw8, &repl);
		if (c < 0x80)
			repl = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
		if (repl)
			fo_write("\xef\xbf\xbd", 3);
		else if (c == '&')
			fo_write("&amp;", 5);
		else if (c == '<')
			fo_write("&lt;", 4);
		else if (c == '>')
			fo_write("&gt;", 4);
		else if (c == '"')
			fo_write("&quot;", 6);
		else if (c == '\'')
			fo_write("&#39;", 5);
		else if (c == '\t')
			fo_write("&#9;", 4);
		else if (c == '\n')
			fo_write("&#10;", 5);
		else if (c == '\r')
			fo_write("&#13;", 5);
		else
			fo_write(s + i, l);
		i += l;
		nch++;
		run = i;
	}
	if (i > run)
		fo_write(s + run, i - run);
	if (limit != (size_t)-1)
		fo_write("..", 2);
}
