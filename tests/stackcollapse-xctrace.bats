#!/usr/bin/env bats
# stackcollapse-xctrace: Instruments exports (xctrace export XML) to folded
# stacks.  Conformance: the real exports in ../shared/conformance/macos/
# xctrace/ (read by path), equal to inferno 0.12.8's folded output where
# inferno is right, and per leaf to the counts and weights of the
# xctraceprof CSVs (their authors' oracle).  Each rule: our fixtures in
# tests/data/xctrace/ (see the README there).

load helper

D=$BATS_TEST_DIRNAME/data/xctrace
# the shared corpus beside the checkout (a worktree is one level deeper)
for C in "${CONFORMANCE:+$CONFORMANCE/macos/xctrace}" \
	"$BATS_TEST_DIRNAME/../../shared/conformance/macos/xctrace" \
	"$BATS_TEST_DIRNAME/../../../shared/conformance/macos/xctrace"; do
	[ -n "$C" ] && [ -d "$C" ] && break
done
sc() { "$BIN/stackcollapse-xctrace" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# case_ok GOLD [ARGS...]: the output is $D/GOLD.folded, exit 0, no message.
case_ok() {
	local gold=$1
	shift
	run --separate-stderr sc "$@"
	[ "$status" -eq 0 ] || fail "status $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	golden "$D/$gold.folded"
}

# conf NAME: skip unless the shared corpus is there.
conf() {
	[ -f "$C/$1" ] || skip "no $C/$1"
}

# refused FILE WHY: the message "FILEWHY" (WHY ":LINE: ..." or ": ..."),
# exit 1, no output.
refused() {
	run --separate-stderr sc "$1"
	[ "$status" -eq 1 ] || fail "status $status"
	[ -z "$output" ] || fail "output: $output"
	[ "$stderr" = "stackcollapse-xctrace: $1$2" ] || fail "stderr: $stderr"
}

hint="export the time-profile table: xctrace export --input FILE.trace --xpath '/trace-toc/*/data/table[@schema=\"time-profile\"]'"

# leafsums FILE: "LEAF<TAB>SUM" per leaf of folded stacks, sorted.
leafsums() {
	awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, a, ";")
		c[a[k]] += n } END { for (x in c) print x "\t" c[x] }' "$1" | sort
}

@test "inferno's two Time Profiler exports: inferno's output, but for c++filt's {{closure}} and <impl>" {
	conf inferno-basic.xml
	for f in inferno-basic inferno-simple_frame_without_binary_info; do
		run --separate-stderr sc "$C/$f.xml"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		# the one difference (man page, COMPATIBILITY): inferno keeps the
		# '_' of "_$u7b$" and "_$LT$" inside a Rust path, c++filt does not
		sed 's/::_{{closure}}/::{{closure}}/g; s/::_</::</g' "$C/$f.folded" > "$T/want"
		golden "$T/want"
	done
	[[ "$output" == *"std::rt::lang_start::{{closure}};"* ]]
	[[ "$output" == *";core::cmp::impls::<impl core::cmp::PartialOrd for i32>::lt 55"* ]]
}

@test "inferno's exports on stdin: the same" {
	conf inferno-basic.xml
	sc "$C/inferno-basic.xml" > "$T/file"
	run sc < "$C/inferno-basic.xml"
	golden "$T/file"
	run sc - < "$C/inferno-basic.xml"
	golden "$T/file"
	# from a pipe, in its small reads
	run bash -c 'cat "$1" | "$2"' _ "$C/inferno-basic.xml" "$BIN/stackcollapse-xctrace"
	golden "$T/file"
}

@test "xctraceprof's four exports (time, CPU, counters, counters in time mode): byte for byte inferno's" {
	conf xctraceprof-cpu-profile.xml
	for f in time-profile cpu-profile counters-profile counters-time-profile; do
		run sc -q "$C/xctraceprof-$f.xml"
		[ "$status" -eq 0 ]
		golden "$C/xctraceprof-$f.inferno-0.12.8.folded"
	done
}

