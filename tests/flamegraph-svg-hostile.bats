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

@test "an input file cut short while it is mapped: a message and exit 1, no crash" {
	[ -d /proc/self/fd ] || skip "needs /proc to see when the file is open"
	d=$BATS_TEST_TMPDIR
	awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "root;func_%d;leaf_%d 1\n", i, i }' > "$d/big.folded"
	mkfifo "$d/ff"
	# the boxes' names point into the mapped file until the SVG is written
	"$BIN/flamegraph-svg" --minwidth 0 "$d/big.folded" "$d/ff" > "$d/out.svg" 2> "$d/err" &
	pid=$!
	# once it waits on the FIFO, it has mapped and read the file
	for i in $(seq 200); do
		ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$d/ff" && break
		sleep 0.05
	done
	: > "$d/big.folded"
	echo 'x 1' > "$d/ff"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 1 ] || fail "status $rc: $(cat "$d/err")"
	[ "$(cat "$d/err")" = "flamegraph-svg: an input file was cut short while it was being read" ]
}
