/*
 * xml.c - a streaming XML reader: events pulled one at a time from large
 * reads (see markup.h for the contract).
 *
 * A token (a tag, a run of text, a comment...) is parsed only once it is
 * whole in the buffer: a parser that reaches the end of the data read so
 * far changes nothing and returns NEED; more is read (the token moved to
 * the front of the buffer, which grows when it is full) and the token is
 * parsed again from its start.  Values are decoded (into dec, never in
 * the buffer, which may be a read-only map) once their tag is known to be
 * whole: decoding never lengthens a value.  PAD NUL
 * bytes always follow the data read (the buffer has them to spare), so
 * that the scans of names, blanks and values stop there by themselves,
 * and those that look at 8 bytes at a time never read past the buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "markup/markup.h"

enum { OK = 0, NEED = 1, BAD = 2 };
#define PAD FOLD_XML_PAD

/*
 * Where little-endian words and a count of trailing zeros are at hand,
 * scans look at 8 bytes at a time and find the first byte they stop at in
 * the word from its flag bit; elsewhere a byte at a time.
 */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDS 1
#define FIRST(m) ((size_t)__builtin_ctzll(m) >> 3)
#else
#define WORDS 0
#define FIRST(m) ((size_t)0)
#endif
/* and SSE2 (every x86-64) to look at 16 */
#if WORDS && defined(__SSE2__)
#include <emmintrin.h>
#define SSE2 1
#else
#define SSE2 0
#endif

/* byte classes */
enum { C_NAME = 1, C_START = 2, C_WS = 4, C_VAL = 8 };
static unsigned char cls[256];

static void
init_cls(void)
{
	int c;

	if (cls['a'])
		return;
	for (c = 0; c < 256; c++) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    c == '_' || c == ':' || c >= 0x80)
			cls[c] |= C_NAME | C_START;
		if ((c >= '0' && c <= '9') || c == '-' || c == '.')
			cls[c] |= C_NAME;
	}
	cls[' '] = cls['\t'] = cls['\n'] = cls['\r'] = C_WS;
	/* what ends or needs a look in an attribute value */
	cls['"'] |= C_VAL;
	cls['\''] |= C_VAL;
	cls['&'] |= C_VAL;
	cls['<'] |= C_VAL;
	cls['\t'] |= C_VAL;
	cls['\n'] |= C_VAL;
	cls['\r'] |= C_VAL;
	cls[0] |= C_VAL;	/* the sentinel after the data read */
}

static int FOLD_PRINTF(3, 4)
fail(struct fold_xml *x, size_t at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, sizeof(x->why), fmt, ap);
	va_end(ap);
	if (at > x->at)
		x->at = at;
	x->err = 1;
	x->type = FOLD_XML_ERROR;
	return BAD;
}

void
fold_xml_init(struct fold_xml *x, int fd, const void *data, size_t n,
    size_t chunk)
{
	init_cls();
	memset(x, 0, sizeof(*x));
	x->fd = fd;
	x->src = data;
	x->srclen = n;
	x->chunk = chunk;
	x->cap = 256 << 10;
	x->buf = xmalloc(x->cap + PAD);
	memset(x->buf, 0, PAD);
	x->line = 1;
}

void
fold_xml_whole(struct fold_xml *x, const char *data, size_t n)
{
	init_cls();
	memset(x, 0, sizeof(*x));
	x->fd = -1;
	x->whole = 1;
	x->buf = (char *)(uintptr_t)data;	/* never written: see fill() */
	x->cap = x->end = n;
	x->eof = 1;
	x->line = 1;
}

void
fold_xml_free(struct fold_xml *x)
{
	if (!x->whole)
		free(x->buf);
	free(x->attrs);
	free(x->names);
	free(x->dec);
	x->dec = NULL;
	x->buf = NULL;
	x->attrs = NULL;
	x->names = NULL;
}

/* count the lines of buf[lpos, to) */
static void
count_lines(struct fold_xml *x, size_t to)
{
	const char *p = x->buf + x->lpos, *e = x->buf + to;

	while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		x->line++;
		p++;
	}
	x->lpos = to;
}

unsigned long long
fold_xml_line(struct fold_xml *x)
{
	if (x->at > x->lpos)
		count_lines(x, x->at);
	return x->line;
}

/*
 * More input: what is unread (from pos) goes to the front, the buffer
 * grows if that fills it, then one read.  0: read; -1: an error (set).
 */
static int
fill(struct fold_xml *x)
{
	size_t keep = x->end - x->pos, room, n;
	ssize_t r;

	if (x->eof)
		return 0;
	if (x->pos > 0) {
		if (x->lpos < x->pos)
			count_lines(x, x->pos);
		x->lpos -= x->pos;
		x->at = x->at > x->pos ? x->at - x->pos : 0;
		x->base += x->pos;
		memmove(x->buf, x->buf + x->pos, keep);
		x->pos = 0;
		x->end = keep;
	}
	if (keep == x->cap) {
		if (x->cap >= FOLD_XML_MAXTOKEN) {
			fail(x, 0, "markup or text longer than %u MiB",
			    FOLD_XML_MAXTOKEN >> 20);
			return -1;
		}
		x->cap *= 2;
		x->buf = xrealloc(x->buf, x->cap + PAD);
	}
	room = x->cap - x->end;
	if (x->fd < 0) {
		n = x->srclen - x->srcoff;
		if (x->chunk > 0 && n > x->chunk)
			n = x->chunk;
		if (n > room)
			n = room;
		memcpy(x->buf + x->end, x->src + x->srcoff, n);
		x->srcoff += n;
		x->end += n;
		memset(x->buf + x->end, 0, PAD);
		if (n == 0)
			x->eof = 1;
		return 0;
	}
	/*
	 * Until the buffer is full (or the end): a token is parsed again
	 * from its start after each fill, so fills of a pipe's small reads
	 * would make a long token cost its length squared.
	 */
	while (room > 0) {
		r = read(x->fd, x->buf + x->end, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fail(x, x->end, "read error: %s", strerror(errno));
			return -1;
		}
		if (r == 0) {
			x->eof = 1;
			break;
		}
		x->end += (size_t)r;
		room -= (size_t)r;
	}
	memset(x->buf + x->end, 0, PAD);
	return 0;
}

