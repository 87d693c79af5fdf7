/* esc.c - names into JSON strings, CSV and TSV fields, whatever bytes. */
#include <string.h>

#include "fold.h"

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;	/* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0;	/* surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;
		if (c == 0xf4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

void
fo_json_str(const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t k = 0, run = 0, n;
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
		} else if ((n = utf8_len(s + k, len - k)) > 0) {
			fo_write(s + k, n);
			k += n;
		} else {
			fo_puts("\\ufffd");	/* invalid UTF-8 byte */
			k++;
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
