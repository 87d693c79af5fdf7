/* shlib.c - a program with its own shared library (libfk.so). */
#include <stdio.h>
#include <stdlib.h>

unsigned long fk_spin(unsigned long n);

__attribute__((noinline)) static unsigned long
local_loop(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n * 2000; i++)
		s += i ^ (s >> 5);
	return s;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300, r;
	unsigned long s = 0;

	for (r = 0; r < n; r++) {
		s += fk_spin(100);
		s += local_loop(50);
	}
	printf("%lu\n", s);
	return 0;
}
