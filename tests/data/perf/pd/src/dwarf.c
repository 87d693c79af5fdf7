/*
 * dwarf.c - a program for --call-graph dwarf captures, built without frame
 * pointers (-O2): a call into its own shared library (libfk.so), qsort
 * calling back into it, recursion deeper than perf's 127 frames, calls
 * into the vDSO (clock_gettime), and a signal handler that works (so that
 * samples land in it, above the kernel's signal frame).
 *   dwarf ROUNDS
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

unsigned long fk_spin(unsigned long n);

static volatile unsigned long sink;
static int arr[4096];

__attribute__((noinline)) static int
cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) static unsigned long
deep(int n, unsigned long acc)
{
	unsigned long i;

	if (n == 0) {
		for (i = 0; i < 1000000; i++)
			acc += i ^ (acc >> 3);
		return acc;
	}
	acc = deep(n - 1, acc * 31 + (unsigned long)n);
	sink += acc;		/* not a tail call */
	return acc;
}

static void
on_alarm(int sig)
{
	unsigned long i, s = 0;

	(void)sig;
	for (i = 0; i < 1500000; i++)
		s += i ^ (s >> 3);
	sink += s;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 50, r, j;
	struct itimerval it;
	struct timespec ts;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 5000;
	it.it_value.tv_usec = 5000;
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	for (r = 0; r < rounds; r++) {
		sink += fk_spin(100);
		for (j = 0; j < 4096; j++)
			arr[j] = (j * 7919) % 4096;
		qsort(arr, 4096, sizeof(int), cmp);
		sink += deep(150, (unsigned long)r);
		for (j = 0; j < 20000; j++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += (unsigned long)ts.tv_nsec;
		}
	}
	printf("%lu\n", sink);
	return 0;
}
