#!/usr/bin/env bats
# foldtop on hostile input: no crash, the documented status, a message naming
# the file and line, and the valid lines still counted.

load hostile

TOOL=("$BIN/foldtop")
SEES=sees_in_out


@test "random bytes"			{ hostile_random; }
@test "NUL bytes in names"		{ hostile_nul; }
@test "CRLF line ends"			{ hostile_crlf; }
@test "a 50 MB line"			{ hostile_long_line; }
@test "a 100,000-frame stack"		{ hostile_deep; }
@test "counts at and past 2^64, negative, exponent" { hostile_counts; }
@test "a sum past 2^64 is an error, not a wrap" { hostile_sum_overflow; }
@test "input cut mid-line"		{ hostile_cut; }
@test "empty input, only newlines"	{ hostile_empty; }
@test "a read error names the file"	{ hostile_read_error; }
