#!/usr/bin/env bats
# stackcollapse-sample on hostile input: a report cut anywhere, absurd depth
# markers, huge counts, random bytes, NULs, huge names.  Every bad line is
# "stackcollapse-sample: FILE:LINE: what is wrong" and exit 1; never a
# crash or a hang; what is written is valid folded input.

load helper

D=$BATS_TEST_DIRNAME/data/sample
sc() { "$BIN/stackcollapse-sample" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# A report: "Call graph:", the lines given, "Total number in stack".
report() {
	printf 'Call graph:\n'
	printf '%s\n' "$@"
	printf 'Total number in stack (recursive counted multiple, when >=5):\n'
}

@test "our report cut at every length: exit 0 or 1, one message per bad line, valid output" {
	run bash -c '
	bin=$1 src=$2 t=$3
	n=$(wc -c < "$src")
	for i in $(seq 0 "$n"); do
		head -c "$i" "$src" > "$t/cut"
		st=0
		"$bin/stackcollapse-sample" "$t/cut" > "$t/out" 2> "$t/err" || st=$?
		case $st in
		0|1) ;;
		*) echo "cut at $i: status $st"; exit 1 ;;
		esac
		if grep -v "^stackcollapse-sample: " "$t/err"; then echo "cut at $i: stray message"; exit 1; fi
		if [ -s "$t/out" ] && ! "$bin/foldtop" --strict "$t/out" > /dev/null 2>&1; then
			echo "cut at $i: invalid output"; exit 1
		fi
		# cut inside the call graph: an error; after its end: none
		if [ "$i" -gt 0 ] && [ "$st" -eq 0 ] && ! grep -q "^Total number" "$t/cut"; then
			echo "cut at $i: exit 0 before the end of the call graph"; exit 1
		fi
	done' _ "$BIN" "$D/rules.txt" "$T"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "our report cut after every line: inside the call graph an error naming the last line" {
	n=$(wc -l < "$D/rules.txt")
	for k in $(seq 12 "$n"); do
		head -n "$k" "$D/rules.txt" > "$T/cut"
		run --separate-stderr sc -q "$T/cut"
		if [ "$k" -lt 36 ]; then
			[ "$status" -eq 1 ] || fail "line $k: status $status"
			[[ "$stderr" == *"$T/cut:$k: the report ends inside the call graph"* ]] || fail "line $k: $stderr"
		else
			[ "$status" -eq 0 ] || fail "line $k: status $status"
		fi
	done
}

@test "absurd depth markers: a million on one line, odd or skipping levels" {
	awk 'BEGIN { print "Call graph:"; print "    5 T"; s = "    "
		for (i = 0; i < 1000000; i++) s = s "+ "
		print s "5 f  (in m) + 1  [0x1]"; print s "+5 g  (in m) + 1  [0x1]"
		print s "|"; print "    + 5 h  (in m) + 1  [0x1]"; print "Total number in stack" }' > "$T/deep"
	run --separate-stderr sc "$T/deep"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[[ "${stderr_lines[0]}" == "stackcollapse-sample: $T/deep:3: a frame 1000000 levels below the one before" ]]
	[[ "${stderr_lines[1]}" == "stackcollapse-sample: $T/deep:4: an odd number of depth markers" ]]
	[[ "${stderr_lines[2]}" == "stackcollapse-sample: $T/deep:5: a call graph line with depth markers only" ]]
	[ "$output" = 'T;m`h 5' ]
}

@test "a stack of 5,000 frames (25 MB of depth markers)" {
	awk 'BEGIN { print "Call graph:"; print "    1 T"; s = "    "
		for (i = 1; i <= 5000; i++) { s = s "+ "; print s "1 f" i "  (in m) + 1  [0x1]" }
		print "    1 U"; print "    + 1 after_deep  (in m) + 1  [0x1]"; print "Total number in stack" }' > "$T/deep"
	run --separate-stderr sc "$T/deep"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == 'T;m`f1;m`f2;'*';m`f5000 1' ]]
	[ "$(printf '%s' "${lines[0]}" | tr ";" "\n" | wc -l)" -eq 5000 ]
	[ "${lines[1]}" = 'U;m`after_deep 1' ]
}

