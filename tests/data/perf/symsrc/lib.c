/* lib.c - the shared library prog.c calls with -DWITH_LIB. */
extern volatile unsigned long sink;

static __attribute__((noinline)) void
lib_inner(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 3;
}

void
lib_spin(int n)
{
	lib_inner(n);
}

__attribute__((weak)) void
lib_weak(int n)
{
	for (int i = 0; i < n; i++)
		sink ^= (unsigned long)i;
}
