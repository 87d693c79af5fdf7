#!/usr/bin/env bats
# stackcollapse-sample: macOS sample(1) reports to folded stacks.  The rules
# on our own report (tests/data/sample/rules.txt, written by hand in the
# shape sample writes); the real captures of ../shared/conformance/macos/
# sample/ against inferno 0.12.8's answers (equal but for its deliberate
# differences, tests/data/sample/as-inferno.awk) and FlameGraph's
# stackcollapse-sample.awk's (the same samples under each leaf,
# tests/data/sample/leafkey.awk).

load helper

D=$BATS_TEST_DIRNAME/data/sample
sc() { "$BIN/stackcollapse-sample" "$@"; }

# The shared captures, beside the project (skipped when absent).
for M in "${FOLDKIT_MACOS:-}" "$BATS_TEST_DIRNAME/../../shared/conformance/macos/sample" \
	"$BATS_TEST_DIRNAME/../../../shared/conformance/macos/sample"; do
	[ -n "$M" ] && [ -d "$M" ] && break
done
need_m() { [ -d "$M/malformed" ] || skip "no macOS captures (set FOLDKIT_MACOS)"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

MAIN='Thread_101   DispatchQueue_1: com.apple.main-thread  (serial);dyld`start;demo`main'

@test "our report: each rule of a frame, self counts, idle threads left out" {
	run --separate-stderr sc "$D/rules.txt"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-sample: 40 samples of idle threads left out (a wait function on top: --all keeps them)" ]
	diff -u - <(printf '%s\n' "$output") <<EOF
$MAIN 1
$MAIN;<unknown binary>\`??? 3
$MAIN;Foundation\`-[NSAutoreleasePool drain] 5
$MAIN;Plug (beta)\`odd:name 1
$MAIN;XUL\`ThreadFunc(void*) 2
$MAIN;demo\`std::panicking::try::do_call;demo\`<alloc::vec::Vec<T> as core::ops::Drop>::drop 2
$MAIN;demo\`work(int, char**) const 12
$MAIN;libhelp\`(anonymous namespace)::helper() 4
$MAIN;libhelp\`(anonymous namespace)::helper();libsystem_platform\`memcpy 6
$MAIN;libsystem_m\`??? 3
Thread_102: Worker Pool;libsystem_pthread\`thread_start;demo\`my_read 6
EOF
}

@test "names whole: C++ signatures, (anonymous namespace), ObjC, a module with parentheses" {
	run sc -q "$D/rules.txt"
	[[ "$output" == *"demo\`work(int, char**) const 12"* ]]
	[[ "$output" == *"libhelp\`(anonymous namespace)::helper() 4"* ]]
	[[ "$output" == *"Foundation\`-[NSAutoreleasePool drain] 5"* ]]
	[[ "$output" == *"Plug (beta)\`odd:name 1"* ]]
}

@test "read from the right: offsets, lists of offsets, load address, addresses, source line" {
	printf '%s\n' 'Call graph:' '    9 Thread_1' \
		'    + 2 f  (in m) + 1  [0x1]' \
		'    + 2 f  (in m) + 1,2,...  [0x1,0x2,...]' \
		'    + 2 f  (in m.dylib) + 0x10  [0x1]  f.c:12' \
		'    + 2 f  (in m)  load address 0x1000 + 0x10  [0x1010]' \
		'    + 1 f  (in m)' 'Total number in stack' > "$T/r.txt"
	run sc "$T/r.txt"
	[ "$status" -eq 0 ]
	[ "$output" = 'Thread_1;m`f 9' ]
}

@test "a trailing (.llvm.N) is dropped; half-demangled Rust names finished; {{closure}} as rustc-demangle prints it" {
	printf '%s\n' 'Call graph:' '    4 Thread_1' \
		'    + 1 a::b::hab896c32750930ec (.llvm.123)  (in rg) + 1  [0x1]' \
		'    + 1 rg::search_parallel::_$u7b$$u7b$closure$u7d$$u7d$::h6e849b55a66fcd85  (in rg) + 1  [0x2]' \
		'    + 1 C(.llvm.1)  (in x) + 1  [0x3]' \
		'    + 1 not_rust::h0123  (in x) + 1  [0x4]' \
		'Total number in stack' > "$T/r.txt"
	run sc "$T/r.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'Thread_1;rg`a::b 1' ]
	[ "${lines[1]}" = 'Thread_1;rg`rg::search_parallel::{{closure}} 1' ]
	[ "${lines[2]}" = 'Thread_1;x`C(.llvm.1) 1' ]
	[ "${lines[3]}" = 'Thread_1;x`not_rust::h0123 1' ]
}

@test "--no-modules: the name alone" {
	run sc -q --no-modules "$D/rules.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(serial);start;main;(anonymous namespace)::helper();memcpy 6"* ]]
	[[ "$output" == *"(serial);start;main;??? 6"* ]]	# two ??? leaves summed
	! [[ "$output" == *'`'* ]]
}

