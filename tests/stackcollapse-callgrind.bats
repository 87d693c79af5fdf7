#!/usr/bin/env bats
# stackcollapse-callgrind: callgrind profiles to folded stacks.  Profiles
# are recorded here, under valgrind (skipped with a message where it is
# missing), from programs of ours (tests/data/callgrind/src/), and the
# folded output is checked against valgrind's own callgrind_annotate:
# self and inclusive cost of every function (src/exact.awk).  The format
# rules have hand-written fixtures (tests/data/callgrind/*.cg, each says
# what it holds).

load helper

D=$BATS_TEST_DIRNAME/data/callgrind
S=$D/src
R=$BATS_FILE_TMPDIR
sc() { "$BIN/stackcollapse-callgrind" "$@"; }

setup_file() {
	local V

	command -v valgrind > /dev/null 2>&1 || return 0
	command -v cc > /dev/null 2>&1 || return 0
	cc -O1 -g -fPIC -shared -o "$R/libwork.so" "$S/libwork.c" &&
	    cc -O1 -g -o "$R/prog" "$S/prog.c" -L"$R" -lwork \
		-Wl,-rpath,"$R" -pthread || return 0
	V="valgrind --tool=callgrind"
	cd "$R" || return 1
	# whole contexts; the default (none); cut at 2 callers
	$V --separate-callers=50 --callgrind-out-file=ctx.out ./prog 2> /dev/null &&
	    $V --callgrind-out-file=plain.out ./prog 2> /dev/null &&
	    touch valgrind.ok
	# without the thread (the same every run): whole, cut at 2 callers, and
	# in each form of the format
	$V --separate-callers=50 --callgrind-out-file=one.out ./prog one 2> /dev/null
	$V --separate-callers=2 --callgrind-out-file=cut2.out ./prog one 2> /dev/null
	$V --separate-callers=50 --compress-mangled=yes --callgrind-out-file=one-mangled.out ./prog one 2> /dev/null
	$V --separate-callers=50 --compress-strings=no --callgrind-out-file=one-strings.out ./prog one 2> /dev/null
	$V --separate-callers=50 --compress-pos=no --dump-instr=yes --callgrind-out-file=one-pos.out ./prog one 2> /dev/null
	$V --separate-callers=50 --collect-jumps=yes --dump-instr=yes --callgrind-out-file=one-jumps.out ./prog one 2> /dev/null
	$V --separate-callers=50 --combine-dumps=yes --dump-every-bb=20000 --callgrind-out-file=one-parts.out ./prog one 2> /dev/null
	$V --separate-callers=50 --simulate-cache=yes --callgrind-out-file=one-cache.out ./prog one 2> /dev/null
	$V --separate-callers=50 --separate-threads=yes --callgrind-out-file=thr.out ./prog 2> /dev/null
	if command -v c++ > /dev/null 2>&1 && c++ -O1 -g -o cxx "$S/cxx.cc"; then
		$V --separate-callers=50 --callgrind-out-file=cxx.out ./cxx 2> /dev/null
		$V --separate-callers=50 --demangle=no --callgrind-out-file=cxx-mangled.out ./cxx 2> /dev/null
	fi
	if command -v rustc > /dev/null 2>&1 && rustc -O -g -o rs "$S/rust.rs" 2> /dev/null; then
		$V --separate-callers=50 --callgrind-out-file=rs.out ./rs 2> /dev/null
		$V --separate-callers=50 --demangle=no --callgrind-out-file=rs-mangled.out ./rs 2> /dev/null
	fi
	return 0
}

setup() {
	T=$BATS_TEST_TMPDIR
}

need_valgrind() {
	[ -e "$R/valgrind.ok" ] || skip "valgrind (or a C compiler) is not installed: no profiles recorded"
}

# case_ok GOLD [ARGS...]: the output is $D/GOLD.folded, no message, exit 0.
case_ok() {
	local gold=$1
	shift
	run --separate-stderr sc "$@"
	[ "$status" -eq 0 ] || fail "status $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	golden "$D/$gold.folded"
}

# exact PROFILE: our folded stacks give every function the self and
# inclusive cost callgrind_annotate gives it (run from / so that it keeps
# file names as they are written).
exact() {
	local p=$1 b
	b=$T/$(basename "$p")
	sc "$p" > "$b.folded" || return 1
	(cd / && callgrind_annotate --threshold=100 "$p") > "$b.self" || return 1
	(cd / && callgrind_annotate --threshold=100 --inclusive=yes "$p") > "$b.incl" || return 1
	run awk -f "$S/exact.awk" "$b.folded" "$b.self" "$b.incl"
	[ "$status" -eq 0 ] || { fail "$output"; return 1; }
	set -- $output
	[ "$1" = checked ] && [ "$2" -ge 100 ] && [ "$3" -ge 50 ] || { fail "$output"; return 1; }
}

