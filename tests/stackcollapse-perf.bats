#!/usr/bin/env bats
# stackcollapse-perf: perf script text to folded stacks.

load helper

sc() { "$BIN/stackcollapse-perf" "$@"; }
P=$BATS_TEST_DIRNAME/data/perf

# A one-sample perf script input: header, frames (leaf first), blank line.
sample() {
	local hdr=$1
	shift
	printf '%s\n' "$hdr"
	printf '\t%s\n' "$@"
	printf '\n'
}

# ---- the captures recorded here -------------------------------------------

@test "frame-pointer call graphs (default fields)" {
	run --separate-stderr sc "$P/callchain-fp.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/callchain-fp.collapsed"
}

@test "stdin when no file, and '-'" {
	run --separate-stderr sc < "$P/callchain-fp.txt"
	golden "$P/callchain-fp.collapsed"
	run --separate-stderr sc - < "$P/callchain-fp.txt"
	golden "$P/callchain-fp.collapsed"
}

@test "DWARF call graphs: (inlined) modules, _start" {
	run --separate-stderr sc "$P/callchain-dwarf.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/callchain-dwarf.collapsed"
}

@test "a --header block of # lines is skipped" {
	run --separate-stderr sc "$P/with-header.txt"
	[ -z "$stderr" ]
	golden "$P/with-header.collapsed"
}

@test "kernel frames above user frames" {
	run --separate-stderr sc --kernel "$P/kernel.txt"
	golden "$P/kernel-kernel.collapsed"
}

@test "command names with spaces, also when the last word is a number" {
	run --separate-stderr sc "$P/header-comm-spaces.txt"
	golden "$P/header-comm-spaces.collapsed"
	[[ "${lines[0]}" == "my_worker_1;"* ]]
	run --separate-stderr sc --pid "$P/tracepoint-sched-switch.txt"
	golden "$P/tracepoint-sched-switch-pid.collapsed"
	[ "$(grep -c '^my_worker_1-?;' "$P/tracepoint-sched-switch-pid.collapsed")" -gt 0 ]
}

@test "tracepoints with arguments after the event" {
	run --separate-stderr sc "$P/tracepoint.txt"
	[ -z "$stderr" ]
	golden "$P/tracepoint.collapsed"
}

# ---- beyond the reference ---------------------------------------------------

@test "beyond: CRLF line ends give the same stacks" {
	run --separate-stderr sc "$P/crlf.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/callchain-fp.collapsed"
}

@test "beyond: lines of blanks end samples like empty lines" {
	run --separate-stderr sc "$P/blank-spaces.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/callchain-fp.collapsed"
}

@test "beyond: samples without a call graph give comm;symbol" {
	run --separate-stderr sc "$P/no-callchain.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/no-callchain.collapsed"
	[ "${lines[0]}" = "minidb;_IO_default_xsputn 11033099" ]
	run --separate-stderr sc "$P/fields-no-callchain.txt"
	[ -z "$stderr" ]
	golden "$P/fields-no-callchain.collapsed"
	# 150 samples, one line each
	[ "$(awk '{ n += $NF } END { print n }' <<< "$output")" -eq 150 ]
}

@test "beyond: -F subsets (no time, cpu, period, event; no module)" {
	for f in fields-comm-tid-ip-sym fields-comm-tid-period-event fields-symoff; do
		run --separate-stderr sc "$P/$f.txt"
		[ -z "$stderr" ] || fail "$f: $stderr"
		golden "$P/$f.collapsed" || fail "$f"
	done
	run --separate-stderr sc --tid "$P/fields-comm-pid-tid-ip-sym-dso.txt"
	golden "$P/fields-comm-pid-tid-ip-sym-dso.collapsed"
	run --separate-stderr sc --pid "$P/fields-full.txt"
	golden "$P/fields-full.collapsed"
	# frame lines without " (module)" are frames
	run --separate-stderr sc "$P/fields-comm-tid-ip-sym.txt"
	[[ "$output" == *"minidb;_IO_default_xsputn 6"* ]]
}

# ---- command names and symbols that look like hex numbers ------------------

@test "fix: a right-aligned header whose comm starts with a hex word (C2 CompilerThre)" {
	run --separate-stderr sc <<< '  C2 CompilerThre 24637 [002] 4794564.109216:   10101010 cpu-clock:      7f3b2c4d5e6f Compile::Optimize+0x2f (/usr/lib/jvm/java-17/lib/server/libjvm.so)'
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "C2_CompilerThre;Compile::Optimize 10101010" ]
	# with a call chain after it, the whole sample is kept
	run --separate-stderr sc <<< $'  DB Pool 4563/4570 [001] 5.500000:   7 cycles:\n\t  401136 add (/tmp/prog)\n\t  4011a6 main (/tmp/prog)\n'
	[ -z "$stderr" ]
	[ "$output" = "DB_Pool;main;add 7" ]
	# -F comm,tid with a hex-looking comm: a header outside a sample
	run --separate-stderr sc <<< $'            beef  4563\n\t  401136 add (/tmp/prog)\n\t  4011a6 main (/tmp/prog)\n'
	[ "$output" = "beef;main;add 1" ]
}

