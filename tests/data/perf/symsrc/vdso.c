/* vdso.c - most time in the vDSO's clock_gettime, for the [vdso] frames. */
#include <stdlib.h>
#include <time.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	volatile unsigned long s = 0;
	long n = argc > 1 ? atol(argv[1]) : 3000;

	for (long i = 0; i < n * 10000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += (unsigned long)ts.tv_nsec;
	}
	return 0;
}
