/*
 * debugframe.c - a program whose call frame information is only in
 * .debug_frame (built -g -fno-asynchronous-unwind-tables: no .eh_frame
 * for its own functions), once with that section as it is and once
 * zlib-compressed (-Wl,--compress-debug-sections=zlib).
 *   debugframe ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long
leaf(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static unsigned long
mid(unsigned long n)
{
	unsigned long r = leaf(n);

	sink += r;
	return r + 1;
}

__attribute__((noinline)) static unsigned long
top(unsigned long n)
{
	unsigned long r = mid(n);

	sink += r;
	return r + 2;
}

int
main(int argc, char **argv)
{
	int i, k = argc > 1 ? atoi(argv[1]) : 100;

	for (i = 0; i < k; i++)
		sink += top(1000000);
	printf("%lu\n", sink);
	return 0;
}
