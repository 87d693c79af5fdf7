#!/usr/bin/env bats
# stackcollapse-perf on perf.data: the same stacks as perf script's text.

load helper

sc() { "$BIN/stackcollapse-perf" "$@"; }
D=$BATS_TEST_DIRNAME/data/perf/pd
B=$D/buildid
MANGLE=$TESTBIN/pdmangle

# Every option the output contract covers, one set per line.
OPTSETS=(
	""
	"--pid"
	"--tid"
	"--kernel"
	"--jit"
	"--all"
	"--addrs"
	"--samples"
	"--event-filter cpu-clock"
	"--event-filter task-clock"
	"--skip-after main"
	"--skip-after run_workload"
	"--tid --all --addrs"
)

setup() {
	# The JIT capture's map, where perf wrote it (perf reads it there).
	JITMAP=/tmp/perf-$(cat "$D/jit.pid").map
	if [ -e "$JITMAP" ] && ! cmp -s "$JITMAP" "$D/jit.perf-map"; then
		JITMAP=
	elif [ ! -e "$JITMAP" ]; then
		cp "$D/jit.perf-map" "$JITMAP" && JITMAP_MADE=1
	fi
}

teardown() {
	[ -n "${JITMAP_MADE:-}" ] && rm -f "$JITMAP"
	return 0
}

# same NAME [EXTRA...]: for every option set, the stacks of NAME.data with
# --no-demangle equal those of NAME.txt (perf script --no-demangle, recorded
# alongside); and by default, demangled, those of perf script's own text
# (NAME.dm.folded, NAME.dm-all.folded: collapsed when recorded).
same() {
	local name=$1 o
	shift
	for o in "${OPTSETS[@]}"; do
		# shellcheck disable=SC2086
		diff -u <(sc -q $o "$D/$name.txt") <(sc -q --no-demangle $o "$@" "$D/$name.data") ||
			{ echo "differs with options: '$o'"; return 1; }
	done
	if [ -f "$D/$name.dm.folded" ]; then
		diff -u "$D/$name.dm.folded" <(sc -q "$@" "$D/$name.data") ||
			{ echo "differs from perf script (demangled)"; return 1; }
		diff -u "$D/$name.dm-all.folded" <(sc -q --tid --all --addrs "$@" "$D/$name.data") ||
			{ echo "differs from perf script (demangled), --tid --all --addrs"; return 1; }
	fi
}

# ---- the recorded captures: byte for byte as perf script | stackcollapse-perf

@test "C++: templates, namespaces, lambdas" {
	same cpp --buildid-dir "$B"
	run sc --no-demangle --buildid-dir "$B" "$D/cpp.data"
	[[ "$output" == *"main;_Z5applyIZ4mainEUliE0_EmT_i;_ZN5store5IndexI"* ]]
	[[ "$output" == *"_ZN5store12_GLOBAL__N_13mixEm"* ]]
	# demangled by default, as perf script prints the names
	run sc --buildid-dir "$B" "$D/cpp.data"
	[[ "$output" == *"main;apply<main::{lambda(int)#2}>;store::Index<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, long>::put "* ]]
	[[ "$output" == *";store::(anonymous namespace)::mix "* ]]
}

@test "Rust" {
	same rust --buildid-dir "$B"
	run sc --no-demangle --buildid-dir "$B" "$D/rust.data"
	[[ "$output" == *";_ZN4main1m4work"* ]]
	run sc --buildid-dir "$B" "$D/rust.data"
	[[ "$output" == *";main::m::work"* ]]
}

@test "a program with its own shared library" {
	same shlib --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/shlib.data"
	[[ "$output" == *"main;fk_hash"* ]]
}

@test "a stripped binary: .dynsym names only" {
	same stripped --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/stripped.data"
	[[ "$output" == *"st_outer;st_inner"* ]]
	[[ "$output" == *"[stripped]"* ]]
}

@test "fork+exec and short-lived threads: comm and maps over time" {
	same fork --buildid-dir "$B"
	run sc --tid --buildid-dir "$B" "$D/fork.data"
	[[ "$output" == *"fkparent-?/"*";spin"* ]]
	[[ "$output" == *"fkchild-?/"*";__libc_start_call_main;spin"* ]]
	[[ "$output" == *"fk-thr-2-?/"*";start_thread;spin"* ]]
}

@test "two events: the first is the default, --event-filter picks" {
	same events2 --buildid-dir "$B"
	run --separate-stderr sc --buildid-dir "$B" "$D/events2.data"
	[[ "$stderr" == *"more than one event: only 'cpu-clock' samples are kept"* ]]
	run sc --event-filter task-clock --buildid-dir "$B" "$D/events2.data"
	[ -n "$output" ]
	run sc --event-filter no-such-event --buildid-dir "$B" "$D/events2.data"
	[ -z "$output" ]
}

@test "JIT code named by /tmp/perf-PID.map" {
	[ -n "$JITMAP" ] || skip "$JITMAP exists with other contents"
	same jit --buildid-dir "$B"
	run sc --jit --buildid-dir "$B" "$D/jit.data"
	[[ "$output" == *"_[j]"* ]]
}

@test "system-wide, kernel frames" {
	same kernel --buildid-dir "$B"
	run sc --kernel --buildid-dir "$B" "$D/kernel.data"
	[[ "$output" == *"entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k]"* ]]
}

@test "periods summing past 2^64, kernel frames: the samples perf script's text skips, the file named" {
	# kernel frames wait for kallsyms (read in a thread) and are counted
	# by stack meanwhile: counts too large must come out as one by one
	"$MANGLE" period 9223372036854775807 "$D/kernel.data" "$BATS_TEST_TMPDIR/k.data"
	sed -E 's/^(.*:) +1001001 cpu-clock/\1 9223372036854775807 cpu-clock/' \
		"$D/kernel.txt" > "$BATS_TEST_TMPDIR/k.txt"
	[ "$(grep -c ' 9223372036854775807 cpu-clock' "$BATS_TEST_TMPDIR/k.txt")" = 47 ]
	sc "$BATS_TEST_TMPDIR/k.txt" > "$BATS_TEST_TMPDIR/text.out" 2> /dev/null && false
	for o in "" "--kernel" "--tid --all"; do
		# shellcheck disable=SC2086
		sc -q $o "$BATS_TEST_TMPDIR/k.txt" > "$BATS_TEST_TMPDIR/text.out" || true
		# shellcheck disable=SC2086
		run --separate-stderr sc --no-demangle $o --buildid-dir "$B" "$BATS_TEST_TMPDIR/k.data"
		[ "$status" -eq 1 ]
		[ "$output" = "$(cat "$BATS_TEST_TMPDIR/text.out")" ]
		[ "${stderr_lines[0]}" = "stackcollapse-perf: $BATS_TEST_TMPDIR/k.data: sum of counts larger than 18446744073709551615; sample skipped" ]
		[ "${stderr_lines[1]}" = "stackcollapse-perf: 6 samples skipped: count too large" ]
	done
}

@test "samples without a call graph: one frame each" {
	same nocallchain --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/nocallchain.data"
	[[ "$output" == *"shlib;local_loop "* ]]
}