/* ---- decoding ---------------------------------------------------------- */

static size_t
put_utf8(char *o, unsigned long c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * The reference at s[0] == '&' (n bytes left): its length (to ';'
 * included) with its bytes in o (*on of them, 4 at most), or 0 after an
 * error.  Each form is at most 12 bytes long and writes fewer bytes than
 * it takes.
 */
static size_t
entity(struct fold_xml *x, const char *s, size_t n, char *o, size_t *on)
{
	size_t i, k;
	unsigned long c = 0;
	int hex, dg;

	for (k = 1; k < n && k < 12 && s[k] != ';'; k++)
		;
	if (k >= n || s[k] != ';') {
		fail(x, (size_t)(s - x->buf), "'&' not followed by an "
		    "entity or character reference ending in ';'");
		return 0;
	}
	if (k == 4 && memcmp(s + 1, "amp", 3) == 0)
		o[0] = '&';
	else if (k == 3 && memcmp(s + 1, "lt", 2) == 0)
		o[0] = '<';
	else if (k == 3 && memcmp(s + 1, "gt", 2) == 0)
		o[0] = '>';
	else if (k == 5 && memcmp(s + 1, "quot", 4) == 0)
		o[0] = '"';
	else if (k == 5 && memcmp(s + 1, "apos", 4) == 0)
		o[0] = '\'';
	else if (s[1] == '#') {
		hex = k > 2 && s[2] == 'x';
		i = hex ? 3 : 2;
		if (i == k)
			goto badnum;
		for (; i < k; i++) {
			if (s[i] >= '0' && s[i] <= '9')
				dg = s[i] - '0';
			else if (hex && s[i] >= 'a' && s[i] <= 'f')
				dg = s[i] - 'a' + 10;
			else if (hex && s[i] >= 'A' && s[i] <= 'F')
				dg = s[i] - 'A' + 10;
			else
				goto badnum;
			c = c * (hex ? 16 : 10) + (unsigned long)dg;
			if (c > 0x10ffff)
				goto badnum;
		}
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
			goto badnum;
		*on = put_utf8(o, c);
		return k + 1;
	} else {
		fail(x, (size_t)(s - x->buf), "unknown entity &%.*s; (only "
		    "&amp; &lt; &gt; &quot; &apos; and character references: "
		    "no DTD entity is expanded)", (int)(k - 1), s + 1);
		return 0;
	}
	*on = 1;
	return k + 1;
badnum:
	fail(x, (size_t)(s - x->buf), "bad character reference &%.*s;",
	    (int)(k - 1), s + 1);
	return 0;
}

/*
 * Room for n more decoded bytes in dec (decoded text is never longer than
 * what it was written as).  Called before the values of a token are
 * decoded: they point into dec, which must not move under them.
 */
static void
dec_room(struct fold_xml *x, size_t n)
{
	if (x->dused + n > x->dcap) {
		x->dcap = x->dused + n;
		x->dec = xrealloc(x->dec, x->dcap);
	}
}

/*
 * Decode *s[0..*n): an attribute value (attr) or text.  Until the first
 * byte decoding changes, nothing is written; from there on the value is
 * made in dec (room for *n made by the caller) and *s points there.  The
 * bytes read are never changed, so the lines are counted as written.  0,
 * or -1 after an error.
 */
static int
decode(struct fold_xml *x, const char **sp, size_t *n, int attr)
{
	const char *s = *sp;
	char *d = NULL;			/* NULL: nothing changed yet */
	size_t i = 0, j = 0, len = *n, k, on;
	char o[4];
	unsigned char c;
#if WORDS
	uint64_t v, m, ma = ONES * '&', ml = ONES * '<';
#endif

	while (i < len) {
#if WORDS
		/* a run that stays as it is: '&', '<' and below 0x20 stop it */
		if (i + 8 <= len) {
			memcpy(&v, s + i, 8);
			m = ((v ^ ma) - ONES) & ~(v ^ ma);
			m |= ((v ^ ml) - ONES) & ~(v ^ ml);
			m |= (v - ONES * 0x20) & ~v;
			k = m & HIGHS ? FIRST(m & HIGHS) : 8;
			if (d == NULL)
				i = j += k;
			else
				while (k-- > 0)
					d[j++] = s[i++];
			if (i >= len)
				break;
		}
#endif
		c = (unsigned char)s[i];
		if (d == NULL && (c == '&' || c == '\r' ||
		    (attr && (c == '\n' || c == '\t')))) {
			/* the first change: what came before it to dec */
			d = x->dec + x->dused;
			memcpy(d, s, j);
		}
		if (c == '&') {
			k = entity(x, s + i, len - i, o, &on);
			if (k == 0)
				return -1;
			memcpy(d + j, o, on);
			j += on;
			i += k;
		} else if (c == '\r') {
			d[j++] = attr ? ' ' : '\n';
			i += i + 1 < len && s[i + 1] == '\n' ? 2 : 1;
		} else if (attr && (c == '\n' || c == '\t')) {
			d[j++] = ' ';
			i++;
		} else if (attr && c == '<') {
			fail(x, (size_t)(s + i - x->buf),
			    "'<' in an attribute value");
			return -1;
		} else if (d != NULL)
			d[j++] = s[i++];
		else
			i = ++j;
	}
	if (d != NULL) {
		*sp = d;
		x->dused += j;
	}
	*n = j;
	return 0;
}

/* ---- tokens ------------------------------------------------------------ */

/* The first n bytes of pat at or after buf[from], else NULL. */
static const char *
find(struct fold_xml *x, size_t from, const char *pat, size_t n)
{
	if (from > x->end)
		return NULL;
	return fold_memmem(x->buf + from, x->end - from, pat, n);
}

/* Skip the token that ends with pat (<?...?>, <!--...-->). */
static int
skip_to(struct fold_xml *x, size_t from, const char *pat, const char *what)
{
	const char *p = find(x, from, pat, strlen(pat));

	if (p == NULL)
		return x->eof ? fail(x, x->pos, "input ends inside %s", what)
		    : NEED;
	x->pos = (size_t)(p - x->buf) + strlen(pat);
	return OK;
}

/* <!DOCTYPE ...>, its internal subset skipped (nothing of it is used). */
static int
doctype(struct fold_xml *x)
{
	size_t i = x->pos + 9;
	int depth = 0;
	char q;

	if (x->root)
		return fail(x, x->pos, "<!DOCTYPE inside the document");
	for (; i < x->end; i++) {
		q = x->buf[i];
		if (q == '"' || q == '\'') {
			const char *p = memchr(x->buf + i + 1, q,
			    x->end - i - 1);
			if (p == NULL)
				break;
			i = (size_t)(p - x->buf);
		} else if (q == '[')
			depth++;
		else if (q == ']')
			depth--;
		else if (q == '>' && depth <= 0) {
			x->pos = i + 1;
			return OK;
		}
	}
	return x->eof ? fail(x, x->pos, "input ends inside <!DOCTYPE") : NEED;
}

/*
 * Past the bytes of a value that need no look, 8 at a time (most of a
 * value: names are long): stops at or before the first quote q, '&', '<'
 * or byte below 0x20 (tab, CR, LF), or where fewer than 8 bytes are left.
 * A word has one of them when one of its bytes, xor'ed with it, is zero
 * (the classic test: (v - 0x01..) & ~v & 0x80..), or is below 0x20.
 */
static inline size_t
plain(const char *b, size_t i, size_t end, char q)
{
#if SSE2
	/* 16 at a time: the first of them exactly, from a bit mask */
	const __m128i mq = _mm_set1_epi8(q), ma = _mm_set1_epi8('&'),
	    ml = _mm_set1_epi8('<'), mc = _mm_set1_epi8(0x1f),
	    zero = _mm_setzero_si128();
	__m128i v, t;
	unsigned m;

	(void)end;	/* the NUL at end stops it */
	for (;; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		t = _mm_or_si128(_mm_cmpeq_epi8(v, mq), _mm_cmpeq_epi8(v, ma));
		t = _mm_or_si128(t, _mm_cmpeq_epi8(v, ml));
		t = _mm_or_si128(t, _mm_cmpeq_epi8(_mm_subs_epu8(v, mc), zero));
		m = (unsigned)_mm_movemask_epi8(t);
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
#else
	uint64_t v, m, mq = ONES * (unsigned char)q, ma = ONES * '&',
	    ml = ONES * '<';

	/* with WORDS, the NUL at end stops it */
	while (WORDS || i + 8 <= end) {
		memcpy(&v, b + i, 8);
		m = ((v ^ mq) - ONES) & ~(v ^ mq);
		m |= ((v ^ ma) - ONES) & ~(v ^ ma);
		m |= ((v ^ ml) - ONES) & ~(v ^ ml);
		m |= (v - ONES * 0x20) & ~v;
		if (m & HIGHS)
			/* the lowest flag is exact (a borrow only goes up) */
			return WORDS ? i + FIRST(m & HIGHS) : i;
		i += 8;
	}
	return i;
#endif
}

/* Past the name characters from b[i] (none past the data read). */
static inline size_t
name_end(const char *b, size_t i)
{
	while ((cls[(unsigned char)b[i]] & C_NAME))
		i++;
	return i;
}

/*
 * a[0..n) == b[0..n), n small (a name): with WORDS 8 bytes at a time, up
 * to 7 read past n (the buffer's PAD, the names' slack).
 */
static inline int
same(const char *a, const char *b, size_t n)
{
#if WORDS
	uint64_t u, v;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		memcpy(&u, a, 8);
		memcpy(&v, b, 8);
		if (u != v)
			return 0;
	}
	if (n == 0)
		return 1;
	memcpy(&u, a, 8);
	memcpy(&v, b, 8);
	return ((u ^ v) << (64 - 8 * n)) == 0;
#else
	return memcmp(a, b, n) == 0;
#endif
}

/*
 * The first '<', '&', CR or NUL at or after b[i] (the NUL at end stops
 * it): the end of a text, or what the quick scan leaves to decode() (a CR
 * it makes a LF, in place: lines are counted after that).
 */
static inline size_t
text_end(const char *b, size_t i)
{
#if WORDS
	uint64_t v, m, ma = ONES * '&', ml = ONES * '<', mr = ONES * '\r';

	for (;; i += 8) {
		memcpy(&v, b + i, 8);
		m = ((v ^ ma) - ONES) & ~(v ^ ma);
		m |= ((v ^ ml) - ONES) & ~(v ^ ml);
		m |= ((v ^ mr) - ONES) & ~(v ^ mr);
		m |= (v - ONES) & ~v;
		if (m & HIGHS)
			return i + FIRST(m & HIGHS);
	}
#else
	while (b[i] != '<' && b[i] != '&' && b[i] != '\r' && b[i] != '\0')
		i++;
	return i;
#endif
}

/*
 * The head cache: the heads `<NAME ATTR=` and a quote (one blank) of start
 * tags read whole and well formed, by their first 8 bytes, so that a tag
 * that begins with one of them is known to, without its names scanned and
 * checked again.  Only a filter on exact bytes: a tag not found is read
 * the long way.
 */
#define HC_MAX 32			/* the longest head kept */

static inline size_t
hc_set(uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 59);
}

