/* perfdata.c - perf.data (file and pipe mode) to folded stacks. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fold.h"
#include "symbols/symbols.h"
#include "perf/perf.h"

/*
 * How it goes: the header, attrs and feature sections of a file are read
 * with pread(2), then the data is streamed with read(2) into 256 KiB
 * chunks, as a pipe is (file mode through a pipe is first copied to a
 * temporary file, spool(), as its features come after the data), or, for
 * a --call-graph dwarf capture where faults are cheap, mapped (map_wins());
 * records up to a FINISHED_ROUND are queued where they were read (a chunk
 * is reused once none is left in it) and delivered in time order as perf
 * does (ordered_events: at each round, the events up to the latest time of
 * the round before).  Threads and their
 * maps follow COMM, FORK, MMAP and MMAP2 as in perf's machine.c.  Each
 * callchain address is made into a frame id once per (maps generation,
 * address): the symbol sources (symsrc.c) and frame_names() in perf.c run
 * only for addresses not seen before; a sample is then the array of frame
 * ids handed to fold_perf_sample().
 */

/* perf_event_header types */
enum {
	R_MMAP = 1, R_LOST = 2, R_COMM = 3, R_EXIT = 4, R_FORK = 7,
	R_SAMPLE = 9, R_MMAP2 = 10,
	R_HEADER_ATTR = 64, R_HEADER_EVENT_TYPE = 65,
	R_HEADER_TRACING_DATA = 66, R_HEADER_BUILD_ID = 67,
	R_FINISHED_ROUND = 68, R_AUXTRACE_INFO = 70, R_AUXTRACE = 71,
	R_EVENT_UPDATE = 78, R_HEADER_FEATURE = 80, R_COMPRESSED = 81
};

/* sample_type bits */
#define S_IP		(1ULL << 0)
#define S_TID		(1ULL << 1)
#define S_TIME		(1ULL << 2)
#define S_ADDR		(1ULL << 3)
#define S_READ		(1ULL << 4)
#define S_CALLCHAIN	(1ULL << 5)
#define S_ID		(1ULL << 6)
#define S_CPU		(1ULL << 7)
#define S_PERIOD	(1ULL << 8)
#define S_STREAM_ID	(1ULL << 9)
#define S_RAW		(1ULL << 10)
#define S_BRANCH_STACK	(1ULL << 11)
#define S_REGS_USER	(1ULL << 12)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_IDENTIFIER	(1ULL << 16)
#define S_TRANSACTION	(1ULL << 17)
#define S_REGS_INTR	(1ULL << 18)
#define S_PHYS_ADDR	(1ULL << 19)
#define S_AUX		(1ULL << 20)
#define S_CGROUP	(1ULL << 21)
#define S_DATA_PAGE_SIZE (1ULL << 22)
#define S_CODE_PAGE_SIZE (1ULL << 23)
#define S_WEIGHT_STRUCT	(1ULL << 24)

/* read_format bits */
#define RF_ENABLED	1
#define RF_RUNNING	2
#define RF_ID		4
#define RF_GROUP	8
#define RF_LOST		16

/* branch_sample_type: the hw_idx field is there */
#define BR_HW_INDEX	(1ULL << 17)
#define BR_CALL_STACK	(1ULL << 11)	/* --call-graph lbr */

/* header misc */
#define MISC_CPUMODE	7
#define MODE_KERNEL	1
#define MODE_USER	2
#define MODE_HV		3
#define MISC_MMAP_BUILD_ID	(1U << 14)
#define MISC_BUILD_ID_SIZE	(1U << 15)
#define MISC_FORK_EXEC	(1U << 13)
#define MISC_MMAP_DATA	(1U << 13)

/* callchain context markers */
#define CTX_HV		((uint64_t)-32)
#define CTX_KERNEL	((uint64_t)-128)
#define CTX_USER	((uint64_t)-512)
#define CTX_MAX		((uint64_t)-4095)

/* feature bits */
enum {
	F_BUILD_ID = 2, F_ARCH = 6, F_CMDLINE = 11, F_EVENT_DESC = 12, F_AUXTRACE = 18,
	F_DIR_FORMAT = 24, F_COMPRESSED = 27
};

#define MAGIC2 0x32454c4946524550ULL	/* "PERFILE2" */
#define MAX_STACK 127			/* perf script's --max-stack */
#define NLAST 8				/* threads findnew() remembers */
#define PROGRESS_MIN (64ULL << 20)

/* ---- tables ---------------------------------------------------------- */

/* u64 -> u32, open addressing; 0 is a valid key (kept apart). */
struct u64map {
	uint64_t *k;
	uint32_t *v;
	size_t mask, n;
	int has0;
	uint32_t v0;
};

static inline size_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static uint32_t *
m_find(struct u64map *m, uint64_t k)
{
	size_t i;

	if (k == 0)
		return m->has0 ? &m->v0 : NULL;
	if (m->k == NULL)
		return NULL;
	for (i = mix(k) & m->mask; m->k[i] != 0; i = (i + 1) & m->mask)
		if (m->k[i] == k)
			return &m->v[i];
	return NULL;
}

static void
m_put(struct u64map *m, uint64_t k, uint32_t v)
{
	size_t i, j, cap;

	if (k == 0) {
		m->has0 = 1;
		m->v0 = v;
		return;
	}
	if (m->k == NULL || (m->n + 1) * 2 > m->mask + 1) {
		struct u64map o = *m;

		cap = o.k == NULL ? 64 : (o.mask + 1) * 2;
		m->k = xcalloc(cap, sizeof(*m->k));
		m->v = xcalloc(cap, sizeof(*m->v));
		m->mask = cap - 1;
		m->n = 0;
		for (j = 0; o.k != NULL && j <= o.mask; j++)
			if (o.k[j] != 0) {
				for (i = mix(o.k[j]) & m->mask; m->k[i] != 0;
				    i = (i + 1) & m->mask)
					;
				m->k[i] = o.k[j];
				m->v[i] = o.v[j];
				m->n++;
			}
		free(o.k);
		free(o.v);
	}
	for (i = mix(k) & m->mask; m->k[i] != 0; i = (i + 1) & m->mask)
		if (m->k[i] == k) {
			m->v[i] = v;
			return;
		}
	m->k[i] = k;
	m->v[i] = v;
	m->n++;
}

static void
m_free(struct u64map *m)
{
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/*
 * The frame cache: (address, maps generation and java bit) to a frame id
 * of perf.c.  Cleared when full, so it stays bounded.
 */
struct fent {
	uint64_t ip;
	uint32_t gen;		/* 0: empty */
	uint32_t fid;
};
#define FCACHE_BITS 12
#define FCACHE_MAX (1U << 20)

/*
 * The stack memo: a sample's root and frame ids (before perf.c makes them
 * names: inlined frames, --skip-after, ...) to the id of its stack.  Few
 * distinct, so small and in cache; cleared past SMEMO_MAX.
 */
struct sment {
	uint32_t h;		/* hash of the key */
	uint32_t n;		/* key length in uint32_t, 0: empty */
	uint32_t off;		/* the key: smkeys[off .. off + n) */
	uint32_t sid;
};
#define SMEMO_BITS 10
#define SMEMO_MAX (1U << 20)

/* Waiting kernel frames (see kresolve()): their ids, and how many of them
 * and of their stacks may wait before the reading is waited for. */
#define KPEND (1U << 31)
#define KPEND_MAX (1U << 20)

/* ---- the reader's state ------------------------------------------------ */

struct attr {
	uint32_t type;
	uint64_t config, sample_type, read_format, flags, branch_type;
	uint64_t period;	/* the attr's sample_period (or _freq): what
				   perf script prints when PERIOD is not sampled */
	uint64_t regs_user, regs_intr;
	int nregs_user, nregs_intr;
	char *name;		/* perf script's event name, or NULL */
	size_t namelen;
	int fromdesc;		/* the name came from EVENT_DESC/UPDATE */
	int want;		/* fold_perf_want() of it, -1: not asked yet */
	/* where the fields are in a sample of the usual kinds (only fields
	 * of fixed size, the callchain last), for parse_sample(): offsets
	 * in the record, 0: not sampled; fast 0: walk them all */
	int fast;
	uint16_t o_ip, o_tid, o_time, o_id, o_period, o_chain, o_end;
};

static void fast_layout(struct attr *a);

struct map {
	uint64_t start, end, pgoff;
	struct fold_dso *dso;
	uint32_t name;		/* id in names: the dso as perf prints it */
	int ident;		/* anonymous (JIT): addresses print as is */
};

struct maps {
	struct map *v;
	size_t n, cap;
	uint32_t gen;
};

struct thread {
	int32_t pid, tid;
	uint32_t comm;		/* id in comms, FOLD_NOID: none yet */
	uint32_t maps;		/* index in d->maps */
	uint32_t root;		/* cached root frame, FOLD_NOID: none */
	int java;
};

struct qent {
	uint64_t time, seq;
	uint64_t off;		/* file offset, for messages */
	const unsigned char *rec;	/* in the file in memory or a chunk */
	uint32_t chunk;		/* index in chunks, NOCHUNK: in memory */
};
#define NOCHUNK ((uint32_t)-1)

/*
 * stream() reads into chunks, and a queued record stays where it was read
 * (no copy) until delivered: a chunk is written again only when no queued
 * record is left in it (refs 0).  So memory is the chunks the records of
 * a round or two span, as it was for their copies.
 */
struct chunk {
	unsigned char *buf;
	size_t cap;
	size_t refs;		/* queued records in it */
};
#define CHUNK_SIZE (256 << 10)

struct fold_perfdata {
	struct fold_perfdata_opts o;
	struct fold_symsrc *ss;
	struct fold_perf *p;
	const char *file;
	int status;
	int refused;		/* refuse() was called: stop */
	int dwarf;		/* an attr has user stack dumps */
	int unwind;		/* and they are unwound (--no-inline) */
	struct fold_unwind_cache *ucache;
	uint32_t ucopy;		/* the size of their stack copies */
	unsigned char *umap;	/* the file, mapped for unwinding */
	uint64_t ureleased;	/* its pages below this are let go */
	struct pager *pager;	/* its pages mapped ahead, or NULL */
	char arch[16];		/* ARCH feature ("x86_64"), or "" */
	char *cmdline;		/* the perf command, for messages */
	int swap;
	int writer_le;		/* the file was written little-endian */

	/* attrs */
	struct attr *attrs;
	size_t nattrs, attrcap;
	struct u64map ids;	/* sample id -> attr */
	int id_pos;		/* u64 index of the id in a sample, -1 */
	uint64_t trailer_type;	/* sample_type of the first attr */
	int sample_id_all;
	size_t trailer;		/* bytes of a non-sample record's trailer */
	size_t trailer_time;	/* offset of TIME in it, or (size_t)-1 */

	/* threads and maps */
	struct thread *threads;
	size_t nthreads, threadcap;
	size_t last_thread[NLAST];	/* findnew()'s last answers by tid,
					   or (size_t)-1 */
	struct u64map tids;
	struct maps **maps;
	size_t nmaps, mapscap;
	uint32_t gen, kgen;
	struct fold_intern names;	/* dso names as printed */
	struct fold_intern comms;

	/* stacks by their frames: root and frame ids to perf.c's stack id
	 * (smemo.c-like open addressing; keys in smkeys) */
	struct sment *sm;
	size_t smmask, smn;
	uint32_t *smkeys;
	size_t nsmkeys, smkeycap;

	/* frames */
	struct fent *fc;
	size_t fcmask, fcn;
	uint32_t *frames;
	size_t framecap;

	/*
	 * Kernel frames met while kallsyms is read in a thread of its own
	 * (fold_symsrc_kernel_busy()): each gets a waiting id (KPEND | i),
	 * and a sample holding one is counted by its frames in raw, until
	 * kresolve() makes them frames and stacks of perf.c.
	 */
	int kstarted;		/* the first kernel lookup was made */
	int kbusy;		/* kallsyms is being read */
	unsigned kcheck;	/* samples since it was last asked */
	uint64_t *kpip;		/* waiting frame i: its address */
	unsigned char *kpjava;	/* and java bit */
	uint32_t *kfid;		/* and, once resolved, its frame id */
	size_t nkp, kpcap, kpjcap, kfidcap;
	struct u64map kpend[2];	/* address -> i, by java bit */
	int pend;		/* the sample being read holds one */
	struct fold_intern raw;	/* root and frames -> waiting stack */
	uint64_t *rawn;		/* its count */
	uint64_t rawsum;	/* of rawn */
	size_t rawcap;
	uint32_t *rkey;
	size_t rkeycap;

	/* the round queue */
	struct qent *q, *qtmp;
	size_t qh, nq, qcap, qtmpcap;	/* queued: q[qh..nq) */
	uint64_t seq, next_flush, max_time;
	int unsorted;		/* a record came before the one queued last */
	struct chunk *chunks;
	size_t nchunks, chunkcap;
	uint32_t cur;		/* the chunk stream() reads into */
	int mapped;		/* records are in memory (file mode via a
				   pipe): not in a chunk */

	/* counts and messages */
	uint64_t samples, unknown_id, bad;
	int warned_bad;

	/* progress */
	uint64_t total, done;
	int progress, shown;
	struct timespec last;
};

/* ---- bytes ------------------------------------------------------------ */

static inline uint64_t
bswap64(uint64_t x)
{
	x = ((x & 0x00ff00ff00ff00ffULL) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffULL);
	x = ((x & 0x0000ffff0000ffffULL) << 16) | ((x >> 16) & 0x0000ffff0000ffffULL);
	return (x << 32) | (x >> 32);
}

static inline uint32_t
bswap32(uint32_t x)
{
	return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}

static inline uint64_t
r64(const struct fold_perfdata *d, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return d->swap ? bswap64(v) : v;
}

static inline uint32_t
r32(const struct fold_perfdata *d, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return d->swap ? bswap32(v) : v;
}

static inline uint16_t
r16(const struct fold_perfdata *d, const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return d->swap ? (uint16_t)((v >> 8) | (v << 8)) : v;
}

static int
popcount64(uint64_t x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

/*
 * The bit fields of a perf_event_attr (disabled, inherit, ...): bit 0 is
 * the low bit of the word in a little-endian writer's file, the high bit
 * in a big-endian writer's (perf's swap_bitfield).  Bit k of the result is
 * field k either way.
 */
static uint64_t
attr_bits(const struct fold_perfdata *d, const unsigned char *p)
{
	uint64_t v = 0, r = 0;
	int i;

	if (d->writer_le) {
		for (i = 7; i >= 0; i--)
			v = v << 8 | p[i];
		return v;
	}
	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	for (i = 0; i < 64; i++)
		if (v & (1ULL << i))
			r |= 1ULL << (63 - i);
	return r;
}

/* ---- messages --------------------------------------------------------- */

/* What cannot be read right: say so and read no further (the caller exits
 * 1 without writing stacks). */
static void
refuse(struct fold_perfdata *d, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (d->refused)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fold_warn("%s: %s", d->file, buf);
	d->refused = 1;
	d->status = 1;
}

static void
bad(struct fold_perfdata *d, uint64_t off, const char *what)
{
	d->bad++;
	d->status = 1;
	if (!d->warned_bad++)
		fold_warn("%s: offset %llu: %s", d->file,
		    (unsigned long long)off, what);
}

static void
progress(struct fold_perfdata *d, int end)
{
	struct timespec now;
	long ms;
	char line[128];
	int n;

	if (!d->progress)
		return;
	if (end) {
		if (d->shown) {	/* blanks over the last line shown */
			n = snprintf(line, sizeof(line), "\r%*s\r",
			    d->shown - 1, "");
			if (write(2, line, (size_t)n) < 0)
				d->progress = 0;
		}
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long)(now.tv_sec - d->last.tv_sec) * 1000 +
	    (now.tv_nsec - d->last.tv_nsec) / 1000000;
	if (d->shown && ms < 100)
		return;
	d->last = now;
	n = snprintf(line, sizeof(line), "\r%.60s: %llu MB of %llu (%d%%), "
	    "%llu samples%s ", d->file, (unsigned long long)(d->done >> 20),
	    (unsigned long long)(d->total >> 20),
	    (int)(d->total ? d->done * 100 / d->total : 0),
	    (unsigned long long)d->samples, d->unwind ? " unwound" : "");
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	if (n > d->shown)
		d->shown = n;
	if (write(2, line, (size_t)n) < 0)
		d->progress = 0;
}

/* ---- attrs and event names --------------------------------------------- */

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles"
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches"
};

/* attr flag bits */
#define A_EXCL_USER	(1ULL << 4)
#define A_EXCL_KERNEL	(1ULL << 5)
#define A_EXCL_HV	(1ULL << 6)
#define A_SAMPLE_ID_ALL	(1ULL << 18)
#define A_EXCL_HOST	(1ULL << 19)
#define A_EXCL_GUEST	(1ULL << 20)

/* perf's evsel__name() for an attr without a recorded name: the generic
 * name and the modifiers (evsel__add_modifiers). */
static void
default_name(struct attr *a)
{
	char b[96], m[16];
	size_t r = 0;
	int colon = 0, xdef = 0;
	unsigned prec = (unsigned)((a->flags >> 15) & 3);

	if (a->type == 0 && a->config < sizeof(hw_names) / sizeof(*hw_names))
		snprintf(b, sizeof(b), "%s", hw_names[a->config]);
	else if (a->type == 1 &&
	    a->config < sizeof(sw_names) / sizeof(*sw_names))
		snprintf(b, sizeof(b), "%s", sw_names[a->config]);
	else if (a->type == 4)
		snprintf(b, sizeof(b), "raw 0x%llx",
		    (unsigned long long)a->config);
	else
		snprintf(b, sizeof(b), "unknown-%u-0x%llx", a->type,
		    (unsigned long long)a->config);
#define MOD(bit, c) do { \
		if (!(a->flags & (bit))) { \
			colon = 1; \
			m[r++] = (c); \
		} \
	} while (0)
	if (a->flags & (A_EXCL_KERNEL | A_EXCL_USER | A_EXCL_HV)) {
		MOD(A_EXCL_KERNEL, 'k');
		MOD(A_EXCL_USER, 'u');
		MOD(A_EXCL_HV, 'h');
		xdef = 1;
	}
	if (prec > 0) {
		colon = 1;
		while (prec-- > 0)
			m[r++] = 'p';
		xdef = 1;
	}
	if ((a->flags & A_EXCL_HOST) || !!(a->flags & A_EXCL_GUEST) == xdef) {
		MOD(A_EXCL_HOST, 'H');
		MOD(A_EXCL_GUEST, 'G');
	}
#undef MOD
	m[r] = '\0';
	free(a->name);
	a->namelen = strlen(b) + (colon ? 1 + r : 0);
	a->name = xmalloc(a->namelen + 1);
	snprintf(a->name, a->namelen + 1, "%s%s%s", b, colon ? ":" : "", m);
}

