#!/usr/bin/env bats
# stackcollapse-callgrind on hostile input: a bad line is
# "stackcollapse-callgrind: FILE:LINE: what is wrong" and exit 1, the rest
# still read (--strict: the first is fatal); never a crash or a hang.

load helper

D=$BATS_TEST_DIRNAME/data/callgrind
sc() { "$BIN/stackcollapse-callgrind" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# cg NAME LINE...: a profile of those lines in $T/NAME.
cg() {
	local f=$T/$1
	shift
	printf '%s\n' "$@" > "$f"
}

# bad FILE LINE WHY: exactly that message, exit 1; the good lines counted.
bad() {
	run --separate-stderr sc -q "$1"
	[ "$status" -eq 1 ] || { fail "$1: status $status, want 1"; return 1; }
	[ "$stderr" = "stackcollapse-callgrind: $1:$2: $3" ] ||
		{ fail "$1: stderr: $stderr"; return 1; }
	[ "$status" -lt 128 ]
}

@test "an id used before any definition: fn, cfn, fl, ob, inside a compressed context" {
	cg fn 'events: Ir' 'fn=(3)' '1 5' 'fn=(1) main' '1 2' 'totals: 2'
	bad "$T/fn" 2 "function id (3) used before its definition"
	[ "$output" = "main 2" ]
	cg cfn 'events: Ir' 'fn=(1) main' '1 2' 'cfn=(9)' 'calls=1 1' '1 5' 'totals: 2'
	bad "$T/cfn" 4 "function id (9) used before its definition"
	cg fl 'events: Ir' 'fl=(4)' 'fn=(1) main' '1 2' 'totals: 2'
	bad "$T/fl" 2 "file id (4) used before its definition"
	cg ob 'events: Ir' 'ob=(4)' 'fn=(1) main' '1 2' 'totals: 2'
	bad "$T/ob" 2 "object id (4) used before its definition"
	cg mangled 'events: Ir' 'fn=(1) main' '1 2' "fn=(2) (3)'(1)" '1 3'
	bad "$T/mangled" 4 "function id (3) used before its definition"
	[ "$output" = "main 2" ]
}

@test "a cost line with too many fields, a bad number, a cost past 2^64 - 1" {
	cg many 'events: Ir Dr' 'fn=(1) main' '1 2 3 4' '2 5' 'totals: 5'
	bad "$T/many" 3 "a cost line with more than 2 costs (events: names 2)"
	[ "$output" = "main 5" ]
	cg num 'events: Ir' 'fn=(1) main' '1 2x' '2 18446744073709551616' '3 5' 'totals: 5'
	run --separate-stderr sc -q "$T/num"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-callgrind: $T/num:3: bad cost
stackcollapse-callgrind: $T/num:4: bad cost" ]
	[ "$output" = "main 5" ]
	cg sum 'events: Ir' 'fn=(1) main' '1 18446744073709551615' '2 1'
	bad "$T/sum" 4 "the cost of a function is past 2^64 - 1"
	[ "$output" = "main 18446744073709551615" ]
	cg pos 'positions: instr line' 'events: Ir' 'fn=(1) main' '0x10 +x 5' '0x10zz 1 5' '+1 * 5'
	run --separate-stderr sc -q "$T/pos"
	[ "$status" -eq 1 ]
	[ "$output" = "main 5" ]
	[[ "$stderr" == *"pos:4: bad position"*"pos:5: bad position" ]]
}

@test "a cut file: no newline at the end, calls= without its cost line, no totals: after summary:" {
	printf 'events: Ir\nfn=(1) main\n1 5\ntotals: 5' > "$T/nonl"
	bad "$T/nonl" 4 "the last line has no newline: the file is cut short"
	[ "$output" = "main 5" ]
	cg calls 'events: Ir' 'fn=(1) main' '1 5' 'cfn=(2) f' 'calls=1 2'
	bad "$T/calls" 5 "the file ends after calls=, without its cost line"
	cg summary 'events: Ir' 'summary: 9' 'fn=(1) main' '1 5'
	bad "$T/summary" 4 "no totals: line after the last costs: the file is cut short"
	cg midcall 'events: Ir' 'fn=(1) main' 'cfn=(2) f' 'calls=1 2' 'fn=(2)' '1 3' 'totals: 3'
	bad "$T/midcall" 5 "calls= is not followed by its cost line"
	[ "$output" = "f 3" ]
}

@test "totals: that the cost lines do not add up to" {
	cg tot 'events: Ir Dr' 'fn=(1) main' '1 5 1' 'totals: 6 1'
	bad "$T/tot" 4 "totals: says 6 Ir, the cost lines add up to 5"
	[ "$output" = "main 5" ]
}

@test "lines that are not callgrind's, keys unknown, costs before events: or fn=" {
	cg junk 'events: Ir' 'fn=(1) main' 'hello world' '1 5' 'zz=3' 'totals: 5'
	run --separate-stderr sc -q "$T/junk"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-callgrind: $T/junk:3: not a line of a callgrind profile
stackcollapse-callgrind: $T/junk:5: unknown line zz=" ]
	[ "$output" = "main 5" ]
	cg early 'fn=(1) main' '1 5' 'events: Ir' '2 3'
	bad "$T/early" 2 "a cost line before events:"
	[ "$output" = "main 3" ]
	cg nofn 'events: Ir' '1 5'
	bad "$T/nofn" 2 "a cost line before any fn="
	cg events 'events:' 'positions: instr sideways'
	run --separate-stderr sc -q "$T/events"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"events:1: events: names no event"*"events:2: bad positions: line" ]]
}

