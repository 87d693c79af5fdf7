/*
 * perf.h - perf's output to folded stacks (lib/perf/): perf script text
 * (perf.c) and perf.data recordings (perfdata.c), which feeds the same
 * collapser with samples so that both paths give the same stacks.  Uses
 * symbols, folded and base.
 *
 *  - Input is hostile: any bytes in text; in perf.data every offset, size
 *    and count is checked against what was read.  Bad input is reported
 *    ("prog: file:line: ..." or "prog: file: offset N: ...") and the rest
 *    read; status becomes 1.
 *  - Lifetimes: strings passed in are copied; ids stay valid until
 *    fold_perf_end().
 *  - Fatal: --strict's first unrecognized line (exit 1).
 */
#ifndef FOLD_PERF_H
#define FOLD_PERF_H

#include "fold.h"

/* ---- perf.c: perf script to folded stacks ------------------------------ */

/*
 * The collapser behind stackcollapse-perf(1): `perf script` text in, one
 * folded line per distinct stack out ("root;caller;...;leaf COUNT", sorted by
 * the bytes of the stack).  Create with fold_perf_new(), feed lines (without
 * the '\n') with fold_perf_line() or whole inputs with fold_perf_run(), then
 * fold_perf_print() and fold_perf_end().
 *
 *  - Any bytes are accepted: lines of any length, NUL and non-UTF-8 bytes,
 *    '\r' before the newline.  Nothing is allocated per line; memory grows
 *    with the distinct stacks and distinct frame lines only.
 *  - Before each fold_perf_line() the caller sets file and lineno (used in
 *    messages) and nonl (the line is the input's last and had no newline).
 *    fold_perf_eof() ends one input: a sample still open is kept, with a
 *    warning that the input ended mid-sample.
 *  - Unrecognized lines are counted and reported once by fold_perf_end()
 *    ("prog: file:line: unrecognized line (N ...)"); with FOLD_PERF_STRICT
 *    the first is fatal (exit 1).  FOLD_PERF_QUIET silences warnings, not
 *    errors.  A count sum past 2^64 - 1 is an error: the sample is dropped
 *    and status becomes 1.
 *  - FOLD_PERF_INLINE reads the names (and with FOLD_PERF_CONTEXT the
 *    source lines) addr2line -i -f -s -C would give, with libfold's DWARF
 *    reader (fold_dwarf_open()): no process is started.
 */
enum {
	FOLD_PERF_PID = 1 << 0,		/* root "comm-PID" */
	FOLD_PERF_TID = 1 << 1,		/* root "comm-PID/TID" (wins over PID) */
	FOLD_PERF_KERNEL = 1 << 2,	/* _[k] on kernel frames */
	FOLD_PERF_JIT = 1 << 3,		/* _[j] on /tmp/perf-N.map frames */
	FOLD_PERF_ADDRS = 1 << 4,	/* [module <addr>] for unknown symbols */
	FOLD_PERF_INLINE = 1 << 5,	/* expand inlined frames (DWARF) */
	FOLD_PERF_CONTEXT = 1 << 6,	/* with INLINE: name:file:line */
	FOLD_PERF_SRCLINE = 1 << 7,	/* input has perf script -F+srcline lines */
	FOLD_PERF_SAMPLES = 1 << 8,	/* count samples, not periods */
	FOLD_PERF_QUIET = 1 << 9,	/* no warnings */
	FOLD_PERF_STRICT = 1 << 10,	/* an unrecognized line is fatal */
	FOLD_PERF_DEMANGLE = 1 << 11	/* demangle C++ and Rust names */
};
struct fold_perf_opts {
	unsigned flags;
	const char *event;	/* keep this event only; NULL: the first seen */
	const char *skip_after;	/* drop the callers of the innermost FUNC */
};
struct fold_perf_st;
struct fold_perf {
	const char *file;		/* set by the caller, for messages */
	unsigned long long lineno;
	int nonl;
	int status;			/* 1 once an error happened */
	struct fold_perf_st *st;	/* private */
};
struct fold_perf *fold_perf_new(const struct fold_perf_opts *o);
void fold_perf_line(struct fold_perf *p, const char *line, size_t len);
void fold_perf_eof(struct fold_perf *p);
/* Read all of a file list ("-" or none: stdin) through fold_perf_line(). */
void fold_perf_run(struct fold_perf *p, int nfiles, char **files);
/* Write the folded stacks with the fo_*() writer. */
void fold_perf_print(struct fold_perf *p);
/* Final warnings; free everything; the exit status (0 or 1). */
int fold_perf_end(struct fold_perf *p);

