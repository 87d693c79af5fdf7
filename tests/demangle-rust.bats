#!/usr/bin/env bats
# The Rust demangler (fold_demangle_rust, alone and through fold_demangle):
# byte for byte what GNU c++filt -i and c++filt -i -p print.
#
# data/demangle/rust-sample.txt: symbol, c++filt -i, c++filt -i -p (binutils
# 2.40), tab-separated: symbols of the Rust toolchain's libraries picked for
# every construct (dyn, for<>, extern "ABI", consts, shims, punycode...),
# those of rust-sample.rs and rust-consts.rs, generated v0 and legacy
# symbols, valid and not, real symbols with bytes changed, and v0 ones on
# either side of the fast path's bounds (paths and types nested 29 to 33
# deep, 32 and 33 back-references parsed, 1,024 and 1,025 bytes).  Where
# c++filt prints an empty name (_RC0_) or runs for ever (back-references
# in loops) the symbol is not in the sample.

load helper

D=$DATA/demangle
dm() { "$TESTBIN/demangle" "$@"; }

need_cxxfilt() {
	command -v c++filt >/dev/null || skip "c++filt is not installed"
}

need_rustc() {
	command -v rustc >/dev/null || skip "rustc is not installed"
	command -v readelf >/dev/null || skip "readelf is not installed"
}

# The Rust symbols (v0 _R..., legacy _ZN...17h<hash>E) of objects, one a
# line, sorted, without a version (@...).
rust_syms() {
	readelf -Ws "$@" 2>/dev/null |
		awk 'NF >= 8 && $1 ~ /^[0-9]+:$/ { s = $8; sub(/@.*/, "", s); print s }' |
		grep -E '^_R|^_ZN.*17h[0-9a-f]{16}E' | sort -u
}

# same LIST: ours equal c++filt -i, -i -p, and the Rust demangler alone
# c++filt's Rust style; prints "N symbols, N equal" on fd 3.
same() {
	local list=$1 n k t=$BATS_TEST_TMPDIR
	n=$(wc -l < "$list")
	[ "$n" -gt 0 ] || { fail "no symbols in $list"; return 1; }
	c++filt -i < "$list" > "$t/cf"
	c++filt -i -p < "$list" > "$t/cfp"
	c++filt -i -s rust < "$list" > "$t/cfr"
	dm < "$list" > "$t/ours"
	dm -p < "$list" > "$t/oursp"
	dm -R < "$list" > "$t/oursr"
	k=$(paste -d '\n' "$t/cf" "$t/ours" | awk 'NR % 2 { a = $0; next } a == $0' | wc -l)
	echo "# $(basename "$list"): $n symbols, $k equal to c++filt -i" >&3
	diff "$t/cf" "$t/ours" | head -20 >&2
	cmp -s "$t/cf" "$t/ours" || { fail "differs from c++filt -i"; return 1; }
	cmp -s "$t/cfp" "$t/oursp" || { diff "$t/cfp" "$t/oursp" | head >&2; fail "differs from c++filt -i -p"; return 1; }
	cmp -s "$t/cfr" "$t/oursr" || { diff "$t/cfr" "$t/oursr" | head >&2; fail "differs from c++filt -i -s rust"; return 1; }
}

@test "golden sample: c++filt -i and c++filt -i -p, byte for byte" {
	cut -f1 "$D/rust-sample.txt" > "$BATS_TEST_TMPDIR/syms"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/syms")" -gt 3000 ]
	diff <(cut -f2 "$D/rust-sample.txt") <(dm < "$BATS_TEST_TMPDIR/syms")
	diff <(cut -f3 "$D/rust-sample.txt") <(dm -p < "$BATS_TEST_TMPDIR/syms")
}

@test "golden sample: what the Rust demangler alone leaves, C++ demangles" {
	# Lines the Rust demangler left (to C++ or as they are) are the
	# legacy-looking and malformed ones, never a valid Rust name.
	cut -f1 "$D/rust-sample.txt" > "$BATS_TEST_TMPDIR/syms"
	paste "$BATS_TEST_TMPDIR/syms" <(dm -R < "$BATS_TEST_TMPDIR/syms") \
	    <(cut -f2 "$D/rust-sample.txt") |
		awk -F '\t' '$1 != $2 && $2 != $3 { print; bad++ }
		    $1 == $2 { left++ } END { print left + 0 > "/dev/stderr"; exit bad > 0 }'
}

