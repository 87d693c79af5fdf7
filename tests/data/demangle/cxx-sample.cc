#include <string>
#include <vector>
#include <map>
#include <functional>
#include <iostream>
#include <memory>
#include <utility>
#include <type_traits>
#include <concepts>
namespace { struct Anon { int x; virtual ~Anon() {} }; int anonf(int a) { return a + 1; } }
struct B1 { virtual int f(); virtual ~B1(); int b1; };
struct B2 { virtual int g(); virtual ~B2(); int b2; };
struct D : virtual B1, B2 { int f() override; int g() override; ~D(); };
int B1::f() { return 1; } B1::~B1() {} int B2::g() { return 2; } B2::~B2() {}
int D::f() { return 3; } int D::g() { return 4; } D::~D() {}
struct Cov1 { virtual B1* get(); }; struct Cov2 : Cov1 { D* get() override; };
B1* Cov1::get() { return nullptr; } D* Cov2::get() { return nullptr; }
template <typename T> struct Box { T v; template <typename U> auto map(U u) -> decltype(u(v)) { return u(v); }
  operator T() const { return v; } template<class U> explicit operator U*() { return nullptr; }
  Box& operator+=(const Box&); bool operator<(const Box&) const; bool operator==(const Box&) const = default;
  auto operator<=>(const Box&) const = default; T& operator[](int); void operator()(int) &; void operator()(int) &&; };
