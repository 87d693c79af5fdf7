/*
 * markup.h - readers of structured text formats that more than one input
 * format needs (lib/markup/): XML (xml.c), JSON (json.c).  Uses base.
 *
 *  - Input is untrusted: every reader is strict (what the grammar does not
 *    allow is an error, with where it was found), bounded in nesting depth,
 *    and allocates nothing that grows with the input but what it says.
 *  - Nothing here is fatal but running out of memory.
 */
#ifndef FOLD_MARKUP_H
#define FOLD_MARKUP_H

#include "fold.h"

/* ---- xml.c: a streaming XML reader ------------------------------------- */

/*
 * A pull reader: fold_xml_next() hands out one event at a time (an
 * element's start with its attributes, its end, a run of text), read from
 * a descriptor in large reads (or from memory, in chunks), never the whole
 * document at once; or in place, from memory that holds all of it (a
 * mapped file: fold_xml_whole()).  The names, attribute values and text of
 * an event point into the reader's buffer (or that memory): valid until
 * the next fold_xml_next().
 *
 *  - Values and text come decoded: the five entities (&amp; &lt; &gt;
 *    &quot; &apos;) and character references (&#N; &#xH;, as UTF-8); in
 *    attribute values a tab, CR or LF is a space (a CR LF one space), in
 *    text CR LF and a lone CR are LF, as XML 1.0 says.  CDATA sections are
 *    text, not decoded.  Comments, processing instructions, the XML
 *    declaration and a DOCTYPE (its internal subset too) are skipped.
 *  - No DTD is read: an entity that is not one of the five (&lol;) is an
 *    error, so nothing ever expands into more than its own bytes, and
 *    decoding never makes a value longer (entity bombs cannot happen).
 *  - Bounded: elements nested at most FOLD_XML_MAXDEPTH deep, names at
 *    most FOLD_XML_MAXNAME bytes, FOLD_XML_MAXATTRS attributes, one tag or
 *    run of text at most FOLD_XML_MAXTOKEN bytes; past a bound is an
 *    error.  Memory: the buffer (the longest token, rounded up), the
 *    names of the open elements and a fixed cache of 64 tag heads.
 *  - An element written <a/> gives a START (empty set) and an END.
 *  - Checked: names, attribute syntax and quoting, unique attribute names,
 *    each end tag against its start, one root element, nothing but
 *    blanks, comments and instructions outside it, '<' and a bare '&' in
 *    values, the end of input inside markup or an element.  The first
 *    error is FOLD_XML_ERROR with why set; it sticks (every later call
 *    returns it).  Bytes are not checked as UTF-8.
 *  - fold_xml_line(): the line (from 1) where the last event or the error
 *    begins.  Lines are counted only when asked (and when the buffer
 *    moves), so reading costs nothing for them.
 */
#define FOLD_XML_MAXDEPTH 256
#define FOLD_XML_MAXNAME 1024
#define FOLD_XML_MAXATTRS 64
#define FOLD_XML_MAXTOKEN (64u << 20)

enum {
	FOLD_XML_EOF,		/* the end, after the root element closed */
	FOLD_XML_START,		/* name, attrs, empty */
	FOLD_XML_END,		/* name */
	FOLD_XML_TEXT,		/* text */
	FOLD_XML_ERROR		/* why */
};
struct fold_xml_attr {
	const char *name, *val;
	size_t nlen, vlen;
};
struct fold_xml {
	/* the last event */
	int type;
	const char *name;		/* START, END: the element's name */
	size_t nlen;
	struct fold_xml_attr *attrs;	/* START: its attributes, values */
	size_t nattrs;			/* decoded */
	int empty;			/* START: <a/>, its END comes next */
	const char *text;		/* TEXT: decoded */
	size_t tlen;
	unsigned depth;			/* open elements (START: this one
					   counted; END: it no longer) */
	char why[160];			/* ERROR: what is wrong */

	/* private */
	int fd;				/* -1: from memory */
	int whole;			/* buf is the caller's (fold_xml_whole) */
	uint64_t base;			/* input offset of buf[0] */
	const char *src;
	size_t srclen, srcoff, chunk;
	char *buf;
	size_t cap, pos, end;		/* buf[pos, end) is unread */
	int eof, err, root, pend, began;
	size_t at, lpos;		/* event start; counted up to lpos */
	unsigned long long line;	/* lines before lpos, from 1 */
	size_t attrcap;
	char *dec;			/* decoded values of the token */
	size_t dcap, dused;
	char *names;			/* open elements' names */
	size_t ncap, nused;
	size_t nstart[FOLD_XML_MAXDEPTH + 1];
	struct fold_xml_hc {		/* heads `<NAME ATTR=` + quote seen */
		uint64_t key;		/* their first 8 bytes */
		unsigned char len, nlen, alen;
		char s[40];
	} hc[64];			/* 32 sets of 2 */
	unsigned char hcway[32];
};
/* From descriptor fd (read, not closed), or when fd < 0 from data[0..n)
 * handed over chunk bytes at a time (0: large reads; small ones test the
 * reader's seams).  data must stay valid until fold_xml_free(). */