# The stacks under main, from main (the program's, the same in every run:
# not the loader's, not the thread's).
mains() {
	sed -n 's/^.*;main;/main;/p' | grep -v 'pthread\|_dl_\|exit'
}

@test "C: self and inclusive cost of every function are callgrind_annotate's" {
	need_valgrind
	exact "$R/ctx.out"
}

@test "C: a function called from two callers at different costs is split by caller" {
	need_valgrind
	run sc "$R/ctx.out"
	[[ "$output" == *";main;light;work 6005"* ]]
	[[ "$output" == *";main;heavy;work 30005"* ]]
}

@test "C: direct recursion is one frame (as callgrind keeps it), mutual recursion each call" {
	need_valgrind
	run sc "$R/ctx.out"
	[[ "$output" == *";main;fib "* ]]
	! [[ "$output" == *";fib;fib"* ]]
	[[ "$output" == *";main;is_even;is_odd;is_even;is_odd;is_even;is_odd;is_even;is_odd;is_even;is_odd "* ]]
	! [[ "$output" == *"'"* ]]
}

@test "C: function pointer, qsort calling back, a shared library, a second thread" {
	need_valgrind
	run sc "$R/ctx.out"
	[[ "$output" == *";main;via;pointed;work 4205"* ]]
	[[ "$output" == *";main;sorting;qsort;"*";cmp "* ]]
	[[ "$output" == *";main;sorting;lib_sum "* ]]
	[[ "$output" == *"start_thread;worker;work 18005"* ]]
}

@test "C: the stacks add up to the file's totals: line (--list)" {
	need_valgrind
	run sc --list "$R/ctx.out"
	[ "${lines[0]%% *}" = Ir ]
	sum=$(sc "$R/ctx.out" | awk '{ s += $NF } END { print s }')
	[ "$output" = "Ir $sum" ]
	[ "$(sed -n 's/^totals: //p' "$R/ctx.out")" = "$sum" ]
}

@test "C++: exact against callgrind_annotate; --demangle of --demangle=no gives valgrind's names" {
	need_valgrind
	[ -s "$R/cxx.out" ] || skip "no C++ compiler"
	exact "$R/cxx.out"
	run sc "$R/cxx.out"
	[[ "$output" == *";main;shapes::Square::area(int) const "* ]]
	[[ "$output" == *";main;long shapes::total<long>(std::vector<long, std::allocator<long> > const&) "* ]]
	[[ "$output" == *";main;shapes::Acc::operator+=(long) "* ]]
	diff <(sc "$R/cxx.out" | mains | sed 's/ [0-9]*$//') \
	    <(sc --demangle "$R/cxx-mangled.out" | mains | sed 's/ [0-9]*$//')
	run sc "$R/cxx-mangled.out"
	[[ "$output" == *";main;_ZNK6shapes6Square4areaEi "* ]]
}

@test "Rust: exact against callgrind_annotate; --demangle of --demangle=no gives valgrind's names" {
	need_valgrind
	[ -s "$R/rs.out" ] || skip "rustc is not installed"
	exact "$R/rs.out"
	run sc "$R/rs.out"
	[[ "$output" == *";rust::main;<rust::calc::Square as rust::calc::Area>::area "* ]]
	diff <(sc "$R/rs.out" | sed 's/ [0-9]*$//' | grep 'rust::main') \
	    <(sc --demangle "$R/rs-mangled.out" | sed 's/ [0-9]*$//' | grep 'rust::main')
}

@test "without contexts: each function alone with callgrind_annotate's self cost; one note, -q silences it" {
	need_valgrind
	run --separate-stderr sc "$R/plain.out"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-callgrind: $R/plain.out: no call contexts in this profile: each function is alone with its self cost (record with valgrind --tool=callgrind --separate-callers=50 for stacks)" ]
	! [[ "$output" == *";"* ]]
	[[ "$output" == *$'\n'"work 58220"$'\n'* ]]
	printf '%s\n' "$output" > "$T/plain.folded"
	(cd / && callgrind_annotate --threshold=100 "$R/plain.out") > "$T/plain.self"
	: > "$T/none.incl"
	run awk -f "$S/exact.awk" "$T/plain.folded" "$T/plain.self" "$T/none.incl"
	[ "$status" -eq 0 ] || fail "$output"
	run --separate-stderr sc -q "$R/plain.out" "$R/plain.out"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *$'\n'"work 116440"$'\n'* ]]
}

