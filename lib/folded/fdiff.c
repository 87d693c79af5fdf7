/*
 * fdiff.c - two folded profiles merged into one differential profile
 * ("STACK BEFORE AFTER"), the engine of folddiff(1).
 *
 * Lines are read as difffolded.pl reads them: the count is the last
 * whitespace-separated word (digits, optionally '.' and digits) and the
 * stack is everything before the one whitespace character in front of it.
 * The output is the union of the stacks in byte order.
 *
 * Three ways to get there, by what the inputs allow:
 *  - both are regular files whose stacks are sorted: a merge of the two,
 *    nothing held in memory.  The order is checked by a first, quiet pass,
 *    or, when the output can be taken back (a regular file, /dev/null)
 *    and -n needs no totals first, during the merge itself: an input
 *    found unsorted takes the output back and the merge starts over;
 *  - one is a sorted regular file: the other's distinct stacks are held in
 *    a table, the sorted file is merged with them as it is read;
 *  - else the distinct stacks of both are held, sorted at the end.
 * Regular files are mapped (and unmapped behind the reader), so nothing
 * grows with the size of the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold.h"
#include "folded/folded.h"

#define UNMAP_STEP (8u << 20)	/* unmap what was read in steps of 8 MB */

/* One input: a mapped regular file, or a stream read with fold_in. */
struct src {
	const char *path;	/* as given */
	const char *name;	/* for messages */
	int fd;
	int mapped;
	char *map;		/* mmap base (page aligned), or NULL */
	size_t size;		/* bytes in the file */
	size_t pos;		/* next unread byte */
	size_t unmapped;	/* map[0..unmapped) given back */
	struct fold_in in;	/* when not mapped */
	int inopen;
	unsigned long long lineno;
	/* accounting */
	fold_num total;
	int frac;
	int quiet;		/* a checking pass: no messages */
	int nocount;		/* a checking pass that needs no counts */
	/* -s: the stripped key of the current and the pending line */
	char *kbuf[2];
	size_t kcap[2];
	int kcur;
};

static struct {
	int striphex, strict, normalize;
	uint64_t invalid;
	int first_err;
	char *first_file;
	unsigned long long first_line;
	int status;
	int overflow;
} D;

static inline int
isws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void
reject(struct src *s, int err)
{
	if (s->quiet)
		return;
	if (D.strict)
		fold_die(1, "%s:%llu: invalid line: %s", s->name, s->lineno,
		    fold_errstr(err));
	if (D.invalid++ == 0) {
		D.first_err = err;
		D.first_file = xstrdup(s->name);
		D.first_line = s->lineno;
	}
	if (err == FOLD_EOVERFLOW) {
		D.status = 1;
		if (!D.overflow)
			fold_warn("%s:%llu: %s; line skipped", s->name,
			    s->lineno, fold_errstr(err));
		D.overflow = 1;
	}
}

static void
src_open(struct src *s, const char *path)
{
	struct stat st;
	void *p;

	memset(s, 0, sizeof(*s));
	s->path = path;
	if ((s->fd = fold_open_arg(path, &s->name)) < 0) {
		D.status = 1;
		return;
	}
	/* A regular file read from its start (stdin may have been read
	 * from already: then it is read as a stream) is mapped. */
	if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= SIZE_MAX &&
	    lseek(s->fd, 0, SEEK_CUR) == 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		    s->fd, 0);
		if (p != MAP_FAILED) {
			s->mapped = 1;
			s->map = p;
			s->size = (size_t)st.st_size;
			posix_madvise(p, s->size, POSIX_MADV_SEQUENTIAL);
		}
	}
}

/* Read from the start again (mapped files only). */
static void
src_rewind(struct src *s)
{
	void *p;

	if (s->unmapped > 0) {
		/* only what is still mapped: the rest may be reused by now */
		munmap(s->map + s->unmapped, s->size - s->unmapped);
		p = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, s->fd, 0);
		if (p == MAP_FAILED)
			fold_die(1, "%s: %s", s->name, strerror(errno));
		s->map = p;
		posix_madvise(p, s->size, POSIX_MADV_SEQUENTIAL);
	}
	s->unmapped = 0;
	s->pos = 0;
	s->lineno = 0;
	s->total.i = 0;
	s->total.f = 0;
	s->frac = 0;
}

