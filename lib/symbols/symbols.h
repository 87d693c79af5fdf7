/*
 * symbols.h - addresses to names (lib/symbols/): symbol tables (syms.c)
 * read from ELF files (elf.c), kallsyms and perf maps (ksyms.c); the
 * symbol sources of one perf.data run, found as perf finds them
 * (symsrc.c); call frame information for unwinding (cfi.c); inlined
 * functions from DWARF (dwarf.c);
 * demangling as c++filt does it (demangle.c, demangle_cxx.c,
 * demangle_rust.c: what is covered and the limits are in the header
 * comments of those two).  Uses base.
 *
 *  - Input files are hostile: every offset, size and count is checked
 *    against what was read; a malformed file gives fewer or no symbols and
 *    a message, never a crash or a hang.
 *  - Lifetimes: a name returned points into the mapped file or an arena of
 *    the object that returned it, valid until that object is freed.
 *    fold_symsrc_dso() handles live until fold_symsrc_free().
 *  - Threads: lookups in one table must not run in two threads at once;
 *    fold_symsrc reads in threads of its own only as stated below.
 *  - Nothing here is fatal but running out of memory.
 */
#ifndef FOLD_SYMBOLS_H
#define FOLD_SYMBOLS_H

#include "fold.h"

/* ---- syms.c, elf.c, ksyms.c, symsrc.c: addresses to symbol names ------ */

/*
 * What `perf script` prints as the symbol of an address, from the sources
 * perf reads: ELF files (.symtab, else .dynsym, plus name@plt entries),
 * kallsyms and /tmp/perf-PID.map files.  All input bytes are untrusted:
 * every offset and size is checked against the file; a malformed file gives
 * fewer or no symbols, never a crash or a hang.
 *
 * Names are NUL-terminated and point into the mapped file or an arena of the
 * object that returned them: valid until that object is freed.  Nothing is
 * allocated per lookup; lookups are binary searches over sorted arrays (and,
 * only where symbols overlap, a walk down a tree built as perf's).
 */

/*
 * A sorted symbol table (syms.c), built once by one of the parsers below.
 * Symbols at the same address are reduced to one by perf's rules; a symbol
 * of size 0 ends where the next one starts.  fold_syms_find(): the symbol
 * holding addr (start <= addr < end, or addr == start for a symbol still
 * of size 0) or NULL; *start (may be NULL) is its start.  *module (may be
 * NULL) is set to the kallsyms module name ("[ext4]") of that symbol, or
 * NULL for the kernel itself and for other tables.
 */
struct fold_syms;
/*
 * Building a table (elf.c, ksyms.c): fold_syms_new(), then fold_syms_add()
 * for each symbol in the source's order (name NUL-terminated, kept by
 * pointer: it must outlive the table; module likewise, or NULL; bind and
 * type are ELF's STB_* and STT_* values), then fold_syms_done() once, which
 * sorts and applies perf's rules for the kind of source: FOLD_SYMS_ELF,
 * FOLD_SYMS_KALLSYMS (zero-size symbols end at a page boundary where the
 * module changes), FOLD_SYMS_PERFMAP (perf applies no rules: sizes as
 * given, entries at one start all kept).  No lookup before
 * fold_syms_done().  fold_syms_own(): free(p) with the table.
 * A type with FOLD_SYM_LATE is a symbol perf adds after those rules (PLT
 * entries): it ends no zero-size symbol and is merged with none.
 * Where symbols overlap, the one found is the one perf's red-black tree
 * finds: the tree is rebuilt as perf builds it (see syms.c), by the first
 * lookup that needs it.  So a lookup may still write to the table (that
 * tree; the names a lazy kallsyms table has found, below): lookups in one
 * table must not run in two threads at once.
 */
#define FOLD_SYM_LATE 0x100
enum { FOLD_SYMS_ELF, FOLD_SYMS_KALLSYMS, FOLD_SYMS_PERFMAP };
struct fold_syms *fold_syms_new(void);
void fold_syms_add(struct fold_syms *t, uint64_t start, uint64_t size,
    const char *name, const char *module, int bind, int type);
