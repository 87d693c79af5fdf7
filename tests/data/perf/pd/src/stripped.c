/* stripped.c - built with -rdynamic and stripped: only .dynsym names. */
#include <stdio.h>
#include <stdlib.h>

unsigned long st_inner(unsigned long n);
unsigned long st_outer(unsigned long n);

__attribute__((noinline)) static unsigned long
hidden_work(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += (i * i) ^ (s >> 7);
	return s;
}

__attribute__((noinline)) unsigned long
st_inner(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += (i * 2654435761UL) >> (s & 7);
	return s + hidden_work(n / 2);
}

__attribute__((noinline)) unsigned long
st_outer(unsigned long n)
{
	return st_inner(n) + st_inner(n / 3);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300, r;
	unsigned long s = 0;

	for (r = 0; r < n; r++)
		s += st_outer(100000 + (unsigned long)r);
	printf("%lu\n", s);
	return 0;
}
