/*
 * markup.h - readers of structured text formats that more than one input
 * format needs (lib/markup/): JSON (json.c).  Uses base.
 *
 *  - Input is untrusted: every reader is strict (what the grammar does not
 *    allow is an error, with where it was found), bounded in nesting depth,
 *    and allocates nothing that grows with the input but what it says.
 *  - Nothing here is fatal but running out of memory.
 */
#ifndef FOLD_MARKUP_H
#define FOLD_MARKUP_H

#include "fold.h"

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