static void
set_name(struct attr *a, const unsigned char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] != '\0')
		n++;
	free(a->name);
	a->name = xmalloc(n + 1);
	memcpy(a->name, s, n);
	a->name[n] = '\0';
	a->namelen = n;
	a->fromdesc = 1;
	a->want = -1;
}

/*
 * A perf_event_attr of n bytes at p (its own size field may say less):
 * added as the next event, with its sample ids.
 */
static struct attr *
add_attr(struct fold_perfdata *d, const unsigned char *p, size_t n)
{
	unsigned char b[128];
	uint32_t sz;
	struct attr *a;

	memset(b, 0, sizeof(b));
	if (n < 8)
		return NULL;
	sz = r32(d, p + 4);
	if (sz == 0)
		sz = 64;	/* PERF_ATTR_SIZE_VER0 */
	if (sz > n)
		sz = (uint32_t)n;
	memcpy(b, p, sz < sizeof(b) ? sz : sizeof(b));
	fold_grow(&d->attrs, &d->attrcap, d->nattrs + 1, sizeof(*d->attrs));
	a = &d->attrs[d->nattrs++];
	memset(a, 0, sizeof(*a));
	a->type = r32(d, b);
	a->config = r64(d, b + 8);
	a->period = r64(d, b + 16);
	a->sample_type = r64(d, b + 24);
	a->read_format = r64(d, b + 32);
	a->flags = attr_bits(d, b + 40);
	a->branch_type = r64(d, b + 72);
	a->regs_user = r64(d, b + 80);
	a->regs_intr = r64(d, b + 96);
	a->nregs_user = popcount64(a->regs_user);
	a->nregs_intr = popcount64(a->regs_intr);
	default_name(a);
	a->fromdesc = 0;
	a->want = -1;
	fast_layout(a);
	if (d->nattrs == 1) {
		uint64_t t = a->sample_type;

		d->trailer_type = t;
		d->sample_id_all = (a->flags & A_SAMPLE_ID_ALL) != 0;
		if (t & S_IDENTIFIER)
			d->id_pos = 0;
		else if (t & S_ID)
			d->id_pos = !!(t & S_IP) + !!(t & S_TID) +
			    !!(t & S_TIME) + !!(t & S_ADDR);
		else
			d->id_pos = -1;
		d->trailer = 0;
		d->trailer_time = (size_t)-1;
		if (d->sample_id_all) {
			if (t & S_TID)
				d->trailer += 8;
			if (t & S_TIME) {
				d->trailer_time = d->trailer;
				d->trailer += 8;
			}
			d->trailer += 8 * (size_t)(!!(t & S_ID) +
			    !!(t & S_STREAM_ID) + !!(t & S_CPU) +
			    !!(t & S_IDENTIFIER));
		}
	}
	/* refused before the first record, when the command line is known */
	if ((a->sample_type & S_STACK_USER) && (a->sample_type & S_REGS_USER)) {
		d->dwarf = 1;
		if (n >= 92 && r32(d, p + 88) > d->ucopy)
			d->ucopy = r32(d, p + 88);	/* sample_stack_user */
	}
	if ((a->sample_type & S_BRANCH_STACK) && (a->branch_type & BR_CALL_STACK))
		refuse(d, "recorded with --call-graph lbr: perf script builds "
		    "its stacks from the branch records, which stackcollapse-perf "
		    "does not read; use: perf script -i %s | stackcollapse-perf",
		    d->file);
	return a;
}

/*
 * A --call-graph dwarf capture: its user stacks are unwound, on x86-64;
 * else it is refused, saying how it was recorded.
 */
static int
check_dwarf(struct fold_perfdata *d)
{
	if (!d->dwarf || d->refused || d->unwind)
		return d->refused;
	if (d->arch[0] != '\0' && strcmp(d->arch, "x86_64") != 0)
		refuse(d, "recorded with --call-graph dwarf%s%s%s on %s: only "
		    "x86_64 user stacks are unwound yet; use: perf script "
		    "-i %s | stackcollapse-perf",
		    d->cmdline != NULL ? " (" : "",
		    d->cmdline != NULL ? d->cmdline : "",
		    d->cmdline != NULL ? ")" : "", d->arch, d->file);
	else
		d->unwind = 1;
	return d->refused;
}

/* CMDLINE: u32 nr, then nr strings (u32 len, len bytes NUL-padded),
 * joined with blanks; at most 200 bytes kept, for messages. */
static void
cmdline(struct fold_perfdata *d, const unsigned char *p, size_t n)
{
	uint32_t nr, len, i;
	size_t pos = 4, k = 0, l;
	char buf[204];

	if (n < 4)
		return;
	nr = r32(d, p);
	for (i = 0; i < nr && n - pos >= 4 && k < 200; i++) {
		len = r32(d, p + pos);
		pos += 4;
		if (len > n - pos)
			break;
		l = strnlen((const char *)p + pos, len);
		if (k > 0)
			buf[k++] = ' ';
		if (l > 200 - k)
			l = 200 - k;
		memcpy(buf + k, p + pos, l);
		k += l;
		pos += len;
	}
	buf[k] = '\0';
	free(d->cmdline);
	d->cmdline = xstrdup(buf);
}

static void
add_ids(struct fold_perfdata *d, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8)
		m_put(&d->ids, r64(d, p + i), (uint32_t)(d->nattrs - 1));
}

static struct attr *
attr_of_id(struct fold_perfdata *d, uint64_t id)
{
	uint32_t *v = m_find(&d->ids, id);

	return v != NULL ? &d->attrs[*v] : NULL;
}

/* EVENT_DESC: u32 nr, u32 attr_size, then per event: attr, u32 nr_ids,
 * the name (u32 len, bytes), u64 ids[nr_ids]. */
static void
event_desc(struct fold_perfdata *d, const unsigned char *p, size_t n,
    uint64_t off)
{
	uint32_t nr, asz, nids, len, i;
	size_t pos = 8;
	struct attr *a;

	if (n < 8)
		return;
	nr = r32(d, p);
	asz = r32(d, p + 4);
	for (i = 0; i < nr; i++) {
		if (asz > n - pos || n - pos - asz < 8) {
			bad(d, off, "event description cut short");
			return;
		}
		pos += asz;
		nids = r32(d, p + pos);
		len = r32(d, p + pos + 4);
		pos += 8;
		if (len > n - pos || (n - pos - len) / 8 < nids) {
			bad(d, off, "event description cut short");
			return;
		}
		a = NULL;
		if (nids > 0)
			a = attr_of_id(d, r64(d, p + pos + len));
		if (a == NULL && i < d->nattrs)
			a = &d->attrs[i];
		if (a != NULL && len > 0)
			set_name(a, p + pos, len);
		pos += len + (size_t)nids * 8;
	}
}

/* ---- threads and maps --------------------------------------------------- */

static uint32_t
new_maps(struct fold_perfdata *d)
{
	struct maps *m = xcalloc(1, sizeof(*m));

	fold_grow(&d->maps, &d->mapscap, d->nmaps + 1, sizeof(*d->maps));
	m->gen = ++d->gen;
	d->maps[d->nmaps] = m;
	return (uint32_t)d->nmaps++;
}

