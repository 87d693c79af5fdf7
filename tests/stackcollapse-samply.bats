#!/usr/bin/env bats
# stackcollapse-samply: the Firefox Profiler's processed profiles (as samply
# saves them) to folded stacks.  Real profiles by others with their
# expected output (../shared/conformance/samply, read by path); one
# abstract profile of ours written by samplygen in the layout of every
# version (tests/data/samply/abstract*.folded: checked by hand against the
# generator's tables); programs of ours, PIE and not, whose addresses must
# be named as addr2line -i -f names them; sidecars written here.

load helper

D=$BATS_TEST_DIRNAME/data/samply
sc() { "$BIN/stackcollapse-samply" "$@"; }
gen() { "$TESTBIN/samplygen" "$@"; }

conf() {
	local d
	for d in "${SAMPLY_CONFORMANCE:-}" \
	    "$BATS_TEST_DIRNAME/../../shared/conformance/samply" \
	    "$BATS_TEST_DIRNAME/../../../shared/conformance/samply"; do
		[ -n "$d" ] && [ -f "$d/README.md" ] && { echo "$d"; return 0; }
	done
	return 0
}
C=$(conf)

setup() {
	T=$BATS_TEST_TMPDIR
}

# ok_as EXPECTED ARGS...: the output is EXPECTED (a file, .gz or not), no
# message, exit 0.
ok_as() {
	local exp=$1
	shift
	run --separate-stderr sc "$@"
	[ "$status" -eq 0 ] || fail "status $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	case $exp in
	*.gz) diff -u <(gzip -dc "$exp") <(printf '%s\n' "$output") ;;
	*) diff -u "$exp" <(printf '%s' "$output" | sed '$a\') ;;
	esac
}

# expected NAME [addrs.]: the conformance file for a profile
expected() {
	if [ -f "$C/$1.${2:-}folded" ]; then echo "$C/$1.${2:-}folded"
	else echo "$C/$1.${2:-}folded.gz"; fi
}

# total: the sum of the counts of $output
total() {
	printf '%s\n' "$output" | awk '{ s += $NF } END { print s + 0 }'
}

@test "conformance: every profile of ../shared/conformance/samply, with and without --addrs" {
	[ -n "$C" ] || skip "no conformance corpus"
	local f n k=0
	for f in "$C"/*.json "$C"/*.json.gz; do
		n=${f##*/}
		n=${n%.json*}
		ok_as "$(expected "$n")" "$f"
		[ -n "$output" ] || case $n in *counters*|*flow_marker*) ;;
			*) fail "$n: no output" ;; esac
		ok_as "$(expected "$n" addrs.)" --addrs "$f"
		k=$((k + 1))
	done
	[ "$k" -eq 9 ]
}

@test "conformance: totals, --cpu totals, --pid and --tid roots as the corpus lists them" {
	[ -n "$C" ] || skip "no conformance corpus"
	local n tot cpu np nt
	while read -r n tot cpu np nt; do
		f=$(ls "$C/$n".json*)
		run sc "$f"
		[ "$(total)" = "$tot" ] || fail "$n total $(total)"
		run sc --cpu "$f"
		[ "$(total)" = "$cpu" ] || fail "$n --cpu total $(total)"
		run sc --pid "$f"
		[ "$(printf '%s\n' "$output" | sed '/^$/d; s/;.*//' | sort -u | wc -l)" = "$np" ] || fail "$n pids"
		[ "$(total)" = "$tot" ]
		run sc --tid "$f"
		[ "$(printf '%s\n' "$output" | sed '/^$/d; s/;.*//' | sort -u | wc -l)" = "$nt" ] || fail "$n tids"
	done <<-EOF
	roto-majjit-v55 670 649 7 23
	raphael-macro-solver-v49 24421 24420 2 14
	bplustree-insert-v55 106 106 1 1
	bplustree-insert-10m-v55 2075 2075 1 1
	samply-ls-perf-v41 13069 3090 1 1
	fxprof-profile_without_js-v66 3 0 1 1
	fxprof-profile_with_js-v66 1 0 1 1
	fxprof-profile_counters_with_sorted_processes-v66 0 0 0 0
	fxprof-flow_marker_fields-v66 0 0 0 0
	EOF
}

