#!/usr/bin/env bats
# foldcallers on hostile input: no crash, the documented status, a message naming
# the file and line, and the valid lines still counted.

load hostile

TOOL=("$BIN/foldcallers" --callees main)
EMPTY_RC=1	# no frame matches: exit 1
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

# The same on differential input (STACK BEFORE AFTER): a first file of
# two-count lines makes the input differential, then the hostile file.
@test "differential: random bytes"	{ TOOL+=("$DATA/foldtop/diffhead.folded"); hostile_random; }
@test "differential: NUL, CRLF, long line, deep stack" { TOOL+=("$DATA/foldtop/diffhead.folded"); hostile_nul; hostile_crlf; hostile_long_line; hostile_deep; }
@test "differential: counts, sums past 2^64, cut, read error" { TOOL+=("$DATA/foldtop/diffhead.folded"); hostile_counts; hostile_sum_overflow; hostile_cut; hostile_read_error; }
