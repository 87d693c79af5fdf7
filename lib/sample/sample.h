/*
 * sample.h - macOS sample(1) reports to folded stacks (lib/sample/).  Uses
 * symbols (finishing half-demangled Rust names) and base.
 */
#ifndef FOLD_SAMPLE_H
#define FOLD_SAMPLE_H

#include "fold.h"

/* ---- sample.c: the call graph of a sample report, folded -------------- */

/*
 * The collapser behind stackcollapse-sample(1).  A report is what
 * /usr/bin/sample and Activity Monitor's "Sample Process" write: a preamble
 * ("Analysis of sampling NAME (pid N) ...", header lines), "Call graph:",
 * the tree of frames, one a line, and "Total number in stack ..." after it
 * (the rest is skipped until the next "Call graph:", so reports put one
 * after the other are all read).  A tree line is 4 spaces, depth markers
 * ([ +!:|], two a level), a count and the frame: the thread at level 0,
 * kept whole ("Thread_1234   DispatchQueue_1: com.apple.main-thread
 * (serial)"), then "NAME  (in MODULE) + OFF[,OFF...]  [0xADDR,...]" or
 * "NAME  (in MODULE)  load address 0xBASE + 0xOFF  [0xADDR]", maybe with a
 * "  file.c:12" after.  A frame is read from the right (source line,
 * addresses, offsets or load address, the last "  (in MODULE)"); what is
 * left is the name, whole.  A trailing " (.llvm.N)" (the number LTO gives
 * a promoted local symbol, new in every build) is dropped, a Rust legacy
 * name left half demangled ("a::b::h<16 hex>") is finished, ".dylib" is
 * dropped from the module and ';' becomes ':'.  The frame is
 * "MODULE`NAME", or NAME with NO_MODULES or without "(in".
 *
 * A node's own samples are its count minus its children's; each distinct
 * stack's are summed.  Stacks whose leaf is exactly one of the wait
 * functions of fold_samplerep_idle[] are left out (counted: idle) unless
 * ALL.  Output: one line per distinct stack, in byte order.
 *
 *  - Use: fold_samplerep_new(), fold_samplerep_run() (or _line() for each
 *    line with file and lineno set, then _eof() after each input), then
 *    _print() once (it uses up the trees' child lists: no line after it)
 *    and _end().  Memory grows with the distinct stacks and frames and the
 *    deepest stack, not with the input (the texts of lines seen lately are
 *    kept too, 2 MB a tree at most); a regular file is read in place
 *    (FOLD_IN_WINDOW).
 *  - _run() reads in two threads when FOLDKIT_SAMPLE_THREADS is 2, or is
 *    not set and the input is a regular file of 4 MB or more with two
 *    processors online; never with STRICT.  A single mapped file with
 *    threads' lines spread in it is read in chunks (with pread(2), the
 *    map where a read fails), each thread into a tree of its own (kept
 *    in r until _end()); _print() then sorts each tree's frames in its
 *    thread and writes the two trees at once, from two threads, when
 *    stdout takes writes at an offset (fo_at_begin()).  The second thread
 *    is made once, for the reading and _print() (fold_pair_new()), and
 *    ends in _end().  Else one thread reads lines and the caller's builds
 *    the tree.  Output, messages, their order and the status are the same
 *    as in one thread.  A bad FOLDKIT_SAMPLE_THREADS exits 2.
 *  - A line that is not a tree line (no 4 spaces, depth markers only or an
 *    odd number of them, a level skipped, no count, a count past 2^64 - 1,
 *    children's counts above their parent's) is "prog: file:line: what is
 *    wrong": status 1, the line skipped, and with it the lines below it and
 *    the own samples of the frame above it (unknown now); with STRICT it is
 *    fatal (exit 1).  So are an input without "Call graph:" and one that
 *    ends inside the tree (the stacks read are kept).  QUIET silences the
 *    note on idle samples only.
 */
enum {
	FOLD_SAMPLEREP_NO_THREADS = 1 << 0,	/* no thread root frame */
	FOLD_SAMPLEREP_NO_MODULES = 1 << 1,	/* NAME, not MODULE`NAME */
	FOLD_SAMPLEREP_ALL = 1 << 2,		/* keep idle stacks */
	FOLD_SAMPLEREP_QUIET = 1 << 3,		/* no note on idle samples */
	FOLD_SAMPLEREP_STRICT = 1 << 4		/* the first error is fatal */
};
/* The wait functions whose stacks are idle: NULL-terminated. */
extern const char *const fold_samplerep_idle[];

struct fold_samplerep_st;
struct fold_samplerep {
	const char *file;		/* set by the caller, for messages */
	unsigned long long lineno;
	int status;			/* 1 once an error happened */
	uint64_t idle;			/* samples left out as idle */
	struct fold_samplerep_st *st;	/* private */
};
struct fold_samplerep *fold_samplerep_new(unsigned flags);
void fold_samplerep_line(struct fold_samplerep *r, const char *line,
    size_t len);
void fold_samplerep_eof(struct fold_samplerep *r);
/* Read all of a file list ("-" or none: stdin) through _line() and _eof(). */
void fold_samplerep_run(struct fold_samplerep *r, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer. */
void fold_samplerep_print(struct fold_samplerep *r);
/* The note on idle samples; free everything; the exit status (0 or 1). */
int fold_samplerep_end(struct fold_samplerep *r);

#endif
