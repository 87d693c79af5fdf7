#!/usr/bin/env bats
# stackcollapse-samply on hostile input: damaged JSON or gzip, versions not
# read, indices out of range, prefixes in a cycle: one message,
# "stackcollapse-samply: FILE: what is wrong" (FILE:LINE:COLUMN for JSON),
# exit 1, nothing of that profile counted; never a crash or a hang; the
# other files are still read.

load helper

D=$BATS_TEST_DIRNAME/data/samply
gen() { "$TESTBIN/samplygen" "$@"; }

setup() {
	T=$BATS_TEST_TMPDIR
}

# bad FILE WHY: the message is WHY for FILE ("FILE: WHY", or "FILE:WHY"
# when WHY starts with a line number), exit 1, no output.
bad() {
	run --separate-stderr "$BIN/stackcollapse-samply" "$1"
	[ "$status" -eq 1 ] || { fail "$1: status $status, want 1"; return 1; }
	[ -z "$output" ] || { fail "$1: output: $output"; return 1; }
	case $2 in
	[0-9]*) [ "$stderr" = "stackcollapse-samply: $1:$2" ] ;;
	*) [ "$stderr" = "stackcollapse-samply: $1: $2" ] ;;
	esac || { fail "$1: stderr: $stderr"; return 1; }
}

# edit VERSION SED-SCRIPT: the abstract profile of that layout, edited, in
# $T/e.json; the edit must change it
edit() {
	gen -v "$1" > "$T/p.json"
	sed "$2" "$T/p.json" > "$T/e.json"
	! cmp -s "$T/p.json" "$T/e.json" || { fail "the edit $2 changed nothing"; return 1; }
}