@test "cut contexts (--separate-callers=2): completed where one context fits, else under [stack cut]" {
	need_valgrind
	run --separate-stderr sc "$R/cut2.out"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "stackcollapse-callgrind: $R/cut2.out: "*" Ir ("*"%), in "*" contexts, under [stack cut]: their callers are cut at 2 and do not follow from the file; record with --separate-callers="*" or more for whole stacks"* ]]
	# the program's stacks are completed, as the whole recording has them,
	# but mutual recursion: its contexts of 3 look alike at every depth
	printf '%s\n' "$output" | mains | sort > "$T/cut.main"
	sc "$R/one.out" | mains | sort > "$T/ctx.main"
	[ -z "$(comm -23 "$T/cut.main" "$T/ctx.main")" ]
	for s in 'main;light;work 6005' 'main;heavy;work 30005' \
	    'main;via;pointed;work 4205' 'main;fib 6739' 'main;is_even;is_odd 8'; do
		grep -qx "$s" "$T/cut.main" || fail "$s"
	done
	grep -q 'main;sorting;qsort;.*;cmp ' "$T/cut.main"
	[[ "$output" == *$'\n'"[stack cut];is_even;is_odd;is_even "* ]]
	# what is not cut is a stack of the whole recording
	sc "$R/one.out" | sed 's/ [0-9]*$//' | sort > "$T/whole"
	printf '%s\n' "$output" | grep -v '^\[stack cut\]' | sed 's/ [0-9]*$//' |
	    sort | comm -23 - "$T/whole" > "$T/extra"
	[ ! -s "$T/extra" ] || fail "$(cat "$T/extra")"
	run sc -q "$R/cut2.out"
	[[ "$output" == *$'\n[stack cut];'* ]]
}

@test "every form of the format gives the same stacks: compress-mangled, -strings=no, -pos=no, jumps, parts, cache events" {
	need_valgrind
	sc "$R/one.out" | mains > "$T/base"
	[ "$(wc -l < "$T/base")" -ge 15 ]
	for f in mangled strings pos jumps parts cache; do
		[ -s "$R/one-$f.out" ] || fail "no $f recording"
		sc "$R/one-$f.out" | mains | diff "$T/base" - || fail "$f"
	done
	grep -q '^fn=([0-9]*) ([0-9]*)' "$R/one-mangled.out"
	grep -q '^part: 2' "$R/one-parts.out"
	grep -q '^jcnd=' "$R/one-jumps.out"
	grep -q '^fn=main' "$R/one-strings.out"
}

@test "--event and --list on a cache simulation: each event's stacks add up to its total" {
	need_valgrind
	run sc --list "$R/one-cache.out"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 9 ]
	for l in "${lines[@]}"; do
		set -- $l
		sum=$(sc --event "$1" "$R/one-cache.out" | awk '{ s += $NF } END { print s + 0 }')
		[ "$sum" = "$2" ] || fail "$1: $sum, want $2"
	done
	[ "$(sc --event Ir "$R/one-cache.out")" = "$(sc "$R/one-cache.out")" ]
	[ "$(sc --event Dr "$R/one-cache.out")" != "$(sc "$R/one-cache.out")" ]
}

@test "per-thread files (--separate-threads=yes) are summed: the thread's stacks with main's" {
	need_valgrind
	run sc "$R"/thr.out-*
	[ "$status" -eq 0 ]
	[[ "$output" == *"start_thread;worker;work 18005"* ]]
	[[ "$output" == *";main;heavy;work 30005"* ]]
	run sc --list "$R"/thr.out-*
	[[ "${lines[0]}" == "$R/thr.out-01:" ]]
}

@test "--objects: functions without a name get their object" {
	need_valgrind
	run sc --objects "$R/ctx.out"
	[[ "$output" == "[ld-linux-x86-64.so.2 <0x"*">];"* ]] || [[ "$output" == "[ld"*"<0x"* ]]
	! [[ "$output" == *";0x0"* ]]
	case_ok unknown-objects --objects "$D/unknown.cg"
}

@test "name compression: ids in any order, used again, defined by cfn=" {
	case_ok compress "$D/compress.cg"
}

@test "positions 'instr line', +N -N *, trailing zeros, calls= (also 0) inclusive, jump lines, fi/fe" {
	case_ok positions "$D/positions.cg"
	case_ok positions-Dr --event Dr "$D/positions.cg"
	run sc --list "$D/positions.cg"
	[ "$output" = $'Ir 1024\nDr 264\nDw 52' ]
}

