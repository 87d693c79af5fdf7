/* inl.c - a program with inlined functions, for stackcollapse-samply's
 * tests: its addresses must be named as addr2line -i -f names them. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long acc;

static inline __attribute__((always_inline)) unsigned long long
mix(unsigned long long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 29;
	return x;
}

static inline __attribute__((always_inline)) unsigned long long
round_(unsigned long long x, int i)
{
	return mix(x + (unsigned long long)i) * 31 + acc;
}

__attribute__((noinline)) unsigned long long
hash_block(const unsigned char *p, int n)
{
	unsigned long long h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < n; i++)
		h = round_(h ^ p[i], i);
	return h;
}

__attribute__((noinline)) unsigned long long
hash_all(int blocks)
{
	unsigned char buf[256];
	unsigned long long h = 0;
	int b, i;

	for (b = 0; b < blocks; b++) {
		for (i = 0; i < 256; i++)
			buf[i] = (unsigned char)(i * b);
		h += hash_block(buf, 256);
		acc = mix(h);
	}
	return h;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	printf("%llx\n", hash_all(n));
	return 0;
}