@test "fix: one-line samples without an event: an all-decimal address is an address" {
	run --separate-stderr sc <<< '            prog  4563            401136 add (/tmp/prog)'
	[ -z "$stderr" ]
	[ "$output" = "prog;add 1" ]
	run --separate-stderr sc <<< '            prog  4563 12345.678901:            401136 add (/tmp/prog)'
	[ "$output" = "prog;add 1" ]
	run --separate-stderr sc <<< '  ab cd 4563 [001]      401136 add (/tmp/prog)'
	[ "$output" = "ab_cd;add 1" ]
	# a period before the address still is one
	run --separate-stderr sc <<< '  ab cd 4563   100   401136 fade (/tmp/prog)'
	[ "$output" = "ab_cd;fade 100" ]
	run --separate-stderr sc <<< '  ab cd 4563 [001]   10101 cpu-clock:      401136 add (/tmp/prog)'
	[ "$output" = "ab_cd;add 10101" ]
}

@test "fix: an indented frame line whose symbol is only digits is a frame" {
	run --separate-stderr sc <<< $'node 1234 1.5: cycles:\n\t    7f00aa 1234 (/tmp/perf-1234.map)\n\t    7f00bb main (/usr/bin/node)\n'
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "node;main;1234 1" ]
	# without a module, and a symbol shaped like pid/tid
	run --separate-stderr sc <<< $'node 1234 1.5: cycles:\n\t    7f00aa 1234\n\t    7f00ab 12/34 (/tmp/perf-1234.map)\n\t    7f00bb main (/usr/bin/node)\n'
	[ -z "$stderr" ]
	[ "$output" = "node;main;12/34;1234 1" ]
}

@test "fix: recorded captures of hex-looking comms and symbols, every -F set" {
	# examples/workload/hexnames.c: threads "C2 CompilerThre", "DB Pool",
	# "ab cd"; functions add() and fade() at all-decimal addresses
	for f in nocg nocg-comm-tid-ip-sym-dso nocg-comm-tid-time-ip-sym-dso \
	    nocg-comm-tid-cpu-ip-sym-dso nocg-comm-tid-period-event-ip-sym-dso \
	    nocg-comm-pid-tid-event-ip-sym-dso cg cg-comm-tid-ip-sym-dso \
	    cg-comm-tid-cpu-period-event-ip-sym-dso; do
		run --separate-stderr sc "$P/hexnames-$f.txt"
		[ "$status" -eq 0 ] || fail "$f: status $status"
		[ -z "$stderr" ] || fail "$f: $stderr"
		golden "$P/hexnames-$f.collapsed" || fail "$f"
		# every comm of the capture is a root, no symbol lost
		[[ "$output" == *"C2_CompilerThre;"*"DB_Pool;"*"ab_cd;"* ]] || fail "$f: roots"
		[[ "$output" != *";d "* ]] || fail "$f: misread address"
	done
	# one line per sample without a call chain: the counts add up
	run --separate-stderr sc "$P/hexnames-nocg-comm-tid-ip-sym-dso.txt"
	[ "$(awk '{ n += $NF } END { print n }' <<< "$output")" -eq 60 ]
}

@test "beyond: mmap/task event records have no effect" {
	run --separate-stderr sc "$P/mmap-task-events.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/mmap-task-events.collapsed"
	diff <(printf '%s\n' "$output") <(grep -v PERF_RECORD "$P/mmap-task-events.txt" | sc)
	[[ "$output" != *PERF_RECORD* ]]
}

@test "beyond: a cut capture keeps its partial sample and says so" {
	run --separate-stderr sc "$P/truncated.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-perf: $P/truncated.txt:513: input ended mid-sample" ]
	golden "$P/truncated.collapsed"
	# the cut line "tree_insert+0" is dropped, the frames before it kept
	[[ "$output" == *$'\nminidb;tree_insert;tree_insert 1003009'* ]]
	run --separate-stderr sc -q "$P/truncated.txt"
	[ -z "$stderr" ]
}

@test "beyond: non-UTF-8 bytes pass through" {
	run --separate-stderr sc --pid "$P/non-utf8-comm.txt"
	golden "$P/non-utf8-comm.collapsed"
	[[ "${lines[0]}" == $'\xff\xfeweird-?;'* ]]
}

@test "beyond: NUL bytes pass through" {
	printf 'a\0b 12 1.0: 1 cpu-clock:\n\t1 f\0g (/x)\n\n' > "$BATS_TEST_TMPDIR/nul.txt"
	sc "$BATS_TEST_TMPDIR/nul.txt" > "$BATS_TEST_TMPDIR/out"
	cmp "$BATS_TEST_TMPDIR/out" <(printf 'a\0b;f\0g 1\n')
}