/* The head that begins b[0..n), or NULL (8 bytes readable at b). */
static inline const struct fold_xml_hc *
hc_find(const struct fold_xml *x, const char *b, size_t n)
{
	const struct fold_xml_hc *e;
	uint64_t key;

	memcpy(&key, b, 8);
	e = &x->hc[2 * hc_set(key)];
	if (e->key == key && e->len != 0 && e->len <= n &&
	    same(b, e->s, e->len))
		return e;
	e++;
	if (e->key == key && e->len != 0 && e->len <= n &&
	    same(b, e->s, e->len))
		return e;
	return NULL;
}

/*
 * Keep the head of the start tag at b (name nlen bytes, then its first
 * attribute's name at an, alen bytes), just read whole and well formed,
 * if it is written `<NAME ATTR=` and a quote.
 */
static void
hc_add(struct fold_xml *x, const char *b, size_t nlen, const char *an,
    size_t alen)
{
	struct fold_xml_hc *e;
	size_t len = nlen + alen + 4, set;
	uint64_t key;

	if (len > HC_MAX || an != b + nlen + 2 || b[nlen + 1] != ' ' ||
	    an[alen] != '=' || (an[alen + 1] != '"' && an[alen + 1] != '\''))
		return;
	memcpy(&key, b, 8);
	set = hc_set(key);
	e = &x->hc[2 * set + x->hcway[set]];
	x->hcway[set] ^= 1;
	e->key = key;
	e->len = (unsigned char)len;
	e->nlen = (unsigned char)nlen;
	e->alen = (unsigned char)alen;
	memset(e->s, 0, sizeof(e->s));
	memcpy(e->s, b, len);
}

