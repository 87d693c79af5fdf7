/*
 * folded.h - the folded-stack format (lib/folded/, see folded(5)): one line
 * parsed and the reader over a list of files (folded.c), the frame ids of
 * sorted stacks (stackids.c), distinct stacks in frame order (stackset.c),
 * two profiles merged into one differential profile (fdiff.c).  Uses base.
 *
 *  - Lifetimes: a sample's stack points into the reader's line, valid
 *    until the next fold_read() (with stable set, until fold_reader_end());
 *    the ids of a stack until the next fold_stackids*() call; a stackset's
 *    records until the next add or the sort, its stack bytes until
 *    fold_stackset_free().
 *  - Fatal: only the first invalid line under strict (exit 1).  Otherwise
 *    invalid lines are counted, skipped and reported once.
 */
#ifndef FOLD_FOLDED_H
#define FOLD_FOLDED_H

#include "fold.h"

/* ---- folded.c: the folded-stack format (see folded(5)) ----------------- */

/* FOLD_OK or the error of a line (see count in base.h): its text. */
const char *fold_errstr(int err);

struct fold_sample {
	const char *stack;	/* points into the line; not NUL-terminated */
	size_t stacklen;
	fold_num count;		/* the count (the NEW one in STACK OLD NEW) */
	int frac;		/* count has a decimal part */
	int diff;		/* line had two counts */
	fold_num old;		/* the OLD count when diff */
	int stable;		/* from fold_read(): stack stays valid until
				   fold_reader_end() (a mapped file) */
};
/* Parse one line (trailing '\r' and blanks allowed).  FOLD_OK or an error. */
int fold_parse_line(const char *line, size_t len, struct fold_sample *s);

/*
 * The folded reader: lines from a fold_in, parsed; invalid lines counted and
 * skipped.  fold_read() returns the next valid sample (1) or 0 at the end.
 * Totals of the accepted counts are kept exactly: a line that would push
 * total or total_old past 2^64 - 1 is rejected as FOLD_EOVERFLOW.
 * With strict, the first invalid line is fatal (message, exit 1).
 * fold_reader_end() reports the invalid lines once ("prog: file:line: ...;
 * N invalid lines skipped") and returns the exit status so far.
 */
struct fold_reader {
	struct fold_in in;
	int strict;
	fold_num total, total_old;	/* sums of accepted counts */
	int frac;			/* a decimal count was seen */
	int diff;			/* a two-count line was seen */
	uint64_t lines;			/* all lines read, blank included */
	uint64_t samples;		/* accepted lines */
	uint64_t invalid;		/* rejected lines */
	int first_err;			/* error of the first rejected line */
	char *first_file;
	unsigned long long first_line;
	int overflow;			/* some line was rejected for overflow */
};
void fold_reader_init(struct fold_reader *r, int nfiles, char **files,
    int strict);
int fold_read(struct fold_reader *r, struct fold_sample *s);
int fold_reader_end(struct fold_reader *r);

/*
 * Frame ids of a stack, interned in t.  Folded files are sorted, so a stack
 * usually shares its first frames with the one before: those keep their ids
 * and only the frames after the first difference are looked up.  With strip,
 * annotations (_[k] ...) are removed before interning.  The array returned
 * is valid until the next call; *n is set to its length (at least 1).
 */
struct fold_stackids {
	struct fold_intern *t;
	int strip;
	char *prev;		/* the previous stack */
	size_t prevlen, prevcap;
	uint32_t *ids;		/* its frame ids */
	size_t *ends;		/* end offset of each frame in prev */
	uint64_t *hs;		/* hashes of the frames being pushed */
	size_t n, cap;
	size_t keep;		/* from the last diff */
	int same;		/* the last diff found the same stack */
};
void fold_stackids_init(struct fold_stackids *s, struct fold_intern *t,
    int strip);
const uint32_t *fold_stackids(struct fold_stackids *s, const char *stack,
    size_t len, size_t *n);
/*
 * The same in two steps, for callers that track frames as they come and
 * go: fold_stackids_diff() returns keep, the number of leading frames the
 * stack shares with the previous one, whose ids (s->ids[0..s->n)) are still
 * readable: frames keep..n-1 are leaving.  fold_stackids_push() then
 * interns the frames after keep and returns all the ids.
 */
size_t fold_stackids_diff(struct fold_stackids *s, const char *stack,
    size_t len);
const uint32_t *fold_stackids_push(struct fold_stackids *s, const char *stack,
    size_t len, size_t *n);
void fold_stackids_free(struct fold_stackids *s);

/* Split helpers: the next frame of a stack.  *pos starts at 0; returns 0
 * when no frame is left.  Frames may be empty ("a;;b"). */
