/*
 * pdmangle - make test inputs from a little-endian file-mode perf.data:
 *
 *   pdmangle MODE IN OUT
 *
 * MODE:
 *   swap        the same recording as a big-endian machine writes it
 *   killed N    data size 0 in the header and the file cut after N bytes
 *               of data (perf killed before it could finish the file)
 *   cut N       the file cut after N bytes of its data section
 *   featpast    the first feature section pointing past the end
 *   idspast     the first attr's sample ids pointing past the end
 *   recsize0    the fifth record's size set to 0
 *   chainhuge   the first sample's callchain nr set to 2^60
 *   chainloop   every address of the first callchain the same one
 *   feat N      feature bit N set (its section pointing at the header)
 *   pad N       N MB of records of an unknown type added after the data
 *   repeat N    the data section N times over, as it is (times included)
 *   period V    every sample's period set to V (the first attr's layout)
 *   lbr         the first attr made a --call-graph lbr one (BRANCH_STACK
 *               sampled, branch_sample_type CALL_STACK)
 *
 * Only what the perf.data tests need: records of the types perf record
 * writes for a -g capture, attrs of size 128 or less.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *b;
static size_t n;

static uint64_t
g64(size_t o)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[o + (size_t)i];
	return v;
}

static uint32_t
g32(size_t o)
{
	return (uint32_t)b[o] | (uint32_t)b[o + 1] << 8 |
	    (uint32_t)b[o + 2] << 16 | (uint32_t)b[o + 3] << 24;
}

static uint16_t
g16(size_t o)
{
	return (uint16_t)(b[o] | b[o + 1] << 8);
}

static void
p64(size_t o, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[o + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Reverse the bytes of a field of w bytes in place (to big-endian). */
static void
rev(size_t o, size_t w)
{
	size_t i;

	if (o + w > n)
		return;
	for (i = 0; i < w / 2; i++) {
		unsigned char t = b[o + i];

		b[o + i] = b[o + w - 1 - i];
		b[o + w - 1 - i] = t;
	}
}

static void
rev64s(size_t o, size_t len)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8)
		rev(o + i, 8);
}

/* An attr: field k of the bit fields is bit k of the LE word, bit 63 - k
 * of the BE word. */
static void
swap_attr(size_t o, size_t len)
{
	uint64_t v, r = 0;
	int i;

	rev(o, 4);
	rev(o + 4, 4);
	rev64s(o + 8, 32);
	v = g64(o + 40);
	for (i = 0; i < 64; i++)
		if (v & (1ULL << i))
			r |= 1ULL << (63 - i);
	for (i = 0; i < 8; i++)
		b[o + 40 + (size_t)i] = (unsigned char)(r >> (56 - 8 * i));
	rev(o + 48, 4);
	rev(o + 52, 4);
	rev64s(o + 56, 32);
	rev(o + 88, 4);
	rev(o + 92, 4);
	rev64s(o + 96, 8);
	if (len >= 128) {
		rev(o + 104, 4);
		rev(o + 108, 2);
		rev(o + 110, 2);
		rev(o + 112, 4);
		rev(o + 116, 4);
		rev64s(o + 120, 8);
	}
}

static uint64_t sample_type;

/* The sample_id_all trailer of a record ending at e. */
static void
swap_trailer(size_t e)
{
	size_t k = 0, o;
	uint64_t t = sample_type;

	k += !!(t & 2) + !!(t & 4) + !!(t & 64) + !!(t & 512) + !!(t & 128) +
	    !!(t & 65536);
	o = e - 8 * k;
	if (t & 2) {
		rev(o, 4);
		rev(o + 4, 4);
		o += 8;
	}
	if (t & 4) {
		rev(o, 8);
		o += 8;
	}
	if (t & 64) {
		rev(o, 8);
		o += 8;
	}
	if (t & 512) {
		rev(o, 8);
		o += 8;
	}
	if (t & 128) {
		rev(o, 4);
		rev(o + 4, 4);
		o += 8;
	}
	if (t & 65536)
		rev(o, 8);
}