@test "beyond: counts are exact 64-bit sums" {
	run --separate-stderr sc < <(sample 'p 1 1.0: 9007199254740993 cpu-clock:' '1 f (/x)'; sample 'p 1 1.0: 1 cpu-clock:' '1 f (/x)')
	[ "$output" = "p;f 9007199254740994" ]
	run --separate-stderr sc < <(sample 'p 1 1.0: 18446744073709551615 cpu-clock:' '1 f (/x)')
	[ "$output" = "p;f 18446744073709551615" ]
}

@test "beyond: a sum past 2^64-1 is an error, never a wrap" {
	run --separate-stderr sc < <(sample 'p 1 1.0: 18446744073709551615 cpu-clock:' '1 f (/x)'
		sample 'p 1 1.0: 1 cpu-clock:' '1 f (/x)'; sample 'p 1 1.0: 1 cpu-clock:' '1 g (/x)')
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-perf: <stdin>:6: sum of counts larger than 18446744073709551615; sample skipped" ]
	[ "${lines[0]}" = "p;f 18446744073709551615" ]
	[ "${lines[1]}" = "p;g 1" ]
	run --separate-stderr sc < <(sample 'p 1 1.0: 18446744073709551616 cpu-clock:' '1 f (/x)')
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-perf: <stdin>:1: period larger than 18446744073709551615; sample skipped" ]
	[ -z "$output" ]
}

@test "beyond: a header without an empty line before it ends the sample" {
	run --separate-stderr sc < <(printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\np 1 1.0: 1 cpu-clock:\n\t1 g (/x)\n\n')
	[ "$output" = $'p;f 1\np;g 1' ]
}

@test "each input file ends its last sample" {
	printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n' > "$BATS_TEST_TMPDIR/a"
	printf '\t1 g (/x)\n\n' > "$BATS_TEST_TMPDIR/b"
	run --separate-stderr sc "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ "$output" = "p;f 1" ]
	[ "$stderr" = "stackcollapse-perf: $BATS_TEST_TMPDIR/a:2: input ended mid-sample" ]
}

@test "a missing file is reported by name, the others still read, exit 1" {
	run --separate-stderr sc /nonexistent/x.perf "$P/callchain-fp.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-perf: /nonexistent/x.perf: No such file or directory" ]
	golden "$P/callchain-fp.collapsed"
}

@test "empty input: no output, exit 0" {
	run --separate-stderr sc < /dev/null
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ -z "$stderr" ]
}

# ---- unrecognized lines -----------------------------------------------------

@test "unrecognized lines: reported once with file:line and a count" {
	run --separate-stderr sc "$P/fields-srcline.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-perf: $P/fields-srcline.txt:3: unrecognized line (83 unrecognized lines ignored)" ]
	run --separate-stderr sc < <(printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n!!!\n\n')
	[ "$stderr" = "stackcollapse-perf: <stdin>:3: unrecognized line (1 unrecognized line ignored)" ]
	[ "$output" = "p;f 1" ]
}

@test "-q and --quiet silence warnings" {
	for q in -q --quiet; do
		run --separate-stderr sc "$q" "$P/fields-srcline.txt"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		run --separate-stderr sc "$q" "$P/multi-event.txt"
		[ -z "$stderr" ]
	done
}

@test "--strict: the first unrecognized line is fatal" {
	run --separate-stderr sc --strict "$P/fields-srcline.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-perf: $P/fields-srcline.txt:3: unrecognized line" ]
	[ -z "$output" ]
	run --separate-stderr sc --strict "$P/callchain-fp.txt"
	[ "$status" -eq 0 ]
	golden "$P/callchain-fp.collapsed"
}

# ---- options -----------------------------------------------------------------

@test "--pid and --tid root frames" {
	in=$(sample 'java 25607 [000] 4794564.109216: 1 cycles:' '1 f (/x)'; sample 'V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:' '1 f (/x)')
	run --separate-stderr sc < <(printf '%s\n\n' "$in")
	[ "$output" = $'V8_WorkerThread;f 100\njava;f 1' ]
	run --separate-stderr sc --pid < <(printf '%s\n\n' "$in")
	[ "$output" = $'V8_WorkerThread-24636;f 100\njava-?;f 1' ]
	run --separate-stderr sc --tid < <(printf '%s\n\n' "$in")
	[ "$output" = $'V8_WorkerThread-24636/25607;f 100\njava-?/25607;f 1' ]
	run --separate-stderr sc --pid --tid < <(printf '%s\n\n' "$in")
	[ "$output" = $'V8_WorkerThread-24636/25607;f 100\njava-?/25607;f 1' ]
}

