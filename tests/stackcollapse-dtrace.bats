#!/usr/bin/env bats
# stackcollapse-dtrace: DTrace and bpftrace stack aggregations to folded.

load helper

D=$BATS_TEST_DIRNAME/data/dtrace
sc() { "$BIN/stackcollapse-dtrace" "$@"; }

# case NAME [ARGS...]: NAME.txt through the tool, compared with NAME.folded,
# no message, exit 0.
case_ok() {
	local name=$1 gold=$1
	shift
	[ $# -gt 0 ] && { gold=$1; shift; }
	run --separate-stderr sc "$@" "$D/$name.txt"
	[ "$status" -eq 0 ] || fail "status $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	golden "$D/$gold.folded"
}

@test "ustack(): the usual dtrace -o capture, 3-line header" {
	case_ok ustack
}

@test "leaf frames of one function merge (offsets removed), counts summed" {
	run sc "$D/ustack.txt"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[2]}" == *"libc.so.1\`poll;libc.so.1\`__pollsys 44" ]]
}

@test "--includeoffset keeps the offsets, but the leaf's" {
	case_ok ustack ustack-offset --includeoffset
	[[ "${lines[2]}" == *"libc.so.1\`poll+0x52;libc.so.1\`__pollsys 44" ]]
}

@test "stdin when no file, and '-'" {
	run sc < "$D/ustack.txt"
	golden "$D/ustack.folded"
	run sc - < "$D/ustack.txt"
	golden "$D/ustack.folded"
}

@test "dtrace -q output: no header, a printf line, records found anyway" {
	case_ok quiet
	[ "${#lines[@]}" -eq 2 ]
}

@test "no header at all: the first record starts on line 1 and is kept" {
	case_ok no-header
	[ "${lines[0]}" = "sshd\`main;sshd\`packet_send2;sshd\`buffer_put_cstring;libc.so.1\`strlen 2" ]
}

@test "@[stack(), ustack()]: user frames below kernel frames, blank line inside" {
	case_ok kernel-user
	[ "${lines[2]}" = "unix\`thread_start;unix\`idle;unix\`cpu_idle_mwait;unix\`i86_mwait 300" ]
}

@test "bare hex frames are kept; a '+' that is not an offset is not cut" {
	case_ok hex
	[ "${lines[0]}" = "app\`main;app\`run;libstdc++.so.6\`0x7f3a2b1c 1" ]
	[ "${lines[2]}" = "unix\`0xfffffffffb800c91;unix\`trap;0xfffffffffb8001d6 3" ]
}

@test "Java: -> chains split, inlined pieces get _[i], L and ; cleaned" {
	case_ok java
	[[ "${lines[0]}" == "libc.so.1\`_lwp_start;java/lang/Thread:run;com/example/cache/LruCache:get 2" ]]
	[[ "${lines[2]}" == *";com/example/api/Handler:handle;com/example/api/Handler:authorize_[i];com/example/auth/Token:verify_[i];"* ]]
	[[ "${lines[2]}" == *";java/util/HashMap:getNode;java/util/HashMap:hash_[i] 14" ]]
}

@test "Java with --includeoffset: offsets inside chains kept" {
	case_ok java java-offset --includeoffset
}

@test "C++: argument lists and template arguments after a scope are cut" {
	case_ok cplusplus
	[ "${lines[0]}" = "app\`main;app\`Engine::run;app\`OrderBook::add;app\`(anonymous namespace)::match 2" ]
	[ "${lines[1]}" = "app\`main;app\`Engine::run;app\`OrderBook::add;app\`std::map<int, Level>::operator[];libc.so.1\`operator new(unsigned long) 4" ]
}

@test "bpftrace @[kstack]: detected, Attaching line skipped, +offsets cut, empty stack is -" {
	case_ok bpftrace-kstack
	[ "${lines[0]}" = "- 5" ]
	[ "${lines[2]}" = "secondary_startup_64_no_verify;start_secondary;cpu_startup_entry;do_idle;default_idle_call;arch_cpu_idle;default_idle;native_safe_halt 2200" ]
}

@test "bpftrace @[kstack, ustack] and @name[comm, kstack]; scalar maps skipped" {
	case_ok bpftrace-multi
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" == "0x55d6c0a1b2c3;__libc_start_call_main;main;grep_file;fill_buffer;__GI___libc_read;entry_SYSCALL_64_after_hwframe;"* ]]
	[ "${lines[2]}" = "grep;ksys_read;vfs_read;filemap_read 40" ]
	case_ok bpftrace-multi bpftrace-multi-offset --includeoffset
	[ "${lines[2]}" = "grep;ksys_read+103;vfs_read+582;filemap_read 40" ]
}

@test "bpftrace: a cut record and a hist() value are reported, the rest kept" {
	run --separate-stderr sc "$D/bpftrace-truncated.txt"
	[ "$status" -eq 0 ]
	golden "$D/bpftrace-truncated.folded"
	[ "${stderr_lines[0]}" = "stackcollapse-dtrace: $D/bpftrace-truncated.txt:12: record without a count (input ends); dropped" ]
	[ "${stderr_lines[1]}" = "stackcollapse-dtrace: $D/bpftrace-truncated.txt:9: unrecognized line (1 unrecognized line ignored)" ]
	run --separate-stderr sc --strict "$D/bpftrace-truncated.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-dtrace: $D/bpftrace-truncated.txt:9: unrecognized line" ]
	[ -z "$output" ]
}

@test "truncated last record: warning with file:line, dropped, exit 0" {
	run --separate-stderr sc "$D/truncated.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-dtrace: $D/truncated.txt:17: record without a count (input ends); dropped" ]
	golden "$D/truncated.folded"
}

@test "--strict: a truncated record is an error, exit 1, no output" {
	run --separate-stderr sc --strict "$D/truncated.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-dtrace: $D/truncated.txt:17: record without a count (input ends)" ]
	[ -z "$output" ]
	run --separate-stderr sc --strict "$D/ustack.txt"
	[ "$status" -eq 0 ]
	golden "$D/ustack.folded"
}

@test "-q and --quiet silence the warning, not the result" {
	for q in -q --quiet; do
		run --separate-stderr sc $q "$D/truncated.txt"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		golden "$D/truncated.folded"
	done
}

@test "each file is its own capture: header found and truncation seen per file" {
	run --separate-stderr sc "$D/truncated.txt" "$D/no-header.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-dtrace: $D/truncated.txt:17: record without a count (input ends); dropped" ]
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[0]}" = "rsync\`main;rsync\`send_files;rsync\`match_sums;rsync\`get_checksum1 11" ]
	[ "${lines[2]}" = "sshd\`main;sshd\`packet_send2;sshd\`buffer_put_cstring;libc.so.1\`strlen 2" ]
}

@test "several files are summed" {
	run sc "$D/ustack.txt" "$D/ustack.txt"
	[[ "${lines[2]}" == *"libc.so.1\`__pollsys 88" ]]
}

@test "non-UTF-8 bytes pass through unchanged" {
	case_ok non-utf8
	[ "$output" = $'app`main;app`\xff\xfehandler;caf\xe9`cr\xe8me_br\xfbl\xe9e 4' ]
}

