#!/usr/bin/env bats
# folddiff: two folded profiles as one differential profile, checked against
# FlameGraph's difffolded.pl where Perl and the script are found.

load helper

fd() { "$BIN/folddiff" "$@"; }

EX=$BATS_TEST_DIRNAME/../examples
BEFORE=$EX/wordfreq-before.folded
AFTER=$EX/wordfreq-after.folded

# difffolded.pl and FlameGraph's collapsed test inputs, used where present
# (never copied into the project): $DIFFFOLDED, $CONFORMANCE, or the shared
# folder next to the checkout.
peer() {
	local c
	for c in "$@"; do
		[ -n "$c" ] && [ -e "$c" ] && { echo "$c"; return 0; }
	done
	return 0	# none: the tests that need it skip
}
DIFFPL=$(peer "${DIFFFOLDED:-}" \
	"$BATS_TEST_DIRNAME/../../shared/peers/flamegraph-pl/difffolded.pl" \
	"$BATS_TEST_DIRNAME/../../../shared/peers/flamegraph-pl/difffolded.pl")
CONF=$(peer "${CONFORMANCE:-}" \
	"$BATS_TEST_DIRNAME/../../shared/conformance/flamegraph-pl" \
	"$BATS_TEST_DIRNAME/../../../shared/conformance/flamegraph-pl")

need_pl() {
	command -v perl >/dev/null 2>&1 || skip "perl not installed"
	[ -n "$DIFFPL" ] || skip "difffolded.pl not found (set DIFFFOLDED)"
}

# same_as_pl [OPTS] A B: folddiff writes the lines difffolded.pl writes
# (whose order is a hash's: both sorted to compare), and its own are sorted
# by stack.
same_as_pl() {
	local t=$BATS_TEST_TMPDIR
	perl "$DIFFPL" "$@" 2>/dev/null | sort > "$t/pl.out"
	"$BIN/folddiff" "$@" > "$t/fk.out" || { fail "folddiff $* failed"; return 1; }
	sort "$t/fk.out" | cmp -s - "$t/pl.out" ||
		{ diff "$t/pl.out" <(sort "$t/fk.out") | head -5 >&2; fail "differs from difffolded.pl: $*"; return 1; }
	is_sorted "$t/fk.out"
}

# Lines sorted by stack (the text before the last two fields), byte order.
is_sorted() {
	awk '{ s = $0; sub(/ [^ ]* [^ ]*$/, "", s); print s }' "$1" | sort -c 2>/dev/null ||
		{ fail "$1 is not sorted by stack"; return 1; }
}

@test "the union of the stacks, 0 where a profile lacks one, sorted" {
	run fd <(printf 'm;b 3\nm;a 1\nm;b 2\n') <(printf 'm;c 7\nm;a 4\n')
	[ "$status" -eq 0 ]
	[ "$output" = $'m;a 1 4\nm;b 5 0\nm;c 0 7' ]
}

@test "sorted regular files, unsorted ones, a pipe: the same output" {
	t=$BATS_TEST_TMPDIR
	printf 'x;z 1\nm;b 3\nm;a 1\nm;b 2\n' > "$t/u1"
	printf 'm;c 7\nm;a 4\nm;a;a 1\n' > "$t/u2"
	sort "$t/u1" > "$t/s1"
	sort "$t/u2" > "$t/s2"
	want=$'m;a 1 4\nm;a;a 0 1\nm;b 5 0\nm;c 0 7\nx;z 1 0'
	for a in s1 u1; do for b in s2 u2; do
		run fd "$t/$a" "$t/$b"
		[ "$output" = "$want" ] || fail "$a $b: $output"
		run fd - "$t/$b" < "$t/$a"
		[ "$output" = "$want" ] || fail "- $b: $output"
		run fd "$t/$a" - < "$t/$b"
		[ "$output" = "$want" ] || fail "$a -: $output"
	done; done
	run fd <(cat "$t/u1") <(cat "$t/s2")
	[ "$output" = "$want" ]
}

@test "stdin that was read from already is read from where it stands" {
	printf 'x 1\ny 2\n' > "$BATS_TEST_TMPDIR/in"
	run bash -c '{ head -n 1 > /dev/null; "$0" - <(printf "y 5\n"); } < "$1"' "$BIN/folddiff" "$BATS_TEST_TMPDIR/in"
	[ "$output" = 'y 2 5' ]
}

