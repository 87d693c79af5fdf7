/* count.c - sample counts: exact integers, or decimals where given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"

int
fold_num_parse(const char *s, size_t len, fold_num *out)
{
	char tmp[64];
	size_t k, dot = len;
	uint64_t v = 0;

	if (len == 0)
		return FOLD_ECOUNT;
	if (s[0] == '-') {
		for (k = 1; k < len && (s[k] >= '0' && s[k] <= '9'); k++)
			;
		return k > 1 && k == len ? FOLD_ENEG : FOLD_ECOUNT;
	}
	for (k = 0; k < len; k++) {
		if (s[k] == '.' && dot == len && k > 0)
			dot = k;
		else if (s[k] < '0' || s[k] > '9')
			return FOLD_ECOUNT;
	}
	out->i = 0;
	out->f = 0;
	if (dot == len) {
		for (k = 0; k < len; k++) {
			unsigned d = (unsigned)(s[k] - '0');

			if (v > (UINT64_MAX - d) / 10)
				return FOLD_EBIG;
			v = v * 10 + d;
		}
		out->i = v;
		return FOLD_OK;
	}
	/* A decimal: the integer part exactly, the fraction as a double. */
	for (k = 0; k < dot; k++) {
		unsigned d = (unsigned)(s[k] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return FOLD_EBIG;
		v = v * 10 + d;
	}
	out->i = v;
	tmp[0] = '0';
	k = len - dot;		/* ".ddd" */
	if (k > sizeof(tmp) - 2)
		k = sizeof(tmp) - 2;	/* digits past 60 do not matter */
	memcpy(tmp + 1, s + dot, k);
	tmp[k + 1] = '\0';
	out->f = strtod(tmp, NULL);
	return FOLD_OK;
}

size_t
fold_fmt_double(char *buf, double d)
{
	int prec, n = 0;

	for (prec = 1; prec <= 17; prec++) {
		n = snprintf(buf, 48, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* %g may choose an exponent; write plain decimals instead. */
	if (strchr(buf, 'e') != NULL) {
		n = snprintf(buf, 48, "%.6f", d);
		while (n > 1 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 1 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	return (size_t)n;
}

void
fo_num(fold_num n, int frac)
{
	char buf[48];

	if (!frac) {
		fo_u64(n.i);
		return;
	}
	fo_write(buf, fold_fmt_double(buf, fold_num_dbl(n)));
}