static struct thread *
new_thread(struct fold_perfdata *d, int32_t pid, int32_t tid, uint32_t maps)
{
	struct thread *t;

	fold_grow(&d->threads, &d->threadcap, d->nthreads + 1,
	    sizeof(*d->threads));
	t = &d->threads[d->nthreads];
	t->pid = pid;
	t->tid = tid;
	t->comm = FOLD_NOID;
	t->maps = maps;
	t->root = FOLD_NOID;
	t->java = 0;
	m_put(&d->tids, (uint64_t)(uint32_t)tid, (uint32_t)d->nthreads);
	/* the tid may have been another's */
	d->last_thread[(uint32_t)tid % NLAST] = (size_t)-1;
	return &d->threads[d->nthreads++];
}

static struct thread *findnew(struct fold_perfdata *d, int32_t pid,
    int32_t tid);

/* A new thread: a process leader gets maps of its own, another thread
 * shares its leader's (perf's thread__init_maps). */
static struct thread *
create(struct fold_perfdata *d, int32_t pid, int32_t tid)
{
	uint32_t mi;

	if (pid == tid || pid == -1)
		mi = new_maps(d);
	else
		mi = findnew(d, pid, pid)->maps;
	return new_thread(d, pid, tid, mi);
}

static struct thread *
findnew(struct fold_perfdata *d, int32_t pid, int32_t tid)
{
	uint32_t *v;
	struct thread *t;

	/* a thread of the last samples, most often (samples of several
	 * CPUs come in turns) */
	size_t *c = &d->last_thread[(uint32_t)tid % NLAST];

	if (*c < d->nthreads && (t = &d->threads[*c])->tid == tid &&
	    t->pid == pid)
		return t;
	if ((v = m_find(&d->tids, (uint64_t)(uint32_t)tid)) != NULL &&
	    d->threads[*v].pid == pid)
		*c = *v;
	if (v == NULL)
		return create(d, pid, tid);
	t = &d->threads[*v];
	if (t->pid == -1 && pid != -1 && pid != tid) {
		uint32_t mi = findnew(d, pid, pid)->maps;

		t = &d->threads[*m_find(&d->tids, (uint64_t)(uint32_t)tid)];
		t->pid = pid;
		t->maps = mi;
	} else if (t->pid == -1 && pid != -1)
		t->pid = pid;
	return t;
}

static struct map *
maps_find(struct maps *m, uint64_t ip)
{
	size_t lo = 0, hi = m->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || ip >= m->v[lo - 1].end)
		return NULL;
	return &m->v[lo - 1];
}

/* Insert nm, cutting the maps it overlaps as perf's
 * maps__fixup_overlappings() does. */
static void
maps_insert(struct fold_perfdata *d, struct maps *m, const struct map *nm)
{
	size_t i, j, n = 0;
	struct map *v;

	/* at most one map grows into two pieces */
	fold_grow(&m->v, &m->cap, m->n + 2, sizeof(*m->v));
	v = m->v;
	for (i = 0; i < m->n; i++) {
		struct map o = v[i];

		if (o.end <= nm->start || o.start >= nm->end) {
			v[n++] = o;
			continue;
		}
		if (o.start < nm->start) {
			struct map b = o;

			b.end = nm->start;
			v[n++] = b;
		}
		if (o.end > nm->end) {
			struct map a = o;

			a.start = nm->end;
			a.pgoff += nm->end - o.start;
			/* later pieces are not read again: keep them after */
			for (j = m->n; j > i + 1; j--)
				v[j] = v[j - 1];
			v[i + 1] = a;
			m->n++;
		}
	}
	m->n = n;
	/* sorted insert */
	for (i = m->n; i > 0 && v[i - 1].start > nm->start; i--)
		v[i] = v[i - 1];
	v[i] = *nm;
	m->n++;
	m->gen = ++d->gen;
}

static int
prefix(const char *s, const char *lit)
{
	return strncmp(s, lit, strlen(lit)) == 0;
}

static void
do_mmap(struct fold_perfdata *d, const unsigned char *r, size_t size,
    int v2, unsigned misc)
{
	int32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot = 4;	/* PROT_EXEC */
	const char *fn;
	size_t fo = v2 ? 72 : 40, fl;
	struct map nm;
	char buf[64];
	int anon, nodso, mode = (int)(misc & MISC_CPUMODE);

	if (size <= fo)
		return;
	pid = (int32_t)r32(d, r + 8);
	tid = (int32_t)r32(d, r + 12);
	start = r64(d, r + 16);
	len = r64(d, r + 24);
	pgoff = r64(d, r + 32);
	if (!v2 && (misc & MISC_MMAP_DATA))
		prot = 0;	/* a data map (perf record -d) */
	if (v2) {
		prot = r32(d, r + 64);
		if (misc & MISC_MMAP_BUILD_ID) {
			unsigned bl = r[40];

			fn = (const char *)r + fo;
			fl = strnlen(fn, size - fo);
			if (bl > 20)
				bl = 20;
			fold_symsrc_buildid(d->ss, fn, fl, r + 44, bl);
		}
	}
	fn = (const char *)r + fo;
	fl = strnlen(fn, size - fo);
	if (fl == size - fo)
		return;		/* no NUL: not a name */
	if (mode == MODE_KERNEL) {
		if (prefix(fn, "[kernel.kallsyms]"))
			fold_symsrc_kernel_ref(d->ss, fn + 17, fl - 17, pgoff);
		d->kgen = ++d->gen;
		return;
	}
	if (mode != MODE_USER)
		return;
	if (start + len < start)
		return;
	anon = strcmp(fn, "//anon") == 0 || prefix(fn, "/dev/zero") ||
	    prefix(fn, "/anon_hugepage");
	nodso = prefix(fn, "[stack") || prefix(fn, "/SYSV") ||
	    strcmp(fn, "[heap]") == 0;
	memset(&nm, 0, sizeof(nm));
	nm.start = start;
	nm.end = start + len;
	nm.pgoff = pgoff;
	if ((anon || nodso) && (prot & 4)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%ld.map", (long)pid);
		fn = buf;
		fl = strlen(buf);
	}
	nm.ident = anon || nodso;
	nm.name = fold_intern(&d->names, fn, fl, NULL);
	nm.dso = fold_symsrc_dso(d->ss, fn, fl);
	maps_insert(d, d->maps[findnew(d, pid, tid)->maps], &nm);
}

static void
do_comm(struct fold_perfdata *d, const unsigned char *r, size_t size)
{
	struct thread *t;
	size_t l;

	if (size <= 16)
		return;
	t = findnew(d, (int32_t)r32(d, r + 8), (int32_t)r32(d, r + 12));
	l = strnlen((const char *)r + 16, size - 16);
	t->comm = fold_intern(&d->comms, (const char *)r + 16, l, NULL);
	t->root = FOLD_NOID;
}

static void
do_fork(struct fold_perfdata *d, const unsigned char *r, size_t size,
    unsigned misc)
{
	int32_t pid, ppid, tid, ptid;
	struct thread *t, *par;
	size_t pi;

	if (size < 24)
		return;
	pid = (int32_t)r32(d, r + 8);
	ppid = (int32_t)r32(d, r + 12);
	tid = (int32_t)r32(d, r + 16);
	ptid = (int32_t)r32(d, r + 20);
	if (tid == ptid)
		return;
	pi = (size_t)(findnew(d, ppid, ptid) - d->threads);
	/* a thread known by the child's id is replaced by a new one */
	t = create(d, pid, tid);
	par = &d->threads[pi];
	t->comm = par->comm;
	if (pid != par->pid && !(misc & MISC_FORK_EXEC) &&
	    t->maps != par->maps) {
		struct maps *c = d->maps[t->maps], *pm = d->maps[par->maps];

		fold_grow(&c->v, &c->cap, pm->n + 2, sizeof(*c->v));
		if (pm->n > 0)
			memcpy(c->v, pm->v, pm->n * sizeof(*c->v));
		c->n = pm->n;
		c->gen = ++d->gen;
	}
}

/* ---- samples ------------------------------------------------------------ */

struct smp {
	uint64_t ip, time, id, period;
	int32_t pid, tid;
	const unsigned char *chain;
	uint64_t nchain;
	uint64_t abi;			/* REGS_USER: 0 none */
	const unsigned char *uregs;	/* nregs_user u64s */
	const unsigned char *ustack;	/* STACK_USER: its bytes */
	uint64_t ustack_size;		/* dyn_size: those valid */
};

/*
 * The fixed offsets of the fields of a's samples, when every field is of
 * fixed size but a callchain, which comes last (perf record -g's samples:
 * IP, TID, TIME, PERIOD, CALLCHAIN, with ID and CPU for more events or
 * CPUs).
 */
static void
fast_layout(struct attr *a)
{
	uint64_t t = a->sample_type;
	const uint64_t fixed = S_IDENTIFIER | S_IP | S_TID | S_TIME | S_ADDR |
	    S_ID | S_STREAM_ID | S_CPU | S_PERIOD;
	unsigned o = 8;

	a->fast = 0;
	if ((t & ~(fixed | S_CALLCHAIN)) != 0)
		return;
	if (t & S_IDENTIFIER) {
		a->o_id = (uint16_t)o;
		o += 8;
	}
	if (t & S_IP) {
		a->o_ip = (uint16_t)o;
		o += 8;
	}
	if (t & S_TID) {
		a->o_tid = (uint16_t)o;
		o += 8;
	}
	if (t & S_TIME) {
		a->o_time = (uint16_t)o;
		o += 8;
	}
	if (t & S_ADDR)
		o += 8;
	if (t & S_ID) {
		a->o_id = (uint16_t)o;
		o += 8;
	}
	o += 8 * (unsigned)(!!(t & S_STREAM_ID) + !!(t & S_CPU));
	if (t & S_PERIOD) {
		a->o_period = (uint16_t)o;
		o += 8;
	}
	if (t & S_CALLCHAIN)
		a->o_chain = (uint16_t)o;
	a->o_end = (uint16_t)(o + (t & S_CALLCHAIN ? 8 : 0));
	a->fast = 1;
}

/* Walk the fields of a sample of attr a; 0 if the record is too short. */
static int
parse_sample(struct fold_perfdata *d, const struct attr *a,
    const unsigned char *r, size_t size, struct smp *s)
{
	uint64_t t = a->sample_type, n, rf = a->read_format;
	const unsigned char *p = r + 8, *e = r + size;

#define NEED(k) do { if ((size_t)(e - p) < (size_t)(k)) return 0; } while (0)
#define U64(v) do { NEED(8); (v) = r64(d, p); p += 8; } while (0)
#define SKIP(k) do { NEED(k); p += (k); } while (0)
	if (a->fast) {
		if (size < a->o_end)
			return 0;
		s->id = a->o_id ? r64(d, r + a->o_id) : 0;
		s->ip = a->o_ip ? r64(d, r + a->o_ip) : 0;
		if (a->o_tid) {
			s->pid = (int32_t)r32(d, r + a->o_tid);
			s->tid = (int32_t)r32(d, r + a->o_tid + 4);
		} else
			s->pid = s->tid = -1;
		s->time = a->o_time ? r64(d, r + a->o_time) : 0;
		s->period = a->o_period ? r64(d, r + a->o_period) : 0;
		s->chain = NULL;
		s->nchain = 0;
		s->abi = 0;
		s->uregs = s->ustack = NULL;
		s->ustack_size = 0;
		if (a->o_chain) {
			n = r64(d, r + a->o_chain);
			if (n > (uint64_t)(size - a->o_end) / 8)
				return 0;
			s->chain = r + a->o_end;
			s->nchain = n;
		}
		return 1;
	}
	memset(s, 0, sizeof(*s));
	if (t & S_IDENTIFIER)
		U64(s->id);
	if (t & S_IP)
		U64(s->ip);
	if (t & S_TID) {
		NEED(8);
		s->pid = (int32_t)r32(d, p);
		s->tid = (int32_t)r32(d, p + 4);
		p += 8;
	} else
		s->pid = s->tid = -1;
	if (t & S_TIME)
		U64(s->time);
	if (t & S_ADDR)
		SKIP(8);
	if (t & S_ID)
		U64(s->id);
	if (t & S_STREAM_ID)
		SKIP(8);
	if (t & S_CPU)
		SKIP(8);
	if (t & S_PERIOD)
		U64(s->period);
	if (t & S_READ) {
		size_t per = 8 * (size_t)(1 + !!(rf & RF_ID) + !!(rf & RF_LOST));

		if (rf & RF_GROUP) {
			U64(n);
			SKIP(8 * (size_t)(!!(rf & RF_ENABLED) + !!(rf & RF_RUNNING)));
			if (n > (uint64_t)(e - p) / per)
				return 0;
			p += n * per;
		} else
			SKIP(8 * (size_t)(!!(rf & RF_ENABLED) +
			    !!(rf & RF_RUNNING)) + per);
	}
	if (t & S_CALLCHAIN) {
		U64(n);
		if (n > (uint64_t)(e - p) / 8)
			return 0;
		s->chain = p;
		s->nchain = n;
		p += n * 8;
	}
	if (t & S_RAW) {
		NEED(4);
		n = r32(d, p);
		p += 4;
		SKIP(n);
	}
	if (t & S_BRANCH_STACK) {
		U64(n);
		if (a->branch_type & BR_HW_INDEX)
			SKIP(8);
		if (n > (uint64_t)(e - p) / 24)
			return 0;
		p += n * 24;
	}
	if (t & S_REGS_USER) {
		U64(s->abi);
		if (s->abi != 0) {
			NEED(8 * (size_t)a->nregs_user);
			s->uregs = p;
			p += 8 * (size_t)a->nregs_user;
		}
	}
	if (t & S_STACK_USER) {
		U64(n);
		if (n > (uint64_t)(e - p))
			return 0;
		s->ustack = p;
		p += n;
		if (n != 0) {
			U64(s->ustack_size);
			if (s->ustack_size > n)	/* perf refuses the sample */
				return 0;
		}
	}
	if (t & (S_WEIGHT | S_WEIGHT_STRUCT))
		SKIP(8);
	if (t & S_DATA_SRC)
		SKIP(8);
	if (t & S_TRANSACTION)
		SKIP(8);
	if (t & S_REGS_INTR) {
		U64(n);
		if (n != 0)
			SKIP(8 * (size_t)a->nregs_intr);
	}
	if (t & S_PHYS_ADDR)
		SKIP(8);
	if (t & S_CGROUP)
		SKIP(8);
	if (t & S_DATA_PAGE_SIZE)
		SKIP(8);
	if (t & S_CODE_PAGE_SIZE)
		SKIP(8);
	if (t & S_AUX) {
		U64(n);
		if (n > (uint64_t)(e - p))
			return 0;
	}
#undef NEED
#undef U64
#undef SKIP
	return 1;
}

