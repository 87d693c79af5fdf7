/* prog.c - recorded under callgrind by tests/stackcollapse-callgrind.bats:
 * a function called from two callers at different costs (work from light
 * and heavy), direct recursion (fib), mutual recursion (is_even, is_odd),
 * a call through a function pointer (via), qsort calling back (cmp), a
 * function of a shared library (libwork.so: lib_sum) and a second thread
 * (worker; not with an argument, for a run that is the same each time).
 * Functions are kept out of line so that each is a frame. */
#include <pthread.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

long lib_sum(const int *v, int n);

static volatile long sink;

NOINLINE void work(int n) { int i; for (i = 0; i < n; i++) sink += i; }
NOINLINE void light(void) { work(1000); }
NOINLINE void heavy(void) { work(5000); }
NOINLINE long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
NOINLINE int is_odd(int n);
NOINLINE int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
NOINLINE int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
NOINLINE void pointed(void) { work(700); }
NOINLINE void via(void (*f)(void)) { f(); }
NOINLINE int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}
NOINLINE void sorting(void)
{
	int v[300], i;

	for (i = 0; i < 300; i++)
		v[i] = (i * 7919) % 301;
	qsort(v, 300, sizeof(v[0]), cmp);
	sink += lib_sum(v, 300);
}
NOINLINE void *worker(void *arg) { (void)arg; work(3000); return NULL; }

int
main(int argc, char **argv)
{
	pthread_t t;

	light();
	heavy();
	sink += fib(12);
	sink += is_even(9);
	via(pointed);
	sorting();
	(void)argv;
	if (argc < 2 && pthread_create(&t, NULL, worker, NULL) == 0)
		pthread_join(t, NULL);
	return 0;
}