@test "output to a file: an input found unsorted late is merged again, the file rewritten" {
	t=$BATS_TEST_TMPDIR
	# 30000 sorted lines (more output than one buffer), then one out of order
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "m;f%06d %d\n", i, i % 7 + 1; print "a;late 5" }' > "$t/a"
	awk 'BEGIN { for (i = 0; i < 30000; i += 2) printf "m;f%06d 3\n", i }' > "$t/b"
	fd "$t/a" "$t/b" | cat > "$t/want"	# through a pipe: checked first
	[ "$(head -1 "$t/want")" = "a;late 5 0" ]
	[ "$(wc -l < "$t/want")" -eq 30001 ]
	fd "$t/a" "$t/b" > "$t/out"
	cmp "$t/want" "$t/out"
	printf 'kept\n' > "$t/app"
	fd "$t/a" "$t/b" >> "$t/app"
	cmp <(printf 'kept\n'; cat "$t/want") "$t/app"
	fd "$t/b" "$t/a" > "$t/out2"
	[ "$(sed -n 1p "$t/out2")" = "a;late 0 5" ]
	# a bad line in the first, taken-back pass is reported once
	printf 'x 1\nbad\nw 2\n' > "$t/c"
	run --separate-stderr bash -c '"$0" "$1" "$2" > "$3"' "$BIN/folddiff" "$t/c" "$t/b" "$t/out3"
	[ "$stderr" = "folddiff: $t/c:2: no count at the end of the line (1 invalid line skipped)" ]
	[ "$(head -1 "$t/out3")" = "m;f000000 0 3" ]
	[ "$(tail -1 "$t/out3")" = "x 1 0" ]
}

@test "folddiff A A: every stack once, no change" {
	run fd "$BEFORE" "$BEFORE"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq "$(cut -d' ' -f1 "$BEFORE" | sort -u | wc -l)" ]
	[ -z "$(printf '%s\n' "${lines[@]}" | awk '$(NF-1) != $NF')" ]
	run fd -n "$AFTER" - < "$AFTER"
	[ -z "$(printf '%s\n' "${lines[@]}" | awk '$(NF-1) != $NF')" ]
	[ "${#lines[@]}" -eq "$(wc -l < "$AFTER")" ]
}

@test "the recorded pair: sums per column are the profiles' totals" {
	run fd "$BEFORE" "$AFTER"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | awk '{ b += $(NF-1); a += $NF } END { print b, a }')" = \
	  "$(awk '{ s += $NF } END { printf "%d ", s }' "$BEFORE")$(awk '{ s += $NF } END { print s }' "$AFTER")" ]
	is_sorted <(printf '%s\n' "${lines[@]}")
}

@test "difffolded.pl: the recorded pair, every option, both orders" {
	need_pl
	for o in "" -n -s -ns; do
		same_as_pl $o "$BEFORE" "$AFTER"
		same_as_pl $o "$AFTER" "$BEFORE"
	done
}

