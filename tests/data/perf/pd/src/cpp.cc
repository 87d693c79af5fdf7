// cpp.cc - C++ fixture for the perf.data tests: templates, namespaces,
// an anonymous namespace, lambdas and std containers.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace store {
template <typename K, typename V>
class Index {
public:
	__attribute__((noinline)) void put(const K &k, V v) { m_[k] += v; }
	__attribute__((noinline)) V sum() const
	{
		V s = 0;
		for (const auto &e : m_)
			s += e.second;
		return s;
	}

private:
	std::map<K, V> m_;
};

namespace {
__attribute__((noinline)) unsigned long
mix(unsigned long x)
{
	for (int i = 0; i < 400; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}
} // namespace
} // namespace store

template <typename F>
__attribute__((noinline)) unsigned long
apply(F f, int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += f(i);
	return s;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	store::Index<std::string, long> idx;
	store::Index<int, double> nums;
	std::function<unsigned long(int)> fn = [&](int i) {
		return store::mix((unsigned long)i);
	};
	unsigned long t = 0;

	for (int r = 0; r < n; r++) {
		t += apply([&](int i) {
			idx.put("k" + std::to_string(i % 97), i);
			return store::mix((unsigned long)i);
		}, 200);
		t += apply(fn, 100);
		for (int i = 0; i < 50; i++)
			nums.put(i, i * 0.5);
	}
	std::printf("%lu %ld %g\n", t, idx.sum(), nums.sum());
	return 0;
}