@test "--kernel, --jit, --all annotate frames" {
	in=$(sample 'java 1 1.0: 1 cpu-clock:' '1 k ([kernel.kallsyms])' '2 v (/boot/vmlinux)' '3 j (/tmp/perf-42.map)' '4 u (/lib/x.so)' '5 [unknown] ([unknown])')
	run --separate-stderr sc < <(printf '%s\n\n' "$in")
	[ "$output" = "java;[unknown];u;j;v;k 1" ]
	run --separate-stderr sc --kernel < <(printf '%s\n\n' "$in")
	[ "$output" = "java;[unknown];u;j;v_[k];k_[k] 1" ]
	run --separate-stderr sc --jit < <(printf '%s\n\n' "$in")
	[ "$output" = "java;[unknown];u;j_[j];v;k 1" ]
	run --separate-stderr sc --all < <(printf '%s\n\n' "$in")
	[ "$output" = "java;[unknown];u;j_[j];v_[k];k_[k] 1" ]
	run --separate-stderr sc --all "$P/jit-map.txt"
	golden "$P/jit-map-all.collapsed"
	[[ "$output" == *"LInterpreter:::run_[j];com/foo/Bar:::baz_[j];com/foo/Qux:::inl_[i] "* ]]
}

@test "--addrs: unknown symbols keep their address" {
	in=$(sample 'p 1 1.0: 1 cpu-clock:' '7f12 [unknown] (/lib/libc.so.6)' '0 [unknown] ([unknown])')
	run --separate-stderr sc < <(printf '%s\n\n' "$in")
	[ "$output" = "p;[unknown];[libc.so.6] 1" ]
	run --separate-stderr sc --addrs < <(printf '%s\n\n' "$in")
	[ "$output" = "p;[unknown <0>];[libc.so.6 <7f12>] 1" ]
	run --separate-stderr sc --addrs "$P/callchain-fp.txt"
	golden "$P/callchain-fp-addrs.collapsed"
}

@test "--event-filter, and the first event by default with one notice" {
	run --separate-stderr sc "$P/multi-event.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-perf: more than one event: only 'page-faults' samples are kept (choose with --event-filter)" ]
	golden "$P/multi-event.collapsed"
	run --separate-stderr sc --event-filter cpu-clock "$P/multi-event.txt"
	[ -z "$stderr" ]
	golden "$P/multi-event-cpu-clock.collapsed"
	run --separate-stderr sc --event-filter nosuchevent "$P/multi-event.txt"
	[ -z "$output" ]
}

@test "--srcline appends the source line of each frame" {
	run --separate-stderr sc --srcline "$P/fields-srcline.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/fields-srcline-srcline.collapsed"
	[[ "$output" == *"minidb;_IO_default_xsputn:genops.c:394 1003009"* ]]
}

@test "--skip-after drops the callers of the innermost FUNC" {
	in=$(sample 'p 1 1.0: 1 cpu-clock:' '1 leaf (/x)' '2 work (/x)' '3 mid (/x)' '4 work (/x)' '5 main (/x)')
	run --separate-stderr sc --skip-after work < <(printf '%s\n\n' "$in")
	[ "$output" = "p;work;leaf 1" ]
	run --separate-stderr sc --skip-after main < <(printf '%s\n\n' "$in")
	[ "$output" = "p;main;work;mid;work;leaf 1" ]
	run --separate-stderr sc --skip-after nosuch < <(printf '%s\n\n' "$in")
	[ "$output" = "p;main;work;mid;work;leaf 1" ]
	run --separate-stderr sc --kernel --skip-after k < <(sample 'p 1 1.0: 1 cpu-clock:' '1 leaf ([kernel.kallsyms])' '2 k ([kernel.kallsyms])' '3 main (/x)')
	[ "$output" = "p;k_[k];leaf_[k] 1" ]
}

@test "--samples counts samples, not periods" {
	run --separate-stderr sc --samples "$P/callchain-fp.txt"
	[ "${lines[0]}" = "minidb;@plt 1" ]
	[ "$(awk '{ n += $NF } END { print n }' <<< "$output")" -eq "$(grep -c 'cpu-clock' "$P/callchain-fp.txt")" ]
}

# A binary built here, with inner() inlined in outer(); ADDR is an address of
# the inlined code.
build_inline() {
	command -v addr2line >/dev/null || skip "addr2line not installed"
	command -v cc >/dev/null || skip "no C compiler"
	cat > "$BATS_TEST_TMPDIR/t.c" <<-'EOF'
	static volatile int sink;
	static inline __attribute__((always_inline)) void inner(int x)
	{
		sink = x;
		sink = x + 1;
	}
	__attribute__((noinline)) void outer(int x)
	{
		sink = 0;
		inner(x);
		sink = 2;
	}
	int main(int argc, char **argv)
	{
		(void)argv;
		outer(argc);
		return 0;
	}
	EOF
	BINT=$BATS_TEST_TMPDIR/t
	cc -O1 -g -o "$BINT" "$BATS_TEST_TMPDIR/t.c"
	local s i
	s=$(nm "$BINT" | awk '$3 == "outer" { print $1 }')
	for i in $(seq 0 64); do
		ADDR=$(printf '%x' $((0x$s + i)))
		addr2line -e "$BINT" -i -f "$ADDR" | grep -qx inner && return 0
	done
	skip "the compiler did not inline inner()"
}

