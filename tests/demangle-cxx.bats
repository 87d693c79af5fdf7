#!/usr/bin/env bats
# The C++ demangler (fold_demangle_cxx, alone and through fold_demangle):
# byte for byte what GNU c++filt -i and c++filt -i -p print.
#
# data/demangle/cxx-sample.txt: symbol, c++filt -i, c++filt -i -p (binutils
# 2.40), tab-separated: 3306 symbols picked from the C++ objects of a Debian
# 12 machine for every construct (special names, thunks, clones, lambdas,
# unnamed types, ABI tags, packs, decltype and other expressions, literals,
# vendor types, modules...), those of cxx-sample.cc built by g++ and
# clang++, real symbols with bytes changed, cut or swapped (most of
# which c++filt leaves as they are, or demangles in its own way), and at
# the end the edges of the fast path (demangle_cxx.c: where it must give
# up to the two passes, and two inputs that libFuzzer found it got wrong),
# and its expressions in template arguments: X sr <prefix> E <name> E and
# X ad L_Z <encoding> E E, with the shapes it leaves to the two passes
# (its substitutions that hold its T_, used after it), and a substitution
# read in the expansion of an empty pack (both found by libFuzzer), and the
# local statics it takes (Z <encoding> E <name>, with discriminators),
# internal-linkage names (_ZL3foov, _ZN1AL1bE), clone suffixes (.cold,
# .isra.0), ref-qualified member functions and cv-qualified D builtins;
# and last, lambdas in nested names (with the shapes it leaves: auto:N
# parameters, directly or through a substitution, packs, ABI tags, ctors,
# malformed) and references to arrays and functions collapsed through a
# template parameter (& and && as &: left), arrays given through one
# with a qualifier, pointer or reference ("int const (&) [3]", and the
# substitutions made inside, which it leaves), and chains of them written
# out, which libiberty prints in its own way (found by libFuzzer); and
# conversion operators (with those it leaves: template parameters,
# function and array types, template arguments, ABI tags, unscoped),
# and templates of ctors and dtors (their parameters use their template
# arguments; no return type, but a second list has one: found by
# libFuzzer), and local names as types (typeinfo for
# f()::S, g<f<int>(int)::{lambda()#1}>: the inner function's template
# arguments its own, its substitutions that hold its T_ left; template
# arguments after the entity left: found by libFuzzer), with their
# discriminators; lambdas in types under modifiers (a const pointer to
# one: libiberty prints their qualified, array and function parameters
# with the modifiers waiting, found by libFuzzer); auto and
# decltype(auto) (Da, Dc).

load helper

D=$DATA/demangle
dm() { "$TESTBIN/demangle" "$@"; }

need_cxxfilt() {
	command -v c++filt >/dev/null || skip "c++filt is not installed"
	command -v readelf >/dev/null || skip "readelf is not installed"
}

# The C++ symbols of objects, one a line, sorted, without a version (@...).
cxx_syms() {
	readelf -Ws --wide "$@" 2>/dev/null |
		awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ { s = $8; sub(/@.*/, "", s); print s }' |
		grep -E '^(_Z|_GLOBAL_[._$][DI]_)' | sort -u
}

# same LIST: ours equal c++filt -i and -i -p, through fold_demangle and
# through fold_demangle_cxx alone (but where the Rust demangler took the
# name); prints "N symbols, N equal" on fd 3.
same() {
	local list=$1 n k t=$BATS_TEST_TMPDIR
	n=$(wc -l < "$list")
	[ "$n" -gt 0 ] || { fail "no symbols in $list"; return 1; }
	c++filt -i < "$list" > "$t/cf"
	c++filt -i -p < "$list" > "$t/cfp"
	dm < "$list" > "$t/ours"
	dm -p < "$list" > "$t/oursp"
	k=$(paste -d '\n' "$t/cf" "$t/ours" | awk 'NR % 2 { a = $0; next } a == $0' | wc -l)
	echo "# $(basename "$list"): $n symbols, $k equal to c++filt -i" >&3
	diff "$t/cf" "$t/ours" | head -20 >&2
	cmp -s "$t/cf" "$t/ours" || { fail "differs from c++filt -i"; return 1; }
	cmp -s "$t/cfp" "$t/oursp" || { diff "$t/cfp" "$t/oursp" | head >&2; fail "differs from c++filt -i -p"; return 1; }
	grep -v '^_ZN.*17h[0-9a-f]\{16\}E' "$list" > "$t/cxxonly"
	c++filt -i < "$t/cxxonly" | cmp -s - <(dm -C < "$t/cxxonly") || { fail "fold_demangle_cxx alone differs"; return 1; }
}

