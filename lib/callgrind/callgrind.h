/*
 * callgrind.h - valgrind's callgrind profiles to folded stacks
 * (lib/callgrind/callgrind.c).  Uses symbols (demangling) and base.
 *
 *  - Input is untrusted text, read a line at a time: every number is
 *    checked against 2^64 - 1, every name id against the definitions seen,
 *    every cost line against the positions and events declared.  A bad
 *    line is reported ("prog: file:line: what is wrong"), status becomes
 *    1 and the line is skipped; the rest of the file is still read (with
 *    FOLD_CG_STRICT the first one is fatal).
 *  - Memory: what grows with the distinct contexts, names and stacks of a
 *    profile, never with its number of lines; a file's tables are freed
 *    when it ends, the folded stacks of all files are kept until printed.
 *  - Fatal: out of memory; with FOLD_CG_STRICT, a bad line.
 */
#ifndef FOLD_CALLGRIND_H
#define FOLD_CALLGRIND_H

#include "fold.h"

/*
 * The collapser behind stackcollapse-callgrind(1).  A profile is read line
 * by line (fold_cg_begin(), fold_cg_line() for each line without its
 * '\n', fold_cg_end()); its self costs of one event (ev: a name; NULL:
 * Ir, else the first) are summed by call context, and when the file ends
 * each context becomes a folded stack:
 *
 *  - With call contexts (--separate-callers=N: fn= names are
 *    "callee'caller'caller's caller...", a recursion level "'2" after the
 *    callee), a context whose callers are all in its name is the whole
 *    stack, root first, weighted by its self cost.  The recursion level is
 *    dropped: callgrind keeps direct recursion as one frame.  Names are
 *    split at the separators only: with --compress-mangled=yes by the ids,
 *    else at the "'" after which the rest names another context (names
 *    with "'" inside are split at every "'" only in cut contexts).
 *  - A context with N callers, the most in the file, whose caller list is
 *    no context's name, is cut.  When exactly one context of N + 1
 *    functions starts with its callers, that one is its caller: the stack
 *    is completed through it (again and again); otherwise its frames go
 *    under a root frame "[stack cut]", and a warning says how much cost
 *    that is and which --separate-callers would be needed.
 *  - Without contexts (no name has a caller), each function is a stack of
 *    one frame with its self cost, and a warning says so once.
 *
 * Several files are summed; fold_cg_print() writes one line per distinct
 * stack, sorted by its bytes.  ';' in a name becomes ':'.  FOLD_CG_DEMANGLE
 * demangles C++ (with parameters, as callgrind's own --demangle=yes
 * prints them) and Rust names; FOLD_CG_OBJECTS writes a function that has
 * no name ("0x..." or "???") as "[OBJECT <0x...>]" or "[OBJECT]", OBJECT
 * the base name of its ob=.  FOLD_CG_LIST: print each file's events with
 * their totals instead ("EVENT TOTAL" lines, after a "file:" line when
 * there are several files).
 */
enum {
	FOLD_CG_DEMANGLE = 1 << 0,	/* demangle C++ and Rust names */
	FOLD_CG_OBJECTS = 1 << 1,	/* the object of unnamed functions */
	FOLD_CG_QUIET = 1 << 2,		/* no warnings */
	FOLD_CG_STRICT = 1 << 3,	/* a bad line is fatal */
	FOLD_CG_LIST = 1 << 4		/* print the events only */
};
struct fold_cg_st;
struct fold_cg {
	int status;			/* 1 once an error happened */
	struct fold_cg_st *st;		/* private */
};
/* ev is copied; nfiles: how many files will be read (for LIST). */
struct fold_cg *fold_cg_new(unsigned flags, const char *ev, int nfiles);
/* One file: name for messages; then its lines, numbered from 1; then its
 * end (its contexts folded, its tables freed), nonl set when its last line
 * had no '\n' (a file cut short). */
void fold_cg_begin(struct fold_cg *c, const char *name);
void fold_cg_line(struct fold_cg *c, const char *line, size_t len);
void fold_cg_end(struct fold_cg *c, int nonl);
/* Read each file ("-" or none: stdin) and add it. */
void fold_cg_run(struct fold_cg *c, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer, once, after the last
 * file. */
void fold_cg_print(struct fold_cg *c);
/* Free everything; the exit status (0 or 1). */
int fold_cg_free(struct fold_cg *c);

#endif