static int
end_tag(struct fold_xml *x)
{
	size_t i = x->pos + 2, s = i, top, n;
	const char *open;

	if (x->depth > 0) {
		/* the name of the open element, then '>': the usual case */
		top = x->nstart[x->depth - 1];
		n = x->nused - top;
		if (i + n < x->end && x->buf[i + n] == '>' &&
		    same(x->buf + i, x->names + top, n)) {
			x->name = x->buf + i;
			x->nlen = n;
			x->nused = top;
			x->depth--;
			x->pos = i + n + 1;
			x->type = FOLD_XML_END;
			return OK;
		}
	}
	while ((cls[(unsigned char)x->buf[i]] & C_NAME))
		i++;
	x->name = x->buf + s;
	x->nlen = i - s;
	while ((cls[(unsigned char)x->buf[i]] & C_WS))
		i++;
	if (i >= x->end)
		return x->eof ? fail(x, x->pos, "input ends inside an end "
		    "tag") : NEED;
	if (x->buf[i] != '>' || x->nlen == 0)
		return fail(x, i, "bad end tag");
	if (x->depth == 0)
		return fail(x, x->pos, "end tag </%.*s> without a start tag",
		    (int)(x->nlen > 64 ? 64 : x->nlen), x->name);
	top = x->nstart[x->depth - 1];
	open = x->names + top;
	if (x->nused - top != x->nlen ||
	    memcmp(open, x->name, x->nlen) != 0)
		return fail(x, x->pos, "end tag </%.*s> closes <%.*s>",
		    (int)(x->nlen > 64 ? 64 : x->nlen), x->name,
		    (int)(x->nused - top > 64 ? 64 : x->nused - top), open);
	x->nused = top;
	x->depth--;
	x->pos = i + 1;
	x->type = FOLD_XML_END;
	return OK;
}

/* The element x->name opened: its name kept for its end tag, one deeper. */
static void
push_name(struct fold_xml *x)
{
	size_t k;

	x->nstart[x->depth] = x->nused;
	/* 8 bytes at a time: PAD bytes after the name, 16 of slack */
	fold_grow(&x->names, &x->ncap, x->nused + x->nlen + 16, 1);
	for (k = 0; k < x->nlen; k += 8)
		memcpy(x->names + x->nused + k, x->name + k, 8);
	x->nused += x->nlen;
	x->depth++;
}