/* ---- perf.c (structured samples), perfdata.c: perf.data ------------- */

/*
 * perf.c's collapser fed with samples instead of text (the perf.data
 * reader): the same names, annotations, filters and counts as the frame
 * lines perf script would print for them.
 *
 * fold_perf_frame_id(): the id of a frame as perf script prints it: addr is
 * the address it prints (a user address as the offset in its file, other
 * addresses as they are), sym the symbol without "+0x" offset (NULL:
 * [unknown]), dso the object (NULL: [unknown]); demangle: as perf script
 * (without --no-demangle) prints the name.  With ninl names in inl the
 * frame is the frames perf script prints for it with inlined frames:
 * each name, outermost first, as the symbol's frame where it is the
 * symbol's name (demangled as perf demangles, if demangle), else as a
 * frame "NAME (inlined)".  Strings are copied; ids stay valid until
 * fold_perf_end().  java: the sample's root starts with
 * "java".  The names are made once per distinct frame.
 * fold_perf_root(): the root frame of a command and thread (pid NULL:
 * unknown, printed "?", as perf script's default output has no PID); *java
 * is set for fold_perf_frame_id().
 * fold_perf_want(): 1 if samples of event (NULL: no event, as tracepoints
 * print) are kept, by --event-filter or the first event seen.
 * fold_perf_sample(): one sample, frames leaf first; period 0 counts 1.
 * It is fold_perf_count(p, fold_perf_stack(p, root, frames, n),
 * fold_perf_weight(p, period)): fold_perf_stack() gives the id of the
 * stack the frames make (the same frames, the same id, for the life of p),
 * fold_perf_weight() what a sample of that period counts (1 with
 * FOLD_PERF_SAMPLES), fold_perf_count() adds a count to a stack; so a
 * caller may add up the samples of one stack first (the same counts as
 * one by one while the sum of every count, fold_perf_counted(), stays
 * below 2^64: no count can be too large then, in any order).
 * fold_perf_run_fd(): text input on fd whose first n bytes were already
 * read into head.
 */
struct fold_perf_frame {
	uint64_t addr;
	const char *sym;
	size_t symlen;
	const char *dso;
	size_t dsolen;
	int demangle;		/* demangle sym as perf script does */
	const char *const *inl;	/* the functions at addr, innermost first,
				   as addr2line names them (fold_symsrc_
				   inlines()); NULL: none */
	size_t ninl;
};
uint32_t fold_perf_frame_id(struct fold_perf *p,
    const struct fold_perf_frame *f, int java);
uint32_t fold_perf_root(struct fold_perf *p, const char *comm, size_t commlen,
    const char *pid, const char *tid, int *java);
int fold_perf_want(struct fold_perf *p, const char *event, size_t len);
void fold_perf_sample(struct fold_perf *p, uint32_t root, uint64_t period,
    const uint32_t *frames, size_t n);
uint32_t fold_perf_stack(struct fold_perf *p, uint32_t root,
    const uint32_t *frames, size_t n);
uint64_t fold_perf_weight(struct fold_perf *p, uint64_t period);
uint64_t fold_perf_counted(struct fold_perf *p);
void fold_perf_count(struct fold_perf *p, uint32_t stack, uint64_t weight);
void fold_perf_run_fd(struct fold_perf *p, int fd, const char *name,
    const char *head, size_t n);

/*
 * perf.data to folded stacks (perfdata.c): file mode and pipe mode (perf
 * record -o -), either byte order, read with the symbol sources above and
 * fed to a fold_perf.  Read with pread(2) and read(2) into 256 KiB chunks
 * (pipe mode streams; file mode through a pipe is copied to a temporary
 * file in $TMPDIR first, over 16 MiB, or read whole where it cannot be);
 * the data of a --call-graph dwarf capture is mapped instead (only the
 * pages the unwinding touches are read) where a page fault costs less
 * than copying, as timed on the file's first 16 MiB (over 256 MB of data).
 * Records are delivered in perf's order (sorted by time up to each
 * FINISHED_ROUND); memory grows with the threads, maps, symbols and
 * distinct stacks, and with the records of one round.
 *
 * What cannot be read right is refused with a message (the tool then
 * exits 1 writing nothing): --call-graph dwarf captures, zstd-compressed
 * records, AUX area traces, directory format, a header it cannot read.
 * Damaged data is reported ("prog: file: offset N: ...") and the rest
 * read; a file cut short is read up to the last whole record, with a
 * warning.  Names that would break a folded line (a newline in a command,
 * symbol or object name; an empty command) are made safe.
 */