/* The attr of a sample record, or NULL. */
static struct attr *
sample_attr(struct fold_perfdata *d, const unsigned char *r, size_t size)
{
	if (d->nattrs == 0)
		return NULL;
	if (d->nattrs == 1 || d->id_pos < 0)
		return &d->attrs[0];
	if (size < 8 + 8 * (size_t)(d->id_pos + 1))
		return NULL;
	return attr_of_id(d, r64(d, r + 8 + 8 * (size_t)d->id_pos));
}

/* The waiting id of kernel frame ip (see kresolve()). */
static uint32_t
kwait(struct fold_perfdata *d, uint64_t ip, int java)
{
	uint32_t *v = m_find(&d->kpend[java != 0], ip);

	d->pend = 1;
	if (v != NULL)
		return KPEND | *v;
	fold_grow(&d->kpip, &d->kpcap, d->nkp + 1, sizeof(*d->kpip));
	fold_grow(&d->kpjava, &d->kpjcap, d->nkp + 1, sizeof(*d->kpjava));
	d->kpip[d->nkp] = ip;
	d->kpjava[d->nkp] = java != 0;
	m_put(&d->kpend[java != 0], ip, (uint32_t)d->nkp);
	return KPEND | (uint32_t)d->nkp++;
}

static inline uint32_t frame(struct fold_perfdata *d, int mode, uint64_t ip,
    struct maps *m, int java);

/*
 * Wait for kallsyms, make the waiting kernel frames frames of perf.c (in
 * d->kfid, until the next kwait()) and count the waiting stacks.  Where a
 * kernel frame resolves does not depend on when it was met: the kernel's
 * symbols are read once, as they were at the first kernel lookup.
 */
static void
kresolve(struct fold_perfdata *d)
{
	size_t i, j, n, nraw = fold_intern_count(&d->raw);
	struct fold_str k;
	uint32_t f;

	fold_symsrc_kernel_wait(d->ss);
	d->kbusy = 0;
	fold_grow(&d->kfid, &d->kfidcap, d->nkp, sizeof(*d->kfid));
	for (i = 0; i < d->nkp; i++)
		d->kfid[i] = frame(d, MODE_KERNEL, d->kpip[i], NULL,
		    d->kpjava[i]);
	for (i = 0; i < nraw; i++) {
		k = fold_intern_str(&d->raw, (uint32_t)i);
		n = k.len / sizeof(*d->rkey);
		fold_grow(&d->rkey, &d->rkeycap, n, sizeof(*d->rkey));
		memcpy(d->rkey, k.s, k.len);
		for (j = 1; j < n; j++)
			if ((f = d->rkey[j]) & KPEND)
				d->rkey[j] = d->kfid[f & ~KPEND];
		fold_perf_count(d->p, fold_perf_stack(d->p, d->rkey[0],
		    d->rkey + 1, n - 1), d->rawn[i]);
	}
	if (nraw > 0) {
		fold_intern_free(&d->raw);
		fold_intern_init(&d->raw);
		memset(d->rawn, 0, nraw * sizeof(*d->rawn));
	}
	m_free(&d->kpend[0]);
	m_free(&d->kpend[1]);
	d->nkp = 0;
	d->rawsum = 0;
}

/* 1 if every count held and waiting, and w, sum below 2^64: then no count
 * can be too large, in whatever order they are added. */
static int
raw_fits(struct fold_perfdata *d, uint64_t w)
{
	uint64_t held = fold_perf_counted(d->p);

	return held < UINT64_MAX - d->rawsum &&
	    w < UINT64_MAX - held - d->rawsum;
}

/*
 * A sample of root and frames n, holding waiting kernel frames, of weight w
 * (fold_perf_weight()).  Counted apart while raw_fits(); else counted alone
 * in turn, as the text's would be.
 */
static void
raw_add(struct fold_perfdata *d, uint32_t root, uint32_t *frames, size_t n,
    uint64_t w)
{
	size_t i, klen = (n + 1) * sizeof(*d->rkey);
	uint32_t id;

	if (raw_fits(d, w)) {
		fold_grow(&d->rkey, &d->rkeycap, n + 1, sizeof(*d->rkey));
		d->rkey[0] = root;
		memcpy(d->rkey + 1, frames, n * sizeof(*frames));
		id = fold_intern(&d->raw, (const char *)d->rkey, klen, NULL);
		fold_grow(&d->rawn, &d->rawcap, (size_t)id + 1,
		    sizeof(*d->rawn));
		d->rawn[id] += w;
		d->rawsum += w;
		if (d->nkp >= KPEND_MAX ||
		    fold_intern_count(&d->raw) >= KPEND_MAX)
			kresolve(d);	/* enough waiting: wait for kallsyms */
		return;
	}
	kresolve(d);
	for (i = 0; i < n; i++)
		if (frames[i] & KPEND)
			frames[i] = d->kfid[frames[i] & ~KPEND];
	fold_perf_count(d->p, fold_perf_stack(d->p, root, frames, n), w);
}

static uint32_t frame_new(struct fold_perfdata *d, int mode, uint64_t ip,
    struct maps *m, int java, uint32_t key, size_t i);

/* The frame id of ip in mode for thread maps m: from the cache (inline,
 * the usual case), else frame_new(). */
static inline uint32_t
frame(struct fold_perfdata *d, int mode, uint64_t ip, struct maps *m,
    int java)
{
	uint32_t gen = mode == MODE_KERNEL ? d->kgen : mode == MODE_USER ?
	    m->gen : 0;
	uint32_t key = (gen << 1 | (uint32_t)java) + 1;
	size_t i;

	for (i = mix(ip ^ ((uint64_t)key << 40)) & d->fcmask; d->fc[i].gen != 0;
	    i = (i + 1) & d->fcmask)
		if (d->fc[i].ip == ip && d->fc[i].gen == key)
			return d->fc[i].fid;
	return frame_new(d, mode, ip, m, java, key, i);
}

/* A frame not in the cache: made, and kept in slot i of it (or waiting). */
static uint32_t
frame_new(struct fold_perfdata *d, int mode, uint64_t ip, struct maps *m,
    int java, uint32_t key, size_t i)
{
	struct fold_perf_frame f;
	struct map *mp;
	const char *dso = NULL;
	struct fold_str nm;

	if (mode == MODE_KERNEL && (d->o.symfs == NULL ||
	    d->o.symfs[0] == '\0')) {
		if (!d->kstarted) {	/* kallsyms, in the background */
			d->kstarted = 1;
			d->kbusy = fold_symsrc_kernel_busy(d->ss);
		}
		if (d->kbusy)
			return kwait(d, ip, java);
	}
	memset(&f, 0, sizeof(f));
	f.addr = ip;
	if (mode == MODE_KERNEL) {
		/*
		 * The kernel's symbols: symsrc.c reads the kallsyms copy in
		 * the build-id cache in place of /proc/kallsyms where they
		 * must agree (the kernel takes ~25 ms to write the latter).
		 * NEEDS i12elf: run as a user other than root
		 * (kptr_restrict), /proc/kallsyms shows every address as 0;
		 * the copy is then passed over (its _text differs from
		 * /proc's 0) and the frames come out as from that file.
		 */
		/*
		 * NEEDS i12elf (symsrc.c): with --symfs, perf 6.1 resolves no
		 * kernel symbol at all, neither from /proc/kallsyms nor from
		 * SYMFS/proc/kallsyms nor from the build-id cache copy (checked
		 * here: every kernel frame prints "[unknown]
		 * ([kernel.kallsyms])").  fold_symsrc_kernel() should return
		 * NULL then; until it does, it is not asked.
		 */
		if (d->o.symfs != NULL && d->o.symfs[0] != '\0')
			dso = "[kernel.kallsyms]";
		else
			f.sym = fold_symsrc_kernel(d->ss, ip, &dso, NULL);
		if (dso != NULL) {
			f.dso = dso;
			f.dsolen = strlen(dso);
		}
	} else if (mode == MODE_USER && (mp = maps_find(m, ip)) != NULL) {
		if (!mp->ident)
			f.addr = ip - mp->start + mp->pgoff;
		f.sym = fold_symsrc_user(d->ss, mp->dso, mp->start, mp->pgoff,
		    ip, NULL);
		/* inlined frames: perf script's for --call-graph dwarf
		 * (without --no-inline), perf 7.0's for -g with --inline */
		if (f.sym != NULL && !mp->ident &&
		    ((d->o.flags & FOLD_PERFDATA_INLINE) || (d->unwind &&
		    !(d->o.flags & FOLD_PERFDATA_NOINLINE))))
			f.ninl = fold_symsrc_inlines(d->ss, mp->dso, f.addr,
			    &f.inl);
		nm = fold_intern_str(&d->names, mp->name);
		f.dso = nm.s;
		f.dsolen = nm.len;
	}
	if (f.sym != NULL)
		f.symlen = strlen(f.sym);
	f.demangle = (d->o.flags & FOLD_PERFDATA_DEMANGLE) != 0;
	d->fc[i].ip = ip;
	d->fc[i].gen = key;
	d->fc[i].fid = fold_perf_frame_id(d->p, &f, java);
	if (d->fc[i].fid & KPEND)
		fold_die(1, "too many distinct frames");
	if (++d->fcn * 4 > d->fcmask * 3) {	/* past 3/4: grow, or start over */
		size_t cap = (d->fcmask + 1) * 2, j;
		struct fent *o = d->fc, *nf;
		uint32_t fid = d->fc[i].fid;

		if (cap > FCACHE_MAX) {
			memset(d->fc, 0, (d->fcmask + 1) * sizeof(*d->fc));
			d->fcn = 0;
			return fid;
		}
		nf = xcalloc(cap, sizeof(*nf));
		for (j = 0; j <= d->fcmask; j++) {
			size_t k;

			if (o[j].gen == 0)
				continue;
			for (k = mix(o[j].ip ^ ((uint64_t)o[j].gen << 40)) &
			    (cap - 1); nf[k].gen != 0; k = (k + 1) & (cap - 1))
				;
			nf[k] = o[j];
		}
		free(o);
		d->fc = nf;
		d->fcmask = cap - 1;
		return fid;
	}
	return d->fc[i].fid;
}

static uint32_t
smhash(uint32_t root, const uint32_t *f, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ root;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ f[i]) * 0xff51afd7ed558ccdULL;
	return (uint32_t)(h ^ h >> 32);
}

static void
smclear(struct fold_perfdata *d)
{
	if (d->sm == NULL || d->smn == 0)
		return;
	memset(d->sm, 0, (d->smmask + 1) * sizeof(*d->sm));
	d->smn = 0;
	d->nsmkeys = 0;
}

/* The stack of root and frames f[0..n) (no waiting ones): from the memo,
 * else from perf.c, then kept. */