static int
start_tag(struct fold_xml *x)
{
	size_t i = x->pos + 1, s, na = 0, k, j;
	struct fold_xml_attr *a;
	char *b = x->buf, q;
	unsigned char c;
	int hasamp;
	uint64_t special = 0;
	const struct fold_xml_hc *h = hc_find(x, b + x->pos, x->end - x->pos);

	s = i;
	if (h != NULL) {
		/* the name and first attribute of a head seen before */
		x->name = b + s;
		x->nlen = h->nlen;
		if (x->attrcap == 0)
			fold_grow(&x->attrs, &x->attrcap, 8,
			    sizeof(*x->attrs));
		a = &x->attrs[0];
		a->name = b + s + h->nlen + 1;
		a->nlen = h->alen;
		q = h->s[h->len - 1];
		i = x->pos + h->len;
		goto value;
	}
	if (!(cls[(unsigned char)b[i]] & C_START))
		return fail(x, i, "'<' not followed by a name");
	i = name_end(b, i);
	x->name = b + s;
	x->nlen = i - s;
	for (;;) {
		k = i;
		while ((cls[(unsigned char)b[i]] & C_WS))
			i++;
		if (i >= x->end)
			goto need;
		c = (unsigned char)b[i];
		if (c == '>' || c == '/')
			break;
		if (i == k)
			return fail(x, i, "no blank before an attribute");
		if (!(cls[c] & C_START))
			return fail(x, i, "bad attribute name");
		if (na == FOLD_XML_MAXATTRS)
			return fail(x, i, "more than %d attributes",
			    FOLD_XML_MAXATTRS);
		if (na == x->attrcap)
			fold_grow(&x->attrs, &x->attrcap, na + 8,
			    sizeof(*x->attrs));
		a = &x->attrs[na];
		a->name = b + i;
		i = name_end(b, i);
		a->nlen = (size_t)(b + i - a->name);
		while ((cls[(unsigned char)b[i]] & C_WS))
			i++;
		if (i >= x->end)
			goto need;
		if (b[i] != '=')
			return fail(x, i, "attribute without '=' and a value");
		i++;
		while ((cls[(unsigned char)b[i]] & C_WS))
			i++;
		if (i >= x->end)
			goto need;
		q = b[i];
		if (q != '"' && q != '\'')
			return fail(x, i, "attribute value not quoted");
		i++;
value:
		a->val = b + i;
		hasamp = 0;
		for (;;) {
			i = plain(b, i, x->end, q);
			while (!(cls[(unsigned char)b[i]] & C_VAL))
				i++;
			if (i >= x->end)
				goto need;
			if (b[i] == q)
				break;
			if (b[i] != '"' && b[i] != '\'')
				hasamp = 1;
			i++;
		}
		a->vlen = (size_t)(b + i - a->val);
		if (hasamp)
			special |= (uint64_t)1 << na;
		i++;
		na++;
	}
	if (b[i] == '/') {
		if (i + 1 >= x->end)
			goto need;
		if (b[i + 1] != '>')
			return fail(x, i, "'/' not followed by '>'");
		x->empty = 1;
		i += 2;
	} else {
		x->empty = 0;
		i++;
	}
	/* whole: check and decode */
	x->dused = 0;
	if (special != 0)
		dec_room(x, i - x->pos);
	if (x->nlen > FOLD_XML_MAXNAME)
		return fail(x, x->pos, "element name longer than %d bytes",
		    FOLD_XML_MAXNAME);
	for (k = 0; k < na; k++) {
		for (j = 0; j < k; j++)
			if (x->attrs[j].nlen == x->attrs[k].nlen &&
			    memcmp(x->attrs[j].name, x->attrs[k].name,
			    x->attrs[k].nlen) == 0)
				return fail(x, (size_t)(x->attrs[k].name - b),
				    "attribute %.*s given twice",
				    (int)(x->attrs[k].nlen > 64 ? 64 :
				    x->attrs[k].nlen), x->attrs[k].name);
		if (special >> k & 1 &&
		    decode(x, &x->attrs[k].val, &x->attrs[k].vlen, 1) < 0)
			return BAD;
	}
	if (x->depth == 0 && x->root)
		return fail(x, x->pos, "a second root element <%.*s>",
		    (int)(x->nlen > 64 ? 64 : x->nlen), x->name);
	if (x->depth == FOLD_XML_MAXDEPTH)
		return fail(x, x->pos, "elements nested more than %d deep",
		    FOLD_XML_MAXDEPTH);
	if (h == NULL && na > 0)
		hc_add(x, b + x->pos, x->nlen, x->attrs[0].name,
		    x->attrs[0].nlen);
	x->root = 1;
	push_name(x);
	x->nattrs = na;
	x->pos = i;
	x->type = FOLD_XML_START;
	x->pend = x->empty;
	return OK;
need:
	return x->eof ? fail(x, x->pos, "input ends inside the tag <%.*s",
	    (int)(x->nlen > 64 ? 64 : x->nlen), x->name) : NEED;
}

/* A token at buf[pos] == '<': OK with an event, OK with nothing (skipped:
 * type EOF), NEED or BAD. */
