/* util.c - program name, messages, allocation that cannot fail. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold.h"

const char *fold_prog = "foldkit";

/*
 * Input files and binaries are mapped (in.c, fdiff.c, elf.c): a file cut
 * short by another process while it is mapped makes the next access to a
 * page past its new end raise SIGBUS.  That is an error in the input, not a
 * crash: say so and exit 1 (only async-signal-safe calls here).
 */
static void
on_sigbus(int sig)
{
	static const char msg[] =
	    ": an input file was cut short while it was being read\n";
	size_t n = strlen(fold_prog);

	(void)sig;
	if (write(2, fold_prog, n) < 0 || write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

void
fold_init(const char *argv0)
{
	const char *p;
	struct sigaction sa;

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		fold_prog = p != NULL ? p + 1 : argv0;
	}
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void
fold_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", fold_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
fold_die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fold_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static void
nomem(void)
{
	fold_die(1, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		nomem();
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void
fold_grow_slow(void *arrp, size_t *cap, size_t need, size_t elsize)
{
	char **arr = arrp;
	size_t ncap = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (ncap < need) {
		if (ncap > ((size_t)-1 / 2) / elsize)
			nomem();
		ncap *= 2;
	}
	*arr = xrealloc(*arr, ncap * elsize);
	memset(*arr + *cap * elsize, 0, (ncap - *cap) * elsize);
	*cap = ncap;
}