@test "several parts in one file are summed" {
	case_ok parts "$D/parts.cg"
}

@test "--compress-mangled=yes: contexts by ids, names with ' inside split exactly" {
	case_ok mangled "$D/mangled.cg"
}

@test "names with ' inside split where the rest names the caller's context" {
	case_ok quote "$D/quote.cg"
	# and a recursion level after such a name
	printf '%s\n' 'events: Ir' "fn=(1) op''x'2'main'(below main)" '1 5' \
	    "fn=(3) op''x'main'(below main)" '1 1' "fn=(2) main'(below main)" '1 1' \
	    'fn=(4) (below main)' '1 1' 'totals: 8' > "$T/level.cg"
	run sc "$T/level.cg"
	[ "$output" = $'(below main) 1\n(below main);main 1\n(below main);main;op\'\'x 6' ]
}

@test "cut contexts: completed when one calling context fits, else [stack cut] and a message" {
	run --separate-stderr sc "$D/cut.cg"
	[ "$status" -eq 0 ]
	golden "$D/cut.folded"
	[ "$stderr" = "stackcollapse-callgrind: $D/cut.cg: 12 of 78 Ir (15.4%), in 1 contexts, under [stack cut]: their callers are cut at 2 and do not follow from the file; record with --separate-callers=3 or more for whole stacks (others were completed: one calling context fits)" ]
	case_ok cut -q "$D/cut.cg"
}

@test "no contexts: each function alone, one note for several files, -q" {
	run --separate-stderr sc "$D/noctx.cg" "$D/noctx.cg"
	[ "$status" -eq 0 ]
	[ "$output" = $'(below main) 2\nhelper 140\nmain 20\nwork 500' ]
	[ "$stderr" = "stackcollapse-callgrind: $D/noctx.cg: no call contexts in this profile: each function is alone with its self cost (record with valgrind --tool=callgrind --separate-callers=50 for stacks)" ]
	case_ok noctx -q "$D/noctx.cg"
}

@test "unknown functions (0x..., ???) kept as written" {
	case_ok unknown "$D/unknown.cg"
}

@test "stdin when no file, and '-'" {
	run sc < "$D/compress.cg"
	golden "$D/compress.folded"
	run sc - < "$D/compress.cg"
	golden "$D/compress.folded"
}

@test "--event: a missing event is an error; --list names them" {
	run --separate-stderr sc --event D1mr "$D/positions.cg"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-callgrind: $D/positions.cg:9: no event D1mr in this file (--list shows them)" ]
	[ -z "$output" ]
	run --separate-stderr sc --event '' "$D/positions.cg"
	[ "$status" -eq 2 ]
}

@test "--demangle on fixtures: C++ with parameters, Rust without its hash" {
	printf '%s\n' 'events: Ir' 'fn=(1) _ZN6shapes3AccpLEl' '1 5' \
	    'fn=(2) _ZN4rust4calc5total17h0123456789abcdefE' '1 3' 'totals: 8' > "$T/dm.cg"
	run sc -q --demangle "$T/dm.cg"
	[ "$output" = $'rust::calc::total 3\nshapes::Acc::operator+=(long) 5' ]
	run sc -q "$T/dm.cg"
	[ "$output" = $'_ZN4rust4calc5total17h0123456789abcdefE 3\n_ZN6shapes3AccpLEl 5' ]
}

@test "';' in a name becomes ':'" {
	printf '%s\n' 'events: Ir' "fn=(1) a;b'main" '1 5' 'fn=(2) main' '1 1' 'totals: 6' > "$T/semi.cg"
	run sc -q "$T/semi.cg"
	[ "$output" = $'main 1\nmain;a:b 5' ]
}

@test "--help, --version, usage matches the man page" {
	run sc --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: stackcollapse-callgrind "* ]]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-callgrind (foldkit) "* ]]
	usage_matches_man stackcollapse-callgrind
	run sc --bogus
	[ "$status" -eq 2 ]
}

@test "README: record, collapse, flame graph and folddiff of two runs" {
	need_valgrind
	sc "$R/one.out" | "$BIN/flamegraph-svg" > "$T/cg.svg"
	grep -q '<svg' "$T/cg.svg"
	run "$BIN/folddiff" <(sc "$R/one.out") <(sc "$R/one-cache.out")
	[ "$status" -eq 0 ]
	[[ "$output" == *";main;heavy;work 30005 30005"* ]]
}
