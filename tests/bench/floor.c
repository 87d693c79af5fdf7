/*
 * floor - the least work any tool does on a folded file, for `make bench`
 * to print beside the tools: how much of a tool's time is reading and
 * splitting, which no tool can avoid, and how much is its own.
 *
 *	floor lines   FILE	read(2) 256 KiB at a time, find each line end
 *	floor frames  FILE	and each frame of each line, hashed (fold_hash)
 *	floor intern  FILE	and each frame interned (fold_intern_h), every
 *				frame of every line: the work of a tool that
 *				needs an id for each frame and cannot use the
 *				line before (shuffled input)
 *	floor new     FILE	the frames a line does not share with the line
 *				before interned, the shared ones skipped (the
 *				least work of a tool that needs their ids, on
 *				sorted input)
 *	floor sample  FILE [OUT]
 *				a macOS sample(1) report in two halves, a
 *				thread each (pread(2) 256 KiB at a time):
 *				each tree line's frame text (after the
 *				count) hashed whole, and the name of a text
 *				whose hash was not among the last 16k seen
 *				(the text up to its first "  (") interned,
 *				and the half's names sorted (output is in
 *				byte order: the names' order at least must
 *				be known).  Less than any collapser does: a
 *				hash met again is taken as the same text,
 *				unchecked, and no tree is built.  With OUT,
 *				OUT bytes written to stdout besides (the
 *				size of a collapser's output), each half
 *				its half: the names, ';' after each, in
 *				turn, copied into a 256 KiB buffer (and
 *				the counts not printed)
 *	floor records FILE	a file-mode perf.data: its data section
 *				mapped (no read-ahead) and each record's
 *				header read, as any reader must to find the
 *				samples (for --call-graph dwarf captures, one
 *				page a sample at least)
 *	floor ustack  FILE	and each record's last 8 bytes too: the
 *				dyn_size of a --call-graph dwarf sample's
 *				stack copy (STACK_USER last in the sample),
 *				which any unwinder must read to know what of
 *				the copy is valid: a second page a sample
 *	floor walk HOW K FILE	each sample's header, dyn_size word and the
 *				first K bytes of its stack copy (a word each
 *				64 bytes: the part an unwinder walks; 2-3
 *				KiB for Rust stacks), the file read as HOW:
 *				  random   mapped, POSIX_MADV_RANDOM
 *				  map      mapped, the kernel's fault-around
 *				  populate mapped, each 16 MiB window filled
 *				           in one madvise(MADV_POPULATE_READ)
 *				           (Linux 5.14) before it is read
 *				  read     read(2) 1 MiB at a time into one
 *				           reused buffer (every byte copied)
 *				  pread    pread(2) of each record's head and
 *				           the K bytes of its stack (the rest
 *				           of the copy never leaves the kernel)
 *				  map2     mapped, two threads: each reads
 *				           every record's size and the rest of
 *				           every other record, nothing unmapped
 *				           (the floor of a reader that takes
 *				           a second processor, as ours does)
 *				mapped ones but map2 unmapped behind every
 *				16 MiB, as stackcollapse-perf does
 *
 * Prints the counts (lines, frames, distinct names) so that the work done
 * is seen to be the tools' work.  Exit 0, or 1 on a read error.
 */
#define _DEFAULT_SOURCE 1	/* madvise(MADV_POPULATE_READ), where there is one */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"
#include "folded/folded.h"
#include "report/report.h"

#define BUFSZ (256 * 1024)

enum { LINES, FRAMES, INTERN, NEW };

/* floor records|ustack FILE: the record headers of a (little-endian)
 * perf.data, and with tail each record's last 8 bytes. */
