/* plugin.c - a program that dlopens a plugin and calls into it, for the
 * --call-graph dwarf fixtures: built twice, -DPLUGIN as the shared object
 * (static functions the compiler inlines), else as the host.
 *   cc -O2 -g -fPIC -shared -DPLUGIN -o libplugin.so plugin.c
 *   cc -O2 -g -o dwplug plugin.c -ldl
 *   ./dwplug ./libplugin.so N */
#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
static inline unsigned long
mix(unsigned long h, unsigned long v)
{
	h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdUL;
}

static inline unsigned long
round_of(unsigned long h, int i)
{
	int j;

	for (j = 0; j < 64; j++)
		h = mix(h, (unsigned long)(i * j));
	return h;
}

unsigned long
plugin_run(int n)
{
	unsigned long h = 1;
	int i;

	for (i = 0; i < n; i++)
		h = round_of(h, i);
	return h;
}
#else
#include <dlfcn.h>

static unsigned long (*run)(int);

static void __attribute__((noinline))
drive(int n)
{
	unsigned long s = 0;
	int k;

	for (k = 0; k < n; k++)
		s += run(20000);
	printf("%lu\n", s);
}

int
main(int argc, char **argv)
{
	void *h;

	if (argc < 3 || (h = dlopen(argv[1], RTLD_NOW)) == NULL) {
		fprintf(stderr, "usage: dwplug PLUGIN N\n");
		return 2;
	}
	if ((run = (unsigned long (*)(int))dlsym(h, "plugin_run")) == NULL)
		return 1;
	drive(atoi(argv[2]));
	dlclose(h);
	return 0;
}
#endif