void fold_syms_done(struct fold_syms *t, int kind);
void fold_syms_own(struct fold_syms *t, void *p);
void fold_syms_reserve(struct fold_syms *t, size_t n);	/* room for n */
const char *fold_syms_find(const struct fold_syms *t, uint64_t addr,
    uint64_t *start, const char **module);
size_t fold_syms_count(const struct fold_syms *t);
/* 1 if addr is inside a symbol without module (fold_syms_find finds it
 * alone at its start) that another symbol without module follows. */
int fold_syms_inner(const struct fold_syms *t, uint64_t addr);
void fold_syms_free(struct fold_syms *t);

/* Text symbol files (ksyms.c).  The buffer is copied into the table; it
 * need not be NUL-terminated.  Lines that do not parse are skipped. */
/* /proc/kallsyms: "ADDR TYPE NAME [\t[MODULE]]"; the types perf keeps (T,
 * W, D, B, either case), not names starting with '$'. */
struct fold_syms *fold_syms_kallsyms(const char *buf, size_t n);
/* The same, taking buf (from malloc, n + 1 bytes) instead of a copy.  The
 * table is read lazily where it can be (syms.c: one pass keeps the start and
 * line of each symbol, a lookup applies perf's rules where it lands);
 * fold_syms_kallsyms_full() builds it whole, the same answers (for checks).
 * fold_syms_kallsyms_lazy(): buf stays the caller's (n + 1 bytes, the last
 * set to 0 if it is not; the others are only read: names are copied out as
 * they are found), to keep as long as the table; NULL where the lazy form
 * cannot answer as the whole table would. */
struct fold_syms *fold_syms_kallsyms_own(char *buf, size_t n);
struct fold_syms *fold_syms_kallsyms_full(char *buf, size_t n);
struct fold_syms *fold_syms_kallsyms_lazy(char *buf, size_t n);
/* /tmp/perf-PID.map: "START SIZE NAME" (hex, NAME to the end of line). */
struct fold_syms *fold_syms_permap(const char *buf, size_t n);

/*
 * An ELF file (elf.c): ELF32 and ELF64, either byte order, no <elf.h>.
 * fold_elf_open() maps a regular file once (read-only); fold_elf_mem() reads
 * n bytes at p, which must stay valid and unchanged until fold_elf_free().
 * Both return NULL with *why set to a static message when the file cannot
 * be used (not ELF, truncated header, ...).  The symbol table is built only
 * when first needed (fold_elf_sym / fold_elf_nsyms).
 *
 * Symbols are placed as perf places them: at file offsets, each symbol
 * value moved by p_offset - p_vaddr of the PT_LOAD segment that holds it.
 * So an address addr in a map at start with page offset pgoff is looked up
 * as the offset addr - start + pgoff.  fold_elf_sym(): the symbol holding
 * that offset, or NULL; *start (may be NULL): the symbol's start offset.
 * fold_elf_runtime(): take program headers and PLT entries from rt (the
 * file that was mapped) while symbols come from e (a debug file); call
 * before the first lookup; rt must outlive e.
 * fold_elf_vaddr(): the virtual address of file offset off, through the
 * PT_LOAD segment holding it (1), or 0 when no segment holds it.
 * fold_elf_problem(): what was found wrong in the symbol table, once it is
 * read (a static message: "symbol table past the end of the file", ...),
 * or NULL; the symbols that could be read are used all the same.
 * fold_elf_buildid(): the GNU build id (its length, 0 if none; *id points
 * into the file).  fold_elf_has_symtab(), fold_elf_has_dynsym(): 1 if a
 * .symtab (.dynsym) section is present.
 */
