/*
 * memfd.c - run a program from a memfd: its text is mapped from
 * "/memfd:fk (deleted)", an object name with parentheses.
 *   memfd PROGRAM [ARG...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
	char buf[65536];
	ssize_t n;
	int in, fd;

	if (argc < 2 || (in = open(argv[1], O_RDONLY)) < 0 ||
	    (fd = memfd_create("fk", 0)) < 0)
		return 2;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			return 1;
	close(in);
	fexecve(fd, argv + 1, environ);
	perror("fexecve");
	return 1;
}