@test "most sample fields (ADDR CPU RAW READ REGS_USER WEIGHT DATA_SRC ...) walked" {
	same allfields --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/allfields.data"
	[[ "$output" == *"main;fk_hash"* ]]
}

@test "a tracepoint beside cpu-clock: no event name, counts 1, never filtered" {
	same tracepoint --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/tracepoint.data"
	[[ "$output" == *";schedule;__schedule "* ]]
}

@test "pipe mode (perf record -o -), binaries found with --symfs" {
	same pipe --symfs "$D/symfs"
	run sc --symfs "$D/symfs" "$D/pipe.data"
	[[ "$output" == *"pipe_worker;"*"run_workload"* ]]
	# streamed through a pipe
	run bash -c 'cat "$1" | "$2" -q --symfs "$3"' _ "$D/pipe.data" "$BIN/stackcollapse-perf" "$D/symfs"
	diff -u <(sc -q "$D/pipe.txt") <(printf '%s\n' "$output")
}

@test "an object name with parentheses (/memfd:fk (deleted)) stays whole, as in the text" {
	same memfd --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/memfd.data"
	[[ "$output" == *";[memfd:fk (deleted)];"* ]]
	run sc --addrs --buildid-dir "$B" "$D/memfd.data"
	[[ "$output" == *";[memfd:fk (deleted) <"[0-9a-f]*">];"* ]]
}

@test "a library deleted while its process ran: (/path/libfk.so (deleted)) read whole, its symbols found" {
	grep -q 'fk_hash+0x[0-9a-f]* (/tmp/foldkit-pd/libfk.so (deleted))$' "$D/deleted.txt"
	same deleted --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/deleted.data"
	[[ "$output" == *"shlib;__libc_start_call_main;main;fk_hash "* ]]
	[[ "$output" != *"+0x"* ]]
}

