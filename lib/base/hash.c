/* hash.c - a fast 64-bit hash of byte strings, eight bytes per step. */
#include <string.h>

#include "fold.h"

#define K1 0x9e3779b97f4a7c15ULL
#define K2 0xbf58476d1ce4e5b9ULL
#define K3 0x94d049bb133111ebULL

static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	/* 64x64 -> 128 multiply, folded: fast and well mixing. */
	u128 r = (u128)(a ^ K1) * (b ^ K2);

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}
#else
static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	uint64_t x = (a ^ K1) * K2 + (b ^ K3);

	x ^= x >> 31;
	x *= K3;
	return x ^ (x >> 29);
}
#endif

uint64_t
fold_hash(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = K3 ^ n, a, b;

	while (n > 16) {
		h = mix(load64(p) ^ h, load64(p + 8));
		p += 16;
		n -= 16;
	}
	if (n > 8) {
		a = load64(p);
		b = load64(p + n - 8);
	} else if (n >= 4) {
		uint32_t x, y;

		memcpy(&x, p, 4);
		memcpy(&y, p + n - 4, 4);
		a = x;
		b = y;
	} else if (n > 0) {
		a = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
		b = 0;
	} else
		a = b = 0;
	return mix(mix(a ^ h, b ^ K3), h ^ n);
}