struct fold_elf;
struct fold_elf *fold_elf_open(const char *path, const char **why);
struct fold_elf *fold_elf_mem(const void *p, size_t n, const char **why);
size_t fold_elf_buildid(const struct fold_elf *e, const unsigned char **id);
int fold_elf_has_symtab(const struct fold_elf *e);
int fold_elf_has_dynsym(const struct fold_elf *e);
int fold_elf_vaddr(const struct fold_elf *e, uint64_t off, uint64_t *vaddr);
void fold_elf_runtime(struct fold_elf *e, struct fold_elf *rt);
const char *fold_elf_sym(struct fold_elf *e, uint64_t off, uint64_t *start);
size_t fold_elf_nsyms(struct fold_elf *e);
const char *fold_elf_problem(struct fold_elf *e);
/*
 * fold_elf_section(): the bytes of the first section named name, or NULL
 * (none, no bytes in the file, or not all inside the file); *sec gets
 * them with their size, sh_addr and sh_flags (SHF_COMPRESSED 0x800: the
 * bytes are a compression header and compressed data).  They point into
 * the file: valid until fold_elf_free().
 * fold_elf_kind(): e_machine (EM_X86_64 62, EM_AARCH64 183, ...), and
 * whether the file is ELF64 and big-endian.
 */
struct fold_elf_sec {
	const unsigned char *p;
	uint64_t size, addr, flags;
};
const unsigned char *fold_elf_section(const struct fold_elf *e,
    const char *name, struct fold_elf_sec *sec);
int fold_elf_kind(const struct fold_elf *e, int *is64, int *be);
/* fold_elf_bytes(): the n bytes at file offset off, or NULL. */
const unsigned char *fold_elf_bytes(const struct fold_elf *e, uint64_t off,
    size_t n);

/*
 * fold_elf_section_plain(): the same, a SHF_COMPRESSED section (zlib, as
 * distributions ship debug files) inflated into *buf (malloc'd, the
 * caller frees it; NULL when the section was not compressed).  NULL with
 * *why set (a static message) when it cannot be read: compressed with
 * zstd or an unknown method, a damaged stream, over 1 GiB inflated; NULL
 * and *why NULL when there is no such section.
 * fold_elf_etype(): e_type (ET_EXEC 2, ET_DYN 3, ...).
 * fold_elf_shdr(): section i's address, size, flags and bytes (p NULL
 * when it has none in the file); 0 past the last section.
 */
const unsigned char *fold_elf_section_plain(const struct fold_elf *e,
    const char *name, struct fold_elf_sec *sec, unsigned char **buf,
    const char **why);
int fold_elf_etype(const struct fold_elf *e);
int fold_elf_shdr(const struct fold_elf *e, size_t i, struct fold_elf_sec *sec);

/* The file name in .gnu_debuglink (inside the file), or NULL. */
const char *fold_elf_debuglink(struct fold_elf *e);
void fold_elf_free(struct fold_elf *e);

/*
 * All symbol sources of one run (symsrc.c).  Objects are found, opened and
 * indexed lazily, each once per run (keyed by recorded path, with the build
 * id recorded for it).
 *
 * fold_symsrc_new(): symfs is perf's --symfs (a prefix for every path; NULL
 * or "": none); buildid_dir is perf's --buildid-dir (NULL:
 * $PERF_BUILDID_DIR, else $HOME/.debug).  Flags: FOLD_SYMSRC_QUIET.
 *
 * A file that cannot be used is reported once ("prog: path: why") unless
 * quiet, and its addresses resolve to NULL (perf prints [unknown]); so is a
 * damaged symbol table, when first read (its readable symbols are used).
 *
 * The order a user object is looked for is perf's (see symsrc.c): its
 * .gnu_debuglink file, the build-id cache (BUILDID_DIR/.build-id/xx/rest,
 * xx: the id's first byte in hex, rest: the others), /usr/lib/debug, then
 * the recorded path; all but the cache under SYMFS.  A file whose build id
 * differs from the known one is skipped.
 */
enum { FOLD_SYMSRC_QUIET = 1 };
struct fold_symsrc;
struct fold_dso;	/* one recorded object; owned by the fold_symsrc */
struct fold_symsrc *fold_symsrc_new(const char *symfs, const char *buildid_dir,
    unsigned flags);
/*
 * The build id recorded for path (BUILD_ID feature, HEADER_BUILD_ID
 * records; "[kernel.kallsyms]" for the kernel, "[vdso]" for the vDSO).  Call
 * before the first lookup in that object; a second id for the same path
 * replaces the first if no lookup was made yet, else it is ignored.
 */
void fold_symsrc_buildid(struct fold_symsrc *s, const char *path,
    size_t pathlen, const unsigned char *id, size_t idlen);