@test "conformance: samply's string pids of exec'd processes and numeric ones of version 41 in the roots" {
	[ -n "$C" ] || skip "no conformance corpus"
	run sc --pid "$C/raphael-macro-solver-v49.json.gz"
	[[ "$output" == *"macro_solver_example-27032.1;"* ]]
	run sc --tid "$C/raphael-macro-solver-v49.json.gz"
	[[ "$output" == *"macro_solver_example-27032.1/27034;"* ]]
	run sc --tid "$C/samply-ls-perf-v41.json"
	[[ "${lines[0]}" == "GeckoMain-18693/18693;"* ]]
	run sc --pid "$C/samply-ls-perf-v41.json"
	[[ "${lines[0]}" == "ls-18693;"* ]]
}

@test "every layout (41 to 70, time or timeDeltas, samply's key order or sorted, gzip or not) folds the same" {
	local v d s z k=0
	for v in 41 46 47 49 50 55 56 59 60 65 66 69 70; do
		for d in "" -d; do
			for s in "" -s; do
				gen -v $v $d $s > "$T/p.json"
				ok_as "$D/abstract.folded" "$T/p.json"
				k=$((k + 1))
			done
		done
		gzip -c "$T/p.json" > "$T/p.json.gz"
		ok_as "$D/abstract.folded" "$T/p.json.gz"
		ok_as "$D/abstract.folded" - < "$T/p.json.gz"
	done
	[ "$k" -eq 52 ]
}

@test "--cpu keeps the samples with CPU time (a null or zero threadCPUDelta has none)" {
	local v
	for v in 41 55 60 70; do
		gen -v $v > "$T/p.json"
		ok_as "$D/abstract-cpu.folded" --cpu "$T/p.json"
	done
}

@test "--pid: PROCESS-PID roots; --tid: THREAD-PID/TID, and it wins" {
	local v
	for v in 41 47 56 70; do
		gen -v $v > "$T/p.json"
		ok_as "$D/abstract-pid.folded" --pid "$T/p.json"
		ok_as "$D/abstract-tid-addrs.folded" --tid --addrs "$T/p.json"
		ok_as "$D/abstract-tid-addrs.folded" --pid --tid --addrs "$T/p.json"
	done
}

@test "--addrs: [LIB <0xADDR>] for frames no source names; names held in the profile stay" {
	gen > "$T/p.json"
	run sc --addrs "$T/p.json"
	[[ "$output" == *"main;[app <0x1000>];[libfoo.so <0x2a0>] 4"* ]]
	# hex, but not the frame's address: a name
	[[ "$output" == *";0x3000 1"* ]]
	# hex without a library: a name
	[[ "$output" == *";0x7f00dead 1"* ]]
}

@test "names: ';' becomes ':', JSON escapes and UTF-8 decoded" {
	gen > "$T/p.json"
	run sc "$T/p.json"
	[[ "$output" == *'main;compute:inner 2'* ]]
	[[ "$output" == *'label "q" é é;0x3000 1'* ]]
}

@test "several profiles are summed; the same one twice doubles every count" {
	gen > "$T/p.json"
	run sc "$T/p.json" "$T/p.json"
	[ "$(printf '%s\n' "$output" | sed 's/ [0-9]*$//')" = "$(sed 's/ [0-9]*$//' "$D/abstract.folded")" ]
	[ "$(total)" = 28 ]
}

@test "fractional weights (tracing-ms) are summed as decimals" {
	gen -l a:/nonexistent/a: -a 0x10 -a 0x10 > "$T/p.json"
	sed 's/"weight":\[1,1\]/"weight":[0.25,1.5]/' "$T/p.json" > "$T/f.json"
	grep -q '0.25,1.5' "$T/f.json"
	run sc "$T/f.json"
	[ "$output" = "[a] 1.75" ]
}