void fold_xml_init(struct fold_xml *x, int fd, const void *data, size_t n,
    size_t chunk);
/*
 * From memory the caller keeps, read in place: data[0..n) followed by
 * FOLD_XML_PAD NUL bytes (a map of a file with a zero page after it, see
 * fold_map_padded()).  Nothing is copied, so no token is too long
 * (FOLD_XML_MAXTOKEN bounds a buffer); several readers may read the same
 * data at once.
 */
#define FOLD_XML_PAD 16
void fold_xml_whole(struct fold_xml *x, const char *data, size_t n);
int fold_xml_next(struct fold_xml *x);
unsigned long long fold_xml_line(struct fold_xml *x);
/* The value of attribute name (NUL-terminated) of the START event, or NULL;
 * *len its length. */
const char *fold_xml_attr(const struct fold_xml *x, const char *name,
    size_t *len);
/*
 * A fast path for the parts of a document not used: when the next token
 * is the start tag of an element, that element and up to n - 1 siblings
 * after it (and the text between them) are read and checked as by
 * fold_xml_next() but without events: how many were taken, the last event
 * the END of the last (name set; depth as before).  0 when the quick scan
 * cannot take the first (references, CDATA, comments, instructions, a CR
 * in text, blanks in an end tag, the element not whole in the data read;
 * or the next token is not a start tag): nothing consumed,
 * fold_xml_next() reads it, events and errors as ever; the same where it
 * stops after the first.  Never an error of its own.
 */
int fold_xml_skip(struct fold_xml *x, int n);
/*
 * The fast path for many small elements of one form, given as a head:
 * `<NAME ATTR=` and a quote (well-formed names, one blank), made once by
 * fold_xml_head() (-1: not such a head).  When the next bytes are the
 * head, a value that needs no decoding (no '&', '<' or byte below 0x20),
 * the quote and "/>", all in the data read, where an element may start:
 * fold_xml_leaf() consumes the element (as its START and END by
 * fold_xml_next()), 1 with *val, *vlen its value (valid until the next
 * call), the last event its END (name set).  Else 0, nothing consumed.
 */
struct fold_xml_head {
	char s[64];			/* the bytes, NUL padded */
	size_t len, nlen;		/* its length, NAME's */
};
int fold_xml_head(struct fold_xml_head *h, const char *head);
int fold_xml_leaf(struct fold_xml *x, const struct fold_xml_head *h,
    const char **val, size_t *vlen);
/*
 * A run of such elements one after the other (nothing between them): up
 * to max consumed as fold_xml_leaf() would one by one, their values in
 * val[], vlen[]; how many (0: none).  Each element starts h->len bytes
 * before its value: fold_xml_here() there makes a message name its line.
 */
int fold_xml_leaves(struct fold_xml *x, const struct fold_xml_head *h,
    const char **val, size_t *vlen, int max);
/*
 * The fast path for a whole small element whose parts a reader looks at
 * itself: at offset off of the data unread (fold_xml_peek()), an element
 * with at most two attributes (one blank before each, values in double
 * quotes with no '&', '<' or byte below 0x20), empty or with text alone
 * (no '&', '<', CR or NUL) and its end tag written "</NAME>", all in the
 * data read: its length, its name and attributes in *e (valid until the
 * next call that reads); else 0.  Nothing is consumed: fold_xml_took()
 * consumes bytes so checked.
 */
struct fold_xml_small {
	const char *name, *an[2], *av[2];
	size_t nlen, alen[2], avlen[2];
	int nattr;
};
size_t fold_xml_small(const struct fold_xml *x, size_t off,
    struct fold_xml_small *e);
/* fold_xml_small() for an element of head h's form (`<NAME ATTR="`, as
 * fold_xml_leaf() takes it) at offset off, without its names scanned: its
 * length, *val and *vlen its value; else 0 (fold_xml_small() may still
 * take it).  Nothing is consumed. */
size_t fold_xml_leaf_at(const struct fold_xml *x, size_t off,
    const struct fold_xml_head *h, const char **val, size_t *vlen);
/* Bytes checked so (from offset off, n of them, after blanks) taken, as
 * one element of the first one's name (nlen bytes) would be by
 * fold_xml_next(): the last event its END. */
void fold_xml_took(struct fold_xml *x, size_t off, size_t n, size_t nlen);
/* The place messages name (fold_xml_line()) set to p, a byte of the last
 * token read. */
void fold_xml_here(struct fold_xml *x, const char *p);
/*
 * The fast path for a start tag without attributes, tag (n bytes, as
 * "<row>": a well-formed name) inside an element: when the next bytes are
 * blanks (space, tab, LF; no CR) and tag, all in the data read,
 * fold_xml_start() consumes them: 1, the last event the START of the
 * element (name set, no attributes), as fold_xml_next() would give after
 * a TEXT of the blanks, which the caller must have no use for.  Else 0,
 * nothing consumed.
 */