/*
 * Open and index, in a thread of its own, every object that has a build id
 * by now and no lookup yet (perf.data's BUILD_ID feature lists those that
 * samples hit), while the caller reads on; a lookup in one of them waits
 * for it, or takes it back if the thread has not begun it.  Once per run;
 * where no thread can be made, nothing is done ahead.
 */
void fold_symsrc_prefetch(struct fold_symsrc *s);
/*
 * The object of a recorded path, found or created (one hash lookup; nothing
 * is opened yet).  Keep the handle with the map: it is valid until
 * fold_symsrc_free().  A path /tmp/perf-PID.map is read as a perf map
 * (absolute addresses; not if another user than root owns it, as perf);
 * "[vdso]" is read from the build-id cache, else from this process's own
 * vDSO if its build id is the recorded one (or none was recorded).
 * Pseudo paths ([heap], //anon, /memfd:..., /dev/zero) have no symbols.
 */
struct fold_dso *fold_symsrc_dso(struct fold_symsrc *s, const char *path,
    size_t pathlen);
/*
 * The symbol of user address addr in a map of dso at [start, ...) with page
 * offset pgoff (the MMAP/MMAP2 record's fields), or NULL (perf prints
 * [unknown]).  *symstart (may be NULL): the symbol's start, in the same
 * address space as addr.
 */
const char *fold_symsrc_user(struct fold_symsrc *s, struct fold_dso *dso,
    uint64_t start, uint64_t pgoff, uint64_t addr, uint64_t *symstart);
/* JIT code: the symbol of addr in /tmp/perf-PID.map, or NULL. */
const char *fold_symsrc_jit(struct fold_symsrc *s, long pid, uint64_t addr,
    uint64_t *symstart);
/*
 * The kernel's relocation as recorded: the kernel map's MMAP record is named
 * "[kernel.kallsyms]" followed by the reference symbol (e.g. "_text") and
 * has that symbol's address as pgoff.  Pass the name after
 * "[kernel.kallsyms]" and that address: the kernel's symbols (not the
 * modules') in the kallsyms read are shifted by the difference (KASLR), as
 * perf does.  Optional; call before the first kernel lookup.
 */
void fold_symsrc_kernel_ref(struct fold_symsrc *s, const char *name,
    size_t namelen, uint64_t addr);
/*
 * A kernel address: the symbol (or NULL) from kallsyms, as perf chooses it
 * (/proc/kallsyms when the running kernel has the recorded build id or none
 * is recorded, else BUILDID_DIR/[kernel.kallsyms]/ID/kallsyms; read once, at
 * the first kernel lookup).  *dso (may be NULL) is set to the name perf
 * script prints as its dso: "[kernel.kallsyms]", or the module's "[name]"
 * from kallsyms' module column.
 */
const char *fold_symsrc_kernel(struct fold_symsrc *s, uint64_t addr,
    const char **dso, uint64_t *symstart);
/*
 * Reading kallsyms takes milliseconds; a caller with other work may have it
 * done in a thread of its own meanwhile.  fold_symsrc_kernel_busy(): 0 if
 * fold_symsrc_kernel() answers at once; else 1, and the kernel's symbols
 * are being read in the background (started by the first call, which
 * stands for the first kernel lookup: fold_symsrc_buildid() and
 * fold_symsrc_kernel_ref() for the kernel are then too late).  Where no
 * thread can be made they are read at once and it returns 0.
 * fold_symsrc_kernel_wait(): wait for that reading to end (a lookup waits
 * by itself).  While busy, calls for user objects may go on in the
 * caller's thread: the background reading touches nothing they touch.
 */
int fold_symsrc_kernel_busy(struct fold_symsrc *s);
void fold_symsrc_kernel_wait(struct fold_symsrc *s);
/*
 * For unwinding (--call-graph dwarf): fold_symsrc_cfi() is the CFI of
 * dso (made once: .eh_frame and .eh_frame_hdr of the file that was
 * mapped, else of the symbol file; .debug_frame of the symbol file, else
 * of the file mapped), and *vaddr the virtual address of file offset off
 * in it; NULL when the object has no file, no CFI sections, or no segment
 * holds off.  fold_symsrc_read(): n bytes at file offset off of the file
 * that was mapped (0), or -1.
 */
