#!/usr/bin/env bats
# The symbol sources behind stackcollapse-perf's perf.data mode (libfold's
# elf.c, syms.c, ksyms.c, symsrc.c), through the symlookup test tool: for
# every callchain frame perf script printed, our lookup must give the same
# symbol.  Captures of our own programs (tests/data/perf/symsrc: sources,
# record.sh, the binaries under root/) replay anywhere; the live test
# records again on this machine and also checks libc and kernel frames.

load helper

SRC=$DATA/perf/symsrc
ROOT=$SRC/root
PROGDIR=/tmp/foldkit-symsrc
# the sanitizer build's copy when there is one
if [ -n "${FOLDKIT_SAN:-}" ] && [ -x "$BIN/../test/symlookup" ]; then
	SYMLOOKUP=$BIN/../test/symlookup
else
	SYMLOOKUP=$TESTBIN/symlookup
fi

setup() {
	EMPTY=$BATS_TEST_TMPDIR/emptycache
	mkdir -p "$EMPTY"
}

# check NAME [symlookup check options]: every frame of NAME's capture
check_capture() {
	local name=$1
	shift
	run --separate-stderr "$SYMLOOKUP" check "$@" "$SRC/$name.script"
}

# the build id recorded for a path of a capture
bid_of() { awk -v p="$2" '$2 == p { print $1 }' "$SRC/$1.bid"; }

# a build-id cache (perf's layout) holding FILE for PATH with build id BID
cache_add() {
	local dir=$1 path=$2 bid=$3 file=$4
	mkdir -p "$dir$path/$bid" "$dir/.build-id/${bid:0:2}"
	cp "$file" "$dir$path/$bid/elf"
	ln -s "../..$path/$bid" "$dir/.build-id/${bid:0:2}/${bid:2}"
}

# status 1 is also what a sanitizer exits with: look at what it says
no_sanitizer_report() {
	[[ "$stderr" != *Sanitizer* && "$stderr" != *"runtime error"* ]] ||
		{ echo "$stderr" >&2; return 1; }
}

frames_at_least() {
	local n
	n=$(printf '%s\n' "$output" | sed -n 's/^frames \([0-9]*\) .*/\1/p')
	[ -n "$n" ] && [ "$n" -ge "$1" ] || { fail "frames: $output"; return 1; }
}

@test "replay: PIE with static, weak, alias, ifunc, size-0 asm, label, PLT" {
	check_capture pie -s "$ROOT" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	[[ "$output" == *" differ 0" ]]
	# the capture holds what the rules decide
	for s in spin_static spin_weak spin_alias spin_impl spin_nosize_loop \
	    'strlen@plt'; do
		grep -q " $s (" "$SRC/pie.script" || fail "no $s frame"
	done
}

@test "replay: -no-pie executable (PLT frames inside _init's extent)" {
	check_capture nopie -s "$ROOT" -d "$EMPTY" -b "$SRC/nopie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q ' _init (' "$SRC/nopie.script"
}

@test "replay: stripped executable (.dynsym only, [unknown] for static functions)" {
	check_capture stripped -s "$ROOT" -d "$EMPTY" -b "$SRC/stripped.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q '\[unknown\] (/tmp/foldkit-symsrc/stripped)' "$SRC/stripped.script"
}

@test "replay: lld PIE (segment addresses not their offsets, .plt entry size 0)" {
	check_capture lldpie -s "$ROOT" -d "$EMPTY" -b "$SRC/lldpie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	# the .plt's frames: [unknown] in perf's tree of size-0 name@plt
	grep -q '\[unknown\] (/tmp/foldkit-symsrc/lldpie)' "$SRC/lldpie.script"
}

@test "replay: a program with its own shared library" {
	check_capture withlib -s "$ROOT" -d "$EMPTY" -b "$SRC/withlib.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q ' lib_inner (/tmp/foldkit-symsrc/libsymt.so)' "$SRC/withlib.script"
}

@test "replay: C++ (namespaces, templates, a class)" {
	check_capture cxx -s "$ROOT" -d "$EMPTY" -b "$SRC/cxx.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q ' _ZN2ns3sumIdEET_RKSt6vectorIS1_SaIS1_EE (' "$SRC/cxx.script"
}

@test "replay: Rust (legacy and v0 mangled names)" {
	check_capture rust -s "$ROOT" -d "$EMPTY" -b "$SRC/rust.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q ' _RNv' "$SRC/rust.script"
}

