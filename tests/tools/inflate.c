/*
 * inflate - libfold's inflate.c over a file (a test tool).
 *
 *   inflate [-r | -z | -g] [-e SIZE | -m MAX] [-t TIMES] FILE
 *	decompress FILE to stdout: -r raw DEFLATE, -z zlib, -g gzip, else
 *	the kind is guessed (FOLD_INFLATE_AUTO).  -e SIZE: fold_inflate()
 *	into a buffer of exactly SIZE bytes (malloc'd: a write past it is
 *	seen by ASan); else fold_inflate_alloc() with at most MAX bytes
 *	(default 1 GB).  -t: decompress TIMES times (a benchmark), write once.
 *	An error: "inflate: FILE: why" on stderr, exit 1.
 *   inflate -R GZFILE
 *	the raw DEFLATE data of a one-member gzip file (its header and
 *	trailer cut off).
 *   inflate -Z GZFILE ORIGINAL
 *	the same as a zlib stream: a 78 9c header, the raw data, the
 *	adler32 of ORIGINAL (computed here, not by the library).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold.h"

static unsigned char *
slurp(const char *path, size_t *n)
{
	unsigned char *b = NULL;
	size_t cap = 0, len = 0;
	ssize_t r;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		fold_die(1, "%s: cannot open", path);
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			b = xrealloc(b, cap);
		}
		if ((r = read(fd, b + len, cap - len)) < 0)
			fold_die(1, "%s: read error", path);
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	*n = len;
	return b;
}

/* The raw DEFLATE data of a one-member gzip file, in place. */
static const unsigned char *
gzraw(const char *path, const unsigned char *g, size_t n, size_t *rawlen)
{
	size_t p = 10;
	unsigned flg;

	if (n < 18 || g[0] != 0x1f || g[1] != 0x8b)
		fold_die(1, "%s: not gzip", path);
	flg = g[3];
	if (flg & 4)
		p += 2 + (size_t)(g[10] | g[11] << 8);
	if (flg & 8)
		while (p < n && g[p++] != 0)
			;
	if (flg & 16)
		while (p < n && g[p++] != 0)
			;
	if (flg & 2)
		p += 2;
	if (p > n - 8)
		fold_die(1, "%s: bad gzip header", path);
	*rawlen = n - 8 - p;
	return g + p;
}

/* Adler-32, the plain way (RFC 1950 8.2). */
static uint32_t
adler(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;

	while (n-- > 0) {
		a = (a + *p++) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static void
put(const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, stdout) != n)
		fold_die(1, "write error");
}

int
main(int argc, char **argv)
{
	const unsigned char *raw;
	unsigned char *in, *orig, *out = NULL, hd[2] = { 0x78, 0x9c }, tr[4];
	const char *why = NULL;
	size_t n, len, olen, exact = 0, max = (size_t)1 << 30, rawlen;
	unsigned long times = 1, t;
	uint32_t a;
	int c, kind = FOLD_INFLATE_AUTO, mode = 0, useexact = 0;

	fold_init(argv[0]);
	while ((c = getopt(argc, argv, "rzge:m:t:RZ")) != -1)
		switch (c) {
		case 'r': kind = FOLD_INFLATE_RAW; break;
		case 'z': kind = FOLD_INFLATE_ZLIB; break;
		case 'g': kind = FOLD_INFLATE_GZIP; break;
		case 'e':
			exact = (size_t)fold_opt_u64("-e", optarg);
			useexact = 1;
			break;
		case 'm': max = (size_t)fold_opt_u64("-m", optarg); break;
		case 't': times = (unsigned long)fold_opt_u64("-t", optarg); break;
		case 'R': case 'Z': mode = c; break;
		default:
			fold_usage("inflate [-r | -z | -g] [-e SIZE | -m MAX] "
			    "[-t TIMES] FILE | -R GZFILE | -Z GZFILE ORIGINAL");
		}
	argc -= optind;
	argv += optind;
	if (argc != (mode == 'Z' ? 2 : 1))
		fold_usage("inflate [-r | -z | -g] [-e SIZE | -m MAX] "
		    "[-t TIMES] FILE | -R GZFILE | -Z GZFILE ORIGINAL");
	in = slurp(argv[0], &n);
	if (mode != 0) {
		raw = gzraw(argv[0], in, n, &rawlen);
		if (mode == 'Z') {
			orig = slurp(argv[1], &olen);
			a = adler(orig, olen);
			tr[0] = a >> 24;
			tr[1] = a >> 16 & 0xff;
			tr[2] = a >> 8 & 0xff;
			tr[3] = a & 0xff;
			put(hd, 2);
			put(raw, rawlen);
			put(tr, 4);
			free(orig);
		} else
			put(raw, rawlen);
		free(in);
		return fflush(stdout) != 0;
	}
	for (t = 0; t < times || t == 0; t++) {
		free(out);
		if (useexact) {
			out = xmalloc(exact ? exact : 1);
			len = fold_inflate(in, n, out, exact, kind, &why);
			if (len == (size_t)-1)
				out = (free(out), NULL);
		} else
			out = fold_inflate_alloc(in, n, max, kind, &len, &why);
		if (out == NULL) {
			fprintf(stderr, "inflate: %s: %s\n", argv[0], why);
			free(in);
			return 1;
		}
	}
	put(out, len);
	free(out);
	free(in);
	return fflush(stdout) != 0;
}