@test "difffolded.pl: FlameGraph's collapsed test inputs, pairs of options, every option" {
	need_pl
	[ -n "$CONF" ] || skip "FlameGraph's test inputs not found (set CONFORMANCE)"
	n=0
	for f in "$CONF"/test/results/*-collapsed-pid.txt; do
		b=${f%-pid.txt}
		for o in "" -n -s -ns; do
			same_as_pl $o "$b-pid.txt" "$b-tid.txt"
			same_as_pl $o "$b-addrs.txt" "$b-all.txt"
			same_as_pl $o "$b-kernel.txt" "$b-jit.txt"
		done
		n=$((n + 1))
	done
	[ "$n" -gt 5 ]
	# the large example against each of them, unsorted (held in memory)
	gzip -dc "$CONF/example-perf-stacks-collapsed.txt.gz" | awk 'NR % 2' > "$BATS_TEST_TMPDIR/ex1"
	gzip -dc "$CONF/example-perf-stacks-collapsed.txt.gz" | sort -r > "$BATS_TEST_TMPDIR/ex2"
	for o in "" -n -s; do
		same_as_pl $o "$BATS_TEST_TMPDIR/ex1" "$BATS_TEST_TMPDIR/ex2"
	done
}

@test "difffolded.pl: how it reads a line (spaces in stacks, tabs, decimals, leading zeros)" {
	need_pl
	t=$BATS_TEST_TMPDIR
	printf 'a;b  5\na;b 1\nsp ace;x 2\ntab\t3\nz 007\nd 1.5\nd 2.25\ne 0.1\ne 0.2\nf 3.\nm;0xdeadbeef;0X12;0xg 4\n' > "$t/a"
	printf 'a;b 2\nsp ace;x 1\nd 1\ne 0.3\ng 10\nm;0x1;0X12;0xg 6\nm;0xab 1\n' > "$t/b"
	for o in "" -n -s -ns; do
		same_as_pl $o "$t/a" "$t/b"
		same_as_pl $o "$t/b" "$t/a"
	done
	run fd "$t/a" "$t/b"
	[[ "$output" == *$'\na;b  5 0\n'* ]]	# the stack keeps one of two spaces
	[[ "$output" == *$'\nd 3.75 1\n'* ]]
	[[ "$output" == *$'\ne 0.3 0.3\n'* ]]
	[[ "$output" == *$'\nz 7 0'* ]]
}

@test "difffolded.pl: random sorted pairs of stacks that are prefixes of each other" {
	need_pl
	t=$BATS_TEST_TMPDIR
	for seed in 1 2 3 4 5 6; do
		for f in a b; do
			awk -v seed="$seed$f" 'BEGIN { srand(seed); split("a b ab a;b ; 0x1f 0x2 x", w, " ")
				for (i = 0; i < 300; i++) { s = ""; n = 1 + int(rand() * 5)
					for (j = 0; j < n; j++) s = s (j ? ";" : "") w[1 + int(rand() * 8)]
					print s, 1 + int(rand() * 9) } }' | sort > "$t/$f"
		done
		same_as_pl "$t/a" "$t/b"
		same_as_pl -s "$t/a" "$t/b"
		same_as_pl -n "$t/b" "$t/a"
	done
}

@test "-n: BEFORE scaled to AFTER's total with difffolded.pl's truncation" {
	run fd -n <(printf 'a 1\nb 2\n') <(printf 'a 5\nb 5\n')
	[ "$output" = $'a 3 5\nb 6 5' ]	# 1*10/3 = 3.33, 2*10/3 = 6.67: truncated
	run fd --normalize <(printf 'a 7\n') <(printf 'a 7\nb 1\n')
	[ "$output" = $'a 8 7\nb 0 1' ]
	# equal totals: unchanged
	run fd -n <(printf 'a 1\nb 3\n') <(printf 'a 2\nb 2\n')
	[ "$output" = $'a 1 2\nb 3 2' ]
	# exact past 2^53: 2^63 * 3 / (2^63 + 1) is 2 (not 3 as in doubles)
	run fd -n <(printf 'a 9223372036854775808\nb 1\n') <(printf 'a 3\n')
	[ "$output" = $'a 2 3\nb 0 0' ]
}

@test "-n with no BEFORE samples: its zeros stay, with a warning (difffolded.pl dies)" {
	run --separate-stderr fd -n <(printf 'a 0\n') <(printf 'a 5\n')
	[ "$status" -eq 0 ]
	[ "$output" = 'a 0 5' ]
	[[ "$stderr" == *"no samples"* ]]
}

@test "-s: hex numbers become 0x... before merging" {
	run fd -s <(printf 'f;0x7f00ab 1\nf;0x12 2\n') <(printf 'f;0xffff 4\ng;0x;0Xa1;x0x1f 1\n')
	[ "$output" = $'f;0x... 3 4\ng;0x;0Xa1;x0x... 0 1' ]
	run fd --strip-hex <(printf 'a;0x1 1\n') <(printf 'a;0x2 2\n')
	[ "$output" = 'a;0x... 1 2' ]
	run fd <(printf 'a;0x1 1\n') <(printf 'a;0x2 2\n')
	[ "$output" = $'a;0x1 1 0\na;0x2 0 2' ]
}

@test "names with any bytes: NUL, invalid UTF-8, control bytes" {
	printf 'a\0b;\xff\xfe;\x01 2\n' > "$BATS_TEST_TMPDIR/a"
	printf 'a\0b;\xff\xfe;\x01 3\n' > "$BATS_TEST_TMPDIR/b"
	fd "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b" > "$BATS_TEST_TMPDIR/out"
	printf 'a\0b;\xff\xfe;\x01 2 3\n' | cmp - "$BATS_TEST_TMPDIR/out"
}

@test "sums are exact to 2^64 - 1; past it is an error naming the line" {
	run fd <(printf 'a 18446744073709551614\na 1\n') <(printf 'a 9007199254740993\n')
	[ "$status" -eq 0 ]
	[ "$output" = 'a 18446744073709551615 9007199254740993' ]
	printf 'a 18446744073709551615\nb 1\n' > "$BATS_TEST_TMPDIR/big"
	run --separate-stderr fd /dev/null "$BATS_TEST_TMPDIR/big"
	[ "$status" -eq 1 ]
	[ "$output" = 'a 0 18446744073709551615' ]
	[[ "$stderr" == "folddiff: $BATS_TEST_TMPDIR/big:2: sum of counts larger than 18446744073709551615"* ]]
}

@test "bad lines are reported with file and line, the rest kept; --strict" {
	printf 'a 1\nno count here\n\nb -3\nc 2\n' > "$BATS_TEST_TMPDIR/bad"
	run --separate-stderr fd "$BATS_TEST_TMPDIR/bad" <(printf 'a 1\n')
	[ "$status" -eq 0 ]
	[ "$output" = $'a 1 1\nc 2 0' ]
	[ "$stderr" = "folddiff: $BATS_TEST_TMPDIR/bad:2: no count at the end of the line (2 invalid lines skipped)" ]
	run --separate-stderr fd --strict <(printf 'a 1\n') "$BATS_TEST_TMPDIR/bad"
	[ "$status" -eq 1 ]
	[ "$stderr" = "folddiff: $BATS_TEST_TMPDIR/bad:2: invalid line: no count at the end of the line" ]
	run --separate-stderr fd - <(printf 'a 1\n') < "$BATS_TEST_TMPDIR/bad"
	[[ "$stderr" == "folddiff: <stdin>:2: "* ]]
}

@test "CRLF line ends and trailing blanks are accepted (difffolded.pl drops such lines)" {
	run --separate-stderr fd <(printf 'a 1\r\nb 2 \r\n') <(printf 'a 3\t\n')
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = $'a 1 3\nb 2 0' ]
}

@test "a file that cannot be read: exit 1, nothing written" {
	run --separate-stderr fd "$BATS_TEST_TMPDIR/nonesuch" "$BEFORE"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == "folddiff: $BATS_TEST_TMPDIR/nonesuch: No such file or directory" ]]
}

@test "usage errors: not two files, both stdin, an unknown option (exit 2)" {
	run --separate-stderr fd "$BEFORE"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"usage: folddiff"* ]]
	run --separate-stderr fd "$BEFORE" "$AFTER" "$AFTER"
	[ "$status" -eq 2 ]
	run --separate-stderr fd - -
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"standard input"* ]]
	run --separate-stderr fd --bogus "$BEFORE" "$AFTER"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}

@test "--help, --version, usage matches the man page" {
	run fd --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "usage: folddiff [-ns] [--strict] BEFORE AFTER" ]]
	run fd --version
	[[ "$output" =~ ^folddiff\ \(foldkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	usage_matches_man folddiff
	man_lint folddiff.1
}

@test "a full disk is a write error, exit 1; a closed pipe ends quietly" {
	full_disk folddiff "$BEFORE" "$AFTER"
	for i in $(seq 1 20000); do echo "main;f$i $i"; done > "$BATS_TEST_TMPDIR/many"
	closed_pipe "main;f1 1 1" folddiff "$BATS_TEST_TMPDIR/many" "$BATS_TEST_TMPDIR/many"
}

@test "the output is differential input for foldtop and flamegraph-svg" {
	fd "$BEFORE" "$AFTER" > "$BATS_TEST_TMPDIR/d"
	run "$BIN/foldtop" -n 1 -r --format tsv --no-header "$BATS_TEST_TMPDIR/d"
	[[ "$output" == *$'\t__memcmp_evex_movbe' ]]
	[ -x "$BIN/flamegraph-svg" ] || skip "flamegraph-svg not built"
	"$BIN/flamegraph-svg" "$BATS_TEST_TMPDIR/d" > "$BATS_TEST_TMPDIR/d.svg"
	"$TESTBIN/xmlcheck" < "$BATS_TEST_TMPDIR/d.svg"
}

@test "examples/wordfreq-diff.svg is the recorded pair's differential flame graph, current" {
	[ -x "$BIN/flamegraph-svg" ] || skip "flamegraph-svg not built"
	"$TESTBIN/xmlcheck" < "$EX/wordfreq-diff.svg"
	diff <(fd "$BEFORE" "$AFTER" | "$BIN/flamegraph-svg" --title "wordfreq: before vs after the hash index") \
		"$EX/wordfreq-diff.svg" > /dev/null
	# it is differential: boxes that shrank are blue, a title has the change
	grep -q 'find_word (99 samples, 39.44%; -[0-9.]*%)' "$EX/wordfreq-diff.svg"
}

@test "examples/did-it-help.sh runs the workflow on the recorded pair" {
	run env FOLDKIT_BIN="$BIN" DEMO_OUT="$BATS_TEST_TMPDIR" sh "$EX/did-it-help.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"diff.delta               -3519"* ]]
	[[ "$output" == *"-1855  -49.20%"*"__memcmp_evex_movbe"* ]]
	[ -s "$BATS_TEST_TMPDIR/diff.folded" ]
}
