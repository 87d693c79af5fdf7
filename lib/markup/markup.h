/*
 * markup.h - readers of structured text formats that several inputs use
 * (lib/markup/).  Uses base.
 */
#ifndef FOLD_MARKUP_H
#define FOLD_MARKUP_H

#include "fold.h"

/* ---- xml.c: a streaming XML reader ------------------------------------- */

/*
 * A pull reader: fold_xml_next() hands out one event at a time (an
 * element's start with its attributes, its end, a run of text), read from
 * a descriptor in large reads (or from memory, in chunks), never the whole
 * document at once.  The names, attribute values and text of an event
 * point into the reader's buffer: valid until the next fold_xml_next().
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
 *    error.  Memory: the buffer (the longest token, rounded up) and the
 *    names of the open elements.
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
	char *text;			/* TEXT: decoded (may be changed) */
	size_t tlen;
	unsigned depth;			/* open elements (START: this one
					   counted; END: it no longer) */
	char why[160];			/* ERROR: what is wrong */

	/* private */
	int fd;				/* -1: from memory */
	const char *src;
	size_t srclen, srcoff, chunk;
	char *buf;
	size_t cap, pos, end;		/* buf[pos, end) is unread */
	int eof, err, root, pend, began;
	size_t at, lpos;		/* event start; counted up to lpos */
	unsigned long long line;	/* lines before lpos, from 1 */
	size_t attrcap;
	char *names;			/* open elements' names */
	size_t ncap, nused;
	size_t nstart[FOLD_XML_MAXDEPTH + 1];
};
/* From descriptor fd (read, not closed), or when fd < 0 from data[0..n)
 * handed over chunk bytes at a time (0: large reads; small ones test the
 * reader's seams).  data must stay valid until fold_xml_free(). */
void fold_xml_init(struct fold_xml *x, int fd, const void *data, size_t n,
    size_t chunk);
int fold_xml_next(struct fold_xml *x);
unsigned long long fold_xml_line(struct fold_xml *x);
/* The value of attribute name (NUL-terminated) of the START event, or NULL;
 * *len its length. */
const char *fold_xml_attr(const struct fold_xml *x, const char *name,
    size_t *len);
void fold_xml_free(struct fold_xml *x);

#endif