static uint32_t
stack_of(struct fold_perfdata *d, uint32_t root, const uint32_t *f, size_t n)
{
	uint32_t h = smhash(root, f, n), sid;
	const uint32_t *k;
	struct sment *e;
	size_t i, j, cap;

	if (d->sm == NULL) {
		d->smmask = (1U << SMEMO_BITS) - 1;
		d->sm = xcalloc(d->smmask + 1, sizeof(*d->sm));
	}
	for (i = h & d->smmask; (e = &d->sm[i])->n != 0; i = (i + 1) & d->smmask) {
		if (e->h != h || e->n != n + 1)
			continue;
		k = d->smkeys + e->off;
		if (k[0] != root)
			continue;
		for (j = 0; j < n && k[j + 1] == f[j]; j++)
			;
		if (j == n)
			return e->sid;
	}
	sid = fold_perf_stack(d->p, root, f, n);
	if (d->smn >= SMEMO_MAX || d->nsmkeys + n + 1 > UINT32_MAX / 2) {
		smclear(d);
		return sid;
	}
	fold_grow(&d->smkeys, &d->smkeycap, d->nsmkeys + n + 1,
	    sizeof(*d->smkeys));
	d->smkeys[d->nsmkeys] = root;
	memcpy(d->smkeys + d->nsmkeys + 1, f, n * sizeof(*f));
	e->h = h;
	e->n = (uint32_t)(n + 1);
	e->off = (uint32_t)d->nsmkeys;
	e->sid = sid;
	d->nsmkeys += n + 1;
	if (++d->smn * 2 > d->smmask) {	/* grow: load at most 1/2 */
		struct sment *o = d->sm, *nt;

		cap = (d->smmask + 1) * 2;
		nt = xcalloc(cap, sizeof(*nt));
		for (i = 0; i <= d->smmask; i++) {
			if (o[i].n == 0)
				continue;
			for (j = o[i].h & (cap - 1); nt[j].n != 0;
			    j = (j + 1) & (cap - 1))
				;
			nt[j] = o[i];
		}
		free(o);
		d->sm = nt;
		d->smmask = cap - 1;
	}
	return sid;
}

/* ---- --call-graph dwarf: the user stack unwound ------------------------ */

struct uw {
	struct fold_perfdata *d;
	struct maps *m;
};

static struct fold_cfi *
uw_find(void *arg, uint64_t addr, uint64_t *vaddr)
{
	struct uw *u = arg;
	struct map *mp = maps_find(u->m, addr);

	if (mp == NULL || mp->ident)
		return NULL;
	return fold_symsrc_cfi(u->d->ss, mp->dso, addr - mp->start + mp->pgoff,
	    vaddr);
}

static int
uw_filemem(void *arg, uint64_t addr, uint64_t *val)
{
	struct uw *u = arg;
	struct map *mp = maps_find(u->m, addr);
	unsigned char b[8];

	if (mp == NULL)
		return -1;
	if (mp->ident || fold_symsrc_read(u->d->ss, mp->dso,
	    addr - mp->start + mp->pgoff, b, 8) != 0)
		return 1;
	*val = fold_getu(b, 8, 0);
	return 0;
}

/*
 * The user frames of a --call-graph dwarf sample, after the n frames of
 * its callchain (the kernel's), as perf script adds them: the stack
 * unwound from the sample's user registers; the new count.
 */
static size_t
unwind_user(struct fold_perfdata *d, const struct attr *a,
    const struct smp *s, struct maps *m, int java, size_t n)
{
	uint64_t regs[64], ips[MAX_STACK], mask = a->regs_user, bit;
	struct fold_unwind_in in;
	struct uw u;
	size_t k, i, nips;

	memset(regs, 0, sizeof(regs));
	for (bit = 0, k = 0; bit < 64; bit++)
		if (mask >> bit & 1)
			regs[bit] = r64(d, s->uregs + 8 * k++);
	u.d = d;
	u.m = m;
	in.regs = regs;
	in.mask = mask;
	in.stack = s->ustack;
	in.size = s->ustack_size;
	in.sp = regs[7];
	in.find = uw_find;
	in.filemem = uw_filemem;
	in.arg = &u;
	if (d->ucache == NULL)
		d->ucache = fold_unwind_cache_new();
	in.cache = d->ucache;
	nips = fold_unwind_x86_64(&in, ips, MAX_STACK);
	fold_grow(&d->frames, &d->framecap, n + nips + 1, sizeof(*d->frames));
	for (i = 0; i < nips; i++)
		if (ips[i] != 0)
			d->frames[n++] = frame(d, MODE_USER, ips[i], m, java);
	return n;
}

static void
do_sample(struct fold_perfdata *d, const unsigned char *r, size_t size,
    unsigned misc, uint64_t off)
{
	struct attr *a = sample_attr(d, r, size);
	struct smp s;
	struct thread *t;
	struct maps *m;
	size_t n = 0;
	uint64_t i, used = 0, ip;
	int mode = MODE_USER;
	char pidb[16], tidb[16];
	const char *comm;
	size_t clen;
	struct fold_str cs;
	uint64_t w;

	d->samples++;
	d->pend = 0;
	if (d->kbusy && (++d->kcheck & 63) == 0 &&
	    !fold_symsrc_kernel_busy(d->ss))
		kresolve(d);	/* kallsyms is read: stop waiting */
	if (a == NULL) {
		d->unknown_id++;
		return;
	}
	if (!parse_sample(d, a, r, size, &s)) {
		bad(d, off, "sample record shorter than its fields");
		return;
	}
	/* tracepoints: perf script prints their fields, not "event:"; the
	 * verdict on an event does not change once given */
	if (a->want < 0)
		a->want = fold_perf_want(d->p, a->type == 2 ? NULL : a->name,
		    a->namelen);
	if (!a->want)
		return;
	t = findnew(d, s.pid, s.tid);
	if (t->root == FOLD_NOID) {
		if (t->comm != FOLD_NOID) {
			cs = fold_intern_str(&d->comms, t->comm);
			comm = cs.s;
			clen = cs.len;
		} else {
			snprintf(pidb, sizeof(pidb), ":%ld", (long)t->tid);
			comm = pidb;
			clen = strlen(pidb);
		}
		snprintf(tidb, sizeof(tidb), "%ld", (long)s.tid);
		t->root = fold_perf_root(d->p, comm, clen, NULL, tidb, &t->java);
	}
	m = d->maps[t->maps];
	if (a->sample_type & S_CALLCHAIN) {
		fold_grow(&d->frames, &d->framecap, MAX_STACK + 1,
		    sizeof(*d->frames));
		for (i = 0; i < s.nchain && used < MAX_STACK; i++) {
			ip = r64(d, s.chain + 8 * i);
			if (ip >= CTX_MAX) {
				if (ip == CTX_HV)
					mode = MODE_HV;
				else if (ip == CTX_KERNEL)
					mode = MODE_KERNEL;
				else if (ip == CTX_USER)
					mode = MODE_USER;
				else {	/* guest or corrupt: perf drops all */
					n = 0;
					break;
				}
				continue;
			}
			used++;
			d->frames[n++] = frame(d, mode, ip, m, t->java);
		}
		/* PERF_SAMPLE_REGS_ABI_64 only: the stack of a 32-bit
		 * process (abi 1) is not unwound: x86-64 only, yet */
		if (d->unwind && s.abi == 2 && s.ustack_size != 0)
			n = unwind_user(d, a, &s, m, t->java, n);
	} else if (a->sample_type & S_IP) {
		fold_grow(&d->frames, &d->framecap, 1, sizeof(*d->frames));
		mode = (int)(misc & MISC_CPUMODE);
		d->frames[n++] = frame(d, mode, s.ip, m, t->java);
	}
	/*
	 * perf script prints no period for tracepoints: they count 1.  Without
	 * PERIOD in the samples (perf record -c N, an event's default period)
	 * perf gives every sample the attr's sample_period.
	 */
	if (a->type == 2)
		w = 1;
	else
		w = (a->sample_type & S_PERIOD) ? s.period : a->period;
	if (d->pend) {
		raw_add(d, t->root, d->frames, n, fold_perf_weight(d->p, w));
		return;
	}
	if (d->rawsum > 0 && !raw_fits(d, fold_perf_weight(d->p, w)))
		kresolve(d);	/* the order of counts may matter now */
	fold_perf_count(d->p, stack_of(d, t->root, d->frames, n),
	    fold_perf_weight(d->p, w));
}

/* ---- the ordered queue --------------------------------------------------- */

/* The time of a record that is queued, 0 for one delivered at once. */
static uint64_t
rec_time(struct fold_perfdata *d, const unsigned char *r, size_t size,
    uint32_t type)
{
	struct attr *a;
	uint64_t t;
	size_t pos;

	if (type == R_SAMPLE) {
		a = sample_attr(d, r, size);
		if (a == NULL || !(a->sample_type & S_TIME))
			return 0;
		t = a->sample_type;
		pos = 8 + 8 * (size_t)(!!(t & S_IDENTIFIER) + !!(t & S_IP) +
		    !!(t & S_TID));
		if (size < pos + 8)
			return 0;
		return r64(d, r + pos);
	}
	if (!d->sample_id_all || d->trailer_time == (size_t)-1 ||
	    size < 8 + d->trailer)
		return 0;
	t = r64(d, r + size - d->trailer + d->trailer_time);
	return t == ~0ULL ? 0 : t;
}

static void
deliver(struct fold_perfdata *d, const unsigned char *r, uint64_t off)
{
	uint32_t type = r32(d, r);
	unsigned misc = r16(d, r + 4);
	size_t size = r16(d, r + 6);

	switch (type) {
	case R_SAMPLE:
		do_sample(d, r, size, misc, off);
		break;
	case R_MMAP:
		do_mmap(d, r, size, 0, misc);
		break;
	case R_MMAP2:
		do_mmap(d, r, size, 1, misc);
		break;
	case R_COMM:
		do_comm(d, r, size);
		break;
	case R_FORK:
		do_fork(d, r, size, misc);
		break;
	default:
		break;
	}
}