static int
records(const char *path, int tail)
{
	struct stat sb;
	const unsigned char *m;
	uint64_t off, end, n = 0, sum = 0;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0 ||
	    sb.st_size < 104) {
		perror(path);
		return 1;
	}
	m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		perror(path);
		return 1;
	}
	posix_madvise((void *)m, (size_t)sb.st_size, POSIX_MADV_RANDOM);
	off = fold_getu(m + 40, 8, 0);
	end = off + fold_getu(m + 48, 8, 0);
	if (end > (uint64_t)sb.st_size)
		end = (uint64_t)sb.st_size;
	while (off + 8 <= end) {
		uint32_t sz = (uint32_t)fold_getu(m + off + 6, 2, 0);

		sum += fold_getu(m + off, 4, 0);
		n++;
		if (sz < 8)
			break;
		if (tail && sz >= 16 && off + sz <= end)
			sum += fold_getu(m + off + sz - 8, 8, 0);
		off += sz;
	}
	printf("%llu records (%llu)\n", (unsigned long long)n,
	    (unsigned long long)sum);
	return 0;
}

/* floor sample: one half of the report, [from, to). */
struct rhalf {
	int fd;
	off_t from, to;
	unsigned long long lines, texts, named, out;
	size_t names;
	int err;
};

#define RECENT (1u << 14)

static void *
sample_half(void *arg)
{
	struct rhalf *h = arg;
	struct fold_intern t;
	uint64_t *recent = xcalloc(RECENT, sizeof(*recent)), hv;
	uint32_t *ids;
	char *buf = xmalloc(BUFSZ), *p, *e, *nl, *q, *x;
	size_t have = 0, want, len;
	off_t at = h->from;
	ssize_t got;

	fold_intern_init(&t);
	while (at < h->to) {
		if (have == BUFSZ) {	/* a line longer than the buffer */
			h->err = 1;
			break;
		}
		want = BUFSZ - have;
		if ((off_t)want > h->to - at)
			want = (size_t)(h->to - at);
		if ((got = pread(h->fd, buf + have, want, at)) <= 0) {
			h->err = 1;
			break;
		}
		at += got;
		have += (size_t)got;
		for (p = buf, e = buf + have;
		    (nl = memchr(p, '\n', (size_t)(e - p))) != NULL; p = nl + 1) {
			h->lines++;
			for (q = p; q < nl && (*q == ' ' || *q == '+' ||
			    *q == '!' || *q == ':' || *q == '|'); q++)
				;
			if (q == p || q == nl || *q < '0' || *q > '9')
				continue;
			while (q < nl && *q >= '0' && *q <= '9')
				q++;
			q += q < nl;
			h->texts++;
			hv = fold_hash(q, (size_t)(nl - q));
			if (recent[hv % RECENT] == hv)
				continue;
			recent[hv % RECENT] = hv;
			for (len = (size_t)(nl - q), x = q; (x = memchr(x, '(',
			    (size_t)(nl - x))) != NULL; x++)
				if (x - q >= 2 && x[-1] == ' ' && x[-2] == ' ') {
					len = (size_t)(x - 2 - q);
					break;
				}
			fold_intern(&t, q, len, NULL);
			h->named++;
		}
		have = (size_t)(e - p);
		memmove(buf, p, have);
	}
	h->names = fold_intern_count(&t);
	ids = xmalloc((h->names + 1) * sizeof(*ids));
	for (len = 0; len < h->names; len++)
		ids[len] = (uint32_t)len;
	fold_sort_names(ids, h->names, &t);
	for (have = 0, len = 0; h->out > 0 && h->names > 0 && !h->err;) {
		struct fold_str nm = t.strs[ids[len++ % h->names]];
		size_t k = nm.len + 1 < h->out ? nm.len + 1 : (size_t)h->out;

		if (have + k > BUFSZ) {
			if (write(1, buf, have) != (ssize_t)have)
				h->err = 1;
			have = 0;
		}
		memcpy(buf + have, nm.s, k - 1);
		buf[have + k - 1] = ';';
		have += k;
		h->out -= k;
	}
	if (have > 0 && write(1, buf, have) != (ssize_t)have)
		h->err = 1;
	fold_intern_free(&t);
	free(ids);
	free(recent);
	free(buf);
	return NULL;
}