@test "CRLF line ends: the same result as LF" {
	case_ok crlf
	diff "$D/crlf.folded" "$D/no-header.folded"
}

@test "Rust names left as they are by default" {
	case_ok rust
	grep -q '_ZN7ripgrep4main17h9d1f1e2c3b4a5968E' "$D/rust.folded"
}

@test "--demangle-rust: _ZN...E, \$LT\$ escapes, ::h hashes" {
	case_ok rust rust-demangle --demangle-rust
	[ "${lines[0]}" = "libdyld.dylib\`start;ripgrep\`main;ripgrep\`ripgrep::main;ripgrep\`<&mut W as core::fmt::Write>::write_str 3" ]
	[ "${lines[2]}" = "libdyld.dylib\`start;ripgrep\`main;ripgrep\`std::rt::lang_start;ripgrep\`core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}> 2" ]
	[[ "${lines[1]}" == *";ripgrep\`<alloc::vec::Vec<T,A> as core::clone::Clone>::clone;ripgrep\`alloc::raw_vec::finish_grow;"* ]]
}

@test "--demangle-rust: other escapes, and names that are not Rust" {
	# (--demangle-rust is --demangle: the C++ name is demangled too)
	run sc --demangle-rust < <(printf '    x`_ZN3foo13$BP$$SP$$u7e$3bar17h0123456789abcdefE\n    _ZN3foo3barEv+0x1\n    m`a::b::h0123\n  1\n')
	[ "$output" = 'm`a::b::h0123;foo::bar;x`foo::*@~::bar 1' ]
}

