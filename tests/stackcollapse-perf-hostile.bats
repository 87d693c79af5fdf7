#!/usr/bin/env bats
# stackcollapse-perf on hostile input: no crash, the documented status, a
# message naming the file and line, and the valid samples still collapsed.

load hostile

TOOL=("$BIN/stackcollapse-perf")
SEES=sees_in_out

valid() { printf '\nprog 1 1.0: 5 cycles:\n\t1 %s (/bin/x)\n\n' "$1"; }

@test "random bytes" {
	f=$BATS_TEST_TMPDIR/random
	{ "$TESTBIN/randbytes" 1000000 7; valid valid_after_noise; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"$f:"*": unrecognized line ("* ]]
	grep -q '^prog;valid_after_noise 5$' "$OUT"
}

@test "NUL bytes and invalid UTF-8 in names pass through" {
	f=$BATS_TEST_TMPDIR/nul
	{ printf 'pr\0g 1 1.0: 5 cycles:\n\t1 a\0b\xff (/bin/x)\n'; valid plain; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	printf 'pr\0g;a\0b\xff 5\n' > "$BATS_TEST_TMPDIR/want"
	cmp <(head -c 12 "$OUT") "$BATS_TEST_TMPDIR/want"
	grep -q '^prog;plain 5$' "$OUT"
}

@test "CRLF line ends" {
	f=$BATS_TEST_TMPDIR/crlf
	valid crlf_frame | sed 's/$/\r/' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(cat "$OUT")" = "prog;crlf_frame 5" ]
}

@test "a 50 MB frame line" {
	f=$BATS_TEST_TMPDIR/long
	{ printf 'prog 1 1.0: 1 cycles:\n\t1 '; head -c 50000000 /dev/zero | tr '\0' x; printf ' (/bin/x)\n'; valid after_long; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^prog;after_long 5$' "$OUT"
	[ "$(wc -c < "$OUT")" -eq $((5 + 50000000 + 3 + 18)) ]
}

@test "a 100,000-frame stack" {
	f=$BATS_TEST_TMPDIR/deep
	awk 'BEGIN { print "prog 1 1.0: 1 cycles:"; for (i = 1; i <= 100000; i++) printf "\t%x fn%d (/bin/x)\n", i, i; print "" }' > "$f"
	valid after_deep >> "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^prog;after_deep 5$' "$OUT"
	[ "$(grep fn100000 "$OUT" | tr ';' '\n' | wc -l)" -eq 100001 ]
}

@test "periods at and past 2^64; sums never wrap" {
	f=$BATS_TEST_TMPDIR/counts
	{ printf 'prog 1 1.0: 18446744073709551615 cycles:\n\t1 at_max (/bin/x)\n\n'
	  printf 'prog 1 2.0: 18446744073709551616 cycles:\n\t1 past_max (/bin/x)\n\n'
	  printf 'prog 1 3.0: 1 cycles:\n\t1 at_max (/bin/x)\n\n'; } > "$f"
	h_run "$f"
	[ "$status" -eq 1 ]
	names_line "$f" 4
	[[ "$stderr" == *"$f:4: period larger than 18446744073709551615; sample skipped"* ]]
	[[ "$stderr" == *"2 samples skipped: count too large"* ]]
	[ "$(cat "$OUT")" = "prog;at_max 18446744073709551615" ]
}

@test "negative and exponent periods do not crash" {
	f=$BATS_TEST_TMPDIR/neg
	{ printf 'prog 1 1.0: -5 cycles:\n\t1 neg (/bin/x)\n\nprog 1 1.0: 1e5 cycles:\n\t1 expo (/bin/x)\n'; valid after_bad; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	grep -q '^prog;after_bad 5$' "$OUT"
}

@test "a capture cut mid-line keeps what it has, with a warning" {
	f=$BATS_TEST_TMPDIR/cut
	{ valid whole; printf 'prog 1 1.0: 5 cycles:\n\t1 cut_fr'; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"$f:"*"input ended mid-sample"* ]]
	grep -q '^prog;whole 5$' "$OUT"
}

@test "empty input, only newlines: no output, exit 0" {
	f=$BATS_TEST_TMPDIR/empty
	: > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ ! -s "$OUT" ]
	printf '\n\n\n' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ ! -s "$OUT" ]
}

@test "a read error names the file"	{ hostile_read_error; }