struct fold_cfi *fold_symsrc_cfi(struct fold_symsrc *s, struct fold_dso *dso,
    uint64_t off, uint64_t *vaddr);
int fold_symsrc_read(struct fold_symsrc *s, struct fold_dso *dso,
    uint64_t off, void *buf, size_t n);
/*
 * The functions inlined at file offset off of dso, as perf script shows
 * them: fold_dwarf_inlines() of the DWARF of the file dso's symbols come
 * from (made once, when first asked; a section that cannot be read is
 * reported once), at the address perf passes to addr2line (off plus
 * .text's address less its file offset in the file that was mapped).
 * 0 for objects without debug information, perf maps and pseudo objects.
 */
size_t fold_symsrc_inlines(struct fold_symsrc *s, struct fold_dso *dso,
    uint64_t off, const char *const **names);
void fold_symsrc_free(struct fold_symsrc *s);

/* ---- cfi.c: call frame information ------------------------------------ */

/*
 * The CFI of one object (DWARF 5 6.4; the LSB's .eh_frame and
 * .eh_frame_hdr): for a pc, the row of its FDE's table, i.e. how to find
 * the caller's CFA and registers.  .eh_frame is searched first (through
 * .eh_frame_hdr's table when it is version 1 with DW_EH_PE_datarel|sdata4
 * entries, sorted; else, or when the table gives an empty FDE, which may
 * hide others at its start, through an index), then .debug_frame (an
 * index).
 * An index is an array of {start, end, offset} over the section's FDEs of
 * non-empty range, sorted, built once by the section's first lookup: the
 * only memory a fold_cfi takes after fold_cfi_new().  A lookup is then a
 * binary search and a run of the CIE's and the FDE's programs: no
 * allocation, time bounded by the bytes of that CIE and FDE.
 *
 * .eh_frame: CIE id 0, CIE pointers relative, augmentations z, R, P, L,
 * S, B, G, "eh"; pointer encodings absptr, (u|s)leb128, (u|s)data2/4/8,
 * pcrel, datarel (from the address of the section holding the pointer:
 * .eh_frame_hdr for its table), aligned; textrel, funcrel or indirect FDE
 * addresses make the FDE unusable.  .debug_frame: CIE versions 1, 3, 4,
 * absolute addresses of the CIE's size (4: its address_size field).
 * 64-bit DWARF (length 0xffffffff) in both; its CIE ids and pointers are
 * 8 bytes long in .debug_frame, 4 in .eh_frame (as the LSB has them).
 * A compressed section (SHF_COMPRESSED) is not read.
 *
 * The bytes are untrusted: a CIE or FDE that cannot be read or run (an
 * unknown instruction, a truncated one, restore_state without
 * remember_state, more than 16 states remembered, ...) makes the lookups
 * in it fail and is reported by fold_cfi_problem(); the others still work.
 * Lookups in one fold_cfi must not run in two threads at once.
 */
/* Register rules of a CFI row (DWARF 5 6.4.1). */
enum { FOLD_CFI_UNSET /* no rule given: the ABI's default (libunwind and
	perf take it as same value) */, FOLD_CFI_UNDEF /* DW_CFA_undefined */,
	FOLD_CFI_SAME, FOLD_CFI_OFFSET /* saved at CFA+off */,
	FOLD_CFI_VALOFF /* value CFA+off */, FOLD_CFI_REG /* in register reg */,
	FOLD_CFI_EXPR /* saved at the address expr computes (CFA pushed first) */,
	FOLD_CFI_VALEXPR /* the value expr computes (CFA pushed first) */ };