# prog_profile PROG: $T/addrs (relative addresses spread over .text) and
# $T/p.json, a profile of PROG at path $2 (default PROG) with its build id,
# one sample per address
prog_profile() {
	local prog=$1 path=${2:-$1} id base a o z
	id=$(readelf -nW "$prog" | sed -n 's/.*Build ID: *//p')
	base=$(readelf -lW "$prog" | awk '$1 == "LOAD" { print $3; exit }')
	read -r a o z < <(readelf -SW "$prog" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$1 == ".text" { print $3, $4, $5 }')
	awk -v s=$((16#$a - base)) -v z=$((16#$z)) 'BEGIN {
		st = int(z / 300); if (st < 1) st = 1
		for (a = s; a < s + z; a += st) printf "0x%x\n", a }' > "$T/addrs"
	local args=()
	while read -r a; do args+=(-a "$a"); done < "$T/addrs"
	gen -v 55 -l "prog:$path:${3-$id}" "${args[@]}" > "$T/p.json"
	echo "$base" > "$T/base"
}

# a2l_folded PROG: what the profile of prog_profile must fold to, from
# addr2line -i -f: the names of each address, callers first; [prog] where
# it knows none
a2l_folded() {
	local base a
	base=$(cat "$T/base")
	while read -r a; do printf '0x%x\n' $((a + base)); done < "$T/addrs" |
		addr2line -a -i -f -e "$1" | awk '
		function out() { if (!seen) return; s = ""
			for (i = n; i >= 1; i--) if (nm[i] != "??") s = s (s == "" ? "" : ";") nm[i]
			if (s == "") s = "[prog]"; c[s]++ }
		/^0x[0-9a-f]+$/ { out(); seen = 1; n = 0; k = 0; next }
		{ if (k++ % 2 == 0) nm[++n] = $0 }
		END { out(); for (s in c) print s, c[s] }' | sort
}

need_tools() {
	command -v gcc > /dev/null || skip "no gcc"
	command -v addr2line > /dev/null || skip "no addr2line"
	command -v readelf > /dev/null || skip "no readelf"
	addr2line --version | grep -q 'GNU addr2line' || skip "not GNU addr2line"
}

@test "ELF: a PIE program's addresses named as addr2line -i -f names them, inlined functions callers first" {
	need_tools
	gcc -O2 -g -o "$T/prog" "$D/src/inl.c"
	prog_profile "$T/prog"
	a2l_folded "$T/prog" > "$T/want"
	grep -q 'hash_block;round_;mix' "$T/want"
	run --separate-stderr sc "$T/p.json"
	[ -z "$stderr" ]
	diff -u "$T/want" <(printf '%s\n' "$output")
}

@test "ELF: a program linked at 0x400000 (-no-pie): addresses relative to its first PT_LOAD" {
	need_tools
	gcc -O2 -g -no-pie -o "$T/prog" "$D/src/inl.c"
	prog_profile "$T/prog"
	[ "$(cat "$T/base")" = 0x0000000000400000 ]
	a2l_folded "$T/prog" > "$T/want"
	grep -q 'hash_all;mix' "$T/want"
	run sc "$T/p.json"
	diff -u "$T/want" <(printf '%s\n' "$output")
}

@test "ELF: another build id than the lib's codeId is not used; no codeId: the file at the path is" {
	need_tools
	gcc -O2 -g -o "$T/prog" "$D/src/inl.c"
	prog_profile "$T/prog" "$T/prog" 00112233445566778899aabbccddeeff00112233
	run sc "$T/p.json"
	[ "$output" = "[prog] $(wc -l < "$T/addrs")" ]
	prog_profile "$T/prog" "$T/prog" ""
	a2l_folded "$T/prog" > "$T/want"
	run sc "$T/p.json"
	diff -u "$T/want" <(printf '%s\n' "$output")
	run sc --no-symbols "$T/p.json"
	[ "$output" = "[prog] $(wc -l < "$T/addrs")" ]
}

@test "--symfs DIR: the binary below DIR; by its build id in DIR/usr/lib/debug/.build-id" {
	need_tools
	gcc -O2 -g -o "$T/prog" "$D/src/inl.c"
	prog_profile "$T/prog" /opt/app/prog
	a2l_folded "$T/prog" > "$T/want"
	run sc "$T/p.json"
	[ "$output" = "[prog] $(wc -l < "$T/addrs")" ]
	mkdir -p "$T/root/opt/app"
	cp "$T/prog" "$T/root/opt/app/prog"
	run sc --symfs "$T/root" "$T/p.json"
	diff -u "$T/want" <(printf '%s\n' "$output")
	rm -r "$T/root/opt"
	id=$(readelf -nW "$T/prog" | sed -n 's/.*Build ID: *//p')
	mkdir -p "$T/root/usr/lib/debug/.build-id/${id:0:2}"
	cp "$T/prog" "$T/root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
	run sc --symfs "$T/root" "$T/p.json"
	diff -u "$T/want" <(printf '%s\n' "$output")
}

@test "sidecar PROFILE.syms.json: known addresses named, inlined frames callers first; it wins over the binary" {
	gen -v 49 -l "prog:/nonexistent/prog:ab12" -a 0x10,0x20 -a 0x10,0x30 -a 0x10,0x44 > "$T/p.json"
	cat > "$T/p.syms.json" <<-'EOF'
	{"string_table":["main","work","inner;fn","leaf","unused"],
	 "data":[{"debug_name":"prog","debug_id":"00000000-0000-0000-0000-000000000000",
	  "code_id":"AB12",
	  "symbol_table":[{"rva":16,"size":8,"symbol":0},
	   {"rva":32,"symbol":1,"frames":[{"function":3,"file":null,"line":4},{"function":2},{"function":null}]},
	   {"rva":48,"symbol":3,"frames":null}],
	  "known_addresses":[[48,2],[16,0],[32,1]]}]}
	EOF
	run --separate-stderr sc --addrs "$T/p.json"
	[ -z "$stderr" ]
	[ "$output" = "$(printf '%s\n' "main;[prog <0x44>] 1" "main;leaf 1" "main;work;inner:fn;leaf 1")" ]
	# samply's name for it: the last extension replaced (p.json.gz: p.json.syms.json)
	gzip -c "$T/p.json" > "$T/q.json.gz"
	cp "$T/p.syms.json" "$T/q.json.syms.json"
	run sc "$T/q.json.gz"
	[ "${lines[1]}" = "main;leaf 1" ]
	run sc --no-symbols "$T/q.json.gz"
	[ "$output" = "[prog];[prog] 3" ]
}

@test "sidecar: matched by debug name and id where the lib has no codeId; a damaged one is said and not used" {
	gen -l "prog:/nonexistent/prog:" -a 0x10 > "$T/p.json"
	sed -i 's/"breakpadId":"0"/"breakpadId":"0123456789ABCDEF0123456789ABCDEF0"/' "$T/p.json"
	cat > "$T/p.syms.json" <<-'EOF'
	{"string_table":["main"],"data":[{"debug_name":"prog","debug_id":"01234567-89ab-cdef-0123-456789abcdef",
	 "code_id":null,"symbol_table":[{"rva":16,"symbol":0}],"known_addresses":[[16,0]]}]}
	EOF
	run sc "$T/p.json"
	[ "$output" = "main 1" ]
	printf '{"string_table":["main"],"data":[{"symbol_table":[{"rva":16,"symbol":5}],"known_addresses":[[16,0]]}]}' > "$T/p.syms.json"
	run --separate-stderr sc "$T/p.json"
	[ "$status" -eq 0 ]
	[ "$output" = "[prog] 1" ]
	[[ "$stderr" == "stackcollapse-samply: $T/p.syms.json:1:"*"a symbol name out of the string_table (its names are not used)" ]]
	run --separate-stderr sc -q "$T/p.json"
	[ -z "$stderr" ]
}

@test "standard input; - names it" {
	gen > "$T/p.json"
	ok_as "$D/abstract.folded" < "$T/p.json"
	ok_as "$D/abstract.folded" - < "$T/p.json"
}

@test "--help, --version, usage errors, the man page's synopsis" {
	run sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-samply "* ]]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-samply (foldkit) "* ]]
	run sc --bogus
	[ "$status" -eq 2 ]
	run sc --symfs
	[ "$status" -eq 2 ]
	usage_matches_man stackcollapse-samply
	man_lint stackcollapse-samply.1
}