static void
swap_record(size_t o)
{
	uint32_t type = g32(o);
	unsigned misc = g16(o + 4);
	size_t size = g16(o + 6), e = o + size, p = o + 8;
	uint64_t t = sample_type, nr, i;

	rev(o, 4);
	rev(o + 4, 2);
	rev(o + 6, 2);
	switch (type) {
	case 9:	/* SAMPLE: IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD ... CALLCHAIN */
		if (t & 65536) { rev(p, 8); p += 8; }
		if (t & 1) { rev(p, 8); p += 8; }
		if (t & 2) { rev(p, 4); rev(p + 4, 4); p += 8; }
		if (t & 4) { rev(p, 8); p += 8; }
		if (t & 8) { rev(p, 8); p += 8; }
		if (t & 64) { rev(p, 8); p += 8; }
		if (t & 512) { rev(p, 8); p += 8; }
		if (t & 128) { rev(p, 4); rev(p + 4, 4); p += 8; }
		if (t & 256) { rev(p, 8); p += 8; }
		if (t & 32) {
			nr = g64(p);
			rev(p, 8);
			p += 8;
			for (i = 0; i < nr && p + 8 <= e; i++, p += 8)
				rev(p, 8);
		}
		break;
	case 1:	/* MMAP */
		rev(p, 4);
		rev(p + 4, 4);
		rev64s(p + 8, 24);
		swap_trailer(e);
		break;
	case 10:	/* MMAP2 */
		rev(p, 4);
		rev(p + 4, 4);
		rev64s(p + 8, 24);
		if (!(misc & 0x4000)) {
			rev(p + 32, 4);
			rev(p + 36, 4);
			rev64s(p + 40, 16);
		}
		rev(p + 56, 4);
		rev(p + 60, 4);
		swap_trailer(e);
		break;
	case 3:	/* COMM */
		rev(p, 4);
		rev(p + 4, 4);
		swap_trailer(e);
		break;
	case 4:	/* EXIT */
	case 7:	/* FORK */
		rev(p, 4);
		rev(p + 4, 4);
		rev(p + 8, 4);
		rev(p + 12, 4);
		rev(p + 16, 8);
		swap_trailer(e);
		break;
	default:	/* not read by the tool: words */
		rev64s(p, size - 8);
		break;
	}
}

static void
swap_event_desc(size_t o, size_t len)
{
	uint32_t nr = g32(o), asz = g32(o + 4), nids, sl, i;
	size_t p = o + 8;

	rev(o, 4);
	rev(o + 4, 4);
	for (i = 0; i < nr && p < o + len; i++) {
		swap_attr(p, asz);
		p += asz;
		nids = g32(p);
		sl = g32(p + 4);
		rev(p, 4);
		rev(p + 4, 4);
		p += 8 + sl;
		rev64s(p, (size_t)nids * 8);
		p += (size_t)nids * 8;
	}
}

static void
swap_build_ids(size_t o, size_t len)
{
	size_t p = o, sz;

	while (p + 8 <= o + len) {
		sz = g16(p + 6);
		if (sz < 8)
			break;
		rev(p, 4);
		rev(p + 4, 2);
		rev(p + 6, 2);
		rev(p + 8, 4);
		p += sz;
	}
}

static void
swap_file(void)
{
	uint64_t asz = g64(16), ao = g64(24), al = g64(32), dof = g64(40),
	    dl = g64(48), f[4], so, sl, io, il;
	size_t i, k = 0, o;
	unsigned bit;

	sample_type = g64(ao + 24);
	for (i = 0; i < 4; i++)
		f[i] = g64(72 + 8 * i);
	/* features: before the header is swapped (offsets read LE) */
	for (bit = 0; bit < 256; bit++) {
		if (!(f[bit / 64] & (1ULL << (bit % 64))))
			continue;
		o = (size_t)(dof + dl + 16 * k++);
		so = g64(o);
		sl = g64(o + 8);
		if (bit == 12)
			swap_event_desc((size_t)so, (size_t)sl);
		else if (bit == 2)
			swap_build_ids((size_t)so, (size_t)sl);
		rev(o, 8);
		rev(o + 8, 8);
	}
	/* records */
	for (o = (size_t)dof; o + 8 <= dof + dl;) {
		size_t sz = g16(o + 6);

		if (sz < 8)
			break;
		swap_record(o);
		o += sz;
	}
	/* attrs and ids */
	for (i = 0; i < al / asz; i++) {
		size_t e = (size_t)(ao + i * asz);

		io = g64(e + asz - 16);
		il = g64(e + asz - 8);
		rev64s((size_t)io, (size_t)il);
		swap_attr(e, (size_t)asz - 16);
		rev(e + asz - 16, 8);
		rev(e + asz - 8, 8);
	}
	/* the header */
	rev64s(0, 104);
}