@test "--demangle-rust: c++filt's rules, a hash with 5 distinct digits at least" {
	# As c++filt: no hash, or one of fewer than 5 distinct hex digits, is
	# not a Rust legacy name but a C++ one, printed with its "hash" (and
	# a name split by DTrace is left as it is).
	run sc --demangle-rust < <(printf '    x`_ZN3foo3bar17h5a5a5a5a5a5a5a5aE\n    x`_ZN3foo3barE\n    x`foo::bar::h5a5a5a5a5a5a5a5a\n    x`foo::bar::h5a5a5a5a5a5a5a5b\n  1\n')
	[ "$output" = 'x`foo::bar::h5a5a5a5a5a5a5a5b;x`foo::bar::h5a5a5a5a5a5a5a5a;x`foo::bar;x`foo::bar::h5a5a5a5a5a5a5a5a 1' ]
	run sc --demangle-rust < <(printf '    x`foo::bar::h5a1b2c3d4e5f6a7b\n    x`_ZN3foo3bar17h5a1b2c3d4e5f6a7bE.llvm.42\n  1\n')
	[ "$output" = 'x`foo::bar;x`foo::bar 1' ]
}

@test "--demangle-rust: v0 names (_R), and macOS's extra leading underscore" {
	run sc --demangle-rust < <(printf '    x`_RINvCs1234_1m4workmEB2_+0x10\n    x`__RNvCs1234_1m4main\n    x`__ZN3std2rt10lang_start17h0123456789abcdefE\n    x`_RNvC1m1x.llvm.7\n  1\n')
	[ "$output" = 'x`m::x;x`std::rt::lang_start;x`m::main;x`m::work::<u32> 1' ]
}

@test "--demangle: C++ names as c++filt -p prints them (module\`sym, bpftrace, macOS '__Z')" {
	run sc --demangle < <(printf '%s\n' \
	    '    cxxwork`_ZNK12_GLOBAL__N_15Fnv1aclERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE+0x2a' \
	    '    cxxwork`_ZN5store5IndexINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEElN12_GLOBAL__N_15Fnv1aEE3putERKS6_l+0x11' \
	    '    cxxwork`_Z7apply_nIZ4mainEUliE_EdT_i+0x5' \
	    '    cxxwork`__ZL4walki.isra.0+0x9' \
	    '    _ZZ4mainENKUliE_clEi+16' \
	    '    libstdc++.so.6`_ZTv0_n24_NSoD1Ev' \
	    '    cxxwork`main+0x99' \
	    '  7')
	[ "$status" -eq 0 ]
	[ "$output" = 'cxxwork`main;libstdc++.so.6`virtual thunk to std::basic_ostream<char, std::char_traits<char> >::~basic_ostream();main::{lambda(int)#1}::operator();cxxwork`walk;cxxwork`apply_n<main::{lambda(int)#1}>;cxxwork`store::Index<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, long, (anonymous namespace)::Fnv1a>::put;cxxwork`(anonymous namespace)::Fnv1a::operator() 7' ]
	# without the option, the names are kept (cut at the last '(' or '<'
	# after a '::', as stackcollapse.pl does with the names DTrace demangles)
	run sc < <(printf '    x`_ZN1A1fEv+0x1\n    x`A::g(int) const+0x1\n  1\n')
	[ "$output" = 'x`A::g;x`_ZN1A1fEv 1' ]
}

@test "--demangle: what c++filt -p leaves is left, as without the option; --demangle-rust is the same option" {
	# (c++filt -p stops after the name: _Z1fS_ is f, _ZN1A1fE1 is A::f;
	# a name over 1024 bytes is left, as c++filt leaves it)
	local long a in
	long=_Z1f$(printf 'P%.0s' $(seq 1030))i
	in="    x\`_Z1fS_+0x1\n    x\`_ZN1A1fE1\n    x\`_Zfoo\n    x\`_R\n    x\`_GLOBAL__sub_I_a.cc\n    x\`_GLOBAL__I_a\n    x\`$long\n  2\n"
	run sc --demangle < <(printf "$in")
	[ "$output" = "x\`$long;x\`global constructors keyed to a;x\`_GLOBAL__sub_I_a.cc;x\`_R;x\`_Zfoo;x\`A::f;x\`f 2" ]
	a=$output
	run sc --demangle-rust < <(printf "$in")
	[ "$output" = "$a" ]
	run sc --demangle-rust < <(printf '    x`_ZN3foo3barEv\n    y`_RNvC1m4main\n  1\n')
	[ "$output" = 'y`m::main;x`foo::bar 1' ]
}