@test "--no-threads: no thread frame at the root" {
	run sc -q --no-threads "$D/rules.txt"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'dyld`start;demo`main 1' ]
	[[ "$output" == *$'\nlibsystem_pthread`thread_start;demo`my_read 6'* ]]
	! [[ "$output" == *Thread_* ]]
	run sc -q --no-threads --no-modules "$D/rules.txt"
	[[ "$output" == *$'\nthread_start;my_read 6'* ]]
}

@test "thread headers kept whole: Thread_N, Thread_N: name, DispatchQueue (serial)" {
	run sc --all "$D/rules.txt"
	[[ "$output" == *"Thread_101   DispatchQueue_1: com.apple.main-thread  (serial);dyld"* ]]
	[[ "$output" == *"Thread_102: Worker Pool;"* ]]
	[[ "$output" == *$'\nThread_103;libsystem_kernel`semaphore_wait_trap 5'* ]]
}

@test "idle: exact wait-function names only; --all keeps them; -q silences the note" {
	run --separate-stderr sc --all "$D/rules.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *';libsystem_kernel`__psynch_cvwait 30'* ]]
	[[ "$output" == *';libsystem_kernel`read 4'* ]]
	[[ "$output" == *';libsystem_kernel`mach_msg_trap 1'* ]]
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" -eq 85 ]
	run --separate-stderr sc -q "$D/rules.txt"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *';demo`my_read 6'* ]]	# ends in "read": kept
	! [[ "$output" == *'`read '* ]]
}

@test "the man page lists the same wait functions as the code" {
	m=$(sed -n '/^\.Sh IDLE THREADS/,/^\.Sh /p' "$BATS_TEST_DIRNAME/../man/stackcollapse-sample.1" |
		grep -o '^\.It Fn [^ ]*' | sed 's/^\.It Fn //' | sort)
	[ "$(echo "$m" | wc -l)" -eq 10 ]
	for f in $m; do
		printf '%s\n' 'Call graph:' '    1 T' "    + 1 $f  (in libsystem_kernel.dylib) + 1  [0x1]" \
			'Total number in stack' > "$T/i.txt"
		run --separate-stderr sc "$T/i.txt"
		[ -z "$output" ] || fail "$f not idle"
		[[ "$stderr" == *"1 sample of idle"* ]] || fail "$f: $stderr"
	done
}

@test "identical stacks from different lines are summed; an inner frame's own samples" {
	printf '%s\n' 'Call graph:' '    10 T' \
		'    + 10 a  (in m) + 1  [0x1]' \
		'    +   3 b  (in m) + 1  [0x2]' \
		'    +   2 b  (in m) + 5  [0x3]' \
		'    +   ! 2 c  (in m) + 5  [0x4]' \
		'    + 0 z  (in m) + 1  [0x5]' \
		'Total number in stack' > "$T/r.txt"
	run sc "$T/r.txt"
	[ "$status" -eq 0 ]
	[ "$output" = $'T;m`a 5\nT;m`a;m`b 3\nT;m`a;m`b;m`c 2' ]
}

@test "frames whose names begin others' (f, f!, f(int), f:x, f=, fa...): byte order, merged as a plain fold says" {
	# two threads, two reports; under each frame the same names again,
	# and each name twice at the first level (another offset: merged)
	awk 'BEGIN {
		n = split("f f! f(int) f:x f<T> f= fa f`g f_f g", nm, " ")
		for (r = 1; r <= 2; r++) {
			print "Call graph:"
			for (t = 1; t <= 2; t++) {
				print "    " (n * 2 * 6) " Thread_" t
				for (k = 1; k <= 2; k++)
					for (i = 1; i <= n; i++) {
						printf "    + 6 %s  (in m%s) + %d  [0x%x]\n", nm[i], k == 1 ? "" : ".dylib", k, i
						for (j = 1; j <= 4; j++)
							printf "    + ! 1 %s  (in m) + 1  [0x%x]\n", nm[n + 1 - j], j
					}
			}
			print "Total number in stack (recursive counted multiple, when >=5):"
		}
	}' > "$T/p.txt"
	run sc "$T/p.txt"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 100 ]
	[ "$output" = "$(awk -f "$D/fold.awk" "$T/p.txt" | LC_ALL=C sort)" ]
}

@test "several reports, in one file or several, are summed; stdin and '-'" {
	cat "$D/rules.txt" "$D/rules.txt" > "$T/two.txt"
	run sc -q "$T/two.txt"
	[[ "$output" == *';demo`main 2'* ]]
	[[ "$output" == *';demo`my_read 12'* ]]
	run sc -q "$D/rules.txt" "$D/rules.txt"
	[[ "$output" == *';demo`my_read 12'* ]]
	run sc -q - < "$D/rules.txt"
	[[ "$output" == *';demo`my_read 6'* ]]
	run sc -q < "$D/rules.txt"
	[[ "$output" == *';demo`my_read 6'* ]]
}