static inline int
qless(const struct qent *x, const struct qent *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/*
 * Sort the queue (d->q[qh..nq)) by (time, arrival), stably.  A round is the
 * records of each CPU's buffer one after the other, each in time order: a
 * natural merge sort merges those runs, O(n log runs), between d->q and
 * d->qtmp (which then trade places).
 */
static void
qsort_runs(struct fold_perfdata *d)
{
	struct qent *a, *b, *base;
	size_t n = d->nq - d->qh, lo, mid, hi, k, x, y, cap;

	fold_grow(&d->qtmp, &d->qtmpcap, n, sizeof(*d->qtmp));
	a = d->q + d->qh;
	b = d->qtmp;
	for (;;) {
		for (mid = 1; mid < n && !qless(&a[mid], &a[mid - 1]); mid++)
			;
		if (mid >= n)
			break;	/* one run: sorted */
		for (lo = 0, k = 0; lo < n; lo = hi) {
			for (mid = lo + 1; mid < n && !qless(&a[mid], &a[mid - 1]);
			    mid++)
				;
			for (hi = mid; hi < n && (hi == mid ||
			    !qless(&a[hi], &a[hi - 1])); hi++)
				;
			if (mid == n)
				hi = n;
			/* merge a[lo..mid) and a[mid..hi) into b[lo..hi) */
			for (x = lo, y = mid; x < mid || y < hi;) {
				if (y >= hi || (x < mid && !qless(&a[y], &a[x])))
					b[k++] = a[x++];
				else
					b[k++] = a[y++];
			}
		}
		base = d->q;	/* trade places: b is the queue now */
		d->q = b;
		d->qtmp = base;
		cap = d->qcap;
		d->qcap = d->qtmpcap;
		d->qtmpcap = cap;
		d->qh = 0;
		d->nq = n;
		a = d->q;
		b = d->qtmp;
	}
}

/*
 * Into the second-level cache, not the first (x86 prefetcht1): ~45 lines a
 * sample brought into the first would push out the walk's own (the CFI
 * rows, the maps): 8.3 GB capture, best of 9 interleaved, 0.549 s against
 * 0.481 s --no-inline, 0.614 against 0.540 s with inlined frames.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p, 0, 2)
#else
#define PREFETCH(p) ((void)(p))
#endif

/*
 * A sample about to be unwound (r, in the file's bytes): the part of its
 * stack copy the unwinding of late has read, and its registers before
 * it, asked of memory now, while the sample before is unwound (the copies
 * are cold: each would otherwise be read a line at a time, each line
 * waited for, as the walk goes up the stack).  A hint: the copy is
 * taken to be the attr's size, before the record's last word.
 */
static void
ahead(struct fold_perfdata *d, const unsigned char *r)
{
	size_t size = r16(d, r + 6), reach;
	const unsigned char *p, *e;

	if (r32(d, r) != R_SAMPLE || size < (size_t)d->ucopy + 24 ||
	    d->ucache == NULL)
		return;
	reach = (size_t)fold_unwind_reach(d->ucache);
	if (reach > d->ucopy)
		reach = d->ucopy;
	p = r + size - 8 - d->ucopy;
	e = p + reach + 64;
	p = p - r > 256 ? p - 256 : r;
	for (; p < e; p += 64)
		PREFETCH(p);
}

/* Deliver the queued records up to time limit, in time order; those left
 * are d->q[qh..nq). */
static void
flush(struct fold_perfdata *d, uint64_t limit)
{
	size_t i, k = 0;

	if (d->nq == d->qh)
		return;
	if (d->unsorted)
		qsort_runs(d);
	d->unsorted = 0;	/* what is left is a sorted tail */
	for (i = d->qh; i < d->nq && d->q[i].time <= limit; i++) {
		if (d->unwind && i + 1 < d->nq)
			ahead(d, d->q[i + 1].rec);
		if (!d->refused)
			deliver(d, d->q[i].rec, d->q[i].off);
		if ((k = d->q[i].chunk) != NOCHUNK)
			d->chunks[k].refs--;
	}
	if (i == d->nq)
		d->nq = i = 0;
	d->qh = i;
}

/* A kernel record at r (offset off in the file, or copied for a pipe). */
static void
queue(struct fold_perfdata *d, const unsigned char *r, size_t size,
    uint32_t type, uint64_t off)
{
	uint64_t t;
	struct qent *e;

	if (type != R_SAMPLE && type != R_MMAP && type != R_MMAP2 &&
	    type != R_COMM && type != R_FORK)
		return;
	t = rec_time(d, r, size, type);
	if (t == 0) {
		if (!d->refused)
			deliver(d, r, off);
		return;
	}
	if (t > d->max_time)
		d->max_time = t;
	/* room at the front, when at least as much as is queued (each
	 * record moves once, at most, on average) */
	if (d->nq == d->qcap && d->qh > 0 && d->qh >= d->nq - d->qh) {
		memmove(d->q, d->q + d->qh, (d->nq - d->qh) * sizeof(*d->q));
		d->nq -= d->qh;
		d->qh = 0;
	}
	fold_grow(&d->q, &d->qcap, d->nq + 1, sizeof(*d->q));
	if (d->nq > d->qh && t < d->q[d->nq - 1].time)
		d->unsorted = 1;
	e = &d->q[d->nq++];
	e->time = t;
	e->seq = d->seq++;
	e->off = off;
	e->rec = r;
	e->chunk = d->mapped ? NOCHUNK : d->cur;
	if (!d->mapped)
		d->chunks[d->cur].refs++;
}

static void
round_end(struct fold_perfdata *d)
{
	flush(d, d->next_flush);
	d->next_flush = d->max_time;
}

/* ---- records ------------------------------------------------------------- */

static void
build_ids(struct fold_perfdata *d, const unsigned char *p, size_t n)
{
	size_t pos = 0, sz, fl;
	unsigned misc, idlen;

	while (n - pos >= 8 + 4 + 24) {
		misc = r16(d, p + pos + 4);
		sz = r16(d, p + pos + 6);
		if (sz < 8 + 4 + 24 || sz > n - pos)
			break;
		idlen = (misc & MISC_BUILD_ID_SIZE) ? p[pos + 12 + 20] : 20;
		if (idlen > 20)
			idlen = 20;
		fl = strnlen((const char *)p + pos + 36, sz - 36);
		fold_symsrc_buildid(d->ss, (const char *)p + pos + 36, fl,
		    p + pos + 12, idlen);
		pos += sz;
	}
}

static void
feature(struct fold_perfdata *d, unsigned id, const unsigned char *p,
    size_t n, uint64_t off)
{
	switch (id) {
	case F_BUILD_ID:
		build_ids(d, p, n);
		break;
	case F_EVENT_DESC:
		event_desc(d, p, n, off);
		break;
	case F_CMDLINE:
		cmdline(d, p, n);
		break;
	case F_ARCH:		/* u32 len, then the NUL-padded name */
		if (n >= 4 && r32(d, p) <= n - 4)
			snprintf(d->arch, sizeof(d->arch), "%.*s",
			    (int)strnlen((const char *)p + 4, r32(d, p)),
			    (const char *)p + 4);
		break;
	case F_AUXTRACE:
		refuse(d, "holds hardware trace (AUX area) data, which needs "
		    "decoding: use perf script -i %s | stackcollapse-perf",
		    d->file);
		break;
	case F_DIR_FORMAT:
		refuse(d, "perf.data in directory format (perf record "
		    "--threads) is not read: use perf script -i %s | "
		    "stackcollapse-perf", d->file);
		break;
	case F_COMPRESSED:
		refuse(d, "records compressed with perf record -z (zstd) are "
		    "not read: use perf script -i %s | stackcollapse-perf, or "
		    "record without -z", d->file);
		break;
	default:
		break;
	}
}

/*
 * One record of size bytes at r (8 <= size).  Returns the number of
 * bytes that follow it outside the record (AUXTRACE, pipe-mode tracing
 * data) to be skipped.
 */
static uint64_t
record(struct fold_perfdata *d, const unsigned char *r, size_t size,
    uint64_t off, int pipe)
{
	uint32_t type = r32(d, r);
	struct attr *a;
	uint64_t v;

	if (type < 64) {
		if (d->dwarf && check_dwarf(d))
			return 0;
		queue(d, r, size, type, off);
		return 0;
	}
	switch (type) {
	case R_HEADER_ATTR:
		if (size >= 16) {
			uint32_t asz = r32(d, r + 12);

			if (asz == 0)
				asz = 64;
			if (asz > size - 8)
				asz = (uint32_t)(size - 8);
			a = add_attr(d, r + 8, asz);
			if (a != NULL)
				add_ids(d, r + 8 + asz, size - 8 - asz);
		}
		break;
	case R_HEADER_TRACING_DATA:
		if (size >= 12 && pipe) {
			v = r32(d, r + 8);
			return (v + 7) & ~7ULL;
		}
		break;
	case R_HEADER_BUILD_ID:
		build_ids(d, r, size);
		break;
	case R_FINISHED_ROUND:
		round_end(d);
		break;
	case R_AUXTRACE_INFO:
	case R_AUXTRACE:
		feature(d, F_AUXTRACE, NULL, 0, off);
		break;
	case R_COMPRESSED:
		feature(d, F_COMPRESSED, NULL, 0, off);
		break;
	case R_EVENT_UPDATE:
		if (size > 24 && r64(d, r + 8) == 2 &&	/* NAME */
		    (a = attr_of_id(d, r64(d, r + 16))) != NULL)
			set_name(a, r + 24, size - 24);
		break;
	case R_HEADER_FEATURE:
		if (size >= 16 && r64(d, r + 8) < 256)
			feature(d, (unsigned)r64(d, r + 8), r + 16, size - 16,
			    off);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- input --------------------------------------------------------------- */

/* Read up to n bytes; fewer only at the end. */
static size_t
readn(int fd, void *buf, size_t n, const char *name, int *err)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fold_warn("%s: read error: %s", name, strerror(errno));
			*err = 1;
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/*
 * The pager: a thread that takes the page faults of a mapped capture ahead
 * of the reader, touching a byte in each PAGER_STRIDE of it (Linux maps the
 * 16 pages around a faulting one: all of them are then mapped), so that the
 * faults are taken on another processor while this one unwinds, and so is
 * the unmapping of what the reader has passed (let_go() says how far; the
 * pager never unmaps past where it is).  It stays at most PAGER_AHEAD past
 * the reader and jumps to the reader when it falls behind.  Nothing it
 * reads decides anything: the output is the same with it or without.
 * Touching more (each record's head, the end of each stack copy and the
 * part of it the walks read, to have them in the cache too) was slower:
 * 8.3 GB capture, --no-inline, best of 7 interleaved, 0.536 s against
 * 0.507 s; a byte a page 0.564 s.  Waiting for the reader by spinning,
 * not asleep, gained nothing (0.522 s against 0.517 s).
 */
#define PAGER_STRIDE (64u << 10)
#define PAGER_AHEAD (8u << 20)
#define PAGER_MIN (64ULL << 20)	/* less data: no pager */
/* the reader says how far it is, and the pager unmaps, each this far: each
 * unmapping interrupts the reader's processor to flush its TLB, which
 * on a virtual machine costs (8.3 GB capture: 4 MiB 0.58 s, 16 MiB
 * 0.51 s --no-inline, best of 9; 4 MiB more resident each way) */
#define PAGER_LET_GO (16u << 20)
#define PAGER_SLACK (32u << 20)	/* passed, not unmapped: at most */
#define PAGER_WILLNEED (16u << 20)	/* read ahead from the disk at a time */
/*
 * A fault slower than this read the disk: only then are the next windows
 * asked for (POSIX_MADV_WILLNEED walks the page cache even where all of
 * it is there: 8.3 GB capture in the page cache, --no-inline, best of 9
 * interleaved, 0.476 s asking always, 0.448 s never).
 */
#define PAGER_COLD 50e-6	/* s */

struct pager {
	pthread_t thr;
	const unsigned char *m;
	uint64_t end, page;
	uint64_t advised;	/* the pager's: POSIX_MADV_WILLNEED below */
	int cold;		/* windows still to ask for (a slow fault) */
	atomic_uint_fast64_t reader;	/* the reader's (a record's start) */
	atomic_uint_fast64_t release;	/* the reader is past this page */
	atomic_uint_fast64_t released;	/* the pager unmapped below this */
	uint64_t told;		/* the reader's: reader when last stored */
	atomic_uint sink;	/* what it read, so that it is read */
	atomic_int stop;
};

static void *
pager_run(void *arg)
{
	struct pager *g = arg;
	uint64_t a = atomic_load_explicit(&g->reader, memory_order_relaxed);
	uint64_t r, k, released = 0;
	unsigned sink = 0;
	struct timespec nap = { 0, 20000 }, t0;

	while (!atomic_load_explicit(&g->stop, memory_order_relaxed)) {
		r = atomic_load_explicit(&g->release, memory_order_acquire);
		if (r > a)
			r = a - a % g->page;
		if (r > released) {
			(void)munmap((unsigned char *)g->m + released,
			    (size_t)(r - released));
			released = r;
			atomic_store_explicit(&g->released, r,
			    memory_order_release);
		}
		if (g->advised < a)	/* after a jump */
			g->advised = a - a % g->page;
		if (g->cold > 0 && a < g->end &&
		    a + PAGER_WILLNEED / 2 > g->advised) {
			/* the next window read from the disk, if it is not
			 * in the page cache, in large reads, not a page a
			 * fault (the mapping is MADV_RANDOM) */
			k = g->advised + PAGER_WILLNEED < g->end ?
			    PAGER_WILLNEED : g->end - g->advised;
			(void)posix_madvise((unsigned char *)g->m + g->advised,
			    (size_t)k, POSIX_MADV_WILLNEED);
			g->advised += k;
			g->cold--;
		}
		r = atomic_load_explicit(&g->reader, memory_order_relaxed);
		if (a >= g->end || a > r + PAGER_AHEAD) {
			nanosleep(&nap, NULL);
			continue;
		}
		if (a < r)		/* behind: on to the reader */
			a = r;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		sink += g->m[a];
		if (fold_since(&t0) > PAGER_COLD) {
			/* read from the disk: the next windows asked for,
			 * from here */
			g->cold = 2;
			if (g->advised < a + PAGER_WILLNEED / 2)
				g->advised = a - a % g->page;
		}
		a += PAGER_STRIDE - a % PAGER_STRIDE;
	}
	atomic_store_explicit(&g->sink, sink, memory_order_relaxed);
	return NULL;
}

static struct pager *
pager_start(const unsigned char *m,
    uint64_t from, uint64_t end)
{
	struct pager *g;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || end - from < PAGER_MIN)
		return NULL;
	g = xmalloc(sizeof(*g));
	g->m = m;
	g->end = end;
	g->page = (uint64_t)sysconf(_SC_PAGESIZE);
	g->advised = from - from % g->page;
	g->cold = 1;
	atomic_init(&g->released, 0);
	atomic_init(&g->release, 0);
	atomic_init(&g->reader, from);
	g->told = from;
	atomic_init(&g->sink, 0);
	atomic_init(&g->stop, 0);
	if (pthread_create(&g->thr, NULL, pager_run, g) != 0) {
		free(g);
		return NULL;
	}
	return g;
}

/* The pager stopped; what it did not unmap below d->ureleased is. */
static void
pager_end(struct fold_perfdata *d)
{
	struct pager *g = d->pager;
	uint64_t rel;

	if (g == NULL)
		return;
	atomic_store_explicit(&g->stop, 1, memory_order_relaxed);
	pthread_join(g->thr, NULL);
	rel = atomic_load_explicit(&g->released, memory_order_relaxed);
	if (d->ureleased > rel)
		(void)munmap(d->umap + rel, (size_t)(d->ureleased - rel));
	free(g);
	d->pager = NULL;
}

/*
 * A mapped file read up to offset upto: the pages below it that no queued
 * record is in are unmapped (their page cache stays; this process's memory
 * does not grow with the file).
 */
static void
let_go(struct fold_perfdata *d, uint64_t upto)
{
	uint64_t low = upto, page = (uint64_t)sysconf(_SC_PAGESIZE), rel;
	struct timespec nap = { 0, 50000 };
	size_t i;

	for (i = d->qh; i < d->nq; i++)
		if (d->q[i].off < low)
			low = d->q[i].off;
	low -= low % page;
	if (d->pager != NULL) {	/* it unmaps, as far as it has been */
		atomic_store_explicit(&d->pager->reader, upto,
		    memory_order_relaxed);
		if (low > d->ureleased)
			atomic_store_explicit(&d->pager->release, low,
			    memory_order_release);
		/* a pager kept from running (a busy machine) is waited for,
		 * not left to unmap what it would: memory stays flat */
		while (low > (rel = atomic_load_explicit(&d->pager->released,
		    memory_order_acquire)) && low - rel > PAGER_SLACK)
			nanosleep(&nap, NULL);
	} else if (low > d->ureleased)
		(void)munmap(d->umap + d->ureleased,
		    (size_t)(low - d->ureleased));
	if (low > d->ureleased)
		d->ureleased = low;
}

/* The records in [p, p + n) (file mode, or a pipe stream already read). */
static void
records(struct fold_perfdata *d, const unsigned char *p, size_t n,
    uint64_t base, int truncated)
{
	size_t pos = 0, sz;
	uint64_t skip, count = 0;

	while (n - pos >= 8 && !d->refused) {
		sz = r16(d, p + pos + 6);
		if (sz < 8) {
			bad(d, base + pos, "record of size under 8: the rest "
			    "of the data is not read");
			break;
		}
		if (sz > n - pos)
			break;
		skip = record(d, p + pos, sz, base + pos, 0);
		pos += sz;
		if (skip > n - pos)
			skip = n - pos;
		pos += (size_t)skip;
		if (d->umap != NULL && base + pos - d->ureleased >=
		    (d->pager != NULL ? PAGER_LET_GO : 16u << 20))
			let_go(d, base + pos);
		else if (d->pager != NULL &&
		    base + pos - d->pager->told >= (1 << 20)) {
			d->pager->told = base + pos;
			atomic_store_explicit(&d->pager->reader, base + pos,
			    memory_order_relaxed);
		}
		if (d->progress && ((++count & 4095) == 0 ||
		    base + pos - d->done >= (1 << 20))) {
			d->done = base + pos;
			progress(d, 0);
		}
	}
	if (n - pos > 0) {
		if (truncated) {
			if (!(d->o.flags & FOLD_PERFDATA_QUIET))
				fold_warn("%s: the last record is cut short "
				    "(%llu bytes ignored)", d->file,
				    (unsigned long long)(n - pos));
		} else
			bad(d, base + pos, "record cut short at the end of "
			    "the data");
	}
}

/*
 * Where file mode reads its sections from: the whole file in memory (it
 * came through a pipe), or a regular file read with pread(2).  at() gives
 * len bytes at off (bounds checked by the caller), valid until the next
 * call; NULL on a read error.
 */
struct src {
	const unsigned char *mem;
	int fd;
	uint64_t size;
	unsigned char *tmp;
	size_t tmpcap;
};

static const unsigned char *
at(struct fold_perfdata *d, struct src *s, uint64_t off, size_t len)
{
	size_t got = 0;
	ssize_t r;

	if (s->mem != NULL)
		return s->mem + off;
	fold_grow(&s->tmp, &s->tmpcap, len + 1, 1);
	while (got < len) {
		r = pread(s->fd, s->tmp + got, len - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				fold_warn("%s: read error: %s", d->file,
				    strerror(errno));
			d->status = 1;
			return NULL;
		}
		got += (size_t)r;
	}
	return s->tmp;
}

static void stream(struct fold_perfdata *d, int fd, const unsigned char *have,
    size_t nhave, uint64_t off, uint64_t limit, int pipe, int truncated);

#define PROBE (8u << 20)	/* bytes in each of the two probe windows */
#define PROBE_MIN (32ULL << 20)	/* data under this: mapped */

/*
 * How to read the data [doff, doff + dlen) of a --call-graph dwarf
 * capture in file fd: 1 mapped (only the pages touched are read: the
 * stack copies are mostly never looked at), 0 with read(2) into chunks
 * (every byte copied, no page fault).  Which costs less depends on the
 * machine: where a page fault is cheap the mapping wins (2.2x less kernel
 * time than the copy on a 2-core EPYC VM, 8.5 GB capture); in some
 * virtual machines (shadow page tables) a fault costs several times as
 * much, and the copy wins.  So it is measured, on the file itself: two
 * 8 MiB windows of the data mapped, touched a page at a time and let go
 * (unmapping is part of the cost), and read(2) again into a reused
 * buffer, the faster of each compared.  A file not in the page cache
 * is read: its first touch (before POSIX_MADV_RANDOM) waits for the disk,
 * the read(2) after it does not; mapped with POSIX_MADV_RANDOM it would
 * be read from the disk a page at a time (a 150 MB capture out of the
 * page cache: 0.9-2.0 s mapped, 0.15 s read).  Small data is mapped.
 */
static int
map_wins(int fd, uint64_t doff, uint64_t dlen)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), a, i;
	double tm = 1e9, tr = 1e9, t;
	unsigned char *buf, *m;
	struct timespec t0;
	volatile unsigned char sink = 0;
	int w;

	if (dlen < PROBE_MIN || page == 0 || PROBE % page != 0)
		return 1;
	buf = xmalloc(CHUNK_SIZE);
	fold_prefault(buf, CHUNK_SIZE);
	for (w = 0; w < 2; w++) {
		a = doff + (page - doff % page) % page + (uint64_t)w * PROBE;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if ((m = mmap(NULL, PROBE, PROT_READ, MAP_PRIVATE, fd,
		    (off_t)a)) == MAP_FAILED)
			break;
		for (i = 0; i < PROBE; i += page)
			sink += m[i];
		(void)munmap(m, PROBE);
		if ((t = fold_since(&t0)) < tm)
			tm = t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < PROBE; i += CHUNK_SIZE)
			if (pread(fd, buf, CHUNK_SIZE, (off_t)(a + i)) !=
			    (ssize_t)CHUNK_SIZE)
				break;
		if ((t = fold_since(&t0)) < tr)
			tr = t;
	}
	(void)sink;
	free(buf);
	/* with a second processor the faults are the pager's, taken while
	 * this one unwinds: the mapping still wins where they cost up to
	 * half as much again as the copy (measured: on a 2-core VM where
	 * the probe saw 0.78, mapped 0.68 s and read 1.19 s) */
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? tm <= 1.5 * tr : tm <= tr;
}