@test "replay: [vdso] frames from the vDSO's copy in the build-id cache" {
	check_capture vdso -s "$ROOT" -d "$SRC/cache" -b "$SRC/vdso.bid"
	[ "$status" -eq 0 ] || fail "$output"
	frames_at_least 100
	grep -q ' __vdso_clock_gettime (\[vdso\])' "$SRC/vdso.script"
}

@test "[vdso] with no copy in the cache: this process's own vDSO, if its build id matches" {
	# only on a machine whose vDSO is the recorded one (this image's kernel)
	check_capture vdso -s "$ROOT" -d "$EMPTY" -b "$SRC/vdso.bid"
	if [ "$status" -ne 0 ]; then
		[[ "$output" == *"__vdso_clock_gettime ([vdso]): ours [unknown]"* ]] ||
			fail "$output"
		skip "this kernel's vDSO is not the recorded one"
	fi
	frames_at_least 100
	# no build id recorded (pipe mode): the own vDSO is taken as it is
	grep -v '\[vdso\]' "$SRC/vdso.bid" > "$BATS_TEST_TMPDIR/bid"
	check_capture vdso -s "$ROOT" -d "$EMPTY" -b "$BATS_TEST_TMPDIR/bid"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "a different symbol is a failure: the check can fail" {
	sed 's/ spin_weak (/ spin_strong (/' "$SRC/pie.script" > "$BATS_TEST_TMPDIR/bad"
	run "$SYMLOOKUP" check -s "$ROOT" -d "$EMPTY" -b "$SRC/pie.bid" "$BATS_TEST_TMPDIR/bad"
	[ "$status" -eq 1 ]
	[[ "$output" == *"spin_strong (/tmp/foldkit-symsrc/pie): ours spin_weak"* ]]
}

@test "the build-id cache wins over the file at the recorded path" {
	command -v strip >/dev/null || skip "no strip"
	fs=$BATS_TEST_TMPDIR/fs cache=$BATS_TEST_TMPDIR/cache
	mkdir -p "$fs$PROGDIR"
	strip -o "$fs$PROGDIR/pie" "$ROOT$PROGDIR/pie"
	# the stripped file alone misses the static functions
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 1 ]
	[[ "$output" == *"spin_static (/tmp/foldkit-symsrc/pie): ours [unknown]"* ]]
	cache_add "$cache" "$PROGDIR/pie" "$(bid_of pie "$PROGDIR/pie")" "$ROOT$PROGDIR/pie"
	check_capture pie -s "$fs" -d "$cache" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	# with no build id recorded, the file's own one finds the cache too
	check_capture pie -s "$fs" -d "$cache"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "PERF_BUILDID_DIR, then HOME/.debug, when no directory is given" {
	command -v strip >/dev/null || skip "no strip"
	fs=$BATS_TEST_TMPDIR/fs cache=$BATS_TEST_TMPDIR/cache
	mkdir -p "$fs$PROGDIR" "$BATS_TEST_TMPDIR/home"
	strip -o "$fs$PROGDIR/pie" "$ROOT$PROGDIR/pie"
	cache_add "$cache" "$PROGDIR/pie" "$(bid_of pie "$PROGDIR/pie")" "$ROOT$PROGDIR/pie"
	PERF_BUILDID_DIR=$cache check_capture pie -s "$fs" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	cache_add "$BATS_TEST_TMPDIR/home/.debug" "$PROGDIR/pie" "$(bid_of pie "$PROGDIR/pie")" "$ROOT$PROGDIR/pie"
	PERF_BUILDID_DIR= HOME=$BATS_TEST_TMPDIR/home check_capture pie -s "$fs" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "no name@plt in a file whose symbol table gives no symbol (perf adds them to a table that has some)" {
	command -v strip >/dev/null || skip "no strip"
	strip -o "$BATS_TEST_TMPDIR/pie" "$ROOT$PROGDIR/pie"
	# the PIE's .dynsym has only undefined symbols once stripped
	run "$SYMLOOKUP" elf "$BATS_TEST_TMPDIR/pie" 1040
	[ "$output" = "1040 [unknown]" ]
	run "$SYMLOOKUP" elf "$ROOT$PROGDIR/pie" 1040
	[ "$output" = "1040 strlen@plt" ]
	# -rdynamic: defined symbols in .dynsym, so the PLT is named
	run "$SYMLOOKUP" elf "$ROOT$PROGDIR/stripped" 1040
	[ "$output" = "1040 strlen@plt" ]
}

@test "a debug file in /usr/lib/debug/.build-id names a stripped file's functions" {
	command -v objcopy >/dev/null || skip "no objcopy"
	fs=$BATS_TEST_TMPDIR/fs bid=$(bid_of pie "$PROGDIR/pie")
	mkdir -p "$fs$PROGDIR" "$fs/usr/lib/debug/.build-id/${bid:0:2}"
	strip -o "$fs$PROGDIR/pie" "$ROOT$PROGDIR/pie"
	objcopy --only-keep-debug "$ROOT$PROGDIR/pie" \
		"$fs/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "the .gnu_debuglink file comes first: DIR/.debug/NAME" {
	command -v objcopy >/dev/null || skip "no objcopy"
	fs=$BATS_TEST_TMPDIR/fs
	mkdir -p "$fs$PROGDIR/.debug"
	cd "$BATS_TEST_TMPDIR"
	objcopy --only-keep-debug "$ROOT$PROGDIR/pie" pie.debug
	strip -o stripped "$ROOT$PROGDIR/pie"
	objcopy --add-gnu-debuglink=pie.debug stripped "$fs$PROGDIR/pie"
	mv pie.debug "$fs$PROGDIR/.debug/"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output"
	# a debuglink file of another build is not used
	cp "$ROOT$PROGDIR/nopie" "$fs$PROGDIR/.debug/pie.debug"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 1 ]
	[[ "$output" == *"spin_static (/tmp/foldkit-symsrc/pie): ours [unknown]"* ]]
}

@test "a file whose build id differs from the recorded one is not used, said once" {
	fs=$BATS_TEST_TMPDIR/fs
	mkdir -p "$fs$PROGDIR"
	cp "$ROOT$PROGDIR/nopie" "$fs$PROGDIR/pie"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 1 ]
	[[ "$output" == *"spin_weak (/tmp/foldkit-symsrc/pie): ours [unknown]"* ]]
	[ "$stderr" = "symlookup: $PROGDIR/pie: build id differs from the recorded one" ]
}