@test "CR LF line ends and trailing blanks" {
	sed 's/$/ \r/' "$D/rules.txt" > "$T/crlf.txt"
	diff <(sc -q "$T/crlf.txt") <(sc -q "$D/rules.txt")
}

@test "inferno's capture: inferno's stacks but for the __open samples it lost (7+5+2, 4+2+2)" {
	need_m
	run sc -q "$M/inferno-sample.txt"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 17 ]
	[ "$(printf '%s\n' "$output" | awk '{ s += $NF } END { print s }')" -eq 1429 ]
	printf '%s\n' "$output" | awk -f "$D/as-inferno.awk" | sort > "$T/ours"
	sort "$M/inferno-sample.default.folded" > "$T/inferno"
	run diff "$T/ours" "$T/inferno"
	[ "${#lines[@]}" -eq 8 ]
	[[ "${lines[1]}" == "< Thread_15758535;"*";rg\`std::sys::unix::cvt_r;libsystem_kernel\`__open 14" ]]
	[[ "${lines[3]}" == "> Thread_15758535;"*";rg\`std::sys::unix::cvt_r;libsystem_kernel\`__open 2" ]]
	[[ "${lines[5]}" == "< Thread_15758553;"*";libsystem_kernel\`__open 8" ]]
	[[ "${lines[7]}" == "> Thread_15758553;"*";libsystem_kernel\`__open 2" ]]
}

@test "inferno's capture, --no-modules: the same" {
	need_m
	sc -q --no-modules "$M/inferno-sample.txt" | awk -v nomod=1 -f "$D/as-inferno.awk" | sort > "$T/ours"
	sort "$M/inferno-sample.no-modules.folded" > "$T/inferno"
	run diff "$T/ours" "$T/inferno"
	[ "${#lines[@]}" -eq 8 ]
	[[ "${lines[1]}" == "< "*";std::sys::unix::cvt_r;__open 14" ]]
	[[ "${lines[5]}" == "< "*";std::sys::unix::cvt_r;__open 8" ]]
}

# vs_inferno OURS INFERNO: every stack of inferno's is ours, its count
# never above ours; "STACKS-THAT-DIFFER SAMPLES-IT-LOST OUR-TOTAL".
vs_inferno() {
	run awk 'NR == FNR { n = $NF; sub(/ [0-9]+$/, ""); ours[$0] = n; m++; next }
		{ n = $NF; sub(/ [0-9]+$/, ""); k++
		  if (!($0 in ours)) { print "only inferno: " $0; exit 1 }
		  if (n > ours[$0]) { print "inferno more: " $0; exit 1 }
		  if (n != ours[$0]) d++; lost += ours[$0] - n; tot += ours[$0] }
		END { if (k != m) { print m " stacks, inferno " k; exit 1 }
		      print d + 0, lost + 0, tot + 0 }' "$1" "$2"
}

@test "the large capture: inferno's stacks; where they differ, inferno lost samples (688 of 5,776)" {
	need_m
	gzip -dc "$M/inferno-large.txt.gz" > "$T/large.txt"
	sc -q "$T/large.txt" | awk -f "$D/as-inferno.awk" > "$T/ours"
	gzip -dc "$M/inferno-large.inferno-0.12.8.default.folded.gz" > "$T/inferno"
	vs_inferno "$T/ours" "$T/inferno"
	[ "$status" -eq 0 ] || fail "$output"
	[ "$output" = "167 688 5776" ]
	[ "$(wc -l < "$T/ours")" -eq 1837 ]
	sc -q --no-modules "$T/large.txt" | awk -v nomod=1 -f "$D/as-inferno.awk" > "$T/ours"
	gzip -dc "$M/inferno-large.inferno-0.12.8.no-modules.folded.gz" > "$T/inferno"
	vs_inferno "$T/ours" "$T/inferno"
	[ "$status" -eq 0 ] || fail "$output"
	[ "$output" = "167 688 5776" ]
}

@test "the large capture: names inferno cut to nothing are whole; its garbled main thread is not" {
	need_m
	run sc -q <(gzip -dc "$M/inferno-large.txt.gz")
	[ "$status" -eq 0 ]
	! [[ "$output" == *'`;'* ]]
	[[ "$output" == *'XUL`(anonymous namespace)::'* ]]
	[[ "$output" == *$'\nThread_1086624   DispatchQueue_1: com.apple.main-thread  (serial);libdyld`start;'* ]]
	[ "$(gzip -dc "$M/inferno-large.inferno-0.12.8.default.folded.gz" | grep -c '`;')" -gt 0 ]
}

