// cxx.cc - recorded under callgrind by tests/stackcollapse-callgrind.bats:
// C++ names (a namespace, a template, an operator, a virtual call) to
// demangle and to split at the context separators.
#include <vector>

namespace shapes {
struct Shape {
	virtual ~Shape() {}
	virtual long area(int k) const = 0;
};
struct Square : Shape {
	long side;
	explicit Square(long s) : side(s) {}
	__attribute__((noinline)) long area(int k) const override
	{
		long a = 0;
		for (int i = 0; i < k; i++)
			a += side * side + i;
		return a;
	}
};
template <typename T> __attribute__((noinline)) T total(const std::vector<T> &v)
{
	T s = 0;
	for (const T &x : v)
		s += x;
	return s;
}
struct Acc {
	long v = 0;
	__attribute__((noinline)) Acc &operator+=(long x) { v += x; return *this; }
};
}

static volatile long sink;

int
main()
{
	shapes::Square sq(3);
	const shapes::Shape &s = sq;
	std::vector<long> v(500, 2);
	shapes::Acc acc;

	sink += s.area(400);
	sink += shapes::total(v);
	for (int i = 0; i < 50; i++)
		acc += i;
	sink += acc.v;
	return 0;
}