@test "a missing file: its frames are [unknown], said once" {
	check_capture pie -s "$BATS_TEST_TMPDIR/nothing" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 1 ]
	[ "$stderr" = "symlookup: $PROGDIR/pie: No such file or directory" ]
}

@test "opened and indexed ahead in a thread (-p): the same symbols for every capture" {
	local c
	for c in pie nopie stripped lldpie withlib cxx rust vdso; do
		# the vDSO from the capture's cache, as above
		check_capture "$c" -s "$ROOT" -d "$SRC/cache" -b "$SRC/$c.bid" -p
		[ "$status" -eq 0 ] || fail "$c: $output"
		[[ "$output" == *" differ 0" ]] || fail "$c: $output"
		no_sanitizer_report
	done
}

@test "opened ahead: a missing or different file is still said once, when first used" {
	check_capture pie -s "$BATS_TEST_TMPDIR/nothing" -d "$EMPTY" -b "$SRC/pie.bid" -p
	[ "$status" -eq 1 ]
	[ "$stderr" = "symlookup: $PROGDIR/pie: No such file or directory" ]
	fs=$BATS_TEST_TMPDIR/fs
	mkdir -p "$fs$PROGDIR"
	cp "$ROOT$PROGDIR/nopie" "$fs$PROGDIR/pie"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid" -p
	[ "$status" -eq 1 ]
	[ "$stderr" = "symlookup: $PROGDIR/pie: build id differs from the recorded one" ]
	# nothing looked up in it: nothing said
	grep -v "/pie\$" "$SRC/pie.script" | grep -v "(/tmp/foldkit-symsrc/pie)" > "$BATS_TEST_TMPDIR/novdso"
	run --separate-stderr "$SYMLOOKUP" check -s "$BATS_TEST_TMPDIR/nothing" -d "$EMPTY" -b "$SRC/pie.bid" -p "$BATS_TEST_TMPDIR/novdso"
	[ -z "$stderr" ] || fail "$stderr"
}

@test "opened ahead with one build id, then given another: looked for again with it" {
	# first a wrong id: the file at the path does not match it
	sed 's/^8/9/' "$SRC/pie.bid" > "$BATS_TEST_TMPDIR/wrong"
	grep -q "^9" "$BATS_TEST_TMPDIR/wrong"
	check_capture pie -s "$ROOT" -d "$EMPTY" -b "$BATS_TEST_TMPDIR/wrong"
	[ "$status" -eq 1 ] || fail "wrong id used: $output"
	# ahead with the wrong one, then the recorded one: as if never ahead
	check_capture pie -s "$ROOT" -d "$EMPTY" -b "$BATS_TEST_TMPDIR/wrong" -p -B "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output $stderr"
	[ -z "$stderr" ] || fail "$stderr"
	# the same id again changes nothing
	check_capture pie -s "$ROOT" -d "$EMPTY" -b "$SRC/pie.bid" -p -B "$SRC/pie.bid"
	[ "$status" -eq 0 ] || fail "$output $stderr"
}

