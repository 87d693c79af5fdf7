/*
 * runstat - run a command with stdin from a file and stdout to /dev/null,
 * and print "SECONDS MAXRSS_KB STATUS CPU_SECONDS" of the child (wall clock,
 * peak RSS, exit status, user + system time).  Used by
 * tests/bench/run.sh so that `make bench` needs no GNU time.
 *
 *	runstat INPUT cmd [arg ...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int fd, st;
	pid_t pid;
	long kb;

	if (argc < 3) {
		fprintf(stderr, "usage: runstat input cmd [arg ...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0) {
		perror("runstat: fork");
		return 1;
	}
	if (pid == 0) {
		if ((fd = open(argv[1], O_RDONLY)) < 0 || dup2(fd, 0) < 0) {
			perror(argv[1]);
			_exit(127);
		}
		if ((fd = open("/dev/null", O_WRONLY)) < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		perror("runstat: wait");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kb = ru.ru_maxrss;
#ifdef __APPLE__
	kb /= 1024;		/* bytes there */
#endif
	printf("%.5f %ld %d %.5f\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, kb,
	    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
	    (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
