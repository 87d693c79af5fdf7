/* regex.c - POSIX ERE from libc, with Perl's shorthands translated. */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"

#define NMATCH 20	/* groups looked at for a capture */

struct sbuf {
	char *s;
	size_t len, cap;
};

static void
sadd(struct sbuf *b, const char *s, size_t n)
{
	fold_grow(&b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sadds(struct sbuf *b, const char *s)
{
	sadd(b, s, strlen(s));
}

/* The bracket expression for a Perl class letter, NULL if not one. */
static const char *
perlclass(char c, int inside)
{
	switch (c) {
	case 'w': return inside ? "[:alnum:]_" : "[[:alnum:]_]";
	case 'W': return inside ? NULL : "[^[:alnum:]_]";
	case 'd': return inside ? "0-9" : "[0-9]";
	case 'D': return inside ? NULL : "[^0-9]";
	case 's': return inside ? "[:space:]" : "[[:space:]]";
	case 'S': return inside ? NULL : "[^[:space:]]";
	}
	return NULL;
}

/*
 * Translate the bracket expression starting at pat[*i] == '['.  POSIX has
 * no escapes inside brackets and wants ']' first and '-' last, so the set is
 * rebuilt: items in order, with ']' '^' '-' '\\' placed where POSIX reads them
 * literally.
 */
static int
bracket(const char *pat, size_t *i, struct sbuf *out, char *err, size_t errlen)
{
	struct sbuf items = { NULL, 0, 0 };
	size_t k = *i + 1;
	int neg = 0, rbr = 0, caret = 0, dash = 0, first = 1;
	const char *cls;
	char c;

	if (pat[k] == '^') {
		neg = 1;
		k++;
	}
	for (;; first = 0) {
		c = pat[k];
		if (c == '\0') {
			snprintf(err, errlen, "unterminated [");
			free(items.s);
			return -1;
		}
		if (c == ']' && !first)
			break;
		if (c == ']') {
			rbr = 1;
			k++;
		} else if (c == '[' && (pat[k + 1] == ':' || pat[k + 1] == '=' ||
		    pat[k + 1] == '.')) {
			const char *e;
			char close[3] = { pat[k + 1], ']', '\0' };

			e = strstr(pat + k + 2, close);
			if (e == NULL) {
				snprintf(err, errlen, "unterminated [%c", pat[k + 1]);
				free(items.s);
				return -1;
			}
			sadd(&items, pat + k, (size_t)(e + 2 - (pat + k)));
			k = (size_t)(e + 2 - pat);
		} else if (c == '\\') {
			c = pat[k + 1];
			if (c == '\0') {
				snprintf(err, errlen, "trailing backslash");
				free(items.s);
				return -1;
			}
			k += 2;
			if ((cls = perlclass(c, 1)) != NULL)
				sadds(&items, cls);
			else if (c == 'W' || c == 'D' || c == 'S') {
				snprintf(err, errlen, "\\%c inside [...] is not "
				    "supported", c);
				free(items.s);
				return -1;
			} else if (c == ']')
				rbr = 1;
			else if (c == '^')
				caret = 1;
			else if (c == '-')
				dash = 1;
			else if (c == 'n')
				sadd(&items, "\n", 1);
			else if (c == 't')
				sadd(&items, "\t", 1);
			else
				sadd(&items, &c, 1);
		} else if (c == '^') {
			caret = 1;
			k++;
		} else if (c == '-' && (first || pat[k + 1] == ']')) {
			dash = 1;
			k++;
		} else {
			sadd(&items, &c, 1);
			k++;
		}
	}
	*i = k + 1;
	if (!neg && !rbr && items.len == 0 && !dash && caret) {
		sadds(out, "\\^");
		free(items.s);
		return 0;
	}
	sadds(out, neg ? "[^" : "[");
	if (rbr)
		sadds(out, "]");
	if (items.len > 0)
		sadd(out, items.s, items.len);
	if (caret)
		sadds(out, "^");
	if (dash)
		sadds(out, "-");
	sadds(out, "]");
	free(items.s);
	return 0;
}

char *
fold_re_translate(const char *pat, uint64_t *capmask, char *err,
    size_t errlen)
{
	struct sbuf out = { NULL, 0, 0 };
	size_t i = 0, ngroups = 0;
	const char *cls;
	char c;

	*capmask = 0;
	sadds(&out, "");
	while ((c = pat[i]) != '\0') {
		if (c == '\\') {
			c = pat[i + 1];
			if (c == '\0') {
				snprintf(err, errlen, "trailing backslash");
				goto fail;
			}
			if ((cls = perlclass(c, 0)) != NULL)
				sadds(&out, cls);
			else if (c == 'n')
				sadds(&out, "\n");
			else if (c == 't')
				sadds(&out, "\t");
			else
				sadd(&out, pat + i, 2);
			i += 2;
		} else if (c == '[') {
			if (bracket(pat, &i, &out, err, errlen) < 0)
				goto fail;
		} else if (c == '(') {
			ngroups++;
			if (pat[i + 1] == '?') {
				if (pat[i + 2] != ':') {
					snprintf(err, errlen, "(?%c...) is not "
					    "supported", pat[i + 2] ? pat[i + 2] : ' ');
					goto fail;
				}
				i += 3;
			} else {
				if (ngroups < 64)
					*capmask |= (uint64_t)1 << ngroups;
				i++;
			}
			sadds(&out, "(");
		} else if ((c == '?' || c == '+') && i > 0 &&
		    strchr("*+?}", pat[i - 1]) != NULL &&
		    (i < 2 || pat[i - 2] != '\\')) {
			i++;	/* lazy or possessive quantifier: drop */
		} else {
			sadd(&out, &c, 1);
			i++;
		}
	}
	return out.s;
fail:
	free(out.s);
	return NULL;
}

int
fold_re_compile(struct fold_re *re, const char *pat, int flags, char *err,
    size_t errlen)
{
	char *ere;
	int rc;

	memset(re, 0, sizeof(*re));
	re->flags = flags;
	if (flags & FOLD_RE_FIXED) {
		re->lit = xstrdup(pat);
		re->litlen = strlen(pat);
		if (!(flags & FOLD_RE_ICASE)) {
			re->need = xstrdup(pat);
			re->needlen = re->litlen;
		}
		return 0;
	}
	if ((ere = fold_re_translate(pat, &re->capmask, err, errlen)) == NULL)
		return -1;
	re->re = xmalloc(sizeof(regex_t));
	rc = regcomp(re->re, ere, REG_EXTENDED |
	    ((flags & FOLD_RE_ICASE) ? REG_ICASE : 0));
	free(ere);
	if (rc != 0) {
		regerror(rc, re->re, err, errlen);
		free(re->re);
		re->re = NULL;
		return -1;
	}
	re->compiled = 1;
	if (!(flags & FOLD_RE_ICASE) &&
	    pat[strcspn(pat, "\\.[]()*+?{}|^$")] == '\0') {
		re->need = xstrdup(pat);	/* no special character */
		re->needlen = strlen(pat);
	}
	return 0;
}

size_t
fold_re_needed(const struct fold_re *re, const char **lit)
{
	*lit = re->need;
	return re->need != NULL ? re->needlen : 0;
}

/*
 * Candidates are the places where both the needle's first and last bytes
 * are (two compares a position, 16 positions a step with SSE2), so that a
 * common first byte does not cost a call of memcmp each time it is seen.
 */
const char *
fold_memmem(const char *s, size_t len, const char *needle, size_t n)
{
	const char *p = s, *end = s + len;
	unsigned char c0, c1;

	if (n == 0)
		return s;
	if (n > len)
		return NULL;
	if (n == 1)
		return memchr(s, needle[0], len);
	c0 = (unsigned char)needle[0];
	c1 = (unsigned char)needle[n - 1];
	/* the last place a match can start */
	end = s + len - n;
#ifdef __SSE2__
	{
		const __m128i f = _mm_set1_epi8((char)c0);
		const __m128i l = _mm_set1_epi8((char)c1);
		unsigned m;
		size_t k;

		for (; end - p >= 15; p += 16) {
			m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
			    _mm_cmpeq_epi8(f, _mm_loadu_si128(
			    (const __m128i *)(const void *)p)),
			    _mm_cmpeq_epi8(l, _mm_loadu_si128(
			    (const __m128i *)(const void *)(p + n - 1)))));
			while (m != 0) {
#if defined(__GNUC__) || defined(__clang__)
				k = (size_t)__builtin_ctz(m);
#else
				for (k = 0; !(m >> k & 1); k++)
					;
#endif
				if (memcmp(p + k + 1, needle + 1, n - 2) == 0)
					return p + k;
				m &= m - 1;
			}
		}
	}
#endif
	for (; p <= end; p++) {
#ifndef __SSE2__
		/* (libc's memchr is fast where SSE2 is not there) */
		if ((p = memchr(p, c0, (size_t)(end - p) + 1)) == NULL)
			return NULL;
#endif
		if ((unsigned char)p[0] == c0 && (unsigned char)p[n - 1] == c1 &&
		    memcmp(p + 1, needle + 1, n - 2) == 0)
			return p;
	}
	return NULL;
}