@test "ELF32 and ELF64, both byte orders: symbols at file offsets" {
	for t in i386-linux-gnu powerpc-linux-gnu powerpc64-linux-gnu aarch64-linux-gnu; do
		run "$SYMLOOKUP" elf "$SRC/elf/$t.elf" $(cut -d' ' -f1 "$SRC/elf/$t.want")
		[ "$status" -eq 0 ]
		golden "$SRC/elf/$t.want" || fail "$t"
	done
	# aarch64 mapping symbols ($x, $d) are not names
	run "$SYMLOOKUP" elf "$SRC/elf/aarch64-linux-gnu.elf" 1a8
	[ "$output" = "1a8 three" ]
}

@test "a damaged symbol table is said once, and what can be read is used" {
	# damaged-*.elf: the PIE with .symtab's offset past the end, and with
	# every third symbol's name offset past its string table
	run --separate-stderr "$SYMLOOKUP" elf "$SRC/elf/damaged-symtab.elf" 1139 11a0
	[ "$status" -eq 0 ]
	[ "$stderr" = "symlookup: $SRC/elf/damaged-symtab.elf: symbol table past the end of the file" ]
	golden <(printf '%s\n' '1139 [unknown]' '11a0 [unknown]')
	run --separate-stderr "$SYMLOOKUP" elf "$SRC/elf/damaged-names.elf" 1139 11a0 1200
	[ "$status" -eq 0 ]
	[ "$stderr" = "symlookup: $SRC/elf/damaged-names.elf: symbol name outside its string table" ]
	golden <(printf '%s\n' '1139 __do_global_dtors_aux' '11a0 [unknown]' '1200 spin_alias')
	# through the symbol sources: said once for the whole capture
	fs=$BATS_TEST_TMPDIR/fs
	mkdir -p "$fs$PROGDIR"
	cp "$SRC/elf/damaged-names.elf" "$fs$PROGDIR/pie"
	check_capture pie -s "$fs" -d "$EMPTY" -b "$SRC/pie.bid"
	[ "$status" -eq 1 ]
	[ "$stderr" = "symlookup: $PROGDIR/pie: symbol name outside its string table" ]
}

@test "build ids of any length (xxHash, 8 bytes) and ELF facts" {
	run --separate-stderr "$SYMLOOKUP" info "$SRC/elf/powerpc-linux-gnu.elf"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "buildid dc00401ed0eb0f97" ]
	[ "${lines[1]}" = "symtab 1 dynsym 0" ]
	[ "${lines[2]}" = "symbols 4" ]
}

@test "kallsyms: types kept, duplicates, zero sizes, modules" {
	printf '%s\n' \
		'ffffffff81000000 T _stext' \
		'ffffffff81000000 T _text' \
		'ffffffff81000010 t local_fn' \
		'ffffffff81000020 W weak_fn' \
		'ffffffff81000020 T strong_fn' \
		'ffffffff81000030 r rodata_sym' \
		'ffffffff81000040 d data_sym' \
		'ffffffff81000050 T $x' \
		'ffffffff81000060 T last_kernel' \
		'garbage line' \
		'ffffffffc0000000 t mod_fn	[mymod]' \
		'ffffffffc0000100 t mod_fn2	[mymod]' > "$BATS_TEST_TMPDIR/kallsyms"
	run "$SYMLOOKUP" kallsyms "$BATS_TEST_TMPDIR/kallsyms" \
		ffffffff81000000 ffffffff81000015 ffffffff81000020 \
		ffffffff81000035 ffffffff81000045 ffffffff81000055 \
		ffffffff81001fff ffffffff81002000 ffffffffc0000000 \
		ffffffffc0001fff ffffffffc0002000 ffffffff80000000
	[ "$status" -eq 0 ]
	golden <(printf '%s\n' \
		'ffffffff81000000 _text [kernel.kallsyms]' \
		'ffffffff81000015 local_fn [kernel.kallsyms]' \
		'ffffffff81000020 strong_fn [kernel.kallsyms]' \
		'ffffffff81000035 strong_fn [kernel.kallsyms]' \
		'ffffffff81000045 data_sym [kernel.kallsyms]' \
		'ffffffff81000055 data_sym [kernel.kallsyms]' \
		'ffffffff81001fff last_kernel [kernel.kallsyms]' \
		'ffffffff81002000 [unknown] [kernel.kallsyms]' \
		'ffffffffc0000000 mod_fn [mymod]' \
		'ffffffffc0001fff mod_fn2 [mymod]' \
		'ffffffffc0002000 [unknown] [kernel.kallsyms]' \
		'ffffffff80000000 [unknown] [kernel.kallsyms]')
}