@test "fixed period (perf record -c): each sample weighs the event's sample_period" {
	# no PERIOD in the samples: perf script prints the attr's period
	grep -q '^shlib .*  *250000 cpu-clock:' "$D/fixed.txt"
	same fixed --buildid-dir "$B"
	run sc --buildid-dir "$B" "$D/fixed.data"
	[[ "$output" == *"shlib;__libc_start_call_main;local_loop "*"250000" ]]
	while read -r line; do
		(( ${line##* } % 250000 == 0 ))
	done <<< "$output"
	# --samples counts them one by one
	n=$(grep -c ' cpu-clock:' "$D/fixed.txt")
	[ "$(sc --samples --buildid-dir "$B" "$D/fixed.data" | awk '{ s += $NF } END { print s }')" = "$n" ]
}

@test "two events of different fixed periods, in a file and through a pipe" {
	for f in "fixed2 --buildid-dir $B" "fixedpipe --symfs $D/symfs"; do
		set -- $f
		name=$1
		shift
		same "$name" "$@"
		for ev in cpu-clock/period=200000/ task-clock/period=500000/; do
			p=${ev#*=}
			p=${p%/}
			# shellcheck disable=SC2086
			diff -u <(sc -q --event-filter "$ev" "$D/$name.txt") \
				<(sc -q --no-demangle --event-filter "$ev" "$@" "$D/$name.data")
			run sc -q --event-filter "$ev" "$@" "$D/$name.data"
			[ -n "$output" ]
			total=$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')
			n=$(grep -c " $ev:" "$D/$name.txt")
			[ "$total" = $((n * p)) ]
		done
	done
}

@test "the build-id cache wins; without it our binaries are [unknown]" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run sc -q --buildid-dir "$BATS_TEST_TMPDIR/empty" --symfs "$BATS_TEST_TMPDIR/empty" "$D/shlib.data"
	[[ "$output" == *";[libfk.so]"* ]]
	[[ "$output" != *"fk_hash"* ]]
	# the default cache is ~/.debug
	mkdir -p "$BATS_TEST_TMPDIR/home"
	ln -s "$B" "$BATS_TEST_TMPDIR/home/.debug"
	run env HOME="$BATS_TEST_TMPDIR/home" "$BIN/stackcollapse-perf" "$D/shlib.data"
	[[ "$output" == *"fk_hash"* ]]
}

@test "perf.data on stdin, mapped or streamed, and mixed with text" {
	run sc --buildid-dir "$B" < "$D/cpp.data"
	diff -u "$D/cpp.dm.folded" <(printf '%s\n' "$output")
	run bash -c 'cat "$1" | "$2" --buildid-dir "$3"' _ "$D/cpp.data" "$BIN/stackcollapse-perf" "$B"
	diff -u "$D/cpp.dm.folded" <(printf '%s\n' "$output")
	# a perf.data and a text file: the stacks of both, summed
	run sc --no-demangle --buildid-dir "$B" "$D/shlib.data" "$D/shlib.txt"
	diff -u <(cat "$D/shlib.txt" "$D/shlib.txt" | sc) <(printf '%s\n' "$output")
}

@test "several perf.data files: threads and maps start over for each, stacks add up" {
	run sc -q --no-demangle --buildid-dir "$B" "$D/shlib.data" "$D/fork.data" "$D/shlib.data"
	diff -u <(cat "$D/shlib.txt" "$D/fork.txt" "$D/shlib.txt" | sc -q) <(printf '%s\n' "$output")
}

@test "queued records stay as read across read buffers: captures 100 times over, streamed and in memory, the same stacks" {
	# A regular file is read in 256 KiB chunks and a queued record stays
	# in its chunk until delivered; through a pipe a file-mode capture is
	# read whole first and queued in place.  Each repeated capture spans
	# several chunks with records queued across them; reusing a chunk
	# that still holds one garbles stacks.
	local f
	for f in cpp kernel fork events2; do
		"$MANGLE" repeat 100 "$D/$f.data" "$BATS_TEST_TMPDIR/$f.data"
		[ "$(wc -c < "$BATS_TEST_TMPDIR/$f.data")" -gt 786432 ]
		sc -q --no-demangle --buildid-dir "$B" "$BATS_TEST_TMPDIR/$f.data" > "$BATS_TEST_TMPDIR/s.out"
		[ -s "$BATS_TEST_TMPDIR/s.out" ]
		sc -q --no-demangle --buildid-dir "$B" < "$BATS_TEST_TMPDIR/$f.data" |
			diff -u - "$BATS_TEST_TMPDIR/s.out"
		cat "$BATS_TEST_TMPDIR/$f.data" | sc -q --no-demangle --buildid-dir "$B" |
			diff -u - "$BATS_TEST_TMPDIR/s.out"
		# the same samples 100 times: the same stacks, 100 times the counts
		sc -q --no-demangle --buildid-dir "$B" "$D/$f.data" |
			awk '{ $NF = sprintf("%.0f", $NF * 100); print }' |
			diff -u - "$BATS_TEST_TMPDIR/s.out"
	done
}

@test "--inline --context: perf.data frames expanded as the text path expands them" {
	diff -u <(sc -q --inline --context "$D/shlib.txt") <(sc -q --no-demangle --inline --context --buildid-dir "$B" "$D/shlib.data")
}

@test "a big-endian perf.data gives the same stacks" {
	local n
	for n in cpp fork events2 kernel; do
		"$MANGLE" swap "$D/$n.data" "$BATS_TEST_TMPDIR/$n.be"
		diff -u <(sc -q --buildid-dir "$B" "$D/$n.data") \
			<(sc -q --buildid-dir "$B" "$BATS_TEST_TMPDIR/$n.be")
	done
}

@test "--no-demangle keeps names as recorded; --demangle is for text and changes nothing here" {
	run sc --no-demangle --buildid-dir "$B" "$D/cpp.data"
	[[ "$output" == *"_ZN5store"* ]]
	[[ "$output" != *"store::"* ]]
	diff -u <(sc --buildid-dir "$B" "$D/cpp.data") <(sc --demangle --buildid-dir "$B" "$D/cpp.data")
	# --demangle on text of perf script --no-demangle: the same stacks
	diff -u "$D/cpp.dm.folded" <(sc -q --demangle "$D/cpp.txt")
	# both: text demangled, perf.data not
	run sc -q --demangle --no-demangle --buildid-dir "$B" "$D/cpp.data" "$D/cpp.txt"
	[[ "$output" == *"_ZN5store"* ]]
	[[ "$output" == *"store::"* ]]
}

@test "live: record now, both paths give the same stacks" {
	command -v perf > /dev/null || skip "perf is not installed"
	command -v cc > /dev/null || skip "no C compiler"
	local t=$BATS_TEST_TMPDIR
	cc -O1 -fno-omit-frame-pointer -pthread -o "$t/minidb" \
		"$BATS_TEST_DIRNAME/../examples/workload/minidb.c" || skip "cannot build"
	perf record -q -N -F 999 -g -o "$t/live.data" -- "$t/minidb" -s -n 10 \
		> /dev/null 2>&1 || skip "perf record is not permitted here"
	perf script --no-demangle -i "$t/live.data" > "$t/live.txt" 2> /dev/null
	[ -s "$t/live.txt" ] || skip "perf script printed nothing"
	diff -u <(sc -q --all "$t/live.txt") <(sc -q --no-demangle --all "$t/live.data")
	perf script -i "$t/live.data" 2> /dev/null | sc -q --all > "$t/live.dm"
	diff -u "$t/live.dm" <(sc -q --all "$t/live.data")
	# pipe mode, live through a pipe (a copy kept for perf script)
	perf record -q -N -F 999 -g -o - -- "$t/minidb" -t -n 10 2> /dev/null |
		tee "$t/pipe.data" | "$BIN/stackcollapse-perf" -q --no-demangle --tid > "$t/pipe.out"
	perf script --no-demangle -i - < "$t/pipe.data" > "$t/pipe.txt" 2> /dev/null
	diff -u <(sc -q --tid "$t/pipe.txt") "$t/pipe.out"
	[ -s "$t/pipe.out" ]
}

# ---- --call-graph dwarf: the user stacks unwound (--no-inline) ---------------

# same_dwarf NAME [EXTRA...]: for every option set, the stacks of a
# --call-graph dwarf capture with --no-inline equal those of NAME.txt
# (perf script --no-inline --no-demangle); demangled, those of perf script
# --no-inline (NAME.dm.folded, NAME.dm-all.folded).
same_dwarf() {
	local name=$1 o
	shift
	for o in "${OPTSETS[@]}"; do
		# shellcheck disable=SC2086
		diff -u <(sc -q $o "$D/$name.txt") <(sc -q --no-inline --no-demangle $o "$@" "$D/$name.data") ||
			{ echo "differs with options: '$o'"; return 1; }
	done
	diff -u "$D/$name.dm.folded" <(sc -q --no-inline "$@" "$D/$name.data") ||
		{ echo "differs from perf script --no-inline (demangled)"; return 1; }
	diff -u "$D/$name.dm-all.folded" <(sc -q --no-inline --tid --all --addrs "$@" "$D/$name.data") ||
		{ echo "differs from perf script --no-inline, --tid --all --addrs"; return 1; }
}

@test "dwarf: C -O2 without frame pointers: own library, qsort, recursion past 127 frames, vDSO, a signal handler" {
	same_dwarf dwarf --buildid-dir "$B"
	run sc -q --no-inline --buildid-dir "$B" "$D/dwarf.data"
	[[ "$output" == *"dwarf;_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main;main;fk_spin;fk_hash "* ]]
	[[ "$output" == *";main;__GI___qsort_r;msort_with_tmp.part.0;"*";cmp "* ]]
	[[ "$output" == *";main;clock_gettime@@GLIBC_2.17;__vdso_clock_gettime "* ]]
	# a handler's caller: the trampoline (__restore_rt - 1, [libc.so.6]),
	# then the frame the signal interrupted, at its own address
	[[ "$output" == *";cmp;[libc.so.6];on_alarm "* ]]
	# recursion: 127 user frames at most, as perf script (kernel frames
	# come on top of those)
	n=$(printf '%s\n' "$output" | grep -E '^dwarf(;deep)+ [0-9]+$' |
		awk -F';' '{ if (NF > m) m = NF } END { print m }')
	[ "$n" -eq 128 ]
}

@test "dwarf: a stack copy too small (dwarf,512) is cut where perf cuts it, its caller at 0 [unknown]" {
	same_dwarf dwarfsmall --buildid-dir "$B"
	run sc -q --no-inline --addrs --buildid-dir "$B" "$D/dwarfsmall.data"
	[[ "$output" == *"dwarf;[unknown <ffffffffffffffff>];"* ]]
}

@test "dwarf: C++ by g++ -O2 and by clang++ -O2 -gdwarf-5" {
	same_dwarf dwcxx --buildid-dir "$B"
	same_dwarf dwclang --buildid-dir "$B"
	run sc -q --no-inline --buildid-dir "$B" "$D/dwclang.data"
	[[ "$output" == *"dwclang;_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main;main;"* ]]
}

@test "dwarf: Rust release with debug info, recorded with cargo flamegraph's command" {
	# perf record -F 997 --call-graph dwarf,64000 -g
	grep -q 'call-graph dwarf,64000 -g' <(perf report --header-only -i "$D/dwrust.data" 2>/dev/null) ||
		strings "$D/dwrust.data" | grep -q 'dwarf,64000'
	same_dwarf dwrust --buildid-dir "$B"
	run sc -q --no-inline --buildid-dir "$B" "$D/dwrust.data"
	[[ "$output" == *";main;std::rt::lang_start_internal;"*";main::main;"* ]]
}

@test "dwarf: a system binary with CFI only (sort)" {
	same_dwarf dwsort --buildid-dir "$B"
	run sc -q --no-inline --buildid-dir "$B" "$D/dwsort.data"
	# stripped: its _start is [sort], as its other functions
	[[ "$output" == *"sort;[sort];__libc_start_main@@GLIBC_2.34;__libc_start_call_main;[sort];"* ]]
}

@test "dwarf: pipe mode, from a file and through a pipe" {
	same_dwarf dwpipe --symfs "$D/symfs"
	run bash -c 'cat "$1" | "$2" -q --no-inline --no-demangle --symfs "$3"' _ "$D/dwpipe.data" "$BIN/stackcollapse-perf" "$D/symfs"
	diff -u <(sc -q "$D/dwpipe.txt") <(printf '%s\n' "$output")
}

@test "dwarf: fork+exec and threads: whole stacks in every process, where perf 6.1 cuts some (COMPATIBILITY)" {
	# perf script --no-inline: some of the first child's threads end at
	# start_thread, without its caller clone3
	sc -q "$D/dwfork.txt" | grep '^fk-thr' | grep -v ';clone3;' | grep -q .
	run sc -q --no-inline --no-demangle --buildid-dir "$B" "$D/dwfork.data"
	[ "$status" -eq 0 ]
	# ours: every thread's stack goes down to clone3
	printf '%s\n' "$output" | grep -q '^fk-thr'
	! printf '%s\n' "$output" | grep '^fk-thr' | grep -v ';clone3;start_thread;thread_main;'
	# the same samples, and each stack perf has whole is one of ours
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" = \
	  "$(sc -q "$D/dwfork.txt" | awk '{ s += $NF } END { print s }')" ]
	sc -q "$D/dwfork.txt" | grep -E '^[^;]+;(_start|clone3);' | while IFS= read -r l; do
		printf '%s\n' "$output" | grep -qF -- "${l% *} " || { echo "missing: $l"; exit 1; }
	done
}

@test "dwarf: CFI only in .debug_frame: unwound, where perf 6.1 does not read it (COMPATIBILITY)" {
	# -g -fno-asynchronous-unwind-tables: the program's own functions have
	# no .eh_frame; perf script --no-inline stops at the first of them
	[ "$(sc -q "$D/dwdf.txt" | grep -c '^dwdf;leaf.constprop.0 ')" -eq 1 ]
	run sc -q --no-inline --no-demangle --buildid-dir "$B" "$D/dwdf.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"dwdf;_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main;main;top.constprop.0;mid.constprop.0;leaf.constprop.0 "* ]]
	# the same samples; each stack of perf's is the end of one of ours
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" = \
	  "$(sc -q "$D/dwdf.txt" | awk '{ s += $NF } END { print s }')" ]
	sc -q "$D/dwdf.txt" | while IFS= read -r l; do
		rest=${l#dwdf;}
		printf '%s\n' "$output" | grep -qF -- ";${rest% *} " || { echo "missing: $l"; exit 1; }
	done
}

@test "dwarf: a zlib-compressed .debug_frame is inflated; damaged, a message and fewer frames" {
	[ "$(sc -q "$D/dwdfz.txt" | grep -c '^dwdfz;leaf.constprop.0 ')" -eq 1 ]
	run --separate-stderr sc --no-inline --no-demangle --buildid-dir "$B" "$D/dwdfz.data"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"dwdfz;_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main;main;top.constprop.0;mid.constprop.0;leaf.constprop.0 "* ]]
	command -v readelf > /dev/null || skip "readelf not installed"
	# the section's stream damaged in a copy of the cache
	cp -R "$B" "$BATS_TEST_TMPDIR/b"
	elf=$(ls "$BATS_TEST_TMPDIR"/b/tmp/foldkit-pd/dwdfz/*/elf)
	off=$(readelf -SW "$elf" | awk '$2 == ".debug_frame" { print $5 }')
	[ -n "$off" ]
	"$TESTBIN/randbytes" 16 7 | dd of="$elf" bs=1 seek=$((0x$off + 40)) conv=notrunc status=none
	run --separate-stderr sc --no-inline --no-demangle --buildid-dir "$BATS_TEST_TMPDIR/b" "$D/dwdfz.data"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"/tmp/foldkit-pd/dwdfz: .debug_frame: "* ]]
	[[ "$output" == *"dwdfz;leaf.constprop.0 "* ]]
}

@test "--no-inline changes nothing on -g captures and on perf script text" {
	diff -u <(sc -q --buildid-dir "$B" "$D/cpp.data") <(sc -q --no-inline --buildid-dir "$B" "$D/cpp.data")
	diff -u <(sc -q "$D/cpp.txt") <(sc -q --no-inline "$D/cpp.txt")
}

@test "dwarf: stack copies and registers changed at random: fewer frames or a message, never a crash" {
	local t=$BATS_TEST_TMPDIR i off size
	size=$(wc -c < "$D/dwarf.data")
	for i in 1 2 3 4 5 6 7 8; do
		cp "$D/dwarf.data" "$t/r.data"
		for off in $(( (i * 104729) % (size - 8192) + 4096 )) $(( (i * 1299709) % (size - 8192) + 4096 )); do
			"$TESTBIN/randbytes" 2048 "$i$off" | dd of="$t/r.data" bs=1 seek="$off" conv=notrunc status=none
		done
		run --separate-stderr timeout 60 "$BIN/stackcollapse-perf" -q --no-inline --buildid-dir "$B" "$t/r.data"
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
		printf '%s\n' "$output" | while IFS= read -r l; do
			[ -z "$l" ] || [[ "$l" =~ ^[^\ ].*\ [0-9]+$ ]] || { echo "bad line: $l"; exit 1; }
		done
	done
}

@test "dwarf: live: record now, the same stacks as perf script --no-inline" {
	command -v perf > /dev/null || skip "perf is not installed"
	command -v cc > /dev/null || skip "no C compiler"
	local t=$BATS_TEST_TMPDIR
	cc -O2 -g -pthread -o "$t/minidb" \
		"$BATS_TEST_DIRNAME/../examples/workload/minidb.c" || skip "cannot build"
	perf record -q -N -F 999 --call-graph dwarf,8192 -o "$t/live.data" -- "$t/minidb" -t -s -n 10 \
		> /dev/null 2>&1 || skip "perf record is not permitted here"
	perf script --no-inline --no-demangle -i "$t/live.data" > "$t/live.txt" 2> /dev/null
	[ -s "$t/live.txt" ] || skip "perf script printed nothing"
	diff -u <(sc -q --all "$t/live.txt") <(sc -q --no-inline --no-demangle --all "$t/live.data")
	run sc -q --no-inline "$t/live.data"
	[[ "$output" == *"run_workload"* ]]
}

# ---- --call-graph dwarf: inlined frames (perf script's default) --------------

# same_inline NAME [EXTRA...]: for every option set, the stacks of a
# --call-graph dwarf capture equal those of perf script's text with its
# inlined frames (NAME.inl.txt.gz, --no-demangle); demangled, those of
# perf script (NAME.inl.dm.folded, NAME.inl.dm-all.folded).
same_inline() {
	local name=$1 o t=$BATS_TEST_TMPDIR/$1.inl.txt
	shift
	gzip -dc "$D/$name.inl.txt.gz" > "$t"
	for o in "${OPTSETS[@]}"; do
		# shellcheck disable=SC2086
		diff -u <(sc -q $o "$t") <(sc -q --no-demangle $o "$@" "$D/$name.data") ||
			{ echo "differs with options: '$o'"; return 1; }
	done
	diff -u "$D/$name.inl.dm.folded" <(sc -q "$@" "$D/$name.data") ||
		{ echo "differs from perf script (demangled)"; return 1; }
	diff -u "$D/$name.inl.dm-all.folded" <(sc -q --tid --all --addrs "$@" "$D/$name.data") ||
		{ echo "differs from perf script, --tid --all --addrs"; return 1; }
}

@test "dwarf inline: C -O2: inlined static functions, libc's inlined frames from its debug file" {
	gzip -dc "$D/dwarf.inl.txt.gz" | grep -q ' (inlined)$'
	same_inline dwarf --buildid-dir "$B"
	same_inline dwarfsmall --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/dwarf.data"
	# libc6-dbg's DWARF names __libc_start_main's code __libc_start_main_impl
	# (perf prints it "(inlined)", in place of the symbol)
	if [ -e /usr/lib/debug/.build-id ]; then
		[[ "$output" == *"dwarf;_start;__libc_start_main_impl;__libc_start_call_main;main;"* ]]
	fi
}

@test "dwarf inline: C++ by g++ -O2 and by clang++ -O2 -gdwarf-5: chains of inlined templates" {
	same_inline dwcxx --buildid-dir "$B"
	same_inline dwclang --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/dwcxx.data"
	[[ "$output" == *"std::map<"*">::lower_bound;"* ]]
	run sc -q --no-demangle --buildid-dir "$B" "$D/dwcxx.data"
	[[ "$output" == *"_ZNSt3mapI"* ]]
}

@test "dwarf: a plugin loaded with dlopen(), its inlined functions" {
	same_dwarf dwplugin --buildid-dir "$B"
	same_inline dwplugin --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/dwplugin.data"
	[[ "$output" == *";main;drive;plugin_run;round_of;mix "* ]]
}

@test "dwarf inline: Rust release with debug info (cargo flamegraph's command)" {
	same_inline dwrust --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/dwrust.data"
	[[ "$output" == *"<u64>::wrapping_add"* ]]
}

@test "dwarf inline: a system binary without debug info, pipe mode" {
	same_inline dwsort --buildid-dir "$B"
	same_inline dwpipe --symfs "$D/symfs"
	# through a pipe, as recorded with perf record -o -
	diff -u "$D/dwpipe.inl.dm.folded" <(sc -q --symfs "$D/symfs" < "$D/dwpipe.data")
}

@test "dwarf inline: where perf's unwinding is cut (fork+exec, .debug_frame), the same inlined frames on whole stacks" {
	local o
	for o in dwfork dwdf; do
		# the same samples as perf script
		[ "$(sc -q --buildid-dir "$B" "$D/$o.data" | awk '{ s += $NF } END { print s }')" = \
		  "$(awk '{ s += $NF } END { print s }' "$D/$o.inl.dm.folded")" ]
	done
	run sc -q --buildid-dir "$B" "$D/dwdf.data"
	[[ "$output" == *"dwdf;_start;__libc_start_main_impl;__libc_start_call_main;main;top;mid;leaf "* ]] ||
	[[ "$output" == *"dwdf;_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main;main;top;mid;leaf "* ]]
	run sc -q --no-inline --buildid-dir "$B" "$D/dwdf.data"
	[[ "$output" == *";main;top.constprop.0;mid.constprop.0;leaf.constprop.0 "* ]]
}

@test "dwarf inline: damaged debug information: said once, the rest read, never a crash" {
	local t=$BATS_TEST_TMPDIR elf off size i
	cp -r "$B" "$t/b"
	elf=$(ls "$t"/b/tmp/foldkit-pd/dwcxx/*/elf)
	read -r off size < <(readelf -SW "$elf" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$1 == ".debug_info" { print $4, $5 }')
	off=$((16#$off))
	size=$((16#$size))
	for i in 1 2 3 4 5 6 7 8; do
		"$TESTBIN/randbytes" 64 "$i" | dd of="$elf" bs=1 seek=$((off + (i * 7919) % size)) \
			conv=notrunc status=none
	done
	run --separate-stderr timeout 60 "$BIN/stackcollapse-perf" --buildid-dir "$t/b" "$D/dwcxx.data"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$stderr" | grep -c '/tmp/foldkit-pd/dwcxx: debug information: ')" -eq 1 ]
	# the same samples, every line a stack and a count
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" = \
	  "$(awk '{ s += $NF } END { print s }' "$D/dwcxx.inl.dm.folded")" ]
	printf '%s\n' "$output" | while IFS= read -r l; do
		[[ "$l" =~ ^[^\ ].*\ [0-9]+$ ]] || { echo "bad line: $l"; exit 1; }
	done
}

@test "dwarf inline: live: record now, the same stacks as perf script" {
	command -v perf > /dev/null || skip "perf is not installed"
	command -v g++ > /dev/null || skip "no C++ compiler"
	local t=$BATS_TEST_TMPDIR
	g++ -O2 -g -o "$t/cpp" "$D/src/cpp.cc" || skip "cannot build"
	perf record -q -N -F 1999 --call-graph dwarf,16384 -o "$t/live.data" -- "$t/cpp" \
		> /dev/null 2>&1 || skip "perf record is not permitted here"
	perf script --no-demangle -i "$t/live.data" > "$t/live.txt" 2> /dev/null
	[ -s "$t/live.txt" ] || skip "perf script printed nothing"
	grep -q ' (inlined)$' "$t/live.txt"
	diff -u <(sc -q --all "$t/live.txt") <(sc -q --no-demangle --all "$t/live.data")
	perf script -i "$t/live.data" 2> /dev/null | sc -q --tid > "$t/live.dm"
	diff -u "$t/live.dm" <(sc -q --tid "$t/live.data")
}

@test "-g captures: --inline adds perf's inlined frames (perf 7.0), the same samples" {
	run sc -q --inline --buildid-dir "$B" "$D/cpp.data"
	[ "$status" -eq 0 ]
	# apply<>'s DWARF name is not perf's demangled symbol: an inlined frame
	[[ "$output" == *"cpp;__libc_start_call_main;main;apply<main(int, char**)::<lambda(int)> >;apply<main::{lambda(int)#2}>;__memcmp_evex_movbe 6012024"* ]]
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" = \
	  "$(sc -q --buildid-dir "$B" "$D/cpp.data" | awk '{ s += $NF } END { print s }')" ]
	run sc -q --buildid-dir "$B" "$D/cpp.data"
	[[ "$output" != *"(int, char**)"* ]]
	# without debug information nothing changes
	diff -u <(sc -q --buildid-dir "$B" "$D/rust.data") <(sc -q --inline --buildid-dir "$B" "$D/rust.data")
}

# ---- what is refused ---------------------------------------------------------

@test "--call-graph dwarf captures of another architecture are refused, saying so" {
	local off t=$BATS_TEST_TMPDIR
	# the ARCH feature: u32 64, then "x86_64" NUL-padded
	off=$(LC_ALL=C grep -obUaP '\x40\x00\x00\x00x86_64\x00' "$D/dwarfsmall.data" | head -1 | cut -d: -f1)
	[ -n "$off" ]
	cp "$D/dwarfsmall.data" "$t/arm.data"
	printf 'arm64\0' | dd of="$t/arm.data" bs=1 seek=$((off + 4)) conv=notrunc status=none
	run --separate-stderr sc --buildid-dir "$B" "$t/arm.data"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"recorded with --call-graph dwarf ("*") on arm64: only x86_64 user stacks are unwound yet; use: perf script -i "*"| stackcollapse-perf" ]]
	run --separate-stderr sc --no-inline --buildid-dir "$B" "$t/arm.data"
	[ "$status" -eq 1 ]
	# a -g capture of another architecture is read (no unwinding needed)
	off=$(LC_ALL=C grep -obUaP '\x40\x00\x00\x00x86_64\x00' "$D/cpp.data" | head -1 | cut -d: -f1)
	cp "$D/cpp.data" "$t/armg.data"
	printf 'arm64\0' | dd of="$t/armg.data" bs=1 seek=$((off + 4)) conv=notrunc status=none
	diff -u <(sc -q --buildid-dir "$B" "$D/cpp.data") <(sc -q --buildid-dir "$B" "$t/armg.data")
}

@test "--call-graph dwarf captures are read with inlined frames by default, without with --no-inline" {
	run --separate-stderr sc -q "$D/refuse-dwarf.data"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	run --separate-stderr sc -q --no-inline "$D/refuse-dwarf.data"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
}

@test "zstd-compressed records (perf record -z) are refused" {
	run --separate-stderr sc "$D/refuse-zstd.data"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"compressed with perf record -z"* ]]
}

@test "--call-graph lbr captures are refused" {
	"$MANGLE" lbr "$D/cpp.data" "$BATS_TEST_TMPDIR/lbr.data"
	run --separate-stderr sc "$BATS_TEST_TMPDIR/lbr.data"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"recorded with --call-graph lbr"*"perf script -i"* ]]
}

