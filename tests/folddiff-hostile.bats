#!/usr/bin/env bats
# folddiff on hostile input, as AFTER (with an empty BEFORE) and as BEFORE:
# no crash, the documented status, a message naming the file and line, and
# the valid lines still merged.

load hostile

TOOL=("$BIN/folddiff" /dev/null)
SEES=sees_in_out
# The hostile file as BEFORE: folddiff FILE /dev/null.
as_before() { TOOL=(bash -c 'exec "$0" "$2" "$1"' "$BIN/folddiff" /dev/null); }

@test "random bytes"			{ hostile_random; as_before; hostile_random; }
@test "NUL bytes in names"		{ hostile_nul; as_before; hostile_nul; }
@test "CRLF line ends"			{ hostile_crlf; as_before; hostile_crlf; }
@test "a 50 MB line"			{ hostile_long_line; as_before; hostile_long_line; }
@test "a 100,000-frame stack"		{ hostile_deep; as_before; hostile_deep; }
@test "counts at and past 2^64, negative, exponent" { hostile_counts; as_before; hostile_counts; }
@test "a sum past 2^64 is an error, not a wrap" { hostile_sum_overflow; as_before; hostile_sum_overflow; }
@test "input cut mid-line"		{ hostile_cut; as_before; hostile_cut; }
@test "empty input, only newlines"	{ hostile_empty; as_before; hostile_empty; }
@test "a read error names the file"	{ hostile_read_error; as_before; hostile_read_error; }