@test "xctraceprof's four exports: per leaf, the CSV's row counts, and with --weight its weights" {
	conf xctraceprof-cpu-profile.xml
	for f in time-profile cpu-profile counters-profile counters-time-profile; do
		# the oracle: rows but the sentinels (leaf 0x0, no symbol)
		awk -F';' '!($3 == "0x0" && $4 == "") { c[$4]++; w[$4] += $2 }
			END { for (k in c) print k "\t" c[k] "\t" w[k] }' \
			"$C/xctraceprof-$f.csv" | sort > "$T/oracle"
		sc -q "$C/xctraceprof-$f.xml" > "$T/n"
		sc -q --weight "$C/xctraceprof-$f.xml" > "$T/w"
		leafsums "$T/n" > "$T/nl"
		leafsums "$T/w" > "$T/wl"
		run join -t "$(printf '\t')" "$T/nl" "$T/wl"
		golden "$T/oracle"
	done
	# the CPU Profiler's weights are cycles, 168 distinct: not the rows
	run sc --weight "$C/xctraceprof-cpu-profile.xml"
	[[ "${lines[-1]}" != *" 1" ]]
}

@test "sentinel rows are counted apart and said, once per input; -q silences it" {
	conf xctraceprof-time-profile.xml
	run --separate-stderr sc "$C/xctraceprof-time-profile.xml" "$C/xctraceprof-counters-time-profile.xml"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "stackcollapse-xctrace: $C/xctraceprof-time-profile.xml: 3 rows without a backtrace (<sentinel/> or empty) not counted" ]
	[ "${stderr_lines[1]}" = "stackcollapse-xctrace: $C/xctraceprof-counters-time-profile.xml: 6 rows without a backtrace (<sentinel/> or empty) not counted" ]
	run --separate-stderr sc -q "$C/xctraceprof-time-profile.xml"
	[ -z "$stderr" ]
	run sc -q "$C/xctraceprof-time-profile.xml"
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 102 ]
}

@test "several exports are summed" {
	conf inferno-basic.xml
	run sc "$C/inferno-basic.xml" "$C/inferno-simple_frame_without_binary_info.xml"
	[ "$status" -eq 0 ]
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq $((9581 + 9716)) ]
	[[ "$output" == *";rust_test2::main;rust_test2::bar $((3548 + 3519))"* ]]
}

@test "Xcode 26's <tagged-backtrace> around a <backtrace>, and Xcode 27's with its frames inside" {
	case_ok tagged "$D/tagged26.xml"
	case_ok tagged "$D/tagged27.xml"
}

@test "--weight sums the weight column; --pid and --tid root frames" {
	case_ok tagged.weight --weight "$D/tagged26.xml"
	case_ok tagged.weight --weight "$D/tagged27.xml"
	case_ok tagged.pid --pid "$D/tagged27.xml"
	case_ok tagged.tid-weight --tid --weight "$D/tagged26.xml"
}

@test "ids and refs across rows and nodes; counters-profile's stack before its weight" {
	run --separate-stderr sc "$D/nodes.xml"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-xctrace: $D/nodes.xml: 2 rows without a backtrace (<sentinel/> or empty) not counted" ]
	golden "$D/nodes.folded"
	for o in weight pid tid tid-weight; do
		run sc -q $(sed 's/^/--/; s/-/ --/3' <<< "$o") "$D/nodes.xml"
		golden "$D/nodes.$o.folded"
	done
	# a thread without its process: the row's process cell
	[[ "$output" == *"tool-7/153;main;spin 5000"* ]]
}

@test "--tid wins over --pid, as in stackcollapse-perf.pl" {
	run sc -q --pid --tid "$D/nodes.xml"
	golden "$D/nodes.tid.folded"
}

@test "names: entities and character references decoded, ';' to ':', nameless frames, Rust finished" {
	case_ok names "$D/names.xml"
	[[ "$output" == *"main;core::array::<impl [u8: 2]>::len 1"* ]]
	[[ "$output" == *'main;a&b : : "q" '"'s'"' é 😀 1'* ]]
	[[ "$output" == *"main;[libfoo.dylib] 1"* ]]
	[[ "$output" == *"main;[app] 1"* ]]
	[[ "$output" == *"main;0x3000 1"* ]]
	[[ "$output" == *"main;[unknown] 1"* ]]
	[[ "$output" == *"main;<alloc::vec::Vec<T> as core::clone::Clone>::clone 1"* ]]
	[[ "$output" == *"main;std::rt::lang_start::{{closure}} 1"* ]]
	[[ "$output" == *"main;foo::bar 1"* ]]
	[[ "$output" == *"main;two lines here 1"* ]]
	[[ "$output" == *"main;_ZN4core3ptr13drop_in_place17h0123456789abcdefE 1"* ]]
}