static int
markup(struct fold_xml *x)
{
	size_t n = x->end - x->pos;
	char *b = x->buf + x->pos;
	const char *p;

	x->type = FOLD_XML_EOF;
	if (n < 2)
		return x->eof ? fail(x, x->pos, "input ends after '<'") : NEED;
	if (b[1] == '/')
		return end_tag(x);
	if (b[1] == '?')
		return skip_to(x, x->pos + 2, "?>", "<?");
	if (b[1] != '!')
		return start_tag(x);
	if (n < 9 && !x->eof && (memcmp(b, "<!--", n < 4 ? n : 4) == 0 ||
	    memcmp(b, "<![CDATA[", n) == 0 || memcmp(b, "<!DOCTYPE", n) == 0))
		return NEED;
	if (n >= 4 && memcmp(b, "<!--", 4) == 0)
		return skip_to(x, x->pos + 4, "-->", "a comment");
	if (n >= 9 && memcmp(b, "<!DOCTYPE", 9) == 0)
		return doctype(x);
	if (n >= 9 && memcmp(b, "<![CDATA[", 9) == 0) {
		p = find(x, x->pos + 9, "]]>", 3);
		if (p == NULL)
			return x->eof ? fail(x, x->pos, "input ends inside "
			    "<![CDATA[") : NEED;
		if (x->depth == 0)
			return fail(x, x->pos, "CDATA outside the root "
			    "element");
		x->text = b + 9;
		x->tlen = (size_t)(p - x->text);
		x->pos = (size_t)(p - x->buf) + 3;
		x->type = FOLD_XML_TEXT;
		return OK;
	}
	return fail(x, x->pos, "bad markup after '<!'");
}

int
fold_xml_next(struct fold_xml *x)
{
	size_t i;
	char *b, *p;
	const char *t;
	int r;

	if (x->err)
		return FOLD_XML_ERROR;
	if (!x->began) {
		/* a UTF-8 byte order mark may begin the input */
		while (x->end - x->pos < 3 && !x->eof)
			if (fill(x) < 0)
				return FOLD_XML_ERROR;
		if (x->end - x->pos >= 3 &&
		    memcmp(x->buf + x->pos, "\xef\xbb\xbf", 3) == 0)
			x->pos += 3;
		x->began = 1;
	}
	if (x->pend) {
		/* the END of <a/> */
		x->pend = 0;
		x->nused = x->nstart[--x->depth];
		x->type = FOLD_XML_END;
		return FOLD_XML_END;
	}
	for (;;) {
		if (x->pos == x->end) {
			if (x->eof) {
				x->at = x->pos;
				if (x->depth > 0)
					fail(x, x->pos, "input ends inside "
					    "<%.*s>", (int)(x->nused -
					    x->nstart[x->depth - 1] > 64 ? 64 :
					    x->nused - x->nstart[x->depth - 1]),
					    x->names + x->nstart[x->depth - 1]);
				else if (!x->root)
					fail(x, x->pos, "no element: not XML");
				else
					x->type = FOLD_XML_EOF;
				return x->type;
			}
			if (fill(x) < 0)
				return FOLD_XML_ERROR;
			continue;
		}
		x->at = x->pos;
		b = x->buf;
		if (b[x->pos] == '<') {
			r = markup(x);
			if (r == BAD)
				return FOLD_XML_ERROR;
			if (r == NEED) {
				if (fill(x) < 0)
					return FOLD_XML_ERROR;
				continue;
			}
			if (x->type != FOLD_XML_EOF)
				return x->type;
			continue;
		}
		/* text, up to the next '<' */
		p = memchr(b + x->pos, '<', x->end - x->pos);
		if (p == NULL && !x->eof) {
			if (fill(x) < 0)
				return FOLD_XML_ERROR;
			continue;
		}
		if (p == NULL)
			p = b + x->end;
		x->text = b + x->pos;
		x->tlen = (size_t)(p - x->text);
		x->pos = (size_t)(p - b);
		if (x->depth == 0) {
			for (i = 0; i < x->tlen; i++)
				if (!(cls[(unsigned char)x->text[i]] & C_WS))
					break;
			if (i < x->tlen)
				return fail(x, x->at + i, "text outside the "
				    "root element"), FOLD_XML_ERROR;
			continue;
		}
		x->dused = 0;
		dec_room(x, x->tlen);
		t = x->text;
		if (decode(x, &t, &x->tlen, 0) < 0)
			return FOLD_XML_ERROR;
		x->text = t;
		x->type = FOLD_XML_TEXT;
		return FOLD_XML_TEXT;
	}
}

const char *
fold_xml_attr(const struct fold_xml *x, const char *name, size_t *len)
{
	size_t n = strlen(name), i;

	for (i = 0; i < x->nattrs; i++)
		if (x->attrs[i].nlen == n && x->attrs[i].name[0] == name[0] &&
		    memcmp(x->attrs[i].name, name, n) == 0) {
			*len = x->attrs[i].vlen;
			return x->attrs[i].val;
		}
	return NULL;
}

/*
 * skip_one(): the quick scan of the element at b[i] == '<', for the parts
 * of a document a reader does not use: past its end, or 0.  It takes only what fold_xml_next()
 * would take without an error and without a change (tags and text without
 * references, blanks only between attributes, end tags written as
 * "</name>"), all of it in the data read: anything else and it gives up,
 * nothing consumed, for fold_xml_next() to read (and check, and report)
 * from the same place.
 */