enum {
	FOLD_PERFDATA_QUIET = 1,	/* no warnings */
	FOLD_PERFDATA_PROGRESS = 2,	/* progress on stderr (a terminal) */
	FOLD_PERFDATA_NOINLINE = 8,	/* no inlined frames (perf script
					   --no-inline) */
	FOLD_PERFDATA_INLINE = 16,	/* inlined frames for -g captures
					   too (perf 7.0's perf script) */
	FOLD_PERFDATA_DEMANGLE = 4,	/* names as perf script prints them,
					   not as --no-demangle */
	FOLD_PERFDATA_MAP = 32,		/* a dwarf capture's data mapped, */
	FOLD_PERFDATA_READ = 64		/* or read(2), not measured first */
};
struct fold_perfdata_opts {
	const char *buildid_dir;	/* NULL: perf's default */
	const char *symfs;		/* NULL: none */
	unsigned flags;
};
struct fold_perfdata;
/* 1 if the 8 bytes at p are perf.data's magic, in either byte order. */
int fold_perfdata_magic(const void *p, size_t n);
/* The reader; its symbol sources (files opened and indexed) are kept for
 * all the files it reads. */
struct fold_perfdata *fold_perfdata_new(const struct fold_perfdata_opts *o);
/* One perf.data input on fd into p, its first nhead (8 <= nhead <= 16)
 * bytes already read into head, which must have room for 16.  0; 1 after
 * an error (reported, the rest read); 2 when the file was refused
 * (reported, not read further: write no stacks, exit 1). */
int fold_perfdata_file(struct fold_perfdata *d, struct fold_perf *p, int fd,
    const char *name, unsigned char *head, size_t nhead);
void fold_perfdata_free(struct fold_perfdata *d);
/* Read a list of inputs ("-" or none: stdin), each perf.data or perf
 * script text by its first bytes.  1 if a perf.data input was refused. */
int fold_perf_run_any(struct fold_perf *p, const struct fold_perfdata_opts *o,
    int nfiles, char **files);


/* ---- unwind.c: user stacks of --call-graph dwarf samples --------------- */

/*
 * The user stack of one sample, walked as perf 6.1 walks it (see
 * unwind.c): regs[] by perf's register number (PERF_REG_X86_*), valid
 * where bit N of mask is set; the stack copy of size bytes (the sample's
 * dyn_size) from address sp.  find(): the CFI of the object mapped at
 * addr and addr's virtual address in it, or NULL (no map, or no CFI
 * sections: the walk ends).  filemem(): the 8 bytes at addr from the file
 * mapped there (0); 1 when a map holds addr but no file can be read there
 * (read as 0); -1 when no map holds it.
 * fold_unwind_x86_64() writes at most max addresses to ips, the first the
 * sample's IP, then each caller's return address minus one (as it is
 * for the frame a signal interrupted), and returns how many.  cache
 * (fold_unwind_cache_new(), for all the samples of a run; fixed size)
 * keeps the CFI rows found.  The work is bounded by max and the CFI's own
 * bounds.  fold_unwind_reach(): how many bytes from the stack pointer up
 * the walks with cache have been reading of late (a maximum that decays
 * by 1/64 a walk): what a caller may prefetch of the next stack copy.
 */
struct fold_cfi;
struct fold_unwind_cache;	/* rows found, by object and address */
struct fold_unwind_cache *fold_unwind_cache_new(void);
void fold_unwind_cache_free(struct fold_unwind_cache *c);
uint64_t fold_unwind_reach(const struct fold_unwind_cache *c);
struct fold_unwind_in {
	const uint64_t *regs;
	uint64_t mask;
	const unsigned char *stack;
	uint64_t sp, size;
	struct fold_cfi *(*find)(void *arg, uint64_t addr, uint64_t *vaddr);
	int (*filemem)(void *arg, uint64_t addr, uint64_t *val);
	void *arg;
	struct fold_unwind_cache *cache;	/* NULL: none */
};
size_t fold_unwind_x86_64(const struct fold_unwind_in *in, uint64_t *ips,
    size_t max);

#endif