@test "--demangle: C++ (macOS's extra '_' too) and Rust names still mangled" {
	case_ok names.demangle --demangle "$D/names.xml"
	[[ "$output" == *"main;core::ptr::drop_in_place 1"* ]]
	[[ "$output" == *"main;foo::baz 1"* ]]
	[[ "$output" == *"main;mycrate::main 1"* ]]
}

@test "the generated 200-row export: each schema read, weights summed" {
	"$TESTBIN/xctracegen" 200 > "$T/tp.xml"
	run --separate-stderr sc "$T/tp.xml"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/tp.xml: 2 rows without a backtrace (<sentinel/> or empty) not counted" ]
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 198 ]
	run sc -q --weight "$T/tp.xml"
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 198000000 ]
	"$TESTBIN/xctracegen" 200 counters-profile > "$T/cp.xml"
	run sc -q --weight "$T/cp.xml"
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 198000000 ]
	"$TESTBIN/xctracegen" 200 cpu-profile > "$T/cpu.xml"
	run sc -q "$T/cpu.xml"
	[ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 198 ]
}

# both FILE [ARGS...]: one reader and two (FOLDKIT_XCTRACE_THREADS=1, =2)
# give the same output, messages and status.
both() {
	local s1=0 s2=0
	FOLDKIT_XCTRACE_THREADS=1 sc "$@" > "$T/one.out" 2> "$T/one.err" || s1=$?
	FOLDKIT_XCTRACE_THREADS=2 sc "$@" > "$T/two.out" 2> "$T/two.err" || s2=$?
	[ "$s1" -eq "$s2" ] || fail "$*: status $s1, two readers $s2"
	cmp -s "$T/one.out" "$T/two.out" || fail "$*: the output differs"
	cmp -s "$T/one.err" "$T/two.err" ||
		fail "$*: messages: $(cat "$T/one.err") / $(cat "$T/two.err")"
}

# halves FILE: the file is mapped, and each reader reads its part in,
# 4 MB at a time ahead of it (madvise MADV_POPULATE_READ: Linux 5.14):
# with two readers, two threads a part each, the first no more than 3/4 of
# FILE (it stops at the row boundary near the middle and takes the second
# half from the other thread); with one, all of it.
halves() {
	command -v strace > /dev/null || skip "strace is not installed"
	[ -z "${FOLDKIT_SAN:-}" ] || skip "strace and the sanitizers do not mix"
	local n
	n=$(wc -c < "$1")
	# (a file a thread: no call cut in two by another thread's)
	rm -f "$T"/tr*
	FOLDKIT_XCTRACE_THREADS=2 strace -ff -e trace=madvise -o "$T/tr" \
	    "$BIN/stackcollapse-xctrace" -q "$1" > /dev/null
	! cat "$T"/tr.* | grep -q 'MADV_POPULATE_READ) = -1' ||
		skip "no MADV_POPULATE_READ here: $(cat "$T"/tr.* | grep POPULATE)"
	# bytes read in by each thread, in the order they began
	for f in "$T"/tr.*; do echo "${f##*.}"; done | sort -n | while read -r p; do
		awk '/MADV_POPULATE_READ\) = 0/ { sub(",", "", $2); s += $2 }
		END { if (s > 0) print s }' "$T/tr.$p"
	done > "$T/parts"
	[ "$(wc -l < "$T/parts")" -eq 2 ] && [ "$(sed -n 1p "$T/parts")" -le $((n * 3 / 4)) ] &&
	    [ "$(awk '{ s += $1 } END { print s }' "$T/parts")" -ge "$n" ] ||
		fail "two readers, bytes read in by each: $(cat "$T/parts") of $n"
	FOLDKIT_XCTRACE_THREADS=1 strace -f -e trace=madvise -o "$T/tr" \
	    "$BIN/stackcollapse-xctrace" -q "$1" > /dev/null
	awk '/MADV_POPULATE_READ\) = 0/ { sub(",", "", $3); s[$1] += $3 }
	END { for (t in s) print s[t] }' "$T/tr" > "$T/parts"
	[ "$(cat "$T/parts")" = "$n" ] || fail "one reader: $(cat "$T/parts") of $n"
	# and what it read given back behind it, 4 MB at a time (so memory
	# does not grow with the file)
	awk '/MADV_DONTNEED\) = 0/ { sub(",", "", $3); s += $3 } END { print s + 0 }' \
	    "$T/tr" > "$T/back"
	[ "$n" -lt $((5 << 20)) ] || [ "$(cat "$T/back")" -ge $((4 << 20)) ] &&
	    [ "$(cat "$T/back")" -le "$n" ] ||
		fail "one reader gave back $(cat "$T/back") of $n bytes"
}

