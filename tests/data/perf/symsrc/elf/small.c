/* small.c - a freestanding program for the cross-target ELF fixtures. */
volatile unsigned long sink;
static __attribute__((noinline)) void one(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((weak, noinline)) void two(int n) { for (int i = 0; i < n; i++) sink ^= i; }
void three(int n) __attribute__((alias("two")));
void _start(void) { one(10); two(20); for (;;) ; }