int fold_xml_start(struct fold_xml *x, const char *tag, size_t n);
/* The bytes read and not yet consumed (*n of them, NUL after), valid until
 * the next call: a look ahead (for prefetching), nothing consumed. */
const char *fold_xml_peek(const struct fold_xml *x, size_t *n);
/*
 * Where the reader stands: 1 with *off, the offset in the input of the
 * next byte unread, when it is between two tokens with nothing pending
 * (an empty element's END not yet given, an error); else 0.
 */
static inline int
fold_xml_tell(const struct fold_xml *x, uint64_t *off)
{
	if (x->err || x->pend)
		return 0;
	*off = x->base + x->pos;
	return 1;
}
/*
 * A reader of fold_xml_whole() goes on from data[off], as if the bytes
 * from the place fold_xml_tell() gives to off were not there: the open
 * elements stay open.  0, or -1 when the reader is not between two tokens
 * (fold_xml_tell() says 0), reads a descriptor or off is past the end.
 * Line numbers are not kept across a jump.
 */
int fold_xml_jump(struct fold_xml *x, uint64_t off);
void fold_xml_free(struct fold_xml *x);

/* ---- json.c: JSON (RFC 8259) ------------------------------------------ */

/*
 * A pull reader over JSON text held in memory: the caller walks the values
 * in document order, asking for what it expects (an object, its keys, an
 * array, its elements, a string, a number) and skipping what it does not
 * need.  Nothing is built: a profile's columns of numbers are read straight
 * into the caller's arrays.  Several readers may walk one text at once
 * (fold_json_seek() puts one at an offset another found).
 *
 * The grammar is RFC 8259's, strictly: no trailing commas, no comments, no
 * leading zeros, no control characters or invalid UTF-8 in strings, no
 * lone surrogates in \u escapes, only whitespace after the top value.
 * Nesting deeper than FOLD_JSON_MAXDEPTH is an error.  The first error is
 * kept (err: a static message; off: the byte offset where it was found)
 * and every call after it fails: the caller checks once, at the end or
 * where it must.  Memory: the reader holds one buffer, for strings with
 * escapes (as long as the longest of them); a string without escapes
 * points into the text.
 *
 * Calls return 1 (found, or more to come), 0 (the end of an object or
 * array) or -1 (error).  A reader must take exactly one value after each
 * key and each element announced.
 */
#define FOLD_JSON_MAXDEPTH 256
enum {
	FOLD_JSON_BAD,		/* not the start of a value (or an error) */
	FOLD_JSON_NULL, FOLD_JSON_BOOL, FOLD_JSON_NUM, FOLD_JSON_STR,
	FOLD_JSON_ARR, FOLD_JSON_OBJ
};
struct fold_json {
	const unsigned char *text, *p, *end;
	int depth;
	unsigned char more[FOLD_JSON_MAXDEPTH + 1];	/* an element seen */
	const char *err;	/* the first error, or NULL */
	size_t off;		/* where it was found */
	char *buf;		/* decoded strings with escapes */
	size_t cap;
};
void fold_json_init(struct fold_json *j, const void *text, size_t n);
/* Start again at byte off of the text, outside any container. */
void fold_json_seek(struct fold_json *j, size_t off);
/* Where the reader is (the offset of the next value, past whitespace). */
size_t fold_json_tell(struct fold_json *j);
/* The kind of the next value (FOLD_JSON_*); nothing is consumed. */
int fold_json_peek(struct fold_json *j);
/* An object follows: 1, its '{' consumed; -1 (an error) otherwise. */
int fold_json_obj(struct fold_json *j);
/* The next key of the object (1: *key set, its ':' consumed), 0 at its
 * end ('}' consumed), -1. */
int fold_json_key(struct fold_json *j, struct fold_str *key);
int fold_json_arr(struct fold_json *j);
/* Another element of the array follows (1), or its end (0), or -1. */
int fold_json_next(struct fold_json *j);
/* A string (1): *s valid until the next call on this reader. */
int fold_json_str(struct fold_json *j, struct fold_str *s);
/* A number, as the nearest double (1); -1 if not a number. */
int fold_json_num(struct fold_json *j, double *v);
/* A number that is an integer in [-2^63, 2^63) (1); -1 otherwise. */
int fold_json_int(struct fold_json *j, int64_t *v);
/* null is consumed (1), or is not next (0); -1 on an earlier error. */
int fold_json_null(struct fold_json *j);
int fold_json_bool(struct fold_json *j, int *v);
/* Skip the next value, checking its grammar (1), or -1. */
int fold_json_skip(struct fold_json *j);
/* Nothing but whitespace is left after the top value (1), or -1. */
int fold_json_end(struct fold_json *j);
/* Set the error (what, at the reader's position) unless one is set;
 * returns -1.  For callers whose expectations the text does not meet. */
int fold_json_fail(struct fold_json *j, const char *what);
/* The line and column (from 1; the column in bytes) of byte off. */
void fold_json_where(const struct fold_json *j, size_t off, size_t *line,
    size_t *col);
void fold_json_free(struct fold_json *j);

#endif