template <typename T> Box<T>& Box<T>::operator+=(const Box&) { return *this; }
template <typename T> bool Box<T>::operator<(const Box& o) const { return v < o.v; }
template <typename T> T& Box<T>::operator[](int) { return v; }
template <typename T> void Box<T>::operator()(int) & {} template <typename T> void Box<T>::operator()(int) && {}
template struct Box<int>; template struct Box<std::string>;
template <int N> int arr(int (&a)[N]) { return N; }
template <typename... Ts> int count(Ts&&... ts) { return sizeof...(Ts) + (0 + ... + (int)sizeof(ts)); }
template <typename T> requires std::integral<T> T twice(T t) { return t * 2; }
template <std::floating_point T> T half(T t) { return t / 2; }
template <typename T> auto size_of(T t) -> decltype(sizeof(t) + t.size()) { return t.size(); }
template <typename T, typename U> auto add(T t, U u) -> decltype(t + u) { return t + u; }
template <typename T> auto neg(T t) -> decltype(-t) { return -t; }
template <typename T> auto call(T t) -> decltype(t()) { return t(); }
template <typename T> auto mem(T t) -> decltype(t.x) { return t.x; }
template <typename T> auto ptr(T* t) -> decltype(t->x) { return t->x; }
template <typename T> auto castit(T t) -> decltype(static_cast<long>(t)) { return t; }
template <typename T> auto cond(T t) -> decltype(t ? t : t) { return t; }
template <typename T> auto newit(T t) -> decltype(new T(t)) { return new T(t); }
template <typename T> auto idx(T t) -> decltype(t[0]) { return t[0]; }
template <typename T> auto nx(T t) noexcept(noexcept(t + 1)) -> decltype(t + 1) { return t + 1; }
template <typename T, T V> T val() { return V; }
template <bool B> int bval() { return B; }
template <char C> int cval() { return C; }
template <auto V> int aval() { return (int)V; }
template <const char* S> int sval() { return S[0]; }
extern const char gstr[] = "hi";
template <typename T> using vec = std::vector<T>;
int (*fptr_ret(int))(double) { return nullptr; }
void take_fp(int (*)(char), void (B1::*)(int) const, int B1::*, int (&)[3], int (*)[4], char const* volatile*) {}
void take_more(long double, __int128, unsigned __int128, char8_t, char16_t, char32_t, wchar_t, std::nullptr_t, __float128) {}
thread_local std::string tls_s = "x";
int guarded() { static std::string s = "y"; static int z = anonf(3); return s.size() + z; }
void ptrs(int* __restrict__ p, const volatile int* q, int* const* r) {}
typedef int v4si __attribute__((vector_size(16)));
void vec4(v4si) {}
void cplx(_Complex double, _Complex float) {}
struct Ctor { Ctor(); Ctor(int); Ctor(const Ctor&); Ctor(Ctor&&) noexcept; ~Ctor(); virtual void v(); };
Ctor::Ctor() {} Ctor::Ctor(int) {} Ctor::Ctor(const Ctor&) {} Ctor::Ctor(Ctor&&) noexcept {} Ctor::~Ctor() {} void Ctor::v() {}
struct Inh : Ctor { using Ctor::Ctor; };
int lambdas() {
  auto a = [](int x) { return x; }; auto b = [](auto x, auto... y) { return x; };
  auto c = []<typename T>(T t, std::vector<T> v) { return t; };
  struct Local { int f() { return 1; } }; Local l;
  std::function<int(int)> f = a; Inh ii(3);
  return a(1) + b(2, 3, 4) + c(3, std::vector<int>{}) + l.f() + f(3);
}
int (*lambda_ptr())(int) { return [](int x) { return x * 2; }; }
struct OpNew { void* operator new(std::size_t); void operator delete(void*); void* operator new[](std::size_t); void operator delete[](void*) noexcept; };
void* OpNew::operator new(std::size_t n) { return ::operator new(n); } void OpNew::operator delete(void* p) { ::operator delete(p); }
void* OpNew::operator new[](std::size_t n) { return ::operator new(n); } void OpNew::operator delete[](void* p) noexcept { ::operator delete(p); }
long double operator""_ld(long double x) { return x; } int operator""_i(const char*) { return 1; }
struct Conv { operator int(); operator const char*() const; explicit operator bool() const &; template <class T> operator T&(); };
Conv::operator int() { return 1; } Conv::operator const char*() const { return ""; } Conv::operator bool() const & { return true; }
struct [[gnu::abi_tag("tag1", "tag2")]] Tagged { int f(); }; int Tagged::f() { return 1; }
std::string str_ret(std::string s, std::wstring w, std::istream& i, std::ostream& o, std::iostream& io) { return s; }
enum class E1 : short { A, B }; template <E1 e> int eval() { return (int)e; }
template <typename T> struct Outer { template <typename U> struct Inner { template <typename V> static V f(T, U, V); }; };
template <typename T> template <typename U> template <typename V> V Outer<T>::Inner<U>::f(T, U, V) { return V(); }
template <template <typename> class TT> int tt(TT<int>) { return 0; }
int trans() __attribute__((noinline));
int trans() { return 1; }
struct Sb { int a, b; }; auto [sb1, sb2] = Sb{1, 2};
template <typename T> struct Mem { int T::* pm; void (T::*pf)(int) const volatile &&; };
template <class T> void fnref(T&&) {}
template <class... T> void packs(std::tuple<T...>, T*...) {}
int use() {
  int ar[5]; Box<int> bi{1}; Box<std::string> bs{"a"};
  std::vector<int> vv; std::string ss;
  int r = arr(ar) + count(1, 2.0, 'c') + twice(3) + (int)half(3.0) + size_of(ss) + add(1, 2.5) + neg(3) + call([]{ return 1; }) + (int)castit(3) + cond(1) + *newit(5) + idx(&r) + nx(1);
  r += val<int, 3>() + bval<true>() + cval<'x'>() + aval<42>() + aval<3u>() + aval<-7L>() + sval<gstr>() + eval<E1::B>();
  r += Outer<int>::Inner<char>::f(1, 'c', 2L);
  r += tt<Box>(bi) + bi.map([](int x) { return x; }); bi[0]; bi(1); Box<int>{}(2);
  struct P { int x; } pp{1}; r += mem(pp) + ptr(&pp);
  fnref(r); fnref(3); packs(std::tuple<int, char>{}, &r, (char*)nullptr);
  Mem<Sb> m; (void)m; Tagged t; r += t.f() + guarded() + lambdas() + trans() + lambda_ptr()(2);
  D d; Cov2 cv; r += d.f() + cv.get() == nullptr; r += bi < bi; r += bi == bi; r += (bi <=> bi) == 0;
  r += 1.0_ld + 5_i; Conv cc; r += (int)cc;
  std::map<std::string, std::vector<std::pair<int, std::function<void(int&&, const char*)>>>> mm; r += mm.size();
  auto up = std::make_unique<Anon>(); auto sp = std::make_shared<D>(); r += up->x;
  OpNew* on = new OpNew; delete on; on = new OpNew[2]; delete[] on;
  return r + tls_s.size();
}
int main() { std::cout << use() << std::endl; return 0; }