@test "golden sample: c++filt -i and c++filt -i -p, byte for byte" {
	cut -f1 "$D/cxx-sample.txt" > "$BATS_TEST_TMPDIR/syms"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/syms")" -gt 2900 ]
	diff <(cut -f2 "$D/cxx-sample.txt") <(dm < "$BATS_TEST_TMPDIR/syms")
	diff <(cut -f3 "$D/cxx-sample.txt") <(dm -p < "$BATS_TEST_TMPDIR/syms")
	diff <(cut -f2 "$D/cxx-sample.txt") <(dm -C < "$BATS_TEST_TMPDIR/syms" |
	    paste - "$D/cxx-sample.txt" | awk -F '\t' '$2 ~ /^_R|^_ZN.*17h[0-9a-f]+E/ { print $3; next } { print $1 }')
}

@test "every C++ symbol of this machine's libraries and programs: as c++filt" {
	need_cxxfilt
	local t=$BATS_TEST_TMPDIR d
	for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 \
	    /usr/lib /usr/bin /usr/sbin /usr/libexec /usr/local/lib /usr/local/bin; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 -type f \( -name '*.so*' -o -perm -u+x \) -size +8k
	done > "$t/files"
	find /usr/lib -path '*/llvm-*/lib/*.so*' -type f -size +8k >> "$t/files" 2>/dev/null
	sort -u "$t/files" | xargs readelf -Ws --wide 2>/dev/null |
		awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ { s = $8; sub(/@.*/, "", s); print s }' |
		grep -E '^(_Z|_GLOBAL_[._$][DI]_)' | sort -u > "$t/all.syms"
	[ -s "$t/all.syms" ] || skip "no C++ objects on this machine"
	same "$t/all.syms"
}