@test "kallsyms read lazily: the answers of the table built whole" {
	# out of order, duplicates of every kind, modules in between, a module
	# one page long over the next start (the whole table then), NUL and
	# tabs in names, a last line without newline
	printf '%s\n' \
		'ffffffff81000020 W weak_fn' \
		'ffffffff81000000 T _stext' \
		'ffffffff81000000 t _text' \
		'ffffffff81000020 T strong_fn' \
		'ffffffff81000020 t __strong_fn' \
		'ffffffff81000800 t mod_a	[m1]' \
		'ffffffff81000800 T core_at_mod' \
		'ffffffff81001000 d data	[m1]	x' \
		'ffffffff81001000 T SyS_call' \
		'ffffffff81001000 T sys_call' \
		'ffffffff81003000 b bss_sym' \
		'ffffffffc0000000 t mod_fn	[m2]' \
		'ffffffffc0000100 t mod_fn2	[m2]' \
		'FFFFFFFFC0003000 T upper' \
		'ffffffffc0004000 t ' \
		'ffffffffc0005000 T $skipped' > "$BATS_TEST_TMPDIR/k1"
	printf 'ffffffffc0006000 t nul\0name\tmod\0x\nffffffffc0007000 T last' >> "$BATS_TEST_TMPDIR/k1"
	# the same without the page-long module: read lazily
	grep -av mod_a "$BATS_TEST_TMPDIR/k1" > "$BATS_TEST_TMPDIR/k2"
	files=("$BATS_TEST_TMPDIR/k1" "$BATS_TEST_TMPDIR/k2")
	if awk '$3 == "_text" && $1 != "0000000000000000" { f = 1 } END { exit !f }' /proc/kallsyms 2> /dev/null; then
		cp /proc/kallsyms "$BATS_TEST_TMPDIR/k3"
		files+=("$BATS_TEST_TMPDIR/k3")
	fi
	for f in "${files[@]}"; do
		# every start, and around it
		awk '$1 ~ /^[0-9a-fA-F]+$/ && NR % 3 == 1 {
			a = tolower($1); print a
			for (d = 1; d <= 8 && d <= length(a); d += 3) {
				p = substr(a, 1, length(a) - d)
				print p "0" substr(a, length(a) - d + 2)
				print p "f" substr(a, length(a) - d + 2)
			}
		}' "$f" > "$BATS_TEST_TMPDIR/addrs"
		"$SYMLOOKUP" kallsyms "$f" < "$BATS_TEST_TMPDIR/addrs" > "$BATS_TEST_TMPDIR/lazy"
		"$SYMLOOKUP" kallsyms-full "$f" < "$BATS_TEST_TMPDIR/addrs" > "$BATS_TEST_TMPDIR/full"
		[ -s "$BATS_TEST_TMPDIR/full" ]
		diff -u "$BATS_TEST_TMPDIR/full" "$BATS_TEST_TMPDIR/lazy" || fail "differ on $f"
	done
	# and the expected answers where they matter
	run "$SYMLOOKUP" kallsyms "$BATS_TEST_TMPDIR/k2" ffffffff81000025 ffffffff81000805 \
		ffffffff81001005 ffffffffc0000105 ffffffffc0006001 ffffffffc0004000
	[ "$status" -eq 0 ]
	golden <(printf '%s\n' \
		'ffffffff81000025 __strong_fn [kernel.kallsyms]' \
		'ffffffff81000805 core_at_mod [kernel.kallsyms]' \
		'ffffffff81001005 sys_call [kernel.kallsyms]' \
		'ffffffffc0000105 mod_fn2 [m2]' \
		'ffffffffc0006001 nul mod' \
		'ffffffffc0004000  [kernel.kallsyms]')
}