@test "--inline expands inlined functions with addr2line, --context adds file:line" {
	build_inline
	in=$(sample 'prog 1 1.0: 1 cpu-clock:' "$ADDR outer+0x4 ($BINT)" "1 [unknown] ([unknown])" "2 k ([kernel.kallsyms])")
	run --separate-stderr sc --inline < <(printf '%s\n\n' "$in")
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "prog;k;[unknown];outer;inner 1" ]
	run --separate-stderr sc --inline --context < <(printf '%s\n\n' "$in")
	[[ "$output" =~ ^prog\;k\;\[unknown\]\;outer:t\.c:[0-9]+\;inner:t\.c:[0-9]+\ 1$ ]]
	run --separate-stderr sc < <(printf '%s\n\n' "$in")
	[ "$output" = "prog;k;[unknown];outer 1" ]
}

@test "--inline: a module that cannot be read keeps its symbols, with a warning" {
	run --separate-stderr sc --inline < <(sample 'p 1 1.0: 1 cpu-clock:' '1a f+0x3 (/nonexistent/lib.so)')
	[ "$status" -eq 0 ]
	[ "$output" = "p;f 1" ]
	[[ "$stderr" == "stackcollapse-perf: --inline: cannot read '/nonexistent/lib.so': "*"; its symbols are used as they are" ]]
	run --separate-stderr sc --inline --context < <(sample 'p 1 1.0: 1 cpu-clock:' '1a f+0x3 (/nonexistent/lib.so)')
	[ "$output" = "p;f 1" ]
}

@test "--inline and --context need no addr2line (no process is started)" {
	build_inline
	in=$(sample 'prog 1 1.0: 1 cpu-clock:' "$ADDR outer+0x4 ($BINT)")
	run --separate-stderr env PATH=/nonexistent "$BIN/stackcollapse-perf" --inline < <(printf '%s\n\n' "$in")
	[ "$status" -eq 0 ]
	[ "$output" = "prog;outer;inner 1" ]
	run --separate-stderr env PATH=/nonexistent "$BIN/stackcollapse-perf" --inline --context < <(printf '%s\n\n' "$in")
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^prog\;outer:t\.c:[0-9]+\;inner:t\.c:[0-9]+\ 1$ ]]
}

