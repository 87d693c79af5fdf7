/*
 * dtrace.h - DTrace and bpftrace stacks to folded stacks (lib/dtrace/).
 * Uses symbols (demangling) and base.
 */
#ifndef FOLD_DTRACE_H
#define FOLD_DTRACE_H

#include "fold.h"

/* ---- dtrace.c: DTrace and bpftrace stacks to folded stacks ------------- */

/*
 * The collapser behind stackcollapse-dtrace(1): the aggregations printed by
 * dtrace(1) (@[stack()], @[ustack()], both) or bpftrace(8) (@[kstack],
 * @[ustack], @name[...]) in, one folded line per distinct stack out, sorted
 * by the bytes of the stack.  Records are read one at a time: frames leaf
 * first, then the count; the cleaned frames are appended to a reused buffer
 * as they come and the record is looked up once; the folded text is made
 * once per distinct stack.  Use: fold_dtrace_new(), fold_dtrace_line() for
 * each line (or fold_dtrace_run() for whole inputs) with fold_dtrace_eof()
 * after each input, then fold_dtrace_print() and fold_dtrace_end().
 *
 *  - Any bytes are accepted, NUL and non-UTF-8 included; a '\r' ending a
 *    line is dropped.  Memory grows with the distinct stacks and the
 *    longest record, not with the input.
 *  - The caller sets file and lineno (for messages) before each line; file
 *    must stay valid until fold_dtrace_end().  fold_dtrace_eof() ends one
 *    input (a format is detected per input): a record still open (frames, no
 *    count) is dropped with a warning naming the line it began on; with
 *    FOLD_DTRACE_STRICT that is fatal (exit 1).
 *  - Lines that fit neither format (only possible around bpftrace records)
 *    are counted and reported once by fold_dtrace_end(); with STRICT the
 *    first is fatal.  A count or a sum past 2^64 - 1 is an error: the
 *    record is dropped and status becomes 1.  QUIET silences warnings only.
 */
enum {
	FOLD_DTRACE_OFFSET = 1 << 0,	/* keep +0x offsets (not the leaf's) */
	FOLD_DTRACE_DEMANGLE = 1 << 1,	/* demangle C++ and Rust symbols */
	FOLD_DTRACE_QUIET = 1 << 2,	/* no warnings */
	FOLD_DTRACE_STRICT = 1 << 3	/* anything dropped is fatal */
};
struct fold_dtrace_st;
struct fold_dtrace {
	const char *file;		/* set by the caller, for messages */
	unsigned long long lineno;
	int status;			/* 1 once an error happened */
	struct fold_dtrace_st *st;	/* private */
};
struct fold_dtrace *fold_dtrace_new(unsigned flags);
void fold_dtrace_line(struct fold_dtrace *d, const char *line, size_t len);
void fold_dtrace_eof(struct fold_dtrace *d);
/* Read all of a file list ("-" or none: stdin) through fold_dtrace_line(). */
void fold_dtrace_run(struct fold_dtrace *d, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer. */
void fold_dtrace_print(struct fold_dtrace *d);
/* Final warnings; free everything; the exit status (0 or 1). */
int fold_dtrace_end(struct fold_dtrace *d);

#endif