@test "per-leaf sums equal FlameGraph's stackcollapse-sample.awk's (both captures)" {
	need_m
	run diff <(sc -q "$M/inferno-sample.txt" | awk -f "$D/leafkey.awk" | sort) \
		<(awk -v awk=1 -f "$D/leafkey.awk" "$M/inferno-sample.flamegraph-awk.folded" | sort)
	[ "$status" -eq 0 ] || fail "$output"
	run diff <(sc -q <(gzip -dc "$M/inferno-large.txt.gz") | awk -f "$D/leafkey.awk" | sort) \
		<(gzip -dc "$M/inferno-large.flamegraph-awk.folded.gz" | awk -v awk=1 -f "$D/leafkey.awk" | sort)
	[ "$status" -eq 0 ] || fail "$output"
	[ "$(gzip -dc "$M/inferno-large.flamegraph-awk.folded.gz" | awk '{ s += $NF } END { print s }')" -eq \
		"$(sc -q <(gzip -dc "$M/inferno-large.txt.gz") | awk '{ s += $NF } END { print s }')" ]
}

@test "inferno's 8 malformed reports: a message naming the line, exit 1" {
	need_m
	bad() {	# FILE LINE WHAT
		run --separate-stderr sc -q "$M/malformed/$1"
		[ "$status" -eq 1 ] || { fail "$1: status $status"; return 1; }
		[ "$stderr" = "stackcollapse-sample: $M/malformed/$1:$2: $3" ] ||
			{ fail "$1: $stderr"; return 1; }
	}
	bad bad-stack-line.txt 22 "no sample count before the frame"
	bad end-before-call-graph-end.txt 34 'the report ends inside the call graph (no "Total number in stack" line)'
	bad end-before-call-graph-start.txt 18 'the report ends before its call graph (no "Call graph:" line): not the output of sample'
	bad invalid-samples-field.txt 22 "no sample count before the frame"
	bad no-four-spaces.txt 22 "a call graph line that does not start with 4 spaces"
	bad odd-indentation.txt 22 "an odd number of depth markers"
	bad skipped-indentation.txt 23 "a frame 2 levels below the one before"
	bad stack-line-only-indent-chars.txt 22 "a call graph line with depth markers only"
}

@test "a bad line: the other threads are still read, its parent's own samples dropped; --strict stops" {
	printf '%s\n' 'Call graph:' '    10 T1' '    + 10 a  (in m) + 1  [0x1]' '    +   BAD' \
		'    +     4 deeper  (in m) + 1  [0x1]' '    7 T2' '    + 7 b  (in m) + 1  [0x1]' \
		'Total number in stack' > "$T/bad.txt"
	run --separate-stderr sc "$T/bad.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-sample: $T/bad.txt:4: no sample count before the frame" ]
	[ "$output" = 'T2;m`b 7' ]
	run --separate-stderr sc --strict "$T/bad.txt"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "stackcollapse-sample: $T/bad.txt:4: no sample count before the frame" ]
	run --separate-stderr sc --strict "$D/rules.txt"
	[ "$status" -eq 0 ]
}

@test "a report cut inside its call graph: the stacks read are kept, exit 1" {
	head -20 "$D/rules.txt" > "$T/cut.txt"
	run --separate-stderr sc -q "$T/cut.txt"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-sample: $T/cut.txt:20: the report ends inside the call graph (no \"Total number in stack\" line)" ]
	[[ "$output" == *';libsystem_platform`memcpy 6'* ]]
}

@test "empty input and a file that cannot be opened: named, exit 1, the others still read" {
	run --separate-stderr sc < /dev/null
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-sample: <stdin>:0: empty input: not the output of sample" ]
	run --separate-stderr sc -q "$T/none" "$D/rules.txt"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "stackcollapse-sample: $T/none: "* ]]
	[[ "$output" == *';demo`my_read 6'* ]]
}

# all three ways of reading (the default, one thread, two): the same stdout,
# stderr and status; the arguments: what to run, stdin from $IN (or none)
same3() {
	run --separate-stderr "$@" < "${IN:-/dev/null}"
	local o=$output e=$stderr st=$status k
	for k in 1 2; do
		FOLDKIT_SAMPLE_THREADS=$k run --separate-stderr "$@" < "${IN:-/dev/null}"
		[ "$status" -eq "$st" ] && [ "$output" = "$o" ] && [ "$stderr" = "$e" ] ||
			{ echo "FOLDKIT_SAMPLE_THREADS=$k differs on $*"; return 1; }
	done
	output=$o stderr=$e status=$st
}