# inline_same BIN [N]: frames at about N addresses across BIN's .text, one
# a sample: the stacks of --inline and --inline --context are those the
# Perl script makes of `addr2line -a -i -f -s -C` (innermost first, "??"
# left out, the discriminator cut, ';' to ':', quotes dropped; no answer:
# the symbol "x"), counted by stack
inline_same() {
	local f=$1 a o z t=$BATS_TEST_TMPDIR
	read -r a o z < <(readelf -SW "$f" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk '$1 == ".text" { print $3, $4, $5 }')
	awk -v s=$((16#$a)) -v z=$((16#$z)) -v n="${2:-1500}" 'BEGIN {
		st = int(z / n); if (st < 1) st = 1
		for (a = s; a < s + z; a += st) printf "%x\n", a }' > "$t/addrs"
	awk -v f="$f" '{ printf "p 1 1.0: 1 cpu-clock:\n\t%s x (%s)\n\n", $1, f }' "$t/addrs" > "$t/in.txt"
	sed 's/^/0x/' "$t/addrs" | addr2line -a -i -f -s -C -e "$f" > "$t/a2l.out"
	local ctx
	for ctx in 0 1; do
		awk -v ctx=$ctx '
		function flush(   i, s) {
			if (!seen) return
			s = ""
			for (i = n; i >= 1; i--) s = s (s == "" ? "" : ";") nm[i]
			if (n == 0) s = "x"
			c["p;" s]++
		}
		/^0x[0-9a-f]+$/ { flush(); seen = 1; n = 0; k = 0; next }
		{
			if (k++ % 2 == 0) { fn = $0; next }
			if (fn == "??") next
			sub(/ \(discriminator [0-9]+\)$/, "")
			gsub(/;/, ":", fn); gsub(/["\047]/, "", fn)
			nm[++n] = ctx ? fn ":" $0 : fn
		}
		END { flush(); for (s in c) print s, c[s] }' "$t/a2l.out" | LC_ALL=C sort > "$t/want"
		if [ $ctx = 1 ]; then o=--context; else o=; fi
		# shellcheck disable=SC2086
		sc --inline $o "$t/in.txt" | LC_ALL=C sort > "$t/got"
		diff -u "$t/want" "$t/got" || return 1
	done
	[ "$(grep -c ';.*;' "$t/got")" -gt 10 ]	# with inlined frames
}

@test "--inline and --context name and place what addr2line -C does (C++ by g++ and clang++, libc, C by clang)" {
	command -v addr2line >/dev/null || skip "addr2line not installed"
	command -v g++ >/dev/null || skip "no g++"
	g++ -O2 -g -no-pie -o "$BATS_TEST_TMPDIR/cpp" "$BATS_TEST_DIRNAME/data/perf/pd/src/cpp.cc"
	inline_same "$BATS_TEST_TMPDIR/cpp" 3000
	if command -v clang++ > /dev/null; then
		clang++ -O2 -g -no-pie -o "$BATS_TEST_TMPDIR/clang" "$BATS_TEST_DIRNAME/data/perf/pd/src/cpp.cc"
		inline_same "$BATS_TEST_TMPDIR/clang" 3000
		clang -O2 -g -no-pie -o "$BATS_TEST_TMPDIR/clangc" "$BATS_TEST_DIRNAME/../examples/workload/minidb.c" -pthread
		inline_same "$BATS_TEST_TMPDIR/clangc" 2000
	fi
	# libc: its debug file found by build id, as addr2line finds it
	local bid
	bid=$(readelf -n /usr/lib/x86_64-linux-gnu/libc.so.6 2> /dev/null | awk '/Build ID/ { print $3 }')
	if [ -f "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ]; then
		inline_same /usr/lib/x86_64-linux-gnu/libc.so.6 2000
	fi
}

# ---- the six deliberate fixes (the Perl script fails each) -----------------

@test "fix 1: a last sample without an empty line after it is counted" {
	run --separate-stderr sc < <(printf 'p 1 1.0: 1 cpu-clock:\n\t1 f (/x)\n')
	[ "$output" = "p;f 1" ]
}

@test "fix 2: PID and TID 0 are numbers" {
	run --separate-stderr sc --tid < <(sample 'swapper     0/0     [003] 7628263.042571: cycles:' '1 idle ([kernel.kallsyms])')
	[ "$output" = "swapper-0/0;idle 1" ]
	run --separate-stderr sc --tid "$P/swapper-idle.txt"
	golden "$P/swapper-idle-tid.collapsed"
	grep -q '^swapper-0/0;' "$P/swapper-idle-tid.collapsed"
	! grep -q 'swapper-?' "$P/swapper-idle-tid.collapsed"
}

@test "fix 3: the argument list is cut outside template and other nesting" {
	run --separate-stderr sc < <(sample 'p 1 1.0: 1 cpu-clock:' \
		'1 v8::ObjectSetAccessor<void (*)(v8::Local<v8::Name>)>+0x257 (/x)' \
		'2 Foo::operator()(int) const (/x)' \
		'3 std::operator<< <std::char_traits<char> >(std::ostream&, char const*) (/x)' \
		'4 ns::f(int)::{lambda(int)#1}::operator()(int) const (/x)' \
		'5 main.(*T).Run (/x)')
	[ "$output" = "p;main.(*T).Run;ns::f;std::operator<< <std::char_traits<char> >;Foo::operator;v8::ObjectSetAccessor<void (*)(v8::Local<v8::Name>)> 1" ]
}

@test "fix 4: one-character commands and (anonymous namespace) symbols" {
	run --separate-stderr sc < <(sample 'a 1234 1.0: 1 cpu-clock:' '1 (anonymous namespace)::helper(int) (/x)' '2 main (/x)')
	[ "$output" = "a;main;(anonymous namespace)::helper 1" ]
	# other symbols starting with "(" are still dropped
	run --separate-stderr sc < <(sample 'ab 1234 1.0: 1 cpu-clock:' '1 (deleted) (/x)' '2 main (/x)')
	[ "$output" = "ab;main 1" ]
}

@test "fix 5: an object path with parentheses ((deleted), memfd) is one module" {
	run --separate-stderr sc < <(sample 'svc 1 1.0: 1 cpu-clock:' \
		'7f2a1c __poll+0x2c (/usr/lib/x86_64-linux-gnu/libc.so.6 (deleted))' \
		'c584f [unknown] (/memfd:sealed-9117 (deleted))' \
		'4010 run(int) (/opt/My App (v2)/app)')
	[ -z "$stderr" ]
	[ "$output" = "svc;run;[memfd:sealed-9117 (deleted)];__poll 1" ]
	# one function, one frame, whatever the offset
	run --separate-stderr sc < <(sample 'svc 1 1.0: 1 cpu-clock:' \
		'7f2a1c __poll+0x2c (/usr/lib/x86_64-linux-gnu/libc.so.6 (deleted))' '1 main (/x)' '' \
		'svc 1 1.0: 1 cpu-clock:' \
		'7f2a20 __poll+0x30 (/usr/lib/x86_64-linux-gnu/libc.so.6 (deleted))' '1 main (/x)')
	[ "$output" = "svc;main;__poll 2" ]
	run --separate-stderr sc --addrs < <(sample 'svc 1 1.0: 1 cpu-clock:' \
		'c584f [unknown] (/memfd:sealed-9117 (deleted))')
	[ "$output" = "svc;[memfd:sealed-9117 (deleted) <c584f>] 1" ]
	# annotations are decided on the whole module
	run --separate-stderr sc --jit < <(sample 'java 1 1.0: 1 cpu-clock:' \
		'7f00aa Interpreter (/tmp/perf-1234.map (deleted))')
	[ "$output" = "java;Interpreter_[j] 1" ]
	run --separate-stderr sc --kernel < <(sample 'p 1 1.0: 1 cpu-clock:' \
		'ffffffff81 do_syscall_64 ([kernel.kallsyms] (x))' '1 main (/x)')
	[ "$output" = "p;main;do_syscall_64_[k] 1" ]
	# a "(" inside the path without a blank before it is the path's
	run --separate-stderr sc < <(sample 'p 1 1.0: 1 cpu-clock:' '2 g+0x2 (/c(d))')
	[ "$output" = "p;g 1" ]
	# a group not balanced: the last " (", as the reference reads it
	run --separate-stderr sc < <(sample 'p 1 1.0: 1 cpu-clock:' '1 f+0x1 (/a (b)')
	[ "$output" = "p;f+0x1  1" ]
}

@test "fix 6: operator-> and operator->* are names, not inline separators" {
	run --separate-stderr sc < <(sample 'p 1 1.0: 1 cpu-clock:' \
		'401000 llvm::It::operator->+0x10 (/x/l.so)' \
		'401100 S::operator->*<int>+0x4 (/x/l.so)' \
		'401200 a->b::operator->->c+0x4 (/x/l.so)' \
		'401300 my_operator->x (/x/l.so)')
	[ "$output" = "p;my_operator;x_[i];a;b::operator->_[i];c_[i];S::operator->*<int>;llvm::It::operator-> 1" ]
	# the same where --inline falls back to the symbol
	run --separate-stderr sc --inline < <(sample 'p 1 1.0: 1 cpu-clock:' \
		'401000 llvm::It::operator->+0x10 (/nonexistent/l.so)' \
		'401100 S::operator->*<int>+0x4 (/nonexistent/l.so)')
	[ "$output" = "p;S::operator->*<int>;llvm::It::operator-> 1" ]
	# and demangled
	run --separate-stderr sc --demangle < <(sample 'p 1 1.0: 1 cpu-clock:' \
		'401000 _ZN4llvm2ItptEv+0x10 (/x/l.so)')
	[ "$output" = "p;llvm::It::operator-> 1" ]
}

@test "frame names: offsets, ; to :, quotes, perf-map-agent chains, java" {
	run --separate-stderr sc < <(sample 'java 1 1.0: 1 cpu-clock:' \
		'1 Lorg/x/Foo;.call(Lorg/x/Bar;)V+0x1f (/tmp/perf-9.map)' \
		"2 RegExp:[&<>\\\"\\'] (/tmp/perf-9.map)" \
		'3 Lcom/a/B;::c->Lcom/a/D;::e+0x7 (/tmp/perf-9.map)')
	[ "$output" = 'java;com/a/B:::c;com/a/D:::e_[i];RegExp:[&<>\\];org/x/Foo:.call 1' ]
}

# ---- usage, output -----------------------------------------------------------

@test "--demangle: perf script --no-demangle captures give perf script's stacks (C++)" {
	# cxxwork.cc (examples/workload) recorded once, printed twice by perf
	run --separate-stderr sc --demangle "$P/demangle-cxx-nodm.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	golden "$P/demangle-cxx.collapsed"
	run --separate-stderr sc "$P/demangle-cxx.txt"
	golden "$P/demangle-cxx.collapsed"
	# the names perf demangled are there, mangled without the option
	grep -qF ';store::Index<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, long, (anonymous namespace)::Fnv1a>::put;' "$P/demangle-cxx.collapsed"
	grep -qF '::begin@plt' "$P/demangle-cxx.collapsed"
	run sc "$P/demangle-cxx-nodm.txt"
	[[ "$output" == *";_ZN5store5IndexINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEElN12_GLOBAL__N_15Fnv1aEE3putERKS6_l;"* ]]
	# demangling an already demangled capture changes nothing
	run --separate-stderr sc --demangle "$P/demangle-cxx.txt"
	golden "$P/demangle-cxx.collapsed"
}

@test "--demangle: perf script --no-demangle captures give perf script's stacks (Rust v0)" {
	run --separate-stderr sc --demangle "$P/demangle-rust-v0-nodm.txt"
	[ "$status" -eq 0 ]
	golden "$P/demangle-rust-v0.collapsed"
	run --separate-stderr sc "$P/demangle-rust-v0.txt"
	golden "$P/demangle-rust-v0.collapsed"
	grep -qF ';rswork::main;rswork::work::<u32>' "$P/demangle-rust-v0.collapsed"
	grep -qF ';<rswork::Sq as rswork::Shape>::area' "$P/demangle-rust-v0.collapsed"
}

@test "--demangle: each piece of an inline chain, offsets, what c++filt -p leaves" {
	run sc --demangle < <(sample 'a 1 1.0: 1 cycles:' \
	    '1 _ZN1A1fEv+0x10 (/x)' \
	    '2 _ZN1B1gIiEEvT_->_ZNK1C1hEv+0x3 (/x)' \
	    '3 _Z1fS_ (/x)' \
	    '4 _Zfoo (/x)' \
	    '5 _ZN3foo3bar17h0123456789abcdefE (/x)' \
	    '6 _RNvCs1234_1m4main (/x)' \
	    '7 _ZZ4mainENKUliE_clEi (/x)' \
	    '8 _ZN1A1fEv@plt (/x)')
	[ "$output" = 'a;A::f@plt;main::{lambda(int)#1}::operator;m::main;foo::bar;_Zfoo;f;B::g<int>;C::h_[i];A::f 1' ]
	# as the demangled text gives
	run sc < <(sample 'a 1 1.0: 1 cycles:' '7 main::{lambda(int)#1}::operator() (/x)')
	[ "$output" = 'a;main::{lambda(int)#1}::operator 1' ]
}

@test "--help and --version" {
	run --separate-stderr sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-perf [-q] [--addrs]"* ]]
	[[ "$output" == *"--event-filter EVENT"* ]]
	run --separate-stderr sc -h
	[ "$status" -eq 0 ]
	run --separate-stderr sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-perf (foldkit) "* ]]
}

@test "usage errors exit 2" {
	for args in --nosuch -x --event-filter --skip-after "--event-filter=" "--skip-after="; do
		run --separate-stderr sc $args < /dev/null
		[ "$status" -eq 2 ] || fail "$args: $status"
		[ -z "$output" ]
	done
	run --separate-stderr sc --nosuch
	[[ "$stderr" == *"usage: stackcollapse-perf "* ]]
}

@test "usage text matches the man page synopsis" {
	usage_matches_man stackcollapse-perf
}

@test "man page stackcollapse-perf.1 is lint-clean" {
	man_lint stackcollapse-perf.1
}

@test "a full disk is a write error, exit 1" {
	full_disk stackcollapse-perf "$P/callchain-fp.txt"
}

@test "a closed pipe ends quietly" {
	for i in $(seq 1 20000); do printf 'p 1 1.0: 1 cpu-clock:\n\t1 f%d (/x)\n\n' "$i"; done > "$BATS_TEST_TMPDIR/many.txt"
	closed_pipe "p;f1 1" stackcollapse-perf "$BATS_TEST_TMPDIR/many.txt"
}

# ---- live ---------------------------------------------------------------------

@test "end to end: perf record -g on a program of ours, perf script collapsed live" {
	command -v perf >/dev/null || skip "perf not installed"
	command -v cc >/dev/null || skip "no C compiler"
	d=$BATS_TEST_TMPDIR
	perf record -q -o "$d/probe.data" -- true >/dev/null 2>&1 ||
		skip "perf cannot record here (perf record -o ... true fails)"
	cat > "$d/spin.c" <<-'EOF'
	#include <stdlib.h>
	volatile unsigned long sink;
	__attribute__((noinline)) void foldkit_leaf(unsigned long n)
	{
		for (unsigned long i = 0; i < n; i++)
			sink += i * i;
	}
	__attribute__((noinline)) void foldkit_caller(void)
	{
		for (int i = 0; i < 400; i++)
			foldkit_leaf(200000);
	}
	int main(void)
	{
		foldkit_caller();
		return 0;
	}
	EOF
	cc -O1 -g -fno-omit-frame-pointer -o "$d/spin" "$d/spin.c"
	perf record -q -F 997 -g -o "$d/spin.data" -- "$d/spin" >/dev/null 2>&1 ||
		skip "perf record -g fails here"
	run --separate-stderr bash -c 'perf script -i "$1" 2>/dev/null | "$2"' _ "$d/spin.data" "$BIN/stackcollapse-perf"
	[ "$status" -eq 0 ]
	[ -n "$output" ] || skip "perf recorded no samples"
	[[ "$output" == *"spin;"*"main;"*"foldkit_leaf "* ]]
	# every line is a folded stack
	! grep -qvE '^[^ ].* [0-9]+$' <<< "$output"
}