static void
src_close(struct src *s)
{
	if (s->mapped && s->map != NULL && s->size > s->unmapped)
		munmap(s->map + s->unmapped, s->size - s->unmapped);
	if (s->inopen) {
		s->in.fd = s->fd == 0 ? -1 : s->in.fd;	/* never close stdin */
		fold_in_free(&s->in);
	}
	if (s->fd > 0)
		close(s->fd);
	free(s->kbuf[0]);
	free(s->kbuf[1]);
	s->map = NULL;
	s->inopen = 0;
}

/* Give back the pages before keep (a line still needed starts there). */
static size_t pagesize;

static void
src_release(struct src *s, size_t keep)
{
	size_t upto, pg;

	if (pagesize == 0)
		pagesize = (size_t)sysconf(_SC_PAGESIZE);
	pg = pagesize;

	if (keep < s->unmapped + UNMAP_STEP)
		return;
	upto = keep / pg * pg;
	if (upto > s->unmapped) {
		munmap(s->map + s->unmapped, upto - s->unmapped);
		s->unmapped = upto;
	}
}

/* The length of the common prefix of a and b (n bytes at most). */
static inline size_t
lcp(const char *a, const char *b, size_t n)
{
	size_t k = 0;
	uint64_t x, y;

#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
	for (; k + 16 <= n; k += 16) {
		__m128i va = _mm_loadu_si128((const __m128i *)(const void *)(a + k));
		__m128i vb = _mm_loadu_si128((const __m128i *)(const void *)(b + k));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb));

		if (m != 0xffff)
			return k + (size_t)__builtin_ctz(~m & 0xffff);
	}
#endif
	for (; k + 8 <= n; k += 8) {
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y) {
#if (defined(__GNUC__) || defined(__clang__)) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return k + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
			break;
#endif
		}
	}
	while (k < n && a[k] == b[k])
		k++;
	return k;
}

/*
 * The next line; 0 at the end.  Mapped: valid until released.  prev (plen
 * bytes, no newline in them, may be NULL) is what the line likely starts
 * with: the bytes it shares with it are not searched for the newline, and
 * *same is set to how many there are.
 */
static int
src_line_after(struct src *s, const char **line, size_t *len,
    const char *prev, size_t plen, size_t *same)
{
	const char *p, *nl;
	size_t l = 0;

	if (s->mapped) {
		if (s->pos >= s->size)
			return 0;
		p = s->map + s->pos;
		if (prev != NULL)
			l = lcp(p, prev, plen < s->size - s->pos ? plen :
			    s->size - s->pos);
		*same = l;
		nl = memchr(p + l, '\n', s->size - s->pos - l);
		*line = p;
		if (nl == NULL) {
			*len = s->size - s->pos;
			s->pos = s->size;
		} else {
			*len = (size_t)(nl - p);
			s->pos += *len + 1;
		}
		s->lineno++;
		return 1;
	}
	if (s->fd < 0)
		return 0;
	if (!s->inopen) {
		/* fold_in over the descriptor already open */
		fold_in_init(&s->in, 1, (char **)&s->path);
		s->in.fd = s->fd;
		s->in.next = 1;
		s->in.name = s->name;
		s->in.newfile = 1;
		s->inopen = 1;
	}
	if (!fold_in_line(&s->in, line, len)) {
		if (s->in.status)
			D.status = 1;
		s->fd = -1;	/* fold_in closed it */
		return 0;
	}
	s->lineno = s->in.lineno;
	*same = 0;
	return 1;
}

static int
src_line(struct src *s, const char **line, size_t *len)
{
	size_t same;

	return src_line_after(s, line, len, NULL, 0, &same);
}

/* Replace each 0x[0-9a-fA-F]+ by "0x..." (difffolded.pl -s). */
static size_t
striphex(struct src *s, const char *k, size_t n, int b)
{
	size_t i = 0, o = 0, j;
	char *out;

	fold_grow(&s->kbuf[b], &s->kcap[b], n + 4, 1);
	out = s->kbuf[b];
	while (i < n) {
		if (k[i] == '0' && i + 2 < n && k[i + 1] == 'x') {
			for (j = i + 2; j < n && ((k[j] >= '0' && k[j] <= '9') ||
			    (k[j] >= 'a' && k[j] <= 'f') ||
			    (k[j] >= 'A' && k[j] <= 'F')); j++)
				;
			if (j > i + 2) {
				/* "0x..." is 5 bytes: never longer than the
				 * 3 or more it replaces plus 2 */
				fold_grow(&s->kbuf[b], &s->kcap[b],
				    o + 5 + (n - j) + 4, 1);
				out = s->kbuf[b];
				memcpy(out + o, "0x...", 5);
				o += 5;
				i = j;
				continue;
			}
		}
		out[o++] = k[i++];
	}
	return o;
}