@test "over 4 MB, read in two threads: the same output, messages and status as in one" {
	# our report 2,000 times (summed), a bad line and a level skipped in
	# copy 700, the last copy cut inside its call graph
	awk 'NR == FNR { l[++n] = $0; next } END {
		for (k = 1; k <= 2000; k++)
			for (i = 1; i <= n; i++) {
				if (k == 700 && i == 15) print "    + 3garbage"
				if (k == 700 && i == 17) print "    + ! : 2 skipped  (in x) + 1  [0x1]"
				if (k == 2000 && i > 20) exit
				print l[i]
			}
	}' "$D/rules.txt" /dev/null > "$T/big.txt"
	[ "$(wc -c < "$T/big.txt")" -gt 4194304 ]
	same3 sc "$T/big.txt"
	[ "$status" -eq 1 ]
	# (the line skipped below the bad one is not named)
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 3 ]
	[ "$(printf '%s\n' "$stderr" | sed -n 1p)" = "stackcollapse-sample: $T/big.txt:30072: no frame after the sample count" ]
	[[ "$(printf '%s\n' "$stderr" | sed -n 2p)" == "stackcollapse-sample: $T/big.txt:85979: the report ends inside the call graph"* ]]
	[[ "$output" == *';demo`my_read '* ]]
	IN=$T/big.txt same3 sc -q --all --no-modules
	IN=$T/big.txt same3 sc --no-threads "$T/big.txt" "$T/none" "$D/rules.txt" -
	[[ "$stderr" == *"$T/none: "* ]]
	same3 sc --strict "$T/big.txt"
	[ "$status" -eq 1 ]
}