static int
sample(const char *path, unsigned long long out)
{
	struct rhalf h[2];
	struct stat sb;
	pthread_t th;
	off_t mid;
	char c;
	int fd, i;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0) {
		perror(path);
		return 1;
	}
	for (mid = sb.st_size / 2; mid < sb.st_size &&
	    pread(fd, &c, 1, mid) == 1 && c != '\n'; mid++)
		;
	if (mid < sb.st_size)
		mid++;
	for (i = 0; i < 2; i++) {
		memset(&h[i], 0, sizeof(h[i]));
		h[i].fd = fd;
		h[i].from = i == 0 ? 0 : mid;
		h[i].to = i == 0 ? mid : sb.st_size;
		h[i].out = i == 0 ? out / 2 : out - out / 2;
	}
	if (pthread_create(&th, NULL, sample_half, &h[1]) != 0) {
		perror("pthread_create");
		return 1;
	}
	sample_half(&h[0]);
	pthread_join(th, NULL);
	if (h[0].err || h[1].err) {
		fprintf(stderr, "floor: %s: a read or write failed, or a line "
		    "is over 256 KiB\n", path);
		return 1;
	}
	if (out == 0)	/* (else stdout is the output's) */
		printf("%llu lines, %llu frame texts, %llu names looked "
		    "up, %zu + %zu names\n", h[0].lines + h[1].lines,
		    h[0].texts + h[1].texts, h[0].named + h[1].named,
		    h[0].names, h[1].names);
	return 0;
}

/*
 * floor walk: the part of a perf.data (little-endian, one event) an
 * unwinder reads, by each way of reading a file.  The stack copy is taken
 * to be the attr's sample_stack_user bytes before the record's last word.
 */
#define WIN (16u << 20)
enum { W_RANDOM, W_MAP, W_POPULATE, W_READ, W_PREAD, W_MAP2 };

static uint64_t
touch(const unsigned char *r, size_t sz, uint64_t ss, uint64_t k)
{
	uint64_t sum = fold_getu(r, 4, 0), i;

	if (sz >= ss + 24) {
		const unsigned char *st = r + sz - 8 - ss;

		sum += fold_getu(r + sz - 8, 8, 0);
		for (i = 0; i + 8 <= k && i + 8 <= ss; i += 64)
			sum += fold_getu(st + i, 8, 0);
	}
	return sum;
}

/* map2: one of the two threads, records of parity half. */
struct half {
	const unsigned char *m;
	uint64_t off, end, ss, k, sum, n;
	int half;
};

static void *
walk_half(void *arg)
{
	struct half *h = arg;
	uint64_t off = h->off, i = 0;
	size_t sz;

	while (off + 8 <= h->end) {
		sz = (size_t)fold_getu(h->m + off + 6, 2, 0);
		if (sz < 8 || off + sz > h->end)
			break;
		if ((i++ & 1) == (uint64_t)h->half) {
			h->sum += touch(h->m + off, sz, h->ss, h->k);
			h->n++;
		}
		off += sz;
	}
	return NULL;
}

