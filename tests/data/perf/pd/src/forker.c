/*
 * forker.c - fork+exec and short-lived threads.  Without arguments: forks
 * N children that exec CHILD (the same source built with -DCHILD), each
 * of which starts short-lived threads that spin.  Build:
 *   cc -O1 -fno-omit-frame-pointer -pthread -o fkparent forker.c
 *   cc -O1 -fno-omit-frame-pointer -pthread -DCHILD -o fkchild forker.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void
spin(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += i ^ (s << 1);
	sink += s;
}

#ifdef CHILD
static void *
thread_main(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "fk-thr-%ld", (long)arg);
	prctl(PR_SET_NAME, name);
	spin(3000000);
	return NULL;
}

int
main(void)
{
	pthread_t t[4];
	long i;

	spin(2000000);
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
#else
int
main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 6, i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			spin(1000000);	/* before exec: the parent's comm and maps */
			execl(argv[1], argv[1], (char *)NULL);
			_exit(127);
		}
		spin(2000000);
		waitpid(pid, NULL, 0);
	}
	return 0;
}
#endif