# each_ok DIR: every file in DIR gives exit 0 with valid folded output, or
# exit 1 with one message naming it; never a signal.  In one shell.
each_ok() {
	run bash -c '
	bin=$1 dir=$2
	for f in "$dir"/*; do
		st=0
		"$bin/stackcollapse-samply" "$f" > "$dir.out" 2> "$dir.err" || st=$?
		case $st in
		0) "$bin/foldtop" --strict "$dir.out" > /dev/null 2>&1 ||
			{ echo "$f: invalid output"; exit 1; } ;;
		1) n=$(wc -l < "$dir.err")
		   { [ "$n" -eq 1 ] && grep -q "^stackcollapse-samply: $f[:]" "$dir.err" &&
		     [ ! -s "$dir.out" ]; } ||
			{ echo "$f: message: $(cat "$dir.err")"; exit 1; } ;;
		*) echo "$f: status $st"; exit 1 ;;
		esac
	done' _ "$BIN" "$1"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "versions: newer than 70 and older than 41 refused, naming the version; a Gecko profile" {
	edit 70 's/"preprocessedProfileVersion":70/"preprocessedProfileVersion":71/'
	bad "$T/e.json" "format version 71 is newer than 70, the last this reads"
	edit 41 's/"preprocessedProfileVersion":41/"preprocessedProfileVersion":40/'
	bad "$T/e.json" "format version 40 is older than 41, the first this reads"
	edit 55 's/"preprocessedProfileVersion":55,//'
	bad "$T/e.json" "not a processed profile (no meta.preprocessedProfileVersion): a Gecko profile is not read"
	edit 55 's/"preprocessedProfileVersion":55/"preprocessedProfileVersion":"55"/'
	bad "$T/e.json" "1:52: an integer was expected"
}

@test "damaged JSON: line and column of the first thing wrong" {
	printf '{"meta":{"preprocessedProfileVersion":55,},"libs":[]}' > "$T/comma.json"
	bad "$T/comma.json" "1:42: a comma before the end of an object or array"
	printf '{"meta":\n  {"preprocessedProfileVersion":055}}' > "$T/zero.json"
	bad "$T/zero.json" "2:33: a number with a leading zero"
	printf '{"meta":{"a":"\xff"}}' > "$T/utf8.json"
	bad "$T/utf8.json" "1:15: invalid UTF-8 in a string"
	printf '{"meta":{"a":"\\ud800x"}}' > "$T/surr.json"
	bad "$T/surr.json" "1:15: a lone surrogate in a \\u escape"
	printf '{"meta":{"a":"a\tb"}}' > "$T/ctl.json"
	bad "$T/ctl.json" "1:16: a control character in a string"
	printf '{"meta":{}} {}' > "$T/after.json"
	bad "$T/after.json" "1:13: more text after the JSON value"
	printf '{"meta":{"a":tru}}' > "$T/lit.json"
	bad "$T/lit.json" "1:14: a bad literal (not null, true or false)"
	printf '{"meta":{"a":"x}}' > "$T/open.json"
	bad "$T/open.json" "1:14: a string is not closed"
	printf '{"meta":{"a" 1}}' > "$T/colon.json"
	bad "$T/colon.json" "1:14: ':' was expected after a key"
	printf '[1,2]' > "$T/arr.json"
	bad "$T/arr.json" "1:1: an object was expected"
	printf '{"meta":{"preprocessedProfileVersion":55}' > "$T/cut.json"
	bad "$T/cut.json" "1:42: the text ends inside an object"
}

@test "nesting: 100,000 levels are an error at level 257, quickly, no stack overflow" {
	{ printf '{"x":'; head -c 100000 /dev/zero | tr '\0' '['; } > "$T/deep.json"
	bad "$T/deep.json" "1:261: nested deeper than 256 levels"
	printf '{"meta":{"preprocessedProfileVersion":55},"x":%s1%s}' \
	    "$(head -c 255 /dev/zero | tr '\0' '[')" "$(head -c 255 /dev/zero | tr '\0' ']')" > "$T/ok.json"
	bad "$T/ok.json" "no libs"
}

@test "indices out of range: samples, stacks, frames, functions, strings, resources, libs" {
	edit 55 's/"stack":\[2,2,null,4,7,0\]/"stack":[2,2,null,4,8,0]/'
	bad "$T/e.json" "samples: sample 4's stack 8 is out of range (8 stacks)"
	edit 55 's/"stack":\[2,2,null,4,7,0\]/"stack":[2,-1,null,4,7,0]/'
	bad "$T/e.json" "samples: sample 1's stack -1 is out of range (8 stacks)"
	edit 70 's/"frame":\[0,1,2,3,4,6,5,3\]/"frame":[0,1,2,3,4,6,5,7]/'
	bad "$T/e.json" "stackTable: stack 7's frame 7 is out of range (7 frames)"
	edit 70 's/"func":\[0,1,2,3,4,5,6\]/"func":[0,1,2,3,4,5,16]/'
	bad "$T/e.json" "frameTable: frame 6's func 16 is out of range (7 functions)"
	edit 70 's/"lib":\[0,0,1,0,-1,0,-1\]/"lib":[0,0,1,0,-1,0,2]/'
	bad "$T/e.json" "frameTable: frame 6's lib 2 is out of range (2 libs)"
	edit 66 's/"name":\[0,1,2,3,4,5,6\]/"name":[0,1,2,3,4,5,10]/'
	bad "$T/e.json" "funcTable: function 6's name 10 is out of range (10 strings)"
	edit 60 's/"resource":\[0,0,1,0,-1,0,-1\]/"resource":[0,0,1,0,-1,0,2]/'
	bad "$T/e.json" "funcTable: function 6's resource 2 is out of range (2 resources)"
	edit 49 '0,/"lib":\[0,1\]/s//"lib":[0,5]/'
	bad "$T/e.json" "resourceTable: resource 1's lib 5 is out of range (2 libs)"
}

@test "prefixes: a cycle (before 66), an offset out of range (66 on)" {
	edit 55 's/"prefix":\[null,0,1,0,3,null,5,1\]/"prefix":[null,2,1,0,3,null,5,1]/'
	bad "$T/e.json" "stackTable: the prefixes of stack 1 go round in a cycle"
	edit 60 's/"prefix":\[null,0,1,0,3,null,5,1\]/"prefix":[null,0,1,0,3,6,5,1]/'
	bad "$T/e.json" "stackTable: the prefixes of stack 5 go round in a cycle"
	edit 60 's/"prefix":\[null,0,1,0,3,null,5,1\]/"prefix":[7,0,1,0,3,null,5,1]/'
	bad "$T/e.json" "stackTable: the prefixes of stack 0 go round in a cycle"
	edit 60 's/"prefix":\[null,0,1,0,3,null,5,1\]/"prefix":[null,0,1,0,3,null,5,8]/'
	bad "$T/e.json" "stackTable: stack 7's prefix 8 is out of range (8 stacks)"
	edit 66 's/"prefixOffset":\[0,1,1,3,1,0,1,6\]/"prefixOffset":[0,1,1,3,1,0,1,8]/'
	bad "$T/e.json" "stackTable: stack 7's prefixOffset 8 is out of range"
	edit 66 's/"prefixOffset":\[0,1,1,3,1,0,1,6\]/"prefixOffset":[0,1,1,3,1,0,1,-1]/'
	bad "$T/e.json" "stackTable: stack 7's prefixOffset -1 is out of range"
	# a root that points at itself: offset 0 is a root, never a cycle
	edit 66 's/"prefixOffset":\[0,1,1,3,1,0,1,6\]/"prefixOffset":[0,1,1,3,1,0,0,6]/'
	run "$BIN/stackcollapse-samply" "$T/e.json"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "0x3000 1" ]
}

@test "tables: a missing one, a missing column, columns of the wrong length, weights of the wrong kind" {
	edit 70 's/"stackTable"/"stackTableX"/'
	bad "$T/e.json" "no stackTable"
	edit 70 's/"prefixOffset"/"prefix"/'
	bad "$T/e.json" "stackTable has no prefixOffset column"
	edit 60 's/"frame":\[0,1,2,3,4,6,5,3\]/"frame":[0,1,2,3,4,6,5]/'
	bad "$T/e.json" "stackTable.frame has 7 entries, its length is 8"
	edit 55 's/"weight":\[1,1,1,1\]/"weight":[1,1,1]/'
	bad "$T/e.json" "samples: the weight column is shorter than the stack column"
	edit 55 's/"weight":\[1,1,1,1\]/"weight":[1,1,1,1,1]/'
	bad "$T/e.json" "samples: the weight column is longer than the stack column"
	edit 55 's/"weight":\[1,2,1,1,3,1\]/"weight":[1,2,1,1e999,3,1]/'
	bad "$T/e.json" "samples: sample 3's weight is not a number below 2^53"
	edit 55 's/"weight":\[1,2,1,1,3,1\]/"weight":[1,2,1,"1",3,1]/'
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/e.json"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "stackcollapse-samply: $T/e.json:"*": a number was expected" ]]
	edit 55 's/"stack":\[3,3,6,1\]/"stack":[3,3.5,6,1]/'
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/e.json"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[[ "$stderr" == "stackcollapse-samply: $T/e.json:"*": an integer was expected" ]]
}

@test "negative weights are skipped and counted once; the rest is kept" {
	edit 55 's/"weight":\[1,2,1,1,3,1\]/"weight":[1,2,1,-1,3,1]/'
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/e.json"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-samply: $T/e.json: 1 samples of negative weight skipped" ]
	[[ "$output" != *"0x7f00dead"* ]]
	run --separate-stderr "$BIN/stackcollapse-samply" -q "$T/e.json"
	[ -z "$stderr" ]
}

@test "--cpu on a thread without threadCPUDelta: said, its samples not kept" {
	edit 55 's/,"threadCPUDelta":\[1,0,1,1\]//'
	run --separate-stderr "$BIN/stackcollapse-samply" --cpu "$T/e.json"
	[ "$status" -eq 0 ]
	[ "$stderr" = "stackcollapse-samply: $T/e.json: a thread without threadCPUDelta: none of its samples is kept by --cpu" ]
	[[ "$output" != *"main;compute:inner 1"* ]]
}

@test "gzip: a bad checksum, cut anywhere: the message, exit 1" {
	gen > "$T/p.json"
	gzip -n -c "$T/p.json" > "$T/p.json.gz"
	n=$(wc -c < "$T/p.json.gz")
	cp "$T/p.json.gz" "$T/crc.json.gz"
	printf '\125' | dd of="$T/crc.json.gz" bs=1 seek=$((n - 8)) conv=notrunc 2> /dev/null
	bad "$T/crc.json.gz" "gzip: bad checksum"
	mkdir "$T/cuts"
	"$TESTBIN/pprofgen" cuts "$T/p.json.gz" "$T/cuts"
	rm "$T/cuts/cut-00000" "$T/cuts/cut-00001"
	for f in "$T"/cuts/*; do
		"$BIN/stackcollapse-samply" "$f" > "$T/out" 2> "$T/err" && fail "$f: status 0"
		[ ! -s "$T/out" ] || fail "$f: output"
		grep -Eq "^stackcollapse-samply: $f: gzip: (truncated input|bad (header|checksum|length).*)$" "$T/err" ||
			fail "$f: $(cat "$T/err")"
	done
}

@test "a profile cut at every length, a bit flipped in every byte: an error or valid stacks" {
	gen -v 66 > "$T/p.json"
	mkdir "$T/cuts" "$T/flips"
	"$TESTBIN/pprofgen" cuts "$T/p.json" "$T/cuts"
	each_ok "$T/cuts"
	bad "$T/cuts/cut-00000" "empty input (not a profile)"
	"$TESTBIN/pprofgen" flips "$T/p.json" "$T/flips"
	each_ok "$T/flips"
}

@test "random bytes, an empty file, empty gzip: errors" {
	"$TESTBIN/randbytes" 100000 7 > "$T/random"
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/random"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "stackcollapse-samply: $T/random:1:1: "* ]]
	: > "$T/empty"
	bad "$T/empty" "empty input (not a profile)"
	gzip -n < "$T/empty" > "$T/empty.gz"
	bad "$T/empty.gz" "empty input (not a profile)"
}

@test "a damaged profile among good ones: reported, the others summed, nothing of it counted" {
	gen > "$T/p.json"
	edit 55 's/"stack":\[5,2\]/"stack":[5,99]/'
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/p.json" "$T/e.json" "$T/p.json"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-samply: $T/e.json: samples: sample 1's stack 99 is out of range (8 stacks)" ]
	awk '{ n = $NF; $NF = ""; printf "%s%d\n", $0, 2 * n }' "$D/abstract.folded" > "$T/double"
	golden "$T/double"
	# the damage is in its last thread: the threads before it are not counted
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/e.json"
	[ -z "$output" ]
}

@test "a missing file is reported; the others are read" {
	gen > "$T/p.json"
	run --separate-stderr "$BIN/stackcollapse-samply" "$T/nope.json" "$T/p.json"
	[ "$status" -eq 1 ]
	[ "$stderr" = "stackcollapse-samply: $T/nope.json: No such file or directory" ]
	golden "$D/abstract.folded"
}

@test "a deep stack of 100,000 frames" {
	gen -D 100000 > "$T/deep.json"
	run --separate-stderr "$BIN/stackcollapse-samply" --addrs "$T/deep.json"
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | tr ';' '\n' | grep -c '^\[lib <0x')" -eq 100000 ]
	[[ "$output" == "[lib <0x10>];[lib <0x20>];"*";[lib <0x186a00>] 1" ]]
}