@test "a regular file is read in place (mapped, 4 MB read in ahead, given back behind; in chunks, with pread, nothing read in ahead): what a pipe gives" {
	local f
	awk 'NR == FNR { l[++n] = $0; next } END {
		for (k = 1; k <= 5000; k++) for (i = 1; i <= n; i++) print l[i] }' \
	    "$D/rules.txt" /dev/null > "$T/big.txt"
	[ "$(wc -c < "$T/big.txt")" -gt $((9 << 20)) ]
	for f in "$D"/*.txt "$T/big.txt"; do
		for t in 1 2; do
			FOLDKIT_SAMPLE_THREADS=$t sc "$f" > "$T/map.out" 2> "$T/map.err" || :
			cat "$f" | FOLDKIT_SAMPLE_THREADS=$t sc > "$T/pipe.out" 2> "$T/pipe.err" || :
			cmp "$T/map.out" "$T/pipe.out"
			sed "s|<stdin>|$f|" "$T/pipe.err" | cmp - "$T/map.err"
		done
	done
	# standard input read from before: read from where it stands
	{ echo 'a line the shell read'; cat "$D/rules.txt"; } > "$T/shifted.txt"
	sc < "$D/rules.txt" > "$T/want.out"
	{ IFS= read -r line; sc > "$T/got.out"; } < "$T/shifted.txt"
	cmp "$T/want.out" "$T/got.out"
	# the pages behind given back (so memory does not grow with the file)
	command -v strace > /dev/null && [ -z "${FOLDKIT_SAN:-}" ] || return 0
	for t in 1; do
		# (a file a thread: no call cut in two by another thread's)
		rm -f "$T"/tr*
		FOLDKIT_SAMPLE_THREADS=$t strace -ff -e trace=madvise -o "$T/tr" \
		    "$BIN/stackcollapse-sample" -q "$T/big.txt" > /dev/null
		cat "$T"/tr.* | sed 's/^/0 /' > "$T/tr"
		! grep -q 'MADV_POPULATE_READ) = -1' "$T/tr" || skip "no MADV_POPULATE_READ here"
		# (given back in the map: between the first and last page read
		# in; the threads' arenas are given back too)
		awk '/MADV_(DONTNEED|POPULATE_READ)\) = 0/ {
			a = $2; sub(/.*\(/, "", a); sub(",", "", a); sub(",", "", $3) }
		    /MADV_POPULATE_READ\) = 0/ { p += $3
			if (lo == "" || a < lo) lo = a; if (a > hi) hi = a }
		    /MADV_DONTNEED\) = 0/ { d[a] = $3 }
		    END { for (a in d) if (length(a) == length(lo) && a >= lo && a <= hi) s += d[a]
			print s + 0, p + 0 }' "$T/tr" > "$T/back"
		read -r back in < "$T/back"
		n=$(wc -c < "$T/big.txt")
		# (read in once; in chunks, a page where two meet twice)
		[ "$back" -ge $((4 << 20)) ] && [ "$back" -le "$n" ] &&
		    [ "$in" -ge "$n" ] && [ "$in" -le $((n + 64 * 4096)) ] ||
			fail "$t threads: given back $back, read in $in of $n"
	done
	# two threads (in chunks): nothing of the map read in ahead (its
	# first line and the chunks' places are read where they are); the
	# chunks read with pread(2) into a buffer each, all of the file but
	# its first line
	rm -f "$T"/tr*
	FOLDKIT_SAMPLE_THREADS=2 strace -ff -e trace=madvise,mmap -o "$T/tr" \
	    "$BIN/stackcollapse-sample" -q "$T/big.txt" > /dev/null
	rm -f "$T"/pr*
	# (-P: the file's calls, not the dynamic loader's)
	FOLDKIT_SAMPLE_THREADS=2 strace -ff -e trace=pread64 -P "$T/big.txt" -o "$T/pr" \
	    "$BIN/stackcollapse-sample" -q "$T/big.txt" > /dev/null
	# (and each chunk's pages of the map given back after it: those
	# read looking for where chunks begin, and for the first line)
	{ cat "$T"/tr.*; cat "$T"/pr.*; } > "$T/all"
	# (twice: the map's place, from the mmap of the file's n bytes, then
	# the calls in it)
	awk -v n="$n" '
	    function hex(s,  i, v) { v = 0; sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	    /MADV_(DONTNEED|POPULATE_READ)\) = 0/ {
		a = $1; sub(/.*\(/, "", a); sub(",", "", a); sub(",", "", $2)
		a = hex(a) }
	    NR == FNR { if (/^mmap\(NULL, / && $2 == n "," && !got) {
			lo = hex($NF); got = 1 }
		next }
	    /MADV_POPULATE_READ\) = 0/ { p += $2 }
	    /MADV_DONTNEED\) = 0/ && a >= lo && a < lo + n { b += $2 }
	    /^pread64\(/ && / = [0-9]+$/ { r += $NF }
	    END { print p + 0, r + 0, b + 0 }' "$T/all" "$T/all" > "$T/back"
	read -r in got back < "$T/back"
	[ "$in" -eq 0 ] && [ "$got" -le "$n" ] &&
	    [ "$got" -ge $((n - 4096)) ] && [ "$back" -ge $((n / 2)) ] &&
	    [ "$back" -le "$n" ] ||
		fail "2 threads: read in $in, read with pread $got, given back $back of $n"
}

@test "in chunks, a part that pread(2) cannot read is read from the map, a line longer than the buffer whole: the same output" {
	[ -z "${FOLDKIT_SAN:-}" ] || skip "LD_PRELOAD and the sanitizers do not mix"
	[ "$(uname -s)" = Linux ] || skip "LD_PRELOAD: Linux"
	[ -f "$TESTBIN/failpread.so" ] || skip "no $TESTBIN/failpread.so"
	awk 'NR == FNR { l[++n] = $0; next } END {
		for (k = 1; k <= 3000; k++) for (i = 1; i <= n; i++) print l[i] }' \
	    "$D/rules.txt" /dev/null > "$T/big.txt"
	FOLDKIT_SAMPLE_THREADS=1 sc "$T/big.txt" > "$T/one.out" 2> "$T/one.err"
	# every read failing, or those after half the file (the first
	# chunk read, the others not)
	for n in 0 $(($(wc -c < "$T/big.txt") / 2)); do
		FAILPREAD_AFTER=$n FOLDKIT_SAMPLE_THREADS=2 \
		    LD_PRELOAD=$TESTBIN/failpread.so sc "$T/big.txt" \
		    > "$T/two.out" 2> "$T/two.err"
		cmp "$T/one.out" "$T/two.out"
		cmp "$T/one.err" "$T/two.err"
	done
	# a line longer than the reading buffer (128 KB), in a chunk
	awk 'NR == FNR { l[++n] = $0; next } END {
		for (k = 1; k <= 3000; k++) for (i = 1; i <= n; i++) {
			s = l[i]
			if (k == 2000 && s ~ /ThreadFunc/) {
				x = "x"; while (length(x) < 300000) x = x x
				sub(/ThreadFunc/, "ThreadFunc" x, s)
			}
			print s } }' "$D/rules.txt" /dev/null > "$T/long.txt"
	FOLDKIT_SAMPLE_THREADS=1 sc "$T/long.txt" > "$T/one.out" 2> "$T/one.err"
	FOLDKIT_SAMPLE_THREADS=2 sc "$T/long.txt" > "$T/two.out" 2> "$T/two.err"
	grep -q 'ThreadFuncxxxxxxxx' "$T/two.out"
	cmp "$T/one.out" "$T/two.out"
	cmp "$T/one.err" "$T/two.err"
}

@test "two threads: frames of a mapped file found by the tree side, of a pipe by the reader: what one thread gives" {
	awk 'NR == FNR { l[++n] = $0; next } END {
		for (k = 1; k <= 3000; k++) for (i = 1; i <= n; i++) print l[i] }' \
	    "$D/rules.txt" /dev/null > "$T/big.txt"
	cat "$D"/*.txt > "$T/all.txt"
	# mapped, a pipe, mapped again: the maps stay while their lines are
	# on their way to the tree side; each side's ids meet in one frame
	for t in 1 2; do
		cat "$T/all.txt" | FOLDKIT_SAMPLE_THREADS=$t sc "$T/big.txt" - \
		    "$T/big.txt" "$T/all.txt" > "$T/$t.out" 2> "$T/$t.err" || :
		cat "$T/all.txt" | FOLDKIT_SAMPLE_THREADS=$t sc --no-threads \
		    "$T/big.txt" - "$T/all.txt" > "$T/$t.nt" 2>&1 || :
	done
	cmp "$T/1.out" "$T/2.out"
	cmp "$T/1.err" "$T/2.err"
	cmp "$T/1.nt" "$T/2.nt"
	[ -s "$T/1.out" ] && [ -s "$T/1.nt" ]
}

# copies N [BAD]: one call graph of our report's N times, each copy's
# threads renamed (new stacks); a line without a frame in copies 5, BAD + 5,
# 2 * BAD + 5...
copies() {
	awk -v K="$1" -v B="${2:-0}" 'NR == FNR { l[++n] = $0; next } END {
		print "Call graph:"
		for (k = 1; k <= K; k++)
			for (i = 13; i <= n; i++) {
				if (l[i] ~ /^Total number/) break
				if (B > 0 && k % B == 5 && i == 20) print "    + 3garbage"
				x = l[i]; sub(/Thread_[0-9]+/, "&_" k, x); print x
			}
		print "Total number in stack (recursion counted multiple times):"
	}' "$D/rules.txt" /dev/null
}

@test "a large file in chunks, two threads each into a tree of its own: what one thread gives" {
	copies 3000 1000 > "$T/big.txt"
	[ "$(wc -c < "$T/big.txt")" -gt $((4 << 20)) ]
	same3 sc "$T/big.txt"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | grep -c 'no frame after the sample count')" -eq 3 ]
	# the line numbers are the file's
	printf '%s\n' "$stderr" | sed -n 's/.*big.txt:\([0-9]*\): no frame.*/\1/p' |
	while read -r n; do
		[ "$(sed -n "${n}p" "$T/big.txt")" = "    + 3garbage" ] || fail "line $n"
	done
	same3 sc --no-threads "$T/big.txt"
	same3 sc --all --no-modules "$T/big.txt"
	# more messages in a chunk than wait: all read again in one thread
	awk '{ print } NR == 5000 { for (i = 0; i < 3000; i++)
		print "    + 3garbage" }' "$T/big.txt" > "$T/many.txt"
	same3 sc "$T/many.txt"
	[ "$(printf '%s\n' "$stderr" | grep -c 'no frame after the sample count')" -eq 3003 ]
	# the same threads in two reports in one file: the two trees' stacks
	# meet below the empty stack
	cat "$T/big.txt" "$T/big.txt" > "$T/twice.txt"
	same3 sc -q "$T/twice.txt"
	[[ "$output" == *"Thread_101_7   DispatchQueue_1: com.apple.main-thread  (serial);dyld\`start;demo\`main;demo\`work(int, char**) const 24"* ]]
	# lines that look like threads outside any call graph: a chunk that
	# begins there is not read as one: all is read again, as one thread
	{ cat "$T/big.txt"; awk 'BEGIN { for (i = 0; i < 200000; i++)
		print "    7 Thread_9  (not in a call graph)" }'
	  cat "$T/big.txt"; } > "$T/out.txt"
	same3 sc "$T/out.txt"
	[ "$status" -eq 1 ]
	[[ "$output" != *"Thread_9 "* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c 'no frame after the sample count')" -eq 6 ]
}

