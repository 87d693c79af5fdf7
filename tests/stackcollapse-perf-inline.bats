#!/usr/bin/env bats
# The DWARF reader behind stackcollapse-perf's inlined frames (libfold's
# dwarf.c), through the dwarfinl test tool: at addresses across .text, the
# functions it names, and their source lines, must be those `addr2line -i
# -f [-s]` prints (GNU binutils, what perf 6.1 runs), for the objects of our
# captures, libc's debug file and programs compiled here by each compiler
# (DWARF 2, 4 and 5, compressed sections, clang's indexed forms, Rust);
# then damaged files.

load helper

if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/dwarfinl" ]; then
	DWARFINL=$BIN/../test/dwarfinl
else
	DWARFINL=$TESTBIN/dwarfinl
fi
D=$BATS_TEST_DIRNAME/data/perf/pd

setup() {
	command -v readelf > /dev/null || skip "readelf is not installed"
	command -v addr2line > /dev/null || skip "addr2line is not installed"
	addr2line --version | grep -q 'GNU addr2line' || skip "not GNU addr2line"
	T=$BATS_TEST_TMPDIR
}

# secinfo FILE NAME: "ADDRESS OFFSET SIZE" of section NAME, in decimal
secinfo() {
	local a o z
	read -r a o z < <(readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk -v n="$2" '$1 == n { print $3, $4, $5 }')
	[ -n "$z" ] && echo $((16#$a)) $((16#$o)) $((16#$z))
}

# addrs FILE [N]: about N (2000) addresses spread over .text, in order
addrs() {
	local a o z
	read -r a o z < <(secinfo "$1" .text)
	awk -v s="$a" -v z="$z" -v n="${2:-2000}" 'BEGIN {
		st = int(z / n); if (st < 1) st = 1
		for (a = s; a < s + z; a += st) printf "%x\n", a }'
}

# a2l FILE < ADDRS: addr2line's function lines, each address's ended by "--"
a2l() {
	addr2line -a -i -f -e "$1" | awk '
		/^0x[0-9a-f]+$/ { if (seen) print "--"; seen = 1; k = 0; next }
		{ if (k++ % 2 == 0) print }
		END { if (seen) print "--" }'
}

# same FILE [N]: dwarfinl and addr2line name the same functions at the
# addresses of addrs(); the count of addresses with inlined frames is
# printed (to check the file had some where expected).
same() {
	local f=$1
	addrs "$f" "${2:-2000}" > "$T/addrs"
	[ -s "$T/addrs" ]
	a2l "$f" < "$T/addrs" > "$T/a2l"
	"$DWARFINL" "$f" < "$T/addrs" > "$T/ours" 2> "$T/err"
	diff -u "$T/a2l" "$T/ours" || { echo "differs on $f"; return 1; }
	# inlined: addresses with more than one name
	awk '$0 == "--" { if (n > 1) c++; n = 0; next } { n++ } END { print c + 0 }' "$T/ours" > "$T/ninl"
}

@test "the objects of our captures: C, C++ (g++, clang++ DWARF 5), Rust, stripped, symbols only" {
	local f n=0
	for f in "$D"/buildid/tmp/foldkit-pd/*/*/elf; do
		same "$f" 1500
		n=$((n + 1))
	done
	[ "$n" -ge 15 ]
}

@test "libc's debug file (libc6-dbg): DWARF 5, zlib-compressed sections" {
	local bid f
	bid=$(readelf -n /usr/lib/x86_64-linux-gnu/libc.so.6 2> /dev/null | awk '/Build ID/ { print $3 }')
	f=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
	[ -f "$f" ] || skip "libc6-dbg is not installed"
	readelf -SW "$f" | grep -q 'debug_info.* C ' || readelf -SW "$f" | grep -q 'debug_info.*C'
	same "$f" 3000
	[ "$(cat "$T/ninl")" -gt 100 ]
}

@test "gcc -O2: DWARF 5, DWARF 4, DWARF 2, compressed with zlib; inlined static functions and clones" {
	command -v gcc > /dev/null || skip "no gcc"
	local v
	for v in "-gdwarf-5" "-gdwarf-4" "-gdwarf-2" "-gdwarf-5 -gz=zlib"; do
		# shellcheck disable=SC2086
		gcc -O2 $v -o "$T/prog" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
		same "$T/prog"
		[ "$(cat "$T/ninl")" -gt 20 ] || { echo "few inlined frames with $v"; return 1; }
	done
	gcc -O2 -gdwarf-5 -gz=zlib -o "$T/prog" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
	readelf -SW "$T/prog" | grep -q 'debug_info.*C'
}

@test "g++ -O2: templates, lambdas, the renaming of functions named by DW_AT_name alone" {
	command -v g++ > /dev/null || skip "no g++"
	g++ -O2 -g -o "$T/cpp" "$D/src/cpp.cc"
	same "$T/cpp" 4000
	[ "$(cat "$T/ninl")" -gt 100 ]
	# a lambda's clone, renamed after its ELF symbol (binutils does that
	# for C++ names without a linkage name)
	grep -q '^_Z5applyIZ4mainEUliE0_EmT_i' "$T/ours"
}

@test "clang++ -O2: DWARF 5 with indexed strings, addresses and range lists" {
	command -v clang++ > /dev/null || skip "no clang++"
	clang++ -O2 -g -o "$T/clang" "$D/src/cpp.cc"
	readelf --debug-dump=info "$T/clang" 2> /dev/null | grep -q 'DW_FORM_strx\|DW_AT_str_offsets_base\|(indexed' ||
		readelf -SW "$T/clang" | grep -q debug_str_offsets
	same "$T/clang" 4000
	clang -O2 -gdwarf-4 -o "$T/clang4" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
	same "$T/clang4"
}

@test "rustc -O with debug info: Rust's inlined generics" {
	command -v rustc > /dev/null || skip "no rustc"
	rustc -C opt-level=3 -C debuginfo=2 -o "$T/rust" "$D/src/main.rs" 2> /dev/null
	same "$T/rust" 3000
	[ "$(cat "$T/ninl")" -gt 50 ]
}

# lines FILE [N]: dwarfinl -l and addr2line -i -f -s give the same names
# and FILE:LINE lines (the discriminator cut) at the addresses of addrs()
lines() {
	local f=$1
	addrs "$f" "${2:-2000}" > "$T/addrs"
	sed 's/^/0x/' "$T/addrs" | addr2line -a -i -f -s -e "$f" | awk '
		/^0x[0-9a-f]+$/ { if (seen) print "--"; seen = 1; next }
		{ sub(/ \(discriminator [0-9]+\)$/, ""); print }
		END { if (seen) print "--" }' > "$T/a2l"
	"$DWARFINL" -l "$f" < "$T/addrs" > "$T/ours"
	diff -u "$T/a2l" "$T/ours" || { echo "differs on $f"; return 1; }
}

@test "source lines as addr2line -s prints them: DWARF 2, 4, 5, compressed, gcc, g++, clang, rustc, libc" {
	local v bid
	if command -v gcc > /dev/null; then
		for v in "-gdwarf-5" "-gdwarf-4" "-gdwarf-2" "-gdwarf-5 -gz=zlib"; do
			# shellcheck disable=SC2086
			gcc -O2 $v -o "$T/prog" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
			lines "$T/prog"
		done
		# a file included first: DWARF 5 sequences start at file 0
		printf 'int helper(int x)\n{\n\tint s = 0;\n\tfor (int i = 0; i < x; i++)\n\t\ts += i * x;\n\treturn s;\n}\n' > "$T/impl.h"
		printf '#include "impl.h"\nint main(int c, char **v) { (void)v; return helper(c); }\n' > "$T/wrap.c"
		gcc -O2 -g -o "$T/wrap" "$T/wrap.c"
		lines "$T/wrap" 200
	fi
	if command -v g++ > /dev/null; then
		g++ -O2 -g -o "$T/cpp" "$D/src/cpp.cc"
		lines "$T/cpp" 3000
	fi
	if command -v clang > /dev/null; then
		clang -O2 -g -o "$T/clangc" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
		lines "$T/clangc"
		clang++ -O2 -g -o "$T/clang" "$D/src/cpp.cc"
		lines "$T/clang" 3000
	fi
	if command -v rustc > /dev/null; then
		rustc -C opt-level=3 -C debuginfo=2 -o "$T/rust" "$D/src/main.rs" 2> /dev/null
		lines "$T/rust" 2000
	fi
	bid=$(readelf -n /usr/lib/x86_64-linux-gnu/libc.so.6 2> /dev/null | awk '/Build ID/ { print $3 }')
	[ -f "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] &&
		lines /usr/lib/x86_64-linux-gnu/libc.so.6 3000
	true
}

@test "a line table with rows out of address order: the lines addr2line gives" {
	command -v cc > /dev/null || skip "no C compiler"
	cc -nostdlib -no-pie -o "$T/ooo" "$BATS_TEST_DIRNAME/data/dwarf/ooo.s" 2> /dev/null || skip "cannot assemble"
	lines "$T/ooo" 5
	grep -qx 'ooo.c:30' "$T/ours"
}

@test "units sharing an abbreviation table, and one with its own out of order: each unit's inlined frames" {
	command -v cc > /dev/null || skip "no C compiler"
	cc -nostdlib -no-pie -o "$T/sh" "$BATS_TEST_DIRNAME/data/dwarf/shared.s" 2> /dev/null || skip "cannot assemble"
	# every byte of the four functions, in order (names at an address
	# depend on the lookups before, as in binutils): the helpers' names
	# are DWARF's alone, read from each unit
	run "$DWARFINL" "$T/sh" < <(seq 0 15 | awk '{ printf "%x\n", 4198400 + $1 }')
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | tr '\n' ' ')" = "_start -- _start _start -- helper1 _start -- _start -- f2 -- f2 f2 -- helper2 f2 -- f2 -- f3 -- f3 f3 -- helper3 f3 -- f3 -- f4 -- f4 f4 -- helper4 f4 -- f4 -- " ]
	# where addr2line finds the helper (the first unit), the same frames
	seq 0 3 | awk '{ printf "%x\n", 4198400 + $1 }' > "$T/addrs"
	a2l "$T/sh" < "$T/addrs" > "$T/a2l"
	"$DWARFINL" "$T/sh" < "$T/addrs" > "$T/ours"
	cmp "$T/a2l" "$T/ours"
	grep -qx helper1 "$T/ours"
}

@test "symbols at one start, no DWARF: the first of the largest, as addr2line 2.40 (was: the smaller)" {
	command -v cc > /dev/null || skip "no C compiler"
	cc -nostdlib -no-pie -Wl,-e,main -o "$T/ss" "$BATS_TEST_DIRNAME/data/dwarf/samestart.s" 2> /dev/null || skip "cannot assemble"
	local s a
	for s in lab big; do
		a=$(nm "$T/ss" | awk -v s=$s '$3 == s { print $1 }')
		printf '%s\n%x\n' "$a" $((16#$a + 1))
	done > "$T/addrs"
	run "$DWARFINL" "$T/ss" < "$T/addrs"
	[ "$(printf '%s\n' "$output" | grep -v -- -- | tr '\n' ' ')" = "lab lab big big " ]
	same "$T/ss" 40
}

@test "link-time optimization: abstract origins in other units (DW_FORM_ref_addr)" {
	command -v g++ > /dev/null || skip "no g++"
	g++ -O2 -g -flto -o "$T/lto" "$D/src/cpp.cc" 2> /dev/null || skip "no LTO here"
	readelf --debug-dump=abbrev "$T/lto" | grep -q DW_FORM_ref_addr
	same "$T/lto" 3000
	[ "$(cat "$T/ninl")" -gt 100 ]
	lines "$T/lto" 3000
	gcc -O2 -g -flto -o "$T/ltoc" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
	same "$T/ltoc"
	lines "$T/ltoc"
}

@test "a range list of 260,000 entries: read within bounds, no quadratic hang" {
	command -v gcc > /dev/null && command -v objcopy > /dev/null || skip "no gcc or objcopy"
	local i
	gcc -O2 -gdwarf-4 -o "$T/prog" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
	readelf -SW "$T/prog" | grep -q '\.debug_ranges' || skip "no .debug_ranges"
	# every list of the section: the same range over and over, unended
	printf '\000\020\000\000\000\000\000\000\000\040\000\000\000\000\000\000' > "$T/r"
	for i in $(seq 18); do cat "$T/r" "$T/r" > "$T/r2"; mv "$T/r2" "$T/r"; done
	objcopy --update-section .debug_ranges="$T/r" "$T/prog" "$T/bomb"
	addrs "$T/bomb" 200 > "$T/addrs"
	run --separate-stderr timeout 60 "$DWARFINL" "$T/bomb" < "$T/addrs"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"too many ranges"* ]] || [[ "$stderr" == *"range list"* ]]
}

@test "debug sections compressed with zstd: said once, the ELF symbols' names instead" {
	command -v gcc > /dev/null && command -v objcopy > /dev/null || skip "no gcc or objcopy"
	gcc -O2 -g -o "$T/prog" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
	objcopy --compress-debug-sections=zstd "$T/prog" "$T/zstd" 2> /dev/null || skip "objcopy without zstd"
	readelf -SW "$T/zstd" | grep -q 'debug_info.*C'
	addrs "$T/zstd" 300 > "$T/addrs"
	run --separate-stderr "$DWARFINL" "$T/zstd" < "$T/addrs"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | grep -c 'compressed with zstd: not read')" -eq 1 ]
	# one name an address, none of them inlined
	! printf '%s\n' "$output" | awk '$0 == "--" { if (n > 1) bad = 1; n = 0; next } { n++ } END { exit !bad }'
	printf '%s\n' "$output" | grep -qx main
}

