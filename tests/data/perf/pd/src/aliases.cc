// aliases.cc - one function under several names, as perf sees them in
// .symtab: a C++ name aliased to an extern "C" one (perf compares the
// names demangled: "ns::compute_all" is longer than "work"), C names with
// weak, global and local bindings, and a label of size 0 at a function's
// start.  Built by g++ -O1 -fno-omit-frame-pointer (record.sh).
#include <cstdint>
#include <cstdlib>
#include <cstdio>

extern "C" {
__attribute__((noinline)) uint64_t work(uint64_t n)
{
	uint64_t x = n;
	for (uint64_t i = 0; i < 4000; i++)
		x = (x ^ (x >> 29)) * 0x9e3779b97f4a7c15ull + i;
	return x;
}
__attribute__((noinline)) uint64_t spin_impl(uint64_t n)
{
	uint64_t x = n;
	for (uint64_t i = 0; i < 4000; i++)
		x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull + i;
	return x;
}
// a weak alias with a longer name: the global one is kept all the same
uint64_t spin_weak_longer_name(uint64_t) __attribute__((weak, alias("spin_impl")));
__attribute__((noinline)) static uint64_t hot_local(uint64_t n)
{
	uint64_t x = n;
	for (uint64_t i = 0; i < 4000; i++)
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebull + i;
	return x;
}
// a global alias of a local function: the global name is kept
uint64_t hot(uint64_t) __attribute__((alias("hot_local")));
uint64_t zsized(uint64_t);
}
// zsized and, at its start, a label of size 0 with a longer name: the
// sized symbol is kept
__asm__(".text\n"
	".globl zsized_label_of_size_zero\n"
	".type zsized_label_of_size_zero, @function\n"
	".globl zsized\n"
	".type zsized, @function\n"
	"zsized_label_of_size_zero:\n"
	"zsized:\n"
	"\tmovq %rdi, %rax\n"
	"\tmovl $4000, %ecx\n"
	"1:\timulq $0x5bd1e995, %rax, %rax\n"
	"\txorq %rcx, %rax\n"
	"\tdecl %ecx\n"
	"\tjnz 1b\n"
	"\tret\n"
	".size zsized, .-zsized\n");

namespace ns {
uint64_t compute_all(uint64_t) __attribute__((alias("work")));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000;
	uint64_t (*volatile f[4])(uint64_t) = { ns::compute_all, spin_impl, hot, zsized };
	uint64_t t = 0;
	for (long i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			t += f[k]((uint64_t)i);
	printf("%llu\n", (unsigned long long)t);
	return 0;
}