@test "two readers: an export of 4 MB or more is read by two threads, to the bytes and messages of one" {
	local s
	for s in time-profile cpu-profile counters-profile; do
		"$TESTBIN/xctracegen" 15000 $s > "$T/g.xml"
		[ "$(wc -c < "$T/g.xml")" -gt 4194304 ]
		both "$T/g.xml"
		both -q --demangle "$T/g.xml"
		both --weight "$T/g.xml"
		both --tid "$T/g.xml"
		# unset: two readers at this size, the same
		sc "$T/g.xml" > "$T/dflt.out" 2> "$T/dflt.err"
		FOLDKIT_XCTRACE_THREADS=1 sc "$T/g.xml" > "$T/one.out" 2> "$T/one.err"
		cmp "$T/one.out" "$T/dflt.out"
		cmp "$T/one.err" "$T/dflt.err"
		# two files, and the same file twice: summed
		both "$T/g.xml" "$D/nodes.xml" "$T/g.xml"
	done
	# four times: the stacks the second readers counted (the same ones
	# four times over, summed at the output) sorted by a thread of their
	# own (4096 or more of them), and the second half of the lines
	# written by another: all of it, and the four second readers, by the
	# one thread made
	both "$T/g.xml" "$T/g.xml" "$T/g.xml" "$T/g.xml"
	if command -v strace > /dev/null && [ -z "${FOLDKIT_SAN:-}" ]; then
		FOLDKIT_XCTRACE_THREADS=2 strace -f -e trace=clone,clone3 -o "$T/tr" \
		    "$BIN/stackcollapse-xctrace" -q "$T/g.xml" "$T/g.xml" "$T/g.xml" "$T/g.xml" > /dev/null
		[ "$(grep -c 'clone3\{0,1\}(' "$T/tr")" -eq 1 ] || fail "threads: $(cat "$T/tr")"
	fi
	halves "$T/g.xml"
	# standard input redirected from the file, and through a pipe (one
	# reader)
	FOLDKIT_XCTRACE_THREADS=1 sc -q "$T/g.xml" > "$T/one.out"
	FOLDKIT_XCTRACE_THREADS=2 sc -q < "$T/g.xml" > "$T/in.out"
	cmp "$T/in.out" "$T/one.out"
	cat "$T/g.xml" | FOLDKIT_XCTRACE_THREADS=2 sc -q > "$T/in.out"
	cmp "$T/in.out" "$T/one.out"
}

@test "two writers: the lines in two halves at once at their places, to a file after other output, appended, to a pipe; a file that cannot grow" {
	local f
	"$TESTBIN/xctracegen" 2000 > "$T/g.xml"
	FOLDKIT_XCTRACE_THREADS=1 sc -q "$T/g.xml" > "$T/g.out"
	[ "$(wc -l < "$T/g.out")" -gt 100 ]
	for f in "$T/g.xml" "$D/nodes.xml" "$D/names.xml"; do
		FOLDKIT_XCTRACE_THREADS=1 sc -q "$f" > "$T/one.out"
		FOLDKIT_XCTRACE_THREADS=2 sc -q "$f" > "$T/file.out"
		cmp "$T/one.out" "$T/file.out"
		{ echo before; FOLDKIT_XCTRACE_THREADS=2 sc -q "$f"; echo after; } > "$T/mid.out"
		{ echo before; cat "$T/one.out"; echo after; } | cmp - "$T/mid.out"
		echo old > "$T/app.out"
		FOLDKIT_XCTRACE_THREADS=2 sc -q "$f" >> "$T/app.out"
		{ echo old; cat "$T/one.out"; } | cmp - "$T/app.out"
		FOLDKIT_XCTRACE_THREADS=2 sc -q "$f" | cat > "$T/pipe.out"
		cmp "$T/one.out" "$T/pipe.out"
	done
	# two threads write, each its half at its offset (strace -f)
	if command -v strace > /dev/null && [ -z "${FOLDKIT_SAN:-}" ]; then
		FOLDKIT_XCTRACE_THREADS=2 strace -f -e trace=pwrite64 -o "$T/tr" \
		    "$BIN/stackcollapse-xctrace" -q "$T/g.xml" > "$T/file.out"
		cmp "$T/g.out" "$T/file.out"
		[ "$(grep 'pwrite64(1,' "$T/tr" | awk '{ print $1 }' | sort -u | wc -l)" -eq 2 ] ||
			fail "writes: $(cat "$T/tr")"
	fi
	# a file that cannot grow: a write error, exit 1
	[ -z "${FOLDKIT_SAN:-}" ] || return 0
	"$TESTBIN/xctracegen" 20000 > "$T/g.xml"
	run bash -c 'trap "" XFSZ; ulimit -f 1024; FOLDKIT_XCTRACE_THREADS=2 "$1" -q "$2" > "$3"' _ \
	    "$BIN/stackcollapse-xctrace" "$T/g.xml" "$T/small.out"
	[ "$status" -eq 1 ]
	[[ "$output" == "stackcollapse-xctrace: write error: "* ]]
}

