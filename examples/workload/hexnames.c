/*
 * hexnames - a tiny workload whose names look like hex numbers, to record
 * perf script fixtures that a parser could misread: threads named like the
 * JVM's compiler threads ("C2 CompilerThre"), "DB Pool" and "ab cd" (the
 * command's first word is all hex digits), and hot functions named add()
 * and fade() (a symbol that is all hex digits).  Built without PIE, so many
 * addresses (4011a6, 401136) are all decimal digits too.
 *
 *   cc -O1 -g -fno-omit-frame-pointer -no-pie -pthread -o hexnames hexnames.c
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void
add(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) static void
fade(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i * 31;
}

__attribute__((noinline)) static void
work(unsigned long n)
{
	add(n);
	fade(n / 2);
}

static void *
run(void *name)
{
	prctl(PR_SET_NAME, name);
	for (int i = 0; i < 30; i++)
		work(1000000);
	return NULL;
}

int
main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, run, "C2 CompilerThre");
	pthread_create(&b, NULL, run, "DB Pool");
	run("ab cd");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