@test "the Rust toolchain's libraries and programs (v0; rustup: legacy): as c++filt" {
	need_cxxfilt
	need_rustc
	local sr
	sr=$(rustc --print sysroot)
	rust_syms "$sr"/lib/*.so "$sr"/lib/rustlib/*/lib/*.so \
	    "$sr"/lib/rustlib/*/lib/*.rlib "$sr"/bin/* \
	    $(command -v rustup) > "$BATS_TEST_TMPDIR/toolchain.syms"
	same "$BATS_TEST_TMPDIR/toolchain.syms"
}

@test "our programs, v0 and legacy mangling, built now: as c++filt" {
	need_cxxfilt
	need_rustc
	local t=$BATS_TEST_TMPDIR
	rustc --crate-name m -C opt-level=0 -C symbol-mangling-version=v0 --emit=obj \
	    -o "$t/v0.o" "$D/rust-sample.rs" 2>/dev/null
	# legacy: the default of stable rustc; the flag is unstable.
	rustc --crate-name m -C opt-level=0 --emit=obj -o "$t/legacy.o" "$D/rust-sample.rs" 2>/dev/null
	rust_syms "$t/v0.o" > "$t/v0.syms"
	rust_syms "$t/legacy.o" > "$t/legacy.syms"
	grep -q '^_ZN.*17h' "$t/legacy.syms" || skip "this rustc does not default to legacy mangling"
	# Unicode identifiers (punycode), const generics, closures, shims.
	grep -q 'u[0-9]*_*gr' "$t/v0.syms"
	same "$t/v0.syms"
	same "$t/legacy.syms"
	dm < "$t/v0.syms" > "$t/v0.out"
	dm < "$t/legacy.syms" > "$t/legacy.out"
	grep -qxF 'm::größe::日本::çà::<u8>' "$t/v0.out"
	grep -qxF "<m::Ch<'\\u{1f600}'>>::get" "$t/v0.out"
	grep -qF 'm::gr$uf6$$udf$e::' "$t/legacy.out"
	# str and structural consts (nightly features): c++filt 2.40 leaves
	# them, so do we.
	RUSTC_BOOTSTRAP=1 rustc --edition 2021 -C opt-level=0 \
	    -C symbol-mangling-version=v0 --emit=obj -o "$t/c.o" \
	    "$D/rust-consts.rs" 2>/dev/null || skip "rust-consts.rs needs RUSTC_BOOTSTRAP"
	rust_syms "$t/c.o" > "$t/c.syms"
	same "$t/c.syms"
}

@test "legacy: the hash dropped, escapes, '..', '_\$', '.suffix'; or left for C++" {
	run dm -R < <(printf '%s\n' \
	    '_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$17h1b3d5f7a9c2e4d6fE' \
	    '_ZN67_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..clone..Clone$GT$5clone17h7f3e5c2a1b9d0e84E.llvm.42' \
	    '_ZN3foo12$BP$$SP$$RF$17h0123456789abcdefE' \
	    '_ZN3foo6a$XY$b17h0123456789abcdefE' \
	    '_ZN3foo3bar17h5a5a5a5a5a5a5a5aE' \
	    '_ZN3foo3barE' \
	    '__ZN3foo3bar17h0123456789abcdefE')
	[ "${lines[0]}" = 'core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>' ]
	[ "${lines[1]}" = '<alloc::vec::Vec<T,A> as core::clone::Clone>::clone' ]
	[ "${lines[2]}" = 'foo::*@&' ]
	[ "${lines[3]}" = 'foo::a$XY$b' ]
	# fewer than 5 distinct hex digits: not a hash; no hash; "__": not Rust
	[ "${lines[4]}" = '_ZN3foo3bar17h5a5a5a5a5a5a5a5aE' ]
	[ "${lines[5]}" = '_ZN3foo3barE' ]
	[ "${lines[6]}" = '__ZN3foo3bar17h0123456789abcdefE' ]
	# ... which fold_demangle then gives to C++, as c++filt does
	run dm < <(printf '_ZN3foo3bar17h5a5a5a5a5a5a5a5aE\n')
	[ "$output" = 'foo::bar::h5a5a5a5a5a5a5a5a' ]
}

@test "v0: impls, generics, dyn, fn pointers, consts, closures, shims, punycode" {
	run dm -R < <(printf '%s\n' \
	    '_RNvMNtCs1234_1m1aINtB4_1SmE3new' \
	    '_RNvXs_Cs1_1mNtB4_1TNtNtCs2_4core3fmt7Display3fmt' \
	    '_RNvYNtC1m1TNtC1m2Tr2go' \
	    '_RINvC1m1fDG_INtC1m2FnTRL0_eEEp6OutputjEL_E' \
	    '_RINvC1m1fFG_UKCRL0_hEuE' \
	    '_RINvC1m1fFK8Rust_abiEzE' \
	    '_RINvC1m1fKj2a_Kanff_Kb1_Kc78_Kc7e_KpE' \
	    '_RNSNCNvC1m4main0s_6vtable' \
	    '_RNvNtC1m1au9gre_6ka8i' \
	    '_RINvC1m1fATmSOhEj0_E' \
	    '_RNvC1m4main.llvm.123')
	[ "${lines[0]}" = '<m::S<u32>>::new' ]
	[ "${lines[1]}" = '<m::T as core::fmt::Display>::fmt' ]
	[ "${lines[2]}" = '<m::T as m::Tr>::go' ]
	[ "${lines[3]}" = "m::f::<dyn for<'a> m::Fn<(&'a str,), Output = usize>>" ]
	[ "${lines[4]}" = "m::f::<for<'a> unsafe extern \"C\" fn(&'a u8)>" ]
	[ "${lines[5]}" = 'm::f::<extern "Rust-abi" fn() -> !>' ]
	[ "${lines[6]}" = "m::f::<42, -255, true, 'x', '\\u{7e}', _>" ]
	[ "${lines[7]}" = 'm::main::{closure#0}::{shim:vtable#1}' ]
	[ "${lines[8]}" = 'm::a::größe' ]
	[ "${lines[9]}" = 'm::f::<[(u32, [*mut u8]); 0]>' ]
	[ "${lines[10]}" = 'm::main' ]
}

@test "v0: what c++filt 2.40 leaves, we leave (str and structural consts, bad input)" {
	local s
	for s in _RINvC3foo3barKe3abc_E _RINvC3foo3barKRe3abc_E \
	    _RINvC3foo3barKA1_1_EE _R0NvC3foo3bar _RNvB_1a _RB_ \
	    _RNvC3foo3barC3ba '_RNvC3foo3bar@x' _RNvC1m1fx; do
		run dm -R <<< "$s"
		[ "$output" = "$s" ] || fail "$s: $output"
	done
}

@test "limits: 1023 nested types demangle, 1024 do not (as c++filt)" {
	local r
	r=$(printf 'R%.0s' $(seq 1023))
	run dm -R <<< "_RINvC1a1b${r}uE"
	[ "${output:0:8}" = 'a::b::<&' ] && [ "${#output}" -eq $((7 + 1023 + 3)) ]
	run dm -R <<< "_RINvC1a1b${r}RuE"
	[ "$output" = "_RINvC1a1b${r}RuE" ]
}

@test "limits: a back-reference copied counts the levels it took (as c++filt)" {
	# Type 1 is 600 references deep; type 2, a tuple of a back-reference
	# to it, is printed once, then copied under 420 references (1023
	# levels in all: it demangles) or 421 (1024: c++filt gives up).
	local r600 r s n
	r600=$(printf 'R%.0s' $(seq 600))
	for n in 420 421; do
		r=$(printf 'R%.0s' $(seq $n))
		s="_RINvC1a1f${r600}uTB7_EB9O_${r}B9O_E"
		run dm -R <<< "$s"
		if [ "$n" -eq 420 ]; then
			[ "${output:0:8}" = 'a::f::<&' ] || fail "$n: $output"
		else
			[ "$output" = "$s" ] || fail "$n: ${output:0:40}"
		fi
		if command -v c++filt >/dev/null; then
			[ "$output" = "$(c++filt -i "$s")" ]
		fi
	done
}

@test "limits: a name longer than 64 KiB is left as it is, at once" {
	# Type k is a tuple of two back-references to type k-1: the name
	# doubles at each level (c++filt prints 2^60 bytes, for ever).
	local s
	s=$(awk 'function b62(v,  s, d) { if (v == 0) return "_"; v--; s = "";
		do { d = v % 62; s = substr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", d + 1, 1) s; v = int(v / 62) } while (v > 0); return s "_" }
		BEGIN { s = "INvC1a1bTuuE"; p = 8; for (k = 1; k <= 60; k++) { q = length(s); s = s "TB" b62(p) "B" b62(p) "E"; p = q } print "_R" s "E" }')
	run timeout 20 "$TESTBIN/demangle" -R <<< "$s"
	[ "$status" -eq 0 ]
	[ "$output" = "$s" ]
	# 12 levels fit (c++filt agrees where it ends)
	s=$(awk 'function b62(v,  s, d) { if (v == 0) return "_"; v--; s = "";
		do { d = v % 62; s = substr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", d + 1, 1) s; v = int(v / 62) } while (v > 0); return s "_" }
		BEGIN { s = "INvC1a1bTuuE"; p = 8; for (k = 1; k <= 11; k++) { q = length(s); s = s "TB" b62(p) "B" b62(p) "E"; p = q } print "_R" s "E" }')
	run dm -R <<< "$s"
	[ "$output" != "$s" ] && [ "${#output}" -gt 20000 ] && [ "${#output}" -le 65536 ]
	if command -v c++filt >/dev/null; then
		[ "$output" = "$(c++filt -i "$s")" ]
	fi
}
