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
 *
 * Prints the counts (lines, frames, distinct names) so that the work done
 * is seen to be the tools' work.  Exit 0, or 1 on a read error.
 */
#include <fcntl.h>
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

	if (argc != 3)
		goto usage;
	if (strcmp(argv[1], "records") == 0)
		return records(argv[2], 0);
	if (strcmp(argv[1], "ustack") == 0)
		return records(argv[2], 1);
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
	fprintf(stderr, "usage: floor lines|frames|intern|new|records|ustack FILE\n");
	return 2;
}