int fold_next_frame(const char *stack, size_t len, size_t *pos,
    const char **f, size_t *flen);
/* Length of name without a trailing annotation _[k] _[j] _[i] _[w]. */
size_t fold_strip_annotation(const char *name, size_t len);
/*
 * Is the input differential ("STACK BEFORE AFTER")?  Decided by the first
 * valid line (blank and invalid lines before it are looked past, up to
 * 1000 lines), read ahead without consuming it: call before fold_read().
 */
int fold_reader_isdiff(struct fold_reader *r);

/* ---- stackset.c: distinct stacks in frame order (i11) ------------------ */

/*
 * Frame order: stacks compared frame by frame, each frame by its bytes,
 * shorter first on a common prefix, so a stack comes before those it is a
 * prefix of: "a;b" < "a;b;c" < "a;b-c" < "a;bc".  In this order the stacks
 * that share callers are next to each other and siblings come by name, so
 * a tree can be built by comparing each stack with the one before
 * (flamegraph.pl's flow).  Byte order (`sort`) differs only where a name
 * is a prefix of a sibling's name followed by a byte below ';' (bytes:
 * "a;b" < "a;b-c" < "a;b;c").
 *
 * fold_frame_cmp() is <0, 0, >0.  fold_common_prefix() is the length of
 * the common prefix of a and b, n bytes at most.
 */
int fold_frame_cmp(const char *a, size_t alen, const char *b, size_t blen);
size_t fold_common_prefix(const char *a, const char *b, size_t n);

/*
 * A stackset holds each distinct stack once (copied into its arena unless
 * the caller's bytes are stable), with
 * fields for the caller's sums (zero when the stack is first added).
 * Adding is cheap while the input comes in frame order (a comparison with
 * the stack before, which is also how a repeat is found); at the first
 * stack out of order the set starts hashing whole stacks.
 * fold_stackset_sort() then puts the records in frame order once (MSD
 * radix on the bytes, in place).  Record pointers stay valid until the
 * next add or the sort; the stack bytes until fold_stackset_free().
 * Memory grows with the distinct stacks only: a record and, once out of
 * order, a hash slot or two each (fresh pages cost: records are small).
 */
struct fold_stackrec {
	const char *s;		/* the stack */
	size_t len;
	fold_num count;		/* the caller's sums */
	double delta;
};
struct fold_stackset {
	struct fold_stackrec *recs;	/* in frame order once sorted */
	size_t n, cap, ready;		/* ready: resident (fold_prefault) */
	int sorted;		/* recs are in frame order */
	uint32_t *map;		/* index + 1 by hash, once out of order */
	uint64_t *hashes;	/* per record, once out of order */
	size_t mask;
	struct fold_arena arena;
};
void fold_stackset_init(struct fold_stackset *ss);
/* The record of stack s (len bytes), added if new.  With stable, s stays
 * valid as long as the set: it is not copied. */
struct fold_stackrec *fold_stackset_add(struct fold_stackset *ss,
    const char *s, size_t len, int stable);
/*
 * Put the records in frame order.  With minw > 0, a run of records sharing
 * a prefix whose counts (fold_num_dbl) sum below minw may be left in any
 * order: a tree built from them is the same down to the boxes at least
 * minw wide (narrower ones may come in pieces).
 */
void fold_stackset_sort(struct fold_stackset *ss, double minw);
void fold_stackset_free(struct fold_stackset *ss);

/* ---- fdiff.c: two profiles into one differential profile -------------- */

/*
 * The merge behind folddiff(1): the union of the stacks of BEFORE and AFTER
 * (paths, "-" for stdin: at most one) as "STACK BEFORE AFTER" lines, in
 * byte order of the stacks, written with fo_*().  Lines are read as
 * difffolded.pl reads them: the count is the last word (digits, or digits
 * '.' digits), the stack everything before the whitespace character in
 * front of it (so "a;b  5" has the stack "a;b ").  Counts of a stack are
 * summed exactly; a line that would take a file's total past 2^64 - 1 is
 * an error (skipped, status 1).  Invalid lines are reported as the folded
 * reader does ("prog: file:line: ..."; fatal with strict).
 * normalize: BEFORE's counts scaled to AFTER's total, floor(c * t2 / t1)
 * (difffolded.pl's int()); striphex: 0x[0-9a-fA-F]+ becomes "0x..." in the
 * stacks before they are merged.  Memory: a sorted regular file is read
 * through (mapped, unmapped behind the reader); the distinct stacks of an
 * input that is not (a pipe, or unsorted) are held.  Returns the exit status.
 */

struct fold_diff_opts {
	int normalize, striphex, strict;
};
int fold_diff_run(const char *before, const char *after,
    const struct fold_diff_opts *o);

#endif