@test "kernel: the kallsyms copy in the build-id cache, moved by the recorded _text (KASLR)" {
	cache=$BATS_TEST_TMPDIR/cache kbid=0123456789abcdef0123456789abcdef01234567
	mkdir -p "$cache/[kernel.kallsyms]/$kbid"
	printf '%s\n' \
		'ffffffff81000000 T _text' \
		'ffffffff81000010 t local_fn' \
		'ffffffff81000020 T other_fn' \
		'ffffffffc0000000 t mod_fn	[mymod]' \
		'ffffffffc0000100 t mod_fn2	[mymod]' > "$cache/[kernel.kallsyms]/$kbid/kallsyms"
	echo "$kbid [kernel.kallsyms]" > "$BATS_TEST_TMPDIR/bid"
	printf '%s\n' \
		'swapper     0/0     PERF_RECORD_MMAP -1/0: [0xffffffff81200000(0x1000000) @ 0xffffffff81200000]: x [kernel.kallsyms]_text' \
		'prog 5/5 ' \
		'	ffffffff81200015 local_fn ([kernel.kallsyms])' \
		'	ffffffff81200020 other_fn ([kernel.kallsyms])' \
		'	ffffffffc0000105 mod_fn2 ([mymod])' \
		'	ffffffff81000015 [unknown] ([kernel.kallsyms])' > "$BATS_TEST_TMPDIR/k.script"
	run --separate-stderr "$SYMLOOKUP" check -d "$cache" -b "$BATS_TEST_TMPDIR/bid" "$BATS_TEST_TMPDIR/k.script"
	[ "$status" -eq 0 ] || fail "$output"
	[ "$output" = "frames 4 same 4 differ 0" ]
	# no copy of that kernel: a message, and no names
	run --separate-stderr "$SYMLOOKUP" check -d "$EMPTY" -b "$BATS_TEST_TMPDIR/bid" "$BATS_TEST_TMPDIR/k.script"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"[kernel.kallsyms]/$kbid/kallsyms: No such file or directory" ]]
}

@test "kernel: this kernel's kallsyms copy in the cache read in place of /proc/kallsyms only where they agree" {
	command -v perf > /dev/null 2>&1 || skip "perf not installed"
	kbid=$(perf buildid-list -k 2> /dev/null) && [ -n "$kbid" ] || skip "no build id for this kernel"
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
	[ -n "$text" ] && [ "$text" != 0000000000000000 ] || skip "/proc/kallsyms without addresses"
	# two functions of the kernel proper, and an address in the modules'
	# space as /proc/kallsyms names it
	# shellcheck disable=SC2046
	set -- $(awk -v t="$text" '$2 == "T" && $1 > t && NF == 3 { if (++n == 100 || n == 2000) print $1, $3 }' /proc/kallsyms)
	f1=$1 n1=$2 f2=$3 n2=$4 fm=ffffffffc0100000
	[ -n "$n2" ] || skip "too few kernel functions"
	nm=$("$SYMLOOKUP" kallsyms /proc/kallsyms "$fm" | awk '{ print $2 " (" $3 ")" }')
	cache=$BATS_TEST_TMPDIR/cache dir="$BATS_TEST_TMPDIR/cache/[kernel.kallsyms]/$kbid"
	mkdir -p "$dir"
	echo "$kbid [kernel.kallsyms]" > "$BATS_TEST_TMPDIR/bid"
	mmap="swapper 0/0 PERF_RECORD_MMAP -1/0: [0x$text(0x1000000) @ 0x$text]: x [kernel.kallsyms]_text"
	# the copy renames n1: where it is read, n1 is cached_n1
	awk -v a="$f1" -v n="$n1" '$1 == a && $3 == n { $3 = "cached_" n } { print }' /proc/kallsyms > "$dir/kallsyms"
	printf '%s\n' "$mmap" 'prog 5/5 ' "	$f1 cached_$n1 ([kernel.kallsyms])" \
		"	$f2 $n2 ([kernel.kallsyms])" > "$BATS_TEST_TMPDIR/a.script"
	run --separate-stderr "$SYMLOOKUP" check -d "$cache" -b "$BATS_TEST_TMPDIR/bid" "$BATS_TEST_TMPDIR/a.script"
	[ "$output" = "frames 2 same 2 differ 0" ] || fail "copy not read: $output"
	# an address outside the kernel proper: /proc/kallsyms after all (the
	# copy's module is not there), and from then on
	printf '%s\t[fakemod]\n' "$fm t fake_fn" >> "$dir/kallsyms"
	printf '%s\n' "$mmap" 'prog 5/5 ' "	$f1 cached_$n1 ([kernel.kallsyms])" \
		"	$fm $nm" "	$f2 $n2 ([kernel.kallsyms])" > "$BATS_TEST_TMPDIR/c.script"
	run --separate-stderr "$SYMLOOKUP" check -d "$cache" -b "$BATS_TEST_TMPDIR/bid" "$BATS_TEST_TMPDIR/c.script"
	[ "$output" = "frames 3 same 3 differ 0" ] || fail "module address: $output"
	# the copy's _text elsewhere (another boot, KASLR): not read at all
	awk -v a="$f1" -v n="$n1" '$1 == a && $3 == n { $3 = "cached_" n } $3 == "_text" { $1 = "ffffffff80000000" } { print }' \
		/proc/kallsyms > "$dir/kallsyms"
	printf '%s\n' "$mmap" 'prog 5/5 ' "	$f1 $n1 ([kernel.kallsyms])" > "$BATS_TEST_TMPDIR/b.script"
	run --separate-stderr "$SYMLOOKUP" check -d "$cache" -b "$BATS_TEST_TMPDIR/bid" "$BATS_TEST_TMPDIR/b.script"
	[ "$output" = "frames 1 same 1 differ 0" ] || fail "moved copy read: $output"
}

