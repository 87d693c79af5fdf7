/* prog.c - symbols of every kind perf has rules for, each one busy, for
 * tests/stackcollapse-perf-symbols.bats: static, weak, alias, an ifunc, an
 * asm function with no size, an asm label inside it, calls through the PLT,
 * and (with -DWITH_LIB) calls into a shared library of ours. */
#include <stdlib.h>
#include <string.h>

volatile unsigned long sink;

static __attribute__((noinline)) void
spin_static(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((weak, noinline)) void
spin_weak(int n)
{
	for (int i = 0; i < n; i++)
		sink ^= (unsigned long)i * 13;
}

__attribute__((noinline)) void
spin_real(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i >> 1;
}
void spin_alias(int n) __attribute__((alias("spin_real")));
void __spin_alias2(int n) __attribute__((alias("spin_real")));

static void
spin_impl(int n)
{
	for (int i = 0; i < n; i++)
		sink -= (unsigned long)i;
}
static void (*resolve_spin(void))(int) { return spin_impl; }
void spin_ifunc(int n) __attribute__((ifunc("resolve_spin")));

/* an asm function without .size, and a label in its loop */
__asm__(".text\n"
    ".globl spin_nosize\n"
    ".type spin_nosize, @function\n"
    "spin_nosize:\n"
    "	mov %edi, %ecx\n"
    "spin_nosize_loop:\n"
    "	dec %ecx\n"
    "	jnz spin_nosize_loop\n"
    "	ret\n"
    ".globl after_nosize\n"
    ".type after_nosize, @function\n"
    "after_nosize:\n"
    "	ret\n"
    ".size after_nosize, .-after_nosize\n");
void spin_nosize(int n);

#ifdef WITH_LIB
void lib_spin(int n);
void lib_weak(int n);
#endif

__attribute__((noinline)) void
spin_plt(int n)
{
	static char buf[64] = "0123456789";

	for (int i = 0; i < n; i++)
		sink += strlen(buf) + (unsigned long)labs(-i);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3000;

	for (int r = 0; r < n; r++) {
		spin_static(20000);
		spin_weak(20000);
		spin_alias(10000);
		__spin_alias2(10000);
		spin_ifunc(20000);
		spin_nosize(40000);
		spin_plt(20000);
#ifdef WITH_LIB
		lib_spin(20000);
		lib_weak(20000);
#endif
	}
	(void)argv;
	return 0;
}