@test "our program built now by g++ and clang++ at -O0 and -O2: as c++filt" {
	need_cxxfilt
	local t=$BATS_TEST_TMPDIR cc built=0
	for cc in g++ clang++; do
		command -v $cc >/dev/null || continue
		$cc -std=c++20 -w -O0 -c -o "$t/$cc-0.o" "$D/cxx-sample.cc" 2>/dev/null || continue
		$cc -std=c++20 -w -O2 -c -o "$t/$cc-2.o" "$D/cxx-sample.cc" 2>/dev/null || continue
		built=$((built + 1))
	done
	[ "$built" -gt 0 ] || skip "no C++20 compiler"
	cxx_syms "$t"/*.o > "$t/own.syms"
	[ "$(wc -l < "$t/own.syms")" -gt 300 ]
	same "$t/own.syms"
	dm < "$t/own.syms" > "$t/own.out"
	grep -qF 'lambdas()::{lambda(auto:1, (auto:2)...)#2}::operator()<int, int, int>' "$t/own.out"
	grep -qF 'lambdas()::{lambda(auto:1, std::vector<auto:1, std::allocator<auto:1> >)#3}' "$t/own.out"
	grep -qF '(anonymous namespace)::anonf(int)' "$t/own.out"
	grep -qF 'Tagged[abi:tag1][abi:tag2]::f()' "$t/own.out"
	grep -qF 'guard variable for guarded()::s' "$t/own.out"
	grep -qF 'virtual thunk to D::f()' "$t/own.out"
}

@test "special names, clones, std:: abbreviations, spaces" {
	run dm < <(printf '%s\n' _ZTV1A _ZTT1A _ZTI1A _ZTS1A _ZTh8_N1A1fEv \
	    _ZTv0_n24_N1A1fEv _ZTcv0_n24_h8_N1A1fEv _ZTC1B0_1A _ZGVZ1fvE1x \
	    _ZTW1x _ZTH1x _ZGR1x0 _ZGTt1fv _Z1fv.isra.0 \
	    _Z1fv.constprop.0.isra.0 _ZNSs4sizeEv _ZNSsC1Ev _Z1fSs \
	    _ZN12_GLOBAL__N_11fEv _Z1fIN1AIiEEEvT_ _Z1fPFivE _Z1fM1AKFivE \
	    _ZZ4mainENKUliE_clEi _GLOBAL__I_foo _GLOBAL__sub_I_foo.cpp)
	[ "${lines[0]}" = 'vtable for A' ]
	[ "${lines[1]}" = 'VTT for A' ]
	[ "${lines[2]}" = 'typeinfo for A' ]
	[ "${lines[3]}" = 'typeinfo name for A' ]
	[ "${lines[4]}" = 'non-virtual thunk to A::f()' ]
	[ "${lines[5]}" = 'virtual thunk to A::f()' ]
	[ "${lines[6]}" = 'covariant return thunk to A::f()' ]
	[ "${lines[7]}" = 'construction vtable for A-in-B' ]
	[ "${lines[8]}" = 'guard variable for f()::x' ]
	[ "${lines[9]}" = 'TLS wrapper function for x' ]
	[ "${lines[10]}" = 'TLS init function for x' ]
	[ "${lines[11]}" = 'reference temporary #0 for x' ]
	[ "${lines[12]}" = 'transaction clone for f()' ]
	[ "${lines[13]}" = 'f() [clone .isra.0]' ]
	[ "${lines[14]}" = 'f() [clone .constprop.0] [clone .isra.0]' ]
	[ "${lines[15]}" = 'std::string::size()' ]
	[ "${lines[16]}" = 'std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string()' ]
	[ "${lines[17]}" = 'f(std::string)' ]
	[ "${lines[18]}" = '(anonymous namespace)::f()' ]
	[ "${lines[19]}" = 'void f<A<int> >(A<int>)' ]
	[ "${lines[20]}" = 'f(int (*)())' ]
	[ "${lines[21]}" = 'f(int (A::*)() const)' ]
	[ "${lines[22]}" = 'main::{lambda(int)#1}::operator()(int) const' ]
	[ "${lines[23]}" = 'global constructors keyed to foo' ]
	[ "${lines[24]}" = '_GLOBAL__sub_I_foo.cpp' ]
	# without parameters, as c++filt -p and perf print them
	run dm -p < <(printf '%s\n' _Z1fv.isra.0 _ZNK1A1fEv _ZZ4mainENKUliE_clEi _Z1fIiEvT_)
	[ "${lines[0]}" = 'f' ]
	[ "${lines[1]}" = 'A::f' ]
	[ "${lines[2]}" = 'main::{lambda(int)#1}::operator()' ]
	[ "${lines[3]}" = 'f<int>' ]
}

@test "not mangled, or malformed: left as it is" {
	local s
	for s in main _Z _ZN _Zv _Z1 _Z3fo _Z1fx_ _ZN1A1fE1 _Z1fS_ _Z1fT_ \
	    '_Z1f v' Z1fv __Z1fv _ZTcv0_n24_N1A1fEv; do
		run dm <<< "$s"
		[ "$output" = "$s" ] || fail "$s: $output"
	done
}

@test "a NUL byte in a symbol: left as it is, wherever it is" {
	local t=$BATS_TEST_TMPDIR s
	# in a name, in the first 16 bytes and after them, in the last 16,
	# in short symbols and in those that go through the two passes
	for s in '_Z3f\0ov' '_Z1fv\0' '_ZN12abcdefghij\0k3fooEv' \
	    '_ZN5outer12abcdefghijkl3fooEv\0' '_ZN5outer12abcdefghijkl3f\0oEv' \
	    '_ZNK5outer5inner12abcdefghijkl3fooIiEEvRKS0_i\0' \
	    '_ZZ4mainENKUlvE_clEv\0' '_ZN3foo\0bar17h0123456789abcdefE.llvm.1'; do
		printf "$s\n" > "$t/in"
		dm < "$t/in" > "$t/out"
		cmp "$t/in" "$t/out" || fail "$s: $(od -c "$t/out")"
		dm -p < "$t/in" > "$t/out"
		cmp "$t/in" "$t/out" || fail "$s -p: $(od -c "$t/out")"
		dm -C < "$t/in" > "$t/out"
		cmp "$t/in" "$t/out" || fail "$s -C: $(od -c "$t/out")"
	done
	# and the same without the NUL are names
	run dm <<< '_ZN5outer12abcdefghijkl3fooEv'
	[ "$output" = 'outer::abcdefghijkl::foo()' ]
}

@test "limits: names longer than 1024 bytes are left (as c++filt), 1024 are not" {
	local p
	p=$(printf 'P%.0s' $(seq 1019))
	run dm <<< "_Z1f${p}i"
	[ "${output:0:6}" = 'f(int*' ] && [ "${#output}" -eq $((2 + 3 + 1019 + 1)) ]
	run dm <<< "_Z1f${p}Pi"
	[ "$output" = "_Z1f${p}Pi" ]
	if command -v c++filt >/dev/null; then
		[ "$(c++filt -i "_Z1f${p}Pi")" = "_Z1f${p}Pi" ]
	fi
}

# doubling K: f<A, B<A, A>, B<B<A, A>, B<A, A> >, ...>: each level's type
# is B of the previous level's twice, by substitution: 2^K bytes out.
doubling() {
	awk -v K="$1" 'function b36(n,  d, s) { s = ""; do { d = n % 36; s = substr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", d + 1, 1) s; n = int(n / 36) } while (n > 0); return s }
	BEGIN { s = "_Z1fIN1AE"; for (k = 0; k < K; k++) { i = k == 0 ? 1 : 2 * k + 1; r = "S" b36(i - 1) "_"; s = s "N1BI" r r "EE" } print s "Evv" }'
}

@test "limits: a name longer than 64 KiB is left as it is, at once" {
	local s
	s=$(doubling 40)	# c++filt prints 2^40 bytes, for hours
	run timeout 20 "$TESTBIN/demangle" <<< "$s"
	[ "$status" -eq 0 ]
	[ "$output" = "$s" ]
	s=$(doubling 13)	# 106 KiB
	run dm <<< "$s"
	[ "$output" = "$s" ]
	s=$(doubling 12)	# 53 KiB: fits, as c++filt prints it
	run dm <<< "$s"
	[ "$output" != "$s" ] && [ "${#output}" -gt 50000 ] && [ "${#output}" -le 65536 ]
	if command -v c++filt >/dev/null; then
		[ "$output" = "$(c++filt -i "$s")" ]
	fi
}

@test "limits: a parse that goes back at every level is given up at once, not followed for hours" {
	# cv T_ I T_ I ...: libiberty reads each T_'s arguments, then again
	# as none when no second list follows: twice the time a level
	# (c++filt: 0.5 s at 24 levels, hours at 40); as c++filt, left as it is
	local s k
	s=_ZcvT_I
	for k in $(seq 60); do s=${s}T_I; done
	s=${s}i
	run timeout 20 "$TESTBIN/demangle" <<< "$s"
	[ "$status" -eq 0 ]
	[ "$output" = "$s" ]
	# the one libFuzzer found (0.6 s, and 64 under its sanitizers)
	s=$(cat "$BATS_TEST_DIRNAME/fuzz/regress/demangle_fast/conversion-backtracking")
	run timeout 20 "$TESTBIN/demangle" <<< "$s"
	[ "$status" -eq 0 ]
	[ "$output" = "$s" ]
}

@test "hostile: random bytes and cut symbols, no crash, output bounded" {
	"$TESTBIN/randbytes" 200000 7 | tr '\0' '\n' > "$BATS_TEST_TMPDIR/r"
	run timeout 60 "$TESTBIN/demangle" < "$BATS_TEST_TMPDIR/r"
	[ "$status" -eq 0 ]
	cut -f1 "$D/cxx-sample.txt" | awk '{ for (i = 2; i < length($0); i += 7) print substr($0, 1, i) }' > "$BATS_TEST_TMPDIR/cut"
	run timeout 60 "$TESTBIN/demangle" < "$BATS_TEST_TMPDIR/cut"
	[ "$status" -eq 0 ]
	if command -v c++filt >/dev/null; then
		diff <(c++filt -i < "$BATS_TEST_TMPDIR/cut") <(printf '%s\n' "$output")
	fi
}
