/*
 * xctrace.h - Instruments exports (xctrace export XML) to folded stacks
 * (lib/xctrace/).  Uses markup (the XML reader), symbols (demangling)
 * and base.
 */
#ifndef FOLD_XCTRACE_H
#define FOLD_XCTRACE_H

#include "fold.h"

/* ---- xctrace.c: xctrace export XML to folded stacks -------------------- */

/*
 * The collapser behind stackcollapse-xctrace(1).  An input is the XML of
 * `xctrace export --xpath '/trace-toc/[*]/data/table[@schema="S"]'` for
 * S time-profile (Time Profiler), cpu-profile (CPU Profiler) or
 * counters-profile (CPU Counters), read as a stream of XML events
 * (fold_xml): one or more <node> tables, each a <schema> (its columns:
 * the backtrace, weight, thread and process columns are found by their
 * mnemonic, never by position) then <row>s, a cell per column.
 *
 *  - id= and ref=: an element written whole once with id= may be written
 *    again as ref= to that id, in any later row or node: the frames,
 *    binaries, backtraces, tagged backtraces, weights, threads, processes,
 *    tids and pids read are resolved so (a ref to no element of that
 *    kind read before, or an id given twice, is an error).  Elements not
 *    needed (times, cores, states; threads and processes without PID or
 *    TID; weights without WEIGHT) are skipped, their ids not kept.
 *  - A backtrace is its frames, leaf first; a <tagged-backtrace> holds a
 *    <backtrace> (Xcode 26) or its frames directly (Xcode 27).  A row
 *    whose backtrace cell is <sentinel/> (or an empty backtrace, or none)
 *    is counted apart, not folded: how many is said once per input (a
 *    warning).
 *  - A frame is its name (entities decoded by the reader), ';' made ':'
 *    and CR, LF made spaces; a Rust legacy name that Instruments left
 *    half-demangled ("a::b::h<16 hex>", "_$LT$...") is finished as c++filt
 *    finishes it (fold_rust_remangle()), else its "::h<hash>" is cut;
 *    DEMANGLE demangles names still mangled (_Z..., _R..., fold_demangle).
 *    A frame without a name is "[BINARY]" from its <binary name>, else its
 *    addr, else "[unknown]".  Each distinct name is made once.
 *  - Value: 1 per row, or with WEIGHT the row's weight cell (ns, cycles,
 *    events).  PID: a root frame "PROCESS-PID" of the row's process; TID:
 *    "PROCESS-PID/TID" (as stackcollapse-perf.pl --pid, --tid).
 *  - Refused, with a message saying which export to run, nothing of the
 *    input counted: a table of contents (--toc), a time-sample table or
 *    any table without a backtrace column, an export in which no frame
 *    has a symbol name (only addresses: not symbolicated).
 *  - Damaged XML (cut, bad markup, a bad entity), a bad ref or id, a bad
 *    number: "prog: name:line: what is wrong", status 1; the rows before
 *    it are kept (a row counts at its end tag), the rest of that input
 *    is not read.  A sum past 2^64 - 1 is an error.
 *  - Memory grows with the distinct frames, backtraces, threads, weights
 *    and stacks, never with the rows; the XML reader holds one token.
 *  - Inputs ("-" or none: stdin) are summed; fold_xctrace_print() writes
 *    one line per distinct stack, sorted by its bytes (as sort(1)); to
 *    a regular file or /dev/null, from 4096 lines, in two halves at once
 *    by two threads, each at its offset (pwrite(2)).  One thread is made
 *    for all an xc's work in two (fold_pair_new()), the first time.  An
 *    input that is a directory or ends in ".trace" is a trace bundle: it
 *    is exported by running `xctrace export` with the time-profile xpath
 *    (found on PATH) and its output read.
 */
enum {
	FOLD_XCTRACE_WEIGHT = 1 << 0,	/* sum the weight column */
	FOLD_XCTRACE_DEMANGLE = 1 << 1,	/* demangle C++ and Rust names */
	FOLD_XCTRACE_PID = 1 << 2,	/* PROCESS-PID root frames */
	FOLD_XCTRACE_TID = 1 << 3,	/* PROCESS-PID/TID root frames */
	FOLD_XCTRACE_QUIET = 1 << 4,	/* no warnings */
	FOLD_XCTRACE_ONE = 1 << 5,	/* one reader and one writer,
					   whatever the input */
	FOLD_XCTRACE_TWO = 1 << 6	/* two readers and two writers where
					   they can be, whatever its size */
};
struct fold_xctrace_st;
struct fold_xctrace {
	int status;			/* 1 once an error happened */
	struct fold_xctrace_st *st;	/* private */
};
struct fold_xctrace *fold_xctrace_new(unsigned flags);
/*
 * One export, name for messages: from descriptor fd, or when fd < 0 from
 * data[0..n) in chunks of chunk bytes (0: large ones; the fuzzer's small
 * ones test the reader's seams).  0, or -1 (reported, status 1).
 */
int fold_xctrace_add(struct fold_xctrace *x, const char *name, int fd,
    const void *data, size_t n, size_t chunk);
/* Each file ("-" or none: stdin; a .trace bundle exported) added. */
void fold_xctrace_run(struct fold_xctrace *x, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer, once, after the last
 * add. */
void fold_xctrace_print(struct fold_xctrace *x);
/* Free everything; the exit status (0 or 1). */
int fold_xctrace_end(struct fold_xctrace *x);

#endif
