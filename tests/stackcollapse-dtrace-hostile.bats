#!/usr/bin/env bats
# stackcollapse-dtrace on hostile input: no crash, the documented status, a
# message naming the file and line, and the valid records still collapsed.

load hostile

TOOL=("$BIN/stackcollapse-dtrace")

hdr() { printf 'CPU     ID                    FUNCTION:NAME\n  0  64091                        :tick-60s\n\n'; }
rec() { printf '              libc.so.1`%s+0x10\n              a.out`main+0x8\n                %s\n\n' "$1" "${2:-5}"; }

@test "random bytes" {
	f=$BATS_TEST_TMPDIR/random
	# the noise is one record that a count line closes; the next is clean
	{ hdr; "$TESTBIN/randbytes" 1000000 7; printf '\n 1\n\n'; rec valid_after_noise; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^a.out`main;libc.so.1`valid_after_noise 5$' "$OUT"
}

@test "NUL bytes and invalid UTF-8 in frames pass through" {
	f=$BATS_TEST_TMPDIR/nul
	{ hdr; rec "$(printf 'a\001b\377')"; printf '              x\0y+0x1\n 3\n\n'; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	printf 'a.out`main;libc.so.1`a\001b\377 5\nx\0y 3\n' > "$BATS_TEST_TMPDIR/want"
	cmp "$OUT" "$BATS_TEST_TMPDIR/want"
}

@test "CRLF line ends" {
	f=$BATS_TEST_TMPDIR/crlf
	{ hdr; rec crlf_frame; } | sed 's/$/\r/' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ "$(cat "$OUT")" = 'a.out`main;libc.so.1`crlf_frame 5' ]
}

@test "a 50 MB frame line" {
	f=$BATS_TEST_TMPDIR/long
	{ hdr; printf '  a.out`'; head -c 50000000 /dev/zero | tr '\0' x; printf '+0x1\n  1\n\n'; rec after_long; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^a.out`main;libc.so.1`after_long 5$' "$OUT"
	[ "$(wc -c < "$OUT")" -eq $((6 + 50000000 + 3 + 34)) ]
}

@test "a 100,000-frame stack" {
	f=$BATS_TEST_TMPDIR/deep
	{ hdr; awk 'BEGIN { for (i = 100000; i >= 1; i--) printf "  a.out`fn%d+0x1\n", i; print "  2"; print "" }'; rec after_deep; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^a.out`main;libc.so.1`after_deep 5$' "$OUT"
	[ "$(grep fn100000 "$OUT" | tr ';' '\n' | wc -l)" -eq 100000 ]
}

@test "counts at and past 2^64; sums never wrap" {
	f=$BATS_TEST_TMPDIR/counts
	{ hdr; rec at_max 18446744073709551615; rec past_max 18446744073709551616; rec at_max 1; rec fine 2; } > "$f"
	h_run "$f"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$f:"*"larger than 18446744073709551615"* ]]
	grep -q '^a.out`main;libc.so.1`at_max 18446744073709551615$' "$OUT"
	grep -q '^a.out`main;libc.so.1`fine 2$' "$OUT"
}

@test "a negative count is not a count" {
	f=$BATS_TEST_TMPDIR/neg
	{ hdr; rec neg -5; rec fine 2; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ "$(wc -l < "$OUT")" -eq 1 ]
}

@test "a capture cut mid-record: warned with its line, the rest kept" {
	f=$BATS_TEST_TMPDIR/cut
	{ hdr; rec whole; printf '              libc.so.1`cut_fr'; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"$f:8:"* ]]
	[ "$(cat "$OUT")" = 'a.out`main;libc.so.1`whole 5' ]
}

@test "empty input, only newlines: no output, exit 0" {
	f=$BATS_TEST_TMPDIR/empty
	: > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ ! -s "$OUT" ]
	printf '\n\n\n\n\n' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ ! -s "$OUT" ]
}

@test "a read error names the file"	{ hostile_read_error; }

@test "fuzz regressions: every input libFuzzer found, still valid output" {
	for f in "$BATS_TEST_DIRNAME"/fuzz/regress/dtrace/*; do
		tail -c +2 "$f" > "$BATS_TEST_TMPDIR/in"	# byte 1: the harness's flags
		for opts in "" "--includeoffset --demangle-rust"; do
			run --separate-stderr bash -c '"$1" $2 "$3" > "$4"' _ "$BIN/stackcollapse-dtrace" "$opts" "$BATS_TEST_TMPDIR/in" "$BATS_TEST_TMPDIR/out"
			[ "$status" -lt 128 ] || fail "$f: signal"
			"$BIN/foldtop" --strict "$BATS_TEST_TMPDIR/out" > /dev/null || fail "$f $opts: invalid output"
		done
	done
}

@test "a record of blank frames is '-' (was: an unreadable line)" {
	printf 'CPU ID FUNCTION:NAME\n 1 2 :tick\n\n            L  \n    6\n\n' > "$BATS_TEST_TMPDIR/b"
	run "$BIN/stackcollapse-dtrace" "$BATS_TEST_TMPDIR/b"
	[ "$status" -eq 0 ]
	[ "$output" = "- 6" ]
}