static size_t
skip_one(struct fold_xml *x, size_t i)
{
	const char *b = x->buf, *an[FOLD_XML_MAXATTRS];
	const struct fold_xml_hc *h;
	size_t end = x->end, s, nl, al[FOLD_XML_MAXATTRS], k;
	size_t ns[FOLD_XML_MAXDEPTH], nn[FOLD_XML_MAXDEPTH];
	unsigned d = 0;
	int na, j;
	char q;

	for (;;) {
		if (b[i] != '<') {
			/* text: up to the next '<', with no reference */
			while ((i = text_end(b, i)) < end && b[i] == '\0')
				i++;	/* a NUL in the text */
			if (i >= end || b[i] != '<')
				return 0;	/* '&' or CR */
		}
		if (i + 1 >= end)
			return 0;
		if (b[i + 1] == '/') {
			/* the end tag of the element open, written whole */
			k = nn[d - 1];
			if (i + 2 + k >= end || b[i + 2 + k] != '>' ||
			    !same(b + i + 2, b + ns[d - 1], k))
				return 0;
			i += 3 + k;
			if (--d == 0)
				break;
			continue;
		}
		if (x->depth + d >= FOLD_XML_MAXDEPTH)
			return 0;	/* (<a/> too goes one deeper) */
		s = i + 1;
		if ((h = hc_find(x, b + i, end - i)) != NULL) {
			nl = h->nlen;
			an[0] = b + s + nl + 1;
			al[0] = h->alen;
			q = h->s[h->len - 1];
			i += h->len;
			na = 0;
			goto value;
		}
		if (!(cls[(unsigned char)b[i + 1]] & C_START))
			return 0;	/* <! <? or a bad name */
		i = name_end(b, s);
		nl = i - s;
		if (nl > FOLD_XML_MAXNAME)
			return 0;
		for (na = 0;; na++) {
			k = i;
			while ((cls[(unsigned char)b[i]] & C_WS))
				i++;
			if (b[i] == '>' || b[i] == '/' || i >= end)
				break;
			if (i == k || na == FOLD_XML_MAXATTRS ||
			    !(cls[(unsigned char)b[i]] & C_START))
				return 0;
			an[na] = b + i;
			i = name_end(b, i);
			al[na] = (size_t)(b + i - an[na]);
			for (j = 0; j < na; j++)
				if (al[j] == al[na] &&
				    memcmp(an[j], an[na], al[na]) == 0)
					return 0;
			q = b[i + 1];
			if (b[i] != '=' || (q != '"' && q != '\''))
				return 0;
			if (na == 0)
				hc_add(x, b + s - 1, nl, an[0], al[0]);
			i += 2;
value:
			i = plain(b, i, end, q);
			while (!(cls[(unsigned char)b[i]] & C_VAL))
				i++;
			if (b[i] != q || i >= end)
				return 0;
			i++;
		}
		if (i + 1 >= end)
			return 0;
		if (b[i] == '/') {
			if (b[i + 1] != '>')
				return 0;
			i += 2;
			if (d == 0)
				break;	/* <a/> */
			continue;
		}
		/* '>': one deeper */
		ns[d] = s;
		nn[d++] = nl;
		i++;
	}
	return i;
}

int
fold_xml_skip(struct fold_xml *x, int n)
{
	const char *b = x->buf;
	size_t i = x->pos, j, e, at = x->pos;
	int k = 0;

	if (x->err || x->pend || !x->began || x->depth == 0)
		return 0;
	for (; k < n; k++) {
		j = i;
		if (k > 0 && b[j] != '<') {
			/* blanks or text between them: a run of text */
			while ((j = text_end(b, j)) < x->end && b[j] == '\0')
				j++;
			if (j >= x->end || b[j] != '<')
				break;	/* '&' or CR */
		}
		if (j + 1 >= x->end || b[j] != '<' ||
		    !(cls[(unsigned char)b[j + 1]] & C_START) ||
		    (e = skip_one(x, j)) == 0)
			break;
		at = j;
		i = e;
	}
	if (k == 0)
		return 0;
	x->at = at;
	x->name = b + at + 1;
	x->nlen = (size_t)(name_end(b, at + 1) - at - 1);
	x->pos = i;
	x->type = FOLD_XML_END;
	return k;
}

int
fold_xml_head(struct fold_xml_head *h, const char *head)
{
	size_t n = strlen(head), i = 1;

	init_cls();
	memset(h, 0, sizeof(*h));
	if (n < 6 || n > sizeof(h->s) - 8 || head[0] != '<' ||
	    !(cls[(unsigned char)head[1]] & C_START))
		return -1;
	i = name_end(head, 1);
	h->nlen = i - 1;
	if (head[i++] != ' ' || !(cls[(unsigned char)head[i]] & C_START))
		return -1;
	i = name_end(head, i);
	if (i + 2 != n || head[i] != '=' ||
	    (head[i + 1] != '"' && head[i + 1] != '\''))
		return -1;
	memcpy(h->s, head, n);
	h->len = n;
	return 0;
}

/* (see markup.h) */
int
fold_xml_leaf(struct fold_xml *x, const struct fold_xml_head *h,
    const char **val, size_t *vlen)
{
	return fold_xml_leaves(x, h, val, vlen, 1);
}

