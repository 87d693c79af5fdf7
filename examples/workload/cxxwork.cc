// cxxwork - a small C++ workload for the demangling fixtures: templates,
// std::string keys, a lambda, an anonymous namespace, an operator, a
// clone-prone static function.  Built with -O1 -fno-omit-frame-pointer
// -fno-inline so that each of these is a frame of its own.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {
struct Fnv1a {
	uint64_t operator()(const std::string &s) const {
		uint64_t h = 1469598103934665603ull;
		for (int r = 0; r < 64; r++)
			for (unsigned char c : s)
				h = (h ^ c) * 1099511628211ull;
		return h;
	}
};
}

namespace store {
template <typename K, typename V, typename H> class Index {
public:
	void put(const K &k, V v) { slots[h(k) % 97].push_back(v); }
	V sum() const {
		V t = 0;
		for (const auto &s : slots)
			for (V v : s)
				t += v;
		return t;
	}
private:
	H h;
	std::vector<V> slots[97];
};
}

struct Vec2 {
	double x, y;
	Vec2 operator+(const Vec2 &o) const { return { x + o.x, y + o.y }; }
};

template <typename F> double apply_n(F f, int n) {
	double t = 0;
	for (int i = 0; i < n; i++)
		t += f(i);
	return t;
}

static Vec2 walk(int n) {
	Vec2 p { 0, 0 };
	for (int i = 0; i < n; i++)
		p = p + Vec2 { i * 0.5, -i * 0.25 };
	return p;
}

int main(int argc, char **argv) {
	int rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
	store::Index<std::string, long, Fnv1a> idx;
	double acc = 0;
	for (int r = 0; r < rounds; r++) {
		idx.put("key-" + std::to_string(r % 500), r);
		acc += apply_n([r](int i) { return (r ^ i) * 0.5; }, 2000);
		acc += walk(2000).x;
	}
	std::printf("%ld %.1f\n", idx.sum(), acc);
	return 0;
}