/*
 * Parse a line: its stack (key; with -s into the key buffer b) and count.
 * FOLD_OK, FOLD_BLANK, or an error (reported here unless quiet).
 */
static int
src_parse(struct src *s, const char *line, size_t len, const char **key,
    size_t *klen, fold_num *c, int b)
{
	size_t k, end = len;
	int err;

	while (end > 0 && isws((unsigned char)line[end - 1]))
		end--;
	if (end == 0)
		return FOLD_BLANK;
	for (k = end; k > 0 && !isws((unsigned char)line[k - 1]); k--)
		;
	if (s->nocount) {
		/* Only the order is checked: any line with a word after a
		 * blank takes part (more lines than are valid: still sorted
		 * if the valid ones are, or the check is only too careful). */
		if (k == 0)
			return FOLD_ECOUNT;
		c->i = 0;
		c->f = 0;
		*klen = k - 1;
		*key = line;
		if (D.striphex && memchr(line, 'x', *klen) != NULL) {
			*klen = striphex(s, line, *klen, b);
			*key = s->kbuf[b];
		}
		return FOLD_OK;
	}
	if (end - k <= 19) {	/* a plain integer, the usual case */
		uint64_t v = 0;
		size_t j;

		for (j = k; j < end && line[j] >= '0' && line[j] <= '9'; j++)
			v = v * 10 + (uint64_t)(line[j] - '0');
		if (j == end && j > k) {
			c->i = v;
			c->f = 0;
			err = FOLD_OK;
			goto parsed;
		}
	}
	err = fold_num_parse(line + k, end - k, c);
parsed:
	if (err == FOLD_OK && k == 0)
		err = FOLD_EEMPTY;
	if (err == FOLD_OK) {
		fold_num t = s->total;

		if (fold_num_add(&t, *c) < 0)
			err = FOLD_EOVERFLOW;
		else
			s->total = t;
	}
	if (err != FOLD_OK) {
		reject(s, err);
		return err;
	}
	if (c->f != 0 || memchr(line + k, '.', end - k) != NULL)
		s->frac = 1;
	*klen = k - 1;	/* the whitespace before the count is not kept */
	*key = line;
	if (D.striphex && memchr(line, 'x', *klen) != NULL) {
		*klen = striphex(s, line, *klen, b);
		*key = s->kbuf[b];
	}
	return FOLD_OK;
}

/*
 * A cursor over the distinct stacks of a sorted file: each key once, with
 * the sum of its lines' counts.  The pending line (read ahead to see
 * whether it repeats the key) is kept in buffer 1 - kcur.
 */
struct cur {
	struct src *s;
	int have;		/* a key is ready */
	const char *key;
	size_t klen;
	fold_num cnt;
	size_t start;		/* where the key's line starts (mapped) */
	int pend;		/* a pending line */
	const char *pkey;
	size_t pklen;
	fold_num pcnt;
	size_t pstart;
	int sorted;		/* 0 once a key was smaller than the one before */
	int pcmp;		/* the pending key against the current one */
	size_t plcp;		/* their common prefix (exact when raw) */
	size_t klcp;		/* the key's common prefix with the key before */
};

/*
 * Read the next valid line as the pending key, and compare it with the
 * current key (u->have) into u->pcmp: lines of a sorted file share their
 * first bytes with the one before, which are compared once and not
 * searched for the newline.
 */
static int
cur_read(struct cur *u, int b)
{
	const char *line;
	size_t len, same;
	int raw = !D.striphex && u->have;

	while (src_line_after(u->s, &line, &len, raw ? u->key : NULL,
	    raw ? u->klen : 0, &same)) {
		u->pstart = (size_t)(line - u->s->map);
		if (src_parse(u->s, line, len, &u->pkey, &u->pklen, &u->pcnt,
		    b) != FOLD_OK)
			continue;
		if (!u->have)
			return 1;
		if (!raw) {
			u->pcmp = fold_strcmp((struct fold_str){ u->pkey,
			    u->pklen }, (struct fold_str){ u->key, u->klen });
			u->plcp = 0;
			return 1;
		}
		/* the keys share min(same, pklen) bytes */
		if (same > u->pklen)
			same = u->pklen;
		u->plcp = same;
		if (same < u->pklen && same < u->klen)
			u->pcmp = (unsigned char)u->pkey[same] <
			    (unsigned char)u->key[same] ? -1 : 1;
		else
			u->pcmp = (u->pklen > u->klen) - (u->pklen < u->klen);
		return 1;
	}
	return 0;
}

