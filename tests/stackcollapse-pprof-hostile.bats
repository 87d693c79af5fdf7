#!/usr/bin/env bats
# stackcollapse-pprof on hostile input: a cut or damaged profile is one
# message, "stackcollapse-pprof: FILE: what is wrong", and exit 1; never a
# crash or a hang; the other files are still read.

load helper

D=$BATS_TEST_DIRNAME/data/pprof
gen() { "$TESTBIN/pprofgen" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# bad FILE WHY: the message is WHY for FILE, exit 1, no output.
bad() {
	run --separate-stderr "$BIN/stackcollapse-pprof" "$1"
	[ "$status" -eq 1 ] || { fail "$1: status $status, want 1"; return 1; }
	[ -z "$output" ] || { fail "$1: output: $output"; return 1; }
	[ "$stderr" = "stackcollapse-pprof: $1: $2" ] ||
		{ fail "$1: stderr: $stderr"; return 1; }
}

# each_ok DIR: every file in DIR gives exit 0 with valid folded output, or
# exit 1 with one message naming it; never a signal.  In one shell: a few
# thousand runs.
each_ok() {
	run bash -c '
	bin=$1 dir=$2
	for f in "$dir"/*; do
		st=0
		"$bin/stackcollapse-pprof" "$f" > "$dir.out" 2> "$dir.err" || st=$?
		case $st in
		0) "$bin/foldtop" --strict "$dir.out" > /dev/null 2>&1 ||
			{ echo "$f: invalid output"; exit 1; } ;;
		1) n=$(wc -l < "$dir.err")
		   { [ "$n" -eq 1 ] && grep -q "^stackcollapse-pprof: $f: " "$dir.err"; } ||
			{ echo "$f: message: $(cat "$dir.err")"; exit 1; } ;;
		*) echo "$f: status $st"; exit 1 ;;
		esac
	done' _ "$BIN" "$1"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "every kind of damage: its message, exit 1, no output" {
	gen hostile varint > "$T/varint"
	bad "$T/varint" "damaged profile at byte 64: varint too long"
	gen hostile keyvarint > "$T/keyvarint"
	bad "$T/keyvarint" "damaged profile at byte 62: varint too long"
	gen hostile badloc > "$T/badloc"
	bad "$T/badloc" "sample 1: location 99 is not in the profile"
	gen hostile badfunc > "$T/badfunc"
	bad "$T/badfunc" "location 2: function 42 is not in the profile"
	gen hostile badmap > "$T/badmap"
	bad "$T/badmap" "location 1: mapping 7 is not in the profile"
	gen hostile badstr > "$T/badstr"
	bad "$T/badstr" "function 3: string 1000 is not in the string table (7 strings)"
	gen hostile baddefault > "$T/baddefault"
	bad "$T/baddefault" "default_sample_type: string 500 is not in the string table (8 strings)"
	gen hostile mismatch > "$T/mismatch"
	bad "$T/mismatch" "sample 1 has 1 value, the profile 2 sample types"
	gen hostile dupid > "$T/dupid"
	bad "$T/dupid" "two locations with id 1"
	gen hostile zeroid > "$T/zeroid"
	bad "$T/zeroid" "a function with id 0"
	gen hostile group > "$T/group"
	bad "$T/group" "damaged profile at byte 62: unsupported wire type (a group)"
	gen hostile wiretype > "$T/wiretype"
	bad "$T/wiretype" "damaged profile at byte 62: a sample has the wrong wire type"
	gen hostile firststr > "$T/firststr"
	bad "$T/firststr" 'the string table does not start with ""'
}

@test "a sum past 2^64 - 1 is an error, in a profile or across profiles" {
	gen hostile bigsum > "$T/bigsum"
	bad "$T/bigsum" "sample 3: a sum of values past 18446744073709551615"
	gen hostile nearmax > "$T/nearmax"
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T/nearmax"
	[ "$status" -eq 0 ]
	[ "$output" = "root;leaf 18446744073709551564" ]
	# the second is refused, the first and third kept
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T/nearmax" "$T/nearmax" "$D/risc0.pb"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T/nearmax: a sum of values past 18446744073709551615 with the inputs before" ]
	golden <(LC_ALL=C sort "$D/risc0.folded" - <<< "root;leaf 18446744073709551564")
}

@test "a profile cut at every length: an error or valid stacks, never a crash" {
	gen edge > "$T/edge.pb"
	mkdir "$T/cuts"
	gen cuts "$T/edge.pb" "$T/cuts"
	[ "$(ls "$T/cuts" | wc -l)" -eq "$(wc -c < "$T/edge.pb")" ]
	each_ok "$T/cuts"
	# the empty one
	bad "$T/cuts/cut-00000" "empty input (not a profile)"
}

@test "a gzip profile cut anywhere: 'gzip: truncated input' or a bad checksum" {
	mkdir "$T/cuts"
	gen cuts "$D/cpu.pb.gz" "$T/cuts"
	rm "$T/cuts/cut-00000" "$T/cuts/cut-00001"	# not gzip yet
	for f in "$T"/cuts/*; do
		"$BIN/stackcollapse-pprof" "$f" > "$T/out" 2> "$T/err" && fail "$f: status 0"
		[ ! -s "$T/out" ] || fail "$f: output"
		grep -Eq "^stackcollapse-pprof: $f: gzip: (truncated input|bad (header|checksum|length).*)$" "$T/err" ||
			fail "$f: $(cat "$T/err")"
	done
}

@test "a bit flipped in every byte (raw and gzip): an error or valid stacks" {
	gen edge > "$T/edge.pb"
	mkdir "$T/flips" "$T/gzflips"
	gen flips "$T/edge.pb" "$T/flips"
	each_ok "$T/flips"
	gen flips "$D/cpu.pb.gz" "$T/gzflips"
	each_ok "$T/gzflips"
}

@test "a gzip profile with a bad checksum" {
	cp "$D/cpu.pb.gz" "$T/crc.pb.gz"
	n=$(wc -c < "$T/crc.pb.gz")
	# the CRC-32 is the 8th to 5th bytes from the end
	printf '\125' | dd of="$T/crc.pb.gz" bs=1 seek=$((n - 8)) conv=notrunc 2> /dev/null
	bad "$T/crc.pb.gz" "gzip: bad checksum"
}

@test "random bytes, text, an empty file: errors" {
	"$TESTBIN/randbytes" 100000 7 > "$T/random"
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T/random"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "stackcollapse-pprof: $T/random: "* ]]
	printf 'heap profile: 1: 2 [3: 4] @ heap/1048576\n' > "$T/text"
	bad "$T/text" "not a pprof profile (text; legacy text profiles are not read)"
	: > "$T/empty"
	bad "$T/empty" "empty input (not a profile)"
	gzip -n < "$T/empty" > "$T/empty.gz"
	bad "$T/empty.gz" "empty input (not a profile)"
}

@test "a damaged file among good ones: reported, the others summed" {
	gen hostile badloc > "$T/badloc"
	run --separate-stderr "$BIN/stackcollapse-pprof" "$D/risc0.pb" "$T/badloc" "$D/risc0.pb"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T/badloc: sample 1: location 99 is not in the profile" ]
	awk '{ n = $NF; $NF = ""; printf "%s%d\n", $0, 2 * n }' "$D/risc0.folded" > "$T/double"
	golden "$T/double"
}

@test "nothing of a damaged profile is counted, even its samples before the damage" {
	# edge's first samples are fine; a later one has a location id missing
	gen edge > "$T/edge.pb"
	gen hostile badloc > "$T/badloc"
	cat "$T/edge.pb" "$T/badloc" > "$T/both"	# one message, both parts
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T/both"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "a 100,000-frame stack" {
	gen deep 100000 > "$T/deep"
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T/deep"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(printf '%s\n' "$output" | tr ';' '\n' | wc -l)" -eq 100000 ]
	[[ "$output" == "main;fn1;fn2;"*";fn99999 3" ]]
}

@test "a 50 MB name" {
	gen long 50000000 > "$T/long"
	"$BIN/stackcollapse-pprof" "$T/long" > "$T/out"
	[ "$(wc -c < "$T/out")" -eq $((5 + 50000000 + 3)) ]
	head -c 7 "$T/out" | grep -q '^main;xx'
}

@test "a directory: a read error naming it" {
	run --separate-stderr "$BIN/stackcollapse-pprof" "$T"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-pprof: $T: read error: Is a directory" ]
}

@test "fuzz regressions and seeds: never a crash" {
	mkdir "$T/fuzz"
	for f in "$BATS_TEST_DIRNAME"/fuzz/corpus/pprof/* "$BATS_TEST_DIRNAME"/fuzz/regress/pprof/*; do
		[ -f "$f" ] || continue
		tail -c +2 "$f" > "$T/fuzz/$(basename "$f")"	# byte 1: the harness's flags
	done
	each_ok "$T/fuzz"
}