@test "two readers: every fixture and shared export, forced, gives what one reader gives" {
	local f
	for f in "$D"/*.xml "$C"/*.xml; do
		[ -f "$f" ] || continue
		both "$f"
		both --weight --tid "$f"
	done
}

@test "two readers: where the halves do not fit together, the first reads on alone, to the same output and messages" {
	local n h q fid
	"$TESTBIN/xctracegen" 3000 > "$T/g.xml"
	n=$(wc -l < "$T/g.xml")
	h=$((n / 2))
	q=$((n * 3 / 4))
	fid=$(grep -o '<frame id="[0-9]*"' "$T/g.xml" | head -1 | tr -dc 0-9)
	both "$T/g.xml"
	halves "$T/g.xml"
	local base=$(sed -n 's/.*: \([0-9]*\) rows* without a backtrace.*/\1/p' "$T/two.err")
	# e: awk program on the line at or after L (the first it changes)
	mut() {
		awk -v L="$1" "$2" "$T/g.xml" > "$T/m.xml"
		both "$T/m.xml"
	}
	# a ref to nothing, in the second half, then in the first
	mut $q 'NR >= L && !d && sub(/<frame ref="[0-9]+"/, "<frame ref=\"99999999\"") { d = 1 } 1'
	grep -q 'no element with that id before it' "$T/two.err"
	mut $((n / 4)) 'NR >= L && !d && sub(/<frame ref="[0-9]+"/, "<frame ref=\"99999999\"") { d = 1 } 1'
	# an id of the first half given again in the second
	mut $q 'NR >= L && !d && sub(/<frame id="[0-9]+"/, "<frame id=\"'"$fid"'\"") { d = 1 } 1'
	grep -q 'given twice' "$T/two.err"
	# a backtrace ref to a frame of the first half
	mut $q 'NR >= L && !d && sub(/<backtrace ref="[0-9]+"/, "<backtrace ref=\"'"$fid"'\"") { d = 1 } 1'
	grep -q 'that id is a <frame>' "$T/two.err"
	# a frame of the second half named by a binary of the first
	mut $q 'NR >= L && !d && /<frame id="[0-9]+" name="[^"]*" addr="[^"]*"><binary ref=/ {
		sub(/<frame id="[0-9]+" name="[^"]*"/, "&X"); sub(/ name="[^"]*"X/, ""); d = 1 } 1'
	grep -q '\[lib[0-9]*\.dylib\]' "$T/two.out"
	# an empty backtrace in the first half, counted by rows of the second
	mut $((n / 4)) '!d && NR >= L && /<backtrace/ { r = $0; d = 1
		sub(/<backtrace (ref|id)=.*<\/row>/, "<backtrace id=\"4000000000\"></backtrace></row>", r); print r }
		d && NR % 7 == 0 { sub(/<backtrace ref="[0-9]+"\/>/, "<backtrace ref=\"4000000000\"/>") } 1'
	local more=$(sed -n 's/.*: \([0-9]*\) rows* without a backtrace.*/\1/p' "$T/two.err")
	[ "$more" -gt "$base" ] || fail "rows without a backtrace: $base, then $more"
	halves "$T/m.xml"
	# tagged backtraces of the second half around backtraces of the first
	mut $q 'd && NR % 5 == 0 { sub(/<backtrace ref="[0-9]+"\/>/, "<tagged-backtrace ref=\"4000000002\"/>") }
		!d && NR >= L && sub(/<backtrace ref="[0-9]+"\/>/, "<tagged-backtrace id=\"4000000002\">&</tagged-backtrace>") { d = 1 } 1'
	halves "$T/m.xml"
	# a second schema in the table, in the second half
	mut $q 'NR == 3 { s = $0; sub(/<\/schema>.*/, "</schema>", s); sub(/^<node[^>]*>/, "", s) }
		NR == L { print s } 1'
	grep -q 'a second <schema> in a table' "$T/two.err"
	# the row boundary near the middle inside a comment
	{ head -n $h "$T/g.xml"; printf '<!-- '; yes '</row> <row>' | head -c 3000000; printf ' -->\n'
	  tail -n +$((h + 1)) "$T/g.xml"; } > "$T/m.xml"
	both "$T/m.xml"
	# the middle in a second table, after a small first one
	awk 'NR == 3 { s = $0; sub(/<\/schema>.*/, "</schema>", s)
		print s "<row><sample-time>1</sample-time><thread/><process/><core/><thread-state/><weight>1</weight>" \
		    "<backtrace id=\"4000000003\"><frame id=\"4000000004\" name=\"first table\"/></backtrace></row></node>" } 1' \
	    "$T/g.xml" > "$T/m.xml"
	both "$T/m.xml"
	grep -q '^first table 1$' "$T/two.out"
	# cut in the second half, and just past the middle
	for n in 51 60 75 99; do
		head -c $(($(wc -c < "$T/g.xml") * n / 100)) "$T/g.xml" > "$T/m.xml"
		both "$T/m.xml"
	done
}

