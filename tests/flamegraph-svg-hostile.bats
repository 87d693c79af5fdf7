#!/usr/bin/env bats
# flamegraph-svg on hostile input: no crash, the documented status, a
# message naming the file and line, the valid lines still drawn, and always
# a well-formed SVG.

load hostile

TOOL=("$BIN/flamegraph-svg")
EMPTY_RC=1	# nothing to draw: a small SVG saying so, and exit 1
SEES=sees_svg

# The SVG is well-formed XML and has a box for the frame.
sees_svg() {
	"$TESTBIN/xmlcheck" < "$OUT" || return 1
	grep -q -- "<title>$1 (" "$OUT"
}

@test "random bytes"			{ hostile_random; }
@test "NUL bytes in names"		{ hostile_nul; }
@test "CRLF line ends"			{ hostile_crlf; }
@test "a 50 MB line"			{ hostile_long_line; }
@test "a 100,000-frame stack"		{ hostile_deep; }
@test "counts at and past 2^64, negative, exponent" { hostile_counts; }
@test "a sum past 2^64 is an error, not a wrap" { hostile_sum_overflow; }
@test "input cut mid-line"		{ hostile_cut; }
@test "empty input, only newlines: a valid SVG, exit 1" {
	hostile_empty
	"$TESTBIN/xmlcheck" < "$OUT"
}
@test "a read error names the file"	{ hostile_read_error; }