@test "output: a full disk is an error, a closed pipe is not" {
	gen > "$T/p.json"
	full_disk stackcollapse-samply "$T/p.json"
	closed_pipe 'label "q" é é 1' stackcollapse-samply "$T/p.json"
}

# Mach-O: programs of ours built for macOS with clang's Mach-O target,
# linked by ld64.lld, their dSYM made by dsymutil; the names at their
# addresses must be those llvm-symbolizer gives from the dSYM.
need_macho() {
	command -v clang > /dev/null || skip "no clang"
	command -v dsymutil > /dev/null || skip "no dsymutil"
	command -v llvm-symbolizer > /dev/null || skip "no llvm-symbolizer"
	command -v llvm-objdump > /dev/null || skip "no llvm-objdump"
	LD64=$(command -v ld64.lld || ls /usr/lib/llvm-*/bin/ld64.lld 2> /dev/null | tail -1)
	[ -n "$LD64" ] || skip "no ld64.lld"
}

# macho ARCH OUT: $D/src/inl.c (without libc) built and linked for macOS
macho() {
	sed 's/#include <std[a-z]*.h>//; s/printf("%llx\\n", hash_all(n));/return (int)hash_all(n);/; s/atoi(argv\[1\])/argv[1][0]/' \
	    "$D/src/inl.c" > "$T/inl.c"
	clang -target "$1-apple-macos11" -O2 -g -fno-stack-protector -c "$T/inl.c" -o "$T/$2.o"
	"$LD64" -arch "$1" -platform_version macos 11.0 11.0 -e _main -o "$T/$2" "$T/$2.o" ||
		skip "ld64.lld does not link here"
}