static void
file_mode(struct fold_perfdata *d, struct src *sr)
{
	uint64_t hsize, asz, aoff, alen, doff, dlen, foff, fsize = sr->size;
	uint64_t flags[4], ioff, ilen;
	void *map = NULL;
	int mapped = 0;
	size_t i, nattr, nf = 0;
	int truncated = 0;
	const unsigned char *b, *e;

	if (fsize < 104 || (b = at(d, sr, 0, 104)) == NULL) {
		refuse(d, "perf.data header cut short");
		return;
	}
	hsize = r64(d, b + 8);
	asz = r64(d, b + 16);
	aoff = r64(d, b + 24);
	alen = r64(d, b + 32);
	doff = r64(d, b + 40);
	dlen = r64(d, b + 48);
	for (i = 0; i < 4; i++)
		flags[i] = r64(d, b + 72 + 8 * i);
	if (hsize < 104 || asz < 16 + 64 || asz > 1 << 16) {
		refuse(d, "not a perf.data header this tool knows (header "
		    "size %llu, attr size %llu)", (unsigned long long)hsize,
		    (unsigned long long)asz);
		return;
	}
	if (aoff > fsize || alen > fsize - aoff) {
		bad(d, 24, "attrs section past the end of the file");
		alen = aoff > fsize ? 0 : fsize - aoff;
	}
	if (doff > fsize) {
		refuse(d, "data section past the end of the file");
		return;
	}
	if (dlen == 0 && fsize > doff) {
		truncated = 1;
		dlen = fsize - doff;
		if (!(d->o.flags & FOLD_PERFDATA_QUIET))
			fold_warn("%s: data size 0 in the header (perf record "
			    "did not finish?): reading the records up to the "
			    "last whole one", d->file);
	} else if (dlen > fsize - doff) {
		bad(d, 40, "data section past the end of the file");
		dlen = fsize - doff;
		truncated = 1;
	}
	/* attrs and their ids */
	nattr = (size_t)(alen / asz);
	for (i = 0; i < nattr; i++) {
		if ((e = at(d, sr, aoff + i * asz, (size_t)asz)) == NULL)
			break;
		ioff = r64(d, e + asz - 16);
		ilen = r64(d, e + asz - 8);
		if (add_attr(d, e, (size_t)asz - 16) == NULL)
			continue;
		if (ioff > fsize || ilen > fsize - ioff) {
			bad(d, aoff + i * asz, "sample ids past the end of "
			    "the file");
			continue;
		}
		if ((e = at(d, sr, ioff, (size_t)ilen)) != NULL)
			add_ids(d, e, (size_t)ilen);
	}
	if (d->nattrs == 0) {
		refuse(d, "no events in the perf.data header");
		return;
	}
	/* features, right after the data */
	foff = doff + dlen;
	if (!truncated) {
		unsigned bit;

		for (bit = 0; bit < 256 && !d->refused; bit++) {
			uint64_t so, sl;

			if (!(flags[bit / 64] & (1ULL << (bit % 64))))
				continue;
			if (foff + 16 * (nf + 1) > fsize ||
			    (e = at(d, sr, foff + 16 * nf, 16)) == NULL) {
				bad(d, foff, "feature table past the end of "
				    "the file");
				break;
			}
			so = r64(d, e);
			sl = r64(d, e + 8);
			nf++;
			if (so > fsize || sl > fsize - so) {
				bad(d, foff, "feature section past the end "
				    "of the file");
				continue;
			}
			if ((e = at(d, sr, so, (size_t)sl)) != NULL)
				feature(d, bit, e, (size_t)sl, so);
		}
	}
	if (d->refused || check_dwarf(d))
		return;
	fold_symsrc_prefetch(d->ss);	/* the objects samples hit, meanwhile */
	d->total = dlen;
	d->done = doff;
	d->progress = (d->o.flags & FOLD_PERFDATA_PROGRESS) &&
	    !(d->o.flags & FOLD_PERFDATA_QUIET) && dlen > PROGRESS_MIN;
	/*
	 * A --call-graph dwarf capture is mostly stack copies the unwinding
	 * reads a few words of: mapped, only the pages touched are read,
	 * where that costs less than reading it all (map_wins()).
	 */
	if (sr->mem == NULL && d->unwind && sr->size > 0 &&
	    (uint64_t)(size_t)sr->size == sr->size &&
	    !(d->o.flags & FOLD_PERFDATA_READ) &&
	    ((d->o.flags & FOLD_PERFDATA_MAP) ||
	    map_wins(sr->fd, doff, dlen)) &&
	    (map = mmap(NULL, (size_t)sr->size, PROT_READ, MAP_PRIVATE,
	    sr->fd, 0)) != MAP_FAILED) {
		(void)posix_madvise(map, (size_t)sr->size, POSIX_MADV_RANDOM);
		sr->mem = map;
		mapped = 1;
		d->umap = map;
		d->ureleased = 0;
		d->pager = pager_start(map, doff, doff + dlen);
		if (d->pager == NULL)	/* what is not in the page cache */
			(void)posix_madvise(map, (size_t)sr->size,
			    POSIX_MADV_WILLNEED);
	}
	if (sr->mem != NULL) {
		d->mapped = 1;
		records(d, sr->mem + doff, (size_t)dlen, doff, truncated);
		if (mapped) {
			flush(d, UINT64_MAX);	/* queued records point into it */
			pager_end(d);
			munmap((unsigned char *)map + d->ureleased,
			    (size_t)(sr->size - d->ureleased));
			sr->mem = NULL;
			d->umap = NULL;
		}
	} else if (lseek(sr->fd, (off_t)doff, SEEK_SET) != (off_t)doff) {
		fold_warn("%s: cannot seek: %s", d->file, strerror(errno));
		d->status = 1;
	} else
		stream(d, sr->fd, NULL, 0, doff, dlen, 0, truncated);
}

/* A chunk with no queued record in it, other than the current one, of at
 * least need bytes; a new one if there is none. */
static uint32_t
free_chunk(struct fold_perfdata *d, size_t need)
{
	struct chunk *c;
	size_t i, cap = CHUNK_SIZE;

	for (i = 0; i < d->nchunks; i++)
		if (d->chunks[i].refs == 0 && i != d->cur &&
		    d->chunks[i].cap >= need)
			return (uint32_t)i;
	fold_grow(&d->chunks, &d->chunkcap, d->nchunks + 1, sizeof(*d->chunks));
	while (cap < need)
		cap *= 2;
	c = &d->chunks[d->nchunks];
	c->buf = xmalloc(cap);
	fold_prefault(c->buf, cap);	/* filled whole, then reused */
	c->cap = cap;
	c->refs = 0;
	return (uint32_t)d->nchunks++;
}

/*
 * Room to read into after *end: when the current chunk is full, its
 * unread bytes [*pos, *end) (part of a record) move to the start of a
 * chunk, the same one if no queued record is left in it, else another.
 * The buffer to read into.
 */
static unsigned char *
room(struct fold_perfdata *d, size_t *pos, size_t *end)
{
	struct chunk *c = &d->chunks[d->cur];
	size_t keep = *end - *pos, pad, need;
	uint32_t nc;

	if (*end < c->cap)
		return c->buf;
	/* what is kept goes where the next read lands aligned
	 * (fold_read_pad()), with room after it */
	need = keep + 2 * FOLD_READ_ALIGN;
	if (c->refs == 0 && c->cap >= need) {
		pad = fold_read_pad(c->buf, keep);
		memmove(c->buf + pad, c->buf + *pos, keep);
	} else {
		nc = free_chunk(d, need <= CHUNK_SIZE / 2 ? CHUNK_SIZE : 2 * need);
		pad = fold_read_pad(d->chunks[nc].buf, keep);
		memcpy(d->chunks[nc].buf + pad, d->chunks[d->cur].buf + *pos,
		    keep);
		d->cur = nc;
	}
	*pos = pad;
	*end = pad + keep;
	return d->chunks[d->cur].buf;
}