@test "a record with no frame counts as '-'; a count of 0 is kept" {
	run sc < <(printf '\n\n                5\n\n    a`b+0x1\n    0\n')
	[ "$output" = $'- 5\na`b 0' ]
}

@test "counts are exact to 2^64-1; a larger count or sum is an error" {
	run --separate-stderr sc < <(printf '  a\n  18446744073709551615\n')
	[ "$status" -eq 0 ]
	[ "$output" = "a 18446744073709551615" ]
	run --separate-stderr sc < <(printf '  a\n  18446744073709551615\n  a\n  1\n  b\n  2\n')
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-dtrace: <stdin>:4: sum of counts larger than 18446744073709551615; record dropped" ]
	[ "$output" = $'a 18446744073709551615\nb 2' ]
	run --separate-stderr sc < <(printf '  a\n  18446744073709551616\n')
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-dtrace: <stdin>:2: count larger than 18446744073709551615; record dropped" ]
	[ -z "$output" ]
}

@test "output is sorted by bytes, identical stacks summed" {
	run sc < <(printf '  b\n  1\n  B\n  2\n  a\n  b\n  3\n  b\n  4\n  \xc3\xa9\n  5\n')
	[ "$output" = $'B 2\nb 5\nb;a 3\n\xc3\xa9 5' ]
}

@test "a missing file is named, the others still read, exit 1" {
	run --separate-stderr sc /nonexistent/x.txt "$D/no-header.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-dtrace: /nonexistent/x.txt: No such file or directory" ]
	golden "$D/no-header.folded"
}

@test "usage errors exit 2" {
	run --separate-stderr sc --bogus
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[1]}" == "usage: stackcollapse-dtrace "* ]]
	run --separate-stderr sc -x
	[ "$status" -eq 2 ]
	run --separate-stderr sc --includeoffset=yes
	[ "$status" -eq 2 ]
}

@test "--help, --version, usage matches the man page, lint" {
	run sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-dtrace "* ]]
	[[ "$output" == *"--demangle-rust"* ]]
	[[ "$output" == *"--demangle "* ]]
	run sc -h
	[ "$status" -eq 0 ]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^stackcollapse-dtrace\ \(foldkit\)\ [0-9.]+$ ]]
	usage_matches_man stackcollapse-dtrace
	man_lint stackcollapse-dtrace.1
}

@test "/dev/full is a write error, exit 1; | head ends quietly" {
	full_disk stackcollapse-dtrace "$D/ustack.txt"
	awk 'BEGIN { for (i = 0; i < 40000; i++)
		printf "    app`leaf%d+0x1\n    app`main+0x2\n  %d\n\n", i, i + 1 }' > "$BATS_TEST_TMPDIR/many"
	closed_pipe 'app`main;app`leaf0 1' stackcollapse-dtrace "$BATS_TEST_TMPDIR/many"
}

@test "long frames and deep records (buffer growth)" {
	awk 'BEGIN { s = ""; for (i = 0; i < 5000; i++) s = s "x"
		for (d = 0; d < 3000; d++) printf "    m`f%d_%s+0x%x\n", d, s, d
		print "  7" }' > "$BATS_TEST_TMPDIR/deep"
	run sc "$BATS_TEST_TMPDIR/deep"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(printf '%s' "$output" | tr ';' '\n' | wc -l)" -eq 2999 ]
	[[ "$output" == "m\`f2999_x"*"x;m\`f2998_x"* ]]
	[[ "$output" == *";m\`f0_xxxx"*"x 7" ]]
}

@test "a record past 4 KB with ';' and '-' in its frames (was: stray bytes)" {
	awk 'BEGIN { for (d = 0; d < 300; d++) printf "    m`ns::f%d;x-y+0x%x\n", d, d; print "  7" }' > "$BATS_TEST_TMPDIR/big"
	awk 'BEGIN { for (d = 299; d >= 0; d--) printf "%sm`ns::f%d:x-y", (d < 299 ? ";" : ""), d; print " 7" }' > "$BATS_TEST_TMPDIR/want"
	sc "$BATS_TEST_TMPDIR/big" > "$BATS_TEST_TMPDIR/out"
	cmp "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/want"
}