static int
walk(const char *how, uint64_t k, const char *path)
{
	unsigned char hb[104], ab[96], *buf;
	uint64_t off, end, ss, n = 0, sum = 0, rel = 0, pop;
	const unsigned char *m = NULL;
	struct stat sb;
	size_t cap = 1u << 20, have = 0, pos = 0, sz;
	ssize_t got;
	int fd, w;

	if (strcmp(how, "random") == 0)
		w = W_RANDOM;
	else if (strcmp(how, "map") == 0)
		w = W_MAP;
	else if (strcmp(how, "populate") == 0)
		w = W_POPULATE;
	else if (strcmp(how, "read") == 0)
		w = W_READ;
	else if (strcmp(how, "pread") == 0)
		w = W_PREAD;
	else if (strcmp(how, "map2") == 0)
		w = W_MAP2;
	else
		return 2;
	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0 ||
	    pread(fd, hb, 104, 0) != 104 ||
	    pread(fd, ab, 96, (off_t)fold_getu(hb + 24, 8, 0)) != 96) {
		perror(path);
		return 1;
	}
	ss = fold_getu(ab + 88, 4, 0);
	off = fold_getu(hb + 40, 8, 0);
	end = off + fold_getu(hb + 48, 8, 0);
	if (end > (uint64_t)sb.st_size)
		end = (uint64_t)sb.st_size;
	pop = off - off % 4096;
	if (w == W_MAP2) {
		struct half h[2];
		pthread_t t;
		int i;

		m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			perror(path);
			return 1;
		}
		for (i = 0; i < 2; i++) {
			h[i].m = m;
			h[i].off = off;
			h[i].end = end;
			h[i].ss = ss;
			h[i].k = k;
			h[i].sum = h[i].n = 0;
			h[i].half = i;
		}
		if (pthread_create(&t, NULL, walk_half, &h[1]) != 0) {
			perror("pthread_create");
			return 1;
		}
		walk_half(&h[0]);
		pthread_join(t, NULL);
		n = h[0].n + h[1].n;
		sum = h[0].sum + h[1].sum;
	} else if (w <= W_POPULATE) {
		m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			perror(path);
			return 1;
		}
		if (w == W_RANDOM)
			posix_madvise((void *)m, (size_t)sb.st_size,
			    POSIX_MADV_RANDOM);
		while (off + 8 <= end) {
			if (w == W_POPULATE && off + WIN > pop &&
			    pop < (uint64_t)sb.st_size) {
				uint64_t b = pop + WIN > (uint64_t)sb.st_size ?
				    (uint64_t)sb.st_size : pop + WIN;

#ifdef MADV_POPULATE_READ
				madvise((void *)(m + pop), (size_t)(b - pop),
				    MADV_POPULATE_READ);
#endif
				pop = b;
			}
			sz = (size_t)fold_getu(m + off + 6, 2, 0);
			if (sz < 8 || off + sz > end)
				break;
			sum += touch(m + off, sz, ss, k);
			n++;
			off += sz;
			if (off - rel >= WIN) {
				uint64_t low = off - off % 4096;

				munmap((void *)(m + rel), (size_t)(low - rel));
				rel = low;
			}
		}
	} else if (w == W_READ) {
		if (posix_memalign((void **)&buf, 4096, cap) != 0 ||
		    lseek(fd, (off_t)off, SEEK_SET) < 0)
			return 1;
		for (;;) {
			while (have - pos >= 8) {
				sz = (size_t)fold_getu(buf + pos + 6, 2, 0);
				if (sz < 8 || sz > have - pos)
					break;
				sum += touch(buf + pos, sz, ss, k);
				n++;
				pos += sz;
			}
			memmove(buf, buf + pos, have - pos);
			have -= pos;
			pos = 0;
			if (off >= end || (got = read(fd, buf + have,
			    (size_t)(end - off < cap - have ? end - off :
			    cap - have))) <= 0)
				break;
			off += (uint64_t)got;
			have += (size_t)got;
		}
		free(buf);
	} else {		/* W_PREAD: head and walked part of each */
		size_t head = 1024, want = head + (size_t)k + 8;

		buf = xmalloc(want + 16);
		while (off + 8 <= end) {
			size_t len = end - off < want ? (size_t)(end - off) : want;

			if (pread(fd, buf, len, (off_t)off) != (ssize_t)len)
				break;
			sz = (size_t)fold_getu(buf + 6, 2, 0);
			if (sz < 8 || off + sz > end)
				break;
			sum += fold_getu(buf, 4, 0);
			if (sz >= ss + 24) {
				size_t st = sz - 8 - (size_t)ss, i;
				unsigned char t[8];

				if (st + k > len) {	/* the stack past it */
					if (pread(fd, buf, (size_t)k, (off_t)(off +
					    st)) != (ssize_t)k)
						break;
					st = 0;
				}
				for (i = 0; i + 8 <= k; i += 64)
					sum += fold_getu(buf + st + i, 8, 0);
				if (pread(fd, t, 8, (off_t)(off + sz - 8)) != 8)
					break;
				sum += fold_getu(t, 8, 0);
			}
			n++;
			off += sz;
		}
		free(buf);
	}
	printf("%llu records (%llu)\n", (unsigned long long)n,
	    (unsigned long long)sum);
	return 0;
}