/* The offset of the first record of type t, or 0. */
static size_t
first(uint32_t t, int nth)
{
	size_t o, end = (size_t)(g64(40) + g64(48));

	for (o = (size_t)g64(40); o + 8 <= end; o += g16(o + 6)) {
		if (g16(o + 6) < 8)
			break;
		if ((t == 0 || g32(o) == t) && --nth <= 0)
			return o;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	FILE *f;
	size_t cap = 1 << 20, o, p;
	uint64_t t, nr, ip, i;
	const char *mode;

	if (argc < 4)
		return 2;
	mode = argv[1];
	if ((f = fopen(argv[argc - 2], "rb")) == NULL)
		return 1;
	b = malloc(cap);
	while (!feof(f)) {
		if (n == cap)
			b = realloc(b, cap *= 2);
		n += fread(b + n, 1, cap - n, f);
	}
	fclose(f);
	if (strcmp(mode, "swap") == 0)
		swap_file();
	else if (strcmp(mode, "killed") == 0) {
		n = (size_t)(g64(40) + strtoull(argv[2], NULL, 10));
		p64(48, 0);
	}
	else if (strcmp(mode, "cut") == 0)
		n = (size_t)(g64(40) + strtoull(argv[2], NULL, 10));
	else if (strcmp(mode, "featpast") == 0) {
		o = (size_t)(g64(40) + g64(48));
		p64(o, (uint64_t)n + 1000);
	} else if (strcmp(mode, "idspast") == 0) {
		o = (size_t)(g64(24) + g64(16) - 16);
		p64(o, (uint64_t)n - 4);
	} else if (strcmp(mode, "recsize0") == 0) {
		if ((o = first(0, 5)) != 0)
			b[o + 6] = b[o + 7] = 0;
	} else if (strcmp(mode, "chainhuge") == 0 ||
	    strcmp(mode, "chainloop") == 0) {
		t = g64(g64(24) + 24);
		if ((o = first(9, 1)) == 0)
			return 1;
		p = o + 8 + 8 * (size_t)(!!(t & 65536) + !!(t & 1) + !!(t & 2) +
		    !!(t & 4) + !!(t & 8) + !!(t & 64) + !!(t & 512) +
		    !!(t & 128) + !!(t & 256));
		if (mode[5] == 'h')
			p64(p, 1ULL << 60);
		else {
			nr = g64(p);
			ip = g64(p + 8 * nr);	/* the outermost */
			for (i = 1; i < nr; i++)
				if (g64(p + 8 + 8 * i) < (uint64_t)-4095)
					p64(p + 8 + 8 * i, ip);
		}
	} else if (strcmp(mode, "period") == 0) {
		size_t end = (size_t)(g64(40) + g64(48));

		t = g64(g64(24) + 24);
		if (!(t & 256))
			return 1;
		for (o = (size_t)g64(40); o + 8 <= end && g16(o + 6) >= 8;
		    o += g16(o + 6)) {
			p = o + 8 + 8 * (size_t)(!!(t & 65536) + !!(t & 1) +
			    !!(t & 2) + !!(t & 4) + !!(t & 8) + !!(t & 64) +
			    !!(t & 512) + !!(t & 128));
			if (g32(o) == 9 && p + 8 <= o + g16(o + 6))
				p64(p, strtoull(argv[2], NULL, 10));
		}
	} else if (strcmp(mode, "feat") == 0)
		b[72 + atoi(argv[2]) / 8] |= (unsigned char)(1 << (atoi(argv[2]) % 8));
	else if (strcmp(mode, "lbr") == 0) {
		o = (size_t)g64(24);
		p64(o + 24, g64(o + 24) | (1ULL << 11));
		p64(o + 72, g64(o + 72) | (1ULL << 11));
	} else if (strcmp(mode, "repeat") == 0) {
		size_t times = (size_t)atoi(argv[2]), dof, dl, end, k, nf = 0;
		uint64_t fl[4];

		dof = (size_t)g64(40);
		dl = (size_t)g64(48);
		end = dof + dl;
		if (times < 1)
			times = 1;
		b = realloc(b, n + dl * (times - 1));
		memmove(b + end + dl * (times - 1), b + end, n - end);
		for (k = 1; k < times; k++)
			memcpy(b + dof + dl * k, b + dof, dl);
		n += dl * (times - 1);
		p64(48, (uint64_t)(dl * times));
		for (k = 0; k < 4; k++)
			fl[k] = g64(72 + 8 * k);
		for (k = 0; k < 256; k++)
			if (fl[k / 64] & (1ULL << (k % 64))) {
				o = dof + dl * times + 16 * nf++;
				p64(o, g64(o) + dl * (times - 1));
			}
	} else if (strcmp(mode, "pad") == 0) {
		size_t add = (size_t)atoi(argv[2]) << 20, end, k, nf = 0;
		uint64_t fl[4];

		add -= add % 65528;
		end = (size_t)(g64(40) + g64(48));
		b = realloc(b, n + add);
		memmove(b + end + add, b + end, n - end);
		for (k = 0; k < add; k += 65528) {
			memset(b + end + k, 0, 65528);
			b[end + k] = 0xff;	/* type 0x7fff */
			b[end + k + 1] = 0x7f;
			b[end + k + 6] = 65528 & 0xff;
			b[end + k + 7] = 65528 >> 8;
		}
		n += add;
		p64(48, g64(48) + add);
		for (k = 0; k < 4; k++)
			fl[k] = g64(72 + 8 * k);
		for (k = 0; k < 256; k++)
			if (fl[k / 64] & (1ULL << (k % 64))) {
				o = end + add + 16 * nf++;
				p64(o, g64(o) + add);
			}
	} else
		return 2;
	if ((f = fopen(argv[argc - 1], "wb")) == NULL ||
	    fwrite(b, 1, n, f) != n || fclose(f) != 0)
		return 1;
	return 0;
}