@test "--strict: the first bad line is fatal, nothing written" {
	cg fn 'events: Ir' 'fn=(1) main' '1 5' 'fn=(3)' '1 5'
	run --separate-stderr sc --strict "$T/fn" "$D/compress.cg"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-callgrind: $T/fn:4: function id (3) used before its definition" ]
	[ -z "$output" ]
	run sc --strict "$D/compress.cg"
	[ "$status" -eq 0 ]
}

@test "at most ten messages a file, then how many more" {
	{ echo 'events: Ir'; echo 'fn=(1) main'; for i in $(seq 25); do echo '1 x'; done; echo '1 5'; } > "$T/many"
	run --separate-stderr sc -q "$T/many"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 11 ]
	[[ "$stderr" == *"stackcollapse-callgrind: $T/many: 15 more bad lines" ]]
	[ "$output" = "main 5" ]
}

@test "a missing file and a directory are reported; the other files are read" {
	run --separate-stderr sc -q "$T/nope" "$T" "$D/compress.cg"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$T/nope"* ]]
	golden "$D/compress.folded"
}

@test "empty input, comments only: no stacks, exit 0" {
	: > "$T/empty"
	run --separate-stderr sc -q "$T/empty"
	[ "$status" -eq 0 ]
	[ -z "$output" ] && [ -z "$stderr" ]
	cg comments '# callgrind format' 'version: 1' 'creator: x'
	run --separate-stderr sc -q "$T/comments"
	[ "$status" -eq 0 ]
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "random bytes: exit 0 or 1, valid output, never a signal" {
	for seed in 1 2 3 4 5; do
		{ echo 'events: Ir'; "$TESTBIN/randbytes" 300000 "$seed"; } > "$T/r$seed"
		run --separate-stderr sc -q "$T/r$seed"
		[ "$status" -le 1 ] || fail "seed $seed: status $status"
		printf '%s\n' "$output" | "$BIN/foldtop" --strict > /dev/null 2>&1 ||
		    [ -z "$output" ] || fail "seed $seed: invalid output"
	done
}

@test "random lines of the format: exit 0 or 1, valid output, never a signal" {
	awk 'BEGIN { srand(11); print "events: Ir Dr"
		k[0] = "fn="; k[1] = "cfn="; k[2] = "calls="; k[3] = ""; k[4] = "fl="; k[5] = "jump="; k[6] = "ob="; k[7] = "totals: "
		for (i = 0; i < 20000; i++) {
			t = k[int(rand() * 8)]
			if (t == "fn=" || t == "cfn=") {
				s = t "(" int(rand() * 50) ")"
				if (rand() < 0.5) { s = s " f" int(rand() * 9); for (j = int(rand() * 4); j > 0; j--) s = s "\047" (rand() < 0.2 ? "2" : "f" int(rand() * 9)) }
				print s
			} else if (t == "")
				print (rand() < 0.5 ? "+" : "") int(rand() * 100) " " int(rand() * 1000) (rand() < 0.3 ? " 7 9" : "")
			else
				print t int(rand() * 100) " " int(rand() * 100)
		} }' > "$T/fmt"
	run --separate-stderr sc -q "$T/fmt"
	[ "$status" -le 1 ]
	printf '%s\n' "$output" | "$BIN/foldtop" --strict > /dev/null
}

@test "a context of 100000 functions, a name of 20 MB, 200000 contexts: no crash" {
	awk 'BEGIN { print "events: Ir"; printf "fn=(1) f0"; for (i = 1; i <= 100000; i++) printf "\047f%d", i % 7; print ""; print "1 5"
		printf "fn=(2) "; for (i = 0; i < 2000000; i++) printf "abcdefghij"; print ""; print "1 3"
		for (i = 0; i < 200000; i++) { print "fn=(" i + 3 ") g" i "\047h" i % 100 "\047main"; print "1 1" } }' > "$T/big"
	run --separate-stderr sc -q "$T/big"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 200002 ]
	[[ "${lines[0]}" == "[stack cut];f5;f4;f3;f2;f1;f0;f6;"*";f1;f0 5" ]]
	[ "${#lines[1]}" -eq 20000002 ]
	[ "${lines[200001]}" = "main;h9;g99909 1" ]
}

@test "mutual recursion cut at every depth: the walk ends (a cycle of candidates)" {
	cg cyc 'events: Ir' "fn=(1) a'b'a" '1 5' "fn=(2) b'a'b" '1 7' 'totals: 12'
	run --separate-stderr sc -q "$T/cyc"
	[ "$status" -eq 0 ]
	# a'b'a's caller is b'a'b, whose caller is a'b'a again: cut there
	[ "$output" = $'[stack cut];b;a;b 7\n[stack cut];b;a;b;a 5' ]
}

@test "writing to a full disk is an error; a closed pipe ends quietly" {
	full_disk stackcollapse-callgrind "$D/compress.cg"
	closed_pipe "(below main) 2" stackcollapse-callgrind "$D/compress.cg"
}