@test "perf maps: names with spaces, sizes as given, the last line's last byte" {
	printf '1000 10 jit_a\n1010 20 jit b with spaces\n2000 0 zero\n3000 10 dup1\n3000 10 dup2\nzz\n4000 10 lastline' \
		> "$BATS_TEST_TMPDIR/perf-1.map"
	run "$SYMLOOKUP" permap "$BATS_TEST_TMPDIR/perf-1.map" \
		1005 1010 102f 1030 2000 2001 3005 4005
	[ "$status" -eq 0 ]
	golden <(printf '%s\n' '1005 jit_a' '1010 jit b with spaces' \
		'102f jit b with spaces' '1030 [unknown]' '2000 zero' \
		'2001 [unknown]' '3005 dup1' '4005 lastlin')
}

@test "JIT frames resolve through /tmp/perf-PID.map at absolute addresses" {
	pid=$((4000000 + $$ % 100000))
	map=/tmp/perf-$pid.map
	printf '7f0000001000 100 jitted_fn\n' > "$map"
	printf '%s\n' \
		"java $pid/$pid PERF_RECORD_MMAP2 $pid/$pid: [0x7f0000000000(0x10000) @ 0 00:00 0 0]: rwxp $map" \
		"java $pid/$pid " \
		"	    7f0000001010 jitted_fn ($map)" \
		"	    7f0000002000 [unknown] ($map)" > "$BATS_TEST_TMPDIR/jit.script"
	run "$SYMLOOKUP" check -d "$EMPTY" "$BATS_TEST_TMPDIR/jit.script"
	[ "$status" -eq 0 ] || { rm -f "$map"; fail "$output"; }
	[ "$output" = "frames 2 same 2 differ 0" ] || { rm -f "$map"; false; }
	# another user's map is not read, as perf does
	if [ "$(id -u)" = 0 ] && chown 1:1 "$map" 2>/dev/null; then
		run --separate-stderr "$SYMLOOKUP" check -d "$EMPTY" "$BATS_TEST_TMPDIR/jit.script"
		rm -f "$map"
		[ "$status" -eq 1 ]
		[ "$stderr" = "symlookup: $map: not owned by the current user or root: not used" ]
	fi
	rm -f "$map"
}

