/* usage.c - what every tool's option parsing ends in: usage errors,
 * --help, --version, and option values read or refused. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"

void
fold_usage(const char *usage)
{
	fprintf(stderr, "usage: %s", usage);
	exit(2);
}

void
fold_help(const char *usage, const char *help)
{
	printf("usage: %s\n%s", usage, help);
	if (fflush(stdout) != 0)
		fold_die(1, "write error: %s", strerror(errno));
	exit(0);
}

void
fold_version(void)
{
	printf("%s (foldkit) %s\n", fold_prog, FOLDKIT_VERSION);
	if (fflush(stdout) != 0)
		fold_die(1, "write error: %s", strerror(errno));
	exit(0);
}

uint64_t
fold_opt_u64(const char *opt, const char *arg)
{
	uint64_t v = 0;
	const char *p;

	for (p = arg; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (unsigned)(*p - '0')) / 10)
			break;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (p == arg || *p != '\0')
		fold_die(2, "invalid number for %s: '%s'", opt, arg);
	return v;
}

double
fold_opt_pct(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < 0 || v > 100)
		fold_die(2, "invalid percentage for %s: '%s' (want 0 to 100)",
		    opt, arg);
	return v;
}