/* Advance to the next distinct key; 0 at the end. */
static int
cur_next(struct cur *u)
{
	int b;

	if (!u->pend) {
		u->have = 0;
		return 0;
	}
	/* the pending line becomes the current key */
	b = u->s->kcur;
	u->klcp = u->have ? u->plcp : 0;
	u->key = u->pkey;
	u->klen = u->pklen;
	u->cnt = u->pcnt;
	u->start = u->pstart;
	u->have = 1;
	u->s->kcur = 1 - b;
	for (;;) {
		u->pend = cur_read(u, u->s->kcur);
		if (!u->pend)
			break;
		if (u->pcmp != 0) {
			if (u->pcmp < 0)
				u->sorted = 0;
			break;
		}
		u->cnt.i += u->pcnt.i;	/* <= the file's total: no wrap */
		u->cnt.f += u->pcnt.f;
	}
	if (u->s->mapped)
		src_release(u->s, u->start);
	return 1;
}

static void
cur_init(struct cur *u, struct src *s)
{
	memset(u, 0, sizeof(*u));
	u->s = s;
	u->sorted = 1;
	s->kcur = 0;
	u->pend = cur_read(u, 0);
	cur_next(u);
}

/* Is the file sorted by stack?  Also sums its counts.  A quiet pass. */
static int
src_sorted(struct src *s)
{
	struct cur u;
	int sorted;

	s->quiet = 1;
	s->nocount = !D.normalize;
	cur_init(&u, s);
	while (u.have && u.sorted)
		cur_next(&u);
	sorted = u.sorted;
	s->quiet = 0;
	s->nocount = 0;
	return sorted;
}

/* ---- output ---------------------------------------------------------- */

static struct {
	int normalize, frac, scale;
	fold_num t1, t2;
} O;

/* A count as text into buf (>= 48 bytes); its length. */
static size_t
fmt_count(char *buf, fold_num n)
{
	if (n.f == 0)
		return fold_fmt_u64(buf, n.i);
	/* Perl prints numbers with 15 significant digits. */
	return (size_t)snprintf(buf, 48, "%.15g", fold_num_dbl(n));
}

/* floor(a * b / c) for a <= c, exactly (the result fits: it is <= b). */
static uint64_t
muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;

	return (uint64_t)((u128)a * b / c);
#else
	uint64_t hi, lo, q = 0, r = 0, a0 = a & 0xffffffff, a1 = a >> 32,
	    b0 = b & 0xffffffff, b1 = b >> 32, m1, m2, t;
	int i;

	lo = a0 * b0;
	m1 = a1 * b0;
	m2 = a0 * b1;
	hi = a1 * b1;
	t = (lo >> 32) + (m1 & 0xffffffff) + (m2 & 0xffffffff);
	lo = (lo & 0xffffffff) | (t << 32);
	hi += (m1 >> 32) + (m2 >> 32) + (t >> 32);
	for (i = 127; i >= 0; i--) {
		int top = (r >> 63) != 0;

		r = (r << 1) | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
#endif
}

static fold_num
scale(fold_num c1)
{
	fold_num r = { 0, 0 };
	double d;

	if (!O.scale)
		return c1;
	if (O.frac) {
		/* as Perl: int($c1 * $total2 / $total1) in doubles */
		d = fold_num_dbl(c1) * fold_num_dbl(O.t2) / fold_num_dbl(O.t1);
		r.i = d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
		return r;
	}
	r.i = muldiv(c1.i, O.t2.i, O.t1.i);
	return r;
}

static void
put_line(const char *key, size_t klen, fold_num c1, fold_num c2)
{
	char buf[100];
	size_t n = 0;

	fo_write(key, klen);
	buf[n++] = ' ';
	n += fmt_count(buf + n, scale(c1));
	buf[n++] = ' ';
	n += fmt_count(buf + n, c2);
	buf[n++] = '\n';
	fo_write(buf, n);
}

