/* esc.c - names into JSON strings, CSV and TSV fields, whatever bytes. */
#include <string.h>

#include "fold.h"

/* The UTF-8 character at s: see fold.h.  Shared by every escaper. */
size_t
fold_utf8_char(const unsigned char *s, size_t n, uint32_t *cp, int *bad)
{
	unsigned c = s[0];
	size_t len, k;
	uint32_t v;

	*bad = 0;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
	} else
		goto invalid;
	if (n < len)
		goto invalid;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			goto invalid;
		v = v << 6 | (s[k] & 0x3f);
	}
	if ((len == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))) ||
	    (len == 4 && (v < 0x10000 || v > 0x10ffff)))
		goto invalid;
	*cp = v;
	return len;
invalid:
	*bad = 1;
	*cp = c;
	return 1;
}

void
fo_json_str(const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t k = 0, run = 0, n;
	uint32_t cp;
	int bad;
	char esc[6];

	fo_putc('"');
	while (k < len) {
		unsigned c = s[k];

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
			run++;
			k++;
			continue;
		}
		fo_write(s + k - run, run);
		run = 0;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			fo_write(esc, 2);
			k++;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			fo_write(esc, 6);
			k++;
		} else {
			n = fold_utf8_char(s + k, len - k, &cp, &bad);
			if (bad)
				fo_puts("\\ufffd");	/* invalid UTF-8 byte */
			else
				fo_write(s + k, n);
			k += n;
		}
	}
	fo_write(s + k - run, run);
	fo_putc('"');
}

void
fo_csv_field(const char *s, size_t len)
{
	size_t k, start;

	if (len == 0 || (memchr(s, ',', len) == NULL && memchr(s, '"', len) ==
	    NULL && memchr(s, '\n', len) == NULL && memchr(s, '\r', len) ==
	    NULL && s[0] != ' ' && s[len - 1] != ' ')) {
		fo_write(s, len);
		return;
	}
	fo_putc('"');
	for (k = start = 0; k < len; k++) {
		if (s[k] == '"') {
			fo_write(s + start, k + 1 - start);
			fo_putc('"');
			start = k + 1;
		}
	}
	fo_write(s + start, len - start);
	fo_putc('"');
}

void
fo_tsv_field(const char *s, size_t len)
{
	size_t k, start;
	const char *e;

	for (k = start = 0; k < len; k++) {
		switch (s[k]) {
		case '\t': e = "\\t"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\\': e = "\\\\"; break;
		default: continue;
		}
		fo_write(s + start, k - start);
		fo_write(e, 2);
		start = k + 1;
	}
	fo_write(s + start, len - start);
}