@test "chunks with no thread's line near their place: one huge thread in the middle, at the end" {
	copies 1500 > "$T/big.txt"
	# one thread of 150000 lines (5 MB), an error among them
	awk 'BEGIN { print "    150000 Thread_77"
		for (i = 0; i < 150000; i++) {
			if (i == 100000) print "    + 3garbage"
			printf "    + 1 f%d  (in demo) + 1  [0x1]\n", i } }' > "$T/huge.part"
	{ sed '$d' "$T/big.txt"; cat "$T/huge.part"; sed 1d "$T/big.txt"; } > "$T/mid.txt"
	{ sed '$d' "$T/big.txt"; cat "$T/huge.part"; tail -1 "$T/big.txt"; } > "$T/end.txt"
	for f in mid end; do
		same3 sc "$T/$f.txt"
		[ "$status" -eq 1 ]
		[[ "$output" == *"Thread_77;demo\`f149999 1"* ]]
		n=$(printf '%s\n' "$stderr" | sed -n 's/.*txt:\([0-9]*\): no frame.*/\1/p')
		[ "$(sed -n "${n}p" "$T/$f.txt")" = "    + 3garbage" ]
	done
	# no thread's line near the first sixteenth: read as before
	{ echo "Call graph:"; cat "$T/huge.part" "$T/huge.part"; tail -1 "$T/big.txt"; } > "$T/one.txt"
	same3 sc "$T/one.txt"
	[ "$status" -eq 1 ]
}