# uuid FILE: its LC_UUID, 32 hex digits
uuid() {
	llvm-objdump --macho --private-headers "$1" | awk '$1 == "uuid" { gsub("-", "", $2); print $2; exit }'
}

# macho_profile FILE PATH UUID: $T/p.json with a sample at each of 200
# addresses of __text (relative to __TEXT, at 0x100000000), $T/addrs
macho_profile() {
	local a z
	read -r z a < <(llvm-objdump --macho --section-headers "$1" | awk '$2 == "__text" { print $3, $4 }')
	awk -v s=$((16#$a - 0x100000000)) -v z=$((16#$z)) 'BEGIN {
		st = int(z / 200); if (st < 1) st = 1
		for (a = s; a < s + z; a += st) printf "0x%x\n", a }' > "$T/addrs"
	local args=()
	while read -r a; do args+=(-a "$a"); done < "$T/addrs"
	gen -v 55 -l "prog:$2:$3" "${args[@]}" > "$T/p.json"
}

# sym_folded FILE: what the profile must fold to, from llvm-symbolizer
sym_folded() {
	while read -r a; do printf '0x%x\n' $((a + 0x100000000)); done < "$T/addrs" |
		llvm-symbolizer --obj="$1" | awk '
		NF == 0 { if (n) { s = ""; for (i = n; i >= 1; i--) s = s (s == "" ? "" : ";") nm[i]; c[s]++ } n = 0; k = 0; next }
		{ if (k++ % 2 == 0) nm[++n] = $0 }
		END { for (s in c) print s, c[s] }' | LC_ALL=C sort
}

@test "Mach-O: an arm64 program and its dSYM: named as llvm-symbolizer names them, inlined functions callers first" {
	need_macho
	macho arm64 prog
	dsymutil "$T/prog" -o "$T/prog.dSYM"
	macho_profile "$T/prog" "$T/prog" "$(uuid "$T/prog")"
	sym_folded "$T/prog.dSYM/Contents/Resources/DWARF/prog" > "$T/want"
	grep -q 'hash_block;round_;mix' "$T/want"
	run --separate-stderr sc "$T/p.json"
	[ -z "$stderr" ]
	diff -u "$T/want" <(printf '%s\n' "$output")
}

@test "Mach-O: without a dSYM, its LC_SYMTAB ('_' dropped); another UUID: not used" {
	need_macho
	macho arm64 prog
	macho_profile "$T/prog" "$T/prog" "$(uuid "$T/prog")"
	run sc "$T/p.json"
	[[ "$output" == *"hash_block "* ]]
	[[ "$output" == *"hash_all "* ]]
	[[ "$output" != *"_hash"* ]]
	[[ "$output" != *"[prog]"* ]]
	[ "$(total)" = "$(wc -l < "$T/addrs")" ]
	macho_profile "$T/prog" "$T/prog" 00112233445566778899AABBCCDDEEFF
	run sc "$T/p.json"
	[ "$output" = "[prog] $(wc -l < "$T/addrs")" ]
}

# be32 N: N as 4 big-endian bytes
be32() {
	printf "\\$(printf '%03o' $(($1 >> 24 & 255)))\\$(printf '%03o' $(($1 >> 16 & 255)))\\$(printf '%03o' $(($1 >> 8 & 255)))\\$(printf '%03o' $(($1 & 255)))"
}

@test "Mach-O: a fat file (x86_64 and arm64): the slice with the lib's UUID, its dSYM beside it" {
	need_macho
	macho arm64 a
	macho x86_64 x
	local sa sx
	sa=$(wc -c < "$T/a")
	sx=$(wc -c < "$T/x")
	# fat header, x86_64 at 16384, arm64 after it (4096-aligned)
	local oa=$(( (16384 + sx + 4095) / 4096 * 4096 ))
	{
		be32 0xcafebabe; be32 2
		be32 0x01000007; be32 3; be32 16384; be32 "$sx"; be32 12
		be32 0x0100000c; be32 0; be32 "$oa"; be32 "$sa"; be32 12
	} > "$T/fat"
	dd if="$T/x" of="$T/fat" bs=1 seek=16384 conv=notrunc 2> /dev/null
	dd if="$T/a" of="$T/fat" bs=1 seek="$oa" conv=notrunc 2> /dev/null
	dsymutil "$T/a" -o "$T/a.dSYM"
	macho_profile "$T/a" "$T/fat" "$(uuid "$T/a")"
	sym_folded "$T/a.dSYM/Contents/Resources/DWARF/a" > "$T/want"
	# the fat binary's symbols: the arm64 slice's
	run sc "$T/p.json"
	[ "$(total)" = "$(wc -l < "$T/addrs")" ]
	[[ "$output" != *"[prog]"* ]]
	# its dSYM beside it: the DWARF names
	mkdir -p "$T/fat.dSYM/Contents/Resources/DWARF"
	cp "$T/a.dSYM/Contents/Resources/DWARF/a" "$T/fat.dSYM/Contents/Resources/DWARF/fat"
	run sc "$T/p.json"
	diff -u "$T/want" <(printf '%s\n' "$output")
	# the x86_64 slice, asked for by its UUID
	macho_profile "$T/x" "$T/fat" "$(uuid "$T/x")"
	run sc "$T/p.json"
	[[ "$output" == *"hash_block"* ]]
	[[ "$output" != *"[prog]"* ]]
}