@test "AUX area traces and directory format are refused" {
	"$MANGLE" feat 18 "$D/cpp.data" "$BATS_TEST_TMPDIR/aux.data"
	run --separate-stderr sc "$BATS_TEST_TMPDIR/aux.data"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == *"hardware trace (AUX area)"* ]]
	"$MANGLE" feat 24 "$D/cpp.data" "$BATS_TEST_TMPDIR/dir.data"
	run --separate-stderr sc "$BATS_TEST_TMPDIR/dir.data"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"directory format"* ]]
}

# ---- damaged and hostile files -----------------------------------------------

@test "a capture cut short (perf killed: data size 0) is read up to the last whole record" {
	"$MANGLE" killed 9000 "$D/cpp.data" "$BATS_TEST_TMPDIR/k.data"
	# Cut short, the capture has lost its build-id table: its program is
	# looked up where it was recorded, /tmp/foldkit-pd/cpp.  Put the
	# build-id cache's copy there for this test when nothing is there.
	made=
	if [ ! -e /tmp/foldkit-pd/cpp ]; then
		mkdir -p /tmp/foldkit-pd &&
		    cp "$B"/tmp/foldkit-pd/cpp/*/elf /tmp/foldkit-pd/cpp && made=1
	fi
	run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/k.data"
	[ -n "$made" ] && rm -f /tmp/foldkit-pd/cpp
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"data size 0 in the header"* ]]
	[[ "$output" == *"cpp;__libc_start_call_main;main;"* ]]
	# -q: no warning
	run --separate-stderr sc -q --buildid-dir "$B" "$BATS_TEST_TMPDIR/k.data"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "a data section past the end of the file: message, what is there is read" {
	"$MANGLE" cut 3000 "$D/cpp.data" "$BATS_TEST_TMPDIR/c.data"
	run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/c.data"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"data section past the end of the file"* ]]
	[ -n "$output" ]
}

@test "sections and ids pointing past the end: a message, never a crash" {
	local m
	for m in featpast idspast; do
		"$MANGLE" $m "$D/events2.data" "$BATS_TEST_TMPDIR/$m.data"
		run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/$m.data"
		[ "$status" -eq 1 ]
		[[ "$stderr" == *"past the end of the file"* ]]
	done
}

@test "a record of size 0: message, no hang" {
	"$MANGLE" recsize0 "$D/cpp.data" "$BATS_TEST_TMPDIR/r.data"
	run --separate-stderr timeout 20 "$BIN/stackcollapse-perf" "$BATS_TEST_TMPDIR/r.data"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"record of size under 8"* ]]
}

@test "a callchain of 2^60 entries: the sample is rejected" {
	"$MANGLE" chainhuge "$D/cpp.data" "$BATS_TEST_TMPDIR/h.data"
	run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/h.data"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"sample record shorter than its fields"* ]]
	[ -n "$output" ]
}

@test "a callchain looping on one address is just frames" {
	"$MANGLE" chainloop "$D/cpp.data" "$BATS_TEST_TMPDIR/l.data"
	run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/l.data"
	[ "$status" -eq 0 ]
	[[ "$output" == *"__libc_start_call_main;__libc_start_call_main"* ]]
}

@test "a recording without samples: a warning, no stacks" {
	"$MANGLE" killed 300 "$D/cpp.data" "$BATS_TEST_TMPDIR/e.data"
	run --separate-stderr sc -q "$BATS_TEST_TMPDIR/e.data"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run --separate-stderr sc "$BATS_TEST_TMPDIR/e.data"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"e.data: no samples"* ]]
}

@test "fuzz finding: an empty command name gave a line without a stack" {
	# tests/fuzz/regress/perfdata/empty-comm: a flags byte, then the file
	# after its magic (see tests/fuzz/fuzz_perfdata.c)
	{ printf 'PERFILE2'; tail -c +2 "$BATS_TEST_DIRNAME/fuzz/regress/perfdata/empty-comm"; } > "$BATS_TEST_TMPDIR/f.data"
	run --separate-stderr sc --symfs /nonexistent --buildid-dir /nonexistent "$BATS_TEST_TMPDIR/f.data"
	[ "$status" -eq 1 ]
	[ -n "$output" ]
	printf '%s\n' "$output" | while IFS= read -r l; do
		[[ "$l" =~ ^[^\ ].*\ [0-9]+$ ]] || { echo "bad line: $l"; return 1; }
	done
	[[ "$output" == *"[unknown] 1001001"* ]]
}

@test "perf.data magic followed by garbage or nothing" {
	printf 'PERFILE2' > "$BATS_TEST_TMPDIR/m.data"
	run --separate-stderr sc "$BATS_TEST_TMPDIR/m.data"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"header cut short"* ]]
	{ printf 'PERFILE2'; head -c 4000 /dev/urandom; } > "$BATS_TEST_TMPDIR/g.data"
	run timeout 20 "$BIN/stackcollapse-perf" "$BATS_TEST_TMPDIR/g.data"
	[ "$status" -le 1 ]
	# pipe mode header, then garbage
	{ printf 'PERFILE2\020\0\0\0\0\0\0\0'; head -c 4000 /dev/urandom; } > "$BATS_TEST_TMPDIR/p.data"
	run timeout 20 "$BIN/stackcollapse-perf" "$BATS_TEST_TMPDIR/p.data"
	[ "$status" -le 1 ]
}

@test "progress on a terminal for a file over 64 MiB, erased; -q and a non-terminal: none" {
	command -v script > /dev/null || skip "script(1) is not installed"
	"$MANGLE" pad 70 "$D/cpp.data" "$BATS_TEST_TMPDIR/big.data"
	# the same stacks
	diff -u <(sc --buildid-dir "$B" "$D/cpp.data") <(sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/big.data")
	run script -qc "'$BIN/stackcollapse-perf' --buildid-dir '$B' '$BATS_TEST_TMPDIR/big.data' > /dev/null" /dev/null
	[[ "$output" == *"big.data: "*" MB of 70 ("*"%), "*" samples"* ]]
	# ends with blanks over it and a carriage return
	[[ "$output" == *"      "$'\r' ]]
	run script -qc "'$BIN/stackcollapse-perf' -q --buildid-dir '$B' '$BATS_TEST_TMPDIR/big.data' > /dev/null" /dev/null
	[ -z "$output" ]
	run --separate-stderr sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/big.data"
	[ -z "$stderr" ]
	# a small file on a terminal: none
	run script -qc "'$BIN/stackcollapse-perf' --buildid-dir '$B' '$D/cpp.data' > /dev/null" /dev/null
	[ -z "$output" ]
	# --call-graph dwarf: the samples unwound
	"$MANGLE" pad 70 "$D/dwarf.data" "$BATS_TEST_TMPDIR/bigdw.data"
	diff -u <(sc --buildid-dir "$B" "$D/dwarf.data") <(sc --buildid-dir "$B" "$BATS_TEST_TMPDIR/bigdw.data")
	run script -qc "'$BIN/stackcollapse-perf' --buildid-dir '$B' '$BATS_TEST_TMPDIR/bigdw.data' > /dev/null" /dev/null
	[[ "$output" == *"bigdw.data: "*" MB of "*" samples unwound"* ]]
}

@test "file mode through a pipe: over 16 MB copied to a temporary file, memory bounded; in memory where no file can be made" {
	local t=$BATS_TEST_TMPDIR kb kf
	"$MANGLE" repeat 40 "$D/dwarf.data" "$t/big.data"
	sc -q --buildid-dir "$B" "$t/big.data" > "$t/want"
	cat "$t/big.data" | sc -q --buildid-dir "$B" > "$t/got"
	diff -u "$t/want" "$t/got"
	cat "$t/big.data" | TMPDIR=/nonexistent sc -q --buildid-dir "$B" > "$t/got2"
	diff -u "$t/want" "$t/got2"
	# a copy that cannot grow past 8 MB (a full disk): what it holds is
	# read back, the rest kept in memory
	cat "$t/big.data" | bash -c 'trap "" XFSZ; ulimit -f 8192; exec "$@"' _ \
	    "$BIN/stackcollapse-perf" -q --buildid-dir "$B" > "$t/got3"
	diff -u "$t/want" "$t/got3"
	# the copy is unlinked at once: nothing is left behind
	mkdir "$t/tmp"
	cat "$t/big.data" | TMPDIR="$t/tmp" sc -q --buildid-dir "$B" > /dev/null
	[ -z "$(ls -A "$t/tmp")" ]
	# about the memory of the file named (it was the whole 150 MB file)
	if [ -x /usr/bin/time ] && [ -z "${FOLDKIT_SAN:-}" ]; then
		kb=$(cat "$t/big.data" | TMPDIR="$t/tmp" /usr/bin/time -f %M \
			"$BIN/stackcollapse-perf" -q --buildid-dir "$B" 2>&1 > /dev/null | tail -1)
		kf=$(/usr/bin/time -f %M "$BIN/stackcollapse-perf" -q --buildid-dir "$B" \
			"$t/big.data" 2>&1 > /dev/null | tail -1)
		[ "$kb" -lt $((kf + 32768)) ]
	fi
}

@test "write errors: full disk is exit 1, a closed pipe ends quietly" {
	full_disk stackcollapse-perf --buildid-dir "$B" "$D/stripped.data"
	closed_pipe "$(sc --buildid-dir "$B" "$D/stripped.data" | head -1)" \
		stackcollapse-perf --buildid-dir "$B" "$D/stripped.data"
}

# ---- symbols at one address (#39): perf keeps the one its rule picks by
# the names as it holds them, demangled unless --no-demangle

@test "aliases: Rust's merged functions named as perf script names them (v0: <usize as Display>::fmt, not u64)" {
	same alrs --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/alrs.data"
	[[ "$output" == *";<usize as core::fmt::Display>::fmt"* ]]
	[[ "$output" != *"<u64 as core::fmt::Display>::fmt"* ]]
	[[ "$output" == *";mixlib::aa::bb::cc::dd::ee::ff "* ]]
	# --no-demangle: the mangled names tie, the first in .symtab stays
	run sc -q --no-demangle --buildid-dir "$B" "$D/alrs.data"
	[[ "$output" == *"4core3fmt3num3impyNtB9_7Display3fmt"* ]]
	[[ "$output" != *"4core3fmt3num3impjNtB9_7Display3fmt"* ]]
}

@test "aliases: Rust legacy mangling, compared without the hash as perf demangles it" {
	same alrsleg --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/alrsleg.data"
	# the longer demangled name, though its mangled name is the shorter
	[[ "$output" == *";mixlib::aa::bb::cc::dd::ee::ff "* ]]
	[[ "$output" != *"abcdefghijklmnopqrs"* ]]
	[[ "$output" == *";<usize as core::fmt::Display>::fmt"* ]]
	run sc -q --no-demangle --buildid-dir "$B" "$D/alrsleg.data"
	[[ "$output" == *";_ZN6mixlib19abcdefghijklmnopqrs17h"* ]]
	[[ "$output" != *"2aa2bb2cc2dd2ee2ff"* ]]
}

@test "aliases: C++ name of an extern \"C\" function, weak, global and local C aliases, a label of size 0" {
	same aliases --buildid-dir "$B"
	run sc -q --buildid-dir "$B" "$D/aliases.data"
	# ns::compute_all (demangled, longer) over work; with --no-demangle,
	# work (no leading underscore) over _ZN2ns11compute_allEm
	[[ "$output" == *";ns::compute_all "* ]]
	[[ "$output" != *";work "* ]]
	run sc -q --no-demangle --buildid-dir "$B" "$D/aliases.data"
	[[ "$output" == *";work "* ]]
	# global over weak and over local; sized over size 0
	[[ "$output" == *";spin_impl "* ]]
	[[ "$output" == *";hot "* ]]
	[[ "$output" == *";zsized "* ]]
	[[ "$output" != *"spin_weak_longer_name"* ]]
	[[ "$output" != *"hot_local"* ]]
	[[ "$output" != *"zsized_label_of_size_zero"* ]]
}

@test "aliases: --call-graph dwarf (--no-inline, and with inlined frames), and pipe mode" {
	same_dwarf dwalrs --buildid-dir "$B"
	same_inline dwalrs --buildid-dir "$B"
	run sc -q --no-inline --buildid-dir "$B" "$D/dwalrs.data"
	[[ "$output" == *";<usize as core::fmt::Display>::fmt"* ]]
	# with inlined frames, the name comes from DWARF (u64), as perf prints
	run sc -q --buildid-dir "$B" "$D/dwalrs.data"
	[[ "$output" == *";<u64 as core::fmt::Display>::fmt"* ]]
	same alrspipe --symfs "$D/symfs"
	diff -u "$D/alrspipe.dm.folded" <(sc -q --symfs "$D/symfs" < "$D/alrspipe.data")
	grep -q ';<usize as core::fmt::Display>::fmt' "$D/alrspipe.dm.folded"
}

@test "FOLDKIT_PERF_READ: a dwarf capture read with read(2) or mapped gives perf script's stacks either way" {
	local n how t=$BATS_TEST_TMPDIR
	for n in dwarf dwarfsmall dwcxx dwclang dwrust dwplugin dwalrs dwsort; do
		for how in read map; do
			diff -u "$D/$n.inl.dm.folded" <(FOLDKIT_PERF_READ=$how sc -q --buildid-dir "$B" "$D/$n.data") ||
				{ echo "$n, $how: differs from perf script"; return 1; }
			diff -u "$D/$n.dm.folded" <(FOLDKIT_PERF_READ=$how sc -q --no-inline --buildid-dir "$B" "$D/$n.data") ||
				{ echo "$n, $how: differs from perf script --no-inline"; return 1; }
		done
	done
	# where perf's unwinding is cut (.debug_frame, fork+exec): the same
	# whole stacks both ways
	for n in dwdf dwdfz dwfork; do
		sc -q --tid --all --addrs --buildid-dir "$B" "$D/$n.data" > "$t/$n.def"
		[ -s "$t/$n.def" ]
		for how in read map; do
			diff -u "$t/$n.def" <(FOLDKIT_PERF_READ=$how sc -q --tid --all --addrs --buildid-dir "$B" "$D/$n.data") ||
				{ echo "$n, $how: differs"; return 1; }
		done
	done
	# the way asked for is the way taken: the file mapped whole, or never
	# (LeakSanitizer cannot run under ptrace)
	command -v strace > /dev/null || skip "strace is not installed"
	[ -z "${FOLDKIT_SAN:-}" ] || skip "strace and the sanitizers do not mix"
	local size
	size=$(wc -c < "$D/dwrust.data")
	FOLDKIT_PERF_READ=map strace -f -e trace=mmap -o "$t/map.tr" "$BIN/stackcollapse-perf" -q \
		--buildid-dir "$B" "$D/dwrust.data" > /dev/null
	FOLDKIT_PERF_READ=read strace -f -e trace=mmap -o "$t/read.tr" "$BIN/stackcollapse-perf" -q \
		--buildid-dir "$B" "$D/dwrust.data" > /dev/null
	grep -q "mmap(NULL, $size, PROT_READ, MAP_PRIVATE, " "$t/map.tr"
	! grep -q "mmap(NULL, $size, " "$t/read.tr"
}

@test "FOLDKIT_PERF_READ: a value other than map or read is a usage error" {
	FOLDKIT_PERF_READ=mmap run sc -q --buildid-dir "$B" "$D/dwrust.data"
	[ "$status" -eq 2 ]
	[ "$output" = "stackcollapse-perf: FOLDKIT_PERF_READ: 'mmap' is not map or read" ]
	# empty is unset
	FOLDKIT_PERF_READ= run sc -q --buildid-dir "$B" "$D/dwrust.data"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$D/dwrust.inl.dm.folded")" ]
}

@test "dwarf: a mapped capture over 64 MiB is read ahead by a second thread: the same stacks as read(2), memory flat" {
	local t=$BATS_TEST_TMPDIR o a b
	"$MANGLE" repeat 40 "$D/dwarf.data" "$t/big.data"
	for o in "" --no-inline; do
		# shellcheck disable=SC2086
		sc -q $o --buildid-dir "$B" "$D/dwarf.data" |
			awk '{ n = $NF; sub(/ [0-9]+$/, ""); printf "%s %.0f\n", $0, n * 40 }' > "$t/want"
		[ -s "$t/want" ]
		# shellcheck disable=SC2086
		diff -u "$t/want" <(FOLDKIT_PERF_READ=map sc -q $o --buildid-dir "$B" "$t/big.data")
		# shellcheck disable=SC2086
		diff -u "$t/want" <(FOLDKIT_PERF_READ=read sc -q $o --buildid-dir "$B" "$t/big.data")
	done
	# damage past the start: the reader says so and stops there, the
	# thread reading ahead is not thrown (it reads whatever bytes follow)
	"$MANGLE" recsize0 "$t/big.data" "$t/bad.data"
	FOLDKIT_PERF_READ=map run sc --buildid-dir "$B" "$t/bad.data"
	[[ "$output" == *"record of size under 8"* ]]
	# the thread is there: one clone more mapped than read(2)
	if command -v strace > /dev/null && [ -z "${FOLDKIT_SAN:-}" ]; then
		FOLDKIT_PERF_READ=map strace -f -e trace=clone,clone3 -o "$t/map.tr" \
			"$BIN/stackcollapse-perf" -q --buildid-dir "$B" "$t/big.data" > /dev/null
		FOLDKIT_PERF_READ=read strace -f -e trace=clone,clone3 -o "$t/read.tr" \
			"$BIN/stackcollapse-perf" -q --buildid-dir "$B" "$t/big.data" > /dev/null
		a=$(grep -c 'clone' "$t/map.tr")
		b=$(grep -c 'clone' "$t/read.tr")
		[ "$a" -eq $((b + 1)) ]
	fi
	# memory: the 150 MB file is not held (the mapping is let go behind)
	if [ -x /usr/bin/time ] && [ -z "${FOLDKIT_SAN:-}" ]; then
		a=$(FOLDKIT_PERF_READ=map /usr/bin/time -f %M "$BIN/stackcollapse-perf" -q \
			--buildid-dir "$B" "$t/big.data" 2>&1 > /dev/null | tail -1)
		[ "$a" -lt 100000 ]
	fi
}

@test "dwarf: the thread reading ahead asks the kernel to read from the disk only where a fault waited for it" {
	command -v strace > /dev/null || skip "strace is not installed"
	[ -z "${FOLDKIT_SAN:-}" ] || skip "strace and the sanitizers do not mix"
	local t=$BATS_TEST_TMPDIR n w
	"$MANGLE" repeat 40 "$D/dwarf.data" "$t/big.data"
	sc -q --buildid-dir "$B" "$D/dwarf.data" |
		awk '{ n = $NF; sub(/ [0-9]+$/, ""); printf "%s %.0f\n", $0, n * 40 }' > "$t/want"
	# in the page cache: the first 16 MiB asked for, and no more unless
	# a fault was slow for another reason (a busy host); it was one call
	# each 16 MiB, 10 here, each walking the page cache.  The fewest of
	# three runs: on our VMs one run in a few had 5 to 7 slow faults
	cat "$t/big.data" > /dev/null
	w=99
	for i in 1 2 3; do
		FOLDKIT_PERF_READ=map strace -f -e trace=madvise -o "$t/warm.tr" \
			"$BIN/stackcollapse-perf" -q --buildid-dir "$B" "$t/big.data" > "$t/warm.out"
		diff -u "$t/want" "$t/warm.out"
		n=$(grep -c MADV_WILLNEED "$t/warm.tr")
		[ "$n" -ge "$w" ] || w=$n
	done
	[ "$w" -le 4 ]
	# dropped from the page cache (dd's nocache: POSIX_FADV_DONTNEED):
	# asked for ahead, window after window
	sync "$t/big.data"	# written just now: dirty pages stay
	dd if="$t/big.data" iflag=nocache count=0 status=none 2> /dev/null ||
		skip "this dd cannot drop a file from the page cache"
	FOLDKIT_PERF_READ=map strace -f -e trace=madvise -o "$t/cold.tr" \
		"$BIN/stackcollapse-perf" -q --buildid-dir "$B" "$t/big.data" > "$t/cold.out"
	diff -u "$t/want" "$t/cold.out"
	n=$(grep -c MADV_WILLNEED "$t/cold.tr")
	[ "$n" -ge $((w + 4)) ]
}
