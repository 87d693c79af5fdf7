# hostile.bash - hostile folded input, shared by the *-hostile.bats files of
# the tools that read folded stacks.  The .bats file sets:
#   TOOL        the command words (an array), e.g. ("$BIN/foldtop")
#   EMPTY_RC    the exit status for empty input (default 0)
#   SEES        how to find a valid line's effect in the output: a function
#               taking a frame name, true if the output shows it
load helper

# h_run FILE: run the tool on FILE; stdout in $OUT, stderr in $stderr.
h_run() {
	OUT=$BATS_TEST_TMPDIR/out
	run --separate-stderr bash -c 'o=$1 f=$2; shift 2; "$@" "$f" > "$o"' _ "$OUT" "$1" "${TOOL[@]}"
	[ "$status" -lt 128 ] || fail "killed by signal $((status - 128))"
}

# The message names the file and the line of the first bad input.
names_line() {
	[[ "$stderr" == *"$1:$2:"* ]] || fail "no '$1:$2:' in: $stderr"
}

hostile_random() {
	local f=$BATS_TEST_TMPDIR/random
	{ "$TESTBIN/randbytes" 1000000 7; printf '\nmain;valid_after_noise 7\n'; } > "$f"
	h_run "$f"
	[ "$status" -le 1 ]
	[[ "$stderr" == *"$f:"* ]] || fail "no file name in: $stderr"
	$SEES valid_after_noise || fail "valid line lost"
}

hostile_nul() {
	local f=$BATS_TEST_TMPDIR/nul
	printf 'main;nul\0inside 3\nmain;plain_after_nul 4\n' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	$SEES plain_after_nul
}

hostile_crlf() {
	local f=$BATS_TEST_TMPDIR/crlf
	printf 'main;crlf_one 3\r\nmain;crlf_two 4\r\n' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	$SEES crlf_two
}

hostile_long_line() {
	local f=$BATS_TEST_TMPDIR/long
	{ printf 'main;'; head -c 50000000 /dev/zero | tr '\0' 'x'; printf ' 5\nmain;after_long 2\n'; } > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	$SEES after_long
}

hostile_deep() {
	local f=$BATS_TEST_TMPDIR/deep
	awk 'BEGIN { printf "main"; for (i = 1; i <= 100000; i++) printf ";deep%d", i; print " 3"; print "main;after_deep 2" }' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	$SEES after_deep
}

hostile_counts() {
	local f=$BATS_TEST_TMPDIR/counts
	printf 'main;at_max 18446744073709551615\nmain;past_max 18446744073709551616\nmain;neg -5\nmain;expo 1e3\n' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	names_line "$f" 2
	[[ "$stderr" == *"count larger than 18446744073709551615 (3 invalid lines skipped)"* ]]
	$SEES at_max
}

hostile_sum_overflow() {
	local f=$BATS_TEST_TMPDIR/sum
	printf 'main;big 18446744073709551615\nmain;one_more 1\n' > "$f"
	h_run "$f"
	[ "$status" -eq 1 ]
	names_line "$f" 2
	$SEES big
}

hostile_cut() {
	local f=$BATS_TEST_TMPDIR/cut
	printf 'main;whole_line 5\nmain;cut_he' > "$f"
	h_run "$f"
	[ "$status" -eq 0 ]
	names_line "$f" 2
	$SEES whole_line
}

hostile_empty() {
	local f=$BATS_TEST_TMPDIR/empty
	: > "$f"
	h_run "$f"
	[ "$status" -eq "${EMPTY_RC:-0}" ]
	printf '\n\n\n\n' > "$f"
	h_run "$f"
	[ "$status" -eq "${EMPTY_RC:-0}" ]
}

hostile_read_error() {
	h_run "$BATS_TEST_TMPDIR"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$BATS_TEST_TMPDIR: read error: Is a directory"* ]]
}

# Output in text must show the frame: the default output of the tool.
sees_in_out() {
	grep -q -- "$1" "$OUT"
}