/*
 * Records read from fd with read(2) into chunks: have[0..nhave) first, then
 * at most limit bytes from fd.  off is the file offset of the first byte
 * (for messages).  Queued records stay in their chunk until delivered.
 */
static void
stream(struct fold_perfdata *d, int fd, const unsigned char *have,
    size_t nhave, uint64_t off, uint64_t limit, int pipe, int truncated)
{
	unsigned char *buf;
	size_t pos = 0, end = 0, sz, want;
	uint64_t skip, count = 0, left = limit;
	int err = 0, eof = 0;
	ssize_t r;

	d->mapped = 0;
	d->cur = NOCHUNK;
	d->cur = free_chunk(d, CHUNK_SIZE);
	buf = d->chunks[d->cur].buf;
	pos = end = fold_read_pad(buf, nhave);	/* reads land aligned */
	if (nhave > 0) {
		memcpy(buf + pos, have, nhave);
		end = pos + nhave;
	}
	for (;;) {
		/* whole records in buf[pos..end) */
		while (end - pos >= 8 && !d->refused) {
			sz = r16(d, buf + pos + 6);
			if (sz < 8) {
				bad(d, off, "record of size under 8: the rest "
				    "of the data is not read");
				eof = 2;
				break;
			}
			if (sz > end - pos)
				break;
			skip = record(d, buf + pos, sz, off, pipe);
			pos += sz;
			off += sz;
			while (skip > 0) {	/* bytes outside the record */
				size_t k = end - pos < skip ? end - pos :
				    (size_t)skip;

				pos += k;
				off += k;
				skip -= k;
				if (skip > 0) {
					buf = room(d, &pos, &end);
					want = d->chunks[d->cur].cap - end;
					if (left < want)
						want = (size_t)left;
					r = want > 0 ? read(fd, buf + end, want) : 0;
					if (r < 0 && errno == EINTR)
						continue;
					if (r <= 0) {
						eof = 1;
						break;
					}
					end += (size_t)r;
					left -= (uint64_t)r;
				}
			}
			if (eof)
				break;
			if (d->progress && ((++count & 4095) == 0 ||
			    off - d->done >= (1 << 20))) {
				d->done = off;
				progress(d, 0);
			}
		}
		if (eof || d->refused)
			break;
		buf = room(d, &pos, &end);
		want = d->chunks[d->cur].cap - end;
		if (left < want)
			want = (size_t)left;
		if (want == 0)
			break;
		r = read(fd, buf + end, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fold_warn("%s: read error: %s", d->file,
			    strerror(errno));
			err = 1;
			break;
		}
		if (r == 0)
			break;
		end += (size_t)r;
		left -= (uint64_t)r;
	}
	if (eof != 2 && !d->refused && end > pos) {
		if (pipe || truncated) {
			if (!(d->o.flags & FOLD_PERFDATA_QUIET))
				fold_warn("%s: the last record is cut short "
				    "(%llu bytes ignored)", d->file,
				    (unsigned long long)(end - pos));
		} else
			bad(d, off, "record cut short at the end of the data");
	}
	if (err)
		d->status = 1;
}

int
fold_perfdata_magic(const void *p, size_t n)
{
	uint64_t v;

	if (n < 8)
		return 0;
	memcpy(&v, p, 8);
	return v == MAGIC2 || v == bswap64(MAGIC2);
}

struct fold_perfdata *
fold_perfdata_new(const struct fold_perfdata_opts *o)
{
	struct fold_perfdata *d = xcalloc(1, sizeof(*d));

	d->o = *o;
	d->ss = fold_symsrc_new(o->symfs, o->buildid_dir,
	    ((o->flags & FOLD_PERFDATA_QUIET) ? FOLD_SYMSRC_QUIET : 0) |
	    ((o->flags & FOLD_PERFDATA_DEMANGLE) ? FOLD_SYMSRC_DEMANGLE : 0));
	fold_intern_init(&d->names);
	fold_intern_init(&d->comms);
	fold_intern_init(&d->raw);
	d->gen = 1;		/* 0: no maps (hv), 1: unused */
	d->fcmask = (1U << FCACHE_BITS) - 1;
	d->fc = xcalloc(d->fcmask + 1, sizeof(*d->fc));
	return d;
}

/* Forget the threads, maps and events of the last file. */
static void
reset(struct fold_perfdata *d, int again)
{
	size_t i;

	for (i = 0; i < d->nattrs; i++)
		free(d->attrs[i].name);
	d->nattrs = 0;
	m_free(&d->ids);
	m_free(&d->tids);
	for (i = 0; i < d->nmaps; i++) {
		free(d->maps[i]->v);
		free(d->maps[i]);
	}
	d->nmaps = 0;
	d->nthreads = 0;
	for (i = 0; i < NLAST; i++)
		d->last_thread[i] = (size_t)-1;
	if (d->fcn > 0)
		memset(d->fc, 0, (d->fcmask + 1) * sizeof(*d->fc));
	d->fcn = 0;
	smclear(d);
	d->nq = d->qh = 0;
	for (i = 0; i < d->nchunks; i++)
		d->chunks[i].refs = 0;
	d->seq = d->next_flush = d->max_time = 0;
	d->unsorted = 0;
	d->samples = d->unknown_id = d->bad = 0;
	d->refused = 0;
	d->dwarf = 0;
	d->unwind = 0;
	d->ucopy = 0;
	d->arch[0] = '\0';
	free(d->cmdline);
	d->cmdline = NULL;
	d->warned_bad = 0;
	d->shown = 0;
	d->kgen = ++d->gen;
	if (!again)
		return;
	/* perf's idle thread: pid 0 is "swapper" from the start */
	new_thread(d, 0, 0, new_maps(d))->comm =
	    fold_intern(&d->comms, "swapper", 7, NULL);
}

/* File mode through a pipe: read into memory up to this size, beyond it
 * copied to a temporary file. */
#define SPOOL_AT (16u << 20)

/*
 * A file-mode perf.data coming through a pipe (its sections are found by
 * offsets, the features after the data), larger than SPOOL_AT: the n
 * bytes read so far (*b) and the rest of fd copied to an unlinked
 * temporary file ($TMPDIR, else /tmp), so that memory stays bounded as for
 * a file named on the command line.  Its descriptor, *b freed; -1 when no
 * file could be made or written (a full disk): then *b, *n (its size) and
 * *cap hold all the bytes read so far, for the caller to go on in memory.
 * A read error sets *err and ends the copy there.
 */
static int
spool(int fd, unsigned char **b, size_t *n, size_t *cap, const char *name,
    int *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	uint64_t done = 0;
	size_t got = *n, w;
	ssize_t r;
	int t;

	if (dir == NULL || dir[0] == '\0' ||
	    strlen(dir) > sizeof(path) - 40)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/stackcollapse-perf.XXXXXX", dir);
	if ((t = mkstemp(path)) < 0)
		return -1;
	unlink(path);
	for (;;) {		/* (*b)[0..got) to the file */
		if (fold_write_all(t, *b, got, -1) != 0)
			goto full;
		done += got;
		if (*err || (got = readn(fd, *b, *cap, name, err)) == 0)
			break;
	}
	free(*b);
	*b = NULL;
	return t;
full:			/* take back what the file holds, then go on */
	if (done + got > SIZE_MAX / 2)
		fold_die(1, "%s: too large to read from a pipe", name);
	if (done > 0) {
		unsigned char *m = xmalloc((size_t)(done + got) * 2);

		memcpy(m + done, *b, got);
		for (w = 0; w < done; w += (size_t)r)
			if ((r = pread(t, m + w, (size_t)done - w, (off_t)w)) <= 0)
				fold_die(1, "%s: cannot read back the copy: %s",
				    name, strerror(errno));
		free(*b);
		*b = m;
		*cap = (size_t)(done + got) * 2;
	}
	*n = (size_t)done + got;
	close(t);
	return -1;
}

int
fold_perfdata_file(struct fold_perfdata *d, struct fold_perf *p, int fd,
    const char *name, unsigned char *head, size_t nhead)
{
	struct stat sb;
	struct src sr;
	unsigned char *b = NULL;
	size_t cap = 0;
	uint64_t magic, hsize;
	int err = 0, tfd = -1;

	reset(d, 1);
	d->p = p;
	d->file = name;
	p->file = name;		/* for perf.c's messages */
	p->lineno = 0;
	d->status = 0;
	memcpy(&magic, head, 8);
	d->swap = magic != MAGIC2;
	d->writer_le = head[0] == 'P';
	if (nhead < 16)
		nhead += readn(fd, head + nhead, 16 - nhead, name, &err);
	if (nhead < 16)
		refuse(d, "perf.data header cut short");
	hsize = nhead < 16 ? 0 : r64(d, head + 8);
	memset(&sr, 0, sizeof(sr));
	sr.fd = fd;
	if (d->refused)
		;
	else if (hsize == 16)	/* pipe mode */
		stream(d, fd, head + 16, nhead - 16, 16, UINT64_MAX, 1, 0);
	else if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    lseek(fd, 0, SEEK_CUR) == (off_t)nhead) {
		sr.size = (uint64_t)sb.st_size;
		file_mode(d, &sr);
	} else {	/* file mode through a pipe: in memory, or a copy */
		size_t fsize = nhead, got;
		int tried = 0;

		cap = 1 << 20;
		b = xmalloc(cap);
		memcpy(b, head, nhead);
		while (!err) {
			if (fsize == cap) {
				if (cap >= SPOOL_AT && !tried) {
					tried = 1;
					if ((tfd = spool(fd, &b, &fsize, &cap, name,
					    &err)) >= 0)
						break;
				}
				if (fsize == cap)
					b = xrealloc(b, cap *= 2);
			}
			got = readn(fd, b + fsize, cap - fsize, name, &err);
			fsize += got;
			if (got == 0)
				break;
		}
		if (tfd >= 0) {
			sr.fd = tfd;
			sr.size = fstat(tfd, &sb) == 0 ?
			    (uint64_t)sb.st_size : 0;
		} else {
			sr.mem = b;
			sr.size = fsize;
		}
		file_mode(d, &sr);
		if (tfd >= 0)
			close(tfd);
	}
	flush(d, UINT64_MAX);
	if (d->nkp > 0 || d->kbusy)
		kresolve(d);
	progress(d, 1);
	if (d->samples == 0 && !d->refused &&
	    !(d->o.flags & FOLD_PERFDATA_QUIET))
		fold_warn("%s: no samples", name);
	if (d->unknown_id > 0 && !(d->o.flags & FOLD_PERFDATA_QUIET))
		fold_warn("%s: %llu samples of unknown events skipped", name,
		    (unsigned long long)d->unknown_id);
	if (d->bad > 1 && !(d->o.flags & FOLD_PERFDATA_QUIET))
		fold_warn("%s: %llu bad records", name,
		    (unsigned long long)d->bad);
	free(b);
	free(sr.tmp);
	if (err)
		d->status = 1;
	return d->refused ? 2 : d->status;
}

void
fold_perfdata_free(struct fold_perfdata *d)
{
	size_t i;

	reset(d, 0);
	free(d->attrs);
	free(d->threads);
	free(d->maps);
	free(d->fc);
	free(d->frames);
	free(d->sm);
	free(d->smkeys);
	free(d->kpip);
	free(d->kpjava);
	free(d->kfid);
	m_free(&d->kpend[0]);
	m_free(&d->kpend[1]);
	fold_intern_free(&d->raw);
	free(d->rawn);
	free(d->rkey);
	free(d->q);
	free(d->qtmp);
	for (i = 0; i < d->nchunks; i++)
		free(d->chunks[i].buf);
	free(d->chunks);
	fold_intern_free(&d->names);
	fold_intern_free(&d->comms);
	fold_unwind_cache_free(d->ucache);
	fold_symsrc_free(d->ss);
	free(d);
}

/* ---- any input ------------------------------------------------------------ */

int
fold_perf_run_any(struct fold_perf *p, const struct fold_perfdata_opts *o,
    int nfiles, char **files)
{
	static char *dash[] = { "-" };
	struct fold_perfdata *d = NULL;
	unsigned char head[16];
	int i, fd, err, r, refused = 0;
	size_t n;
	const char *name;

	if (nfiles <= 0) {
		nfiles = 1;
		files = dash;
	}
	for (i = 0; i < nfiles; i++) {
		err = 0;
		if ((fd = fold_open_arg(files[i], &name)) < 0) {
			p->status = 1;
			continue;
		}
		n = readn(fd, head, 8, name, &err);
		if (err)
			p->status = 1;
		if (fold_perfdata_magic(head, n)) {
			if (d == NULL)
				d = fold_perfdata_new(o);
			if ((r = fold_perfdata_file(d, p, fd, name, head, n)) != 0)
				p->status = 1;
			if (r == 2)
				refused = 1;
		} else
			fold_perf_run_fd(p, fd, name, (const char *)head, n);
		if (fd > 0)
			close(fd);
	}
	if (d != NULL)
		fold_perfdata_free(d);
	return refused;
}
