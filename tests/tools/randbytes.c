/* randbytes N SEED - N pseudo-random bytes (all 256 values, NUL and
 * newline included) on stdout, the same for the same seed: hostile input
 * for the tests that stays reproducible. */
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	unsigned long long x, n, i;

	if (argc != 3)
		return 2;
	n = strtoull(argv[1], NULL, 10);
	x = strtoull(argv[2], NULL, 10) * 0x9e3779b97f4a7c15ULL + 1;
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		putchar((int)(x >> 56));
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