static int
lowereq(const char *a, const char *b, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (tolower((unsigned char)a[k]) != tolower((unsigned char)b[k]))
			return 0;
	return 1;
}

int
fold_re_match(struct fold_re *re, const char *s, size_t len, size_t *so,
    size_t *eo)
{
	regmatch_t m[NMATCH];
	size_t k, n, g;

	if (re->lit != NULL) {
		n = re->litlen;
		for (k = 0; n <= len && k <= len - n; k++) {
			if ((re->flags & FOLD_RE_ICASE) ? lowereq(s + k, re->lit, n)
			    : memcmp(s + k, re->lit, n) == 0) {
				if (so != NULL)
					*so = k;
				if (eo != NULL)
					*eo = k + n;
				return 1;
			}
		}
		return 0;
	}
	if (!re->compiled)
		return 0;
	fold_grow(&re->scratch, &re->scap, len + 1, 1);
	memcpy(re->scratch, s, len);
	re->scratch[len] = '\0';
	if (regexec(re->re, re->scratch, NMATCH, m, 0) != 0)
		return 0;
	for (g = 1; g < NMATCH; g++)
		if ((re->capmask >> g & 1) && m[g].rm_so >= 0)
			break;
	if (g == NMATCH)
		g = 0;
	if (so != NULL)
		*so = (size_t)m[g].rm_so;
	if (eo != NULL)
		*eo = (size_t)m[g].rm_eo;
	return 1;
}

void
fold_re_free(struct fold_re *re)
{
	if (re->re != NULL) {
		regfree(re->re);
		free(re->re);
	}
	free(re->lit);
	free(re->need);
	free(re->scratch);
	memset(re, 0, sizeof(*re));
}

void
fold_re_xcompile(struct fold_re *re, const char *pat, int flags)
{
	char err[256];

	if (fold_re_compile(re, pat, flags, err, sizeof(err)) < 0)
		fold_die(2, "bad pattern '%s': %s", pat, err);
}