#define FOLD_CFI_NREGS 33	/* DWARF registers 0..32: x86-64 uses 0..16, AArch64 0..32 */
struct fold_cfi_rule {
	uint8_t how;		/* FOLD_CFI_* */
	uint16_t reg;		/* FOLD_CFI_REG */
	int64_t off;		/* OFFSET, VALOFF */
	const unsigned char *expr;	/* EXPR, VALEXPR: points into the section */
	size_t exprlen;
};
struct fold_cfi_row {
	int cfa_isexpr;		/* CFA = value of cfa_expr (nothing pushed first) */
	uint16_t cfa_reg;
	int64_t cfa_off;	/* else CFA = reg cfa_reg + cfa_off */
	const unsigned char *cfa_expr;
	size_t cfa_exprlen;
	uint16_t ra;		/* return address column (CIE) */
	int signal;		/* CIE augmentation has 'S' (a signal frame) */
	uint64_t start, end;	/* the FDE's range [start, end) */
	struct fold_cfi_rule r[FOLD_CFI_NREGS];	/* not given: UNSET */
	uint64_t loc, next;	/* the row holds for [loc, next) */
};
struct fold_cfi;
/* The CFI of one ELF object, from its sections as fold_elf_section() gives them
 * (lib/symbols/elf.c, symbols.h: struct fold_elf_sec: p, size, addr, flags);
 * any of the three may be NULL or have p == NULL. is64/be: ELF class and
 * byte order (fold_elf_kind()). Nothing is read until the first lookup.
 * The sections' bytes must outlive the fold_cfi. */
struct fold_cfi *fold_cfi_new(const struct fold_elf_sec *eh_frame,
    const struct fold_elf_sec *eh_frame_hdr, const struct fold_elf_sec *debug_frame,
    int is64, int be);
/* The row for pc (a virtual address of the object, as in its ELF file): 1
 * found; 0 no FDE covers pc, or the CFI there is damaged (see fold_cfi_problem). */
int fold_cfi_find(struct fold_cfi *c, uint64_t pc, struct fold_cfi_row *row);
/* Evaluate DWARF expression x (n bytes).  With push, v is pushed first
 * (the CFA for EXPR/VALEXPR rules).  Registers by DWARF number from regs[]
 * where bit r of valid is set (others: fail); memory through mem (returns 0
 * and *val on success, -1 when the address cannot be read).  0 and *out
 * on success; -1 on anything it cannot do (bad op, stack under/overflow,
 * unreadable memory or register, more than 1000 operations executed). */
int fold_cfi_eval(const unsigned char *x, size_t n, const uint64_t *regs,
    uint64_t valid, int (*mem)(void *arg, uint64_t addr, uint64_t *val),
    void *arg, int push, uint64_t v, uint64_t *out);
/*
 * fold_cfi_eval() is for a 64-bit little-endian object (x86-64, AArch64);
 * fold_cfi_eval_as() for any: operands in byte order be, addresses and
 * arithmetic of 8 bytes (is64) or 4.  mem's *val is the 8 bytes at addr
 * as a number in that byte order; DW_OP_deref_size takes its first bytes.
 * The stack holds 64 values; DW_OP_div is signed, DW_OP_mod unsigned (as
 * GCC's unwinder has them), by zero they fail; regs[] is read at the
 * numbers valid has, all below 64.
 */
int fold_cfi_eval_as(int is64, int be, const unsigned char *x, size_t n,
    const uint64_t *regs, uint64_t valid,
    int (*mem)(void *arg, uint64_t addr, uint64_t *val), void *arg,
    int push, uint64_t v, uint64_t *out);
/* For tools: the range of the i-th FDE by address of .eh_frame (dbg 0) or
 * .debug_frame (1), building that section's index: 1, or 0 past the last. */
int fold_cfi_fde(struct fold_cfi *c, int dbg, size_t i, uint64_t *start,
    uint64_t *end);
/* What was found wrong in the CFI so far (a static message) or NULL. */
const char *fold_cfi_problem(const struct fold_cfi *c);
void fold_cfi_free(struct fold_cfi *c);

/* ---- dwarf.c: inlined functions from DWARF debug info ----------------- */