/* Decide on -n scaling once both totals are known. */
static void
set_totals(fold_num t1, fold_num t2, int frac)
{
	O.t1 = t1;
	O.t2 = t2;
	O.frac = frac;
	if (!O.normalize)
		return;
	if (frac)
		O.scale = fold_num_dbl(t1) != fold_num_dbl(t2) &&
		    fold_num_dbl(t1) != 0;
	else
		O.scale = t1.i != t2.i && t1.i != 0;
	if (fold_num_dbl(t1) == 0 && fold_num_dbl(t2) != 0)
		fold_warn("-n: %s has no samples: its counts are left at 0",
		    "BEFORE");
}

/* ---- held stacks ------------------------------------------------------ */

static struct fold_intern tab;
static fold_num *cnt[2];
static size_t cntcap[2];

static void
hold(struct src *s, int col)
{
	const char *line, *key;
	size_t len, klen;
	fold_num c;
	uint32_t id;

	while (src_line(s, &line, &len)) {
		if (src_parse(s, line, len, &key, &klen, &c, 0) != FOLD_OK)
			continue;
		id = fold_intern(&tab, key, klen, NULL);
		fold_grow(&cnt[0], &cntcap[0], (size_t)id + 1, sizeof(fold_num));
		fold_grow(&cnt[1], &cntcap[1], (size_t)id + 1, sizeof(fold_num));
		cnt[col][id].i += c.i;	/* <= the file's total: no wrap */
		cnt[col][id].f += c.f;
		if (s->mapped)
			src_release(s, s->pos);
	}
}

static int
idcmp(const void *a, const void *b)
{
	return fold_strcmp(fold_intern_str(&tab, *(const uint32_t *)a),
	    fold_intern_str(&tab, *(const uint32_t *)b));
}

/* The held ids in byte order of their stacks. */
static uint32_t *
held_sorted(size_t *n)
{
	uint32_t *ids;
	size_t k;
	int sorted = 1;

	*n = fold_intern_count(&tab);
	ids = xmalloc((*n + 1) * sizeof(*ids));
	for (k = 0; k < *n; k++) {
		ids[k] = (uint32_t)k;
		if (k > 0 && sorted && fold_strcmp(fold_intern_str(&tab,
		    (uint32_t)k - 1), fold_intern_str(&tab, (uint32_t)k)) > 0)
			sorted = 0;
	}
	if (!sorted)
		qsort(ids, *n, sizeof(*ids), idcmp);
	return ids;
}

/* ---- the three ways --------------------------------------------------- */

/* The merge; with check, it stops (0) at a key smaller than the one
 * before it in its file. */
static int
merge_files(struct src *a, struct src *b, int check)
{
	struct cur u, v;
	fold_num zero = { 0, 0 };
	int c;
	/*
	 * Both are sorted: hu and hv are the bytes each key shares with the
	 * key written last.  The key sharing more with it is the smaller;
	 * only on a tie are bytes compared, from there on (without -s, when
	 * the cursors know their keys' common prefixes exactly).
	 */
	size_t hu = 0, hv = 0, l = 0, n;
	int exact = !D.striphex;

	cur_init(&u, a);
	cur_init(&v, b);
	while (u.have || v.have) {
		if (check && !(u.sorted && v.sorted))
			return 0;
		l = 0;
		if (!u.have)
			c = 1;
		else if (!v.have)
			c = -1;
		else if (!exact)
			c = fold_strcmp((struct fold_str){ u.key, u.klen },
			    (struct fold_str){ v.key, v.klen });
		else if (hu != hv) {
			c = hu > hv ? -1 : 1;
			l = hu < hv ? hu : hv;
		} else {
			n = u.klen < v.klen ? u.klen : v.klen;
			l = hu + lcp(u.key + hu, v.key + hu, n - hu);
			if (l < n)
				c = (unsigned char)u.key[l] <
				    (unsigned char)v.key[l] ? -1 : 1;
			else
				c = (u.klen > v.klen) - (u.klen < v.klen);
		}
		if (c < 0) {
			put_line(u.key, u.klen, u.cnt, zero);
			cur_next(&u);
			hu = u.klcp;
			hv = l;
		} else if (c > 0) {
			put_line(v.key, v.klen, zero, v.cnt);
			cur_next(&v);
			hv = v.klcp;
			hu = l;
		} else {
			put_line(u.key, u.klen, u.cnt, v.cnt);
			cur_next(&u);
			cur_next(&v);
			hu = u.klcp;
			hv = v.klcp;
		}
	}
	return !check || (u.sorted && v.sorted);
}

