// prog.cc - C++ symbols: namespaces, templates, lambdas, a class.
#include <cstdlib>
#include <vector>

namespace ns {
volatile unsigned long sink;

template <typename T> __attribute__((noinline)) T
sum(const std::vector<T> &v)
{
	T s = 0;
	for (auto x : v)
		s += x;
	return s;
}

struct Worker {
	int k;
	__attribute__((noinline)) unsigned long run(int n) const
	{
		unsigned long s = 0;
		for (int i = 0; i < n; i++)
			s += (unsigned long)(i * k);
		return s;
	}
};
} // namespace ns

int
main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 2000;
	std::vector<int> vi(20000, 3);
	std::vector<double> vd(20000, 1.5);
	auto lam = [](int m) __attribute__((noinline)) {
		unsigned long s = 0;
		for (int i = 0; i < m; i++)
			s ^= (unsigned long)i * 5;
		return s;
	};
	ns::Worker w{7};

	for (int r = 0; r < n; r++) {
		ns::sink += ns::sum(vi);
		ns::sink += (unsigned long)ns::sum(vd);
		ns::sink += lam(20000);
		ns::sink += w.run(20000);
	}
	return 0;
}