@test "an address asked twice gets the same answer (perf asks each once)" {
	local f
	f=$(ls "$D"/buildid/tmp/foldkit-pd/dwcxx/*/elf)
	addrs "$f" 500 > "$T/addrs"
	cat "$T/addrs" "$T/addrs" | "$DWARFINL" "$f" > "$T/twice"
	"$DWARFINL" "$f" < "$T/addrs" > "$T/once"
	diff -u <(cat "$T/once" "$T/once") "$T/twice"
}

@test "the comparison fails on a wrong name" {
	local f
	f=$(ls "$D"/buildid/tmp/foldkit-pd/dwcxx/*/elf)
	addrs "$f" 500 > "$T/addrs"
	a2l "$f" < "$T/addrs" | sed '40s/.*/wrong/' > "$T/a2l"
	! diff -q "$T/a2l" <("$DWARFINL" "$f" < "$T/addrs")
}

@test "damaged debug information: a message or fewer names, never a crash or a hang" {
	local f i off size
	f=$(ls "$D"/buildid/tmp/foldkit-pd/dwcxx/*/elf)
	addrs "$f" 300 > "$T/addrs"
	read -r _ off size < <(secinfo "$f" .debug_info)
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		cp "$f" "$T/bad"
		"$TESTBIN/randbytes" $((i * 16)) "$i" |
			dd of="$T/bad" bs=1 seek=$((off + (i * 7919) % size)) conv=notrunc status=none
		run timeout 20 "$DWARFINL" "$T/bad" < "$T/addrs"
		[ "$status" -eq 0 ]
	done
	# the abbreviations, the string offsets and the file cut short
	for i in 1 2 3; do
		head -c $(( $(wc -c < "$f") * i / 4 )) "$f" > "$T/cut"
		run timeout 20 "$DWARFINL" "$T/cut" < "$T/addrs"
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	done
}