@test "a regular file is read in place (mapped): what a pipe gives, from where standard input stands, to the last page" {
	local f n
	"$TESTBIN/xctracegen" 3000 time-profile > "$T/g.xml"
	for f in "$D"/*.xml "$T/g.xml"; do
		sc --tid "$f" > "$T/map.out" 2> "$T/map.err" || :
		cat "$f" | sc --tid > "$T/pipe.out" 2> "$T/pipe.err" || :
		cmp "$T/map.out" "$T/pipe.out"
		# the messages too, but for the name
		sed "s|<stdin>|$f|" "$T/pipe.err" | cmp - "$T/map.err"
	done
	# standard input read from before: the map starts where it stands
	# (a line, so not at a page), line numbers count from there
	{ echo '<!-- a line read by the shell -->'; cat "$D/nodes.xml"; } > "$T/shifted.xml"
	sc < "$D/nodes.xml" > "$T/want.out"
	{ IFS= read -r line; sc > "$T/got.out"; } < "$T/shifted.xml"
	cmp "$T/want.out" "$T/got.out"
	{ echo '<!-- a line -->'; head -c 3000 "$D/nodes.xml"; } > "$T/cut.xml"
	run sc -q < <(head -c 3000 "$D/nodes.xml")
	want=$output
	run bash -c '{ IFS= read -r line; "$0" -q; } < "$1"' "$BIN/stackcollapse-xctrace" "$T/cut.xml"
	[ "$status" -eq 1 ]
	[ "$output" = "$want" ]
	# a file that ends at a page's end: what follows it reads as the end
	for n in 4096 8192 65536; do
		{ cat "$D/nodes.xml"; head -c $((n - $(wc -c < "$D/nodes.xml"))) /dev/zero | tr '\0' ' '; } > "$T/page.xml"
		[ "$(wc -c < "$T/page.xml")" -eq $n ]
		sc "$T/page.xml" > "$T/got.out"
		cmp "$T/want.out" "$T/got.out"
		# and cut there, inside a tag: said, as from a pipe
		head -c $((n - 1)) "$T/g.xml" | sed '$ s/$/ /' | head -c $n > "$T/page.xml"
		run sc "$T/page.xml"
		[ "$status" -eq 1 ]
		[[ "$output" == *"page.xml:"*"input ends"* ]] || fail "$output"
	done
}

@test "FOLDKIT_XCTRACE_THREADS: 1 or 2, anything else is a usage error" {
	run --separate-stderr env FOLDKIT_XCTRACE_THREADS=3 "$BIN/stackcollapse-xctrace" "$D/nodes.xml"
	[ "$status" -eq 2 ]
	[ "$stderr" = "stackcollapse-xctrace: FOLDKIT_XCTRACE_THREADS: '3' is not 1 or 2" ]
	[ -z "$output" ]
	FOLDKIT_XCTRACE_THREADS= sc -q "$D/nodes.xml" > /dev/null
}

@test "refused, with the export to run: a table of contents, a time-sample table, a table without backtraces" {
	refused "$D/toc.xml" ":2: a table of contents (xctrace export --toc), not a table: $hint"
	refused "$D/time-sample.xml" ":3: a time-sample table holds addresses only, no frame names: $hint"
	refused "$D/nostack.xml" ":3: the table thread-state has no backtrace column: $hint"
	refused "$D/nomatch.xml" ": no table in this export (did the xpath match nothing?): $hint"
}

@test "refused: an export whose frames are all addresses (not symbolicated)" {
	refused "$D/addresses.xml" ": no frame has a symbol name, only addresses: symbolicate the trace (xctrace symbolicate --input FILE.trace), then export it again"
}

@test "a refused input counts for nothing; the others are still read" {
	run --separate-stderr sc "$D/addresses.xml" "$D/tagged26.xml"
	[ "$status" -eq 1 ]
	golden "$D/tagged.folded"
}

@test "a .trace bundle is exported with xctrace export (a stand-in on PATH)" {
	mkdir -p "$T/bin" "$T/run 1.trace"
	cat > "$T/bin/xctrace" <<-EOF
	#!/bin/sh
	printf '%s\n' "\$@" > "$T/args"
	cat "$D/tagged27.xml"
	EOF
	chmod +x "$T/bin/xctrace"
	PATH="$T/bin:$PATH" run --separate-stderr sc "$T/run 1.trace"
	[ "$status" -eq 0 ] || fail "$stderr"
	golden "$D/tagged.folded"
	run cat "$T/args"
	printf '%s\n' export --input "$T/run 1.trace" --xpath \
		'/trace-toc/*/data/table[@schema="time-profile"]' > "$T/want"
	golden "$T/want"
	# a directory not named .trace is a bundle too
	mkdir "$T/bundle"
	PATH="$T/bin:$PATH" run sc --weight "$T/bundle"
	golden "$D/tagged.weight.folded"
}

