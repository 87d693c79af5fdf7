// cxxpool - a 2-thread C++ workload for the perf.data benchmark: each thread
// fills a std::map of std::string keys, sorts std::vectors of records with a
// lambda, and walks a template class; deep stacks of long mangled names
// (std::_Rb_tree, std::__introsort_loop, basic_string), as C++ programs
// show under perf.  Built with -O1 -fno-omit-frame-pointer -pthread.
//
// usage: cxxpool [ROUNDS]   (default 200)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace pool {
struct Record {
	std::string key;
	long value;
};

template <typename T> class Ledger {
public:
	void add(const std::string &k, T v) { m[k] += v; }
	T total() const {
		T t = 0;
		for (const auto &kv : m)
			t += kv.second;
		return t;
	}
private:
	std::map<std::string, T> m;
};

static std::vector<Record> make_records(int n, unsigned seed)
{
	std::vector<Record> v;
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v.push_back({ "rec-" + std::to_string(seed % 5000), (long)(seed >> 8) });
	}
	return v;
}

static long work(int rounds, unsigned seed)
{
	Ledger<long> l;
	long acc = 0;
	for (int r = 0; r < rounds; r++) {
		std::vector<Record> v = make_records(2000, seed + (unsigned)r);
		std::sort(v.begin(), v.end(), [](const Record &a, const Record &b) {
			return a.key < b.key || (a.key == b.key && a.value < b.value);
		});
		for (const Record &x : v)
			l.add(x.key, x.value & 0xff);
		acc += l.total();
	}
	return acc;
}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
	long a = 0, b = 0;
	std::thread t1([&] { a = pool::work(rounds, 1); });
	std::thread t2([&] { b = pool::work(rounds, 2); });
	t1.join();
	t2.join();
	std::printf("%ld\n", a + b);
	return 0;
}