@test "two trees written at once at their places: to a file after other output, appended, to a pipe; one thread made for all" {
	copies 1500 > "$T/big.txt"
	FOLDKIT_SAMPLE_THREADS=1 sc -q "$T/big.txt" > "$T/one.out"
	[ "$(wc -l < "$T/one.out")" -gt 10000 ]
	# two threads from here on (the file is below 4 MB)
	export FOLDKIT_SAMPLE_THREADS=2
	sc -q "$T/big.txt" | cat > "$T/pipe.out"
	cmp "$T/one.out" "$T/pipe.out"
	sc -q "$T/big.txt" > "$T/file.out"
	cmp "$T/one.out" "$T/file.out"
	{ echo before; sc -q "$T/big.txt"; echo after; } > "$T/mid.out"
	{ echo before; cat "$T/one.out"; echo after; } | cmp - "$T/mid.out"
	echo old > "$T/app.out"
	sc -q "$T/big.txt" >> "$T/app.out"
	{ echo old; cat "$T/one.out"; } | cmp - "$T/app.out"
	# one thread made for all (reading, the items, writing), and it
	# writes a part (strace -f: pwrite64 from two threads)
	if command -v strace > /dev/null && [ -z "${FOLDKIT_SAN:-}" ]; then
		strace -f -e trace=clone,clone3,pwrite64 -o "$T/tr" \
		    "$BIN/stackcollapse-sample" -q "$T/big.txt" > "$T/file.out"
		cmp "$T/one.out" "$T/file.out"
		[ "$(grep -c 'clone3\{0,1\}(' "$T/tr")" -eq 1 ] || fail "threads: $(cat "$T/tr")"
		[ "$(grep 'pwrite64(1,' "$T/tr" | awk '{ print $1 }' | sort -u | wc -l)" -eq 2 ] ||
			fail "writes: $(cat "$T/tr")"
	fi
	# a file that cannot grow: a write error, exit 1
	[ -z "${FOLDKIT_SAN:-}" ] || return 0
	run bash -c 'trap "" XFSZ; ulimit -f 1024; "$1" -q "$2" > "$3"' _ \
	    "$BIN/stackcollapse-sample" "$T/big.txt" "$T/small.out"
	[ "$status" -eq 1 ]
	[[ "$output" == "stackcollapse-sample: write error: "* ]]
}

@test "two threads on small inputs too: several files, errors between them, cut reports, stdin" {
	head -20 "$D/rules.txt" > "$T/cut.txt"
	printf 'no report here\n' > "$T/none.txt"
	: > "$T/empty.txt"
	same3 sc "$T/cut.txt" "$T/nofile" "$D/rules.txt" "$T/none.txt" "$T/empty.txt" "$T/cut.txt"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 5 ]
	[[ "$(printf '%s\n' "$stderr" | sed -n 1p)" == *"$T/nofile: "* ]]
	[[ "$(printf '%s\n' "$stderr" | sed -n 2p)" == *"$T/cut.txt:20: the report ends inside"* ]]
	[[ "$(printf '%s\n' "$stderr" | sed -n 3p)" == *"$T/none.txt:1: the report ends before"* ]]
	same3 sc
	[ "$status" -eq 1 ]
	IN=$D/rules.txt same3 sc -
	[ "$status" -eq 0 ]
	run -2 env FOLDKIT_SAMPLE_THREADS=3 "$BIN/stackcollapse-sample" "$D/rules.txt"
	[ "$output" = "stackcollapse-sample: FOLDKIT_SAMPLE_THREADS: '3' is not 1 or 2" ]
}

@test "usage errors exit 2; --help and --version exit 0" {
	run sc --no-such-option "$D/rules.txt"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: stackcollapse-sample"* ]]
	run sc --all=x
	[ "$status" -eq 2 ]
	run sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-sample "* ]]
	[[ "$output" == *"--no-threads"* ]]
	run sc -h
	[ "$status" -eq 0 ]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-sample (foldkit) "* ]]
}

@test "usage text and man page SYNOPSIS list the same options; man page lints" {
	usage_matches_man stackcollapse-sample
	man_lint stackcollapse-sample.1
}

@test "a full disk is an error; a closed pipe ends quietly" {
	full_disk stackcollapse-sample -q "$D/rules.txt"
	closed_pipe "$MAIN 1" stackcollapse-sample -q "$D/rules.txt"
}

@test "output is valid folded input for the other tools" {
	sc -q --all "$D/rules.txt" > "$T/out"
	"$BIN/foldtop" --strict "$T/out" > /dev/null
	run "$BIN/foldmodules" --by leaf -p '^([^`]*)`' "$T/out"
	[ "$status" -eq 0 ]
	[[ "$output" == *"40   47.06%  libsystem_kernel"* ]]
}