@test "huge counts: 2^64-1 is kept, past it an error; children above their parent; sums past 2^64-1" {
	report '    18446744073709551615 T' '    + 18446744073709551615 at_max  (in m) + 1  [0x1]' \
		'    18446744073709551616 U' '    + 1 past_max  (in m) + 1  [0x1]' \
		'    5 V' '    + 4 a  (in m) + 1  [0x1]' '    + 3 b  (in m) + 1  [0x2]' \
		'    10 W' '    + 18446744073709551615 x  (in m) + 1  [0x1]' '    + 18446744073709551615 y  (in m) + 1  [0x1]' \
		> "$T/big"
	run --separate-stderr sc "$T/big"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "stackcollapse-sample: $T/big:4: a sample count past 18446744073709551615" ]
	[ "${stderr_lines[1]}" = "stackcollapse-sample: $T/big:6: the counts of the frames below this one add up to more than its 5" ]
	[ "${stderr_lines[2]}" = "stackcollapse-sample: $T/big:9: the counts of the frames below this one add up to more than its 10" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "${lines[0]}" = 'T;m`at_max 18446744073709551615' ]
	[[ "$output" == *$'\nV;m`a 4\nV;m`b 3'* ]]
	# the same stack from two lines whose sum is past 2^64 - 1
	report '    18446744073709551615 T' '    + 18446744073709551615 f  (in m) + 1  [0x1]' \
		'    1 T' '    + 1 f  (in m) + 2  [0x2]' > "$T/sum"
	run --separate-stderr sc "$T/sum"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-sample: $T/sum:5: a sum of samples past 18446744073709551615" ]
	[ "$output" = 'T;m`f 18446744073709551615' ]
}

@test "random bytes, inside and outside a call graph: no crash, valid output, the good lines kept" {
	"$TESTBIN/randbytes" 1000000 11 > "$T/noise"
	{ printf 'Call graph:\n'; cat "$T/noise"; printf '\n    3 T\n    + 3 after_noise  (in m) + 1  [0x1]\nTotal number in stack\n'; } > "$T/r1"
	run --separate-stderr sc -q "$T/r1"
	[ "$status" -le 1 ]
	[[ "$output" == *'T;m`after_noise 3'* ]]
	sc -q "$T/r1" 2>/dev/null > "$T/out" || true
	"$BIN/foldtop" --strict "$T/out" > /dev/null
	run --separate-stderr sc "$T/noise"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$T/noise:"* ]]
}

@test "NUL bytes and control characters in names are kept; ';' is not a separator" {
	printf 'Call graph:\n    3 T\0hr\n    + 3 a\0b;c  (in m\0x) + 1  [0x1]\nTotal number in stack\n' > "$T/nul"
	run sc "$T/nul"
	[ "$status" -eq 0 ]
	[ "$(sc "$T/nul" | od -An -c | tr -d ' \n')" = 'T\0hr;m\0x`a\0b:c3\n' ]
}

@test "6 MB of distinct frame lines, each twice: the cache of texts starts over, the stacks are the same" {
	awk 'BEGIN {
		print "Call graph:"
		for (t = 1; t <= 2; t++) {
			print "    40000 Thread_" t
			for (i = 0; i < 40000; i++)
				printf "    + 1 fn_%06d_%s  (in m%d) + %d  [0x%x]\n", i, sprintf("%0100d", 0), i % 3, i % 7, i
		}
		print "Total number in stack"
	}' > "$T/big.txt"
	[ "$(wc -c < "$T/big.txt")" -gt 6000000 ]
	run sc "$T/big.txt"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 80000 ]
	[ "$output" = "$(awk -f "$D/fold.awk" "$T/big.txt" | LC_ALL=C sort)" ]
}

@test "a name of 50 MB, then a line after it" {
	{ printf 'Call graph:\n    2 T\n    + 1 '; head -c 50000000 /dev/zero | tr '\0' 'x'
	  printf '  (in m) + 1  [0x1]\n    + 1 after_long  (in m) + 1  [0x2]\nTotal number in stack\n'; } > "$T/long"
	run sc "$T/long"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = 'T;m`after_long 1' ]
	[ "${#lines[1]}" -eq 50000006 ]
}

@test "lines that look like frames but are not: parsed from the right, never past their start" {
	report '    9 T' '    + 1 (in m)' '    + 1   (in )' '    + 1 [0x1]' '    + 1  + 5' \
		'    + 1 x  load address 0x1 + 0x2' '    + 1 ]' '    + 1 (in ' '    + 1 )' '    + 1 f  (in m) + 1  [' \
		> "$T/odd"
	run --separate-stderr sc "$T/odd"
	[ "$status" -eq 0 ]
	sc "$T/odd" > "$T/out"
	"$BIN/foldtop" --strict "$T/out" > /dev/null
	[ "$(awk '{ s += $NF } END { print s }' "$T/out")" -eq 9 ]
}

@test "no frame after a count, a count then garbage: messages, exit 1" {
	report '    5 T' '    + 5' '    + 5x f  (in m)' > "$T/nf"
	run --separate-stderr sc "$T/nf"
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "stackcollapse-sample: $T/nf:3: no frame after the sample count" ]
	[ "${stderr_lines[1]}" = "stackcollapse-sample: $T/nf:4: no frame after the sample count" ]
	[ -z "$output" ]
}