int
fold_xml_leaves(struct fold_xml *x, const struct fold_xml_head *h,
    const char **val, size_t *vlen, int max)
{
	const char *b = x->buf;
	size_t i = x->pos, v, n = h->len, first = x->pos;
	char q = n > 0 ? h->s[n - 1] : '"';
	int k;

	if (n == 0 || x->err || x->pend || x->depth == 0 ||
	    x->depth >= FOLD_XML_MAXDEPTH)
		return 0;
	for (k = 0; k < max; k++) {
		if (i + n + 3 > x->end || !same(b + i, h->s, n))
			break;
		v = i + n;
		i = plain(b, v, x->end, q);
		while (!(cls[(unsigned char)b[i]] & C_VAL))
			i++;
		if (b[i] != q || i + 2 >= x->end || b[i + 1] != '/' ||
		    b[i + 2] != '>')
			break;
		val[k] = b + v;
		vlen[k] = i - v;
		i += 3;
		x->pos = i;
	}
	if (k == 0)
		return 0;
	x->at = first;
	x->name = b + first + 1;
	x->nlen = h->nlen;
	x->type = FOLD_XML_END;
	return k;
}

size_t
fold_xml_small(const struct fold_xml *x, size_t off, struct fold_xml_small *e)
{
	const char *b = x->buf;
	size_t i = x->pos + off, end = x->end, s, a, v, k;
	int na = 0;

	if (x->err || x->pend || !x->began || x->depth == 0 ||
	    x->depth + 2 >= FOLD_XML_MAXDEPTH || i + 4 > end ||
	    b[i] != '<' || !(cls[(unsigned char)b[i + 1]] & C_START))
		return 0;
	s = i + 1;
	i = name_end(b, s);
	if (i - s > FOLD_XML_MAXNAME)
		return 0;
	e->name = b + s;
	e->nlen = i - s;
	while (b[i] == ' ') {
		a = ++i;
		if (na == 2 || !(cls[(unsigned char)b[i]] & C_START))
			return 0;
		i = name_end(b, i);
		if (b[i] != '=' || b[i + 1] != '"' || (na == 1 &&
		    i - a == e->alen[0] && memcmp(b + a, e->an[0], i - a) == 0))
			return 0;
		v = i + 2;
		i = plain(b, v, end, '"');
		if (i >= end || b[i] != '"')
			return 0;
		e->an[na] = b + a;
		e->alen[na] = (size_t)(v - 2 - a);
		e->av[na] = b + v;
		e->avlen[na++] = i++ - v;
	}
	e->nattr = na;
	if (i + 1 >= end)
		return 0;
	if (b[i] == '/')
		return b[i + 1] == '>' ? i + 2 - x->pos - off : 0;
	if (b[i] != '>')
		return 0;
	k = text_end(b, i + 1);
	if (k + 3 + e->nlen > end || b[k] != '<' || b[k + 1] != '/' ||
	    b[k + 2 + e->nlen] != '>' || !same(b + k + 2, e->name, e->nlen))
		return 0;
	return k + 3 + e->nlen - x->pos - off;
}

size_t
fold_xml_leaf_at(const struct fold_xml *x, size_t off,
    const struct fold_xml_head *h, const char **val, size_t *vlen)
{
	const char *b = x->buf;
	size_t i = x->pos + off, end = x->end, n = h->len, v;

	/* (fold_xml_small()'s conditions; the quote a double one) */
	if (n == 0 || h->s[n - 1] != '"' || x->err || x->pend ||
	    !x->began || x->depth == 0 || x->depth + 2 >= FOLD_XML_MAXDEPTH ||
	    i + n + 3 > end || !same(b + i, h->s, n))
		return 0;
	v = i + n;
	i = plain(b, v, end, '"');
	if (i + 2 >= end || b[i] != '"' || b[i + 1] != '/' || b[i + 2] != '>')
		return 0;
	*val = b + v;
	*vlen = i - v;
	return i + 3 - x->pos - off;
}

void
fold_xml_took(struct fold_xml *x, size_t off, size_t n, size_t nlen)
{
	x->at = x->pos + off;
	x->name = x->buf + x->at + 1;
	x->nlen = nlen;
	x->pos += off + n;
	x->type = FOLD_XML_END;
}

void
fold_xml_here(struct fold_xml *x, const char *p)
{
	x->at = (size_t)(p - x->buf);
}

int
fold_xml_start(struct fold_xml *x, const char *tag, size_t n)
{
	const char *b = x->buf;
	size_t i = x->pos;

	if (x->err || x->pend || !x->began || x->depth == 0 ||
	    x->depth >= FOLD_XML_MAXDEPTH)
		return 0;
	while (i < x->end && (b[i] == '\n' || b[i] == ' ' || b[i] == '\t'))
		i++;
	if (i + n > x->end || memcmp(b + i, tag, n) != 0)
		return 0;
	x->at = i;
	x->name = b + i + 1;
	x->nlen = n - 2;
	x->nattrs = 0;
	x->empty = 0;
	push_name(x);
	x->pos = i + n;
	x->type = FOLD_XML_START;
	return 1;
}

int
fold_xml_jump(struct fold_xml *x, uint64_t off)
{
	if (x->err || x->pend || !x->whole || off > x->end)
		return -1;
	x->pos = x->at = x->lpos = (size_t)off;
	return 0;
}

const char *
fold_xml_peek(const struct fold_xml *x, size_t *n)
{
	*n = x->end - x->pos;
	return x->buf + x->pos;
}