/* The held stacks (column 1 - col) merged with sorted file s (column col). */
static void
merge_held(struct src *s, int col)
{
	struct cur u;
	uint32_t *ids;
	size_t n, k = 0;
	fold_num zero = { 0, 0 }, c2[2];
	int c;

	ids = held_sorted(&n);
	cur_init(&u, s);
	while (u.have || k < n) {
		struct fold_str h = k < n ? fold_intern_str(&tab, ids[k]) :
		    (struct fold_str){ NULL, 0 };

		if (!u.have)
			c = 1;
		else if (k >= n)
			c = -1;
		else
			c = fold_strcmp((struct fold_str){ u.key, u.klen }, h);
		if (c < 0) {
			c2[col] = u.cnt;
			c2[1 - col] = zero;
			put_line(u.key, u.klen, c2[0], c2[1]);
			cur_next(&u);
		} else if (c > 0) {
			c2[col] = zero;
			c2[1 - col] = cnt[1 - col][ids[k]];
			put_line(h.s, h.len, c2[0], c2[1]);
			k++;
		} else {
			c2[col] = u.cnt;
			c2[1 - col] = cnt[1 - col][ids[k]];
			put_line(h.s, h.len, c2[0], c2[1]);
			k++;
			cur_next(&u);
		}
	}
	free(ids);
}

static void
print_held(void)
{
	uint32_t *ids;
	size_t n, k;

	ids = held_sorted(&n);
	for (k = 0; k < n; k++) {
		struct fold_str h = fold_intern_str(&tab, ids[k]);

		put_line(h.s, h.len, cnt[0][ids[k]], cnt[1][ids[k]]);
	}
	free(ids);
}

int
fold_diff_run(const char *before, const char *after,
    const struct fold_diff_opts *o)
{
	struct src s[2];
	int sorted[2] = { 0, 0 }, fr[2] = { 0, 0 }, big, k;
	fold_num t[2] = { { 0, 0 }, { 0, 0 } };
	int64_t ostart;

	memset(&D, 0, sizeof(D));
	memset(&O, 0, sizeof(O));
	D.striphex = o->striphex;
	D.strict = o->strict;
	O.normalize = o->normalize;
	D.normalize = o->normalize;
	src_open(&s[0], before);
	src_open(&s[1], after);
	if (D.status) {
		src_close(&s[0]);
		src_close(&s[1]);
		return 1;
	}
	fold_intern_init(&tab);
	/*
	 * Two mapped files, no -n, and output that can be taken back: merge
	 * at once, as if both were sorted; if one is not, take the output
	 * back and start over below.
	 */
	if (s[0].mapped && s[1].mapped && !O.normalize && fo_seekable(&ostart)) {
		int st0 = D.status;

		set_totals(t[0], t[1], 0);
		if (merge_files(&s[0], &s[1], 1))
			goto done;
		fo_rewind(ostart);
		D.invalid = 0;
		free(D.first_file);
		D.first_file = NULL;
		D.status = st0;
		src_rewind(&s[0]);
		src_rewind(&s[1]);
	}
	/* A quiet first pass over each mapped file: sorted?  If so, it also
	 * gave the file's total (for -n). */
	for (k = 0; k < 2; k++)
		if (s[k].mapped) {
			sorted[k] = src_sorted(&s[k]);
			t[k] = s[k].total;
			fr[k] = s[k].frac;
			src_rewind(&s[k]);
		}
	if (sorted[0] && sorted[1]) {
		set_totals(t[0], t[1], fr[0] | fr[1]);
		merge_files(&s[0], &s[1], 0);
	} else if (sorted[0] || sorted[1]) {
		/* hold the other one, stream the sorted one */
		big = sorted[1];
		hold(&s[1 - big], 1 - big);
		t[1 - big] = s[1 - big].total;
		fr[1 - big] = s[1 - big].frac;
		set_totals(t[0], t[1], fr[0] | fr[1]);
		merge_held(&s[big], big);
	} else {
		hold(&s[0], 0);
		hold(&s[1], 1);
		set_totals(s[0].total, s[1].total, s[0].frac | s[1].frac);
		print_held();
	}
done:
	if (D.invalid > 0)
		fold_warn("%s:%llu: %s (%llu invalid line%s skipped)",
		    D.first_file, D.first_line, fold_errstr(D.first_err),
		    (unsigned long long)D.invalid, D.invalid == 1 ? "" : "s");
	free(D.first_file);
	src_close(&s[0]);
	src_close(&s[1]);
	free(cnt[0]);
	free(cnt[1]);
	fold_intern_free(&tab);
	return D.status;
}