@test "a FIFO where a binary or a perf map was recorded: a message, never a hang" {
	command -v mkfifo >/dev/null || skip "no mkfifo"
	command -v timeout >/dev/null || skip "no timeout"
	fifo=$BATS_TEST_TMPDIR/bin.fifo
	mkfifo "$fifo"
	run --separate-stderr timeout 20 "$SYMLOOKUP" elf "$fifo" 1000
	[ "$status" -ne 124 ] || fail "hangs on a FIFO"
	[ "$stderr" = "symlookup: $fifo: not a regular file" ] || fail "$stderr"
	# as a recorded object, opened ahead (a build id) and looked up
	printf '%s\n' \
		"prog 7/7 PERF_RECORD_MMAP2 7/7: [0x400000(0x10000) @ 0 00:00 0 0]: r-xp $fifo" \
		"prog 7/7 " "	    401000 [unknown] ($fifo)" > "$BATS_TEST_TMPDIR/f.script"
	echo "8eb1d3ef5cbb6f8b11245c3d08e04b78c6f2410d $fifo" > "$BATS_TEST_TMPDIR/f.bid"
	run --separate-stderr timeout 20 "$SYMLOOKUP" check -d "$EMPTY" -b "$BATS_TEST_TMPDIR/f.bid" -p "$BATS_TEST_TMPDIR/f.script"
	[ "$status" -ne 124 ] || fail "hangs on a recorded FIFO"
	[ "$output" = "frames 1 same 1 differ 0" ] || fail "$output"
	[ "$stderr" = "symlookup: $fifo: not a regular file" ] || fail "$stderr"
	# a perf map that is a FIFO
	pid=$((4100000 + $$ % 100000))
	map=/tmp/perf-$pid.map
	rm -f "$map"
	mkfifo "$map"
	printf '%s\n' \
		"java $pid/$pid PERF_RECORD_MMAP2 $pid/$pid: [0x7f0000000000(0x10000) @ 0 00:00 0 0]: rwxp $map" \
		"java $pid/$pid " "	    7f0000001010 [unknown] ($map)" > "$BATS_TEST_TMPDIR/j.script"
	run --separate-stderr timeout 20 "$SYMLOOKUP" check -d "$EMPTY" "$BATS_TEST_TMPDIR/j.script"
	rm -f "$map"
	[ "$status" -ne 124 ] || fail "hangs on a FIFO perf map"
	[ "$output" = "frames 1 same 1 differ 0" ] || fail "$output"
	[ "$stderr" = "symlookup: $map: not a regular file" ] || fail "$stderr"
}

@test "hostile ELF: not ELF, cut short anywhere, bytes changed: a message or fewer symbols, never a crash" {
	f=$BATS_TEST_TMPDIR/elf
	printf 'not an elf file at all' > "$f"
	run --separate-stderr "$SYMLOOKUP" elf "$f" 0
	[ "$status" -eq 1 ]
	[ "$stderr" = "symlookup: $f: not an ELF file" ]
	src=$ROOT$PROGDIR/pie
	size=$(wc -c < "$src")
	for n in 0 4 16 52 63 64 65 200 1000 4000 8000 12000 $((size - 100)) $((size - 1)); do
		head -c "$n" "$src" > "$f"
		run --separate-stderr "$SYMLOOKUP" elf "$f" 1000 1139 1200
		[ "$status" -le 1 ] || fail "cut at $n: status $status"
		no_sanitizer_report || fail "cut at $n"
	done
	for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		cp "$src" "$f"
		# 64 random bytes over the headers, another 64 over the tables
		"$TESTBIN/randbytes" 64 "$seed" | dd of="$f" bs=1 seek=$((seed * 3)) conv=notrunc 2>/dev/null
		"$TESTBIN/randbytes" 64 "$((seed + 100))" | dd of="$f" bs=1 seek=$((size - 64 * seed)) conv=notrunc 2>/dev/null
		run --separate-stderr "$SYMLOOKUP" elf "$f" 1000 1139 1200 3000
		[ "$status" -le 1 ] || fail "seed $seed: status $status"
		no_sanitizer_report || fail "seed $seed"
	done
	if [ -d "$BATS_TEST_DIRNAME/fuzz/regress/elf" ]; then
		for r in "$BATS_TEST_DIRNAME"/fuzz/regress/elf/*; do
			[ -f "$r" ] || continue
			run --separate-stderr "$SYMLOOKUP" elf "$r" 0 40 1000 1139
			[ "$status" -le 1 ] || fail "$r: status $status"
			no_sanitizer_report || fail "$r"
		done
	fi
}

@test "live: record our programs now, every frame (libc, kernel too) as perf script says" {
	command -v perf >/dev/null || skip "no perf"
	command -v cc >/dev/null && command -v c++ >/dev/null || skip "no compiler"
	perf record -q -o "$BATS_TEST_TMPDIR/probe.data" true >/dev/null 2>&1 ||
		skip "perf record does not work here"
	dir=$BATS_TEST_TMPDIR/progs out=$BATS_TEST_TMPDIR/out
	sh "$SRC/record.sh" "$dir" "$out"
	for p in pie nopie stripped withlib cxx vdso lldpie rust; do
		[ -f "$out/$p.script" ] || continue	# no clang, no rustc
		run --separate-stderr "$SYMLOOKUP" check -b "$out/$p.bid" "$out/$p.script"
		[ "$status" -eq 0 ] || fail "$p: $output"
		frames_at_least 100
	done
}