@test "a .trace bundle: xctrace failing, or not there, is said; exit 1" {
	mkdir -p "$T/bin" "$T/r.trace"
	printf '#!/bin/sh\necho "xctrace: Document Missing Template Error" >&2\nexit 3\n' > "$T/bin/xctrace"
	chmod +x "$T/bin/xctrace"
	PATH="$T/bin:$PATH" run --separate-stderr sc "$T/r.trace"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "xctrace: Document Missing Template Error" ]
	[[ "$stderr" == *"stackcollapse-xctrace: $T/r.trace: xctrace export failed (exit status 3)"* ]]
	run --separate-stderr env PATH="$T/nowhere" "$BIN/stackcollapse-xctrace" "$T/r.trace"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "stackcollapse-xctrace: $T/r.trace: a .trace bundle, and xctrace (Xcode's command line tools) cannot be run to export it: "* ]]
}

@test "a missing file: its message, exit 1; the other files are read" {
	run --separate-stderr sc "$T/none.xml" "$D/tagged26.xml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-xctrace: $T/none.xml: No such file or directory" ]
	golden "$D/tagged.folded"
}

@test "--help, --version, a bad option" {
	run sc --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: stackcollapse-xctrace [-q] [--demangle] [--pid] [--tid] [--weight]" ]]
	[[ "$output" == *"--weight"* ]]
	run sc --version
	[ "$status" -eq 0 ]
	[[ "$output" == "stackcollapse-xctrace (foldkit) "* ]]
	run sc --bogus
	[ "$status" -eq 2 ]
}

@test "the usage text is the man page's synopsis" {
	run sc --help
	man=$BATS_TEST_DIRNAME/../man/stackcollapse-xctrace.1
	for o in demangle pid tid weight; do
		grep -q "^\.Op Fl \\\\-$o\$" "$man" || fail "man: no --$o"
		[[ "${lines[0]}" == *"[--$o]"* ]] || fail "usage: no --$o"
	done
}

@test "a full disk is exit 1; a closed pipe ends quietly" {
	full_disk stackcollapse-xctrace "$D/tagged26.xml"
	closed_pipe "main;middle 1" stackcollapse-xctrace "$D/tagged26.xml"
}