int
main(int argc, char **argv)
{
	struct fold_intern t;
	char *buf, *p, *e, *nl, *semi, *prev = NULL;
	const char *pv = "";
	size_t have = 0, cap = BUFSZ, len, f, fl, prevlen = 0, prevcap = 0, l;
	unsigned long long lines = 0, frames = 0, looked = 0;
	uint64_t h, mixsum = 0;
	ssize_t got;
	int fd, mode;

	if (argc == 5 && strcmp(argv[1], "walk") == 0 &&
	    (mode = walk(argv[2], strtoull(argv[3], NULL, 10), argv[4])) != 2)
		return mode;
	if (argc == 4 && strcmp(argv[1], "sample") == 0)
		return sample(argv[2], strtoull(argv[3], NULL, 10));
	if (argc != 3)
		goto usage;
	if (strcmp(argv[1], "records") == 0)
		return records(argv[2], 0);
	if (strcmp(argv[1], "ustack") == 0)
		return records(argv[2], 1);
	if (strcmp(argv[1], "sample") == 0)
		return sample(argv[2], 0);
	if (strcmp(argv[1], "lines") == 0)
		mode = LINES;
	else if (strcmp(argv[1], "frames") == 0)
		mode = FRAMES;
	else if (strcmp(argv[1], "intern") == 0)
		mode = INTERN;
	else if (strcmp(argv[1], "new") == 0)
		mode = NEW;
	else
		goto usage;
	if ((fd = open(argv[2], O_RDONLY)) < 0) {
		perror(argv[2]);
		return 1;
	}
	fold_intern_init(&t);
	buf = xmalloc(cap);
	for (;;) {
		if (have == cap) {	/* a line longer than the buffer */
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		if ((got = read(fd, buf + have, cap - have)) < 0) {
			perror(argv[2]);
			return 1;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		for (p = buf, e = buf + have;
		    (nl = memchr(p, '\n', (size_t)(e - p))) != NULL; p = nl + 1) {
			lines++;
			if (mode == LINES)
				continue;
			/* the stack: up to the last blank */
			for (len = (size_t)(nl - p); len > 0 && p[len - 1] != ' ';
			    len--)
				;
			len -= len > 0;
			f = 0;
			if (mode == NEW) {
				/* frames shared with the line before: skipped */
				l = fold_common_prefix(p, pv, len < prevlen ?
				    len : prevlen);
				if (l == len && l == prevlen)
					f = len + 1;
				else {
					while (l > 0 && p[l - 1] != ';')
						l--;
					f = l;
				}
				pv = p;		/* copied only when the buffer moves */
				prevlen = len;
			}
			while (f <= len) {
				semi = memchr(p + f, ';', len - f);
				fl = (semi != NULL ? (size_t)(semi - p) : len) - f;
				h = fold_hash(p + f, fl);
				frames++;
				if (mode == FRAMES)
					mixsum += h;
				else {
					fold_intern_h(&t, p + f, fl, h, NULL);
					looked++;
				}
				f += fl + 1;
			}
		}
		if (mode == NEW && prevlen > 0) {
			if (pv != prev) {
				fold_grow(&prev, &prevcap, prevlen, 1);
				memcpy(prev, pv, prevlen);
			}
			pv = prev;
		}
		have = (size_t)(e - p);
		memmove(buf, p, have);
	}
	printf("%llu lines, %llu frames split, %llu looked up, %zu names "
	    "(%llx)\n", lines, frames, looked, fold_intern_count(&t),
	    (unsigned long long)(mixsum & 0xff));
	free(buf);
	free(prev);
	fold_intern_free(&t);
	return 0;
usage:
	fprintf(stderr, "usage: floor lines|frames|intern|new|sample|records|ustack "
	    "FILE\n       floor sample FILE OUT\n"
	    "       floor walk random|map|populate|read|pread|map2 K FILE\n");
	return 2;
}
