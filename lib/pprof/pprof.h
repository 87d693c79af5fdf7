/*
 * pprof.h - pprof profiles (profile.proto) to folded stacks (lib/pprof/):
 * the protobuf wire format read from memory (pb.c), the profile to folded
 * stacks (pprof.c).  Uses symbols (demangling) and base (inflate, tables).
 *
 *  - Input is untrusted: every length is checked against the bytes left,
 *    a varint is at most 10 bytes, every id and string index is looked up
 *    before it is used.  A damaged profile is an error of that input (a
 *    message, status 1), never fatal; nothing of it is counted.
 *  - Memory: the input (and its decompressed form) while it is read; then
 *    what grows with the distinct functions, locations and stacks, never
 *    with the number of samples.
 *  - Fatal: out of memory; with FOLD_PPROF_STRICT, a sample skipped.
 */
#ifndef FOLD_PPROF_H
#define FOLD_PPROF_H

#include "fold.h"

/* ---- pb.c: the protobuf wire format ------------------------------------ */

/*
 * A message is read field by field from [p, end).  fold_pb_next() returns
 * 1 with the next field in *f, 0 at the end of the message, or -1 when the
 * message is damaged, with *why a static message and p left at the bad
 * field: a varint longer than 10 bytes or past 2^64 - 1, a length past the
 * end, field number 0 or past 2^29 - 1, wire type 3, 4, 6 or 7 (groups
 * are not read: pprof writes none).  Nothing is allocated.
 */
enum { FOLD_PB_VARINT = 0, FOLD_PB_I64 = 1, FOLD_PB_LEN = 2, FOLD_PB_I32 = 5 };
struct fold_pb {
	const unsigned char *p, *end;
};
struct fold_pb_field {
	uint32_t num;		/* field number */
	int type;		/* FOLD_PB_* */
	uint64_t v;		/* VARINT, I64, I32: the value */
	const unsigned char *p;	/* LEN: the bytes */
	size_t len;
};
int fold_pb_next(struct fold_pb *b, struct fold_pb_field *f,
    const char **why);

/*
 * The varint at *p (before end): 1 with *v set and *p moved past it, 0 if
 * it is damaged (cut by end, more than 10 bytes, or past 2^64 - 1).
 */
int fold_pb_varint_slow(const unsigned char **p, const unsigned char *end,
    uint64_t *v);
static inline int
fold_pb_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	const unsigned char *q = *p;

	/* most are one to three bytes (ids, string indexes, small values) */
	if (end - q >= 3) {
		if (q[0] < 0x80) {
			*v = q[0];
			*p = q + 1;
			return 1;
		}
		if (q[1] < 0x80) {
			*v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
			*p = q + 2;
			return 1;
		}
		if (q[2] < 0x80) {
			*v = (uint64_t)(q[0] & 0x7f) |
			    (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)q[2] << 14;
			*p = q + 3;
			return 1;
		}
	}
	return fold_pb_varint_slow(p, end, v);
}

/* ---- pprof.c: profiles to folded stacks -------------------------------- */

/*
 * The collapser behind stackcollapse-pprof(1).  A profile (gzip-compressed
 * as Go writes it, or raw, told apart by its first bytes) is read whole:
 * a first pass over its top-level fields finds the tables (sample types,
 * mappings, locations, functions, strings: they may come in any order,
 * after the samples too), a second streams over the samples.  Each
 * sample's stack is its locations, root first, each location its lines
 * reversed (the functions inlined there after their caller); the value
 * taken is the one of the sample type chosen (sample_index, as pprof's
 * -sample_index: a number or a type name; NULL: default_sample_type, else
 * the last).  Each location's frames are made once (names interned); a
 * stack is kept once, as its frame ids, with its sum.  Profiles are
 * summed; fold_pprof_print() writes one line per distinct stack, sorted by
 * its bytes (as sort(1)), without making the texts in memory.
 *
 *  - A frame is the function's name, its system_name when the name is
 *    empty, "[unknown]" when both are; a location without lines is
 *    "[BASENAME]" of its mapping's file ("[unknown]" without one), with
 *    FOLD_PPROF_ADDRS "[BASENAME <0xADDR>]".  ';' becomes ':', CR and LF a
 *    space.  FOLD_PPROF_LINES appends ":FILE:LINE" ("??" for no file, "?"
 *    for line 0; nothing when both are missing); FOLD_PPROF_DEMANGLE
 *    demangles C++ and Rust names (fold_demangle(), as c++filt -p).
 *  - labels (nlabels keys, may be 0): a root frame each, first key at the
 *    root, from the sample's label of that key: its string values then
 *    its numbers (with num_unit after, if any) joined by ',', "[unknown]"
 *    when the sample has none (pprof's -tagroot).
 *  - Samples of value 0 and samples without locations are skipped; a
 *    negative value (a -diff_base profile) skips the sample and is
 *    reported once per input (a warning; fatal with STRICT).  A sum past
 *    2^64 - 1 is an error.
 *  - An input that is damaged (cut, a bad gzip checksum, a varint too
 *    long, an id or string index pointing nowhere, a sample whose values
 *    do not match the sample types) or whose sample index does not exist
 *    is reported as "prog: name: what is wrong", status becomes 1, and
 *    nothing of that input is counted.
 *  - FOLD_PPROF_LIST: fold_pprof_add() prints the sample types instead,
 *    "INDEX TYPE UNIT" a line, "(default)" after the default's.
 */
enum {
	FOLD_PPROF_LINES = 1 << 0,	/* :FILE:LINE after each name */
	FOLD_PPROF_ADDRS = 1 << 1,	/* addresses of line-less locations */
	FOLD_PPROF_DEMANGLE = 1 << 2,	/* demangle C++ and Rust names */
	FOLD_PPROF_QUIET = 1 << 3,	/* no warnings */
	FOLD_PPROF_STRICT = 1 << 4,	/* a skipped sample is fatal */
	FOLD_PPROF_LIST = 1 << 5	/* print the sample types only */
};
struct fold_pprof_st;
struct fold_pprof {
	int status;			/* 1 once an error happened */
	struct fold_pprof_st *st;	/* private */
};
/* sample_index and the labels are copied. */
struct fold_pprof *fold_pprof_new(unsigned flags, const char *sample_index,
    char **labels, size_t nlabels);
/* One profile in memory, name for messages: 0, or -1 (reported, status 1,
 * nothing of it kept).  nfiles > 1 with LIST: a "name:" line first. */
int fold_pprof_add(struct fold_pprof *p, const char *name,
    const unsigned char *data, size_t n);
/* Read each file ("-" or none: stdin) whole and add it. */
void fold_pprof_run(struct fold_pprof *p, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer: once, after the last
 * add (the stacks are overwritten by their sort keys). */
void fold_pprof_print(struct fold_pprof *p);
/* Free everything; the exit status (0 or 1). */
int fold_pprof_end(struct fold_pprof *p);

#endif
