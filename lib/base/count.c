/* count.c - sample counts: exact integers, or decimals where given. */
#include <math.h>
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

/*
 * Fixed-point formatting as printf("%.Nf") does it (the exact binary value
 * rounded to the nearest, ties to even), without printf: v * scale is
 * computed exactly as p + e (fma gives the rounding error e), and only the
 * fraction of p, corrected by e's sign at an exact half, decides.  Returns
 * 0 and the scaled integer in *out for 0 <= v < 2^50 / scale, else -1.
 */
int
fold_scaled(double v, double scale, uint64_t *out)
{
	double p, e, f, frac;

	if (!(v >= 0) || v * scale >= 1125899906842624.0)
		return -1;
	p = v * scale;
	e = fma(v, scale, -p);
	f = floor(p);
	frac = p - f;
	if (frac > 0.5 || (frac == 0.5 && (e > 0 || (e == 0 &&
	    ((uint64_t)f & 1) == 1))))	/* f < 2^50: exact */
		f += 1;
	*out = (uint64_t)f;
	return 0;
}

size_t
fold_fmt_u64(char *buf, uint64_t v)
{
	char t[24], *p = t + sizeof(t);
	size_t n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	n = (size_t)(t + sizeof(t) - p);
	memcpy(buf, p, n);
	return n;
}

size_t
fold_fmt_fixed(char *buf, size_t size, double v, int decimals)
{
	static const double scales[] = { 1, 10, 100, 1000, 10000 };
	char t[32], *p = t + sizeof(t);
	uint64_t n;
	int k, r;

	/* Below 2^50 / scale: at most 16 digits, '.', 4 decimals. */
	if (decimals < 0 || decimals > 4 || size < sizeof(t) || signbit(v) ||
	    fold_scaled(v, scales[decimals], &n) != 0) {
		r = snprintf(buf, size, "%.*f", decimals, v);
		return r < 0 ? 0 : (size_t)r;
	}
	for (k = 0; k < decimals; k++) {
		*--p = (char)('0' + n % 10);
		n /= 10;
	}
	if (decimals > 0)
		*--p = '.';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	memcpy(buf, p, (size_t)(t + sizeof(t) - p));
	buf[t + sizeof(t) - p] = '\0';
	return (size_t)(t + sizeof(t) - p);
}

int
fold_num_cmp(fold_num a, fold_num b, int frac)
{
	if (frac) {
		double x = fold_num_dbl(a), y = fold_num_dbl(b);

		return (x > y) - (x < y);
	}
	return (a.i > b.i) - (a.i < b.i);
}
