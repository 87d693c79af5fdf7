/*
 * samply.h - the Firefox Profiler's processed profile format (as samply
 * writes it: `samply record --save-only -o prof.json.gz`) to folded stacks
 * (lib/samply/): the profile read into one model whatever its version
 * (samply.c), names for the frames samply left unsymbolicated (names.c:
 * the .syms.json sidecar, the binaries).  Uses markup (JSON), symbols
 * (ELF, DWARF, demangling) and base (inflate, tables).
 *
 *  - Input is untrusted: every index is checked against its table before
 *    it is used, a stack's prefixes must end at a root (no cycle), a
 *    damaged profile is an error of that input ("prog: name: what is
 *    wrong", status 1) and nothing of it is counted.  Never fatal.
 *  - Memory: a profile (and its decompressed form) while it is read; its
 *    tables (what grows with the distinct stacks, frames and functions);
 *    then the distinct folded stacks, never anything per sample.
 *  - Fatal: out of memory.
 */
#ifndef FOLD_SAMPLY_H
#define FOLD_SAMPLY_H

#include "fold.h"

/*
 * The collapser behind stackcollapse-samply(1).  Versions 41 to 70 of the
 * format (meta.preprocessedProfileVersion) are read; another is refused
 * with a message naming it.  Every sample with a stack adds its weight
 * (1 where the weight column is null) to the stack's line; samples of all
 * threads and all profiles are summed.  Frames go root first.
 *
 * A frame's name is the function name the profile holds, unless it is a
 * frame of a library whose name is samply's placeholder (0x and the
 * frame's library-relative address): then the first source that knows
 * the address names it (the sidecar PROFILE.syms.json, the library's
 * binary at its path or found by its build id; inlined functions become
 * frames of their own, callers first), else it is "[LIB]" ("[LIB <0xADDR>]"
 * with FOLD_SAMPLY_ADDRS).  ';' in a name becomes ':', CR and LF a space.
 *
 * FOLD_SAMPLY_PID: a root frame "PROCESS-PID" per process; FOLD_SAMPLY_TID
 * (wins): "THREAD-PID/TID".  FOLD_SAMPLY_CPU: only samples whose
 * threadCPUDelta is above 0.  FOLD_SAMPLY_NOSYMS: no symbol source is
 * read (names as the profile has them).
 */
enum {
	FOLD_SAMPLY_ADDRS = 1 << 0,
	FOLD_SAMPLY_PID = 1 << 1,
	FOLD_SAMPLY_TID = 1 << 2,
	FOLD_SAMPLY_CPU = 1 << 3,
	FOLD_SAMPLY_QUIET = 1 << 4,
	FOLD_SAMPLY_NOSYMS = 1 << 5
};
struct fold_samply_st;
struct fold_samply {
	int status;			/* 1 once an error happened */
	struct fold_samply_st *st;	/* private */
};
/* symfs: a directory prefixed to every binary's path (perf's --symfs),
 * or NULL.  Copied. */
struct fold_samply *fold_samply_new(unsigned flags, const char *symfs);
/* One profile in memory (name for messages; path: where it was read
 * from, for its sidecar, or NULL): 0, or -1 (reported, status 1, nothing
 * of it kept). */
int fold_samply_add(struct fold_samply *s, const char *name,
    const char *path, const unsigned char *data, size_t n);
/* Read each file ("-" or none: stdin) whole and add it. */
void fold_samply_run(struct fold_samply *s, int nfiles, char **files);
/* Write the folded stacks (fo_*()), sorted by their bytes (as sort(1)). */
void fold_samply_print(struct fold_samply *s);
/* Free everything; the exit status (0 or 1). */
int fold_samply_end(struct fold_samply *s);

/* ---- names.c: names for unsymbolicated frames ---------------------------- */

/*
 * The symbol sources of one profile: its libraries (fold_samply_names_lib(),
 * in the order of the profile's libs), the sidecar (fold_samply_names_sidecar():
 * samply's .syms.json text, read at once; 0, or -1 with *why), and the
 * binaries, looked up the first time an address of their library is asked
 * for.  fold_samply_names_find(): the names at addr (library-relative),
 * innermost first, in *names (valid until the sources are freed): how
 * many, 0 when no source knows it.
 */
struct fold_samply_names;
struct fold_samply_lib {
	struct fold_str name, path, debug_name, debug_path, breakpad_id,
	    code_id;
};
struct fold_samply_names *fold_samply_names_new(const char *symfs,
    unsigned flags);
void fold_samply_names_lib(struct fold_samply_names *n,
    const struct fold_samply_lib *lib);
int fold_samply_names_sidecar(struct fold_samply_names *n,
    const unsigned char *text, size_t len, const char **why, size_t *off);
size_t fold_samply_names_find(struct fold_samply_names *n, size_t lib,
    uint64_t addr, const struct fold_str **names);
void fold_samply_names_free(struct fold_samply_names *n);

#endif