/*
 * The functions at an address of an object with DWARF debug information
 * (DWARF 2 to 5, sections compressed with zlib inflated), innermost
 * first, named as GNU addr2line -i -f (binutils 2.40) names them, not
 * demangled: the inlined subroutines holding the address, then the
 * function they are inlined into.  See dwarf.c for the rules.
 *
 * fold_dwarf_new(): the reader of e's sections (e must outlive it); NULL
 * when e has no .debug_info and no symbols (*why says what could not be
 * read, a static message, or is NULL).  Unit headers are read at once, a
 * unit's functions only when an address falls in it.
 * fold_dwarf_inlines(): the names at addr (a virtual address of e, as
 * addr2line takes it): how many, 0 when addr2line has no answer (no
 * function, no symbol); *names points to them, valid until the reader is
 * freed (a name missing is "??").  Where no DWARF function holds addr
 * the answer is the ELF symbol addr2line names (one name).  An address
 * is looked up once: later calls answer from a table.
 * fold_dwarf_problem(): what was found wrong so far (a static message),
 * or NULL; the rest is still read.  One reader must not be used by two
 * threads at once.
 */
struct fold_dwarf;
struct fold_dwarf *fold_dwarf_new(const struct fold_elf *e, const char **why);
/* The same for the file at path, or the debug file addr2line would read
 * for it when it has no .debug_info (/usr/lib/debug/.build-id/xx/rest.
 * debug, then its .gnu_debuglink name in its directory, DIR/.debug,
 * /usr/lib/debug/DIR); the reader owns the files.  NULL with *why set
 * when the file cannot be read or has neither debug information nor
 * symbols. */
struct fold_dwarf *fold_dwarf_open(const char *path, const char **why);
size_t fold_dwarf_inlines(struct fold_dwarf *d, uint64_t addr,
    const char *const **names);
/*
 * fold_dwarf_srclines(): the source lines addr2line -i -s prints beside
 * those names (the innermost's from the line table, .debug_line of DWARF
 * 2 to 5; each caller's from the call site of the function inlined in
 * it): up to max of them into files[] (the file's base name, NULL where
 * unknown: "??") and lns[] (0 where unknown: "?"); how many.
 */
size_t fold_dwarf_srclines(struct fold_dwarf *d, uint64_t addr,
    const char **files, unsigned *lns, size_t max);
const char *fold_dwarf_problem(const struct fold_dwarf *d);
void fold_dwarf_free(struct fold_dwarf *d);

/* ---- demangle.c, demangle_cxx.c, demangle_rust.c: symbol demangling ---- */
/*
 * Demangle one symbol as GNU c++filt (libiberty, non-verbose, auto style)
 * prints it.  With FOLD_DM_PARAMS the output is that of `c++filt -i`
 * (function argument lists kept); without it, that of `c++filt -i -p`
 * (as perf script prints names).
 */
enum { FOLD_DM_PARAMS = 1 };
/* fold_demangle_cxx() only, for fold_demangle(): the shapes of its fast
 * path only, and not a symbol that could be a legacy Rust name; 0 for the
 * rest (the caller then goes on with Rust, and C++ without it). */
enum { FOLD_DM_QUICK = 2 };
/* The longest name written: a longer one is left mangled. */
#define FOLD_DM_MAXOUT 65536
/*
 * Demangle sym[0..len) into out (cap bytes, not NUL-terminated).  Returns
 * the length of the name, or 0 when the symbol is left as it is (not
 * mangled, malformed, over the limits, or it would not fit in cap).
 * Never allocates; bounded recursion; linear time.  fold_demangle() tries
 * Rust first (legacy Rust overlaps the C++ grammar), then C++.  No state is
 * kept between calls (callers cache per distinct symbol); the C++ side
 * uses about 150 KiB of stack (its tables), plus its recursion, bounded:
 * call it from threads with a stack of 1 MiB or more.  C++ symbols longer
 * than 1024 bytes are left as they are, as c++filt leaves them.
 */
size_t fold_demangle(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_rust(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
size_t fold_demangle_cxx(const char *sym, size_t len, char *out, size_t cap,
    unsigned flags);
/*
 * A legacy Rust name printed half demangled by another tool, "a::b::h<16
 * hex>" with the segments still escaped ("_$LT$T$u20$as$u20$..."), as
 * DTrace's and macOS sample's C++ demanglers leave it: mangled again
 * ("_ZN1a1b17h<hash>E") into o (room for 12 * len + 32 bytes), for
 * fold_demangle_rust() to finish (hash dropped, escapes decoded).  Its
 * length, or 0 when the name does not end in such a hash.
 */
size_t fold_rust_remangle(const char *s, size_t len, char *o);

#endif
